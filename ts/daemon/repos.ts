/**
 * The repositories a daemon serves: each opened in-process (snapshot first, so a restart is warm),
 * watched, and listed in `<home>/daemon-repos.json` so the next daemon serves them again.
 *
 * Warm-up: a tracked repository walks `queued → snapshot_loaded → parse → resolve →
 * watcher_started → ready` (or `failed`); the handshake ack and `status` report it (with
 * progress). A tool call waits up to `GORTEX_WARMING_GRACE_MS` (2 s) for `ready`; then it is
 * answered from a **provisional index** with an in-band `warming` block (first key of the answer:
 * phase, `files_indexed` of `files_total`, a note).
 *
 * The opening pass (napi `indexRepo` when the engine holds no index of the repository) feeds every
 * file it reads into a `ParseSink` (`gortex-index/src/warmup.rs`); napi `provisional(root)`
 * (`native/src/warmup.rs`) builds a `RepoIndex` from the sink on one thread and registers it under
 * the repository's key, where the pass's complete index replaces it (a failed pass withdraws it).
 * Only that first build is waited for: later calls are served the last build at once while a
 * fresher one is built off every lock in the background and swapped in — when the files read have
 * doubled or half of the missing ones arrived, at most every 2 s, never once parsing is done
 * (parsing is largest-first: most files arrive early, the giants last). A provisional index is
 * never saved.
 *
 * Analyses (`category: analysis`) and tools that change anything wait for the complete graph
 * instead (`answersWhileWarming`, applied in `ts/calls/dispatch.ts`); the facade routes, so the
 * tool it calls decides. With nothing to answer from (queued, walking, resolving with no
 * provisional index) a call waits up to `GORTEX_WARMING_WAIT_MS` (20 s) in all, then is refused
 * with `warming` (phase, progress, elapsed) so the agent retries rather than hangs.
 *
 * Progress: an MCP `tools/call` with `_meta.progressToken` gets a `ProgressReporter`
 * (`progressNotifier` in `ts/mcp/server.ts`), which the pipeline hands to the caller's context
 * (`ResourceHost.context`, here `TrackedRepo.context`) and so to `ToolContext.progress`; every wait
 * on a warming repository reports through it as `notifications/progress` (percent of the warm-up,
 * phase and counts). Streamable HTTP delivers those in order on the request's own SSE stream
 * (`ts/http/streamable.ts`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Engine, IndexReport } from '../engine/engine';
import type { EmbeddedRepo, RepoChange, WatchState } from '../workspace/embedded';
import type { ResourceHost } from '../mcp/resources';
import type { ProgressReporter, ToolContext, WarmingBlock } from '../workspace/context';
import type { WarmupPhase } from './protocol';
import { Listeners, type PushSources, type ReadinessEvent } from '../workspace/channels';
import { graphEventOf } from '../workspace/push-sources';
import { writeFileAtomic } from '../support/atomic-write';
import { withFileLock } from '../support/file-lock';
import { loadConfig, type AllowedRoots } from '../config/config';
import { UsageError } from '../support/usage-error';

/** One entry of the persisted list. */
export interface TrackedEntry {
  root: string;
  name: string;
  project?: string;
}

/** A tracked repository as status reports show it. */
export interface TrackedInfo extends TrackedEntry {
  phase: WarmupPhase;
  error?: string;
  /** While warming: `done` of `total` units of the current phase, when known. */
  progress: { done: number; total: number } | null;
  /** While warming: the provisional index calls were last answered from, if one was built. */
  partial: { files: number; total: number; indexed_at_ms: number } | null;
  tracked_at: string;
  /** Milliseconds from tracking to ready (null while warming). */
  warmup_ms: number | null;
  files: number | null;
  nodes: number | null;
  edges: number | null;
  /** When the graph last changed (the open or a watcher refresh), epoch ms. */
  indexed_at_ms: number | null;
  watch: WatchState | null;
  /** The pass that opened it: `unchanged`/`incremental` from a snapshot means a warm start. */
  opened: { mode: string; snapshot_loaded: boolean; files_parsed: number; wall_ms: number } | null;
}

