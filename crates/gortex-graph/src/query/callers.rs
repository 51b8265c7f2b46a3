//! `get_callers` (reverse call graph) and `get_call_chain` (forward call graph).
//!
//! Calls are `calls` and `instantiates` edges. The `tests` edge the resolver adds next to every
//! call from a test symbol is not a separate caller: test callers appear through their `calls`
//! edge and carry `is_test` in their summary; `include_tests: false` drops them.

use super::args::{check_limit, check_range, parse_min_tier};
use super::caveats::{caveat_for_rows, Caveat};
use super::targets::resolve_one;
use super::tiers::{tiered, TierReport};
use super::{NodeSummary, QueryError};
use crate::model::{Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn is_call(kind: EdgeKind) -> bool {
    matches!(kind, EdgeKind::Calls | EdgeKind::Instantiates)
}

/// True for test symbols and for anything declared in a test file.
pub fn in_test(g: &Graph, i: NodeIndex) -> bool {
    let n = g.node_at(i);
    n.is_test || super::targets::file_node(g, &n.path).is_some_and(|f| g.node_at(f).is_test)
}

/// Rejects file and package nodes for tools that answer about symbols.
pub fn require_symbol(g: &Graph, i: NodeIndex, tool: &str, hint: &str) -> Result<(), QueryError> {
    let n = g.node_at(i);
    if matches!(n.kind, NodeKind::File | NodeKind::Package) {
        return Err(QueryError::invalid(format!(
            "{tool} needs a symbol, but {:?} is a {}{hint}",
            &*n.id, n.kind
        )));
    }
    Ok(())
}

/// Arguments of `get_callers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetCallersArgs {
    /// The callee (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// Caller levels to walk (1..=5, default 1).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
    /// Keep callers that are tests or live in test files (default true).
    #[serde(default)]
    pub include_tests: Option<bool>,
}

/// One caller.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CallerRow {
    pub caller: NodeSummary,
    /// `calls` or `instantiates` (the strongest edge to the callee).
    pub kind: EdgeKind,
    pub origin: Origin,
    /// File of the call sites.
    pub path: String,
    /// Call-site lines in that file, ascending.
    pub lines: Vec<u32>,
    /// Levels from the target (1 = calls the target directly).
    pub depth: u32,
    /// The node this caller calls, when it is not the target (depth > 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callee: Option<String>,
    /// The framework pass that synthesized the call (the caller registers the target with a
    /// framework, which calls it), when no call in the source states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<gortex_core::Synthesizer>,
}

/// Callers of a symbol, nearest first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetCallersResult {
    pub target: NodeSummary,
    pub callers: Vec<CallerRow>,
    /// Rows before `limit`.
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<Caveat>,
}

#[derive(Debug, Clone)]
struct Hit {
    node: NodeIndex,
    depth: u32,
    callee: NodeIndex,
    kind: EdgeKind,
    origin: Origin,
    lines: Vec<u32>,
    /// Set when every strongest edge of the pair is a framework dispatch.
    via: Option<gortex_core::Synthesizer>,
}

/// Breadth-first over incoming call edges; every node once, at its smallest depth, reached
/// through its strongest edge (ties: smallest callee id).
fn caller_walk(g: &Graph, target: NodeIndex, max_depth: u32, floor: Origin, tests: bool) -> Vec<Hit> {
    let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
    visited.insert(target);
    let mut layer = vec![target];
    let mut out = Vec::new();
    for depth in 1..=max_depth {
        let mut next: FxHashMap<NodeIndex, Hit> = FxHashMap::default();
        for &callee in &layer {
            // caller → (kind, origin, lines, via) for this callee
            type PerCaller = (EdgeKind, Origin, Vec<u32>, Option<gortex_core::Synthesizer>);
            let mut per: FxHashMap<NodeIndex, PerCaller> = FxHashMap::default();
            for e in g.in_edges(callee) {
                if !is_call(e.kind) || e.origin < floor || visited.contains(&e.from) {
                    continue;
                }
                if !tests && in_test(g, e.from) {
                    continue;
                }
                let entry = per.entry(e.from).or_insert((e.kind, e.origin, Vec::new(), e.via));
                if e.origin > entry.1 {
                    entry.0 = e.kind;
                    entry.1 = e.origin;
                    entry.3 = e.via;
                } else if e.origin == entry.1 && e.via.is_none() {
                    // A call the source states outweighs a synthesized one of the same tier.
                    entry.3 = None;
                }
                entry.2.push(e.line);
            }
            for (caller, (kind, origin, mut lines, via)) in per {
                lines.sort_unstable();
                lines.dedup();
                let hit = Hit {
                    node: caller,
                    depth,
                    callee,
                    kind,
                    origin,
                    lines,
                    via,
                };
                next.entry(caller)
                    .and_modify(|h| {
                        let (a, b) = (&g.node_at(hit.callee).id, &g.node_at(h.callee).id);
                        if hit.origin > h.origin || (hit.origin == h.origin && a < b) {
                            *h = hit.clone();
                        }
                    })
                    .or_insert_with(|| hit.clone());
            }
        }
        if next.is_empty() {
            break;
        }
        let mut hits: Vec<Hit> = next.into_values().collect();
        hits.sort_by(|a, b| g.node_at(a.node).id.cmp(&g.node_at(b.node).id));
        layer = hits.iter().map(|h| h.node).collect();
        visited.extend(layer.iter().copied());
        out.extend(hits);
    }
    out
}

