/**
 * `gortex init`: wires gortex into the coding agents of a machine — each agent's MCP server entry
 * and a short instruction block — in the files and shapes each agent documents, for a repository
 * or (`--global`) for the user. Planned first (every file read and parsed; nothing written if one
 * cannot be), then written atomically; running it again changes nothing.
 *
 * Undo is exact: the first write of a file records its original text (or its absence) in
 * `<gortex home>/init/manifest.json`; `--remove` puts a file whose text is still what gortex wrote
 * back as it was (deleting what gortex created). A file edited since keeps the edits: only gortex's
 * own entry or block is taken out of it.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { Document, parseDocument, isSeq, isMap, type YAMLSeq } from 'yaml';
import { writeFileAtomic } from '../support/atomic-write';
import { gortexHome } from '../support/home';
import { UsageError } from '../support/usage-error';
import { withFileLock } from '../support/file-lock';

/** The agents `gortex init` knows, by the id `--agent` takes. */
export const AGENT_IDS = ['claude', 'cursor', 'vscode', 'windsurf', 'zed', 'codex', 'gemini', 'continue', 'cline'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** The MCP server entry's name in every config. */
export const SERVER_NAME = 'gortex';

/** How the agent starts the server. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** The default: `npx -y gortex mcp` (works with gortex installed or not). */
export const DEFAULT_SERVER: ServerCommand = { command: 'npx', args: ['-y', 'gortex', 'mcp'] };

const BEGIN = '<!-- gortex:begin (written by `gortex init`; `gortex init --remove` takes it out) -->';
const END = '<!-- gortex:end -->';

/** The instruction block: what gortex is for and the tools to open with. */
export function instructionBlock(): string {
  return [
    BEGIN,
    '## gortex: the code graph',
    '',
    'This repository is indexed by gortex (MCP server `gortex`): a graph of its symbols, calls, references,',
    'imports, types and tests. Prefer its tools to reading and grepping files:',
    '',
    '- `explore` with the task in words, or `search_symbols` for a name: where the code is.',
    '- `get_symbol_source` to read one symbol; `get_callers` / `find_usages` before changing it.',
    '- `get_editing_context` before an edit; `edit_symbol`, `rename_symbol` to change code;',
    '  `verify_change` and `get_test_targets` after.',
    '- `surface_memories` when starting a task; `store_memory` for decisions and invariants worth keeping.',
    END,
  ].join('\n');
}

/** One file an agent reads, and what gortex puts in it. */
type Target =
  /** A JSON (or JSONC) file with the server entry at `keyPath` + `gortex`. */
  | { format: 'json'; file: string; keyPath: string[]; entry: Record<string, unknown>; what: string }
  /** A TOML file with a `[<table>.gortex]` table (Codex). */
  | { format: 'toml'; file: string; table: string; entry: ServerCommand; what: string }
  /** A YAML file with an `mcpServers:` list holding `{ name: gortex, … }` (Continue's config). */
  | { format: 'yaml-list'; file: string; entry: Record<string, unknown>; what: string }
  /** A Markdown file with gortex's marked block. */
  | { format: 'block'; file: string; what: string }
  /** A file gortex owns whole (a rule file, a Continue block file). */
  | { format: 'owned'; file: string; text: string; what: string };

/** What one agent gets, per scope, and how it is detected. */
interface AgentSpec {
  id: AgentId;
  name: string;
  /** Why we think it is installed (a folder or a program), or undefined. */
  detect(env: SetupEnv): string | undefined;
  project(root: string, server: ServerCommand, env: SetupEnv): { targets: Target[]; notes: string[] };
  global(server: ServerCommand, env: SetupEnv): { targets: Target[]; notes: string[] };
}

/** Where the machine's folders are (tests point them at temp folders). */
export interface SetupEnv {
  home: string;
  /** `$XDG_CONFIG_HOME` or `~/.config`. */
  config: string;
  /** VS Code's user folder (settings, user `mcp.json`, extensions' global storage). */
  vscodeUser: string;
  path: string;
}

/** The machine's setup folders from the environment. */
export function setupEnv(env: NodeJS.ProcessEnv = process.env): SetupEnv {
  const home = env.HOME?.trim() || os.homedir();
  const config = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  const vscodeUser =
    process.platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support', 'Code', 'User')
      : process.platform === 'win32'
        ? path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Code', 'User')
        : path.join(config, 'Code', 'User');
  return { home, config, vscodeUser, path: env.PATH ?? '' };
}

/** A program on PATH, or undefined. */
function onPath(env: SetupEnv, program: string): string | undefined {
  for (const dir of env.path.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** The first of `dirs` that exists, as a reason, else a program on PATH. */
function detected(env: SetupEnv, dirs: string[], programs: string[]): string | undefined {
  for (const d of dirs) if (fs.existsSync(d)) return `${d} exists`;
  for (const p of programs) {
    const found = onPath(env, p);
    if (found) return `${found} is installed`;
  }
  return undefined;
}

/** The usual `{ command, args }` entry (plus `extra`). */
function stdioEntry(server: ServerCommand, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, command: server.command, args: server.args };
}

const CLINE_SETTINGS = ['globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'];

const AGENTS: AgentSpec[] = [
  {
    id: 'claude',
    name: 'Claude Code',
    detect: (env) => detected(env, [path.join(env.home, '.claude')], ['claude']),
    project: (root, server) => ({
      targets: [
        { format: 'json', file: path.join(root, '.mcp.json'), keyPath: ['mcpServers'], entry: stdioEntry(server, { type: 'stdio' }), what: 'MCP server (project scope)' },
        { format: 'block', file: path.join(root, 'CLAUDE.md'), what: 'instructions' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [
        { format: 'json', file: path.join(env.home, '.claude.json'), keyPath: ['mcpServers'], entry: stdioEntry(server, { type: 'stdio' }), what: 'MCP server (user scope)' },
        { format: 'block', file: path.join(env.home, '.claude', 'CLAUDE.md'), what: 'instructions (every project)' },
      ],
      notes: [],
    }),
  },
  {
    id: 'cursor',
    name: 'Cursor',
    detect: (env) => detected(env, [path.join(env.home, '.cursor')], ['cursor']),
    project: (root, server) => ({
      targets: [
        { format: 'json', file: path.join(root, '.cursor', 'mcp.json'), keyPath: ['mcpServers'], entry: stdioEntry(server), what: 'MCP server' },
        { format: 'owned', file: path.join(root, '.cursor', 'rules', 'gortex.mdc'), text: `---\ndescription: Use the gortex code graph tools\nalwaysApply: true\n---\n\n${instructionBlock()}\n`, what: 'rule (always applied)' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [{ format: 'json', file: path.join(env.home, '.cursor', 'mcp.json'), keyPath: ['mcpServers'], entry: stdioEntry(server), what: 'MCP server (every project)' }],
      notes: ['Cursor keeps user rules in its settings, not in a file: the rule is written per project (gortex init without --global).'],
    }),
  },
  {
    id: 'vscode',
    name: 'VS Code (Copilot)',
    detect: (env) => detected(env, [env.vscodeUser], ['code']),
    project: (root, server) => ({
      targets: [
        { format: 'json', file: path.join(root, '.vscode', 'mcp.json'), keyPath: ['servers'], entry: stdioEntry(server, { type: 'stdio' }), what: 'MCP server' },
        { format: 'block', file: path.join(root, '.github', 'copilot-instructions.md'), what: 'Copilot instructions' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [{ format: 'json', file: path.join(env.vscodeUser, 'mcp.json'), keyPath: ['servers'], entry: stdioEntry(server, { type: 'stdio' }), what: 'MCP server (user profile)' }],
      notes: [],
    }),
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    detect: (env) => detected(env, [path.join(env.home, '.codeium', 'windsurf')], ['windsurf']),
    project: (root) => ({
      targets: [{ format: 'owned', file: path.join(root, '.windsurf', 'rules', 'gortex.md'), text: `---\ntrigger: always_on\n---\n\n${instructionBlock()}\n`, what: 'rule (always on)' }],
      notes: ['Windsurf reads MCP servers from its user config only: run gortex init --global --agent windsurf.'],
    }),
    global: (server, env) => ({
      targets: [
        { format: 'json', file: path.join(env.home, '.codeium', 'windsurf', 'mcp_config.json'), keyPath: ['mcpServers'], entry: stdioEntry(server), what: 'MCP server' },
        { format: 'block', file: path.join(env.home, '.codeium', 'windsurf', 'memories', 'global_rules.md'), what: 'global rules' },
      ],
      notes: [],
    }),
  },
  {
    id: 'zed',
    name: 'Zed',
    detect: (env) => detected(env, [path.join(env.config, 'zed')], ['zed', 'zeditor']),
    project: (root, server) => ({
      targets: [
        { format: 'json', file: path.join(root, '.zed', 'settings.json'), keyPath: ['context_servers'], entry: stdioEntry(server, { source: 'custom' }), what: 'context server' },
        { format: 'block', file: path.join(root, '.rules'), what: 'rules' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [{ format: 'json', file: path.join(env.config, 'zed', 'settings.json'), keyPath: ['context_servers'], entry: stdioEntry(server, { source: 'custom' }), what: 'context server (every project)' }],
      notes: [],
    }),
  },
  {
    id: 'codex',
    name: 'Codex CLI',
    detect: (env) => detected(env, [path.join(env.home, '.codex')], ['codex']),
    project: (root) => ({
      targets: [{ format: 'block', file: path.join(root, 'AGENTS.md'), what: 'instructions' }],
      notes: ['Codex reads MCP servers from ~/.codex/config.toml only: run gortex init --global --agent codex.'],
    }),
    global: (server, env) => ({
      targets: [
        { format: 'toml', file: path.join(env.home, '.codex', 'config.toml'), table: 'mcp_servers', entry: server, what: 'MCP server' },
        { format: 'block', file: path.join(env.home, '.codex', 'AGENTS.md'), what: 'instructions (every project)' },
      ],
      notes: [],
    }),
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    detect: (env) => detected(env, [path.join(env.home, '.gemini')], ['gemini']),
    project: (root, server) => ({
      targets: [
        { format: 'json', file: path.join(root, '.gemini', 'settings.json'), keyPath: ['mcpServers'], entry: stdioEntry(server), what: 'MCP server' },
        { format: 'block', file: path.join(root, 'GEMINI.md'), what: 'context' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [
        { format: 'json', file: path.join(env.home, '.gemini', 'settings.json'), keyPath: ['mcpServers'], entry: stdioEntry(server), what: 'MCP server' },
        { format: 'block', file: path.join(env.home, '.gemini', 'GEMINI.md'), what: 'context (every project)' },
      ],
      notes: [],
    }),
  },
  {
    id: 'continue',
    name: 'Continue',
    detect: (env) => detected(env, [path.join(env.home, '.continue')], []),
    project: (root, server) => ({
      targets: [
        {
          format: 'owned',
          file: path.join(root, '.continue', 'mcpServers', 'gortex.yaml'),
          text: `name: gortex\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: gortex\n    command: ${server.command}\n    args:\n${server.args.map((a) => `      - ${JSON.stringify(a)}`).join('\n')}\n`,
          what: 'MCP server block',
        },
        { format: 'owned', file: path.join(root, '.continue', 'rules', 'gortex.md'), text: `---\nname: gortex\nalwaysApply: true\n---\n\n${instructionBlock()}\n`, what: 'rule' },
      ],
      notes: [],
    }),
    global: (server, env) => ({
      targets: [{ format: 'yaml-list', file: path.join(env.home, '.continue', 'config.yaml'), entry: { name: SERVER_NAME, command: server.command, args: server.args }, what: 'MCP server' }],
      notes: [],
    }),
  },
  {
    id: 'cline',
    name: 'Cline',
    detect: (env) => detected(env, [path.join(env.vscodeUser, ...CLINE_SETTINGS.slice(0, 2))], []),
    project: (root) => ({
      targets: [fs.existsSync(path.join(root, '.clinerules')) && fs.statSync(path.join(root, '.clinerules')).isFile()
        ? { format: 'block', file: path.join(root, '.clinerules'), what: 'rules' }
        : { format: 'owned', file: path.join(root, '.clinerules', 'gortex.md'), text: `${instructionBlock()}\n`, what: 'rule' }],
      notes: ['Cline reads MCP servers from its user settings only: run gortex init --global --agent cline.'],
    }),
    global: (server, env) => ({
      targets: [{ format: 'json', file: path.join(env.vscodeUser, ...CLINE_SETTINGS), keyPath: ['mcpServers'], entry: stdioEntry(server, { disabled: false, autoApprove: [] }), what: 'MCP server' }],
      notes: [],
    }),
  },
];

/** An agent's spec by id. */
function agentSpec(id: AgentId): AgentSpec {
  return AGENTS.find((a) => a.id === id)!;
}

/** Every known agent with whether it looks installed here and why. */
export function detectAgents(env: SetupEnv = setupEnv()): { id: AgentId; name: string; detected?: string }[] {
  return AGENTS.map((a) => {
    const why = a.detect(env);
    return { id: a.id, name: a.name, ...(why ? { detected: why } : {}) };
  });
}

/** One planned change. */
export interface PlannedChange {
  agent: AgentId;
  file: string;
  what: string;
  /** `create`, `update`, `unchanged` (install); `restore`, `delete`, `strip`, `absent` (remove). */
  action: 'create' | 'update' | 'unchanged' | 'restore' | 'delete' | 'strip' | 'absent';
  before: string | null;
  after: string | null;
}

/** The record of what gortex wrote, per absolute file path. */
interface Manifest {
  /** `dirs`: folders gortex created for the file (removed again when they are left empty). */
  /** `original` absent: the file was edited by someone else between gortex's writes; removal strips. */
  files: Record<string, { original?: string | null; written: string; agents: AgentId[]; dirs?: string[] }>;
}

function manifestFile(home: string): string {
  return path.join(home, 'init', 'manifest.json');
}

function readManifest(home: string): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(manifestFile(home), 'utf8')) as Manifest;
    return m && typeof m.files === 'object' && m.files !== null ? m : { files: {} };
  } catch {
    return { files: {} };
  }
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

const JSON_FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** Parses a JSON/JSONC text or throws naming the file, line and problem. */
function parseJsonc(file: string, text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    throw new UsageError(`${file}:${lineOf(text, e.offset)}: ${printParseErrorCode(e.error)}; fix the file (nothing was written)`);
  }
  if (text.trim() !== '' && (value === null || typeof value !== 'object' || Array.isArray(value))) throw new UsageError(`${file}: expected a JSON object at the top (nothing was written)`);
  return value;
}

/** The indentation of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `value` as JSON indented to sit at `indent`. */
function jsonAt(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/**
 * Sets `key` of the object `node` to `value` by splicing text: every other byte of the file —
 * comments, layout, other entries — stays as it was.
 */
function setProperty(text: string, node: JsonNode, key: string, value: unknown): string {
  const props = node.children ?? [];
  const existing = props.find((p) => p.children?.[0]?.value === key);
  if (existing) {
    const v = existing.children![1]!;
    return `${text.slice(0, v.offset)}${jsonAt(value, indentAt(text, existing.offset))}${text.slice(v.offset + v.length)}`;
  }
  const last = props[props.length - 1];
  if (last) {
    const indent = indentAt(text, last.offset);
    const at = last.offset + last.length;
    return `${text.slice(0, at)},\n${indent}${JSON.stringify(key)}: ${jsonAt(value, indent)}${text.slice(at)}`;
  }
  // An empty object: open it up.
  const outer = indentAt(text, node.offset);
  const inner = `${outer}  `;
  return `${text.slice(0, node.offset)}{\n${inner}${JSON.stringify(key)}: ${jsonAt(value, inner)}\n${outer}}${text.slice(node.offset + node.length)}`;
}

/** The text with gortex's entry set (JSON/JSONC; comments, layout and other entries kept byte for byte). */
function withJsonEntry(file: string, text: string, keyPath: string[], entry: Record<string, unknown>): string {
  const base = text.trim() === '' ? '{}\n' : text;
  parseJsonc(file, base);
  let node = parseTree(base, [], { allowTrailingComma: true })!;
  let value: unknown = entry;
  let key = SERVER_NAME;
  // The deepest object of keyPath that exists; what is missing below it is written whole.
  const missing: string[] = [];
  for (const k of keyPath) {
    const child = missing.length === 0 ? findNodeAtLocation(node, [k]) : undefined;
    if (child && child.type === 'object') node = child;
    else if (child) throw new UsageError(`${file}: ${keyPath.join('.')} is not an object (nothing was written)`);
    else missing.push(k);
  }
  if (missing.length > 0) {
    value = missing.reduceRight<unknown>((inner, k) => ({ [k]: inner }), { [SERVER_NAME]: entry });
    key = missing[0]!;
    value = (value as Record<string, unknown>)[key];
  }
  const out = setProperty(base, node, key, value);
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The text without gortex's entry (and without the container when that leaves it empty and gortex made it). */
function withoutJsonEntry(file: string, text: string, keyPath: string[]): string {
  const value = parseJsonc(file, text) as Record<string, unknown>;
  const tree = parseTree(text, [], { allowTrailingComma: true });
  // Nothing of gortex's is there (no container, or no entry in it): the text stays as it is.
  if (!tree || findNodeAtLocation(tree, keyPath)?.type !== 'object' || !findNodeAtLocation(tree, [...keyPath, SERVER_NAME])) return text;
  let out = applyEdits(text, modify(text, [...keyPath, SERVER_NAME], undefined, JSON_FORMAT));
  let container: unknown = value;
  for (const k of keyPath) container = (container as Record<string, unknown> | undefined)?.[k];
  const rest = container && typeof container === 'object' ? Object.keys(container).filter((k) => k !== SERVER_NAME) : [];
  if (rest.length === 0 && keyPath.length === 1) out = applyEdits(out, modify(out, keyPath, undefined, JSON_FORMAT));
  return out;
}

/** `[<table>.gortex]` and its sub-tables as TOML text. */
function tomlTable(table: string, server: ServerCommand): string {
  return `[${table}.${SERVER_NAME}]\ncommand = ${JSON.stringify(server.command)}\nargs = [${server.args.map((a) => JSON.stringify(a)).join(', ')}]\n`;
}

/** The line span of `[<table>.gortex]` (and its `[<table>.gortex.*]` sub-tables) in TOML text. */
function tomlSpan(text: string, table: string): { start: number; end: number } | undefined {
  const lines = text.split('\n');
  const header = (l: string) => /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(l)?.[1];
  const ours = (name: string) => {
    const n = name.replace(/\s+/g, '').replace(/"/g, '');
    return n === `${table}.${SERVER_NAME}` || n.startsWith(`${table}.${SERVER_NAME}.`);
  };
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const h = header(lines[i]!);
    if (h === undefined) continue;
    if (start < 0 && ours(h)) start = i;
    else if (start >= 0 && !ours(h)) {
      end = i;
      break;
    }
  }
  return start < 0 ? undefined : { start, end };
}

function checkToml(file: string, text: string): void {
  try {
    parseToml(text);
  } catch (e) {
    throw new UsageError(`${file}: not valid TOML (${(e as Error).message.split('\n')[0]}); fix the file (nothing was written)`);
  }
}

function withTomlTable(file: string, text: string, table: string, server: ServerCommand): string {
  checkToml(file, text);
  const lines = text.split('\n');
  const span = tomlSpan(text, table);
  const block = tomlTable(table, server).trimEnd().split('\n');
  if (span) {
    // Replace the table's own lines; blank lines after it (before the next table, or the file's end) stay.
    let last = span.end - 1;
    while (last > span.start && lines[last]!.trim() === '') last--;
    return [...lines.slice(0, span.start), ...block, ...lines.slice(last + 1)].join('\n');
  }
  const body = text.replace(/\n*$/, '');
  return `${body}${body ? '\n\n' : ''}${block.join('\n')}\n`;
}

function withoutTomlTable(file: string, text: string, table: string): string {
  checkToml(file, text);
  const span = tomlSpan(text, table);
  if (!span) return text;
  const lines = text.split('\n');
  let start = span.start;
  while (start > 0 && lines[start - 1]!.trim() === '') start--;
  const out = [...lines.slice(0, start), ...lines.slice(span.end)].join('\n');
  return out.replace(/^\n+/, '');
}

/** The YAML text with `mcpServers` holding gortex's entry (comments kept). */
function withYamlEntry(file: string, text: string, entry: Record<string, unknown>, remove: boolean): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`${file}:${doc.errors[0]!.linePos?.[0].line ?? 1}: ${doc.errors[0]!.message.split('\n')[0]} (nothing was written)`);
  if (text.trim() !== '' && !isMap(doc.contents)) throw new UsageError(`${file}: expected a mapping at the top (nothing was written)`);
  const list = doc.get('mcpServers');
  if (list !== undefined && !isSeq(list)) throw new UsageError(`${file}: mcpServers is not a list (nothing was written)`);
  const seq = list as YAMLSeq | undefined;
  const at = seq ? seq.items.findIndex((i) => isMap(i) && i.get('name') === SERVER_NAME) : -1;
  if (remove) {
    if (!seq || at < 0) return text;
    seq.items.splice(at, 1);
    if (seq.items.length === 0) doc.delete('mcpServers');
    const out = doc.toString();
    return out.trim() === '{}' ? '' : out;
  }
  if (!seq) {
    if (text.trim() === '') return new Document({ mcpServers: [entry] }).toString();
    doc.set('mcpServers', doc.createNode([entry]));
  } else if (at >= 0) seq.items[at] = doc.createNode(entry);
  else seq.items.push(doc.createNode(entry));
  return doc.toString();
}

/** The text with the marked block in place (replaced where it is, else appended after a blank line). */
/** Where gortex's block is in `text` (begin and end marker), or undefined; a begin without its end is refused. */
function blockSpan(file: string, text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(BEGIN);
  if (start < 0) return undefined;
  const end = text.indexOf(END, start);
  if (end < 0 || text.indexOf(BEGIN, start + BEGIN.length) >= 0 && text.indexOf(BEGIN, start + BEGIN.length) < end) {
    throw new UsageError(`${file}: a gortex:begin marker without its gortex:end marker; fix the file so the block is whole or gone (nothing was written)`);
  }
  return { start, end };
}

function withBlock(file: string, text: string | null): string {
  const block = instructionBlock();
  if (text === null || text.trim() === '') return `${block}\n`;
  const span = blockSpan(file, text);
  if (span) return `${text.slice(0, span.start)}${block}${text.slice(span.end + END.length)}`;
  return `${text.replace(/\n*$/, '')}\n\n${block}\n`;
}

function withoutBlock(file: string, text: string): string {
  const span = blockSpan(file, text);
  if (!span) return text;
  const { start, end } = span;
  const before = text.slice(0, start).replace(/\n*$/, '');
  const after = text.slice(end + END.length).replace(/^\n/, '');
  return before === '' ? after.replace(/^\n+/, '') : `${before}\n${after}`;
}

/** The text gortex wants in `t.file`, given what is there. */
function desired(t: Target, current: string | null): string {
  switch (t.format) {
    case 'json':
      return withJsonEntry(t.file, current ?? '', t.keyPath, t.entry);
    case 'toml': {
      const out = withTomlTable(t.file, current ?? '', t.table, t.entry);
      // Checked, not assumed: a file that defines the entry another way (an inline table) must not be broken.
      let got: unknown;
      try {
        got = (parseToml(out) as Record<string, Record<string, unknown> | undefined>)[t.table]?.[SERVER_NAME];
      } catch (e) {
        throw new UsageError(`${t.file}: adding [${t.table}.${SERVER_NAME}] would leave it invalid TOML (${(e as Error).message.split('\n')[0]}); it may define ${SERVER_NAME} another way: edit it by hand (nothing was written)`);
      }
      if (JSON.stringify(got) !== JSON.stringify({ command: t.entry.command, args: t.entry.args })) {
        throw new UsageError(`${t.file}: [${t.table}.${SERVER_NAME}] could not be written as expected; edit it by hand (nothing was written)`);
      }
      return out;
    }
    case 'yaml-list':
      return withYamlEntry(t.file, current ?? '', t.entry, false);
    case 'block':
      return withBlock(t.file, current);
    case 'owned':
      return t.text;
  }
}

/** The text without gortex's part. */
function stripped(t: Target, current: string): string {
  switch (t.format) {
    case 'json':
      return withoutJsonEntry(t.file, current, t.keyPath);
    case 'toml':
      return withoutTomlTable(t.file, current, t.table);
    case 'yaml-list':
      return withYamlEntry(t.file, current, {}, true);
    case 'block':
      return withoutBlock(t.file, current);
    case 'owned':
      return '';
  }
}

/** What `gortex init` would do (nothing written). */
export interface SetupPlan {
  scope: 'project' | 'global';
  root?: string;
  agents: { id: AgentId; name: string; why: string }[];
  changes: PlannedChange[];
  notes: string[];
}

/** The targets of the chosen agents in a scope. */
function targetsOf(agents: AgentId[], scope: 'project' | 'global', root: string, server: ServerCommand, env: SetupEnv): { agent: AgentId; target: Target }[] & { notes?: string[] } {
  const out: { agent: AgentId; target: Target }[] & { notes?: string[] } = [];
  out.notes = [];
  for (const id of agents) {
    const spec = agentSpec(id);
    const { targets, notes } = scope === 'global' ? spec.global(server, env) : spec.project(root, server, env);
    for (const target of targets) out.push({ agent: id, target });
    out.notes.push(...notes.map((n) => `${spec.name}: ${n}`));
  }
  return out;
}

/**
 * Plans installing (or, with `remove`, removing) gortex for `agents`. Targets sharing a file (two
 * agents reading AGENTS.md) are applied in order to the same text.
 */
export function planSetup(options: {
  agents: AgentId[];
  scope: 'project' | 'global';
  root: string;
  remove: boolean;
  server?: ServerCommand;
  env?: SetupEnv;
  home?: string;
  why?: Record<string, string>;
}): SetupPlan {
  const env = options.env ?? setupEnv();
  const manifest = readManifest(options.home ?? gortexHome());
  const targets = targetsOf(options.agents, options.scope, options.root, options.server ?? DEFAULT_SERVER, env);
  const texts = new Map<string, string | null>();
  const changes: PlannedChange[] = [];
  for (const { agent, target } of targets) {
    const before = texts.has(target.file) ? texts.get(target.file)! : readText(target.file);
    let after: string | null;
    let action: PlannedChange['action'];
    if (!options.remove) {
      after = desired(target, before);
      action = before === null ? 'create' : before === after ? 'unchanged' : 'update';
    } else if (before === null) {
      after = null;
      action = 'absent';
    } else {
      const record = manifest.files[target.file];
      if (record && record.original !== undefined && sha(before) === record.written && !texts.has(target.file)) {
        after = record.original;
        action = record.original === null ? 'delete' : 'restore';
      } else {
        const out = stripped(target, before);
        after = out.trim() === '' && (target.format === 'owned' || record?.original === null) ? null : out;
        action = after === null ? 'delete' : after === before ? 'unchanged' : 'strip';
      }
    }
    texts.set(target.file, after);
    changes.push({ agent, file: target.file, what: target.what, action, before, after });
  }
  return {
    scope: options.scope,
    ...(options.scope === 'project' ? { root: options.root } : {}),
    agents: options.agents.map((id) => ({ id, name: agentSpec(id).name, why: options.why?.[id] ?? 'asked for' })),
    changes,
    notes: targets.notes ?? [],
  };
}

/** Writes a plan (atomically per file) and keeps the manifest in step; returns the files changed. */
export function applySetup(plan: SetupPlan, home: string = gortexHome()): string[] {
  const file = manifestFile(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withFileLock(file, () => {
    const manifest = readManifest(home);
    // The last change per file is its final text; the first its text before this run.
    const finals = new Map<string, PlannedChange>();
    const firsts = new Map<string, PlannedChange>();
    for (const c of plan.changes) {
      finals.set(c.file, c);
      if (!firsts.has(c.file)) firsts.set(c.file, c);
    }
    const written: string[] = [];
    const emptied: string[] = [];
    for (const [target, c] of finals) {
      const original = firsts.get(target)!.before;
      if (c.after === original && c.action !== 'restore') continue;
      if (c.after === null) {
        if (fs.existsSync(target)) fs.rmSync(target);
        emptied.push(...(manifest.files[target]?.dirs ?? []));
        delete manifest.files[target];
      } else {
        const created = missingDirs(path.dirname(target));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        writeFileAtomic(target, c.after);
        if (['restore', 'strip', 'delete'].includes(c.action)) delete manifest.files[target];
        else {
          const prior = manifest.files[target];
          const agents = [...new Set([...(prior?.agents ?? []), ...plan.changes.filter((x) => x.file === target).map((x) => x.agent)])];
          const dirs = prior ? (prior.dirs ?? []) : created;
          // The text to give back on removal: from the first write, while the file is still what
          // gortex wrote then; once someone else edited it, none (removal strips gortex's part,
          // keeping their edits).
          const untouched = prior !== undefined && original !== null && sha(original) === prior.written;
          const restore = prior === undefined ? original : untouched ? prior.original : undefined;
          manifest.files[target] = { ...(restore !== undefined ? { original: restore } : {}), written: sha(c.after), agents, ...(dirs.length > 0 ? { dirs } : {}) };
        }
      }
      written.push(target);
    }
    // Deepest first, once every file is gone: two files may share a folder gortex made.
    removeEmptyDirs([...new Set(emptied)].sort((a, b) => b.length - a.length));
    writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
    return written;
  });
}

/** The folders from `dir` up that do not exist yet (deepest first). */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !fs.existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) out.push(d);
  return out;
}

/** Removes the folders gortex created (deepest first) that are empty; a folder holding anything stays. */
function removeEmptyDirs(dirs: readonly string[]): void {
  for (const d of dirs) {
    try {
      if (fs.readdirSync(d).length === 0) fs.rmdirSync(d);
    } catch {
      // Already gone, or not ours to judge.
    }
  }
}

/** Parses `--agent` values (names or ids, case-insensitive); a `UsageError` names the known ones. */
export function agentIds(values: readonly string[]): AgentId[] {
  const aliases: Record<string, AgentId> = { 'claude-code': 'claude', code: 'vscode', 'vs-code': 'vscode', copilot: 'vscode', 'gemini-cli': 'gemini', 'codex-cli': 'codex' };
  return [
    ...new Set(
      values.map((v) => {
        const key = v.trim().toLowerCase();
        const id = (AGENT_IDS as readonly string[]).includes(key) ? (key as AgentId) : aliases[key];
        if (!id) throw new UsageError(`unknown agent "${v}"; gortex init knows ${AGENT_IDS.join(', ')}`);
        return id;
      }),
    ),
  ];
}
