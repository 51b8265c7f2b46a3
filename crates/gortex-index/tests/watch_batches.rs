//! A watcher's batch of paths, applied without walking: the single-path admission check agrees
//! with the walker, and batches that only a walk can judge (ignore files, directories) fall back
//! to a whole refresh. Every step is compared with a clean index of the same tree.

mod common;

use common::*;
use gortex_index::walk::{self, Admission, Verdict};
use gortex_index::{RepoIndex, SkipReason};
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

/// A folder outside the repository holding source and config files, and links to it from inside
/// `root`: a directory link, a link to the outside file, and a link to a file inside.
fn link_out(root: &Path) -> tempfile::TempDir {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "leak.ts", "export function outsideLeak() {}\n");
    std::os::unix::fs::symlink(outside.path(), root.join("linked")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("leak.ts"), root.join("src/out.ts")).unwrap();
    std::os::unix::fs::symlink(root.join("src/a.ts"), root.join("src/alias.ts")).unwrap();
    outside
}

#[test]
fn symlinks_are_followed_neither_by_the_walk_nor_by_a_watcher_batch() {
    let repo = tree();
    let r = &std::fs::canonicalize(repo.path()).unwrap();
    let outside = link_out(r);
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.name = Some("w".into());
    let walked = walk::walk(r, &opts.walk_options());
    let sources: Vec<&str> = walked.sources.iter().map(|c| c.rel.as_str()).collect();
    assert!(sources.contains(&"src/a.ts"));
    for left in ["linked/leak.ts", "src/out.ts", "src/alias.ts"] {
        assert!(!sources.contains(&left), "{left} was walked");
    }
    let reported = |path: &str| walked.skipped.iter().find(|s| s.path == path).cloned();
    let linked = reported("linked").expect("the directory link is reported");
    assert_eq!(linked.reason, SkipReason::Symlink);
    assert!(
        linked
            .detail
            .as_deref()
            .is_some_and(|d| d.contains("links are never followed")),
        "{linked:?}"
    );
    for link in ["src/out.ts", "src/alias.ts"] {
        assert_eq!(reported(link).map(|s| s.reason), Some(SkipReason::Symlink), "{link}");
    }
    // Single paths are judged as the walk judged them: below a link, the link is what is reported.
    let mut admission = Admission::new(r, &opts.walk_options());
    assert_eq!(admission.judge("linked/leak.ts"), Verdict::Symlink(linked.clone()));
    assert_eq!(admission.judge("linked/deeper/x.ts"), Verdict::Symlink(linked));
    assert_eq!(
        admission.judge("src/out.ts"),
        Verdict::Symlink(reported("src/out.ts").unwrap())
    );
    assert_eq!(admission.judge("src/a.ts"), Verdict::Admitted);

    // A batch naming files below the link (an OS watcher that follows links reports them) reads
    // none of them, the config there included, and leaves the index a clean one would be.
    let (mut live, _) = index(r, &opts);
    write(
        outside.path(),
        "leak.ts",
        "export function outsideLeak() { return 2; }\n",
    );
    write(outside.path(), "fresh.ts", "export function outsideFresh() {}\n");
    write(outside.path(), "go.mod", "module example.com/outside\n");
    let paths: Vec<String> = ["linked/leak.ts", "linked/fresh.ts", "linked/go.mod", "src/out.ts"]
        .iter()
        .map(|p| p.to_string())
        .collect();
    let report = live
        .apply_changes(&paths, &opts, &|_| {}, &AtomicBool::new(false))
        .unwrap();
    assert!(
        !report.phases_ms.contains_key("walk"),
        "a batch of files walked the tree"
    );
    for path in ["linked/leak.ts", "linked/fresh.ts", "src/out.ts"] {
        assert!(live.files.iter().all(|f| &*f.path != path), "{path} was read");
    }
    assert!(live.config.go_modules.is_empty(), "{:?}", live.config.go_modules);
    assert_eq!(live.graph.canonical_dump(), clean(r));
    let (fresh, _) = index(r, &{
        let mut o = options(tempfile::tempdir().unwrap().path());
        o.persist = false;
        o
    });
    assert_eq!(live.skipped, fresh.skipped);
}

#[test]
fn an_ignore_file_is_honoured_within_its_caps_and_the_cut_is_reported() {
    let repo = tempfile::tempdir().unwrap();
    let r = &std::fs::canonicalize(repo.path()).unwrap();
    // Wildcard patterns ending in an extension: each is a regex of its own run on every `.ts` path.
    let mut gitignore = String::from("# generated\nearly.ts\n");
    for i in 0..walk::MAX_IGNORE_PATTERNS + 50 {
        gitignore.push_str(&format!("gen_{i:05}_*.ts\n"));
    }
    gitignore.push_str("late.ts\n");
    write(r, ".gitignore", &gitignore);
    // Past the byte cap: nothing after it is read.
    let mut ignore = String::from("early_ignored.ts\n");
    while ignore.len() <= walk::MAX_IGNORE_FILE_BYTES {
        ignore.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    ignore.push_str("late_ignored.ts\n");
    write(r, "sub/.ignore", &ignore);
    for rel in [
        "early.ts",
        "late.ts",
        "gen_00003_x.ts",
        "sub/early_ignored.ts",
        "sub/late_ignored.ts",
    ] {
        write(r, rel, "export const x = 1;\n");
    }
    let home = tempfile::tempdir().unwrap();
    let opts = options(home.path());
    let walked = walk::walk(r, &opts.walk_options());
    let sources: Vec<&str> = walked.sources.iter().map(|c| c.rel.as_str()).collect();
    for kept in ["late.ts", "sub/late_ignored.ts"] {
        assert!(sources.contains(&kept), "{kept}: {sources:?}");
    }
    for left in ["early.ts", "gen_00003_x.ts", "sub/early_ignored.ts"] {
        assert!(!sources.contains(&left), "{left}: {sources:?}");
    }
    let partial = |path: &str| {
        walked
            .skipped
            .iter()
            .find(|s| s.path == path && s.reason == SkipReason::IgnoreFilePartial)
            .and_then(|s| s.detail.clone())
            .unwrap_or_else(|| panic!("{path} not reported: {:?}", walked.skipped))
    };
    assert!(partial(".gitignore").contains("52 later patterns not honoured"));
    assert!(partial("sub/.ignore").contains(&format!("cap {} bytes", walk::MAX_IGNORE_FILE_BYTES)));
    // Admission reads the same rules.
    let mut admission = Admission::new(r, &opts.walk_options());
    let mut files = Vec::new();
    all_files(r, r, &mut files);
    files.sort();
    let admitted: Vec<String> = files.iter().filter(|f| admission.admits(f)).cloned().collect();
    let walked: Vec<String> = walked.sources.into_iter().map(|c| c.rel).collect();
    assert_eq!(admitted, walked);
}
