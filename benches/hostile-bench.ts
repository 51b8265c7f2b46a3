// `npm run bench:hostile`: indexes short files whose shape made extraction super-linear (nested
// declarations, unclosed brackets, deep expressions) and a 6 MB tree of them, cold, one process per
// case under /usr/bin/time, and writes a table to benches/results/hostile-<date>.md. Pass another
// build's bench_index (`--baseline PATH`, e.g. built from an older commit) to put its figures in
// the same table.
//
//   node dist/benches/hostile-bench.js [--baseline PATH] [--timeout-s 300] [--threads 2]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Args, machine, ROOT, type Json } from './common';
import { buildBenchBinary, timed, type Run } from './process';

const log = (msg: string): void => void process.stderr.write(`bench:hostile: ${msg}\n`);

/** `n` TypeScript functions, each declared inside the previous one. */
function nestedFunctions(n: number): string {
  let open = '';
  for (let i = 0; i < n; i++) open += `function f${i}(a: number) {\n`;
  return `${open}return 1;\n${'}\n'.repeat(n)}`;
}

/** The cases: a name, what it is, and the files to write (path → text). */
function cases(): { name: string; what: string; files: Record<string, string> }[] {
  const nested356 = nestedFunctions(10_500);
  const tree: Record<string, string> = {};
  for (let i = 0; i < 17; i++) tree[`pkg${i}/nested.ts`] = nested356;
  return [
    { name: 'nested-356k', what: `10,500 nested functions (${kb(nested356)})`, files: { 'nested.ts': nested356 } },
    { name: 'nested-498k', what: `14,000 nested functions (${kb(nestedFunctions(14_000))})`, files: { 'nested.ts': nestedFunctions(14_000) } },
    {
      name: 'parens-300k',
      what: '300,000 unclosed `(` (10,000 lines of 30)',
      files: { 'parens.ts': `${'('.repeat(30)}\n`.repeat(10_000) },
    },
    {
      name: 'deep-expression',
      what: '`a + a + …` 200,000 terms in one return',
      files: { 'sum.ts': `export function g(a: number) {\n  return a${'\n + a'.repeat(200_000)};\n}\n` },
    },
    { name: 'tree-6mb', what: `17 files of 10,500 nested functions (${kb(nested356.repeat(17))})`, files: tree },
  ];
}

function kb(text: string): string {
  const bytes = Buffer.byteLength(text);
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function machineLine(): string {
  const m = machine();
  return `${m.nproc} cores (${m.cpu}), ${m.mem_gib} GiB, ${m.rustc}`;
}

interface Row { build: string; run: Run; report?: Json }

async function measure(bin: string, dir: string, threads: number, timeoutS: number): Promise<{ run: Run; report?: Json }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-hostile-home-'));
  try {
    const run = await timed([bin, 'cold', dir, '--threads', String(threads), '--home', home], { timeoutMs: timeoutS * 1000, sampleTree: true });
    let report: Json | undefined;
    if (run.ok) report = (JSON.parse(run.stdout) as Json).report as Json;
    return { run, report };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

function cell(row: Row): string[] {
  if (!row.run.ok) return [`${row.run.error}`, row.run.rss_mb > 0 ? `≥ ${row.run.rss_mb.toFixed(0)} MB` : '—', '—'];
  const skipped = Object.entries((row.report?.skipped_by_reason ?? {}) as Record<string, number>)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  return [`${row.run.wall_s.toFixed(2)} s`, `${row.run.rss_mb.toFixed(0)} MB`, `${row.report?.parsed ?? 0} parsed${skipped ? `, ${skipped}` : ''}`];
}

async function main(): Promise<void> {
  const args = new Args(process.argv.slice(2));
  let baseline: string | undefined;
  let timeoutS = 300;
  let threads = 2;
  for (const a of args) {
    if (a === '--baseline') baseline = path.resolve(args.value(a));
    else if (a === '--timeout-s') timeoutS = args.int(a);
    else if (a === '--threads') threads = args.int(a);
    else throw new Error(`unknown argument ${a} (known: --baseline PATH, --timeout-s N, --threads N)`);
  }
  if (baseline && !fs.existsSync(baseline)) throw new Error(`--baseline ${baseline}: no such file (build bench_index at the older commit first)`);
  const ours = buildBenchBinary();
  const builds: [string, string][] = [['gortex', ours], ...(baseline ? [['baseline', baseline] as [string, string]] : [])];
  const lines: string[] = [
    `# Hostile files: indexing cost, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `\`npm run bench:hostile${baseline ? ' -- --baseline …' : ''}\`; \`bench_index cold\`, ${threads} threads, one process per case, timeout ${timeoutS} s.`,
    `Machine: ${machineLine()}.`,
    '',
    '| case | file(s) | build | wall | peak RSS | outcome |',
    '|---|---|---|---:|---:|---|',
  ];
  for (const c of cases()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gortex-hostile-${c.name}-`));
    try {
      for (const [rel, text] of Object.entries(c.files)) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), text);
      }
      for (const [build, bin] of builds) {
        log(`${c.name}: ${build}`);
        const { run, report } = await measure(bin, dir, threads, timeoutS);
        lines.push(`| ${c.name} | ${c.what} | ${build} | ${cell({ build, run, report }).join(' | ')} |`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const out = path.join(ROOT, 'benches', 'results', `hostile-${new Date().toISOString().slice(0, 10)}.md`);
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n\nwritten to ${path.relative(ROOT, out)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:hostile: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