/// `get_callers`: who calls or instantiates the target, up to `depth` levels back.
pub fn get_callers(g: &Graph, args: &GetCallersArgs) -> Result<GetCallersResult, QueryError> {
    let depth = check_range("depth", args.depth, 1, 1, 5)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let target = resolve_one(g, &args.id)?;
    require_symbol(g, target, "get_callers", "; use get_dependents for files")?;
    let tests = args.include_tests.unwrap_or(true);
    let t = tiered(
        min_tier,
        |floor| caller_walk(g, target, depth, floor, tests),
        |h| h.origin,
    );
    let mut hits = t.rows;
    hits.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.node), g.node_at(b.node));
        (a.depth, &x.path, a.lines.first(), &x.id).cmp(&(b.depth, &y.path, b.lines.first(), &y.id))
    });
    let caveat = caveat_for_rows(g, target, hits.iter().filter(|h| h.depth == 1).map(|h| h.origin));
    let total = hits.len();
    let callers = hits
        .into_iter()
        .take(limit)
        .map(|h| CallerRow {
            caller: NodeSummary::at(g, h.node),
            kind: h.kind,
            origin: h.origin,
            path: g.node_at(h.node).path.to_string(),
            lines: h.lines,
            depth: h.depth,
            callee: (h.callee != target).then(|| g.node_at(h.callee).id.to_string()),
            via: h.via,
        })
        .collect();
    Ok(GetCallersResult {
        target: NodeSummary::at(g, target),
        callers,
        total,
        truncated: total > limit,
        tiers: t.report,
        caveat,
    })
}

/// Arguments of `get_call_chain`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetCallChainArgs {
    /// The root caller (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// Call levels to walk (1..=6, default 3).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Most call rows (and, separately, unresolved rows) returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// A node of the call chain.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChainNode {
    pub node: NodeSummary,
    /// Calls from the root (0 = the root).
    pub depth: u32,
}

/// One caller → callee pair (several call sites collapse into one row).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChainCall {
    pub from: String,
    pub to: String,
    /// `calls` or `instantiates` (the strongest edge of the pair).
    pub kind: EdgeKind,
    pub origin: Origin,
    /// Depth of `to` along this edge (`from`'s depth + 1).
    pub depth: u32,
    /// First call-site line.
    pub line: u32,
}

/// A call made inside the chain that the resolver could not bind.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChainUnresolved {
    pub from: String,
    /// `unresolved::name` or `unresolved::*.name`.
    pub target: String,
    pub line: u32,
    /// Same-named candidates in the repository (0 = none, >1 = ambiguous).
    pub candidates: u32,
}

/// The forward call graph below a symbol, as nodes and caller → callee rows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetCallChainResult {
    pub root: NodeSummary,
    /// The root and every node named by a returned call, by depth then id.
    pub nodes: Vec<ChainNode>,
    pub calls: Vec<ChainCall>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<ChainUnresolved>,
    /// Call rows before `limit`.
    pub total: usize,
    /// Unresolved rows before `limit`.
    #[serde(skip_serializing_if = "is_zero")]
    pub unresolved_total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Clone)]
struct Call {
    from: NodeIndex,
    to: NodeIndex,
    kind: EdgeKind,
    origin: Origin,
    depth: u32,
    line: u32,
}

