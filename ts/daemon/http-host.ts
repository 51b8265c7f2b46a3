/**
 * The daemon's `HttpHost`: `/v1/*` and `/mcp` over every tracked repository. `?repo=` (name or
 * root) and `?project=` narrow a request; without them a tool call spans every tracked repository
 * (or runs where the ids it names live), and statistics and graphs cover all of them.
 */
import { CallPipeline } from '../calls/pipeline';
import { createMcpServer } from '../mcp/server';
import { changeEvent, overlayOf, ScopeError, toolListings, type HttpHost, type Scope } from '../http/host';
import type { ResourceHost } from '../mcp/resources';
import { completeContext, type ToolContext } from '../workspace/context';
import { packageVersion } from '../support/package-root';
import type { Daemon } from './daemon';
import type { TrackedRepo } from './repos';

/** An `HttpHost` over a daemon's tracked repositories. */
export function daemonHttpHost(daemon: Daemon, defaultRepo: () => TrackedRepo | undefined): HttpHost {
  const startedAt = new Date(daemon.startedAt);
  const serverId = `gortex-${daemon.instance}`;
  const pipeline = new CallPipeline();
  const names = (): string[] => daemon.repos.all().map((r) => r.entry.name);

  /** The repositories a scope covers (all of them without one). */
  const scoped = (scope: Scope): TrackedRepo[] => {
    let repos = daemon.repos.all();
    if (scope.project !== undefined) {
      repos = repos.filter((r) => r.entry.project === scope.project);
      if (repos.length === 0) {
        const projects = [...new Set(daemon.repos.all().flatMap((r) => (r.entry.project ? [r.entry.project] : [])))];
        throw new ScopeError(`no tracked repository belongs to project "${scope.project}"`, projects);
      }
    }
    if (scope.repo !== undefined) {
      const found = daemon.repos.find(scope.repo);
      if (!found || !repos.includes(found)) throw new ScopeError(`repository "${scope.repo}" is not tracked${scope.project ? ` in project "${scope.project}"` : ''}`, repos.map((r) => r.entry.name));
      repos = [found];
    }
    return repos;
  };
  /**
   * The repositories a tool call runs against: the first answers a call the scope stage does not
   * spread, and with several the call spans them all (`ToolContext.spans`).
   */
  const callTargets = (scope: Scope): TrackedRepo[] => {
    const repos = scoped(scope);
    if (repos.length === 0) throw new ScopeError('no repository is tracked (gortex track PATH adds one)', []);
    return repos;
  };
  const ready = async (repos: TrackedRepo[]): Promise<{ tracked: TrackedRepo; ctx: ToolContext }[]> => {
    const out: { tracked: TrackedRepo; ctx: ToolContext }[] = [];
    for (const tracked of repos) {
      try {
        // Stats and graph dumps are of complete graphs: a warming repository's wait (bounded).
        out.push({ tracked, ctx: await completeContext(await tracked.context()) });
      } catch {
        /* a repository that failed to open (or is still warming) is reported by health, not counted */
      }
    }
    return out;
  };

  return {
    serverId,
    startedAt: startedAt.toISOString(),
    async health() {
      const repos = daemon.repos.all();
      const infos = repos.map((r) => r.info());
      return {
        status: repos.some((r) => r.warming) ? 'warming' : 'ok',
        version: packageVersion(),
        server_id: serverId,
        uptime_s: Math.round((Date.now() - daemon.startedAt) / 1000),
        nodes: infos.reduce((n, r) => n + (r.nodes ?? 0), 0),
        edges: infos.reduce((n, r) => n + (r.edges ?? 0), 0),
        repos: infos.map((r) => ({ name: r.name, root: r.root, project: r.project ?? null, phase: r.phase, files: r.files, nodes: r.nodes, edges: r.edges })),
      };
    },
    async stats(scope) {
      const open = await ready(scoped(scope));
      const repos = open.map(({ tracked, ctx }) => ({
        ...ctx.engine.stats(ctx.repo),
        name: tracked.entry.name,
        project: tracked.entry.project ?? null,
        languages: ctx.lastIndex?.languages ?? {},
      }));
      return {
        server_id: serverId,
        started_at: startedAt.toISOString(),
        nodes: repos.reduce((n, r) => n + r.nodes, 0),
        edges: repos.reduce((n, r) => n + r.edges, 0),
        repos,
      };
    },
    async graph(scope, graphOptions) {
      const open = await ready(scoped(scope));
      return { repos: open.map(({ tracked, ctx }) => ({ ...ctx.engine.graphDump(ctx.repo, graphOptions), repo: tracked.entry.name })) };
    },
    async served(scope) {
      const open = await ready(scoped(scope));
      return open.map(({ tracked, ctx }) => ({ name: tracked.entry.name, root: tracked.entry.root, project: tracked.entry.project ?? null, ctx }));
    },
    crossEdges: () => daemon.workspace.crossEdges?.() ?? [],
    tools: toolListings,
    async callTool(name, args, scope) {
      const router = daemon.roster?.active ? daemon.roster : undefined;
      // A call the roster sends elsewhere needs no repository here; any other needs its scope now.
      const remote = router && typeof args.workspace === 'string' ? router.route(args.workspace) : undefined;
      const targets = remote ? undefined : callTargets(scope);
      return pipeline.call(
        { tool: name, args, ...(scope.format ? { format: scope.format } : {}) },
        {
          context: async () => {
            const repos = targets ?? callTargets(scope);
            const ctx = await repos[0]!.context();
            return repos.length > 1 ? { ...ctx, spans: repos.map((r) => r.entry.name) } : ctx;
          },
          workspace: daemon.workspace,
          trust: scope.trust,
          ...overlayOf(scope),
          ...(router
            ? {
                route: async (tool, forwarded, workspace, format) => {
                  const target = workspace !== undefined ? router.route(workspace) : undefined;
                  return target ? router.forward(target, tool, forwarded, format) : undefined;
                },
              }
            : {}),
        },
      );
    },
    subscribe(listener) {
      return daemon.repos.onChange((tracked, change) => listener(changeEvent(tracked.entry.name, change)));
    },
    newMcpServer(options) {
      // An HTTP client has no working directory: its session serves the default repository.
      const host: ResourceHost = {
        context: async () => {
          const tracked = defaultRepo();
          if (!tracked) throw new Error('no repository is tracked by this daemon (gortex track PATH adds one)');
          return tracked.context();
        },
        onReindexed: (listener) => daemon.repos.onChange((tracked) => (tracked === defaultRepo() ? listener() : undefined)),
      };
      // An HTTP session is anonymous unless the app says the bearer token is in force.
      return createMcpServer(host, { env: {}, workspace: daemon.workspace, push: daemon.push, ...daemon.sessionTools, ...(options ?? {}), trust: options?.trust ?? 'anonymous' });
    },
  };
}
