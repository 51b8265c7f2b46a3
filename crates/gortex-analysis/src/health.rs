//! `health_score`: one 0–100 number (and a letter grade) for a repository, with the measured
//! components it is made of, so a drop can be traced to its cause.
//!
//! Components (each 0–100, higher is healthier) and weights:
//! - `test_reach` (0.25): share of functions and methods some test reaches (`coverage_gaps`).
//! - `dead_code` (0.20): `100 × (1 − 3 × share)` of high-confidence dead symbols among the
//!   non-test functions, methods, types and interfaces (10 % dead scores 70; 33 % or more, 0).
//! - `cycles` (0.20): `100 × (1 − 3 × (0.7 × files in import cycles / files + 0.3 × callables in
//!   call cycles / callables))`, floored at 0.
//! - `structure` (0.15): modularity Q of the Leiden communities, `100 × min(1, Q / 0.6)`; left out
//!   (its weight shared by the others) when fewer than 10 symbols take part in calls.
//! - `resolution` (0.20): share of call sites the resolver bound to a target (resolved `calls`
//!   edges over resolved plus unresolved calls) — how far the other numbers can be trusted.
//!
//! Grades: A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else F.

use crate::communities::Communities;
use crate::coverage::{coverage_gaps, is_test_code, CoverageGapsArgs};
use crate::cycles::{cycles, CycleKind, CyclesArgs};
use crate::deadcode::{dead_code, DeadCodeArgs, DeadConfidence};
use gortex_core::{EdgeKind, NodeKind, QueryError};
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `health_score` (none yet; unknown keys are refused).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HealthScoreArgs {}

/// One measured component of the score.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HealthComponent {
    /// What was measured (`name`) and the raw measurements the score comes from (`measure`).
    #[serde(flatten)]
    pub measure: HealthMeasure,
    /// 0–100, higher is healthier.
    pub score: f64,
    /// Weight in the total after redistributing the weight of components left out.
    pub weight: f64,
}

/// The raw measurements behind one component, tagged with the component's name.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "name", content = "measure", rename_all = "snake_case")]
pub enum HealthMeasure {
    TestReach(TestReachMeasure),
    DeadCode(DeadCodeMeasure),
    Cycles(CyclesMeasure),
    Structure(StructureMeasure),
    Resolution(ResolutionMeasure),
}

/// `test_reach`: functions and methods examined and how many no test reaches.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TestReachMeasure {
    pub examined: usize,
    pub untested: usize,
    /// Share reached by a test, three decimals.
    pub tested_ratio: f64,
}

/// `dead_code`: non-test functions, methods, types and interfaces checked, and the dead ones.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct DeadCodeMeasure {
    pub checked: usize,
    pub dead_high_confidence: usize,
    pub dead_medium_confidence: usize,
}

/// `cycles`: cycle counts and how many files and callables they hold.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CyclesMeasure {
    pub import_cycles: usize,
    pub call_cycles: usize,
    pub files_in_import_cycles: usize,
    pub files: usize,
    pub callables_in_call_cycles: usize,
    pub callables: usize,
    /// More than 1000 cycles: the member counts are lower bounds.
    pub lower_bound: bool,
}

/// `structure`: modularity of the Leiden communities.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StructureMeasure {
    /// Modularity Q, three decimals.
    pub modularity: f64,
    pub communities: usize,
    /// Symbols taking part in calls (the structure needs 10).
    pub clustered: usize,
}

/// `resolution`: call sites bound to a target and left unresolved.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ResolutionMeasure {
    pub resolved_calls: usize,
    pub unresolved_calls: usize,
}

/// Result of `health_score`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HealthScoreResult {
    pub score: f64,
    pub grade: &'static str,
    pub components: Vec<HealthComponent>,
    /// Components left out and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    pub rule: &'static str,
}

