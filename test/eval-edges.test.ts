/**
 * `gortex eval edges`: the SCIP reader, gold made by the real scip-typescript, scip-python, scip-go and javac (semanticdb-javac) on
 * small fixtures (exact edges), the graph scored against it before and after enrichment by the real
 * language servers, the baseline gate, and bad input.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { bodyExtents, declaresMethod, followedByCall, goConstructs, goldFromScip, scoreEdges, type Gold, type GraphCallEdge } from '../ts/eval/edges';
import {
  checkIndexer,
  compareEdges,
  readEdgeBaseline,
  readGold,
  scipIndexOf,
  scoreGraph,
  updatedEdgeBaseline,
  type EdgeCorpusResult,
  type ScipIndexer,
} from '../ts/eval/edges-run';
import { parseScipSymbol, readScip, readSemanticdb } from '../ts/eval/scip';
import { enrichment } from '../ts/lsp/enrich';
import { lspPool } from '../ts/lsp/pool';
import { runCli } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-edges-cache-'));

afterAll(async () => {
  await lspPool().shutdown();
});

/** The gold of a fixture as sorted `caller -> callee kind` lines. */
function goldLines(root: string, scip: string): string[] {
  const gold = goldFromScip(readScip(fs.readFileSync(scip)), { sourceOf: (rel) => fs.readFileSync(path.join(root, rel), 'utf8') });
  return [...gold.edges.values()].map((e) => `${e.caller} -> ${e.callee} ${e.kind}`).sort();
}

describe('TypeScript: gold from scip-typescript, graph scored against it', () => {
  const root = fixtureCopy('edges/ts', 'edges-ts');
  let scip = '';

  beforeAll(async () => {
    scip = await scipIndexOf({ id: 'fixture-ts', name: 'fixture', version: '1', indexer: 'scip-typescript' }, root, cache, () => {});
  });

  test('the gold holds exactly the calls made in function bodies', () => {
    // By hand from the sources: `super('square')` calls Base's constructor; `new Square(3)` is a
    // constructor call; calls inside build's local arrow and nested function count for build; the
    // call of the nested function itself is local and left out, as is `top = square(4)` (module scope).
    expect(goldLines(root, scip)).toEqual([
      'src/main.ts::Report.run -> src/main.ts::Report.twice method',
      'src/main.ts::Report.run -> src/main.ts::build function',
      'src/main.ts::Report.run -> src/main.ts::total function',
      'src/main.ts::Report.twice -> src/shapes.ts::double function',
      'src/main.ts::build -> src/shapes.ts::Base.describe method',
      'src/main.ts::build -> src/shapes.ts::Square constructor',
      'src/main.ts::build -> src/shapes.ts::double function',
      'src/main.ts::build -> src/shapes.ts::square function',
      'src/main.ts::total -> src/shapes.ts::Shape.area method',
      'src/shapes.ts::Square.area -> src/shapes.ts::square function',
      'src/shapes.ts::Square.constructor -> src/shapes.ts::Base constructor',
    ]);
  });

  test('the index alone misses the interface call; enrichment adds it, and its dispatch edge counts as right', async () => {
    const engine = new Engine({ home: tempHome(), threads: 2 });
    await engine.indexRepo(root);
    const before = scoreGraph(engine, root, scip);
    // Every edge the graph makes is right; `s.area()` on a `Shape` has no edge (no receiver type).
    expect(before.all).toMatchObject({ gold: 11, judged: 10, hits: 10 });
    expect(before.by_tier).toEqual({ ast_resolved: { edges: 12, judged: 10, hits: 10, precision: 1 } });
    // The two edges into build's local helpers are not SCIP definitions: not judged.
    expect(before.unjudged).toEqual({ caller_unknown: 0, callee_unknown: 2, misattributed: 0 });
    expect(before.sample.missed).toEqual([{ caller: 'src/main.ts::total', callee: 'src/shapes.ts::Shape.area', kind: 'method', why: 'no_edge' }]);
    expect(before.by_kind.method).toMatchObject({ gold: 3, judged: 2, hits: 2 });

    await enrichment().schedule(root, engine, root);
    const after = scoreGraph(engine, root, scip);
    expect(after.all).toMatchObject({ gold: 11, hits: 11, precision: 1, recall: 1 });
    expect(after.by_tier.lsp_resolved?.hits).toBeGreaterThanOrEqual(10);
    // The server's implementation answer for `s.area()`: Square.area, which implements Shape.area.
    expect(after.by_tier.lsp_dispatch).toEqual({ edges: 1, judged: 1, hits: 1, precision: 1 });
    expect(after.sample.wrong).toEqual([]);
  });
});

