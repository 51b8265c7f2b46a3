/**
 * MCP prompts: `orientation`, `safe_to_change` and `pre_commit` turn real graph (and git) data into
 * one briefing message an agent can act on — what the repository looks like, what a change to
 * given symbols would touch, what the uncommitted changes touch and which tests to run.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes, formatCounts } from '../support/format';
import type { Caveat, CommunityList, DependencyRow, FileSymbol, NodeSummary } from '../engine/engine';
import { completeContext, type ToolContext } from '../workspace/context';
import { git, gitInfo } from '../support/git';
import { parseDiff } from '../tools/changes';
import { godNodes, outline, OUTLINE_MAX_SUBDIRS, todoCounts, topProcesses, type OutlineDir } from '../tools/rollups';
import { URI_SCHEME, type ResourceHost } from './resources';

/** Most ids `safe_to_change` analyses in one prompt. */
export const MAX_SAFE_IDS = 20;
/** Changed files `pre_commit` looks into (the rest are counted). */
const MAX_COMMIT_FILES = 40;
/** Changed symbols analysed per file and in all. */
const MAX_SYMBOLS_PER_FILE = 15;
const MAX_SYMBOLS = 60;
/** Rows listed per section (totals are always given). */
const LIST_ROWS = 15;

/** A prompt argument as `prompts/list` describes it. */
interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  render: (ctx: ToolContext, args: Record<string, string>) => Promise<string> | string;
}

const invalid = (message: string): McpError => new McpError(ErrorCode.InvalidParams, message);

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

const code = (text: string): string => `\`${text}\``;
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;


/** Runs an engine query, turning a refusal into `{ error }` so one bad id does not sink a whole prompt. */
function attempt<T>(fn: () => T): { value: T } | { error: string } {
  try {
    return { value: fn() };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { error: e.code ? `${e.code}: ${e.message}` : String(e.message ?? error) };
  }
}

// ---------------------------------------------------------------------------------------------
// Impact of changing one symbol
// ---------------------------------------------------------------------------------------------

/** How bad a risk note is. */
export type Severity = 'high' | 'medium' | 'low';
const SEVERITY_ORDER: Severity[] = ['low', 'medium', 'high'];

/** One observation behind a risk level. */
export interface RiskNote {
  severity: Severity;
  text: string;
}

/** A test that reaches the symbol. */
export interface TestRef {
  id: string;
  path: string;
  line: number;
  /** How it reaches the symbol. */
  via: string;
}

/** What changing one symbol touches. */
export interface SymbolImpact {
  symbol: NodeSummary;
  /** Direct callers (depth 1); undefined for a file, which has importers instead. */
  callers: number | undefined;
  dependents: DependencyRow[];
  dependentsTotal: number;
  byDepth: Record<string, number>;
  depth: number;
  caveat?: Caveat;
  nameOnlySuppressed: number;
  tests: TestRef[];
  /** Supertype methods it overrides. */
  overrides: string[];
  /** Methods overriding it. */
  overriddenBy: string[];
  /** Types implementing it (interfaces). */
  implementations: string[];
  level: Severity;
  notes: RiskNote[];
}

/** Blast radius thresholds: direct dependents / dependents within the walked depth. */
const HIGH_DIRECT = 10;
const HIGH_TOTAL = 25;
const MEDIUM_TOTAL = 5;
/** Call levels searched for tests that reach a symbol through other code. */
const TEST_CALL_DEPTH = 3;

/**
 * Dependents within `depth` levels, tests that reach the symbol (a `tests` edge, a test caller
 * within three call levels, or a test file depending on it), override and implementation
 * relations, and risk notes with the level they add up to.
 */
