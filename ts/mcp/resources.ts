/**
 * MCP resources: read-only, URI-addressed views of the session's repository (`gortex://stats`,
 * `gortex://guide/{topic}`, …) built from the engine on every read, plus subscriptions that are
 * told (`notifications/resources/updated`) after each watcher-driven re-index. Communities,
 * processes, god nodes, surprises and the report come from the engine's analyses
 * (`gortex-analysis`), cached per graph version.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CommunityList, EdgeKind, GraphStats, HealthMeasures, HotspotsResult, NodeKind, Origin, ProcessList, TextHit, TypeFlavor, WinnowHit } from '../engine/engine';
import { packageVersion } from '../package-root';
import { completeContext, type ProgressReporter, type ToolContext } from '../tools/registry';

/** What resources and prompts work on: the session's repository and its re-index events. */
export interface ResourceHost {
  /**
   * The current context; awaits a refresh under way so reads see the latest files. A host that can
   * be warming reports the wait to `progress`.
   */
  context(options?: { progress?: ProgressReporter }): Promise<ToolContext>;
  /** Registers `listener`, called after each watcher-driven re-index of the repository; returns its removal. */
  onReindexed(listener: () => void): () => void;
}

/** JSON-RPC error code MCP assigns to "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/** Every URI this module serves starts with this. */
export const URI_SCHEME = 'gortex://';

const JSON_MIME = 'application/json';
const MARKDOWN_MIME = 'text/markdown';

// ---------------------------------------------------------------------------------------------
// Shared helpers (also used by the prompts)
// ---------------------------------------------------------------------------------------------

/** The repository's name as it appears in node ids (`<name>/<path>::…`). */
export function repoName(ctx: ToolContext): string {
  return ctx.engine.stats(ctx.repo).name;
}

/** The outcome of one git command run in the repository root. */
export type GitResult = { ok: true; stdout: string } | { ok: false; error: string };

/** Runs `git args…` in `root` without taking locks (a read-only server must not write `.git/index.lock`). */
export function git(root: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 15_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const detail = code === 'ENOENT' ? 'git is not installed or not on PATH' : (stderr || error.message).trim();
          resolve({ ok: false, error: detail });
        } else {
          resolve({ ok: true, stdout });
        }
      },
    );
  });
}

/** Git facts about the repository root, or why there are none. */
export interface GitInfo {
  is_repo: boolean;
  top_level?: string;
  /** Current branch; absent on a detached HEAD. */
  branch?: string;
  /** Commit of HEAD; absent before the first commit. */
  head?: string;
  /** Why `is_repo` is false. */
  reason?: string;
}

/** Whether `root` is inside a git work tree, and its branch and HEAD when it is. */
export async function gitInfo(root: string): Promise<GitInfo> {
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.stdout.trim() !== 'true') {
    return { is_repo: false, reason: inside.ok ? 'not inside a git work tree' : inside.error };
  }
  const info: GitInfo = { is_repo: true };
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (top.ok) info.top_level = top.stdout.trim();
  const branch = await git(root, ['symbolic-ref', '--short', '-q', 'HEAD']);
  if (branch.ok && branch.stdout.trim()) info.branch = branch.stdout.trim();
  const head = await git(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  if (head.ok && head.stdout.trim()) info.head = head.stdout.trim();
  return info;
}

/** The `count` highest-scoring hotspots (fan-in, fan-out, community crossings, betweenness), whatever the threshold. */
export function godNodes(ctx: ToolContext, count = 20): HotspotsResult {
  return ctx.engine.analyze('hotspots', { threshold: 0, limit: count }, { repo: ctx.repo });
}

/** The `count` best-scored product execution flows (entry point, score, steps). */
export function topProcesses(ctx: ToolContext, count = 10): ProcessList {
  return ctx.engine.query('get_processes', { limit: count }, { repo: ctx.repo }) as ProcessList;
}

/** The community list (Leiden), largest first. */
function communityList(ctx: ToolContext, count = 100): CommunityList {
  return ctx.engine.query('get_communities', { limit: count }, { repo: ctx.repo }) as CommunityList;
}

/** Cycles, dead code and the hotspots with the most calls into other communities. */
function surprises(ctx: ToolContext): unknown {
  const cycles = ctx.engine.analyze('cycles', { limit: 20 }, { repo: ctx.repo });
  const dead = ctx.engine.analyze('dead_code', { limit: 20 }, { repo: ctx.repo });
  const hot = ctx.engine.analyze('hotspots', { threshold: 0, limit: 200 }, { repo: ctx.repo });
  const hubs = hot.hotspots
    .filter((h) => h.crossings > 0)
    .sort((a, b) => b.crossings - a.crossings || b.score - a.score || (a.node.id < b.node.id ? -1 : 1))
    .slice(0, 10);
  return {
    cycles: { total: cycles.total, by_kind: cycles.by_kind, by_severity: cycles.by_severity, cycles: cycles.cycles, truncated: cycles.truncated },
    dead_code: { total: dead.total, by_confidence: dead.by_confidence, dead: dead.dead, truncated: dead.truncated, blind_spots: dead.blind_spots },
    cross_community_hubs: {
      criterion: 'functions and methods with calls/references into other communities, most crossings first (of the 200 top hotspots)',
      hubs,
    },
  };
}

/** Comment tags the questions rollup looks for. */
export const TODO_TAGS = ['TODO', 'FIXME', 'XXX', 'HACK', 'QUESTION'] as const;
/** Items listed in full by the questions resource (counts cover every marker). */
const TODO_ITEMS = 200;

/** One tagged comment. */
export interface TodoItem {
  tag: (typeof TODO_TAGS)[number];
  assignee?: string;
  path: string;
  line: number;
  /** The comment text after the tag and assignee. */
  note: string;
  /** Innermost symbol holding the comment (the file when none does). */
  symbol_id?: string;
}

