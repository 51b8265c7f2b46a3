/**
 * Per-tool GCX1 layouts: which rows and fields each tool's result becomes, plus the generic
 * fallback for tools without a layout.
 *
 * Conventions shared by every layout:
 * - The first section is named after the tool and carries the tool-level meta (totals, flags,
 *   small objects as compact JSON); further sections are `<tool>.<part>`. A section whose source
 *   is absent (an optional list, a caveat) is left out; an empty list still gets its header.
 * - A cell holds a string verbatim, a number or boolean as its JSON text, a nested object or
 *   array as compact JSON, and nothing for an absent or null value. A column empty in every row
 *   of a section is left out of it (a consumer treats a missing field as ""); a section without
 *   rows keeps every field so its header still documents the layout.
 * - Meta never holds whitespace: a meta value with whitespace (an id or path with a space, a
 *   message) and any key the header cannot carry go to a trailing `<tool>.meta` section
 *   (`key,value`). Top-level fields a layout does not know (added later on the Rust side) are
 *   treated as meta too, so they are never silently dropped.
 * - `line` in a row about a node is the node's declaration line; a use-site line next to it is
 *   `site` (`lines` when there are several, on callers). Rows about edges and use sites keep
 *   their own `line`.
 * - Fields a layout leaves out on purpose (to stay compact) are listed on the layout; list rows
 *   leave out a node's `name` and `language` (see `NODE_LIST`).
 */
import type {
  Caveat,
  DependencyRow,
  EdgeRow,
  FindDeclarationResult,
  FindFilesResult,
  FindImplementationsResult,
  FindImportPathResult,
  FindOverridesResult,
  FindUsagesResult,
  GetCallChainResult,
  GetCallersResult,
  GetClassHierarchyResult,
  GetClusterResult,
  GetDependenciesResult,
  GetDependentsResult,
  GetFileSummaryResult,
  GetSymbolResult,
  GraphQueryResult,
  HierarchyMethod,
  NodeSummary,
  OverrideRow,
  SearchSymbolsResult,
  SearchTextResult,
  StagePlan,
  SymbolHit,
  TracePathResult,
  UsageRow,
  UseSite,
  WalkGraphResult,
  WinnowSymbolsResult,
} from '../engine/engine';
import type { GraphStats } from '../engine/types';
import { byCodeUnit, isGcxToken, type GcxSection } from './gcx-codec';
import type { ReadFileResult } from '../tools/source';

/** The text of one cell (see the module doc). */
export function gcxCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'object') return JSON.stringify(value) ?? '';
  return '';
}

/** One column: its field name and how a source row yields its value. */
type Col<T> = readonly [field: string, get: (row: T) => unknown];

/**
 * A section of `rows` laid out by `cols`, with its `rows=` count. A column empty in every row is
 * left out (absent and empty read the same); a section without rows keeps every field, so its
 * header still shows the layout.
 */
function table<T>(name: string, rows: readonly T[], cols: readonly Col<NoInfer<T>>[]): GcxSection {
  const cells = rows.map((row) => cols.map(([, get]) => gcxCell(get(row))));
  const keep = cols.map((_, i) => rows.length === 0 || cells.some((row) => row[i] !== ''));
  if (!keep.includes(true)) keep[0] = true;
  return {
    name,
    meta: { rows: String(rows.length) },
    fields: cols.filter((_, i) => keep[i]).map(([field]) => field),
    rows: cells.map((row) => row.filter((_, i) => keep[i])),
  };
}

/** `[table]` when the source list is present, else nothing. */
function optional<T>(name: string, rows: readonly T[] | undefined, cols: readonly Col<NoInfer<T>>[]): GcxSection[] {
  return rows === undefined ? [] : [table(name, rows, cols)];
}

/**
 * The node columns a row can show (frozen wire names) and the node field each reads: `qualified`
 * is `qual_name`, `path` is `file_path`, `line` is `start_line` and `sig` is `signature`.
 */
const NODE_SOURCE = {
  id: 'id',
  kind: 'kind',
  name: 'name',
  qualified: 'qual_name',
  path: 'file_path',
  line: 'start_line',
  end_line: 'end_line',
  language: 'language',
  flavor: 'flavor',
  ui_framework: 'ui_framework',
  sig: 'signature',
  exported: 'exported',
  is_test: 'is_test',
  external: 'external',
} as const satisfies Record<string, keyof NodeSummary>;

/** Node columns a row can show. */
type NodeField = keyof typeof NODE_SOURCE;

/** Every field of a node, for one-row sections (targets, parents, path ends). */
const NODE_FULL: readonly NodeField[] = [
  'id',
  'kind',
  'name',
  'qualified',
  'path',
  'line',
  'end_line',
  'language',
  'flavor',
  'ui_framework',
  'sig',
  'exported',
  'is_test',
  'external',
];
/** Node fields of list rows: `name` is the tail of `qualified` and `language` follows from the path. */
const NODE_LIST: readonly NodeField[] = ['id', 'kind', 'qualified', 'path', 'line', 'end_line', 'flavor', 'sig', 'exported', 'is_test', 'external'];

/** Columns showing the node `pick` returns, with the chosen fields. */
function nodeCols<T>(pick: (row: T) => NodeSummary | undefined, fields: readonly NodeField[]): Col<T>[] {
  return fields.map((field) => [field, (row: T) => pick(row)?.[NODE_SOURCE[field]]] as const);
}

