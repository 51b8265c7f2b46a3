/**
 * Who may change what the daemon serves. Admin tools — track, untrack and re-index repositories,
 * and the tools that keep something beyond the session (saved scopes, ranking feedback) — are
 * refused to anonymous HTTP callers (a loopback bind without a token: any local process) on `/v1`
 * and on `/mcp`, the compact facade included, while the socket and a token-bearing HTTP caller keep
 * them. `daemon.allowed_roots` bounds what may be tracked at all, on every door, by real path.
 * Real daemons, real HTTP and MCP clients, the built CLI.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isAdminTool } from '../ts/calls/dispatch';
import { ConfigError, loadConfig } from '../ts/config/config';
import { ALL_TOOLS } from '../ts/tools/index';
import { sidecarAt } from '../ts/engine/sidecar';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { daemonWorld, gitFixture } from './helpers/daemon';
import { FIXTURES } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

/** A daemon world whose global config lives in its own folder (never the user's). */
function world(config?: string): { home: string; env: Record<string, string>; configFile: string } {
  const w = daemonWorld();
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-xdg-'));
  const configFile = path.join(xdg, 'gortex', 'config.yaml');
  if (config !== undefined) {
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, config);
  }
  const env: Record<string, string> = { ...w.env, XDG_CONFIG_HOME: xdg };
  delete env.GORTEX_DAEMON_HTTP_TOKEN;
  return { home: w.home, env, configFile };
}

/** The daemon's status once every tracked repository is ready. */
async function readyStatus(env: Record<string, string>): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const r = runCli(['daemon', 'status', '--json'], { env });
    const status = r.status === 0 ? JSON.parse(r.stdout) : undefined;
    if (status && status.repos.length > 0 && status.repos.every((repo: any) => repo.phase === 'ready')) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the daemon never became ready');
}

/** The roots of the daemon's persisted list. */
function persistedRoots(home: string): string[] {
  const file = path.join(home, 'daemon-repos.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')).repos as { root: string }[]).map((r) => r.root) : [];
}

/** What `POST /v1/tools/{tool}` answered: the status, the body, and its `CallToolResult` read back. */
interface PostAnswer {
  status: number;
  body: any;
  /** The parsed JSON answer of a success. */
  result?: any;
  /** A failure's `code: message` text, split. */
  error?: { code: string; message: string };
  /** The envelope's `_meta`. */
  meta?: Record<string, unknown>;
}

