/**
 * What a tool handler works on: the engine, the repository, and what the calling session adds
 * (its tool surface, its workspace, a warming repository's provisional index, progress).
 */
import type { Engine, IndexReport } from '../engine/engine';
import type { SessionChannels } from './channels';
import type { OverlayBinding } from './overlays';
import type { SessionStore } from './session-store';
import type { Workspace } from './workspace';

/** Which tool set a session's names resolve in first: the registry, or the compact facade (`explore` and `analyze` are in both). */
export type ToolFamily = 'registry' | 'facade';

/** The tool surface of one MCP session, for the tools that inspect or extend it. */
export interface SessionSurface {
  preset: string;
  mode: 'defer' | 'hide';
  /** The tool set the session lists and resolves names in first. */
  family: ToolFamily;
  /** Where the surface came from: `GORTEX_TOOLS`, `--tools`, `client-aware default` or `default`. */
  source: string;
  /** Names listed in `tools/list` right now. */
  live(): ReadonlySet<string>;
  /** Names this session may call (hide mode: the live set; defer mode: everything). */
  allowed(): ReadonlySet<string>;
  /** Adds tools to the live set and tells the client its list changed. */
  promote(names: readonly string[]): string[];
  /** The session's response ring, navigation cursor and feedback log (absent outside MCP). */
  store?: SessionStore;
}

/**
 * How far a caller is trusted. `trusted` callers — the socket (mode 0600), stdio, the CLI, and
 * HTTP requests carrying the server's bearer token — may call the admin tools, those that change
 * what the server serves or keeps beyond the session (`isAdminTool`, `ts/calls/dispatch.ts`);
 * `anonymous` ones — HTTP without a token, which only a loopback bind allows — may not.
 */
export type CallerTrust = 'trusted' | 'anonymous';

/** What a handler works on: the engine and the repository the session is bound to. */
export interface ToolContext {
  engine: Engine;
  /** The repository key (its root path) for engine queries. */
  repo: string;
  /** The repository's root directory. */
  root: string;
  /** The calling MCP session's surface (absent for `gortex call`). */
  session?: SessionSurface;
  /** The latest index pass of this repository in this process (open or watcher refresh), when known. */
  lastIndex?: IndexReport;
  /** The repositories the session can reach (absent for `gortex call`). */
  workspace?: Workspace;
  /** Set when the repository is still warming up and this context serves a provisional index. */
  warming?: WarmingContext;
  /** Where a call that waits reports how far it has come (set when the caller asked for progress). */
  progress?: ProgressReporter;
  /** The caller's trust, set by the call pipeline from its `Caller`; absent: trusted (a context built outside any door). */
  trust?: CallerTrust;
  /**
   * Runs another tool as this call's own dispatch would (validation, scope narrowing), for tools
   * that compose others; set by the call pipeline (`ts/calls/`). Throws its failures unchanged.
   */
  call?: (tool: string, args: Record<string, unknown>) => Promise<unknown>;
  /**
   * Brings the index up to date with files a tool just wrote (repository-relative) before the call
   * returns, through the repository's refresh queue: the change is logged and announced like a
   * watcher's, and the watcher's own pass over the same files finds nothing left to do. Absent:
   * the write tools update the engine directly (`ts/workspace/writes.ts`).
   */
  filesChanged?: (paths: readonly string[]) => Promise<void>;
  /** The caller's overlay session (set by doors that have one: MCP sessions, `/v1` with a session header). */
  overlay?: OverlayBinding;
  /**
   * Set when this call reads through an overlay view (`throughOverlay`): the buffers over this
   * repository by relative path (null: deleted in the overlay); source readers use `readSource`.
   */
  overlayFiles?: ReadonlyMap<string, Buffer | null>;
  /** The caller's push channels (MCP sessions: stdio, the daemon socket, `/mcp`); absent where a door cannot push. */
  channels?: SessionChannels;
  /**
   * The repositories a call that names none spans (a `/v1` call to a daemon tracking several): the
   * scope stage runs it on each, or on the one its target ids name. Absent: the session's binding.
   */
  spans?: readonly string[];
}

/**
 * Reports the progress of a call that waits (for a warming repository): MCP
 * `notifications/progress` when the caller sent a progress token. Values only grow.
 */
export type ProgressReporter = (progress: number, total: number | undefined, message: string) => void;

/** The in-band `warming` block of an answer built on a provisional index. */
export interface WarmingBlock {
  repo: string;
  /** The warm-up phase of the repository when the call was answered. */
  phase: string;
  partial: true;
  /** Source files in the provisional index, of the files the walk admitted. */
  files_indexed: number;
  files_total: number;
  /** Epoch ms when the provisional index was last brought up to date. */
  indexed_at_ms: number;
  note: string;
}

/** A provisional context's warm-up: the block answers carry and the way to the complete index. */
export interface WarmingContext {
  block: WarmingBlock;
  /** The complete context once the repository is ready (bounded wait, reported to `progress`; throws a `warming` ToolCallError). */
  complete(progress?: ProgressReporter): Promise<ToolContext>;
}

/** `ctx` itself, or — when it serves a warming repository's provisional index — the complete context (bounded wait). */
export async function completeContext(ctx: ToolContext): Promise<ToolContext> {
  if (!ctx.warming) return ctx;
  const { warming, ...rest } = ctx;
  return { ...rest, ...(await warming.complete(ctx.progress)) };
}
