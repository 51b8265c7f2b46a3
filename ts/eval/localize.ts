/**
 * `gortex eval localize`: does one call find the code a bug report is about? Real issue reports
 * (eval/localize/tasks.jsonl: SWE-bench Lite/Verified, SWE-bench Multilingual, Multi-SWE-bench) are
 * the task text; the gold is what their fixing patches change: the non-test files, and the
 * functions/methods whose lines the patch touches in the base commit (found by gortex's own
 * tree-sitter outline of the base file, qualified as `Class.method`). Each repository is checked
 * out at each task's base commit from a git mirror and indexed incrementally; `explore` ranks with
 * the problem statement, beside two in-repository baselines: BM25 over files and BM25 over function
 * bodies. Test files are out of every ranking and of the gold.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { outlineOf, type Engine } from '../engine/engine';
import { UsageError } from '../support/usage-error';

/** One task of the set. */
export interface LocalizeTask {
  id: string;
  source: string;
  language: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  /** The fixing patch, test files left out. */
  patch: string;
  split: 'dev' | 'heldout';
}

/** What a patch changes in one file of the base commit. */
export interface PatchedFile {
  path: string;
  /** Lines of the base file the patch deletes or changes. */
  lines: number[];
  /**
   * Pure insertions: the base line they follow (0: the top of the file) and the indentation of
   * their first non-blank line (for deciding whether lines appended after a function's last line
   * belong to its body, as in Python).
   */
  inserts: { after: number; indent: number }[];
  /** The patch creates the file (nothing in the base to find). */
  created: boolean;
}

/** Longest task text explore accepts (characters); longer problem statements are cut to it. */
const MAX_TASK_CHARS = 20000;

/** Paths of test code: out of the gold and of every ranking. */
export const TEST_PATH = /(^|\/)(tests?|__tests__|testing|spec|e2e|fixtures?)(\/|$)|(^|\/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[jt]sx?$|(^|\/)conftest\.py$/;

/** Source files a task's ranking considers, by language. */
const SOURCE_EXTENSIONS: Record<string, string[]> = {
  python: ['.py'],
  go: ['.go'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.vue'],
  typescript: ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.vue'],
};

/** Reads the task set (JSON Lines). */
export function loadTasks(file: string): LocalizeTask[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as LocalizeTask;
      } catch (error) {
        throw new UsageError(`${file}:${i + 1}: not a task (${(error as Error).message})`);
      }
    });
}

/** The files a unified diff changes, with the base lines it touches. */
export function patchedFiles(patch: string): PatchedFile[] {
  const files: PatchedFile[] = [];
  let current: PatchedFile | undefined;
  let oldLine = 0;
  // The run of added lines being read (its first non-blank line sets the indentation).
  let insert: { after: number; indent: number } | undefined;
  let lastWasDelete = false;
  for (const line of patch.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) {
      current = { path: header[1]!, lines: [], inserts: [], created: false };
      files.push(current);
      insert = undefined;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('--- /dev/null')) current.created = true;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      insert = undefined;
      lastWasDelete = false;
      continue;
    }
    if (line.startsWith('---') || line.startsWith('+++') || oldLine === 0) continue;
    if (line.startsWith('+')) {
      // Added lines next to deleted ones change those lines (already counted); a run of added
      // lines alone is an insertion after the previous base line.
      const previousDeleted = current.lines[current.lines.length - 1] === oldLine - 1 && lastWasDelete;
      if (!previousDeleted) {
        if (!insert) current.inserts.push((insert = { after: oldLine - 1, indent: -1 }));
        if (insert.indent < 0 && line.slice(1).trim() !== '') insert.indent = line.slice(1).length - line.slice(1).trimStart().length;
      }
      continue;
    }
    insert = undefined;
    lastWasDelete = line.startsWith('-');
    if (line.startsWith('-')) current.lines.push(oldLine++);
    else if (line.startsWith(' ')) oldLine++;
  }
  return files;
}

/**
 * `path::local` of the innermost function or method of `source` whose body the patch touches: a
 * changed or deleted line inside it, or an insertion inside it — between two of its lines, or
 * right after its last line when the inserted code is indented deeper than its first line (a
 * statement appended to a Python body). An insertion just before a function or after its closing
 * line adds code next to it, not in it.
 */
