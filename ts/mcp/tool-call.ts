/**
 * Answering one tool call the way every transport does: option split (format, budgets, cursors,
 * ETags), dispatch through the registry bounded in time and concurrency, JSON or GCX1 rendering,
 * the response ring, and the prompt-injection advisory. MCP `tools/call`, HTTP `POST /v1/tools/…`
 * and the daemon all answer through `answerToolCall`.
 */
import { ToolCallError } from '../tools/dispatch';
import { callScoped } from '../tools/workspace';
import { ResultWithMeta, type ToolContext, type ToolDef } from '../tools/registry';
import { encodeGcx } from '../wire/gcx';
import { securityAdvisory } from './screening';
import type { SessionStore } from './session-store';
import { callKey, etagOf, shape, ShapingError, SHAPING_KEYS, type ShapingOptions } from './shaping';

/** A tool call's answer in MCP `CallToolResult` shape. */
export interface ToolCallAnswer {
  isError?: true;
  content: { type: 'text'; text: string }[];
  _meta?: Record<string, unknown>;
}

/** A counting semaphore: at most `size` holders; others wait in order. */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** What answering a call needs from its transport. */
export interface ToolCallDeps {
  /** The context to run against (with the caller's session surface, when there is one). */
  context(): Promise<ToolContext>;
  /** The tool set names are looked up in. */
  tools: readonly ToolDef[];
  /** Render GCX1 when the call does not name a format. */
  gcxDefault: boolean;
  /** Bounds concurrent dispatches. */
  gate: Gate;
  /** Per-call bound in milliseconds (undefined: none). */
  timeoutMs: number | undefined;
  /** Where large answers are kept for re-cutting (MCP sessions only). */
  store?: SessionStore;
}

/** The slow-tool test hook (`GORTEX_TEST_HOOKS=1`, `GORTEX_TEST_SLOW_TOOL=name:ms`), off otherwise. */
function testDelay(tool: string): number {
  if (process.env.GORTEX_TEST_HOOKS !== '1') return 0;
  const [name, ms] = (process.env.GORTEX_TEST_SLOW_TOOL ?? '').split(':');
  return name === tool ? Number(ms) || 0 : 0;
}

/** A failed call in MCP shape: `code: message`. */
export function failedCall(error: ToolCallError): ToolCallAnswer {
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
}

/** Runs tool `name` with raw arguments (transport options included) and renders its answer. */
export async function answerToolCall(name: string, rawArgs: Record<string, unknown> | undefined, deps: ToolCallDeps): Promise<ToolCallAnswer> {
  // `format` is a transport option every tool accepts: `json` or `gcx` (GCX1).
  const { format, ...rest } = rawArgs ?? {};
  // Budgets, cursors and ETags apply to every tool's answer, not to the tool itself.
  const shaping: ShapingOptions = {};
  const args: Record<string, unknown> = {};
  // A tool that takes one of these options itself (read_file's max_bytes) keeps it.
  const own = new Set(Object.keys(deps.tools.find((t) => t.name === name)?.input ?? {}));
  for (const [k, v] of Object.entries(rest)) {
    if ((SHAPING_KEYS as readonly string[]).includes(k) && !own.has(k)) (shaping as Record<string, unknown>)[k] = v;
    else args[k] = v;
  }
  if (format !== undefined && format !== 'json' && format !== 'gcx') {
    return failedCall(new ToolCallError('invalid_argument', `format must be "json" or "gcx", got ${JSON.stringify(format)}`));
  }
  const gcx = format === 'gcx' || (format === undefined && deps.gcxDefault);
  const work = deps.gate.run(async () => {
    const delay = testDelay(name);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return callScoped(await deps.context(), name, args, deps.tools);
  });
  const { timeoutMs } = deps;
  let timer: NodeJS.Timeout | undefined;
  const bounded =
    timeoutMs === undefined
      ? work
      : Promise.race([
          work,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new ToolCallError('timeout', `${name} did not finish within ${timeoutMs} ms and was abandoned; the session keeps serving (GORTEX_MCP_TOOL_TIMEOUT raises the bound)`)),
              timeoutMs,
            );
          }),
        ]);
  // An abandoned call keeps running; its late failure must not become an unhandled rejection.
  work.catch(() => undefined);
  try {
    const answer = await bounded;
    const result = shape(answer instanceof ResultWithMeta ? answer.result : answer, shaping, callKey(name, args));
    const facade = answer instanceof ResultWithMeta ? (answer.meta.gortex_facade as { canonical_tool?: string } | undefined) : undefined;
    const text = gcx ? encodeGcx(facade?.canonical_tool ?? name, result) : JSON.stringify(result);
    const etag = etagOf(text);
    if (shaping.if_none_match !== undefined && shaping.if_none_match === etag) {
      return { content: [{ type: 'text', text: JSON.stringify({ not_modified: true, etag }) }], _meta: { etag } };
    }
    const advisory = securityAdvisory(args, text);
    // Large answers stay re-cuttable (ctx_grep, ctx_slice, …) by the handle in _meta.
    const handle = deps.store?.record(name, args, text, gcx ? undefined : result);
    const meta = {
      ...(answer instanceof ResultWithMeta ? answer.meta : {}),
      etag,
      ...(handle ? { response_handle: handle } : {}),
      ...(advisory ? { gortex_security: advisory } : {}),
    };
    return { content: [{ type: 'text', text }], _meta: meta };
  } catch (error) {
    if (error instanceof ShapingError) return failedCall(new ToolCallError('invalid_argument', error.message));
    return failedCall(error instanceof ToolCallError ? error : new ToolCallError('internal', error instanceof Error ? error.message : String(error)));
  } finally {
    if (timer) clearTimeout(timer);
  }
}
