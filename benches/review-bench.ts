// `npm run bench:review`: how good the review gate's rulepack is.
//
// 1. The planted-defect corpus (`test/fixtures/review/`): per rule and language, true positives,
//    false positives and misses against its `expect:` markers — for the syntax pass alone (what
//    the AST detectors report, `grounded:` look-alikes counted as false positives) and after the
//    graph's grounding pass (what `review` reports).
// 2. Real history: `review` over each of the last N first-parent commits of real repositories
//    (each commit checked out in turn and reviewed against its parent, as CI would), reporting
//    findings per thousand added lines and every finding with its source line, so a sample can be
//    judged by hand (`--sample K` prints a seeded sample of K findings to judge); and the rollups
//    `review_pack` and `pr_review_context` on the same commits (time, verdicts, classes, breaks).
//
//   node dist/benches/review-bench.js [--git DIR=NAME …] [--commits 50] [--out BENCHMARKS.md] [--from-json F]
//
// DIR is a git repository with history (a bare mirror works): it is cloned into a temp folder. The
// hand-checked verdicts live in benches/review-judged.json ({ fingerprint: { verdict, why } }) and
// are joined into the section when present.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Args, benchMain, prng, ROOT, sample, type Json } from './common';

interface Options {
  git: string[];
  commits: number;
  out: string;
  fromJson?: string;
  sample: number;
}

const log = (msg: string): void => void process.stderr.write(`bench:review: ${msg}\n`);
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();

const LANGUAGE: Record<string, string> = { '.ts': 'typescript', '.js': 'javascript', '.py': 'python', '.go': 'go', '.java': 'java' };

/** Calls `tool` through the real call pipeline on an embedded repository. */
async function caller(dir: string): Promise<{ call: (tool: string, args: Json) => Promise<Json>; close: () => void }> {
  const { openEmbedded, embeddedWorkspace } = await import('../ts/workspace/embedded');
  const { CallPipeline } = await import('../ts/calls/pipeline');
  const repo = await openEmbedded(dir, { watch: false });
  const pipeline = new CallPipeline();
  return {
    call: async (tool, args) => {
      const out = await pipeline.call({ tool, args, format: 'json' }, { context: () => repo.context(), workspace: embeddedWorkspace(repo) });
      if (!out.ok) throw new Error(`${tool}: ${out.code}: ${out.message}`);
      return JSON.parse(out.text) as Json;
    },
    close: () => repo.close(),
  };
}

/** `(path, line, rule)` keys of every `tag` marker in the corpus. */
function markers(root: string, tag: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (LANGUAGE[path.extname(e.name)]) {
        const rel = path.relative(root, p).split(path.sep).join('/');
        fs.readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const at = line.indexOf(tag);
            if (at < 0) return;
            for (const rule of line.slice(at + tag.length).split(',')) {
              const id = rule.trim().split(/\s+/)[0];
              if (id) out.add(`${rel}:${i + 1}:${id}`);
            }
          });
      }
    }
  };
  walk(root);
  return out;
}