export function touchedFunctions(file: string, source: Buffer, lines: number[], inserts: PatchedFile['inserts'] = []): string[] {
  const functions = (outlineOf(file, source) ?? []).filter((s) => s.kind === 'function' || s.kind === 'method');
  const text = source.toString('utf8').split('\n');
  const indentOf = (line: number): number => {
    const t = text[line - 1] ?? '';
    return t.length - t.trimStart().length;
  };
  const innermost = (inside: (f: (typeof functions)[number]) => boolean): (typeof functions)[number] | undefined => {
    let best: (typeof functions)[number] | undefined;
    for (const f of functions) if (inside(f) && (!best || f.end_line - f.start_line < best.end_line - best.start_line)) best = f;
    return best;
  };
  const found = new Set<string>();
  for (const line of lines) {
    const best = innermost((f) => f.start_line <= line && line <= f.end_line);
    if (best) found.add(`${file}::${best.local}`);
  }
  for (const { after, indent } of inserts) {
    const best = innermost((f) => f.start_line <= after && (after < f.end_line || (after === f.end_line && indent > indentOf(f.start_line))));
    if (best) found.add(`${file}::${best.local}`);
  }
  return [...found].sort();
}

/** Where a repository's git mirror is: `<dir>/<owner>+<name>/repo` (gortex's fetch layout), `<dir>/<owner>+<name>.git` or `<dir>/<owner>/<name>[.git]`. */
export function findMirror(repo: string, dirs: string[]): string | undefined {
  const [owner, name] = repo.split('/') as [string, string];
  for (const dir of dirs) {
    for (const candidate of [path.join(dir, `${owner}+${name}`, 'repo'), path.join(dir, `${owner}+${name}.git`), path.join(dir, owner, `${name}.git`), path.join(dir, owner, name)]) {
      if (fs.existsSync(path.join(candidate, 'HEAD')) || fs.existsSync(path.join(candidate, '.git'))) return candidate;
    }
  }
  return undefined;
}

/** Clones `repo` from GitHub as a bare mirror into `dir` (the networked path; refused where GitHub is unreachable). */
function cloneMirror(repo: string, dir: string): string {
  const target = path.join(dir, `${repo.replace('/', '+')}.git`);
  // Never prompt: a repository that is gone asks for credentials, which would hang an unattended run.
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  const run = spawnSync('git', ['clone', '--quiet', '--bare', `https://github.com/${repo}.git`, target], { encoding: 'utf8', timeout: 30 * 60_000, env });
  if (run.status !== 0) {
    fs.rmSync(target, { recursive: true, force: true });
    throw new UsageError(
      `no git mirror of ${repo} and cloning it failed (${(run.stderr || run.error?.message || '').trim().split('\n')[0]}); ` +
        `clone it yourself (git clone --bare https://github.com/${repo}.git ${target}) or pass --mirrors DIR`,
    );
  }
  return target;
}

/** A repository checked out at one commit after another: only what differs is rewritten. */
class Checkout {
  /** Path → blob sha of what is on disk. */
  private files = new Map<string, string>();
  constructor(
    readonly gitDir: string,
    readonly root: string,
  ) {
    fs.mkdirSync(root, { recursive: true });
  }

