/**
 * One running language server: the child process, its JSON-RPC connection (`vscode-jsonrpc` over
 * stdio), the `initialize` handshake, the documents it has open (full-text sync, versions), the
 * diagnostics it last published per file, the capabilities it registered after `initialize`
 * (`client/registerCapability` / `unregisterCapability`), requests with deadlines, and a clean
 * stop. Its stderr goes to the log (`onLog`), never to our stdout. The pool (`pool.ts`) decides
 * when servers start, restart and stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { ResolvedServer } from './specs';
import type { Diagnostic, WorkspaceEdit } from './types';

/** Where a server is in its life. */
export type ServerState = 'starting' | 'ready' | 'exited' | 'stopped';

/** A failure talking to a server: `unavailable` (not running, crashed, refused) or `timeout` (a deadline passed). */
export class LspError extends Error {
  override name = 'LspError';
  constructor(
    readonly code: 'unavailable' | 'timeout' | 'invalid_argument',
    message: string,
  ) {
    super(message);
  }
}

/** The diagnostics a server last published for one file. */
export interface Published {
  /** Absolute path. */
  file: string;
  diagnostics: Diagnostic[];
  /** The document version the server says they are for, when it says. */
  version?: number;
  /** This server's publish counter when they arrived (grows with every publish). */
  seq: number;
  /** Epoch ms of arrival. */
  at: number;
  /** The text they are for: the version's the server named, when gortex still remembers it; else the text held when they arrived. */
  text?: string;
  /** Set when no publish came for the current text and this earlier one is taken to stand, and why. */
  assumed?: string;
}

/** A capability a server registered after `initialize`. */
export interface Registration {
  id: string;
  method: string;
  registerOptions?: unknown;
}

/** What a server tells its owner. */
export interface ServerEvents {
  /** A publish arrived (the previous one for the file is replaced). */
  diagnostics(server: LspServer, published: Published, previous: Published | undefined): void;
  /** The process exited (after `stop`, or on its own: a crash). */
  exited(server: LspServer, reason: string): void;
  /** A line for the log (stderr of the server, its `window/logMessage`, lifecycle). */
  log(server: LspServer, line: string): void;
}

interface OpenDocument {
  languageId: string;
  version: number;
  text: string;
  /** The publish counter when the text last changed: a later publish is for this text. */
  changedAtSeq: number;
  /** The last few versions sent and their texts (a publish names its version). */
  recent: { version: number; text: string }[];
}

/** Versions of a document remembered for matching publishes to texts. */
const RECENT_VERSIONS = 8;

/** How long `initialize` may take before the server is given up on. */
const INITIALIZE_DEADLINE_MS = 60_000;
/** Lines of a server's stderr kept for error messages. */
const STDERR_TAIL = 40;

/** The LSP client capabilities gortex announces. */
function clientCapabilities(): Record<string, unknown> {
  return {
    general: { positionEncodings: ['utf-16'] },
    window: { workDoneProgress: true, showMessage: {} },
    workspace: {
      workspaceFolders: true,
      configuration: true,
      applyEdit: true,
      workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'abort' },
      didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
      didChangeConfiguration: { dynamicRegistration: true },
      executeCommand: { dynamicRegistration: true },
      symbol: { dynamicRegistration: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: true, didSave: true, willSave: false },
      publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true, tagSupport: { valueSet: [1, 2] } },
      codeAction: {
        dynamicRegistration: true,
        isPreferredSupport: true,
        disabledSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit'] },
        codeActionLiteralSupport: {
          codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports', 'source.fixAll'] },
        },
      },
      definition: { dynamicRegistration: true, linkSupport: true },
      references: { dynamicRegistration: true },
      implementation: { dynamicRegistration: true, linkSupport: true },
      callHierarchy: { dynamicRegistration: true },
      hover: { dynamicRegistration: true, contentFormat: ['plaintext', 'markdown'] },
      documentSymbol: { dynamicRegistration: true, hierarchicalDocumentSymbolSupport: true },
    },
  };
}

/**
 * Resident memory of a process and its descendants (typescript-language-server runs tsserver as a
 * child, which holds most of the memory), from `/proc`; undefined where `/proc` cannot tell.
 */
