//! `coverage_gaps` (alias `untested`): functions and methods no test reaches, by graph evidence
//! only (no runtime coverage). A symbol counts as tested when a test symbol (or any symbol of a
//! test file) calls or instantiates it within two hops (test → helper → symbol), or when a test
//! file depends on its file directly (imports it, or uses any of its symbols). Test code itself
//! is never reported, nor are the routines of documents (SQL functions, proto RPCs). Rows are ranked riskiest first: highest fan-in, then path and line.

use gortex_core::{EdgeKind, NodeKind, Origin, QueryError};
use gortex_graph::query::common::{check_limit, file_node};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Caller hops within which a test caller counts as coverage.
pub const TEST_HOPS: usize = 2;

/// Arguments of `coverage_gaps`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoverageGapsArgs {
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Only functions (`function`) or only methods (`method`); default both.
    #[schemars(extend("enum" = ["function", "method"]))]
    pub symbol_kind: Option<String>,
    /// Only exported symbols (a method is as visible as its type).
    #[serde(default)]
    pub exported_only: bool,
    /// Most rows returned (1..=1000, default 50).
    pub limit: Option<usize>,
}

/// One untested function or method.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UntestedRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Distinct direct callers (calls, instantiations, test calls); name-only (text_matched)
    /// callers count only when no stronger caller exists, as in `get_callers`.
    pub fan_in: usize,
}

/// Result of `coverage_gaps`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageGapsResult {
    pub symbols: Vec<UntestedRow>,
    /// Untested symbols found (before `limit`).
    pub total: usize,
    /// Functions and methods examined (non-test, matching the filters).
    pub examined: usize,
    /// Share of examined symbols some test reaches (0–1; 1 when nothing was examined).
    pub tested_ratio: f64,
    pub truncated: bool,
    pub evidence: &'static str,
}

/// Whether a node is test code: a test itself, or declared in a test file.
pub fn is_test_code(g: &Graph, i: NodeIndex) -> bool {
    let n = g.node_at(i);
    n.is_test || (!n.path.is_empty() && file_node(g, &n.path).is_some_and(|f| g.node_at(f).is_test))
}

fn is_caller_edge(kind: EdgeKind, origin: Origin) -> bool {
    matches!(kind, EdgeKind::Calls | EdgeKind::Instantiates | EdgeKind::Tests) && origin != Origin::Speculative
}

/// Whether some test calls `i` within [`TEST_HOPS`] hops.
fn reached_by_test(g: &Graph, i: NodeIndex, test_code: &[bool]) -> bool {
    let mut frontier = vec![i];
    let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
    seen.insert(i);
    for _ in 0..TEST_HOPS {
        let mut next = Vec::new();
        for &n in &frontier {
            for e in g.in_edges(n) {
                if !is_caller_edge(e.kind, e.origin) || !seen.insert(e.from) {
                    continue;
                }
                if test_code[e.from as usize] {
                    return true;
                }
                next.push(e.from);
            }
        }
        frontier = next;
    }
    false
}

/// Paths of files some test file depends on directly: imported by a test file (or a package a
/// test file imports), or holding a symbol a test file's code uses.
fn files_tests_depend_on<'g>(g: &'g Graph, test_code: &[bool]) -> FxHashSet<&'g str> {
    let mut out: FxHashSet<&str> = FxHashSet::default();
    for (i, n) in g.node_entries() {
        if !test_code[i as usize] {
            continue;
        }
        for e in g.out_edges(i) {
            if e.origin == Origin::Speculative
                || !(e.kind.is_usage()
                    || e.kind == EdgeKind::Imports
                    || e.kind == EdgeKind::ReExports
                    || e.kind == EdgeKind::Tests)
            {
                continue;
            }
            let to = g.node_at(e.to);
            if to.external || to.path.is_empty() || to.path == n.path {
                continue;
            }
            if to.kind == NodeKind::Package {
                for c in g.out_edges(e.to) {
                    if c.kind == EdgeKind::Contains && g.node_at(c.to).kind == NodeKind::File {
                        out.insert(&g.node_at(c.to).path);
                    }
                }
            } else {
                out.insert(&to.path);
            }
        }
    }
    out
}

