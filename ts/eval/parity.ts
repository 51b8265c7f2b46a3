/**
 * The measurements and the gate of `gortex eval parity`: resolved cross-file coverage, symbols per
 * file and call-site tiers per language from a graph dump, and the comparison with a baseline.
 * Everything here is pure except `unresolvedCallsByPath`, which asks an engine-like object.
 */
import { DOCUMENT_LANGUAGES } from '../engine/query-views';
import type { EdgeJson, GraphDump } from '../engine/types';

/** Node kinds that make a file symbol-bearing (the original's list; `module` nodes are not symbols there). */
export const SYMBOL_KINDS: ReadonlySet<string> = new Set([
  'function',
  'method',
  'type',
  'interface',
  'variable',
  'constant',
  'field',
  'enum_member',
]);

/**
 * Edge kinds that say "the source depends on the target". The original's list (imports, calls,
 * references, extends, implements, instantiates, typed_as, returns, overrides, handles_route) as our
 * graph spells it: there is no `handles_route` edge, and `re_exports` (a barrel re-exporting a
 * module) is a dependency too. `tests` is left out: it only ever doubles a call or instantiation.
 */
export const USE_EDGE_KINDS: ReadonlySet<string> = new Set([
  'imports',
  're_exports',
  'calls',
  'references',
  'extends',
  'implements',
  'instantiates',
  'typed_as',
  'returns',
  'overrides',
]);

/** The tiers a call edge can carry, strongest first (the `origin` wire names). */
export const CALL_TIERS = ['lsp_resolved', 'lsp_dispatch', 'ast_resolved', 'ast_inferred', 'text_matched', 'speculative'] as const;

/** The language a file is measured under (TSX is a dialect of TypeScript here), `null` for documents. */
export function parityLanguage(language: string | null): string | null {
  if (language !== null && DOCUMENT_LANGUAGES.has(language)) return null;
  return language === 'tsx' ? 'typescript' : language;
}


/** True for a node id that stands for code outside the repository (never a resolution target). */
export function isExternalId(id: string): boolean {
  return id.startsWith('external::');
}

/** Call sites of one language, counted by how they were resolved. */
export interface CallSiteCounts {
  /** resolved + external + (unresolved when known). */
  sites: number;
  /** Call edges to a node of the repository, by tier (`origin`). */
  by_tier: Record<string, number>;
  /** Call edges to an `external::` stub (bound to an import of another package). */
  external: number;
  /** Call references the resolver left unresolved; null when not measured. */
  unresolved: number | null;
}

/** The parity measurements of one language in one graph. */
export interface LanguageCoverage {
  language: string;
  /** Files of the language (file nodes). */
  files: number;
  /** Files holding at least one node of `SYMBOL_KINDS`. */
  symbol_files: number;
  /** Symbol files some other file depends on through a resolved use edge. */
  covered_files: number;
  /** covered_files / symbol_files (0 when there are no symbol files). */
  coverage: number;
  /** Nodes of `SYMBOL_KINDS` in the language's files. */
  symbols: number;
  /** symbols / symbol_files. */
  symbols_per_file: number;
  calls: CallSiteCounts;
}

/**
 * Per-language coverage of a graph dump. `unresolvedCalls` (file path → unresolved call references
 * made from that file, see `unresolvedCallsByPath`) completes the call-site split; without it
 * `calls.unresolved` is null and `calls.sites` counts bound call sites only.
 */
