/** Driving tool families in-process, through the same `callTool` door every transport uses. */
import { Engine } from '../../ts/engine/engine';
import { callTool, ToolCallError } from '../../ts/calls/dispatch';
import type { ToolDef } from '../../ts/tools/registry';
import type { ToolContext } from '../../ts/workspace/context';
import { tempHome } from './repo';

/** A tool context over a fresh engine that indexed `root` (which must parse cleanly). */
export async function openToolContext(root: string): Promise<ToolContext> {
  const engine = new Engine({ home: tempHome(), threads: 2 });
  const report = await engine.indexRepo(root);
  expect(report.failures).toEqual([]);
  return { engine, repo: root, root };
}

/** `call(ctx, name, args)` and `refusal(ctx, name, args)` bound to one family of tools. */
export function toolCaller(tools: readonly ToolDef[]): {
  call: <T = any>(ctx: ToolContext, name: string, args: Record<string, unknown>) => Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
  refusal: (ctx: ToolContext, name: string, args: Record<string, unknown>) => Promise<{ code: string; message: string }>;
} {
  const call = async <T,>(ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<T> =>
    (await callTool(ctx, name, args, tools)) as T;
  const refusal = async (ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<{ code: string; message: string }> => {
    try {
      await call(ctx, name, args);
    } catch (error) {
      if (error instanceof ToolCallError) return { code: error.code, message: error.message };
      throw error;
    }
    throw new Error(`${name} accepted ${JSON.stringify(args)}`);
  };
  return { call, refusal };
}
