/**
 * MCP Streamable HTTP on `/mcp` over a real listener: the SDK's own client end to end, and raw
 * requests for the session rules (404 before dispatch, 400 without a session, 202, batches,
 * DELETE, TTL headers and expiry, the GET stream of server-initiated notifications).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../ts/http/app';
import { repoHost, type HttpHost } from '../ts/http/host';
import { parseIdleTtl, sessionIdleTtl } from '../ts/http/streamable';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { isolateHttpEnv, readSse } from './helpers/http';
import { fixtureCopy } from './helpers/repo';

isolateHttpEnv();

const SUMMARIZE = 'mcpweb/src/render.ts::summarize';

let repo: EmbeddedRepo;
let host: HttpHost;
/** Every MCP server the host made, to check they are closed when their session ends. */
const made: Server[] = [];
const servers: RunningHttpServer[] = [];
let main: RunningHttpServer;

async function serve(options: Partial<HttpServerOptions> = {}): Promise<RunningHttpServer> {
  const server = await startHttpServer(host, { addr: '127.0.0.1:0', allowedOrigins: [], keepAliveMs: 200, mcp: { tools: 'core' }, ...options });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  repo = await openEmbedded(fixtureCopy('query/app-ts', 'mcpweb'), { watch: false });
  const base = repoHost(repo, { watching: false });
  host = {
    ...base,
    newMcpServer: (options) => {
      const server = base.newMcpServer(options);
      made.push(server);
      return server;
    },
  };
  main = await serve();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  repo.close();
});

interface RpcAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** POSTs `body` to `/mcp` (a JSON value or raw text). */
async function post(server: RunningHttpServer, body: unknown, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

const initialize = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

/** A fresh raw session (initialize + initialized); returns its id. */
async function rawSession(server: RunningHttpServer): Promise<string> {
  const init = await post(server, initialize());
  expect(init.status).toBe(200);
  const id = init.headers.get('mcp-session-id')!;
  expect((await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).status).toBe(202);
  return id;
}


async function connectClient(server: RunningHttpServer): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  const client = new Client({ name: 'gortex-http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('the SDK client over Streamable HTTP', () => {
  test('connects, lists tools, calls a tool and reads a resource', async () => {
    const { client, transport } = await connectClient(main);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search_symbols', 'get_callers', 'tools_search']));
    expect(names).not.toContain('find_clones');
    const result = (await client.callTool({ name: 'search_symbols', arguments: { query: 'summarize' } })) as any;
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(result.content[0].text).results[0].id).toBe(SUMMARIZE);
    expect(result._meta.etag).toMatch(/^[0-9a-f]{16}$/);
    const { contents } = await client.readResource({ uri: 'gortex://stats' });
    expect(JSON.parse((contents[0] as { text: string }).text).nodes).toBeGreaterThan(20);
    await transport.terminateSession();
    await client.close();
  });
});

