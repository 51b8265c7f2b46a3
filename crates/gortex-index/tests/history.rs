//! The history tools through the query door (`RepoIndex::query`) on a real git repository built
//! commit by commit with the git CLI (fixed authors and dates): co-change, blame (checked line by
//! line against `git blame --first-parent`), ownership with CODEOWNERS, stale code, churn, fixes,
//! releases, uncommitted edits, incremental mining after a new commit, a rewritten history, and a
//! folder that is not in git.

mod common;

use common::{commit, git, index, options, write_file};
use serde_json::{json, Value};
use std::path::Path;

const ALICE: (&str, &str) = ("Alice", "alice@example.com");
const BOB: (&str, &str) = ("Bob", "bob@example.com");

fn billing(charge: &str, refund: &str) -> String {
    format!("def charge(amount):\n    total = amount\n    {charge}\n    return total\n\n\ndef refund(amount):\n    {refund}\n    return amount\n")
}

fn audit(log: &str, other: &str) -> String {
    format!("def log_charge(amount):\n    {log}\n    return amount\n\n\ndef unrelated():\n    {other}\n    return 0\n")
}

/// Five commits: two authors, a pair of functions always changed together, a fix, a rename, a tag.
fn history_repo(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("shop");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q", "-b", "main"], ALICE, "2020-01-01T00:00:00Z");
    write_file(&root, "src/billing.py", &billing("total += 0", "amount = amount"));
    write_file(&root, "src/audit.py", &audit("print(amount)", "pass"));
    write_file(
        &root,
        ".github/CODEOWNERS",
        "*.py @core\nsrc/billing.py @billing-team\n",
    );
    commit(&root, ALICE, "2020-01-01T00:00:00Z", "initial shop");
    write_file(&root, "src/billing.py", &billing("total += 1", "amount = amount"));
    write_file(&root, "src/audit.py", &audit("print('charge', amount)", "pass"));
    commit(&root, BOB, "2021-01-01T00:00:00Z", "feat: charges are logged");
    write_file(
        &root,
        "src/billing.py",
        &billing("total += round(1)", "amount = amount"),
    );
    write_file(&root, "src/audit.py", &audit("print('charge', round(amount))", "pass"));
    commit(&root, BOB, "2021-06-01T00:00:00Z", "Fix rounding bug in charge");
    std::fs::remove_file(root.join("src/audit.py")).unwrap();
    write_file(
        &root,
        "src/audit_log.py",
        &audit("print('charge', round(amount))", "return None"),
    );
    commit(&root, ALICE, "2022-01-01T00:00:00Z", "move audit to audit_log");
    git(&root, &["tag", "v1.0"], ALICE, "2022-01-01T00:00:00Z");
    write_file(
        &root,
        "src/billing.py",
        &billing("total += round(1)", "amount = -amount"),
    );
    commit(&root, ALICE, "2023-01-01T00:00:00Z", "refunds are negative");
    root
}

