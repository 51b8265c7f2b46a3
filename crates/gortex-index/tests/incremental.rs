//! Property: after any sequence of edits (modify, add, delete, rename), the incrementally
//! updated index equals a clean index of the same tree — through both update paths
//! (`refresh`, which re-walks, and `update_paths`, which is told what changed).

mod common;

use common::edits::*;
use common::*;
use gortex_index::RepoIndex;
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn clean_dump(root: &Path) -> Vec<String> {
    clean_index(root).graph.canonical_dump()
}

fn clean_index(root: &Path) -> RepoIndex {
    let home = tempfile::tempdir().unwrap();
    let mut opts = poly_options(home.path());
    opts.persist = false;
    index(root, &opts).0
}

/// Options for a test repository named `poly` (so its ids compare with [`clean_index`]'s).
fn poly_options(home: &Path) -> gortex_index::IndexOptions {
    let mut opts = options(home);
    opts.name = Some("poly".into());
    opts
}

/// Everything about a graph's layout the canonical dump leaves out: node, edge and unresolved
/// order, the id map, file blocks and every node's adjacency. A patched or moved graph must
/// equal a clean build in these too, or answers would depend on the edit history.
fn layout_dump(graph: &gortex_graph::Graph) -> Vec<String> {
    let id = |n: u32| graph.node_at(n).id.to_string();
    let edge = |e: &gortex_graph::Edge| format!("{} -{}-> {} {} L{}", id(e.from), e.kind, id(e.to), e.origin, e.line);
    let mut out: Vec<String> = graph.edges().map(|e| format!("E {}", edge(e))).collect();
    out.extend(
        graph
            .unresolved()
            .map(|u| format!("U {} {} {} L{}", id(u.from), u.kind, u.target, u.line)),
    );
    out.push(format!(
        "F {:?}",
        graph.files().iter().map(|&f| id(f)).collect::<Vec<_>>()
    ));
    for (i, node) in graph.node_entries() {
        out.push(format!(
            "N {i} {} lookup={:?} block={:?} out={:?} in={:?} unresolved={:?}",
            node.id,
            graph.lookup(&node.id),
            graph.file_nodes(&node.path).iter().map(|&n| id(n)).collect::<Vec<_>>(),
            graph.out_edges(i).map(edge).collect::<Vec<_>>(),
            graph.in_edges(i).map(edge).collect::<Vec<_>>(),
            graph.unresolved_from(i).map(|u| u.target.clone()).collect::<Vec<_>>(),
        ));
    }
    out
}

