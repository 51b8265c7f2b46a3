//! The undirected, weighted symbol graph community detection runs on, and the working graph
//! (with self-loops) that Louvain and Leiden aggregate level by level.
//!
//! Input: `calls` and `references` edges between in-repository symbol nodes (no files, packages,
//! imports or external stubs). Each edge weighs by its provenance tier ([`tier_weight`]); edges
//! between the same two nodes (either direction, any line) are summed; self-loops are ignored.

use gortex_core::{EdgeKind, Origin};
use gortex_graph::{Graph, NodeIndex};
use rayon::slice::ParallelSliceMut;

/// Weight of one edge by provenance tier. Confirmed and structurally unique targets count fully;
/// heuristic type inference a little less; a name-only match half; a speculative dispatch guess
/// barely (it may well be wrong, but it is the only link some dynamic code has).
pub fn tier_weight(origin: Origin) -> f64 {
    match origin {
        Origin::LspResolved | Origin::LspDispatch | Origin::AstResolved => 1.0,
        Origin::AstInferred => 0.8,
        Origin::TextMatched => 0.5,
        Origin::Speculative => 0.1,
    }
}

/// True for the edge kinds communities are built from.
pub fn is_community_edge(kind: EdgeKind) -> bool {
    matches!(kind, EdgeKind::Calls | EdgeKind::References)
}

/// True for nodes that may take part in communities: in-repository symbols.
pub fn is_community_node(g: &Graph, i: NodeIndex) -> bool {
    let n = g.node_at(i);
    n.kind.is_symbol() && !n.external
}

/// The symbol graph as symmetric CSR arrays over local indices `0..nodes.len()`.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    /// Graph node of each local index, ascending (so local order is graph order).
    pub nodes: Vec<NodeIndex>,
    /// Local index of each graph node; `u32::MAX` for nodes without community edges.
    pub local: Vec<u32>,
    /// `offsets[i]..offsets[i + 1]` spans local node `i`'s neighbours in `targets`/`weights`.
    pub offsets: Vec<usize>,
    /// Neighbour local indices, ascending per node.
    pub targets: Vec<u32>,
    /// Summed tier weight of each neighbour entry.
    pub weights: Vec<f64>,
}

impl Adjacency {
    /// Builds the adjacency of `g`. Nodes without any qualifying edge are left out.
    pub fn build(g: &Graph) -> Adjacency {
        let n = g.node_count();
        let mut pairs: Vec<(u32, u32, f64)> = g
            .edges()
            .filter(|e| is_community_edge(e.kind) && e.from != e.to)
            .filter(|e| is_community_node(g, e.from) && is_community_node(g, e.to))
            .map(|e| (e.from.min(e.to), e.from.max(e.to), tier_weight(e.origin)))
            .collect();
        // Sorting by (a, b, weight) fixes the summation order, so sums are bit-identical per graph.
        pairs.par_sort_unstable_by(|x, y| (x.0, x.1).cmp(&(y.0, y.1)).then(x.2.total_cmp(&y.2)));
        let mut merged: Vec<(u32, u32, f64)> = Vec::with_capacity(pairs.len());
        for (a, b, w) in pairs {
            match merged.last_mut() {
                Some(last) if last.0 == a && last.1 == b => last.2 += w,
                _ => merged.push((a, b, w)),
            }
        }
        let mut local = vec![u32::MAX; n];
        for &(a, b, _) in &merged {
            local[a as usize] = 0;
            local[b as usize] = 0;
        }
        let mut nodes = Vec::new();
        for (i, l) in local.iter_mut().enumerate() {
            if *l == 0 {
                *l = nodes.len() as u32;
                nodes.push(i as NodeIndex);
            }
        }
        let k = nodes.len();
        let mut offsets = vec![0usize; k + 1];
        for &(a, b, _) in &merged {
            offsets[local[a as usize] as usize + 1] += 1;
            offsets[local[b as usize] as usize + 1] += 1;
        }
        for i in 0..k {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; offsets[k]];
        let mut weights = vec![0f64; offsets[k]];
        // `merged` is sorted by (a, b): pushing a→b in that order and b→a too keeps every
        // neighbour list ascending (all b→a entries for a node come from smaller a's first).
        for &(a, b, w) in &merged {
            let (la, lb) = (local[a as usize], local[b as usize]);
            for (from, to) in [(la, lb), (lb, la)] {
                let slot = &mut fill[from as usize];
                targets[*slot] = to;
                weights[*slot] = w;
                *slot += 1;
            }
        }
        for i in 0..k {
            let (s, e) = (offsets[i], offsets[i + 1]);
            debug_assert!(targets[s..e].windows(2).all(|w| w[0] < w[1]));
        }
        Adjacency {
            nodes,
            local,
            offsets,
            targets,
            weights,
        }
    }

    /// Number of nodes with at least one community edge.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no node has a community edge.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Local index of a graph node, if it has community edges.
    pub fn local_of(&self, node: NodeIndex) -> Option<u32> {
        self.local.get(node as usize).copied().filter(|&l| l != u32::MAX)
    }

