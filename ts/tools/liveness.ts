/**
 * The parts of `index_health` that ask the disk rather than the engine: whether the files the
 * graph claims still exist (`path_liveness`), whether every tracked repository's directory does
 * (`tracked_repo_paths_ok`), and the 0–100 `health_score` that rolls every finding up, with the
 * deductions that explain it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../workspace/context';

/** Most indexed files `path_liveness` stats; past it, an even sample of this many (`truncated`). */
export const LIVENESS_MAX_FILES = 20_000;

/** Whether the files the graph claims are still on disk. */
export interface PathLiveness {
  /** Files the graph holds. */
  indexed_files: number;
  /** Files stat-ed: all of them, or an even sample past `LIVENESS_MAX_FILES`. */
  checked: number;
  /** Checked files that no longer exist on disk. */
  orphan_files: number;
  /** orphan_files / checked. */
  orphan_rate: number;
  /** Orphans per repository name. */
  orphans_by_repo: Record<string, number>;
  /** The first orphans, repository-relative. */
  orphans: string[];
  /** Only a sample was checked. */
  truncated: boolean;
}

/**
 * Stats the indexed paths of repository `repo` under `root`. A deletion the watcher never saw
 * (the daemon was down, the directory was swapped) shows up here and nowhere else.
 */
export function pathLiveness(root: string, repo: string, files: readonly string[], maxItems: number): PathLiveness {
  const stride = Math.max(1, Math.ceil(files.length / LIVENESS_MAX_FILES));
  const orphans: string[] = [];
  let checked = 0;
  for (let i = 0; i < files.length; i += stride) {
    checked++;
    if (!isFile(path.join(root, files[i]!))) orphans.push(files[i]!);
  }
  return {
    indexed_files: files.length,
    checked,
    orphan_files: orphans.length,
    orphan_rate: checked === 0 ? 0 : Math.round((orphans.length / checked) * 10000) / 10000,
    orphans_by_repo: orphans.length > 0 ? { [repo]: orphans.length } : {},
    orphans: orphans.slice(0, maxItems),
    truncated: stride > 1,
  };
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Tracked repositories whose directory is gone: they keep their registration and silently drop out of workspace-wide answers. */
export function missingRepoPaths(ctx: Pick<ToolContext, 'root' | 'workspace'>): { name: string; root: string }[] {
  const repos = ctx.workspace?.repos() ?? [{ name: path.basename(ctx.root), root: ctx.root }];
  return repos.filter((r) => !isDirectory(r.root)).map((r) => ({ name: r.name, root: r.root }));
}

/** What `health_score` is computed from. */
export interface ScoreInputs {
  files: number;
  failures: number;
  /** Files changed since the snapshot. */
  changed: number;
  unresolvedShare: number;
  snapshotError: boolean;
  missingRepos: number;
  orphanFiles: number;
  /** The semantic-enrichment rollup (false when a pass is partial, abandoned or failed). */
  enrichmentOk: boolean;
}

/** One reason the score is below 100. */
export interface Deduction {
  reason: string;
  points: number;
}

/** Highest score an index with orphaned files can have: answers point at files that are gone. */
export const ORPHAN_SCORE_CAP = 60;

/**
 * 0–100: 100 less a deduction per finding (each bounded, so one bad axis cannot hide the others),
 * then capped at `ORPHAN_SCORE_CAP` when indexed files no longer exist; 0 with nothing indexed.
 */
export function healthScore(i: ScoreInputs): { score: number; deductions: Deduction[] } {
  if (i.files === 0) return { score: 0, deductions: [{ reason: 'no files indexed', points: 100 }] };
  const deductions: Deduction[] = [];
  const deduct = (reason: string, points: number) => {
    const p = Math.round(points);
    if (p > 0) deductions.push({ reason, points: p });
  };
  deduct(`${i.failures} parse failures`, Math.min(30, (300 * i.failures) / i.files));
  if (i.changed > 0) deduct(`${i.changed} files changed since the snapshot`, Math.min(15, 1 + i.changed));
  deduct(`${Math.round(i.unresolvedShare * 100)}% of references unresolved`, Math.min(20, Math.max(0, i.unresolvedShare - 0.5) * 100));
  if (i.snapshotError) deduct('snapshot unreadable', 5);
  deduct(`${i.missingRepos} tracked repositories missing on disk`, Math.min(40, 20 * i.missingRepos));
  if (!i.enrichmentOk) deduct('semantic enrichment incomplete', 10);
  let score = Math.max(0, 100 - deductions.reduce((sum, d) => sum + d.points, 0));
  if (i.orphanFiles > 0 && score > ORPHAN_SCORE_CAP) {
    deductions.push({ reason: `${i.orphanFiles} indexed files no longer on disk (capped at ${ORPHAN_SCORE_CAP})`, points: score - ORPHAN_SCORE_CAP });
    score = ORPHAN_SCORE_CAP;
  }
  return { score, deductions };
}
