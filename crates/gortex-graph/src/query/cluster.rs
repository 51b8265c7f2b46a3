//! `get_cluster`: the bidirectional neighbourhood of a node over usage edges
//! ([`EdgeKind::is_usage`]; structural and import edges are not followed).

use super::args::{check_limit, check_range, parse_min_tier};
use super::callers::in_test;
use super::targets::resolve_one;
use super::tiers::{tiered, TierReport};
use super::{NodeSummary, QueryError};
use crate::model::{Graph, NodeIndex};
use gortex_core::{EdgeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `get_cluster`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetClusterArgs {
    /// The centre (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// Hops in either direction (1..=3, default 1).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Most nodes besides the centre (1..=1000, default 50); edges are capped at ten times this.
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

/// A node of the neighbourhood.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ClusterNode {
    pub node: NodeSummary,
    /// Hops from the centre (0 = the centre).
    pub depth: u32,
}

/// A usage edge between two nodes of the neighbourhood (several sites collapse into one).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ClusterEdge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub origin: Origin,
    /// First site line.
    pub line: u32,
}

/// The neighbourhood of a node.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetClusterResult {
    pub center: NodeSummary,
    /// The centre first, then by depth and id.
    pub nodes: Vec<ClusterNode>,
    /// Edges whose both ends are listed, by from, to and kind.
    pub edges: Vec<ClusterEdge>,
    /// Nodes reached before `limit` (besides the centre).
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

#[derive(Debug, Clone, Copy)]
struct Reached {
    node: NodeIndex,
    depth: u32,
    origin: Origin,
}

fn cluster_walk(g: &Graph, center: NodeIndex, max_depth: u32, floor: Origin, tests: bool) -> Vec<Reached> {
    let mut best: FxHashMap<NodeIndex, Reached> = FxHashMap::default();
    let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
    visited.insert(center);
    let mut layer = vec![center];
    let mut out = Vec::new();
    for depth in 1..=max_depth {
        best.clear();
        for &n in &layer {
            let around = g
                .out_edges(n)
                .map(|e| (e.to, e))
                .chain(g.in_edges(n).map(|e| (e.from, e)));
            for (other, e) in around {
                if !e.kind.is_usage() || e.origin < floor || visited.contains(&other) {
                    continue;
                }
                if !tests && in_test(g, other) {
                    continue;
                }
                let r = best.entry(other).or_insert(Reached {
                    node: other,
                    depth,
                    origin: e.origin,
                });
                r.origin = r.origin.max(e.origin);
            }
        }
        if best.is_empty() {
            break;
        }
        let mut next: Vec<Reached> = best.values().copied().collect();
        next.sort_by(|a, b| g.node_at(a.node).id.cmp(&g.node_at(b.node).id));
        layer = next.iter().map(|r| r.node).collect();
        visited.extend(layer.iter().copied());
        out.extend(next);
    }
    out
}

/// `get_cluster`: nodes within `depth` usage hops of the centre, and the usage edges among them.
pub fn get_cluster(g: &Graph, args: &GetClusterArgs) -> Result<GetClusterResult, QueryError> {
    let depth = check_range("depth", args.depth, 1, 1, 3)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let center = resolve_one(g, &args.id)?;
    let tests = args.include_tests.unwrap_or(true);
    let t = tiered(
        min_tier,
        |floor| cluster_walk(g, center, depth, floor, tests),
        |r| r.origin,
    );
    let reached = t.rows;
    let total = reached.len();
    let mut truncated = total > limit;
    let mut nodes = vec![ClusterNode {
        node: NodeSummary::at(g, center),
        depth: 0,
    }];
    let kept: Vec<Reached> = reached.into_iter().take(limit).collect();
    let mut in_set: FxHashSet<NodeIndex> = kept.iter().map(|r| r.node).collect();
    in_set.insert(center);
    nodes.extend(kept.iter().map(|r| ClusterNode {
        node: NodeSummary::at(g, r.node),
        depth: r.depth,
    }));

    // (from, to, kind) → (origin, first line)
    let mut pairs: FxHashMap<(NodeIndex, NodeIndex, EdgeKind), (Origin, u32)> = FxHashMap::default();
    for &n in &in_set {
        for e in g.out_edges(n) {
            if e.kind.is_usage() && e.origin >= t.floor && in_set.contains(&e.to) && e.to != n {
                let p = pairs.entry((n, e.to, e.kind)).or_insert((e.origin, e.line));
                p.0 = p.0.max(e.origin);
                p.1 = p.1.min(e.line);
            }
        }
    }
    // The resolver pairs every test call with a `tests` edge; one row per site is enough.
    let paired: Vec<(NodeIndex, NodeIndex, EdgeKind)> = pairs
        .keys()
        .filter(|(f, t, k)| {
            *k == EdgeKind::Tests
                && (pairs.contains_key(&(*f, *t, EdgeKind::Calls))
                    || pairs.contains_key(&(*f, *t, EdgeKind::Instantiates)))
        })
        .copied()
        .collect();
    for k in paired {
        pairs.remove(&k);
    }
    let id = |i: NodeIndex| &g.node_at(i).id;
    let mut edges: Vec<ClusterEdge> = pairs
        .into_iter()
        .map(|((from, to, kind), (origin, line))| ClusterEdge {
            from: id(from).to_string(),
            to: id(to).to_string(),
            kind,
            origin,
            line,
        })
        .collect();
    edges.sort_by(|a, b| (&a.from, &a.to, a.kind).cmp(&(&b.from, &b.to, b.kind)));
    let edge_cap = limit * 10;
    if edges.len() > edge_cap {
        edges.truncate(edge_cap);
        truncated = true;
    }
    Ok(GetClusterResult {
        center: NodeSummary::at(g, center),
        nodes,
        edges,
        total,
        truncated,
        tiers: t.report,
    })
}
