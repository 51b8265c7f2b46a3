//! Change impact: `explain_change_impact` (the blast radius of changing some symbols or a file,
//! tiered by risk) and `analyze kind=impact` (a composite 0–100 risk score per symbol).
//!
//! Both read dependents from the reach index ([`crate::reach`]): nodes that reach the target over
//! incoming non-structural edges in one, two or three hops.
//!
//! **Risk tier** of `explain_change_impact` (points, summed):
//! - dependents outside tests: 1–4 → 1, 5–19 → 2, 20–99 → 3, 100+ → 4;
//! - files among the dependents other than the targets' own: 2–9 → 1, 10+ → 2;
//! - an exported target → 1;
//! - communities touched (targets and dependents, when a [`CommunityMap`] is given): 3–4 → 1,
//!   5+ → 2;
//! - execution flows touched (when a [`ProcessMap`] is given): 1–2 → 1, 3+ → 2.
//!
//! 0–1 points is `low`, 2–3 `medium`, 4–6 `high`, 7+ `critical`. `risk_factors` lists each
//! contribution. A truncated walk makes every count a lower bound.
//!
//! **Impact score** of `analyze kind=impact` (0–100, one decimal), with `sat(x, cap) =
//! min(1, ln(1+x) / ln(1+cap))`:
//! - centrality, 30 points: `30·sat(in_degree, 50)`, where `in_degree` counts the distinct nodes
//!   with an incoming non-structural edge into the symbol (or anything it contains); in-degree is
//!   used rather than PageRank because it is local, exact and needs no whole-graph pass;
//! - reach, 35 points: `35·sat(d1 + d2/2 + d3/4, 200)` over the reach index's level sizes;
//! - complexity, 20 points: `10·sat(lines, 300) + 10·sat(fan_out, 30)`, with `lines` the
//!   declaration's span and `fan_out` the distinct nodes it uses (usage edges out of its scope);
//! - community span, 15 points: `15·min(1, (c − 1) / 4)` with `c` the distinct communities of the
//!   symbol and its dependents — distinct directories stand in without a [`CommunityMap`].

use crate::reach::{check_seed, followed, reach_for, test_flags, Reach, ReachCache};
use crate::{CommunityMap, ProcessMap};
use gortex_core::{NodeKind, Origin, QueryError};
use gortex_graph::query::callers::in_test;
use gortex_graph::query::common::{
    caveat_for_rows, check_limit, check_range, did_you_mean, file_node, lookup_id, parse_min_tier, resolve_arg,
    resolve_one, suggest_files, tier_floor, tiered, Caveat, TierReport, MAX_SUGGESTIONS,
};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::sync::Arc;

/// Most targets one `explain_change_impact` call accepts in `ids`.
pub const MAX_IMPACT_IDS: usize = 100;

/// Arguments of `explain_change_impact`. Exactly one of `id`, `ids` and `file` is required.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainChangeImpactArgs {
    /// One symbol (id, qualified or bare name) or a file path.
    #[serde(default)]
    pub id: Option<String>,
    /// Several symbols changed together (at most [`MAX_IMPACT_IDS`]).
    #[serde(default)]
    pub ids: Option<Vec<String>>,
    /// A file: its symbols and its importers.
    #[serde(default)]
    pub file: Option<String>,
    /// Levels of dependents (1..=3, default 3).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Most dependent rows listed over all levels (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier followed.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// The risk tier of a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RiskTier {
    Low,
    Medium,
    High,
    Critical,
}

/// One dependent.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DependentRow {
    pub node: NodeSummary,
    /// The best path tier reaching it.
    pub tier: Origin,
}

/// Dependents at one level.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImpactLevel {
    pub depth: u32,
    /// Dependents at this level (before `limit`).
    pub count: usize,
    /// Listed dependents (the nearest levels fill `limit` first), by path and line.
    pub dependents: Vec<DependentRow>,
}

/// An execution flow a change touches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ProcessRef {
    pub id: u32,
    pub name: String,
}

