//! Read-only traversals over one [`Graph`](crate::Graph): symbol lookup, callers, usages,
//! dependencies, hierarchies, bounded walks, the `graph_query` DSL and path finding. Every
//! function takes typed arguments and returns a serialisable result or a [`QueryError`].
//!
//! Queries are pure functions of the immutable graph. Results are deterministic (stable sort
//! keys), so tests pin exact rows. The conventions every tool follows are documented in
//! [`common`] and the modules it gathers: [`targets`] (id, id without `<repo>/`, path,
//! `Owner.name`, bare name; ambiguous names refused with candidates, unknown ones with
//! [`suggestions`]), [`tiers`] (the `min_tier` rule, `name_only_suppressed`, `tier_filtered`,
//! the floor applied while walking) and [`caveats`] (`likely_unused`, `possible_extraction_gap`,
//! `coverage_incomplete` on callers, usages and dependents, refined as [`classify_caveat`] says).
//!
//! **Name indexes** on `Graph` (bare name → nodes, unresolved target name → placeholders) are
//! built on first use, beside the file list the builder keeps, so name lookups and caveats stay
//! O(matches), not O(graph). The search indexes are not here: `gortex-search` builds them and
//! `gortex-index`'s query door caches them per graph version.

pub use gortex_core::QueryError;

pub mod args;
pub mod callers;
pub mod caveats;
pub mod cluster;
pub mod common;
pub mod dependencies;
pub mod dsl;
pub mod hierarchy;
pub mod inheritance;
pub mod neighbours;
pub mod paths;
pub mod suggestions;
pub mod symbol;
pub mod targets;
pub mod tiers;
pub mod usages;
pub mod walk;

pub use callers::{
    get_call_chain, get_callers, GetCallChainArgs, GetCallChainResult, GetCallersArgs, GetCallersResult,
};
pub use caveats::{classify_caveat, Caveat, CaveatClass};
pub use cluster::{get_cluster, GetClusterArgs, GetClusterResult};
pub use dependencies::{
    get_dependencies, get_dependents, GetDependenciesArgs, GetDependenciesResult, GetDependentsArgs,
    GetDependentsResult,
};
pub use dsl::{graph_query, GraphQueryArgs, GraphQueryResult};
pub use hierarchy::{
    find_implementations, find_overrides, get_class_hierarchy, FindImplementationsArgs, FindImplementationsResult,
    FindOverridesArgs, FindOverridesResult, GetClassHierarchyArgs, GetClassHierarchyResult,
};
pub use paths::{
    find_import_path, trace_path, FindImportPathArgs, FindImportPathResult, ImportStatement, ImportStatus,
    TracePathArgs, TracePathResult,
};
pub use symbol::{
    get_file_summary, get_symbol, GetFileSummaryArgs, GetFileSummaryResult, GetSymbolArgs, GetSymbolResult,
};
pub use targets::resolve_target;
pub use usages::{find_usages, FindUsagesArgs, FindUsagesResult, UsageContext};
pub use walk::{walk_graph, WalkGraphArgs, WalkGraphResult};

use crate::model::{Graph, Node, NodeIndex};
use gortex_core::{Language, NodeKind, TypeFlavor, UiFramework};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// The compact description of a node every query result uses (the node shape of every door:
/// MCP, `/v1`, the CLI's JSON).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct NodeSummary {
    pub id: String,
    pub kind: NodeKind,
    pub name: String,
    /// `Owner.name`; the path for file nodes.
    #[serde(rename = "qual_name")]
    pub qualified: String,
    /// Repository-relative path of the file that declares it.
    #[serde(rename = "file_path")]
    pub path: String,
    /// First line of the declaration (1-based); 0 for external stubs.
    #[serde(rename = "start_line")]
    pub line: u32,
    pub end_line: u32,
    /// The repository the node belongs to (its id's first segment); empty for `external::` stubs.
    pub repo_prefix: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavor: Option<TypeFlavor>,
    /// The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …).
    #[serde(rename = "ui_framework", skip_serializing_if = "Option::is_none")]
    pub ui: Option<UiFramework>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exported: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_test: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
    /// Declaration details as one map (`get_symbol` with `detail: "full"` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<BTreeMap<String, serde_json::Value>>,
}

/// The repository part of a node id (`<repo>/<path>::<symbol>`); empty for a stub (`external::…`).
pub fn repo_prefix_of(id: &str) -> &str {
    match id.split_once('/') {
        // A stub's id starts with its kind (`external::…`), before any '/'.
        Some((repo, _)) if !repo.contains("::") => repo,
        _ => "",
    }
}

impl NodeSummary {
    /// Summary of a node.
    pub fn of(node: &Node) -> NodeSummary {
        NodeSummary {
            id: node.id.to_string(),
            kind: node.kind,
            name: node.name.clone(),
            qualified: node.qualified.clone(),
            path: node.path.to_string(),
            repo_prefix: repo_prefix_of(&node.id).to_string(),
            line: node.span.start_line,
            end_line: node.span.end_line,
            language: node.language,
            flavor: node.flavor,
            ui: node.ui,
            signature: node.signature.clone(),
            exported: node.exported,
            is_test: node.is_test,
            external: node.external,
            meta: None,
        }
    }

    /// Summary of the node at an index.
    pub fn at(graph: &Graph, index: NodeIndex) -> NodeSummary {
        NodeSummary::of(graph.node_at(index))
    }
}
