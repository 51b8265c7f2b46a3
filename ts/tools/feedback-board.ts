/**
 * Agent feedback that feeds ranking: the `feedback` tool's ratings of symbol ids are kept per
 * repository in `<gortex home>/feedback/<repo>.json` (shared by every session and surviving
 * restarts), and `search_symbols` — directly, or inside `explore`, `smart_context` and the other
 * context tools — nudges those symbols up (useful) or down (not useful, wrong). The nudge is small
 * next to an exact name match, so feedback reorders close candidates and never buries the answer
 * to an exact query.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gortexHome } from '../support/home';
import { writeFileAtomic } from '../support/atomic-write';
import { withFileLock } from '../support/file-lock';

/** Ratings one symbol received. */
export interface Tally {
  useful: number;
  not_useful: number;
  wrong: number;
  /** Epoch ms of the latest rating. */
  last_at: number;
}

/** Score added per rating (each count capped at `MAX_COUNT`, so no symbol runs away). */
const WEIGHT = { useful: 1.5, not_useful: -1, wrong: -3 } as const;
const MAX_COUNT = 5;
/** Most symbols remembered per repository (the least recently rated are dropped). */
const MAX_IDS = 5000;

/** The score adjustment of one tally. */
export function feedbackDelta(t: Tally): number {
  return (
    WEIGHT.useful * Math.min(t.useful, MAX_COUNT) + WEIGHT.not_useful * Math.min(t.not_useful, MAX_COUNT) + WEIGHT.wrong * Math.min(t.wrong, MAX_COUNT)
  );
}

/** File of a repository's board (the name made safe for a file name). */
function boardFile(repo: string, home: string): string {
  return path.join(home, 'feedback', `${repo.replace(/[^\w.-]/g, '_')}.json`);
}

/**
 * Cache of boards by file, keyed by the file's identity (inode, size, mtime: every write is a
 * rename of a new file), so ranking never re-reads an unchanged file.
 */
const cache = new Map<string, { stamp: string; ids: Record<string, Tally> }>();

/** A board's tallies as a null-prototype record (ids such as `__proto__` are plain keys). */
function parseBoard(text: string): Record<string, Tally> {
  const ids = (JSON.parse(text) as { ids?: Record<string, Tally> }).ids;
  return Object.assign(Object.create(null) as Record<string, Tally>, ids && typeof ids === 'object' ? ids : {});
}

/** A repository's tallies by symbol id (empty when none were recorded). */
export function readBoard(repo: string, home = gortexHome()): Record<string, Tally> {
  const file = boardFile(repo, home);
  let stamp: string;
  try {
    const stat = fs.statSync(file);
    stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return Object.create(null) as Record<string, Tally>;
  }
  const hit = cache.get(file);
  if (hit && hit.stamp === stamp) return hit.ids;
  try {
    const ids = parseBoard(fs.readFileSync(file, 'utf8'));
    cache.set(file, { stamp, ids });
    return ids;
  } catch {
    // A damaged board ranks nothing; the next rating rewrites it.
    return Object.create(null) as Record<string, Tally>;
  }
}

/**
 * Records one rating of `ids`; returns their tallies after it. The board is read and written back
 * under its cross-process lock, so concurrent sessions (daemon, embedded servers, CLI) each keep
 * every rating they acknowledged.
 */
export function recordRating(repo: string, ids: readonly string[], rating: keyof typeof WEIGHT, home = gortexHome()): Record<string, Tally> {
  const file = boardFile(repo, home);
  return withFileLock(file, () => {
    let board: Record<string, Tally>;
    try {
      // Read afresh under the lock: the cache may predate another process's write.
      board = parseBoard(fs.readFileSync(file, 'utf8'));
    } catch {
      board = Object.create(null) as Record<string, Tally>;
    }
    const now = Date.now();
    const out: Record<string, Tally> = Object.create(null) as Record<string, Tally>;
    for (const id of new Set(ids)) {
      const t = { ...(board[id] ?? { useful: 0, not_useful: 0, wrong: 0, last_at: 0 }) };
      t[rating]++;
      t.last_at = now;
      board[id] = t;
      out[id] = t;
    }
    const kept = Object.entries(board)
      .sort((a, b) => b[1].last_at - a[1].last_at)
      .slice(0, MAX_IDS);
    writeFileAtomic(file, `${JSON.stringify({ repo, ids: Object.fromEntries(kept) })}\n`);
    cache.delete(file);
    return out;
  });
}

/**
 * Re-ranks a `search_symbols` answer by the repository's feedback: rows with ratings get their
 * score adjusted and a `feedback` tally, then rows are re-sorted by score (ties keep their order).
 * An answer without rated rows is returned unchanged.
 */
export function rerankByFeedback<T>(repo: string, answer: T): T {
  const result = answer as { results?: { id?: string; score?: number }[] } | null;
  if (result === null || typeof result !== 'object' || !Array.isArray(result.results)) return answer;
  const board = readBoard(repo);
  if (!result.results.some((r) => r.id !== undefined && board[r.id] !== undefined)) return answer;
  const rows = result.results.map((r, i) => {
    const t = r.id === undefined ? undefined : board[r.id];
    if (!t || typeof r.score !== 'number') return { row: r, i };
    const delta = feedbackDelta(t);
    return { row: { ...r, score: Math.round((r.score + delta) * 1000) / 1000, feedback: { useful: t.useful, not_useful: t.not_useful, wrong: t.wrong, delta } }, i };
  });
  rows.sort((a, b) => ((b.row.score ?? 0) - (a.row.score ?? 0)) || a.i - b.i);
  return { ...result, results: rows.map((r) => r.row) } as T;
}
