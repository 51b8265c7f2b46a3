//! Property: after any sequence of edits (modify, add, delete, rename), the incrementally
//! updated index equals a clean index of the same tree — through both update paths
//! (`refresh`, which re-walks, and `update_paths`, which is told what changed).

mod common;

use common::*;
use gortex_index::RepoIndex;
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;

#[derive(Debug, Clone)]
enum Edit {
    /// Append a declaration that calls names defined elsewhere.
    Append { file: usize, n: u32 },
    /// Replace a file's content with a tiny variant that drops its declarations.
    Gut { file: usize },
    Delete { file: usize },
    Rename { file: usize },
    Add { lang: usize, n: u32 },
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (0usize..64, 0u32..1000).prop_map(|(file, n)| Edit::Append { file, n }),
        1 => (0usize..64).prop_map(|file| Edit::Gut { file }),
        1 => (0usize..64).prop_map(|file| Edit::Delete { file }),
        1 => (0usize..64).prop_map(|file| Edit::Rename { file }),
        2 => (0usize..5, 0u32..1000).prop_map(|(lang, n)| Edit::Add { lang, n }),
    ]
}

fn source_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(rel) = gortex_index::walk::relative(root, &p) {
                if gortex_core::Language::from_path(&rel).is_some() {
                    out.push(rel);
                }
            }
        }
    }
    out.sort();
    out
}

fn snippet(path: &str, n: u32) -> String {
    match path.rsplit('.').next().unwrap_or("") {
        "ts" => format!("\nexport function gen{n}(): void {{ helper(); openStore(); gen{}(); }}\n", n / 2),
        "py" => format!("\n\ndef gen{n}():\n    helper()\n    create()\n    return gen{}()\n", n / 2),
        "go" => format!("\nfunc Gen{n}() {{ helper(); Open(); Gen{}() }}\n", n / 2),
        "rs" => format!("\npub fn gen{n}() {{ helper(); open(); gen{}(); }}\n", n / 2),
        _ => String::new(), // Java: appending after the class body is a syntax error; Gut/Add cover it.
    }
}

/// Applies an edit; returns the repo-relative paths it touched.
fn apply(root: &Path, edit: &Edit) -> Vec<String> {
    let files = source_files(root);
    if files.is_empty() {
        return Vec::new();
    }
    match edit {
        Edit::Append { file, n } => {
            let rel = &files[file % files.len()];
            let mut text = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            text.push_str(&snippet(rel, *n));
            std::fs::write(root.join(rel), text).unwrap();
            vec![rel.clone()]
        }
        Edit::Gut { file } => {
            let rel = &files[file % files.len()];
            let body = match rel.rsplit('.').next().unwrap_or("") {
                "go" => "package main\n".to_string(),
                "java" => "package com.acme;\nclass Gutted {}\n".to_string(),
                _ => String::new(),
            };
            std::fs::write(root.join(rel), body).unwrap();
            vec![rel.clone()]
        }
        Edit::Delete { file } => {
            let rel = files[file % files.len()].clone();
            std::fs::remove_file(root.join(&rel)).unwrap();
            vec![rel]
        }
        Edit::Rename { file } => {
            let rel = files[file % files.len()].clone();
            let (stem, ext) = rel.rsplit_once('.').unwrap();
            let to = format!("{stem}_moved.{ext}");
            std::fs::rename(root.join(&rel), root.join(&to)).unwrap();
            vec![rel, to]
        }
        Edit::Add { lang, n } => {
            let (rel, body) = match lang {
                0 => (format!("ts/src/added{n}.ts"), format!("import {{ helper }} from './lib';\nexport function added{n}() {{ helper(); }}\n")),
                1 => (format!("py/pkg/added{n}.py"), format!("from .util import helper\n\ndef added{n}():\n    helper()\n")),
                2 => (format!("go/added{n}.go"), format!("package main\n\nfunc Added{n}() {{ helper() }}\n")),
                3 => (format!("rust/src/added{n}.rs"), format!("pub fn added{n}() {{ crate::store::open(); }}\n")),
                _ => (
                    format!("java/src/main/java/com/acme/Added{n}.java"),
                    format!("package com.acme;\n\npublic class Added{n} {{\n    void m() {{ new App().run(); }}\n}}\n"),
                ),
            };
            let p = root.join(&rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
            vec![rel]
        }
    }
}

fn clean_dump(root: &Path) -> Vec<String> {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    opts.name = Some("poly".into());
    let (index, _) = index(root, &opts);
    index.graph.canonical_dump()
}

fn run(edits: &[Edit], use_paths: bool) -> Result<(), TestCaseError> {
    let repo = tempfile::tempdir().unwrap();
    for lang in ["ts", "py", "go", "rust", "java"] {
        copy_tree(&fixtures().join("resolver").join(lang), &repo.path().join(lang));
    }
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.name = Some("poly".into());
    let (mut live, _) = index(repo.path(), &opts);
    for edit in edits {
        // mtime granularity: make sure the walker sees a change even within one clock tick.
        std::thread::sleep(std::time::Duration::from_millis(2));
        let touched = apply(repo.path(), edit);
        if use_paths {
            live.update_paths(&touched, &opts).unwrap();
        } else {
            live.refresh(&opts, &|_| {}, &AtomicBool::new(false)).unwrap();
        }
        let clean = clean_dump(repo.path());
        let incremental = live.graph.canonical_dump();
        if clean != incremental {
            let missing: Vec<&String> = clean.iter().filter(|l| !incremental.contains(l)).take(10).collect();
            let extra: Vec<&String> = incremental.iter().filter(|l| !clean.contains(l)).take(10).collect();
            return Err(TestCaseError::fail(format!("after {edit:?}: missing {missing:#?}\nextra {extra:#?}")));
        }
    }
    // A restart from the snapshot equals the live index too.
    let (reopened, report) = RepoIndex::open(repo.path(), &opts, &|_| {}, &AtomicBool::new(false)).unwrap();
    prop_assert_eq!(report.files.parsed, 0, "reopen re-parsed files: {:?}", report);
    prop_assert_eq!(reopened.graph.canonical_dump(), live.graph.canonical_dump());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn incremental_refresh_equals_clean(edits in proptest::collection::vec(edit_strategy(), 1..6)) {
        run(&edits, false)?;
    }

    #[test]
    fn incremental_update_paths_equals_clean(edits in proptest::collection::vec(edit_strategy(), 1..6)) {
        run(&edits, true)?;
    }
}
