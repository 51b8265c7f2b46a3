/**
 * The daemon: one process holding every tracked repository warm, serving MCP sessions and control
 * requests on a Unix socket (see `protocol.ts`), and optionally the HTTP surface. Many editor
 * windows and agents share its graphs; its watchers keep them following the disk.
 *
 * Process model: the daemon holds one `Engine` per tracked repository (`RepoSet`, `repos.ts`),
 * each opened from its snapshot and watched. MCP sessions (socket or HTTP `/mcp`) are SDK
 * `Server`s created per connection (`createMcpServer`) over a `ResourceHost` — the repository the
 * client's working directory belongs to (a folder above several tracked repositories binds them
 * all); HTTP sessions get the daemon's default repository — and the daemon's `Workspace`; each
 * session has its own `CallPipeline`. Closing the socket drops the session and closes its server.
 *
 * The CLI through the daemon: `gortex call` and every verb send `call` control requests, answered
 * by one `CallPipeline` shared by all of them (`ts/calls/pipeline.ts`), so one-shot commands
 * reuse the warm graph; `--embedded` skips the daemon. A `call` without a working directory (one
 * routed here from another daemon, see `roster.ts`) is answered by the default repository.
 */
import type { PushSources } from '../workspace/channels';
import { lspPool } from '../lsp/pool';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as readline from 'node:readline';
import { CallPipeline, type CallFormat } from '../calls/pipeline';
import { createMcpServer } from '../mcp/server';
import { serveOverStreams, type McpServer } from '../mcp/streams';
import { packageVersion } from '../support/package-root';
import type { DaemonPaths } from './paths';
import {
  CONTROL_KINDS,
  PROTOCOL_VERSION,
  readLine,
  writeLine,
  type ControlRequest,
  type ControlResponse,
  type DaemonErrorCode,
  type Handshake,
  type HandshakeAck,
} from './protocol';
import type { Workspace } from '../workspace/workspace';
import { daemonWorkspace } from './workspace';
import { readRoster, rosterFile, Router } from './roster';
import { NotTrackedError, RepoSet, TrackConflictError, type TrackedRepo } from './repos';
import { MemoryGuard } from './memory-guard';

/** How a daemon runs. */
export interface DaemonOptions {
  paths: DaemonPaths;
  log: (message: string) => void;
  /** The default tool spec for MCP sessions whose client sent none (`daemon start --tools`). */
  tools?: string;
  toolsMode?: string;
  /** Track the repository containing this folder at start (the folder `daemon start` ran in). */
  trackCwd?: string;
  /** Full re-scan interval of every tracked repository (ms); `GORTEX_RECONCILE_INTERVAL`. */
  reconcileMs?: number;
  /** Starts the HTTP surface over the daemon's repositories, if asked for; returns its URL and closer. */
  startHttp?: (daemon: Daemon) => Promise<{ url: string; close(): Promise<void> }>;
}

/** Another daemon already answers on the socket. */
export class DaemonRunningError extends Error {
  override name = 'DaemonRunningError';
}

/** One connected MCP session. */
interface Session {
  id: string;
  client: string;
  pid: number;
  cwd: string;
  repo: TrackedRepo;
  startedAt: number;
  server: McpServer;
  socket: net.Socket;
}