describe('Python: gold from scip-python, graph scored against it', () => {
  const root = fixtureCopy('edges/py', 'edges-py');
  let scip = '';

  beforeAll(async () => {
    scip = await scipIndexOf({ id: 'fixture-py', name: 'fixture', version: '1', indexer: 'scip-python' }, root, cache, () => {});
  });

  test('the gold holds exactly the calls made in function bodies', () => {
    // `super().__init__(…)` is a constructor call of Base; the nested `inner` is local to build.
    // `s.area()` on an untyped parameter binds to nothing, so it is no gold edge.
    expect(goldLines(root, scip)).toEqual([
      'pkg/main.py::Report.run -> pkg/main.py::Report.twice method',
      'pkg/main.py::Report.run -> pkg/main.py::build function',
      'pkg/main.py::Report.run -> pkg/main.py::total function',
      'pkg/main.py::Report.twice -> pkg/shapes.py::square function',
      'pkg/main.py::build -> pkg/shapes.py::Base.describe method',
      'pkg/main.py::build -> pkg/shapes.py::Square constructor',
      'pkg/main.py::build -> pkg/shapes.py::square function',
      'pkg/shapes.py::Square.__init__ -> pkg/shapes.py::Base constructor',
      'pkg/shapes.py::Square.area -> pkg/shapes.py::square function',
    ]);
    // The pyright settings file is written for the run only.
    expect(fs.existsSync(path.join(root, 'pyrightconfig.json'))).toBe(false);
  });

  test('a call on an untyped receiver is left unresolved, not guessed by name: every edge is right before and after enrichment', async () => {
    const engine = new Engine({ home: tempHome(), threads: 2 });
    await engine.indexRepo(root);
    const before = scoreGraph(engine, root, scip);
    // `s.area()` on an untyped parameter: the one `area` defined is not guessed (such guesses were
    // mostly wrong on real Python code), so the graph holds no wrong edge.
    expect(before.all).toMatchObject({ gold: 9, judged: 9, hits: 9, recall: 1, precision: 1 });
    expect(before.by_tier.text_matched).toBeUndefined();
    expect(before.sample.wrong).toEqual([]);
    await enrichment().schedule(root, engine, root);
    const after = scoreGraph(engine, root, scip);
    // pyright confirms every resolved edge and has no answer for `s.area()`, so nothing is added
    // (the tenth confirmed edge, build → its nested inner, is local and not judged).
    expect(after.by_tier.lsp_resolved).toEqual({ edges: 10, judged: 9, hits: 9, precision: 1 });
    expect(after.all).toMatchObject({ gold: 9, judged: 9, hits: 9 });
  });
});

/** A fixture whose indexer records no body extents (scip-go, SemanticDB): copied, its gold made and the copy indexed. */
function spannedFixture(dir: string, indexer: ScipIndexer): { root: string; gold: string; engine: Engine } {
  const fx = { root: fixtureCopy(`edges/${dir}`, `edges-${dir}`), gold: '', engine: undefined as unknown as Engine };
  beforeAll(async () => {
    // The first run on a machine builds scip-go from the Go module proxy (about a minute).
    fx.gold = await scipIndexOf({ id: `fixture-${dir}`, name: 'fixture', version: '1', indexer }, fx.root, cache, () => {});
    fx.engine = new Engine({ home: tempHome(), threads: 2 });
    await fx.engine.indexRepo(fx.root);
  }, 300_000);
  return fx;
}

