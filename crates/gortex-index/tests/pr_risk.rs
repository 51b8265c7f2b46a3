//! `pr_risk` through the query door on a small planted repository: a helper with 21 callers and a
//! test, an untested password check, and a changeset spanning both.

mod common;

use common::{index, options, write_file};
use serde_json::{json, Value};

fn axis(r: &Value, name: &str) -> u64 {
    r["axes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap()["score"]
        .as_u64()
        .unwrap()
}

#[test]
fn pr_risk_scores_the_five_axes_and_orders_the_review() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = dir.path().join("app");
    write_file(
        &root,
        "src/util.ts",
        "export function helper(x: number): number {\n  return x + 1;\n}\n",
    );
    write_file(
        &root,
        "src/auth.ts",
        "export function checkPassword(p: string): boolean {\n  return p.length > 3;\n}\n",
    );
    let callers: String = (0..21)
        .map(|n| format!("export function caller{n}(): number {{\n  return helper({n});\n}}\n"))
        .collect();
    write_file(
        &root,
        "src/callers.ts",
        &format!("import {{ helper }} from './util';\n{callers}"),
    );
    write_file(
        &root,
        "test/util.test.ts",
        "import { helper } from '../src/util';\ntest('adds one', () => {\n  helper(1);\n});\n",
    );
    let (repo, _) = index(&root, &options(home.path()));

    let helper = repo.query("pr_risk", json!({ "ids": ["helper"] })).unwrap();
    assert_eq!(axis(&helper, "fan_in"), 100, "{helper}");
    assert_eq!(axis(&helper, "coverage_gap"), 0, "a test reaches helper: {helper}");
    assert_eq!(axis(&helper, "security"), 0);
    assert!(axis(&helper, "blast_radius") > 50, "21 callers depend on it: {helper}");

    let auth = repo.query("pr_risk", json!({ "ids": ["src/auth.ts"] })).unwrap();
    assert_eq!(auth["symbols"], 1, "a file stands for its symbols: {auth}");
    assert_eq!(axis(&auth, "security"), 100);
    assert_eq!(axis(&auth, "coverage_gap"), 100);
    assert_eq!(axis(&auth, "fan_in"), 0);

    let both = repo
        .query("pr_risk", json!({ "ids": ["helper", "checkPassword", "gone"] }))
        .unwrap();
    let order: Vec<&str> = both["review_priorities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(order, vec!["checkPassword", "helper"], "{both}");
    assert_eq!(both["unknown"], json!(["gone"]));
    let level = both["level"].as_str().unwrap();
    assert!(["LOW", "MEDIUM", "HIGH", "CRITICAL"].contains(&level));
    let composite: f64 = both["axes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["weight"].as_f64().unwrap() * a["score"].as_f64().unwrap())
        .sum();
    assert_eq!(both["score"].as_f64().unwrap(), composite.round());

    let e = repo.query("pr_risk", json!({ "ids": [] })).unwrap_err();
    assert!(e.message.contains("needs the changed symbols"), "{}", e.message);
}
