//! Spectral community detection: Newman's leading-eigenvector method (Newman 2006, "Modularity
//! and community structure in networks"). Each group (starting from the connected components) is
//! split in two by the signs of the leading eigenvector of its generalised modularity matrix
//! `B⁽ᵍ⁾`, found by power iteration on `B⁽ᵍ⁾ + cI` (applied implicitly: the sparse adjacency plus
//! a rank-one degree term, so a split costs O(edges) per iteration); the split is kept when it
//! raises modularity, then refined by sweeps of single-node moves between the two halves (the
//! fine-tuning the paper recommends), and each half is split in turn. Deterministic: a fixed start
//! vector, nodes swept in index order.
//!
//! No eigen-solver crate fits this: `rustworkx-core` has no spectral routine and a dense solver
//! would need `n²` memory; the matrix is never materialised here.

use crate::adjacency::{relabel, WGraph};

/// Power-iteration steps per split at most.
const MAX_ITERATIONS: usize = 500;
/// Converged when no component of the normalised vector moves more than this.
const TOLERANCE: f64 = 1e-9;
/// A split must raise `sᵀBs` by more than this (edge-weight units) to be kept.
const MIN_GAIN: f64 = 1e-9;
/// Refinement sweeps per split at most.
const MAX_SWEEPS: usize = 20;

/// Spectral communities of `g`: a label per node (`0..count`) and the count.
pub(crate) fn spectral(g: &WGraph, gamma: f64) -> (Vec<u32>, usize) {
    let n = g.len();
    let mut part: Vec<u32> = vec![0; n];
    if g.total <= 0.0 {
        let mut singletons: Vec<u32> = (0..n as u32).collect();
        let count = relabel(&mut singletons);
        return (singletons, count);
    }
    let mut pending: Vec<Vec<u32>> = components(g);
    let mut done: Vec<Vec<u32>> = Vec::new();
    let mut local = vec![u32::MAX; n];
    while let Some(group) = pending.pop() {
        match split(g, gamma, &group, &mut local) {
            Some((a, b)) => {
                pending.push(b);
                pending.push(a);
            }
            None => done.push(group),
        }
    }
    for (c, group) in done.iter().enumerate() {
        for &i in group {
            part[i as usize] = c as u32;
        }
    }
    let count = relabel(&mut part);
    (part, count)
}

/// The connected components of `g`, each ascending, in order of their smallest node.
fn components(g: &WGraph) -> Vec<Vec<u32>> {
    let n = g.len();
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start as u32];
        let mut members = Vec::new();
        while let Some(i) = stack.pop() {
            members.push(i);
            for (j, _) in g.neighbours(i) {
                if !seen[j as usize] {
                    seen[j as usize] = true;
                    stack.push(j);
                }
            }
        }
        members.sort_unstable();
        out.push(members);
    }
    out
}

/// The generalised modularity matrix of one group, applied implicitly:
/// `(Bx)_i = Σ_{j∈S} A_ij x_j − γ k_i (k·x)/2m − r_i x_i` with `r_i = d_i^S − γ k_i K_S/2m`.
struct GroupMatrix<'g> {
    g: &'g WGraph,
    members: &'g [u32],
    /// Local index of each graph node (`u32::MAX` outside the group).
    local: &'g [u32],
    k: Vec<f64>,
    r: Vec<f64>,
    /// `γ / 2m`.
    scale: f64,
}

impl GroupMatrix<'_> {
    /// `Σ_{j∈S} A_ij x_j` for local node `li`.
    fn adjacent(&self, li: usize, x: &[f64]) -> f64 {
        self.g
            .neighbours(self.members[li])
            .filter_map(|(j, w)| {
                let lj = self.local[j as usize];
                (lj != u32::MAX).then(|| w * x[lj as usize])
            })
            .sum()
    }

    /// `y = Bx`.
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        let kx: f64 = self.k.iter().zip(x).map(|(k, x)| k * x).sum();
        for li in 0..x.len() {
            y[li] = self.adjacent(li, x) - self.scale * self.k[li] * kx - self.r[li] * x[li];
        }
    }

    /// `B_ii` (no self-loops at level 0; an aggregated loop counts twice).
    fn diagonal(&self, li: usize) -> f64 {
        2.0 * self.g.loops[self.members[li] as usize] - self.scale * self.k[li] * self.k[li] - self.r[li]
    }
}

