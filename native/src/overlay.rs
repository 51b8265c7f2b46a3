//! Overlay views in the engine: per key (an MCP session's branch), an index of one repository
//! with unsaved buffers over it (`RepoIndex::overlay_view`), built on a background thread and
//! pinned to the base graph it was built on. Read calls given a view key answer from the view
//! when it overlays the repository they name, else from the base.

use crate::{guarded, to_napi_error, Engine};
use gortex_core::OverlayFiles;
use gortex_graph::Graph;
use gortex_index::SharedIndex;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock, Weak};

/// One built view.
pub(crate) struct View {
    /// The base repository's root.
    root: PathBuf,
    /// The base graph the view was built on; the view is stale once the base moved on.
    base: Weak<Graph>,
    /// Read by queries; written in place when a push reaches a live view.
    pub(crate) index: SharedIndex,
}

/// Views by key.
pub(crate) type Views = Arc<Mutex<HashMap<String, View>>>;

/// One overlaid file handed to `overlayBuild`.
#[napi(object)]
pub struct OverlayFileInput {
    /// Repository-relative path (or absolute inside the root).
    pub path: String,
    /// The buffer; absent or null: the file is deleted in the view.
    pub content: Option<Buffer>,
}

/// The background job behind `overlayBuild`.
pub struct OverlayTask {
    base: SharedIndex,
    key: String,
    files: OverlayFiles,
    views: Views,
}

impl Task for OverlayTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        guarded("overlayBuild", || {
            let guard = self
                .base
                .read()
                .map_err(|_| to_napi_error("repository state poisoned"))?;
            // A live view on the current base is brought to the new buffers in place (what an edit
            // costs; its queries wait for it); any other is built anew (what a view costs).
            let live = self
                .views
                .lock()
                .map_err(|_| to_napi_error("overlay state poisoned"))?
                .get(&self.key)
                .filter(|v| v.root == guard.root && v.base.upgrade().is_some_and(|g| Arc::ptr_eq(&g, &guard.graph)))
                .map(|v| v.index.clone());
            if let Some(live) = live {
                let mut view = live.write().map_err(|_| to_napi_error("overlay state poisoned"))?;
                if let Ok(build) = view.overlay_update(&guard, &self.files) {
                    return serde_json::to_string(&build).map_err(to_napi_error);
                }
            }
            let (view, build) = guard.overlay_view(&self.files).map_err(to_napi_error)?;
            let entry = View {
                root: guard.root.clone(),
                base: Arc::downgrade(&guard.graph),
                index: Arc::new(RwLock::new(view)),
            };
            drop(guard);
            self.views
                .lock()
                .map_err(|_| to_napi_error("overlay state poisoned"))?
                .insert(self.key.clone(), entry);
            serde_json::to_string(&build).map_err(to_napi_error)
        })
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

#[napi]
impl Engine {
    /// Builds the overlay view `key` of repository `repo` — its index with `files` replaced, added
    /// or deleted, the base untouched — or brings the live view `key` to `files` in place when it
    /// was built on the base as it is now. Resolves to JSON `{ mode (built | updated), replaced,
    /// added, deleted, not_indexed, resolved_files, graph_layout, phases_ms, nodes, edges,
    /// base_indexed_at_ms, wall_ms }`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn overlay_build(
        &self,
        repo: String,
        key: String,
        files: Vec<OverlayFileInput>,
    ) -> Result<AsyncTask<OverlayTask>> {
        let base = self.repo(&repo)?;
        let files: OverlayFiles = files
            .into_iter()
            .map(|f| (f.path, f.content.map(|b| Arc::<[u8]>::from(b.as_ref()))))
            .collect();
        Ok(AsyncTask::new(OverlayTask {
            base,
            key,
            files,
            views: self.views.clone(),
        }))
    }

    /// Forgets the overlay view `key` (its memory is freed); returns whether one was held.
    #[napi]
    pub fn overlay_drop(&self, key: String) -> Result<bool> {
        let mut views = self.views.lock().map_err(|_| to_napi_error("overlay state poisoned"))?;
        Ok(views.remove(&key).is_some())
    }

    /// The state of view `key` as JSON `{ root, current, nodes, edges, files }` (`current`: the
    /// base has not changed since it was built), or null when none is built.
    #[napi]
    pub fn overlay_state(&self, key: String) -> Result<Option<String>> {
        let views = self.views.lock().map_err(|_| to_napi_error("overlay state poisoned"))?;
        Ok(views.get(&key).map(|v| {
            let current = self
                .repos
                .lock()
                .ok()
                .and_then(|repos| repos.at_root(&v.root).cloned())
                .and_then(|base| base.read().ok().map(|g| Arc::as_ptr(&g.graph)))
                .is_some_and(|now| v.base.upgrade().is_some_and(|pinned| Arc::as_ptr(&pinned) == now));
            json!({
                "root": v.root.display().to_string(),
                "current": current,
                "nodes": v.index.read().map_or(0, |i| i.graph.live_node_count()),
                "edges": v.index.read().map_or(0, |i| i.graph.edge_count()),
                "files": v.index.read().map_or(0, |i| i.overlay_files().map_or(0, |f| f.len())),
            })
            .to_string()
        }))
    }
}

impl Engine {
    /// The view `key` when it overlays the repository whose root is `root`.
    pub(crate) fn view_over(&self, key: &str, root: &std::path::Path) -> Result<Option<SharedIndex>> {
        let views = self.views.lock().map_err(|_| to_napi_error("overlay state poisoned"))?;
        match views.get(key) {
            Some(v) if v.root == root => Ok(Some(v.index.clone())),
            Some(_) => Ok(None),
            None => Err(to_napi_error(format!(
                "not_found: overlay view \"{key}\" is not built (overlayBuild first)"
            ))),
        }
    }
}
