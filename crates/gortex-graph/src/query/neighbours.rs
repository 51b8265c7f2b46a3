//! One step of a free-form walk. `walk_graph`, `graph_query` and `trace_path` follow edges through
//! [`neighbours`] above the floor [`super::tiers::tier_floor`] gives (`min_tier`, or everything
//! but `speculative`); they do not apply the name-only rule or report tiers.

use crate::model::{Direction, Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, Origin};

/// Edges of `u` in `dir` whose kind is in `kinds` and whose origin is at least `floor`, with the
/// node at their far end, sorted by that node's id, then kind and line, so walks are
/// deterministic.
pub fn neighbours<'g>(
    g: &'g Graph,
    u: NodeIndex,
    dir: Direction,
    kinds: &[EdgeKind],
    floor: Origin,
) -> Vec<(NodeIndex, &'g Edge)> {
    let keep = |e: &&Edge| kinds.contains(&e.kind) && e.origin >= floor;
    let mut adj: Vec<(NodeIndex, &Edge)> = Vec::new();
    if matches!(dir, Direction::Out | Direction::Both) {
        adj.extend(g.out_edges(u).filter(keep).map(|e| (e.to, e)));
    }
    if matches!(dir, Direction::In | Direction::Both) {
        // A self-loop is already listed by the outgoing pass.
        adj.extend(
            g.in_edges(u)
                .filter(keep)
                .filter(|e| dir == Direction::In || e.from != e.to)
                .map(|e| (e.from, e)),
        );
    }
    adj.sort_by(|(a, ea), (b, eb)| {
        g.node_at(*a)
            .id
            .cmp(&g.node_at(*b).id)
            .then(ea.kind.cmp(&eb.kind))
            .then(ea.line.cmp(&eb.line))
            .then(ea.from.cmp(&eb.from))
            .then(ea.to.cmp(&eb.to))
    });
    adj
}
