//! gortex-native: the N-API binding. One `Engine` class holds every indexed repository in Rust;
//! TypeScript drives it with coarse calls whose large results cross as JSON strings.
//! Rust panics are caught here and become JavaScript errors.
//!
//! Only this crate knows napi: results cross as JSON strings, small options as objects, and
//! `cargo test` never links napi (this crate is not a default workspace member; see the root
//! `Cargo.toml`).
//!
//! The addon uses mimalloc (the build allocates millions of small strings); snapshots are
//! streamed on write and memory-mapped on read. Freed memory stays with the process for 30 s
//! (mimalloc v3's default is 1 s: every watcher pass more than a second after the last faulted
//! its working set in again, ≈ 40 ms a pass through the daemon on TypeScript's tree); an opening
//! pass and `releaseBuildCaches` return it to the OS at once. `MIMALLOC_PURGE_DELAY` overrides the
//! delay.

mod overlay;
mod regex_matcher;
mod sidecar;
mod warmup;
mod watch;

use gortex_core::QueryError;
use gortex_index::inspect::{self, EdgeFilter};
use gortex_index::{IndexOptions, IndexReport, LoadedRepos, Progress, RepoIndex, SharedIndex};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// mimalloc: the graph build allocates millions of small strings; glibc's allocator spent
/// close to half of a warm start faulting in freshly zeroed pages.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    /// mimalloc's own collection: frees empty pages and returns their memory to the OS.
    fn mi_collect(force: bool);
    /// Sets one of mimalloc's options (`mi_option_t`, a C enum).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in `mi_option_t` (the same position in mimalloc v2 and v3; the
/// `libmimalloc-sys` crate builds v3).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
/// How long freed memory stays with the process before mimalloc returns it to the OS. Its default
/// (1 s in v3) made every watcher pass that came more than a second after the last one fault its
/// working set in again: ≈ 40 ms of a pass through the daemon on TypeScript's tree. Bulk releases
/// (an opening pass, released build tables) still return memory at once (`return_memory_to_os`;
/// in v3 that collects the calling thread's heap and purges every arena).
const PURGE_DELAY_MS: std::ffi::c_long = 30_000;

/// Keeps freed memory for [`PURGE_DELAY_MS`], unless `MIMALLOC_PURGE_DELAY` says otherwise.
/// (Arena memory is committed on demand: `ts/engine/native.ts` sets `MIMALLOC_ARENA_EAGER_COMMIT=0`
/// before loading the addon, since mimalloc reads it when it reserves its first arena.)
fn keep_freed_memory() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let set = |name: &str| std::env::var_os(name).is_some();
        if !set("MIMALLOC_PURGE_DELAY") && !set("MIMALLOC_RESET_DELAY") {
            // SAFETY: setting an option is valid at any time; mimalloc is the global allocator.
            unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
        }
    });
}

/// Returns memory freed by a large release (kept build tables) to the OS now rather than when
/// mimalloc next gets round to it: a quiet repository should not keep the daemon's RSS up.
fn return_memory_to_os() {
    // SAFETY: mimalloc is the global allocator (above); collecting is valid at any time.
    unsafe { mi_collect(true) };
}

pub(crate) type Repos = Arc<Mutex<LoadedRepos>>;

/// Options for `new Engine()`.
#[napi(object)]
pub struct EngineOptions {
    /// GORTEX_HOME: where snapshots are kept (default `~/.gortex`).
    pub home: Option<String>,
    /// Parse threads (default: available parallelism or GORTEX_THREADS).
    pub threads: Option<u32>,
}

