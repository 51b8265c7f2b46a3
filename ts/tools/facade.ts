/**
 * The compact surface (`facade-v1`): exactly 21 domain tools with small stable schemas. Each call
 * names an `operation` that maps onto one registry tool; `fixed` arguments are applied after the
 * caller's and cannot be overridden. Operations whose tool is not built are reported
 * `available: false` by `capabilities` and refused with `not_available` — never faked.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ANALYZE_KIND_SCHEMAS } from '../engine/tool-schemas';
import { inputSchema } from './meta';
import { callAnother, ResultWithMeta, ToolInputError, type ToolCategory, type ToolDef, type ToolEffect } from './registry';

/** The surface version clients may cache by. */
export const FACADE_VERSION = 'facade-v1';

/** How a facade's arguments become the underlying tool's arguments. */
type Shape = 'query' | 'target' | 'target_to' | 'task' | 'arguments' | 'edit' | 'refactor' | 'capabilities' | 'session';

interface Operation {
  tool: string;
  fixed?: Record<string, unknown>;
  /** The tool is `<prefix>_<channel>` for the call's `channel` (`tool` names the first built one, for listings). */
  perChannel?: 'subscribe' | 'unsubscribe';
}

interface Facade {
  name: string;
  effect: ToolEffect;
  shape: Shape;
  summary: string;
  operations: Record<string, Operation>;
  /** Operation used when none is given. */
  default?: string;
}

