//! The graph-aware rerank on top of BM25. Every signal is a weighted contribution reported per
//! row, so the final order can be explained: `score = Σ signals`.
//!
//! | signal | contribution |
//! |---|---|
//! | `bm25` | 1.0 × BM25 normalised to the best candidate (0–1) |
//! | `definition_bias` | 0.3 for functions, methods, types, interfaces; 0.15 for constants and enum members; 0.075 for modules; 0 for variables and fields |
//! | `fan_in` | 0.4 × ln(1 + fan-in) / ln(1 + the graph's largest fan-in) |
//! | `exported` | 0.1 when exported or public |
//! | `name_coverage` | 0.6 × share of query terms found in the name or owner |
//! | `path_proximity` | 0.15 × share of query terms found in the file path |
//! | `test` | −1.0 for test symbols and symbols in test files (demoted, not dropped) |
//! | `graph_hop` | 0.5 for a symbol that a symbol named verbatim in a multi-word query uses directly (calls, references, instantiates, types, inherits), 1.0 when it also matches a query word |
//! | `diversity` | −0.5 × (n − 1) for the n-th row (0-based, n ≥ 2) from the same file |

use crate::symbols::{Acc, SymbolIndex};
use gortex_core::NodeKind;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

/// Weight of normalised BM25.
pub const W_BM25: f32 = 1.0;
/// Weight of the definition bias (declarations that define behaviour or types).
pub const W_DEFINITION: f32 = 0.3;
/// Weight of log-scaled fan-in.
pub const W_FAN_IN: f32 = 0.4;
/// Bonus for exported/public symbols.
pub const W_EXPORTED: f32 = 0.1;
/// Weight of the share of query terms found in the name or owner.
pub const W_NAME_COVERAGE: f32 = 0.6;
/// Weight of the share of query terms found in the path.
pub const W_PATH: f32 = 0.15;
/// Demotion of test symbols; larger than any positive signal difference short of BM25 itself.
pub const TEST_PENALTY: f32 = 1.0;
/// Bonus for a direct dependency of a symbol the query names verbatim ("the error `firstValueFrom`
/// throws" → `EmptyError`); doubled when the dependency also matches a query word.
pub const W_GRAPH_HOP: f32 = 0.5;
/// Demotion per extra row from one file beyond [`DIVERSITY_FREE_ROWS`].
pub const DIVERSITY_PENALTY: f32 = 0.5;
/// Rows one file may place before the diversity penalty starts.
pub const DIVERSITY_FREE_ROWS: usize = 2;

/// How strongly a kind counts as a definition an agent is looking for (0–1).
pub fn definition_class(kind: NodeKind) -> f32 {
    match kind {
        NodeKind::Function | NodeKind::Method | NodeKind::Type | NodeKind::Interface => 1.0,
        NodeKind::Constant | NodeKind::EnumMember => 0.5,
        NodeKind::Module => 0.25,
        _ => 0.0,
    }
}

/// Log-scaled share of the largest value (0–1); 0 when the largest is 0.
pub fn log_share(value: u32, max: u32) -> f32 {
    if max == 0 || value == 0 {
        0.0
    } else {
        ((1.0 + value as f32).ln() / (1.0 + max as f32).ln()).min(1.0)
    }
}

/// The weighted signals of one row.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Signals {
    pub bm25: f32,
    pub definition_bias: f32,
    pub fan_in: f32,
    pub exported: f32,
    pub name_coverage: f32,
    pub path_proximity: f32,
    pub test: f32,
    pub graph_hop: f32,
    pub diversity: f32,
}

/// Rounds to 4 decimals so reported numbers are short and stable.
pub(crate) fn round4(x: f32) -> f64 {
    (x as f64 * 10_000.0).round() / 10_000.0
}

/// The query-independent signals of a symbol: definition bias, fan-in, exported, test.
pub(crate) fn prior_parts(kind: NodeKind, fan_in: u32, max_fan_in: u32, exported: bool, test: bool) -> [f32; 4] {
    [
        W_DEFINITION * definition_class(kind),
        W_FAN_IN * log_share(fan_in, max_fan_in),
        if exported { W_EXPORTED } else { 0.0 },
        if test { -TEST_PENALTY } else { 0.0 },
    ]
}

/// Sum of [`prior_parts`] (precomputed per symbol in the index; same order of additions as
/// [`Signals::total`], so fast ranking and reported scores agree to the bit).
pub(crate) fn prior_sum(p: [f32; 4]) -> f32 {
    p[0] + p[1] + p[2] + p[3]
}