/** Columns showing the node held under `key` of each row. */
function nodeAt<K extends string>(key: K, fields: readonly NodeField[]): Col<{ readonly [P in K]?: NodeSummary }>[] {
  return nodeCols((row: { readonly [P in K]?: NodeSummary }) => row[key], fields);
}

/** Columns of a row that is itself a node (walk nodes, winnow hits, query results). */
function selfCols<T extends NodeSummary>(fields: readonly NodeField[] = NODE_LIST): Col<T>[] {
  return nodeCols<T>((row) => row, fields);
}

/**
 * Columns of a `search_symbols` hit, a row rather than a node: it keeps `qualified`, `path`,
 * `line` and `sig` under the column names, and has no `external` (that column stays, empty).
 */
function hitCols(fields: readonly NodeField[] = NODE_LIST): Col<SymbolHit>[] {
  return fields.map((field) => [field, (h: SymbolHit) => (field === 'external' ? undefined : h[field])] as const);
}

/** A one-row section showing a whole node. */
function nodeSection(name: string, node: NodeSummary | undefined): GcxSection[] {
  return node === undefined ? [] : [table(name, [node], selfCols(NODE_FULL))];
}

/** The `.caveat` section: class and its prose message, never in the header. */
function caveatSection(tool: string, caveat: Caveat | undefined): GcxSection[] {
  return caveat === undefined ? [] : [table(`${tool}.caveat`, [caveat], [['class', (c) => c.class], ['message', (c) => c.message]])];
}

/** Columns of an edge row (walks, clusters, hierarchies). */
const EDGE_COLS: readonly Col<EdgeRow>[] = [
  ['from', (e) => e.from],
  ['to', (e) => e.to],
  ['kind', (e) => e.kind],
  ['origin', (e) => e.origin],
  ['line', (e) => e.line],
];

/** What a layout produces: sections (the first named after the tool) and the tool-level meta. */
interface Encoded {
  meta: Record<string, unknown>;
  sections: GcxSection[];
}

/** One tool's layout. */
interface Layout {
  /** Top-level keys and the JSON type they must have for this layout to apply. */
  shape: Record<string, 'array' | 'object' | 'string'>;
  /** Top-level keys the layout handles (shown or deliberately left out); others become meta. */
  consumes: readonly string[];
  encode(result: never, tool: string): Encoded;
}

/** Declares a layout typed by its result shape. */
function layout<R>(
  shape: Layout['shape'],
  consumes: readonly (keyof R & string)[],
  encode: (result: R, tool: string) => Encoded,
): Layout {
  return { shape, consumes, encode: encode as Layout['encode'] };
}

/** Tier bookkeeping every tiered result flattens in. */
const TIER_KEYS = ['tier_filtered', 'name_only_suppressed'] as const;

/** `search_symbols`: leaves out `name`, `language`, `signals` and `matched` of each hit. */
const searchSymbols = layout<SearchSymbolsResult>(
  { results: 'array' },
  ['results', 'total', 'truncated', 'decomposed', 'exact', 'unmatched', 'read_as'],
  (r, tool) => ({
    meta: { total: r.total, truncated: r.truncated, decomposed: r.decomposed, exact: r.exact, unmatched: r.unmatched, read_as: r.read_as },
    sections: [table(tool, r.results, [...hitCols(), ['score', (h) => h.score], ['tier', (h) => h.tier]])],
  }),
);

/** `winnow_symbols`: leaves out `name` and `language` of each hit. */
const winnowSymbols = layout<WinnowSymbolsResult>({ results: 'array' }, ['results', 'total', 'truncated'], (r, tool) => ({
  meta: { total: r.total, truncated: r.truncated },
  sections: [
    table(tool, r.results, [
      ...selfCols(),
      ['score', (h) => h.score],
      ['fan_in', (h) => h.fan_in],
      ['fan_out', (h) => h.fan_out],
      ['churn', (h) => h.churn],
      ['axes', (h) => h.axes],
    ]),
  ],
}));

/** `search_text`: every hit field; the line text last. */
const searchText = layout<SearchTextResult>(
  { hits: 'array' },
  ['hits', 'total_hits', 'truncated', 'files_matched', 'candidate_files', 'docs', 'unreadable_files'],
  (r, tool) => ({
    meta: {
      total_hits: r.total_hits,
      truncated: r.truncated,
      files_matched: r.files_matched,
      candidate_files: r.candidate_files,
      docs: r.docs,
      unreadable_files: r.unreadable_files,
    },
    sections: [
      table(tool, r.hits, [
        ['path', (h) => h.path],
        ['line', (h) => h.line],
        ['column', (h) => h.column],
        ['symbol_id', (h) => h.symbol_id],
        ['symbol_name', (h) => h.symbol_name],
        ['text', (h) => h.text],
      ]),
    ],
  }),
);

/** `find_files`: leaves out the file `id` (the repository name plus the path). */
const findFiles = layout<FindFilesResult>({ results: 'array' }, ['results', 'total', 'truncated'], (r, tool) => ({
  meta: { total: r.total, truncated: r.truncated },
  sections: [
    table(tool, r.results, [
      ['path', (f) => f.path],
      ['language', (f) => f.language],
      ['match', (f) => f.match],
      ['score', (f) => f.score],
      ['symbols', (f) => f.symbols],
    ]),
  ],
}));

