/**
 * The MCP server over the tool registry: `tools/list` shows the session's live surface (a preset,
 * see `ts/tools/presets.ts`), `tools/call` goes through `callTool`, so validation and errors are
 * the registry's. Every call is bounded in time and in concurrency, and screened for prompt
 * injection.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { packageVersion } from '../package-root';
import { ToolCallError } from '../tools/dispatch';
import { callScoped, type Workspace } from '../tools/workspace';
import { ALL_TOOLS } from '../tools/index';
import { facadeTools } from '../tools/facade';
import { inputSchema } from '../tools/meta';
import type { ConfigTools } from '../config/config';
import { FACADE_PRESET, PresetError, resolveSurface, type ToolSurface } from '../tools/presets';
import type { ProgressReporter, SessionSurface, ToolContext, ToolDef } from '../tools/registry';
import { registerPrompts } from './prompts';
import { registerResources, type ResourceHost } from './resources';
import { SessionStore } from './session-store';
import { answerToolCall, failedCall, Gate, type ToolCallAnswer } from './tool-call';

/** Clients that get GCX1 unless a call asks for JSON (names normalised: lowercase, `-` for spaces). */
const GCX_CLIENTS = ['claude-code', 'cursor', 'vscode', 'visual-studio-code', 'zed', 'aider', 'kilocode', 'opencode', 'openclaw', 'codex', 'omp-coding-agent', 'pi'];

/** Whether a client's self-reported name is a known coding client. */
export function isGcxClient(name: string | undefined): boolean {
  const n = (name ?? '').trim().toLowerCase().replace(/\s+/g, '-');
  return n !== '' && GCX_CLIENTS.some((c) => n === c || n.startsWith(`${c}-`));
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

/** Default bound of one tool call. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** Default and ceiling of concurrent tool dispatches. */
const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;

/** Options of one server. */
export interface McpServerOptions {
  /** Tool spec (`"preset,+add,-remove"` or an allow-list) from `--tools`; `GORTEX_TOOLS` wins over it. */
  tools?: string;
  /** `--tools-mode`: the mode of whichever spec is chosen; `GORTEX_TOOLS_MODE` wins over it. */
  toolsMode?: string;
  /** `mcp.tools` from `.gortex.yaml` or the global config, below the env and the flag. */
  config?: ConfigTools;
  /** The repositories the session can reach (multi-repo tools, repo/project/scope narrowing). */
  workspace?: Workspace;
  /** Repository names every unnarrowed query fans out over (a session opened at a parent folder). */
  boundRepos?: string[];
  /**
   * Routes a call to another gortex server (the daemon's roster): an answer, or undefined to answer
   * here. It receives the arguments with `workspace` (the routing key, never passed to a tool) and
   * `format` split off.
   */
  route?: (name: string, args: Record<string, unknown>, workspace: string | undefined, gcx: boolean) => Promise<ToolCallAnswer | undefined>;
  /** Where `GORTEX_TOOLS`/`GORTEX_TOOLS_MODE` are read (default `process.env`); a daemon session passes its client's choice instead. */
  env?: NodeJS.ProcessEnv;
}

/** A spec with its `:defer`/`:hide` suffix replaced by `mode` (when one is given). */
export function withMode(spec: string | undefined, mode: string | undefined): string | undefined {
  if (mode === undefined) return spec;
  if (mode !== 'defer' && mode !== 'hide') throw new PresetError(`tools mode must be defer or hide, got ${JSON.stringify(mode)}`);
  return `${(spec ?? 'core').replace(/:(defer|hide)$/, '')}:${mode}`;
}

/**
 * The tool spec a server starts from and where it came from: `GORTEX_TOOLS` > `--tools` >
 * config `mcp.tools`; undefined when none is set (the client-aware or server default applies).
 * `GORTEX_TOOLS_MODE` > `--tools-mode` then sets its mode.
 */
export function chosenSpec(options: McpServerOptions, env: NodeJS.ProcessEnv = process.env): { spec: string; source: string } | undefined {
  const mode = env.GORTEX_TOOLS_MODE?.trim() ? env.GORTEX_TOOLS_MODE.trim() : options.toolsMode;
  const envSpec = env.GORTEX_TOOLS?.trim() ? env.GORTEX_TOOLS : undefined;
  const picked =
    envSpec !== undefined
      ? { spec: envSpec, source: 'GORTEX_TOOLS' }
      : options.tools !== undefined
        ? { spec: options.tools, source: '--tools' }
        : options.config
          ? { spec: options.config.spec, source: options.config.source }
          : undefined;
  if (mode === undefined) return picked;
  return { spec: withMode(picked?.spec, mode)!, source: picked ? `${picked.source} + mode ${mode}` : `default + mode ${mode}` };
}

/** `60s`, `1500ms`, `2m`, a bare number of milliseconds, or `off` (no bound). */
export function parseDuration(text: string, what: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0') return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(t);
  if (!m) throw new Error(`${what} must be a duration like 60s, 1500ms, 2m or off, got ${JSON.stringify(text)}`);
  const n = Number(m[1]);
  return Math.round(m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n);
}

function listing(tool: ToolDef): Record<string, unknown> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema(tool),
    annotations: {
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect === 'local_write' || tool.effect === 'external_write',
      openWorldHint: tool.effect === 'external_write',
    },
  };
}

