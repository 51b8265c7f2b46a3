//! Times the structure analyses on one repository: community detection (Leiden and Louvain, with
//! modularity and counts), execution flows and hotspots. Prints one JSON object on stdout.
//!
//! ```text
//! cargo run --release -p gortex-index --example structure_bench -- REPO_DIR
//! cargo run --release -p gortex-index --example structure_bench -- --synthetic NODES
//! ```
//!
//! `--synthetic NODES` skips indexing and times the analyses on a generated call graph: NODES
//! functions, 20 per file, 50 files per directory, five calls each (four into the caller's own
//! directory, one anywhere), from a fixed-seed generator.

/// Same allocator as the shipped addon, so the numbers match what users get.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_analysis::adjacency::Adjacency;
use gortex_analysis::hotspots::hotspot_scores;
use gortex_analysis::{detect_communities, discover_processes, hotspots, Algorithm, HotspotsArgs};
use gortex_core::{EdgeKind, NodeKind, Origin};
use gortex_graph::{Edge, Graph, Node, NodeIndex};
use gortex_index::{IndexOptions, RepoIndex};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 10_000.0).round() / 10.0
}

/// A generated call graph with planted directory-sized communities (see the module doc).
fn synthetic(n: usize) -> Graph {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let per_file = 20;
    let per_dir = per_file * 50;
    let mut nodes = Vec::with_capacity(n + n / per_file + 1);
    let mut edges = Vec::with_capacity(n * 6);
    let mut symbols = Vec::with_capacity(n);
    for f in 0..n.div_ceil(per_file) {
        let path: Arc<str> = Arc::from(format!("d{}/f{f}.ts", f * per_file / per_dir));
        let file = nodes.len() as NodeIndex;
        nodes.push(Node::bare(
            Arc::from(format!("syn/{path}")),
            NodeKind::File,
            format!("f{f}.ts"),
            path.to_string(),
            path.clone(),
        ));
        for k in 0..per_file.min(n - f * per_file) {
            let name = format!("fn{}", f * per_file + k);
            let i = nodes.len() as NodeIndex;
            let mut node = Node::bare(
                Arc::from(format!("syn/{path}::{name}")),
                NodeKind::Function,
                name.clone(),
                name,
                path.clone(),
            );
            node.exported = true;
            nodes.push(node);
            symbols.push(i);
            edges.push(Edge {
                from: file,
                to: i,
                kind: EdgeKind::Defines,
                origin: Origin::AstResolved,
                line: 1,
                via: None,
            });
        }
    }
    for (s, &from) in symbols.iter().enumerate() {
        let dir = s / per_dir;
        let dir_start = dir * per_dir;
        let dir_len = per_dir.min(n - dir_start);
        for c in 0..5u32 {
            let t = if c < 4 {
                dir_start + next() as usize % dir_len
            } else {
                next() as usize % n
            };
            edges.push(Edge {
                from,
                to: symbols[t],
                kind: EdgeKind::Calls,
                origin: Origin::AstResolved,
                line: 2 + c,
                via: None,
            });
        }
    }
    Graph::assemble("syn".to_string(), nodes, edges, Vec::new())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (graph, root, files, index_ms) = match args.as_slice() {
        [flag, n] if flag == "--synthetic" => {
            let n: usize = n.parse().unwrap_or_else(|_| {
                eprintln!("--synthetic needs a node count");
                std::process::exit(2);
            });
            let t = Instant::now();
            let g = synthetic(n);
            let files = g.files().len();
            (Arc::new(g), format!("synthetic:{n}"), files, ms(t))
        }
        [root] => {
            let (g, files, took) = index_repo(root);
            (g, root.clone(), files, took)
        }
        _ => {
            eprintln!("usage: structure_bench REPO_DIR | --synthetic NODES");
            std::process::exit(2);
        }
    };
    run(&graph, &root, files, index_ms);
}

/// Indexes a repository; returns its graph, file count and the time taken.
fn index_repo(root: &str) -> (Arc<Graph>, usize, f64) {
    let home = std::env::temp_dir().join(format!("gortex-structure-bench-{}", std::process::id()));
    let mut options = IndexOptions::new(home.clone());
    options.persist = false;
    let t = Instant::now();
    let (index, report) = match RepoIndex::open(std::path::Path::new(&root), &options, &|_| {}, &AtomicBool::new(false))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let index_ms = ms(t);
    let _ = std::fs::remove_dir_all(home);
    (index.graph.clone(), report.files.total, index_ms)
}

/// Times every analysis on `g` and prints the figures.
fn run(g: &Graph, root: &str, files: usize, index_ms: f64) {
    let t = Instant::now();
    let adj = Adjacency::build(g);
    let adjacency_ms = ms(t);
    let pairs = adj.targets.len() / 2;

    let mut detection = Vec::new();
    let mut leiden_map = None;
    for algorithm in [Algorithm::Leiden, Algorithm::Louvain, Algorithm::Spectral] {
        let t = Instant::now();
        let cs = detect_communities(g, algorithm);
        let took = ms(t);
        let largest = cs.communities.first().map(|c| c.size).unwrap_or(0);
        detection.push(json!({
            "algorithm": algorithm.as_str(),
            "ms": took,
            "modularity": (cs.modularity * 10_000.0).round() / 10_000.0,
            "communities": cs.communities.len(),
            "singletons": cs.singletons,
            "largest": largest,
            "top_labels": cs.communities.iter().take(5).map(|c| format!("{} ({})", c.label, c.size)).collect::<Vec<_>>(),
        }));
        if algorithm == Algorithm::Leiden {
            leiden_map = Some(cs.map);
        }
    }
    let map = leiden_map.expect("leiden ran");

    let t = Instant::now();
    let ps = discover_processes(g);
    let processes_ms = ms(t);
    let steps: usize = ps.processes.iter().map(|p| p.steps.len()).sum();

    let t = Instant::now();
    let scores = hotspot_scores(g, &map);
    let hotspot_ms = ms(t);
    let listed = hotspots(g, &map, &HotspotsArgs::default()).expect("default hotspot arguments are valid");

    let out = json!({
        "repo": root,
        "files": files,
        "nodes": g.node_count(),
        "edges": g.edge_count(),
        "index_ms": index_ms,
        "adjacency": {"ms": adjacency_ms, "nodes": adj.len(), "pairs": pairs},
        "communities": detection,
        "processes": {
            "ms": processes_ms,
            "count": ps.processes.len(),
            "candidates": ps.candidates,
            "test_candidates": ps.test_candidates,
            "steps": steps,
            "truncated": ps.truncated,
            "top": ps.processes.iter().take(5).map(|p| format!("{} ({:.1})", p.name, p.score)).collect::<Vec<_>>(),
        },
        "hotspots": {
            "ms": hotspot_ms,
            "candidates": scores.len(),
            "threshold": listed.threshold,
            "above_threshold": listed.total,
            "top": scores.iter().take(5).map(|s| format!("{} ({:.1})", g.node_at(s.node).id, s.score)).collect::<Vec<_>>(),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("serialises"));
}
