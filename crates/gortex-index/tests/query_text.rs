//! `search_text` and `find_declaration` over `test/fixtures/query/text-app` (TypeScript, Python
//! and Go sources, a binary file, a file with a 1006-character line, UTF-8 text): exact hits with
//! enclosing symbols, case folding, regex prefilters, path filters, truncation, incremental sync,
//! binary exclusion, the memory budget and bad input.

mod common;

use common::*;
use gortex_graph::Graph;
use gortex_search::declaration::{find_declaration, FindDeclarationArgs, FindDeclarationResult};
use gortex_search::text::{search_text, SearchTextArgs, SearchTextResult};
use gortex_search::trigram::{SyncStats, TextIndex, TextSkip, TextSkipReason, DEFAULT_BUDGET_BYTES};
use std::path::Path;
use std::sync::Arc;

fn app_root() -> std::path::PathBuf {
    fixtures().join("query").join("text-app")
}

/// Every file under `root` (explicit stack, sorted), stamped with a content hash.
fn list_files(root: &Path) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
                continue;
            }
            let rel = entry
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, xxhash_rust::xxh3::xxh3_64(&std::fs::read(entry.path()).unwrap())));
        }
    }
    out.sort();
    out
}

fn graph_of(root: &Path) -> Arc<Graph> {
    let home = tempfile::tempdir().unwrap();
    let (repo, _) = index(root, &options(home.path()));
    repo.graph.clone()
}

fn text_index(root: &Path, budget: usize) -> (TextIndex, SyncStats) {
    let mut idx = TextIndex::new(budget);
    let stats = idx.sync(root, &list_files(root));
    (idx, stats)
}

fn app() -> (Arc<Graph>, TextIndex) {
    let root = app_root();
    (graph_of(&root), text_index(&root, DEFAULT_BUDGET_BYTES).0)
}

fn args(query: &str) -> SearchTextArgs {
    SearchTextArgs {
        query: query.to_string(),
        ..Default::default()
    }
}