/** `POST /v1/tools/{tool}`: the status, the JSON body and the MCP `CallToolResult` it carries. */
async function post(url: string, tool: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<PostAnswer> {
  const res = await fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
  const body = (await res.json()) as any;
  // Only a tool outcome carries the envelope (a 401 or a bad request is a plain HTTP error).
  if (!Array.isArray(body?.content)) return { status: res.status, body };
  expect(body.content).toHaveLength(1);
  expect(body.content[0].type).toBe('text');
  const text = body.content[0].text as string;
  const meta = body._meta as Record<string, unknown> | undefined;
  if (body.isError === true) {
    const m = /^([a-z_]+): ([\s\S]*)$/.exec(text);
    expect(m).not.toBeNull();
    return { status: res.status, body, error: { code: m![1]!, message: m![2]! }, meta };
  }
  expect(body.isError).toBeUndefined();
  return { status: res.status, body, result: JSON.parse(text), meta };
}

/** An MCP client over Streamable HTTP on the daemon's `/mcp`. */
async function httpMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'security-admin-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** oclif's error text as one line. */
function unwrap(text: string): string {
  return text.replace(/·?\s*\n\s*›\s+/g, ' ');
}

/** A plain (non-git) copy of a fixture at `dir`. */
function plainCopy(fixture: string, dir: string): string {
  fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}

const HOW_TO_ENABLE = /start the daemon with --http-auth-token <token> \(or set GORTEX_DAEMON_HTTP_TOKEN\) and send "Authorization: Bearer <token>"/;

test('admin tools are the control writers, the file writers and the tools that keep something beyond the session', () => {
  // A new tool that changes anything must be placed here on purpose: admin, or session-only.
  const writers = ALL_TOOLS.filter((t) => t.effect !== 'read').map((t) => [t.name, t.effect, isAdminTool(t)]);
  expect(writers.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
    ['apply_code_action', 'local_write', true],
    ['batch_edit', 'local_write', true],
    ['delete_scope', 'session_write', true],
    ['edit_file', 'local_write', true],
    ['edit_memory', 'session_write', true],
    ['edit_symbol', 'local_write', true],
    ['feedback', 'session_write', true],
    ['fix_all_in_file', 'local_write', true],
    ['forget_memory', 'session_write', true],
    ['index_repository', 'control_write', true],
    ['inline_symbol', 'local_write', true],
    ['move_symbol', 'local_write', true],
    ['nav', 'session_write', false],
    ['overlay_delete', 'session_write', false],
    ['overlay_drop', 'session_write', false],
    ['overlay_drop_branch', 'session_write', false],
    ['overlay_fork', 'session_write', false],
    ['overlay_keepalive', 'session_write', false],
    ['overlay_merge', 'local_write', true],
    ['overlay_push', 'session_write', false],
    ['overlay_register', 'session_write', false],
    ['overlay_switch', 'session_write', false],
    ['post_review', 'external_write', true],
    ['reindex_repository', 'control_write', true],
    ['rename_symbol', 'local_write', true],
    ['safe_delete_symbol', 'local_write', true],
    ['save_note', 'session_write', true],
    ['save_scope', 'session_write', true],
    ['scaffold', 'local_write', true],
    ['set_active_project', 'session_write', false],
    ['set_planning_mode', 'session_write', false],
    ['simulate_chain', 'session_write', false],
    ['store_memory', 'session_write', true],
    ['subscribe_daemon_health', 'session_write', false],
    ['subscribe_diagnostics', 'session_write', false],
    ['subscribe_graph_invalidated', 'session_write', false],
    ['subscribe_stale_refs', 'session_write', false],
    ['subscribe_workspace_readiness', 'session_write', false],
    ['suppress_finding', 'local_write', true],
    ['tools_search', 'session_write', false],
    ['track_repository', 'control_write', true],
    ['unsubscribe_daemon_health', 'session_write', false],
    ['unsubscribe_diagnostics', 'session_write', false],
    ['unsubscribe_graph_invalidated', 'session_write', false],
    ['unsubscribe_stale_refs', 'session_write', false],
    ['unsubscribe_workspace_readiness', 'session_write', false],
    ['untrack_repository', 'control_write', true],
    ['workflow', 'session_write', false],
    ['write_file', 'local_write', true],
  ]);
});