/// The query-dependent signals: normalised BM25, name coverage, path proximity.
pub(crate) fn query_parts(bm25: f32, acc: Option<&Acc>, terms: usize) -> [f32; 3] {
    let per_term = if terms == 0 { 0.0 } else { 1.0 / terms as f32 };
    let share = |mask: u32| mask.count_ones() as f32 * per_term;
    [
        W_BM25 * bm25,
        W_NAME_COVERAGE * acc.map_or(0.0, |a| share(a.name_mask)),
        W_PATH * acc.map_or(0.0, |a| share(a.path_mask)),
    ]
}

/// Score from a precomputed prior and the query parts (the ranking hot path).
pub(crate) fn fast_total(prior: f32, q: [f32; 3]) -> f32 {
    prior + (q[0] + q[1] + q[2])
}

impl Signals {
    /// Signals of a doc given its normalised BM25 and its term matches (`None`: no text match).
    pub fn of(idx: &SymbolIndex, doc: u32, bm25: f32, acc: Option<&Acc>, terms: usize) -> Signals {
        let meta = idx.doc_meta[doc as usize];
        let p = prior_parts(
            meta.kind(),
            idx.fan_in[doc as usize],
            idx.max_fan_in,
            meta.exported(),
            meta.is_test(),
        );
        let q = query_parts(bm25, acc, terms);
        Signals {
            bm25: q[0],
            definition_bias: p[0],
            fan_in: p[1],
            exported: p[2],
            name_coverage: q[1],
            path_proximity: q[2],
            test: p[3],
            graph_hop: 0.0,
            diversity: 0.0,
        }
    }

    /// The sum of every signal.
    pub fn total(&self) -> f32 {
        let prior = prior_sum([self.definition_bias, self.fan_in, self.exported, self.test]);
        fast_total(prior, [self.bm25, self.name_coverage, self.path_proximity]) + self.graph_hop + self.diversity
    }

    /// Non-zero signals by name (`bm25` always), rounded.
    pub fn to_map(self) -> BTreeMap<&'static str, f64> {
        let mut m = BTreeMap::new();
        for (k, v) in [
            ("bm25", self.bm25),
            ("definition_bias", self.definition_bias),
            ("fan_in", self.fan_in),
            ("exported", self.exported),
            ("name_coverage", self.name_coverage),
            ("path_proximity", self.path_proximity),
            ("test", self.test),
            ("graph_hop", self.graph_hop),
            ("diversity", self.diversity),
        ] {
            if v != 0.0 || k == "bm25" {
                m.insert(k, round4(v));
            }
        }
        m
    }
}

/// Total order of candidates: higher score first, then lower doc id (file order).
pub(crate) fn better(a: (f32, u32), b: (f32, u32)) -> Ordering {
    b.0.total_cmp(&a.0).then(a.1.cmp(&b.1))
}

/// Heap entry ordered so the heap's maximum is the *worst* candidate.
#[derive(Clone, Copy, PartialEq)]
struct Worst(f32, u32, u32);

impl Eq for Worst {}

impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Worst {
    fn cmp(&self, other: &Self) -> Ordering {
        better((self.0, self.1), (other.0, other.1))
    }
}

/// One selected row: doc, the caller's slot for it, final score (penalties applied) and the
/// diversity penalty it took.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Picked {
    pub doc: u32,
    pub slot: u32,
    pub score: f32,
    pub diversity: f32,
}

/// Applies diversity and the per-file cap to rows sorted best first; returns them re-sorted.
fn diversify(
    sorted: impl Iterator<Item = Worst>,
    file_of: &impl Fn(u32) -> u32,
    max_per_file: Option<usize>,
    seen: &FxHashMap<u32, usize>,
) -> Vec<Picked> {
    let mut counts = seen.clone();
    let mut out: Vec<Picked> = Vec::new();
    for Worst(score, doc, slot) in sorted {
        let c = counts.entry(file_of(doc)).or_insert(0);
        if max_per_file.is_some_and(|cap| *c >= cap) {
            continue;
        }
        let penalty = if *c >= DIVERSITY_FREE_ROWS {
            DIVERSITY_PENALTY * (*c + 1 - DIVERSITY_FREE_ROWS) as f32
        } else {
            0.0
        };
        *c += 1;
        out.push(Picked {
            doc,
            slot,
            score: score - penalty,
            diversity: -penalty,
        });
    }
    out.sort_by(|a, b| better((a.score, a.doc), (b.score, b.doc)));
    out
}

