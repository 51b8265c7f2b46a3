//! `find_clones`: clusters of near-duplicate functions and methods, plus the pair-level helpers
//! ([`similar_pairs`], [`clones_of`]) other tools build `similar_to` relations from.
//!
//! Pipeline: the index's eligible bodies whose ids still resolve in the graph (tests left out
//! unless asked for) → LSH candidate pairs → exact Jaccard of the shingle sets ≥ `min_similarity`
//! (a body and a function nested inside it are never a pair) → connected components
//! (union-find) → clusters filtered by `path_prefix` / `dead_only`, ranked by size, best
//! similarity, then first member id.

use crate::index::{Body, CloneIndex};
use crate::lsh::{candidates, shares_band, MAX_CANDIDATES};
use crate::minhash::{jaccard_at_least, MIN_TOKENS};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::common::check_limit;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Default (and recommended) Jaccard threshold for a clone.
pub const DEFAULT_THRESHOLD: f64 = 0.82;
/// Lowest accepted `min_similarity`: below it LSH banding misses too many pairs.
pub const MIN_THRESHOLD: f64 = 0.5;
/// Largest accepted `min_tokens`.
pub const MAX_MIN_TOKENS: usize = 100_000;
/// Members listed per cluster (the `size` field always counts all of them).
pub const MAX_MEMBERS_LISTED: usize = 100;
/// Pairs listed per cluster, most similar first (`pairs_total` counts all of them).
pub const MAX_PAIRS_LISTED: usize = 100;

/// Arguments of `find_clones`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindClonesArgs {
    /// Jaccard threshold over token shingles, 0.5..=1.0 (default 0.82).
    #[serde(default)]
    pub min_similarity: Option<f64>,
    /// Only clusters holding at least one dead and one live member ("dead duplicates of live code").
    #[serde(default)]
    pub dead_only: bool,
    /// Only clusters with at least one member whose path starts with this prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Compare test code too: test functions and every function in a test file (default false).
    #[serde(default)]
    pub include_tests: bool,
    /// Clusters returned, 1..=1000 (default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Fewest normalised tokens a body needs, 24..=100000 (default 24).
    #[serde(default)]
    pub min_tokens: Option<usize>,
}

/// One member of a clone cluster.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CloneMember {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Normalised tokens in the body.
    pub tokens: u32,
    /// In the dead set given to the query.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dead: bool,
}

/// One verified pair inside a cluster (`a` < `b` by id).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ClonePair {
    pub a: String,
    pub b: String,
    /// Exact Jaccard index of the two shingle sets, rounded to 3 decimals.
    pub similarity: f64,
}

/// A connected component of verified clone pairs.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CloneCluster {
    /// 1-based rank in this result.
    pub id: usize,
    /// Members in the cluster (all of them, even when `members` is cut).
    pub size: usize,
    pub max_similarity: f64,
    pub min_similarity: f64,
    /// Members by id, at most [`MAX_MEMBERS_LISTED`].
    pub members: Vec<CloneMember>,
    /// Verified pairs, most similar first, at most [`MAX_PAIRS_LISTED`].
    pub pairs: Vec<ClonePair>,
    /// Verified pairs in the cluster (all of them).
    pub pairs_total: usize,
}

/// Result of `find_clones`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct FindClonesResult {
    pub clusters: Vec<CloneCluster>,
    /// The threshold applied.
    pub min_similarity: f64,
    /// The token floor applied.
    pub min_tokens: usize,
    /// Function and method bodies in the index that resolve in the graph.
    pub bodies: usize,
    /// Bodies compared: enough tokens, not declaration-only (interface/abstract members,
    /// overloads), and not test code unless `include_tests`.
    pub eligible: usize,
    /// Bodies of test code left out: test functions and functions in test files (present unless
    /// `include_tests`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tests_excluded: Option<usize>,
    /// Distinct pairs sharing an LSH bucket.
    pub candidate_pairs: usize,
    /// Candidate pairs whose exact similarity reached the threshold (before cluster filters).
    pub verified_pairs: usize,
    /// Clusters passing the filters (before `limit`).
    pub clusters_total: usize,
    /// More clusters than `limit`.
    pub truncated: bool,
    /// LSH buckets with more than 256 bodies, skipped as boilerplate.
    pub oversized_buckets_skipped: usize,
    /// Candidate generation stopped at its cap (8,000,000 pairs); some clones may be missing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub candidates_capped: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Options of [`similar_pairs`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairOptions {
    pub min_similarity: f64,
    pub min_tokens: usize,
    pub include_tests: bool,
}

