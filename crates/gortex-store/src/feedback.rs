//! Agent feedback: whether an answer's symbols were useful, not needed, wrong, or missing (needed
//! but not returned). Per-symbol tallies feed search ranking; the report answers `feedback
//! action=query` — most useful, most missed, and accuracy per tool.

use crate::{now_ms, Context, Sidecar, StoreError, StoreResult};
use rusqlite::{params, params_from_iter};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Ratings: `useful`, `not_useful` (returned, not needed), `wrong` (returned, misleading),
/// `missing` (needed, not returned).
pub const RATINGS: &[&str] = &["useful", "not_useful", "wrong", "missing"];

/// One piece of feedback about a tool's answer.
#[derive(Debug, Clone, Deserialize)]
pub struct FeedbackInput {
    pub repo: String,
    pub tool: String,
    pub rating: String,
    #[serde(default)]
    pub ids: Vec<String>,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub session: Option<String>,
    /// When it was given (epoch ms; default now — set when importing older records).
    #[serde(default)]
    pub at: Option<i64>,
}

/// Ratings one symbol received.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SymbolTally {
    pub useful: i64,
    pub not_useful: i64,
    pub wrong: i64,
    pub missing: i64,
    /// Epoch ms of the latest rating.
    pub last_at: i64,
}

/// A tool's ratings and its accuracy.
#[derive(Debug, Clone, Serialize)]
pub struct FeedbackToolRow {
    pub tool: String,
    pub useful: i64,
    pub not_useful: i64,
    pub wrong: i64,
    pub missing: i64,
    /// Of what it returned and was rated, the share that was useful.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Of what was needed, the share it returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall: Option<f64>,
}

/// `feedback action=query`: aggregated over a repository (or all) since a time.
#[derive(Debug, Clone, Serialize)]
pub struct FeedbackReport {
    pub ratings: i64,
    pub by_rating: BTreeMap<String, i64>,
    pub most_useful: Vec<(String, i64)>,
    pub most_missed: Vec<(String, i64)>,
    pub most_wrong: Vec<(String, i64)>,
    pub by_tool: Vec<FeedbackToolRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall: Option<f64>,
}

fn ratio(num: i64, den: i64) -> Option<f64> {
    (den > 0).then(|| (num as f64 / den as f64 * 1000.0).round() / 1000.0)
}

impl Sidecar {
    /// Records one rating (a row per id, or one row for the answer as a whole); returns rows written.
    pub fn feedback_add(&self, input: &FeedbackInput) -> StoreResult<usize> {
        self.feedback_add_many(std::slice::from_ref(input))
    }

