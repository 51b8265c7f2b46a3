/**
 * `smart_context` (the working set for an edit, its blast radius and covering tests, etag'd) and
 * `plan_turn` (the opening calls a task text suggests, with arguments filled in).
 */
import type { GetDependentsResult, NodeSummary } from '../engine/engine';
import { ContextReader, estimateTokens, lineRange, rowError, type RowError } from './context-common';
import { extractCues } from './context-explore';
import { etagOf, packRows, rankedForTask, symbolRow, withTokens, type PackCut, type SymbolRow } from './context-smart-pack';
import { findTestTargets, type TestCommand, type TestFileRow } from './context-tests';

/** `smart_context` token budget default and bounds. */
export const SMART_BUDGET = { default: 4000, min: 500, max: 24000 } as const;
/** Ranked symbols in the working set. */
const WORKING_SET = 8;
/** Top working-set symbols whose dependents and tests make up the blast radius. */
const BLAST_TARGETS = 3;
/** Dependents fetched per blast target (two hops). */
const DEPENDENT_LIMIT = 50;

/** A symbol that depends on a blast target. */
export interface DependentRow {
  qualified: string;
  kind: string;
  line: number;
  /** Hops from the target (1 = direct). */
  depth: number;
  /** Edge kinds linking it (`calls`, `references`, …). */
  kinds: string[];
  /** The target it depends on (qualified). */
  of: string;
}

/** Dependents of one file, in blast-radius order. */
export interface DependentFile {
  path: string;
  symbols: DependentRow[];
}

/** The tests covering the blast targets, merged. */
export interface BlastTests {
  tests: { qualified: string; path: string; line: number; depth: number; covers: string; runner?: string }[];
  test_files: TestFileRow[];
  commands: TestCommand[];
}

/** What the top of the working set touches: dependents by file, covering tests, caveats. */
export interface BlastRadius {
  /** Qualified names of the symbols whose radius this is. */
  targets: string[];
  /** Non-test dependents (1–2 hops), grouped by file. */
  dependents: DependentFile[];
  /** Dependent rows found before packing (and before each target's limit). */
  dependents_total: number;
  tests: BlastTests;
  /** Warnings: a target no test covers, a dependents list cut at the limit, the engine's caveats. */
  caveats: string[];
}

/** The working set: ranked symbols clustered by file. */
export interface WorkingFile {
  path: string;
  symbols: (SymbolRow & { rank: number })[];
}

/** A full `smart_context` answer. */
export interface SmartContextResult {
  task: string;
  working_set: WorkingFile[];
  blast_radius: BlastRadius;
  /** `complete`, or why the set is thin (nothing matched). */
  completeness: string;
  token_budget: number;
  tokens_used: number;
  truncated: boolean;
  cut?: PackCut & { dependents: number };
  errors?: RowError[];
  etag: string;
}

/** Token sizes of the sections a full answer would carry (`estimate: true`). */
export interface SmartContextEstimate {
  task: string;
  estimate: true;
  /** Symbols in the working set and estimated tokens of their signatures, sources and metadata. */
  sections: {
    working_set: { symbols: number; tokens: number; source_tokens: number };
    blast_radius: { dependents: number; tokens: number };
    tests: { tests: number; tokens: number };
  };
  /** Estimated tokens of the unpacked answer. */
  total_tokens: number;
  token_budget: number;
  /** Whether the answer fits the budget without cutting. */
  fits: boolean;
  /** The etag the full answer under this budget carries (usable as `if_none_match`). */
  etag: string;
}