/** A tracked repository: its entry, its warm-up, and once open the embedded repository. */
export class TrackedRepo implements ResourceHost {
  private currentPhase: WarmupPhase = 'queued';
  private phaseAt = Date.now();
  /** Hears each phase the repository enters (`notifications/workspace_readiness`). */
  readonly phases = new Listeners<ReadinessEvent>();
  error: string | undefined;
  readonly trackedAt = Date.now();
  readyAt: number | undefined;
  repo: EmbeddedRepo | undefined;
  /** The context without waiting (set once open), for status counts. */
  syncContext: ToolContext | undefined;
  /** The index pass that opened the repository. */
  openReport: IndexReport | undefined;
  /** The engine opening the repository, from before its first pass starts (for provisional answers). */
  engine: Engine | undefined;
  /** The provisional index calls were last answered from while warming. */
  partial: { files: number; total: number; indexed_at_ms: number } | undefined;
  /** Settles when the repository is open (or failed to open). */
  readonly ready: Promise<EmbeddedRepo>;
  private readonly listeners = new Set<(change: RepoChange) => void>();

  constructor(
    readonly entry: TrackedEntry,
    open: (tracked: TrackedRepo) => Promise<EmbeddedRepo>,
  ) {
    this.ready = open(this).then(
      (repo) => {
        this.repo = repo;
        this.phase = 'ready';
        this.readyAt = Date.now();
        repo.onReindexed((change) => {
          for (const listener of this.listeners) listener(change);
        });
        return repo;
      },
      (error: unknown) => {
        this.error = this.abortReason ?? (error instanceof Error ? error.message : String(error));
        if (this.abortReason !== undefined) this.forgetIndex();
        this.phase = 'failed';
        throw error;
      },
    );
    // A failed open is reported through status and to callers of context(); never unhandled.
    this.ready.catch(() => undefined);
  }

  /** Why the opening pass was stopped (`abort`), reported as the repository's error. */
  private abortReason: string | undefined;

  /**
   * Stops the opening pass under way (the daemon's memory ceiling); the repository is then
   * reported failed with `reason`. False when there is no pass to stop.
   */
  abort(reason: string): boolean {
    if (!this.warming || this.phase === 'watcher_started' || this.abortReason !== undefined) return false;
    this.abortReason = reason;
    this.engine?.cancel();
    return true;
  }

  /** Frees the index a stopped opening built (the engine would hold it until collected). */
  forgetIndex(): void {
    try {
      this.engine?.forget(this.entry.root);
    } catch {
      // Nothing loaded, or the engine already gone.
    }
    this.engine = undefined;
  }

  /** Whether the opening was stopped (`abort`). */
  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  /** Throws the reason the opening was stopped for, if it was (checked between its steps). */
  throwIfAborted(): void {
    if (this.abortReason !== undefined) throw new Error(this.abortReason);
  }

  /** The warm-up phase. */
  get phase(): WarmupPhase {
    return this.currentPhase;
  }

  set phase(phase: WarmupPhase) {
    if (phase === this.currentPhase) return;
    this.currentPhase = phase;
    this.phaseAt = Date.now();
    this.phases.emit(this.readiness());
  }

  /** The phase as a readiness event (the last one, replayed to new subscribers). */
  readiness(): ReadinessEvent {
    return {
      repo: this.entry.name,
      root: this.entry.root,
      phase: this.currentPhase,
      ...(this.warming && this.progress ? { progress: { ...this.progress } } : {}),
      ...(this.error ? { error: this.error } : {}),
      ts: this.phaseAt,
    };
  }

  /** Whether the repository is still warming up. */
  get warming(): boolean {
    return this.phase !== 'ready' && this.phase !== 'failed';
  }

  /** Progress of the current warm-up phase (`done` of `total` units), when known. */
  progress: { done: number; total: number } | undefined;

