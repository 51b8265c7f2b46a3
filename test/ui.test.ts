/**
 * The built-in page at `/ui` in a real browser: a daemon (`--http-addr 127.0.0.1:0`) over a
 * fixture repository, and Debian's Chromium driven by playwright-core. The graph view draws what
 * `/v1/graph` answers for the same filters, a kind filter refetches, search finds a symbol whose
 * source, callers and usages the panel shows (a caller navigates), every analysis tab lists the
 * fixture's rows, and nothing fails on the way — no console error, no failed or 4xx/5xx request.
 * Beside it: the Origin guard still refuses a rebinding page while admitting the page's own
 * same-origin loopback POSTs, and a daemon with a token serves the page to `#token=…`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli } from './helpers/cli';
import { until } from './helpers/mcp';
import { daemonWorld, gitFixture } from './helpers/daemon';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts a daemon in `w` from `cwd` with `extra` flags; its HTTP URL once every repository is ready. */
async function startDaemon(w: ReturnType<typeof daemonWorld>, cwd: string, extra: string[] = []): Promise<string> {
  const started = runCli(['daemon', 'start', '--detach', '--http-addr', '127.0.0.1:0', ...extra], { env: w.env, cwd });
  if (started.status !== 0) throw new Error(`daemon start failed: ${started.stderr}`);
  const status = await until('the repository ready', async () => {
    const r = runCli(['daemon', 'status', '--json'], { env: w.env });
    const s = r.status === 0 ? JSON.parse(r.stdout) : undefined;
    return s && s.repos.length === 1 && s.repos[0].phase === 'ready' && s.http?.url ? s : undefined;
  }, 30_000);
  return status.http.url as string;
}

/** Chromium through playwright-core; a missing browser is a failure that says how to install it. */
async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: the /ui tests drive a real browser; install it with \`apt-get install chromium\``);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** What went wrong in a page: console errors, page errors, failed requests and 4xx/5xx answers. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} for ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

