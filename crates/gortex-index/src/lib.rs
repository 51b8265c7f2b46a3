//! gortex-index: turns a repository on disk into a graph, keeps it current, and persists it.
//!
//! [`RepoIndex::open`] loads the repository's snapshot (when valid), walks the tree, re-parses
//! only files whose content changed (in parallel on a pool of its own), resolves, and saves a
//! new snapshot atomically. [`RepoIndex::update_paths`] does the same for a known set of paths.
//!
//! Stages: walk and admission (`walk.rs`, `classify.rs`), parse and extract (`gortex-lang`),
//! build and resolve (`gortex-graph`), persist (`snapshot.rs`); queries (`query.rs`) and
//! analyses (`analyze.rs`) read the result.
//!
//! # Watcher batches
//!
//! A watcher's batch goes through [`RepoIndex::apply_changes`]: `update_paths` on just those
//! paths, each admitted or refused by [`walk::Admission`] exactly as the walker would (built-in
//! excluded directories, exclude patterns, `.gortexignore` > `.ignore` > `.gitignore` >
//! `.git/info/exclude` > global excludes, deepest file first, an excluded directory excluding
//! everything below; `tests/watch_batches.rs` compares it with the walk), or a whole `refresh`
//! when the batch holds an ignore file or a path that is or was a directory (a created, moved or
//! deleted folder reports only itself). A batch whose content did not change (events on ignored
//! files, a save without changes) leaves the graph as it is.
//!
//! `update_paths` does not rewrite the snapshot (updates come in bursts; a stale snapshot is
//! always safe because the next open re-parses what changed). [`RepoIndex::save_snapshot`]
//! (`Engine.persist`) writes it on demand; `open`/`refresh` write it when anything changed,
//! unless told not to (`persist: false`): watcher passes defer it to 30 s after the last change
//! and to close (`ts/workspace/embedded.ts`), since a pass's snapshot write costs hundreds of
//! milliseconds on a large repository.
//!
//! # Caches kept for editing
//!
//! A repository that will be edited (`IndexOptions::keep_build_caches`, `keepBuildCaches` from
//! JavaScript: what a watched embedded or daemon repository asks) keeps the resolver's lookup
//! tables between builds (`gortex-graph`'s `resolve/kept.rs`): an opening pass frees them before
//! assembly and builds them again at its end (the report's `resolve.keep_tables` phase), so the
//! first edit does not pay for them, and a cold open is read back from its snapshot
//! (`RepoIndex::relayout`, the `relayout` phase; see `gortex-graph`'s `build.rs`).
//! They are a cache of tens of megabytes: [`RepoIndex::release_build_caches`]
//! (`Engine.releaseBuildCaches`, which also has mimalloc return freed pages) drops them, and an
//! embedded or daemon repository calls it 10 minutes after its last re-index. Such a repository
//! also compiles its languages' queries in the background (`gortex_lang::prepare`): a warm open
//! parses nothing, and its first edit paid ≈ 80 ms for TypeScript's.
//!
//! The report says how each build went: `graph_layout` (`assembled`, `patched`, `shifted`, or
//! `carried` when files changed but none of their facts: the graph is not built again),
//! `lookup_tables` (`built`, `kept`, `patched`, or `unneeded` when nothing changed since the
//! resolutions it reuses were made: a warm open of an unchanged tree) and `phases_ms`, which splits `resolve` into
//! `resolve.nodes`, `resolve.tables`, `resolve.refs` and `resolve.assemble`.
//!
//! # Speed notes
//!
//! - Parsing runs on the index's own rayon pool, largest files first (one big file started last
//!   would idle the other workers); results are put back in path order.
//! - A warm open walks the tree while the snapshot loads (one pool thread walks, the others decode
//!   its sections and take the rest when the walk is done), and an unchanged tree's build makes
//!   no lookup tables and resolves nothing: Kubernetes 0.82–0.97 s → 0.49–0.58 s on 2 threads.
//! - Graph builds run per file in parallel (nodes, resolution, path-space → index conversion);
//!   only package and external-stub creation and the final adjacency are serial.
//! - Name-only lookups stop counting at 16 candidates (`gortex-graph`'s `resolve/cascade.rs`), so
//!   common names in large test corpora do not make every lookup linear in the repository.

pub mod analyze;
mod classify;
pub mod concurrency;
pub mod coverage_reports;
pub mod cross_repo;
pub mod dbt;
pub mod errors;
pub mod events;
pub mod flags;
pub mod history;
mod import_for;
pub mod infra;
pub mod inspect;
pub mod loaded_repos;
pub mod memory;
pub mod named;
pub mod overlay;
mod read;
mod rebuild;
mod status;
mod sweep;
pub mod unsafe_code;
use read::{
    diff_records, parse_content, place_record, process_file, read_config, read_path, Outcome, PathState, PreviousFiles,
};
pub use status::{status, Staleness, StatusReport};
pub mod query;
pub mod review;
pub mod search_ast;
pub mod semantic;
pub mod snapshot;
pub mod sql_sites;
pub mod strings;
pub mod walk;
pub mod warmup;

use gortex_core::{FileFacts, Language, OverlayFiles};
use gortex_graph::{ChangedFile, Graph, RepoConfig, ResolutionCache};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub use loaded_repos::{LoadedRepos, SharedIndex};
pub use snapshot::SnapshotError;
pub use walk::{CONFIG_FILES, DEFAULT_EXCLUDED_DIRS};
pub use warmup::{ParseSink, SinkProgress};

