//! `analyze kind=cross_repo` through the query door: the links a workspace hands in (as the
//! daemon's workspace does) rolled up per pair of repositories and relation, the targets used
//! most, the filters, and the answer of a repository alone.

mod common;

use common::*;
use serde_json::{json, Value};

fn link(from_repo: &str, from: &str, kind: &str, to_repo: &str, to: &str, line: u32) -> Value {
    json!({
        "from_repo": from_repo, "from": format!("{from_repo}/src/main.ts::{from}"), "from_name": from, "from_kind": "function",
        "path": "src/main.ts", "line": line, "kind": kind, "origin": "ast_resolved",
        "to_repo": to_repo, "to": format!("{to_repo}/src/index.ts::{to}"), "to_name": to, "to_path": "src/index.ts", "via": format!("@demo/{to_repo}.{to}")
    })
}

#[test]
fn cross_repo_rolls_links_up_by_repository_pair_and_relation() {
    let repo = fixture_index("strings");
    let links = json!([
        link("app", "run", "calls", "lib", "sharedHelper", 4),
        link("app", "again", "calls", "lib", "sharedHelper", 9),
        link("app", "Impl", "extends", "lib", "BaseThing", 7),
        link("cli", "main", "calls", "lib", "sharedHelper", 3),
        link("cli", "main", "calls", "app", "run", 5),
    ]);
    let r = repo
        .query("analyze", json!({ "kind": "cross_repo", "links": links }))
        .unwrap();
    let rows: Vec<String> = r["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}->{} {} x{}",
                d["from_repo"].as_str().unwrap(),
                d["to_repo"].as_str().unwrap(),
                d["kind"].as_str().unwrap(),
                d["count"]
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "app->lib calls x2",
            "app->lib extends x1",
            "cli->app calls x1",
            "cli->lib calls x1"
        ]
    );
    assert_eq!(
        r["dependencies"][0]["samples"],
        json!([
            "run → sharedHelper (src/main.ts:4)",
            "again → sharedHelper (src/main.ts:9)"
        ])
    );
    assert_eq!(
        r["targets"][0],
        json!({ "id": "lib/src/index.ts::sharedHelper", "name": "sharedHelper", "repo": "lib", "references": 3, "used_by": ["app", "cli"] })
    );
    assert_eq!((r["references"].as_u64(), r["total"].as_u64()), (Some(5), Some(4)));
    assert_eq!(r["repos"], json!(["app", "cli", "lib"]));
    assert!(r.get("note").is_none());

    let narrowed = repo
        .query(
            "analyze",
            json!({ "kind": "cross_repo", "links": links, "touching": "app", "base_kind": "calls", "limit": 1 }),
        )
        .unwrap();
    assert_eq!(narrowed["dependencies"].as_array().unwrap().len(), 1, "{narrowed}");
    assert_eq!(
        (narrowed["total"].as_u64(), narrowed["truncated"].as_bool()),
        (Some(2), Some(true)),
        "{narrowed}"
    );
    assert_eq!(narrowed["references"], 3);

    let alone = repo.query("analyze", json!({ "kind": "cross_repo" })).unwrap();
    assert_eq!(alone["total"], 0);
    assert!(alone["note"].as_str().unwrap().contains("a single repository has none"));
    let bad = repo
        .query("analyze", json!({ "kind": "cross_repo", "base_kind": "imports" }))
        .unwrap_err();
    assert!(refused(bad).contains("calls, instantiates, references, extends, implements, uses_type"));
}
