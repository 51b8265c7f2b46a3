/**
 * Shared pieces of the task-aware context tools (`context-smart.ts`): one symbol row with its
 * source, budget packing by cutting bodies then rows, and payload etags.
 */
import { createHash } from 'node:crypto';
import type { NodeSummary } from '../engine/engine';
import { ContextReader, estimateTokens, lineRange, rowError, type RowError } from './context-common';
import { explore, EXPLORE_BUDGET } from './context-explore';
import { ToolInputError } from './registry';

/** Largest source slice read for one symbol before packing (packing cuts further). */
const MAX_SYMBOL_BYTES = 64 * 1024;

/** A symbol as the bundle tools carry it: location, signature and (while the budget allows) source. */
export interface SymbolRow {
  id: string;
  qualified: string;
  kind: string;
  path: string;
  /** `start-end` (1-based, inclusive). */
  lines: string;
  signature?: string;
  /** Why it is in the bundle (`explore #1`, `callee of render.summarize`, …). */
  reason: string;
  source?: string;
}

/** A row for a symbol summary, with its source when it has one in the repository. */
export function symbolRow(reader: ContextReader, n: NodeSummary, reason: string, withSource: boolean): SymbolRow {
  const row: SymbolRow = {
    id: n.id,
    qualified: n.qual_name,
    kind: n.kind,
    path: n.file_path,
    lines: lineRange(n),
    ...(n.signature ? { signature: n.signature } : {}),
    reason,
  };
  if (withSource) {
    const src = reader.symbolSource(n, MAX_SYMBOL_BYTES);
    if (src) row.source = src.text;
  }
  return row;
}

/** What packing removed to fit the budget. */
export interface PackCut {
  /** Rows that lost their source (signature kept). */
  sources: number;
  /** Rows dropped whole, from the bottom of the ranking. */
  rows: number;
}

/**
 * Fits `rows` under `budget` tokens as measured by `size` (the whole answer as sent): sources go
 * first, lowest-ranked first, then rows from the bottom, never the first row. Mutates `rows`.
 */
export function packRows(rows: SymbolRow[], budget: number, size: () => number): PackCut {
  const cut: PackCut = { sources: 0, rows: 0 };
  for (let i = rows.length - 1; i >= 0 && size() > budget; i--) {
    if (rows[i]!.source === undefined) continue;
    delete rows[i]!.source;
    cut.sources++;
  }
  while (rows.length > 1 && size() > budget) {
    rows.pop();
    cut.rows++;
  }
  return cut;
}

/** sha256 of a payload's compact JSON, first 16 hex digits: equal payloads, equal tags. */
export function etagOf(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload) ?? '', 'utf8').digest('hex').slice(0, 16);
}

/** Sets `tokens_used` to the estimated size of the answer that carries it. */
export function withTokens<T extends { tokens_used: number }>(result: T): T {
  result.tokens_used = estimateTokens(result);
  // Twice: the count's own digits are part of what it counts.
  result.tokens_used = estimateTokens(result);
  return result;
}

/** Refuses blank task text (whitespace only), which no ranking can use. */
export function requireTask(tool: string, task: string): string {
  if (task.trim() === '') throw new ToolInputError('invalid_argument', `${tool}: task must not be blank; describe the task or paste the bug report`);
  return task;
}

/** Explore's top `n` symbols for a task (summaries, ranked), with why each ranked. */
export function rankedForTask(reader: ContextReader, task: string, n: number): { node: NodeSummary; rank: number; why: string[] }[] {
  // The widest explore budget: only the ranking is used here, the caller packs its own answer.
  const r = explore(reader, { task, token_budget: EXPLORE_BUDGET.max, max_symbols: n });
  return r.results.map((row) => ({ node: reader.symbol(row.id).node, rank: row.rank, why: row.why }));
}

/** Resolves ids to symbols; an unknown or ambiguous id becomes an error row instead of failing the call. */
export function resolveIds(reader: ContextReader, ids: readonly string[]): { found: NodeSummary[]; errors: (RowError & { id: string })[] } {
  const found: NodeSummary[] = [];
  const errors: (RowError & { id: string })[] = [];
  for (const id of ids) {
    try {
      const s = reader.symbol(id).node;
      if (!found.some((f) => f.id === s.id)) found.push(s);
    } catch (error) {
      errors.push({ id, ...rowError(error) });
    }
  }
  return { found, errors };
}

/** Refuses argument pairs where not exactly one of `ids` and `task` was given. */
export function oneOfIdsOrTask(tool: string, args: { ids?: readonly string[]; task?: string }): void {
  if ((args.ids === undefined) === (args.task === undefined)) {
    throw new ToolInputError('invalid_argument', `${tool}: pass exactly one of ids (symbols) or task (free text)`);
  }
  if (args.task !== undefined) requireTask(tool, args.task);
}
