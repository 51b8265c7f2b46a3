//! `search_text`: literal or regex search over a [`TextIndex`], trigram-prefiltered, with the
//! enclosing graph symbol of every hit.
//!
//! Semantics:
//! - Hits are lines: one hit per matching line (the first match on it), in (path, line) order.
//!   A match spanning lines (a literal or regex containing `\n`) is reported at its first line.
//! - `case_sensitive: false` folds ASCII letters only, the same folding the index uses; regex
//!   mode with `case_sensitive: false` uses the regex engine's Unicode simple case folding and
//!   the planner keeps the extra variants (e.g. the Kelvin sign for `k`) as alternatives.
//! - Regexes are line-oriented: `^`/`$` match at line boundaries (`\r\n` aware), `.` never
//!   matches a newline.
//! - `path` containing a glob metacharacter (`* ? [ ] { }`) is a glob (`*` stays within one
//!   directory, `**` crosses directories; a glob without `/` matches the file name anywhere);
//!   otherwise it is a plain string prefix of the repository-relative path (`src/compiler/`,
//!   or `src/comp` which also matches `src/compiler/…`).

use crate::trigram::{DocId, TextIndex, TrigramQuery};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::{Graph, NodeIndex};
use memchr::{memchr, memmem, memrchr};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Default number of hits returned by `search_text`.
pub const DEFAULT_TEXT_LIMIT: usize = 100;
/// Largest accepted `limit`.
pub const MAX_LIMIT: usize = 1000;
/// Longest accepted query, in bytes.
pub const MAX_QUERY_BYTES: usize = 4096;
/// Largest accepted `context_chars`.
pub const MAX_CONTEXT_CHARS: usize = 1000;
/// Longest hit text (in characters) when no `context_chars` is given.
pub const MAX_TEXT_CHARS: usize = 240;
/// Marker for text cut from a hit's line.
pub const ELLIPSIS: &str = "…";
/// Characters kept before the match when a long line is cut (without `context_chars`).
const DEFAULT_BEFORE_CHARS: usize = 80;

/// Arguments of `search_text`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchTextArgs {
    /// Literal text, or a regular expression when `regexp` is true.
    pub query: String,
    /// Treat `query` as a regular expression (Rust `regex` syntax).
    #[serde(default)]
    pub regexp: bool,
    /// Match case exactly (default true).
    #[serde(default)]
    pub case_sensitive: Option<bool>,
    /// A glob (`src/**/*.ts`, `*.go`) or a plain path prefix (`src/compiler/`).
    #[serde(default)]
    pub path: Option<String>,
    /// Maximum hits, 1..=1000 (default 100).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Characters of context kept on each side of the match (0..=1000); without it, lines
    /// longer than 240 characters are cut around the match.
    #[serde(default)]
    pub context_chars: Option<usize>,
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TextHit {
    pub path: String,
    /// 1-based line of the match start.
    pub line: u32,
    /// 1-based byte column of the match start.
    pub column: u32,
    /// The line without its newline, cut around the match (marked with `…`) when long.
    pub text: String,
    /// The innermost graph symbol whose span holds the line; the file node when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol_name: Option<String>,
}

/// Result of `search_text`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SearchTextResult {
    pub hits: Vec<TextHit>,
    /// Matching lines found; exact unless `truncated` (then a lower bound).
    pub total_hits: usize,
    /// More than `limit` lines match; scanning stopped early.
    pub truncated: bool,
    /// Files with at least one hit among the files scanned.
    pub files_matched: usize,
    /// Files left after the trigram prefilter and the path filter.
    pub candidate_files: usize,
    /// Documents in the index.
    pub docs: usize,
    /// Candidate files that could not be read back from disk (removed since the last sync).
    #[serde(skip_serializing_if = "is_zero")]
    pub unreadable_files: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Searches the indexed files for a literal or regex; see the module docs for the semantics.
