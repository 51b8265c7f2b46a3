/**
 * The one call pipeline every door enters — MCP stdio, the daemon socket, Streamable HTTP `/mcp`,
 * `POST /v1/tools/{name}`, `gortex call` and the CLI verbs — so a call answers the same way
 * whichever door it came through. Stages, in order: the arguments' shape and the pipeline's own
 * options (`format`, budgets, cursors, ETags), tool lookup in the session's family, the session's
 * surface, roster routing, then under the concurrency gate and the deadline: the context, scope
 * narrowing (`scope.ts`), validation and the handler (`dispatch.ts`); then paging, rendering
 * (JSON or GCX1), the ETag check, prompt-injection screening, the response ring and `_meta`.
 * Doors only translate their wire format to a `CallRequest` and a `CallOutcome` back.
 */
import { ResultWithMeta, type ToolDef } from '../tools/registry';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../support/json-depth';
import { encodeGcx } from '../wire/gcx';
import type { CallerTrust, ProgressReporter, SessionSurface, ToolContext } from '../workspace/context';
import type { SessionChannels } from '../workspace/channels';
import { throughOverlay, type OverlayBinding } from '../workspace/overlays';
import type { Workspace } from '../workspace/workspace';
import { adminRefusal, ToolCallError } from './dispatch';
import { Gate, serverLimits, type CallLimits } from './limits';
import { callScoped, withCalls } from './scope';
import { securityAdvisory } from './screening';
import { bookSavings } from '../tools/savings';
import { callKey, etagOf, shape, ShapingError, SHAPING_KEYS, type ShapingOptions } from './shaping';
import { callableTools, findTool, similarToolNames } from './surface';

/** How an answer is written: JSON, or GCX1 (tab-separated rows under a header). */
export type CallFormat = 'json' | 'gcx';

/** One tool call as a door hands it over. */
export interface CallRequest {
  tool: string;
  /**
   * The raw arguments: the tool's own plus the pipeline's options (`format`, `max_bytes`,
   * `max_tokens`, `cursor`, `if_none_match`, `repo`/`project`/`scope`, and `workspace` when the
   * caller routes).
   */
  args?: unknown;
  /** The door's format choice (`--format`, `?format=`), used when the arguments name none. */
  format?: CallFormat;
  /** Where a call that waits (a warming repository) reports progress. */
  progress?: ProgressReporter;
}

/** What a door knows about who is calling. */
export interface Caller {
  /** The repository context to answer from (asked once per call, inside the gate). */
  context(options: { progress?: ProgressReporter }): Promise<ToolContext>;
  /** The caller's MCP session surface; absent: every tool is callable, names resolve in the registry first. */
  session?: SessionSurface;
  /** The repositories the caller can reach (multi-repo tools, `repo`/`project`/`scope`). */
  workspace?: Workspace;
  /** Answer in GCX1 when neither the arguments nor the door name a format. */
  gcxDefault?: boolean;
  /**
   * Whether the caller may call admin tools (`CallerTrust`), set by the door: HTTP sets it on every
   * call (`trusted` only with the server's bearer token); absent: trusted, as the socket, stdio and
   * the CLI are — they already reach the user's files.
   */
  trust?: CallerTrust;
  /**
   * Routes a call to another gortex server (the daemon's roster): its outcome, or undefined to
   * answer here. When set, the `workspace` argument is the routing key and never reaches a tool.
   */
  route?: (tool: string, args: Record<string, unknown>, workspace: string | undefined, format: CallFormat) => Promise<CallOutcome | undefined>;
  /** The caller's overlay session: its calls read through the session's active branch (`ts/workspace/overlays.ts`). */
  overlay?: OverlayBinding;
  /** The caller's push channels (`subscribe_*` tools), when its door can push notifications. */
  channels?: SessionChannels;
}

/** A call that was answered. `text` is the answer as written (JSON or GCX1). */
export interface CallSuccess {
  ok: true;
  tool: string;
  format: CallFormat;
  text: string;
  /** `etag`, `response_handle`, `gortex_facade`, `gortex_security`, `gortex_routed_to`, … */
  meta: Record<string, unknown>;
}

/** A call that failed: a stable code and a message saying what to fix. */
export interface CallFailure {
  ok: false;
  tool: string;
  code: string;
  message: string;
  meta: Record<string, unknown>;
}

