/**
 * The tool registry: every tool is defined once (name, category, effect, zod input, handler) and
 * every door — MCP, `gortex call`, later HTTP and the daemon — dispatches through it.
 */
import { z } from 'zod';
import type { Engine } from '../engine/engine';

/** What calling a tool may change. */
export type ToolEffect = 'read' | 'local_write' | 'session_write' | 'control_write' | 'external_write';

/** Functional families, for presets and prefix-style filtering. */
export type ToolCategory = 'nav' | 'read' | 'analysis' | 'admin';

/** What a handler works on: the engine and the repository the session is bound to. */
export interface ToolContext {
  engine: Engine;
  /** The repository key (its root path) for engine queries. */
  repo: string;
  /** The repository's root directory. */
  root: string;
}

/** One tool. `input` is a zod object shape; handlers receive the parsed arguments. */
export interface ToolDef<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  category: ToolCategory;
  effect: ToolEffect;
  /** One or two sentences an agent reads to decide whether to call it. */
  description: string;
  input: S;
  handler: (ctx: ToolContext, args: z.infer<z.ZodObject<S>>) => unknown | Promise<unknown>;
}

/** Declares a tool with its argument types inferred from the shape. */
export function defineTool<S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/** A tool call that failed in a way the caller can fix (bad arguments, unknown target). */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Validates raw arguments against a tool's schema; unknown keys are refused by name. */
export function parseToolArgs<S extends z.ZodRawShape>(tool: ToolDef<S>, raw: unknown): z.infer<z.ZodObject<S>> {
  const parsed = z.strictObject(tool.input).safeParse(raw ?? {});
  if (parsed.success) return parsed.data as z.infer<z.ZodObject<S>>;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${where}: ${issue.message}`;
  });
  throw new ToolInputError('invalid_argument', `${tool.name}: ${problems.join('; ')}`);
}

/** Drops undefined values so optional arguments are simply absent on the wire. */
export function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