    /// Records several ratings in one transaction (an import lands whole or not at all).
    pub fn feedback_add_many(&self, inputs: &[FeedbackInput]) -> StoreResult<usize> {
        if let Some(bad) = inputs.iter().find(|i| !RATINGS.contains(&i.rating.as_str())) {
            return Err(StoreError::Invalid(format!(
                "rating `{}` is not one of {}",
                bad.rating,
                RATINGS.join(", ")
            )));
        }
        self.write("record feedback", |tx| {
            let mut stmt = tx
                .prepare_cached("INSERT INTO feedback(repo, symbol_id, tool, rating, note, session, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
                .ctx("record feedback")?;
            let mut rows = 0;
            for input in inputs {
                let now = input.at.unwrap_or_else(now_ms);
                let ids: Vec<Option<&str>> = if input.ids.is_empty() { vec![None] } else { input.ids.iter().map(|s| Some(s.as_str())).collect() };
                for id in &ids {
                    stmt.execute(params![input.repo, id, input.tool, input.rating, input.note, input.session, now]).ctx("record feedback")?;
                }
                rows += ids.len();
            }
            Ok(rows)
        })
    }

    /// Tallies of `ids` in `repo` (ids never rated are absent).
    pub fn feedback_tallies(&self, repo: &str, ids: &[String]) -> StoreResult<BTreeMap<String, SymbolTally>> {
        let mut out = BTreeMap::new();
        if ids.is_empty() {
            return Ok(out);
        }
        let conn = self.lock();
        let marks: Vec<String> = (0..ids.len()).map(|i| format!("?{}", i + 2)).collect();
        let sql = format!(
            "SELECT symbol_id, sum(rating = 'useful'), sum(rating = 'not_useful'), sum(rating = 'wrong'), sum(rating = 'missing'), max(at) \
             FROM feedback WHERE repo = ?1 AND symbol_id IN ({}) GROUP BY symbol_id",
            marks.join(",")
        );
        let args: Vec<&str> = std::iter::once(repo).chain(ids.iter().map(String::as_str)).collect();
        let mut stmt = conn.prepare(&sql).ctx("feedback tallies")?;
        let rows = stmt
            .query_map(params_from_iter(args.iter()), |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    SymbolTally {
                        useful: r.get(1)?,
                        not_useful: r.get(2)?,
                        wrong: r.get(3)?,
                        missing: r.get(4)?,
                        last_at: r.get(5)?,
                    },
                ))
            })
            .ctx("feedback tallies")?;
        for row in rows {
            let (id, t) = row.ctx("feedback tallies")?;
            out.insert(id, t);
        }
        Ok(out)
    }

    /// The aggregate report: `repo` (or every repository when `None`), ratings at or after `since_ms`.
    pub fn feedback_report(&self, repo: Option<&str>, since_ms: i64, top_n: usize) -> StoreResult<FeedbackReport> {
        let conn = self.lock();
        let (filter, args): (&str, Vec<rusqlite::types::Value>) = match repo {
            Some(r) => ("at >= ?1 AND repo = ?2", vec![since_ms.into(), r.to_string().into()]),
            None => ("at >= ?1", vec![since_ms.into()]),
        };
        let mut by_rating = BTreeMap::new();
        let rows: Vec<(String, i64)> = conn
            .prepare(&format!(
                "SELECT rating, count(*) FROM feedback WHERE {filter} GROUP BY rating"
            ))
            .and_then(|mut s| {
                s.query_map(params_from_iter(args.iter()), |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect()
            })
            .ctx("feedback report")?;
        let mut ratings = 0;
        for (k, v) in rows {
            ratings += v;
            by_rating.insert(k, v);
        }
        let top = |rating: &str| -> StoreResult<Vec<(String, i64)>> {
            conn.prepare(&format!(
                "SELECT symbol_id, count(*) AS n FROM feedback WHERE {filter} AND symbol_id IS NOT NULL AND rating = '{rating}' \
                 GROUP BY symbol_id ORDER BY n DESC, max(at) DESC LIMIT {}",
                top_n.clamp(1, 1000)
            ))
            .and_then(|mut s| s.query_map(params_from_iter(args.iter()), |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .ctx("feedback report")
        };
        let most_useful = top("useful")?;
        let most_missed = top("missing")?;
        let most_wrong = top("wrong")?;
        let by_tool: Vec<FeedbackToolRow> = conn
            .prepare(&format!(
                "SELECT tool, sum(rating = 'useful'), sum(rating = 'not_useful'), sum(rating = 'wrong'), sum(rating = 'missing') \
                 FROM feedback WHERE {filter} GROUP BY tool ORDER BY count(*) DESC, tool"
            ))
            .and_then(|mut s| {
                s.query_map(params_from_iter(args.iter()), |r| {
                    let (useful, not_useful, wrong, missing): (i64, i64, i64, i64) = (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
                    Ok(FeedbackToolRow {
                        tool: r.get(0)?,
                        useful,
                        not_useful,
                        wrong,
                        missing,
                        precision: ratio(useful, useful + not_useful + wrong),
                        recall: ratio(useful, useful + missing),
                    })
                })?
                .collect()
            })
            .ctx("feedback report")?;
        let count = |k: &str| by_rating.get(k).copied().unwrap_or(0);
        Ok(FeedbackReport {
            ratings,
            precision: ratio(count("useful"), count("useful") + count("not_useful") + count("wrong")),
            recall: ratio(count("useful"), count("useful") + count("missing")),
            by_rating,
            most_useful,
            most_missed,
            most_wrong,
            by_tool,
        })
    }

    /// How many feedback rows a repository has (a one-time import checks it is not repeating itself).
    pub fn feedback_count(&self, repo: &str) -> StoreResult<i64> {
        self.lock()
            .query_row("SELECT count(*) FROM feedback WHERE repo = ?1", [repo], |r| r.get(0))
            .ctx("feedback count")
    }
}
