/**
 * move_symbol through the real MCP server on small programs in five languages: each program is
 * built and run (tsc + node, python3, go run + go vet, javac + java, cargo run) before and after
 * the move and must print the same thing; the moved declaration is in the new file with the
 * imports it needs, its importers point at the new place, the old file lost the imports only it
 * used, and the graph has it under its new id. Refusals (an import cycle, a package-private
 * helper, an unexported Go name) write nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PACKAGE_ROOT, runCli } from './helpers/cli';
import { callJson as call, okJson as ok, useEmbeddedServers } from './helpers/mcp';
import { gitRepo, runProgram as run, snapshotFiles as snapshot, tempHome, useTempHome } from './helpers/repo';

const TSC = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tsc');

async function refused(client: Client, root: string, args: Record<string, unknown>, reason: RegExp): Promise<void> {
  const before = snapshot(root);
  const r = await call(client, 'move_symbol', args);
  expect(r.isError).toBe(true);
  expect(r.text).toMatch(reason);
  expect(snapshot(root)).toEqual(before);
}

const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

useTempHome();

describe('move_symbol', () => {
  const serve = useEmbeddedServers();
  async function symbolExists(client: Client, id: string): Promise<boolean> {
    return !(await call(client, 'get_symbol', { id })).isError;
  }

  test('TypeScript: to a new file; helpers exported for it, importers and re-exports rewritten; a cycle of non-functions refused', async () => {
    const root = gitRepo('ts-move', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noUnusedLocals: true, target: 'es2020', module: 'commonjs', outDir: 'dist', rootDir: 'src', lib: ['es2020', 'dom'] }, include: ['src'] }),
      'src/consts.ts': 'export const SCALE = 2;\n',
      'src/geo.ts': [
        "import { SCALE } from './consts';",
        '',
        'function square(x: number): number {',
        '  return x * x;',
        '}',
        '',
        '/** The scaled area of a square. */',
        'export function area(side: number): number {',
        '  return SCALE * square(side);',
        '}',
        '',
        'export function perimeter(side: number): number {',
        '  return 4 * side;',
        '}',
        '',
        'export function both(side: number): number {',
        '  return area(side) + perimeter(side);',
        '}',
        '',
        'const ORIGIN = 0;',
        '',
        'export class Box {',
        '  at = ORIGIN;',
        '}',
        '',
        'export const boxes = [new Box()];',
        '',
      ].join('\n'),
      'src/index.ts': "export { area, perimeter } from './geo';\n",
      'src/main.ts': ["import { area, both } from './geo';", "import { perimeter } from './index';", '', 'console.log(area(2), perimeter(3), both(1));', ''].join('\n'),
    });
    const client = await serve(root);
    const program = (): string => {
      fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
      run(root, TSC, ['-p', '.']);
      return run(root, process.execPath, ['dist/main.js']);
    };
    const before = program();
    await refused(client, root, { id: 'src/geo.ts::Box', to: 'src/box.ts' }, /import cycle/);

    const r = await ok(client, 'move_symbol', { id: 'src/geo.ts::area', to: 'src/shapes/area.ts' });
    expect(r.new_id).toMatch(/(^|\/)src\/shapes\/area\.ts::area$/);
    expect(r.notes).toEqual(expect.arrayContaining([expect.stringMatching(/exported square/)]));
    const moved = read(root, 'src/shapes/area.ts');
    expect(moved).toContain("import { SCALE } from '../consts';");
    expect(moved).toContain("import { square } from '../geo';");
    expect(moved).toContain('/** The scaled area of a square. */\nexport function area(side: number): number {');
    const geo = read(root, 'src/geo.ts');
    expect(geo).toContain("import { area } from './shapes/area';");
    expect(geo).toContain('export function square(');
    expect(geo).not.toContain('SCALE');
    expect(read(root, 'src/index.ts')).toBe("export { perimeter } from './geo';\nexport { area } from './shapes/area';\n");
    expect(read(root, 'src/main.ts')).toContain("import { area } from './shapes/area';");
    expect(await symbolExists(client, 'src/shapes/area.ts::area')).toBe(true);
    expect(program()).toBe(before);
  }, 120_000);

  test('Python: to a new module; from-imports and module-qualified uses rewritten; a circular import refused', async () => {
    const root = gitRepo('py-move', {
      'pkg/__init__.py': '',
      'pkg/a.py': ['import math', '', 'RATE = 2', '', '', 'def area(r):', '    return math.pi * r * r', '', '', 'def helper():', '    return RATE', '', '', 'def twice_rate():', '    return helper() * 2', ''].join('\n'),
      'main.py': ['from pkg.a import area, twice_rate', 'from pkg import a', '', 'print(area(1), a.area(2), twice_rate())', ''].join('\n'),
    });
    const client = await serve(root);
    const before = run(root, 'python3', ['main.py']);
    await refused(client, root, { id: 'pkg/a.py::helper', to: 'pkg/h.py' }, /circular import/);
    const r = await ok(client, 'move_symbol', { id: 'pkg/a.py::area', to: 'pkg/b.py' });
    expect(r.status).toBe('applied');
    expect(read(root, 'pkg/b.py')).toBe('import math\n\n\ndef area(r):\n    return math.pi * r * r\n');
    expect(read(root, 'pkg/a.py')).not.toContain('import math');
    const main = read(root, 'main.py');
    expect(main).toContain('from pkg.b import area');
    expect(main).toContain('pkg.b.area(2)');
    expect(run(root, 'python3', ['main.py'])).toBe(before);
  }, 60_000);

  test('Go: to another package (its users qualified anew, cycles checked) and within a package', async () => {
    const root = gitRepo('go-move', {
      'go.mod': 'module example.com/m\n\ngo 1.20\n',
      'calc/calc.go': ['package calc', '', 'import "strings"', '', 'func Shout(s string) string {', '\treturn strings.ToUpper(s) + "!"', '}', '', 'func Greet(name string) string {', '\treturn Shout("hi " + name)', '}', '', 'func quiet(s string) string {', '\treturn strings.ToLower(s)', '}', ''].join('\n'),
      'main.go': ['package main', '', 'import (', '\t"fmt"', '', '\t"example.com/m/calc"', ')', '', 'func main() {', '\tfmt.Println(calc.Shout("a"), calc.Greet("b"))', '}', ''].join('\n'),
    });
    const client = await serve(root);
    const env = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    const before = run(root, 'go', ['run', '.'], env);
    await refused(client, root, { id: 'calc/calc.go::quiet', to: 'text' }, /unexported/);
    const r = await ok(client, 'move_symbol', { id: 'calc/calc.go::Shout', to: 'text' });
    expect(r.to).toBe('text/shout.go');
    expect(read(root, 'text/shout.go')).toContain('package text\n\nimport "strings"\n');
    const calc = read(root, 'calc/calc.go');
    expect(calc).toContain('return text.Shout("hi " + name)');
    expect(calc).toContain('"example.com/m/text"');
    const main = read(root, 'main.go');
    expect(main).toContain('text.Shout("a"), calc.Greet("b")');
    run(root, 'go', ['vet', './...'], env);
    expect(run(root, 'go', ['run', '.'], env)).toBe(before);
    // Within the package: nothing else changes.
    await ok(client, 'move_symbol', { id: 'calc/calc.go::Greet', to: 'calc/greet.go' });
    expect(read(root, 'calc/greet.go')).toContain('package calc');
    run(root, 'go', ['vet', './...'], env);
    expect(run(root, 'go', ['run', '.'], env)).toBe(before);
  }, 120_000);

  test('Java: a class to another package; its file goes, users import it anew; a package-private helper refuses', async () => {
    const root = gitRepo('java-move', {
      'src/app/Helper.java': ['package app;', '', 'public class Helper {', '  public static int base() {', '    return 40;', '  }', '}', ''].join('\n'),
      'src/app/Tool.java': ['package app;', '', 'class Tool {', '  static int n() {', '    return 1;', '  }', '}', ''].join('\n'),
      'src/app/Uses.java': ['package app;', '', 'public class Uses {', '  public static int get() {', '    return Tool.n();', '  }', '}', ''].join('\n'),
      'src/app/Util.java': ['package app;', '', 'import java.util.List;', '', '/** Sums. */', 'public class Util {', '  public static int sum(List<Integer> xs) {', '    int t = Helper.base();', '    for (int x : xs) t += x;', '    return t;', '  }', '}', ''].join('\n'),
      'src/app/Main.java': ['package app;', '', 'import java.util.List;', '', 'public class Main {', '  public static void main(String[] args) {', '    System.out.println(Util.sum(List.of(1, 1)) + Uses.get());', '  }', '}', ''].join('\n'),
    });
    const client = await serve(root);
    const program = (): string => {
      fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
      const sources: string[] = [];
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(path.join(root, d), { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(d, e.name));
          else if (e.name.endsWith('.java')) sources.push(path.join(d, e.name));
        }
      };
      walk('src');
      run(root, 'javac', ['-d', 'out', ...sources]);
      return run(root, 'java', ['-cp', 'out', 'app.Main']);
    };
    const before = program();
    expect(before).toBe('43\n');
    await refused(client, root, { id: 'src/app/Uses.java::Uses', to: 'src/app/util' }, /not public|package-private/);
    const r = await ok(client, 'move_symbol', { id: 'src/app/Util.java::Util', to: 'src/app/util' });
    expect(r.to).toBe('src/app/util/Util.java');
    expect(fs.existsSync(path.join(root, 'src/app/Util.java'))).toBe(false);
    const moved = read(root, 'src/app/util/Util.java');
    expect(moved).toContain('package app.util;');
    expect(moved).toContain('import java.util.List;');
    expect(moved).toContain('import app.Helper;');
    expect(read(root, 'src/app/Main.java')).toContain('import app.util.Util;');
    expect(program()).toBe(before);
  }, 120_000);

  test('Rust: to another module; use lines and qualified paths (inside macros too) rewritten; a private helper refuses', async () => {
    const root = gitRepo('rust-move', {
      'Cargo.toml': '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/main.rs': ['mod a;', 'mod b;', '', 'use a::quad;', '', 'fn main() {', '    println!("{} {}", a::double(2), quad(1));', '    b::unit();', '}', ''].join('\n'),
      'src/a.rs': ['fn secret() -> i32 {', '    3', '}', '', 'pub fn double(x: i32) -> i32 {', '    x * 2', '}', '', 'pub fn quad(x: i32) -> i32 {', '    double(double(x))', '}', '', 'pub fn tripled() -> i32 {', '    secret() * 3', '}', ''].join('\n'),
      'src/b.rs': ['pub fn unit() {}', ''].join('\n'),
    });
    const client = await serve(root);
    const target = path.join(root, 'target');
    const program = (): string => run(root, 'cargo', ['run', '-q', '--offline'], { CARGO_TARGET_DIR: target });
    const before = program();
    await refused(client, root, { id: 'src/a.rs::tripled', to: 'src/b.rs' }, /private/);
    await ok(client, 'move_symbol', { id: 'src/a.rs::double', to: 'src/b.rs' });
    expect(read(root, 'src/b.rs')).toContain('pub fn double(x: i32) -> i32 {');
    expect(read(root, 'src/a.rs')).toContain('use crate::b::double;');
    expect(read(root, 'src/main.rs')).toContain('crate::b::double(2)');
    expect(program()).toBe(before);
  }, 180_000);

  test('gortex edit move|inline: dry runs print diffs and write nothing; a bad --site is a usage error', () => {
    const root = gitRepo('pycli', {
      'pkg/__init__.py': '',
      'pkg/a.py': ['def area(r):', '    return 3 * r * r', ''].join('\n'),
      'main.py': ['from pkg.a import area', '', 'print(area(2))', ''].join('\n'),
    });
    const env = { GORTEX_HOME: tempHome(), GORTEX_THREADS: '2' };
    const edit = (...args: string[]): ReturnType<typeof runCli> => runCli(['edit', ...args, '--repo', root, '--embedded'], { env });
    const files = snapshot(root);
    const moved = edit('move', 'pkg/a.py::area', 'pkg/b.py', '--dry-run');
    expect(moved.status).toBe(0);
    expect(moved.stdout).toMatch(/^would move pycli\/pkg\/a\.py::area → pycli\/pkg\/b\.py::area\n/);
    expect(moved.stdout).toContain('+from pkg.b import area');
    const inlined = edit('inline', 'area', '--dry-run', '--delete-after');
    expect(inlined.status).toBe(0);
    expect(inlined.stdout).toMatch(/^would inline pycli\/pkg\/a\.py::area \(3 \* r \* r\) at 1 call; declaration deleted\n/);
    expect(inlined.stdout).toContain('+print((3 * 2 * 2))');
    expect(snapshot(root)).toEqual(files);
    // Bad targets: another language, the same file, outside the repository; nothing is written.
    for (const [to, why] of [
      ['pkg/b.ts', /pkg\/b\.ts is not a python file/],
      ['pkg/a.py', /is already in pkg\/a\.py/],
      ['../elsewhere.py', /outside_repo/],
    ] as const) {
      const r = edit('move', 'pkg/a.py::area', to);
      expect(r.status).toBe(2);
      expect(r.stderr.replace(/\s*›\s*/g, ' ')).toMatch(why);
    }
    expect(snapshot(root)).toEqual(files);
    const bad = edit('inline', 'area', '--site', 'main.py');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--site must be PATH:LINE/);
    expect(edit('move', 'pkg/a.py::area', 'pkg/b.py').status).toBe(0);
    expect(run(root, 'python3', ['main.py'])).toBe('12\n');
  });
});
