/** Resolving the repository a CLI command works on. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './usage-error';


/**
 * The root to index for `input` (default: the current directory): the enclosing git work tree
 * (a folder holding `.git`, a directory or a worktree file), else the folder itself.
 */
export function resolveRepoRoot(input: string | undefined, cwd: string = process.cwd()): string {
  const given = input ?? '.';
  const absolute = path.resolve(cwd, given);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new UsageError(`Path does not exist: ${given}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`Not a directory: ${given}`);
  const real = fs.realpathSync(absolute);
  for (let dir = real; ; ) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return real;
    dir = parent;
  }
}
