/**
 * The HTTP surface as one express app: `/healthz`, the `/v1/*` JSON API over an `HttpHost`, and
 * MCP Streamable HTTP on `/mcp`, behind the Origin guard and bearer auth of `security.ts`.
 * `startHttpServer` binds it (refusing an unauthenticated non-loopback bind) and can close it,
 * streams and sessions included.
 */
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../support/json-depth';
import { callToolResult, type McpServerOptions } from '../mcp/server';
import { ScopeError, type HttpHost, type Scope } from './host';
import { checkBind, currentToken, guard, requestTrust, trustNow, type TokenSource } from './security';
import { MemorySessionStore, type McpSessionStore } from './session-state';
import { openSse, type SseChannel } from './sse';
import { ActivityLog, caveatRows, communityRows, contractViews, dashboard, graphView, guardRows, processRows, repoRows } from './views';
import { MCP_BODY_LIMIT, sessionIdleTtl, StreamableMcp } from './streamable';
import { uiRouter } from './ui';

/** Largest `POST /v1/tools/{name}` body. */
export const TOOL_BODY_LIMIT = 1024 * 1024;
/** Default interval of SSE keep-alive comments. */
export const DEFAULT_KEEPALIVE_MS = 15_000;

/** Options of the HTTP surface (everything but the address). */
export interface HttpAppOptions {
  /** `--http-auth-token`; without it `GORTEX_DAEMON_HTTP_TOKEN` is read on every request. */
  authToken?: string;
  /** Which flag and env var name the token (default: the daemon's `--http-auth-token` / `GORTEX_DAEMON_HTTP_TOKEN`). */
  tokenSource?: TokenSource;
  /** Browser origins allowed to call the API (`--http-allowed-origin`). */
  allowedOrigins: string[];
  /** `--cors-origin`: which allowed origin gets CORS response headers (`*`: every allowed one). */
  corsOrigin?: string;
  /** Interval of SSE keep-alive comments (default 15 s). */
  keepAliveMs?: number;
  /** Tool surface of new MCP sessions. */
  mcp?: McpServerOptions;
  /** Where MCP sessions are kept (default: in memory, owned and closed by the app). */
  sessionStore?: McpSessionStore;
  /** Session idle TTL in ms (negative disables); default `GORTEX_MCP_SESSION_IDLE_TTL`, else 30 m. */
  sessionIdleTtlMs?: number;
}

/** Options of `startHttpServer`. */
export interface HttpServerOptions extends HttpAppOptions {
  /** `host:port` (`[::1]:0` for IPv6; port 0 picks a free one; an empty host means every interface). */
  addr: string;
}

/** The express app plus what shutting it down needs. */
export type GortexHttpApp = Express & {
  /** Ends SSE streams, closes this process's MCP sessions and the default session store. */
  shutdown(): Promise<void>;
  /** MCP sessions with a live server in this process. */
  readonly liveMcpSessions: number;
};

/** A running server. */
export interface RunningHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A request failure with an HTTP status and a JSON body. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Every `/v1` route, for the 404 answer. */
const V1_ROUTES = [
  'GET /v1/health',
  'GET /v1/tools',
  'POST /v1/tools/{name}',
  'GET /v1/stats',
  'GET /v1/graph',
  'GET /v1/events',
  'GET /v1/dashboard',
  'GET /v1/repos',
  'GET /v1/processes',
  'GET /v1/communities',
  'GET /v1/caveats',
  'GET /v1/guards',
  'GET /v1/contracts',
  'GET /v1/contracts/validate',
  'GET /v1/activity',
  'POST /v1/overlay/sessions',
  'DELETE /v1/overlay/sessions/{id}',
  'GET|PUT|DELETE /v1/overlay/sessions/{id}/files',
  'POST /v1/overlay/sessions/{id}/keepalive',
  'GET|POST /v1/overlay/sessions/{id}/branches',
  'DELETE /v1/overlay/sessions/{id}/branches/{name}',
  'POST /v1/overlay/sessions/{id}/switch',
  'POST /v1/overlay/sessions/{id}/merge',
  'POST /v1/overlay/sessions/{id}/compare',
  'POST /v1/overlay/sessions/{id}/compare-branches',
];

