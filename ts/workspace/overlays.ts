/**
 * Overlay sessions: unsaved editor buffers and speculative edits layered over the indexed base,
 * per MCP session, with branches. A session holds an active branch and a branches map (an
 * implicit `main` always exists); a branch holds files (absolute path → buffer, or null for a
 * file deleted in the overlay). Every call from a session with files on its active branch reads
 * through a view (`Engine.overlayBuild`: the repository's index with those files replaced, built
 * beside the base, never in it) — the pipeline's overlay stage (`throughOverlay`) swaps the
 * context's engine for one seen through the view and hands source readers the buffers, so no
 * tool has overlay code of its own. Views are built on first use, rebuilt when the branch changed
 * or the base moved on (the view pins the base graph it was built on), and at most
 * `GORTEX_OVERLAY_MAX_VIEWS` views holding at most `GORTEX_OVERLAY_MAX_VIEW_NODES` nodes of their own together
 * are kept built (least recently used first out; a dropped view is rebuilt when next needed). Sessions end with their MCP session or after
 * `GORTEX_OVERLAY_IDLE_TTL` (default 30 m) without a call that used them.
 */
import * as path from 'node:path';
import type { Engine, OverlayBuildReport } from '../engine/engine';
import { parseDuration } from '../support/duration';
import { ToolInputError } from '../support/tool-input-error';
import type { ToolContext } from './context';

/** The branch every session has and no one can drop. */
export const MAIN_BRANCH = 'main';

/** One overlaid file of a branch. */
export interface OverlayFile {
  /** Absolute path (inside `root`). */
  abs: string;
  /** The repository root it belongs to. */
  root: string;
  /** Repository-relative, `/`-separated. */
  rel: string;
  /** The buffer, or null: the file is deleted in the overlay. */
  content: Buffer | null;
  /** The blob sha of the on-disk content the buffer was based on, when the editor sent one. */
  base_sha?: string;
  updated_at: number;
}

/** A line of speculative development: files over the base, forked from a parent. */
export interface OverlayBranch {
  name: string;
  parent?: string;
  created_at: number;
  files: Map<string, OverlayFile>;
  /** Bumped by every change to `files`: a view built at another revision is rebuilt. */
  revision: number;
}

/** One overlay session: bound to an MCP session id. */
export interface OverlaySession {
  id: string;
  created_at: number;
  last_used: number;
  active: string;
  branches: Map<string, OverlayBranch>;
}

/** What a handler needs to reach its caller's overlay session. */
export interface OverlayBinding {
  store: OverlayStore;
  /** The caller's session id (the MCP session's, or the HTTP header's). */
  session: string;
  /** The engine as indexed, when the call reads through a view (compare tools run on both). */
  baseEngine?: Engine;
}

/** Parses `GORTEX_OVERLAY_IDLE_TTL` and the other duration settings (`ts/support/duration.ts`). */
export { parseDuration };

function idleTtlMs(): number {
  const raw = process.env.GORTEX_OVERLAY_IDLE_TTL;
  if (raw === undefined || raw.trim() === '') return 30 * 60_000;
  const ms = parseDuration(raw);
  if (ms === undefined || ms <= 0) {
    throw new ToolInputError('invalid_argument', `GORTEX_OVERLAY_IDLE_TTL must be a duration such as 30m, 90s or 2h; got ${JSON.stringify(raw)}`);
  }
  return ms;
}