/** Every answer the pipeline gives. */
export type CallOutcome = CallSuccess | CallFailure;

/** A failure outcome. */
export function failure(tool: string, code: string, message: string, meta: Record<string, unknown> = {}): CallFailure {
  return { ok: false, tool, code, message, meta };
}

/** The outcome's answer as a value: the parsed JSON of a JSON answer, the text of a GCX1 one. */
export function outcomeValue(outcome: CallSuccess): unknown {
  return outcome.format === 'json' ? JSON.parse(outcome.text) : outcome.text;
}

/** The slow-tool test hook (`GORTEX_TEST_HOOKS=1`, `GORTEX_TEST_SLOW_TOOL=name:ms`), off otherwise. */
function testDelay(tool: string): number {
  if (process.env.GORTEX_TEST_HOOKS !== '1') return 0;
  const [name, ms] = (process.env.GORTEX_TEST_SLOW_TOOL ?? '').split(':');
  return name === tool ? Number(ms) || 0 : 0;
}

/** The pipeline's options split off the arguments (a tool that takes one of them itself keeps it). */
function splitOptions(tool: ToolDef, args: Record<string, unknown>): { toolArgs: Record<string, unknown>; shaping: ShapingOptions; format: unknown } {
  const { format, ...rest } = args;
  const shaping: ShapingOptions = {};
  const toolArgs: Record<string, unknown> = {};
  const own = new Set(Object.keys(tool.input));
  for (const [k, v] of Object.entries(rest)) {
    if ((SHAPING_KEYS as readonly string[]).includes(k) && !own.has(k)) (shaping as Record<string, unknown>)[k] = v;
    else toolArgs[k] = v;
  }
  return { toolArgs, shaping, format };
}

/** The unknown-tool failure, with the names closest to what was asked. */
function unknownTool(name: string, caller: Caller): CallFailure {
  const near = similarToolNames(name, caller.session?.family);
  const hint = near.length > 0 ? ` (did you mean ${near.map((n) => `"${n}"`).join(', ')}?)` : '';
  return failure(name, 'tool_not_found', `unknown tool "${name}"${hint}; tools/list, GET /v1/tools or gortex call --list shows the tools`);
}

/** Why a session may not call a tool it knows. */
function notOnSurface(name: string, session: SessionSurface): CallFailure {
  return failure(
    name,
    'not_available',
    `${name} is not on this session's "${session.preset}" tool surface (mode ${session.mode}: tools outside it are blocked); start gortex mcp with --tools (or GORTEX_TOOLS) naming a preset or tools that include it`,
  );
}

/** One pipeline: its concurrency gate and deadline (one per session, or per HTTP host). */
export class CallPipeline {
  private readonly gate: Gate;
  private readonly timeoutMs: number | undefined;

  constructor(limits: CallLimits = serverLimits()) {
    this.gate = new Gate(limits.concurrency);
    this.timeoutMs = limits.timeoutMs;
  }

