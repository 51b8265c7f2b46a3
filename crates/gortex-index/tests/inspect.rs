//! The inspection queries behind napi's `stats`, `graphDump`, `externalRefs`, `mostImported`,
//! `fileNodes`, `getNode`, `fileSymbols` and `edges`, on a small TypeScript shop written to a
//! temp dir: exact rows, their wire shape, and bad input.
//!
//! Shape: `store.ts` declares `Store.save`; `util.ts` declares `helper`; `app.ts` imports both
//! and `fs`, and its `start` instantiates `Store`, calls `save`, `helper`, `readFileSync` and an
//! undeclared `missing`; `other.ts` imports `util.ts` twice and its `run` calls `helper`;
//! `more.ts` imports `Store`; `empty.ts` declares nothing; `README.md` is one section.

mod common;

use common::*;
use gortex_core::{EdgeKind, NodeKind, Origin, QueryError};
use gortex_graph::Direction;
use gortex_index::inspect::*;
use gortex_index::RepoIndex;
use serde_json::json;
use std::sync::OnceLock;

const FILES: &[(&str, &str)] = &[
    ("src/store.ts", "export class Store {\n  save(): void {}\n}\n"),
    ("src/util.ts", "export function helper(): void {}\n"),
    (
        "src/app.ts",
        "import { Store } from './store';\nimport { helper } from './util';\nimport { readFileSync } from 'fs';\n\n\
         export function start(): void {\n  const s = new Store();\n  s.save();\n  helper();\n  readFileSync('x');\n  missing();\n}\n",
    ),
    (
        "src/other.ts",
        "import { helper } from './util';\nimport * as util from './util';\n\nexport function run(): void {\n  helper();\n}\n",
    ),
    ("src/more.ts", "import { Store } from './store';\n\nexport class Shelf extends Store {}\n"),
    ("src/empty.ts", ""),
    ("README.md", "# Shop\n\nA tiny shop.\n"),
];

/// A repository indexed from `files` under `<temp>/<name>`; the temp dirs live as long as it.
struct Indexed {
    index: RepoIndex,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

fn indexed(name: &str, files: &[(&str, &str)]) -> Indexed {
    let work = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = work.path().join(name);
    for (path, text) in files {
        write_file(&root, path, text);
    }
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&root, &opts);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    Indexed {
        index,
        _dirs: (work, home),
    }
}

/// The shop, indexed once.
fn shop() -> &'static RepoIndex {
    static SHOP: OnceLock<Indexed> = OnceLock::new();
    &SHOP.get_or_init(|| indexed("shop", FILES)).index
}

fn err_of<T: std::fmt::Debug>(r: Result<T, QueryError>) -> QueryError {
    r.expect_err("expected an error")
}

