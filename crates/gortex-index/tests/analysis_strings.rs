//! `analyze` kinds `string_emitters` (syntax trees) and `named` (detector bundles) through the
//! query door, on real indexes of `test/fixtures/strings` and `test/fixtures/review`, with exact
//! expected rows.
//!
//! Fixture shape of `strings` (planted facts):
//! - `http_requests_total` is registered in Go (`prometheus.CounterOpts`), Python
//!   (`prometheus_client.Counter` with its help text) and TypeScript (`new client.Counter`);
//!   `request_duration_seconds` in Go (`HistogramOpts`), Python and TypeScript (OpenTelemetry
//!   `createHistogram`); `jobs_processed` in Go (`Int64Counter`) and Rust (`counter!`);
//!   `cache.miss` through StatsD clients in Go, Python and TypeScript; `orders_placed` twice in
//!   Java (Micrometer `Counter.builder`, `registry.counter`).
//! - `user not found` is raised six times: Go `errors.New` (twice), Python `ValueError`,
//!   TypeScript `new Error`, Java `IllegalStateException`, Rust `bail!`; `fmt.Errorf("decode %s:
//!   %w")` and `anyhow!("config missing")` once each.
//! - Translation keys: `nav.home` (`t` and `i18n.t`), `cart.empty` (`formatMessage`),
//!   `Welcome back` (gettext `_`).
//! - Look-alikes left out: `collections.Counter("abracadabra")` (one argument), `counter.incr`,
//!   `seen.Count` and `cache.set` (receivers that are no stats clients).

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn strings_repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("strings"))
}