/** TODO / FIXME / XXX / HACK / QUESTION comments, counted by tag and assignee. */
export interface TodoRollup {
  total: number;
  /** The scan stopped early (more than 50,000 candidate lines); counts are then lower bounds. */
  truncated: boolean;
  by_tag: Partial<Record<(typeof TODO_TAGS)[number], number>>;
  /** Assignees from `TAG(name)` or `TAG @name`; untagged ones count under `unassigned`. */
  by_assignee: Record<string, number>;
  items: TodoItem[];
}

/** Tagged comments from the engine's `analyze kind=todos`, counted by tag and assignee. */
export function todoRollup(ctx: ToolContext, maxItems = TODO_ITEMS): TodoRollup {
  const r = ctx.engine.analyze('todos', { tags: [...TODO_TAGS], limit: Math.max(1, maxItems) }, { repo: ctx.repo });
  const items: TodoItem[] = r.todos.slice(0, maxItems).map((t) => ({
    tag: t.tag as TodoItem['tag'],
    ...(t.assignee ? { assignee: t.assignee } : {}),
    path: t.path,
    line: t.line,
    note: t.text,
    ...(t.symbol ? { symbol_id: t.symbol.id } : {}),
  }));
  return {
    total: r.total,
    truncated: r.counts_capped === true,
    by_tag: r.by_tag as TodoRollup['by_tag'],
    by_assignee: r.by_assignee,
    items,
  };
}

/** Indexed files under one directory. */
export interface OutlineDir {
  /** Repository-relative directory, with a trailing slash. */
  path: string;
  files: number;
  /** Largest subdirectories (top-level entries only). */
  children?: OutlineDir[];
}

/** Counts indexed files under `rel/` (graph file nodes, so ignored and skipped files never count). */
function filesUnder(ctx: ToolContext, rel: string): number {
  return ctx.engine.query('find_files', { glob: '*', path: rel, limit: 1 }, { repo: ctx.repo }).total;
}

/** Subdirectories counted per directory; each costs one scan of the file list. */
export const OUTLINE_MAX_SUBDIRS = 100;

/** Visible subdirectories of `rel` (dot-directories hold tooling, not code), by name, at most `OUTLINE_MAX_SUBDIRS`. */
function subdirs(root: string, rel: string): { dirs: string[]; truncated: boolean } {
  try {
    const dirs = fs
      .readdirSync(path.join(root, rel), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => `${rel}${d.name}/`)
      .sort();
    return { dirs: dirs.slice(0, OUTLINE_MAX_SUBDIRS), truncated: dirs.length > OUTLINE_MAX_SUBDIRS };
  } catch {
    return { dirs: [], truncated: false };
  }
}

/**
 * The repository's directory outline: top-level directories by indexed file count (their largest
 * subdirectories nested), and how many files sit at the root. Counts come from the graph;
 * `truncated` says some directory had more subdirectories than were counted.
 */
export function outline(ctx: ToolContext, maxDirs = 12, maxChildren = 6): { total_files: number; root_files: number; dirs: OutlineDir[]; truncated: boolean } {
  const total = ctx.engine.stats(ctx.repo).files;
  const listed = subdirs(ctx.root, '');
  let truncated = listed.truncated;
  const top = listed.dirs
    .map((d) => ({ path: d, files: filesUnder(ctx, d) }))
    .filter((d) => d.files > 0)
    .sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
  const inDirs = top.reduce((sum, d) => sum + d.files, 0);
  const dirs: OutlineDir[] = top.slice(0, maxDirs).map((d) => {
    const inner = subdirs(ctx.root, d.path);
    truncated ||= inner.truncated;
    const children = inner.dirs
      .map((c) => ({ path: c, files: filesUnder(ctx, c) }))
      .filter((c) => c.files > 0)
      .sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1))
      .slice(0, maxChildren);
    return children.length > 0 ? { ...d, children } : d;
  });
  // With directories left uncounted, "files at the root" would be a wrong remainder: report it only when exact.
  return { total_files: total, root_files: listed.truncated ? 0 : Math.max(0, total - inDirs), dirs, truncated };
}

// ---------------------------------------------------------------------------------------------
// The usage guide (written for agents; served whole and by topic)
// ---------------------------------------------------------------------------------------------

