/**
 * An embedded session: the repository containing the working directory (or `--repo`) indexed in
 * this process, and kept current while the session runs by a recursive file watcher whose bursts
 * are debounced into one incremental refresh.
 */
import * as fs from 'node:fs';
import type { ToolContext } from '../tools/registry';

/** Quiet time after the last file event before the index is refreshed. */
const DEBOUNCE_MS = 250;
/** Directory names whose events never trigger a refresh (VCS internals, dependencies, builds). */
const IGNORED = /(^|[\\/])(\.git|node_modules|target|dist|build|\.gortex)([\\/]|$)/;

/** A repository held open for tool calls. */
export interface EmbeddedRepo {
  /** The current context; awaits a refresh that is under way so answers see the latest files. */
  context(): Promise<ToolContext>;
  /** Registers a listener called after each watcher-driven re-index that changed the graph. */
  onReindexed(listener: () => void): void;
  /** Stops watching. */
  close(): void;
}

/** Opens (indexes) the repository around `pathArg` and watches it when `watch` is set. */
export async function openEmbedded(
  pathArg: string | undefined,
  options: { watch: boolean; log?: (message: string) => void },
): Promise<EmbeddedRepo> {
  const { openRepo } = await import('../cli/open-repo');
  const { engine, root, indexOptions, report: opened } = await openRepo(pathArg);
  const ctx: ToolContext = { engine, repo: root, root, lastIndex: opened };
  const log = options.log ?? ((): void => {});
  let refreshing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  const listeners: (() => void)[] = [];

  const refresh = (): void => {
    timer = undefined;
    refreshing = refreshing.then(async () => {
      if (!dirty) return;
      dirty = false;
      try {
        const report = await engine.indexRepo(root, indexOptions);
        ctx.lastIndex = report;
        if (report.mode !== 'unchanged') {
          log(`re-indexed ${root}: ${report.files.parsed} files parsed`);
          for (const listener of listeners) {
            try {
              listener();
            } catch (error) {
              log(`a re-index listener failed: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
        }
      } catch (error) {
        log(`re-index of ${root} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  };

  let watcher: fs.FSWatcher | undefined;
  if (options.watch) {
    try {
      watcher = fs.watch(root, { recursive: true }, (_event, file) => {
        if (file && IGNORED.test(String(file))) return;
        dirty = true;
        if (timer) clearTimeout(timer);
        timer = setTimeout(refresh, DEBOUNCE_MS);
      });
      watcher.on('error', (error) => log(`file watching stopped: ${error.message}`));
    } catch (error) {
      log(`cannot watch ${root} (${error instanceof Error ? error.message : String(error)}); answers use the index as opened`);
    }
  }

  return {
    context: async () => {
      // A pending debounce means files changed moments ago: refresh now rather than answer stale.
      if (timer) {
        clearTimeout(timer);
        refresh();
      }
      await refreshing;
      return ctx;
    },
    onReindexed: (listener) => void listeners.push(listener),
    close: () => {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
