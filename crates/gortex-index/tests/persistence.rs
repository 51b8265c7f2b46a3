//! Snapshots: an unchanged repository re-parses nothing; corrupt, truncated, old-version and
//! foreign snapshots are detected and rebuilt with a message; writes are atomic.

mod common;

use common::*;

fn setup() -> (tempfile::TempDir, tempfile::TempDir) {
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("resolver").join("ts"), repo.path());
    (repo, tempfile::tempdir().unwrap())
}

#[test]
fn unchanged_repo_loads_the_snapshot_and_parses_nothing() {
    let (repo, home) = setup();
    let opts = options(home.path());
    let (first, cold) = index(repo.path(), &opts);
    assert_eq!(cold.mode, "cold");
    assert!(cold.files.parsed > 0);
    assert!(std::path::Path::new(&cold.snapshot.path).exists());
    let (second, warm) = index(repo.path(), &opts);
    assert_eq!(warm.mode, "unchanged");
    assert!(warm.snapshot.loaded);
    assert_eq!(warm.files.parsed, 0);
    // Nothing changed since the snapshot's build: no lookup tables, no file resolved again.
    assert_eq!(warm.lookup_tables, "unneeded");
    assert_eq!(warm.files.resolved, 0);
    assert_eq!(first.graph.canonical_dump(), second.graph.canonical_dump());
}

#[test]
fn changed_added_deleted_files_are_reparsed_and_match_a_clean_index() {
    let (repo, home) = setup();
    let opts = options(home.path());
    index(repo.path(), &opts);
    std::fs::write(
        repo.path().join("src/lib/util.ts"),
        "export function helper(): void {}\nexport function extra(): void { helper(); }\n",
    )
    .unwrap();
    std::fs::write(
        repo.path().join("src/new.ts"),
        "import { extra } from './lib/util';\nexport function callsExtra() { extra(); }\n",
    )
    .unwrap();
    std::fs::remove_file(repo.path().join("src/app.test.ts")).unwrap();
    let (incremental, report) = index(repo.path(), &opts);
    assert_eq!(report.mode, "incremental");
    assert_eq!(report.files.parsed, 2, "{report:#?}");
    assert_eq!(report.files.deleted, 1);
    assert_eq!(report.lookup_tables, "built");
    let clean_home = tempfile::tempdir().unwrap();
    let (clean, _) = index(repo.path(), &options(clean_home.path()));
    assert_eq!(incremental.graph.canonical_dump(), clean.graph.canonical_dump());
    assert!(resolution_lines(&incremental)
        .iter()
        .any(|l| l.contains("src/new.ts::callsExtra -calls-> ") && l.contains("util.ts::extra ast_resolved")));
}

fn corrupt_and_reopen(mutate: impl Fn(&std::path::Path), expect: &str) {
    let (repo, home) = setup();
    let opts = options(home.path());
    let (_, cold) = index(repo.path(), &opts);
    let snap = std::path::PathBuf::from(&cold.snapshot.path);
    mutate(&snap);
    let (reopened, report) = index(repo.path(), &opts);
    assert_eq!(report.mode, "cold", "{report:#?}");
    let reason = report.snapshot.rebuilt_reason.clone().unwrap_or_default();
    assert!(reason.contains(expect), "reason {reason:?} should mention {expect:?}");
    assert!(reopened.graph.node_count() > 10);
    // The rebuilt snapshot is valid again.
    let (_, again) = index(repo.path(), &opts);
    assert_eq!(again.mode, "unchanged");
}

#[test]
fn truncated_snapshot_is_rebuilt() {
    corrupt_and_reopen(
        |p| {
            let bytes = std::fs::read(p).unwrap();
            std::fs::write(p, &bytes[..bytes.len() / 2]).unwrap();
        },
        "truncated",
    );
}

#[test]
fn flipped_byte_fails_the_checksum() {
    corrupt_and_reopen(
        |p| {
            let mut bytes = std::fs::read(p).unwrap();
            let last = bytes.len() - 3;
            bytes[last] ^= 0x55;
            std::fs::write(p, &bytes).unwrap();
        },
        "checksum",
    );
}

