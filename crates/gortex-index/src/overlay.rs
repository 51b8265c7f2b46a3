//! Overlay views: a repository's index as it would be with some files' content replaced, added
//! or deleted — unsaved editor buffers, a speculative edit — built beside the base index and
//! never touching it.
//!
//! [`RepoIndex::overlay_view`] re-extracts the overlaid files from their buffers (admitted by
//! the same rules as the walker's: an ignored path is not indexed, a symlink is refused) and
//! rebuilds the graph from the base's files with those replaced, reusing the base's per-file
//! resolutions for every file the change cannot affect (`gortex-graph`'s dependency keys) and
//! resolving the rest again. The view is an ordinary `RepoIndex`, so every query, analysis and
//! source read (through [`Sources`], which answers overlaid paths from the buffers) sees the
//! overlay with no code of its own; a view equals a clean index of the base tree with the
//! buffers written (`tests/overlay.rs`). The base's graph and caches are only read.
//!
//! Cost: the view owns a graph of its own, as large as the base's (nodes are built again; the
//! base's lookup tables are not taken, since the base keeps them for its next edit), plus search
//! indexes built on first use. `BENCHMARKS.md` reports the push latency and memory per view.

use crate::{
    diff_records, now_ms, parse_content, walk, FileRecord, IndexError, IndexReport, Outcome, RepoIndex, Skipped,
    CONFIG_FILES,
};
use gortex_core::{Language, OverlayFiles, Sources};
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
    /// Files whose references were resolved again for the view.
    pub resolved_files: usize,
    pub nodes: usize,
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
        let mut normalised = OverlayFiles::new();
        for (raw, content) in overlay {
            normalised.insert(self.repo_relative(raw)?, content.clone());
        }
        let overlay = Arc::new(normalised);
        let options = self.options.clone();
        let mut admission = walk::Admission::new(&self.root, &options.walk_options());
        let mut build = OverlayBuild {
            base_indexed_at_ms: self.indexed_at_ms,
            ..Default::default()
        };
        let mut files = self.files.clone();
        let mut skipped = self.skipped.clone();
        let mut failures = self.failures.clone();
        let mut config_touched = false;
        for (rel, content) in overlay.iter() {
            skipped.retain(|s| s.path != *rel);
            failures.retain(|f| f.path != *rel);
            config_touched |= CONFIG_FILES.contains(&rel.rsplit('/').next().unwrap_or(rel));
            let at = files.binary_search_by(|r| (*r.path).cmp(rel.as_str()));
            let record: Option<FileRecord> = match content {
                None => {
                    build.deleted.push(rel.clone());
                    None
                }
                Some(bytes) => {
                    match at {
                        Ok(_) => build.replaced.push(rel.clone()),
                        Err(_) => build.added.push(rel.clone()),
                    }
                    self.overlay_record(rel, bytes, &mut admission, &mut build, &mut skipped, &mut failures)
                }
            };
            match (at, record) {
                (Ok(i), Some(r)) => files[i] = r,
                (Err(i), Some(r)) => files.insert(i, r),
                (Ok(i), None) => {
                    files.remove(i);
                }
                (Err(_), None) => {}
            }
        }
        skipped.sort_by(|a, b| a.path.cmp(&b.path));
        let changes = diff_records(&self.files, &files);
        let mut view = RepoIndex {
            name: self.name.clone(),
            root: self.root.clone(),
            files,
            skipped,
            failures,
            config: self.config.clone(),
            config_files: self.config_files.clone(),
            skipped_stats: Vec::new(),
            graph: Arc::new(gortex_graph::Graph::default()),
            // The base's resolutions, shared; its kept lookup tables stay with it (a clone of the
            // cache holds none), so the base's next edit still finds them.
            resolution: self.resolution.clone(),
            indexed_at_ms: self.indexed_at_ms,
            snapshot_path: self.snapshot_path.clone(),
            options: options.clone(),
            search: Default::default(),
            analysis: Default::default(),
            provisional: false,
            overlay: Some(overlay.clone()),
        };
        if config_touched {
            view.reread_configs(overlay.keys().map(String::as_str), &mut admission);
        }
        let pool = crate::build_pool(options.threads)?;
        let mut report = IndexReport::default();
        view.rebuild_graph(&pool, &|_| {}, &mut report, &changes, false);
        build.resolved_files = report.files.resolved;
        build.nodes = view.graph.nodes.len();
        build.edges = view.graph.edges.len();
        build.wall_ms = started.elapsed().as_millis() as u64;
        Ok((view, build))
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