/**
 * The overlay session a `/v1` call reads through: `Mcp-Session-Id` (preferred), then
 * `X-Gortex-Overlay-Session`, then `?session_id=`.
 */
function overlaySessionOf(req: Request): string | undefined {
  const fromQuery = req.query.session_id;
  if (fromQuery !== undefined && typeof fromQuery !== 'string') throw new HttpError(400, 'invalid_argument', '?session_id= must be given once, as a plain value');
  const id = req.get('mcp-session-id') || req.get('x-gortex-overlay-session') || fromQuery;
  if (id === undefined || id === '') return undefined;
  if (id.length > 200 || !/^[\x21-\x7e]+$/.test(id)) throw new HttpError(400, 'invalid_argument', 'an overlay session id is 1–200 visible ASCII characters');
  return id;
}

/** HTTP status of a tool error code (`code: message` answers). */
export function statusOfToolError(code: string): number {
  switch (code) {
    case 'invalid_argument':
    case 'ambiguous':
    case 'bad_input':
    case 'bad_request':
      return 400;
    case 'not_found':
      return 404;
    // `unavailable`: the tool cannot run in this context (a session tool outside an MCP session).
    case 'not_available':
    case 'unavailable':
      return 409;
    case 'timeout':
      return 504;
    default:
      return 500;
  }
}

/** Splits `host:port`; throws naming the problem. */
export function parseAddr(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d+)$/.exec(addr.trim());
  if (!m) throw new Error(`invalid HTTP address ${JSON.stringify(addr)}: expected host:port, e.g. 127.0.0.1:7411 or [::1]:7411`);
  const port = Number(m[3]);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`invalid HTTP address ${JSON.stringify(addr)}: port must be 0..65535`);
  return { host: m[1] ?? m[2] ?? '', port };
}

