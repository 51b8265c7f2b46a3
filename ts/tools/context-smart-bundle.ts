/**
 * `prefetch_context` (what the agent will likely read next, under a budget), `export_context`
 * (a self-contained markdown or JSON briefing to hand to another agent) and
 * `get_untested_symbols` (functions and methods no test reaches, riskiest first).
 */
import type { CoverageGapsResult, NodeSummary } from '../engine/engine';
import { ContextReader, estimateTokens, rowError, summaryOf, type RowError } from './context-common';
import { packRows, rankedForTask, resolveIds, symbolRow, withTokens, type PackCut, type SymbolRow } from './context-smart-pack';

/** Budget bounds of the bundle tools (tokens). */
export const BUNDLE_BUDGET = { min: 200, max: 24000, prefetch: 2000, export: 6000 } as const;
/** Explore rows a task-driven bundle carries. */
const TASK_SYMBOLS = 8;
/** Callers and callees taken per given id (prefetch) or named per symbol (export). */
const NEIGHBOURS = 8;

/** What `prefetch_context` returns. */
export interface PrefetchResult {
  symbols: SymbolRow[];
  token_budget: number;
  tokens_used: number;
  truncated: boolean;
  cut?: PackCut;
  /** Ids that did not resolve (unknown or ambiguous), one row each. */
  errors?: (RowError & { id?: string })[];
}

/** Direct callers and callees of a symbol, or an error row when the walk failed. */
function neighbours(reader: ContextReader, id: string, limit: number): { callers: NodeSummary[]; callees: NodeSummary[]; error?: RowError } {
  try {
    const callers = reader.callers(id, 1, limit).callers.map((c) => c.caller);
    const callees = reader
      .callees(id, limit)
      .nodes.filter((n) => n.depth === 1)
      .map((n) => n.node);
    return { callers, callees };
  } catch (error) {
    return { callers: [], callees: [], error: rowError(error) };
  }
}

/**
 * The symbols likely needed next. For ids: their callees with source (read next when editing)
 * and their callers with signatures (what must keep working). For a task: explore's top rows
 * with source. Packed under the budget (sources, then rows from the bottom).
 */
export function prefetch(reader: ContextReader, args: { task?: string; ids?: string[]; token_budget: number }): PrefetchResult {
  const rows: SymbolRow[] = [];
  const errors: (RowError & { id?: string })[] = [];
  if (args.task !== undefined) {
    for (const r of rankedForTask(reader, args.task, TASK_SYMBOLS)) rows.push(symbolRow(reader, r.node, `explore #${r.rank}`, true));
  } else {
    const { found, errors: bad } = resolveIds(reader, args.ids!);
    errors.push(...bad);
    const given = new Set(found.map((f) => f.id));
    const seen = new Set<string>();
    const callees: SymbolRow[] = [];
    const callers: SymbolRow[] = [];
    for (const s of found) {
      const n = neighbours(reader, s.id, NEIGHBOURS);
      if (n.error) errors.push({ id: s.id, ...n.error });
      for (const c of n.callees) {
        if (given.has(c.id) || seen.has(c.id) || c.external) continue;
        seen.add(c.id);
        callees.push(symbolRow(reader, c, `callee of ${s.qual_name}`, true));
      }
      for (const c of n.callers) {
        if (given.has(c.id) || seen.has(c.id)) continue;
        seen.add(c.id);
        callers.push(symbolRow(reader, c, `caller of ${s.qual_name}`, false));
      }
    }
    rows.push(...callees, ...callers);
  }
  const build = (cut?: PackCut): PrefetchResult => ({
    symbols: rows,
    token_budget: args.token_budget,
    tokens_used: 0,
    truncated: cut !== undefined,
    ...(cut ? { cut } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  });
  const cut = packRows(rows, args.token_budget, () => estimateTokens({ ...build({ sources: 0, rows: 0 }), tokens_used: 99999 }));
  return withTokens(build(cut.sources + cut.rows > 0 ? cut : undefined));
}

/** One symbol of an exported bundle. */
export interface ExportEntry extends SymbolRow {
  language?: string;
  /** Qualified names of direct callers (at most eight). */
  callers: string[];
  /** Qualified names of direct callees (at most eight). */
  callees: string[];
}

/** What `export_context` returns: the bundle (markdown text or JSON) and how it was packed. */
export interface ExportResult {
  format: 'markdown' | 'json';
  /** The markdown briefing (format `markdown`). */
  markdown?: string;
  /** The structured bundle (format `json`). */
  bundle?: { repo: string; task?: string; symbols: ExportEntry[] };
  symbols: number;
  token_budget: number;
  tokens_used: number;
  truncated: boolean;
  cut?: PackCut;
  errors?: (RowError & { id?: string })[];
}

/** The bundle as markdown: a heading per symbol with location, signature, relations and fenced source. */
function markdownOf(repo: string, task: string | undefined, entries: readonly ExportEntry[], cut: PackCut | undefined): string {
  const out: string[] = [`# Code context: ${repo}`, ''];
  if (task !== undefined) out.push('## Task', '', task.trim(), '');
  out.push(`## Symbols (${entries.length})`, '');
  entries.forEach((e, i) => {
    out.push(`### ${i + 1}. \`${e.qualified}\` (${e.kind})`, '', `- Location: \`${e.path}:${e.lines}\``);
    if (e.signature) out.push(`- Signature: \`${e.signature}\``);
    if (e.callers.length > 0) out.push(`- Called by: ${e.callers.map((c) => `\`${c}\``).join(', ')}`);
    if (e.callees.length > 0) out.push(`- Calls: ${e.callees.map((c) => `\`${c}\``).join(', ')}`);
    out.push('');
    if (e.source !== undefined) {
      // A fence longer than any backtick run in the source keeps the block closed.
      const longest = Math.max(2, ...(e.source.match(/`+/g) ?? []).map((m) => m.length));
      const fence = '`'.repeat(longest + 1);
      out.push(`${fence}${e.language ?? ''}`, e.source.replace(/\n$/, ''), fence, '');
    }
  });
  if (cut) out.push(`_Truncated to fit the budget: ${cut.sources} source bod${cut.sources === 1 ? 'y' : 'ies'} and ${cut.rows} symbol${cut.rows === 1 ? '' : 's'} left out._`, '');
  return out.join('\n');
}

