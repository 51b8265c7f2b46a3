/**
 * rename_symbol through the real MCP server on real repositories, checked by the languages' own
 * tools: after a rename the TypeScript project still type-checks (`tsc --noEmit`) and the Go module
 * still builds and vets (`go vet ./...`), the graph has the new name with as many references as
 * the old one had, and a Go test named after the function follows it. Whole identifiers only;
 * refusals (collision, a method in an override hierarchy, planning mode) write nothing. And
 * safe_delete_symbol: refused while anything uses the declaration, cascading to what it leaves unused.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openEmbedded, type EmbeddedRepo } from '../ts/workspace/embedded';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { serveEmbedded } from './helpers/mcp';
import { gitRepo, tempHome, useTempHome } from './helpers/repo';

const TSC = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsc');

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: { ...args, format: 'json' } })) as { isError?: boolean; content: { text: string }[] };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return JSON.parse(result.content[0]!.text);
}

async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  if (!result.isError) throw new Error(`${name} answered: ${result.content[0]?.text.slice(0, 300)}`);
  return result.content[0]!.text;
}

const TS_PROJECT: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'commonjs', noEmit: true, lib: ['es2020'] }, include: ['src'] }),
  'src/store.ts': [
    'export interface Item {',
    '  name: string;',
    '}',
    '',
    '/** Keeps items; openStore makes one. */',
    'export class Store {',
    '  private items: Item[] = [];',
    '  save(item: Item): void {',
    '    this.items.push(item);',
    '  }',
    '  count(): number {',
    '    return this.items.length;',
    '  }',
    '}',
    '',
    'export function openStore(): Store {',
    '  return new Store();',
    '}',
    '',
    'export function Get(): number {',
    '  return 1;',
    '}',
    '',
    'export function GetUser(): number {',
    '  return Get() + 1;',
    '}',
    '',
    'export interface Shape {',
    '  area(): number;',
    '}',
    '',
    'export class Square implements Shape {',
    '  area(): number {',
    '    return 4;',
    '  }',
    '}',
    '',
    '/** Nobody calls this any more. */',
    'export function legacyEntry(): string {',
    '  return legacyHelper();',
    '}',
    '',
    'function legacyHelper(): string {',
    "  return 'legacy';",
    '}',
    '',
  ].join('\n'),
  'src/app.ts': [
    "import { openStore, Store, Get, GetUser } from './store';",
    '',
    'export function run(): number {',
    '  const s: Store = openStore();',
    "  s.save({ name: 'openStore' });",
    '  return s.count() + Get() + GetUser();',
    '}',
    '',
  ].join('\n'),
};

const GO_MODULE: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.21\n',
  'store/store.go': [
    'package store',
    '',
    '// Store keeps names.',
    'type Store struct {',
    '\tnames []string',
    '}',
    '',
    '// Open makes a Store.',
    'func Open() *Store {',
    '\treturn &Store{}',
    '}',
    '',
    '// OpenAll makes n Stores.',
    'func OpenAll(n int) []*Store {',
    '\tout := make([]*Store, 0, n)',
    '\tfor i := 0; i < n; i++ {',
    '\t\tout = append(out, Open())',
    '\t}',
    '\treturn out',
    '}',
    '',
    '// leftover is used by nothing.',
    'func leftover() int {',
    '\treturn 1',
    '}',
    '',
  ].join('\n'),
  'store/store_test.go': ['package store', '', 'import "testing"', '', 'func TestOpen(t *testing.T) {', '\tif Open() == nil {', '\t\tt.Fatal("nil")', '\t}', '}', ''].join('\n'),
  'main.go': ['package main', '', 'import "example.com/shop/store"', '', 'func main() {', '\ts := store.Open()', '\t_ = s', '\t_ = store.OpenAll(2)', '}', ''].join('\n'),
};

