// `npm run check:web-ui`: the official Gortex web UI (`gortexhq/web`, a Next.js app) against this
// daemon, in a real browser. Builds the UI unmodified from a local bare git mirror (the commit at its
// HEAD), starts a private daemon (its own GORTEX_HOME and socket, never the user's) serving HTTP on
// 127.0.0.1:PORT with the UI's origin allowed, tracks the repositories, serves the UI with
// `next start` and walks every page in headless Chromium (playwright-core driving the system
// `chromium`): `/`, `/graph`, `/search` (a query that exists in the graph, then a click on the first
// result so the symbol inspector loads), `/communities`, `/processes`, `/contracts`, `/services`,
// `/guards`, `/caveats`, `/investigations`, then the ⌘K palette (a query, a click on its first
// result). A check script, like `gortex eval parity`: not part of CI.
//
//   npm run check:web-ui -- [--mirror PATH] [--repo PATH]... [--port N] [--ui-port N] [--query Q]
//                           [--chromium PATH] [--rebuild] [--keep] [--json]
//   (or: node dist/benches/web-ui.js …)
//
//   --mirror   the UI's git mirror: a bare git directory, or a folder holding one
//              (default /work/.mirror/gortexhq+web, whose bare directory is `repo`)
//   --repo     a repository to track, as `gortex track PATH` (repeatable); default: this checkout
//              plus private git copies of test/fixtures/crossrepo/{lib,app,gosvc,gocli}
//   --port     the daemon's HTTP port (default 4797); --ui-port the UI's (default 4798)
//   --query    the symbol name typed into /search and the palette (default: `sharedHelper` when the
//              graph has it, else the first function name in GET /v1/graph)
//   --chromium the browser (default /usr/bin/chromium: Debian's `apt-get install -y chromium`)
//   --rebuild  rebuild the UI even when a build for (commit, daemon URL) is cached
//   --keep     leave the daemon and the UI running for manual inspection (prints how to stop them)
//   --json     print the report as JSON instead of tables
//
// A page fails on any 4xx/5xx answer (or failed request, CORS preflights included) from the
// daemon's origin, any console message of type error, any uncaught page error, an error state in
// the page's text ("Failed to load …", "Server API error …", the status bar's "offline", Next's
// "This page couldn't load" screen after a client-side exception), or an interaction that could not
// be done (no result to click).
// Exits 1 when a page fails, 2 when the run itself could not be set up.
//
// The build, cached under ~/.cache/gortex/web-ui/ (keyed by commit and daemon URL, because
// NEXT_PUBLIC_GORTEX_URL is inlined at build time):
//   deps/<lock hash>/          the UI's package.json + package-lock.json and `npm ci --ignore-scripts`
//   fonts/                     @fontsource packages and google-fonts-mock.js: `next/font/google`
//                              downloads its fonts at build time, which cannot work offline, so
//                              NEXT_FONT_GOOGLE_MOCKED_RESPONSES (Next's own test hook) points at a
//                              module answering the font CSS requests with local woff2 files, and
//                              the build uses webpack (`next build --webpack`; Turbopack still fetches)
//   builds/<commit>-<url hash>/ a clone at the commit, node_modules a symlink to deps/, `.next/`
//   shots/<page>.png           a screenshot per page of the last run
// The UI's tracked files are never changed (checked with `git status` after the build); the build
// adds only what its .gitignore lists (.next/, next-env.d.ts, the node_modules link).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, CDPSession, ConsoleMessage, Page, Request, Response } from 'playwright-core';
import { daemonPaths } from '../ts/daemon/paths';
import { Args, ROOT } from './common';

const CACHE = path.join(os.homedir(), '.cache', 'gortex', 'web-ui');
const SHOTS = path.join(CACHE, 'shots');
/** The @fontsource packages the font mock reads (others are installed at `latest` when a UI asks for them). */
const FONT_PACKAGES: Record<string, string> = { 'ibm-plex-sans': '5.3.0', 'jetbrains-mono': '5.3.0' };
/** Without the background-networking flags Chromium's connections are refused on a closed network. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The pages of the UI, with the name of their screenshot. */
const PAGES: { path: string; shot: string }[] = [
  { path: '/', shot: 'dashboard' },
  { path: '/graph', shot: 'graph' },
  { path: '/search', shot: 'search' },
  { path: '/communities', shot: 'communities' },
  { path: '/processes', shot: 'processes' },
  { path: '/contracts', shot: 'contracts' },
  { path: '/services', shot: 'services' },
  { path: '/guards', shot: 'guards' },
  { path: '/caveats', shot: 'caveats' },
  { path: '/investigations', shot: 'investigations' },
];
/** Text that means a page is showing an error state. */
const ERROR_TEXT = [
  /Failed to [a-z]+/i, // "Failed to load …", "Failed to search: …"
  /Server API error \d+/, // a hook's error shown as is (the dashboard's header)
  /^error: /i, // the inspector's usages / dependencies
  /This page couldn.t load/i, // Next 16's screen after an uncaught client-side exception
  /Application error: a client-side exception/i, // the same, older Next
  /This page could not be found/i, // Next's 404
];