fn run(edits: &[Edit], use_paths: bool) -> Result<(), TestCaseError> {
    let repo = tempfile::tempdir().unwrap();
    for lang in [
        "ts", "py", "go", "rust", "java", "cfamily", "csharp", "kotlin", "php", "ruby", "polyglot", "lua", "bash",
        "generic", "scala",
    ] {
        copy_tree(&fixtures().join("resolver").join(lang), &repo.path().join(lang));
    }
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    // The first symbol index fills the token cache the later ones reuse.
    live.symbol_index();
    let (mut resolved_total, mut files_total) = (0usize, 0usize);
    for edit in edits {
        // mtime granularity: make sure the walker sees a change even within one clock tick.
        std::thread::sleep(std::time::Duration::from_millis(2));
        let touched = apply(repo.path(), edit);
        let report = if use_paths {
            live.update_paths(&touched, &opts).unwrap()
        } else {
            live.refresh(&opts, &|_| {}, &AtomicBool::new(false)).unwrap()
        };
        // An edit to a config the resolver reads (`go.mod`, `compile_commands.json`, …) changes
        // how every file resolves: re-resolving all of them is right, so it is not counted.
        let config = touched
            .iter()
            .any(|p| gortex_index::CONFIG_FILES.contains(&p.rsplit('/').next().unwrap_or(p)));
        if !config {
            resolved_total += report.files.resolved;
            files_total += report.files.total;
        }
        // The symbol index built from cached tokens equals one built from scratch.
        prop_assert!(
            *live.symbol_index() == gortex_search::SymbolIndex::build(&live.graph),
            "after {edit:?}: the symbol index built with reused tokens differs from a fresh one"
        );
        let clean_graph = clean_index(repo.path()).graph;
        let clean = clean_graph.canonical_dump();
        let incremental = live.graph.canonical_dump();
        if clean != incremental {
            let missing: Vec<&String> = clean.iter().filter(|l| !incremental.contains(l)).take(10).collect();
            let extra: Vec<&String> = incremental.iter().filter(|l| !clean.contains(l)).take(10).collect();
            return Err(TestCaseError::fail(format!(
                "after {edit:?}: missing {missing:#?}\nextra {extra:#?}"
            )));
        }
        let (layout, clean_layout) = (layout_dump(&live.graph), layout_dump(&clean_graph));
        if layout != clean_layout {
            let first = layout.iter().zip(&clean_layout).position(|(a, b)| a != b);
            return Err(TestCaseError::fail(format!(
                "after {edit:?}: the layout differs from a clean build's ({} vs {} lines); first difference:\n{:#?}",
                layout.len(),
                clean_layout.len(),
                first.map(|i| (&layout[i], &clean_layout[i]))
            )));
        }
    }
    // The point of the exercise: updates re-resolve only part of the repository.
    prop_assert!(
        files_total == 0 || resolved_total < files_total,
        "every update re-resolved every file ({resolved_total} of {files_total})"
    );
    // Updates leave the snapshot to the caller; a restart from it equals the live index too.
    live.save_snapshot().unwrap();
    let (reopened, report) = RepoIndex::open(repo.path(), &opts, &|_| {}, &AtomicBool::new(false)).unwrap();
    prop_assert_eq!(report.files.parsed, 0, "reopen re-parsed files: {:?}", report);
    prop_assert_eq!(report.files.resolved, 0, "reopen re-resolved files: {:?}", report);
    prop_assert_eq!(reopened.graph.canonical_dump(), live.graph.canonical_dump());
    Ok(())
}

proptest! {
    // `GORTEX_PROPTEST_CASES=500` for a longer search after a change to the resolver's keys.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("GORTEX_PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(40),
        .. ProptestConfig::default()
    })]

    #[test]
    fn incremental_refresh_equals_clean(edits in proptest::collection::vec(edit_strategy(), 1..8)) {
        run(&edits, false)?;
    }

    #[test]
    fn incremental_update_paths_equals_clean(edits in proptest::collection::vec(edit_strategy(), 1..8)) {
        run(&edits, true)?;
    }
}

/// An edit other files cannot see (moved lines, a changed body) re-resolves only the edited file;
/// a new declaration re-resolves the files that read it too. Both still equal a clean build.
#[test]
fn body_edits_resolve_only_the_edited_file() {
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("resolver").join("ts"), &repo.path().join("ts"));
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let rel = "ts/src/lib/store.ts".to_string();
    let path = repo.path().join(&rel);
    let original = std::fs::read_to_string(&path).unwrap();
    let edit = |text: String, live: &mut RepoIndex| {
        std::fs::write(&path, text).unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        assert_eq!(
            live.graph.canonical_dump(),
            clean_dump(repo.path()),
            "incremental differs from clean"
        );
        report.files.resolved
    };
    let shifted = original.replace(
        "  validate(x: string): string {\n    return x;",
        "\n\n  validate(x: string): string {\n    return x.trim();",
    );
    assert_ne!(shifted, original);
    assert_eq!(edit(shifted, &mut live), 1, "a body edit re-resolved other files");
    let grown = format!("{original}\nexport function openAgain(): Store {{ return openStore(); }}\n");
    assert!(
        edit(grown, &mut live) > 1,
        "a new export did not re-resolve its importers"
    );
}

