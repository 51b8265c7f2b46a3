//! `analyze kind=components`: the UI components of the repository across frameworks — React,
//! Preact and Solid functions, constants and classes that render JSX, Vue and Svelte file
//! components, Angular and Stencil `@Component` classes, Lit elements and custom elements,
//! SwiftUI views, Jetpack Compose `@Composable` functions, Flutter widgets and Blazor
//! components (the extractors mark them; see `UiFramework`) — with the components each renders
//! (a use of another component from inside it: a JSX element, a template tag, a call) and how
//! many render it or use it at all.

use crate::reach::{check_path_prefix, under};
use gortex_core::{QueryError, UiFramework};
use gortex_graph::query::common::check_limit;
use gortex_graph::query::symbol::{enclosing_ui_component, is_ui_component};
use gortex_graph::query::usages::usage_context;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Arguments of `analyze kind=components`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentsArgs {
    /// Only components of this framework (react, preact, solid, vue, svelte, angular, stencil,
    /// lit, web_component, swiftui, compose, flutter, blazor).
    #[serde(default)]
    pub framework: Option<String>,
    /// Only components declared under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Keep components declared in test files (default false).
    #[serde(default)]
    pub include_tests: Option<bool>,
    /// Most components returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One UI component.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComponentRow {
    pub component: NodeSummary,
    pub framework: UiFramework,
    /// Ids of the components it renders, sorted.
    pub renders: Vec<String>,
    /// Distinct components rendering it.
    pub rendered_by: usize,
    /// Distinct symbols and files using it in any way (rendering, importing, referencing).
    pub used_by: usize,
}

/// The answer of `analyze kind=components`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComponentsResult {
    /// Ordered by path and line, at most `limit`.
    pub components: Vec<ComponentRow>,
    /// Components per framework (before `limit`).
    pub by_framework: BTreeMap<UiFramework, usize>,
    /// Components nothing uses (no render, import or reference), by id, at most `limit`:
    /// candidates for removal, or entry points a router or framework mounts by name.
    pub unused: Vec<String>,
    /// All such components (before `limit`).
    pub unused_count: usize,
    pub total: usize,
    pub truncated: bool,
}

/// The framework of a component node (every component carries one).
fn framework_of(g: &Graph, i: NodeIndex) -> UiFramework {
    g.node_at(i).ui.expect("a UI component carries its framework")
}

/// `analyze kind=components` (see the module doc).
pub fn components(g: &Graph, args: &ComponentsArgs) -> Result<ComponentsResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let wanted = match args.framework.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(f) => Some(UiFramework::parse(&f.to_ascii_lowercase()).ok_or_else(|| {
            let accepted: Vec<&str> = UiFramework::ALL.iter().map(|f| f.as_str()).collect();
            QueryError::invalid(format!(
                "framework {f:?} is not a UI framework; accepted: {}",
                accepted.join(", ")
            ))
        })?),
    };
    let tests = args.include_tests.unwrap_or(false);
    let all: Vec<NodeIndex> = g
        .node_entries()
        .filter(|(_, n)| !n.external && is_ui_component(n))
        .map(|(i, _)| i)
        .collect();
    // Who uses each component, and which component (if any) each use sits in.
    let mut renders: FxHashMap<NodeIndex, FxHashSet<NodeIndex>> = FxHashMap::default();
    let mut rendered_by: FxHashMap<NodeIndex, FxHashSet<NodeIndex>> = FxHashMap::default();
    let mut used_by: FxHashMap<NodeIndex, FxHashSet<NodeIndex>> = FxHashMap::default();
    for &c in &all {
        for e in g.in_edges(c) {
            if usage_context(g, e).is_none() || e.from == c {
                continue;
            }
            used_by.entry(c).or_default().insert(e.from);
            if let Some(host) = enclosing_ui_component(g, e.from).filter(|&h| h != c) {
                renders.entry(host).or_default().insert(c);
                rendered_by.entry(c).or_default().insert(host);
            }
        }
    }
    let mut rows: Vec<NodeIndex> = all
        .into_iter()
        .filter(|&i| {
            let n = g.node_at(i);
            under(&n.path, prefix.as_deref()) && (tests || !n.is_test) && wanted.is_none_or(|w| framework_of(g, i) == w)
        })
        .collect();
    rows.sort_by(|&a, &b| {
        let (x, y) = (g.node_at(a), g.node_at(b));
        (&x.path, x.span.start_line, &x.id).cmp(&(&y.path, y.span.start_line, &y.id))
    });
    let mut by_framework = BTreeMap::new();
    for &i in &rows {
        *by_framework.entry(framework_of(g, i)).or_insert(0) += 1;
    }
    let unused: Vec<String> = rows
        .iter()
        .filter(|i| !used_by.contains_key(i))
        .map(|&i| g.node_at(i).id.to_string())
        .collect();
    let unused_count = unused.len();
    let total = rows.len();
    let count = |m: &FxHashMap<NodeIndex, FxHashSet<NodeIndex>>, i| m.get(&i).map_or(0, FxHashSet::len);
    let components = rows
        .into_iter()
        .take(limit)
        .map(|i| {
            let mut rendered: Vec<String> = renders
                .get(&i)
                .into_iter()
                .flatten()
                .map(|&c| g.node_at(c).id.to_string())
                .collect();
            rendered.sort();
            ComponentRow {
                component: NodeSummary::at(g, i),
                framework: framework_of(g, i),
                renders: rendered,
                rendered_by: count(&rendered_by, i),
                used_by: count(&used_by, i),
            }
        })
        .collect();
    Ok(ComponentsResult {
        components,
        by_framework,
        unused: unused.into_iter().take(limit).collect(),
        unused_count,
        total,
        truncated: total > limit,
    })
}
