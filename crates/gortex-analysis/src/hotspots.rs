//! Hotspots: functions and methods that many others depend on, that depend on many, that tie
//! communities together and that sit on many call paths.
//!
//! ```text
//! raw   = fan_in × 2 + fan_out × 1.5 + crossings × 3 + betweenness × 0.4
//! score = 100 × raw / max(raw)                      (0–100 over the whole graph)
//! ```
//!
//! - `fan_in` / `fan_out`: distinct symbols calling or referencing it / it calls or references
//!   (`calls` and `references` edges, tiers ≥ `text_matched`; external stubs and test code are
//!   not counted, nor are tests ranked).
//! - `crossings`: of those distinct neighbours, how many lie in another community of the given
//!   [`CommunityMap`] (a node outside every community crosses to all its neighbours).
//! - `betweenness`: Brandes betweenness on the directed call graph between ranked functions and
//!   methods, **scaled to 0–100 relative to the graph's most between node**, so its weight 0.4
//!   gives the most central node 40 points — the same as a fan-in of 20 or 13 crossings — while
//!   leaf utilities score 0. Exact up to [`EXACT_BETWEENNESS_MAX`] nodes; above, it is estimated
//!   from [`PIVOTS`] source nodes picked by a hash of their ids (deterministic) and scaled by
//!   sources / pivots (the relative scale makes the estimate's scale immaterial).
//!
//! The default threshold is mean + 2σ of the scores of every ranked node.

use crate::communities::{parse_path_prefix, round};
use crate::CommunityMap;
use gortex_core::{EdgeKind, Origin, QueryError};
use gortex_graph::query::common::{check_limit, check_range};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Largest call graph whose betweenness is computed exactly (one BFS per node).
pub const EXACT_BETWEENNESS_MAX: usize = 4096;
/// Sampled BFS sources on larger call graphs.
pub const PIVOTS: usize = 256;
/// Pivots per parallel work unit; a fixed unit keeps float sums in one order on any machine.
const PIVOT_CHUNK: usize = 16;

/// The components and score of one ranked function or method.
#[derive(Debug, Clone, PartialEq)]
pub struct HotspotScore {
    pub node: NodeIndex,
    pub fan_in: usize,
    pub fan_out: usize,
    pub crossings: usize,
    /// Betweenness on the 0–100 relative scale.
    pub betweenness: f64,
    /// The weighted sum before normalisation.
    pub raw: f64,
    /// 0–100.
    pub score: f64,
}

/// Scores every ranked function/method (non-test, in-repository), best first (ties by id).
pub fn hotspot_scores(g: &Graph, map: &CommunityMap) -> Vec<HotspotScore> {
    let n = g.node_count();
    let test = test_flags(g);
    let countable = |i: NodeIndex| {
        let node = g.node_at(i);
        node.kind.is_symbol() && !node.external && !test[i as usize]
    };
    let ranked: Vec<NodeIndex> = (0..n as NodeIndex)
        .filter(|&i| g.node_at(i).kind.is_callable() && countable(i))
        .collect();
    let betweenness = betweenness(g, &ranked);
    let mut rows: Vec<HotspotScore> = ranked
        .par_iter()
        .zip(betweenness.par_iter())
        .map(|(&i, &b)| {
            let usage = |e: &&gortex_graph::Edge| {
                matches!(e.kind, EdgeKind::Calls | EdgeKind::References) && e.origin >= Origin::TextMatched
            };
            let mut ins: Vec<NodeIndex> = g
                .in_edges(i)
                .filter(usage)
                .map(|e| e.from)
                .filter(|&o| o != i && countable(o))
                .collect();
            let mut outs: Vec<NodeIndex> = g
                .out_edges(i)
                .filter(usage)
                .map(|e| e.to)
                .filter(|&o| o != i && countable(o))
                .collect();
            ins.sort_unstable();
            ins.dedup();
            outs.sort_unstable();
            outs.dedup();
            let mut all: Vec<NodeIndex> = ins.iter().chain(outs.iter()).copied().collect();
            all.sort_unstable();
            all.dedup();
            let own = map.of(i);
            let crossings = all.iter().filter(|&&o| own.is_none() || map.of(o) != own).count();
            let raw = ins.len() as f64 * 2.0 + outs.len() as f64 * 1.5 + crossings as f64 * 3.0 + b * 0.4;
            HotspotScore {
                node: i,
                fan_in: ins.len(),
                fan_out: outs.len(),
                crossings,
                betweenness: b,
                raw,
                score: 0.0,
            }
        })
        .collect();
    let max = rows.iter().map(|r| r.raw).fold(0.0f64, f64::max);
    if max > 0.0 {
        for r in &mut rows {
            r.score = 100.0 * r.raw / max;
        }
    }
    rows.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| g.node_at(a.node).id.cmp(&g.node_at(b.node).id))
    });
    rows
}

