/**
 * The embedded REST listener, `gortex mcp --index PATH --server --port N`: allowed only by the
 * user-level config, the daemon's `/v1` routes through the one call pipeline, the same
 * deny-by-default browser policy, `--auth-token` / `GORTEX_SERVER_TOKEN`, and MCP on stdio beside it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { gitFixture } from './helpers/daemon';
import { tempHome } from './helpers/repo';

/** An environment whose user-level config says `allow`, with a private home and no daemon. */
function worldEnv(allow: boolean | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-xdg-'));
  fs.mkdirSync(path.join(xdg, 'gortex'));
  if (allow !== undefined) fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), `mcp:\n  allow_embedded: ${allow}\n`);
  const env: Record<string, string> = { ...(process.env as Record<string, string>), XDG_CONFIG_HOME: xdg, GORTEX_HOME: tempHome(), GORTEX_THREADS: '2', GORTEX_AUTOSTART: '0', ...extra };
  env.GORTEX_DAEMON_SOCKET = path.join(os.tmpdir(), `gortex-no-daemon-${process.pid}.sock`);
  delete env.NODE_ENV;
  delete env.GORTEX_SERVER_TOKEN;
  delete env.GORTEX_DAEMON_HTTP_TOKEN;
  delete env.GORTEX_TOOLS;
  return { ...env, ...extra };
}

/** Waits for the listener's URL on the child's stderr. */
function listenerUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const m = /REST listener on (http:\/\/\S+?) /.exec(text);
      if (m) {
        child.stderr!.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gortex mcp --server exited ${code} before listening:\n${text}`)));
  });
}

/** Starts `gortex mcp --server` over stdio pipes; returns the child and its URL. */
async function startListener(repo: string, env: Record<string, string>, extraArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--index', repo, '--server', '--port', '0', '--no-watch', ...extraArgs], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  return { child, url: await listenerUrl(child) };
}

/** Ends a listener with SIGTERM and waits for it to exit; returns its exit code. */
async function stopListener(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

const search = (url: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${url}/v1/tools/search_symbols`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: 'formatLabel', format: 'json' }) });

describe('gortex mcp --server (the embedded REST listener)', () => {
  let repo: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    repo = gitFixture('query/app-ts', 'app-ts');
  });
  afterAll(async () => {
    for (const child of children) await stopListener(child);
  });

  test('is refused unless the user-level config sets mcp.allow_embedded: true', () => {
    for (const allow of [undefined, false]) {
      const env = worldEnv(allow);
      const run = runCli(['mcp', '--index', repo, '--server', '--port', '0'], { env });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('allow_embedded: true');
      expect(run.stderr).toContain(path.join(env.XDG_CONFIG_HOME!, 'gortex', 'config.yaml'));
    }
    // A repository's own .gortex.yaml cannot allow it.
    const own = gitFixture('query/app-ts', 'app-ts');
    fs.writeFileSync(path.join(own, '.gortex.yaml'), 'mcp:\n  allow_embedded: true\n');
    const run = runCli(['mcp', '--index', own, '--server', '--port', '0'], { env: worldEnv(undefined) });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('allow_embedded');
  });

  test('bad listener flags fail before anything is indexed, naming the fix', () => {
    const env = worldEnv(true);
    const open = runCli(['mcp', '--index', repo, '--server', '--bind', '0.0.0.0', '--port', '0'], { env });
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('--auth-token');
    expect(open.stderr).toContain('GORTEX_SERVER_TOKEN');
    const cors = runCli(['mcp', '--index', repo, '--server', '--cors-origin', 'https://ui.example/app'], { env });
    expect(cors.status).toBe(2);
    expect(cors.stderr).toContain('https://ui.example');
    const withoutServer = runCli(['mcp', '--index', repo, '--port', '9999'], { env });
    expect(withoutServer.status).toBe(2);
    expect(withoutServer.stderr).toContain('--server');
  });

  test('serves /v1 over the call pipeline and MCP on stdio from one process', async () => {
    const env = worldEnv(true);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--index', repo, '--server', '--port', '0', '--no-watch', '--tools', 'full'],
      env,
      stderr: 'pipe',
    });
    const stderr = transport.stderr!;
    let text = '';
    const url = new Promise<string>((resolve) =>
      stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const m = /REST listener on (http:\/\/\S+?) /.exec(text);
        if (m) resolve(m[1]!);
      }),
    );
    const client = new Client({ name: 'embedded-listener-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const base = await url;
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${base}/v1/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as any).nodes).toBeGreaterThan(0);
      const res = await search(base);
      expect(res.status).toBe(200);
      const envelope = (await res.json()) as any;
      expect(envelope.isError).not.toBe(true);
      expect(envelope.content[0].text).toContain('formatLabel');
      const tools = (await (await fetch(`${base}/v1/tools`)).json()) as any[];
      expect(tools.map((t: { name: string }) => t.name)).toContain('search_symbols');
      // The same answer over stdio MCP.
      const overStdio = (await client.callTool({ name: 'search_symbols', arguments: { query: 'formatLabel', format: 'json' } })) as { content: { text: string }[] };
      expect(JSON.parse(overStdio.content[0]!.text)).toEqual(JSON.parse(envelope.content[0].text));
      // Browsers are refused by default, and the built-in page is served.
      expect((await search(base, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await fetch(`${base}/ui/`)).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  test('after stdin closes the listener keeps serving until SIGTERM, then exits 0', async () => {
    const { child, url } = await startListener(repo, worldEnv(true));
    children.push(child);
    child.stdin!.end();
    await new Promise((r) => setTimeout(r, 500));
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    expect(await stopListener(child)).toBe(0);
  });

  test('--auth-token and GORTEX_SERVER_TOKEN require the bearer token', async () => {
    for (const [args, extra] of [
      [['--auth-token', 'flag-secret'], {}],
      [[], { GORTEX_SERVER_TOKEN: 'env-secret' }],
    ] as const) {
      const token = args.length > 0 ? 'flag-secret' : 'env-secret';
      const { child, url } = await startListener(repo, worldEnv(true, extra), [...args]);
      children.push(child);
      const anonymous = await search(url);
      expect(anonymous.status).toBe(401);
      expect((await search(url, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await search(url, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await stopListener(child);
    }
  });

  test('--cors-origin admits that one origin with CORS headers; "*" admits no browser', async () => {
    const named = await startListener(repo, worldEnv(true), ['--cors-origin', 'https://ui.example']);
    children.push(named.child);
    const allowed = await search(named.url, { origin: 'https://ui.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://ui.example');
    expect((await search(named.url, { origin: 'https://other.example' })).status).toBe(403);
    await stopListener(named.child);

    const star = await startListener(repo, worldEnv(true), ['--cors-origin', '*']);
    children.push(star.child);
    expect((await search(star.url, { origin: 'https://ui.example' })).status).toBe(403);
    expect((await search(star.url)).status).toBe(200);
    await stopListener(star.child);
  });
});