impl Default for PairOptions {
    fn default() -> PairOptions {
        PairOptions {
            min_similarity: DEFAULT_THRESHOLD,
            min_tokens: MIN_TOKENS,
            include_tests: false,
        }
    }
}

/// A verified clone pair of graph nodes (`a` < `b` by node index).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimilarPair {
    pub a: NodeIndex,
    pub b: NodeIndex,
    /// Exact Jaccard index (not rounded).
    pub similarity: f64,
}

/// Every verified pair of a repository plus the counts of the scan that found them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimilarPairs {
    /// Sorted by `(a, b)`.
    pub pairs: Vec<SimilarPair>,
    pub bodies: usize,
    pub eligible: usize,
    pub tests_excluded: usize,
    pub candidate_pairs: usize,
    pub oversized_buckets_skipped: usize,
    pub candidates_capped: bool,
}

struct ViewBody<'a> {
    node: NodeIndex,
    path: &'a Arc<str>,
    body: &'a Body,
}

struct Scan<'a> {
    view: Vec<ViewBody<'a>>,
    /// `(i, j, similarity)` over `view` indices, `i < j`.
    pairs: Vec<(u32, u32, f64)>,
    stats: SimilarPairs,
}

/// Whether `path` is a test file (its file node is marked), remembering the last answer since
/// bodies arrive grouped by file.
fn in_test_file<'a>(g: &Graph, path: &'a Arc<str>, last: &mut Option<(&'a Arc<str>, bool)>) -> bool {
    if let Some((p, is_test)) = *last {
        if Arc::ptr_eq(p, path) {
            return is_test;
        }
    }
    let is_test = g
        .file_nodes(path)
        .iter()
        .map(|&i| g.node_at(i))
        .any(|n| n.kind == NodeKind::File && n.is_test);
    *last = Some((path, is_test));
    is_test
}

/// A function and a function nested in it share most tokens but are not clones.
fn nested(a: &ViewBody<'_>, b: &ViewBody<'_>) -> bool {
    a.path == b.path && (a.body.span.contains(&b.body.span) || b.body.span.contains(&a.body.span))
}

fn scan<'a>(g: &Graph, idx: &'a CloneIndex, opts: &PairOptions) -> Scan<'a> {
    let mut stats = SimilarPairs::default();
    let mut view = Vec::new();
    let mut test_file: Option<(&Arc<str>, bool)> = None;
    for (path, body) in idx.bodies() {
        let Some(node) = g.lookup(&body.id) else { continue };
        stats.bodies += 1;
        if body.signature.is_none() || (body.tokens as usize) < opts.min_tokens {
            continue;
        }
        if !opts.include_tests && (g.node_at(node).is_test || in_test_file(g, path, &mut test_file)) {
            stats.tests_excluded += 1;
            continue;
        }
        view.push(ViewBody { node, path, body });
    }
    stats.eligible = view.len();
    let sigs: Vec<_> = view
        .iter()
        .map(|v| v.body.signature.as_deref().expect("eligible bodies have signatures"))
        .collect();
    let found = candidates(&sigs, MAX_CANDIDATES);
    stats.candidate_pairs = found.pairs.len();
    stats.oversized_buckets_skipped = found.oversized_buckets;
    stats.candidates_capped = found.capped;
    let threshold = opts.min_similarity;
    let pairs: Vec<(u32, u32, f64)> = found
        .pairs
        .par_iter()
        .filter_map(|&(i, j)| {
            let (a, b) = (&view[i as usize], &view[j as usize]);
            if nested(a, b) {
                return None;
            }
            jaccard_at_least(&a.body.shingles, &b.body.shingles, threshold).map(|s| (i, j, s))
        })
        .collect();
    Scan { view, pairs, stats }
}

/// Every verified clone pair in the repository at `opts` (no cluster filters, no limit).
pub fn similar_pairs(g: &Graph, idx: &CloneIndex, opts: &PairOptions) -> SimilarPairs {
    let s = scan(g, idx, opts);
    let mut pairs: Vec<SimilarPair> = s
        .pairs
        .iter()
        .map(|&(i, j, similarity)| {
            let (x, y) = (s.view[i as usize].node, s.view[j as usize].node);
            SimilarPair {
                a: x.min(y),
                b: x.max(y),
                similarity,
            }
        })
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    SimilarPairs { pairs, ..s.stats }
}

/// The bodies similar to one node at the default threshold, most similar first (then by id).
/// Unlike [`find_clones`] this compares the node with every stored body sharing an LSH band, so
/// it is not limited by the bucket-size cap and includes test functions. Empty when the node has
/// no stored body or too few tokens.
pub fn clones_of(g: &Graph, idx: &CloneIndex, node: NodeIndex) -> Vec<(NodeIndex, f64)> {
    clones_of_at(g, idx, node, DEFAULT_THRESHOLD)
}

