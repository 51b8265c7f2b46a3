/**
 * The daemon's tracked repositories (`RepoSet`) while admissions are under way: a memory-ceiling
 * admission walks the tree off the event loop, so other `track` and `restore` calls run meanwhile
 * and must find what the first one started rather than open the repository twice.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RepoSet, TrackConflictError } from '../ts/daemon/repos';
import { gitRepo, useTempHome } from './helpers/repo';

describe('RepoSet admissions', () => {
  useTempHome();
  const sets: RepoSet[] = [];
  afterAll(async () => {
    for (const set of sets) await set.close();
  });

  /** A RepoSet whose admissions take `ms` (as a survey of a large tree does) and are counted. */
  function slowlyAdmitting(ms: number): { set: RepoSet; admitted: string[] } {
    const admitted: string[] = [];
    const listFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-repos-')), 'repos.json');
    const set = new RepoSet(listFile, {
      log: () => {},
      allowedRoots: () => undefined,
      admit: async (root) => {
        admitted.push(root);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    sets.push(set);
    return { set, admitted };
  }

  test('two tracks of one repository while it is admitted open it once', async () => {
    const { set, admitted } = slowlyAdmitting(100);
    const root = gitRepo('raced', { 'main.go': 'package main\n\nfunc main() {}\n' });
    const [first, second] = await Promise.all([set.track(root), set.track(root)]);
    expect(admitted).toHaveLength(2);
    expect(second).toBe(first);
    expect(set.all()).toHaveLength(1);
    await first.ready;
  });

  test('a name taken by another repository while this one was admitted is refused, naming it', async () => {
    const { set } = slowlyAdmitting(100);
    const a = gitRepo('same', { 'a.go': 'package a\n' });
    const b = gitRepo('same', { 'b.go': 'package b\n' });
    const [taken, refused] = await Promise.allSettled([set.track(a), set.track(b)]);
    expect(taken.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    const error = (refused as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(TrackConflictError);
    expect(error.message).toBe(`the name "same" is already used by ${fs.realpathSync(a)}; pass --name to choose another`);
    expect(set.all().map((t) => t.entry.root)).toEqual([fs.realpathSync(a)]);
    await (taken as PromiseFulfilledResult<Awaited<ReturnType<RepoSet['track']>>>).value.ready;
  });
});
