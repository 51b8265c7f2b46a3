/**
 * The analysis family: `analyze` (one dispatcher over every whole-repository analysis kind),
 * `flow_between`, `taint_paths`, `find_clones`, `get_communities`, `get_processes` and
 * `explain_change_impact`. All of them are answered by the Rust engine (`gortex-analysis`,
 * `gortex-dataflow`, `gortex-clones`, `gortex_search::sites`).
 */
import { z } from 'zod';
import { engineTool, limit, minTier, oneOrMany, target } from './common';

/** Every `analyze` kind in the engine's order (a test checks it against `kind=kinds`), then the `untested` alias and `kinds`. */
export const ANALYZE_KINDS = [
  'dead_code',
  'hotspots',
  'cycles',
  'would_create_cycle',
  'impact',
  'clusters',
  'coverage_gaps',
  'external_calls',
  'routes',
  'env_var_users',
  'todos',
  'health_score',
  'untested',
  'kinds',
] as const;

const pathPrefix = z.string().optional().describe('Only code under this repository path prefix (the text kinds also take a glob)');

/** The analysis family. */
export const analysisTools = [
  engineTool(
    'analyze',
    'analysis',
    'Whole-repository analyses by kind: dead_code, hotspots, cycles, would_create_cycle, impact, clusters, coverage_gaps (untested), external_calls, routes, env_var_users, todos, health_score; kind=kinds lists them with their arguments.',
    {
      kind: z.enum(ANALYZE_KINDS).describe('The analysis to run (kinds lists them)'),
      path_prefix: pathPrefix,
      limit,
      kinds: oneOrMany.optional().describe('dead_code: node kinds to check (default function,method,type,interface; field,variable,constant opt-in)'),
      include_exported: z.boolean().optional().describe('dead_code: report exported symbols too (default false)'),
      transitive: z.boolean().optional().describe('dead_code: also symbols used only by dead code'),
      threshold: z.number().optional().describe('hotspots: minimum normalised score 0–100 (default mean + 2σ)'),
      scope: z.enum(['imports', 'calls', 'all']).optional().describe('cycles: import cycles, call cycles or both (default all)'),
      include_self: z.boolean().optional().describe('cycles: count direct self-recursion'),
      min_tier: minTier,
      from: z.string().optional().describe('would_create_cycle: the new edge’s source (a file for imports, a symbol for calls)'),
      to: z.string().optional().describe('would_create_cycle: the new edge’s target'),
      edge: z.enum(['imports', 'calls']).optional().describe('would_create_cycle: the kind of the new edge (default imports)'),
      target: z
        .object({ symbol: z.string().optional(), file: z.string().optional() })
        .strict()
        .optional()
        .describe('impact: rank this symbol’s or file’s blast radius instead of the whole repository'),
      algorithm: z.enum(['leiden', 'louvain']).optional().describe('clusters: community algorithm (default leiden)'),
      min_size: z.number().int().optional().describe('clusters: smallest community listed (default 2)'),
      symbol_kind: z.enum(['function', 'method']).optional().describe('coverage_gaps: only functions or only methods'),
      exported_only: z.boolean().optional().describe('coverage_gaps: only exported symbols'),
      tags: z.array(z.string()).optional().describe('todos: tags to report (default TODO, FIXME, HACK, XXX, BUG)'),
      name: z.string().optional().describe('env_var_users: only this variable'),
      method: z.string().optional().describe('routes: only this HTTP method'),
      route: z.string().optional().describe('routes: only routes whose path contains this text'),
    },
  ),
  engineTool(
    'flow_between',
    'analysis',
    'Ranked dataflow paths from a source to a sink (value_flow inside functions, arg_of into callee parameters, returns_to back to callers), each hop with its confidence. Endpoints: a function (its parameters and return), a field, or Symbol#variable such as getUser#req.query.id.',
    {
      source: z.string().describe('Function, field, or Symbol#variable (Symbol#return for a return value)'),
      sink: z.string().describe('Function (its parameters and the arguments of calls to it), field, or Symbol#variable'),
      max_depth: z.number().int().optional().describe('Most hops per path, 1–16 (default 8)'),
      max_paths: z.number().int().optional().describe('Most paths, 1–100 (default 10)'),
      min_tier: minTier,
    },
  ),
  engineTool(
    'taint_paths',
    'analysis',
    'Source → sink dataflow sweep. Without patterns: request input (req.query, request.args, r.URL, getParameter, …) reaching SQL, command or filesystem calls, one finding per sink with its best path. Patterns: words (substring), exact:Name, path:dir/, kind:param|variable|argument|result|return|function|method, space-separated (all must hold).',
    {
      source_pattern: z.string().optional().describe('Source clauses; omit for the built-in request inputs'),
      sink_pattern: z.string().optional().describe('Sink clauses; omit for the built-in SQL / exec / filesystem sinks'),
      max_depth: z.number().int().optional().describe('Most hops per path, 1–16 (default 8)'),
      path_prefix: pathPrefix,
      limit,
      min_tier: minTier,
    },
  ),
  engineTool(
    'find_clones',
    'analysis',
    'Near-duplicate function/method clusters (MinHash + LSH over normalised tokens, verified Jaccard ≥ min_similarity); dead_only finds dead duplicates of live code.',
    {
      min_similarity: z.number().optional().describe('Verified Jaccard similarity, 0.5–1.0 (default 0.82)'),
      dead_only: z.boolean().optional().describe('Only clusters where a dead member duplicates a live one'),
      path_prefix: pathPrefix,
      include_tests: z.boolean().optional().describe('Count test functions (default false)'),
      min_tokens: z.number().int().optional().describe('Smallest body compared, in tokens (default and minimum 24)'),
      limit,
    },
  ),
  engineTool(
    'get_communities',
    'analysis',
    'Functional clusters (Leiden over calls and references, weighted by provenance). Without id: every community with label, size, cohesion and hub. With id (number or label): members, files and neighbouring communities.',
    {
      id: z.union([z.number().int(), z.string()]).optional().describe('Community id or label'),
      limit,
      min_size: z.number().int().optional().describe('Smallest community listed (default 2)'),
      path_prefix: pathPrefix,
    },
  ),
  engineTool(
    'get_processes',
    'analysis',
    'Execution flows: scored entry points (mains, handlers, commands) with bounded call-tree traces; test flows kept apart. Without id: the list. With id (number or entry name): the step-by-step trace.',
    {
      id: z.union([z.number().int(), z.string()]).optional().describe('Process id or entry name'),
      include_tests: z.boolean().optional().describe('List test flows too (default false)'),
      limit,
    },
  ),
  engineTool(
    'explain_change_impact',
    'analysis',
    'Risk-tiered blast radius of changing symbols or a file: dependents per depth (1–3), affected tests and processes, communities touched, and a caveat when the target has no incoming edges.',
    {
      id: target.optional(),
      ids: z.array(z.string()).optional().describe('Several symbols changed together'),
      file: z.string().optional().describe('A changed file (all of its symbols)'),
      depth: z.number().int().optional().describe('Dependent depth, 1–3 (default 3)'),
      limit,
      min_tier: minTier,
    },
  ),
];