/** Guide topics, in reading order, each a self-contained markdown section. */
export const GUIDE_TOPICS: Readonly<Record<string, { title: string; body: string }>> = {
  search: {
    title: 'Finding code',
    body: `Pick the search by what you know:

- **A name or a concept** → \`search_symbols\`. An identifier that names a symbol exactly comes first
  (\`tier: "exact"\`); otherwise rows are ranked by BM25 with prefix and typo tolerance, then by
  definition kind, fan-in, export, path and test evidence. Narrow inline: \`kind:function\`,
  \`flavor:class\`, \`lang:go\`, \`path:src/util\`. A camelCase identifier with no match is searched again
  word by word (\`decomposed: true\`). A description of four or more words is read as a sentence
  (\`read_as: "sentence"\`) and matched mostly against doc comments; \`read_as: "names"\` turns that
  off. \`explain: true\` adds \`signals\`, the breakdown of each score.
- **Literal text** (an error message, a config key, a string) → \`search_text\`; \`regexp: true\` for a
  Rust-syntax regex, \`path\` for a glob (\`src/**/*.ts\`) or a prefix. Each hit names the innermost
  symbol holding the line (\`symbol_id\`), so you can jump straight to \`get_symbol_source\`.
- **A file name** → \`find_files\` (\`query\` for a basename or path fragment, \`glob\` for patterns).
  Files are not in the symbol index, so \`search_symbols\` never returns them.
- **A use site you are looking at** (\`fooBar(\`, \`.save(\`) → \`find_declaration\` returns the declaration
  the resolver tied it to, or lists the site as unresolved.
- **Structural constraints** (all exported interfaces under \`pkg/\`, functions called by at least 5
  others) → \`winnow_symbols\` with \`kind\`, \`lang\`, \`path_prefix\`, \`min_fan_in\`, \`min_fan_out\`,
  \`exported\`, \`text_match\`.

Every row carries an \`id\` (\`<repo>/<path>::<Owner>.<name>\`). Pass ids to the next call: a bare name
that matches several symbols is refused with the candidate ids (code \`ambiguous\`), an unknown one with
suggestions (code \`not_found\`).`,
  },
  navigation: {
    title: 'Reading and walking the graph',
    body: `- **One symbol**: \`get_symbol\` (signature, doc, owner, edge counts), \`get_symbol_source\` (its own
  lines, optionally with \`context_lines\`) — cheaper than \`read_file\` on the whole file.
- **One file**: \`get_file_summary\` (symbols with nesting, imports and how each resolved, importers count),
  \`read_file\` (a line range; repository files only).
- **Who uses it**: \`get_callers\` (\`depth\` up to 5), \`find_usages\` (every reference with its \`context\`:
  call, parameter_type, return_type, field, type, value, import), \`get_dependents\` (all usage kinds by
  level — the blast radius; a file path gives file-level importers).
- **What it uses**: \`get_call_chain\` (forward calls, with the calls the resolver could not bind),
  \`get_dependencies\`.
- **Types**: \`find_implementations\`, \`find_overrides\` (\`parents\` / \`children\`), \`get_class_hierarchy\`.
- **Neighbourhoods and paths**: \`get_cluster\` (usage neighbourhood), \`walk_graph\` (token-budgeted
  traversal over chosen edge kinds), \`trace_path\` (shortest call paths, or a diagnosis of why there is
  none), \`find_import_path\` (import chain between two files).
- **Ad-hoc questions**: \`graph_query\`, a pipeline of at most five stages:
  \`nodes kind=interface name~Handler | traverse implements in | filter path=src/ | sort fan_in desc | limit 10\`.
- **Size and health**: \`graph_stats\`; the \`gortex://stats\`, \`gortex://index-health\` and
  \`gortex://report\` resources.

Results are deterministic and capped (\`limit\`); \`truncated: true\` means more rows exist.`,
  },
  'tiers-and-caveats': {
    title: 'How far to trust an answer',
    body: `Every edge has a provenance tier (\`origin\`), strongest first:

| tier | meaning |
|---|---|
| \`ast_resolved\` | a unique structural target: same file, import evidence, same package, a declared or constructed receiver type |
| \`ast_inferred\` | the receiver's type was inferred from a called function's declared return type |
| \`text_matched\` | name only: the single same-language candidate of that name in the repository |

\`lsp_resolved\`, \`lsp_dispatch\` and \`speculative\` are part of the vocabulary but no analysis produces
them yet. References weaker than \`text_matched\` stay unresolved (\`unresolved::name\`) with a candidate
count instead of becoming guessed edges; \`get_call_chain\` lists them.

- Without \`min_tier\`, name-only rows are hidden when stronger rows exist; \`name_only_suppressed\` says how
  many. Pass \`min_tier: "text_matched"\` to see them.
- With \`min_tier\`, weaker rows are dropped and \`tier_filtered\` reports how many and the strongest tier
  the full answer had.

\`get_callers\`, \`find_usages\` and \`get_dependents\` attach a \`caveat\` when a thin answer must not be
taken at face value:

- \`likely_unused\` — indexed normally but nothing uses it. Before deleting, \`search_text\` for the name:
  reflection, string dispatch, other repositories and generated code are invisible to the graph.
- \`possible_extraction_gap\` — no edges at all; the extractor probably missed something. Confirm with
  \`search_text\`.
- \`coverage_incomplete\` — the only evidence is import-level, unresolved same-name references or name-only
  matches (or calls reach it through a supertype). Treat the caller list as a lower bound.

Exported symbols may have callers outside this repository that no query can see.`,
  },
  'editing-workflow': {
    title: 'Changing code safely',
    body: `gortex reads; you edit with your own tools. A typical change:

1. **Locate** the code (\`search_symbols\`, \`search_text\`) and read only what you need
   (\`get_symbol_source\`, \`get_file_summary\`).
2. **Measure the blast radius** before touching a signature: \`get_callers\` and \`get_dependents\`
   (\`depth: 2\`), \`find_implementations\` / \`find_overrides\` for interfaces and methods, and heed each
   \`caveat\`. The \`safe_to_change\` prompt does all of this for a list of ids, with risk notes.
3. **Find the tests**: \`get_dependents\` with \`kinds: "tests"\` lists tests that call the symbol directly;
   \`get_callers\` with a larger \`depth\` shows tests that reach it through other code (\`is_test\` rows).
4. **Edit.** The session watches the repository: a burst of file changes is re-indexed incrementally
   after a short quiet period, and the next query waits for that refresh, so answers follow your edits
   (unless the server was started with \`--no-watch\`). Clients subscribed to a resource get
   \`notifications/resources/updated\` after each re-index.
5. **Re-check** callers of anything whose signature changed, then use the \`pre_commit\` prompt: it lists
   the changed files (git), the symbols the diff touches, their dependents and the tests to run.`,
  },
};

function guideSection(topic: string): string {
  const section = GUIDE_TOPICS[topic]!;
  return `## ${section.title}\n\n${section.body}\n`;
}

