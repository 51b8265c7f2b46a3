/**
 * The `/v1/*` JSON API, auth, Origin/CORS rules and SSE events over real listeners on 127.0.0.1:0,
 * serving a temp copy of the `query/app-ts` fixture opened in process (watched).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changeEvent, repoHost, type HttpHost } from '../ts/http/host';
import { parseAddr, startHttpServer, statusOfToolError, toolRequest, type HttpServerOptions, type RunningHttpServer } from '../ts/http/app';
import { checkBind, corsHeaders, hostOf, isLoopbackHost, tokensEqual } from '../ts/http/security';
import { SseChannel, type SseSink } from '../ts/http/sse';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { readSse } from './helpers/http';
import { fixtureCopy, tempHome } from './helpers/repo';

process.env.GORTEX_HOME = tempHome();
process.env.GORTEX_THREADS = '2';
delete process.env.GORTEX_DAEMON_HTTP_TOKEN;

const UI = 'https://ui.example';
const EVIL = 'https://evil.example';
const SUMMARIZE = 'httpapp/src/render.ts::summarize';

let root: string;
let repo: EmbeddedRepo;
let watching: HttpHost;
let quiet: HttpHost;
const servers: RunningHttpServer[] = [];

async function serve(host: HttpHost, options: Partial<HttpServerOptions> = {}): Promise<RunningHttpServer> {
  const server = await startHttpServer(host, { addr: '127.0.0.1:0', allowedOrigins: [], keepAliveMs: 200, ...options });
  servers.push(server);
  return server;
}

let open: RunningHttpServer;

beforeAll(async () => {
  root = fixtureCopy('query/app-ts', 'httpapp');
  repo = await openEmbedded(root, { watch: true });
  watching = repoHost(repo, { watching: true });
  quiet = repoHost(repo, { watching: false });
  open = await serve(watching);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  repo.close();
});

async function getJson(server: RunningHttpServer, route: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(server.url + route, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

function postTool(server: RunningHttpServer, tool: string, body: unknown, query = '', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/v1/tools/${tool}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The answer text of a `/v1/tools/{name}` MCP `CallToolResult` body: its one text block. */
function answerText(body: any): string {
  expect(body.content).toHaveLength(1);
  expect(body.content[0].type).toBe('text');
  return body.content[0].text as string;
}

/** The JSON answer of a successful `/v1/tools/{name}` body. */
function answerOf(body: any): any {
  expect(body.isError).toBeUndefined();
  return JSON.parse(answerText(body));
}


