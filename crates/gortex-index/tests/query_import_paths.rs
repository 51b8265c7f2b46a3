//! find_import_path (the import chain between two files, or the diagnosis of why there is none)
//! on `test/fixtures/query/paths-ts` and the Go resolver fixture (see their READMEs for the
//! shapes they hold). Results are pinned exactly; the statement mode (`symbol`) is in
//! `import_for.rs`.

mod common;

use common::{fixtures, index, options, paths_ts_graph as graph, refused as invalid};
use gortex_core::{EdgeKind, QueryError};
use gortex_graph::query::paths::{
    find_import_path, FindImportPathArgs, FindImportPathResult, ImportHop, UnresolvedImport,
};

/// A node id of the paths-ts fixture.
fn id(rest: &str) -> String {
    format!("paths-ts/src/{rest}")
}

fn imports(from: &str, to: &str, max_depth: Option<u64>) -> Result<FindImportPathResult, QueryError> {
    find_import_path(
        &graph(),
        &FindImportPathArgs {
            from: from.into(),
            to: Some(to.into()),
            symbol: None,
            max_depth,
        },
    )
}

fn hop(from: &str, to: &str, kind: EdgeKind, line: u32) -> ImportHop {
    ImportHop {
        from: format!("src/{from}"),
        to: format!("src/{to}"),
        kind,
        line,
    }
}

#[test]
fn import_chain_goes_through_the_barrel() {
    let r = imports("src/main.ts", "src/dyn.ts", None).unwrap();
    assert_eq!((r.from.as_str(), r.to.as_str()), ("src/main.ts", "src/dyn.ts"));
    assert_eq!(
        r.path,
        vec![
            "src/main.ts",
            "src/index.ts",
            "src/a.ts",
            "src/b.ts",
            "src/c.ts",
            "src/d.ts",
            "src/dyn.ts"
        ]
    );
    use EdgeKind::{Imports, ReExports};
    assert_eq!(
        r.hops,
        vec![
            hop("main.ts", "index.ts", Imports, 1),
            hop("index.ts", "a.ts", ReExports, 1),
            hop("a.ts", "b.ts", Imports, 1),
            hop("b.ts", "c.ts", Imports, 1),
            hop("c.ts", "d.ts", Imports, 1),
            hop("d.ts", "dyn.ts", Imports, 1),
        ]
    );
    assert!(r.diagnosis.is_none());
}

#[test]
fn import_endpoints_may_be_file_ids_symbol_ids_or_relative_paths() {
    let r = imports(&id("main.ts::run"), &id("d.ts::sink"), None).unwrap();
    assert_eq!(r.path.len(), 6);
    assert_eq!(r.path.last().unwrap(), "src/d.ts");
    let r = imports(&id("loop1.ts"), "./src/loop2.ts", None).unwrap();
    assert_eq!(r.hops, vec![hop("loop1.ts", "loop2.ts", EdgeKind::Imports, 1)]);
    let back = imports("src/loop2.ts", "src/loop1.ts", None).unwrap();
    assert_eq!(back.hops, vec![hop("loop2.ts", "loop1.ts", EdgeKind::Imports, 1)]);
    let r = imports("src/hooks.ts", "src/loop1.ts", None).unwrap();
    assert_eq!(r.path, vec!["src/hooks.ts", "src/loop2.ts", "src/loop1.ts"]);
    let r = imports("src/c.ts", "src/loop1.ts", None).unwrap();
    assert_eq!(r.hops, vec![hop("c.ts", "loop1.ts", EdgeKind::Imports, 2)]);
}

#[test]
fn import_diagnosis_for_a_file_nobody_imports() {
    let r = imports("src/main.ts", "src/island.ts", None).unwrap();
    assert!(r.path.is_empty() && r.hops.is_empty());
    let d = r.diagnosis.unwrap();
    assert_eq!((d.from_imports, d.to_importers, d.reachable), (1, 0, 9));
    assert!(!d.depth_limited);
    assert_eq!(d.reverse_hops, None);
    assert!(d.unresolved_imports.is_empty());
    assert_eq!(
        d.message,
        "No import chain from src/main.ts to src/island.ts within 8 hops. No repository file imports \
         src/island.ts. 9 file(s) are reachable from src/main.ts."
    );

    let broken = imports("src/broken.ts", "src/island.ts", None)
        .unwrap()
        .diagnosis
        .unwrap();
    assert_eq!(
        broken.unresolved_imports,
        vec![UnresolvedImport {
            file: "src/broken.ts".into(),
            module: "./lib/island".into(),
            line: 1,
        }]
    );
    assert_eq!(broken.from_imports, 0);
    assert!(broken.message.contains("src/broken.ts imports no repository file."));
    assert!(broken.message.ends_with(
        "1 unresolved import(s) in reachable files look like src/island.ts: the chain may exist but be missing."
    ));
}

