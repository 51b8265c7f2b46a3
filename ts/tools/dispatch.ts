/** Calling a tool by name: validation, dispatch, and one error shape for every failure. */
import { QueryError } from '../engine/query';
import { ALL_TOOLS, findTool } from './index';
import { parseToolArgs, ToolInputError, type ToolContext } from './registry';

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

/** Runs tool `name` with raw (unvalidated) arguments. Throws `ToolCallError` on any failure. */
export async function callTool(ctx: ToolContext, name: string, rawArgs: unknown): Promise<unknown> {
  const tool = findTool(name);
  if (!tool) {
    throw new ToolCallError('invalid_argument', `unknown tool "${name}"; tools: ${ALL_TOOLS.map((t) => t.name).join(', ')}`);
  }
  try {
    const { args, ignored } = parseToolArgs(tool, rawArgs);
    const result = await tool.handler(ctx, args);
    if (ignored.length > 0 && typeof result === 'object' && result !== null && !Array.isArray(result)) {
      // Reported, not fatal: a misspelt option must be visible in the answer it did not shape.
      return { ...result, _ignored_options: ignored };
    }
    return result;
  } catch (error) {
    if (error instanceof ToolCallError) throw error;
    if (error instanceof ToolInputError || error instanceof QueryError) throw new ToolCallError(error.code, error.message);
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolCallError('internal', `${name} failed: ${message}`);
  }
}
