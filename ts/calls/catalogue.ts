/**
 * The tool catalogue as Markdown, generated from the composed surface: every callable tool by
 * family, its effect, description and arguments. `docs/tools.md` is this text (`gortex tools
 * --markdown > docs/tools.md`; a test fails when they differ).
 */
import { TOOL_CATEGORIES, type ToolDef } from '../tools/registry';
import { FACADE_TOOLS, REGISTRY_TOOLS, toolListing } from './surface';

/** One argument as the catalogue lists it. */
interface ArgumentRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** A JSON Schema property's type, briefly (`string`, `integer`, `string | string[]`, `"a" | "b"`). */
function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((o) => typeOf(o as Record<string, unknown>)).join(' | ');
  }
  if (schema.type === 'array') return `${typeOf((schema.items ?? {}) as Record<string, unknown>)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'any';
}

/** The arguments of a tool, in schema order. */
function argumentsOf(tool: ToolDef): ArgumentRow[] {
  const schema = toolListing(tool).inputSchema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeOf(property),
    required: required.has(name),
    description: typeof property.description === 'string' ? property.description : '',
  }));
}

/** Markdown-safe table cell text. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** One tool's section. */
function section(tool: ToolDef): string[] {
  const lines = [`### \`${tool.name}\``, '', `*${tool.effect}* — ${tool.description}`, ''];
  const args = argumentsOf(tool);
  if (args.length === 0) return [...lines, 'No arguments.', ''];
  lines.push('| argument | type | required | description |', '| --- | --- | --- | --- |');
  for (const a of args) lines.push(`| \`${a.name}\` | ${cell(a.type)} | ${a.required ? 'yes' : ''} | ${cell(a.description)} |`);
  return [...lines, ''];
}

/** The whole catalogue. */
export function toolCatalogue(): string {
  const lines = [
    '# Tool catalogue',
    '',
    '<!-- Generated from the tool registry by `npx gortex tools --markdown > docs/tools.md`; test/catalogue.test.ts fails when it is stale. -->',
    '',
    `${REGISTRY_TOOLS.length} registry tools and ${FACADE_TOOLS.length} compact (facade-v1) tools. Every tool is callable through every door — MCP (stdio, the daemon socket, \`/mcp\`), \`POST /v1/tools/{name}\` and \`gortex call\` — and also takes the pipeline's options: \`format\` (\`json\` | \`gcx\`), \`max_bytes\` / \`max_tokens\` and \`cursor\` (paging the main list), \`if_none_match\` (an earlier \`etag\`), and \`repo\` / \`project\` / \`scope\` (run on those repositories of the workspace and merge).`,
    '',
    '## Shapes',
    '',
    'Every door gives the same answer; `POST /v1/tools/{name}` wraps it in the MCP `CallToolResult` envelope as MCP does (`{content: [{type: "text", text}], isError?}`). Two shapes recur in the JSON answers:',
    '',
    '- **A node** (graph answers: `get_symbol`\'s `node`, `find_usages`\'s and `get_dependencies`/`get_dependents`\' `nodes`, process steps, callers, hubs, …): `id`, `kind`, `name`, `qual_name` (`Owner.name`; the path for files), `file_path`, `start_line`, `end_line`, `repo_prefix` (the repository; empty for `external::` stubs), and when known `language`, `flavor`, `signature`, `exported`, `is_test`, `external`; `get_symbol` with `detail: "full"` adds `meta` (signature, doc, visibility, types, flags). A subgraph answer lists its `nodes` once each and refers to them by id (`find_usages` rows\' `from`).',
    '- **A search row** (`search_symbols` `results`): the columns of its GCX1 layout — `id`, `kind`, `name`, `qualified`, `path`, `line`, `end_line`, `sig` — plus `score`, `tier` and `matched`.',
    '',
  ];
  for (const category of TOOL_CATEGORIES) {
    const tools = REGISTRY_TOOLS.filter((t) => t.category === category);
    if (tools.length === 0) continue;
    lines.push(`## ${category}`, '');
    for (const tool of tools) lines.push(...section(tool));
  }
  lines.push('## Compact surface (facade-v1)', '', 'The default for named MCP clients: 21 domain tools whose `operation` picks a registry tool (`capabilities` lists each operation with its exact schema). Operations whose tool is not built answer `not_available`.', '');
  for (const tool of FACADE_TOOLS) lines.push(...section(tool));
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
