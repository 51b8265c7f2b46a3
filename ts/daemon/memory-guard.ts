/**
 * The daemon's memory ceiling (`GORTEX_MAX_MEMORY`, else the global config's `daemon.max_memory`,
 * re-read on each check so a changed setting applies without a restart).
 *
 * The daemon keeps its resident memory under the ceiling in three ways, cheapest first:
 * - **Caches first.** Above {@link RELEASE_AT} of the ceiling, every open repository drops what it
 *   can rebuild on demand (search indexes, analyses, dataflow, the resolver's kept tables, history
 *   held in memory: `Engine.releaseCaches`) and freed pages go back to the OS. Answers stay right;
 *   the next query needing a dropped cache builds it again.
 * - **Admission.** Tracking one more repository is refused with a clear error when its estimated
 *   cost (from a walk of its tree: {@link estimateIndexBytes}) does not fit beside what the daemon
 *   holds, after caches were dropped.
 * - **A pass that overruns.** Should a repository's opening pass carry the daemon past the ceiling
 *   all the same (the estimate is an estimate), that pass is cancelled and the repository reported
 *   failed with the reason — the daemon stays up and keeps serving the others.
 */
import { Engine } from '../engine/engine';
import { indexOptionsOf, loadConfig, MIN_MAX_MEMORY } from '../config/config';
import { formatBytes, parseByteSize } from '../support/format';
import { gortexHome } from '../support/home';
import { UsageError } from '../support/usage-error';
import type { RepoSet } from './repos';

/** The share of the ceiling above which rebuildable caches are dropped. */
export const RELEASE_AT = 0.85;

/**
 * Resident bytes an index takes per byte of source while it is built: Kubernetes 1.20 (75 MB
 * walked) peaks at 473 MB cold, TypeScript's whole tree and django lower (BENCHMARKS.md "Memory");
 * rounded up so an estimate errs on the side of refusing.
 */
const BYTES_PER_SOURCE_BYTE = 7;
/** Per file on top (records, paths, ids of small files). */
const BYTES_PER_FILE = 8 * 1024;

/** Above the mark, how long before caches are dropped again when the daemon did not grow. */
const RELEASE_AGAIN_MS = 60_000;

/** How often the guard looks at the daemon's resident memory. */
const CHECK_EVERY_MS = 2_000;

/** The estimated resident bytes an index of a tree of `files` files and `bytes` bytes takes. */
export function estimateIndexBytes(files: number, bytes: number): number {
  return bytes * BYTES_PER_SOURCE_BYTE + files * BYTES_PER_FILE;
}

/** The ceiling in bytes, and where it was set; undefined when none is. A malformed value is a `UsageError`. */
export function configuredCeiling(env: NodeJS.ProcessEnv = process.env): { bytes: number; source: string } | undefined {
  const raw = env.GORTEX_MAX_MEMORY;
  if (raw !== undefined && raw.trim() !== '') {
    const bytes = parseByteSize(raw);
    if (bytes === undefined) throw new UsageError(`GORTEX_MAX_MEMORY=${JSON.stringify(raw)} is not a memory size; write it like 2G, 1536M or a byte count`);
    if (bytes < MIN_MAX_MEMORY) throw new UsageError(`GORTEX_MAX_MEMORY=${JSON.stringify(raw)} is below 64M, less than a daemon needs before it tracks anything`);
    return { bytes, source: 'GORTEX_MAX_MEMORY' };
  }
  const config = loadConfig(undefined, env);
  return config.maxMemory === undefined ? undefined : { bytes: config.maxMemory, source: `daemon.${config.maxMemoryKey ?? 'max_memory'}` };
}

/** Refused: tracking the repository would carry the daemon past its ceiling. */
export class MemoryCeilingError extends UsageError {}

/** What `daemon status` shows of the guard. */
export interface MemoryGuardState {
  max_bytes: number | null;
  max_source: string | null;
  /** Times rebuildable caches were dropped to stay under the ceiling. */
  cache_releases: number;
  /** Sized bytes those releases dropped (search and clone indexes; the rest is not sized). */
  released_bytes: number;
  /** Tracking requests refused for memory. */
  refused: number;
  /** Opening passes cancelled for memory. */
  cancelled: number;
  /** The last thing the guard did, for operators. */
  last_action: string | null;
}

/** Watches the daemon's resident memory against the configured ceiling. */
export class MemoryGuard {
  private timer: NodeJS.Timeout | undefined;
  private surveyor: Engine | undefined;
  /** Estimates of repositories admitted and still opening (not yet in resident memory), by root. */
  private readonly reserved = new Map<string, number>();
  /** The admission under way: one at a time, so each counts the reservations of those before it. */
  private admitting: Promise<void> = Promise.resolve();
  /** The last reason the ceiling could not be read, so it is logged once. */
  private lastProblem: string | undefined;
  /** Resident bytes right after the last release, and when it was. */
  private lastRelease: { rss: number; at: number } | undefined;
  private readonly state: Omit<MemoryGuardState, 'max_bytes' | 'max_source'> = {
    cache_releases: 0,
    released_bytes: 0,
    refused: 0,
    cancelled: 0,
    last_action: null,
  };

  constructor(
    private readonly repos: RepoSet,
    private readonly options: {
      log: (message: string) => void;
      env?: NodeJS.ProcessEnv;
      /** The process's resident bytes (default: `process.memoryUsage.rss()`). */
      rss?: () => number;
    },
  ) {}

