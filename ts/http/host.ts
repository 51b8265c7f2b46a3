/**
 * What the HTTP surface (`/v1/*`, `/mcp`) serves from: one interface over the repositories a
 * process holds. The daemon implements it over every tracked repository (`daemonHttpHost`,
 * `ts/daemon/http-host.ts`); `repoHost` implements it over one embedded repository (the HTTP
 * tests, one-shot servers). It is the seam that keeps the HTTP surface ignorant of the daemon's
 * internals.
 */
import { CallPipeline, type CallFormat, type CallOutcome } from '../calls/pipeline';
import { callableTools, toolListing, type ToolListing } from '../calls/surface';
import type { GraphDump, GraphFilter } from '../engine/engine';
import { createMcpServer, type McpServerOptions } from '../mcp/server';
import type { McpServer } from '../mcp/streams';
import { packageVersion } from '../support/package-root';
import type { CallerTrust, ToolContext } from '../workspace/context';
import type { CrossEdge } from '../workspace/cross-repo';
import { embeddedWorkspace, type EmbeddedRepo, type RepoChange } from '../workspace/embedded';
import { overlayStore, type OverlayBinding } from '../workspace/overlays';
import { embeddedPushSources } from '../workspace/push-sources';

export type { ToolListing };

/** A graph-change event as `/v1/events` streams it (`event: graph_change`). */
export interface GraphChangeEvent {
  /** The repository's name and root. */
  repo: string;
  root: string;
  /** `modified` for an incremental pass; `reindexed` when the whole repository was rebuilt. */
  kind: 'modified' | 'reindexed';
  /** Repo-relative paths the watcher saw change. */
  files: string[];
  files_truncated: boolean;
  nodes_added: number;
  nodes_removed: number;
  edges_added: number;
  edges_removed: number;
  files_parsed: number;
  files_deleted: number;
  /** Files of the repository after the pass. */
  files_total: number;
  /** Epoch milliseconds, and how long the pass took. */
  timestamp: number;
  duration_ms: number;
}

/** A request named a repository or project the host does not serve. */
export class ScopeError extends Error {
  override name = 'ScopeError';
  constructor(
    message: string,
    /** What the host does serve, for the error body. */
    readonly available: string[],
  ) {
    super(message);
  }
}

/** Which repository a request is about (both optional; absent = the host's default). */
export interface Scope {
  repo?: string;
  project?: string;
}

/** What a `/v1` tool call carries besides its scope: its format, the caller's trust and overlay session. */
export interface CallOptions extends Scope {
  format: CallFormat | undefined;
  trust: CallerTrust;
  /** The overlay session the call reads through (`Mcp-Session-Id`, `X-Gortex-Overlay-Session` or `?session_id=`). */
  overlaySession?: string;
}

/** The overlay binding of a `/v1` call that named a session. */
export function overlayOf(options: CallOptions): { overlay: OverlayBinding } | Record<string, never> {
  return options.overlaySession ? { overlay: { store: overlayStore(), session: options.overlaySession } } : {};
}

/** A served repository, open on a complete graph, for the `/v1` views. */
export interface ServedRepo {
  name: string;
  root: string;
  project: string | null;
  ctx: ToolContext;
}

/** Options of `HttpHost.graph`. */
export interface GraphOptions {
  /** Most nodes per repository (the best-connected kept). */
  maxNodes: number;
  /** Which nodes may be kept, and whether they carry their community. */
  filter?: GraphFilter;
}

/** Everything the HTTP layer needs from the process that serves it. */
export interface HttpHost {
  /** A stable id of this server process and when it started (ISO 8601). */
  readonly serverId: string;
  readonly startedAt: string;
  /** Status, node/edge totals, uptime, repositories. */
  health(): Promise<Record<string, unknown>>;
  /** Graph statistics by kind and language per repository, plus `server_id` and `started_at`. */
  stats(scope: Scope): Promise<Record<string, unknown>>;
  /** The brief graph dump(s) of the scoped repositories. Throws `ScopeError` for an unknown scope. */
  graph(scope: Scope, options: GraphOptions): Promise<{ repos: GraphDump[] }>;
  /** The scoped repositories that are open (a warming or failed one is left out). Throws `ScopeError` for an unknown scope. */
  served(scope: Scope): Promise<ServedRepo[]>;
  /** References between served repositories that imports prove (none with one repository). */
  crossEdges(): CrossEdge[];
  /** Every tool callable over `/v1/tools/{name}`. */
  tools(): ToolListing[];
  /**
   * Runs a tool through the call pipeline as a caller of `trust` (`trusted` only with the bearer
   * token: anonymous callers are refused the admin tools). Throws `ScopeError` for an unknown scope.
   */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome>;
  /** Subscribes to graph changes; returns the unsubscribe, or `undefined` when nothing is watched. */
  subscribe(listener: (event: GraphChangeEvent) => void): (() => void) | undefined;
  /**
   * A fresh MCP server for a new Streamable HTTP session (tool surface and trust per `options`;
   * without a `trust` its caller is `anonymous`).
   */
  newMcpServer(options?: McpServerOptions): McpServer;
}

