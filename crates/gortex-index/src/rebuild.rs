//! Turning the index's files into its graph: the builder's input, a build (incremental over the
//! previous one's caches, or the previous graph carried over when no facts changed), and the
//! caches kept between builds.

use crate::{now_ms, semantic, FileRecord, IndexReport, Progress, RepoIndex};
use gortex_graph::{build_graph_incremental, ChangedFile, RepoInput, ResolutionCache, SourceFile};
use std::sync::Arc;
use std::time::Instant;

/// Puts a graph build's counts, layout and phases into an index report.
pub(crate) fn note_build(report: &mut IndexReport, stats: &gortex_graph::BuildStats) {
    report.files.resolved = stats.resolved_files;
    report.graph_layout = stats.layout.as_str().into();
    report.lookup_tables = stats.tables.as_str().into();
    for (phase, ms) in [
        ("resolve.nodes", stats.nodes_ms),
        ("resolve.tables", stats.tables_ms),
        ("resolve.refs", stats.resolve_ms),
        ("resolve.assemble", stats.assemble_ms),
    ] {
        report.phases_ms.insert(phase.into(), ms);
    }
}

impl RepoIndex {
    /// The files as the graph builder takes them, with the language-server answers that still hold.
    pub(crate) fn source_files(&self) -> Vec<SourceFile> {
        self.files
            .iter()
            .map(|r| SourceFile {
                path: Arc::clone(&r.path),
                language: r.language,
                facts: r.facts.clone(),
                // Answers hold while the file's references stand where they stood (the same
                // content, or an edit that left its facts equal: a comment, trailing text).
                semantic: self
                    .semantic
                    .get(&r.path)
                    .filter(|(hash, facts, _)| semantic::answers_hold(r, *hash, facts))
                    .map(|(_, _, s)| Arc::clone(s)),
            })
            .collect()
    }

    /// Gives the graph a new version without building it, when no file's facts changed since
    /// it was built (`gortex_graph::carry_over`): caches that read file text (search_text,
    /// bodies, clones, todos) follow graph versions. Returns false, the graph as it was, when
    /// something else holds it or its files differ; the caller then builds.
    pub(crate) fn carry_graph_over(&mut self, pool: &rayon::ThreadPool, report: &mut IndexReport) -> bool {
        let t = Instant::now();
        if self.graph.files().len() != self.files.len() {
            return false;
        }
        // Queries hold the graph only while they run; caches hold weak references.
        let mut graph = match Arc::try_unwrap(std::mem::take(&mut self.graph)) {
            Ok(graph) => graph,
            Err(shared) => {
                self.graph = shared;
                return false;
            }
        };
        let sources = self.source_files();
        let input = RepoInput {
            repo: &self.name,
            files: &sources,
            config: &self.config,
        };
        let carried = pool.install(|| gortex_graph::carry_over(&mut graph, &input));
        // A new allocation either way: the builder takes the graph from it when it was not carried.
        self.graph = Arc::new(graph);
        if carried {
            self.indexed_at_ms = now_ms();
            report.graph_layout = "carried".into();
            report
                .phases_ms
                .insert("resolve".into(), t.elapsed().as_millis() as u64);
        }
        carried
    }

