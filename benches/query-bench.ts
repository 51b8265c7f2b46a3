// `npm run bench:query`: query latency on a pinned real corpus (TypeScript 4.8.4 by default),
// through the real engine (napi call + JSON both ways), and `search_text` against ripgrep on the
// same tree and patterns in the same run. Writes the "Queries" section of BENCHMARKS.md plus raw
// JSON under benches/results/.
//
//   node dist/benches/query-bench.js [--corpus ts-full|ts-src|rxjs] [--seed N] [--out BENCHMARKS.md]
//                                   [--from-json benches/results/X.json]
//
// Query sets are sampled from the corpus itself with a seeded PRNG, so a run is repeatable.
// Timing is only ever reported here, never asserted in tests.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine, QueryError, type NodeJson } from '../ts/engine/engine';
import { Args, benchMain, fetchCorpora, listFiles, prng, ROOT, sample, type Json } from './common';

const CORPORA: Record<string, { source: string; key: string }> = {
  'ts-full': { source: 'ts', key: 'ts-full' },
  'ts-src': { source: 'ts', key: 'ts-src' },
  rxjs: { source: 'rxjs', key: 'rxjs' },
};
/** File globs ripgrep searches: the languages gortex indexes in these corpora. */
const RG_GLOBS = ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.jsx', '*.mjs', '*.cjs'];

interface Options { corpus: string; seed: number; out: string; fromJson?: string }

function parseArgs(argv: string[]): Options {
  const o: Options = { corpus: 'ts-full', seed: 42, out: path.join(ROOT, 'BENCHMARKS.md') };
  const args = new Args(argv);
  for (const a of args) {
    const value = (): string => args.value(a);
    if (a === '--corpus') {
      o.corpus = value();
      if (!CORPORA[o.corpus]) throw new Error(`unknown corpus ${o.corpus} (known: ${Object.keys(CORPORA).join(', ')})`);
    } else if (a === '--seed') o.seed = Number.parseInt(value(), 10);
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--from-json') o.fromJson = path.resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const log = (msg: string): void => void process.stderr.write(`bench:query: ${msg}\n`);


/** Splits an identifier into lowercase words (camelCase, snake_case, digits). */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 1)
    .map((w) => w.toLowerCase());
}

function typo(name: string, rand: () => number): string {
  if (name.length < 5) return name;
  const i = 1 + Math.floor(rand() * (name.length - 3));
  return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
}

interface Case { tool: string; label: string; args: Json }

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

function timeQuery(engine: Engine, repo: string, c: Case): { ms: number; result?: Json; error?: string } {
  const start = process.hrtime.bigint();
  try {
    const result = engine.query<Json>(c.tool, c.args, { repo });
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
  } catch (error) {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (error instanceof QueryError) return { ms, error: `${error.code}: ${error.message}` };
    throw error;
  }
}

