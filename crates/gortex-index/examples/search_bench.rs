//! Symbol-search benchmark: indexes ROOT (reusing the snapshot under --home), builds the
//! [`SymbolIndex`] a few times, then times `search_symbols` over a deterministic query mix drawn
//! from the graph's own names (exact, lowercase, fragments, typos, doc words) plus fixed queries.
//! Prints one JSON object.
//!
//! ```text
//! search_bench ROOT --home DIR [--queries N] [--show QUERY] [--loop QUERY [--repeat N]] [--build-only N]
//! ```

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_index::{IndexOptions, RepoIndex};
use gortex_search::tokenize::tokens;
use gortex_search::{
    find_files, search_symbols, winnow_symbols, FindFilesArgs, SearchSymbolsArgs, SymbolIndex, WinnowContext,
    WinnowSymbolsArgs,
};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let root = std::path::PathBuf::from(raw.first().expect("usage: search_bench ROOT --home DIR"));
    let flag = |name: &str| raw.iter().position(|a| a == name).and_then(|i| raw.get(i + 1)).cloned();
    let home = std::path::PathBuf::from(flag("--home").unwrap_or_else(|| "/tmp/gortex-search-bench".into()));
    let nqueries: usize = flag("--queries").and_then(|v| v.parse().ok()).unwrap_or(2000);
    let options = IndexOptions::new(home);
    let t = Instant::now();
    let (index, _) = RepoIndex::open(&root, &options, &|_| {}, &AtomicBool::new(false)).expect("index opens");
    let open_ms = t.elapsed().as_secs_f64() * 1000.0;
    let g = &index.graph;

    if let Some(n) = flag("--build-only").and_then(|v| v.parse::<usize>().ok()) {
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(SymbolIndex::build(g));
        }
        println!("{:.1} ms/build", t.elapsed().as_secs_f64() * 1000.0 / n as f64);
        return;
    }
    let mut builds = Vec::new();
    let mut idx = SymbolIndex::build(g);
    for _ in 0..3 {
        let t = Instant::now();
        idx = SymbolIndex::build(g);
        builds.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    builds.sort_by(f64::total_cmp);

    if let Some(q) = flag("--loop") {
        // Profiling aid: one query, many times.
        let args = SearchSymbolsArgs {
            query: q,
            ..Default::default()
        };
        let t = Instant::now();
        let n: usize = flag("--repeat").and_then(|v| v.parse().ok()).unwrap_or(200);
        for _ in 0..n {
            search_symbols(g, &idx, &args).expect("search");
        }
        println!("{:.3} ms/query", t.elapsed().as_secs_f64() * 1000.0 / n as f64);
        return;
    }
    if let Some(q) = flag("--show") {
        let args = SearchSymbolsArgs {
            query: q,
            limit: Some(10),
            ..Default::default()
        };
        let r = search_symbols(g, &idx, &args).expect("search");
        println!("{}", serde_json::to_string_pretty(&r).unwrap());
        return;
    }

    // Query mix from the graph's own symbols (deterministic stride).
    let symbols: Vec<&gortex_graph::Node> = g
        .nodes()
        .filter(|n| n.kind.is_symbol() && !n.external && n.name.len() >= 4)
        .collect();
    let stride = (symbols.len() / (nqueries / 5).max(1)).max(1);
    let mut queries: Vec<String> = Vec::new();
    for (i, n) in symbols.iter().step_by(stride).enumerate() {
        let words = tokens(&n.name);
        match i % 5 {
            0 => queries.push(n.name.clone()),
            1 => queries.push(n.name.to_lowercase()),
            2 => queries.push(
                words
                    .iter()
                    .take(2)
                    .map(|w| &w[..w.len().min(4)])
                    .collect::<Vec<_>>()
                    .join(""),
            ),
            3 => {
                let mut b: Vec<char> = n.name.chars().collect();
                if b.len() > 4 {
                    b.swap(2, 3);
                }
                queries.push(b.into_iter().collect());
            }
            _ => {
                let doc = n.doc.as_deref().map(tokens).unwrap_or_default();
                let q: Vec<String> = doc.into_iter().filter(|w| w.len() > 3).take(3).collect();
                queries.push(if q.is_empty() { words.join(" ") } else { q.join(" ") });
            }
        }
    }
    for q in [
        "createNode",
        "parseExpression",
        "checker",
        "type checker diagnostics",
        "emitFile",
        "getSourceFile",
        "paymnet",
        "nodeFactory",
        "isIdentifier",
        "symbol table",
        "get",
        "ts",
        "getUserByEmailAddress",
        "kind:function lang:typescript create",
        "create path:src/compiler",
        "node path:tests/cases",
        "src",
    ] {
        queries.push(q.to_string());
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut slowest: Vec<(f64, String, usize)> = Vec::new();
    let mut errors = 0;
    for q in &queries {
        let args = SearchSymbolsArgs {
            query: q.clone(),
            ..Default::default()
        };
        let t = Instant::now();
        let r = search_symbols(g, &idx, &args);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        match r {
            Ok(r) => slowest.push((ms, q.clone(), r.total)),
            Err(_) => errors += 1,
        }
    }
    times.sort_by(f64::total_cmp);
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    slowest.truncate(8);

    let t = Instant::now();
    let w = winnow_symbols(
        g,
        &idx,
        &WinnowSymbolsArgs {
            kind: Some("function".into()),
            min_fan_in: Some(5),
            ..Default::default()
        },
        &WinnowContext::default(),
    )
    .expect("winnow");
    let winnow_ms = t.elapsed().as_secs_f64() * 1000.0;
    let t = Instant::now();
    let wp = winnow_symbols(
        g,
        &idx,
        &WinnowSymbolsArgs {
            path_prefix: Some("src/compiler".into()),
            min_fan_in: Some(1),
            ..Default::default()
        },
        &WinnowContext::default(),
    )
    .expect("winnow");
    let winnow_path_ms = t.elapsed().as_secs_f64() * 1000.0;
    let t = Instant::now();
    let f = find_files(
        g,
        &FindFilesArgs {
            query: Some("checker".into()),
            ..Default::default()
        },
    )
    .expect("find_files");
    let files_ms = t.elapsed().as_secs_f64() * 1000.0;

    let out = json!({
        "open_ms": open_ms,
        "nodes": g.node_count(),
        "symbols": idx.len(),
        "vocabulary": idx.vocabulary_len(),
        "postings": idx.postings_len(),
        "memory_bytes": idx.memory_bytes(),
        "build_ms": { "min": builds[0], "median": builds[1], "max": builds[2] },
        "threads": rayon::current_num_threads(),
        "queries": queries.len(),
        "errors": errors,
        "search_ms": {
            "p50": percentile(&times, 0.5),
            "p95": percentile(&times, 0.95),
            "p99": percentile(&times, 0.99),
            "max": times.last().copied().unwrap_or(0.0),
        },
        "slowest": slowest.iter().map(|(ms, q, total)| json!({"ms": ms, "query": q, "total": total})).collect::<Vec<_>>(),
        "winnow_ms": winnow_ms,
        "winnow_total": w.total,
        "winnow_path_ms": winnow_path_ms,
        "winnow_path_total": wp.total,
        "find_files_ms": files_ms,
        "find_files_total": f.total,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
