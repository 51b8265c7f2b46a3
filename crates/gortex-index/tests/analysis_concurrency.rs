//! The AST-sourced kinds of `analyze` (`goroutine_spawns`, `channel_ops`, `unclosed_channels`,
//! `unsafe_patterns`, `cgo_users`, `wasm_users`) through the query door, on a real index of
//! `test/fixtures/concurrency`, with exact expected rows.
//!
//! Fixture shape (planted facts):
//! - `go/server.go`: `Server.events` is made (in a struct literal), sent to and ranged over but
//!   never closed (a leak); `Server.done` is made and closed; `Run` starts `go s.loop()`.
//!   `fanOut` makes `results`, starts a goroutine per job (in a loop) that sends to it, receives,
//!   never closes and never passes it on (unclosed). `pipeline` returns `out` (closed by its
//!   goroutine); `handoff` passes `ch` to `go worker(ch)` (escapes); `worker` ranges over its
//!   parameter `jobs`.
//! - `go/race.go`: `tally` starts two goroutines per key: one writes the captured `count` and
//!   `seen[key]` unguarded (and its own `local`), the other `c.total` under `c.mu.Lock()`;
//!   `NewCounter` and `tally` write `total`, `tally` writes `hits`.
//! - `go/cgo.go` imports "C" and uses `C.CString`, `C.free` and `unsafe.Pointer`;
//!   `go/linkname.go` has a `//go:linkname` and `unsafe.Sizeof`; `go/wasm.go` imports
//!   `syscall/js`.
//! - `rust/lib.rs`: `#[wasm_bindgen]`, `thread::spawn` in a loop, `tokio::spawn`, an unsafe fn, an
//!   unsafe block, an unsafe impl, an extern block. `py/jobs.py`: a thread per item (in a loop),
//!   `asyncio.create_task`. `java/Jobs.java`: `new Thread`, `pool.submit`. `web/worker.ts`:
//!   `new Worker`, `WebAssembly.instantiate`; `web/store.ts` and `py/jobs.py` write fields from
//!   constructors and methods. `cs/Native.cs`: an unsafe method with `fixed`, an
//!   unsafe block with `stackalloc`.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("concurrency"))
}

fn analyze(args: Value) -> Value {
    let r = repo().query("analyze", args).unwrap();
    assert_eq!(r["evidence"], json!("ast"));
    assert!(r.get("skipped").is_none(), "{r}");
    r
}