/** The 21 domains and their operation → tool map (the original's names; our tools). */
const FACADES: Facade[] = [
  {
    name: 'explore',
    effect: 'read',
    shape: 'task',
    summary: 'Start here: a task or bug report → ranked code to read, or a repository outline.',
    default: 'task',
    operations: {
      task: { tool: 'explore' },
      localize: { tool: 'explore' },
      context: { tool: 'smart_context' },
      closure: { tool: 'context_closure' },
      outline: { tool: 'get_repo_outline' },
      plan: { tool: 'plan_turn' },
      prefetch: { tool: 'prefetch_context' },
    },
  },
  {
    name: 'search',
    effect: 'read',
    shape: 'query',
    summary: 'Find symbols, text, files.',
    default: 'symbols',
    operations: {
      symbols: { tool: 'search_symbols' },
      text: { tool: 'search_text' },
      files: { tool: 'find_files' },
      winnow: { tool: 'winnow_symbols' },
      ast: { tool: 'search_ast' },
      artifacts: { tool: 'search_artifacts' },
    },
  },
  {
    name: 'read',
    effect: 'read',
    shape: 'target',
    summary: 'Read a file, a symbol’s source, several symbols, a file summary or editing context.',
    default: 'source',
    operations: {
      file: { tool: 'read_file' },
      source: { tool: 'get_symbol_source' },
      symbol: { tool: 'get_symbol_source' },
      symbols: { tool: 'batch_symbols' },
      summary: { tool: 'get_file_summary' },
      editing_context: { tool: 'get_editing_context' },
      metadata: { tool: 'get_symbol' },
      artifact: { tool: 'get_artifact' },
    },
  },
  {
    name: 'relations',
    effect: 'read',
    shape: 'target_to',
    summary: 'Who uses or depends on a symbol, what it depends on, implementations, overrides, hierarchy.',
    default: 'usages',
    operations: {
      usages: { tool: 'find_usages' },
      callers: { tool: 'get_callers' },
      dependencies: { tool: 'get_dependencies' },
      dependents: { tool: 'get_dependents' },
      implementations: { tool: 'find_implementations' },
      overrides: { tool: 'find_overrides' },
      hierarchy: { tool: 'get_class_hierarchy' },
      cluster: { tool: 'get_cluster' },
      declaration: { tool: 'find_declaration' },
      import_path: { tool: 'find_import_path' },
    },
  },
  {
    name: 'trace',
    effect: 'read',
    shape: 'target_to',
    summary: 'Follow calls forward, walk the graph, find call paths, run graph queries.',
    default: 'call_chain',
    operations: {
      call_chain: { tool: 'get_call_chain' },
      walk: { tool: 'walk_graph' },
      path: { tool: 'trace_path' },
      graph: { tool: 'graph_query' },
      flow: { tool: 'flow_between' },
      taint: { tool: 'taint_paths' },
    },
  },
  {
    name: 'analyze',
    effect: 'read',
    shape: 'arguments',
    summary: 'Graph, text and git-history analyses.',
    operations: {
      // Every engine kind is an operation of the same name, so a new kind needs no entry here.
      ...Object.fromEntries(ANALYZE_KIND_SCHEMAS.map((k) => [k.kind, { tool: 'analyze', fixed: { kind: k.kind } }])),
      clones: { tool: 'find_clones' },
      communities: { tool: 'get_communities' },
      processes: { tool: 'get_processes' },
      co_change: { tool: 'find_co_changing_symbols' },
      contracts: { tool: 'contracts' },
    },
  },
  { name: 'ask', effect: 'read', shape: 'arguments', summary: 'Research a question over the code.', operations: { research: { tool: 'ask' } } },
  { name: 'change', effect: 'read', shape: 'arguments', summary: 'Impact, verification and tests of a change.', operations: { impact: { tool: 'explain_change_impact' }, detect: { tool: 'detect_changes' }, tests: { tool: 'get_test_targets' }, verify: { tool: 'verify_change' }, guards: { tool: 'check_guards' }, edit_plan: { tool: 'get_edit_plan' }, pattern: { tool: 'suggest_pattern' }, preview: { tool: 'preview_edit' }, simulate: { tool: 'simulate_chain', fixed: { keep: false } }, compare_branches: { tool: 'compare_branches' }, compare_overlay: { tool: 'compare_with_overlay' }, overlay_branches: { tool: 'overlay_branches' }, overlay_state: { tool: 'overlay_list' }, diagnostics: { tool: 'get_diagnostics' }, code_actions: { tool: 'get_code_actions' } } },
  {
    name: 'edit',
    effect: 'local_write',
    shape: 'edit',
    summary: 'Edit files and symbols (target + match/replacement, or content).',
    operations: { file: { tool: 'edit_file' }, symbol: { tool: 'edit_symbol' }, write: { tool: 'write_file' }, batch: { tool: 'batch_edit' }, scaffold: { tool: 'scaffold' }, apply_overlay: { tool: 'overlay_merge', fixed: { to_disk: true } }, code_action: { tool: 'apply_code_action' }, fix_all: { tool: 'fix_all_in_file' } },
  },
  {
    name: 'refactor',
    effect: 'local_write',
    shape: 'refactor',
    summary: 'Rename, move, inline, delete symbols.',
    default: 'rename',
    operations: { rename: { tool: 'rename_symbol' }, move: { tool: 'move_symbol' }, inline: { tool: 'inline_symbol' }, delete: { tool: 'safe_delete_symbol' } },
  },
  { name: 'review', effect: 'read', shape: 'arguments', summary: 'Review a diff.', operations: { run: { tool: 'review' }, pack: { tool: 'review_pack' }, critique: { tool: 'critique_review' }, diff_context: { tool: 'diff_context' }, sibling_context: { tool: 'sibling_diff_context' }, pr_context: { tool: 'pr_review_context' }, questions: { tool: 'suggested_review_questions' } } },
  { name: 'publish_review', effect: 'external_write', shape: 'arguments', summary: 'Post a review.', operations: { post: { tool: 'post_review' } } },
  { name: 'pr', effect: 'read', shape: 'arguments', summary: 'Pull-request impact and risk.', operations: { impact: { tool: 'get_pr_impact' }, risk: { tool: 'pr_risk' }, reviewers: { tool: 'suggest_reviewers' }, list: { tool: 'list_prs' }, triage: { tool: 'triage_prs' }, conflicts: { tool: 'conflicts_prs' } } },
  {
    name: 'recall',
    effect: 'read',
    shape: 'arguments',
    summary: 'Recall memories, decisions, invariants and notes relevant to what you are looking at.',
    operations: { memories: { tool: 'surface_memories' }, surface: { tool: 'surface_memories', fixed: { mark_accessed: false } }, notes: { tool: 'list_notes' } },
  },
  {
    name: 'remember',
    effect: 'session_write',
    shape: 'arguments',
    summary: 'Store memories, decisions, invariants, risk acknowledgements and notes anchored to code.',
    operations: {
      memory: { tool: 'store_memory' },
      decision: { tool: 'store_memory', fixed: { kind: 'decision' } },
      invariant: { tool: 'store_memory', fixed: { kind: 'invariant' } },
      risk_ack: { tool: 'store_memory', fixed: { kind: 'risk_ack' } },
      note: { tool: 'save_note' },
      edit_memory: { tool: 'edit_memory' },
      forget: { tool: 'forget_memory' },
      suppress_finding: { tool: 'suppress_finding' },
    },
  },
  {
    name: 'workspace',
    effect: 'read',
    shape: 'arguments',
    summary: 'Index health and graph statistics of the repository.',
    operations: { index: { tool: 'index_health' }, graph: { tool: 'graph_stats' }, repos: { tool: 'list_repos' }, info: { tool: 'workspace_info' } },
  },
  { name: 'workspace_admin', effect: 'control_write', shape: 'arguments', summary: 'Track, untrack, re-index repositories.', operations: { index: { tool: 'index_repository' }, track: { tool: 'track_repository' }, reindex: { tool: 'reindex_repository' } } },
  {
    name: 'overlay',
    effect: 'session_write',
    shape: 'arguments',
    summary: 'Unsaved buffers and speculative branches the session reads through.',
    operations: {
      register: { tool: 'overlay_register' },
      push: { tool: 'overlay_push' },
      delete: { tool: 'overlay_delete' },
      drop: { tool: 'overlay_drop' },
      keepalive: { tool: 'overlay_keepalive' },
      fork: { tool: 'overlay_fork' },
      switch: { tool: 'overlay_switch' },
      drop_branch: { tool: 'overlay_drop_branch' },
      merge: { tool: 'overlay_merge', fixed: { to_disk: false } },
      simulate: { tool: 'simulate_chain', fixed: { keep: true } },
    },
  },
  {
    name: 'session',
    effect: 'session_write',
    shape: 'session',
    summary: 'Session cursor and push subscriptions (subscribe / unsubscribe a channel).',
    operations: { cursor: { tool: 'nav' }, subscribe: { tool: 'subscribe_diagnostics', perChannel: 'subscribe' }, unsubscribe: { tool: 'unsubscribe_diagnostics', perChannel: 'unsubscribe' } },
  },
  { name: 'response', effect: 'read', shape: 'arguments', summary: 'Re-cut large earlier responses.', operations: { stats: { tool: 'ctx_stats' }, grep: { tool: 'ctx_grep' }, slice: { tool: 'ctx_slice' }, peek: { tool: 'ctx_peek' } } },
  { name: 'capabilities', effect: 'read', shape: 'capabilities', summary: 'What each domain can do here: summaries, or one operation’s exact schema.', operations: {} },
];