/// A build keeps the lookup tables of the last one when no file's interface changed. An
/// `impl Trait for T` block changes no declaration but does change the type hierarchy: the
/// tables must be built again, and the result must still equal a clean build.
#[test]
fn a_new_impl_block_rebuilds_the_kept_tables() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join("src")).unwrap();
    std::fs::write(
        repo.path().join("Cargo.toml"),
        "[package]\nname = \"kept\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let decls = "pub struct Store {}\npub trait Named {\n    fn name(&self) {}\n}\npub trait Labeled {\n    fn label(&self) {}\n}\n";
    std::fs::write(repo.path().join("src/lib.rs"), "pub mod store;\npub mod user;\n").unwrap();
    std::fs::write(
        repo.path().join("src/store.rs"),
        format!("{decls}impl Named for Store {{}}\n"),
    )
    .unwrap();
    std::fs::write(
        repo.path().join("src/user.rs"),
        "use crate::store::Store;\npub fn make() -> Store { Store {} }\npub fn show(s: Store) { s.label(); }\n",
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let implements = |live: &RepoIndex| -> Vec<String> {
        live.graph
            .canonical_dump()
            .into_iter()
            .filter(|l| l.starts_with("E ") && l.contains("-implements->"))
            .collect()
    };
    assert_eq!(implements(&live).len(), 1, "{:#?}", live.graph.canonical_dump());
    let rel = "src/store.rs".to_string();
    // A body-only edit first (the tables are kept), then the hierarchy changes.
    for text in [
        format!("{decls}\n\nimpl Named for Store {{}}\n"),
        format!("{decls}impl Labeled for Store {{}}\n"),
        format!("{decls}impl Labeled for Store {{}}\nimpl Named for Store {{}}\n"),
    ] {
        std::fs::write(repo.path().join(&rel), &text).unwrap();
        live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        assert_eq!(live.graph.canonical_dump(), clean_dump(repo.path()), "after:\n{text}");
    }
    let edges = implements(&live);
    assert_eq!(edges.len(), 2, "{edges:#?}");
    assert!(edges.iter().any(|l| l.contains("::Labeled")), "{edges:#?}");
    // The call through the new supertype is bound by the hierarchy, not by name alone.
    let dump = live.graph.canonical_dump();
    assert!(
        dump.iter()
            .any(|l| l.contains("user.rs::show -calls-> poly/src/store.rs::Labeled.label ast_")),
        "{dump:#?}"
    );
    // A file with no inheritance clause gains one, then loses it again: the patched tables
    // derive the hierarchy from the files that state one, so that list must follow.
    let rel = "src/user.rs".to_string();
    let user = std::fs::read_to_string(repo.path().join(&rel)).unwrap();
    for (text, count) in [
        (
            format!("{user}pub struct Guest {{}}\nimpl crate::store::Named for Guest {{}}\n"),
            3,
        ),
        (format!("{user}pub struct Guest {{}}\n"), 2),
    ] {
        std::fs::write(repo.path().join(&rel), &text).unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        assert_eq!(report.lookup_tables, "patched", "after:\n{text}");
        assert_eq!(live.graph.canonical_dump(), clean_dump(repo.path()), "after:\n{text}");
        assert_eq!(implements(&live).len(), count, "{:#?}", implements(&live));
    }
}

/// A declaration added to or removed from a file in the middle of the order moves every node
/// after it: the previous graph is renumbered and patched (`shifted`) rather than assembled, a
/// body edit patches it in place (`patched`), and each equals a clean build, layout included.
#[test]
fn a_grown_or_shrunk_file_shifts_the_previous_graph() {
    let repo = tempfile::tempdir().unwrap();
    for lang in ["go", "ts"] {
        copy_tree(&fixtures().join("resolver").join(lang), &repo.path().join(lang));
    }
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let rel = "go/store/close.go".to_string();
    let path = repo.path().join(&rel);
    let original = std::fs::read_to_string(&path).unwrap();
    let mut edit = |text: String| -> (String, String) {
        std::fs::write(&path, text).unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        let clean = clean_index(repo.path()).graph;
        assert_eq!(
            live.graph.canonical_dump(),
            clean.canonical_dump(),
            "incremental differs from clean"
        );
        assert_eq!(
            layout_dump(&live.graph),
            layout_dump(&clean),
            "the layout differs from a clean build's"
        );
        (report.graph_layout, report.lookup_tables)
    };
    let grown = format!("{original}\nfunc Reopen(s *Store) *Store {{ s.Close(); return Open() }}\n");
    // The first edit after opening builds the lookup tables; later ones keep or patch them.
    assert_eq!(
        edit(grown.clone()),
        ("shifted".into(), "built".into()),
        "an appended function"
    );
    let body = grown.replace("s.Close(); return Open()", "s.Close()\n\treturn Open()");
    assert_eq!(edit(body), ("patched".into(), "kept".into()), "a body edit");
    assert_eq!(
        edit(original),
        ("shifted".into(), "patched".into()),
        "a removed function"
    );
}

/// An index opened for editing (`keep_build_caches`, what a watched repository asks) builds its
/// lookup tables again after the opening pass, which frees its own: the first edit keeps them
/// (a body edit) instead of building them. Opened without it, the first edit builds them.
/// A file that leaves its package (its namespace cut off mid-edit) and joins it again keeps the
/// package node where it is; the package's `contains` edge follows the file. Found by the fuzz
/// test: the patched graph kept the edge of a file no longer in the package.
#[test]
fn a_file_leaving_and_joining_its_package_moves_the_package_edge() {
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("resolver").join("csharp"), &repo.path().join("csharp"));
    let rel = "csharp/src/Store/MemoryStore.cs".to_string();
    let path = repo.path().join(&rel);
    let original = std::fs::read_to_string(&path).unwrap();
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let edge = "E poly/csharp/src/Store::Acme.Store -contains-> poly/csharp/src/Store/MemoryStore.cs ast_resolved L0";
    assert!(live.graph.canonical_dump().iter().any(|l| l == edge));
    for (text, member, layout) in [
        // The block shrinks (the symbols are gone): renumbered, then patched.
        ("using System.Collections.Generic;\n\nnamesp", false, "shifted"),
        (original.as_str(), true, "shifted"),
        // The declarations kept, the namespace (a symbol too) gone.
        (&original.replacen("namespace Acme.Store\n{", "{", 1), false, "shifted"),
    ] {
        std::thread::sleep(std::time::Duration::from_millis(2));
        std::fs::write(&path, text).unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        assert_eq!(report.graph_layout, layout, "{text:.60}");
        let dump = live.graph.canonical_dump();
        assert_eq!(dump.iter().any(|l| l == edge), member, "{text:.60}");
        let clean = clean_index(repo.path()).graph;
        assert_eq!(dump, clean.canonical_dump(), "{text:.60}");
        assert_eq!(layout_dump(&live.graph), layout_dump(&clean), "{text:.60}");
    }
}

