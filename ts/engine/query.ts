/**
 * The error a failed engine query throws. Argument and result shapes are generated from the Rust
 * types into `generated/query-types.ts`; field names are the Rust side's (snake_case).
 */

/** Stable failure codes a query can answer with. */
export type QueryErrorCode = 'invalid_argument' | 'not_found' | 'ambiguous' | 'unavailable' | 'internal';

const CODES: readonly QueryErrorCode[] = ['invalid_argument', 'not_found', 'ambiguous', 'unavailable', 'internal'];

/** A query the engine refused or could not answer; `code` says which kind of failure. */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(
    readonly code: QueryErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Turns a native rejection (`"<code>: <message>"`) into a QueryError. */
  static fromNative(error: unknown): QueryError {
    // Not `instanceof Error`: under Jest (a vm context) the addon's errors come from another realm.
    const message = (error as { message?: unknown } | null | undefined)?.message;
    const text = typeof message === 'string' ? message : String(error);
    const match = /^([a-z_]+): ([\s\S]*)$/.exec(text);
    if (match && (CODES as readonly string[]).includes(match[1]!)) {
      return new QueryError(match[1] as QueryErrorCode, match[2]!);
    }
    return new QueryError(/not indexed/.test(text) ? 'not_found' : 'internal', text);
  }
}