describe('raw /mcp requests', () => {
  test('initialize mints a session with the TTL header, _meta and the protocol version', async () => {
    const init = await post(main, initialize(), { 'mcp-protocol-version': '2025-06-18' });
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(init.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.headers.get('mcp-session-idle-ttl')).toBe('1800');
    expect(init.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(init.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'gortex' } } });
    expect(init.body.result._meta['gortex/session_idle_ttl_seconds']).toBe(1800);
    const other = await post(main, initialize());
    expect(other.headers.get('mcp-protocol-version')).toBe(LATEST_PROTOCOL_VERSION);
    expect(other.headers.get('mcp-session-id')).not.toBe(init.headers.get('mcp-session-id'));
  });

  test('notifications get 202; a batch gets its responses in request order', async () => {
    const id = await rawSession(main);
    const batch = await post(
      main,
      [
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 7, method: 'ping' },
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_symbol', arguments: { id: 'summarize' } } },
      ],
      { 'mcp-session-id': id },
    );
    expect(batch.status).toBe(200);
    expect(batch.headers.get('mcp-session-idle-ttl')).toBe('1800');
    expect(batch.body.map((r: any) => r.id)).toEqual(['b', 7, 8]);
    expect(batch.body[0].result.tools.map((t: any) => t.name)).toContain('search_symbols');
    expect(batch.body[1].result).toEqual({});
    expect(JSON.parse(batch.body[2].result.content[0].text).node.id).toBe(SUMMARIZE);
    const notifications = await post(main, [{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }], { 'mcp-session-id': id });
    expect(notifications.status).toBe(202);
    expect(notifications.text).toBe('');
  });

  test('a lone request with a progress token is answered as its own SSE stream when the client accepts one; JSON otherwise', async () => {
    const id = await rawSession(main);
    const call = { jsonrpc: '2.0', id: 'p1', method: 'tools/call', params: { name: 'get_symbol', arguments: { id: 'summarize' }, _meta: { progressToken: 'tok' } } };
    const res = await fetch(`${main.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id },
      body: JSON.stringify(call),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('mcp-session-idle-ttl')).toBe('1800');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    // Nothing to wait for here, so no progress: the response is the stream's one event, then it ends.
    expect(events).toHaveLength(1);
    const [kind, data] = events[0]!.split('\n');
    expect(kind).toBe('event: message');
    const answer = JSON.parse(data!.replace(/^data: /, ''));
    expect(answer.id).toBe('p1');
    expect(JSON.parse(answer.result.content[0].text).node.id).toBe(SUMMARIZE);
    // A client that takes only JSON gets JSON, token or not.
    const plain = await post(main, { ...call, id: 'p2' }, { 'mcp-session-id': id, accept: 'application/json' });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body.id).toBe('p2');
  });

  test('an unknown session is 404 before dispatch with -32001 for requests and no session header', async () => {
    const unknown = randomUUID();
    const single = await post(main, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': unknown });
    expect(single.status).toBe(404);
    expect(single.headers.get('mcp-session-id')).toBeNull();
    expect(single.body).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32001, message: expect.stringMatching(/^session not found/) } });
    const batch = await post(
      main,
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      { 'mcp-session-id': unknown },
    );
    expect(batch.status).toBe(404);
    expect(batch.body.map((r: any) => [r.id, r.error.code])).toEqual([
      [1, -32001],
      [2, -32001],
    ]);
    const onlyNotification = await post(main, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': unknown });
    expect(onlyNotification.status).toBe(404);
    expect(onlyNotification.text).toBe('');
    const reinit = await post(main, initialize(3), { 'mcp-session-id': unknown });
    expect(reinit.status).toBe(404);
    expect(reinit.body.error.code).toBe(-32001);
    expect(reinit.headers.get('mcp-session-id')).toBeNull();
  });

  test('without a session id only a standalone initialize is accepted', async () => {
    const noId = await post(main, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(noId.status).toBe(400);
    expect(noId.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('initialize') } });
    const batched = await post(main, [initialize()]);
    expect(batched.status).toBe(400);
    expect(batched.headers.get('mcp-session-id')).toBeNull();
    const wrongType = await post(main, JSON.stringify(initialize()), { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    const badJson = await post(main, '{"jsonrpc":');
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe(-32700);
    const huge = await post(main, { ...initialize(), padding: 'x'.repeat(4 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toContain('4 MiB');
  });

  test('DELETE ends the session (204, idempotent) and closes its server', async () => {
    const before = made.length;
    const id = await rawSession(main);
    const server = made[before]!;
    expect(server.transport).toBeDefined();
    const del = () => fetch(`${main.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect((await del()).status).toBe(204);
    expect((await del()).status).toBe(204);
    expect((await fetch(`${main.url}/mcp`, { method: 'DELETE' })).status).toBe(204);
    expect(server.transport).toBeUndefined();
    expect((await post(main, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(404);
  });

  test('GET streams server-initiated notifications: tools/list_changed after tools_search promotes', async () => {
    const id = await rawSession(main);
    expect((await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id } })).status).toBe(406);
    const notFound = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': randomUUID(), accept: 'text/event-stream' } });
    expect(notFound.status).toBe(404);

    const first = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id, accept: 'text/event-stream' } });
    expect(first.status).toBe(200);
    // A second GET replaces the first stream, which ends.
    const controller = new AbortController();
    const stream = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id, accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await readSse(first, () => false)).toBe('');

    const promote = await post(
      main,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tools_search', arguments: { query: 'select:find_clones' } } },
      { 'mcp-session-id': id },
    );
    expect(JSON.parse(promote.body.result.content[0].text).promoted).toEqual(['find_clones']);
    const text = await readSse(stream, (t) => t.includes('notifications/tools/list_changed') && t.endsWith('\n\n'));
    controller.abort();
    const frame = /event: message\ndata: (.*)\n\n/.exec(text)!;
    expect(JSON.parse(frame[1]!)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const list = await post(main, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(list.body.result.tools.map((t: any) => t.name)).toContain('find_clones');
  });
});