/// The blast radius of a change.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainChangeImpactResult {
    pub targets: Vec<NodeSummary>,
    pub depth: u32,
    pub risk: RiskTier,
    /// What earned the risk tier (see the module doc for the rule).
    pub risk_factors: Vec<String>,
    /// Dependents over all levels.
    pub total: usize,
    pub levels: Vec<ImpactLevel>,
    /// Distinct files among the dependents.
    pub files: usize,
    /// Test symbols among the dependents, by path and line.
    pub affected_tests: Vec<NodeSummary>,
    /// Files of the affected tests (and test files among the dependents), sorted.
    pub affected_test_files: Vec<String>,
    /// Execution flows through the targets or their dependents (empty without a process map).
    pub affected_processes: Vec<ProcessRef>,
    /// Distinct communities of the targets and dependents (absent without a community map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub communities_touched: Option<usize>,
    /// The reach walk hit its bounds: every count is a lower bound.
    pub truncated: bool,
    /// Dependent rows were cut by `limit`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rows_truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
    /// For one symbol target: how far "nothing depends on it" can be trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<Caveat>,
}

/// A dependent of a change before rendering.
#[derive(Debug, Clone, Copy)]
struct Dep {
    node: NodeIndex,
    depth: u32,
    tier: Origin,
}

/// `explain_change_impact`: per-level dependents of a symbol, several symbols or a file, with a
/// risk tier, affected tests, flows and communities (see the module doc).
pub fn explain_change_impact(
    g: &Graph,
    cache: &ReachCache,
    communities: Option<&CommunityMap>,
    processes: Option<&ProcessMap>,
    args: &ExplainChangeImpactArgs,
) -> Result<ExplainChangeImpactResult, QueryError> {
    let depth = check_range("depth", args.depth, 3, 1, 3)?;
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let targets = impact_targets(g, args)?;

    let truncated = Cell::new(false);
    let t = tiered(
        min_tier,
        |floor| {
            let (deps, trunc) = merged_dependents(g, Some(cache), &targets, floor, depth);
            truncated.set(trunc);
            deps
        },
        |d| d.tier,
    );
    let mut deps = t.rows;
    deps.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.node), g.node_at(b.node));
        (a.depth, &x.path, x.span.start_line, &x.id).cmp(&(b.depth, &y.path, y.span.start_line, &y.id))
    });

    let mut levels: Vec<ImpactLevel> = (1..=depth)
        .map(|d| ImpactLevel {
            depth: d,
            count: deps.iter().filter(|x| x.depth == d).count(),
            dependents: Vec::new(),
        })
        .collect();
    levels.retain(|l| l.count > 0);
    for d in deps.iter().take(limit) {
        if let Some(level) = levels.iter_mut().find(|l| l.depth == d.depth) {
            level.dependents.push(DependentRow {
                node: NodeSummary::at(g, d.node),
                tier: d.tier,
            });
        }
    }

    let mut tests: Vec<NodeIndex> = Vec::new();
    let mut test_files: Vec<String> = Vec::new();
    let mut files: FxHashSet<&str> = FxHashSet::default();
    let mut production = 0usize;
    for d in &deps {
        let n = g.node_at(d.node);
        if !n.path.is_empty() {
            files.insert(&n.path);
        }
        if in_test(g, d.node) {
            if n.kind != NodeKind::File {
                tests.push(d.node);
            }
            test_files.push(n.path.to_string());
        } else {
            production += 1;
        }
    }
    tests.sort_by(|&a, &b| {
        let (x, y) = (g.node_at(a), g.node_at(b));
        (&x.path, x.span.start_line, &x.id).cmp(&(&y.path, y.span.start_line, &y.id))
    });
    test_files.sort();
    test_files.dedup();

    let involved = || targets.iter().copied().chain(deps.iter().map(|d| d.node));
    let affected_processes = processes.map(|p| touched_processes(p, involved())).unwrap_or_default();
    let communities_touched = communities.map(|c| involved().filter_map(|n| c.of(n)).collect::<FxHashSet<u32>>().len());

    let own_files: FxHashSet<&str> = targets.iter().map(|&t| &*g.node_at(t).path).collect();
    let other_files = files.iter().filter(|f| !own_files.contains(*f)).count();
    let exported = targets.iter().any(|&t| g.node_at(t).exported);
    let (risk, risk_factors) = risk_tier(RiskInputs {
        production,
        other_files,
        exported,
        communities: communities_touched,
        processes: processes.map(|_| affected_processes.len()),
        truncated: truncated.get(),
    });

    let caveat = match targets.as_slice() {
        [t] if !matches!(g.node_at(*t).kind, NodeKind::File | NodeKind::Package) => {
            caveat_for_rows(g, *t, deps.iter().filter(|d| d.depth == 1).map(|d| d.tier))
        }
        _ => None,
    };
    let total = deps.len();
    Ok(ExplainChangeImpactResult {
        targets: targets.iter().map(|&t| NodeSummary::at(g, t)).collect(),
        depth,
        risk,
        risk_factors,
        total,
        levels,
        files: files.len(),
        affected_tests: tests.into_iter().take(limit).map(|t| NodeSummary::at(g, t)).collect(),
        affected_test_files: test_files,
        affected_processes,
        communities_touched,
        truncated: truncated.get(),
        rows_truncated: total > limit,
        tiers: t.report,
        caveat,
    })
}

