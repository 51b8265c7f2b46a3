/**
 * Reading the repository as it was at another git revision (`search_symbols ref`): the revision's
 * tracked files are written out once under `<GORTEX_HOME>/revisions/<repo>@<sha>/` through a private
 * index file (never touching the repository's worktree, index or refs) and indexed by an engine of their own,
 * under the repository's name so node ids read like the live ones. The last few revisions stay
 * loaded in the process; their snapshots stay on disk, so a later process opens them without
 * parsing again.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../engine/engine';
import { gortexHome } from '../support/home';
import { git } from '../support/git';
import type { ToolContext } from '../workspace/context';
import { repoNameOf, ToolInputError } from './registry';

/** Revisions kept loaded per process (each holds a whole index). */
const LOADED_REVISIONS = 2;

/** One revision, indexed. */
export interface Revision {
  engine: Engine;
  /** The engine's key for the revision's tree. */
  repo: string;
  /** The full commit id the ref named. */
  commit: string;
}

const loaded = new Map<string, Promise<Revision>>();

/** The commit `ref` names in the repository at `root`, or a refusal saying what to pass. */
async function commitOf(root: string, ref: string): Promise<{ commit: string; top: string }> {
  if (ref.trim() === '' || ref.startsWith('-')) throw new ToolInputError('invalid_argument', `ref must name a commit (a branch, tag or commit id), got ${JSON.stringify(ref)}`);
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (!top.ok) throw new ToolInputError('unavailable', `ref needs a git repository: ${root} is not inside one (${top.error})`);
  const r = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!r.ok || r.stdout.trim() === '') throw new ToolInputError('invalid_argument', `ref ${JSON.stringify(ref)} is not a commit of this repository: pass a branch, tag or commit id git rev-parse resolves`);
  return { commit: r.stdout.trim(), top: top.stdout.trim() };
}

/** Writes the tracked files of `commit` under `root` (a folder of the worktree at `top`) to `dir`, atomically. */
async function materialise(top: string, root: string, commit: string, dir: string): Promise<void> {
  if (fs.existsSync(dir)) return;
  const sub = path.relative(fs.realpathSync(top), fs.realpathSync(root)).split(path.sep).join('/');
  const staging = `${dir}.partial-${process.pid}-${Date.now()}`;
  const index = `${staging}.index`;
  try {
    fs.mkdirSync(staging, { recursive: true });
    // A private index file: the commit's tree is read into it and checked out under the staging
    // folder, so the repository's own index, worktree and refs stay untouched, and every tracked
    // file comes out (`git archive` would leave out what `export-ignore` marks, often tests).
    const script = 'git read-tree "$1" && git checkout-index -a -f --prefix="$2/"';
    await new Promise<void>((resolve, reject) => {
      execFile('sh', ['-c', script, 'sh', commit, staging], { cwd: top, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: '0' } }, (error, _stdout, stderr) =>
        error ? reject(new ToolInputError('internal', `writing out revision ${commit.slice(0, 12)} failed: ${(stderr || error.message).trim()}`)) : resolve(),
      );
    });
    const tree = sub === '' ? staging : path.join(staging, sub);
    if (!fs.existsSync(tree)) fs.mkdirSync(tree, { recursive: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      fs.renameSync(tree, dir);
    } catch (error) {
      // Another process wrote the same revision first: its copy is as good.
      const code = (error as NodeJS.ErrnoException).code;
      if (!(code === 'ENOTEMPTY' || code === 'EEXIST') || !fs.existsSync(dir)) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(index, { force: true });
  }
}

/** The repository at `ref`, indexed (written out and parsed on first use). */
export async function atRevision(ctx: ToolContext, ref: string): Promise<Revision> {
  const { commit, top } = await commitOf(ctx.root, ref);
  const name = repoNameOf(ctx);
  const key = `${ctx.root}\0${commit}`;
  let pending = loaded.get(key);
  if (pending) {
    // Most recently used last: eviction takes the oldest use.
    loaded.delete(key);
    loaded.set(key, pending);
  } else {
    pending = (async () => {
      const base = path.join(gortexHome(), 'revisions', `${name}@${commit.slice(0, 12)}`);
      const dir = path.join(base, name);
      await materialise(top, ctx.root, commit, dir);
      const engine = new Engine({ home: path.join(base, 'home') });
      await engine.indexRepo(dir, { name, respectGitignore: false });
      return { engine, repo: dir, commit };
    })();
    loaded.set(key, pending);
    pending.catch(() => loaded.delete(key));
    while (loaded.size > LOADED_REVISIONS) {
      const oldest = loaded.keys().next().value as string;
      const evicted = loaded.get(oldest);
      loaded.delete(oldest);
      // Its index is dropped now rather than when the collector gets to the engine.
      void evicted?.then((r) => r.engine.forget(r.repo)).catch(() => undefined);
    }
  }
  return pending;
}
