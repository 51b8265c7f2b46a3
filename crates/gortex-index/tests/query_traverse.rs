//! Point traversals of the query layer (`gortex_graph::query`) on a real graph built from
//! `test/fixtures/query/app-ts`: exact rows for every tool, the tier rule, each caveat class and
//! bad input. Arguments are given as JSON, as the dispatcher will pass them.
//!
//! Fixture shape: `Shape` (interface) implemented by `Circle` and `Square`; `Solid extends Shape`;
//! `Cube extends Square implements Solid` overrides `name`; `render.ts` calls across files and
//! uses `Config` as field/parameter/return/variable type; `legacy.ts` calls `formatLabel`,
//! `padLabel` and `shout` by name only and `x.flush()` on an untyped receiver (two candidates);
//! `cli.ts` imports `format.ts` as a namespace; `render.test.ts` tests `summarize`;
//! `unusedHelper` is exported and unused; `empty.ts` declares nothing. `app-py` covers Python:
//! a `Protocol` implemented by subclassing, a `super()` override chain and a pytest test.

mod common;

use common::*;
use gortex_core::Origin;
use gortex_graph::query::common::{parse_min_tier, tiered};
use gortex_graph::query::*;
use gortex_graph::Graph;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

fn build(fixture: &str) -> Arc<Graph> {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&fixtures().join("query").join(fixture), &opts);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    index.graph.clone()
}

/// The TypeScript fixture's graph, built once.
fn app() -> &'static Graph {
    static G: OnceLock<Arc<Graph>> = OnceLock::new();
    G.get_or_init(|| build("app-ts"))
}

/// The Python fixture's graph, built once.
fn py() -> &'static Graph {
    static G: OnceLock<Arc<Graph>> = OnceLock::new();
    G.get_or_init(|| build("app-py"))
}

/// Deserialises tool arguments from JSON, as the dispatcher does.
fn args<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("arguments deserialise")
}

/// The result as JSON, with the repository prefix stripped from every string for brevity.
fn out<T: serde::Serialize>(r: &T) -> Value {
    fn strip(v: Value) -> Value {
        match v {
            Value::String(s) => Value::String(
                s.strip_prefix("app-ts/")
                    .or_else(|| s.strip_prefix("app-py/"))
                    .unwrap_or(&s)
                    .to_string(),
            ),
            Value::Array(a) => Value::Array(a.into_iter().map(strip).collect()),
            Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, strip(v))).collect()),
            other => other,
        }
    }
    strip(serde_json::to_value(r).unwrap())
}

/// `field` of every element of the array at `key` (ids of nested summaries are taken as is).
fn col(v: &Value, key: &str, field: &str) -> Vec<Value> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array in {v}"))
        .iter()
        .map(|row| {
            let x = &row[field];
            if x.is_object() && x.get("id").is_some() {
                x["id"].clone()
            } else {
                x.clone()
            }
        })
        .collect()
}

fn strs(items: &[&str]) -> Vec<Value> {
    items.iter().map(|s| json!(s)).collect()
}

fn err_of<T: std::fmt::Debug>(r: Result<T, QueryError>) -> QueryError {
    r.expect_err("expected an error")
}

// ---------------------------------------------------------------------------------------------
// Target resolution
// ---------------------------------------------------------------------------------------------

#[test]
fn targets_resolve_by_id_path_qualified_and_bare_name() {
    let g = app();
    let id = |s: &str| -> Vec<String> {
        resolve_target(g, s)
            .unwrap()
            .iter()
            .map(|&i| g.node_at(i).id.to_string())
            .collect()
    };
    assert_eq!(
        id("app-ts/src/render.ts::summarize"),
        ["app-ts/src/render.ts::summarize"]
    );
    assert_eq!(id("src/render.ts::summarize"), ["app-ts/src/render.ts::summarize"]);
    assert_eq!(id("src/render.ts"), ["app-ts/src/render.ts"]);
    assert_eq!(id("./src/render.ts"), ["app-ts/src/render.ts"]);
    assert_eq!(id("Renderer.draw"), ["app-ts/src/render.ts::Renderer.draw"]);
    assert_eq!(id("draw"), ["app-ts/src/render.ts::Renderer.draw"]);
    // Several symbols: stable order (non-test, exported, then id).
    assert_eq!(
        id("flush"),
        ["app-ts/src/format.ts::Pipe.flush", "app-ts/src/format.ts::Sink.flush"]
    );
    assert_eq!(
        id("name"),
        [
            "app-ts/src/shapes.ts::Circle.name",
            "app-ts/src/shapes.ts::Cube.name",
            "app-ts/src/shapes.ts::Shape.name",
            "app-ts/src/shapes.ts::Square.name",
        ]
    );
    // Test symbols sort after production ones of the same name.
    assert_eq!(id("render"), ["app-ts/src/render.test.ts::render"]);
}

#[test]
fn ambiguous_names_list_candidates_and_unknown_names_suggest() {
    let g = app();
    let e = err_of(get_callers(g, &args(json!({"id": "flush"}))));
    assert_eq!(e.code, "ambiguous");
    assert_eq!(
        e.message,
        "\"flush\" matches 2 symbols; pass one of these ids: app-ts/src/format.ts::Pipe.flush (method at \
         src/format.ts:18), app-ts/src/format.ts::Sink.flush (method at src/format.ts:14)"
    );

    let e = err_of(get_symbol(g, &args(json!({"id": "sumarize"}))));
    assert_eq!(e.code, "not_found");
    assert_eq!(
        e.message,
        "no node matches \"sumarize\" (tried node id, file path, qualified and bare symbol name); did you mean: \
         app-ts/src/render.ts::summarize, app-ts/src/render.test.ts::render.summarizes?"
    );
    // Case-insensitive equality before prefix matches (names are compared, not ids).
    let e = err_of(get_symbol(g, &args(json!({"id": "app-ts/src/shapes.ts::shap"}))));
    assert!(
        e.message
            .ends_with("did you mean: app-ts/src/shapes.ts::Shape, app-ts/src/shapes.ts?"),
        "{}",
        e.message
    );
    // A bare file name is not a target, but the file is suggested.
    let e = err_of(get_symbol(g, &args(json!({"id": "render.ts"}))));
    assert_eq!(e.code, "not_found");
    assert!(
        e.message.ends_with("did you mean: app-ts/src/render.ts?"),
        "{}",
        e.message
    );
    // At most five suggestions.
    let e = err_of(get_symbol(g, &args(json!({"id": "e"}))));
    assert_eq!(e.message.matches("app-ts/").count(), 5, "{}", e.message);
    let e = err_of(get_symbol(g, &args(json!({"id": "zzqqxx"}))));
    assert!(e.message.ends_with("no similar names exist"), "{}", e.message);
    // Two swapped neighbours count as one typo, so short names with one still get a suggestion.
    let e = err_of(get_symbol(g, &args(json!({"id": "Sahpe"}))));
    assert!(
        e.message.ends_with("did you mean: app-ts/src/shapes.ts::Shape?"),
        "{}",
        e.message
    );
    let e = err_of(get_symbol(g, &args(json!({"id": "  "}))));
    assert_eq!(e.code, "invalid_argument");
}

