//! `walk_graph`: a breadth-first walk from one symbol over chosen edge kinds that stops at a token
//! budget. Also [`EdgeRow`], the edge shape the walk and path tools share.

use super::args::{check_range, parse_direction, parse_edge_kinds, parse_min_tier, OneOrMany};
use super::neighbours::neighbours;
use super::targets::resolve_one;
use super::tiers::tier_floor;
use super::{NodeSummary, QueryError};
use crate::model::{Direction, Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, Origin};
use rustc_hash::FxHashSet;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Arguments of `walk_graph`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WalkGraphArgs {
    /// Start node: an id (with or without the `<repo>/` prefix), a file path, or a qualified or
    /// bare name that matches exactly one symbol.
    pub id: String,
    /// Edge kinds to follow (CSV or list); default every usage kind.
    pub edge_kinds: Option<OneOrMany>,
    /// `out` (default), `in` or `both`.
    #[schemars(extend("enum" = ["out", "in", "both"]))]
    pub direction: Option<String>,
    /// Hops from the start, 1..=10 (default 3).
    pub max_depth: Option<u64>,
    /// Estimated tokens the result may take, 100..=100000 (default 4000).
    pub token_budget: Option<u64>,
    /// Most nodes returned, 1..=5000 (default 200).
    pub limit: Option<u64>,
    /// Weakest tier followed; `speculative` edges are skipped unless asked for.
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// A visited node and its distance from the start.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct WalkNode {
    #[serde(flatten)]
    pub node: NodeSummary,
    pub depth: u32,
}

/// One edge as every path and walk result shows it (ids, tier, site line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct EdgeRow {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub origin: Origin,
    pub line: u32,
}

impl EdgeRow {
    /// The row of a graph edge.
    pub fn of(g: &Graph, e: &Edge) -> EdgeRow {
        EdgeRow {
            from: g.node_at(e.from).id.to_string(),
            to: g.node_at(e.to).id.to_string(),
            kind: e.kind,
            origin: e.origin,
            line: e.line,
        }
    }
}

/// Result of `walk_graph`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WalkGraphResult {
    /// Id of the start node (also the first row of `nodes`, at depth 0).
    pub start: String,
    pub direction: &'static str,
    pub edge_kinds: Vec<EdgeKind>,
    /// Visited nodes in breadth-first order.
    pub nodes: Vec<WalkNode>,
    /// Followed edges in the order they were met, in their real direction.
    pub edges: Vec<EdgeRow>,
    /// The next row would have exceeded `token_budget`.
    pub budget_hit: bool,
    /// `limit` nodes were reached before the walk finished.
    pub truncated: bool,
    /// Depth of the first node or edge left out when the walk stopped early.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_depth: Option<u32>,
    /// Deepest depth among returned nodes.
    pub depth_reached: u32,
    /// Estimated tokens of the returned rows (serialized bytes / 4, rounded up, per row).
    pub tokens_used: u64,
}

const DEFAULT_DEPTH: u64 = 3;
const DEFAULT_BUDGET: u64 = 4000;
const DEFAULT_LIMIT: u64 = 200;

/// Walks breadth-first from a symbol until the depth, the node limit or the token budget ends it.
pub fn walk_graph(g: &Graph, args: &WalkGraphArgs) -> Result<WalkGraphResult, QueryError> {
    let start = resolve_one(g, &args.id)?;
    let kinds = match &args.edge_kinds {
        Some(k) => parse_edge_kinds("edge_kinds", k, EdgeKind::ALL)?,
        None => EdgeKind::ALL.iter().copied().filter(|k| k.is_usage()).collect(),
    };
    let direction = parse_direction("direction", args.direction.as_deref(), Direction::Out)?;
    let max_depth = check_range("max_depth", args.max_depth, DEFAULT_DEPTH, 1, 10)? as u32;
    let budget = check_range("token_budget", args.token_budget, DEFAULT_BUDGET, 100, 100_000)?;
    let limit = check_range("limit", args.limit, DEFAULT_LIMIT, 1, 5000)? as usize;
    let floor = tier_floor(parse_min_tier(args.min_tier.as_deref())?);

    let mut out = WalkGraphResult {
        start: g.node_at(start).id.to_string(),
        direction: direction.as_str(),
        edge_kinds: kinds.clone(),
        nodes: Vec::new(),
        edges: Vec::new(),
        budget_hit: false,
        truncated: false,
        stopped_at_depth: None,
        depth_reached: 0,
        tokens_used: 0,
    };
    // The start row is always returned, whatever it costs: an empty walk helps nobody.
    let first = WalkNode {
        node: NodeSummary::at(g, start),
        depth: 0,
    };
    out.tokens_used = estimate_tokens(&first);
    out.nodes.push(first);

    let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
    visited.insert(start);
    let mut seen_edges: FxHashSet<Edge> = FxHashSet::default();
    let mut queue: VecDeque<(NodeIndex, u32)> = VecDeque::from([(start, 0)]);
    'walk: while let Some((u, depth)) = queue.pop_front() {
        if depth >= max_depth {
            continue;
        }
        for (v, e) in neighbours(g, u, direction, &kinds, floor) {
            if !seen_edges.insert(*e) {
                continue;
            }
            let row = EdgeRow::of(g, e);
            let edge_cost = estimate_tokens(&row);
            if visited.contains(&v) {
                if out.tokens_used + edge_cost > budget {
                    out.budget_hit = true;
                    out.stopped_at_depth = Some(depth + 1);
                    break 'walk;
                }
                out.tokens_used += edge_cost;
                out.edges.push(row);
                continue;
            }
            if out.nodes.len() >= limit {
                out.truncated = true;
                out.stopped_at_depth = Some(depth + 1);
                break 'walk;
            }
            let node = WalkNode {
                node: NodeSummary::at(g, v),
                depth: depth + 1,
            };
            let cost = edge_cost + estimate_tokens(&node);
            if out.tokens_used + cost > budget {
                out.budget_hit = true;
                out.stopped_at_depth = Some(depth + 1);
                break 'walk;
            }
            out.tokens_used += cost;
            out.depth_reached = out.depth_reached.max(depth + 1);
            visited.insert(v);
            out.nodes.push(node);
            out.edges.push(row);
            queue.push_back((v, depth + 1));
        }
    }
    Ok(out)
}

/// Estimated tokens of a serialized row: bytes / 4, rounded up.
fn estimate_tokens<T: Serialize>(row: &T) -> u64 {
    let bytes = serde_json::to_string(row).map(|s| s.len()).unwrap_or(0) as u64;
    bytes.div_ceil(4).max(1)
}
