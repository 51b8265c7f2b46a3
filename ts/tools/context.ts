/**
 * Agent-facing context tools, composed in TypeScript over the engine's query tools: orientation
 * (`index_health`, `get_repo_outline`), localisation (`explore`), reading (`batch_symbols`,
 * `get_editing_context`) and verification (`get_test_targets`).
 */
import { enrichment, enrichmentEnabled } from '../lsp/enrich';
import { lspPool } from '../lsp/pool';
import { z } from 'zod';
import { byteBudget, ContextReader } from './context-common';
import { EXPLORE_BUDGET, EXPLORE_SYMBOLS, explore } from './context-explore';
import { indexHealth, repoOutline } from './context-outline';
import { healthScore } from './liveness';
import { batchSymbols, editingContext } from './context-symbols';
import { findTestTargets, testTargetOf } from './context-tests';
import { target } from './common';
import { defineTool, ToolInputError } from './registry';
import { parseFidelityGlobs, type FidelityRule } from './source-shape';

/** Largest byte budget any context tool accepts (1 MiB). */
const MAX_BYTES = 1024 * 1024;
/** `batch_symbols` source budget when `max_bytes` is not given. */
const BATCH_DEFAULT_BYTES = 64 * 1024;
/** `get_editing_context` budget when neither `max_bytes` nor `max_tokens` is given (8000 tokens). */
const EDITING_DEFAULT_BYTES = 32_000;

