//! `suggest_reviewers`: the people and teams best placed to review a changeset, from three kinds
//! of evidence, each reported as a reason:
//!
//! - **CODEOWNERS** — an owner of a changed file (teams included), weighted by the share of the
//!   changed files they own;
//! - **authorship** — who last touched the changed symbols' current lines (or the whole file for a
//!   changed file without symbols), and how many of the commits that shaped them in the last year
//!   are theirs;
//! - **co-change** — who wrote the symbols that historically change together with the changed
//!   ones (the co-change layer, strongest neighbours only).
//!
//! Score = 0.45 · owned share + 0.35 · authored share + 0.10 · recent-commit share + 0.10 ·
//! co-change share, each in 0–1. `exclude` drops people (the change's author) by name, email or
//! handle.

use crate::history::{has_history, History};
use crate::report::{blame_shares, round3, HistoryMeta};
use gortex_core::QueryError;
use gortex_graph::query::common::{check_limit_with, file_node, resolve_one};
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Weights of the four kinds of evidence.
const W_OWNER: f64 = 0.45;
const W_AUTHOR: f64 = 0.35;
const W_RECENT: f64 = 0.10;
const W_COCHANGE: f64 = 0.10;
/// Co-change neighbours considered per changed symbol, and the weakest one counted.
const NEIGHBOURS: usize = 5;
const MIN_COCHANGE: f64 = 0.3;
/// "Recent" commits: within this many days before the head commit.
const RECENT_DAYS: i64 = 365;

/// Arguments of `suggest_reviewers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestReviewersArgs {
    /// Changed symbols (ids, `Owner.name` or names).
    #[serde(default)]
    pub symbols: Vec<String>,
    /// Changed files (repository-relative).
    #[serde(default)]
    pub paths: Vec<String>,
    /// People to leave out — the change's author — by name, email or CODEOWNERS handle.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Most reviewers returned (1..=1000, default 5).
    pub limit: Option<usize>,
}

/// One suggested reviewer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewerRow {
    /// A person's name, or a CODEOWNERS handle (`@org/team`, `@user`, an email).
    pub reviewer: String,
    /// `person` (from git history) or `codeowner` (a CODEOWNERS entry).
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// 0–1, see the weights in the tool description.
    pub score: f64,
    /// Changed files this CODEOWNERS entry owns.
    pub owned_files: usize,
    /// Share (0–1) of the changed code's committed lines they last touched.
    pub authored_share: f64,
    /// Their commits among the last year's commits that shaped the changed code.
    pub recent_commits: usize,
    /// Share (0–1) of the co-changing code's lines they last touched, weighted by co-change.
    pub cochange_share: f64,
    /// Why, one sentence per kind of evidence.
    pub reasons: Vec<String>,
}

/// Result of `suggest_reviewers`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SuggestReviewersResult {
    pub reviewers: Vec<ReviewerRow>,
    pub total: usize,
    /// Changed files and symbols the suggestion is for.
    pub files: usize,
    pub symbols: usize,
    /// Inputs not in the graph (new files, deleted symbols): no history to go on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
    pub codeowners_file: Option<String>,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

#[derive(Default)]
struct Evidence {
    email: Option<String>,
    owned: usize,
    authored: f64,
    recent: usize,
    cochange: f64,
    codeowner: bool,
}

