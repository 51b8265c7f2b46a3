/** Running `gortex eval parity`: fetch each pinned corpus, index it, measure it, render the table. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../support/package-root';
import { baselineProblems, CALL_TIERS, coverageOf, unresolvedCallsByPath, type LanguageCoverage, type ParityBaseline, type ParityVerdict } from './parity';
import { corpusLabel, ensureCorpus, type ParityCorpus } from './parity-corpora';

/** The baseline file of a source checkout. */
export function defaultBaselinePath(): string {
  return path.join(packageRoot(), 'eval', 'parity-baseline.json');
}

/** What one corpus gave. */
export interface CorpusResult {
  language: string;
  corpus: string;
  registry: string;
  sha256: string;
  /** Measurements of the corpus's own language; null when fetching or indexing failed. */
  coverage: LanguageCoverage | null;
  error?: string;
  /** Unresolved references counted node by node vs the graph's total: equal means the per-language split is exact. */
  unresolved_check?: { counted: number; graph: number };
  index_ms?: number;
}

/** Options of `runParity`. */
export interface ParityRunOptions {
  corpora: readonly ParityCorpus[];
  cacheDir: string;
  log?: (message: string) => void;
}

/**
 * Fetches (cached) and indexes each corpus in turn, in a throw-away GORTEX_HOME, and measures it.
 * One at a time on purpose: indexing already uses every core. A corpus that fails is reported, not thrown.
 */
export async function runParity(options: ParityRunOptions): Promise<CorpusResult[]> {
  const log = options.log ?? ((): void => {});
  const { Engine } = await import('../engine/engine');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-parity-'));
  const results: CorpusResult[] = [];
  try {
    const engine = new Engine({ home });
    for (const corpus of options.corpora) {
      const base = { language: corpus.language, corpus: corpusLabel(corpus), registry: corpus.registry, sha256: corpus.sha256 };
      try {
        const root = await ensureCorpus(corpus, options.cacheDir, log);
        log(`indexing ${base.corpus} (${root})`);
        const started = Date.now();
        const name = `parity-${corpus.language}`;
        await engine.indexRepo(root, { name, force: true });
        const index_ms = Date.now() - started;
        const stats = engine.stats(root);
        // Ask for every node: the dump would otherwise stop at 50,000 and undercount.
        const dump = engine.graphDump(root, { maxNodes: stats.nodes + 1 });
        const unresolved = unresolvedCallsByPath(engine, root, dump);
        const all = coverageOf(dump, unresolved.calls);
        const coverage = all[corpus.language] ?? null;
        results.push({
          ...base,
          coverage,
          ...(coverage ? {} : { error: `the corpus has no ${corpus.language} files` }),
          unresolved_check: { counted: unresolved.total, graph: stats.unresolved },
          index_ms,
        });
      } catch (error) {
        results.push({ ...base, coverage: null, error: (error as Error).message });
      }
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  return results;
}

const share = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
const num = (x: number | null, digits = 3): string => (x === null ? '-' : x.toFixed(digits));
const signed = (x: number | null): string => (x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(3)}`);

/** The call-site split of one language as text: `ast_resolved 71.2% · text_matched 3.0% · external 9.1% · unresolved 16.7%`. */
export function formatCallTiers(c: LanguageCoverage['calls']): string {
  const parts: string[] = [];
  const tiers = [...CALL_TIERS, ...Object.keys(c.by_tier).filter((t) => !(CALL_TIERS as readonly string[]).includes(t))];
  for (const tier of tiers) if (c.by_tier[tier]) parts.push(`${tier} ${share(c.by_tier[tier]!, c.sites)}`);
  if (c.external) parts.push(`external ${share(c.external, c.sites)}`);
  if (c.unresolved !== null) parts.push(`unresolved ${share(c.unresolved, c.sites)}`);
  return `${c.sites} sites: ${parts.join(' · ') || '-'}`;
}

/** The report table (one row per measured or baselined language) and the verdict lines. */
export function formatParity(results: readonly CorpusResult[], verdicts: readonly ParityVerdict[], epsilon: number): string {
  const byLanguage = new Map(results.map((r) => [r.language, r]));
  const header = ['language', 'corpus', 'files', 'sym files', 'covered', 'coverage', 'baseline', 'delta', 'sym/file', 'status'];
  const rows = verdicts.map((v) => {
    const c = byLanguage.get(v.language)?.coverage ?? null;
    return [
      v.language,
      v.corpus,
      c ? String(c.files) : '-',
      c ? String(c.symbol_files) : '-',
      c ? String(c.covered_files) : '-',
      c ? num(c.coverage) : '-',
      num(v.baseline),
      signed(v.delta),
      c ? c.symbols_per_file.toFixed(1) : '-',
      v.status,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i < 2 || i === 9 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const out = [line(header), ...rows.map(line)];
  const measured = verdicts.filter((v) => byLanguage.get(v.language)?.coverage);
  if (measured.length > 0) out.push('', 'calls by tier (share of call sites):');
  for (const v of measured) {
    out.push(`  ${v.language.padEnd(widths[0]!)}  ${formatCallTiers(byLanguage.get(v.language)!.coverage!.calls)}`);
  }
  const problems = verdicts.filter((v) => v.reason && v.status !== 'ok');
  if (problems.length > 0) out.push('');
  for (const v of problems) out.push(`${v.status === 'new' ? 'note' : 'FAIL'} ${v.language}: ${v.reason}`);
  const failed = verdicts.filter((v) => v.status === 'below' || v.status === 'unmeasured').length;
  out.push('', failed === 0 ? `parity: ok (epsilon ${epsilon})` : `parity: ${failed} language(s) below baseline − ${epsilon}`);
  return out.join('\n');
}

/** Reads and checks a baseline file; null when it does not exist. */
export function readBaseline(file: string): ParityBaseline | null {
  if (!fs.existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}): fix it or regenerate it with --update`);
  }
  const problems = baselineProblems(parsed);
  if (problems.length > 0) throw new Error(`${file} is not a parity baseline: ${problems.join('; ')}`);
  return parsed as ParityBaseline;
}
