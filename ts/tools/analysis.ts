/**
 * The analysis family: `analyze` (one dispatcher over every whole-repository analysis kind),
 * `flow_between`, `taint_paths`, `find_clones`, `get_communities`, `get_processes` and
 * `explain_change_impact`, `find_co_changing_symbols` (git history). All of them are answered by the Rust engine (`gortex-analysis`,
 * `gortex-dataflow`, `gortex-clones`, `gortex_search::sites`), and described by its generated schemas.
 */
import type { AnalyzeKind } from '../engine/engine';
import { ANALYZE_KIND_SCHEMAS } from '../engine/tool-schemas';
import { ConfigError, loadConfig } from '../config/config';
import type { ToolContext } from '../workspace/context';
import { engineTool } from './common';
import { ToolInputError } from './registry';
import { analyzeReview } from './review';

/** Every `analyze` kind in the engine's order, then the `untested` alias and `kinds`. */
export const ANALYZE_KINDS: readonly AnalyzeKind[] = ANALYZE_KIND_SCHEMAS.map((k) => k.kind);

/** The analysis family. */
export const analysisTools = [
  engineTool('analyze', 'analysis', {
    // The review kind leaves out the repository's durable suppressions (`suppress_finding`).
    // The named kind takes the bundles of the repository's `queries:` (a call's own come after, and win).
    handler: (ctx, args) => {
      if (args.kind === 'review') return analyzeReview(ctx, args);
      if (args.kind === 'named') return ctx.engine.query('analyze', { ...args, queries: [...configQueries(ctx), ...((args.queries as unknown[] | undefined) ?? [])] }, { repo: ctx.repo });
      // The workspace links repositories; the engine sees one graph, so the links travel with the call.
      if (args.kind === 'cross_repo') return ctx.engine.query('analyze', { ...args, links: ctx.workspace?.crossEdges?.() ?? [] }, { repo: ctx.repo });
      return ctx.engine.query('analyze', args, { repo: ctx.repo });
    },
  }),
  engineTool('flow_between', 'analysis'),
  engineTool('taint_paths', 'analysis'),
  engineTool('find_clones', 'analysis'),
  engineTool('get_communities', 'analysis'),
  engineTool('get_processes', 'analysis'),
  engineTool('explain_change_impact', 'analysis'),
  engineTool('find_co_changing_symbols', 'analysis'),
];

/** The `queries:` bundles of the repository's `.gortex.yaml`; a broken file is the caller's error to fix. */
function configQueries(ctx: ToolContext): unknown[] {
  try {
    return loadConfig(ctx.root).queries ?? [];
  } catch (error) {
    if (error instanceof ConfigError) throw new ToolInputError('invalid_argument', error.message);
    throw error;
  }
}
