/**
 * The daemon with real processes: `gortex daemon start/stop/restart/status/logs`, `track`/
 * `untrack`/`repos`, `gortex mcp` as a proxy (autostart, exactly one daemon for ten clients,
 * embedded fallback), the socket protocol's refusals, edits and branch switches followed by the
 * watcher, and a killed daemon restarted warm.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { daemonWorld, gitFixture } from './helpers/daemon';

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

/** `gortex mcp` (the proxy unless `--embedded` is among `args`) connected to an SDK client. */
async function mcpClient(env: Record<string, string>, repo: string, args: string[] = [], stderr?: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--repo', repo, '--tools', 'full', ...args],
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr?.push(chunk.toString()));
  const client = new Client({ name: 'gortex-daemon-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: { format: 'json', ...args } })) as TextResult;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

function statusOf(env: Record<string, string>): any {
  const r = runCli(['daemon', 'status', '--json'], { env });
  if (r.status !== 0) throw new Error(`daemon status failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The status once every tracked repository has finished warming up. */
async function readyStatus(env: Record<string, string>): Promise<any> {
  return eventually(async () => {
    const status = statusOf(env);
    return status.repos.length > 0 && status.repos.every((r: any) => r.phase === 'ready') ? status : undefined;
  }, 'every tracked repository ready');
}

/** Polls `probe` until it holds (the watcher works asynchronously); fails after `tries`. */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string, tries = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

/** One raw handshake on the socket; returns the ack line. */
function rawHandshake(socketPath: string, line: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write(line));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const at = data.indexOf('\n');
      if (at >= 0) {
        socket.destroy();
        resolve(JSON.parse(data.slice(0, at)));
      }
    });
    socket.on('error', reject);
  });
}

/** A control connection: the handshake, then each request line answered by one line, in order. */
function rawControl(socketPath: string, requests: string[]): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => {
      socket.write(`${JSON.stringify({ version: 1, mode: 'control', cwd: '/', client: 't', pid: 1 })}\n`);
      for (const r of requests) socket.write(`${r}\n`);
    });
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const lines = data.split('\n').filter(Boolean);
      if (lines.length >= requests.length + 1) {
        socket.destroy();
        resolve(lines.slice(1, requests.length + 1).map((l) => JSON.parse(l)));
      }
    });
    socket.on('error', reject);
  });
}

/** oclif's error text as one line (it wraps long messages under ` › ` markers). */
function unwrap(text: string): string {
  return text.replace(/·?\s*\n\s*›\s+/g, ' ');
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('gortex daemon: lifecycle, sessions, tracking, watching', () => {
  const w = daemonWorld();
  const repo = gitFixture('query/app-ts', 'daemonapp');
  const other = gitFixture('query/app-py', 'otherapp');
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('start --detach tracks the repository it runs in and reports it ready', async () => {
    const started = runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: repo });
    expect(started.stderr).toBe('');
    expect(started.stdout).toMatch(/^gortex daemon started \(pid \d+, socket .*d\.sock, log .*daemon\.log\)/);
    const again = runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: repo });
    expect(again.stdout).toMatch(/already running/);
    const status = await readyStatus(w.env);
    expect(status.socket).toBe(w.socket);
    expect(status.repos.map((r: any) => [r.name, r.root, r.phase])).toEqual([['daemonapp', fs.realpathSync(repo), 'ready']]);
    expect(status.repos[0].nodes).toBeGreaterThan(10);
    expect(status.repos[0].watch.watching).toBe(true);
    expect(fs.readFileSync(path.join(w.home, 'daemon.pid'), 'utf8').trim()).toBe(String(status.pid));
    expect((fs.statSync(w.socket).mode & 0o777).toString(8)).toBe('600');
    const text = runCli(['daemon', 'status'], { env: w.env });
    expect(text.stdout).toMatch(/daemonapp {2}.*daemonapp {2}ready {2}\d+ files, \d+ nodes/);
  });

  test('gortex mcp proxies a session to the daemon and answers from its graph', async () => {
    const stderr: string[] = [];
    const client = await mcpClient(w.env, repo, [], stderr);
    clients.push(client);
    const found = await ok(client, 'search_symbols', { query: 'formatLabel' });
    expect(found.results[0]).toMatchObject({ name: 'formatLabel', path: 'src/format.ts' });
    expect(stderr.join('')).toMatch(/connected to the gortex daemon \(session [0-9a-f-]{36}, .*daemonapp\)/);
    const status = statusOf(w.env);
    expect(status.sessions).toBe(1);
    expect(status.session_list[0]).toMatchObject({ client: 'gortex-mcp', repo: fs.realpathSync(repo) });
  });

  test('gortex call and the query verbs are answered by the daemon, exactly as in-process', () => {
    const call = ['call', 'search_symbols', '--arg', 'query=formatLabel', '--repo', repo];
    const viaDaemon = runCli(call, { env: w.env });
    expect(viaDaemon.stderr).toBe('');
    expect(JSON.parse(viaDaemon.stdout)).toEqual(JSON.parse(runCli([...call, '--embedded'], { env: w.env }).stdout));
    const callers = ['query', 'callers', 'formatLabel', '--json', '--repo', repo];
    const queried = runCli(callers, { env: w.env });
    expect(queried.status).toBe(0);
    expect(JSON.parse(queried.stdout)).toEqual(JSON.parse(runCli([...callers, '--embedded'], { env: w.env }).stdout));
    const unknown = runCli(['query', 'callers', 'noSuchThingAnywhere', '--repo', repo], { env: w.env });
    expect(unknown.status).toBe(2);
    expect(unwrap(unknown.stderr)).toMatch(/noSuchThingAnywhere/);
    expect(statusOf(w.env).cli_requests).toEqual({ call: 3 });
  });

  test('a file edited on disk is visible to the next queries', async () => {
    const client = clients[0]!;
    fs.appendFileSync(path.join(repo, 'src', 'format.ts'), '\nexport function freshlyWritten(): number {\n  return 42;\n}\n');
    const hit = await eventually(async () => {
      const found = await ok(client, 'search_symbols', { query: 'freshlyWritten' });
      return found.results.find((r: any) => r.name === 'freshlyWritten');
    }, 'the new function is searchable');
    expect(hit).toMatchObject({ path: 'src/format.ts', kind: 'function' });
    const status = statusOf(w.env);
    expect(status.repos[0].watch.reindexes).toBeGreaterThanOrEqual(1);
  });

  test('a branch switch is followed', async () => {
    const client = clients[0]!;
    const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'ignore' });
    git('checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(repo, 'src', 'feature.ts'), 'export function onlyOnFeature(): string {\n  return "f";\n}\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'feature');
    await eventually(async () => ((await ok(client, 'find_files', { query: 'feature.ts' })).results.length > 0 ? true : undefined), 'feature.ts indexed');
    git('checkout', '-q', 'main');
    const gone = await eventually(async () => {
      const files = await ok(client, 'find_files', { query: 'feature.ts' });
      return files.results.length === 0 ? true : undefined;
    }, 'feature.ts gone after switching back to main');
    expect(gone).toBe(true);
    const symbols = await ok(client, 'search_symbols', { query: 'onlyOnFeature' });
    expect(symbols.results.filter((r: any) => r.name === 'onlyOnFeature')).toEqual([]);
  });

  test('track, repos and untrack manage the served set', () => {
    const tracked = runCli(['track', other, '--name', 'py', '--project', 'shop'], { env: w.env });
    expect(tracked.stderr).toBe('');
    expect(tracked.stdout).toMatch(/^tracking py \[shop\] {2}.*otherapp {2}ready {2}\d+ files/);
    const clash = runCli(['track', repo, '--name', 'py'], { env: w.env });
    expect(clash.status).toBe(2);
    expect(unwrap(clash.stderr)).toMatch(/the name "py" is already used by \S*otherapp/);
    const repos = JSON.parse(runCli(['repos', '--json'], { env: w.env }).stdout);
    expect(repos.map((r: any) => [r.name, r.project ?? null, r.phase]).sort()).toEqual([['daemonapp', null, 'ready'], ['py', 'shop', 'ready']]);
    const persisted = JSON.parse(fs.readFileSync(path.join(w.home, 'daemon-repos.json'), 'utf8'));
    expect(persisted.repos.map((r: any) => r.name).sort()).toEqual(['daemonapp', 'py']);
    const missing = runCli(['untrack', 'no-such-repo'], { env: w.env });
    expect(missing.status).toBe(2);
    expect(unwrap(missing.stderr)).toMatch(/no tracked repository matches "no-such-repo"; tracked:[\s\S]*daemonapp[\s\S]*py/);
    const untracked = runCli(['untrack', 'py'], { env: w.env });
    expect(untracked.stdout.trim()).toBe(`untracked ${fs.realpathSync(other)}`);
    expect(statusOf(w.env).repos.map((r: any) => r.name)).toEqual(['daemonapp']);
  });

  test('the socket refuses a wrong protocol version, an unknown mode and garbage, and keeps serving', async () => {
    const mismatch = await rawHandshake(w.socket, '{"version":99,"mode":"mcp","cwd":"/","client":"t","pid":1}\n');
    expect(mismatch).toMatchObject({ ok: false, error_code: 'protocol_mismatch' });
    expect(mismatch.error_msg).toMatch(/speaks protocol 1, the client 99/);
    const mode = await rawHandshake(w.socket, '{"version":1,"mode":"telnet","cwd":"/","client":"t","pid":1}\n');
    expect(mode).toMatchObject({ ok: false, error_code: 'unsupported_mode' });
    const garbage = await rawHandshake(w.socket, 'hello there\n');
    expect(garbage).toMatchObject({ ok: false, error_code: 'bad_request' });
    const missingRepo = await rawHandshake(w.socket, `{"version":1,"mode":"mcp","cwd":${JSON.stringify(path.join(w.home, 'nope'))},"client":"t","pid":1}\n`);
    expect(missingRepo).toMatchObject({ ok: false, error_code: 'repo_not_tracked' });
    expect(missingRepo.error_msg).toMatch(/Path does not exist/);
    const answers = await rawControl(w.socket, [
      'not json',
      '{"kind":"dance"}',
      '{"kind":"track","params":{}}',
      `{"kind":"track","params":{"path":${JSON.stringify(path.join(w.home, 'nope'))}}}`,
      '{"kind":"untrack","params":{"path_or_name":"nobody"}}',
      '{"kind":"call","params":{"args":{"query":"x"}}}',
      '{"kind":"probe"}',
    ]);
    expect(answers.map((a) => [a.ok, a.error_code ?? null])).toEqual([
      [false, 'bad_request'],
      [false, 'bad_request'],
      [false, 'invalid_argument'],
      [false, 'invalid_argument'],
      [false, 'not_found'],
      [false, 'invalid_argument'],
      [true, null],
    ]);
    expect(answers[1].error_msg).toMatch(/unknown control kind "dance"; kinds: track, untrack/);
    expect(answers[3].error_msg).toMatch(/Path does not exist/);
    expect((await ok(clients[0]!, 'graph_stats', {})).nodes).toBeGreaterThan(0);
  });

  test('logs prints the daemon log; stop is graceful and status then fails', async () => {
    const logs = runCli(['daemon', 'logs', '-n', '200'], { env: w.env });
    expect(logs.stdout).toMatch(/listening on .*d\.sock/);
    expect(logs.stdout).toMatch(/daemonapp: ready/);
    const pid = statusOf(w.env).pid as number;
    for (const c of clients.splice(0)) await c.close();
    const stopped = runCli(['daemon', 'stop'], { env: w.env });
    expect(stopped.stdout.trim()).toBe(`gortex daemon stopped (pid ${pid})`);
    expect(pidAlive(pid)).toBe(false);
    expect(fs.existsSync(w.socket)).toBe(false);
    expect(fs.existsSync(path.join(w.home, 'daemon.pid'))).toBe(false);
    const status = runCli(['daemon', 'status'], { env: w.env });
    expect(status.status).toBe(1);
    expect(status.stderr).toMatch(/no gortex daemon is running/);
    expect(runCli(['daemon', 'stop'], { env: w.env }).stdout.trim()).toBe('gortex daemon is not running');
  });

  test('a killed daemon leaves a stale socket that the next start cleans up, and the restart is warm', async () => {
    runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: repo });
    const pid = statusOf(w.env).pid as number;
    process.kill(pid, 'SIGKILL');
    execFileSync('sh', ['-c', `while kill -0 ${pid} 2>/dev/null; do sleep 0.05; done`]);
    expect(fs.existsSync(w.socket)).toBe(true);
    const started = runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: os.tmpdir() });
    expect(started.stdout).toMatch(/gortex daemon started/);
    const status = await readyStatus(w.env);
    expect(status.pid).not.toBe(pid);
    // Served again from the recorded list and its snapshot: nothing re-parsed.
    expect(status.repos.map((r: any) => r.name)).toEqual(['daemonapp']);
    expect(status.repos[0].opened).toMatchObject({ snapshot_loaded: true, files_parsed: 0 });
    expect(runCli(['daemon', 'logs', '-n', '50'], { env: w.env }).stdout).toMatch(/removing the stale socket/);
    const restarted = runCli(['daemon', 'restart'], { env: w.env });
    expect(restarted.stdout).toMatch(new RegExp(`gortex daemon stopped \\(pid ${status.pid}\\)\\ngortex daemon started`));
    // Restarted from another folder (the test's, a git repository): it serves what it served, nothing more.
    const after = await readyStatus(w.env);
    expect(after.repos.map((r: any) => r.name)).toEqual(['daemonapp']);
    expect(after.repos[0]).toMatchObject({ name: 'daemonapp', phase: 'ready', opened: { snapshot_loaded: true, files_parsed: 0 } });
  });
});

describe('gortex mcp autostart', () => {
  test('ten clients starting at once share exactly one autostarted daemon', async () => {
    const w = daemonWorld();
    const repo = gitFixture('query/app-ts', 'autoapp');
    const clients = await Promise.all(Array.from({ length: 10 }, () => mcpClient(w.env, repo)));
    try {
      const answers = await Promise.all(clients.map((c) => ok(c, 'search_symbols', { query: 'formatLabel' })));
      for (const a of answers) expect(a.results[0]).toMatchObject({ name: 'formatLabel' });
      const status = statusOf(w.env);
      expect(status.sessions).toBe(10);
      expect(status.repos.map((r: any) => r.name)).toEqual(['autoapp']);
      const log = fs.readFileSync(path.join(w.home, 'daemon.log'), 'utf8');
      expect(log.match(/listening on/g)).toHaveLength(1);
      expect(fs.existsSync(path.join(w.home, 'daemon.spawn.lock'))).toBe(false);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      runCli(['daemon', 'stop'], { env: w.env });
    }
  });

  test('GORTEX_AUTOSTART=0 without a daemon serves embedded and says so', async () => {
    const w = daemonWorld();
    const repo = gitFixture('query/app-ts', 'embedapp');
    const stderr: string[] = [];
    const client = await mcpClient({ ...w.env, GORTEX_AUTOSTART: '0' }, repo, [], stderr);
    try {
      expect((await ok(client, 'search_symbols', { query: 'formatLabel' })).results[0]).toMatchObject({ name: 'formatLabel' });
      expect(stderr.join('')).toMatch(/GORTEX_AUTOSTART=0 and no daemon is running; serving embedded/);
      expect(fs.existsSync(w.socket)).toBe(false);
    } finally {
      await client.close();
    }
  });

  test('a daemon that cannot start falls back to embedded with the reason', async () => {
    const w = daemonWorld();
    const repo = gitFixture('query/app-ts', 'failapp');
    // The socket's folder is a file: no daemon can bind there.
    const blocked = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gx-')), 'not-a-dir');
    fs.writeFileSync(blocked, '');
    const stderr: string[] = [];
    const client = await mcpClient({ ...w.env, GORTEX_DAEMON_SOCKET: path.join(blocked, 'd.sock'), GORTEX_DAEMON_START_TIMEOUT: '20000' }, repo, [], stderr);
    try {
      expect((await ok(client, 'search_symbols', { query: 'formatLabel' })).results[0]).toMatchObject({ name: 'formatLabel' });
      expect(stderr.join('')).toMatch(/no daemon could start \(the daemon exited \(code \d+\) before listening.*; serving embedded/s);
    } finally {
      await client.close();
    }
  });
});

describe('gortex daemon with --http-addr', () => {
  const w = daemonWorld();
  const repo = gitFixture('query/app-ts', 'httpapp');
  const other = gitFixture('query/app-py', 'httpother');
  let url: string;
  beforeAll(async () => {
    const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env: w.env, cwd: repo });
    expect(started.status).toBe(0);
    url = (await readyStatus(w.env)).http.url;
  });
  afterAll(() => {
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('a non-localhost address without a token is refused before anything starts', () => {
    const ww = daemonWorld();
    const refused = runCli(['daemon', 'start', '--http-addr', '0.0.0.0:0'], { env: ww.env, cwd: repo });
    expect(refused.status).toBe(2);
    expect(unwrap(refused.stderr)).toMatch(/--http-addr 0\.0\.0\.0:0: refusing to serve HTTP on 0\.0\.0\.0 without an auth token/);
    expect(fs.existsSync(ww.socket)).toBe(false);
    const orphan = runCli(['daemon', 'start', '--cors-origin', 'https://ui.example'], { env: ww.env, cwd: repo });
    expect(orphan.status).toBe(2);
    expect(unwrap(orphan.stderr)).toMatch(/--cors-origin needs --http-addr/);
  });

  test('/v1 serves the tracked repositories: several are spanned (or the one the ids name) unless ?repo= picks one', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health: any = await (await fetch(`${url}/v1/health`)).json();
    expect(health).toMatchObject({ status: 'ok', repos: [{ name: 'httpapp', phase: 'ready' }] });
    /** A `/v1/tools` call that must succeed: its JSON answer, read from the `CallToolResult`. */
    const call = async (tool: string, args: Record<string, unknown>, query = ''): Promise<any> => {
      const res = await fetch(`${url}/v1/tools/${tool}${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
      const body: any = await res.json();
      expect({ status: res.status, isError: body.isError }).toEqual({ status: 200, isError: undefined });
      expect(body.content).toHaveLength(1);
      return JSON.parse(body.content[0].text);
    };
    const one = await call('search_symbols', { query: 'formatLabel' });
    expect(one.scope_applied).toBeUndefined();
    expect(one.results[0]).toMatchObject({ name: 'formatLabel', path: 'src/format.ts' });
    expect(one.results[0].repo).toBeUndefined();
    expect(runCli(['track', other], { env: w.env }).status).toBe(0);
    // Without ?repo= a call spans every tracked repository; the merged rows name theirs.
    const spanTs = await call('search_symbols', { query: 'formatLabel' });
    expect(spanTs.scope_applied).toBe('repos:2');
    expect(spanTs.results[0]).toMatchObject({ name: 'formatLabel', path: 'src/format.ts', repo: 'httpapp' });
    const spanPy = await call('search_symbols', { query: 'MemoryStore' });
    expect(spanPy.scope_applied).toBe('repos:2');
    const store = spanPy.results.find((r: any) => r.name === 'MemoryStore');
    expect(store).toMatchObject({ path: 'shop/store.py', repo: 'httpother' });
    expect(store.id.startsWith('httpother/')).toBe(true);
    const files = await call('find_files', { query: '.', limit: 100 });
    expect(files.scope_applied).toBe('repos:2');
    expect(new Set(files.results.map((r: any) => r.repo))).toEqual(new Set(['httpapp', 'httpother']));
    // A call naming ids of one repository is answered from that repository alone.
    const py = await call('get_symbol', { id: store.id });
    expect(py.scope_applied).toBeUndefined();
    expect(py.node).toMatchObject({ id: store.id, name: 'MemoryStore', file_path: 'shop/store.py', repo_prefix: 'httpother' });
    const ts = await call('get_callers', { id: 'httpapp/src/format.ts::formatLabel' });
    expect(ts.scope_applied).toBeUndefined();
    expect(ts.target).toMatchObject({ id: 'httpapp/src/format.ts::formatLabel', repo_prefix: 'httpapp' });
    // ?repo= picks one repository: no merge, and the other's symbols are not there.
    const scoped = await call('search_symbols', { query: 'formatLabel' }, '?repo=httpapp');
    expect(scoped.scope_applied).toBeUndefined();
    expect(scoped.results[0]).toMatchObject({ name: 'formatLabel' });
    expect(scoped.results[0].repo).toBeUndefined();
    expect((await call('search_symbols', { query: 'MemoryStore' }, '?repo=httpapp')).results.filter((r: any) => r.name === 'MemoryStore')).toEqual([]);
    const stats: any = await (await fetch(`${url}/v1/stats`)).json();
    expect(stats.repos.map((r: any) => r.name)).toEqual(['httpapp', 'httpother']);
    const graph: any = await (await fetch(`${url}/v1/graph?repo=httpother`)).json();
    expect(graph.stats.per_repo.map((r: any) => r.repo)).toEqual(['httpother']);
    expect(graph.nodes.some((n: any) => n.file_path.endsWith('.py'))).toBe(true);
    // Every node is the repository's own, or an `external::` stub (no repository).
    expect(graph.nodes.every((n: any) => n.repo_prefix === 'httpother' || (n.repo_prefix === '' && n.id.startsWith('external::')))).toBe(true);
    const whole: any = await (await fetch(`${url}/v1/graph`)).json();
    expect(whole.stats.per_repo.map((r: any) => r.repo)).toEqual(['httpapp', 'httpother']);
    expect(new Set(whole.nodes.map((n: any) => n.repo_prefix).filter((p: string) => p !== ''))).toEqual(new Set(['httpapp', 'httpother']));
  });

  test('/v1/events streams a graph_change when a tracked file changes', async () => {
    const controller = new AbortController();
    const response = await fetch(`${url}/v1/events`, { signal: controller.signal });
    const reader = response.body!.getReader();
    fs.appendFileSync(path.join(repo, 'src', 'format.ts'), '\nexport function viaEvents(): void {}\n');
    let text = '';
    while (!/event: graph_change\nid: \d+\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const data = JSON.parse(/event: graph_change\nid: \d+\ndata: (.*)\n\n/.exec(text)![1]!);
    expect(data).toMatchObject({ repo: 'httpapp', kind: 'modified', files: ['src/format.ts'] });
    expect(data.nodes_added).toBeGreaterThanOrEqual(1);
  });

  test('/mcp serves an MCP session over Streamable HTTP from the daemon', async () => {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'gortex-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      // A named client gets the compact surface by default.
      const { tools } = await client.listTools();
      expect(tools.length).toBe(21);
      const found = (await client.callTool({ name: 'search', arguments: { operation: 'symbols', query: 'viaEvents', format: 'json' } })) as TextResult;
      expect(found.isError).toBeUndefined();
      expect(JSON.parse(found.content[0]!.text).results[0]).toMatchObject({ name: 'viaEvents' });
    } finally {
      await client.close();
    }
  });
});