/** Columns of a use site; `decl` (the declaration id) only on resolved uses. */
const USE_COLS: readonly Col<UseSite>[] = [
  ['path', (u) => u.path],
  ['line', (u) => u.line],
  ['column', (u) => u.column],
  ['identifier', (u) => u.identifier],
  ['origin', (u) => u.origin],
  ['text', (u) => u.text],
];

/** `find_declaration`: declarations, then their uses flattened (`decl` names the declaration), then unresolved uses. */
const findDeclaration = layout<FindDeclarationResult>(
  { declarations: 'array' },
  ['declarations', 'unresolved_uses', 'use_sites', 'truncated', 'candidate_files'],
  (r, tool) => {
    // Like any optional list, the flattened uses are left out when no declaration carries any.
    const withUses = r.declarations.filter((d) => d.uses !== undefined);
    const uses = withUses.flatMap((d) => (d.uses ?? []).map((use) => ({ decl: d.node.id, use })));
    return {
      meta: { use_sites: r.use_sites, truncated: r.truncated, candidate_files: r.candidate_files },
      sections: [
        table(tool, r.declarations, [
          ...nodeAt('node', NODE_LIST),
          ['origin', (d) => d.origin],
          ['resolved_uses', (d) => d.resolved_uses],
          ['matched_declaration', (d) => d.matched_declaration],
        ]),
        ...optional(`${tool}.uses`, withUses.length > 0 ? uses : undefined, [
          ['decl', (u) => u.decl],
          ...USE_COLS.map(([f, get]) => [f, (u: { use: UseSite }) => get(u.use)] as const),
        ]),
        ...optional(`${tool}.unresolved_uses`, r.unresolved_uses, USE_COLS),
      ],
    };
  },
);

/** `get_symbol`: the node and its details in one row, then its parent and its doc (prose) in their own sections. */
const getSymbol = layout<GetSymbolResult>(
  { node: 'object' },
  [
    'node',
    'doc',
    'visibility',
    'decorators',
    'type_name',
    'return_type',
    'is_async',
    'is_static',
    'is_abstract',
    'test_role',
    'test_runner',
    'parent',
    'edges_in',
    'edges_out',
    'unresolved_out',
  ],
  (r, tool) => ({
    meta: {},
    sections: [
      table(tool, [r], [
        ...nodeAt('node', NODE_FULL),
        ['visibility', (x) => x.visibility],
        ['decorators', (x) => x.decorators],
        ['type_name', (x) => x.type_name],
        ['return_type', (x) => x.return_type],
        ['is_async', (x) => x.is_async],
        ['is_static', (x) => x.is_static],
        ['is_abstract', (x) => x.is_abstract],
        ['test_role', (x) => x.test_role],
        ['test_runner', (x) => x.test_runner],
        ['edges_in', (x) => x.edges_in],
        ['edges_out', (x) => x.edges_out],
        ['unresolved_out', (x) => x.unresolved_out],
      ]),
      ...nodeSection(`${tool}.parent`, r.parent),
      ...(r.doc === undefined ? [] : [table(`${tool}.doc`, [r.doc], [['doc', (d) => d]])]),
    ],
  }),
);

/** `get_file_summary`: symbols without their (shared) path and external flag, the file node, imports; counts as meta. */
const getFileSummary = layout<GetFileSummaryResult>(
  { symbols: 'array', imports: 'array', file: 'object' },
  ['file', 'symbols', 'imports', 'counts', 'truncated'],
  (r, tool) => ({
    meta: {
      truncated: r.truncated,
      symbols: r.counts?.symbols,
      by_kind: r.counts?.by_kind,
      imports: r.counts?.imports,
      unresolved_imports: r.counts?.unresolved_imports,
      imported_by: r.counts?.imported_by,
    },
    sections: [
      table(tool, r.symbols, [
        ...nodeAt('symbol', ['id', 'kind', 'qualified', 'line', 'end_line', 'flavor', 'sig', 'exported', 'is_test']),
        ['parent', (s) => s.parent],
        ['depth', (s) => s.depth],
      ]),
      ...nodeSection(`${tool}.file`, r.file),
      table(`${tool}.imports`, r.imports, [
        ['line', (i) => i.line],
        ['kind', (i) => i.kind],
        ['module', (i) => i.module],
        ['target', (i) => i.target],
        ['status', (i) => i.status],
        ['origin', (i) => i.origin],
        ['symbols', (i) => i.symbols],
      ]),
    ],
  }),
);

/** `get_callers`: caller rows (leaving out the caller's path, end line, flavor and flags but `is_test`), target, caveat. */
const getCallers = layout<GetCallersResult>(
  { callers: 'array' },
  ['target', 'callers', 'total', 'truncated', 'caveat', ...TIER_KEYS],
  (r, tool) => ({
    meta: { total: r.total, truncated: r.truncated, tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed },
    sections: [
      table(tool, r.callers, [
        ...nodeAt('caller', ['id', 'kind', 'qualified', 'line', 'sig', 'is_test']),
        ['edge', (c) => c.kind],
        ['origin', (c) => c.origin],
        ['path', (c) => c.path],
        ['lines', (c) => c.lines],
        ['depth', (c) => c.depth],
        ['callee', (c) => c.callee],
        ['via', (c) => c.via],
      ]),
      ...nodeSection(`${tool}.target`, r.target),
      ...caveatSection(tool, r.caveat),
    ],
  }),
);

