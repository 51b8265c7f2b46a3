//! `get_dependencies` (what a symbol or file uses) and `get_dependents` (what uses it).
//!
//! **Symbol mode** (the target is a symbol): a symbol stands for itself and everything it
//! contains (a class and its members), so a class depends on what its methods call. Rows are
//! the symbols (or importing files) across usage and import edges; files and external stubs are
//! not expanded further.
//!
//! **File mode** (the target is a file path or file id): rows are files, aggregated from the
//! file's `imports`/`re_exports` edges and from its symbols' edges that cross into other files.
//! Imports of external modules appear as external stubs (leaves); Go/Java imports name the
//! package node, which stands for all of its files when expanded.
//!
//! Both walk breadth-first up to `depth` levels; each node appears once, at its smallest depth,
//! with every edge kind seen at that level, the strongest origin and the first site line.

use super::args::{check_limit, check_range, parse_edge_kinds, parse_min_tier, OneOrMany};
use super::callers::in_test;
use super::caveats::{caveat_for_rows, Caveat};
use super::targets::resolve_one;
use super::tiers::{tiered, TierReport};
use super::{NodeSummary, QueryError};
use crate::model::{Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Edge kinds `kinds` accepts.
pub const DEPENDENCY_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::Instantiates,
    EdgeKind::References,
    EdgeKind::Extends,
    EdgeKind::Implements,
    EdgeKind::TypedAs,
    EdgeKind::Returns,
    EdgeKind::Tests,
    EdgeKind::Imports,
    EdgeKind::ReExports,
];

/// Edge kinds followed when `kinds` is absent (`tests` repeats `calls`, so it is opt-in).
pub const DEFAULT_DEPENDENCY_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::Instantiates,
    EdgeKind::References,
    EdgeKind::Extends,
    EdgeKind::Implements,
    EdgeKind::TypedAs,
    EdgeKind::Returns,
    EdgeKind::Imports,
    EdgeKind::ReExports,
];

/// Arguments of `get_dependencies`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetDependenciesArgs {
    /// The symbol (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick), or a file path or file id for file-level dependencies.
    pub id: String,
    /// Levels to walk (1..=3, default 1).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Edge kinds to follow (one name, a comma-separated list or an array): calls, instantiates,
    /// references, extends, implements, typed_as, returns, tests, imports, re_exports (default all
    /// but tests).
    #[serde(default)]
    pub kinds: Option<OneOrMany>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
    /// Keep tests and test files (default true).
    #[serde(default)]
    pub include_tests: Option<bool>,
}

/// Arguments of `get_dependents` (the same as `get_dependencies`, walking the other way).
pub type GetDependentsArgs = GetDependenciesArgs;

/// One dependency or dependent: the node, and how it is linked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DependencyRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Levels from the target (1 = direct).
    pub depth: u32,
    /// Edge kinds linking it at its level, sorted.
    #[serde(rename = "edge_kinds")]
    pub kinds: Vec<EdgeKind>,
    /// Strongest origin among those edges.
    pub origin: Origin,
    /// First site line (in the using file).
    pub line: u32,
    /// The previous-level node it was reached from, when that is not the target (depth > 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Whether the walk was over symbols or files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DependencyMode {
    Symbol,
    File,
}

/// What the target depends on.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetDependenciesResult {
    pub target: NodeSummary,
    pub mode: DependencyMode,
    /// The dependencies (a subgraph's nodes, each with its link).
    #[serde(rename = "nodes")]
    pub dependencies: Vec<DependencyRow>,
    /// Rows per depth (before `limit`).
    pub by_depth: BTreeMap<u32, usize>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

/// What depends on the target (its blast radius).
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetDependentsResult {
    pub target: NodeSummary,
    pub mode: DependencyMode,
    /// The dependents (a subgraph's nodes, each with its link).
    #[serde(rename = "nodes")]
    pub dependents: Vec<DependencyRow>,
    /// Rows per depth (before `limit`).
    pub by_depth: BTreeMap<u32, usize>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
    /// Symbol mode only: how far "nothing depends on it" can be trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<Caveat>,
}

#[derive(Debug, Clone)]
struct Hit {
    node: NodeIndex,
    depth: u32,
    kinds: Vec<EdgeKind>,
    origin: Origin,
    line: u32,
    via: NodeIndex,
}

struct Walk<'g> {
    g: &'g Graph,
    reverse: bool,
    file_mode: bool,
    kinds: &'g [EdgeKind],
    tests: bool,
}

