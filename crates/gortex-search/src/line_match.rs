//! Matching a user's pattern against lines of text held elsewhere (a session's stored responses,
//! repository paths): the one place a pattern from a caller is compiled outside `search_text`.
//!
//! Patterns run on the `regex` crate, whose engines take time linear in the text for a compiled
//! pattern (no backtracking), so `(a+)+$` costs what `a+$` costs. What stays is the size of the
//! compiled pattern, which is bounded here: at most [`MAX_QUERY_BYTES`] of pattern, a compiled
//! program of at most [`COMPILED_SIZE_LIMIT`] bytes, a lazy-DFA cache of at most
//! [`DFA_SIZE_LIMIT`] bytes and nesting at most [`NEST_LIMIT`] deep. A pattern past a bound is
//! refused with the regex crate's own message, never run.
//!
//! Offsets of a match are UTF-16 code units (what a JavaScript string indexes), not bytes.

use crate::text::MAX_QUERY_BYTES;
use gortex_core::QueryError;
use regex::{Regex, RegexBuilder};

/// Largest compiled program accepted (the regex crate's `size_limit`; its default is 10 MiB).
pub const COMPILED_SIZE_LIMIT: usize = 1 << 20;
/// Largest lazy-DFA cache per search (the regex crate's `dfa_size_limit`).
pub const DFA_SIZE_LIMIT: usize = 2 << 20;
/// Deepest nesting of groups and repetitions accepted.
pub const NEST_LIMIT: u32 = 100;
/// Most characters of a refused pattern quoted in the refusal.
const QUOTED_CHARS: usize = 80;
/// How to shrink a pattern past [`COMPILED_SIZE_LIMIT`]: Unicode classes repeated by a count are
/// what usually grows it.
pub const TOO_BIG_HELP: &str =
    " (repeat less, or use ASCII classes such as [A-Za-z0-9_] or (?-u:\\w) in place of Unicode \\w, \\d, \\s)";
/// Where the accepted syntax is described; part of every refusal.
pub const SYNTAX_HELP: &str = "patterns use Rust regex syntax (https://docs.rs/regex/latest/regex/#syntax)";

/// How a [`LineMatcher`] reads its pattern.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineMatcherOptions {
    /// The pattern is literal text, not a regular expression.
    pub literal: bool,
    /// Letters match in either case (Unicode simple case folding).
    pub case_insensitive: bool,
}

/// One matching line: its 0-based index and the first match on it, as UTF-16 offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineMatch {
    pub index: usize,
    pub start: usize,
    pub end: usize,
}

/// The first `limit` matching lines of a scan and how many lines matched in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMatches {
    pub matches: Vec<LineMatch>,
    pub total: usize,
}

/// A compiled, bounded pattern.
#[derive(Debug, Clone)]
pub struct LineMatcher {
    regex: Regex,
}

impl LineMatcher {
    /// Compiles `pattern`, or refuses it (`invalid_argument`) naming what is wrong with it.
    pub fn new(pattern: &str, options: LineMatcherOptions) -> Result<LineMatcher, QueryError> {
        if pattern.len() > MAX_QUERY_BYTES {
            return Err(QueryError::invalid(format!(
                "pattern must be at most {MAX_QUERY_BYTES} bytes, got {}",
                pattern.len()
            )));
        }
        let source = if options.literal {
            regex::escape(pattern)
        } else {
            pattern.to_string()
        };
        let regex = RegexBuilder::new(&source)
            .case_insensitive(options.case_insensitive)
            .size_limit(COMPILED_SIZE_LIMIT)
            .dfa_size_limit(DFA_SIZE_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|e| {
                let what = if options.literal { "pattern" } else { "regex" };
                let fix = match e {
                    regex::Error::CompiledTooBig(_) => TOO_BIG_HELP,
                    _ => "",
                };
                QueryError::invalid(format!(
                    "invalid {what} {:?}: {}{fix}; {SYNTAX_HELP}",
                    shortened(pattern),
                    e.to_string().trim_end_matches('.')
                ))
            })?;
        Ok(LineMatcher { regex })
    }

    /// Whether the pattern matches anywhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }

    /// The first match in `text` as UTF-16 offsets.
    pub fn find(&self, text: &str) -> Option<(usize, usize)> {
        let m = self.regex.find(text)?;
        let start = utf16_len(&text[..m.start()]);
        Some((start, start + utf16_len(m.as_str())))
    }

    /// Scans every line: the first `limit` matching lines (in order) and the count of all.
    pub fn match_lines<S: AsRef<str>>(&self, lines: &[S], limit: usize) -> LineMatches {
        let mut out = LineMatches::default();
        for (index, line) in lines.iter().enumerate() {
            let line = line.as_ref();
            if out.matches.len() < limit {
                if let Some((start, end)) = self.find(line) {
                    out.matches.push(LineMatch { index, start, end });
                    out.total += 1;
                }
            } else if self.regex.is_match(line) {
                out.total += 1;
            }
        }
        out
    }
}

/// `pattern` cut to its first [`QUOTED_CHARS`] characters for a message (the parser's message
/// shows the whole pattern where it matters).
fn shortened(pattern: &str) -> String {
    match pattern.char_indices().nth(QUOTED_CHARS) {
        Some((at, _)) => format!("{}…", &pattern[..at]),
        None => pattern.to_string(),
    }
}