/// The targets named by `id`, `ids` or `file` (exactly one of them).
fn impact_targets(g: &Graph, args: &ExplainChangeImpactArgs) -> Result<Vec<NodeIndex>, QueryError> {
    let given = [args.id.is_some(), args.ids.is_some(), args.file.is_some()];
    if given.iter().filter(|&&b| b).count() != 1 {
        return Err(QueryError::invalid(
            "explain_change_impact needs exactly one of id (a symbol or file), ids (a list of symbols) or file \
             (a file path)",
        ));
    }
    let mut targets = Vec::new();
    if let Some(id) = &args.id {
        targets.push(resolve_one(g, id)?);
    }
    if let Some(ids) = &args.ids {
        if ids.is_empty() || ids.len() > MAX_IMPACT_IDS {
            return Err(QueryError::invalid(format!(
                "ids must hold 1..={MAX_IMPACT_IDS} symbols, got {}",
                ids.len()
            )));
        }
        for (k, id) in ids.iter().enumerate() {
            let t = resolve_arg(g, &format!("ids[{k}]"), id)?;
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
    }
    if let Some(file) = &args.file {
        targets.push(resolve_file(g, "file", file)?);
    }
    for &t in &targets {
        check_seed(g, t, "explain_change_impact")?;
    }
    Ok(targets)
}

/// A file (or Go/Java package) named by a path or id; `not_found` with similar file names.
pub(crate) fn resolve_file(g: &Graph, arg: &str, value: &str) -> Result<NodeIndex, QueryError> {
    let v = value.trim();
    if v.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} must be a repository-relative file path, got an empty string"
        )));
    }
    if let Some(f) = file_node(g, v) {
        return Ok(f);
    }
    if let Some(i) = lookup_id(g, v) {
        let n = g.node_at(i);
        if matches!(n.kind, NodeKind::File | NodeKind::Package) {
            return Ok(i);
        }
        return Err(QueryError::invalid(format!(
            "{arg} must name a file, but {:?} is a {}",
            &*n.id, n.kind
        )));
    }
    let suggestions: Vec<String> = suggest_files(g, v, MAX_SUGGESTIONS)
        .into_iter()
        .map(|f| g.node_at(f).path.to_string())
        .collect();
    Err(QueryError::not_found(format!(
        "{arg}: no file matches {v:?}; {}",
        did_you_mean(&suggestions)
    )))
}

