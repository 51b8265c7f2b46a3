//! The provenance-tier rule tiered tools apply to their rows. Without `min_tier`, speculative rows
//! are hidden and name-only (`text_matched`) rows are dropped when the result also holds a row
//! with `ast_inferred` or better evidence (counted as `name_only_suppressed`); when name matches
//! are the only evidence they are kept. With `min_tier`, rows below it are dropped and a
//! `tier_filtered` block reports how many and the strongest tier available. The rows are
//! re-collected at the floor rather than filtered, so a traversal never reaches a node only
//! through a hidden edge.

use gortex_core::Origin;
use schemars::JsonSchema;
use serde::Serialize;

/// The weakest origin a walk follows: `min_tier`, or without it everything but `speculative`.
pub fn tier_floor(min_tier: Option<Origin>) -> Origin {
    min_tier.unwrap_or(Origin::TextMatched)
}

/// Reported when `min_tier` removed rows: how many, and the strongest tier the full answer had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TierFiltered {
    pub edges_below_min_tier: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_available_tier: Option<Origin>,
}

/// The tier bookkeeping every tiered result carries (flattened into the result).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TierReport {
    /// Present exactly when `min_tier` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_filtered: Option<TierFiltered>,
    /// Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them.
    #[serde(skip_serializing_if = "is_zero")]
    pub name_only_suppressed: usize,
}

/// `skip_serializing_if` helper for counts.
pub fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Rows after the tier rule, and what the rule did.
#[derive(Debug, Clone)]
pub struct Tiered<R> {
    pub rows: Vec<R>,
    pub report: TierReport,
    /// The weakest origin the kept rows were collected with.
    pub floor: Origin,
}

/// Applies the tier rule to a result. `collect(floor)` must return the rows reachable using only
/// edges at or above `floor`; it is called once or twice.
pub fn tiered<R>(
    min_tier: Option<Origin>,
    mut collect: impl FnMut(Origin) -> Vec<R>,
    origin: impl Fn(&R) -> Origin,
) -> Tiered<R> {
    match min_tier {
        Some(min) => {
            let all = collect(Origin::Speculative);
            let below = all.iter().filter(|r| origin(r) < min).count();
            let max_available_tier = all.iter().map(&origin).max();
            let rows = if below == 0 { all } else { collect(min) };
            Tiered {
                rows,
                floor: min,
                report: TierReport {
                    tier_filtered: Some(TierFiltered {
                        edges_below_min_tier: below,
                        max_available_tier,
                    }),
                    name_only_suppressed: 0,
                },
            }
        }
        None => {
            let rows = collect(tier_floor(None));
            let weak = rows.iter().filter(|r| origin(r) < Origin::AstInferred).count();
            if weak > 0 && weak < rows.len() {
                Tiered {
                    rows: collect(Origin::AstInferred),
                    floor: Origin::AstInferred,
                    report: TierReport {
                        tier_filtered: None,
                        name_only_suppressed: weak,
                    },
                }
            } else {
                Tiered {
                    rows,
                    floor: tier_floor(None),
                    report: TierReport::default(),
                }
            }
        }
    }
}
