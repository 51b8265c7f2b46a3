/**
 * Hostile or careless input at the MCP doors and `/v1`, each with the smallest input that shows
 * it: a batch over the frame cap, a batch whose answers pass the response cap, a batch's
 * dispatch concurrency, a message over the line cap on stdio (embedded, and through the `gortex
 * mcp` proxy to the daemon's socket session), garbage lines, requests before `initialize`, and
 * JSON nested past the depth limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startHttpServer, type RunningHttpServer } from '../ts/http/app';
import { repoHost, type HttpHost } from '../ts/http/host';
import { MCP_BATCH_CONCURRENCY, MCP_MAX_BATCH_FRAMES, MCP_MAX_BATCH_RESPONSE_BYTES } from '../ts/http/streamable';
import { MAX_LINE_MESSAGE_BYTES } from '../ts/mcp/limits';
import { MAX_JSON_DEPTH } from '../ts/support/json-depth';
import { createMcpServer } from '../ts/mcp/server';
import { embeddedWorkspace, openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { daemonWorld, gitFixture } from './helpers/daemon';
import { isolateHttpEnv } from './helpers/http';
import { fixtureCopy, tempHome } from './helpers/repo';

isolateHttpEnv();

const initialize = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

/** A JSON value nested `depth` arrays deep. */
const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * A request over `MAX_LINE_MESSAGE_BYTES`, its `id` written last as the SDK client writes it, so
 * recovering it means reading past the skipped bulk.
 */
const oversizedCall = (id: number): string =>
  `{"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":"${'a'.repeat(MAX_LINE_MESSAGE_BYTES)}"}},"jsonrpc":"2.0","id":${id}}`;

/** `gortex mcp` spoken to line by line, as a careless client would. */
class RawStdioPeer {
  readonly child: ChildProcess;
  readonly messages: any[] = [];
  stderr = '';
  private stdout = '';
  private exit: { code: number | null; signal: string | null } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', ...args], { env, stdio: 'pipe' });
    // A server that dies mid-write must fail the test by its missing answers, not crash Jest.
    this.child.stdin!.on('error', () => undefined);
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
      let newline: number;
      while ((newline = this.stdout.indexOf('\n')) >= 0) {
        const line = this.stdout.slice(0, newline);
        this.stdout = this.stdout.slice(newline + 1);
        this.messages.push(JSON.parse(line));
      }
      this.notify();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
      this.notify();
    });
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      this.notify();
    });
  }

  send(line: string | object): void {
    this.child.stdin!.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  }

  /** The first message with this id (`null` for uncorrelated errors); fails if the server exits first. */
  reply(id: number | string | null): Promise<any> {
    return this.until(() => this.messages.find((m) => m.id === id && ('result' in m || 'error' in m)), `a reply with id ${JSON.stringify(id)}`);
  }

  /** Resolves once stderr matches `pattern`. */
  logged(pattern: RegExp): Promise<string> {
    return this.until(() => (pattern.test(this.stderr) ? this.stderr : undefined), `stderr matching ${pattern}`);
  }

  async initialize(id = 1): Promise<void> {
    this.send(initialize(id));
    expect((await this.reply(id)).result.serverInfo.name).toBe('gortex');
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
    if (!this.exit) await new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
  }

  private until<T>(probe: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const value = probe();
        if (value !== undefined) {
          this.listeners.delete(check);
          resolve(value);
        } else if (this.exit) {
          this.listeners.delete(check);
          reject(new Error(`gortex mcp exited (code ${this.exit.code}, signal ${this.exit.signal}) before ${what}; stdout: ${JSON.stringify(this.messages).slice(0, 2000)}; stderr: ${this.stderr.slice(-2000)}`));
        }
      };
      this.listeners.add(check);
      check();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * The checks every line-framed MCP session must pass, each on a fresh initialized session from
 * `start` (closed after it); `logged` checks where a refusal was reported.
 */
function lineTransportChecks(start: () => Promise<RawStdioPeer>, logged: (peer: RawStdioPeer, pattern: RegExp) => Promise<unknown>): void {
  let p: RawStdioPeer | undefined;
  const peer = async (): Promise<RawStdioPeer> => {
    p = await start();
    return p;
  };
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  test('a message over the line cap is answered -32600 with its id, logged, and the session goes on', async () => {
    const p = await peer();
    p.send(oversizedCall(41));
    const refused = await p.reply(41);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toMatch(/over the 10 MiB limit of one MCP message/);
    await logged(p, /refused an MCP message of \d+ bytes \(id 41\): over the 10 MiB limit/);
    p.send({ jsonrpc: '2.0', id: 42, method: 'ping' });
    expect(await p.reply(42)).toMatchObject({ result: {} });
  });

  test('a line that is not JSON gets -32700 with a null id; the session goes on', async () => {
    const p = await peer();
    p.send('hello there');
    const refused = await p.reply(null);
    expect(refused.error).toMatchObject({ code: -32700 });
    expect(refused.error.message).toMatch(/^Parse error: the line is not JSON/);
    p.send({ jsonrpc: '2.0', id: 43, method: 'ping' });
    expect(await p.reply(43)).toMatchObject({ result: {} });
  });

  test('JSON nested past the depth limit inside tools/call is refused naming the limit', async () => {
    const p = await peer();
    p.send(`{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":"x","deep":${deepArray(100_000)}}}}`);
    const refused = await p.reply(44);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });
}

