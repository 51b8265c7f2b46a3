//! Library against hand-written graph algorithms, same graph, same run: the call graph's
//! strongly connected components (our iterative Tarjan in `cycles.rs` against petgraph's
//! `kosaraju_scc` and `tarjan_scc` over the CSR's `visit` traits, no copy), and call-graph
//! betweenness (our Brandes in `hotspots.rs` against rustworkx-core's
//! `betweenness_centrality` on the same edges, both exact). Each result is checked against the
//! other before its time counts. Prints one JSON object.
//!
//! ```text
//! algo_bench ROOT --home DIR [--repeat N] [--nodes N]
//! ```

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_core::{EdgeKind, Origin};
use gortex_graph::model::Edge;
use gortex_graph::{Graph, NodeIndex};
use gortex_index::{IndexOptions, RepoIndex};
use petgraph::visit::EdgeFiltered;
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The best of `repeat` timings of `f` in milliseconds, and its last result.
fn best<T>(repeat: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        out = Some(r);
    }
    (best, out.expect("ran at least once"))
}

/// A call edge the `cycles` kind follows.
fn is_call(g: &Graph, e: &Edge) -> bool {
    e.kind == EdgeKind::Calls
        && e.origin >= Origin::TextMatched
        && e.from != e.to
        && g.node_at(e.from).kind.is_callable()
        && g.node_at(e.to).kind.is_callable()
        && !g.node_at(e.from).external
        && !g.node_at(e.to).external
}

/// Components of two or more members, each sorted, the list sorted.
fn canonical(mut sccs: Vec<Vec<NodeIndex>>) -> Vec<Vec<NodeIndex>> {
    sccs.retain(|c| c.len() > 1);
    for c in &mut sccs {
        c.sort_unstable();
    }
    sccs.sort();
    sccs
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let root = std::path::PathBuf::from(raw.first().expect("usage: algo_bench ROOT --home DIR"));
    let flag = |name: &str| raw.iter().position(|a| a == name).and_then(|i| raw.get(i + 1)).cloned();
    let home = std::path::PathBuf::from(flag("--home").unwrap_or_else(|| "/tmp/gortex-algo-bench".into()));
    let repeat: usize = flag("--repeat").and_then(|v| v.parse().ok()).unwrap_or(5);
    let max_nodes: usize = flag("--nodes").and_then(|v| v.parse().ok()).unwrap_or(4096);
    let (index, _) =
        RepoIndex::open(&root, &IndexOptions::new(home), &|_| {}, &AtomicBool::new(false)).expect("index opens");
    let g: &Graph = &index.graph;

    // Strongly connected components of the call graph.
    let (ours_ms, ours) = best(repeat, || {
        canonical(gortex_analysis::cycles::call_graph_sccs(g, Origin::TextMatched))
    });
    let calls = EdgeFiltered::from_fn(g, |e: &Edge| is_call(g, e));
    let (kosaraju_ms, kosaraju) = best(repeat, || canonical(petgraph::algo::kosaraju_scc(&calls)));
    assert_eq!(ours, kosaraju, "kosaraju_scc and the hand-written Tarjan disagree");
    // petgraph's Tarjan recurses once per node on the DFS path: on a thread with a large stack.
    let (tarjan_ms, tarjan) = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, || {
                let calls = EdgeFiltered::from_fn(g, |e: &Edge| is_call(g, e));
                best(repeat, || canonical(petgraph::algo::tarjan_scc(&calls)))
            })
            .expect("a thread starts")
            .join()
            .expect("tarjan_scc finishes")
    });
    assert_eq!(ours, tarjan, "tarjan_scc and the hand-written Tarjan disagree");

    // Betweenness over the call graph among the best-connected callables (exact on both sides).
    let mut degree: Vec<(usize, NodeIndex)> = g
        .indices()
        .filter(|&i| g.node_at(i).kind.is_callable() && !g.node_at(i).external)
        .map(|i| {
            (
                g.out_edges(i).filter(|e| is_call(g, e)).count() + g.in_edges(i).filter(|e| is_call(g, e)).count(),
                i,
            )
        })
        .filter(|&(d, _)| d > 0)
        .collect();
    degree.sort_unstable_by(|a, b| b.cmp(a));
    let mut nodes: Vec<NodeIndex> = degree.into_iter().take(max_nodes).map(|(_, i)| i).collect();
    nodes.sort_unstable();
    let (brandes_ms, ours_b) = best(repeat, || gortex_analysis::hotspots::betweenness(g, &nodes));
    let local: rustc_hash::FxHashMap<NodeIndex, u32> = nodes.iter().enumerate().map(|(l, &i)| (i, l as u32)).collect();
    let mut pairs: Vec<(u32, u32)> = nodes
        .iter()
        .flat_map(|&i| {
            let from = local[&i];
            let local = &local;
            g.out_edges(i)
                .filter(|e| is_call(g, e))
                .filter_map(move |e| Some((from, *local.get(&e.to)?)))
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let copy_t = Instant::now();
    let pg = petgraph::graph::DiGraph::<(), ()>::from_edges(&pairs);
    let copy_ms = copy_t.elapsed().as_secs_f64() * 1000.0;
    let (rwx_ms, rwx) = best(repeat, || {
        rustworkx_core::centrality::betweenness_centrality(&pg, false, false, 50)
    });
    // Same scale as ours: 0–100 of the maximum.
    let rwx: Vec<f64> = rwx.into_iter().map(|b| b.unwrap_or(0.0)).collect();
    let max = rwx.iter().copied().fold(0.0f64, f64::max);
    let agree = nodes.len() == rwx.len()
        && ours_b
            .iter()
            .zip(&rwx)
            .all(|(a, b)| (a - if max > 0.0 { 100.0 * b / max } else { 0.0 }).abs() < 1e-6);
    assert!(
        agree,
        "rustworkx-core betweenness and the hand-written Brandes disagree"
    );

    println!(
        "{}",
        json!({
            "root": root.display().to_string(),
            "nodes": g.node_count(),
            "edges": g.edge_count(),
            "repeat": repeat,
            "scc": {
                "components": ours.len(),
                "largest": ours.iter().map(Vec::len).max().unwrap_or(0),
                "hand_tarjan_ms": ours_ms,
                "petgraph_kosaraju_ms": kosaraju_ms,
                "petgraph_tarjan_ms": tarjan_ms,
            },
            "betweenness": {
                "nodes": nodes.len(),
                "edges": pairs.len(),
                "hand_brandes_ms": brandes_ms,
                "rustworkx_ms": rwx_ms,
                "rustworkx_copy_ms": copy_ms,
            },
        })
    );
}