describe('an unauthenticated loopback HTTP surface cannot change what the daemon serves', () => {
  const w = world();
  const repo = gitFixture('query/app-ts', 'anonapp');
  const other = gitFixture('query/app-py', 'anonother');
  // What a local process would like to read through the daemon: a folder that is no repository.
  const secret = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-secret-'));
  fs.writeFileSync(path.join(secret, 'id_rsa'), 'PRIVATE KEY\n');
  let url: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env: w.env, cwd: repo });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    url = (await readyStatus(w.env)).http.url;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('/v1 refuses every admin tool with not_available and says how to enable it; nothing is tracked or persisted', async () => {
    const refused: [string, Record<string, unknown>][] = [
      ['track_repository', { path: secret }],
      ['untrack_repository', { path_or_name: 'anonapp' }],
      ['reindex_repository', {}],
      ['save_scope', { name: 'mine', repos: ['anonapp'] }],
      ['delete_scope', { name: 'mine' }],
      ['feedback', { tool: 'search_symbols', rating: 'wrong', ids: ['anonapp/src/format.ts::formatLabel'] }],
      ['store_memory', { content: 'planted by a web page' }],
      ['save_note', { content: 'planted by a web page' }],
      ['forget_memory', { ids: [1] }],
    ];
    for (const [tool, args] of refused) {
      const { status, error } = await post(url, tool, args);
      expect({ tool, status, code: error?.code }).toEqual({ tool, status: 409, code: 'not_available' });
      expect(error!.message).toMatch(new RegExp(`^${tool} changes what this server serves or keeps beyond the session`));
      expect(error!.message).toMatch(HOW_TO_ENABLE);
    }
    // The file writers too, directly and through the compact edit domain: the file is untouched.
    const formatBefore = fs.readFileSync(path.join(repo, 'src/format.ts'), 'utf8');
    const writes: [string, Record<string, unknown>][] = [
      ['edit_file', { path: 'src/format.ts', old_string: 'formatLabel', new_string: 'hijacked' }],
      ['write_file', { path: 'src/planted.ts', content: 'export const planted = 1;\n' }],
      ['edit_symbol', { id: 'anonapp/src/format.ts::formatLabel', new_source: 'export const x = 1;' }],
      ['edit', { target: { file: 'src/format.ts' }, match: 'formatLabel', replacement: 'hijacked' }],
    ];
    for (const [tool, args] of writes) {
      const { status, error } = await post(url, tool, args);
      expect({ tool, status, code: error?.code }).toEqual({ tool, status: 409, code: 'not_available' });
      expect(error!.message).toMatch(/ writes files, so HTTP callers need the server's bearer token/);
    }
    expect(fs.readFileSync(path.join(repo, 'src/format.ts'), 'utf8')).toBe(formatBefore);
    expect(fs.existsSync(path.join(repo, 'src/planted.ts'))).toBe(false);
    // Through the compact facade the routed tool's own dispatch refuses it.
    const facade = await post(url, 'workspace_admin', { operation: 'track', arguments: { path: secret } });
    expect(facade.status).toBe(409);
    expect(facade.error?.code).toBe('not_available');
    expect(facade.error!.message).toMatch(/^track_repository changes what this server serves/);
    // Nothing changed: the daemon serves, persists and ranks as before.
    const repos = await post(url, 'list_repos', {});
    expect(repos.result.repos.map((r: any) => r.name)).toEqual(['anonapp']);
    expect(persistedRoots(w.home)).toEqual([fs.realpathSync(repo)]);
    expect(fs.existsSync(path.join(w.home, 'scopes.json'))).toBe(false);
    const sidecar = sidecarAt(w.home);
    expect(sidecar.feedbackCount('anonapp')).toBe(0);
    expect(sidecar.memoryList({ limit: 10 }).total).toBe(0);
    // Reading stays open, as the bind and token rules already allow.
    const found = await post(url, 'search_symbols', { query: 'formatLabel' });
    expect(found.status).toBe(200);
    expect(found.result.results[0]).toMatchObject({ name: 'formatLabel' });
    expect((await fetch(`${url}/v1/stats`)).status).toBe(200);
  });

  test('/mcp refuses them too, through the compact workspace_admin', async () => {
    const client = await httpMcp(url);
    clients.push(client);
    const track = (await client.callTool({ name: 'workspace_admin', arguments: { operation: 'track', arguments: { path: secret } } })) as TextResult;
    expect(track.isError).toBe(true);
    expect(track.content[0]!.text).toMatch(/^not_available: track_repository changes what this server serves or keeps beyond the session/);
    expect(track.content[0]!.text).toMatch(HOW_TO_ENABLE);
    const reindex = (await client.callTool({ name: 'workspace_admin', arguments: { operation: 'reindex' } })) as TextResult;
    expect(reindex.content[0]!.text).toMatch(/^not_available: reindex_repository changes/);
    const search = (await client.callTool({ name: 'search', arguments: { operation: 'symbols', query: 'formatLabel', format: 'json' } })) as TextResult;
    expect(search.isError).toBeUndefined();
    expect(persistedRoots(w.home)).toEqual([fs.realpathSync(repo)]);
  });

  test('the socket stays trusted: the CLI and a socket MCP session track, save and untrack', async () => {
    expect(runCli(['track', other], { env: w.env }).status).toBe(0);
    expect(persistedRoots(w.home)).toContain(fs.realpathSync(other));
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', repo, '--tools', 'full'], env: w.env, stderr: 'pipe' });
    const socket = new Client({ name: 'security-admin-test', version: '1.0.0' });
    await socket.connect(transport);
    clients.push(socket);
    const saved = (await socket.callTool({ name: 'save_scope', arguments: { name: 'pair', repos: ['anonapp', 'anonother'], format: 'json' } })) as TextResult;
    expect(JSON.parse(saved.content[0]!.text)).toEqual({ saved: 'pair', repos: ['anonapp', 'anonother'] });
    const untracked = (await socket.callTool({ name: 'untrack_repository', arguments: { path_or_name: 'anonother', format: 'json' } })) as TextResult;
    expect(JSON.parse(untracked.content[0]!.text)).toEqual({ untracked: [fs.realpathSync(other)] });
    expect(persistedRoots(w.home)).toEqual([fs.realpathSync(repo)]);
  });
});

