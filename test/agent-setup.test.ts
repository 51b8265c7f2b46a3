/**
 * `gortex init` through the CLI (a child process with its own HOME, XDG_CONFIG_HOME and gortex
 * home): every agent's files parsed with a real parser of their format and checked against the
 * shape the agent documents; idempotence, dry runs, exact removal, and bad input.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { runCli, unwrapCliError } from './helpers/cli';
import { gitRepo, snapshotFiles } from './helpers/repo';

const SERVER = { command: 'npx', args: ['-y', 'gortex', 'mcp'] };
const BLOCK_START = '<!-- gortex:begin';

/** A machine: a HOME, a config folder and a gortex home, all fresh. */
function machine(): { home: string; config: string; env: Record<string, string> } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-init-'));
  const home = path.join(base, 'home');
  const config = path.join(base, 'config');
  fs.mkdirSync(home);
  return { home, config, env: { HOME: home, XDG_CONFIG_HOME: config, GORTEX_HOME: path.join(base, 'gortex-home') } };
}

function read(file: string): string {
  return fs.readFileSync(file, 'utf8');
}

function json(file: string): any {
  return parseJsonc(read(file), [], { allowTrailingComma: true });
}

/** A Markdown file's front matter. */
function frontMatter(file: string): any {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(read(file));
  expect(m).not.toBeNull();
  return parseYaml(m![1]!);
}

function blocks(file: string): number {
  return read(file).split(BLOCK_START).length - 1;
}

/** Every file under a folder, with its text (for "nothing changed" checks). */
function tree(dir: string): Record<string, string> {
  return fs.existsSync(dir) ? snapshotFiles(dir) : {};
}

