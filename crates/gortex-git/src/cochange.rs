//! `find_co_changing_symbols`: the co-change layer. Two symbols co-change when one mainline
//! commit shaped the own lines of both; the score is the cosine of their commit sets,
//! `shared / sqrt(commits_a · commits_b)`. Commits that shaped more than `max_commit_symbols`
//! symbols (mass renames, reformatting, vendoring) say nothing about coupling and are left out,
//! and counted. A file target is answered at file level, over the commits that changed files.

use crate::history::{file_commits, History};
use crate::report::{round3, CommitRef, HistoryMeta};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::common::{check_limit_with, check_range, resolve_one};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `find_co_changing_symbols`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoChangeArgs {
    /// The symbol (id, `Owner.name` or name) or file whose co-change neighbours to rank.
    pub symbol: String,
    /// Fewest shared commits for a neighbour (1..=1000, default 2).
    pub min_shared: Option<u32>,
    /// Lowest cosine score for a neighbour (0–1, default 0.1).
    pub min_score: Option<f64>,
    /// Commits that shaped more symbols (or changed more files) than this are left out (2..=10000, default 50).
    pub max_commit_symbols: Option<u32>,
    /// Most neighbours returned (1..=1000, default 20), best first.
    pub limit: Option<usize>,
}

/// A co-change neighbour.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoChangeRow {
    /// The neighbour symbol (symbol targets).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub node: Option<NodeSummary>,
    /// The neighbour file (file targets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Commits that changed both.
    pub shared: u32,
    /// Cosine of the two commit sets (0–1).
    pub score: f64,
    /// Whether the neighbour is in another file than the target.
    pub cross_file: bool,
    /// The latest commit that changed both.
    pub last_shared: CommitRef,
}

/// Result of `find_co_changing_symbols`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoChangeResult {
    pub target: NodeSummary,
    /// Commits counted for the target (large commits left out).
    pub commits: usize,
    pub neighbours: Vec<CoChangeRow>,
    pub total: usize,
    /// The target's commits left out for shaping too many symbols (or files).
    pub skipped_large_commits: usize,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// Ranks `args.symbol`'s co-change neighbours.
pub fn find_co_changing(g: &Graph, h: &History, args: &CoChangeArgs) -> Result<CoChangeResult, QueryError> {
    let limit = check_limit_with(args.limit, 20)?;
    let min_shared = check_range("min_shared", args.min_shared, 2, 1, 1000)?;
    let max_large = check_range("max_commit_symbols", args.max_commit_symbols, 50, 2, 10_000)? as usize;
    let min_score = match args.min_score {
        None => 0.1,
        Some(s) if (0.0..=1.0).contains(&s) => s,
        Some(s) => {
            return Err(QueryError::invalid(format!(
                "min_score must be between 0 and 1, got {s}"
            )))
        }
    };
    let target = resolve_one(g, &args.symbol)?;
    let node = g.node_at(target);
    // (neighbour, own commit count) → shared commits, latest shared.
    let (commits, skipped, mut rows): (usize, usize, Vec<CoChangeRow>) = if node.kind == NodeKind::File {
        file_neighbours(h, &node.path, max_large, min_shared, min_score)
    } else {
        if !h.subjects.contains_key(&target) {
            return Err(QueryError::invalid(format!(
                "`{}` is a {} — co-change ranks functions, methods, types, interfaces, constants, variables and files",
                args.symbol, node.kind
            )));
        }
        let (counted, skipped, found) = neighbours(h, target, max_large, min_shared);
        let rows = found
            .into_iter()
            .filter(|n| n.score >= min_score)
            .map(|n| CoChangeRow {
                cross_file: g.node_at(n.node).path != node.path,
                node: Some(NodeSummary::of(g.node_at(n.node))),
                path: None,
                shared: n.shared,
                score: round3(n.score),
                last_shared: CommitRef::of(&h.mined, n.last),
            })
            .collect();
        (counted, skipped, rows)
    };
    rows.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.shared.cmp(&a.shared))
            .then_with(|| key(a).cmp(&key(b)))
    });
    let total = rows.len();
    rows.truncate(limit);
    Ok(CoChangeResult {
        target: NodeSummary::of(node),
        commits,
        neighbours: rows,
        total,
        skipped_large_commits: skipped,
        truncated: total > limit,
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}

/// A symbol that changes together with another.
pub struct Neighbour {
    pub node: NodeIndex,
    /// Commits that shaped both.
    pub shared: u32,
    /// The latest of them.
    pub last: u32,
    /// Cosine of the two commit sets.
    pub score: f64,
}

/// The co-change neighbours of symbol `target` sharing at least `min_shared` commits, best first,
/// with commits that shaped more than `max_large` symbols left out; also the target's counted and
/// left-out commits.
pub fn neighbours(h: &History, target: NodeIndex, max_large: usize, min_shared: u32) -> (usize, usize, Vec<Neighbour>) {
    let Some(subject) = h.subjects.get(&target) else {
        return (0, 0, Vec::new());
    };
    let large = |c: u32| h.by_commit[c as usize].len() > max_large;
    let counted: Vec<u32> = subject.own.iter().copied().filter(|&c| !large(c)).collect();
    let mut shared: FxHashMap<NodeIndex, (u32, u32)> = FxHashMap::default();
    for &c in &counted {
        for &other in &h.by_commit[c as usize] {
            if other != target {
                let e = shared.entry(other).or_insert((0, c));
                e.0 += 1;
                e.1 = e.1.max(c);
            }
        }
    }
    let mut found: Vec<Neighbour> = shared
        .into_iter()
        .filter(|&(_, (n, _))| n >= min_shared)
        .map(|(other, (n, last))| {
            let theirs = h.subjects[&other].own.iter().filter(|&&c| !large(c)).count();
            Neighbour {
                node: other,
                shared: n,
                last,
                score: f64::from(n) / ((counted.len() * theirs) as f64).sqrt(),
            }
        })
        .collect();
    found.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.shared.cmp(&a.shared))
            .then(a.node.cmp(&b.node))
    });
    (counted.len(), subject.own.len() - counted.len(), found)
}

