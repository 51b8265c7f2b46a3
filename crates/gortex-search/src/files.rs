//! `find_files`: file-name search over the graph's file nodes (the symbol index holds no files).
//!
//! A `query` is matched ASCII-case-insensitively and every file takes its best class:
//! exact basename > exact path > basename prefix > path prefix > basename substring > path
//! substring > fuzzy subsequence (only with `fuzzy: true`). Within a class shorter paths come
//! first, then alphabetical order. A `glob` filters (and, without a query, is the only match):
//! a glob containing `/` matches the whole repository-relative path (`*` stays inside one
//! directory, `**` crosses them); a glob without `/` matches the basename at any depth.

use crate::bodies::BodyIndex;
use crate::rerank::round4;
use crate::search::{check_limit, MAX_BODY_QUERY_LEN};
use globset::{GlobBuilder, GlobMatcher};
use gortex_core::{Language, QueryError};
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `find_files`; `query` and/or `glob` is required.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindFilesArgs {
    /// A basename or path fragment.
    #[serde(default)]
    pub query: Option<String>,
    /// A glob such as `ts/**/*.test.ts` or `*_test.go`.
    #[serde(default)]
    pub glob: Option<String>,
    /// Also match the query as a subsequence of the path (default false).
    #[serde(default)]
    pub fuzzy: bool,
    /// Repository-relative path prefix.
    #[serde(default)]
    pub path: Option<String>,
    /// Rows to return (default 50, 1..=1000).
    #[serde(default)]
    pub limit: Option<usize>,
    /// `name` (default): match the query against paths; `content`: rank code files by what their
    /// text says — the query (up to 20,000 bytes: a bug report, an error message) against each
    /// file's words (identifiers split and whole, literals, comments) by BM25.
    #[serde(default)]
    #[schemars(extend("enum" = ["name", "content"]))]
    pub by: Option<String>,
    /// Include test files (default true).
    #[serde(default)]
    pub include_tests: Option<bool>,
}

/// How a file matched, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileMatch {
    ExactBasename,
    ExactPath,
    BasenamePrefix,
    PathPrefix,
    BasenameSubstring,
    PathSubstring,
    Fuzzy,
    /// Matched the glob (no query given).
    Glob,
    /// Ranked by its content (`by: "content"`); `bm25` holds the score.
    Content,
}

impl FileMatch {
    /// The score reported for a class (higher is better).
    pub fn score(self) -> u32 {
        match self {
            FileMatch::ExactBasename => 100,
            FileMatch::ExactPath => 90,
            FileMatch::BasenamePrefix => 80,
            FileMatch::PathPrefix => 70,
            FileMatch::BasenameSubstring => 60,
            FileMatch::PathSubstring => 50,
            FileMatch::Fuzzy => 20,
            FileMatch::Glob => 10,
            FileMatch::Content => 30,
        }
    }
}

/// One `find_files` row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileHit {
    /// The file node id.
    pub id: String,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    #[serde(rename = "match")]
    pub class: FileMatch,
    pub score: u32,
    /// Symbols declared in the file.
    pub symbols: usize,
    /// The content score (`by: "content"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bm25: Option<f64>,
    /// Query words the file contains (`by: "content"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matched: Vec<String>,
}

/// Result of `find_files`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FindFilesResult {
    pub results: Vec<FileHit>,
    /// Files that matched, before `limit`.
    pub total: usize,
    pub truncated: bool,
}