/** `get_call_chain`: nodes by depth (the root is the depth-0 row), the calls, the unresolved calls. */
const getCallChain = layout<GetCallChainResult>(
  { nodes: 'array', calls: 'array' },
  ['root', 'nodes', 'calls', 'unresolved', 'total', 'unresolved_total', 'truncated', ...TIER_KEYS],
  (r, tool) => ({
    meta: {
      total: r.total,
      unresolved_total: r.unresolved_total,
      truncated: r.truncated,
      tier_filtered: r.tier_filtered,
      name_only_suppressed: r.name_only_suppressed,
    },
    sections: [
      table(tool, r.nodes, [...nodeAt('node', NODE_LIST), ['depth', (n) => n.depth]]),
      table(`${tool}.calls`, r.calls, [
        ['from', (c) => c.from],
        ['to', (c) => c.to],
        ['kind', (c) => c.kind],
        ['origin', (c) => c.origin],
        ['depth', (c) => c.depth],
        ['line', (c) => c.line],
      ]),
      ...optional(`${tool}.unresolved`, r.unresolved, [
        ['from', (u) => u.from],
        ['target', (u) => u.target],
        ['line', (u) => u.line],
        ['candidates', (u) => u.candidates],
      ]),
    ],
  }),
);

/**
 * `find_usages`: one row per use site (the user's own line, path and flags but `is_test` left out;
 * the user is the `nodes` entry the row's `from` names), target, caveat.
 */
const findUsages = layout<FindUsagesResult>(
  { usages: 'array', nodes: 'array' },
  ['target', 'nodes', 'usages', 'by_context', 'total', 'truncated', 'caveat', ...TIER_KEYS],
  (r, tool) => {
    const users = new Map(r.nodes.map((n) => [n.id, n]));
    return {
      meta: {
        by_context: r.by_context,
        total: r.total,
        truncated: r.truncated,
        tier_filtered: r.tier_filtered,
        name_only_suppressed: r.name_only_suppressed,
      },
      sections: [
        table(tool, r.usages, [
          ['id', (u) => u.from],
          ...nodeCols((u: UsageRow) => users.get(u.from), ['kind', 'qualified', 'is_test']),
          ['edge', (u) => u.kind],
          ['context', (u) => u.context],
          ['origin', (u) => u.origin],
          ['path', (u) => u.path],
          ['site', (u) => u.line],
          ['from_type_flavor', (u) => u.from_type_flavor],
          ['from_ui_component', (u) => u.from_ui_component],
          ['via', (u) => u.via],
        ]),
        ...nodeSection(`${tool}.target`, r.target),
        ...caveatSection(tool, r.caveat),
      ],
    };
  },
);

/**
 * Columns of a dependency or dependent row, itself a node plus its link (the node's end line and
 * flavor left out; `line` is the declaration's, `site` the first reference's).
 */
const DEPENDENCY_COLS: readonly Col<DependencyRow>[] = [
  ...selfCols<DependencyRow>(['id', 'kind', 'qualified', 'path', 'line', 'sig', 'exported', 'is_test', 'external']),
  ['depth', (d) => d.depth],
  ['kinds', (d) => d.edge_kinds],
  ['origin', (d) => d.origin],
  ['site', (d) => d.line],
  ['via', (d) => d.via],
];

/** `get_dependencies` / `get_dependents`: rows, target, caveat (dependents); mode and per-depth counts as meta. */
function dependencyLayout(): Layout {
  return layout<GetDependenciesResult & GetDependentsResult>(
    { nodes: 'array' },
    ['target', 'mode', 'nodes', 'by_depth', 'total', 'truncated', 'caveat', ...TIER_KEYS],
    (r, tool) => ({
      meta: {
        mode: r.mode,
        by_depth: r.by_depth,
        total: r.total,
        truncated: r.truncated,
        tier_filtered: r.tier_filtered,
        name_only_suppressed: r.name_only_suppressed,
      },
      sections: [table(tool, r.nodes, DEPENDENCY_COLS), ...nodeSection(`${tool}.target`, r.target), ...caveatSection(tool, r.caveat)],
    }),
  );
}

/** `find_implementations`: implementing types, the sub-interfaces walked through, the target (rows leave out end lines and test/external flags). */
const findImplementations = layout<FindImplementationsResult>(
  { implementations: 'array' },
  ['target', 'implementations', 'sub_interfaces', 'total', 'truncated', ...TIER_KEYS],
  (r, tool) => ({
    meta: { total: r.total, truncated: r.truncated, tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed },
    sections: [
      table(tool, r.implementations, [
        ...nodeAt('node', ['id', 'kind', 'qualified', 'path', 'line', 'flavor', 'sig', 'exported']),
        ['implements', (i) => i.implements],
        ['edge', (i) => i.kind],
        ['origin', (i) => i.origin],
        ['site', (i) => i.line],
        ['depth', (i) => i.depth],
      ]),
      ...optional(`${tool}.sub_interfaces`, r.sub_interfaces, [
        ...nodeAt('node', ['id', 'kind', 'qualified', 'path', 'line', 'sig', 'exported']),
        ['extends', (s) => s.extends],
        ['origin', (s) => s.origin],
        ['depth', (s) => s.depth],
      ]),
      ...nodeSection(`${tool}.target`, r.target),
    ],
  }),
);

