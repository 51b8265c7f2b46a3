// `npm run bench:daemon`: what the shared daemon's doors cost, how fast its watcher makes an edit
// queryable, and how much memory it holds. One run, the baseline beside ours:
//
//   1. Transport overhead. A private daemon (its own GORTEX_HOME and socket, `--http-addr
//      127.0.0.1:0`) tracks a corpus (default ts-full = TypeScript 4.8.4). A seeded set of tool calls
//      (search_symbols on names from the graph; get_callers, find_usages, get_symbol_source on ids
//      picked with search_symbols; get_file_summary on sampled files) is timed (a) in-process
//      through the call pipeline on an embedded repository opened in this process (what the
//      daemon's tools/call runs, minus the transport), (b) over the Unix socket with a raw NDJSON
//      MCP client (handshake, initialize, tools/call lines correlated by id), (c) over HTTP
//      `POST /v1/tools/{name}` with a keep-alive agent (and with fetch), idle (one client,
//      sequential, the doors taking turns pass by pass) and with 32 concurrent clients (each its
//      own socket / keep-alive agent). Once more through the `gortex mcp` stdio proxy with the SDK
//      client. To show where the time goes: the same MCP server in-process fed JSON lines (the
//      MCP layer without I/O), and round trips to a bare Node echo process (the transport floor).
//   2. Watcher latency. A new uniquely named function is appended to real files of the tracked
//      corpus; write→queryable is timed polling search_symbols over the socket (an agent asking
//      right away) and passively (the graph_change event on /v1/events, debounce included); the
//      re-index wall time comes from the pass report carried by that event, and the same refresh
//      is timed in-process afterwards for its phases. Then storms: 500 files appended to at once.
//      Every file is restored afterwards.
//   3. Memory: the daemon's RSS (`daemon status` memory.rss_bytes) with 0..3 tracked corpora, after
//      their lazy symbol indexes, and after 32 MCP sessions: first tracking (cold indexes), then
//      after a restart (from snapshots).
//
// The tracked corpus is a private copy (`cp -a`) of the cached one, so an interrupted run can never
// leave an edited file in the shared cache. Writes the "Daemon" section of BENCHMARKS.md plus raw
// JSON under benches/results/.
//
//   node dist/benches/daemon-bench.js [--corpus ts-full|ts-src|rxjs|k8s|django|x-tools] [--seed N]
//        [--passes N] [--clients N] [--per-client N] [--edits N] [--storm N]
//        [--memory-corpora rxjs,ts-full,django] [--settle-ms MS] [--out BENCHMARKS.md]
//        [--from-json benches/results/X.json]
//
// Timing is only ever reported here, never asserted in tests.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Engine, type NodeJson } from '../ts/engine/engine';
import { controlRequest } from '../ts/daemon/client';
import { daemonPaths, type DaemonPaths } from '../ts/daemon/paths';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { createMcpServer } from '../ts/mcp/server';
import { SessionStore } from '../ts/workspace/session-store';
import { CallPipeline, type Caller as PipelineCaller } from '../ts/calls/pipeline';
import { sessionSurface } from '../ts/calls/session';
import { Args, benchMain, fetchCorpora, listFiles, prng, probeSource, ROOT, sample, type Json } from './common';

/** Corpus key → the fetch-corpora.sh source that provides it. */
const SOURCES: Record<string, string> = { 'ts-full': 'ts', 'ts-src': 'ts', rxjs: 'rxjs', k8s: 'k8s', django: 'django', 'x-tools': 'x-tools' };

interface Options {
  corpus: string;
  seed: number;
  passes: number;
  clients: number;
  perClient: number;
  edits: number;
  storm: number;
  memoryCorpora: string[];
  settleMs: number;
  out: string;
  fromJson?: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    corpus: 'ts-full',
    seed: 42,
    passes: 5,
    clients: 32,
    perClient: 100,
    edits: 10,
    storm: 500,
    memoryCorpora: ['rxjs', 'ts-full', 'django'],
    settleMs: 1500,
    out: path.join(ROOT, 'BENCHMARKS.md'),
  };
  const args = new Args(argv);
  for (const a of args) {
    const value = (): string => args.value(a);
    const int = (): number => args.int(a);
    if (a === '--corpus') {
      o.corpus = value();
      if (!SOURCES[o.corpus]) throw new Error(`unknown corpus ${o.corpus} (known: ${Object.keys(SOURCES).join(', ')})`);
    } else if (a === '--seed') o.seed = int();
    else if (a === '--passes') o.passes = Math.max(1, int());
    else if (a === '--clients') o.clients = Math.max(1, int());
    else if (a === '--per-client') o.perClient = Math.max(1, int());
    else if (a === '--edits') o.edits = int();
    else if (a === '--storm') o.storm = int();
    else if (a === '--memory-corpora') {
      o.memoryCorpora = value().split(',').filter(Boolean);
      for (const c of o.memoryCorpora) if (!SOURCES[c]) throw new Error(`unknown corpus ${c} (known: ${Object.keys(SOURCES).join(', ')})`);
    } else if (a === '--settle-ms') o.settleMs = int();
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--from-json') o.fromJson = path.resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const log = (msg: string): void => void process.stderr.write(`bench:daemon: ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));


function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

function stats(times: number[]): { n: number; p50: number; p95: number; p99: number; max: number; mean: number } {
  const s = [...times].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : NaN,
    mean: s.length ? s.reduce((x, y) => x + y, 0) / s.length : NaN,
  };
}

// ---------------------------------------------------------------------------------------------
// Processes: the CLI, the private daemon world

/** Runs the built CLI (`bin/run.js`) and resolves with its exit code and output. */
function cli(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A private daemon world: home, socket, environment. */
interface World {
  home: string;
  socketDir: string;
  env: NodeJS.ProcessEnv;
  paths: DaemonPaths;
}

function makeWorld(): World {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-daemon-'));
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gx-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GORTEX_HOME: home,
    GORTEX_DAEMON_SOCKET: path.join(socketDir, 'd.sock'),
    // No hourly full re-scan in the middle of a measurement.
    GORTEX_RECONCILE_INTERVAL: 'off',
  };
  for (const k of ['NODE_ENV', 'XDG_RUNTIME_DIR', 'GORTEX_AUTOSTART', 'GORTEX_TOOLS', 'GORTEX_TOOLS_MODE', 'GORTEX_DAEMON_HTTP_ADDR', 'GORTEX_DAEMON_HTTP_TOKEN']) delete env[k];
  return { home, socketDir, env, paths: daemonPaths(env) };
}

/** The daemon's `status` answer (what `gortex daemon status --json` prints). */
async function daemonStatus(w: World): Promise<Json> {
  const answer = await controlRequest(w.paths, { kind: 'status' });
  if (!answer.ok) throw new Error(`daemon status failed: ${answer.error_code}: ${answer.error_msg}`);
  return answer.result as Json;
}

/** Starts a detached daemon in `w` (cwd: its home, which is no git work tree, so nothing is tracked). */
async function startDaemon(w: World, extra: string[]): Promise<Json> {
  const r = await cli(['daemon', 'start', '--detach', ...extra], w.env, w.home);
  if (r.code !== 0) throw new Error(`daemon start failed (${r.code}): ${r.stderr}${r.stdout}`);
  log(r.stdout.trim());
  return daemonStatus(w);
}

async function trackCorpus(w: World, root: string, name: string): Promise<Json> {
  const t = performance.now();
  const r = await cli(['track', root, '--name', name, '--json'], w.env, w.home);
  if (r.code !== 0) throw new Error(`track ${root} failed (${r.code}): ${r.stderr}${r.stdout}`);
  const info = JSON.parse(r.stdout) as Json;
  log(`tracked ${name}: ${info.files} files, ${info.nodes} nodes, ready in ${((performance.now() - t) / 1000).toFixed(1)} s (${info.opened?.mode})`);
  return info;
}

