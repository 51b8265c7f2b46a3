/** The daemon's `Workspace`: every tracked repository, with a change log fed by all watchers. */
import { ChangeLog, ScopeStore, scopesFile, type Workspace, type WorkspaceRepo } from '../tools/workspace';
import { ToolInputError } from '../tools/registry';
import { linkRepos, type CrossEdge } from './cross-repo';
import type { RepoSet, TrackedRepo } from './repos';

/** A `WorkspaceRepo` row of a tracked repository. */
function rowOf(tracked: TrackedRepo): WorkspaceRepo {
  const info = tracked.info();
  return { name: info.name, root: info.root, project: info.project ?? null, phase: info.phase, files: info.files, nodes: info.nodes, edges: info.edges };
}

/** The workspace over a daemon's repositories (one per daemon, shared by its sessions). */
export function daemonWorkspace(repos: RepoSet, home: string): Workspace {
  const changes = new ChangeLog();
  repos.onChange((tracked, change) => changes.add(tracked.entry.name, change.files, change.timestamp));
  const find = (nameOrRoot: string): TrackedRepo => {
    const found = repos.find(nameOrRoot);
    if (!found) throw new ToolInputError('not_found', `repository "${nameOrRoot}" is not tracked; tracked: ${repos.all().map((r) => r.entry.name).join(', ') || 'none'}`);
    return found;
  };
  // Cross-repository edges, recomputed when any repository's graph changed.
  let crossKey = '';
  let crossCache: CrossEdge[] = [];
  const crossEdges = (): CrossEdge[] => {
    const open = repos.all().filter((r) => r.phase === 'ready' && r.syncContext !== undefined);
    const key = open.map((r) => `${r.entry.name}@${r.syncContext!.engine.repos().find((x) => x.root === r.entry.root)?.indexed_at_ms ?? 0}`).join('|');
    if (key !== crossKey) {
      crossCache = open.length < 2 ? [] : linkRepos(open.map((r) => ({ name: r.entry.name, root: r.entry.root, engine: r.syncContext!.engine, key: r.syncContext!.repo })));
      crossKey = key;
    }
    return crossCache;
  };
  return {
    mode: 'daemon',
    crossEdges,
    repos: () => repos.all().map(rowOf).sort((a, b) => a.name.localeCompare(b.name)),
    contextOf: async (nameOrRoot) => find(nameOrRoot).context(),
    async track(dir, options) {
      const tracked = await repos.track(dir, options);
      await tracked.ready.catch(() => undefined);
      if (tracked.phase === 'failed') throw new ToolInputError('internal', `cannot index ${tracked.entry.root}: ${tracked.error}`);
      return rowOf(tracked);
    },
    untrack: (pathOrName) => repos.untrack(pathOrName),
    reindex: async (nameOrRoot) => (await find(nameOrRoot).ready).reindex(),
    changes: (sinceMs) => changes.since(sinceMs),
    scopes: new ScopeStore(scopesFile(home)),
  };
}
