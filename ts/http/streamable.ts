/**
 * MCP Streamable HTTP on `/mcp`, over the SDK `Server` with a small per-session transport (not the
 * SDK's StreamableHTTPServerTransport, whose session rules differ from the ones promised here):
 *
 * - `POST` carries one JSON-RPC frame or a batch; requests get their correlated responses as JSON
 *   (an array for a batch, in request order), anything else gets 202. A standalone `initialize`
 *   without `Mcp-Session-Id` mints a session; an unknown or expired id is refused with 404 before
 *   anything is dispatched.
 * - Bounds of one POST: a batch of more than `MCP_MAX_BATCH_FRAMES` frames is refused with 413
 *   and a frame nested deeper than `MAX_JSON_DEPTH` with 400, before anything runs; a batch is
 *   dispatched `MCP_BATCH_CONCURRENCY` frames at a time, in order; its answers may total
 *   `MCP_MAX_BATCH_RESPONSE_BYTES` — from the first answer that would pass that, every remaining
 *   request gets a `-32600` error instead (saying whether it ran) and nothing more is dispatched,
 *   so the client re-sends the rest in smaller batches (`answerFrames`). A lone request's answer is
 *   not capped here: its size is its tool's (paged with `max_bytes`), and one request cannot
 *   multiply it.
 * - A lone request that carries a progress token (`_meta.progressToken`) from a client that
 *   accepts `text/event-stream` is answered as an SSE stream instead: the notifications related
 *   to it (its progress), then its response — in order, on the POST itself
 *   (`SessionTransport.requestStreams`, `ts/mcp/session-transport.ts`); other server-initiated
 *   messages go to the session's `GET` stream.
 * - `GET` opens the session's one SSE stream for server-initiated messages; `DELETE` ends a
 *   session (always 204).
 * - An `Mcp-Protocol-Version` the SDK does not support is refused with 400 on `POST` (except a
 *   standalone `initialize`, which negotiates the version in its body) and `GET`, after the session
 *   check, as the transport spec requires; a supported one is echoed.
 * - The session store decides whether a session exists; a live SDK server is a per-process cache
 *   of it, rebuilt from the stored `initialize` when another replica created the session.
 *   Sessions are stored as `{id, initialize params, tools}` in an `McpSessionStore`
 *   (`session-state.ts`: in memory with a TTL, or Redis through `resp.ts`); replaying
 *   `initialize` is what lets Redis-backed replicas share sessions.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  rpcError,
  SESSION_NOT_FOUND,
  idKey,
  SessionTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '../mcp/session-transport';
import { byteSizeText } from '../mcp/limits';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../support/json-depth';
import type { McpServerOptions } from '../mcp/server';
import type { McpServer } from '../mcp/streams';
import type { HttpHost } from './host';
import type { McpSessionState, McpSessionStore } from './session-state';
import { openSse, type SseChannel } from './sse';

/** Events a request's own SSE stream may queue while its socket is backed up. */
const REQUEST_STREAM_BUFFER = 4096;

/** The default idle horizon of a session. */
export const DEFAULT_SESSION_IDLE_TTL_MS = 30 * 60_000;
/** The environment variable that sets it. */
export const SESSION_TTL_ENV = 'GORTEX_MCP_SESSION_IDLE_TTL';
/** Largest `POST /mcp` body. */
export const MCP_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * Most JSON-RPC frames in one `POST /mcp` batch; a bigger one is refused (413) before anything
 * runs. Without it, 2 MB of `tools/list` frames asked for gigabytes of answers.
 */
export const MCP_MAX_BATCH_FRAMES = 100;
/** Frames of one batch being answered at once (tool calls also pass the pipeline's gate). */
export const MCP_BATCH_CONCURRENCY = 4;
/** Most bytes of the answers to one batch (the errors that replace the rest come on top); see `answerFrames`. */
export const MCP_MAX_BATCH_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The `_meta` key of the initialize result that advertises the idle horizon. */
export const TTL_META_KEY = 'gortex/session_idle_ttl_seconds';

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;