async function stopDaemon(w: World): Promise<void> {
  let pid: number | undefined;
  try {
    pid = Number(fs.readFileSync(w.paths.pid, 'utf8').trim()) || undefined;
  } catch {
    pid = undefined;
  }
  const r = await cli(['daemon', 'stop'], w.env, w.home);
  log(`daemon stop: ${r.stdout.trim() || r.stderr.trim()}`);
  // The daemon this bench started, by its own pid, should the stop have failed.
  if (pid !== undefined) {
    try {
      process.kill(pid, 0);
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

function daemonLogText(w: World): string {
  try {
    return fs.readFileSync(w.paths.log, 'utf8');
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------
// Clients

/** One timed call. */
interface Timed {
  ms: number;
  ok: boolean;
  bytes: number;
  text?: string;
}

/** A raw NDJSON MCP client on the daemon socket: handshake, initialize, tools/call lines by id. */
class SocketClient {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, { start: number; resolve: (t: Timed) => void; keepText: boolean }>();
  private nextId = 1;
  private ackWaiter: ((line: string) => void) | undefined;
  private failed: Error | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the daemon closed the session')));
  }

  /** Connects, handshakes (bound to the repository at `cwd`, full tool surface) and initializes. */
  static async open(socketPath: string, cwd: string, client = 'gortex-bench'): Promise<SocketClient> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(socketPath);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
    });
    const c = new SocketClient(socket);
    const ackLine = new Promise<string>((resolve) => (c.ackWaiter = resolve));
    socket.write(`${JSON.stringify({ version: 1, mode: 'mcp', cwd, client, pid: process.pid, tools: 'full' })}\n`);
    const ack = JSON.parse(await ackLine) as Json;
    if (!ack.ok) throw new Error(`the daemon refused the session: ${ack.error_code}: ${ack.error_msg}`);
    const init = await c.request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: client, version: '1.0.0' } }, true);
    if (!init.ok) throw new Error(`initialize failed: ${init.text}`);
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return c;
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const [, p] of this.pending) p.resolve({ ms: performance.now() - p.start, ok: false, bytes: 0, text: error.message });
    this.pending.clear();
  }

  private onData(chunk: Buffer): void {
    const end = performance.now();
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at: number;
    while ((at = this.buffer.indexOf(0x0a)) >= 0) {
      const line = this.buffer.subarray(0, at).toString('utf8');
      this.buffer = this.buffer.subarray(at + 1);
      if (this.ackWaiter) {
        const w = this.ackWaiter;
        this.ackWaiter = undefined;
        w(line);
        continue;
      }
      const message = JSON.parse(line) as Json;
      if (typeof message.id !== 'number') continue; // notifications (tools/list_changed, …)
      const p = this.pending.get(message.id);
      if (!p) continue;
      this.pending.delete(message.id);
      const result = message.result as Json | undefined;
      const ok = message.error === undefined && result?.isError !== true;
      const text: string | undefined = result?.content?.[0]?.text ?? (message.error ? JSON.stringify(message.error) : undefined);
      p.resolve({ ms: end - p.start, ok, bytes: line.length, ...(p.keepText || !ok ? { text } : {}) });
    }
  }

  private request(method: string, params: Json, keepText = false): Promise<Timed> {
    if (this.failed) return Promise.resolve({ ms: 0, ok: false, bytes: 0, text: this.failed.message });
    const id = this.nextId++;
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    return new Promise((resolve) => {
      const start = performance.now();
      this.pending.set(id, { start, resolve, keepText });
      this.socket.write(line);
    });
  }

  call(name: string, args: Json, keepText = false): Promise<Timed> {
    return this.request('tools/call', { name, arguments: { ...args, format: 'json' } }, keepText);
  }

  /** MCP `ping`: a round trip through the session with no tool behind it. */
  ping(): Promise<Timed> {
    return this.request('ping', {});
  }

  close(): void {
    this.failed ??= new Error('closed');
    this.socket.end();
  }
}

/** `POST /v1/tools/{name}` through one keep-alive agent of its own. */
class HttpClient {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;
  constructor(url: string) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
  }
  call(name: string, args: Json, keepText = false): Promise<Timed> {
    const body = JSON.stringify({ ...args, format: 'json' });
    return new Promise((resolve) => {
      const start = performance.now();
      const req = http.request(
        {
          agent: this.agent,
          host: this.host,
          port: this.port,
          method: 'POST',
          path: `/v1/tools/${name}`,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const end = performance.now();
            const text = Buffer.concat(chunks).toString('utf8');
            const ok = res.statusCode === 200;
            resolve({ ms: end - start, ok, bytes: text.length, ...(keepText || !ok ? { text } : {}) });
          });
        },
      );
      req.on('error', (error) => resolve({ ms: performance.now() - start, ok: false, bytes: 0, text: error.message }));
      req.end(body);
    });
  }
  close(): void {
    this.agent.destroy();
  }
}

/** The same call with `fetch` (Node's built-in client, keep-alive by default). */
async function fetchCall(url: string, name: string, args: Json): Promise<Timed> {
  const body = JSON.stringify({ ...args, format: 'json' });
  const start = performance.now();
  try {
    const res = await fetch(`${url}/v1/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    const end = performance.now();
    return { ms: end - start, ok: res.status === 200, bytes: text.length, ...(res.status === 200 ? {} : { text }) };
  } catch (error) {
    return { ms: performance.now() - start, ok: false, bytes: 0, text: (error as Error).message };
  }
}

/** The in-process baseline: the call pipeline on an embedded repository, as tools/call runs it. */
function inProcess(repo: EmbeddedRepo): (name: string, args: Json, keepText?: boolean) => Promise<Timed> {
  const pipeline = new CallPipeline();
  const session = sessionSurface({ explicit: { spec: 'full', source: 'bench' }, clientName: () => undefined, store: new SessionStore(), onListChanged: () => undefined });
  const caller: PipelineCaller = { context: () => repo.context(), session };
  return async (name, args, keepText = false) => {
    const start = performance.now();
    const outcome = await pipeline.call({ tool: name, args: { ...args, format: 'json' } }, caller);
    const ms = performance.now() - start;
    const text = outcome.ok ? outcome.text : `${outcome.code}: ${outcome.message}`;
    return { ms, ok: outcome.ok, bytes: text.length, ...(keepText || !outcome.ok ? { text } : {}) };
  };
}

/**
 * The daemon's MCP server (`createMcpServer`, the SDK `Server`) in this process over a transport
 * that only passes JSON lines: the protocol layer's cost (JSON-RPC framing, request validation,
 * handler dispatch) without any I/O, to split the socket's overhead into MCP work and IPC.
 */
class MemoryMcpClient implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly pending = new Map<number, { start: number; resolve: (t: Timed) => void; keepText: boolean }>();
  private nextId = 1;

  static async open(repo: EmbeddedRepo): Promise<MemoryMcpClient> {
    const c = new MemoryMcpClient();
    await createMcpServer(repo, { tools: 'full', env: {} }).connect(c);
    const init = await c.request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'gortex-bench', version: '1.0.0' } }, true);
    if (!init.ok) throw new Error(`initialize failed: ${init.text}`);
    c.onmessage?.(JSON.parse(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })) as JSONRPCMessage);
    return c;
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  /** The server's answer: one line, as stdio would carry it. */
  async send(message: JSONRPCMessage): Promise<void> {
    const line = JSON.stringify(message);
    const end = performance.now();
    const parsed = JSON.parse(line) as Json;
    const p = typeof parsed.id === 'number' ? this.pending.get(parsed.id) : undefined;
    if (!p) return;
    this.pending.delete(parsed.id);
    const result = parsed.result as Json | undefined;
    const ok = parsed.error === undefined && result?.isError !== true;
    const text: string | undefined = result?.content?.[0]?.text ?? (parsed.error ? JSON.stringify(parsed.error) : undefined);
    p.resolve({ ms: end - p.start, ok, bytes: line.length, ...(p.keepText || !ok ? { text } : {}) });
  }

  private request(method: string, params: Json, keepText = false): Promise<Timed> {
    const id = this.nextId++;
    const line = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve) => {
      const start = performance.now();
      this.pending.set(id, { start, resolve, keepText });
      this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
    });
  }

  call(name: string, args: Json, keepText = false): Promise<Timed> {
    return this.request('tools/call', { name, arguments: { ...args, format: 'json' } }, keepText);
  }
}

/** /v1/events: graph_change events as they arrive, with their arrival time. */
class EventStream {
  readonly events: { at: number; data: Json }[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];
  private req: http.ClientRequest | undefined;

  static open(url: string): Promise<EventStream> {
    const s = new EventStream();
    return new Promise((resolve, reject) => {
      s.req = http.get(`${url}/v1/events`, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`/v1/events answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => s.onData(chunk));
        resolve(s);
      });
      s.req.on('error', reject);
    });
  }

  private onData(chunk: string): void {
    const at = performance.now();
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block);
      if (/^event: graph_change$/m.test(block) && data) this.events.push({ at, data: JSON.parse(data[1]!) as Json });
    }
    for (const w of this.waiters.splice(0)) w();
  }

  /** The first event after index `from` that `match` accepts; rejects after `timeoutMs`. */
  async waitFor(from: number, match: (data: Json) => boolean, timeoutMs: number): Promise<{ at: number; data: Json }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find((e) => match(e.data));
      if (found) return found;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no matching graph_change event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.req?.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Part 1: transport overhead