/// Why a file was left out of the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    TooLarge,
    Binary,
    Minified,
    Generated,
    Unreadable,
    Symlink,
    SymlinkLoop,
    /// An ignore file honoured only in part (cut to the walk's caps, invalid patterns).
    IgnoreFilePartial,
    /// The syntax tree or the declarations nest deeper than the per-file limits
    /// ([`gortex_lang::MAX_TREE_DEPTH`], [`gortex_lang::MAX_SYMBOL_DEPTH`]).
    TooDeep,
    /// The tree's shape would make extraction quadratic ([`gortex_lang::MAX_QUERY_SCAN`]).
    TooComplex,
    /// Parsing and extraction took longer than [`IndexOptions::parse_budget`].
    OverBudget,
}

impl SkipReason {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::TooLarge => "too_large",
            SkipReason::Binary => "binary",
            SkipReason::Minified => "minified",
            SkipReason::Generated => "generated",
            SkipReason::Unreadable => "unreadable",
            SkipReason::Symlink => "symlink",
            SkipReason::SymlinkLoop => "symlink_loop",
            SkipReason::IgnoreFilePartial => "ignore_file_partial",
            SkipReason::TooDeep => "too_deep",
            SkipReason::TooComplex => "too_complex",
            SkipReason::OverBudget => "over_budget",
        }
    }

    /// The reason a per-file limit refused a file, or `None` for a failure that is no limit.
    fn of_extract_error(error: &gortex_lang::ExtractError) -> Option<SkipReason> {
        use gortex_lang::ExtractError as E;
        match error {
            E::TooDeep { .. } | E::SymbolsTooDeep { .. } => Some(SkipReason::TooDeep),
            E::TooComplex { .. } => Some(SkipReason::TooComplex),
            E::Timeout(_) => Some(SkipReason::OverBudget),
            E::LanguageDisabled(_) | E::NoTree | E::Grammar(_) => None,
        }
    }
}

/// A file left out, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub path: String,
    pub reason: SkipReason,
    pub detail: Option<String>,
}

/// A file that could not be parsed (extractor panic, grammar error); reported, never fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub path: String,
    pub error: String,
}

/// A parsed source file as persisted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    /// Repository-relative path; shared with every build's `SourceFile` (so builds compare
    /// paths by address first).
    pub path: Arc<str>,
    pub language: Language,
    pub size: u64,
    pub mtime_ns: u64,
    /// xxh3 of the content.
    pub hash: u64,
    pub facts: Arc<FileFacts>,
}

/// Indexing settings.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    /// Repository prefix for ids; defaults to the root directory's name.
    pub name: Option<String>,
    /// `GORTEX_HOME`: snapshots live in `<home>/snapshots/`.
    pub home: PathBuf,
    /// Parse threads (0 = available parallelism).
    pub threads: usize,
    pub max_file_size: u64,
    pub excluded_dirs: Vec<String>,
    /// Gitignore-style patterns relative to the root (`.gortex.yaml` `exclude`); see [`IndexOptions::check`].
    pub exclude: Vec<String>,
    pub respect_gitignore: bool,
    /// Parse files that announce they are generated (`Code generated … DO NOT EDIT`).
    pub index_generated: bool,
    /// Most time one file may take to parse and extract (a smaller file gets less:
    /// `gortex_lang::budget::time_budget`); a file over its time is skipped (`over_budget`).
    pub parse_budget: Duration,
    /// Ignore the snapshot and parse everything.
    pub force: bool,
    /// Write the snapshot after indexing.
    pub persist: bool,
    /// The repository will be edited (a watcher follows it): a pass that built the resolver's
    /// lookup tables without keeping them (opening, a bulk change) builds them again at its end,
    /// so the next edit's pass does not (tens of megabytes, see [`RepoIndex::release_build_caches`]).
    pub keep_build_caches: bool,
}

impl IndexOptions {
    /// The walker's share of these options.
    pub fn walk_options(&self) -> walk::WalkOptions {
        walk::WalkOptions {
            excluded_dirs: self.excluded_dirs.clone(),
            exclude: self.exclude.clone(),
            max_file_size: self.max_file_size,
            respect_gitignore: self.respect_gitignore,
        }
    }

    /// Checks what the walk cannot report itself: every `exclude` pattern must parse.
    pub fn check(&self, root: &Path) -> Result<(), String> {
        walk::exclude_matcher(root, &self.exclude).map(|_| ())
    }

    /// Defaults: 4 MiB file cap (large enough for hand-written giants such as TypeScript's checker.ts), built-in excludes, gitignore honoured, snapshots persisted.
    pub fn new(home: PathBuf) -> IndexOptions {
        IndexOptions {
            name: None,
            home,
            threads: 0,
            max_file_size: 4 * 1024 * 1024,
            excluded_dirs: DEFAULT_EXCLUDED_DIRS.iter().map(|s| s.to_string()).collect(),
            exclude: Vec::new(),
            respect_gitignore: true,
            index_generated: false,
            parse_budget: gortex_lang::DEFAULT_PARSE_BUDGET,
            force: false,
            persist: true,
            keep_build_caches: false,
        }
    }
}

/// A progress notification.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Progress {
    pub phase: &'static str,
    pub done: usize,
    pub total: usize,
}

