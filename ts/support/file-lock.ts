/**
 * A cross-process lock around read-modify-write of the small user-data files in the gortex home
 * (feedback boards, saved scopes, the daemon's tracked repositories): without it, two processes
 * that read the same file and write it back each lose the other's change.
 *
 * The lock is `<file>.lock`, created with O_EXCL and holding its owner's pid, host and a token. A
 * lock is taken over when its owner is gone (same host, pid no longer running) or it is older than
 * `staleMs` (the sections it guards take milliseconds). Waiting is bounded: past `waitMs` the call
 * throws `FileLockTimeoutError` naming the lock file, its owner and how to clear it. Synchronous,
 * like the writes it guards: it sleeps between attempts without spinning.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The lock stayed held by someone else for longer than the wait allowed. */
export class FileLockTimeoutError extends Error {
  override name = 'FileLockTimeoutError';
}

/** Bounds of one acquisition. */
export interface FileLockOptions {
  /** Longest wait for the lock before failing (default 15 s). */
  waitMs?: number;
  /** Age after which a lock whose owner still runs is taken over anyway (default 10 s). */
  staleMs?: number;
}

const WAIT_MS = 15_000;
const STALE_MS = 10_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Runs `work` holding the lock of `file` (`<file>.lock`) and returns what it returns. */
export function withFileLock<T>(file: string, work: () => T, options: FileLockOptions = {}): T {
  const lock = `${file}.lock`;
  const token = acquire(lock, options.waitMs ?? WAIT_MS, options.staleMs ?? STALE_MS);
  try {
    return work();
  } finally {
    // A lock taken over from us (we overran staleMs) is the new owner's: leave it.
    if (readLock(lock) === token) fs.rmSync(lock, { force: true });
  }
}

function acquire(lock: string, waitMs: number, staleMs: number): string {
  const token = `${process.pid} ${os.hostname()} ${randomBytes(6).toString('hex')}\n`;
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lock, token, { flag: 'wx' });
      return token;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        fs.mkdirSync(path.dirname(lock), { recursive: true });
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    const held = readLock(lock);
    if (held === undefined) continue; // released between our attempt and the read
    if (isStale(lock, held, staleMs)) {
      takeOver(lock, held);
      continue;
    }
    if (Date.now() >= deadline) {
      const [pid, host] = held.split(' ');
      throw new FileLockTimeoutError(
        `${lock} has been held by process ${pid || '?'}${host ? ` on ${host}` : ''} for more than ${waitMs} ms; ` +
          `try again, or delete ${lock} if no gortex process is using it`,
      );
    }
    Atomics.wait(pause, 0, 0, Math.min(50, 2 ** Math.min(attempt, 5)) + Math.random() * 5);
  }
}

/** The lock's content, or undefined when there is no lock. */
function readLock(lock: string): string | undefined {
  try {
    return fs.readFileSync(lock, 'utf8');
  } catch {
    return undefined;
  }
}

/** A lock whose owner has exited (on this host), or that is older than `staleMs`. */
function isStale(lock: string, held: string, staleMs: number): boolean {
  const [pid, host] = held.split(' ');
  const owner = Number(pid);
  if (host === os.hostname() && Number.isInteger(owner) && owner > 0 && !running(owner)) return true;
  try {
    return Date.now() - fs.statSync(lock).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the stale lock `held`: renamed aside first, so of several processes taking it over only
 * one removes it, and a fresh lock renamed by mistake (someone took over first) is put back.
 */
function takeOver(lock: string, held: string): void {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return; // someone else moved it first
  }
  if (readLock(aside) !== held) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      /* a new lock is already in place */
    }
  }
  fs.rmSync(aside, { force: true });
}
