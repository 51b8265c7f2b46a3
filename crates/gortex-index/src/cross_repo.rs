//! `analyze kind=cross_repo`: the dependencies between the repositories of a workspace, rolled up
//! from its cross-repository references. Each repository keeps its own graph; the server links a
//! reference that leaves repository A to the symbol repository B declares when an import proves
//! it (`ts/workspace/cross-repo.ts`) and hands those links to this kind as `links`. Rows are
//! `(from_repo, to_repo, kind)` with a count and samples, then the symbols other repositories use
//! most. One repository alone has no links, and the answer says so.

use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_graph::query::common::check_limit_with;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One reference from one repository into another (as the workspace links them).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub struct CrossLink {
    pub from_repo: String,
    /// The referring node's id.
    pub from: String,
    pub from_name: String,
    #[serde(default)]
    pub from_kind: String,
    /// File and line of the reference in `from_repo`.
    pub path: String,
    pub line: u32,
    /// `calls`, `instantiates`, `references`, `extends`, `implements` or `uses_type`.
    pub kind: String,
    #[serde(default)]
    pub origin: String,
    pub to_repo: String,
    /// The referenced node's id.
    pub to: String,
    pub to_name: String,
    #[serde(default)]
    pub to_path: String,
    /// The external target the link came from (`@demo/lib.sharedHelper`).
    #[serde(default)]
    pub via: String,
}

/// Arguments of `analyze kind=cross_repo`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossRepoArgs {
    /// Only dependencies touching this repository, on either side (`repo` routes a call to a
    /// repository, so this one has its own name).
    pub touching: Option<String>,
    /// Only this relation: calls, instantiates, references, extends, implements or uses_type.
    pub base_kind: Option<String>,
    /// Only references made from files under this prefix (of the referring repository).
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 100).
    pub limit: Option<usize>,
    /// The workspace's cross-repository references: filled in by the server (the daemon's
    /// workspace); a call does not pass them.
    #[serde(default)]
    pub links: Vec<CrossLink>,
}

/// One directed dependency between two repositories.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrossRepoRow {
    pub from_repo: String,
    pub to_repo: String,
    pub kind: String,
    pub count: usize,
    /// Up to five references, `from → to (path:line)`.
    pub samples: Vec<String>,
}

/// A symbol other repositories use.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrossTarget {
    pub id: String,
    pub name: String,
    pub repo: String,
    /// References to it from other repositories.
    pub references: usize,
    /// The repositories making them.
    pub used_by: Vec<String>,
}

/// The answer of `analyze kind=cross_repo`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CrossRepoResult {
    /// Most references first (ties: by repositories and kind), at most `limit`.
    pub dependencies: Vec<CrossRepoRow>,
    pub total: usize,
    /// References counted (after the filters).
    pub references: usize,
    /// The symbols used across repositories most, at most `limit`.
    pub targets: Vec<CrossTarget>,
    /// Repositories on either side of a counted reference.
    pub repos: Vec<String>,
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub evidence: &'static str,
}

const BASE_KINDS: [&str; 6] = [
    "calls",
    "instantiates",
    "references",
    "extends",
    "implements",
    "uses_type",
];

impl RepoIndex {
    /// `analyze kind=cross_repo` (see the module doc).
    pub(crate) fn cross_repo(&self, a: &CrossRepoArgs) -> Result<CrossRepoResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        if let Some(k) = a.base_kind.as_deref().filter(|k| !BASE_KINDS.contains(k)) {
            return Err(QueryError::invalid(format!(
                "base_kind must be one of {}, got {k:?}",
                BASE_KINDS.join(", ")
            )));
        }
        let prefix = gortex_analysis::reach::check_path_prefix(a.path_prefix.as_deref())?.unwrap_or_default();
        let kept: Vec<&CrossLink> = a
            .links
            .iter()
            .filter(|l| a.touching.as_deref().is_none_or(|r| l.from_repo == r || l.to_repo == r))
            .filter(|l| a.base_kind.as_deref().is_none_or(|k| l.kind == k))
            .filter(|l| l.path.starts_with(prefix.as_str()))
            .collect();
        let mut pairs: BTreeMap<(&str, &str, &str), Vec<&CrossLink>> = BTreeMap::new();
        // Ids are repository-local: the same path and name in two repositories are two targets.
        let mut targets: BTreeMap<(&str, &str), (&CrossLink, usize, BTreeSet<&str>)> = BTreeMap::new();
        let mut repos: BTreeSet<&str> = BTreeSet::new();
        for l in &kept {
            pairs.entry((&l.from_repo, &l.to_repo, &l.kind)).or_default().push(l);
            let t = targets
                .entry((l.to_repo.as_str(), l.to.as_str()))
                .or_insert((l, 0, BTreeSet::new()));
            t.1 += 1;
            t.2.insert(&l.from_repo);
            repos.insert(&l.from_repo);
            repos.insert(&l.to_repo);
        }
        let mut rows: Vec<CrossRepoRow> = pairs
            .into_iter()
            .map(|((from, to, kind), links)| CrossRepoRow {
                from_repo: from.to_string(),
                to_repo: to.to_string(),
                kind: kind.to_string(),
                count: links.len(),
                samples: links
                    .iter()
                    .take(5)
                    .map(|l| format!("{} → {} ({}:{})", l.from_name, l.to_name, l.path, l.line))
                    .collect(),
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.count));
        let mut targets: Vec<CrossTarget> = targets
            .into_iter()
            .map(|((_, id), (l, references, used_by))| CrossTarget {
                id: id.to_string(),
                name: l.to_name.clone(),
                repo: l.to_repo.clone(),
                references,
                used_by: used_by.into_iter().map(str::to_string).collect(),
            })
            .collect();
        targets.sort_by_key(|t| std::cmp::Reverse(t.references));
        targets.truncate(limit);
        let total = rows.len();
        rows.truncate(limit);
        let note = a.links.is_empty().then(|| {
            "no cross-repository references: they link the repositories of a workspace (gortex track, track_repository) through the imports one makes of another; a single repository has none".to_string()
        });
        Ok(CrossRepoResult {
            dependencies: rows,
            total,
            references: kept.len(),
            targets,
            repos: repos.into_iter().map(str::to_string).collect(),
            truncated: total > limit,
            note,
            evidence: "graph",
        })
    }
}