function ripgrep(root: string, pattern: string, regex: boolean): { ms: number; hits: number } {
  // gortex skips files over 4 MiB; ripgrep is told the same so both read the same files.
  const args = ['--no-heading', '-n', '--column', '-j', String(os.cpus().length), '--no-messages', '--max-filesize', '4M'];
  for (const g of RG_GLOBS) args.push('-g', g);
  if (!regex) args.push('-F');
  args.push('-e', pattern, '.');
  const start = process.hrtime.bigint();
  const r = spawnSync('rg', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw new Error(`ripgrep could not run (${r.error.message}); install it: apt-get install ripgrep`);
  const hits = r.stdout ? r.stdout.split('\n').filter(Boolean).length : 0;
  return { ms, hits };
}

async function run(o: Options): Promise<Json> {
  const spec = CORPORA[o.corpus]!;
  const root = fetchCorpora([spec.source], log).get(spec.key);
  if (!root) throw new Error(`fetch-corpora.sh did not report ${spec.key}`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-query-'));
  const engine = new Engine({ home });
  log(`indexing ${root}`);
  const report = await engine.indexRepo(root);
  const repo = report.repo;
  const rand = prng(o.seed);

  // Symbols of a sample of files, the raw material of every query set.
  const files = listFiles(root, /\.(ts|tsx|js)$/);
  const symbols: NodeJson[] = [];
  for (const file of sample(files, 1500, rand)) {
    try {
      symbols.push(...engine.fileSymbols(repo, file).filter((n) => n.kind !== 'file' && n.kind !== 'import'));
    } catch {
      /* not indexed (excluded directory, too large, generated) */
    }
  }
  const named = symbols.filter((s) => s.name.length >= 4 && /^[A-Za-z_$][\w$]*$/.test(s.name));
  const callables = symbols.filter((s) => s.kind === 'function' || s.kind === 'method');
  log(`${files.length} files, ${symbols.length} sampled symbols`);

  const cases: Case[] = [];
  const add = (tool: string, label: string, args: Json): void => void cases.push({ tool, label, args });
  for (const s of sample(named, 100, rand)) add('search_symbols', 'exact name', { query: s.name, limit: 20 });
  for (const s of sample(named, 50, rand)) add('search_symbols', 'lowercase name', { query: s.name.toLowerCase(), limit: 20 });
  for (const s of sample(named, 50, rand)) add('search_symbols', 'typo', { query: typo(s.name, rand), limit: 20 });
  for (const s of sample(named.filter((n) => words(n.name).length >= 2), 50, rand)) {
    add('search_symbols', 'words', { query: words(s.name).join(' '), limit: 20 });
  }
  for (const s of sample(named, 50, rand)) {
    add('search_symbols', 'prefix', { query: s.name.slice(0, Math.max(3, Math.ceil(s.name.length / 2))), limit: 20 });
  }
  for (const s of sample(callables, 200, rand)) add('get_callers', 'callers', { id: s.id });
  for (const s of sample(symbols, 200, rand)) add('find_usages', 'usages', { id: s.id });
  for (const s of sample(callables, 100, rand)) add('get_call_chain', 'call chain', { id: s.id, depth: 2 });
  for (const s of sample(symbols, 100, rand)) add('get_symbol', 'symbol', { id: s.id });
  for (const s of sample(symbols, 100, rand)) add('get_dependents', 'dependents', { id: s.id });
  for (const f of sample(files, 100, rand)) add('find_files', 'file name', { query: path.basename(f).replace(/\.\w+$/, '') });
  const literals = sample(named.filter((s) => s.name.length >= 6), 100, rand).map((s) => s.name);
  for (const lit of literals) add('search_text', 'literal', { query: lit, limit: 100 });
  for (const lit of literals.slice(0, 30)) add('search_text', 'regex', { query: `${lit}\\s*\\(`, regexp: true, limit: 100 });
  // Behaviour described in words (a report's sentence): three callables' words against bodies and files.
  for (let i = 0; i < 60; i++) {
    const report = sample(callables, 3, rand).flatMap((c) => words(c.name)).join(' ');
    if (i < 40) add('search_symbols', 'body words', { query: report, read_as: 'body', limit: 40 });
    else add('find_files', 'content words', { query: report, by: 'content', limit: 20 });
  }

  // First calls build the lazy indexes; time them apart from the steady state.
  const build: Json = {};
  for (const [key, tool, args] of [
    ['search_symbols', 'search_symbols', { query: 'warmup' }],
    ['search_text', 'search_text', { query: 'warmup' }],
    ['body index', 'search_symbols', { query: 'warmup request handling', read_as: 'body' }],
  ] as const) {
    const t = timeQuery(engine, repo, { tool, label: 'build', args });
    build[key] = { ms: t.ms, error: t.error };
  }
  const after = engine.stats(repo) as Json;

  const byLabel = new Map<string, { tool: string; times: number[]; errors: number; empty: number }>();
  for (const c of sample(cases, cases.length, rand)) {
    const t = timeQuery(engine, repo, c);
    const key = `${c.tool} · ${c.label}`;
    const entry = byLabel.get(key) ?? { tool: c.tool, times: [], errors: 0, empty: 0 };
    entry.times.push(t.ms);
    if (t.error) entry.errors++;
    byLabel.set(key, entry);
  }
  const summarise = (query: string, tool: string, times: number[], errors: number): Json => {
    const sorted = [...times].sort((a, b) => a - b);
    return { query, tool, n: sorted.length, errors, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
  };
  const latency = [...byLabel.entries()]
    .map(([key, e]) => summarise(key, e.tool, e.times, e.errors))
    .sort((a, b) => a.query.localeCompare(b.query));
  const byTool = new Map<string, { times: number[]; errors: number }>();
  for (const e of byLabel.values()) {
    const t = byTool.get(e.tool) ?? { times: [], errors: 0 };
    t.times.push(...e.times);
    t.errors += e.errors;
    byTool.set(e.tool, t);
  }
  const perTool = [...byTool.entries()].map(([tool, t]) => summarise(tool, tool, t.times, t.errors)).sort((a, b) => a.tool.localeCompare(b.tool));

  // search_text against ripgrep: patterns whose full answer fits one response (≤ 1000 hits),
  // so both sides do the whole job.
  const versus: Json[] = [];
  for (const lit of literals.slice(0, 40)) {
    const ours = timeQuery(engine, repo, { tool: 'search_text', label: 'vs rg', args: { query: lit, limit: 1000 } });
    if (ours.error || ours.result?.truncated) continue;
    const best = [ours.ms];
    for (let i = 0; i < 2; i++) best.push(timeQuery(engine, repo, { tool: 'search_text', label: 'vs rg', args: { query: lit, limit: 1000 } }).ms);
    const rg = [ripgrep(root, lit, false), ripgrep(root, lit, false)];
    versus.push({
      pattern: lit,
      ours_ms: Math.min(...best),
      ours_hits: ours.result?.hits?.length ?? 0,
      rg_ms: Math.min(...rg.map((r) => r.ms)),
      rg_hits: rg[0]!.hits,
    });
    if (versus.length >= 20) break;
  }
  const rgVersion = spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? 'unknown';
  fs.rmSync(home, { recursive: true, force: true });
  return {
    corpus: o.corpus,
    path: root,
    files: report.files,
    nodes: report.nodes,
    edges: report.edges,
    build,
    memory: after.search_memory ?? null,
    latency,
    per_tool: perTool,
    versus,
    ripgrep: rgVersion,
    seed: o.seed,
  };
}

/** The latency targets, shown beside the measured p95. */
const TARGETS: Record<string, string> = { search_symbols: '< 5 ms', get_callers: '< 1 ms', find_usages: '< 1 ms' };
const f2 = (n: number): string => (Number.isNaN(n) ? '–' : n < 1 ? n.toFixed(3) : n < 10 ? n.toFixed(2) : n.toFixed(1));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const mib = (b: number | undefined): string => (b === undefined ? '–' : (b / 2 ** 20).toFixed(1));

function section(r: Json, m: Json, rawName: string): string {
  const lines = [
    '## Queries',
    '',
    `Corpus **${r.corpus}** (${r.files?.indexed ?? r.files?.total ?? '?'} files, ${r.nodes?.total ?? '?'} nodes, ${r.edges?.total ?? '?'} edges), ` +
      `${m.nproc} cores (${m.cpu}), ${m.date.slice(0, 10)}. Each query goes through the real engine: napi call, ` +
      'Rust query, JSON both ways. Query sets are sampled from the corpus with a fixed seed; ' +
      `raw numbers in \`${rawName}\`. Produced by \`npm run bench:query\`.`,
    '',
    '| tool (all its queries) | n | p50 ms | p95 ms | p99 ms | errors | target (p95) |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...(r.per_tool ?? []).map((l: Json) => `| ${l.tool} | ${l.n} | ${f2(l.p50)} | ${f2(l.p95)} | ${f2(l.p99)} | ${l.errors} | ${TARGETS[l.tool] ?? '–'} |`),
    '',
    '| query kind | n | p50 ms | p95 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.latency.map((l: Json) => `| ${l.query} | ${l.n} | ${f2(l.p50)} | ${f2(l.p95)} | ${f2(l.p99)} | ${l.errors} |`),
    '',
    `Lazy index builds on first use: symbol index ${f2(r.build.search_symbols?.ms)} ms, trigram index ${f2(r.build.search_text?.ms)} ms` +
      (r.build['body index'] ? `, body index (\`read_as: "body"\`, \`by: "content"\`) ${f2(r.build['body index'].ms)} ms` : '') +
      `. Memory: symbol index ${mib(r.memory?.symbols_bytes)} MiB, trigram index ${mib(r.memory?.text_bytes)} MiB` +
      (r.memory?.bodies_bytes ? `, body index ${mib(r.memory.bodies_bytes)} MiB` : '') +
      '.',
    '',
    `### search_text vs ripgrep (${r.ripgrep}, same tree, same literal patterns, every hit)`,
    '',
    'ripgrep searches the same file types (`' + RG_GLOBS.join(' ') + '`) with `-F -n --column --max-filesize 4M`, all cores, ' +
      'spawned as a user would run it; gortex answers from its warm trigram index with `limit: 1000` ' +
      '(patterns whose answer would be truncated are skipped, so both return every hit). Best of 3 (ours) / 2 (rg).',
    '',
    '| pattern | gortex ms | hits | ripgrep ms | hits | speed-up |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.versus.map((v: Json) => `| \`${v.pattern}\` | ${f2(v.ours_ms)} | ${v.ours_hits} | ${f2(v.rg_ms)} | ${v.rg_hits} | ${f2(v.rg_ms / v.ours_ms)}× |`),
    '',
    `Median speed-up: **${f2(median(r.versus.map((v: Json) => v.rg_ms / v.ours_ms)))}×**. Hit counts can differ where ` +
      'ripgrep reads files gortex does not index (minified, generated, over 4 MiB, binary) or vice versa.',
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  await benchMain({ heading: 'Queries', rawPrefix: 'query', options: parseArgs(process.argv.slice(2)), run, section });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:query: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
