//! Provisional answers while a repository warms up: the pass that opens a repository feeds a
//! `ParseSink`; `Engine.provisional` builds (or brings up to date) a partial index from it and
//! serves it under the repository's key until the pass publishes the complete one.

use crate::{guarded, to_napi_error, Repos};
use gortex_index::warmup::worth_rebuilding;
use gortex_index::{IndexOptions, ParseSink, RepoIndex};
use napi::bindgen_prelude::*;
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

/// Repositories being opened by a pass, by canonical root.
pub type Warmups = Arc<Mutex<HashMap<PathBuf, Arc<Warmup>>>>;

/// Nor more often than this.
const MIN_REBUILD_INTERVAL: Duration = Duration::from_secs(2);

/// One repository's opening pass, as provisional builds see it.
pub struct Warmup {
    pub sink: ParseSink,
    root: PathBuf,
    options: IndexOptions,
    state: Mutex<WarmupState>,
    /// One provisional build at a time; later callers reuse what it built.
    build: Mutex<()>,
    /// A background rebuild is under way.
    refreshing: AtomicBool,
}

#[derive(Default)]
struct WarmupState {
    /// The pass published the complete index (or failed): provisional builds must not publish.
    finished: bool,
    partial: Option<Arc<RwLock<RepoIndex>>>,
    built_at: Option<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Warmup {
    pub fn new(root: PathBuf, options: IndexOptions) -> Warmup {
        Warmup {
            sink: ParseSink::default(),
            root,
            options,
            state: Mutex::new(WarmupState::default()),
            build: Mutex::new(()),
            refreshing: AtomicBool::new(false),
        }
    }

    /// Ends the warm-up: `complete` (the finished index) replaces any provisional one under the
    /// repository's key; without it (the pass failed) the provisional one is withdrawn.
    pub fn finish(&self, repos: &Repos, complete: Option<Arc<RwLock<RepoIndex>>>) {
        let mut state = lock(&self.state);
        state.finished = true;
        let partial = state.partial.take();
        let mut map = lock(repos);
        match complete {
            Some(index) => {
                map.insert(self.root.clone(), index);
            }
            None => {
                if let Some(partial) = &partial {
                    map.withdraw(&self.root, partial);
                }
            }
        }
    }

    /// Serves the provisional index, building it first when there is none (the caller waits for
    /// that one build). A stale one is answered at once and, when worth it, rebuilt in the
    /// background: off every lock, then swapped in, so queries never wait for a rebuild.
    fn provide(self: &Arc<Self>, repos: &Repos) -> Result<serde_json::Value> {
        let progress = self.sink.progress();
        let (existing, built_at) = {
            let state = lock(&self.state);
            if state.finished {
                return Ok(json!({ "available": false, "reason": "ready" }));
            }
            (state.partial.clone(), state.built_at)
        };
        if !progress.walked {
            return Ok(json!({ "available": false, "reason": "walking", "read": 0, "total": 0 }));
        }
        let started = Instant::now();
        let mut built = false;
        let mut refreshing = false;
        let served = match existing {
            Some(partial) => {
                let covered = partial
                    .read()
                    .map_err(|_| to_napi_error("repository state poisoned"))?
                    .files
                    .len();
                let due = built_at.is_none_or(|t| t.elapsed() >= MIN_REBUILD_INTERVAL);
                // Once everything is read the pass is resolving: a rebuild would race it for the CPU.
                if worth_rebuilding(covered, progress.read, progress.total) && due && !progress.parsed_all {
                    refreshing = self.refresh_in_background(repos);
                }
                partial
            }
            None => {
                // Concurrent first calls build once; the others wait for it and are served it.
                let _one = lock(&self.build);
                let ready_made = lock(&self.state).partial.clone();
                match ready_made {
                    Some(partial) => partial,
                    None => {
                        let progress = self.sink.progress();
                        if progress.read == 0 {
                            return Ok(
                                json!({ "available": false, "reason": "parsing", "read": 0, "total": progress.total }),
                            );
                        }
                        if progress.parsed_all {
                            return Ok(
                                json!({ "available": false, "reason": "resolving", "read": progress.read, "total": progress.total }),
                            );
                        }
                        match self.build_and_publish(repos)? {
                            Some(partial) => {
                                built = true;
                                partial
                            }
                            None => return Ok(json!({ "available": false, "reason": "ready" })),
                        }
                    }
                }
            }
        };
        let guard = served.read().map_err(|_| to_napi_error("repository state poisoned"))?;
        Ok(json!({
            "available": true,
            "files": guard.files.len(),
            "read": progress.read,
            "total": progress.total,
            "parsed_all": progress.parsed_all,
            "nodes": guard.graph.live_node_count(),
            "edges": guard.graph.edge_count(),
            "indexed_at_ms": guard.indexed_at_ms,
            "rebuilt": built,
            "build_ms": if built { started.elapsed().as_millis() as u64 } else { 0 },
            "refreshing": refreshing || self.refreshing.load(Ordering::Relaxed),
        }))
    }

    /// Builds a provisional index of what the sink holds and serves it (unless the pass finished
    /// meanwhile: then `None`). Callers hold `self.build`.
    fn build_and_publish(&self, repos: &Repos) -> Result<Option<Arc<RwLock<RepoIndex>>>> {
        let Some(index) = RepoIndex::provisional(&self.root, &self.options, &self.sink).map_err(to_napi_error)? else {
            return Ok(None);
        };
        let shared = Arc::new(RwLock::new(index));
        let mut state = lock(&self.state);
        if state.finished {
            return Ok(None);
        }
        state.partial = Some(shared.clone());
        state.built_at = Some(Instant::now());
        lock(repos).insert(self.root.clone(), shared.clone());
        Ok(Some(shared))
    }

    /// Starts a background rebuild unless one is running; returns whether one was started.
    fn refresh_in_background(self: &Arc<Self>, repos: &Repos) -> bool {
        if self.refreshing.swap(true, Ordering::AcqRel) {
            return false;
        }
        let warmup = self.clone();
        let repos = repos.clone();
        let spawned = std::thread::Builder::new()
            .name("gortex-provisional".into())
            .spawn(move || {
                let _one = lock(&warmup.build);
                // A failed or panicking rebuild leaves the previous provisional index serving.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| warmup.build_and_publish(&repos)));
                warmup.refreshing.store(false, Ordering::Release);
            });
        if spawned.is_err() {
            self.refreshing.store(false, Ordering::Release);
            return false;
        }
        true
    }
}

/// The background job behind `Engine.provisional`.
pub struct ProvisionalTask {
    pub(crate) root: PathBuf,
    pub(crate) repos: Repos,
    pub(crate) warmups: Warmups,
}

impl Task for ProvisionalTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        guarded("provisional", || {
            let Ok(canonical) = std::fs::canonicalize(&self.root) else {
                return Ok(json!({ "available": false, "reason": "not_warming" }).to_string());
            };
            let warmup = lock(&self.warmups).get(&canonical).cloned();
            let answer = match warmup {
                Some(w) => w.provide(&self.repos)?,
                None => json!({ "available": false, "reason": "not_warming" }),
            };
            Ok(answer.to_string())
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}
