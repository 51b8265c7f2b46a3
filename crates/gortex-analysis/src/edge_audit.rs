//! `analyze kind=edge_audit`: how trustworthy the graph's edges are. Every resolved edge counted
//! by its kind and its evidence tier (`origin`), calls on their own; the share of calls bound on
//! strong evidence (a language server or a unique structural target) and the share of call sites
//! bound at all (against the unresolved references kept beside the edges). Three samples of what
//! to look at: interfaces nothing declares an implementation of, functions only tests call, and
//! calls bound by name alone (`text_matched`, `speculative`).
//!
//! Two kinds of interface are not judged (counted in `interfaces_not_judged`): Go's, satisfied
//! implicitly (the graph records no `implements` edge for them), and those of TypeScript
//! declaration files (`.d.ts`), which describe values provided elsewhere.

use crate::coverage::is_test_code;
use crate::measured::percent as pct;
use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, Language, NodeKind, Origin, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Default sample size per bucket.
pub const DEFAULT_SAMPLE: usize = 10;

/// Arguments of `analyze kind=edge_audit`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeAuditArgs {
    /// Rows sampled per bucket (1..=1000, default 10).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only edges made from code under this repository-relative prefix (and only nodes under it
    /// in the buckets).
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// Edges of one evidence tier.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TierCount {
    pub origin: Origin,
    pub edges: usize,
}

/// Edges of one kind, per tier.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct KindTiers {
    pub kind: EdgeKind,
    pub edges: usize,
    /// Tiers with edges, strongest first.
    pub tiers: Vec<TierCount>,
}

/// The headline figures.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EdgeAuditSummary {
    pub total_edges: usize,
    pub call_edges: usize,
    /// Calls bound by a language server or a unique structural target (`lsp_resolved`,
    /// `lsp_dispatch`, `ast_resolved`), percent of `call_edges`, one decimal.
    pub high_confidence_call_pct: f64,
    /// Call sites the resolver left unresolved (kept beside the edges, never guessed).
    pub unresolved_calls: usize,
    /// `call_edges / (call_edges + unresolved_calls)`, percent, one decimal.
    pub call_resolution_pct: f64,
    /// Usage edges (calls, references, type uses…) into external stubs: what leaves the
    /// repository.
    pub external_usage_edges: usize,
}

/// A sample of nodes.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NodeBucket {
    pub count: usize,
    /// The first `limit` by id.
    pub sample: Vec<NodeSummary>,
    pub truncated: bool,
}

/// A call bound by name alone.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WeakCall {
    pub from: NodeSummary,
    pub to: NodeSummary,
    pub origin: Origin,
    pub line: u32,
}

/// A sample of weak calls.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WeakCallBucket {
    pub count: usize,
    /// The first `limit` by caller id, then line.
    pub sample: Vec<WeakCall>,
    pub truncated: bool,
}

/// The answer of `analyze kind=edge_audit`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EdgeAuditResult {
    pub summary: EdgeAuditSummary,
    /// Every edge by tier, strongest first (tiers without edges left out).
    pub edge_tiers: Vec<TierCount>,
    /// Call edges by tier.
    pub call_tiers: Vec<TierCount>,
    /// Per edge kind, by kind name.
    pub by_kind: Vec<KindTiers>,
    /// Interfaces with no `implements` edge into them (see the module doc for those left out).
    pub unimplemented_interfaces: NodeBucket,
    /// Interfaces not judged: Go's (implicit) and those of `.d.ts` declaration files.
    pub interfaces_not_judged: usize,
    /// Functions and methods outside test code that some code calls, all of it test code.
    pub test_only_targets: NodeBucket,
    /// Calls bound by name alone (`text_matched`, `speculative`).
    pub weak_call_edges: WeakCallBucket,
}

/// Whether a call edge rests on strong evidence.
fn strong(origin: Origin) -> bool {
    matches!(origin, Origin::LspResolved | Origin::LspDispatch | Origin::AstResolved)
}