export function coverageOf(dump: GraphDump, unresolvedCalls?: ReadonlyMap<string, number>): Record<string, LanguageCoverage> {
  if (dump.truncated) {
    throw new Error(`the graph dump of ${dump.repo} is truncated (${dump.nodes.length} of ${dump.total_nodes} nodes): pass a larger maxNodes`);
  }
  // The language of a file comes from its file node, as in the original.
  const fileLanguage = new Map<string, string>();
  for (const n of dump.nodes) {
    const language = parityLanguage(n.language);
    if (n.kind === 'file' && language !== null && !isExternalId(n.id)) fileLanguage.set(n.file_path, language);
  }
  const nodePath = new Map<string, string>();
  const symbolsIn = new Map<string, number>();
  for (const n of dump.nodes) {
    if (isExternalId(n.id)) continue;
    nodePath.set(n.id, n.file_path);
    if (SYMBOL_KINDS.has(n.kind) && fileLanguage.has(n.file_path)) symbolsIn.set(n.file_path, (symbolsIn.get(n.file_path) ?? 0) + 1);
  }
  const covered = new Set<string>();
  const calls = new Map<string, CallSiteCounts>();
  const callsOf = (language: string): CallSiteCounts => {
    let c = calls.get(language);
    if (!c) calls.set(language, (c = { sites: 0, by_tier: {}, external: 0, unresolved: unresolvedCalls ? 0 : null }));
    return c;
  };
  for (const e of dump.edges) {
    const fromPath = nodePath.get(e.from);
    if (e.kind === 'calls' && fromPath !== undefined) {
      const language = fileLanguage.get(fromPath);
      if (language !== undefined) {
        const c = callsOf(language);
        c.sites += 1;
        if (isExternalId(e.to)) c.external += 1;
        else c.by_tier[e.origin] = (c.by_tier[e.origin] ?? 0) + 1;
      }
    }
    if (!USE_EDGE_KINDS.has(e.kind) || isExternalId(e.to)) continue;
    const toPath = nodePath.get(e.to);
    // A package node (Go, Java) has a directory path, so it never counts as a file here.
    if (toPath === undefined || fromPath === undefined || toPath === fromPath) continue;
    if (symbolsIn.has(toPath)) covered.add(toPath);
  }
  for (const [file, n] of unresolvedCalls ?? []) {
    const language = fileLanguage.get(file);
    if (language === undefined || n === 0) continue;
    const c = callsOf(language);
    c.unresolved = (c.unresolved ?? 0) + n;
    c.sites += n;
  }
  const out: Record<string, LanguageCoverage> = {};
  const row = (language: string): LanguageCoverage =>
    (out[language] ??= {
      language,
      files: 0,
      symbol_files: 0,
      covered_files: 0,
      coverage: 0,
      symbols: 0,
      symbols_per_file: 0,
      calls: callsOf(language),
    });
  for (const [file, language] of fileLanguage) {
    const r = row(language);
    r.files += 1;
    const symbols = symbolsIn.get(file) ?? 0;
    if (symbols === 0) continue;
    r.symbol_files += 1;
    r.symbols += symbols;
    if (covered.has(file)) r.covered_files += 1;
  }
  for (const r of Object.values(out)) {
    r.coverage = r.symbol_files === 0 ? 0 : r.covered_files / r.symbol_files;
    r.symbols_per_file = r.symbol_files === 0 ? 0 : r.symbols / r.symbol_files;
  }
  return out;
}

/** The part of `Engine` that `unresolvedCallsByPath` needs. */
export interface EdgeSource {
  edges(repo: string, id: string, options: { direction: 'out'; kinds?: readonly string[] }): EdgeJson[];
}

/**
 * Unresolved call references per source file, read node by node through `edges` (which lists a
 * node's unresolved references with `resolved: false`); `total` counts unresolved references of
 * every kind, so a caller can check it against `Engine.stats().unresolved`.
 */
export function unresolvedCallsByPath(engine: EdgeSource, repo: string, dump: GraphDump): { calls: Map<string, number>; total: number } {
  const calls = new Map<string, number>();
  let total = 0;
  for (const n of dump.nodes) {
    if (isExternalId(n.id)) continue;
    for (const e of engine.edges(repo, n.id, { direction: 'out' })) {
      if (e.resolved) continue;
      total += 1;
      if (e.kind === 'calls') calls.set(e.path, (calls.get(e.path) ?? 0) + 1);
    }
  }
  return { calls, total };
}

/** `eval/parity-baseline.json`: the coverage floor of each language and the corpus it was measured on. */
export interface ParityBaseline {
  version: 1;
  metric: string;
  languages: Record<string, { corpus: string; coverage: number }>;
}