/**
 * A self-contained briefing of symbols (given ids, or explore's top rows for a task): location,
 * signature, callers, callees and source, as markdown or JSON, packed under the budget.
 */
export function exportContext(reader: ContextReader, args: { ids?: string[]; task?: string; format: 'markdown' | 'json'; token_budget: number }): ExportResult {
  const errors: (RowError & { id?: string })[] = [];
  let nodes: { node: NodeSummary; reason: string }[];
  if (args.task !== undefined) {
    nodes = rankedForTask(reader, args.task, TASK_SYMBOLS).map((r) => ({ node: r.node, reason: `explore #${r.rank}` }));
  } else {
    const { found, errors: bad } = resolveIds(reader, args.ids!);
    errors.push(...bad);
    nodes = found.map((n) => ({ node: n, reason: 'requested' }));
  }
  const entries: ExportEntry[] = nodes.map(({ node, reason }) => {
    const n = neighbours(reader, node.id, NEIGHBOURS);
    if (n.error) errors.push({ id: node.id, ...n.error });
    return {
      ...symbolRow(reader, node, reason, true),
      ...(node.language ? { language: node.language } : {}),
      callers: n.callers.map((c) => c.qual_name),
      callees: n.callees.map((c) => c.qual_name),
    };
  });
  const repo = reader.repoName();
  const build = (cut?: PackCut): ExportResult => ({
    format: args.format,
    ...(args.format === 'markdown'
      ? { markdown: markdownOf(repo, args.task, entries, cut) }
      : { bundle: { repo, ...(args.task !== undefined ? { task: args.task } : {}), symbols: entries } }),
    symbols: entries.length,
    token_budget: args.token_budget,
    tokens_used: 0,
    truncated: cut !== undefined,
    ...(cut ? { cut } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  });
  const probe: PackCut = { sources: 99, rows: 99 };
  const cut = packRows(entries, args.token_budget, () => estimateTokens({ ...build(probe), tokens_used: 99999 }));
  return withTokens(build(cut.sources + cut.rows > 0 ? cut : undefined));
}

/** A function or method no test reaches. */
export interface UntestedRow {
  id: string;
  qualified: string;
  kind: string;
  path: string;
  line: number;
  /** Distinct direct callers (calls or instantiations), the risk measure rows are ranked by. */
  fan_in: number;
  exported: boolean;
  signature?: string;
}

/** What `get_untested_symbols` returns. */
export interface UntestedResult {
  symbols: UntestedRow[];
  /** Untested symbols found (before `limit`). */
  total: number;
  /** Functions and methods examined (non-test, matching the filters). */
  examined: number;
  truncated: boolean;
}

/**
 * `get_untested_symbols` rows from the engine's `analyze kind=coverage_gaps` (functions and methods
 * with no test caller within two hops and no test file depending on their file, riskiest first).
 */
export function untestedRows(r: CoverageGapsResult): UntestedResult {
  return {
    symbols: r.symbols.map((s) => ({
      id: s.id,
      qualified: s.qual_name,
      kind: s.kind,
      path: s.file_path,
      line: s.start_line,
      fan_in: s.fan_in,
      exported: s.exported === true,
      ...(s.signature ? { signature: s.signature } : {}),
    })),
    total: r.total,
    examined: r.examined,
    truncated: r.truncated,
  };
}