/** `find_overrides`: parents and children in one list (`list` says which; owners by id only), then the target and its owner. */
const findOverrides = layout<FindOverridesResult>(
  { parents: 'array', children: 'array' },
  ['target', 'owner', 'parents', 'children', 'truncated', ...TIER_KEYS],
  (r, tool) => {
    const rows = [
      ...r.parents.map((row) => ({ list: 'parents', row })),
      ...r.children.map((row) => ({ list: 'children', row })),
    ];
    return {
      meta: { truncated: r.truncated, tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed },
      sections: [
        table(tool, rows, [
          ['list', (x) => x.list],
          ...nodeCols((x: { row: OverrideRow }) => x.row.method, ['id', 'kind', 'qualified', 'path', 'line', 'sig']),
          ['owner', (x) => x.row.owner.id],
          ['depth', (x) => x.row.depth],
          ['origin', (x) => x.row.origin],
        ]),
        ...nodeSection(`${tool}.target`, r.target),
        ...nodeSection(`${tool}.owner`, r.owner),
      ],
    };
  },
);

/** `get_class_hierarchy`: nodes (the root is the `side=root` row), edges, and methods flattened (`type` names their owner). */
const getClassHierarchy = layout<GetClassHierarchyResult>(
  { nodes: 'array', edges: 'array' },
  ['root', 'nodes', 'edges', 'truncated', ...TIER_KEYS],
  (r, tool) => {
    const listed = r.nodes.filter((n) => n.methods !== undefined);
    const methods = listed.flatMap((n) => (n.methods ?? []).map((m) => ({ type: n.node.id, m })));
    return {
      meta: { truncated: r.truncated, tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed },
      sections: [
        table(tool, r.nodes, [...nodeAt('node', NODE_LIST), ['side', (n) => n.side], ['depth', (n) => n.depth]]),
        table(`${tool}.edges`, r.edges, EDGE_COLS),
        ...(listed.length === 0
          ? []
          : [
              table(`${tool}.methods`, methods, [
                ['type', (x) => x.type],
                ['id', (x: { m: HierarchyMethod }) => x.m.id],
                ['name', (x) => x.m.name],
                ['line', (x) => x.m.line],
                ['overrides', (x) => x.m.overrides],
              ]),
            ]),
      ],
    };
  },
);

/** `get_cluster`: nodes (the centre is the depth-0 row) and the edges between them. */
const getCluster = layout<GetClusterResult>(
  { nodes: 'array', edges: 'array' },
  ['center', 'nodes', 'edges', 'total', 'truncated', ...TIER_KEYS],
  (r, tool) => ({
    meta: { total: r.total, truncated: r.truncated, tier_filtered: r.tier_filtered, name_only_suppressed: r.name_only_suppressed },
    sections: [
      table(tool, r.nodes, [...nodeAt('node', NODE_LIST), ['depth', (n) => n.depth]]),
      table(`${tool}.edges`, r.edges, EDGE_COLS),
    ],
  }),
);

/** `walk_graph`: visited nodes and followed edges; the walk's bookkeeping as meta. */
const walkGraph = layout<WalkGraphResult>(
  { nodes: 'array', edges: 'array' },
  ['start', 'direction', 'edge_kinds', 'nodes', 'edges', 'budget_hit', 'truncated', 'stopped_at_depth', 'depth_reached', 'tokens_used'],
  (r, tool) => ({
    meta: {
      start: r.start,
      direction: r.direction,
      edge_kinds: r.edge_kinds,
      budget_hit: r.budget_hit,
      truncated: r.truncated,
      stopped_at_depth: r.stopped_at_depth,
      depth_reached: r.depth_reached,
      tokens_used: r.tokens_used,
    },
    sections: [table(tool, r.nodes, [...selfCols(), ['depth', (n) => n.depth]]), table(`${tool}.edges`, r.edges, EDGE_COLS)],
  }),
);

/** `graph_query`: the result nodes, then the parsed plan one stage per row (op fields as columns). */
const graphQuery = layout<GraphQueryResult>({ nodes: 'array', stages: 'array' }, ['nodes', 'count', 'truncated', 'stages'], (r, tool) => {
  const field = (s: StagePlan, key: string): unknown => (s as unknown as Record<string, unknown>)[key];
  const opCols = ['filters', 'edge_kinds', 'direction', 'depth', 'min_tier', 'by', 'order', 'n'].map(
    (key) => [key, (s: StagePlan) => field(s, key)] as const,
  );
  return {
    meta: { count: r.count, truncated: r.truncated },
    sections: [
      table(tool, r.nodes, selfCols()),
      table(`${tool}.stages`, r.stages, [['stage', (s) => s.stage], ['op', (s) => s.op], ['size', (s) => s.size], ...opCols]),
    ],
  };
});