  /**
   * The tool context. While the repository warms up, a call waits up to `GORTEX_WARMING_GRACE_MS`
   * (default 2 s) for it; then it is answered from a provisional index of the files read so far,
   * its context carrying the `warming` block every answer shows. With nothing to answer from yet
   * (queued, walking, or resolving with no provisional index) it keeps waiting, up to
   * `GORTEX_WARMING_WAIT_MS` (default 20 s) in all, then is refused with `warming` (phase and
   * progress) so an agent retries instead of hanging on a cold index. Every wait is reported to
   * `progress` (MCP `notifications/progress` when the caller asked).
   */
  async context(options: { progress?: ProgressReporter } = {}): Promise<ToolContext> {
    if (!this.warming) return (await this.ready).context();
    const { progress } = options;
    const started = Date.now();
    const deadline = started + warmingWaitMs();
    await this.readyWithin(Math.min(warmingGraceMs(), deadline - started), progress);
    while (this.warming) {
      const partial = await this.provisionalContext(deadline);
      if (partial) return partial;
      const left = deadline - Date.now();
      if (left <= 0) throw await this.refusal();
      await this.readyWithin(Math.min(left, 250), progress);
    }
    return (await this.ready).context();
  }

  /**
   * Waits up to `ms` for the repository to finish warming (either way); true when it has. The wait
   * is reported to `progress` when it starts, every half second, and at its end — also when the
   * repository became ready before it began (a caller that heard the warm-up hears it end).
   */
  private async readyWithin(ms: number, progress?: ProgressReporter): Promise<boolean> {
    const report = (): void => {
      if (progress) this.reportWarmup(progress);
    };
    if (this.warming && ms > 0) {
      report();
      const ticker = progress ? setInterval(report, PROGRESS_INTERVAL_MS) : undefined;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
      await Promise.race([this.ready.then(() => undefined, () => undefined), timedOut]);
      clearTimeout(timer);
      if (ticker) clearInterval(ticker);
    }
    report();
    return !this.warming;
  }

  /** Reports the warm-up as a percentage: walk 0–2, parse 2–90, resolve 90–99, ready 100. */
  private reportWarmup(progress: ProgressReporter): void {
    const share = this.progress && this.progress.total > 0 ? Math.min(1, this.progress.done / this.progress.total) : 0;
    const at: Record<WarmupPhase, number> = {
      queued: 0,
      snapshot_loaded: 1,
      parse: 2 + 88 * share,
      resolve: 90 + 9 * share,
      watcher_started: 99,
      ready: 100,
      failed: 100,
    };
    const counts = (this.phase === 'parse' || this.phase === 'resolve') && this.progress && this.progress.total > 0 ? ` ${this.progress.done}/${this.progress.total}` : '';
    progress(Math.round(at[this.phase] * 10) / 10, 100, `indexing ${this.entry.name}: ${this.phase}${counts}`);
  }

  /** The `warming` refusal: phase, progress and time so far. */
  private async refusal(): Promise<Error> {
    const { ToolCallError } = await import('../calls/dispatch');
    const progress = this.progress && this.progress.total > 0 ? `: ${this.progress.done} of ${this.progress.total}` : '';
    const seconds = Math.round((Date.now() - this.trackedAt) / 1000);
    return new ToolCallError(
      'warming',
      `repository "${this.entry.name}" is still being indexed (phase ${this.phase}${progress}, ${seconds} s so far); answers start when it is ready — retry in a few seconds`,
    );
  }

  /** A context on the provisional index of what the opening pass has read, when there is one. */
  private async provisionalContext(deadline: number): Promise<ToolContext | undefined> {
    const engine = this.engine;
    if (!engine) return undefined;
    let status;
    try {
      status = await engine.provisional(this.entry.root);
    } catch {
      return undefined;
    }
    if (!status.available || !this.warming) return undefined;
    this.partial = { files: status.files, total: status.total, indexed_at_ms: status.indexed_at_ms };
    const block: WarmingBlock = {
      repo: this.entry.name,
      phase: this.phase,
      partial: true,
      files_indexed: status.files,
      files_total: status.total,
      indexed_at_ms: status.indexed_at_ms,
      note:
        `repository "${this.entry.name}" is still being indexed: this answer covers ${status.files} of the ${status.total} files found so far, ` +
        'and references into files not indexed yet are missing or unresolved; repeat the call once it is ready for the complete answer',
    };
    const complete = async (progress?: ProgressReporter): Promise<ToolContext> => {
      if (!(await this.readyWithin(deadline - Date.now(), progress))) throw await this.refusal();
      return (await this.ready).context();
    };
    return { engine, repo: this.entry.root, root: this.entry.root, warming: { block, complete } };
  }