function fullGuide(): string {
  const topics = Object.keys(GUIDE_TOPICS);
  const index = topics.map((t) => `- \`${URI_SCHEME}guide/${t}\` — ${GUIDE_TOPICS[t]!.title}`).join('\n');
  return `# Using gortex\n\ngortex answers code questions from a graph of this repository (symbols, calls, references, imports,\ntypes, tests), kept current while the session runs. Sections, also readable one at a time:\n\n${index}\n\n${topics.map(guideSection).join('\n')}`;
}

// ---------------------------------------------------------------------------------------------
// The schema reference
// ---------------------------------------------------------------------------------------------

const NODE_KINDS = {
  file: 'a source file; id `<repo>/<path>`',
  package: 'a Go or Java package; id `<repo>/<dir>::<package>`',
  module:
    'a TypeScript namespace, a Rust `mod`, or an external module stub (`external::<module>`: imported by code, or a manifest dependency such as `external::express` or a Dockerfile base image `external::docker:<image>`)',
  function: 'a free function (test functions carry is_test, test_role, test_runner)',
  method: 'a function owned by a type; id `<repo>/<path>::<Owner>.<name>`',
  type: 'a class, struct, enum, record, type alias, union, annotation, proto message or service, SQL table or view, or Vue/Svelte component (see `flavor`)',
  interface: 'an interface or trait',
  field: 'a field or property of a type',
  constant: 'a module-level constant',
  variable: 'a module-level variable',
  enum_member: 'a member of an enum',
  import: 'an import binding',
  doc: 'a Markdown section: name is the heading slug, signature the heading, doc its first paragraph; nested by level',
  stage: 'a Dockerfile build stage (`FROM … AS name`, else `stage-N`)',
  script: 'a named command a project defines (package.json `scripts`)',
} satisfies Record<NodeKind, string>;

const TYPE_FLAVORS = [
  'class',
  'struct',
  'enum',
  'record',
  'type_alias',
  'union',
  'annotation',
  'message',
  'service',
  'table',
  'view',
  'component',
  'mixin',
] satisfies TypeFlavor[];

const EDGE_KINDS = {
  defines: 'file → a symbol declared at its top level',
  contains: 'symbol → a symbol nested in it',
  member_of: 'method or field → the type that owns it',
  imports: 'file → the file, package or external module (and symbols) it imports',
  re_exports: 'file → what it re-exports',
  calls: 'caller → callee',
  references: 'symbol → a symbol it reads or passes as a value',
  instantiates: 'caller → the class it constructs',
  extends: 'type → its supertype (or interface → the interface it extends)',
  implements: 'type → an interface it implements',
  overrides: 'method → the supertype method it overrides (derived by find_overrides / get_class_hierarchy, never stored)',
  typed_as: 'symbol → the type it is declared with (parameter, field, variable)',
  returns: 'function → its declared return type',
  tests: 'test symbol → the non-test symbol it calls (emitted beside the calls edge)',
  depends_on_module:
    'package manifest (package.json, Cargo.toml, go.mod, pyproject.toml, requirements*.txt) or Dockerfile → a module it declares as a dependency',
} satisfies Record<EdgeKind, string>;

const TIERS = [
  { origin: 'lsp_resolved', rank: 6, meaning: 'a language server confirmed the target', produced: false },
  { origin: 'lsp_dispatch', rank: 5, meaning: 'a language server resolved an interface dispatch', produced: false },
  { origin: 'ast_resolved', rank: 4, meaning: 'unique structural target: same file, import evidence, same package, declared or constructed type', produced: true },
  { origin: 'ast_inferred', rank: 3, meaning: "receiver type inferred from a called function's declared return type", produced: true },
  { origin: 'text_matched', rank: 2, meaning: 'name only: the single same-language candidate of that name', produced: true },
  { origin: 'speculative', rank: 1, meaning: 'dynamic-dispatch best guess, hidden unless asked for', produced: false },
] satisfies { origin: Origin; rank: number; meaning: string; produced: boolean }[];

function schema(stats: GraphStats): unknown {
  const known = <K extends string>(table: Record<K, string>, counts: Record<string, number>, key: string) => [
    ...Object.entries<string>(table).map(([kind, description]) => ({ [key]: kind, description, count: counts[kind] ?? 0 })),
    // A kind the engine reports that this table does not know yet is still shown, undescribed.
    ...Object.keys(counts)
      .filter((k) => !(k in table))
      .map((kind) => ({ [key]: kind, description: null, count: counts[kind] })),
  ];
  return {
    ids: {
      symbol: '<repo>/<path>::<Owner>.<name>',
      file: '<repo>/<path>',
      package: '<repo>/<dir>::<package>',
      repeated_name: '<id>_L<line> when the same qualified name is declared again in a file',
      external: 'external::<module>[.<member>]',
      unresolved: 'unresolved::<name> or unresolved::*.<name> (placeholders, not nodes you can query)',
    },
    node_kinds: known(NODE_KINDS, stats.nodes_by_kind, 'kind'),
    type_flavors: TYPE_FLAVORS,
    edge_kinds: known(EDGE_KINDS, stats.edges_by_kind, 'kind'),
    usage_edge_kinds: ['calls', 'references', 'instantiates', 'implements', 'extends', 'typed_as', 'returns', 'tests'],
    tiers: TIERS.map((t) => ({ ...t, count: stats.edges_by_origin[t.origin] ?? 0 })),
    tier_rule:
      'without min_tier, name-only (text_matched) rows are dropped when the result holds ast_inferred-or-better rows (reported as name_only_suppressed); with min_tier, weaker rows are dropped and tier_filtered reports them',
    caveats: {
      likely_unused: 'indexed normally, but no usage edge points at it',
      possible_extraction_gap: 'no edges at all: the extractor probably missed it',
      coverage_incomplete: 'the only evidence is import-level, unresolved same-name references or name-only matches',
    },
    usage_contexts: ['call', 'parameter_type', 'field', 'type', 'return_type', 'value', 'import'],
    unresolved_references: stats.unresolved,
  };
}

