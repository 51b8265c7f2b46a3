/** Opening the repository a query command works on: its snapshot, brought up to date first. */
import type { Engine, IndexReport } from '../engine/engine';

/** An engine holding one freshly refreshed repository. */
export interface OpenRepo {
  engine: Engine;
  /** The repository key (its name) to pass to engine queries. */
  repo: string;
  root: string;
  report: IndexReport;
}

/**
 * Loads the snapshot of the repo containing `pathArg` (default: the working directory), re-parses
 * what changed on disk since, and returns the engine. Progress goes to stderr on a terminal only,
 * so stdout stays clean for `--json`.
 */
export async function openRepo(pathArg: string | undefined): Promise<OpenRepo> {
  const { resolveRepoRoot } = await import('./repo-root');
  const root = resolveRepoRoot(pathArg);
  const { Engine } = await import('../engine/engine');
  const { ProgressLine } = await import('./progress-line');
  const engine = new Engine();
  const progress = process.stderr.isTTY ? new ProgressLine(process.stderr) : undefined;
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const report = await engine.indexRepo(root, {
      signal: controller.signal,
      ...(progress ? { onProgress: (event) => progress.update(event) } : {}),
    });
    return { engine, repo: report.repo, root, report };
  } finally {
    progress?.clear();
    process.off('SIGINT', onSigint);
  }
}
