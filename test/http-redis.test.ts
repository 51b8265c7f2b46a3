/**
 * MCP sessions shared by two replicas through Redis: a real `redis-server`, two `startHttpServer`
 * listeners over two hosts, each with its own `RedisSessionStore` on the same Redis (as replicas
 * behind a load balancer are). A session made on one is served, ended and expired on the other.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startHttpServer, type RunningHttpServer } from '../ts/http/app';
import { repoHost, type HttpHost } from '../ts/http/host';
import { RespClient, parseRedisUrl } from '../ts/http/resp';
import { RedisSessionStore } from '../ts/http/session-state';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { startRedis, type TestRedis } from './helpers/redis';
import { isolateHttpEnv } from './helpers/http';
import { fixtureCopy } from './helpers/repo';

isolateHttpEnv();

let redis: TestRedis;
let raw: RespClient;
let repo: EmbeddedRepo;
const stores: RedisSessionStore[] = [];
const made: { a: Server[]; b: Server[] } = { a: [], b: [] };
let a: RunningHttpServer;
let b: RunningHttpServer;

/** A host over the shared repository that records the MCP servers it makes. */
function recordingHost(into: Server[]): HttpHost {
  const base = repoHost(repo, { watching: false });
  return {
    ...base,
    newMcpServer: (options) => {
      const server = base.newMcpServer(options);
      into.push(server);
      return server;
    },
  };
}

async function replica(into: Server[]): Promise<RunningHttpServer> {
  const store = new RedisSessionStore(redis.url);
  stores.push(store);
  return startHttpServer(recordingHost(into), { addr: '127.0.0.1:0', allowedOrigins: [], mcp: { tools: 'core' }, sessionStore: store });
}

beforeAll(async () => {
  redis = await startRedis();
  raw = new RespClient(redis.url);
  repo = await openEmbedded(fixtureCopy('query/app-ts', 'redisapp'), { watch: false });
  a = await replica(made.a);
  b = await replica(made.b);
});

afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((s) => s.close()));
  await Promise.all(stores.map((s) => s.close()));
  await raw?.close();
  repo?.close();
  await redis?.stop();
});

async function post(server: RunningHttpServer, body: unknown, session?: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Initializes a session on `server` as client `name`; returns its id. */
async function session(server: RunningHttpServer, name = 'redis-test'): Promise<string> {
  const init = await post(server, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name, version: '1.0.0' } },
  });
  expect(init.status).toBe(200);
  const id = init.headers.get('mcp-session-id')!;
  expect((await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, id)).status).toBe(202);
  return id;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

test('a session initialized on A is served by B (rebuilt from the stored initialize)', async () => {
  // claude-code gets GCX by default: seeing GCX on B proves B replayed A's initialize.
  const id = await session(a, 'claude-code');
  const stored = JSON.parse((await raw.command(['GET', `gortex:mcp:session:${id}`])) as string);
  expect(stored).toMatchObject({ id, tools: 'core', initialize: { clientInfo: { name: 'claude-code' } } });
  expect(await raw.command(['PTTL', `gortex:mcp:session:${id}`])).toBeGreaterThan(1_700_000);

  const before = made.b.length;
  const onB = await post(b, call(2, 'search_symbols', { query: 'summarize' }), id);
  expect(onB.status).toBe(200);
  expect(onB.body.id).toBe(2);
  const text: string = onB.body.result.content[0].text;
  expect(text.startsWith('GCX1')).toBe(true);
  expect(text).toContain('summarize');
  expect(made.b.length).toBe(before + 1);
  // The rebuilt server stays live on B: later calls reuse it.
  expect((await post(b, call(3, 'get_symbol', { id: 'summarize', format: 'json' }), id)).body.result.content[0].text).toContain('redisapp/src/render.ts::summarize');
  expect(made.b.length).toBe(before + 1);
  expect((await post(a, call(4, 'graph_stats', { format: 'json' }), id)).status).toBe(200);
});

test('DELETE on B ends the session for A too', async () => {
  const id = await session(a);
  const serverOnA = made.a[made.a.length - 1]!;
  expect((await post(b, { jsonrpc: '2.0', id: 1, method: 'ping' }, id)).status).toBe(200);
  const del = await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } });
  expect(del.status).toBe(204);
  expect(await raw.command(['EXISTS', `gortex:mcp:session:${id}`])).toBe(0);
  const onA = await post(a, { jsonrpc: '2.0', id: 2, method: 'ping' }, id);
  expect(onA.status).toBe(404);
  expect(onA.body).toMatchObject({ id: 2, error: { code: -32001 } });
  // A's own server for the session was closed when the store said it is gone.
  expect(serverOnA.transport).toBeUndefined();
});

test('a session that expires in Redis is 404 on both replicas', async () => {
  const id = await session(a);
  const key = `gortex:mcp:session:${id}`;
  expect(await raw.command(['PEXPIRE', key, 1])).toBe(1);
  while ((await raw.command(['EXISTS', key])) !== 0) await new Promise((resolve) => setTimeout(resolve, 5));
  for (const server of [a, b]) {
    const answer = await post(server, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, id);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe(-32001);
  }
});

test('the store itself: put, get, touch, delete', async () => {
  const store = stores[0]!;
  const state = { id: 'unit-1', created_at: new Date().toISOString(), initialize: { clientInfo: { name: 'x', version: '1' } } };
  await store.put('unit-1', state, 60_000);
  expect(await store.get('unit-1')).toEqual(state);
  expect(await store.touch('unit-1', 120_000)).toBe(true);
  expect(await raw.command(['PTTL', RedisSessionStore.key('unit-1')])).toBeGreaterThan(60_000);
  await store.put('unit-2', { ...state, id: 'unit-2' }, undefined);
  expect(await raw.command(['PTTL', RedisSessionStore.key('unit-2')])).toBe(-1);
  expect(await store.touch('unit-2', undefined)).toBe(true);
  await store.delete('unit-1');
  await store.delete('unit-2');
  expect(await store.get('unit-1')).toBeUndefined();
  expect(await store.touch('unit-1', 1000)).toBe(false);
  await raw.command(['SET', RedisSessionStore.key('junk'), 'not json']);
  expect(await store.get('junk')).toBeUndefined();
  expect(parseRedisUrl('rediss://user:p%40ss@cache.example:6380/2')).toEqual({ host: 'cache.example', port: 6380, tls: true, username: 'user', password: 'p@ss', db: 2 });
  expect(() => parseRedisUrl('http://x')).toThrow(/redis:\/\//);
});

test('an unreachable store answers 503 with a JSON-RPC error, not a hang or a crash', async () => {
  // Nothing listens on port 1: the connection is refused at once.
  const down = new RedisSessionStore('redis://127.0.0.1:1', { timeoutMs: 2000 });
  stores.push(down);
  const server = await startHttpServer(recordingHost([]), { addr: '127.0.0.1:0', allowedOrigins: [], sessionStore: down });
  try {
    const answer = await post(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, 'some-session');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, message: expect.stringContaining('session store unavailable') } });
    const init = await post(server, { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(init.status).toBe(503);
    expect(init.headers.get('mcp-session-id')).toBeNull();
  } finally {
    await server.close();
  }
});
