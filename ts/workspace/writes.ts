/**
 * Every write a tool makes to a repository goes through here: the path rules (inside a tracked
 * root after resolving links, never `.git/`), the drift guard (`base_sha`, git blob SHA-1), the
 * parse gate (a file must not gain syntax errors), atomic durable writes (temp file, fsync,
 * rename) of every file or none, serialisation of writers to one file, and the index brought up
 * to date before the call returns.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { syntaxCheck } from '../engine/engine';
import { lspPool } from '../lsp/pool';
import { FileLockTimeoutError, withFileLock } from '../support/file-lock';
import { gortexHome } from '../support/home';
import { ToolInputError } from '../support/tool-input-error';
import type { ToolContext } from './context';

/** The git blob SHA-1 of `bytes` (what `git hash-object` prints): the drift guard's token. */
export function blobSha(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A file a write may touch: its repository-relative path and its real path on disk. */
export interface WriteTarget {
  /** Repository-relative, `/`-separated. */
  rel: string;
  /** The real path the bytes go to (links inside the root resolved). */
  abs: string;
  /** Its bytes now, or null when it does not exist yet. */
  current: Buffer | null;
}

/** Largest file the write tools read or write whole. */
export const MAX_WRITE_BYTES = 16 * 1024 * 1024;

/**
 * Resolves `rel` inside the repository for writing. Refuses an empty path, a path that leaves the
 * root (`..`, an absolute path elsewhere, a link whose target is outside: `outside_repo`),
 * anything under `.git/`, and a directory. A missing file is allowed when `create` is set (its
 * nearest existing folder must be inside the root).
 */
export function resolveWritable(root: string, rel: string, options: { create: boolean }): WriteTarget {
  if (rel.trim() === '') throw new ToolInputError('invalid_argument', 'path must not be empty');
  if (rel.includes('\0')) throw new ToolInputError('invalid_argument', 'path must not contain a NUL byte');
  const realRoot = fs.realpathSync(root);
  const inside = (p: string): boolean => p === realRoot || p.startsWith(realRoot + path.sep);
  const absolute = path.resolve(realRoot, rel);
  const outside = (why: string): ToolInputError =>
    new ToolInputError('outside_repo', `${JSON.stringify(rel)} ${why}; only files under ${realRoot} can be written (paths are relative to it)`);
  if (!inside(absolute)) throw outside('is outside the repository');
  // Follow what exists: the file itself, or its nearest existing folder.
  let real: string;
  let missing: string[] = [];
  let probe = absolute;
  for (;;) {
    try {
      real = fs.realpathSync(probe);
      break;
    } catch {
      const parent = path.dirname(probe);
      if (parent === probe) throw outside('has no existing folder');
      missing = [path.basename(probe), ...missing];
      probe = parent;
    }
  }
  if (!inside(real)) throw outside('leads outside the repository through a symbolic link');
  const abs = path.join(real, ...missing);
  const relative = path.relative(realRoot, abs).split(path.sep).join('/');
  if (relative === '' || relative.split('/').includes('.git')) {
    throw new ToolInputError('invalid_argument', `${JSON.stringify(rel)} is inside .git/ (or is the root): gortex never writes there`);
  }
  if (missing.length > 0) {
    if (!options.create) throw new ToolInputError('not_found', `no file ${JSON.stringify(relative)} in the repository; write_file creates files`);
    if (!fs.statSync(real).isDirectory()) throw new ToolInputError('invalid_argument', `${JSON.stringify(path.relative(realRoot, real))} is a file, not a folder`);
    return { rel: relative, abs, current: null };
  }
  const stat = fs.statSync(abs);
  if (!stat.isFile()) throw new ToolInputError('invalid_argument', `${JSON.stringify(relative)} is not a regular file`);
  if (stat.size > MAX_WRITE_BYTES) {
    throw new ToolInputError('invalid_argument', `${JSON.stringify(relative)} is ${stat.size} bytes; the write tools handle files up to ${MAX_WRITE_BYTES} bytes`);
  }
  return { rel: relative, abs, current: fs.readFileSync(abs) };
}

/** Whether bytes look binary (a NUL in the first 8 KiB, as git decides). */
export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Refuses a write when the file drifted from the caller's `base_sha`. */
export function checkBase(target: WriteTarget, baseSha: string | undefined): void {
  if (baseSha === undefined) return;
  const now = target.current === null ? null : blobSha(target.current);
  if (!/^[0-9a-f]{40}$/i.test(baseSha)) {
    throw new ToolInputError('invalid_argument', `base_sha must be a 40-character git blob SHA-1 (the new_sha of the last write, or git hash-object); got ${JSON.stringify(baseSha)}`);
  }
  if (now !== baseSha.toLowerCase()) {
    throw new ToolInputError(
      'conflict',
      now === null
        ? `${target.rel} does not exist, but base_sha ${baseSha} expects it to: it was deleted or moved since`
        : `${target.rel} changed since base_sha ${baseSha}: its sha is now ${now}. Read it again (or use that sha) and redo the edit`,
    );
  }
}

/** One file of a write: where, what it holds now, what it will hold. */
export interface PlannedWrite {
  target: WriteTarget;
  /** The file's new bytes, or null to delete it (a move that empties its file). */
  after: Buffer | null;
}

/** What a committed (or dry-run) write did to one file. */
export interface WrittenFile {
  path: string;
  /** Blob sha before the write (null: the file is created). */
  old_sha: string | null;
  /** Blob sha of the new content: pass it as base_sha to chain the next edit (null: deleted). */
  new_sha: string | null;
  bytes_written: number;
  created: boolean;
  /** The write deleted the file. */
  deleted?: boolean;
}

/** Options every write tool takes. */
export interface CommitOptions {
  dryRun: boolean;
  allowParseErrors: boolean;
}

/**
 * The parse gate: refuses a file whose new content has more syntax errors than its old (or any,
 * when it is created), unless `allow` is set; also refuses content past a per-file limit.
 */
function parseGate(plan: PlannedWrite, allow: boolean): void {
  if (plan.after === null) return;
  const after = syntaxCheck(plan.target.rel, plan.after);
  if (after.language === undefined && after.overLimit === undefined) return;
  const before = plan.target.current === null ? undefined : syntaxCheck(plan.target.rel, plan.target.current);
  if (after.overLimit !== undefined && before?.overLimit === undefined && !allow) {
    throw new ToolInputError('parse_error', `${plan.target.rel} would no longer be indexed: ${after.overLimit}. Pass allow_parse_errors: true to write it anyway`);
  }
  const was = before?.errors ?? 0;
  const now = after.errors ?? 0;
  if (now > was && !allow) {
    throw new ToolInputError(
      'parse_error',
      `the edit would leave ${plan.target.rel} with ${now} syntax error${now === 1 ? '' : 's'} (${after.language}; it had ${was}): nothing was written. ` +
        'Check the brackets and quotes of the new text, or pass allow_parse_errors: true to write it anyway',
    );
  }
}

/** Writers per real path in this process: a write waits for the one before it. */
const fileQueues = new Map<string, Promise<void>>();

/** Runs `fn` holding every path's turn (taken in sorted order, so two multi-file writes cannot deadlock). */
async function holdingFiles<T>(paths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const releases: (() => void)[] = [];
  try {
    for (const p of sorted) {
      const before = fileQueues.get(p) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const chained = before.then(() => mine);
      fileQueues.set(p, chained);
      releases.push(() => {
        release();
        if (fileQueues.get(p) === chained) fileQueues.delete(p);
      });
      await before;
    }
    return await fn();
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** Writes `bytes` to `file` durably: a temp file beside it, fsync, rename, fsync of the folder. */
export function writeDurable(file: string, bytes: Buffer, mode?: number): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.gortex-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = fs.openSync(temp, 'w', mode ?? 0o644);
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (mode !== undefined) fs.chmodSync(temp, mode);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dir);
}

/** Deletes `file` durably (the folder's entry flushed). */
export function removeDurable(file: string): void {
  fs.rmSync(file, { force: true });
  syncDir(path.dirname(file));
}

/** Flushes a folder's entries (a rename or unlink in it survives a crash); best effort where unsupported. */
function syncDir(dir: string): void {
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    /* some file systems cannot fsync a folder; the rename is still atomic */
  }
}