/// Splits `group` in two when the leading eigenvector of its modularity matrix says modularity
/// rises; `None` when the group is indivisible.
fn split(g: &WGraph, gamma: f64, group: &[u32], local: &mut [u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    let n = group.len();
    if n < 2 {
        return None;
    }
    for (li, &i) in group.iter().enumerate() {
        local[i as usize] = li as u32;
    }
    let result = split_indexed(g, gamma, group, local);
    for &i in group {
        local[i as usize] = u32::MAX;
    }
    result
}

fn split_indexed(g: &WGraph, gamma: f64, group: &[u32], local: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    let n = group.len();
    let two_m = 2.0 * g.total;
    let scale = gamma / two_m;
    let k: Vec<f64> = group.iter().map(|&i| g.degree[i as usize]).collect();
    let k_sum: f64 = k.iter().sum();
    let mut m = GroupMatrix {
        g,
        members: group,
        local,
        k,
        r: Vec::new(),
        scale,
    };
    let ones = vec![1.0; n];
    m.r = (0..n)
        .map(|li| m.adjacent(li, &ones) - scale * m.k[li] * k_sum)
        .collect();
    // A bound on the spectral radius: the largest absolute row sum.
    let shift = (0..n)
        .map(|li| m.adjacent(li, &ones) + scale * m.k[li] * k_sum + m.r[li].abs())
        .fold(0.0f64, f64::max);
    // Power iteration on B + shift·I from a fixed, uneven start.
    let mut x: Vec<f64> = (0..n)
        .map(|li| 1.0 + ((li as u64).wrapping_mul(2_654_435_761) % 1000) as f64 / 1000.0)
        .collect();
    normalise(&mut x);
    let mut y = vec![0.0; n];
    for _ in 0..MAX_ITERATIONS {
        m.apply(&x, &mut y);
        for li in 0..n {
            y[li] += shift * x[li];
        }
        if !normalise(&mut y) {
            return None;
        }
        let moved = x.iter().zip(&y).map(|(a, b)| (a - b).abs()).fold(0.0f64, f64::max);
        std::mem::swap(&mut x, &mut y);
        if moved < TOLERANCE {
            break;
        }
    }
    m.apply(&x, &mut y);
    let eigenvalue: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
    if eigenvalue <= MIN_GAIN {
        return None;
    }
    let mut s: Vec<f64> = x.iter().map(|&v| if v >= 0.0 { 1.0 } else { -1.0 }).collect();
    refine(&m, &mut s);
    let mut bs = vec![0.0; n];
    m.apply(&s, &mut bs);
    let gain: f64 = s.iter().zip(&bs).map(|(a, b)| a * b).sum();
    let plus = s.iter().filter(|&&v| v > 0.0).count();
    if gain <= MIN_GAIN || plus == 0 || plus == n {
        return None;
    }
    let a: Vec<u32> = group
        .iter()
        .zip(&s)
        .filter(|(_, &v)| v > 0.0)
        .map(|(&i, _)| i)
        .collect();
    let b: Vec<u32> = group
        .iter()
        .zip(&s)
        .filter(|(_, &v)| v < 0.0)
        .map(|(&i, _)| i)
        .collect();
    Some((a, b))
}

/// Sweeps of single-node moves between the halves, each kept when it raises `sᵀBs`. `As` and
/// `k·s` are kept up to date per move, so `(Bs)_i` costs O(1) and a move O(degree).
fn refine(m: &GroupMatrix<'_>, s: &mut [f64]) {
    let n = s.len();
    let mut a_s: Vec<f64> = (0..n).map(|li| m.adjacent(li, s)).collect();
    let mut ks: f64 = m.k.iter().zip(s.iter()).map(|(k, s)| k * s).sum();
    for _ in 0..MAX_SWEEPS {
        let mut moved = false;
        for li in 0..n {
            let bs = a_s[li] - m.scale * m.k[li] * ks - m.r[li] * s[li];
            // Flipping s_i changes sᵀBs by −4 s_i ((Bs)_i − B_ii s_i).
            let gain = -4.0 * s[li] * (bs - m.diagonal(li) * s[li]);
            if gain > MIN_GAIN {
                let delta = -2.0 * s[li];
                s[li] = -s[li];
                ks += m.k[li] * delta;
                for (j, w) in m.g.neighbours(m.members[li]) {
                    let lj = m.local[j as usize];
                    if lj != u32::MAX {
                        a_s[lj as usize] += w * delta;
                    }
                }
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}

/// Scales `v` to unit length; false when it is zero.
fn normalise(v: &mut [f64]) -> bool {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm <= f64::MIN_POSITIVE {
        return false;
    }
    v.iter_mut().for_each(|x| *x /= norm);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An undirected graph from an edge list (weights 1).
    fn graph(n: usize, edges: &[(u32, u32)]) -> WGraph {
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
        let mut offsets = vec![0];
        let mut targets = Vec::new();
        for list in &mut adj {
            list.sort_unstable();
            targets.extend_from_slice(list);
            offsets.push(targets.len());
        }
        let weights = vec![1.0; targets.len()];
        WGraph::new(offsets, targets, weights, vec![0.0; n])
    }

    fn clique_edges(base: u32, size: u32) -> Vec<(u32, u32)> {
        (0..size)
            .flat_map(|i| (i + 1..size).map(move |j| (base + i, base + j)))
            .collect()
    }

    #[test]
    fn two_triangles_joined_by_one_edge_split_in_two() {
        let mut edges = clique_edges(0, 3);
        edges.extend(clique_edges(3, 3));
        edges.push((2, 3));
        let g = graph(6, &edges);
        let (part, count) = spectral(&g, 1.0);
        assert_eq!(count, 2);
        assert_eq!(part, vec![0, 0, 0, 1, 1, 1]);
        // Q = 2 · (3/7 − (7/14)²) = 5/14.
        assert!((g.modularity(&part, 1.0) - 5.0 / 14.0).abs() < 1e-12);
    }

    #[test]
    fn a_clique_is_indivisible_and_components_stay_apart() {
        let mut edges = clique_edges(0, 5);
        edges.push((5, 6));
        let g = graph(8, &edges);
        let (part, count) = spectral(&g, 1.0);
        // The clique, the pair, and node 7 alone.
        assert_eq!(count, 3);
        assert_eq!(part, vec![0, 0, 0, 0, 0, 1, 1, 2]);
    }

    #[test]
    fn a_ring_of_cliques_comes_apart_clique_by_clique() {
        let k = 8;
        let size = 5;
        let mut edges: Vec<(u32, u32)> = (0..k).flat_map(|c| clique_edges(c * size, size)).collect();
        for c in 0..k {
            edges.push((c * size, ((c + 1) % k) * size + 1));
        }
        let g = graph((k * size) as usize, &edges);
        let (part, count) = spectral(&g, 1.0);
        assert_eq!(count, k as usize);
        for c in 0..k {
            let label = part[(c * size) as usize];
            assert!(
                (0..size).all(|i| part[(c * size + i) as usize] == label),
                "clique {c}: {part:?}"
            );
        }
    }

    #[test]
    fn an_empty_graph_is_all_singletons() {
        let g = graph(3, &[]);
        assert_eq!(spectral(&g, 1.0), (vec![0, 1, 2], 3));
    }
}