/// The best `limit` of `n` candidates after per-file diversity (rows past
/// [`DIVERSITY_FREE_ROWS`] of a file are demoted) and the hard `max_per_file` cap. `candidate(i)`
/// gives slot i's (score, doc), or `None` to skip it; `seen` holds rows per file already placed
/// above these (tier-0 rows).
///
/// A bounded heap keeps the raw top `m`. A row's penalty depends only on better rows of its own
/// file, so rows outside the window never change the penalties of rows inside it, and the
/// window's `limit`-th penalised score `t` is a lower bound of the true one. The window is final
/// when `t` beats every row outside it; otherwise exactly the rows whose raw score reaches `t`
/// can still qualify: when they are few (or the window is already large) one more pass ranks
/// them, else the window grows eightfold for a better bound. (When caps leave fewer than
/// `limit` rows there is no bound yet and the window grows.)
pub(crate) fn select_diverse(
    n: usize,
    candidate: impl Fn(usize) -> Option<(f32, u32)>,
    file_of: impl Fn(u32) -> u32,
    limit: usize,
    max_per_file: Option<usize>,
    seen: &FxHashMap<u32, usize>,
) -> Vec<Picked> {
    let mut m = n.min(limit.saturating_mul(2) + 16).max(1);
    loop {
        let mut heap: BinaryHeap<Worst> = BinaryHeap::with_capacity(m + 1);
        // Best raw score outside the window (scores only: ties count as "not settled").
        let mut rest = f32::NEG_INFINITY;
        let mut outside = false;
        // Score of the window's worst row once the window is full (fast rejection).
        let mut floor = f32::NEG_INFINITY;
        for i in 0..n {
            let Some((score, doc)) = candidate(i) else {
                continue;
            };
            if heap.len() == m && score < floor {
                rest = rest.max(score);
                outside = true;
                continue;
            }
            let c = Worst(score, doc, i as u32);
            if heap.len() < m {
                heap.push(c);
            } else if heap.peek().is_some_and(|w| c < *w) {
                let w = heap.pop().expect("non-empty heap");
                rest = rest.max(w.0);
                outside = true;
                heap.push(c);
            } else {
                rest = rest.max(score);
                outside = true;
            }
            if heap.len() == m {
                floor = heap.peek().map_or(f32::NEG_INFINITY, |w| w.0);
            }
        }
        let mut out = diversify(heap.into_sorted_vec().into_iter(), &file_of, max_per_file, seen);
        if !outside {
            out.truncate(limit);
            return out;
        }
        if out.len() >= limit {
            let t = (out[limit - 1].score, out[limit - 1].doc);
            if t.0 > rest {
                out.truncate(limit);
                return out;
            }
            let reaches = |i: usize| candidate(i).filter(|&c| better(c, t) != Ordering::Greater);
            // One file can fill a small window with rows the diversity penalty sinks, leaving `t`
            // below almost everything; a larger window then gives a far better bound.
            let count = (0..n).filter(|&i| reaches(i).is_some()).count();
            if count <= m.saturating_mul(4) || m >= MAX_WINDOW || m >= n {
                let mut all: Vec<Worst> = (0..n)
                    .filter_map(|i| reaches(i).map(|(score, doc)| Worst(score, doc, i as u32)))
                    .collect();
                all.sort_unstable();
                let mut out = diversify(all.into_iter(), &file_of, max_per_file, seen);
                out.truncate(limit);
                return out;
            }
        } else if m >= n {
            out.truncate(limit);
            return out;
        }
        m = n.min(m.saturating_mul(8));
    }
}

