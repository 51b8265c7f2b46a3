//! The reach index (original-behaviour §5.6): for a seed symbol, the nodes that depend on it
//! one, two and three hops away, computed lazily on first use and cached per graph version.
//!
//! - **Edges.** Every edge kind except the structural ones (`defines`, `contains`, `member_of`)
//!   is followed backwards, `tests` and `imports` included (tests and importing files are
//!   dependents). Edges below the tier floor are not followed (the default floor is
//!   `text_matched`, so `speculative` guesses stay out).
//! - **Seeds.** A function, method, type, interface, field, enum member, constant or variable
//!   stands for itself and everything it contains (a class and its members). A file stands for
//!   itself and every symbol declared in it, plus its Go/Java package node so that importers of
//!   the package are its importers; a package stands for itself, its files and their symbols.
//! - **Depths** are per level, not cumulative: `depths[0]` holds direct dependents, `depths[1]`
//!   their dependents not seen before, `depths[2]` the next level. Each node appears once, at its
//!   smallest depth, with the best path tier to it (the strongest of the weakest edges on the
//!   paths of that length).
//! - **Bounds.** A walk stops after [`REACH_MAX_EDGES`] visited edges or [`REACH_MAX_TIME`] and
//!   is flagged `truncated`: its sets are then a lower bound.
//!
//! [`ReachCache`] holds one graph (`Arc<Graph>`) and the reaches computed on it; when the graph
//! changes the owner replaces the cache. Functions that take a `&Graph` and a cache fall back to a
//! live walk when the cache belongs to another graph (see [`reach_for`]).

use gortex_core::{EdgeKind, NodeKind, Origin, QueryError};
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// Most edges one reach walk visits before it stops and reports a lower bound.
pub const REACH_MAX_EDGES: usize = 5_000;
/// Longest one reach walk runs before it stops and reports a lower bound.
pub const REACH_MAX_TIME: Duration = Duration::from_secs(3);
/// Deepest level the reach index records.
pub const REACH_DEPTHS: usize = 3;
/// Entries a cache holds before it starts over (bounds memory on long sessions).
pub const REACH_CACHE_CAPACITY: usize = 100_000;
/// Largest contains-closure a seed expands to.
const MAX_SCOPE: usize = 10_000;

/// One dependent and the best path tier that reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReachEntry {
    pub node: NodeIndex,
    pub tier: Origin,
}

/// The incoming-reachable sets of one seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    /// The seed.
    pub seed: NodeIndex,
    /// The nodes the seed stands for (itself first, then what it contains); never dependents.
    pub scope: Vec<NodeIndex>,
    /// Dependents per level (index 0 = direct), each sorted by node index.
    pub depths: [Vec<ReachEntry>; REACH_DEPTHS],
    /// The walk hit [`REACH_MAX_EDGES`] or [`REACH_MAX_TIME`]; the sets are a lower bound.
    pub truncated: bool,
    /// Edges the walk examined.
    pub edges_visited: usize,
}

impl Reach {
    /// Dependents at every level, nearest first, with their depth (1-based).
    pub fn entries(&self) -> impl Iterator<Item = (u32, ReachEntry)> + '_ {
        self.depths
            .iter()
            .enumerate()
            .flat_map(|(d, v)| v.iter().map(move |e| (d as u32 + 1, *e)))
    }

    /// Number of dependents over all levels.
    pub fn total(&self) -> usize {
        self.depths.iter().map(Vec::len).sum()
    }

    /// Sizes of the three levels.
    pub fn sizes(&self) -> [usize; REACH_DEPTHS] {
        [self.depths[0].len(), self.depths[1].len(), self.depths[2].len()]
    }
}

/// Node kinds a reach walk accepts as a seed (besides files and packages).
pub fn is_seed_kind(kind: NodeKind) -> bool {
    kind.is_declaration()
}

/// Rejects nodes that cannot seed a reach walk (external stubs, imports, modules).
pub fn check_seed(g: &Graph, seed: NodeIndex, tool: &str) -> Result<(), QueryError> {
    let n = g.node_at(seed);
    let ok = !n.external && (is_seed_kind(n.kind) || matches!(n.kind, NodeKind::File | NodeKind::Package));
    if ok {
        Ok(())
    } else {
        Err(QueryError::invalid(format!(
            "{tool} needs a function, method, type, interface, field, enum member, constant, variable, file or \
             package inside the repository, but {:?} is {}{}",
            &*n.id,
            if n.external { "an external " } else { "a " },
            n.kind
        )))
    }
}

