/**
 * Push channels of one session: the tools that subscribe (`subscribe_diagnostics`, …) register a
 * channel here with the function that stops it; the door that owns the session (an MCP server over
 * stdio, the daemon socket or `/mcp`) delivers the notifications and ends every channel when the
 * session closes. Subscribing again to a channel replaces its filter; unsubscribing is idempotent.
 *
 * What the channels listen to comes from the door's `PushSources`: warm-up phases, graph rebuilds
 * and a health snapshot of the process — one embedded repository (`gortex mcp`) or every tracked
 * repository of the daemon.
 */

/** Sends one notification to the session's client (never throws; a gone client drops it). */
export type Notify = (method: string, params: Record<string, unknown>) => void;

/** A warm-up phase a repository entered (`notifications/workspace_readiness`). */
export interface ReadinessEvent {
  /** The repository's name and root. */
  repo: string;
  root: string;
  /** `queued → snapshot_loaded → parse → resolve → watcher_started → ready` (or `failed`). */
  phase: string;
  /** Units of the phase done of total, when known. */
  progress?: { done: number; total: number };
  error?: string;
  /** Epoch milliseconds when the phase was entered. */
  ts: number;
}

/** A graph that was rebuilt (`notifications/graph_invalidated`; `stale_refs` reads its files). */
export interface GraphEvent {
  repo: string;
  root: string;
  /** Repository-relative paths of the pass (capped; `files_truncated` says so). */
  files: string[];
  files_truncated: boolean;
  node_count: number;
  edge_count: number;
  nodes_before: number;
  edges_before: number;
  /** What caused the pass: `watcher`, `write` (a gortex tool wrote files), `reindex`, `reconcile`, joined by `+`. */
  reason: string;
  ts: number;
}

/** Where a session's channels get their events: the door's repositories and process. */
export interface PushSources {
  /** The last phase of each repository (replayed to a new subscriber). */
  readiness(): ReadinessEvent[];
  /** Registers a phase listener; returns its removal. */
  onReadiness(listener: (event: ReadinessEvent) => void): () => void;
  /** Registers a rebuild listener; returns its removal. */
  onGraph(listener: (event: GraphEvent) => void): () => void;
  /** Repository facts for the health snapshot (graph sizes, phases). */
  repositories(): { repo: string; root: string; phase: string; nodes: number | null; edges: number | null }[];
  /** What kind of process serves the session (`embedded` or `daemon`). */
  readonly host: 'embedded' | 'daemon';
}

/** Sessions with channels alive in this process (health snapshots count them). */
const liveSessions = new Set<SessionChannels>();

/** One session's push channels. */
export class SessionChannels {
  private readonly active = new Map<string, () => void>();
  private closed = false;

  constructor(
    /** The session's id (the MCP session's). */
    readonly id: string,
    readonly notify: Notify,
    /** The events this session's channels can follow; absent: only diagnostics can be subscribed. */
    readonly sources?: PushSources,
  ) {
    liveSessions.add(this);
  }

  /** Starts `channel` with `start` (which returns how to stop it), replacing a running one. */
  subscribe(channel: string, start: () => () => void): void {
    if (this.closed) return;
    this.unsubscribe(channel);
    this.active.set(channel, start());
  }

  /** Stops `channel`; false when it was not running. */
  unsubscribe(channel: string): boolean {
    const stop = this.active.get(channel);
    if (!stop) return false;
    this.active.delete(channel);
    stop();
    return true;
  }

  /** Channels running now. */
  list(): string[] {
    return [...this.active.keys()].sort();
  }

  /** Ends every channel (the session closed); later subscriptions are ignored. */
  close(): void {
    this.closed = true;
    liveSessions.delete(this);
    for (const channel of [...this.active.keys()]) this.unsubscribe(channel);
  }

  /** Open sessions in this process and the channels they run (for health snapshots). */
  static census(): { sessions: number; subscriptions: number } {
    let subscriptions = 0;
    for (const s of liveSessions) subscriptions += s.active.size;
    return { sessions: liveSessions.size, subscriptions };
  }
}

/** A set of listeners that one event reaches in order; a failing listener never stops the others. */
export class Listeners<T> {
  private readonly set = new Set<(event: T) => void>();

  /** Adds `listener`; returns its removal. */
  add(listener: (event: T) => void): () => void {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }

  /** Calls every listener with `event`. */
  emit(event: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(event);
      } catch {
        /* a listener's failure belongs to its session, not to the event's source */
      }
    }
  }
}