/// `analyze kind=edge_audit` (see the module doc).
pub fn edge_audit(g: &Graph, args: &EdgeAuditArgs) -> Result<EdgeAuditResult, QueryError> {
    let limit = check_limit_with(args.limit, DEFAULT_SAMPLE)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let in_scope = |i: NodeIndex| {
        let n = g.node_at(i);
        !n.external && under(&n.path, prefix.as_deref())
    };
    let mut tiers: BTreeMap<Origin, usize> = BTreeMap::new();
    let mut call_tiers: BTreeMap<Origin, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<&'static str, (EdgeKind, BTreeMap<Origin, usize>)> = BTreeMap::new();
    let (mut external_usage, mut weak) = (0usize, Vec::new());
    for e in g.edges().filter(|e| in_scope(e.from)) {
        *tiers.entry(e.origin).or_default() += 1;
        *kinds
            .entry(e.kind.as_str())
            .or_insert_with(|| (e.kind, BTreeMap::new()))
            .1
            .entry(e.origin)
            .or_default() += 1;
        if e.kind.is_usage() && g.node_at(e.to).external {
            external_usage += 1;
        }
        if e.kind == EdgeKind::Calls {
            *call_tiers.entry(e.origin).or_default() += 1;
            if e.origin.is_weak() {
                weak.push(e);
            }
        }
    }
    let unresolved_calls = g
        .unresolved()
        .filter(|u| u.kind == EdgeKind::Calls && in_scope(u.from))
        .count();
    let call_edges: usize = call_tiers.values().sum();
    let strong_calls: usize = call_tiers.iter().filter(|(o, _)| strong(**o)).map(|(_, n)| n).sum();

    let test_code: Vec<bool> = (0..g.node_count() as NodeIndex)
        .map(|i| g.is_live(i) && is_test_code(g, i))
        .collect();
    let (mut unimplemented, mut implicit, mut test_only) = (Vec::new(), 0usize, Vec::new());
    for (i, n) in g.node_entries().filter(|(i, _)| in_scope(*i)) {
        if n.kind == NodeKind::Interface {
            if n.language == Some(Language::Go) || n.path.ends_with(".d.ts") {
                implicit += 1;
            } else if !g.in_edges(i).any(|e| e.kind == EdgeKind::Implements) {
                unimplemented.push(i);
            }
        } else if n.kind.is_callable() && !test_code[i as usize] {
            let mut callers = g
                .in_edges(i)
                .filter(|e| {
                    matches!(e.kind, EdgeKind::Calls | EdgeKind::Instantiates) && e.origin != Origin::Speculative
                })
                .peekable();
            if callers.peek().is_some() && callers.all(|e| test_code[e.from as usize]) {
                test_only.push(i);
            }
        }
    }
    weak.sort_by(|a, b| {
        g.node_at(a.from)
            .id
            .cmp(&g.node_at(b.from).id)
            .then(a.line.cmp(&b.line))
            .then_with(|| g.node_at(a.to).id.cmp(&g.node_at(b.to).id))
    });
    Ok(EdgeAuditResult {
        summary: EdgeAuditSummary {
            total_edges: tiers.values().sum(),
            call_edges,
            high_confidence_call_pct: pct(strong_calls, call_edges),
            unresolved_calls,
            call_resolution_pct: pct(call_edges, call_edges + unresolved_calls),
            external_usage_edges: external_usage,
        },
        edge_tiers: tier_rows(&tiers),
        call_tiers: tier_rows(&call_tiers),
        by_kind: kinds
            .into_values()
            .map(|(kind, tiers)| KindTiers {
                kind,
                edges: tiers.values().sum(),
                tiers: tier_rows(&tiers),
            })
            .collect(),
        unimplemented_interfaces: node_bucket(g, unimplemented, limit),
        interfaces_not_judged: implicit,
        test_only_targets: node_bucket(g, test_only, limit),
        weak_call_edges: WeakCallBucket {
            count: weak.len(),
            truncated: weak.len() > limit,
            sample: weak
                .iter()
                .take(limit)
                .map(|e| WeakCall {
                    from: NodeSummary::at(g, e.from),
                    to: NodeSummary::at(g, e.to),
                    origin: e.origin,
                    line: e.line,
                })
                .collect(),
        },
    })
}

/// Tier counts, strongest first.
fn tier_rows(counts: &BTreeMap<Origin, usize>) -> Vec<TierCount> {
    counts
        .iter()
        .rev()
        .map(|(&origin, &edges)| TierCount { origin, edges })
        .collect()
}

/// The nodes sorted by id, the first `limit` summarised.
fn node_bucket(g: &Graph, mut nodes: Vec<NodeIndex>, limit: usize) -> NodeBucket {
    nodes.sort_by(|a, b| g.node_at(*a).id.cmp(&g.node_at(*b).id));
    NodeBucket {
        count: nodes.len(),
        truncated: nodes.len() > limit,
        sample: nodes.iter().take(limit).map(|&i| NodeSummary::at(g, i)).collect(),
    }
}