/// Edges a reach walk follows backwards: everything but the structural kinds.
pub(crate) fn followed(kind: EdgeKind) -> bool {
    !matches!(kind, EdgeKind::Defines | EdgeKind::Contains | EdgeKind::MemberOf)
}

/// The nodes a seed stands for (see the module doc), seed first, without duplicates.
pub fn seed_scope(g: &Graph, seed: NodeIndex) -> Vec<NodeIndex> {
    let n = g.node_at(seed);
    let mut out = vec![seed];
    let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
    seen.insert(seed);
    let mut push = |x: NodeIndex, out: &mut Vec<NodeIndex>| {
        if seen.insert(x) {
            out.push(x);
        }
    };
    match n.kind {
        NodeKind::File => {
            for &x in g.file_nodes(&n.path) {
                push(x, &mut out);
            }
            for e in g.in_edges(seed) {
                if e.kind == EdgeKind::Contains && g.node_at(e.from).kind == NodeKind::Package {
                    push(e.from, &mut out);
                }
            }
        }
        NodeKind::Package => {
            let files: Vec<NodeIndex> = g
                .out_edges(seed)
                .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.to).kind == NodeKind::File)
                .map(|e| e.to)
                .collect();
            for f in files {
                for &x in g.file_nodes(&g.node_at(f).path) {
                    push(x, &mut out);
                }
            }
        }
        _ => {
            // The contains-closure: a class stands for its members, a function for its closures.
            let mut i = 0;
            while i < out.len() && out.len() < MAX_SCOPE {
                let cur = out[i];
                i += 1;
                let children: Vec<NodeIndex> = g
                    .out_edges(cur)
                    .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.to).kind.is_symbol())
                    .map(|e| e.to)
                    .collect();
                for c in children {
                    push(c, &mut out);
                }
            }
        }
    }
    out
}

/// Computes one seed's reach without a cache (a live graph walk).
pub fn compute_reach(g: &Graph, seed: NodeIndex, floor: Origin) -> Reach {
    let started = Instant::now();
    let scope = seed_scope(g, seed);
    let mut seen: FxHashSet<NodeIndex> = scope.iter().copied().collect();
    let mut frontier: Vec<ReachEntry> = scope
        .iter()
        .map(|&node| ReachEntry {
            node,
            tier: Origin::LspResolved,
        })
        .collect();
    let mut depths: [Vec<ReachEntry>; REACH_DEPTHS] = Default::default();
    let mut visited = 0usize;
    let mut truncated = false;
    'levels: for level in depths.iter_mut() {
        let mut next: FxHashMap<NodeIndex, Origin> = FxHashMap::default();
        for from in &frontier {
            for e in g.in_edges(from.node) {
                visited += 1;
                if visited > REACH_MAX_EDGES || (visited.is_multiple_of(256) && started.elapsed() > REACH_MAX_TIME) {
                    truncated = true;
                    // What this level found so far is still a true (partial) level.
                    *level = sorted_entries(next);
                    break 'levels;
                }
                if !followed(e.kind) || e.origin < floor || seen.contains(&e.from) {
                    continue;
                }
                let tier = from.tier.min(e.origin);
                next.entry(e.from).and_modify(|t| *t = (*t).max(tier)).or_insert(tier);
            }
        }
        if next.is_empty() {
            break;
        }
        let entries = sorted_entries(next);
        seen.extend(entries.iter().map(|e| e.node));
        frontier = entries.clone();
        *level = entries;
    }
    Reach {
        seed,
        scope,
        depths,
        truncated,
        edges_visited: visited.min(REACH_MAX_EDGES),
    }
}

fn sorted_entries(map: FxHashMap<NodeIndex, Origin>) -> Vec<ReachEntry> {
    let mut v: Vec<ReachEntry> = map.into_iter().map(|(node, tier)| ReachEntry { node, tier }).collect();
    v.sort_unstable_by_key(|e| e.node);
    v
}