// ---------------------------------------------------------------------------------------------
// The agent-config audit
// ---------------------------------------------------------------------------------------------

/** Agent instruction files looked for at the repository root. */
const AUDIT_FILES = ['CLAUDE.md', 'AGENTS.md', '.cursorrules', '.windsurfrules', '.github/copilot-instructions.md'];
/** Directories whose rule files (any depth) are audited. */
const AUDIT_DIRS = ['.cursor/rules', '.windsurf/rules', '.antigravity/rules'];
const AUDIT_EXTENSIONS = /\.(md|mdc|txt)$/i;
/** An instruction file above this many estimated tokens is flagged: it is loaded into every session. */
const AUDIT_LARGE_TOKENS = 5000;
const AUDIT_MAX_FILES = 50;
const AUDIT_MAX_BYTES = 1024 * 1024;
const AUDIT_MAX_REFS = 200;
const SOURCE_EXTENSIONS = /\.(ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|c|h|cc|cpp|cxx|hpp|hh|cs|kt|kts|php|rb|lua|ex|exs|erl|elm|dart|hs|zig|swift|scala|vue|svelte|proto|sql|json|ya?ml|toml|md|mdc|txt|sh|lock|cfg|ini|html|css)$/;

function listRuleFiles(root: string, rel: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) listRuleFiles(root, child, out);
    else if (e.isFile() && AUDIT_EXTENSIONS.test(e.name)) out.push(child);
  }
}

/** A reference in an instruction file that the repository does not back. */
interface AuditFinding {
  ref: string;
  line: number;
}