/// Window size after which [`select_diverse`] stops growing and ranks every row that can qualify.
const MAX_WINDOW: usize = 1 << 14;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_share_is_monotonic_and_bounded() {
        assert_eq!(log_share(0, 0), 0.0);
        assert_eq!(log_share(0, 10), 0.0);
        assert!(log_share(1, 10) < log_share(5, 10));
        assert_eq!(log_share(10, 10), 1.0);
    }

    #[test]
    fn diversity_demotes_the_third_row_of_a_file() {
        // Docs 0..=3 in file 0, docs 10, 11 in file 1.
        let file_of = |d: u32| if d < 10 { 0 } else { 1 };
        let cands = [(3.0, 0), (2.9, 1), (2.8, 2), (2.7, 3), (2.5, 10), (2.0, 11)];
        let picked = select_diverse(
            cands.len(),
            |i| Some(cands[i]),
            file_of,
            10,
            None,
            &FxHashMap::default(),
        );
        let order: Vec<u32> = picked.iter().map(|p| p.doc).collect();
        // Doc 2 (2.8 − 0.5 = 2.3) falls below doc 10; doc 3 (2.7 − 1.0 = 1.7) below doc 11.
        assert_eq!(order, [0, 1, 10, 2, 11, 3]);
        assert_eq!(picked[3].diversity, -0.5);
        assert_eq!(picked[5].diversity, -1.0);
    }

    #[test]
    fn max_per_file_is_a_hard_cap_and_limit_applies_after() {
        let file_of = |d: u32| if d < 10 { 0 } else { 1 };
        let cands = [(3.0, 0), (2.9, 1), (2.8, 2), (2.5, 10), (2.0, 11), (1.0, 12)];
        let picked = select_diverse(
            cands.len(),
            |i| Some(cands[i]),
            file_of,
            3,
            Some(1),
            &FxHashMap::default(),
        );
        let order: Vec<u32> = picked.iter().map(|p| p.doc).collect();
        assert_eq!(order, [0, 10]);
    }

    #[test]
    fn windowed_selection_equals_brute_force() {
        // Clustered scores (few files hold the best rows) force the window to grow or to take
        // the threshold pass; every variant must equal sorting everything.
        let cands: Vec<(f32, u32)> = (0..600u32)
            .map(|d| {
                (
                    (((d * 7919) % 1000) as f32 / 10.0) + if d.is_multiple_of(5) { 60.0 } else { 0.0 },
                    d,
                )
            })
            .collect();
        for files in [1u32, 3, 7, 50] {
            let file_of = |d: u32| if d.is_multiple_of(5) { d % files } else { 100 + d % 97 };
            let get = |i: usize| if i.is_multiple_of(11) { None } else { Some(cands[i]) };
            for cap in [None, Some(1), Some(3)] {
                for seen_rows in [0usize, 2] {
                    let seen: FxHashMap<u32, usize> = (0..files).map(|f| (f, seen_rows)).collect();
                    let mut all: Vec<Worst> = (0..cands.len())
                        .filter_map(|i| get(i).map(|(s, d)| Worst(s, d, i as u32)))
                        .collect();
                    all.sort_unstable();
                    let reference = diversify(all.into_iter(), &file_of, cap, &seen);
                    for limit in [1, 5, 40, 1000] {
                        let got = select_diverse(cands.len(), get, file_of, limit, cap, &seen);
                        let a: Vec<(u32, u32)> = reference.iter().take(limit).map(|p| (p.doc, p.slot)).collect();
                        let b: Vec<(u32, u32)> = got.iter().map(|p| (p.doc, p.slot)).collect();
                        assert_eq!(a, b, "files {files} cap {cap:?} seen {seen_rows} limit {limit}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_dominant_file_still_yields_the_exact_top_rows() {
        // File 0 holds the 1000 best raw rows; the answer interleaves its first rows with the
        // best rows of other files, which sit far outside the first window.
        let cands: Vec<(f32, u32)> = (0..5000u32)
            .map(|d| {
                if d < 1000 {
                    (100.0 - d as f32 * 0.001, d)
                } else {
                    (99.0 - d as f32 * 0.0001, d)
                }
            })
            .collect();
        let file_of = |d: u32| if d < 1000 { 0 } else { 1 + d % 400 };
        let get = |i: usize| Some(cands[i]);
        let mut all: Vec<Worst> = (0..cands.len())
            .map(|i| Worst(cands[i].0, cands[i].1, i as u32))
            .collect();
        all.sort_unstable();
        let reference = diversify(all.into_iter(), &file_of, None, &FxHashMap::default());
        for limit in [5, 20, 100] {
            let got = select_diverse(cands.len(), get, file_of, limit, None, &FxHashMap::default());
            let a: Vec<u32> = reference.iter().take(limit).map(|p| p.doc).collect();
            let b: Vec<u32> = got.iter().map(|p| p.doc).collect();
            assert_eq!(a, b, "limit {limit}");
            // 100, 99.999, 99.998 − 0.5 and 99.997 − 1.0 beat the other files' best (≈ 98.9).
            assert_eq!(b.iter().filter(|&&d| d < 1000).count(), 4, "limit {limit}");
        }
    }
}