const target = z
  .object({
    file: z.string().optional(),
    symbol: z.string().optional(),
    symbols: z.array(z.string()).optional(),
    query: z.string().optional(),
  })
  .describe('Exactly one of file, symbol, symbols, query');
const options = z.record(z.string(), z.unknown()).optional().describe('Arguments of the underlying operation (see capabilities)');
/** The operation argument. The tool's description lists the operations this build can run (capabilities lists the rest), so the schema only names the default. */
const operationOf = (f: Facade): z.ZodOptional<z.ZodString> =>
  z.string().optional().describe(`An operation listed in the description${f.default ? ` (default ${f.default})` : ''}`);

function shapeOf(f: Facade): z.ZodRawShape {
  const operation = operationOf;
  switch (f.shape) {
    case 'query':
      return { operation: operation(f), query: z.string().optional(), options };
    case 'target':
      return { operation: operation(f), target: target.optional(), options };
    case 'target_to':
      return { operation: operation(f), target: target.optional(), to: target.optional(), options };
    case 'task':
      return { operation: operation(f), task: z.string().optional(), path: z.string().optional(), options };
    case 'arguments':
      return { operation: operation(f), arguments: options };
    case 'session':
      return { operation: operation(f), channel: z.string().optional().describe('subscribe / unsubscribe: the channel — diagnostics, workspace_readiness, daemon_health, stale_refs or graph_invalidated'), arguments: options };
    case 'edit':
      return {
        operation: z.string().optional().describe('An operation listed in the description (default from target)'),
        target: target.optional(),
        match: z.string().optional().describe('Old text'),
        replacement: z.string().optional().describe('New text'),
        content: z.string().optional().describe('File content'),
        guard: z.string().optional().describe('Expected base_sha'),
        changes: z.array(z.record(z.string(), z.unknown())).optional().describe('batch: the edits'),
        dry_run: z.boolean().optional(),
        options,
      };
    case 'refactor':
      return {
        operation: operation(f),
        target: target.optional(),
        new_name: z.string().optional(),
        destination: z.string().optional(),
        dry_run: z.boolean().optional(),
        options,
      };
    case 'capabilities':
      return {
        domain: z.string().optional().describe('A domain (tool name); all when omitted'),
        operation: z.string().optional(),
        detail: z.enum(['summary', 'schema']).optional(),
      };
  }
}

/** The edit operation a call implies: `batch` with changes, `symbol` for a symbol target, `write` with content, else `file`. */
function editOperation(a: Record<string, any>): string {
  if (a.changes !== undefined) return 'batch';
  if (a.target?.symbol !== undefined) return 'symbol';
  return a.content !== undefined ? 'write' : 'file';
}

