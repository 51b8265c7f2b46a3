/** Finding things: symbols, text, files, declarations. */
import { z } from 'zod';
import { engineTool } from './common';
import { rerankByFeedback } from './feedback-board';
import { repoNameOf, ToolInputError } from './registry';
import { expandedSearch } from './expand';
import { atRevision } from './revision';

/**
 * A `search_symbols` answer without each hit's `signals`: the score breakdown explains the ranking
 * to a person tuning it, but costs an agent about 35 tokens per hit and changes none of its moves.
 */
function withoutSignals(answer: unknown): unknown {
  const result = answer as { results?: unknown[] } | null;
  if (result === null || typeof result !== 'object' || !Array.isArray(result.results)) return answer;
  return {
    ...result,
    results: result.results.map((row) => {
      if (row === null || typeof row !== 'object' || !('signals' in row)) return row;
      const { signals: _signals, ...rest } = row as Record<string, unknown>;
      return rest;
    }),
  };
}

/** The search family (descriptions and arguments come from the engine's generated schemas). */
export const searchTools = [
  engineTool('search_symbols', 'nav', {
    note: 'Symbols agents rated with feedback move up or down.',
    input: {
      explain: z.boolean().optional().describe("Keep each hit's score breakdown (signals); off by default to save tokens"),
      expand: z.boolean().optional().describe('Also search the words the configured model says code uses for the query (synonyms, domain terms); their hits follow, marked via'),
      vocab_anchored: z.boolean().optional().describe("Expand as expand does, keeping only the model's words this repository's symbol names use"),
      ref: z
        .string()
        .optional()
        .describe('Search the repository as it was at this git revision (branch, tag or commit id): its tracked files are indexed once, apart from the live index'),
    },
    handler: async (ctx, args) => {
      const { explain, ref, expand, vocab_anchored: anchored, ...query } = args as { explain?: boolean; ref?: string; expand?: boolean; vocab_anchored?: boolean } & Record<string, unknown>;
      const revision = ref !== undefined ? await atRevision(ctx, ref) : undefined;
      const engine = revision?.engine ?? ctx.engine;
      const repo = revision?.repo ?? ctx.repo;
      const run = (text: string, limit?: number): Record<string, unknown> =>
        engine.query('search_symbols', { ...query, query: text, ...(limit !== undefined ? { limit } : {}) }, { repo }) as unknown as Record<string, unknown>;
      let answer: unknown =
        expand === true || anchored === true ? await expandedSearch(ctx, query, anchored === true, run) : run(String(query.query ?? ''));
      // Feedback rates the live index's symbols; a past revision's answer is left as it ranked.
      if (!revision) answer = rerankByFeedback(repoNameOf(ctx), answer);
      const shaped = (explain === true ? answer : withoutSignals(answer)) as Record<string, unknown>;
      return revision ? { ...shaped, ref, commit: revision.commit } : shaped;
    },
  }),
  engineTool('winnow_symbols', 'nav'),
  engineTool('search_text', 'nav'),
  engineTool('find_files', 'nav'),
  engineTool('find_declaration', 'nav'),
  engineTool('search_ast', 'nav', {
    input: { query: z.string().optional().describe('The pattern, as the compact search tool passes it (same as pattern)') },
    handler: (ctx, args) => {
      const { query, ...rest } = args as { query?: string; pattern?: string };
      if (query !== undefined && rest.pattern !== undefined && rest.pattern !== query) throw new ToolInputError('invalid_argument', 'pass the pattern once: as pattern or as query');
      return ctx.engine.query('search_ast', query !== undefined ? { ...rest, pattern: query } : rest, { repo: ctx.repo });
    },
  }),
];