#[test]
fn an_index_opened_for_editing_has_its_tables_ready() {
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("resolver").join("go"), &repo.path().join("go"));
    let rel = "go/store/close.go".to_string();
    let path = repo.path().join(&rel);
    let original = std::fs::read_to_string(&path).unwrap();
    for keep in [true, false] {
        let home = tempfile::tempdir().unwrap();
        let mut opts = poly_options(home.path());
        opts.keep_build_caches = keep;
        let (mut live, opened) = index(repo.path(), &opts);
        assert_eq!(opened.phases_ms.contains_key("resolve.keep_tables"), keep);
        std::fs::write(&path, original.replace("s.db.Query()", "// closing\n\ts.db.Query()")).unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        std::fs::write(&path, &original).unwrap();
        assert_eq!(report.lookup_tables, if keep { "kept" } else { "built" });
        // Kept either way after an edit (the next one is likely).
        assert!(live.release_build_caches());
    }
}

/// A repository indexed cold for editing is read back from the snapshot it just wrote (its
/// per-file data then lies in path order, as after a warm open): the graph, its layout and the
/// links between the graph's file facts and the index's records are those of the pass, and the
/// first edit patches the tables kept for it and equals a clean build. Not for a repository that
/// will not be edited, nor without a snapshot.
#[test]
fn a_cold_index_opened_for_editing_is_read_back_from_its_snapshot() {
    let repo = tempfile::tempdir().unwrap();
    for lang in ["go", "ts"] {
        copy_tree(&fixtures().join("resolver").join(lang), &repo.path().join(lang));
    }
    for (keep, persist) in [(true, true), (false, true), (true, false)] {
        let home = tempfile::tempdir().unwrap();
        let mut opts = poly_options(home.path());
        opts.keep_build_caches = keep;
        opts.persist = persist;
        let (mut live, opened) = index(repo.path(), &opts);
        assert_eq!(opened.mode, "cold");
        assert_eq!(
            opened.phases_ms.contains_key("relayout"),
            keep && persist,
            "keep {keep} persist {persist}"
        );
        assert_eq!(opened.files.parsed, live.files.len(), "the report is the cold pass's");
        let clean = clean_index(repo.path()).graph;
        assert_eq!(live.graph.canonical_dump(), clean.canonical_dump());
        assert_eq!(layout_dump(&live.graph), layout_dump(&clean));
        // Unchanged files are told by their facts' identity: the graph must hold the records' own.
        let facts = live.graph.file_facts();
        assert_eq!(facts.len(), live.files.len());
        assert!(facts.iter().zip(&live.files).all(|(g, r)| Arc::ptr_eq(g, &r.facts)));
        let rel = "go/store/close.go".to_string();
        let path = repo.path().join(&rel);
        let original = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            format!("{original}\nfunc Reopen(s *Store) *Store {{ return s }}\n"),
        )
        .unwrap();
        let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
        let clean = clean_index(repo.path()).graph;
        std::fs::write(&path, &original).unwrap();
        assert_eq!(report.graph_layout, "shifted");
        assert_eq!(report.lookup_tables, if keep { "patched" } else { "built" });
        assert_eq!(live.graph.canonical_dump(), clean.canonical_dump());
        assert_eq!(layout_dump(&live.graph), layout_dump(&clean));
    }
}