describe('rename_symbol', () => {
  useTempHome();
  const opened: EmbeddedRepo[] = [];
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const r of opened) r.close();
  });
  async function session(root: string): Promise<Client> {
    const repo = await openEmbedded(root, { watch: true });
    opened.push(repo);
    const client = await serveEmbedded(repo);
    clients.push(client);
    return client;
  }
  const tsc = (root: string): { status: number | null; out: string } => {
    const r = spawnSync(TSC, ['-p', root], { encoding: 'utf8' });
    return { status: r.status, out: r.stdout + r.stderr };
  };

  test('TypeScript: a function, whole identifiers only; the project still type-checks and the graph follows', async () => {
    const root = gitRepo('tsrename', TS_PROJECT);
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    const client = await session(root);

    const preview = await ok(client, 'rename_symbol', { id: 'tsrename/src/store.ts::Get', new_name: 'Fetch', dry_run: true });
    expect(preview.status).toBe('would_apply');
    expect(preview.edits.map((e: any) => `${e.path}:${e.line} ${e.after.trim()}`)).toEqual([
      "src/app.ts:1 import { openStore, Store, Fetch, GetUser } from './store';",
      'src/app.ts:6 return s.count() + Fetch() + GetUser();',
      'src/store.ts:20 export function Fetch(): number {',
      'src/store.ts:25 return Fetch() + 1;',
    ]);
    expect(fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8')).toContain('export function Get(): number');

    const applied = await ok(client, 'rename_symbol', { id: 'tsrename/src/store.ts::Get', new_name: 'Fetch' });
    expect(applied).toMatchObject({ status: 'applied', new_id: 'tsrename/src/store.ts::Fetch', edit_count: 4 });
    expect(applied.references.after).toBe(applied.references.before);
    expect(applied.files.map((f: any) => f.path)).toEqual(['src/app.ts', 'src/store.ts']);
    expect(fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8')).toContain('export function GetUser(): number');
    expect(tsc(root)).toEqual({ status: 0, out: '' });

    // A function whose name also appears in a comment and a string: those are reported, not changed.
    const factory = await ok(client, 'rename_symbol', { id: 'tsrename/src/store.ts::openStore', new_name: 'createStore' });
    expect(factory.status).toBe('applied');
    expect(factory.not_changed.lines.map((l: any) => `${l.path}:${l.line}`).sort()).toEqual(['src/app.ts:5', 'src/store.ts:5']);
    expect(tsc(root)).toEqual({ status: 0, out: '' });

    // A method through its typed receiver.
    const method = await ok(client, 'rename_symbol', { id: 'tsrename/src/store.ts::Store.save', new_name: 'put' });
    expect(method.edits.map((e: any) => `${e.path}:${e.line}`)).toEqual(['src/app.ts:5', 'src/store.ts:8']);
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    expect((await ok(client, 'search_symbols', { query: 'put' })).results[0]).toMatchObject({ id: 'tsrename/src/store.ts::Store.put' });
  });

  test('refusals write nothing: a collision, a method in an override hierarchy, a non-identifier, planning mode', async () => {
    const root = gitRepo('tsrefuse', TS_PROJECT);
    const client = await session(root);
    const before = fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8');
    expect(await refusal(client, 'rename_symbol', { id: 'tsrefuse/src/store.ts::Get', new_name: 'GetUser' })).toMatch(/^conflict: src\/store\.ts already declares GetUser in the same scope/);
    expect(await refusal(client, 'rename_symbol', { id: 'tsrefuse/src/store.ts::Square.area', new_name: 'surface' })).toMatch(/^hierarchy: .*Square\.area overrides or is overridden by .*Shape\.area/);
    expect(await refusal(client, 'rename_symbol', { id: 'tsrefuse/src/store.ts::Get', new_name: 'get-it' })).toMatch(/^invalid_argument: new_name "get-it" is not an identifier/);
    // The other refactor tools refuse bad input the same way, before writing anything.
    expect(await refusal(client, 'safe_delete_symbol', { id: 'tsrefuse/src/store.ts' })).toMatch(/^invalid_argument: tsrefuse\/src\/store\.ts is a file; safe_delete_symbol deletes declarations/);
    expect(await refusal(client, 'scaffold', { id: 'tsrefuse/src/store.ts::Get', new_name: '2x' })).toMatch(/^invalid_argument: new_name "2x" is not an identifier/);
    expect(await refusal(client, 'batch_edit', { changes: [{ operation: 'symbol', new_source: 'x' }] })).toMatch(/^invalid_argument: changes\[0\]: a symbol change needs id/);
    expect(await refusal(client, 'batch_edit', { changes: [{ operation: 'file', old_string: 'a', new_string: 'b' }] })).toMatch(/^invalid_argument: changes\[0\]: a file change needs path/);
    expect(await refusal(client, 'batch_edit', { changes: [] })).toMatch(/^invalid_argument: batch_edit: changes/);
    await ok(client, 'set_planning_mode', { enabled: true });
    expect(await refusal(client, 'rename_symbol', { id: 'tsrefuse/src/store.ts::Get', new_name: 'Fetch' })).toMatch(/^planning_mode: /);
    await ok(client, 'set_planning_mode', { enabled: false });
    expect(fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8')).toBe(before);
  });

  test('safe_delete_symbol: refused while used, previews and deletes what it leaves unused; the project still type-checks', async () => {
    const root = gitRepo('tsdelete', TS_PROJECT);
    const client = await session(root);
    expect(await refusal(client, 'safe_delete_symbol', { id: 'tsdelete/src/store.ts::Get' })).toMatch(/^in_use: tsdelete\/src\/store\.ts::Get is still used at \d+ places \(.*src\/app\.ts:6 by run.*remove those uses first; nothing was written/);
    expect(await refusal(client, 'safe_delete_symbol', { id: 'tsdelete/src/store.ts::Square.area' })).toMatch(/^hierarchy: /);
    const preview = await ok(client, 'safe_delete_symbol', { id: 'tsdelete/src/store.ts::legacyEntry', cascade: 'preview', dry_run: true });
    expect(preview).toMatchObject({
      status: 'would_apply',
      deleted: [{ id: 'tsdelete/src/store.ts::legacyEntry', path: 'src/store.ts', lines: [38, 42] }],
      orphans: [{ id: 'tsdelete/src/store.ts::legacyHelper', path: 'src/store.ts', line: 43 }],
    });
    expect(preview.note).toMatch(/was exported/);
    expect(fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8')).toContain('legacyEntry');
    const applied = await ok(client, 'safe_delete_symbol', { id: 'tsdelete/src/store.ts::legacyEntry', cascade: 'apply' });
    expect(applied.cascaded).toEqual(['tsdelete/src/store.ts::legacyHelper']);
    const store = fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8');
    expect(store).not.toMatch(/legacy|Nobody calls/);
    expect(store.endsWith('    return 4;\n  }\n}\n')).toBe(true);
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    expect((await ok(client, 'search_symbols', { query: 'legacyHelper' })).results).toEqual([]);
  });

  test('batch_edit: creates first, then each file before its importers; a refused step undoes the batch; a kill is undone on the next open', async () => {
    const root = gitRepo('tsbatch', TS_PROJECT);
    const client = await session(root);
    const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
    const changes = [
      // Given callers first: app.ts imports store.ts, so store.ts goes first.
      { operation: 'file', path: 'src/app.ts', old_string: 'Get() + GetUser()', new_string: 'Get() + GetUser() + twice(1)' },
      { operation: 'file', path: 'src/app.ts', old_string: "import { openStore, Store, Get, GetUser } from './store';", new_string: "import { openStore, Store, Get, GetUser } from './store';\nimport { twice } from './math';" },
      { operation: 'symbol', id: 'tsbatch/src/store.ts::Get', new_source: 'export function Get(): number {\n  return 2;\n}' },
      { operation: 'write', path: 'src/math.ts', content: 'export function twice(n: number): number {\n  return 2 * n;\n}\n' },
    ];
    const applied = await ok(client, 'batch_edit', { changes });
    expect(applied.status).toBe('applied');
    expect(applied.order).toEqual([3, 2, 0, 1]);
    expect(applied.files.map((f: any) => f.path)).toEqual(['src/math.ts', 'src/store.ts', 'src/app.ts']);
    expect(read('src/app.ts')).toContain("import { twice } from './math';");
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    expect((await ok(client, 'get_callers', { id: 'tsbatch/src/math.ts::twice' })).callers.map((c: any) => c.caller.qual_name)).toEqual(['run']);

    // The third step is refused (its text is not there): the two before it are undone.
    const before = { app: read('src/app.ts'), store: read('src/store.ts') };
    const refused = await refusal(client, 'batch_edit', {
      changes: [
        { operation: 'file', path: 'src/store.ts', old_string: 'return 2;', new_string: 'return 3;' },
        { operation: 'file', path: 'src/app.ts', old_string: 'twice(1)', new_string: 'twice(2)' },
        { operation: 'file', path: 'src/app.ts', old_string: 'not in the file', new_string: 'x' },
      ],
    });
    expect(refused).toMatch(/^not_found: changes\[2\] \(edit_file src\/app\.ts\) was refused: .*The 2 changes before it were undone \(src\/store\.ts, src\/app\.ts\); nothing of the batch is written/);
    expect({ app: read('src/app.ts'), store: read('src/store.ts') }).toEqual(before);
    expect((await ok(client, 'get_symbol_source', { id: 'tsbatch/src/store.ts::Get' })).source).toContain('return 2;');

    // Killed after its first step: the next open undoes it.
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const killed = runCli(
      ['call', 'batch_edit', '--repo', root, '--embedded', '--json-args', JSON.stringify({ changes: [changes[2], { operation: 'file', path: 'src/math.ts', old_string: '2 * n', new_string: 'n + n' }].map((c, i) => (i === 0 ? { ...c, new_source: 'export function Get(): number {\n  return 9;\n}' } : c)) })],
      { env: { ...env, GORTEX_FAULT_KILL_AFTER_WRITES: '1' } },
    );
    expect(killed.signal).toBe('SIGKILL');
    expect(read('src/store.ts')).toContain('return 9;');
    const next = runCli(['call', 'search_symbols', '--repo', root, '--embedded', '--arg', 'query=Get'], { env });
    expect(next.stderr).toMatch(/undid a write .* restored src\/store\.ts/);
    expect(read('src/store.ts')).toBe(before.store);
  });

  test('verify_change: call sites and the override family against a proposed signature', async () => {
    const root = gitRepo('tsverify', TS_PROJECT);
    const client = await session(root);
    const breaking = await ok(client, 'verify_change', { id: 'tsverify/src/store.ts::Get', new_signature: 'export function Get(scale: number): number' });
    expect(breaking).toMatchObject({ verdict: 'breaking', breaking: 2, params: { before: '0 required of 0', after: '1 required of 1' } });
    expect(breaking.callers.map((c: any) => [`${c.path}:${c.line}`, c.arguments, c.compatible])).toEqual([
      ['src/app.ts:6', 0, false],
      ['src/store.ts:25', 0, false],
    ]);
    expect(breaking.callers[0].reason).toBe('passes 0 arguments; the new signature takes 1 required of 1');
    const optional = await ok(client, 'verify_change', { id: 'tsverify/src/store.ts::Get', new_signature: 'export function Get(scale?: number, ...rest: number[]): number' });
    expect(optional).toMatchObject({ verdict: 'compatible', breaking: 0, params: { after: '0 required of 1 + variadic' } });
    const method = await ok(client, 'verify_change', { id: 'tsverify/src/store.ts::Square.area', new_signature: 'area(precision: number): number' });
    expect(method.verdict).toBe('breaking');
    expect(method.hierarchy).toEqual([expect.objectContaining({ id: 'tsverify/src/store.ts::Shape.area', relation: 'overrides', must_change: true })]);
    expect(await refusal(client, 'verify_change', { id: 'tsverify/src/store.ts::Get', new_signature: 'something else' })).toMatch(/^invalid_argument: new_signature must name Get/);
  });

  test('get_edit_plan: the declaration and its family first, then its users in import order', async () => {
    const root = gitRepo('tsplan', TS_PROJECT);
    const client = await session(root);
    const plan = await ok(client, 'get_edit_plan', { ids: ['tsplan/src/store.ts::Get', 'tsplan/src/store.ts::Square.area'] });
    expect(plan.steps.map((s: any) => [s.step, s.path, s.role])).toEqual([
      [1, 'src/store.ts', 'definition'],
      [2, 'src/app.ts', 'caller'],
    ]);
    expect(plan.steps[0].sites.map((s: any) => [s.id, s.role])).toEqual([
      ['tsplan/src/store.ts::Get', 'definition'],
      ['tsplan/src/store.ts::Square.area', 'definition'],
      ['tsplan/src/store.ts::Shape.area', 'hierarchy'],
      ['tsplan/src/store.ts::GetUser', 'caller'],
    ]);
    expect(plan.steps[1].sites.every((s: any) => s.because === 'tsplan/src/store.ts::Get')).toBe(true);
  });

  test('suggest_pattern and scaffold: a new declaration like the example, its registration and its test; tsc and go vet pass', async () => {
    const root = gitRepo('tsscaffold', TS_PROJECT);
    const client = await session(root);
    const found = await ok(client, 'suggest_pattern', { id: 'tsscaffold/src/store.ts::openStore' });
    expect(found.example).toMatchObject({ path: 'src/store.ts', start_line: 16, end_line: 18, source: 'export function openStore(): Store {\n  return new Store();\n}' });
    expect(found.wiring).toEqual([{ path: 'src/app.ts', line: 1, kind: 'import', text: "import { openStore, Store, Get, GetUser } from './store';" }]);
    const made = await ok(client, 'scaffold', { id: 'tsscaffold/src/store.ts::openStore', new_name: 'openCache', wire: true });
    expect(made).toMatchObject({ status: 'applied', new_id: 'tsscaffold/src/store.ts::openCache', wiring: [{ path: 'src/app.ts', line: 1, kind: 'import' }] });
    expect(fs.readFileSync(path.join(root, 'src/store.ts'), 'utf8')).toContain('export function openStore(): Store {\n  return new Store();\n}\n\nexport function openCache(): Store {\n  return new Store();\n}\n');
    expect(fs.readFileSync(path.join(root, 'src/app.ts'), 'utf8')).toContain("import { openStore, openCache, Store, Get, GetUser } from './store';");
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    expect((await ok(client, 'search_symbols', { query: 'openCache' })).results[0]).toMatchObject({ id: 'tsscaffold/src/store.ts::openCache' });
    expect(await refusal(client, 'scaffold', { id: 'tsscaffold/src/store.ts::openStore', new_name: 'openCache' })).toMatch(/^conflict: src\/store\.ts already declares openCache/);

    const goRoot = gitRepo('goscaffold', GO_MODULE);
    const goClient = await session(goRoot);
    const goMade = await ok(goClient, 'scaffold', { id: 'goscaffold/store/store.go::Open', new_name: 'Reopen' });
    expect(goMade.tests_copied).toEqual(['goscaffold/store/store_test.go::TestOpen']);
    expect(fs.readFileSync(path.join(goRoot, 'store/store.go'), 'utf8')).toContain('// Reopen makes a Store.\nfunc Reopen() *Store {'.split('\n')[1]!);
    expect(fs.readFileSync(path.join(goRoot, 'store/store_test.go'), 'utf8')).toContain('func TestReopen(t *testing.T) {\n\tif Reopen() == nil {');
    const vet = spawnSync('go', ['vet', './...'], { cwd: goRoot, env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' }, encoding: 'utf8' });
    expect(vet.stderr).toBe('');
    expect(vet.status).toBe(0);
  });

  test('gortex edit verify|plan|delete|batch|guards, and index_repository', () => {
    const root = gitRepo('tscli', TS_PROJECT);
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const edit = (...args: string[]): ReturnType<typeof runCli> => runCli(['edit', ...args, '--repo', root, '--embedded'], { env });
    const verify = edit('verify', 'Get', 'export function Get(scale: number): number');
    expect(verify.stdout).toMatch(/^breaking: 0 required of 0 → 1 required of 1; 2 breaking, 0 to check\n  breaks src\/app\.ts:6  passes 0 arguments/);
    const plan = edit('plan', 'Get');
    expect(plan.stdout).toMatch(/^1\. src\/store\.ts \(definition\)\n/);
    expect(plan.stdout).toContain('2. src/app.ts (caller)');
    const deleted = edit('delete', 'tscli/src/store.ts::legacyEntry', '--cascade', 'apply');
    expect(deleted.stdout).toContain('deleted tscli/src/store.ts::legacyEntry  src/store.ts:38-42');
    expect(deleted.stdout).toContain('deleted tscli/src/store.ts::legacyHelper');
    const changes = path.join(os.tmpdir(), `gortex-batch-${process.pid}.json`);
    fs.writeFileSync(changes, JSON.stringify([{ operation: 'file', path: 'src/app.ts', old_string: 'GetUser();', new_string: 'GetUser() + 0;' }]));
    expect(edit('batch', '--from', changes).stdout).toMatch(/^applied 1 change in order 0\n  0: applied src\/app\.ts \(new sha [0-9a-f]{40}\)\n$/);
    expect(tsc(root)).toEqual({ status: 0, out: '' });
    const guards = edit('guards');
    expect(guards.status).toBe(0);
    expect(guards.stdout).toContain('no guards.rules in .gortex.yaml');
    fs.writeFileSync(path.join(root, '.gortex.yaml'), 'guards:\n  rules:\n    - name: app-not-store\n      kind: boundary\n      source: src/app.ts\n      target: src/store.ts\n');
    const broken = edit('guards', '--all');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/^failed: \d+ violations? of 1 rule\n  error app-not-store: src\/app\.ts must not depend on src\/store\.ts/);

    const reindexed = runCli(['call', 'index_repository', '--repo', root, '--embedded'], { env });
    expect(JSON.parse(reindexed.stdout)).toMatchObject({ action: 'reindexed', repo: 'tscli' });
    const elsewhere = runCli(['call', 'index_repository', '--repo', root, '--embedded', '--arg', `path=${os.tmpdir()}`], { env });
    expect(elsewhere.status).toBe(2);
    expect(elsewhere.stderr).toMatch(/not_available: this session serves one repository/);
  });

  test('rename in Python, Java and Rust: the code still runs, compiles and checks', async () => {
    const py = gitRepo('pyrename', {
      'shop/__init__.py': '',
      'shop/store.py': 'def open_store():\n    return Store()\n\n\nclass Store:\n    def save(self, item):\n        return item\n',
      'shop/app.py': 'from shop.store import open_store\n\n\ndef run():\n    s = open_store()\n    return s.save(1)\n',
      'tests/test_store.py': 'from shop.store import open_store\n\n\ndef test_open_store():\n    assert open_store() is not None\n',
    });
    const pyClient = await session(py);
    const pyRenamed = await ok(pyClient, 'rename_symbol', { id: 'pyrename/shop/store.py::open_store', new_name: 'make_store' });
    expect(pyRenamed.references.after).toBe(pyRenamed.references.before);
    const ran = spawnSync('python3', ['-c', 'from shop.app import run; import tests.test_store as t; t.test_make_store(); print(run())'], { cwd: py, encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe('1\n');

    const java = gitRepo('javarename', {
      'src/com/acme/Store.java': 'package com.acme;\n\npublic class Store {\n    public static Store open() {\n        return new Store();\n    }\n\n    public int save(int item) {\n        return item;\n    }\n}\n',
      'src/com/acme/App.java': 'package com.acme;\n\npublic class App {\n    public static void main(String[] args) {\n        Store s = Store.open();\n        System.out.println(s.save(1));\n    }\n}\n',
    });
    const javaClient = await session(java);
    expect((await ok(javaClient, 'rename_symbol', { id: 'javarename/src/com/acme/Store.java::Store.save', new_name: 'put' })).edit_count).toBe(2);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-javac-'));
    const javac = spawnSync('javac', ['-d', out, 'src/com/acme/Store.java', 'src/com/acme/App.java'], { cwd: java, encoding: 'utf8' });
    expect(javac.stderr).toBe('');
    expect(spawnSync('java', ['-cp', out, 'com.acme.App'], { encoding: 'utf8' }).stdout).toBe('1\n');

    const rust = gitRepo('rustrename', {
      'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/lib.rs': 'pub mod store;\n\npub fn run() -> i32 {\n    store::open_store().save(1)\n}\n',
      'src/store.rs': 'pub struct Store;\n\npub fn open_store() -> Store {\n    Store\n}\n\nimpl Store {\n    pub fn save(&self, item: i32) -> i32 {\n        item\n    }\n}\n',
    });
    const rustClient = await session(rust);
    await ok(rustClient, 'rename_symbol', { id: 'rustrename/src/store.rs::open_store', new_name: 'make_store' });
    expect(fs.readFileSync(path.join(rust, 'src/lib.rs'), 'utf8')).toContain('store::make_store().save(1)');
    const check = spawnSync('cargo', ['check', '--offline', '--quiet'], { cwd: rust, env: { ...process.env, CARGO_TARGET_DIR: path.join(os.tmpdir(), `gortex-rename-check-${process.pid}`) }, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  test('a rename killed between its files is undone when the repository is next opened', () => {
    const root = gitRepo('tskill', TS_PROJECT);
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const call = (extra: Record<string, string>, ...args: string[]): ReturnType<typeof runCli> =>
      runCli(['call', ...args, '--repo', root, '--embedded'], { env: { ...env, ...extra } });
    const killed = call({ GORTEX_FAULT_KILL_AFTER_WRITES: '1' }, 'rename_symbol', '--arg', 'id=tskill/src/store.ts::Get', '--arg', 'new_name=Fetch');
    expect(killed.signal).toBe('SIGKILL');
    // Half-written: the first file has the new name, the second the old one.
    const status = (): string => execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
    expect(status()).toBe(' M src/app.ts\n');
    expect(fs.readdirSync(path.join(env.GORTEX_HOME, 'journal'))).toHaveLength(1);
    const next = call({}, 'search_symbols', '--arg', 'query=Get');
    expect(next.status).toBe(0);
    expect(next.stderr).toMatch(/undid a write to .*tskill interrupted midway: restored src\/app\.ts/);
    expect(status()).toBe('');
    expect(fs.readdirSync(path.join(env.GORTEX_HOME, 'journal'))).toEqual([]);
    // And the rename then goes through whole.
    expect(JSON.parse(call({}, 'rename_symbol', '--arg', 'id=tskill/src/store.ts::Get', '--arg', 'new_name=Fetch').stdout)).toMatchObject({ status: 'applied', edit_count: 4 });
    expect(tsc(root)).toEqual({ status: 0, out: '' });
  });

  test('Go: the function, its qualified uses and the test named after it; go vet passes', async () => {
    const root = gitRepo('gorename', GO_MODULE);
    const goEnv = { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    expect(spawnSync('go', ['vet', './...'], { cwd: root, env: goEnv, encoding: 'utf8' }).status).toBe(0);
    const client = await session(root);
    const renamed = await ok(client, 'rename_symbol', { id: 'gorename/store/store.go::Open', new_name: 'Connect' });
    expect(renamed.status).toBe('applied');
    expect(renamed.tests_renamed).toEqual([{ id: 'gorename/store/store_test.go::TestOpen', from: 'TestOpen', to: 'TestConnect' }]);
    const store = fs.readFileSync(path.join(root, 'store/store.go'), 'utf8');
    expect(store).toContain('func Connect() *Store {');
    expect(store).toContain('func OpenAll(n int) []*Store {');
    expect(store).toContain('out = append(out, Connect())');
    expect(fs.readFileSync(path.join(root, 'main.go'), 'utf8')).toContain('s := store.Connect()');
    expect(fs.readFileSync(path.join(root, 'store/store_test.go'), 'utf8')).toContain('func TestConnect(t *testing.T) {\n\tif Connect() == nil {');
    const gone = await ok(client, 'safe_delete_symbol', { id: 'gorename/store/store.go::leftover' });
    expect(gone.deleted).toEqual([{ id: 'gorename/store/store.go::leftover', path: 'store/store.go', lines: [22, 26] }]);
    expect(fs.readFileSync(path.join(root, 'store/store.go'), 'utf8')).not.toMatch(/leftover/);
    const vet = spawnSync('go', ['vet', './...'], { cwd: root, env: goEnv, encoding: 'utf8' });
    expect(vet.stderr).toBe('');
    expect(vet.status).toBe(0);
  });
});