/** Inline code spans outside fenced blocks, with their line numbers. */
function codeSpans(text: string): { span: string; line: number }[] {
  const spans: { span: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const m of raw.matchAll(/`([^`\n]+)`/g)) spans.push({ span: m[1]!.trim(), line: i + 1 });
  });
  return spans;
}

/** A path reference in an instruction file, repository-relative; `single` when it is a bare file name. */
interface PathRef {
  path: string;
  single: boolean;
}

/** `src/a.ts`, `./lib/`, `src/a.ts:12`, `package.json` → a path to check; undefined when not path-like or unverifiable (globs, absolute, URLs). */
function pathRef(span: string): PathRef | undefined {
  if (/\s|:\/\/|[*?{}[\]<>$~]/.test(span) || span.startsWith('/') || span.includes('..')) return undefined;
  const bare = span.replace(/^\.\//, '').replace(/:\d+(:\d+)?$/, '');
  if (bare.includes('/') && /^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(bare)) return { path: bare, single: false };
  if (/^[\w.@-]+$/.test(bare) && SOURCE_EXTENSIONS.test(bare)) return { path: bare, single: true };
  return undefined;
}

/** A path exists at the root, or — for a bare file name, which docs often use loosely — as any indexed file's basename. */
function pathKnown(ctx: ToolContext, ref: PathRef): boolean {
  if (fs.existsSync(path.join(ctx.root, ref.path))) return true;
  if (!ref.single) return false;
  const hits = ctx.engine.query('find_files', { query: ref.path, limit: 1 }, { repo: ctx.repo }).results;
  return hits.length > 0 && hits[0]!.match === 'exact_basename';
}

/**
 * `fooBar`, `FooBar`, `Store.save`, `save()` → the name to look up. Only identifier shapes that are
 * almost never prose (a camelCase hump, a qualified name, a call) are checked; ALL_CAPS names are
 * usually environment variables and are skipped.
 */
function symbolRef(span: string): string | undefined {
  const m = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(\))?$/.exec(span);
  if (!m) return undefined;
  const name = m[1]!;
  if (/^[A-Z0-9_]+$/.test(name)) return undefined;
  const shaped = m[2] !== undefined || name.includes('.') || /[a-z][A-Z]/.test(name) || /^[A-Z][a-z0-9]+[A-Z]/.test(name);
  return shaped ? name : undefined;
}

function symbolKnown(ctx: ToolContext, name: string): boolean {
  try {
    ctx.engine.query('get_symbol', { id: name }, { repo: ctx.repo });
    return true;
  } catch (error) {
    // Several matches still mean the name exists.
    return (error as { code?: string }).code === 'ambiguous';
  }
}

/** Agent instruction files checked against the repository: dead paths, unknown symbols, size. */
function audit(ctx: ToolContext): unknown {
  const root = ctx.root;
  const found = AUDIT_FILES.filter((f) => {
    try {
      return fs.statSync(path.join(root, f)).isFile();
    } catch {
      return false;
    }
  });
  for (const dir of AUDIT_DIRS) listRuleFiles(root, dir, found);
  const files = found.slice(0, AUDIT_MAX_FILES).map((rel) => {
    const bytes = fs.statSync(path.join(root, rel)).size;
    const text = fs.readFileSync(path.join(root, rel)).subarray(0, AUDIT_MAX_BYTES).toString('utf8');
    const estTokens = Math.ceil(bytes / 4);
    const deadPaths: AuditFinding[] = [];
    const unknownSymbols: AuditFinding[] = [];
    let pathsChecked = 0;
    let symbolsChecked = 0;
    const checked = new Map<string, boolean>();
    for (const { span, line } of codeSpans(text).slice(0, AUDIT_MAX_REFS)) {
      const p = pathRef(span);
      if (p !== undefined) {
        pathsChecked++;
        if (!pathKnown(ctx, p)) deadPaths.push({ ref: span, line });
        continue;
      }
      const s = symbolRef(span);
      if (s !== undefined) {
        symbolsChecked++;
        if (!checked.has(s)) checked.set(s, symbolKnown(ctx, s));
        if (!checked.get(s)) unknownSymbols.push({ ref: span, line });
      }
    }
    return {
      path: rel,
      bytes,
      lines: text.split('\n').length,
      est_tokens: estTokens,
      large: estTokens > AUDIT_LARGE_TOKENS,
      paths_checked: pathsChecked,
      symbols_checked: symbolsChecked,
      dead_paths: deadPaths,
      unknown_symbols: unknownSymbols,
    };
  });
  return {
    searched: [...AUDIT_FILES, ...AUDIT_DIRS.map((d) => `${d}/**`)],
    files,
    summary: {
      files: files.length,
      dead_paths: files.reduce((n, f) => n + f.dead_paths.length, 0),
      unknown_symbols: files.reduce((n, f) => n + f.unknown_symbols.length, 0),
      large_files: files.filter((f) => f.large).length,
    },
    notes: [
      'paths and symbols are taken from inline code spans outside fenced blocks',
      'a path is dead when it does not exist under the repository root (a bare file name also counts when any indexed file has that name)',
      'an unknown symbol is a camelCase, qualified or call-shaped name the graph does not hold: stale, or defined outside this repository',
      `a file above ${AUDIT_LARGE_TOKENS} estimated tokens (bytes / 4) is flagged large: it is loaded into every agent session`,
    ],
    ...(found.length > AUDIT_MAX_FILES ? { truncated: true, discovered: found.length } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The resources
// ---------------------------------------------------------------------------------------------

/** Per-server state the session resource reports and subscriptions live in. */
interface SessionState {
  startedAt: number;
  reindexes: number;
  lastReindexAt: number | null;
  subscriptions: Set<string>;
}

type Reader = (ctx: ToolContext, state: SessionState) => Promise<unknown> | unknown;

interface StaticResource {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read: Reader;
}

interface TemplateResource {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Why `param` names nothing, or undefined when it is acceptable. */
  check: (param: string) => string | undefined;
  read: (ctx: ToolContext, param: string) => Promise<unknown> | unknown;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());


async function workspace(ctx: ToolContext): Promise<unknown> {
  const stats = ctx.engine.stats(ctx.repo);
  return {
    root: ctx.root,
    repo: stats.name,
    mode: 'single_repository',
    members: [{ name: stats.name, root: stats.root, files: stats.files, nodes: stats.nodes, edges: stats.edges }],
    git: await gitInfo(ctx.root),
    missing: ['multi-repository workspaces: this session serves exactly one repository'],
  };
}

function indexHealth(ctx: ToolContext): unknown {
  const stats = ctx.engine.stats(ctx.repo);
  const status = ctx.engine.status(ctx.root, { name: stats.name });
  const stale = status.stale.modified.length + status.stale.added.length + status.stale.deleted.length;
  const linked = stats.edges + stats.unresolved;
  const reasons: string[] = [];
  if (status.snapshot_error) reasons.push(`snapshot unreadable: ${status.snapshot_error}`);
  if (status.failures.length > 0) reasons.push(`${status.failures.length} file(s) failed to parse`);
  if (stale > 0) reasons.push(`${stale} file(s) differ from the saved snapshot (size or modification time)`);
  const verdict = !status.indexed ? 'not_indexed' : status.snapshot_error || status.failures.length > 0 ? 'degraded' : stale > 0 ? 'stale' : 'healthy';
  const cap = (list: string[]) => list.slice(0, 20);
  return {
    status: verdict,
    reasons,
    indexed_at: iso(status.indexed_at_ms),
    snapshot: status.snapshot_path,
    files: status.files,
    languages: status.languages,
    fresh: status.fresh,
    stale: {
      modified: status.stale.modified.length,
      added: status.stale.added.length,
      deleted: status.stale.deleted.length,
      examples: cap([...status.stale.modified, ...status.stale.added, ...status.stale.deleted]),
    },
    failures: status.failures,
    skipped: { total: status.skipped.length, by_reason: status.skipped_by_reason, examples: status.skipped.slice(0, 20) },
    resolution: {
      edges_by_origin: stats.edges_by_origin,
      unresolved: stats.unresolved,
      // Share of references the resolver left unbound (edges + placeholders as the denominator).
      unresolved_ratio: linked === 0 ? 0 : Math.round((stats.unresolved / linked) * 10_000) / 10_000,
    },
  };
}

function report(ctx: ToolContext): unknown {
  const stats = ctx.engine.stats(ctx.repo);
  const status = ctx.engine.status(ctx.root, { name: stats.name });
  const ranked = (counts: Record<string, number>, key: string) =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => ({ [key]: k, count: n }));
  const todos = todoRollup(ctx, 0);
  const hot = godNodes(ctx, 5);
  const flows = topProcesses(ctx, 5);
  const communities = communityList(ctx, 5);
  // The health score already ran dead code and cycles: read their counts from its components.
  const health = ctx.engine.analyze('health_score', {}, { repo: ctx.repo });
  const measure = <N extends keyof HealthMeasures>(name: N): HealthMeasures[N] =>
    health.components.find((c) => c.name === name)!.measure as HealthMeasures[N];
  const dead = measure('dead_code');
  const cycles = measure('cycles');
  return {
    repo: stats.name,
    root: stats.root,
    indexed_at: iso(stats.indexed_at_ms),
    size: { files: stats.files, nodes: stats.nodes, edges: stats.edges, unresolved: stats.unresolved },
    languages: Object.entries(status.languages)
      .sort((a, b) => b[1].files - a[1].files || (a[0] < b[0] ? -1 : 1))
      .map(([language, c]) => ({ language, files: c.files, bytes: c.bytes })),
    node_kinds: ranked(stats.nodes_by_kind, 'kind'),
    edge_kinds: ranked(stats.edges_by_kind, 'kind'),
    provenance: stats.edges_by_origin,
    health: { score: health.score, grade: health.grade, components: Object.fromEntries(health.components.map((c) => [c.name, c.score])) },
    hotspots: { top: hot.hotspots.map((h) => ({ ...h.node, score: h.score })), see: `${URI_SCHEME}god-nodes` },
    communities: {
      count: communities.count,
      modularity: communities.modularity,
      largest: communities.communities.map((c) => ({ id: c.id, label: c.label, size: c.size })),
      see: `${URI_SCHEME}communities`,
    },
    processes: {
      total: flows.total,
      top: flows.processes.map((p) => ({ id: p.id, name: p.name, path: p.entry.path, steps: p.steps })),
      see: `${URI_SCHEME}processes`,
    },
    dead_code: {
      total: dead.dead_high_confidence + dead.dead_medium_confidence,
      by_confidence: { high: dead.dead_high_confidence, medium: dead.dead_medium_confidence },
      see: `${URI_SCHEME}surprises`,
    },
    cycles: {
      total: cycles.import_cycles + cycles.call_cycles,
      by_kind: { imports: cycles.import_cycles, calls: cycles.call_cycles },
      see: `${URI_SCHEME}surprises`,
    },
    todos: { total: todos.total, truncated: todos.truncated, by_tag: todos.by_tag, see: `${URI_SCHEME}questions` },
  };
}