/** `trace_path`: the two ends (`end` = from/to), then paths, their hops (`path` = 1-based path number), or the diagnosis. */
const tracePath = layout<TracePathResult>(
  { from: 'object', to: 'object' },
  ['from', 'to', 'edge_kinds', 'paths', 'length', 'shortest_paths', 'truncated', 'diagnosis'],
  (r, tool) => {
    const ends = [
      { end: 'from', node: r.from },
      { end: 'to', node: r.to },
    ];
    const paths = r.paths?.map((p, i) => ({ path: i + 1, p }));
    const hops = r.paths?.flatMap((p, i) => p.hops.map((hop) => ({ path: i + 1, hop })));
    const d = r.diagnosis;
    return {
      meta: { edge_kinds: r.edge_kinds, length: r.length, shortest_paths: r.shortest_paths, truncated: r.truncated },
      sections: [
        table(tool, ends, [['end', (e) => e.end], ...nodeCols((e: { node: NodeSummary }) => e.node, NODE_FULL)]),
        ...optional(`${tool}.paths`, paths, [
          ['path', (x) => x.path],
          ['confidence', (x) => x.p.confidence],
        ]),
        ...optional(`${tool}.hops`, hops, [['path', (x) => x.path], ...EDGE_COLS.map(([f, get]) => [f, (x: { hop: EdgeRow }) => get(x.hop)] as const)]),
        ...(d === undefined
          ? []
          : [
              table(`${tool}.diagnosis`, [d], [
                ['from_outgoing', (x) => x.from_outgoing],
                ['to_incoming', (x) => x.to_incoming],
                ['reachable', (x) => x.reachable],
                ['depth_limited', (x) => x.depth_limited],
                ['reverse_hops', (x) => x.reverse_hops],
                ['undirected_hops', (x) => x.undirected_hops],
                ['with_references_hops', (x) => x.with_references_hops],
                ['ignoring_min_tier_hops', (x) => x.ignoring_min_tier_hops],
                ['message', (x) => x.message],
              ]),
              ...optional(`${tool}.unresolved`, d.unresolved, [
                ['from', (u) => u.from],
                ['kind', (u) => u.kind],
                ['target', (u) => u.target],
                ['line', (u) => u.line],
                ['candidates', (u) => u.candidates],
              ]),
            ]),
      ],
    };
  },
);

/** `find_import_path`: one row per import hop (the `path` list is the hops' files, left out); ends as meta; or the diagnosis. */
const findImportPath = layout<FindImportPathResult>(
  { from: 'string', to: 'string' },
  ['from', 'to', 'path', 'hops', 'diagnosis', 'import'],
  (r, tool) => {
    const d = r.diagnosis;
    const i = r.import;
    return {
      meta: { from: r.from, to: r.to },
      sections: [
        table(tool, r.hops ?? [], [
          ['from', (h) => h.from],
          ['to', (h) => h.to],
          ['kind', (h) => h.kind],
          ['line', (h) => h.line],
        ]),
        ...(i === undefined
          ? []
          : [
              table(`${tool}.import`, [i], [
                ['symbol', (x) => x.symbol.id],
                ['status', (x) => x.status],
                ['statement', (x) => x.statement],
                ['module', (x) => x.module],
                ['reference', (x) => x.reference],
                ['line', (x) => x.line],
                ['note', (x) => x.note],
              ]),
            ]),
        ...(d === undefined
          ? []
          : [
              table(`${tool}.diagnosis`, [d], [
                ['from_imports', (x) => x.from_imports],
                ['to_importers', (x) => x.to_importers],
                ['reachable', (x) => x.reachable],
                ['depth_limited', (x) => x.depth_limited],
                ['reverse_hops', (x) => x.reverse_hops],
                ['message', (x) => x.message],
              ]),
              ...optional(`${tool}.unresolved_imports`, d.unresolved_imports, [
                ['file', (u) => u.file],
                ['module', (u) => u.module],
                ['line', (u) => u.line],
              ]),
            ]),
      ],
    };
  },
);

export type { ReadFileResult };

/**
 * What `get_symbol_source` returns: the symbol (`node`, its `start_line`/`end_line`) and the slice
 * of its file (`from_line`/`to_line`, context lines included; the text in `source`).
 */
export interface SymbolSourceResult {
  node: NodeSummary;
  path: string;
  from_line: number;
  to_line: number;
  start_line: number;
  end_line: number;
  total_lines: number;
  source: string;
  truncated: boolean;
  /** Tokens saved against reading the whole file. */
  tokens_saved: number;
}

/** `read_file`: one row, the text in one cell. */
const readFile = layout<ReadFileResult>(
  { text: 'string' },
  ['path', 'start_line', 'end_line', 'total_lines', 'text', 'truncated'],
  (r, tool) => ({
    meta: { total_lines: r.total_lines, truncated: r.truncated },
    sections: [
      table(tool, [r], [
        ['path', (x) => x.path],
        ['start_line', (x) => x.start_line],
        ['end_line', (x) => x.end_line],
        ['text', (x) => x.text],
      ]),
    ],
  }),
);

/**
 * `get_symbol_source`: one row, the symbol (its `line`/`end_line`) and the slice read
 * (`from_line`/`to_line`, which include context lines), the text (`source`) last in `text`; the
 * symbol's name, language and flags are left out (`get_symbol` has them).
 */