/** The blast radius of the top targets: dependents grouped by file, merged covering tests, caveats. */
function blastRadius(reader: ContextReader, targets: readonly NodeSummary[], errors: RowError[]): BlastRadius {
  const byFile = new Map<string, DependentRow[]>();
  const seen = new Set<string>();
  let total = 0;
  const caveats: string[] = [];
  const tests = new Map<string, BlastTests['tests'][number]>();
  const files = new Map<string, TestFileRow>();
  const commands = new Map<string, TestCommand>();
  const targetIds = new Set(targets.map((t) => t.id));
  for (const t of targets) {
    let r: GetDependentsResult | undefined;
    try {
      r = reader.query<GetDependentsResult>('get_dependents', { id: t.id, depth: 2, limit: DEPENDENT_LIMIT, include_tests: false });
    } catch (error) {
      errors.push(rowError(error));
    }
    if (r) {
      total += r.total;
      if (r.caveat) caveats.push(`${t.qual_name}: ${r.caveat.message}`);
      if (r.truncated) caveats.push(`${t.qual_name}: only ${r.nodes.length} of ${r.total} dependents listed`);
      for (const d of r.nodes) {
        // Files are containers, test code is listed under tests, and the targets are the set itself.
        if (d.kind === 'file' || reader.isTestCode(d) || targetIds.has(d.id) || seen.has(d.id)) continue;
        seen.add(d.id);
        let list = byFile.get(d.file_path);
        if (!list) byFile.set(d.file_path, (list = []));
        list.push({ qualified: d.qual_name, kind: d.kind, line: d.start_line, depth: d.depth, kinds: d.edge_kinds, of: t.qual_name });
      }
    }
    if (t.kind === 'file') continue;
    const covering = findTestTargets(reader, { symbol: t });
    if (covering.errors) errors.push(...covering.errors);
    for (const x of covering.tests) {
      if (!x.is_test || tests.has(x.id)) continue;
      tests.set(x.id, { qualified: x.qualified, path: x.path, line: x.line, depth: x.depth, covers: t.qual_name, ...(x.runner ? { runner: x.runner } : {}) });
    }
    for (const f of covering.test_files) {
      const prior = files.get(f.path);
      files.set(f.path, prior ? { ...prior, reasons: [...new Set([...prior.reasons, ...f.reasons])].sort() } : f);
    }
    for (const c of covering.commands) commands.set(`${c.cwd}\u0000${c.command}`, c);
    if (covering.tests.length === 0 && covering.test_files.length === 0) caveats.push(`no covering tests found for ${t.qual_name}`);
  }
  const dependents = [...byFile.entries()].map(([p, symbols]) => ({ path: p, symbols }));
  return {
    targets: targets.map((t) => t.qual_name),
    dependents,
    dependents_total: total,
    tests: {
      tests: [...tests.values()],
      test_files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
      commands: [...commands.values()],
    },
    caveats,
  };
}

/** Ranked rows clustered by file, files in the order of their best-ranked symbol. */
function cluster(rows: readonly (SymbolRow & { rank: number })[]): WorkingFile[] {
  const out = new Map<string, WorkingFile>();
  for (const r of rows) {
    let f = out.get(r.path);
    if (!f) out.set(r.path, (f = { path: r.path, symbols: [] }));
    f.symbols.push(r);
  }
  return [...out.values()];
}

/** Arguments of `smart_context` after validation. */
export interface SmartContextArgs {
  task: string;
  token_budget: number;
  estimate: boolean;
  if_none_match?: string;
}

/**
 * The working set for a task: explore's ranking with sources, clustered by file, plus the blast
 * radius of its top three symbols, packed under the budget; `estimate` reports sizes only, and a
 * matching `if_none_match` answers `not_modified`.
 */
