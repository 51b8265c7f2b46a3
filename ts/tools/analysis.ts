/**
 * The analysis family: `analyze` (one dispatcher over every whole-repository analysis kind),
 * `flow_between`, `taint_paths`, `find_clones`, `get_communities`, `get_processes` and
 * `explain_change_impact`, `find_co_changing_symbols` (git history). All of them are answered by the Rust engine (`gortex-analysis`,
 * `gortex-dataflow`, `gortex-clones`, `gortex_search::sites`), and described by its generated schemas.
 */
import type { AnalyzeKind } from '../engine/engine';
import { ANALYZE_KIND_SCHEMAS } from '../engine/tool-schemas';
import { engineTool } from './common';
import { analyzeReview } from './review';

/** Every `analyze` kind in the engine's order, then the `untested` alias and `kinds`. */
export const ANALYZE_KINDS: readonly AnalyzeKind[] = ANALYZE_KIND_SCHEMAS.map((k) => k.kind);

/** The analysis family. */
export const analysisTools = [
  engineTool('analyze', 'analysis', {
    // The review kind leaves out the repository's durable suppressions (`suppress_finding`).
    handler: (ctx, args) => (args.kind === 'review' ? analyzeReview(ctx, args) : ctx.engine.query('analyze', args, { repo: ctx.repo })),
  }),
  engineTool('flow_between', 'analysis'),
  engineTool('taint_paths', 'analysis'),
  engineTool('find_clones', 'analysis'),
  engineTool('get_communities', 'analysis'),
  engineTool('get_processes', 'analysis'),
  engineTool('explain_change_impact', 'analysis'),
  engineTool('find_co_changing_symbols', 'analysis'),
];
