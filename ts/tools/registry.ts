/**
 * The tool registry's vocabulary: every tool is defined once (name, category, effect, zod input,
 * handler); `ts/calls/` runs them for every door.
 */
import { realpathSync } from 'node:fs';
import { z } from 'zod';
import type { ToolContext } from '../workspace/context';
import { ToolInputError } from '../support/tool-input-error';

export { ToolInputError };

/** What calling a tool may change. */
export type ToolEffect = 'read' | 'local_write' | 'session_write' | 'control_write' | 'external_write';

/** Functional families (the description's twelve), for presets, `tool_profile` and prefix-style filtering. */
export const TOOL_CATEGORIES = ['nav', 'read', 'edit', 'analysis', 'review', 'pr', 'memory', 'overlay', 'subscription', 'enrich', 'workspace', 'admin'] as const;

/** One functional family. */
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** Families whose tools are about the session or the workspace, not one repository: never narrowed, answered while warming. */
export function isSessionLevel(tool: Pick<ToolDef, 'category'>): boolean {
  return tool.category === 'admin' || tool.category === 'workspace';
}

/**
 * Whether a tool answers from a provisional index while its repository warms up. Analyses wait
 * for the complete graph: a partial one would call live code dead or a change safe. So do tools
 * that change anything.
 */
export function answersWhileWarming(tool: Pick<ToolDef, 'category' | 'effect'>): boolean {
  return tool.category !== 'analysis' && (tool.effect === 'read' || isSessionLevel(tool));
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
  /** The handler only routes to other registry tools (the compact facade): their own rules apply. */
  routes?: true;
}

/** A result plus MCP `_meta` entries a transport should attach (e.g. the facade's routing record). */
export class ResultWithMeta {
  constructor(
    readonly result: unknown,
    readonly meta: Record<string, unknown>,
  ) {}
}

/**
 * The repository's name (the `<repo>` of its ids) in a context. Read from the loaded repos'
 * summaries (constant time each), not `stats`, which counts the whole graph: a context tool asks
 * for the name on every search it runs, and `explore` runs dozens.
 */
export function repoNameOf(ctx: ToolContext): string {
  if (ctx.lastIndex) return ctx.lastIndex.repo;
  const loaded = ctx.engine.repos();
  const byName = loaded.find((r) => r.name === ctx.repo);
  if (byName) return byName.name;
  const root = realRoot(ctx.repo);
  return loaded.find((r) => r.root === root)?.name ?? ctx.engine.stats(ctx.repo).name;
}

/** `path` with symlinks resolved, the way the engine keys loaded repos by root (itself when it does not exist). */
function realRoot(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Runs another tool from inside a handler through the pipeline's dispatch (`ctx.call`). */
export function callAnother(ctx: ToolContext, tool: string, args: Record<string, unknown>): Promise<unknown> {
  if (!ctx.call) throw new ToolInputError('internal', `${tool} was called outside the call pipeline (no ctx.call)`);
  return ctx.call(tool, args);
}

/** Declares a tool with its argument types inferred from the shape. */
export function defineTool<S extends z.ZodRawShape>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/** Parsed arguments plus the keys the tool does not take (dropped, and reported to the caller). */
export interface ParsedArgs<T> {
  args: T;
  ignored: string[];
}

/**
 * Validates raw arguments against a tool's schema. Unknown keys are dropped and returned in
 * `ignored` (`GORTEX_TOOL_ARG_GUARD=reject` refuses them instead); wrong types and missing
 * required arguments are refused with the argument named.
 */
export function parseToolArgs<S extends z.ZodRawShape>(tool: ToolDef<S>, raw: unknown): ParsedArgs<z.infer<z.ZodObject<S>>> {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ToolInputError('invalid_argument', `${tool.name}: arguments must be a JSON object`);
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const ignored = Object.keys(given).filter((k) => !(k in tool.input)).sort();
  if (ignored.length > 0 && process.env.GORTEX_TOOL_ARG_GUARD === 'reject') {
    throw new ToolInputError(
      'invalid_argument',
      `${tool.name}: unknown argument${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')}; accepted: ${Object.keys(tool.input).join(', ') || 'none'}`,
    );
  }
  const parsed = z.object(tool.input).safeParse(given);
  if (parsed.success) return { args: parsed.data as z.infer<z.ZodObject<S>>, ignored };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    // A value outside an enum names the value and the accepted ones, the way the engine does.
    if (issue.code === 'invalid_value' && issue.path.length > 0) {
      const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], given);
      return `unknown ${where} ${JSON.stringify(value)}; expected one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    }
    return `${where}: ${issue.message}`;
  });
  throw new ToolInputError('invalid_argument', `${tool.name}: ${problems.join('; ')}`);
}

/** Drops undefined values so optional arguments are simply absent on the wire. */
export function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
