//! Indexing benchmark driver, one mode per process so the harness can measure each mode's peak RSS
//! (`/usr/bin/time -f '%e %M'`). Prints one JSON object on stdout.
//!
//! ```text
//! cargo build --release -p gortex-index --example bench_index
//! bench_index parse-only  ROOT --threads N [--files LIST]   walk + read + tree-sitter parse, no queries, no graph
//! bench_index cold        ROOT --threads N --home DIR [--list-out LIST]   forced full index, snapshot saved
//! bench_index warm        ROOT --threads N --home DIR       open on the saved snapshot of an unchanged tree
//! bench_index memory      ROOT --threads N --home DIR       open for editing (as the daemon does) and
//!     report the bytes per structure, what each lazily built index adds, and what releasing the
//!     rebuildable caches gives back (live allocator bytes counted; RSS from /proc)
//! bench_index incremental ROOT --threads N --home DIR [--touch 10]
//!     open; append a comment to TOUCH files and time `update_paths` on them (first call: includes
//!     query compilation); restore them and time `update_paths` again (steady state); append to
//!     TOUCH other files and time `refresh`; then insert a line at the top of the first TOUCH
//!     files and `update_paths` them, put them back and time `update_paths` (an edit whose
//!     facts change); every touched file is restored afterwards
//! ```
//! `--list-out` writes the repo-relative paths the index parsed, one per line; `parse-only --files`
//! reads such a list so that parse-only covers exactly the files the index parsed (the walker's
//! candidates minus files skipped as minified/generated/binary).
//! Driven by `benches/index-bench.ts` (`npm run bench:index`).

/// Same allocator as the shipped addon, so the numbers match what users get; `memory` mode also
/// counts the bytes live in it (the other modes leave the counter off).
#[global_allocator]
static GLOBAL: Counting = Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// mimalloc with a live-bytes counter that runs only while `COUNTING` is set.
struct Counting;

// SAFETY: every call is forwarded to mimalloc unchanged; the counter only observes sizes (and
// only of calls that succeeded: a failed realloc leaves the old block live at its old size).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = mimalloc::MiMalloc.alloc(layout);
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        mimalloc::MiMalloc.dealloc(ptr, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = mimalloc::MiMalloc.alloc_zeroed(layout);
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = mimalloc::MiMalloc.realloc(ptr, layout, new_size);
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
}

use gortex_core::Language;
use gortex_index::{walk, IndexOptions, IndexReport, RepoIndex};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::Instant;

struct Args {
    mode: String,
    root: PathBuf,
    threads: usize,
    home: Option<PathBuf>,
    files: Option<PathBuf>,
    list_out: Option<PathBuf>,
    touch: usize,
}

fn usage() -> ! {
    eprintln!("usage: bench_index parse-only|cold|warm|incremental ROOT --threads N [--home DIR] [--files LIST] [--list-out LIST] [--touch N]");
    std::process::exit(2);
}

fn parse_args() -> Args {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.len() < 2 {
        usage();
    }
    let mut args = Args {
        mode: raw[0].clone(),
        root: PathBuf::from(&raw[1]),
        threads: 0,
        home: None,
        files: None,
        list_out: None,
        touch: 10,
    };
    let mut i = 2;
    while i < raw.len() {
        let value = raw.get(i + 1).cloned().unwrap_or_else(|| usage());
        match raw[i].as_str() {
            "--threads" => args.threads = value.parse().unwrap_or_else(|_| usage()),
            "--home" => args.home = Some(PathBuf::from(value)),
            "--files" => args.files = Some(PathBuf::from(value)),
            "--list-out" => args.list_out = Some(PathBuf::from(value)),
            "--touch" => args.touch = value.parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
        i += 2;
    }
    args
}

fn ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0
}

fn options(args: &Args) -> IndexOptions {
    let home = args.home.clone().unwrap_or_else(|| usage());
    let mut o = IndexOptions::new(home);
    o.threads = args.threads;
    o
}

fn report_json(r: &IndexReport) -> Value {
    let bytes: u64 = r.languages.values().map(|l| l.bytes).sum();
    json!({
        "mode": r.mode,
        "files": r.files.total,
        "parsed": r.files.parsed,
        "reused": r.files.reused,
        "bytes": bytes,
        "nodes": r.nodes.total,
        "edges": r.edges.total,
        "unresolved": r.edges.unresolved,
        "skipped": r.skipped.len(),
        "skipped_by_reason": r.skipped_by_reason,
        "failures": r.failures.len(),
        "syntax_error_files": r.syntax_error_files,
        "snapshot_bytes": r.snapshot.bytes,
        "threads": r.threads,
        "report_wall_ms": r.wall_ms,
        "phases_ms": r.phases_ms,
        "graph_layout": r.graph_layout,
        "lookup_tables": r.lookup_tables,
    })
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("bench_index: {what}: {e}");
    std::process::exit(1);
}