fn search(idx: &TextIndex, g: &Graph, a: SearchTextArgs) -> SearchTextResult {
    search_text(idx, g, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

/// `path:line:column symbol` per hit (`-` when the file has no graph node).
fn rows(r: &SearchTextResult) -> Vec<String> {
    r.hits
        .iter()
        .map(|h| {
            format!(
                "{}:{}:{} {}",
                h.path,
                h.line,
                h.column,
                h.symbol_id.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

fn texts(r: &SearchTextResult) -> Vec<String> {
    r.hits.iter().map(|h| h.text.clone()).collect()
}

fn error(idx: &TextIndex, g: &Graph, a: SearchTextArgs) -> String {
    let e = search_text(idx, g, &a).expect_err("the arguments are rejected");
    assert_eq!(e.code, "invalid_argument", "{e}");
    e.message
}

#[test]
fn literal_hits_carry_position_and_innermost_symbol() {
    let (g, idx) = app();
    assert_eq!(idx.doc_count(), 7);
    let r = search(&idx, &g, args("store.save("));
    assert_eq!(
        rows(&r),
        vec![
            "py/store.py:12:9 text-app/py/store.py::save_all",
            "src/app.ts:7:5 text-app/src/app.ts::saveAll"
        ]
    );
    assert_eq!(texts(&r), vec!["        store.save(record)", "    store.save({ id });"]);
    assert_eq!(r.hits[1].symbol_name.as_deref(), Some("saveAll"));
    assert_eq!(
        (r.total_hits, r.truncated, r.files_matched, r.candidate_files, r.docs),
        (2, false, 2, 2, 7)
    );

    // A line inside a method inside a class: the method, not the class.
    let r = search(&idx, &g, args("items.push"));
    assert_eq!(rows(&r), vec!["src/store.ts:9:10 text-app/src/store.ts::Store.save"]);
    // Outside every symbol: the file node.
    let r = search(&idx, &g, args("import { Store"));
    assert_eq!(rows(&r), vec!["src/app.ts:1:1 text-app/src/app.ts"]);
    assert_eq!(r.hits[0].symbol_name.as_deref(), Some("app.ts"));
    // One hit per line, at the first match; CRLF-free lines keep their indentation.
    let r = search(&idx, &g, args("items"));
    assert_eq!(
        rows(&r),
        vec![
            "go/main.go:6:2 text-app/go/main.go::Store.items",
            "go/main.go:10:4 text-app/go/main.go::Store.Save",
            "go/main.go:16:20 text-app/go/main.go::main",
            "py/store.py:3:14 text-app/py/store.py::Store.items",
            "py/store.py:6:14 text-app/py/store.py::Store.save",
            "src/store.ts:6:11 text-app/src/store.ts::Store.items",
            "src/store.ts:9:10 text-app/src/store.ts::Store.save",
            "src/store.ts:13:17 text-app/src/store.ts::Store.find",
        ]
    );
}

#[test]
fn case_sensitivity_folds_ascii_only() {
    let (g, idx) = app();
    let r = search(&idx, &g, args("needle"));
    assert_eq!(
        rows(&r),
        vec![
            "docs/unicode.md:3:26 text-app/docs/unicode.md::grüße",
            "go/main.go:15:10 text-app/go/main.go::main"
        ]
    );
    // The lowercased index narrows both searches to the same four files; verification differs.
    assert_eq!(r.candidate_files, 4);
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            case_sensitive: Some(false),
            ..args("needle")
        },
    );
    assert_eq!(
        rows(&r),
        vec![
            "docs/long.txt:2:501 text-app/docs/long.txt",
            "docs/unicode.md:3:26 text-app/docs/unicode.md::grüße",
            "go/main.go:15:10 text-app/go/main.go::main",
            "src/app.ts:17:16 text-app/src/app.ts::main",
        ]
    );
    assert_eq!((r.total_hits, r.files_matched, r.candidate_files), (4, 4, 4));

    // Columns are byte columns; UTF-8 text is returned intact.
    let r = search(&idx, &g, args("straße"));
    assert_eq!(rows(&r), vec!["docs/unicode.md:3:18 text-app/docs/unicode.md::grüße"]);
    assert_eq!(texts(&r), vec!["naïve café — straße needle 日本語"]);
    // ASCII letters fold, other characters do not.
    let ci = |q: &str| {
        rows(&search(
            &idx,
            &g,
            SearchTextArgs {
                case_sensitive: Some(false),
                ..args(q)
            },
        ))
    };
    assert_eq!(ci("CAFé"), vec!["docs/unicode.md:3:8 text-app/docs/unicode.md::grüße"]);
    assert!(ci("CAFÉ").is_empty());
    assert!(ci("STRASSE").is_empty());
}

#[test]
fn long_lines_are_cut_around_the_match() {
    let (g, idx) = app();
    let r = search(&idx, &g, args("NEEDLE"));
    assert_eq!(rows(&r), vec!["docs/long.txt:2:501 text-app/docs/long.txt"]);
    let expected = format!("…{}NEEDLE{}…", "x".repeat(80), "y".repeat(154));
    assert_eq!(texts(&r), vec![expected]);
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            context_chars: Some(4),
            ..args("NEEDLE")
        },
    );
    assert_eq!(texts(&r), vec!["…xxxxNEEDLEyyyy…"]);
    // Short lines stay whole unless context is asked for.
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            context_chars: Some(3),
            ..args("createStore")
        },
    );
    assert_eq!(texts(&r)[0], "…e, createStore } …");
}