/// Dependents of all targets (each node once, at its smallest depth, with its best tier at that
/// depth), excluding what the targets stand for; and whether any walk was truncated.
fn merged_dependents(
    g: &Graph,
    cache: Option<&ReachCache>,
    targets: &[NodeIndex],
    floor: Origin,
    depth: u32,
) -> (Vec<Dep>, bool) {
    let reaches: Vec<Arc<Reach>> = targets.iter().map(|&t| reach_for(g, cache, t, floor)).collect();
    let truncated = reaches.iter().any(|r| r.truncated);
    if let [r] = reaches.as_slice() {
        let deps = r
            .entries()
            .filter(|(d, _)| *d <= depth)
            .map(|(d, e)| Dep {
                node: e.node,
                depth: d,
                tier: e.tier,
            })
            .collect();
        return (deps, truncated);
    }
    let scope: FxHashSet<NodeIndex> = reaches.iter().flat_map(|r| r.scope.iter().copied()).collect();
    let mut best: FxHashMap<NodeIndex, (u32, Origin)> = FxHashMap::default();
    for r in &reaches {
        for (d, e) in r.entries() {
            if d > depth || scope.contains(&e.node) {
                continue;
            }
            best.entry(e.node)
                .and_modify(|b| {
                    if d < b.0 || (d == b.0 && e.tier > b.1) {
                        *b = (d, e.tier);
                    }
                })
                .or_insert((d, e.tier));
        }
    }
    let mut deps: Vec<Dep> = best
        .into_iter()
        .map(|(node, (depth, tier))| Dep { node, depth, tier })
        .collect();
    deps.sort_unstable_by_key(|d| d.node);
    (deps, truncated)
}

fn touched_processes(p: &ProcessMap, nodes: impl Iterator<Item = NodeIndex>) -> Vec<ProcessRef> {
    let mut ids: Vec<u32> = nodes
        .filter_map(|n| p.by_node.get(&n))
        .flat_map(|v| v.iter().copied())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|id| ProcessRef {
            id,
            name: p.names.get(id as usize).cloned().unwrap_or_default(),
        })
        .collect()
}

struct RiskInputs {
    production: usize,
    other_files: usize,
    exported: bool,
    communities: Option<usize>,
    processes: Option<usize>,
    truncated: bool,
}

/// The documented risk rule (module doc).
fn risk_tier(r: RiskInputs) -> (RiskTier, Vec<String>) {
    let mut points = 0u32;
    let mut factors = Vec::new();
    let mut add = |p: u32, why: String| {
        if p > 0 {
            points += p;
            factors.push(format!("+{p}: {why}"));
        }
    };
    let dep_points = match r.production {
        0 => 0,
        1..=4 => 1,
        5..=19 => 2,
        20..=99 => 3,
        _ => 4,
    };
    add(dep_points, format!("{} dependents outside tests", r.production));
    let file_points = match r.other_files {
        0 | 1 => 0,
        2..=9 => 1,
        _ => 2,
    };
    add(file_points, format!("dependents in {} other files", r.other_files));
    add(u32::from(r.exported), "an exported target (public API)".to_string());
    if let Some(c) = r.communities {
        let p = match c {
            0..=2 => 0,
            3 | 4 => 1,
            _ => 2,
        };
        add(p, format!("{c} communities touched"));
    }
    if let Some(p) = r.processes {
        let pts = match p {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        };
        add(pts, format!("{p} execution flows touched"));
    }
    let tier = match points {
        0 | 1 => RiskTier::Low,
        2 | 3 => RiskTier::Medium,
        4..=6 => RiskTier::High,
        _ => RiskTier::Critical,
    };
    if r.truncated {
        factors.push("the reach walk hit its bounds: counts are lower bounds".to_string());
    }
    (tier, factors)
}

// ---------------------------------------------------------------------------------------------
// analyze kind=impact
// ---------------------------------------------------------------------------------------------