/** Checks the shape of a parsed baseline file; returns the problems (empty when it is well-formed). */
export function baselineProblems(value: unknown): string[] {
  const problems: string[] = [];
  const b = value as Partial<ParityBaseline> | null;
  if (typeof b !== 'object' || b === null) return ['not a JSON object'];
  if (b.version !== 1) problems.push(`"version" must be 1, got ${JSON.stringify(b.version)}`);
  if (typeof b.languages !== 'object' || b.languages === null) return [...problems, '"languages" must be an object'];
  for (const [language, entry] of Object.entries(b.languages)) {
    const cov = (entry as { coverage?: unknown } | null)?.coverage;
    if (typeof cov !== 'number' || !(cov > 0 && cov <= 1)) problems.push(`languages.${language}.coverage must be in (0, 1], got ${JSON.stringify(cov)}`);
    if (typeof (entry as { corpus?: unknown } | null)?.corpus !== 'string') problems.push(`languages.${language}.corpus must be a string`);
  }
  return problems;
}

/** One language's measured coverage, or why it could not be measured. */
export interface ParityMeasurement {
  language: string;
  corpus: string;
  coverage: number | null;
  error?: string;
}

/** The verdict on one language. */
export interface ParityVerdict {
  language: string;
  corpus: string;
  /** Measured coverage; 0 when it could not be measured. */
  coverage: number;
  baseline: number | null;
  /** coverage − baseline (null without a baseline). */
  delta: number | null;
  /** ok: within epsilon of (or above) the baseline; below: fails; unmeasured: baselined but not measured (fails); new: no baseline yet. */
  status: 'ok' | 'below' | 'unmeasured' | 'new';
  reason?: string;
}

/**
 * Compares measurements with the baseline. Every baselined language in `languages` (default: every
 * baselined language) must be measured and reach baseline − epsilon; one not measured counts as 0.
 */
export function compareWithBaseline(
  measured: readonly ParityMeasurement[],
  baseline: ParityBaseline,
  epsilon: number,
  languages?: readonly string[],
): { pass: boolean; verdicts: ParityVerdict[] } {
  const byLanguage = new Map(measured.map((m) => [m.language, m]));
  const wanted = languages ?? [...new Set([...Object.keys(baseline.languages), ...measured.map((m) => m.language)])];
  const verdicts: ParityVerdict[] = [];
  for (const language of wanted) {
    const m = byLanguage.get(language);
    const floor = baseline.languages[language];
    const corpus = m?.corpus ?? floor?.corpus ?? '';
    if (!floor) {
      verdicts.push({ language, corpus, coverage: m?.coverage ?? 0, baseline: null, delta: null, status: 'new', reason: 'no baseline yet (add it with --update)' });
      continue;
    }
    if (m === undefined || m.coverage === null) {
      const reason = m?.error ?? 'not measured';
      verdicts.push({ language, corpus, coverage: 0, baseline: floor.coverage, delta: -floor.coverage, status: 'unmeasured', reason });
      continue;
    }
    const delta = m.coverage - floor.coverage;
    // A tiny tolerance keeps a measurement exactly at the edge from failing on float noise.
    const ok = delta >= -epsilon - 1e-12;
    verdicts.push({
      language,
      corpus,
      coverage: m.coverage,
      baseline: floor.coverage,
      delta,
      status: ok ? 'ok' : 'below',
      ...(ok ? {} : { reason: `${m.coverage.toFixed(4)} is below ${floor.coverage.toFixed(4)} − ${epsilon}` }),
    });
  }
  return { pass: verdicts.every((v) => v.status === 'ok' || v.status === 'new'), verdicts };
}

/**
 * A new baseline: `previous` with every successfully measured language replaced (rounded down to
 * four places, as people read the file too, and down so the floor never exceeds the measurement),
 * so a `--lang` run only moves its own languages.
 */
export function updatedBaseline(previous: ParityBaseline | null, measured: readonly ParityMeasurement[]): ParityBaseline {
  const languages: ParityBaseline['languages'] = { ...(previous?.languages ?? {}) };
  for (const m of measured) {
    if (m.coverage !== null && m.coverage > 0) languages[m.language] = { corpus: m.corpus, coverage: Math.floor(m.coverage * 10_000) / 10_000 };
  }
  return {
    version: 1,
    metric: previous?.metric ?? 'resolved cross-file coverage: covered symbol files / symbol files, per language',
    languages,
  };
}
