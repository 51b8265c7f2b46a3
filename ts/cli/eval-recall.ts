/** The retrieval evaluation behind `gortex eval recall`: fixture loading, corpus setup, metrics. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../support/package-root';
import { UsageError } from '../support/usage-error';
import type { Engine } from '../engine/engine';

/** The package root (holds `test/fixtures` and `benches` in a source checkout). */
const PACKAGE_ROOT = packageRoot();

/** Tiers of the fixture, in report order. */
export const TIERS = ['exact', 'concept', 'multi_hop'] as const;
export type Tier = (typeof TIERS)[number];

interface CorpusSpec {
  /** A checked-in fixture repo, relative to the package root. */
  fixture?: string;
  /** A pinned corpus fetched by `benches/fetch-corpora.sh <fetch>`. */
  fetch?: string;
  /** Sub-directory of the fetched corpus that is indexed. */
  subdir?: string;
}

interface Case {
  id: string;
  corpus: string;
  tier: Tier;
  query: string;
  /** `<path>::<qualified>` ids (no repository prefix). */
  gold: string[];
}

interface Fixture {
  version: number;
  corpora: Record<string, CorpusSpec>;
  cases: Case[];
}

/** Recall metrics of a group of cases. */
export interface Metrics {
  cases: number;
  r1: number;
  r5: number;
  r20: number;
  mrr: number;
}

/** One evaluated case: the 1-based rank of the first gold hit (null when not in the top 20). */
export interface CaseResult {
  id: string;
  corpus: string;
  tier: Tier;
  query: string;
  rank: number | null;
  top: string[];
  gold: string[];
}

/** The whole evaluation. */
export interface RecallReport {
  fixture: string;
  /** The tool that ranked the cases. */
  tool: RecallTool;
  overall: Metrics;
  by_tier: Record<string, Metrics>;
  by_corpus: Record<string, Metrics>;
  cases: CaseResult[];
}

/** The tools `gortex eval recall` can rank with. */
export const RECALL_TOOLS = ['search_symbols', 'explore'] as const;
export type RecallTool = (typeof RECALL_TOOLS)[number];

/** Options for `runRecall`. */
export interface RecallOptions {
  fixture?: string;
  /** `search_symbols` (default) or `explore` (the case's query as its task text). */
  tool?: RecallTool;
  corpusDir?: string;
  corpora?: readonly string[];
  log?: (message: string) => void;
}

function loadFixture(file: string): Fixture {
  let parsed: Fixture;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Fixture;
  } catch (error) {
    throw new UsageError(`Cannot read the retrieval fixture ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed.cases) || typeof parsed.corpora !== 'object') {
    throw new UsageError(`${file} is not a retrieval fixture (expected "corpora" and "cases")`);
  }
  return parsed;
}

/** The directory to index for a corpus: a fixture repo, or a fetched corpus (fetching it if needed). */
function corpusRoot(name: string, spec: CorpusSpec, corpusDir: string, log: (m: string) => void): string {
  if (spec.fixture) {
    const dir = path.resolve(PACKAGE_ROOT, spec.fixture);
    if (!fs.existsSync(dir)) throw new UsageError(`Corpus ${name}: fixture directory ${dir} is missing`);
    return dir;
  }
  if (!spec.fetch) throw new UsageError(`Corpus ${name} names neither a fixture nor a fetchable corpus`);
  const script = path.join(PACKAGE_ROOT, 'benches', 'fetch-corpora.sh');
  if (!fs.existsSync(script)) {
    throw new UsageError(`Corpus ${name} must be fetched, but ${script} is missing (run from a source checkout)`);
  }
  log(`fetching corpus ${spec.fetch} into ${corpusDir}`);
  const r = spawnSync(script, ['--dir', corpusDir, spec.fetch], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fetching ${spec.fetch} failed: ${r.stderr.trim()}`);
  const line = r.stdout.trim().split('\n').find((l) => l.startsWith(`${spec.fetch}\t`));
  if (!line) throw new Error(`fetch-corpora.sh did not report ${spec.fetch}`);
  let dir = line.split('\t')[1]!;
  // The script reports the indexed directory; `subdir` names it when the fixture is explicit.
  if (spec.subdir && path.basename(dir) !== spec.subdir) dir = path.join(dir, spec.subdir);
  return dir;
}

function metrics(results: readonly CaseResult[]): Metrics {
  const n = results.length;
  const at = (k: number): number => results.filter((r) => r.rank !== null && r.rank <= k).length / Math.max(1, n);
  const mrr = results.reduce((sum, r) => sum + (r.rank === null ? 0 : 1 / r.rank), 0) / Math.max(1, n);
  return { cases: n, r1: at(1), r5: at(5), r20: at(20), mrr };
}

