// `npm run bench:index`: indexes pinned real corpora cold, warm and incrementally, runs tree-sitter
// parse-only, universal-ctags and CodeGraph over the same corpora, and writes the "Indexing" section of
// BENCHMARKS.md plus raw JSON under benches/results/.
//
//   node dist/benches/index-bench.js [--corpus rxjs,ts-src,ts-full,k8s,x-tools,django,linux] [--skip-peers]
//                                   [--threads N] [--out BENCHMARKS.md] [--from-json benches/results/X.json]
//
// Each measured thing runs in a process of its own under `/usr/bin/time -f '%e %M'` (peak RSS per
// mode); for peers that may fork, the summed RSS of the whole process tree is also sampled and the
// larger figure kept. Timing is only ever reported here, never asserted in tests.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Args, fetchCorpora as fetchSources, firstLine, machine, ROOT, sh, writeSection, type Json } from './common';
import { buildBenchBinary, lastLines, timed, type Run } from './process';

const ALL_CORPORA = ['rxjs', 'ts-src', 'ts-full', 'k8s', 'x-tools', 'django', 'linux'];
const SOURCE_OF: Record<string, string> = {
  rxjs: 'rxjs', 'ts-src': 'ts', 'ts-full': 'ts', k8s: 'k8s', 'x-tools': 'x-tools', django: 'django', linux: 'linux',
};
/** Corpora CodeGraph is not run on: it would take hours (Kubernetes alone takes it ≈ 3 minutes). */
const NO_CODEGRAPH = new Set(['linux']);
const CODEGRAPH_VERSION = '1.6.1';

interface Options { corpora: string[]; skipPeers: boolean; threads: number; out: string; fromJson?: string }