/// Options for `Engine.indexRepo`.
#[napi(object)]
pub struct IndexRepoOptions {
    /// Repository prefix used in ids (default: the directory name).
    pub name: Option<String>,
    /// Ignore the snapshot and parse every file.
    pub force: Option<bool>,
    /// Maximum file size in bytes (default 4 MiB).
    pub max_file_size: Option<u32>,
    /// Parse files marked as generated.
    pub index_generated: Option<bool>,
    /// More directory names never descended into (added to the built-in list).
    pub exclude_dirs: Option<Vec<String>>,
    /// Keep the built-in excluded directories (`node_modules`, `target`, `dist`, …); default true.
    pub default_excludes: Option<bool>,
    /// Gitignore-style patterns relative to the root to leave out (`.gortex.yaml` `exclude`).
    pub exclude: Option<Vec<String>>,
    /// Honour `.gitignore` files and git's excludes; default true.
    pub respect_gitignore: Option<bool>,
    /// Write the snapshot when the pass changed anything; default true. Watcher passes skip it
    /// (a stale snapshot is safe: the next open re-parses what changed) and persist later.
    pub persist: Option<bool>,
    /// The repository will be edited (a watcher follows it): keep the resolver's lookup tables
    /// ready for the next pass, also after opening and bulk changes; default false.
    pub keep_build_caches: Option<bool>,
    /// Repo-relative paths a file watcher saw change: when the repository is already indexed,
    /// only these are re-read (no walk), unless one is an ignore file or a directory, which
    /// takes a whole refresh. The snapshot is not written (as with `persist: false`).
    pub paths: Option<Vec<String>>,
}

pub(crate) fn to_napi_error(message: impl std::fmt::Display) -> Error {
    Error::new(Status::GenericFailure, message.to_string())
}

/// The inspection calls' errors: the message alone, without the `<code>: ` prefix `query` adds.
fn message_error(error: QueryError) -> Error {
    to_napi_error(error.message)
}

/// A result's JSON text, from its `serde_json::to_value`: a `Value`'s maps sort their keys, so
/// these answers keep the key order they (and every `query` answer) have always had on the wire.
fn sorted_json(value: serde_json::Result<Value>) -> Result<String> {
    value.map(|v| v.to_string()).map_err(to_napi_error)
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs `f`, turning a Rust panic into a JS error instead of aborting the process.
pub(crate) fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(to_napi_error(format!("internal error in {what}: {}", panic_message(p)))),
    }
}