pub fn search_text(idx: &TextIndex, g: &Graph, args: &SearchTextArgs) -> Result<SearchTextResult, QueryError> {
    check_query(&args.query)?;
    let limit = check_limit(args.limit, DEFAULT_TEXT_LIMIT)?;
    if let Some(n) = args.context_chars {
        if n > MAX_CONTEXT_CHARS {
            return Err(QueryError::invalid(format!(
                "context_chars must be 0..={MAX_CONTEXT_CHARS}, got {n}"
            )));
        }
    }
    let filter = PathFilter::parse("path", args.path.as_deref())?;
    let pattern = Pattern::new(&args.query, args.regexp, args.case_sensitive.unwrap_or(true))?;
    let context = args.context_chars;
    let scan = scan(idx, &pattern, &filter, limit, &|m: &LineMatch<'_>| {
        let symbol = enclosing_chain(g, m.path, m.line).first().map(|&i| g.node_at(i));
        TextHit {
            path: m.path.to_string(),
            line: m.line,
            column: m.column,
            text: snippet(m.text, m.range.clone(), context),
            symbol_id: symbol.map(|n| n.id.to_string()),
            symbol_name: symbol.map(|n| n.name.clone()),
        }
    });
    Ok(SearchTextResult {
        hits: scan.hits,
        total_hits: scan.total_hits,
        truncated: scan.truncated,
        files_matched: scan.files_matched,
        candidate_files: scan.candidate_files,
        docs: idx.doc_count(),
        unreadable_files: scan.unreadable_files,
    })
}

// ---------------------------------------------------------------------------------------------
// Shared pieces (also used by `find_declaration`).

pub(crate) fn check_query(query: &str) -> Result<(), QueryError> {
    if query.is_empty() {
        return Err(QueryError::invalid("query must not be empty"));
    }
    if query.len() > MAX_QUERY_BYTES {
        return Err(QueryError::invalid(format!(
            "query must be at most {MAX_QUERY_BYTES} bytes, got {}",
            query.len()
        )));
    }
    Ok(())
}

pub(crate) fn check_limit(limit: Option<usize>, default: usize) -> Result<usize, QueryError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(n) => Err(QueryError::invalid(format!("limit must be 1..={MAX_LIMIT}, got {n}"))),
    }
}

/// A compiled query: the trigram plan that narrows candidates and the matcher that verifies.
pub(crate) struct Pattern {
    pub(crate) plan: TrigramQuery,
    matcher: Matcher,
}

enum Matcher {
    Literal(Box<memmem::Finder<'static>>),
    Regex(regex::bytes::Regex),
}

impl Pattern {
    /// Compiles a literal (`regex == false`) or a regex; an invalid regex is an invalid argument
    /// carrying the parser's message.
    pub(crate) fn new(query: &str, regex: bool, case_sensitive: bool) -> Result<Pattern, QueryError> {
        if !regex {
            let plan = TrigramQuery::literal(query.as_bytes());
            let matcher = if case_sensitive {
                Matcher::Literal(Box::new(memmem::Finder::new(query.as_bytes()).into_owned()))
            } else {
                // ASCII-only folding, matching the index; the regex engine picks a fast
                // case-insensitive literal strategy.
                let mut pattern = String::from("(?i-u)");
                for &b in query.as_bytes() {
                    if b.is_ascii_alphanumeric() {
                        pattern.push(b as char);
                    } else {
                        pattern.push_str(&format!("\\x{b:02X}"));
                    }
                }
                let re = regex::bytes::RegexBuilder::new(&pattern)
                    .size_limit(64 << 20)
                    .build()
                    .map_err(|e| QueryError::invalid(format!("query cannot be matched case-insensitively: {e}")))?;
                Matcher::Regex(re)
            };
            return Ok(Pattern { plan, matcher });
        }
        // The same bounds as every caller-supplied pattern (`line_match`): the crate's 10 MiB
        // default lets a Unicode class repeated by a count take seconds per search.
        let re = regex::bytes::RegexBuilder::new(query)
            .case_insensitive(!case_sensitive)
            .multi_line(true)
            .crlf(true)
            .size_limit(crate::line_match::COMPILED_SIZE_LIMIT)
            .dfa_size_limit(crate::line_match::DFA_SIZE_LIMIT)
            .nest_limit(crate::line_match::NEST_LIMIT)
            .build()
            .map_err(|e| {
                let fix = match e {
                    regex::Error::CompiledTooBig(_) => crate::line_match::TOO_BIG_HELP,
                    _ => "",
                };
                QueryError::invalid(format!("invalid regex {query:?}: {e}{fix}"))
            })?;
        let plan = regex_syntax::ParserBuilder::new()
            .utf8(false)
            .case_insensitive(!case_sensitive)
            .multi_line(true)
            .crlf(true)
            .build()
            .parse(query)
            .map(|hir| TrigramQuery::from_hir(&hir))
            .unwrap_or(TrigramQuery::All);
        Ok(Pattern {
            plan,
            matcher: Matcher::Regex(re),
        })
    }

