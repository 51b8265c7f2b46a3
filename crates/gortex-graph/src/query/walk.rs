//! `walk_graph`: a breadth-first walk from one symbol over chosen edge kinds that stops at a token
//! budget. Also the argument helpers the path tools share (symbol lookup with suggestions, tier and
//! edge-kind parsing, range checks).

use super::{NodeSummary, QueryError};
use crate::model::{Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Arguments of `walk_graph`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkGraphArgs {
    /// Start symbol: an id, or a name that matches exactly one symbol.
    pub id: String,
    /// CSV of edge kinds to follow; default every usage kind.
    pub edge_kinds: Option<String>,
    /// `out` (default), `in` or `both`.
    pub direction: Option<String>,
    /// Hops from the start, 1..=10 (default 3).
    pub max_depth: Option<u64>,
    /// Estimated tokens the result may take, 100..=100000 (default 4000).
    pub token_budget: Option<u64>,
    /// Most nodes returned, 1..=5000 (default 200).
    pub limit: Option<u64>,
    /// Weakest tier followed; `speculative` edges are skipped unless asked for.
    pub min_tier: Option<String>,
}

/// A visited node and its distance from the start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WalkNode {
    #[serde(flatten)]
    pub node: NodeSummary,
    pub depth: u32,
}

/// One edge as every path and walk result shows it (ids, tier, site line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
            from: g.nodes[e.from as usize].id.to_string(),
            to: g.nodes[e.to as usize].id.to_string(),
            kind: e.kind,
            origin: e.origin,
            line: e.line,
        }
    }
}

/// Result of `walk_graph`.
#[derive(Debug, Serialize)]
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
    let start = resolve_symbol(g, "id", &args.id)?;
    let kinds = match &args.edge_kinds {
        Some(csv) => parse_edge_kinds("edge_kinds", csv)?,
        None => EdgeKind::ALL.iter().copied().filter(|k| k.is_usage()).collect(),
    };
    let direction = parse_direction("direction", args.direction.as_deref())?;
    let max_depth = check_range("max_depth", args.max_depth, DEFAULT_DEPTH, 1, 10)? as u32;
    let budget = check_range("token_budget", args.token_budget, DEFAULT_BUDGET, 100, 100_000)?;
    let limit = check_range("limit", args.limit, DEFAULT_LIMIT, 1, 5000)? as usize;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;

    let mut out = WalkGraphResult {
        start: g.nodes[start as usize].id.to_string(),
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
        for (v, e) in neighbours(g, u, direction, &kinds, min_tier) {
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

/// Which way edges are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    Out,
    In,
    Both,
}

impl Dir {
    /// The wire name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Dir::Out => "out",
            Dir::In => "in",
            Dir::Both => "both",
        }
    }
}

/// Parses `out|in|both` (default `out`).
pub(crate) fn parse_direction(arg: &str, value: Option<&str>) -> Result<Dir, QueryError> {
    match value {
        None | Some("out") => Ok(Dir::Out),
        Some("in") => Ok(Dir::In),
        Some("both") => Ok(Dir::Both),
        Some(other) => Err(QueryError::invalid(format!(
            "{arg} must be one of out, in, both; got \"{other}\""
        ))),
    }
}

/// Edges of `u` in `dir` that pass the kind and tier filters, with the node at their far end,
/// sorted by that node's id, then kind and line, so walks are deterministic.
pub(crate) fn neighbours<'g>(
    g: &'g Graph,
    u: NodeIndex,
    dir: Dir,
    kinds: &[EdgeKind],
    min_tier: Option<Origin>,
) -> Vec<(NodeIndex, &'g Edge)> {
    let keep = |e: &&Edge| kinds.contains(&e.kind) && tier_allows(min_tier, e.origin);
    let mut adj: Vec<(NodeIndex, &Edge)> = Vec::new();
    if matches!(dir, Dir::Out | Dir::Both) {
        adj.extend(g.out_edges(u).filter(keep).map(|e| (e.to, e)));
    }
    if matches!(dir, Dir::In | Dir::Both) {
        // A self-loop is already listed by the outgoing pass.
        adj.extend(
            g.in_edges(u)
                .filter(keep)
                .filter(|e| dir == Dir::In || e.from != e.to)
                .map(|e| (e.from, e)),
        );
    }
    adj.sort_by(|(a, ea), (b, eb)| {
        g.nodes[*a as usize]
            .id
            .cmp(&g.nodes[*b as usize].id)
            .then(ea.kind.cmp(&eb.kind))
            .then(ea.line.cmp(&eb.line))
            .then(ea.from.cmp(&eb.from))
            .then(ea.to.cmp(&eb.to))
    });
    adj
}

/// Estimated tokens of a serialized row: bytes / 4, rounded up.
pub(crate) fn estimate_tokens<T: Serialize>(row: &T) -> u64 {
    let bytes = serde_json::to_string(row).map(|s| s.len()).unwrap_or(0) as u64;
    bytes.div_ceil(4).max(1)
}

/// `value` or its default, rejected (not clamped) outside `lo..=hi`.
pub(crate) fn check_range(arg: &str, value: Option<u64>, default: u64, lo: u64, hi: u64) -> Result<u64, QueryError> {
    let v = value.unwrap_or(default);
    if v < lo || v > hi {
        return Err(QueryError::invalid(format!("{arg} must be {lo}..={hi}, got {v}")));
    }
    Ok(v)
}

