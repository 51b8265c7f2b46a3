/**
 * Per-MCP-session state: a bounded ring of large tool responses that the re-cut tools
 * (`ctx_grep`, `ctx_slice`, …) work on, the `nav` cursor, the agent feedback log and the active project.
 * Everything lives in memory and dies with the session.
 */

import { randomBytes } from 'node:crypto';
import { WorkingSet } from './working-set';

/** Tools whose own answers are never recorded: re-cutting a re-cut would only push real responses out. */
export const UNRECORDED_TOOLS: ReadonlySet<string> = new Set([
  'ctx_stats',
  'ctx_grep',
  'grep_results',
  'ctx_slice',
  'ctx_peek',
  'head_results',
  'nav',
  'feedback',
]);

/** The phases of the `workflow` tool: writes wait until `implement`. */
export const WORKFLOW_PHASES = ['explore', 'implement', 'verify'] as const;

/** One phase of the workflow. */
export type WorkflowPhase = (typeof WORKFLOW_PHASES)[number];

/** What this session has written to one symbol or file (`get_symbol_history`). */
export interface EditRecord {
  /** A symbol id, or a repository-relative path for a file-level write. */
  key: string;
  kind: 'symbol' | 'file';
  path: string;
  edits: number;
  tools: string[];
  first_at: number;
  last_at: number;
}

/** Most symbols and files a session's edit history keeps (the least recently edited go first). */
const MAX_EDIT_RECORDS = 1000;

/** Bounds of a `SessionStore` (every field optional; the defaults are the documented ones). */
export interface SessionStoreOptions {
  /** Most responses kept (default 16). */
  maxResponses?: number;
  /** Only responses strictly larger than this many bytes are kept (default 2048). */
  minBytes?: number;
  /** Most bytes of stored renderings kept in total (default 8 MiB). */
  maxTotalBytes?: number;
  /** Deepest `nav` back stack (default 64). */
  maxBackStack?: number;
  /** Most feedback entries kept (default 256). */
  maxFeedback?: number;
  /** Clock in epoch milliseconds (tests pin it so ages are exact). */
  now?: () => number;
}

/** The top-level shape of a stored JSON response. */
export type ResponseShape =
  | { type: 'text' }
  | { type: 'array'; rows: number }
  | { type: 'object'; keys: ShapeKey[]; more_keys?: number }
  | { type: 'scalar' };

/** One top-level key of a JSON object response. */
export interface ShapeKey {
  key: string;
  type: 'array' | 'object' | 'string' | 'number' | 'boolean' | 'null';
  /** Length, for arrays. */
  rows?: number;
  /** Key count, for objects. */
  keys?: number;
}

/** One stored response. */
export interface StoredResponse {
  handle: string;
  tool: string;
  /** The call's arguments as compact JSON, cut at 200 characters. */
  args: string;
  /** Size of the response text as answered. */
  bytes: number;
  /** Size of the stored rendering (pretty-printed for JSON); this is what the byte budget counts. */
  stored_bytes: number;
  /** Whether the response was JSON (and is stored pretty-printed with 2-space indentation). */
  json: boolean;
  shape: ResponseShape;
  /** Lines of the stored rendering. */
  lines: readonly string[];
  /** Epoch milliseconds when it was recorded. */
  at: number;
}

/** One piece of agent feedback. */
export interface FeedbackEntry {
  tool: string;
  rating: 'useful' | 'not_useful' | 'wrong' | 'missing';
  note?: string;
  ids?: string[];
  /** Epoch milliseconds. */
  at: number;
}

/** Shown for arguments longer than this. */
const ARGS_SUMMARY_CHARS = 200;
/** Keys listed in a shape summary. */
const SHAPE_KEYS = 50;

/**
 * The pretty-printed rendering (when `text` is a JSON object or array) or the text itself.
 * `value`, when given, is what `text` is the JSON of: rendered as is, without parsing the text
 * back (the same rendering and shape; the parse was most of a large answer's cost).
 */
function render(text: string, value?: unknown): { view: string; json: boolean; shape: ResponseShape } {
  const own = asJson(value);
  if (own !== null && typeof own === 'object') return { view: JSON.stringify(own, null, 2), json: true, shape: shapeOf(own) };
  const head = text.trimStart()[0];
  if (head === '{' || head === '[') {
    try {
      const value: unknown = JSON.parse(text);
      return { view: JSON.stringify(value, null, 2), json: true, shape: shapeOf(value) };
    } catch {
      // Not JSON after all (gcx or prose that starts with a bracket): kept as text.
    }
  }
  return { view: text, json: false, shape: { type: 'text' } };
}

