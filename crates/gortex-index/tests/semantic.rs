//! Semantic enrichment on the index's side: language-server answers for call sites upgrade,
//! correct and add call edges (`lsp_resolved`), add dispatch edges (`lsp_dispatch`), drop an
//! in-repository guess the server places outside, are counted, and stop applying when the file's
//! content changes.

mod common;

use common::{index, options, write_file};
use gortex_graph::semantic::{SemanticCounts, SemanticSite, SemanticTarget};
use gortex_index::semantic::SemanticFile;

const SHAPES: &str = "export interface Shape {\n  area(): number;\n}\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n  format(): string {\n    return '';\n  }\n}\nexport function make(): Shape {\n  return new Square();\n}\n";
const STORE: &str = "export class Store {\n  format(n: number): string {\n    return `#${n}`;\n  }\n}\nexport function parse(t: string): number {\n  return t.length;\n}\n";
const USE: &str = "import { make } from './shapes';\nimport { Store } from './store';\nexport function total(st: any): number {\n  const s = make();\n  st.format(1);\n  return s.area() + parse('x');\n}\nfunction parse(t: string): number {\n  return 0;\n}\n";

fn target(path: &str, line: u32, name: &str) -> SemanticTarget {
    SemanticTarget {
        path: path.into(),
        line,
        name: name.into(),
    }
}

fn calls(idx: &gortex_index::RepoIndex, from: &str) -> Vec<String> {
    common::resolution_lines(idx)
        .into_iter()
        .filter(|l| {
            l.starts_with(&format!("E repo/src/use.ts::{from} -calls-> "))
                || l.starts_with(&format!("U repo/src/use.ts::{from} -calls-> "))
        })
        .collect()
}