/// What `analyze kind=impact` ranks: one symbol or one file. Exactly one field is required.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactTarget {
    /// A symbol: an id, `Owner.name` or a bare name.
    #[serde(default)]
    pub symbol: Option<String>,
    /// A file path.
    #[serde(default)]
    pub file: Option<String>,
}

/// Arguments of `analyze kind=impact`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactArgs {
    /// Rank this target's blast radius; without it, rank the repository's riskiest functions.
    #[serde(default)]
    pub target: Option<ImpactTarget>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The points each part of the score contributed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct ImpactComponents {
    pub centrality: f64,
    pub reach: f64,
    pub complexity: f64,
    pub community_span: f64,
}

/// The raw measurements behind a score.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ImpactMetrics {
    /// Distinct nodes using the symbol (or anything it contains).
    pub in_degree: usize,
    /// Dependents one, two and three hops away.
    pub reach: [usize; 3],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reach_truncated: bool,
    /// Lines of the declaration.
    pub lines: u32,
    /// Distinct nodes the symbol uses.
    pub fan_out: usize,
    /// Distinct communities (or directories without a community map) of it and its dependents.
    pub communities: usize,
}

/// One ranked row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImpactRow {
    pub node: NodeSummary,
    /// With a target: 0 for the target, else the dependent's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// 0–100.
    pub score: f64,
    pub components: ImpactComponents,
    pub metrics: ImpactMetrics,
}

/// The ranking.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ImpactResult {
    /// `target` (a blast radius) or `repo` (the riskiest functions and methods).
    pub mode: &'static str,
    pub rows: Vec<ImpactRow>,
    /// Rows before `limit`.
    pub total: usize,
    pub truncated: bool,
    /// Target mode: dependents within three levels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closure_width: Option<usize>,
    /// Target mode: the closure is complete (the walk was not truncated and nothing depends on
    /// the third level from outside it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    /// Repo mode: functions and methods outside tests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<usize>,
    /// Repo mode: how many of them got a full score (the rest were cut by the cheap prefilter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scored: Option<usize>,
    pub note: String,
}

/// `analyze kind=impact`: composite risk scores (see the module doc). With a target: the target
/// row first, then its dependents by level (highest score first within a level). Without: the
/// riskiest functions and methods; to bound the work only the candidates ranked highest by a
/// cheap prefilter (in-degree, fan-out, size) get a full score.
pub fn impact(
    g: &Graph,
    cache: &ReachCache,
    communities: Option<&CommunityMap>,
    args: &ImpactArgs,
) -> Result<ImpactResult, QueryError> {
    let limit = check_limit(args.limit)?;
    match &args.target {
        Some(t) => impact_of_target(g, cache, communities, t, limit),
        None => impact_of_repo(g, cache, communities, limit),
    }
}

fn impact_of_target(
    g: &Graph,
    cache: &ReachCache,
    communities: Option<&CommunityMap>,
    target: &ImpactTarget,
    limit: usize,
) -> Result<ImpactResult, QueryError> {
    let node = match (&target.symbol, &target.file) {
        (Some(s), None) => resolve_arg(g, "target.symbol", s)?,
        (None, Some(f)) => resolve_file(g, "target.file", f)?,
        _ => {
            return Err(QueryError::invalid(
                "target must hold exactly one of symbol (a symbol id or name) or file (a file path)",
            ))
        }
    };
    check_seed(g, node, "analyze kind=impact")?;
    let floor = tier_floor(None);
    let reach = reach_for(g, Some(cache), node, floor);
    let mut deps: Vec<(u32, NodeIndex)> = reach.entries().map(|(d, e)| (d, e.node)).collect();
    deps.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.1), g.node_at(b.1));
        (a.0, &x.path, x.span.start_line, &x.id).cmp(&(b.0, &y.path, y.span.start_line, &y.id))
    });
    let closure_width = deps.len();
    let exact = !reach.truncated && closed(g, &reach, floor);
    let shown: Vec<(u32, NodeIndex)> = deps.into_iter().take(limit.saturating_sub(1)).collect();
    let mut rows: Vec<ImpactRow> = shown
        .par_iter()
        .map(|&(d, n)| score_row(g, Some(cache), communities, n, Some(d)))
        .collect();
    rows.sort_by(|a, b| {
        (a.depth, std::cmp::Reverse(Score(a.score)), &a.node.id).cmp(&(
            b.depth,
            std::cmp::Reverse(Score(b.score)),
            &b.node.id,
        ))
    });
    rows.insert(0, score_row(g, Some(cache), communities, node, Some(0)));
    let total = closure_width + 1;
    Ok(ImpactResult {
        mode: "target",
        rows,
        total,
        truncated: total > limit,
        closure_width: Some(closure_width),
        exact: Some(exact),
        candidates: None,
        scored: None,
        note: "dependents within three levels over incoming non-structural edges; each row scored by centrality, \
               reach, complexity and community span"
            .to_string(),
    })
}