const getSymbolSource = layout<SymbolSourceResult>(
  { node: 'object', source: 'string' },
  ['node', 'path', 'from_line', 'to_line', 'start_line', 'end_line', 'total_lines', 'source', 'truncated', 'tokens_saved'],
  (r, tool) => ({
    meta: { total_lines: r.total_lines, truncated: r.truncated, tokens_saved: r.tokens_saved },
    sections: [
      table(tool, [r], [
        ...nodeAt('node', ['id', 'kind', 'qualified', 'line', 'end_line', 'sig']),
        ['path', (x) => x.path],
        ['from_line', (x) => x.from_line],
        ['to_line', (x) => x.to_line],
        ['text', (x) => x.source],
      ]),
    ],
  }),
);

/**
 * `graph_stats`: sizes, paths and search memory as meta on the first section, which lists nodes
 * by kind (`kind,count`); then `.edges_by_kind` (`kind,count`), `.edges_by_origin` (`origin,count`),
 * `.nodes_by_language` (`language,count`) and, in a workspace of several, `.repos`.
 */
const graphStats = layout<GraphStats & { repos?: RepoStatsRow[] }>(
  { nodes_by_kind: 'object', edges_by_kind: 'object', edges_by_origin: 'object', nodes_by_language: 'object' },
  [
    'name',
    'root',
    'files',
    'nodes',
    'edges',
    'indexed_at_ms',
    'snapshot_path',
    'nodes_by_kind',
    'edges_by_kind',
    'edges_by_origin',
    'nodes_by_language',
    'edge_identity_revisions',
    'repos',
    'unresolved',
    'search_memory',
    'provisional',
  ],
  (r, tool) => {
    const counts = (name: string, map: Record<string, number>, key: string): GcxSection =>
      table(name, Object.entries(map), [
        [key, ([k]) => k],
        ['count', ([, n]) => n],
      ]);
    return {
      meta: {
        name: r.name,
        root: r.root,
        files: r.files,
        nodes: r.nodes,
        edges: r.edges,
        unresolved: r.unresolved,
        edge_identity_revisions: r.edge_identity_revisions,
        indexed_at_ms: r.indexed_at_ms,
        snapshot_path: r.snapshot_path,
        search_memory: r.search_memory,
        provisional: r.provisional,
      },
      sections: [
        counts(tool, r.nodes_by_kind, 'kind'),
        counts(`${tool}.edges_by_kind`, r.edges_by_kind, 'kind'),
        counts(`${tool}.edges_by_origin`, r.edges_by_origin, 'origin'),
        counts(`${tool}.nodes_by_language`, r.nodes_by_language, 'language'),
        ...(r.repos
          ? [
              table(`${tool}.repos`, r.repos, [
                ['repo', (x) => x.name],
                ['phase', (x) => x.phase],
                ['files', (x) => x.files],
                ['nodes', (x) => x.nodes],
                ['edges', (x) => x.edges],
              ]),
            ]
          : []),
      ],
    };
  },
);

/** One repository of `graph_stats.repos`. */
export interface RepoStatsRow {
  name: string;
  phase: string;
  files: number | null;
  nodes: number | null;
  edges: number | null;
}

/** The tools with their own layout. */
const LAYOUTS: Record<string, Layout> = {
  search_symbols: searchSymbols,
  winnow_symbols: winnowSymbols,
  search_text: searchText,
  find_files: findFiles,
  find_declaration: findDeclaration,
  get_symbol: getSymbol,
  get_file_summary: getFileSummary,
  get_dependencies: dependencyLayout(),
  get_dependents: dependencyLayout(),
  get_callers: getCallers,
  get_call_chain: getCallChain,
  find_usages: findUsages,
  find_implementations: findImplementations,
  find_overrides: findOverrides,
  get_class_hierarchy: getClassHierarchy,
  get_cluster: getCluster,
  walk_graph: walkGraph,
  graph_query: graphQuery,
  trace_path: tracePath,
  find_import_path: findImportPath,
  graph_stats: graphStats,
  read_file: readFile,
  get_symbol_source: getSymbolSource,
};

/** Tool names that have a dedicated layout (everything else gets the generic fallback). */
export const GCX_LAYOUT_TOOLS: readonly string[] = Object.keys(LAYOUTS);

