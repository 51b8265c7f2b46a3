/**
 * `context_closure`: the code a set of seeds depends on, packed under one token budget. From each
 * seed (a symbol, or a file standing for its declarations) it walks what the code uses — calls,
 * references, instantiations, base types, parameter and return types — breadth first up to
 * `depth`, and lists the files the closure spans. Rows are ranked by graph distance
 * from the nearest seed (ties: most used first) or, with `rank: "proximity"`, by a random walk
 * that restarts at the seeds (personalised PageRank over the closure); then the budget cuts
 * sources from the bottom, then rows, as the other bundle tools do.
 */
import { z } from 'zod';
import type { NodeJson, NodeSummary } from '../engine/engine';
import type { ToolContext } from '../workspace/context';
import { BUNDLE_BUDGET } from './context-smart-bundle';
import { ContextReader, estimateTokens, rowError, type RowError } from './context-common';
import { packRows, symbolRow, withTokens, type PackCut, type SymbolRow } from './context-smart-pack';
import { defineTool, repoNameOf, ToolInputError } from './registry';

/** Edges through which code depends on other code. */
const USES = ['calls', 'references', 'instantiates', 'extends', 'implements', 'typed_as', 'returns'];
/** Most symbols the closure holds before it stops growing (and says so). */
const MAX_CLOSURE = 2000;
/** Random-walk restart probability and iterations for `proximity`. */
const RESTART = 0.15;
const ITERATIONS = 40;

/** One symbol of the closure: how far from a seed, reached from what. */
interface Reached {
  id: string;
  depth: number;
  via?: string;
  fanIn: number;
}

/** The closure of `seeds` up to `depth`, the files it spans (nearest depth each) and the edges inside it. */
function closureOf(ctx: ToolContext, seeds: readonly string[], depth: number, includeTests: boolean): { reached: Map<string, Reached>; files: Map<string, number>; edges: [string, string][]; full: boolean } {
  const reached = new Map<string, Reached>();
  const files = new Map<string, number>();
  const edges: [string, string][] = [];
  let frontier = [...seeds];
  for (const id of seeds) {
    reached.set(id, { id, depth: 0, fanIn: 0 });
    const path = ctx.engine.getNode(ctx.repo, id)?.path;
    if (path) files.set(path, 0);
  }
  let full = false;
  for (let d = 1; d <= depth && frontier.length > 0 && !full; d++) {
    const next: string[] = [];
    for (const from of frontier) {
      for (const e of ctx.engine.edges(ctx.repo, from, { direction: 'out', kinds: USES })) {
        const to = ctx.engine.getNode(ctx.repo, e.to) as NodeJson | null;
        if (!to || !to.path || to.kind === 'file' || to.id.startsWith('external::')) continue;
        if (!includeTests && (to.is_test || ctx.engine.getNode(ctx.repo, `${to.id.slice(0, to.id.indexOf('::'))}`)?.is_test)) continue;
        edges.push([from, to.id]);
        const seen = reached.get(to.id);
        if (seen) {
          seen.fanIn++;
          continue;
        }
        if (reached.size >= MAX_CLOSURE) {
          full = true;
          break;
        }
        reached.set(to.id, { id: to.id, depth: d, via: from, fanIn: 1 });
        if (!files.has(to.path) || files.get(to.path)! > d) files.set(to.path, d);
        next.push(to.id);
      }
      if (full) break;
    }
    frontier = next;
  }
  return { reached, files, edges, full };
}

/** Personalised PageRank over the closure's edges, restarting at the seeds: id → score. */
function proximity(ids: readonly string[], seeds: readonly string[], edges: readonly [string, string][]): Map<string, number> {
  const out = new Map<string, string[]>();
  for (const [a, b] of edges) out.set(a, [...(out.get(a) ?? []), b]);
  const restart = new Map(seeds.map((s) => [s, 1 / seeds.length]));
  let score = new Map(ids.map((id) => [id, restart.get(id) ?? 0]));
  for (let i = 0; i < ITERATIONS; i++) {
    const next = new Map(ids.map((id) => [id, RESTART * (restart.get(id) ?? 0)]));
    for (const id of ids) {
      const s = score.get(id) ?? 0;
      const targets = out.get(id);
      // A node that uses nothing hands its walk back to the seeds.
      const spread = targets && targets.length > 0 ? targets : seeds;
      for (const t of spread) next.set(t, (next.get(t) ?? 0) + ((1 - RESTART) * s) / spread.length);
    }
    score = next;
  }
  return score;
}

