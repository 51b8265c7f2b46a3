/**
 * The pull-request family, answered by the engine: `suggest_reviewers` — who should review a
 * changeset, from CODEOWNERS, git authorship and co-change — and `pr_risk` — five risk axes into
 * one score and a review order. The changeset is named directly or read from git (`base`: the
 * working tree against a commit, as `detect_changes` maps it onto declarations; `staged`: the
 * index instead).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { engineTool } from './common';
import { detectChanges } from './changes';
import { defineTool, ToolInputError } from './registry';
import { gitInfo } from '../support/git';
import type { ToolContext } from '../workspace/context';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** A pull request's changed file as forges list it (GitHub's `filename`/`patch`, or `path`). */
export interface PrFile {
  path?: string | undefined;
  filename?: string | undefined;
  previous_filename?: string | undefined;
  status?: string | undefined;
  patch?: string | undefined;
}

/** Node kinds that are not declarations `explain_change_impact` can start from. */
const NON_CODE_KINDS: ReadonlySet<string> = new Set(['doc', 'import', 'module', 'stage', 'script']);

/** Inclusive new-side line ranges of a unified patch's hunks. */
export function patchRanges(patch: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of patch.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    out.push(count > 0 ? [start, start + count - 1] : [Math.max(1, start), start + 1]);
  }
  return out;
}

/** The graph's symbols (and bare files) a PR's files change: symbols whose lines a hunk touches, or every symbol of a file given without a patch. */
export function symbolsOfPrFiles(ctx: ToolContext, files: readonly PrFile[]): { ids: string[]; paths: string[]; unknown: string[] } {
  const ids = new Set<string>();
  const paths: string[] = [];
  const unknown: string[] = [];
  for (const f of files) {
    const p = f.path ?? f.filename;
    if (!p) throw new ToolInputError('invalid_argument', 'each of files needs path (or filename, as GitHub lists it)');
    if (f.status === 'removed' || f.status === 'deleted') continue;
    paths.push(p);
    let symbols: Json[];
    try {
      symbols = ctx.engine.fileSymbols(ctx.repo, p) as Json[];
    } catch {
      // Not in this checkout's index (a file the PR adds, or one the index leaves out): nothing to map.
      symbols = [];
    }
    if (symbols.length === 0) {
      unknown.push(p);
      continue;
    }
    const ranges = f.patch ? patchRanges(f.patch) : [];
    // Only declarations seed the impact walk: a doc section, an import or a CI stage is no code to walk from.
    const hit = symbols.filter((s) => !NON_CODE_KINDS.has(s.kind) && (ranges.length === 0 || ranges.some(([a, b]) => s.start_line <= b && s.end_line >= a)));
    // A hunk in module-level code touches no declaration: the file stands for itself.
    if (hit.length === 0) ids.add(p);
    for (const s of hit) ids.add(s.id);
  }
  return { ids: [...ids], paths, unknown };
}

/** Changed files and the declarations they added or modified, from `detect_changes`. */
async function changesetFromGit(
  ctx: ToolContext,
  base: string | undefined,
  staged: boolean | undefined,
): Promise<{ paths: string[]; symbols: string[]; bareFiles: string[] }> {
  const changes = await detectChanges(ctx, { base, staged });
  const files = (changes.files as { path: string; status: string; symbols?: { id: string; change: string }[] }[]).filter((f) => f.status !== 'deleted');
  const symbolsOf = (f: (typeof files)[number]): string[] => (f.symbols ?? []).filter((s) => s.change !== 'deleted').map((s) => s.id);
  return {
    paths: files.map((f) => f.path),
    symbols: files.flatMap(symbolsOf),
    // Files whose change touched no declaration (module code, config): they stand for themselves.
    bareFiles: files.filter((f) => symbolsOf(f).length === 0).map((f) => f.path),
  };
}

/** The `base` / `staged` arguments both tools take. */
const fromGit = {
  base: z.string().optional().describe('Read the changeset from git: the working tree (or, with staged, the index) against this commit, branch or tag'),
  staged: z.boolean().optional().describe('With base: the staged changes instead of the working tree'),
};

/** The changed symbols of a PR given as files, or read from git. */
async function prChangeset(ctx: ToolContext, args: Json): Promise<{ ids: string[]; paths: string[]; unknown: string[] }> {
  if (args.files !== undefined) {
    if (args.base !== undefined || args.staged) throw new ToolInputError('invalid_argument', 'pass files (the PR\'s changed files) or base/staged, not both');
    return symbolsOfPrFiles(ctx, args.files as PrFile[]);
  }
  const found = await changesetFromGit(ctx, args.base, args.staged);
  return { ids: [...found.symbols, ...found.bareFiles], paths: found.paths, unknown: [] };
}

/** A privacy-safe receipt of an impact or review: counts, levels and hashes — no path, name or code. */
export async function receiptOf(ctx: ToolContext, fields: { paths: readonly string[]; symbols: number; score?: number; level?: string; verdict?: string; findings?: number }): Promise<Record<string, unknown>> {
  const info = await gitInfo(ctx.root);
  const digest = createHash('sha256').update([...fields.paths].sort().join('\n')).digest('hex');
  return {
    version: 1,
    generated_at: new Date().toISOString(),
    ...(info.head ? { head: info.head } : {}),
    changed_files: fields.paths.length,
    changed_files_sha256: digest,
    symbols: fields.symbols,
    ...(fields.score !== undefined ? { risk_score: fields.score, risk_level: fields.level } : {}),
    ...(fields.verdict !== undefined ? { verdict: fields.verdict, findings: fields.findings ?? 0 } : {}),
  };
}