/// Why indexing stopped.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("repository root {path} is not a readable directory: {detail}")]
    Root { path: PathBuf, detail: String },
    #[error("indexing was cancelled")]
    Cancelled,
    #[error("could not start the parse pool: {0}")]
    Pool(String),
    #[error("path {path:?} is outside the repository {root} (give paths relative to the repository root)")]
    OutsideRepo { path: String, root: PathBuf },
    #[error("could not write the snapshot {path}: {source}")]
    Save { path: PathBuf, source: std::io::Error },
    #[error("{path} is not an indexed file of this repository (find_files lists them)")]
    NotIndexed { path: String },
}

/// Counts of files handled by one pass.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileCounts {
    pub total: usize,
    pub parsed: usize,
    pub reused: usize,
    pub deleted: usize,
    /// Files whose references were resolved (the rest reused their previous resolution).
    pub resolved: usize,
}

/// Per-language totals.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LanguageCount {
    pub files: usize,
    pub bytes: u64,
}

/// Node totals.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NodeCounts {
    pub total: usize,
    pub by_kind: BTreeMap<String, usize>,
}

/// Edge totals.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EdgeCounts {
    pub total: usize,
    pub by_kind: BTreeMap<String, usize>,
    pub by_origin: BTreeMap<String, usize>,
    pub unresolved: usize,
}

/// What happened to the snapshot.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SnapshotInfo {
    pub path: String,
    pub loaded: bool,
    pub rebuilt_reason: Option<String>,
    pub bytes: u64,
}

/// The summary of an index pass.
#[derive(Debug, Clone, Default, Serialize)]
pub struct IndexReport {
    pub repo: String,
    pub root: String,
    /// `cold` (no usable snapshot), `incremental` (some files re-parsed) or `unchanged`.
    pub mode: String,
    pub snapshot: SnapshotInfo,
    pub files: FileCounts,
    pub languages: BTreeMap<String, LanguageCount>,
    pub nodes: NodeCounts,
    pub edges: EdgeCounts,
    pub skipped: Vec<Skipped>,
    pub skipped_by_reason: BTreeMap<String, usize>,
    pub failures: Vec<Failure>,
    pub syntax_error_files: usize,
    pub wall_ms: u64,
    pub phases_ms: BTreeMap<String, u64>,
    /// How the graph was put together: `assembled` from scratch, `patched` in place, `shifted`
    /// (renumbered, then patched), `carried` (the previous graph as a new version: files changed
    /// but none of their facts); empty when no graph was built.
    pub graph_layout: String,
    /// How the resolver's lookup tables were made: `built`, `kept` (no interface changed),
    /// `patched` (the changed files' entries replaced) or `unneeded` (nothing changed since the
    /// reused resolutions were made); empty when no graph was built.
    pub lookup_tables: String,
    pub threads: usize,
}

/// A repository's index: per-file facts (the source of truth) and the graph derived from them.
#[derive(Debug)]
pub struct RepoIndex {
    pub name: String,
    pub root: PathBuf,
    pub files: Vec<FileRecord>,
    pub skipped: Vec<Skipped>,
    pub failures: Vec<Failure>,
    pub config: RepoConfig,
    config_files: Vec<(String, u64)>,
    skipped_stats: Vec<(String, u64, u64)>,
    pub graph: Arc<Graph>,
    /// Path-space resolutions of the current graph, reused by the next build.
    resolution: Option<ResolutionCache>,
    pub indexed_at_ms: u64,
    pub snapshot_path: PathBuf,
    /// The options of the last pass that walked the tree (what decides which files belong):
    /// callers that re-read single paths without options of their own reuse them.
    pub options: IndexOptions,
    /// Search indexes derived from `graph`, built lazily by the first query that needs them.
    search: query::SearchCaches,
    /// Analysis state (clone index, …) derived from `graph`, built lazily.
    analysis: analyze::AnalysisCaches,
    /// Git history mined for the history tools and joined with `graph`, built lazily.
    history: history::HistoryCache,
    /// Built from part of a pass under way (see [`warmup`]): answers, but is never saved.
    provisional: bool,
    /// For an overlay view (see [`overlay`]): the unsaved buffers it was built with, read in
    /// place of the disk; such an index is never saved either.
    overlay: Option<Arc<OverlayFiles>>,
    /// Language-server answers per file, with the content hash they were made for (see
    /// [`semantic`]); the builder applies them while the file keeps that content.
    semantic: std::collections::HashMap<Arc<str>, (u64, Arc<FileFacts>, Arc<gortex_graph::semantic::SemanticSites>)>,
    /// Edges whose provenance tier changed while their identity (ends, kind, line) stayed, in
    /// files resolved again without being edited (a dependency changed, a language server
    /// answered), since this index was opened (see [`rebuild::provenance_revisions`]).
    pub edge_identity_revisions: u64,
}

impl RepoIndex {
    /// The record of the indexed file at `path` (repository-relative).
    pub(crate) fn file_record(&self, path: &str) -> Option<&FileRecord> {
        self.files
            .binary_search_by(|r| (*r.path).cmp(path))
            .ok()
            .map(|at| &self.files[at])
    }
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// The snapshot file for a repository root: `<home>/snapshots/<name>-<hash of root>.snap`.
pub fn snapshot_path(home: &Path, name: &str, root: &Path) -> PathBuf {
    let hash = xxhash_rust::xxh3::xxh3_64(root.to_string_lossy().as_bytes());
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    home.join("snapshots").join(format!("{safe}-{:08x}.snap", hash as u32))
}

/// Canonical root and repository name for a path.
pub fn resolve_root(root: &Path, name: Option<&str>) -> Result<(PathBuf, String), IndexError> {
    let canonical = std::fs::canonicalize(root).map_err(|e| IndexError::Root {
        path: root.to_path_buf(),
        detail: e.to_string(),
    })?;
    if !canonical.is_dir() {
        return Err(IndexError::Root {
            path: root.to_path_buf(),
            detail: "not a directory".into(),
        });
    }
    let name = match name {
        Some(n) if !n.trim().is_empty() => n.trim().to_string(),
        _ => canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "repo".into()),
    };
    Ok((canonical, name))
}

