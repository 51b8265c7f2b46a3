//! How an engine's caller names a loaded repository (`LoadedRepos`): by root path in any
//! spelling or by name, by the id a query argument carries, or as the only one loaded; and the
//! errors when none fits.

mod common;

use common::*;
use gortex_index::{LoadedRepos, RepoIndex, SharedIndex};
use serde_json::json;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// Two small repositories, `alpha` and `beta`, under one temp dir.
struct Fixture {
    work: tempfile::TempDir,
    home: tempfile::TempDir,
    alpha: SharedIndex,
    beta: SharedIndex,
}

fn open(work: &std::path::Path, home: &std::path::Path, name: &str) -> SharedIndex {
    let root = work.join(name);
    write_file(&root, "src/main.ts", &format!("export function {name}(): void {{}}\n"));
    let mut opts = options(home);
    opts.persist = false;
    let (index, _) = index(&root, &opts);
    Arc::new(RwLock::new(index))
}

fn fixture() -> Fixture {
    let work = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let alpha = open(work.path(), home.path(), "alpha");
    let beta = open(work.path(), home.path(), "beta");
    Fixture {
        work,
        home,
        alpha,
        beta,
    }
}

fn root_of(index: &SharedIndex) -> PathBuf {
    index.read().unwrap().root.clone()
}

fn loaded(indexes: &[&SharedIndex]) -> LoadedRepos {
    let mut repos = LoadedRepos::default();
    for index in indexes {
        repos.insert(root_of(index), (*index).clone());
    }
    repos
}

fn name_of(found: Result<SharedIndex, gortex_core::QueryError>) -> String {
    let index: Arc<RwLock<RepoIndex>> = found.expect("a repository");
    let name = index.read().unwrap().name.clone();
    name
}

#[test]
fn a_key_is_a_root_in_any_spelling_or_a_name() {
    let f = fixture();
    let repos = loaded(&[&f.alpha, &f.beta]);
    assert_eq!(repos.len(), 2);
    assert!(Arc::ptr_eq(&repos.find("alpha").unwrap(), &f.alpha));
    assert!(Arc::ptr_eq(&repos.find("beta").unwrap(), &f.beta));
    let spelled = f.work.path().join("beta/src/..");
    assert_eq!(name_of(repos.find(spelled.to_str().unwrap())), "beta");
    assert!(Arc::ptr_eq(repos.at_root(&root_of(&f.alpha)).unwrap(), &f.alpha));
    assert!(repos.at_root(&f.work.path().join("alpha/src")).is_none());

    let e = repos.find("gamma").expect_err("not loaded");
    assert_eq!(e.code, "not_found");
    assert_eq!(e.message, "repository not indexed: \"gamma\" (call indexRepo first)");
    // A directory that exists but is not a loaded root is not loaded either.
    let sub = f.work.path().join("alpha/src");
    let e = repos.find(sub.to_str().unwrap()).expect_err("not a root");
    assert_eq!(
        e.message,
        format!("repository not indexed: \"{}\" (call indexRepo first)", sub.display())
    );
}

#[test]
fn a_query_without_repo_goes_to_the_owner_of_its_id_or_the_only_one() {
    let f = fixture();
    let both = loaded(&[&f.alpha, &f.beta]);
    assert_eq!(
        name_of(both.for_query(&json!({"id": "beta/src/main.ts::beta"}))),
        "beta"
    );
    assert_eq!(
        name_of(both.for_query(&json!({"from": "alpha/src/main.ts", "limit": 3}))),
        "alpha"
    );
    // `id` is read before `from` and `to`; a name must be followed by `/` to own an id.
    assert_eq!(
        name_of(both.for_query(&json!({"to": "alpha/x", "id": "beta/y"}))),
        "beta"
    );
    let e = both
        .for_query(&json!({"id": "alphabet/src/x.ts"}))
        .expect_err("no owner");
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            "invalid_argument",
            "2 repositories are loaded; pass repo (a root path or name)"
        )
    );
    let e = both.for_query(&json!({"query": "main"})).expect_err("no id");
    assert_eq!(e.code, "invalid_argument");

    let one = loaded(&[&f.alpha]);
    assert_eq!(name_of(one.for_query(&json!({"query": "main"}))), "alpha");
    assert_eq!(name_of(one.for_query(&json!({"id": "beta/src/main.ts"}))), "alpha");

    let e = LoadedRepos::default()
        .for_query(&json!({"id": "alpha/x"}))
        .expect_err("none loaded");
    assert_eq!(
        (e.code, e.message.as_str()),
        ("not_found", "no repository is indexed (call indexRepo first)")
    );
}

#[test]
fn withdraw_removes_only_the_index_it_names() {
    let f = fixture();
    let mut repos = loaded(&[&f.alpha]);
    let root = root_of(&f.alpha);
    // A provisional index replaced by the complete one since: withdrawing it leaves the new one.
    let stale = open(f.work.path(), f.home.path(), "alpha");
    assert!(!repos.withdraw(&root, &stale));
    assert!(repos.at_root(&root).is_some());
    assert!(repos.withdraw(&root, &f.alpha));
    assert!(repos.at_root(&root).is_none());
    assert!(repos.is_empty());
    assert!(!repos.withdraw(&root, &f.alpha));
}

#[test]
fn summaries_come_by_root() {
    let f = fixture();
    let repos = loaded(&[&f.beta, &f.alpha]);
    let list = repos.summaries();
    let rows: Vec<(&str, usize, usize, bool)> = list
        .iter()
        .map(|s| (s.name.as_str(), s.files, s.nodes, s.provisional))
        .collect();
    assert_eq!(rows, [("alpha", 1, 2, false), ("beta", 1, 2, false)]);
    assert_eq!(list[0].root, root_of(&f.alpha).display().to_string());
    assert_eq!(
        list[1].snapshot_path,
        f.beta.read().unwrap().snapshot_path.display().to_string()
    );
    assert!(LoadedRepos::default().summaries().is_empty());
}
