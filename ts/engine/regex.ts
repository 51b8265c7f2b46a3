/**
 * Patterns from callers (tool arguments, config) compiled by Rust's `regex` crate in the addon,
 * never by JavaScript's `RegExp`: `RegExp` backtracks, so `(a+)+$` over a few dozen characters
 * blocks the event loop (every session, and the deadline that should end the call) for minutes.
 * The crate runs in time linear in the text, and the addon refuses patterns whose compiled form is
 * too large (`gortex-search/src/line_match.rs` holds the bounds). Syntax is Rust's:
 * https://docs.rs/regex/latest/regex/#syntax (no look-around, no backreferences).
 */
import { buildFromSourceHint, loadNative, NativeLoadError, type NativeRegexMatcher } from './native';
import { QueryError } from './query';
import { packageRoot } from '../support/package-root';

/** Where the accepted pattern syntax is described (argument descriptions cite it). */
export const REGEX_SYNTAX_URL = 'https://docs.rs/regex/latest/regex/#syntax';

/** How a pattern is read. */
export interface RegexMatcherOptions {
  /** The pattern is literal text (default false: a regular expression). */
  literal?: boolean;
  /** Letters match in either case (default false). */
  caseInsensitive?: boolean;
}

/** One matching line: its 0-based index and the first match on it (UTF-16 offsets, end exclusive). */
export interface LineMatch {
  index: number;
  start: number;
  end: number;
}

/** The first `limit` matching lines and how many lines matched in all. */
export interface LineMatches {
  matches: LineMatch[];
  total: number;
}

/** A caller's pattern, compiled once in Rust; every scan is one call into the addon. */
export class RegexMatcher {
  private readonly native: NativeRegexMatcher;

  /** Compiles `pattern`; throws `QueryError` `invalid_argument` naming what is wrong with it. */
  constructor(pattern: string, options: RegexMatcherOptions = {}) {
    const { RegexMatcher: NativeClass } = loadNative();
    if (typeof NativeClass !== 'function') {
      throw new NativeLoadError(`The native addon does not export RegexMatcher (it is stale). ${buildFromSourceHint(packageRoot()).replace('Build it', 'Rebuild it')}`);
    }
    try {
      this.native = new NativeClass(pattern, { literal: options.literal ?? false, caseInsensitive: options.caseInsensitive ?? false });
    } catch (error) {
      throw QueryError.fromNative(error);
    }
  }

  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean {
    return this.native.test(text);
  }

  /** The first `limit` (default: all) lines the pattern matches, in order, and the count of all. */
  matchLines(lines: readonly string[], limit?: number): LineMatches {
    return this.native.matchLines(lines as string[], limit ?? null);
  }
}
