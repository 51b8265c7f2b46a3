/** Shared argument schemas and the pass-through handler of tools answered by the Rust engine. */
import { z } from 'zod';
import { defineTool, defined, type ToolCategory, type ToolDef } from './registry';

/** A symbol target: an id, an id without the repo prefix, a file path, `Owner.name` or a bare name. */
export const target = z
  .string()
  .describe('Symbol id, id without the repo prefix, file path, Owner.name or bare name (an ambiguous name lists ids to pick)');
/** Row cap. */
export const limit = z.number().int().optional().describe('At most this many rows (1–1000)');
/** Weakest provenance tier to keep. */
export const minTier = z
  .string()
  .optional()
  .describe('Weakest provenance kept: lsp_resolved, lsp_dispatch, ast_resolved, ast_inferred, text_matched, speculative');
/** Whether test code counts. */
export const includeTests = z.boolean().optional().describe('Count test code (default true)');
/** One value, a comma list, or an array. */
export const oneOrMany = z.union([z.string(), z.array(z.string())]);

/** A read-only tool answered by `Engine.query(name, args)`. */
export function engineTool<S extends z.ZodRawShape>(
  name: string,
  category: ToolCategory,
  description: string,
  input: S,
): ToolDef<S> {
  return defineTool({
    name,
    category,
    effect: 'read',
    description,
    input,
    handler: (ctx, args) => ctx.engine.query(name, defined(args as Record<string, unknown>), { repo: ctx.repo }),
  });
}
