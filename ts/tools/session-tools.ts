/**
 * Session tools: re-cutting large responses the session already received (`ctx_*`,
 * `head_results`), a per-session graph cursor (`nav`) and agent feedback. They work on the
 * session's `SessionStore` and refuse to run outside an MCP session (`gortex call` has none).
 */
import { z } from 'zod';
import { RegexMatcher, REGEX_SYNTAX_URL, type GetCallChainResult, type GetCallersResult, type GetFileSummaryResult, type GetSymbolResult, type NodeSummary } from '../engine/engine';
import { WORKFLOW_PHASES, type EditRecord, type SessionStore, type StoredResponse, type WorkflowPhase } from '../workspace/session-store';
import { target } from './common';
import { feedbackDelta, recordRating } from './feedback-board';
import { FEEDBACK_RATINGS, sidecarAt } from '../engine/sidecar';
import { parseDuration } from '../support/duration';
import { defineTool, repoNameOf, ToolInputError, type ToolDef } from './registry';
import { type ToolContext } from '../workspace/context';
import { sourceTools } from './source';

/** Most bytes of text a slice / head / peek returns; re-cutting exists to keep answers small. */
const MAX_TEXT_BYTES = 64 * 1024;
/** Matched or context lines longer than this are cut (minified payloads would otherwise flood the answer). */
const MAX_LINE_CHARS = 500;
/** Rows per direction in a nav adjacency preview. */
const PREVIEW_ROWS = 5;
/** Rows fetched when a nav move picks the N-th neighbour. */
const NEIGHBOUR_LIMIT = 1000;

/** Edits to one symbol from which `get_symbol_history` flags churn. */
const CHURN_EDITS = 3;

/** What to do in each workflow phase. */
const PHASE_GUIDANCE: Record<WorkflowPhase, string> = {
  explore: 'Locate and understand: explore, search_symbols, get_symbol_source, find_usages, get_callers. Writing tools are refused until you advance to implement.',
  implement: 'Change the code: edit_symbol, edit_file, write_file (each answer carries new_sha for the next edit). Advance to verify when done.',
  verify: 'Check the change: get_test_targets, explain_change_impact, index_health, get_symbol_history; edits stay allowed for fixes.',
};

/** The phase after `phase` (a workflow not started begins at explore; verify is the last). */
function nextPhase(phase: WorkflowPhase | undefined): WorkflowPhase {
  if (phase === undefined) return 'explore';
  return WORKFLOW_PHASES[Math.min(WORKFLOW_PHASES.indexOf(phase) + 1, WORKFLOW_PHASES.length - 1)]!;
}

/** Whether the session's planning mode and workflow let a tool write files now. */
function writesAllowed(store: SessionStore): boolean {
  return !store.planning && store.workflowPhase !== 'explore';
}

/** The session's store, or a refusal saying why there is none. */
function storeOf(ctx: ToolContext): SessionStore {
  const store = ctx.session?.store;
  if (!store) throw new ToolInputError('unavailable', 'this tool needs an MCP session');
  return store;
}

/** The stored response `handle` (default: the latest), or a refusal listing what is stored. */
function responseOf(store: SessionStore, handle: string | undefined): StoredResponse {
  const found = store.response(handle);
  if (found) return found;
  const handles = store.responses().map((r) => r.handle);
  if (handles.length === 0) {
    throw new ToolInputError('not_found', `no stored responses yet: only answers over ${store.limits.minBytes} bytes are kept`);
  }
  throw new ToolInputError('not_found', `no stored response ${JSON.stringify(handle)}; stored: ${handles.join(', ')} (older ones were evicted)`);
}

/** A line cut to `MAX_LINE_CHARS`. */
const clip = (line: string): string => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);

/** Lines `from..=to` (1-based) joined, stopping before `MAX_TEXT_BYTES`; returns the last line included. */
function joinLines(lines: readonly string[], from: number, to: number): { text: string; last: number; truncated: boolean } {
  let text = '';
  let size = 0;
  let last = from - 1;
  for (let i = from; i <= to; i++) {
    const line = `${lines[i - 1]}\n`;
    const n = Buffer.byteLength(line);
    if (size + n > MAX_TEXT_BYTES) return { text, last, truncated: true };
    text += line;
    size += n;
    last = i;
  }
  return { text, last, truncated: false };
}

/** Which response a re-cut came from. */
const origin = (r: StoredResponse): { handle: string; tool: string } => ({ handle: r.handle, tool: r.tool });