/// Lazily computed reaches of one graph version, shared between threads.
#[derive(Debug)]
pub struct ReachCache {
    graph: Arc<Graph>,
    entries: RwLock<FxHashMap<(NodeIndex, Origin), Arc<Reach>>>,
}

impl ReachCache {
    /// An empty cache bound to `graph`.
    pub fn new(graph: Arc<Graph>) -> ReachCache {
        ReachCache {
            graph,
            entries: RwLock::new(FxHashMap::default()),
        }
    }

    /// The graph this cache belongs to.
    pub fn graph(&self) -> &Arc<Graph> {
        &self.graph
    }

    /// True when this cache was built for exactly this graph (pointer identity).
    pub fn serves(&self, g: &Graph) -> bool {
        std::ptr::eq(Arc::as_ptr(&self.graph), g)
    }

    /// Number of cached reaches.
    pub fn len(&self) -> usize {
        self.entries.read().map(|m| m.len()).unwrap_or(0)
    }

    /// True when nothing is cached yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The reach of `seed` over edges at or above `floor`, computed on first use.
    pub fn reach(&self, seed: NodeIndex, floor: Origin) -> Arc<Reach> {
        if let Some(hit) = self.entries.read().ok().and_then(|m| m.get(&(seed, floor)).cloned()) {
            return hit;
        }
        // Computed outside the lock: two threads may race on one seed, and both get equal answers.
        let reach = Arc::new(compute_reach(&self.graph, seed, floor));
        if let Ok(mut m) = self.entries.write() {
            if m.len() >= REACH_CACHE_CAPACITY {
                m.clear();
            }
            return m.entry((seed, floor)).or_insert(reach).clone();
        }
        reach
    }
}

