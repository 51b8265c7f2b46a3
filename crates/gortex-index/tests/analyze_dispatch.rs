//! Every analysis through the query door (`RepoIndex::query`): each `analyze` kind dispatches,
//! `kinds` lists them, caches follow graph updates, `find_clones dead_only` gets the dead-code
//! set, `explain_change_impact` sees communities and flows, and `health_score` is made of its
//! components.

mod common;

use common::{copy_tree, fixtures, index, options};
use gortex_index::analyze::ANALYZE_KINDS;
use serde_json::{json, Value};

/// The kinds answered from git history (tested on a real repository in `history.rs`).
const GIT_KINDS: &[&str] = &["blame", "ownership", "stale_code", "churn", "fixes_history", "releases"];
/// The kinds answered from coverage reports, which this fixture has none of (tested in `measured.rs`).
const REPORT_KINDS: &[&str] = &["coverage", "coverage_summary"];

#[test]
fn every_analyze_kind_dispatches_and_kinds_lists_them() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/quality"), &options(home.path()));
    let listed = repo.query("analyze", json!({ "kind": "kinds" })).unwrap();
    let names: Vec<&str> = listed["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    assert_eq!(names, ANALYZE_KINDS.iter().map(|k| k.name).collect::<Vec<_>>());
    for kind in ANALYZE_KINDS.iter().map(|k| k.name) {
        let args = match kind {
            "would_create_cycle" => json!({ "kind": kind, "from": "ts/clean/math.ts", "to": "ts/clean/main.ts" }),
            _ => json!({ "kind": kind }),
        };
        let r = match repo.query("analyze", args) {
            // The history kinds need git; the fixture is in this repository's worktree when it
            // is a clone, and in none when it is an unpacked source archive.
            Err(e) if GIT_KINDS.contains(&kind) && e.code == "unavailable" => continue,
            Err(e) if REPORT_KINDS.contains(&kind) && e.code == "unavailable" => continue,
            r => r.unwrap_or_else(|e| panic!("{kind}: {e}")),
        };
        assert!(r.is_object(), "{kind} answered {r}");
    }
    assert_eq!(
        repo.query("analyze", json!({ "kind": "untested" })).unwrap()["evidence"],
        "graph"
    );
    let e = repo.query("analyze", json!({ "kind": "kinds", "x": 1 })).unwrap_err();
    assert!(e.message.contains("unknown field `x`"), "{}", e.message);
}

#[test]
fn health_score_is_the_weighted_mean_of_its_components() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/quality"), &options(home.path()));
    let h = repo.query("analyze", json!({ "kind": "health_score" })).unwrap();
    let comps = h["components"].as_array().unwrap();
    let names: Vec<&str> = comps.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["test_reach", "dead_code", "cycles", "structure", "resolution"]);
    let weighted: f64 = comps
        .iter()
        .map(|c| c["weight"].as_f64().unwrap() * c["score"].as_f64().unwrap())
        .sum();
    let score = h["score"].as_f64().unwrap();
    assert!((weighted - score).abs() < 0.2, "{weighted} vs {score}");
    // The planted import cycle a → b → c is measured.
    let cycles = comps.iter().find(|c| c["name"] == "cycles").unwrap();
    assert!(cycles["measure"]["import_cycles"].as_u64().unwrap() >= 1, "{cycles}");
    assert!(cycles["score"].as_f64().unwrap() < 100.0);
    assert!(["A", "B", "C", "D", "F"].contains(&h["grade"].as_str().unwrap()));
    assert!(repo
        .query("analyze", json!({ "kind": "health_score", "strict": true }))
        .is_err());
}

#[test]
fn impact_and_flows_share_the_cached_analyses_and_follow_updates() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/structure"), &options(home.path()));
    let communities = repo.query("get_communities", json!({})).unwrap();
    assert_eq!(communities["communities"].as_array().unwrap().len(), 2, "{communities}");
    let a = repo.communities();
    assert!(
        std::sync::Arc::ptr_eq(&a, &repo.communities()),
        "communities are computed once per graph"
    );
    let impact = repo
        .query("explain_change_impact", json!({ "id": "currentUser" }))
        .unwrap();
    assert!(impact["communities_touched"].as_u64().unwrap() >= 1, "{impact}");
    assert!(!impact["affected_processes"].as_array().unwrap().is_empty(), "{impact}");
    let processes = repo.query("get_processes", json!({})).unwrap();
    assert!(processes["processes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "main"));
}

#[test]
fn find_clones_dead_only_uses_the_dead_code_set_and_follows_edits() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("clones");
    copy_tree(&fixtures().join("analysis/clones"), &root);
    // A private, unused copy of the exported (live) summarizeOrders: a dead duplicate of live code.
    let orders = std::fs::read_to_string(root.join("src/orders.ts")).unwrap();
    let start = orders.find("export function summarizeOrders").unwrap();
    let end = start + orders[start..].find("\n}\n").unwrap() + 3;
    let copy = orders[start..end].replace("export function summarizeOrders", "function oldSummarize");
    std::fs::write(
        root.join("src/legacy.ts"),
        format!("import {{ Order, Summary }} from './orders';\n\n{copy}"),
    )
    .unwrap();
    let (mut repo, _) = index(&root, &options(home.path()));
    let all = repo.query("find_clones", json!({})).unwrap();
    let total = all["clusters_total"].as_u64().unwrap();
    assert!(total >= 3, "{all}");
    let dead = repo.query("find_clones", json!({ "dead_only": true })).unwrap();
    let clusters = dead["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 1, "{dead}");
    let members: Vec<(String, bool)> = clusters[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["qual_name"].as_str().unwrap().to_string(), m["dead"] == true))
        .collect();
    assert!(members.contains(&("oldSummarize".to_string(), true)), "{members:?}");
    assert!(members.contains(&("summarizeOrders".to_string(), false)), "{members:?}");
    // Deleting one copy of a family updates the answer on the next query.
    std::fs::remove_file(root.join("py/warehouse.py")).unwrap();
    repo.update_paths(&["py/warehouse.py".to_string()], &options(home.path()))
        .unwrap();
    let after = repo.query("find_clones", json!({})).unwrap();
    assert_eq!(after["clusters_total"].as_u64().unwrap(), total - 1, "{after}");
    assert!(!after.to_string().contains("schedule_reorders"), "{after}");
    let bad: Value = json!({ "min_similarity": 0.2 });
    assert_eq!(repo.query("find_clones", bad).unwrap_err().code, "invalid_argument");
}
