/**
 * The real napi Engine on a real fixture repository: indexing with progress, lookups, edges,
 * incremental updates, status, cancellation and clear errors for bad input.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine, IndexCancelledError, type ProgressEvent } from '../ts/engine/engine';
import { PACKAGE_ROOT } from './helpers/cli';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('Engine', () => {
  let root: string;
  let engine: Engine;

  beforeAll(() => {
    root = fixtureCopy('resolver/ts', 'webapp');
    engine = new Engine({ home: tempHome(), threads: 2 });
  });

  test('indexes cold with progress, then reports unchanged', async () => {
    const events: ProgressEvent[] = [];
    const report = await engine.indexRepo(root, { onProgress: (e) => events.push(e) });
    expect(report.repo).toBe('webapp');
    expect(report.mode).toBe('cold');
    // 10 TypeScript files beside golden.txt, tsconfig.json and two package.json files.
    expect(report.files.total).toBe(14);
    expect(report.languages.typescript?.files).toBe(10);
    expect(report.languages.json?.files).toBe(3);
    expect(report.nodes.by_kind.method).toBeGreaterThanOrEqual(4);
    expect(report.edges.by_origin.ast_resolved).toBeGreaterThan(20);
    expect(report.failures).toEqual([]);
    expect(new Set(events.map((e) => e.phase))).toEqual(new Set(['load', 'walk', 'parse', 'resolve', 'save']));
    const parseDone = events.filter((e) => e.phase === 'parse').pop();
    expect(parseDone).toEqual({ phase: 'parse', done: 14, total: 14 });
    expect(fs.existsSync(report.snapshot.path)).toBe(true);

    const again = await engine.indexRepo(root);
    expect(again.mode).toBe('unchanged');
    expect(again.files.parsed).toBe(0);
  });

  test('every progress event reaches the listener before the pass resolves, even when the JS thread was busy', async () => {
    // Keep the JS thread from running while the pass finishes: its completion and its queued
    // events are then pending together, and the completion must not overtake the events.
    const busyRoot = fixtureCopy('resolver/ts', 'busy');
    const busy = new Engine({ home: tempHome(), threads: 2 });
    const events: ProgressEvent[] = [];
    const pass = busy.indexRepo(busyRoot, { onProgress: (e) => events.push(e) });
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      // a synchronous wait, on purpose
    }
    const report = await pass;
    expect(report.mode).toBe('cold');
    expect(events.map((e) => e.phase)).toContain('save');
    expect(events.filter((e) => e.phase === 'parse').pop()).toEqual({ phase: 'parse', done: 14, total: 14 });
  });

  test('looks up nodes, file symbols and edges', () => {
    const save = engine.getNode('webapp', 'webapp/src/lib/store.ts::Store.save');
    expect(save).toMatchObject({
      kind: 'method',
      name: 'save',
      qualified: 'Store.save',
      path: 'src/lib/store.ts',
      language: 'typescript',
      start_line: 3,
    });
    expect(engine.getNode('webapp', 'webapp/src/lib/store.ts::Nope')).toBeNull();

    const symbols = engine.fileSymbols(root, 'src/lib/store.ts').map((n) => `${n.kind} ${n.qualified}`);
    expect(symbols).toEqual([
      'file src/lib/store.ts',
      'type Store',
      'method Store.save',
      'method Store.validate',
      'method Store.self',
      'method Store.using',
      'type Task',
      'method Task.constructor',
      'function openStore',
      'type Runner',
      'method Runner.call',
      'method Runner.send',
      'function tally',
      'interface Chime',
      'field Chime.ring',
    ]);

    const callers = engine
      .edges('webapp', 'webapp/src/lib/store.ts::Store.save', { direction: 'in', kinds: ['calls'] })
      .map((e) => `${e.from} ${e.origin} L${e.line}`);
    expect(callers).toEqual([
      'webapp/src/app.ts::App.start ast_resolved L18',
      'webapp/src/app.ts::chains ast_inferred L37',
      'webapp/src/app.ts::callbacks ast_inferred L44',
    ]);

    const out = engine.edges('webapp', 'webapp/src/app.ts::App.start', { direction: 'out', kinds: ['calls'] });
    expect(out.map((e) => e.to)).toEqual(
      expect.arrayContaining([
        'webapp/src/lib/util.ts::helper',
        'webapp/packages/core/src/index.ts::coreFn',
        'external::fs.readFileSync',
      ]),
    );
    expect(out.every((e) => e.resolved)).toBe(true);
  });

  test('answers bad input with errors that say what to do', () => {
    expect(() => engine.edges('webapp', 'webapp/src/nope.ts::X')).toThrow('node not found: "webapp/src/nope.ts::X"');
    expect(() => engine.edges('webapp', 'webapp/src/app.ts::App.start', { direction: 'sideways' as never })).toThrow(
      /invalid direction "sideways": use in, out or both/,
    );
    expect(() => engine.edges('webapp', 'webapp/src/app.ts::App.start', { kinds: ['callz'] })).toThrow(/unknown edge kind "callz"; valid kinds: defines/);
    expect(() => engine.fileSymbols('webapp', 'src/missing.ts')).toThrow(/file not indexed: "src\/missing.ts"/);
    expect(() => engine.stats('not-a-repo')).toThrow(/repository not indexed: "not-a-repo" \(call indexRepo first\)/);
    expect(() => engine.updateFiles('webapp', ['../../etc/passwd'])).toThrow(/outside the repository/);
  });

  test('updateFiles re-parses edits and the graph follows', () => {
    fs.writeFileSync(
      path.join(root, 'src/lib/util.ts'),
      'export function helper(): void {}\nexport function extra(): void { helper(); }\nexport default function main(): void {}\n',
    );
    const report = engine.updateFiles('webapp', ['src/lib/util.ts']);
    expect(report.files.parsed).toBe(1);
    const callers = engine.edges('webapp', 'webapp/src/lib/util.ts::helper', { direction: 'in', kinds: ['calls'] }).map((e) => e.from);
    expect(callers).toContain('webapp/src/lib/util.ts::extra');
    expect(callers).not.toContain('webapp/src/lib/util.ts::main');
    expect(report.files.resolved).toBeLessThan(report.files.total);
    expect(engine.persist('webapp')).toBeGreaterThan(1000);
  });

  test('updateFiles keeps to the options the repository was indexed with', async () => {
    const repoRoot = fixtureCopy('resolver/ts', 'excluding');
    const own = new Engine({ home: tempHome(), threads: 2 });
    await own.indexRepo(repoRoot, { name: 'excluding', exclude: ['src/gen/'] });
    fs.mkdirSync(path.join(repoRoot, 'src/gen'));
    fs.writeFileSync(path.join(repoRoot, 'src/gen/out.ts'), 'export function generated(): void {}\n');
    fs.writeFileSync(path.join(repoRoot, 'src/kept.ts'), 'export function kept(): void {}\n');
    const report = own.updateFiles('excluding', ['src/gen/out.ts', 'src/kept.ts']);
    expect(report.files.parsed).toBe(1);
    expect(own.fileSymbols('excluding', 'src/kept.ts').map((n) => n.name)).toEqual(['kept.ts', 'kept']);
    expect(() => own.fileSymbols('excluding', 'src/gen/out.ts')).toThrow(/file not indexed/);
  });

  test('status compares the snapshot with the disk', async () => {
    await engine.indexRepo(root);
    expect(engine.status(root)).toMatchObject({ indexed: true, fresh: true, files: 14 });
    fs.writeFileSync(path.join(root, 'src/added.ts'), 'export const z = 1;\n');
    const stale = engine.status(root);
    expect(stale.fresh).toBe(false);
    expect(stale.stale.added).toEqual(['src/added.ts']);
    const fresh = engine.status(fixtureCopy('resolver/go', 'never-indexed'));
    expect(fresh.indexed).toBe(false);
  });

  test('survey counts what an index would read, on a worker thread, honouring the options', async () => {
    const tree = fixtureCopy('resolver/ts', 'surveyed');
    const pending = engine.survey(tree);
    // A promise at once: the walk runs off the event loop (a large tree takes a second).
    expect(pending).toBeInstanceOf(Promise);
    const all = await pending;
    expect(all.files).toBe(14);
    // Every file of this fixture is indexed (TypeScript, JSON and golden.txt).
    const bytes = [...walkFiles(tree)].reduce((sum, f) => sum + fs.statSync(f).size, 0);
    expect(all.bytes).toBe(bytes);
    const fewer = await engine.survey(tree, { exclude: ['**/*.json'] });
    expect(fewer.files).toBe(11);
    await expect(engine.survey(path.join(tree, 'missing'))).resolves.toEqual({ files: 0, bytes: 0 });
  });

  test('a cancelled pass rejects with IndexCancelledError and leaves the engine usable', async () => {
    const other = new Engine({ home: tempHome(), threads: 1 });
    const controller = new AbortController();
    controller.abort();
    await expect(other.indexRepo(root, { signal: controller.signal })).rejects.toBeInstanceOf(IndexCancelledError);
    const report = await other.indexRepo(root);
    expect(report.mode).toBe('cold');
  });

  test('concurrent passes over one repository are serialised and leave one valid snapshot', async () => {
    const home = tempHome();
    const shared = new Engine({ home, threads: 2 });
    const repo = fixtureCopy('resolver/py', 'concurrent');
    const reports = await Promise.all([shared.indexRepo(repo), shared.indexRepo(repo), shared.indexRepo(repo)]);
    expect(reports.map((r) => r.mode).sort()).toEqual(['cold', 'unchanged', 'unchanged']);
    const snapshots = fs.readdirSync(path.join(home, 'snapshots'));
    expect(snapshots.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const fresh = new Engine({ home, threads: 1 });
    expect((await fresh.indexRepo(repo)).mode).toBe('unchanged');
  });

  test('a watcher batch re-reads only its paths and refuses one outside the repository', async () => {
    const repoRoot = fixtureCopy('resolver/ts', 'batches');
    const own = new Engine({ home: tempHome(), threads: 2 });
    await own.indexRepo(repoRoot, { name: 'batches' });
    fs.appendFileSync(path.join(repoRoot, 'src/lib/util.ts'), '\nexport function batched(): void {}\n');
    const report = await own.indexRepo(repoRoot, { name: 'batches', persist: false, paths: ['src/lib/util.ts'] });
    expect(report.files.parsed).toBe(1);
    expect(report.phases_ms.walk).toBeUndefined();
    expect(own.fileSymbols('batches', 'src/lib/util.ts').map((n) => n.name)).toContain('batched');
    const before = own.stats('batches');
    await expect(own.indexRepo(repoRoot, { name: 'batches', paths: ['../../etc/passwd'] })).rejects.toThrow(/outside the repository/);
    expect(own.stats('batches')).toEqual(before);
  });

  test('provisional serves only while an opening pass runs; the complete index replaces it', async () => {
    const repoRoot = fixtureCopy('resolver/ts', 'warming');
    const own = new Engine({ home: tempHome(), threads: 2 });
    expect(await own.provisional(repoRoot)).toEqual({ available: false, reason: 'not_warming' });
    const pass = own.indexRepo(repoRoot);
    // Asked while the pass runs: whatever it can serve at that moment, in one of the documented shapes.
    const during = await own.provisional(repoRoot);
    if (during.available) {
      expect(during.files).toBeGreaterThan(0);
      expect(during.files).toBeLessThanOrEqual(during.total);
    } else {
      expect(['walking', 'parsing', 'resolving', 'ready', 'not_warming']).toContain(during.reason);
    }
    await pass;
    expect(await own.provisional(repoRoot)).toEqual({ available: false, reason: 'not_warming' });
    expect(own.repos().map((r) => [r.name, r.provisional, r.files])).toEqual([['warming', false, 14]]);
    await expect(own.provisional('/no/such/gortex/root')).resolves.toEqual({ available: false, reason: 'not_warming' });
  });

  test('a failed opening pass withdraws the provisional index it served', () => {
    // A child process, so the slow-parse test hook can be switched on for the native side.
    const repoRoot = fixtureCopy('resolver/ts', 'withdrawn');
    const script = `
      const { Engine } = require(${JSON.stringify(path.join(PACKAGE_ROOT, 'native'))});
      const engine = new Engine({ home: ${JSON.stringify(tempHome())}, threads: 1 });
      const root = ${JSON.stringify(repoRoot)};
      const out = {};
      (async () => {
        const pass = engine.indexRepo(root).then(() => 'completed', (e) => String(e.message));
        for (let i = 0; i < 400; i++) {
          const p = JSON.parse(await engine.provisional(root));
          if (p.available) { out.provisional = p; break; }
          await new Promise((r) => setTimeout(r, 10));
        }
        out.during = JSON.parse(engine.repos()).map((r) => [r.name, r.provisional]);
        out.nodes = JSON.parse(engine.stats('withdrawn')).nodes;
        engine.cancel();
        out.pass = await pass;
        out.after = JSON.parse(engine.repos()).map((r) => r.name);
        try { engine.query('withdrawn', 'search_symbols', JSON.stringify({ query: 'helper' })); out.query = 'answered'; }
        catch (e) { out.query = String(e.message); }
        out.provisionalAfter = JSON.parse(await engine.provisional(root));
        console.log(JSON.stringify(out));
      })().catch((e) => console.log(JSON.stringify({ error: String(e), ...out })));`;
    const r = spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { ...process.env, GORTEX_TEST_HOOKS: '1', GORTEX_TEST_PARSE_DELAY_MS: '150' },
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.error).toBeUndefined();
    expect(out.provisional.available).toBe(true);
    expect(out.provisional.files).toBeLessThan(out.provisional.total);
    expect(out.during).toEqual([['withdrawn', true]]);
    expect(out.nodes).toBe(out.provisional.nodes);
    expect(out.pass).toMatch(/cancel/i);
    expect(out.after).toEqual([]);
    expect(out.query).toMatch(/withdrawn/);
    expect(out.provisionalAfter).toEqual({ available: false, reason: 'not_warming' });
  });

  test('a missing root is rejected with its path', async () => {
    await expect(engine.indexRepo('/no/such/gortex/root')).rejects.toThrow(/\/no\/such\/gortex\/root/);
  });
});

/** Every file under `dir`, recursively. */
function* walkFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(full);
    else if (entry.isFile()) yield full;
  }
}