#[test]
fn regex_search_uses_the_trigram_plan() {
    let (g, idx) = app();
    let re = |q: &str| SearchTextArgs {
        regexp: true,
        ..args(q)
    };
    let r = search(&idx, &g, re("colou?r"));
    assert_eq!(
        rows(&r),
        vec![
            "docs/notes.md:3:5 text-app/docs/notes.md::notes",
            "docs/notes.md:4:5 text-app/docs/notes.md::notes"
        ]
    );
    assert_eq!(r.candidate_files, 1);

    let r = search(&idx, &g, re("createStore|saveAll"));
    assert_eq!(
        rows(&r),
        vec![
            "src/app.ts:1:17 text-app/src/app.ts",
            "src/app.ts:3:27 text-app/src/app.ts",
            "src/app.ts:4:17 text-app/src/app.ts::saveAll",
            "src/app.ts:14:17 text-app/src/app.ts::main",
            "src/app.ts:15:3 text-app/src/app.ts::main",
            "src/store.ts:17:17 text-app/src/store.ts::createStore",
        ]
    );
    assert_eq!(r.candidate_files, 2);

    // Case-insensitive regex.
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            case_sensitive: Some(false),
            ..re(r"SAVE\(")
        },
    );
    assert_eq!(
        rows(&r),
        vec![
            "go/main.go:9:17 text-app/go/main.go::Store.Save",
            "go/main.go:15:4 text-app/go/main.go::main",
            "py/store.py:5:9 text-app/py/store.py::Store.save",
            "py/store.py:12:15 text-app/py/store.py::save_all",
            "src/app.ts:7:11 text-app/src/app.ts::saveAll",
            "src/store.ts:8:3 text-app/src/store.ts::Store.save",
        ]
    );

    // `^`/`$` are line anchors; a pattern with no literal scans every document.
    let r = search(&idx, &g, re("^}$"));
    assert_eq!(
        rows(&r),
        vec![
            "go/main.go:7:1 text-app/go/main.go::Store",
            "go/main.go:11:1 text-app/go/main.go::Store.Save",
            "go/main.go:17:1 text-app/go/main.go::main",
            "src/app.ts:11:1 text-app/src/app.ts::saveAll",
            "src/app.ts:18:1 text-app/src/app.ts::main",
            "src/store.ts:3:1 text-app/src/store.ts::Record",
            "src/store.ts:15:1 text-app/src/store.ts::Store",
            "src/store.ts:19:1 text-app/src/store.ts::createStore",
        ]
    );
    assert_eq!(r.candidate_files, 7);
    let r = search(&idx, &g, re("^export function"));
    assert_eq!(
        r.hits.iter().map(|h| (h.path.as_str(), h.line)).collect::<Vec<_>>(),
        vec![("src/app.ts", 4), ("src/app.ts", 13), ("src/store.ts", 17)]
    );
}

#[test]
fn path_globs_and_prefixes() {
    let (g, idx) = app();
    let ci = |path: &str| SearchTextArgs {
        case_sensitive: Some(false),
        path: Some(path.into()),
        ..args("needle")
    };
    let paths = |r: SearchTextResult| r.hits.into_iter().map(|h| h.path).collect::<Vec<_>>();
    assert_eq!(
        paths(search(&idx, &g, ci("docs/"))),
        vec!["docs/long.txt", "docs/unicode.md"]
    );
    assert_eq!(paths(search(&idx, &g, ci("./docs/u"))), vec!["docs/unicode.md"]);
    assert_eq!(paths(search(&idx, &g, ci("**/*.go"))), vec!["go/main.go"]);
    // A glob without `/` matches file names anywhere.
    assert_eq!(paths(search(&idx, &g, ci("*.md"))), vec!["docs/unicode.md"]);
    assert_eq!(
        paths(search(&idx, &g, ci("{go,src}/*"))),
        vec!["go/main.go", "src/app.ts"]
    );
    let r = search(&idx, &g, ci("src/**/*.py"));
    assert_eq!((r.hits.len(), r.candidate_files), (0, 0));
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            path: Some("src/**/*.ts".into()),
            ..args("Store")
        },
    );
    assert!(r.hits.iter().all(|h| h.path.starts_with("src/")));
    assert_eq!(r.files_matched, 2);
}

