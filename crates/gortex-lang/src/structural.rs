//! Structural search: a tree-sitter query (S-expression pattern) compiled against one language's
//! grammar and run over a file's syntax tree, bounded by a deadline and a match budget. Compile
//! errors name the line and column of the pattern. The literals a pattern names (`"…"` strings and
//! `#eq?` / `#any-of?` operands) are returned so callers can skip files that cannot match.

use crate::{extractor_for, parse, ExtractError};
use gortex_core::Language;
use std::time::{Duration, Instant};
use streaming_iterator::StreamingIterator;
use tree_sitter::{Query, QueryCursor, QueryErrorKind};

/// A compiled pattern.
pub type AstQuery = Query;

/// One match: the span of its first capture (or of the whole pattern's root node) and every capture's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AstMatch {
    /// 1-based lines and 0-based byte columns.
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// The matched node's kind.
    pub kind: String,
    /// Capture name → text (each cut to 200 characters), in pattern order.
    pub captures: Vec<(String, String, String)>,
}

/// Compiles `pattern` for `language`, or says where and why it is malformed.
pub fn compile(language: Language, pattern: &str) -> Result<Query, String> {
    let extractor =
        extractor_for(language).ok_or_else(|| format!("{} has no grammar in this build", language.as_str()))?;
    Query::new(&extractor.grammar(), pattern).map_err(|e| {
        let name = e.message.trim().trim_matches('"');
        let what = match e.kind {
            QueryErrorKind::Syntax => "syntax error".to_string(),
            QueryErrorKind::NodeType => format!("no node type `{name}` in the {} grammar", language.as_str()),
            QueryErrorKind::Field => format!("no field `{name}` in the {} grammar", language.as_str()),
            QueryErrorKind::Capture => format!("unknown capture `@{name}`"),
            QueryErrorKind::Predicate => format!("bad predicate: {}", e.message),
            QueryErrorKind::Structure => "a node cannot have that child here (impossible pattern)".to_string(),
            QueryErrorKind::Language => format!("grammar mismatch: {}", e.message),
        };
        format!("pattern line {} column {}: {what}", e.row + 1, e.column + 1)
    })
}

/// Literal texts every match of `pattern` must contain: quoted strings of 3+ bytes (anonymous
/// nodes and predicate operands). A file without one of them cannot match.
pub fn required_literals(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                // A comment runs to the end of the line.
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                let mut lit = String::new();
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        i += 1;
                    }
                    lit.push(bytes[i] as char);
                    i += 1;
                }
                if lit.len() >= 3 {
                    out.push(lit);
                }
            }
            _ => {}
        }
        i += 1;
    }
    // `#any-of?` offers alternatives: none of them is required on its own.
    if pattern.contains("#any-of?") || pattern.contains("#match?") || pattern.contains("#not-") {
        return Vec::new();
    }
    out
}

/// Why a file's matches stopped short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The deadline passed.
    Deadline,
    /// `max` matches were found.
    Limit,
}

/// Runs `query` over `source` (read as `language`), up to `max` matches and until `deadline`.
pub fn run(
    query: &Query,
    language: Language,
    source: &[u8],
    max: usize,
    deadline: Instant,
) -> Result<(Vec<AstMatch>, Option<Cut>), ExtractError> {
    let extractor = extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    let prepared = extractor.prepare(source);
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(1));
    let tree = parse(language, &prepared, left)?;
    let mut cursor = QueryCursor::new();
    let mut out = Vec::new();
    let names = query.capture_names();
    let mut matches = cursor.matches(query, tree.root_node(), prepared.as_ref());
    let mut cut = None;
    while let Some(m) = matches.next() {
        if out.len() >= max {
            cut = Some(Cut::Limit);
            break;
        }
        if Instant::now() >= deadline {
            cut = Some(Cut::Deadline);
            break;
        }
        let Some(first) = m.captures.iter().min_by_key(|c| c.index).map(|c| c.node) else {
            continue;
        };
        let captures = m
            .captures
            .iter()
            .map(|c| {
                let text = c.node.utf8_text(prepared.as_ref()).unwrap_or("");
                let text: String = text.chars().take(200).collect();
                (names[c.index as usize].to_string(), c.node.kind().to_string(), text)
            })
            .collect();
        let (s, e) = (first.start_position(), first.end_position());
        out.push(AstMatch {
            line: s.row as u32 + 1,
            column: s.column as u32,
            end_line: e.row as u32 + 1,
            end_column: e.column as u32,
            kind: first.kind().to_string(),
            captures,
        });
    }
    Ok((out, cut))
}

#[cfg(all(test, feature = "go"))]
mod tests {
    use super::*;

    #[test]
    fn compiles_runs_and_explains() {
        let q = compile(Language::Go, r#"(call_expression function: (selector_expression field: (field_identifier) @f (#eq? @f "Exec")) arguments: (argument_list) @args)"#).unwrap();
        let src = b"package m\nfunc f(db DB, q string) {\n\tdb.Exec(q)\n\tdb.Query(q)\n}\n";
        let far = Instant::now() + Duration::from_secs(5);
        let (m, cut) = run(&q, Language::Go, src, 10, far).unwrap();
        assert_eq!(cut, None);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].line, m[0].column), (3, 4));
        assert_eq!(m[0].captures[0], ("f".into(), "field_identifier".into(), "Exec".into()));
        let (_, cut) = run(
            &q,
            Language::Go,
            b"package m\nfunc f(db DB) { db.Exec(1); db.Exec(2) }\n",
            1,
            far,
        )
        .unwrap();
        assert_eq!(cut, Some(Cut::Limit));
        let e = compile(Language::Go, "(call_expression\n  function: (no_such_node))").unwrap_err();
        assert!(e.starts_with("pattern line 2 column"), "{e}");
        assert!(e.contains("no node type `no_such_node`"), "{e}");
        assert!(compile(Language::Go, "(call_expression")
            .unwrap_err()
            .contains("syntax error"));
        assert_eq!(
            required_literals(r#"((identifier) @f (#eq? @f "Exec")) ; "ignored""#),
            vec!["Exec".to_string()]
        );
        assert!(required_literals(r#"((identifier) @f (#any-of? @f "eval" "exec"))"#).is_empty());
    }
}
