/** The daemon's `Workspace`: every tracked repository, with a change log fed by all watchers. */
import { ChangeLog, ScopeStore, scopesFile, type Workspace, type WorkspaceRepo } from '../workspace/workspace';
import { ToolInputError } from '../tools/registry';
import { linkRepos, type CrossEdge } from '../workspace/cross-repo';
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
  // Cross-repository edges, recomputed when any repository's graph changed: every pass replaces
  // its repository's last report, so the reports are compared by identity (asked for on every
  // get_callers and find_usages, this must not cost a native call per repository).
  let crossMarks: unknown[] = [];
  let crossCache: CrossEdge[] = [];
  const crossEdges = (): CrossEdge[] => {
    const open = repos.all().filter((r) => r.phase === 'ready' && r.syncContext !== undefined);
    const marks = open.flatMap((r) => [r, r.syncContext!.lastIndex ?? r.syncContext!.engine.repos().find((x) => x.root === r.entry.root)?.indexed_at_ms]);
    if (marks.length !== crossMarks.length || marks.some((m, i) => m !== crossMarks[i])) {
      crossCache = open.length < 2 ? [] : linkRepos(open.map((r) => ({ name: r.entry.name, root: r.entry.root, engine: r.syncContext!.engine, key: r.syncContext!.repo })));
      crossMarks = marks;
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
