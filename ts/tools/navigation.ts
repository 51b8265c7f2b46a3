/** Following the graph from one symbol: who calls it, what it uses, what it implements. */
import { z } from 'zod';
import { engineTool, includeTests, limit, minTier, oneOrMany, target } from './common';

const depth = z.number().int().optional();

/** The navigation family. */
export const navigationTools = [
  engineTool('get_symbol', 'nav', 'A symbol: location, signature, doc, owner and edge counts. Use instead of reading the file.', {
    id: target,
  }),
  engineTool('get_file_summary', 'nav', 'All symbols (nested, in source order) and imports (with resolution status) of a file.', {
    path: z.string().describe('Repository-relative path or file id'),
    limit,
  }),
  engineTool(
    'get_dependencies',
    'nav',
    'What a symbol (or a file, file-level) depends on, 1–3 hops, with per-depth counts.',
    { id: target, depth: depth.describe('1–3 (default 1)'), kinds: oneOrMany.optional(), limit, min_tier: minTier, include_tests: includeTests },
  ),
  engineTool(
    'get_dependents',
    'nav',
    'What depends on a symbol or file (blast radius), 1–3 hops, with per-depth counts and a caveat when coverage is thin.',
    { id: target, depth: depth.describe('1–3 (default 1)'), kinds: oneOrMany.optional(), limit, min_tier: minTier, include_tests: includeTests },
  ),
  engineTool(
    'get_callers',
    'nav',
    'Reverse call graph. Carries a caveat (likely_unused, possible_extraction_gap, coverage_incomplete) whenever the answer must not be taken at face value.',
    { id: target, depth: depth.describe('1–5 (default 1)'), limit, min_tier: minTier, include_tests: includeTests },
  ),
  engineTool('get_call_chain', 'nav', 'Forward call graph from a symbol, with the calls that stayed unresolved.', {
    id: target,
    depth: depth.describe('1–6 (default 3)'),
    limit,
    min_tier: minTier,
  }),
  engineTool(
    'find_usages',
    'nav',
    'Every reference to a symbol with its context (call, parameter_type, return_type, field, type, value, import); filter with context. Same caveats as get_callers.',
    { id: target, context: oneOrMany.optional(), limit, min_tier: minTier, include_tests: includeTests },
  ),
  engineTool('find_implementations', 'nav', 'Types implementing an interface (through sub-interfaces too).', {
    id: target,
    limit,
    min_tier: minTier,
  }),
  engineTool('find_overrides', 'nav', 'Methods that override (children) or are overridden by (parents) a method.', {
    id: target,
    direction: z.enum(['parents', 'children', 'both']).optional(),
    limit,
    min_tier: minTier,
  }),
  engineTool(
    'get_class_hierarchy',
    'nav',
    'Inheritance subgraph around a type, interface or method (up, down or both), optionally with members and their override chains.',
    {
      id: target,
      direction: z.enum(['up', 'down', 'both']).optional(),
      depth: depth.describe('1–10 (default 5)'),
      include_methods: z.boolean().optional(),
      limit,
      min_tier: minTier,
    },
  ),
  engineTool('get_cluster', 'nav', 'Bidirectional neighbourhood of a symbol over usage edges.', {
    id: target,
    depth: depth.describe('1–3 (default 1)'),
    limit,
    min_tier: minTier,
    include_tests: includeTests,
  }),
];
