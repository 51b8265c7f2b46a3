//! Overlay views: a repository's index as it would be with some files' content replaced, added
//! or deleted — unsaved editor buffers, a speculative edit — built beside the base index and
//! never touching it.
//!
//! [`RepoIndex::overlay_view`] re-extracts the overlaid files from their buffers (admitted by
//! the same rules as the walker's: an ignored path is not indexed, a symlink is refused) and
//! resolves again the files the change can affect (`gortex-graph`'s dependency keys), reusing the
//! base's resolutions for the rest. The view is an ordinary `RepoIndex`, so every query, analysis
//! and source read (through [`Sources`], which answers overlaid paths from the buffers) sees the
//! overlay with no code of its own; a view equals a clean index of the base tree with the
//! buffers written (`tests/overlay.rs`). The base's graph and caches are only read.
//!
//! Cost: the view's graph is a layer over the base's (`gortex_graph::build_graph_layered`): it
//! holds the overlaid files' nodes and the edges of the nodes whose edges changed, and reads
//! everything else from the base's storage, so it costs what its files cost. A push to a live
//! view updates its layer the same way ([`RepoIndex::overlay_update`]). A configuration change
//! (every file resolved again) makes a flat graph instead (`OverlayBuild::flat_because`). What
//! still grows with the repository: the resolver's lookup tables a view builds on its first
//! push (kept for its next ones) and its symbol index, built on its first search.
//! `BENCHMARKS.md` reports both.

use crate::{
    now_ms, parse_content, walk, FileRecord, IndexError, IndexReport, Outcome, RepoIndex, Skipped, CONFIG_FILES,
};
use gortex_core::{Language, OverlayFiles, Sources};
use gortex_graph::{ChangedFile, ResolutionCache};
use std::sync::Arc;
use std::time::Instant;

/// An overlaid path the view does not index, and why.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NotIndexed {
    pub path: String,
    /// `unsupported`, `ignored`, or a skip reason of the index (`too_large`, `generated`, …).
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl NotIndexed {
    fn new(path: &str, reason: &str, detail: impl Into<String>) -> NotIndexed {
        NotIndexed {
            path: path.to_string(),
            reason: reason.to_string(),
            detail: Some(detail.into()),
        }
    }

    fn skipped(s: &Skipped) -> NotIndexed {
        NotIndexed {
            path: s.path.clone(),
            reason: s.reason.as_str().to_string(),
            detail: s.detail.clone(),
        }
    }
}

/// How an overlay view was built.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct OverlayBuild {
    /// Overlaid paths whose buffer replaced an indexed file.
    pub replaced: Vec<String>,
    /// Overlaid paths the base did not index (new files).
    pub added: Vec<String>,
    /// Overlaid paths deleted in the view.
    pub deleted: Vec<String>,
    /// Overlaid paths the view does not index, with the reason (unsupported language, ignored,
    /// over a per-file limit, generated, …); their buffers still answer source reads.
    pub not_indexed: Vec<NotIndexed>,
    /// `built` (a new view from the base) or `updated` (a live view brought to new buffers).
    pub mode: String,
    /// Files whose references were resolved again for the view.
    pub resolved_files: usize,
    /// How the graph was put together: `layered` (a layer over the base's graph, holding what
    /// the overlay changes), else a flat graph (`assembled`, `patched`, `shifted`); empty:
    /// unchanged.
    pub graph_layout: String,
    /// Why the view's graph is flat rather than layered, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flat_because: Option<String>,
    /// Where the time went (the index report's `resolve.*` phases).
    pub phases_ms: std::collections::BTreeMap<String, u64>,
    pub nodes: usize,
    /// Nodes the view holds itself (a layered view's changed and added ones; all of a flat
    /// one's): what its memory follows.
    pub owned_nodes: usize,
    pub edges: usize,
    /// When the base index the view was built on was last brought up to date (epoch ms).
    pub base_indexed_at_ms: u64,
    pub wall_ms: u64,
}

impl RepoIndex {
    /// The sources this index reads files through: the disk under its root, or for an overlay
    /// view the buffers over it.
    pub fn sources(&self) -> Sources {
        match &self.overlay {
            Some(files) => Sources::with_overlay(&self.root, files.clone()),
            None => Sources::disk(&self.root),
        }
    }

    /// The buffers this index was built with, when it is an overlay view.
    pub fn overlay_files(&self) -> Option<&Arc<OverlayFiles>> {
        self.overlay.as_ref()
    }

