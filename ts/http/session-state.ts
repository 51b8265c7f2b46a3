/**
 * Where MCP Streamable HTTP sessions are remembered. A session's stored state is what any replica
 * needs to rebuild it (the `initialize` parameters and the tool spec); the live SDK server is a
 * per-process cache in front of it. The store is the authority on whether a session exists and
 * when it expires: the in-memory store serves one process, the Redis store lets replicas behind a
 * load balancer share sessions.
 */
import { RespClient } from './resp';

/** What a replica needs to rebuild a session it did not create. */
export interface McpSessionState {
  id: string;
  /** ISO 8601. */
  created_at: string;
  /** The params of the session's `initialize` request, replayed on rebuild. */
  initialize: Record<string, unknown>;
  /** The tool spec the session was created with (`--tools`), when one was given. */
  tools?: string;
}

/** A session store; `ttlMs` undefined means the entry never expires. */
export interface McpSessionStore {
  /** The state, or undefined when the session is unknown or expired. */
  get(id: string): Promise<McpSessionState | undefined>;
  /** Stores (or replaces) a session, expiring `ttlMs` after now. */
  put(id: string, state: McpSessionState, ttlMs: number | undefined): Promise<void>;
  /** Restarts the idle clock; false when the session is unknown or expired. */
  touch(id: string, ttlMs: number | undefined): Promise<boolean>;
  /** Forgets a session (no error when it is unknown). */
  delete(id: string): Promise<void>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}

/** How often the memory store sweeps out expired sessions nobody asked about. */
const SWEEP_MS = 60_000;

/** An in-process session store: entries expire on access and by a background sweep. */
export class MemorySessionStore implements McpSessionStore {
  private readonly entries = new Map<string, { state: McpSessionState; expiresAt: number | undefined }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepMs = SWEEP_MS) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    // The sweep is housekeeping: it must not keep the process alive.
    this.sweeper.unref();
  }

  async get(id: string): Promise<McpSessionState | undefined> {
    return this.live(id)?.state;
  }

  async put(id: string, state: McpSessionState, ttlMs: number | undefined): Promise<void> {
    this.entries.set(id, { state, expiresAt: ttlMs === undefined ? undefined : Date.now() + ttlMs });
  }

  async touch(id: string, ttlMs: number | undefined): Promise<boolean> {
    const entry = this.live(id);
    if (!entry) return false;
    entry.expiresAt = ttlMs === undefined ? undefined : Date.now() + ttlMs;
    return true;
  }

  async delete(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** How many unexpired sessions are held. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  private live(id: string): { state: McpSessionState; expiresAt: number | undefined } | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(id);
    }
  }
}

/** Redis keys of sessions: `gortex:mcp:session:<id>`. */
export const REDIS_KEY_PREFIX = 'gortex:mcp:session:';

/** A session store in Redis (JSON values, PX expiry, PEXPIRE on touch), shared by replicas. */
export class RedisSessionStore implements McpSessionStore {
  private readonly client: RespClient;

  /** `url`: `redis://[user:password@]host[:port][/db]` or `rediss://…`. */
  constructor(url: string, options: { timeoutMs?: number } = {}) {
    this.client = new RespClient(url, options.timeoutMs);
  }

  /** The Redis key of session `id`. */
  static key(id: string): string {
    return `${REDIS_KEY_PREFIX}${id}`;
  }

  async get(id: string): Promise<McpSessionState | undefined> {
    const value = await this.client.command(['GET', RedisSessionStore.key(id)]);
    if (typeof value !== 'string') return undefined;
    try {
      const state = JSON.parse(value) as McpSessionState;
      return state && typeof state === 'object' && state.id === id ? state : undefined;
    } catch {
      // A value that is not ours is treated as no session rather than failing every request.
      return undefined;
    }
  }

  async put(id: string, state: McpSessionState, ttlMs: number | undefined): Promise<void> {
    const args: (string | number)[] = ['SET', RedisSessionStore.key(id), JSON.stringify(state)];
    if (ttlMs !== undefined) args.push('PX', Math.max(1, Math.round(ttlMs)));
    await this.client.command(args);
  }

  async touch(id: string, ttlMs: number | undefined): Promise<boolean> {
    const key = RedisSessionStore.key(id);
    const reply = ttlMs === undefined ? await this.client.command(['EXISTS', key]) : await this.client.command(['PEXPIRE', key, Math.max(1, Math.round(ttlMs))]);
    return reply === 1;
  }

  async delete(id: string): Promise<void> {
    await this.client.command(['DEL', RedisSessionStore.key(id)]);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