export function impactOf(ctx: ToolContext, id: string, depth: number): SymbolImpact {
  const opts = { repo: ctx.repo };
  const deps = ctx.engine.query('get_dependents', { id, depth, limit: 50 }, opts);
  const symbol = deps.target;
  const target = symbol.id;
  // A file has importers, not callers: its blast radius is the file-level dependents walk alone.
  const isFile = deps.mode === 'file';
  const callers = isFile ? undefined : ctx.engine.query('get_callers', { id: target, depth: TEST_CALL_DEPTH, limit: 200 }, opts);
  const tests = new Map<string, TestRef>();
  const addTest = (n: NodeSummary, via: string): void => {
    if (!tests.has(n.id)) tests.set(n.id, { id: n.id, path: n.file_path, line: n.start_line, via });
  };
  for (const row of ctx.engine.query('get_dependents', { id: target, kinds: 'tests', limit: 100 }, opts).nodes) {
    addTest(row, 'calls it directly (tests edge)');
  }
  for (const row of callers?.callers ?? []) {
    if (row.caller.is_test) addTest(row.caller, row.depth === 1 ? 'calls it' : `reaches it through ${row.depth} call levels`);
  }
  for (const row of deps.nodes) {
    if (row.is_test) addTest(row, `depends on it (${row.edge_kinds.join(', ')})`);
  }

  let overrides: string[] = [];
  let overriddenBy: string[] = [];
  if (symbol.kind === 'method') {
    const o = ctx.engine.query('find_overrides', { id: target }, opts);
    overrides = o.parents.map((p) => p.method.id);
    overriddenBy = o.children.map((c) => c.method.id);
  }
  let implementations: string[] = [];
  if (symbol.kind === 'interface') {
    implementations = ctx.engine.query('find_implementations', { id: target }, opts).implementations.map((i) => i.node.id);
  }

  const direct = deps.by_depth[1] ?? 0;
  const caveat = deps.caveat ?? callers?.caveat;
  const notes: RiskNote[] = [];
  const radius = `${plural(deps.total, 'dependent')} within ${plural(depth, 'level')} (${direct} direct)`;
  if (direct >= HIGH_DIRECT || deps.total >= HIGH_TOTAL) notes.push({ severity: 'high', text: `wide blast radius: ${radius}` });
  else if (deps.total >= MEDIUM_TOTAL) notes.push({ severity: 'medium', text: `blast radius: ${radius}` });
  else notes.push({ severity: 'low', text: `small blast radius: ${radius}` });
  if (caveat) {
    const severity: Severity = caveat.class === 'likely_unused' ? 'low' : 'medium';
    notes.push({ severity, text: `${caveat.class}: ${caveat.message}` });
  }
  if (tests.size === 0) notes.push({ severity: 'medium', text: `no test reaches it (tests edges, test callers within ${TEST_CALL_DEPTH} levels, test files depending on it)` });
  if (symbol.exported) notes.push({ severity: 'low', text: 'exported: users outside this repository are invisible to the graph' });
  if (overrides.length > 0) notes.push({ severity: 'medium', text: `overrides ${overrides.map(code).join(', ')}: calls through the supertype dispatch here, so keep the signature compatible` });
  if (overriddenBy.length > 0) notes.push({ severity: 'medium', text: `overridden by ${plural(overriddenBy.length, 'method')}: a signature change must be mirrored there, a behaviour change does not reach them` });
  if (implementations.length > 0) notes.push({ severity: 'medium', text: `${plural(implementations.length, 'type')} implement it: changing a member changes all of them` });
  const nameOnly = deps.nodes.filter((d) => d.origin === 'text_matched').length;
  if (nameOnly > 0) notes.push({ severity: 'low', text: `${plural(nameOnly, 'listed dependent')} ${nameOnly === 1 ? 'rests' : 'rest'} on name-only evidence (text_matched)` });
  const hidden = deps.name_only_suppressed ?? 0;
  if (hidden > 0) {
    notes.push({ severity: 'low', text: `${plural(hidden, 'name-only row')} hidden because stronger evidence exists (get_dependents with min_tier "text_matched" shows them)` });
  }
  if (deps.truncated) notes.push({ severity: 'medium', text: `the dependents list was cut at ${deps.nodes.length} of ${deps.total}` });
  const level = notes.reduce<Severity>((max, n) => (SEVERITY_ORDER.indexOf(n.severity) > SEVERITY_ORDER.indexOf(max) ? n.severity : max), 'low');

  const impact: SymbolImpact = {
    symbol,
    callers: callers ? callers.callers.filter((c) => c.depth === 1).length : undefined,
    dependents: deps.nodes,
    dependentsTotal: deps.total,
    byDepth: deps.by_depth as Record<string, number>,
    depth,
    nameOnlySuppressed: deps.name_only_suppressed ?? 0,
    tests: [...tests.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)),
    overrides,
    overriddenBy,
    implementations,
    level,
    notes,
  };
  if (caveat) impact.caveat = caveat;
  return impact;
}

