//! The token-savings ledger: per day, repository and tool, how many answers were given, the tokens
//! they returned and the tokens a plain read of the files they stand in for would have cost.

use crate::{Context, Sidecar, StoreError, StoreResult};
use rusqlite::params;
use serde::{Deserialize, Serialize};

/// Calls to add to the ledger (summed into their day's row).
#[derive(Debug, Clone, Deserialize)]
pub struct SavingsEntry {
    /// `YYYY-MM-DD` (UTC).
    pub day: String,
    pub repo: String,
    pub tool: String,
    pub calls: i64,
    pub returned_tokens: i64,
    pub baseline_tokens: i64,
}

/// One aggregated row.
#[derive(Debug, Clone, Serialize)]
pub struct SavingsRow {
    pub key: String,
    pub calls: i64,
    pub returned_tokens: i64,
    pub baseline_tokens: i64,
}

/// The ledger since a day: totals, per tool, per repository and per day.
#[derive(Debug, Clone, Serialize)]
pub struct SavingsReport {
    pub total: SavingsRow,
    pub by_tool: Vec<SavingsRow>,
    pub by_repo: Vec<SavingsRow>,
    pub by_day: Vec<SavingsRow>,
}

fn valid_day(day: &str) -> bool {
    let b = day.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

impl Sidecar {
    /// Adds entries to their rows in one transaction.
    pub fn savings_add(&self, entries: &[SavingsEntry]) -> StoreResult<()> {
        if let Some(bad) = entries.iter().find(|e| !valid_day(&e.day)) {
            return Err(StoreError::Invalid(format!("day `{}` is not YYYY-MM-DD", bad.day)));
        }
        self.write("savings ledger", |tx| {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO savings(day, repo, tool, calls, returned_tokens, baseline_tokens) VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
                     ON CONFLICT(day, repo, tool) DO UPDATE SET calls = calls + excluded.calls, \
                     returned_tokens = returned_tokens + excluded.returned_tokens, baseline_tokens = baseline_tokens + excluded.baseline_tokens",
                )
                .ctx("savings ledger")?;
            for e in entries {
                stmt.execute(params![e.day, e.repo, e.tool, e.calls, e.returned_tokens, e.baseline_tokens]).ctx("savings ledger")?;
            }
            Ok(())
        })
    }

    /// The ledger from `since_day` (inclusive; `None`: all of it).
    pub fn savings_report(&self, since_day: Option<&str>) -> StoreResult<SavingsReport> {
        if let Some(day) = since_day.filter(|d| !valid_day(d)) {
            return Err(StoreError::Invalid(format!("day `{day}` is not YYYY-MM-DD")));
        }
        let conn = self.lock();
        let since = since_day.unwrap_or("0000-00-00");
        let group = |key: &str, order: &str| -> StoreResult<Vec<SavingsRow>> {
            conn.prepare(&format!(
                "SELECT {key}, sum(calls), sum(returned_tokens), sum(baseline_tokens) FROM savings WHERE day >= ?1 GROUP BY {key} ORDER BY {order}"
            ))
            .and_then(|mut s| s.query_map([since], |r| Ok(SavingsRow { key: r.get(0)?, calls: r.get(1)?, returned_tokens: r.get(2)?, baseline_tokens: r.get(3)? }))?.collect())
            .ctx("savings report")
        };
        let by_tool = group("tool", "sum(baseline_tokens) - sum(returned_tokens) DESC, tool")?;
        let by_repo = group("repo", "sum(baseline_tokens) - sum(returned_tokens) DESC, repo")?;
        let by_day = group("day", "day")?;
        let total = by_day.iter().fold(
            SavingsRow {
                key: "total".into(),
                calls: 0,
                returned_tokens: 0,
                baseline_tokens: 0,
            },
            |mut t, r| {
                t.calls += r.calls;
                t.returned_tokens += r.returned_tokens;
                t.baseline_tokens += r.baseline_tokens;
                t
            },
        );
        Ok(SavingsReport {
            total,
            by_tool,
            by_repo,
            by_day,
        })
    }

    /// Empties the ledger (an explicit user request); returns the rows removed.
    pub fn savings_reset(&self) -> StoreResult<usize> {
        self.write("savings reset", |tx| {
            tx.execute("DELETE FROM savings", []).ctx("savings reset")
        })
    }
}