/** Whether something accepts connections on `socketPath` (within `timeoutMs`). */
export function socketAnswers(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A running daemon. */
export class Daemon {
  readonly instance = randomUUID();
  readonly startedAt = Date.now();
  readonly repos: RepoSet;
  /** What every session's multi-repo tools work on. */
  readonly workspace: Workspace;
  /** What every session's push channels follow: the tracked repositories' phases and rebuilds. */
  readonly push: PushSources;
  private readonly sessions = new Map<string, Session>();
  private readonly controls = new Set<net.Socket>();
  private server: net.Server | undefined;
  private http: { url: string; close(): Promise<void> } | undefined;
  private stopping: Promise<void> | undefined;
  /** Other gortex servers tool calls may be routed to (`servers.toml`, read at start). */
  private router: Router | undefined;
  /** Keeps resident memory under `GORTEX_MAX_MEMORY` / `daemon.max_memory`. */
  private readonly memory: MemoryGuard;
  /** One-shot CLI requests answered (`query`, `call`), for status. */
  private readonly served = { call: 0 };
  /** Answers `gortex call` and the CLI verbs (one gate for every CLI request). */
  private cliPipeline: CallPipeline | undefined;
  /** The repository tracked from the folder the daemon started in, if any. */
  private primaryRoot: string | undefined;
  private resolveStopped!: () => void;
  /** Settles when the daemon has shut down. */
  readonly stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));

  constructor(private readonly options: DaemonOptions) {
    this.repos = new RepoSet(options.paths.repos, {
      log: options.log,
      ...(options.reconcileMs !== undefined ? { reconcileMs: options.reconcileMs } : {}),
      admit: (root, name) => this.memory.admit(root, name),
    });
    this.memory = new MemoryGuard(this.repos, { log: options.log });
    this.workspace = daemonWorkspace(this.repos, options.paths.home);
    this.push = this.repos.pushSources();
  }

  /** The roster router (undefined before start). */
  get roster(): Router | undefined {
    return this.router;
  }

  /** The tool surface `daemon start --tools/--tools-mode` gives sessions whose client chose none (socket and `/mcp`). */
  get sessionTools(): { tools?: string; toolsMode?: string } {
    return {
      ...(this.options.tools !== undefined ? { tools: this.options.tools } : {}),
      ...(this.options.toolsMode !== undefined ? { toolsMode: this.options.toolsMode } : {}),
    };
  }

  /** The HTTP surface's URL, when one is up. */
  get httpUrl(): string | undefined {
    return this.http?.url;
  }

  /** Binds the socket (cleaning up a stale one), writes the pid file, restores the tracked repositories. */
  async start(): Promise<void> {
    const { paths, log } = this.options;
    fs.mkdirSync(paths.home, { recursive: true });
    if (fs.existsSync(paths.socket)) {
      if (await socketAnswers(paths.socket)) {
        throw new DaemonRunningError(`a gortex daemon already answers on ${paths.socket} (pid ${readPid(paths.pid) ?? 'unknown'}); gortex daemon stop stops it`);
      }
      // Nobody answers: a daemon that died without cleaning up.
      log(`removing the stale socket ${paths.socket}`);
      fs.rmSync(paths.socket, { force: true });
    }
    // A broken roster stops the start here, before anything listens.
    this.router = new Router(readRoster(rosterFile(paths.home)), paths.socket);
    const server = net.createServer((socket) => void this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(paths.socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    // The socket gives whoever reaches it the user's files: keep it the user's alone.
    fs.chmodSync(paths.socket, 0o600);
    fs.writeFileSync(paths.pid, `${process.pid}\n`);
    // Tracked repositories are admitted one by one (each tree walked off the event loop, the
    // socket already answering) and opened in the background.
    await this.repos.restore();
    this.memory.start();
    if (this.options.trackCwd !== undefined) {
      try {
        // Only a git work tree: a daemon started from a home folder must not index all of it.
        const { resolveRepoRoot } = await import('../support/repo-root');
        const root = resolveRepoRoot(this.options.trackCwd);
        if (fs.existsSync(`${root}/.git`)) this.primaryRoot = (await this.repos.track(root)).entry.root;
      } catch (error) {
        log(`not tracking ${this.options.trackCwd}: ${(error as Error).message}`);
      }
    }
    if (this.options.startHttp) this.http = await this.options.startHttp(this);
    log(`daemon ${packageVersion()} (pid ${process.pid}) listening on ${paths.socket}${this.http ? ` and ${this.http.url}` : ''}`);
  }

  private async accept(socket: net.Socket): Promise<void> {
    // A client that vanishes mid-write must not take the daemon down.
    socket.on('error', () => undefined);
    let handshake: Handshake;
    try {
      handshake = JSON.parse(await readLine(socket)) as Handshake;
    } catch (error) {
      this.refuse(socket, 'bad_request', `the first line must be a JSON handshake: ${(error as Error).message}`);
      return;
    }
    if (handshake.version !== PROTOCOL_VERSION) {
      this.refuse(socket, 'protocol_mismatch', `this daemon speaks protocol ${PROTOCOL_VERSION}, the client ${JSON.stringify(handshake.version)}; restart the daemon (gortex daemon restart) after upgrading`);
      return;
    }
    if (this.stopping) {
      this.refuse(socket, 'shutting_down', 'the daemon is shutting down');
      return;
    }
    if (handshake.mode === 'control') return this.serveControl(socket);
    if (handshake.mode === 'mcp') return this.serveMcp(socket, handshake);
    this.refuse(socket, 'unsupported_mode', `mode must be "mcp" or "control", got ${JSON.stringify(handshake.mode)}`);
  }

  private ack(fields: Partial<HandshakeAck> & { ok: boolean }): HandshakeAck {
    return { daemon_version: packageVersion(), daemon_instance: this.instance, warming: false, ...fields };
  }

  private refuse(socket: net.Socket, code: DaemonErrorCode, message: string): void {
    socket.end(`${JSON.stringify(this.ack({ ok: false, error_code: code, error_msg: message }))}\n`);
  }

  private async serveMcp(socket: net.Socket, handshake: Handshake): Promise<void> {
    let tracked: TrackedRepo;
    let bound: TrackedRepo[] = [];
    try {
      // At a folder above several tracked repositories the session spans them all.
      bound = await this.repos.under(handshake.cwd);
      tracked = bound[0] ?? (await this.repos.forClient(handshake.cwd));
    } catch (error) {
      this.refuse(socket, 'repo_not_tracked', `cannot serve ${handshake.cwd}: ${(error as Error).message}`);
      return;
    }
    const id = randomUUID();
    // The client's own tool choice, never the daemon's environment, decides its surface.
    const router = this.router;
    let sessionWorkspace: string | undefined;
    if (router?.active) {
      const { loadConfig } = await import('../config/config');
      try {
        sessionWorkspace = loadConfig(tracked.entry.root).workspace;
      } catch {
        /* a broken .gortex.yaml was reported when the repository was opened; route by the call alone */
      }
    }
    const server = createMcpServer(tracked, {
      env: {},
      workspace: this.workspace,
      push: this.push,
      ...(bound.length > 1 ? { boundRepos: bound.map((r) => r.entry.name) } : {}),
      ...(router?.active
        ? {
            route: async (name: string, args: Record<string, unknown>, workspace: string | undefined, format: CallFormat) => {
              const target = router.route(workspace ?? sessionWorkspace);
              return target ? router.forward(target, name, args, format) : undefined;
            },
          }
        : {}),
      ...(handshake.tools !== undefined ? { tools: handshake.tools } : this.options.tools !== undefined ? { tools: this.options.tools } : {}),
      ...(handshake.tools_mode !== undefined ? { toolsMode: handshake.tools_mode } : this.options.toolsMode !== undefined ? { toolsMode: this.options.toolsMode } : {}),
    });
    writeLine(
      socket,
      this.ack({
        ok: true,
        session_id: id,
        default_repo: tracked.entry.root,
        ...(bound.length > 1 ? { scope_applied: `repos:${bound.length}`, bound_repos: bound.map((r) => r.entry.name) } : {}),
        warming: tracked.warming,
        warmup_phase: tracked.phase,
      }),
    );
    const session: Session = {
      id,
      client: String(handshake.client ?? 'unknown'),
      pid: Number(handshake.pid) || 0,
      cwd: handshake.cwd,
      repo: tracked,
      startedAt: Date.now(),
      server,
      socket,
    };
    this.sessions.set(id, session);
    socket.once('close', () => {
      this.sessions.delete(id);
      void server.close().catch(() => undefined);
    });
    // readLine paused the socket after the handshake; the transport resumes it and reads from
    // here on, answering malformed or oversized messages and logging them here.
    await serveOverStreams(server, socket, socket, { log: (message) => this.options.log(`mcp session ${id}: ${message}`) });
  }

  private serveControl(socket: net.Socket): void {
    this.controls.add(socket);
    socket.once('close', () => this.controls.delete(socket));
    writeLine(socket, this.ack({ ok: true }));
    const lines = readline.createInterface({ input: socket, crlfDelay: Infinity });
    // Requests are answered in order: each waits for the previous answer.
    let queue = Promise.resolve();
    lines.on('line', (line) => {
      queue = queue.then(async () => {
        const response = await this.control(line);
        if (!socket.destroyed) writeLine(socket, response);
        if (response.ok && (JSON.parse(line) as ControlRequest).kind === 'shutdown') void this.shutdown('a shutdown request');
      });
    });
  }

  /** Answers one control line. */
  private async control(line: string): Promise<ControlResponse> {
    let request: ControlRequest;
    try {
      request = JSON.parse(line) as ControlRequest;
    } catch (error) {
      return { ok: false, error_code: 'bad_request', error_msg: `not JSON: ${(error as Error).message}` };
    }
    if (!CONTROL_KINDS.includes(request.kind)) {
      return { ok: false, error_code: 'bad_request', error_msg: `unknown control kind ${JSON.stringify(request.kind)}; kinds: ${CONTROL_KINDS.join(', ')}` };
    }
    try {
      switch (request.kind) {
        case 'probe':
          return { ok: true, result: this.probe() };
        case 'status':
          return { ok: true, result: this.status() };
        case 'track': {
          const params = request.params ?? ({} as { path?: string });
          if (typeof params.path !== 'string' || params.path === '') {
            return { ok: false, error_code: 'invalid_argument', error_msg: 'track needs params.path (a folder inside the repository)' };
          }
          const tracked = await this.repos.track(params.path, {
            ...(typeof params.name === 'string' ? { name: params.name } : {}),
            ...(typeof params.project === 'string' ? { project: params.project } : {}),
          });
          // Answer when the repository is ready, so the caller's next query sees it.
          await tracked.ready.catch(() => undefined);
          return tracked.phase === 'failed'
            ? { ok: false, error_code: 'internal', error_msg: `cannot index ${tracked.entry.root}: ${tracked.error}` }
            : { ok: true, result: tracked.info() };
        }
        case 'untrack': {
          const target = request.params?.path_or_name;
          if (typeof target !== 'string' || target === '') {
            return { ok: false, error_code: 'invalid_argument', error_msg: 'untrack needs params.path_or_name' };
          }
          return { ok: true, result: { untracked: this.repos.untrack(target) } };
        }
        case 'reload': {
          const passes = await Promise.all(
            this.repos.all().map(async (tracked) => {
              const report = await (await tracked.ready).reindex();
              return { name: tracked.entry.name, root: tracked.entry.root, mode: report?.mode ?? null, files_parsed: report?.files.parsed ?? 0 };
            }),
          );
          return { ok: true, result: { repos: passes } };
        }
        case 'shutdown':
          return { ok: true, result: { pid: process.pid } };
        case 'call': {
          const params = request.params ?? ({} as { cwd?: string; tool?: string; args?: unknown; format?: unknown });
          if (
            (params.cwd !== undefined && typeof params.cwd !== 'string') ||
            typeof params.tool !== 'string' ||
            (params.args !== undefined && (typeof params.args !== 'object' || params.args === null)) ||
            (params.format !== undefined && params.format !== 'json' && params.format !== 'gcx')
          ) {
            return { ok: false, error_code: 'invalid_argument', error_msg: `call needs params.tool, optionally params.args (an object), params.format (json or gcx) and params.cwd` };
          }
          // Without a working directory (a call routed here from another daemon) the default repository answers.
          const tracked = params.cwd !== undefined ? await this.repos.forClient(params.cwd) : this.defaultRepo();
          if (!tracked) return { ok: false, error_code: 'repo_not_tracked', error_msg: 'this daemon tracks no repository (gortex track PATH adds one)' };
          this.served.call++;
          this.cliPipeline ??= new CallPipeline();
          const outcome = await this.cliPipeline.call(
            { tool: params.tool, args: params.args ?? {}, ...(params.format ? { format: params.format } : {}) },
            { context: () => tracked.context(), workspace: this.workspace },
          );
          return { ok: true, result: outcome };
        }
      }
    } catch (error) {
      if (error instanceof NotTrackedError) return { ok: false, error_code: 'not_found', error_msg: error.message };
      if (error instanceof TrackConflictError || (error as Error).name === 'UsageError') return { ok: false, error_code: 'invalid_argument', error_msg: (error as Error).message };
      return { ok: false, error_code: 'internal', error_msg: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * The repository sessions without a working directory (HTTP MCP clients) are served: the one
   * tracked from the daemon's starting folder, else the first tracked.
   */
  defaultRepo(): TrackedRepo | undefined {
    return (this.primaryRoot !== undefined ? this.repos.find(this.primaryRoot) : undefined) ?? this.repos.all()[0];
  }

  /** Cheap liveness facts; reads no graph. */
  probe(): Record<string, unknown> {
    const repos = this.repos.all();
    return {
      version: packageVersion(),
      instance: this.instance,
      pid: process.pid,
      uptime_s: Math.round((Date.now() - this.startedAt) / 1000),
      ready: repos.every((r) => !r.warming),
      repos: repos.map((r) => ({ ...r.entry, phase: r.phase })),
      sessions: this.sessions.size,
    };
  }

  /** Everything `gortex daemon status` shows. */
  status(): Record<string, unknown> {
    const memory = process.memoryUsage();
    return {
      ...this.probe(),
      socket: this.options.paths.socket,
      started_at: new Date(this.startedAt).toISOString(),
      http: this.http ? { url: this.http.url } : null,
      cli_requests: { ...this.served },
      roster: this.router?.summary() ?? [],
      memory: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed, external_bytes: memory.external, ceiling: this.memory.status() },
      repos: this.repos.all().map((r) => r.info()),
      session_list: [...this.sessions.values()].map((s) => ({
        id: s.id,
        client: s.client,
        pid: s.pid,
        cwd: s.cwd,
        repo: s.repo.entry.root,
        started_at: new Date(s.startedAt).toISOString(),
      })),
    };
  }

  /**
   * Graceful stop: refuse new connections, end the sessions, let index refreshes under way finish
   * (their snapshots are written), close the HTTP surface, remove the socket and pid file.
   */
  shutdown(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      const { paths, log } = this.options;
      log(`shutting down (${reason})`);
      this.memory.stop();
      this.server?.close();
      for (const session of this.sessions.values()) {
        session.socket.end();
        await session.server.close().catch(() => undefined);
      }
      await this.http?.close().catch((error: unknown) => log(`closing HTTP: ${(error as Error).message}`));
      await this.repos.close();
      await lspPool().shutdown();
      for (const socket of this.controls) socket.end();
      // Only a daemon that bound the socket owns it (a refused start must not remove another's).
      if (this.server) fs.rmSync(paths.socket, { force: true });
      if (readPid(paths.pid) === process.pid) fs.rmSync(paths.pid, { force: true });
      log('stopped');
      this.resolveStopped();
    })();
    return this.stopping;
  }
}

/** The pid in a pid file, if it holds one. */
export function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` is alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