fn default_home() -> PathBuf {
    if let Ok(h) = std::env::var("GORTEX_HOME") {
        if !h.is_empty() {
            return PathBuf::from(h);
        }
    }
    let base = std::env::var("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir());
    base.join(".gortex")
}

fn default_threads() -> usize {
    std::env::var("GORTEX_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// What tree-sitter makes of a file's bytes (`syntaxCheck`): the write tools' parse gate.
#[napi(object)]
pub struct SyntaxCheck {
    /// The language the file is read as; absent when it has no grammar here (no gate applies).
    pub language: Option<String>,
    /// `ERROR` and `MISSING` nodes in its syntax tree.
    pub errors: Option<u32>,
    /// Why the file is past a per-file limit (too deep, too costly, over time), when it is.
    pub over_limit: Option<String>,
}

/// Parses `source` as the file at `path` (repository-relative; its name picks the language) and
/// counts its syntax errors, without touching any index.
#[napi]
pub fn syntax_check(path: String, source: Buffer) -> Result<SyntaxCheck> {
    guarded("syntaxCheck", || {
        let none = SyntaxCheck {
            language: None,
            errors: None,
            over_limit: None,
        };
        match gortex_lang::syntax_errors(&path, &source) {
            Ok(Some((language, errors))) => Ok(SyntaxCheck {
                language: Some(language.to_string()),
                errors: Some(errors),
                over_limit: None,
            }),
            Ok(None) => Ok(none),
            Err(e) if e.is_over_limit() => Ok(SyntaxCheck {
                over_limit: Some(e.to_string()),
                ..none
            }),
            Err(e) => Err(to_napi_error(e)),
        }
    })
}

/// The declarations of `source` read as the file at `path`, as JSON: `[{local, qualified, name,
/// kind, start_line, end_line, exported}]` (`local` is what follows `<path>::` in the symbol's
/// node id), or `null` when the file has no grammar here or is past a per-file limit. No index is
/// involved: `detect_changes` outlines a file's old version from git with it.
#[napi]
pub fn outline(path: String, source: Buffer) -> Result<Option<String>> {
    guarded("outline", || {
        let Some(language) =
            gortex_core::Language::from_path(&path).map(|l| gortex_lang::refine_language(l, &path, &source))
        else {
            return Ok(None);
        };
        let ctx = gortex_lang::FileContext {
            path: &path,
            is_test_file: false,
        };
        let facts = match gortex_lang::extract_file(language, &source, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET) {
            Ok(facts) => facts,
            Err(e) if e.is_over_limit() => return Ok(None),
            Err(gortex_lang::ExtractError::LanguageDisabled(_)) => return Ok(None),
            Err(e) => return Err(to_napi_error(e)),
        };
        let rows: Vec<Value> = facts
            .symbols
            .iter()
            .zip(gortex_graph::local_ids(&facts))
            .map(|(s, (qualified, local))| {
                json!({
                    "local": local,
                    "qualified": qualified,
                    "name": s.name,
                    "kind": s.kind,
                    "start_line": s.span.start_line,
                    "end_line": s.span.end_line,
                    "exported": s.exported,
                })
            })
            .collect();
        serde_json::to_string(&rows).map(Some).map_err(to_napi_error)
    })
}

/// Syntax facts for the refactoring tools (`gortex_lang::refactor::refactor_facts`): `op` is
/// `imports`, `callable` (`{line}`), `calls` (`{name}`) or `names` (`{start, end}`), `args` a JSON
/// object; the answer is JSON. A file without refactoring support is an error naming the languages
/// that have it; a file past a per-file limit is that limit's error.
#[napi]
pub fn refactor_facts(path: String, source: Buffer, op: String, args: String) -> Result<String> {
    guarded("refactorFacts", || {
        let args: serde_json::Value = serde_json::from_str(&args).map_err(to_napi_error)?;
        let value = gortex_lang::refactor::refactor_facts(&path, &source, &op, &args).map_err(to_napi_error)?;
        serde_json::to_string(&value).map_err(to_napi_error)
    })
}

/// The code-intelligence engine: indexes repositories and answers graph lookups.
#[napi]
pub struct Engine {
    home: PathBuf,
    threads: usize,
    repos: Repos,
    cancel: Arc<AtomicBool>,
    /// One index pass at a time per engine: concurrent passes over one repository would parse
    /// twice and race on its snapshot.
    index_gate: Arc<Mutex<()>>,
    /// Repositories whose opening pass is under way (for provisional answers).
    warmups: warmup::Warmups,
    /// Overlay views by key (see `overlay.rs`).
    views: overlay::Views,
}

/// The background indexing job behind `indexRepo`.
/// The last payload `indexRepo` sends its progress callback: every event came before it (not JSON,
/// so no event can be mistaken for it).
pub const PROGRESS_END: &str = "end";

pub struct IndexTask {
    gate: Arc<Mutex<()>>,
    root: PathBuf,
    options: IndexOptions,
    paths: Option<Vec<String>>,
    repos: Repos,
    warmups: warmup::Warmups,
    cancel: Arc<AtomicBool>,
    progress: Option<Arc<ThreadsafeFunction<String>>>,
}

impl Task for IndexTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let progress = self.progress.clone();
        let notify = move |p: Progress| {
            if let Some(tsfn) = &progress {
                let payload = serde_json::to_string(&p).unwrap_or_default();
                tsfn.call(Ok(payload), ThreadsafeFunctionCallMode::NonBlocking);
            }
        };
        let root = self.root.clone();
        let options = self.options.clone();
        let repos = self.repos.clone();
        let cancel = self.cancel.clone();
        let gate = self.gate.clone();
        let warmups = self.warmups.clone();
        let paths = self.paths.take();
        let result = guarded("indexRepo", move || {
            let _pass = gate.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let (canonical, _) = gortex_index::resolve_root(&root, options.name.as_deref()).map_err(to_napi_error)?;
            options.check(&canonical).map_err(to_napi_error)?;
            let existing = repos
                .lock()
                .map_err(|_| to_napi_error("engine state poisoned"))?
                .at_root(&canonical)
                .cloned();
            let opening = existing.is_none() || options.force;
            let report: IndexReport = match existing {
                Some(index) if !options.force => {
                    let mut guard = index.write().map_err(|_| to_napi_error("repository state poisoned"))?;
                    match &paths {
                        Some(paths) => guard.apply_changes(paths, &options, &notify, &cancel),
                        None => guard.refresh(&options, &notify, &cancel),
                    }
                    .map_err(to_napi_error)?
                }
                Some(_) => {
                    // A forced re-index of a served repository: the old index answers until this ends.
                    let (index, report) =
                        RepoIndex::open(&canonical, &options, &notify, &cancel).map_err(to_napi_error)?;
                    repos
                        .lock()
                        .map_err(|_| to_napi_error("engine state poisoned"))?
                        .insert(canonical, Arc::new(RwLock::new(index)));
                    report
                }
                None => {
                    // While this pass opens the repository, `provisional` can serve what it has read.
                    let warm = Arc::new(warmup::Warmup::new(canonical.clone(), options.clone()));
                    lock_warmups(&warmups).insert(canonical.clone(), warm.clone());
                    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        RepoIndex::open_with_sink(&canonical, &options, &notify, &cancel, Some(&warm.sink))
                    }));
                    lock_warmups(&warmups).remove(&canonical);
                    match opened {
                        Ok(Ok((index, report))) => {
                            warm.finish(&repos, Some(Arc::new(RwLock::new(index))));
                            report
                        }
                        Ok(Err(error)) => {
                            warm.finish(&repos, None);
                            return Err(to_napi_error(error));
                        }
                        Err(panic) => {
                            warm.finish(&repos, None);
                            std::panic::resume_unwind(panic);
                        }
                    }
                }
            };
            if opening {
                // Parse trees, sources and the first build's scratch freed: not kept for later passes.
                return_memory_to_os();
            }
            serde_json::to_string(&report).map_err(to_napi_error)
        });
        // Calls reach JS in order, but the promise may settle before the queued ones are
        // delivered: a last call says "no more events", and the JS side waits for it.
        if let Some(tsfn) = &self.progress {
            tsfn.call(Ok(PROGRESS_END.to_string()), ThreadsafeFunctionCallMode::NonBlocking);
        }
        // Release the JS callback now so the event loop is not held open by it.
        self.progress = None;
        result
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// [`Engine::survey`]'s walk, off the JavaScript thread.
pub struct SurveyTask {
    root: PathBuf,
    options: IndexOptions,
}