/// Byte offset of the first ASCII-case-insensitive occurrence of `needle` (already lowercase).
fn find_ignore_case(hay: &str, needle: &[u8]) -> Option<usize> {
    let h = hay.as_bytes();
    let Some(&first) = needle.first() else {
        return Some(0);
    };
    if needle.len() > h.len() {
        return None;
    }
    let last_start = h.len() - needle.len();
    let mut from = 0;
    while from <= last_start {
        let i = from + memchr::memchr2(first, first.to_ascii_uppercase(), &h[from..=last_start])?;
        if h[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

fn is_subsequence_ignore_case(hay: &str, needle: &[u8]) -> bool {
    let mut it = hay.bytes().map(|b| b.to_ascii_lowercase());
    needle.iter().all(|&c| it.any(|h| h == c))
}

/// The best class of `path` for a lowercase `query`.
fn classify(path: &str, query: &[u8], fuzzy: bool) -> Option<FileMatch> {
    let base = path.rsplit('/').next().unwrap_or(path);
    if let Some(at) = find_ignore_case(base, query) {
        return Some(if base.len() == query.len() {
            FileMatch::ExactBasename
        } else if at == 0 {
            FileMatch::BasenamePrefix
        } else if path.len() == query.len() {
            FileMatch::ExactPath
        } else if path.as_bytes()[..query.len()].eq_ignore_ascii_case(query) {
            FileMatch::PathPrefix
        } else {
            FileMatch::BasenameSubstring
        });
    }
    match find_ignore_case(path, query) {
        Some(_) if path.len() == query.len() => Some(FileMatch::ExactPath),
        Some(0) => Some(FileMatch::PathPrefix),
        Some(_) => Some(FileMatch::PathSubstring),
        None if fuzzy && is_subsequence_ignore_case(path, query) => Some(FileMatch::Fuzzy),
        None => None,
    }
}

/// Compiles a glob: with `/` it matches whole paths, without it basenames.
fn compile_glob(glob: &str) -> Result<(GlobMatcher, bool), QueryError> {
    let built = GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map_err(|e| QueryError::invalid(format!("glob {glob:?} is invalid: {e}")))?;
    Ok((built.compile_matcher(), glob.contains('/')))
}

/// The path filters of a `find_files` call: the glob, the path prefix, whether tests count.
struct PathFilter {
    glob: Option<(GlobMatcher, bool)>,
    prefix: Option<String>,
    include_tests: bool,
}

impl PathFilter {
    fn of(args: &FindFilesArgs) -> Result<PathFilter, QueryError> {
        let glob = match args.glob.as_deref().map(str::trim) {
            Some("") => {
                return Err(QueryError::invalid(
                    "glob must not be empty; pass a pattern such as **/*_test.go (or omit it and pass query)",
                ))
            }
            Some(gl) => Some(compile_glob(gl)?),
            None => None,
        };
        let prefix = match args.path.as_deref() {
            None => None,
            Some(p) => {
                let v = p.trim().trim_start_matches("./").trim_start_matches('/');
                if v.is_empty() {
                    return Err(QueryError::invalid(format!(
                        "path must be a non-empty repository-relative prefix such as src/, got {p:?} \
                         (omit it to search everywhere)"
                    )));
                }
                Some(v.to_string())
            }
        };
        Ok(PathFilter {
            glob,
            prefix,
            include_tests: args.include_tests.unwrap_or(true),
        })
    }

    fn accepts(&self, path: &str, language: Option<Language>) -> bool {
        if self.prefix.as_deref().is_some_and(|p| !path.starts_with(p)) {
            return false;
        }
        if let Some((m, whole)) = &self.glob {
            let target = if *whole {
                path
            } else {
                path.rsplit('/').next().unwrap_or(path)
            };
            if !m.is_match(target) {
                return false;
            }
        }
        self.include_tests || !crate::symbols::is_test_path(path, language)
    }
}

fn file_hit(g: &Graph, i: NodeIndex, class: FileMatch) -> FileHit {
    let n = g.node_at(i);
    FileHit {
        id: n.id.to_string(),
        path: n.path.to_string(),
        language: n.language,
        class,
        score: class.score(),
        symbols: g
            .file_nodes(&n.path)
            .iter()
            .filter(|&&j| crate::symbols::is_indexed(g.node_at(j)))
            .count(),
        bm25: None,
        matched: Vec::new(),
    }
}

/// True when the arguments ask to rank files by content (`by: "content"`), which
/// [`find_files_by_content`] answers.
pub fn reads_content(args: &FindFilesArgs) -> bool {
    args.by
        .as_deref()
        .is_some_and(|b| b.trim().eq_ignore_ascii_case("content"))
}

/// `find_files` with `by: "content"`: code files ranked by BM25 of their words against the query.
pub fn find_files_by_content(
    g: &Graph,
    bodies: &BodyIndex,
    args: &FindFilesArgs,
) -> Result<FindFilesResult, QueryError> {
    let limit = check_limit("limit", args.limit, 50)?;
    if args.fuzzy {
        return Err(QueryError::invalid(
            "fuzzy applies to names; by: \"content\" ranks by what files say (drop one of them)",
        ));
    }
    let query = args.query.as_deref().map(str::trim).unwrap_or("");
    if query.is_empty() {
        return Err(QueryError::invalid(
            "by: \"content\" needs query: words, an error message or a bug report to rank files by",
        ));
    }
    if query.len() > MAX_BODY_QUERY_LEN {
        return Err(QueryError::invalid(format!(
            "query is {} bytes, at most {MAX_BODY_QUERY_LEN} are accepted",
            query.len()
        )));
    }
    let words = BodyIndex::query_words(query);
    if words.is_empty() {
        return Err(QueryError::invalid(format!(
            "query {:?} has no words to look for in files (keywords, numbers and one-letter words are left out)",
            query.chars().take(80).collect::<String>()
        )));
    }
    let filter = PathFilter::of(args)?;
    let nodes: rustc_hash::FxHashMap<&str, NodeIndex> = g
        .files()
        .iter()
        .map(|&i| (&*g.node_at(i).path, i))
        .filter(|(_, i)| !g.node_at(*i).external)
        .collect();
    let (hits, total) = bodies.rank_files(&words, limit, |path, _| {
        nodes
            .get(path)
            .is_some_and(|&i| filter.accepts(path, g.node_at(i).language))
    });
    let results: Vec<FileHit> = hits
        .into_iter()
        .filter_map(|h| {
            let mut row = file_hit(g, *nodes.get(&*h.id)?, FileMatch::Content);
            row.bm25 = Some(round4(h.score));
            row.matched = h.matched;
            Some(row)
        })
        .collect();
    Ok(FindFilesResult {
        truncated: total > results.len(),
        results,
        total,
    })
}

/// Finds files by name fragment and/or glob.
pub fn find_files(g: &Graph, args: &FindFilesArgs) -> Result<FindFilesResult, QueryError> {
    let limit = check_limit("limit", args.limit, 50)?;
    if args
        .by
        .as_deref()
        .is_some_and(|b| !b.trim().eq_ignore_ascii_case("name"))
    {
        return Err(QueryError::invalid(format!(
            "by must be name or content, got {:?}",
            args.by.as_deref().unwrap_or_default()
        )));
    }
    let query = match args.query.as_deref().map(str::trim) {
        Some("") => {
            return Err(QueryError::invalid(
                "query must not be empty; pass a file name or path fragment (or omit it and pass glob)",
            ))
        }
        q => q.map(|q| q.trim_start_matches("./").to_ascii_lowercase().into_bytes()),
    };
    let filter = PathFilter::of(args)?;
    if query.is_none() && filter.glob.is_none() {
        return Err(QueryError::invalid(
            "find_files needs query (a file name or path fragment) and/or glob (e.g. src/**/*.ts)",
        ));
    }

    let mut hits: Vec<(FileMatch, &str, NodeIndex)> = Vec::new();
    for &i in g.files() {
        let n = g.node_at(i);
        if n.external || !filter.accepts(&n.path, n.language) {
            continue;
        }
        let path: &str = &n.path;
        let class = match &query {
            Some(q) => match classify(path, q, args.fuzzy) {
                Some(c) => c,
                None => continue,
            },
            None => FileMatch::Glob,
        };
        hits.push((class, path, i));
    }
    let total = hits.len();
    hits.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.len().cmp(&b.1.len())).then(a.1.cmp(b.1)));
    hits.truncate(limit);
    let results: Vec<FileHit> = hits.into_iter().map(|(class, _, i)| file_hit(g, i, class)).collect();
    Ok(FindFilesResult {
        truncated: total > results.len(),
        results,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_in_order() {
        let c = |p: &str, q: &str| classify(p, q.to_ascii_lowercase().as_bytes(), true);
        assert_eq!(c("src/user.ts", "user.ts"), Some(FileMatch::ExactBasename));
        assert_eq!(c("src/user.ts", "USER.TS"), Some(FileMatch::ExactBasename));
        assert_eq!(c("src/user.ts", "src/user.ts"), Some(FileMatch::ExactPath));
        assert_eq!(c("src/user.ts", "use"), Some(FileMatch::BasenamePrefix));
        assert_eq!(c("src/user.ts", "src/us"), Some(FileMatch::PathPrefix));
        assert_eq!(c("src/user.ts", "er.t"), Some(FileMatch::BasenameSubstring));
        assert_eq!(c("src/user.ts", "c/us"), Some(FileMatch::PathSubstring));
        assert_eq!(c("src/user.ts", "sruts"), Some(FileMatch::Fuzzy));
        assert_eq!(classify("src/user.ts", b"sruts", false), None);
        // A basename match that is also a path prefix (top-level file) counts as basename.
        assert_eq!(c("user.ts", "user"), Some(FileMatch::BasenamePrefix));
        assert_eq!(find_ignore_case("aXbXc", b"xc"), Some(3));
        assert_eq!(find_ignore_case("ab", b"abc"), None);
        assert_eq!(c("src/user.ts", "zzz"), None);
    }
}