interface Options {
  mirror: string;
  repos: string[];
  port: number;
  uiPort: number;
  query?: string;
  chromium: string;
  rebuild: boolean;
  keep: boolean;
  json: boolean;
}

/** One request to the daemon's origin, as the browser saw it. */
interface DaemonRequest {
  method: string;
  /** Path and query string. */
  path: string;
  /** The HTTP status, or null when the request failed without an answer. */
  status: number | null;
  /** A CORS preflight (`OPTIONS`), seen through the DevTools protocol. */
  preflight: boolean;
  /** The network error of a failed request. */
  failure?: string;
  /** The start of the body of a 4xx/5xx answer. */
  body?: string;
}

interface PageReport {
  page: string;
  url: string;
  requests: DaemonRequest[];
  consoleErrors: string[];
  pageErrors: string[];
  errorText: string[];
  /** What the walk did on the page (search query, clicked result, …). */
  notes: string[];
  /** Interactions that could not be done. */
  walkErrors: string[];
  screenshot: string;
  ok: boolean;
}

interface BuildInfo {
  commit: string;
  subject: string;
  url: string;
  dir: string;
  cached: boolean;
  depsMs: number;
  buildMs: number;
}

interface Report {
  date: string;
  commit: string;
  subject: string;
  daemonUrl: string;
  uiUrl: string;
  build: BuildInfo;
  chromium: string;
  repos: { name: string; root: string; nodes: number; edges: number; phase: string }[];
  query: string;
  pages: PageReport[];
  ok: boolean;
}

const log = (msg: string): void => void process.stderr.write(`check:web-ui: ${msg}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure of the run itself (not of a page): exit code 2. */
class SetupError extends Error {}

function parse(argv: string[]): Options {
  const o: Options = {
    mirror: '/work/.mirror/gortexhq+web',
    repos: [],
    port: 4797,
    uiPort: 0,
    chromium: '/usr/bin/chromium',
    rebuild: false,
    keep: false,
    json: false,
  };
  const args = new Args(argv);
  for (const a of args) {
    if (a === '--mirror') o.mirror = path.resolve(args.value(a));
    else if (a === '--repo') o.repos.push(path.resolve(args.value(a)));
    else if (a === '--port') o.port = args.int(a);
    else if (a === '--ui-port') o.uiPort = args.int(a);
    else if (a === '--query') o.query = args.value(a);
    else if (a === '--chromium') o.chromium = path.resolve(args.value(a));
    else if (a === '--rebuild') o.rebuild = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--json') o.json = true;
    else throw new SetupError(`unknown argument ${a}`);
  }
  if (o.uiPort === 0) o.uiPort = o.port + 1;
  if (o.port === 0 || o.port === o.uiPort) throw new SetupError('--port and --ui-port must be two different non-zero ports');
  return o;
}

// ---------------------------------------------------------------------------------------------
// Processes

/** Runs a command; throws a SetupError with the end of its output when it fails. */
function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; logFile?: string }): string {
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (opts.logFile) fs.appendFileSync(opts.logFile, `$ ${cmd} ${args.join(' ')}\n${r.stdout ?? ''}${r.stderr ?? ''}\n`);
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
    throw new SetupError(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}) in ${opts.cwd}:\n${out.slice(-4000)}`);
  }
  return r.stdout;
}

const git = (gitDir: string, ...args: string[]): string => run('git', [`--git-dir=${gitDir}`, ...args], { cwd: CACHE }).trim();

/** Resolves whether `port` on 127.0.0.1 can be listened on. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** GETs `url`; resolves with the status and body, or null when nothing answers. */
async function get(url: string): Promise<{ status: number; body: string } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The UI build

/** The bare git directory of the mirror: `dir` itself, or a folder inside it that is one. */
function findGitDir(dir: string): string {
  const isGitDir = (d: string): boolean => fs.existsSync(path.join(d, 'HEAD')) && fs.existsSync(path.join(d, 'objects'));
  if (isGitDir(dir)) return dir;
  if (isGitDir(path.join(dir, '.git'))) return path.join(dir, '.git');
  if (fs.existsSync(dir)) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && isGitDir(path.join(dir, entry.name))) return path.join(dir, entry.name);
    }
  }
  throw new SetupError(`no git directory at or inside ${dir} (pass --mirror)`);
}

