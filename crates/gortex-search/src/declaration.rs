//! `find_declaration`: from a use-site fragment (`fooBar(`, `.save(`) to the declarations it
//! refers to.
//!
//! Use sites are found with the trigram index (one per matching line, at most
//! [`MAX_USE_SITES`]). The identifier of a site is the identifier-shaped token touched by the
//! match that is followed by `(`, else the last one (tokens are extended to the full identifier
//! on the line; control keywords such as `if`/`return` are ignored). Each site then maps to:
//! 1. the declaration itself when the match is on the declaration line of a symbol with that
//!    name (`matched_declaration`; not counted as a use; origin `ast_resolved` when no use
//!    speaks for the node);
//! 2. otherwise the targets of resolved (non-structural) edges at that line whose name is the
//!    identifier, taken from the innermost enclosing symbol that has any (then its parents, then
//!    the file node); each such use keeps the edge's origin tier;
//! 3. otherwise every symbol with that name (same language as the site's file when any exists),
//!    origin `text_matched`;
//! 4. otherwise the site is an unresolved use.
//!
//! `kind` restricts declarations at every step (a site whose only targets have other kinds is
//! unresolved). `path_prefix` (a prefix or a glob, as `search_text`'s `path`) restricts the files
//! searched for use sites. Declarations are ranked by resolved uses, then all uses, then tier.

use crate::text::{check_limit, check_query, enclosing_chain, scan, snippet, LineMatch, PathFilter, Pattern};
use crate::trigram::TextIndex;
use gortex_core::{NodeKind, Origin, QueryError};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Default number of declarations returned.
pub const DEFAULT_DECLARATION_LIMIT: usize = 50;
/// Most use sites examined per query.
pub const MAX_USE_SITES: usize = 1000;

/// Arguments of `find_declaration`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindDeclarationArgs {
    /// A use-site fragment such as `fooBar(` or `.save(` (case-sensitive).
    pub query: String,
    /// Treat `query` as a regular expression.
    #[serde(default)]
    pub regex: bool,
    /// Only search use sites in these files: a path prefix, or a glob.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Only declarations of this node kind (`function`, `method`, `type`, …).
    #[serde(default)]
    pub kind: Option<String>,
    /// Maximum declarations, 1..=1000 (default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A use site (or an unresolved one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UseSite {
    pub path: String,
    pub line: u32,
    /// 1-based byte column of the match start.
    pub column: u32,
    pub text: String,
    /// The identifier taken from the site (reported on unresolved uses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    /// How this use was tied to the declaration (reported on declaration uses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

/// A declaration and the use sites that lead to it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Declaration {
    pub node: NodeSummary,
    /// The strongest tier among its uses; `ast_resolved` when the only site is its own
    /// declaration line.
    pub origin: Origin,
    /// Uses tied to it by a resolved edge.
    pub resolved_uses: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<UseSite>,
    /// The query matched the declaration's own line.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub matched_declaration: bool,
}

/// Result of `find_declaration`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FindDeclarationResult {
    pub declarations: Vec<Declaration>,
    /// Sites that mapped to no declaration (of the requested kind).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved_uses: Vec<UseSite>,
    /// Matching lines examined.
    pub use_sites: usize,
    /// More than `limit` declarations, or more than [`MAX_USE_SITES`] sites.
    pub truncated: bool,
    /// Files left after the trigram prefilter and the path filter.
    pub candidate_files: usize,
}