/// TypeScript namespaces merge across files (the compiler's own `namespace ts` spans most of its
/// sources). A member lookup that scanned a block without finding the member depends on the
/// member's name, not on the block's file: a declaration added to the first block does not redo
/// every reader of the namespace; a member that appears there still rebinds its readers, and one
/// that moves into the namespace from a nested one is bound through it (each step equals a clean
/// build).
#[test]
fn a_namespace_member_added_redoes_only_its_readers() {
    let repo = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(repo.path(), rel, text);
    let first = "namespace ts {\n    export namespace inner {\n        export function delta(): void {}\n    }\n    export function alpha(): void {}\n}\n";
    write("src/a.ts", first);
    write("src/b.ts", "namespace ts {\n    export function beta(): void {}\n}\n");
    for i in 0..8 {
        write(
            &format!("src/r{i}.ts"),
            &format!("namespace ts {{\n    export function reader{i}(): void {{ beta(); }}\n}}\n"),
        );
    }
    // `delta` is nested in two namespaces, so not bound at all (not even by name alone).
    write(
        "src/d.ts",
        "namespace ts {\n    export function user(): void { delta(); }\n}\n",
    );
    write(
        "src/e.ts",
        "namespace other {\n    export function delta(): void {}\n}\n",
    );
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let mut edit = |text: &str| -> usize {
        write("src/a.ts", text);
        let report = live.update_paths(&["src/a.ts".to_string()], &opts).unwrap();
        assert_eq!(
            live.graph.canonical_dump(),
            clean_dump(repo.path()),
            "after:\n{text}\nincremental differs from clean"
        );
        report.files.resolved
    };
    let calls = |dump: &[String], to: &str| dump.iter().filter(|l| l.contains("-calls->") && l.contains(to)).count();
    assert_eq!(calls(&clean_dump(repo.path()), "src/b.ts::ts.beta"), 8);
    // Every reader scanned a.ts's block for `beta` and missed: an unrelated new member there
    // redoes a.ts alone.
    let grown = first.replace(
        "export function alpha(): void {}",
        "export function alpha(): void {}\n    export function epsilon(): void {}",
    );
    assert_eq!(edit(&grown), 1, "an unrelated member redid the namespace's readers");
    // `beta` declared in the first block: the readers now bind there.
    let shadowing = grown.replace("export function epsilon(): void {}", "export function beta(): void {}");
    assert!(edit(&shadowing) > 8);
    let dump = clean_dump(repo.path());
    assert_eq!(calls(&dump, "src/a.ts::ts.beta"), 8, "{dump:#?}");
    // `delta` moves out of `inner` into `ts` itself: no name appears, but its reader binds it now.
    let moved = shadowing.replace(
        "export namespace inner {\n        export function delta(): void {}\n    }",
        "export namespace inner {}\n    export function delta(): void {}",
    );
    assert!(edit(&moved) >= 2, "the reader of a member that moved in was not redone");
    let dump = clean_dump(repo.path());
    assert!(
        dump.iter()
            .any(|l| l.contains("d.ts::ts.user -calls-> poly/src/a.ts::ts.delta ast_resolved")),
        "{dump:#?}"
    );
}

