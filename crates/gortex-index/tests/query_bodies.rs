//! `search_symbols` with `read_as: "body"` through the query door: a bug report's words ranked
//! against what function bodies say (identifiers split and whole, literals, comments), filtered
//! like any search, kept in step with edits, and bad arguments refused with what to fix.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn repo(root: &Path, home: &Path) -> RepoIndex {
    write_file(
        root,
        "src/router.py",
        r#"class Router:
    def redirect_fixed_path(self, path):
        # a cleaned path that differs only by its trailing slash is not a fixed path
        cleaned = clean_path(path)
        if cleaned.rstrip("/") == path.rstrip("/"):
            return None
        return cleaned

    def add_route(self, method, path):
        self.routes[method].append(path)


def clean_path(path):
    return "/".join(p for p in path.split("/") if p not in ("", "."))
"#,
    );
    write_file(
        root,
        "src/cookies.py",
        r#"def filter_cookie(header, replacements):
    """Redacts cookie values in access logs."""
    parsed = parse_cookie_header(header)
    for name, value in replacements.items():
        if name in parsed:
            parsed[name] = value
    return "; ".join(f"{k}={v}" for k, v in parsed.items())


def parse_cookie_header(header):
    raise ValueError("malformed Set-Cookie header")
"#,
    );
    write_file(
        root,
        "tests/test_router.py",
        r#"def test_redirect_fixed_path_keeps_trailing_slash():
    assert Router().redirect_fixed_path("/users/") is None  # trailing slash, fixed path
"#,
    );
    let (index, report) = index(root, &options(home));
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    index
}

fn query(repo: &RepoIndex, args: Value) -> Value {
    repo.query("search_symbols", args.clone())
        .unwrap_or_else(|e| panic!("{args}: {e}"))
}

fn ids(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().split_once('/').unwrap().1.to_string())
        .collect()
}

fn refused(repo: &RepoIndex, args: Value) -> String {
    match repo.query("search_symbols", args.clone()) {
        Ok(v) => panic!("{args}: expected a refusal, got {v}"),
        Err(e) => {
            assert_eq!(e.code, "invalid_argument", "{args}: {e}");
            e.message
        }
    }
}