describe('multi-repo tools over the daemon', () => {
  const w = daemonWorld();
  const app = gitFixture('query/app-ts', 'wsapp');
  const shopPy = gitFixture('query/app-py', 'shoppy');
  const shopMixed = gitFixture('query/search-app', 'shopmixed');
  let client: Client;
  beforeAll(async () => {
    expect(runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: app }).status).toBe(0);
    client = await mcpClient(w.env, app);
  });
  afterAll(async () => {
    await client.close();
    runCli(['daemon', 'stop'], { env: w.env });
  });
  const refusal = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await client.callTool({ name, arguments: { format: 'json', ...args } })) as TextResult;
    expect(result.isError).toBe(true);
    return result.content[0]!.text;
  };

  test('track_repository adds repositories; list_repos and workspace_info describe the workspace', async () => {
    expect((await ok(client, 'list_repos', {})).repos.map((r: any) => r.name)).toEqual(['wsapp']);
    const tracked = await ok(client, 'track_repository', { path: shopPy, project: 'shop' });
    expect(tracked.tracked).toMatchObject({ name: 'shoppy', project: 'shop', phase: 'ready' });
    expect(tracked.tracked.nodes).toBeGreaterThan(0);
    await ok(client, 'track_repository', { path: shopMixed, project: 'shop' });
    expect(await refusal('track_repository', { path: shopMixed, name: 'wsapp' })).toMatch(/^invalid_argument: the name "wsapp" is already used by/);
    expect(await refusal('track_repository', { path: path.join(shopMixed, 'no-such-folder') })).toMatch(/^invalid_argument: Path does not exist: /);
    const repos = await ok(client, 'list_repos', {});
    expect(repos.mode).toBe('daemon');
    expect(repos.projects).toEqual({ shop: ['shopmixed', 'shoppy'] });
    const info = await ok(client, 'workspace_info', {});
    expect(info).toMatchObject({ mode: 'daemon', root: fs.realpathSync(app), repo: 'wsapp', projects: ['shop'], active_project: null });
    expect(info.members.map((m: any) => m.name)).toEqual(['shopmixed', 'shoppy', 'wsapp']);
  });

  test('repo narrows one call; an active project fans every query out and merges with a repo column', async () => {
    const py = await ok(client, 'search_symbols', { query: 'MemoryStore', repo: 'shoppy' });
    expect(py.results[0]).toMatchObject({ name: 'MemoryStore', path: 'shop/store.py' });
    expect(await refusal('search_symbols', { query: 'x', repo: 'nope' })).toBe('not_found: repository "nope" is not in this workspace; repositories: shopmixed, shoppy, wsapp');
    expect(await refusal('set_active_project', { project: 'nope' })).toBe('not_found: no repository belongs to project "nope"; projects: shop');
    expect(await ok(client, 'set_active_project', { project: 'shop' })).toEqual({ active_project: 'shop', repos: ['shopmixed', 'shoppy'] });
    expect(await ok(client, 'get_active_project', {})).toEqual({ active_project: 'shop', repos: ['shopmixed', 'shoppy'] });
    const merged = await ok(client, 'search_symbols', { query: 'Store' });
    expect(merged.scope_applied).toBe('repos:2');
    const byRepo = new Set(merged.results.map((r: any) => r.repo));
    expect(byRepo).toEqual(new Set(['shoppy', 'shopmixed']));
    const scores = merged.results.map((r: any) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // query_project looks elsewhere without switching.
    const other = await ok(client, 'query_project', { repo: 'wsapp', query: 'formatLabel' });
    expect(other.results[0]).toMatchObject({ name: 'formatLabel', path: 'src/format.ts' });
    expect(await refusal('query_project', { query: 'x' })).toBe('invalid_argument: give exactly one of project or repo');
    expect(await ok(client, 'set_active_project', { project: '' })).toEqual({ active_project: null });
    expect((await ok(client, 'search_symbols', { query: 'formatLabel' })).results[0]).toMatchObject({ name: 'formatLabel' });
  });

  test('saved scopes narrow queries by name and persist in the gortex home', async () => {
    expect(await ok(client, 'save_scope', { name: 'pair', repos: ['wsapp', 'shoppy'] })).toEqual({ saved: 'pair', repos: ['wsapp', 'shoppy'] });
    expect((await ok(client, 'list_scopes', {})).scopes).toEqual([{ name: 'pair', repos: ['wsapp', 'shoppy'], created_at: expect.any(String) }]);
    expect(JSON.parse(fs.readFileSync(path.join(w.home, 'scopes.json'), 'utf8')).scopes.pair.repos).toEqual(['wsapp', 'shoppy']);
    const scoped = await ok(client, 'find_files', { query: 'store', scope: 'pair' });
    expect(scoped.scope_applied).toBe('repos:2');
    expect(scoped.results.map((r: any) => `${r.repo}:${r.path}`)).toContain('shoppy:shop/store.py');
    expect(scoped.results.every((r: any) => r.repo !== 'shopmixed')).toBe(true);
    expect(await refusal('search_symbols', { query: 'x', scope: 'nope' })).toBe('not_found: no saved scope "nope"; scopes: pair');
    expect(await ok(client, 'delete_scope', { name: 'pair' })).toEqual({ deleted: 'pair' });
    expect(await refusal('delete_scope', { name: 'pair' })).toBe('not_found: no saved scope "pair"; scopes: none');
  });

  test('get_recent_changes lists files the watchers re-indexed; reindex_repository and untrack_repository work', async () => {
    // Editors' and tools' temporaries written beside the edit are not changes.
    const temporaries = ['.store.py.swp', '4913', 'store.py~', 'sedAb12Cd', '.#store.py', 'store.py___jb_tmp___'];
    for (const name of temporaries) fs.writeFileSync(path.join(shopPy, 'shop', name), 'x');
    fs.appendFileSync(path.join(shopPy, 'shop', 'store.py'), '\n\ndef recently_added() -> int:\n    return 1\n');
    await eventually(async () => ((await ok(client, 'search_symbols', { query: 'recently_added', repo: 'shoppy' })).results.length > 0 ? true : undefined), 'the edit indexed');
    for (const name of temporaries) fs.rmSync(path.join(shopPy, 'shop', name));
    const changes = await ok(client, 'get_recent_changes', { since: '10m' });
    expect(changes.changes.filter((c: any) => temporaries.some((name) => c.path.endsWith(name)))).toEqual([]);
    expect(changes.changes[0]).toMatchObject({ repo: 'shoppy', path: 'shop/store.py', exists: true });
    expect(changes.changes[0].symbols).toContain('recently_added');
    expect((await ok(client, 'get_recent_changes', { since: '10m', repo: 'wsapp' })).changes).toEqual([]);
    expect(await refusal('get_recent_changes', { since: 'yesterday-ish' })).toMatch(/^invalid_argument: since must be epoch milliseconds, an ISO time or a duration/);
    const reindexed = await ok(client, 'reindex_repository', { repo: 'shoppy' });
    expect(reindexed).toMatchObject({ repo: 'shoppy', mode: 'unchanged' });
    expect(await ok(client, 'untrack_repository', { path_or_name: 'shopmixed' })).toEqual({ untracked: [fs.realpathSync(shopMixed)] });
    expect(await refusal('untrack_repository', { path_or_name: 'shopmixed' })).toMatch(/^not_found: no tracked repository matches "shopmixed"/);
    expect((await ok(client, 'list_repos', {})).repos.map((r: any) => r.name)).toEqual(['shoppy', 'wsapp']);
  });

  test('index_health names a tracked repository whose directory was deleted, and the daemon keeps serving', async () => {
    const before = await ok(client, 'index_health', {});
    expect(before).toMatchObject({ tracked_repo_paths_ok: true, missing_repo_paths: [] });
    // graph_stats sizes every repository of a workspace of several, beside the session's own counts.
    const stats = await ok(client, 'graph_stats', {});
    expect(stats.repos.map((r: any) => r.name).sort()).toEqual(['shoppy', 'wsapp']);
    expect(stats.repos.every((r: any) => r.phase === 'ready' && r.nodes > 0)).toBe(true);
    expect(Object.keys(stats.nodes_by_language)).toEqual(['json', 'typescript']);
    const shopRoot = fs.realpathSync(shopPy);
    fs.rmSync(shopPy, { recursive: true, force: true });
    const after = await ok(client, 'index_health', {});
    expect(after.tracked_repo_paths_ok).toBe(false);
    expect(after.missing_repo_paths).toEqual([{ name: 'shoppy', root: shopRoot }]);
    expect(after.problems).toContain(`tracked repository shoppy is missing on disk (${after.missing_repo_paths[0].root})`);
    expect(after.score_deductions).toContainEqual({ reason: '1 tracked repositories missing on disk', points: 20 });
    expect(after.health_score).toBe(before.health_score - 20);
    // The registration stays (untrack removes it), and every other repository still answers.
    expect((await ok(client, 'list_repos', {})).repos.map((r: any) => r.name)).toEqual(['shoppy', 'wsapp']);
    expect((await ok(client, 'search_symbols', { query: 'formatLabel' })).results[0]).toMatchObject({ name: 'formatLabel' });
  });
});

