//! The type hierarchy and the override relation derived from it. Supertypes and subtypes are
//! reached over `extends`/`implements` edges; overrides are not stored as edges but derived at
//! query time from member names, so the hierarchy tools, the caveats and dead-code analysis all
//! see the same relation.

use crate::model::{Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};

/// Largest number of inheritance hops any hierarchy walk takes.
pub const MAX_HIERARCHY_DEPTH: u32 = 10;

/// One type reached by a hierarchy walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HierarchyStep {
    pub node: NodeIndex,
    /// Inheritance hops from the start (1 = direct supertype/subtype).
    pub depth: u32,
    /// The weakest edge origin on the path that reached it.
    pub origin: Origin,
    /// The type it was reached from.
    pub via: NodeIndex,
    /// The kind of the last edge (`extends` or `implements`).
    pub kind: EdgeKind,
}

/// Supertypes (`up`) or subtypes (`!up`) of `start` over `extends`/`implements` edges with
/// origin at or above `floor`, breadth-first, at most `max_depth` hops. Each type appears once, at
/// its smallest depth (ties: strongest path, then smallest `via` id), ordered by depth then id.
pub fn hierarchy_walk(g: &Graph, start: NodeIndex, up: bool, max_depth: u32, floor: Origin) -> Vec<HierarchyStep> {
    hierarchy_walk_by(g, start, up, max_depth, floor, |_, _| true)
}

/// [`hierarchy_walk`] following only the edges `accept(edge, other_end)` admits.
pub fn hierarchy_walk_by(
    g: &Graph,
    start: NodeIndex,
    up: bool,
    max_depth: u32,
    floor: Origin,
    accept: impl Fn(&Edge, NodeIndex) -> bool,
) -> Vec<HierarchyStep> {
    let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
    visited.insert(start);
    let mut out = Vec::new();
    let mut layer: Vec<(NodeIndex, Origin)> = vec![(start, Origin::LspResolved)];
    for depth in 1..=max_depth.min(MAX_HIERARCHY_DEPTH) {
        let mut next: FxHashMap<NodeIndex, HierarchyStep> = FxHashMap::default();
        for &(from, path_origin) in &layer {
            let edges: Vec<(NodeIndex, EdgeKind, Origin)> = if up {
                g.out_edges(from)
                    .filter(|e| accept(e, e.to))
                    .map(|e| (e.to, e.kind, e.origin))
                    .collect()
            } else {
                g.in_edges(from)
                    .filter(|e| accept(e, e.from))
                    .map(|e| (e.from, e.kind, e.origin))
                    .collect()
            };
            for (other, kind, origin) in edges {
                if !matches!(kind, EdgeKind::Extends | EdgeKind::Implements) || origin < floor {
                    continue;
                }
                if visited.contains(&other) {
                    continue;
                }
                let step = HierarchyStep {
                    node: other,
                    depth,
                    origin: path_origin.min(origin),
                    via: from,
                    kind,
                };
                next.entry(other)
                    .and_modify(|s| {
                        let better = (step.origin, std::cmp::Reverse(&g.node_at(step.via).id))
                            > (s.origin, std::cmp::Reverse(&g.node_at(s.via).id));
                        if better {
                            *s = step;
                        }
                    })
                    .or_insert(step);
            }
        }
        if next.is_empty() {
            break;
        }
        let mut steps: Vec<HierarchyStep> = next.into_values().collect();
        steps.sort_by(|a, b| g.node_at(a.node).id.cmp(&g.node_at(b.node).id));
        layer = steps.iter().map(|s| (s.node, s.origin)).collect();
        for s in &steps {
            visited.insert(s.node);
        }
        out.extend(steps);
    }
    out
}

/// The type that owns a member: its `member_of` target, else a type-like `contains` parent.
pub fn owner_type(g: &Graph, member: NodeIndex) -> Option<NodeIndex> {
    g.out_edges(member)
        .filter(|e| e.kind == EdgeKind::MemberOf)
        .map(|e| e.to)
        .min()
        .or_else(|| {
            g.in_edges(member)
                .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind.is_type_like())
                .map(|e| e.from)
                .min()
        })
}

/// Members of type `ty` (methods, fields, …), through `contains` and `member_of`, sorted by id.
pub fn members(g: &Graph, ty: NodeIndex) -> Vec<NodeIndex> {
    let mut out: Vec<NodeIndex> = g
        .out_edges(ty)
        .filter(|e| e.kind == EdgeKind::Contains)
        .map(|e| e.to)
        .chain(g.in_edges(ty).filter(|e| e.kind == EdgeKind::MemberOf).map(|e| e.from))
        .collect();
    out.sort_by(|a, b| g.node_at(*a).id.cmp(&g.node_at(*b).id));
    out.dedup();
    out
}

/// A method related to another by overriding (derived at query time; no edges are stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverrideHit {
    pub method: NodeIndex,
    pub owner: NodeIndex,
    /// Inheritance hops between the two owners.
    pub depth: u32,
    /// The weakest `extends`/`implements` origin on the path between the owners.
    pub origin: Origin,
}

/// Supertype members `method` overrides (same name, any supertype), nearest first.
pub fn overridden(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    override_hits(g, method, true, floor, MAX_HIERARCHY_DEPTH)
}

/// Subtype members that override `method`, nearest first.
pub fn overriding(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    override_hits(g, method, false, floor, MAX_HIERARCHY_DEPTH)
}

/// The nearest overridden members of `method`: the hits at the smallest depth.
pub fn nearest_overridden(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    let hits = overridden(g, method, floor);
    let Some(min) = hits.iter().map(|h| h.depth).min() else {
        return hits;
    };
    hits.into_iter().filter(|h| h.depth == min).collect()
}

fn override_hits(g: &Graph, method: NodeIndex, up: bool, floor: Origin, max_depth: u32) -> Vec<OverrideHit> {
    let m = g.node_at(method);
    if !matches!(m.kind, NodeKind::Method) {
        return Vec::new();
    }
    let Some(owner) = owner_type(g, method) else {
        return Vec::new();
    };
    let mut hits = Vec::new();
    for step in hierarchy_walk(g, owner, up, max_depth, floor) {
        for other in members(g, step.node) {
            let o = g.node_at(other);
            if o.kind == NodeKind::Method && o.name == m.name && other != method {
                hits.push(OverrideHit {
                    method: other,
                    owner: step.node,
                    depth: step.depth,
                    origin: step.origin,
                });
            }
        }
    }
    hits
}