#[test]
fn limit_truncates_in_path_order() {
    let (g, idx) = app();
    let all = search(
        &idx,
        &g,
        SearchTextArgs {
            limit: Some(1000),
            ..args("Store")
        },
    );
    assert!(!all.truncated);
    assert_eq!(all.total_hits, 10);
    assert_eq!(all.hits.len(), 10);
    let first = &all.hits[..2];
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            limit: Some(2),
            ..args("Store")
        },
    );
    assert_eq!(r.hits, first);
    assert!(r.truncated);
    assert!(r.total_hits > 2);
    // Exactly `limit` matches is not truncated.
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            limit: Some(10),
            ..args("Store")
        },
    );
    assert_eq!((r.hits.len(), r.truncated, r.total_hits), (10, false, 10));
    // Queries shorter than a trigram scan every document.
    let all = search(
        &idx,
        &g,
        SearchTextArgs {
            limit: Some(1000),
            ..args("e")
        },
    );
    assert_eq!(all.candidate_files, 7);
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            limit: Some(5),
            ..args("e")
        },
    );
    assert_eq!(r.hits, all.hits[..5]);
    assert!(r.truncated);
    // An empty regex match hits every line once (78 lines in 7 files), not a phantom line
    // after the final newline.
    let r = search(
        &idx,
        &g,
        SearchTextArgs {
            regexp: true,
            limit: Some(1000),
            ..args("^")
        },
    );
    assert_eq!((r.hits.len(), r.truncated, r.files_matched), (78, false, 7));
}

#[test]
fn the_default_limit_is_100() {
    let tmp = tempfile::tempdir().unwrap();
    let lines: String = (1..=150).map(|i| format!("line {i}\n")).collect();
    std::fs::write(tmp.path().join("many.txt"), lines).unwrap();
    let (idx, _) = text_index(tmp.path(), DEFAULT_BUDGET_BYTES);
    let r = search(&idx, &Graph::default(), args("line"));
    assert_eq!((r.hits.len(), r.truncated), (100, true));
    assert_eq!(r.hits[99].line, 100);
    let r = search(
        &idx,
        &Graph::default(),
        SearchTextArgs {
            limit: Some(150),
            ..args("line")
        },
    );
    assert_eq!((r.hits.len(), r.truncated, r.total_hits), (150, false, 150));
}

#[test]
fn binary_files_are_excluded_and_remembered() {
    let root = app_root();
    let g = graph_of(&root);
    let files = list_files(&root);
    let mut idx = TextIndex::new(DEFAULT_BUDGET_BYTES);
    let stats = idx.sync(&root, &files);
    assert_eq!(
        (stats.added, stats.updated, stats.removed, stats.unchanged),
        (7, 0, 0, 0)
    );
    assert_eq!(
        stats.skipped,
        vec![TextSkip {
            path: "data/blob.bin".into(),
            reason: TextSkipReason::Binary,
            detail: Some("NUL byte at offset 6".into())
        }]
    );
    let r = search(&idx, &g, args("binary payload"));
    assert_eq!((r.hits.len(), r.candidate_files), (0, 0));
    // Unchanged stamps: nothing is read again, the binary file included.
    let again = idx.sync(&root, &files);
    assert_eq!(
        (again.added, again.unchanged, again.bytes_read, again.skipped.len()),
        (0, 8, 0, 0)
    );
}

