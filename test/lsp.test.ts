/**
 * Language servers in the loop, with the real servers (typescript-language-server over tsserver,
 * pyright) on fixture repositories, through the real MCP server: diagnostics appear after a bad
 * edit and clear after the fix, code actions fix an import through the guarded write path, a whole
 * file is fixed in rounds, an overlay buffer is diagnosed without touching the disk or other
 * sessions, pushed diagnostics flow until unsubscribe, a killed server is restarted, and a missing
 * server is reported with its install hint.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callJson, collect, okJson, serveEmbedded, until } from './helpers/mcp';
import { gitRepo, useTempHome } from './helpers/repo';
import { lspPool } from '../ts/lsp/pool';
import { ALL_TOOLS } from '../ts/tools';
import { toolCaller } from './helpers/tools';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { packageRoot } from '../ts/support/package-root';

const TSCONFIG = '{ "compilerOptions": { "strict": true, "target": "ES2020", "module": "commonjs", "types": [] }, "include": ["src"] }\n';
const A = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const B = 'const x: number = add(1, 2);\nconst y: string = 5;\nexport { x, y };\n';

function codes(answer: { diagnostics: { code?: unknown }[] }): unknown[] {
  return answer.diagnostics.map((d) => d.code);
}

describe('language servers (TypeScript)', () => {
  useTempHome();
  let root: string;
  let repo: EmbeddedRepo;
  let one: Client;
  let two: Client;

  beforeAll(async () => {
    root = gitRepo('lsp-ts', { 'tsconfig.json': TSCONFIG, 'src/a.ts': A, 'src/b.ts': B });
    repo = await openEmbedded(root, { watch: false });
    one = await serveEmbedded(repo);
    two = await serveEmbedded(repo);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    repo.close();
    await lspPool().stop(root);
  });

  it('reports the type errors of a file, and clears them after the fix', async () => {
    const got = await okJson(one, 'get_diagnostics', { path: 'src/b.ts' });
    expect(got).toMatchObject({ path: 'src/b.ts', server: 'typescript', published: true, overlay: false });
    expect(codes(got).sort()).toEqual([2304, 2322]);
    expect(got.diagnostics.find((d: { code: number }) => d.code === 2322)).toMatchObject({ line: 2, column: 7, severity: 'error', source: 'typescript' });

    await okJson(one, 'edit_file', { path: 'src/b.ts', old_string: 'const y: string = 5;', new_string: "const y: string = 'five';" });
    const unchanged = await okJson(one, 'get_diagnostics', { path: 'src/b.ts' });
    expect(codes(unchanged)).toEqual([2304]);
    // A clean file that stays clean: typescript-language-server publishes nothing, and the answer says why it stands.
    expect((await okJson(one, 'get_diagnostics', { path: 'src/a.ts' })).counts.error).toBe(0);
    await okJson(one, 'edit_file', { path: 'src/a.ts', old_string: 'return a + b;', new_string: 'return b + a;' });
    const stillClean = await okJson(one, 'get_diagnostics', { path: 'src/a.ts' });
    expect(stillClean).toMatchObject({ published: true, counts: { error: 0 }, assumed: expect.stringMatching(/^no publish within 3000 ms of the change/) });
    await okJson(one, 'edit_file', { path: 'src/a.ts', old_string: 'return b + a;', new_string: 'return a + b;' });
  });

  it('lists the code actions at a diagnostic and applies the import fix through the write path', async () => {
    const listed = await okJson(one, 'get_code_actions', { path: 'src/b.ts', line: 1, column: 19 });
    const fix = listed.actions.find((a: { title: string }) => a.title === 'Add import from "./a"');
    expect(fix).toMatchObject({ kind: 'quickfix', applies: 'edit' });
    expect(listed.diagnostics.map((d: { code: number }) => d.code)).toEqual([2304]);
    expect(listed.actions.every((a: { disabled?: string }) => a.disabled === undefined)).toBe(true);

    // A stale base_sha is refused and nothing is written.
    const stale = await callJson(one, 'apply_code_action', { path: 'src/b.ts', line: 1, column: 19, title: fix.title, base_sha: '0'.repeat(40) });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^conflict:/);

    const dry = await okJson(one, 'apply_code_action', { path: 'src/b.ts', line: 1, column: 19, title: fix.title, dry_run: true });
    expect(dry.files[0].diff).toContain('+import { add } from "./a";');
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).not.toContain('import');

    const applied = await okJson(one, 'apply_code_action', { path: 'src/b.ts', line: 1, column: 19, title: fix.title, base_sha: listed.base_sha });
    expect(applied.applied).toBe('Add import from "./a"');
    expect(fs.readFileSync(path.join(root, 'src/b.ts'), 'utf8')).toMatch(/^import \{ add \} from "\.\/a";/);
    expect(applied.diagnostics_after.counts.error).toBe(0);
    // The graph saw the write: b's call now resolves to a's function.
    const callers = await okJson(one, 'get_callers', { id: 'src/a.ts::add' });
    expect(JSON.stringify(callers)).toContain('src/b.ts');

    const unknown = await callJson(one, 'apply_code_action', { path: 'src/b.ts', line: 1, title: 'No such action' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^not_found: no enabled code action titled "No such action"/);
  });

  it('fixes a whole file in rounds and writes it once', async () => {
    fs.writeFileSync(path.join(root, 'src/c.ts'), 'const z: number = add(3, 4);\nexport { z };\n');
    await repo.reindex();
    const fixed = await okJson(one, 'fix_all_in_file', { path: 'src/c.ts' });
    expect(fixed.rounds).toBeGreaterThanOrEqual(1);
    expect(fixed.before.counts.error).toBe(1);
    expect(fixed.after.counts.error).toBe(0);
    expect(fixed.stopped).toBe('no diagnostics left');
    expect(fs.readFileSync(path.join(root, 'src/c.ts'), 'utf8')).toContain('import { add } from "./a";');
    expect(fixed.files).toHaveLength(1);
  });

  it('diagnoses an overlay buffer in its session only, leaving the disk and the server as they were', async () => {
    await okJson(one, 'overlay_push', { path: 'src/a.ts', content: 'export function add(a: number, b: number): number {\n  return a + b + missing;\n}\n' });
    const overlaid = await okJson(one, 'get_diagnostics', { path: 'src/a.ts' });
    expect(overlaid.overlay).toBe(true);
    expect(overlaid.diagnostics.map((d: { message: string }) => d.message)).toEqual(["Cannot find name 'missing'."]);
    const other = await okJson(two, 'get_diagnostics', { path: 'src/a.ts' });
    expect(other).toMatchObject({ overlay: false, counts: { error: 0 } });
    expect(fs.readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe(A);
    const refused = await callJson(one, 'apply_code_action', { path: 'src/a.ts', line: 2, title: 'x' });
    expect(refused.text).toMatch(/^not_available: src\/a\.ts has an overlay buffer/);
    await okJson(one, 'overlay_drop', {});
  });

  it('pushes diagnostics to subscribers as files change, and stops after unsubscribe', async () => {
    const seen = collect(one);
    const sub = await okJson(one, 'subscribe_diagnostics', { min_severity: 'error', path_prefix: 'src/' });
    expect(sub).toMatchObject({ subscribed: 'diagnostics', method: 'notifications/diagnostics', channels: ['diagnostics'] });

    // A bad edit through the write path: its diagnostics arrive without anyone asking.
    await okJson(one, 'write_file', { path: 'src/d.ts', content: "export const d: number = 'nope';\n" });
    const bad = await until('the error of src/d.ts', () => seen.find((n) => n.method === 'notifications/diagnostics' && n.params.path === 'src/d.ts' && n.params.counts.error === 1));
    expect(bad.params.diagnostics[0]!.code).toBe(2322);
    // The fix clears them.
    await okJson(one, 'edit_file', { path: 'src/d.ts', old_string: "'nope'", new_string: '4' });
    await until('src/d.ts cleared', () => seen.find((n) => n.params.path === 'src/d.ts' && n.params.counts.error === 0));

    // The other session never subscribed.
    const others = collect(two);
    expect((await okJson(one, 'unsubscribe_diagnostics', {})).unsubscribed).toBe(true);
    expect((await okJson(one, 'unsubscribe_diagnostics', {})).unsubscribed).toBe(false);
    const before = seen.length;
    await okJson(one, 'write_file', { path: 'src/d.ts', content: "export const d: number = 'again';\n" });
    await okJson(one, 'get_diagnostics', { path: 'src/d.ts' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen.length).toBe(before);
    expect(others).toEqual([]);
  });

  it('restarts a crashed server and answers again, telling sessions that asked for logs', async () => {
    await okJson(one, 'get_diagnostics', { path: 'src/a.ts' });
    await two.setLoggingLevel('info');
    const logged = collect(two);
    const [row] = lspPool().status(root).filter((r) => r.server === 'typescript');
    expect(row).toMatchObject({ state: 'ready', restarts: 0 });
    process.kill(row!.pid!, 'SIGKILL');
    const back = await until('the restarted server', () => lspPool().status(root).find((r) => r.server === 'typescript' && r.state === 'ready' && r.pid !== row!.pid));
    expect(back.restarts).toBe(1);
    expect(back.last_error).toMatch(/killed by SIGKILL/);
    const messages = () => logged.filter((n) => n.method === 'notifications/message').map((n) => n.params as unknown as { level: string; logger: string; data: { event: string } });
    await until('the crash and restart logged', () => (messages().some((m) => m.data.event === 'started') ? true : undefined));
    expect(messages().map((m) => [m.level, m.logger, m.data.event])).toEqual([['warning', 'gortex.lsp', 'crashed'], ['info', 'gortex.lsp', 'started']]);
    const again = await okJson(one, 'get_diagnostics', { path: 'src/d.ts' });
    expect(codes(again)).toEqual([2322]);
    const health = await okJson(one, 'index_health', {});
    expect(health.language_servers.find((s: { server: string }) => s.server === 'typescript')).toMatchObject({ available: true, state: 'ready', restarts: 1, languages: ['typescript'] });
  });
});

describe('MCP completions', () => {
  useTempHome();
  it('completes prompt arguments and resource-template parameters from the graph', async () => {
    const root = gitRepo('lsp-complete', { 'src/a.ts': A, 'src/lib/b.ts': "import { add } from '../a';\nexport const b = add(1, 2);\n" });
    const repo = await openEmbedded(root, { watch: false });
    const client = await serveEmbedded(repo);
    try {
      const ids = await client.complete({ ref: { type: 'ref/prompt', name: 'safe_to_change' }, argument: { name: 'ids', value: 'src/lib/b.ts::b,ad' } });
      expect(ids.completion.values).toContainEqual(expect.stringMatching(/^src\/lib\/b\.ts::b,(.+\/)?src\/a\.ts::add$/));
      const scope = await client.complete({ ref: { type: 'ref/prompt', name: 'pre_commit' }, argument: { name: 'scope', value: 'src/l' } });
      expect(scope.completion.values).toEqual(['src/lib/']);
      const topics = await client.complete({ ref: { type: 'ref/resource', uri: 'gortex://guide/{topic}' }, argument: { name: 'topic', value: '' } });
      expect(topics.completion.values.length).toBeGreaterThan(2);
      const none = await client.complete({ ref: { type: 'ref/prompt', name: 'orientation' }, argument: { name: 'x', value: 'y' } });
      expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
    } finally {
      await client.close();
      repo.close();
    }
  });
});

describe('language servers (Python, configuration, bad input)', () => {
  useTempHome();
  let root: string;
  let repo: EmbeddedRepo;
  let client: Client;
  const savedXdg = process.env.XDG_CONFIG_HOME;

  beforeAll(async () => {
    root = gitRepo('lsp-py', { 'm.py': 'def f(x: int) -> int:\n    return x + undefined_name\n', 'bin.py': 'x = 1\n', 'notes.txt': 'hello\n' });
    repo = await openEmbedded(root, { watch: false });
    client = await serveEmbedded(repo);
  });
  afterAll(async () => {
    if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = savedXdg;
    await client.close();
    repo.close();
    await lspPool().stop(root);
  });

  it('reports pyright diagnostics and clears them after the fix', async () => {
    const got = await okJson(client, 'get_diagnostics', { path: 'm.py' });
    expect(got).toMatchObject({ server: 'python', published: true });
    expect(got.diagnostics).toEqual([expect.objectContaining({ line: 2, severity: 'error', code: 'reportUndefinedVariable', message: '"undefined_name" is not defined' })]);
    await okJson(client, 'edit_file', { path: 'm.py', old_string: 'undefined_name', new_string: '1' });
    expect((await okJson(client, 'get_diagnostics', { path: 'm.py' })).counts.error).toBe(0);
    // Without a path: the stored diagnostics of every open file.
    const all = await okJson(client, 'get_diagnostics', { min_severity: 'error' });
    expect(all.files).toEqual([]);
    expect(all.servers.map((s: { server: string }) => s.server)).toEqual(['python']);
  });

  it('refuses bad input with what to fix', async () => {
    expect((await callJson(client, 'get_diagnostics', { path: '../outside.py' })).text).toMatch(/^outside_repo:/);
    expect((await callJson(client, 'get_diagnostics', { path: 'nope.py' })).text).toMatch(/^not_found: nope\.py does not exist/);
    expect((await callJson(client, 'get_diagnostics', { path: 'notes.txt' })).text).toMatch(/^invalid_argument: no language server serves notes\.txt/);
    expect((await callJson(client, 'get_code_actions', { path: 'm.py', line: 99 })).text).toMatch(/^invalid_argument: line 99 is past the end of the file \(3 lines\)/);
    expect((await callJson(client, 'apply_code_action', { path: 'm.py', line: 1 })).text).toMatch(/^invalid_argument: name the action/);
    fs.writeFileSync(path.join(root, 'blob.py'), Buffer.from([0, 1, 2, 3, 0, 255]));
    expect((await callJson(client, 'get_diagnostics', { path: 'blob.py' })).text).toMatch(/^invalid_argument: blob\.py is a binary file/);
    // Subscriptions need a session that can receive pushes: a context without channels (the CLI's, /v1's) is refused.
    const { refusal } = toolCaller(ALL_TOOLS);
    expect(await refusal(await repo.context(), 'subscribe_diagnostics', {})).toEqual({
      code: 'not_available',
      message: expect.stringMatching(/^push notifications need a session that can receive them: call this over MCP/),
    });
    expect((await refusal(await repo.context(), 'unsubscribe_diagnostics', {})).code).toBe('not_available');
  });

  it('reports a missing server with the command that was not found, and never hangs', async () => {
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-xdg-'));
    fs.mkdirSync(path.join(xdg, 'gortex'));
    fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), 'lsp:\n  python:\n    command: no-such-pyright-binary --stdio\n');
    process.env.XDG_CONFIG_HOME = xdg;
    const refused = await callJson(client, 'get_diagnostics', { path: 'bin.py' });
    expect(refused.text).toMatch(/^unavailable: the python language server command "no-such-pyright-binary" \(.*config\.yaml:\d+\) was not found on PATH/);
    const health = await okJson(client, 'index_health', {});
    expect(health.language_servers).toEqual([expect.objectContaining({ server: 'python', available: false, command: ['no-such-pyright-binary', '--stdio'] })]);
    // A repository file may not choose the command unless the user's config allows it.
    fs.writeFileSync(path.join(root, '.gortex.yaml'), 'lsp:\n  python:\n    command: /bin/false\n');
    fs.writeFileSync(path.join(xdg, 'gortex', 'config.yaml'), '');
    const builtIn = await okJson(client, 'index_health', {});
    expect(builtIn.language_servers[0]).toMatchObject({ available: true, source: 'built-in' });
    fs.rmSync(path.join(root, '.gortex.yaml'));
  });
});

const GO_MAIN = 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tvar s string = add(1, 2)\n\tfmt.Println(s)\n}\n';
const CPP_MAIN = '#include <cstdio>\n\nint twice(int x) { return x * 2; }\n\nint main() {\n  int value = twice(2)\n  std::printf("%d\\n", value);\n  return 0;\n}\n';

describe('language servers (Go: gopls, C++: clangd)', () => {
  useTempHome();
  const roots: string[] = [];
  const repos: EmbeddedRepo[] = [];
  const clients: Client[] = [];

  async function serve(name: string, files: Record<string, string>): Promise<{ root: string; client: Client }> {
    const root = gitRepo(name, files);
    const repo = await openEmbedded(root, { watch: false });
    const client = await serveEmbedded(repo);
    roots.push(root);
    repos.push(repo);
    clients.push(client);
    return { root, client };
  }

  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const r of repos) r.close();
    for (const root of roots) await lspPool().stop(root);
  });

  it('reports gopls diagnostics and organizes imports by kind', async () => {
    const { root, client } = await serve('lsp-go', { 'go.mod': 'module example.com/fix\n\ngo 1.21\n', 'main.go': GO_MAIN });
    const got = await okJson(client, 'get_diagnostics', { path: 'main.go' });
    expect(got).toMatchObject({ server: 'go', published: true, server_info: expect.stringMatching(/^gopls v0\.23\.0$/) });
    expect(codes(got)).toEqual(['UnusedImport', 'IncompatibleAssign']);
    const listed = await okJson(client, 'get_code_actions', { path: 'main.go', line: 5, column: 2 });
    expect(listed.actions).toContainEqual(expect.objectContaining({ title: 'Organize Imports', kind: 'source.organizeImports', applies: 'edit', edit_files: ['main.go'] }));
    // A kind alone names the one action of that kind.
    const applied = await okJson(client, 'apply_code_action', { path: 'main.go', line: 5, column: 2, kind: 'source.organizeImports' });
    expect(applied).toMatchObject({ applied: 'Organize Imports', files: [{ path: 'main.go' }] });
    expect(codes(applied.diagnostics_after)).toEqual(['IncompatibleAssign']);
    expect(fs.readFileSync(path.join(root, 'main.go'), 'utf8')).not.toContain('"os"');
    await okJson(client, 'edit_file', { path: 'main.go', old_string: 'var s string = add(1, 2)', new_string: 's := add(1, 2)' });
    expect((await okJson(client, 'get_diagnostics', { path: 'main.go' })).counts.error).toBe(0);
  });

  it('reports clangd diagnostics and applies its fix-it', async () => {
    const { root, client } = await serve('lsp-cpp', { 'main.cpp': CPP_MAIN });
    const got = await okJson(client, 'get_diagnostics', { path: 'main.cpp' });
    expect(got).toMatchObject({ server: 'cpp', published: true });
    expect(got.diagnostics).toEqual([expect.objectContaining({ line: 7, severity: 'error', code: 'expected_semi_declaration', source: 'clang' })]);
    const fixed = await okJson(client, 'fix_all_in_file', { path: 'main.cpp' });
    expect(fixed).toMatchObject({ applied: [{ title: "insert ';'", kind: 'quickfix' }], after: { counts: { error: 0 } } });
    expect(fs.readFileSync(path.join(root, 'main.cpp'), 'utf8')).toContain('int value = twice(2);');
    const none = await callJson(client, 'apply_code_action', { path: 'main.cpp', line: 7, column: 3, kind: 'quickfix' });
    expect(none.text).toMatch(/^not_found: no enabled code action of kind quickfix at this location; there are: \[0\] .*\(refactor\)$/);
  });
});

describe('diagnostics pushed over stdio', () => {
  useTempHome();

  it('delivers notifications/diagnostics to a `gortex mcp` client', async () => {
    const root = gitRepo('lsp-stdio', { 'tsconfig.json': TSCONFIG, 'src/a.ts': "export const a: number = 'x';\n" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(packageRoot(), 'bin', 'run.js'), 'mcp', '--embedded', '--repo', root],
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'gortex-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const seen = collect(client);
      // The compact surface (the default for unknown clients) subscribes through session.
      const sub = await okJson(client, 'session', { operation: 'subscribe', channel: 'diagnostics' });
      expect(sub.subscribed).toBe('diagnostics');
      expect((await callJson(client, 'session', { operation: 'subscribe', channel: 'weather' })).text).toMatch(/^invalid_argument: session\.subscribe needs channel: one of daemon_health, diagnostics, graph_invalidated, stale_refs, workspace_readiness/);
      // A write opens the file in its server for the subscriber; the error arrives unasked.
      await okJson(client, 'edit', { operation: 'write', target: { file: 'src/b.ts' }, content: "export const b: string = 7;\n" });
      const pushed = await until('the pushed diagnostics', () => seen.find((n) => n.method === 'notifications/diagnostics' && n.params.path === 'src/b.ts'));
      expect(pushed.params.counts.error).toBe(1);
      const asked = await okJson(client, 'change', { operation: 'diagnostics', arguments: { path: 'src/a.ts' } });
      expect(asked.counts.error).toBe(1);
    } finally {
      await client.close();
    }
  });
});
