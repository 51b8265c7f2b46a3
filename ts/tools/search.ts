/** Finding things: symbols, text, files, declarations. */
import { z } from 'zod';
import { engineTool } from './common';
import { rerankByFeedback } from './feedback-board';
import { repoNameOf, ToolInputError } from './registry';

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
    input: { explain: z.boolean().optional().describe("Keep each hit's score breakdown (signals); off by default to save tokens") },
    handler: (ctx, args) => {
      const { explain, ...query } = args;
      const answer = rerankByFeedback(repoNameOf(ctx), ctx.engine.query('search_symbols', query, { repo: ctx.repo }));
      return explain === true ? answer : withoutSignals(answer);
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
