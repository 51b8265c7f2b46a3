//! Where an index's bytes are, per structure, and dropping what can be rebuilt (a daemon under a
//! memory ceiling asks for both; `bench_index memory` publishes the breakdown).

use crate::query::SearchMemory;
use crate::{FileRecord, RepoIndex};
use gortex_core::heap::vec_bytes;
use gortex_graph::{GraphMemory, ResolutionMemory};
use serde::Serialize;

/// Heap bytes of one repository's index, per structure (estimates that follow the allocations,
/// see `gortex_core::heap`; the resolver's kept lookup tables borrow from the facts and are not
/// sized here — `lookup_tables_held` says whether they are held).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct MemoryReport {
    /// The graph: node table, node strings, edges, adjacency, unresolved references, lookup maps
    /// and the per-file facts.
    pub graph: GraphMemory,
    /// File records' buffer (sizes, hashes; their facts are counted with the graph; the path
    /// texts, shared with every node of the file, are not sized).
    pub file_records: usize,
    /// Per-file resolutions in path space, kept so the next build re-resolves only what changed
    /// (and saved in the snapshot).
    pub resolutions: ResolutionMemory,
    /// Whether the resolver's lookup tables of the last build are held for the next edit.
    pub lookup_tables_held: bool,
    /// The lazily built search indexes.
    pub search: SearchMemory,
    /// Everything sized above.
    pub total: usize,
}

impl RepoIndex {
    /// The index's bytes per structure.
    pub fn memory_report(&self) -> MemoryReport {
        let graph = self.graph.memory();
        let file_records = vec_bytes::<FileRecord>(&self.files);
        let resolutions = self.resolution.as_ref().map(|r| r.memory()).unwrap_or_default();
        let search = self.search_memory();
        MemoryReport {
            graph,
            file_records,
            resolutions,
            lookup_tables_held: self.resolution.as_ref().is_some_and(|r| r.kept_tables.is_filled()),
            search,
            total: graph.total() + file_records + resolutions.total() + search.total(),
        }
    }

    /// Drops the caches the index can rebuild on demand — the resolver's kept lookup tables, the
    /// search indexes, the analyses, the dataflow layer and the mined history held in memory (not
    /// the graph's lazily built name maps, nor overlay views' own caches) —
    /// keeping the graph, its facts and its resolutions. Queries stay correct; the first one
    /// needing a dropped cache pays for building it again. Returns the search and clone bytes
    /// the sized caches held (the rest is not sized).
    pub fn release_caches(&self) -> usize {
        let held = self.search_memory().total();
        self.release_build_caches();
        self.search.clear();
        self.analysis.clear();
        self.history.clear();
        held
    }
}
