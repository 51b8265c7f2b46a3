//! `winnow_symbols`: constraint-chain retrieval. Hard constraints (kind, language, path prefix,
//! minimum fan-in/fan-out, exported, tests) narrow the symbol set; the survivors are ranked by a
//! sum of per-axis contributions, each reported per row:
//!
//! | axis | contribution |
//! |---|---|
//! | `text` | 1.0 × BM25 of `text_match` normalised to the best match (only with `text_match`) |
//! | `fan_in` | 0.5 × ln(1 + fan-in) / ln(1 + the graph's largest fan-in) |
//! | `fan_out` | 0.25 × ln(1 + fan-out) / ln(1 + the graph's largest fan-out) |
//! | `test` | −0.5 for test symbols (demoted, not dropped, unless `include_tests: false`) |
//! | `churn` | 0.5 × ln(1 + commits) / ln(1 + the most commits of any symbol) (only with `min_churn`) |
//!
//! `community` (a constraint) and `min_churn` read what the search index does not hold — the
//! community partition and the git history — handed in by the caller as a [`WinnowContext`].

use crate::rerank::{better, log_share, round4};
use crate::search::{check_limit, expand_terms, query_terms, retrieve, Filter};
use crate::symbols::SymbolIndex;
use gortex_core::QueryError;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Weight of the normalised text score.
pub const W_TEXT: f32 = 1.0;
/// Weight of log-scaled fan-in.
pub const W_FAN_IN: f32 = 0.5;
/// Weight of log-scaled fan-out.
pub const W_FAN_OUT: f32 = 0.25;
/// Demotion of test symbols.
pub const TEST_PENALTY: f32 = 0.5;
/// Weight of log-scaled churn.
pub const W_CHURN: f32 = 0.5;

/// A community named by its id or its label (as `get_communities` lists them).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CommunityRef {
    Id(i64),
    Label(String),
}

/// What `winnow_symbols` needs from outside the search index, when the arguments ask for it.
#[derive(Debug, Default)]
pub struct WinnowContext<'a> {
    /// The members of the `community` asked for.
    pub community: Option<&'a FxHashSet<NodeIndex>>,
    /// Commits that shaped each symbol's current lines (with `min_churn`).
    pub churn: Option<&'a FxHashMap<NodeIndex, u32>>,
}

/// Arguments of `winnow_symbols`. At least one of kind, lang, path_prefix, min_fan_in,
/// min_fan_out, text_match, exported is required.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WinnowSymbolsArgs {
    /// Node kinds or type flavors (comma-separated for several; any may match).
    #[serde(default)]
    pub kind: Option<String>,
    /// Languages (comma-separated; `ts`, `py`, … aliases accepted).
    #[serde(default)]
    pub lang: Option<String>,
    /// Repository-relative path prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Keep symbols with at least this many incoming usage edges.
    #[serde(default)]
    pub min_fan_in: Option<u32>,
    /// Keep symbols with at least this many outgoing usage edges.
    #[serde(default)]
    pub min_fan_out: Option<u32>,
    /// Words the symbol must match (any of them, scored with the search BM25).
    #[serde(default)]
    pub text_match: Option<String>,
    /// Keep only exported (true) or only unexported (false) symbols.
    #[serde(default)]
    pub exported: Option<bool>,
    /// Include test symbols (default true; demoted either way).
    #[serde(default)]
    pub include_tests: Option<bool>,
    /// Keep members of this community: its id or label, as get_communities lists them.
    #[serde(default)]
    pub community: Option<CommunityRef>,
    /// Keep symbols whose current lines at least this many git commits shaped; adds the `churn` axis.
    #[serde(default)]
    pub min_churn: Option<u32>,
    /// Rows to return (default 50, 1..=1000).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One `winnow_symbols` row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WinnowHit {
    #[serde(flatten)]
    pub symbol: NodeSummary,
    /// Sum of `axes`.
    pub score: f64,
    /// Per-axis contributions (`text`, `fan_in`, `fan_out`, `test`, `churn`); zero axes are left out.
    pub axes: BTreeMap<&'static str, f64>,
    pub fan_in: u32,
    pub fan_out: u32,
    /// Commits that shaped the symbol's current lines (with `min_churn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub churn: Option<u32>,
}

/// Result of `winnow_symbols`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WinnowSymbolsResult {
    pub results: Vec<WinnowHit>,
    /// Symbols passing every constraint, before `limit`.
    pub total: usize,
    pub truncated: bool,
}