  /** Moves the work tree to `commit` (blobs missing from the mirror and files over 1 MB are left out). */
  async moveTo(commit: string): Promise<{ written: number; removed: number }> {
    const listing = spawnSync('git', ['--git-dir', this.gitDir, 'ls-tree', '-r', '-l', '--full-tree', commit], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    if (listing.status !== 0) throw new UsageError(`${this.gitDir}: commit ${commit} is not there (${listing.stderr.trim().split('\n')[0]}); fetch it into the mirror`);
    const wanted = new Map<string, string>();
    for (const row of listing.stdout.split('\n')) {
      const m = /^\d+ blob ([0-9a-f]+)\s+(\d+|-)\t(.+)$/.exec(row);
      if (m && m[2] !== '-' && Number(m[2]) <= 1024 * 1024) wanted.set(m[3]!, m[1]!);
    }
    let removed = 0;
    for (const [file] of this.files) {
      if (!wanted.has(file)) {
        fs.rmSync(path.join(this.root, file), { force: true });
        this.files.delete(file);
        removed++;
      }
    }
    const changed = [...wanted].filter(([file, sha]) => this.files.get(file) !== sha);
    const blobs = await readBlobs(this.gitDir, changed.map(([, sha]) => sha));
    for (const [file, sha] of changed) {
      const bytes = blobs.get(sha);
      const target = path.join(this.root, file);
      if (bytes === undefined) {
        fs.rmSync(target, { force: true });
        this.files.delete(file);
        continue;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, bytes);
      this.files.set(file, sha);
    }
    return { written: changed.length, removed };
  }

  /** The checked-out paths. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  /** The blob sha of a checked-out path. */
  shaOf(file: string): string | undefined {
    return this.files.get(file);
  }
}

/** Reads blobs through one `git cat-file --batch` (missing ones are left out). */
function readBlobs(gitDir: string, shas: string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    if (shas.length === 0) return resolve(out);
    const child = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => {
      const all = Buffer.concat(chunks);
      let at = 0;
      while (at < all.length) {
        const eol = all.indexOf(10, at);
        if (eol < 0) break;
        const header = all.subarray(at, eol).toString('utf8').split(' ');
        at = eol + 1;
        if (header[1] === 'missing' || header.length < 3) continue;
        const size = Number(header[2]);
        out.set(header[0]!, all.subarray(at, at + size));
        at += size + 1;
      }
      resolve(out);
    });
    child.stdin.end(`${shas.join('\n')}\n`);
  });
}

/** Code-aware words: identifiers split at case changes, digits and underscores, lower-cased, plus the whole identifier. */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const ident of text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    const lower = ident.toLowerCase();
    if (lower.length > 1 && !STOP.has(lower)) out.push(lower);
    const parts = ident.split(/_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter((p) => p.length > 1);
    if (parts.length > 1) for (const p of parts) if (!STOP.has(p.toLowerCase())) out.push(p.toLowerCase());
  }
  return out;
}

const STOP = new Set(
  'the a an and or of to in is it for on with as be by this that are was if not from at but can we you self return def func function const let var none null true false import from new else then when which there'.split(' '),
);

/** BM25 (k1 1.2, b 0.75) over token lists; returns document indexes, best first. */
export function bm25Rank(docs: string[][], query: string[]): number[] {
  const df = new Map<string, number>();
  for (const doc of docs) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(docs.length, 1);
  const terms = [...new Set(query)].filter((t) => df.has(t));
  const scores = docs.map((doc) => {
    if (doc.length === 0) return 0;
    const tf = new Map<string, number>();
    for (const t of doc) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of terms) {
      const f = tf.get(t);
      if (!f) continue;
      const idf = Math.log(1 + (docs.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (1 - 0.75 + (0.75 * doc.length) / avg));
    }
    return score;
  });
  return scores
    .map((s, i) => [s, i] as const)
    .filter(([s]) => s > 0)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, i]) => i);
}

/** A ranking of one task: files and `path::local` functions, best first. */
export interface Ranking {
  files: string[];
  functions: string[];
  /** Tokens the answer took (explore's own count), when the ranker is a tool. */
  tokens?: number;
  /** Rows the answer listed (after packing under its budget), when the ranker is a tool. */
  rows?: number;
  ms: number;
  /** The same call again, every lazy index already in step with the checkout (a warm index). */
  msWarm?: number;
}

/** Per-task result. */
export interface TaskResult {
  id: string;
  language: string;
  repo: string;
  split: string;
  gold_files: string[];
  gold_functions: string[];
  /** Per ranker: 1-based rank of the first gold file (null: not ranked), and whether all gold functions are in the top 5/10. */
  rankers: Record<string, { file_rank: number | null; fn_all5: boolean | null; fn_all10: boolean | null; tokens?: number; rows?: number; ms: number; ms_warm?: number }>;
}