describe('the server roster routes tool calls by workspace', () => {
  const a = daemonWorld();
  const b = daemonWorld();
  const c = daemonWorld();
  const local = gitFixture('query/app-ts', 'rosterlocal');
  const pay = gitFixture('query/app-ts', 'rosterpay');
  fs.writeFileSync(path.join(pay, '.gortex.yaml'), 'workspace: payments\n');
  const remotePy = gitFixture('query/app-py', 'remotepy');
  const remoteSearch = gitFixture('query/search-app', 'remotesearch');
  const envA = { ...a.env, B_TOKEN: 'secret-b' };
  const clients: Client[] = [];
  beforeAll(async () => {
    expect(runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0', '--http-auth-token', 'secret-b'], { env: b.env, cwd: remotePy }).status).toBe(0);
    expect(runCli(['daemon', 'start', '--detach'], { env: c.env, cwd: remoteSearch }).status).toBe(0);
    const bUrl = (await readyStatus(b.env)).http.url as string;
    await readyStatus(c.env);
    const add = (...args: string[]): void => {
      const r = runCli(['daemon', 'server', 'add', ...args], { env: envA });
      expect(r.stderr).toBe('');
    };
    add('--slug', 'b', '--url', `${bUrl}/v1`, '--workspace', 'payments', '--auth-token-env', 'B_TOKEN');
    add('--slug', 'c', '--url', `unix://${c.socket}`, '--workspace', 'search');
    add('--slug', 'keyless', '--url', `${bUrl}/v1`, '--workspace', 'nokey', '--auth-token-env', 'GORTEX_TEST_UNSET_TOKEN');
    add('--slug', 'self', '--url', `unix://${a.socket}`, '--default');
    expect(runCli(['daemon', 'start', '--detach'], { env: envA, cwd: local }).status).toBe(0);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const w of [a, b, c]) runCli(['daemon', 'stop'], { env: w.env });
  });
  const callMeta = async (client: Client, name: string, args: Record<string, unknown>): Promise<{ body: any; meta: any; text: string; isError?: boolean }> => {
    const result = (await client.callTool({ name, arguments: { format: 'json', ...args } })) as TextResult & { _meta?: any };
    const text = result.content[0]!.text;
    return { body: result.isError ? undefined : JSON.parse(text), meta: result._meta, text, ...(result.isError ? { isError: true } : {}) };
  };

  test('server list shows the roster without tokens; status reports it', async () => {
    const list = JSON.parse(runCli(['daemon', 'server', 'list', '--json'], { env: envA }).stdout);
    expect(list.map((s: any) => [s.slug, s.default, s.workspaces, s.token])).toEqual([
      ['b', false, ['payments'], '$B_TOKEN'],
      ['c', false, ['search'], null],
      ['keyless', false, ['nokey'], '$GORTEX_TEST_UNSET_TOKEN'],
      ['self', true, [], null],
    ]);
    const roster = (await readyStatus(envA)).roster;
    expect(roster.find((s: any) => s.slug === 'self')).toMatchObject({ self: true, default: true });
  });

  test('a call naming a workspace goes to the server that serves it; others are answered locally', async () => {
    const client = await mcpClient(envA, local);
    clients.push(client);
    const viaHttp = await callMeta(client, 'search_symbols', { query: 'MemoryStore', workspace: 'payments' });
    expect(viaHttp.meta.gortex_routed_to).toBe('b');
    expect(viaHttp.body.results[0]).toMatchObject({ name: 'MemoryStore', path: 'shop/store.py' });
    // A GCX1 answer comes back through /v1 as it left the other server.
    const gcx = (await client.callTool({ name: 'search_symbols', arguments: { query: 'MemoryStore', workspace: 'payments', format: 'gcx' } })) as TextResult & { _meta?: any };
    expect(gcx.isError).toBeUndefined();
    expect(gcx._meta.gortex_routed_to).toBe('b');
    expect(gcx.content[0]!.text).toMatch(/^GCX1 tool=search_symbols/);
    expect(gcx.content[0]!.text).toContain('MemoryStore');
    const viaSocket = await callMeta(client, 'search_symbols', { query: 'UserStore', workspace: 'search' });
    expect(viaSocket.meta.gortex_routed_to).toBe('c');
    expect(viaSocket.body.results[0]).toMatchObject({ name: 'UserStore' });
    const here = await callMeta(client, 'search_symbols', { query: 'formatLabel' });
    expect(here.meta.gortex_routed_to).toBeUndefined();
    expect(here.body.results[0]).toMatchObject({ name: 'formatLabel' });
    expect(here.body._ignored_options).toBeUndefined();
    const keyless = await callMeta(client, 'search_symbols', { query: 'x', workspace: 'nokey' });
    expect(keyless.text).toBe('unavailable: server "keyless" needs the token in $GORTEX_TEST_UNSET_TOKEN, which is not set in the daemon\'s environment');
    const remoteError = await callMeta(client, 'get_callers', { id: 'noSuchSymbolAnywhere', workspace: 'payments' });
    expect(remoteError.isError).toBe(true);
    expect(remoteError.text).toMatch(/^not_found: /);
  });

  test("a repository whose .gortex.yaml names a workspace routes its session's calls there", async () => {
    const client = await mcpClient(envA, pay);
    clients.push(client);
    const routed = await callMeta(client, 'search_symbols', { query: 'MemoryStore' });
    expect(routed.meta.gortex_routed_to).toBe('b');
    expect(routed.body.results[0]).toMatchObject({ name: 'MemoryStore' });
  });

  test('server add/remove refuse bad input and change nothing; logs without a log says so', () => {
    const w = daemonWorld();
    const bad = (args: string[], message: RegExp): void => {
      const r = runCli(args, { env: w.env });
      expect(r.status).toBe(2);
      expect(unwrap(r.stderr)).toMatch(message);
    };
    bad(['daemon', 'server', 'add', '--slug', 'x', '--url', 'ftp://nope'], /--url: url must be unix:\/\/, https:\/\/ or http:\/\/, got ftp:/);
    bad(['daemon', 'server', 'add', '--slug', 'x', '--url', 'unix://relative.sock'], /needs an absolute socket path/);
    bad(['daemon', 'server', 'add', '--slug', 'bad slug', '--url', 'https://h/v1'], /--slug must be a short name/);
    bad(['daemon', 'server', 'add', '--slug', 'x', '--url', 'https://h/v1', '--auth-token', 't', '--auth-token-env', 'T'], /give --auth-token or --auth-token-env, not both/);
    bad(['daemon', 'server', 'remove', 'ghost'], /no server "ghost" in .*servers\.toml; servers: none/);
    expect(fs.existsSync(path.join(w.home, 'servers.toml'))).toBe(false);
    bad(['daemon', 'logs'], /no daemon log at .*daemon\.log yet/);
  });

  test('a broken roster stops the daemon from starting, naming the file', () => {
    const w = daemonWorld();
    fs.writeFileSync(path.join(w.home, 'servers.toml'), '[[server]]\nslug = "x"\nurl = "ftp://nope"\n');
    const r = runCli(['daemon', 'start'], { env: w.env, cwd: local });
    expect(r.status).toBe(2);
    expect(unwrap(r.stderr)).toMatch(/servers\.toml: server #1 \(x\): url must be unix:\/\/, https:\/\/ or http:\/\/, got ftp:/);
    expect(fs.existsSync(w.socket)).toBe(false);
  });
});

describe('warming', () => {
  test('a call while the repository is still warming is answered with a warming refusal, then served once ready', async () => {
    const w = daemonWorld();
    const repo = gitFixture('query/app-ts', 'warmapp');
    // The open is held 8 s: long enough for the checks below on a loaded machine.
    const env = { ...w.env, GORTEX_TEST_HOOKS: '1', GORTEX_TEST_SLOW_OPEN: '8000', GORTEX_WARMING_WAIT_MS: '100' };
    expect(runCli(['daemon', 'start', '--detach'], { env, cwd: repo }).status).toBe(0);
    const stderr: string[] = [];
    const client = await mcpClient(env, repo, [], stderr);
    try {
      expect(stderr.join('')).toMatch(/connected to the gortex daemon \(session [0-9a-f-]+, .*warmapp, warming up: queued\)/);
      const early = (await client.callTool({ name: 'search_symbols', arguments: { query: 'formatLabel', format: 'json' } })) as TextResult;
      expect(early.isError).toBe(true);
      expect(early.content[0]!.text).toMatch(/^warming: repository "warmapp" is still being indexed \(phase queued, \d+ s so far\); answers start when it is ready/);
      const warming = statusOf(env).repos[0];
      expect(warming).toMatchObject({ name: 'warmapp', phase: 'queued', warmup_ms: null });
      await readyStatus(env);
      expect((await ok(client, 'search_symbols', { query: 'formatLabel' })).results[0]).toMatchObject({ name: 'formatLabel' });
    } finally {
      await client.close();
      runCli(['daemon', 'stop'], { env });
    }
  });
});

describe('provisional answers while warming', () => {
  /** A git repository of `n` TypeScript modules, each calling the one before it. */
  function chainRepo(n: number): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-chain-'));
    for (let i = 0; i < n; i++) {
      const body = i === 0 ? 'return 0;' : `return step${i - 1}() + 1;`;
      const imports = i === 0 ? '' : `import { step${i - 1} } from './step${i - 1}';\n`;
      fs.writeFileSync(path.join(root, `step${i}.ts`), `${imports}/** Step ${i}. */\nexport function step${i}(): number {\n  ${body}\n}\n`);
    }
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'chain');
    return root;
  }

  test('a call during the parse is answered from the files read so far with a warming block; analyses wait; then answers are complete', async () => {
    const w = daemonWorld();
    const repo = chainRepo(24);
    // 24 files × 2 s on 2 threads: the pass parses for about 24 s (room for the checks on a loaded machine,
    // where each CLI status check can take a second or two).
    const env = { ...w.env, GORTEX_TEST_HOOKS: '1', GORTEX_TEST_PARSE_DELAY_MS: '2000', GORTEX_WARMING_GRACE_MS: '50' };
    expect(runCli(['daemon', 'start', '--detach'], { env, cwd: repo }).status).toBe(0);
    const client = await mcpClient(env, repo);
    try {
      const parsing = await eventually(async () => {
        const row = statusOf(env).repos[0];
        return row?.phase === 'parse' && row.progress?.done > 0 ? row : undefined;
      }, 'the pass is parsing');
      expect(parsing.partial).toBeNull();

      const early = await ok(client, 'search_symbols', { query: 'step', limit: 100 });
      expect(Object.keys(early)[0]).toBe('warming');
      expect(early.warming).toMatchObject({ repo: path.basename(repo), phase: 'parse', partial: true, files_total: 24 });
      expect(early.warming.files_indexed).toBeGreaterThan(0);
      expect(early.warming.files_indexed).toBeLessThan(24);
      expect(early.warming.note).toMatch(/still being indexed: this answer covers \d+ of the 24 files found so far/);
      // Only what was read is there, and everything read is.
      expect(early.results.length).toBe(early.warming.files_indexed);
      const gcx = (await client.callTool({ name: 'search_symbols', arguments: { query: 'step', format: 'gcx' } })) as TextResult;
      expect(gcx.content[0]!.text).toMatch(/^GCX1 tool=search_symbols .*warming=parse:\d+\/24 /);
      const stats = await ok(client, 'graph_stats', {});
      expect(stats.warming.partial).toBe(true);
      expect(stats.files).toBeGreaterThanOrEqual(early.warming.files_indexed);
      expect(stats.files).toBeLessThan(24);
      const row = statusOf(env).repos[0];
      expect(row.partial).toMatchObject({ total: 24 });
      expect(runCli(['daemon', 'status'], { env }).stdout).toMatch(/parse \d+\/24 .*\(answering from \d+ of 24 files so far\)/);

      // An analysis waits for the complete graph rather than calling the unread callers' callees dead.
      const dead = await ok(client, 'analyze', { kind: 'dead_code' });
      expect(dead.warming).toBeUndefined();
      expect(statusOf(env).repos[0].phase).toBe('ready');

      const complete = await ok(client, 'search_symbols', { query: 'step', limit: 100 });
      expect(complete.warming).toBeUndefined();
      expect(complete.results.length).toBe(24);
      const callers = await ok(client, 'get_callers', { id: 'step0' });
      expect(callers.warming).toBeUndefined();
      expect(JSON.stringify(callers)).toContain('step1');
      expect(statusOf(env).repos[0].partial).toBeNull();
    } finally {
      await client.close();
      runCli(['daemon', 'stop'], { env });
    }
  }, 60_000);
});