#[test]
fn sync_follows_modify_add_delete_and_matches_a_fresh_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("text-app");
    copy_tree(&app_root(), &root);
    let g = graph_of(&root);
    let mut idx = TextIndex::new(DEFAULT_BUDGET_BYTES);
    idx.sync(&root, &list_files(&root));
    assert_eq!(search(&idx, &g, args("colour")).hits.len(), 1);

    let app = root.join("src/app.ts");
    let mut text = std::fs::read_to_string(&app).unwrap();
    text.push_str("// zebra crossing\n");
    std::fs::write(&app, text).unwrap();
    std::fs::write(root.join("docs/new.md"), "a zebra\n").unwrap();
    std::fs::remove_file(root.join("docs/notes.md")).unwrap();
    std::fs::write(root.join("data/blob.bin"), "now text: zebra\n").unwrap();
    std::fs::write(root.join("data/huge.txt"), "zebra ".repeat(800_000)).unwrap();
    let stats = idx.sync(&root, &list_files(&root));
    assert_eq!(
        (stats.added, stats.updated, stats.removed, stats.unchanged),
        (2, 1, 1, 5)
    );
    assert_eq!(stats.skipped.len(), 1);
    assert_eq!(
        (stats.skipped[0].path.as_str(), stats.skipped[0].reason),
        ("data/huge.txt", TextSkipReason::TooLarge)
    );
    assert_eq!(idx.doc_count(), 8);
    let r = search(&idx, &g, args("zebra"));
    assert_eq!(
        rows(&r),
        vec![
            "data/blob.bin:1:11 -",
            "docs/new.md:1:3 -",
            "src/app.ts:19:4 text-app/src/app.ts"
        ]
    );
    assert!(search(&idx, &g, args("colour")).hits.is_empty());

    let (fresh, _) = text_index(&root, DEFAULT_BUDGET_BYTES);
    for q in ["zebra", "Store", "needle", "e", "import"] {
        let a = SearchTextArgs {
            limit: Some(1000),
            case_sensitive: Some(false),
            ..args(q)
        };
        assert_eq!(search(&idx, &g, a.clone()).hits, search(&fresh, &g, a).hits, "{q}");
    }

    // Enough removals compact the postings; results do not change.
    let mut kept = list_files(&root);
    kept.retain(|(p, _)| p.starts_with("src/") || p.starts_with("docs/"));
    let stats = idx.sync(&root, &kept);
    assert_eq!(stats.removed, 3);
    assert!(stats.compacted);
    assert_eq!(idx.stats().dead_docs, 0);
    assert_eq!(
        rows(&search(&idx, &g, args("zebra"))),
        vec!["docs/new.md:1:3 -", "src/app.ts:19:4 text-app/src/app.ts"]
    );
}

#[test]
fn unreadable_listed_files_are_reported_not_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("text-app");
    copy_tree(&app_root(), &root);
    let mut files = list_files(&root);
    files.push(("docs/gone.md".into(), 1));
    files.push(("src".into(), 2));
    files.push(("../outside.txt".into(), 3));
    files.push(("/etc/hostname".into(), 4));
    let mut idx = TextIndex::new(0);
    let stats = idx.sync(&root, &files);
    let reasons: Vec<(String, TextSkipReason)> = stats.skipped.iter().map(|s| (s.path.clone(), s.reason)).collect();
    assert_eq!(
        reasons,
        vec![
            ("../outside.txt".to_string(), TextSkipReason::InvalidPath),
            ("/etc/hostname".to_string(), TextSkipReason::InvalidPath),
            ("data/blob.bin".to_string(), TextSkipReason::Binary),
            ("docs/gone.md".to_string(), TextSkipReason::Missing),
            ("src".to_string(), TextSkipReason::NotRegularFile),
        ]
    );
    assert_eq!(idx.doc_count(), 7);
    // With no budget nothing is resident: a file deleted after the sync cannot be verified.
    let g = graph_of(&root);
    std::fs::remove_file(root.join("go/main.go")).unwrap();
    let r = search(&idx, &g, args("needle"));
    assert_eq!(rows(&r), vec!["docs/unicode.md:3:26 text-app/docs/unicode.md::grüße"]);
    assert_eq!(r.unreadable_files, 1);
}

