/**
 * JSON Schemas of what the official web UI (`gortexhq/web`) reads from a server, written from
 * `../shared/reference/web-ui-contract.md`: every route's answer and the JSON inside the six tool
 * calls' `content[0].text`. Required fields are those the UI dereferences; extra fields are free.
 */

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const num: Schema = { type: 'number' };
const bool: Schema = { type: 'boolean' };
const strings: Schema = { type: 'array', items: str };

/** An object with these required properties (others allowed). */
function obj(props: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  return { type: 'object', required: Object.keys(props), properties: { ...props, ...optional } };
}
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values });

/** `GortexNode`: the node shape of graph answers. */
export const gortexNode = obj(
  { id: str, kind: str, name: str, file_path: str, start_line: num, repo_prefix: str },
  { qual_name: str, end_line: num, language: str, meta: { type: 'object' } },
);

export const repo = obj({ id: str, owner: str, lang: str, nodes: num, edges: num, funcs: num, methods: num, types: num, interfaces: num, vars: num, files: num, color: str });

export const activity = obj({
  file_path: str,
  kind: str,
  nodes_added: num,
  nodes_removed: num,
  edges_added: num,
  edges_removed: num,
  timestamp: str,
  duration_ms: num,
});

export const caveat = obj(
  { id: str, severity: oneOf('risk', 'hot', 'cycle', 'unowned', 'deprecated', 'boundary'), symbol: str, title: str, desc: str, owner: str, age: str },
  { file_path: str, repo_prefix: str, kind: str, fan_in: num, external_callers: num, caller_repos: strings },
);

export const process = obj({
  id: str,
  name: str,
  entry: str,
  steps: num,
  files: num,
  repos: num,
  score: num,
  risk: oneOf('ok', 'warn', 'risk'),
  crosses: strings,
  category: oneOf('product', 'tests', 'internal'),
});

const contractMeta = obj({}, { request_type: str, response_type: str, request_expr: str, response_expr: str, request_stream: bool, response_stream: bool, path_params: strings, query_params: strings, status_codes: arrayOf(num), source: str });

export const contract = obj({
  id: str,
  name: str,
  kind: str,
  type: str,
  scope: oneOf('own', 'external'),
  producer: str,
  consumers: strings,
  version: str,
  breaking: bool,
  callers: num,
  last: str,
  locations: arrayOf(obj({ role: oneOf('provider', 'consumer'), repo_prefix: str, symbol_id: str, file_path: str, line: num }, { meta: contractMeta })),
});

/** Route answers by path. */
export const routes: Record<string, Schema> = {
  '/v1/dashboard': obj({
    stats: obj({ total_nodes: num, total_edges: num, repos: num, caveats: num, version: str }),
    kinds: arrayOf(obj({ name: str, count: num })),
    languages: arrayOf(obj({ name: str, count: num })),
    repos: arrayOf(repo),
    activity: arrayOf(activity),
    caveats: arrayOf(caveat),
    processes: arrayOf(process),
  }),
  '/v1/repos': obj({ repos: arrayOf(repo) }),
  '/v1/graph': obj({
    nodes: arrayOf(obj({ id: str, kind: str, name: str, file_path: str, repo_prefix: str, start_line: num })),
    edges: arrayOf(obj({ from: str, to: str, kind: str }, { cross_repo: bool })),
    stats: obj({ total_nodes: num, total_edges: num, by_kind: { type: 'object' }, by_language: { type: 'object' } }, { per_repo: { type: 'array' } }),
  }),
  '/v1/processes': obj({ processes: arrayOf(process) }),
  '/v1/contracts': obj({ contracts: arrayOf(contract) }),
  '/v1/contracts/validate': obj({
    issues: arrayOf(obj({ contract_id: str, kind: str, severity: oneOf('breaking', 'warning', 'info') })),
    summary: obj({ total: num, breaking: num, warning: num, info: num }),
  }),
  '/v1/communities': obj({ communities: arrayOf(obj({ id: str, name: str, repo: str, symbols: num, files: num, cohesion: { type: 'number', minimum: 0, maximum: 1 } })), modularity: num }),
  '/v1/guards': obj({ guards: arrayOf(obj({ id: str, name: str, kind: str, status: oneOf('ok', 'warn', 'violated'), hits: num, scope: str })) }),
  '/v1/caveats': obj({ caveats: arrayOf(caveat) }),
  '/v1/activity': obj({ events: arrayOf(activity) }),
};

/** The MCP `CallToolResult` envelope every `/v1/tools/{name}` answer is. */
export const callToolResult = obj({ content: { type: 'array', minItems: 1, items: obj({ type: { const: 'text' }, text: str }) } }, { isError: bool });

const subGraph = obj({ nodes: arrayOf(gortexNode) });

/** The JSON inside `content[0].text` of the tool calls the UI makes. */
export const tools: Record<string, Schema> = {
  get_processes: obj({ id: { type: ['string', 'number'] }, name: str, entry_point: str, steps: arrayOf(obj({ id: str, depth: num })), step_count: num, files: strings, score: num }),
  get_symbol_source: obj({ source: str, from_line: num, start_line: num, end_line: num }),
  get_symbol: obj({ node: gortexNode }),
  search_symbols: obj({ results: arrayOf(obj({ id: str, kind: str, name: str, path: str, line: num }, { sig: str })) }),
  find_usages: subGraph,
  get_dependencies: subGraph,
};
