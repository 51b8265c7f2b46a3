/**
 * The refusals and repairs `gortex eval refactor` taught the refactoring tools, each on the
 * smallest program that showed it on a real corpus: a rename reaches `ns.name` through a namespace
 * import and never rewrites a built-in type spelled like the symbol; it refuses when the name is
 * used where the graph cannot tell by what (unless allow_unresolved); renames and deletes refuse
 * what an implicit contract binds (@Override, a Go interface's method, a Python dunder, overloads,
 * constructors); a delete refuses a name still mentioned; a nested Python function is renamed
 * with its local uses; a move keeps Go build constraints, imports a twice-declared name once,
 * puts imports at module level, and refuses a declaration inside a block. Checked with tsc,
 * go vet and python3 where the result is code.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PACKAGE_ROOT } from './helpers/cli';
import { callJson as call, okJson as ok, useEmbeddedServers } from './helpers/mcp';
import { gitRepo, runProgram as run, snapshotFiles as snapshot, useTempHome } from './helpers/repo';

const TSC = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsc');
const GO_ENV = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

useTempHome();

describe('refactoring safety', () => {
  const serve = useEmbeddedServers();
  async function refused(client: Client, root: string, tool: string, args: Record<string, unknown>, reason: RegExp): Promise<void> {
    const before = snapshot(root);
    const r = await call(client, tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(reason);
    expect(snapshot(root)).toEqual(before);
  }

  test('TypeScript: ns.name is renamed, `number` the type is not, an inlined result is cast whole, a namespace import blocks a move, a delete of a mentioned name refuses', async () => {
    const root = gitRepo('ts-safety', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2020', module: 'commonjs', lib: ['es2020'] }, include: ['src'] }),
      'src/regexes.ts': ['export const cidr = /x/;', '', 'export function number(value: number): number {', '  return value;', '}', '', 'export function isNil(x: unknown): boolean {', '  return x === null || x === undefined;', '}', '', 'export function isStr(x: unknown): x is string {', "  return typeof x === 'string';", '}', '', "export type Kind = 'a' | 'b';", '', 'export interface Shape {', '  kind: Kind;', '}', '', 'export const shapes: Shape[] = [];', '', 'export interface Ip {', '  v: number;', '}', 'export const Ip = { v: 4 };', ''].join('\n'),
      'src/use.ts': ["import * as regexes from './regexes';", "import { isNil } from './regexes';", '', 'export const n: number = regexes.number(2);', 'export const r = regexes.cidr;', 'export const nil: boolean = isNil(r);', ''].join('\n'),
      'src/other.ts': ['const table = { helper: 1 };', 'export const x = table.helper;', '', 'function helper(): number {', '  return 1;', '}', 'export const cb = [helper].length;', ''].join('\n'),
    });
    const client = await serve(root);
    const renamed = await ok(client, 'rename_symbol', { id: 'src/regexes.ts::number', new_name: 'num' });
    expect(renamed.status).toBe('applied');
    expect(read(root, 'src/regexes.ts')).toContain('export function num(value: number): number {');
    expect(read(root, 'src/use.ts')).toContain('export const n: number = regexes.num(2);');
    await ok(client, 'rename_symbol', { id: 'src/regexes.ts::cidr', new_name: 'cidrV4' });
    expect(read(root, 'src/use.ts')).toContain('regexes.cidrV4;');
    run(root, TSC, ['-p', '.']);
    // Inlined under its declared result type, the whole expression is cast (not its last operand).
    await ok(client, 'inline_symbol', { id: 'src/regexes.ts::isNil', delete_after: true });
    expect(read(root, 'src/use.ts')).toContain('export const nil: boolean = ((r === null || r === undefined) as boolean);');
    await refused(client, root, 'inline_symbol', { id: 'src/regexes.ts::isStr' }, /type guard/);
    // Types form no runtime cycle: Shape moves though regexes.ts keeps using it and it uses Kind from there.
    await ok(client, 'move_symbol', { id: 'src/regexes.ts::Shape', to: 'src/shape.ts' });
    expect(read(root, 'src/shape.ts')).toContain("import { Kind } from './regexes';");
    await refused(client, root, 'move_symbol', { id: 'src/regexes.ts::Ip', to: 'src/ip.ts' }, /declared 2 times .* merged by TypeScript/);
    // A namespace import cannot follow a moved declaration: refused, not broken.
    await refused(client, root, 'move_symbol', { id: 'src/regexes.ts::cidrV4', to: 'src/cidr.ts' }, /reaches cidrV4 as regexes\.cidrV4 through a namespace import/);
    run(root, TSC, ['-p', '.']);
    // `table.helper` is a property, not the function: it neither blocks the delete nor counts as a use...
    // ...but `[helper]` passes the function as a value the graph may not record: the delete refuses.
    const del = await call(client, 'safe_delete_symbol', { id: 'src/other.ts::helper' });
    if (!del.isError) throw new Error(`deleted: ${del.text}`);
    expect(del.text).toMatch(/in_use/);
    run(root, TSC, ['-p', '.']);
  }, 60_000);

  test('Go: an interface method and a Stringer are not renamed or deleted alone; a build constraint moves with the code; package-level names block a move out of the package', async () => {
    const root = gitRepo('go-safety', {
      'go.mod': 'module example.com/s\n\ngo 1.20\n',
      'r/render.go': ['package r', '', 'type Render interface {', '\tWriteContentType()', '}', '', 'type JSON struct{}', '', 'func (JSON) WriteContentType() {}', '', 'func (JSON) String() string { return "json" }', '', 'var _ Render = JSON{}', ''].join('\n'),
      'r/tag_fast.go': ['//go:build fast', '', 'package r', '', '// Mode names the build.', 'func Mode() string { return "fast" }', ''].join('\n'),
      'r/fsx.go': ['package r', '', 'import "os"', '', 'type wrap struct{}', '', 'func (wrap) openHelper() *os.File { return nil }', ''].join('\n'),
      'r/mode.go': ['package r', '', 'var debug = false', '', '// IsDebugging reports the mode.', 'func IsDebugging() bool { return debug }', ''].join('\n'),
      'r/tag_slow.go': ['//go:build !fast', '', 'package r', '', '// Mode names the build.', 'func Mode() string { return "slow" }', ''].join('\n'),
    });
    const client = await serve(root);
    await refused(client, root, 'rename_symbol', { id: 'r/render.go::JSON.WriteContentType', new_name: 'Write2' }, /interface Render .* requires a method WriteContentType/);
    await refused(client, root, 'safe_delete_symbol', { id: 'r/render.go::JSON.String' }, /standard-library interface/);
    await ok(client, 'move_symbol', { id: 'r/tag_fast.go::Mode', to: 'r/mode_fast.go' });
    expect(read(root, 'r/mode_fast.go')).toBe('//go:build fast\n\npackage r\n\n// Mode names the build.\nfunc Mode() string { return "fast" }\n');
    await refused(client, root, 'move_symbol', { id: 'r/tag_slow.go::Mode', to: 'r/render.go' }, /different build constraints/);
    await refused(client, root, 'move_symbol', { id: 'r/mode.go::IsDebugging', to: 'dbg' }, /uses debug of package r/);
    // A delete takes the imports only the deleted code used (Go would not build with them).
    await ok(client, 'safe_delete_symbol', { id: 'r/fsx.go::wrap.openHelper' });
    expect(read(root, 'r/fsx.go')).toBe('package r\n\ntype wrap struct{}\n');
    run(root, 'go', ['vet', './...'], GO_ENV);
    run(root, 'go', ['vet', '-tags', 'fast', './...'], GO_ENV);
  }, 60_000);

  test('Java and Python: @Override, dunders, overloads, constructors and a file-named type refuse; a nested function is renamed with its uses, a string annotation too; a block-nested def is not moved', async () => {
    const root = gitRepo('jp-safety', {
      'src/a/P.java': [
        'package a;',
        '',
        'public class P {',
        '  public P() {}',
        '',
        '  @Override',
        '  public String toString() {',
        '    return "p";',
        '  }',
        '',
        '  static int f(int x) {',
        '    return x;',
        '  }',
        '',
        '  static int f(String s) {',
        '    return 1;',
        '  }',
        '}',
        '',
      ].join('\n'),
      'pkg/__init__.py': ['"""A package."""', 'import sys', '', '', 'def check(v):', '    return v > 0', '', '', 'ok = check(sys.version_info[0])', '', 'from . import extra  # noqa: E402', ''].join('\n'),
      'pkg/extra.py': 'X = 1\n',
      'src/a/Scope.java': ['package a;', '', 'final class Scope {', '  static final int EMPTY = 1;', '}', ''].join('\n'),
      'src/a/Writer.java': ['package a;', '', 'import static a.Scope.EMPTY;', '', 'public class Writer {', '  public int state() {', '    return EMPTY;', '  }', '}', ''].join('\n'),
      'src/a/Consts.java': ['package a;', '', 'public class Consts {', '  static final int LIMIT = 3;', '}', ''].join('\n'),
      'src/a/Tree.java': ['package a;', '', 'public class Tree {', '  static final class Node {', '    final int v;', '', '    Node(int v) {', '      this.v = v;', '    }', '  }', '', '  public int root() {', '    return new Node(4).v;', '  }', '}', ''].join('\n'),
      'src/a/Reader.java': ['package a;', '', 'import static a.Consts.LIMIT;', '', 'public class Reader {', '  public int max() {', '    return LIMIT + 1;', '  }', '}', ''].join('\n'),
      'src/a/Limits.java': ['package a;', '', 'import static a.Consts.LIMIT;', '', 'public class Limits {', '  public int limit() {', '    return LIMIT;', '  }', '}', ''].join('\n'),
      'm.py': [
        'import sys',
        '',
        '',
        'class Box:',
        '    def __len__(self):',
        '        return 0',
        '',
        '',
        'def size(b: "Box") -> "list[Box]":',
        '    return [b]',
        '',
        '',
        'labels = {"kind": "Box"}',
        '',
        '',
        'def outer(x):',
        '    def inner(y):',
        '        return y + 1',
        '    fn = inner',
        '    return fn(x)',
        '',
        '',
        'if sys.platform == "win32":',
        '    def only_windows():',
        '        return 1',
        '',
        'print(outer(1))',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    await refused(client, root, 'rename_symbol', { id: 'src/a/P.java::P.toString', new_name: 'show' }, /overrides a method of a supertype/);
    await refused(client, root, 'safe_delete_symbol', { id: 'src/a/P.java::P.P' }, /constructor/);
    await refused(client, root, 'rename_symbol', { id: 'src/a/P.java::P.f', new_name: 'g' }, /overloaded/);
    await refused(client, root, 'rename_symbol', { id: 'src/a/P.java::P.f_L15', new_name: 'g' }, /overloaded/);
    await refused(client, root, 'rename_symbol', { id: 'src/a/P.java::P.P', new_name: 'Q' }, /constructor.*rename the class instead/);
    await refused(client, root, 'rename_symbol', { id: 'src/a/P.java::P', new_name: 'Q' }, /the type its file is named after/);
    await refused(client, root, 'safe_delete_symbol', { id: 'm.py::Box.__len__' }, /protocol method/);
    await refused(client, root, 'move_symbol', { id: 'src/a/Writer.java::Writer', to: 'src/a/out' }, /imports a\.Scope\.EMPTY, and Scope is package-private/);
    await refused(client, root, 'move_symbol', { id: 'src/a/Limits.java::Limits', to: 'src/a/out' }, /imports a\.Consts\.LIMIT, which is not public/);
    // Its package keeps using a package-private member through a static import: the class cannot leave.
    await refused(client, root, 'move_symbol', { id: 'src/a/Consts.java::Consts', to: 'src/a/out' }, /uses Consts\.LIMIT, which is not public/);
    // A class is renamed with its constructors.
    await ok(client, 'rename_symbol', { id: 'src/a/Tree.java::Tree.Node', new_name: 'Cell' });
    expect(read(root, 'src/a/Tree.java')).toContain('    Cell(int v) {');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-javac-'));
    run(root, 'javac', ['-d', out, ...['P', 'Scope', 'Writer', 'Consts', 'Limits', 'Tree', 'Reader'].map((c) => `src/a/${c}.java`)]);
    await refused(client, root, 'move_symbol', { id: 'm.py::only_windows', to: 'w.py' }, /inside a block/);
    // A string annotation is code (renamed); a string value is not.
    await ok(client, 'rename_symbol', { id: 'm.py::Box', new_name: 'Crate' });
    expect(read(root, 'm.py')).toContain('def size(b: "Crate") -> "list[Crate]":');
    expect(read(root, 'm.py')).toContain('labels = {"kind": "Box"}');
    await ok(client, 'rename_symbol', { id: 'm.py::outer.inner', new_name: 'bump' });
    expect(read(root, 'm.py')).toContain('    def bump(y):\n        return y + 1\n    fn = bump\n');
    expect(run(root, 'python3', ['m.py'])).toBe('2\n');
    // The old module still calls it at import time: its new import goes in the opening block, before that call.
    await ok(client, 'move_symbol', { id: 'pkg/__init__.py::check', to: 'pkg/checks.py' });
    expect(read(root, 'pkg/__init__.py')).toMatch(/^"""A package\."""\nimport sys\nfrom pkg\.checks import check\n/);
    expect(run(root, 'python3', ['-c', 'import pkg; print(pkg.ok)'])).toBe('True\n');
  }, 60_000);
});
