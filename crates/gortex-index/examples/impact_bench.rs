//! Analysis benchmark: indexes ROOT (reusing the snapshot under --home), then times `dead_code`,
//! `cycles`, `external_calls`, `analyze kind=impact` without a target, and `explain_change_impact`
//! over two deterministic seed sets — functions spread evenly over the graph, and the most-used
//! ones (hubs) — first on a fresh reach cache (cold), then again (cached).
//! Prints one JSON object. Build with `--release`.
//!
//! ```text
//! impact_bench ROOT [--home DIR] [--seeds N] [--show dead_code|dead_code_transitive|cycles|impact|external_calls]
//! ```
//!
//! `--show KIND` prints that analysis' full result instead (a review aid for false positives).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_analysis::cycles::{cycles, CyclesArgs};
use gortex_analysis::deadcode::{dead_code, DeadCodeArgs};
use gortex_analysis::external::{external_calls, ExternalCallsArgs};
use gortex_analysis::impact::{explain_change_impact, impact, ExplainChangeImpactArgs, ImpactArgs};
use gortex_analysis::reach::ReachCache;
use gortex_index::{IndexOptions, RepoIndex};
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

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn stats(mut v: Vec<f64>) -> serde_json::Value {
    v.sort_by(f64::total_cmp);
    json!({
        "n": v.len(),
        "p50_ms": percentile(&v, 0.5),
        "p95_ms": percentile(&v, 0.95),
        "max_ms": v.last().copied().unwrap_or(0.0),
    })
}