fn names(rows: &Value, key: &str) -> Vec<String> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn history_tools_answer_from_git() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = history_repo(dir.path());
    let (repo, _) = index(&root, &options(home.path()));

    // Co-change: log_charge moved files with its module and still pairs with charge.
    let co = repo
        .query("find_co_changing_symbols", json!({ "symbol": "charge" }))
        .unwrap();
    assert_eq!(co["commits"], 3, "{co}");
    assert_eq!(names(&co["neighbours"], "qual_name"), vec!["log_charge"], "{co}");
    assert_eq!(co["neighbours"][0]["shared"], 3);
    assert_eq!(co["neighbours"][0]["score"], 1.0);
    assert_eq!(co["neighbours"][0]["cross_file"], true);
    assert_eq!(co["history"]["commits"], 5);
    assert_eq!(co["history"]["update"], "full");
    let file = repo
        .query("find_co_changing_symbols", json!({ "symbol": "src/audit_log.py" }))
        .unwrap();
    assert_eq!(file["commits"], 4, "renames are followed: {file}");
    assert_eq!(names(&file["neighbours"], "path"), vec!["src/billing.py"]);

    // Blame: every line's latest commit equals `git blame --first-parent`.
    let blame = repo
        .query("analyze", json!({ "kind": "blame", "path": "src/billing.py" }))
        .unwrap();
    assert_eq!(blame["file"]["commits"], 4, "{blame}");
    assert_eq!(blame["file"]["last_change"]["summary"], "refunds are negative");
    let porcelain = git(
        &root,
        &["blame", "--first-parent", "--line-porcelain", "src/billing.py"],
        ALICE,
        "2024-01-01T00:00:00Z",
    );
    let mut git_authors = std::collections::BTreeMap::<String, u64>::new();
    for line in porcelain.lines().filter_map(|l| l.strip_prefix("author ")) {
        *git_authors.entry(line.to_string()).or_default() += 1;
    }
    let ours: std::collections::BTreeMap<String, u64> = blame["file"]["authors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap().to_string(), a["lines"].as_u64().unwrap()))
        .collect();
    assert_eq!(ours, git_authors);
    let one = repo
        .query(
            "analyze",
            json!({ "kind": "blame", "path": "src/billing.py", "authors": 1 }),
        )
        .unwrap();
    assert_eq!(one["file"]["authors"].as_array().unwrap().len(), 1);
    let charge = blame["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "charge")
        .unwrap();
    assert_eq!(charge["commits"], 3);
    assert_eq!(charge["last_change"]["date"], "2021-06-01");
    assert_eq!(charge["first_change"]["author"], "Alice");
    assert_eq!(
        blame["symbols"][0]["name"], "refund",
        "most recently changed first: {blame}"
    );

    // Ownership: CODEOWNERS (last match wins) and authorship per file.
    let own = repo
        .query("analyze", json!({ "kind": "ownership", "by": "file" }))
        .unwrap();
    let row = |p: &str| {
        own["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["path"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(row("src/billing.py")["codeowners"], json!(["@billing-team"]));
    assert_eq!(row("src/billing.py")["rules"][0]["line"], 2);
    assert_eq!(row("src/audit_log.py")["codeowners"], json!(["@core"]));
    assert_eq!(own["codeowners_file"], ".github/CODEOWNERS");

    // Stale code, as of the head commit's date.
    let stale = repo
        .query("analyze", json!({ "kind": "stale_code", "days": 400 }))
        .unwrap();
    assert_eq!(stale["as_of"], "2023-01-01");
    let mut stale_names = names(&stale["symbols"], "name");
    stale_names.sort();
    assert_eq!(stale_names, vec!["charge", "log_charge"], "{stale}");

    // Churn and fixes.
    let churn = repo.query("analyze", json!({ "kind": "churn", "by": "file" })).unwrap();
    assert_eq!(
        names(&churn["rows"], "path"),
        vec!["src/audit_log.py", "src/billing.py", ".github/CODEOWNERS"],
        "{churn}"
    );
    assert_eq!(churn["rows"][1]["commits"], 4);
    assert_eq!(churn["rows"][1]["authors"], 2);
    // winnow_symbols by churn: the symbols whose lines three or more commits shaped, with the axis.
    let churned = repo
        .query("winnow_symbols", json!({ "min_churn": 3, "kind": "function" }))
        .unwrap();
    let rows: Vec<(String, u64, f64)> = churned["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["churn"].as_u64().unwrap(),
                r["axes"]["churn"].as_f64().unwrap(),
            )
        })
        .collect();
    // Both are the most churned symbols here: the full churn weight, 0.5.
    assert_eq!(
        rows,
        vec![("log_charge".to_string(), 3, 0.5), ("charge".to_string(), 3, 0.5)],
        "{churned}"
    );
    let two = repo.query("winnow_symbols", json!({ "min_churn": 2 })).unwrap();
    assert!(two["total"].as_u64().unwrap() > 2, "{two}");
    let fixes = repo.query("analyze", json!({ "kind": "fixes_history" })).unwrap();
    assert_eq!(fixes["fix_commits"], 1);
    let mut fixed = names(&fixes["symbols"], "name");
    fixed.sort();
    assert_eq!(fixed, vec!["charge", "log_charge"]);

    // Releases: v1.0 holds the first four commits; the refund change is unreleased.
    let rel = repo
        .query("analyze", json!({ "kind": "releases", "symbol": "refund" }))
        .unwrap();
    assert_eq!(rel["releases"][0]["tag"], "v1.0");
    assert_eq!(rel["releases"][0]["commits"], 4);
    assert_eq!(rel["unreleased_commits"], 1);
    assert_eq!(rel["symbol"]["introduced_in"], "v1.0");
    assert_eq!(rel["symbol"]["unreleased_commits"], 1);

    // Bad input names the argument.
    let e = repo
        .query("analyze", json!({ "kind": "ownership", "by": "team" }))
        .unwrap_err();
    assert!(e.message.contains("by must be"), "{}", e.message);
    let e = repo
        .query("find_co_changing_symbols", json!({ "symbol": "src" }))
        .unwrap_err();
    assert_eq!(e.code, "not_found");
    let e = repo
        .query("analyze", json!({ "kind": "blame", "path": "nowhere/" }))
        .unwrap_err();
    assert_eq!(e.code, "not_found");
}

#[test]
fn new_commits_are_mined_incrementally_and_uncommitted_lines_are_marked() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = history_repo(dir.path());
    let opts = options(home.path());
    let (repo, _) = index(&root, &opts);
    repo.query("analyze", json!({ "kind": "churn" })).unwrap();
    assert!(
        repo.history_path().exists(),
        "the mined history is saved beside the snapshot"
    );
    drop(repo);

    write_file(
        &root,
        "src/audit_log.py",
        &audit("print('charge', round(amount))", "return 1"),
    );
    commit(&root, BOB, "2024-01-01T00:00:00Z", "unrelated returns one");
    write_file(
        &root,
        "src/billing.py",
        &billing("total += round(2)", "amount = -amount"),
    );
    let (repo, _) = index(&root, &opts);
    let blame = repo
        .query("analyze", json!({ "kind": "blame", "symbol": "charge" }))
        .unwrap();
    assert_eq!(blame["history"]["update"], "incremental", "{blame}");
    assert_eq!(blame["history"]["commits"], 6);
    assert_eq!(blame["history"]["uncommitted_files"], 1);
    assert_eq!(blame["symbols"][0]["uncommitted_lines"], 1);
    assert_eq!(
        blame["symbols"][0]["commits"], 3,
        "an edited line keeps the history it replaces: {blame}"
    );

    // The incremental history equals a full mine of the same head.
    let full_home = tempfile::tempdir().unwrap();
    let (fresh, _) = index(&root, &options(full_home.path()));
    let again = fresh
        .query("analyze", json!({ "kind": "blame", "symbol": "charge" }))
        .unwrap();
    assert_eq!(again["history"]["update"], "full");
    assert_eq!(again["symbols"], blame["symbols"]);
    let a = repo
        .query(
            "find_co_changing_symbols",
            json!({ "symbol": "src/billing.py", "min_shared": 1 }),
        )
        .unwrap();
    let b = fresh
        .query(
            "find_co_changing_symbols",
            json!({ "symbol": "src/billing.py", "min_shared": 1 }),
        )
        .unwrap();
    assert_eq!(a["neighbours"], b["neighbours"]);

    // A rewritten head (amend) is mined again from scratch.
    git(
        &root,
        &["commit", "-q", "--amend", "-m", "unrelated returns 1"],
        BOB,
        "2024-01-02T00:00:00Z",
    );
    drop(repo);
    let (repo, _) = index(&root, &opts);
    let after = repo.query("analyze", json!({ "kind": "churn" })).unwrap();
    assert_eq!(after["history"]["update"], "full");
    assert_eq!(after["history"]["commits"], 6);
}