function parseArgs(argv: string[]): Options {
  const envThreads = Number.parseInt(process.env.GORTEX_THREADS ?? '', 10);
  const o: Options = {
    corpora: ALL_CORPORA,
    skipPeers: false,
    threads: Number.isFinite(envThreads) && envThreads > 0 ? envThreads : 2,
    out: path.join(ROOT, 'BENCHMARKS.md'),
  };
  const args = new Args(argv);
  for (const a of args) {
    const value = (): string => args.value(a);
    if (a === '--corpus' || a === '--corpora') {
      o.corpora = value().split(',').map((s) => s.trim()).filter(Boolean);
      const bad = o.corpora.filter((c) => !ALL_CORPORA.includes(c));
      if (bad.length) throw new Error(`unknown corpus ${bad.join(', ')} (known: ${ALL_CORPORA.join(', ')})`);
    } else if (a === '--skip-peers') o.skipPeers = true;
    else if (a === '--threads') o.threads = Number.parseInt(value(), 10);
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--from-json') o.fromJson = path.resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const log = (msg: string): void => void process.stderr.write(`bench:index: ${msg}\n`);

/** Reads every file once so that no mode pays for a cold page cache the others do not. */
function warmPageCache(dir: string): void {
  spawnSync('sh', ['-c', 'find . -type f -print0 | xargs -0 cat > /dev/null'], { cwd: dir, stdio: 'ignore' });
}

function ensureCodegraph(): string {
  const dir = path.join(os.homedir(), '.cache', 'gortex-bench-tools', `codegraph-${CODEGRAPH_VERSION}`);
  const bin = path.join(dir, 'node_modules', '.bin', 'codegraph');
  if (!fs.existsSync(bin)) {
    log(`npm install @colbymchenry/codegraph@${CODEGRAPH_VERSION} into ${dir}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `@colbymchenry/codegraph@${CODEGRAPH_VERSION}`], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm install codegraph failed: ${r.stderr}`);
  }
  return bin;
}

function json(text: string): Json {
  const start = text.indexOf('{');
  return JSON.parse(text.slice(start)) as Json;
}

async function benchCorpus(name: string, dir: string, bin: string, o: Options, codegraph: string | undefined): Promise<Json> {
  const threads = String(o.threads);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `gortex-bench-${name}-`));
  const home = path.join(work, 'home');
  const list = path.join(work, 'files.txt');
  const result: Json = { corpus: name, path: dir, threads: o.threads, loadavg_before: os.loadavg() };
  try {
    warmPageCache(dir);
    const fail = (what: string, r: Run): never => { throw new Error(`${name} ${what}: ${r.error}`); };

    log(`${name}: cold`);
    const cold = await timed([bin, 'cold', dir, '--threads', threads, '--home', home, '--list-out', list]);
    if (!cold.ok) fail('cold', cold);
    result.cold = { ...json(cold.stdout), process_wall_s: cold.wall_s, cpu_s: cold.cpu_s, rss_mb: cold.rss_mb };

    log(`${name}: warm`);
    const warm = await timed([bin, 'warm', dir, '--threads', threads, '--home', home]);
    if (!warm.ok) fail('warm', warm);
    result.warm = { ...json(warm.stdout), process_wall_s: warm.wall_s, rss_mb: warm.rss_mb };

    log(`${name}: memory per structure`);
    const memory = await timed([bin, 'memory', dir, '--threads', threads, '--home', home]);
    if (!memory.ok) fail('memory', memory);
    result.memory = { ...json(memory.stdout), rss_mb: memory.rss_mb };

    log(`${name}: incremental`);
    const incr = await timed([bin, 'incremental', dir, '--threads', threads, '--home', home, '--touch', '10']);
    if (!incr.ok) fail('incremental', incr);
    result.incremental = { ...json(incr.stdout), process_wall_s: incr.wall_s, rss_mb: incr.rss_mb };

    log(`${name}: parse-only`);
    const parse = await timed([bin, 'parse-only', dir, '--threads', threads, '--files', list]);
    if (!parse.ok) fail('parse-only', parse);
    result.parse_only = { ...json(parse.stdout), process_wall_s: parse.wall_s, cpu_s: parse.cpu_s, rss_mb: parse.rss_mb };

    log(`${name}: gortex CLI (node bin/run.js index --force --json)`);
    const cliHome = path.join(work, 'cli-home');
    const cli = await timed(['node', path.join(ROOT, 'bin', 'run.js'), 'index', dir, '--json', '--force', '--threads', threads], {
      env: { ...process.env, GORTEX_HOME: cliHome, GORTEX_THREADS: threads },
    });
    if (cli.ok) {
      const report = json(cli.stdout);
      result.cli = {
        wall_s: cli.wall_s, cpu_s: cli.cpu_s, rss_mb: cli.rss_mb, files: report.files?.total, nodes: report.nodes?.total,
        edges: report.edges?.total, wall_ms: report.wall_ms, phases_ms: report.phases_ms,
      };
    } else {
      result.cli = { error: cli.error };
    }

    if (!o.skipPeers) {
      log(`${name}: universal-ctags over the same file list`);
      const tags = path.join(work, 'tags');
      const ctags = await timed(['ctags', '-L', list, '-f', tags], { cwd: dir });
      result.ctags = ctags.ok
        ? { wall_s: ctags.wall_s, cpu_s: ctags.cpu_s, rss_mb: ctags.rss_mb, tags: countLines(tags), version: firstLine(sh('ctags', ['--version'])) }
        : { error: ctags.error };

      if (codegraph && !NO_CODEGRAPH.has(name)) {
        log(`${name}: CodeGraph ${CODEGRAPH_VERSION} (init on a copy of the corpus)`);
        const copy = path.join(work, 'codegraph', path.basename(dir));
        fs.mkdirSync(path.dirname(copy), { recursive: true });
        spawnSync('cp', ['-r', dir, copy]);
        warmPageCache(copy);
        const cg = await timed([codegraph, 'init', '-y', '.'], {
          cwd: copy, sampleTree: true,
          env: { ...process.env, CODEGRAPH_TELEMETRY: '0', CODEGRAPH_NO_DOWNLOAD: '1', NO_COLOR: '1' },
        });
        const text = (cg.stdout + '\n' + cg.stderr).replace(/\x1b\[[0-9;]*m/g, '');
        const files = /Indexed ([\d,]+) files/.exec(text);
        const graph = /([\d,]+) nodes, ([\d,]+) edges in ([\d.]+)s/.exec(text);
        const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s.replace(/,/g, '')));
        result.codegraph = cg.ok
          ? {
              wall_s: cg.wall_s, cpu_s: cg.cpu_s, rss_mb: cg.rss_mb, rss_time_mb: cg.rss_time_mb, rss_tree_mb: cg.rss_tree_mb,
              files: num(files?.[1]), nodes: num(graph?.[1]), edges: num(graph?.[2]), own_s: graph ? Number(graph[3]) : undefined,
              ...(graph ? {} : { note: `no summary line in output: ${lastLines(text, 3)}` }),
            }
          : { error: cg.error, wall_s: cg.wall_s, rss_mb: cg.rss_mb };
        fs.rmSync(path.dirname(copy), { recursive: true, force: true });
      }
    }
  } catch (e) {
    result.error = e instanceof Error ? e.message : String(e);
    log(result.error);
  } finally {
    result.loadavg_after = os.loadavg();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return result;
}

