/**
 * The published packages, as a user gets them: `npm pack` of gortex and of this machine's platform
 * package (scripts/pack.ts), installed into an empty project by npm with neither cargo nor a C
 * compiler on PATH; then `npx gortex index` and `npx gortex mcp` (through the daemon it starts)
 * answer, and a missing platform package is reported with the command that installs it.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packAll, platformPackages, type PackResult } from '../scripts/pack';
import { platformPackageName } from '../ts/engine/native';
import { gitFixture } from './helpers/daemon';
import { PACKAGE_ROOT } from './helpers/cli';

/** Finds `name` on a PATH-style list of directories, as a shell would. */
function onPath(name: string, pathList: string): string | undefined {
  for (const dir of pathList.split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A bin directory with only what a user without a Rust toolchain has: node, npm, npx, sh, git. */
function toolchainFreeBin(parent: string): string {
  const bin = path.join(parent, 'bin');
  fs.mkdirSync(bin);
  const npmCli = fs.realpathSync(path.join(path.dirname(process.execPath), 'npm'));
  const links: Record<string, string> = {
    node: process.execPath,
    npm: npmCli,
    npx: path.join(path.dirname(npmCli), 'npx-cli.js'),
    sh: '/bin/sh',
    git: fs.realpathSync(onPath('git', process.env.PATH ?? '') ?? '/usr/bin/git'),
  };
  for (const [name, target] of Object.entries(links)) fs.symlinkSync(target, path.join(bin, name));
  return bin;
}

describe('the published packages', () => {
  let packed: PackResult;
  let work: string;
  let app: string;
  let env: Record<string, string>;
  let repo: string;
  const npx = (args: string[]): SpawnSyncReturns<string> => spawnSync(path.join(work, 'bin', 'npx'), args, { cwd: app, env, encoding: 'utf8', timeout: 120_000 });

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-package-'));
    packed = packAll({ outDir: path.join(work, 'tarballs') });
    const bin = toolchainFreeBin(work);
    app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{ "name": "gortex-user", "version": "1.0.0", "private": true }\n');
    const socket = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gx-')), 'd.sock');
    // The machine's environment stays (npm's registry, proxy and CA settings: NODE_EXTRA_CA_CERTS,
    // HTTPS_PROXY, npm_config_*), but PATH holds only the toolchain-free bin, and gortex gets its own home.
    env = { ...(process.env as Record<string, string>), PATH: bin, GORTEX_HOME: path.join(work, 'home'), GORTEX_DAEMON_SOCKET: socket, GORTEX_THREADS: '2' };
    for (const name of ['NODE_ENV', 'XDG_RUNTIME_DIR', 'GORTEX_AUTOSTART', 'GORTEX_TOOLS', 'GORTEX_TOOLS_MODE', 'GORTEX_NATIVE_PATH']) delete env[name];
    const platform = packed.platforms.find((p) => p.name === platformPackageName());
    if (!platform) throw new Error(`no ${platformPackageName()} package was packed: run \`npm run build:native\` first`);
    execFileSync(path.join(bin, 'npm'), ['install', '--no-audit', '--no-fund', '--loglevel=error', packed.main.file, platform.file], { cwd: app, env, stdio: 'pipe', timeout: 300_000 });
    repo = gitFixture('query/app-ts', 'app-ts');
  }, 360_000);

  afterAll(() => {
    if (env) npx(['gortex', 'daemon', 'stop']);
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the main package holds the JavaScript and assets, no binary, no sources, no scripts', () => {
    const entries = packed.main.entries;
    for (const needed of ['bin/run.js', 'native/index.js', 'dist/ts/cli/commands/mcp.js', 'dist/ts/engine/engine.d.ts', 'ui/app.js', 'grammars/go/definitions.scm', 'eval/parity-baseline.json', 'LICENSE', 'README.md', 'package.json']) {
      expect(entries).toContain(needed);
    }
    const unwanted = entries.filter((e) => e.endsWith('.node') || e.endsWith('.map') || /^(test|crates|ts|benches|scripts|npm)\//.test(e) || e.endsWith('.rs'));
    expect(unwanted).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'gortex', 'package.json'), 'utf8'));
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual(platformPackages(PACKAGE_ROOT).map((p) => p.name));
    expect(new Set(Object.values(manifest.optionalDependencies))).toEqual(new Set([manifest.version]));
  });

  test('the platform package holds only its binary and declares os, cpu and libc', () => {
    const platform = packed.platforms.find((p) => p.name === platformPackageName())!;
    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', platform.name, 'package.json'), 'utf8'));
    expect(platform.entries).toEqual([manifest.main, 'README.md', 'package.json'].sort());
    expect(manifest.os).toEqual([process.platform]);
    expect(manifest.cpu).toEqual([process.arch]);
    if (process.platform === 'linux') expect(manifest.libc).toEqual(['glibc']);
    // npm satisfied gortex's optional dependency with it: no second copy under gortex.
    expect(fs.existsSync(path.join(app, 'node_modules', 'gortex', 'node_modules'))).toBe(false);
  });

  test('the install ran with no Rust toolchain or C compiler on PATH', () => {
    for (const tool of ['cargo', 'rustc', 'cc', 'gcc', 'clang']) expect(onPath(tool, env.PATH!)).toBeUndefined();
    expect(fs.existsSync(path.join(app, 'node_modules', 'gortex', 'native', 'Cargo.toml'))).toBe(false);
  });

  test('npx gortex index indexes a repository', () => {
    const run = npx(['gortex', 'index', repo]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Edges\s+\d+/);
    expect(run.stdout).toContain('Failures     none');
  });

  test('npx gortex mcp answers an MCP client: initialize, tools/list, a search', async () => {
    const transport = new StdioClientTransport({ command: path.join(work, 'bin', 'npx'), args: ['gortex', 'mcp', '--repo', repo], cwd: app, env, stderr: 'pipe' });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('gortex');
      const { tools } = await client.listTools();
      // A client that names itself gets the compact surface; `search` defaults to symbols.
      expect(tools.map((t) => t.name)).toContain('search');
      const result = (await client.callTool({ name: 'search', arguments: { query: 'formatLabel', format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).not.toBe(true);
      expect(result.content[0]!.text).toContain('formatLabel');
    } finally {
      await client.close();
    }
  });

  test('a developer-only verb says it needs a source checkout', () => {
    const run = npx(['gortex', 'eval', 'recall']);
    expect(run.status).toBe(2);
    expect(run.stderr.replace(/\s*›\s*/g, ' ')).toContain('runs on the retrieval fixture of a source checkout');
  });

  test('without the platform package, the error names the package and the command that installs it', () => {
    const installed = path.join(app, 'node_modules', platformPackageName());
    const aside = `${installed}.aside`;
    fs.renameSync(installed, aside);
    try {
      const run = npx(['gortex', 'index', repo]);
      expect(run.status).not.toBe(0);
      const message = run.stderr.replace(/\s*›\s*/g, ' ');
      expect(message).toContain(`npm install ${platformPackageName()}@${packed.main.version}`);
      expect(message).not.toContain('npm run build:native');
    } finally {
      fs.renameSync(aside, installed);
    }
  });
});