    /// A view of this index with `overlay`'s files replaced, added (`Some(bytes)`) or deleted
    /// (`None`). Paths are repository-relative or absolute inside the root; one that leaves the
    /// repository fails the whole call. `self` is only read.
    pub fn overlay_view(&self, overlay: &OverlayFiles) -> Result<(RepoIndex, OverlayBuild), IndexError> {
        let started = Instant::now();
        // Views share the base's kept lookup tables: a base that keeps none (one not being
        // edited) builds them once, for every view after, rather than each view its own.
        let tables_kept = self
            .resolution
            .as_ref()
            .filter(|c| !c.kept_tables.is_filled())
            .map(|c| c.keep_tables(&self.source_files(), &self.config));
        let tables_ms = started.elapsed().as_millis() as u64;
        let mut view = RepoIndex {
            name: self.name.clone(),
            root: self.root.clone(),
            files: self.files.clone(),
            skipped: self.skipped.clone(),
            failures: self.failures.clone(),
            config: self.config.clone(),
            config_files: self.config_files.clone(),
            skipped_stats: Vec::new(),
            // The base's graph itself until the first change: the build then puts a layer over
            // it (`gortex_graph::build_graph_layered`) holding only what the overlay changes.
            graph: Arc::clone(&self.graph),
            // The base's resolutions and kept lookup tables, shared (the base's next edit still
            // finds its own; whichever changes shared maps first copies them).
            resolution: self.resolution.as_ref().map(ResolutionCache::sharing_tables),
            indexed_at_ms: self.indexed_at_ms,
            snapshot_path: self.snapshot_path.clone(),
            options: self.options.clone(),
            search: crate::query::SearchCaches::seeded_from(&self.search),
            analysis: Default::default(),
            history: Default::default(),
            provisional: false,
            overlay: Some(Arc::new(OverlayFiles::new())),
            semantic: self.semantic.clone(),
            edge_identity_revisions: 0,
        };
        let mut build = view.overlay_update(self, overlay)?;
        build.mode = "built".into();
        if tables_kept == Some(true) {
            build.phases_ms.insert("base_tables".into(), tables_ms);
        }
        build.wall_ms = started.elapsed().as_millis() as u64;
        Ok((view, build))
    }

    /// Brings this overlay view, built on `base`, to the buffers of `overlay` (the whole set, not
    /// a delta): only the paths whose buffer changed, appeared or went (back to `base`'s file) are
    /// read again, and the view's graph is updated as a watcher pass updates a repository's
    /// (patched in place when no declaration moved) — a push to a live view costs what an edit
    /// costs, not what a view costs.
    pub fn overlay_update(&mut self, base: &RepoIndex, overlay: &OverlayFiles) -> Result<OverlayBuild, IndexError> {
        let started = Instant::now();
        let mut next = OverlayFiles::new();
        for (raw, content) in overlay {
            next.insert(base.repo_relative(raw)?, content.clone());
        }
        let previous = self.overlay.clone().unwrap_or_default();
        let mut build = OverlayBuild {
            mode: "updated".into(),
            base_indexed_at_ms: base.indexed_at_ms,
            ..Default::default()
        };
        for (rel, content) in &next {
            let indexed = base.files.binary_search_by(|r| (*r.path).cmp(rel.as_str())).is_ok();
            match content {
                None => build.deleted.push(rel.clone()),
                Some(_) if indexed => build.replaced.push(rel.clone()),
                Some(_) => build.added.push(rel.clone()),
            }
        }
        let same = |a: Option<&Option<Arc<[u8]>>>, b: Option<&Option<Arc<[u8]>>>| match (a, b) {
            (Some(Some(x)), Some(Some(y))) => x[..] == y[..],
            (Some(None), Some(None)) | (None, None) => true,
            _ => false,
        };
        let touched: std::collections::BTreeSet<String> = previous
            .keys()
            .chain(next.keys())
            .filter(|rel| !same(previous.get(*rel), next.get(*rel)))
            .cloned()
            .collect();
        let mut admission = walk::Admission::new(&self.root, &self.options.walk_options());
        let (mut skipped, mut failures) = (std::mem::take(&mut self.skipped), std::mem::take(&mut self.failures));
        let mut changes: Vec<ChangedFile> = Vec::new();
        let mut config_touched = false;
        for rel in &touched {
            skipped.retain(|s| s.path != *rel);
            failures.retain(|f| f.path != *rel);
            config_touched |= CONFIG_FILES.contains(&rel.rsplit('/').next().unwrap_or(rel));
            let record: Option<FileRecord> = match next.get(rel) {
                Some(Some(bytes)) => {
                    self.overlay_record(rel, bytes, &mut admission, &mut build, &mut skipped, &mut failures)
                }
                Some(None) => None,
                // Out of the overlay: the file is the base's again, as the base judged it.
                None => {
                    skipped.extend(base.skipped.iter().filter(|s| s.path == *rel).cloned());
                    failures.extend(base.failures.iter().filter(|f| f.path == *rel).cloned());
                    base.files
                        .binary_search_by(|r| (*r.path).cmp(rel.as_str()))
                        .ok()
                        .map(|i| base.files[i].clone())
                }
            };
            let at = self.files.binary_search_by(|r| (*r.path).cmp(rel.as_str()));
            let old = at.ok().map(|i| &self.files[i]);
            match (old, &record) {
                // Same facts (a comment, a blank line): nothing to resolve again.
                (Some(o), Some(r)) if o.language == r.language && (o.hash == r.hash || o.facts == r.facts) => {}
                (None, None) => {}
                (old, _) => changes.push(ChangedFile {
                    path: rel.to_string(),
                    old: old.map(|o| o.facts.clone()),
                }),
            }
            crate::place_record(&mut self.files, at, record);
        }
        skipped.sort_by(|a, b| a.path.cmp(&b.path));
        (self.skipped, self.failures) = (skipped, failures);
        self.overlay = Some(Arc::new(next));
        if config_touched {
            self.reread_configs(touched.iter().map(String::as_str), &mut admission);
        }
        let mut report = IndexReport::default();
        if !changes.is_empty() || config_touched {
            let pool = crate::build_pool(self.options.threads)?;
            let layered = match config_touched {
                true => Err("a configuration file changed".to_string()),
                false => pool.install(|| self.rebuild_layer(base, &changes, &mut report)),
            };
            if let Err(why) = layered {
                build.flat_because = Some(why);
                self.rebuild_graph(&pool, &|_| {}, &mut report, &changes, false);
            }
        }
        build.resolved_files = report.files.resolved;
        build.phases_ms = report.phases_ms;
        build.graph_layout = report.graph_layout;
        build.nodes = self.graph.live_node_count();
        build.owned_nodes = self.graph.own_node_count();
        build.edges = self.graph.edge_count();
        build.wall_ms = started.elapsed().as_millis() as u64;
        Ok(build)
    }

