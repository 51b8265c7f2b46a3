//! Where a watcher pass goes on a real repository: opens the index (warm), then for each given
//! file makes one edit, runs `update_paths` on it, times the first symbol-index rebuild after it,
//! and restores the file. Prints one JSON line per edit.
//!
//! ```text
//! cargo build --release -p gortex-index --example edit_probe
//! edit_probe ROOT --home DIR --mode body|append FILE…
//! ```
//! `body` inserts a comment line in the middle of the file (declarations keep their names, only
//! lines move: the common edit); `append` adds a new uniquely named function at the end.
//! The per-phase companion of `benches/watch-latency.ts` (which measures the same edits end to end).
//! On stderr: resident memory after opening, after the first symbol index, after the edits and
//! once the tables kept for the next build are released (each after a forced allocator collect).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use gortex_index::{IndexOptions, RepoIndex};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("edit_probe: {what}: {e}");
    std::process::exit(1);
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! { fail("usage", "edit_probe ROOT --home DIR --mode body|append FILE…") };
    let mut root = None;
    let mut home = None;
    let mut mode = String::from("body");
    let mut files = Vec::new();
    let mut it = raw.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--home" => home = Some(PathBuf::from(it.next().unwrap_or_else(|| usage()))),
            "--mode" => mode = it.next().unwrap_or_else(|| usage()),
            _ if root.is_none() => root = Some(PathBuf::from(a)),
            _ => files.push(a),
        }
    }
    let (Some(root), Some(home)) = (root, home) else {
        usage()
    };
    let mut opts = IndexOptions::new(home);
    opts.threads = 0;
    // As a watched repository: the resolver's tables kept from opening on.
    opts.keep_build_caches = true;
    let t = Instant::now();
    let (mut index, report) =
        RepoIndex::open(&root, &opts, &|_| {}, &AtomicBool::new(false)).unwrap_or_else(|e| fail("open", e));
    eprintln!(
        "opened ({}) in {:.0} ms; phases {:?}",
        report.mode,
        t.elapsed().as_secs_f64() * 1000.0,
        report.phases_ms
    );
    eprintln!("resident after open: {} (peak {})", resident(), status_field("VmHWM:"));
    index.symbol_index();
    eprintln!(
        "symbol index {} bytes; with the tokens kept for the next build {:?} bytes",
        index.symbol_index().memory_bytes(),
        index.search_memory().symbols_bytes
    );
    eprintln!("resident after open and the first symbol index: {}", resident());
    for (n, rel) in files.iter().enumerate() {
        let abs = root.join(rel);
        let before = std::fs::read(&abs).unwrap_or_else(|e| fail("read", e));
        let mut after = before.clone();
        match mode.as_str() {
            "body" => {
                let lines: Vec<usize> = before
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| i + 1)
                    .collect();
                let at = lines.get(lines.len() / 2).copied().unwrap_or(0);
                after.splice(at..at, b"// gortex probe edit\n".iter().copied());
            }
            "append" => after.extend_from_slice(probe_source(rel, &format!("gortexProbe{n}")).as_bytes()),
            _ => usage(),
        }
        std::fs::write(&abs, &after).unwrap_or_else(|e| fail("write", e));
        let t = Instant::now();
        let report = index.update_paths(std::slice::from_ref(rel), &opts);
        let update_ms = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        index.symbol_index();
        let symbols_ms = t.elapsed().as_secs_f64() * 1000.0;
        std::fs::write(&abs, &before).unwrap_or_else(|e| fail("restore", e));
        let report = report.unwrap_or_else(|e| fail("update_paths", e));
        index
            .update_paths(std::slice::from_ref(rel), &opts)
            .unwrap_or_else(|e| fail("update_paths", e));
        println!(
            "{}",
            json!({
                "file": rel,
                "mode": mode,
                "update_ms": update_ms,
                "symbol_index_ms": symbols_ms,
                "parsed": report.files.parsed,
                "resolved": report.files.resolved,
                "lookup_tables": report.lookup_tables,
                "graph_layout": report.graph_layout,
                "phases_ms": report.phases_ms,
            })
        );
    }
    eprintln!("resident after the edits: {}", resident());
    if index.release_build_caches() {
        eprintln!("resident with the build caches released: {}", resident());
    }
}

/// A new function named `name` in the file's language (as `benches/common.ts` writes it).
fn probe_source(file: &str, name: &str) -> String {
    match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("py") => format!("\n\ndef {name}():\n    return 1\n"),
        Some("go") => format!("\nfunc {name}() int {{\n\treturn 1\n}}\n"),
        Some("rs") => format!("\npub fn {name}() -> i32 {{\n    1\n}}\n"),
        Some("java") => format!("\nclass {name} {{}}\n"),
        _ => format!("\nexport function {name}() {{\n  return 1;\n}}\n"),
    }
}

/// The process's resident memory (`VmRSS`) after mimalloc has returned what it can to the OS, so
/// two runs compare live memory rather than allocator timing.
fn resident() -> String {
    extern "C" {
        fn mi_collect(force: bool);
    }
    // SAFETY: mimalloc is the global allocator (above); collecting is valid at any time.
    unsafe { mi_collect(true) };
    status_field("VmRSS:")
}

/// One field of `/proc/self/status` (`VmRSS:`, `VmHWM:` for the peak).
fn status_field(field: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .map(|l| l.trim_start_matches(field).trim().to_string())
        })
        .unwrap_or_else(|| "unknown (no /proc)".into())
}
