/** Shared argument schemas and the declaration of tools answered by the Rust engine. */
import { z } from 'zod';
import type { QueryToolName } from '../engine/engine';
import { queryToolSchema, type InputSchema } from '../engine/tool-schemas';
import { defineTool, defined, type ToolCategory, type ToolDef } from './registry';

/** What a handler works on (the registry's context type). */
type ToolContext = Parameters<ToolDef['handler']>[0];

/** A symbol target: an id, an id without the repo prefix, a file path, `Owner.name` or a bare name. */
export const target = z
  .string()
  .describe('Symbol id, id without the repo prefix, file path, Owner.name or bare name (an ambiguous name lists ids to pick)');

/**
 * The zod shape of a generated input schema, one property at a time (`z.fromJSONSchema`), so the
 * registry can drop unknown keys, name a bad argument, and list the schema back with its
 * descriptions. Required arguments come first (the generated properties are in name order).
 */
export function shapeOf(input: InputSchema): z.ZodRawShape {
  const required = new Set(input.required ?? []);
  const properties = Object.entries(input.properties ?? {});
  const ordered = [...properties.filter(([name]) => required.has(name)), ...properties.filter(([name]) => !required.has(name))];
  return Object.fromEntries(
    ordered.map(([name, property]) => {
      const type = z.fromJSONSchema(property as Parameters<typeof z.fromJSONSchema>[0]);
      return [name, required.has(name) ? type : type.optional()];
    }),
  );
}

/** What a Rust-backed tool adds on the TypeScript side (most add nothing). */
export interface EngineToolExtras {
  /** Arguments only the TypeScript handler reads (not passed to the engine unless the handler does). */
  input?: z.ZodRawShape;
  /** A sentence appended to the engine's description (what the TypeScript handler adds). */
  note?: string;
  /** Runs the query (default: `ctx.engine.query(name, args)`). */
  handler?: (ctx: ToolContext, args: Record<string, unknown>) => unknown;
}

/**
 * A read-only tool answered by `Engine.query(name, args)`: its description and arguments come
 * from the schema generated from the Rust types (`ts/engine/generated/tool-schemas.json`).
 */
export function engineTool(name: QueryToolName, category: ToolCategory, extras: EngineToolExtras = {}): ToolDef {
  const schema = queryToolSchema(name);
  return defineTool({
    name,
    category,
    effect: 'read',
    description: extras.note ? `${schema.description} ${extras.note}` : schema.description,
    input: { ...shapeOf(schema.input), ...extras.input },
    handler: (ctx, args) => {
      const given = defined(args as Record<string, unknown>);
      return extras.handler ? extras.handler(ctx, given) : ctx.engine.query(name, given, { repo: ctx.repo });
    },
  });
}