/// A declaration added after a file's last one (a new function at the end of TypeScript's
/// `namespace ts` block) leaves every symbol other files found there at its index: the readers
/// of other names are not redone; a reader of the new name, a name declared twice, or symbols
/// that moved still are (each step equals a clean build).
#[test]
fn declarations_appended_redo_only_the_readers_of_their_names() {
    let repo = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(repo.path(), rel, text);
    let lib = |members: &str| format!("namespace ts {{\n    export function alpha(): void {{}}\n{members}}}\n");
    write("src/lib.ts", &lib(""));
    for i in 0..8 {
        write(
            &format!("src/r{i}.ts"),
            &format!("namespace ts {{\n    export function reader{i}(): void {{ alpha(); }}\n}}\n"),
        );
    }
    write(
        "src/wait.ts",
        "namespace ts {\n    export function waiter(): void { gamma(); }\n}\n",
    );
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let mut edit = |text: &str| -> usize {
        write("src/lib.ts", text);
        let report = live.update_paths(&["src/lib.ts".to_string()], &opts).unwrap();
        assert_eq!(
            live.graph.canonical_dump(),
            clean_dump(repo.path()),
            "after:\n{text}\nincremental differs from clean"
        );
        report.files.resolved
    };
    let calls = |to: &str| {
        clean_dump(repo.path())
            .iter()
            .filter(|l| l.contains("-calls->") && l.contains(to))
            .count()
    };
    assert_eq!(calls("src/lib.ts::ts.alpha"), 8);
    // A new member nobody calls: lib.ts alone (before: every reader of `alpha`, by its file).
    let grown = lib("    export function unrelated(): void {}\n");
    assert_eq!(
        edit(&grown),
        1,
        "an appended declaration redid the readers of other names"
    );
    // The name a reader was missing: that reader binds to it.
    let awaited = lib("    export function unrelated(): void {}\n    export function gamma(): void {}\n");
    assert_eq!(edit(&awaited), 2);
    assert_eq!(calls("src/lib.ts::ts.gamma"), 1);
    // A second `alpha` after the first: its readers are redone (the graph says which they bind).
    let twice = format!("{awaited}namespace ts {{\n    export function alpha(): void {{}}\n}}\n");
    assert!(edit(&twice) > 8);
    // A member inserted before `alpha` moves it to another index: every reader is redone.
    let moved = twice.replacen(
        "namespace ts {\n",
        "namespace ts {\n    export function zero(): void {}\n",
        1,
    );
    assert!(edit(&moved) > 8);
    assert_eq!(calls("src/lib.ts::ts.alpha"), 8);
}