/** Installs the UI's dependencies once per package-lock.json: the `node_modules` folder. */
function prepareDeps(gitDir: string, commit: string): { nodeModules: string; ms: number } {
  const lock = git(gitDir, 'show', `${commit}:package-lock.json`);
  const dir = path.join(CACHE, 'deps', createHash('sha256').update(lock).digest('hex').slice(0, 16));
  const stamp = path.join(dir, '.gortex-deps.json');
  if (fs.existsSync(stamp)) return { nodeModules: path.join(dir, 'node_modules'), ms: 0 };
  const t = Date.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), git(gitDir, 'show', `${commit}:package.json`) + '\n');
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lock + '\n');
  log(`installing the UI's dependencies (npm ci) in ${dir}`);
  // No install scripts: the build needs none (sharp's and msw's are for features the walk does not use).
  run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, logFile: path.join(dir, 'npm-ci.log') });
  fs.writeFileSync(stamp, JSON.stringify({ commit, installed_at: new Date().toISOString() }) + '\n');
  return { nodeModules: path.join(dir, 'node_modules'), ms: Date.now() - t };
}

/** The Google font families the UI imports from `next/font/google` (`IBM_Plex_Sans` → `IBM Plex Sans`). */
function googleFonts(gitDir: string, commit: string): string[] {
  const files = git(gitDir, 'ls-tree', '-r', '--name-only', commit).split('\n').filter((f) => /^src\/.*\.(tsx?|jsx?)$/.test(f));
  const families = new Set<string>();
  for (const file of files) {
    const text = git(gitDir, 'show', `${commit}:${file}`);
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]next\/font\/google['"]/g)) {
      for (const name of m[1]!.split(',')) {
        const id = name.trim().split(/\s+as\s+/)[0]!.trim();
        if (id && id !== 'type') families.add(id.replace(/_/g, ' '));
      }
    }
  }
  return [...families].sort();
}

const fontSlug = (family: string): string => family.toLowerCase().replace(/\s+/g, '-');

/**
 * Installs the @fontsource packages of `families` and writes the module NEXT_FONT_GOOGLE_MOCKED_RESPONSES
 * names: a map from each Google Fonts CSS URL Next asks for to @font-face rules whose sources are
 * absolute paths of local woff2 files (which Next then reads from disk instead of downloading).
 */
function prepareFonts(families: string[]): string {
  const dir = path.join(CACHE, 'fonts');
  fs.mkdirSync(dir, { recursive: true });
  const wanted: Record<string, string> = {};
  for (const family of families) wanted[`@fontsource/${fontSlug(family)}`] = FONT_PACKAGES[fontSlug(family)] ?? 'latest';
  const missing = Object.keys(wanted).filter((p) => !fs.existsSync(path.join(dir, 'node_modules', p, 'package.json')));
  if (missing.length > 0) {
    const pkg = path.join(dir, 'package.json');
    const current = fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { dependencies?: Record<string, string> }) : {};
    const dependencies = { ...(current.dependencies ?? {}), ...wanted };
    fs.writeFileSync(pkg, JSON.stringify({ name: 'gortex-web-ui-fonts', private: true, dependencies }, null, 2) + '\n');
    log(`installing fonts: ${missing.join(' ')}`);
    run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, logFile: path.join(dir, 'npm-install.log') });
  }
  const mock = path.join(dir, 'google-fonts-mock.js');
  fs.writeFileSync(mock, FONT_MOCK_SOURCE);
  return mock;
}

/** The font mock module (CommonJS; required by Next's font loader at build time). */
const FONT_MOCK_SOURCE = `// Generated by gortex benches/web-ui.ts: answers next/font/google's CSS requests with local
// @fontsource files (NEXT_FONT_GOOGLE_MOCKED_RESPONSES), so the UI builds without Google Fonts.
'use strict';
const fs = require('fs');
const path = require('path');

function fileFor(family, weight, italic) {
  const slug = family.toLowerCase().replace(/\\s+/g, '-');
  const files = path.join(__dirname, 'node_modules', '@fontsource', slug, 'files');
  if (!fs.existsSync(files)) throw new Error('no @fontsource/' + slug + ' in ' + path.dirname(files));
  const style = italic ? 'italic' : 'normal';
  const weights = fs.readdirSync(files)
    .map((f) => new RegExp('^' + slug + '-latin-(\\\\d+)-' + style + '\\\\.woff2$').exec(f))
    .filter(Boolean)
    .map((m) => Number(m[1]));
  if (weights.length === 0) throw new Error('no latin ' + style + ' woff2 in ' + files);
  // The exact weight, else the nearest one the package has.
  const best = weights.reduce((a, b) => (Math.abs(b - weight) < Math.abs(a - weight) ? b : a));
  return path.join(files, slug + '-latin-' + best + '-' + style + '.woff2');
}

function css(url) {
  const family = new URL(url).searchParams.get('family');
  if (!family) return undefined;
  const [name, spec] = family.split(':');
  let variants = [{ wght: '400', ital: '0' }];
  if (spec && spec.includes('@')) {
    const [axes, values] = spec.split('@');
    const keys = axes.split(',');
    variants = values.split(';').map((v) => {
      const parts = v.split(',');
      const o = { wght: '400', ital: '0' };
      keys.forEach((k, i) => (o[k] = parts[i]));
      return o;
    });
  }
  return variants
    .map((v) => {
      const weight = Number(String(v.wght).split('..')[0]) || 400;
      const italic = v.ital === '1';
      return '/* latin */\\n@font-face {\\n' +
        "  font-family: '" + name + "';\\n" +
        '  font-style: ' + (italic ? 'italic' : 'normal') + ';\\n' +
        '  font-weight: ' + v.wght.replace('..', ' ') + ';\\n' +
        '  font-display: swap;\\n' +
        '  src: url(' + fileFor(name, weight, italic) + ") format('woff2');\\n" +
        '}\\n';
    })
    .join('');
}

module.exports = new Proxy({}, { get: (_target, url) => (typeof url === 'string' && url.startsWith('https://') ? css(url) : undefined) });
`;

