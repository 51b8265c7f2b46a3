/**
 * The `PushSources` of an embedded repository (`gortex mcp --embedded`, `gortex mcp --server`):
 * opened before the session starts, so its readiness is `ready` from the first subscription on,
 * and its rebuilds are the watcher's (and gortex's own writes') re-indexes.
 */
import type { GraphEvent, PushSources } from './channels';
import type { EmbeddedRepo, RepoChange } from './embedded';

/** The `graph_invalidated` event of one re-index of repository `name`. */
export function graphEventOf(name: string, change: RepoChange): GraphEvent {
  return {
    repo: name,
    root: change.root,
    files: change.files,
    files_truncated: change.files_truncated,
    node_count: change.nodes_after,
    edge_count: change.edges_after,
    nodes_before: change.nodes_before,
    edges_before: change.edges_before,
    reason: change.reason,
    ts: change.timestamp,
  };
}

/** Push sources over one open embedded repository. */
export function embeddedPushSources(repo: EmbeddedRepo): PushSources {
  const openedAt = Date.now();
  const facts = (): { repo: string; root: string; nodes: number | null; edges: number | null } => {
    const ctx = repo.peek();
    const last = ctx.lastIndex;
    return { repo: last?.repo ?? ctx.root, root: ctx.root, nodes: last?.nodes.total ?? null, edges: last?.edges.total ?? null };
  };
  return {
    host: 'embedded',
    readiness: () => {
      const { repo: name, root } = facts();
      return [{ repo: name, root, phase: 'ready', ts: openedAt }];
    },
    // Opened before any session could subscribe: there are no later phases to hear.
    onReadiness: () => () => undefined,
    onGraph: (listener) => repo.onReindexed((change) => listener(graphEventOf(change.report.repo, change))),
    repositories: () => [{ ...facts(), phase: 'ready' }],
  };
}