/** The single value of a `target` object, refusing zero or several keys. */
function single(t: Record<string, unknown> | undefined, what: string): [string, unknown] {
  const entries = Object.entries(t ?? {}).filter(([, v]) => v !== undefined);
  if (entries.length !== 1) {
    throw new ToolInputError('invalid_argument', `${what} must carry exactly one of file, symbol, symbols, query; got ${entries.length === 0 ? 'none' : entries.map(([k]) => k).join(', ')}`);
  }
  return entries[0]!;
}

/** The underlying tool's arguments for a facade call (before `fixed`). */
function translate(f: Facade, op: string, a: Record<string, any>): Record<string, unknown> {
  const opts = (a.options ?? {}) as Record<string, unknown>;
  switch (f.shape) {
    case 'query':
      return a.query === undefined ? { ...opts } : { ...opts, query: a.query };
    case 'task':
      return { ...opts, ...(a.task === undefined ? {} : { task: a.task }), ...(a.path === undefined ? {} : { path: a.path }) };
    case 'arguments':
    case 'session':
      // These shapes name their option object `arguments` (see shapeOf).
      return { ...((a.arguments ?? {}) as Record<string, unknown>) };
    case 'edit': {
      const out: Record<string, unknown> = { ...opts };
      const put = (key: string, value: unknown): void => {
        if (value !== undefined) out[key] = value;
      };
      if (a.target !== undefined) {
        const [key, value] = single(a.target, 'target');
        put(key === 'symbol' ? 'id' : 'path', value);
      }
      put('base_sha', a.guard);
      put('dry_run', a.dry_run);
      if (op === 'file') {
        put('old_string', a.match);
        put('new_string', a.replacement);
      } else if (op === 'symbol') {
        put('old_source', a.match);
        put('new_source', a.replacement);
      } else if (op === 'write') put('content', a.content);
      else if (op === 'batch') put('changes', a.changes);
      return out;
    }
    case 'refactor': {
      const out: Record<string, unknown> = { ...opts };
      if (a.target !== undefined) out.id = single(a.target, 'target')[1];
      for (const key of ['new_name', 'dry_run']) if (a[key] !== undefined) out[key] = a[key];
      if (a.destination !== undefined) out.to = a.destination;
      return out;
    }
    case 'target':
    case 'target_to': {
      if (a.target === undefined) return { ...opts };
      const [key, value] = single(a.target, 'target');
      if (op === 'import_path' || op === 'path') {
        const [, to] = single(a.to, 'to');
        return { ...opts, from: value, to };
      }
      if (op === 'flow') {
        const [, to] = single(a.to, 'to');
        return { ...opts, source: value, sink: to };
      }
      if (key === 'query') return { ...opts, query: value };
      if (key === 'symbols') return { ...opts, ids: value };
      if (key === 'file') return op === 'file' || op === 'summary' ? { ...opts, path: value } : { ...opts, id: value };
      return { ...opts, id: value };
    }
    default:
      return { ...opts };
  }
}

/** Operations a domain tool's description names; a longer list (analyze's kinds) is cut there, so
 * the cold tools/list stays small, and capabilities lists every one. */
const OPS_IN_DESCRIPTION = 16;

/** The functional family of each compact tool (the ones not named here are navigation). */
const FACADE_CATEGORIES: Record<string, ToolCategory> = {
  read: 'read',
  ask: 'read',
  response: 'read',
  analyze: 'analysis',
  change: 'analysis',
  edit: 'edit',
  refactor: 'edit',
  review: 'review',
  publish_review: 'pr',
  pr: 'pr',
  recall: 'memory',
  remember: 'memory',
  workspace: 'workspace',
  workspace_admin: 'workspace',
  overlay: 'overlay',
  session: 'subscription',
  capabilities: 'admin',
};

/** The compact surface's domains with their operations (each `name → tool`), for listings such as the guide. */
export function facadeDomains(): { name: string; effect: ToolEffect; summary: string; operations: Record<string, string> }[] {
  return FACADES.map((f) => ({
    name: f.name,
    effect: f.effect,
    summary: f.summary,
    operations: Object.fromEntries(Object.entries(f.operations).map(([op, spec]) => [op, spec.tool])),
  }));
}

