/**
 * The language-server pool: one server per (repository, language), started on first use, kept in
 * step with the files (the watcher's changes reach open documents and servers that registered
 * `workspace/didChangeWatchedFiles`), restarted with backoff after a crash (its open documents
 * re-opened, so diagnostics keep flowing), stopped when idle, capped in number and in memory, and
 * shut down with the process. Diagnostics every server publishes are fanned out to subscribers.
 *
 * Tunables: `GORTEX_LSP_MAX_SERVERS` (default 6), `GORTEX_LSP_MAX_RSS_MB` (per server, default
 * 3072), `GORTEX_LSP_IDLE_TTL` (default 10m; a server with subscribers interested in its
 * repository is never idle), `GORTEX_LSP_TIMEOUT` (per request, default 15s).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig, type LspSetting } from '../config/config';
import { parseDuration } from '../support/duration';
import { gortexHome } from '../support/home';
import { LspError, LspServer, pathUri, type Published, type ServerEvents } from './server';
import { resolveServer, SERVER_SPECS, specFor, type ResolvedServer } from './specs';

/** One diagnostics publish as subscribers hear it. */
export interface DiagnosticsEvent {
  root: string;
  server: string;
  published: Published;
  previous: Published | undefined;
}

/** A server started, crashed, was restarted or stopped (for sessions' logs). */
export interface LifecycleEvent {
  root: string;
  server: string;
  event: 'started' | 'crashed' | 'stopped' | 'failed';
  detail: string;
}

/** A server's row in status reports (`index_health`, `lsp_status`). */
export interface ServerStatus {
  server: string;
  root: string;
  state: 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';
  command: string[];
  source: string;
  pid?: number;
  rss_mb?: number;
  uptime_s?: number;
  open_documents: number;
  registrations: string[];
  restarts: number;
  requests: number;
  failures: number;
  last_error?: string;
  server_info?: string;
}

interface Entry {
  key: string;
  root: string;
  resolved: ResolvedServer;
  server?: LspServer;
  starting?: Promise<LspServer>;
  /** Crash times within the window that decides backoff and giving up. */
  crashes: number[];
  restarts: number;
  restartTimer?: NodeJS.Timeout;
  /** Epoch ms before which no restart is tried. */
  retryAt: number;
  lastError?: string;
  /** Documents to re-open after a restart (absolute path → text). */
  reopen: Map<string, string>;
  failedUntil?: number;
}

const CRASH_WINDOW_MS = 10 * 60_000;
const MAX_CRASHES = 5;
const SWEEP_MS = 30_000;
/** Open documents per server before the least recently synced is closed. */
const MAX_OPEN_DOCUMENTS = 200;
/** Changed files one watcher pass opens for diagnostics subscribers. */
const MAX_OPENED_PER_CHANGE = 50;
/** Log file size past which it is rotated. */
const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= min ? n : fallback;
}

/** A duration setting (`10m`, `90s`, `500ms`, seconds), or `fallbackMs` when unset or unreadable. */
function envDuration(name: string, fallbackMs: number): number {
  const raw = process.env[name]?.trim();
  const ms = raw ? parseDuration(raw) : undefined;
  return ms !== undefined && ms > 0 ? ms : fallbackMs;
}

/** The default deadline of one request to a server. */
export function requestDeadlineMs(): number {
  return envDuration('GORTEX_LSP_TIMEOUT', 15_000);
}

