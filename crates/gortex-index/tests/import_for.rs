//! `find_import_path` with `symbol` through the query door, on a real index of
//! `test/fixtures/imports-for` (TypeScript, Python, Go, Rust, Java and C side by side), with the
//! exact statement, status and reference for each planted case.

mod common;

use common::*;
use serde_json::{json, Value};

fn import(repo: &gortex_index::RepoIndex, from: &str, symbol: &str) -> Value {
    repo.query("find_import_path", json!({ "from": from, "symbol": symbol }))
        .unwrap()
}

/// `(status, statement, reference, line, note)` of an answer's `import`.
fn row(v: &Value) -> (String, Option<String>, String, Option<u64>, Option<String>) {
    let i = &v["import"];
    (
        i["status"].as_str().unwrap().to_string(),
        i["statement"].as_str().map(str::to_string),
        i["reference"].as_str().unwrap().to_string(),
        i["line"].as_u64(),
        i["note"].as_str().map(str::to_string),
    )
}

fn needs(statement: &str, reference: &str) -> (String, Option<String>, String, Option<u64>, Option<String>) {
    (
        "needs_import".into(),
        Some(statement.into()),
        reference.into(),
        None,
        None,
    )
}

#[test]
fn each_language_gets_its_own_statement() {
    let repo = fixture_index("imports-for");
    let cases = [
        (
            "web/src/app/main.ts",
            "web/src/lib/index.ts::VERSION",
            needs("import { VERSION } from '../lib';", "VERSION"),
        ),
        (
            "py/app.py",
            "py/shop/models.py::Order",
            needs("from shop.models import Order", "Order"),
        ),
        (
            "src/main.rs",
            "src/a/b.rs::helper",
            needs("use my_crate::a::b::helper;", "helper"),
        ),
        (
            "java/com/acme/web/App.java",
            "java/com/acme/Store.java::Store",
            needs("import com.acme.Store;", "Store"),
        ),
        (
            "c/src/main.c",
            "c/src/util.c::util_add",
            needs("#include \"../include/util.h\"", "util_add"),
        ),
    ];
    for (from, symbol, want) in cases {
        assert_eq!(row(&import(&repo, from, symbol)), want, "{from} <- {symbol}");
    }
}

#[test]
fn imports_already_there_and_none_needed() {
    let repo = fixture_index("imports-for");
    let ts = import(&repo, "web/src/app/main.ts", "web/src/lib/store.ts::Store");
    assert_eq!(
        row(&ts),
        ("already_imported".into(), None, "Store".into(), Some(1), None)
    );
    assert_eq!(ts["path"], json!(["web/src/app/main.ts", "web/src/lib/store.ts"]));
    // A member comes in with its class.
    let member = import(&repo, "web/src/app/main.ts", "web/src/lib/store.ts::Store.save");
    assert_eq!(
        member["import"]["symbol"]["id"],
        json!("imports-for/web/src/lib/store.ts::Store")
    );
    // Go imports packages: the package's other file is in too, named through the package.
    let go = import(&repo, "main.go", "store/close.go::Close");
    assert_eq!(
        row(&go),
        ("already_imported".into(), None, "store.Close".into(), Some(3), None)
    );
    let same = |from: &str, symbol: &str| row(&import(&repo, from, symbol)).0;
    assert_eq!(same("main.go", "other.go::other"), "same_package");
    assert_eq!(
        same("java/com/acme/Util.java", "java/com/acme/Store.java::Store"),
        "same_package"
    );
    assert_eq!(same("web/src/lib/store.ts", "web/src/lib/store.ts::make"), "same_file");
}

#[test]
fn the_statement_says_what_else_to_do() {
    let repo = fixture_index("imports-for");
    // Another name of a file already imported: add it to that import. An interface is a type import.
    let row_type = row(&import(&repo, "web/src/app/main.ts", "web/src/lib/store.ts::Row"));
    assert_eq!(
        row_type,
        (
            "needs_import".into(),
            Some("import type { Row } from '../lib/store';".into()),
            "Row".into(),
            Some(1),
            Some("line 1 already imports from web/src/lib/store.ts: add Row to that import".into())
        )
    );
    let default = row(&import(&repo, "web/src/app/main.ts", "web/src/lib/store.ts::make"));
    assert_eq!(default.1.as_deref(), Some("import make from '../lib/store';"));
    let hidden = row(&import(&repo, "src/a/mod.rs", "src/a/b.rs::private"));
    assert_eq!(
        (hidden.0.as_str(), hidden.1.as_deref(), hidden.4.as_deref()),
        (
            "not_exported",
            Some("use crate::a::b::private;"),
            Some("private is not exported from src/a/b.rs: export it (or make it public) before importing it")
        )
    );
    let across = row(&import(&repo, "py/app.py", "web/src/lib/store.ts::Store"));
    assert_eq!(
        (across.1, across.4.as_deref()),
        (
            None,
            Some("Store is typescript and py/app.py is python: no import statement joins two languages")
        )
    );
}

#[test]
fn bad_input_is_refused_by_name() {
    let repo = fixture_index("imports-for");
    let err = |args: Value| repo.query("find_import_path", args).unwrap_err().message;
    assert!(err(json!({ "from": "main.go" })).contains("needs to (the imported file) or symbol"));
    assert!(
        err(json!({ "from": "main.go", "to": "other.go", "symbol": "Save" })).contains("give symbol or to, not both")
    );
    assert!(err(json!({ "from": "main.go", "symbol": "noSuchThing" })).contains("noSuchThing"));
    assert!(err(json!({ "from": "main.go", "symbol": "store/store.go" })).contains("is not a declaration"));
}