/** Metrics of a group of results for one ranker. */
export interface LocalizeMetrics {
  tasks: number;
  file_acc1: number;
  file_acc5: number;
  file_acc10: number;
  /** Over tasks with at least one gold function. */
  fn_tasks: number;
  fn_all5: number;
  fn_all10: number;
  tokens_mean?: number;
  /** Latency of the first call after the checkout moved (lazy indexes catch up inside it). */
  ms_p50: number;
  ms_p95: number;
  /** Latency of a repeated call on the warm index, for tools. */
  ms_warm_p50?: number;
  ms_warm_p95?: number;
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** The metrics of `results` for `ranker`. */
export function localizeMetrics(results: TaskResult[], ranker: string): LocalizeMetrics {
  const rs = results.map((r) => r.rankers[ranker]).filter((r): r is NonNullable<typeof r> => r !== undefined);
  const at = (k: number): number => rs.filter((r) => r.file_rank !== null && r.file_rank <= k).length / Math.max(rs.length, 1);
  const fn = rs.filter((r) => r.fn_all5 !== null);
  const tokens = rs.map((r) => r.tokens).filter((t): t is number => t !== undefined);
  const warm = rs.map((r) => r.ms_warm).filter((t): t is number => t !== undefined);
  return {
    tasks: rs.length,
    file_acc1: at(1),
    file_acc5: at(5),
    file_acc10: at(10),
    fn_tasks: fn.length,
    fn_all5: fn.filter((r) => r.fn_all5).length / Math.max(fn.length, 1),
    fn_all10: fn.filter((r) => r.fn_all10).length / Math.max(fn.length, 1),
    ...(tokens.length > 0 ? { tokens_mean: Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length) } : {}),
    ms_p50: percentile(rs.map((r) => r.ms), 0.5),
    ms_p95: percentile(rs.map((r) => r.ms), 0.95),
    ...(warm.length > 0 ? { ms_warm_p50: percentile(warm, 0.5), ms_warm_p95: percentile(warm, 0.95) } : {}),
  };
}

/** Runs a tool on an indexed repository and returns its result (the CLI hands in the call pipeline's dispatch). */
export type EvalToolCall = (engine: Engine, root: string, tool: string, args: Record<string, unknown>) => Promise<unknown>;

/** Options of `runLocalize`. */
export interface LocalizeOptions {
  tasksFile: string;
  /** How `explore` is called. */
  callTool: EvalToolCall;
  /** Directories searched for git mirrors; a missing mirror is cloned into the first. */
  mirrors: string[];
  languages?: string[];
  repos?: string[];
  split?: 'dev' | 'heldout' | 'all';
  /** At most this many tasks per repository (in task order). */
  perRepo?: number;
  log?: (message: string) => void;
  /** Where checkouts and the engine's home go (deleted after). */
  workDir?: string;
  /** Called once per scored task with every ranker's candidates (for offline re-ranking studies). */
  onRankings?: (rankings: TaskRankings) => void;
}

/** A candidate function of a ranking: `path::local` and its lines (1-based, inclusive). */
export interface RankedFunction {
  id: string;
  file: string;
  start_line: number;
  end_line: number;
}

/** What each ranker returned for one task, best first, with the checkout it ran on. */
export interface TaskRankings {
  id: string;
  repo: string;
  base_commit: string;
  language: string;
  split: string;
  gold_files: string[];
  gold_functions: string[];
  rankers: Record<string, { files: string[]; functions: RankedFunction[] }>;
}

/** How many candidates per ranker `onRankings` receives. */
const RANKINGS_KEPT = 50;

/** The eval's report. */
export interface LocalizeReport {
  tasks_file: string;
  rankers: string[];
  overall: Record<string, LocalizeMetrics>;
  by_language: Record<string, Record<string, LocalizeMetrics>>;
  by_split: Record<string, Record<string, LocalizeMetrics>>;
  skipped: { id: string; why: string }[];
  results: TaskResult[];
}

/** The rankers compared, in report order. */
export const RANKERS = ['explore', 'bm25_files', 'bm25_functions'] as const;

