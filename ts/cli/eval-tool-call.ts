/** The tool call the evals are handed: a registry tool on an indexed repository, through the call dispatch. */
import type { Engine } from '../engine/engine';

/** Runs `tool` with `args` on the repository at `root` of `engine` and returns its result (metadata unwrapped). */
export async function localToolCall(engine: Engine, root: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
  const { callTool } = await import('../calls/dispatch');
  const { ResultWithMeta } = await import('../tools/registry');
  const { ALL_TOOLS } = await import('../tools/index');
  const answer = await callTool({ engine, repo: root, root }, tool, args, ALL_TOOLS);
  return answer instanceof ResultWithMeta ? answer.result : answer;
}