/** A raw HTTP request with the headers given as is (fetch may not set Host). */
function rawRequest(url: string, route: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: route, method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The node count the page reports and the /v1/graph URL it drew, once it has drawn `url` (or any, when absent). */
async function drawn(page: Page, urlIncludes?: string): Promise<{ nodes: number; url: string }> {
  const selector = urlIncludes === undefined ? '#status[data-nodes]' : `#status[data-nodes][data-url*="${urlIncludes}"]`;
  await page.locator(selector).waitFor({ state: 'attached', timeout: 60_000 });
  const status = page.locator('#status');
  return { nodes: Number(await status.getAttribute('data-nodes')), url: (await status.getAttribute('data-url')) ?? '' };
}

describe('the built-in /ui page in Chromium, over a daemon', () => {
  const w = daemonWorld();
  const repo = gitFixture('query/app-ts', 'uipage');
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const graphOf = async (route: string): Promise<any> => {
    const res = await fetch(`${url}${route}`);
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    // An import cycle and an unused private function, so the cycles and dead-code tabs have rows.
    fs.writeFileSync(path.join(repo, 'src', 'ring_a.ts'), "import { ringB } from './ring_b';\n\nexport function ringA(n: number): number {\n  return n > 0 ? ringB(n - 1) : 0;\n}\n\nfunction unusedHelper(): number {\n  return 42;\n}\n");
    fs.writeFileSync(path.join(repo, 'src', 'ring_b.ts'), "import { ringA } from './ring_a';\n\nexport function ringB(n: number): number {\n  return n > 0 ? ringA(n - 1) : 1;\n}\n");
    execFileSync('git', ['add', '-A'], { cwd: repo, stdio: 'ignore' });
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'ring files'], { cwd: repo, stdio: 'ignore' });
    url = await startDaemon(w, repo);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    problems = watchProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('/ui serves exactly its files, with their content types and no caching', async () => {
    const expected: Record<string, string> = {
      '/ui': 'text/html',
      '/ui/': 'text/html',
      '/ui/app.js': 'text/javascript',
      '/ui/style.css': 'text/css',
      '/ui/vendor/sigma.min.js': 'text/javascript',
      '/ui/vendor/graphology.umd.min.js': 'text/javascript',
    };
    for (const [route, type] of Object.entries(expected)) {
      const res = await fetch(`${url}${route}`);
      expect([route, res.status]).toEqual([route, 200]);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect((await res.text()).length).toBeGreaterThan(100);
    }
    for (const route of ['/ui/vendor/', '/ui/index.html', '/ui/vendor/sigma.cjs.js', '/ui/..%2fpackage.json']) {
      expect([route, (await fetch(`${url}${route}`)).status]).toEqual([route, 404]);
    }
  });

  test('the graph view draws the nodes /v1/graph answers, and a kind filter refetches', async () => {
    const res = await page.goto(`${url}/ui/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const first = await drawn(page);
    // A small view by default: the server's cap, with communities.
    expect(first.url).toMatch(/^\/v1\/graph\?/);
    expect(first.url).toContain('max_nodes=1500');
    expect(first.url).toContain('communities=1');
    const all = await graphOf(first.url);
    expect(all.nodes.length).toBeGreaterThan(20);
    expect(first.nodes).toBe(all.nodes.length);
    expect(await page.locator('#graph canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('#status').innerText()).toContain(`${all.nodes.length} nodes`);

    await page.locator('#kinds input[value="function"]').check();
    const functions = await drawn(page, 'kind=function');
    const only = await graphOf(functions.url);
    expect(only.nodes.every((n: any) => n.kind === 'function')).toBe(true);
    expect(functions.nodes).toBe(only.nodes.length);
    expect(functions.nodes).toBeGreaterThan(3);
    expect(functions.nodes).toBeLessThan(first.nodes);

    // A path prefix narrows it again; unchecking the kind widens it.
    await page.locator('#path').fill('src/ring');
    await page.locator('#filters button[type=submit]').click();
    const ring = await drawn(page, 'path=src%2Fring');
    expect(ring.nodes).toBe((await graphOf(ring.url)).nodes.length);
    expect(ring.nodes).toBe(3); // ringA, ringB, unusedHelper
    await page.locator('#path').fill('');
    await page.locator('#kinds input[value="function"]').uncheck();
    const back = await drawn(page, 'graph?communities');
    expect(back.nodes).toBe(first.nodes);
  });

  test('search lists formatLabel; its panel shows the source, callers and usages; a caller navigates', async () => {
    await page.locator('#search').fill('formatLabel');
    const hit = page.locator('#search-results button.row[data-id="uipage/src/format.ts::formatLabel"]');
    await hit.waitFor({ timeout: 30_000 });
    await hit.click();
    await page.locator('#panel').waitFor({ state: 'visible' });
    await page.locator('#panel-source', { hasText: 'export function formatLabel' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#panel-title').innerText()).toBe('formatLabel');
    expect(await page.locator('#panel-source').innerText()).toContain("return '[' + text + ']';");
    const caller = page.locator('#panel-callers button.row[data-id="uipage/src/cli.ts::cli"]');
    await caller.waitFor({ timeout: 30_000 });
    await page.locator('#panel-callers button.row[data-id="uipage/src/render.ts::Renderer.draw"]').waitFor({ timeout: 30_000 });
    await page.locator('#panel-usages button.row[data-id="uipage/src/cli.ts::cli"]').waitFor({ timeout: 30_000 });

    await caller.click();
    await page.locator('#panel-source', { hasText: 'export function cli' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#panel').getAttribute('data-id')).toBe('uipage/src/cli.ts::cli');
    expect(await page.locator('#panel-title').innerText()).toBe('cli');
    // cli calls formatLabel: a callee back.
    await page.locator('#panel-callees button.row[data-id="uipage/src/format.ts::formatLabel"]').waitFor({ timeout: 30_000 });
  });

  test('each analysis tab lists the fixture’s rows, and a row opens its symbol', async () => {
    const expectations: Record<string, string> = {
      communities: 'uipage/src/format.ts::formatLabel',
      processes: 'uipage/src/render.ts::main',
      dead_code: 'uipage/src/ring_a.ts::unusedHelper',
      hotspots: 'uipage/src/render.ts::Renderer.draw',
      cycles: 'uipage/src/ring_a.ts::ringA',
    };
    for (const [tab, id] of Object.entries(expectations)) {
      await page.locator(`#tabs button[data-tab="${tab}"]`).click();
      const row = page.locator(`#pane-${tab} button.row[data-id="${id}"]`);
      await row.first().waitFor({ timeout: 60_000 });
      expect(await page.locator(`#pane-${tab} .error`).count()).toBe(0);
    }
    await page.locator('#tabs button[data-tab="dead_code"]').click();
    await page.locator('#pane-dead_code button.row[data-id="uipage/src/ring_a.ts::unusedHelper"]').click();
    await page.locator('#panel-source', { hasText: 'function unusedHelper(): number' }).waitFor({ timeout: 30_000 });
    await page.locator('#tabs button[data-tab="cycles"]').click();
    expect(await page.locator('#pane-cycles .cycle-head').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^imports cycle of 2/), expect.stringMatching(/^calls cycle of 2/)]));
  });

  test('nothing failed in the page: no console error, no failed or refused request', () => {
    expect(problems).toEqual([]);
  });

  test('the Origin guard admits the page’s own loopback origin and still refuses a rebinding one', async () => {
    const { port } = new URL(url);
    const body = JSON.stringify({ arguments: { query: 'formatLabel', limit: 5 } });
    const own = await rawRequest(url, '/v1/tools/search_symbols', 'POST', { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` }, body);
    expect(own.status).toBe(200);
    expect(JSON.parse(JSON.parse(own.body).content[0].text).results[0].name).toBe('formatLabel');
    expect((await rawRequest(url, '/v1/tools/search_symbols', 'POST', { Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, body)).status).toBe(200);
    // DNS rebinding: the page's own origin, but not a loopback Host.
    const evil = await rawRequest(url, '/v1/tools/search_symbols', 'POST', { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }, body);
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error).toBe('origin_not_allowed');
    // A loopback Host with another origin, or another port, stays refused.
    for (const origin of [`http://evil.example:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1:${port}`]) {
      const r = await rawRequest(url, '/v1/tools/search_symbols', 'POST', { Host: `127.0.0.1:${port}`, Origin: origin }, body);
      expect([origin, r.status]).toEqual([origin, 403]);
    }
    // Simple GETs from a rebinding page carry no Origin: the loopback Host rule refuses them.
    expect((await rawRequest(url, '/v1/repos', 'GET', { Host: `evil.example:${port}` })).status).toBe(403);
  });
});