#[test]
fn memory_stays_within_the_budget_and_results_do_not_change() {
    let root = app_root();
    let g = graph_of(&root);
    let (full, _) = text_index(&root, DEFAULT_BUDGET_BYTES);
    let s = full.stats();
    assert_eq!(
        (s.docs, s.unindexed_docs, s.resident_docs, s.resident_bytes),
        (7, 0, 7, 2360)
    );
    assert_eq!(s.memory_bytes, full.memory_bytes());
    assert!(full.memory_bytes() <= DEFAULT_BUDGET_BYTES);
    assert!(s.postings_bytes > 0 && s.trigrams > 0);

    // One byte short: the largest file's content goes back to disk, the postings stay.
    let budget = full.memory_bytes() - 1;
    let (tight, _) = text_index(&root, budget);
    let t = tight.stats();
    assert!(tight.memory_bytes() <= budget);
    assert_eq!(
        (t.unindexed_docs, t.resident_docs, t.resident_bytes),
        (0, 6, 2360 - 1022)
    );

    // Postings only partly fit: some files stay unindexed (always candidates).
    let budget = (s.memory_bytes - s.resident_bytes) / 2;
    let (half, stats) = text_index(&root, budget);
    let h = half.stats();
    assert!(half.memory_bytes() <= budget, "{h:?}");
    assert!(h.unindexed_docs > 0 && h.unindexed_docs < 7, "{h:?}");
    assert_eq!(stats.unindexed, h.unindexed_docs);

    // No budget at all: metadata only.
    let (none, _) = text_index(&root, 0);
    let n = none.stats();
    assert_eq!((n.unindexed_docs, n.resident_docs, n.postings_bytes), (7, 0, 0));
    assert!(n.memory_bytes > 0);

    for q in ["needle", "Store", "e", "zzz", "save("] {
        let a = SearchTextArgs {
            limit: Some(1000),
            case_sensitive: Some(false),
            ..args(q)
        };
        let expected = search(&full, &g, a.clone()).hits;
        for idx in [&tight, &half, &none] {
            assert_eq!(search(idx, &g, a.clone()).hits, expected, "{q}");
        }
    }
}