/** A value as `JSON.stringify` sees it: its `toJSON()` when it has one. */
function asJson(value: unknown): unknown {
  const withToJson = value as { toJSON?: unknown } | null | undefined;
  return typeof withToJson?.toJSON === 'function' ? (withToJson.toJSON as () => unknown)() : value;
}

/** Top-level keys with their types and sizes, or an array's row count (as the value's JSON has them). */
function shapeOf(value: unknown): ResponseShape {
  if (Array.isArray(value)) return { type: 'array', rows: value.length };
  if (value === null || typeof value !== 'object') return { type: 'scalar' };
  const entries = jsonEntries(value);
  const keys = entries.slice(0, SHAPE_KEYS).map(([key, v]): ShapeKey => {
    if (Array.isArray(v)) return { key, type: 'array', rows: v.length };
    // JSON writes a non-finite number as null.
    if (v === null || (typeof v === 'number' && !Number.isFinite(v))) return { key, type: 'null' };
    if (typeof v === 'object') return { key, type: 'object', keys: jsonEntries(v).length };
    return { key, type: typeof v as 'string' | 'number' | 'boolean' };
  });
  return entries.length > SHAPE_KEYS ? { type: 'object', keys, more_keys: entries.length - SHAPE_KEYS } : { type: 'object', keys };
}

/** An object's entries as its JSON has them: values by `toJSON()`, without the keys JSON drops (undefined, functions, symbols). */
function jsonEntries(value: object): [string, unknown][] {
  return Object.entries(value)
    .map(([key, v]): [string, unknown] => [key, asJson(v)])
    .filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
}

/** Splits into lines; a final newline does not make an extra empty line. */
function splitLines(view: string): string[] {
  const lines = view.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Compact JSON of the arguments, cut for display. */
function summarizeArgs(args: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(args ?? {}) ?? '{}';
  } catch {
    s = '(unserialisable)';
  }
  return s.length > ARGS_SUMMARY_CHARS ? `${s.slice(0, ARGS_SUMMARY_CHARS)}…` : s;
}

/** The state of one MCP session: response ring, nav cursor and feedback log. */
export class SessionStore {
  /** The bounds in force. */
  readonly limits: Required<Omit<SessionStoreOptions, 'now'>>;
  private readonly now: () => number;
  private readonly ring: StoredResponse[] = [];
  private totalBytes = 0;
  private nextHandle = 1;
  private current: string | undefined;
  private readonly back: string[] = [];
  private readonly feedbackLog: FeedbackEntry[] = [];
  private feedbackTotal = 0;
  /** The project `set_active_project` narrowed this session's queries to. */
  activeProject: string | undefined;
  /** The repositories a session opened at a parent folder spans (queries fan out over them). */
  boundRepos: string[] | undefined;
  /** Planning mode (`set_planning_mode`): no tool may write a file while it is on. */
  planning = false;
  /** The workflow's phase once `workflow` started one; writes are refused in `explore`. */
  workflowPhase: WorkflowPhase | undefined;
  private readonly editLog = new Map<string, EditRecord>();
  /** What the session read and wrote (the `stale_refs` channel's working set). */
  readonly workingSet = new WorkingSet();
  /** A short id naming this session in durable records (memories and notes it saved, feedback). */
  readonly id = `s-${randomBytes(4).toString('hex')}`;
  /** Tokens the session's answers returned against what plain reads would have cost, per tool. */
  readonly savings = new Map<string, { calls: number; returned_tokens: number; baseline_tokens: number }>();

  constructor(options: SessionStoreOptions = {}) {
    this.limits = {
      maxResponses: options.maxResponses ?? 16,
      minBytes: options.minBytes ?? 2048,
      maxTotalBytes: options.maxTotalBytes ?? 8 * 1024 * 1024,
      maxBackStack: options.maxBackStack ?? 64,
      maxFeedback: options.maxFeedback ?? 256,
    };
    for (const [k, v] of Object.entries(this.limits)) {
      if (!Number.isInteger(v) || v < (k === 'minBytes' ? 0 : 1)) throw new RangeError(`SessionStore: ${k} must be a positive integer, got ${v}`);
    }
    this.now = options.now ?? Date.now;
  }