/// Which of `targets` no test reaches (the evidence `coverage_gaps` uses), in order.
pub fn untested(g: &Graph, targets: &[NodeIndex]) -> Vec<bool> {
    let test_code: Vec<bool> = (0..g.node_count() as NodeIndex)
        .into_par_iter()
        .map(|i| g.is_live(i) && is_test_code(g, i))
        .collect();
    let covered_files = files_tests_depend_on(g, &test_code);
    targets
        .iter()
        .map(|&i| {
            !test_code[i as usize] && !covered_files.contains(&*g.node_at(i).path) && !reached_by_test(g, i, &test_code)
        })
        .collect()
}

/// Distinct callers of `i` as `get_callers` counts them: name-only (weak) callers only when no
/// stronger caller exists.
pub fn caller_count(g: &Graph, i: NodeIndex) -> usize {
    let edges: Vec<_> = g
        .in_edges(i)
        .filter(|e| is_caller_edge(e.kind, e.origin) && e.from != i)
        .collect();
    let strong = edges.iter().any(|e| !e.origin.is_weak());
    let callers: FxHashSet<NodeIndex> = edges
        .iter()
        .filter(|e| !strong || !e.origin.is_weak())
        .map(|e| e.from)
        .collect();
    callers.len()
}

/// Functions and methods no test reaches; see the module docs for the evidence used.
pub fn coverage_gaps(g: &Graph, args: &CoverageGapsArgs) -> Result<CoverageGapsResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let kinds: &[NodeKind] = match args.symbol_kind.as_deref() {
        None => &[NodeKind::Function, NodeKind::Method],
        Some("function") => &[NodeKind::Function],
        Some("method") => &[NodeKind::Method],
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "symbol_kind must be function or method, got {other:?}"
            )))
        }
    };
    let prefix = match args.path_prefix.as_deref().map(|p| p.trim().trim_start_matches("./")) {
        Some("") => {
            return Err(QueryError::invalid(
                "path_prefix must not be blank; omit it for the whole repository",
            ))
        }
        other => other,
    };
    let test_code: Vec<bool> = (0..g.node_count() as NodeIndex)
        .into_par_iter()
        .map(|i| g.is_live(i) && is_test_code(g, i))
        .collect();
    let covered_files = files_tests_depend_on(g, &test_code);
    let exported = |i: NodeIndex| -> bool {
        let n = g.node_at(i);
        n.exported
            || (n.kind == NodeKind::Method
                && g.out_edges(i)
                    .any(|e| e.kind == EdgeKind::MemberOf && g.node_at(e.to).exported))
    };
    let candidates: Vec<NodeIndex> = g
        .indices()
        .filter(|&i| {
            let n = g.node_at(i);
            kinds.contains(&n.kind)
                && !n.external
                // SQL routines and proto RPCs run outside the repository's tests' reach.
                && n.language.is_none_or(|l| l.is_code())
                && !test_code[i as usize]
                && prefix.is_none_or(|p| n.path.starts_with(p))
                && (!args.exported_only || exported(i))
        })
        .collect();
    let examined = candidates.len();
    let mut rows: Vec<UntestedRow> = candidates
        .par_iter()
        .filter(|&&i| !covered_files.contains(&*g.node_at(i).path) && !reached_by_test(g, i, &test_code))
        .map(|&i| {
            let mut node = NodeSummary::at(g, i);
            // A method is as visible as its type: the graph marks the exported class, not its members.
            node.exported = exported(i);
            UntestedRow {
                node,
                fan_in: caller_count(g, i),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.fan_in
            .cmp(&a.fan_in)
            .then_with(|| a.node.path.cmp(&b.node.path))
            .then_with(|| a.node.line.cmp(&b.node.line))
            .then_with(|| a.node.id.cmp(&b.node.id))
    });
    let total = rows.len();
    rows.truncate(limit);
    Ok(CoverageGapsResult {
        symbols: rows,
        total,
        examined,
        tested_ratio: if examined == 0 {
            1.0
        } else {
            (examined - total) as f64 / examined as f64
        },
        truncated: total > limit,
        evidence: "graph",
    })
}