interface Case {
  tool: string;
  args: Json;
}

type Caller = (name: string, args: Json, keepText?: boolean) => Promise<Timed>;

/** The seeded call set: names and files from the graph, ids picked through search_symbols. */
async function buildCases(repo: EmbeddedRepo, files: readonly string[], baseline: Caller, rand: () => number): Promise<Case[]> {
  const ctx = await repo.context();
  const symbols: NodeJson[] = [];
  const indexed: string[] = [];
  for (const file of sample(files, 1500, rand)) {
    try {
      const found = ctx.engine.fileSymbols(ctx.repo, file).filter((n) => n.kind !== 'file' && n.kind !== 'import');
      indexed.push(file);
      symbols.push(...found);
    } catch {
      /* not indexed (excluded directory, too large, generated) */
    }
  }
  const named = symbols.filter((s) => s.name.length >= 4 && /^[A-Za-z_$][\w$]*$/.test(s.name));
  const callables = named.filter((s) => s.kind === 'function' || s.kind === 'method');
  const cases: Case[] = [];
  for (const s of sample(named, 100, rand)) cases.push({ tool: 'search_symbols', args: { query: s.name, limit: 20 } });
  /** The id search_symbols gives for a symbol's name (the row with that exact name and path). */
  const pickIds = async (from: NodeJson[], n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (const s of sample(from, n * 3, rand)) {
      const t = await baseline('search_symbols', { query: s.name, limit: 20 }, true);
      if (!t.ok || !t.text) continue;
      const rows = (JSON.parse(t.text) as Json).results as Json[];
      const hit = rows.find((r) => r.name === s.name && r.path === s.path) ?? rows.find((r) => r.name === s.name);
      if (hit && typeof hit.id === 'string' && !ids.includes(hit.id)) ids.push(hit.id);
      if (ids.length >= n) break;
    }
    return ids;
  };
  for (const id of await pickIds(callables, 50)) cases.push({ tool: 'get_callers', args: { id } });
  for (const id of await pickIds(named, 50)) cases.push({ tool: 'find_usages', args: { id } });
  for (const id of await pickIds(named, 50)) cases.push({ tool: 'get_symbol_source', args: { id } });
  for (const f of sample(indexed, 50, rand)) cases.push({ tool: 'get_file_summary', args: { path: f } });
  // Keep only calls that answer in-process: a transport must not be charged for a bad input.
  const good: Case[] = [];
  for (const c of cases) if ((await baseline(c.tool, c.args)).ok) good.push(c);
  return sample(good, good.length, rand);
}

interface Door {
  key: string;
  label: string;
  call: Caller;
}

/** Each call's median over the passes (`times` holds the passes one after another, calls in order). */
function perCall(times: number[], calls: number): number[] {
  const passes = Math.floor(times.length / calls);
  return Array.from({ length: calls }, (_, i) => stats(Array.from({ length: passes }, (_, p) => times[p * calls + i]!)).p50);
}

type IdleResult = { times: number[]; errors: number; bytes: number[]; byTool: Map<string, number[]>; errorText?: string };

/**
 * Idle: one client, sequential. Each pass runs the whole call list through one door after the
 * other, the door order rotating from pass to pass, so drift and one door's garbage do not land on
 * another door's calls. An unmeasured first pass warms every lazy index, JIT and connection.
 */
async function idle(doors: Door[], cases: Case[], passes: number): Promise<Map<string, IdleResult>> {
  const out = new Map<string, IdleResult>();
  for (const d of doors) out.set(d.key, { times: [], errors: 0, bytes: [], byTool: new Map() });
  for (let pass = -1; pass < passes; pass++) {
    for (let k = 0; k < doors.length; k++) {
      const d = doors[(k + Math.max(pass, 0)) % doors.length]!;
      const e = out.get(d.key)!;
      for (const c of cases) {
        const t = await d.call(c.tool, c.args);
        if (pass < 0) continue;
        e.times.push(t.ms);
        e.bytes.push(t.bytes);
        if (!t.ok) {
          e.errors++;
          e.errorText ??= `${c.tool}: ${t.text?.slice(0, 200)}`;
        }
        const per = e.byTool.get(c.tool) ?? [];
        per.push(t.ms);
        e.byTool.set(c.tool, per);
      }
    }
  }
  return out;
}

/** `clients` concurrent loops, each with its own caller, `perClient` calls each. */
async function concurrent(makeCaller: (i: number) => Caller, clients: number, cases: Case[], perClient: number): Promise<{ times: number[]; errors: number; wallMs: number; errorText?: string }> {
  const callers = Array.from({ length: clients }, (_, i) => makeCaller(i));
  // Warm each connection with one call before the clock starts.
  await Promise.all(callers.map((call, i) => call(cases[i % cases.length]!.tool, cases[i % cases.length]!.args)));
  const times: number[] = [];
  let errors = 0;
  let errorText: string | undefined;
  const start = performance.now();
  await Promise.all(
    callers.map(async (call, i) => {
      for (let t = 0; t < perClient; t++) {
        const c = cases[(i * 7 + t) % cases.length]!;
        const r = await call(c.tool, c.args);
        times.push(r.ms);
        if (!r.ok) {
          errors++;
          errorText ??= `${c.tool}: ${r.text?.slice(0, 200)}`;
        }
      }
    }),
  );
  return { times, errors, wallMs: performance.now() - start, ...(errorText ? { errorText } : {}) };
}

