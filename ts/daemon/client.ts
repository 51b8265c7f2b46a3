/**
 * Talking to the daemon: connecting with a handshake, control requests, and autostart — exactly one
 * daemon even when many clients start at once (the first to create the spawn lock spawns it; the
 * others wait for its socket).
 *
 * Autostart (`ensureDaemon`): probe the socket; otherwise the first client to create
 * `daemon.spawn.lock` (O_EXCL) spawns `daemon start --serve-only` detached (cwd = the gortex home,
 * output to `daemon.log`) and every client waits for the socket. A lock whose owner is dead or
 * older than 60 s is taken over. If no daemon comes up the client serves embedded and says why;
 * `GORTEX_AUTOSTART=0` turns autostart off.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { packageRoot } from '../support/package-root';
import { processAlive, socketAnswers } from './daemon';
import type { DaemonPaths } from './paths';
import { PROTOCOL_VERSION, readLine, writeLine, type ControlRequest, type ControlResponse, type Handshake, type HandshakeAck } from './protocol';

/** No daemon answers (and none could be started, when autostart was tried). */
export class DaemonUnavailableError extends Error {
  override name = 'DaemonUnavailableError';
}

/** The daemon answered the handshake with an error. */
export class HandshakeError extends Error {
  override name = 'HandshakeError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** How long a client waits for a spawned daemon's socket (`GORTEX_DAEMON_START_TIMEOUT` ms). */
function startTimeoutMs(): number {
  const text = process.env.GORTEX_DAEMON_START_TIMEOUT;
  const ms = text === undefined ? NaN : Number(text);
  return Number.isFinite(ms) && ms > 0 ? ms : 30_000;
}

/** `daemon start` flag: serve the recorded repositories (and clients' folders), not the working directory (autostart, restart). */
export const SERVE_ONLY_FLAG = '--serve-only';

/** A spawn lock older than this is a crashed spawner's. */
const STALE_LOCK_MS = 60_000;

/** Opens a connection, sends the handshake and reads the ack; the socket is positioned after the ack. */
export async function connectDaemon(
  paths: DaemonPaths,
  handshake: Omit<Handshake, 'version' | 'pid'>,
): Promise<{ socket: net.Socket; ack: HandshakeAck }> {
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(paths.socket);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new DaemonUnavailableError(`no gortex daemon is running (socket ${paths.socket}); gortex daemon start starts one`)
          : error,
      );
    });
  });
  writeLine(socket, { version: PROTOCOL_VERSION, pid: process.pid, ...handshake } satisfies Handshake);
  let ack: HandshakeAck;
  try {
    ack = JSON.parse(await readLine(socket, 16 * 1024 * 1024)) as HandshakeAck;
  } catch (error) {
    socket.destroy();
    throw new DaemonUnavailableError(`the daemon on ${paths.socket} did not answer the handshake: ${(error as Error).message}`);
  }
  if (!ack.ok) {
    socket.destroy();
    throw new HandshakeError(ack.error_code ?? 'internal', ack.error_msg ?? 'the daemon refused the connection');
  }
  return { socket, ack };
}

/** Sends one control request and returns the daemon's answer (throws `DaemonUnavailableError` when none runs). */
export async function controlRequest(paths: DaemonPaths, request: ControlRequest): Promise<ControlResponse> {
  const { socket } = await connectDaemon(paths, { mode: 'control', cwd: process.cwd(), client: 'gortex-cli' });
  try {
    writeLine(socket, request);
    return JSON.parse(await readLine(socket, 256 * 1024 * 1024)) as ControlResponse;
  } finally {
    socket.end();
  }
}

/** The command that runs a daemon in the foreground (this package's CLI under this Node). */
function daemonCommand(extraArgs: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(packageRoot(), 'bin', 'run.js'), 'daemon', 'start', ...extraArgs] };
}

/**
 * Spawns a detached daemon whose output goes to the log file, and waits until its socket answers.
 * Returns the child's pid. Throws `DaemonUnavailableError` with the log's tail when it never comes up.
 */
export async function spawnDaemon(paths: DaemonPaths, extraArgs: readonly string[] = []): Promise<number> {
  fs.mkdirSync(paths.home, { recursive: true });
  const logFd = fs.openSync(paths.log, 'a');
  const { command, args } = daemonCommand(extraArgs);
  // A daemon that only serves the recorded repositories runs from the gortex home, so it never pins a client's folder.
  const cwd = extraArgs.includes(SERVE_ONLY_FLAG) ? paths.home : process.cwd();
  const child = spawn(command, args, { detached: true, stdio: ['ignore', logFd, logFd], cwd, env: process.env });
  fs.closeSync(logFd);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  const deadline = Date.now() + startTimeoutMs();
  while (Date.now() < deadline) {
    if (await socketAnswers(paths.socket, 500)) return child.pid ?? 0;
    if (exited !== undefined) break;
    await sleep(50);
  }
  throw new DaemonUnavailableError(
    exited !== undefined
      ? `the daemon exited (code ${exited}) before listening; log ${paths.log}:\n${logTail(paths.log, 10)}`
      : `the daemon did not listen on ${paths.socket} within ${startTimeoutMs()} ms; log ${paths.log}`,
  );
}

/**
 * Makes sure a daemon answers: connects if one runs; otherwise spawns one unless
 * `GORTEX_AUTOSTART=0`. Concurrent callers spawn exactly one: whoever creates the spawn lock
 * spawns, the rest wait for the socket. Returns false when autostart is off and none runs.
 */
export async function ensureDaemon(paths: DaemonPaths, log: (message: string) => void): Promise<boolean> {
  if (await socketAnswers(paths.socket)) return true;
  if (process.env.GORTEX_AUTOSTART === '0') return false;
  fs.mkdirSync(paths.home, { recursive: true });
  const deadline = Date.now() + startTimeoutMs();
  while (Date.now() < deadline) {
    let lock: number | undefined;
    try {
      lock = fs.openSync(paths.spawnLock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lock !== undefined) {
      try {
        fs.writeSync(lock, `${process.pid}\n`);
        // Someone may have finished spawning between our probe and the lock.
        if (await socketAnswers(paths.socket)) return true;
        log(`starting the gortex daemon (log: ${paths.log})`);
        await spawnDaemon(paths, [SERVE_ONLY_FLAG]);
        return true;
      } finally {
        fs.closeSync(lock);
        fs.rmSync(paths.spawnLock, { force: true });
      }
    }
    // Another client is spawning: wait for its daemon, or take over a crashed spawner's lock.
    if (await socketAnswers(paths.socket, 500)) return true;
    if (lockIsStale(paths.spawnLock)) fs.rmSync(paths.spawnLock, { force: true });
    await sleep(50);
  }
  throw new DaemonUnavailableError(`no daemon came up on ${paths.socket} within ${startTimeoutMs()} ms; see ${paths.log}`);
}

function lockIsStale(lockFile: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) return true;
    return Date.now() - fs.statSync(lockFile).mtimeMs > STALE_LOCK_MS;
  } catch {
    return false;
  }
}

/** The last `lines` lines of a text file ('' when unreadable). */
export function logTail(file: string, lines: number): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const all = text.split('\n');
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
