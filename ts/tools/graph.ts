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
      "Node and edge counts by kind, provenance tier and language, unresolved references, search-index memory, edge_identity_revisions (edges whose provenance tier changed while their identity stayed: re-resolved after a dependency changed, or corrected by a language server), per-repository sizes in a workspace of several, and token savings: this session's and the lifetime ledger's tokens returned against what plain file reads would have cost.",
    input: {},
    handler: (ctx) => {
      const lifetime = lifetimeSavings();
      const members = ctx.workspace?.repos() ?? [];
      return {
        ...ctx.engine.stats(ctx.repo),
        ...(members.length > 1 ? { repos: members.map((r) => ({ name: r.name, phase: r.phase, files: r.files, nodes: r.nodes, edges: r.edges })) } : {}),
        token_savings: { ...(ctx.session?.store ? { session: sessionSavings(ctx.session.store) } : {}), ...(lifetime ? { lifetime } : {}) },
      };
    },
  }),
];
