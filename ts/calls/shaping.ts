/**
 * Response shaping shared by every tool: byte/token budgets that page the answer's main list,
 * cursors to fetch the next page, and ETags for conditional fetches. Tools stay unaware of it:
 * answers are deterministic, so a cursor re-runs the call and slices the same list further on.
 */
import { createHash } from 'node:crypto';

/** Options any tool call may carry, removed before the tool sees its arguments. */
export interface ShapingOptions {
  max_bytes?: number;
  max_tokens?: number;
  cursor?: string;
  if_none_match?: string;
}

/** The option names, in one place (the server strips exactly these). */
export const SHAPING_KEYS = ['max_bytes', 'max_tokens', 'cursor', 'if_none_match'] as const;

/** Tokens are estimated at four bytes each (the same rule as the tools' own budgets). */
const BYTES_PER_TOKEN = 4;

/** A shaping option that cannot be honoured. */
export class ShapingError extends Error {
  override name = 'ShapingError';
}

/** The byte budget of a call: the tighter of `max_bytes` and `max_tokens`, or undefined. */
export function byteBudget(o: ShapingOptions): number | undefined {
  for (const [key, value] of [['max_bytes', o.max_bytes], ['max_tokens', o.max_tokens]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new ShapingError(`${key} must be a positive integer, got ${JSON.stringify(value)}`);
    }
  }
  const budgets = [o.max_bytes, o.max_tokens === undefined ? undefined : o.max_tokens * BYTES_PER_TOKEN].filter(
    (b): b is number => b !== undefined,
  );
  return budgets.length === 0 ? undefined : Math.min(...budgets);
}

/** A stable key of a call, so a cursor cannot be replayed against another call. */
export function callKey(tool: string, args: unknown): string {
  return createHash('sha256').update(`${tool}\n${JSON.stringify(args)}`).digest('hex').slice(0, 12);
}

interface CursorData {
  k: string;
  f: string;
  o: number;
}

function decodeCursor(cursor: string, key: string): CursorData {
  let data: CursorData;
  try {
    data = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorData;
  } catch {
    throw new ShapingError('cursor is not one this server issued; pass the next_cursor of the previous page unchanged');
  }
  if (typeof data !== 'object' || data === null || typeof data.f !== 'string' || !Number.isInteger(data.o) || data.o < 0) {
    throw new ShapingError('cursor is malformed; pass the next_cursor of the previous page unchanged');
  }
  if (data.k !== key) throw new ShapingError('cursor belongs to another call; repeat the same tool and arguments with it');
  return data;
}

/**
 * Lists that only hold what another list's rows name by id (`find_usages`' `nodes`, named by
 * `usages[].from`): never paged themselves, cut to what the page of their rows names.
 */
const COMPANIONS: Record<string, { rows: string; key: string }> = { nodes: { rows: 'usages', key: 'from' } };

/** The result's largest top-level list (the one pages are cut from). */
function mainList(result: Record<string, unknown>): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  for (const [key, value] of Object.entries(result)) {
    if (!Array.isArray(value)) continue;
    const companion = COMPANIONS[key];
    if (companion && Array.isArray(result[companion.rows])) continue;
    const size = JSON.stringify(value).length;
    if (size > bestSize) {
      best = key;
      bestSize = size;
    }
  }
  return best;
}

/**
 * Pages `result` for a budget and/or cursor. Without either, the result is returned as is. The
 * page records `{ field, offset, returned, total, next_cursor? }` under `_page`.
 */
export function shape(result: unknown, options: ShapingOptions, key: string): unknown {
  const budget = byteBudget(options);
  if (budget === undefined && options.cursor === undefined) return result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    if (options.cursor !== undefined) throw new ShapingError('this answer is not a list; it has no pages');
    return result;
  }
  const record = result as Record<string, unknown>;
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor, key);
  const field = cursor?.f ?? mainList(record);
  if (field === undefined || !Array.isArray(record[field])) {
    if (cursor) throw new ShapingError(`cursor names list "${cursor.f}", which this answer does not have`);
    return result;
  }
  const items = record[field] as unknown[];
  const offset = cursor?.o ?? 0;
  const rest = { ...record, [field]: [] };
  let used = Buffer.byteLength(JSON.stringify(rest)) + 160; // room for `_page`
  const page: unknown[] = [];
  for (let i = offset; i < items.length; i++) {
    const cost = Buffer.byteLength(JSON.stringify(items[i])) + 1;
    // Always return at least one row so paging makes progress, even under a tiny budget.
    if (budget !== undefined && page.length > 0 && used + cost > budget) break;
    page.push(items[i]);
    used += cost;
  }
  const next = offset + page.length;
  const more = next < items.length;
  // A companion list keeps only the entries this page's rows name.
  for (const [name, companion] of Object.entries(COMPANIONS)) {
    if (companion.rows !== field || !Array.isArray(record[name])) continue;
    const named = new Set(page.map((row) => (row as Record<string, unknown> | null)?.[companion.key]));
    rest[name] = (record[name] as { id?: unknown }[]).filter((entry) => named.has(entry?.id));
  }
  return {
    ...rest,
    [field]: page,
    _page: {
      field,
      offset,
      returned: page.length,
      total: items.length,
      ...(more ? { next_cursor: Buffer.from(JSON.stringify({ k: key, f: field, o: next })).toString('base64url') } : {}),
    },
  };
}

/** The ETag of a response text. */
export function etagOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
