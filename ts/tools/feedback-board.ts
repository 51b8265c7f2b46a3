/**
 * Agent feedback that feeds ranking: the `feedback` tool's ratings of symbol ids are kept per
 * repository in the sidecar (`<gortex home>/sidecar.sqlite`, shared by every session and process
 * and surviving restarts), and `search_symbols` — directly, or inside `explore`, `smart_context`
 * and the other context tools — nudges those symbols up (useful) or down (not useful, wrong). The
 * nudge is small next to an exact name match, so feedback reorders close candidates and never
 * buries the answer to an exact query. Boards from before the sidecar (`<home>/feedback/<repo>.json`)
 * are imported once and renamed `.imported`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gortexHome } from '../support/home';
import { withFileLock } from '../support/file-lock';
import { sidecarAt, type FeedbackRating, type SymbolTally } from '../engine/sidecar';

export type { SymbolTally as Tally };

/** Score added per rating (each count capped at `MAX_COUNT`, so no symbol runs away). */
const WEIGHT = { useful: 1.5, not_useful: -1, wrong: -3 } as const;
const MAX_COUNT = 5;

/** The score adjustment of one tally. */
export function feedbackDelta(t: Pick<SymbolTally, 'useful' | 'not_useful' | 'wrong'>): number {
  return (
    WEIGHT.useful * Math.min(t.useful, MAX_COUNT) + WEIGHT.not_useful * Math.min(t.not_useful, MAX_COUNT) + WEIGHT.wrong * Math.min(t.wrong, MAX_COUNT)
  );
}

/** Repositories whose older JSON board this process has already looked for. */
const imported = new Set<string>();

/**
 * Moves a pre-sidecar JSON board of `repo` into the sidecar, once: under the board's lock, so two
 * processes starting together import it once, in one transaction; the file is renamed, never deleted.
 */
function importLegacyBoard(repo: string, home: string): void {
  const key = `${home}\0${repo}`;
  if (imported.has(key)) return;
  imported.add(key);
  const file = path.join(home, 'feedback', `${repo.replace(/[^\w.-]/g, '_')}.json`);
  if (!fs.existsSync(file)) return;
  withFileLock(file, () => {
    if (!fs.existsSync(file)) return;
    let ids: Record<string, { useful?: number; not_useful?: number; wrong?: number; last_at?: number }> = {};
    try {
      ids = (JSON.parse(fs.readFileSync(file, 'utf8')) as { ids?: typeof ids }).ids ?? {};
    } catch {
      // A damaged board has nothing to import; it is still renamed so it is not read again.
    }
    const rows: Parameters<ReturnType<typeof sidecarAt>['feedbackAddMany']>[0] = [];
    for (const [id, t] of Object.entries(ids)) {
      for (const rating of ['useful', 'not_useful', 'wrong'] as const) {
        for (let i = 0; i < Math.min(t[rating] ?? 0, MAX_COUNT); i++) rows.push({ repo, tool: 'imported', rating, ids: [id], ...(t.last_at ? { at: t.last_at } : {}) });
      }
    }
    // One transaction, then the rename: an interrupted import leaves nothing half counted.
    sidecarAt(home).feedbackAddMany(rows);
    fs.renameSync(file, `${file}.imported`);
  });
}

/**
 * A repository's tallies of `ids` (ids never rated are absent). A sidecar that cannot be read
 * ranks nothing: a search must not fail because its nudges are unavailable.
 */
export function readBoard(repo: string, ids: readonly string[], home = gortexHome()): Record<string, SymbolTally> {
  try {
    importLegacyBoard(repo, home);
    return sidecarAt(home).feedbackTallies(repo, [...new Set(ids)]);
  } catch {
    return {};
  }
}

/**
 * Records one rating of `ids` (none: the answer as a whole); returns the ids' tallies after it.
 * One SQLite transaction: concurrent sessions (daemon, embedded servers, CLI) each keep every
 * rating they acknowledged.
 */
export function recordRating(
  repo: string,
  ids: readonly string[],
  rating: FeedbackRating,
  extra: { tool: string; note?: string; session?: string },
  home = gortexHome(),
): Record<string, SymbolTally> {
  importLegacyBoard(repo, home);
  const store = sidecarAt(home);
  store.feedbackAdd({ repo, rating, ids: [...new Set(ids)], ...extra });
  return store.feedbackTallies(repo, [...new Set(ids)]);
}

/**
 * Re-ranks a `search_symbols` answer by the repository's feedback: rows with ratings get their
 * score adjusted and a `feedback` tally, then rows are re-sorted by score (ties keep their order).
 * An answer without rated rows is returned unchanged.
 */
export function rerankByFeedback<T>(repo: string, answer: T): T {
  const result = answer as { results?: { id?: string; score?: number }[] } | null;
  if (result === null || typeof result !== 'object' || !Array.isArray(result.results)) return answer;
  const ids = result.results.flatMap((r) => (typeof r.id === 'string' ? [r.id] : []));
  if (ids.length === 0) return answer;
  const board = readBoard(repo, ids);
  if (!ids.some((id) => board[id] !== undefined)) return answer;
  const rows = result.results.map((r, i) => {
    const t = r.id === undefined ? undefined : board[r.id];
    if (!t || typeof r.score !== 'number') return { row: r, i };
    const delta = feedbackDelta(t);
    return { row: { ...r, score: Math.round((r.score + delta) * 1000) / 1000, feedback: { useful: t.useful, not_useful: t.not_useful, wrong: t.wrong, delta } }, i };
  });
  rows.sort((a, b) => ((b.row.score ?? 0) - (a.row.score ?? 0)) || a.i - b.i);
  return { ...result, results: rows.map((r) => r.row) } as T;
}
