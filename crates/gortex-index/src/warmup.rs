//! Answers while a repository warms up: a pass that opens a repository hands every file it has
//! read to a [`ParseSink`], and [`RepoIndex::provisional`] turns what the sink holds into a usable
//! (partial) index long before the pass has parsed everything.
//!
//! A provisional index resolves only among the files read so far: references into files not yet
//! read are missing or unresolved. It is never saved; the pass under way writes the real snapshot.

use crate::{build_pool, diff_records, FileRecord, IndexError, IndexOptions, IndexReport, RepoIndex};
use gortex_graph::RepoConfig;
use std::path::Path;
use std::sync::Mutex;

/// Files an opening pass has read so far, shared with whoever builds a provisional index.
#[derive(Debug, Default)]
pub struct ParseSink {
    state: Mutex<SinkState>,
}

#[derive(Debug, Default)]
struct SinkState {
    /// Set once the walk is done: the config it found and how many source files it admitted.
    walked: Option<Walked>,
    records: Vec<FileRecord>,
    parsed_all: bool,
}

#[derive(Debug, Clone)]
struct Walked {
    config: RepoConfig,
    config_files: Vec<(String, u64)>,
    total: usize,
}

/// How far the pass feeding a sink has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkProgress {
    /// The walk is done (`total` is known).
    pub walked: bool,
    /// Files read (parsed, or reused from the snapshot) so far.
    pub read: usize,
    /// Source files the walk admitted.
    pub total: usize,
    /// Every admitted file has been read: the pass is resolving or saving.
    pub parsed_all: bool,
}

impl ParseSink {
    /// How far the pass has come.
    pub fn progress(&self) -> SinkProgress {
        let state = self.lock();
        SinkProgress {
            walked: state.walked.is_some(),
            read: state.records.len(),
            total: state.walked.as_ref().map_or(0, |w| w.total),
            parsed_all: state.parsed_all,
        }
    }

    pub(crate) fn walked(&self, config: &RepoConfig, config_files: &[(String, u64)], total: usize) {
        let mut state = self.lock();
        state.walked = Some(Walked {
            config: config.clone(),
            config_files: config_files.to_vec(),
            total,
        });
        state.records.reserve(total);
    }

    pub(crate) fn push(&self, record: &FileRecord) {
        // A path, a few integers and a reference count: the facts themselves are shared.
        self.lock().records.push(record.clone());
    }

    pub(crate) fn parsed_all(&self) {
        self.lock().parsed_all = true;
    }