/**
 * Commits planned writes: each file's turn is taken, its bytes are checked against what the plan
 * was made from (a concurrent writer makes it `conflict`), every file passes the parse gate, then
 * all are written (a failure restores the ones already written) and the index is brought up to
 * date. A dry run stops before writing and reports the same files.
 */
export async function commitWrites(ctx: ToolContext, plans: readonly PlannedWrite[], options: CommitOptions): Promise<WrittenFile[]> {
  return holdingFiles(
    plans.map((p) => p.target.abs),
    async () => {
      // Another process (a second embedded server, `gortex call --embedded`, the daemon) writes
      // under the same cross-process locks: the re-check and the write are one step for them too.
      const written = withWriteLocks(plans, () => writeChecked(ctx, plans, options));
      if (!options.dryRun) await syncIndex(ctx, written.map((w) => w.path));
      return written;
    },
  );
}

/** Runs `work` holding the cross-process lock of every file `plans` write (taken in path order). */
function withWriteLocks<T>(plans: readonly PlannedWrite[], work: () => T): T {
  const dir = path.join(gortexHome(), 'locks');
  fs.mkdirSync(dir, { recursive: true });
  const locks = [...new Set(plans.map((p) => p.target.abs))].sort().map((abs) => path.join(dir, createHash('sha1').update(abs).digest('hex')));
  const hold = (i: number): T => (i === locks.length ? work() : withFileLock(locks[i]!, () => hold(i + 1)));
  try {
    return hold(0);
  } catch (error) {
    if (error instanceof FileLockTimeoutError) throw new ToolInputError('busy', `${error.message}; nothing was written`);
    throw error;
  }
}