#[test]
fn stats_count_nodes_by_kind_and_edges_by_kind_and_tier() {
    let index = shop();
    let s = stats(index);
    assert_eq!(
        s.summary,
        RepoSummary {
            provisional: false,
            name: "shop".into(),
            root: index.root.display().to_string(),
            files: 7,
            nodes: 16,
            edges: 25,
            indexed_at_ms: index.indexed_at_ms,
            snapshot_path: index.snapshot_path.display().to_string(),
        }
    );
    assert!(s.summary.root.ends_with("/shop"), "{}", s.summary.root);
    let counts = |pairs: &[(&'static str, usize)]| pairs.iter().copied().collect::<std::collections::BTreeMap<_, _>>();
    assert_eq!(
        s.nodes_by_kind,
        counts(&[
            ("doc", 1),
            ("file", 7),
            ("function", 4),
            ("method", 1),
            ("module", 1),
            ("type", 2)
        ])
    );
    assert_eq!(
        s.edges_by_kind,
        counts(&[
            ("calls", 4),
            ("contains", 1),
            ("defines", 7),
            ("extends", 1),
            ("imports", 10),
            ("instantiates", 1),
            ("member_of", 1),
        ])
    );
    assert_eq!(s.edges_by_origin, counts(&[("ast_resolved", 25)]));
    // Files and declarations carry their language; the README's doc node is markdown.
    assert_eq!(s.nodes_by_language, counts(&[("markdown", 2), ("typescript", 12)]));
    assert_eq!(s.edge_identity_revisions, 0);
    assert_eq!(s.unresolved, 1);
    // Nothing has searched yet: no search index is built.
    assert_eq!(s.search_memory.symbols_bytes, None);
    assert_eq!(s.search_memory.text_bytes, None);
    // The summary's fields sit beside the counts on the wire.
    let wire = serde_json::to_value(&s).unwrap();
    assert_eq!(wire["name"], "shop");
    assert_eq!(wire["edges"], 25);
    assert_eq!(wire["nodes_by_kind"]["file"], 7);
    assert_eq!(wire["search_memory"]["clones_bytes"], json!(null));
}

/// `edge_identity_revisions` counts edges of files resolved again unedited whose tier changed:
/// `use.ts` calls `run` on a value whose type comes from `make`'s declared return type
/// (`ast_inferred`); once `make` loses that annotation, the same call site is bound by name
/// alone (`text_matched`) — one edge, same ends, kind and line, new provenance.
#[test]
fn edge_identity_revisions_count_tier_changes_of_unedited_files() {
    let files: &[(&str, &str)] = &[
        (
            "src/make.ts",
            "export class Runner {\n  run(): void {}\n}\n\nexport function make(): Runner {\n  return new Runner();\n}\n",
        ),
        (
            "src/use.ts",
            "import { make } from './make';\n\nexport function go(): void {\n  const r = make();\n  r.run();\n}\n",
        ),
    ];
    let mut repo = indexed("revisions", files);
    let origin_of_run = |index: &RepoIndex| {
        index
            .graph
            .edges()
            .find(|e| e.kind == EdgeKind::Calls && e.line == 5 && &*index.graph.node_at(e.to).name == "run")
            .map(|e| e.origin)
    };
    assert_eq!(origin_of_run(&repo.index), Some(Origin::AstInferred));
    let root = repo.index.root.clone();
    write_file(
        &root,
        "src/make.ts",
        "export class Runner {\n  run(): void {}\n}\n\nexport function make() {\n  return new Runner();\n}\n",
    );
    let opts = repo.index.options.clone();
    repo.index.update_paths(&["src/make.ts".to_string()], &opts).unwrap();
    assert_eq!(origin_of_run(&repo.index), Some(Origin::TextMatched));
    assert_eq!(stats(&repo.index).edge_identity_revisions, 1);
    // An edit of the file itself is not a revision: its sites may have moved.
    write_file(
        &root,
        "src/use.ts",
        "import { make } from './make';\n\nexport function go(): void {\n  make().run();\n}\n",
    );
    repo.index.update_paths(&["src/use.ts".to_string()], &opts).unwrap();
    assert_eq!(stats(&repo.index).edge_identity_revisions, 1);
}

#[test]
fn graph_dump_filters_by_kind_language_and_path_and_gives_communities() {
    let index = shop();
    let filter = |json: serde_json::Value| -> DumpFilter { serde_json::from_value(json).unwrap() };
    let functions = graph_dump(index, None, &filter(json!({"kinds": ["function"]})));
    let names: Vec<&str> = functions.nodes.iter().map(|n| n.name).collect();
    assert!(functions.nodes.iter().all(|n| n.kind == NodeKind::Function));
    assert!(names.contains(&"start") && names.contains(&"helper") && names.contains(&"run"));
    // `readFileSync` is an external stub of kind function: no language, left out by a language filter.
    let typescript = graph_dump(
        index,
        None,
        &filter(json!({"kinds": ["function"], "languages": ["typescript"]})),
    );
    assert!(typescript.nodes.iter().all(|n| !n.id.starts_with("external::")));
    assert_eq!(typescript.matched, typescript.nodes.len());
    assert!(!typescript.truncated);
    let under = graph_dump(index, None, &filter(json!({"paths": ["src/store", "README"]})));
    assert!(under
        .nodes
        .iter()
        .all(|n| n.file_path.starts_with("src/store") || n.file_path.starts_with("README")));
    assert!(under.nodes.iter().any(|n| n.name == "save"));
    // Edges only between kept nodes.
    let kept: Vec<&str> = under.nodes.iter().map(|n| n.id).collect();
    assert!(under
        .edges
        .iter()
        .all(|e| kept.contains(&e.from) && kept.contains(&e.to)));
    // The cap applies after the filter; truncated compares with what the filter admitted.
    let one = graph_dump(index, Some(1), &filter(json!({"kinds": ["function"]})));
    assert_eq!(
        (one.nodes.len(), one.matched, one.truncated),
        (1, functions.nodes.len(), true)
    );
    // Communities: ids where the graph has them, labels for the ids given.
    let plain = graph_dump(index, None, &DumpFilter::default());
    assert!(plain.nodes.iter().all(|n| n.community.is_none()) && plain.community_labels.is_empty());
    let coloured = graph_dump(index, None, &filter(json!({"communities": true})));
    let ids: std::collections::BTreeSet<u32> = coloured.nodes.iter().filter_map(|n| n.community).collect();
    assert!(!ids.is_empty());
    assert_eq!(
        coloured
            .community_labels
            .keys()
            .copied()
            .collect::<std::collections::BTreeSet<u32>>(),
        ids
    );
    assert!(coloured.community_labels.values().all(|l| !l.is_empty()));
    // A misspelt kind or language is an error naming the accepted values.
    assert!(filter(json!({"kinds": ["functoin"]}))
        .check()
        .unwrap_err()
        .message
        .contains("unknown node kind \"functoin\"; kinds: file"));
    assert!(filter(json!({"languages": ["klingon"]}))
        .check()
        .unwrap_err()
        .message
        .contains("unknown language \"klingon\""));
    assert!(serde_json::from_value::<DumpFilter>(json!({"kind": ["function"]})).is_err());
}

#[test]
fn graph_dump_keeps_the_best_connected_nodes_and_the_edges_between_them() {
    let index = shop();
    let full = graph_dump(index, None, &DumpFilter::default());
    assert_eq!(
        (full.repo, full.total_nodes, full.total_edges, full.truncated),
        ("shop", 16, 25, false)
    );
    assert_eq!(full.root, index.root.display().to_string());
    assert_eq!(full.nodes.len(), 16);
    // One edge per site by default.
    let sites = full.edges.clone();
    assert_eq!(sites.len(), 25);
    assert!(sites.iter().all(|e| e.count == 1));
    // Collapsed: one edge per (from, to, kind), counting the sites it stands for.
    let full = graph_dump(
        index,
        None,
        &DumpFilter {
            collapse_edges: true,
            ..DumpFilter::default()
        },
    );
    assert_eq!(full.edges.iter().map(|e| e.count).sum::<u32>(), 25);
    let mut keys: Vec<(&str, &str, EdgeKind)> = full.edges.iter().map(|e| (e.from, e.to, e.kind)).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), full.edges.len());
    // `other.ts` imports `util.ts` twice (a named and a namespace import): one edge, two sites.
    let twice = full
        .edges
        .iter()
        .find(|e| e.from == "shop/src/other.ts" && e.to == "shop/src/util.ts" && e.kind == EdgeKind::Imports)
        .expect("other.ts imports util.ts");
    assert_eq!(twice.count, 2);
    let ids: Vec<&str> = full.nodes.iter().map(|n| n.id).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
    // Each node's degree is its edges in and out.
    for n in &full.nodes {
        let degree: u32 = full
            .edges
            .iter()
            .filter(|e| e.from == n.id || e.to == n.id)
            .map(|e| e.count)
            .sum::<u32>()
            + full
                .edges
                .iter()
                .filter(|e| e.from == n.id && e.to == n.id)
                .map(|e| e.count)
                .sum::<u32>();
        assert_eq!(n.degree, degree, "{}", n.id);
    }

    let cut = graph_dump(index, Some(4), &DumpFilter::default());
    assert!(cut.truncated);
    assert_eq!((cut.total_nodes, cut.total_edges), (16, 25));
    // The four best-connected nodes (ties by id), listed by id.
    let mut ranked: Vec<(u32, &str)> = full.nodes.iter().map(|n| (n.degree, n.id)).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut best: Vec<&str> = ranked[..4].iter().map(|r| r.1).collect();
    best.sort();
    assert_eq!(cut.nodes.iter().map(|n| n.id).collect::<Vec<_>>(), best);
    assert!(cut.nodes.iter().all(|n| n.degree >= ranked[4].0));
    // Only edges between kept nodes, all of them.
    let kept = |id: &str| best.contains(&id);
    let between: Vec<_> = sites.iter().filter(|e| kept(e.from) && kept(e.to)).cloned().collect();
    assert_eq!(cut.edges, between);
    let app = full
        .nodes
        .iter()
        .find(|n| n.id == "shop/README.md")
        .expect("README node");
    assert_eq!(
        serde_json::to_value(app).unwrap(),
        json!({"id": "shop/README.md", "kind": "file", "name": "README.md", "file_path": "README.md", "start_line": 1, "end_line": 3, "language": "markdown", "repo_prefix": "shop", "degree": app.degree})
    );
    let stub = full.nodes.iter().find(|n| n.id == "external::fs").expect("stub");
    assert_eq!(stub.repo_prefix, "");
    assert!(graph_dump(index, Some(0), &DumpFilter::default()).nodes.is_empty());
}