    /// The records read so far (in path order) with the walk's config, once the walk is done.
    fn copy(&self) -> Option<(Walked, Vec<FileRecord>)> {
        let (walked, mut records) = {
            let state = self.lock();
            (state.walked.clone()?, state.records.clone())
        };
        records.sort_unstable_by(|a, b| a.path.cmp(&b.path));
        Some((walked, records))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SinkState> {
        // A panicking worker cannot leave the list half-written (push is one call): keep going.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Whether a provisional index covering `covered` files is worth rebuilding now that `read` of
/// `total` have been read. Rebuilds are geometric: the next waits until the files read have doubled, or until half of
/// the files still missing at the last build have arrived (parsing is largest-first, so most files
/// are read early and the last few giants late). A warm-up then rebuilds O(log files) times.
pub fn worth_rebuilding(covered: usize, read: usize, total: usize) -> bool {
    let new = read.saturating_sub(covered);
    new > 0 && (new >= covered || 2 * new >= total.saturating_sub(covered))
}

impl RepoIndex {
    /// A provisional index of the files `sink` holds so far, or `None` while the walk is still
    /// under way. It answers queries like any index but is never saved.
    pub fn provisional(root: &Path, options: &IndexOptions, sink: &ParseSink) -> Result<Option<RepoIndex>, IndexError> {
        let (root, name) = crate::resolve_root(root, options.name.as_deref())?;
        let Some((walked, records)) = sink.copy() else {
            return Ok(None);
        };
        let snapshot_path = crate::snapshot_path(&options.home, &name, &root);
        let mut index = RepoIndex::empty(name, root, snapshot_path, options, true);
        index.config = walked.config;
        index.config_files = walked.config_files;
        index.absorb(records)?;
        Ok(Some(index))
    }

    /// Whether this index is a provisional one (see [`RepoIndex::provisional`]).
    pub fn is_provisional(&self) -> bool {
        self.provisional
    }

    fn absorb(&mut self, records: Vec<FileRecord>) -> Result<(), IndexError> {
        let changes = diff_records(&[], &records);
        self.files = records;
        // One thread: the pass it runs beside keeps the other cores busy parsing.
        let pool = build_pool(1)?;
        let mut report = IndexReport::default();
        // Provisional: replaced by the pass's own index, never edited.
        self.rebuild_graph(&pool, &|_| {}, &mut report, &changes, false);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn fixture() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/fixtures/resolver/ts")
    }

    fn options(home: &Path) -> IndexOptions {
        let mut o = IndexOptions::new(home.to_path_buf());
        o.threads = 2;
        o
    }

    #[test]
    fn rebuilds_are_geometric_in_what_was_read_and_in_what_is_missing() {
        assert!(!worth_rebuilding(10, 10, 100), "nothing new");
        assert!(!worth_rebuilding(10, 15, 1000));
        assert!(worth_rebuilding(10, 20, 1000), "doubled");
        assert!(!worth_rebuilding(450, 500, 586), "a few of the 136 missing");
        assert!(worth_rebuilding(450, 518, 586), "half of the missing arrived");
        assert!(worth_rebuilding(585, 586, 586), "the last one");
    }

    #[test]
    fn an_opening_pass_feeds_its_sink_every_file_it_reads() {
        let home = tempfile::tempdir().unwrap();
        let sink = ParseSink::default();
        assert!(!sink.progress().walked);
        let (index, _) = RepoIndex::open_with_sink(
            &fixture(),
            &options(home.path()),
            &|_| {},
            &AtomicBool::new(false),
            Some(&sink),
        )
        .unwrap();
        let progress = sink.progress();
        assert!(progress.walked && progress.parsed_all);
        assert_eq!((progress.read, progress.total), (index.files.len(), index.files.len()));
        assert!(!index.is_provisional());
    }

    #[test]
    fn a_provisional_index_answers_for_what_was_read_and_equals_the_complete_one_once_all_is_read() {
        let home = tempfile::tempdir().unwrap();
        let opts = options(home.path());
        let (complete, _) = RepoIndex::open(&fixture(), &opts, &|_| {}, &AtomicBool::new(false)).unwrap();
        std::fs::remove_file(&complete.snapshot_path).unwrap();
        let files = complete.files.clone();
        assert!(files.len() >= 6, "the fixture has enough files to split");

        let sink = ParseSink::default();
        assert!(
            RepoIndex::provisional(&fixture(), &opts, &sink).unwrap().is_none(),
            "nothing before the walk"
        );
        sink.walked(&complete.config, &complete.config_files, files.len());
        // Largest-first parsing reads files out of path order: feed every other one, reversed.
        let (first, rest): (Vec<_>, Vec<_>) = files.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        for (_, record) in first.iter().rev() {
            sink.push(record);
        }
        let partial = RepoIndex::provisional(&fixture(), &opts, &sink)
            .unwrap()
            .expect("walked");
        assert!(partial.is_provisional());
        assert_eq!(partial.files.len(), first.len());
        assert!(partial.files.windows(2).all(|w| w[0].path < w[1].path), "path order");
        let read: std::collections::HashSet<&str> = first.iter().map(|(_, r)| &*r.path).collect();
        for node in partial.graph.nodes() {
            let path: &str = &node.path;
            assert!(
                path.is_empty() || read.contains(path),
                "{} comes from a file not read yet",
                node.id
            );
        }
        assert!(partial.graph.node_count() < complete.graph.node_count());

        // Never saved: the pass under way writes the real snapshot.
        assert_eq!(partial.save_snapshot().unwrap(), 0);
        assert!(!partial.snapshot_path.exists());

        for (_, record) in &rest {
            sink.push(record);
        }
        let whole = RepoIndex::provisional(&fixture(), &opts, &sink)
            .unwrap()
            .expect("walked");
        assert_eq!(whole.graph.canonical_dump(), complete.graph.canonical_dump());
    }
}