/** Runs every selected task and scores the three rankers. */
export async function runLocalize(engineClass: new (options: { home: string }) => Engine, options: LocalizeOptions): Promise<LocalizeReport> {
  const log = options.log ?? ((): void => {});
  const split = options.split ?? 'all';
  let tasks = loadTasks(options.tasksFile).filter(
    (t) => (split === 'all' || t.split === split) && (!options.languages?.length || options.languages.includes(t.language)) && (!options.repos?.length || options.repos.includes(t.repo)),
  );
  if (options.perRepo !== undefined) {
    const seen = new Map<string, number>();
    tasks = tasks.filter((t) => {
      const n = seen.get(t.repo) ?? 0;
      seen.set(t.repo, n + 1);
      return n < options.perRepo!;
    });
  }
  if (tasks.length === 0) throw new UsageError('no task matches the filters (see --language, --repo, --split)');
  const work = options.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-localize-'));
  const engine = new engineClass({ home: path.join(work, 'home') });
  const results: TaskResult[] = [];
  const skipped: LocalizeReport['skipped'] = [];
  const docs = new SourceDocs();
  try {
    const byRepo = new Map<string, LocalizeTask[]>();
    for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
    for (const [repo, repoTasks] of byRepo) {
      let gitDir: string;
      try {
        gitDir = findMirror(repo, options.mirrors) ?? cloneMirror(repo, options.mirrors[0]!);
      } catch (error) {
        // One unreachable repository leaves its tasks out; the others still run.
        for (const task of repoTasks) skipped.push({ id: task.id, why: (error as Error).message });
        log(`${repo}: skipped (${(error as Error).message})`);
        continue;
      }
      const name = repo.replace('/', '__');
      const checkout = new Checkout(gitDir, path.join(work, name));
      for (const task of repoTasks) {
        try {
          await checkout.moveTo(task.base_commit);
        } catch (error) {
          skipped.push({ id: task.id, why: (error as Error).message });
          continue;
        }
        await engine.indexRepo(checkout.root, { name });
        // The tool runs first, alone, on the warm index; then the gold and the baselines.
        // What an agent would paste: the report, cut to what explore accepts.
        const exploreArgs = { task: task.problem_statement.slice(0, MAX_TASK_CHARS), max_symbols: 30 };
        const started = performance.now();
        let body: { results: { id: string; path: string; kind: string; lines: string }[]; more_files?: string[]; tokens_used: number };
        try {
          body = (await options.callTool(engine, checkout.root, 'explore', exploreArgs)) as typeof body;
        } catch (error) {
          skipped.push({ id: task.id, why: `explore failed: ${(error as Error).message}` });
          log(`${task.id}: explore failed (${(error as Error).message})`);
          continue;
        }
        const ms = performance.now() - started;
        const warmStarted = performance.now();
        await options.callTool(engine, checkout.root, 'explore', exploreArgs);
        const msWarm = performance.now() - warmStarted;
        const prefix = `${name}/`;
        const rows = body.results.filter((r) => !TEST_PATH.test(r.path));
        // The files an agent is shown, in order: those of the rows, then the paths ranked next.
        const exploreFiles = unique([...rows.map((r) => r.path), ...(body.more_files ?? []).filter((p) => !TEST_PATH.test(p))]);
        docs.prune(checkout);
        const scored = scoreTask(task, checkout, docs);
        if (scored.result.gold_files.length === 0) {
          skipped.push({ id: task.id, why: 'the fixing patch changes no source file that exists at the base commit' });
          continue;
        }
        const exploreFunctions = rows
          .filter((r) => r.kind === 'function' || r.kind === 'method')
          .map((r): RankedFunction => {
            const [start, end] = r.lines.split('-').map(Number) as [number, number?];
            return { id: r.id.startsWith(prefix) ? r.id.slice(prefix.length) : r.id, file: r.path, start_line: start, end_line: end ?? start };
          });
        scored.record('explore', {
          files: exploreFiles,
          functions: exploreFunctions.map((f) => f.id),
          tokens: body.tokens_used,
          rows: body.results.length,
          ms,
          msWarm,
        });
        results.push(scored.result);
        options.onRankings?.({
          id: task.id,
          repo: task.repo,
          base_commit: task.base_commit,
          language: task.language,
          split: task.split,
          gold_files: scored.result.gold_files,
          gold_functions: scored.result.gold_functions,
          rankers: { ...scored.candidates, explore: { files: exploreFiles, functions: exploreFunctions } },
        });
        const ranks = scored.result.rankers;
        log(`${task.id}: first gold file at explore ${ranks.explore!.file_rank ?? '-'}, bm25 files ${ranks.bm25_files!.file_rank ?? '-'}, bm25 functions ${ranks.bm25_functions!.file_rank ?? '-'}`);
      }
    }
  } finally {
    if (!options.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
  const group = (key: (r: TaskResult) => string): Record<string, Record<string, LocalizeMetrics>> => {
    const out: Record<string, Record<string, LocalizeMetrics>> = {};
    for (const k of unique(results.map(key)).sort()) out[k] = Object.fromEntries(RANKERS.map((ranker) => [ranker, localizeMetrics(results.filter((r) => key(r) === k), ranker)]));
    return out;
  };
  return {
    tasks_file: options.tasksFile,
    rankers: [...RANKERS],
    overall: Object.fromEntries(RANKERS.map((ranker) => [ranker, localizeMetrics(results, ranker)])),
    by_language: group((r) => r.language),
    by_split: group((r) => r.split),
    skipped,
    results,
  };
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** A source file as the BM25 baselines read it: its words and its functions' words. */
interface SourceDoc {
  tokens: string[];
  functions: { local: string; start_line: number; end_line: number; tokens: string[] }[];
}

/**
 * Source documents by path and blob: consecutive base commits share most files, so each blob is
 * read, tokenised and outlined once per run, not once per task.
 */
class SourceDocs {
  private docs = new Map<string, SourceDoc>();

  /**
   * Forgets the documents of blobs `checkout` no longer has, so the cache holds about one
   * checkout's worth (a run over sympy's 120 base commits kept every version and ran out of heap).
   */
  prune(checkout: Checkout): void {
    for (const key of this.docs.keys()) {
      const [file, sha] = key.split('\0') as [string, string];
      if (checkout.shaOf(file) !== sha) this.docs.delete(key);
    }
  }

  of(checkout: Checkout, file: string): SourceDoc {
    const key = `${file}\0${checkout.shaOf(file)}`;
    let doc = this.docs.get(key);
    if (!doc) {
      const bytes = fs.readFileSync(path.join(checkout.root, file));
      const lines = bytes.toString('utf8').split('\n');
      const functions = (outlineOf(file, bytes) ?? [])
        .filter((sym) => sym.kind === 'function' || sym.kind === 'method')
        .map((sym) => ({ local: sym.local, start_line: sym.start_line, end_line: sym.end_line, tokens: [...codeTokens(sym.qualified), ...codeTokens(lines.slice(sym.start_line - 1, sym.end_line).join('\n'))] }));
      doc = { tokens: [...codeTokens(file), ...codeTokens(lines.join('\n'))], functions };
      this.docs.set(key, doc);
    }
    return doc;
  }
}

/** Gold of a task from its patch and the checkout, scored with the BM25 baselines; `record` adds another ranker. */
function scoreTask(
  task: LocalizeTask,
  checkout: Checkout,
  docs: SourceDocs,
): { result: TaskResult; record(ranker: string, ranking: Ranking): void; candidates: TaskRankings['rankers'] } {
  const extensions = SOURCE_EXTENSIONS[task.language] ?? [];
  const goldFiles: string[] = [];
  const goldFunctions: string[] = [];
  for (const f of patchedFiles(task.patch)) {
    // Gold is source code the ranking could return: not tests, changelogs, lock or config files.
    if (f.created || TEST_PATH.test(f.path) || !extensions.includes(path.extname(f.path))) continue;
    const file = path.join(checkout.root, f.path);
    if (!fs.existsSync(file)) continue;
    goldFiles.push(f.path);
    goldFunctions.push(...touchedFunctions(f.path, fs.readFileSync(file), f.lines, f.inserts));
  }
  const result: TaskResult = { id: task.id, language: task.language, repo: task.repo, split: task.split, gold_files: goldFiles, gold_functions: goldFunctions, rankers: {} };
  const record = (ranker: string, ranking: Ranking): void => {
    const fileRank = ranking.files.findIndex((f) => goldFiles.includes(f));
    const all = (k: number): boolean | null => (goldFunctions.length === 0 ? null : goldFunctions.every((g) => ranking.functions.slice(0, k).includes(g)));
    result.rankers[ranker] = { file_rank: fileRank < 0 ? null : fileRank + 1, fn_all5: all(5), fn_all10: all(10), ...(ranking.tokens !== undefined ? { tokens: ranking.tokens } : {}), ...(ranking.rows !== undefined ? { rows: ranking.rows } : {}), ms: Math.round(ranking.ms), ...(ranking.msWarm !== undefined ? { ms_warm: Math.round(ranking.msWarm) } : {}) };
  };
  const started = performance.now();
  const query = codeTokens(task.problem_statement);
  const sources = checkout.paths().filter((p) => extensions.includes(path.extname(p)) && !TEST_PATH.test(p));
  const fileOrder = bm25Rank(
    sources.map((p) => docs.of(checkout, p).tokens),
    query,
  );
  const fileMs = performance.now() - started;
  const fnStarted = performance.now();
  const functions = sources.flatMap((p) => docs.of(checkout, p).functions.map((f) => ({ id: `${p}::${f.local}`, file: p, start_line: f.start_line, end_line: f.end_line, tokens: f.tokens })));
  const fnOrder = bm25Rank(
    functions.map((f) => f.tokens),
    query,
  );
  const fnFiles = unique(fnOrder.map((i) => functions[i]!.file));
  record('bm25_functions', { files: fnFiles, functions: fnOrder.map((i) => functions[i]!.id), ms: performance.now() - fnStarted });
  // bm25_files ranks files only: give it the functions of its files in bm25_functions order, so its function columns mean "file ranker, then best functions inside".
  const fileRankOf = new Map(fileOrder.map((i, rank) => [sources[i]!, rank]));
  const fnByFile = fnOrder.map((i) => functions[i]!).sort((a, b) => (fileRankOf.get(a.file) ?? 1e9) - (fileRankOf.get(b.file) ?? 1e9));
  record('bm25_files', { files: fileOrder.map((i) => sources[i]!), functions: fnByFile.map((f) => f.id), ms: fileMs });
  const kept = ({ id, file, start_line, end_line }: RankedFunction): RankedFunction => ({ id, file, start_line, end_line });
  const candidates: TaskRankings['rankers'] = {
    bm25_functions: { files: fnFiles.slice(0, RANKINGS_KEPT), functions: fnOrder.slice(0, RANKINGS_KEPT).map((i) => kept(functions[i]!)) },
    bm25_files: { files: fileOrder.slice(0, RANKINGS_KEPT).map((i) => sources[i]!), functions: fnByFile.slice(0, RANKINGS_KEPT).map(kept) },
  };
  return { result, record, candidates };
}

/** The report as tables: per ranker, overall then by split and language. */
export function formatLocalize(report: LocalizeReport): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);
  const header = `${'group'.padEnd(22)} ${'ranker'.padEnd(15)} ${'tasks'.padStart(5)}  file@1  file@5 file@10  fn-tasks fn-all@5 fn-all@10  tokens  p50 ms  p95 ms  warm p50  warm p95`;
  const row = (label: string, ranker: string, m: LocalizeMetrics): string =>
    `${label.padEnd(22)} ${ranker.padEnd(15)} ${String(m.tasks).padStart(5)}  ${pct(m.file_acc1)}  ${pct(m.file_acc5)}  ${pct(m.file_acc10)}  ${String(m.fn_tasks).padStart(8)}   ${pct(m.fn_all5)}    ${pct(m.fn_all10)}  ${String(m.tokens_mean ?? '').padStart(6)}  ${String(Math.round(m.ms_p50)).padStart(6)}  ${String(Math.round(m.ms_p95)).padStart(6)}  ${String(m.ms_warm_p50 === undefined ? '' : Math.round(m.ms_warm_p50)).padStart(8)}  ${String(m.ms_warm_p95 === undefined ? '' : Math.round(m.ms_warm_p95)).padStart(8)}`;
  const lines = [header];
  for (const ranker of report.rankers) lines.push(row('overall', ranker, report.overall[ranker]!));
  for (const [split, metrics] of Object.entries(report.by_split)) for (const ranker of report.rankers) lines.push(row(`split ${split}`, ranker, metrics[ranker]!));
  for (const [language, metrics] of Object.entries(report.by_language)) for (const ranker of report.rankers) lines.push(row(language, ranker, metrics[ranker]!));
  if (report.skipped.length > 0) lines.push('', `skipped ${report.skipped.length}: ${report.skipped.slice(0, 5).map((s) => `${s.id} (${s.why})`).join('; ')}`);
  return lines.join('\n');
}