/** Builds the UI at `commit` for the daemon at `url`, or reuses the cached build. */
function buildUi(gitDir: string, commit: string, url: string, rebuild: boolean): BuildInfo {
  const subject = git(gitDir, 'log', '-1', '--format=%s', commit);
  const key = `${commit.slice(0, 12)}-${createHash('sha256').update(url).digest('hex').slice(0, 10)}`;
  const dir = path.join(CACHE, 'builds', key);
  const stamp = path.join(dir, '.next', 'gortex-build.json');
  if (!rebuild && fs.existsSync(stamp)) {
    const s = JSON.parse(fs.readFileSync(stamp, 'utf8')) as { commit: string; url: string; build_ms: number };
    if (s.commit === commit && s.url === url) {
      log(`UI build cached: ${dir}`);
      return { commit, subject, url, dir, cached: true, depsMs: 0, buildMs: s.build_ms };
    }
  }
  const deps = prepareDeps(gitDir, commit);
  const mock = prepareFonts(googleFonts(gitDir, commit));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  run('git', ['clone', '--quiet', '--no-checkout', gitDir, dir], { cwd: CACHE });
  run('git', ['checkout', '--quiet', '--detach', commit], { cwd: dir });
  fs.symlinkSync(deps.nodeModules, path.join(dir, 'node_modules'), 'dir');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    NEXT_FONT_GOOGLE_MOCKED_RESPONSES: mock,
    NEXT_PUBLIC_GORTEX_URL: url,
  };
  for (const k of ['NODE_ENV', 'NEXT_PUBLIC_GORTEX_WEB_URL', 'NEXT_PUBLIC_GORTEX_TOKEN']) delete env[k];
  const logFile = `${dir}.build.log`;
  fs.writeFileSync(logFile, '');
  log(`building the UI (${commit.slice(0, 12)}, NEXT_PUBLIC_GORTEX_URL=${url}) in ${dir}; log: ${logFile}`);
  const t = Date.now();
  run(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build', '--webpack'], { cwd: dir, env, logFile });
  const buildMs = Date.now() - t;
  // The UI's own files are as the commit has them: the build only added ignored files.
  const changed = run('git', ['status', '--porcelain'], { cwd: dir }).trim();
  if (changed) throw new SetupError(`the build changed the UI's tracked files:\n${changed}`);
  fs.writeFileSync(stamp, JSON.stringify({ commit, url, build_ms: buildMs, deps_ms: deps.ms, built_at: new Date().toISOString() }) + '\n');
  log(`UI built in ${(buildMs / 1000).toFixed(1)} s (dependencies: ${(deps.ms / 1000).toFixed(1)} s)`);
  return { commit, subject, url, dir, cached: false, depsMs: deps.ms, buildMs };
}

// ---------------------------------------------------------------------------------------------
// The daemon and the UI server

/** A private daemon world: its own home and socket, and the repositories it tracks. */
interface World {
  home: string;
  socketDir: string;
  /** Private copies of fixtures (removed at the end). */
  scratch: string;
  env: NodeJS.ProcessEnv;
}

function makeWorld(): World {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-web-ui-'));
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gx-webui-'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-web-ui-repos-'));
  const env: NodeJS.ProcessEnv = { ...process.env, GORTEX_HOME: home, GORTEX_DAEMON_SOCKET: path.join(socketDir, 'd.sock'), GORTEX_RECONCILE_INTERVAL: 'off' };
  // The CLI must start and reach only this world's daemon.
  for (const k of ['NODE_ENV', 'XDG_RUNTIME_DIR', 'GORTEX_AUTOSTART', 'GORTEX_TOOLS', 'GORTEX_TOOLS_MODE', 'GORTEX_DAEMON_HTTP_ADDR', 'GORTEX_DAEMON_HTTP_TOKEN']) delete env[k];
  return { home, socketDir, scratch, env };
}

/** Runs the built CLI in the world (cwd: its home, no git work tree, so nothing is tracked by accident). */
function cli(w: World, args: string[]): string {
  return run(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], { cwd: w.home, env: w.env, logFile: path.join(w.home, 'cli.log') });
}