/// A lookup that found nothing in a file depends on that file only through the name it asked
/// for, or through the imports it scanned for a re-export: a reader is redone when the name
/// appears there first or when a re-export of it is added, and not for other declarations.
#[test]
fn lookups_that_missed_are_redone_when_the_name_appears() {
    let repo = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(repo.path(), rel, text);
    write("go.mod", "module example.com/m\n\ngo 1.20\n");
    write("pkg/a.go", "package pkg\n\nfunc A() {}\n");
    write("pkg/b.go", "package pkg\n\nfunc Foo() {}\n");
    write(
        "main.go",
        "package main\n\nimport \"example.com/m/pkg\"\n\nfunc main() { pkg.Foo() }\n",
    );
    write("web/y.ts", "export function Y(): void {}\n");
    write("web/z.ts", "export function Z(): void {}\n");
    write("web/index.ts", "export { Z } from './z';\n");
    write(
        "web/main.ts",
        "import { Y } from './index';\n\nexport function run(): void { Y(); }\n",
    );
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let edit = |live: &mut RepoIndex, rel: &str, text: &str| -> usize {
        write(rel, text);
        let report = live.update_paths(&[rel.to_string()], &opts).unwrap();
        assert_eq!(
            live.graph.canonical_dump(),
            clean_dump(repo.path()),
            "after editing {rel}: incremental differs from clean"
        );
        report.files.resolved
    };
    let calls = |live: &RepoIndex, from: &str| -> Vec<String> {
        live.graph
            .canonical_dump()
            .into_iter()
            .filter(|l| l.starts_with(&format!("E {from}")) && l.contains("-calls->"))
            .collect()
    };
    // `pkg.Foo` missed in a.go before b.go had it; a.go declaring Foo first changes the binding.
    assert!(calls(&live, "poly/main.go::main")[0].contains("pkg/b.go::Foo"));
    edit(&mut live, "pkg/a.go", "package pkg\n\nfunc A() {}\n\nfunc Foo() {}\n");
    assert!(calls(&live, "poly/main.go::main")[0].contains("pkg/a.go::Foo"));
    // A declaration nobody asked for redoes the package's own files, not the importer.
    let resolved = edit(
        &mut live,
        "pkg/b.go",
        "package pkg\n\nfunc Foo() {}\n\nfunc Unused() {}\n",
    );
    assert!(
        resolved <= 2,
        "{resolved} files resolved again for an unused declaration"
    );
    // `Y` is not re-exported by index.ts (bound by name only) until it is (bound by import).
    let bound = |live: &RepoIndex| calls(live, "poly/web/main.ts::run").join("\n");
    assert!(bound(&live).contains("web/y.ts::Y"), "{}", bound(&live));
    assert!(!bound(&live).contains("ast_resolved"), "{}", bound(&live));
    edit(
        &mut live,
        "web/index.ts",
        "export { Z } from './z';\nexport { Y } from './y';\n",
    );
    assert!(bound(&live).contains("ast_resolved"), "{}", bound(&live));
}

/// Many files growing at once (a formatter, a codegen run) take the shift's one-pass rebuild of
/// the node list rather than one splice per file: the same layout as a clean build either way.
#[test]
fn many_files_grown_at_once_shift_in_one_pass() {
    let repo = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..8).map(|i| format!("src/m{i}.ts")).collect();
    for (i, rel) in names.iter().enumerate() {
        let path = repo.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let next = (i + 1) % names.len();
        std::fs::write(
            path,
            format!("import {{ f{next} }} from './m{next}';\n\nexport function f{i}(): void {{ f{next}(); }}\n"),
        )
        .unwrap();
    }
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    for round in 0..2 {
        for (i, rel) in names.iter().enumerate() {
            let next = (i + 1) % names.len();
            let mut text =
                format!("import {{ f{next} }} from './m{next}';\n\nexport function f{i}(): void {{ f{next}(); }}\n");
            if round == 0 {
                text.push_str(&format!("\nexport function g{i}(): void {{ f{i}(); }}\n"));
            }
            std::fs::write(repo.path().join(rel), text).unwrap();
        }
        let report = live.update_paths(&names, &opts).unwrap();
        assert_eq!(report.graph_layout, "shifted", "round {round}");
        let clean = clean_index(repo.path()).graph;
        assert_eq!(live.graph.canonical_dump(), clean.canonical_dump(), "round {round}");
        assert_eq!(layout_dump(&live.graph), layout_dump(&clean), "round {round}");
    }
}