/// Constraint-chain retrieval with per-axis score contributions.
pub fn winnow_symbols(
    g: &Graph,
    idx: &SymbolIndex,
    args: &WinnowSymbolsArgs,
    cx: &WinnowContext<'_>,
) -> Result<WinnowSymbolsResult, QueryError> {
    idx.check(g)?;
    let limit = check_limit("limit", args.limit, 50)?;
    let text = args.text_match.as_deref().map(str::trim);
    let constrained = args.kind.is_some()
        || args.lang.is_some()
        || args.path_prefix.is_some()
        || args.min_fan_in.is_some()
        || args.min_fan_out.is_some()
        || text.is_some()
        || args.exported.is_some()
        || args.community.is_some()
        || args.min_churn.is_some();
    if !constrained {
        return Err(QueryError::invalid(
            "winnow_symbols needs at least one constraint: kind, lang, path_prefix, min_fan_in, min_fan_out, \
             text_match, exported, community or min_churn",
        ));
    }
    if args.community.is_some() != cx.community.is_some() || args.min_churn.is_some() != cx.churn.is_some() {
        return Err(QueryError::unavailable(
            "winnow_symbols was called without the community or churn data its arguments ask for",
        ));
    }
    let churn_of = |doc: u32| {
        cx.churn
            .map(|c| c.get(&idx.doc_node[doc as usize]).copied().unwrap_or(0))
    };
    let max_churn = cx.churn.and_then(|c| c.values().copied().max()).unwrap_or(0);
    // The constraints the search index cannot test.
    let outside = |doc: u32| {
        let node = idx.doc_node[doc as usize];
        cx.community.is_none_or(|m| m.contains(&node))
            && args.min_churn.is_none_or(|min| churn_of(doc).unwrap_or(0) >= min)
    };
    let mut filter = Filter {
        include_tests: args.include_tests.unwrap_or(true),
        exported: args.exported,
        min_fan_in: args.min_fan_in,
        min_fan_out: args.min_fan_out,
        ..Filter::default()
    };
    if let Some(k) = &args.kind {
        filter.add_kinds("kind", k)?;
    }
    if let Some(l) = &args.lang {
        filter.add_langs("lang", l)?;
    }
    if let Some(p) = &args.path_prefix {
        filter.add_path("path_prefix", p)?;
    }
    filter.prepare(g, idx);

    let axes_of = |doc: u32, text: Option<f32>| {
        let d = doc as usize;
        let mut axes = [
            ("text", text.map_or(0.0, |t| W_TEXT * t)),
            ("fan_in", W_FAN_IN * log_share(idx.fan_in[d], idx.max_fan_in)),
            ("fan_out", W_FAN_OUT * log_share(idx.fan_out[d], idx.max_fan_out)),
            ("test", 0.0),
            (
                "churn",
                churn_of(doc).map_or(0.0, |c| W_CHURN * log_share(c, max_churn)),
            ),
        ];
        if idx.doc_meta[d].is_test() {
            axes[3].1 = -TEST_PENALTY;
        }
        axes
    };
    let mut rows: Vec<(f32, u32, Option<f32>)> = match text {
        Some(t) => {
            let terms_text = query_terms(t)?;
            if terms_text.is_empty() {
                return Err(QueryError::invalid(format!(
                    "text_match {t:?} has no searchable words (words need 2+ letters or digits)"
                )));
            }
            let terms = expand_terms(idx, &terms_text);
            let trivial = filter.is_trivial();
            let scored = retrieve(idx, &terms, |a| {
                (trivial || filter.accepts(g, idx, a.doc)) && outside(a.doc)
            });
            scored
                .rows
                .iter()
                .map(|a| {
                    let t = scored.norm(a.score);
                    let total: f32 = axes_of(a.doc, Some(t)).iter().map(|x| x.1).sum();
                    (total, a.doc, Some(t))
                })
                .collect()
        }
        // No text: scan file by file, so a path prefix skips whole files.
        None => (0..idx.file_count())
            .filter(|&f| filter.accepts_path(idx.file_path(g, f)))
            .flat_map(|f| idx.file_docs(f))
            .filter(|&d| filter.accepts(g, idx, d) && outside(d))
            .map(|d| (axes_of(d, None).iter().map(|x| x.1).sum(), d, None))
            .collect(),
    };
    let total = rows.len();
    if rows.len() > limit {
        rows.select_nth_unstable_by(limit - 1, |a, b| better((a.0, a.1), (b.0, b.1)));
        rows.truncate(limit);
    }
    rows.sort_by(|a, b| better((a.0, a.1), (b.0, b.1)));
    let results: Vec<WinnowHit> = rows
        .into_iter()
        .map(|(score, doc, text)| WinnowHit {
            symbol: NodeSummary::of(idx.node(g, doc)),
            score: round4(score),
            axes: axes_of(doc, text)
                .into_iter()
                .filter(|(name, v)| *v != 0.0 || (*name == "text" && text.is_some()))
                .map(|(name, v)| (name, round4(v)))
                .collect(),
            fan_in: idx.fan_in[doc as usize],
            fan_out: idx.fan_out[doc as usize],
            churn: churn_of(doc),
        })
        .collect();
    Ok(WinnowSymbolsResult {
        truncated: total > results.len(),
        results,
        total,
    })
}