/** `?repo=` / `?project=` of a request; each may be given once. */
function scopeOf(req: Request): Scope {
  const scope: Scope = {};
  for (const key of ['repo', 'project'] as const) {
    const value = req.query[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new HttpError(400, 'invalid_scope', `?${key}= must be given once, as a plain value`);
    scope[key] = value;
  }
  return scope;
}

/** A JSON object that is not an array. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Default and largest `?max_nodes=` of `/v1/graph` (per repository). */
export const DEFAULT_GRAPH_NODES = 10_000;
export const MAX_GRAPH_NODES = 500_000;

/** An integer query parameter in `[min, max]`, `fallback` when absent; a 400 naming it otherwise. */
function intParam(req: Request, key: string, fallback: number, min: number, max: number): number {
  const raw = req.query[key];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new HttpError(400, 'invalid_argument', `?${key}= must be one integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A list query parameter: repeated (`?kind=a&kind=b`) or comma-separated (`?kind=a,b`); [] when absent. */
function listParam(req: Request, key: string): string[] {
  const raw = req.query[key];
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  if (!values.every((v) => typeof v === 'string')) throw new HttpError(400, 'invalid_argument', `?${key}= must be plain values`);
  return (values as string[]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** A boolean query parameter: `1`/`true` or `0`/`false`; false when absent. */
function flagParam(req: Request, key: string): boolean {
  const raw = req.query[key];
  if (raw === undefined) return false;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new HttpError(400, 'invalid_argument', `?${key}= must be 1, true, 0 or false, got ${JSON.stringify(raw)}`);
}

/** `json` / `gcx`, or a 400 naming where the bad value came from. */
function checkFormat(value: unknown, where: string): 'json' | 'gcx' | undefined {
  if (value === undefined) return undefined;
  if (value === 'json' || value === 'gcx') return value;
  throw new HttpError(400, 'invalid_format', `${where} must be "json" or "gcx", got ${JSON.stringify(value)}`);
}

/** The tool arguments and format of a `POST /v1/tools/{name}` body (wrapped or raw). */
export function toolRequest(body: Buffer | undefined, queryFormat: unknown): { args: Record<string, unknown>; format: 'json' | 'gcx' | undefined } {
  const fromQuery = checkFormat(typeof queryFormat === 'string' || queryFormat === undefined ? queryFormat : String(queryFormat), '?format=');
  const text = body?.toString('utf8') ?? '';
  let parsed: unknown = {};
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new HttpError(400, 'invalid_json', `the request body is not valid JSON: ${(error as Error).message}`);
    }
    // Before validation, handlers or serialisation recurse over the arguments.
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) throw new HttpError(400, 'invalid_argument', tooDeepMessage('the request body'));
  }
  if (!isPlainObject(parsed)) {
    throw new HttpError(400, 'invalid_body', `the request body must be a JSON object (the tool's arguments, or {"arguments": {…}, "format": "json"|"gcx"}), got ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed}`);
  }
  const keys = Object.keys(parsed);
  // Only a body made of `arguments`/`format` alone is the wrapped form; anything else is the arguments.
  const wrapped = keys.length > 0 && keys.every((k) => k === 'arguments' || k === 'format');
  let args: Record<string, unknown>;
  if (wrapped) {
    const inner = parsed.arguments ?? {};
    if (!isPlainObject(inner)) throw new HttpError(400, 'invalid_body', `"arguments" must be a JSON object, got ${Array.isArray(inner) ? 'an array' : inner === null ? 'null' : typeof inner}`);
    args = { ...inner };
  } else {
    args = { ...parsed };
  }
  // The format may sit beside the arguments (wrapped form) or among them, as on every other door.
  const bodyFormat = checkFormat(wrapped && parsed.format !== undefined ? parsed.format : args.format, 'the body\'s "format"');
  delete args.format;
  return { args, format: fromQuery ?? bodyFormat };
}

/** Reads a raw body up to `limit` bytes (empty when there is none); a larger one rejects with status 413. */
function readBody(req: Request, res: Response, limit: number): Promise<Buffer> {
  const parser = express.raw({ type: () => true, limit });
  return new Promise((resolve, reject) => {
    parser(req, res, (error?: unknown) => {
      if (error) reject(error);
      else resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}

/** `1 MiB`-style size text. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** The express app of the HTTP surface over `host`. Throws on an invalid session TTL setting. */
export function createHttpApp(host: HttpHost, options: HttpAppOptions): GortexHttpApp {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS;
  const idleTtlMs = sessionIdleTtl(options.sessionIdleTtlMs);
  const ownStore = options.sessionStore === undefined;
  const store = options.sessionStore ?? new MemorySessionStore();
  // A session's calls are trusted for admin tools while the bearer token is in force (every request
  // then carried it); without one they are anonymous. Asked per call: the env token may rotate.
  const mcp = new StreamableMcp({ host, mcp: { ...(options.mcp ?? {}), trust: () => trustNow(options.authToken, process.env, options.tokenSource) }, store, idleTtlMs, keepAliveMs });
  const streams = new Set<{ channel: SseChannel; stop(): void }>();
  // Graph changes since the app started, for /v1/activity and the dashboard.
  const activity = new ActivityLog();
  const stopActivity = host.subscribe((event) => activity.add(event));

  const app = express();
  app.disable('x-powered-by');
  // Answers carry their own ETag (GCX) or none; express's body hashing would only cost time.
  app.set('etag', false);

  // Liveness probes carry no token.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.use(['/mcp', '/v1'], guard({ authToken: options.authToken, allowedOrigins: options.allowedOrigins, corsOrigin: options.corsOrigin, ...(options.tokenSource ? { tokenSource: options.tokenSource } : {}) }));

  const mcpMethodNotAllowed = (_req: Request, res: Response): void => {
    res.status(405).set('Allow', 'GET, POST, DELETE, OPTIONS').json({ error: 'method_not_allowed', message: '/mcp takes POST, GET, DELETE and OPTIONS' });
  };
  // Before the GET route, which express would otherwise run for HEAD too: a HEAD must not open
  // (and so replace) the session's SSE stream.
  app.head('/mcp', mcpMethodNotAllowed);
  app.post('/mcp', async (req, res) => {
    await mcp.post(req, res, () => readBody(req, res, MCP_BODY_LIMIT));
  });
  app.get('/mcp', async (req, res) => {
    await mcp.get(req, res);
  });
  app.delete('/mcp', async (req, res) => {
    await mcp.delete(req, res);
  });
  app.all('/mcp', mcpMethodNotAllowed);

  const v1 = express.Router();
  v1.get('/health', async (_req, res) => {
    res.json(await host.health());
  });
  v1.get('/tools', (_req, res) => {
    res.json(host.tools());
  });
  v1.post('/tools/:name', async (req, res) => {
    const name = req.params.name as string;
    const scope = scopeOf(req);
    const body = await readBody(req, res, TOOL_BODY_LIMIT);
    const { args, format } = toolRequest(body, req.query.format);
    const session = overlaySessionOf(req);
    const outcome = await host.callTool(name, args, { ...scope, format, trust: requestTrust(res), ...(session ? { overlaySession: session } : {}) });
    // The MCP `CallToolResult` the MCP doors give for the same call; failures keep their HTTP status.
    const answer = callToolResult(outcome);
    if (!outcome.ok) {
      const extra = outcome.code === 'tool_not_found' ? { available_tools: host.tools().map((t) => t.name) } : {};
      res.status(outcome.code === 'tool_not_found' ? 404 : statusOfToolError(outcome.code)).json({ ...answer, ...extra });
      return;
    }
    if (typeof outcome.meta.etag === 'string') res.set('ETag', `"${outcome.meta.etag}"`);
    res.status(200).json(answer);
  });
  // The overlay routes mirror the overlay tools; the session is the path's {id}.
  const overlayCall = async (req: Request, res: Response, tool: string, args: Record<string, unknown>, session: string, status = 200): Promise<void> => {
    const outcome = await host.callTool(tool, args, { ...scopeOf(req), format: 'json', trust: requestTrust(res), overlaySession: session });
    if (!outcome.ok) {
      res.status(statusOfToolError(outcome.code)).json({ ok: false, tool, error: { code: outcome.code, message: outcome.message } });
      return;
    }
    res.status(status).json(JSON.parse(outcome.text) as unknown);
  };
  const bodyArgs = async (req: Request, res: Response): Promise<Record<string, unknown>> => toolRequest(await readBody(req, res, TOOL_BODY_LIMIT), undefined).args;
  const sessionParam = (req: Request): string => {
    const id = req.params.id as string;
    if (id.length > 200 || !/^[\x21-\x7e]+$/.test(id)) throw new HttpError(400, 'invalid_argument', 'an overlay session id is 1–200 visible ASCII characters');
    return id;
  };
  v1.post('/overlay/sessions', async (req, res) => {
    const args = await bodyArgs(req, res);
    const given = args.session_id ?? overlaySessionOf(req);
    if (given !== undefined && (typeof given !== 'string' || given === '')) throw new HttpError(400, 'invalid_argument', 'session_id must be a non-empty string');
    await overlayCall(req, res, 'overlay_register', {}, given ?? randomUUID(), 201);
  });
  v1.delete('/overlay/sessions/:id', async (req, res) => overlayCall(req, res, 'overlay_drop', {}, sessionParam(req)));
  v1.get('/overlay/sessions/:id/files', async (req, res) => {
    const branch = req.query.branch;
    await overlayCall(req, res, 'overlay_list', typeof branch === 'string' ? { branch } : {}, sessionParam(req));
  });
  v1.put('/overlay/sessions/:id/files', async (req, res) => overlayCall(req, res, 'overlay_push', await bodyArgs(req, res), sessionParam(req)));
  v1.delete('/overlay/sessions/:id/files', async (req, res) => {
    const args = await bodyArgs(req, res);
    const path = typeof req.query.path === 'string' ? req.query.path : args.path;
    await overlayCall(req, res, 'overlay_delete', { path }, sessionParam(req));
  });
  v1.post('/overlay/sessions/:id/keepalive', async (req, res) => overlayCall(req, res, 'overlay_keepalive', {}, sessionParam(req)));
  v1.get('/overlay/sessions/:id/branches', async (req, res) => overlayCall(req, res, 'overlay_branches', {}, sessionParam(req)));
  v1.post('/overlay/sessions/:id/branches', async (req, res) => overlayCall(req, res, 'overlay_fork', await bodyArgs(req, res), sessionParam(req), 201));
  v1.delete('/overlay/sessions/:id/branches/:name', async (req, res) => overlayCall(req, res, 'overlay_drop_branch', { branch: req.params.name }, sessionParam(req)));
  v1.post('/overlay/sessions/:id/switch', async (req, res) => overlayCall(req, res, 'overlay_switch', await bodyArgs(req, res), sessionParam(req)));
  v1.post('/overlay/sessions/:id/merge', async (req, res) => overlayCall(req, res, 'overlay_merge', await bodyArgs(req, res), sessionParam(req)));
  v1.post('/overlay/sessions/:id/compare', async (req, res) => overlayCall(req, res, 'compare_with_overlay', await bodyArgs(req, res), sessionParam(req)));
  v1.post('/overlay/sessions/:id/compare-branches', async (req, res) => overlayCall(req, res, 'compare_branches', await bodyArgs(req, res), sessionParam(req)));
  v1.get('/stats', async (req, res) => {
    res.json(await host.stats(scopeOf(req)));
  });
  v1.get('/graph', async (req, res) => {
    const maxNodes = intParam(req, 'max_nodes', DEFAULT_GRAPH_NODES, 1, MAX_GRAPH_NODES);
    const filter = { kinds: listParam(req, 'kind'), languages: listParam(req, 'language'), paths: listParam(req, 'path'), communities: flagParam(req, 'communities'), collapse_edges: true };
    try {
      res.json(await graphView(host, scopeOf(req), { maxNodes, filter }, host.crossEdges()));
    } catch (error) {
      // The engine names a kind or language it does not know; anything else is the server's.
      const message = error instanceof Error ? error.message : String(error);
      if (/^unknown (node kind|language) /.test(message)) throw new HttpError(400, 'invalid_argument', `?kind= / ?language=: ${message}`);
      throw error;
    }
  });
  // The analysis views of the web UI (ts/http/views.ts).
  const crossCallers = (id: string): string[] => host.crossEdges().filter((e) => e.to === id).map((e) => e.from_repo);
  v1.get('/repos', async (req, res) => {
    res.json({ repos: await repoRows(await host.served(scopeOf(req))) });
  });
  v1.get('/dashboard', async (req, res) => {
    const scope = scopeOf(req);
    const repos = await host.served(scope);
    res.json(await dashboard(host, repos, requestTrust(res), activity.list(20, new Set(repos.map((r) => r.name))), crossCallers));
  });
  v1.get('/processes', async (req, res) => {
    res.json({ processes: await processRows(host, await host.served(scopeOf(req)), requestTrust(res)) });
  });
  v1.get('/communities', async (req, res) => {
    res.json(await communityRows(host, await host.served(scopeOf(req)), requestTrust(res)));
  });
  v1.get('/caveats', async (req, res) => {
    res.json({ caveats: await caveatRows(host, await host.served(scopeOf(req)), requestTrust(res), crossCallers) });
  });
  v1.get('/guards', async (req, res) => {
    const { guards, errors } = await guardRows(host, await host.served(scopeOf(req)), requestTrust(res));
    res.json({ guards, ...(errors.length > 0 ? { errors } : {}) });
  });
  v1.get('/contracts', async (req, res) => {
    res.json(await contractViews(host, await host.served(scopeOf(req)), requestTrust(res), 'list'));
  });
  v1.get('/contracts/validate', async (req, res) => {
    res.json(await contractViews(host, await host.served(scopeOf(req)), requestTrust(res), 'check'));
  });
  v1.get('/activity', async (req, res) => {
    const repos = await host.served(scopeOf(req));
    res.json({ events: activity.list(intParam(req, 'limit', 50, 1, 500), new Set(repos.map((r) => r.name))) });
  });
  v1.get('/events', (req, res) => {
    let channel: SseChannel | undefined;
    const unsubscribe = host.subscribe((event) => channel?.event('graph_change', JSON.stringify(event), String(event.timestamp)));
    if (!unsubscribe) {
      const once = openSse(res);
      once.comment('watch mode not active');
      once.end();
      return;
    }
    const open = openSse(res);
    channel = open;
    const keepAlive = setInterval(() => open.comment('keepalive'), keepAliveMs);
    keepAlive.unref();
    let stopped = false;
    const entry = {
      channel: open,
      stop: (): void => {
        if (stopped) return;
        stopped = true;
        clearInterval(keepAlive);
        unsubscribe();
        open.end();
        streams.delete(entry);
      },
    };
    streams.add(entry);
    res.on('close', entry.stop);
  });
  v1.use((req, res) => {
    res.status(404).json({ error: 'not_found', message: `no route ${req.method} ${req.baseUrl}${req.path}`, routes: V1_ROUTES });
  });
  app.use('/v1', v1);

  app.use('/ui', uiRouter());

  app.use((req, res) => {
    res.status(404).json({ error: 'not_found', message: `no route ${req.method} ${req.path}; the API is under /v1 and MCP at /mcp`, routes: ['GET /healthz', ...V1_ROUTES, 'POST|GET|DELETE /mcp'] });
  });

  // Every failure is a JSON body with `error` and `message`; stacks stay on the server.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const limit = req.path.startsWith('/mcp') ? MCP_BODY_LIMIT : TOOL_BODY_LIMIT;
    const e = error as { status?: unknown; type?: unknown; message?: unknown; expose?: unknown };
    if (error instanceof HttpError) {
      res.status(error.status).json({ error: error.code, message: error.message, ...error.extra });
    } else if (error instanceof ScopeError) {
      res.status(404).json({ error: 'scope_not_found', message: error.message, available: error.available });
    } else if (e?.type === 'entity.too.large') {
      res.status(413).json({ error: 'payload_too_large', message: `the request body exceeds the ${sizeText(limit)} limit` });
    } else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ error: 'bad_request', message: e.expose === true && typeof e.message === 'string' ? e.message : 'the request could not be read' });
    } else {
      res.status(500).json({ error: 'internal', message: `internal error: ${error instanceof Error ? error.message : String(error)}` });
    }
  });

  return Object.assign(app, {
    async shutdown(): Promise<void> {
      stopActivity?.();
      for (const entry of [...streams]) entry.stop();
      await mcp.close();
      if (ownStore) await store.close();
    },
    get liveMcpSessions(): number {
      return mcp.liveSessions;
    },
  });
}

/** Binds the HTTP surface on `options.addr`; rejects an unauthenticated non-loopback bind before listening. */
export async function startHttpServer(host: HttpHost, options: HttpServerOptions): Promise<RunningHttpServer> {
  const { host: bindHost, port } = parseAddr(options.addr);
  checkBind(bindHost === '' ? '0.0.0.0' : bindHost, currentToken(options.authToken, process.env, options.tokenSource), options.tokenSource);
  const app = createHttpApp(host, options);
  const server = http.createServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, bindHost === '' ? undefined : bindHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await app.shutdown();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  const urlHost = bindHost === '' ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${bound}`,
    port: bound,
    close(): Promise<void> {
      closing ??= (async () => {
        await app.shutdown();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Connections still busy after a grace period are cut rather than awaited forever.
          setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
      })();
      return closing;
    },
  };
}
