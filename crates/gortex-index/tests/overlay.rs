//! Property: an overlay view of a base index answers exactly as a clean index of the base tree
//! with the overlay's buffers written — for random edit sets on the fixture repositories — and
//! the base index never changes.

mod common;

use common::edits::*;
use common::*;
use gortex_core::OverlayFiles;
use gortex_index::RepoIndex;
use proptest::prelude::*;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

const LANGUAGES: [&str; 8] = ["ts", "py", "go", "rust", "java", "cfamily", "polyglot", "generic"];

fn fixture_tree(root: &Path) {
    for lang in LANGUAGES {
        copy_tree(&fixtures().join("resolver").join(lang), &root.join(lang));
    }
}

fn poly(home: &Path) -> gortex_index::IndexOptions {
    let mut opts = options(home);
    opts.name = Some("poly".into());
    opts.persist = false;
    opts
}

/// The buffers that turn tree `base` into tree `edited`: changed and new files with their
/// content, deleted files as `None`.
fn overlay_between(base: &Path, edited: &Path) -> OverlayFiles {
    let (before, after) = (source_files(base), source_files(edited));
    let mut files = OverlayFiles::new();
    for rel in &after {
        let now = std::fs::read(edited.join(rel)).unwrap();
        if std::fs::read(base.join(rel)).ok().as_deref() != Some(&now[..]) {
            files.insert(rel.clone(), Some(Arc::from(now)));
        }
    }
    for rel in before.iter().filter(|r| !after.contains(r)) {
        files.insert(rel.clone(), None);
    }
    files
}

fn differences(a: &[String], b: &[String]) -> String {
    let missing: Vec<&String> = b.iter().filter(|l| !a.contains(l)).take(8).collect();
    let extra: Vec<&String> = a.iter().filter(|l| !b.contains(l)).take(8).collect();
    format!("missing {missing:#?}\nextra {extra:#?}")
}

fn run(edits: &[Edit], more: &[Edit], revert: usize) -> Result<(), TestCaseError> {
    let (base_dir, edited_dir, home) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    fixture_tree(base_dir.path());
    fixture_tree(edited_dir.path());
    let opts = poly(home.path());
    let (base, _) = index(base_dir.path(), &opts);
    let base_before = base.graph.canonical_dump();
    for edit in edits {
        apply(edited_dir.path(), edit);
    }
    let overlay = overlay_between(base_dir.path(), edited_dir.path());
    let (view, build) = base.overlay_view(&overlay).unwrap();
    let (clean, _) = index(edited_dir.path(), &opts);
    let (got, want) = (view.graph.canonical_dump(), clean.graph.canonical_dump());
    prop_assert!(
        got == want,
        "after {edits:?} ({} overlaid): {}",
        overlay.len(),
        differences(&got, &want)
    );
    prop_assert_eq!(build.nodes, clean.graph.node_count());
    // Views are layers over the base's graph; only a configuration change (every file resolved
    // again) makes a flat one.
    let flat_ok = |why: &Option<String>| {
        why.as_deref()
            .is_none_or(|w| w.contains("configuration") || w.contains("earlier change"))
    };
    prop_assert!(
        flat_ok(&build.flat_because)
            && (build.graph_layout == "layered" || build.flat_because.is_some() || build.graph_layout.is_empty()),
        "{} {:?}",
        build.graph_layout,
        build.flat_because
    );
    prop_assert!(base.graph.canonical_dump() == base_before, "the base changed");
    let mut view = view;
    // A live view brought to more edits (and to some files reverted to the base's) equals a clean
    // index of that tree too.
    for edit in more {
        apply(edited_dir.path(), edit);
    }
    let base_files = source_files(base_dir.path());
    let restored = &base_files[revert % base_files.len()];
    std::fs::create_dir_all(edited_dir.path().join(restored).parent().unwrap()).unwrap();
    std::fs::copy(base_dir.path().join(restored), edited_dir.path().join(restored)).unwrap();
    let overlay = overlay_between(base_dir.path(), edited_dir.path());
    let update = view.overlay_update(&base, &overlay).unwrap();
    let (clean, _) = index(edited_dir.path(), &opts);
    prop_assert!(flat_ok(&update.flat_because), "{:?}", update.flat_because);
    let (got, want) = (view.graph.canonical_dump(), clean.graph.canonical_dump());
    prop_assert!(
        got == want,
        "after {edits:?} then {more:?} ({} overlaid, {}): {}",
        overlay.len(),
        update.graph_layout,
        differences(&got, &want)
    );
    prop_assert!(base.graph.canonical_dump() == base_before, "the base changed");
    // Queries answer alike too (ids, lines and text come from the buffers), traversals of a
    // layered view's graph included (in-edges from the base and the layer, names, file blocks).
    let mut sampled: Vec<&str> = clean
        .graph
        .nodes()
        .filter(|n| n.kind.is_callable() && !n.external)
        .map(|n| &*n.id)
        .collect();
    sampled.sort_unstable();
    let step = sampled.len() / 12 + 1;
    let mut calls: Vec<(&str, serde_json::Value)> = Vec::new();
    for id in sampled.iter().step_by(step) {
        calls.push(("get_callers", json!({ "id": id })));
        calls.push(("get_callees", json!({ "id": id })));
        calls.push(("find_usages", json!({ "id": id })));
    }
    for (tool, args) in calls {
        let (v, c) = (view.query(tool, args.clone()), clean.query(tool, args.clone()));
        prop_assert_eq!(v.is_ok(), c.is_ok(), "{} {}", tool, args);
        if let (Ok(mut v), Ok(mut c)) = (v, c) {
            strip_timings(&mut v);
            strip_timings(&mut c);
            prop_assert_eq!(v, c, "{} {} after {:?} then {:?}", tool, args, edits, more);
        }
    }
    for (tool, args) in [
        ("search_symbols", json!({ "query": "open", "limit": 50 })),
        ("search_text", json!({ "query": "helper", "limit": 200 })),
        ("find_dead_code", json!({})),
        ("graph_stats", json!({})),
        ("get_file_summary", json!({ "path": "go/main.go" })),
    ] {
        let (v, c) = (view.query(tool, args.clone()), clean.query(tool, args.clone()));
        prop_assert_eq!(v.is_ok(), c.is_ok(), "{} {}", tool, args);
        if let (Ok(mut v), Ok(mut c)) = (v, c) {
            strip_timings(&mut v);
            strip_timings(&mut c);
            prop_assert_eq!(v, c, "{} {} after {:?}", tool, args, edits);
        }
    }
    Ok(())
}