#[test]
fn external_refs_list_each_stub_with_the_edges_into_it() {
    assert_eq!(
        external_refs(&shop().graph),
        [
            ExternalRef {
                id: "external::fs",
                target: "fs",
                kind: NodeKind::Module,
                refs: vec![ExternalUse {
                    from: "shop/src/app.ts",
                    from_name: "src/app.ts",
                    from_kind: NodeKind::File,
                    path: "src/app.ts",
                    kind: EdgeKind::Imports,
                    origin: Origin::AstResolved,
                    line: 3,
                }],
            },
            ExternalRef {
                id: "external::fs.readFileSync",
                target: "fs.readFileSync",
                kind: NodeKind::Function,
                refs: vec![ExternalUse {
                    from: "shop/src/app.ts::start",
                    from_name: "start",
                    from_kind: NodeKind::Function,
                    path: "src/app.ts",
                    kind: EdgeKind::Calls,
                    origin: Origin::AstResolved,
                    line: 9,
                }],
            },
        ]
    );
}

#[test]
fn most_imported_counts_distinct_importing_files_and_breaks_ties_by_path() {
    let row = |id: &'static str, importers: usize| ImportedRow {
        id,
        path: id.trim_start_matches("shop/"),
        kind: NodeKind::File,
        importers,
    };
    // `other.ts` imports `util.ts` twice: one importer. `store.ts` and `util.ts` tie at two and
    // come by path; `fs` is external and never counts.
    assert_eq!(
        most_imported(&shop().graph, 10),
        [row("shop/src/store.ts", 2), row("shop/src/util.ts", 2)]
    );
    assert_eq!(most_imported(&shop().graph, 1), [row("shop/src/store.ts", 2)]);
    assert!(most_imported(&shop().graph, 0).is_empty());
}