#[test]
fn a_folder_outside_git_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = dir.path().join("plain");
    write_file(&root, "a.py", "def a():\n    return 1\n");
    let (repo, _) = index(&root, &options(home.path()));
    let e = repo.query("analyze", json!({ "kind": "blame" })).unwrap_err();
    assert_eq!(e.code, "unavailable");
    assert!(e.message.contains("not inside a git worktree"), "{}", e.message);
    // Graph analyses are unaffected.
    assert!(repo.query("analyze", json!({ "kind": "dead_code" })).is_ok());
}

#[test]
fn reviewers_come_from_codeowners_authorship_and_co_change() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = history_repo(dir.path());
    let (repo, _) = index(&root, &options(home.path()));
    let r = repo
        .query(
            "suggest_reviewers",
            json!({ "symbols": ["charge"], "paths": ["src/billing.py"] }),
        )
        .unwrap();
    let rows = r["reviewers"].as_array().unwrap();
    assert_eq!(rows[0]["reviewer"], "@billing-team", "{r}");
    assert_eq!(rows[0]["kind"], "codeowner");
    assert_eq!(rows[0]["owned_files"], 1);
    let who: Vec<&str> = rows.iter().map(|x| x["reviewer"].as_str().unwrap()).collect();
    assert!(who.contains(&"Bob") && who.contains(&"Alice"), "{r}");
    let bob = rows.iter().find(|x| x["reviewer"] == "Bob").unwrap();
    assert!(bob["authored_share"].as_f64().unwrap() > 0.0);
    // Bob also wrote log_charge, which always changes with charge.
    assert!(bob["cochange_share"].as_f64().unwrap() > 0.0, "{bob}");
    assert!(bob["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x.as_str().unwrap().contains("changes together")));
    assert_eq!(r["files"], 1);
    assert_eq!(r["symbols"], 1);

    let without = repo
        .query(
            "suggest_reviewers",
            json!({ "symbols": ["charge"], "exclude": ["bob@example.com", "@billing-team"] }),
        )
        .unwrap();
    let who: Vec<&str> = without["reviewers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["reviewer"].as_str().unwrap())
        .collect();
    assert!(!who.contains(&"Bob") && !who.contains(&"@billing-team"), "{without}");

    let unknown = repo
        .query("suggest_reviewers", json!({ "paths": ["src/new.py"] }))
        .unwrap();
    assert_eq!(unknown["unknown"], json!(["src/new.py"]));
    let e = repo.query("suggest_reviewers", json!({})).unwrap_err();
    assert!(e.message.contains("needs the changeset"), "{}", e.message);
}

#[test]
fn a_move_of_more_files_than_the_fuzzy_rename_search_takes_keeps_their_history() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = dir.path().join("big");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q", "-b", "main"], ALICE, "2020-01-01T00:00:00Z");
    let body = |n: usize, tag: &str| {
        format!("def f{n}():\n    a = {n}\n    b = a + 1\n    c = b * 2\n    return c  # {tag}\n")
    };
    for n in 0..1_100 {
        write_file(&root, &format!("old/f{n}.py"), &body(n, "v1"));
    }
    commit(&root, ALICE, "2020-01-01T00:00:00Z", "add the modules");
    std::fs::remove_dir_all(root.join("old")).unwrap();
    for n in 0..1_100 {
        write_file(&root, &format!("new/pkg/f{n}.py"), &body(n, "v2"));
    }
    commit(
        &root,
        BOB,
        "2021-01-01T00:00:00Z",
        "move every module and touch its last line",
    );
    let (repo, _) = index(&root, &options(home.path()));
    let blame = repo
        .query("analyze", json!({ "kind": "blame", "path": "new/pkg/f7.py" }))
        .unwrap();
    let authors: Vec<(String, u64)> = blame["file"]["authors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap().to_string(), a["lines"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        authors,
        vec![("Alice".to_string(), 4), ("Bob".to_string(), 1)],
        "{blame}"
    );
    assert_eq!(blame["file"]["commits"], 2);
}