describe('progress while a call waits for a warming repository', () => {
  test('an analysis called with a progress token hears the warm-up over stdio and on its /mcp POST stream, then gets the complete answer', async () => {
    const w = daemonWorld();
    const repo = gitFixture('query/app-ts', 'progressapp');
    for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(repo, `extra${i}.ts`), `export function extra${i}(): number {\n  return ${i};\n}\n`);
    // 20-odd files × 1 s on 2 threads: about 10 s of parsing.
    const env = { ...w.env, GORTEX_TEST_HOOKS: '1', GORTEX_TEST_PARSE_DELAY_MS: '1000', GORTEX_WARMING_GRACE_MS: '50' };
    expect(runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0'], { env, cwd: repo }).status).toBe(0);
    const url = statusOf(env).http.url as string;
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const http = new Client({ name: 'gortex-progress-test', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const stdio = await mcpClient(env, repo);
    try {
      const heard: Record<'http' | 'stdio', { progress: number; total?: number; message?: string }[]> = { http: [], stdio: [] };
      const call = async (client: Client, door: 'http' | 'stdio'): Promise<any> => {
        // The HTTP client names itself, so it gets the compact surface: the facade routes to analyze.
        const args = door === 'http' ? { operation: 'dead_code', format: 'json' } : { kind: 'dead_code', format: 'json' };
        const result = (await client.callTool({ name: 'analyze', arguments: args }, undefined, { onprogress: (p) => heard[door].push(p) })) as TextResult;
        expect(result.isError).toBeUndefined();
        return JSON.parse(result.content[0]!.text);
      };
      const [overHttp, overStdio] = await Promise.all([call(http, 'http'), call(stdio, 'stdio')]);
      expect(overHttp.warming).toBeUndefined();
      expect(overStdio.warming).toBeUndefined();
      for (const door of ['http', 'stdio'] as const) {
        const events = heard[door];
        expect(events.length).toBeGreaterThanOrEqual(2);
        // Values only grow, out of 100, and end at ready.
        expect(events.every((e, i) => e.total === 100 && (i === 0 || e.progress > events[i - 1]!.progress))).toBe(true);
        expect(events.some((e) => /^indexing progressapp: parse \d+\/\d+$/.test(e.message ?? ''))).toBe(true);
        // In order with the answer: over HTTP the POST carrying the token is answered as an SSE
        // stream of its progress, then its response.
        expect(events.at(-1)).toMatchObject({ progress: 100, message: 'indexing progressapp: ready' });
      }
      // A call on a ready repository has nothing to wait for and hears nothing.
      const quiet: unknown[] = [];
      await http.callTool({ name: 'search', arguments: { operation: 'symbols', query: 'extra1' } }, undefined, { onprogress: (p) => quiet.push(p) });
      expect(quiet).toEqual([]);
    } finally {
      await http.close();
      await stdio.close();
      runCli(['daemon', 'stop'], { env });
    }
  }, 60_000);
});

describe('a session opened at a folder above several tracked repositories', () => {
  test('spans all of them: queries fan out and rows name their repository', async () => {
    const w = daemonWorld();
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-parent-'));
    const made = [gitFixture('query/app-ts', 'front'), gitFixture('query/app-py', 'back')].map((root) => {
      const moved = path.join(parent, path.basename(root));
      fs.cpSync(root, moved, { recursive: true });
      return moved;
    });
    expect(runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: made[0] }).status).toBe(0);
    expect(runCli(['track', made[1]!], { env: w.env }).status).toBe(0);
    const stderr: string[] = [];
    const client = await mcpClient(w.env, parent, [], stderr);
    try {
      expect(stderr.join('')).toMatch(/connected to the gortex daemon \(session [0-9a-f-]+, 2 repositories: (front, back|back, front)\)/);
      const both = await ok(client, 'find_files', { query: 'store' });
      expect(both.scope_applied).toBe('repos:2');
      expect(both.results.map((r: any) => r.repo)).toContain('back');
      const one = await ok(client, 'search_symbols', { query: 'formatLabel', repo: 'front' });
      expect(one.scope_applied).toBeUndefined();
      expect(one.results[0]).toMatchObject({ name: 'formatLabel' });
      // Nothing new was tracked for the parent folder itself.
      expect(statusOf(w.env).repos.map((r: any) => r.name).sort()).toEqual(['back', 'front']);
    } finally {
      await client.close();
      runCli(['daemon', 'stop'], { env: w.env });
    }
  });
});