#[test]
fn answers_upgrade_correct_add_dispatch_and_drop_edges_until_the_file_changes() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    write_file(&root, "src/shapes.ts", SHAPES);
    write_file(&root, "src/store.ts", STORE);
    write_file(&root, "src/use.ts", USE);
    let (mut idx, _) = index(&root, &options(home.path()));
    let before = calls(&idx, "total");
    assert!(
        before
            .iter()
            .any(|l| l.contains("-calls-> repo/src/use.ts::parse ast_resolved")),
        "{before:?}"
    );
    assert!(before.iter().any(|l| l.contains("unresolved::*.format")), "{before:?}");

    let sites = idx.call_sites("src/use.ts").unwrap();
    let at = |name: &str| {
        sites
            .sites
            .iter()
            .find(|s| s.name == name)
            .map(|s| (s.line, s.col))
            .unwrap()
    };
    let site = |name: &str, targets: Vec<SemanticTarget>, dispatch: Vec<SemanticTarget>, external: bool| {
        let (line, col) = at(name);
        SemanticSite {
            line,
            col,
            targets,
            dispatch,
            external,
        }
    };
    let answers = vec![SemanticFile {
        path: "src/use.ts".into(),
        hash: sites.hash.clone(),
        sites: vec![
            // Confirms the cascade.
            site("make", vec![target("src/shapes.ts", 12, "make")], vec![], false),
            // Adds what the cascade left unresolved.
            site("format", vec![target("src/store.ts", 2, "format")], vec![], false),
            // Confirms the interface method and adds its implementation as a dispatch target.
            site(
                "area",
                vec![target("src/shapes.ts", 2, "area")],
                vec![target("src/shapes.ts", 5, "area")],
                false,
            ),
            // Corrects: the server says the other `parse`.
            site("parse", vec![target("src/store.ts", 6, "parse")], vec![], false),
        ],
    }];
    let report = idx.apply_semantic(answers).unwrap();
    assert_eq!(report.applied, 1);
    assert!(report.stale.is_empty());
    assert_eq!(
        report.counts,
        SemanticCounts {
            confirmed: 2,
            corrected: 1,
            added: 1,
            dropped: 0,
            dispatch: 1
        }
    );
    let after = calls(&idx, "total");
    for expected in [
        "-calls-> repo/src/shapes.ts::make lsp_resolved",
        "-calls-> repo/src/store.ts::Store.format lsp_resolved",
        "-calls-> repo/src/shapes.ts::Shape.area lsp_resolved",
        "-calls-> repo/src/shapes.ts::Square.area lsp_dispatch",
        "-calls-> repo/src/store.ts::parse lsp_resolved",
    ] {
        assert!(
            after.iter().any(|l| l.contains(expected)),
            "{expected} missing from {after:?}"
        );
    }
    assert!(!after.iter().any(|l| l.contains("use.ts::parse")), "{after:?}");

    // The server places `parse` at the parameter `st` of the calling function (its lines, no
    // symbol): the guess is dropped and no edge stands for the call.
    let use_ts = |sites_of: Vec<SemanticSite>| {
        vec![SemanticFile {
            path: "src/use.ts".into(),
            hash: sites.hash.clone(),
            sites: sites_of,
        }]
    };
    let one_dropped = SemanticCounts {
        dropped: 1,
        ..Default::default()
    };
    let report = idx
        .apply_semantic(use_ts(vec![
            site("parse", vec![target("src/use.ts", 3, "st")], vec![], false),
            // The same for a call the cascade left unresolved: no placeholder, no guess by name.
            site("format", vec![target("src/use.ts", 3, "st")], vec![], false),
        ]))
        .unwrap();
    assert_eq!(report.counts, one_dropped);
    let after = calls(&idx, "total");
    assert!(
        !after.iter().any(|l| l.contains("parse") || l.contains("format")),
        "{after:?}"
    );
    // A definition elsewhere in the repository that names no symbol (here the import line of
    // another file's name) leaves the cascade's answer standing.
    let report = idx
        .apply_semantic(use_ts(vec![site(
            "parse",
            vec![target("src/use.ts", 1, "make")],
            vec![],
            false,
        )]))
        .unwrap();
    assert_eq!(report.counts, SemanticCounts::default());
    assert!(calls(&idx, "total")
        .iter()
        .any(|l| l.contains("-calls-> repo/src/use.ts::parse ast_resolved")));

    // The server places `parse` outside the repository: the cascade's in-repository edge is dropped.
    let report = idx
        .apply_semantic(use_ts(vec![site("parse", vec![], vec![], true)]))
        .unwrap();
    assert_eq!(report.counts, one_dropped);
    // (A file's answers replace its earlier ones: the other sites are the cascade's again.)
    let after = calls(&idx, "total");
    assert!(
        after
            .iter()
            .any(|l| l.contains("-calls-> external::parse lsp_resolved")),
        "{after:?}"
    );
    assert!(
        !after
            .iter()
            .any(|l| l.contains("repo/src/use.ts::parse") || l.contains("repo/src/store.ts::parse")),
        "{after:?}"
    );

    // Answers for another content are refused; an edit drops the applied ones.
    let stale = vec![SemanticFile {
        path: "src/use.ts".into(),
        hash: "0".repeat(16),
        sites: vec![],
    }];
    assert_eq!(idx.apply_semantic(stale).unwrap().stale, vec!["src/use.ts".to_string()]);
    // A comment at the end moves no reference: the answers still hold.
    write_file(&root, "src/use.ts", &format!("{USE}\n// edited\n"));
    let opts = idx.options.clone();
    idx.update_paths(&["src/use.ts".to_string()], &opts).unwrap();
    assert_eq!(idx.semantic_counts().dropped, 1);
    // A line above them moves every reference: the file is the cascade's again.
    write_file(&root, "src/use.ts", &format!("// moved\n{USE}"));
    idx.update_paths(&["src/use.ts".to_string()], &opts).unwrap();
    assert_eq!(idx.semantic_counts(), SemanticCounts::default());
    assert!(calls(&idx, "total")
        .iter()
        .any(|l| l.contains("-calls-> repo/src/use.ts::parse ast_resolved")));
    assert!(idx.call_sites("src/missing.ts").is_err());
}
