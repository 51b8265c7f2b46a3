/**
 * API contracts across repositories: a daemon tracking a TypeScript frontend, a Python service
 * (FastAPI, gRPC server, GraphQL schema, Kafka, socket.io) and a Go service (gin, gRPC client,
 * Kafka, an OpenAPI document) — the multi-repo fixture in test/fixtures/contracts — answers the
 * matches and issues pinned in its golden, through MCP-equivalent `/v1/tools`, `gortex call` and
 * the web UI's `/v1/contracts` routes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/cli';
import { until } from './helpers/mcp';
import { daemonWorld, gitFixture } from './helpers/daemon';

const GOLDEN = path.join(__dirname, 'fixtures', 'contracts', 'golden.json');

/** A contract reduced to what the golden pins: who provides and consumes it, where, and its state. */
function summary(c: any): unknown {
  const side = (role: string) =>
    c.locations
      .filter((l: any) => l.role === role)
      .map((l: any) => `${l.repo_prefix}:${l.file_path}:${l.line}${l.meta.source ? ` (${l.meta.source})` : ''}`)
      .sort();
  return {
    id: c.id,
    type: c.type,
    status: c.status,
    ...(c.match ? { match: c.match } : {}),
    ...(c.documented ? { documented: true } : {}),
    ...(c.schema ? { schema: c.schema } : {}),
    ...(c.methods ? { methods: c.methods } : {}),
    providers: side('provider'),
    consumers: side('consumer'),
  };
}

describe('contracts across a frontend, a Python and a Go service', () => {
  const w = daemonWorld();
  const web = gitFixture('contracts/web', 'web');
  const users = gitFixture('contracts/users-py', 'users');
  const orders = gitFixture('contracts/orders-go', 'orders');
  let url: string;
  const get = async (route: string): Promise<any> => {
    const res = await fetch(`${url}${route}`);
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    expect(runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env: w.env, cwd: web }).status).toBe(0);
    expect(runCli(['track', users], { env: w.env }).status).toBe(0);
    expect(runCli(['track', orders], { env: w.env }).status).toBe(0);
    const status = await until('three repositories ready', async () => {
      const r = runCli(['daemon', 'status', '--json'], { env: w.env });
      const s = r.status === 0 ? JSON.parse(r.stdout) : undefined;
      return s && s.repos.length === 3 && s.repos.every((x: any) => x.phase === 'ready') ? s : undefined;
    }, 60_000);
    url = status.http.url;
  });
  afterAll(() => {
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('the matches and issues are the golden', async () => {
    const list = await get('/v1/contracts');
    const check = await get('/v1/contracts/validate');
    const got = { contracts: list.contracts.map(summary), issues: check.issues, summary: check.summary };
    if (process.env.GORTEX_BLESS) fs.writeFileSync(GOLDEN, `${JSON.stringify(got, null, 2)}\n`);
    expect(got).toEqual(JSON.parse(fs.readFileSync(GOLDEN, 'utf8')));
  });

  test('the tool answers the same through gortex call, and filters by type and state', async () => {
    const call = (args: Record<string, unknown>) => {
      const r = runCli(['call', 'contracts', '--json-args', JSON.stringify(args)], { env: w.env, cwd: web });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout);
    };
    const all = call({});
    expect(all.repos.sort()).toEqual(['orders', 'users', 'web']);
    // Types stated in code ride on each location: FastAPI's response_model, axios' type argument.
    const getUser = all.contracts.find((c: any) => c.id === 'http::GET::/users/{}');
    expect(getUser.locations.find((l: any) => l.role === 'provider').meta).toMatchObject({ source: 'fastapi/flask', method: 'GET', route: '/users/{user_id}', response_type: 'User', path_params: ['user_id'] });
    const grpc = call({ types: ['grpc'] });
    expect(grpc.contracts.map((c: any) => c.id)).toEqual(['grpc::UserService']);
    expect(grpc.contracts[0].methods).toEqual([
      { name: 'GetUser', request_type: 'GetUserRequest', response_type: 'UserReply' },
      { name: 'WatchUsers', request_type: 'WatchRequest', response_type: 'UserReply', response_stream: true },
    ]);
    const orphans = call({ status: 'orphan_consumer', types: ['http'] });
    expect(orphans.contracts.map((c: any) => c.id).sort()).toEqual(['http::GET::/users/{}/avatar', 'http::PATCH::/orders/{}']);
    const issues = call({ action: 'check', types: ['env'] });
    expect(issues.issues.map((i: any) => [i.contract_id, i.kind, i.severity])).toEqual(
      expect.arrayContaining([['env::USERS_GRPC_ADDR', 'orphan_consumer', 'warning']]),
    );
    const one = call({ repos: ['orders'] });
    expect(one.repos).toEqual(['orders']);
    // The verb: a table, the check by severity, and a family it does not know refused.
    const table = runCli(['contracts', '--type', 'topic'], { env: w.env, cwd: web });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^2 contracts across /);
    expect(table.stdout).toMatch(/topic +matched +topic::order-created +orders:main\.go:\d+ +users:app\.py:\d+/);
    const checked = runCli(['contracts', '--check', '--type', 'http'], { env: w.env, cwd: web });
    expect(checked.stdout).toMatch(/^\d+ contract issues across .*: 2 breaking, /);
    expect(checked.stdout).toMatch(/breaking +method_mismatch +PATCH /);
    const unknownType = runCli(['contracts', '--type', 'smtp'], { env: w.env, cwd: web });
    expect(unknownType.status).toBe(2);
    expect(unknownType.stderr).toMatch(/smtp/);
    const bad = runCli(['call', 'contracts', '--json-args', '{"repos":["nope"]}'], { env: w.env, cwd: web });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/repos: nope is not served here; repositories: /);
  });
});

