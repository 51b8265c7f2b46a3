/** Calling a tool by name: validation, dispatch, and one error shape for every failure. */
import { QueryError } from '../engine/query';
import { ALL_TOOLS } from '../tools/index';
import { answersWhileWarming, parseToolArgs, ResultWithMeta, ToolInputError, type ToolDef } from '../tools/registry';
import { completeContext, type ToolContext } from '../workspace/context';

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
  try {
    const { args, ignored } = parseToolArgs(tool, rawArgs);
    // On a warming repository's provisional index, tools that need the whole graph wait for it.
    if (ctx.warming && !tool.routes && !answersWhileWarming(tool)) ctx = await completeContext(ctx);
    const answer = await tool.handler(ctx, args);
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