/// Parses a tier name; `None` means the default (everything but `speculative`).
pub(crate) fn parse_min_tier(value: Option<&str>) -> Result<Option<Origin>, QueryError> {
    match value {
        None => Ok(None),
        Some(text) => Origin::parse(text).map(Some).ok_or_else(|| {
            let valid: Vec<&str> = Origin::ALL.iter().map(|o| o.as_str()).collect();
            QueryError::invalid(format!("min_tier must be one of {}; got \"{text}\"", valid.join(", ")))
        }),
    }
}

/// Whether an edge of tier `origin` is shown under `min_tier` (speculative only when asked).
pub(crate) fn tier_allows(min_tier: Option<Origin>, origin: Origin) -> bool {
    origin >= min_tier.unwrap_or(Origin::TextMatched)
}

/// Parses a CSV of edge kind names (duplicates dropped, order kept).
pub(crate) fn parse_edge_kinds(arg: &str, csv: &str) -> Result<Vec<EdgeKind>, QueryError> {
    let mut kinds = Vec::new();
    for part in csv.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let kind = EdgeKind::parse(part).ok_or_else(|| {
            QueryError::invalid(format!(
                "{arg}: unknown edge kind \"{part}\"; valid: {}",
                edge_kind_names()
            ))
        })?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} must name at least one edge kind; valid: {}",
            edge_kind_names()
        )));
    }
    Ok(kinds)
}

/// Every edge kind name, comma separated (for error messages).
pub(crate) fn edge_kind_names() -> String {
    EdgeKind::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
}

/// Finds a node by id, repository-relative id (without the `<repo>/` prefix), or a name /
/// qualified name that matches exactly one in-repository symbol.
pub(crate) fn resolve_symbol(g: &Graph, arg: &str, value: &str) -> Result<NodeIndex, QueryError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} must not be empty; pass a node id or a symbol name"
        )));
    }
    if let Some(i) = lookup_id(g, value) {
        return Ok(i);
    }
    let mut matches: Vec<&str> = g
        .nodes
        .iter()
        .filter(|n| n.kind.is_symbol() && !n.external && (n.name == value || n.qualified == value))
        .map(|n| &*n.id)
        .collect();
    match matches.len() {
        1 => Ok(g.lookup(matches[0]).expect("id of a node")),
        0 => Err(QueryError::not_found(format!(
            "{arg} \"{value}\": no node has this id or name{}",
            suggestion_text(&suggest_ids(g, value, false))
        ))),
        n => {
            matches.sort_unstable();
            let shown: Vec<&str> = matches.iter().take(10).copied().collect();
            let more = if n > shown.len() {
                format!(" and {} more", n - shown.len())
            } else {
                String::new()
            };
            Err(QueryError::ambiguous(format!(
                "{arg} \"{value}\" names {n} symbols; pass one id: {}{more}",
                shown.join(", ")
            )))
        }
    }
}

/// A node by exact id, or by id relative to the repository (`src/a.ts::f` for `repo/src/a.ts::f`).
pub(crate) fn lookup_id(g: &Graph, value: &str) -> Option<NodeIndex> {
    g.lookup(value).or_else(|| g.lookup(&format!("{}/{}", g.repo, value)))
}

/// `; closest: a, b` or `; no similar names`.
pub(crate) fn suggestion_text(ids: &[String]) -> String {
    if ids.is_empty() {
        "; no similar names".to_string()
    } else {
        format!("; closest: {}", ids.join(", "))
    }
}

/// Up to five ids whose name is closest to the last segment of `value` (exact, then containing,
/// then by edit distance). `files_only` compares file names with the value's base name.
pub(crate) fn suggest_ids(g: &Graph, value: &str, files_only: bool) -> Vec<String> {
    let pathish = files_only || (value.contains('/') && !value.contains("::"));
    let key = if pathish {
        value.rsplit('/').next().unwrap_or(value)
    } else {
        let tail = value.rsplit("::").next().unwrap_or(value);
        tail.rsplit('.').find(|s| !s.is_empty()).unwrap_or(tail)
    };
    let key = key.to_lowercase();
    if key.is_empty() {
        return Vec::new();
    }
    let max_distance = (key.chars().count() / 3).max(1);
    let mut scored: Vec<(usize, &str)> = g
        .nodes
        .iter()
        .filter(|n| !n.external && n.kind != NodeKind::Import)
        .filter(|n| {
            if pathish {
                n.kind == NodeKind::File
            } else {
                n.kind.is_symbol()
            }
        })
        .filter_map(|n| {
            let name = n.name.to_lowercase();
            let score = if name == key {
                0
            } else if name.contains(&key) || key.contains(&name) {
                1
            } else {
                2 + bounded_distance(&name, &key, max_distance)?
            };
            Some((score, &*n.id))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(5).map(|(_, id)| id.to_string()).collect()
}

/// Edit distance (insertions, deletions, substitutions and swaps of neighbours, which are the
/// common typos) when it is at most `max`, else `None`.
fn bounded_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 0..a.len() {
        cur[0] = i + 1;
        for j in 0..b.len() {
            let mut d = (prev[j] + usize::from(a[i] != b[j]))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}
