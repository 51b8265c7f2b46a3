/**
 * Files whose shape made one short file cost minutes and gigabytes to index: nested declarations
 * (ids and scope lookups grew with the square of the nesting), runs of unclosed brackets
 * (tree-sitter's query cursor rescans every later sibling) and deep expression trees. Each is now
 * skipped with its reason in milliseconds, through the real CLI and the real index_health tool,
 * the rest of the repository indexes normally, and a repaired file is indexed again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

/** `n` functions, each declared inside the previous one. */
function nestedFunctions(n: number): string {
  let open = '';
  for (let i = 0; i < n; i++) open += `function f${i}() {\n`;
  return `${open}return 1;\n${'}\n'.repeat(n)}`;
}

describe('files over the per-file budget', () => {
  const home = tempHome();
  const env = { GORTEX_HOME: home, GORTEX_THREADS: '2' };

  test('are skipped with the reason, and indexed again once repaired', () => {
    const root = fixtureCopy('resolver/ts', 'hostile');
    const write = (rel: string, text: string): void => fs.writeFileSync(path.join(root, rel), text);
    // The smallest inputs that show each shape: 100 nested functions (the limit is 64),
    // 300,000 unclosed parentheses in lines of 30, an array nested 10,000 deep.
    write('src/nested.ts', nestedFunctions(100));
    write('src/parens.ts', `${'('.repeat(30)}\n`.repeat(10_000));
    write('src/deep.ts', `export const x = ${'[\n'.repeat(10_000)}1${']\n'.repeat(10_000)};\n`);

    const cold = runCli(['index', root, '--json'], { env });
    expect(cold.status).toBe(0);
    const report = JSON.parse(cold.stdout);
    const reasons = Object.fromEntries(report.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason]));
    expect(reasons).toEqual({ 'src/nested.ts': 'too_deep', 'src/parens.ts': 'too_complex', 'src/deep.ts': 'too_deep' });
    const detail = (p: string): string => report.skipped.find((s: { path: string }) => s.path === p).detail;
    expect(detail('src/nested.ts')).toMatch(/declarations nest 65 deep .* limit of 64/);
    expect(detail('src/parens.ts')).toMatch(/unclosed brackets/);
    expect(detail('src/deep.ts')).toMatch(/more than 4096 levels deep/);
    expect(report.failures).toEqual([]);
    // The rest of the repository is indexed as usual.
    expect(report.edges.by_kind.calls).toBeGreaterThan(3);

    // index_health names them and why.
    const health = runCli(['call', 'index_health', '--repo', root, '--embedded'], { env });
    expect(health.status).toBe(0);
    const skipped = JSON.parse(health.stdout).skipped;
    expect(JSON.stringify(skipped)).toMatch(/too_deep/);
    expect(JSON.stringify(skipped)).toMatch(/too_complex/);

    // Unchanged, they are not read again; repaired, the file is indexed.
    const warm = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    expect(warm.mode).toBe('unchanged');
    write('src/nested.ts', nestedFunctions(3));
    const repaired = JSON.parse(runCli(['index', root, '--json'], { env }).stdout);
    expect(repaired.files.parsed).toBe(1);
    expect(repaired.skipped.map((s: { path: string }) => s.path).sort()).toEqual(['src/deep.ts', 'src/parens.ts']);
    const symbol = runCli(['call', 'search_symbols', '--repo', root, '--embedded', '--arg', 'query=f2'], { env });
    expect(symbol.stdout).toMatch(/src\/nested\.ts::f0\.f1\.f2/);
  });
});