const handleArg = z.string().optional().describe('Response handle (r1, r2, …; default: the latest stored response)');

const grepInput = {
  handle: handleArg,
  pattern: z
    .string()
    .min(1)
    .describe(
      `Text to find (literal), or with regex=true a regular expression in Rust regex syntax (${REGEX_SYNTAX_URL}: no look-around or backreferences; inline flags like (?i) work); at most 4096 bytes`,
    ),
  regex: z.boolean().optional().describe('Treat pattern as a regular expression, Rust regex syntax (default false)'),
  case_sensitive: z.boolean().optional().describe('Letters must match in case (default true); false matches either case, literal or regex'),
  context_lines: z.number().int().min(0).max(20).optional().describe('Lines shown before and after each match (default 0)'),
  limit: z.number().int().min(1).max(1000).optional().describe('At most this many matches (default 50)'),
};

/**
 * `ctx_grep`: matching lines of a stored response, as rows and as a grep-style block. The pattern
 * (literal or regex) is compiled and run by Rust's `regex` crate in one call over every line: a
 * JavaScript `RegExp` backtracks, and a pattern like `(a+)+$` would hold the event loop (every
 * session, and the deadline meant to end the call) for minutes.
 */
function grep(
  ctx: ToolContext,
  args: { handle?: string; pattern: string; regex?: boolean; case_sensitive?: boolean; context_lines?: number; limit?: number },
): unknown {
  const r = responseOf(storeOf(ctx), args.handle);
  const matcher = new RegexMatcher(args.pattern, { literal: !args.regex, caseInsensitive: args.case_sensitive === false });
  const limit = args.limit ?? 50;
  const around = args.context_lines ?? 0;
  const found = matcher.matchLines(r.lines, limit);
  const hits = found.matches.map((m) => m.index + 1);
  const total = found.total;
  // grep -n style: "N:line" for matches, "N-line" for context and, as grep does only when context
  // is asked for, "--" between groups that do not touch.
  const hitSet = new Set(hits);
  const block: string[] = [];
  let shownUpTo = 0;
  for (const line of hits) {
    const from = Math.max(1, line - around, shownUpTo + 1);
    const to = Math.min(r.lines.length, line + around);
    if (around > 0 && shownUpTo > 0 && from > shownUpTo + 1) block.push('--');
    for (let i = from; i <= to; i++) block.push(`${i}${hitSet.has(i) ? ':' : '-'}${clip(r.lines[i - 1])}`);
    shownUpTo = Math.max(shownUpTo, to);
  }
  return {
    ...origin(r),
    total_lines: r.lines.length,
    matches: hits.map((line) => ({ line, text: clip(r.lines[line - 1]) })),
    total,
    truncated: total > hits.length,
    block: block.join('\n'),
  };
}

// ---- nav ----------------------------------------------------------------------------------------

/** A neighbour row in a preview or pick list. */
interface Neighbour {
  index: number;
  id: string;
  name: string;
  qualified: string;
  kind: string;
  path: string;
  line: number;
  /** How it is linked (`calls` / `instantiates`) for callers and callees. */
  edge?: string;
}

/** A neighbour list cut for the preview. */
interface PreviewList {
  total: number;
  rows: Neighbour[];
}

const row = (index: number, n: NodeSummary, edge?: string): Neighbour => ({
  index,
  id: n.id,
  name: n.name,
  qualified: n.qual_name,
  kind: n.kind,
  path: n.file_path,
  line: n.start_line,
  ...(edge ? { edge } : {}),
});

/** Direct callees of `id` in call-site order, each once. */
function callees(ctx: ToolContext, id: string): Neighbour[] {
  const chain = ctx.engine.query<GetCallChainResult>('get_call_chain', { id, depth: 1, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo });
  const nodes = new Map(chain.nodes.map((n) => [n.node.id, n.node]));
  const seen = new Set<string>();
  const out: Neighbour[] = [];
  for (const call of chain.calls) {
    const node = nodes.get(call.to);
    if (call.depth !== 1 || seen.has(call.to) || !node) continue;
    seen.add(call.to);
    out.push(row(out.length, node, call.kind));
  }
  return out;
}

/** Direct callers of `id`, in the engine's order. */
function callers(ctx: ToolContext, id: string): Neighbour[] {
  const found = ctx.engine.query<GetCallersResult>('get_callers', { id, depth: 1, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo });
  return found.callers.map((c, i) => row(i, c.caller, c.kind));
}