  /** Answers one call. Never throws: every failure is a `CallFailure`. */
  async call(request: CallRequest, caller: Caller): Promise<CallOutcome> {
    const name = request.tool;
    try {
      return await this.answer(request, caller);
    } catch (error) {
      if (error instanceof ToolCallError) return failure(name, error.code, error.message);
      if (error instanceof ShapingError) return failure(name, 'invalid_argument', error.message);
      return failure(name, 'internal', `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async answer(request: CallRequest, caller: Caller): Promise<CallOutcome> {
    const name = request.tool;
    const raw = request.args ?? {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return failure(name, 'invalid_argument', `${name}: arguments must be a JSON object, got ${Array.isArray(raw) ? 'an array' : typeof raw}`);
    }
    // Before anything recurses over them (validation, scope, rendering): doors that parse JSON
    // check this themselves, arguments that arrive parsed (CLI, control requests) only here.
    if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) return failure(name, 'invalid_argument', `${name}: ${tooDeepMessage('the argument object')}`);
    const family = caller.session?.family ?? 'registry';
    const tool = findTool(name, family);
    if (!tool) return unknownTool(name, caller);
    if (caller.session && !caller.session.allowed().has(name)) return notOnSurface(name, caller.session);
    let args = raw as Record<string, unknown>;
    if (caller.route) {
      // Another server answers a routed call with this server's credentials, not the caller's.
      const refused = adminRefusal(tool, caller.trust);
      if (refused) return failure(name, refused.code, refused.message);
      const { workspace, ...rest } = args;
      const routedFormat = rest.format === 'gcx' || rest.format === 'json' ? rest.format : this.formatOf(request, caller, undefined);
      const { format: _format, ...forwarded } = rest;
      const routed = await caller.route(name, forwarded, typeof workspace === 'string' ? workspace : undefined, routedFormat);
      if (routed) return routed;
      args = rest;
    }
    const { toolArgs, shaping, format: asked } = splitOptions(tool, args);
    if (asked !== undefined && asked !== 'json' && asked !== 'gcx') {
      return failure(name, 'invalid_argument', `format must be "json" or "gcx", got ${JSON.stringify(asked)}`);
    }
    const format = this.formatOf(request, caller, asked);
    const tools = callableTools(family);
    let used: ToolContext | undefined;
    const work = this.gate.run(async () => {
      const delay = testDelay(name);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const ctx = await withPipeline(await caller.context(request.progress ? { progress: request.progress } : {}), caller, request.progress, tool);
      used = ctx;
      return callScoped(ctx, name, toolArgs, tools);
    });
    const answer = await this.bounded(name, work);
    const value = answer instanceof ResultWithMeta ? answer.result : answer;
    const result = shape(value, shaping, callKey(name, toolArgs));
    const facade = answer instanceof ResultWithMeta ? (answer.meta.gortex_facade as { canonical_tool?: string } | undefined) : undefined;
    const text = format === 'gcx' ? encodeGcx(facade?.canonical_tool ?? name, result) : JSON.stringify(result);
    const etag = etagOf(text);
    if (shaping.if_none_match !== undefined && shaping.if_none_match === etag) {
      return { ok: true, tool: name, format: 'json', text: JSON.stringify({ not_modified: true, etag }), meta: { etag } };
    }
    bookSavings(used, facade?.canonical_tool ?? name, result, text, caller.session?.store);
    const advisory = securityAdvisory(toolArgs, format === 'gcx' ? { format, text } : { format, value: result });
    // Large answers stay re-cuttable (ctx_grep, ctx_slice, …) by the handle in _meta.
    const handle = caller.session?.store?.record(name, toolArgs, text, format === 'gcx' ? undefined : result);
    const meta = {
      ...(answer instanceof ResultWithMeta ? answer.meta : {}),
      etag,
      ...(handle ? { response_handle: handle } : {}),
      ...(advisory ? { gortex_security: advisory } : {}),
    };
    return { ok: true, tool: name, format, text, meta };
  }

  /** The format a call is answered in: its `format` argument, else the door's, else the caller's default. */
  private formatOf(request: CallRequest, caller: Caller, asked: unknown): CallFormat {
    if (asked === 'json' || asked === 'gcx') return asked;
    return request.format ?? (caller.gcxDefault ? 'gcx' : 'json');
  }

  /** `work` bounded by the deadline; an abandoned call keeps running, its late failure swallowed. */
  private async bounded<T>(name: string, work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    const { timeoutMs } = this;
    if (timeoutMs === undefined) return work;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new ToolCallError('timeout', `${name} did not finish within ${timeoutMs} ms and was abandoned; the session keeps serving (GORTEX_MCP_TOOL_TIMEOUT raises the bound)`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
}

/**
 * The context a handler sees: the repository's, plus the caller's session, workspace, progress
 * and overlay (read through when the session's active branch overlays this repository), and
 * `call`, which runs another registry tool through the same scope and dispatch stages.
 */
async function withPipeline(base: ToolContext, caller: Caller, progress: ProgressReporter | undefined, tool: ToolDef): Promise<ToolContext> {
  const ctx: ToolContext = {
    ...base,
    ...(caller.session ? { session: caller.session } : {}),
    ...(caller.workspace ? { workspace: caller.workspace } : {}),
    ...(progress ? { progress } : {}),
    ...(caller.trust ? { trust: caller.trust } : {}),
    ...(caller.overlay ? { overlay: caller.overlay } : {}),
    ...(caller.channels ? { channels: caller.channels } : {}),
  };
  // The overlay tools manage the overlay (and compare sides) themselves.
  return withCalls(tool.category === 'overlay' ? ctx : await throughOverlay(ctx));
}
