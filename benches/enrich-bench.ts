// `npm run bench:enrich`: the semantic-enrichment pass (ts/lsp/enrich.ts) on pinned real corpora —
// every call site of every file asked of its language server (typescript-language-server, pyright,
// gopls) — measured for wall time, gortex's and the server's peak RSS, the sites answered, and what
// it did to the call edges: how many of the resolver's edges the server confirmed, corrected or
// dropped, and how many it added or dispatched. Writes the "Semantic enrichment" section of
// BENCHMARKS.md and raw JSON under benches/results/.
//
//   node dist/benches/enrich-bench.js [--corpus rxjs,ts-src,django,x-tools,k8s] [--budget-s 600] [--out BENCHMARKS.md] [--from-json F]
//
// Each corpus runs in a child process of its own (`--child DIR`) so memory figures do not mix.
// Timing is only ever reported here, never asserted in tests.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Args, benchMain, fetchCorpora, ROOT, type Json } from './common';

const ALL = ['rxjs', 'ts-src', 'django', 'x-tools', 'k8s'];
const SOURCE_OF: Record<string, string> = { rxjs: 'rxjs', 'ts-src': 'ts', django: 'django', 'x-tools': 'x-tools', k8s: 'k8s' };

interface Options {
  corpora: string[];
  /** Seconds a pass may run before it is stopped and reported with its throughput. */
  budgetS: number;
  out: string;
  fromJson?: string;
}

const log = (msg: string): void => void process.stderr.write(`bench:enrich: ${msg}\n`);