function renderImpact(impact: SymbolImpact, heading: string): string {
  const s = impact.symbol;
  const lines = [`${heading} ${code(s.id)} — ${s.kind} at ${s.file_path}:${s.start_line}–${s.end_line}`];
  const facts = [s.signature ? code(s.signature) : undefined, s.exported ? 'exported' : undefined, s.is_test ? 'test code' : undefined].filter(Boolean);
  if (facts.length > 0) lines.push(facts.join(' · '));
  lines.push('', `**Risk: ${impact.level}**`);
  for (const n of impact.notes) lines.push(`- [${n.severity}] ${n.text}`);
  const levels = Object.entries(impact.byDepth)
    .map(([d, n]) => `depth ${d}: ${n}`)
    .join(', ');
  const callers = impact.callers === undefined ? '' : `; ${plural(impact.callers, 'direct caller')}`;
  lines.push('', `**Dependents** (${impact.dependentsTotal}${levels ? `; ${levels}` : ''}${callers}):`);
  if (impact.dependents.length === 0) lines.push('- none found in the repository');
  for (const d of impact.dependents.slice(0, LIST_ROWS)) {
    const via = d.via ? ` via ${code(d.via)}` : '';
    lines.push(`- depth ${d.depth}: ${code(d.id)} (${d.kind}, ${d.file_path}:${d.line}) — ${d.edge_kinds.join(', ')} [${d.origin}]${via}${d.is_test ? ' · test' : ''}`);
  }
  if (impact.dependents.length > LIST_ROWS) lines.push(`- … ${impact.dependentsTotal - LIST_ROWS} more (get_dependents ${code(s.id)})`);
  lines.push('', `**Tests** (${impact.tests.length}):`);
  if (impact.tests.length === 0) lines.push('- none found');
  for (const t of impact.tests.slice(0, LIST_ROWS)) lines.push(`- ${code(t.id)} (${t.path}:${t.line}) — ${t.via}`);
  if (impact.tests.length > LIST_ROWS) lines.push(`- … ${impact.tests.length - LIST_ROWS} more`);
  return lines.join('\n');
}

const testFiles = (impacts: readonly SymbolImpact[]): string[] => [...new Set(impacts.flatMap((i) => i.tests.map((t) => t.path)))].sort();

// ---------------------------------------------------------------------------------------------
// orientation
// ---------------------------------------------------------------------------------------------

function renderOutline(dirs: OutlineDir[], indent = ''): string[] {
  return dirs.flatMap((d) => [`${indent}- ${code(d.path)} — ${plural(d.files, 'file')}`, ...renderOutline(d.children ?? [], `${indent}  `)]);
}