/** The pool of running language servers (one per process: `lspPool()`). */
export class LspPool {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: DiagnosticsEvent) => void>();
  private readonly lifecycle = new Set<(event: LifecycleEvent) => void>();
  /** Roots with subscribers: their servers are not idle. */
  private readonly interest = new Map<string, number>();
  /** Files whose server holds a caller's text (an overlay buffer, a fix in progress), not the disk's: their publishes reach no subscriber. */
  private readonly leased = new Set<string>();
  /** Per server: the turn of document-changing sequences (sync, wait, restore). */
  private readonly turns = new WeakMap<LspServer, Promise<void>>();
  private sweeper?: NodeJS.Timeout;
  private log?: fs.WriteStream;
  private closed = false;

  /** The server spec and resolution for a file of `root`, or why none serves it. */
  resolve(root: string, rel: string): ResolvedServer {
    const spec = specFor(rel);
    if (!spec) {
      const known = Object.values(SERVER_SPECS).flatMap((s) => Object.keys(s.languageIds));
      throw new LspError('invalid_argument', `no language server serves ${rel}: gortex runs servers for ${known.join(' ')} files`);
    }
    return resolveServer(spec, settingsOf(root)[spec.name]);
  }

  /** The running (or started now) server for a file of `root`; throws `LspError` when none can run. */
  async serverFor(root: string, rel: string): Promise<LspServer> {
    return this.acquire(root, this.resolve(root, rel));
  }

  /** Every server's status, optionally of one repository. */
  status(root?: string): ServerStatus[] {
    const rows: ServerStatus[] = [];
    for (const e of this.entries.values()) {
      if (root !== undefined && e.root !== root) continue;
      const s = e.server;
      const state: ServerStatus['state'] =
        e.failedUntil !== undefined && e.failedUntil > Date.now() ? 'failed'
        : e.starting ? 'starting'
        : s?.state === 'ready' ? 'ready'
        : e.restartTimer ? 'restarting'
        : s?.state === 'exited' ? 'failed'
        : 'stopped';
      const rss = s?.state === 'ready' ? s.rssBytes() : undefined;
      rows.push({
        server: e.resolved.spec.name,
        root: e.root,
        state,
        command: e.resolved.command,
        source: e.resolved.source,
        ...(s?.pid !== undefined ? { pid: s.pid } : {}),
        ...(rss !== undefined ? { rss_mb: Math.round(rss / 1048576) } : {}),
        ...(s && s.state === 'ready' ? { uptime_s: Math.round((Date.now() - s.startedAt) / 1000) } : {}),
        open_documents: s?.openDocuments().length ?? 0,
        registrations: s ? [...new Set([...s.registrations.values()].map((r) => r.method))].sort() : [],
        restarts: e.restarts,
        requests: s?.requests ?? 0,
        failures: s?.failures ?? 0,
        ...(e.lastError ? { last_error: e.lastError } : {}),
        ...(s?.serverInfo ? { server_info: s.label } : {}),
      });
    }
    return rows.sort((a, b) => a.root.localeCompare(b.root) || a.server.localeCompare(b.server));
  }

  /** For each server spec: whether it would run for `root` (command found, enabled), and the hint when not. */
  availability(root: string): { server: string; available: boolean; command: string[]; source: string; reason?: string }[] {
    const settings = settingsOf(root);
    return Object.values(SERVER_SPECS).map((spec) => {
      const r = resolveServer(spec, settings[spec.name]);
      return { server: spec.name, available: r.executable !== undefined, command: r.command, source: r.source, ...(r.unavailable ? { reason: r.unavailable } : {}) };
    });
  }

  /**
   * The servers for the languages a repository has (indexed language names): each with whether it
   * can run (else why, with the install hint) and, when it has run, its status row.
   */
  report(root: string, languages: readonly string[]): (Omit<Partial<ServerStatus>, 'server' | 'state'> & { server: string; state: ServerStatus['state'] | 'not started'; languages: string[]; available: boolean; reason?: string })[] {
    const wanted = new Map<string, string[]>();
    for (const language of languages) {
      const server = SERVER_OF_LANGUAGE[language];
      if (server) wanted.set(server, [...(wanted.get(server) ?? []), language]);
    }
    const running = new Map(this.status(root).map((row) => [row.server, row]));
    return this.availability(root)
      .filter((a) => wanted.has(a.server))
      .map((a) => ({ state: 'not started' as const, ...running.get(a.server), server: a.server, languages: wanted.get(a.server)!.sort(), available: a.available, command: a.command, source: a.source, ...(a.reason ? { reason: a.reason } : {}) }));
  }

  /** Hears every diagnostics publish; returns the removal. `root` marks the subscriber's interest (servers there are kept). */
  onDiagnostics(listener: (event: DiagnosticsEvent) => void, roots: readonly string[] = []): () => void {
    this.listeners.add(listener);
    for (const r of roots) this.interest.set(r, (this.interest.get(r) ?? 0) + 1);
    return () => {
      if (!this.listeners.delete(listener)) return;
      for (const r of roots) {
        const n = (this.interest.get(r) ?? 1) - 1;
        if (n <= 0) this.interest.delete(r);
        else this.interest.set(r, n);
      }
    };
  }

  /** Hears servers start, crash and stop; returns the removal. */
  onLifecycle(listener: (event: LifecycleEvent) => void): () => void {
    this.lifecycle.add(listener);
    return () => void this.lifecycle.delete(listener);
  }

  private announce(event: LifecycleEvent): void {
    this.writeLog(event.server, event.root, `${event.event}: ${event.detail}`);
    for (const listener of this.lifecycle) listener(event);
  }

  /** Every publish stored by the servers of `root` (latest per file). */
  stored(root: string): { server: string; published: Published }[] {
    const out: { server: string; published: Published }[] = [];
    for (const e of this.entries.values()) {
      if (e.root !== root || !e.server) continue;
      for (const p of e.server.diagnostics.values()) out.push({ server: e.resolved.spec.name, published: p });
    }
    return out;
  }

  /**
   * Brings open documents of `root`'s servers in step with the disk after files changed
   * (repository-relative paths), and tells servers that registered for file events.
   */
  filesChanged(root: string, changed: readonly string[], options: { all?: boolean } = {}): void {
    // Each file is read at most once per pass, and only when a server holds it or a subscriber wants it opened.
    const texts = new Map<string, string | undefined>();
    const textOf = (abs: string): string | undefined => {
      if (!texts.has(abs)) texts.set(abs, readText(abs));
      return texts.get(abs);
    };
    if (this.interest.has(root)) this.openForSubscribers(root, changed, textOf);
    for (const e of this.entries.values()) {
      const server = e.server;
      if (e.root !== root || !server || server.state !== 'ready') continue;
      const watches = server.registered('workspace/didChangeWatchedFiles');
      const events: { uri: string; type: number }[] = [];
      const open = options.all ? server.openDocuments().map((abs) => path.relative(root, abs)) : [];
      for (const rel of new Set([...changed, ...open])) {
        const abs = path.join(root, rel);
        if (server.isOpen(abs)) {
          const text = textOf(abs);
          if (text === undefined) {
            server.close(abs);
            e.reopen.delete(abs);
          } else {
            server.sync(abs, text);
            e.reopen.set(abs, text);
          }
        }
        if (watches) events.push({ uri: pathUri(abs), type: texts.has(abs) ? (texts.get(abs) === undefined ? 3 : 2) : fs.existsSync(abs) ? 2 : 3 });
      }
      if (events.length > 0) server.notify('workspace/didChangeWatchedFiles', { changes: events });
    }
  }

  /**
   * Someone listens for the diagnostics of `root`: changed files a server serves are opened in it
   * (servers publish for open documents), so an edit's diagnostics reach them without a request.
   */
  private openForSubscribers(root: string, rels: readonly string[], textOf: (abs: string) => string | undefined): void {
    for (const rel of rels.slice(0, MAX_OPENED_PER_CHANGE)) {
      const abs = path.join(root, rel);
      let resolved: ResolvedServer;
      try {
        resolved = this.resolve(root, rel);
      } catch {
        continue;
      }
      if (!resolved.executable) continue;
      const text = textOf(abs);
      if (text === undefined) continue;
      this.acquire(root, resolved)
        .then((server) => this.exclusive(server, async () => void this.sync(server, abs, text)))
        .catch((error: unknown) => this.writeLog(resolved.spec.name, root, `cannot open ${rel} for subscribers: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** Opens (or updates) `abs` in its server with `text`, remembering it for restarts; closes the least recent past the cap. */
  sync(server: LspServer, abs: string, text: string): ReturnType<LspServer['sync']> {
    const entry = this.entries.get(keyOf(server.root, server.name));
    const result = server.sync(abs, text);
    if (entry) {
      entry.reopen.delete(abs);
      entry.reopen.set(abs, text);
      while (entry.reopen.size > MAX_OPEN_DOCUMENTS) {
        const oldest = entry.reopen.keys().next().value as string;
        entry.reopen.delete(oldest);
        server.close(oldest);
      }
    }
    return result;
  }

  /** Runs `fn` holding `server`'s turn: no other sequence changes its documents meanwhile. */
  async exclusive<T>(server: LspServer, fn: () => Promise<T>): Promise<T> {
    const before = this.turns.get(server) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const chained = before.then(() => mine);
    this.turns.set(server, chained);
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Runs `fn` with the server holding `text` for `abs` instead of the disk's (inside the caller's
   * turn: call from `exclusive`); afterwards the document is put back as it was (the disk's text,
   * or closed). Publishes meanwhile are the caller's alone.
   */
  async withText<T>(server: LspServer, abs: string, text: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(keyOf(server.root, server.name));
    this.leased.add(abs);
    try {
      server.sync(abs, text);
      return await fn();
    } finally {
      const kept = entry?.reopen.get(abs);
      if (kept !== undefined) server.sync(abs, kept);
      else server.close(abs);
      this.leased.delete(abs);
    }
  }

  /** `withText` over several files at once (each put back afterwards, the last first). */
  async withTexts<T>(server: LspServer, texts: readonly (readonly [string, string])[], fn: () => Promise<T>): Promise<T> {
    if (texts.length === 0) return fn();
    const [[abs, text], ...rest] = texts as [readonly [string, string], ...(readonly [string, string])[]];
    return this.withText(server, abs, text, () => this.withTexts(server, rest, fn));
  }

  /** Stops the servers of one repository (untracked) or all of them. */
  async stop(root?: string): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const [key, e] of this.entries) {
      if (root !== undefined && e.root !== root) continue;
      clearTimeout(e.restartTimer);
      this.entries.delete(key);
      if (e.server) stopping.push(e.server.stop());
    }
    await Promise.all(stopping);
  }

  /** Stops everything and refuses new servers (daemon stop, process exit). */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.stop();
    this.log?.end();
  }

  /** Kills every server at once (the process is exiting and cannot wait). */
  killAll(): void {
    for (const e of this.entries.values()) e.server?.kill();
  }

  private async acquire(root: string, resolved: ResolvedServer): Promise<LspServer> {
    if (this.closed) throw new LspError('unavailable', 'language servers are shutting down with this process');
    if (resolved.unavailable || !resolved.executable) throw new LspError('unavailable', resolved.unavailable ?? `no ${resolved.spec.name} language server`);
    const key = keyOf(root, resolved.spec.name);
    let entry = this.entries.get(key);
    if (entry && (entry.resolved.executable !== resolved.executable || entry.resolved.command.join('\0') !== resolved.command.join('\0'))) {
      // The configuration names another command now: the old server goes.
      await this.stop(root);
      entry = undefined;
    }
    if (!entry) {
      entry = { key, root, resolved, crashes: [], restarts: 0, retryAt: 0, reopen: new Map() };
      this.entries.set(key, entry);
    }
    if (entry.server?.state === 'ready') return entry.server;
    if (entry.starting) return entry.starting;
    if (entry.failedUntil !== undefined && entry.failedUntil > Date.now()) {
      throw new LspError('unavailable', `the ${resolved.spec.name} language server crashed ${MAX_CRASHES} times in ${CRASH_WINDOW_MS / 60_000} minutes; gortex tries again after ${new Date(entry.failedUntil).toISOString()}. Last: ${entry.lastError ?? 'unknown'}`);
    }
    return this.start(entry);
  }

  private start(entry: Entry): Promise<LspServer> {
    clearTimeout(entry.restartTimer);
    entry.restartTimer = undefined;
    this.makeRoom(entry);
    const server = new LspServer(entry.root, entry.resolved, this.events());
    entry.server = server;
    const starting = server.start().then(
      () => {
        entry.starting = undefined;
        for (const [abs, text] of entry.reopen) server.sync(abs, text);
        this.ensureSweeper();
        this.announce({ root: entry.root, server: entry.resolved.spec.name, event: 'started', detail: `${entry.resolved.command.join(' ')} (pid ${server.pid ?? '?'}${entry.restarts > 0 ? `, restart ${entry.restarts}` : ''})` });
        return server;
      },
      async (error: unknown) => {
        entry.starting = undefined;
        const tail = server.stderr().slice(-3).join(' | ');
        entry.lastError = `${error instanceof Error ? error.message : String(error)}${tail ? ` (stderr: ${tail})` : ''}`;
        server.kill();
        this.announce({ root: entry.root, server: entry.resolved.spec.name, event: 'failed', detail: entry.lastError });
        throw error instanceof LspError ? new LspError(error.code, entry.lastError) : new LspError('unavailable', entry.lastError);
      },
    );
    entry.starting = starting;
    return starting;
  }

  /** Past the server cap, the least recently used server stops. */
  private makeRoom(entry: Entry): void {
    const cap = envNumber('GORTEX_LSP_MAX_SERVERS', 6, 1);
    const running = [...this.entries.values()].filter((e) => e !== entry && e.server && e.server.state !== 'stopped' && e.server.state !== 'exited');
    if (running.length < cap) return;
    running.sort((a, b) => a.server!.lastUsed - b.server!.lastUsed);
    const victim = running[0]!;
    this.writeLog(victim.resolved.spec.name, victim.root, `stopped: the pool holds at most ${cap} servers (GORTEX_LSP_MAX_SERVERS)`);
    this.entries.delete(victim.key);
    void victim.server!.stop();
  }

  private events(): ServerEvents {
    return {
      diagnostics: (server, published, previous) => {
        if (this.leased.has(published.file)) return;
        for (const listener of this.listeners) listener({ root: server.root, server: server.name, published, previous });
      },
      exited: (server, reason) => this.exited(server, reason),
      log: (server, line) => this.writeLog(server.name, server.root, line),
    };
  }

  /** A crash: backoff restart (1 s doubling to 30 s) with the open documents re-opened; too many in the window and the server is given up for a while. */
  private exited(server: LspServer, reason: string): void {
    const entry = this.entries.get(keyOf(server.root, server.name));
    if (!entry || entry.server !== server) return;
    if (reason === 'stopped') return;
    const tail = server.stderr().slice(-3).join(' | ');
    entry.lastError = `${reason}${tail ? ` (stderr: ${tail})` : ''}`;
    this.announce({ root: server.root, server: server.name, event: 'crashed', detail: entry.lastError });
    // Subscribers' views of this server's diagnostics are dropped: a restarted server publishes again.
    for (const published of server.diagnostics.values()) {
      const cleared: Published = { file: published.file, diagnostics: [], seq: published.seq, at: Date.now() };
      for (const listener of this.listeners) listener({ root: server.root, server: server.name, published: cleared, previous: published });
    }
    const now = Date.now();
    entry.crashes = [...entry.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (entry.crashes.length >= MAX_CRASHES) {
      entry.failedUntil = now + CRASH_WINDOW_MS;
      return;
    }
    if (this.closed) return;
    const delay = Math.min(30_000, 1000 * 2 ** (entry.crashes.length - 1));
    entry.retryAt = now + delay;
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      if (this.closed || this.entries.get(entry.key) !== entry || entry.starting) return;
      entry.restarts++;
      this.start(entry).catch(() => undefined);
    }, delay);
    entry.restartTimer.unref();
  }

  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Stops idle servers (no use within the TTL and nobody subscribed to their repository) and restarts ones over the memory cap. */
  sweep(): void {
    const idleMs = envDuration('GORTEX_LSP_IDLE_TTL', 10 * 60_000);
    const capBytes = envNumber('GORTEX_LSP_MAX_RSS_MB', 3072, 64) * 1048576;
    for (const [key, e] of this.entries) {
      const s = e.server;
      if (!s || s.state !== 'ready') continue;
      if (!this.interest.has(e.root) && Date.now() - s.lastUsed > idleMs) {
        this.announce({ root: e.root, server: s.name, event: 'stopped', detail: `idle for ${Math.round(idleMs / 1000)} s (GORTEX_LSP_IDLE_TTL)` });
        this.entries.delete(key);
        void s.stop();
        continue;
      }
      const rss = s.rssBytes();
      if (rss !== undefined && rss > capBytes) {
        e.lastError = `killed: resident memory ${Math.round(rss / 1048576)} MB over the ${Math.round(capBytes / 1048576)} MB cap (GORTEX_LSP_MAX_RSS_MB); restarted on next use`;
        this.writeLog(s.name, e.root, e.lastError);
        s.kill(e.lastError);
      }
    }
  }

  private writeLog(server: string, root: string, line: string): void {
    try {
      if (!this.log) {
        const dir = path.join(gortexHome(), 'logs');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, 'lsp.log');
        if (fs.existsSync(file) && fs.statSync(file).size > LOG_ROTATE_BYTES) fs.renameSync(file, `${file}.1`);
        this.log = fs.createWriteStream(file, { flags: 'a' });
        this.log.on('error', () => undefined);
      }
      this.log.write(`${new Date().toISOString()} [${server} ${root}] ${line}\n`);
    } catch {
      /* the log is best effort: a full disk must not stop the servers */
    }
  }
}

/** Which server serves an indexed language (gortex's language names). */
const SERVER_OF_LANGUAGE: Record<string, string> = {
  typescript: 'typescript', tsx: 'typescript', javascript: 'typescript', jsx: 'typescript',
  python: 'python', go: 'go', c: 'cpp', cpp: 'cpp', rust: 'rust', java: 'java',
};

/** A file's text, or undefined when it cannot be read (deleted). */
function readText(abs: string): string | undefined {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

function keyOf(root: string, server: string): string {
  return `${root}\0${server}`;
}

/** `lsp.<name>` settings of both configuration files for `root` (a broken config file: none). */
function settingsOf(root: string): Record<string, LspSetting> {
  try {
    return loadConfig(root).lsp;
  } catch {
    return {};
  }
}

let pool: LspPool | undefined;

/** The process's language-server pool (its servers are killed when the process exits). */
export function lspPool(): LspPool {
  if (!pool) {
    pool = new LspPool();
    const current = pool;
    process.once('exit', () => current.killAll());
  }
  return pool;
}