/** Child: index `dir`, run one enrichment pass over it, print the figures as JSON. */
async function child(dir: string, budgetS: number): Promise<void> {
  const { openEmbedded } = await import('../ts/workspace/embedded');
  const { enrichment } = await import('../ts/lsp/enrich');
  const { lspPool } = await import('../ts/lsp/pool');
  const repo = await openEmbedded(dir, { watch: false });
  const ctx = await repo.context();
  const before = ctx.engine.stats(ctx.repo);
  let peakOwn = process.memoryUsage().rss;
  let peakServers = 0;
  const sampler = setInterval(() => {
    peakOwn = Math.max(peakOwn, process.memoryUsage().rss);
    const servers = lspPool().status(ctx.root).reduce((sum, s) => sum + (s.rss_mb ?? 0), 0);
    peakServers = Math.max(peakServers, servers);
  }, 250);
  const started = Date.now();
  // A pass longer than the budget is stopped there and reported with its throughput.
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'budget'>((resolve) => (timer = setTimeout(() => resolve('budget'), budgetS * 1000)));
  const ended = await Promise.race([enrichment().schedule(ctx.root, ctx.engine, ctx.repo).then(() => 'done' as const), budget]);
  clearTimeout(timer);
  const wallMs = Date.now() - started;
  const status = enrichment().status(ctx.root);
  if (ended === 'budget') enrichment().stop(ctx.root);
  clearInterval(sampler);
  const after = ctx.engine.stats(ctx.repo);
  const result = {
    files: before.files,
    wall_ms: wallMs,
    peak_rss_mb: Math.round(peakOwn / 2 ** 20),
    peak_server_rss_mb: peakServers,
    status,
    stopped_at_budget: ended === 'budget',
    counts: ctx.engine.semanticCounts(ctx.repo),
    calls_before: before.edges_by_kind.calls ?? 0,
    calls_after: after.edges_by_kind.calls ?? 0,
    edges_by_origin_before: before.edges_by_origin,
    edges_by_origin_after: after.edges_by_origin,
  };
  repo.close();
  await lspPool().shutdown();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

async function run(o: Options): Promise<Json> {
  const sources = [...new Set(o.corpora.map((c) => SOURCE_OF[c]!))];
  const paths = fetchCorpora(sources, log);
  const rows: Json[] = [];
  for (const corpus of o.corpora) {
    const dir = paths.get(corpus);
    if (!dir) throw new Error(`fetch-corpora.sh gave no path for ${corpus}`);
    if (fs.existsSync(path.join(dir, 'go.mod')) && !fs.existsSync(path.join(dir, 'vendor'))) {
      // gopls needs the module graph; without vendor/ it comes from the module cache (a no-op once filled).
      log(`${corpus}: go mod download`);
      const dl = spawnSync('go', ['mod', 'download'], { cwd: dir, env: { ...process.env, GOFLAGS: '-mod=mod' }, encoding: 'utf8' });
      if (dl.status !== 0) throw new Error(`${corpus}: go mod download failed: ${(dl.stderr || String(dl.error)).slice(-2000)}`);
    }
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-enrich-'));
    log(`${corpus}: ${dir}`);
    const r = spawnSync(process.execPath, [__filename, '--child', dir, String(o.budgetS)], {
      cwd: ROOT,
      env: { ...process.env, GORTEX_HOME: home, GORTEX_THREADS: '2' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 3 * 60 * 60 * 1000,
    });
    fs.rmSync(home, { recursive: true, force: true });
    if (r.status !== 0) throw new Error(`${corpus}: the child failed: ${r.stderr.slice(-2000)}`);
    const line = r.stdout.trim().split('\n').pop()!;
    rows.push({ corpus, budget_s: o.budgetS, ...(JSON.parse(line) as Json) });
    log(`${corpus}: ${Math.round(rows.at(-1)!.wall_ms / 1000)} s`);
  }
  return { rows };
}

/** The budgets of the rows: `180 s here`, or per corpus when they differ (`180 s; k8s 600 s`). */
function budgets(rows: Json[]): string {
  const first = rows[0]?.budget_s ?? 600;
  const others = rows.filter((r) => r.budget_s !== first);
  return others.length === 0 ? `${first} s here` : `${first} s; ${others.map((r) => `${r.corpus} ${r.budget_s} s`).join(', ')}`;
}

/** The environment a row ran under beyond the defaults (e.g. a raised server memory cap). */
const envNote = (rows: Json[]): string =>
  rows
    .filter((r) => r.env && Object.keys(r.env).length > 0)
    .map((r) => ` The ${r.corpus} row ran with ${Object.entries(r.env as Record<string, string>).map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`)
    .join('');

function section(result: Json, m: Json, rawName: string): string {
  const rows = result.rows as Json[];
  const table = rows.map((r) => {
    // The corpus's main language: the server with the most files (Django's admin JavaScript is the other).
    const status = [...(r.status as Json[])].sort((a, b) => b.files_total - a.files_total)[0] ?? {};
    const c = r.counts as Json;
    const judged = c.confirmed + c.corrected + c.dropped;
    const agree = judged > 0 ? (c.confirmed / judged).toFixed(3) : '–';
    const files = `${status.files_done ?? 0} / ${status.files_total ?? r.files}`;
    const state = r.stopped_at_budget
      ? `stopped at the budget (≈ ${Math.round((r.wall_ms / 1000) * ((status.files_total ?? 1) / Math.max(1, status.files_done ?? 1)) / 60)} min for all)`
      : (status.state ?? '–');
    return `| ${r.corpus} | ${status.server ?? '–'} | ${files} | ${status.sites_asked ?? 0} | ${status.sites_answered ?? 0} | ${(r.wall_ms / 1000).toFixed(1)} s | ${r.peak_rss_mb} MB | ${r.peak_server_rss_mb} MB | ${r.calls_before} → ${r.calls_after} | ${c.confirmed} | ${c.corrected} | ${c.added} | ${c.dropped} | ${c.dispatch} | ${agree} | ${state} |`;
  });
  return [
    '## Semantic enrichment',
    '',
    `\`npm run bench:enrich\` (${m.date.slice(0, 10)}, ${m.nproc} cores, Node ${m.node}): one enrichment pass (\`ts/lsp/enrich.ts\`) over a freshly indexed corpus — every call site's \`textDocument/definition\` (and \`implementation\` for calls to interface or abstract methods) asked of the language server, answers applied per batch of 40 files. Wall is the pass alone (indexing excluded), stopped at \`--budget-s\` (${budgets(rows)}) when longer — the counts then cover the batches applied by then; RSS is gortex's process and the language server's, sampled every 250 ms. "Agree" is the share of the resolver's edges at answered sites that the server confirmed (confirmed ÷ (confirmed + corrected + dropped)): the resolver's precision against the compiler where both answered. Raw: \`${rawName}\`.`,
    '',
    '| corpus | server | files done | sites asked | answered | wall | gortex RSS | server RSS | call edges | confirmed | corrected | added | dropped | dispatch | agree | state |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...table,
    '',
    '`partial` means some files could not be asked: files over 1 MB are not lent to a server (TypeScript\'s `checker.ts`, 2.7 MB, among them) and a file whose every request failed counts as failed. Server RSS is the language server\'s whole process tree (tsserver runs under typescript-language-server). Kubernetes\' pinned corpus has no `vendor/`: gopls loads its module graph from the Go module cache, filled once by `GOFLAGS=-mod=mod go mod download` in the corpus (45 s from the Go proxy here); under the default 3 GB server cap gopls is killed during its load, and on two cores it answers about 0.3 files a second there (a full pass would take hours), so the row is the first ten minutes. The projection is linear, and for gopls the first minutes include its workspace load.' + envNote(rows),
    '',
  ].join('\n');
}

function parse(argv: string[]): Options {
  const o: Options = { corpora: ALL, budgetS: 600, out: path.join(ROOT, 'BENCHMARKS.md') };
  const args = new Args(argv);
  for (const a of args) {
    if (a === '--corpus' || a === '--corpora') {
      o.corpora = args.value(a).split(',').map((s) => s.trim()).filter(Boolean);
      const bad = o.corpora.filter((c) => !ALL.includes(c));
      if (bad.length) throw new Error(`unknown corpus ${bad.join(', ')} (known: ${ALL.join(', ')})`);
    } else if (a === '--budget-s') o.budgetS = args.int(a);
    else if (a === '--out') o.out = path.resolve(args.value(a));
    else if (a === '--from-json') o.fromJson = path.resolve(args.value(a));
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

if (process.argv[2] === '--child') {
  void child(process.argv[3]!, Number(process.argv[4] ?? 600)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
} else {
  void benchMain({ heading: 'Semantic enrichment', rawPrefix: 'enrich', options: parse(process.argv.slice(2)), run, section }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
