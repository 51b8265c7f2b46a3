//! `analyze` kinds sourced from text (`routes`, `env_var_users`, `todos`) over
//! `test/fixtures/analysis/sites`: Express, FastAPI, Flask, Gin, net/http and Spring routes with
//! their handlers, environment reads per language, marker comments — and nothing else.

mod common;

use common::{fixtures, index, options};
use serde_json::{json, Value};

fn run(kind: &str, extra: Value) -> Value {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/sites"), &options(home.path()));
    let mut args = json!({ "kind": kind });
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    repo.query("analyze", args).unwrap_or_else(|e| panic!("{kind}: {e}"))
}

fn str_of(v: &Value) -> String {
    v.as_str().map(str::to_string).unwrap_or_default()
}

#[test]
fn routes_of_every_framework_with_handlers() {
    let r = run("routes", json!({}));
    let rows: Vec<String> = r["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            format!(
                "{} {} {} {}:{} handler={}",
                str_of(&row["framework"]),
                str_of(&row["method"]),
                str_of(&row["route"]),
                str_of(&row["path"]),
                row["line"],
                str_of(&row["handler"]["qual_name"]),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            "fastapi/flask GET /items/{item_id} api/main.py:11 handler=read_item",
            "fastapi/flask ANY /health api/main.py:17 handler=health",
            "spring GET /api/orders/{id} java/com/shop/OrderController.java:7 handler=OrderController.getOrder",
            "spring POST /api/orders java/com/shop/OrderController.java:12 handler=OrderController.createOrder",
            "gin GET /ping svc/main.go:20 handler=ping",
            "net/http ANY /healthz svc/main.go:21 handler=health",
            "express GET /users web/server.ts:16 handler=listUsers",
            "express POST /users web/server.ts:17 handler=createUser",
            "express DELETE /users/:id web/server.ts:18 handler=",
        ]
    );
    assert_eq!(r["total"], 9);
    assert_eq!(r["evidence"], "text");
    // The inline handler is registered inside mount().
    assert_eq!(r["routes"][8]["registered_in"]["name"], "mount");
    let only_post = run("routes", json!({ "method": "post" }));
    assert_eq!(only_post["total"], 2);
    let go_only = run("routes", json!({ "path_prefix": "svc/" }));
    assert_eq!(go_only["total"], 2);
    let globbed = run("routes", json!({ "path_prefix": "**/*.py" }));
    assert_eq!(globbed["by_framework"], json!({ "fastapi/flask": 2 }));
}

#[test]
fn env_vars_grouped_by_name() {
    let r = run("env_var_users", json!({}));
    let mut names: Vec<(String, u64)> = r["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (str_of(&v["name"]), v["reads"].as_u64().unwrap()))
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            ("API_SECRET".into(), 1),
            ("DATABASE_URL".into(), 1),
            ("DEBUG".into(), 1),
            ("PORT".into(), 2),
            ("REGION".into(), 1),
        ]
    );
    // The most-read variable comes first; sites carry their enclosing symbol.
    assert_eq!(r["variables"][0]["name"], "PORT");
    let one = run("env_var_users", json!({ "name": "REGION" }));
    assert_eq!(
        one["variables"][0]["sites"][0]["symbol"]["qual_name"],
        "OrderController.getOrder"
    );
}

#[test]
fn todos_are_comment_markers_only() {
    let r = run("todos", json!({}));
    let rows: Vec<String> = r["todos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!(
                "{} {}:{} {}",
                str_of(&t["tag"]),
                str_of(&t["path"]),
                t["line"],
                str_of(&t["text"])
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            "FIXME api/main.py:13 item lookups ignore soft-deleted rows",
            "HACK svc/main.go:22 the port should come from flags",
            "TODO web/server.ts:11 validate the payload before saving",
            "QUESTION web/server.ts:25 should retries be configurable?",
            "TODO web/server.ts:26 read from config",
        ]
    );
    assert_eq!(r["todos"][2]["symbol"]["name"], "createUser");
    assert_eq!(r["todos"][3]["assignee"], "bob");
    assert_eq!(r["todos"][4]["assignee"], "alice");
    assert_eq!(r["by_assignee"], json!({ "alice": 1, "bob": 1, "unassigned": 3 }));
    assert_eq!(r["by_tag"], json!({ "FIXME": 1, "HACK": 1, "QUESTION": 1, "TODO": 2 }));
    let only = run("todos", json!({ "tags": ["HACK"] }));
    assert_eq!(only["total"], 1);
}

#[test]
fn bad_arguments_are_named() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/sites"), &options(home.path()));
    let err = |args: Value| repo.query("analyze", args).unwrap_err();
    assert!(err(json!({})).message.contains("kind is required"));
    assert!(err(json!({ "kind": "nope" })).message.contains("unknown kind \"nope\""));
    assert!(err(json!({ "kind": 3 })).message.contains("kind must be a string"));
    let e = err(json!({ "kind": "routes", "verb": "GET" }));
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("verb"), "{}", e.message);
    assert!(err(json!({ "kind": "todos", "tags": ["TO DO"] }))
        .message
        .contains("tags must be words"));
    assert!(err(json!({ "kind": "routes", "limit": 0 }))
        .message
        .contains("limit must be 1..=1000"));
}