export function smartContext(
  reader: ContextReader,
  args: SmartContextArgs,
): SmartContextResult | SmartContextEstimate | { not_modified: true; etag: string } {
  const ranked = rankedForTask(reader, args.task, WORKING_SET);
  const rows = ranked.map((r) => ({ rank: r.rank, ...symbolRow(reader, r.node, r.why.join('; '), true) }));
  const errors: RowError[] = [];
  const blast = blastRadius(
    reader,
    ranked.slice(0, BLAST_TARGETS).map((r) => r.node),
    errors,
  );
  const full = { rows: rows.map((r) => ({ ...r })), blast: structuredClone(blast) };

  // Packing: sources (lowest rank first), then dependents from the far end, then rows.
  let dependentsCut = 0;
  const build = (truncated: boolean, cut?: SmartContextResult['cut']): Omit<SmartContextResult, 'etag'> => ({
    task: args.task,
    working_set: cluster(rows),
    blast_radius: blast,
    completeness: rows.length === 0 ? 'empty: nothing in the index matched the task; name a symbol, file or error message' : 'complete',
    token_budget: args.token_budget,
    tokens_used: 0,
    truncated,
    ...(cut ? { cut } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  });
  // Measured as sent: with the cut record and an etag's worth of characters.
  const size = (): number => estimateTokens({ ...build(true, { sources: 0, rows: 0, dependents: 0 }), tokens_used: 99999, etag: '0'.repeat(16) });
  const cut = { sources: 0, rows: 0 };
  for (let i = rows.length - 1; i >= 1 && size() > args.token_budget; i--) {
    if (rows[i]!.source === undefined) continue;
    delete rows[i]!.source;
    cut.sources++;
  }
  while (size() > args.token_budget) {
    const last = blast.dependents[blast.dependents.length - 1];
    if (!last) break;
    last.symbols.pop();
    dependentsCut++;
    if (last.symbols.length === 0) blast.dependents.pop();
  }
  const rest = packRows(rows, args.token_budget, size);
  cut.sources += rest.sources;
  cut.rows += rest.rows;
  const truncated = cut.sources + cut.rows + dependentsCut > 0;
  const answer = withTokens(build(truncated, truncated ? { ...cut, dependents: dependentsCut } : undefined));
  const etag = etagOf(answer);
  if (args.if_none_match !== undefined && args.if_none_match === etag) return { not_modified: true, etag };
  if (!args.estimate) return { ...answer, etag };

  const sourceTokens = full.rows.reduce((sum, r) => sum + (r.source === undefined ? 0 : estimateTokens(r.source)), 0);
  const fullAnswer = { ...build(false), working_set: cluster(full.rows), blast_radius: full.blast };
  const total = estimateTokens({ ...fullAnswer, tokens_used: 99999, etag });
  return {
    task: args.task,
    estimate: true,
    sections: {
      working_set: { symbols: full.rows.length, tokens: estimateTokens(fullAnswer.working_set), source_tokens: sourceTokens },
      blast_radius: { dependents: full.blast.dependents.reduce((n, f) => n + f.symbols.length, 0), tokens: estimateTokens({ ...full.blast, tests: undefined }) },
      tests: { tests: full.blast.tests.tests.length, tokens: estimateTokens(full.blast.tests) },
    },
    total_tokens: total,
    token_budget: args.token_budget,
    fits: total <= args.token_budget,
    etag,
  };
}

/** A next call with its arguments filled in. */
export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
  why: string;
}

/** What `plan_turn` returns. */
export interface PlanTurnResult {
  /** What the task asks for, read from its words: fix, rename, test, add, explain or edit. */
  intent: 'fix' | 'rename' | 'test' | 'add' | 'explain' | 'edit';
  /** What in the text the plan is built on. */
  signals: string[];
  /** The best-ranked symbol, when any symbol matched. */
  top_hit?: { id: string; qualified: string; path: string; lines: string };
  steps: PlannedCall[];
  tokens_used: number;
}

/** Task text longer than this is cut (at a line end when possible) when pre-filled as an argument. */
const PLAN_TASK_CHARS = 240;
/** Steps a plan lists. */
const PLAN_STEPS = 5;

/** The intent a task text states, strongest cue first. */
function intentOf(task: string, hasFrame: boolean): PlanTurnResult['intent'] {
  const t = task.toLowerCase();
  if (/\brenam(e|es|ed|ing)\b/.test(t)) return 'rename';
  if (hasFrame || /\b(fix(es|ed|ing)?|bugs?|crash(es|ed)?|exceptions?|errors?|fail(s|ed|ing|ure)?|broken|wrong|traceback|panic)\b/.test(t)) return 'fix';
  if (/\b(tests?|testing|coverage|untested|specs?)\b/.test(t)) return 'test';
  if (/\b(add|adds|adding|implement|implementing|support|feature|introduce|new)\b/.test(t)) return 'add';
  if (/^(how|why|what|where|which|explain)\b|\b(explain|understand|how does|where is)\b/.test(t)) return 'explain';
  return 'edit';
}

