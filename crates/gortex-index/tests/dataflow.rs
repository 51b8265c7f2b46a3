//! Dataflow over `test/fixtures/analysis/dataflow`: the planted request-input → SQL paths (one per
//! language) and nothing else, a value flow across three functions (forward through arguments,
//! back through returns), no path between unrelated code, and bad input.

mod common;

use common::{fixtures, index, options};
use serde_json::{json, Value};

fn repo() -> (tempfile::TempDir, gortex_index::RepoIndex) {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("analysis/dataflow"), &options(home.path()));
    (home, repo)
}

fn hops(path: &Value) -> Vec<String> {
    path["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            format!(
                "{}>{}:{}",
                h["kind"].as_str().unwrap(),
                h["to"]["kind"].as_str().unwrap(),
                h["to"]["name"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn builtin_taint_finds_request_input_reaching_sql_in_every_language() {
    let (_home, repo) = repo();
    let r = repo.query("taint_paths", json!({})).unwrap();
    let mut found: Vec<(String, String, String)> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["sink"]["function"].as_str().unwrap().to_string(),
                f["sink"]["name"].as_str().unwrap().to_string(),
                f["category"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            ("OrderServlet.find".into(), "executeQuery".into(), "sql".into()),
            ("getUser".into(), "query".into(), "sql".into()),
            ("lookup".into(), "Query".into(), "sql".into()),
            ("search".into(), "execute".into(), "sql".into()),
        ],
        "{r}"
    );
    // The TypeScript path crosses into buildQuery (another file) and back.
    let ts = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["sink"]["function"] == "getUser")
        .unwrap();
    let kinds: Vec<&str> = ts["hops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"arg_of") && kinds.contains(&"returns_to"), "{ts}");
    assert_eq!(ts["source"]["name"], "req.query");
    assert_eq!(r["flow_sensitive"], false);
}

#[test]
fn value_flows_across_three_functions_both_ways() {
    let (_home, repo) = repo();
    let forward = repo
        .query("flow_between", json!({ "source": "start#seed", "sink": "finish#z" }))
        .unwrap();
    assert_eq!(
        hops(&forward["paths"][0]),
        vec![
            "value_flow>variable:doubled",
            "value_flow>argument:middle",
            "arg_of>param:m",
            "value_flow>variable:next",
            "value_flow>argument:finish",
            "arg_of>param:z",
        ],
        "{forward}"
    );
    let back = repo
        .query("flow_between", json!({ "source": "finish", "sink": "start#return" }))
        .unwrap();
    assert_eq!(
        hops(&back["paths"][0]),
        vec![
            "returns_to>result:finish",
            "value_flow>return:return",
            "returns_to>result:middle",
            "value_flow>return:return"
        ],
        "{back}"
    );
    let none = repo
        .query("flow_between", json!({ "source": "unrelated", "sink": "finish" }))
        .unwrap();
    assert_eq!(none["paths"], json!([]));
    assert!(none["diagnosis"].as_str().unwrap().len() > 10, "{none}");
    let patterned = repo
        .query(
            "taint_paths",
            json!({ "source_pattern": "exact:seed", "sink_pattern": "kind:param exact:z" }),
        )
        .unwrap();
    assert_eq!(patterned["total"], 1, "{patterned}");
}

#[test]
fn bad_dataflow_arguments_are_named() {
    let (_home, repo) = repo();
    let err = |tool: &str, args: Value| repo.query(tool, args).unwrap_err();
    let e = err("flow_between", json!({ "source": "start#nope", "sink": "finish" }));
    assert_eq!(e.code, "not_found");
    assert!(
        e.message.contains("doubled") && e.message.contains("seed"),
        "{}",
        e.message
    );
    assert!(err(
        "flow_between",
        json!({ "source": "start", "sink": "finish", "max_depth": 0 })
    )
    .message
    .contains("max_depth"));
    assert!(err("flow_between", json!({ "source": "", "sink": "finish" }))
        .message
        .contains("source"));
    assert!(err("taint_paths", json!({ "sink_pattern": "kind:bogus" }))
        .message
        .contains("kind:bogus"));
    assert!(err("taint_paths", json!({ "source_pattern": "  " }))
        .message
        .contains("blank"));
    assert_eq!(err("taint_paths", json!({ "limit": 0 })).code, "invalid_argument");
}
