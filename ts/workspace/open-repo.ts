/** Opening the repository a query command works on: its snapshot, brought up to date first. */
import type { Engine, IndexReport, IndexRepoOptions, ProgressEvent } from '../engine/engine';

/** An engine holding one freshly refreshed repository. */
export interface OpenRepo {
  engine: Engine;
  /** The repository key (its name) to pass to engine queries. */
  repo: string;
  root: string;
  report: IndexReport;
  /** The config-derived index options, for later refreshes of the same repository. */
  indexOptions: IndexRepoOptions;
}

/**
 * Loads the snapshot of the repo containing `pathArg` (default: the working directory), re-parses
 * what changed on disk since, and returns the engine. Progress goes to stderr on a terminal only,
 * so stdout stays clean for `--json`.
 */
export async function openRepo(
  pathArg: string | undefined,
  options: {
    onProgress?: (event: ProgressEvent) => void;
    /** Called with the engine before the index pass starts (to ask it for provisional answers meanwhile). */
    onEngine?: (engine: Engine, root: string) => void;
    /** The repository will be edited under a watcher: keep what makes its next pass fast (see `IndexRepoOptions`). */
    keepBuildCaches?: boolean;
  } = {},
): Promise<OpenRepo> {
  const { resolveRepoRoot } = await import('../support/repo-root');
  const root = resolveRepoRoot(pathArg);
  // A multi-file write killed midway is undone before anything reads the files.
  const { recoverInterruptedWrites } = await import('./writes');
  for (const r of recoverInterruptedWrites(root)) {
    process.stderr.write(
      `gortex: undid a write to ${root} interrupted midway: restored ${r.restored.join(', ') || 'nothing'}` +
        (r.left.length > 0 ? `; left ${r.left.join(', ')} (changed since)` : '') +
        '\n',
    );
  }
  const { Engine } = await import('../engine/engine');
  const { ProgressLine } = await import('../support/progress-line');
  const { gortexHome } = await import('../support/home');
  // The home as this process sees it (a test runner's process.env may not reach native getenv).
  const engine = new Engine({ home: gortexHome() });
  const indexOptions: IndexRepoOptions = {
    ...(await configIndexOptions(root, engine)),
    ...(options.keepBuildCaches ? { keepBuildCaches: true } : {}),
  };
  options.onEngine?.(engine, root);
  const progress = process.stderr.isTTY && !options.onProgress ? new ProgressLine(process.stderr) : undefined;
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const report = await engine.indexRepo(root, {
      ...indexOptions,
      signal: controller.signal,
      ...(progress || options.onProgress
        ? {
            onProgress: (event: ProgressEvent) => {
              progress?.update(event);
              options.onProgress?.(event);
            },
          }
        : {}),
    });
    return { engine, repo: report.repo, root, report, indexOptions };
  } finally {
    progress?.clear();
    process.off('SIGINT', onSigint);
  }
}

/**
 * The index options `.gortex.yaml` and the global config ask for (excludes, gitignore, size cap).
 * Config warnings go to stderr; a broken config is a usage error naming the file and line.
 */
export async function configIndexOptions(root: string, engine: Engine): Promise<IndexRepoOptions> {
  const { loadConfig, indexOptionsOf, ConfigError } = await import('../config/config');
  const { UsageError } = await import('../support/usage-error');
  try {
    const config = loadConfig(root);
    for (const warning of config.warnings) process.stderr.write(`gortex: config: ${warning}\n`);
    const bad = engine.checkExclude(root, config.index.exclude);
    if (bad !== undefined) throw new UsageError(`${config.files.join(', ')}: ${bad}`);
    return indexOptionsOf(config);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