/// Maps use sites matching `query` to their declarations; see the module docs.
pub fn find_declaration(
    idx: &TextIndex,
    g: &Graph,
    args: &FindDeclarationArgs,
) -> Result<FindDeclarationResult, QueryError> {
    check_query(&args.query)?;
    let limit = check_limit(args.limit, DEFAULT_DECLARATION_LIMIT)?;
    let kind = match args.kind.as_deref() {
        None => None,
        Some(k) => Some(NodeKind::parse(k).ok_or_else(|| {
            let accepted: Vec<&str> = NodeKind::ALL.iter().map(|k| k.as_str()).collect();
            QueryError::invalid(format!("kind must be one of {}, got {k:?}", accepted.join(", ")))
        })?),
    };
    let filter = PathFilter::parse("path_prefix", args.path_prefix.as_deref())?;
    let pattern = Pattern::new(&args.query, args.regex, true)?;
    let sites = scan(idx, &pattern, &filter, MAX_USE_SITES, &|m: &LineMatch<'_>| Site {
        path: m.path.to_string(),
        line: m.line,
        column: m.column,
        text: snippet(m.text, m.range.clone(), None),
        identifier: identifier_at(m.text, m.range.clone()),
    });

    let names: FxHashSet<&str> = sites.hits.iter().filter_map(|s| s.identifier.as_deref()).collect();
    let mut by_name: FxHashMap<&str, Vec<NodeIndex>> = FxHashMap::default();
    if !names.is_empty() {
        for (i, n) in g.node_entries() {
            if n.kind.is_symbol() && !n.external && names.contains(n.name.as_str()) {
                by_name.entry(n.name.as_str()).or_default().push(i);
            }
        }
    }
    let kind_ok = |i: NodeIndex| kind.is_none_or(|k| g.node_at(i).kind == k);

    let mut decls: FxHashMap<NodeIndex, Declaration> = FxHashMap::default();
    let mut unresolved = Vec::new();
    let use_sites = sites.hits.len();
    for site in sites.hits {
        let Some(ident) = site.identifier.clone() else {
            unresolved.push(site.into_use(None, true));
            continue;
        };
        let chain = enclosing_chain(g, &site.path, site.line);

        let own = g.file_nodes(&site.path).iter().copied().find(|&i| {
            let n = g.node_at(i);
            n.kind.is_symbol() && n.name == ident && n.span.start_line == site.line && kind_ok(i)
        });
        if let Some(i) = own {
            let d = entry(&mut decls, g, i, Origin::AstResolved);
            d.matched_declaration = true;
            continue;
        }

        let mut resolved: Vec<(NodeIndex, Origin)> = Vec::new();
        for &n in &chain {
            for e in g.out_edges(n) {
                if e.line == site.line && !e.kind.is_structural() && g.node_at(e.to).name == ident && kind_ok(e.to) {
                    resolved.push((e.to, e.origin));
                }
            }
            if !resolved.is_empty() {
                break;
            }
        }
        if !resolved.is_empty() {
            // One use per target, with the strongest tier any edge gave it.
            resolved.sort_by_key(|&(to, origin)| (to, std::cmp::Reverse(origin)));
            resolved.dedup_by_key(|r| r.0);
            for (to, origin) in resolved {
                let d = entry(&mut decls, g, to, origin);
                d.resolved_uses += 1;
                d.uses.push(site.clone().into_use(Some(origin), false));
            }
            continue;
        }

        let mut candidates: Vec<NodeIndex> = by_name
            .get(ident.as_str())
            .map(|v| v.iter().copied().filter(|&i| kind_ok(i)).collect())
            .unwrap_or_default();
        let language = chain.last().and_then(|&f| g.node_at(f).language);
        if language.is_some() && candidates.iter().any(|&i| g.node_at(i).language == language) {
            candidates.retain(|&i| g.node_at(i).language == language);
        }
        if candidates.is_empty() {
            unresolved.push(site.into_use(None, true));
            continue;
        }
        for i in candidates {
            let d = entry(&mut decls, g, i, Origin::TextMatched);
            d.uses.push(site.clone().into_use(Some(Origin::TextMatched), false));
        }
    }

    let mut declarations: Vec<Declaration> = decls.into_values().collect();
    for d in &mut declarations {
        // A matched declaration line is definitive only when nothing else speaks for the node.
        if let Some(best) = d.uses.iter().filter_map(|u| u.origin).max() {
            d.origin = best;
        }
    }
    declarations.sort_by(|a, b| {
        (
            b.resolved_uses,
            b.uses.len(),
            b.origin,
            b.matched_declaration,
            &a.node.id,
        )
            .cmp(&(
                a.resolved_uses,
                a.uses.len(),
                a.origin,
                a.matched_declaration,
                &b.node.id,
            ))
    });
    let truncated = sites.truncated || declarations.len() > limit;
    declarations.truncate(limit);
    Ok(FindDeclarationResult {
        declarations,
        unresolved_uses: unresolved,
        use_sites,
        truncated,
        candidate_files: sites.candidate_files,
    })
}