  /** Listens for watcher-driven re-indexes; returns the removal. */
  onReindexed(listener: (change: RepoChange) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Status row. */
  info(): TrackedInfo {
    const last = this.repo ? this.lastIndex() : undefined;
    return {
      ...this.entry,
      phase: this.phase,
      ...(this.error ? { error: this.error } : {}),
      progress: this.warming ? (this.progress ?? null) : null,
      partial: this.warming ? (this.partial ?? null) : null,
      tracked_at: new Date(this.trackedAt).toISOString(),
      warmup_ms: this.readyAt === undefined ? null : this.readyAt - this.trackedAt,
      files: last?.files ?? null,
      nodes: last?.nodes ?? null,
      edges: last?.edges ?? null,
      indexed_at_ms: last?.indexed_at_ms ?? null,
      watch: this.repo ? this.repo.watchState() : null,
      opened: this.openReport
        ? { mode: this.openReport.mode, snapshot_loaded: this.openReport.snapshot.loaded, files_parsed: this.openReport.files.parsed, wall_ms: this.openReport.wall_ms }
        : null,
    };
  }

  private lastIndex(): { files: number; nodes: number; edges: number; indexed_at_ms: number | null } | undefined {
    const summary = this.syncContext?.engine.repos().find((r) => r.root === this.entry.root);
    return summary ? { files: summary.files, nodes: summary.nodes, edges: summary.edges, indexed_at_ms: summary.indexed_at_ms } : undefined;
  }
}

/** How often a waiting call hears how the warm-up goes. */
const PROGRESS_INTERVAL_MS = 500;

/** How long a call with nothing to answer from waits for a warming repository (`GORTEX_WARMING_WAIT_MS`, default 20 s). */
function warmingWaitMs(): number {
  return envMs('GORTEX_WARMING_WAIT_MS', 20_000);
}

/** How long a call waits for a warming repository before answering from what is indexed so far (`GORTEX_WARMING_GRACE_MS`, default 2 s). */
function warmingGraceMs(): number {
  return envMs('GORTEX_WARMING_GRACE_MS', 2_000);
}

function envMs(name: string, fallback: number): number {
  const raw = process.env[name];
  const ms = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(ms) && ms >= 0 ? ms : fallback;
}

/** The slow-open test hook (`GORTEX_TEST_HOOKS=1`, `GORTEX_TEST_SLOW_OPEN=ms`), off otherwise. */
function testOpenDelay(): number {
  if (process.env.GORTEX_TEST_HOOKS !== '1') return 0;
  return Number(process.env.GORTEX_TEST_SLOW_OPEN) || 0;
}

/** A path, name or prefix that matched no tracked repository. */
export class NotTrackedError extends Error {
  override name = 'NotTrackedError';
}

/** A track request that conflicts with what is tracked (a name already in use). */
export class TrackConflictError extends Error {
  override name = 'TrackConflictError';
}

/**
 * `daemon.allowed_roots` of the global config as it reads now (undefined: no restriction). A
 * config that cannot be read refuses, rather than allowing what it might forbid.
 */
export function configuredAllowedRoots(env: NodeJS.ProcessEnv = process.env): AllowedRoots | undefined {
  try {
    return loadConfig(undefined, env).allowedRoots;
  } catch (error) {
    throw new UsageError(`cannot tell which folders may be tracked (daemon.allowed_roots): ${(error as Error).message}`);
  }
}

/** The real path of `dir`, or undefined when it does not exist. */
function realPathOf(dir: string): string | undefined {
  try {
    return fs.realpathSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * Refuses (`UsageError`) a repository root outside `allowed`. Both sides are compared as real
 * paths, so a symlink into an allowed folder is judged by where it leads.
 */
export function checkAllowedRoot(root: string, allowed: AllowedRoots | undefined): void {
  if (allowed === undefined) return;
  const real = realPathOf(root) ?? path.resolve(root);
  const inside = allowed.dirs.some((dir) => {
    const base = realPathOf(dir);
    if (base === undefined) return false;
    return real === base || real.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  });
  if (inside) return;
  throw new UsageError(
    `the repository root ${real} is outside daemon.allowed_roots (${allowed.dirs.join(', ')}; ${allowed.source}): ` +
      'track a repository under one of those folders, or add its folder to daemon.allowed_roots in the global config',
  );
}

/** The set of tracked repositories of one daemon. */
export class RepoSet {
  private readonly repos = new Map<string, TrackedRepo>();
  /** Every root this daemon has served: its entries in the persisted list are this daemon's to write. */
  private readonly served = new Set<string>();
  private readonly changeListeners = new Set<(tracked: TrackedRepo, change: RepoChange) => void>();
  private readonly readinessListeners = new Listeners<ReadinessEvent>();

  constructor(
    private readonly listFile: string,
    private readonly options: {
      log: (message: string) => void;
      reconcileMs?: number;
      /** `daemon.allowed_roots` as it reads now (default: the global config's, re-read at each track). */
      allowedRoots?: () => AllowedRoots | undefined;
      /** Refuses (throws) a repository that does not fit under the daemon's memory ceiling. */
      admit?: (root: string, name: string) => Promise<void>;
    },
  ) {}

  /** The folders repositories may be tracked in now (undefined: anywhere). */
  private allowedRoots(): AllowedRoots | undefined {
    return (this.options.allowedRoots ?? configuredAllowedRoots)();
  }

  /** The persisted list (empty when there is none or it cannot be read; a broken file is logged). */
  static readList(listFile: string, log?: (message: string) => void): TrackedEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(listFile, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = JSON.parse(text) as { repos?: TrackedEntry[] };
      return (parsed.repos ?? []).filter((e) => typeof e.root === 'string' && typeof e.name === 'string');
    } catch (error) {
      log?.(`${listFile} is not valid JSON (${(error as Error).message}); starting with no tracked repositories`);
      return [];
    }
  }

  /** Writes `entries` as the persisted list (atomically: temp file + rename). */
  static writeList(listFile: string, entries: TrackedEntry[]): void {
    writeFileAtomic(listFile, `${JSON.stringify({ repos: entries }, null, 2)}\n`);
  }

  /**
   * Reads the persisted list, changes it and writes it back under the list's cross-process lock,
   * so a daemon and `gortex track`/`untrack` run meanwhile (no daemon answering) keep each
   * other's entries. `change` returns the new list (returned), or undefined to leave the file as it is.
   */
  static updateList(
    listFile: string,
    change: (entries: TrackedEntry[]) => TrackedEntry[] | undefined,
    log?: (message: string) => void,
  ): TrackedEntry[] | undefined {
    return withFileLock(listFile, () => {
      const next = change(RepoSet.readList(listFile, log));
      if (next !== undefined) RepoSet.writeList(listFile, next);
      return next;
    });
  }

  /**
   * Tracks every repository of the persisted list (their snapshots make this warm), except those
   * outside `daemon.allowed_roots` (logged, not served).
   */
  async restore(): Promise<void> {
    const entries = RepoSet.readList(this.listFile, this.options.log);
    let allowed: AllowedRoots | undefined;
    try {
      allowed = entries.length > 0 ? this.allowedRoots() : undefined;
    } catch (error) {
      this.options.log(`${(error as Error).message}; serving none of the ${entries.length} recorded repositories`);
      return;
    }
    for (const entry of entries) {
      if (!fs.existsSync(entry.root)) {
        this.options.log(`tracked repository ${entry.root} no longer exists; skipped (gortex untrack removes it)`);
        continue;
      }
      try {
        checkAllowedRoot(entry.root, allowed);
        await this.options.admit?.(entry.root, entry.name);
      } catch (error) {
        this.options.log(`recorded repository ${entry.name} not served: ${(error as Error).message}`);
        continue;
      }
      // A `track` of the same repository while this one was admitted started it already.
      if (!this.repos.has(entry.root)) this.start(entry);
    }
  }

  /**
   * Tracks the repository containing `dir` (idempotent); name defaults to the folder name. A root
   * outside `daemon.allowed_roots` is refused (`UsageError`) — whichever door asked.
   */
  async track(dir: string, options: { name?: string; project?: string } = {}): Promise<TrackedRepo> {
    const { resolveRepoRoot } = await import('../support/repo-root');
    const root = resolveRepoRoot(dir);
    checkAllowedRoot(root, this.allowedRoots());
    let existing = this.repos.get(root);
    if (existing?.phase === 'failed') {
      // Tracking a repository whose opening failed (stopped at the memory ceiling, a broken
      // config since fixed) opens it again.
      this.repos.delete(root);
      options = { ...(existing.entry.project !== undefined ? { project: existing.entry.project } : {}), name: existing.entry.name, ...options };
      existing = undefined;
    }
    const name = options.name ?? existing?.entry.name ?? path.basename(root);
    this.refuseNameClash(name, root);
    if (existing) {
      let changed = false;
      if (options.name !== undefined && options.name !== existing.entry.name) {
        existing.entry.name = options.name;
        changed = true;
      }
      if (options.project !== undefined && options.project !== existing.entry.project) {
        existing.entry.project = options.project;
        changed = true;
      }
      if (changed) this.persist();
      return existing;
    }
    await this.options.admit?.(root, name);
    // Tracked by another request while this one was admitted: that one stands.
    const raced = this.repos.get(root);
    if (raced && raced.phase !== 'failed') return raced;
    this.refuseNameClash(name, root);
    const tracked = this.start({ root, name, ...(options.project !== undefined ? { project: options.project } : {}) });
    this.persist();
    return tracked;
  }

  /** Refuses (`TrackConflictError`) `name` when another root is tracked under it. */
  private refuseNameClash(name: string, root: string): void {
    const clash = [...this.repos.values()].find((r) => r.entry.name === name && r.entry.root !== root);
    if (clash) throw new TrackConflictError(`the name "${name}" is already used by ${clash.entry.root}; pass --name to choose another`);
  }

  private start(entry: TrackedEntry): TrackedRepo {
    this.served.add(entry.root);
    const tracked = new TrackedRepo(entry, async (t) => {
      const { openEmbedded } = await import('../workspace/embedded');
      const hold = testOpenDelay();
      if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
      t.throwIfAborted();
      t.phase = 'snapshot_loaded';
      const repo = await openEmbedded(entry.root, {
        watch: true,
        onEngine: (engine) => (t.engine = engine),
        log: (message) => this.options.log(`${entry.name}: ${message}`),
        onProgress: (event) => {
          // Progress ticks arrive asynchronously and may trail the pass itself: never step back.
          if ((event.phase === 'parse' || event.phase === 'resolve') && (t.phase === 'snapshot_loaded' || t.phase === 'parse' || t.phase === event.phase)) {
            t.phase = event.phase;
            t.progress = { done: event.done, total: event.total };
          }
        },
        ...(this.options.reconcileMs !== undefined ? { reconcileMs: this.options.reconcileMs } : {}),
      });
      const stopIfAborted = (): void => {
        if (!t.aborted) return;
        // Stopped after its pass had finished: not served, and its index freed.
        repo.close();
        t.throwIfAborted();
      };
      stopIfAborted();
      t.phase = 'watcher_started';
      t.syncContext = await repo.context();
      t.openReport = t.syncContext.lastIndex;
      this.options.log(`${entry.name}: ready (${entry.root})`);
      return repo;
    });
    tracked.onReindexed((change) => {
      for (const listener of this.changeListeners) listener(tracked, change);
    });
    tracked.phases.add((event) => this.readinessListeners.emit(event));
    tracked.ready.catch((error: unknown) => this.options.log(`${entry.name}: cannot open ${entry.root}: ${error instanceof Error ? error.message : String(error)}`));
    this.repos.set(entry.root, tracked);
    return tracked;
  }

  /** Stops serving the repository with this root, name or path prefix; returns the roots removed. */
  untrack(pathOrName: string): string[] {
    const absolute = path.resolve(pathOrName);
    const matches = [...this.repos.values()].filter(
      (r) => r.entry.name === pathOrName || r.entry.root === absolute || r.entry.root.startsWith(absolute + path.sep),
    );
    if (matches.length === 0) {
      throw new NotTrackedError(`no tracked repository matches "${pathOrName}"; tracked: ${[...this.repos.values()].map((r) => `${r.entry.name} (${r.entry.root})`).join(', ') || 'none'}`);
    }
    for (const tracked of matches) {
      this.repos.delete(tracked.entry.root);
      this.readinessListeners.emit({ repo: tracked.entry.name, root: tracked.entry.root, phase: 'untracked', ts: Date.now() });
      tracked.ready.then((repo) => repo.close(), () => undefined);
    }
    this.persist();
    return matches.map((m) => m.entry.root);
  }

  /**
   * The repository a client working in `cwd` is served: the tracked one with the same repository
   * root; for a folder outside any git work tree, the tracked repository containing it; otherwise
   * its repository is tracked now (the cwd's repo auto-tracks).
   */
  async forClient(cwd: string): Promise<TrackedRepo> {
    const { resolveRepoRoot } = await import('../support/repo-root');
    const root = resolveRepoRoot(cwd);
    const exact = this.repos.get(root);
    if (exact) return exact;
    // A nested git repository is its own repository, even inside a tracked one.
    if (!fs.existsSync(path.join(root, '.git'))) {
      const around = this.containing(cwd);
      if (around) return around;
    }
    return this.track(root);
  }

  /**
   * The tracked repositories strictly under `dir` when `dir` is a plain folder above them (not in
   * any git work tree, not inside a tracked repository); empty otherwise.
   */
  async under(dir: string): Promise<TrackedRepo[]> {
    const { resolveRepoRoot } = await import('../support/repo-root');
    const root = resolveRepoRoot(dir);
    if (fs.existsSync(path.join(root, '.git')) || this.containing(dir)) return [];
    return this.all().filter((r) => r.entry.root.startsWith(root + path.sep));
  }

  /** The tracked repository containing `dir` (the deepest root), if any. */
  containing(dir: string): TrackedRepo | undefined {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      real = path.resolve(dir);
    }
    let best: TrackedRepo | undefined;
    for (const tracked of this.repos.values()) {
      const root = tracked.entry.root;
      if ((real === root || real.startsWith(root + path.sep)) && (!best || root.length > best.entry.root.length)) best = tracked;
    }
    return best;
  }

  /** The repository named `nameOrRoot` (name, root path or a path inside it). */
  find(nameOrRoot: string): TrackedRepo | undefined {
    for (const tracked of this.repos.values()) if (tracked.entry.name === nameOrRoot || tracked.entry.root === nameOrRoot) return tracked;
    return path.isAbsolute(nameOrRoot) ? this.containing(nameOrRoot) : undefined;
  }

  /** Listens for re-indexes of any tracked repository (present or future); returns the removal. */
  onChange(listener: (tracked: TrackedRepo, change: RepoChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => void this.changeListeners.delete(listener);
  }

  /** The push sources of the daemon's sessions: every tracked repository's phases and rebuilds. */
  pushSources(): PushSources {
    return {
      host: 'daemon',
      readiness: () => this.all().map((t) => t.readiness()),
      onReadiness: (listener) => this.readinessListeners.add(listener),
      onGraph: (listener) => this.onChange((tracked, change) => listener(graphEventOf(tracked.entry.name, change))),
      repositories: () =>
        this.all().map((t) => {
          const info = t.info();
          return { repo: t.entry.name, root: t.entry.root, phase: t.phase, nodes: info.nodes, edges: info.edges };
        }),
    };
  }

  /** Every tracked repository, by name (then root). */
  all(): TrackedRepo[] {
    return [...this.repos.values()].sort((a, b) => a.entry.name.localeCompare(b.entry.name) || a.entry.root.localeCompare(b.entry.root));
  }

  /** Closes every watcher after the refreshes under way have finished. */
  async close(): Promise<void> {
    await Promise.all(
      this.all().map(async (tracked) => {
        try {
          const repo = await tracked.ready;
          await repo.context();
          repo.close();
        } catch {
          /* a repository that never opened has nothing to close */
        }
      }),
    );
  }

  /**
   * Writes this daemon's repositories to the persisted list. Entries of roots it never served
   * stay as they are: recorded by a `gortex track` that found no daemon answering (one stopping),
   * or skipped on restore.
   */
  private persist(): void {
    try {
      RepoSet.updateList(
        this.listFile,
        (onDisk) => [...this.all().map((r) => r.entry), ...onDisk.filter((e) => !this.served.has(e.root))],
        this.options.log,
      );
    } catch (error) {
      this.options.log(`cannot save the tracked repositories to ${this.listFile}: ${(error as Error).message}`);
    }
  }
}
