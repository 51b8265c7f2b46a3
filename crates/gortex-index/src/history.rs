//! Git history for the history tools (`find_co_changing_symbols`, `analyze` kinds `blame`,
//! `ownership`, `stale_code`, `churn`, `fixes_history`, `releases`; see `gortex-git`).
//!
//! The first history query mines the repository (or loads the history saved beside the snapshot
//! and mines only the commits after it), saves it, and joins it with the current graph; later
//! queries reuse the join until the graph is replaced or `HEAD` moves. Mining holds this index's
//! history lock, so concurrent history queries wait for one miner; other queries do not.

use crate::walk::DEFAULT_EXCLUDED_DIRS;
use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_git::{GitRepo, History, Mined};
use gortex_graph::Graph;
use std::sync::{Arc, Mutex, Weak};

/// The mined history and its join with a graph version.
#[derive(Default)]
pub struct HistoryCache {
    state: Mutex<HistoryState>,
}

#[derive(Default)]
struct HistoryState {
    mined: Option<Arc<Mined>>,
    joined: Option<(Weak<Graph>, Arc<History>)>,
    /// What the last update took (`unchanged`, `incremental`, `full`).
    update: &'static str,
}

impl HistoryCache {
    /// Drops the mined history held in memory (saved beside the snapshot; loaded again on use).
    pub(crate) fn clear(&self) {
        *self.state.lock().unwrap_or_else(|p| p.into_inner()) = HistoryState::default();
    }
}

impl std::fmt::Debug for HistoryCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HistoryCache").finish_non_exhaustive()
    }
}

impl RepoIndex {
    /// Where this repository's mined history is saved: beside its snapshot.
    pub fn history_path(&self) -> std::path::PathBuf {
        self.snapshot_path.with_extension("hist")
    }

    /// The git history joined with the current graph, mined or brought up to `HEAD` first.
    pub(crate) fn history(&self) -> Result<Arc<History>, QueryError> {
        let repo = GitRepo::discover(&self.root)
            .map_err(|e| QueryError::unavailable(format!("reading git history: {e}")))?
            .ok_or_else(|| {
                QueryError::unavailable(format!(
                    "{} is not inside a git worktree: history analyses need its commits (index a git clone, or `git init` and commit)",
                    self.root.display()
                ))
            })?;
        let head = repo
            .head()
            .map_err(|e| QueryError::unavailable(format!("reading git history: {e}")))?;
        let mut state = self.history_state();
        let current = state.mined.as_ref().is_some_and(|m| m.head == head);
        if current {
            if let Some((weak, joined)) = &state.joined {
                if weak.upgrade().is_some_and(|g| Arc::ptr_eq(&g, &self.graph)) {
                    return Ok(joined.clone());
                }
            }
        } else {
            let previous = match state.mined.take() {
                Some(m) => Some(Arc::try_unwrap(m).unwrap_or_else(|shared| (*shared).clone())),
                None => gortex_git::store::load(&self.history_path()),
            };
            let prefix = repo.prefix.clone();
            let track = move |path: &str| {
                path.strip_prefix(prefix.as_str())
                    .is_some_and(|rel| !rel.split('/').any(|part| DEFAULT_EXCLUDED_DIRS.contains(&part)))
            };
            let (mined, report) = repo
                .update(previous, &track)
                .map_err(|e| QueryError::unavailable(format!("mining git history: {e}")))?;
            if report.mode != "unchanged" {
                // A cache: failing to save costs the next process a full mine, nothing else.
                let _ = gortex_git::store::save(&self.history_path(), &mined);
            }
            state.update = report.mode;
            state.mined = Some(Arc::new(mined));
        }
        let mined = state.mined.clone().expect("mined above");
        let sources = self.sources();
        let mut history = History::join(&self.graph, mined, &repo, &|path| sources.read(path).ok());
        history.update = state.update.to_string();
        let history = Arc::new(history);
        state.joined = Some((Arc::downgrade(&self.graph), history.clone()));
        Ok(history)
    }

    fn history_state(&self) -> std::sync::MutexGuard<'_, HistoryState> {
        self.history.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}