fn parse_only(args: &Args) -> Value {
    let wanted: Option<std::collections::HashSet<String>> = args.files.as_ref().map(|p| {
        std::fs::read_to_string(p)
            .unwrap_or_else(|e| fail("reading --files", e))
            .lines()
            .map(str::to_string)
            .collect()
    });
    let n = if args.threads == 0 {
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
    } else {
        args.threads
    };
    let root = std::fs::canonicalize(&args.root).unwrap_or_else(|e| fail("root", e));
    let started = Instant::now();
    // Same pool shape as the indexer (stack size included), built inside the timed region as it is there.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .stack_size(16 * 1024 * 1024)
        .build()
        .unwrap_or_else(|e| fail("pool", e));
    let defaults = IndexOptions::new(PathBuf::new());
    let walk_options = walk::WalkOptions {
        excluded_dirs: defaults.excluded_dirs.clone(),
        exclude: defaults.exclude.clone(),
        max_file_size: defaults.max_file_size,
        respect_gitignore: defaults.respect_gitignore,
    };
    let t = Instant::now();
    let walked = pool.install(|| walk::walk(&root, &walk_options));
    let walk_ms = ms(t);
    let candidates: Vec<&walk::Candidate> = walked
        .sources
        .iter()
        .filter(|c| wanted.as_ref().is_none_or(|w| w.contains(&c.rel)))
        .collect();
    let t = Instant::now();
    let (bytes, failures) = pool.install(|| {
        candidates
            .par_iter()
            .map(|c| match std::fs::read(&c.abs) {
                Ok(src) => {
                    let ok = gortex_lang::parse(c.language, &src, defaults.parse_budget).is_ok();
                    (src.len() as u64, usize::from(!ok))
                }
                Err(_) => (0, 1),
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    let parse_ms = ms(t);
    json!({
        "mode": "parse-only",
        "threads": n,
        "files": candidates.len(),
        "walked": walked.sources.len(),
        "bytes": bytes,
        "failures": failures,
        "wall_ms": ms(started),
        "phases_ms": { "walk": walk_ms, "parse": parse_ms },
    })
}

fn open(args: &Args, opts: &IndexOptions) -> (RepoIndex, IndexReport, f64) {
    let t = Instant::now();
    let (index, report) =
        RepoIndex::open(&args.root, opts, &|_| {}, &AtomicBool::new(false)).unwrap_or_else(|e| fail("open", e));
    (index, report, ms(t))
}

fn comment_for(language: Language) -> &'static [u8] {
    match language {
        Language::Python => b"\n# gortex bench touch\n",
        _ => b"\n// gortex bench touch\n",
    }
}

/// Appends a comment to each file; returns the originals for restoring.
/// Appends a comment (text no extractor reads) to each file; returns the originals.
fn touch(root: &Path, files: &[(String, Language)]) -> Vec<(PathBuf, Vec<u8>)> {
    rewrite(root, files, |before, lang| [before, comment_for(lang)].concat())
}

/// Writes `change(content, language)` over each file; returns the originals for [`restore`].
fn rewrite(
    root: &Path,
    files: &[(String, Language)],
    change: impl Fn(&[u8], Language) -> Vec<u8>,
) -> Vec<(PathBuf, Vec<u8>)> {
    let mut originals = Vec::new();
    for (rel, lang) in files {
        let abs = root.join(rel);
        let before = std::fs::read(&abs).unwrap_or_else(|e| fail("reading a file to edit", e));
        std::fs::write(&abs, change(&before, *lang)).unwrap_or_else(|e| fail("editing a file", e));
        originals.push((abs, before));
    }
    originals
}

fn restore(originals: &[(PathBuf, Vec<u8>)]) {
    for (abs, bytes) in originals {
        if let Err(e) = std::fs::write(abs, bytes) {
            eprintln!("bench_index: could not restore {}: {e}", abs.display());
        }
    }
}

/// `count` files spread evenly over the (sorted) file list, starting at `offset`.
fn pick(index: &RepoIndex, count: usize, offset: usize) -> Vec<(String, Language)> {
    let n = index.files.len();
    if n == 0 {
        return Vec::new();
    }
    let step = (n / (2 * count.max(1))).max(1);
    (0..count.min(n))
        .map(|i| &index.files[(offset + i * 2 * step) % n])
        .map(|r| (r.path.to_string(), r.language))
        .collect()
}

extern "C" {
    /// mimalloc's own collection: frees empty pages and returns their memory to the OS.
    fn mi_collect(force: bool);
}

/// Arena memory committed on demand, as the addon has it (`ts/engine/native.ts` sets
/// `MIMALLOC_ARENA_EAGER_COMMIT=0` before loading it), so the figures are the ones users get.
/// mimalloc reads the setting when it reserves its first arena, before `main`: without the
/// variable, the bench runs itself again with it (its peak RSS is then the child's, which
/// `/usr/bin/time` reports as the largest of the process tree).
fn allocator_as_shipped() {
    if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_some() {
        return;
    }
    let exe = std::env::current_exe().unwrap_or_else(|e| fail("finding this executable", e));
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("MIMALLOC_ARENA_EAGER_COMMIT", "0")
        .status()
        .unwrap_or_else(|e| fail("running the bench again", e));
    std::process::exit(status.code().unwrap_or(1));
}

/// Live allocator bytes (while counting) and the process's resident set, in MB.
fn sample() -> Value {
    let rss_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("VmRSS:")
                    .map(|v| v.trim().trim_end_matches(" kB").trim().parse::<f64>().ok())
            })
        })
        .flatten()
        .unwrap_or(0.0);
    json!({ "live_mb": mb(LIVE.load(Ordering::Relaxed).max(0) as usize), "rss_mb": (rss_kb / 1024.0).round() })
}