/** The default repositories: this checkout and git copies of the cross-repo fixture's four repositories. */
function defaultRepos(w: World): string[] {
  const repos = [ROOT];
  for (const name of ['lib', 'app', 'gosvc', 'gocli']) {
    const dir = path.join(w.scratch, name);
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'crossrepo', name), dir, { recursive: true });
    const g = (...args: string[]): string => run('git', ['-c', 'user.email=web-ui@example.com', '-c', 'user.name=web-ui', ...args], { cwd: dir });
    g('init', '-q', '-b', 'main');
    g('add', '-A');
    g('commit', '-q', '-m', 'fixture');
    repos.push(dir);
  }
  return repos;
}

interface Health {
  status?: string;
  repos?: { name: string; root: string; phase: string; nodes: number; edges: number }[];
}

/** Polls GET /v1/health until the daemon answers ok and every repository is ready. */
async function waitReady(daemonUrl: string, timeoutMs: number): Promise<Health> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const r = await get(`${daemonUrl}/v1/health`);
    if (r) {
      last = `${r.status} ${r.body.slice(0, 300)}`;
      if (r.status === 200) {
        const h = JSON.parse(r.body) as Health;
        if (h.status === 'ok' && (h.repos ?? []).every((repo) => repo.phase === 'ready')) return h;
      }
    }
    await sleep(500);
  }
  throw new SetupError(`the daemon was not ready in ${timeoutMs / 1000} s: ${last || 'no answer'} on ${daemonUrl}/v1/health`);
}

/** A function or method name from the graph to search for (`sharedHelper` when the fixture is tracked). */
async function pickQuery(daemonUrl: string): Promise<string> {
  const r = await get(`${daemonUrl}/v1/graph`);
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ((o.kind === 'function' || o.kind === 'method') && typeof o.name === 'string') names.add(o.name);
      else for (const x of Object.values(o)) if (x && typeof x === 'object') visit(x);
    }
  };
  if (r?.status === 200) visit(JSON.parse(r.body) as unknown);
  if (names.has('sharedHelper')) return 'sharedHelper';
  const pick = [...names].filter((n) => /^[A-Za-z]\w{5,}$/.test(n)).sort()[0];
  if (!pick) throw new SetupError(`no function in the daemon's graph to search for (GET /v1/graph: ${r?.status ?? 'no answer'}); pass --query`);
  return pick;
}

/** Starts `next start` on 127.0.0.1:port in its own process group; resolves once it serves `/`. */
async function serveUi(dir: string, port: number, keep: boolean): Promise<ChildProcess> {
  const logFile = path.join(CACHE, 'next-start.log');
  const out = fs.openSync(logFile, 'w');
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.NODE_ENV;
  const child = spawn(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    env,
    stdio: ['ignore', out, out],
    detached: true,
  });
  fs.closeSync(out);
  if (keep) child.unref();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new SetupError(`next start exited (${child.exitCode}): ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    const r = await get(`http://127.0.0.1:${port}/`);
    if (r?.status === 200) return child;
    await sleep(300);
  }
  throw new SetupError(`next start did not serve http://127.0.0.1:${port}/ in 60 s; log: ${logFile}`);
}

// ---------------------------------------------------------------------------------------------
// The walk

/** What the listeners collect for the page being walked. */
class Recorder {
  private current: PageReport | undefined;
  private readonly inflight = new Set<string>();
  private readonly pendingBodies: Promise<void>[] = [];
  lastActivity = Date.now();

  constructor(private readonly daemonOrigin: string) {}

