//! Times `search_text` against ripgrep on one tree: `cargo run --release -p gortex-search
//! --example text_bench -- ROOT [BUDGET_MIB] PATTERN...`. The file list is ripgrep's own
//! (`rg --files` with the TS/JS globs the query benchmark uses), so both sides search the same
//! files. A measuring aid; nothing asserts on its numbers.

use gortex_graph::Graph;
use gortex_search::text::{search_text, SearchTextArgs};
use gortex_search::trigram::TextIndex;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

// The addon's allocator, so build timings match the engine's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const GLOBS: &[&str] = &["*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs"];

fn rg(root: &Path, extra: &[&str]) -> (f64, String) {
    let mut cmd = Command::new("rg");
    cmd.current_dir(root)
        .args(["--no-heading", "-n", "--column", "--no-messages"]);
    for g in GLOBS {
        cmd.args(["-g", g]);
    }
    cmd.args(extra);
    let start = Instant::now();
    let out = cmd.output().expect("rg runs");
    (
        start.elapsed().as_secs_f64() * 1e3,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(args.first().expect("usage: text_bench ROOT [BUDGET_MIB] PATTERN..."));
    let (budget, patterns) = match args.get(1).and_then(|a| a.parse::<usize>().ok()) {
        Some(mib) => (mib << 20, &args[2..]),
        None => (gortex_search::trigram::DEFAULT_BUDGET_BYTES, &args[1..]),
    };
    let (_, list) = rg(root, &["--files"]);
    let mut files: Vec<(String, u64)> = list
        .lines()
        .map(|p| {
            let meta = std::fs::metadata(root.join(p)).map(|m| m.len()).unwrap_or(0);
            (p.to_string(), meta)
        })
        .collect();
    files.sort();
    let mut idx = TextIndex::new(budget);
    let start = Instant::now();
    let stats = idx.sync(root, &files);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "files {} build {build_ms:.0} ms, skipped {}, unindexed {}\n{:?}",
        files.len(),
        stats.skipped.len(),
        stats.unindexed,
        idx.stats()
    );
    let start = Instant::now();
    let again = idx.sync(root, &files);
    println!(
        "no-op sync {:.1} ms (unchanged {})",
        start.elapsed().as_secs_f64() * 1e3,
        again.unchanged
    );
    let mut touched = files.clone();
    for f in touched.iter_mut().step_by(100) {
        f.1 ^= 1;
    }
    let start = Instant::now();
    let s = idx.sync(root, &touched);
    println!(
        "1% re-read: {:.1} ms (updated {})",
        start.elapsed().as_secs_f64() * 1e3,
        s.updated
    );
    let kept: Vec<(String, u64)> = touched
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 0)
        .map(|(_, f)| f.clone())
        .collect();
    let start = Instant::now();
    let s = idx.sync(root, &kept);
    println!(
        "a third removed: {:.1} ms (removed {}, compacted {})",
        start.elapsed().as_secs_f64() * 1e3,
        s.removed,
        s.compacted
    );
    let start = Instant::now();
    let s = idx.sync(root, &files);
    println!(
        "re-added: {:.1} ms (added {}) {:?}",
        start.elapsed().as_secs_f64() * 1e3,
        s.added,
        idx.stats()
    );
    let g = Graph::default();
    println!("| pattern | ours ms | hits | candidates | rg ms | rg hits | speed-up |");
    for p in patterns {
        let q = SearchTextArgs {
            query: p.clone(),
            limit: Some(1000),
            ..Default::default()
        };
        let mut best = f64::MAX;
        let mut result = None;
        for _ in 0..3 {
            let start = Instant::now();
            let r = search_text(&idx, &g, &q).expect("query runs");
            best = best.min(start.elapsed().as_secs_f64() * 1e3);
            result = Some(r);
        }
        let r = result.expect("ran");
        let mut rg_best = f64::MAX;
        let mut rg_hits = 0;
        for _ in 0..2 {
            let (ms, out) = rg(root, &["-F", "-e", p, "."]);
            rg_best = rg_best.min(ms);
            rg_hits = out.lines().count();
        }
        println!(
            "| {p} | {best:.2} | {}{} | {} | {rg_best:.1} | {rg_hits} | {:.1}x |",
            r.hits.len(),
            if r.truncated { "+" } else { "" },
            r.candidate_files,
            rg_best / best
        );
    }
}
