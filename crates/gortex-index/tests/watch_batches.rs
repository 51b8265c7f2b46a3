//! A watcher's batch of paths, applied without walking: the single-path admission check agrees
//! with the walker, and batches that only a walk can judge (ignore files, directories) fall back
//! to a whole refresh. Every step is compared with a clean index of the same tree.

mod common;

use common::*;
use gortex_index::walk::{self, Admission};
use gortex_index::RepoIndex;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every `.ts` file under `root`, walked by hand (no ignore rules).
/// Every file under `dir` but git's own.
fn all_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != ".git") {
                all_files(root, &path, out);
            }
        } else {
            out.push(walk::relative(root, &path).unwrap());
        }
    }
}

fn tree() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    std::fs::create_dir_all(r.join(".git/info")).unwrap();
    write(r, ".git/info/exclude", "scratch.ts\n");
    write(r, ".gitignore", "built/\n*.gen.ts\n!keep.gen.ts\n");
    write(r, "src/.gitignore", "local.ts\n");
    write(r, "src/deep/.ignore", "!local.ts\nnoisy.ts\n");
    write(r, "src/deep/.gortexignore", "secret.ts\n");
    write(r, ".gortexignore", "legacy/\n");
    for rel in [
        "src/a.ts",
        "src/local.ts",
        "src/deep/local.ts",
        "src/deep/noisy.ts",
        "src/deep/secret.ts",
        "src/x.gen.ts",
        "src/keep.gen.ts",
        "built/out.ts",
        "built/nested/out.ts",
        "legacy/old.ts",
        "node_modules/pkg/index.ts",
        "lib/node_modules/inner.ts",
        "scratch.ts",
        "tools/skip/me.ts",
        "tools/keep.ts",
        ".hidden/ok.ts",
    ] {
        write(
            r,
            rel,
            &format!("export function f_{}() {{}}\n", rel.replace(['/', '.'], "_")),
        );
    }
    repo
}

#[test]
fn single_path_admission_agrees_with_the_walker() {
    let repo = tree();
    let r = repo.path();
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.exclude = vec!["tools/skip/".into()];
    let walked: Vec<String> = walk::walk(r, &opts.walk_options())
        .sources
        .into_iter()
        .map(|c| c.rel)
        .collect();
    let mut files = Vec::new();
    all_files(r, r, &mut files);
    files.sort();
    let mut admission = Admission::new(r, &opts.walk_options());
    let admitted: Vec<String> = files.iter().filter(|f| admission.admits(f)).cloned().collect();
    assert_eq!(admitted, walked, "admission disagrees with the walk");
    // The tree exercises each rule both ways.
    for left_out in [
        "built/nested/out.ts",
        "src/local.ts",
        "src/deep/noisy.ts",
        "src/deep/secret.ts",
        "legacy/old.ts",
        "scratch.ts",
        "tools/skip/me.ts",
        "lib/node_modules/inner.ts",
        "src/x.gen.ts",
    ] {
        assert!(!walked.contains(&left_out.to_string()), "{left_out} should be left out");
    }
    for kept in ["src/deep/local.ts", "src/keep.gen.ts", ".hidden/ok.ts", "tools/keep.ts"] {
        assert!(walked.contains(&kept.to_string()), "{kept} should be walked");
    }
    // Without gitignore, only .ignore/.gortexignore, excludes and built-in directories apply.
    opts.respect_gitignore = false;
    let walked: Vec<String> = walk::walk(r, &opts.walk_options())
        .sources
        .into_iter()
        .map(|c| c.rel)
        .collect();
    let mut admission = Admission::new(r, &opts.walk_options());
    let admitted: Vec<String> = files.iter().filter(|f| admission.admits(f)).cloned().collect();
    assert_eq!(admitted, walked, "admission disagrees with the walk (gitignore off)");
}

fn clean(root: &Path) -> Vec<String> {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    opts.name = Some("w".into());
    index(root, &opts).0.graph.canonical_dump()
}

#[test]
fn watcher_batches_equal_a_clean_index() {
    let repo = tree();
    let r = repo.path();
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.name = Some("w".into());
    let (mut live, _) = index(r, &opts);
    let cancel = AtomicBool::new(false);
    let apply = |live: &mut RepoIndex, paths: &[&str]| {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        let report = live.apply_changes(&paths, &opts, &|_| {}, &cancel).unwrap();
        assert_eq!(live.graph.canonical_dump(), clean(r), "after {paths:?}");
        report
    };
    // New files: one admitted, two the walker would not reach.
    write(r, "src/b.ts", "export function b() {}\n");
    write(r, "built/c.ts", "export function c() {}\n");
    write(r, "src/y.gen.ts", "export function y() {}\n");
    let report = apply(&mut live, &["src/b.ts", "built/c.ts", "src/y.gen.ts"]);
    assert_eq!(report.mode, "incremental");
    assert!(
        !report.phases_ms.contains_key("walk"),
        "a batch of files walked the tree"
    );
    // An ignore file changed: everything it covers comes and goes, which only a walk sees.
    write(r, ".gitignore", "*.gen.ts\n");
    let report = apply(&mut live, &[".gitignore"]);
    assert!(
        report.phases_ms.contains_key("walk"),
        "an ignore-file change did not walk"
    );
    assert!(
        !live.graph.file_nodes("built/out.ts").is_empty(),
        "built/ is no longer ignored"
    );
    // A folder deleted (the watcher reports only the folder).
    std::fs::remove_dir_all(r.join("built")).unwrap();
    apply(&mut live, &["built"]);
    assert!(live.graph.file_nodes("built/out.ts").is_empty());
    // A folder moved in.
    write(r, "moved/inner/d.ts", "export function d() {}\n");
    apply(&mut live, &["moved"]);
    assert!(!live.graph.file_nodes("moved/inner/d.ts").is_empty());
    // A path outside the repository is refused and changes nothing.
    let before = live.graph.canonical_dump();
    let err = live
        .apply_changes(&["../elsewhere.ts".to_string()], &opts, &|_| {}, &cancel)
        .unwrap_err();
    assert!(err.to_string().contains("outside"), "{err}");
    assert_eq!(live.graph.canonical_dump(), before);
}