// ---------------------------------------------------------------------------------------------
// get_symbol / get_file_summary
// ---------------------------------------------------------------------------------------------

#[test]
fn get_symbol_returns_details_parent_and_edge_counts() {
    let g = app();
    let r = out(&get_symbol(g, &args(json!({"id": "Renderer.draw"}))).unwrap());
    assert_eq!(
        r,
        json!({
            "node": {
                "id": "src/render.ts::Renderer.draw", "kind": "method", "name": "draw",
                "qual_name": "Renderer.draw", "file_path": "src/render.ts", "start_line": 10, "end_line": 12,
                "repo_prefix": "app-ts", "language": "typescript", "signature": "draw(shape: Shape): string"
            },
            "visibility": "public",
            "return_type": "string",
            "parent": {
                "id": "src/render.ts::Renderer", "kind": "type", "name": "Renderer", "qual_name": "Renderer",
                "file_path": "src/render.ts", "start_line": 5, "end_line": 13, "repo_prefix": "app-ts",
                "language": "typescript",
                "flavor": "class", "signature": "class Renderer", "exported": true
            },
            "edges_in": {"defines": 1, "contains": 1, "calls": 1},
            "edges_out": {"member_of": 1, "calls": 2, "typed_as": 1}
        })
    );
    let r = out(&get_symbol(g, &args(json!({"id": "Shape"}))).unwrap());
    assert_eq!(r["doc"], json!("Something with an area."));
    assert_eq!(r.get("parent"), None);
    let r = out(&get_symbol(g, &args(json!({"id": "decorate"}))).unwrap());
    assert_eq!(r["unresolved_out"], json!(1));
    let r = out(&get_symbol(g, &args(json!({"id": "render.summarizes"}))).unwrap());
    assert_eq!(r["node"]["is_test"], json!(true));
    assert_eq!(r["test_role"], json!("test"));
    assert_eq!(r["test_runner"], json!("jest"));
    assert_eq!(r["parent"]["id"], json!("src/render.test.ts::render"));
}

#[test]
fn get_file_summary_lists_symbols_in_source_order_and_imports() {
    let g = app();
    let r = out(&get_file_summary(g, &args(json!({"path": "src/render.ts"}))).unwrap());
    assert_eq!(r["file"]["id"], json!("src/render.ts"));
    let syms: Vec<(Value, Value, Value)> = r["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["symbol"]["id"].clone(), s["parent"].clone(), s["depth"].clone()))
        .collect();
    assert_eq!(
        syms,
        vec![
            (json!("src/render.ts::Renderer"), Value::Null, json!(0)),
            (
                json!("src/render.ts::Renderer.config"),
                json!("src/render.ts::Renderer"),
                json!(1)
            ),
            (
                json!("src/render.ts::Renderer.constructor"),
                json!("src/render.ts::Renderer"),
                json!(1)
            ),
            (
                json!("src/render.ts::Renderer.draw"),
                json!("src/render.ts::Renderer"),
                json!(1)
            ),
            (json!("src/render.ts::summarize"), Value::Null, json!(0)),
            (json!("src/render.ts::decorate"), Value::Null, json!(0)),
            (json!("src/render.ts::main"), Value::Null, json!(0)),
        ]
    );
    assert_eq!(
        r["imports"],
        json!([
            {"line": 1, "kind": "imports", "module": "src/shapes.ts", "target": "src/shapes.ts",
             "symbols": ["src/shapes.ts::Circle", "src/shapes.ts::Shape"], "status": "resolved", "origin": "ast_resolved"},
            {"line": 2, "kind": "imports", "module": "src/config.ts", "target": "src/config.ts",
             "symbols": ["src/config.ts::Config", "src/config.ts::VERSION", "src/config.ts::applyConfig",
                         "src/config.ts::defaultConfig", "src/config.ts::loadConfig"],
             "status": "resolved", "origin": "ast_resolved"},
            {"line": 3, "kind": "imports", "module": "src/format.ts", "target": "src/format.ts",
             "symbols": ["src/format.ts::formatLabel", "src/format.ts::shout"], "status": "resolved", "origin": "ast_resolved"}
        ])
    );
    assert_eq!(
        r["counts"],
        json!({"symbols": 7, "by_kind": {"function": 3, "method": 2, "type": 1, "field": 1},
               "imports": 3, "unresolved_imports": 0, "imported_by": 1})
    );
    assert_eq!(r.get("truncated"), None);

    // A namespace import binds no symbol; a file id works as well as a path.
    let r = out(&get_file_summary(g, &args(json!({"path": "app-ts/src/cli.ts"}))).unwrap());
    assert_eq!(
        r["imports"],
        json!([{"line": 1, "kind": "imports", "module": "src/format.ts", "target": "src/format.ts",
                "status": "resolved", "origin": "ast_resolved"}])
    );
    let r = out(&get_file_summary(g, &args(json!({"path": "src/empty.ts"}))).unwrap());
    assert_eq!(r["symbols"], json!([]));
    assert_eq!(r["counts"]["symbols"], json!(0));

    let r = out(&get_file_summary(g, &args(json!({"path": "src/shapes.ts", "limit": 2}))).unwrap());
    assert_eq!(
        col(&r, "symbols", "symbol"),
        strs(&["src/shapes.ts::Shape", "src/shapes.ts::Shape.area"])
    );
    assert_eq!(r["truncated"], json!(true));
    assert_eq!(r["counts"]["symbols"], json!(17));

    let e = err_of(get_file_summary(g, &args(json!({"path": "src/render.ts::main"}))));
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("is a function"), "{}", e.message);
    let e = err_of(get_file_summary(g, &args(json!({"path": "src/nope.ts"}))));
    assert_eq!(e.code, "not_found");
    let e = err_of(get_file_summary(g, &args(json!({"path": "src/render.ts", "limit": 0}))));
    assert_eq!(e.message, "limit must be 1..=1000, got 0");
    let e = err_of(
        serde_json::from_value::<GetFileSummaryArgs>(json!({"path": "a", "bogus": 1}))
            .map_err(|e| QueryError::invalid(e.to_string())),
    );
    assert!(e.message.contains("unknown field `bogus`"), "{}", e.message);
}