fn mb(bytes: usize) -> f64 {
    (bytes as f64 / 1048576.0 * 10.0).round() / 10.0
}

/// `memory` mode: what a repository opened for editing holds, per structure, and what each
/// lazily built index adds to it.
fn memory(args: &Args) -> Value {
    COUNTING.store(std::env::var_os("BENCH_NO_COUNT").is_none(), Ordering::Relaxed);
    let mut opts = options(args);
    opts.keep_build_caches = true;
    let (index, report, wall) = open(args, &opts);
    let opened = sample();
    let structures = index.memory_report();
    let calls = call_coverage(&index);
    let live = || LIVE.load(Ordering::Relaxed);
    let mut steps = Vec::new();
    let mut step = |what: &str, f: &dyn Fn()| {
        let before = live();
        let t = Instant::now();
        f();
        steps.push(json!({ "step": what, "ms": ms(t), "delta_mb": (before.abs_diff(live()) as f64 / 1048576.0 * 10.0).round() / 10.0 * if live() >= before { 1.0 } else { -1.0 }, "after": sample() }));
    };
    let q = |tool: &str, args: Value| {
        index.query(tool, args).unwrap_or_else(|e| fail(tool, e.message));
    };
    step("mimalloc collect (freed pages returned to the OS)", &|| {
        // SAFETY: mimalloc is the global allocator's backend; collecting is valid at any time.
        unsafe { mi_collect(true) };
    });
    step("release the resolver's kept lookup tables", &|| {
        index.release_build_caches();
    });
    step("search_symbols (builds the symbol index)", &|| {
        q("search_symbols", json!({ "query": "handler" }))
    });
    step("search_text (builds the trigram index)", &|| {
        q("search_text", json!({ "query": "func main" }))
    });
    step("release every rebuildable cache", &|| {
        index.release_caches();
    });
    json!({
        "wall_ms": wall,
        "report": report_json(&report),
        "opened": opened,
        "structures_mb": structure_mb(&structures),
        "structures_total_mb": mb(structures.total),
        "calls": calls,
        "steps": steps,
    })
}

/// Call sites by outcome: bound to a repository declaration (by tier), to an external stub, or
/// left unresolved (what `resolved-call coverage` is computed from).
fn call_coverage(index: &RepoIndex) -> Value {
    use gortex_core::EdgeKind;
    let g = &index.graph;
    let mut by_origin = std::collections::BTreeMap::<&str, usize>::new();
    let (mut external, mut resolved) = (0usize, 0usize);
    for e in g.edges().filter(|e| e.kind == EdgeKind::Calls) {
        if g.node_at(e.to).external {
            external += 1;
        } else {
            resolved += 1;
            *by_origin.entry(e.origin.as_str()).or_default() += 1;
        }
    }
    let unresolved = g.unresolved().filter(|u| u.kind == EdgeKind::Calls).count();
    let total = resolved + external + unresolved;
    json!({
        "resolved": resolved,
        "external": external,
        "unresolved": unresolved,
        "resolved_by_origin": by_origin,
        "coverage": if total == 0 { 0.0 } else { (resolved as f64 / total as f64 * 1000.0).round() / 1000.0 },
    })
}