describe('transport rules found by the MCP conformance run (benches/conformance.sh)', () => {
  test('an unsupported Mcp-Protocol-Version is 400 on POST and GET, after the session check; a supported one is echoed', async () => {
    const id = await rawSession(main);
    for (const version of ['2099-01-01', '2000-01-01', 'invalid-protocol-version']) {
      const refused = await post(main, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': version });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(`unsupported Mcp-Protocol-Version "${version}"`) } });
      // An unsupported value is not echoed back as if it were in force.
      expect(refused.headers.get('mcp-protocol-version')).toBe(LATEST_PROTOCOL_VERSION);
    }
    const supported = await post(main, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' });
    expect(supported.status).toBe(200);
    expect(supported.headers.get('mcp-protocol-version')).toBe('2025-03-26');
    expect(supported.body).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    // The session is checked first: an unknown one stays 404 whatever the header says.
    const unknown = await post(main, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': randomUUID(), 'mcp-protocol-version': '2099-01-01' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe(-32001);
    // A standalone initialize negotiates the version in its body, so the header does not gate it.
    const init = await post(main, initialize(), { 'mcp-protocol-version': '2099-01-01' });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.headers.get('mcp-protocol-version')).toBe(LATEST_PROTOCOL_VERSION);

    const badGet = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id, accept: 'text/event-stream', 'mcp-protocol-version': '2099-01-01' } });
    expect(badGet.status).toBe(400);
    expect(((await badGet.json()) as { error: { message: string } }).error.message).toContain('unsupported Mcp-Protocol-Version');
    const controller = new AbortController();
    const goodGet = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id, accept: 'text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION }, signal: controller.signal });
    expect(goodGet.status).toBe(200);
    controller.abort();
  });

  test('HEAD /mcp is 405 and does not replace the session stream', async () => {
    const id = await rawSession(main);
    const controller = new AbortController();
    const stream = await fetch(`${main.url}/mcp`, { headers: { 'mcp-session-id': id, accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const head = await fetch(`${main.url}/mcp`, { method: 'HEAD', headers: { 'mcp-session-id': id, accept: 'text/event-stream' } });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    // The GET stream is still the session's: a server notification still reaches it.
    await post(
      main,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tools_search', arguments: { query: 'select:find_clones' } } },
      { 'mcp-session-id': id },
    );
    const text = await readSse(stream, (t) => t.includes('notifications/tools/list_changed'));
    controller.abort();
    expect(text).toContain('notifications/tools/list_changed');
  });
});

describe('idle expiry', () => {
  test('an idle session expires (server closed, 404) and the client can initialize again', async () => {
    const short = await serve({ sessionIdleTtlMs: 1000 });
    const before = made.length;
    const init = await post(short, initialize());
    const id = init.headers.get('mcp-session-id')!;
    expect(init.headers.get('mcp-session-idle-ttl')).toBe('1');
    expect(init.body.result._meta['gortex/session_idle_ttl_seconds']).toBe(1);
    const server = made[before]!;
    // Well past the TTL, so the store has expired the session whatever the machine's load.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const expired = await post(short, { jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': id });
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ id: 9, error: { code: -32001 } });
    expect(server.transport).toBeUndefined();

    const { client, transport } = await connectClient(short);
    const result = (await client.callTool({ name: 'get_symbol', arguments: { id: 'summarize' } })) as any;
    expect(JSON.parse(result.content[0].text).node.id).toBe(SUMMARIZE);
    await transport.terminateSession();
    await client.close();
  });

  test('a negative TTL disables expiry; bad settings name the variable', async () => {
    const forever = await serve({ sessionIdleTtlMs: -1 });
    const init = await post(forever, initialize());
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-idle-ttl')).toBeNull();
    expect(init.body.result._meta?.['gortex/session_idle_ttl_seconds']).toBeUndefined();
    expect(parseIdleTtl('30m')).toBe(1_800_000);
    expect(parseIdleTtl('90s')).toBe(90_000);
    expect(parseIdleTtl('1500ms')).toBe(1500);
    expect(parseIdleTtl('-1s')).toBeUndefined();
    expect(sessionIdleTtl(undefined, {})).toBe(1_800_000);
    expect(sessionIdleTtl(undefined, { GORTEX_MCP_SESSION_IDLE_TTL: '-1' })).toBeUndefined();
    expect(() => sessionIdleTtl(undefined, { GORTEX_MCP_SESSION_IDLE_TTL: 'soon' })).toThrow(/GORTEX_MCP_SESSION_IDLE_TTL/);
    process.env.GORTEX_MCP_SESSION_IDLE_TTL = 'soon';
    try {
      await expect(startHttpServer(host, { addr: '127.0.0.1:0', allowedOrigins: [] })).rejects.toThrow(/GORTEX_MCP_SESSION_IDLE_TTL/);
    } finally {
      delete process.env.GORTEX_MCP_SESSION_IDLE_TTL;
    }
  });
});