/** Other symbols with the same owner (the enclosing type, or the file for top-level symbols), in source order. */
function siblings(ctx: ToolContext, symbol: GetSymbolResult): Neighbour[] {
  const s = symbol.node;
  if (s.kind === 'file' || !s.file_path || s.external) return [];
  const summary = ctx.engine.query<GetFileSummaryResult>('get_file_summary', { path: s.file_path, limit: NEIGHBOUR_LIMIT }, { repo: ctx.repo });
  const owner = symbol.parent && symbol.parent.kind !== 'file' ? symbol.parent.id : undefined;
  const out: Neighbour[] = [];
  for (const f of summary.symbols) {
    if (f.symbol.id === s.id || f.parent !== owner) continue;
    out.push(row(out.length, f.symbol));
  }
  return out;
}

const preview = (all: Neighbour[]): PreviewList => ({ total: all.length, rows: all.slice(0, PREVIEW_ROWS) });

/** Picks row `index` of `list`, or refuses naming how many there are. */
function pick(list: Neighbour[], index: number, what: string, from: string): string {
  if (list.length === 0) throw new ToolInputError('not_found', `${from} has no ${what}`);
  if (index >= list.length) {
    throw new ToolInputError('invalid_argument', `index ${index} is out of range: ${from} has ${list.length} ${what} (0–${list.length - 1})`);
  }
  return list[index].id;
}

const NAV_ACTIONS = ['goto', 'into', 'up', 'sibling', 'back', 'where', 'read'] as const;

/** `nav`: moves or reads the session cursor and answers with the new position's neighbourhood. */
async function nav(ctx: ToolContext, args: { action: (typeof NAV_ACTIONS)[number]; id?: string; index?: number }): Promise<unknown> {
  const store = storeOf(ctx);
  const { action } = args;
  if (args.id !== undefined && action !== 'goto') {
    throw new ToolInputError('invalid_argument', `id is only taken by action "goto" (got action "${action}")`);
  }
  if (args.index !== undefined && action !== 'into' && action !== 'up' && action !== 'sibling') {
    throw new ToolInputError('invalid_argument', `index is only taken by actions into, up and sibling (got action "${action}")`);
  }
  const index = args.index ?? 0;
  const get = (id: string): GetSymbolResult => ctx.engine.query<GetSymbolResult>('get_symbol', { id }, { repo: ctx.repo });

  let here: GetSymbolResult;
  let previous: string | undefined;
  if (action === 'goto') {
    if (args.id === undefined) throw new ToolInputError('invalid_argument', 'action "goto" needs an id');
    here = get(args.id);
    previous = store.cursor();
    store.moveCursor(here.node.id);
  } else {
    const current = store.cursor();
    if (current === undefined) throw new ToolInputError('invalid_argument', 'no cursor yet: call nav with action "goto" and an id first');
    if (action === 'back') {
      if (store.backStack().length === 0) throw new ToolInputError('invalid_argument', `nothing to go back to: the cursor is at its first position (${current})`);
      here = get(store.backStack()[store.backStack().length - 1]);
      store.backCursor();
      previous = current;
    } else if (action === 'into' || action === 'up' || action === 'sibling') {
      // Resolve the target before moving so a refused move leaves the cursor where it was.
      const list = action === 'into' ? callees(ctx, current) : action === 'up' ? callers(ctx, current) : siblings(ctx, get(current));
      const what = action === 'into' ? 'callees' : action === 'up' ? 'callers' : 'siblings';
      here = get(pick(list, index, what, current));
      previous = current;
      store.moveCursor(here.node.id);
    } else {
      here = get(current);
    }
  }

  const id = here.node.id;
  const answer: Record<string, unknown> = {
    action,
    position: here.node,
    ...(here.parent ? { owner: here.parent } : {}),
    ...(previous !== undefined ? { previous } : {}),
    back_depth: store.backStack().length,
    adjacency: {
      callers: preview(here.node.kind === 'file' ? [] : callers(ctx, id)),
      callees: preview(here.node.kind === 'file' ? [] : callees(ctx, id)),
      siblings: preview(siblings(ctx, here)),
    },
  };
  if (action === 'read') {
    if (!here.node.file_path || here.node.start_line === 0) throw new ToolInputError('invalid_argument', `${id} has no source in this repository (external or file-less)`);
    const source = sourceTools.find((t) => t.name === 'get_symbol_source') as ToolDef | undefined;
    if (!source) throw new Error('get_symbol_source is not registered');
    // `from_line`/`to_line`: the lines read (the window); `source`: their text.
    const read = (await source.handler(ctx, { id })) as { from_line: number; to_line: number; total_lines: number; source: string; truncated: boolean };
    answer.source = { path: here.node.file_path, start_line: read.from_line, end_line: read.to_line, text: read.source, truncated: read.truncated };
  }
  return answer;
}

