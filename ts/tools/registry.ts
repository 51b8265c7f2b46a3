/**
 * The tool registry: every tool is defined once (name, category, effect, zod input, handler) and
 * every door — MCP, `gortex call`, later HTTP and the daemon — dispatches through it.
 */
import { z } from 'zod';
import type { Engine, IndexReport } from '../engine/engine';
import type { SessionStore } from '../mcp/session-store';
import type { Workspace } from './workspace';

/** What calling a tool may change. */
export type ToolEffect = 'read' | 'local_write' | 'session_write' | 'control_write' | 'external_write';

/** Functional families, for presets and prefix-style filtering. */
export type ToolCategory = 'nav' | 'read' | 'analysis' | 'admin';

/** The tool surface of one MCP session, for the tools that inspect or extend it. */
export interface SessionSurface {
  preset: string;
  mode: 'defer' | 'hide';
  /** Where the surface came from: `GORTEX_TOOLS`, `--tools`, `client-aware default` or `default`. */
  source: string;
  /** Names listed in `tools/list` right now. */
  live(): ReadonlySet<string>;
  /** Names this session may call (hide mode: the live set; defer mode: everything). */
  allowed(): ReadonlySet<string>;
  /** Adds tools to the live set and tells the client its list changed. */
  promote(names: readonly string[]): string[];
  /** The session's response ring, navigation cursor and feedback log (absent outside MCP). */
  store?: SessionStore;
}

/** What a handler works on: the engine and the repository the session is bound to. */
export interface ToolContext {
  engine: Engine;
  /** The repository key (its root path) for engine queries. */
  repo: string;
  /** The repository's root directory. */
  root: string;
  /** The calling MCP session's surface (absent for `gortex call`). */
  session?: SessionSurface;
  /** The latest index pass of this repository in this process (open or watcher refresh), when known. */
  lastIndex?: IndexReport;
  /** The repositories the session can reach (absent for `gortex call`). */
  workspace?: Workspace;
  /** Set when the repository is still warming up and this context serves a provisional index. */
  warming?: WarmingContext;
  /** Where a call that waits reports how far it has come (set when the caller asked for progress). */
  progress?: ProgressReporter;
}

/**
 * Reports the progress of a call that waits (for a warming repository): MCP
 * `notifications/progress` when the caller sent a progress token. Values only grow.
 */
export type ProgressReporter = (progress: number, total: number | undefined, message: string) => void;

/** The in-band `warming` block of an answer built on a provisional index. */
export interface WarmingBlock {
  repo: string;
  /** The warm-up phase of the repository when the call was answered. */
  phase: string;
  partial: true;
  /** Source files in the provisional index, of the files the walk admitted. */
  files_indexed: number;
  files_total: number;
  /** Epoch ms when the provisional index was last brought up to date. */
  indexed_at_ms: number;
  note: string;
}

/** A provisional context's warm-up: the block answers carry and the way to the complete index. */
export interface WarmingContext {
  block: WarmingBlock;
  /** The complete context once the repository is ready (bounded wait, reported to `progress`; throws a `warming` ToolCallError). */
  complete(progress?: ProgressReporter): Promise<ToolContext>;
}

/** `ctx` itself, or — when it serves a warming repository's provisional index — the complete context (bounded wait). */
export async function completeContext(ctx: ToolContext): Promise<ToolContext> {
  if (!ctx.warming) return ctx;
  const { warming, ...rest } = ctx;
  return { ...rest, ...(await warming.complete(ctx.progress)) };
}

/**
 * Whether a tool answers from a provisional index while its repository warms up. Analyses wait
 * for the complete graph: a partial one would call live code dead or a change safe. So do tools
 * that change anything.
 */
export function answersWhileWarming(tool: Pick<ToolDef, 'category' | 'effect'>): boolean {
  return tool.category !== 'analysis' && (tool.effect === 'read' || tool.category === 'admin');
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

/** The repository's name (the `<repo>` of its ids) in a context. */
export function repoNameOf(ctx: ToolContext): string {
  return ctx.lastIndex?.repo ?? ctx.engine.stats(ctx.repo).name;
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
    return `${where}: ${issue.message}`;
  });
  throw new ToolInputError('invalid_argument', `${tool.name}: ${problems.join('; ')}`);
}

/** Drops undefined values so optional arguments are simply absent on the wire. */
export function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
