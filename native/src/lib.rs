//! gortex-native: the N-API binding. One `Engine` class holds every indexed repository in Rust;
//! TypeScript drives it with coarse calls whose large results cross as JSON strings.
//! Rust panics are caught here and become JavaScript errors.

mod warmup;
mod watch;

use gortex_core::EdgeKind;
use gortex_graph::{Direction, Graph, NodeIndex};
use gortex_index::{IndexOptions, IndexReport, Progress, RepoIndex};
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

pub(crate) type Repos = Arc<Mutex<HashMap<PathBuf, Arc<RwLock<RepoIndex>>>>>;

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
}

/// The background indexing job behind `indexRepo`.
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
                .get(&canonical)
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
        // Release the JS callback now so the event loop is not held open by it.
        self.progress = None;
        result
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
            repos: Arc::new(Mutex::new(HashMap::new())),
            cancel: Arc::new(AtomicBool::new(false)),
            index_gate: Arc::new(Mutex::new(())),
            warmups: Arc::new(Mutex::new(HashMap::new())),
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
            let mut list: Vec<Value> = repos
                .values()
                .filter_map(|r| r.read().ok().map(|g| summary(&g)))
                .collect();
            list.sort_by(|a, b| a["root"].as_str().cmp(&b["root"].as_str()));
            Ok(Value::Array(list).to_string())
        })
    }

    /// Graph counts of one repository (by root path or name).
    #[napi]
    pub fn stats(&self, repo: String) -> Result<String> {
        guarded("stats", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let mut nodes: HashMap<&str, usize> = HashMap::new();
            for n in &g.nodes {
                *nodes.entry(n.kind.as_str()).or_default() += 1;
            }
            let mut edges: HashMap<&str, usize> = HashMap::new();
            let mut origins: HashMap<&str, usize> = HashMap::new();
            for e in &g.edges {
                *edges.entry(e.kind.as_str()).or_default() += 1;
                *origins.entry(e.origin.as_str()).or_default() += 1;
            }
            let mut out = summary(&guard);
            out["nodes_by_kind"] = json!(nodes);
            out["edges_by_kind"] = json!(edges);
            out["edges_by_origin"] = json!(origins);
            out["unresolved"] = json!(g.unresolved.len());
            out["search_memory"] = json!(guard.search_memory());
            Ok(out.to_string())
        })
    }

    /// A brief dump of the whole graph for viewers: nodes (`id`, `kind`, `name`, `path`, `line`,
    /// `end_line`, `language`) and the edges between the nodes kept (`from`, `to`, `kind`,
    /// `origin`). At most `max_nodes` nodes (default 50,000), files and symbols in id order;
    /// `truncated` says when nodes were left out.
    #[napi]
    pub fn graph_dump(&self, repo: String, max_nodes: Option<u32>) -> Result<String> {
        guarded("graphDump", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let cap = max_nodes.unwrap_or(50_000) as usize;
            let mut order: Vec<usize> = (0..g.nodes.len()).collect();
            order.sort_by(|&a, &b| g.nodes[a].id.cmp(&g.nodes[b].id));
            order.truncate(cap);
            let mut kept = vec![false; g.nodes.len()];
            for &i in &order {
                kept[i] = true;
            }
            let nodes: Vec<Value> = order
                .iter()
                .map(|&i| {
                    let n = &g.nodes[i];
                    json!({
                        "id": n.id.to_string(),
                        "kind": n.kind.as_str(),
                        "name": n.name,
                        "path": &*n.path,
                        "line": n.span.start_line,
                        "end_line": n.span.end_line,
                        "language": n.language.map(|l| l.as_str()),
                    })
                })
                .collect();
            let edges: Vec<Value> = g
                .edges
                .iter()
                .filter(|e| kept[e.from as usize] && kept[e.to as usize])
                .map(|e| {
                    json!({
                        "from": g.nodes[e.from as usize].id.to_string(),
                        "to": g.nodes[e.to as usize].id.to_string(),
                        "kind": e.kind.as_str(),
                        "origin": e.origin.as_str(),
                    })
                })
                .collect();
            Ok(json!({
                "repo": guard.name,
                "root": guard.root.display().to_string(),
                "total_nodes": g.nodes.len(),
                "total_edges": g.edges.len(),
                "truncated": nodes.len() < g.nodes.len(),
                "nodes": nodes,
                "edges": edges,
            })
            .to_string())
        })
    }

    /// Every reference from this repository to code outside it (`external::…` stubs): the stub's
    /// id and target, and each incoming edge with the referring node (id, name, kind, path) — what
    /// a multi-repository workspace links against the repositories that define those targets.
    #[napi]
    pub fn external_refs(&self, repo: String) -> Result<String> {
        guarded("externalRefs", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let list: Vec<Value> = g
                .nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.external)
                .map(|(i, n)| {
                    let refs: Vec<Value> = g
                        .in_edges(i as NodeIndex)
                        .map(|e| {
                            let from = &g.nodes[e.from as usize];
                            json!({
                                "from": from.id.to_string(),
                                "from_name": from.qualified,
                                "from_kind": from.kind.as_str(),
                                "path": &*from.path,
                                "kind": e.kind.as_str(),
                                "origin": e.origin.as_str(),
                                "line": e.line,
                            })
                        })
                        .collect();
                    json!({ "id": n.id.to_string(), "target": n.qualified, "kind": n.kind.as_str(), "refs": refs })
                })
                .collect();
            Ok(Value::Array(list).to_string())
        })
    }

    /// Files and packages of the repository by how many distinct files import (or re-export) them,
    /// most imported first, ties by path: `{id, path, kind, importers}` rows, at most `limit`.
    #[napi]
    pub fn most_imported(&self, repo: String, limit: u32) -> Result<String> {
        guarded("mostImported", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let mut importers: HashMap<NodeIndex, std::collections::HashSet<&str>> = HashMap::new();
            for e in &g.edges {
                if !matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
                    continue;
                }
                let to = &g.nodes[e.to as usize];
                if to.external || !matches!(to.kind.as_str(), "file" | "package") {
                    continue;
                }
                importers
                    .entry(e.to)
                    .or_default()
                    .insert(&g.nodes[e.from as usize].path);
            }
            let mut rows: Vec<(usize, &str, NodeIndex)> = importers
                .iter()
                .map(|(&n, from)| {
                    let node = &g.nodes[n as usize];
                    let path: &str = if node.path.is_empty() { &node.id } else { &node.path };
                    (from.len(), path, n)
                })
                .collect();
            rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
            rows.truncate(limit as usize);
            let list: Vec<Value> = rows
                .into_iter()
                .map(|(count, path, n)| {
                    let node = &g.nodes[n as usize];
                    json!({ "id": node.id.to_string(), "path": path, "kind": node.kind.as_str(), "importers": count })
                })
                .collect();
            Ok(Value::Array(list).to_string())
        })
    }

    /// Every file node (NodeJson, in path order), each with `symbols`: how many nodes of the
    /// `count_kinds` it declares. One call for what a per-file lookup did file by file.
    #[napi]
    pub fn file_nodes(&self, repo: String, count_kinds: Vec<String>) -> Result<String> {
        guarded("fileNodes", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let mut rows: Vec<Value> = Vec::with_capacity(g.files().len());
            for &f in g.files() {
                let node = &g.nodes[f as usize];
                let symbols = g
                    .file_nodes(&node.path)
                    .iter()
                    .filter(|&&n| count_kinds.iter().any(|k| k == g.nodes[n as usize].kind.as_str()))
                    .count();
                let mut row = serde_json::to_value(node).map_err(to_napi_error)?;
                row["symbols"] = json!(symbols);
                rows.push(row);
            }
            rows.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
            Ok(Value::Array(rows).to_string())
        })
    }

    /// One node by id (NodeJson), or null when no node has that id.
    #[napi]
    pub fn get_node(&self, repo: String, id: String) -> Result<Option<String>> {
        guarded("getNode", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            Ok(guard
                .graph
                .node(&id)
                .map(|n| serde_json::to_string(n).unwrap_or_default()))
        })
    }

    /// The symbols a file declares (NodeJson[] in source order; the file node first).
    #[napi]
    pub fn file_symbols(&self, repo: String, path: String) -> Result<String> {
        guarded("fileSymbols", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let rel = path.trim_start_matches("./");
            let nodes = g.file_nodes(rel);
            if nodes.is_empty() && !guard.files.iter().any(|f| *f.path == *rel) {
                return Err(to_napi_error(format!(
                    "file not indexed: \"{rel}\" (paths are relative to {})",
                    guard.root.display()
                )));
            }
            let list: Vec<&gortex_graph::Node> = nodes.iter().map(|&i| &g.nodes[i as usize]).collect();
            serde_json::to_string(&list).map_err(to_napi_error)
        })
    }

    /// Edges of a node (EdgeJson[]): direction `in`, `out` or `both`, optionally only some kinds.
    /// Outgoing unresolved references are included with `resolved: false`.
    #[napi]
    pub fn edges(&self, repo: String, id: String, direction: String, kinds: Option<Vec<String>>) -> Result<String> {
        guarded("edges", || {
            let index = self.repo(&repo)?;
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let g = &guard.graph;
            let dir = match direction.as_str() {
                "in" => Direction::In,
                "out" => Direction::Out,
                "both" => Direction::Both,
                other => {
                    return Err(to_napi_error(format!(
                        "invalid direction \"{other}\": use in, out or both"
                    )))
                }
            };
            let kinds: Option<Vec<EdgeKind>> = match kinds {
                None => None,
                Some(list) => Some(
                    list.iter()
                        .map(|k| {
                            EdgeKind::parse(k).ok_or_else(|| {
                                let valid: Vec<&str> = EdgeKind::ALL.iter().map(|k| k.as_str()).collect();
                                to_napi_error(format!("unknown edge kind \"{k}\"; valid kinds: {}", valid.join(", ")))
                            })
                        })
                        .collect::<Result<_>>()?,
                ),
            };
            let node = g
                .lookup(&id)
                .ok_or_else(|| to_napi_error(format!("node not found: \"{id}\"")))?;
            serde_json::to_string(&edge_list(g, node, dir, kinds.as_deref())).map_err(to_napi_error)
        })
    }

    /// Runs one read-only query tool (`search_symbols`, `get_callers`, …; see `queryTools`) with
    /// JSON arguments. `repo` names a repository (root path or name); when absent, the repository
    /// an id argument belongs to, else the only one loaded. Returns the tool's result as JSON.
    /// Query failures reject with `"<code>: <message>"` (`invalid_argument`, `not_found`, …).
    #[napi]
    pub fn query(&self, repo: Option<String>, tool: String, args_json: String) -> Result<String> {
        guarded("query", || {
            let args: Value = serde_json::from_str(&args_json)
                .map_err(|e| to_napi_error(format!("invalid_argument: arguments are not valid JSON: {e}")))?;
            let index = match repo {
                Some(key) => self.repo(&key)?,
                None => self.repo_for_args(&args)?,
            };
            let guard = index.read().map_err(|_| to_napi_error("repository state poisoned"))?;
            let result = guard
                .query(&tool, args)
                .map_err(|e| to_napi_error(format!("{}: {}", e.code, e.message)))?;
            serde_json::to_string(&result).map_err(to_napi_error)
        })
    }

    /// The query tools `query` accepts, with one-line descriptions: `[{ name, description }]`.
    #[napi]
    pub fn query_tools(&self) -> String {
        let list: Vec<Value> = gortex_index::query::TOOLS
            .iter()
            .map(|(name, description)| json!({ "name": name, "description": description }))
            .collect();
        Value::Array(list).to_string()
    }
}

