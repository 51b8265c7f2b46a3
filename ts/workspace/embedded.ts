/**
 * An embedded session: the repository containing the working directory (or `--repo`) indexed in
 * this process, and kept current while the session runs by a recursive file watcher whose bursts
 * are debounced into one incremental refresh.
 */
import { enrichment, enrichmentEnabled } from '../lsp/enrich';
import { lspPool } from '../lsp/pool';
import { DEFAULT_EXCLUDED_DIRS, watchRepo, type Engine, type IndexReport, type ProgressEvent } from '../engine/engine';
import type { ToolContext } from './context';
import { isEditorTempFile } from './editor-temp';
import { ChangeLog, ScopeStore, scopesFile, singleRepoWorkspace, type Workspace } from './workspace';
import { gortexHome } from '../support/home';

/** Quiet time after the last file event before the index is refreshed. */
const DEBOUNCE_MS = 250;
/** Events within one quiet window that make it a storm (checkout, codegen): wait longer, refresh once. */
const STORM_EVENTS = 200;
const STORM_DEBOUNCE_MS = 1000;
/** Longest a stream of events may postpone a refresh. */
const MAX_DEFER_MS = 3000;
/** Directory names whose events never trigger a refresh: what the indexer skips, and gortex's own. */
const WATCH_IGNORED_DIRS: readonly string[] = [...DEFAULT_EXCLUDED_DIRS, '.gortex'];
/**
 * Quiet time the native watcher waits before handing a batch over. Short: it only saves crossings
 * into JavaScript (a save's events arrive within a millisecond), and a query waits for it; the
 * debounce above is what merges bursts into one pass.
 */
const WATCH_BATCH_MS = 10;
/**
 * Watcher passes skip the snapshot write (hundreds of ms on a large repository); it is written this
 * long after the last change, and on close. A snapshot missed by a crash is only stale, never
 * wrong: the next open re-parses what changed.
 */
const PERSIST_DELAY_MS = 30_000;
/**
 * A watched repository keeps the resolver's lookup tables for the next pass, from opening on
 * (≈ 30–60 MB on a large repository; building them is most of an edit's pass: 165–380 ms on
 * Kubernetes and TypeScript's tree). A repository this long without a re-index releases them;
 * the next pass makes them again.
 */
const RELEASE_DELAY_MS = 10 * 60_000;

/** One watcher-driven re-index that changed the graph. */
export interface RepoChange {
  /** The repository's root directory. */
  root: string;
  /** Repo-relative paths the watcher saw change (capped at 1,000; `files_truncated` says so). */
  files: string[];
  files_truncated: boolean;
  /** Node and edge totals before and after the pass. */
  nodes_before: number;
  nodes_after: number;
  edges_before: number;
  edges_after: number;
  /** What asked for the pass: `watcher`, `write`, `reindex`, `reconcile`, joined by `+` in order. */
  reason: string;
  /** The pass itself. */
  report: IndexReport;
  /** Epoch milliseconds when the pass finished. */
  timestamp: number;
}

/** Most changed paths one `RepoChange` lists. */
const MAX_CHANGE_FILES = 1000;

/** A repository held open for tool calls. */
export interface EmbeddedRepo {
  /** The current context; awaits a refresh that is under way so answers see the latest files. */
  context(): Promise<ToolContext>;
  /** Registers a listener called after each watcher-driven re-index that changed the graph; returns its removal. */
  onReindexed(listener: (change: RepoChange) => void): () => void;
  /** The context as it is now, without waiting for a refresh under way (for listings). */
  peek(): ToolContext;
  /** Re-scans the repository now (whatever the watcher saw) and returns the pass. */
  reindex(): Promise<IndexReport | undefined>;
  /** Watcher state, for status reports. */
  watchState(): WatchState;
  /** Stops watching. */
  close(): void;
}

/** What the watcher of an embedded repository is doing. */
export interface WatchState {
  watching: boolean;
  /** Why watching stopped or never started, when it did. */
  error?: string;
  /** Watcher-driven refreshes that changed the graph, and when the last one finished (epoch ms). */
  reindexes: number;
  last_reindex_at: number | null;
  /** Storms seen (bursts of STORM_EVENTS or more events) and reconciles run. */
  storms: number;
  reconciles: number;
}