/// True when no node outside the walked set depends on the last level (the closure ends there).
fn closed(g: &Graph, reach: &Reach, floor: Origin) -> bool {
    let last = &reach.depths[crate::reach::REACH_DEPTHS - 1];
    if last.is_empty() {
        return true;
    }
    let known: FxHashSet<NodeIndex> = reach
        .scope
        .iter()
        .copied()
        .chain(reach.entries().map(|(_, e)| e.node))
        .collect();
    !last.iter().any(|e| {
        g.in_edges(e.node)
            .any(|x| followed(x.kind) && x.origin >= floor && !known.contains(&x.from))
    })
}

/// Candidates that get a full score in repo mode: at least this many, and 4 × `limit`.
const MIN_SCORED: usize = 200;
/// At most this many candidates get a full score in repo mode.
const MAX_SCORED: usize = 4_000;

fn impact_of_repo(
    g: &Graph,
    cache: &ReachCache,
    communities: Option<&CommunityMap>,
    limit: usize,
) -> Result<ImpactResult, QueryError> {
    let tests = test_flags(g);
    let mut pre: Vec<(f64, NodeIndex)> = (0..g.node_count() as NodeIndex)
        .into_par_iter()
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind.is_callable() && !n.external && !tests[i as usize] && g.is_live(i)
        })
        .map(|i| {
            let n = g.node_at(i);
            let fan_in = g.in_edges(i).filter(|e| !e.kind.is_structural()).count();
            let fan_out = g.out_edges(i).filter(|e| e.kind.is_usage()).count();
            let lines = n.span.end_line.saturating_sub(n.span.start_line) + 1;
            let p = 3.0 * (fan_in as f64).ln_1p() + (fan_out as f64).ln_1p() + 0.5 * (lines as f64).ln_1p();
            (p, i)
        })
        .collect();
    let candidates = pre.len();
    let k = candidates.min((4 * limit).clamp(MIN_SCORED, MAX_SCORED));
    pre.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    pre.truncate(k);
    let mut rows: Vec<ImpactRow> = pre
        .par_iter()
        .map(|&(_, i)| score_row(g, Some(cache), communities, i, None))
        .collect();
    rows.sort_by(|a, b| {
        (std::cmp::Reverse(Score(a.score)), &a.node.id).cmp(&(std::cmp::Reverse(Score(b.score)), &b.node.id))
    });
    let total = rows.len();
    rows.truncate(limit);
    Ok(ImpactResult {
        mode: "repo",
        rows,
        total,
        truncated: total > limit,
        closure_width: None,
        exact: None,
        candidates: Some(candidates),
        scored: Some(k),
        note: if k == candidates {
            format!("all {candidates} functions and methods outside tests were scored")
        } else {
            format!(
                "functions and methods outside tests; only the {k} of {candidates} ranked highest by a cheap \
                 prefilter (in-degree, fan-out, size) got a full score with their reach"
            )
        },
    })
}

/// A total order on scores (they are finite).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score(f64);

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

