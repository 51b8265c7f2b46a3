// `npm run bench:sidecar`: what the user-data features cost, measured through the real engine and
// the real sidecar: contract-site detection on pinned corpora (beside `routes`, the text sweep it
// builds on, same run), and the sidecar's SQLite (memory writes, recall candidates over a large
// store, feedback tallies for a search's rows, one savings booking — the per-answer overhead every
// call now pays). Writes the "Contracts and the sidecar" section of BENCHMARKS.md.
//
//   node dist/benches/sidecar-bench.js [--corpus k8s,rxjs] [--memories N] [--out BENCHMARKS.md] [--from-json FILE]
//
// Timing is only ever reported here, never asserted in tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../ts/engine/engine';
import { sidecarAt } from '../ts/engine/sidecar';
import { Args, benchMain, fetchCorpora, type Json } from './common';

const SOURCES: Record<string, string> = { rxjs: 'rxjs', k8s: 'k8s', 'ts-full': 'ts' };

interface Options { corpora: string[]; memories: number; out: string; fromJson?: string }

function parseArgs(argv: string[]): Options {
  const o: Options = { corpora: ['k8s', 'rxjs'], memories: 20_000, out: path.join(path.resolve(__dirname, '..', '..'), 'BENCHMARKS.md') };
  const args = new Args(argv);
  for (const a of args) {
    if (a === '--corpus') {
      o.corpora = args.value(a).split(',');
      for (const c of o.corpora) if (!SOURCES[c]) throw new Error(`unknown corpus ${c} (known: ${Object.keys(SOURCES).join(', ')})`);
    } else if (a === '--memories') o.memories = args.int(a);
    else if (a === '--out') o.out = path.resolve(args.value(a));
    else if (a === '--from-json') o.fromJson = path.resolve(args.value(a));
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const log = (msg: string): void => void process.stderr.write(`bench:sidecar: ${msg}\n`);
const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

function timed<T>(f: () => T): { value: T; ms: number } {
  const t = process.hrtime.bigint();
  const value = f();
  return { value, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

/** Median of `n` runs of `f`, in milliseconds. */
function median(n: number, f: (i: number) => void): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(timed(() => f(i)).ms);
  times.sort((a, b) => a - b);
  return round(times[Math.floor(times.length / 2)]!, 3);
}

async function corpusRow(corpus: string, root: string): Promise<Json> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-sidecar-'));
  const engine = new Engine({ home, threads: os.cpus().length });
  log(`${corpus}: indexing ${root}`);
  const report = await engine.indexRepo(root);
  const q = (kind: string) => timed(() => engine.query<Json>('analyze', { kind, limit: kind === 'contract_sites' ? 20_000 : 1000 }, { repo: root }));
  // The first text sweep builds the trigram index; both are then timed warm.
  const cold = q('routes');
  const routesWarm = median(3, () => q('routes'));
  const sites = q('contract_sites');
  const sitesWarm = median(3, () => q('contract_sites'));
  return {
    corpus,
    files: report.files.total,
    text_index_cold_ms: round(cold.ms),
    routes: cold.value.total,
    routes_warm_ms: routesWarm,
    sites: sites.value.total,
    counts: sites.value.counts,
    contract_sites_warm_ms: sitesWarm,
  };
}

function sidecarRows(n: number): Json {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-sidecar-db-'));
  const store = sidecarAt(home);
  const words = ['token', 'refresh', 'gateway', 'cache', 'invariant', 'retry', 'queue', 'schema', 'order', 'user', 'login', 'billing'];
  log(`sidecar: ${n} memories`);
  const add = timed(() => {
    for (let i = 0; i < n; i++) {
      store.memoryAdd({
        kind: i % 7 === 0 ? 'invariant' : 'memory',
        repo: 'bench',
        body: `${words[i % words.length]} ${words[(i * 7) % words.length]} note number ${i} about src/mod${i % 500}.ts`,
        anchors: [{ kind: 'symbol', target: `bench/src/mod${i % 500}.ts::fn${i % 50}` }],
      });
    }
  });
  const search = median(21, (i) => store.memorySearch({ repo: 'bench', text: `${words[i % words.length]} gateway`, limit: 200 }));
  const byFile = median(21, (i) => store.memorySearch({ repo: 'bench', files: [`bench/src/mod${i}.ts`], limit: 200 }));
  for (let i = 0; i < 2000; i++) store.feedbackAdd({ repo: 'bench', tool: 'search_symbols', rating: i % 3 === 0 ? 'wrong' : 'useful', ids: [`bench/src/mod${i % 500}.ts::fn${i % 50}`] });
  const ids = Array.from({ length: 50 }, (_, i) => `bench/src/mod${i * 3}.ts::fn${i}`);
  const tallies = median(51, () => store.feedbackTallies('bench', ids));
  const book = median(201, (i) => store.savingsAdd([{ day: '2026-12-05', repo: 'bench', tool: `t${i % 20}`, calls: 1, returned_tokens: 100, baseline_tokens: 900 }]));
  const report = median(21, () => store.savingsReport());
  const bytes = fs.statSync(store.path).size + (fs.existsSync(`${store.path}-wal`) ? fs.statSync(`${store.path}-wal`).size : 0);
  return {
    memories: n,
    add_per_memory_ms: round(add.ms / n, 3),
    search_text_ms: search,
    search_by_file_ms: byFile,
    feedback_tallies_50_ids_ms: tallies,
    savings_booking_ms: book,
    savings_report_ms: report,
    database_mib: round(bytes / 2 ** 20),
  };
}

function section(r: Json, m: Json, rawName: string): string {
  const lines = [
    '## Contracts and the sidecar',
    '',
    `Measured ${m.date.slice(0, 10)} on ${m.cpu} (${m.nproc} cores), Node ${m.node}; raw: \`${rawName}\`. Text evidence over the trigram index; the first sweep of a repository builds that index (the cold column), both analyses are then timed warm (median of 3). \`contract_sites\` reads every file the sweep may concern and finds its candidate lines with one Aho-Corasick pass over the rules' literals (2.05 s warm on Kubernetes before that, every rule's regex on every line); the \`contracts\` tool runs it once per repository per call.`,
    '',
    '| corpus | files | text index cold | `routes` warm (rows) | `contract_sites` warm (rows) | sites by family |',
    '|---|---:|---:|---:|---:|---|',
    ...r.corpora.map((c: Json) => `| ${c.corpus} | ${c.files} | ${c.text_index_cold_ms} ms | ${c.routes_warm_ms} ms (${c.routes}) | ${c.contract_sites_warm_ms} ms (${c.sites}) | ${Object.entries(c.counts).map(([k, v]) => `${k} ${v}`).join(', ')} |`),
    '',
    `The sidecar (SQLite, WAL, \`synchronous=NORMAL\`) with ${r.sidecar.memories.toLocaleString('en-US')} memories, median of 21–201 calls through the addon:`,
    '',
    '| operation | time |',
    '|---|---:|',
    `| store one memory (one transaction, FTS row, anchor) | ${r.sidecar.add_per_memory_ms} ms |`,
    `| recall candidates by words (FTS5 BM25, 200 rows) | ${r.sidecar.search_text_ms} ms |`,
    `| recall candidates by file (anchors, 200 rows) | ${r.sidecar.search_by_file_ms} ms |`,
    `| feedback tallies of a search's 50 rows | ${r.sidecar.feedback_tallies_50_ids_ms} ms |`,
    `| one savings booking (the per-answer overhead) | ${r.sidecar.savings_booking_ms} ms |`,
    `| savings report (totals, per tool, repository, day) | ${r.sidecar.savings_report_ms} ms |`,
    `| database size | ${r.sidecar.database_mib} MiB |`,
    '',
  ];
  return lines.join('\n');
}

void benchMain({
  heading: 'Contracts and the sidecar',
  rawPrefix: 'sidecar',
  options: parseArgs(process.argv.slice(2)),
  run: async (o) => {
    const roots = fetchCorpora([...new Set(o.corpora.map((c) => SOURCES[c]!))], log);
    const corpora: Json[] = [];
    for (const c of o.corpora) corpora.push(await corpusRow(c, roots.get(SOURCES[c]!)!));
    return { corpora, sidecar: sidecarRows(o.memories) };
  },
  section,
});
