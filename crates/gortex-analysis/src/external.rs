//! `analyze kind=external_calls`: what the repository uses from outside itself — usage edges
//! (`calls`, `references`, `instantiates`, type uses, …) into external stubs, grouped by stub,
//! with call counts, distinct callers and files. Module imports are not uses and are not counted.

use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, NodeKind, QueryError};
use gortex_graph::query::common::check_limit;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Callers listed per external target.
pub const TOP_CALLERS: usize = 5;

/// Arguments of `analyze kind=external_calls`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExternalCallsArgs {
    /// Most targets returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only count uses made from code under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// A caller of an external target.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExternalCaller {
    pub node: NodeSummary,
    /// Uses of the target from this caller.
    pub uses: usize,
}

/// One external target and who uses it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExternalTargetRow {
    pub target: NodeSummary,
    /// The external module it belongs to (the longest imported module that prefixes it, else its
    /// path without the last segment).
    pub module: String,
    pub name: String,
    /// Usage edges into it.
    pub uses: usize,
    pub by_kind: BTreeMap<EdgeKind, usize>,
    /// Distinct using nodes.
    pub callers: usize,
    /// The callers with the most uses (ties by id), at most [`TOP_CALLERS`].
    pub top_callers: Vec<ExternalCaller>,
    /// Distinct files the uses are made from.
    pub files: usize,
    /// Those files, sorted, at most [`TOP_CALLERS`].
    pub top_files: Vec<String>,
}

/// External uses, most used target first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExternalCallsResult {
    pub targets: Vec<ExternalTargetRow>,
    /// Targets before `limit`.
    pub total: usize,
    /// Usage edges into external stubs, over every target.
    pub total_uses: usize,
    /// Distinct modules of the targets.
    pub modules: usize,
    pub truncated: bool,
}

/// `analyze kind=external_calls` (see the module doc).
pub fn external_calls(g: &Graph, args: &ExternalCallsArgs) -> Result<ExternalCallsResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let modules: FxHashSet<&str> = g
        .nodes()
        .filter(|n| n.external && n.kind == NodeKind::Module)
        .map(|n| n.qualified.as_str())
        .collect();
    // target → caller → (uses, kinds)
    let mut by_target: FxHashMap<NodeIndex, FxHashMap<NodeIndex, usize>> = FxHashMap::default();
    let mut kinds: FxHashMap<NodeIndex, BTreeMap<EdgeKind, usize>> = FxHashMap::default();
    for e in g.edges() {
        if !e.kind.is_usage() || !g.node_at(e.to).external {
            continue;
        }
        let from = g.node_at(e.from);
        if from.external || !under(&from.path, prefix.as_deref()) {
            continue;
        }
        *by_target.entry(e.to).or_default().entry(e.from).or_insert(0) += 1;
        *kinds.entry(e.to).or_default().entry(e.kind).or_insert(0) += 1;
    }
    let mut rows: Vec<(usize, NodeIndex)> = by_target
        .iter()
        .map(|(&t, callers)| (callers.values().sum(), t))
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| g.node_at(a.1).id.cmp(&g.node_at(b.1).id)));
    let total = rows.len();
    let total_uses = rows.iter().map(|r| r.0).sum();
    let distinct_modules = rows
        .iter()
        .map(|&(_, t)| module_of(&g.node_at(t).qualified, &modules))
        .collect::<FxHashSet<&str>>()
        .len();
    let targets = rows
        .into_iter()
        .take(limit)
        .map(|(uses, t)| {
            let callers = &by_target[&t];
            let mut ranked: Vec<(usize, NodeIndex)> = callers.iter().map(|(&c, &u)| (u, c)).collect();
            ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| g.node_at(a.1).id.cmp(&g.node_at(b.1).id)));
            let mut files: Vec<&str> = callers.keys().map(|&c| &*g.node_at(c).path).collect();
            files.sort_unstable();
            files.dedup();
            let n = g.node_at(t);
            ExternalTargetRow {
                target: NodeSummary::of(n),
                module: module_of(&n.qualified, &modules).to_string(),
                name: n.name.clone(),
                uses,
                by_kind: kinds.remove(&t).unwrap_or_default(),
                callers: callers.len(),
                top_callers: ranked
                    .iter()
                    .take(TOP_CALLERS)
                    .map(|&(u, c)| ExternalCaller {
                        node: NodeSummary::at(g, c),
                        uses: u,
                    })
                    .collect(),
                files: files.len(),
                top_files: files.iter().take(TOP_CALLERS).map(|f| f.to_string()).collect(),
            }
        })
        .collect();
    Ok(ExternalCallsResult {
        targets,
        total,
        total_uses,
        modules: distinct_modules,
        truncated: total > limit,
    })
}

/// The module an external path belongs to: itself when it is an imported module, else the longest
/// imported module prefixing it at a separator (`.`, `/`, `::`), else the path minus its last
/// segment.
fn module_of<'a>(qualified: &'a str, modules: &FxHashSet<&str>) -> &'a str {
    if modules.contains(qualified) {
        return qualified;
    }
    let cuts: Vec<usize> = qualified
        .char_indices()
        .filter(|&(_, c)| matches!(c, '.' | '/' | ':'))
        .map(|(i, _)| i)
        .collect();
    for &cut in cuts.iter().rev() {
        let head = qualified[..cut].trim_end_matches(':');
        if !head.is_empty() && modules.contains(head) {
            return head;
        }
    }
    cuts.last()
        .map(|&c| qualified[..c].trim_end_matches(':'))
        .filter(|h| !h.is_empty())
        .unwrap_or(qualified)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_the_longest_imported_prefix() {
        let modules: FxHashSet<&str> = ["os", "os.path", "github.com/a/b"].into_iter().collect();
        assert_eq!(module_of("os.path.join", &modules), "os.path");
        assert_eq!(module_of("os.getcwd", &modules), "os");
        assert_eq!(module_of("os.path", &modules), "os.path");
        assert_eq!(module_of("github.com/a/b.Client.Do", &modules), "github.com/a/b");
        assert_eq!(module_of("std::fmt::Display", &modules), "std::fmt");
        assert_eq!(module_of("fetch", &modules), "fetch");
    }
}