  attach(page: Page, cdp: CDPSession): void {
    const ours = (url: string): boolean => url.startsWith(`${this.daemonOrigin}/`);
    const rel = (url: string): string => url.slice(this.daemonOrigin.length);
    page.on('request', (req: Request) => {
      if (!ours(req.url())) return;
      this.inflight.add(`${req.method()} ${req.url()} ${this.idOf(req)}`);
      this.lastActivity = Date.now();
    });
    page.on('response', (res: Response) => {
      const req = res.request();
      if (!ours(req.url())) return;
      this.inflight.delete(`${req.method()} ${req.url()} ${this.idOf(req)}`);
      this.lastActivity = Date.now();
      const entry: DaemonRequest = { method: req.method(), path: rel(req.url()), status: res.status(), preflight: false };
      this.current?.requests.push(entry);
      if (res.status() >= 400) {
        this.pendingBodies.push(
          res.text().then(
            (t) => void (entry.body = t.slice(0, 240)),
            () => undefined,
          ),
        );
      }
    });
    page.on('requestfailed', (req: Request) => {
      if (!ours(req.url())) return;
      this.inflight.delete(`${req.method()} ${req.url()} ${this.idOf(req)}`);
      this.lastActivity = Date.now();
      this.current?.requests.push({ method: req.method(), path: rel(req.url()), status: null, preflight: false, failure: req.failure()?.errorText ?? 'failed' });
    });
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') this.current?.consoleErrors.push(m.text().slice(0, 500));
    });
    page.on('pageerror', (e: Error) => {
      // The message and where it was thrown (the first frame: a chunk of the minified bundle).
      const at = e.stack?.split('\n').find((l) => l.trim().startsWith('at '))?.trim();
      this.current?.pageErrors.push(`${e.message.slice(0, 400)}${at ? ` (${at.slice(0, 200)})` : ''}`);
    });
    // CORS preflights never reach Playwright's request events; the DevTools protocol sees them.
    const preflights = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (ev) => {
      if (ev.type === 'Preflight' && ours(ev.request.url)) preflights.set(ev.requestId, ev.request.url);
    });
    cdp.on('Network.responseReceived', (ev) => {
      if (ev.type !== 'Preflight' || !ours(ev.response.url)) return;
      preflights.delete(ev.requestId);
      this.current?.requests.push({ method: 'OPTIONS', path: rel(ev.response.url), status: ev.response.status, preflight: true });
    });
    cdp.on('Network.loadingFailed', (ev) => {
      const url = preflights.get(ev.requestId);
      if (url === undefined) return;
      preflights.delete(ev.requestId);
      this.current?.requests.push({ method: 'OPTIONS', path: rel(url), status: null, preflight: true, failure: ev.errorText });
    });
  }

  private readonly ids = new WeakMap<Request, number>();
  private nextId = 0;
  private idOf(req: Request): number {
    let id = this.ids.get(req);
    if (id === undefined) this.ids.set(req, (id = this.nextId++));
    return id;
  }

  begin(page: string, url: string, shot: string): PageReport {
    this.current = { page, url, requests: [], consoleErrors: [], pageErrors: [], errorText: [], notes: [], walkErrors: [], screenshot: path.join(SHOTS, `${shot}.png`), ok: false };
    this.lastActivity = Date.now();
    return this.current;
  }

  /** Waits until no daemon request is in flight and none started for `quietMs` (at most `maxMs`). */
  async settle(page: Page, quietMs = 1000, maxMs = 20_000): Promise<void> {
    const deadline = Date.now() + maxMs;
    // The requests an action starts reach these listeners a moment later: count the action as activity.
    this.lastActivity = Date.now();
    await page.waitForLoadState('networkidle', { timeout: maxMs }).catch(() => undefined);
    while (Date.now() < deadline) {
      if (this.inflight.size === 0 && Date.now() - this.lastActivity >= quietMs) break;
      await sleep(100);
    }
    await Promise.all(this.pendingBodies.splice(0));
  }

  /** Closes the page's record: error text, screenshot, verdict. */
  async end(page: Page): Promise<PageReport> {
    const r = this.current!;
    const text = await page.innerText('body').catch(() => '');
    const lines = new Set<string>();
    for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
      if (ERROR_TEXT.some((re) => re.test(line))) lines.add(line.slice(0, 300));
    }
    // The status bar says "offline" when the dashboard snapshot could not be loaded.
    if ((await page.locator('.seg.warn', { hasText: 'offline' }).count().catch(() => 0)) > 0) lines.add('status bar: offline');
    r.errorText = [...lines];
    await page.screenshot({ path: r.screenshot }).catch((e: unknown) => r.walkErrors.push(`screenshot: ${String(e)}`));
    r.ok =
      r.requests.every((q) => q.status !== null && q.status < 400) &&
      r.consoleErrors.length === 0 &&
      r.pageErrors.length === 0 &&
      r.errorText.length === 0 &&
      r.walkErrors.length === 0;
    this.current = undefined;
    return r;
  }
}

/** Types `query` on /search and clicks the first result, so the inspector loads it. */
async function walkSearch(page: Page, rec: Recorder, r: PageReport, query: string): Promise<void> {
  const input = page.locator('input[placeholder*="handleRequest"]').or(page.locator('main input, .page-hd ~ div input')).first();
  await input.fill(query);
  r.notes.push(`typed "${query}"`);
  await rec.settle(page);
  const rows = page.locator('table.tbl tbody tr').filter({ has: page.locator('td.num') });
  const n = await rows.count();
  if (n === 0) {
    r.walkErrors.push(`no search result for "${query}" to click`);
    return;
  }
  const name = (await rows.first().locator('.mono').first().innerText()).trim();
  await rows.first().click();
  r.notes.push(`${n} result(s); clicked ${name}`);
  await rec.settle(page);
}

/** Opens the ⌘K palette (Meta+K / Control+K), types `query`, clicks the first symbol. */
async function walkPalette(page: Page, rec: Recorder, r: PageReport, query: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+k');
  const input = page.locator('.cmd-input');
  try {
    await input.waitFor({ state: 'visible', timeout: 5000 });
  } catch {
    r.walkErrors.push('the palette did not open on ControlOrMeta+K');
    return;
  }
  await input.fill(query);
  r.notes.push(`typed "${query}"`);
  await rec.settle(page);
  const rows = page.locator('.cmd-row').filter({ has: page.locator('.k.mono') });
  const n = await rows.count();
  if (n === 0) {
    r.walkErrors.push(`no palette result for "${query}" to click`);
    return;
  }
  const name = (await rows.first().locator('.k').innerText()).trim();
  await rows.first().click();
  r.notes.push(`${n} result(s); clicked ${name}`);
  await rec.settle(page);
}