/** A spanned fixture's gold: the graph's function spans stand in for body extents (as in `scoreGraph`). */
function spannedGold(fx: { root: string; gold: string; engine: Engine }): Gold {
  const extentOf = bodyExtents(fx.engine.graphDump(fx.root, { maxNodes: 1000 }));
  return goldFromScip(readGold(fx.gold), { sourceOf: (rel) => fs.readFileSync(path.join(fx.root, rel), 'utf8'), extentOf });
}

describe('Go: gold from scip-go, graph scored against it', () => {
  const fx = spannedFixture('go', 'scip-go');

  test('the gold holds exactly the calls made in function bodies', () => {
    const gold = spannedGold(fx);
    // By hand: `&Box{…}`, `new(Box)` and `Cube{}` construct; `Meters(3)` converts; `[]Shape{…}` and
    // the result type before build's body construct nothing; the closure's call counts for build;
    // `c.Area()` is Box's promoted Area; `shapes.Square` passed as a value is no call; `top` is
    // module scope.
    expect([...gold.edges.values()].map((e) => `${e.caller} -> ${e.callee} ${e.kind}`).sort()).toEqual([
      'main.go::build -> shapes/shapes.go::Box constructor',
      'main.go::build -> shapes/shapes.go::Box.Describe method',
      'main.go::main -> main.go::build function',
      'main.go::main -> main.go::total function',
      'main.go::main -> shapes/shapes.go::Box.Area method',
      'main.go::main -> shapes/shapes.go::Cube constructor',
      'main.go::main -> shapes/shapes.go::Map function',
      'main.go::total -> shapes/shapes.go::Shape.Area method',
      'shapes/shapes.go::Box.Area -> shapes/shapes.go::Square function',
    ]);
    expect(gold.outsideBodies).toBe(1);
  });

  test('the index resolves every call the fixture makes, conversions are no calls', () => {
    const report = scoreGraph(fx.engine, fx.root, fx.gold);
    expect(report.sample.wrong).toEqual([]);
    expect(report.sample.missed).toEqual([]);
    expect(report.all).toMatchObject({ gold: 9, judged: 9, hits: 9 });
    expect(Object.keys(report.by_tier)).toEqual(['ast_resolved']);
  });
});

describe('Java: gold from javac with semanticdb-javac, graph scored against it', () => {
  const fx = spannedFixture('java', 'semanticdb-javac');

  test('the gold holds exactly the calls made in method bodies', () => {
    const edges = spannedGold(fx);
    // By hand: `new X(…)`, `super(…)` and `this(…)` construct (a constructor is keyed as the
    // class, and both of Square's constructors as one name); Util's overloads are one name; the
    // lambda's call counts for build; `TOP`'s initializer is outside any body.
    expect([...edges.edges.values()].map((e) => `${e.caller} -> ${e.callee} ${e.kind}`).sort()).toEqual([
      'Main.java::Main.build -> shapes/Base.java::Base.describe method',
      'Main.java::Main.build -> shapes/Square.java::Square constructor',
      'Main.java::Main.build -> shapes/Util.java::Util.square method',
      'Main.java::Main.main -> Main.java::Main.build method',
      'Main.java::Main.main -> Main.java::Main.total method',
      'Main.java::Main.main -> shapes/Base.java::Base constructor',
      'Main.java::Main.main -> shapes/Base.java::Base.describe method',
      'Main.java::Main.total -> shapes/Shape.java::Shape.area method',
      'shapes/Square.java::Square.Square -> shapes/Base.java::Base constructor',
      'shapes/Square.java::Square.Square -> shapes/Square.java::Square constructor',
      'shapes/Square.java::Square.area -> shapes/Util.java::Util.square method',
    ]);
    expect(edges.outsideBodies).toBe(1);
  });

  test('the index resolves every call, super(…) and this(…) included', () => {
    const report = scoreGraph(fx.engine, fx.root, fx.gold);
    expect(report.sample.missed).toEqual([]);
    expect(report.sample.wrong).toEqual([]);
    expect(report.all).toMatchObject({ gold: 11, judged: 11, hits: 11 });
    expect(report.unjudged).toEqual({ caller_unknown: 0, callee_unknown: 0, misattributed: 0 });
  });
});