impl Engine {
    fn repo(&self, key: &str) -> Result<Arc<RwLock<RepoIndex>>> {
        let repos = self.repos.lock().map_err(|_| to_napi_error("engine state poisoned"))?;
        if let Ok(canonical) = std::fs::canonicalize(key) {
            if let Some(r) = repos.get(&canonical) {
                return Ok(r.clone());
            }
        }
        for r in repos.values() {
            if r.read().map(|g| g.name == key).unwrap_or(false) {
                return Ok(r.clone());
            }
        }
        Err(to_napi_error(format!(
            "repository not indexed: \"{key}\" (call indexRepo first)"
        )))
    }

    /// The repository a query without `repo` means: the one owning its id-like argument
    /// (`<repo>/…`), else the only repository loaded.
    fn repo_for_args(&self, args: &Value) -> Result<Arc<RwLock<RepoIndex>>> {
        let repos = self.repos.lock().map_err(|_| to_napi_error("engine state poisoned"))?;
        let id_like = ["id", "from", "to"]
            .iter()
            .find_map(|k| args.get(*k).and_then(Value::as_str));
        if let Some(id) = id_like {
            for r in repos.values() {
                if r.read()
                    .map(|g| id.starts_with(&format!("{}/", g.name)))
                    .unwrap_or(false)
                {
                    return Ok(r.clone());
                }
            }
        }
        match repos.len() {
            1 => Ok(repos.values().next().cloned().expect("one repository")),
            0 => Err(to_napi_error(
                "not_found: no repository is indexed (call indexRepo first)",
            )),
            n => Err(to_napi_error(format!(
                "invalid_argument: {n} repositories are loaded; pass repo (a root path or name)"
            ))),
        }
    }
}