async function walk(o: Options, daemonOrigin: string, uiUrl: string, query: string): Promise<{ pages: PageReport[]; chromium: string }> {
  if (!fs.existsSync(o.chromium)) throw new SetupError(`no Chromium at ${o.chromium} (apt-get install -y chromium, or pass --chromium)`);
  const { chromium } = await import('playwright-core');
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser: Browser = await chromium.launch({ executablePath: o.chromium, headless: true, args: CHROMIUM_ARGS });
  const pages: PageReport[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const rec = new Recorder(daemonOrigin);
    rec.attach(page, cdp);
    for (const p of PAGES) {
      const url = `${uiUrl}${p.path}`;
      log(`walking ${p.path}`);
      const r = rec.begin(p.path, url, p.shot);
      try {
        const res = await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
        if (!res || res.status() !== 200) r.walkErrors.push(`GET ${url}: ${res?.status() ?? 'no answer'}`);
        await rec.settle(page);
        if (p.path === '/search') await walkSearch(page, rec, r, query);
      } catch (e) {
        r.walkErrors.push(e instanceof Error ? e.message.split('\n')[0]! : String(e));
      }
      pages.push(await rec.end(page));
    }
    // The palette on the page the walk ended on, without reloading it.
    log('walking the ⌘K palette');
    const last = PAGES[PAGES.length - 1]!.path;
    const r = rec.begin(`⌘K palette (on ${last})`, `${uiUrl}${last}`, 'palette');
    try {
      await walkPalette(page, rec, r, query);
    } catch (e) {
      r.walkErrors.push(e instanceof Error ? e.message.split('\n')[0]! : String(e));
    }
    pages.push(await rec.end(page));
    return { pages, chromium: browser.version() };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The report

const isFailure = (q: DaemonRequest): boolean => q.status === null || q.status >= 400;
const statusOf = (q: DaemonRequest): string => (q.status === null ? `failed (${q.failure})` : String(q.status));

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows.map((r) => r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join('  ').trimEnd()).join('\n');
}

function render(rep: Report): string {
  const out: string[] = [];
  out.push(`gortexhq/web ${rep.commit} (${rep.subject})`);
  out.push(`UI ${rep.uiUrl} (build ${rep.build.cached ? 'cached' : 'fresh'}: ${(rep.build.buildMs / 1000).toFixed(1)} s${rep.build.depsMs ? `, npm ci ${(rep.build.depsMs / 1000).toFixed(1)} s` : ''}; ${rep.build.dir})`);
  out.push(`daemon ${rep.daemonUrl}; Chromium ${rep.chromium}; query "${rep.query}"`);
  out.push(`repositories: ${rep.repos.map((r) => `${r.name} (${r.nodes} nodes)`).join(', ')}`);
  out.push('');
  const rows = [['page', 'daemon requests', 'failures', 'console errors', 'page errors', 'error text', 'walk']];
  for (const p of rep.pages) {
    const real = p.requests.filter((q) => !q.preflight);
    const pre = p.requests.length - real.length;
    rows.push([
      p.page,
      `${real.length}${pre ? ` (+${pre} preflight)` : ''}`,
      String(p.requests.filter(isFailure).length),
      String(p.consoleErrors.length),
      String(p.pageErrors.length),
      p.errorText.length ? p.errorText.map((t) => (t.length > 60 ? `${t.slice(0, 57)}…` : t)).join(' | ') : '-',
      [...p.walkErrors.map((e) => `FAIL ${e}`), ...p.notes].join('; ') || '-',
    ]);
  }
  out.push(pad(rows));
  out.push('(a CORS preflight is counted once per route: Chromium caches it for the Access-Control-Max-Age the daemon sends)');
  out.push('');
  const failing = rep.pages.filter((p) => !p.ok);
  for (const p of failing) {
    out.push(`${p.page}:`);
    // Each failing request once, with how often the page made it (the chrome asks for /v1/dashboard several times).
    const failed = new Map<string, { n: number; body?: string }>();
    for (const q of p.requests.filter(isFailure)) {
      const key = `${q.method} ${q.path} → ${statusOf(q)}`;
      const e = failed.get(key) ?? { n: 0, body: q.body };
      e.n += 1;
      failed.set(key, e);
    }
    for (const [key, e] of failed) out.push(`  ${key}${e.n > 1 ? ` (×${e.n})` : ''}${e.body ? `  ${e.body.replace(/\s+/g, ' ').slice(0, 140)}` : ''}`);
    for (const e of p.pageErrors) out.push(`  page error: ${e}`);
    const consoleOther = p.consoleErrors.filter((c) => !/^Failed to load resource: the server responded with a status of/.test(c));
    if (p.consoleErrors.length > consoleOther.length) out.push(`  console: ${p.consoleErrors.length - consoleOther.length}× "Failed to load resource: the server responded with a status of …"`);
    for (const c of consoleOther) out.push(`  console: ${c.replace(/\s+/g, ' ').slice(0, 240)}`);
    for (const t of p.errorText) out.push(`  text: ${t.slice(0, 240)}`);
    for (const w of p.walkErrors) out.push(`  walk: ${w}`);
  }
  // Every distinct daemon request of the run, with its statuses and the pages that made it.
  const all = new Map<string, { statuses: Map<string, number>; pages: Set<string> }>();
  for (const p of rep.pages) {
    for (const q of p.requests) {
      const key = `${q.method} ${q.path}`;
      const e = all.get(key) ?? { statuses: new Map<string, number>(), pages: new Set<string>() };
      e.statuses.set(statusOf(q), (e.statuses.get(statusOf(q)) ?? 0) + 1);
      e.pages.add(p.page);
      all.set(key, e);
    }
  }
  out.push('');
  out.push('every daemon request:');
  const reqRows = [['request', 'status × count', 'pages']];
  for (const [key, e] of [...all.entries()].sort(([a], [b]) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!) || a.localeCompare(b))) {
    reqRows.push([key, [...e.statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' '), [...e.pages].join(' ')]);
  }
  out.push(pad(reqRows).split('\n').map((l) => `  ${l}`).join('\n'));
  out.push('');
  out.push(`screenshots: ${SHOTS}/`);
  out.push(rep.ok ? 'OK: every page loaded without errors' : `FAILED: ${failing.length} of ${rep.pages.length} pages`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const o = parse(process.argv.slice(2));
  fs.mkdirSync(CACHE, { recursive: true });
  const gitDir = findGitDir(o.mirror);
  const commit = git(gitDir, 'rev-parse', 'HEAD^{commit}');
  const daemonUrl = `http://127.0.0.1:${o.port}`;
  const uiUrl = `http://127.0.0.1:${o.uiPort}`;
  for (const port of [o.port, o.uiPort]) if (!(await portFree(port))) throw new SetupError(`port ${port} on 127.0.0.1 is in use (pass --port / --ui-port)`);

  const build = buildUi(gitDir, commit, daemonUrl, o.rebuild);

  const w = makeWorld();
  let daemonUp = false;
  let server: ChildProcess | undefined;
  const cleanup = (): void => {
    if (o.keep) return;
    if (server?.pid !== undefined && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM'); // its own process group (detached)
      } catch {
        /* gone */
      }
    }
    if (daemonUp) {
      const pidFile = daemonPaths(w.env).pid;
      const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').trim()) || undefined : undefined;
      spawnSync(process.execPath, [path.join(ROOT, 'bin', 'run.js'), 'daemon', 'stop'], { env: w.env, cwd: w.home, stdio: 'ignore' });
      if (pid !== undefined) {
        try {
          process.kill(pid, 0);
          process.kill(pid, 'SIGKILL'); // the daemon this run started, should the stop have failed
        } catch {
          /* gone */
        }
      }
    }
    for (const dir of [w.home, w.socketDir, w.scratch]) fs.rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (): void => {
    log('interrupted: stopping the daemon and the UI');
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const origin = uiUrl;
    log(`starting a private daemon on ${daemonUrl} (home ${w.home})`);
    cli(w, ['daemon', 'start', '--detach', '--http-addr', `127.0.0.1:${o.port}`, '--http-allowed-origin', origin, '--cors-origin', origin]);
    daemonUp = true;
    const repos = o.repos.length > 0 ? o.repos : defaultRepos(w);
    for (const repo of repos) {
      log(`tracking ${repo}`);
      cli(w, ['track', repo, '--json']);
    }
    const health = await waitReady(daemonUrl, 10 * 60_000);
    const query = o.query ?? (await pickQuery(daemonUrl));
    server = await serveUi(build.dir, o.uiPort, o.keep);
    log(`UI serving on ${uiUrl}`);
    const { pages, chromium } = await walk(o, daemonUrl, uiUrl, query);
    const rep: Report = {
      date: new Date().toISOString(),
      commit,
      subject: build.subject,
      daemonUrl,
      uiUrl,
      build,
      chromium,
      repos: (health.repos ?? []).map((r) => ({ name: r.name, root: r.root, nodes: r.nodes, edges: r.edges, phase: r.phase })),
      query,
      pages,
      ok: pages.every((p) => p.ok),
    };
    process.stdout.write(o.json ? JSON.stringify(rep, null, 2) + '\n' : render(rep));
    if (o.keep) {
      log(`kept running: UI ${uiUrl}, daemon ${daemonUrl}`);
      log(`  stop the UI:     kill -- -${server.pid}`);
      log(`  stop the daemon: GORTEX_HOME=${w.home} GORTEX_DAEMON_SOCKET=${w.env.GORTEX_DAEMON_SOCKET} node ${path.join(ROOT, 'bin', 'run.js')} daemon stop`);
      log(`  then remove:     ${w.home} ${w.socketDir} ${w.scratch}`);
    }
    return rep.ok ? 0 : 1;
  } finally {
    cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`check:web-ui: ${error instanceof SetupError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
