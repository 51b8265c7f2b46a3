//! Where a graph's bytes are: its node table, the strings its nodes own, edges, adjacency, lookup
//! maps and the per-file facts it keeps (see `gortex_core::heap` for how bytes are counted).

use super::{Edge, Graph, Node, NodeIndex, Unresolved};
use gortex_core::heap::{map_table_bytes, vec_bytes, FactsMemory};
use gortex_core::{FileFacts, HeapSize};
use serde::Serialize;
use std::sync::Arc;

/// Heap bytes of one graph, per structure. An overlay view's layer is not included (its base is
/// counted with the base's index).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GraphMemory {
    /// The node table itself: one fixed-size record per node.
    pub node_table: usize,
    /// Text the nodes own: ids, names, qualified names, signatures, docs, types, decorators.
    pub node_strings: usize,
    /// Edge records.
    pub edges: usize,
    /// CSR offsets and in-edge lists, and the unresolved references' offsets.
    pub adjacency: usize,
    /// Unresolved references (placeholders with their target names).
    pub unresolved: usize,
    /// Id → node, file → nodes, the file list, and the lazily built name maps.
    pub lookup_maps: usize,
    /// The per-file facts the graph was built from (shared with the index's file records).
    pub facts: FactsMemory,
}

impl GraphMemory {
    /// Everything above.
    pub fn total(&self) -> usize {
        self.node_table
            + self.node_strings
            + self.edges
            + self.adjacency
            + self.unresolved
            + self.lookup_maps
            + self.facts.total()
    }
}

impl HeapSize for Node {
    fn heap_bytes(&self) -> usize {
        self.id.heap_bytes()
            + self.name.heap_bytes()
            + self.qualified.heap_bytes()
            + self.signature.heap_bytes()
            + self.doc.heap_bytes()
            + self.doc_text.heap_bytes()
            + self.type_name.heap_bytes()
            + self.return_type.heap_bytes()
            + self.decorators.heap_bytes()
    }
}

impl Graph {
    /// Heap bytes per structure (estimates that follow the allocations; see `gortex_core::heap`).
    pub fn memory(&self) -> GraphMemory {
        let name_map = |m: Option<&rustc_hash::FxHashMap<Box<str>, Vec<u32>>>| {
            m.map_or(0, |m| {
                map_table_bytes::<Box<str>, Vec<u32>>(m.capacity())
                    + m.iter().map(|(k, v)| k.len() + vec_bytes(v)).sum::<usize>()
            })
        };
        GraphMemory {
            node_table: vec_bytes(&self.nodes),
            node_strings: self.nodes.iter().map(HeapSize::heap_bytes).sum(),
            edges: vec_bytes::<Edge>(&self.edges),
            adjacency: vec_bytes(&self.out_offsets)
                + vec_bytes(&self.in_offsets)
                + vec_bytes(&self.in_edges)
                + vec_bytes(&self.unresolved_offsets)
                + vec_bytes(&self.unresolved_order),
            unresolved: vec_bytes::<Unresolved>(&self.unresolved)
                + self.unresolved.iter().map(|u| u.target.heap_bytes()).sum::<usize>(),
            // Keys of the id map and the file map are the nodes' own `Arc`s, counted with them.
            lookup_maps: map_table_bytes::<Arc<str>, NodeIndex>(self.index.capacity())
                + map_table_bytes::<Arc<str>, Vec<NodeIndex>>(self.by_file.capacity())
                + self.by_file.values().map(vec_bytes).sum::<usize>()
                + vec_bytes(&self.files)
                + name_map(self.by_name.get())
                + name_map(self.unresolved_by_name.get()),
            facts: {
                let mut facts = FactsMemory {
                    files: vec_bytes::<Arc<FileFacts>>(&self.file_facts),
                    ..Default::default()
                };
                self.file_facts.iter().for_each(|f| facts.add(f));
                facts
            },
        }
    }
}
