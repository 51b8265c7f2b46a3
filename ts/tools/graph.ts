/** Free-form graph exploration, path finding and graph facts. */
import { engineTool } from './common';
import { defineTool } from './registry';
import { lifetimeSavings, sessionSavings } from './savings';

/** The graph family (the engine's tools take their descriptions and arguments from its generated schemas). */
export const graphTools = [
  engineTool('walk_graph', 'nav'),
  engineTool('graph_query', 'nav'),
  engineTool('trace_path', 'nav'),
  engineTool('find_import_path', 'nav'),
  defineTool({
    name: 'graph_stats',
    category: 'admin',
    effect: 'read',
    description:
      "Node and edge counts by kind and provenance tier, unresolved references, search-index memory, and token savings: this session's and the lifetime ledger's tokens returned against what plain file reads would have cost.",
    input: {},
    handler: (ctx) => {
      const lifetime = lifetimeSavings();
      return {
        ...ctx.engine.stats(ctx.repo),
        token_savings: { ...(ctx.session?.store ? { session: sessionSavings(ctx.session.store) } : {}), ...(lifetime ? { lifetime } : {}) },
      };
    },
  }),
];
