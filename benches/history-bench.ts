// `npm run bench:history`: the cost of mining git history for the history tools
// (`find_co_changing_symbols`, `analyze` blame/ownership/stale_code/churn/fixes_history/releases) on
// a real repository with its full history — the first mine, the incremental update after one new
// commit, and a restart that loads the saved history — beside the indexing it sits on. Writes the
// "Git history" section of BENCHMARKS.md and raw JSON under benches/results/.
//
//   node dist/benches/history-bench.js --git DIR[=NAME] [--git …] [--at REF] [--out BENCHMARKS.md] [--from-json F]
//
// DIR is any git repository (a bare mirror works): it is cloned into a temp folder and checked out
// at REF~1; the incremental phase then moves HEAD to REF. Each phase runs in a child process of its
// own (`--child PHASE DIR HOME`) so memory figures do not mix. Timing is only ever reported here.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Args, benchMain, prng, sample, type Json } from './common';

interface Options {
  /** Repositories measured, each `DIR` or `DIR=NAME`. */
  git: string[];
  at: string;
  out: string;
  fromJson?: string;
}

const log = (msg: string): void => void process.stderr.write(`bench:history: ${msg}\n`);

/** Child: index `dir` (GORTEX_HOME=`home`), then answer one history query; print the figures. */
async function child(phase: string, dir: string): Promise<void> {
  const { openEmbedded } = await import('../ts/workspace/embedded');
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = Date.now();
  const repo = await openEmbedded(dir, { watch: false });
  const ctx = await repo.context();
  const indexMs = Date.now() - t0;
  const indexRss = Math.max(peak, process.memoryUsage().rss);
  const t1 = Date.now();
  const churn = ctx.engine.query('analyze', { kind: 'churn', limit: 1 }, { repo: ctx.repo }) as Json;
  const firstMs = Date.now() - t1;
  const t2 = Date.now();
  ctx.engine.query('find_co_changing_symbols', { symbol: churn.rows[0].id }, { repo: ctx.repo });
  const cachedMs = Date.now() - t2;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const stats = ctx.engine.stats(ctx.repo) as Json;
  const blame = phase === 'full' ? checkBlame(ctx, dir) : undefined;
  process.stdout.write(
    JSON.stringify({
      phase,
      files: stats.files,
      index_ms: indexMs,
      index_rss_mb: Math.round(indexRss / 2 ** 20),
      history_ms: firstMs,
      cached_query_ms: cachedMs,
      peak_rss_mb: Math.round(peak / 2 ** 20),
      history: churn.history,
      ...(blame ? { blame } : {}),
    }) + '\n',
  );
  await repo.close();
}

/** Files whose blame is checked against `git blame --first-parent` (seeded sample). */
const BLAME_SAMPLE = 40;

/**
 * Agreement of `analyze blame` with `git blame --first-parent` on a seeded sample of files: per
 * file, the lines both give the same author (Σ min of the per-author line counts) over its lines.
 */