describe('with a bearer token, HTTP callers are trusted with the admin tools', () => {
  const w = world();
  const repo = gitFixture('query/app-ts', 'tokapp');
  const other = gitFixture('query/app-py', 'tokother');
  const auth = { authorization: 'Bearer s3cret-admin' };
  let url: string;
  let client: Client | undefined;
  beforeAll(async () => {
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0', '--http-auth-token', 's3cret-admin'], { env: w.env, cwd: repo });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    url = (await readyStatus(w.env)).http.url;
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('/v1 tracks with the token (and answers 401 without it)', async () => {
    expect((await post(url, 'track_repository', { path: other })).status).toBe(401);
    const tracked = await post(url, 'track_repository', { path: other }, auth);
    expect(tracked.status).toBe(200);
    expect(tracked.result.tracked).toMatchObject({ name: 'tokother', phase: 'ready' });
    expect(persistedRoots(w.home)).toContain(fs.realpathSync(other));
  });

  test('/v1 edits files with the token, and the next query through the daemon sees the change', async () => {
    // Two repositories are tracked now: /v1 names the one to use.
    const edited = await post(`${url}`, 'edit_file?repo=tokapp', { path: 'src/format.ts', old_string: 'export function shout(', new_string: 'export function holler(' }, auth);
    expect({ status: edited.status, error: edited.error }).toEqual({ status: 200, error: undefined });
    expect(edited.result).toMatchObject({ status: 'applied', path: 'src/format.ts', reindexed: true });
    expect(fs.readFileSync(path.join(repo, 'src/format.ts'), 'utf8')).toContain('export function holler(');
    const found = await post(url, 'search_symbols?repo=tokapp', { query: 'holler' }, auth);
    expect(found.result.results[0]).toMatchObject({ name: 'holler', path: 'src/format.ts' });
  });

  test('/mcp with the token runs workspace_admin', async () => {
    client = await httpMcp(url, auth);
    const reindexed = (await client.callTool({ name: 'workspace_admin', arguments: { operation: 'reindex', arguments: { repo: 'tokapp' }, format: 'json' } })) as TextResult;
    expect(reindexed.isError).toBeUndefined();
    expect(JSON.parse(reindexed.content[0]!.text)).toMatchObject({ repo: 'tokapp' });
  });
});

describe('an anonymous HTTP caller cannot route an admin tool to a roster server', () => {
  // The daemon forwards a routed call with its own standing (its socket, or the roster's token).
  const far = world();
  const near = world();
  const farRepo = gitFixture('query/app-py', 'farapp');
  const nearRepo = gitFixture('query/app-ts', 'nearapp');
  const wanted = gitFixture('query/search-app', 'wantedapp');
  let url: string;
  beforeAll(async () => {
    expect(runCli(['daemon', 'start', '--detach'], { env: far.env, cwd: farRepo }).status).toBe(0);
    await readyStatus(far.env);
    const add = runCli(['daemon', 'server', 'add', '--slug', 'far', '--url', `unix://${far.env.GORTEX_DAEMON_SOCKET}`, '--workspace', 'faraway'], { env: near.env });
    expect(add.stderr).toBe('');
    expect(runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env: near.env, cwd: nearRepo }).status).toBe(0);
    url = (await readyStatus(near.env)).http.url;
  });
  afterAll(() => {
    for (const w of [near, far]) runCli(['daemon', 'stop'], { env: w.env });
  });

  test('track_repository and workspace_admin naming a roster workspace are refused before routing', async () => {
    // Reads still route.
    const routed = await post(url, 'search_symbols', { query: 'MemoryStore', workspace: 'faraway' });
    expect(routed.status).toBe(200);
    expect(routed.meta?.gortex_routed_to).toBe('far');
    expect(routed.result.results.map((r: any) => r.name)).toContain('MemoryStore');
    for (const [tool, args] of [
      ['track_repository', { path: wanted, workspace: 'faraway' }],
      ['workspace_admin', { operation: 'track', arguments: { path: wanted }, workspace: 'faraway' }],
    ] as const) {
      const { status, error } = await post(url, tool, args);
      expect({ tool, status, code: error?.code }).toEqual({ tool, status: 409, code: 'not_available' });
      expect(error!.message).toMatch(new RegExp(`^${tool} changes what this server serves`));
    }
    expect(persistedRoots(far.home)).toEqual([fs.realpathSync(farRepo)]);
  });
});

