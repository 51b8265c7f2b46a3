//! The per-structure memory report and dropping the caches an index can rebuild.

mod common;

use common::{copy_tree, fixtures, index, options};
use gortex_core::HeapSize;
use serde_json::json;

#[test]
fn the_report_sizes_each_structure_and_released_caches_are_rebuilt() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("app");
    copy_tree(&fixtures().join("query/app-ts"), &root);
    let mut opts = options(home.path());
    opts.keep_build_caches = true;
    let (repo, _) = index(&root, &opts);

    let opened = repo.memory_report();
    let g = opened.graph;
    assert!(g.node_table >= repo.graph.node_count() * std::mem::size_of::<gortex_graph::Node>());
    assert!(g.node_strings > 0 && g.edges > 0 && g.adjacency > 0 && g.lookup_maps > 0);
    // Every file's facts counted once, whatever shares them.
    let facts: usize = repo.files.iter().map(|r| r.facts.heap_bytes()).sum();
    assert!(g.facts.total() >= facts, "{} < {facts}", g.facts.total());
    assert!(g.facts.symbols > 0 && g.facts.refs > 0);
    assert!(opened.resolutions.edges > 0 && opened.resolutions.paths > 0);
    assert!(
        opened.lookup_tables_held,
        "an index for editing keeps its lookup tables"
    );
    assert_eq!(opened.search.total(), 0, "no search index before the first search");
    assert_eq!(
        opened.total,
        g.total() + opened.file_records + opened.resolutions.total()
    );

    let search = |q: &str| repo.query("search_symbols", json!({ "query": q, "limit": 5 })).unwrap();
    let grep = |q: &str| repo.query("search_text", json!({ "query": q })).unwrap();
    let (found, grepped) = (search("formatLabel"), grep("formatLabel"));
    let built = repo.memory_report();
    assert!(built.search.symbols_bytes.unwrap() > 0 && built.search.text_bytes.unwrap() > 0);
    assert_eq!(built.total, opened.total + built.search.total());

    let released = repo.release_caches();
    assert_eq!(released, built.search.total());
    let after = repo.memory_report();
    assert_eq!(after.search.total(), 0);
    assert!(!after.lookup_tables_held);
    // The graph, its facts and resolutions are kept as they were.
    assert_eq!(after.graph.total(), opened.graph.total());
    assert_eq!(after.resolutions.total(), opened.resolutions.total());
    // Answers are the same: the indexes are built again on demand.
    assert_eq!(search("formatLabel"), found);
    assert_eq!(grep("formatLabel"), grepped);
    assert!(repo.memory_report().search.symbols_bytes.unwrap() > 0);
}