describe('/v1 routes', () => {
  test('/healthz, /v1/health, /v1/tools', async () => {
    expect(await getJson(open, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const health = await getJson(open, '/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', server_id: watching.serverId });
    expect(health.body.nodes).toBeGreaterThan(20);
    expect(health.body.repos[0].name).toBe('httpapp');
    const tools = await getJson(open, '/v1/tools');
    expect(Array.isArray(tools.body)).toBe(true);
    const names = tools.body.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_symbols', 'get_callers', 'graph_stats']));
    for (const t of tools.body) expect(t.inputSchema.type).toBe('object');
  });

  test('POST /v1/tools/{name}: raw and wrapped bodies, JSON and GCX', async () => {
    const raw = await postTool(open, 'search_symbols', { query: 'summarize' });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const rawBody = (await raw.json()) as any;
    expect(answerOf(rawBody).results[0].id).toBe(SUMMARIZE);
    expect(rawBody._meta.etag).toMatch(/^[0-9a-f]{16}$/);
    expect(raw.headers.get('etag')).toBe(`"${rawBody._meta.etag}"`);

    const wrapped = await postTool(open, 'get_callers', { arguments: { id: SUMMARIZE } });
    const wrappedBody = (await wrapped.json()) as any;
    expect(answerOf(wrappedBody).callers.map((c: any) => c.caller.qual_name)).toContain('Renderer.draw');

    // A GCX answer travels as the text of the same envelope.
    const gcx = await postTool(open, 'search_symbols', { arguments: { query: 'summarize' }, format: 'gcx' });
    expect(gcx.status).toBe(200);
    expect(gcx.headers.get('content-type')).toMatch(/^application\/json/);
    const gcxBody = (await gcx.json()) as any;
    expect(gcxBody.isError).toBeUndefined();
    const gcxText = answerText(gcxBody);
    expect(gcxText.startsWith('GCX1')).toBe(true);
    expect(gcxText).toContain('summarize');
    expect(gcx.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);

    // ?format= names the format for a raw body, and wins over the body's.
    expect(answerText(await (await postTool(open, 'graph_stats', {}, '?format=gcx')).json()).startsWith('GCX1')).toBe(true);
    const queryWins = await postTool(open, 'search_symbols', { query: 'summarize', format: 'gcx' }, '?format=json');
    expect(answerOf(await queryWins.json()).results[0].id).toBe(SUMMARIZE);
    // A body with no arguments at all is a call without arguments.
    const empty = await fetch(`${open.url}/v1/tools/graph_stats`, { method: 'POST' });
    expect(answerOf(await empty.json()).nodes).toBeGreaterThan(20);
  });

  test('request errors: format, unknown tool, size, JSON, body shape', async () => {
    const badQuery = await postTool(open, 'graph_stats', {}, '?format=xml');
    expect(badQuery.status).toBe(400);
    expect(await badQuery.json()).toMatchObject({ error: 'invalid_format', message: expect.stringContaining('"xml"') });
    expect((await postTool(open, 'graph_stats', { arguments: {}, format: 'yaml' })).status).toBe(400);

    const unknown = await postTool(open, 'get_caller', {});
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as any;
    expect(unknownBody).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^tool_not_found: .*"get_caller"/) }] });
    expect(unknownBody.available_tools).toEqual(expect.arrayContaining(['get_callers', 'search_symbols']));

    const large = await postTool(open, 'search_symbols', { query: 'x'.repeat(1024 * 1024 + 10) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('1 MiB') });

    const badJson = await postTool(open, 'search_symbols', '{"query":');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: 'invalid_json', message: expect.stringContaining('not valid JSON') });
    const array = await postTool(open, 'search_symbols', '[1,2]');
    expect(array.status).toBe(400);
    expect(await array.json()).toMatchObject({ error: 'invalid_body', message: expect.stringContaining('an array') });
    const badArgs = await postTool(open, 'search_symbols', { arguments: 5 });
    expect(await badArgs.json()).toMatchObject({ error: 'invalid_body', message: expect.stringContaining('"arguments"') });
  });

  test('tool errors become isError results with a status by code', async () => {
    const failure = (code: string, message: RegExp = /./) => ({ isError: true, content: [{ type: 'text', text: expect.stringMatching(new RegExp(`^${code}: ${message.source}`)) }] });
    const missing = await postTool(open, 'get_callers', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(failure('invalid_argument', /get_callers: id: /));
    const ambiguous = await postTool(open, 'get_callers', { id: 'area' });
    expect(ambiguous.status).toBe(400);
    expect(await ambiguous.json()).toMatchObject(failure('ambiguous'));
    const notFound = await postTool(open, 'get_symbol', { id: 'httpapp/src/nowhere.ts::ghost' });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject(failure('not_found'));
    // Session tools need an MCP session; over /v1 they are unavailable (409), not a server fault.
    const session = await postTool(open, 'ctx_stats', {});
    expect(session.status).toBe(409);
    expect(await session.json()).toMatchObject(failure('unavailable'));
    expect([statusOfToolError('not_available'), statusOfToolError('timeout'), statusOfToolError('internal')]).toEqual([409, 504, 500]);
  });

  test('stats, graph and scope', async () => {
    const stats = await getJson(open, '/v1/stats');
    expect(stats.body).toMatchObject({ server_id: watching.serverId, started_at: watching.startedAt });
    expect(stats.body.repos[0].name).toBe('httpapp');
    const graph = await getJson(open, '/v1/graph?repo=httpapp');
    expect(graph.status).toBe(200);
    const view = graph.body;
    expect(view.truncated).toBe(false);
    expect(view.stats.per_repo.map((r: any) => r.repo)).toEqual(['httpapp']);
    expect(view.stats.total_nodes).toBe(view.nodes.length);
    expect(view.nodes.find((n: any) => n.id === SUMMARIZE)).toMatchObject({ kind: 'function', name: 'summarize', file_path: 'src/render.ts', start_line: expect.any(Number), repo_prefix: 'httpapp', degree: expect.any(Number) });
    expect(view.edges.length).toBeGreaterThan(10);
    expect(view.edges[0]).toMatchObject({ from: expect.any(String), to: expect.any(String), kind: expect.any(String), cross_repo: false });

    for (const route of ['/v1/graph?repo=nope', '/v1/stats?repo=nope', '/v1/graph?project=web']) {
      const r = await getJson(open, route);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'scope_not_found', message: expect.any(String), available: expect.any(Array) });
    }
    expect((await getJson(open, '/v1/graph?repo=nope')).body.available).toEqual(['httpapp']);
    const scopedTool = await postTool(open, 'graph_stats', {}, '?repo=nope');
    expect(scopedTool.status).toBe(404);
    expect(((await scopedTool.json()) as any).error).toBe('scope_not_found');
  });

  test('unknown routes answer JSON 404s listing the routes', async () => {
    const r = await getJson(open, '/v1/nothing');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
    expect(r.body.routes).toEqual(expect.arrayContaining(['GET /v1/health', 'POST /v1/tools/{name}', 'GET /v1/events']));
    expect((await getJson(open, '/v1/tools/search_symbols')).status).toBe(404);
    const outside = await getJson(open, '/elsewhere');
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe('not_found');
  });
});

