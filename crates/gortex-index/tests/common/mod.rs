//! Helpers shared by the indexing integration tests.

#![allow(dead_code)]

pub mod edits;

use gortex_index::{IndexOptions, IndexReport, RepoIndex};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

/// The repository's `test/fixtures` directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/fixtures")
}

/// Options with a private GORTEX_HOME.
pub fn options(home: &Path) -> IndexOptions {
    let mut o = IndexOptions::new(home.to_path_buf());
    o.threads = 2;
    o
}

/// Indexes `root` with `options`.
pub fn index(root: &Path, options: &IndexOptions) -> (RepoIndex, IndexReport) {
    RepoIndex::open(root, options, &|_| {}, &AtomicBool::new(false)).expect("indexing succeeds")
}

/// An in-memory index (no snapshot) of fixture `rel` under `test/fixtures`, which must index
/// without failures.
pub fn fixture_index(rel: &str) -> RepoIndex {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&fixtures().join(rel), &opts);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    index
}

/// Resolution lines of the canonical dump (edges that are not structural, and unresolved refs).
pub fn resolution_lines(index: &RepoIndex) -> Vec<String> {
    index
        .graph
        .canonical_dump()
        .into_iter()
        .filter(|l| !l.starts_with("N "))
        .filter(|l| {
            ![" -defines-> ", " -contains-> ", " -member_of-> "]
                .iter()
                .any(|k| l.contains(k))
        })
        .collect()
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Writes `text` to `rel` under `root`, creating its directories.
pub fn write_file(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The strings of a JSON array (panics on anything else: a test's expectation failed).
pub fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

/// The graph of `test/fixtures/query/paths-ts`, indexed once per test binary.
pub fn paths_ts_graph() -> std::sync::Arc<gortex_graph::Graph> {
    static GRAPH: std::sync::OnceLock<std::sync::Arc<gortex_graph::Graph>> = std::sync::OnceLock::new();
    GRAPH
        .get_or_init(|| {
            let home = tempfile::tempdir().unwrap();
            let (idx, report) = index(&fixtures().join("query/paths-ts"), &options(home.path()));
            assert!(report.failures.is_empty(), "{:?}", report.failures);
            idx.graph.clone()
        })
        .clone()
}

/// The message of a refusal, which must be `invalid_argument`.
pub fn refused(e: gortex_core::QueryError) -> String {
    assert_eq!(e.code, "invalid_argument", "{e}");
    e.message
}

/// Runs git in `root` as `author` at `date` (author and committer), returning its stdout.
pub fn git(root: &Path, args: &[&str], author: (&str, &str), date: &str) -> String {
    let out = Command::new("git")
        .args(["-c", "core.autocrlf=false"])
        .args(args)
        .current_dir(root)
        .env("GIT_AUTHOR_NAME", author.0)
        .env("GIT_AUTHOR_EMAIL", author.1)
        .env("GIT_COMMITTER_NAME", author.0)
        .env("GIT_COMMITTER_EMAIL", author.1)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stages everything and commits it as `who` at `date`.
pub fn commit(root: &Path, who: (&str, &str), date: &str, message: &str) {
    git(root, &["add", "-A"], who, date);
    git(root, &["commit", "-q", "-m", message], who, date);
}
