//! Fuzz-style property test of indexing and the resolver: the resolver fixtures of every engine in
//! one repository, some files mutated (`gortex-lang`'s mutations: truncation, flipped bytes,
//! nesting, NULs and invalid UTF-8, repeated slices) and a file of random bytes added. Under the
//! per-file budget every file is indexed or skipped with a limit's reason, never a failure; the
//! graph's edges join nodes that exist; and after a second round of mutations an incremental update
//! equals a clean index of the same tree (unless the passes disagree on which files ran out of
//! time: the one limit that depends on the machine's load).
//!
//! Cases: `GORTEX_FUZZ_CASES` (default 12, about ten seconds in a debug build).

mod common;

#[path = "../../gortex-lang/tests/common/mutate.rs"]
mod mutate;

use common::*;
use gortex_index::{IndexReport, RepoIndex};
use mutate::{apply, mutation, Mutation};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::HashSet;
use std::path::Path;

/// The engines whose resolver fixtures make up the repository.
const ENGINES: &[&str] = &[
    "ts", "py", "go", "rust", "java", "cfamily", "csharp", "kotlin", "php", "ruby", "polyglot", "lua", "bash",
    "generic", "scala", "swift",
];

/// Names a random file may take, one per extractor family.
const RANDOM_NAMES: &[&str] = &[
    "a.ts", "a.py", "a.go", "a.rs", "a.java", "a.c", "a.rb", "a.kt", "a.swift", "a.sh",
];

/// Reasons a per-file limit gives (`SkipReason`): the only new skips mutation may cause besides
/// the walker's own (a mutated file can look binary or minified).
const LIMIT_REASONS: &[&str] = &["too_deep", "too_complex", "over_budget", "binary", "minified"];

fn source_files(root: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// Applies each (file, mutations) pair; returns the paths written.
fn mutate_files(root: &Path, files: &[String], plan: &[(usize, Vec<Mutation>)]) -> Vec<String> {
    let mut touched = Vec::new();
    for (file, mutations) in plan {
        let rel = &files[file % files.len()];
        let path = root.join(rel);
        let mut bytes = std::fs::read(&path).unwrap();
        for m in mutations {
            apply(&mut bytes, m);
        }
        std::fs::write(&path, bytes).unwrap();
        touched.push(rel.clone());
    }
    touched.sort();
    touched.dedup();
    touched
}

/// The fixture repository, unmutated, in `root`.
fn fixture_repo(root: &Path) {
    for engine in ENGINES {
        copy_tree(&fixtures().join("resolver").join(engine), &root.join(engine));
    }
}

/// The skips of the unmutated fixtures (path and reason).
fn baseline_skips() -> HashSet<(String, String)> {
    let repo = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    fixture_repo(repo.path());
    let (_, report) = index(repo.path(), &options(home.path()));
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    skips(&report)
}

fn skips(report: &IndexReport) -> HashSet<(String, String)> {
    report
        .skipped
        .iter()
        .map(|s| (s.path.clone(), s.reason.as_str().to_string()))
        .collect()
}

/// No file failed, and every skip is the fixtures' own or a per-file limit's.
fn check_report(report: &IndexReport, baseline: &HashSet<(String, String)>, when: &str) -> Result<(), TestCaseError> {
    prop_assert!(report.failures.is_empty(), "{when}: failures {:#?}", report.failures);
    for (path, reason) in skips(report) {
        prop_assert!(
            LIMIT_REASONS.contains(&reason.as_str()) || baseline.contains(&(path.clone(), reason.clone())),
            "{when}: {path} skipped as {reason}"
        );
    }
    Ok(())
}

fn check_graph(index: &RepoIndex, when: &str) -> Result<(), TestCaseError> {
    let g = &index.graph;
    let n = g.node_count() as u32;
    for e in g.edges() {
        prop_assert!(
            e.from < n && e.to < n,
            "{when}: edge {} -> {} of {n} nodes",
            e.from,
            e.to
        );
    }
    for u in g.unresolved() {
        prop_assert!(u.from < n, "{when}: unresolved from {} of {n} nodes", u.from);
    }
    Ok(())
}

/// A clean index of `root`: its canonical dump and the files it skipped over their time budget.
fn clean_index(root: &Path) -> (Vec<String>, HashSet<String>) {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.name = Some("fuzz".into());
    opts.persist = false;
    let (index, report) = index(root, &opts);
    (index.graph.canonical_dump(), over_budget(&report))
}

/// Files a pass skipped because they took longer than their time budget.
fn over_budget(report: &IndexReport) -> HashSet<String> {
    report
        .skipped
        .iter()
        .filter(|s| s.reason.as_str() == "over_budget")
        .map(|s| s.path.clone())
        .collect()
}

#[test]
fn mutated_repositories_index_resolve_and_update_like_clean_ones() {
    let cases = std::env::var("GORTEX_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let baseline = baseline_skips();
    let plan = || prop::collection::vec((any::<usize>(), prop::collection::vec(mutation(), 1..4)), 1..6);
    let random = prop::option::of((0..RANDOM_NAMES.len(), prop::collection::vec(any::<u8>(), 0..2_048)));
    runner
        .run(&(plan(), random, plan()), |(first, random, second)| {
            check_case(&baseline, &first, &random, &second)
        })
        .unwrap();
}

/// Plans of mutations: (file, mutations) pairs, the file picked modulo the number of files.
type Plan = Vec<(usize, Vec<Mutation>)>;

/// One case: the fixtures mutated by `first` (and a random file), indexed; mutated by `second`,
/// updated; the update compared with a clean index of the same tree.
fn check_case(
    baseline: &HashSet<(String, String)>,
    first: &Plan,
    random: &Option<(usize, Vec<u8>)>,
    second: &Plan,
) -> Result<(), TestCaseError> {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    fixture_repo(root);
    let files = source_files(root);
    mutate_files(root, &files, first);
    if let Some((name, bytes)) = random {
        std::fs::create_dir_all(root.join("fuzz")).unwrap();
        std::fs::write(root.join("fuzz").join(RANDOM_NAMES[*name]), bytes).unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.name = Some("fuzz".into());
    let (mut live, report) = index(root, &opts);
    let mut slow = over_budget(&report);
    check_report(&report, baseline, "first index")?;
    check_graph(&live, "first index")?;

    std::thread::sleep(std::time::Duration::from_millis(2));
    let touched = mutate_files(root, &files, second);
    let report = live.update_paths(&touched, &opts).unwrap();
    slow.extend(over_budget(&report));
    check_report(&report, baseline, "update")?;
    check_graph(&live, "update")?;
    let (clean, clean_slow) = clean_index(root);
    // The time budget is the one limit that depends on the machine's load (a debug build parses a
    // mutated file in 1.5 s that a loaded machine needs over 2 s for): when the passes disagree on
    // which files ran out of time, their graphs may too, by those files.
    if slow != clean_slow {
        return Ok(());
    }
    let incremental = live.graph.canonical_dump();
    if clean != incremental {
        let missing: Vec<&String> = clean.iter().filter(|l| !incremental.contains(l)).take(10).collect();
        let extra: Vec<&String> = incremental.iter().filter(|l| !clean.contains(l)).take(10).collect();
        return Err(TestCaseError::fail(format!(
            "after mutating {touched:?}: missing {missing:#?}\nextra {extra:#?}"
        )));
    }
    Ok(())
}