/** The task as a pre-filled argument: whole when short, else its head. */
function taskArg(task: string): string {
  const t = task.trim();
  if (t.length <= PLAN_TASK_CHARS) return t;
  const head = t.slice(0, PLAN_TASK_CHARS);
  const nl = head.lastIndexOf('\n');
  return nl > PLAN_TASK_CHARS / 2 ? head.slice(0, nl) : head;
}

/**
 * Ranked opening calls for a task: explore (unless the text names its target exactly), the files
 * and literals it names, then the reads its intent needs around the top hit (source, callers or
 * usages, tests), at most five, with arguments filled in.
 */
export function planTurn(reader: ContextReader, task: string): PlanTurnResult {
  const { cues } = extractCues(task);
  const frames = cues.filter((c) => c.kind === 'path' && c.line !== undefined);
  const paths = cues.filter((c) => c.kind === 'path' && c.line === undefined).map((c) => c.text.replace(/^\.\//, ''));
  const literals = cues.filter((c) => c.kind === 'literal').map((c) => c.text);
  const idents = cues.filter((c) => c.kind === 'identifier').map((c) => c.text);
  const intent = intentOf(task, frames.length > 0);
  const signals: string[] = [];
  if (frames.length > 0) signals.push(`stack trace (${frames.length} frame${frames.length === 1 ? '' : 's'})`);
  for (const p of paths.slice(0, 2)) signals.push(`path ${p}`);
  for (const i of idents.slice(0, 3)) signals.push(`identifier ${i}`);
  for (const l of literals.slice(0, 1)) signals.push(`literal "${l.length > 40 ? `${l.slice(0, 37)}…` : l}"`);

  const top = rankedForTask(reader, task, 1)[0]?.node;
  const steps: PlannedCall[] = [];
  // A rename of a named symbol needs no search; everything else starts from the ranked neighbourhood.
  if (!(intent === 'rename' && top && idents.length > 0)) steps.push({ tool: 'explore', args: { task: taskArg(task) }, why: 'rank the code the task is about' });
  for (const p of paths.slice(0, 1)) {
    if (reader.fileNode(p)) steps.push({ tool: 'get_file_summary', args: { path: p }, why: 'the file the task names' });
  }
  for (const l of literals.slice(0, 1)) steps.push({ tool: 'search_text', args: { query: l }, why: 'where the quoted text is in the code' });
  if (top) {
    const id = top.id;
    const read: PlannedCall = { tool: 'get_symbol_source', args: { id }, why: `read the top hit ${top.qual_name}` };
    const tests: PlannedCall = { tool: 'get_test_targets', args: { id }, why: 'tests to run after the change' };
    const callers: PlannedCall = { tool: 'get_callers', args: { id }, why: 'callers to keep working before editing' };
    switch (intent) {
      case 'rename':
        steps.push({ tool: 'find_usages', args: { id }, why: `every reference the rename of ${top.qual_name} must change` }, tests);
        break;
      case 'test':
        steps.push({ tool: 'get_test_targets', args: { id }, why: 'tests that already cover it' }, read, { tool: 'get_callers', args: { id }, why: 'how it is called (test inputs)' });
        break;
      case 'explain':
        steps.push(read, { tool: 'get_call_chain', args: { id }, why: 'what it calls' }, callers);
        break;
      default:
        steps.push(read, callers, tests);
    }
  } else {
    signals.push('no symbol matched');
  }
  const result: PlanTurnResult = {
    intent,
    signals,
    ...(top ? { top_hit: { id: top.id, qualified: top.qual_name, path: top.file_path, lines: lineRange(top) } } : {}),
    steps: steps.slice(0, PLAN_STEPS),
    tokens_used: 0,
  };
  return withTokens(result);
}