describe('gortex init for a repository', () => {
  const m = machine();
  const root = gitRepo('initapp', {
    'src/index.ts': 'export const x = 1;\n',
    'CLAUDE.md': '# initapp\n\nBuild with make.\n',
    '.vscode/mcp.json': '{\n  // team servers\n  "servers": {\n    "docs": { "type": "http", "url": "https://docs.example/mcp" },\n  },\n  "inputs": []\n}\n',
  });
  const init = (...args: string[]) => runCli(['init', ...args], { cwd: root, env: m.env });

  test('without --agent it sets up the agents installed here, and says why', () => {
    const none = init();
    expect(none.status).toBe(2);
    expect(unwrapCliError(none.stderr)).toMatch(/^no coding agent found here \(looked for Claude Code, Cursor, .*\); name one with --agent, or use --all$/);
    fs.mkdirSync(path.join(m.home, '.gemini'));
    const dry = init('--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`Gemini CLI (${path.join(m.home, '.gemini')} exists)`);
    expect(dry.stdout).toContain('  create            .gemini/settings.json  — MCP server');
    expect(dry.stdout).toContain('      +       "command": "npx",');
    expect(dry.stdout).toMatch(/2 changes planned; run again without --dry-run to apply\.$/m);
    expect(fs.existsSync(path.join(root, '.gemini'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'GEMINI.md'))).toBe(false);
  });

  test('--all writes every agent\'s files in its documented shape, keeping what was there', () => {
    const before = tree(root);
    const r = init('--all');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // Claude Code: .mcp.json mcpServers with a stdio entry; CLAUDE.md keeps its text, gains the block.
    expect(json(path.join(root, '.mcp.json'))).toEqual({ mcpServers: { gortex: { type: 'stdio', ...SERVER } } });
    expect(read(path.join(root, 'CLAUDE.md')).startsWith('# initapp\n\nBuild with make.\n\n<!-- gortex:begin')).toBe(true);
    // Cursor: .cursor/mcp.json mcpServers; an always-applied .mdc rule.
    expect(json(path.join(root, '.cursor/mcp.json'))).toEqual({ mcpServers: { gortex: SERVER } });
    expect(frontMatter(path.join(root, '.cursor/rules/gortex.mdc'))).toEqual({ description: 'Use the gortex code graph tools', alwaysApply: true });
    // VS Code: .vscode/mcp.json `servers` (type stdio) beside the team's server, comment and trailing comma kept.
    const vscode = read(path.join(root, '.vscode/mcp.json'));
    expect(vscode).toContain('// team servers');
    expect(json(path.join(root, '.vscode/mcp.json'))).toEqual({
      servers: { docs: { type: 'http', url: 'https://docs.example/mcp' }, gortex: { type: 'stdio', ...SERVER } },
      inputs: [],
    });
    expect(blocks(path.join(root, '.github/copilot-instructions.md'))).toBe(1);
    // Windsurf: an always-on workspace rule (its MCP config is user-level only: a note says so).
    expect(frontMatter(path.join(root, '.windsurf/rules/gortex.md'))).toEqual({ trigger: 'always_on' });
    expect(r.stdout).toContain('note: Windsurf: Windsurf reads MCP servers from its user config only: run gortex init --global --agent windsurf.');
    // Zed: project settings' context_servers (custom source), and .rules.
    expect(json(path.join(root, '.zed/settings.json'))).toEqual({ context_servers: { gortex: { source: 'custom', ...SERVER } } });
    expect(blocks(path.join(root, '.rules'))).toBe(1);
    // Codex: AGENTS.md; Gemini: .gemini/settings.json and GEMINI.md.
    expect(blocks(path.join(root, 'AGENTS.md'))).toBe(1);
    expect(json(path.join(root, '.gemini/settings.json'))).toEqual({ mcpServers: { gortex: SERVER } });
    expect(blocks(path.join(root, 'GEMINI.md'))).toBe(1);
    // Continue: a block file in .continue/mcpServers (schema v1) and an always-applied rule.
    expect(parseYaml(read(path.join(root, '.continue/mcpServers/gortex.yaml')))).toEqual({ name: 'gortex', version: '0.0.1', schema: 'v1', mcpServers: [{ name: 'gortex', ...SERVER }] });
    expect(frontMatter(path.join(root, '.continue/rules/gortex.md'))).toEqual({ name: 'gortex', alwaysApply: true });
    // Cline: a rule in the .clinerules folder.
    expect(blocks(path.join(root, '.clinerules/gortex.md'))).toBe(1);
    // Nothing outside the repository (project scope).
    expect(tree(m.home)).toEqual({});

    // Idempotent: the same run changes nothing.
    const after = tree(root);
    const again = init('--all');
    expect(again.stdout).toContain('\nNothing to change.');
    expect(tree(root)).toEqual(after);

    // Undo: untouched files come back byte for byte, created files and folders go.
    const removed = init('--all', '--remove');
    expect(removed.status).toBe(0);
    expect(tree(root)).toEqual(before);
    expect(fs.existsSync(path.join(root, '.cursor'))).toBe(false);
    expect(fs.existsSync(path.join(root, '.continue'))).toBe(false);
  });

  test('--remove keeps edits made since: only gortex\'s entry and block go', () => {
    expect(init('--agent', 'claude', '--agent', 'vscode').status).toBe(0);
    fs.appendFileSync(path.join(root, 'CLAUDE.md'), '\nRun tests with make test.\n');
    const vscodeFile = path.join(root, '.vscode/mcp.json');
    fs.writeFileSync(vscodeFile, read(vscodeFile).replace('"inputs": []', '"inputs": [{ "id": "token" }]'));
    const r = init('--agent', 'claude', '--agent', 'vscode', '--remove');
    expect(r.stdout).toContain('remove gortex from CLAUDE.md');
    expect(read(path.join(root, 'CLAUDE.md'))).toBe('# initapp\n\nBuild with make.\n\nRun tests with make test.\n');
    expect(json(vscodeFile)).toEqual({ servers: { docs: { type: 'http', url: 'https://docs.example/mcp' } }, inputs: [{ id: 'token' }] });
    expect(read(vscodeFile)).toContain('// team servers');
    expect(fs.existsSync(path.join(root, '.mcp.json'))).toBe(false);
  });

  test('bad input: an unparsable config stops everything with file:line; unknown agents and flags are named', () => {
    fs.mkdirSync(path.join(root, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(root, '.gemini/settings.json'), '{\n  "theme": "dark",\n  "mcpServers": {\n');
    const before = tree(root);
    const r = init('--agent', 'claude', '--agent', 'gemini');
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toMatch(new RegExp(`^${path.join(root, '.gemini/settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: \\w+; fix the file \\(nothing was written\\)$`));
    expect(tree(root)).toEqual(before);
    const unknown = init('--agent', 'emacs');
    expect(unknown.status).toBe(2);
    expect(unwrapCliError(unknown.stderr)).toBe('unknown agent "emacs"; gortex init knows claude, cursor, vscode, windsurf, zed, codex, gemini, continue, cline');
    const globalWithPath = runCli(['init', '--global', root], { env: m.env });
    expect(globalWithPath.status).toBe(2);
    fs.rmSync(path.join(root, '.gemini'), { recursive: true });
  });

  test('edits made between two runs survive --remove, and broken markers are refused', () => {
    expect(init('--agent', 'claude').status).toBe(0);
    const mcp = path.join(root, '.mcp.json');
    // The user adds a server of their own; then gortex's entry changes (a new --command).
    fs.writeFileSync(mcp, read(mcp).replace('"mcpServers": {', '"mcpServers": {\n    "docs": { "command": "docs-mcp" },'));
    expect(init('--agent', 'claude', '--command', 'gortex mcp').stdout).toContain('update            .mcp.json');
    expect(init('--agent', 'claude', '--remove').status).toBe(0);
    expect(json(mcp)).toEqual({ mcpServers: { docs: { command: 'docs-mcp' } } });
    fs.rmSync(mcp);
    // A block whose end marker was deleted is not guessed at.
    const claude = path.join(root, 'CLAUDE.md');
    const broken = `${read(claude)}\n<!-- gortex:begin (written by \`gortex init\`; \`gortex init --remove\` takes it out) -->\nhalf a block\n\nMy own notes.\n`;
    fs.writeFileSync(claude, broken);
    const r = init('--agent', 'claude');
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toMatch(/CLAUDE\.md: a gortex:begin marker without its gortex:end marker; fix the file/);
    expect(read(claude)).toBe(broken);
    expect(init('--agent', 'claude', '--remove').status).toBe(2);
    expect(read(claude)).toBe(broken);
    fs.writeFileSync(claude, '# initapp\n\nBuild with make.\n');
  });

  test('--command sets how agents start the server', () => {
    expect(init('--agent', 'cursor', '--command', 'gortex mcp --tools localization').status).toBe(0);
    expect(json(path.join(root, '.cursor/mcp.json')).mcpServers.gortex).toEqual({ command: 'gortex', args: ['mcp', '--tools', 'localization'] });
    expect(init('--agent', 'cursor', '--remove').status).toBe(0);
  });
});

describe('gortex init --global', () => {
  const m = machine();
  const codexToml = '# my codex settings\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
  const continueYaml = '# my assistant\nname: mine\nversion: 1.0.0\nschema: v1\nmodels: []\nmcpServers:\n  - name: docs\n    command: docs-mcp\n';
  const claudeJson = '{"numStartups": 12, "projects": {"/x": {"allowedTools": []}}}\n';
  beforeAll(() => {
    fs.mkdirSync(path.join(m.home, '.codex'));
    fs.writeFileSync(path.join(m.home, '.codex/config.toml'), codexToml);
    fs.mkdirSync(path.join(m.home, '.continue'));
    fs.writeFileSync(path.join(m.home, '.continue/config.yaml'), continueYaml);
    fs.writeFileSync(path.join(m.home, '.claude.json'), claudeJson);
  });
  const init = (...args: string[]) => runCli(['init', '--global', ...args], { env: m.env });

  test('user-level files of every agent, in their shapes; removal restores them exactly', () => {
    const before = { home: tree(m.home), config: tree(m.config) };
    const r = init('--all');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const claude = json(path.join(m.home, '.claude.json'));
    expect(claude).toEqual({ numStartups: 12, projects: { '/x': { allowedTools: [] } }, mcpServers: { gortex: { type: 'stdio', ...SERVER } } });
    expect(blocks(path.join(m.home, '.claude/CLAUDE.md'))).toBe(1);
    expect(json(path.join(m.home, '.cursor/mcp.json'))).toEqual({ mcpServers: { gortex: SERVER } });
    expect(json(path.join(m.config, 'Code/User/mcp.json'))).toEqual({ servers: { gortex: { type: 'stdio', ...SERVER } } });
    expect(json(path.join(m.home, '.codeium/windsurf/mcp_config.json'))).toEqual({ mcpServers: { gortex: SERVER } });
    expect(blocks(path.join(m.home, '.codeium/windsurf/memories/global_rules.md'))).toBe(1);
    expect(json(path.join(m.config, 'zed/settings.json'))).toEqual({ context_servers: { gortex: { source: 'custom', ...SERVER } } });
    // Codex: TOML with [mcp_servers.gortex], the user's settings, table and comment kept.
    const toml = read(path.join(m.home, '.codex/config.toml'));
    expect(toml.startsWith(codexToml)).toBe(true);
    expect(parseToml(toml)).toEqual({ model: 'o3', mcp_servers: { docs: { command: 'docs-mcp' }, gortex: SERVER } });
    expect(blocks(path.join(m.home, '.codex/AGENTS.md'))).toBe(1);
    expect(json(path.join(m.home, '.gemini/settings.json'))).toEqual({ mcpServers: { gortex: SERVER } });
    expect(blocks(path.join(m.home, '.gemini/GEMINI.md'))).toBe(1);
    // Continue: the user's config.yaml gains a list entry, comment kept.
    const yamlText = read(path.join(m.home, '.continue/config.yaml'));
    expect(yamlText.startsWith('# my assistant\n')).toBe(true);
    expect(parseYaml(yamlText)).toEqual({ name: 'mine', version: '1.0.0', schema: 'v1', models: [], mcpServers: [{ name: 'docs', command: 'docs-mcp' }, { name: 'gortex', ...SERVER }] });
    // Cline: its settings file in VS Code's global storage.
    expect(json(path.join(m.config, 'Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json'))).toEqual({
      mcpServers: { gortex: { disabled: false, autoApprove: [], ...SERVER } },
    });
    expect(r.stdout).toContain('note: Cursor: Cursor keeps user rules in its settings');

    expect(init('--all').stdout).toContain('\nNothing to change.');
    expect(init('--all', '--remove').status).toBe(0);
    expect({ home: tree(m.home), config: tree(m.config) }).toEqual(before);
    // The folders gortex made are gone; the ones that were there stay.
    expect(fs.existsSync(path.join(m.home, '.cursor'))).toBe(false);
    expect(fs.existsSync(path.join(m.config, 'Code'))).toBe(false);
    expect(fs.existsSync(path.join(m.home, '.codex'))).toBe(true);
  });

  test('--remove leaves a settings file without gortex in it untouched', () => {
    const gemini = path.join(m.home, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(gemini), { recursive: true });
    fs.writeFileSync(gemini, '{"theme": "Dark"}\n');
    const r = init('--agent', 'gemini', '--remove');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(read(gemini)).toBe('{"theme": "Dark"}\n');
    fs.rmSync(path.join(m.home, '.gemini'), { recursive: true });
  });

  test('a Codex config that already names gortex another way is refused, not broken', () => {
    const file = path.join(m.home, '.codex/config.toml');
    const inline = 'model = "o3"\n\n[mcp_servers]\ngortex = { command = "gortex", args = ["mcp"] }\n';
    fs.writeFileSync(file, inline);
    const r = init('--agent', 'codex');
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toMatch(/config\.toml: adding \[mcp_servers\.gortex\] would leave it invalid TOML .*edit it by hand \(nothing was written\)$/);
    expect(read(file)).toBe(inline);
  });

  test('a Codex config that is not TOML is refused untouched', () => {
    fs.writeFileSync(path.join(m.home, '.codex/config.toml'), 'model = \n');
    const r = init('--agent', 'codex');
    expect(r.status).toBe(2);
    expect(unwrapCliError(r.stderr)).toMatch(/config\.toml: not valid TOML \(.*\); fix the file \(nothing was written\)$/);
    expect(read(path.join(m.home, '.codex/config.toml'))).toBe('model = \n');
    expect(fs.existsSync(path.join(m.home, '.codex/AGENTS.md'))).toBe(false);
  });
});