describe('auth, origin and CORS', () => {
  const token = 'tok-secret-1';
  const bearer = { authorization: `Bearer ${token}` };
  let authed: RunningHttpServer;
  beforeAll(async () => {
    authed = await serve(watching, { authToken: token, allowedOrigins: [UI], corsOrigin: UI });
  });

  test('a missing or wrong token is 401 with WWW-Authenticate; the right one passes; /healthz is exempt', async () => {
    const missing = await getJson(authed, '/v1/health');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="gortex"');
    expect(missing.body).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
    const wrong = await getJson(authed, '/v1/health', { headers: { authorization: 'Bearer tok-secret-2' } });
    expect(wrong.status).toBe(401);
    expect((await getJson(authed, '/v1/health', { headers: bearer })).status).toBe(200);
    expect((await getJson(authed, '/healthz')).status).toBe(200);
    expect((await postTool(authed, 'graph_stats', {})).status).toBe(401);
    expect((await postTool(authed, 'graph_stats', {}, '', bearer)).status).toBe(200);
    const mcp = await fetch(`${authed.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
  });

  test('?token= works on /v1/events only', async () => {
    expect((await getJson(authed, `/v1/health?token=${token}`)).status).toBe(401);
    const controller = new AbortController();
    const events = await fetch(`${authed.url}/v1/events?token=${token}`, { signal: controller.signal });
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
    expect((await getJson(authed, '/v1/events?token=nope')).status).toBe(401);
  });

  test('the token is re-read from GORTEX_DAEMON_HTTP_TOKEN on every request', async () => {
    const envServer = await serve(watching);
    try {
      process.env.GORTEX_DAEMON_HTTP_TOKEN = 'rotate-a';
      expect((await getJson(envServer, '/v1/health')).status).toBe(401);
      expect((await getJson(envServer, '/v1/health', { headers: { authorization: 'Bearer rotate-a' } })).status).toBe(200);
      process.env.GORTEX_DAEMON_HTTP_TOKEN = 'rotate-b';
      expect((await getJson(envServer, '/v1/health', { headers: { authorization: 'Bearer rotate-a' } })).status).toBe(401);
      expect((await getJson(envServer, '/v1/health', { headers: { authorization: 'Bearer rotate-b' } })).status).toBe(200);
    } finally {
      delete process.env.GORTEX_DAEMON_HTTP_TOKEN;
    }
    expect((await getJson(envServer, '/v1/health')).status).toBe(200);
  });

  test('a browser Origin is refused unless allowed, even with a valid token; CORS headers only for the CORS origin', async () => {
    const refused = await getJson(authed, '/v1/health', { headers: { ...bearer, origin: EVIL } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'origin_not_allowed', message: expect.stringContaining('--http-allowed-origin') });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const preflightRefused = await fetch(`${authed.url}/mcp`, { method: 'OPTIONS', headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
    expect(preflightRefused.status).toBe(403);

    const allowed = await getJson(authed, '/v1/health', { headers: { ...bearer, origin: UI } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(UI);
    expect(allowed.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    // Preflights bypass auth but not the Origin guard.
    const preflight = await fetch(`${authed.url}/v1/tools/graph_stats`, { method: 'OPTIONS', headers: { origin: UI, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    const mcpPreflight = await fetch(`${authed.url}/mcp`, { method: 'OPTIONS', headers: { origin: UI, 'access-control-request-method': 'DELETE' } });
    expect(mcpPreflight.status).toBe(204);
    expect(mcpPreflight.headers.get('access-control-allow-origin')).toBe(UI);
    // A valid origin without a token is still unauthorized.
    expect((await getJson(authed, '/v1/health', { headers: { origin: UI } })).status).toBe(401);

    // Allowed but no --cors-origin: access, no CORS headers.
    const noCors = await serve(watching, { allowedOrigins: [UI] });
    const plain = await getJson(noCors, '/v1/health', { headers: { origin: UI } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    // The default allow-list is empty: every browser origin is refused.
    expect((await getJson(open, '/v1/health', { headers: { origin: UI } })).status).toBe(403);
  });

  test('--cors-origin * grants nothing beyond the allow-list', async () => {
    const star = await serve(watching, { allowedOrigins: [UI], corsOrigin: '*' });
    const evil = await getJson(star, '/v1/health', { headers: { origin: EVIL } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const ui = await getJson(star, '/v1/health', { headers: { origin: UI } });
    expect(ui.status).toBe(200);
    expect(ui.headers.get('access-control-allow-origin')).toBe(UI);
    expect(corsHeaders(EVIL, '*', [])).toBeUndefined();
    expect(corsHeaders(UI, 'https://other.example', [UI, 'https://other.example'])).toBeUndefined();
  });

  test('without a token only loopback Host names are answered (DNS rebinding), with a token any name is', async () => {
    const http = await import('node:http');
    const get = (server: RunningHttpServer, host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const url = new URL(`${server.url}/v1/stats`);
        const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host, ...headers } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const rebound = await get(open, 'evil.example.com:80');
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: 'host_not_allowed' });
    for (const name of [`localhost:${open.port}`, `127.0.0.1:${open.port}`, `[::1]:${open.port}`, 'localhost']) expect((await get(open, name)).status).toBe(200);
    expect((await get(authed, 'gortex.internal:7411', bearer)).status).toBe(200);
    expect(hostOf('[::1]:80')).toBe('::1');
    expect(hostOf('example.com:8080')).toBe('example.com');
    expect(hostOf('::1')).toBe('::1');
  });

  test('binding: only loopback may run without a token', async () => {
    await expect(startHttpServer(watching, { addr: '0.0.0.0:0', allowedOrigins: [] })).rejects.toThrow(/--http-auth-token.*GORTEX_DAEMON_HTTP_TOKEN/);
    await expect(startHttpServer(watching, { addr: ':0', allowedOrigins: [] })).rejects.toThrow(/without an auth token/);
    for (const h of ['127.0.0.1', '127.4.5.6', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '10.1.2.3', '::', 'example.com', '128.0.0.1']) expect(isLoopbackHost(h)).toBe(false);
    expect(() => checkBind('10.1.2.3', 'tok')).not.toThrow();
    expect(() => checkBind('10.1.2.3', undefined)).toThrow(/--http-auth-token/);
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abcd')).toBe(false);
    expect(parseAddr('[::1]:7411')).toEqual({ host: '::1', port: 7411 });
    expect(() => parseAddr('localhost')).toThrow(/host:port/);
  });
});

describe('/v1/events', () => {
  test('streams a graph_change after a file is edited on disk', async () => {
    const controller = new AbortController();
    const res = await fetch(`${open.url}/v1/events`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toMatch(/no-cache/);
    // The response head arrives after the subscription is in place, so this edit cannot be missed.
    fs.appendFileSync(path.join(root, 'src', 'format.ts'), '\nexport function whisper(text: string): string {\n  return text.toLowerCase();\n}\n');
    const text = await readSse(res, (t) => /event: graph_change\nid: \d+\ndata: .*\n\n/.test(t) && t.includes(': keepalive\n\n'));
    controller.abort();
    const m = /event: graph_change\nid: (\d+)\ndata: (.*)\n\n/.exec(text)!;
    const event = JSON.parse(m[2]!);
    expect(event).toMatchObject({ repo: 'httpapp', kind: 'modified', files_truncated: false });
    expect(event.files).toContain('src/format.ts');
    expect(event.nodes_added).toBeGreaterThan(0);
    expect(String(event.timestamp)).toBe(m[1]);
    const found = (await (await postTool(open, 'search_symbols', { query: 'whisper' })).json()) as any;
    expect(answerOf(found).results[0].id).toBe('httpapp/src/format.ts::whisper');
  });

  test('a host that does not watch says so and closes', async () => {
    const server = await serve(quiet);
    const res = await fetch(`${server.url}/v1/events`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(': watch mode not active\n\n');
  });

  test('changeEvent maps a cold re-index to reindexed', () => {
    const report = { mode: 'cold', wall_ms: 5, files: { parsed: 3, deleted: 0, total: 3 } } as any;
    const event = changeEvent('r', { root: '/r', files: ['a.ts'], files_truncated: false, nodes_before: 10, nodes_after: 7, edges_before: 5, edges_after: 9, reason: 'reindex', report, timestamp: 42 });
    expect(event).toMatchObject({ kind: 'reindexed', nodes_added: 0, nodes_removed: 3, edges_added: 4, edges_removed: 0, files_total: 3, timestamp: 42 });
  });
});

describe('SSE backlog', () => {
  /** A socket stand-in whose buffer is full until `drain()` is called. */
  class FullSink implements SseSink {
    written: string[] = [];
    full = true;
    ended = false;
    private onDrain: (() => void) | undefined;
    write(chunk: string): boolean {
      this.written.push(chunk);
      return !this.full;
    }
    once(_event: 'drain', listener: () => void): void {
      this.onDrain = listener;
    }
    end(): void {
      this.ended = true;
    }
    drain(): void {
      this.full = false;
      const listener = this.onDrain;
      this.onDrain = undefined;
      listener?.();
    }
  }

  test('a backed-up subscriber queues 16 events, drops the rest and says how many', () => {
    const sink = new FullSink();
    const channel = new SseChannel(sink);
    channel.event('graph_change', '{"n":0}', '0');
    expect(sink.written).toHaveLength(1);
    for (let i = 1; i <= 20; i++) channel.event('graph_change', `{"n":${i}}`, String(i));
    channel.comment('keepalive');
    expect(sink.written).toHaveLength(1);
    expect(channel.dropped).toBe(4);
    sink.drain();
    expect(sink.written).toHaveLength(1 + 16 + 1);
    expect(sink.written[16]).toBe('event: graph_change\nid: 16\ndata: {"n":16}\n\n');
    expect(sink.written[17]).toBe(': dropped 4 events\n\n');
    channel.event('graph_change', '{"n":21}');
    expect(sink.written[18]).toBe('event: graph_change\ndata: {"n":21}\n\n');
    channel.end();
    expect(sink.ended).toBe(true);
  });

  test('toolRequest reads wrapped and raw bodies', () => {
    expect(toolRequest(Buffer.from('{"arguments":{"q":1},"format":"gcx"}'), undefined)).toEqual({ args: { q: 1 }, format: 'gcx' });
    expect(toolRequest(Buffer.from('{"q":1,"format":"gcx"}'), 'json')).toEqual({ args: { q: 1 }, format: 'json' });
    expect(toolRequest(Buffer.from('{"arguments":{"q":1,"format":"gcx"}}'), undefined)).toEqual({ args: { q: 1 }, format: 'gcx' });
    // No format named: the pipeline's default (JSON over /v1) applies.
    expect(toolRequest(Buffer.from('{"arguments":{"q":1},"limit":2}'), undefined)).toEqual({ args: { arguments: { q: 1 }, limit: 2 }, format: undefined });
    expect(toolRequest(undefined, undefined)).toEqual({ args: {}, format: undefined });
  });
});