/// True for test symbols and everything declared in a test file.
fn test_flags(g: &Graph) -> Vec<bool> {
    let mut test: Vec<bool> = g.nodes().map(|n| n.is_test).collect();
    for &f in g.files() {
        let file = g.node_at(f);
        if file.is_test {
            for &i in g.file_nodes(&file.path) {
                test[i as usize] = true;
            }
        }
    }
    test
}

/// Betweenness of each of `nodes` (in that order) on the directed call graph among them,
/// scaled 0–100 relative to the maximum (see the module doc).
pub fn betweenness(g: &Graph, nodes: &[NodeIndex]) -> Vec<f64> {
    let mut local = vec![u32::MAX; g.node_count()];
    for (l, &i) in nodes.iter().enumerate() {
        local[i as usize] = l as u32;
    }
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (l, &i) in nodes.iter().enumerate() {
        for e in g.out_edges(i) {
            if e.kind == EdgeKind::Calls && e.origin >= Origin::TextMatched && e.to != i {
                let t = local[e.to as usize];
                if t != u32::MAX {
                    pairs.push((l as u32, t));
                }
            }
        }
    }
    let raw = brandes(nodes.len(), pairs, |l| &g.node_at(nodes[l as usize]).id);
    let max = raw.iter().copied().fold(0.0f64, f64::max);
    if max > 0.0 {
        raw.iter().map(|b| 100.0 * b / max).collect()
    } else {
        raw
    }
}

/// Brandes betweenness (unweighted, directed) of a graph with `n` nodes and edges `pairs`; exact
/// up to [`EXACT_BETWEENNESS_MAX`] nodes, else estimated from [`PIVOTS`] sources chosen by a hash
/// of `key(node)`. Deterministic for a given graph.
///
/// Hand-written on purpose (`examples/algo_bench.rs`): on the same 4,096-node call graphs,
/// rustworkx-core's exact `betweenness_centrality` gives the same scores 1.5× (TypeScript) to 4×
/// (Kubernetes) slower, and has no pivot estimate for larger graphs.
pub(crate) fn brandes<'k>(n: usize, mut pairs: Vec<(u32, u32)>, key: impl Fn(u32) -> &'k str) -> Vec<f64> {
    pairs.sort_unstable();
    pairs.dedup();
    let (out_off, out_to) = csr(n, pairs.iter().map(|&(a, b)| (a, b)));
    let (in_off, in_from) = csr(n, pairs.iter().map(|&(a, b)| (b, a)));
    let sources: Vec<u32> = (0..n as u32)
        .filter(|&s| out_off[s as usize + 1] > out_off[s as usize])
        .collect();
    let (pivots, scale) = if n <= EXACT_BETWEENNESS_MAX || sources.len() <= PIVOTS {
        (sources, 1.0)
    } else {
        let mut hashed: Vec<(u64, u32)> = sources.iter().map(|&s| (fnv1a(key(s).as_bytes()), s)).collect();
        hashed.sort_unstable();
        let mut picked: Vec<u32> = hashed.into_iter().take(PIVOTS).map(|(_, s)| s).collect();
        picked.sort_unstable();
        let scale = sources.len() as f64 / picked.len() as f64;
        (picked, scale)
    };
    let partials: Vec<Vec<f64>> = pivots
        .par_chunks(PIVOT_CHUNK)
        .map(|chunk| {
            let mut acc = vec![0.0f64; n];
            let mut dist = vec![-1i32; n];
            let mut sigma = vec![0.0f64; n];
            let mut delta = vec![0.0f64; n];
            let mut order: Vec<u32> = Vec::new();
            for &s in chunk {
                order.clear();
                dist[s as usize] = 0;
                sigma[s as usize] = 1.0;
                order.push(s);
                let mut head = 0;
                // BFS; `order` doubles as the queue and, read backwards, the dependency order.
                while head < order.len() {
                    let v = order[head];
                    head += 1;
                    let dv = dist[v as usize];
                    for &w in &out_to[out_off[v as usize]..out_off[v as usize + 1]] {
                        if dist[w as usize] < 0 {
                            dist[w as usize] = dv + 1;
                            order.push(w);
                        }
                        if dist[w as usize] == dv + 1 {
                            sigma[w as usize] += sigma[v as usize];
                        }
                    }
                }
                for &w in order.iter().rev() {
                    let dw = dist[w as usize];
                    let coeff = (1.0 + delta[w as usize]) / sigma[w as usize];
                    for &v in &in_from[in_off[w as usize]..in_off[w as usize + 1]] {
                        if dist[v as usize] == dw - 1 && dist[v as usize] >= 0 {
                            delta[v as usize] += sigma[v as usize] * coeff;
                        }
                    }
                    if w != s {
                        acc[w as usize] += delta[w as usize];
                    }
                }
                for &w in &order {
                    dist[w as usize] = -1;
                    sigma[w as usize] = 0.0;
                    delta[w as usize] = 0.0;
                }
            }
            acc
        })
        .collect();
    let mut total = vec![0.0f64; n];
    for part in partials {
        for (t, p) in total.iter_mut().zip(part) {
            *t += p;
        }
    }
    if scale != 1.0 {
        for t in &mut total {
            *t *= scale;
        }
    }
    total
}