fn lock_warmups(warmups: &warmup::Warmups) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<warmup::Warmup>>> {
    warmups.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn summary(index: &RepoIndex) -> Value {
    json!({
        "provisional": index.is_provisional(),
        "name": index.name,
        "root": index.root.display().to_string(),
        "files": index.files.len(),
        "nodes": index.graph.nodes.len(),
        "edges": index.graph.edges.len(),
        "indexed_at_ms": index.indexed_at_ms,
        "snapshot_path": index.snapshot_path.display().to_string(),
    })
}

fn edge_list(g: &Graph, node: NodeIndex, dir: Direction, kinds: Option<&[EdgeKind]>) -> Vec<Value> {
    let keep = |k: EdgeKind| kinds.is_none_or(|ks| ks.contains(&k));
    let mut out = Vec::new();
    let mut push = |e: &gortex_graph::Edge| {
        if keep(e.kind) {
            let from = &g.nodes[e.from as usize];
            out.push(json!({
                "from": from.id.as_ref(),
                "to": g.nodes[e.to as usize].id.as_ref(),
                "kind": e.kind.as_str(),
                "origin": e.origin.as_str(),
                "path": from.path.as_ref(),
                "line": e.line,
                "resolved": true,
            }));
        }
    };
    if matches!(dir, Direction::Out | Direction::Both) {
        g.out_edges(node).for_each(&mut push);
    }
    if matches!(dir, Direction::In | Direction::Both) {
        g.in_edges(node).for_each(&mut push);
    }
    if matches!(dir, Direction::Out | Direction::Both) {
        for u in g.unresolved_from(node) {
            if keep(u.kind) {
                let from = &g.nodes[u.from as usize];
                out.push(json!({
                    "from": from.id.as_ref(),
                    "to": u.target,
                    "kind": u.kind.as_str(),
                    "origin": null,
                    "path": from.path.as_ref(),
                    "line": u.line,
                    "resolved": false,
                    "candidates": u.candidates,
                }));
            }
        }
    }
    out
}