/// Drops fields that measure the run rather than the answer.
fn strip_timings(v: &mut serde_json::Value) {
    if let Some(o) = v.as_object_mut() {
        o.retain(|k, _| !k.ends_with("_ms") && k != "stats");
        for child in o.values_mut() {
            strip_timings(child);
        }
    } else if let Some(a) = v.as_array_mut() {
        a.iter_mut().for_each(strip_timings);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("GORTEX_PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24),
        .. ProptestConfig::default()
    })]

    #[test]
    fn an_overlay_view_equals_a_clean_index_of_the_edited_tree(
        edits in proptest::collection::vec(edit_strategy(), 1..6),
        more in proptest::collection::vec(edit_strategy(), 0..4),
        revert in 0usize..64,
    ) {
        run(&edits, &more, revert)?;
    }
}

/// A view reads overlaid sources from its buffers, refuses paths outside the repository, says
/// what it does not index, and leaves the base's answers as they were.
#[test]
fn a_view_answers_from_its_buffers_and_the_base_stays() {
    let (dir, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_file(
        dir.path(),
        "src/a.ts",
        "export function alpha(): number { return 1; }\n",
    );
    write_file(
        dir.path(),
        "src/b.ts",
        "import { alpha } from './a';\nexport function beta() { return alpha(); }\n",
    );
    write_file(dir.path(), ".gitignore", "ignored/\n");
    let (base, _) = index(dir.path(), &options(home.path()));
    let callers = |idx: &RepoIndex| idx.query("get_callers", json!({ "id": "src/a.ts::alpha" }));
    let base_callers = callers(&base).unwrap();
    assert!(base_callers.to_string().contains("beta"), "{base_callers}");

    let mut overlay = OverlayFiles::new();
    overlay.insert(
        "src/b.ts".into(),
        Some(Arc::from(&b"import { alpha } from './a';\nexport function gamma() { return alpha(); }\nexport const marker = 'unsaved-buffer';\n"[..])),
    );
    overlay.insert(
        "src/c.ts".into(),
        Some(Arc::from(&b"export function delta() { return 2; }\n"[..])),
    );
    overlay.insert(
        "ignored/x.ts".into(),
        Some(Arc::from(&b"export function hidden() {}\n"[..])),
    );
    overlay.insert("notes.bin".into(), Some(Arc::from(&b"\0\0binary"[..])));
    let (view, build) = base.overlay_view(&overlay).unwrap();
    assert_eq!(build.replaced, ["src/b.ts"]);
    assert!(build.added.contains(&"src/c.ts".to_string()));
    let reasons: Vec<(&str, &str)> = build
        .not_indexed
        .iter()
        .map(|n| (n.path.as_str(), n.reason.as_str()))
        .collect();
    assert!(reasons.contains(&("ignored/x.ts", "ignored")), "{reasons:?}");
    assert!(reasons.contains(&("notes.bin", "unsupported")), "{reasons:?}");

    let view_callers = callers(&view).unwrap().to_string();
    assert!(
        view_callers.contains("gamma") && !view_callers.contains("beta"),
        "{view_callers}"
    );
    assert!(view.query("get_symbol", json!({ "id": "src/c.ts::delta" })).is_ok());
    let text = view.query("search_text", json!({ "query": "unsaved-buffer" })).unwrap();
    assert!(text.to_string().contains("src/b.ts"), "{text}");
    // The base never saw any of it.
    assert_eq!(callers(&base).unwrap(), base_callers);
    let base_text = base.query("search_text", json!({ "query": "unsaved-buffer" })).unwrap();
    assert!(!base_text.to_string().contains("src/b.ts"), "{base_text}");
    assert!(base.query("get_symbol", json!({ "id": "src/c.ts::delta" })).is_err());

    // A deleted file leaves the view; a path outside the repository is refused.
    let mut gone = OverlayFiles::new();
    gone.insert("src/a.ts".into(), None);
    let (view, build) = base.overlay_view(&gone).unwrap();
    assert_eq!(build.deleted, ["src/a.ts"]);
    assert!(view.query("get_symbol", json!({ "id": "src/a.ts::alpha" })).is_err());
    let mut outside = OverlayFiles::new();
    outside.insert("../escape.ts".into(), Some(Arc::from(&b"x"[..])));
    assert!(base.overlay_view(&outside).is_err());
}