/** Re-checks each file against the bytes the plan was made from, parse-gates it, and writes all or none. */
function writeChecked(ctx: ToolContext, plans: readonly PlannedWrite[], options: CommitOptions): WrittenFile[] {
  for (const plan of plans) {
    const now = fs.existsSync(plan.target.abs) ? fs.readFileSync(plan.target.abs) : null;
    const same = now === null ? plan.target.current === null : plan.target.current !== null && now.equals(plan.target.current);
    if (!same) {
      throw new ToolInputError(
        'conflict',
        `${plan.target.rel} changed while the edit was prepared (another session or process wrote it): its sha is now ${now === null ? 'none (deleted)' : blobSha(now)}. Read it again and redo the edit`,
      );
    }
    parseGate(plan, options.allowParseErrors);
  }
  const written: WrittenFile[] = plans.map((plan) => ({
    path: plan.target.rel,
    old_sha: plan.target.current === null ? null : blobSha(plan.target.current),
    new_sha: plan.after === null ? null : blobSha(plan.after),
    bytes_written: plan.after?.length ?? 0,
    created: plan.target.current === null,
    ...(plan.after === null ? { deleted: true } : {}),
  }));
  if (options.dryRun) return written;
  faultHoldWrite();
  const done: PlannedWrite[] = [];
  // Several files: a journal of their old bytes first, so a process killed midway is undone
  // when the repository is next opened (`recoverInterruptedWrites`).
  const journal = plans.length > 1 ? writeJournal(ctx.root, plans) : undefined;
  try {
    for (const plan of plans) {
      if (plan.after === null) removeDurable(plan.target.abs);
      else writeDurable(plan.target.abs, plan.after, plan.target.current === null ? undefined : fs.statSync(plan.target.abs).mode & 0o7777);
      done.push(plan);
      if (journal) faultAfterWrite(done.length);
    }
    if (journal) fs.rmSync(journal, { force: true });
  } catch (error) {
    for (const plan of done.reverse()) {
      try {
        if (plan.target.current === null) fs.rmSync(plan.target.abs, { force: true });
        else writeDurable(plan.target.abs, plan.target.current);
      } catch {
        /* best effort: the error below names the write that failed */
      }
    }
    if (journal) fs.rmSync(journal, { force: true });
    throw new ToolInputError('write_failed', `writing ${plans[done.length]?.target.rel ?? 'a file'} failed (${error instanceof Error ? error.message : String(error)}); every file was restored`);
  }
  return written;
}

/**
 * A test hook: `GORTEX_FAULT_HOLD_WRITE_MS=N` pauses a write for N ms after its files were
 * re-checked, holding their locks, so tests can race a second process against it; the file named
 * by `GORTEX_FAULT_HOLD_SIGNAL` is created when the pause starts.
 */