/** `get_pr_impact`: the PR's changed symbols, their risk and the surface they reach. */
export async function prImpact(ctx: ToolContext, args: Json): Promise<Json> {
  const changeset = await prChangeset(ctx, args);
  if (changeset.ids.length === 0) {
    return { risk: { score: 0, level: 'LOW', axes: [], review_priorities: [] }, changed: { files: changeset.paths.length, symbols: 0 }, affected: null, unknown: changeset.unknown, note: 'no changed code the graph knows' };
  }
  const risk = ctx.engine.query('pr_risk', { ids: changeset.ids }, { repo: ctx.repo }) as Json;
  const seeds = changeset.ids.filter((id) => id.includes('::')).slice(0, 50);
  let affected: Json = null;
  if (seeds.length > 0) {
    const impact = ctx.engine.query('explain_change_impact', { ids: seeds, limit: 1000 }, { repo: ctx.repo }) as Json;
    const byFile = new Map<string, number>();
    for (const level of impact.levels as Json[]) for (const d of level.dependents as Json[]) if (d.node?.path) byFile.set(d.node.path, (byFile.get(d.node.path) ?? 0) + 1);
    affected = {
      dependents: impact.total,
      caller_files: [...byFile.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 50).map(([path, n]) => ({ path, dependents: n })),
      test_files: impact.affected_test_files,
      processes: (impact.affected_processes as Json[]).map((p) => p.name ?? p.id),
      communities_touched: impact.communities_touched ?? null,
      risk_tier: impact.risk,
      truncated: impact.truncated,
    };
  }
  return {
    risk,
    changed: { files: changeset.paths.length, symbols: risk.symbols },
    affected,
    ...(changeset.unknown.length > 0 ? { unknown: changeset.unknown } : {}),
    ...(args.receipt ? { receipt: await receiptOf(ctx, { paths: changeset.paths, symbols: risk.symbols, score: risk.score, level: risk.level }) } : {}),
  };
}

/** The pull-request file list tools take as caller-supplied PR data. */
export const prFilesInput = z
  .array(
    z.object({
      path: z.string().optional(),
      filename: z.string().optional(),
      previous_filename: z.string().optional(),
      status: z.string().optional(),
      patch: z.string().optional(),
    }),
  )
  .max(3000)
  .optional()
  .describe('The PR\'s changed files as the forge lists them (path or filename, status, patch): no git or network needed');

/** The PR family. */
export const prTools = [
  defineTool({
    name: 'get_pr_impact',
    category: 'pr',
    effect: 'read',
    description:
      'Graph-joined blast radius and risk of one PR: its changed files mapped to symbols (by the patch hunks), the five pr_risk axes and level, and the affected surface — dependents by caller file, test files, processes, communities touched. receipt: true adds a privacy-safe receipt (counts and hashes only).',
    input: {
      files: prFilesInput,
      ...fromGit,
      receipt: z.boolean().optional().describe('Add a privacy-safe receipt: counts, levels, a hash of the file list — no paths or code'),
    },
    handler: (ctx, args) => prImpact(ctx, args),
  }),
  engineTool('suggest_reviewers', 'pr', {
    input: fromGit,
    note: 'Pass the changeset as symbols/paths, or base (a git ref) to read it from the diff.',
    handler: async (ctx, args) => {
      const { base, staged, ...rest } = args as { base?: string; staged?: boolean; symbols?: string[]; paths?: string[] };
      const query = { ...rest };
      if (base !== undefined || staged) {
        const found = await changesetFromGit(ctx, base, staged);
        query.paths = [...(rest.paths ?? []), ...found.paths];
        query.symbols = [...(rest.symbols ?? []), ...found.symbols];
        if (query.paths.length === 0 && query.symbols.length === 0) {
          return { reviewers: [], total: 0, files: 0, symbols: 0, note: `nothing changed against ${base ?? 'HEAD'}` };
        }
      }
      return ctx.engine.query('suggest_reviewers', query, { repo: ctx.repo });
    },
  }),
  engineTool('pr_risk', 'pr', {
    input: fromGit,
    note: 'Pass the changeset as ids, or base (a git ref) to read it from the diff.',
    handler: async (ctx, args) => {
      const { base, staged, ...rest } = args as { base?: string; staged?: boolean; ids?: string[] };
      const ids = [...(rest.ids ?? [])];
      if (base !== undefined || staged) {
        const found = await changesetFromGit(ctx, base, staged);
        ids.push(...found.symbols, ...found.bareFiles);
        if (ids.length === 0) return { score: 0, level: 'LOW', axes: [], review_priorities: [], symbols: 0, note: `nothing changed against ${base ?? 'HEAD'}` };
      }
      return ctx.engine.query('pr_risk', { ...rest, ids }, { repo: ctx.repo });
    },
  }),
];
