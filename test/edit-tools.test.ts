/**
 * The edit tools (edit_file, write_file, edit_symbol) through the real MCP server over a real
 * embedded repository with its watcher, plus `gortex call`: each write lands atomically and the
 * next query sees it; every refusal (drift, ambiguity, missing text, outside the repository,
 * `.git/`, a link out, binary files, the parse gate) says why and writes nothing; CRLF files keep
 * their line endings; two sessions writing one file are serialised and the loser gets `conflict`;
 * the `edit` preset and the compact `edit` domain edit; `readonly` offers no writer.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { serveEmbedded as serve } from './helpers/mcp';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { gitFixture } from './helpers/daemon';
import { tempHome, useTempHome } from './helpers/repo';

interface TextResult {
  isError?: boolean;
  content: { text: string }[];
}


async function call(client: Client, name: string, args: Record<string, unknown>): Promise<TextResult> {
  return (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as TextResult;
}

/** A tool's JSON answer (a failure fails the test). */
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

/** A tool's refusal: its code and message (an answer fails the test). */
async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const result = await call(client, name, args);
  if (!result.isError) throw new Error(`${name} answered instead of refusing: ${result.content[0]?.text.slice(0, 300)}`);
  const text = result.content[0]!.text;
  const colon = text.indexOf(': ');
  return { code: text.slice(0, colon), message: text.slice(colon + 2) };
}

const RUN = path.join(PACKAGE_ROOT, 'bin', 'run.js');

const sha = (bytes: Buffer | string): string => createHash('sha1').update(`blob ${Buffer.byteLength(bytes)}\0`).update(bytes).digest('hex');