function treeRss(root: number): number | undefined {
  const rssOf = (pid: number): number | undefined => {
    try {
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  };
  const childrenOf = (pid: number): number[] => {
    try {
      return fs
        .readdirSync(`/proc/${pid}/task`)
        .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
        .filter((c) => c !== '')
        .map(Number);
    } catch {
      return [];
    }
  };
  const own = rssOf(root);
  if (own === undefined) return undefined;
  let total = own;
  const seen = new Set([root]);
  const stack = childrenOf(root);
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += rssOf(pid) ?? 0;
    stack.push(...childrenOf(pid));
  }
  return total;
}

/** The absolute path of a `file:` URI as servers write it (undefined for other schemes). */
export function uriPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** The `file:` URI of an absolute path. */
export function pathUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/** A language server process and the protocol state gortex keeps with it. */
export class LspServer {
  state: ServerState = 'starting';
  /** Why gortex killed the process, reported by its exit. */
  private killedFor: string | undefined;
  /** The server's `initialize` answer's capabilities. */
  capabilities: Record<string, unknown> = {};
  serverInfo?: { name: string; version?: string };

  /**
   * The server's name and version as reported (`gopls v0.23.0`), else its command. gopls reports its
   * whole build info as the version: its `Version` field is what is meant.
   */
  get label(): string {
    const info = this.serverInfo;
    if (!info) return this.resolved.command[0]!;
    let version = info.version ?? '';
    if (version.startsWith('{')) {
      try {
        version = String((JSON.parse(version) as { Version?: unknown }).Version ?? '');
      } catch {
        /* not JSON after all: cut below */
      }
    }
    if (version.length > 40) version = `${version.slice(0, 40)}…`;
    return version ? `${info.name} ${version}` : info.name;
  }
  readonly registrations = new Map<string, Registration>();
  readonly diagnostics = new Map<string, Published>();
  readonly startedAt = Date.now();
  lastUsed = Date.now();
  /** Requests answered and failed (deadline or error) over its life. */
  requests = 0;
  failures = 0;
  private readonly documents = new Map<string, OpenDocument>();
  private readonly stderrTail: string[] = [];
  private readonly publishWaiters = new Set<() => void>();
  private seq = 0;
  private proc?: ChildProcess;
  private connection?: MessageConnection;
  /** `workspace/applyEdit` requests a running `workspace/executeCommand` made, collected instead of written. */
  private capture?: WorkspaceEdit[];

  constructor(
    readonly root: string,
    readonly resolved: ResolvedServer,
    private readonly events: ServerEvents,
  ) {}

  /** The server's name (`typescript`, `python`, …). */
  get name(): string {
    return this.resolved.spec.name;
  }

  /** The process id while it runs. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Killed (the signal sent) but its exit not seen yet: still `ready`, yet answering nothing. */
  get dying(): boolean {
    return this.proc?.killed === true;
  }