describe('matching edge cases', () => {
  test('a root route does not swallow every call; a gateway prefix still matches a named path', async () => {
    const { matchContracts } = await import('../ts/tools/contracts');
    const site = (role: 'provider' | 'consumer', method: string, p: string, repo: string) => ({ kind: 'http' as const, role, key: `http::${method}::${p}`, name: `${method} ${p}`, source: 'test', path: 'x.ts', line: 1, repo });
    const { contracts, issues } = matchContracts([
      site('provider', 'ANY', '/', 'api'),
      site('provider', 'GET', '/users/{}', 'api'),
      site('consumer', 'GET', '/api/users/{}', 'web'),
      site('consumer', 'GET', '/reports/{}', 'web'),
    ]);
    expect(contracts.find((c) => c.id === 'http::GET::/users/{}')).toMatchObject({ status: 'matched', match: 'prefix', callers: 1 });
    expect(contracts.find((c) => c.id === 'http::GET::/reports/{}')).toMatchObject({ status: 'orphan_consumer' });
    expect(issues.map((i) => [i.contract_id, i.kind])).toEqual(expect.arrayContaining([['http::GET::/reports/{}', 'orphan_consumer']]));
  });
});

describe('contracts of one repository, through the compact surface', () => {
  test('analyze operation contracts answers for the session repository alone', async () => {
    const { openEmbedded } = await import('../ts/workspace/embedded');
    const { okJson, serveEmbedded } = await import('./helpers/mcp');
    const repo = await openEmbedded(gitFixture('contracts/web', 'webalone'), { watch: false });
    const client = await serveEmbedded(repo, 'compact');
    try {
      const r = await okJson(client, 'analyze', { operation: 'contracts', arguments: { types: ['http', 'env'] } });
      expect(r.repos).toEqual(['webalone']);
      // Alone, every call the frontend makes is served by nothing; its variables are defined beside it.
      expect(r.contracts.filter((c: any) => c.type === 'http').every((c: any) => c.status === 'orphan_consumer')).toBe(true);
      expect(r.contracts.filter((c: any) => c.type === 'env').map((c: any) => [c.id, c.status])).toEqual([
        ['env::VITE_ORDERS_API', 'matched'],
        ['env::VITE_USERS_API', 'matched'],
      ]);
    } finally {
      await client.close();
      repo.close();
    }
  });
});