const STATIC_RESOURCES: Readonly<Record<string, StaticResource>> = {
  session: {
    name: 'session',
    title: 'Session',
    description: 'This MCP session: repository, server version, start time, re-index count, subscribed URIs.',
    mimeType: JSON_MIME,
    read: (ctx, state) => {
      const stats = ctx.engine.stats(ctx.repo);
      return {
        server: 'gortex',
        version: packageVersion(),
        repo: stats.name,
        root: ctx.root,
        started_at: iso(state.startedAt),
        indexed_at: iso(stats.indexed_at_ms),
        reindexes: state.reindexes,
        last_reindex_at: iso(state.lastReindexAt),
        subscriptions: [...state.subscriptions].sort(),
      };
    },
  },
  stats: {
    name: 'stats',
    title: 'Graph statistics',
    description: 'Node and edge counts by kind and provenance tier, unresolved references, search-index memory.',
    mimeType: JSON_MIME,
    read: (ctx) => ctx.engine.stats(ctx.repo),
  },
  schema: {
    name: 'schema',
    title: 'Graph schema',
    description: 'Node kinds, type flavors, edge kinds and provenance tiers with their meaning and counts; id formats; caveat classes.',
    mimeType: JSON_MIME,
    read: (ctx) => schema(ctx.engine.stats(ctx.repo)),
  },
  guide: {
    name: 'guide',
    title: 'Usage guide',
    description: `How to use gortex from an agent: ${Object.keys(GUIDE_TOPICS).join(', ')}.`,
    mimeType: MARKDOWN_MIME,
    read: () => fullGuide(),
  },
  'index-health': {
    name: 'index-health',
    title: 'Index health',
    description: 'Whether the index matches the files on disk, parse failures, skipped files, unresolved-reference ratio.',
    mimeType: JSON_MIME,
    read: (ctx) => indexHealth(ctx),
  },
  workspace: {
    name: 'workspace',
    title: 'Workspace',
    description: 'The repository this session serves, its git state, and its member set.',
    mimeType: JSON_MIME,
    read: (ctx) => workspace(ctx),
  },
  repos: {
    name: 'repos',
    title: 'Repositories',
    description: 'Repositories loaded in this engine.',
    mimeType: JSON_MIME,
    read: (ctx) => ({ active: repoName(ctx), repos: ctx.engine.repos() }),
  },
  'active-project': {
    name: 'active-project',
    title: 'Active project',
    description: 'The project queries run against and its member repositories.',
    mimeType: JSON_MIME,
    read: (ctx) => {
      const stats = ctx.engine.stats(ctx.repo);
      return {
        project: stats.name,
        repos: [{ name: stats.name, root: stats.root }],
        missing: ['switching projects: a session is bound to the one repository it was started in'],
      };
    },
  },
  communities: {
    name: 'communities',
    title: 'Communities',
    description: 'Functional clusters (Leiden over calls and references): label, size, cohesion, hub and top files of each, largest first.',
    mimeType: JSON_MIME,
    read: (ctx) => communityList(ctx),
  },
  processes: {
    name: 'processes',
    title: 'Processes',
    description: 'Execution flows from scored entry points (mains, handlers, commands), best first; test flows kept apart.',
    mimeType: JSON_MIME,
    read: (ctx) => topProcesses(ctx, 50),
  },
  report: {
    name: 'report',
    title: 'Orientation report',
    description: 'Graph size, languages, node and edge kinds, top hotspots, entry-point candidates, TODO counts.',
    mimeType: JSON_MIME,
    read: (ctx) => report(ctx),
  },
  'god-nodes': {
    name: 'god-nodes',
    title: 'God nodes',
    description: 'The 20 functions and methods with the highest hotspot score (fan-in, fan-out, community crossings, betweenness).',
    mimeType: JSON_MIME,
    read: (ctx) => {
      const r = godNodes(ctx, 20);
      return {
        criterion: 'hotspot score = fan_in×2 + fan_out×1.5 + community_crossings×3 + betweenness×0.4, normalised to 0–100',
        candidates: r.candidates,
        mean: r.mean,
        stddev: r.stddev,
        nodes: r.hotspots,
      };
    },
  },
  surprises: {
    name: 'surprises',
    title: 'Surprises',
    description: 'Import and call cycles, dead code, and the hotspots calling most into other communities.',
    mimeType: JSON_MIME,
    read: (ctx) => surprises(ctx),
  },
  audit: {
    name: 'audit',
    title: 'Agent-config audit',
    description: 'CLAUDE.md, AGENTS.md, Cursor/Windsurf/Copilot rules checked against the repository: dead paths, unknown symbols, size.',
    mimeType: JSON_MIME,
    read: (ctx) => audit(ctx),
  },
  questions: {
    name: 'questions',
    title: 'Open questions',
    description: 'TODO / FIXME / XXX / HACK / QUESTION comments grouped by tag and assignee.',
    mimeType: JSON_MIME,
    read: (ctx) => ({ tags: [...TODO_TAGS], rule: 'a tag right after a comment opener (//, #, /*, *, --, <!--); strings and prose do not count', ...todoRollup(ctx) }),
  },
};