fn rows(r: &Value) -> Vec<String> {
    r["strings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {:?} x{} via {} by {}",
                s["context"].as_str().unwrap(),
                s["value"].as_str().unwrap(),
                s["emits"],
                strings(&s["via"]).join(","),
                s["emitters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["name"].as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect()
}

fn analyze(args: Value) -> Value {
    strings_repo().query("analyze", args).unwrap()
}

#[test]
fn string_emitters_group_metrics_errors_and_translation_keys() {
    let r = analyze(json!({ "kind": "string_emitters" }));
    assert_eq!(
        rows(&r),
        [
            r#"error_msg "user not found" x6 via Error,IllegalStateException,ValueError,bail!,errors.New by place,lookup,process,Record,Lookup,load"#,
            r#"metric "cache.miss" x3 via counter by lookup,Record,record"#,
            r#"metric "http_requests_total" x3 via counter by "#,
            r#"metric "request_duration_seconds" x3 via histogram by record"#,
            r#"i18n "nav.home" x2 via t by menu"#,
            r#"metric "jobs_processed" x2 via counter by process,Record"#,
            r#"metric "orders_placed" x2 via counter by place"#,
            r#"error_msg "config missing" x1 via anyhow! by config"#,
            r#"error_msg "decode %s: %w" x1 via fmt.Errorf by Decode"#,
            r#"i18n "Welcome back" x1 via _ by greet"#,
            r#"i18n "cart.empty" x1 via formatMessage by menu"#,
        ]
    );
    assert_eq!(r["by_context"], json!({ "error_msg": 3, "i18n": 3, "metric": 5 }));
    assert_eq!((r["total"].as_u64(), r["truncated"].as_bool()), (Some(11), Some(false)));
    assert_eq!(r["evidence"], "ast");
    assert_eq!(r["files_searched"], 5);
    // Every site is listed with its file and line.
    let sites: Vec<String> = r["strings"][2]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{}:{}", s["path"].as_str().unwrap(), s["line"]))
        .collect();
    assert_eq!(sites, ["app.py:5", "metrics.go:10", "web.ts:4"]);
}

#[test]
fn string_emitters_filters_narrow_and_bad_arguments_are_refused() {
    let metrics = analyze(json!({ "kind": "string_emitters", "context": "metric", "min_emits": 3 }));
    assert_eq!(
        rows(&metrics),
        [
            r#"metric "cache.miss" x3 via counter by lookup,Record,record"#,
            r#"metric "http_requests_total" x3 via counter by "#,
            r#"metric "request_duration_seconds" x3 via histogram by record"#,
        ]
    );
    let found = analyze(json!({ "kind": "string_emitters", "contains": "NOT FOUND", "path_prefix": "web.ts" }));
    assert_eq!(rows(&found), [r#"error_msg "user not found" x1 via Error by load"#]);
    let cut = analyze(json!({ "kind": "string_emitters", "limit": 2 }));
    assert_eq!(
        (cut["strings"].as_array().unwrap().len(), cut["truncated"].as_bool()),
        (2, Some(true))
    );
    let bad = strings_repo()
        .query("analyze", json!({ "kind": "string_emitters", "context": "route" }))
        .unwrap_err();
    assert!(bad.message.contains("metric, error_msg, i18n"), "{}", bad.message);
}

fn review_repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("review"))
}

/// The golden review findings of these rules, as `path:line rule severity message`.
fn golden(rules: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(fixtures().join("review").join("golden.txt")).unwrap();
    let mut out: Vec<String> = text
        .lines()
        .filter(|l| {
            let mut parts = l.split(' ');
            let (_, rule, severity) = (parts.next(), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            rules.contains(&rule) && severity != "dropped:"
        })
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

fn matches(r: &Value) -> Vec<String> {
    let mut out: Vec<String> = r["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}:{} {} {} {}",
                m["path"].as_str().unwrap(),
                m["line"],
                m["detector"].as_str().unwrap(),
                m["severity"].as_str().unwrap(),
                m["message"].as_str().unwrap()
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn named_bundles_list_and_run_their_detectors() {
    let list = review_repo().query("analyze", json!({ "kind": "named" })).unwrap();
    let names: Vec<&str> = list["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "command-injection",
            "concurrency",
            "error-handling",
            "hardcoded-secrets",
            "logic-slips",
            "null-safety",
            "performance",
            "resource-leaks",
            "security",
            "sql-injection",
            "weak-crypto",
        ]
    );
    assert_eq!(
        list["queries"][0]["detectors"],
        json!(["eval-injection", "shell-string-concat"])
    );
    assert_eq!(list["queries"][0]["source"], "builtin");

    let sql = review_repo()
        .query("analyze", json!({ "kind": "named", "name": "sql-injection" }))
        .unwrap();
    assert_eq!(matches(&sql), golden(&["sql-string-concat"]));
    assert!(!matches(&sql).is_empty());
    assert_eq!(sql["detectors"], json!(["sql-string-concat"]));
    assert_eq!(sql["summary"][0]["detector"], "sql-string-concat");
    assert_eq!(
        sql["summary"][0]["count"].as_u64().unwrap() as usize,
        golden(&["sql-string-concat"]).len()
    );

    let security = review_repo()
        .query("analyze", json!({ "kind": "named", "name": "security" }))
        .unwrap();
    let want = golden(&[
        "sql-string-concat",
        "shell-string-concat",
        "weak-crypto",
        "hardcoded-secret",
    ]);
    assert_eq!(matches(&security), want);
    // Most severe first.
    let severities: Vec<&str> = security["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["severity"].as_str().unwrap())
        .collect();
    let mut sorted = severities.clone();
    sorted.sort_by_key(|s| std::cmp::Reverse(["info", "warning", "error", "critical"].iter().position(|x| x == s)));
    assert_eq!(severities, sorted);
}

#[test]
fn named_project_bundles_override_and_bad_bundles_are_refused() {
    let mine = json!([{ "name": "db", "description": "ours", "detectors": ["sql-string-concat", "loop-query"], "min_severity": "critical" }]);
    let list = review_repo()
        .query("analyze", json!({ "kind": "named", "queries": mine }))
        .unwrap();
    let db = list["queries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == "db")
        .unwrap();
    assert_eq!(db["source"], "config");
    let run = review_repo()
        .query("analyze", json!({ "kind": "named", "name": "db", "queries": mine }))
        .unwrap();
    // loop-query findings are warnings: below the bundle's floor.
    assert_eq!(matches(&run), golden(&["sql-string-concat"]));
    let replaced = json!([{ "name": "performance", "categories": ["secret"] }]);
    let run = review_repo()
        .query(
            "analyze",
            json!({ "kind": "named", "name": "performance", "queries": replaced }),
        )
        .unwrap();
    assert_eq!(matches(&run), golden(&["hardcoded-secret"]));

    // An alias runs its rule, as that rule.
    let alias = review_repo()
        .query(
            "analyze",
            json!({ "kind": "named", "name": "x", "queries": [{ "name": "x", "detectors": ["empty-catch"] }] }),
        )
        .unwrap();
    assert_eq!(alias["detectors"], json!(["swallowed-error"]));
    assert_eq!(matches(&alias), golden(&["swallowed-error"]));
    let refused = |args: Value| refused(review_repo().query("analyze", args).unwrap_err());
    assert!(refused(json!({ "kind": "named", "name": "nope" })).contains("available: command-injection"));
    assert!(
        refused(json!({ "kind": "named", "name": "x", "queries": [{ "name": "x", "detectors": ["nope"] }] }))
            .contains("detector `nope` is not one of")
    );
    assert!(
        refused(json!({ "kind": "named", "name": "x", "queries": [{ "name": "x", "categories": ["nope"] }] }))
            .contains("category `nope` is not one of")
    );
    assert!(
        refused(json!({ "kind": "named", "name": "x", "queries": [{ "name": "x" }] })).contains("selects no detectors")
    );
}