    /// Neighbours of local node `i` with their summed weights.
    pub fn neighbours(&self, i: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let (s, e) = (self.offsets[i as usize], self.offsets[i as usize + 1]);
        self.targets[s..e]
            .iter()
            .copied()
            .zip(self.weights[s..e].iter().copied())
    }

    /// The working graph (no self-loops yet) the community algorithms start from.
    pub(crate) fn to_working(&self) -> WGraph {
        WGraph::new(
            self.offsets.clone(),
            self.targets.clone(),
            self.weights.clone(),
            vec![0.0; self.len()],
        )
    }
}

/// A weighted undirected graph with self-loops: level 0 is the symbol graph, later levels have
/// one node per community of the level below (its internal weight becomes the self-loop).
#[derive(Debug, Clone)]
pub(crate) struct WGraph {
    /// CSR offsets into `targets`/`weights`.
    pub offsets: Vec<usize>,
    /// Neighbour indices, ascending per node.
    pub targets: Vec<u32>,
    /// Edge weight per neighbour entry.
    pub weights: Vec<f64>,
    /// Self-loop weight per node (each internal edge counted once).
    pub loops: Vec<f64>,
    /// Weighted degree: neighbour weights plus twice the self-loop.
    pub degree: Vec<f64>,
    /// Total edge weight `m` (half the degree sum).
    pub total: f64,
}

impl WGraph {
    /// A working graph from CSR arrays and self-loop weights; degrees and `m` are derived.
    pub fn new(offsets: Vec<usize>, targets: Vec<u32>, weights: Vec<f64>, loops: Vec<f64>) -> WGraph {
        let n = loops.len();
        let degree: Vec<f64> = (0..n)
            .map(|i| weights[offsets[i]..offsets[i + 1]].iter().sum::<f64>() + 2.0 * loops[i])
            .collect();
        let total = degree.iter().sum::<f64>() / 2.0;
        WGraph {
            offsets,
            targets,
            weights,
            loops,
            degree,
            total,
        }
    }

    pub fn len(&self) -> usize {
        self.loops.len()
    }

    pub fn neighbours(&self, i: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let (s, e) = (self.offsets[i as usize], self.offsets[i as usize + 1]);
        self.targets[s..e]
            .iter()
            .copied()
            .zip(self.weights[s..e].iter().copied())
    }

    /// One node per community of `part` (labels `0..count`); edges between communities summed,
    /// edges inside one become its self-loop. Neighbour lists come out ascending.
    pub fn aggregate(&self, part: &[u32], count: usize) -> WGraph {
        let mut members_at = vec![0usize; count + 1];
        for &c in part {
            members_at[c as usize + 1] += 1;
        }
        for c in 0..count {
            members_at[c + 1] += members_at[c];
        }
        let mut fill = members_at.clone();
        let mut members = vec![0u32; part.len()];
        for (i, &c) in part.iter().enumerate() {
            members[fill[c as usize]] = i as u32;
            fill[c as usize] += 1;
        }
        let mut loops = vec![0.0; count];
        let mut offsets = Vec::with_capacity(count + 1);
        offsets.push(0);
        let mut targets = Vec::new();
        let mut weights = Vec::new();
        let mut scratch = vec![0.0f64; count];
        let mut touched: Vec<u32> = Vec::new();
        for c in 0..count {
            for &i in &members[members_at[c]..members_at[c + 1]] {
                loops[c] += self.loops[i as usize];
                for (j, w) in self.neighbours(i) {
                    let d = part[j as usize];
                    if d as usize == c {
                        // Each internal edge is seen from both ends.
                        loops[c] += w / 2.0;
                    } else {
                        if scratch[d as usize] == 0.0 {
                            touched.push(d);
                        }
                        scratch[d as usize] += w;
                    }
                }
            }
            touched.sort_unstable();
            for &d in &touched {
                targets.push(d);
                weights.push(scratch[d as usize]);
                scratch[d as usize] = 0.0;
            }
            touched.clear();
            offsets.push(targets.len());
        }
        WGraph::new(offsets, targets, weights, loops)
    }

    /// Modularity of `part` with resolution `gamma`.
    pub fn modularity(&self, part: &[u32], gamma: f64) -> f64 {
        if self.total <= 0.0 {
            return 0.0;
        }
        let count = part.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        let mut inside = vec![0.0f64; count];
        let mut tot = vec![0.0f64; count];
        for i in 0..self.len() {
            let c = part[i] as usize;
            tot[c] += self.degree[i];
            inside[c] += self.loops[i];
            for (j, w) in self.neighbours(i as u32) {
                if part[j as usize] as usize == c {
                    inside[c] += w / 2.0;
                }
            }
        }
        let m = self.total;
        (0..count)
            .map(|c| inside[c] / m - gamma * (tot[c] / (2.0 * m)).powi(2))
            .sum()
    }
}

/// Relabels a partition to `0..count` in order of first appearance; returns the count.
pub(crate) fn relabel(part: &mut [u32]) -> usize {
    let mut map: Vec<u32> = vec![u32::MAX; part.len()];
    let mut next = 0u32;
    for c in part.iter_mut() {
        let slot = &mut map[*c as usize];
        if *slot == u32::MAX {
            *slot = next;
            next += 1;
        }
        *c = *slot;
    }
    next as usize
}