function checkBlame(ctx: Json, dir: string): Json {
  const files = (git(dir, 'ls-files').split('\n') as string[]).filter((f) => /\.(go|py|ts|js|java|rs)$/.test(f) && !f.includes('testdata/'));
  const picked: string[] = sample(files, BLAME_SAMPLE, prng(34));
  let agree = 0;
  let lines = 0;
  const worst: Json[] = [];
  for (const f of picked) {
    const ours = ctx.engine.query('analyze', { kind: 'blame', path: f, limit: 1, authors: 1000 }, { repo: ctx.repo }) as Json;
    if (!ours.file) continue;
    const theirs = new Map<string, number>();
    for (const line of git(dir, 'blame', '--first-parent', '--line-porcelain', '--', f).split('\n')) {
      if (line.startsWith('author ')) theirs.set(line.slice(7), (theirs.get(line.slice(7)) ?? 0) + 1);
    }
    const total = [...theirs.values()].reduce((a, b) => a + b, 0);
    // Our people are one per name; git's author names are compared as written.
    let same = 0;
    for (const a of ours.file.authors as Json[]) same += Math.min(a.lines, theirs.get(a.name) ?? 0);
    agree += same;
    lines += total;
    worst.push({ file: f, lines: total, agreement: total ? Math.round((1000 * same) / total) / 1000 : 1 });
  }
  worst.sort((a, b) => a.agreement - b.agreement);
  return { files: worst.length, lines, agreement: lines ? Math.round((1000 * agree) / lines) / 1000 : 1, lowest: worst.slice(0, 3) };
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function runChild(phase: string, dir: string, home: string): Json {
  log(`${phase} …`);
  const r = spawnSync(process.execPath, [__filename, '--child', phase, dir], {
    env: { ...process.env, GORTEX_HOME: home, GORTEX_THREADS: '2' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Json;
}

async function run(o: Options): Promise<Json> {
  if (o.git.length === 0) throw new Error('--git DIR is required (a git repository with its history, e.g. a bare mirror)');
  const repos: Json[] = [];
  for (const spec of o.git) repos.push(measure(spec, o.at));
  return { repos };
}

/** The three phases on one repository (`DIR` or `DIR=NAME`). */
function measure(spec: string, ref: string): Json {
  const [source, name] = spec.split('=') as [string, string | undefined];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-history-bench-'));
  const dir = path.join(work, name ?? path.basename(source.replace(/\/(repo|\.git)\/?$/, '')));
  try {
    log(`cloning ${source} into ${dir}`);
    git(work, 'clone', '-q', '--no-checkout', source, dir);
    const at = git(dir, 'rev-parse', ref);
    git(dir, 'checkout', '-q', `${at}~1`);
    const commits = Number(git(dir, 'rev-list', '--first-parent', '--count', 'HEAD'));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-history-home-'));
    const full = runChild('full', dir, home);
    const historyFile = fs.readdirSync(path.join(home, 'snapshots')).find((f) => f.endsWith('.hist'));
    const historyBytes = historyFile ? fs.statSync(path.join(home, 'snapshots', historyFile)).size : 0;
    const restart = runChild('restart', dir, home);
    git(dir, 'checkout', '-q', at);
    const incremental = runChild('incremental', dir, home);
    const all = Number(git(dir, 'rev-list', '--count', 'HEAD'));
    return { repository: source, name: path.basename(dir), at, commits_before: commits, commits_all: all, history_bytes: historyBytes, full, restart, incremental };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function section(r: Json, m: Json, rawName: string): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const row = (repo: Json, label: string, p: Json): string =>
    `| ${repo.name} | ${label} | ${p.history.update} | ${(p.history_ms / 1000).toFixed(2)} s | ${p.cached_query_ms} ms | ${p.peak_rss_mb} MB | ${(p.index_ms / 1000).toFixed(2)} s / ${p.index_rss_mb} MB |`;
  return [
    '## Git history',
    '',
    `\`npm run bench:history -- --git <repo>\` on ${m.nproc} cores (${m.cpu}), ${m.date.slice(0, 10)}; raw: \`${rawName}\`.`,
    'Each repository is cloned from a full-history mirror (fetched from GitHub) and checked out one commit before its head;',
    'the last phase moves HEAD to the head. Each phase is a fresh process: index (snapshot warm after the first), then the first',
    'history query (mine or update, save, join with the graph) and one more query on the cached join.',
    '',
    ...(r.repos as Json[]).map(
      (x) =>
        `- ${x.name}: ${n(x.commits_before)} first-parent commits (${n(x.commits_all)} in all), ${n(x.full.files)} indexed files, ` +
        `head \`${x.at.slice(0, 12)}\`; saved history ${(x.history_bytes / 2 ** 20).toFixed(1)} MB` +
        (x.full.blame
          ? `; blame agrees with \`git blame --first-parent\` on ${(x.full.blame.agreement * 100).toFixed(1)} % of ${n(x.full.blame.lines)} lines ` +
            `(${x.full.blame.files} sampled source files; lowest: ${(x.full.blame.lowest as Json[]).map((w) => `${w.file} ${(w.agreement * 100).toFixed(0)} %`).join(', ')}).`
          : '.'),
    ),
    '',
    '| repository | phase | history update | first history query | next query | peak RSS | index (wall / RSS) |',
    '|---|---|---|---|---|---|---|',
    ...(r.repos as Json[]).flatMap((x) => [
      row(x, 'first run (full history)', x.full),
      row(x, 'restart, same HEAD', x.restart),
      row(x, 'one new commit', x.incremental),
    ]),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1]!, argv[2]!);
  const o: Options = { git: [], at: 'HEAD', out: path.join(__dirname, '..', '..', 'BENCHMARKS.md') };
  const args = new Args(argv);
  for (const a of args) {
    if (a === '--git') o.git.push(args.value(a));
    else if (a === '--at') o.at = args.value(a);
    else if (a === '--out') o.out = args.value(a);
    else if (a === '--from-json') o.fromJson = args.value(a);
    else throw new Error(`unknown argument ${a}`);
  }
  await benchMain({ heading: 'Git history', rawPrefix: 'history', options: o, run, section });
}

void main().catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