/// The contains-closure of a symbol (itself first), bounded.
fn scope_of(g: &Graph, start: NodeIndex) -> Vec<NodeIndex> {
    const MAX_SCOPE: usize = 10_000;
    let mut out = vec![start];
    let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
    seen.insert(start);
    let mut i = 0;
    while i < out.len() && out.len() < MAX_SCOPE {
        let cur = out[i];
        i += 1;
        for e in g.out_edges(cur) {
            if e.kind == EdgeKind::Contains && g.node_at(e.to).kind.is_symbol() && seen.insert(e.to) {
                out.push(e.to);
            }
        }
    }
    out
}

impl Walk<'_> {
    /// The unit a node counts as: in file mode the file (or package, or external stub) it lives in.
    fn unit(&self, n: NodeIndex) -> Option<NodeIndex> {
        let g = self.g;
        let node = g.node_at(n);
        if !self.file_mode || matches!(node.kind, NodeKind::File | NodeKind::Package) || node.external {
            return Some(n);
        }
        super::targets::file_node(g, &node.path)
    }

    /// Nodes whose edges a unit stands for.
    fn members(&self, unit: NodeIndex) -> Vec<NodeIndex> {
        let g = self.g;
        let node = g.node_at(unit);
        match node.kind {
            NodeKind::Package => {
                let mut out = vec![unit];
                for e in g.out_edges(unit) {
                    if e.kind == EdgeKind::Contains && g.node_at(e.to).kind == NodeKind::File {
                        out.extend(g.file_nodes(&g.node_at(e.to).path).iter().copied());
                    }
                }
                out
            }
            NodeKind::File if self.file_mode => {
                let mut out: Vec<NodeIndex> = g.file_nodes(&node.path).to_vec();
                // Go/Java importers name the package, not the file.
                if self.reverse {
                    out.extend(
                        g.in_edges(unit)
                            .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind == NodeKind::Package)
                            .map(|e| e.from),
                    );
                }
                out
            }
            // Files and external stubs are leaves of a symbol-mode walk.
            NodeKind::File => Vec::new(),
            _ if node.external => Vec::new(),
            _ => scope_of(g, unit),
        }
    }

    /// Neighbouring units of `unit` with the edges linking them: unit → (kinds, origin, line).
    fn neighbours(&self, unit: NodeIndex, floor: Origin) -> FxHashMap<NodeIndex, (Vec<EdgeKind>, Origin, u32)> {
        let g = self.g;
        let members = self.members(unit);
        let inside: FxHashSet<NodeIndex> = members.iter().copied().collect();
        let mut out: FxHashMap<NodeIndex, (Vec<EdgeKind>, Origin, u32)> = FxHashMap::default();
        for &m in &members {
            let edges: Vec<_> = if self.reverse {
                g.in_edges(m).map(|e| (e.from, *e)).collect()
            } else {
                g.out_edges(m).map(|e| (e.to, *e)).collect()
            };
            for (other, e) in edges {
                if !self.kinds.contains(&e.kind) || e.origin < floor || inside.contains(&other) {
                    continue;
                }
                let other_node = g.node_at(other);
                // In file mode, external symbols are reached through their module import only.
                if self.file_mode && other_node.external && !matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
                    continue;
                }
                let Some(u) = self.unit(other) else { continue };
                if u == unit || inside.contains(&u) {
                    continue;
                }
                if !self.tests && in_test(g, u) {
                    continue;
                }
                let entry = out.entry(u).or_insert((Vec::new(), e.origin, e.line));
                if !entry.0.contains(&e.kind) {
                    entry.0.push(e.kind);
                }
                entry.1 = entry.1.max(e.origin);
                entry.2 = entry.2.min(e.line);
            }
        }
        out
    }

    fn run(&self, start: NodeIndex, max_depth: u32, floor: Origin) -> Vec<Hit> {
        let g = self.g;
        let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
        visited.insert(start);
        if !self.file_mode {
            visited.extend(scope_of(g, start));
        }
        let mut layer = vec![start];
        let mut out = Vec::new();
        for depth in 1..=max_depth {
            let mut next: FxHashMap<NodeIndex, Hit> = FxHashMap::default();
            for &from in &layer {
                for (u, (mut kinds, origin, line)) in self.neighbours(from, floor) {
                    if visited.contains(&u) {
                        continue;
                    }
                    kinds.sort();
                    let hit = Hit {
                        node: u,
                        depth,
                        kinds,
                        origin,
                        line,
                        via: from,
                    };
                    match next.get_mut(&u) {
                        Some(h) => {
                            for k in &hit.kinds {
                                if !h.kinds.contains(k) {
                                    h.kinds.push(*k);
                                }
                            }
                            h.kinds.sort();
                            let better = (hit.origin, std::cmp::Reverse(&g.node_at(hit.via).id))
                                > (h.origin, std::cmp::Reverse(&g.node_at(h.via).id));
                            if better {
                                h.origin = hit.origin;
                                h.via = hit.via;
                                h.line = hit.line;
                            }
                        }
                        None => {
                            next.insert(u, hit);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            let mut hits: Vec<Hit> = next.into_values().collect();
            hits.sort_by(|a, b| g.node_at(a.node).id.cmp(&g.node_at(b.node).id));
            layer = hits.iter().map(|h| h.node).collect();
            visited.extend(layer.iter().copied());
            if !self.file_mode {
                for &n in &layer {
                    visited.extend(scope_of(g, n));
                }
            }
            out.extend(hits);
        }
        out
    }
}

struct Answer {
    target: NodeIndex,
    mode: DependencyMode,
    rows: Vec<DependencyRow>,
    by_depth: BTreeMap<u32, usize>,
    total: usize,
    truncated: bool,
    tiers: TierReport,
    caveat: Option<Caveat>,
}

fn walk(g: &Graph, args: &GetDependenciesArgs, reverse: bool) -> Result<Answer, QueryError> {
    let depth = check_range("depth", args.depth, 1, 1, 3)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let kinds = match &args.kinds {
        Some(k) => parse_edge_kinds("kinds", k, DEPENDENCY_KINDS)?,
        None => DEFAULT_DEPENDENCY_KINDS.to_vec(),
    };
    let target = resolve_one(g, &args.id)?;
    let file_mode = matches!(g.node_at(target).kind, NodeKind::File | NodeKind::Package);
    let w = Walk {
        g,
        reverse,
        file_mode,
        kinds: &kinds,
        tests: args.include_tests.unwrap_or(true),
    };
    let t = tiered(min_tier, |floor| w.run(target, depth, floor), |h| h.origin);
    let mut hits = t.rows;
    hits.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.node), g.node_at(b.node));
        (a.depth, &x.path, &x.id).cmp(&(b.depth, &y.path, &y.id))
    });
    let mut by_depth = BTreeMap::new();
    for h in &hits {
        *by_depth.entry(h.depth).or_insert(0) += 1;
    }
    let caveat = (reverse && !file_mode)
        .then(|| caveat_for_rows(g, target, hits.iter().filter(|h| h.depth == 1).map(|h| h.origin)))
        .flatten();
    let total = hits.len();
    let rows = hits
        .into_iter()
        .take(limit)
        .map(|h| DependencyRow {
            node: NodeSummary::at(g, h.node),
            depth: h.depth,
            kinds: h.kinds,
            origin: h.origin,
            line: h.line,
            via: (h.via != target).then(|| g.node_at(h.via).id.to_string()),
        })
        .collect();
    Ok(Answer {
        target,
        mode: if file_mode {
            DependencyMode::File
        } else {
            DependencyMode::Symbol
        },
        rows,
        by_depth,
        total,
        truncated: total > limit,
        tiers: t.report,
        caveat,
    })
}

/// `get_dependencies`: what a symbol (or file) uses, up to `depth` levels.
pub fn get_dependencies(g: &Graph, args: &GetDependenciesArgs) -> Result<GetDependenciesResult, QueryError> {
    let a = walk(g, args, false)?;
    Ok(GetDependenciesResult {
        target: NodeSummary::at(g, a.target),
        mode: a.mode,
        dependencies: a.rows,
        by_depth: a.by_depth,
        total: a.total,
        truncated: a.truncated,
        tiers: a.tiers,
    })
}

/// `get_dependents`: what uses a symbol (or imports a file), up to `depth` levels.
pub fn get_dependents(g: &Graph, args: &GetDependentsArgs) -> Result<GetDependentsResult, QueryError> {
    let a = walk(g, args, true)?;
    Ok(GetDependentsResult {
        target: NodeSummary::at(g, a.target),
        mode: a.mode,
        dependents: a.rows,
        by_depth: a.by_depth,
        total: a.total,
        truncated: a.truncated,
        tiers: a.tiers,
        caveat: a.caveat,
    })
}
