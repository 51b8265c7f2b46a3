//! `find_implementations`, `find_overrides` and `get_class_hierarchy`.
//!
//! Overrides are not stored as edges; they are derived at query time: a method named N whose
//! owner type has a supertype (through `extends`/`implements`, transitively, at most
//! [`MAX_HIERARCHY_DEPTH`] hops) with a method named N overrides that method. Names only:
//! signatures are not compared, so every overload of N counts.
//!
//! `find_implementations` lists types that implement an interface, directly or through interfaces
//! that extend it (`interface B extends A`): a non-interface type with an `implements` edge, or an
//! `extends` edge to an interface (Python protocol/ABC bases, Go embedding of an interface).
//! Subclasses of implementers are not listed (they inherit the implementation); use
//! `get_class_hierarchy` with `direction: "down"` for them.

use super::args::{check_limit, check_range, parse_min_tier};
use super::inheritance::{
    hierarchy_walk, hierarchy_walk_by, members, nearest_overridden, overridden, overriding, owner_type,
    MAX_HIERARCHY_DEPTH,
};
use super::targets::resolve_one;
use super::tiers::{tiered, TierReport};
use super::{NodeSummary, QueryError};
use crate::model::{Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn id(g: &Graph, i: NodeIndex) -> &str {
    &g.node_at(i).id
}

/// Arguments of `find_implementations`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindImplementationsArgs {
    /// The interface (or a type used as one) (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// A type implementing the target.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImplementationRow {
    pub node: NodeSummary,
    /// The interface it names in its declaration (the target, or a sub-interface of it).
    pub implements: String,
    /// `implements` or `extends`.
    pub kind: EdgeKind,
    /// Weakest origin on the path from the target.
    pub origin: Origin,
    /// Declaration line of the `implements` clause.
    pub line: u32,
    /// Hops from the target (1 = implements it directly).
    pub depth: u32,
}

/// An interface extending the target, walked to find indirect implementations.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SubInterfaceRow {
    pub node: NodeSummary,
    pub extends: String,
    pub origin: Origin,
    pub depth: u32,
}

/// Implementations of an interface.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FindImplementationsResult {
    pub target: NodeSummary,
    pub implementations: Vec<ImplementationRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sub_interfaces: Vec<SubInterfaceRow>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

#[derive(Debug, Clone)]
struct Impl {
    node: NodeIndex,
    implements: NodeIndex,
    kind: EdgeKind,
    origin: Origin,
    line: u32,
    depth: u32,
}

fn sub_interfaces(g: &Graph, target: NodeIndex, floor: Origin) -> Vec<super::inheritance::HierarchyStep> {
    hierarchy_walk_by(g, target, false, MAX_HIERARCHY_DEPTH, floor, |e, other| {
        e.kind == EdgeKind::Extends && g.node_at(other).kind == NodeKind::Interface
    })
}

fn implementations(g: &Graph, target: NodeIndex, floor: Origin) -> Vec<Impl> {
    let mut set: Vec<(NodeIndex, u32, Origin)> = vec![(target, 0, Origin::LspResolved)];
    set.extend(
        sub_interfaces(g, target, floor)
            .into_iter()
            .map(|s| (s.node, s.depth, s.origin)),
    );
    let mut best: FxHashMap<NodeIndex, Impl> = FxHashMap::default();
    for &(iface, depth, path_origin) in &set {
        let iface_is_interface = g.node_at(iface).kind == NodeKind::Interface;
        for e in g.in_edges(iface) {
            let from = g.node_at(e.from);
            let fits = match e.kind {
                EdgeKind::Implements => true,
                EdgeKind::Extends => iface_is_interface,
                _ => false,
            };
            if !fits || e.origin < floor || from.kind == NodeKind::Interface || !from.kind.is_type_like() {
                continue;
            }
            let hit = Impl {
                node: e.from,
                implements: iface,
                kind: e.kind,
                origin: path_origin.min(e.origin),
                line: e.line,
                depth: depth + 1,
            };
            best.entry(e.from)
                .and_modify(|h| {
                    if (hit.depth, std::cmp::Reverse(hit.origin), id(g, hit.implements))
                        < (h.depth, std::cmp::Reverse(h.origin), id(g, h.implements))
                    {
                        *h = hit.clone();
                    }
                })
                .or_insert_with(|| hit.clone());
        }
    }
    best.into_values().collect()
}