#[test]
fn most_imported_counts_packages_by_their_directory() {
    let go = indexed(
        "gomod",
        &[
            ("go.mod", "module example.com/gomod\n\ngo 1.21\n"),
            ("store/store.go", "package store\n\nfunc Save() {}\n"),
            (
                "main.go",
                "package main\n\nimport \"example.com/gomod/store\"\n\nfunc main() { store.Save() }\n",
            ),
        ],
    );
    assert_eq!(
        most_imported(&go.index.graph, 10),
        [ImportedRow {
            id: "gomod/store::store",
            path: "store",
            kind: NodeKind::Package,
            importers: 1,
        }]
    );
}

#[test]
fn file_nodes_count_the_kinds_asked_for_in_path_order() {
    let g = &shop().graph;
    let kinds = parse_node_kinds(&["function".into(), "method".into()]).unwrap();
    assert_eq!(kinds, [NodeKind::Function, NodeKind::Method]);
    let rows: Vec<(&str, usize)> = file_nodes(g, &kinds)
        .iter()
        .map(|r| (&*r.node.path, r.symbols))
        .collect();
    assert_eq!(
        rows,
        [
            ("README.md", 0),
            ("src/app.ts", 1),
            ("src/empty.ts", 0),
            ("src/more.ts", 0),
            ("src/other.ts", 1),
            ("src/store.ts", 1),
            ("src/util.ts", 1),
        ]
    );
    let types: Vec<usize> = file_nodes(g, &[NodeKind::Type]).iter().map(|r| r.symbols).collect();
    assert_eq!(types, [0, 0, 0, 1, 0, 1, 0]);
    assert!(file_nodes(g, &[]).iter().all(|r| r.symbols == 0));
    // A row is the file node's own fields with `symbols` beside them.
    let wire = serde_json::to_value(&file_nodes(g, &kinds)[1]).unwrap();
    assert_eq!(wire["id"], "shop/src/app.ts");
    assert_eq!(wire["kind"], "file");
    assert_eq!(wire["start_line"], 1);
    assert_eq!(wire["symbols"], 1);

    let e = err_of(parse_node_kinds(&["function".into(), "func".into()]));
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(
        e.message,
        "unknown node kind \"func\"; valid kinds: file, package, module, function, method, type, interface, \
         field, constant, variable, enum_member, import, doc, stage, script"
    );
}

