/** Calling a tool by name: validation, dispatch, and one error shape for every failure. */
import { QueryError } from '../engine/query';
import { ALL_TOOLS } from '../tools/index';
import { answersWhileWarming, parseToolArgs, ResultWithMeta, ToolInputError, type ToolDef } from '../tools/registry';
import { completeContext, type CallerTrust, type ToolContext } from '../workspace/context';

/** A failed call: a stable code and a message saying what to fix. */
export class ToolCallError extends Error {
  override name = 'ToolCallError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Tools that are not `control_write` yet keep what they change beyond the session, shared by every
 * caller of the machine: saved scopes (`<gortex home>/scopes.json`), the feedback that reorders
 * everyone's search results and the memories every later session recalls (the sidecar).
 */
const PERSISTING_TOOLS: ReadonlySet<string> = new Set(['save_scope', 'delete_scope', 'feedback', 'store_memory', 'save_note', 'edit_memory', 'forget_memory']);

/**
 * Whether a tool needs a trusted caller: it changes what the server serves (`control_write`:
 * track, untrack, re-index — the compact `workspace_admin` too), keeps something beyond the
 * session, writes files (`local_write`: the edit tools, the compact `edit` and `refactor`), or
 * talks to the outside world with the server's credentials (`external_write`: `post_review` and
 * the compact `publish_review`). Only trusted callers may call one (`CallerTrust`).
 */
export function isAdminTool(tool: Pick<ToolDef, 'name' | 'effect'>): boolean {
  return tool.effect === 'control_write' || tool.effect === 'local_write' || tool.effect === 'external_write' || PERSISTING_TOOLS.has(tool.name);
}

/**
 * The refusal of an admin tool to a caller that is not trusted (anonymous HTTP), or undefined when
 * the caller may call it. Checked at every dispatch (`callTool`), which every route passes: a tool
 * reached through the compact facade or another tool's `ctx.call` is refused as if called by name.
 */
export function adminRefusal(tool: Pick<ToolDef, 'name' | 'effect'>, trust: CallerTrust | undefined): ToolCallError | undefined {
  if (trust !== 'anonymous' || !isAdminTool(tool)) return undefined;
  return new ToolCallError(
    'not_available',
    `${tool.name} ${tool.effect === 'local_write' ? 'writes files' : tool.effect === 'external_write' ? 'posts to an outside service with the server\'s credentials' : 'changes what this server serves or keeps beyond the session'}, so HTTP callers need the server's bearer token: ` +
      'start the daemon with --http-auth-token <token> (or set GORTEX_DAEMON_HTTP_TOKEN) and send "Authorization: Bearer <token>", ' +
      'or use the socket (gortex track / untrack, or gortex mcp)',
  );
}

/**
 * The refusal of a file-writing tool in a session that said it will not write yet (planning mode,
 * or a workflow still exploring), or undefined when it may write.
 */
export function sessionWriteRefusal(tool: Pick<ToolDef, 'name' | 'effect'>, ctx: ToolContext): ToolCallError | undefined {
  if (tool.effect !== 'local_write') return undefined;
  const store = ctx.session?.store;
  if (store?.planning) {
    return new ToolCallError('planning_mode', `${tool.name} writes files and this session is in planning mode (no writes): call set_planning_mode with enabled: false to start editing`);
  }
  if (store?.workflowPhase === 'explore') {
    return new ToolCallError('workflow_phase', `${tool.name} writes files and this session's workflow is exploring: call workflow with action "advance" (to implement) before editing`);
  }
  return undefined;
}

/**
 * Runs tool `name` (from `tools`, default the registry) with raw (unvalidated) arguments. The
 * answer may be a `ResultWithMeta` (transports attach its meta). Throws `ToolCallError` on any failure.
 */
export async function callTool(
  ctx: ToolContext,
  name: string,
  rawArgs: unknown,
  tools: readonly ToolDef[] = ALL_TOOLS,
): Promise<unknown> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    throw new ToolCallError('invalid_argument', `unknown tool "${name}"; tools: ${tools.map((t) => t.name).join(', ')}`);
  }
  // A routing tool (the compact facade) is judged by the tool it routes to, whose dispatch is this one.
  const refused = tool.routes ? undefined : (adminRefusal(tool, ctx.trust) ?? sessionWriteRefusal(tool, ctx));
  if (refused) throw refused;
  try {
    const { args, ignored } = parseToolArgs(tool, rawArgs);
    // On a warming repository's provisional index, tools that need the whole graph wait for it.
    if (ctx.warming && !tool.routes && !answersWhileWarming(tool)) ctx = await completeContext(ctx);
    const answer = await tool.handler(ctx, args);
    // What the session read from disk joins its working set (`stale_refs`); an overlay's buffers are not the disk.
    if (!ctx.overlayFiles) ctx.session?.store?.workingSet.noteAnswer(ctx, tool.name, args, answer instanceof ResultWithMeta ? answer.result : answer);
    const block = ctx.warming && !tool.routes ? ctx.warming.block : undefined;
    if (ignored.length === 0 && block === undefined) return answer;
    // Reported, not fatal: a misspelt option must be visible in the answer it did not shape.
    // A partial answer says so first, in band, so no reader of the answer can miss it.
    const annotate = (result: unknown): unknown =>
      typeof result === 'object' && result !== null && !Array.isArray(result)
        ? { ...(block ? { warming: block } : {}), ...result, ...(ignored.length > 0 ? { _ignored_options: ignored } : {}) }
        : result;
    return answer instanceof ResultWithMeta ? new ResultWithMeta(annotate(answer.result), answer.meta) : annotate(answer);
  } catch (error) {
    if (error instanceof ToolCallError) throw error;
    if (error instanceof ToolInputError || error instanceof QueryError) throw new ToolCallError(error.code, error.message);
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolCallError('internal', `${name} failed: ${message}`);
  }
}