  /** Resolves once the process has exited (its exit handled), or after `ms` regardless. */
  async untilExited(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.proc && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** The last lines the server wrote to stderr. */
  stderr(): string[] {
    return [...this.stderrTail];
  }

  /** Spawns the process and runs `initialize` / `initialized`; rejects with `LspError` when it cannot. */
  async start(): Promise<void> {
    const exe = this.resolved.executable;
    if (!exe) throw new LspError('unavailable', this.resolved.unavailable ?? `no ${this.name} language server`);
    const proc = spawn(exe, this.resolved.command.slice(1), { cwd: this.root, stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    this.proc = proc;
    const spawned = new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', (error) => reject(new LspError('unavailable', `cannot start ${this.resolved.command.join(' ')}: ${error.message}`)));
    });
    let pending = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) this.stderrLine(line);
    });
    proc.once('exit', (code, signal) => {
      const wasStopping = this.state === 'stopped';
      if (!wasStopping) this.state = 'exited';
      this.connection?.dispose();
      this.connection = undefined;
      this.proc = undefined;
      for (const wake of this.publishWaiters) wake();
      const reason = this.killedFor ?? (signal ? `killed by ${signal}` : `exited with code ${code}`);
      this.killedFor = undefined;
      this.events.exited(this, wasStopping ? 'stopped' : reason);
    });
    // Writing to a process that died is reported by 'exit'; the pipe's own error must not crash us.
    proc.stdin!.on('error', () => undefined);
    await spawned;
    const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    this.connection = connection;
    this.handle(connection);
    connection.listen();
    const init = (await this.request(
      'initialize',
      {
        processId: process.pid,
        clientInfo: { name: 'gortex' },
        rootUri: pathUri(this.root),
        rootPath: this.root,
        workspaceFolders: [{ uri: pathUri(this.root), name: path.basename(this.root) }],
        capabilities: clientCapabilities(),
        initializationOptions: this.resolved.spec.initializationOptions?.(this.root) ?? {},
      },
      INITIALIZE_DEADLINE_MS,
    )) as { capabilities?: Record<string, unknown>; serverInfo?: { name: string; version?: string } };
    this.capabilities = init.capabilities ?? {};
    if (init.serverInfo) this.serverInfo = init.serverInfo;
    await connection.sendNotification('initialized', {});
    if (this.state === 'starting') this.state = 'ready';
  }

  /** Sends a request with a deadline; on expiry it is cancelled (`$/cancelRequest`) and `LspError('timeout')` thrown. */
  async request<T = unknown>(method: string, params: unknown, deadlineMs: number): Promise<T> {
    const connection = this.connection;
    if (!connection) throw new LspError('unavailable', `the ${this.name} language server is not running (${this.state})`);
    this.lastUsed = Date.now();
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancel.cancel();
        reject(new LspError('timeout', `the ${this.name} language server did not answer ${method} within ${deadlineMs} ms`));
      }, deadlineMs);
    });
    try {
      const answer = await Promise.race([connection.sendRequest<T>(method, params, cancel.token), deadline]);
      this.requests++;
      return answer;
    } catch (error) {
      this.failures++;
      if (error instanceof LspError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new LspError('unavailable', `the ${this.name} language server failed ${method}: ${message}`);
    } finally {
      clearTimeout(timer);
      cancel.dispose();
    }
  }

  /** Sends a notification (dropped when the server is not running). */
  notify(method: string, params: unknown): void {
    this.connection?.sendNotification(method, params).catch(() => undefined);
  }

  /** Whether the server offers `method`: in its `initialize` capabilities (`provider` key) or by a live registration. */
  offers(method: string, provider: string): boolean {
    const declared = this.capabilities[provider];
    if (declared !== undefined && declared !== false && declared !== null) return true;
    return this.registered(method);
  }

  /** Whether the server registered `method` after `initialize` (and has not unregistered it). */
  registered(method: string): boolean {
    return [...this.registrations.values()].some((r) => r.method === method);
  }

  /** The language id the server knows `abs` by. */
  languageId(abs: string): string {
    return this.resolved.spec.languageIds[path.extname(abs).toLowerCase()] ?? this.name;
  }

  /** Whether the document is open in the server. */
  isOpen(abs: string): boolean {
    return this.documents.has(abs);
  }

  /** Open documents' paths. */
  openDocuments(): string[] {
    return [...this.documents.keys()];
  }

  /**
   * Makes the server hold `text` for `abs`: `didOpen` the first time, `didChange` (whole text, the
   * version bumped) when it differs. Returns the publish counter before the change: a publish with
   * a higher one may answer it. Unchanged text sends nothing.
   */
  sync(abs: string, text: string): { seq: number; changed: boolean; version: number } {
    this.lastUsed = Date.now();
    const seq = this.seq;
    const doc = this.documents.get(abs);
    const uri = pathUri(abs);
    if (!doc) {
      const opened: OpenDocument = { languageId: this.languageId(abs), version: 1, text, changedAtSeq: seq, recent: [{ version: 1, text }] };
      this.documents.set(abs, opened);
      this.notify('textDocument/didOpen', { textDocument: { uri, languageId: opened.languageId, version: 1, text } });
      return { seq, changed: true, version: 1 };
    }
    if (doc.text === text) return { seq, changed: false, version: doc.version };
    doc.version++;
    doc.text = text;
    doc.changedAtSeq = seq;
    doc.recent.push({ version: doc.version, text });
    if (doc.recent.length > RECENT_VERSIONS) doc.recent.shift();
    this.notify('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
    return { seq, changed: true, version: doc.version };
  }

  /** The publish counter when an open document's text last changed (undefined: not open). */
  changedAtSeq(abs: string): number | undefined {
    return this.documents.get(abs)?.changedAtSeq;
  }

  /**
   * The diagnostics for the text the server holds now: the first publish after its last change,
   * then later ones until none arrives for `settleMs` (servers publish in parts — tsserver's
   * syntax, then semantic diagnostics), all within `deadlineMs`; undefined when none came.
   */
  async settledPublish(abs: string, deadlineMs: number, settleMs: number): Promise<Published | undefined> {
    const end = Date.now() + deadlineMs;
    const since = this.changedAtSeq(abs) ?? this.seq;
    // A server that diagnosed this very text before (the text was put back) may not publish again
    // (clangd skips an unchanged rebuild): that publish stands unless another comes within settleMs.
    // One that never says "still clean" leaves a clean file's last (empty) publish standing.
    const exact = this.publishedForCurrentText(abs);
    const stored = this.diagnostics.get(abs);
    const quiet = this.resolved.spec.quietWhenCleanMs;
    const clean = !exact && quiet !== undefined && stored && stored.diagnostics.length === 0 ? stored : undefined;
    const shortWait = exact ? settleMs : clean ? quiet : undefined;
    let latest =
      (await this.waitForPublish(abs, since, shortWait === undefined ? deadlineMs : Math.min(deadlineMs, shortWait))) ??
      exact ??
      (clean ? { ...clean, assumed: `no publish within ${quiet} ms of the change: ${this.name}'s server publishes only changes, and the file was clean` } : undefined);
    if (latest?.assumed !== undefined) return latest;
    while (latest && settleMs > 0) {
      const left = Math.min(settleMs, end - Date.now());
      if (left <= 0) break;
      const next = await this.waitForPublish(abs, latest.seq, left);
      if (!next) break;
      latest = next;
    }
    return latest;
  }

  /** This server's publish counter now: a publish with a higher one came later. */
  get publishCount(): number {
    return this.seq;
  }

  /** The stored publish when it names the version of a text identical to the one the server holds now. */
  publishedForCurrentText(abs: string): Published | undefined {
    const p = this.diagnostics.get(abs);
    const doc = this.documents.get(abs);
    return p && doc && p.text !== undefined && p.text === doc.text ? p : undefined;
  }

  /** The text the server holds for an open document. */
  text(abs: string): string | undefined {
    return this.documents.get(abs)?.text;
  }

  /** Closes a document (its diagnostics are dropped: servers clear them on close). */
  close(abs: string): void {
    if (!this.documents.delete(abs)) return;
    this.notify('textDocument/didClose', { textDocument: { uri: pathUri(abs) } });
  }

  /**
   * Waits until a publish for `abs` newer than `afterSeq` arrives (for the document's current
   * version when the server says versions), up to `deadlineMs`; the publish, or undefined.
   */
  async waitForPublish(abs: string, afterSeq: number, deadlineMs: number): Promise<Published | undefined> {
    const ready = (): Published | undefined => {
      const p = this.diagnostics.get(abs);
      if (!p || p.seq <= afterSeq) return undefined;
      const doc = this.documents.get(abs);
      if (p.version !== undefined && doc && p.version < doc.version) return undefined;
      return p;
    };
    const end = Date.now() + deadlineMs;
    for (;;) {
      const found = ready();
      if (found || this.state !== 'ready' && this.state !== 'starting') return found;
      const left = end - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.publishWaiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.publishWaiters.add(wake);
      });
    }
  }

  /**
   * Runs `workspace/executeCommand`, collecting the edits the server asks the client to apply
   * (`workspace/applyEdit`) instead of writing them: the caller applies them through gortex's write path.
   */
  async executeCommand(command: { command: string; arguments?: unknown[] }, deadlineMs: number): Promise<WorkspaceEdit[]> {
    const edits: WorkspaceEdit[] = [];
    this.capture = edits;
    try {
      await this.request('workspace/executeCommand', { command: command.command, arguments: command.arguments ?? [] }, deadlineMs);
    } finally {
      this.capture = undefined;
    }
    return edits;
  }

  /** The resident memory of the server and the processes it started, in bytes (Linux `/proc`), when it can be read. */
  rssBytes(): number | undefined {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    return treeRss(pid);
  }

  /** `shutdown` + `exit`, then SIGTERM and SIGKILL if it lingers; resolves when the process is gone. */
  async stop(graceMs = 2000): Promise<void> {
    const proc = this.proc;
    if (this.state === 'stopped' && !proc) return;
    this.state = 'stopped';
    if (!proc) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    if (this.connection) {
      try {
        await this.request('shutdown', null, graceMs);
        this.notify('exit', null);
      } catch {
        /* a server that does not answer shutdown is terminated below */
      }
    }
    const term = setTimeout(() => proc.kill('SIGTERM'), graceMs);
    const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs * 2);
    await gone;
    clearTimeout(term);
    clearTimeout(kill);
  }

  /** Kills the process at once (process exit, memory cap); `reason` is what its exit reports instead of the signal. */
  kill(reason?: string): void {
    if (reason !== undefined && this.proc) this.killedFor = reason;
    this.proc?.kill('SIGKILL');
  }

  private stderrLine(line: string): void {
    if (line.trim() === '') return;
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.events.log(this, line);
  }

  private handle(connection: MessageConnection): void {
    connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics?: Diagnostic[] }) => {
      const file = uriPath(params.uri);
      if (!file) return;
      const version = typeof params.version === 'number' ? params.version : undefined;
      // Without a version a publish answers the text held now (as `waitForPublish` takes it too).
      const doc = this.documents.get(file);
      const text = version === undefined ? doc?.text : doc?.recent.find((r) => r.version === version)?.text;
      const published: Published = {
        file,
        diagnostics: Array.isArray(params.diagnostics) ? params.diagnostics : [],
        ...(version !== undefined ? { version } : {}),
        seq: ++this.seq,
        at: Date.now(),
        ...(text !== undefined ? { text } : {}),
      };
      const previous = this.diagnostics.get(file);
      this.diagnostics.set(file, published);
      for (const wake of [...this.publishWaiters]) wake();
      this.events.diagnostics(this, published, previous);
    });
    connection.onNotification('window/logMessage', (params: { type?: number; message?: string }) => {
      // Errors and warnings only: servers log every request at info level.
      if ((params.type ?? 4) <= 2) this.events.log(this, `log: ${params.message ?? ''}`);
    });
    connection.onNotification('window/showMessage', (params: { message?: string }) => this.events.log(this, `message: ${params.message ?? ''}`));
    connection.onRequest('client/registerCapability', (params: { registrations?: Registration[] }) => {
      for (const r of params.registrations ?? []) this.registrations.set(r.id, r);
      return null;
    });
    connection.onRequest('client/unregisterCapability', (params: { unregisterations?: { id: string }[]; unregistrations?: { id: string }[] }) => {
      // The protocol spells it `unregisterations`; accept the corrected spelling too.
      for (const r of params.unregisterations ?? params.unregistrations ?? []) this.registrations.delete(r.id);
      return null;
    });
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathUri(this.root), name: path.basename(this.root) }]);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('window/showDocument', () => ({ success: false }));
    connection.onRequest('workspace/applyEdit', (params: { edit?: WorkspaceEdit }): { applied: boolean; failureReason?: string } => {
      if (this.capture && params.edit) {
        this.capture.push(params.edit);
        return { applied: true };
      }
      return { applied: false, failureReason: 'gortex applies edits only through apply_code_action' };
    });
    // Progress and telemetry are not needed; unknown requests get the library's MethodNotFound.
    connection.onNotification('$/progress', () => undefined);
    connection.onNotification('telemetry/event', () => undefined);
    connection.onError(([error]) => this.events.log(this, `protocol error: ${error.message}`));
  }
}