/** The same calls through `gortex mcp` (stdio proxy to the daemon) with the MCP SDK client. */
async function viaProxy(w: World, root: string, cases: Case[]): Promise<{ times: number[]; errors: number; errorText?: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'bin', 'run.js'), 'mcp', '--repo', root, '--tools', 'full'],
    env: w.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'gortex-bench-proxy', version: '1.0.0' });
  await client.connect(transport);
  const times: number[] = [];
  let errors = 0;
  let errorText: string | undefined;
  try {
    for (let pass = -1; pass < 1; pass++) {
      for (const c of pass < 0 ? cases.slice(0, 30) : cases) {
        const start = performance.now();
        let ok = true;
        try {
          const r = (await client.callTool({ name: c.tool, arguments: { ...c.args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
          if (r.isError) {
            ok = false;
            errorText ??= `${c.tool}: ${r.content[0]?.text.slice(0, 200)}`;
          }
        } catch (error) {
          ok = false;
          errorText ??= `${c.tool}: ${(error as Error).message}`;
        }
        const ms = performance.now() - start;
        if (pass < 0) continue;
        times.push(ms);
        if (!ok) errors++;
      }
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  return { times, errors, ...(errorText ? { errorText } : {}) };
}

/** A second Node process answering each line / POST with a fixed reply: the transports' own floor. */
const ECHO_SERVER = `
const net = require('node:net'), http = require('node:http');
const reply = 'x'.repeat(Number(process.env.REPLY_BYTES)) + '\\n';
const unix = net.createServer((c) => {
  let b = '';
  c.on('data', (d) => { b += d; let i; while ((i = b.indexOf('\\n')) >= 0) { b = b.slice(i + 1); c.write(reply); } });
});
const web = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(reply); }); });
unix.listen(process.env.ECHO_SOCKET, () => web.listen(0, '127.0.0.1', () => process.stdout.write(web.address().port + '\\n')));
`;

/**
 * The floor under the doors: round trips to a bare Node echo process (Unix socket line in, line out;
 * HTTP POST with a keep-alive agent) carrying lines of the doors' median sizes.
 */
async function transportFloor(requestBytes: number, replyBytes: number, n: number): Promise<Json> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gx-echo-'));
  const socketPath = path.join(dir, 'e.sock');
  const child = spawn(process.execPath, ['-e', ECHO_SERVER], { env: { ...process.env, REPLY_BYTES: String(replyBytes), ECHO_SOCKET: socketPath }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the echo server exited (${code})`)));
    });
    const line = `${'y'.repeat(Math.max(1, requestBytes))}\n`;
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(socketPath, () => resolve(s));
      s.once('error', reject);
    });
    socket.setNoDelay(true);
    let buffered = '';
    let waiter: (() => void) | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      buffered += d;
      if (buffered.includes('\n')) {
        buffered = buffered.slice(buffered.indexOf('\n') + 1);
        waiter?.();
      }
    });
    const unixTimes: number[] = [];
    for (let i = -200; i < n; i++) {
      const start = performance.now();
      await new Promise<void>((resolve) => {
        waiter = resolve;
        socket.write(line);
      });
      if (i >= 0) unixTimes.push(performance.now() - start);
    }
    socket.destroy();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = line.trim();
    const httpTimes: number[] = [];
    for (let i = -200; i < n; i++) {
      const start = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ agent, host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', reject);
        req.end(body);
      });
      if (i >= 0) httpTimes.push(performance.now() - start);
    }
    agent.destroy();
    return { request_bytes: requestBytes, reply_bytes: replyBytes, unix: stats(unixTimes), http: stats(httpTimes) };
  } finally {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** 1-minute load average (other work on the machine inflates every number here). */
const load1 = (): number => Math.round(os.loadavg()[0]! * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Part 2: watcher latency

interface Found {
  found: boolean;
  ms: number;
}

async function searchFor(client: SocketClient, name: string): Promise<Found> {
  const t = await client.call('search_symbols', { query: name, limit: 5 }, true);
  if (!t.ok || !t.text) throw new Error(`search_symbols failed while polling: ${t.text}`);
  const rows = (JSON.parse(t.text) as Json).results as Json[];
  return { found: rows.some((r) => r.name === name), ms: t.ms };
}

/** Polls search_symbols over the socket (2 ms apart) until `name` is (or is no longer) found. */
async function pollUntil(client: SocketClient, name: string, want: boolean, timeoutMs = 120_000): Promise<{ polls: number }> {
  const deadline = performance.now() + timeoutMs;
  let polls = 0;
  for (;;) {
    polls++;
    if ((await searchFor(client, name)).found === want) return { polls };
    if (performance.now() > deadline) throw new Error(`${name} was ${want ? 'never found' : 'never gone'} within ${timeoutMs} ms`);
    await sleep(2);
  }
}

/**
 * Storm files whose new function no search found: each indexed alone (its appended text in a
 * scratch repository, a fresh engine) tells a file whose own syntax swallows the function (an
 * unterminated construct at its end) from a change the daemon missed.
 */
async function notExtractedAlone(missing: { file: string; name: string; appended: string }[]): Promise<Json[]> {
  if (missing.length === 0) return [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-alone-'));
  try {
    for (const m of missing) {
      fs.mkdirSync(path.dirname(path.join(scratch, 'repo', m.file)), { recursive: true });
      fs.writeFileSync(path.join(scratch, 'repo', m.file), m.appended);
    }
    const engine = new Engine({ home: path.join(scratch, 'home') });
    const report = await engine.indexRepo(path.join(scratch, 'repo'));
    return missing.map((m) => {
      let alone: boolean | null = null;
      try {
        alone = engine.fileSymbols(report.repo, m.file).some((n) => n.name === m.name);
      } catch {
        alone = null; // not indexed alone either
      }
      return { file: m.file, name: m.name, extracted_alone: alone };
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function watcherPart(o: Options, w: World, root: string, url: string, editFiles: string[], stormFiles: string[]): Promise<Json> {
  const client = await SocketClient.open(w.paths.socket, root);
  const events = await EventStream.open(url);
  const originals = new Map<string, Buffer>();
  const restoreAll = (): void => {
    for (const [file, bytes] of originals) fs.writeFileSync(path.join(root, file), bytes);
  };
  const tag = `${o.seed.toString(36)}${Date.now().toString(36).slice(-4)}`;
  const pollFiles = editFiles.slice(0, o.edits);
  const passiveFiles = editFiles.slice(o.edits, o.edits * 2);
  const rel = (f: string): string => f.split(path.sep).join('/');
  const edits: Json[] = [];
  try {
    // Polling: the agent asks right away (a pending debounce is cut short by the query itself).
    for (let i = 0; i < pollFiles.length; i++) {
      const file = pollFiles[i]!;
      const name = `gortexBenchProbe${tag}p${i}`;
      const abs = path.join(root, file);
      originals.set(file, fs.readFileSync(abs));
      const from = events.events.length;
      const t0 = performance.now();
      fs.appendFileSync(abs, probeSource(file, name));
      const { polls } = await pollUntil(client, name, true);
      const ms = performance.now() - t0;
      const ev = await events.waitFor(from, (d) => (d.files as string[]).includes(rel(file)) && d.nodes_added > 0, 10_000).catch(() => undefined);
      edits.push({ mode: 'poll', file, ms, polls, reindex_ms: ev?.data.duration_ms ?? null, files_parsed: ev?.data.files_parsed ?? null });
      log(`edit ${file}: queryable after ${ms.toFixed(0)} ms (${polls} polls; re-index ${ev?.data.duration_ms ?? '?'} ms)`);
      fs.writeFileSync(abs, originals.get(file)!);
      await pollUntil(client, name, false);
      await sleep(o.settleMs);
    }
    // Passive: nobody asks; the watcher's debounce and pass alone, seen on /v1/events.
    for (let i = 0; i < passiveFiles.length; i++) {
      const file = passiveFiles[i]!;
      const name = `gortexBenchProbe${tag}e${i}`;
      const abs = path.join(root, file);
      originals.set(file, fs.readFileSync(abs));
      const from = events.events.length;
      const t0 = performance.now();
      fs.appendFileSync(abs, probeSource(file, name));
      const ev = await events.waitFor(from, (d) => (d.files as string[]).includes(rel(file)) && d.nodes_added > 0, 120_000);
      const ms = ev.at - t0;
      const check = await searchFor(client, name);
      edits.push({ mode: 'event', file, ms, reindex_ms: ev.data.duration_ms, files_parsed: ev.data.files_parsed, found_after_event: check.found, query_ms: check.ms });
      log(`edit ${file}: graph_change after ${ms.toFixed(0)} ms (re-index ${ev.data.duration_ms} ms; then found: ${check.found})`);
      const back = events.events.length;
      fs.writeFileSync(abs, originals.get(file)!);
      await events.waitFor(back, (d) => (d.files as string[]).includes(rel(file)), 120_000).catch(() => undefined);
      await sleep(o.settleMs);
    }
    // Storms: `storm` files appended to at once, each with its own new function.
    const storms: Json[] = [];
    for (const mode of o.storm > 0 ? (['poll', 'event'] as const) : []) {
      for (const f of stormFiles) if (!originals.has(f)) originals.set(f, fs.readFileSync(path.join(root, f)));
      const names = stormFiles.map((_, i) => `gortexBenchStorm${tag}${mode[0]}${i}`);
      const last = names[names.length - 1]!;
      const from = events.events.length;
      const before = (await daemonStatus(w)).repos.find((r: Json) => r.root === root)?.watch as Json | undefined;
      const t0 = performance.now();
      stormFiles.forEach((f, i) => fs.appendFileSync(path.join(root, f), probeSource(f, names[i]!)));
      const writeMs = performance.now() - t0;
      // Meanwhile, a control probe every 100 ms: answered on the daemon's JS thread, so its
      // latency shows how long that thread is held (a native re-index pass does not hold it).
      let probing = true;
      const probeMs: number[] = [];
      const prober = (async () => {
        while (probing) {
          const p0 = performance.now();
          await controlRequest(w.paths, { kind: 'probe' }).catch(() => undefined);
          probeMs.push(performance.now() - p0);
          await sleep(100);
        }
      })();
      let ms: number;
      let polls: number | null = null;
      try {
        if (mode === 'poll') {
          polls = (await pollUntil(client, last, true, 300_000)).polls;
          ms = performance.now() - t0;
        } else {
          const ev = await events.waitFor(from, (d) => (d.files as string[]).includes(rel(stormFiles[stormFiles.length - 1]!)) && d.nodes_added > 0, 300_000);
          ms = ev.at - t0;
        }
      } finally {
        probing = false;
        await prober;
      }
      // Every file of the storm, not only the last, must be in the graph now.
      let seen = 0;
      const missing: { file: string; name: string; appended: string }[] = [];
      for (let i = 0; i < names.length; i++) {
        if ((await searchFor(client, names[i]!)).found) seen++;
        else missing.push({ file: stormFiles[i]!, name: names[i]!, appended: fs.readFileSync(path.join(root, stormFiles[i]!), 'utf8') });
      }
      await sleep(500);
      const passes = events.events.slice(from).map((e) => ({ at_ms: e.at - t0, duration_ms: e.data.duration_ms, files_parsed: e.data.files_parsed, files: e.data.files?.length }));
      const after = (await daemonStatus(w)).repos.find((r: Json) => r.root === root)?.watch as Json | undefined;
      storms.push({
        mode,
        files: stormFiles.length,
        write_ms: writeMs,
        ms,
        polls,
        all_found: seen,
        probe_max_ms: probeMs.length ? Math.max(...probeMs) : null,
        probes: probeMs.length,
        missing: await notExtractedAlone(missing),
        passes,
        storms_flagged: (after?.storms ?? 0) - (before?.storms ?? 0),
      });
      log(`storm (${mode}) of ${stormFiles.length} files: last one queryable after ${ms.toFixed(0)} ms; ${seen}/${names.length} found; ${passes.length} re-index passes`);
      stormFiles.forEach((f) => fs.writeFileSync(path.join(root, f), originals.get(f)!));
      await pollUntil(client, last, false, 300_000);
      await sleep(Math.max(o.settleMs, 2500));
    }
    return { edits, storms };
  } finally {
    restoreAll();
    events.close();
    client.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Part 3: memory

/** One daemon's memory as it takes on the corpora one by one, their symbol indexes, then sessions. */
async function memorySeries(o: Options, w: World, roots: Map<string, string>, mainRoot: string, mainName: string): Promise<Json[]> {
  const rows: Json[] = [];
  const sessions: SocketClient[] = [];
  const snap = async (step: string, extra: Json = {}): Promise<void> => {
    await sleep(1000);
    const s = await daemonStatus(w);
    rows.push({ step, repos: s.repos.length, sessions: s.sessions, rss_bytes: s.memory.rss_bytes, heap_used_bytes: s.memory.heap_used_bytes, external_bytes: s.memory.external_bytes, ...extra });
    log(`memory: ${step}: RSS ${(s.memory.rss_bytes / 2 ** 20).toFixed(0)} MiB`);
  };
  try {
    await startDaemon(w, []);
    await snap('started, nothing tracked');
    const tracked: { name: string; root: string }[] = [];
    for (const name of o.memoryCorpora) {
      // The main corpus is tracked as the private copy part 1 used.
      const root = name === mainName ? mainRoot : roots.get(name);
      if (!root) continue;
      const info = await trackCorpus(w, root, name);
      tracked.push({ name, root: info.root as string });
      await snap(`+ ${name}`, { corpus: name, files: info.files, nodes: info.nodes, opened: info.opened?.mode ?? null, warmup_ms: info.warmup_ms });
    }
    // The lazy symbol index of each repository, built by its first search.
    for (const t of tracked) {
      const c = await SocketClient.open(w.paths.socket, t.root);
      await c.call('search_symbols', { query: 'create', limit: 5 });
      c.close();
    }
    await snap('+ one search_symbols per repository (symbol indexes built)');
    for (let i = 0; i < o.clients; i++) {
      const t = tracked[i % tracked.length]!;
      const c = await SocketClient.open(w.paths.socket, t.root);
      await c.call('search_symbols', { query: 'parse', limit: 5 });
      sessions.push(c);
    }
    await snap(`+ ${o.clients} MCP sessions (round-robin over the repositories, one call each)`);
    return rows;
  } finally {
    for (const c of sessions) c.close();
    await stopDaemon(w).catch((error: unknown) => log(`stopping the memory daemon: ${(error as Error).message}`));
  }
}

/**
 * Memory in a fresh home: first every corpus is tracked for the first time (a cold index each),
 * then the daemon is restarted with an empty list and tracks them again from their snapshots.
 */
async function memoryPart(o: Options, roots: Map<string, string>, mainRoot: string, mainName: string): Promise<Json> {
  const w = makeWorld();
  try {
    const cold = await memorySeries(o, w, roots, mainRoot, mainName);
    fs.rmSync(w.paths.repos, { force: true });
    const warm = await memorySeries(o, w, roots, mainRoot, mainName);
    return { cold, warm };
  } finally {
    fs.rmSync(w.home, { recursive: true, force: true });
    fs.rmSync(w.socketDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

async function run(o: Options): Promise<Json> {
  const sources = [...new Set([SOURCES[o.corpus]!, ...o.memoryCorpora.map((c) => SOURCES[c]!)])];
  const roots = fetchCorpora(sources, log);
  const cached = roots.get(o.corpus);
  if (!cached) throw new Error(`fetch-corpora.sh did not report ${o.corpus}`);
  const rand = prng(o.seed);
  const w = makeWorld();
  const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-corpus-'));
  const root = path.join(copyDir, path.basename(cached));
  let daemonUp = false;
  let baseline: EmbeddedRepo | undefined;
  const cleanup = (): void => {
    if (daemonUp) spawnSync(process.execPath, [path.join(ROOT, 'bin', 'run.js'), 'daemon', 'stop'], { env: w.env, cwd: w.home, stdio: 'ignore' });
    for (const dir of [w.home, w.socketDir, copyDir]) fs.rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (): void => {
    log('interrupted: stopping the daemon and removing the temporary folders');
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`copying ${cached} to ${root}`);
    const cp = spawnSync('cp', ['-a', cached, root]);
    if (cp.status !== 0) throw new Error(`cp -a ${cached} ${root} failed: ${cp.stderr}`);

    // ---- the daemon, tracking the corpus
    const started = await startDaemon(w, ['--http-addr', '127.0.0.1:0']);
    daemonUp = true;
    const url = (started.http as Json | null)?.url as string;
    if (!url) throw new Error('the daemon reported no HTTP URL');
    const coldStart = performance.now();
    const info = await trackCorpus(w, root, o.corpus);
    const trackMs = performance.now() - coldStart;
    const realRoot = info.root as string;
    const afterTrack = await daemonStatus(w);

    // ---- the baseline: the same repository embedded in this process (the daemon's snapshot, warm)
    process.env.GORTEX_HOME = w.home;
    const t = performance.now();
    baseline = await openEmbedded(realRoot, { watch: false });
    log(`baseline opened in-process in ${((performance.now() - t) / 1000).toFixed(1)} s (${(await baseline.context()).lastIndex?.mode})`);
    const inproc = inProcess(baseline);
    const allFiles = listFiles(realRoot, /^(?!.*\.d\.ts$).*\.(ts|tsx|js|py|go)$/);
    const cases = await buildCases(baseline, allFiles, inproc, rand);
    const perTool: Record<string, number> = {};
    for (const c of cases) perTool[c.tool] = (perTool[c.tool] ?? 0) + 1;
    log(`${cases.length} calls: ${JSON.stringify(perTool)}`);

    // ---- part 1: idle
    const loadBefore = load1();
    const socketIdle = await SocketClient.open(w.paths.socket, realRoot);
    const httpIdle = new HttpClient(url);
    const memoryMcp = await MemoryMcpClient.open(baseline);
    const doors: Door[] = [
      { key: 'inproc', label: 'in-process (call pipeline)', call: inproc },
      { key: 'mcp', label: 'in-process MCP server (SDK, JSON lines, no I/O)', call: (n, a, k) => memoryMcp.call(n, a, k) },
      { key: 'socket', label: 'Unix socket, raw NDJSON MCP', call: (n, a, k) => socketIdle.call(n, a, k) },
      { key: 'http', label: 'HTTP POST /v1/tools, keep-alive http.Agent', call: (n, a, k) => httpIdle.call(n, a, k) },
      { key: 'fetch', label: 'HTTP POST /v1/tools, fetch', call: (n, a) => fetchCall(url, n, a) },
    ];
    log(`idle: ${o.passes} passes × ${cases.length} calls × ${doors.length} doors (plus a warm-up pass)`);
    const idleRaw = await idle(doors, cases, o.passes);
    const pings: number[] = [];
    for (let i = -200; i < 2000; i++) {
      const t = await socketIdle.ping();
      if (i >= 0) pings.push(t.ms);
    }
    httpIdle.close();
    socketIdle.close();
    await memoryMcp.close();
    const idleRows = doors.map((d) => {
      const e = idleRaw.get(d.key)!;
      const s = stats(e.times);
      const sortedBytes = [...e.bytes].sort((a, b) => a - b);
      const byTool: Json = {};
      for (const [tool, times] of e.byTool) byTool[tool] = stats(times);
      return { door: d.key, label: d.label, load: 'idle', ...s, calls_per_s: 1000 / s.mean, errors: e.errors, error_example: e.errorText ?? null, median_bytes: percentile(sortedBytes, 50), by_tool: byTool, per_call_ms: perCall(e.times, cases.length) };
    });
    // Paired: each call's median over the passes through this door − the same call's in-process median.
    const basePerCall = idleRows.find((x) => x.door === 'inproc')!.per_call_ms;
    for (const r of idleRows) {
      if (r.door === 'inproc') continue;
      (r as Json).paired_overhead = stats(r.per_call_ms.map((ms, i) => ms - basePerCall[i]!));
    }
    for (const r of idleRows) log(`idle ${r.door}: p50 ${r.p50.toFixed(3)} p95 ${r.p95.toFixed(3)} p99 ${r.p99.toFixed(3)} ms (${r.errors} errors)`);

    const requestLines = cases.map((c) => JSON.stringify({ jsonrpc: '2.0', id: 1000, method: 'tools/call', params: { name: c.tool, arguments: { ...c.args, format: 'json' } } }).length).sort((a, b) => a - b);
    const floor: Json = { ...(await transportFloor(percentile(requestLines, 50), idleRows.find((x) => x.door === 'socket')!.median_bytes, 2000)), mcp_ping: stats(pings) };
    log(`floor: Unix-socket echo p50 ${floor.unix.p50.toFixed(3)} ms, HTTP echo p50 ${floor.http.p50.toFixed(3)} ms`);

    log('proxy: the same calls through `gortex mcp` (SDK client, stdio proxy)');
    const proxyRaw = await viaProxy(w, realRoot, cases);
    const proxyRow = { door: 'proxy', label: '`gortex mcp` stdio proxy, MCP SDK client', load: 'idle', ...stats(proxyRaw.times), errors: proxyRaw.errors, error_example: proxyRaw.errorText ?? null };
    (proxyRow as Json).calls_per_s = 1000 / proxyRow.mean;

    // ---- part 1: concurrent
    log(`concurrent: ${o.clients} clients × ${o.perClient} calls per door`);
    const concRows: Json[] = [];
    {
      const r = await concurrent(() => inproc, o.clients, cases, o.perClient);
      concRows.push({ door: 'inproc', label: 'in-process (call pipeline)', load: `${o.clients} clients`, ...stats(r.times), wall_ms: r.wallMs, calls_per_s: (r.times.length / r.wallMs) * 1000, errors: r.errors, error_example: r.errorText ?? null });
    }
    let rssUnderLoad: number | null = null;
    {
      const sockets = await Promise.all(Array.from({ length: o.clients }, () => SocketClient.open(w.paths.socket, realRoot)));
      try {
        const r = await concurrent((i) => (n, a, k) => sockets[i]!.call(n, a, k), o.clients, cases, o.perClient);
        concRows.push({ door: 'socket', label: 'Unix socket, raw NDJSON MCP', load: `${o.clients} clients`, ...stats(r.times), wall_ms: r.wallMs, calls_per_s: (r.times.length / r.wallMs) * 1000, errors: r.errors, error_example: r.errorText ?? null });
        const s = await daemonStatus(w);
        rssUnderLoad = s.memory.rss_bytes as number;
        log(`daemon with ${s.sessions} sessions open: RSS ${(rssUnderLoad / 2 ** 20).toFixed(0)} MiB`);
      } finally {
        for (const s of sockets) s.close();
      }
    }
    {
      const agents = Array.from({ length: o.clients }, () => new HttpClient(url));
      try {
        const r = await concurrent((i) => (n, a, k) => agents[i]!.call(n, a, k), o.clients, cases, o.perClient);
        concRows.push({ door: 'http', label: 'HTTP POST /v1/tools, keep-alive http.Agent', load: `${o.clients} clients`, ...stats(r.times), wall_ms: r.wallMs, calls_per_s: (r.times.length / r.wallMs) * 1000, errors: r.errors, error_example: r.errorText ?? null });
      } finally {
        for (const a of agents) a.close();
      }
    }
    for (const r of concRows) log(`${r.load} ${r.door}: p50 ${r.p50.toFixed(2)} p95 ${r.p95.toFixed(2)} ms, ${r.calls_per_s.toFixed(0)} calls/s (${r.errors} errors)`);
    const afterLoad = await daemonStatus(w);
    const loadAfterDoors = load1();

    // ---- part 2: watcher. Files the graph holds, under 1 MiB; edits prefer the corpus's own
    // sources (src/) when it has enough of them, the storm draws from the whole tree.
    const ctx = await baseline.context();
    const usable = (f: string): boolean => {
      try {
        if (fs.statSync(path.join(realRoot, f)).size >= 1024 * 1024) return false;
        ctx.engine.fileSymbols(ctx.repo, f);
        return true;
      } catch {
        return false;
      }
    };
    const pick = (from: string[], n: number): string[] => {
      const out: string[] = [];
      for (const f of sample(from, from.length, rand)) {
        if (out.length >= n) break;
        if (usable(f)) out.push(f);
      }
      return out;
    };
    const src = allFiles.filter((f) => f.startsWith('src/'));
    const editFiles = pick(src.length >= o.edits * 4 ? src : allFiles, o.edits * 2);
    const taken = new Set(editFiles);
    const stormFiles = pick(allFiles.filter((f) => !taken.has(f)), o.storm);
    log(`watcher: ${o.edits} polled edits, ${o.edits} passive edits, storms of ${stormFiles.length} files`);
    const watcher = await watcherPart(o, w, realRoot, url, editFiles, stormFiles);
    // What the watcher has to cover: every entry under the root, and the directories the storm touched.
    const countEntries = (dir: string): number => {
      let n = 0;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        n++;
        if (e.isDirectory() && !e.isSymbolicLink()) n += countEntries(path.join(dir, e.name));
      }
      return n;
    };
    const stormDirs = [...new Set(stormFiles.map((f) => path.dirname(f)))].map((d) => ({ dir: d, entries: fs.readdirSync(path.join(realRoot, d)).length }));
    stormDirs.sort((a, b) => b.entries - a.entries);
    const tree = { entries: countEntries(realRoot), storm_dirs: stormDirs.length, largest_storm_dir: stormDirs[0] ?? null };
    const afterWatch = await daemonStatus(w);
    const logText = daemonLogText(w);
    const reindexLines = logText.split('\n').filter((l) => l.includes('re-indexed')).length;
    const stormLines = logText.split('\n').filter((l) => l.includes('storm of file events')).length;

    // The part-1 daemon is done.
    await stopDaemon(w);
    daemonUp = false;
    const loadAfterWatcher = load1();

    // Where a watcher pass's time goes: the same refresh (`indexRepo` after one appended function)
    // in this process, now that no daemon competes for the CPU, with the report's phases.
    await baseline.reindex(); // catches up with everything part 2 touched
    const phases: Json[] = [];
    for (let i = 0; i < Math.min(5, editFiles.length); i++) {
      const file = editFiles[i]!;
      const abs = path.join(realRoot, file);
      const original = fs.readFileSync(abs);
      try {
        fs.appendFileSync(abs, probeSource(file, `gortexBenchPhase${i}`));
        const t0 = performance.now();
        const report = await baseline.reindex();
        phases.push({ file, ms: performance.now() - t0, mode: report?.mode, wall_ms: report?.wall_ms, files_parsed: report?.files.parsed, phases_ms: report?.phases_ms });
      } finally {
        fs.writeFileSync(abs, original);
      }
      await baseline.reindex();
    }
    log(`in-process refresh after one edit: ${phases.map((p) => `${Math.round(p.wall_ms)} ms`).join(', ')}`);
    baseline.close();
    baseline = undefined;

    // ---- part 3: memory, in a fresh daemon
    const memory = await memoryPart(o, roots, realRoot, o.corpus);
    const loadEnd = load1();

    const repoOf = (s: Json): Json | undefined => (s.repos as Json[]).find((r) => r.root === realRoot);
    return {
      corpus: o.corpus,
      path: cached,
      files: info.files,
      nodes: info.nodes,
      edges: info.edges,
      track_ms: trackMs,
      warmup_ms: info.warmup_ms,
      opened: info.opened,
      cases: perTool,
      seed: o.seed,
      passes: o.passes,
      clients: o.clients,
      per_client: o.perClient,
      idle: idleRows,
      proxy: proxyRow,
      floor,
      refresh_phases: phases,
      load1: { before: loadBefore, after_doors: loadAfterDoors, after_watcher: loadAfterWatcher, end: loadEnd },
      concurrent: concRows,
      watcher,
      tree,
      watch_state: repoOf(afterWatch)?.watch ?? null,
      log_reindexed_lines: reindexLines,
      log_storm_lines: stormLines,
      daemon_rss: {
        after_track: afterTrack.memory.rss_bytes,
        with_sessions: rssUnderLoad,
        after_load: afterLoad.memory.rss_bytes,
        after_watcher: afterWatch.memory.rss_bytes,
      },
      memory,
    };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    baseline?.close();
    cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// The BENCHMARKS.md section

const f2 = (n: number | null | undefined): string =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : Math.abs(n) < 1 ? n.toFixed(3) : Math.abs(n) < 10 ? n.toFixed(2) : Math.abs(n) < 1000 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US');
const signed = (n: number): string => (Number.isNaN(n) ? '–' : `${n >= 0 ? '+' : '−'}${f2(Math.abs(n))}`);
const mib = (b: number | null | undefined): string => (b === null || b === undefined ? '–' : Math.round(b / 2 ** 20).toLocaleString('en-US'));
const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** What the storm table needs said: the functions no search found, and why. */
function stormNotes(r: Json): string[] {
  const missing: Json[] = r.watcher.storms.flatMap((s: Json) => s.missing ?? []);
  if (missing.length === 0) return [];
  const swallowed = missing.filter((m) => m.extracted_alone === false).length;
  const alone = missing.filter((m) => m.extracted_alone === true).length;
  const unindexed = missing.length - swallowed - alone;
  const files = [...new Set(missing.map((m) => m.file))];
  return [
    `Not found after a storm: ${missing.length} appended functions in ${files.length} files. Indexed alone (the appended text in a scratch ` +
      `repository, a fresh engine): ${swallowed} are not extracted there either (the file's own syntax swallows the function: test fixtures ` +
      `that end inside an unterminated construct), ${alone} are${alone ? ' (changes the daemon did not pick up)' : ''}` +
      `${unindexed ? `, ${unindexed} files are not indexed alone` : ''}. E.g. ${files.slice(0, 3).map((f) => `\`${f}\``).join(', ')}.`,
    '',
  ];
}

/** The in-process refresh phases, as a sentence and a table (one row per edit, then the median). */
function phaseLines(r: Json): string[] {
  const samples: Json[] = r.refresh_phases ?? [];
  if (samples.length === 0) return [];
  const order = ['walk', 'parse', 'resolve', 'resolve.nodes', 'resolve.tables', 'resolve.refs', 'resolve.assemble', 'save'];
  const seen = new Set(samples.flatMap((p) => Object.keys(p.phases_ms ?? {})));
  const keys = [...order.filter((k) => seen.has(k)), ...[...seen].filter((k) => !order.includes(k)).sort()];
  const whole = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '–' : int(n));
  const cell = (p: Json, k: string): string => whole(p.phases_ms?.[k]);
  return [
    'Where a pass goes: the watcher re-reads only the paths it saw change (no walk, no snapshot write; see "re-index pass" above). ' +
      'For its phases, the same edit is applied once more in the bench process once the daemon has stopped, through a whole `indexRepo` ' +
      'refresh (walk and stat every file, parse what changed, re-resolve the files whose dependency keys the change touched), so `walk` ' +
      'is what the watcher saves and the `resolve` phases are what it pays:',
    '',
    `| edited file | files parsed | wall ms | ${keys.map((k) => `${k} ms`).join(' | ')} |`,
    `|---|---:|---:|${keys.map(() => '---:').join('|')}|`,
    ...samples.map((p) => `| \`${p.file}\` | ${p.files_parsed} | ${whole(p.wall_ms)} | ${keys.map((k) => cell(p, k)).join(' | ')} |`),
    `| *median* | | ${whole(stats(samples.map((p) => p.wall_ms)).p50)} | ${keys.map((k) => whole(stats(samples.map((p) => p.phases_ms?.[k] ?? 0)).p50)).join(' | ')} |`,
    '',
  ];
}

function section(r: Json, m: Json, rawName: string): string {
  const base = (load: string): Json | undefined => [...r.idle, ...r.concurrent].find((x: Json) => x.door === 'inproc' && x.load === load);
  const row = (x: Json): string => {
    const b = base(x.load);
    const over50 = x.door === 'inproc' || !b ? '–' : signed(x.p50 - b.p50);
    const over95 = x.door === 'inproc' || !b ? '–' : signed(x.p95 - b.p95);
    const paired = x.paired_overhead ? `${signed(x.paired_overhead.p50)} / ${signed(x.paired_overhead.p95)}` : '–';
    return `| ${x.label} | ${x.load} | ${x.n} | ${f2(x.p50)} | ${f2(x.p95)} | ${f2(x.p99)} | ${over50} | ${over95} | ${paired} | ${int(x.calls_per_s)} | ${x.errors} |`;
  };
  const idleSocket = r.idle.find((x: Json) => x.door === 'socket');
  const idleBase = base('idle')!;
  const socketOver95 = idleSocket.p95 - idleBase.p95;
  const tools = Object.keys(idleBase.by_tool).sort();
  const doorKeys = r.idle.map((x: Json) => x.door);

  const edits = (mode: string): number[] => r.watcher.edits.filter((e: Json) => e.mode === mode).map((e: Json) => e.ms);
  const reindex = (mode: string): number[] => r.watcher.edits.filter((e: Json) => e.mode === mode && e.reindex_ms !== null).map((e: Json) => e.reindex_ms);
  const pollS = stats(edits('poll'));
  const eventS = stats(edits('event'));
  const reindexAll = stats([...reindex('poll'), ...reindex('event')]);
  const notFoundAfterEvent = r.watcher.edits.filter((e: Json) => e.mode === 'event' && !e.found_after_event).length;
  const outside = (mode: string): number => stats(r.watcher.edits.filter((e: Json) => e.mode === mode && e.reindex_ms !== null).map((e: Json) => e.ms - e.reindex_ms)).p50;
  const firstSearch = stats(r.watcher.edits.filter((e: Json) => e.mode === 'event').map((e: Json) => e.query_ms));

  const lines = [
    '## Daemon',
    '',
    `Corpus **${r.corpus}** (${int(r.files)} files, ${int(r.nodes)} nodes, ${int(r.edges)} edges), tracked by a private daemon ` +
      `(own \`GORTEX_HOME\` and socket, \`--http-addr 127.0.0.1:0\`, reconcile off) on a private copy of the corpus; ` +
      `${m.nproc} cores (${m.cpu}), ${m.mem_gib} GiB, Linux ${m.kernel}, Node ${m.node}, ${m.date.slice(0, 10)}. ` +
      `Cold track → ready: ${f2(r.track_ms / 1000)} s. Raw numbers in \`${rawName}\`. Produced by \`npm run bench:daemon\`. ` +
      `1-minute load average before the doors ${r.load1.before}, after them ${r.load1.after_doors}, after the watcher ${r.load1.after_watcher}, ` +
      `at the end ${r.load1.end} (${m.nproc} cores: the bench and the daemon account for up to 2; more means other work competed and inflated the times).`,
    '',
    '### Doors: the same tool calls in-process, over the socket and over HTTP',
    '',
    `${r.idle[0].n / r.passes} seeded calls (${Object.entries(r.cases).map(([k, v]) => `${v} ${k}`).join(', ')}; names and files from the graph, ids picked ` +
      'through search_symbols), every call `format: "json"`. *In-process* is the call pipeline (dispatch, shaping, JSON rendering: ' +
      "what the daemon's tools/call runs) on the same repository embedded in the bench process; the socket client is a raw NDJSON " +
      'MCP client (handshake, initialize, tools/call lines by id) and parses each answer line; the HTTP clients read the body. ' +
      `*Idle*: one client, sequential; ${r.passes} passes after a warm-up pass, each pass running the whole list through one door after ` +
      'another (door order rotating per pass). *In-process MCP server* is the same `createMcpServer` the daemon gives a session, fed JSON lines ' +
      'in this process: the MCP layer without I/O, so socket − MCP server is the cost of the socket and of a second process. ' +
      `*${r.clients} clients*: each its own session/socket or keep-alive agent (\`maxSockets: 1\`), ${r.per_client} calls each; ` +
      'in-process, the same number of concurrent callers share one process. Overhead = door − in-process at the same percentile and load. ' +
      'The proxy row is the same list once, through `gortex mcp` (a second process relaying stdio to the socket) with the MCP SDK client.',
    '',
    '| door | load | n | p50 ms | p95 ms | p99 ms | overhead p50 ms | overhead p95 ms | paired overhead p50 / p95 ms | calls/s | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.idle.map(row),
    row(r.proxy),
    ...r.concurrent.map(row),
    '',
    '*Paired overhead*: for each call, its median over the passes through the door minus its median in-process; p50 and p95 over the calls ' +
      '(less exposed than a difference of percentiles to which calls happen to land in the tail).',
    '',
    `Target: socket overhead < 1 ms p95 idle: **${socketOver95 < 1 && idleSocket.paired_overhead.p95 < 1 ? 'met' : socketOver95 < 1 || idleSocket.paired_overhead.p95 < 1 ? 'met on one measure only' : 'not met'}** ` +
      `(p95 − p95: ${signed(socketOver95)} ms, ${f2(idleSocket.p95)} vs ${f2(idleBase.p95)} ms; paired p95: ${signed(idleSocket.paired_overhead.p95)} ms).`,
    '',
    `Where an idle call's p50 goes. *Transport floor*: round trips to a bare Node process that answers each line (or POST, keep-alive agent) ` +
      `at once with a reply of the same size (${int(r.floor.request_bytes)} bytes in, ${int(r.floor.reply_bytes)} out; ${r.floor.unix.n} round trips): ` +
      'what any second Node process costs on this machine. *MCP ping*: an MCP `ping` request through the daemon\'s socket session (framing, SDK ' +
      `dispatch, no tool; ${r.floor.mcp_ping?.n ?? 0} round trips). *MCP layer*: in-process MCP server − in-process. *Rest*: door − tool work − MCP layer − ` +
      'ping (socket) or − floor (HTTP): the daemon\'s handling of a tool call beyond what the same code costs in the bench process, and the two ' +
      'processes handing the CPU back and forth.',
    '',
    '| door | tool work (in-process) | MCP layer | transport floor p50 (p95) | MCP ping p50 (p95) | rest | door p50 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...(['socket', 'http'] as const).map((key) => {
      const d = r.idle.find((x: Json) => x.door === key);
      const mcp = r.idle.find((x: Json) => x.door === 'mcp');
      const layer = key === 'socket' && mcp ? mcp.p50 - idleBase.p50 : 0;
      const fl = key === 'socket' ? r.floor.unix : r.floor.http;
      const ping = key === 'socket' ? r.floor.mcp_ping : undefined;
      const under = ping ? ping.p50 : fl.p50;
      return (
        `| ${d.label} | ${f2(idleBase.p50)} | ${key === 'socket' ? f2(layer) : '– (no MCP)'} | ${f2(fl.p50)} (${f2(fl.p95)}) | ` +
        `${ping ? `${f2(ping.p50)} (${f2(ping.p95)})` : '–'} | ${f2(d.p50 - idleBase.p50 - layer - under)} | ${f2(d.p50)} |`
      );
    }),
    '',
    'Idle p50 by tool (ms), and the median answer size:',
    '',
    `| tool | ${r.idle.map((x: Json) => x.door).join(' | ')} | socket − in-process |`,
    `|---|${doorKeys.map(() => '---:').join('|')}|---:|`,
    ...tools.map((tool) => {
      const cells = r.idle.map((x: Json) => f2(x.by_tool[tool]?.p50));
      return `| ${tool} | ${cells.join(' | ')} | ${signed(idleSocket.by_tool[tool].p50 - idleBase.by_tool[tool].p50)} |`;
    }),
    `| *median answer bytes* | ${r.idle.map((x: Json) => int(x.median_bytes)).join(' | ')} | |`,
    '',
    '### Watcher: write → queryable',
    '',
    `A new uniquely named function appended to a real file of the tracked corpus (a different file each time, restored afterwards, ` +
      `${r.watcher.edits.length / 2} files per mode). *Polling*: search_symbols over the socket, 2 ms apart, from the write until the ` +
      'function is found (a query arriving while a debounce is pending starts the re-index at once). *Passive*: nobody asks; the time until ' +
      'the `graph_change` event on `/v1/events` (250 ms debounce included). *Re-index* is the watcher pass\'s own wall time (its report, ' +
      `carried by the event; the log line \`re-indexed … N files parsed\` has no duration: ${r.log_reindexed_lines} such lines this run).`,
    '',
    '| mode | edits | write→queryable p50 ms | p95 ms | max ms | re-index pass p50 ms | p95 ms | outside the pass p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| polling search_symbols | ${pollS.n} | ${f2(pollS.p50)} | ${f2(pollS.p95)} | ${f2(pollS.max)} | ${f2(stats(reindex('poll')).p50)} | ${f2(stats(reindex('poll')).p95)} | ${f2(outside('poll'))} |`,
    `| passive (graph_change event) | ${eventS.n} | ${f2(eventS.p50)} | ${f2(eventS.p95)} | ${f2(eventS.max)} | ${f2(stats(reindex('event')).p50)} | ${f2(stats(reindex('event')).p95)} | ${f2(outside('event'))} |`,
    '',
    `*Outside the pass* = write→queryable − the pass's wall time: for polling, the first search after the change (the symbol index is rebuilt ` +
      `for the new graph; in the passive runs the first search after each event took p50 ${f2(firstSearch.p50)} ms, max ${f2(firstSearch.max)} ms); ` +
      'for passive, the 250 ms debounce and the event delivery.',
    '',
    `Target: write→queryable < 300 ms: **${pollS.p95 < 300 ? 'met' : 'not met'}** (polling p95 ${f2(pollS.p95)} ms; passive p95 ${f2(eventS.p95)} ms; ` +
      `re-index pass p50 ${f2(reindexAll.p50)} ms).${notFoundAfterEvent ? ` ${notFoundAfterEvent} passive edits were not yet found by the query right after their event.` : ''}`,
    '',
    ...phaseLines(r),
    '| storm | files | write ms | last one queryable ms | re-index passes (ms each) | outside the passes ms | slowest control probe ms | storms flagged | all found |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|',
    ...r.watcher.storms.map((s: Json) => {
      const passMs = s.passes.reduce((n: number, p: Json) => n + p.duration_ms, 0);
      return `| ${s.mode === 'poll' ? 'polling' : 'passive'} | ${s.files} | ${f2(s.write_ms)} | ${f2(s.ms)} | ${s.passes.map((p: Json) => `${int(p.duration_ms)} (${p.files_parsed} parsed)`).join(', ') || '–'} | ${f2(s.ms - passMs)} | ${f2(s.probe_max_ms)} | ${s.storms_flagged} | ${s.all_found}/${s.files} |`;
    }),
    '',
    ...(r.tree
      ? [
          `The tree under the root holds ${int(r.tree.entries)} files and directories; the storm's files sit in ${r.tree.storm_dirs} directories, ` +
            `the largest \`${r.tree.largest_storm_dir?.dir}\` with ${int(r.tree.largest_storm_dir?.entries ?? 0)} entries, watched by the native ` +
            'watcher (a thread of its own hands over batches of paths). A `probe` control request sent every 100 ms ' +
            'during the storm (answered on that thread; a native re-index pass leaves it free) shows how long the thread was held: ' +
            'every session and every tracked repository waits that long.',
          '',
        ]
      : []),
    ...stormNotes(r),
    '### Memory (daemon RSS)',
    '',
    `A fresh daemon in a fresh home tracks the corpora one by one (each a cold index), then builds each symbol index with one search, then ` +
      `serves ${r.clients} MCP sessions; then it is restarted with an empty list and does the same again from the snapshots (warm). ` +
      '`memory.rss_bytes` of `daemon status`, a second after each step. For comparison, the part-1 daemon after cold-tracking ' +
      `${r.corpus}: ${mib(r.daemon_rss.after_track)} MiB; with ${r.clients} sessions under load: ${mib(r.daemon_rss.with_sessions)} MiB; ` +
      `after the watcher runs: ${mib(r.daemon_rss.after_watcher)} MiB.`,
    '',
    '| step | repos | sessions | first track: RSS MiB | JS heap MiB | ready s | restart: RSS MiB | JS heap MiB | ready s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.memory.cold.map((x: Json, i: number) => {
      const y: Json = r.memory.warm[i] ?? {};
      const ready = (z: Json): string => (z.warmup_ms === undefined || z.warmup_ms === null ? '–' : f2(z.warmup_ms / 1000));
      return `| ${x.step}${x.corpus ? ` (${int(x.files)} files, ${int(x.nodes)} nodes)` : ''} | ${x.repos} | ${x.sessions} | ${mib(x.rss_bytes)} | ${mib(x.heap_used_bytes)} | ${ready(x)} | ${mib(y.rss_bytes)} | ${mib(y.heap_used_bytes)} | ${ready(y)} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  await benchMain({ heading: 'Daemon', rawPrefix: 'daemon', options: parseArgs(process.argv.slice(2)), run, section });
  // The embedded repository's native threads must not keep the bench alive (stdout flushed first).
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:daemon: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
