//! What an overlay view costs on a real repository: opens the index (warm when `--home` holds its
//! snapshot), then for each given file builds views of two kinds of edit — a body edit (a call
//! added inside the first function: no declaration changes) and an added declaration (a function
//! appended) — and brings the second view to one more buffer (another function appended), as an
//! editor's next keystrokes would. Prints one JSON line per file and edit with the builds' reports
//! (mode, layout, phases, wall time) and the live heap the view holds, counted exactly by the
//! allocator: once built, without its kept lookup tables, with its symbol index, after it is
//! dropped. The per-phase companion of `benches/overlay-bench.ts`, which measures the same
//! through MCP sessions (as resident memory, which freed pages blur).
//!
//! With `--many N,M,…`, also builds a view of N source files of the repository (picked evenly
//! along the file list, one function appended to each) for each count, and pushes one more buffer
//! to it.
//!
//! ```text
//! cargo build --release -p gortex-index --example overlay_probe
//! overlay_probe ROOT --home DIR [--many 1,10,100] FILE…
//! ```

use gortex_core::OverlayFiles;
use gortex_index::{IndexOptions, RepoIndex};
use serde_json::json;
use std::alloc::{GlobalAlloc, Layout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;

/// mimalloc, counting the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is passed to mimalloc unchanged; only a counter is updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        LIVE.fetch_add(size as i64 - layout.size() as i64, Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("overlay_probe: {what}: {e}");
    std::process::exit(1);
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! { fail("usage", "overlay_probe ROOT --home DIR FILE…") };
    let (mut root, mut home, mut files, mut many) = (None, None, Vec::new(), Vec::<usize>::new());
    let mut it = raw.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--home" => home = Some(PathBuf::from(it.next().unwrap_or_else(|| usage()))),
            "--many" => {
                let list = it.next().unwrap_or_else(|| usage());
                many = list
                    .split(',')
                    .map(|n| n.parse().unwrap_or_else(|e| fail("--many", e)))
                    .collect();
            }
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
    base.symbol_index();
    // Name lists are built once per graph by the first lookup; a view's build reads the base's.
    base.graph.named("main");
    eprintln!("base heap {} MB", live_kb() / 1024);
    let sources: Vec<&str> = base
        .files
        .iter()
        .map(|r| &*r.path)
        .filter(|p| p.ends_with(".go") && !p.ends_with("_test.go"))
        .collect();
    for n in many {
        let picked: Vec<&str> = (0..n).map(|i| sources[i * sources.len() / n.max(1)]).collect();
        let mut overlay = OverlayFiles::new();
        for (i, rel) in picked.iter().enumerate() {
            let text = std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| fail(rel, e));
            let content = format!("{text}\nfunc GortexProbe{i}() int {{ return {i} }}\n");
            overlay.insert(rel.to_string(), Some(Arc::<[u8]>::from(content.into_bytes())));
        }
        let before = live_kb();
        let (mut view, built) = base.overlay_view(&overlay).unwrap_or_else(|e| fail("overlay_view", e));
        let with_view = live_kb();
        let first = picked[0];
        let text = std::fs::read_to_string(root.join(first)).unwrap_or_else(|e| fail(first, e));
        let next =
            format!("{text}\nfunc GortexProbe0() int {{ return 0 }}\n\nfunc GortexProbeNext() int {{ return 1 }}\n");
        overlay.insert(first.to_string(), Some(Arc::<[u8]>::from(next.into_bytes())));
        let updated = view
            .overlay_update(&base, &overlay)
            .unwrap_or_else(|e| fail("overlay_update", e));
        let after_push = live_kb();
        drop(view);
        let after_drop = live_kb();
        let mb = |kb: u64| mb_since(before, kb);
        println!(
            "{}",
            json!({
                "files": n, "built": built, "next_push": updated,
                "heap_mb": { "view": mb(with_view), "after_next_push": mb(after_push), "after_drop": mb(after_drop) }
            })
        );
    }
    for rel in files {
        let text = std::fs::read_to_string(root.join(&rel)).unwrap_or_else(|e| fail(&rel, e));
        let buffer = |content: String| {
            let mut o = OverlayFiles::new();
            o.insert(rel.clone(), Some(Arc::<[u8]>::from(content.into_bytes())));
            o
        };
        // A call added at the top of the first function's body.
        let body_edit = text.find("func ").and_then(|at| {
            let open = at + text[at..].find("{\n")? + 2;
            Some(format!("{}\t_ = len(\"gortex\")\n{}", &text[..open], &text[open..]))
        });
        let appended = format!("{text}\nfunc GortexProbeA() int {{ return 1 }}\n");
        let next = format!("{appended}\nfunc GortexProbeB() int {{ return GortexProbeA() }}\n");
        let edits = [("body edit", body_edit), ("function appended", Some(appended))];
        for (edit, content) in edits {
            let Some(content) = content else { continue };
            let before = live_kb();
            let (mut view, built) = base
                .overlay_view(&buffer(content))
                .unwrap_or_else(|e| fail("overlay_view", e));
            let with_view = live_kb();
            let t = std::time::Instant::now();
            view.symbol_index();
            let first_search_ms = t.elapsed().as_millis() as u64;
            let with_symbols = live_kb();
            let updated = view
                .overlay_update(&base, &buffer(next.clone()))
                .unwrap_or_else(|e| fail("overlay_update", e));
            let after_push = live_kb();
            let released = view.release_build_caches();
            let without_tables = live_kb();
            drop(view);
            let after_drop = live_kb();
            let mb = |kb: u64| mb_since(before, kb);
            println!(
                "{}",
                json!({
                    "file": rel, "edit": edit, "built": built, "first_symbol_index_ms": first_search_ms,
                    "next_push": updated,
                    "heap_mb": {
                        "view": mb(with_view), "with_symbol_index": mb(with_symbols), "after_next_push": mb(after_push),
                        "without_kept_tables": mb(without_tables), "tables_were_kept": released, "after_drop": mb(after_drop)
                    }
                })
            );
        }
    }
}

/// MB (one decimal) the live heap grew from `before` to `now` (KiB).
fn mb_since(before: u64, now: u64) -> f64 {
    ((now as i64 - before as i64) as f64 / 1024.0 * 10.0).round() / 10.0
}

/// Live heap in KiB: bytes allocated and not freed.
fn live_kb() -> u64 {
    (LIVE.load(Ordering::Relaxed).max(0) / 1024) as u64
}