const RULE: &str = "weighted mean of test_reach 0.25, dead_code 0.20, cycles 0.20, structure 0.15, resolution 0.20 \
(weights of left-out components are shared); grades A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else F";

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Scores the repository's health; see the module docs for the rule.
pub fn health_score(
    g: &Graph,
    communities: &Communities,
    _args: &HealthScoreArgs,
) -> Result<HealthScoreResult, QueryError> {
    // (weight, score, measure) per component.
    let mut parts: Vec<(f64, f64, HealthMeasure)> = Vec::new();
    let mut left_out = Vec::new();

    let cov = coverage_gaps(
        g,
        &CoverageGapsArgs {
            limit: Some(1),
            ..Default::default()
        },
    )?;
    parts.push((
        0.25,
        100.0 * cov.tested_ratio,
        HealthMeasure::TestReach(TestReachMeasure {
            examined: cov.examined,
            untested: cov.total,
            tested_ratio: (cov.tested_ratio * 1000.0).round() / 1000.0,
        }),
    ));

    let dead = dead_code(
        g,
        &DeadCodeArgs {
            limit: Some(1),
            ..Default::default()
        },
    )?;
    let high = dead.by_confidence.get(&DeadConfidence::High).copied().unwrap_or(0);
    let checked = g
        .indices()
        .filter(|&i| {
            let n = g.node_at(i);
            matches!(
                n.kind,
                NodeKind::Function | NodeKind::Method | NodeKind::Type | NodeKind::Interface
            ) && !n.external
                && !is_test_code(g, i)
        })
        .count();
    let dead_share = share(high, checked);
    parts.push((
        0.20,
        100.0 * (1.0 - 3.0 * dead_share).max(0.0),
        HealthMeasure::DeadCode(DeadCodeMeasure {
            checked,
            dead_high_confidence: high,
            dead_medium_confidence: dead.total - high,
        }),
    ));

    let cyc = cycles(
        g,
        &CyclesArgs {
            limit: Some(1000),
            ..Default::default()
        },
    )?;
    let in_import_cycles: usize = cyc
        .cycles
        .iter()
        .filter(|c| c.kind == CycleKind::Imports)
        .map(|c| c.size)
        .sum();
    let in_call_cycles: usize = cyc
        .cycles
        .iter()
        .filter(|c| c.kind == CycleKind::Calls)
        .map(|c| c.size)
        .sum();
    let files = g.files().len();
    let callables = g.nodes().filter(|n| n.kind.is_callable() && !n.external).count();
    let cycle_load = 0.7 * share(in_import_cycles, files) + 0.3 * share(in_call_cycles, callables);
    parts.push((
        0.20,
        100.0 * (1.0 - 3.0 * cycle_load).max(0.0),
        HealthMeasure::Cycles(CyclesMeasure {
            import_cycles: cyc.by_kind.get(&CycleKind::Imports).copied().unwrap_or(0),
            call_cycles: cyc.by_kind.get(&CycleKind::Calls).copied().unwrap_or(0),
            files_in_import_cycles: in_import_cycles,
            files,
            callables_in_call_cycles: in_call_cycles,
            callables,
            lower_bound: cyc.truncated,
        }),
    ));

    if communities.clustered >= 10 {
        parts.push((
            0.15,
            100.0 * (communities.modularity / 0.6).clamp(0.0, 1.0),
            HealthMeasure::Structure(StructureMeasure {
                modularity: (communities.modularity * 1000.0).round() / 1000.0,
                communities: communities.communities.len(),
                clustered: communities.clustered,
            }),
        ));
    } else {
        left_out.push(format!(
            "structure: only {} symbols take part in calls (needs 10)",
            communities.clustered
        ));
    }

    let resolved = g.edges().filter(|e| e.kind == EdgeKind::Calls).count();
    let unresolved = g.unresolved().filter(|u| u.kind == EdgeKind::Calls).count();
    if resolved + unresolved > 0 {
        parts.push((
            0.20,
            100.0 * share(resolved, resolved + unresolved),
            HealthMeasure::Resolution(ResolutionMeasure {
                resolved_calls: resolved,
                unresolved_calls: unresolved,
            }),
        ));
    } else {
        left_out.push("resolution: the graph holds no call sites".to_string());
    }

    let total_weight: f64 = parts.iter().map(|p| p.0).sum();
    let score: f64 = parts.iter().map(|p| p.0 * p.1).sum::<f64>() / total_weight;
    let grade = match score {
        s if s >= 85.0 => "A",
        s if s >= 70.0 => "B",
        s if s >= 55.0 => "C",
        s if s >= 40.0 => "D",
        _ => "F",
    };
    Ok(HealthScoreResult {
        score: round1(score),
        grade,
        components: parts
            .into_iter()
            .map(|(weight, score, measure)| HealthComponent {
                measure,
                score: round1(score),
                weight: (weight / total_weight * 1000.0).round() / 1000.0,
            })
            .collect(),
        left_out,
        rule: RULE,
    })
}