    /// Builds the graph again from the files (resolving only what `changes` can affect, with the
    /// previous build's caches) and keeps the lookup tables for the next edit when `keep_tables`.
    pub(crate) fn rebuild_graph(
        &mut self,
        pool: &rayon::ThreadPool,
        progress: &(dyn Fn(Progress) + Sync),
        report: &mut IndexReport,
        changes: &[ChangedFile],
        keep_tables: bool,
    ) {
        let t = Instant::now();
        progress(Progress {
            phase: "resolve",
            done: 0,
            total: self.files.len(),
        });
        let sources = self.source_files();
        let input = RepoInput {
            repo: &self.name,
            files: &sources,
            config: &self.config,
        };
        // The previous graph is handed over when nothing else holds it (queries hold it only
        // while they run, caches hold weak references), so unchanged files' nodes are moved.
        let old_graph = Arc::try_unwrap(std::mem::take(&mut self.graph)).ok();
        let previous = self.resolution.as_ref().map(|cache| gortex_graph::Previous {
            cache,
            changed: changes,
            graph: old_graph,
        });
        let (graph, cache, stats) = pool.install(|| build_graph_incremental(input, previous));
        note_build(report, &stats);
        if let Some(old) = &self.resolution {
            self.edge_identity_revisions += provenance_revisions(old, &cache, changes, &self.files);
        }
        if keep_tables {
            let t = Instant::now();
            if pool.install(|| cache.keep_tables(&sources, &self.config)) {
                report
                    .phases_ms
                    .insert("resolve.keep_tables".into(), t.elapsed().as_millis() as u64);
            }
        }
        self.resolution = Some(cache);
        self.graph = Arc::new(graph);
        self.indexed_at_ms = now_ms();
        report
            .phases_ms
            .insert("resolve".into(), t.elapsed().as_millis() as u64);
        progress(Progress {
            phase: "resolve",
            done: self.files.len(),
            total: self.files.len(),
        });
    }

    /// Frees what only the next incremental build uses: the resolver's lookup tables kept from
    /// the last build (tens of megabytes on a large repository). The next build makes them
    /// again; callers release them once a repository has gone quiet. Returns whether any were held.
    pub fn release_build_caches(&self) -> bool {
        self.resolution.as_ref().is_some_and(|cache| {
            let held = cache.kept_tables.is_filled();
            cache.kept_tables.clear();
            held
        })
    }
}

/// Edges of the files `new` resolved again with the same facts as `old` (unedited: a dependency
/// changed, or a language server answered) whose provenance tier changed while their identity —
/// both ends, kind and line — stayed. Edited files are left out: their symbols may have moved, so
/// an edge's identity is not comparable across the two builds.
pub(crate) fn provenance_revisions(
    old: &ResolutionCache,
    new: &ResolutionCache,
    changes: &[ChangedFile],
    files: &[FileRecord],
) -> u64 {
    use gortex_graph::cache::{Endpoint, ResolvedFile};
    use rustc_hash::FxHashMap;
    let unedited = |path: &str| {
        let current = files
            .binary_search_by(|r| (*r.path).cmp(path))
            .ok()
            .map(|at| &files[at].facts);
        match changes.iter().find(|c| c.path == path) {
            None => true,
            Some(c) => matches!((&c.old, current), (Some(a), Some(b)) if Arc::ptr_eq(a, b)),
        }
    };
    let end = |f: &ResolvedFile, e: &Endpoint| -> (String, u32, u8) {
        let path = |i: u32| f.paths.get(i as usize).cloned().unwrap_or_default();
        match *e {
            Endpoint::File(p) => (path(p), 0, 0),
            Endpoint::Symbol(p, s) => (path(p), s, 1),
            Endpoint::Package(p) => (path(p), 0, 2),
        }
    };
    let previous: FxHashMap<&str, &Arc<ResolvedFile>> = old.files.iter().map(|(p, f)| (&**p, f)).collect();
    let mut revised = 0u64;
    for (path, now) in &new.files {
        let Some(before) = previous.get(&**path) else { continue };
        if Arc::ptr_eq(before, now) || !unedited(path) {
            continue;
        }
        let tiers: FxHashMap<_, _> = before
            .edges
            .iter()
            .map(|e| ((end(before, &e.from), end(before, &e.to), e.kind, e.line), e.origin))
            .collect();
        revised += now
            .edges
            .iter()
            .filter(|e| {
                tiers
                    .get(&(end(now, &e.from), end(now, &e.to), e.kind, e.line))
                    .is_some_and(|&origin| origin != e.origin)
            })
            .count() as u64;
    }
    revised
}
