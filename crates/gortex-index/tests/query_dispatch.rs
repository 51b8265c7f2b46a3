//! `RepoIndex::query`: tool dispatch, argument errors, and search indexes that follow updates.

mod common;

use common::{copy_tree, fixtures, index, options};
use serde_json::{json, Value};

fn ids(rows: &Value, key: &str) -> Vec<String> {
    rows[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {rows}"))
        .iter()
        .map(|r| {
            r["id"]
                .as_str()
                .unwrap_or_else(|| r["caller"]["id"].as_str().unwrap())
                .to_string()
        })
        .collect()
}

#[test]
fn every_listed_tool_dispatches() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("query/app-ts"), &options(home.path()));
    let id = "app-ts/src/render.ts::summarize";
    let calls: Vec<(&str, Value)> = vec![
        ("search_symbols", json!({ "query": "summarize" })),
        ("winnow_symbols", json!({ "kind": "function" })),
        ("search_text", json!({ "query": "summarize(" })),
        ("find_files", json!({ "query": "render" })),
        (
            "search_ast",
            json!({ "language": "typescript", "pattern": "(call_expression) @call" }),
        ),
        ("find_declaration", json!({ "query": "summarize(" })),
        ("get_symbol", json!({ "id": id })),
        ("get_file_summary", json!({ "path": "src/render.ts" })),
        ("get_dependencies", json!({ "id": id })),
        ("get_dependents", json!({ "id": id })),
        ("get_callers", json!({ "id": id })),
        ("get_call_chain", json!({ "id": id })),
        ("find_usages", json!({ "id": id })),
        ("find_implementations", json!({ "id": "Shape" })),
        ("find_overrides", json!({ "id": "Cube.name" })),
        ("get_class_hierarchy", json!({ "id": "Square" })),
        ("get_cluster", json!({ "id": id })),
        ("walk_graph", json!({ "id": id })),
        ("graph_query", json!({ "query": "nodes kind=interface" })),
        ("trace_path", json!({ "from": "main", "to": "formatLabel" })),
        (
            "find_import_path",
            json!({ "from": "src/cli.ts", "to": "src/shapes.ts" }),
        ),
        ("get_communities", json!({})),
        ("get_processes", json!({})),
        ("explain_change_impact", json!({ "id": id })),
        ("flow_between", json!({ "source": "main", "sink": "summarize" })),
        ("taint_paths", json!({})),
        ("find_clones", json!({})),
        ("find_co_changing_symbols", json!({ "symbol": id })),
        ("pr_risk", json!({ "ids": [id] })),
        ("suggest_reviewers", json!({ "symbols": [id] })),
        ("analyze", json!({ "kind": "todos" })),
    ];
    let listed: Vec<&str> = gortex_index::query::TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(
        listed,
        calls.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "TOOLS and this test list differ"
    );
    for (tool, args) in calls {
        let result = match repo.query(tool, args) {
            // The history tools need git: the fixture is in this repository's worktree in a
            // clone, and in none in an unpacked source archive (`history.rs` tests them on git).
            Err(e) if ["find_co_changing_symbols", "suggest_reviewers"].contains(&tool) && e.code == "unavailable" => {
                continue
            }
            r => r.unwrap_or_else(|e| panic!("{tool}: {e}")),
        };
        assert!(result.is_object(), "{tool} answered {result}");
    }
    // The `repo` key is the caller's business and is ignored here.
    assert!(repo.query("get_symbol", json!({ "id": id, "repo": "app-ts" })).is_ok());
    assert_eq!(
        ids(&repo.query("get_callers", json!({ "id": id })).unwrap(), "callers"),
        [
            "app-ts/src/render.test.ts::render.summarizes",
            "app-ts/src/render.ts::Renderer.draw"
        ]
    );
}

#[test]
fn bad_tools_and_arguments_are_named() {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(&fixtures().join("query/app-ts"), &options(home.path()));
    let e = repo.query("get_caller", json!({})).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message.contains("unknown tool \"get_caller\"") && e.message.contains("get_callers"),
        "{}",
        e.message
    );
    let e = repo.query("get_callers", json!(["x"])).unwrap_err();
    assert!(e.message.contains("must be a JSON object"), "{}", e.message);
    let e = repo
        .query("get_callers", json!({ "id": "summarize", "depht": 2 }))
        .unwrap_err();
    assert!(
        e.message.starts_with("get_callers: unknown field `depht`"),
        "{}",
        e.message
    );
    let e = repo
        .query("search_text", json!({ "query": "(", "regexp": true }))
        .unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    let e = repo.query("get_callers", Value::Null).unwrap_err();
    assert!(e.message.contains("id"), "{}", e.message);
}

#[test]
fn search_indexes_follow_updates() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("app");
    copy_tree(&fixtures().join("query/app-ts"), &root);
    let opts = options(home.path());
    let (mut repo, _) = index(&root, &opts);
    // Exact-name hits only (a miss would otherwise be decomposed into words and match others).
    let found = |repo: &gortex_index::RepoIndex, q: &str| -> Vec<String> {
        let answer = repo.query("search_symbols", json!({ "query": q, "limit": 3 })).unwrap();
        ids(&answer, "results")
            .into_iter()
            .filter(|id| id.ends_with(&format!("::{q}")))
            .collect()
    };
    let grep = |repo: &gortex_index::RepoIndex, q: &str| -> usize {
        repo.query("search_text", json!({ "query": q })).unwrap()["hits"]
            .as_array()
            .unwrap()
            .len()
    };
    assert!(found(&repo, "brandNewHelper").is_empty());
    assert_eq!(grep(&repo, "brandNewHelper"), 0);
    let memory = repo.search_memory();
    assert!(memory.symbols_bytes.unwrap() > 0 && memory.text_bytes.unwrap() > 0 && memory.text_docs.unwrap() > 5);

    std::fs::write(
        root.join("src/extra.ts"),
        "export function brandNewHelper() { return 1; }\n",
    )
    .unwrap();
    repo.update_paths(&["src/extra.ts".to_string()], &opts).unwrap();
    assert_eq!(found(&repo, "brandNewHelper"), ["app/src/extra.ts::brandNewHelper"]);
    assert_eq!(grep(&repo, "brandNewHelper"), 1);

    std::fs::remove_file(root.join("src/extra.ts")).unwrap();
    repo.update_paths(&["src/extra.ts".to_string()], &opts).unwrap();
    assert!(found(&repo, "brandNewHelper").is_empty());
    assert_eq!(grep(&repo, "brandNewHelper"), 0);
}