    fn find_at(&self, hay: &[u8], start: usize) -> Option<(usize, usize)> {
        match &self.matcher {
            Matcher::Literal(f) => f.find(&hay[start..]).map(|i| (start + i, start + i + f.needle().len())),
            Matcher::Regex(re) => re.find_at(hay, start).map(|m| (m.start(), m.end())),
        }
    }
}

/// Which paths a search covers.
pub(crate) enum PathFilter {
    Any,
    Prefix(String),
    Glob {
        matcher: globset::GlobMatcher,
        file_name_only: bool,
    },
}

impl PathFilter {
    /// Parses a path argument: a glob when it holds a glob metacharacter, else a string prefix.
    pub(crate) fn parse(arg: &str, value: Option<&str>) -> Result<PathFilter, QueryError> {
        let Some(raw) = value else { return Ok(PathFilter::Any) };
        let mut p = raw.trim();
        while let Some(rest) = p.strip_prefix("./") {
            p = rest;
        }
        let p = p.trim_start_matches('/');
        if p.is_empty() {
            return Err(QueryError::invalid(format!(
                "{arg} must be a glob like `src/**/*.ts` or a path prefix like `src/compiler/`, got {raw:?}"
            )));
        }
        if !p.contains(['*', '?', '[', ']', '{', '}']) {
            return Ok(PathFilter::Prefix(p.to_string()));
        }
        let glob = globset::GlobBuilder::new(p)
            .literal_separator(true)
            .build()
            .map_err(|e| QueryError::invalid(format!("{arg} is not a valid glob: {raw:?}: {e}")))?;
        Ok(PathFilter::Glob {
            matcher: glob.compile_matcher(),
            file_name_only: !p.contains('/'),
        })
    }

    pub(crate) fn matches(&self, path: &str) -> bool {
        match self {
            PathFilter::Any => true,
            PathFilter::Prefix(p) => path.starts_with(p.as_str()),
            PathFilter::Glob {
                matcher,
                file_name_only,
            } => {
                if *file_name_only {
                    matcher.is_match(path.rsplit('/').next().unwrap_or(path))
                } else {
                    matcher.is_match(path)
                }
            }
        }
    }
}

/// One matching line handed to a hit builder.
pub(crate) struct LineMatch<'a> {
    pub(crate) path: &'a str,
    pub(crate) line: u32,
    pub(crate) column: u32,
    /// The line without its line terminator.
    pub(crate) text: &'a [u8],
    /// The match within `text` (clipped to the line).
    pub(crate) range: Range<usize>,
}

/// Outcome of a bounded scan.
pub(crate) struct Scan<H> {
    pub(crate) hits: Vec<H>,
    pub(crate) total_hits: usize,
    pub(crate) truncated: bool,
    pub(crate) files_matched: usize,
    pub(crate) candidate_files: usize,
    pub(crate) unreadable_files: usize,
}

struct DocScan<H> {
    hits: Vec<H>,
    unreadable: bool,
}