/// `find_implementations`: types implementing an interface, directly or via sub-interfaces.
pub fn find_implementations(
    g: &Graph,
    args: &FindImplementationsArgs,
) -> Result<FindImplementationsResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let target = resolve_one(g, &args.id)?;
    let t_node = g.node_at(target);
    if !t_node.kind.is_type_like() {
        let hint = if t_node.kind == NodeKind::Method {
            " (for a method use find_overrides with direction \"children\")"
        } else {
            ""
        };
        return Err(QueryError::invalid(format!(
            "find_implementations needs an interface or type, but {:?} is a {}{hint}",
            &*t_node.id, t_node.kind
        )));
    }
    let t = tiered(min_tier, |floor| implementations(g, target, floor), |h| h.origin);
    let mut rows = t.rows;
    rows.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.node), g.node_at(b.node));
        (a.depth, &x.path, x.span.start_line, &x.id).cmp(&(b.depth, &y.path, y.span.start_line, &y.id))
    });
    let subs = sub_interfaces(g, target, t.floor)
        .into_iter()
        .map(|s| SubInterfaceRow {
            node: NodeSummary::at(g, s.node),
            extends: id(g, s.via).to_string(),
            origin: s.origin,
            depth: s.depth,
        })
        .collect();
    let total = rows.len();
    Ok(FindImplementationsResult {
        target: NodeSummary::at(g, target),
        implementations: rows
            .into_iter()
            .take(limit)
            .map(|h| ImplementationRow {
                node: NodeSummary::at(g, h.node),
                implements: id(g, h.implements).to_string(),
                kind: h.kind,
                origin: h.origin,
                line: h.line,
                depth: h.depth,
            })
            .collect(),
        sub_interfaces: subs,
        total,
        truncated: total > limit,
        tiers: t.report,
    })
}

/// Which way `find_overrides` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Up,
    Down,
    Both,
}

fn parse_way(name: &str, value: Option<&str>, up: &str, down: &str) -> Result<Way, QueryError> {
    match value {
        None => Ok(Way::Both),
        Some(v) if v == up => Ok(Way::Up),
        Some(v) if v == down => Ok(Way::Down),
        Some("both") => Ok(Way::Both),
        Some(v) => Err(QueryError::invalid(format!(
            "{name} must be one of {up}, {down}, both, got {v:?}"
        ))),
    }
}

/// Arguments of `find_overrides`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindOverridesArgs {
    /// The method (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// `parents` (what it overrides), `children` (what overrides it) or `both` (default).
    #[serde(default)]
    #[schemars(extend("enum" = ["parents", "children", "both"]))]
    pub direction: Option<String>,
    /// Most rows per list (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept (of the `extends`/`implements` edges on the path).
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// A method related to the target by overriding.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OverrideRow {
    pub method: NodeSummary,
    pub owner: NodeSummary,
    /// Inheritance hops between the owners (1 = direct supertype/subtype).
    pub depth: u32,
    /// Weakest `extends`/`implements` origin on the path.
    pub origin: Origin,
}

/// Methods the target overrides (`parents`) and that override it (`children`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FindOverridesResult {
    pub target: NodeSummary,
    /// The type owning the target; absent for a method without a known owner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<NodeSummary>,
    pub parents: Vec<OverrideRow>,
    pub children: Vec<OverrideRow>,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