/** A positive integer from the environment, else `fallback`. */
function envLimit(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Most views kept built at once (`GORTEX_OVERLAY_MAX_VIEWS`). */
const maxViews = (): number => envLimit('GORTEX_OVERLAY_MAX_VIEWS', 8);

/**
 * Most graph nodes all built views may hold themselves (`GORTEX_OVERLAY_MAX_VIEW_NODES`): a view
 * is a layer over its repository's graph holding its changed files' nodes, but one whose
 * configuration changed holds a whole graph, so the count alone would let eight such views of a
 * large repository take gigabytes. The view just built is always kept.
 */
const maxViewNodes = (): number => envLimit('GORTEX_OVERLAY_MAX_VIEW_NODES', 1_000_000);

/** A view built in an engine: which branch revision it shows, and when it was last read. */
interface BuiltView {
  engine: Engine;
  revision: number;
  used: number;
  report: OverlayBuildReport;
}

/** The process's overlay sessions and the views built for them. */
export class OverlayStore {
  private readonly sessions = new Map<string, OverlaySession>();
  private readonly views = new Map<string, BuiltView>();
  private readonly building = new Map<string, Promise<BuiltView>>();
  private readonly timer: NodeJS.Timeout;
  readonly ttlMs: number;

  constructor(options: { ttlMs?: number } = {}) {
    this.ttlMs = options.ttlMs ?? idleTtlMs();
    this.timer = setInterval(() => this.sweep(), Math.min(60_000, Math.max(1000, this.ttlMs / 4)));
    this.timer.unref();
  }

  /** Binds a session to `id` (idempotent); refreshes its idle timer. */
  register(id: string): { session: OverlaySession; created: boolean } {
    const now = Date.now();
    const existing = this.sessions.get(id);
    if (existing) {
      existing.last_used = now;
      return { session: existing, created: false };
    }
    const session: OverlaySession = { id, created_at: now, last_used: now, active: MAIN_BRANCH, branches: new Map([[MAIN_BRANCH, { name: MAIN_BRANCH, created_at: now, files: new Map(), revision: 0 }]]) };
    this.sessions.set(id, session);
    return { session, created: true };
  }

  /** The session bound to `id`, its idle timer refreshed; undefined when none is. */
  get(id: string): OverlaySession | undefined {
    const session = this.sessions.get(id);
    if (session) session.last_used = Date.now();
    return session;
  }

  /** The session bound to `id`, or a `not_found` error saying how to bind one. */
  require(id: string): OverlaySession {
    const session = this.get(id);
    if (!session) throw new ToolInputError('not_found', `no overlay session is bound to session ${JSON.stringify(id)}: call overlay_register (or overlay_push, which registers) first`);
    return session;
  }

  /** Every live session's id. */
  ids(): string[] {
    return [...this.sessions.keys()];
  }

  /** Ends session `id`: its branches, buffers and views are discarded now. Returns whether one was bound. */
  drop(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    for (const branch of session.branches.values()) this.dropViews(id, branch.name);
    this.sessions.delete(id);
    return true;
  }

  /** Discards the built views of one branch. */
  dropViews(sessionId: string, branch: string): void {
    const prefix = viewPrefix(sessionId, branch);
    for (const [key, view] of this.views) {
      if (key.startsWith(prefix)) {
        view.engine.overlayDrop(key);
        this.views.delete(key);
      }
    }
  }

  /** Ends the sessions idle for longer than the TTL. */
  sweep(now = Date.now()): string[] {
    const ended = [...this.sessions.values()].filter((s) => now - s.last_used > this.ttlMs).map((s) => s.id);
    for (const id of ended) this.drop(id);
    return ended;
  }

  /** Stops the idle sweep and discards everything (process shutdown, tests). */
  close(): void {
    clearInterval(this.timer);
    for (const id of this.ids()) this.drop(id);
  }

  /** How the view of one branch over `root` was last built, when it is built now. */
  viewReport(sessionId: string, branch: string, root: string): OverlayBuildReport | undefined {
    return this.views.get(viewKey(sessionId, branch, root))?.report;
  }

  /** How many views are built now (for status answers and tests). */
  builtViews(): number {
    return this.views.size;
  }

  /**
   * The engine seen through branch `branch` of session `sessionId` for the repository of `ctx`,
   * with that repository's buffers by relative path; undefined when the branch overlays none of
   * its files. Builds the view when it is missing, shows an older revision, or its base moved on.
   */
  async view(ctx: ToolContext, session: OverlaySession, branchName: string): Promise<{ engine: Engine; files: Map<string, Buffer | null>; report: OverlayBuildReport } | undefined> {
    const branch = session.branches.get(branchName);
    if (!branch) return undefined;
    const files = filesUnder(branch, ctx.root);
    if (files.size === 0) return undefined;
    const key = viewKey(session.id, branch.name, ctx.root);
    let built = this.views.get(key);
    const state = built ? ctx.engine.overlayState(key) : null;
    if (!built || built.revision !== branch.revision || !state?.current) {
      built = await this.build(ctx, key, branch);
    }
    built.used = Date.now();
    return { engine: ctx.engine.withView(key), files: filesUnder(branch, ctx.root), report: built.report };
  }

  /**
   * Builds (or updates in place) the view `key` of `branch` at its current revision. A build
   * under way for the same view is waited for, and followed by another when the branch moved on
   * meanwhile (a push during a build), so no caller is answered from an older revision.
   */
  private async build(ctx: ToolContext, key: string, branch: OverlayBranch): Promise<BuiltView> {
    for (;;) {
      const pending = this.building.get(key);
      if (pending) {
        const done = await pending.catch(() => undefined);
        if (done && done.revision === branch.revision) return done;
        continue;
      }
      const revision = branch.revision;
      const files = filesUnder(branch, ctx.root);
      const job = (async (): Promise<BuiltView> => {
        const report = await ctx.engine.overlayBuild(ctx.repo, key, [...files].map(([rel, content]) => ({ path: rel, content })));
        const built: BuiltView = { engine: ctx.engine, revision, used: Date.now(), report };
        this.views.set(key, built);
        this.evict(key);
        return built;
      })();
      this.building.set(key, job);
      try {
        const done = await job;
        if (done.revision === branch.revision) return done;
      } finally {
        if (this.building.get(key) === job) this.building.delete(key);
      }
    }
  }

  /**
   * Keeps the built views within `GORTEX_OVERLAY_MAX_VIEWS` and `GORTEX_OVERLAY_MAX_VIEW_NODES`,
   * dropping the least recently read — never one of the session that just built `keep` (a
   * speculation reads its before and after views together).
   */
  private evict(keep: string): void {
    const [limit, nodeLimit] = [maxViews(), maxViewNodes()];
    const ownSession = keep.slice(0, keep.indexOf('\u0001') + 1);
    const nodes = (): number => [...this.views.values()].reduce((n, v) => n + v.report.owned_nodes, 0);
    while (this.views.size > limit || nodes() > nodeLimit) {
      let oldest: [string, BuiltView] | undefined;
      for (const entry of this.views) if (!entry[0].startsWith(ownSession) && (!oldest || entry[1].used < oldest[1].used)) oldest = entry;
      if (!oldest) return;
      oldest[1].engine.overlayDrop(oldest[0]);
      this.views.delete(oldest[0]);
    }
  }
}

function viewPrefix(sessionId: string, branch: string): string {
  return `${sessionId}\u0001${branch}\u0001`;
}

function viewKey(sessionId: string, branch: string, root: string): string {
  return `${viewPrefix(sessionId, branch)}${root}`;
}

/** A branch's files inside `root`, by repository-relative path. */
function filesUnder(branch: OverlayBranch, root: string): Map<string, Buffer | null> {
  const out = new Map<string, Buffer | null>();
  for (const f of branch.files.values()) if (f.root === root) out.set(f.rel, f.content);
  return out;
}

/** A repository-relative path in the `/`-separated, normalised form overlay files are keyed by. */
export function overlayRel(rel: string): string {
  return path.posix.normalize(rel.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}

/**
 * The pipeline's overlay stage: `ctx` seen through its caller's active branch (engine, buffers,
 * and the base engine for the compare tools), or `ctx` itself when the caller has no overlay
 * session or its branch overlays nothing in this repository.
 */
export async function throughOverlay(ctx: ToolContext): Promise<ToolContext> {
  const binding = ctx.overlay;
  if (!binding || binding.baseEngine) return ctx;
  const session = binding.store.get(binding.session);
  if (!session) return ctx;
  const view = await binding.store.view(ctx, session, session.active);
  if (!view) return ctx;
  return { ...ctx, engine: view.engine, overlay: { ...binding, baseEngine: ctx.engine }, overlayFiles: view.files };
}

/**
 * A repository file's bytes as the caller sees them: its overlay buffer when the call reads
 * through one (`not_found` when the overlay deletes it), else the file on disk (`readDisk`).
 */
export function readSource(ctx: ToolContext, rel: string, readDisk: () => Buffer): Buffer {
  const overlaid = ctx.overlayFiles?.get(overlayRel(rel));
  if (overlaid === null) throw new ToolInputError('not_found', `${rel} is deleted in this session's overlay`);
  if (overlaid !== undefined) return overlaid;
  return readDisk();
}

/** The process's store (the daemon's or an embedded server's): every session of this process lives here. */
let shared: OverlayStore | undefined;
export function overlayStore(): OverlayStore {
  shared ??= new OverlayStore();
  return shared;
}