/** Meta keys the header itself uses. */
const RESERVED_META = new Set(['tool', 'fields', 'rows']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `result` has the top-level shape the layout expects (else the generic fallback is used). */
function fits(layoutDef: Layout, result: unknown): result is Record<string, unknown> {
  if (!isPlainObject(result)) return false;
  return Object.entries(layoutDef.shape).every(([key, type]) => {
    const value = result[key];
    if (type === 'array') return Array.isArray(value);
    if (type === 'object') return isPlainObject(value);
    return typeof value === 'string';
  });
}

/**
 * The generic fallback: an object holding lists of row objects becomes one section per list
 * (see `recordSections`); any other object is one row (fields = its sorted keys), an array of
 * objects one row per element (fields = the sorted union of keys), anything else field `value`
 * (one row per array element). Keys that cannot be field names, and empty objects, make the whole
 * value one JSON `value` cell instead.
 */
export function genericSections(tool: string, result: unknown): GcxSection[] {
  const asJson = (): GcxSection[] => [table(tool, [result], [['value', (v) => v]])];
  if (Array.isArray(result)) {
    if (result.length > 0 && result.every(isPlainObject)) {
      const keys = [...new Set(result.flatMap((o) => Object.keys(o)))].sort(byCodeUnit);
      if (!keys.every(isGcxToken)) return asJson();
      return [table(tool, result, keys.map((k) => [k, (o: Record<string, unknown>) => o[k]] as const))];
    }
    return [table(tool, result, [['value', (v) => v]])];
  }
  if (isPlainObject(result)) {
    const keys = Object.keys(result).sort(byCodeUnit);
    if (keys.length === 0 || !keys.every(isGcxToken)) return asJson();
    const record = recordSections(tool, result, keys);
    if (record) return record;
    return [table(tool, [result], keys.map((k) => [k, (o: Record<string, unknown>) => o[k]] as const))];
  }
  return asJson();
}

/** A row object's columns: its keys, with one level of nested objects spread as `key.sub`. */
function rowColumns(rows: readonly Record<string, unknown>[]): Col<Record<string, unknown>>[] | undefined {
  const cols = new Map<string, (o: Record<string, unknown>) => unknown>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every(isGcxToken)) {
        for (const sub of Object.keys(value)) {
          const name = `${key}.${sub}`;
          if (!cols.has(name)) cols.set(name, (o) => (isPlainObject(o[key]) ? (o[key] as Record<string, unknown>)[sub] : undefined));
        }
      } else if (!cols.has(key)) {
        cols.set(key, (o) => (isPlainObject(o[key]) ? undefined : o[key]));
      }
    }
  }
  const names = [...cols.keys()];
  if (!names.every(isGcxToken) || new Set(names).size !== names.length) return undefined;
  return names.sort(byCodeUnit).map((name) => [name, cols.get(name)!] as const);
}

/**
 * A record holding lists of row objects (most analysis results): each such list becomes a section
 * (the first named after the tool, the others `tool.<key>`, each with `of=<key>`), row objects
 * spread one level of nesting into `key.sub` columns, and the remaining fields become meta
 * (values with whitespace or structure go to the `.meta` section as JSON). Undefined when the
 * record has no list of row objects.
 */
function recordSections(tool: string, result: Record<string, unknown>, keys: readonly string[]): GcxSection[] | undefined {
  const lists = keys.filter((k) => {
    const v = result[k];
    return Array.isArray(v) && v.length > 0 && v.every(isPlainObject);
  });
  if (lists.length === 0) return undefined;
  const sections: GcxSection[] = [];
  for (const key of lists) {
    const rows = result[key] as Record<string, unknown>[];
    const cols = rowColumns(rows);
    if (!cols) return undefined;
    const section = table(sections.length === 0 ? tool : `${tool}.${key}`, rows, cols);
    section.meta.of = key;
    sections.push(section);
  }
  const overflow: [string, string][] = [];
  for (const key of keys) {
    if (lists.includes(key)) continue;
    const value = result[key];
    if (value === undefined || value === null) continue;
    const text = gcxCell(value);
    if (RESERVED_META.has(key) || key === 'of' || /\s/.test(text) || typeof value === 'object') overflow.push([key, text]);
    else sections[0]!.meta[key] = text;
  }
  if (overflow.length > 0) sections.push(table(`${tool}.meta`, overflow, [['key', (kv) => kv[0]], ['value', (kv) => kv[1]]]));
  return sections;
}

/**
 * Sections for `tool`'s result: its layout when it has one and the result fits it, else the generic
 * fallback. An answer from a warming repository's provisional index also says so in the first
 * header (`warming=<phase>:<files indexed>/<files found>`); its full block sits in `.meta`.
 */
export function layoutSections(tool: string, result: unknown): GcxSection[] {
  const sections = resultSections(tool, result);
  const warming = (result as { warming?: { phase?: unknown; files_indexed?: unknown; files_total?: unknown } } | null)?.warming;
  if (warming && typeof warming === 'object' && sections[0]) {
    const summary = `${String(warming.phase)}:${String(warming.files_indexed)}/${String(warming.files_total)}`;
    if (isGcxToken(summary)) sections[0].meta.warming = summary;
  }
  return sections;
}

function resultSections(tool: string, result: unknown): GcxSection[] {
  const def = Object.hasOwn(LAYOUTS, tool) ? LAYOUTS[tool] : undefined;
  if (def === undefined || !fits(def, result)) return genericSections(tool, result);
  const { meta, sections } = def.encode(result as never, tool);
  const consumed = new Set(def.consumes);
  for (const [key, value] of Object.entries(result)) if (!consumed.has(key) && !(key in meta)) meta[key] = value;
  const first = sections[0]!;
  const overflow: [string, string][] = [];
  for (const key of Object.keys(meta).sort(byCodeUnit)) {
    const value = meta[key];
    if (value === undefined || value === null) continue;
    const text = gcxCell(value);
    if (RESERVED_META.has(key) || !isGcxToken(key) || /\s/.test(text)) overflow.push([key, text]);
    else first.meta[key] = text;
  }
  if (overflow.length > 0) {
    sections.push(table(`${tool}.meta`, overflow, [['key', (kv) => kv[0]], ['value', (kv) => kv[1]]]));
  }
  return sections;
}
