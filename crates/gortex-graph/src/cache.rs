//! Resolution results in path space, so they survive node renumbering and can be persisted:
//! each file's resolved edges, external references, placeholders and dependency keys, plus the
//! whole-repository tables (import targets, type hierarchy, method owners) used to detect which
//! files a change affects.

use crate::resolve::KeptTables;
use gortex_core::{EdgeKind, NodeKind, Origin};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// One end of a resolved edge. Indices point into [`ResolvedFile::paths`]; symbols are indices
/// into that file's `FileFacts::symbols`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Endpoint {
    File(u32),
    Symbol(u32, u32),
    /// The Go/Java package node of the package holding this file.
    Package(u32),
}

/// An edge between two repository nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedEdge {
    pub from: Endpoint,
    pub to: Endpoint,
    pub kind: EdgeKind,
    pub origin: Origin,
    pub line: u32,
    /// The framework-dispatch pass that synthesized it (`RefFact::via`).
    pub via: Option<gortex_core::Synthesizer>,
}

/// An edge to something outside the repository (`external::<target>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalEdge {
    pub from: Endpoint,
    pub target: String,
    pub stub: NodeKind,
    pub kind: EdgeKind,
    pub origin: Origin,
    pub line: u32,
}

/// A reference left unbound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnresolvedRef {
    pub from: Endpoint,
    pub kind: EdgeKind,
    pub target: String,
    pub line: u32,
    pub candidates: u32,
}

/// Everything resolving one file produced. `paths[0]` is the file itself.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResolvedFile {
    pub paths: Vec<String>,
    pub edges: Vec<ResolvedEdge>,
    pub external: Vec<ExternalEdge>,
    pub unresolved: Vec<UnresolvedRef>,
    /// Sorted dependency keys (see `deps`).
    pub deps: Vec<u64>,
    /// How the resolver's answers fared against the language server's, at the sites it answered.
    #[serde(default)]
    pub semantic: crate::semantic::SemanticCounts,
}

/// Whole-repository tables, rendered as text so two builds can be compared cheaply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DerivedTables {
    /// Per file (by path): one rendering per import. Shared, so a build whose file's targets
    /// did not change reuses the last rendering for a refcount.
    pub import_targets: Vec<(Arc<str>, Arc<Vec<String>>)>,
    /// `path#symbol` → its resolved supertypes. Shared with the next build when its hierarchy
    /// is the same (as are the two lists below).
    pub supertypes: Arc<Vec<(String, Vec<String>)>>,
    /// `path#symbol` of a detached method → its owner type.
    pub method_owners: Arc<Vec<(String, String)>>,
}

/// `new`, or `old` when they are equal (noting in `all_same` when not).
fn share<T: PartialEq>(new: Arc<T>, old: &Arc<T>, all_same: &mut bool) -> Arc<T> {
    if *new == **old {
        Arc::clone(old)
    } else {
        *all_same = false;
        new
    }
}

impl DerivedTables {
    /// These tables with every rendering equal to `old`'s shared from it (`old` itself when all
    /// are), so equal tables cost no memory twice and compare by pointer.
    pub(crate) fn shared_with(self, old: &Arc<DerivedTables>) -> Arc<DerivedTables> {
        let mut all_same = self.import_targets.len() == old.import_targets.len();
        let mut at = 0usize;
        let import_targets: Vec<(Arc<str>, Arc<Vec<String>>)> = self
            .import_targets
            .into_iter()
            .map(|(path, rendered)| {
                at += old.import_targets[at..].partition_point(|(p, _)| **p < *path);
                match old.import_targets.get(at) {
                    Some((p, r)) if **p == *path && **r == *rendered => (Arc::clone(p), Arc::clone(r)),
                    _ => {
                        all_same = false;
                        (path, rendered)
                    }
                }
            })
            .collect();
        let supertypes = share(self.supertypes, &old.supertypes, &mut all_same);
        let method_owners = share(self.method_owners, &old.method_owners, &mut all_same);
        if all_same {
            return Arc::clone(old);
        }
        Arc::new(DerivedTables {
            import_targets,
            supertypes,
            method_owners,
        })
    }
}

/// The persisted resolution state of one repository.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResolutionCache {
    /// Resolver fingerprint + configuration hash: any difference means "resolve everything".
    pub fingerprint: String,
    /// Per file, sorted by path. Shared, so reusing a file's resolution costs a refcount.
    pub files: Vec<(Arc<str>, Arc<ResolvedFile>)>,
    /// Shared with the next build when its tables are provably the same (a body edit).
    pub derived: Arc<DerivedTables>,
    /// The last build's lookup tables, in memory only: the next build takes them instead of
    /// building its own when no file's interface changed.
    #[serde(skip)]
    pub kept_tables: KeptTablesSlot,
}

impl ResolutionCache {
    /// A copy of this cache that shares its kept lookup tables (a clone keeps none): an overlay
    /// view's first build then re-points them at its files instead of building its own, and
    /// copies their maps only if its buffers change a declaration.
    pub fn sharing_tables(&self) -> ResolutionCache {
        let copy = self.clone();
        if let (Some(tables), Ok(mut slot)) = (self.kept_tables.share(), copy.kept_tables.0.lock()) {
            *slot = Some(tables);
        }
        copy
    }

