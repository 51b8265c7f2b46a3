//! `RegexMatcher`: a caller's pattern compiled by `gortex_search::LineMatcher` (the `regex` crate,
//! linear time, bounded size) so that no user-supplied pattern ever runs on JavaScript's
//! backtracking `RegExp`. One crossing per scan: `matchLines` takes every line at once.

use gortex_search::{LineMatcher, LineMatcherOptions};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// How `new RegexMatcher(pattern, options)` reads the pattern.
#[napi(object)]
pub struct RegexMatcherOptions {
    /// The pattern is literal text, not a regular expression (default false).
    pub literal: Option<bool>,
    /// Letters match in either case (default false).
    pub case_insensitive: Option<bool>,
}

/// One matching line: its 0-based index and the first match on it (UTF-16 offsets, end exclusive).
#[napi(object)]
pub struct RegexLineMatch {
    pub index: u32,
    pub start: u32,
    pub end: u32,
}

/// The first `limit` matching lines and how many lines matched in all.
#[napi(object)]
pub struct RegexLineMatches {
    pub matches: Vec<RegexLineMatch>,
    pub total: u32,
}

/// A pattern in Rust regex syntax, compiled once. The constructor throws
/// `"invalid_argument: <why>"` for a pattern that is invalid or too large.
#[napi]
pub struct RegexMatcher {
    inner: LineMatcher,
}

#[napi]
impl RegexMatcher {
    /// Compiles `pattern`.
    #[napi(constructor)]
    pub fn new(pattern: String, options: Option<RegexMatcherOptions>) -> Result<Self> {
        let options = LineMatcherOptions {
            literal: options.as_ref().and_then(|o| o.literal).unwrap_or(false),
            case_insensitive: options.as_ref().and_then(|o| o.case_insensitive).unwrap_or(false),
        };
        crate::guarded("RegexMatcher", || {
            LineMatcher::new(&pattern, options)
                .map(|inner| RegexMatcher { inner })
                .map_err(|e| crate::to_napi_error(format!("{}: {}", e.code, e.message)))
        })
    }

    /// Whether the pattern matches anywhere in `text`.
    #[napi]
    pub fn test(&self, text: String) -> Result<bool> {
        crate::guarded("RegexMatcher.test", || Ok(self.inner.is_match(&text)))
    }

    /// The first `limit` (default: all) lines the pattern matches, in order, and the count of all.
    #[napi]
    pub fn match_lines(&self, lines: Vec<String>, limit: Option<u32>) -> Result<RegexLineMatches> {
        crate::guarded("RegexMatcher.matchLines", || {
            let limit = limit.map_or(usize::MAX, |n| n as usize);
            let found = self.inner.match_lines(&lines, limit);
            let unit = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            Ok(RegexLineMatches {
                matches: found
                    .matches
                    .iter()
                    .map(|m| RegexLineMatch {
                        index: unit(m.index),
                        start: unit(m.start),
                        end: unit(m.end),
                    })
                    .collect(),
                total: unit(found.total),
            })
        })
    }
}
