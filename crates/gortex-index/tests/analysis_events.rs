//! `analyze` kinds `annotation_users` (graph), `log_events` and `event_emitters` (syntax trees)
//! through the query door, on a real index of `test/fixtures/events`, with exact expected rows.
//!
//! Fixture shape (planted facts):
//! - `go/server.go`: `log.Printf("listening on %d")` in two functions, `slog.Info` and
//!   `slog.Error`; `errors.New` and `fmt.Errorf` (errors, not logs).
//! - `py/app.py`: two `@app.route` handlers logging at info and warning; `notify` emits
//!   `user_joined` and logs an exception.
//! - `web/bus.ts`: an `@Injectable()` class listening to and emitting `order:placed`, emitting
//!   `order:shipped` (no listener), `console.log('order placed')`; `listen` listens for `click`
//!   (never emitted here), `console.error('clicked')`, dispatches `new CustomEvent('ready')`.
//! - `java/Orders.java`: `@Override`, `@Deprecated`; `log.info("order placed")`,
//!   `log.error("order failed")`. `rust/lib.rs`: `info!`, `warn!`, `log::error!`.
//! - Configuration reads: `go/config.go` (viper `db.host`, `db.port`; a header's `Get` is not
//!   one), `py/settings.py` (`config.get("db.host")`, `app.config["SECRET_KEY"]`; a dict's `get`
//!   is not), `web/config.ts` (NestJS `configService.get('MAIL_FROM')`), `java/Settings.java`
//!   (`@Value("${db.host:localhost}")`, `env.getProperty("db.port")`).

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("events"))
}

fn analyze(args: Value) -> Value {
    repo().query("analyze", args).unwrap()
}