impl Task for SurveyTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        guarded("survey", || {
            let walked = gortex_index::walk::walk(&self.root, &self.options.walk_options());
            let bytes: u64 = walked.sources.iter().map(|c| c.size).sum();
            Ok(serde_json::json!({ "files": walked.sources.len(), "bytes": bytes }).to_string())
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

#[napi]
impl Engine {
    /// Creates an engine. Nothing is indexed until `indexRepo` is called.
    #[napi(constructor)]
    pub fn new(options: Option<EngineOptions>) -> Self {
        keep_freed_memory();
        let home = options
            .as_ref()
            .and_then(|o| o.home.clone())
            .map(PathBuf::from)
            .unwrap_or_else(default_home);
        let threads = options
            .as_ref()
            .and_then(|o| o.threads)
            .map(|t| t as usize)
            .unwrap_or_else(default_threads);
        Engine {
            home,
            threads,
            repos: Arc::new(Mutex::new(LoadedRepos::default())),
            cancel: Arc::new(AtomicBool::new(false)),
            index_gate: Arc::new(Mutex::new(())),
            warmups: Arc::new(Mutex::new(HashMap::new())),
            views: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Indexes (or incrementally refreshes) the repository at `root` on a background pool.
    /// Resolves to the IndexReport as JSON. `onProgress` receives ProgressEvent JSON strings.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn index_repo(
        &self,
        root: String,
        options: Option<IndexRepoOptions>,
        on_progress: Option<ThreadsafeFunction<String>>,
    ) -> AsyncTask<IndexTask> {
        self.cancel.store(false, Ordering::SeqCst);
        let (opts, paths) = self.index_options(options);
        AsyncTask::new(IndexTask {
            gate: self.index_gate.clone(),
            root: PathBuf::from(root),
            options: opts,
            paths,
            repos: self.repos.clone(),
            warmups: self.warmups.clone(),
            cancel: self.cancel.clone(),
            progress: on_progress.map(Arc::new),
        })
    }

    /// The index options `indexRepo` (and `survey`) run with, and the changed paths it was given.
    fn index_options(&self, options: Option<IndexRepoOptions>) -> (IndexOptions, Option<Vec<String>>) {
        let mut opts = IndexOptions::new(self.home.clone());
        opts.threads = self.threads;
        let mut paths = None;
        if let Some(o) = options {
            paths = o.paths;
            opts.name = o.name;
            opts.force = o.force.unwrap_or(false);
            if let Some(m) = o.max_file_size {
                opts.max_file_size = m as u64;
            }
            opts.index_generated = o.index_generated.unwrap_or(false);
            if o.default_excludes == Some(false) {
                opts.excluded_dirs.clear();
            }
            for dir in o.exclude_dirs.unwrap_or_default() {
                let dir = dir.trim().trim_matches('/').to_string();
                if !dir.is_empty() && !opts.excluded_dirs.contains(&dir) {
                    opts.excluded_dirs.push(dir);
                }
            }
            opts.exclude = o.exclude.unwrap_or_default();
            if let Some(r) = o.respect_gitignore {
                opts.respect_gitignore = r;
            }
            if let Some(p) = o.persist {
                opts.persist = p;
            }
            opts.keep_build_caches = o.keep_build_caches.unwrap_or(false);
        }
        (opts, paths)
    }

    /// While `indexRepo` opens the repository at `root`, builds (or brings up to date) a
    /// provisional index of the files read so far and serves it under the repository's key until
    /// the pass publishes the complete one. Resolves to JSON: `{ available: true, files, read,
    /// total, parsed_all, nodes, edges, indexed_at_ms, rebuilt, build_ms, refreshing }`, or `{ available:
    /// false, reason }` with reason `not_warming`, `walking`, `parsing` (nothing read yet),
    /// `resolving` (everything read, no provisional index built) or `ready`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn provisional(&self, root: String) -> AsyncTask<warmup::ProvisionalTask> {
        AsyncTask::new(warmup::ProvisionalTask {
            root: PathBuf::from(root),
            repos: self.repos.clone(),
            warmups: self.warmups.clone(),
        })
    }

    /// Cancels an in-flight `indexRepo`; its promise rejects with "indexing was cancelled".
    #[napi]
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Re-reads the given repo-relative paths of an indexed repository (changed, added or
    /// deleted) and rebuilds its graph. Returns an IndexReport JSON. The snapshot is not
    /// rewritten (a stale snapshot is safe); call `persist` to write it.
    #[napi]
    pub fn update_files(&self, repo: String, paths: Vec<String>) -> Result<String> {
        guarded("updateFiles", || {
            let index = self.repo(&repo)?;
            let mut guard = index.write().map_err(|_| to_napi_error("repository state poisoned"))?;
            // The options the repository was indexed with decide which paths belong (excludes,
            // gitignore, size cap), as they did for the walk.
            let opts = guard.options.clone();
            let report = guard.update_paths(&paths, &opts).map_err(to_napi_error)?;
            serde_json::to_string(&report).map_err(to_napi_error)
        })
    }

    /// The call sites of one indexed file (`FileCallSites` JSON: path, content hash, sites with
    /// 1-based line, 0-based byte column, callee name), for the semantic-enrichment pass.
    #[napi]
    pub fn call_sites(&self, repo: String, path: String) -> Result<String> {
        guarded("callSites", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let sites = guard.call_sites(&path).map_err(to_napi_error)?;
            serde_json::to_string(&sites).map_err(to_napi_error)
        })
    }

    /// Applies language-server answers (`SemanticFile[]` JSON) to an indexed repository: their
    /// files are resolved again with them. Returns a `SemanticReport` JSON.
    #[napi]
    pub fn apply_semantic(&self, repo: String, files_json: String) -> Result<String> {
        guarded("applySemantic", || {
            let files: Vec<gortex_index::semantic::SemanticFile> = serde_json::from_str(&files_json)
                .map_err(|e| to_napi_error(format!("invalid semantic answers: {e}")))?;
            let index = self.repo(&repo)?;
            let mut guard = index.write().map_err(|_| to_napi_error("repository state poisoned"))?;
            let report = guard.apply_semantic(files).map_err(to_napi_error)?;
            serde_json::to_string(&report).map_err(to_napi_error)
        })
    }

    /// How the resolver's answers fared against the language servers' (`SemanticCounts` JSON).
    #[napi]
    pub fn semantic_counts(&self, repo: String) -> Result<String> {
        guarded("semanticCounts", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            serde_json::to_string(&guard.semantic_counts()).map_err(to_napi_error)
        })
    }

    /// Checks gitignore-style exclude patterns for `root`: the message naming the first invalid
    /// one, or null when all parse (config loaders call this to fail before indexing).
    #[napi]
    pub fn check_exclude(&self, root: String, patterns: Vec<String>) -> Option<String> {
        gortex_index::walk::exclude_matcher(Path::new(&root), &patterns).err()
    }

    /// Writes the repository's snapshot now (atomically); returns its size in bytes.
    #[napi]
    pub fn persist(&self, repo: String) -> Result<f64> {
        guarded("persist", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            guard.save_snapshot().map(|b| b as f64).map_err(to_napi_error)
        })
    }

    /// Frees what only the repository's next incremental build uses (the resolver's lookup
    /// tables kept from the last build) and hands freed memory back to the OS; for a repository
    /// that has gone quiet. Returns whether anything was held.
    #[napi]
    pub fn release_build_caches(&self, repo: String) -> Result<bool> {
        guarded("releaseBuildCaches", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let released = guard.release_build_caches();
            if released {
                return_memory_to_os();
            }
            Ok(released)
        })
    }

    /// The repository's heap bytes per structure (graph, facts, resolutions, search indexes):
    /// `MemoryReport` JSON.
    #[napi]
    pub fn memory_report(&self, repo: String) -> Result<String> {
        guarded("memoryReport", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            serde_json::to_string(&guard.memory_report()).map_err(to_napi_error)
        })
    }

    /// Drops every cache the repository can rebuild on demand (kept lookup tables, search
    /// indexes, analyses, dataflow, history in memory) and hands freed memory back to the OS;
    /// what a daemon does under its memory ceiling. Returns the sized bytes released, or -1 when a
    /// pass holds the repository (nothing was released).
    #[napi]
    pub fn release_caches(&self, repo: String) -> Result<f64> {
        guarded("releaseCaches", || {
            let index = self.repo(&repo)?;
            // A repository a pass is rebuilding (write lock) is skipped rather than waited for:
            // the caller runs on the JS thread, and the pass drops its old caches anyway.
            let Ok(guard) = index.try_read() else {
                return Ok(-1.0);
            };
            let released = guard.release_caches();
            return_memory_to_os();
            Ok(released as f64)
        })
    }

    /// Stops serving the repository at `root` and frees its index once no query holds it (a
    /// repository whose opening was stopped). Returns whether one was loaded there.
    #[napi]
    pub fn forget(&self, root: String) -> Result<bool> {
        guarded("forget", || {
            let canonical = std::fs::canonicalize(&root).unwrap_or_else(|_| PathBuf::from(&root));
            let removed = self
                .repos
                .lock()
                .map_err(|_| to_napi_error("engine state poisoned"))?
                .remove(&canonical);
            if removed {
                return_memory_to_os();
            }
            Ok(removed)
        })
    }

    /// Files and bytes the walker would index under `root` with `options` (its configuration's
    /// excludes and size cap; no parsing): what a daemon estimates a repository's memory from
    /// before tracking it. Walks on a worker thread (a large tree takes a second, which the
    /// daemon's event loop must not wait out); resolves to `{ files, bytes }` JSON.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn survey(&self, root: String, options: Option<IndexRepoOptions>) -> AsyncTask<SurveyTask> {
        let (options, _) = self.index_options(options);
        AsyncTask::new(SurveyTask {
            root: PathBuf::from(root),
            options,
        })
    }

    /// Reads the snapshot of `root` and compares it with the disk (no parsing). StatusReport JSON.
    #[napi]
    pub fn status(&self, root: String, name: Option<String>) -> Result<String> {
        guarded("status", || {
            let mut opts = IndexOptions::new(self.home.clone());
            opts.name = name;
            let report = gortex_index::status(Path::new(&root), &opts).map_err(to_napi_error)?;
            serde_json::to_string(&report).map_err(to_napi_error)
        })
    }

    /// Repositories loaded in this engine: `[{ name, root, files, nodes, edges, indexed_at_ms }]`.
    #[napi]
    pub fn repos(&self) -> Result<String> {
        guarded("repos", || {
            let repos = self.repos.lock().map_err(|_| to_napi_error("engine state poisoned"))?;
            sorted_json(serde_json::to_value(repos.summaries()))
        })
    }

    /// Graph counts of one repository (by root path or name).
    #[napi]
    pub fn stats(&self, repo: String, view: Option<String>) -> Result<String> {
        guarded("stats", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                sorted_json(serde_json::to_value(inspect::stats(guard)))
            })
        })
    }

    /// A brief dump of the graph for viewers: nodes (`id`, `kind`, `name`, `file_path`,
    /// `start_line`, `end_line`, `language`, `repo_prefix`, `degree`, `community?`) and the edges
    /// between the nodes kept (`from`, `to`, `kind`, `origin`). `filter` (JSON: `kinds`,
    /// `languages`, `paths`, `communities`) narrows the nodes; of those, the `max_nodes`
    /// best-connected are kept (default 50,000), listed in id order; `truncated` says when the cap
    /// left some out.
    #[napi]
    pub fn graph_dump(
        &self,
        repo: String,
        max_nodes: Option<u32>,
        view: Option<String>,
        filter: Option<String>,
    ) -> Result<String> {
        guarded("graphDump", || {
            let filter: inspect::DumpFilter = match filter.as_deref() {
                None => inspect::DumpFilter::default(),
                Some(text) => serde_json::from_str(text).map_err(|e| to_napi_error(format!("graph filter: {e}")))?,
            };
            filter.check().map_err(message_error)?;
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                sorted_json(serde_json::to_value(inspect::graph_dump(
                    guard,
                    max_nodes.map(|n| n as usize),
                    &filter,
                )))
            })
        })
    }

    /// Every reference from this repository to code outside it (`external::…` stubs): the stub's
    /// id and target, and each incoming edge with the referring node (id, name, kind, path) — what
    /// a multi-repository workspace links against the repositories that define those targets.
    #[napi]
    pub fn external_refs(&self, repo: String, view: Option<String>) -> Result<String> {
        guarded("externalRefs", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                sorted_json(serde_json::to_value(inspect::external_refs(&guard.graph)))
            })
        })
    }

    /// Files and packages of the repository by how many distinct files import (or re-export) them,
    /// most imported first, ties by path: `{id, path, kind, importers}` rows, at most `limit`.
    #[napi]
    pub fn most_imported(&self, repo: String, limit: u32, view: Option<String>) -> Result<String> {
        guarded("mostImported", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                sorted_json(serde_json::to_value(inspect::most_imported(
                    &guard.graph,
                    limit as usize,
                )))
            })
        })
    }

    /// Every file node (NodeJson, in path order), each with `symbols`: how many nodes of the
    /// `count_kinds` it declares. One call for what a per-file lookup did file by file.
    #[napi]
    pub fn file_nodes(&self, repo: String, count_kinds: Vec<String>, view: Option<String>) -> Result<String> {
        guarded("fileNodes", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                let kinds = inspect::parse_node_kinds(&count_kinds).map_err(message_error)?;
                sorted_json(serde_json::to_value(inspect::file_nodes(&guard.graph, &kinds)))
            })
        })
    }

    /// One node by id (NodeJson), or null when no node has that id.
    #[napi]
    pub fn get_node(&self, repo: String, id: String, view: Option<String>) -> Result<Option<String>> {
        guarded("getNode", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                guard
                    .graph
                    .node(&id)
                    .map(|n| serde_json::to_string(n).map_err(to_napi_error))
                    .transpose()
            })
        })
    }

    /// The symbols a file declares (NodeJson[] in source order; the file node first).
    #[napi]
    pub fn file_symbols(&self, repo: String, path: String, view: Option<String>) -> Result<String> {
        guarded("fileSymbols", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                let nodes = inspect::file_symbols(guard, &path).map_err(message_error)?;
                serde_json::to_string(&nodes).map_err(to_napi_error)
            })
        })
    }

    /// Edges of a node (EdgeJson[]): direction `in`, `out` or `both`, optionally only some kinds.
    /// Outgoing unresolved references are included with `resolved: false`.
    #[napi]
    pub fn edges(
        &self,
        repo: String,
        id: String,
        direction: String,
        kinds: Option<Vec<String>>,
        view: Option<String>,
    ) -> Result<String> {
        guarded("edges", || {
            let index = self.repo(&repo)?;
            self.with_index(&index, view.as_deref(), |guard| {
                let filter = EdgeFilter::parse(&direction, kinds.as_deref()).map_err(message_error)?;
                let rows = inspect::node_edges(&guard.graph, &id, &filter).map_err(message_error)?;
                sorted_json(serde_json::to_value(rows))
            })
        })
    }

    /// Runs one read-only query tool (`search_symbols`, `get_callers`, …; see `queryTools`) with
    /// JSON arguments. `repo` names a repository (root path or name); when absent, the repository
    /// an id argument belongs to, else the only one loaded. Returns the tool's result as JSON.
    /// Query failures reject with `"<code>: <message>"` (`invalid_argument`, `not_found`, …).
    #[napi]
    pub fn query(&self, repo: Option<String>, tool: String, args_json: String, view: Option<String>) -> Result<String> {
        guarded("query", || {
            let args: Value = serde_json::from_str(&args_json)
                .map_err(|e| to_napi_error(format!("invalid_argument: arguments are not valid JSON: {e}")))?;
            let index = match repo {
                Some(key) => self.repo(&key)?,
                None => self.repo_for_args(&args)?,
            };
            self.with_index(&index, view.as_deref(), |guard| {
                let result = guard
                    .query(&tool, args)
                    .map_err(|e| to_napi_error(format!("{}: {}", e.code, e.message)))?;
                serde_json::to_string(&result).map_err(to_napi_error)
            })
        })
    }

    /// The query tools `query` accepts, with one-line descriptions: `[{ name, description }]`.
    #[napi]
    pub fn query_tools(&self) -> String {
        let list: Vec<Value> = gortex_index::query::TOOLS
            .iter()
            .map(|tool| json!({ "name": tool.name, "description": tool.description }))
            .collect();
        Value::Array(list).to_string()
    }
}