/** The session family: response re-cutting, the nav cursor and feedback. */
export function sessionTools(): ToolDef[] {
  const grepDef = (name: string, description: string): ToolDef =>
    defineTool({ name, category: 'read', effect: 'read', description, input: grepInput, handler: grep }) as unknown as ToolDef;
  const tools = [
    defineTool({
      name: 'ctx_stats',
      category: 'read',
      effect: 'read',
      description:
        "Lists this session's stored large responses (large answers, newest kept within the session's count and byte bounds): handle, tool, arguments, bytes, line count and age — handles for ctx_grep, ctx_slice, ctx_peek and head_results.",
      input: {},
      handler: (ctx) => {
        const store = storeOf(ctx);
        const now = store.clock();
        return {
          responses: store.responses().map((r) => ({
            handle: r.handle,
            tool: r.tool,
            args: r.args,
            bytes: r.bytes,
            stored_bytes: r.stored_bytes,
            lines: r.lines.length,
            json: r.json,
            age_ms: Math.max(0, now - r.at),
          })),
          count: store.responses().length,
          stored_bytes: store.storedBytes(),
          latest: store.response()?.handle ?? null,
          limits: { max_responses: store.limits.maxResponses, min_bytes: store.limits.minBytes, max_total_bytes: store.limits.maxTotalBytes },
        };
      },
    }),
    grepDef(
      'ctx_grep',
      'Searches one stored response (default: the latest) for a literal or regex, returning matching line numbers and a grep-style block with optional context lines; JSON responses are searched pretty-printed.',
    ),
    grepDef('grep_results', 'Alias of ctx_grep: searches a stored response for a literal or regex, with line numbers and optional context lines.'),
    defineTool({
      name: 'ctx_slice',
      category: 'read',
      effect: 'read',
      description: 'Lines start_line..end_line (1-based, inclusive) of a stored response (JSON is pretty-printed with 2-space indentation), up to 64 KB.',
      input: {
        handle: handleArg,
        start_line: z.number().int().min(1),
        end_line: z.number().int().min(1).describe('Clamped to the last line'),
      },
      handler: (ctx, args) => {
        const r = responseOf(storeOf(ctx), args.handle);
        const total = r.lines.length;
        if (args.start_line > total) {
          throw new ToolInputError('invalid_argument', `start_line ${args.start_line} is past the end of ${r.handle} (${total} lines)`);
        }
        if (args.end_line < args.start_line) {
          throw new ToolInputError('invalid_argument', `end_line ${args.end_line} is before start_line ${args.start_line}`);
        }
        const cut = joinLines(r.lines, args.start_line, Math.min(total, args.end_line));
        return { ...origin(r), start_line: args.start_line, end_line: cut.last, total_lines: total, text: cut.text, truncated: cut.truncated };
      },
    }),
    defineTool({
      name: 'ctx_peek',
      category: 'read',
      effect: 'read',
      description: "The first bytes of a stored response plus its shape (JSON: top-level keys with types and array row counts) — to decide how to grep or slice it.",
      input: {
        handle: handleArg,
        bytes: z.number().int().min(1).max(MAX_TEXT_BYTES).optional().describe('How many bytes of the start to show (default 1024)'),
      },
      handler: (ctx, args) => {
        const r = responseOf(storeOf(ctx), args.handle);
        const want = args.bytes ?? 1024;
        const view = Buffer.from(r.lines.join('\n'));
        // Cut on a character boundary: back off over UTF-8 continuation bytes.
        let end = Math.min(want, view.length);
        while (end < view.length && end > 0 && (view[end] & 0xc0) === 0x80) end--;
        return {
          ...origin(r),
          bytes: r.bytes,
          stored_bytes: r.stored_bytes,
          total_lines: r.lines.length,
          json: r.json,
          shape: r.shape,
          head: view.subarray(0, end).toString('utf8'),
          truncated: end < view.length,
        };
      },
    }),
    defineTool({
      name: 'head_results',
      category: 'read',
      effect: 'read',
      description: 'The first N lines (default 20) of a stored response (JSON pretty-printed), up to 64 KB.',
      input: {
        handle: handleArg,
        lines: z.number().int().min(1).max(10000).optional().describe('How many lines (default 20)'),
      },
      handler: (ctx, args) => {
        const r = responseOf(storeOf(ctx), args.handle);
        const total = r.lines.length;
        const cut = joinLines(r.lines, 1, Math.min(total, args.lines ?? 20));
        return { ...origin(r), start_line: 1, end_line: cut.last, total_lines: total, text: cut.text, truncated: cut.last < total };
      },
    }),
    defineTool({
      name: 'nav',
      category: 'nav',
      effect: 'session_write',
      description:
        'A per-session cursor over the graph: goto (id), into (index-th callee), up (index-th caller), sibling (index-th symbol of the same owner/file), back, where, read (source). Every answer previews up to 5 callers, callees and siblings with the index to pass.',
      input: {
        action: z.enum(NAV_ACTIONS),
        id: target.optional().describe('For goto: symbol id, id without the repo prefix, Owner.name or bare name'),
        index: z.number().int().min(0).optional().describe('For into/up/sibling: 0-based row of the preview list (default 0)'),
      },
      handler: nav,
    }),
    defineTool({
      name: 'set_planning_mode',
      category: 'edit',
      effect: 'session_write',
      description:
        'Turns planning mode on or off for this session: while on, every tool that writes files (edit_file, write_file, edit_symbol, the compact edit …) is refused, so a planning phase is guaranteed to change nothing.',
      input: { enabled: z.boolean().describe('true: no writes until it is turned off') },
      handler: (ctx, args) => {
        const store = storeOf(ctx);
        store.planning = args.enabled;
        return { planning_mode: store.planning, writes_allowed: writesAllowed(store) };
      },
    }),
    defineTool({
      name: 'workflow',
      category: 'edit',
      effect: 'session_write',
      description:
        'A session workflow explore → implement → verify: writing tools are refused while exploring. No arguments: the phase and what to do in it; phase sets one; action "advance" moves to the next, "end" stops the workflow (no gating).',
      input: {
        phase: z.enum(WORKFLOW_PHASES).optional().describe('Set this phase'),
        action: z.enum(['status', 'advance', 'end']).optional().describe('status (default), advance to the next phase, or end the workflow'),
      },
      handler: (ctx, args) => {
        const store = storeOf(ctx);
        if (args.phase !== undefined && args.action !== undefined && args.action !== 'status') {
          throw new ToolInputError('invalid_argument', 'give a phase or an action (advance, end), not both');
        }
        if (args.phase !== undefined) store.workflowPhase = args.phase;
        else if (args.action === 'advance') store.workflowPhase = nextPhase(store.workflowPhase);
        else if (args.action === 'end') store.workflowPhase = undefined;
        const phase = store.workflowPhase;
        return {
          phase: phase ?? null,
          writes_allowed: writesAllowed(store),
          ...(store.planning ? { planning_mode: true } : {}),
          guidance: phase === undefined ? 'No workflow: nothing is gated. Set phase "explore" to start one.' : PHASE_GUIDANCE[phase],
          ...(phase !== undefined && phase !== 'verify' ? { next: nextPhase(phase) } : {}),
        };
      },
    }),
    defineTool({
      name: 'get_symbol_history',
      category: 'edit',
      effect: 'read',
      description:
        'What this session has written: each symbol and file with its edit count, the tools that wrote it and when; a symbol edited 3 or more times is flagged churn (a sign to step back and re-plan).',
      input: { limit: z.number().int().min(1).max(1000).optional().describe('Most rows (default 50), most recently edited first') },
      handler: (ctx, args) => {
        const history = storeOf(ctx).editHistory();
        const limit = args.limit ?? 50;
        const churn = (r: EditRecord): boolean => r.kind === 'symbol' && r.edits >= CHURN_EDITS;
        const rows = history.slice(0, limit).map((r) => ({ ...r, ...(churn(r) ? { churn: true } : {}) }));
        return {
          total: history.length,
          churning: history.filter(churn).length,
          symbols: rows.filter((r) => r.kind === 'symbol'),
          files: rows.filter((r) => r.kind === 'file'),
          truncated: history.length > limit,
        };
      },
    }),
    defineTool({
      name: 'feedback',
      category: 'admin',
      effect: 'session_write',
      description:
        "action record (default): whether a tool's answer was useful, not useful or wrong, or which symbols it missed (rating missing), with symbol ids and a note. Rated ids are remembered for the repository across sessions and move up (useful) or down (not useful, wrong) in search_symbols and every tool that searches. action query: the aggregate — most useful and most missed symbols, ratings and precision/recall per tool.",
      input: {
        action: z.enum(['record', 'query']).default('record').describe('record (default) or query'),
        tool: z.string().min(1).optional().describe('record: the tool the feedback is about'),
        rating: z.enum(FEEDBACK_RATINGS).optional().describe('record: useful, not_useful, wrong, or missing (needed but not returned)'),
        note: z.string().max(2000).optional(),
        ids: z.array(z.string().min(1)).max(100).optional().describe('record: symbol ids the feedback concerns'),
        since: z.string().optional().describe('query: only ratings this recent (7d, 12h, 2w)'),
        top_n: z.number().int().min(1).max(100).default(10).describe('query: rows per top list'),
        all_repos: z.boolean().default(false).describe("query: every repository's feedback, not only this one's"),
      },
      handler: (ctx, args) => {
        if (args.action === 'query') {
          let sinceMs = 0;
          if (args.since !== undefined) {
            const span = parseDuration(args.since);
            if (span === undefined) throw new ToolInputError('invalid_argument', `since: "${args.since}" is not a duration; use e.g. 7d, 12h or 2w`);
            sinceMs = Date.now() - span;
          }
          const report = sidecarAt().feedbackReport({ ...(args.all_repos ? {} : { repo: repoNameOf(ctx) }), since_ms: sinceMs, top_n: args.top_n });
          const pairs = (rows: [string, number][]) => rows.map(([id, count]) => ({ id, count, in_graph: ctx.engine.getNode(ctx.repo, id) !== null }));
          return {
            scope: args.all_repos ? 'all repositories' : repoNameOf(ctx),
            ...(args.since !== undefined ? { since: new Date(sinceMs).toISOString() } : {}),
            ratings: report.ratings,
            by_rating: report.by_rating,
            ...(report.precision !== undefined ? { precision: report.precision } : {}),
            ...(report.recall !== undefined ? { recall: report.recall } : {}),
            most_useful: pairs(report.most_useful),
            most_missed: pairs(report.most_missed),
            most_wrong: pairs(report.most_wrong),
            by_tool: report.by_tool,
            note: 'precision: useful / (useful + not_useful + wrong); recall: useful / (useful + missing).',
          };
        }
        if (args.tool === undefined || args.rating === undefined) {
          throw new ToolInputError('invalid_argument', 'action record needs tool (the tool the feedback is about) and rating (useful, not_useful, wrong or missing)');
        }
        const store = ctx.session?.store;
        const recorded = store?.addFeedback({
          tool: args.tool,
          rating: args.rating,
          ...(args.note !== undefined ? { note: args.note } : {}),
          ...(args.ids !== undefined ? { ids: args.ids } : {}),
        });
        const byRating: Record<string, number> = {};
        for (const f of store?.feedback() ?? []) byRating[f.rating] = (byRating[f.rating] ?? 0) + 1;
        // Only ids the graph knows are kept per symbol (a typo must not leave a phantom entry behind).
        const known = (args.ids ?? []).filter((id) => ctx.engine.getNode(ctx.repo, id) !== null);
        const tallies = recordRating(repoNameOf(ctx), known, args.rating, {
          tool: args.tool,
          ...(args.note !== undefined ? { note: args.note } : {}),
          ...(store ? { session: store.id } : {}),
        });
        const ranks = known.length > 0 && args.rating !== 'missing';
        return {
          ...(recorded !== undefined ? { recorded, kept: store!.feedback().length, by_rating: byRating } : { recorded: 1 }),
          influences_ranking: ranks,
          ...(known.length > 0 ? { ranked: Object.entries(tallies).map(([id, t]) => ({ id, ...t, delta: feedbackDelta(t) })) } : {}),
          ...(args.ids && known.length < args.ids.length ? { unknown_ids: args.ids.filter((id) => !known.includes(id)) } : {}),
        };
      },
    }),
  ];
  return tools as unknown as ToolDef[];
}
