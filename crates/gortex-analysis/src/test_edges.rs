//! `analyze kind=tests_as_edges`: the `tests` edges as a table. The resolver adds a `tests` edge
//! beside every call or instantiation from test code into code that is not a test (the test
//! function → the symbol it exercises), with the call's own evidence tier; this groups them by
//! the symbol tested (which tests cover it) or by the test (what it covers).

use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Default rows.
pub const DEFAULT_ROWS: usize = 200;

/// How `tests_as_edges` groups its rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TestGrouping {
    /// One row per tested symbol, with the tests covering it.
    #[default]
    Symbol,
    /// One row per test, with the symbols it covers.
    Test,
}

/// Arguments of `analyze kind=tests_as_edges`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestsAsEdgesArgs {
    /// `symbol` (default): a row per tested symbol; `test`: a row per test.
    #[serde(default)]
    pub group_by: TestGrouping,
    /// Only rows whose symbol (or test) is declared under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 200).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One tested symbol (or one test) and the other end of its `tests` edges.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TestEdgeRow {
    pub node: NodeSummary,
    /// `tests` edges on this row (one per call site).
    pub edge_count: usize,
    /// Grouped by symbol: the tests covering it, by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tests: Option<Vec<NodeSummary>>,
    /// Grouped by test: the symbols it covers, by id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covers: Option<Vec<NodeSummary>>,
}

/// Totals over every `tests` edge under `path_prefix`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TestEdgeSummary {
    pub test_edges: usize,
    /// Distinct symbols some test covers.
    pub tested_symbols: usize,
    /// Distinct tests covering something.
    pub test_functions: usize,
}

/// The answer of `analyze kind=tests_as_edges`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TestsAsEdgesResult {
    pub group_by: TestGrouping,
    /// Most edges first (ties by id), at most `limit`.
    pub rows: Vec<TestEdgeRow>,
    /// Rows before `limit`.
    pub total: usize,
    pub truncated: bool,
    pub summary: TestEdgeSummary,
}

/// `analyze kind=tests_as_edges` (see the module doc).
pub fn tests_as_edges(g: &Graph, args: &TestsAsEdgesArgs) -> Result<TestsAsEdgesResult, QueryError> {
    let limit = check_limit_with(args.limit, DEFAULT_ROWS)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let by_symbol = args.group_by == TestGrouping::Symbol;
    // row node → (edges, the other ends)
    let mut rows: FxHashMap<NodeIndex, (usize, FxHashSet<NodeIndex>)> = FxHashMap::default();
    let (mut edges, mut symbols, mut tests) = (0usize, FxHashSet::default(), FxHashSet::default());
    for e in g.edges().filter(|e| e.kind == EdgeKind::Tests) {
        let (main, other) = if by_symbol { (e.to, e.from) } else { (e.from, e.to) };
        if !under(&g.node_at(main).path, prefix.as_deref()) {
            continue;
        }
        edges += 1;
        symbols.insert(e.to);
        tests.insert(e.from);
        let row = rows.entry(main).or_default();
        row.0 += 1;
        row.1.insert(other);
    }
    let by_id = |a: &NodeIndex, b: &NodeIndex| g.node_at(*a).id.cmp(&g.node_at(*b).id);
    let mut ranked: Vec<(NodeIndex, usize, FxHashSet<NodeIndex>)> =
        rows.into_iter().map(|(n, (c, o))| (n, c, o)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| by_id(&a.0, &b.0)));
    let total = ranked.len();
    let rows = ranked
        .into_iter()
        .take(limit)
        .map(|(node, edge_count, others)| {
            let mut others: Vec<NodeIndex> = others.into_iter().collect();
            others.sort_by(by_id);
            let others: Vec<NodeSummary> = others.into_iter().map(|o| NodeSummary::at(g, o)).collect();
            let (tests, covers) = if by_symbol {
                (Some(others), None)
            } else {
                (None, Some(others))
            };
            TestEdgeRow {
                node: NodeSummary::at(g, node),
                edge_count,
                tests,
                covers,
            }
        })
        .collect();
    Ok(TestsAsEdgesResult {
        group_by: args.group_by,
        rows,
        total,
        truncated: total > limit,
        summary: TestEdgeSummary {
            test_edges: edges,
            tested_symbols: symbols.len(),
            test_functions: tests.len(),
        },
    })
}