#[test]
fn old_format_version_is_rebuilt() {
    corrupt_and_reopen(
        |p| {
            let mut bytes = std::fs::read(p).unwrap();
            bytes[8..12].copy_from_slice(&0u32.to_le_bytes());
            std::fs::write(p, &bytes).unwrap();
        },
        "format version 0",
    );
}

#[test]
fn garbage_snapshot_is_rebuilt() {
    corrupt_and_reopen(
        |p| std::fs::write(p, b"not a snapshot at all").unwrap(),
        "not a gortex snapshot",
    );
}

#[test]
fn status_reports_freshness_without_parsing() {
    let (repo, home) = setup();
    let opts = options(home.path());
    let before = gortex_index::status(repo.path(), &opts).unwrap();
    assert!(!before.indexed);
    index(repo.path(), &opts);
    let fresh = gortex_index::status(repo.path(), &opts).unwrap();
    assert!(fresh.indexed && fresh.fresh, "{fresh:#?}");
    std::fs::write(repo.path().join("src/added.ts"), "export const z = 1;\n").unwrap();
    std::fs::write(
        repo.path().join("src/lib/util.ts"),
        "export function helper(): void { /* changed */ }\n",
    )
    .unwrap();
    std::fs::remove_file(repo.path().join("src/lib/index.ts")).unwrap();
    let stale = gortex_index::status(repo.path(), &opts).unwrap();
    assert!(!stale.fresh);
    assert_eq!(stale.stale.added, vec!["src/added.ts"]);
    assert_eq!(stale.stale.modified, vec!["src/lib/util.ts"]);
    assert_eq!(stale.stale.deleted, vec!["src/lib/index.ts"]);
}

#[test]
fn no_temp_files_are_left_behind() {
    let (repo, home) = setup();
    let opts = options(home.path());
    index(repo.path(), &opts);
    let leftovers: Vec<_> = std::fs::read_dir(home.path().join("snapshots"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn update_paths_refuses_paths_outside_the_repository_and_changes_nothing() {
    let (repo, home) = setup();
    let opts = options(home.path());
    let (mut index, _) = index(repo.path(), &opts);
    let before = index.graph.canonical_dump();
    for bad in ["../outside.ts", "src/../../outside.ts", "/etc/passwd"] {
        let err = index
            .update_paths(&["src/app.ts".to_string(), bad.to_string()], &opts)
            .unwrap_err();
        assert!(err.to_string().contains("outside the repository"), "{bad}: {err}");
        assert_eq!(index.graph.canonical_dump(), before, "{bad} changed the index");
    }
    // Absolute paths inside the root are accepted and normalised.
    let abs = std::fs::canonicalize(repo.path()).unwrap().join("src/./lib/util.ts");
    std::fs::write(
        &abs,
        "export function helper(): void {}\nexport function more(): void {}\n",
    )
    .unwrap();
    let report = index.update_paths(&[abs.display().to_string()], &opts).unwrap();
    assert_eq!(report.files.parsed, 1);
    assert!(index
        .graph
        .node(&format!("{}/src/lib/util.ts::more", index.name))
        .is_some());
}

#[test]
fn a_touched_file_with_the_same_bytes_is_not_stale_but_a_same_size_edit_is() {
    let (repo, home) = setup();
    let opts = options(home.path());
    index(repo.path(), &opts);
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    let touch = |rel: &str| {
        let f = std::fs::File::options()
            .write(true)
            .open(repo.path().join(rel))
            .unwrap();
        f.set_modified(later).unwrap();
    };
    // Same bytes, new mtime (a checkout or a build tool rewriting it).
    touch("src/lib/index.ts");
    // Same size, different bytes.
    let util = repo.path().join("src/lib/util.ts");
    let text = std::fs::read_to_string(&util).unwrap();
    let flipped: String = text.chars().map(|c| if c == 'h' { 'H' } else { c }).collect();
    assert_eq!(flipped.len(), text.len());
    assert_ne!(flipped, text);
    std::fs::write(&util, flipped).unwrap();
    touch("src/lib/util.ts");
    let status = gortex_index::status(repo.path(), &opts).unwrap();
    assert_eq!(status.stale.modified, vec!["src/lib/util.ts"], "{status:#?}");
    assert!(status.stale.added.is_empty() && status.stale.deleted.is_empty());
}