fn key(row: &CoChangeRow) -> String {
    row.node
        .as_ref()
        .map(|n| n.id.clone())
        .or_else(|| row.path.clone())
        .unwrap_or_default()
}

/// File-level co-change of graph path `path` over the commits that changed files (renames
/// followed, files gone since left out).
fn file_neighbours(
    h: &History,
    path: &str,
    max_large: usize,
    min_shared: u32,
    min_score: f64,
) -> (usize, usize, Vec<CoChangeRow>) {
    let mined = &h.mined;
    let wt = h.worktree_path(path);
    let Some(me) = mined.paths.iter().position(|p| *p == wt) else {
        return (0, 0, Vec::new());
    };
    let per_file = file_commits(mined);
    let large = |c: u32| mined.commits[c as usize].paths.len() > max_large;
    let mine: Vec<u32> = per_file.get(&(me as u32)).cloned().unwrap_or_default();
    let counted: Vec<u32> = mine.iter().copied().filter(|&c| !large(c)).collect();
    let mut in_commit: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (&file, commits) in &per_file {
        if file != me as u32 {
            for &c in commits {
                in_commit.entry(c).or_default().push(file);
            }
        }
    }
    let mut shared: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
    for &c in &counted {
        for &file in in_commit.get(&c).into_iter().flatten() {
            let e = shared.entry(file).or_insert((0, c));
            e.0 += 1;
            e.1 = e.1.max(c);
        }
    }
    let rows = shared
        .into_iter()
        .filter(|&(_, (n, _))| n >= min_shared)
        .filter_map(|(file, (n, last))| {
            let rel = mined.paths[file as usize].strip_prefix(h.prefix.as_str())?;
            if !h.files.contains_key(rel) {
                return None; // outside the index
            }
            let theirs = per_file[&file].iter().filter(|&&c| !large(c)).count();
            let score = f64::from(n) / ((counted.len() * theirs) as f64).sqrt();
            (score >= min_score).then(|| CoChangeRow {
                node: None,
                path: Some(rel.to_string()),
                shared: n,
                score: round3(score),
                cross_file: true,
                last_shared: CommitRef::of(mined, last),
            })
        })
        .collect();
    (counted.len(), mine.len() - counted.len(), rows)
}