/** The context family. */
export const contextTools = [
  defineTool({
    name: 'index_health',
    category: 'admin',
    effect: 'read',
    description:
      'Is the index complete and current? A 0-100 health_score with the deductions behind it; indexed files and symbols by language, skipped and failed files with reasons, snapshot freshness against the disk, unresolved-reference share and edges by provenance tier, with a one-line verdict; ' +
      'path_liveness (indexed files that no longer exist on disk: orphan_files, orphan_rate, orphans_by_repo; a sample past 20,000 files, truncated: true; any orphan caps the score at 60) and tracked_repo_paths_ok / missing_repo_paths (tracked repositories whose directory is gone); ' +
      'the language servers for the repository\'s languages (running, restarted, or not installed with the install hint), ' +
      'and the semantic-enrichment pass (per server: running, completed, partial, abandoned or failed; the edges it confirmed, corrected, added, dropped and dispatched).',
    input: {
      max_items: z.number().int().min(1).max(1000).optional().describe('Most skipped, failed and changed files listed (default 20)'),
    },
    handler: (ctx, args) => {
      const health = indexHealth(new ContextReader(ctx), args.max_items ?? 20);
      const enriched = enrichment().status(ctx.root);
      const enrichmentOk = enriched.every((s) => s.state === 'completed' || s.state === 'running');
      const { score, deductions } = healthScore({
        files: health.files.indexed,
        failures: health.failures.total,
        changed: health.freshness.modified + health.freshness.added + health.freshness.deleted,
        unresolvedShare: health.references.unresolved_share,
        snapshotError: health.freshness.snapshot_error !== undefined,
        missingRepos: health.missing_repo_paths.length,
        orphanFiles: health.path_liveness.orphan_files,
        enrichmentOk,
      });
      return {
        health_score: score,
        score_deductions: deductions,
        ...health,
        language_servers: lspPool().report(ctx.root, Object.keys(health.files.by_language)),
        semantic_enrichment:
          enriched.length > 0
            ? enriched
            : {
                state: 'off',
                note: enrichmentEnabled(ctx.root)
                  ? 'no pass has run in this process yet (it starts when a watched session opens the repository)'
                  : 'off: set lsp.enrich: true in the gortex config (or GORTEX_LSP_ENRICH=1) to have language servers confirm and correct call edges',
              },
        semantic_enrichment_ok: enrichmentOk,
        semantic_counts: ctx.engine.semanticCounts(ctx.repo),
      };
    },
  }),
  defineTool({
    name: 'get_repo_outline',
    category: 'nav',
    effect: 'read',
    description:
      'One-call repository overview: languages (files, symbols), top directories by symbol count, most-imported files and packages, entry points (main functions, CLI/bin files, exported handlers), highest fan-in symbols, the largest communities, the top hotspots and the share of test code.',
    input: {
      max_items: z.number().int().min(1).max(100).optional().describe('Rows per list (default 10)'),
    },
    handler: (ctx, args) => repoOutline(new ContextReader(ctx), args.max_items ?? 10),
  }),
  defineTool({
    name: 'explore',
    category: 'nav',
    effect: 'read',
    description:
      'The opening move for a task: free text (bug report, stack trace, feature request) in, ranked symbols out — names, paths, frames, quoted messages and what function bodies say, fused with the call graph — with why each ranked, source for the top five, callers/callees names, a file map, the files ranked next (more_files) and a completeness cue, packed under token_budget.',
    input: {
      task: z.string().min(1).max(20000).describe('The task in your own words, or the bug report / stack trace as pasted'),
      token_budget: z
        .number()
        .int()
        .min(EXPLORE_BUDGET.min)
        .max(EXPLORE_BUDGET.max)
        .optional()
        .describe(`Estimated tokens of the answer, ${EXPLORE_BUDGET.min}–${EXPLORE_BUDGET.max} (default ${EXPLORE_BUDGET.default}); bodies demote to signatures first`),
      max_symbols: z.number().int().min(1).max(EXPLORE_SYMBOLS.max).optional().describe(`Ranked rows, 1–${EXPLORE_SYMBOLS.max} (default ${EXPLORE_SYMBOLS.default})`),
      path: z.string().optional().describe('Only symbols under this repository path prefix (src/payments/)'),
    },
    handler: (ctx, args) => {
      if (args.task.trim() === '') throw new ToolInputError('invalid_argument', 'explore: task must not be blank; describe the task or paste the bug report');
      return explore(new ContextReader(ctx), {
        task: args.task,
        token_budget: args.token_budget ?? EXPLORE_BUDGET.default,
        max_symbols: args.max_symbols ?? EXPLORE_SYMBOLS.default,
        ...(args.path === undefined ? {} : { path: args.path }),
      });
    },
  }),
  defineTool({
    name: 'batch_symbols',
    category: 'read',
    effect: 'read',
    description: 'Several symbols in one call (get_symbol for each, optionally with source lines); an unknown or ambiguous id fails its own row with a code and message, not the call.',
    input: {
      ids: z.array(z.string().min(1)).min(1).max(50).describe('1–50 targets: ids, ids without the repo prefix, Owner.name or bare names'),
      include_source: z.boolean().optional().describe('Add each symbol’s source lines (default false)'),
      max_bytes: z.number().int().min(1).max(MAX_BYTES).optional().describe(`Source bytes across all rows (default ${BATCH_DEFAULT_BYTES})`),
    },
    handler: (ctx, args) => batchSymbols(new ContextReader(ctx), args.ids, args.include_source ?? false, args.max_bytes ?? BATCH_DEFAULT_BYTES),
  }),
  defineTool({
    name: 'get_editing_context',
    category: 'read',
    effect: 'read',
    description:
      'Before editing a symbol: its signature and source, direct callers and callees with tiers, the tests that exercise it (and how to run them), and its file’s imports, packed under max_bytes/max_tokens with what was cut reported.',
    input: {
      id: target,
      max_bytes: z.number().int().min(256).max(MAX_BYTES).optional().describe('Byte budget of the answer (the tighter of max_bytes and max_tokens wins)'),
      max_tokens: z.number().int().min(64).max(MAX_BYTES / 4).optional().describe(`Token budget (≈ bytes/4; default ${EDITING_DEFAULT_BYTES / 4} when neither is given)`),
      include_source: z.boolean().optional().describe('Include the symbol’s source (default true)'),
      compress_bodies: z.boolean().optional().describe('Stub method bodies in the source down to their signatures'),
      fidelity_globs: z
        .string()
        .optional()
        .describe('Per-path tiers, first match wins: "src/**:full,*_test.go:omit,vendor/**:compress" (omit also drops caller/callee rows)'),
    },
    handler: (ctx, args) => {
      let rules: FidelityRule[] = [];
      if (args.fidelity_globs !== undefined) {
        try {
          rules = parseFidelityGlobs(args.fidelity_globs);
        } catch (error) {
          throw new ToolInputError('invalid_argument', `get_editing_context: ${(error as Error).message}`);
        }
      }
      return editingContext(
        new ContextReader(ctx),
        args.id,
        byteBudget(args.max_bytes, args.max_tokens, EDITING_DEFAULT_BYTES),
        args.include_source ?? true,
        { compress: args.compress_bodies ?? false, rules },
      );
    },
  }),
  defineTool({
    name: 'get_test_targets',
    category: 'analysis',
    effect: 'read',
    description:
      'Tests covering a symbol (id) or a file (path): test code calling it within two hops and test files depending on its file, with the runner and a suggested command per runner.',
    input: {
      id: target.optional(),
      path: z.string().optional().describe('A repository-relative file path (instead of id)'),
    },
    handler: (ctx, args) => {
      const reader = new ContextReader(ctx);
      const of = testTargetOf(reader, args);
      const shown = 'symbol' in of ? { id: of.symbol.id, qualified: of.symbol.qual_name, kind: of.symbol.kind, path: of.symbol.file_path, line: of.symbol.start_line } : { path: of.path };
      return { target: shown, ...findTestTargets(reader, of) };
    },
  }),
];