function faultHoldWrite(): void {
  const ms = Number(process.env.GORTEX_FAULT_HOLD_WRITE_MS);
  if (!Number.isInteger(ms) || ms <= 0) return;
  if (process.env.GORTEX_FAULT_HOLD_SIGNAL) fs.writeFileSync(process.env.GORTEX_FAULT_HOLD_SIGNAL, String(process.pid));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Where multi-file writes keep their journals. */
function journalDir(): string {
  return path.join(gortexHome(), 'journal');
}

/** One file of a multi-file write's journal. */
interface JournalFile {
  abs: string;
  rel: string;
  /** Its bytes before the write (base64), or null when the write creates it. */
  before: string | null;
  /** The blob shas the write (or the steps of a batch so far) gave it. */
  after_shas: string[];
}

/** Writes (durably) the journal of a multi-file write and returns its path. */
function writeJournal(root: string, plans: readonly PlannedWrite[]): string {
  const file = path.join(journalDir(), `${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}.json`);
  const files: JournalFile[] = plans.map((p) => ({
    abs: p.target.abs,
    rel: p.target.rel,
    before: p.target.current === null ? null : p.target.current.toString('base64'),
    after_shas: p.after === null ? [] : [blobSha(p.after)],
  }));
  writeDurable(file, Buffer.from(JSON.stringify({ pid: process.pid, root: fs.realpathSync(root), created_at: Date.now(), files })), 0o600);
  return file;
}

/** Whether process `pid` is alive (on this machine). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What recovering one interrupted write did. */
export interface RecoveredWrite {
  journal: string;
  restored: string[];
  /** Files changed since by someone else: left as they are. */
  left: string[];
}

/**
 * Undoes the multi-file writes under `root` whose process died midway (a journal left behind by a
 * process no longer running): each file that holds the write's new bytes, or was created by it,
 * gets its old bytes back; a file changed since by someone else is left alone and named.
 */
export function recoverInterruptedWrites(root: string): RecoveredWrite[] {
  let names: string[];
  try {
    names = fs.readdirSync(journalDir()).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const realRoot = fs.realpathSync(root);
  const recovered: RecoveredWrite[] = [];
  for (const name of names) {
    const file = path.join(journalDir(), name);
    let journal: { pid: number; root: string; files: JournalFile[] };
    try {
      journal = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof journal;
    } catch {
      continue; // being written, or not ours
    }
    if (journal.root !== realRoot || alive(journal.pid)) continue;
    const restored: string[] = [];
    const left: string[] = [];
    for (const f of journal.files) {
      const now = fs.existsSync(f.abs) ? fs.readFileSync(f.abs) : null;
      const before = f.before === null ? null : Buffer.from(f.before, 'base64');
      if (now === null ? before === null : before !== null && now.equals(before)) continue;
      if (now !== null && !f.after_shas.includes(blobSha(now))) {
        left.push(f.rel);
        continue;
      }
      if (before === null) fs.rmSync(f.abs, { force: true });
      else writeDurable(f.abs, before);
      restored.push(f.rel);
    }
    fs.rmSync(file, { force: true });
    recovered.push({ journal: file, restored, left });
  }
  return recovered;
}

/**
 * The journal of a batch of writes made one step at a time (`batch_edit`): each file's bytes
 * before the batch first touched it and every sha a step left it with, saved durably after each
 * change, so that a failed step is rolled back whole and a killed process is undone on the next
 * open (`recoverInterruptedWrites`).
 */
export class BatchJournal {
  private readonly file = path.join(journalDir(), `${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}.json`);
  private readonly files = new Map<string, JournalFile>();
  constructor(private readonly root: string) {}

  /** Notes `target`'s bytes before the batch's first change to it. */
  track(target: WriteTarget): void {
    if (this.files.has(target.abs)) return;
    this.files.set(target.abs, { abs: target.abs, rel: target.rel, before: target.current === null ? null : target.current.toString('base64'), after_shas: [] });
    this.save();
  }

  /** Notes the sha a step left the file at `abs` with. */
  wrote(abs: string, sha: string): void {
    this.files.get(abs)?.after_shas.push(sha);
    this.save();
  }

  /** Puts every tracked file back as it was before the batch; returns their paths. */
  rollback(): string[] {
    const restored: string[] = [];
    for (const f of this.files.values()) {
      if (f.after_shas.length === 0) continue;
      if (f.before === null) fs.rmSync(f.abs, { force: true });
      else writeDurable(f.abs, Buffer.from(f.before, 'base64'));
      restored.push(f.rel);
    }
    return restored;
  }

  /** Ends the batch: its journal is no longer needed. */
  close(): void {
    fs.rmSync(this.file, { force: true });
  }

  private save(): void {
    writeDurable(this.file, Buffer.from(JSON.stringify({ pid: process.pid, root: fs.realpathSync(this.root), created_at: Date.now(), files: [...this.files.values()] })), 0o600);
  }
}

/**
 * A test hook: `GORTEX_FAULT_KILL_AFTER_WRITES=N` kills this process (SIGKILL) once a multi-file
 * write has written N files, so tests can show that nothing is left half-written.
 */
export function faultAfterWrite(written: number): void {
  const after = Number(process.env.GORTEX_FAULT_KILL_AFTER_WRITES);
  if (Number.isInteger(after) && after > 0 && written === after) process.kill(process.pid, 'SIGKILL');
}

/**
 * Brings the index up to date with files just written (or about to be read by span): through the
 * repository's refresh queue when it has one (the change is then logged and announced like a
 * watcher's), else directly.
 */
export async function syncIndex(ctx: ToolContext, paths: readonly string[]): Promise<void> {
  if (ctx.filesChanged) await ctx.filesChanged(paths);
  else ctx.engine.updateFiles(ctx.repo, [...paths]);
  // Language servers holding these files hear the new text now, not at the watcher's next pass.
  lspPool().filesChanged(ctx.root, paths);
}