/// `(mechanism, callee, function, line, in_loop, target)` of each spawn.
fn spawn_rows(r: &Value) -> Vec<(String, String, String, u64, bool, String)> {
    r["spawns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["mechanism"].as_str().unwrap().to_string(),
                s["callee"].as_str().unwrap().to_string(),
                s["function"]["qual_name"].as_str().unwrap_or("").to_string(),
                s["line"].as_u64().unwrap(),
                s["in_loop"].as_bool().unwrap(),
                s["target"]["qual_name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn goroutine_spawns_finds_every_mechanism_with_its_function_and_loop() {
    let r = analyze(json!({ "kind": "goroutine_spawns" }));
    let want: Vec<(String, String, String, u64, bool, String)> = [
        ("goroutine", "func literal", "tally", 16, true, ""),
        ("goroutine", "func literal", "tally", 22, true, ""),
        ("goroutine", "s.loop", "Server.Run", 18, false, "Server.loop"),
        ("goroutine", "func literal", "fanOut", 35, true, ""),
        ("goroutine", "func literal", "pipeline", 47, false, ""),
        ("goroutine", "worker", "handoff", 57, false, "worker"),
        ("thread", "Thread", "Jobs.run", 5, false, ""),
        ("task", "submit", "Jobs.run", 6, false, ""),
        ("thread", "threading.Thread", "start", 7, true, ""),
        ("task", "asyncio.create_task", "schedule", 11, false, ""),
        ("thread", "thread::spawn", "spawn_workers", 11, true, ""),
        ("task", "tokio::spawn", "background", 16, false, ""),
        ("worker", "Worker", "startWorker", 2, false, ""),
    ]
    .iter()
    .map(|(m, c, f, l, i, t)| (m.to_string(), c.to_string(), f.to_string(), *l, *i, t.to_string()))
    .collect();
    assert_eq!(spawn_rows(&r), want);
    assert_eq!(
        r["by_mechanism"],
        json!({ "goroutine": 6, "thread": 3, "task": 3, "worker": 1 })
    );
    assert_eq!(
        (&r["functions"], &r["in_loops"], &r["total"]),
        (&json!(11), &json!(5), &json!(13))
    );
    let go = analyze(json!({ "kind": "goroutine_spawns", "path_prefix": "go/server.go", "limit": 1 }));
    assert_eq!((&go["total"], &go["truncated"]), (&json!(4), &json!(true)));
    assert_eq!(go["spawns"][0]["text"], json!("go s.loop()"));
}

/// `(channel, its function or "(field)", [makes, sends, receives, ranges, closes])` of each row.
fn channel_rows(r: &Value) -> Vec<(String, String, [u64; 5])> {
    r["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let n = |k: &str| c[k].as_u64().unwrap();
            (
                c["channel"].as_str().unwrap().to_string(),
                c["function"]["qual_name"].as_str().unwrap_or("(field)").to_string(),
                [n("makes"), n("sends"), n("receives"), n("ranges"), n("closes")],
            )
        })
        .collect()
}

#[test]
fn channel_ops_counts_each_channels_operations() {
    let r = analyze(json!({ "kind": "channel_ops" }));
    let want: Vec<(String, String, [u64; 5])> = [
        ("events", "(field)", [1, 1, 0, 1, 0]),
        ("out", "pipeline", [1, 1, 0, 0, 1]),
        ("results", "fanOut", [1, 1, 1, 0, 0]),
        ("ch", "handoff", [1, 1, 0, 0, 0]),
        ("done", "(field)", [1, 0, 0, 0, 1]),
        ("jobs", "worker", [0, 0, 0, 1, 0]),
    ]
    .iter()
    .map(|(c, f, n)| (c.to_string(), f.to_string(), *n))
    .collect();
    assert_eq!(channel_rows(&r), want);
    assert_eq!(
        r["totals"],
        json!({ "make": 5, "send": 4, "receive": 1, "range": 2, "close": 2 })
    );
    // A `range` over a slice (`for _, j := range jobs` in fanOut) is not a channel operation.
    assert!(!channel_rows(&r).iter().any(|(c, f, _)| c == "jobs" && f == "fanOut"));
    let events = analyze(json!({ "kind": "channel_ops", "channel": "events" }));
    assert_eq!(events["channels"][0]["declared_as"], json!("field"));
    assert_eq!(
        events["channels"][0]["sites"],
        json!([
            { "op": "make", "path": "go/server.go", "line": 10 },
            { "op": "send", "path": "go/server.go", "line": 14 },
            { "op": "range", "path": "go/server.go", "line": 22 }
        ])
    );
}

#[test]
fn unclosed_channels_reports_the_leak_and_leaves_escaping_locals_out() {
    let r = analyze(json!({ "kind": "unclosed_channels" }));
    let rows: Vec<(String, String)> = r["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["channel"].as_str().unwrap().to_string(),
                c["risk"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [("events", "leak"), ("results", "unclosed")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!((&r["closed"], &r["escaping"]), (&json!(2), &json!(1)));
}

#[test]
fn unsafe_patterns_cover_go_rust_and_csharp() {
    let r = analyze(json!({ "kind": "unsafe_patterns" }));
    let sites: Vec<(String, String, u64, String)> = r["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["pattern"].as_str().unwrap().to_string(),
                s["path"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
                s["symbol"]["qual_name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, u64, String)> = [
        ("unsafe member", "cs/Native.cs", 3, "Native.First"),
        ("fixed", "cs/Native.cs", 5, "Native.First"),
        ("unsafe block", "cs/Native.cs", 13, "Native.Scratch"),
        ("stackalloc", "cs/Native.cs", 15, "Native.Scratch"),
        ("unsafe.Pointer", "go/cgo.go", 10, "cString"),
        ("go:linkname", "go/linkname.go", 5, ""),
        ("unsafe.Sizeof", "go/linkname.go", 9, "sizeOf"),
        ("unsafe fn", "rust/lib.rs", 19, "raw_read"),
        ("unsafe block", "rust/lib.rs", 24, "peek"),
        ("unsafe impl", "rust/lib.rs", 29, ""),
        ("extern block", "rust/lib.rs", 31, ""),
    ]
    .iter()
    .map(|(p, f, l, s)| (p.to_string(), f.to_string(), *l, s.to_string()))
    .collect();
    assert_eq!(sites, want);
    assert_eq!((&r["files"], &r["total"]), (&json!(4), &json!(11)));
    let rust = analyze(json!({ "kind": "unsafe_patterns", "path_prefix": "rust/" }));
    assert_eq!(
        rust["by_pattern"],
        json!({ "extern block": 1, "unsafe block": 1, "unsafe fn": 1, "unsafe impl": 1 })
    );
}

#[test]
fn cgo_and_wasm_users_name_the_files_and_what_they_use() {
    let cgo = analyze(json!({ "kind": "cgo_users" }));
    assert_eq!(
        cgo["files"],
        json!([{ "path": "go/cgo.go", "language": "go", "via": ["import \"C\""], "uses": 2, "names": ["C.CString", "C.free"] }])
    );
    let wasm = analyze(json!({ "kind": "wasm_users" }));
    assert_eq!(
        wasm["files"],
        json!([
            { "path": "go/wasm.go", "language": "go", "via": ["syscall/js"], "uses": 0, "names": [] },
            { "path": "rust/lib.rs", "language": "rust", "via": ["wasm_bindgen"], "uses": 1, "names": ["#[wasm_bindgen]"] },
            { "path": "web/worker.ts", "language": "typescript", "via": ["WebAssembly"], "uses": 1, "names": ["WebAssembly.instantiate"] }
        ])
    );
}

#[test]
fn bad_arguments_are_refused_and_an_overlay_is_swept_from_its_buffers() {
    for (args, word) in [
        (json!({ "kind": "channel_ops", "limit": 0 }), "limit"),
        (
            json!({ "kind": "unsafe_patterns", "path_prefix": "/etc" }),
            "path_prefix",
        ),
        (json!({ "kind": "cgo_users", "names": 3 }), "names"),
    ] {
        let e = repo().query("analyze", args).unwrap_err();
        assert_eq!(e.code, "invalid_argument");
        assert!(e.message.contains(word), "{}", e.message);
    }
    // An unsaved buffer closes `results`: the view no longer reports it, the base still does.
    let text = std::fs::read_to_string(fixtures().join("concurrency/go/server.go")).unwrap();
    let edited = text.replace(
        "\tfor range jobs {\n\t\t<-results\n\t}\n",
        "\tfor range jobs {\n\t\t<-results\n\t}\n\tclose(results)\n",
    );
    assert_ne!(edited, text);
    let mut overlay = gortex_core::OverlayFiles::new();
    overlay.insert("go/server.go".into(), Some(std::sync::Arc::from(edited.into_bytes())));
    let (view, _) = repo().overlay_view(&overlay).unwrap();
    let r = view.query("analyze", json!({ "kind": "unclosed_channels" })).unwrap();
    assert_eq!(r["total"], json!(1));
    assert_eq!(analyze(json!({ "kind": "unclosed_channels" }))["total"], json!(2));
}

#[test]
fn race_writes_finds_shared_writes_in_goroutines() {
    let r = analyze(json!({ "kind": "race_writes" }));
    let rows: Vec<(String, String, u64, bool, String)> = r["writes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["target"].as_str().unwrap().to_string(),
                w["shared"].as_str().unwrap().to_string(),
                w["line"].as_u64().unwrap(),
                w["guarded"].as_bool().unwrap(),
                w["function"]["qual_name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, u64, bool, String)> = [
        ("count", "captured", 19, false, "tally"),
        ("seen[key]", "element", 20, false, "tally"),
        ("c.total", "field", 24, true, "tally"),
    ]
    .iter()
    .map(|(t, s, l, g, f)| (t.to_string(), s.to_string(), *l, *g, f.to_string()))
    .collect();
    assert_eq!(rows, want);
    assert_eq!((&r["unguarded"], &r["goroutines"]), (&json!(2), &json!(4)));
    let unguarded = analyze(json!({ "kind": "race_writes", "unguarded_only": true }));
    assert_eq!(unguarded["total"], json!(2));
}

#[test]
fn field_writers_lists_who_assigns_each_field() {
    let r = analyze(json!({ "kind": "field_writers" }));
    let rows: Vec<(String, Vec<String>, u64, usize)> = r["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap().to_string(),
                f["writers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|w| w["function"]["qual_name"].as_str().unwrap().to_string())
                    .collect(),
                f["outside_constructors"].as_u64().unwrap(),
                f["declared"].as_array().unwrap().len(),
            )
        })
        .collect();
    let want: Vec<(String, Vec<String>, u64, usize)> = [
        ("count", vec!["Store.bump", "Store.constructor", "Store.reset"], 2, 1),
        ("seen", vec!["Tracker.__init__", "Tracker.mark"], 1, 1),
        ("total", vec!["NewCounter", "tally"], 1, 1),
        ("hits", vec!["tally"], 1, 1),
    ]
    .iter()
    .map(|(f, w, o, d)| (f.to_string(), w.iter().map(|s| s.to_string()).collect(), *o, *d))
    .collect();
    assert_eq!(rows, want);
    let one = analyze(json!({ "kind": "field_writers", "field": "total" }));
    assert_eq!(one["total"], json!(1));
    assert_eq!(one["fields"][0]["declared"][0]["qual_name"], json!("Counter.total"));
    assert_eq!(one["fields"][0]["writers"][1]["lines"], json!([24]));
}
