//! `analyze kind=contract_sites` through the query door: every family found in a small mixed
//! repository, the whole answer computed once per graph version (a narrowed call runs its own
//! sweep), and a changed file seen by the next call.

mod common;

use common::*;
use serde_json::{json, Value};

fn sites(index: &gortex_index::RepoIndex, args: Value) -> Value {
    let mut args = args;
    args["kind"] = json!("contract_sites");
    index.query("analyze", args).unwrap_or_else(|e| panic!("{e:?}"))
}

fn keys(r: &Value) -> Vec<String> {
    r["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {}", s["role"].as_str().unwrap(), s["key"].as_str().unwrap()))
        .collect()
}

#[test]
fn sites_are_found_cached_per_graph_version_and_follow_edits() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("svc");
    let files: &[(&str, &str)] = &[
        ("api/server.ts", "import express from 'express';\nconst app = express();\napp.get('/items/:id', getItem);\nfunction getItem() {}\n"),
        ("web/client.ts", "export async function load(id: string) {\n  return fetch(`${process.env.API_URL}/items/${id}`);\n}\n"),
        ("jobs/run.py", "from kafka import KafkaConsumer\n\ndef run():\n    consumer = KafkaConsumer(\"items-changed\")\n"),
    ];
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (mut index, _) = index(&root, &opts);
    let all = sites(&index, json!({}));
    assert_eq!(
        keys(&all),
        vec![
            "consumer env::API_URL",
            "consumer http::GET::/items/{}",
            "provider http::GET::/items/{}",
            "consumer topic::items-changed"
        ]
    );
    // The same answer again (from the cache), cut by limit with its totals kept.
    assert_eq!(sites(&index, json!({})), all);
    let one = sites(&index, json!({ "limit": 1 }));
    assert_eq!(
        (
            one["sites"].as_array().unwrap().len(),
            one["total"].as_u64(),
            one["truncated"].as_bool()
        ),
        (1, Some(4), Some(true))
    );
    // Narrowed calls run their own sweep.
    assert_eq!(
        keys(&sites(&index, json!({ "kinds": ["topic"] }))),
        vec!["consumer topic::items-changed"]
    );
    let bad = index
        .query("analyze", json!({ "kind": "contract_sites", "kinds": ["smtp"] }))
        .unwrap_err();
    assert!(bad.message.contains("`smtp` is not one of"), "{}", bad.message);
    let bad = index
        .query("analyze", json!({ "kind": "contract_sites", "limit": 0 }))
        .unwrap_err();
    assert!(bad.message.contains("limit must be 1..=20000"), "{}", bad.message);
    // An edit makes a new graph version: the next call sees it.
    std::fs::write(root.join("jobs/run.py"), "from kafka import KafkaProducer\n\ndef run(p):\n    producer = KafkaProducer()\n    producer.send(\"items-changed\", b\"x\")\n").unwrap();
    index.update_paths(&["jobs/run.py".to_string()], &opts).unwrap();
    assert!(keys(&sites(&index, json!({}))).contains(&"provider topic::items-changed".to_string()));
}