/**
 * A session idle TTL from its text: `30m`, `90s`, `1500ms`, `2h`, a bare number of milliseconds;
 * a negative value (or `off`, `0`) disables expiry (undefined). Throws naming `what` otherwise.
 */
export function parseIdleTtl(text: string, what = SESSION_TTL_ENV): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'off') return undefined;
  const m = /^(-)?(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(t);
  if (!m) throw new Error(`${what} must be a duration like 30m, 90s or 1500ms (negative disables expiry), got ${JSON.stringify(text)}`);
  if (m[1] === '-') return undefined;
  const n = Number(m[2]);
  const ms = Math.round(m[3] === 'h' ? n * 3_600_000 : m[3] === 'm' ? n * 60_000 : m[3] === 's' ? n * 1000 : n);
  return ms === 0 ? undefined : ms;
}

/** The idle TTL in force: the option (negative disables), else `GORTEX_MCP_SESSION_IDLE_TTL`, else 30 m. */
export function sessionIdleTtl(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (option !== undefined) return option < 0 || option === 0 ? undefined : option;
  const text = env[SESSION_TTL_ENV];
  if (text === undefined || text.trim() === '') return DEFAULT_SESSION_IDLE_TTL_MS;
  return parseIdleTtl(text);
}

/** Whole seconds of a TTL as advertised to clients (at least 1). */
function ttlSeconds(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 1000));
}

/** The request's `Mcp-Protocol-Version` when it names a version the SDK supports. */
function supportedVersion(req: Request): string | undefined {
  const version = req.get('mcp-protocol-version')?.trim();
  return version && SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : undefined;
}

/**
 * A 400 answer when the request carries an `Mcp-Protocol-Version` the SDK does not support (the
 * transport spec's MUST); false when the header is absent or supported.
 */
function refusedVersion(req: Request, res: Response): boolean {
  const version = req.get('mcp-protocol-version');
  if (version === undefined || version.trim() === '' || supportedVersion(req) !== undefined) return false;
  res
    .status(400)
    .json(rpcError(null, INVALID_REQUEST, `Bad Request: unsupported Mcp-Protocol-Version ${JSON.stringify(version)}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`));
  return true;
}

/** One session held live in this process. */
interface LiveSession {
  id: string;
  server: McpServer;
  transport: SessionTransport;
  /** Epoch ms of the last request this process saw for the session. */
  lastSeen: number;
}

/** What the `/mcp` endpoint is built from. */
export interface StreamableOptions {
  host: HttpHost;
  /** Options of new sessions' servers (the tool surface). */
  mcp?: McpServerOptions;
  store: McpSessionStore;
  /** Idle horizon; undefined disables expiry. */
  idleTtlMs: number | undefined;
  /** Interval of keep-alive comments on GET streams. */
  keepAliveMs: number;
}

