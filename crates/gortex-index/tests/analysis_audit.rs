//! The graph-audit kinds of `analyze` (`connectivity_health`, `edge_audit`,
//! `resolution_outcomes`, `tests_as_edges`) through the query door, on a real graph built from
//! `test/fixtures/audit`, with exact expected rows.
//!
//! Fixture shape (planted facts):
//! - `src/shapes.ts`: interface `Shape` implemented by `Circle`; interface `Unimplemented` with
//!   no implementer; `describe` (called by the app and a test) and `onlyTested` (called only by
//!   a test).
//! - `src/app.ts::main` makes one unresolved call per reason: `missingEverywhere` (no
//!   definition), `duplicated` (declared in `dup_a.ts` and `dup_b.ts`, neither imported),
//!   `pythonOnly` (declared only in `py/tool.py`), `writeFileSync` (only an external stub, which
//!   `writer.ts` imports). `py/tool.py::weak` calls `x.flushAll()` on an untyped receiver while
//!   one `flushAll` method exists (out of scope).
//! - `src/weak.ts::legacyDrain` calls `x.drain()` on an untyped receiver: bound by name alone.
//! - `tests/shapes.test.ts`: two jest tests (`expect`, `toBe`, `toContain` resolve nowhere).
//! - Islands: `lonely.ts` (imports nothing, nothing imports it), `dup_a.ts`, `dup_b.ts`,
//!   `weak.ts`, `writer.ts` (only an external import), `py/tool.py`; `empty.ts` is a file node
//!   with no edge at all.

mod common;

use common::*;
use gortex_core::OverlayFiles;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

/// The fixture's index, built once.
fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("audit"))
}

fn analyze(repo: &RepoIndex, args: Value) -> Value {
    repo.query("analyze", args).unwrap()
}

fn refused(args: Value) -> String {
    let e = repo().query("analyze", args).unwrap_err();
    assert_eq!(e.code, "invalid_argument", "{}", e.message);
    e.message
}

/// The ids of a list of node summaries, without the `audit/` prefix.
fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap().trim_start_matches("audit/").to_string())
        .collect()
}

