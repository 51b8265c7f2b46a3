//! The repositories one engine serves, by canonical root, and how a caller's key picks one:
//! a root path in any spelling, a repository name, or (for a query without one) the
//! repository its id argument belongs to.

use crate::inspect::{summary, RepoSummary};
use crate::RepoIndex;
use gortex_core::QueryError;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// A repository shared between the engine, its index passes and the queries reading it.
pub type SharedIndex = Arc<RwLock<RepoIndex>>;

/// Query arguments that carry a node id, in the order [`LoadedRepos::for_query`] reads them.
const ID_ARGUMENTS: [&str; 3] = ["id", "from", "to"];

/// Repositories loaded in one engine, keyed by canonical root.
#[derive(Default)]
pub struct LoadedRepos {
    by_root: HashMap<PathBuf, SharedIndex>,
}

impl LoadedRepos {
    /// The repository at this canonical root.
    pub fn at_root(&self, root: &Path) -> Option<&SharedIndex> {
        self.by_root.get(root)
    }

    /// Serves `index` at `root` (canonical), replacing what was there.
    pub fn insert(&mut self, root: PathBuf, index: SharedIndex) {
        self.by_root.insert(root, index);
    }

    /// Stops serving `index` at `root` if it is still the one served there (the same
    /// allocation): a failed pass withdraws its provisional index, never a newer one. Returns
    /// whether it was removed.
    pub fn withdraw(&mut self, root: &Path, index: &SharedIndex) -> bool {
        if self
            .by_root
            .get(root)
            .is_some_and(|current| Arc::ptr_eq(current, index))
        {
            self.by_root.remove(root);
            return true;
        }
        false
    }

    /// Stops serving whatever is at `root` (canonical). Returns whether anything was.
    pub fn remove(&mut self, root: &Path) -> bool {
        self.by_root.remove(root).is_some()
    }

    /// How many repositories are loaded.
    pub fn len(&self) -> usize {
        self.by_root.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.by_root.is_empty()
    }

    /// The repository `key` names: a path that canonicalises to a loaded root, else a loaded
    /// repository's name. Anything else is `not_found`.
    pub fn find(&self, key: &str) -> Result<SharedIndex, QueryError> {
        if let Ok(canonical) = std::fs::canonicalize(key) {
            if let Some(index) = self.by_root.get(&canonical) {
                return Ok(index.clone());
            }
        }
        self.by_root
            .values()
            .find(|index| index.read().is_ok_and(|i| i.name == key))
            .cloned()
            .ok_or_else(|| QueryError::not_found(format!("repository not indexed: \"{key}\" (call indexRepo first)")))
    }

    /// The repository a query without `repo` means: the one whose name prefixes its first id
    /// argument (`id`, `from`, `to`: `<repo>/…`), else the only one loaded. With none loaded
    /// it is `not_found`; with several and no owning id, `invalid_argument`.
    pub fn for_query(&self, args: &Value) -> Result<SharedIndex, QueryError> {
        let id = ID_ARGUMENTS.iter().find_map(|k| args.get(*k).and_then(Value::as_str));
        if let Some(id) = id {
            let owner = self.by_root.values().find(|index| {
                index.read().is_ok_and(|i| {
                    id.strip_prefix(i.name.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
                })
            });
            if let Some(index) = owner {
                return Ok(index.clone());
            }
        }
        let mut all = self.by_root.values();
        match (all.next(), self.by_root.len()) {
            (Some(only), 1) => Ok(only.clone()),
            (None, _) => Err(QueryError::not_found("no repository is indexed (call indexRepo first)")),
            (_, n) => Err(QueryError::invalid(format!(
                "{n} repositories are loaded; pass repo (a root path or name)"
            ))),
        }
    }

    /// Every loaded repository in brief, by root (one whose lock is poisoned is left out).
    pub fn summaries(&self) -> Vec<RepoSummary> {
        let mut list: Vec<RepoSummary> = self
            .by_root
            .values()
            .filter_map(|index| index.read().ok().map(|i| summary(&i)))
            .collect();
        list.sort_by(|a, b| a.root.cmp(&b.root));
        list
    }
}