    /// Brings this view's graph to its files as a layer over `base`'s graph (what the overlay
    /// changes, over the base's storage): `false`, with nothing changed, when the view's graph is
    /// not the base's or a layer over it (an earlier change fell back to a flat graph) or the
    /// change is not one a layer takes exactly; the caller then builds a flat graph.
    fn rebuild_layer(
        &mut self,
        base: &RepoIndex,
        changes: &[ChangedFile],
        report: &mut IndexReport,
    ) -> Result<(), String> {
        let prior = if Arc::ptr_eq(&self.graph, &base.graph) {
            None
        } else if self.graph.is_layered() {
            Some(&*self.graph)
        } else {
            return Err("an earlier change made this view's graph flat".into());
        };
        let Some(cache) = self.resolution.as_ref() else {
            return Err("the base kept no resolutions".into());
        };
        let started = Instant::now();
        let sources = self.source_files();
        let input = gortex_graph::RepoInput {
            repo: &self.name,
            files: &sources,
            config: &self.config,
        };
        let previous = gortex_graph::Previous {
            cache,
            changed: changes,
            graph: None,
        };
        let (graph, cache, stats) = gortex_graph::build_graph_layered(&base.graph, prior, input, previous)?;
        crate::rebuild::note_build(report, &stats);
        report
            .phases_ms
            .insert("resolve".into(), started.elapsed().as_millis() as u64);
        self.resolution = Some(cache);
        self.graph = Arc::new(graph);
        self.indexed_at_ms = base.indexed_at_ms;
        Ok(())
    }

    /// The record of one overlaid buffer, or `None` (noted in `not_indexed`, and among the
    /// view's skipped or failed files as a pass would note it) when the walker would not index
    /// the path or its content is skipped.
    fn overlay_record(
        &self,
        rel: &str,
        bytes: &Arc<[u8]>,
        admission: &mut walk::Admission,
        build: &mut OverlayBuild,
        skipped: &mut Vec<Skipped>,
        failures: &mut Vec<crate::Failure>,
    ) -> Option<FileRecord> {
        let Some(language) = Language::from_path(rel).filter(|l| gortex_lang::supports(*l)) else {
            let note = NotIndexed::new(rel, "unsupported", "no supported language for this path");
            build.not_indexed.push(note);
            return None;
        };
        match admission.judge(rel) {
            walk::Verdict::Admitted => {}
            walk::Verdict::Refused => {
                let note = NotIndexed::new(rel, "ignored", "excluded or ignored: the walker does not index it");
                build.not_indexed.push(note);
                return None;
            }
            walk::Verdict::Symlink(link) => {
                build.not_indexed.push(NotIndexed::skipped(&link));
                skipped.push(link);
                return None;
            }
        }
        let cand = walk::Candidate {
            rel: rel.to_string(),
            abs: self.root.join(rel),
            language,
            size: bytes.len() as u64,
            mtime_ns: now_ms() * 1_000_000,
        };
        if cand.size > self.options.max_file_size {
            let s = Skipped {
                path: rel.to_string(),
                reason: crate::SkipReason::TooLarge,
                detail: Some(format!(
                    "{} bytes > cap {} bytes",
                    cand.size, self.options.max_file_size
                )),
            };
            build.not_indexed.push(NotIndexed::skipped(&s));
            skipped.push(s);
            return None;
        }
        match parse_content(&cand, bytes, xxhash_rust::xxh3::xxh3_64(bytes), &self.options) {
            Outcome::Parsed(r) | Outcome::Reused(r) => Some(r),
            Outcome::Skipped(s, _) => {
                build.not_indexed.push(NotIndexed::skipped(&s));
                skipped.push(s);
                None
            }
            Outcome::Failed(f) => {
                build.not_indexed.push(NotIndexed::new(rel, "failed", f.error.clone()));
                failures.push(f);
                None
            }
        }
    }
}
