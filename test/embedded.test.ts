/** An embedded repository's watcher: native batches reach the graph; snapshot writes are deferred to close. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { openEmbedded } from '../ts/mcp/embedded';
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
});