#[test]
fn bad_search_text_input_is_rejected_with_the_reason() {
    let (g, idx) = app();
    assert_eq!(error(&idx, &g, args("")), "query must not be empty");
    let m = error(
        &idx,
        &g,
        SearchTextArgs {
            regexp: true,
            ..args("save(")
        },
    );
    assert!(m.starts_with("invalid regex \"save(\": "), "{m}");
    assert!(m.contains("unclosed group"), "{m}");
    // Bounded like every caller-supplied pattern: a Unicode class repeated by a large count is
    // refused with how to shrink it, not compiled into a program that takes seconds per search.
    let big = error(
        &idx,
        &g,
        SearchTextArgs {
            regexp: true,
            ..args(r"\w{60}\s\w{60}")
        },
    );
    assert!(big.contains("exceeds size limit"), "{big}");
    assert!(big.contains("use ASCII classes"), "{big}");
    assert_eq!(
        error(
            &idx,
            &g,
            SearchTextArgs {
                limit: Some(0),
                ..args("x")
            }
        ),
        "limit must be 1..=1000, got 0"
    );
    assert_eq!(
        error(
            &idx,
            &g,
            SearchTextArgs {
                limit: Some(5000),
                ..args("x")
            }
        ),
        "limit must be 1..=1000, got 5000"
    );
    let m = error(
        &idx,
        &g,
        SearchTextArgs {
            path: Some("src/[a".into()),
            ..args("x")
        },
    );
    assert!(m.starts_with("path is not a valid glob: \"src/[a\""), "{m}");
    let m = error(
        &idx,
        &g,
        SearchTextArgs {
            path: Some("".into()),
            ..args("x")
        },
    );
    assert!(m.starts_with("path must be a glob"), "{m}");
    assert_eq!(
        error(
            &idx,
            &g,
            SearchTextArgs {
                context_chars: Some(5000),
                ..args("x")
            }
        ),
        "context_chars must be 0..=1000, got 5000"
    );
    let m = error(&idx, &g, args(&"q".repeat(5000)));
    assert_eq!(m, "query must be at most 4096 bytes, got 5000");
    // Unknown arguments are refused when the dispatcher deserialises.
    let e = serde_json::from_str::<SearchTextArgs>(r#"{"query":"x","regex":true}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `regex`"), "{e}");
    let ok: SearchTextArgs = serde_json::from_str(r#"{"query":"x","regexp":true,"case_sensitive":false}"#).unwrap();
    assert!(ok.regexp && ok.case_sensitive == Some(false));
}

// ---------------------------------------------------------------------------------------------
// find_declaration

fn declare(idx: &TextIndex, g: &Graph, a: FindDeclarationArgs) -> FindDeclarationResult {
    find_declaration(idx, g, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn dargs(query: &str) -> FindDeclarationArgs {
    FindDeclarationArgs {
        query: query.to_string(),
        ..Default::default()
    }
}

/// `id origin resolved_uses [uses as path:line:col/origin] (decl)` per declaration.
fn decl_rows(r: &FindDeclarationResult) -> Vec<String> {
    r.declarations
        .iter()
        .map(|d| {
            let uses: Vec<String> = d
                .uses
                .iter()
                .map(|u| {
                    format!(
                        "{}:{}:{}/{}",
                        u.path,
                        u.line,
                        u.column,
                        u.origin.map_or("-", |o| o.as_str())
                    )
                })
                .collect();
            format!(
                "{} {} {} [{}]{}",
                d.node.id,
                d.origin,
                d.resolved_uses,
                uses.join(" "),
                if d.matched_declaration { " (decl)" } else { "" }
            )
        })
        .collect()
}

#[test]
fn member_calls_map_to_declarations_with_their_tiers() {
    let (g, idx) = app();
    let r = declare(&idx, &g, dargs(".save("));
    assert_eq!(
        decl_rows(&r),
        vec![
            "text-app/src/store.ts::Store.save ast_resolved 1 [src/app.ts:7:10/ast_resolved]",
            "text-app/py/store.py::Store.save text_matched 0 [py/store.py:12:14/text_matched]",
        ]
    );
    assert!(r.unresolved_uses.is_empty());
    assert_eq!((r.use_sites, r.truncated), (2, false));

    // Matching a declaration's own line marks it without counting a use.
    let r = declare(&idx, &g, dargs("save("));
    assert_eq!(
        decl_rows(&r),
        vec![
            "text-app/src/store.ts::Store.save ast_resolved 1 [src/app.ts:7:11/ast_resolved] (decl)",
            "text-app/py/store.py::Store.save text_matched 0 [py/store.py:12:15/text_matched] (decl)",
        ]
    );
    assert_eq!(r.use_sites, 4);

    let r = declare(&idx, &g, dargs("createStore("));
    assert_eq!(
        decl_rows(&r),
        vec!["text-app/src/store.ts::createStore ast_resolved 1 [src/app.ts:14:17/ast_resolved] (decl)"]
    );
    assert_eq!(r.declarations[0].node.kind.as_str(), "function");

    // `new Store(` → the class, through the `instantiates` edge.
    let r = declare(&idx, &g, dargs("new Store("));
    assert_eq!(
        decl_rows(&r),
        vec!["text-app/src/store.ts::Store ast_resolved 1 [src/store.ts:18:10/ast_resolved]"]
    );
    // External stubs are declarations too.
    let r = declare(&idx, &g, dargs("Println("));
    assert_eq!(
        decl_rows(&r),
        vec!["external::fmt.Println ast_resolved 1 [go/main.go:16:6/ast_resolved]"]
    );
    assert!(r.declarations[0].node.external);
}

#[test]
fn unresolved_sites_fall_back_to_names_or_stay_unresolved() {
    let (g, idx) = app();
    // The resolver left `this.items.find(` unresolved: name-only candidates, same language.
    let r = declare(&idx, &g, dargs("items.find("));
    assert_eq!(
        decl_rows(&r),
        vec!["text-app/src/store.ts::Store.find text_matched 0 [src/store.ts:13:17/text_matched]"]
    );
    // No symbol named `log` anywhere.
    let r = declare(&idx, &g, dargs("console.log("));
    assert!(r.declarations.is_empty());
    assert_eq!(r.unresolved_uses.len(), 1);
    let u = &r.unresolved_uses[0];
    assert_eq!(
        (u.path.as_str(), u.line, u.column, u.identifier.as_deref()),
        ("src/app.ts", 17, 3, Some("log"))
    );
    assert_eq!(u.text, "  console.log(\"Needle in app\", missing);");

    // A regex use site; resolved and name-only uses of one declaration add up.
    let r = declare(
        &idx,
        &g,
        FindDeclarationArgs {
            regex: true,
            ..dargs(r"\.(save|find)\(")
        },
    );
    assert_eq!(
        decl_rows(&r),
        vec![
            "text-app/src/store.ts::Store.find ast_inferred 1 [src/app.ts:16:24/ast_inferred src/store.ts:13:22/text_matched]",
            "text-app/src/store.ts::Store.save ast_resolved 1 [src/app.ts:7:10/ast_resolved]",
            "text-app/py/store.py::Store.save text_matched 0 [py/store.py:12:14/text_matched]",
        ]
    );
}

#[test]
fn declaration_filters_and_limits() {
    let (g, idx) = app();
    let r = declare(
        &idx,
        &g,
        FindDeclarationArgs {
            path_prefix: Some("py/".into()),
            ..dargs("save(")
        },
    );
    assert_eq!(
        decl_rows(&r),
        vec!["text-app/py/store.py::Store.save text_matched 0 [py/store.py:12:15/text_matched] (decl)"]
    );
    // No `save` function exists: every site is unresolved for kind `function`.
    let r = declare(
        &idx,
        &g,
        FindDeclarationArgs {
            kind: Some("function".into()),
            ..dargs("save(")
        },
    );
    assert!(r.declarations.is_empty());
    assert_eq!(r.unresolved_uses.len(), 4);
    let r = declare(
        &idx,
        &g,
        FindDeclarationArgs {
            kind: Some("method".into()),
            limit: Some(1),
            ..dargs("save(")
        },
    );
    assert_eq!(r.declarations.len(), 1);
    assert!(r.truncated);
    assert_eq!(r.declarations[0].node.id, "text-app/src/store.ts::Store.save");
}

#[test]
fn bad_find_declaration_input_is_rejected() {
    let (g, idx) = app();
    let err = |a: FindDeclarationArgs| {
        let e = find_declaration(&idx, &g, &a).expect_err("rejected");
        assert_eq!(e.code, "invalid_argument");
        e.message
    };
    assert_eq!(err(dargs("")), "query must not be empty");
    assert!(err(FindDeclarationArgs {
        regex: true,
        ..dargs("foo(")
    })
    .starts_with("invalid regex"));
    assert_eq!(
        err(FindDeclarationArgs {
            kind: Some("klass".into()),
            ..dargs("x")
        }),
        "kind must be one of file, package, module, function, method, type, interface, field, constant, variable, \
         enum_member, import, doc, stage, script, got \"klass\""
    );
    assert_eq!(
        err(FindDeclarationArgs {
            limit: Some(0),
            ..dargs("x")
        }),
        "limit must be 1..=1000, got 0"
    );
    assert!(err(FindDeclarationArgs {
        path_prefix: Some("{a".into()),
        ..dargs("x")
    })
    .starts_with("path_prefix is not a valid glob"));
}