/// Verifies candidates in path order, in parallel chunks that grow as long as fewer than
/// `limit` hits are found; stops after the chunk that found the `limit + 1`-th hit (so
/// `truncated` is exact). Results do not depend on thread timing.
pub(crate) fn scan<H: Send>(
    idx: &TextIndex,
    pattern: &Pattern,
    filter: &PathFilter,
    limit: usize,
    make: &(dyn Fn(&LineMatch<'_>) -> H + Sync),
) -> Scan<H> {
    let candidates: Vec<DocId> = idx
        .candidates(&pattern.plan)
        .into_iter()
        .filter(|&id| filter.matches(idx.doc_path(id)))
        .collect();
    let mut out = Scan {
        hits: Vec::new(),
        total_hits: 0,
        truncated: false,
        files_matched: 0,
        candidate_files: candidates.len(),
        unreadable_files: 0,
    };
    let (mut start, mut chunk) = (0, 16);
    while start < candidates.len() && !out.truncated {
        let end = (start + chunk).min(candidates.len());
        let cap = limit + 1 - out.hits.len();
        let results: Vec<DocScan<H>> = candidates[start..end]
            .par_iter()
            .map(|&id| match idx.doc_content(id) {
                Ok(content) => DocScan {
                    hits: doc_matches(idx.doc_path(id), &content, pattern, cap, make),
                    unreadable: false,
                },
                Err(_) => DocScan {
                    hits: Vec::new(),
                    unreadable: true,
                },
            })
            .collect();
        for r in results {
            if r.unreadable {
                out.unreadable_files += 1;
                continue;
            }
            if !r.hits.is_empty() {
                out.files_matched += 1;
            }
            out.total_hits += r.hits.len();
            for h in r.hits {
                if out.hits.len() < limit {
                    out.hits.push(h);
                } else {
                    out.truncated = true;
                }
            }
        }
        start = end;
        chunk = (chunk * 2).min(512);
    }
    out
}

/// Up to `cap` matching lines of one file, in line order.
fn doc_matches<H>(
    path: &str,
    content: &[u8],
    pattern: &Pattern,
    cap: usize,
    make: &(dyn Fn(&LineMatch<'_>) -> H + Sync),
) -> Vec<H> {
    let mut hits = Vec::new();
    let len = content.len();
    let (mut pos, mut line, mut counted) = (0usize, 1u32, 0usize);
    while pos <= len && hits.len() < cap {
        let Some((s, e)) = pattern.find_at(content, pos) else {
            break;
        };
        if s == len && (len == 0 || content[len - 1] == b'\n') {
            // An empty match after the final newline is not on a line of the file.
            break;
        }
        line += memchr::memchr_iter(b'\n', &content[counted..s]).count() as u32;
        counted = s;
        let line_start = memrchr(b'\n', &content[..s]).map_or(0, |i| i + 1);
        let line_end = memchr(b'\n', &content[s..]).map_or(len, |i| s + i);
        let mut text_end = line_end;
        if text_end > line_start && content[text_end - 1] == b'\r' {
            text_end -= 1;
        }
        let from = s.min(text_end) - line_start;
        let to = e.clamp(s.min(text_end), text_end) - line_start;
        hits.push(make(&LineMatch {
            path,
            line,
            column: (s - line_start + 1) as u32,
            text: &content[line_start..text_end],
            range: from..to,
        }));
        if line_end >= len {
            break;
        }
        pos = line_end + 1;
    }
    hits
}

/// Graph nodes around a line of a file, innermost first: symbols whose span holds the line
/// (smallest span first), then the file node.
pub(crate) fn enclosing_chain(g: &Graph, path: &str, line: u32) -> Vec<NodeIndex> {
    let nodes = g.file_nodes(path);
    let mut symbols: Vec<NodeIndex> = nodes
        .iter()
        .copied()
        .filter(|&i| {
            let n = g.node_at(i);
            !matches!(n.kind, NodeKind::File | NodeKind::Package | NodeKind::Import)
                && n.span.start_line <= line
                && line <= n.span.end_line
        })
        .collect();
    symbols.sort_by_key(|&i| {
        let s = g.node_at(i).span;
        (
            s.end_line - s.start_line,
            std::cmp::Reverse((s.start_line, s.start_col)),
            i,
        )
    });
    if let Some(&file) = nodes.iter().find(|&&i| g.node_at(i).kind == NodeKind::File) {
        symbols.push(file);
    }
    symbols
}

/// The hit text: the whole line when short; otherwise cut around the match with `…` markers.
/// With `context`, exactly that many characters are kept on each side of the match.
pub(crate) fn snippet(line: &[u8], range: Range<usize>, context: Option<usize>) -> String {
    let (before, match_max, after) = match context {
        None => {
            if line.len() <= MAX_TEXT_CHARS || char_count(line) <= MAX_TEXT_CHARS {
                return String::from_utf8_lossy(line).into_owned();
            }
            (DEFAULT_BEFORE_CHARS, MAX_TEXT_CHARS - DEFAULT_BEFORE_CHARS, None)
        }
        Some(n) => (n, MAX_TEXT_CHARS, Some(n)),
    };
    let (pre, pre_cut) = tail_chars(&line[..range.start], before);
    let (mat, mat_cut) = head_chars(&line[range.clone()], match_max);
    let mut out = String::new();
    if pre_cut {
        out.push_str(ELLIPSIS);
    }
    out.push_str(&String::from_utf8_lossy(pre));
    out.push_str(&String::from_utf8_lossy(mat));
    if mat_cut {
        out.push_str(ELLIPSIS);
        return out;
    }
    let after = after.unwrap_or_else(|| MAX_TEXT_CHARS.saturating_sub(char_count(pre) + char_count(mat)));
    let (post, post_cut) = head_chars(&line[range.end..], after);
    out.push_str(&String::from_utf8_lossy(post));
    if post_cut {
        out.push_str(ELLIPSIS);
    }
    out
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| !is_continuation(b)).count()
}

/// The first `n` characters (UTF-8 aware; invalid bytes count as one each) and whether text was cut.
fn head_chars(bytes: &[u8], n: usize) -> (&[u8], bool) {
    let mut chars = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !is_continuation(b) {
            if chars == n {
                return (&bytes[..i], true);
            }
            chars += 1;
        }
    }
    (bytes, false)
}

/// The last `n` characters and whether text was cut.
fn tail_chars(bytes: &[u8], n: usize) -> (&[u8], bool) {
    if n == 0 {
        return (&bytes[bytes.len()..], !bytes.is_empty());
    }
    let mut chars = 0;
    for i in (0..bytes.len()).rev() {
        if !is_continuation(bytes[i]) {
            chars += 1;
            if chars == n {
                return (&bytes[i..], i > 0);
            }
        }
    }
    (bytes, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets() {
        assert_eq!(snippet(b"let x = 1;", 4..5, None), "let x = 1;");
        let long = format!("{}NEEDLE{}", "x".repeat(300), "y".repeat(300));
        let s = snippet(long.as_bytes(), 300..306, None);
        assert_eq!(s, format!("…{}NEEDLE{}…", "x".repeat(80), "y".repeat(154)));
        assert_eq!(s.chars().count(), 240 + 2);
        assert_eq!(snippet(long.as_bytes(), 300..306, Some(3)), "…xxxNEEDLEyyy…");
        assert_eq!(snippet(b"abcNEEDLE", 3..9, Some(5)), "abcNEEDLE");
        assert_eq!(snippet(b"abcNEEDLE", 3..9, Some(0)), "…NEEDLE");
        // Multi-byte characters are never split.
        assert_eq!(snippet("é日本語x".as_bytes(), 2..5, Some(1)), "é日本…");
        assert_eq!(snippet("é日本語x".as_bytes(), 2..5, Some(2)), "é日本語…");
        assert_eq!(snippet("é日本語x".as_bytes(), 2..5, Some(3)), "é日本語x");
        // A match longer than the cap is cut too.
        let wide = "z".repeat(500);
        assert_eq!(snippet(wide.as_bytes(), 0..500, None), format!("{}…", "z".repeat(160)));
    }

    #[test]
    fn path_filters() {
        let f = |p: &str| PathFilter::parse("path", Some(p)).unwrap();
        assert!(f("src/").matches("src/a.ts"));
        assert!(f("./src/comp").matches("src/compiler/x.ts"));
        assert!(!f("src/").matches("lib/src/a.ts"));
        assert!(f("src/**/*.ts").matches("src/a.ts"));
        assert!(f("src/**/*.ts").matches("src/x/y/a.ts"));
        assert!(!f("src/*.ts").matches("src/x/a.ts"));
        assert!(f("*.go").matches("cmd/x/main.go"));
        assert!(f("{go,py}/**").matches("py/store.py"));
        assert!(PathFilter::parse("path", Some("src/[a")).is_err());
        assert!(PathFilter::parse("path", Some("  ")).is_err());
    }

    #[test]
    fn limits() {
        assert_eq!(check_limit(None, 100), Ok(100));
        assert_eq!(check_limit(Some(1000), 100), Ok(1000));
        assert_eq!(
            check_limit(Some(0), 100).unwrap_err().message,
            "limit must be 1..=1000, got 0"
        );
        assert!(check_query("").is_err());
        assert!(check_query(&"a".repeat(MAX_QUERY_BYTES + 1)).is_err());
    }

    #[test]
    fn line_matching() {
        let p = Pattern::new("ab", false, true).unwrap();
        let text = b"xab ab\r\nno\nab";
        let hits = doc_matches("f", text, &p, 10, &|m: &LineMatch<'_>| {
            (
                m.line,
                m.column,
                String::from_utf8_lossy(m.text).into_owned(),
                m.range.clone(),
            )
        });
        assert_eq!(
            hits,
            vec![(1, 2, "xab ab".to_string(), 1..3), (3, 1, "ab".to_string(), 0..2)]
        );
        let p = Pattern::new("^", true, true).unwrap();
        let hits = doc_matches("f", b"a\nb\n", &p, 10, &|m: &LineMatch<'_>| m.line);
        assert_eq!(hits, vec![1, 2]);
        let p = Pattern::new("AB", false, false).unwrap();
        let hits = doc_matches("f", b"xAb\naB", &p, 1, &|m: &LineMatch<'_>| m.line);
        assert_eq!(hits, vec![1]);
    }
}
