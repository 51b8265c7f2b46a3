//! `analyze kind=synthesizers`: the framework-dispatch edges the extractors and resolver
//! synthesize — calls a framework makes on the code's behalf that no call expression shows — rolled
//! up by the pass that produced them: route handlers (`http_route`), event listeners
//! (`event_handler`), rendered components (`jsx_render`), DI providers (`di_provider`), FastAPI
//! dependencies (`di_depends`) and pytest fixtures (`pytest_fixture`). Each is a real graph edge
//! (`calls`, or `instantiates` for a provider) with its own evidence tier; get_callers, find_usages
//! (`via`), dead code and impact see them like any other.

use crate::reach::{check_path_prefix, under};
use gortex_core::{QueryError, Synthesizer};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Edge, Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Arguments of `analyze kind=synthesizers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SynthesizersArgs {
    /// Only this pass: http_route, event_handler, jsx_render, di_provider, di_depends or
    /// pytest_fixture.
    #[serde(default)]
    pub pass: Option<String>,
    /// Only edges whose site (the registering code) is under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Sample edges listed per pass (1..=1000, default 20).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One synthesized edge.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SynthesizedEdge {
    /// The registering code: the function or file that hands the target to the framework.
    pub from: NodeSummary,
    /// What the framework calls (or instantiates).
    pub to: NodeSummary,
    pub kind: gortex_core::EdgeKind,
    pub origin: gortex_core::Origin,
    pub path: String,
    pub line: u32,
}

/// One pass and the edges it synthesized.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SynthesizerRow {
    pub pass: Synthesizer,
    pub edges: usize,
    /// Distinct targets the framework reaches through it.
    pub targets: usize,
    /// Edges per evidence tier.
    pub by_origin: BTreeMap<&'static str, usize>,
    /// Edges in file and line order, at most `limit`.
    pub samples: Vec<SynthesizedEdge>,
}

/// The answer of `analyze kind=synthesizers`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SynthesizersResult {
    /// Every pass that produced an edge, most edges first.
    pub passes: Vec<SynthesizerRow>,
    /// Synthesized edges counted (after the filters).
    pub total: usize,
    /// The passes this build runs, whether or not they found anything here.
    pub available: Vec<Synthesizer>,
    pub evidence: &'static str,
}

/// `analyze kind=synthesizers` (see the module doc).
pub fn synthesizers(g: &Graph, args: &SynthesizersArgs) -> Result<SynthesizersResult, QueryError> {
    let limit = check_limit_with(args.limit, 20)?;
    let pass = match args.pass.as_deref() {
        None => None,
        Some(p) => Some(Synthesizer::parse(p).ok_or_else(|| {
            QueryError::invalid(format!(
                "pass must be one of {}, got {p:?}",
                Synthesizer::ALL
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?),
    };
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let mut per: BTreeMap<Synthesizer, Vec<&Edge>> = BTreeMap::new();
    for e in g.edges() {
        let Some(via) = e.via else { continue };
        if pass.is_some_and(|p| p != via) || !under(&g.node_at(e.from).path, prefix.as_deref()) {
            continue;
        }
        per.entry(via).or_default().push(e);
    }
    let mut rows: Vec<SynthesizerRow> = per
        .into_iter()
        .map(|(pass, mut list)| {
            list.sort_by(|a, b| (&g.node_at(a.from).path, a.line, a.to).cmp(&(&g.node_at(b.from).path, b.line, b.to)));
            let mut by_origin = BTreeMap::new();
            for e in &list {
                *by_origin.entry(e.origin.as_str()).or_insert(0) += 1;
            }
            let targets: BTreeSet<NodeIndex> = list.iter().map(|e| e.to).collect();
            SynthesizerRow {
                pass,
                edges: list.len(),
                targets: targets.len(),
                by_origin,
                samples: list
                    .iter()
                    .take(limit)
                    .map(|e| SynthesizedEdge {
                        from: NodeSummary::at(g, e.from),
                        to: NodeSummary::at(g, e.to),
                        kind: e.kind,
                        origin: e.origin,
                        path: g.node_at(e.from).path.to_string(),
                        line: e.line,
                    })
                    .collect(),
            }
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.edges));
    Ok(SynthesizersResult {
        total: rows.iter().map(|r| r.edges).sum(),
        passes: rows,
        available: Synthesizer::ALL.to_vec(),
        evidence: "graph",
    })
}