fn entry<'a>(
    decls: &'a mut FxHashMap<NodeIndex, Declaration>,
    g: &Graph,
    node: NodeIndex,
    origin: Origin,
) -> &'a mut Declaration {
    let d = decls.entry(node).or_insert_with(|| Declaration {
        node: NodeSummary::at(g, node),
        origin,
        resolved_uses: 0,
        uses: Vec::new(),
        matched_declaration: false,
    });
    d.origin = d.origin.max(origin);
    d
}

#[derive(Debug, Clone)]
struct Site {
    path: String,
    line: u32,
    column: u32,
    text: String,
    identifier: Option<String>,
}

impl Site {
    fn into_use(self, origin: Option<Origin>, with_identifier: bool) -> UseSite {
        UseSite {
            path: self.path,
            line: self.line,
            column: self.column,
            text: self.text,
            identifier: if with_identifier { self.identifier } else { None },
            origin,
        }
    }
}

/// Words that look like identifiers before `(` but never name a declaration.
const KEYWORDS: &[&str] = &[
    "and",
    "assert",
    "async",
    "await",
    "case",
    "catch",
    "class",
    "const",
    "def",
    "defer",
    "delete",
    "do",
    "elif",
    "else",
    "export",
    "fn",
    "for",
    "from",
    "func",
    "function",
    "go",
    "if",
    "import",
    "in",
    "instanceof",
    "lambda",
    "let",
    "match",
    "new",
    "not",
    "of",
    "or",
    "return",
    "select",
    "switch",
    "throw",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The identifier a match names: among the identifiers the match touches (extended to their
/// full extent on the line), the first followed by `(`, else the last.
pub(crate) fn identifier_at(line: &[u8], range: Range<usize>) -> Option<String> {
    let mut start = range.start.min(line.len());
    let mut end = range.end.min(line.len()).max(start);
    // A match that starts or ends inside an identifier covers the whole identifier.
    if start < end && is_ident_byte(line[start]) {
        while start > 0 && is_ident_byte(line[start - 1]) {
            start -= 1;
        }
    }
    if start < end && is_ident_byte(line[end - 1]) {
        while end < line.len() && is_ident_byte(line[end]) {
            end += 1;
        }
    }
    let mut tokens: Vec<Range<usize>> = Vec::new();
    let mut i = start;
    while i < end {
        if !is_ident_byte(line[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < end && is_ident_byte(line[i]) {
            i += 1;
        }
        let word = &line[s..i];
        let keyword = std::str::from_utf8(word).is_ok_and(|w| KEYWORDS.contains(&w));
        if !word[0].is_ascii_digit() && !keyword {
            tokens.push(s..i);
        }
    }
    let called = tokens.iter().find(|t| {
        let rest = &line[t.end..];
        rest.iter().find(|&&b| b != b' ' && b != b'\t') == Some(&b'(')
    });
    let token = called.or(tokens.last())?;
    Some(String::from_utf8_lossy(&line[token.clone()]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::identifier_at;

    fn ident(line: &str, needle: &str) -> Option<String> {
        let s = line.find(needle).unwrap();
        identifier_at(line.as_bytes(), s..s + needle.len())
    }

    #[test]
    fn identifiers_from_use_sites() {
        assert_eq!(ident("  store.save(record)", ".save(").as_deref(), Some("save"));
        assert_eq!(ident("x = fooBar (1)", "fooBar (").as_deref(), Some("fooBar"));
        assert_eq!(ident("x = fooBar(1)", "ooBa").as_deref(), Some("fooBar"));
        assert_eq!(ident("return new Store();", "new Store(").as_deref(), Some("Store"));
        assert_eq!(ident("a.b.c", "a.b.c").as_deref(), Some("c"));
        assert_eq!(ident("if (x) {", "if (").as_deref(), None);
        assert_eq!(ident("f(g(1))", "f(g(").as_deref(), Some("f"));
        assert_eq!(ident("call((1))", "l((").as_deref(), Some("call"));
        assert_eq!(ident("call((1))", "((").as_deref(), None);
        assert_eq!(ident("(( 1 ))", "((").as_deref(), None);
        assert_eq!(ident("print(café())", "café(").as_deref(), Some("café"));
    }
}