describe('the /ui page of a daemon with a token', () => {
  const w = daemonWorld();
  const repo = gitFixture('query/app-ts', 'uitoken');
  const token = 'ui-test-token-1234';
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    url = await startDaemon(w, repo, ['--http-auth-token', token]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    runCli(['daemon', 'stop'], { env: w.env });
  });

  test('the page needs no token, its data calls send the one in #token=…', async () => {
    expect((await fetch(`${url}/ui/`)).status).toBe(200);
    expect((await fetch(`${url}/v1/graph`)).status).toBe(401);
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${url}/ui/#token=${token}`, { waitUntil: 'load' });
    const view = await drawn(page);
    const res = await fetch(`${url}${view.url}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(view.nodes).toBe(((await res.json()) as any).nodes.length);
    await page.locator('#search').fill('formatLabel');
    await page.locator('#search-results button.row[data-id="uitoken/src/format.ts::formatLabel"]').click();
    await page.locator('#panel-source', { hasText: 'export function formatLabel' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);

    // Without the fragment the page says how to give the token.
    const bare = await browser.newPage();
    await bare.goto(`${url}/ui/`, { waitUntil: 'load' });
    await bare.locator('#status.error').waitFor({ timeout: 30_000 });
    expect(await bare.locator('#status').innerText()).toMatch(/#token=/);
  });
});