/// Ranks reviewers for the changed `symbols` and `paths`.
pub fn suggest_reviewers(
    g: &Graph,
    h: &History,
    args: &SuggestReviewersArgs,
) -> Result<SuggestReviewersResult, QueryError> {
    let limit = check_limit_with(args.limit, 5)?;
    if args.symbols.is_empty() && args.paths.is_empty() {
        return Err(QueryError::invalid(
            "suggest_reviewers needs the changeset: symbols (ids or names) and/or paths (changed files)",
        ));
    }
    let mut unknown = Vec::new();
    let mut targets: Vec<NodeIndex> = Vec::new();
    let mut files: Vec<String> = Vec::new();
    for s in &args.symbols {
        match resolve_one(g, s) {
            Ok(i) if h.subjects.contains_key(&i) => targets.push(i),
            // A file named among the symbols counts as a changed file.
            Ok(i) if g.node_at(i).kind == gortex_core::NodeKind::File => files.push(g.node_at(i).path.to_string()),
            Err(e) if e.code == "ambiguous" => return Err(e),
            _ => unknown.push(s.clone()),
        }
    }
    for p in args.paths.iter().map(|p| p.trim_start_matches("./").to_string()) {
        if !files.contains(&p) {
            files.push(p);
        }
    }
    for &i in &targets {
        let p = g.node_at(i).path.to_string();
        if !files.contains(&p) {
            files.push(p);
        }
    }
    // A changed file with no changed symbol named stands for its whole text.
    for p in &files {
        if !targets.iter().any(|&i| *g.node_at(i).path == **p) {
            match file_node(g, p) {
                Some(f) if h.files.contains_key(p.as_str()) => targets.push(f),
                _ => unknown.push(p.clone()),
            }
        }
    }
    let excluded = |name: &str, email: &str| {
        args.exclude.iter().any(|x| {
            x.eq_ignore_ascii_case(name)
                || x.eq_ignore_ascii_case(email)
                || x.trim_start_matches('@').eq_ignore_ascii_case(name)
        })
    };
    let mut people: FxHashMap<String, Evidence> = FxHashMap::default();
    // CODEOWNERS.
    if let Some(co) = &h.codeowners {
        for p in &files {
            for owner in co.owners(&h.worktree_path(p)).0 {
                if excluded(&owner, &owner) {
                    continue;
                }
                let e = people.entry(owner).or_default();
                e.owned += 1;
                e.codeowner = true;
            }
        }
    }
    // Authorship of the changed code, and recent commits on it.
    let head_time = h.mined.commits.last().map_or(0, |c| c.time);
    let lines_of = |i: NodeIndex| -> &[u32] {
        if g.node_at(i).kind == gortex_core::NodeKind::File {
            h.files.get(&g.node_at(i).path).map(|v| v.as_slice()).unwrap_or(&[])
        } else {
            h.lines_of(g, i).unwrap_or(&[])
        }
    };
    let mut recent_commits: Vec<u32> = Vec::new();
    for &i in &targets {
        let (shares, _, _) = blame_shares(&h.mined, lines_of(i));
        for a in shares {
            if excluded(&a.name, &a.email) {
                continue;
            }
            let e = people.entry(a.name.clone()).or_default();
            e.email = Some(a.email.clone());
            e.authored += a.share / targets.len() as f64;
        }
        let commits: Vec<u32> = match h.subjects.get(&i) {
            Some(s) => s.span.clone(),
            None => {
                let mut all: Vec<u32> = lines_of(i)
                    .iter()
                    .flat_map(|&set| h.mined.lineage.get(set).iter().copied())
                    .collect();
                all.sort_unstable();
                all.dedup();
                all
            }
        };
        recent_commits.extend(
            commits
                .into_iter()
                .filter(|&c| head_time - h.mined.commits[c as usize].time <= RECENT_DAYS * 86_400),
        );
    }
    recent_commits.sort_unstable();
    recent_commits.dedup();
    for &c in &recent_commits {
        let person = &h.mined.people[h.mined.commits[c as usize].author as usize];
        if !excluded(&person.name, &person.email) {
            let e = people.entry(person.name.clone()).or_default();
            e.email = Some(person.email.clone());
            e.recent += 1;
        }
    }
    // Co-change experts: authors of the strongest co-changing neighbours.
    let symbol_targets: Vec<NodeIndex> = targets
        .iter()
        .copied()
        .filter(|&i| has_history(g.node_at(i).kind))
        .collect();
    let mut weight_total = 0.0;
    for &i in &symbol_targets {
        let (_, _, found) = crate::cochange::neighbours(h, i, 50, 2);
        for n in found
            .into_iter()
            .filter(|n| n.score >= MIN_COCHANGE && !symbol_targets.contains(&n.node))
            .take(NEIGHBOURS)
        {
            let (other, score) = (n.node, n.score);
            weight_total += score;
            let (shares, _, _) = blame_shares(&h.mined, h.lines_of(g, other).unwrap_or(&[]));
            for a in shares {
                if excluded(&a.name, &a.email) {
                    continue;
                }
                let e = people.entry(a.name.clone()).or_default();
                e.email = Some(a.email.clone());
                e.cochange += a.share * score;
            }
        }
    }
    let recent_total = recent_commits.len().max(1) as f64;
    let mut rows: Vec<ReviewerRow> = people
        .into_iter()
        .map(|(name, e)| {
            let owned = e.owned as f64 / files.len().max(1) as f64;
            let cochange = if weight_total > 0.0 {
                e.cochange / weight_total
            } else {
                0.0
            };
            let recent = e.recent as f64 / recent_total;
            let mut reasons = Vec::new();
            if e.owned > 0 {
                reasons.push(format!(
                    "CODEOWNERS owner of {} of {} changed files",
                    e.owned,
                    files.len()
                ));
            }
            if e.authored > 0.0 {
                reasons.push(format!(
                    "last touched {:.0} % of the changed code's lines",
                    e.authored * 100.0
                ));
            }
            if e.recent > 0 {
                reasons.push(format!(
                    "{} of the {} commits that shaped it in the last year",
                    e.recent,
                    recent_commits.len()
                ));
            }
            if cochange > 0.0 {
                reasons.push(format!(
                    "wrote {:.0} % of the code that changes together with it",
                    cochange * 100.0
                ));
            }
            ReviewerRow {
                kind: if e.codeowner { "codeowner" } else { "person" },
                email: e.email,
                score: round3(W_OWNER * owned + W_AUTHOR * e.authored + W_RECENT * recent + W_COCHANGE * cochange),
                owned_files: e.owned,
                authored_share: round3(e.authored),
                recent_commits: e.recent,
                cochange_share: round3(cochange),
                reasons,
                reviewer: name,
            }
        })
        .filter(|r| r.score > 0.0)
        .collect();
    rows.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.reviewer.cmp(&b.reviewer)));
    let total = rows.len();
    rows.truncate(limit);
    Ok(SuggestReviewersResult {
        reviewers: rows,
        total,
        files: files.len(),
        symbols: symbol_targets.len(),
        unknown,
        codeowners_file: h.codeowners.as_ref().map(|c| c.file.clone()),
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}