/// [`clones_of`] with an explicit Jaccard threshold.
pub fn clones_of_at(g: &Graph, idx: &CloneIndex, node: NodeIndex, min_similarity: f64) -> Vec<(NodeIndex, f64)> {
    if node as usize >= g.node_count() {
        return Vec::new();
    }
    let target = g.node_at(node);
    let Some((path, body)) = idx.body(&target.id) else {
        return Vec::new();
    };
    let Some(sig) = body.signature.as_deref() else {
        return Vec::new();
    };
    let me = ViewBody { node, path, body };
    let mut out: Vec<(NodeIndex, f64)> = idx
        .bodies()
        .filter(|(_, b)| b.id != body.id)
        .filter(|(_, b)| b.signature.as_deref().is_some_and(|s| shares_band(sig, s)))
        .filter_map(|(p, b)| {
            let other = g.lookup(&b.id)?;
            if nested(
                &me,
                &ViewBody {
                    node: other,
                    path: p,
                    body: b,
                },
            ) {
                return None;
            }
            jaccard_at_least(&body.shingles, &b.shingles, min_similarity).map(|s| (other, s))
        })
        .collect();
    out.sort_by(|x, y| {
        y.1.total_cmp(&x.1)
            .then_with(|| g.node_at(x.0).id.cmp(&g.node_at(y.0).id))
    });
    out
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn check_similarity(value: Option<f64>) -> Result<f64, QueryError> {
    let Some(v) = value else { return Ok(DEFAULT_THRESHOLD) };
    if v.is_nan() || v > 1.0 {
        return Err(QueryError::invalid(format!(
            "min_similarity must be {MIN_THRESHOLD}..=1.0 (Jaccard index of token shingles; default {DEFAULT_THRESHOLD}), got {v}"
        )));
    }
    if v < MIN_THRESHOLD {
        return Err(QueryError::invalid(format!(
            "min_similarity must be {MIN_THRESHOLD}..=1.0, got {v}: candidates come from LSH banding \
             (16 bands × 4 rows), whose detection threshold is about 0.5, so pairs less similar than \
             that would be missed silently rather than reported"
        )));
    }
    Ok(v)
}

struct UnionFind(Vec<u32>);

impl UnionFind {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let parent = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = parent;
            x = parent;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The smaller index becomes the root, so roots do not depend on pair order.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.0[hi as usize] = lo;
        }
    }
}