describe('gortex mcp --embedded (stdio)', () => {
  const root = fixtureCopy('query/app-ts', 'stdioapp');
  const env: NodeJS.ProcessEnv = { ...process.env, GORTEX_HOME: tempHome(), GORTEX_THREADS: '2', GORTEX_TOOLS: 'core' };
  delete env.NODE_ENV;
  lineTransportChecks(
    async () => {
      const peer = new RawStdioPeer(['--embedded', '--no-watch', '--repo', root], env);
      await peer.initialize();
      return peer;
    },
    (peer, pattern) => peer.logged(pattern),
  );

  test('before initialize, tools/call is refused and ping is answered', async () => {
    const fresh = new RawStdioPeer(['--embedded', '--no-watch', '--repo', root], env);
    try {
      fresh.send({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'search_symbols', arguments: { query: 'summarize' } } });
      fresh.send({ jsonrpc: '2.0', id: 11, method: 'ping' });
      const refused = await fresh.reply(10);
      expect(refused.error.code).toBe(-32600);
      expect(refused.error.message).toBe('Invalid Request: tools/call before initialize; send initialize first (only ping is answered before it)');
      expect(await fresh.reply(11)).toMatchObject({ result: {} });
      await fresh.initialize(12);
      fresh.send({ jsonrpc: '2.0', id: 13, method: 'tools/call', params: { name: 'search_symbols', arguments: { query: 'summarize' } } });
      const answered = await fresh.reply(13);
      expect(answered.result.isError).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});

describe('gortex mcp through the daemon (proxy and socket session)', () => {
  const w = daemonWorld();
  const repo = gitFixture('query/app-ts', 'sockapp');
  const daemonLog = (): string => {
    const file = path.join(w.home, 'daemon.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };
  beforeAll(async () => {
    const started = runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: repo });
    expect(started.status).toBe(0);
  });
  afterAll(() => {
    runCli(['daemon', 'stop'], { env: w.env });
  });

  lineTransportChecks(
    async () => {
      const peer = new RawStdioPeer(['--repo', repo], w.env);
      await peer.logged(/connected to the gortex daemon/);
      await peer.initialize();
      return peer;
    },
    async (peer, pattern) => {
      // The daemon logs it; the proxy also says so on the stderr the MCP client shows.
      await peer.logged(/a message on stdin is over the 10 MiB limit of one MCP message; the daemon skips it and answers an error/);
      for (let i = 0; i < 100 && !pattern.test(daemonLog()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(daemonLog()).toMatch(pattern);
    },
  );

  test('before initialize, a socket session refuses tools/call', async () => {
    const fresh = new RawStdioPeer(['--repo', repo], w.env);
    try {
      fresh.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_symbols', arguments: { query: 'summarize' } } });
      const refused = await fresh.reply(1);
      expect(refused.error).toMatchObject({ code: -32600, message: expect.stringContaining('tools/call before initialize') });
    } finally {
      await fresh.close();
    }
  });
});

describe('POST /mcp and POST /v1/tools', () => {
  let repo: EmbeddedRepo;
  let server: RunningHttpServer;
  /** Tool calls inside the repository context right now, and the most at once. */
  const contexts = { now: 0, most: 0 };

  beforeAll(async () => {
    const root = fixtureCopy('query/app-ts', 'httpsec');
    // Long lines full of quotes and backslashes (escaped twice in a tools/call answer, ~2.5x their
    // size): a read of it answers ~2 MB.
    fs.writeFileSync(path.join(root, 'big.txt'), `${'say "hi" to \\\\every\\\\one "here" '.repeat(250)}\n`.repeat(100));
    repo = await openEmbedded(root, { watch: false });
    const base = repoHost(repo, { watching: false });
    // The repository as MCP sessions see it, counting the calls inside its context at once.
    const counted = new Proxy(repo, {
      get(target, key) {
        if (key === 'context') {
          return async () => {
            contexts.now++;
            contexts.most = Math.max(contexts.most, contexts.now);
            try {
              await new Promise((resolve) => setTimeout(resolve, 30));
              return await target.context();
            } finally {
              contexts.now--;
            }
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const workspace = embeddedWorkspace(repo);
    const host: HttpHost = { ...base, newMcpServer: (options) => createMcpServer(counted, { workspace, ...options }) };
    server = await startHttpServer(host, { addr: '127.0.0.1:0', allowedOrigins: [], keepAliveMs: 200, mcp: { tools: 'core' } });
  });
  afterAll(async () => {
    await server.close();
    repo.close();
  });

  async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: any }> {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text === '' ? undefined : JSON.parse(text) };
  }

  async function session(): Promise<Record<string, string>> {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize()),
    });
    expect(res.status).toBe(200);
    const headers = { 'mcp-session-id': res.headers.get('mcp-session-id')! };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    return headers;
  }

  const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  test('a batch over the frame cap is refused with 413 naming the cap, before anything runs', async () => {
    const headers = await session();
    const frames = Array.from({ length: MCP_MAX_BATCH_FRAMES + 3 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
    const refused = await post(frames, headers);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(refused.body.error.message).toContain(`the batch has ${MCP_MAX_BATCH_FRAMES + 3} frames, over the limit of ${MCP_MAX_BATCH_FRAMES} per request`);
    // At the cap it is served.
    const served = await post(frames.slice(0, MCP_MAX_BATCH_FRAMES), headers);
    expect(served.status).toBe(200);
    expect(served.body.map((r: any) => r.id)).toEqual(frames.slice(0, MCP_MAX_BATCH_FRAMES).map((f) => f.id));
  });

  test('a batch is dispatched a few frames at a time, answered in order', async () => {
    const headers = await session();
    contexts.most = 0;
    const frames = Array.from({ length: 12 }, (_, i) => call(i + 1, 'search_symbols', { query: 'summarize' }));
    const answered = await post(frames, headers);
    expect(answered.status).toBe(200);
    expect(answered.body.map((r: any) => [r.id, r.result.isError])).toEqual(frames.map((f) => [f.id, undefined]));
    expect(contexts.most).toBeGreaterThan(0);
    expect(contexts.most).toBeLessThanOrEqual(MCP_BATCH_CONCURRENCY);
  });

  test('the answers of one batch stop at the response cap; the rest get errors saying whether they ran', async () => {
    const headers = await session();
    // ~1.4 MB each: 16 of them pass the cap.
    const frames = Array.from({ length: 16 }, (_, i) => call(i + 1, 'read_file', { path: 'big.txt', max_bytes: 1024 * 1024 }));
    const answered = await post(frames, headers);
    expect(answered.status).toBe(200);
    expect(Buffer.byteLength(answered.text)).toBeLessThanOrEqual(MCP_MAX_BATCH_RESPONSE_BYTES + 16 * 1024);
    expect(answered.body.map((r: any) => r.id)).toEqual(frames.map((f) => f.id));
    const cut = answered.body.findIndex((r: any) => r.error !== undefined);
    expect(cut).toBeGreaterThan(0);
    for (const r of answered.body.slice(0, cut)) expect(r.result.content[0].text).toContain('say \\"hi\\"');
    for (const r of answered.body.slice(cut)) {
      expect(r.error.code).toBe(-32600);
      expect(r.error.message).toMatch(new RegExp(`^Invalid Request: frame \\d+ (ran, but its answer was dropped|was not run): the answers to this batch reached the 16 MiB limit of one response \\(MCP_MAX_BATCH_RESPONSE_BYTES\\) at frame ${cut}`));
    }
    // The same read alone is answered whole.
    const alone = await post(frames[cut]!, headers);
    expect(alone.body.result.content[0].text).toContain('say \\"hi\\"');
  });

  test('JSON nested past the depth limit in tools/call is refused with 400 naming the limit', async () => {
    const headers = await session();
    const refused = await post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":"x","deep":${deepArray(100_000)}}}}`, headers);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(refused.body.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  test('POST /v1/tools/{name} with JSON nested past the depth limit answers 400 invalid_argument naming the limit', async () => {
    const res = await fetch(`${server.url}/v1/tools/search_symbols`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"query":"x","deep":${deepArray(100_000)}}`,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error).toBe('invalid_argument');
    expect(body.message).toBe(`the request body nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels, the limit; send flatter arguments`);
    // At the limit it is accepted (an unknown option, reported and ignored).
    const atLimit = await fetch(`${server.url}/v1/tools/search_symbols`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"query":"summarize","deep":${deepArray(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(atLimit.status).toBe(200);
  });
});
