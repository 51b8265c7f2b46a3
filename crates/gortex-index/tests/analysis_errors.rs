//! `analyze kind=error_surface` through the query door, on a real index of
//! `test/fixtures/errors`, with exact expected rows.
//!
//! Fixture shape (planted facts): `py/service.py` — `load` raises `ValueError` and `NotFound`;
//! `fetch` calls `load`; `safe_fetch` calls it inside a `try`; `handler` calls both and raises
//! `PermissionError`; `retry` re-raises what it caught (nothing new). `go/store.go` — `Get`
//! returns `fmt.Errorf("bad id %d")` and the sentinel `ErrNotFound`. `ts/api.ts` — `get` throws
//! `new HttpError`.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("errors"))
}

fn analyze(args: Value) -> Value {
    let r = repo().query("analyze", args).unwrap();
    assert_eq!(r["evidence"], json!("ast"));
    r
}

#[test]
fn a_functions_surface_follows_calls_but_not_into_try_bodies() {
    let r = analyze(json!({ "kind": "error_surface", "symbol": "handler" }));
    assert_eq!(r["symbol"]["qual_name"], json!("handler"));
    let rows: Vec<(String, u64, String, Vec<String>)> = r["surfaced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["error"].as_str().unwrap().to_string(),
                e["depth"].as_u64().unwrap(),
                e["raised_by"]["qual_name"].as_str().unwrap().to_string(),
                e["via"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let s = |v: &str| v.to_string();
    assert_eq!(
        rows,
        vec![
            (s("PermissionError"), 0, s("handler"), vec![]),
            (s("NotFound"), 2, s("load"), vec![s("fetch"), s("load")]),
            (s("ValueError"), 2, s("load"), vec![s("fetch"), s("load")]),
        ]
    );
    // One call deep, load is out of reach.
    let shallow = analyze(json!({ "kind": "error_surface", "symbol": "handler", "depth": 1 }));
    assert_eq!(shallow["total"], json!(1));
    // safe_fetch calls load only inside a try; retry re-raises what it caught.
    assert_eq!(
        analyze(json!({ "kind": "error_surface", "symbol": "safe_fetch" }))["total"],
        json!(0)
    );
    assert_eq!(
        analyze(json!({ "kind": "error_surface", "symbol": "retry" }))["total"],
        json!(0)
    );
}

#[test]
fn without_a_symbol_the_raisers_are_ranked() {
    let r = analyze(json!({ "kind": "error_surface" }));
    let rows: Vec<(String, Vec<String>)> = r["raisers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["function"]["qual_name"].as_str().unwrap().to_string(),
                x["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let s = |v: &str| v.to_string();
    assert_eq!(
        rows,
        vec![
            (s("Get"), vec![s("ErrNotFound"), s("error: bad id %d")]),
            (s("load"), vec![s("NotFound"), s("ValueError")]),
            (s("handler"), vec![s("PermissionError")]),
            (s("get"), vec![s("HttpError")]),
        ]
    );
    assert_eq!(r["by_error"]["HttpError"], json!(1));
    let e = repo()
        .query("analyze", json!({ "kind": "error_surface", "symbol": "nope_nothing" }))
        .unwrap_err();
    assert_eq!(e.code, "not_found");
    let e = repo()
        .query(
            "analyze",
            json!({ "kind": "error_surface", "symbol": "handler", "depth": 9 }),
        )
        .unwrap_err();
    assert!(e.message.contains("depth"), "{}", e.message);
}