/// `find_overrides`: derived override relations of a method, up and/or down the hierarchy.
pub fn find_overrides(g: &Graph, args: &FindOverridesArgs) -> Result<FindOverridesResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let way = parse_way("direction", args.direction.as_deref(), "parents", "children")?;
    let target = resolve_one(g, &args.id)?;
    let m = g.node_at(target);
    if m.kind != NodeKind::Method {
        return Err(QueryError::invalid(format!(
            "find_overrides needs a method, but {:?} is a {}",
            &*m.id, m.kind
        )));
    }
    let collect = |floor: Origin| {
        let mut rows: Vec<(bool, super::inheritance::OverrideHit)> = Vec::new();
        if way != Way::Down {
            rows.extend(overridden(g, target, floor).into_iter().map(|h| (true, h)));
        }
        if way != Way::Up {
            rows.extend(overriding(g, target, floor).into_iter().map(|h| (false, h)));
        }
        rows
    };
    let t = tiered(min_tier, collect, |(_, h)| h.origin);
    let mut rows = t.rows;
    rows.sort_by(|(ua, a), (ub, b)| {
        (!ua, a.depth, id(g, a.owner), id(g, a.method)).cmp(&(!ub, b.depth, id(g, b.owner), id(g, b.method)))
    });
    let (parents, children): (Vec<_>, Vec<_>) = rows.into_iter().partition(|(up, _)| *up);
    let truncated = parents.len() > limit || children.len() > limit;
    let to_rows = |v: Vec<(bool, super::inheritance::OverrideHit)>| -> Vec<OverrideRow> {
        v.into_iter()
            .take(limit)
            .map(|(_, h)| OverrideRow {
                method: NodeSummary::at(g, h.method),
                owner: NodeSummary::at(g, h.owner),
                depth: h.depth,
                origin: h.origin,
            })
            .collect()
    };
    Ok(FindOverridesResult {
        target: NodeSummary::at(g, target),
        owner: owner_type(g, target).map(|o| NodeSummary::at(g, o)),
        parents: to_rows(parents),
        children: to_rows(children),
        truncated,
        tiers: t.report,
    })
}

/// Arguments of `get_class_hierarchy`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetClassHierarchyArgs {
    /// The type, interface or method (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// `up` (supertypes), `down` (subtypes) or `both` (default).
    #[serde(default)]
    #[schemars(extend("enum" = ["up", "down", "both"]))]
    pub direction: Option<String>,
    /// Inheritance hops (1..=10, default 5).
    #[serde(default)]
    pub depth: Option<u32>,
    /// List each type's methods with the methods they override (types only).
    #[serde(default)]
    pub include_methods: bool,
    /// Most nodes besides the root (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// Where a hierarchy node sits relative to the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HierarchySide {
    Root,
    Up,
    Down,
}

/// A method of a hierarchy type and the nearest supertype methods it overrides.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HierarchyMethod {
    pub id: String,
    pub name: String,
    pub line: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
}

/// A node of the hierarchy subgraph.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HierarchyNode {
    pub node: NodeSummary,
    pub side: HierarchySide,
    /// Hops from the root.
    pub depth: u32,
    /// With `include_methods` (type roots only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<HierarchyMethod>>,
}

/// An edge of the hierarchy subgraph (`extends`, `implements`, or derived `overrides`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HierarchyEdge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    pub origin: Origin,
    pub line: u32,
}

/// The inheritance subgraph around a type (or the override chain of a method).
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetClassHierarchyResult {
    pub root: NodeSummary,
    /// The root first, then supertypes, then subtypes, each by depth then id.
    pub nodes: Vec<HierarchyNode>,
    pub edges: Vec<HierarchyEdge>,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
}

#[derive(Debug, Clone, Copy)]
struct Placed {
    node: NodeIndex,
    side: HierarchySide,
    depth: u32,
    origin: Origin,
}