/// Test-file naming conventions per language.
pub fn is_test_file(path: &str, language: Language) -> bool {
    gortex_core::language::is_test_path(path, Some(language))
}

/// The per-file pause of the slow-parse test hook (`GORTEX_TEST_HOOKS=1`,
/// `GORTEX_TEST_PARSE_DELAY_MS=ms`), so tests can watch a pass while it is under way; zero otherwise.
fn test_parse_delay() -> Duration {
    if std::env::var("GORTEX_TEST_HOOKS").as_deref() != Ok("1") {
        return Duration::ZERO;
    }
    let ms = std::env::var("GORTEX_TEST_PARSE_DELAY_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    Duration::from_millis(ms)
}

fn build_pool(threads: usize) -> Result<rayon::ThreadPool, IndexError> {
    let n = if threads == 0 {
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
    } else {
        threads
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("gortex-parse-{i}"))
        // Deeply nested sources are handled iteratively, but leave headroom for grammar code.
        .stack_size(16 * 1024 * 1024)
        .build()
        .map_err(|e| IndexError::Pool(e.to_string()))
}

impl RepoIndex {
    /// Indexes the repository at `root`: loads its snapshot when valid, re-parses what changed,
    /// resolves, and (with `options.persist`) saves a new snapshot.
    pub fn open(
        root: &Path,
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: &AtomicBool,
    ) -> Result<(RepoIndex, IndexReport), IndexError> {
        RepoIndex::open_with_sink(root, options, progress, cancel, None)
    }

    /// [`RepoIndex::open`] that also hands every file it reads to `sink`, so a provisional
    /// index can answer while the pass is still under way (see [`warmup`]).
    pub fn open_with_sink(
        root: &Path,
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: &AtomicBool,
        sink: Option<&ParseSink>,
    ) -> Result<(RepoIndex, IndexReport), IndexError> {
        let started = Instant::now();
        let (root, name) = resolve_root(root, options.name.as_deref())?;
        let snap_path = snapshot_path(&options.home, &name, &root);
        if let Some(dir) = snap_path.parent() {
            snapshot::remove_orphaned_temps(dir);
        }
        let mut report = IndexReport {
            repo: name.clone(),
            root: root.display().to_string(),
            ..Default::default()
        };
        report.snapshot.path = snap_path.display().to_string();
        progress(Progress {
            phase: "load",
            done: 0,
            total: 1,
        });
        let pool = build_pool(options.threads)?;
        // The walk needs nothing from the snapshot: it runs beside the load (one thread walks,
        // the others decode sections, and take the rest of them when the walk is done).
        let (loaded, walked) = pool.join(
            || {
                let t = Instant::now();
                (!options.force).then(|| (snapshot::load(&snap_path), t.elapsed()))
            },
            || {
                let t = Instant::now();
                (walk::walk(&root, &options.walk_options()), t.elapsed())
            },
        );
        report.phases_ms.insert("walk".into(), walked.1.as_millis() as u64);
        let previous = match loaded {
            None => {
                report.snapshot.rebuilt_reason = Some("forced full re-index".into());
                None
            }
            Some((loaded, took)) => {
                report.phases_ms.insert("load".into(), took.as_millis() as u64);
                match loaded {
                    Ok((data, bytes)) if data.root == root.display().to_string() => {
                        report.snapshot.loaded = true;
                        report.snapshot.bytes = bytes;
                        Some(data)
                    }
                    Ok(_) => {
                        report.snapshot.rebuilt_reason = Some("snapshot belongs to another root".into());
                        None
                    }
                    Err(SnapshotError::Missing(_)) => None,
                    Err(e) => {
                        report.snapshot.rebuilt_reason = Some(format!("{e}; rebuilding"));
                        None
                    }
                }
            }
        };
        let mut index = RepoIndex::empty(name, root, snap_path, options, false);
        let cold = previous.is_none();
        if let Some(data) = previous {
            index.files = data.files;
            index.skipped_stats = data.skipped_stats;
            index.config_files = data.config_files;
            index.resolution = data.resolution;
            // Content-skipped files (generated, minified, binary) with unchanged stats are not re-read.
            index.skipped = data.skipped;
        }
        // A cold index for editing is read back once built (see `relayout`), which builds the
        // tables kept for the first edit: the pass itself need not.
        let read_back = cold && options.keep_build_caches && options.persist;
        let keep_tables = options.keep_build_caches && !read_back;
        index.refresh_inner(
            &pool,
            Some(walked.0),
            options,
            progress,
            cancel,
            &mut report,
            sink,
            keep_tables,
        )?;
        if cold {
            report.mode = "cold".into();
        }
        if read_back {
            let t = Instant::now();
            index.relayout(options, progress, &mut report)?;
            report
                .phases_ms
                .insert("relayout".into(), t.elapsed().as_millis() as u64);
        }
        if options.keep_build_caches {
            // A repository that will be edited: its languages' queries are compiled now, in the
            // background, rather than by its first edit (a warm open parses nothing).
            let mut languages: Vec<Language> = index.files.iter().map(|r| r.language).collect();
            languages.sort_unstable();
            languages.dedup();
            std::thread::spawn(move || languages.into_iter().for_each(gortex_lang::prepare));
        }
        report.wall_ms = started.elapsed().as_millis() as u64;
        Ok((index, report))
    }

    /// Replaces a cold-built repository's per-file data by the snapshot it just wrote, read
    /// back, and assembles the graph again from it (resolving nothing), as a warm open would.
    /// A cold pass leaves every file's facts and resolution wherever its parse and resolve
    /// threads happened to allocate them, between freed syntax trees; every later watcher pass
    /// walks all of them (refcounts, lengths, paths), and scattered that costs a page miss per
    /// file (TypeScript's tree: a pass ≈ 97 ms cold-built against ≈ 79 ms read back). Only for
    /// repositories that will be edited (`keep_build_caches`). Should the snapshot not read back
    /// the same files, the graph is assembled again from the data as built. Either way the tables
    /// kept for the next build are made here (`resolve.keep_tables` in `report`).
    fn relayout(
        &mut self,
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        report: &mut IndexReport,
    ) -> Result<(), IndexError> {
        let pool = build_pool(options.threads)?;
        // The graph is derived: dropped first, so the old and new copies never coexist.
        self.graph = Arc::new(Graph::default());
        let reread = pool
            .install(|| snapshot::load(&self.snapshot_path))
            .ok()
            .map(|(data, _)| data)
            .filter(|data| {
                data.files.len() == self.files.len()
                    && data
                        .files
                        .iter()
                        .zip(&self.files)
                        .all(|(a, b)| a.path == b.path && a.hash == b.hash && a.language == b.language)
                    && data.resolution.is_some()
            });
        if let Some(data) = reread {
            self.files = data.files;
            self.resolution = data.resolution;
        }
        let mut scratch = IndexReport::default();
        self.rebuild_graph(&pool, progress, &mut scratch, &[], options.keep_build_caches);
        if let Some(ms) = scratch.phases_ms.get("resolve.keep_tables") {
            report.phases_ms.insert("resolve.keep_tables".into(), *ms);
        }
        Ok(())
    }

    /// An index holding nothing yet, to be filled by a pass (or, `provisional`, from a sink).
    fn empty(
        name: String,
        root: PathBuf,
        snapshot_path: PathBuf,
        options: &IndexOptions,
        provisional: bool,
    ) -> RepoIndex {
        RepoIndex {
            name,
            root,
            files: Vec::new(),
            skipped: Vec::new(),
            failures: Vec::new(),
            config: RepoConfig::default(),
            config_files: Vec::new(),
            skipped_stats: Vec::new(),
            graph: Arc::new(Graph::default()),
            resolution: None,
            indexed_at_ms: 0,
            snapshot_path,
            options: options.clone(),
            search: Default::default(),
            analysis: Default::default(),
            history: Default::default(),
            provisional,
            overlay: None,
            semantic: Default::default(),
            edge_identity_revisions: 0,
        }
    }

    /// Re-walks the tree and re-parses what changed since the last pass (the index stays usable
    /// when this fails).
    pub fn refresh(
        &mut self,
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: &AtomicBool,
    ) -> Result<IndexReport, IndexError> {
        let started = Instant::now();
        let mut report = IndexReport {
            repo: self.name.clone(),
            root: self.root.display().to_string(),
            ..Default::default()
        };
        report.snapshot.path = self.snapshot_path.display().to_string();
        report.snapshot.loaded = true;
        let pool = build_pool(options.threads)?;
        self.refresh_inner(
            &pool,
            None,
            options,
            progress,
            cancel,
            &mut report,
            None,
            options.keep_build_caches,
        )?;
        report.wall_ms = started.elapsed().as_millis() as u64;
        Ok(report)
    }

    /// A pass over the tree: walks it (unless `walked`, a walk made just now, is given),
    /// re-parses what changed since the files held, and rebuilds or carries the graph.
    #[allow(clippy::too_many_arguments)]
    fn refresh_inner(
        &mut self,
        pool: &rayon::ThreadPool,
        walked: Option<walk::WalkResult>,
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: &AtomicBool,
        report: &mut IndexReport,
        sink: Option<&ParseSink>,
        keep_tables: bool,
    ) -> Result<(), IndexError> {
        self.options = options.clone();
        report.threads = pool.current_num_threads();
        progress(Progress {
            phase: "walk",
            done: 0,
            total: 0,
        });
        let walked = walked.unwrap_or_else(|| {
            let t = Instant::now();
            let walk_options = options.walk_options();
            let walked = pool.install(|| walk::walk(&self.root, &walk_options));
            report.phases_ms.insert("walk".into(), t.elapsed().as_millis() as u64);
            walked
        });
        if cancel.load(Ordering::Relaxed) {
            return Err(IndexError::Cancelled);
        }
        let (config, config_files) = read_config(&self.sources(), &walked.configs);
        if let Some(sink) = sink {
            sink.walked(&config, &config_files, walked.sources.len());
        }
        let parse_delay = test_parse_delay();

        let t = Instant::now();
        let total = walked.sources.len();
        let done = AtomicUsize::new(0);
        progress(Progress {
            phase: "parse",
            done: 0,
            total,
        });
        let outcomes: Vec<Outcome> = {
            let prev = PreviousFiles {
                records: self.files.iter().map(|r| (&*r.path, r)).collect(),
                skipped: self
                    .skipped_stats
                    .iter()
                    .map(|(p, s, m)| (p.as_str(), (*s, *m)))
                    .collect(),
            };
            let previous_skips: HashMap<&str, &Skipped> = self.skipped.iter().map(|s| (s.path.as_str(), s)).collect();
            let step = (total / 200).max(16);
            // Largest files first: one big file started last would leave the other workers idle.
            let mut order: Vec<usize> = (0..walked.sources.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(walked.sources[i].size));
            pool.install(|| {
                order
                    .par_iter()
                    .map(|&i| (i, &walked.sources[i]))
                    .map(|(i, cand)| {
                        if cancel.load(Ordering::Relaxed) {
                            return None;
                        }
                        let outcome = match (
                            prev.skipped.get(cand.rel.as_str()),
                            previous_skips.get(cand.rel.as_str()),
                        ) {
                            (Some(&(size, mtime)), Some(skip)) if size == cand.size && mtime == cand.mtime_ns => {
                                Outcome::Skipped((*skip).clone(), Some((size, mtime)))
                            }
                            _ => process_file(cand, &prev, options),
                        };
                        if let (Some(sink), Outcome::Parsed(record) | Outcome::Reused(record)) = (sink, &outcome) {
                            sink.push(record);
                        }
                        if !parse_delay.is_zero() {
                            std::thread::sleep(parse_delay);
                        }
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if n.is_multiple_of(step) || n == total {
                            progress(Progress {
                                phase: "parse",
                                done: n,
                                total,
                            });
                        }
                        Some((i, outcome))
                    })
                    .collect::<Option<Vec<(usize, Outcome)>>>()
                    .map(|mut v| {
                        // Back to path order: everything downstream relies on it.
                        v.sort_unstable_by_key(|(i, _)| *i);
                        v.into_iter().map(|(_, o)| o).collect::<Vec<Outcome>>()
                    })
            })
            .ok_or(IndexError::Cancelled)?
        };
        report.phases_ms.insert("parse".into(), t.elapsed().as_millis() as u64);
        if let Some(sink) = sink {
            sink.parsed_all();
        }

        let mut files = Vec::with_capacity(outcomes.len());
        let mut skipped = walked.skipped;
        let mut skipped_stats = Vec::new();
        let mut failures = Vec::new();
        for outcome in outcomes {
            match outcome {
                Outcome::Reused(r) => {
                    report.files.reused += 1;
                    files.push(r);
                }
                Outcome::Parsed(r) => {
                    report.files.parsed += 1;
                    files.push(r);
                }
                Outcome::Skipped(s, stat) => {
                    if let Some((size, mtime)) = stat {
                        skipped_stats.push((s.path.clone(), size, mtime));
                    }
                    skipped.push(s);
                }
                Outcome::Failed(f) => failures.push(f),
            }
        }
        let current: std::collections::HashSet<&str> = files.iter().map(|r| &*r.path).collect();
        // `self.files` is still the previous pass's list here.
        report.files.deleted = self.files.iter().filter(|r| !current.contains(&*r.path)).count();
        let changes = diff_records(&self.files, &files);
        report.files.total = files.len();
        let config_changed = config_files != self.config_files;
        let changed = report.files.parsed > 0 || report.files.deleted > 0 || config_changed;
        self.files = files;
        self.skipped = skipped;
        self.skipped_stats = skipped_stats;
        self.failures = failures;
        self.config = config;
        self.config_files = config_files;
        report.mode = if changed {
            "incremental".into()
        } else {
            "unchanged".into()
        };
        let same_inputs = changes.is_empty() && report.files.deleted == 0 && !config_changed;
        if !(same_inputs && self.carry_graph_over(pool, report)) {
            self.rebuild_graph(pool, progress, report, &changes, keep_tables);
        }
        if options.persist && (changed || !report.snapshot.loaded) {
            self.save(progress, report)?;
        }
        self.fill_report(pool, report);
        Ok(())
    }

    /// Applies a file watcher's batch of repo-relative paths: [`RepoIndex::update_paths`] when
    /// each path can be judged alone, else a whole [`RepoIndex::refresh`] — when an ignore file
    /// changed (what is admitted changed anywhere) or a path is, or was, a directory (a created,
    /// moved or deleted folder reports only itself). Never writes the snapshot.
    pub fn apply_changes(
        &mut self,
        paths: &[String],
        options: &IndexOptions,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: &AtomicBool,
    ) -> Result<IndexReport, IndexError> {
        let rels: Vec<String> = paths
            .iter()
            .map(|raw| self.repo_relative(raw))
            .collect::<Result<_, _>>()?;
        let whole = rels.iter().any(|rel| {
            let name = rel.rsplit('/').next().unwrap_or(rel);
            walk::IGNORE_FILES.contains(&name) || self.root.join(rel).is_dir() || self.has_files_under(rel)
        });
        if whole {
            let mut options = options.clone();
            options.persist = false;
            return self.refresh(&options, progress, cancel);
        }
        self.update_paths(&rels, options)
    }

    /// Whether indexed or skipped files sit below the directory `rel`.
    fn has_files_under(&self, rel: &str) -> bool {
        let prefix = format!("{rel}/");
        let at = self.files.partition_point(|r| &*r.path < prefix.as_str());
        self.files.get(at).is_some_and(|r| r.path.starts_with(&prefix))
            || self.skipped.iter().any(|s| s.path.starts_with(&prefix))
    }

    /// Re-reads the given repo-relative paths (changed, added or deleted) and rebuilds. Does not
    /// write the snapshot (see [`RepoIndex::save_snapshot`]).
    pub fn update_paths(&mut self, paths: &[String], options: &IndexOptions) -> Result<IndexReport, IndexError> {
        let started = Instant::now();
        let mut report = IndexReport {
            repo: self.name.clone(),
            root: self.root.display().to_string(),
            mode: "incremental".into(),
            ..Default::default()
        };
        report.snapshot.path = self.snapshot_path.display().to_string();
        report.snapshot.loaded = true;
        let pool = build_pool(options.threads)?;
        report.threads = pool.current_num_threads();
        // Validate every path before touching any state: a bad one fails the whole call.
        let paths: Vec<String> = paths
            .iter()
            .map(|raw| self.repo_relative(raw))
            .collect::<Result<_, _>>()?;
        // Only the given paths can change: each is diffed and replaced in the sorted file list
        // where it stands (copying or re-hashing every record cost milliseconds per thousand files).
        let mut paths = paths;
        paths.sort();
        paths.dedup();
        let mut changes: Vec<ChangedFile> = Vec::new();
        let mut same_content = true;
        let mut config_touched = false;
        let noop = |_: Progress| {};
        let mut admission = walk::Admission::new(&self.root, &options.walk_options());
        for rel in &paths {
            self.skipped.retain(|s| s.path != *rel);
            self.failures.retain(|f| f.path != *rel);
            self.skipped_stats.retain(|(p, _, _)| p != rel);
            if CONFIG_FILES.contains(&rel.rsplit('/').next().unwrap_or(rel)) {
                config_touched = true;
            }
            let at = self.files.binary_search_by(|r| (*r.path).cmp(rel));
            let old = at.ok().map(|i| &self.files[i]);
            let record = match read_path(&self.root, rel, old, options, &pool, &mut admission) {
                PathState::Unsupported => continue,
                PathState::Gone => {
                    if old.is_some() {
                        report.files.deleted += 1;
                    }
                    None
                }
                PathState::Refused(skipped) => {
                    // Several paths below one link name the same link once.
                    if !self.skipped.iter().any(|s| s.path == skipped.path) {
                        self.skipped.push(skipped);
                    }
                    None
                }
                PathState::Read(Outcome::Reused(r)) => {
                    report.files.reused += 1;
                    Some(r)
                }
                PathState::Read(Outcome::Parsed(r)) => {
                    report.files.parsed += 1;
                    Some(r)
                }
                PathState::Read(Outcome::Skipped(skipped, stat)) => {
                    if let Some((size, mtime)) = stat {
                        self.skipped_stats.push((skipped.path.clone(), size, mtime));
                    }
                    self.skipped.push(skipped);
                    None
                }
                PathState::Read(Outcome::Failed(failure)) => {
                    self.failures.push(failure);
                    None
                }
            };
            // What the previous build used, for the graph builder's diff.
            match (old, &record) {
                (Some(o), Some(r)) => {
                    same_content &= o.hash == r.hash;
                    // Same facts (e.g. only a comment changed at the end): nothing to re-resolve.
                    if !(o.language == r.language && (o.hash == r.hash || o.facts == r.facts)) {
                        changes.push(ChangedFile {
                            path: rel.clone(),
                            old: Some(o.facts.clone()),
                        });
                    }
                }
                (None, Some(_)) => {
                    same_content = false;
                    changes.push(ChangedFile {
                        path: rel.clone(),
                        old: None,
                    });
                }
                (Some(o), None) => {
                    same_content = false;
                    changes.push(ChangedFile {
                        path: rel.clone(),
                        old: Some(o.facts.clone()),
                    });
                }
                (None, None) => {}
            }
            place_record(&mut self.files, at, record);
        }
        report.files.total = self.files.len();
        if config_touched {
            self.reread_configs(paths.iter().map(String::as_str), &mut admission);
        }
        self.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        // Events on ignored files or saves that changed no byte: the graph stands as it is. (Any
        // changed content takes a new graph version, which is what re-syncs the text index.)
        let same_facts = changes.is_empty() && !config_touched;
        if same_facts && same_content {
            report.mode = "unchanged".into();
        } else if !(same_facts && self.carry_graph_over(&pool, &mut report)) {
            self.rebuild_graph(&pool, &noop, &mut report, &changes, options.keep_build_caches);
        }
        // No snapshot write here: updates arrive in bursts (editors, watchers) and a stale
        // snapshot is always safe (the next open re-parses what changed). Callers persist with
        // `save_snapshot` when convenient.
        self.fill_report(&pool, &mut report);
        report.wall_ms = started.elapsed().as_millis() as u64;
        Ok(report)
    }

    /// Reads the configuration files again (the known ones and those among `touched` the walker
    /// would admit: one below a symlink or an ignored directory is not the walk's either).
    fn reread_configs<'a>(&mut self, touched: impl Iterator<Item = &'a str>, admission: &mut walk::Admission) {
        let configs: Vec<String> = self
            .config_files
            .iter()
            .map(|(p, _)| p.clone())
            .chain(
                touched
                    .filter(|p| CONFIG_FILES.contains(&p.rsplit('/').next().unwrap_or(p)))
                    .filter(|p| admission.admits(p))
                    .map(str::to_string),
            )
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let (config, hashes) = read_config(&self.sources(), &configs);
        self.config = config;
        self.config_files = hashes;
    }

    /// A path given by a caller as repository-relative (`/`-separated, normalised); absolute
    /// paths inside the root are accepted, anything that leaves the repository is refused.
    fn repo_relative(&self, raw: &str) -> Result<String, IndexError> {
        let outside = || IndexError::OutsideRepo {
            path: raw.to_string(),
            root: self.root.clone(),
        };
        let path = Path::new(raw);
        let rel = if path.is_absolute() {
            let stripped = path.strip_prefix(&self.root).map_err(|_| outside())?;
            stripped.to_string_lossy().replace('\\', "/")
        } else {
            raw.replace('\\', "/")
        };
        match gortex_graph::config::join_path("", &rel) {
            Some(normalised) if !normalised.is_empty() => Ok(normalised),
            _ => Err(outside()),
        }
    }

    /// Writes the snapshot now (atomically). Returns its size in bytes.
    pub fn save_snapshot(&self) -> Result<u64, IndexError> {
        let mut report = IndexReport::default();
        self.save(&|_| {}, &mut report)?;
        Ok(report.snapshot.bytes)
    }

    fn save(&self, progress: &(dyn Fn(Progress) + Sync), report: &mut IndexReport) -> Result<(), IndexError> {
        if self.provisional || self.overlay.is_some() {
            // Part of a pass under way (that pass writes the complete snapshot), or a view of
            // unsaved buffers (never the repository's state).
            return Ok(());
        }
        let t = Instant::now();
        progress(Progress {
            phase: "save",
            done: 0,
            total: 1,
        });
        let root = self.root.display().to_string();
        let data = snapshot::SnapshotRef {
            extractor: gortex_lang::EXTRACTOR_FINGERPRINT,
            repo: &self.name,
            root: &root,
            indexed_at_ms: self.indexed_at_ms,
            files: &self.files,
            skipped: &self.skipped,
            failures: &self.failures,
            config: &self.config,
            config_files: &self.config_files,
            skipped_stats: &self.skipped_stats,
            resolution: self.resolution.as_ref(),
        };
        let bytes = snapshot::save(&self.snapshot_path, &data).map_err(|e| IndexError::Save {
            path: self.snapshot_path.clone(),
            source: e,
        })?;
        report.snapshot.bytes = bytes;
        report.phases_ms.insert("save".into(), t.elapsed().as_millis() as u64);
        progress(Progress {
            phase: "save",
            done: 1,
            total: 1,
        });
        Ok(())
    }

    fn fill_report(&self, pool: &rayon::ThreadPool, report: &mut IndexReport) {
        // Counted by the kinds themselves, named once at the end: a string made or hashed per
        // file, node and edge cost tens of milliseconds per watcher pass on a large repository.
        // The three scans (files, nodes, edges: hundreds of thousands each) run side by side.
        type Languages = rustc_hash::FxHashMap<Language, (usize, u64)>;
        let g = &self.graph;
        let count_files = || {
            let mut languages = Languages::default();
            let mut syntax_error_files = 0;
            for r in &self.files {
                let entry = languages.entry(r.language).or_default();
                entry.0 += 1;
                entry.1 += r.size;
                syntax_error_files += usize::from(r.facts.syntax_errors > 0);
            }
            (languages, syntax_error_files)
        };
        let count_nodes = || {
            let mut nodes = [0usize; 256];
            for n in g.nodes() {
                nodes[n.kind as usize] += 1;
            }
            nodes
        };
        let count_edges = || {
            let (mut kinds, mut origins) = ([0usize; 256], [0usize; 256]);
            for e in g.edges() {
                kinds[e.kind as usize] += 1;
                origins[e.origin as usize] += 1;
            }
            (kinds, origins)
        };
        let ((languages, syntax_error_files), (nodes, (kinds, origins))) =
            pool.install(|| rayon::join(count_files, || rayon::join(count_nodes, count_edges)));
        report.syntax_error_files += syntax_error_files;
        for (language, (files, bytes)) in languages {
            let entry = report.languages.entry(language.as_str().to_string()).or_default();
            entry.files += files;
            entry.bytes += bytes;
        }
        report.nodes.total = g.live_node_count();
        let named = |counts: &[usize; 256], all: &mut dyn Iterator<Item = (usize, &'static str)>| {
            all.filter(|(i, _)| counts[*i] > 0)
                .map(|(i, name)| (name.to_string(), counts[i]))
                .collect()
        };
        report.nodes.by_kind = named(
            &nodes,
            &mut gortex_core::NodeKind::ALL.iter().map(|k| (*k as usize, k.as_str())),
        );
        report.edges.total = g.edge_count();
        report.edges.by_kind = named(
            &kinds,
            &mut gortex_core::EdgeKind::ALL.iter().map(|k| (*k as usize, k.as_str())),
        );
        report.edges.by_origin = named(
            &origins,
            &mut gortex_core::Origin::ALL.iter().map(|k| (*k as usize, k.as_str())),
        );
        report.edges.unresolved = g.unresolved_count();
        report.skipped = self.skipped.clone();
        report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        report.skipped_by_reason.clear();
        for s in &self.skipped {
            *report
                .skipped_by_reason
                .entry(s.reason.as_str().to_string())
                .or_default() += 1;
        }
        report.failures = self.failures.clone();
    }
}