const TEMPLATES: Readonly<Record<string, TemplateResource>> = {
  guide: {
    name: 'guide-topic',
    title: 'Usage guide section',
    description: `One section of the usage guide; topic is one of ${Object.keys(GUIDE_TOPICS).join(', ')}.`,
    mimeType: MARKDOWN_MIME,
    check: (topic) => (topic in GUIDE_TOPICS ? undefined : `unknown guide topic "${topic}"; topics: ${Object.keys(GUIDE_TOPICS).join(', ')}`),
    read: (_ctx, topic) => guideSection(topic),
  },
  community: {
    name: 'community',
    title: 'Community',
    description: 'One community by id or label: members, files, cohesion and neighbouring communities.',
    mimeType: JSON_MIME,
    check: (id) => (id.trim() === '' ? 'a community id (a number from gortex://communities) or label is required' : undefined),
    read: (ctx, id) => ctx.engine.query('get_communities', { id: /^\d+$/.test(id) ? Number(id) : id }, { repo: ctx.repo }),
  },
  process: {
    name: 'process',
    title: 'Process',
    description: 'One execution flow by id or entry name: its call-tree trace step by step.',
    mimeType: JSON_MIME,
    check: (id) => (id.trim() === '' ? 'a process id (a number from gortex://processes) or entry name is required' : undefined),
    read: (ctx, id) => ctx.engine.query('get_processes', { id: /^\d+$/.test(id) ? Number(id) : id }, { repo: ctx.repo }),
  },
};

type Resolved =
  | { kind: 'static'; def: StaticResource }
  | { kind: 'template'; def: TemplateResource; param: string };

/** Maps a URI onto its resource, or throws the MCP "resource not found" error saying what exists. */
function resolveUri(uri: string): Resolved {
  const notFound = (why: string): never => {
    throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (${why})`, { uri });
  };
  if (!uri.startsWith(URI_SCHEME)) notFound(`gortex serves only ${URI_SCHEME} URIs`);
  const rest = uri.slice(URI_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash < 0) {
    const def = STATIC_RESOURCES[rest];
    if (!def || !Object.hasOwn(STATIC_RESOURCES, rest)) notFound(`resources: ${Object.keys(STATIC_RESOURCES).map((k) => URI_SCHEME + k).join(', ')}`);
    return { kind: 'static', def: def! };
  }
  const head = rest.slice(0, slash);
  const raw = rest.slice(slash + 1);
  const def = Object.hasOwn(TEMPLATES, head) ? TEMPLATES[head] : undefined;
  if (!def) notFound(`templates: ${Object.keys(TEMPLATES).map((k) => `${URI_SCHEME}${k}/{…}`).join(', ')}`);
  let param: string;
  try {
    param = decodeURIComponent(raw);
  } catch {
    return notFound('the part after the template name is not valid percent-encoding');
  }
  if (param === '' || param.includes('/')) notFound(`${URI_SCHEME}${head}/ takes exactly one non-empty segment`);
  const problem = def!.check(param);
  if (problem) notFound(problem);
  return { kind: 'template', def: def!, param };
}

/**
 * Installs resources/list, resources/templates/list, resources/read, resources/subscribe and
 * resources/unsubscribe on `server` (declaring the `resources` capability, so call it before
 * connecting), and after each re-index of `repo` sends `notifications/resources/updated` for every
 * subscribed URI.
 */
export function registerResources(server: Server, repo: ResourceHost): void {
  server.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
  const state: SessionState = { startedAt: Date.now(), reindexes: 0, lastReindexAt: null, subscriptions: new Set() };

  const unsubscribe = repo.onReindexed(() => {
    state.reindexes++;
    state.lastReindexAt = Date.now();
    for (const uri of state.subscriptions) {
      // A client that went away cannot be told; the session itself carries on.
      server.sendResourceUpdated({ uri }).catch(() => {});
    }
  });
  // A daemon serves many sessions from one repository: a closed session must stop listening.
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previousOnClose?.();
  };

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: Object.entries(STATIC_RESOURCES).map(([key, r]) => ({
      uri: URI_SCHEME + key,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: Object.entries(TEMPLATES).map(([key, t]) => ({
      uriTemplate: `${URI_SCHEME}${key}/{${key === 'guide' ? 'topic' : 'id'}}`,
      name: t.name,
      title: t.title,
      description: t.description,
      mimeType: t.mimeType,
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const target = resolveUri(uri);
    // Resources carry no warming block: a warming repository's are read from the complete graph.
    const ctx = await completeContext(await repo.context());
    let value: unknown;
    try {
      value = target.kind === 'static' ? await target.def.read(ctx, state) : await target.def.read(ctx, target.param);
    } catch (error) {
      if (error instanceof McpError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new McpError(ErrorCode.InternalError, `reading ${uri} failed: ${message}`);
    }
    const mimeType = target.def.mimeType;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return { contents: [{ uri, mimeType, text }] };
  });

  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    resolveUri(request.params.uri);
    state.subscriptions.add(request.params.uri);
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    // Unsubscribing from something never subscribed is a no-op, as the protocol expects.
    state.subscriptions.delete(request.params.uri);
    return {};
  });
}
