/**
 * Read-only git: one command run in a repository root without taking locks, and the repository
 * facts (work tree, branch, HEAD) the workspace view and the pre-commit review start from.
 */
import { execFile } from 'node:child_process';

/** The outcome of one git command run in the repository root. */
export type GitResult = { ok: true; stdout: string } | { ok: false; error: string };

/** Runs `git args…` in `root` without taking locks (a read-only server must not write `.git/index.lock`). */
export function git(root: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 15_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const detail = code === 'ENOENT' ? 'git is not installed or not on PATH' : (stderr || error.message).trim();
          resolve({ ok: false, error: detail });
        } else {
          resolve({ ok: true, stdout });
        }
      },
    );
  });
}

/** Git facts about the repository root, or why there are none. */
export interface GitInfo {
  is_repo: boolean;
  top_level?: string;
  /** Current branch; absent on a detached HEAD. */
  branch?: string;
  /** Commit of HEAD; absent before the first commit. */
  head?: string;
  /** Why `is_repo` is false. */
  reason?: string;
}

/** Whether `root` is inside a git work tree, and its branch and HEAD when it is. */
export async function gitInfo(root: string): Promise<GitInfo> {
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.stdout.trim() !== 'true') {
    return { is_repo: false, reason: inside.ok ? 'not inside a git work tree' : inside.error };
  }
  const info: GitInfo = { is_repo: true };
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (top.ok) info.top_level = top.stdout.trim();
  const branch = await git(root, ['symbolic-ref', '--short', '-q', 'HEAD']);
  if (branch.ok && branch.stdout.trim()) info.branch = branch.stdout.trim();
  const head = await git(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  if (head.ok && head.stdout.trim()) info.head = head.stdout.trim();
  return info;
}