/** Per rule and language: TP / FP / FN of the syntax pass and of the grounded review. */
async function corpus(): Promise<Json> {
  const src = path.join(ROOT, 'test', 'fixtures', 'review');
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-review-corpus-')), 'corpus');
  fs.cpSync(src, dir, { recursive: true });
  const c = await caller(dir);
  try {
    const r = await c.call('review', { scope: '', include_dropped: true, limit: 5000, rules: ['all'] });
    const key = (f: Json): string => `${f.path}:${f.line}:${f.rule}`;
    const expected = markers(dir, 'expect:');
    const grounded = markers(dir, 'grounded:');
    const kept = new Set<string>((r.findings as Json[]).map(key));
    const raw = new Set<string>([...kept, ...(r.dropped as Json[]).map(key)]);
    const rows = new Map<string, Json>();
    const row = (k: string): Json => {
      const [file, , rule] = k.split(':') as [string, string, string];
      const lang = LANGUAGE[path.extname(file)]!;
      const id = `${rule}\t${lang}`;
      if (!rows.has(id)) rows.set(id, { rule, language: lang, raw: { tp: 0, fp: 0, fn: 0 }, grounded: { tp: 0, fp: 0, fn: 0 }, lookalikes: 0 });
      return rows.get(id)!;
    };
    for (const k of expected) {
      row(k).raw[raw.has(k) ? 'tp' : 'fn']++;
      row(k).grounded[kept.has(k) ? 'tp' : 'fn']++;
    }
    for (const k of raw) if (!expected.has(k)) row(k).raw.fp++;
    for (const k of kept) if (!expected.has(k)) row(k).grounded.fp++;
    for (const k of grounded) row(k).lookalikes++;
    return { files: r.files_scanned, planted: expected.size, grounded_lookalikes: grounded.size, rows: [...rows.values()].sort((a, b) => a.rule.localeCompare(b.rule) || a.language.localeCompare(b.language)) };
  } finally {
    c.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

/** `review` over each of the last `n` first-parent commits of one repository. */
async function history(spec: string, n: number): Promise<Json> {
  const [source, name] = spec.split('=') as [string, string | undefined];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-review-bench-'));
  const dir = path.join(work, name ?? path.basename(source.replace(/\/(repo|\.git)\/?$/, '')));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-review-home-'));
  const savedHome = process.env.GORTEX_HOME;
  process.env.GORTEX_HOME = home;
  try {
    log(`cloning ${source}`);
    git(work, 'clone', '-q', '--no-checkout', source, dir);
    const head = git(dir, 'rev-parse', 'HEAD');
    const commits = git(dir, 'rev-list', '--first-parent', `--max-count=${n}`, 'HEAD').split('\n').reverse();
    git(dir, 'checkout', '-q', `${commits[0]}~1`);
    const c = await caller(dir);
    const rows: Json[] = [];
    const findings: Json[] = [];
    let tree: Json | undefined;
    try {
      for (const sha of commits) {
        git(dir, 'checkout', '-q', sha);
        const stat = git(dir, 'diff', '--numstat', `${sha}~1`, sha);
        let added = 0;
        let addedCode = 0;
        for (const line of stat.split('\n').filter(Boolean)) {
          const [a, , file] = line.split('\t') as [string, string, string];
          const count = a === '-' ? 0 : Number(a);
          added += count;
          if (LANGUAGE[path.extname(file)]) addedCode += count;
        }
        const t0 = Date.now();
        const r = await c.call('review', { base: `${sha}~1`, limit: 5000 });
        const ms = Date.now() - t0;
        const subject = git(dir, 'log', '-1', '--format=%s', sha);
        // The rollups on the same changeset: the whole pack, and the cheap PASS/WARN/BLOCK context.
        const p0 = Date.now();
        const pack = await c.call('review_pack', { base: `${sha}~1`, limit: 5000 });
        const packMs = Date.now() - p0;
        const c0 = Date.now();
        const context = await c.call('pr_review_context', { base: `${sha}~1` });
        const contextMs = Date.now() - c0;
        rows.push({
          sha, subject, added, added_code: addedCode, files: r.files ?? 0, findings: r.findings.length, dropped: r.dropped_count ?? 0, pre_existing: r.pre_existing_count ?? 0, verdict: r.verdict, ms,
          pack: { ms: packMs, verdict: pack.verdict, classes: pack.changes.classes, breaks: pack.contracts.breaks, guard_violations: (pack.guards.violations as Json[]).length, tests: (pack.tests.test_files as Json[]).length, command: pack.verification_command !== null, bytes: JSON.stringify(pack).length },
          context: { ms: contextMs, verdict: context.verdict, reasons: (context.reasons as Json[]).map((x) => `${x.from}:${x.level}`) },
        });
        for (const f of r.findings as Json[]) findings.push({ sha, ...f });
        log(`${name ?? dir} ${sha.slice(0, 10)} +${addedCode} code lines: ${r.findings.length} findings (${r.verdict}) in ${ms} ms`);
      }
      // The whole tree at the head, for the hand-checked sample and the per-rule volume.
      const whole = await c.call('review', { scope: '', limit: 5000 });
      const optIn = await c.call('review', { scope: '', limit: 5000, rules: ['unchecked-type-assertion'] });
      tree = { files: whole.files_scanned, findings: whole.findings as Json[], dropped: whole.dropped_count, opt_in_assertions: (optIn.findings as Json[]).length };
    } finally {
      c.close();
    }
    return { repository: source, name: path.basename(dir), head, commits: rows, findings, tree };
  } finally {
    if (savedHome === undefined) delete process.env.GORTEX_HOME;
    else process.env.GORTEX_HOME = savedHome;
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function run(o: Options): Promise<Json> {
  const result: Json = { corpus: await corpus(), repos: [] };
  for (const spec of o.git) result.repos.push(await history(spec, o.commits));
  if (o.sample > 0) {
    const all = (result.repos as Json[]).flatMap((r) => (r.findings as Json[]).map((f): Json => ({ repo: r.name, ...f })));
    const picked = sample(all, Math.min(o.sample, all.length), prng(42));
    process.stderr.write(JSON.stringify(picked, null, 2) + '\n');
  }
  return result;
}

const pct = (x: number, of: number): string => (of === 0 ? '—' : `${((100 * x) / of).toFixed(0)} %`);

function section(r: Json, m: Json, rawName: string): string {
  const judgedFile: Json = fs.existsSync(path.join(ROOT, 'benches', 'review-judged.json'))
    ? (JSON.parse(fs.readFileSync(path.join(ROOT, 'benches', 'review-judged.json'), 'utf8')) as Json)
    : {};
  const judged: Record<string, { verdict: string; why: string }> = judgedFile.findings ?? {};
  const c = r.corpus as Json;
  const lines = [
    '## Review rulepack',
    '',
    `\`npm run bench:review\` on ${m.nproc} cores (${m.cpu}), ${m.date.slice(0, 10)}; raw: \`${rawName}\`.`,
    '',
    `**Planted-defect corpus** (\`test/fixtures/review/\`, ${c.files} files): ${c.planted} planted defects, each beside look-alike safe twins;`,
    `${c.grounded_lookalikes} of the look-alikes are ones only the graph can clear (a constant or sanitiser spliced in, test code, a loop call`,
    'that resolves to in-memory code, a helper whose every caller holds the lock). Precision and recall per rule and language, for the',
    'syntax pass alone and for what `review` reports after the grounding pass. The corpus was written with the rules, so it proves',
    'each rule fires on its defect and stays quiet on its twins; the real-history sample below is the honest measure.',
    '',
    '| rule | language | planted | syntax P | syntax R | grounded P | grounded R | graph-only look-alikes |',
    '|---|---|---|---|---|---|---|---|',
    ...(c.rows as Json[]).map((x) => {
      const p = (s: Json): string => pct(s.tp, s.tp + s.fp);
      const rc = (s: Json): string => pct(s.tp, s.tp + s.fn);
      return `| ${x.rule} | ${x.language} | ${x.grounded.tp + x.grounded.fn} | ${p(x.raw)} | ${rc(x.raw)} | ${p(x.grounded)} | ${rc(x.grounded)} | ${x.lookalikes || ''} |`;
    }),
    '',
  ];
  if ((r.repos as Json[]).length > 0) {
    lines.push(
      `**Real history**: \`review --base <commit>~1\` on each of the last ${(r.repos as Json[])[0].commits.length} first-parent commits, each checked out in turn`,
      '(the repository cloned from a full-history mirror fetched from GitHub). Findings count only what the commit introduced (pre-existing ones',
      'are listed apart); "per kLOC" is per thousand added lines in TS/JS, Python, Go and Java files.',
      '',
      '| repository | head | commits | added code lines | findings | per kLOC | dropped by the graph | pre-existing | review time (median) |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const x of r.repos as Json[]) {
      const rows = x.commits as Json[];
      const sum = (k: string): number => rows.reduce((a, b) => a + (b[k] as number), 0);
      const times = rows.map((b) => b.ms as number).sort((a, b) => a - b);
      lines.push(
        `| ${x.name} | \`${x.head.slice(0, 12)}\` | ${rows.length} | ${sum('added_code').toLocaleString('en-US')} | ${sum('findings')} | ${sum('added_code') ? ((1000 * sum('findings')) / sum('added_code')).toFixed(2) : '—'} | ${sum('dropped')} | ${sum('pre_existing')} | ${times[Math.floor(times.length / 2)] ?? 0} ms |`,
      );
    }
    const rolled = (r.repos as Json[]).filter((x) => (x.commits as Json[]).every((b) => b.pack));
    if (rolled.length > 0) {
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
      const count = (xs: string[]): string => Object.entries(xs.reduce<Record<string, number>>((m, v) => ((m[v] = (m[v] ?? 0) + 1), m), {})).sort().map(([k, n]) => `${k} ${n}`).join(', ');
      lines.push(
        '',
        '**The rollups on the same commits**: `review_pack` (review, classification, file risk, contracts, guards, tests) and',
        '`pr_review_context` (diff_context, verify_change, the agent-config audit; no overlay) against each commit\'s parent.',
        'Contract breaks are changed signatures some unchanged call site no longer fits, or removed functions still called; merged',
        'history should have none, so each one reported is read against its code. (The first run reported 12, all false: a comment',
        'inside a parameter list, `@overload` stubs, removed methods matched by name, the index still holding files the commit',
        'deleted. Each cause is fixed and has a test; the planted break of `test/mcp-review-pack.test.ts` is still caught.)',
        '',
        '| repository | review_pack (median / max) | answer size (median) | verdicts | declarations by class | contract breaks | commits with a test command | pr_review_context (median) | verdicts |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rolled.map((x) => {
          const rows = x.commits as Json[];
          const packs = rows.map((b) => b.pack as Json);
          const classes = packs.reduce<Record<string, number>>((m, p) => {
            for (const [k, n] of Object.entries(p.classes as Record<string, number>)) m[k] = (m[k] ?? 0) + n;
            return m;
          }, {});
          return `| ${x.name} | ${median(packs.map((p) => p.ms))} / ${Math.max(...packs.map((p) => p.ms))} ms | ${(median(packs.map((p) => p.bytes)) / 1024).toFixed(1)} KiB | ${count(packs.map((p) => p.verdict))} | ${Object.entries(classes).sort().map(([k, n]) => `${k} ${n}`).join(', ')} | ${packs.reduce((a, p) => a + p.breaks, 0)} | ${packs.filter((p) => p.command).length} | ${median(rows.map((b) => b.context.ms))} ms | ${count(rows.map((b) => b.context.verdict))} |`;
        }),
      );
    }
    const trees = (r.repos as Json[]).filter((x) => x.tree);
    if (trees.length > 0) {
      const rules = [...new Set(trees.flatMap((x) => (x.tree.findings as Json[]).map((f) => f.rule as string)))].sort();
      lines.push(
        '',
        '**The whole tree at each head** (`review --scope ""`, the default rules), findings per rule, and the opt-in',
        '`unchecked-type-assertion` on its own:',
        '',
        `| ${['repository', 'files', ...rules, 'dropped by the graph', 'unchecked-type-assertion (opt-in)'].join(' | ')} |`,
        `|${['repository', 'files', ...rules, 'dropped', 'opt-in'].map(() => '---|').join('')}`,
        ...trees.map((x) => `| ${[x.name, x.tree.files, ...rules.map((rule) => (x.tree.findings as Json[]).filter((f) => f.rule === rule).length), x.tree.dropped, x.tree.opt_in_assertions].join(' | ')} |`),
      );
    }
    const all = [
      ...(r.repos as Json[]).flatMap((x) => (x.findings as Json[]).map((f): Json => ({ repo: x.name, where: `commit \`${f.sha.slice(0, 8)}\``, ...f }))),
      ...trees.flatMap((x) => (x.tree.findings as Json[]).map((f): Json => ({ repo: x.name, where: 'head', ...f }))),
    ];
    const seen = new Set<string>();
    const checked = all.filter((f) => judged[f.fingerprint] && !seen.has(f.fingerprint) && seen.add(f.fingerprint));
    if (checked.length > 0) {
      const tp = checked.filter((f) => judged[f.fingerprint]!.verdict === 'true').length;
      lines.push(
        '',
        `**Hand-checked**: ${checked.length} findings of the default rules read against their code — ${tp} true positives, ${checked.length - tp} false positives (precision ${pct(tp, checked.length)}).`,
        ...(judgedFile.opt_in ? ['', judgedFile.opt_in as string] : []),
        '',
        '| repository | where | finding | verdict | why |',
        '|---|---|---|---|---|',
        ...checked.map((f) => `| ${f.repo} | ${f.where} | ${f.rule} at \`${f.path}:${f.line}\` | ${judged[f.fingerprint]!.verdict === 'true' ? 'true positive' : 'false positive'} | ${judged[f.fingerprint]!.why.replace(/\|/g, '\\|')} |`),
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const o: Options = { git: [], commits: 50, out: path.join(ROOT, 'BENCHMARKS.md'), sample: 0 };
  const args = new Args(process.argv.slice(2));
  for (const a of args) {
    if (a === '--git') o.git.push(args.value(a));
    else if (a === '--commits') o.commits = args.int(a);
    else if (a === '--sample') o.sample = args.int(a);
    else if (a === '--out') o.out = args.value(a);
    else if (a === '--from-json') o.fromJson = args.value(a);
    else throw new Error(`unknown argument ${a}`);
  }
  await benchMain({ heading: 'Review rulepack', rawPrefix: 'review', options: o, run, section });
}

void main().catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