/// `get_class_hierarchy`: supertypes and/or subtypes of a type as a subgraph; for a method, its
/// derived override chain.
pub fn get_class_hierarchy(g: &Graph, args: &GetClassHierarchyArgs) -> Result<GetClassHierarchyResult, QueryError> {
    let depth = check_range("depth", args.depth, 5, 1, MAX_HIERARCHY_DEPTH)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let way = parse_way("direction", args.direction.as_deref(), "up", "down")?;
    let root = resolve_one(g, &args.id)?;
    let r = g.node_at(root);
    let method_mode = r.kind == NodeKind::Method;
    if !method_mode && !r.kind.is_type_like() {
        return Err(QueryError::invalid(format!(
            "get_class_hierarchy needs a type, interface or method, but {:?} is a {}",
            &*r.id, r.kind
        )));
    }
    let collect = |floor: Origin| -> Vec<Placed> {
        let mut out = Vec::new();
        if method_mode {
            let within = |h: &super::inheritance::OverrideHit| h.depth <= depth;
            if way != Way::Down {
                out.extend(overridden(g, root, floor).into_iter().filter(within).map(|h| Placed {
                    node: h.method,
                    side: HierarchySide::Up,
                    depth: h.depth,
                    origin: h.origin,
                }));
            }
            if way != Way::Up {
                out.extend(overriding(g, root, floor).into_iter().filter(within).map(|h| Placed {
                    node: h.method,
                    side: HierarchySide::Down,
                    depth: h.depth,
                    origin: h.origin,
                }));
            }
        } else {
            if way != Way::Down {
                out.extend(hierarchy_walk(g, root, true, depth, floor).into_iter().map(|s| Placed {
                    node: s.node,
                    side: HierarchySide::Up,
                    depth: s.depth,
                    origin: s.origin,
                }));
            }
            if way != Way::Up {
                out.extend(
                    hierarchy_walk(g, root, false, depth, floor)
                        .into_iter()
                        .map(|s| Placed {
                            node: s.node,
                            side: HierarchySide::Down,
                            depth: s.depth,
                            origin: s.origin,
                        }),
                );
            }
        }
        out
    };
    let t = tiered(min_tier, collect, |p| p.origin);
    let mut placed = t.rows;
    placed.sort_by(|a, b| (a.side, a.depth, id(g, a.node)).cmp(&(b.side, b.depth, id(g, b.node))));
    let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
    seen.insert(root);
    placed.retain(|p| seen.insert(p.node));
    let truncated = placed.len() > limit;
    placed.truncate(limit);
    let mut order = vec![Placed {
        node: root,
        side: HierarchySide::Root,
        depth: 0,
        origin: Origin::LspResolved,
    }];
    order.extend(placed);
    let in_set: FxHashSet<NodeIndex> = order.iter().map(|p| p.node).collect();

    let mut edges: Vec<HierarchyEdge> = Vec::new();
    for p in &order {
        if method_mode {
            for h in nearest_overridden(g, p.node, t.floor) {
                if in_set.contains(&h.method) {
                    edges.push(HierarchyEdge {
                        from: id(g, p.node).to_string(),
                        to: id(g, h.method).to_string(),
                        kind: EdgeKind::Overrides,
                        origin: h.origin,
                        line: g.node_at(p.node).span.start_line,
                    });
                }
            }
        } else {
            for e in g.out_edges(p.node) {
                if matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements)
                    && e.origin >= t.floor
                    && in_set.contains(&e.to)
                {
                    edges.push(HierarchyEdge {
                        from: id(g, p.node).to_string(),
                        to: id(g, e.to).to_string(),
                        kind: e.kind,
                        origin: e.origin,
                        line: e.line,
                    });
                }
            }
        }
    }
    edges.sort_by(|a, b| (&a.from, &a.to, a.kind, a.line).cmp(&(&b.from, &b.to, b.kind, b.line)));
    edges.dedup_by(|a, b| a.from == b.from && a.to == b.to && a.kind == b.kind && a.line == b.line);

    let nodes = order
        .iter()
        .map(|p| HierarchyNode {
            node: NodeSummary::at(g, p.node),
            side: p.side,
            depth: p.depth,
            methods: (args.include_methods && !method_mode).then(|| type_methods(g, p.node, t.floor)),
        })
        .collect();
    Ok(GetClassHierarchyResult {
        root: NodeSummary::at(g, root),
        nodes,
        edges,
        truncated,
        tiers: t.report,
    })
}

/// The methods of a type in source order, each with the nearest methods it overrides.
fn type_methods(g: &Graph, ty: NodeIndex, floor: Origin) -> Vec<HierarchyMethod> {
    let mut ms: Vec<NodeIndex> = members(g, ty)
        .into_iter()
        .filter(|&m| g.node_at(m).kind == NodeKind::Method)
        .collect();
    ms.sort_by(|a, b| {
        let (x, y) = (g.node_at(*a), g.node_at(*b));
        (x.span.start_line, &x.id).cmp(&(y.span.start_line, &y.id))
    });
    ms.into_iter()
        .map(|m| {
            let n = g.node_at(m);
            let mut overrides: Vec<String> = nearest_overridden(g, m, floor)
                .into_iter()
                .map(|h| id(g, h.method).to_string())
                .collect();
            overrides.sort();
            HierarchyMethod {
                id: n.id.to_string(),
                name: n.name.clone(),
                line: n.span.start_line,
                overrides,
            }
        })
        .collect()
}