  // ---- edit history --------------------------------------------------------------------------

  /** Records one write by `tool` to a symbol (`kind: 'symbol'`, `key` its id) or a file. */
  recordEdit(kind: 'symbol' | 'file', key: string, path: string, tool: string): void {
    this.workingSet.noteEdit(kind, key, path, tool);
    const at = this.now();
    const existing = this.editLog.get(key);
    if (existing) {
      this.editLog.delete(key);
      existing.edits++;
      existing.last_at = at;
      if (!existing.tools.includes(tool)) existing.tools.push(tool);
      this.editLog.set(key, existing);
    } else {
      this.editLog.set(key, { key, kind, path, edits: 1, tools: [tool], first_at: at, last_at: at });
      if (this.editLog.size > MAX_EDIT_RECORDS) this.editLog.delete(this.editLog.keys().next().value!);
    }
  }

  /** Every symbol and file this session wrote, most recently edited first. */
  editHistory(): EditRecord[] {
    return [...this.editLog.values()].reverse().map((r) => ({ ...r, tools: [...r.tools] }));
  }

  // ---- response ring ------------------------------------------------------------------------

  /**
   * Keeps `text` (the answer of `tool` called with `args`; `value`, when given, the value `text`
   * is the JSON of) when it is larger than `minBytes`,
   * evicting the oldest responses to stay within the count and byte bounds. Returns its handle
   * (`r1`, `r2`, …; never reused), or undefined when it was not kept (small, a re-cut tool's own
   * answer, or alone larger than the byte budget).
   */
  record(tool: string, args: unknown, text: string, value?: unknown): string | undefined {
    if (UNRECORDED_TOOLS.has(tool)) return undefined;
    const bytes = Buffer.byteLength(text);
    if (bytes <= this.limits.minBytes) return undefined;
    const { view, json, shape } = render(text, value);
    const stored = Buffer.byteLength(view);
    if (stored > this.limits.maxTotalBytes) return undefined;
    while (this.ring.length >= this.limits.maxResponses || this.totalBytes + stored > this.limits.maxTotalBytes) {
      const evicted = this.ring.shift();
      if (!evicted) break;
      this.totalBytes -= evicted.stored_bytes;
    }
    const handle = `r${this.nextHandle++}`;
    this.ring.push({ handle, tool, args: summarizeArgs(args), bytes, stored_bytes: stored, json, shape, lines: splitLines(view), at: this.now() });
    this.totalBytes += stored;
    return handle;
  }

  /** The stored response `handle`, or the latest one when omitted; undefined when there is none. */
  response(handle?: string): StoredResponse | undefined {
    if (handle === undefined) return this.ring[this.ring.length - 1];
    return this.ring.find((r) => r.handle === handle);
  }

  /** Stored responses, oldest first. */
  responses(): readonly StoredResponse[] {
    return this.ring;
  }

  /** Bytes of all stored renderings. */
  storedBytes(): number {
    return this.totalBytes;
  }

  /** Current epoch milliseconds by the store's clock. */
  clock(): number {
    return this.now();
  }

  // ---- nav cursor ---------------------------------------------------------------------------

  /** The symbol id under the cursor, if one was set. */
  cursor(): string | undefined {
    return this.current;
  }

  /** Ids `back` would return to, most recent last. */
  backStack(): readonly string[] {
    return this.back;
  }

  /** Moves the cursor to `id`, pushing the previous position (the oldest falls off past the bound). */
  moveCursor(id: string): void {
    if (this.current !== undefined) {
      this.back.push(this.current);
      if (this.back.length > this.limits.maxBackStack) this.back.shift();
    }
    this.current = id;
  }

  /** Returns to the previous position; undefined (cursor unchanged) when the stack is empty. */
  backCursor(): string | undefined {
    const previous = this.back.pop();
    if (previous !== undefined) this.current = previous;
    return previous;
  }

  // ---- feedback -----------------------------------------------------------------------------

  /** Logs one piece of feedback (the oldest falls off past the bound); returns entries ever logged. */
  addFeedback(entry: Omit<FeedbackEntry, 'at'>): number {
    this.feedbackLog.push({ ...entry, at: this.now() });
    if (this.feedbackLog.length > this.limits.maxFeedback) this.feedbackLog.shift();
    return ++this.feedbackTotal;
  }

  /** Kept feedback, oldest first. */
  feedback(): readonly FeedbackEntry[] {
    return this.feedbackLog;
  }
}