describe('cross-repository edges', () => {
  test('references that imports prove join repositories: callers and usages across them, counted in workspace_info', async () => {
    const w = daemonWorld();
    const [lib, app, gosvc, gocli] = ['lib', 'app', 'gosvc', 'gocli'].map((n) => gitFixture(`crossrepo/${n}`, n));
    expect(runCli(['daemon', 'start', '--detach'], { env: w.env, cwd: lib }).status).toBe(0);
    for (const r of [app, gosvc, gocli]) expect(runCli(['track', r!], { env: w.env }).status).toBe(0);
    const client = await mcpClient(w.env, lib!);
    try {
      const callers = await ok(client, 'get_callers', { id: 'sharedHelper' });
      expect(callers.cross_repo_refs).toBe(1);
      expect(callers.callers).toEqual([
        { caller: { id: 'app/src/main.ts::run', kind: 'function', name: 'run', qual_name: 'run', file_path: 'src/main.ts', repo_prefix: 'app' }, kind: 'calls', origin: 'ast_resolved', path: 'src/main.ts', lines: [4], depth: 1, repo: 'app', cross_repo: true },
      ]);
      const usages = await ok(client, 'find_usages', { id: 'BaseThing' });
      expect(usages.usages.filter((u: any) => u.cross_repo)).toEqual([
        { from: 'app/src/main.ts::Impl', kind: 'extends', context: 'extends', origin: 'ast_resolved', path: 'src/main.ts', line: 7, repo: 'app', cross_repo: true },
      ]);
      // The using node joins `nodes`, once.
      expect(usages.nodes.filter((n: any) => n.id === 'app/src/main.ts::Impl')).toEqual([{ id: 'app/src/main.ts::Impl', kind: 'type', name: 'Impl', qual_name: 'Impl', file_path: 'src/main.ts', repo_prefix: 'app' }]);
      const goCallers = await ok(client, 'get_callers', { id: 'Slugify', repo: 'gosvc' });
      expect(goCallers.callers.map((c: any) => [c.repo ?? 'gosvc', c.caller.id])).toEqual([['gocli', 'gocli/main.go::main']]);
      const info = await ok(client, 'workspace_info', {});
      expect(info.cross_repo.edges).toBe(3);
      expect(info.cross_repo.pairs.map((p: any) => [p.from, p.to, p.edges])).toEqual([
        ['app', 'lib', 2],
        ['gocli', 'gosvc', 1],
      ]);
      // The same links rolled up by analyze: per pair of repositories and relation.
      const deps = await ok(client, 'analyze', { kind: 'cross_repo' });
      expect(deps.dependencies.map((d: any) => [d.from_repo, d.to_repo, d.kind, d.count])).toEqual([
        ['app', 'lib', 'calls', 1],
        ['app', 'lib', 'extends', 1],
        ['gocli', 'gosvc', 'calls', 1],
      ]);
      expect(deps.repos).toEqual(['app', 'gocli', 'gosvc', 'lib']);
      expect((await ok(client, 'analyze', { kind: 'cross_repo', touching: 'gosvc' })).references).toBe(1);
      // A function nobody imports has no cross-repository callers.
      expect((await ok(client, 'get_callers', { id: 'localOnly', repo: 'app' })).cross_repo_refs).toBeUndefined();
      // An edit on disk re-indexes one repository: the edges across are linked again.
      const main = path.join(app!, 'src', 'main.ts');
      fs.appendFileSync(main, '\nexport function again(): number {\n  return sharedHelper() * 2;\n}\n');
      const after = await eventually(async () => {
        const r = await ok(client, 'get_callers', { id: 'sharedHelper' });
        return r.cross_repo_refs === 2 ? r : undefined;
      }, 'a second cross-repository caller after the edit');
      expect(after.callers.map((c: any) => c.caller.id).sort()).toEqual(['app/src/main.ts::again', 'app/src/main.ts::run']);
    } finally {
      await client.close();
      runCli(['daemon', 'stop'], { env: w.env });
    }
  });
});
