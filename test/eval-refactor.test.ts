/**
 * `gortex eval refactor` without the network: the seeded sampling is reproducible, diagnostics
 * are compared as multisets (a moved error is the same error; a second copy of one is new), graph
 * differences are counted both ways, the table reports every operation, and bad flags are usage
 * errors. The networked run itself is `gortex eval refactor` (its table is in BENCHMARKS.md).
 */
import { formatRefactorEval, graphDifference, newDiagnostics, type LanguageRun } from '../ts/eval/refactor';
import { prng, sample } from '../ts/support/random';
import type { GraphDump } from '../ts/engine/engine';
import { runCli } from './helpers/cli';
import { tempHome } from './helpers/repo';

test('the same seed draws the same sequence and sample; another seed another', () => {
  const a = prng(7);
  const b = prng(7);
  const c = prng(8);
  const xs = [a(), a(), a()];
  expect([b(), b(), b()]).toEqual(xs);
  expect([c(), c(), c()]).not.toEqual(xs);
  expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  const items = Array.from({ length: 50 }, (_, i) => i);
  const drawn = sample(items, 10, prng(3));
  expect(sample(items, 10, prng(3))).toEqual(drawn);
  expect(new Set(drawn).size).toBe(10);
  expect(sample(items, 80, prng(3))).toHaveLength(50);
});

test('new diagnostics are those past the baseline counts', () => {
  const baseline = ['TS2307: Cannot find module x', 'TS2307: Cannot find module x', 'TS7006: implicit any'];
  expect(newDiagnostics(baseline, [...baseline].reverse())).toEqual([]);
  expect(newDiagnostics(baseline, [...baseline, 'TS7006: implicit any', 'TS2304: Cannot find name y'])).toEqual(['TS7006: implicit any', 'TS2304: Cannot find name y']);
  expect(newDiagnostics(baseline, [])).toEqual([]);
});

test('graph differences count nodes and edges missing on either side', () => {
  const node = (id: string, line = 1): GraphDump['nodes'][number] => ({ id, kind: 'function', name: id, file_path: 'a.ts', start_line: line, end_line: line, language: 'typescript', repo_prefix: '', degree: 0 });
  const g = (nodes: GraphDump['nodes'], edges: GraphDump['edges']): GraphDump => ({ repo: 'r', root: '/r', total_nodes: nodes.length, total_edges: edges.length, truncated: false, matched: nodes.length, nodes, edges });
  const a = g([node('a'), node('b')], [{ from: 'a', to: 'b', kind: 'calls', origin: 'ast_resolved', count: 1 }]);
  expect(graphDifference(a, a)).toEqual({ nodes: 0, edges: 0, sample: [] });
  const b = g([node('a'), node('b', 2)], [{ from: 'a', to: 'b', kind: 'calls', origin: 'text_matched', count: 1 }]);
  const d = graphDifference(a, b);
  expect(d.nodes).toBe(2);
  expect(d.edges).toBe(2);
  expect(d.sample).toContain('-node b|function|1|1');
  expect(d.sample).toContain('+edge a|calls|b|text_matched');
});

test('the table has a row per language and operation, with refusals by code and failures', () => {
  const op = (o: Partial<LanguageRun['ops'][number]>): LanguageRun['ops'][number] => ({ language: 'go', op: 'rename', id: 'x', args: {}, outcome: 'applied', ms: 1, new_diagnostics: [], graph_equal: true, ...o });
  const runs: LanguageRun[] = [
    {
      language: 'go',
      corpus: 'gin@v1',
      baseline_diagnostics: 0,
      ops: [op({}), op({ new_diagnostics: ['undefined: X'] }), op({ op: 'move', outcome: 'refused', code: 'not_movable' }), op({ op: 'move', outcome: 'refused', code: 'not_movable' }), op({ op: 'delete', graph_equal: false })],
    },
    { language: 'java', corpus: 'gson@2', baseline_diagnostics: 0, ops: [], error: 'javac not found' },
  ];
  const table = formatRefactorEval(runs, { seed: 3, perOp: 2 });
  expect(table).toContain('| go (gin@v1) | rename | 2 | 2 | 0 | 1 | 0 | – |');
  expect(table).toContain('| go (gin@v1) | move | 2 | 0 | 2 | 0 | 0 | not_movable × 2 |');
  expect(table).toContain('| go (gin@v1) | delete | 1 | 1 | 0 | 0 | 1 | – |');
  expect(table).toContain('| java (gson@2) | – | – | – | – | – | – | failed: javac not found |');
  expect(table).toMatch(/^Seed 3, 2 sampled per operation and language\./);
});

describe('gortex eval refactor flags', () => {
  const env = { GORTEX_HOME: tempHome() };
  test.each([
    [['--lang', 'cobol'], /Unknown --lang "cobol": use one of typescript, python, go, java/],
    [['--per-op', '0'], /Expected an integer greater than or equal to 1/],
    [['--bogus'], /Nonexistent flag: --bogus/],
  ])('%j exits 2 and names the fix', (args, message) => {
    const result = runCli(['eval', 'refactor', ...args], { env });
    expect(result.status).toBe(2);
    expect(result.stderr.replace(/\s*›\s*/g, ' ')).toMatch(message);
  });
});