/// The symbol index copies a file's per-symbol metadata (kind, language, test and export flags)
/// from its last build only while the file's facts are the same: a symbol that stops being
/// exported, a file that becomes a test file, a declaration appended are read again, and every
/// index equals a fresh one.
#[test]
fn symbol_metadata_is_read_again_for_changed_files_only() {
    let repo = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| write_file(repo.path(), rel, text);
    write("src/a.ts", "export function alpha(): void {}\n");
    write("src/b.ts", "export function beta(): void { alpha(); }\n");
    write("src/c.py", "def gamma():\n    return 1\n");
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    live.symbol_index();
    let mut step = |rel: &str, text: Option<&str>, touched: &[&str]| {
        match text {
            Some(text) => write(rel, text),
            None => std::fs::remove_file(repo.path().join(rel)).unwrap(),
        }
        let touched: Vec<String> = touched.iter().map(|p| p.to_string()).collect();
        live.update_paths(&touched, &opts).unwrap();
        let fresh = gortex_search::SymbolIndex::build(&live.graph);
        assert!(
            *live.symbol_index() == fresh,
            "after writing {rel}: differs from a fresh build"
        );
    };
    step("src/a.ts", Some("function alpha(): void {}\n"), &["src/a.ts"]);
    step(
        "src/a.ts",
        Some("function alpha(): void {}\nexport class Later {}\n"),
        &["src/a.ts"],
    );
    step(
        "src/c.test.py",
        Some("def gamma():\n    return 1\n"),
        &["src/c.test.py"],
    );
    step("src/c.py", None, &["src/c.py"]);
    step("src/b.ts", Some("export function beta(): void {}\n"), &["src/b.ts"]);
}

/// An edit no extractor sees (a comment after the last declaration) gives the graph a new
/// version without building it — through both update paths — and text searches see the new
/// text; the graph still equals a clean build's, in layout too.
#[test]
fn an_edit_no_extractor_sees_carries_the_graph_over() {
    let repo = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("resolver").join("ts"), &repo.path().join("ts"));
    let home = tempfile::tempdir().unwrap();
    let opts = poly_options(home.path());
    let (mut live, _) = index(repo.path(), &opts);
    let grep = |live: &RepoIndex, q: &str| -> usize {
        live.query("search_text", serde_json::json!({ "query": q })).unwrap()["hits"]
            .as_array()
            .unwrap()
            .len()
    };
    let rel = "ts/src/lib/store.ts".to_string();
    let path = repo.path().join(&rel);
    for (round, word) in ["zebracorn", "quaggaroo"].into_iter().enumerate() {
        assert_eq!(grep(&live, word), 0);
        // Weak, as the caches hold it: a strong holder makes the update build a new graph.
        let before = Arc::downgrade(&live.graph);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n// {word}\n")).unwrap();
        let report = if round == 0 {
            live.update_paths(std::slice::from_ref(&rel), &opts).unwrap()
        } else {
            std::thread::sleep(std::time::Duration::from_millis(5));
            live.refresh(&opts, &|_| {}, &AtomicBool::new(false)).unwrap()
        };
        assert_eq!(report.graph_layout, "carried", "round {round}: {report:?}");
        assert_eq!(report.files.resolved, 0, "round {round}");
        assert!(
            before.upgrade().is_none_or(|g| !Arc::ptr_eq(&g, &live.graph)),
            "round {round}: the graph kept its version"
        );
        assert_eq!(grep(&live, word), 1, "round {round}: search_text missed the new text");
        let clean = clean_index(repo.path()).graph;
        assert_eq!(live.graph.canonical_dump(), clean.canonical_dump(), "round {round}");
        assert_eq!(layout_dump(&live.graph), layout_dump(&clean), "round {round}");
    }
    // A real edit after carried versions is still incremental and still equals a clean build.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        format!("{text}\nexport function carriedThen(): void {{ helper(); }}\n"),
    )
    .unwrap();
    let report = live.update_paths(std::slice::from_ref(&rel), &opts).unwrap();
    assert_ne!(report.graph_layout, "carried");
    assert!(report.files.resolved < report.files.total);
    assert_eq!(live.graph.canonical_dump(), clean_dump(repo.path()));
}
