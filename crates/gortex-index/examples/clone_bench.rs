//! Clone-detection benchmark: indexes ROOT (reusing the snapshot under --home), then times a cold
//! [`CloneIndex::sync`], a no-change re-sync and `find_clones` at the default settings. Prints
//! one JSON object with bodies, eligible bodies, candidate/verified pairs, clusters and memory.
//!
//! ```text
//! clone_bench ROOT [--home DIR] [--threads N] [--repeat N] [--show N]
//! ```

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_clones::{find_clones, similar_pairs, CloneIndex, FindClonesArgs, PairOptions};
use gortex_index::{IndexOptions, RepoIndex};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 10_000.0).round() / 10.0
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = raw.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: clone_bench ROOT [--home DIR] [--threads N] [--repeat N] [--show N]");
        std::process::exit(2);
    };
    let flag = |name: &str| raw.iter().position(|a| a == name).and_then(|i| raw.get(i + 1)).cloned();
    let home = std::path::PathBuf::from(flag("--home").unwrap_or_else(|| "/tmp/gortex-clone-bench".into()));
    let threads: usize = flag("--threads").and_then(|v| v.parse().ok()).unwrap_or(2);
    let repeat: usize = flag("--repeat").and_then(|v| v.parse().ok()).unwrap_or(3);
    let show: usize = flag("--show").and_then(|v| v.parse().ok()).unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("rayon pool");

    let mut options = IndexOptions::new(home);
    options.threads = threads;
    let t = Instant::now();
    let (index, _) = match RepoIndex::open(std::path::Path::new(root), &options, &|_| {}, &AtomicBool::new(false)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let index_ms = ms(t);
    let g = &index.graph;
    let files: Vec<(String, u64)> = index.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();

    let mut clones = CloneIndex::new();
    let t = Instant::now();
    let cold = clones.sync(&index.root, g, &files);
    let sync_ms = ms(t);
    let t = Instant::now();
    let warm = clones.sync(&index.root, g, &files);
    let resync_ms = ms(t);

    let args = FindClonesArgs::default();
    let mut find_ms = Vec::new();
    let mut result = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        result = Some(find_clones(g, &clones, &args, None).expect("find_clones"));
        find_ms.push(ms(t));
    }
    let r = result.expect("ran at least once");
    let t = Instant::now();
    let pairs = similar_pairs(g, &clones, &PairOptions::default());
    let pairs_ms = ms(t);
    let sizes: Vec<usize> = r.clusters.iter().take(10).map(|c| c.size).collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({
            "root": root,
            "threads": threads,
            "graph_nodes": g.node_count(),
            "files": files.len(),
            "index_ms": index_ms,
            "sync_cold_ms": sync_ms,
            "sync_cold": cold,
            "resync_ms": resync_ms,
            "resync_read": warm.read,
            "find_ms": find_ms,
            "similar_pairs_ms": pairs_ms,
            "similar_pairs": pairs.pairs.len(),
            "cold_sync_plus_find_ms": sync_ms + find_ms[0],
            "bodies": r.bodies,
            "eligible": r.eligible,
            "tests_excluded": r.tests_excluded,
            "candidate_pairs": r.candidate_pairs,
            "verified_pairs": r.verified_pairs,
            "clusters_total": r.clusters_total,
            "oversized_buckets_skipped": r.oversized_buckets_skipped,
            "candidates_capped": r.candidates_capped,
            "largest_clusters": sizes,
            "memory_bytes": clones.memory_bytes(),
            "memory_mb": (clones.memory_bytes() as f64 / 1048576.0 * 10.0).round() / 10.0,
        }))
        .expect("serialises")
    );
    for c in r.clusters.iter().take(show) {
        println!("{}", serde_json::to_string(c).expect("serialises"));
    }
}
