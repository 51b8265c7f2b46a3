/** Free-form graph exploration, path finding and graph facts. */
import { z } from 'zod';
import { engineTool, limit, minTier, oneOrMany, target } from './common';
import { defineTool } from './registry';

/** The graph family. */
export const graphTools = [
  engineTool(
    'walk_graph',
    'nav',
    'Token-budgeted traversal from a symbol over chosen edge kinds (out, in or both); reports budget_hit and stopped_at_depth.',
    {
      id: target,
      edge_kinds: oneOrMany.optional(),
      direction: z.enum(['out', 'in', 'both']).optional(),
      max_depth: z.number().int().optional(),
      token_budget: z.number().int().optional(),
      limit,
      min_tier: minTier,
    },
  ),
  engineTool(
    'graph_query',
    'nav',
    'Read-only graph DSL, stages joined by |: nodes kind=interface name~Handler | traverse implements in | filter path=src/ (sort, limit; five stages at most).',
    { query: z.string(), limit },
  ),
  engineTool(
    'trace_path',
    'nav',
    'Shortest call paths from one symbol to another with per-hop confidence, or a diagnosis of why there is none.',
    {
      from: target,
      to: target,
      max_depth: z.number().int().optional(),
      limit,
      edge_kinds: oneOrMany.optional(),
      min_tier: minTier,
    },
  ),
  engineTool('find_import_path', 'nav', 'Shortest import chain between two files (paths, file ids, or symbols standing for their files).', {
    from: z.string(),
    to: z.string(),
    max_depth: z.number().int().optional(),
  }),
  defineTool({
    name: 'graph_stats',
    category: 'admin',
    effect: 'read',
    description: 'Node and edge counts by kind and provenance tier, unresolved references, search-index memory.',
    input: {},
    handler: (ctx) => ctx.engine.stats(ctx.repo),
  }),
];