function countLines(file: string): number {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('!_TAG_')).length;
  } catch {
    return 0;
  }
}

// ---- report ----

const f1 = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(n < 10 ? 2 : 1));
/** A phase time in ms, or a dash when the phase did not run (e.g. no snapshot write). */
const ms = (n: number | undefined): string => (n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
const int = (n: number | undefined): string => (n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
const sr = (s: number | undefined, mb: number | undefined): string => `${f1(s)} (${int(mb)} MB)`;
const peer = (p: Json | undefined): string => (!p ? 'skipped' : p.error ? `error: ${String(p.error).replace(/\|/g, '\\|')}` : sr(p.wall_s, p.rss_mb));

/** The steady 10-file update of an incremental run: an edit whose facts change (lines moved) when
 *  the run has one, else the comment-only touch older runs measured. */
function changeMs(i: Json): number {
  return i.edit_ms ?? i.update_paths_ms;
}

function table(results: Json[]): string {
  const head = '| corpus | files | MB | nodes | edges | ours cold s | files/s | MB/s | RSS MB | warm s | incr 10 files s | parse-only s (RSS) | ours/parse-only | gortex CLI s (RSS) | ctags s (RSS) | CodeGraph s (RSS) |';
  const rows = results.map((r) => {
    if (r.error && !r.cold) return `| ${r.corpus} | error: ${r.error} |`;
    const c = r.cold.report;
    const coldS = r.cold.wall_ms / 1000;
    const mb = c.bytes / 1e6;
    const parseS = r.parse_only ? r.parse_only.wall_ms / 1000 : undefined;
    return `| ${r.corpus} | ${int(c.files)} | ${f1(mb)} | ${int(c.nodes)} | ${int(c.edges)} | ${f1(coldS)} | ${int(c.files / coldS)} | ${f1(mb / coldS)} | ${int(r.cold.rss_mb)} | ${f1(r.warm ? r.warm.wall_ms / 1000 : undefined)} | ${f1(r.incremental ? changeMs(r.incremental) / 1000 : undefined)} | ${r.parse_only ? sr(parseS, r.parse_only.rss_mb) : '–'} | ${parseS ? f1(coldS / parseS) + '×' : '–'} | ${r.cli ? (r.cli.error ? 'error: ' + r.cli.error : sr(r.cli.wall_s, r.cli.rss_mb)) : '–'} | ${peer(r.ctags)} | ${peer(r.codegraph)} |`;
  });
  return [head, '|' + ' --- |'.repeat(16), ...rows].join('\n');
}

function phases(results: Json[]): string {
  const head = '| corpus | cold: walk / parse+extract / resolve / save ms | parse-only: walk / parse ms | warm: load / walk / resolve ms (RSS) | update_paths 10 files, comment appended: first call / steady ms (resolve; no snapshot write) | update_paths 10 files, a line inserted at the top: steady ms (tables, refs, assemble) | refresh after 10 touches ms (walk, parse, resolve, save) |';
  const rows = results.filter((r) => r.cold).map((r) => {
    const p = r.cold.report.phases_ms;
    const po = r.parse_only?.phases_ms ?? {};
    const w = r.warm?.report.phases_ms ?? {};
    const i = r.incremental;
    const up = i?.update_paths.phases_ms ?? {};
    const rp = i?.refresh.phases_ms ?? {};
    const ep = i?.edit?.phases_ms;
    const edit = ep ? `${int(i.edit_ms)} (${ms(ep['resolve.tables'])} ${i.edit.lookup_tables}, ${ms(ep['resolve.refs'])}, ${ms(ep['resolve.assemble'])} ${i.edit.graph_layout})` : '–';
    return `| ${r.corpus} | ${ms(p.walk)} / ${ms(p.parse)} / ${ms(p.resolve)} / ${ms(p.save)} | ${int(po.walk)} / ${int(po.parse)} | ${ms(w.load)} / ${ms(w.walk)} / ${ms(w.resolve)} (${int(r.warm?.rss_mb)} MB) | ${int(i?.update_paths_first_ms)} / ${int(i?.update_paths_ms)} (${ms(up.resolve)}${i?.update_paths.graph_layout ? ' ' + i.update_paths.graph_layout : ''}) | ${edit} | ${int(i?.refresh_ms)} (${ms(rp.walk)}, ${ms(rp.parse)}, ${ms(rp.resolve)}, ${ms(rp.save)}) |`;
  });
  return [head, '|' + ' --- |'.repeat(7), ...rows].join('\n');
}

/** Rows of the per-structure table: the memory report's keys, grouped as published. */
const STRUCTURES: [string, string[]][] = [
  ['node table', ['graph.node_table']],
  ['node strings (ids, names, signatures, docs)', ['graph.node_strings']],
  ['edges + adjacency (CSR)', ['graph.edges', 'graph.adjacency']],
  ['unresolved references', ['graph.unresolved']],
  ['lookup maps (id, file, name)', ['graph.lookup_maps', 'file_records']],
  ['facts: declarations', ['facts.symbols', 'facts.files']],
  ['facts: references', ['facts.refs']],
  ['facts: bindings + imports', ['facts.bindings', 'facts.imports']],
  ['resolutions kept for the next build', ['resolutions.paths', 'resolutions.edges', 'resolutions.external', 'resolutions.unresolved', 'resolutions.deps', 'resolutions.derived']],
];

/** Where a repository opened for editing keeps its bytes, per structure, and what each lazily built index adds. */
function memoryTable(results: Json[]): string {
  const rows = results.filter((r) => r.memory);
  if (rows.length === 0) return 'No memory breakdown in this run.';
  const head = `| structure (MB) | ${rows.map((r) => r.corpus).join(' | ')} |`;
  const sum = (m: Json, keys: string[]): number => keys.reduce((a, k) => a + (m.structures_mb[k] ?? 0), 0);
  const step = (m: Json, prefix: string): Json | undefined => (m.steps as Json[]).find((s) => String(s.step).startsWith(prefix));
  const line = (label: string, cell: (m: Json) => string): string => `| ${label} | ${rows.map((r) => cell(r.memory)).join(' | ')} |`;
  return [
    head,
    '| --- |' + ' ---: |'.repeat(rows.length),
    ...STRUCTURES.map(([label, keys]) => line(label, (m) => f1(sum(m, keys)))),
    line("resolver's lookup tables kept for the next edit", (m) => f1(-(step(m, 'release the resolver')?.delta_mb ?? 0))),
    line('**sized total**', (m) => `**${f1(m.structures_total_mb - (m.structures_mb['search'] ?? 0) - (step(m, 'release the resolver')?.delta_mb ?? 0))}**`),
    line('allocator live bytes after opening', (m) => f1(m.opened.live_mb)),
    line('resident (RSS) after opening', (m) => int(m.opened.rss_mb)),
    line('+ symbol index (first search_symbols)', (m) => f1(step(m, 'search_symbols')?.delta_mb)),
    line('+ trigram index (first search_text)', (m) => f1(step(m, 'search_text')?.delta_mb)),
    line('peak RSS of the whole run', (m) => int(m.rss_mb)),
    line('calls bound in the repository / all call sites', (m) => (m.calls ? `${(m.calls.coverage * 100).toFixed(1)}%` : '–')),
  ].join('\n');
}

function targets(results: Json[]): string {
  const lines: string[] = [];
  const mark = (ok: boolean): string => (ok ? 'met' : '**not met**');
  for (const r of results.filter((x) => x.cold)) {
    const cold = r.cold.wall_ms / 1000;
    const items: string[] = [];
    if (r.parse_only) {
      const ratio = cold / (r.parse_only.wall_ms / 1000);
      items.push(`cold within 2× of parse-only: ${mark(ratio <= 2)} (${ratio.toFixed(2)}×: ${f1(cold)} s vs ${f1(r.parse_only.wall_ms / 1000)} s)`);
    }
    if (r.codegraph && !r.codegraph.error) {
      const speed = r.codegraph.wall_s / cold;
      const mem = r.cold.rss_mb / r.codegraph.rss_mb;
      items.push(`≥ 5× faster than CodeGraph: ${mark(speed >= 5)} (${speed.toFixed(1)}×)`);
      items.push(`≤ ¼ of CodeGraph's memory: ${mark(mem <= 0.25)} (${int(r.cold.rss_mb)} MB vs ${int(r.codegraph.rss_mb)} MB = ${(mem * 100).toFixed(0)}%)`);
    } else if (r.codegraph) items.push(`CodeGraph comparison unavailable (${r.codegraph.error})`);
    if (r.corpus === 'k8s') {
      items.push(`peak RSS ≤ 450 MB cold: ${mark(r.cold.rss_mb <= 450)} (${int(r.cold.rss_mb)} MB)`);
      if (r.warm) items.push(`peak RSS ≤ 300 MB warm: ${mark(r.warm.rss_mb <= 300)} (${int(r.warm.rss_mb)} MB)`);
      if (r.warm) items.push(`warm open ≤ 0.4 s: ${mark(r.warm.wall_ms <= 400)} (${(r.warm.wall_ms / 1000).toFixed(3)} s)`);
      if (r.parse_only) items.push(`cold within 1.5× of parse-only: ${mark(cold / (r.parse_only.wall_ms / 1000) <= 1.5)}`);
    }
    if (r.corpus === 'ts-full') {
      items.push(`peak RSS ≤ 600 MB: ${mark(r.cold.rss_mb <= 600)} (${int(r.cold.rss_mb)} MB cold)`);
      if (r.warm) items.push(`warm open ≤ 1 s: ${mark(r.warm.wall_ms <= 1000)} (${(r.warm.wall_ms / 1000).toFixed(3)} s)`);
    }
    if (r.corpus === 'linux') {
      items.push(`cold ≤ 90 s on 2 threads: ${mark(cold <= 90)} (${f1(cold)} s)`);
      items.push(`peak RSS ≤ 2.5 GB: ${mark(r.cold.rss_mb <= 2560)} (${int(r.cold.rss_mb)} MB)`);
      if (r.warm) items.push(`warm open ≤ 1 s: ${mark(r.warm.wall_ms <= 1000)} (${(r.warm.wall_ms / 1000).toFixed(3)} s)`);
      if (r.incremental) {
        const i = r.incremental;
        const comment = i.edit_ms !== undefined ? `; a comment appended: ${(i.update_paths_ms / 1000).toFixed(3)} s` : '';
        items.push(`10-file change queryable ≤ 0.5 s: ${mark(changeMs(i) <= 500)} (${(changeMs(i) / 1000).toFixed(3)} s${comment})`);
      }
      if (r.parse_only) items.push(`cold within 1.5× of parse-only: ${mark(cold / (r.parse_only.wall_ms / 1000) <= 1.5)}`);
      if (r.memory?.calls) items.push(`resolved-call coverage ${(r.memory.calls.coverage * 100).toFixed(1)}% (${int(r.memory.calls.resolved)} bound in the repository, ${int(r.memory.calls.external)} to external stubs, ${int(r.memory.calls.unresolved)} unresolved)`);
    }
    if (r.warm) items.push(`warm restart < 0.5 s: ${mark(r.warm.wall_ms < 500)} (${(r.warm.wall_ms / 1000).toFixed(3)} s)`);
    if (r.incremental) {
      const i = r.incremental;
      items.push(`incremental 10-file update < 0.2 s: ${mark(changeMs(i) < 200)} (update_paths ${(changeMs(i) / 1000).toFixed(3)} s steady, ${(i.update_paths_first_ms / 1000).toFixed(3)} s first call after a restart, refresh ${(i.refresh_ms / 1000).toFixed(3)} s)`);
    }
    lines.push(`- **${r.corpus}**: ${items.join('; ')}`);
  }
  return lines.join('\n');
}

function section(results: Json[], m: Json, o: Options, rawName: string): string {
  return `## Indexing

Generated by \`npm run bench:index\` (\`benches/index-bench.ts\`, corpora from \`benches/fetch-corpora.sh\`) on
${m.date.slice(0, 10)}: ${m.nproc} × ${m.cpu}, ${m.mem_gib} GiB, Linux ${m.kernel}, Node ${m.node}, ${m.rustc}.
All runs use ${o.threads} threads (\`GORTEX_THREADS\`); raw results: \`${rawName}\`.

${table(results)}

- *ours cold*: \`RepoIndex::open\` with \`force\` and a fresh home (walk, read, parse, extract, resolve, save the
  snapshot), timed in-process by \`crates/gortex-index/examples/bench_index.rs\`; RSS is that process's peak
  (\`/usr/bin/time\`). *warm*: a new process opening the saved snapshot of the unchanged tree. *incr 10 files*:
  \`update_paths\` on 10 files that each got a line inserted at the top (every span in them moves), queries
  compiled and lookup tables kept by the edit before (steady state; a comment appended, which no extractor
  reads and which carries the graph over, the first call after a restart and \`refresh\` are in the phase table).
- *parse-only*: the same walker and exactly the files the index parsed, read and parsed with tree-sitter on a
  rayon pool of the same size; no queries, no graph. *ours/parse-only* is the 2× target's ratio.
- *gortex CLI*: \`node bin/run.js index PATH --json --force\` end to end (Node start, addon load, index, save).
- *ctags*: universal-ctags, single-threaded, over the same file list (\`ctags -L list -f tags\`).
- *CodeGraph*: \`@colbymchenry/codegraph@${CODEGRAPH_VERSION}\` \`init -y\` on a copy of the corpus with
  \`CODEGRAPH_TELEMETRY=0\` (wall includes its start-up; RSS is the larger of \`/usr/bin/time\` and the summed
  process tree). Its own file/node/edge counts are in the raw JSON.

${loadNote(results, m)}${(m.notes ?? []).map((n: string) => `\n\nNote: ${n}`).join('')}

Memory per structure (\`bench_index memory\`: a new process opens the snapshot for editing, as the daemon
does; structures sized by \`RepoIndex::memory_report\`, allocator bytes counted by the bench's allocator;
the lookup tables' size is what releasing them gives back):

${memoryTable(results)}

Phases (ms, from the index report):

${phases(results)}

Targets:

${targets(results)}
`;
}

function loadNote(results: Json[], m: Json): string {
  const loads = results.filter((r) => r.loadavg_before).map((r) => `${r.corpus} ${r.loadavg_before[0].toFixed(1)}→${r.loadavg_after[0].toFixed(1)}`);
  const base = `1-minute load average before→after each corpus (${m.nproc} cores; our own runs account for about ${m.nproc}, more means other work competed for the CPU and the times are inflated): `;
  return loads.length ? base + loads.join(', ') + '.' : 'Load average was not recorded for this run.';
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.fromJson) {
    // Re-render BENCHMARKS.md from a raw results file, measuring nothing.
    const raw = JSON.parse(fs.readFileSync(o.fromJson, 'utf8')) as Json;
    writeSection(o.out, 'Indexing', section(raw.results, raw.machine, raw.options, path.relative(ROOT, o.fromJson)));
    process.stdout.write(table(raw.results) + '\n\n' + targets(raw.results) + '\n');
    return;
  }
  const paths = fetchSources([...new Set(o.corpora.map((c) => SOURCE_OF[c]!))], log);
  const bin = buildBenchBinary();
  const codegraph = o.skipPeers ? undefined : ensureCodegraph();
  const m = machine();
  const results: Json[] = [];
  for (const name of o.corpora) {
    const dir = paths.get(name);
    if (!dir) {
      results.push({ corpus: name, error: 'fetch-corpora.sh did not report it' });
      continue;
    }
    results.push(await benchCorpus(name, dir, bin, o, codegraph));
  }
  const resultsDir = path.join(ROOT, 'benches', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const rawName = `benches/results/index-${m.date.slice(0, 10)}.json`;
  fs.writeFileSync(path.join(ROOT, rawName), JSON.stringify({ machine: m, options: o, results }, null, 2) + '\n');
  writeSection(o.out, 'Indexing', section(results, m, o, rawName));
  process.stdout.write(table(results) + '\n\n' + targets(results) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:index: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
