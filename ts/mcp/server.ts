/**
 * The MCP server: `tools/list` shows the session's live surface (`ts/calls/session.ts`),
 * `tools/call` goes through the call pipeline (`ts/calls/pipeline.ts`), resources and prompts
 * render the same answers. The only code here is MCP's: the SDK server, progress notifications
 * and the `CallToolResult` shape.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { CallPipeline, type Caller, type CallOutcome } from '../calls/pipeline';
import { SessionChannels, type PushSources } from '../workspace/channels';
import { overlayStore } from '../workspace/overlays';
import { chosenSpec, isGcxClient, sessionSurface, type SurfaceOptions } from '../calls/session';
import { toolListing } from '../calls/surface';
import { packageVersion } from '../support/package-root';
import type { CallerTrust, ProgressReporter } from '../workspace/context';
import { SessionStore } from '../workspace/session-store';
import { profileInstructions, sessionProfile } from '../tools/profiles';
import { gortexHome } from '../support/home';
import type { Workspace } from '../workspace/workspace';
import { lspPool } from '../lsp/pool';
import { registerCompletions } from './completions';
import { registerPrompts } from './prompts';
import { registerResources, toolReader, type ResourceHost } from './resources';

/** A tool call's answer in MCP `CallToolResult` shape. */
export interface ToolCallAnswer {
  isError?: true;
  content: { type: 'text'; text: string }[];
  _meta?: Record<string, unknown>;
}

/** A pipeline outcome as an MCP `CallToolResult`: a failure reads `code: message`. */
export function callToolResult(outcome: CallOutcome): ToolCallAnswer {
  const meta = Object.keys(outcome.meta).length > 0 ? { _meta: outcome.meta } : {};
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: `${outcome.code}: ${outcome.message}` }], ...meta };
  return { content: [{ type: 'text', text: outcome.text }], ...meta };
}

/**
 * A reporter sending MCP `notifications/progress` for the request that carried `token`. Values
 * that do not grow are dropped (the spec requires growth); a failed send never fails the call.
 */
export function progressNotifier(token: string | number, send: (notification: ServerNotification) => Promise<void>): ProgressReporter {
  let last = -Infinity;
  return (progress, total, message) => {
    if (!(progress > last)) return;
    last = progress;
    send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } }).catch(() => undefined);
  };
}

/** Options of one server. */
export interface McpServerOptions extends SurfaceOptions {
  /** The repositories the session can reach (multi-repo tools, repo/project/scope narrowing). */
  workspace?: Workspace;
  /** Repository names every unnarrowed query fans out over (a session opened at a parent folder). */
  boundRepos?: string[];
  /** Routes a call to another gortex server (the daemon's roster); see `Caller.route`. */
  route?: Caller['route'];
  /** Where `GORTEX_TOOLS`/`GORTEX_TOOLS_MODE` are read (default `process.env`); a daemon session passes its client's choice instead. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the session's caller may call admin tools (`CallerTrust`), or how to tell at each call
   * (an HTTP session: whether the server's bearer token is in force). Default `trusted`: stdio
   * and the daemon socket.
   */
  trust?: CallerTrust | (() => CallerTrust);
  /**
   * The id the session's overlay is bound to (`/mcp`: its `Mcp-Session-Id`); default a fresh id.
   * The overlay ends with the server (`onclose`: stdio exit, socket close, `/mcp` DELETE or expiry).
   */
  overlaySession?: string;
  /** What the session's push channels follow (warm-up phases, rebuilds); absent: only diagnostics can be subscribed. */
  push?: PushSources;
}

/**
 * An MCP server answering tools against `host.context()` (called per request; a call that
 * carries a progress token hears how a wait for a warming repository goes). The tool surface is
 * settled on the first list or call, after `initialize` (see `sessionSurface`).
 */
export function createMcpServer(host: ResourceHost, options: McpServerOptions = {}): Server {
  const store = new SessionStore();
  if (options.boundRepos && options.boundRepos.length > 0) store.boundRepos = [...options.boundRepos];
  const surface = sessionSurface({
    explicit: chosenSpec(options, options.env),
    clientName: () => server.getClientVersion()?.name,
    store,
    onListChanged: () => void server.sendToolListChanged().catch(() => undefined),
  });
  const pipeline = new CallPipeline();
  const server = new Server({ name: 'gortex', version: packageVersion() }, { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: profileInstructions(sessionProfile(gortexHome()).name) });
  const caller: Caller = {
    context: (o) => host.context(o),
    session: surface,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    get gcxDefault() {
      return isGcxClient(server.getClientVersion()?.name);
    },
    get trust() {
      const trust = options.trust ?? 'trusted';
      return typeof trust === 'function' ? trust() : trust;
    },
    ...(options.route ? { route: options.route } : {}),
    overlay: { store: overlayStore(), session: options.overlaySession ?? randomUUID() },
  };
  const overlay = caller.overlay!;
  // Custom notification methods (`notifications/diagnostics`, …) are not in the SDK's union; the wire takes any.
  const channels = new SessionChannels(overlay.session, (method, params) => void server.notification({ method, params } as unknown as ServerNotification).catch(() => undefined), options.push);
  caller.channels = channels;
  const stopLogging = forwardLogs(server, host);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    overlay.store.drop(overlay.session);
    channels.close();
    stopLogging();
    previousOnClose?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: surface.listed().map((t) => {
      const { name, description, inputSchema, annotations } = toolListing(t);
      return { name, description, inputSchema, annotations };
    }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? undefined : progressNotifier(token, (n) => extra.sendNotification(n));
    const outcome = await pipeline.call({ tool: request.params.name, args: request.params.arguments, ...(progress ? { progress } : {}) }, caller);
    return callToolResult(outcome);
  });
  const reader = toolReader(pipeline, caller);
  registerResources(server, host, reader);
  registerPrompts(server, host);
  registerCompletions(server, reader);
  return server;
}

/** MCP log levels, least severe first. */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The MCP `logging` capability: `logging/setLevel` picks the least severe level the session hears
 * (default `warning`), and `notifications/message` carries what happens under it — language
 * servers starting, crashing and stopping (`gortex.lsp`), re-indexes (`gortex.index`, info).
 * Returns the stop for when the session closes.
 */
function forwardLogs(server: Server, host: ResourceHost): () => void {
  let level: LogLevel = 'warning';
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    level = request.params.level;
    return {};
  });
  const send = (at: LogLevel, logger: string, data: Record<string, unknown>): void => {
    if (LOG_LEVELS.indexOf(at) < LOG_LEVELS.indexOf(level)) return;
    server.notification({ method: 'notifications/message', params: { level: at, logger, data } }).catch(() => undefined);
  };
  const stopLsp = lspPool().onLifecycle((e) => send(e.event === 'crashed' || e.event === 'failed' ? 'warning' : 'info', 'gortex.lsp', { ...e }));
  const stopIndex = host.onReindexed(() => send('info', 'gortex.index', { event: 'reindexed', at: new Date().toISOString() }));
  return () => {
    stopLsp();
    stopIndex();
  };
}
