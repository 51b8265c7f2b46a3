/** `gortex query|search|grep|eval recall` end to end: the built CLI on real temp repositories. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('gortex query / search / grep', () => {
  const home = tempHome();
  const env = { GORTEX_HOME: home, GORTEX_THREADS: '2' };
  const root = fixtureCopy('query/app-ts', 'app');
  const json = (args: string[]): any => {
    const r = runCli([...args, '--repo', root, '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout);
  };

  test('callers of a qualified name, as JSON and as a table', () => {
    const result = json(['query', 'callers', 'Renderer.draw']);
    expect(result.target.id).toBe('app/src/render.ts::Renderer.draw');
    expect(result.callers.map((c: any) => c.caller.id)).toEqual(['app/src/render.ts::main']);
    expect(result.callers[0].origin).toBe('ast_resolved');

    const table = runCli(['query', 'callers', 'formatLabel', '--repo', root], { env });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/callers of formatLabel \(src\/format\.ts:\d+\)/);
    expect(table.stdout).toMatch(/Renderer\.draw\s+src\/render\.ts:\d+/);
  });

  test('symbol, calls, usages, deps, dependents and implementations answer', () => {
    expect(json(['query', 'symbol', 'summarize']).node.signature).toMatch(/summarize\(s: Shape\)/);
    const calls = json(['query', 'calls', 'main', '--depth', '1']);
    expect(calls.calls.map((c: any) => c.to)).toEqual(
      expect.arrayContaining(['app/src/render.ts::Renderer', 'app/src/render.ts::Renderer.draw', 'app/src/render.ts::decorate']),
    );
    const usages = json(['query', 'usages', 'Shape', '--context', 'parameter_type']);
    expect(usages.usages.length).toBeGreaterThan(0);
    expect(new Set(usages.usages.map((u: any) => u.context))).toEqual(new Set(['parameter_type']));
    expect(json(['query', 'deps', 'src/render.ts']).mode).toBe('file');
    expect(json(['query', 'dependents', 'src/shapes.ts']).nodes.map((d: any) => d.file_path)).toContain('src/render.ts');
    const impls = json(['query', 'implementations', 'Shape']);
    expect(impls.implementations.map((i: any) => i.node.qual_name).sort()).toEqual(['Circle', 'Cube', 'Square']);
  });

  test('C and C++: calls land on definitions across headers, out-of-line methods join their class', () => {
    const cRoot = fixtureCopy('resolver/cfamily', 'kv');
    const q = (args: string[]): any => {
      const r = runCli([...args, '--repo', cRoot, '--json'], { env });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      return JSON.parse(r.stdout);
    };
    const callers = q(['query', 'callers', 'kv_open']);
    expect(callers.target.id).toBe('kv/src/kv.c::kv_open');
    expect(callers.callers.map((c: any) => c.caller.id).sort()).toEqual([
      'kv/app/main.c::main',
      'kv/app/main.cpp::run',
      'kv/tests/test_kv.c::test_open_close',
    ]);
    const area = q(['query', 'symbol', 'Circle.area']);
    expect(area.node.id).toBe('kv/src/shapes.cpp::Circle.area');
    expect(area.node.signature).toBe('double Circle::area() const');
    const found = q(['search', 'Circle', '--lang', 'cpp']);
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.every((r: any) => r.language === 'cpp')).toBe(true);
  });

  test('an ambiguous or unknown name is a usage error naming what to pick', () => {
    const ambiguous = runCli(['query', 'callers', 'area', '--repo', root], { env });
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toMatch(/app\/src\/shapes\.ts::Circle\.area/);
    const unknown = runCli(['query', 'symbol', 'sumarize', '--repo', root], { env });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/summarize/);
    const noDepth = runCli(['query', 'usages', 'Shape', '--depth', '2', '--repo', root], { env });
    expect(noDepth.status).toBe(2);
    expect(noDepth.stderr).toMatch(/--depth/);
    const badTier = runCli(['query', 'callers', 'summarize', '--min-tier', 'strong', '--repo', root], { env });
    expect(badTier.status).toBe(2);
    expect(badTier.stderr).toMatch(/ast_resolved/);
  });

  test('search ranks the exact name first', () => {
    const result = json(['search', 'summarize']);
    expect(result.results[0].id).toBe('app/src/render.ts::summarize');
    const table = runCli(['search', 'kind:class circle', '--repo', root], { env });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^1\.\s+type\s+Circle\s+src\/shapes\.ts:\d+/m);
    const onlyClauses = runCli(['search', 'kind:class', '--repo', root], { env });
    expect(onlyClauses.status).toBe(2);
    expect(onlyClauses.stderr).toMatch(/query/);
  });

  test('grep finds text with its enclosing symbol; a bad regex is a usage error', () => {
    const result = json(['grep', 'formatLabel(']);
    const draw = result.hits.find((h: any) => h.path === 'src/render.ts');
    expect(draw).toMatchObject({ symbol_name: 'draw' });
    expect(draw.text).toContain('formatLabel(summarize(shape))');
    const plain = runCli(['grep', '-i', 'FORMATLABEL', '--repo', root], { env });
    expect(plain.stdout).toMatch(/^src\/render\.ts:\d+:\d+: .*formatLabel/m);
    const bad = runCli(['grep', '-e', 'foo(', '--repo', root], { env });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/regex/i);
  });

  test('queries see what changed on disk since the last index', () => {
    const copy = fixtureCopy('query/app-ts', 'app2');
    expect(runCli(['index', copy], { env }).status).toBe(0);
    fs.writeFileSync(path.join(copy, 'src/extra.ts'), "import { summarize } from './render';\nexport function extra() { return summarize; }\nexport function again(s: any) { return summarize(s); }\n");
    const r = runCli(['query', 'callers', 'summarize', '--repo', copy, '--json'], { env });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).callers.map((c: any) => c.caller.id)).toContain('app2/src/extra.ts::again');
    const hits = runCli(['grep', 'function again', '--repo', copy, '--json'], { env });
    expect(JSON.parse(hits.stdout).hits).toHaveLength(1);
  });
});

describe('gortex eval recall', () => {
  test('scores the fixture-repo cases per tier', () => {
    const r = runCli(['eval', 'recall', '--corpus', 'resolver-ts', '--corpus', 'resolver-go', '--json'], {
      env: { GORTEX_THREADS: '2' },
    });
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.overall.cases).toBeGreaterThanOrEqual(20);
    expect(Object.keys(report.by_corpus).sort()).toEqual(['resolver-go', 'resolver-ts']);
    // Exact-name queries on small repos must always land in the top 5.
    expect(report.by_tier.exact.r5).toBe(1);
  });

  test('--tool explore ranks the same cases through explore', () => {
    const r = runCli(['eval', 'recall', '--corpus', 'resolver-ts', '--tool', 'explore', '--json'], { env: { GORTEX_THREADS: '2' } });
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.tool).toBe('explore');
    expect(report.overall.cases).toBe(12);
    expect(report.by_tier.exact.r5).toBe(1);
    const text = runCli(['eval', 'recall', '--corpus', 'resolver-ts', '--tool', 'explore'], { env: { GORTEX_THREADS: '2' } });
    expect(text.stdout.split('\n')[0]).toBe('ranked by explore');
    const bad = runCli(['eval', 'recall', '--tool', 'grep']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Expected --tool=grep to be one of: search_symbols, explore/);
  });

  test('an unknown corpus is a usage error', () => {
    const r = runCli(['eval', 'recall', '--corpus', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown corpus "nope"/);
  });
});
