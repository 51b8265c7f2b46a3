//! Leiden modularity optimisation (Traag, Waltman & van Eck 2019): fast local moving with a
//! queue, refinement of every community into well-connected sub-communities, aggregation of the
//! *refined* partition with the unrefined one as the next level's starting point, until local
//! moving leaves every aggregate node on its own. The whole run is iterated from its own result
//! (at most [`MAX_ITERATIONS`] times) until the partition no longer changes: a second run's
//! refinement often rebuilds a sub-community the first run had glued to a neighbour, which local
//! moving then carries away (on a planted 20-group graph modularity went 0.60 → 0.76).
//!
//! Determinism: the refinement merges greedily (the θ → 0 limit of the paper's randomised
//! choice): each still-singleton, well-connected node joins the well-connected sub-community with
//! the largest non-negative gain; nodes are visited in index order and ties keep the first
//! candidate in ascending order. A refined sub-community only ever grows along edges, so every
//! community is connected; a final pass splits any community that is not (possible only when a
//! level cap or the no-merge fallback below cut a run short), which can only raise modularity.

use crate::adjacency::{relabel, WGraph};
use crate::louvain::MIN_GAIN;
use std::collections::VecDeque;

/// Most aggregation levels of one Leiden iteration (it converges far sooner on real graphs).
const MAX_LEVELS: usize = 50;
/// Most Leiden iterations (each restarts from the previous partition; stops when unchanged).
const MAX_ITERATIONS: usize = 10;

/// Leiden communities of `g0`: a community label per node (`0..count`) and the count.
pub(crate) fn leiden(g0: &WGraph, gamma: f64) -> (Vec<u32>, usize) {
    let n0 = g0.len();
    let mut part: Vec<u32> = (0..n0 as u32).collect();
    if g0.total <= 0.0 {
        let count = relabel(&mut part);
        return (part, count);
    }
    // Each iteration restarts from the previous partition: its refinement can rebuild a
    // sub-community that the next local moving pass carries to where it belongs.
    for _ in 0..MAX_ITERATIONS {
        let next = leiden_pass(g0, part.clone(), gamma);
        if next == part {
            break;
        }
        part = next;
    }
    split_disconnected(g0, &part)
}

/// One run of the Leiden levels from partition `init` of `g0`; the result is relabelled by first
/// appearance, so an unchanged partition compares equal.
fn leiden_pass(g0: &WGraph, init: Vec<u32>, gamma: f64) -> Vec<u32> {
    let mut of_base: Vec<u32> = (0..g0.len() as u32).collect();
    let mut level_graph: Option<WGraph> = None;
    let mut part = init;
    for _ in 0..MAX_LEVELS {
        let g = level_graph.as_ref().unwrap_or(g0);
        move_nodes_fast(g, &mut part, gamma);
        let count = relabel(&mut part);
        if count == g.len() {
            break;
        }
        let mut refined = refine(g, &part, gamma);
        let mut refined_count = relabel(&mut refined);
        if refined_count == g.len() {
            // Refinement merged nothing: aggregate by the unrefined partition so the level
            // still shrinks (connectivity is restored by the final split).
            refined = part.clone();
            refined_count = count;
        }
        let next = g.aggregate(&refined, refined_count);
        let mut next_part = vec![0u32; refined_count];
        for (i, &r) in refined.iter().enumerate() {
            next_part[r as usize] = part[i];
        }
        for c in of_base.iter_mut() {
            *c = refined[*c as usize];
        }
        part = next_part;
        level_graph = Some(next);
    }
    for c in of_base.iter_mut() {
        *c = part[*c as usize];
    }
    relabel(&mut of_base);
    of_base
}