describe('daemon.allowed_roots bounds what may be tracked, on every door', () => {
  const inside = gitFixture('query/app-ts', 'allowedapp');
  const allowedDir = path.dirname(inside);
  const outside = gitFixture('query/app-py', 'outsideapp');
  // The config names the allowed folder through a symlink; a symlink inside it leads outside.
  const allowedLink = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-link-')), 'allowed');
  fs.symlinkSync(allowedDir, allowedLink);
  fs.symlinkSync(outside, path.join(allowedDir, 'escape'));
  const second = plainCopy('query/app-py', path.join(allowedDir, 'second'));
  const w = world(`daemon:\n  allowed_roots:\n    - ${allowedLink}\n`);
  const env = { ...w.env, GORTEX_AUTOSTART: '0' };
  let client: Client | undefined;
  beforeAll(async () => {
    // Recorded before the restriction: the next daemon must not serve it.
    fs.writeFileSync(path.join(w.home, 'daemon-repos.json'), JSON.stringify({ repos: [{ root: fs.realpathSync(outside), name: 'outsideapp' }] }));
    const started = runCli(['daemon', 'start', '--detach'], { env, cwd: inside });
    if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
    await readyStatus(env);
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env });
  });

  test('a recorded repository outside them is not served at start, and the log says why', () => {
    const status = JSON.parse(runCli(['daemon', 'status', '--json'], { env }).stdout);
    expect(status.repos.map((r: any) => r.name)).toEqual(['allowedapp']);
    const logs = unwrap(runCli(['daemon', 'logs', '-n', '200'], { env }).stdout);
    expect(logs).toContain(`recorded repository outsideapp not served: the repository root ${fs.realpathSync(outside)} is outside daemon.allowed_roots (${allowedLink}; ${w.configFile}:2)`);
  });

  test('gortex track refuses a folder outside them, also through a symlink inside them', () => {
    const before = persistedRoots(w.home);
    for (const target of [outside, path.join(allowedDir, 'escape')]) {
      const refused = runCli(['track', target], { env });
      expect(refused.status).toBe(2);
      expect(unwrap(refused.stderr)).toContain(`invalid_argument: the repository root ${fs.realpathSync(outside)} is outside daemon.allowed_roots`);
    }
    expect(persistedRoots(w.home)).toEqual(before);
    expect(runCli(['track', second], { env }).status).toBe(0);
    expect(persistedRoots(w.home)).toContain(fs.realpathSync(second));
    const status = JSON.parse(runCli(['daemon', 'status', '--json'], { env }).stdout);
    expect(status.repos.map((r: any) => r.name)).toEqual(['allowedapp', 'second']);
  });

  test('track_repository refuses it to a trusted socket session too', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', inside, '--tools', 'full'], env, stderr: 'pipe' });
    client = new Client({ name: 'security-admin-test', version: '1.0.0' });
    await client.connect(transport);
    const refused = (await client.callTool({ name: 'track_repository', arguments: { path: outside } })) as TextResult;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^invalid_argument: the repository root \S+outsideapp is outside daemon\.allowed_roots \(.*\): track a repository under one of those folders, or add its folder to daemon\.allowed_roots/);
  });

  test('without a daemon, gortex track refuses to record it', () => {
    runCli(['daemon', 'stop'], { env });
    const before = persistedRoots(w.home);
    const refused = runCli(['track', outside], { env });
    expect(refused.status).toBe(2);
    expect(unwrap(refused.stderr)).toMatch(/the repository root \S+outsideapp is outside daemon\.allowed_roots/);
    expect(persistedRoots(w.home)).toEqual(before);
  });
});

describe('daemon.allowed_roots in the global config', () => {
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-xdg-'));
  const file = path.join(xdg, 'gortex', 'config.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const load = (): ReturnType<typeof loadConfig> => loadConfig(undefined, { XDG_CONFIG_HOME: xdg, HOME: '/home/someone' });

  test('is read with ~ expanded; a folder that does not exist is warned about', () => {
    const real = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-allowed-'));
    fs.writeFileSync(file, `daemon:\n  allowed_roots: [${real}, ~/src]\n`);
    const loaded = load();
    expect(loaded.allowedRoots).toEqual({ dirs: [real, '/home/someone/src'], source: `${file}:2` });
    expect(loaded.warnings).toEqual([`${file}:2: daemon.allowed_roots entry "~/src" does not exist; nothing under it can be tracked`]);
  });

  test('a relative entry, an empty list or a scalar is an error naming the file, the line and the fix', () => {
    fs.writeFileSync(file, 'daemon:\n  http_addr: 127.0.0.1:7411\n  allowed_roots:\n    - src\n');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(`${file}:3: daemon.allowed_roots entry "src" is not an absolute path; write it in full or from ~/, like [~/src, /work/repos]`);
    fs.writeFileSync(file, 'daemon:\n  allowed_roots: []\n');
    expect(load).toThrow(`${file}:2: daemon.allowed_roots must be a non-empty list of directories the daemon may track repositories in, like [~/src, /work/repos] (remove the key to allow any)`);
    fs.writeFileSync(file, 'daemon:\n  allowed_roots: /work\n');
    expect(load).toThrow(/daemon\.allowed_roots must be a non-empty list/);
  });
});