/// Clusters of near-duplicate functions and methods; see the module docs. `dead` is the dead-code
/// set of `g` (needed for `dead_only`; when given, dead members are flagged either way).
pub fn find_clones(
    g: &Graph,
    idx: &CloneIndex,
    args: &FindClonesArgs,
    dead: Option<&FxHashSet<NodeIndex>>,
) -> Result<FindClonesResult, QueryError> {
    let min_similarity = check_similarity(args.min_similarity)?;
    let limit = check_limit(args.limit)?;
    let min_tokens = match args.min_tokens {
        None => MIN_TOKENS,
        Some(n) if (MIN_TOKENS..=MAX_MIN_TOKENS).contains(&n) => n,
        Some(n) => {
            return Err(QueryError::invalid(format!(
                "min_tokens must be {MIN_TOKENS}..={MAX_MIN_TOKENS} (bodies shorter than {MIN_TOKENS} tokens are \
                 never indexed), got {n}"
            )))
        }
    };
    if let Some(prefix) = &args.path_prefix {
        if prefix.is_empty() {
            return Err(QueryError::invalid(
                "path_prefix must be a non-empty repository-relative path prefix (e.g. \"src/\"); omit it for all files",
            ));
        }
    }
    if args.dead_only && dead.is_none() {
        return Err(QueryError {
            code: "internal",
            message: "find_clones: dead_only needs the dead-code set, which the caller did not provide".into(),
        });
    }
    let opts = PairOptions {
        min_similarity,
        min_tokens,
        include_tests: args.include_tests,
    };
    let scan = scan(g, idx, &opts);
    let is_dead = |node: NodeIndex| dead.is_some_and(|d| d.contains(&node));

    let mut uf = UnionFind((0..scan.view.len() as u32).collect());
    for &(i, j, _) in &scan.pairs {
        uf.union(i, j);
    }
    // Components keyed by root; the roots are sorted before use, so map order never leaks out.
    let mut members: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut in_pair = vec![false; scan.view.len()];
    for &(i, j, _) in &scan.pairs {
        in_pair[i as usize] = true;
        in_pair[j as usize] = true;
    }
    for (i, _) in in_pair.iter().enumerate().filter(|(_, &p)| p) {
        members.entry(uf.find(i as u32)).or_default().push(i as u32);
    }
    let mut pairs_of: FxHashMap<u32, Vec<(u32, u32, f64)>> = FxHashMap::default();
    for &p in &scan.pairs {
        pairs_of.entry(uf.find(p.0)).or_default().push(p);
    }

    let id_of = |v: u32| -> &str { &g.node_at(scan.view[v as usize].node).id };
    // Filter and rank light drafts first; only the clusters returned are materialised.
    struct Draft {
        members: Vec<u32>,
        pairs: Vec<(u32, u32, f64)>,
        max: f64,
        min: f64,
    }
    let mut drafts: Vec<Draft> = Vec::new();
    let mut roots: Vec<u32> = members.keys().copied().collect();
    roots.sort_unstable();
    for root in roots {
        let mut list = members.remove(&root).unwrap_or_default();
        if let Some(prefix) = &args.path_prefix {
            if !list
                .iter()
                .any(|&v| scan.view[v as usize].path.starts_with(prefix.as_str()))
            {
                continue;
            }
        }
        if args.dead_only {
            let dead_count = list.iter().filter(|&&v| is_dead(scan.view[v as usize].node)).count();
            if dead_count == 0 || dead_count == list.len() {
                continue;
            }
        }
        list.sort_by(|&x, &y| id_of(x).cmp(id_of(y)));
        let pairs = pairs_of.remove(&root).unwrap_or_default();
        let max = pairs.iter().map(|p| p.2).fold(f64::MIN, f64::max);
        let min = pairs.iter().map(|p| p.2).fold(f64::MAX, f64::min);
        drafts.push(Draft {
            members: list,
            pairs,
            max,
            min,
        });
    }
    drafts.sort_by(|a, b| {
        b.members
            .len()
            .cmp(&a.members.len())
            .then_with(|| b.max.total_cmp(&a.max))
            .then_with(|| id_of(a.members[0]).cmp(id_of(b.members[0])))
    });
    let clusters_total = drafts.len();
    drafts.truncate(limit);
    let clusters: Vec<CloneCluster> = drafts
        .into_iter()
        .enumerate()
        .map(|(rank, d)| {
            let mut listed: Vec<ClonePair> = d
                .pairs
                .iter()
                .map(|&(i, j, s)| {
                    let (x, y) = (id_of(i), id_of(j));
                    let (a, b) = if x <= y { (x, y) } else { (y, x) };
                    ClonePair {
                        a: a.to_string(),
                        b: b.to_string(),
                        similarity: s,
                    }
                })
                .collect();
            listed.sort_by(|p, q| {
                q.similarity
                    .total_cmp(&p.similarity)
                    .then_with(|| p.a.cmp(&q.a))
                    .then_with(|| p.b.cmp(&q.b))
            });
            listed.truncate(MAX_PAIRS_LISTED);
            for p in &mut listed {
                p.similarity = round3(p.similarity);
            }
            CloneCluster {
                id: rank + 1,
                size: d.members.len(),
                max_similarity: round3(d.max),
                min_similarity: round3(d.min),
                members: d
                    .members
                    .iter()
                    .take(MAX_MEMBERS_LISTED)
                    .map(|&v| {
                        let vb = &scan.view[v as usize];
                        CloneMember {
                            node: NodeSummary::at(g, vb.node),
                            tokens: vb.body.tokens,
                            dead: is_dead(vb.node),
                        }
                    })
                    .collect(),
                pairs: listed,
                pairs_total: d.pairs.len(),
            }
        })
        .collect();

    let mut notes = Vec::new();
    if !args.include_tests {
        notes.push(format!(
            "test code (test functions and functions in test files) is excluded ({} bodies left out); pass include_tests: true to compare it too",
            scan.stats.tests_excluded
        ));
    }
    if scan.stats.candidates_capped {
        notes.push(format!(
            "candidate generation stopped at {MAX_CANDIDATES} pairs; narrow with min_tokens or a higher min_similarity"
        ));
    }
    Ok(FindClonesResult {
        clusters,
        min_similarity,
        min_tokens,
        bodies: scan.stats.bodies,
        eligible: scan.stats.eligible,
        tests_excluded: (!args.include_tests).then_some(scan.stats.tests_excluded),
        candidate_pairs: scan.stats.candidate_pairs,
        verified_pairs: scan.pairs.len(),
        clusters_total,
        truncated: clusters_total > limit,
        oversized_buckets_skipped: scan.stats.oversized_buckets_skipped,
        candidates_capped: scan.stats.candidates_capped,
        notes,
    })
}