function groupMetrics(results: readonly CaseResult[], key: (r: CaseResult) => string): Record<string, Metrics> {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups.entries()].map(([k, v]) => [k, metrics(v)]));
}

/** Ids of the symbols `tool` ranks for `query` on the repository at `root`, best first. */
async function rankedIds(engine: Engine, root: string, tool: RecallTool, query: string): Promise<string[]> {
  if (tool === 'search_symbols') {
    return engine.query<{ results: { id: string }[] }>('search_symbols', { query, limit: 20 }, { repo: root }).results.map((r) => r.id);
  }
  const { localToolCall } = await import('./eval-tool-call');
  const result = (await localToolCall(engine, root, 'explore', { task: query })) as { results: { id: string }[] };
  return result.results.map((r) => r.id);
}

/** Indexes the fixture's corpora and evaluates every case through `search_symbols` or `explore`. */
export async function runRecall(options: RecallOptions = {}): Promise<RecallReport> {
  const log = options.log ?? ((): void => {});
  const tool = options.tool ?? 'search_symbols';
  const file = path.resolve(options.fixture ?? path.join(PACKAGE_ROOT, 'test', 'fixtures', 'retrieval', 'retrieval.json'));
  if (options.fixture === undefined && !fs.existsSync(file)) {
    // The published package ships no test fixtures or bench scripts.
    throw new UsageError(`gortex eval recall runs on the retrieval fixture of a source checkout (${file} is not in this installation): clone gortex and run it there, or pass --fixture FILE`);
  }
  const fixture = loadFixture(file);
  const wanted = options.corpora && options.corpora.length > 0 ? new Set(options.corpora) : undefined;
  for (const name of wanted ?? []) {
    if (!fixture.corpora[name]) {
      throw new UsageError(`Unknown corpus "${name}"; the fixture has: ${Object.keys(fixture.corpora).join(', ')}`);
    }
  }
  const corpusDir = options.corpusDir ?? process.env.GORTEX_CORPORA ?? path.join(os.homedir(), '.cache', 'gortex-corpora');
  const { Engine: EngineClass } = await import('../engine/engine');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-eval-'));
  const engine = new EngineClass({ home });
  const results: CaseResult[] = [];
  try {
    const names = Object.keys(fixture.corpora).filter((n) => !wanted || wanted.has(n));
    for (const name of names) {
      const cases = fixture.cases.filter((c) => c.corpus === name);
      if (cases.length === 0) continue;
      const root = corpusRoot(name, fixture.corpora[name]!, corpusDir, log);
      log(`indexing ${name} (${root})`);
      // The corpus name is the id prefix, so gold ids compare after stripping `<name>/`.
      await engine.indexRepo(root, { name });
      const prefix = `${name}/`;
      for (const c of cases) {
        const ids = await rankedIds(engine, root, tool, c.query);
        const top = ids.map((id) => (id.startsWith(prefix) ? id.slice(prefix.length) : id));
        const hit = top.findIndex((id) => c.gold.includes(id));
        results.push({ id: c.id, corpus: name, tier: c.tier, query: c.query, rank: hit < 0 ? null : hit + 1, top: top.slice(0, 5), gold: c.gold });
      }
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  return {
    fixture: file,
    tool,
    overall: metrics(results),
    by_tier: groupMetrics(results, (r) => r.tier),
    by_corpus: groupMetrics(results, (r) => r.corpus),
    cases: results,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The report as a plain-text table (plus the misses at 5 when asked). */
export function formatRecall(report: RecallReport, showMisses = false): string {
  const row = (label: string, m: Metrics): string =>
    `${label.padEnd(16)} ${String(m.cases).padStart(5)}  ${pct(m.r1).padStart(6)}  ${pct(m.r5).padStart(6)}  ${pct(m.r20).padStart(6)}  ${m.mrr.toFixed(3).padStart(6)}`;
  const lines = report.tool === 'search_symbols' ? [] : [`ranked by ${report.tool}`];
  lines.push(`${'tier'.padEnd(16)} ${'cases'.padStart(5)}  ${'R@1'.padStart(6)}  ${'R@5'.padStart(6)}  ${'R@20'.padStart(6)}  ${'MRR'.padStart(6)}`);
  for (const tier of TIERS) if (report.by_tier[tier]) lines.push(row(tier, report.by_tier[tier]!));
  lines.push(row('overall', report.overall), '', 'by corpus:');
  for (const [name, m] of Object.entries(report.by_corpus)) lines.push(row(`  ${name}`, m));
  if (showMisses) {
    const misses = report.cases.filter((c) => c.rank === null || c.rank > 5);
    lines.push('', `misses at 5 (${misses.length}):`);
    for (const m of misses) lines.push(`  ${m.id} [${m.tier}] "${m.query}" → ${m.top.slice(0, 3).join(', ') || 'nothing'} (gold ${m.gold[0]})`);
  }
  return lines.join('\n');
}
