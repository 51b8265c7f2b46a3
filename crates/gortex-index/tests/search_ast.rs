//! `search_ast` through the query door: raw tree-sitter patterns (compiled per language, files
//! narrowed by the literals a pattern names, captures, limits, the line and column of a malformed
//! pattern) and bundled detectors (review rules graph-grounded as `review` grounds them, the
//! `empty-catch` alias, the `eval-injection` pattern detector that ignores literal code).

mod common;

use common::*;
use serde_json::{json, Value};

fn repo() -> (tempfile::TempDir, tempfile::TempDir, gortex_index::RepoIndex) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("shapes");
    let files: &[(&str, &str)] = &[
        ("store/db.go", "package store\n\nfunc Save(db DB, q string) {\n\tdb.Exec(q)\n\tdb.Query(q)\n\tdb.Exec(\"VACUUM\")\n}\n"),
        ("store/cache.go", "package store\n\nfunc Load(c Cache) {\n\tc.Get(1)\n}\n"),
        ("web/run.ts", "export function run(input: string) {\n  eval(input);\n  eval(\"1 + 1\");\n  setTimeout(`tick`, 10);\n  window.setTimeout(input, 5);\n}\n"),
        ("tools/calc.py", "def calc(expr):\n    return eval(expr)\n\n\ndef fixed():\n    return eval(\"2 + 2\")\n"),
        ("web/err.ts", "export function quiet(f: () => void) {\n  try {\n    f();\n  } catch (e) {\n  }\n}\n"),
    ];
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, _) = index(&root, &opts);
    (dir, home, index)
}

fn search(index: &gortex_index::RepoIndex, args: Value) -> Value {
    index.query("search_ast", args).unwrap_or_else(|e| panic!("{e:?}"))
}

fn at(r: &Value) -> Vec<String> {
    r["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}:{}", m["path"].as_str().unwrap(), m["line"]))
        .collect()
}

#[test]
fn a_pattern_finds_its_shape_in_the_files_that_can_hold_it() {
    let (_d, _h, index) = repo();
    let r = search(
        &index,
        json!({ "language": "go", "pattern": "(call_expression function: (selector_expression field: (field_identifier) @method (#eq? @method \"Exec\")) arguments: (argument_list) @args)" }),
    );
    assert_eq!(at(&r), ["store/db.go:4", "store/db.go:6"]);
    let first = &r["matches"][0];
    assert_eq!(first["captures"], json!({ "method": "Exec", "args": "(q)" }));
    assert_eq!(first["text"], "db.Exec(q)");
    assert_eq!(first["symbol"]["name"], "Save");
    // Two Go files; only the one holding "Exec" was parsed.
    assert_eq!(
        (r["files_considered"].as_u64(), r["files_searched"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(r["prefilter"], json!(["Exec"]));
    let one = search(
        &index,
        json!({ "language": "go", "pattern": "(call_expression) @call", "limit": 1 }),
    );
    assert_eq!(one["matches"].as_array().unwrap().len(), 1);
    assert_eq!(one["truncated"], true);
    let scoped = search(
        &index,
        json!({ "language": "go", "pattern": "(call_expression) @call", "path_prefix": "store/cache" }),
    );
    assert_eq!(at(&scoped), ["store/cache.go:4"]);
}

#[test]
fn bundled_detectors_rules_aliases_and_eval_injection() {
    let (_d, _h, index) = repo();
    let eval = search(&index, json!({ "detector": "eval-injection" }));
    // Literal code (eval("1 + 1"), a template without substitutions) is not injection.
    assert_eq!(at(&eval), ["tools/calc.py:2", "web/run.ts:2", "web/run.ts:5"]);
    assert!(eval["matches"][0]["message"].as_str().unwrap().contains("`expr`"));
    let empty = search(&index, json!({ "detector": "empty-catch" }));
    let swallowed = search(&index, json!({ "detector": "swallowed-error" }));
    assert_eq!(at(&empty), ["web/err.ts:4"]);
    assert_eq!(at(&empty), at(&swallowed));
    assert_eq!(empty["matches"][0]["kind"], "swallowed-error");
    assert_eq!(empty["evidence"], "ast+graph");
}

#[test]
fn bad_patterns_and_arguments_say_what_to_fix() {
    let (_d, _h, index) = repo();
    let bad = index
        .query(
            "search_ast",
            json!({ "language": "go", "pattern": "(call_expression\n  function: (no_such_node))" }),
        )
        .unwrap_err();
    assert_eq!(bad.code, "invalid_argument");
    assert!(bad.message.starts_with("pattern line 2 column"), "{}", bad.message);
    assert!(bad.message.contains("no_such_node"), "{}", bad.message);
    let open = index
        .query("search_ast", json!({ "language": "python", "pattern": "(call" }))
        .unwrap_err();
    assert!(open.message.contains("syntax error"), "{}", open.message);
    let no_lang = index.query("search_ast", json!({ "pattern": "(call)" })).unwrap_err();
    assert!(no_lang.message.contains("needs language"));
    let unknown = index
        .query("search_ast", json!({ "language": "klingon", "pattern": "(x)" }))
        .unwrap_err();
    assert!(unknown.message.contains("klingon"));
    let both = index
        .query(
            "search_ast",
            json!({ "language": "go", "pattern": "(x)", "detector": "weak-crypto" }),
        )
        .unwrap_err();
    assert!(both.message.contains("not both"));
    let none = index.query("search_ast", json!({})).unwrap_err();
    assert!(
        none.message.contains("eval-injection") && none.message.contains("sql-string-concat"),
        "{}",
        none.message
    );
    let nope = index.query("search_ast", json!({ "detector": "magic" })).unwrap_err();
    assert!(nope.message.contains("`magic` is not one of"));
    let slow = index
        .query("search_ast", json!({ "detector": "weak-crypto", "timeout_ms": 5 }))
        .unwrap_err();
    assert!(slow.message.contains("timeout_ms"));
}