/** Opens (indexes) the repository around `pathArg` and watches it when `watch` is set. */
export async function openEmbedded(
  pathArg: string | undefined,
  options: {
    watch: boolean;
    log?: (message: string) => void;
    onProgress?: (event: ProgressEvent) => void;
    /** Called with the engine before the opening pass starts (see `openRepo`). */
    onEngine?: (engine: Engine, root: string) => void;
    /** Re-scan the whole repository this often even without events (catches missed events); off by default. */
    reconcileMs?: number;
    /** Quiet time after which the tables kept for the next build are released (default 10 min). */
    releaseAfterMs?: number;
  },
): Promise<EmbeddedRepo> {
  const { openRepo } = await import('./open-repo');
  const { engine, root, indexOptions, report: opened } = await openRepo(pathArg, {
    keepBuildCaches: options.watch === true,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onEngine ? { onEngine: options.onEngine } : {}),
  });
  const ctx: ToolContext = { engine, repo: root, root, lastIndex: opened };
  // Language servers confirm and correct the call edges in the background, when asked for (`lsp.enrich`).
  const enrich = options.watch && enrichmentEnabled(root);
  if (enrich) void enrichment().schedule(root, engine, root);
  const log = options.log ?? ((): void => {});
  let refreshing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  const changed = new Set<string>();
  let changedTruncated = false;
  /** A reconcile or an explicit re-index asked for a pass that walks the whole tree. */
  let wholePass = false;
  /** What asked for the pending pass (reported with the change). */
  const reasons = new Set<string>();
  const listeners: ((change: RepoChange) => void)[] = [];
  const state: WatchState = { watching: false, reindexes: 0, last_reindex_at: null, storms: 0, reconciles: 0 };
  let burstEvents = 0;
  let burstStart = 0;

  const refresh = (): void => {
    timer = undefined;
    burstEvents = 0;
    refreshing = refreshing.then(async () => {
      if (!dirty) return;
      dirty = false;
      const files = [...changed].sort();
      const truncated = changedTruncated;
      const walk = wholePass || truncated || files.length === 0;
      const reason = [...reasons].join('+') || 'watcher';
      reasons.clear();
      changed.clear();
      changedTruncated = false;
      wholePass = false;
      const before = ctx.lastIndex;
      try {
        // The watcher's paths are re-read alone (no walk of the tree) unless the list is
        // incomplete (overflow, rescan, too many) or a reconcile asked for a whole pass.
        const report = await engine.indexRepo(root, {
          ...indexOptions,
          persist: false,
          ...(walk ? {} : { paths: files }),
        });
        ctx.lastIndex = report;
        // Language servers hold open documents: they follow the disk (all of them after a whole pass).
        lspPool().filesChanged(root, files, { all: walk });
        // The changed files' call sites are asked again (answers for their old content no longer apply).
        if (enrich && report.mode !== 'unchanged') void enrichment().schedule(root, engine, ctx.repo, walk ? undefined : files);
        if (report.mode !== 'unchanged') {
          // A pass that finishes after close writes its snapshot at once: no timer outlives the repository.
          if (isClosed) {
            unsaved = true;
            persistNow();
          } else schedulePersist();
          scheduleRelease();
          log(`re-indexed ${root}: ${report.files.parsed} files parsed`);
          state.reindexes++;
          state.last_reindex_at = Date.now();
          const change: RepoChange = {
            root,
            files,
            files_truncated: truncated,
            nodes_before: before?.nodes.total ?? 0,
            nodes_after: report.nodes.total,
            edges_before: before?.edges.total ?? 0,
            edges_after: report.edges.total,
            reason,
            report,
            timestamp: Date.now(),
          };
          for (const listener of listeners) {
            try {
              listener(change);
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

  let releaseTimer: NodeJS.Timeout | undefined;
  /** Restarts the quiet period after which the kept build tables are released. */
  const scheduleRelease = (): void => {
    if (releaseTimer) clearTimeout(releaseTimer);
    releaseTimer = setTimeout(() => {
      releaseTimer = undefined;
      try {
        engine.releaseBuildCaches(root);
      } catch (error) {
        log(`releasing the build caches of ${root} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, options.releaseAfterMs ?? RELEASE_DELAY_MS).unref();
  };
  scheduleRelease();

  let unsaved = false;
  let isClosed = false;
  let persistTimer: NodeJS.Timeout | undefined;
  const persistNow = (): void => {
    if (persistTimer) clearTimeout(persistTimer);
    persistTimer = undefined;
    if (!unsaved) return;
    unsaved = false;
    try {
      engine.persist(root);
    } catch (error) {
      log(`saving the snapshot of ${root} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const schedulePersist = (): void => {
    unsaved = true;
    if (persistTimer) clearTimeout(persistTimer);
    persistTimer = setTimeout(persistNow, PERSIST_DELAY_MS).unref();
  };

  /** Debounces `count` file events: quiet time, longer in a storm, never postponed past MAX_DEFER_MS. */
  const schedule = (count: number): void => {
    const now = Date.now();
    if (burstEvents === 0) burstStart = now;
    const wasStorm = burstEvents >= STORM_EVENTS;
    burstEvents += count;
    if (!wasStorm && burstEvents >= STORM_EVENTS) {
      state.storms++;
      log(`storm of file events in ${root}: waiting for it to settle`);
    }
    if (timer) clearTimeout(timer);
    const quiet = burstEvents >= STORM_EVENTS ? STORM_DEBOUNCE_MS : DEBOUNCE_MS;
    timer = setTimeout(refresh, Math.max(0, Math.min(quiet, burstStart + MAX_DEFER_MS - now)));
  };

  ctx.filesChanged = async (files) => {
    if (timer) clearTimeout(timer);
    dirty = true;
    reasons.add('write');
    for (const file of files) {
      if (changed.size < MAX_CHANGE_FILES) changed.add(file);
      else changedTruncated = true;
    }
    refresh();
    await refreshing;
  };

  let watcher: { close(): void } | undefined;
  if (options.watch) {
    try {
      // The OS watcher runs in a native thread and hands over batches of changed paths: Node's
      // recursive fs.watch on Linux keeps a JavaScript watcher per file and stalls the event loop
      // on bulk changes.
      watcher = watchRepo(root, WATCH_IGNORED_DIRS, WATCH_BATCH_MS, (batch) => {
        for (const message of batch.errors) {
          state.error = message;
          log(`file watcher: ${message}`);
        }
        // An editor's temporaries (swap files, sed -i work files, backups) are not changes.
        const paths = batch.paths.filter((file) => !isEditorTempFile(file));
        if (paths.length === 0 && !batch.overflow && !batch.rescan) return;
        dirty = true;
        reasons.add('watcher');
        for (const file of paths) {
          if (changed.size < MAX_CHANGE_FILES) changed.add(file);
          else changedTruncated = true;
        }
        if (batch.overflow || batch.rescan) changedTruncated = true;
        schedule(Math.max(1, paths.length));
      });
      state.watching = true;
    } catch (error) {
      state.error = error instanceof Error ? error.message : String(error);
      log(`cannot watch ${root} (${state.error}); answers use the index as opened`);
    }
  }
  // A periodic full re-scan catches what the watcher missed (overflowed queues, network mounts).
  const reconciler =
    options.watch && options.reconcileMs !== undefined && options.reconcileMs > 0
      ? setInterval(() => {
          state.reconciles++;
          dirty = true;
          reasons.add('reconcile');
          wholePass = true;
          if (!timer) refresh();
        }, options.reconcileMs).unref()
      : undefined;

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
    onReindexed: (listener) => {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },
    peek: () => ctx,
    reindex: async () => {
      if (timer) clearTimeout(timer);
      dirty = true;
      reasons.add('reindex');
      wholePass = true;
      refresh();
      await refreshing;
      return ctx.lastIndex;
    },
    watchState: () => ({ ...state }),
    close: () => {
      isClosed = true;
      if (timer) clearTimeout(timer);
      if (releaseTimer) clearTimeout(releaseTimer);
      persistNow();
      if (reconciler) clearInterval(reconciler);
      state.watching = false;
      watcher?.close();
      // Its language servers go with it (the daemon's shutdown waits for them: `LspPool.shutdown`).
      enrichment().stop(root);
      void lspPool().stop(root);
    },
  };
}

/** The one-repository workspace of an embedded session: scopes in the gortex home, changes from its watcher. */
export function embeddedWorkspace(repo: EmbeddedRepo): Workspace {
  const changes = new ChangeLog();
  repo.onReindexed((change) => changes.add(change.report.repo, change.files, change.timestamp));
  // A re-index goes through the repository's own queue, with the options it was opened with (config excludes included).
  return singleRepoWorkspace(() => repo.context(), () => repo.peek(), { scopes: new ScopeStore(scopesFile(gortexHome())), changes, reindex: () => repo.reindex() });
}