/** The compact domain tools, dispatching to the registry. */
const FACADE_TOOLS: readonly ToolDef[] = facadeTools(
  () => ALL_TOOLS,
  (ctx, tool, args) => callScoped(ctx, tool, args, ALL_TOOLS),
);

/** A server setting from the environment that cannot be honoured. */
export class ServerConfigError extends Error {
  override name = 'ServerConfigError';
}

/** The call bound (`GORTEX_MCP_TOOL_TIMEOUT`; undefined = none) and dispatch limit, checked. */
export function serverLimits(): { timeoutMs: number | undefined; concurrency: number } {
  const timeoutText = process.env.GORTEX_MCP_TOOL_TIMEOUT;
  let timeoutMs: number | undefined = DEFAULT_TIMEOUT_MS;
  if (timeoutText !== undefined) {
    try {
      timeoutMs = parseDuration(timeoutText, 'GORTEX_MCP_TOOL_TIMEOUT');
    } catch (error) {
      throw new ServerConfigError((error as Error).message);
    }
  }
  const concurrencyText = process.env.GORTEX_MCP_MAX_CONCURRENT_DISPATCHES;
  const concurrency = concurrencyText === undefined ? DEFAULT_CONCURRENCY : Number(concurrencyText);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new ServerConfigError(`GORTEX_MCP_MAX_CONCURRENT_DISPATCHES must be 1..${MAX_CONCURRENCY}, got ${JSON.stringify(concurrencyText)}`);
  }
  return { timeoutMs, concurrency };
}

/** Tool names of the two tool sets a surface draws from. */
const REGISTRY_NAMES: ReadonlySet<string> = new Set(ALL_TOOLS.map((t) => t.name));
const FACADE_NAMES: ReadonlySet<string> = new Set(FACADE_TOOLS.map((t) => t.name));

/**
 * An MCP server answering registry tools against `host.context()` (called per request; a call that
 * carries a progress token hears how a wait for a warming repository goes). The surface is
 * `GORTEX_TOOLS` > `--tools` > config `mcp.tools` > client-aware default (a client that names
 * itself gets the compact surface) > `core` (defer), with `GORTEX_TOOLS_MODE` > `--tools-mode`
 * setting the mode; it is settled on the first list or call, after `initialize`.
 */
