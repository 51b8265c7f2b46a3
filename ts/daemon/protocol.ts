/**
 * The daemon's Unix-socket protocol (version 1): newline-delimited JSON. A client opens with one
 * `Handshake` line and gets one `HandshakeAck` line. In `mcp` mode the connection then carries MCP
 * JSON-RPC both ways, one message per line; in `control` mode each `ControlRequest` line gets one
 * `ControlResponse` line, in order. `query` (an engine query tool, as the CLI verbs run it) and `call`
 * (a registry tool, as `gortex call` runs it) let one-shot CLI commands reuse the daemon's warm graph.
 */
import type * as net from 'node:net';

/** The protocol version both sides must speak. */
export const PROTOCOL_VERSION = 1;

/** Longest line either side accepts before the handshake completes (a handshake is small). */
export const MAX_HANDSHAKE_BYTES = 64 * 1024;

/** The first line a client sends. */
export interface Handshake {
  version: number;
  mode: 'mcp' | 'control';
  /** The client's working directory: picks the repository an MCP session is bound to. */
  cwd: string;
  /** Who is calling (`gortex-mcp`, `gortex-cli`, …), for status. */
  client: string;
  pid: number;
  /** The tool spec the client resolved (its `GORTEX_TOOLS`/`--tools`/`mcp.tools`), if any. */
  tools?: string;
  tools_mode?: string;
}

/** Error codes of a refused handshake or a failed control request. */
export type DaemonErrorCode =
  | 'protocol_mismatch'
  | 'unsupported_mode'
  | 'repo_not_tracked'
  | 'bad_request'
  | 'invalid_argument'
  | 'not_found'
  | 'internal'
  | 'shutting_down';

/** The daemon's answer to a handshake. */
export interface HandshakeAck {
  ok: boolean;
  error_code?: DaemonErrorCode;
  error_msg?: string;
  session_id?: string;
  /** The repository root an MCP session is bound to. */
  default_repo?: string;
  /** A session opened at a folder above several tracked repositories spans them: `repos:N` and their names. */
  scope_applied?: string;
  bound_repos?: string[];
  daemon_version: string;
  /** A per-process id: changes when the daemon restarts. */
  daemon_instance: string;
  /** True while the session's repository is still being indexed. */
  warming: boolean;
  warmup_phase?: WarmupPhase;
}

/** How far a tracked repository has come since it was tracked or the daemon started. */
export type WarmupPhase = 'queued' | 'snapshot_loaded' | 'parse' | 'resolve' | 'watcher_started' | 'ready' | 'failed';

/** Control requests. */
export type ControlRequest =
  | { kind: 'track'; params: { path: string; name?: string; project?: string } }
  | { kind: 'untrack'; params: { path_or_name: string } }
  | { kind: 'reload'; params?: Record<string, never> }
  | { kind: 'status'; params?: Record<string, never> }
  | { kind: 'probe'; params?: Record<string, never> }
  | { kind: 'shutdown'; params?: Record<string, never> }
  | { kind: 'call'; params: { cwd?: string; tool: string; args?: Record<string, unknown>; format?: 'json' | 'gcx' } };

/** The kinds a control connection accepts. */
export const CONTROL_KINDS: readonly ControlRequest['kind'][] = ['track', 'untrack', 'reload', 'status', 'probe', 'shutdown', 'call'];

/** One answer on a control connection (`call` answers with `result`: the call pipeline's `CallOutcome`). */
export interface ControlResponse {
  ok: boolean;
  error_code?: DaemonErrorCode | string;
  error_msg?: string;
  result?: unknown;
}

/**
 * Reads one `\n`-terminated line from `socket` (at most `max` bytes) and leaves whatever followed
 * it unread on the socket (unshifted), so the next reader sees the stream from there.
 */
export function readLine(socket: net.Socket, max = MAX_HANDSHAKE_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const at = buffered.indexOf(0x0a);
      if (at < 0) {
        if (buffered.length > max) {
          cleanup();
          reject(new Error(`the first line is longer than ${max} bytes`));
        }
        return;
      }
      cleanup();
      socket.pause();
      const rest = buffered.subarray(at + 1);
      if (rest.length > 0) socket.unshift(rest);
      resolve(buffered.subarray(0, at).toString('utf8'));
    };
    const onEnd = (): void => {
      cleanup();
      reject(new Error('the connection closed before a full line arrived'));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', onError);
    socket.resume();
  });
}

/** Writes one JSON line. */
export function writeLine(socket: net.Socket, value: unknown): void {
  socket.write(`${JSON.stringify(value)}\n`);
}
