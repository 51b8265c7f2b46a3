//! Argument checks every query tool shares: row limits, integer ranges, edge-kind lists,
//! `direction` and `min_tier`. Each turns the raw JSON value into a typed one once, at the tool's
//! entry, with an `invalid_argument` error that names the argument, the bad value and what is
//! accepted.

use super::QueryError;
use crate::model::Direction;
use gortex_core::{EdgeKind, Origin};
use schemars::JsonSchema;
use serde::Deserialize;

/// Default row limit of every tool.
pub const DEFAULT_LIMIT: usize = 50;
/// Largest accepted `limit`.
pub const MAX_LIMIT: usize = 1000;

/// Validates a `limit` argument (default [`DEFAULT_LIMIT`], accepted `1..=MAX_LIMIT`).
pub fn check_limit(limit: Option<usize>) -> Result<usize, QueryError> {
    check_limit_with(limit, DEFAULT_LIMIT)
}

/// Validates a `limit` argument with a tool-specific default.
pub fn check_limit_with(limit: Option<usize>, default: usize) -> Result<usize, QueryError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(n) => Err(QueryError::invalid(format!("limit must be 1..={MAX_LIMIT}, got {n}"))),
    }
}

/// Validates an integer argument against `min..=max`, returning `default` when absent. Generic so
/// tools can take `u64` arguments and still report a huge value instead of a deserialisation error.
pub fn check_range<T>(name: &str, value: Option<T>, default: T, min: T, max: T) -> Result<T, QueryError>
where
    T: Copy + PartialOrd + std::fmt::Display,
{
    match value {
        None => Ok(default),
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) => Err(QueryError::invalid(format!("{name} must be {min}..={max}, got {v}"))),
    }
}

/// A string argument that may be given once or as a list (`"call"` or `["call", "type"]`).
/// A single string may also hold a comma-separated list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl From<&str> for OneOrMany {
    fn from(value: &str) -> OneOrMany {
        OneOrMany::One(value.to_string())
    }
}

impl OneOrMany {
    /// The values, split on commas and trimmed; empty items are kept so they can be rejected.
    pub fn values(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => s.split(',').map(|v| v.trim().to_string()).collect(),
            OneOrMany::Many(v) => v.iter().map(|s| s.trim().to_string()).collect(),
        }
    }
}

/// Parses a list of edge-kind names for argument `name`, accepting only `allowed` kinds. Blank
/// items (a trailing comma) are skipped; the kinds come back sorted and deduplicated.
pub fn parse_edge_kinds(name: &str, value: &OneOrMany, allowed: &[EdgeKind]) -> Result<Vec<EdgeKind>, QueryError> {
    let accepted = || allowed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ");
    let values: Vec<String> = value.values().into_iter().filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        return Err(QueryError::invalid(format!(
            "{name} must name at least one edge kind; accepted: {}",
            accepted()
        )));
    }
    let mut kinds = Vec::new();
    for v in values {
        match EdgeKind::parse(&v).filter(|k| allowed.contains(k)) {
            Some(k) => kinds.push(k),
            None => {
                return Err(QueryError::invalid(format!(
                    "{name} contains unknown edge kind {v:?}; accepted: {}",
                    accepted()
                )))
            }
        }
    }
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

/// Parses a `direction` argument (`out`, `in` or `both`), `default` when absent.
pub fn parse_direction(name: &str, value: Option<&str>, default: Direction) -> Result<Direction, QueryError> {
    let Some(text) = value else { return Ok(default) };
    Direction::parse(text).ok_or_else(|| {
        let valid = Direction::ALL.map(Direction::as_str).join(", ");
        QueryError::invalid(format!("{name} must be one of {valid}, got {text:?}"))
    })
}

/// Parses a `min_tier` argument (`None` when absent); [`super::tiers`] applies it.
pub fn parse_min_tier(value: Option<&str>) -> Result<Option<Origin>, QueryError> {
    let Some(text) = value else { return Ok(None) };
    Origin::parse(text).map(Some).ok_or_else(|| {
        let valid = Origin::ALL.iter().map(|o| o.as_str()).collect::<Vec<_>>().join(", ");
        QueryError::invalid(format!(
            "min_tier must be one of {valid} (strongest first), got {text:?}"
        ))
    })
}