/// The reach of `seed`: from `cache` when it serves `g`, otherwise a live walk (a cache of
/// another graph version is never trusted).
pub fn reach_for(g: &Graph, cache: Option<&ReachCache>, seed: NodeIndex, floor: Origin) -> Arc<Reach> {
    match cache {
        Some(c) if c.serves(g) => c.reach(seed, floor),
        _ => Arc::new(compute_reach(g, seed, floor)),
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by this crate's analyses
// ---------------------------------------------------------------------------------------------

/// Validates a `path_prefix` argument: a repository-relative path (a leading `./` is dropped).
pub fn check_path_prefix(value: Option<&str>) -> Result<Option<String>, QueryError> {
    let Some(raw) = value else { return Ok(None) };
    let p = raw.trim();
    let p = p.strip_prefix("./").unwrap_or(p);
    if p.is_empty() || p.starts_with('/') || p.split('/').any(|s| s == "..") {
        return Err(QueryError::invalid(format!(
            "path_prefix must be a repository-relative path such as \"src/\" (no leading '/', no '..'), got {raw:?}"
        )));
    }
    Ok(Some(p.to_string()))
}

/// True when `path` lies under `prefix` (a plain string prefix, so `src/a` matches `src/ab.ts`
/// as well; pass a trailing `/` to mean a directory).
pub(crate) fn under(path: &str, prefix: Option<&str>) -> bool {
    prefix.is_none_or(|p| path.starts_with(p))
}

/// Per node: is it test code (a test symbol, or anything declared in a test file)? Computed once
/// per analysis instead of a file lookup per node.
pub(crate) fn test_flags(g: &Graph) -> Vec<bool> {
    let test_files: FxHashSet<&str> = g
        .files()
        .iter()
        .map(|&f| g.node_at(f))
        .filter(|n| n.is_test)
        .map(|n| &*n.path)
        .collect();
    g.nodes()
        .map(|n| n.is_test || (!n.path.is_empty() && test_files.contains(&*n.path)))
        .collect()
}

/// Per node: its enclosing symbol (`contains` parent that is a symbol, else the `member_of`
/// type), `u32::MAX` when none. One pass over the edges.
pub(crate) fn parents(g: &Graph) -> Vec<NodeIndex> {
    let mut contains = vec![NodeIndex::MAX; g.node_count()];
    let mut member_of = vec![NodeIndex::MAX; g.node_count()];
    for e in g.edges() {
        match e.kind {
            EdgeKind::Contains if g.node_at(e.from).kind.is_symbol() => {
                let slot = &mut contains[e.to as usize];
                *slot = (*slot).min(e.from);
            }
            EdgeKind::MemberOf => {
                let slot = &mut member_of[e.from as usize];
                *slot = (*slot).min(e.to);
            }
            _ => {}
        }
    }
    for (c, m) in contains.iter_mut().zip(member_of) {
        if *c == NodeIndex::MAX {
            *c = m;
        }
    }
    contains
}

/// True when `node` is `ancestor` or lies inside it (through `parents`), bounded.
pub(crate) fn inside(parents: &[NodeIndex], node: NodeIndex, ancestor: NodeIndex) -> bool {
    let mut cur = node;
    for _ in 0..64 {
        if cur == ancestor {
            return true;
        }
        match parents.get(cur as usize) {
            Some(&p) if p != NodeIndex::MAX => cur = p,
            _ => return false,
        }
    }
    false
}

/// The directory part of a repository-relative path (`""` at the root).
pub(crate) fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use gortex_graph::{Edge, Node};

    /// A graph of functions `f0..fn` in one file, with the given call edges.
    fn calls(n: usize, edges: &[(u32, u32, Origin)]) -> Graph {
        let nodes = (0..n)
            .map(|i| {
                Node::bare(
                    Arc::from(format!("r/a.ts::f{i}")),
                    NodeKind::Function,
                    format!("f{i}"),
                    format!("f{i}"),
                    Arc::from("a.ts"),
                )
            })
            .collect();
        let edges = edges
            .iter()
            .map(|&(from, to, origin)| Edge {
                from,
                to,
                kind: EdgeKind::Calls,
                origin,
                line: 1,
                via: None,
            })
            .collect();
        Graph::assemble("r".into(), nodes, edges, Vec::new())
    }

    #[test]
    fn levels_are_per_depth_with_the_best_bottleneck_tier() {
        use Origin::*;
        // 1 → 0 (strong), 2 → 1 (name-only), 3 → 1 (strong), 3 → 2, 4 → 3, 5 → 4 (beyond depth 3).
        let g = calls(
            6,
            &[
                (1, 0, AstResolved),
                (2, 1, TextMatched),
                (3, 1, AstResolved),
                (3, 2, AstResolved),
                (4, 3, AstInferred),
                (5, 4, AstResolved),
            ],
        );
        let r = compute_reach(&g, 0, TextMatched);
        let level = |d: usize| r.depths[d].iter().map(|e| (e.node, e.tier)).collect::<Vec<_>>();
        assert_eq!(level(0), vec![(1, AstResolved)]);
        assert_eq!(level(1), vec![(2, TextMatched), (3, AstResolved)]);
        assert_eq!(level(2), vec![(4, AstInferred)]);
        assert!(!r.truncated);
        // A floor above name-only drops node 2 and everything only it reached.
        let strong = compute_reach(&g, 0, AstInferred);
        assert_eq!(strong.sizes(), [1, 1, 1]);
    }

    #[test]
    fn a_hub_truncates_the_walk_to_a_lower_bound() {
        let n = REACH_MAX_EDGES + 50;
        let edges: Vec<(u32, u32, Origin)> = (1..n as u32).map(|i| (i, 0, Origin::AstResolved)).collect();
        let g = calls(n, &edges);
        let r = compute_reach(&g, 0, Origin::TextMatched);
        assert!(r.truncated);
        assert!(r.depths[0].len() <= REACH_MAX_EDGES && !r.depths[0].is_empty());
        assert_eq!(r.edges_visited, REACH_MAX_EDGES);
    }

    #[test]
    fn the_cache_serves_one_graph_and_reuses_answers() {
        let g = Arc::new(calls(3, &[(1, 0, Origin::AstResolved), (2, 1, Origin::AstResolved)]));
        let other = Arc::new(calls(3, &[]));
        let cache = ReachCache::new(g.clone());
        assert!(cache.serves(&g) && !cache.serves(&other));
        let a = reach_for(&g, Some(&cache), 0, Origin::TextMatched);
        let b = reach_for(&g, Some(&cache), 0, Origin::TextMatched);
        assert!(Arc::ptr_eq(&a, &b));
        // Another graph's answer comes from a live walk and is not cached.
        let c = reach_for(&other, Some(&cache), 0, Origin::TextMatched);
        assert_eq!(c.total(), 0);
        assert_eq!(cache.len(), 1);
        assert_eq!(a.sizes(), [1, 1, 0]);
    }
}
