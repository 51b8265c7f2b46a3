/**
 * The task-aware context family: `smart_context`, `plan_turn`, `prefetch_context`,
 * `get_untested_symbols` and `export_context`, composed over explore's ranking, the engine's
 * graph queries and the test-target finder.
 */
import { z } from 'zod';
import { ContextReader } from './context-common';
import type { CoverageGapsResult } from '../engine/engine';
import { BUNDLE_BUDGET, exportContext, prefetch, untestedRows } from './context-smart-bundle';
import { oneOfIdsOrTask, requireTask } from './context-smart-pack';
import { planTurn, SMART_BUDGET, smartContext } from './context-smart-task';
import { defineTool, ToolInputError } from './registry';

/** Task text as every tool of the family takes it. */
const task = z.string().min(1).max(20000);
/** Symbol ids a bundle is built from. */
const ids = z.array(z.string().min(1)).min(1).max(20).describe('1–20 symbols: ids, ids without the repo prefix, Owner.name or bare names');
/** A bundle budget in tokens. */
const bundleBudget = (dflt: number): z.ZodOptional<z.ZodNumber> =>
  z
    .number()
    .int()
    .min(BUNDLE_BUDGET.min)
    .max(BUNDLE_BUDGET.max)
    .optional()
    .describe(`Estimated tokens of the answer, ${BUNDLE_BUDGET.min}–${BUNDLE_BUDGET.max} (default ${dflt}); sources are cut first, then rows`);

/** The task-aware context family. */
export const smartTools = [
  defineTool({
    name: 'smart_context',
    category: 'nav',
    effect: 'read',
    description:
      'Task-aware working set for an edit in one call: the top-ranked symbols with source clustered by file, plus a blast_radius (dependents 1–2 hops, covering tests with run commands, caveats such as no covering tests found). estimate: true returns section sizes only; every answer has an etag for if_none_match.',
    input: {
      task: task.describe('The task in your own words, or the bug report / stack trace as pasted'),
      token_budget: z
        .number()
        .int()
        .min(SMART_BUDGET.min)
        .max(SMART_BUDGET.max)
        .optional()
        .describe(`Estimated tokens of the answer, ${SMART_BUDGET.min}–${SMART_BUDGET.max} (default ${SMART_BUDGET.default})`),
      estimate: z.boolean().optional().describe('Only report tokens per section (no bodies) and whether the pack fits'),
      if_none_match: z.string().min(1).optional().describe('The etag of an earlier answer: an unchanged pack answers {not_modified: true, etag}'),
    },
    handler: (ctx, args) =>
      smartContext(new ContextReader(ctx), {
        task: requireTask('smart_context', args.task),
        token_budget: args.token_budget ?? SMART_BUDGET.default,
        estimate: args.estimate ?? false,
        ...(args.if_none_match === undefined ? {} : { if_none_match: args.if_none_match }),
      }),
  }),
  defineTool({
    name: 'plan_turn',
    category: 'nav',
    effect: 'read',
    description:
      'Opening-move router (~200 tokens): from a task description, the ranked next calls with arguments filled in (explore, the top hit’s source, callers or usages, test targets), chosen by what the text contains (names, paths, stack traces, rename/fix/test).',
    input: { task: task.describe('The task as the user stated it') },
    handler: (ctx, args) => planTurn(new ContextReader(ctx), requireTask('plan_turn', args.task)),
  }),
  defineTool({
    name: 'prefetch_context',
    category: 'read',
    effect: 'read',
    description:
      'Symbols likely needed next, under a token budget: for ids, their callees with source and their callers with signatures; for a task, explore’s top symbols with source. Pass exactly one of ids or task.',
    input: {
      task: task.optional().describe('Free task text (instead of ids)'),
      ids: ids.optional(),
      token_budget: bundleBudget(BUNDLE_BUDGET.prefetch),
    },
    handler: (ctx, args) => {
      oneOfIdsOrTask('prefetch_context', args);
      return prefetch(new ContextReader(ctx), {
        ...(args.task === undefined ? {} : { task: args.task }),
        ...(args.ids === undefined ? {} : { ids: args.ids }),
        token_budget: args.token_budget ?? BUNDLE_BUDGET.prefetch,
      });
    },
  }),
  defineTool({
    name: 'get_untested_symbols',
    category: 'analysis',
    effect: 'read',
    description:
      'Functions and methods no test reaches (no test caller within two hops, no test file depending on their file), test code excluded, riskiest (highest fan-in) first.',
    input: {
      path: z.string().optional().describe('Only files under this repository path prefix'),
      kind: z.enum(['function', 'method']).optional().describe('Only functions or only methods (default both)'),
      limit: z.number().int().min(1).max(1000).optional().describe('Rows returned, 1–1000 (default 50)'),
      exported_only: z.boolean().optional().describe('Only exported symbols (default false)'),
    },
    handler: (ctx, args) => {
      if (args.path !== undefined && args.path.trim() === '') throw new ToolInputError('invalid_argument', 'get_untested_symbols: path must not be blank');
      const r = ctx.engine.query(
        'analyze',
        {
          kind: 'coverage_gaps',
          ...(args.path === undefined ? {} : { path_prefix: args.path }),
          ...(args.kind === undefined ? {} : { symbol_kind: args.kind }),
          limit: args.limit ?? 50,
          exported_only: args.exported_only ?? false,
        },
        { repo: ctx.repo },
      );
      return untestedRows(r as CoverageGapsResult);
    },
  }),
  defineTool({
    name: 'export_context',
    category: 'read',
    effect: 'read',
    description:
      'A self-contained briefing to paste into another agent: symbols (given ids, or the top-ranked for a task) with location, signature, callers, callees and source, as markdown or JSON, under a token budget with truncation reported.',
    input: {
      ids: ids.optional(),
      task: task.optional().describe('Free task text (instead of ids)'),
      format: z.enum(['markdown', 'json']).optional().describe('markdown (default) or json'),
      token_budget: bundleBudget(BUNDLE_BUDGET.export),
    },
    handler: (ctx, args) => {
      oneOfIdsOrTask('export_context', args);
      return exportContext(new ContextReader(ctx), {
        ...(args.task === undefined ? {} : { task: args.task }),
        ...(args.ids === undefined ? {} : { ids: args.ids }),
        format: args.format ?? 'markdown',
        token_budget: args.token_budget ?? BUNDLE_BUDGET.export,
      });
    },
  }),
];