#[test]
fn get_node_is_the_node_with_exactly_that_id() {
    let g = &shop().graph;
    let node = g.node("shop/src/store.ts::Store.save").expect("the method");
    assert_eq!(
        (node.kind, node.name.as_str(), node.qualified.as_str()),
        (NodeKind::Method, "save", "Store.save")
    );
    assert_eq!(serde_json::to_value(node).unwrap()["path"], "src/store.ts");
    // No suggestions, prefixes or bare names here: those are the query tools' targets.
    assert!(g.node("src/store.ts::Store.save").is_none());
    assert!(g.node("save").is_none());
}

#[test]
fn file_symbols_are_the_file_node_then_its_declarations_in_source_order() {
    let index = shop();
    let ids = |path: &str| -> Vec<String> {
        file_symbols(index, path)
            .unwrap()
            .iter()
            .map(|n| n.id.to_string())
            .collect()
    };
    assert_eq!(
        ids("src/store.ts"),
        [
            "shop/src/store.ts",
            "shop/src/store.ts::Store",
            "shop/src/store.ts::Store.save"
        ]
    );
    assert_eq!(ids("./src/store.ts"), ids("src/store.ts"));
    assert_eq!(ids("src/empty.ts"), ["shop/src/empty.ts"]);

    let e = err_of(file_symbols(index, "./src/missing.ts"));
    assert_eq!(e.code, "not_found");
    assert_eq!(
        e.message,
        format!(
            "file not indexed: \"src/missing.ts\" (paths are relative to {})",
            index.root.display()
        )
    );
}

