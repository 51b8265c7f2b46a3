//! What an overlay view costs on a real repository: opens the index (warm when `--home` holds its
//! snapshot), then for each given file builds a view with one function appended to it, and brings
//! that live view to a second buffer (another function appended). Prints one JSON line per file
//! with both builds' reports (mode, layout, phases, wall time) and the resident memory (after
//! mimalloc returned what it could) before the view, with it, once its kept lookup tables are
//! released, and after it is dropped. The per-phase companion of `benches/overlay-bench.ts`,
//! which measures the same through MCP sessions.
//!
//! ```text
//! cargo build --release -p gortex-index --example overlay_probe
//! overlay_probe ROOT --home DIR FILE…
//! ```

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_core::OverlayFiles;
use gortex_index::{IndexOptions, RepoIndex};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("overlay_probe: {what}: {e}");
    std::process::exit(1);
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! { fail("usage", "overlay_probe ROOT --home DIR FILE…") };
    let (mut root, mut home, mut files) = (None, None, Vec::new());
    let mut it = raw.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--home" => home = Some(PathBuf::from(it.next().unwrap_or_else(|| usage()))),
            _ if root.is_none() => root = Some(PathBuf::from(a)),
            _ => files.push(a),
        }
    }
    let (Some(root), Some(home)) = (root, home) else {
        usage()
    };
    let mut options = IndexOptions::new(home);
    options.keep_build_caches = true;
    let (base, report) =
        RepoIndex::open(&root, &options, &|_| {}, &AtomicBool::new(false)).unwrap_or_else(|e| fail("open", e));
    eprintln!("opened {} files in {} ms", report.files.total, report.wall_ms);
    let t = std::time::Instant::now();
    base.symbol_index();
    // Name lists are built once per graph by the first lookup; a view's build reads the base's.
    base.graph.named("main");
    eprintln!("base symbol index in {} ms", t.elapsed().as_millis());
    let base_rss = resident_kb();
    eprintln!("base resident {} MB", base_rss / 1024);
    for rel in files {
        let text = std::fs::read(root.join(&rel)).unwrap_or_else(|e| fail(&rel, e));
        let with = |extra: &str| {
            let mut bytes = text.clone();
            bytes.extend_from_slice(extra.as_bytes());
            let mut o = OverlayFiles::new();
            o.insert(rel.clone(), Some(Arc::<[u8]>::from(bytes)));
            o
        };
        let first = with("\nfunc GortexProbeA() int { return 1 }\n");
        let (mut view, built) = base.overlay_view(&first).unwrap_or_else(|e| fail("overlay_view", e));
        let second =
            with("\nfunc GortexProbeA() int { return 1 }\n\nfunc GortexProbeB() int { return GortexProbeA() }\n");
        let t = std::time::Instant::now();
        view.symbol_index();
        let first_search_ms = t.elapsed().as_millis() as u64;
        let updated = view
            .overlay_update(&base, &second)
            .unwrap_or_else(|e| fail("overlay_update", e));
        let t = std::time::Instant::now();
        view.symbol_index();
        let next_search_ms = t.elapsed().as_millis() as u64;
        let with_view = resident_kb();
        let released = view.release_build_caches();
        let without_tables = resident_kb();
        drop(view);
        let after_drop = resident_kb();
        let mb = |kb: u64| (kb as i64 - base_rss as i64) / 1024;
        println!(
            "{}",
            json!({
                "file": rel, "built": built, "first_symbol_index_ms": first_search_ms, "updated": updated,
                "next_symbol_index_ms": next_search_ms,
                "extra_mb": { "view": mb(with_view), "view_without_kept_tables": mb(without_tables), "tables_were_kept": released, "after_drop": mb(after_drop) }
            })
        );
    }
}

/// Resident memory in KiB (`VmRSS`) after mimalloc returned what it can to the OS.
fn resident_kb() -> u64 {
    extern "C" {
        fn mi_collect(force: bool);
    }
    // SAFETY: mimalloc is the global allocator (above); collecting is valid at any time.
    unsafe { mi_collect(true) };
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}