fn sat(x: f64, cap: f64) -> f64 {
    (x.ln_1p() / cap.ln_1p()).min(1.0)
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Scores one node (the documented formula).
fn score_row(
    g: &Graph,
    cache: Option<&ReachCache>,
    communities: Option<&CommunityMap>,
    node: NodeIndex,
    depth: Option<u32>,
) -> ImpactRow {
    let reach = reach_for(g, cache, node, tier_floor(None));
    let scope: FxHashSet<NodeIndex> = reach.scope.iter().copied().collect();
    let mut users: FxHashSet<NodeIndex> = FxHashSet::default();
    let mut uses: FxHashSet<NodeIndex> = FxHashSet::default();
    for &m in &reach.scope {
        for e in g.in_edges(m) {
            if !e.kind.is_structural() && !scope.contains(&e.from) {
                users.insert(e.from);
            }
        }
        for e in g.out_edges(m) {
            if e.kind.is_usage() && !scope.contains(&e.to) {
                uses.insert(e.to);
            }
        }
    }
    let n = g.node_at(node);
    let lines = n.span.end_line.saturating_sub(n.span.start_line) + 1;
    let [d1, d2, d3] = reach.sizes();
    let involved = std::iter::once(node).chain(reach.entries().map(|(_, e)| e.node));
    let span = match communities {
        Some(c) => involved.filter_map(|x| c.of(x)).collect::<FxHashSet<u32>>().len(),
        None => involved
            .map(|x| crate::reach::dir_of(&g.node_at(x).path))
            .collect::<FxHashSet<&str>>()
            .len(),
    };
    let components = ImpactComponents {
        centrality: round1(30.0 * sat(users.len() as f64, 50.0)),
        reach: round1(35.0 * sat(d1 as f64 + d2 as f64 / 2.0 + d3 as f64 / 4.0, 200.0)),
        complexity: round1(10.0 * sat(lines as f64, 300.0) + 10.0 * sat(uses.len() as f64, 30.0)),
        community_span: round1(15.0 * (span.saturating_sub(1) as f64 / 4.0).min(1.0)),
    };
    let score = round1(components.centrality + components.reach + components.complexity + components.community_span);
    ImpactRow {
        node: NodeSummary::of(n),
        depth,
        score,
        components,
        metrics: ImpactMetrics {
            in_degree: users.len(),
            reach: [d1, d2, d3],
            reach_truncated: reach.truncated,
            lines,
            fan_out: uses.len(),
            communities: span,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(production: usize, other_files: usize) -> RiskInputs {
        RiskInputs {
            production,
            other_files,
            exported: false,
            communities: None,
            processes: None,
            truncated: false,
        }
    }

    #[test]
    fn risk_tiers_follow_the_documented_points() {
        assert_eq!(risk_tier(inputs(0, 0)).0, RiskTier::Low);
        assert_eq!(risk_tier(inputs(4, 1)).0, RiskTier::Low);
        assert_eq!(risk_tier(inputs(5, 1)).0, RiskTier::Medium);
        assert_eq!(risk_tier(inputs(20, 2)).0, RiskTier::High);
        let (tier, factors) = risk_tier(RiskInputs {
            production: 150,
            other_files: 30,
            exported: true,
            communities: Some(6),
            processes: Some(4),
            truncated: true,
        });
        assert_eq!(tier, RiskTier::Critical);
        assert_eq!(
            factors,
            vec![
                "+4: 150 dependents outside tests",
                "+2: dependents in 30 other files",
                "+1: an exported target (public API)",
                "+2: 6 communities touched",
                "+2: 4 execution flows touched",
                "the reach walk hit its bounds: counts are lower bounds",
            ]
        );
    }

    #[test]
    fn saturation_is_bounded() {
        assert_eq!(sat(0.0, 50.0), 0.0);
        assert!((sat(50.0, 50.0) - 1.0).abs() < 1e-12);
        assert_eq!(sat(1e9, 50.0), 1.0);
    }
}