#[test]
fn node_edges_list_outgoing_then_incoming_then_unresolved() {
    let g = &shop().graph;
    let row = |from: &'static str, to: &'static str, kind: EdgeKind, path: &'static str, line: u32| EdgeRow {
        from,
        to,
        kind,
        origin: Some(Origin::AstResolved),
        path,
        line,
        resolved: true,
        candidates: None,
    };
    let start = "shop/src/app.ts::start";
    let missing = EdgeRow {
        from: start,
        to: "unresolved::missing",
        kind: EdgeKind::Calls,
        origin: None,
        path: "src/app.ts",
        line: 10,
        resolved: false,
        candidates: Some(0),
    };
    let both = EdgeFilter::parse("both", None).unwrap();
    assert_eq!(
        node_edges(g, start, &both).unwrap(),
        [
            row(
                start,
                "shop/src/store.ts::Store",
                EdgeKind::Instantiates,
                "src/app.ts",
                6
            ),
            row(start, "shop/src/store.ts::Store.save", EdgeKind::Calls, "src/app.ts", 7),
            row(start, "shop/src/util.ts::helper", EdgeKind::Calls, "src/app.ts", 8),
            row(start, "external::fs.readFileSync", EdgeKind::Calls, "src/app.ts", 9),
            row("shop/src/app.ts", start, EdgeKind::Defines, "src/app.ts", 5),
            missing.clone(),
        ]
    );
    let out_calls = EdgeFilter::parse("out", Some(&["calls".to_string()])).unwrap();
    assert_eq!(
        node_edges(g, start, &out_calls).unwrap(),
        [
            row(start, "shop/src/store.ts::Store.save", EdgeKind::Calls, "src/app.ts", 7),
            row(start, "shop/src/util.ts::helper", EdgeKind::Calls, "src/app.ts", 8),
            row(start, "external::fs.readFileSync", EdgeKind::Calls, "src/app.ts", 9),
            missing.clone(),
        ]
    );
    // Incoming never lists unresolved references (they have no target node).
    let callers = EdgeFilter::parse("in", Some(&["calls".to_string()])).unwrap();
    assert_eq!(
        node_edges(g, "shop/src/util.ts::helper", &callers).unwrap(),
        [
            row(start, "shop/src/util.ts::helper", EdgeKind::Calls, "src/app.ts", 8),
            row(
                "shop/src/other.ts::run",
                "shop/src/util.ts::helper",
                EdgeKind::Calls,
                "src/other.ts",
                5
            ),
        ]
    );
    // An empty kind list keeps nothing; no list keeps everything.
    let none = EdgeFilter::parse("both", Some(&[])).unwrap();
    assert!(node_edges(g, start, &none).unwrap().is_empty());

    // Wire shape: resolved rows carry no `candidates`, unresolved ones a null origin.
    assert_eq!(
        serde_json::to_value(row(start, "shop/src/util.ts::helper", EdgeKind::Calls, "src/app.ts", 8)).unwrap(),
        json!({"from": start, "to": "shop/src/util.ts::helper", "kind": "calls", "origin": "ast_resolved",
               "path": "src/app.ts", "line": 8, "resolved": true})
    );
    assert_eq!(
        serde_json::to_value(&missing).unwrap(),
        json!({"from": start, "to": "unresolved::missing", "kind": "calls", "origin": null,
               "path": "src/app.ts", "line": 10, "resolved": false, "candidates": 0})
    );

    let e = err_of(node_edges(g, "shop/src/nope.ts::X", &both));
    assert_eq!(
        (e.code, e.message.as_str()),
        ("not_found", "node not found: \"shop/src/nope.ts::X\"")
    );
}

#[test]
fn edge_filters_parse_once_and_name_the_bad_value() {
    assert_eq!(
        EdgeFilter::parse("in", Some(&["calls".to_string(), "imports".to_string()])).unwrap(),
        EdgeFilter {
            direction: Direction::In,
            kinds: Some(vec![EdgeKind::Calls, EdgeKind::Imports]),
        }
    );
    assert_eq!(
        EdgeFilter::parse("out", None).unwrap(),
        EdgeFilter {
            direction: Direction::Out,
            kinds: None,
        }
    );
    let e = err_of(EdgeFilter::parse("sideways", None));
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(e.message, "invalid direction \"sideways\": use in, out or both");
    let e = err_of(EdgeFilter::parse(
        "both",
        Some(&["calls".to_string(), "callz".to_string()]),
    ));
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(
        e.message,
        "unknown edge kind \"callz\"; valid kinds: defines, contains, member_of, imports, re_exports, calls, \
         references, instantiates, extends, implements, overrides, typed_as, returns, tests, depends_on_module"
    );
}