  /** Starts the periodic check. */
  start(): void {
    this.timer ??= setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the periodic check. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private rss(): number {
    return (this.options.rss ?? (() => process.memoryUsage.rss()))();
  }

  /** The ceiling as configured now; a broken setting is logged and treated as none (the daemon keeps serving). */
  private ceiling(): { bytes: number; source: string } | undefined {
    try {
      const ceiling = configuredCeiling(this.options.env);
      this.lastProblem = undefined;
      return ceiling;
    } catch (error) {
      const problem = `memory ceiling not applied: ${(error as Error).message}`;
      // Said once per problem, not on every check.
      if (problem !== this.lastProblem) this.options.log(problem);
      this.lastProblem = problem;
      return undefined;
    }
  }

  /** The guard's figures for `daemon status`. */
  status(): MemoryGuardState {
    const ceiling = this.ceiling();
    return { max_bytes: ceiling?.bytes ?? null, max_source: ceiling?.source ?? null, ...this.state };
  }

  /**
   * One look at resident memory: drops rebuildable caches above {@link RELEASE_AT} of the
   * ceiling, and cancels repositories still opening when the ceiling itself is passed.
   */
  check(): void {
    const ceiling = this.ceiling();
    if (!ceiling) return;
    const rss = this.rss();
    if (rss <= ceiling.bytes * RELEASE_AT) return;
    // Once dropped, caches are dropped again only after the daemon grew (queries rebuilt some)
    // or a while passed: not on every check while it sits above the mark with nothing to drop.
    const grown = this.lastRelease === undefined || rss > this.lastRelease.rss * 1.02 || Date.now() - this.lastRelease.at > RELEASE_AGAIN_MS;
    if (grown) this.releaseCaches(ceiling);
    const now = this.rss();
    if (now <= ceiling.bytes) return;
    // One pass at a time, the newest first: stopping it may be enough for the others to finish.
    const warming = this.repos
      .all()
      .filter((r) => r.warming && !r.aborted)
      .sort((a, b) => b.trackedAt - a.trackedAt);
    for (const tracked of warming) {
      const reason =
        `stopped indexing ${tracked.entry.name}: the daemon reached its memory ceiling ` +
        `(${formatBytes(now)} of ${formatBytes(ceiling.bytes)}, ${ceiling.source}); raise the ceiling or untrack other repositories, then track it again`;
      if (tracked.abort(reason)) {
        this.state.cancelled++;
        this.note(reason);
        return;
      }
    }
  }

  /** Drops every open repository's rebuildable caches. */
  private releaseCaches(ceiling: { bytes: number; source: string }): void {
    const before = this.rss();
    let sized = 0;
    for (const tracked of this.repos.all()) {
      if (!tracked.repo || !tracked.engine) continue;
      try {
        // -1: a pass holds the repository (it drops its old caches itself).
        sized += Math.max(0, tracked.engine.releaseCaches(tracked.entry.root));
      } catch (error) {
        this.options.log(`${tracked.entry.name}: releasing caches failed: ${(error as Error).message}`);
      }
    }
    this.state.cache_releases++;
    this.state.released_bytes += sized;
    this.lastRelease = { rss: this.rss(), at: Date.now() };
    this.note(
      `resident memory ${formatBytes(before)} passed ${Math.round(RELEASE_AT * 100)}% of the ceiling (${formatBytes(ceiling.bytes)}, ${ceiling.source}): ` +
        `rebuildable caches dropped (${formatBytes(sized)} sized), now ${formatBytes(this.rss())}`,
    );
  }

  /** The estimates of admitted repositories still opening. */
  private reservedBytes(): number {
    let sum = 0;
    for (const [root, bytes] of this.reserved) {
      if (this.repos.find(root)?.warming) sum += bytes;
      else this.reserved.delete(root);
    }
    return sum;
  }

  private note(action: string): void {
    this.state.last_action = action;
    this.options.log(action);
  }

  /**
   * Refuses (`MemoryCeilingError`) tracking the tree at `root` when its estimated index does not
   * fit under the ceiling beside what the daemon holds — after dropping rebuildable caches.
   * Admissions run one after another (the tree is walked off the event loop meanwhile).
   */
  admit(root: string, name: string): Promise<void> {
    const admission = this.admitting.then(() => this.admitNow(root, name));
    this.admitting = admission.catch(() => undefined);
    return admission;
  }

  private async admitNow(root: string, name: string): Promise<void> {
    const ceiling = this.ceiling();
    if (!ceiling) return;
    this.surveyor ??= new Engine({ home: gortexHome() });
    // The files its configuration admits (excludes, size cap); a configuration that does not
    // read is estimated with the defaults (the open itself reports it).
    let options = {};
    try {
      options = indexOptionsOf(loadConfig(root, this.options.env));
    } catch {
      // defaults
    }
    const tree = await this.surveyor.survey(root, options);
    const need = estimateIndexBytes(tree.files, tree.bytes);
    // Repositories admitted a moment ago (a restore admits all of them at once) count with
    // their estimates until they are open.
    const fits = (): boolean => this.rss() + this.reservedBytes() + need <= ceiling.bytes;
    if (!fits()) this.releaseCaches(ceiling);
    if (fits()) {
      this.reserved.set(root, need);
      return;
    }
    const rss = this.rss() + this.reservedBytes();
    this.state.refused++;
    const message =
      `not tracking ${name} (${root}): indexing its ${tree.files.toLocaleString('en-US')} files (${formatBytes(tree.bytes)}) needs about ${formatBytes(need)}, ` +
      `and the daemon holds ${formatBytes(rss)} (with the repositories still opening) of its ${formatBytes(ceiling.bytes)} memory ceiling (${ceiling.source}). ` +
      `Raise ${ceiling.source === 'GORTEX_MAX_MEMORY' ? 'GORTEX_MAX_MEMORY' : 'daemon.max_memory in the global config'}, untrack a repository, or exclude folders in its .gortex.yaml`;
    this.note(message);
    throw new MemoryCeilingError(message);
  }
}