#[test]
fn log_events_groups_messages_by_level_and_leaves_errors_out() {
    let r = analyze(json!({ "kind": "log_events" }));
    assert_eq!(r["evidence"], json!("ast"));
    let rows: Vec<(String, String, u64)> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["level"].as_str().unwrap().to_string(),
                e["message"].as_str().unwrap().to_string(),
                e["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, String, u64)> = [
        ("info", "order placed", 2),
        ("print", "listening on %d", 2),
        ("error", "boot failed", 1),
        ("error", "clicked", 1),
        ("error", "no port", 1),
        ("error", "notify failed", 1),
        ("error", "order failed", 1),
        ("warn", "low memory", 1),
        ("warn", "not ready yet", 1),
        ("info", "booting", 1),
        ("info", "health checked", 1),
        ("info", "server started", 1),
    ]
    .iter()
    .map(|(l, m, c)| (l.to_string(), m.to_string(), *c))
    .collect();
    assert_eq!(rows, want);
    assert_eq!(r["by_level"], json!({ "error": 5, "info": 5, "print": 2, "warn": 2 }));
    let placed = &r["events"][0]["sites"];
    assert_eq!(placed[0]["path"], json!("java/Orders.java"));
    assert_eq!(placed[0]["function"]["qual_name"], json!("Orders.place"));
    let printed = analyze(json!({ "kind": "log_events", "level": "print" }));
    let fns: Vec<&str> = printed["events"][0]["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["function"]["qual_name"].as_str().unwrap())
        .collect();
    assert_eq!(fns, ["Serve", "Retry"]);
    let some = analyze(json!({ "kind": "log_events", "contains": "ORDER", "path_prefix": "java/" }));
    assert_eq!(some["total"], json!(2));
    let e = repo()
        .query("analyze", json!({ "kind": "log_events", "level": "loud" }))
        .unwrap_err();
    assert!(
        e.message
            .contains("level must be one of debug, info, warn, error, fatal, print"),
        "{}",
        e.message
    );
}

#[test]
fn event_emitters_pairs_emitters_with_listeners() {
    let r = analyze(json!({ "kind": "event_emitters" }));
    let rows: Vec<(String, u64, u64)> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_string(),
                e["emits"].as_u64().unwrap(),
                e["listens"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64, u64)> = [
        ("click", 0, 1),
        ("order:placed", 1, 1),
        ("order:shipped", 1, 0),
        ("ready", 1, 0),
        ("user_joined", 1, 0),
    ]
    .iter()
    .map(|(e, a, b)| (e.to_string(), *a, *b))
    .collect();
    assert_eq!(rows, want);
    assert_eq!((&r["emitted_only"], &r["listened_only"]), (&json!(3), &json!(1)));
    let placed = analyze(json!({ "kind": "event_emitters", "event": "order:placed" }));
    assert_eq!(
        placed["events"][0]["emitters"][0]["function"]["qual_name"],
        json!("Bus.start")
    );
    assert_eq!(placed["events"][0]["listeners"][0]["line"], json!(10));
    let orphans = analyze(json!({ "kind": "event_emitters", "orphans": "listened_only" }));
    assert_eq!(orphans["events"][0]["event"], json!("click"));
    assert_eq!(orphans["total"], json!(1));
}

#[test]
fn annotation_users_groups_symbols_by_decorator() {
    let r = analyze(json!({ "kind": "annotation_users" }));
    let rows: Vec<(String, Vec<String>)> = r["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["annotation"].as_str().unwrap().to_string(),
                a["symbols"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["qual_name"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let want: Vec<(String, Vec<String>)> = [
        ("app.route", vec!["health", "ready"]),
        ("Deprecated", vec!["Orders.place"]),
        ("Injectable", vec!["Bus"]),
        ("Override", vec!["Orders.toString"]),
        ("Value", vec!["Settings.host"]),
    ]
    .iter()
    .map(|(a, s)| (a.to_string(), s.iter().map(|x| x.to_string()).collect()))
    .collect();
    assert_eq!(rows, want);
    assert_eq!(r["annotated_symbols"], json!(6));
    let route = analyze(json!({ "kind": "annotation_users", "name": "@app.route" }));
    assert_eq!(route["annotations"][0]["languages"], json!(["python"]));
    assert_eq!(route["annotations"][0]["by_kind"], json!({ "function": 2 }));
}

#[test]
fn pubsub_pairs_publishers_with_subscribers_by_topic() {
    // The three services of the contracts fixture indexed as one repository: orders publishes
    // `order-created` (users subscribes), users publishes `user-created` (nobody subscribes).
    let repo = fixture_index("contracts");
    let r = repo.query("analyze", json!({ "kind": "pubsub" })).unwrap();
    let rows: Vec<(String, String, Vec<String>, Vec<String>)> = r["topics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let at = |side: &str| -> Vec<String> {
                t[side]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        format!(
                            "{}:{} ({})",
                            s["path"].as_str().unwrap(),
                            s["line"],
                            s["source"].as_str().unwrap()
                        )
                    })
                    .collect()
            };
            (
                t["topic"].as_str().unwrap().to_string(),
                t["status"].as_str().unwrap().to_string(),
                at("publishers"),
                at("subscribers"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "order-created".to_string(),
                "matched".to_string(),
                vec!["orders-go/main.go:27 (kafka-go)".to_string()],
                vec!["users-py/app.py:44 (kafka-python)".to_string()]
            ),
            (
                "user-created".to_string(),
                "publish_only".to_string(),
                vec!["users-py/app.py:30 (kafka-python)".to_string()],
                vec![]
            ),
        ]
    );
    assert_eq!((&r["publish_only"], &r["subscribe_only"]), (&json!(1), &json!(0)));
    let one = repo
        .query(
            "analyze",
            json!({ "kind": "pubsub", "topic": "user-created", "path_prefix": "users-py/" }),
        )
        .unwrap();
    assert_eq!(one["total"], json!(1));
}

#[test]
fn config_readers_groups_reads_by_key_on_configuration_objects() {
    let r = analyze(json!({ "kind": "config_readers" }));
    let rows: Vec<(String, Vec<String>)> = r["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["key"].as_str().unwrap().to_string(),
                k["sites"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        format!(
                            "{}:{} {}",
                            s["path"].as_str().unwrap(),
                            s["line"],
                            s["function"]["qual_name"].as_str().unwrap_or("-")
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let want: Vec<(String, Vec<String>)> = [
        (
            "db.host",
            vec!["go/config.go:10 Load", "java/Settings.java:5 -", "py/settings.py:2 dsn"],
        ),
        (
            "db.port",
            vec!["go/config.go:11 Load", "java/Settings.java:9 Settings.port"],
        ),
        ("MAIL_FROM", vec!["web/config.ts:4 Mailer.sender"]),
        ("SECRET_KEY", vec!["py/settings.py:3 dsn"]),
    ]
    .iter()
    .map(|(k, s)| (k.to_string(), s.iter().map(|x| x.to_string()).collect()))
    .collect();
    assert_eq!(rows, want);
    let db = analyze(json!({ "kind": "config_readers", "key": "db" }));
    assert_eq!(db["total"], json!(2));
}
