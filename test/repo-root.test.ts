import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { resolveRepoRoot } from '../ts/support/repo-root';
import { UsageError } from '../ts/support/usage-error';

describe('resolveRepoRoot', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-root-')));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('a folder inside a git work tree resolves to the work tree root', () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
    const init = spawnSync('git', ['init', '-q', repo], { encoding: 'utf8' });
    expect(init.status).toBe(0);
    expect(resolveRepoRoot('src/deep', repo)).toBe(repo);
    expect(resolveRepoRoot(undefined, path.join(repo, 'src'))).toBe(repo);
  });

  test('a folder outside any git work tree resolves to itself', () => {
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain);
    // tmp dirs are normally outside any repo; if not, the enclosing root is still an ancestor.
    const resolved = resolveRepoRoot(plain);
    expect(plain === resolved || plain.startsWith(resolved + path.sep)).toBe(true);
  });

  test('a missing path and a file are usage errors with exit code 2', () => {
    const file = path.join(tmp, 'file.txt');
    fs.writeFileSync(file, 'x');
    for (const [input, message] of [
      [path.join(tmp, 'missing'), 'Path does not exist'],
      [file, 'Not a directory'],
    ] as const) {
      let caught: unknown;
      try {
        resolveRepoRoot(input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as UsageError).exitCode).toBe(2);
      expect((caught as Error).message).toBe(`${message}: ${input}`);
    }
  });
});
