/** `gortex eval parity`: coverage on a real fixture graph, the baseline file, the gate, corpus caching and bad flags (no network). */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine, type GraphDump } from '../ts/engine/engine';
import {
  baselineProblems,
  compareWithBaseline,
  coverageOf,
  unresolvedCallsByPath,
  updatedBaseline,
  type ParityBaseline,
} from '../ts/eval/parity';
import { CorpusFetchError, ensureCorpus, PARITY_CORPORA, PARITY_LANGUAGES, type ParityCorpus } from '../ts/eval/parity-corpora';
import { runCli, PACKAGE_ROOT } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('coverageOf on a real graph (query/app-ts)', () => {
  test('counts symbol files, covered files, symbols and call tiers exactly', async () => {
    const root = fixtureCopy('query/app-ts', 'app-ts');
    const engine = new Engine({ home: tempHome(), threads: 2 });
    await engine.indexRepo(root);
    const dump = engine.graphDump(root, { maxNodes: 1_000_000 });
    expect(dump.truncated).toBe(false);
    const unresolved = unresolvedCallsByPath(engine, root, dump);
    // By hand from the sources: legacy.ts `x.flush()` (two candidates), render.ts `fn()` in decorate
    // and `console.log` in summarize are the only references left unresolved, all calls.
    expect(unresolved.total).toBe(engine.stats(root).unresolved);
    expect([...unresolved.calls.entries()].sort()).toEqual([
      ['src/legacy.ts', 1],
      ['src/render.ts', 2],
    ]);
    const all = coverageOf(dump, unresolved.calls);
    // package.json is indexed too, but documents are not measured.
    expect(dump.nodes.some((n) => n.kind === 'file' && n.language === 'json')).toBe(true);
    expect(Object.keys(all)).toEqual(['typescript']);
    const ts = all.typescript!;
    // 8 files; empty.ts declares nothing, so 7 symbol files. Covered (another file imports or uses
    // them): format.ts (cli.ts), config.ts (render.ts), render.ts and shapes.ts (render.test.ts,
    // render.ts). cli.ts, legacy.ts and render.test.ts are used by no other file. legacy.ts's
    // name-matched calls make format.ts covered too, but it already is.
    expect(ts).toMatchObject({ files: 8, symbol_files: 7, covered_files: 4, symbols: 42, symbols_per_file: 6 });
    expect(ts.coverage).toBeCloseTo(4 / 7, 12);
    // 16 call edges: 13 resolved structurally, legacy.ts's three bare calls (its file has no import)
    // matched by name; plus the 3 unresolved calls above.
    expect(ts.calls).toEqual({ sites: 19, by_tier: { ast_resolved: 13, text_matched: 3 }, external: 0, unresolved: 3 });
    // Without the unresolved map the split says it does not know.
    expect(coverageOf(dump).typescript!.calls).toEqual({ sites: 16, by_tier: { ast_resolved: 13, text_matched: 3 }, external: 0, unresolved: null });
  });
});

describe('coverageOf rules (hand-made dump)', () => {
  const node = (id: string, kind: string, p: string, language: string | null = null): GraphDump['nodes'][number] => ({
    id,
    kind,
    name: id.split(/::|\./).pop()!,
    file_path: p,
    start_line: 1,
    end_line: 1,
    language,
    repo_prefix: '',
    degree: 0,
  });
  const dump = (edges: [string, string, string, string?][], truncated = false): GraphDump => ({
    repo: 'r',
    root: '/r',
    total_nodes: 11,
    total_edges: edges.length,
    truncated,
    matched: 11,
    nodes: [
      node('r/a.ts', 'file', 'a.ts', 'typescript'),
      node('r/a.ts::f', 'function', 'a.ts'),
      node('r/b.tsx', 'file', 'b.tsx', 'tsx'),
      node('r/b.tsx::g', 'function', 'b.tsx'),
      node('r/b.tsx::h', 'function', 'b.tsx'),
      node('r/c.go', 'file', 'c.go', 'go'),
      node('r/c.go::K', 'type', 'c.go'),
      node('r/d.go', 'file', 'd.go', 'go'),
      node('r/d.go::imp', 'import', 'd.go'),
      node('r/pkg::pkg', 'package', 'pkg'),
      node('external::react.useState', 'function', ''),
    ],
    edges: edges.map(([from, to, kind, origin]) => ({ from, to, kind, origin: origin ?? 'ast_resolved', count: 1 })),
  });

  test('only resolved use edges from another file cover a file; tsx counts as typescript', () => {
    const cov = coverageOf(
      dump([
        ['r/b.tsx::g', 'r/a.ts::f', 'calls', 'text_matched'], // covers a.ts
        ['r/a.ts::f', 'r/a.ts::f', 'references'], // same file: no
        ['r/b.tsx::g', 'r/b.tsx::h', 'calls'], // same file: no
        ['r/a.ts::f', 'external::react.useState', 'calls'], // external: no
        ['r/c.go', 'r/c.go::K', 'defines'], // structural: no
        ['r/d.go::imp', 'r/c.go::K', 'tests'], // not a use kind: no
        ['r/d.go', 'r/pkg::pkg', 'imports'], // a package node is no file
      ]),
    );
    expect(cov.typescript).toMatchObject({ files: 2, symbol_files: 2, covered_files: 1, coverage: 0.5, symbols: 3, symbols_per_file: 1.5 });
    expect(cov.typescript!.calls).toEqual({ sites: 3, by_tier: { text_matched: 1, ast_resolved: 1 }, external: 1, unresolved: null });
    // d.go holds only an import node: not a symbol file.
    expect(cov.go).toMatchObject({ files: 2, symbol_files: 1, covered_files: 0, coverage: 0, symbols: 1 });
    expect(cov.go!.calls.sites).toBe(0);
  });

  test('a Go type used from another file covers it; unresolved calls land on their file language', () => {
    const cov = coverageOf(dump([['r/d.go::imp', 'r/c.go::K', 'typed_as']]), new Map([['b.tsx', 2], ['c.go', 0], ['gone.rs', 4]]));
    expect(cov.go).toMatchObject({ covered_files: 1, coverage: 1 });
    expect(cov.typescript!.calls).toEqual({ sites: 2, by_tier: {}, external: 0, unresolved: 2 });
    expect(cov.go!.calls).toEqual({ sites: 0, by_tier: {}, external: 0, unresolved: 0 });
  });

  test('a truncated dump is refused', () => {
    expect(() => coverageOf(dump([], true))).toThrow(/truncated/);
  });
});

