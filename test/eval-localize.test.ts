/**
 * `gortex eval localize`: the gold read from a patch (changed base lines → enclosing functions),
 * the code-aware BM25 baselines, the checked-in task set, and a whole run against a real git
 * mirror in a temp dir (checkout at two base commits, incremental index, explore and the baselines).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { bm25Rank, codeTokens, findMirror, loadTasks, patchedFiles, runLocalize, TEST_PATH, touchedFunctions, type TaskRankings } from '../ts/eval/localize';
import { localToolCall } from '../ts/cli/eval-tool-call';
import { PACKAGE_ROOT, runCli, unwrapCliError } from './helpers/cli';

const PATCH = `diff --git a/pkg/models.py b/pkg/models.py
--- a/pkg/models.py
+++ b/pkg/models.py
@@ -3,4 +3,5 @@ class Request:
     def register_hook(self, event, hook):
-        self.hooks[event].append(hook)
+        if isinstance(hook, list):
+            self.hooks[event].extend(hook)
 
diff --git a/pkg/new.py b/pkg/new.py
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1 @@
+x = 1
`;

const MODELS = `class Request:
    hooks = {}
    def register_hook(self, event, hook):
        self.hooks[event].append(hook)

    def other(self):
        return 1
`;

describe('eval localize', () => {
  test('a patch gives its files, the base lines it touches, and the functions enclosing them', () => {
    const files = patchedFiles(PATCH);
    expect(files.map((f) => [f.path, f.created])).toEqual([
      ['pkg/models.py', false],
      ['pkg/new.py', true],
    ]);
    expect(files[0]!.lines).toContain(4);
    expect(touchedFunctions('pkg/models.py', Buffer.from(MODELS), files[0]!.lines)).toEqual(['pkg/models.py::Request.register_hook']);
    expect(TEST_PATH.test('tests/test_models.py')).toBe(true);
    expect(TEST_PATH.test('src/app/handler_test.go')).toBe(true);
    expect(TEST_PATH.test('src/app/handler.go')).toBe(false);
  });

  test('an insertion belongs to the function it lands inside, not to the one it is written next to', () => {
    const source = `import os


def first(a):
    x = a
    return x


def second(b):
    return b
`;
    // A constant added above `second`, a statement appended to `first`'s body, a line added inside `second`.
    const patch = `diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -5,6 +5,9 @@ def first(a):
     x = a
     return x
+    # unreachable note
 
+LIMIT = 3
 
 def second(b):
@@ -9,2 +12,3 @@ def second(b):
 def second(b):
+    b = b or 0
     return b
`;
    const [file] = patchedFiles(patch);
    expect(file!.lines).toEqual([]);
    expect(file!.inserts).toEqual([
      { after: 6, indent: 4 },
      { after: 7, indent: 0 },
      { after: 9, indent: 4 },
    ]);
    expect(touchedFunctions('m.py', Buffer.from(source), file!.lines, file!.inserts)).toEqual(['m.py::first', 'm.py::second']);
    // The constant alone touches no function.
    expect(touchedFunctions('m.py', Buffer.from(source), [], [{ after: 7, indent: 0 }])).toEqual([]);
    // A replaced line counts as changed, its added half is not a second insertion.
    const replaced = patchedFiles(`diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -5,1 +5,1 @@
-    x = a
+    x = a + 1
`)[0]!;
    expect([replaced.lines, replaced.inserts]).toEqual([[5], []]);
  });

  test('BM25 ranks on code-aware words', () => {
    expect(codeTokens('registerHook failed in HTTPAdapter.send_request')).toEqual(
      expect.arrayContaining(['registerhook', 'register', 'hook', 'failed', 'httpadapter', 'adapter', 'send_request', 'send', 'request']),
    );
    const docs = [codeTokens('def parse_url(url): pass'), codeTokens('class Session: def register_hook(self): pass'), codeTokens('nothing here')];
    expect(bm25Rank(docs, codeTokens('the registerHook of the session'))).toEqual([1]);
  });

  test('the checked-in task set: real reports, patches without test files, a fixed split', () => {
    const tasks = loadTasks(path.join(PACKAGE_ROOT, 'eval', 'localize', 'tasks.jsonl'));
    expect(tasks.length).toBeGreaterThan(400);
    for (const language of ['python', 'go', 'javascript', 'typescript']) expect(tasks.some((t) => t.language === language)).toBe(true);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(tasks.length);
    for (const t of tasks) {
      expect(t.problem_statement.length).toBeGreaterThan(0);
      expect(t.base_commit).toMatch(/^[0-9a-f]{40}$/);
      expect(patchedFiles(t.patch).filter((f) => TEST_PATH.test(f.path))).toEqual([]);
    }
    const dev = tasks.filter((t) => t.split === 'dev').length / tasks.length;
    expect(dev).toBeGreaterThan(0.3);
    expect(dev).toBeLessThan(0.5);
  });

  test('a broken task file and a missing one are refused, naming the file and line', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-localize-bad-'));
    const broken = path.join(tmp, 'tasks.jsonl');
    fs.writeFileSync(broken, '{"id": "ok"}\n{not json\n');
    expect(() => loadTasks(broken)).toThrow(`${broken}:2: not a task`);
    const missing = runCli(['eval', 'localize', '--tasks', path.join(tmp, 'nope.jsonl')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.jsonl does not exist');
    const run = runCli(['eval', 'localize', '--tasks', broken]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(':2: not a task');
    // Output paths are checked before any task runs, naming the flag.
    for (const flag of ['--rankings', '--out']) {
      const unwritable = runCli(['eval', 'localize', '--tasks', broken, flag, path.join(tmp, 'no-such-dir', 'x.json')]);
      expect(unwritable.status).toBe(2);
      expect(unwrapCliError(unwritable.stderr)).toContain(`${flag} ${path.join(tmp, 'no-such-dir', 'x.json')} cannot be written (ENOENT)`);
      expect(unwritable.stderr).not.toContain('not a task');
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a run checks a mirror out at each base commit and scores explore and the baselines', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-localize-test-'));
    const source = path.join(tmp, 'src');
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: source, encoding: 'utf8' }).trim();
    fs.mkdirSync(path.join(source, 'pkg'), { recursive: true });
    fs.mkdirSync(path.join(source, 'tests'), { recursive: true });
    fs.writeFileSync(path.join(source, 'pkg', 'models.py'), MODELS);
    fs.writeFileSync(path.join(source, 'pkg', 'urls.py'), 'def parse_url(url):\n    return url.split("/")\n');
    fs.writeFileSync(path.join(source, 'tests', 'test_models.py'), 'def test_register_hook():\n    pass\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    const first = git('rev-parse', 'HEAD');
    fs.writeFileSync(path.join(source, 'pkg', 'urls.py'), 'def parse_url(url):\n    return url.split("/")\n\ndef join_url(a, b):\n    return a + "/" + b\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'two');
    const second = git('rev-parse', 'HEAD');
    const mirrors = path.join(tmp, 'mirrors');
    execFileSync('git', ['clone', '-q', '--bare', source, path.join(mirrors, 'acme+hooks.git')]);
    expect(findMirror('acme/hooks', [mirrors])).toBe(path.join(mirrors, 'acme+hooks.git'));
    const task = (id: string, commit: string, statement: string, patch: string): string =>
      JSON.stringify({ id, source: 'test', language: 'python', repo: 'acme/hooks', base_commit: commit, problem_statement: statement, patch, split: 'heldout' });
    const urlsPatch = `diff --git a/pkg/urls.py b/pkg/urls.py\n--- a/pkg/urls.py\n+++ b/pkg/urls.py\n@@ -4,2 +4,2 @@\n def join_url(a, b):\n-    return a + "/" + b\n+    return a.rstrip("/") + "/" + b\n`;
    const tasksFile = path.join(tmp, 'tasks.jsonl');
    fs.writeFileSync(
      tasksFile,
      [
        task('acme__hooks-1', first, 'Request.register_hook does not accept a list of hooks: `register_hook("response", [a, b])` appends the list itself', PATCH),
        task('acme__hooks-2', second, 'join_url doubles the slash when the base url ends with "/"', urlsPatch),
        task('acme__hooks-3', 'f'.repeat(40), 'a commit the mirror does not have', urlsPatch),
        JSON.stringify({ id: 'nowhere__x-1', source: 'test', language: 'python', repo: 'nowhere/x', base_commit: first, problem_statement: 'x', patch: urlsPatch, split: 'dev' }),
      ].join('\n'),
    );
    // No mirror of nowhere/x, and cloning it fails (no such repository, or no network): its tasks are skipped, the rest run.
    const rankings: TaskRankings[] = [];
    const report = await runLocalize(Engine as never, { tasksFile, callTool: localToolCall, mirrors: [mirrors], workDir: path.join(tmp, 'work'), onRankings: (r) => rankings.push(r) });
    expect(report.skipped.map((s) => s.id).sort()).toEqual(['acme__hooks-3', 'nowhere__x-1']);
    expect(report.skipped.find((s) => s.id === 'nowhere__x-1')!.why).toContain('git clone --bare https://github.com/nowhere/x.git');
    expect(report.skipped.find((s) => s.id === 'acme__hooks-3')!.why).toContain('is not there');
    const [one, two] = report.results;
    expect(one!.gold_files).toEqual(['pkg/models.py']);
    expect(one!.gold_functions).toEqual(['pkg/models.py::Request.register_hook']);
    expect(two!.gold_functions).toEqual(['pkg/urls.py::join_url']);
    for (const r of report.results) {
      for (const ranker of ['explore', 'bm25_files', 'bm25_functions']) expect(r.rankers[ranker]!.file_rank).toBe(1);
      expect(r.rankers.explore!.fn_all5).toBe(true);
      expect(r.rankers.explore!.tokens).toBeGreaterThan(0);
    }
    // Every scored task's candidates, per ranker, with the lines to read them at that commit.
    expect(rankings.map((r) => [r.id, r.base_commit])).toEqual([
      ['acme__hooks-1', first],
      ['acme__hooks-2', second],
    ]);
    for (const ranker of ['explore', 'bm25_files', 'bm25_functions']) {
      expect(rankings[1]!.rankers[ranker]!.files[0]).toBe('pkg/urls.py');
      expect(rankings[1]!.rankers[ranker]!.functions).toContainEqual({ id: 'pkg/urls.py::join_url', file: 'pkg/urls.py', start_line: 4, end_line: 5 });
    }
    // The second commit's checkout was incremental: the test file stayed out of every ranking.
    expect(report.overall.explore!.file_acc1).toBe(1);
    expect(fs.existsSync(path.join(tmp, 'work', 'acme__hooks', 'pkg', 'urls.py'))).toBe(true);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
