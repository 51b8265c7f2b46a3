/** Finding things: symbols, text, files, declarations. */
import { z } from 'zod';
import { engineTool, includeTests, limit } from './common';
import { rerankByFeedback } from './feedback-board';
import { defined, defineTool, repoNameOf } from './registry';

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

/** The search family. */
export const searchTools = [
  defineTool({
    name: 'search_symbols',
    category: 'nav',
    effect: 'read',
    description:
      'Find symbols by name, Owner.name, words or description (camelCase/snake_case aware, typo tolerant, ranked with graph signals). Inline clauses: kind:function flavor:class lang:go path:src/. Use instead of grep for code. Symbols agents rated with feedback move up or down.',
    input: {
      query: z.string().describe('Name, Owner.name or words; may hold kind:/flavor:/lang:/path: clauses'),
      limit,
      max_per_file: z.number().int().optional().describe('At most this many results from one file'),
      kind: z.string().optional().describe('Only these node kinds (comma list)'),
      flavor: z.string().optional().describe('Only these type flavors: class, struct, enum, record, type_alias, …'),
      lang: z.string().optional().describe('Only these languages (comma list)'),
      path: z.string().optional().describe('Only symbols under this path prefix'),
      scope: z.array(z.string()).optional().describe('Only symbols under any of these path prefixes'),
      include_tests: includeTests,
      corpus: z
        .enum(['code', 'docs', 'all'])
        .optional()
        .describe('code (default): everything but Markdown sections; docs: only Markdown sections; all. An explicit kind filter overrides it'),
      read_as: z
        .enum(['auto', 'names', 'sentence'])
        .optional()
        .describe('auto (default): 4+ words that are not an identifier read as a sentence describing behaviour, matched mostly against doc comments; names; sentence'),
      explain: z.boolean().optional().describe("Keep each hit's score breakdown (signals); off by default to save tokens"),
    },
    handler: (ctx, args) => {
      const { explain, ...query } = defined(args as Record<string, unknown>);
      const answer = rerankByFeedback(repoNameOf(ctx), ctx.engine.query('search_symbols', query, { repo: ctx.repo }));
      return explain === true ? answer : withoutSignals(answer);
    },
  }),
  engineTool(
    'winnow_symbols',
    'nav',
    'Structured retrieval by constraints (kind, language, path prefix, minimum fan-in/fan-out, text, exported) with per-axis score contributions.',
    {
      kind: z.string().optional(),
      lang: z.string().optional(),
      path_prefix: z.string().optional(),
      min_fan_in: z.number().int().optional(),
      min_fan_out: z.number().int().optional(),
      text_match: z.string().optional(),
      exported: z.boolean().optional(),
      include_tests: includeTests,
      limit,
    },
  ),
  engineTool(
    'search_text',
    'nav',
    'Trigram-indexed literal (or regexp: true) text search; each hit carries path, line, column, the line and its enclosing symbol.',
    {
      query: z.string().describe('The literal text, or a regex with regexp: true'),
      regexp: z.boolean().optional(),
      case_sensitive: z.boolean().optional().describe('Default true'),
      path: z.string().optional().describe('A glob (src/**/*.ts) or a path prefix (src/)'),
      limit,
      context_chars: z.number().int().optional().describe('Characters kept on each side of the match'),
    },
  ),
  engineTool(
    'find_files',
    'nav',
    'Find files by name or path (exact > prefix > substring), glob (ts/**/*.test.ts) or fuzzy subsequence.',
    {
      query: z.string().optional(),
      glob: z.string().optional(),
      fuzzy: z.boolean().optional(),
      path: z.string().optional().describe('Only files under this prefix'),
      limit,
    },
  ),
  engineTool(
    'find_declaration',
    'nav',
    'Use-site text (fooBar( or .save() or regex: true) → the declarations it refers to, with the matching use locations and their tiers.',
    {
      query: z.string(),
      regex: z.boolean().optional(),
      path_prefix: z.string().optional(),
      kind: z.string().optional(),
      limit,
    },
  ),
];
