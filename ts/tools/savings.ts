/**
 * The token-savings ledger: every answer books the tokens it returned against the tokens a plain
 * read would have cost — reading whole each file the answer points into (its `path`/`file_path`
 * fields, at most `MAX_FILES` distinct files), never less than the answer itself, so an answer
 * that stands in for no read books no saving. Tokens are estimated at four bytes each, like every
 * budget here. The session's running totals live on its store; lifetime totals in the sidecar
 * (per day, repository and tool). `GORTEX_SAVINGS=off` stops the booking.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sidecarAt, type SavingsRow } from '../engine/sidecar';
import { repoNameOf } from './registry';
import type { ToolContext } from '../workspace/context';
import type { SessionStore } from '../workspace/session-store';

/** Bytes per estimated token. */
const BYTES_PER_TOKEN = 4;
/** Most distinct files an answer's baseline reads (a search listing fifty files is not fifty reads). */
const MAX_FILES = 20;
/** How deep the walk for file paths goes into an answer. */
const MAX_DEPTH = 6;

/** Whether booking is on (`GORTEX_SAVINGS=off|0|false` turns it off). */
export function savingsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(off|0|false|no)$/i.test(env.GORTEX_SAVINGS?.trim() ?? '');
}

/** Distinct repository-relative file paths an answer points into, in the order met. */
export function filesReferenced(value: unknown, limit = MAX_FILES): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (out.size >= limit || depth > MAX_DEPTH || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, depth + 1);
      return;
    }
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if ((k === 'path' || k === 'file_path') && typeof child === 'string' && child.length > 0 && !path.isAbsolute(child) && !child.includes('..')) {
        out.add(child);
        if (out.size >= limit) return;
      } else walk(child, depth + 1);
    }
  };
  walk(value, 0);
  return [...out];
}

/** Tokens of reading each file whole (files that cannot be read count nothing). */
function baselineTokens(root: string, files: readonly string[]): number {
  let bytes = 0;
  for (const f of files) {
    try {
      const stat = fs.statSync(path.join(root, f));
      if (stat.isFile()) bytes += stat.size;
    } catch {
      // A path that is not a file of this repository (a symbol path, a deleted file) is no read.
    }
  }
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** Today's UTC day, `YYYY-MM-DD`. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Books one answer: `tool` (the canonical tool for a compact operation) answered `result` as
 * `text` in `ctx`'s repository. Never throws: the ledger must not fail a call.
 */
export function bookSavings(ctx: ToolContext | undefined, tool: string, result: unknown, text: string, store: SessionStore | undefined): void {
  if (!ctx || !savingsEnabled()) return;
  try {
    const returned = Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
    const baseline = Math.max(returned, baselineTokens(ctx.root, filesReferenced(result)));
    if (store) {
      const row = store.savings.get(tool) ?? { calls: 0, returned_tokens: 0, baseline_tokens: 0 };
      row.calls += 1;
      row.returned_tokens += returned;
      row.baseline_tokens += baseline;
      store.savings.set(tool, row);
    }
    sidecarAt().savingsAdd([{ day: today(), repo: repoNameOf(ctx), tool, calls: 1, returned_tokens: returned, baseline_tokens: baseline }]);
  } catch {
    // A ledger that cannot be written (a read-only home, a locked file) loses a booking, not the answer.
  }
}

/** Totals with what they saved. */
export interface SavingsTotals {
  calls: number;
  returned_tokens: number;
  baseline_tokens: number;
  saved_tokens: number;
  /** saved / baseline (0 when nothing was booked). */
  saved_ratio: number;
}

/** `calls`, returned, baseline → the totals shape every report uses. */
export function totalsOf(rows: Iterable<Pick<SavingsRow, 'calls' | 'returned_tokens' | 'baseline_tokens'>>): SavingsTotals {
  let calls = 0;
  let returned = 0;
  let baseline = 0;
  for (const r of rows) {
    calls += r.calls;
    returned += r.returned_tokens;
    baseline += r.baseline_tokens;
  }
  const saved = Math.max(0, baseline - returned);
  return { calls, returned_tokens: returned, baseline_tokens: baseline, saved_tokens: saved, saved_ratio: baseline > 0 ? Math.round((saved / baseline) * 1000) / 1000 : 0 };
}

/** A session's savings: totals and the tools that saved most. */
export function sessionSavings(store: SessionStore | undefined): SavingsTotals & { by_tool: (SavingsTotals & { tool: string })[] } {
  const rows = [...(store?.savings.entries() ?? [])].map(([tool, r]) => ({ tool, ...totalsOf([r]) }));
  rows.sort((a, b) => b.saved_tokens - a.saved_tokens || a.tool.localeCompare(b.tool));
  return { ...totalsOf(store?.savings.values() ?? []), by_tool: rows };
}

/** The lifetime ledger's totals (every repository, every day), or undefined when it cannot be read. */
export function lifetimeSavings(): SavingsTotals | undefined {
  try {
    return totalsOf([sidecarAt().savingsReport().total]);
  } catch {
    return undefined;
  }
}