// ---------------------------------------------------------------------------------------------
// get_callers / get_call_chain
// ---------------------------------------------------------------------------------------------

#[test]
fn get_callers_walks_back_levels_and_flags_tests() {
    let g = app();
    let r = out(&get_callers(g, &args(json!({"id": "summarize", "depth": 2}))).unwrap());
    assert_eq!(
        r["callers"],
        strip_value(json!([
            {"caller": NodeSummary::of(g.node("app-ts/src/render.test.ts::render.summarizes").unwrap()),
             "kind": "calls", "origin": "ast_resolved", "path": "src/render.test.ts", "lines": [6], "depth": 1},
            {"caller": NodeSummary::of(g.node("app-ts/src/render.ts::Renderer.draw").unwrap()),
             "kind": "calls", "origin": "ast_resolved", "path": "src/render.ts", "lines": [11], "depth": 1},
            {"caller": NodeSummary::of(g.node("app-ts/src/render.ts::main").unwrap()),
             "kind": "calls", "origin": "ast_resolved", "path": "src/render.ts", "lines": [26], "depth": 2,
             "callee": "src/render.ts::Renderer.draw"}
        ]))
    );
    assert_eq!(r["callers"][0]["caller"]["is_test"], json!(true));
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(3), json!(false)));
    assert_eq!(r.get("caveat"), None);
    assert_eq!(r.get("tier_filtered"), None);

    let r = out(&get_callers(g, &args(json!({"id": "summarize", "depth": 2, "include_tests": false}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&["src/render.ts::Renderer.draw", "src/render.ts::main"])
    );
    let r = out(&get_callers(g, &args(json!({"id": "summarize", "depth": 2, "limit": 1}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&["src/render.test.ts::render.summarizes"])
    );
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(3), json!(true)));

    // Instantiation is a call of the class.
    let r = out(&get_callers(g, &args(json!({"id": "Circle"}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&["src/render.test.ts::render.summarizes", "src/render.ts::main"])
    );
    assert_eq!(col(&r, "callers", "kind"), strs(&["instantiates", "instantiates"]));
}

/// The tier rule: name-only rows are dropped when stronger rows exist, kept when alone, and
/// `min_tier` reports what it filtered.
#[test]
fn get_callers_applies_the_tier_rule() {
    let g = app();
    let r = out(&get_callers(g, &args(json!({"id": "formatLabel"}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&["src/cli.ts::cli", "src/render.ts::Renderer.draw"])
    );
    assert_eq!(r["name_only_suppressed"], json!(1));
    assert_eq!(r.get("tier_filtered"), None);

    let r = out(&get_callers(g, &args(json!({"id": "formatLabel", "min_tier": "text_matched"}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&[
            "src/cli.ts::cli",
            "src/legacy.ts::legacyBanner",
            "src/render.ts::Renderer.draw"
        ])
    );
    assert_eq!(
        col(&r, "callers", "origin"),
        strs(&["ast_resolved", "text_matched", "ast_resolved"])
    );
    assert_eq!(
        r["tier_filtered"],
        json!({"edges_below_min_tier": 0, "max_available_tier": "ast_resolved"})
    );
    assert_eq!(r.get("name_only_suppressed"), None);

    // Name matches as the only evidence are kept, with a caveat.
    let r = out(&get_callers(g, &args(json!({"id": "padLabel"}))).unwrap());
    assert_eq!(col(&r, "callers", "caller"), strs(&["src/legacy.ts::legacyBanner"]));
    assert_eq!(col(&r, "callers", "origin"), strs(&["text_matched"]));
    assert_eq!(r["caveat"]["class"], json!("coverage_incomplete"));
    assert_eq!(r.get("name_only_suppressed"), None);

    let r = out(&get_callers(g, &args(json!({"id": "padLabel", "min_tier": "ast_resolved"}))).unwrap());
    assert_eq!(r["callers"], json!([]));
    assert_eq!(
        r["tier_filtered"],
        json!({"edges_below_min_tier": 1, "max_available_tier": "text_matched"})
    );

    // `shout` has a resolved value reference, but every caller row is a name match.
    let r = out(&get_callers(g, &args(json!({"id": "shout"}))).unwrap());
    assert_eq!(col(&r, "callers", "caller"), strs(&["src/legacy.ts::legacyBanner"]));
    assert_eq!(
        r["caveat"],
        json!({"class": "coverage_incomplete",
               "message": "every returned row (1) is a name-only match; the real users may differ"})
    );
}

#[test]
fn tier_rule_is_generic_and_hides_speculative_rows() {
    let rows = [
        Origin::AstResolved,
        Origin::TextMatched,
        Origin::Speculative,
        Origin::AstInferred,
    ];
    let run = |min: Option<Origin>| {
        tiered(
            min,
            |floor| rows.iter().copied().filter(|&o| o >= floor).collect(),
            |o| *o,
        )
    };
    let t = run(None);
    assert_eq!(t.rows, [Origin::AstResolved, Origin::AstInferred]);
    assert_eq!(t.report.name_only_suppressed, 1);
    let t = run(Some(Origin::Speculative));
    assert_eq!(t.rows.len(), 4);
    assert_eq!(t.report.tier_filtered.as_ref().unwrap().edges_below_min_tier, 0);
    let t = run(Some(Origin::AstResolved));
    assert_eq!(t.rows, [Origin::AstResolved]);
    let f = t.report.tier_filtered.unwrap();
    assert_eq!(
        (f.edges_below_min_tier, f.max_available_tier),
        (3, Some(Origin::AstResolved))
    );
    // Only weak rows: text matches stay, speculative ones stay hidden.
    let weak = [Origin::TextMatched, Origin::Speculative];
    let t = tiered(
        None,
        |floor| weak.iter().copied().filter(|&o| o >= floor).collect(),
        |o| *o,
    );
    assert_eq!(t.rows, [Origin::TextMatched]);
    assert_eq!(t.report.name_only_suppressed, 0);

    let e = parse_min_tier(Some("strong")).unwrap_err();
    assert_eq!(
        e.message,
        "min_tier must be one of lsp_resolved, lsp_dispatch, ast_resolved, ast_inferred, text_matched, speculative \
         (strongest first), got \"strong\""
    );
}

#[test]
fn get_callers_rejects_bad_input() {
    let g = app();
    let cases = [
        (json!({"id": "summarize", "depth": 0}), "depth must be 1..=5, got 0"),
        (json!({"id": "summarize", "depth": 99}), "depth must be 1..=5, got 99"),
        (json!({"id": "summarize", "limit": 0}), "limit must be 1..=1000, got 0"),
        (
            json!({"id": "summarize", "limit": 1000000}),
            "limit must be 1..=1000, got 1000000",
        ),
    ];
    for (a, msg) in cases {
        let e = err_of(get_callers(g, &args(a)));
        assert_eq!((e.code, e.message.as_str()), ("invalid_argument", msg));
    }
    let e = err_of(get_callers(g, &args(json!({"id": "summarize", "min_tier": "bogus"}))));
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message.starts_with("min_tier must be one of lsp_resolved,"),
        "{}",
        e.message
    );
    let e = err_of(get_callers(g, &args(json!({"id": "src/render.ts"}))));
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(
        e.message,
        "get_callers needs a symbol, but \"app-ts/src/render.ts\" is a file; use get_dependents for files"
    );
    let e = err_of(get_callers(g, &args(json!({"id": "nothing_like_this"}))));
    assert_eq!(e.code, "not_found");
}

#[test]
fn get_call_chain_lists_calls_and_unresolved_gaps() {
    let g = app();
    let r = out(&get_call_chain(g, &args(json!({"id": "main"}))).unwrap());
    let calls: Vec<String> = r["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} -{}-> {} d{} L{} {}",
                c["from"].as_str().unwrap(),
                c["kind"].as_str().unwrap(),
                c["to"].as_str().unwrap(),
                c["depth"],
                c["line"],
                c["origin"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            "src/render.ts::main -instantiates-> src/render.ts::Renderer d1 L25 ast_resolved",
            "src/render.ts::main -calls-> src/render.ts::Renderer.draw d1 L26 ast_resolved",
            "src/render.ts::main -instantiates-> src/shapes.ts::Circle d1 L26 ast_resolved",
            "src/render.ts::main -calls-> src/config.ts::applyConfig d1 L27 ast_resolved",
            "src/render.ts::main -calls-> src/render.ts::decorate d1 L28 ast_resolved",
            "src/render.ts::Renderer.draw -calls-> src/format.ts::formatLabel d2 L11 ast_resolved",
            "src/render.ts::Renderer.draw -calls-> src/render.ts::summarize d2 L11 ast_resolved",
            "src/render.ts::summarize -calls-> src/shapes.ts::Shape.name d3 L16 ast_resolved",
            "src/render.ts::summarize -calls-> src/shapes.ts::Shape.area d3 L17 ast_resolved",
        ]
    );
    let nodes: Vec<(Value, Value)> = r["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["node"]["id"].clone(), n["depth"].clone()))
        .collect();
    assert_eq!(
        nodes,
        vec![
            (json!("src/render.ts::main"), json!(0)),
            (json!("src/config.ts::applyConfig"), json!(1)),
            (json!("src/render.ts::Renderer"), json!(1)),
            (json!("src/render.ts::Renderer.draw"), json!(1)),
            (json!("src/render.ts::decorate"), json!(1)),
            (json!("src/shapes.ts::Circle"), json!(1)),
            (json!("src/format.ts::formatLabel"), json!(2)),
            (json!("src/render.ts::summarize"), json!(2)),
            (json!("src/shapes.ts::Shape.area"), json!(3)),
            (json!("src/shapes.ts::Shape.name"), json!(3)),
        ]
    );
    assert_eq!(
        r["unresolved"],
        json!([
            {"from": "src/render.ts::decorate", "target": "unresolved::fn", "line": 21, "candidates": 0},
            {"from": "src/render.ts::summarize", "target": "unresolved::*.log", "line": 16, "candidates": 0}
        ])
    );
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(9), json!(false)));

    // Depth 1 expands only the root: its direct calls, and no unresolved calls of its callees.
    let r = out(&get_call_chain(g, &args(json!({"id": "main", "depth": 1}))).unwrap());
    assert_eq!(r["total"], json!(5));
    assert_eq!(r.get("unresolved"), None);

    let r = out(&get_call_chain(g, &args(json!({"id": "legacyBanner"}))).unwrap());
    assert_eq!(
        col(&r, "calls", "to"),
        strs(&[
            "src/format.ts::shout",
            "src/format.ts::formatLabel",
            "src/format.ts::padLabel"
        ])
    );
    assert_eq!(
        r["unresolved"],
        json!([{"from": "src/legacy.ts::legacyBanner", "target": "unresolved::*.flush", "line": 2, "candidates": 2}])
    );
    let r = out(&get_call_chain(g, &args(json!({"id": "legacyBanner", "min_tier": "ast_inferred"}))).unwrap());
    assert_eq!(r["calls"], json!([]));
    assert_eq!(
        r["tier_filtered"],
        json!({"edges_below_min_tier": 3, "max_available_tier": "text_matched"})
    );

    let r = out(&get_call_chain(g, &args(json!({"id": "main", "limit": 2}))).unwrap());
    assert_eq!(
        col(&r, "calls", "to"),
        strs(&["src/render.ts::Renderer", "src/render.ts::Renderer.draw"])
    );
    assert_eq!(col(&r, "nodes", "node").len(), 3);
    assert_eq!(r["truncated"], json!(true));

    let e = err_of(get_call_chain(g, &args(json!({"id": "main", "depth": 7}))));
    assert_eq!(e.message, "depth must be 1..=6, got 7");
    let e = err_of(get_call_chain(g, &args(json!({"id": "main", "depth": 0}))));
    assert_eq!(e.message, "depth must be 1..=6, got 0");
}

// ---------------------------------------------------------------------------------------------
// find_usages
// ---------------------------------------------------------------------------------------------

/// The usage rows as lines; also checks `nodes` holds each using symbol once, in the order of
/// its first usage, and that every row's `from` names one of them.
fn usage_lines(r: &Value) -> Vec<String> {
    let mut first_use: Vec<&Value> = Vec::new();
    for u in r["usages"].as_array().unwrap() {
        if !first_use.contains(&&u["from"]) {
            first_use.push(&u["from"]);
        }
    }
    let nodes: Vec<&Value> = r["nodes"].as_array().unwrap().iter().map(|n| &n["id"]).collect();
    assert_eq!(nodes, first_use, "nodes are the using symbols in first-usage order");
    r["usages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            format!(
                "{} {} {} L{} {}",
                u["from"].as_str().unwrap(),
                u["kind"].as_str().unwrap(),
                u["context"].as_str().unwrap(),
                u["line"],
                u["origin"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn find_usages_classifies_every_context() {
    let g = app();
    let r = out(&find_usages(g, &args(json!({"id": "Config"}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        [
            "src/config.ts::loadConfig returns return_type L8 ast_resolved",
            "src/config.ts::loadConfig instantiates call L9 ast_resolved",
            "src/config.ts::defaultConfig typed_as type L12 ast_resolved",
            "src/config.ts::applyConfig typed_as parameter_type L14 ast_resolved",
            "src/render.ts imports import L2 ast_resolved",
            "src/render.ts::Renderer.config typed_as field L6 ast_resolved",
        ]
    );
    assert_eq!(
        r["by_context"],
        json!({"call": 1, "parameter_type": 1, "field": 1, "type": 1, "return_type": 1, "import": 1})
    );
    assert_eq!(r.get("caveat"), None);

    let r = out(&find_usages(g, &args(json!({"id": "Shape"}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        [
            "src/render.ts imports import L1 ast_resolved",
            "src/render.ts::Renderer.draw typed_as parameter_type L10 ast_resolved",
            "src/render.ts::summarize typed_as parameter_type L15 ast_resolved",
            "src/shapes.ts::Solid extends type L7 ast_resolved",
            "src/shapes.ts::Circle implements type L11 ast_resolved",
            "src/shapes.ts::Square implements type L21 ast_resolved",
        ]
    );

    // A value reference; the name-only call is suppressed by the tier rule.
    let r = out(&find_usages(g, &args(json!({"id": "shout"}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        [
            "src/render.ts imports import L3 ast_resolved",
            "src/render.ts::main references value L28 ast_resolved",
        ]
    );
    assert_eq!(r["name_only_suppressed"], json!(1));

    // The `tests` edge beside a test's call is not a second row.
    let r = out(&find_usages(g, &args(json!({"id": "summarize"}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        [
            "src/render.test.ts imports import L1 ast_resolved",
            "src/render.test.ts::render.summarizes calls call L6 ast_resolved",
            "src/render.ts::Renderer.draw calls call L11 ast_resolved",
        ]
    );
    let r = out(&find_usages(g, &args(json!({"id": "summarize", "include_tests": false}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        ["src/render.ts::Renderer.draw calls call L11 ast_resolved"]
    );
}

#[test]
fn find_usages_filters_by_context() {
    let g = app();
    let r = out(&find_usages(g, &args(json!({"id": "Config", "context": "parameter_type"}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        ["src/config.ts::applyConfig typed_as parameter_type L14 ast_resolved"]
    );
    let r = out(&find_usages(g, &args(json!({"id": "Config", "context": ["field", "return_type"]}))).unwrap());
    assert_eq!(
        usage_lines(&r),
        [
            "src/config.ts::loadConfig returns return_type L8 ast_resolved",
            "src/render.ts::Renderer.config typed_as field L6 ast_resolved",
        ]
    );
    let r = out(&find_usages(g, &args(json!({"id": "Config", "context": "call, import"}))).unwrap());
    assert_eq!(r["by_context"], json!({"call": 1, "import": 1}));
    let r = out(&find_usages(g, &args(json!({"id": "Config", "limit": 2}))).unwrap());
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(6), json!(true)));
    assert_eq!(r["usages"].as_array().unwrap().len(), 2);

    let e = err_of(find_usages(g, &args(json!({"id": "Config", "context": "callback"}))));
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            "invalid_argument",
            "context contains unknown value \"callback\"; accepted: call, parameter_type, field, type, return_type, \
             value, import"
        )
    );
    let e = err_of(find_usages(g, &args(json!({"id": "Config", "context": []}))));
    assert_eq!(e.code, "invalid_argument");
    let e = err_of(find_usages(g, &args(json!({"id": "Config", "limit": 1001}))));
    assert_eq!(e.message, "limit must be 1..=1000, got 1001");
    let e = err_of(find_usages(g, &args(json!({"id": "Config", "min_tier": "high"}))));
    assert_eq!(e.code, "invalid_argument");
}

// ---------------------------------------------------------------------------------------------
// Caveats
// ---------------------------------------------------------------------------------------------

#[test]
fn caveats_cover_every_class() {
    let g = app();
    let class = |id: &str| {
        let i = resolve_target(g, id).unwrap()[0];
        let c = classify_caveat(g, i);
        (
            serde_json::to_value(c.class).unwrap().as_str().unwrap().to_string(),
            c.message,
        )
    };
    assert_eq!(class("summarize").0, "none");
    assert_eq!(
        class("unusedHelper"),
        (
            "likely_unused".into(),
            "indexed normally, but no call, reference, type use or import points at it".into()
        )
    );
    assert_eq!(class("legacyBanner").0, "likely_unused");
    // A file is used by being imported; one nobody imports is likely unused.
    assert_eq!(class("src/format.ts").0, "none");
    assert_eq!(class("src/legacy.ts").0, "likely_unused");
    assert_eq!(
        class("src/empty.ts"),
        (
            "possible_extraction_gap".into(),
            "the node has no edges at all; an indexed symbol always has a `defines` edge, so the extractor probably \
             missed part of its file"
                .into()
        )
    );
    let incomplete = [
        ("padLabel", "1 name-only usage (text_matched)"),
        ("VERSION", "1 import of the symbol"),
        (
            "Sink",
            "1 import of its file that binds no named symbol (namespace, side-effect or export *)",
        ),
        ("app-ts/src/format.ts::Sink.flush", "1 unresolved reference named `flush`"),
        (
            "Circle.area",
            "it overrides Shape.area which has resolved usages (calls through a supertype are not attributed to overrides)",
        ),
        ("Config.verbose", "value reads are only indexed when passed as call arguments"),
    ];
    for (id, part) in incomplete {
        let (c, message) = class(id);
        assert_eq!(c, "coverage_incomplete", "{id}");
        assert!(message.contains(part), "{id}: {message}");
        assert!(message.starts_with("no resolved usage found, but "), "{id}: {message}");
    }

    // Tools attach the caveat (and omit it for class none).
    let r = out(&get_callers(g, &args(json!({"id": "unusedHelper"}))).unwrap());
    assert_eq!(r["callers"], json!([]));
    assert_eq!(r["caveat"]["class"], json!("likely_unused"));
    let r = out(&find_usages(g, &args(json!({"id": "app-ts/src/format.ts::Pipe.flush"}))).unwrap());
    assert_eq!(r["caveat"]["class"], json!("coverage_incomplete"));
    let r = out(&find_usages(g, &args(json!({"id": "VERSION"}))).unwrap());
    assert_eq!(usage_lines(&r), ["src/render.ts imports import L2 ast_resolved"]);
    assert_eq!(r["caveat"]["class"], json!("coverage_incomplete"));
    let r = out(&get_dependents(g, &args(json!({"id": "legacyBanner"}))).unwrap());
    assert_eq!(r["caveat"]["class"], json!("likely_unused"));
}

// ---------------------------------------------------------------------------------------------
// get_dependencies / get_dependents
// ---------------------------------------------------------------------------------------------

/// The `nodes` rows of a dependencies or dependents answer as lines (each row is the node's
/// fields flattened, plus how it is linked).
fn dep_lines(r: &Value) -> Vec<String> {
    r["nodes"]
        .as_array()
        .unwrap_or_else(|| panic!("nodes is not an array in {r}"))
        .iter()
        .map(|d| {
            assert!(d.get("node").is_none() && d.get("file_path").is_some(), "{d}");
            let kinds: Vec<&str> = d["edge_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .collect();
            let via = d
                .get("via")
                .and_then(|v| v.as_str())
                .map(|v| format!(" via {v}"))
                .unwrap_or_default();
            format!(
                "d{} {} [{}] {} L{}{via}",
                d["depth"],
                d["id"].as_str().unwrap(),
                kinds.join(","),
                d["origin"].as_str().unwrap(),
                d["line"]
            )
        })
        .collect()
}

#[test]
fn file_dependencies_and_dependents_aggregate_imports_and_symbol_edges() {
    let g = app();
    let r = out(&get_dependencies(g, &args(json!({"id": "src/render.ts", "depth": 2}))).unwrap());
    assert_eq!(r["mode"], json!("file"));
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/config.ts [imports,calls,references,typed_as] ast_resolved L2",
            "d1 src/format.ts [imports,calls,references] ast_resolved L3",
            "d1 src/shapes.ts [imports,calls,instantiates,typed_as] ast_resolved L1",
        ]
    );
    assert_eq!(r["by_depth"], json!({"1": 3}));

    let r = out(&get_dependents(g, &args(json!({"id": "src/config.ts", "depth": 3}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/render.ts [imports,calls,references,typed_as] ast_resolved L2",
            "d2 src/render.test.ts [imports,calls] ast_resolved L1 via src/render.ts",
        ]
    );
    assert_eq!(r["by_depth"], json!({"1": 1, "2": 1}));
    assert_eq!(r.get("caveat"), None);

    // legacy.ts reaches format.ts only by name: hidden by default, shown with min_tier.
    let r = out(&get_dependents(g, &args(json!({"id": "src/format.ts"}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/cli.ts [imports,calls] ast_resolved L1",
            "d1 src/render.ts [imports,calls,references] ast_resolved L3",
        ]
    );
    assert_eq!(r["name_only_suppressed"], json!(1));
    let r = out(&get_dependents(g, &args(json!({"id": "src/format.ts", "min_tier": "text_matched"}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/cli.ts [imports,calls] ast_resolved L1",
            "d1 src/legacy.ts [calls] text_matched L3",
            "d1 src/render.ts [imports,calls,references] ast_resolved L3",
        ]
    );
    let r = out(&get_dependents(g, &args(json!({"id": "src/format.ts", "kinds": "imports"}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/cli.ts [imports] ast_resolved L1",
            "d1 src/render.ts [imports] ast_resolved L3",
        ]
    );
    let r = out(&get_dependents(g, &args(json!({"id": "src/render.ts", "include_tests": false}))).unwrap());
    assert_eq!(r["nodes"], json!([]));
}

#[test]
fn symbol_dependencies_and_dependents_walk_usage_edges() {
    let g = app();
    let r = out(&get_dependencies(g, &args(json!({"id": "Renderer"}))).unwrap());
    assert_eq!(r["mode"], json!("symbol"));
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/config.ts::Config [typed_as] ast_resolved L6",
            "d1 src/config.ts::loadConfig [calls] ast_resolved L8",
            "d1 src/format.ts::formatLabel [calls] ast_resolved L11",
            "d1 src/render.ts::summarize [calls] ast_resolved L11",
            "d1 src/shapes.ts::Shape [typed_as] ast_resolved L10",
        ]
    );
    let r = out(&get_dependencies(g, &args(json!({"id": "Renderer", "kinds": ["calls"], "depth": 2}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/config.ts::loadConfig [calls] ast_resolved L8",
            "d1 src/format.ts::formatLabel [calls] ast_resolved L11",
            "d1 src/render.ts::summarize [calls] ast_resolved L11",
            "d2 src/shapes.ts::Shape.area [calls] ast_resolved L17 via src/render.ts::summarize",
            "d2 src/shapes.ts::Shape.name [calls] ast_resolved L16 via src/render.ts::summarize",
        ]
    );
    assert_eq!(r["by_depth"], json!({"1": 3, "2": 2}));

    let r = out(&get_dependents(g, &args(json!({"id": "summarize", "depth": 2}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 src/render.test.ts [imports] ast_resolved L1",
            "d1 src/render.test.ts::render.summarizes [calls] ast_resolved L6",
            "d1 src/render.ts::Renderer.draw [calls] ast_resolved L11",
            "d2 src/render.ts::main [calls] ast_resolved L26 via src/render.ts::Renderer.draw",
        ]
    );
    assert_eq!(r.get("caveat"), None);
    let r = out(&get_dependents(g, &args(json!({"id": "summarize", "depth": 2, "limit": 1}))).unwrap());
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(4), json!(true)));
    assert_eq!(r["by_depth"], json!({"1": 3, "2": 1}));

    let e = err_of(get_dependencies(g, &args(json!({"id": "Renderer", "depth": 4}))));
    assert_eq!(e.message, "depth must be 1..=3, got 4");
    let e = err_of(get_dependencies(
        g,
        &args(json!({"id": "Renderer", "kinds": "defines"})),
    ));
    assert!(
        e.message
            .starts_with("kinds contains unknown edge kind \"defines\"; accepted: calls,"),
        "{}",
        e.message
    );
    let e = err_of(get_dependencies(g, &args(json!({"id": "Renderer", "kinds": []}))));
    assert_eq!(e.code, "invalid_argument");
}

// ---------------------------------------------------------------------------------------------
// Hierarchies
// ---------------------------------------------------------------------------------------------

#[test]
fn find_implementations_walks_interface_extension() {
    let g = app();
    let r = out(&find_implementations(g, &args(json!({"id": "Shape"}))).unwrap());
    let rows: Vec<String> = r["implementations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "{} {} {} d{} L{}",
                i["node"]["id"].as_str().unwrap(),
                i["kind"].as_str().unwrap(),
                i["implements"].as_str().unwrap(),
                i["depth"],
                i["line"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "src/shapes.ts::Circle implements src/shapes.ts::Shape d1 L11",
            "src/shapes.ts::Square implements src/shapes.ts::Shape d1 L21",
            "src/shapes.ts::Cube implements src/shapes.ts::Solid d2 L31",
        ]
    );
    assert_eq!(col(&r, "sub_interfaces", "node"), strs(&["src/shapes.ts::Solid"]));
    assert_eq!(col(&r, "sub_interfaces", "extends"), strs(&["src/shapes.ts::Shape"]));

    let r = out(&find_implementations(g, &args(json!({"id": "Solid"}))).unwrap());
    assert_eq!(col(&r, "implementations", "node"), strs(&["src/shapes.ts::Cube"]));
    assert_eq!(r.get("sub_interfaces"), None);
    // A class nobody implements: empty (subclasses are not implementations).
    let r = out(&find_implementations(g, &args(json!({"id": "Square"}))).unwrap());
    assert_eq!(r["implementations"], json!([]));

    let e = err_of(find_implementations(g, &args(json!({"id": "Shape.area"}))));
    assert_eq!(
        e.message,
        "find_implementations needs an interface or type, but \"app-ts/src/shapes.ts::Shape.area\" is a method (for a \
         method use find_overrides with direction \"children\")"
    );
}

fn override_rows(r: &Value, key: &str) -> Vec<String> {
    r[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| format!("{} d{}", o["method"]["id"].as_str().unwrap(), o["depth"]))
        .collect()
}

#[test]
fn find_overrides_derives_parents_and_children() {
    let g = app();
    let r = out(&find_overrides(g, &args(json!({"id": "Cube.name"}))).unwrap());
    assert_eq!(r["owner"]["id"], json!("src/shapes.ts::Cube"));
    assert_eq!(
        override_rows(&r, "parents"),
        ["src/shapes.ts::Square.name d1", "src/shapes.ts::Shape.name d2"]
    );
    assert_eq!(override_rows(&r, "children"), Vec::<String>::new());

    let r = out(&find_overrides(g, &args(json!({"id": "Shape.name", "direction": "children"}))).unwrap());
    assert_eq!(
        override_rows(&r, "children"),
        [
            "src/shapes.ts::Circle.name d1",
            "src/shapes.ts::Square.name d1",
            "src/shapes.ts::Cube.name d2",
        ]
    );
    assert_eq!(col(&r, "children", "owner")[2], json!("src/shapes.ts::Cube"));

    let r = out(&find_overrides(g, &args(json!({"id": "Square.name", "direction": "parents"}))).unwrap());
    assert_eq!(override_rows(&r, "parents"), ["src/shapes.ts::Shape.name d1"]);
    assert_eq!(r["children"], json!([]));
    let r = out(&find_overrides(g, &args(json!({"id": "Cube.volume"}))).unwrap());
    assert_eq!(override_rows(&r, "parents"), ["src/shapes.ts::Solid.volume d1"]);

    let e = err_of(find_overrides(g, &args(json!({"id": "Cube.name", "direction": "up"}))));
    assert_eq!(
        e.message,
        "direction must be one of parents, children, both, got \"up\""
    );
    let e = err_of(find_overrides(g, &args(json!({"id": "summarize"}))));
    assert_eq!(
        e.message,
        "find_overrides needs a method, but \"app-ts/src/render.ts::summarize\" is a function"
    );
}

#[test]
fn get_class_hierarchy_returns_the_subgraph() {
    let g = app();
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Square", "include_methods": true}))).unwrap());
    assert_eq!(
        r["nodes"],
        strip_value(json!([
            {"node": NodeSummary::of(g.node("app-ts/src/shapes.ts::Square").unwrap()), "side": "root", "depth": 0,
             "methods": [
                {"id": "app-ts/src/shapes.ts::Square.area", "name": "area", "line": 23,
                 "overrides": ["app-ts/src/shapes.ts::Shape.area"]},
                {"id": "app-ts/src/shapes.ts::Square.name", "name": "name", "line": 26,
                 "overrides": ["app-ts/src/shapes.ts::Shape.name"]}]},
            {"node": NodeSummary::of(g.node("app-ts/src/shapes.ts::Shape").unwrap()), "side": "up", "depth": 1,
             "methods": [
                {"id": "app-ts/src/shapes.ts::Shape.area", "name": "area", "line": 3},
                {"id": "app-ts/src/shapes.ts::Shape.name", "name": "name", "line": 4}]},
            {"node": NodeSummary::of(g.node("app-ts/src/shapes.ts::Cube").unwrap()), "side": "down", "depth": 1,
             "methods": [
                {"id": "app-ts/src/shapes.ts::Cube.volume", "name": "volume", "line": 32,
                 "overrides": ["app-ts/src/shapes.ts::Solid.volume"]},
                {"id": "app-ts/src/shapes.ts::Cube.name", "name": "name", "line": 35,
                 "overrides": ["app-ts/src/shapes.ts::Square.name"]}]}
        ]))
    );
    assert_eq!(
        r["edges"],
        json!([
            {"from": "src/shapes.ts::Cube", "to": "src/shapes.ts::Square", "kind": "extends", "origin": "ast_resolved", "line": 31},
            {"from": "src/shapes.ts::Square", "to": "src/shapes.ts::Shape", "kind": "implements", "origin": "ast_resolved", "line": 21}
        ])
    );

    let nodes = |r: &Value| -> Vec<String> {
        r["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                format!(
                    "{} {} d{}",
                    n["node"]["id"].as_str().unwrap(),
                    n["side"].as_str().unwrap(),
                    n["depth"]
                )
            })
            .collect()
    };
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Shape", "direction": "down", "depth": 1}))).unwrap());
    assert_eq!(
        nodes(&r),
        [
            "src/shapes.ts::Shape root d0",
            "src/shapes.ts::Circle down d1",
            "src/shapes.ts::Solid down d1",
            "src/shapes.ts::Square down d1",
        ]
    );
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Shape", "direction": "down"}))).unwrap());
    assert_eq!(nodes(&r).last().unwrap(), "src/shapes.ts::Cube down d2");
    assert_eq!(r["edges"].as_array().unwrap().len(), 5);
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Cube", "direction": "up"}))).unwrap());
    assert_eq!(
        nodes(&r),
        [
            "src/shapes.ts::Cube root d0",
            "src/shapes.ts::Solid up d1",
            "src/shapes.ts::Square up d1",
            "src/shapes.ts::Shape up d2",
        ]
    );
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Shape", "direction": "down", "limit": 2}))).unwrap());
    assert_eq!(nodes(&r).len(), 3);
    assert_eq!(r["truncated"], json!(true));

    // A method: its override chain with derived `overrides` edges.
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Square.name"}))).unwrap());
    assert_eq!(
        nodes(&r),
        [
            "src/shapes.ts::Square.name root d0",
            "src/shapes.ts::Shape.name up d1",
            "src/shapes.ts::Cube.name down d1",
        ]
    );
    assert_eq!(
        r["edges"],
        json!([
            {"from": "src/shapes.ts::Cube.name", "to": "src/shapes.ts::Square.name", "kind": "overrides", "origin": "ast_resolved", "line": 35},
            {"from": "src/shapes.ts::Square.name", "to": "src/shapes.ts::Shape.name", "kind": "overrides", "origin": "ast_resolved", "line": 26}
        ])
    );

    let e = err_of(get_class_hierarchy(g, &args(json!({"id": "Shape", "depth": 11}))));
    assert_eq!(e.message, "depth must be 1..=10, got 11");
    let e = err_of(get_class_hierarchy(
        g,
        &args(json!({"id": "Shape", "direction": "sideways"})),
    ));
    assert_eq!(e.message, "direction must be one of up, down, both, got \"sideways\"");
    let e = err_of(get_class_hierarchy(g, &args(json!({"id": "VERSION"}))));
    assert_eq!(e.code, "invalid_argument");
}

// ---------------------------------------------------------------------------------------------
// get_cluster
// ---------------------------------------------------------------------------------------------

#[test]
fn get_cluster_returns_the_usage_neighbourhood() {
    let g = app();
    let r = out(&get_cluster(g, &args(json!({"id": "summarize"}))).unwrap());
    let nodes: Vec<String> = r["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{} d{}", n["node"]["id"].as_str().unwrap(), n["depth"]))
        .collect();
    assert_eq!(
        nodes,
        [
            "src/render.ts::summarize d0",
            "src/render.test.ts::render.summarizes d1",
            "src/render.ts::Renderer.draw d1",
            "src/shapes.ts::Shape d1",
            "src/shapes.ts::Shape.area d1",
            "src/shapes.ts::Shape.name d1",
        ]
    );
    let edges: Vec<String> = r["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} -{}-> {} L{}",
                e["from"].as_str().unwrap(),
                e["kind"].as_str().unwrap(),
                e["to"].as_str().unwrap(),
                e["line"]
            )
        })
        .collect();
    assert_eq!(
        edges,
        [
            "src/render.test.ts::render.summarizes -calls-> src/render.ts::summarize L6",
            "src/render.ts::Renderer.draw -calls-> src/render.ts::summarize L11",
            "src/render.ts::Renderer.draw -typed_as-> src/shapes.ts::Shape L10",
            "src/render.ts::summarize -typed_as-> src/shapes.ts::Shape L15",
            "src/render.ts::summarize -calls-> src/shapes.ts::Shape.area L17",
            "src/render.ts::summarize -calls-> src/shapes.ts::Shape.name L16",
        ]
    );
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(5), json!(false)));

    let r = out(&get_cluster(g, &args(json!({"id": "summarize", "limit": 2, "include_tests": false}))).unwrap());
    assert_eq!(
        col(&r, "nodes", "node"),
        strs(&[
            "src/render.ts::summarize",
            "src/render.ts::Renderer.draw",
            "src/shapes.ts::Shape"
        ])
    );
    assert_eq!((r["total"].clone(), r["truncated"].clone()), (json!(4), json!(true)));

    let r = out(&get_cluster(g, &args(json!({"id": "summarize", "depth": 2}))).unwrap());
    // Depth 2 adds formatLabel and main (via draw), Circle, Solid and Square (via Shape).
    assert_eq!(r["total"], json!(10));

    let e = err_of(get_cluster(g, &args(json!({"id": "summarize", "depth": 4}))));
    assert_eq!(e.message, "depth must be 1..=3, got 4");
}

// ---------------------------------------------------------------------------------------------
// Python
// ---------------------------------------------------------------------------------------------

#[test]
fn python_protocols_overrides_and_imports() {
    let g = py();
    // A class subclassing a Protocol implements it; its own subclass is not listed.
    let r = out(&find_implementations(g, &args(json!({"id": "Store"}))).unwrap());
    assert_eq!(
        col(&r, "implementations", "node"),
        strs(&["shop/store.py::MemoryStore"])
    );
    assert_eq!(col(&r, "implementations", "kind"), strs(&["extends"]));

    let r = out(&find_overrides(g, &args(json!({"id": "AuditedStore.save"}))).unwrap());
    assert_eq!(
        override_rows(&r, "parents"),
        ["shop/store.py::MemoryStore.save d1", "shop/store.py::Store.save d2"]
    );
    let r = out(&get_class_hierarchy(g, &args(json!({"id": "Store", "direction": "down"}))).unwrap());
    assert_eq!(
        col(&r, "nodes", "node"),
        strs(&[
            "shop/store.py::Store",
            "shop/store.py::MemoryStore",
            "shop/store.py::AuditedStore"
        ])
    );

    // `super().save()` is a resolved call; the override itself has none.
    let r = out(&get_callers(g, &args(json!({"id": "MemoryStore.save"}))).unwrap());
    assert_eq!(
        col(&r, "callers", "caller"),
        strs(&["shop/store.py::AuditedStore.save"])
    );
    assert_eq!(r.get("caveat"), None);
    let r = out(&get_callers(g, &args(json!({"id": "AuditedStore.save"}))).unwrap());
    assert_eq!(r["callers"], json!([]));
    assert_eq!(r["caveat"]["class"], json!("coverage_incomplete"));

    let r = out(&get_callers(g, &args(json!({"id": "run"}))).unwrap());
    assert_eq!(col(&r, "callers", "caller"), strs(&["tests/test_service.py::test_run"]));
    assert_eq!(r["callers"][0]["caller"]["is_test"], json!(true));
    let r = out(&get_callers(g, &args(json!({"id": "run", "include_tests": false}))).unwrap());
    assert_eq!(r["callers"], json!([]));

    let r = out(&get_file_summary(g, &args(json!({"path": "shop/service.py"}))).unwrap());
    assert_eq!(
        r["imports"],
        json!([
            {"line": 1, "kind": "imports", "module": "shop/store.py", "target": "shop/store.py",
             "symbols": ["shop/store.py::MemoryStore", "shop/store.py::Store"], "status": "resolved",
             "origin": "ast_resolved"},
            {"line": 2, "kind": "imports", "module": "shop.missing", "target": "external::shop.missing",
             "status": "external", "origin": "ast_resolved"}
        ])
    );
    let r = out(&get_dependencies(g, &args(json!({"id": "shop/service.py"}))).unwrap());
    assert_eq!(
        dep_lines(&r),
        [
            "d1 external::shop.missing [imports] ast_resolved L2",
            "d1 shop/store.py [imports,calls,instantiates,typed_as] ast_resolved L1",
        ]
    );
    let r = out(&get_call_chain(g, &args(json!({"id": "run"}))).unwrap());
    assert_eq!(
        col(&r, "calls", "to"),
        strs(&[
            "shop/service.py::checkout",
            "shop/store.py::MemoryStore",
            "shop/store.py::Store.save"
        ])
    );
}

/// Expected JSON built from unstripped summaries, stripped like [`out`].
fn strip_value(v: Value) -> Value {
    out(&v)
}