describe('SCIP reading', () => {
  test('symbols parse into descriptors; locals and garbage do not', () => {
    expect(parseScipSymbol('scip-typescript npm rxjs 7.8.2 src/internal/`Observable.ts`/Observable#`<constructor>`().')?.descriptors).toEqual([
      { name: 'src', suffix: 'namespace' },
      { name: 'internal', suffix: 'namespace' },
      { name: 'Observable.ts', suffix: 'namespace' },
      { name: 'Observable', suffix: 'type' },
      { name: '<constructor>', suffix: 'method' },
    ]);
    expect(parseScipSymbol('scip-python python django 5.1.4 `django.apps.config`/AppConfig#__init__().(self)')?.descriptors.map((d) => d.suffix)).toEqual([
      'namespace',
      'type',
      'method',
      'parameter',
    ]);
    expect(parseScipSymbol('scip-go gomod example.com/m v1 pkg/Type#Method(+1).')?.descriptors.at(-1)).toEqual({ name: 'Method', suffix: 'method' });
    expect(parseScipSymbol('local 12')).toBeNull();
    expect(parseScipSymbol('not a symbol')).toBeNull();
  });

  test('bytes that are not an index fail with what is wrong', () => {
    expect(() => readScip(Uint8Array.from([0x12, 0x40, 0x01]))).toThrow(/truncated/);
    expect(() => readScip(Uint8Array.from([0x0f]))).toThrow(/corrupt \(wire type 7/);
    expect(readScip(new Uint8Array(0)).documents).toEqual([]);
    // SemanticDB is read by the same decoder: truncated or garbled bytes are refused the same way.
    expect(() => readSemanticdb(Uint8Array.from([0x0a, 0x40, 0x01]))).toThrow(/truncated/);
    expect(() => readSemanticdb(Uint8Array.from([0x0f]))).toThrow(/corrupt \(wire type 7/);
    expect(readSemanticdb(new Uint8Array(0))).toEqual([]);
  });

  test('a missing Go toolchain or JDK is refused naming the fix, before any work', () => {
    const saved = process.env.PATH;
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-empty-path-'));
    try {
      expect(() => checkIndexer('scip-go')).toThrow(/Go toolchain, which is not on PATH .*Fix: install Go, or leave the Go corpora out with --corpus/);
      expect(() => checkIndexer('semanticdb-javac')).toThrow(/javac is not on PATH .*Fix: install a JDK/);
    } finally {
      process.env.PATH = saved;
    }
  });

  test('a call follows a name through `?.`, `!`, type arguments and spaces, not through other tokens', () => {
    const yes = ['f(x)', 'f (x)', 'f?.(x)', 'f!(x)', 'f<T>(x)', 'f<Map<K, V>>(x)'];
    const no = ['f.call(x)', 'f', 'f = 1', 'f<T> = g', 'f<T; g(x)'];
    for (const text of yes) expect([text, followedByCall([text], 0, 1)]).toEqual([text, true]);
    for (const text of no) expect([text, followedByCall([text], 0, 1)]).toEqual([text, false]);
    // Go's type arguments come in brackets.
    expect(followedByCall(['f[int](x)'], 0, 1, true)).toBe(true);
    expect(followedByCall(['f[int](x)'], 0, 1)).toBe(false);
  });

  test('a TypeScript method declaration is no call of the interface member it implements; a call is', () => {
    const at = (lines: string[], name: string): boolean => {
      const line = lines.findIndex((l) => l.includes(name));
      const col = lines[line]!.indexOf(name);
      return declaresMethod(lines, line, col, col + name.length);
    };
    expect(at(['    get createNull() { return f(); },'], 'createNull')).toBe(true);
    expect(at(['  private readDir(path: string,', '      depth?: number): string[] {'], 'readDir')).toBe(true);
    expect(at(['  async run(): Promise<void> {'], 'run')).toBe(true);
    expect(at(['    createNull();'], 'createNull')).toBe(false);
    expect(at(['    return createNull() {'], 'createNull')).toBe(false);
    expect(at(['    run(x) :', '      y;'], 'run')).toBe(false);
    expect(at(['    if (run(x)) {'], 'run')).toBe(false);
  });

  test('a site the indexer resolves to a definition of another name is left out of the gold, and the graph edge it names is not judged', () => {
    // scip-python resolves `models.BooleanField()` to `DateTimeField`; `Renamed()` is an import alias.
    const sources: Record<string, string> = {
      'fields.py': ['class BooleanField:', '    pass', 'class DateTimeField:', '    pass', 'class Real:', '    pass'].join('\n'),
      // The alias sits in a parenthesised import list over several lines; `as` in prose binds nothing.
      'use.py': ['from fields import (', '    Real as Renamed,', ')', 'def f():', '    # behaves as BooleanField', '    models.BooleanField()', '    Renamed()', '    DateTimeField()'].join('\n'),
    };
    const sym = (name: string): string => `scip-python python pkg 1 \`fields\`/${name}#`;
    const f = 'scip-python python pkg 1 `use`/f().';
    const index = {
      toolName: 'scip-python',
      projectRoot: 'file:///x',
      documents: [
        {
          relativePath: 'fields.py',
          language: 'python',
          symbols: [],
          occurrences: [
            { range: [0, 6, 0, 18], symbol: sym('BooleanField'), roles: 1 },
            { range: [2, 6, 2, 19], symbol: sym('DateTimeField'), roles: 1 },
            { range: [4, 6, 4, 10], symbol: sym('Real'), roles: 1 },
          ],
        },
        {
          relativePath: 'use.py',
          language: 'python',
          symbols: [],
          occurrences: [
            { range: [3, 4, 3, 5], symbol: f, roles: 1, enclosing: [3, 0, 7, 19] },
            { range: [5, 11, 5, 23], symbol: sym('DateTimeField'), roles: 8 },
            { range: [6, 4, 6, 11], symbol: sym('Real'), roles: 8 },
            { range: [7, 4, 7, 17], symbol: sym('DateTimeField'), roles: 8 },
          ],
        },
      ],
    } as Parameters<typeof goldFromScip>[0];
    const gold = goldFromScip(index, { sourceOf: (rel) => sources[rel] ?? null });
    expect([...gold.edges.keys()].sort()).toEqual(['use.py::f -> fields.py::DateTimeField', 'use.py::f -> fields.py::Real']);
    expect([...gold.misattributed]).toEqual(['use.py::f -> BooleanField']);
    const edge = (callee: string): [string, GraphCallEdge] => [callee, { caller: 'use.py::f', callee, kind: 'constructor', origin: 'ast_resolved' }];
    const graph = new Map([edge('fields.py::BooleanField'), edge('fields.py::Real'), edge('fields.py::DateTimeField')]);
    const keys = new Set(['use.py::f', 'fields.py::BooleanField', 'fields.py::Real', 'fields.py::DateTimeField']);
    const report = scoreEdges(gold, graph, keys);
    expect(report.all).toMatchObject({ gold: 2, judged: 2, hits: 2 });
    expect(report.unjudged).toEqual({ caller_unknown: 0, callee_unknown: 0, misattributed: 1 });
    expect(report.gold_misattributed).toBe(1);
  });

  test('a Go type is constructed by a literal or new, not by a conversion, an element type or a result type', () => {
    const at = (text: string, name: string): boolean => {
      const col = text.indexOf(name);
      return goConstructs([text], [0, col, 0, col + name.length]);
    };
    expect(at('b := &Box{Side: 3}', 'Box')).toBe(true);
    expect(at('b := pkg.Box{}', 'Box')).toBe(true);
    expect(at('p := Pair[int]{1, 2}', 'Pair')).toBe(true);
    expect(at('b := new(pkg.Box)', 'Box')).toBe(true);
    expect(at('m := Meters(3)', 'Meters')).toBe(false);
    expect(at('xs := []Box{}', 'Box')).toBe(false);
    expect(at('m := map[string]Box{}', 'Box')).toBe(false);
    expect(at('func f() Box {', 'Box')).toBe(false);
  });
});

describe('the baseline gate', () => {
  const result = (id: string, precision: number, recall: number): EdgeCorpusResult => {
    const score = { gold: 100, judged: 100, hits: 0, precision, recall, f1: null };
    return {
      id,
      language: 'typescript',
      corpus: `${id}@1`,
      before: { all: score, at_or_above: { ast_inferred: score }, by_tier: {} } as unknown as EdgeCorpusResult['before'],
    };
  };

  test('a drop beyond epsilon fails naming the figure; within it passes; new and failed corpora are told apart', () => {
    const baseline = updatedEdgeBaseline(null, [result('a', 0.9, 0.8), result('b', 0.95, 0.7)], 0.01);
    expect(baseline.corpora.a).toEqual({ corpus: 'a@1', precision: 0.9, recall: 0.8, trusted_precision: 0.9, trusted_recall: 0.8 });
    const verdicts = compareEdges([result('a', 0.895, 0.8), result('b', 0.95, 0.68), result('c', 0.5, 0.5), { id: 'd', language: 'python', corpus: 'd@1', error: 'offline' }], {
      ...baseline,
      corpora: { ...baseline.corpora, d: baseline.corpora.a! },
    }, 0.01);
    expect(verdicts.map((v) => v.status)).toEqual(['ok', 'below', 'new', 'unmeasured']);
    expect(verdicts[1]!.reason).toMatch(/^recall 0\.6800 is below 0\.7000 − 0\.01; trusted_recall/);
    expect(verdicts[3]!.reason).toBe('offline');
  });

  test('a broken baseline file is refused with the fix', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-edges-bl-'));
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"epsilon": 0.01, "corpora": {"x": {"precision": "high"}}}');
    fs.writeFileSync(path.join(dir, 'garbage.json'), 'not json');
    expect(() => readEdgeBaseline(path.join(dir, 'bad.json'))).toThrow(/is not an edges baseline .*--update/);
    expect(() => readEdgeBaseline(path.join(dir, 'garbage.json'))).toThrow(/is not valid JSON/);
    expect(readEdgeBaseline(path.join(dir, 'absent.json'))).toBeNull();
  });

  test('the shipped baseline parses and names only known corpora', () => {
    const baseline = readEdgeBaseline(path.join(__dirname, '..', 'eval', 'edges-baseline.json'))!;
    expect(Object.keys(baseline.corpora).sort()).toEqual(['commons-math', 'django', 'gin', 'gson', 'requests', 'rxjs', 'typescript-src', 'x-tools']);
  });
});

describe('gortex eval edges flags', () => {
  // oclif wraps long messages behind `›` markers.
  const plain = (text: string): string => text.replace(/\s*›\s*/g, ' ');

  test('an unknown corpus, a bad epsilon and a missing baseline are refused before any work', () => {
    const unknown = runCli(['eval', 'edges', '--corpus', 'nope']);
    expect(unknown.status).toBe(2);
    expect(plain(unknown.stderr)).toMatch(/Unknown --corpus "nope": use one of rxjs, typescript-src, requests, django, gin, x-tools, gson, commons-math/);
    const epsilon = runCli(['eval', 'edges', '--epsilon', 'lots']);
    expect(epsilon.status).toBe(2);
    expect(plain(epsilon.stderr)).toMatch(/--epsilon must be a number in \[0, 1\), got "lots"/);
    const missing = runCli(['eval', 'edges', '--baseline', path.join(os.tmpdir(), 'no-such-baseline.json')]);
    expect(missing.status).toBe(2);
    expect(plain(missing.stderr)).toMatch(/No baseline at .*no-such-baseline\.json: create one with --update/);
  });
});
