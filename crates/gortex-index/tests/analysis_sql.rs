//! `analyze` kinds `sql_call_sites`, `unreferenced_tables` and `orphan_tables` through the query
//! door, on a real index of `test/fixtures/sql`, with exact expected rows.
//!
//! Fixture shape (planted facts):
//! - `db/schema.sql` defines `users`, `orders`, `audit_log` (read only by the view
//!   `recent_audit`) and `legacy_accounts` (read by nothing).
//! - Code: Go selects from `users` and inserts into `orders`; Java joins `orders` and `users`;
//!   Python updates `users`, deletes from `sessions`, and returns the prose "Select a file to
//!   upload" (not SQL); TypeScript creates `sessions` in a migration string and selects from
//!   `payments`, which nothing defines.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("sql"))
}

fn analyze(args: Value) -> Value {
    repo().query("analyze", args).unwrap()
}

#[test]
fn sql_call_sites_lists_sql_strings_with_verbs_and_tables() {
    let r = analyze(json!({ "kind": "sql_call_sites" }));
    let rows: Vec<(String, u64, String, Vec<String>, String)> = r["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
                s["verb"].as_str().unwrap().to_string(),
                s["tables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect(),
                s["function"]["qual_name"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want: Vec<(String, u64, String, Vec<String>, String)> = [
        ("go/repo.go", 6, "SELECT", vec!["users"], "FindUser"),
        ("go/repo.go", 11, "INSERT", vec!["orders"], "PlaceOrder"),
        ("java/Report.java", 3, "SELECT", vec!["orders", "users"], "Report.count"),
        ("py/store.py", 2, "UPDATE", vec!["users"], "rename"),
        ("py/store.py", 6, "DELETE", vec!["sessions"], "expire"),
        ("web/migrate.ts", 1, "CREATE", vec!["sessions"], ""),
        ("web/migrate.ts", 4, "SELECT", vec!["payments"], "payments"),
    ]
    .iter()
    .map(|(p, l, v, t, f)| {
        (
            p.to_string(),
            *l,
            v.to_string(),
            t.iter().map(|x| x.to_string()).collect(),
            f.to_string(),
        )
    })
    .collect();
    assert_eq!(rows, want);
    assert_eq!(
        r["by_verb"],
        json!({ "CREATE": 1, "DELETE": 1, "INSERT": 1, "SELECT": 3, "UPDATE": 1 })
    );
    assert_eq!(r["sites"][0]["sql"], json!("SELECT id, name FROM users WHERE id = $1"));
    let users = analyze(json!({ "kind": "sql_call_sites", "table": "Public.Users", "verb": "select" }));
    assert_eq!(users["total"], json!(2));
    let e = repo()
        .query("analyze", json!({ "kind": "sql_call_sites", "verb": "upsert" }))
        .unwrap_err();
    assert!(
        e.message.contains("verb must be one of select, insert,"),
        "{}",
        e.message
    );
}

#[test]
fn unreferenced_and_orphan_tables_join_schema_and_code() {
    let r = analyze(json!({ "kind": "unreferenced_tables" }));
    let rows: Vec<(String, Vec<String>)> = r["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["table"]["name"].as_str().unwrap().to_string(),
                t["views"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("audit_log".to_string(), vec!["recent_audit".to_string()]),
            ("legacy_accounts".to_string(), vec![])
        ]
    );
    assert_eq!(r["defined"], json!(5));
    let py = analyze(json!({ "kind": "unreferenced_tables", "path_prefix": "py/" }));
    let names: Vec<&str> = py["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["table"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["audit_log", "legacy_accounts", "orders"]);

    let o = analyze(json!({ "kind": "orphan_tables" }));
    assert_eq!(o["total"], json!(1));
    assert_eq!(o["tables"][0]["table"], json!("payments"));
    assert_eq!(o["tables"][0]["sites"][0]["path"], json!("web/migrate.ts"));
    let e = repo()
        .query("analyze", json!({ "kind": "orphan_tables", "path_prefix": "../x" }))
        .unwrap_err();
    assert!(e.message.contains("path_prefix"), "{}", e.message);
}

#[test]
fn sql_rebuild_summarises_the_sql_layer_from_the_files() {
    let r = analyze(json!({ "kind": "sql_rebuild" }));
    let mut r = r.as_object().unwrap().clone();
    r.remove("files_searched");
    assert_eq!(
        Value::Object(r),
        json!({
            // Seven SQL strings and the prose "Select a file to upload".
            "strings_visited": 8, "sql_strings": 7, "not_sql": 1,
            "by_verb": { "CREATE": 1, "DELETE": 1, "INSERT": 1, "SELECT": 3, "UPDATE": 1 },
            // users, orders, audit_log, legacy_accounts in schema.sql; sessions in a migration string.
            "tables_defined": 5,
            "tables_used": 4,
            // FindUser→users, Report.count→orders and users, payments→payments read;
            // PlaceOrder→orders, rename→users, expire→sessions write.
            "links": 7, "reads": 4, "writes": 3,
            "emitters": 6,
            "orphan_tables": 1,
            "unreferenced_tables": 2,
            "evidence": "ast"
        })
    );
    let py = analyze(json!({ "kind": "sql_rebuild", "path_prefix": "py/" }));
    assert_eq!(
        (py["sql_strings"].as_u64(), py["not_sql"].as_u64(), py["links"].as_u64()),
        (Some(2), Some(1), Some(2))
    );
    let bad = repo()
        .query("analyze", json!({ "kind": "sql_rebuild", "path_prefix": "/etc" }))
        .unwrap_err();
    assert!(refused(bad).contains("repository-relative"));
}
