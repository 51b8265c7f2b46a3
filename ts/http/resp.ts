/**
 * A minimal Redis client (RESP2 over TCP or TLS): enough for the MCP session store's GET, SET PX,
 * PEXPIRE, EXISTS and DEL. Commands are pipelined on one connection and answered in order; a
 * broken connection fails what is in flight and the next command reconnects.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';

/** A decoded RESP2 reply. */
export type RespValue = string | number | null | RespValue[];

/** Redis answered a command with an error reply (`-ERR …`). */
export class RespError extends Error {
  override name = 'RespError';
}

/** Where and how to connect, from a `redis://[user:password@]host[:port][/db]` (or `rediss://`) URL. */
export interface RespTarget {
  host: string;
  port: number;
  tls: boolean;
  username?: string;
  password?: string;
  db?: number;
}

/** Parses a Redis URL; throws naming what is wrong. */
export function parseRedisUrl(url: string): RespTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`invalid Redis URL ${JSON.stringify(url)}: expected redis://[user:password@]host[:port][/db]`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`invalid Redis URL ${JSON.stringify(url)}: the scheme must be redis:// or rediss://`);
  }
  const dbText = u.pathname.replace(/^\/+/, '');
  const db = dbText === '' ? undefined : Number(dbText);
  if (db !== undefined && (!Number.isInteger(db) || db < 0)) throw new Error(`invalid Redis URL ${JSON.stringify(url)}: database must be a number, got ${JSON.stringify(dbText)}`);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: u.port === '' ? 6379 : Number(u.port),
    tls: u.protocol === 'rediss:',
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db,
  };
}

/** One encoded command: an array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const b = Buffer.from(String(arg), 'utf8');
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** A reply parsed from `buf` at `at`, or undefined when the buffer does not hold all of it yet. */
export function parseReply(buf: Buffer, at = 0): { value: RespValue | RespError; next: number } | undefined {
  if (at >= buf.length) return undefined;
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[at]!);
  const line = buf.toString('utf8', at + 1, eol);
  const after = eol + 2;
  switch (type) {
    case '+':
      return { value: line, next: after };
    case '-':
      return { value: new RespError(line), next: after };
    case ':':
      return { value: Number(line), next: after };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, next: after };
      if (buf.length < after + len + 2) return undefined;
      return { value: buf.toString('utf8', after, after + len), next: after + len + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, next: after };
      const items: RespValue[] = [];
      let next = after;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buf, next);
        if (!item) return undefined;
        // An error nested in an array (EXEC) is kept as its message; nothing here sends EXEC.
        items.push(item.value instanceof RespError ? item.value.message : item.value);
        next = item.next;
      }
      return { value: items, next };
    }
    default:
      throw new RespError(`unexpected RESP reply type ${JSON.stringify(type)}`);
  }
}

interface Pending {
  resolve(value: RespValue): void;
  reject(error: Error): void;
  /** Handshake replies (AUTH, SELECT) are checked but not returned to anyone. */
  internal: boolean;
}

/** How long connecting and each command may take before the caller gets an error. */
const DEFAULT_TIMEOUT_MS = 5000;

/** A pipelined Redis connection that reconnects on demand. */
export class RespClient {
  private readonly target: RespTarget;
  private socket: net.Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  private closed = false;

  constructor(
    url: string,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    this.target = parseRedisUrl(url);
  }

  /** Sends one command and resolves with its reply; an error reply rejects with `RespError`. */
  command(args: readonly (string | number)[]): Promise<RespValue> {
    if (this.closed) return Promise.reject(new Error('Redis client is closed'));
    const socket = this.connection();
    return new Promise<RespValue>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A command that never answers leaves the pipeline out of step: drop the connection.
        this.fail(new Error(`Redis did not answer ${String(args[0])} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      timer.unref();
      this.pending.push({
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
        internal: false,
      });
      socket.write(encodeCommand(args));
    });
  }

  /** Closes the connection; later commands fail. */
  async close(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    this.fail(new Error('Redis client is closed'));
    // Wait for the socket to be gone so nothing outlives the caller (test runners notice open handles).
    if (socket && !socket.closed) await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  }

  private connection(): net.Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const { host, port } = this.target;
    const socket = this.target.tls ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    socket.setNoDelay(true);
    socket.setTimeout(0);
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(new Error(`Redis connection to ${host}:${port} failed: ${error.message}`), socket));
    socket.on('close', () => this.fail(new Error(`Redis connection to ${host}:${port} closed`), socket));
    // The handshake goes first on the wire, so it is answered before any queued command.
    const handshake: (string | number)[][] = [];
    if (this.target.password !== undefined) {
      handshake.push(this.target.username !== undefined ? ['AUTH', this.target.username, this.target.password] : ['AUTH', this.target.password]);
    }
    if (this.target.db !== undefined) handshake.push(['SELECT', this.target.db]);
    for (const args of handshake) {
      this.pending.push({
        resolve: () => undefined,
        reject: (error) => this.fail(new Error(`Redis ${String(args[0])} failed: ${error.message}`), socket),
        internal: true,
      });
      socket.write(encodeCommand(args));
    }
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let at = 0;
    for (;;) {
      let reply: ReturnType<typeof parseReply>;
      try {
        reply = parseReply(this.buffer, at);
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      if (!reply) break;
      at = reply.next;
      const waiter = this.pending.shift();
      if (!waiter) continue;
      if (reply.value instanceof RespError) waiter.reject(reply.value);
      else waiter.resolve(reply.value);
    }
    this.buffer = at === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(at);
  }

  /** Fails everything in flight and drops the connection (only if `socket` is still the current one). */
  private fail(error: Error, socket: net.Socket | undefined = this.socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    socket?.destroy();
    for (const waiter of this.pending.splice(0)) {
      if (!waiter.internal) waiter.reject(error);
    }
  }
}