#[test]
fn connectivity_health_counts_degrees_and_finds_the_islands() {
    let r = analyze(repo(), json!({ "kind": "connectivity_health" }));
    assert_eq!(
        (
            &r["nominal_nodes"],
            &r["effective_nodes"],
            &r["isolated"],
            &r["leaf"],
            &r["source_only"],
            &r["sink_only"]
        ),
        (&json!(34), &json!(33), &json!(1), &json!(8), &json!(8), &json!(6))
    );
    assert_eq!(r["effective_ratio"], json!(0.971));
    // Per kind: the empty file is the isolated one; the leaves are the four island files whose
    // one symbol hangs off them (and their symbols).
    let file_kind = r["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "file")
        .unwrap();
    assert_eq!(
        file_kind,
        &json!({ "kind": "file", "total": 10, "isolated": 1, "leaf": 3 })
    );
    let dead: Vec<(String, u64)> = r["dead_weight_by_file"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file_path"].as_str().unwrap().to_string(),
                f["dead_weight"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        dead,
        [
            ("py/tool.py", 2),
            ("src/dup_a.ts", 2),
            ("src/dup_b.ts", 2),
            ("src/lonely.ts", 2),
            ("src/empty.ts", 1)
        ]
        .map(|(p, n)| (p.to_string(), n))
    );
    let c = &r["components"];
    assert_eq!(
        (&c["count"], &c["largest_nodes"], &c["singletons"]),
        (&json!(8), &json!(16), &json!(1))
    );
    let islands: Vec<(Vec<String>, u64)> = c["islands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let files = i["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect();
            (files, i["nodes"].as_u64().unwrap())
        })
        .collect();
    let want: Vec<(Vec<String>, u64)> = [
        ("py/tool.py", 5),
        ("src/weak.ts", 4),
        ("src/dup_a.ts", 2),
        ("src/dup_b.ts", 2),
        ("src/lonely.ts", 2),
        ("src/writer.ts", 2),
        ("src/empty.ts", 1),
    ]
    .iter()
    .map(|(f, n)| (vec![f.to_string()], *n))
    .collect();
    assert_eq!(islands, want);

    // Narrowed: only `src/`, the Python island and the tests are gone; limit cuts the lists.
    let src = analyze(
        repo(),
        json!({ "kind": "connectivity_health", "path_prefix": "src/", "limit": 2 }),
    );
    assert_eq!(src["nominal_nodes"], json!(26));
    assert_eq!((&src["files_total"], &src["truncated"]), (&json!(4), &json!(true)));
    assert_eq!(src["dead_weight_by_file"].as_array().unwrap().len(), 2);
    assert_eq!(src["components"]["islands_total"], json!(6));
    assert_eq!(src["components"]["islands"].as_array().unwrap().len(), 2);
    // Without the tests, shapes.ts and app.ts are still one component.
    assert_eq!(src["components"]["largest_nodes"], json!(13));
}

#[test]
fn connectivity_health_reads_an_overlay_view() {
    // lonely.ts now imports shapes.ts and calls describe: one island fewer, in the view only.
    let mut overlay = OverlayFiles::new();
    overlay.insert(
        "src/lonely.ts".into(),
        Some(Arc::from(
            &b"import { describe, Circle } from './shapes';\nexport const LONELY = describe(new Circle(1));\n"[..],
        )),
    );
    let (view, _) = repo().overlay_view(&overlay).unwrap();
    assert!(view.graph.is_layered());
    let r = analyze(&view, json!({ "kind": "connectivity_health" }));
    let islands: Vec<&str> = r["components"]["islands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["files"][0].as_str().unwrap())
        .collect();
    assert!(!islands.contains(&"src/lonely.ts"), "{islands:?}");
    assert_eq!(r["components"]["islands_total"], json!(6));
    assert_eq!(r["components"]["largest_nodes"], json!(18));
    let base = analyze(repo(), json!({ "kind": "connectivity_health" }));
    assert_eq!(base["components"]["islands_total"], json!(7));
}

#[test]
fn edge_audit_counts_tiers_and_samples_what_to_look_at() {
    let r = analyze(repo(), json!({ "kind": "edge_audit" }));
    assert_eq!(
        r["summary"],
        json!({
            "total_edges": 61,
            "call_edges": 7,
            "high_confidence_call_pct": 85.7,
            "unresolved_calls": 9,
            "call_resolution_pct": 43.8,
            "external_usage_edges": 2
        })
    );
    assert_eq!(
        r["call_tiers"],
        json!([{ "origin": "ast_resolved", "edges": 6 }, { "origin": "text_matched", "edges": 1 }])
    );
    assert_eq!(
        r["edge_tiers"],
        json!([{ "origin": "ast_resolved", "edges": 60 }, { "origin": "text_matched", "edges": 1 }])
    );
    let kinds: Vec<(&str, u64)> = r["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["kind"].as_str().unwrap(), k["edges"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("calls", 7),
            ("contains", 7),
            ("defines", 24),
            ("implements", 1),
            ("imports", 9),
            ("instantiates", 2),
            ("member_of", 7),
            ("tests", 3),
            ("typed_as", 1)
        ]
    );
    assert_eq!(
        ids(&r["unimplemented_interfaces"]["sample"]),
        ["src/shapes.ts::Unimplemented"]
    );
    assert_eq!(ids(&r["test_only_targets"]["sample"]), ["src/shapes.ts::onlyTested"]);
    let weak = &r["weak_call_edges"];
    assert_eq!(weak["count"], json!(1));
    assert_eq!(weak["sample"][0]["from"]["id"], json!("audit/src/weak.ts::legacyDrain"));
    assert_eq!(weak["sample"][0]["to"]["id"], json!("audit/src/weak.ts::Queue.drain"));
    assert_eq!(
        (&weak["sample"][0]["origin"], &weak["sample"][0]["line"]),
        (&json!("text_matched"), &json!(7))
    );

    let tests_only = analyze(repo(), json!({ "kind": "edge_audit", "path_prefix": "tests/" }));
    assert_eq!(tests_only["summary"]["call_edges"], json!(2));
    assert_eq!(tests_only["summary"]["unresolved_calls"], json!(4));
    assert_eq!(tests_only["test_only_targets"]["count"], json!(0));
}

#[test]
fn resolution_outcomes_names_why_each_reference_stayed_unresolved() {
    let r = analyze(repo(), json!({ "kind": "resolution_outcomes" }));
    assert_eq!(
        r["by_reason"],
        json!([
            { "reason": "ambiguous_multi_match", "count": 1 },
            { "reason": "candidate_out_of_scope", "count": 1 },
            { "reason": "cross_language_only", "count": 1 },
            { "reason": "stub_only", "count": 1 },
            { "reason": "no_definition", "count": 5 }
        ])
    );
    let rows: Vec<(String, &str, &str, u64, u64)> = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["from"]["id"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("audit/")
                    .to_string(),
                row["name"].as_str().unwrap(),
                row["reason"].as_str().unwrap(),
                row["candidates"].as_u64().unwrap(),
                row["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("py/tool.py::weak", "flushAll", "candidate_out_of_scope", 1, 7),
        ("src/app.ts::main", "missingEverywhere", "no_definition", 0, 7),
        ("src/app.ts::main", "duplicated", "ambiguous_multi_match", 2, 8),
        ("src/app.ts::main", "pythonOnly", "cross_language_only", 1, 9),
        ("src/app.ts::main", "writeFileSync", "stub_only", 0, 10),
        (
            "tests/shapes.test.ts::describes_a_circle",
            "expect",
            "no_definition",
            0,
            4,
        ),
        (
            "tests/shapes.test.ts::describes_a_circle",
            "toContain",
            "no_definition",
            0,
            4,
        ),
        ("tests/shapes.test.ts::doubles", "expect", "no_definition", 0, 8),
        ("tests/shapes.test.ts::doubles", "toBe", "no_definition", 0, 8),
    ]
    .map(|(f, n, r, c, l)| (f.to_string(), n, r, c, l));
    assert_eq!(rows, want);
    assert_eq!(r["rows"][0]["target"], json!("unresolved::*.flushAll"));
    assert_eq!(
        r["top_names"][0],
        json!({ "name": "expect", "reason": "no_definition", "count": 2 })
    );

    let stubs = analyze(
        repo(),
        json!({ "kind": "resolution_outcomes", "reason": "stub_only", "path_prefix": "src/" }),
    );
    assert_eq!((&stubs["total"], &stubs["matching"]), (&json!(4), &json!(1)));
    assert_eq!(stubs["rows"][0]["name"], json!("writeFileSync"));
    let one = analyze(repo(), json!({ "kind": "resolution_outcomes", "limit": 1 }));
    assert_eq!((&one["matching"], &one["truncated"]), (&json!(9), &json!(true)));
    assert_eq!(one["rows"].as_array().unwrap().len(), 1);
}

#[test]
fn tests_as_edges_groups_by_symbol_or_by_test() {
    let r = analyze(repo(), json!({ "kind": "tests_as_edges" }));
    assert_eq!(
        r["summary"],
        json!({ "test_edges": 3, "tested_symbols": 3, "test_functions": 2 })
    );
    let rows: Vec<(String, Vec<String>)> = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["node"]["id"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("audit/")
                    .to_string(),
                ids(&row["tests"]),
            )
        })
        .collect();
    let circle = "tests/shapes.test.ts::describes_a_circle".to_string();
    assert_eq!(
        rows,
        vec![
            ("src/shapes.ts::Circle".to_string(), vec![circle.clone()]),
            ("src/shapes.ts::describe".to_string(), vec![circle.clone()]),
            (
                "src/shapes.ts::onlyTested".to_string(),
                vec!["tests/shapes.test.ts::doubles".to_string()]
            ),
        ]
    );
    assert!(r["rows"][0].get("covers").is_none());

    let by_test = analyze(repo(), json!({ "kind": "tests_as_edges", "group_by": "test" }));
    assert_eq!(by_test["group_by"], json!("test"));
    assert_eq!(by_test["total"], json!(2));
    assert_eq!(
        by_test["rows"][0]["node"]["id"],
        json!("audit/tests/shapes.test.ts::describes_a_circle")
    );
    assert_eq!(by_test["rows"][0]["edge_count"], json!(2));
    assert_eq!(
        ids(&by_test["rows"][0]["covers"]),
        ["src/shapes.ts::Circle", "src/shapes.ts::describe"]
    );
    let none = analyze(repo(), json!({ "kind": "tests_as_edges", "path_prefix": "py/" }));
    assert_eq!((&none["total"], &none["summary"]["test_edges"]), (&json!(0), &json!(0)));
}

#[test]
fn bad_arguments_are_refused_by_name() {
    assert!(refused(json!({ "kind": "connectivity_health", "limit": 5000 })).contains("limit"));
    assert!(refused(json!({ "kind": "edge_audit", "path_prefix": "../x" })).contains("path_prefix"));
    let m = refused(json!({ "kind": "resolution_outcomes", "reason": "maybe" }));
    assert!(
        m.contains("reason: unknown variant `maybe`") && m.contains("stub_only"),
        "{m}"
    );
    assert!(refused(json!({ "kind": "tests_as_edges", "group_by": "file" })).contains("group_by"));
    assert!(refused(json!({ "kind": "edge_audit", "depth": 2 })).contains("depth"));
}
