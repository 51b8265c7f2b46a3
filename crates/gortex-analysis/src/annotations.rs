//! `analyze kind=annotation_users`: the symbols each decorator or annotation is put on —
//! Python and TypeScript decorators, Java, Kotlin and C# annotations and attributes — grouped by
//! its name as the extractors record it, without `@` and arguments: the last segment in Java,
//! Kotlin, C# and TypeScript (`@org.junit.Test` is `Test`), the dotted path in Python
//! (`@app.route("/x")` is `app.route`). C and C++ record `virtual` among these markers; it is a
//! keyword, not an annotation, and is left out.

use crate::reach::{check_path_prefix, under};
use gortex_core::{Language, NodeKind, QueryError};
use gortex_graph::query::common::check_limit;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Symbols listed per annotation.
pub const SYMBOLS_PER_ANNOTATION: usize = 10;

/// Arguments of `analyze kind=annotation_users`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnnotationUsersArgs {
    /// Only this annotation, as recorded (`Override`, `app.route`; a leading `@` is ignored).
    #[serde(default)]
    pub name: Option<String>,
    /// Only symbols declared under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most annotations returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One annotation and the symbols carrying it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnnotationRow {
    pub annotation: String,
    /// Symbols carrying it.
    pub count: usize,
    /// Per node kind.
    pub by_kind: BTreeMap<NodeKind, usize>,
    pub languages: Vec<Language>,
    /// The symbols by id, at most [`SYMBOLS_PER_ANNOTATION`].
    pub symbols: Vec<NodeSummary>,
}

/// The answer of `analyze kind=annotation_users`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnnotationUsersResult {
    /// Most used first (ties by name), at most `limit`.
    pub annotations: Vec<AnnotationRow>,
    pub total: usize,
    pub truncated: bool,
    /// Symbols carrying at least one annotation.
    pub annotated_symbols: usize,
}

/// `analyze kind=annotation_users` (see the module doc).
pub fn annotation_users(g: &Graph, args: &AnnotationUsersArgs) -> Result<AnnotationUsersResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let wanted = args.name.as_deref().map(|n| n.trim().trim_start_matches('@'));
    let mut by_name: BTreeMap<&str, Vec<NodeIndex>> = BTreeMap::new();
    let mut annotated = 0usize;
    for (i, n) in g.node_entries() {
        if n.decorators.is_empty()
            || n.external
            || n.language.is_some_and(Language::is_c_family)
            || !under(&n.path, prefix.as_deref())
        {
            continue;
        }
        annotated += 1;
        let mut names: Vec<&str> = n.decorators.iter().map(String::as_str).collect();
        names.sort_unstable();
        names.dedup();
        for name in names.into_iter().filter(|d| wanted.is_none_or(|w| w == *d)) {
            by_name.entry(name).or_default().push(i);
        }
    }
    let mut rows: Vec<AnnotationRow> = by_name
        .into_iter()
        .map(|(annotation, mut nodes)| {
            nodes.sort_by(|a, b| g.node_at(*a).id.cmp(&g.node_at(*b).id));
            let mut by_kind = BTreeMap::new();
            let mut languages: Vec<Language> = Vec::new();
            for &i in &nodes {
                let n = g.node_at(i);
                *by_kind.entry(n.kind).or_insert(0) += 1;
                if let Some(l) = n.language.filter(|l| !languages.contains(l)) {
                    languages.push(l);
                }
            }
            languages.sort_by_key(|l| l.as_str());
            AnnotationRow {
                annotation: annotation.to_string(),
                count: nodes.len(),
                by_kind,
                languages,
                symbols: nodes
                    .iter()
                    .take(SYMBOLS_PER_ANNOTATION)
                    .map(|&i| NodeSummary::at(g, i))
                    .collect(),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.annotation.cmp(&b.annotation)));
    let total = rows.len();
    rows.truncate(limit);
    Ok(AnnotationUsersResult {
        annotations: rows,
        total,
        truncated: total > limit,
        annotated_symbols: annotated,
    })
}