describe('eval/parity-baseline.json', () => {
  const file = path.join(PACKAGE_ROOT, 'eval', 'parity-baseline.json');
  const baseline = JSON.parse(fs.readFileSync(file, 'utf8')) as ParityBaseline;

  test('is well-formed and has exactly the languages of the corpus list, each in (0, 1]', () => {
    expect(baselineProblems(baseline)).toEqual([]);
    expect(Object.keys(baseline.languages).sort()).toEqual([...PARITY_LANGUAGES].sort());
    for (const [language, entry] of Object.entries(baseline.languages)) {
      expect(entry.coverage).toBeGreaterThan(0);
      expect(entry.coverage).toBeLessThanOrEqual(1);
      const corpus = PARITY_CORPORA.find((c) => c.language === language)!;
      expect(entry.corpus).toBe(`${corpus.name}@${corpus.version}`);
    }
  });

  test('every corpus is pinned by version and sha256', () => {
    expect(new Set(PARITY_LANGUAGES).size).toBe(PARITY_CORPORA.length);
    for (const c of PARITY_CORPORA) {
      expect(c.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(c.url).toContain(c.version.replace(/^v/, ''));
    }
  });

  test('baselineProblems names what is wrong', () => {
    expect(baselineProblems(null)).toEqual(['not a JSON object']);
    expect(baselineProblems({ version: 1, metric: 'm', languages: { go: { corpus: 'gin', coverage: 0 } } })).toEqual([
      'languages.go.coverage must be in (0, 1], got 0',
    ]);
    expect(baselineProblems({ version: 2, languages: { go: { coverage: 1.5 } } })).toEqual([
      '"version" must be 1, got 2',
      'languages.go.coverage must be in (0, 1], got 1.5',
      'languages.go.corpus must be a string',
    ]);
  });
});

describe('the gate', () => {
  const baseline: ParityBaseline = {
    version: 1,
    metric: 'm',
    languages: { go: { corpus: 'gin@1', coverage: 0.5 }, rust: { corpus: 'rg@1', coverage: 0.4 } },
  };

  test('within epsilon passes, below fails, a baselined language not measured counts as 0', () => {
    const ok = compareWithBaseline(
      [
        { language: 'go', corpus: 'gin@1', coverage: 0.4951 },
        { language: 'rust', corpus: 'rg@1', coverage: 0.5 },
      ],
      baseline,
      0.005,
    );
    expect(ok.pass).toBe(true);
    expect(ok.verdicts.map((v) => v.status)).toEqual(['ok', 'ok']);

    const below = compareWithBaseline([{ language: 'go', corpus: 'gin@1', coverage: 0.494 }, { language: 'rust', corpus: 'rg@1', coverage: 0.4 }], baseline, 0.005);
    expect(below.pass).toBe(false);
    expect(below.verdicts[0]).toMatchObject({ language: 'go', status: 'below' });
    expect(below.verdicts[0]!.delta).toBeCloseTo(-0.006, 12);

    const missing = compareWithBaseline([{ language: 'go', corpus: 'gin@1', coverage: 0.6 }], baseline, 0.005);
    expect(missing.pass).toBe(false);
    expect(missing.verdicts[1]).toMatchObject({ language: 'rust', coverage: 0, status: 'unmeasured', reason: 'not measured' });

    const failed = compareWithBaseline(
      [{ language: 'go', corpus: 'gin@1', coverage: null, error: 'Cannot download https://x: ENOTFOUND' }],
      baseline,
      0.005,
      ['go'],
    );
    expect(failed.pass).toBe(false);
    expect(failed.verdicts).toEqual([
      { language: 'go', corpus: 'gin@1', coverage: 0, baseline: 0.5, delta: -0.5, status: 'unmeasured', reason: 'Cannot download https://x: ENOTFOUND' },
    ]);
  });

  test('--lang narrows the check; a language without a baseline passes as new', () => {
    const one = compareWithBaseline([{ language: 'go', corpus: 'gin@1', coverage: 0.5 }], baseline, 0.005, ['go']);
    expect(one).toEqual({ pass: true, verdicts: [expect.objectContaining({ language: 'go', status: 'ok', delta: 0 })] });
    const fresh = compareWithBaseline([{ language: 'java', corpus: 'gson@1', coverage: 0.9 }], baseline, 0.005, ['java']);
    expect(fresh.pass).toBe(true);
    expect(fresh.verdicts[0]).toMatchObject({ status: 'new', baseline: null, delta: null });
  });

  test('--update merges measured languages into the previous baseline, rounded down', () => {
    const next = updatedBaseline(baseline, [
      { language: 'go', corpus: 'gin@2', coverage: 0.56669 },
      { language: 'rust', corpus: 'rg@1', coverage: null, error: 'offline' },
      { language: 'java', corpus: 'gson@1', coverage: 0.93589 },
    ]);
    expect(next.languages).toEqual({
      go: { corpus: 'gin@2', coverage: 0.5666 },
      rust: { corpus: 'rg@1', coverage: 0.4 },
      java: { corpus: 'gson@1', coverage: 0.9358 },
    });
    expect(baselineProblems(next)).toEqual([]);
  });
});

describe('ensureCorpus (no network: the archive is already cached)', () => {
  const makeCorpus = (): { corpus: ParityCorpus; cache: string; archive: string } => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-parity-test-'));
    fs.mkdirSync(path.join(work, 'src', 'package', 'src'), { recursive: true });
    fs.writeFileSync(path.join(work, 'src', 'package', 'src', 'a.ts'), 'export const a = 1;\n');
    const cache = path.join(work, 'cache');
    fs.mkdirSync(path.join(cache, 'archives'), { recursive: true });
    const archive = path.join(cache, 'archives', 'typescript-demo-1.0.0-demo-1.0.0.tgz');
    expect(spawnSync('tar', ['-czf', archive, '-C', path.join(work, 'src'), 'package']).status).toBe(0);
    const sha256 = createHash('sha256').update(fs.readFileSync(archive)).digest('hex');
    const corpus: ParityCorpus = {
      language: 'typescript',
      name: 'demo',
      version: '1.0.0',
      registry: 'npm',
      url: 'https://registry.invalid/demo/-/demo-1.0.0.tgz',
      sha256,
      format: 'tgz',
      inner: 'package',
      subdir: 'src',
      note: 'test',
    };
    return { corpus, cache, archive };
  };

  test('verifies and unpacks a cached archive, then reuses the unpacked folder', async () => {
    const { corpus, cache, archive } = makeCorpus();
    const dir = await ensureCorpus(corpus, cache);
    expect(dir).toBe(path.join(cache, 'typescript-demo-1.0.0', 'src'));
    expect(fs.readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
    fs.rmSync(archive);
    expect(await ensureCorpus(corpus, cache)).toBe(dir);
  });

  test('a checksum mismatch names the URL, removes the file and says what to do', async () => {
    const { corpus, cache, archive } = makeCorpus();
    const wrong = { ...corpus, sha256: '0'.repeat(64) };
    await expect(ensureCorpus(wrong, cache)).rejects.toThrow(CorpusFetchError);
    fs.writeFileSync(archive, 'not the archive');
    await expect(ensureCorpus(wrong, cache)).rejects.toThrow(/https:\/\/registry\.invalid\/demo\/-\/demo-1\.0\.0\.tgz has sha256 .* expected 0{64}.*Fix:/);
    expect(fs.existsSync(archive)).toBe(false);
    expect(fs.existsSync(path.join(cache, 'typescript-demo-1.0.0'))).toBe(false);
  });
});

describe('gortex eval parity flags', () => {
  const env = { GORTEX_HOME: tempHome() };

  test.each([
    [['--epsilon', 'abc'], /--epsilon must be a number in \[0, 1\), got "abc" \(e\.g\. --epsilon 0\.005\)/],
    [['--epsilon', '-0.1'], /--epsilon must be a number in \[0, 1\)/],
    [['--lang', 'cobol'], /Unknown --lang "cobol": use one of typescript, javascript, python, go, rust, java/],
    [['--update', '--json'], /--update prints the baseline JSON already: drop --json/],
    [['--baseline', '/nonexistent/parity.json'], /No baseline at \/nonexistent\/parity\.json: create one with --update/],
    [['--bogus'], /Nonexistent flag: --bogus/],
  ])('%j exits 2 and names the fix', (args, message) => {
    const result = runCli(['eval', 'parity', ...args], { env });
    expect(result.status).toBe(2);
    expect(result.stderr.replace(/\s*›\s*/g, ' ')).toMatch(message);
  });
});
