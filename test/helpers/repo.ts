/** Temporary repositories made from the checked-in fixtures. */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** `test/fixtures` of this package. */
export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

/** Copies `test/fixtures/<rel>` into a fresh temp dir named `name` and returns its path. */
export function fixtureCopy(rel: string, name: string): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-test-'));
  const root = path.join(parent, name);
  fs.cpSync(path.join(FIXTURES, rel), root, { recursive: true });
  return root;
}

/** A fresh, empty GORTEX_HOME. */
export function tempHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-home-'));
}

/** Points GORTEX_HOME at a fresh temp home for the enclosing `describe` (call it first there), and restores it after. */
export function useTempHome(): void {
  const saved = process.env.GORTEX_HOME;
  beforeAll(() => {
    process.env.GORTEX_HOME = tempHome();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.GORTEX_HOME;
    else process.env.GORTEX_HOME = saved;
  });
}

/** A git repository (one commit) in a fresh temp folder named `name`, holding `files`. */
export function gitRepo(name: string, files: Record<string, string>): string {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-repo-')), name);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return root;
}

/** Every file under `root` (build output and .git left out) with its text: "nothing was written" checks. */
export function snapshotFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['.git', 'out', 'target', 'dist', '__pycache__', 'node_modules'].includes(e.name)) continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out[path.relative(root, abs)] = fs.readFileSync(abs, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** Runs a program in `cwd` and returns its stdout; a non-zero exit throws with its output. */
export function runProgram(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** One commit of a scripted history: who, when, what, and the files it writes (`null` deletes). */
export interface HistoryStep {
  author: string;
  date: string;
  message: string;
  files: Record<string, string | null>;
  tag?: string;
}

/** A git repository in a fresh temp folder named `name`, built commit by commit from `steps`. */
export function gitHistory(name: string, steps: HistoryStep[]): string {
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-history-')), name);
  fs.mkdirSync(root, { recursive: true });
  const git = (step: HistoryStep, ...args: string[]): void => {
    const who = { GIT_AUTHOR_NAME: step.author, GIT_AUTHOR_EMAIL: `${step.author.toLowerCase()}@example.com`, GIT_AUTHOR_DATE: step.date };
    const env = { ...process.env, ...who, GIT_COMMITTER_NAME: who.GIT_AUTHOR_NAME, GIT_COMMITTER_EMAIL: who.GIT_AUTHOR_EMAIL, GIT_COMMITTER_DATE: step.date };
    execFileSync('git', args, { cwd: root, stdio: 'ignore', env });
  };
  git(steps[0]!, 'init', '-q', '-b', 'main');
  for (const step of steps) {
    for (const [rel, text] of Object.entries(step.files)) {
      const abs = path.join(root, rel);
      if (text === null) fs.rmSync(abs, { force: true });
      else {
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, text);
      }
    }
    git(step, 'add', '-A');
    git(step, 'commit', '-q', '-m', step.message);
    if (step.tag) git(step, 'tag', step.tag);
  }
  return root;
}