fn csr(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> (Vec<usize>, Vec<u32>) {
    let mut off = vec![0usize; n + 1];
    for (a, _) in pairs.clone() {
        off[a as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut to = vec![0u32; off[n]];
    for (a, b) in pairs {
        to[fill[a as usize]] = b;
        fill[a as usize] += 1;
    }
    (off, to)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Arguments of `hotspots`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HotspotsArgs {
    /// Rows: 1..=1000, default 50.
    #[serde(default)]
    pub limit: Option<usize>,
    /// Smallest score listed (0–100); default mean + 2σ.
    #[serde(default)]
    pub threshold: Option<f64>,
    /// Only functions/methods under this path (scores are still graph-wide).
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// One hotspot row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Hotspot {
    pub node: NodeSummary,
    /// 0–100.
    pub score: f64,
    pub fan_in: usize,
    pub fan_out: usize,
    pub crossings: usize,
    /// 0–100, relative to the most between node.
    pub betweenness: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub community: Option<u32>,
}

/// The answer of `hotspots`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HotspotsResult {
    /// The threshold applied (given, or mean + 2σ).
    pub threshold: f64,
    pub mean: f64,
    pub stddev: f64,
    /// Functions and methods scored.
    pub candidates: usize,
    /// Rows at or above the threshold (and under `path_prefix`).
    pub total: usize,
    pub hotspots: Vec<Hotspot>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

fn row(g: &Graph, map: &CommunityMap, s: &HotspotScore) -> Hotspot {
    Hotspot {
        node: NodeSummary::at(g, s.node),
        score: round(s.score, 2),
        fan_in: s.fan_in,
        fan_out: s.fan_out,
        crossings: s.crossings,
        betweenness: round(s.betweenness, 2),
        community: map.of(s.node),
    }
}

/// `hotspots`: functions and methods scoring at or above the threshold, best first.
pub fn hotspots(g: &Graph, map: &CommunityMap, args: &HotspotsArgs) -> Result<HotspotsResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let given = match args.threshold {
        Some(t) if t.is_finite() => Some(check_range("threshold", Some(t), 0.0, 0.0, 100.0)?),
        Some(t) => return Err(QueryError::invalid(format!("threshold must be 0..=100, got {t}"))),
        None => None,
    };
    let prefix = parse_path_prefix(args.path_prefix.as_deref())?;
    let scores = hotspot_scores(g, map);
    let count = scores.len() as f64;
    let (mean, stddev) = if scores.is_empty() {
        (0.0, 0.0)
    } else {
        let mean = scores.iter().map(|s| s.score).sum::<f64>() / count;
        let var = scores.iter().map(|s| (s.score - mean).powi(2)).sum::<f64>() / count;
        (mean, var.sqrt())
    };
    let threshold = given.unwrap_or(mean + 2.0 * stddev);
    let matching: Vec<&HotspotScore> = scores
        .iter()
        .filter(|s| s.score >= threshold && s.raw > 0.0)
        .filter(|s| prefix.as_deref().is_none_or(|p| g.node_at(s.node).path.starts_with(p)))
        .collect();
    let total = matching.len();
    Ok(HotspotsResult {
        threshold: round(threshold, 2),
        mean: round(mean, 2),
        stddev: round(stddev, 2),
        candidates: scores.len(),
        total,
        hotspots: matching.into_iter().take(limit).map(|s| row(g, map, s)).collect(),
        truncated: total > limit,
    })
}

/// The `n` highest-scoring functions and methods regardless of threshold (`gortex://god-nodes`
/// shows 20). Nodes that score 0 are never listed.
pub fn god_nodes(g: &Graph, map: &CommunityMap, n: usize) -> Vec<Hotspot> {
    hotspot_scores(g, map)
        .iter()
        .filter(|s| s.raw > 0.0)
        .take(n)
        .map(|s| row(g, map, s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::communities::{detect_communities, Algorithm};
    use crate::testutil::{two_cliques, Builder};

    #[test]
    fn betweenness_of_a_path_peaks_in_the_middle() {
        // a → b → c → d → e: b and d lie on 3 shortest paths, c on 4.
        let raw = brandes(5, vec![(0, 1), (1, 2), (2, 3), (3, 4)], |_| "");
        assert_eq!(raw, vec![0.0, 3.0, 4.0, 3.0, 0.0]);
        let mut b = Builder::new();
        let nodes: Vec<NodeIndex> = ["a", "b", "c", "d", "e"].iter().map(|n| b.func("p.ts", n)).collect();
        for w in nodes.windows(2) {
            b.call(w[0], w[1], 1);
        }
        let g = b.build();
        assert_eq!(betweenness(&g, &nodes), vec![0.0, 75.0, 100.0, 75.0, 0.0]);
    }

    #[test]
    fn betweenness_counts_every_shortest_path_share() {
        // s → {x, y} → t: x and y each carry half of the s→t paths.
        let raw = brandes(4, vec![(0, 1), (0, 2), (1, 3), (2, 3)], |_| "");
        assert_eq!(raw, vec![0.0, 0.5, 0.5, 0.0]);
    }

    #[test]
    fn sampled_betweenness_is_deterministic_and_avoids_the_ends() {
        let n = EXACT_BETWEENNESS_MAX + 500;
        let pairs: Vec<(u32, u32)> = (0..n as u32 - 1).map(|i| (i, i + 1)).collect();
        let keys: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        let a = brandes(n, pairs.clone(), |i| &keys[i as usize]);
        let b = brandes(n, pairs, |i| &keys[i as usize]);
        assert_eq!(a, b);
        let top = (0..n).max_by(|&x, &y| a[x].total_cmp(&a[y])).unwrap();
        assert!(top > n / 10 && top < n - n / 10, "peak at {top}");
        assert_eq!(a[0], 0.0);
        assert_eq!(a[n - 1], 0.0);
    }

    #[test]
    fn the_bridge_between_two_cliques_is_the_top_hotspot() {
        let g = two_cliques();
        let cs = detect_communities(&g, Algorithm::Leiden);
        let scores = hotspot_scores(&g, &cs.map);
        // b0 is called across the bridge and routes a0's paths into its clique.
        let top = &scores[0];
        assert_eq!(g.node_at(top.node).name, "b0");
        assert_eq!((top.fan_in, top.fan_out, top.crossings), (1, 4, 1));
        assert_eq!(top.betweenness, 100.0);
        assert_eq!(top.score, 100.0);
        let gods = god_nodes(&g, &cs.map, 3);
        assert_eq!(gods.len(), 3);
        assert_eq!(gods[0].node.name, "b0");
        assert_eq!(gods[0].community, Some(1));
    }

    #[test]
    fn hotspots_apply_the_threshold_and_validate_arguments() {
        let g = two_cliques();
        let cs = detect_communities(&g, Algorithm::Leiden);
        let run = |v: serde_json::Value| hotspots(&g, &cs.map, &serde_json::from_value(v).unwrap());
        let r = run(serde_json::json!({})).unwrap();
        assert_eq!(r.candidates, 10);
        assert!((r.threshold - round(r.mean + 2.0 * r.stddev, 2)).abs() < 0.011);
        assert_eq!(
            r.hotspots.iter().map(|h| h.node.name.as_str()).collect::<Vec<_>>(),
            ["b0"]
        );
        let all = run(serde_json::json!({"threshold": 0, "limit": 3})).unwrap();
        assert_eq!(all.total, 10);
        assert_eq!(all.hotspots.len(), 3);
        assert!(all.truncated);
        let b_only = run(serde_json::json!({"threshold": 0, "path_prefix": "src/b"})).unwrap();
        assert_eq!(b_only.total, 5);
        assert_eq!(
            run(serde_json::json!({"threshold": 101})).unwrap_err().message,
            "threshold must be 0..=100, got 101"
        );
        assert_eq!(
            run(serde_json::json!({"limit": 0})).unwrap_err().message,
            "limit must be 1..=1000, got 0"
        );
        assert!(run(serde_json::json!({"path_prefix": ""})).is_err());
    }
}