#[test]
fn a_report_finds_the_bodies_that_do_what_it_describes() {
    let (work, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let repo = repo(work.path(), home.path());
    let report = "RedirectFixedPath is redirecting trailing slashes even when the cleaned path only differs by a slash";
    let answer = query(&repo, json!({ "query": report, "read_as": "body", "limit": 3 }));
    assert_eq!(answer["read_as"], "body");
    let found = ids(&answer);
    // The test restates the report, so it ranks too; the implementation comes first.
    assert_eq!(found[0], "src/router.py::Router.redirect_fixed_path", "{answer}");
    assert!(found.contains(&"tests/test_router.py::test_redirect_fixed_path_keeps_trailing_slash".to_string()));
    let first = &answer["results"][0];
    assert_eq!(first["tier"], "ranked");
    assert!(first["signals"]["body_bm25"].as_f64().unwrap() > 0.0);
    let matched: Vec<&str> = first["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    for word in ["redirectfixedpath", "trail", "slash", "clean"] {
        assert!(matched.contains(&word), "{word} not in {matched:?}");
    }

    // An error message quoted from the report finds the body that raises it.
    let answer = query(
        &repo,
        json!({ "query": "ValueError: malformed Set-Cookie header when logging", "read_as": "body" }),
    );
    assert_eq!(ids(&answer)[0], "src/cookies.py::parse_cookie_header");

    // Filters apply: no tests, a path prefix, a kind, a per-file cap.
    let no_tests = ids(&query(
        &repo,
        json!({ "query": report, "read_as": "body", "include_tests": false }),
    ));
    assert!(no_tests.iter().all(|id| !id.starts_with("tests/")), "{no_tests:?}");
    let scoped = ids(&query(
        &repo,
        json!({ "query": "cookie path", "read_as": "body", "path": "src/cookies.py" }),
    ));
    assert!(
        !scoped.is_empty() && scoped.iter().all(|id| id.starts_with("src/cookies.py::")),
        "{scoped:?}"
    );
    let capped = ids(&query(
        &repo,
        json!({ "query": "path cookie", "read_as": "body", "max_per_file": 1 }),
    ));
    let files: Vec<&str> = capped.iter().map(|id| id.split("::").next().unwrap()).collect();
    let mut distinct = files.clone();
    distinct.dedup();
    assert_eq!(files, distinct, "{capped:?}");
    let methods = ids(&query(
        &repo,
        json!({ "query": report, "read_as": "body", "kind": "function" }),
    ));
    assert!(
        !methods.contains(&"src/router.py::Router.redirect_fixed_path".to_string()),
        "{methods:?}"
    );
}

#[test]
fn an_edit_is_searched_as_written() {
    let (work, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut repo = repo(work.path(), home.path());
    let words = json!({ "query": "exponential backoff jitter", "read_as": "body" });
    assert!(ids(&query(&repo, words.clone())).is_empty());
    write_file(
        work.path(),
        "src/cookies.py",
        "def retry_delay(attempt):\n    # exponential backoff with full jitter\n    return min(30, 2 ** attempt) * random()\n",
    );
    repo.refresh(&options(home.path()), &|_| {}, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(ids(&query(&repo, words)), ["src/cookies.py::retry_delay"]);
    // The file's old bodies are gone.
    assert!(ids(&query(
        &repo,
        json!({ "query": "malformed Set-Cookie header", "read_as": "body" })
    ))
    .is_empty());
    assert!(repo.search_memory().bodies_bytes.unwrap() > 0);
}

#[test]
fn bad_arguments_say_what_to_fix() {
    let (work, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let repo = repo(work.path(), home.path());
    assert!(refused(&repo, json!({ "query": "x", "read_as": "bodies" })).contains("auto, names, sentence or body"));
    assert!(refused(&repo, json!({ "query": "the of and 42", "read_as": "body" }))
        .contains("no words to look for in bodies"));
    let long = "word ".repeat(4001);
    assert!(refused(&repo, json!({ "query": long, "read_as": "body" })).contains("at most 20000"));
    // Up to 20,000 bytes are read (a pasted report), where a name search stops at 1,000.
    let pasted = format!("{} trailing slash", "lorem ipsum dolor ".repeat(1000));
    assert!(pasted.len() < 20_000);
    assert!(!ids(&query(&repo, json!({ "query": pasted, "read_as": "body" }))).is_empty());
    assert!(refused(&repo, json!({ "query": pasted, "read_as": "names" })).contains("at most 1000"));
}

fn files(repo: &RepoIndex, args: Value) -> Value {
    repo.query("find_files", args.clone())
        .unwrap_or_else(|e| panic!("{args}: {e}"))
}

fn paths(answer: &Value) -> Vec<&str> {
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect()
}

#[test]
fn files_rank_by_what_their_text_says() {
    let (work, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let repo = repo(work.path(), home.path());
    // Module-level text counts: an import and a constant name the file's subject.
    write_file(
        work.path(),
        "src/config.py",
        "import http.cookies\nCOOKIE_SECRET_HEADER = 'X-Cookie-Secret'\n",
    );
    let report = "Set-Cookie header is malformed when the cookie value is redacted in logs";
    let answer = files(&repo, json!({ "query": report, "by": "content" }));
    let found = paths(&answer);
    assert_eq!(found[0], "src/cookies.py", "{answer}");
    let first = &answer["results"][0];
    assert_eq!(first["match"], "content");
    assert!(first["bm25"].as_f64().unwrap() > 0.0);
    assert!(
        first["matched"].as_array().unwrap().iter().any(|m| m == "cooki"),
        "{first}"
    );
    assert_eq!(first["symbols"], 2);
    // The file written after indexing is not in the index until a refresh.
    assert!(!found.contains(&"src/config.py"));

    // Tests are left out on request, and filters narrow.
    let trailing = json!({ "query": "trailing slash fixed path", "by": "content" });
    assert!(paths(&files(&repo, trailing.clone())).contains(&"tests/test_router.py"));
    let mut no_tests = trailing.clone();
    no_tests["include_tests"] = json!(false);
    assert_eq!(paths(&files(&repo, no_tests)), ["src/router.py"]);
    assert_eq!(
        paths(&files(
            &repo,
            json!({ "query": "path", "by": "content", "glob": "src/*.py", "limit": 1 })
        ))
        .len(),
        1
    );

    // Name search is as before, and takes include_tests too.
    assert_eq!(
        paths(&files(&repo, json!({ "query": "router", "include_tests": false }))),
        ["src/router.py"]
    );

    // Bad arguments say what to fix.
    let refuse = |args: Value| repo.query("find_files", args).unwrap_err().message;
    assert!(refuse(json!({ "by": "content" })).contains("needs query"));
    assert!(refuse(json!({ "query": "x y", "by": "contents" })).contains("by must be name or content"));
    assert!(refuse(json!({ "query": "cookie", "by": "content", "fuzzy": true })).contains("fuzzy applies to names"));
    assert!(refuse(json!({ "query": "the and 42", "by": "content" })).contains("no words to look for in files"));
    assert!(refuse(json!({ "query": "w ".repeat(10_001), "by": "content" })).contains("at most 20000"));
}