/// The memory report in MB, one key per structure.
fn structure_mb(r: &gortex_index::memory::MemoryReport) -> Value {
    let g = &r.graph;
    json!({
        "graph.node_table": mb(g.node_table),
        "graph.node_strings": mb(g.node_strings),
        "graph.edges": mb(g.edges),
        "graph.adjacency": mb(g.adjacency),
        "graph.unresolved": mb(g.unresolved),
        "graph.lookup_maps": mb(g.lookup_maps),
        "facts.files": mb(g.facts.files),
        "facts.symbols": mb(g.facts.symbols),
        "facts.refs": mb(g.facts.refs),
        "facts.bindings": mb(g.facts.bindings),
        "facts.imports": mb(g.facts.imports),
        "file_records": mb(r.file_records),
        "resolutions.paths": mb(r.resolutions.paths),
        "resolutions.edges": mb(r.resolutions.edges),
        "resolutions.external": mb(r.resolutions.external),
        "resolutions.unresolved": mb(r.resolutions.unresolved),
        "resolutions.deps": mb(r.resolutions.deps),
        "resolutions.derived": mb(r.resolutions.derived),
        "search": mb(r.search.total()),
    })
}

fn main() {
    allocator_as_shipped();
    let args = parse_args();
    let out = match args.mode.as_str() {
        "parse-only" => parse_only(&args),
        "cold" => {
            let mut opts = options(&args);
            opts.force = true;
            let (index, report, wall) = open(&args, &opts);
            if let Some(list) = &args.list_out {
                let text: String = index.files.iter().map(|r| format!("{}\n", r.path)).collect();
                std::fs::write(list, text).unwrap_or_else(|e| fail("writing --list-out", e));
            }
            json!({ "wall_ms": wall, "report": report_json(&report) })
        }
        "memory" => memory(&args),
        "warm" => {
            let opts = options(&args);
            let (_index, report, wall) = open(&args, &opts);
            json!({ "wall_ms": wall, "report": report_json(&report) })
        }
        "incremental" => {
            let opts = options(&args);
            let (mut index, open_report, open_wall) = open(&args, &opts);
            let root = index.root.clone();
            let first = pick(&index, args.touch, 0);
            let second = pick(&index, args.touch, (index.files.len() / (4 * args.touch.max(1))).max(1));
            let paths: Vec<String> = first.iter().map(|(p, _)| p.clone()).collect();
            // 1. Touch 10 files, `update_paths` them: the first extraction in this process also
            //    compiles the languages' queries (what a freshly restarted server pays once).
            let originals = touch(&root, &first);
            let t = Instant::now();
            let update = index.update_paths(&paths, &opts);
            let first_ms = ms(t);
            // 2. Restore them and `update_paths` again: 10 changed files with queries already compiled
            //    (the steady state of a running watcher).
            restore(&originals);
            let update = update.unwrap_or_else(|e| fail("update_paths", e));
            let t = Instant::now();
            let steady = index
                .update_paths(&paths, &opts)
                .unwrap_or_else(|e| fail("update_paths", e));
            let steady_ms = ms(t);
            // 3. Touch 10 other files and let `refresh` find them (walk + stat of the whole tree).
            let originals2 = touch(&root, &second);
            let t = Instant::now();
            let refresh = index.refresh(&opts, &|_| {}, &AtomicBool::new(false));
            let refresh_ms = ms(t);
            restore(&originals2);
            let refresh = refresh.unwrap_or_else(|e| fail("refresh", e));
            // 4. An edit the extractors see: a line inserted at the top of the first 10 files
            //    moves every span in them (steps 1–2 changed only text no extractor reads, and
            //    the graph is carried over). Then put back, which moves them again: the second
            //    update runs with the lookup tables the first kept.
            let moved = rewrite(&root, &first, |before, _| [&b"\n"[..], before].concat());
            let edit_first = index.update_paths(&paths, &opts);
            restore(&moved);
            let edit_first = edit_first.unwrap_or_else(|e| fail("update_paths", e));
            let t = Instant::now();
            let edit = index
                .update_paths(&paths, &opts)
                .unwrap_or_else(|e| fail("update_paths", e));
            let edit_ms = ms(t);
            json!({
                "open_wall_ms": open_wall,
                "open_mode": open_report.mode,
                "touched": paths,
                "update_paths_first_ms": first_ms,
                "update_paths_first": report_json(&update),
                "update_paths_ms": steady_ms,
                "update_paths": report_json(&steady),
                "refresh_ms": refresh_ms,
                "refresh": report_json(&refresh),
                "edit_first": report_json(&edit_first),
                "edit_ms": edit_ms,
                "edit": report_json(&edit),
            })
        }
        _ => usage(),
    };
    println!("{out}");
}