export function createMcpServer(host: ResourceHost, options: McpServerOptions = {}): Server {
  const explicit = chosenSpec(options, options.env);
  // Validate an explicit spec now so a typo fails at start-up, not on the first request.
  if (explicit !== undefined) resolveSurface(explicit.spec, ALL_TOOLS, 'check', FACADE_TOOLS);
  let settled: ToolSurface | undefined;
  const surfaceNow = (): ToolSurface => {
    if (settled) return settled;
    if (explicit !== undefined) {
      settled = resolveSurface(explicit.spec, ALL_TOOLS, explicit.source, FACADE_TOOLS);
    } else if (server.getClientVersion()?.name?.trim()) {
      settled = resolveSurface(FACADE_PRESET, ALL_TOOLS, 'client-aware default', FACADE_TOOLS);
    } else {
      settled = resolveSurface(undefined, ALL_TOOLS, 'default', FACADE_TOOLS);
    }
    return settled;
  };
  const facadeNow = (): boolean => surfaceNow().preset === FACADE_PRESET;
  const toolsOf = (): readonly ToolDef[] => (facadeNow() ? FACADE_TOOLS : ALL_TOOLS);
  const namesNow = (): ReadonlySet<string> => (facadeNow() ? FACADE_NAMES : REGISTRY_NAMES);
  const { timeoutMs, concurrency } = serverLimits();
  const gate = new Gate(concurrency);

  const server = new Server(
    { name: 'gortex', version: packageVersion() },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        'gortex answers code questions from a graph of this repository: search_symbols / search_text / ' +
        'find_files to locate code, get_symbol_source to read it, get_callers / find_usages / get_dependents ' +
        'before changing it. Rows carry provenance tiers; heed caveats. tools_search finds tools not listed yet. ' +
        'Every tool also takes format: "json" | "gcx" (GCX1: tab-separated rows under a GCX1 header, ~40% fewer tokens), ' +
        'max_bytes / max_tokens (the main list is paged; _page.next_cursor fetches more with cursor), and ' +
        'if_none_match (the etag in _meta of an earlier answer; unchanged answers say not_modified).',
    },
  );
  const store = new SessionStore();
  if (options.boundRepos && options.boundRepos.length > 0) store.boundRepos = [...options.boundRepos];
  const session: SessionSurface = {
    store,
    get preset() {
      return surfaceNow().preset;
    },
    get mode() {
      return surfaceNow().mode;
    },
    live: () => surfaceNow().live,
    get source() {
      return surfaceNow().source;
    },
    allowed: () => (surfaceNow().mode === 'defer' ? namesNow() : surfaceNow().live),
    promote: (names) => {
      const known = namesNow();
      const live = surfaceNow().live;
      const added = names.filter((n) => known.has(n) && !live.has(n));
      for (const n of added) live.add(n);
      if (added.length > 0) void server.sendToolListChanged().catch(() => undefined);
      return added;
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsOf()
      .filter((t) => surfaceNow().live.has(t.name))
      .map(listing),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? undefined : progressNotifier(token, (n) => extra.sendNotification(n));
    if ((REGISTRY_NAMES.has(name) || FACADE_NAMES.has(name)) && !session.allowed().has(name)) {
      return failedCall(
        new ToolCallError('not_available', `${name} is not on the "${surfaceNow().preset}" tool surface (mode hide); start gortex mcp with --tools to choose another`),
      );
    }
    let args = request.params.arguments;
    if (options.route) {
      const { workspace, ...rest } = args ?? {};
      const { format, ...toolArgs } = rest;
      const gcx = format === 'gcx' || (format === undefined && isGcxClient(server.getClientVersion()?.name));
      const routed = await options.route(name, toolArgs, typeof workspace === 'string' ? workspace : undefined, gcx);
      if (routed) return routed;
      args = rest;
    }
    return answerToolCall(name, args, {
      context: async () => ({
        ...(await host.context(progress ? { progress } : {})),
        session,
        ...(options.workspace ? { workspace: options.workspace } : {}),
        ...(progress ? { progress } : {}),
      }),
      tools: toolsOf(),
      gcxDefault: isGcxClient(server.getClientVersion()?.name),
      gate,
      timeoutMs,
      store,
    });
  });
  registerResources(server, host);
  registerPrompts(server, host);
  return server;
}
