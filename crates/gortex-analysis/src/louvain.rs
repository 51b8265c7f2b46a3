//! Louvain modularity optimisation (Blondel et al. 2008): repeated local moving of nodes in a
//! fixed order, then aggregation of the communities into nodes, for at most [`MAX_PASSES`]
//! levels. Deterministic: no randomness, nodes visited in index order, ties keep the current
//! community (or the first best candidate in ascending neighbour order).

use crate::adjacency::{relabel, WGraph};

/// Most aggregation levels Louvain runs.
pub const MAX_PASSES: usize = 10;
/// Most sweeps over all nodes within one level (each sweep must improve modularity to continue).
const MAX_SWEEPS: usize = 100;
/// A move must gain more than this (in edge-weight units) to count; keeps float noise from
/// making nodes swap back and forth.
pub(crate) const MIN_GAIN: f64 = 1e-10;

/// Louvain communities of `g0`: a community label per node (`0..count`) and the count.
pub(crate) fn louvain(g0: &WGraph, gamma: f64) -> (Vec<u32>, usize) {
    let n0 = g0.len();
    let mut of_base: Vec<u32> = (0..n0 as u32).collect();
    if g0.total <= 0.0 {
        let count = relabel(&mut of_base);
        return (of_base, count);
    }
    let mut level_graph: Option<WGraph> = None;
    for _ in 0..MAX_PASSES {
        let g = level_graph.as_ref().unwrap_or(g0);
        let mut part: Vec<u32> = (0..g.len() as u32).collect();
        let moved = local_moving(g, &mut part, gamma);
        let count = relabel(&mut part);
        for c in of_base.iter_mut() {
            *c = part[*c as usize];
        }
        if !moved || count == g.len() {
            break;
        }
        level_graph = Some(g.aggregate(&part, count));
    }
    let count = relabel(&mut of_base);
    (of_base, count)
}

/// Sweeps nodes in index order, moving each to the neighbouring community with the best
/// modularity gain, until a sweep moves nothing. Returns whether any node moved.
fn local_moving(g: &WGraph, part: &mut [u32], gamma: f64) -> bool {
    let n = g.len();
    let two_m = 2.0 * g.total;
    let mut tot: Vec<f64> = vec![0.0; n];
    for i in 0..n {
        tot[part[i] as usize] += g.degree[i];
    }
    let mut to_comm = vec![0.0f64; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut any = false;
    for _ in 0..MAX_SWEEPS {
        let mut moved = false;
        for i in 0..n {
            let ci = part[i];
            let k = g.degree[i];
            for (j, w) in g.neighbours(i as u32) {
                let c = part[j as usize];
                if to_comm[c as usize] == 0.0 {
                    touched.push(c);
                }
                to_comm[c as usize] += w;
            }
            tot[ci as usize] -= k;
            let gain = |c: u32, to: f64, tot: &[f64]| to - gamma * k * tot[c as usize] / two_m;
            let mut best = ci;
            let mut best_gain = gain(ci, to_comm[ci as usize], &tot);
            for &c in &touched {
                let gc = gain(c, to_comm[c as usize], &tot);
                if gc > best_gain + MIN_GAIN {
                    best = c;
                    best_gain = gc;
                }
            }
            tot[best as usize] += k;
            if best != ci {
                part[i] = best;
                moved = true;
            }
            for &c in &touched {
                to_comm[c as usize] = 0.0;
            }
            touched.clear();
        }
        any |= moved;
        if !moved {
            break;
        }
    }
    any
}