/** A failure that has an HTTP status and a JSON-RPC body ready. */
class McpHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The `/mcp` endpoint: session lifecycle, dispatch and server-initiated streams. */
export class StreamableMcp {
  private readonly live = new Map<string, LiveSession>();
  private readonly rebuilding = new Map<string, Promise<LiveSession>>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly options: StreamableOptions) {
    const ttl = options.idleTtlMs;
    if (ttl !== undefined) {
      this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(100, ttl)));
      this.sweeper.unref();
    }
  }

  /** How many sessions have a live server in this process. */
  get liveSessions(): number {
    return this.live.size;
  }

  /** Headers every POST answer carries: the idle horizon and the protocol version (echoed when supported, else the default). */
  private commonHeaders(req: Request, res: Response): void {
    if (this.options.idleTtlMs !== undefined) res.set('Mcp-Session-Idle-Ttl', String(ttlSeconds(this.options.idleTtlMs)));
    res.set('Mcp-Protocol-Version', supportedVersion(req) ?? LATEST_PROTOCOL_VERSION);
  }

  /** `POST /mcp`; `readBody` reads the raw body within the size cap (rejecting with status 413 beyond it). */
  async post(req: Request, res: Response, readBody: () => Promise<Buffer>): Promise<void> {
    this.commonHeaders(req, res);
    // Checked on the header itself: `req.is` cannot tell a wrong type from a missing body.
    if (!/^application\/(?:json|[\w.+-]+\+json)\s*(?:;|$)/i.test(req.get('content-type') ?? '')) {
      res.status(415).json(rpcError(null, INVALID_REQUEST, `Content-Type must be application/json, got ${JSON.stringify(req.get('content-type') ?? '(none)')}`));
      return;
    }
    let body: Buffer;
    try {
      body = await readBody();
    } catch (error) {
      const e = error as { type?: unknown; status?: unknown };
      if (e?.type === 'entity.too.large') {
        res.status(413).json(rpcError(null, INVALID_REQUEST, `the request body exceeds the ${MCP_BODY_LIMIT / (1024 * 1024)} MiB limit`));
      } else {
        res.status(typeof e?.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 400).json(rpcError(null, PARSE_ERROR, 'the request body could not be read'));
      }
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      res.status(400).json(rpcError(null, PARSE_ERROR, `Parse error: the body is not valid JSON (${(error as Error).message})`));
      return;
    }
    const batch = Array.isArray(parsed);
    const frames = (batch ? parsed : [parsed]) as unknown[];
    if (frames.length === 0) {
      res.status(400).json(rpcError(null, INVALID_REQUEST, 'Invalid Request: an empty batch'));
      return;
    }
    if (frames.length > MCP_MAX_BATCH_FRAMES) {
      res
        .status(413)
        .json(rpcError(null, INVALID_REQUEST, `Invalid Request: the batch has ${frames.length} frames, over the limit of ${MCP_MAX_BATCH_FRAMES} per request (MCP_MAX_BATCH_FRAMES); nothing was run — send them in batches of at most ${MCP_MAX_BATCH_FRAMES}`));
      return;
    }
    for (const [i, frame] of frames.entries()) {
      // Before anything (schema checks, handlers, serialisation) recurses over the frame.
      if (nestsDeeperThan(frame, MAX_JSON_DEPTH)) {
        res.status(400).json(rpcError(batch ? null : topLevelId(frame), INVALID_REQUEST, `Invalid Request: ${tooDeepMessage(batch ? `frame ${i}` : 'the message')}; nothing was run`));
        return;
      }
    }
    const messages: JSONRPCMessage[] = [];
    for (const [i, frame] of frames.entries()) {
      const checked = JSONRPCMessageSchema.safeParse(frame);
      if (!checked.success) {
        res.status(400).json(rpcError(null, INVALID_REQUEST, `Invalid Request: ${batch ? `frame ${i} is` : 'the body is'} not a JSON-RPC 2.0 request, notification or response`));
        return;
      }
      messages.push(checked.data as JSONRPCMessage);
    }
    const requests = messages.filter(isJSONRPCRequest);
    const sessionId = req.get('mcp-session-id');
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };

    let session: LiveSession;
    try {
      if (sessionId === undefined || sessionId === '') {
        const init = !batch && requests.length === 1 && requests[0]!.method === 'initialize' ? requests[0]! : undefined;
        if (!init) {
          res.status(400).json(rpcError(null, INVALID_REQUEST, 'Bad Request: no Mcp-Session-Id header; send a standalone initialize request (without Mcp-Session-Id) first to start a session'));
          return;
        }
        const created = await this.create(init, extra);
        if (!created.session) {
          // Initialize failed: nothing was kept, so no session id goes back.
          res.status(200).json(created.answer);
          return;
        }
        res.set('Mcp-Session-Id', created.session.id);
        res.status(200).json(this.withTtlMeta(init, created.answer));
        return;
      }
      const found = await this.resolve(sessionId);
      if (!found) {
        this.notFound(res, requests, batch);
        return;
      }
      // After the session check: an unknown session stays a 404 whatever the header says.
      const reinit = !batch && requests.length === 1 && requests[0]!.method === 'initialize';
      if (!reinit && refusedVersion(req, res)) return;
      session = found;
    } catch (error) {
      this.failed(res, error);
      return;
    }

    const lone = !batch && messages.length === 1 && requests.length === 1 ? requests[0]! : undefined;
    const wantsProgress = (lone?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken !== undefined;
    if (lone && wantsProgress && (req.get('accept') ?? '').toLowerCase().includes('text/event-stream')) {
      await this.answerAsStream(session, lone, extra, res);
      return;
    }
    const replies = await this.answerFrames(session, messages, extra, batch ? MCP_MAX_BATCH_RESPONSE_BYTES : Infinity);
    session.lastSeen = Date.now();
    if (replies.length === 0) {
      res.status(202).end();
      return;
    }
    res
      .status(200)
      .type('application/json')
      .send(batch ? `[${replies.join(',')}]` : replies[0]);
  }

  /**
   * The serialised answers to the requests among `messages`, in request order. Frames are
   * dispatched in order, `MCP_BATCH_CONCURRENCY` at a time. Answers are kept while their total
   * stays within `limit` bytes (`MCP_MAX_BATCH_RESPONSE_BYTES` for a batch); from the first that
   * would pass it, each remaining request is answered with a `-32600` error saying whether it ran
   * (its answer dropped) or was not run, and once the answers held pass the limit nothing more is
   * dispatched (notifications after that point are dropped too). A request cancelled within the
   * batch gets no answer.
   */
  private async answerFrames(session: LiveSession, messages: JSONRPCMessage[], extra: MessageExtraInfo, limit: number): Promise<string[]> {
    const answers: (string | undefined)[] = new Array<string | undefined>(messages.length);
    const ran: boolean[] = new Array<boolean>(messages.length).fill(false);
    let next = 0;
    let held = 0;
    const worker = async (): Promise<void> => {
      while (next < messages.length && held <= limit) {
        const i = next++;
        const message = messages[i]!;
        ran[i] = true;
        const answer = await session.transport.dispatch(message, extra);
        if (!isJSONRPCRequest(message) || answer === undefined) continue;
        const text = JSON.stringify(message.method === 'initialize' ? this.withTtlMeta(message, answer) : answer);
        answers[i] = text;
        held += Buffer.byteLength(text);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MCP_BATCH_CONCURRENCY, messages.length) }, worker));
    const replies: string[] = [];
    // The brackets and commas of the array count too.
    let total = 2;
    let cutAt: number | undefined;
    for (const [i, frame] of messages.entries()) {
      if (!isJSONRPCRequest(frame)) continue;
      const text = answers[i];
      if (ran[i] && text === undefined) continue;
      if (text !== undefined && cutAt === undefined) {
        const size = Buffer.byteLength(text) + 1;
        if (total + size <= limit) {
          total += size;
          replies.push(text);
          continue;
        }
      }
      cutAt ??= i;
      const why = `the answers to this batch reached the ${byteSizeText(limit)} limit of one response (MCP_MAX_BATCH_RESPONSE_BYTES) at frame ${cutAt}`;
      const message = ran[i]
        ? `Invalid Request: frame ${i} ran, but its answer was dropped: ${why}; ask for it again alone, or with a smaller max_bytes`
        : `Invalid Request: frame ${i} was not run: ${why}; send it again in another request`;
      replies.push(JSON.stringify(rpcError(frame.id, INVALID_REQUEST, message)));
    }
    return replies;
  }

  /**
   * Answers one request as an SSE stream: the notifications the server relates to it, then its
   * response, then the end. A client that goes away early cancels nothing: the answer is dropped.
   */
  private async answerAsStream(session: LiveSession, request: JSONRPCRequest, extra: MessageExtraInfo, res: Response): Promise<void> {
    const { transport } = session;
    const key = idKey(request.id);
    // Room for every progress event of a long wait: the response itself must never be dropped.
    const channel = openSse(res, {}, REQUEST_STREAM_BUFFER);
    transport.requestStreams.set(key, channel);
    try {
      const answer = await transport.dispatch(request, extra);
      session.lastSeen = Date.now();
      if (answer !== undefined) channel.event('message', JSON.stringify(answer));
    } finally {
      if (transport.requestStreams.get(key) === channel) transport.requestStreams.delete(key);
      channel.end();
    }
  }

  /** `GET /mcp`: the session's stream of server-initiated messages (one per session; a new one replaces the old). */
  async get(req: Request, res: Response): Promise<void> {
    if (!(req.get('accept') ?? '').toLowerCase().includes('text/event-stream')) {
      res.status(406).json(rpcError(null, INVALID_REQUEST, 'Not Acceptable: GET /mcp opens an SSE stream; send Accept: text/event-stream'));
      return;
    }
    const sessionId = req.get('mcp-session-id');
    if (sessionId === undefined || sessionId === '') {
      res.status(400).json(rpcError(null, INVALID_REQUEST, 'Bad Request: GET /mcp needs the Mcp-Session-Id of an initialized session'));
      return;
    }
    let session: LiveSession | undefined;
    try {
      session = await this.resolve(sessionId);
    } catch (error) {
      this.failed(res, error);
      return;
    }
    if (!session) {
      res.status(404).json(rpcError(null, SESSION_NOT_FOUND, 'session not found: the Mcp-Session-Id is unknown or expired; initialize a new session'));
      return;
    }
    if (refusedVersion(req, res)) return;
    const { transport } = session;
    transport.stream?.end();
    const channel = openSse(res, { 'Mcp-Session-Id': session.id });
    transport.stream = channel;
    const keepAlive = setInterval(() => channel.comment('keepalive'), this.options.keepAliveMs);
    keepAlive.unref();
    let stopped = false;
    const done = (): void => {
      if (stopped) return;
      stopped = true;
      clearInterval(keepAlive);
      channel.end();
      if (transport.stream === channel) transport.stream = undefined;
    };
    res.on('close', done);
  }

  /** `DELETE /mcp`: ends the session everywhere (204 whether or not it existed). */
  async delete(req: Request, res: Response): Promise<void> {
    const sessionId = req.get('mcp-session-id');
    if (sessionId) {
      await this.evict(sessionId);
      try {
        await this.options.store.delete(sessionId);
      } catch (error) {
        this.failed(res, error);
        return;
      }
    }
    res.status(204).end();
  }

  /** Closes every live server and stream of this process; stored sessions stay for other replicas. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await Promise.allSettled([...this.rebuilding.values()]);
    await Promise.all([...this.live.keys()].map((id) => this.evict(id)));
  }

  /** A fresh session from a standalone `initialize`: its answer, and the session when it succeeded. */
  private async create(init: JSONRPCRequest, extra: MessageExtraInfo): Promise<{ answer: JSONRPCMessage; session?: LiveSession }> {
    const id = randomUUID();
    const tools = this.options.mcp?.tools;
    const session = await this.start(id, tools);
    const answer = (await session.transport.dispatch(init, extra))!;
    if (!isJSONRPCResultResponse(answer)) {
      await session.server.close();
      return { answer };
    }
    const state: McpSessionState = { id, created_at: new Date().toISOString(), initialize: (init.params ?? {}) as Record<string, unknown>, ...(tools !== undefined ? { tools } : {}) };
    try {
      await this.options.store.put(id, state, this.options.idleTtlMs);
    } catch (error) {
      await session.server.close();
      throw error;
    }
    this.live.set(id, session);
    return { answer, session };
  }

  /** A connected server and transport for session `id`. */
  private async start(id: string, tools: string | undefined): Promise<LiveSession> {
    if (this.closing) throw new McpHttpError(503, INTERNAL_ERROR, 'the server is shutting down');
    const base = this.options.mcp;
    // A session made by a replica with another tool spec keeps its own spec here.
    const mcpOptions = tools !== undefined && tools !== base?.tools ? { ...(base ?? {}), tools } : base;
    // The session's overlay is bound to its id, so /v1 calls naming it read the same buffers.
    const server = this.options.host.newMcpServer({ ...(mcpOptions ?? {}), overlaySession: id });
    const transport = new SessionTransport(id);
    await server.connect(transport);
    return { id, server, transport, lastSeen: Date.now() };
  }

  /**
   * The live session for `id` after restarting its idle clock, rebuilt from the store when this
   * process has no server for it; undefined (and any local server closed) when the store does not
   * know it.
   */
  private async resolve(id: string): Promise<LiveSession | undefined> {
    const exists = await this.options.store.touch(id, this.options.idleTtlMs);
    if (!exists) {
      await this.evict(id);
      return undefined;
    }
    const local = this.live.get(id);
    if (local && !local.transport.isClosed) {
      local.lastSeen = Date.now();
      return local;
    }
    let pending = this.rebuilding.get(id);
    if (!pending) {
      pending = this.rebuild(id).finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, pending);
    }
    try {
      return await pending;
    } catch (error) {
      if (error instanceof SessionGone) return undefined;
      throw error;
    }
  }

  /** Re-creates a session another replica (or an earlier server here) made: replay initialize and initialized. */
  private async rebuild(id: string): Promise<LiveSession> {
    const state = await this.options.store.get(id);
    if (!state) throw new SessionGone();
    const session = await this.start(id, state.tools);
    const replayed = await session.transport.dispatch({ jsonrpc: '2.0', id: `gortex-replay-${randomUUID()}`, method: 'initialize', params: state.initialize } as JSONRPCMessage);
    if (!replayed || !isJSONRPCResultResponse(replayed)) {
      await session.server.close();
      const reason = replayed && isJSONRPCErrorResponse(replayed) ? replayed.error.message : 'no answer';
      throw new McpHttpError(500, INTERNAL_ERROR, `the stored session could not be rebuilt: initialize failed (${reason})`);
    }
    await session.transport.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    this.live.set(id, session);
    return session;
  }

  /** Closes this process's server of session `id` (its stream too); the stored state is left alone. */
  private async evict(id: string): Promise<void> {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    // Server.close() closes the transport, whose onclose runs the server's cleanup (resource subscriptions).
    await session.server.close().catch(() => undefined);
  }

  /** Drops idle local servers; one with an open stream stays while the store still has its session. */
  private async sweep(): Promise<void> {
    const ttl = this.options.idleTtlMs;
    if (ttl === undefined) return;
    const now = Date.now();
    for (const session of [...this.live.values()]) {
      // A call still running is activity: its session is not idle.
      if (session.lastSeen + ttl > now || session.transport.busy) continue;
      if (session.transport.stream && !session.transport.stream.closed) {
        const state = await this.options.store.get(session.id).catch(() => undefined);
        if (state) continue;
      }
      await this.evict(session.id);
    }
  }

  /** 404 before dispatch: requests get `-32001` (an array for a batch), other frames no reply, and no session id header. */
  private notFound(res: Response, requests: JSONRPCRequest[], batch: boolean): void {
    res.removeHeader('Mcp-Session-Id');
    const message = 'session not found: the Mcp-Session-Id is unknown or expired; initialize a new session (without Mcp-Session-Id) and retry';
    const bodies = requests.map((r) => rpcError(r.id, SESSION_NOT_FOUND, message));
    if (bodies.length === 0) {
      res.status(404).end();
      return;
    }
    res.status(404).json(batch ? bodies : bodies[0]);
  }

  /** A failure outside JSON-RPC dispatch (the store is down, a rebuild failed): JSON-RPC error body, no stack. */
  private failed(res: Response, error: unknown): void {
    if (error instanceof McpHttpError) {
      res.status(error.status).json(rpcError(null, error.code, error.message));
      return;
    }
    res.status(503).json(rpcError(null, INTERNAL_ERROR, `session store unavailable: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** An initialize answer with the idle horizon added to its result's `_meta`. */
  private withTtlMeta(request: JSONRPCRequest, answer: JSONRPCMessage): JSONRPCMessage {
    const ttl = this.options.idleTtlMs;
    if (request.method !== 'initialize' || ttl === undefined || !isJSONRPCResultResponse(answer)) return answer;
    const result = answer.result as Record<string, unknown> & { _meta?: Record<string, unknown> };
    return { ...answer, result: { ...result, _meta: { ...(result._meta ?? {}), [TTL_META_KEY]: ttlSeconds(ttl) } } } as JSONRPCMessage;
  }
}

/** The store no longer has a session being rebuilt. */
class SessionGone extends Error {}

/** A frame's top-level `id` when it can correlate an error, else null. */
function topLevelId(frame: unknown): string | number | null {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return null;
  const id = (frame as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
