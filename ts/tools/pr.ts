/**
 * The pull-request family: `suggest_reviewers` — who should review a changeset, from CODEOWNERS,
 * git authorship and co-change (answered by the engine over the mined history). The changeset is
 * named directly (`symbols`, `paths`) or read from git (`base`: the working tree against a commit,
 * as `detect_changes` maps it onto declarations; `staged`: the index instead).
 */
import { z } from 'zod';
import { engineTool } from './common';
import { detectChanges } from './changes';
import type { ToolContext } from '../workspace/context';

/** Changed files and the declarations they added or modified, from `detect_changes`. */
async function changesetFromGit(ctx: ToolContext, base: string | undefined, staged: boolean | undefined): Promise<{ paths: string[]; symbols: string[] }> {
  const changes = await detectChanges(ctx, { base, staged });
  const files = changes.files as { path: string; status: string; symbols?: { id: string; change: string }[] }[];
  return {
    paths: files.filter((f) => f.status !== 'deleted').map((f) => f.path),
    symbols: files.flatMap((f) => (f.symbols ?? []).filter((s) => s.change !== 'deleted').map((s) => s.id)),
  };
}

/** The PR family. */
export const prTools = [
  engineTool('suggest_reviewers', 'pr', {
    input: {
      base: z.string().optional().describe('Read the changeset from git: the working tree (or, with staged, the index) against this commit, branch or tag'),
      staged: z.boolean().optional().describe('With base: the staged changes instead of the working tree'),
    },
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
];