#[test]
fn import_diagnosis_reports_the_reverse_chain_and_the_depth_limit() {
    let d = imports("src/d.ts", "src/a.ts", None).unwrap().diagnosis.unwrap();
    assert_eq!(d.reverse_hops, Some(3));
    // index.ts re-exports it and the test imports it; main.ts only reaches it through the barrel.
    assert_eq!(d.to_importers, 2);
    assert_eq!(d.from_imports, 2);
    assert_eq!(d.reachable, 2);

    let d = imports("src/main.ts", "src/dyn.ts", Some(2))
        .unwrap()
        .diagnosis
        .unwrap();
    assert!(d.depth_limited);
    assert_eq!(d.reachable, 2);
    assert!(d.message.contains("within 2 hops"));
}

#[test]
fn import_path_rejects_bad_input() {
    assert_eq!(
        invalid(imports("src/a.ts", &id("a.ts::start"), None).unwrap_err()),
        "from and to are the same file (src/a.ts); pass two different files"
    );
    let e = imports("src/main.ts", "src/dyn.tsx", None).unwrap_err();
    assert_eq!(e.code, "not_found");
    assert_eq!(
        e.message,
        "to: no file matches \"src/dyn.tsx\" (tried file path, file id and symbol id); did you mean: src/dyn.ts?"
    );
    assert_eq!(
        invalid(imports("src/main.ts", "src/dyn.ts", Some(17)).unwrap_err()),
        "max_depth must be 1..=16, got 17"
    );
    assert_eq!(
        invalid(imports("src/main.ts", "src/dyn.ts", Some(0)).unwrap_err()),
        "max_depth must be 1..=16, got 0"
    );
    assert_eq!(
        invalid(imports("", "src/dyn.ts", None).unwrap_err()),
        "from must not be empty; pass a file path, a file id or a symbol id"
    );
}

#[test]
fn import_path_expands_go_and_java_package_imports_to_their_files() {
    let home = tempfile::tempdir().unwrap();
    let (go, _) = index(&fixtures().join("resolver/go"), &options(home.path()));
    let args = |from: &str, to: &str| FindImportPathArgs {
        from: from.into(),
        to: Some(to.into()),
        symbol: None,
        max_depth: None,
    };
    let r = find_import_path(&go.graph, &args("main.go", "store/close.go")).unwrap();
    assert_eq!(
        r.hops,
        vec![ImportHop {
            from: "main.go".into(),
            to: "store/close.go".into(),
            kind: EdgeKind::Imports,
            line: 6,
        }]
    );
    let d = find_import_path(&go.graph, &args("store/store.go", "main.go"))
        .unwrap()
        .diagnosis
        .unwrap();
    assert_eq!((d.to_importers, d.reverse_hops), (0, Some(1)));
    let d = find_import_path(&go.graph, &args("main.go", "helper.go"))
        .unwrap()
        .diagnosis
        .unwrap();
    assert_eq!((d.from_imports, d.reachable), (2, 2));
    let pkg = invalid(find_import_path(&go.graph, &args("go/store::store", "main.go")).unwrap_err());
    assert_eq!(pkg, "from \"go/store::store\" is a package; pass one of its files");
    let ext = invalid(find_import_path(&go.graph, &args("main.go", "external::fmt")).unwrap_err());
    assert_eq!(
        ext,
        "to \"external::fmt\" is outside the repository; pass a repository file"
    );

    let (java, _) = index(&fixtures().join("resolver/java"), &options(home.path()));
    let base = "src/main/java/com/acme";
    let r = find_import_path(
        &java.graph,
        &args(&format!("{base}/App.java"), &format!("{base}/store/Repo.java")),
    )
    .unwrap();
    assert_eq!(
        r.path,
        vec![format!("{base}/App.java"), format!("{base}/store/Repo.java")]
    );
    assert_eq!((r.hops[0].kind, r.hops[0].line), (EdgeKind::Imports, 3));
}