fn show<T: serde::Serialize>(r: Result<T, gortex_core::QueryError>) -> String {
    match r {
        Ok(v) => serde_json::to_string_pretty(&v).expect("serialises"),
        Err(e) => format!("error: {e}"),
    }
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let root = std::path::PathBuf::from(raw.first().expect("usage: impact_bench ROOT [--home DIR] [--seeds N]"));
    let flag = |name: &str| raw.iter().position(|a| a == name).and_then(|i| raw.get(i + 1)).cloned();
    let home = std::path::PathBuf::from(flag("--home").unwrap_or_else(|| "/tmp/gortex-impact-bench".into()));
    let nseeds: usize = flag("--seeds").and_then(|v| v.parse().ok()).unwrap_or(200);
    let options = IndexOptions::new(home);
    let t = Instant::now();
    let (index, _) = RepoIndex::open(&root, &options, &|_| {}, &AtomicBool::new(false)).expect("index opens");
    let open_ms = ms(t);
    let g = index.graph.clone();

    if let Some(kind) = flag("--show") {
        let cache = ReachCache::new(g.clone());
        let limit = Some(1000);
        let text = match kind.as_str() {
            "dead_code" => show(dead_code(
                &g,
                &DeadCodeArgs {
                    limit,
                    ..Default::default()
                },
            )),
            "dead_code_transitive" => show(dead_code(
                &g,
                &DeadCodeArgs {
                    limit,
                    transitive: Some(true),
                    ..Default::default()
                },
            )),
            "cycles" => show(cycles(
                &g,
                &CyclesArgs {
                    limit,
                    ..Default::default()
                },
            )),
            "impact" => show(impact(&g, &cache, None, &ImpactArgs { limit, target: None })),
            "external_calls" => show(external_calls(
                &g,
                &ExternalCallsArgs {
                    limit,
                    path_prefix: None,
                },
            )),
            other => {
                panic!("--show accepts dead_code, dead_code_transitive, cycles, impact, external_calls; got {other}")
            }
        };
        println!("{text}");
        return;
    }

    let t = Instant::now();
    let dead = dead_code(&g, &DeadCodeArgs::default()).expect("dead_code");
    let dead_ms = ms(t);
    let t = Instant::now();
    let dead_t = dead_code(
        &g,
        &DeadCodeArgs {
            transitive: Some(true),
            ..Default::default()
        },
    )
    .expect("dead_code transitive");
    let dead_transitive_ms = ms(t);
    let t = Instant::now();
    let cyc = cycles(&g, &CyclesArgs::default()).expect("cycles");
    let cycles_ms = ms(t);
    let t = Instant::now();
    let ext = external_calls(&g, &ExternalCallsArgs::default()).expect("external_calls");
    let external_ms = ms(t);

    let cache = ReachCache::new(g.clone());
    let t = Instant::now();
    let repo = impact(&g, &cache, None, &ImpactArgs::default()).expect("impact");
    let impact_ms = ms(t);
    let impact_cached_cache_entries = cache.len();

    // Seeds: functions and methods with at least one incoming edge, evenly spread over the graph.
    let pool: Vec<u32> = (0..g.node_count() as u32)
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind.is_callable() && !n.external && g.in_edges(i).any(|e| !e.kind.is_structural())
        })
        .collect();
    let step = (pool.len() / nseeds.max(1)).max(1);
    let seeds: Vec<u32> = pool.iter().step_by(step).take(nseeds).copied().collect();
    // Hubs: the most-used functions and methods, where reach walks are largest.
    let mut hubs: Vec<(usize, u32)> = pool
        .iter()
        .map(|&i| (g.in_edges(i).filter(|e| !e.kind.is_structural()).count(), i))
        .collect();
    hubs.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let hubs: Vec<u32> = hubs.into_iter().take(nseeds).map(|h| h.1).collect();
    let fresh = ReachCache::new(g.clone());
    let run = |cache: &ReachCache, seeds: &[u32]| -> (Vec<f64>, usize, usize) {
        let mut times = Vec::with_capacity(seeds.len());
        let (mut truncated, mut total) = (0, 0);
        for &s in seeds {
            let args = ExplainChangeImpactArgs {
                id: Some(g.node_at(s).id.to_string()),
                ..Default::default()
            };
            let t = Instant::now();
            let r = explain_change_impact(&g, cache, None, None, &args).expect("explain_change_impact");
            times.push(ms(t));
            truncated += usize::from(r.truncated);
            total += r.total;
        }
        (times, truncated, total)
    };
    let (cold, truncated, dependents) = run(&fresh, &seeds);
    let (cached, _, _) = run(&fresh, &seeds);
    let (hubs_cold, hubs_truncated, hubs_dependents) = run(&fresh, &hubs);
    let (hubs_cached, _, _) = run(&fresh, &hubs);

    let out = json!({
        "root": root.display().to_string(),
        "nodes": g.node_count(),
        "edges": g.edge_count(),
        "open_ms": open_ms,
        "dead_code": {"ms": dead_ms, "total": dead.total, "excluded": dead.excluded},
        "dead_code_transitive": {"ms": dead_transitive_ms, "total": dead_t.total, "via_dead": dead_t.via_dead},
        "cycles": {"ms": cycles_ms, "total": cyc.total, "by_kind": cyc.by_kind,
                   "largest": cyc.cycles.first().map(|c| c.size)},
        "external_calls": {"ms": external_ms, "targets": ext.total, "uses": ext.total_uses},
        "impact_repo": {"ms": impact_ms, "candidates": repo.candidates, "scored": repo.scored,
                        "reach_entries": impact_cached_cache_entries,
                        "top": repo.rows.first().map(|r| (r.node.id.clone(), r.score))},
        "explain_change_impact": {
            "seeds": seeds.len(),
            "truncated_seeds": truncated,
            "mean_dependents": dependents as f64 / seeds.len().max(1) as f64,
            "cold": stats(cold),
            "cached": stats(cached),
        },
        "explain_change_impact_hubs": {
            "seeds": hubs.len(),
            "truncated_seeds": hubs_truncated,
            "mean_dependents": hubs_dependents as f64 / hubs.len().max(1) as f64,
            "cold": stats(hubs_cold),
            "cached": stats(hubs_cached),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
