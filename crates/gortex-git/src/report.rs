//! Rows every history answer shares: a commit, an author's share, the history an answer was
//! computed from, and dates.

use crate::history::History;
use crate::lines::{is_uncommitted, SetId};
use crate::mine::Mined;
use schemars::JsonSchema;
use serde::Serialize;

/// A commit as answers show it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommitRef {
    /// Abbreviated object id (12 hex digits).
    pub sha: String,
    pub author: String,
    pub email: String,
    /// Author date, `YYYY-MM-DD`.
    pub date: String,
    pub summary: String,
}

impl CommitRef {
    /// Commit `index` of `mined`.
    pub fn of(mined: &Mined, index: u32) -> CommitRef {
        let c = &mined.commits[index as usize];
        let person = &mined.people[c.author as usize];
        CommitRef {
            sha: c.sha.chars().take(12).collect(),
            author: person.name.clone(),
            email: person.email.clone(),
            date: iso_date(c.time),
            summary: c.summary.clone(),
        }
    }
}

/// One author's share of some lines (blame: who last touched them).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AuthorShare {
    pub name: String,
    pub email: String,
    pub lines: u32,
    /// `lines` over the committed lines counted, 0–1.
    pub share: f64,
}

/// The history an answer was computed from.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct HistoryMeta {
    /// The head commit mined up to (abbreviated); empty on an unborn branch.
    pub head: String,
    /// Mainline (first-parent) commits mined.
    pub commits: usize,
    /// Date of the oldest mined commit.
    pub since: String,
    /// Files whose text differs from `HEAD`: their changed lines count as uncommitted.
    pub uncommitted_files: u32,
    /// `unchanged`, `incremental` or `full`: what bringing the history up to `HEAD` took.
    pub update: String,
    /// File versions whose blobs this clone lacks (a partial clone): those files' line history
    /// starts after the missing version.
    #[serde(skip_serializing_if = "is_zero")]
    pub missing_blobs: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl HistoryMeta {
    /// The meta of `history`, updated by an update of `mode`.
    pub fn of(history: &History, mode: &str) -> HistoryMeta {
        let mined = &history.mined;
        HistoryMeta {
            head: mined.head.as_deref().unwrap_or("").chars().take(12).collect(),
            commits: mined.commits.len(),
            since: mined.commits.first().map(|c| iso_date(c.time)).unwrap_or_default(),
            uncommitted_files: history.uncommitted_files,
            update: mode.to_string(),
            missing_blobs: mined.missing_blobs,
        }
    }
}

/// Who last touched `lines` (each line's latest commit), largest share first, and how many of
/// them are not committed.
pub fn blame_shares(mined: &Mined, lines: &[SetId]) -> (Vec<AuthorShare>, Option<u32>, u32) {
    let mut counts: Vec<(u32, u32)> = Vec::new();
    let mut latest: Option<u32> = None;
    let mut uncommitted = 0u32;
    let mut committed = 0u32;
    for &set in lines {
        if is_uncommitted(set) {
            uncommitted += 1;
            continue;
        }
        let Some(last) = mined.lineage.last(set) else { continue };
        committed += 1;
        latest = Some(latest.map_or(last, |l| l.max(last)));
        let author = mined.commits[last as usize].author;
        match counts.iter_mut().find(|(a, _)| *a == author) {
            Some((_, n)) => *n += 1,
            None => counts.push((author, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shares = counts
        .into_iter()
        .map(|(a, n)| {
            let p = &mined.people[a as usize];
            AuthorShare {
                name: p.name.clone(),
                email: p.email.clone(),
                lines: n,
                share: round3(n as f64 / committed.max(1) as f64),
            }
        })
        .collect();
    (shares, latest, uncommitted)
}

/// Rounds to three decimals (scores in answers).
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// `YYYY-MM-DD` of a Unix time (UTC).
pub fn iso_date(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates() {
        assert_eq!(super::iso_date(0), "1970-01-01");
        assert_eq!(super::iso_date(951_782_400), "2000-02-29");
        assert_eq!(super::iso_date(1_764_806_400), "2025-12-04");
    }
}