/// Length of `text` in UTF-16 code units.
fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regex(pattern: &str) -> LineMatcher {
        LineMatcher::new(pattern, LineMatcherOptions::default()).unwrap()
    }

    fn refusal(pattern: &str, options: LineMatcherOptions) -> QueryError {
        LineMatcher::new(pattern, options).unwrap_err()
    }

    #[test]
    fn nested_quantifiers_run_in_linear_time() {
        // A backtracking engine takes ~2^n steps here (minutes at n = 40, ages at 100 000).
        let m = regex("(a+)+$");
        let line = "a".repeat(100_000);
        let found = m.match_lines(&[line.as_str(), "b", "aab"], 10);
        assert_eq!(found.total, 1);
        assert_eq!(
            found.matches,
            vec![LineMatch {
                index: 0,
                start: 0,
                end: 100_000
            }]
        );
        let tail = format!("{}!", "a".repeat(100_000));
        assert_eq!(regex("(a+)+$").match_lines(&[tail.as_str()], 10).total, 0);
        assert_eq!(regex("(a|aa)+b").match_lines(&[tail.as_str()], 10).total, 0);
        assert_eq!(regex("(.*a){20}x").match_lines(&[tail.as_str()], 10).total, 0);
    }

    #[test]
    fn lines_limit_and_total() {
        let lines: Vec<String> = (1..=20).map(|i| format!("line {i}")).collect();
        let found = regex(r"line 1\d?$").match_lines(&lines, 3);
        assert_eq!(found.total, 11);
        assert_eq!(
            found.matches.iter().map(|m| m.index).collect::<Vec<_>>(),
            vec![0, 9, 10]
        );
        assert_eq!(regex("nothing").match_lines(&lines, 3), LineMatches::default());
        assert_eq!(regex("line").match_lines(&lines, 0).total, 20);
    }

    #[test]
    fn offsets_are_utf16_code_units() {
        // "é" is 2 bytes and 1 unit; "😀" is 4 bytes and 2 units.
        let found = regex("b+").match_lines(&["é😀abbc"], 1);
        assert_eq!(
            found.matches,
            vec![LineMatch {
                index: 0,
                start: 4,
                end: 6
            }]
        );
        assert_eq!(regex("😀").find("é😀"), Some((1, 3)));
    }

    #[test]
    fn flags() {
        let ci = LineMatcherOptions {
            case_insensitive: true,
            ..Default::default()
        };
        assert!(!regex("renderer").is_match("class Renderer"));
        assert!(LineMatcher::new("renderer", ci).unwrap().is_match("class Renderer"));
        assert!(LineMatcher::new("STRASSE|ärger", ci).unwrap().is_match("Ärger"));
        assert!(regex("(?i)renderer").is_match("RENDERER"));
        // Literal text is not interpreted, in either case mode.
        let literal = LineMatcherOptions {
            literal: true,
            ..Default::default()
        };
        assert!(LineMatcher::new(r"a.b(", literal).unwrap().is_match(r"x a.b( y"));
        assert!(!LineMatcher::new(r"a.b(", literal).unwrap().is_match("axb("));
        let both = LineMatcherOptions {
            literal: true,
            case_insensitive: true,
        };
        assert_eq!(LineMatcher::new("A.B", both).unwrap().find("xa.b"), Some((1, 4)));
        assert!(!LineMatcher::new("A.B", both).unwrap().is_match("axb"));
    }

    #[test]
    fn invalid_patterns_are_refused_with_the_parser_message_and_the_syntax() {
        let e = refusal("(", LineMatcherOptions::default());
        assert_eq!(e.code, "invalid_argument");
        assert!(
            e.message.starts_with("invalid regex \"(\": regex parse error:"),
            "{}",
            e.message
        );
        assert!(e.message.contains("unclosed group"), "{}", e.message);
        assert!(e.message.ends_with(SYNTAX_HELP), "{}", e.message);
        // JavaScript-only syntax is named as unsupported rather than silently misread.
        let e = refusal(r"(?<=a)b", LineMatcherOptions::default());
        assert!(e.message.contains("look-around"), "{}", e.message);
        let e = refusal(r"(a)\1", LineMatcherOptions::default());
        assert!(e.message.contains("backreferences are not supported"), "{}", e.message);
    }

    #[test]
    fn oversized_patterns_are_refused() {
        let long = "a".repeat(MAX_QUERY_BYTES + 1);
        let e = refusal(&long, LineMatcherOptions::default());
        assert_eq!(
            e.message,
            format!(
                "pattern must be at most {MAX_QUERY_BYTES} bytes, got {}",
                MAX_QUERY_BYTES + 1
            )
        );
        assert!(LineMatcher::new(
            &"a".repeat(MAX_QUERY_BYTES),
            LineMatcherOptions {
                literal: true,
                ..Default::default()
            }
        )
        .is_ok());
        // Short to write, huge once compiled: refused by the compiled size limit.
        let e = refusal(r"\w{1000}{1000}", LineMatcherOptions::default());
        assert_eq!(e.code, "invalid_argument");
        assert!(e.message.contains("exceeds size limit"), "{}", e.message);
        assert!(e.message.ends_with(SYNTAX_HELP), "{}", e.message);
        assert!(e.message.contains("exceeds size limit of 1048576 bytes (repeat less, or use ASCII classes such as [A-Za-z0-9_] or (?-u:\\w) in place of Unicode"), "{}", e.message);
        // The same repetition of an ASCII class fits.
        assert!(LineMatcher::new(r"(?-u:\w){1000}", LineMatcherOptions::default()).is_ok());
        let e = refusal(
            &format!("{}a{}", "(".repeat(200), ")".repeat(200)),
            LineMatcherOptions::default(),
        );
        assert!(
            e.message
                .starts_with(&format!("invalid regex \"{}…\": regex parse error:", "(".repeat(80))),
            "{}",
            e.message
        );
        assert!(
            e.message
                .contains("maximum number of nested parentheses/brackets (100)"),
            "{}",
            e.message
        );
    }
}
