/**
 * The orientation report (`gortex://report`): one page on the session's repository — size,
 * languages, kinds, provenance, the health score, and the top of each rollup with the resource
 * that lists it in full. Resource-only: no tool answers it, and each part is the engine analysis
 * the linked resource or tool answers in full.
 */
import type { HealthMeasures } from '../../engine/engine';
import { communityList, godNodes, todoCounts, topProcesses } from '../../tools/rollups';
import type { ToolContext } from '../../workspace/context';
import { iso, URI_SCHEME } from './resource';

/** Counts as rows, largest first (ties by name). */
function ranked(counts: Record<string, number>, key: string): Record<string, string | number>[] {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => ({ [key]: k, count: n }));
}

/** The report on `ctx`'s repository. */
export function report(ctx: ToolContext): unknown {
  const stats = ctx.engine.stats(ctx.repo);
  const status = ctx.engine.status(ctx.root, { name: stats.name });
  const todos = todoCounts(ctx);
  const hot = godNodes(ctx, 5);
  const flows = topProcesses(ctx, 5);
  const communities = communityList(ctx, 5);
  // The health score already ran dead code and cycles: read their counts from its components.
  const health = ctx.engine.analyze('health_score', {}, { repo: ctx.repo });
  const measure = <N extends keyof HealthMeasures>(name: N): HealthMeasures[N] =>
    health.components.find((c) => c.name === name)!.measure as HealthMeasures[N];
  const dead = measure('dead_code');
  const cycles = measure('cycles');
  return {
    repo: stats.name,
    root: stats.root,
    indexed_at: iso(stats.indexed_at_ms),
    size: { files: stats.files, nodes: stats.nodes, edges: stats.edges, unresolved: stats.unresolved },
    languages: Object.entries(status.languages)
      .sort((a, b) => b[1].files - a[1].files || (a[0] < b[0] ? -1 : 1))
      .map(([language, c]) => ({ language, files: c.files, bytes: c.bytes })),
    node_kinds: ranked(stats.nodes_by_kind, 'kind'),
    edge_kinds: ranked(stats.edges_by_kind, 'kind'),
    provenance: stats.edges_by_origin,
    health: { score: health.score, grade: health.grade, components: Object.fromEntries(health.components.map((c) => [c.name, c.score])) },
    hotspots: { top: hot.hotspots.map((h) => ({ ...h.node, score: h.score })), see: `${URI_SCHEME}god-nodes` },
    communities: {
      count: communities.count,
      modularity: communities.modularity,
      largest: communities.communities.map((c) => ({ id: c.id, label: c.label, size: c.size })),
      see: `${URI_SCHEME}communities`,
    },
    processes: {
      total: flows.total,
      top: flows.processes.map((p) => ({ id: p.id, name: p.name, path: p.entry.file_path, steps: p.steps })),
      see: `${URI_SCHEME}processes`,
    },
    dead_code: {
      total: dead.dead_high_confidence + dead.dead_medium_confidence,
      by_confidence: { high: dead.dead_high_confidence, medium: dead.dead_medium_confidence },
      see: `${URI_SCHEME}surprises`,
    },
    cycles: {
      total: cycles.import_cycles + cycles.call_cycles,
      by_kind: { imports: cycles.import_cycles, calls: cycles.call_cycles },
      see: `${URI_SCHEME}surprises`,
    },
    todos: { ...todos, see: `${URI_SCHEME}questions` },
  };
}