/// Breadth-first over outgoing call edges: the rows between reached nodes, and each node's depth.
fn chain_walk(g: &Graph, root: NodeIndex, max_depth: u32, floor: Origin) -> (Vec<Call>, FxHashMap<NodeIndex, u32>) {
    let mut depth_of: FxHashMap<NodeIndex, u32> = FxHashMap::default();
    depth_of.insert(root, 0);
    let mut layer = vec![root];
    let mut calls = Vec::new();
    for depth in 1..=max_depth {
        let mut next = Vec::new();
        for &from in &layer {
            let mut per: FxHashMap<NodeIndex, Call> = FxHashMap::default();
            for e in g.out_edges(from) {
                if !is_call(e.kind) || e.origin < floor {
                    continue;
                }
                let c = per.entry(e.to).or_insert(Call {
                    from,
                    to: e.to,
                    kind: e.kind,
                    origin: e.origin,
                    depth,
                    line: e.line,
                });
                if e.origin > c.origin {
                    c.origin = e.origin;
                    c.kind = e.kind;
                }
                c.line = c.line.min(e.line);
            }
            for (to, c) in per {
                if let std::collections::hash_map::Entry::Vacant(v) = depth_of.entry(to) {
                    v.insert(depth);
                    next.push(to);
                }
                calls.push(c);
            }
        }
        next.sort_by(|a, b| g.node_at(*a).id.cmp(&g.node_at(*b).id));
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    (calls, depth_of)
}

/// `get_call_chain`: what the root calls, transitively, plus the calls that stayed unresolved.
pub fn get_call_chain(g: &Graph, args: &GetCallChainArgs) -> Result<GetCallChainResult, QueryError> {
    let depth = check_range("depth", args.depth, 3, 1, 6)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let root = resolve_one(g, &args.id)?;
    require_symbol(g, root, "get_call_chain", "")?;
    let t = tiered(min_tier, |floor| chain_walk(g, root, depth, floor).0, |c| c.origin);
    let mut calls = t.rows;
    let id = |i: NodeIndex| &g.node_at(i).id;
    calls.sort_by(|a, b| (a.depth, id(a.from), a.line, id(a.to)).cmp(&(b.depth, id(b.from), b.line, id(b.to))));
    // Depth of each node: smallest depth at which a kept call reaches it.
    let mut depth_of: FxHashMap<NodeIndex, u32> = FxHashMap::default();
    depth_of.insert(root, 0);
    for c in &calls {
        let d = depth_of.entry(c.to).or_insert(c.depth);
        *d = (*d).min(c.depth);
    }
    // Unresolved calls of every node the walk expanded (those above the depth limit).
    let mut expanded: Vec<NodeIndex> = depth_of.iter().filter(|(_, &d)| d < depth).map(|(&n, _)| n).collect();
    expanded.sort_by(|a, b| (depth_of[a], id(*a)).cmp(&(depth_of[b], id(*b))));
    let mut unresolved: Vec<ChainUnresolved> = Vec::new();
    for &n in &expanded {
        let mut rows: Vec<ChainUnresolved> = g
            .unresolved_from(n)
            .filter(|u| is_call(u.kind))
            .map(|u| ChainUnresolved {
                from: id(n).to_string(),
                target: u.target.clone(),
                line: u.line,
                candidates: u.candidates,
            })
            .collect();
        rows.sort_by(|a, b| (a.line, &a.target).cmp(&(b.line, &b.target)));
        unresolved.extend(rows);
    }
    let total = calls.len();
    let unresolved_total = unresolved.len();
    calls.truncate(limit);
    unresolved.truncate(limit);
    let mut shown: Vec<NodeIndex> = vec![root];
    shown.extend(calls.iter().flat_map(|c| [c.from, c.to]));
    shown.sort_by(|a, b| (depth_of[a], id(*a)).cmp(&(depth_of[b], id(*b))));
    shown.dedup();
    Ok(GetCallChainResult {
        root: NodeSummary::at(g, root),
        nodes: shown
            .into_iter()
            .map(|n| ChainNode {
                node: NodeSummary::at(g, n),
                depth: depth_of[&n],
            })
            .collect(),
        calls: calls
            .into_iter()
            .map(|c| ChainCall {
                from: id(c.from).to_string(),
                to: id(c.to).to_string(),
                kind: c.kind,
                origin: c.origin,
                depth: c.depth,
                line: c.line,
            })
            .collect(),
        unresolved,
        total,
        unresolved_total,
        truncated: total > limit || unresolved_total > limit,
        tiers: t.report,
    })
}