describe('edit tools', () => {
  useTempHome();
  let root: string;
  let repo: EmbeddedRepo;
  let client: Client;
  const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

  beforeAll(async () => {
    root = gitFixture('query/app-ts', 'editrepo');
    repo = await openEmbedded(root, { watch: true });
    client = await serve(repo);
  });
  afterAll(async () => {
    await client.close();
    repo.close();
  });

  test('edit_file replaces text, returns the git blob sha and a diff, and the next query sees the change', async () => {
    const before = read('src/format.ts');
    const result = await ok(client, 'edit_file', {
      path: 'src/format.ts',
      old_string: 'export function shout(text: string): string {',
      new_string: 'export function yell(text: string): string {',
      base_sha: sha(before),
    });
    expect(result).toMatchObject({ status: 'applied', path: 'src/format.ts', old_sha: sha(before), replacements: 1, reindexed: true, created: false });
    const after = read('src/format.ts');
    expect(result.new_sha).toBe(sha(after));
    expect(result.new_sha).toBe(execFileSync('git', ['hash-object', 'src/format.ts'], { cwd: root, encoding: 'utf8' }).trim());
    expect(result.diff).toContain('-export function shout(text: string): string {');
    expect(result.diff).toContain('+export function yell(text: string): string {');
    // No waiting for the watcher: the graph already has the new name.
    const found = await ok(client, 'search_symbols', { query: 'yell' });
    expect(found.results.map((r: { id: string }) => r.id)).toContain('editrepo/src/format.ts::yell');
    expect((await ok(client, 'search_symbols', { query: 'shout' })).results.map((r: { name: string }) => r.name)).not.toContain('shout');
    // Chained with new_sha as the next base_sha.
    await ok(client, 'edit_file', { path: 'src/format.ts', old_string: 'yell', new_string: 'shout', base_sha: result.new_sha });
    expect(read('src/format.ts')).toBe(before);
    // No temp file is left beside it.
    expect(fs.readdirSync(path.join(root, 'src')).filter((f) => f.includes('gortex-'))).toEqual([]);
  });

  test('refusals say why and write nothing', async () => {
    const before = read('src/format.ts');
    const drift = await refused(client, 'edit_file', { path: 'src/format.ts', old_string: 'padLabel', new_string: 'pad', base_sha: 'a'.repeat(40) });
    expect(drift.code).toBe('conflict');
    expect(drift.message).toContain(`its sha is now ${sha(before)}`);
    const ambiguous = await refused(client, 'edit_file', { path: 'src/format.ts', old_string: 'flush(): void {}', new_string: 'flush(): void { return; }' });
    expect(ambiguous.code).toBe('ambiguous');
    expect(ambiguous.message).toMatch(/occurs 2 times in src\/format.ts \(lines 14, 18\)/);
    const missing = await refused(client, 'edit_file', { path: 'src/format.ts', old_string: "return '[' + text + ']';\n  // gone", new_string: 'x' });
    expect(missing.code).toBe('not_found');
    expect(missing.message).toMatch(/its first line does, at line 2/);
    expect((await refused(client, 'edit_file', { path: '../outside.ts', old_string: 'a', new_string: 'b' })).code).toBe('outside_repo');
    expect((await refused(client, 'write_file', { path: '/etc/gortex-test', content: 'x' })).code).toBe('outside_repo');
    expect((await refused(client, 'write_file', { path: '.git/hooks/pre-commit', content: 'rm -rf /' })).message).toMatch(/never writes there/);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-outside-'));
    fs.symlinkSync(outside, path.join(root, 'linked'), 'dir');
    expect((await refused(client, 'write_file', { path: 'linked/x.ts', content: 'export const x = 1;\n' })).code).toBe('outside_repo');
    expect(fs.readdirSync(outside)).toEqual([]);
    fs.writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 9]));
    expect((await refused(client, 'edit_file', { path: 'blob.bin', old_string: '\u0001', new_string: 'x' })).message).toMatch(/binary/);
    // The parse gate: a file that parsed cleanly must still parse.
    const gate = await refused(client, 'edit_file', { path: 'src/format.ts', old_string: "return text + '!';", new_string: "return text + '!';\n  }}}" });
    expect(gate.code).toBe('parse_error');
    expect(gate.message).toMatch(/syntax error.*nothing was written.*allow_parse_errors/);
    expect(read('src/format.ts')).toBe(before);
    expect((await refused(client, 'edit_file', { path: 'src/nope.ts', old_string: 'a', new_string: 'b' })).code).toBe('not_found');
    expect((await refused(client, 'write_file', { path: 'src/format.ts', content: 'x', create_only: true })).code).toBe('conflict');
  });

  test('dry_run checks everything, returns the diff and writes nothing', async () => {
    const before = read('src/config.ts');
    const preview = await ok(client, 'edit_file', { path: 'src/config.ts', old_string: 'return 42;', new_string: 'return 43;', dry_run: true });
    expect(preview).toMatchObject({ status: 'would_apply', reindexed: false });
    expect(preview.diff).toContain('+  return 43;');
    expect(read('src/config.ts')).toBe(before);
    const created = await ok(client, 'write_file', { path: 'src/new/deep.ts', content: 'export const deep = 1;\n', dry_run: true });
    expect(created).toMatchObject({ status: 'would_apply', created: true });
    expect(fs.existsSync(path.join(root, 'src/new'))).toBe(false);
  });

  test('write_file creates files and folders, indexed at once; overwrites keep the file mode', async () => {
    const created = await ok(client, 'write_file', { path: 'src/new/made.ts', content: 'export function madeByWrite(): number {\n  return 1;\n}\n' });
    expect(created).toMatchObject({ status: 'applied', created: true, old_sha: null });
    expect((await ok(client, 'search_symbols', { query: 'madeByWrite' })).results[0]).toMatchObject({ path: 'src/new/made.ts' });
    fs.chmodSync(path.join(root, 'src/new/made.ts'), 0o755);
    const again = await ok(client, 'write_file', { path: 'src/new/made.ts', content: 'export function madeAgain(): number {\n  return 2;\n}\n', base_sha: created.new_sha });
    expect(again).toMatchObject({ status: 'applied', created: false, old_sha: created.new_sha });
    expect(fs.statSync(path.join(root, 'src/new/made.ts')).mode & 0o777).toBe(0o755);
    // Documents are files like any other.
    await ok(client, 'write_file', { path: 'NOTES.md', content: '# Notes\n' });
    expect(await ok(client, 'write_file', { path: 'NOTES.md', content: '# Notes\n' })).toMatchObject({ status: 'no_change' });
  });

  test('CRLF files: LF-written text matches, and the file keeps CRLF', async () => {
    fs.writeFileSync(path.join(root, 'src/dos.ts'), 'export function dosOne(): number {\r\n  return 1;\r\n}\r\n\r\nexport function dosTwo(): number {\r\n  return 2;\r\n}\r\n');
    await repo.reindex();
    const result = await ok(client, 'edit_file', { path: 'src/dos.ts', old_string: '  return 1;\n}', new_string: '  const one = 1;\n  return one;\n}' });
    expect(result.eol_normalized).toBe(true);
    expect(read('src/dos.ts')).toBe('export function dosOne(): number {\r\n  const one = 1;\r\n  return one;\r\n}\r\n\r\nexport function dosTwo(): number {\r\n  return 2;\r\n}\r\n');
    const symbol = await ok(client, 'edit_symbol', { id: 'editrepo/src/dos.ts::dosTwo', new_source: 'export function dosTwo(): number {\n  return 22;\n}\n' });
    expect(symbol.status).toBe('applied');
    expect(read('src/dos.ts')).toContain('export function dosTwo(): number {\r\n  return 22;\r\n}\r\n');
    expect(read('src/dos.ts').replace(/\r\n/g, '')).not.toContain('\n');
  });

  test("edit_symbol replaces a symbol's lines by id, checks old_source, and sees edits made behind its back", async () => {
    const id = 'editrepo/src/config.ts::applyConfig';
    const result = await ok(client, 'edit_symbol', {
      id,
      old_source: 'export function applyConfig(c: Config): boolean {\n  return c.verbose;\n}',
      new_source: 'export function applyConfig(c: Config, force = false): boolean {\n  return force || c.verbose;\n}',
    });
    expect(result).toMatchObject({ status: 'applied', symbol: { id, start_line: 14, end_line: 16, new_end_line: 16 } });
    expect(read('src/config.ts')).toContain('export function applyConfig(c: Config, force = false): boolean {\n  return force || c.verbose;\n}\n');
    expect((await ok(client, 'get_symbol', { id })).node.signature).toContain('force');
    // Lines inserted above by someone else: the span is re-read from the file as it is now.
    fs.writeFileSync(path.join(root, 'src/config.ts'), `// a header\n// another\n${read('src/config.ts')}`);
    await ok(client, 'edit_symbol', { id: 'editrepo/src/config.ts::unusedHelper', new_source: 'export function unusedHelper(): number {\n  return 7;\n}' });
    expect(read('src/config.ts')).toMatch(/^\/\/ a header\n\/\/ another\n/);
    expect(read('src/config.ts')).toContain('export function unusedHelper(): number {\n  return 7;\n}\n');
    const stale = await refused(client, 'edit_symbol', { id, old_source: 'export function applyConfig(c: Config): boolean {', new_source: 'x' });
    expect(stale.code).toBe('conflict');
  });

  test('two sessions writing one file with the same base: one applies, the other gets conflict and the new sha', async () => {
    const second = await serve(repo);
    try {
      const base = sha(read('src/cli.ts'));
      const results = await Promise.all([
        call(client, 'edit_file', { path: 'src/cli.ts', old_string: "'cli'", new_string: "'one'", base_sha: base }),
        call(second, 'edit_file', { path: 'src/cli.ts', old_string: "'cli'", new_string: "'two'", base_sha: base }),
      ]);
      const winners = results.filter((r) => !r.isError);
      const losers = results.filter((r) => r.isError);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      const error = losers[0]!.content[0]!.text;
      expect(error).toMatch(/^conflict: /);
      expect(error).toContain(sha(read('src/cli.ts')));
      expect(read('src/cli.ts')).toMatch(/'(one|two)'/);
    } finally {
      await second.close();
    }
  });

  test('two processes writing one file with the same base: the second waits for the first and gets conflict', async () => {
    const lockRoot = gitFixture('query/app-ts', 'lockrepo');
    const env: Record<string, string> = { ...(process.env as Record<string, string>), GORTEX_HOME: tempHome(), GORTEX_THREADS: '2', GORTEX_AUTOSTART: '0' };
    env.GORTEX_DAEMON_SOCKET = path.join(os.tmpdir(), `gortex-no-daemon-${process.pid}.sock`);
    delete env.NODE_ENV;
    const base = sha(fs.readFileSync(path.join(lockRoot, 'src/cli.ts')));
    const edit = (value: string, extra: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [RUN, 'call', 'edit_file', '--repo', lockRoot, '--embedded', '--arg', 'path=src/cli.ts', '--arg', "old_string='cli'", '--arg', `new_string='${value}'`, '--arg', `base_sha=${base}`], { env: { ...env, ...extra } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    // The first pauses for 4 s between its re-check and its write; the second starts in that pause.
    const signal = path.join(env.GORTEX_HOME!, 'holding');
    const first = edit('first', { GORTEX_FAULT_HOLD_WRITE_MS: '4000', GORTEX_FAULT_HOLD_SIGNAL: signal });
    for (let i = 0; i < 400 && !fs.existsSync(signal); i++) await new Promise((r) => setTimeout(r, 25));
    expect(fs.existsSync(signal)).toBe(true);
    const second = await edit('second', {});
    const one = await first;
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ status: 'applied' });
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(/conflict: src\/cli\.ts changed/);
    expect(fs.readFileSync(path.join(lockRoot, 'src/cli.ts'), 'utf8')).toContain("'first'");
  });

  test('planning mode and the workflow gate every writer, compact ones included; the session keeps an edit history', async () => {
    const session = await serve(repo);
    const compact = await serve(repo, 'compact');
    try {
      const before = read('src/shapes.ts');
      expect(await ok(session, 'set_planning_mode', { enabled: true })).toEqual({ planning_mode: true, writes_allowed: false });
      const planned = await refused(session, 'write_file', { path: 'src/shapes.ts', content: 'x' });
      expect(planned.code).toBe('planning_mode');
      expect(planned.message).toMatch(/set_planning_mode with enabled: false/);
      await ok(session, 'set_planning_mode', { enabled: false });

      expect(await ok(session, 'workflow', { phase: 'explore' })).toMatchObject({ phase: 'explore', writes_allowed: false, next: 'implement' });
      expect((await refused(session, 'edit_file', { path: 'src/shapes.ts', old_string: 'a', new_string: 'b' })).code).toBe('workflow_phase');
      // Another session is not gated by this one's workflow.
      const other = await ok(compact, 'edit', { target: { file: 'src/shapes.ts' }, content: before, dry_run: true });
      expect(other.status).toBe('no_change');
      expect(await ok(session, 'workflow', { action: 'advance' })).toMatchObject({ phase: 'implement', writes_allowed: true });
      expect(read('src/shapes.ts')).toBe(before);

      for (const n of [1, 2, 3]) {
        await ok(session, 'edit_symbol', { id: 'editrepo/src/format.ts::formatLabel', new_source: `export function formatLabel(text: string): string {\n  return '[' + text + ']${n}';\n}` });
      }
      await ok(session, 'edit_file', { path: 'src/config.ts', old_string: 'verbose: boolean = false;', new_string: 'verbose: boolean = true;' });
      const history = await ok(session, 'get_symbol_history', {});
      expect(history.symbols[0]).toMatchObject({ key: 'editrepo/src/config.ts::Config.verbose', edits: 1, tools: ['edit_file'] });
      expect(history.symbols).toContainEqual(expect.objectContaining({ key: 'editrepo/src/format.ts::formatLabel', edits: 3, churn: true, tools: ['edit_symbol'] }));
      expect(history.files.map((f: { key: string }) => f.key)).toEqual(['src/config.ts', 'src/format.ts']);
      expect(history.churning).toBe(1);
      expect(await ok(session, 'workflow', { action: 'end' })).toMatchObject({ phase: null, writes_allowed: true });
    } finally {
      await session.close();
      await compact.close();
    }
  });

  test('the edit preset lists the writers; readonly lists none; the compact edit domain edits', async () => {
    const editSession = await serve(repo, 'edit');
    const readonly = await serve(repo, 'readonly');
    const compact = await serve(repo, 'compact');
    try {
      const names = (await editSession.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['edit_file', 'edit_symbol', 'write_file', 'read_file', 'search_symbols']));
      const readonlyNames = (await readonly.listTools()).tools.map((t) => t.name);
      expect(readonlyNames.filter((n) => ['edit_file', 'edit_symbol', 'write_file'].includes(n))).toEqual([]);
      const tools = (await compact.listTools()).tools;
      const editTool = tools.find((t) => t.name === 'edit')!;
      expect(editTool.annotations?.destructiveHint).toBe(true);
      // The description's own example, then with a symbol target and with content.
      const preview = await ok(compact, 'edit', { target: { file: 'src/format.ts' }, match: "return ' ' + text;", replacement: "return '  ' + text;", dry_run: true });
      expect(preview).toMatchObject({ status: 'would_apply', path: 'src/format.ts' });
      const applied = await ok(compact, 'edit', { target: { symbol: 'editrepo/src/format.ts::padLabel' }, replacement: "export function padLabel(text: string): string {\n  return '>' + text;\n}" });
      expect(applied.status).toBe('applied');
      expect(read('src/format.ts')).toContain("return '>' + text;");
      const written = await ok(compact, 'edit', { target: { file: 'src/compact.ts' }, content: 'export const compact = 1;\n' });
      expect(written).toMatchObject({ status: 'applied', created: true });
      expect((await readonly.callTool({ name: 'edit_file', arguments: { path: 'src/format.ts', old_string: 'a', new_string: 'b' } })).isError).toBe(true);
    } finally {
      await editSession.close();
      await readonly.close();
      await compact.close();
    }
  });

  test('gortex edit file|write|symbol: a readable diff, --dry-run, --json, and refusals exit 2 naming the code', () => {
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const cliRoot = gitFixture('query/app-ts', 'editcli');
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli(['edit', ...args, '--repo', cliRoot, '--embedded'], { env });
    const preview = cli('file', 'src/config.ts', '--old', 'return 42;', '--new', 'return 43;', '--dry-run');
    expect(preview.status).toBe(0);
    expect(preview.stdout).toMatch(/^would write src\/config\.ts \(1 replacement\), new sha [0-9a-f]{40}\n--- a\/src\/config\.ts\n\+\+\+ b\/src\/config\.ts\n@@ /);
    expect(preview.stdout).toContain('-  return 42;\n+  return 43;');
    expect(fs.readFileSync(path.join(cliRoot, 'src/config.ts'), 'utf8')).toContain('return 42;');
    const applied = cli('file', 'src/config.ts', '--old', 'return 42;', '--new', 'return 43;', '--json');
    expect(JSON.parse(applied.stdout)).toMatchObject({ status: 'applied', replacements: 1 });
    const draft = path.join(os.tmpdir(), `gortex-draft-${process.pid}.ts`);
    fs.writeFileSync(draft, 'export function fromDraft(): number {\n  return 5;\n}\n');
    expect(cli('write', 'src/draft.ts', '--from', draft).stdout).toMatch(/^created src\/draft\.ts, new sha/);
    const symbol = cli('symbol', 'fromDraft', '--source', 'export function fromDraft(): number {\n  return 6;\n}');
    expect(symbol.status).toBe(0);
    expect(fs.readFileSync(path.join(cliRoot, 'src/draft.ts'), 'utf8')).toBe('export function fromDraft(): number {\n  return 6;\n}\n');
    const outside = cli('write', '../escape.ts', '--content', 'x');
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/outside_repo: "\.\.\/escape\.ts" is outside the repository/);
    const both = cli('write', 'src/x.ts', '--content', 'a', '--from', draft);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give --content inline or from a file, not both/);
  });

  test('gortex call edits; a stdio session limited by GORTEX_TOOLS to edit_file edits', async () => {
    const home = tempHome();
    const cliRoot = gitFixture('query/app-ts', 'clirepo');
    const env = { GORTEX_HOME: home, GORTEX_THREADS: '2' };
    const r = runCli(['call', 'edit_file', '--repo', cliRoot, '--embedded', '--arg', 'path=src/cli.ts', '--arg', "old_string='cli'", '--arg', "new_string='edited'"], { env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'applied', path: 'src/cli.ts' });
    expect(fs.readFileSync(path.join(cliRoot, 'src/cli.ts'), 'utf8')).toContain("'edited'");

    const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env, GORTEX_TOOLS: 'search_symbols,find_files,edit_file' };
    delete childEnv.NODE_ENV;
    const transport = new StdioClientTransport({ command: process.execPath, args: [RUN, 'mcp', '--embedded', '--repo', cliRoot], env: childEnv, stderr: 'pipe' });
    const stdio = new Client({ name: 'gortex-edit-stdio', version: '1.0.0' });
    await stdio.connect(transport);
    try {
      expect((await stdio.listTools()).tools.map((t) => t.name).sort()).toEqual(['edit_file', 'find_files', 'search_symbols']);
      expect(await ok(stdio, 'edit_file', { path: 'src/cli.ts', old_string: "'edited'", new_string: "'stdio'" })).toMatchObject({ status: 'applied' });
      expect(fs.readFileSync(path.join(cliRoot, 'src/cli.ts'), 'utf8')).toContain("'stdio'");
    } finally {
      await stdio.close();
    }
  });
});
