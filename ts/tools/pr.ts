/**
 * The pull-request family, answered by the engine: `suggest_reviewers` — who should review a
 * changeset, from CODEOWNERS, git authorship and co-change — and `pr_risk` — five risk axes into
 * one score and a review order. The changeset is named directly or read from git (`base`: the
 * working tree against a commit, as `detect_changes` maps it onto declarations; `staged`: the
 * index instead).
 */
import { z } from 'zod';
import { engineTool } from './common';
import { detectChanges } from './changes';
import type { ToolContext } from '../workspace/context';

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

/** The PR family. */
export const prTools = [
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