/** Seeds given as ids, names or file paths: the symbols they name, and errors for what names nothing. */
function resolveSeeds(reader: ContextReader, seeds: readonly string[], includeTests: boolean): { ids: string[]; errors: (RowError & { seed: string })[] } {
  const ids: string[] = [];
  const errors: (RowError & { seed: string })[] = [];
  for (const seed of seeds) {
    const file = reader.fileNode(seed.replace(/^\.\//, ''));
    if (file) {
      const decls = reader.fileSymbols(file.path).filter((s) => s.kind !== 'file' && s.kind !== 'import' && (includeTests || !s.is_test) && !s.qualified.includes('.'));
      if (decls.length === 0) errors.push({ seed, code: 'not_found', message: `${file.path} declares nothing to start from` });
      for (const s of decls) if (!ids.includes(s.id)) ids.push(s.id);
      continue;
    }
    try {
      const s = reader.symbol(seed).node;
      if (!ids.includes(s.id)) ids.push(s.id);
    } catch (error) {
      errors.push({ seed, ...rowError(error) });
    }
  }
  return { ids, errors };
}

/** `context_closure`. */
function contextClosure(ctx: ToolContext, args: { seeds: string[]; depth?: number | undefined; token_budget?: number | undefined; rank?: 'distance' | 'proximity' | undefined; include_tests?: boolean | undefined }): unknown {
  const reader = new ContextReader(ctx);
  const includeTests = args.include_tests === true;
  const { ids, errors } = resolveSeeds(reader, args.seeds, includeTests);
  if (ids.length === 0) throw new ToolInputError('not_found', `no seed names a symbol or an indexed file: ${errors.map((e) => `${e.seed} (${e.message})`).join('; ')}`);
  const depth = args.depth ?? 3;
  const { reached, files, edges, full } = closureOf(ctx, ids, depth, includeTests);
  const rank = args.rank ?? 'distance';
  const all = [...reached.values()];
  if (rank === 'proximity') {
    const score = proximity(all.map((r) => r.id), ids, edges);
    all.sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0) || a.depth - b.depth || a.id.localeCompare(b.id));
  } else {
    all.sort((a, b) => a.depth - b.depth || b.fanIn - a.fanIn || a.id.localeCompare(b.id));
  }
  const nameOf = (id: string): string => (reader.node(id)?.qualified ?? id);
  const rows: SymbolRow[] = [];
  for (const r of all) {
    let n: NodeSummary;
    try {
      n = reader.symbol(r.id).node;
    } catch {
      continue;
    }
    rows.push(symbolRow(reader, n, r.depth === 0 ? 'seed' : `depth ${r.depth}, used by ${nameOf(r.via!)}`, true));
  }
  const budget = args.token_budget ?? BUNDLE_BUDGET.export;
  const build = (cut: PackCut | undefined): Record<string, unknown> & { tokens_used: number } => ({
    repo: repoNameOf(ctx),
    seeds: ids,
    rank,
    depth,
    closure: { symbols: reached.size, files: files.size, ...(full ? { stopped_at: MAX_CLOSURE } : {}) },
    symbols: rows,
    files: [...files.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([path, d]) => ({ path, depth: d })).slice(0, 100),
    ...(errors.length > 0 ? { errors } : {}),
    ...(cut ? { cut } : {}),
    token_budget: budget,
    tokens_used: 0,
  });
  const cut = packRows(rows, budget, () => estimateTokens({ ...build({ sources: 0, rows: 0 }), tokens_used: 99999 }));
  return withTokens(build(cut.sources + cut.rows > 0 ? cut : undefined));
}

/** The closure tool. */
export const closureTools = [
  defineTool({
    name: 'context_closure',
    category: 'read',
    effect: 'read',
    description:
      'The code a set of seeds (symbols, or files standing for their declarations) depends on — calls, references, instantiations, base, parameter and return types, breadth first up to depth, with the files it spans — packed under token_budget: ranked by distance from the nearest seed (most used first), or rank: "proximity" (a random walk restarting at the seeds); sources are cut first, then rows.',
    input: {
      seeds: z.array(z.string().min(1)).min(1).max(50).describe('Symbol ids or names, or repository-relative file paths'),
      depth: z.number().int().min(1).max(6).optional().describe('Dependency hops walked (default 3)'),
      token_budget: z
        .number()
        .int()
        .min(BUNDLE_BUDGET.min)
        .max(BUNDLE_BUDGET.max)
        .optional()
        .describe(`Estimated tokens of the answer, ${BUNDLE_BUDGET.min}–${BUNDLE_BUDGET.max} (default ${BUNDLE_BUDGET.export})`),
      rank: z.enum(['distance', 'proximity']).optional().describe('distance (default): nearest first; proximity: random walk with restart at the seeds'),
      include_tests: z.boolean().optional().describe('Walk into test code too (default false)'),
    },
    handler: (ctx, args) => contextClosure(ctx, args),
  }),
];