/// Queue-based local moving: every node starts queued (index order); a node moves to the
/// neighbouring (or an empty) community with the best gain, and its neighbours outside the new
/// community are queued again.
fn move_nodes_fast(g: &WGraph, part: &mut [u32], gamma: f64) {
    let n = g.len();
    let two_m = 2.0 * g.total;
    let mut tot: Vec<f64> = vec![0.0; n];
    let mut size: Vec<u32> = vec![0; n];
    for i in 0..n {
        tot[part[i] as usize] += g.degree[i];
        size[part[i] as usize] += 1;
    }
    // Labels are `0..n`, so some are unused; they serve as empty communities.
    let mut empty: Vec<u32> = (0..n as u32).rev().filter(|&c| size[c as usize] == 0).collect();
    let mut queue: VecDeque<u32> = (0..n as u32).collect();
    let mut queued = vec![true; n];
    let mut to_comm = vec![0.0f64; n];
    let mut touched: Vec<u32> = Vec::new();
    while let Some(i) = queue.pop_front() {
        queued[i as usize] = false;
        let ci = part[i as usize];
        let k = g.degree[i as usize];
        for (j, w) in g.neighbours(i) {
            let c = part[j as usize];
            if to_comm[c as usize] == 0.0 {
                touched.push(c);
            }
            to_comm[c as usize] += w;
        }
        tot[ci as usize] -= k;
        size[ci as usize] -= 1;
        let gain = |c: u32, tot: &[f64]| to_comm[c as usize] - gamma * k * tot[c as usize] / two_m;
        let mut best = ci;
        let mut best_gain = gain(ci, &tot);
        for &c in &touched {
            let gc = gain(c, &tot);
            if gc > best_gain + MIN_GAIN {
                best = c;
                best_gain = gc;
            }
        }
        if best_gain < -MIN_GAIN {
            // Alone is better than anywhere: an empty community (its own if it just emptied).
            best = if size[ci as usize] == 0 {
                ci
            } else {
                empty.pop().expect("an empty community exists while a node shares one")
            };
        }
        tot[best as usize] += k;
        size[best as usize] += 1;
        if size[ci as usize] == 0 && best != ci {
            empty.push(ci);
        }
        if best != ci {
            part[i as usize] = best;
            for (j, _) in g.neighbours(i) {
                if !queued[j as usize] && part[j as usize] != best {
                    queued[j as usize] = true;
                    queue.push_back(j);
                }
            }
        }
        for &c in &touched {
            to_comm[c as usize] = 0.0;
        }
        touched.clear();
    }
}

/// Splits each community of `part` into well-connected sub-communities: start from singletons;
/// a singleton node well connected to its community joins the well-connected sub-community
/// (inside the same community, adjacent to it) with the largest non-negative gain.
fn refine(g: &WGraph, part: &[u32], gamma: f64) -> Vec<u32> {
    let n = g.len();
    let two_m = 2.0 * g.total;
    let mut comm_tot = vec![0.0f64; n];
    for i in 0..n {
        comm_tot[part[i] as usize] += g.degree[i];
    }
    // Weight from each node to the rest of its community.
    let mut ext_node = vec![0.0f64; n];
    for i in 0..n {
        ext_node[i] = g
            .neighbours(i as u32)
            .filter(|&(j, _)| part[j as usize] == part[i])
            .map(|(_, w)| w)
            .sum();
    }
    let mut refined: Vec<u32> = (0..n as u32).collect();
    let mut r_tot: Vec<f64> = g.degree.clone();
    let mut r_size: Vec<u32> = vec![1; n];
    // Weight from each sub-community to the rest of its community.
    let mut r_ext: Vec<f64> = ext_node.clone();
    let mut to_sub = vec![0.0f64; n];
    let mut touched: Vec<u32> = Vec::new();
    for v in 0..n {
        if r_size[refined[v] as usize] != 1 {
            continue;
        }
        let s = part[v] as usize;
        let k = g.degree[v];
        if ext_node[v] < gamma * k * (comm_tot[s] - k) / two_m {
            continue;
        }
        for (j, w) in g.neighbours(v as u32) {
            if part[j as usize] as usize != s {
                continue;
            }
            let r = refined[j as usize];
            if to_sub[r as usize] == 0.0 {
                touched.push(r);
            }
            to_sub[r as usize] += w;
        }
        touched.sort_unstable();
        let own = refined[v];
        let mut best: Option<u32> = None;
        let mut best_gain = 0.0f64;
        for &r in &touched {
            let t = r_tot[r as usize];
            if r == own || r_ext[r as usize] < gamma * t * (comm_tot[s] - t) / two_m {
                continue;
            }
            let gain = to_sub[r as usize] - gamma * k * t / two_m;
            let better = match best {
                None => gain >= 0.0,
                Some(_) => gain > best_gain + MIN_GAIN,
            };
            if better {
                best = Some(r);
                best_gain = gain;
            }
        }
        if let Some(r) = best {
            let w_vr = to_sub[r as usize];
            refined[v] = r;
            r_tot[r as usize] += k;
            r_size[r as usize] += 1;
            r_tot[own as usize] = 0.0;
            r_size[own as usize] = 0;
            // Edges between v and r turn internal; v's other edges into the community join r's.
            r_ext[r as usize] += ext_node[v] - 2.0 * w_vr;
            r_ext[own as usize] = 0.0;
        }
        for &r in &touched {
            to_sub[r as usize] = 0.0;
        }
        touched.clear();
    }
    refined
}

/// Splits every community into its connected components (labels by first appearance).
fn split_disconnected(g: &WGraph, part: &[u32]) -> (Vec<u32>, usize) {
    let n = g.len();
    let mut out = vec![u32::MAX; n];
    let mut next = 0u32;
    let mut stack: Vec<u32> = Vec::new();
    for start in 0..n {
        if out[start] != u32::MAX {
            continue;
        }
        out[start] = next;
        stack.push(start as u32);
        while let Some(i) = stack.pop() {
            for (j, _) in g.neighbours(i) {
                if out[j as usize] == u32::MAX && part[j as usize] == part[i as usize] {
                    out[j as usize] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    (out, next as usize)
}
