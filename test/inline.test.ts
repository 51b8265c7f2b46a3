/**
 * inline_symbol through the real MCP server on small programs in five languages: each program is
 * run (tsc + node, python3, go run, javac + java, cargo run) before and after the inline and must
 * print the same thing — the conversions Go, Java and Rust need (an untyped constant, an interface
 * holding a nil pointer, an overload, an integer literal's type) are what those programs probe.
 * The refusals (side effects, several statements, double evaluation, a shadowed name, a name
 * the call site cannot see) write nothing; a refused call keeps the declaration; imports the
 * inline left unused are pruned (Go would not build otherwise).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PACKAGE_ROOT } from './helpers/cli';
import { callJson as call, okJson as ok, useEmbeddedServers } from './helpers/mcp';
import { gitRepo, runProgram as run, snapshotFiles as snapshot, useTempHome } from './helpers/repo';

const TSC = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsc');

useTempHome();

describe('inline_symbol', () => {
  const serve = useEmbeddedServers();

  test('TypeScript: same-file and imported calls, a void statement, refusals; the output is unchanged', async () => {
    const root = gitRepo('ts-inline', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noUnusedLocals: true, target: 'es2020', module: 'commonjs', outDir: "dist", rootDir: "src", lib: ['es2020', 'dom'] }, include: ['src'] }),
      'src/consts.ts': 'export const SCALE = 2;\n',
      'src/geo.ts': [
        "import { SCALE } from './consts';",
        '',
        '/** The scaled area. */',
        'export function area(w: number, h: number): number {',
        '  return SCALE * w * h;',
        '}',
        '',
        'export const twice = (x: number): number => x + x;',
        '',
        'function logTwice(msg: string): void {',
        '  console.log(msg + msg);',
        '}',
        '',
        'export function run(): void {',
        "  logTwice('ab');",
        '  console.log(area(2, 3));',
        '}',
        '',
        'export function counter(): number {',
        '  let n = 0;',
        '  n++;',
        '  return n;',
        '}',
        '',
      ].join('\n'),
      'src/main.ts': [
        "import { area, twice, run, counter } from './geo';",
        "import { SCALE } from './consts';",
        '',
        'let calls = 0;',
        'function next(): number {',
        '  calls++;',
        '  return calls;',
        '}',
        'console.log(area(next(), 4), SCALE);',
        'console.log(twice(next()));',
        'console.log(twice(5), counter());',
        'run();',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    const program = (): string => {
      run(root, TSC, ['-p', '.']);
      return run(root, process.execPath, ['dist/main.js']);
    };
    const before = program();
    fs.rmSync(path.join(root, 'dist'), { recursive: true });

    // Refusals first: nothing is written.
    const files = snapshot(root);
    const counter = await call(client, 'inline_symbol', { id: 'src/geo.ts::counter' });
    expect(counter.isError).toBe(true);
    expect(counter.text).toMatch(/3 statements/);
    expect(snapshot(root)).toEqual(files);

    const area = await ok(client, 'inline_symbol', { id: 'src/geo.ts::area', delete_after: true });
    expect(area.inlined.map((s: any) => s.path).sort()).toEqual(['src/geo.ts', 'src/main.ts']);
    expect(area.declaration).toBe('deleted');
    const main = fs.readFileSync(path.join(root, 'src/main.ts'), 'utf8');
    expect(main).toContain('console.log(((SCALE * next() * 4) as number), SCALE);');
    expect(main).not.toMatch(/\barea\b/);

    // twice(next()) would evaluate next() twice: that call is refused, twice(5) is inlined, twice stays.
    const twice = await ok(client, 'inline_symbol', { id: 'src/geo.ts::twice', delete_after: true });
    expect(twice.refused).toEqual([expect.objectContaining({ path: 'src/main.ts', line: 10, reason: expect.stringMatching(/evaluated 2 times/) })]);
    expect(twice.declaration).toMatch(/kept/);
    expect(fs.readFileSync(path.join(root, 'src/main.ts'), 'utf8')).toContain('console.log(((5 + 5) as number), counter());');

    const log = await ok(client, 'inline_symbol', { id: 'src/geo.ts::logTwice', delete_after: true });
    expect(log.declaration).toBe('deleted');
    expect(fs.readFileSync(path.join(root, 'src/geo.ts'), 'utf8')).toContain("  console.log('ab' + 'ab');");
    expect(program()).toBe(before);
  }, 120_000);

  test('Python: keyword arguments, a module-qualified call, a shadowed name refused, unused imports pruned', async () => {
    const root = gitRepo('py-inline', {
      'pkg/__init__.py': '',
      'pkg/util.py': ['import os', '', '', 'def join_under(base, name):', '    """Join name under base."""', '    return os.path.join(base, name)', '', '', 'def twice(x):', '    return x + x', ''].join('\n'),
      'main.py': [
        'import os',
        'from pkg.util import join_under',
        'from pkg import util',
        '',
        '',
        'def main():',
        '    print(join_under("a", name="b"))',
        '    print(util.twice(3))',
        '',
        '',
        'def shadow():',
        '    os = "x"',
        '    print(join_under("c", "d"), os)',
        '',
        '',
        'main()',
        'shadow()',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    const before = run(root, 'python3', ['main.py']);
    const join = await ok(client, 'inline_symbol', { id: 'pkg/util.py::join_under', delete_after: true });
    expect(join.inlined).toEqual([expect.objectContaining({ path: 'main.py', line: 7 })]);
    expect(join.refused).toEqual([expect.objectContaining({ path: 'main.py', line: 13, reason: expect.stringMatching(/declares its own `os`/) })]);
    expect(join.declaration).toMatch(/kept/);
    const twice = await ok(client, 'inline_symbol', { id: 'pkg/util.py::twice', delete_after: true });
    expect(twice.declaration).toBe('deleted');
    const main = fs.readFileSync(path.join(root, 'main.py'), 'utf8');
    expect(main).toContain('print((3 + 3))');
    expect(main).not.toContain('from pkg import util');
    expect(run(root, 'python3', ['main.py'])).toBe(before);
  }, 60_000);

  test('Go: constants, interfaces and results keep their types; the emptied imports go', async () => {
    const root = gitRepo('go-inline', {
      'go.mod': 'module example.com/m\n\ngo 1.20\n',
      'calc/calc.go': [
        'package calc',
        '',
        'import "fmt"',
        '',
        '// Half halves.',
        'func Half(x float64) float64 {',
        '\treturn x / 2',
        '}',
        '',
        'func Label(n int) string {',
        '\treturn fmt.Sprintf("n=%d", n)',
        '}',
        '',
        'func IsNil(e error) bool {',
        '\treturn e == nil',
        '}',
        '',
        'func Pair() (int, int) {',
        '\treturn 1, 2',
        '}',
        '',
      ].join('\n'),
      'main.go': [
        'package main',
        '',
        'import (',
        '\t"fmt"',
        '',
        '\t"example.com/m/calc"',
        ')',
        '',
        'type myErr struct{}',
        '',
        'func (*myErr) Error() string { return "x" }',
        '',
        'func main() {',
        '\tvar p *myErr',
        '\tfmt.Println(calc.Half(3), calc.IsNil(p))',
        '\tfmt.Println(calc.Label(4))',
        '\ta, b := calc.Pair()',
        '\tfmt.Println(a, b)',
        '}',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    const env = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    const before = run(root, 'go', ['run', '.'], env);
    expect(before).toBe('1.5 false\nn=4\n1 2\n');
    const pair = await call(client, 'inline_symbol', { id: 'calc/calc.go::Pair' });
    expect(pair.text).toMatch(/returns 2 values/);
    for (const id of ['calc/calc.go::Half', 'calc/calc.go::IsNil', 'calc/calc.go::Label']) {
      const r = await ok(client, 'inline_symbol', { id, delete_after: true });
      expect(r.declaration).toBe('deleted');
    }
    const main = fs.readFileSync(path.join(root, 'main.go'), 'utf8');
    expect(main).toContain('float64(float64(3) / 2)');
    expect(main).toContain('bool(error(p) == nil)');
    expect(fs.readFileSync(path.join(root, 'calc/calc.go'), 'utf8')).not.toContain('"fmt"');
    expect(run(root, 'go', ['run', '.'], env)).toBe(before);
    run(root, 'go', ['vet', './...'], env);
  }, 120_000);

  test('Java: static methods with casts that keep the overload; a member used from another class is refused', async () => {
    const root = gitRepo('java-inline', {
      'src/app/Util.java': [
        'package app;',
        '',
        'public class Util {',
        '  static double half(double x) {',
        '    return x / 2;',
        '  }',
        '',
        '  public static String show(Object o) {',
        '    return "obj";',
        '  }',
        '',
        '  public static String show(String s) {',
        '    return "str";',
        '  }',
        '',
        '  static String describe(Object o) {',
        '    return show(o);',
        '  }',
        '',
        '  static String tag() {',
        '    return describe("y");',
        '  }',
        '}',
        '',
      ].join('\n'),
      'src/app/Main.java': [
        'package app;',
        '',
        'public class Main {',
        '  public static void main(String[] args) {',
        '    System.out.println(Util.half(3));',
        '    System.out.println(Util.describe("x") + Util.tag());',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    const program = (): string => {
      fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
      run(root, 'javac', ['-d', 'out', 'src/app/Util.java', 'src/app/Main.java']);
      return run(root, 'java', ['-cp', 'out', 'app.Main']);
    };
    const before = program();
    expect(before).toBe('1.5\nobjobj\n');
    const half = await ok(client, 'inline_symbol', { id: 'src/app/Util.java::Util.half', delete_after: true });
    expect(half.declaration).toBe('deleted');
    const describe = await ok(client, 'inline_symbol', { id: 'src/app/Util.java::Util.describe', delete_after: true });
    expect(describe.inlined).toEqual([expect.objectContaining({ path: 'src/app/Util.java' })]);
    expect(describe.refused).toEqual([expect.objectContaining({ path: 'src/app/Main.java', reason: expect.stringMatching(/member of/) })]);
    expect(fs.readFileSync(path.join(root, 'src/app/Util.java'), 'utf8')).toContain('show(((Object) "y"))');
    expect(program()).toBe(before);
  }, 120_000);

  test('Rust: a literal argument keeps its integer type; methods are refused', async () => {
    const root = gitRepo('rust-inline', {
      'Cargo.toml': '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/main.rs': ['mod util;', '', 'fn main() {', '    println!("{}", util::half(3.0));', '    println!("{}", util::zeros(1));', '    println!("{}", util::Meter(2.0).get());', '}', ''].join('\n'),
      'src/util.rs': [
        'pub fn half(x: f64) -> f64 {',
        '    x / 2.0',
        '}',
        '',
        'pub fn zeros(x: u64) -> u32 {',
        '    x.leading_zeros()',
        '}',
        '',
        'pub struct Meter(pub f64);',
        '',
        'impl Meter {',
        '    pub fn get(&self) -> f64 {',
        '        self.0',
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    const client = await serve(root);
    const target = path.join(root, 'target');
    const program = (): string => run(root, 'cargo', ['run', '-q', '--offline'], { CARGO_TARGET_DIR: target });
    const before = program();
    expect(before).toBe('1.5\n63\n2\n');
    const get = await call(client, 'inline_symbol', { id: 'src/util.rs::Meter.get' });
    expect(get.isError).toBe(true);
    expect(get.text).toMatch(/method|associated/);
    for (const id of ['src/util.rs::half', 'src/util.rs::zeros']) expect((await ok(client, 'inline_symbol', { id, delete_after: true })).declaration).toBe('deleted');
    expect(fs.readFileSync(path.join(root, 'src/main.rs'), 'utf8')).toContain('(1 as u64).leading_zeros()');
    expect(program()).toBe(before);
  }, 180_000);
});