/** `GET /v1/tools` rows: every tool callable over `/v1/tools/{name}` (the registry, then the compact tools). */
export function toolListings(): ToolListing[] {
  return callableTools().map(toolListing);
}

/** A `GraphChangeEvent` from a watcher-driven re-index. */
export function changeEvent(name: string, change: RepoChange): GraphChangeEvent {
  const nodeDelta = change.nodes_after - change.nodes_before;
  const edgeDelta = change.edges_after - change.edges_before;
  return {
    repo: name,
    root: change.root,
    kind: change.report.mode === 'cold' ? 'reindexed' : 'modified',
    files: change.files,
    files_truncated: change.files_truncated,
    nodes_added: Math.max(nodeDelta, 0),
    nodes_removed: Math.max(-nodeDelta, 0),
    edges_added: Math.max(edgeDelta, 0),
    edges_removed: Math.max(-edgeDelta, 0),
    files_parsed: change.report.files.parsed,
    files_deleted: change.report.files.deleted,
    files_total: change.report.files.total,
    timestamp: change.timestamp,
    duration_ms: change.report.wall_ms,
  };
}

/** An `HttpHost` over one embedded repository. */
export function repoHost(repo: EmbeddedRepo, options: { watching: boolean; mcp?: McpServerOptions }): HttpHost {
  const startedAt = new Date();
  const serverId = `gortex-${process.pid}-${startedAt.getTime().toString(36)}`;
  const pipeline = new CallPipeline();
  const workspace = embeddedWorkspace(repo);
  const push = embeddedPushSources(repo);
  const checkScope = async (scope: Scope): Promise<void> => {
    const ctx = await repo.context();
    const name = ctx.lastIndex?.repo ?? ctx.repo;
    if (scope.repo !== undefined && scope.repo !== name && scope.repo !== ctx.root) {
      throw new ScopeError(`repository "${scope.repo}" is not served here`, [name]);
    }
    if (scope.project !== undefined) throw new ScopeError(`project "${scope.project}" is not served here (no projects are defined)`, []);
  };
  return {
    serverId,
    startedAt: startedAt.toISOString(),
    async health() {
      const ctx = await repo.context();
      const stats = ctx.engine.stats(ctx.repo);
      return {
        status: 'ok',
        version: packageVersion(),
        server_id: serverId,
        uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000),
        nodes: stats.nodes,
        edges: stats.edges,
        repos: [{ name: stats.name, root: stats.root, files: stats.files, nodes: stats.nodes, edges: stats.edges }],
      };
    },
    async stats(scope) {
      await checkScope(scope);
      const ctx = await repo.context();
      const stats = ctx.engine.stats(ctx.repo);
      return {
        server_id: serverId,
        started_at: startedAt.toISOString(),
        nodes: stats.nodes,
        edges: stats.edges,
        repos: [{ ...stats, languages: ctx.lastIndex?.languages ?? {} }],
      };
    },
    async graph(scope, graphOptions) {
      await checkScope(scope);
      const ctx = await repo.context();
      return { repos: [ctx.engine.graphDump(ctx.repo, graphOptions)] };
    },
    async served(scope) {
      await checkScope(scope);
      const ctx = await repo.context();
      return [{ name: ctx.lastIndex?.repo ?? ctx.repo, root: ctx.root, project: null, ctx }];
    },
    crossEdges: () => [],
    tools: toolListings,
    async callTool(name, args, scope) {
      await checkScope(scope);
      return pipeline.call({ tool: name, args, ...(scope.format ? { format: scope.format } : {}) }, { context: () => repo.context(), workspace, trust: scope.trust, ...overlayOf(scope) });
    },
    subscribe(listener) {
      if (!options.watching) return undefined;
      return repo.onReindexed((change) => listener(changeEvent(change.report.repo, change)));
    },
    newMcpServer(mcpOptions) {
      const chosen = { ...(options.mcp ?? {}), ...(mcpOptions ?? {}) };
      // An HTTP session is anonymous unless the app says the bearer token is in force.
      return createMcpServer(repo, { workspace, push, ...chosen, trust: chosen.trust ?? 'anonymous' });
    },
  };
}
