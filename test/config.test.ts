/**
 * Configuration files: `loadConfig` on real files in temp dirs (repository `.gortex.yaml`, global
 * `config.yaml` under XDG_CONFIG_HOME or HOME), and `gortex mcp` honouring `mcp.tools` below the env
 * and the flag, warning about unknown and unused keys, and refusing a broken file before indexing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ConfigError, globalConfigPath, loadConfig } from '../ts/config/config';
import { chosenSpec } from '../ts/calls/session';
import { PACKAGE_ROOT, runCli, unwrapCliError } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-config-'));

describe('loadConfig', () => {
  const noGlobal = { HOME: tmp() };

  test('mcp.tools as a mapping becomes a spec; other known keys are accepted with a warning', () => {
    const root = tmp();
    fs.writeFileSync(
      path.join(root, '.gortex.yaml'),
      'federation: {}\nmcp:\n  tools:\n    preset: edit\n    mode: defer\n    allow: [analyze, find_clones]\n    deny: [graph_stats]\n',
    );
    const c = loadConfig(root, noGlobal);
    expect(c.tools).toEqual({ spec: 'edit,+analyze,+find_clones,-graph_stats:defer', source: `${path.join(root, '.gortex.yaml')}:3 (mcp.tools)` });
    expect(c.files).toEqual([path.join(root, '.gortex.yaml')]);
    expect(c.warnings).toEqual([`${path.join(root, '.gortex.yaml')}:1: "federation" is not used by this version of gortex (ignored)`]);
  });

  test('unknown keys are warned about with their line and the known keys', () => {
    const root = tmp();
    fs.writeFileSync(path.join(root, '.gortex.yml'), 'mcp:\n  tools: core\n  toolz: x\nfrobnicate: true\n');
    const c = loadConfig(root, noGlobal);
    expect(c.tools?.spec).toBe('core');
    expect(c.warnings).toEqual([
      expect.stringMatching(/\.gortex\.yml:4: unknown key "frobnicate"; known keys here: exclude, include, .* \(ignored\)$/),
      expect.stringMatching(/\.gortex\.yml:3: unknown key "mcp\.toolz"; known keys here: tools \(ignored\)$/),
    ]);
  });

  test('the global config lives under an absolute XDG_CONFIG_HOME, else ~/.gortex; the repository file wins', () => {
    const xdg = tmp();
    const home = tmp();
    expect(globalConfigPath({ XDG_CONFIG_HOME: xdg, HOME: home })).toBe(path.join(xdg, 'gortex', 'config.yaml'));
    expect(globalConfigPath({ XDG_CONFIG_HOME: 'relative/dir', HOME: home })).toBe(path.join(home, '.gortex', 'config.yaml'));
    fs.mkdirSync(path.join(xdg, 'gortex'));
    fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), 'mcp:\n  tools: full\n  allow_embedded: true\nrepos: []\n');
    const bare = tmp();
    const fromGlobal = loadConfig(bare, { XDG_CONFIG_HOME: xdg, HOME: home });
    expect(fromGlobal.tools?.spec).toBe('full');
    expect(fromGlobal.warnings).toHaveLength(2);
    const repo = tmp();
    fs.writeFileSync(path.join(repo, '.gortex.yaml'), 'mcp:\n  tools: nav\n');
    expect(loadConfig(repo, { XDG_CONFIG_HOME: xdg, HOME: home }).tools?.spec).toBe('nav');
  });

  test('mcp.allow_embedded is read from the user-level config only, and must be a boolean', () => {
    const xdg = tmp();
    fs.mkdirSync(path.join(xdg, 'gortex'));
    const globalFile = path.join(xdg, 'gortex', 'config.yaml');
    const repo = tmp();
    fs.writeFileSync(path.join(repo, '.gortex.yaml'), 'mcp:\n  allow_embedded: true\n');
    const fromRepo = loadConfig(repo, { XDG_CONFIG_HOME: xdg });
    expect(fromRepo.allowEmbedded).toBe(false);
    expect(fromRepo.warnings.join('\n')).toContain('allow_embedded');
    fs.writeFileSync(globalFile, 'mcp:\n  allow_embedded: true\n');
    expect(loadConfig(undefined, { XDG_CONFIG_HOME: xdg }).allowEmbedded).toBe(true);
    fs.writeFileSync(globalFile, 'mcp:\n  allow_embedded: "yes"\n');
    expect(() => loadConfig(undefined, { XDG_CONFIG_HOME: xdg })).toThrow(`${globalFile}:2: mcp.allow_embedded must be true or false, got "yes"`);
  });

  test('daemon.http_addr of the global config is read and checked; other daemon keys are warned about', () => {
    const xdg = tmp();
    fs.mkdirSync(path.join(xdg, 'gortex'));
    const file = path.join(xdg, 'gortex', 'config.yaml');
    fs.writeFileSync(file, 'daemon:\n  http_addr: 127.0.0.1:7411\n  socket: /tmp/x.sock\n');
    const loaded = loadConfig(undefined, { XDG_CONFIG_HOME: xdg });
    expect(loaded.daemonHttpAddr).toBe('127.0.0.1:7411');
    expect(loaded.warnings).toEqual([`${file}:3: "daemon.socket" is not used by this version of gortex (ignored)`]);
    fs.writeFileSync(file, 'daemon:\n  http_addr: 7411\n');
    expect(() => loadConfig(undefined, { XDG_CONFIG_HOME: xdg })).toThrow(`${file}:2: daemon.http_addr must be host:port, like 127.0.0.1:7411, got 7411`);
  });

  test('daemon.max_memory (and its older spelling memory_limit) is a memory size in bytes; anything else names the key and the fix', () => {
    const xdg = tmp();
    fs.mkdirSync(path.join(xdg, 'gortex'));
    const file = path.join(xdg, 'gortex', 'config.yaml');
    const read = (value: string, key = 'max_memory'): number | undefined => {
      fs.writeFileSync(file, `daemon:\n  ${key}: ${value}\n`);
      return loadConfig(undefined, { XDG_CONFIG_HOME: xdg }).maxMemory;
    };
    expect(read('2G')).toBe(2 * 1024 ** 3);
    expect(read('1536M')).toBe(1536 * 1024 ** 2);
    expect(read('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(read('512mb')).toBe(512 * 1024 ** 2);
    expect(read('800000000')).toBe(800_000_000);
    expect(read('2GiB', 'memory_limit')).toBe(2 * 1024 ** 3);
    expect(() => read('lots')).toThrow(`${file}:2: daemon.max_memory must be a memory size like 2G, 1536M or a byte count, got "lots"`);
    expect(() => read('-5')).toThrow(/daemon\.max_memory must be a memory size/);
    expect(() => read('0')).toThrow(/daemon\.max_memory must be a memory size/);
    expect(() => read('1.5')).toThrow(/daemon\.max_memory must be a memory size/);
    expect(() => read('1ib')).toThrow(/daemon\.max_memory must be a memory size/);
    expect(() => read('2048')).toThrow(`${file}:2: daemon.max_memory must be at least 64M (a daemon needs that much before it tracks anything), got 2048`);
    // The older spelling never stopped anything: a value it cannot read is a warning.
    fs.writeFileSync(file, 'daemon:\n  memory_limit: 80%\n');
    const lenient = loadConfig(undefined, { XDG_CONFIG_HOME: xdg });
    expect(lenient.maxMemory).toBeUndefined();
    expect(lenient.warnings).toEqual([`${file}:2: daemon.memory_limit must be a memory size like 2G, 1536M or a byte count, got "80%" (ignored)`]);
    fs.writeFileSync(file, 'daemon:\n  max_memory: 1G\n  memory_limit: 2G\n');
    const both = loadConfig(undefined, { XDG_CONFIG_HOME: xdg });
    expect(both.maxMemory).toBe(1024 ** 3);
    expect(both.warnings).toEqual([`${file}:3: daemon.memory_limit is ignored: daemon.max_memory is set`]);
  });

  test('lsp.<server>: the global file names commands; a repository file only when the global one allows it', () => {
    const xdg = tmp();
    fs.mkdirSync(path.join(xdg, 'gortex'));
    const global = path.join(xdg, 'gortex', 'config.yaml');
    const root = tmp();
    const repoFile = path.join(root, '.gortex.yaml');
    fs.writeFileSync(global, 'lsp:\n  python:\n    command: pyright-langserver --stdio\n  go:\n    enabled: false\n  cobol:\n    command: x\n');
    fs.writeFileSync(repoFile, 'lsp:\n  typescript:\n    command: [evil, --stdio]\n');
    const loaded = loadConfig(root, { XDG_CONFIG_HOME: xdg });
    expect(loaded.lsp.python).toEqual({ command: ['pyright-langserver', '--stdio'], enabled: true, source: `${global}:2` });
    expect(loaded.lsp.go).toMatchObject({ enabled: false });
    expect(loaded.lspEnrich).toBeUndefined();
    expect(loaded.lsp.typescript).toEqual({ enabled: true, source: `${repoFile}:2` });
    expect(loaded.warnings).toEqual([
      `${global}:6: unknown language "lsp.cobol"; known: typescript, python, go, cpp, rust, java, allow_repo_commands, enrich (ignored)`,
      `${repoFile}:2: lsp.typescript.command of a repository file is ignored: set lsp.allow_repo_commands: true in ${global} to let repositories choose their language servers`,
    ]);
    fs.writeFileSync(global, 'lsp:\n  allow_repo_commands: true\n');
    expect(loadConfig(root, { XDG_CONFIG_HOME: xdg }).lsp.typescript).toEqual({ command: ['evil', '--stdio'], enabled: true, source: `${repoFile}:2` });
    // lsp.enrich: the repository's over the global's; anything but a boolean is an error.
    fs.writeFileSync(global, 'lsp:\n  enrich: true\n');
    expect(loadConfig(root, { XDG_CONFIG_HOME: xdg }).lspEnrich).toBe(true);
    fs.writeFileSync(repoFile, 'lsp:\n  enrich: false\n');
    expect(loadConfig(root, { XDG_CONFIG_HOME: xdg }).lspEnrich).toBe(false);
    fs.writeFileSync(repoFile, 'lsp:\n  enrich: yes please\n');
    expect(() => loadConfig(root, { XDG_CONFIG_HOME: xdg })).toThrow(`${repoFile}:2: lsp.enrich must be true or false`);
    fs.writeFileSync(repoFile, 'lsp:\n  python:\n    command: 7\n');
    expect(() => loadConfig(root, { XDG_CONFIG_HOME: xdg })).toThrow(`${repoFile}:2: lsp.python.command must be a command line or a list of its words`);
  });

  test('broken files are errors naming the file, the line and the fix', () => {
    const root = tmp();
    const file = path.join(root, '.gortex.yaml');
    fs.writeFileSync(file, 'mcp:\n  tools: [unclosed\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(ConfigError);
    expect(() => loadConfig(root, noGlobal)).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: not valid YAML`));
    fs.writeFileSync(file, 'mcp:\n  tools:\n    mode: sometimes\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/:3: mcp\.tools\.mode must be defer or hide, got "sometimes"/);
    fs.writeFileSync(file, 'mcp:\n  tools:\n    allow: 3\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/mcp\.tools\.allow must be a list of tool names/);
    fs.writeFileSync(file, '- just\n- a list\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/the top level must be a mapping/);
    fs.writeFileSync(file, '');
    expect(loadConfig(root, noGlobal)).toEqual({ files: [file], warnings: [], index: { exclude: [] }, allowEmbedded: false, lsp: {} });
  });

  test('index settings: exclude lists of both files add up; the repository wins on scalars; wrong types are errors', () => {
    const xdg = tmp();
    fs.mkdirSync(path.join(xdg, 'gortex'));
    fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), 'exclude: [vendor/]\n');
    const root = tmp();
    const file = path.join(root, '.gortex.yaml');
    fs.writeFileSync(file, 'exclude: "*.gen.ts"\nrespect_gitignore: false\nindex:\n  exclude: [dist/]\n  max_file_size: 1000\n  workers: 4\n');
    const c = loadConfig(root, { XDG_CONFIG_HOME: xdg, HOME: tmp() });
    expect(c.index).toEqual({ exclude: ['vendor/', '*.gen.ts', 'dist/'], respectGitignore: false, maxFileSize: 1000 });
    expect(c.warnings).toEqual([`${file}:6: "index.workers" is not used by this version of gortex (ignored)`]);
    fs.writeFileSync(file, 'index:\n  max_file_size: big\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/:2: index\.max_file_size must be a byte count/);
    fs.writeFileSync(file, 'exclude: {a: 1}\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/:1: exclude must be a list of gitignore-style patterns/);
    fs.writeFileSync(file, 'respect_gitignore: sometimes\n');
    expect(() => loadConfig(root, noGlobal)).toThrow(/respect_gitignore must be true or false/);
  });

  test('precedence: GORTEX_TOOLS > --tools > config; GORTEX_TOOLS_MODE > --tools-mode sets the mode', () => {
    const config = { spec: 'edit', source: '.gortex.yaml:2 (mcp.tools)' };
    expect(chosenSpec({ config }, {})).toEqual(config);
    expect(chosenSpec({ config, tools: 'nav' }, {})).toEqual({ spec: 'nav', source: '--tools' });
    expect(chosenSpec({ config, tools: 'nav' }, { GORTEX_TOOLS: 'full' })).toEqual({ spec: 'full', source: 'GORTEX_TOOLS' });
    expect(chosenSpec({ config, toolsMode: 'hide' }, {})).toEqual({ spec: 'edit:hide', source: '.gortex.yaml:2 (mcp.tools) + mode hide' });
    expect(chosenSpec({ toolsMode: 'hide' }, { GORTEX_TOOLS_MODE: 'defer' })).toEqual({ spec: 'core:defer', source: 'default + mode defer' });
    expect(chosenSpec({}, {})).toBeUndefined();
  });
});

describe('gortex mcp with a .gortex.yaml', () => {
  const root = fixtureCopy('query/app-ts', 'cfgapp');
  fs.writeFileSync(path.join(root, '.gortex.yaml'), 'mcp:\n  tools:\n    preset: edit\n    allow: [analyze, tool_profile]\n    deny: [graph_stats]\nfederation:\n  peers: []\n');
  const home = tempHome();
  const env = (extra: Record<string, string> = {}): Record<string, string> => {
    const e: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: home, GORTEX_THREADS: '2', HOME: tmp() };
    for (const k of ['NODE_ENV', 'GORTEX_TOOLS', 'GORTEX_TOOLS_MODE', 'XDG_CONFIG_HOME']) delete e[k];
    return { ...e, ...extra };
  };
  const start = async (args: string[], extra: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(PACKAGE_ROOT, 'bin', 'run.js'), 'mcp', '--embedded', '--repo', root, '--no-watch', ...args],
      env: env(extra),
      stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const client = new Client({ name: '', version: '1.0.0' });
    await client.connect(transport);
    return { client, stderr: () => err };
  };

  test('mcp.tools picks the surface; the source and the warnings say where it came from', async () => {
    const { client, stderr } = await start([]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('analyze');
      expect(names).toContain('get_editing_context');
      expect(names).not.toContain('graph_stats');
      expect(names).not.toContain('walk_graph');
      const profile = JSON.parse(((await client.callTool({ name: 'tool_profile', arguments: {} })) as any).content[0].text);
      expect(profile.preset).toBe('edit');
      expect(profile.source).toMatch(/\.gortex\.yaml:2 \(mcp\.tools\)$/);
      expect(stderr()).toMatch(/config: .*\.gortex\.yaml:6: "federation" is not used by this version of gortex \(ignored\)/);
    } finally {
      await client.close();
    }
  });

  test('--tools and GORTEX_TOOLS override the file', async () => {
    const flag = await start(['--tools', 'nav']);
    try {
      expect((await flag.client.listTools()).tools.map((t) => t.name)).toContain('walk_graph');
    } finally {
      await flag.client.close();
    }
    const envWins = await start(['--tools', 'nav'], { GORTEX_TOOLS: 'get_symbol,tool_profile' });
    try {
      expect((await envWins.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_symbol', 'tool_profile']);
    } finally {
      await envWins.client.close();
    }
  });

  test('exclude in .gortex.yaml keeps files out of the index; a bad pattern is a usage error', () => {
    const repo = fixtureCopy('query/app-ts', 'excludecfg');
    const query = (): ReturnType<typeof runCli> => runCli(['query', 'symbol', 'legacyBanner', '--repo', repo, '--json'], { env: env() });
    expect(query().status).toBe(0);
    fs.writeFileSync(path.join(repo, '.gortex.yaml'), 'exclude: [src/legacy.ts]\n');
    const gone = query();
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/legacyBanner/);
    fs.writeFileSync(path.join(repo, '.gortex.yaml'), 'exclude: ["src/[z-a].ts"]\n');
    const bad = runCli(['index', repo], { env: env() });
    expect(bad.status).toBe(2);
    expect(unwrapCliError(bad.stderr)).toMatch(/\.gortex\.yaml: exclude pattern "src\/\[z-a\]\.ts" is not a valid gitignore-style pattern/);
  });

  test('a broken config or an unknown tool in it stops gortex mcp before indexing, with the file and line', () => {
    const broken = fixtureCopy('query/app-ts', 'brokencfg');
    fs.writeFileSync(path.join(broken, '.gortex.yaml'), 'mcp:\n  tools:\n    mode: sometimes\n');
    const r = runCli(['mcp', '--repo', broken], { env: env() });
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toMatch(/\.gortex\.yaml:3: mcp\.tools\.mode must be defer or hide/);
    fs.writeFileSync(path.join(broken, '.gortex.yaml'), 'mcp:\n  tools:\n    preset: core\n    allow: [no_such_tool]\n');
    const unknown = runCli(['mcp', '--repo', broken], { env: env() });
    expect(unknown.status).toBe(2);
    expect(unwrapCliError(unknown.stderr)).toMatch(/\.gortex\.yaml:2 \(mcp\.tools\): unknown tool "no_such_tool"/);
  });
});