/** The 21 compact tools over `registry`; an operation runs its registry tool through the pipeline (`ctx.call`). */
export function facadeTools(registry: () => readonly ToolDef[]): ToolDef[] {
  const has = (tool: string): boolean => registry().some((t) => t.name === tool);
  /** `subscribe_<channel>` / `unsubscribe_<channel>`, refusing a channel no tool serves. */
  const channelTool = (prefix: 'subscribe' | 'unsubscribe', channel: unknown): string => {
    const channels = registry().filter((t) => t.name.startsWith('subscribe_')).map((t) => t.name.slice('subscribe_'.length)).sort();
    if (typeof channel !== 'string' || !channels.includes(channel)) {
      throw new ToolInputError('invalid_argument', `session.${prefix} needs channel: one of ${channels.join(', ')}${channel === undefined ? '' : ` (got ${JSON.stringify(channel)})`}`);
    }
    return `${prefix}_${channel}`;
  };
  const describeOp = (f: Facade, op: string, detail: 'summary' | 'schema'): Record<string, unknown> => {
    const spec = f.operations[op]!;
    const tool = registry().find((t) => t.name === spec.tool);
    const base: Record<string, unknown> = { domain: f.name, operation: op, canonical_tool: spec.tool, effect: f.effect, available: tool !== undefined };
    if (detail === 'summary' || !tool) return { ...base, ...(tool ? { description: tool.description } : { reason: `${spec.tool} is not built yet` }) };
    const schema = inputSchema(tool);
    return {
      ...base,
      description: tool.description,
      input_schema: schema,
      request_shape: f.shape,
      fixed_arguments: spec.fixed ?? {},
      schema_hash: createHash('sha256').update(JSON.stringify({ schema, fixed: spec.fixed ?? {}, shape: f.shape })).digest('hex').slice(0, 16),
    };
  };
  return FACADES.map((f): ToolDef => {
    const available = Object.keys(f.operations).filter((op) => has(f.operations[op]!.tool));
    const named =
      available.length > OPS_IN_DESCRIPTION
        ? `${available.slice(0, OPS_IN_DESCRIPTION).join(', ')} and ${available.length - OPS_IN_DESCRIPTION} more (capabilities with domain ${f.name} lists them all)`
        : available.join(', ');
    const description =
      f.shape === 'capabilities'
        ? f.summary
        : `${f.summary} Operations here: ${available.length > 0 ? named : 'none yet (see capabilities)'}.`;
    return {
      name: f.name,
      category: FACADE_CATEGORIES[f.name] ?? 'nav',
      effect: f.effect,
      description,
      input: shapeOf(f),
      routes: true,
      handler: async (ctx, args: Record<string, any>) => {
        if (f.shape === 'capabilities') {
          const detail = (args.detail ?? 'summary') as 'summary' | 'schema';
          const domains = args.domain === undefined ? FACADES.filter((d) => d.shape !== 'capabilities') : FACADES.filter((d) => d.name === args.domain);
          if (domains.length === 0) throw new ToolInputError('invalid_argument', `unknown domain "${args.domain}"; domains: ${FACADES.map((d) => d.name).join(', ')}`);
          if (args.operation !== undefined) {
            const d = domains[0]!;
            if (!d.operations[args.operation]) throw new ToolInputError('invalid_argument', `unknown operation "${args.operation}" of ${d.name}; operations: ${Object.keys(d.operations).join(', ')}`);
            return { surface_version: FACADE_VERSION, ...describeOp(d, args.operation, detail) };
          }
          return {
            surface_version: FACADE_VERSION,
            domains: domains.map((d) => ({ domain: d.name, effect: d.effect, operations: Object.keys(d.operations).map((op) => describeOp(d, op, detail)) })),
          };
        }
        const op = (args.operation ?? f.default ?? (f.shape === 'edit' ? editOperation(args) : undefined)) as string | undefined;
        if (op === undefined) throw new ToolInputError('invalid_argument', `${f.name} needs an operation: ${Object.keys(f.operations).join(', ')}`);
        const spec = f.operations[op];
        if (!spec) throw new ToolInputError('invalid_argument', `unknown operation "${op}" of ${f.name}; operations: ${Object.keys(f.operations).join(', ')}`);
        const tool = spec.perChannel ? channelTool(spec.perChannel, args.channel) : spec.tool;
        if (!has(tool)) throw new ToolInputError('not_available', `${f.name}.${op} is not available in this build (${tool} is not built yet)`);
        const toolArgs = { ...translate(f, op, args), ...(spec.fixed ?? {}) };
        const result = await callAnother(ctx, tool, toolArgs);
        const inner = result instanceof ResultWithMeta ? result.result : result;
        return new ResultWithMeta(inner, {
          gortex_facade: { surface_version: FACADE_VERSION, facade: f.name, operation: op, canonical_tool: tool },
        });
      },
    };
  });
}