impl Engine {
    /// Runs `f` over the repository `index`, or over the overlay view `view` when that view
    /// overlays this repository.
    fn with_index<R>(
        &self,
        index: &SharedIndex,
        view: Option<&str>,
        f: impl FnOnce(&RepoIndex) -> Result<R>,
    ) -> Result<R> {
        let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
        if let Some(key) = view {
            if let Some(overlay) = self.view_over(key, &guard.root)? {
                drop(guard);
                let view = overlay.read().map_err(|_| to_napi_error("overlay state poisoned"))?;
                return f(&view);
            }
        }
        f(&guard)
    }

    /// The repository `key` (a root path or name) names.
    fn repo(&self, key: &str) -> Result<SharedIndex> {
        let repos = self.repos.lock().map_err(|_| to_napi_error("engine state poisoned"))?;
        repos.find(key).map_err(message_error)
    }

    /// The repository a query without `repo` means (see `LoadedRepos::for_query`).
    fn repo_for_args(&self, args: &Value) -> Result<SharedIndex> {
        let repos = self.repos.lock().map_err(|_| to_napi_error("engine state poisoned"))?;
        repos.for_query(args).map_err(to_napi_error)
    }
}

fn lock_warmups(warmups: &warmup::Warmups) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<warmup::Warmup>>> {
    warmups.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
