/** An embedded repository's watcher: native batches reach the graph; snapshot writes are deferred to close. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { openEmbedded } from '../ts/workspace/embedded';
import { fixtureCopy, tempHome } from './helpers/repo';

describe('embedded repository watcher', () => {
  const savedHome = process.env.GORTEX_HOME;
  beforeAll(() => {
    process.env.GORTEX_HOME = tempHome();
  });
  afterAll(() => {
    if (savedHome === undefined) delete process.env.GORTEX_HOME;
    else process.env.GORTEX_HOME = savedHome;
  });

  test('an edit reaches the graph at once; the snapshot is written on close, not by the watcher pass', async () => {
    const root = fixtureCopy('query/app-ts', 'embsnap');
    const repo = await openEmbedded(root, { watch: true });
    const reindexed = new Promise<{ files: string[] }>((resolve) => repo.onReindexed(resolve));
    fs.appendFileSync(path.join(root, 'src', 'format.ts'), '\nexport function deferredSave(): number {\n  return 1;\n}\n');
    const change = await reindexed;
    expect(change.files).toEqual(['src/format.ts']);
    const ctx = await repo.context();
    expect(ctx.engine.query('search_symbols', { query: 'deferredSave' }, { repo: ctx.repo })).toMatchObject({ results: [{ name: 'deferredSave' }] });
    // The saved snapshot still holds the old file: another process sees it as modified on disk.
    const probe = new Engine({ home: process.env.GORTEX_HOME! });
    expect(probe.status(root).stale.modified).toEqual(['src/format.ts']);
    expect(repo.watchState()).toMatchObject({ watching: true, reindexes: 1 });
    repo.close();
    expect(probe.status(root).stale.modified).toEqual([]);
    expect(repo.watchState().watching).toBe(false);
  });

  test('a batch of files is re-read without walking the tree; ignored files stay out; a deleted folder takes a walk', async () => {
    const root = fixtureCopy('query/app-ts', 'embpaths');
    fs.writeFileSync(path.join(root, '.gitignore'), 'generated/\n');
    const repo = await openEmbedded(root, { watch: true });
    const next = (): Promise<{ files: string[]; report: { phases_ms: Record<string, number>; files: { parsed: number } } }> =>
      new Promise((resolve) => {
        const off = repo.onReindexed((change) => {
          off();
          resolve(change);
        });
      });
    const symbols = async (query: string): Promise<string[]> => {
      const ctx = await repo.context();
      const found = ctx.engine.query('search_symbols', { query }, { repo: ctx.repo }) as { results: { name: string; path: string }[] };
      return found.results.map((r) => r.path);
    };
    try {
      let change = next();
      fs.mkdirSync(path.join(root, 'generated'));
      fs.writeFileSync(path.join(root, 'generated', 'out.ts'), 'export function ignoredOutput(): number { return 1; }\n');
      fs.mkdirSync(path.join(root, 'src', 'extra'));
      fs.writeFileSync(path.join(root, 'src', 'extra', 'more.ts'), 'export function extraHelper(): number { return 2; }\n');
      // Folders created in the same burst may take a walk; wait until both files are known.
      await change;
      for (let i = 0; i < 50 && !(await symbols('extraHelper')).includes('src/extra/more.ts'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await symbols('extraHelper')).toContain('src/extra/more.ts');
      expect(await symbols('ignoredOutput')).not.toContain('generated/out.ts');

      change = next();
      fs.appendFileSync(path.join(root, 'src', 'format.ts'), '\nexport function batchOnly(): number {\n  return 3;\n}\n');
      const edited = await change;
      expect(edited.files).toEqual(['src/format.ts']);
      expect(edited.report.phases_ms.walk).toBeUndefined();
      expect(edited.report.files.parsed).toBe(1);
      expect(await symbols('batchOnly')).toEqual(['src/format.ts']);

      change = next();
      fs.rmSync(path.join(root, 'src', 'extra'), { recursive: true });
      const removed = await change;
      expect(removed.report.phases_ms.walk).toBeDefined();
      expect(await symbols('extraHelper')).not.toContain('src/extra/more.ts');
    } finally {
      repo.close();
    }
  });

  test('a watched repository keeps its tables from opening on; a quiet one releases them', async () => {
    const root = fixtureCopy('query/app-ts', 'embrelease');
    const edit = async (repo: Awaited<ReturnType<typeof openEmbedded>>, text: string): Promise<void> => {
      const reindexed = new Promise((resolve) => {
        const off = repo.onReindexed((change) => {
          off();
          resolve(change);
        });
      });
      fs.appendFileSync(path.join(root, 'src', 'format.ts'), text);
      await reindexed;
    };
    // Opened without a watcher (a one-shot query), nothing is kept for a next pass.
    const unwatched = await openEmbedded(root, { watch: false });
    try {
      const ctx = await unwatched.context();
      expect(ctx.lastIndex?.phases_ms['resolve.keep_tables']).toBeUndefined();
      expect(ctx.engine.releaseBuildCaches(root)).toBe(false);
    } finally {
      unwatched.close();
    }
    const repo = await openEmbedded(root, { watch: true, releaseAfterMs: 60_000 });
    try {
      const ctx = await repo.context();
      // Watched, the opening pass builds the tables again once the graph is assembled, so the
      // first edit patches them instead of building them.
      expect(ctx.lastIndex?.phases_ms['resolve.keep_tables']).toBeGreaterThanOrEqual(0);
      // A repository the engine has not indexed is named in the error, with what to do.
      expect(() => ctx.engine.releaseBuildCaches(path.join(root, 'not-a-repo'))).toThrow(/repository not indexed: .*not-a-repo.*call indexRepo first/);
      await edit(repo, '\nexport function keptOne(): number {\n  return 1;\n}\n');
      expect(ctx.lastIndex?.lookup_tables).toBe('patched');
      // A re-index keeps its tables (released once, then nothing is held).
      expect(ctx.engine.releaseBuildCaches(root)).toBe(true);
      expect(ctx.engine.releaseBuildCaches(root)).toBe(false);
      // Released tables are only a cache: the next re-index builds them again and answers right.
      await edit(repo, '\nexport function keptTwo(): number {\n  return keptOne();\n}\n');
      expect(ctx.lastIndex?.lookup_tables).toBe('built');
      expect(ctx.engine.query('get_callers', { id: `${ctx.lastIndex?.repo}/src/format.ts::keptOne` }, { repo: ctx.repo })).toMatchObject({
        callers: [expect.objectContaining({ caller: expect.objectContaining({ name: 'keptTwo' }) })],
      });
    } finally {
      repo.close();
    }
    const quiet = await openEmbedded(root, { watch: true, releaseAfterMs: 150 });
    try {
      const ctx = await quiet.context();
      await edit(quiet, '\n// quiet now\nexport function keptThree(): number {\n  return 3;\n}\n');
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(ctx.engine.releaseBuildCaches(root)).toBe(false);
    } finally {
      quiet.close();
    }
  });
});