    /// Builds the lookup tables for `files` (the files of the build that made this cache) and
    /// keeps them for the next build, unless some are kept already; returns whether it built
    /// them. For a repository that will be edited: the build that opens it (or applies a bulk
    /// change) frees its tables before assembling the graph, to keep its peak memory down.
    pub fn keep_tables(&self, files: &[crate::SourceFile], config: &crate::RepoConfig) -> bool {
        if self.kept_tables.is_filled() {
            return false;
        }
        let tables = KeptTables::build(files, config, self.fingerprint.clone());
        if let Ok(mut slot) = self.kept_tables.0.lock() {
            *slot = Some(Box::new(tables));
        }
        true
    }
}

/// A slot the next build takes the kept lookup tables from. Clones and comparisons ignore it:
/// it is a cache, never part of a result.
#[derive(Default)]
pub struct KeptTablesSlot(pub(crate) Mutex<Option<Box<KeptTables>>>);

impl KeptTablesSlot {
    pub(crate) fn new(tables: KeptTables) -> KeptTablesSlot {
        KeptTablesSlot(Mutex::new(Some(Box::new(tables))))
    }

    /// The kept tables, shared: a copy whose maps are these tables' until one of the two changes
    /// them (then it copies them first).
    pub(crate) fn share(&self) -> Option<Box<KeptTables>> {
        self.0.lock().ok()?.as_ref().map(|kept| Box::new((**kept).clone()))
    }

    /// Takes the tables out (the next build owns them from then on).
    pub(crate) fn take(&self) -> Option<Box<KeptTables>> {
        self.0.lock().map(|mut slot| slot.take()).unwrap_or(None)
    }

    /// Whether tables are kept (for tests and memory reports).
    pub fn is_filled(&self) -> bool {
        self.0.lock().map(|slot| slot.is_some()).unwrap_or(false)
    }

    /// Drops the kept tables (their memory) until the next build.
    pub fn clear(&self) {
        drop(self.take());
    }
}

impl Clone for KeptTablesSlot {
    fn clone(&self) -> Self {
        KeptTablesSlot::default()
    }
}

impl PartialEq for KeptTablesSlot {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for KeptTablesSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "KeptTablesSlot({})",
            if self.is_filled() { "filled" } else { "empty" }
        )
    }
}

/// The resolver's own fingerprint (changes with its source).
pub const RESOLVER_FINGERPRINT: &str = env!("GORTEX_RESOLVER_FINGERPRINT");

/// Heap bytes of a [`ResolutionCache`], per part.
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct ResolutionMemory {
    /// Per-file records and the paths their endpoints name.
    pub paths: usize,
    /// Edges between repository endpoints.
    pub edges: usize,
    /// Edges to external stubs, with their target names.
    pub external: usize,
    /// Unresolved references, with their target names.
    pub unresolved: usize,
    /// Dependency keys.
    pub deps: usize,
    /// The whole-repository derived tables (import targets, supertypes, method owners).
    pub derived: usize,
}

impl ResolutionMemory {
    /// Every part.
    pub fn total(&self) -> usize {
        self.paths + self.edges + self.external + self.unresolved + self.deps + self.derived
    }
}

impl ResolutionCache {
    /// Heap bytes of the per-file resolutions and the derived tables (not the kept lookup
    /// tables, which borrow from the facts; `RepoIndex::memory_report` measures those apart).
    pub fn memory(&self) -> ResolutionMemory {
        use gortex_core::heap::vec_bytes;
        use gortex_core::HeapSize;
        let mut m = ResolutionMemory {
            paths: self.fingerprint.heap_bytes() + vec_bytes(&self.files),
            ..Default::default()
        };
        for (path, f) in &self.files {
            m.paths += path.heap_bytes() + 16 + std::mem::size_of::<ResolvedFile>() + f.paths.heap_bytes();
            m.edges += vec_bytes(&f.edges);
            m.external += vec_bytes(&f.external) + f.external.iter().map(|e| e.target.heap_bytes()).sum::<usize>();
            m.unresolved +=
                vec_bytes(&f.unresolved) + f.unresolved.iter().map(|u| u.target.heap_bytes()).sum::<usize>();
            m.deps += vec_bytes(&f.deps);
        }
        let derived = &self.derived;
        m.derived = vec_bytes(&derived.import_targets)
            + derived
                .import_targets
                .iter()
                .map(|(p, r)| p.heap_bytes() + 16 + r.heap_bytes())
                .sum::<usize>()
            + derived
                .supertypes
                .iter()
                .map(|(t, s)| t.heap_bytes() + s.heap_bytes())
                .sum::<usize>()
            + derived
                .method_owners
                .iter()
                .map(|(a, b)| a.heap_bytes() + b.heap_bytes())
                .sum::<usize>();
        m
    }
}