function orientation(ctx: ToolContext): string {
  const stats = ctx.engine.stats(ctx.repo);
  const status = ctx.engine.status(ctx.root, { name: stats.name });
  const layout = outline(ctx);
  const hot = godNodes(ctx, 10);
  const flows = topProcesses(ctx, 10);
  const communities = ctx.engine.query('get_communities', { limit: 10 }, { repo: ctx.repo }) as CommunityList;
  const todos = todoCounts(ctx);
  const languages = Object.entries(status.languages)
    .sort((a, b) => b[1].files - a[1].files || (a[0] < b[0] ? -1 : 1))
    .map(([lang, c]) => `${lang} ${plural(c.files, 'file')} (${formatBytes(c.bytes)})`)
    .join(' · ');
  const out = [
    `# Orientation: ${stats.name}`,
    '',
    `You are starting work in the repository ${code(stats.name)} at ${code(stats.root)}. gortex has indexed it into a code graph; ` +
      'everything below comes from that graph. Use it to build a mental model before you change anything.',
    '',
    `- Size: ${plural(stats.files, 'file')}, ${plural(stats.nodes, 'node')}, ${plural(stats.edges, 'edge')}, ${plural(stats.unresolved, 'unresolved reference')}`,
    `- Languages: ${languages || 'none'}`,
    `- Symbols: ${formatCounts(Object.fromEntries(Object.entries(stats.nodes_by_kind).filter(([k]) => k !== 'file')))}`,
    `- Edges: ${formatCounts(stats.edges_by_kind)}`,
    `- Provenance: ${formatCounts(stats.edges_by_origin)}`,
    '',
    '## Layout',
    ...renderOutline(layout.dirs),
    ...(layout.root_files > 0 ? [`- ${plural(layout.root_files, 'file')} at the repository root`] : []),
    ...(layout.truncated ? [`- (directories with more than ${OUTLINE_MAX_SUBDIRS} subdirectories were counted only in part)`] : []),
    '',
    '## Hotspots (fan-in, fan-out, community crossings, betweenness)',
  ];
  if (hot.hotspots.length === 0) out.push('- no function or method is called by anything else yet');
  hot.hotspots.forEach((h, i) =>
    out.push(`${i + 1}. ${code(h.node.id)} (${h.node.kind}, ${h.node.file_path}:${h.node.start_line}) — score ${h.score}, fan-in ${h.fan_in}, fan-out ${h.fan_out}`),
  );
  out.push('', `## Communities (${plural(communities.count, 'cluster')} of code that calls each other; modularity ${communities.modularity})`);
  if (communities.communities.length === 0) out.push('- none: too few calls between symbols');
  for (const c of communities.communities) out.push(`- #${c.id} ${code(c.label)} — ${plural(c.size, 'symbol')}, cohesion ${c.cohesion}`);
  if (communities.total > communities.communities.length) out.push(`- … ${communities.total - communities.communities.length} more in ${code(`${URI_SCHEME}communities`)}`);
  out.push('', '## Execution flows (scored entry points and their call trees)');
  if (flows.processes.length === 0) out.push('- none found');
  for (const p of flows.processes) out.push(`- #${p.id} ${code(p.entry.id)} (${p.entry.file_path}:${p.entry.start_line}) — ${plural(p.steps, 'step')}, depth ${p.depth}`);
  if (flows.total > flows.processes.length) out.push(`- … ${flows.total - flows.processes.length} more in ${code(`${URI_SCHEME}processes`)}`);
  out.push(
    '',
    '## Open questions',
    todos.total === 0
      ? 'No TODO / FIXME / XXX / HACK / QUESTION comments.'
      : `${plural(todos.total, 'tagged comment')}${todos.truncated ? ' (at least)' : ''}: ${formatCounts(todos.by_tag as Record<string, number>)} — read ${code(`${URI_SCHEME}questions`)}.`,
    '',
    '## How to proceed',
    `1. Read ${code(`${URI_SCHEME}guide`)} once: which tool answers which question, and how far to trust each answer.`,
    '2. For the top execution flows, read the trace (`get_processes` with its id) to see how the main paths run.',
    '3. For the hotspots, run `get_symbol` and skim `get_symbol_source`: they are the vocabulary the rest of the code speaks.',
    '4. Run `get_file_summary` on one or two files of the largest directories.',
    '5. Summarise the architecture in a few sentences (layers, main flows, where tests live) before planning a change.',
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// safe_to_change
// ---------------------------------------------------------------------------------------------

/** Splits the `ids` argument: comma-separated, trimmed, de-duplicated, 1..=MAX_SAFE_IDS. */
export function parseIds(raw: string): string[] {
  const ids = [...new Set(raw.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (ids.length === 0) throw invalid('safe_to_change: ids: give at least one symbol id or name (comma-separated)');
  if (ids.length > MAX_SAFE_IDS) throw invalid(`safe_to_change: ids: at most ${MAX_SAFE_IDS} ids per prompt, got ${ids.length}`);
  return ids;
}

function safeToChange(ctx: ToolContext, args: Record<string, string>): string {
  const ids = parseIds(args.ids ?? '');
  const impacts: SymbolImpact[] = [];
  const sections: string[] = [];
  const failed: string[] = [];
  for (const id of ids) {
    const r = attempt(() => impactOf(ctx, id, 2));
    if ('error' in r) {
      failed.push(id);
      sections.push(`### ${code(id)} — not resolved\n${r.error}`);
    } else {
      impacts.push(r.value);
      sections.push(renderImpact(r.value, '###'));
    }
  }
  const overall = impacts.reduce<Severity>((max, i) => (SEVERITY_ORDER.indexOf(i.level) > SEVERITY_ORDER.indexOf(max) ? i.level : max), 'low');
  const files = testFiles(impacts);
  const out = [
    `# Is it safe to change ${ids.map(code).join(', ')}?`,
    '',
    'Below, for each symbol: its dependents within two levels (the blast radius, with caveats and provenance tiers), ' +
      'the tests that reach it, and risk notes. Rows tagged `text_matched` rest on name-only evidence.',
    '',
    impacts.length > 0 ? `**Overall risk: ${overall}**${failed.length > 0 ? ` (${plural(failed.length, 'id')} not resolved)` : ''}` : '**No id resolved**: fix the ids (see the suggestions below) and ask again.',
    '',
    sections.join('\n\n'),
    '',
    '## Tests to run',
    files.length === 0 ? 'No test reaches these symbols; add or name a test before changing behaviour.' : files.map((f) => `- ${f}`).join('\n'),
    '',
    '## Plan the edit',
    '1. Read each symbol with `get_symbol_source` and every depth-1 dependent whose use would break (signature, return type, thrown errors).',
    '2. Where a caveat says coverage is incomplete or likely unused, `search_text` for the name: string dispatch, reflection and other repositories are invisible to the graph.',
    '3. Change the symbol and its direct dependents together; mirror signature changes in overriding and implementing types.',
    '4. Run the tests above, then use the `pre_commit` prompt to review the whole change.',
  ];
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// pre_commit
// ---------------------------------------------------------------------------------------------

/** How a file differs from HEAD. */
type ChangeKind = 'modified' | 'added' | 'deleted' | 'untracked';

interface ChangedFile {
  path: string;
  change: ChangeKind;
  /** New-side line ranges the diff touches; undefined = the whole file is new. */
  ranges?: [number, number][];
}

const NUL_SPLIT = (text: string): string[] => text.split('\0').filter((s) => s !== '');

/** `--name-status -z` output → path and change kind (renames are off, so they show as D + A). */
function parseNameStatus(text: string): ChangedFile[] {
  const parts = NUL_SPLIT(text);
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    const change: ChangeKind = status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified';
    files.push({ path: parts[i + 1]!, change });
  }
  return files;
}

/** `git diff -U0` output → new-side line ranges per path (a pure deletion touches the lines around it). */
export function parseHunks(diff: string): Map<string, [number, number][]> {
  const ranges = new Map<string, [number, number][]>();
  for (const f of parseDiff(diff)) {
    if (f.status === 'deleted' || f.hunks.length === 0) continue;
    ranges.set(
      f.path,
      f.hunks.map((h): [number, number] => (h.new_count === 0 ? [Math.max(1, h.new_start), h.new_start + 1] : [h.new_start, h.new_start + h.new_count - 1])),
    );
  }
  return ranges;
}

/** Changed files relative to the root, or why they cannot be listed. */
async function changedFiles(root: string): Promise<{ files: ChangedFile[]; notes: string[] } | { error: string }> {
  const info = await gitInfo(root);
  if (!info.is_repo) return { error: `${root} is not a git repository (${info.reason ?? 'unknown reason'})` };
  const notes: string[] = [];
  let files: ChangedFile[] = [];
  if (info.head) {
    const status = await git(root, ['diff', '--name-status', '--no-renames', '--relative', '-z', 'HEAD']);
    if (!status.ok) return { error: `git diff failed: ${status.error}` };
    files = parseNameStatus(status.stdout);
    // Fixed prefixes and unquoted paths whatever the user's diff configuration says, so hunks map to paths.
    const diff = await git(root, [
      '-c', 'core.quotePath=false', 'diff', '-U0', '--no-color', '--no-renames', '--no-ext-diff', '--relative',
      '--src-prefix=a/', '--dst-prefix=b/', 'HEAD',
    ]);
    if (diff.ok) {
      const hunks = parseHunks(diff.stdout);
      for (const f of files) if (f.change === 'modified') f.ranges = hunks.get(f.path) ?? [];
    } else {
      notes.push(`changed lines unknown (git diff failed: ${diff.error}); every symbol of a modified file is listed`);
    }
  } else {
    const staged = await git(root, ['ls-files', '-z']);
    if (!staged.ok) return { error: `git ls-files failed: ${staged.error}` };
    files = NUL_SPLIT(staged.stdout).map((p) => ({ path: p, change: 'added' as const }));
    notes.push('the repository has no commits yet: every staged file counts as added');
  }
  const untracked = await git(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (untracked.ok) {
    const known = new Set(files.map((f) => f.path));
    for (const p of NUL_SPLIT(untracked.stdout)) if (!known.has(p)) files.push({ path: p, change: 'untracked' });
  } else {
    notes.push(`untracked files unknown (${untracked.error})`);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, notes };
}

/** A repository-relative path prefix: no absolute paths, no `..`. */
function parseScope(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const scope = raw.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (scope === '' || scope === '.') return undefined;
  if (scope.startsWith('/') || /^[A-Za-z]:[\\/]/.test(scope) || scope.split('/').includes('..')) {
    throw invalid(`pre_commit: scope: ${JSON.stringify(raw)} must be a repository-relative path prefix such as src/ or src/app.ts`);
  }
  return scope;
}

const inScope = (file: string, scope: string | undefined): boolean => scope === undefined || file === scope || file.startsWith(`${scope}/`);

/** Symbols whose lines the ranges touch, innermost only (a changed method, not also its class). */
function touchedSymbols(symbols: FileSymbol[], ranges: [number, number][] | undefined): FileSymbol[] {
  if (ranges === undefined) return symbols.filter((s) => s.depth === 0);
  const hit = symbols.filter((s) => ranges.some(([a, b]) => s.symbol.start_line <= b && s.symbol.end_line >= a));
  const parents = new Set(hit.map((s) => s.parent).filter((p): p is string => p !== undefined));
  return hit.filter((s) => !parents.has(s.symbol.id));
}

async function preCommit(ctx: ToolContext, args: Record<string, string>): Promise<string> {
  const scope = parseScope(args.scope);
  const title = `# Pre-commit review${scope ? ` of ${code(scope)}` : ''}`;
  const listed = await changedFiles(ctx.root);
  if ('error' in listed) {
    return [
      title,
      '',
      `${listed.error}, so the uncommitted changes cannot be listed from version control.`,
      '',
      'Name the files you changed and run `get_file_summary` on each, or use the `safe_to_change` prompt with the ids of the symbols you edited to get their dependents and tests.',
    ].join('\n');
  }
  const all = listed.files.filter((f) => inScope(f.path, scope));
  const out = [title, ''];
  if (all.length === 0) {
    out.push(
      scope && listed.files.length > 0
        ? `No uncommitted changes under ${code(scope)} (${plural(listed.files.length, 'changed file')} elsewhere).`
        : 'No uncommitted changes: the work tree matches HEAD and there are no untracked files.',
    );
    out.push(...listed.notes.map((n) => `Note: ${n}.`));
    return out.join('\n');
  }
  const files = all.slice(0, MAX_COMMIT_FILES);
  out.push(
    `${plural(all.length, 'changed file')} (git diff against HEAD plus untracked files)${all.length > files.length ? `; the first ${files.length} are analysed` : ''}.`,
    ...listed.notes.map((n) => `Note: ${n}.`),
    '',
  );

  const impacts: SymbolImpact[] = [];
  const tests = new Set<string>();
  const notIndexed: string[] = [];
  const fileSections: string[] = [];
  let budget = MAX_SYMBOLS;
  for (const f of files) {
    const head = `### ${code(f.path)} — ${f.change}`;
    if (f.change === 'deleted') {
      fileSections.push(`${head}\nIts symbols are gone from the graph. \`search_text\` for its module name to find importers that still reference it.`);
      continue;
    }
    const summary = attempt(() => ctx.engine.query('get_file_summary', { path: f.path, limit: 1000 }, { repo: ctx.repo }));
    if ('error' in summary) {
      notIndexed.push(f.path);
      continue;
    }
    const s = summary.value;
    if (s.file.is_test) tests.add(f.path);
    const lines = [head];
    const importers = attempt(() => ctx.engine.query('get_dependents', { id: f.path, limit: 50 }, { repo: ctx.repo }));
    if ('value' in importers) {
      const rows = importers.value.nodes;
      for (const r of rows) if (r.is_test) tests.add(r.file_path);
      lines.push(
        rows.length === 0
          ? 'Imported by no other file.'
          : `Imported by ${plural(importers.value.total, 'file')}: ${rows.slice(0, LIST_ROWS).map((r) => code(r.file_path)).join(', ')}${importers.value.total > LIST_ROWS ? ', …' : ''}`,
      );
    }
    const touched = touchedSymbols(s.symbols, f.ranges);
    if (touched.length === 0) {
      lines.push(f.ranges !== undefined && f.ranges.length === 0 ? 'No changed lines (mode or whitespace-only change).' : 'The changed lines are outside any symbol (imports, comments or module-level code).');
    } else {
      lines.push(`${f.ranges === undefined ? 'New symbols' : 'Changed symbols'} (${touched.length}):`);
      const analysed = touched.slice(0, Math.min(MAX_SYMBOLS_PER_FILE, budget));
      budget -= analysed.length;
      for (const t of analysed) {
        const r = attempt(() => impactOf(ctx, t.symbol.id, 1));
        if ('error' in r) {
          lines.push(`- ${code(t.symbol.id)} — ${r.error}`);
          continue;
        }
        const i = r.value;
        impacts.push(i);
        const deps = i.dependents.slice(0, 5).map((d) => code(d.qual_name)).join(', ');
        lines.push(
          `- ${code(i.symbol.id)} (${i.symbol.kind}, line ${i.symbol.start_line}) — risk ${i.level}; ${plural(i.dependentsTotal, 'direct dependent')}${deps ? `: ${deps}${i.dependentsTotal > 5 ? ', …' : ''}` : ''}; ${plural(i.tests.length, 'test')}${i.caveat ? `; caveat ${i.caveat.class}` : ''}`,
        );
        for (const n of i.notes.filter((n) => n.severity !== 'low')) lines.push(`  - [${n.severity}] ${n.text}`);
      }
      if (touched.length > analysed.length) lines.push(`- … ${touched.length - analysed.length} more not analysed`);
    }
    fileSections.push(lines.join('\n'));
  }
  for (const f of testFiles(impacts)) tests.add(f);
  const overall = impacts.reduce<Severity>((max, i) => (SEVERITY_ORDER.indexOf(i.level) > SEVERITY_ORDER.indexOf(max) ? i.level : max), 'low');

  out.push(`**Overall risk: ${overall}** (highest of the changed symbols)`, '', fileSections.join('\n\n'));
  if (notIndexed.length > 0) out.push('', `Not in the graph (not a source file gortex parses, or skipped): ${notIndexed.map(code).join(', ')}`);
  if (all.length > files.length) out.push('', `Not analysed: ${plural(all.length - files.length, 'more changed file')}.`);
  out.push(
    '',
    '## Tests to run',
    tests.size === 0 ? 'No test reaches the changed code; consider adding one.' : [...tests].sort().map((t) => `- ${t}`).join('\n'),
    '',
    '## Before committing',
    '1. For each changed symbol with dependents, confirm every dependent still compiles and behaves (its signature, return value, errors).',
    '2. Where a caveat is listed, `search_text` for the name: the graph cannot see string dispatch, reflection or other repositories.',
    '3. Run the tests above.',
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------------

const PROMPTS: readonly PromptDef[] = [
  {
    name: 'orientation',
    title: 'Orient in this repository',
    description: 'A briefing to orient in an unfamiliar repository: size, languages, layout, most-used symbols, entry points, open questions, next steps.',
    arguments: [],
    render: (ctx) => orientation(ctx),
  },
  {
    name: 'safe_to_change',
    title: 'Is it safe to change these symbols?',
    description: 'For each symbol: dependents within two levels (blast radius, with caveats), tests that reach it, risk notes, and an edit plan.',
    arguments: [{ name: 'ids', description: `Symbol ids or names, comma-separated (at most ${MAX_SAFE_IDS})`, required: true }],
    render: (ctx, args) => safeToChange(ctx, args),
  },
  {
    name: 'pre_commit',
    title: 'Review uncommitted changes',
    description: 'Changed files (git diff against HEAD plus untracked), the symbols the diff touches, their dependents and risk, and the tests to run.',
    arguments: [{ name: 'scope', description: 'Only changed files under this repository-relative path prefix', required: false }],
    render: (ctx, args) => preCommit(ctx, args),
  },
];

/** Checks `args` against a prompt's declared arguments: unknown names and missing required ones are refused. */
function checkArgs(prompt: PromptDef, args: Record<string, string>): void {
  const declared = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !declared.has(k));
  if (unknown.length > 0) {
    const accepted = prompt.arguments.length > 0 ? `accepted: ${[...declared].join(', ')}` : 'it takes no arguments';
    throw invalid(`${prompt.name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; ${accepted}`);
  }
  for (const a of prompt.arguments) {
    if (a.required && (args[a.name] === undefined || args[a.name]!.trim() === '')) {
      throw invalid(`${prompt.name}: ${a.name} is required (${a.description})`);
    }
  }
}

/**
 * Installs prompts/list and prompts/get on `server` (declaring the `prompts` capability, so call it
 * before connecting). Every prompt is rendered from `repo`'s current context when requested.
 */
export function registerPrompts(server: Server, repo: ResourceHost): void {
  server.registerCapabilities({ prompts: {} });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: PROMPTS.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const prompt = PROMPTS.find((p) => p.name === name);
    if (!prompt) throw invalid(`unknown prompt "${name}"; prompts: ${PROMPTS.map((p) => p.name).join(', ')}`);
    checkArgs(prompt, args);
    // Prompts run analyses: a warming repository's wait for the complete graph.
    const ctx = await completeContext(await repo.context());
    let text: string;
    try {
      text = await prompt.render(ctx, args);
    } catch (error) {
      if (error instanceof McpError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new McpError(ErrorCode.InternalError, `${name} failed: ${message}`);
    }
    return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
  });
}
