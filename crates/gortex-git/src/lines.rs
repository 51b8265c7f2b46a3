//! Line lineage: for every line of every tracked file, the set of commits that shaped the code on
//! that line now. A commit that rewrites lines hands the new lines the history of the lines they
//! replace plus itself (line by line when a hunk keeps its length, as a union otherwise); a pure
//! insertion starts a fresh history. So a symbol's history is the union over its lines, blame is
//! the latest commit of each line, and commits whose lines were all deleted since drop out with
//! the code they wrote.
//!
//! Sets live in one arena and are shared by every line they label (a hunk makes at most one set
//! per distinct history it inherits), capped at [`MAX_COMMITS_PER_LINE`] most recent commits;
//! [`Lineage::compact`] drops sets no line refers to any more.

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Most commits remembered per line (the most recent ones are kept).
pub const MAX_COMMITS_PER_LINE: usize = 32;

/// A set of commits in the [`Lineage`] arena.
pub type SetId = u32;

/// The empty set: a line whose history is not known (older than the mined window).
pub const NO_HISTORY: SetId = 0;

/// Marks a line the working tree changed since `HEAD` (only ever in a join with a graph, never
/// in a mined history): the rest of the id is the history it inherits from `HEAD`'s line.
pub const UNCOMMITTED: SetId = 1 << 31;

/// Whether line id `id` is uncommitted.
pub fn is_uncommitted(id: SetId) -> bool {
    id & UNCOMMITTED != 0
}

/// The arena of commit sets; set `i` is `data[offsets[i]..offsets[i + 1]]`, sorted ascending by
/// commit index (oldest first).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Lineage {
    offsets: Vec<u32>,
    data: Vec<u32>,
}

impl Default for Lineage {
    fn default() -> Lineage {
        Lineage {
            offsets: vec![0, 0],
            data: Vec::new(),
        }
    }
}

impl Lineage {
    /// The commits of set `id`, oldest first (empty for [`NO_HISTORY`]); an uncommitted line's
    /// are those it inherited.
    pub fn get(&self, id: SetId) -> &[u32] {
        let i = (id & !UNCOMMITTED) as usize;
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The latest commit of set `id`.
    pub fn last(&self, id: SetId) -> Option<u32> {
        self.get(id).last().copied()
    }

    /// How many sets the arena holds.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether the arena holds only the empty set.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }

    fn push(&mut self, commits: &[u32]) -> SetId {
        let keep = &commits[commits.len().saturating_sub(MAX_COMMITS_PER_LINE)..];
        self.data.extend_from_slice(keep);
        self.offsets.push(self.data.len() as u32);
        (self.offsets.len() - 2) as SetId
    }

    /// The set `{commit}`.
    pub fn singleton(&mut self, commit: u32) -> SetId {
        self.push(&[commit])
    }

    /// The union of the sets `inherited` plus `commit` (which is newer than all of them).
    fn derive(&mut self, inherited: &[SetId], commit: u32, scratch: &mut Vec<u32>) -> SetId {
        scratch.clear();
        for &id in inherited {
            scratch.extend_from_slice(self.get(id));
        }
        scratch.sort_unstable();
        scratch.dedup();
        scratch.push(commit);
        let commits = std::mem::take(scratch);
        let id = self.push(&commits);
        *scratch = commits;
        id
    }

    /// `lines` after `commit` changed them by `hunks` (`before` → `after` line ranges, in order,
    /// as the line diff reports them) into a file of `new_len` lines. `single` is `{commit}`.
    pub fn apply(
        &mut self,
        lines: &[SetId],
        hunks: &[(Range<u32>, Range<u32>)],
        new_len: usize,
        commit: u32,
        single: SetId,
    ) -> Vec<SetId> {
        let mut out = Vec::with_capacity(new_len);
        let mut scratch = Vec::new();
        let mut memo: Vec<(SetId, SetId)> = Vec::new();
        let mut at = 0usize;
        for (before, after) in hunks {
            let (b0, b1) = (before.start as usize, (before.end as usize).min(lines.len()));
            out.extend_from_slice(&lines[at.min(lines.len())..b0.min(lines.len())]);
            at = b1.max(b0);
            let old = &lines[b0.min(lines.len())..b1];
            let new = after.len();
            if new == 0 {
                continue;
            }
            if old.is_empty() {
                out.extend(std::iter::repeat_n(single, new));
            } else if old.len() == new {
                // A rewrite of the same length: each line inherits its counterpart's history.
                for &set in old {
                    let derived = match memo.iter().find(|(from, _)| *from == set) {
                        Some(&(_, to)) => to,
                        None => {
                            let to = self.derive(&[set], commit, &mut scratch);
                            memo.push((set, to));
                            to
                        }
                    };
                    out.push(derived);
                }
            } else {
                let mut distinct: Vec<SetId> = old.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                let set = self.derive(&distinct, commit, &mut scratch);
                out.extend(std::iter::repeat_n(set, new));
            }
        }
        out.extend_from_slice(&lines[at.min(lines.len())..]);
        out.resize(new_len, single);
        out
    }

    /// Drops the sets no line of `files` refers to and renumbers the rest in place.
    pub fn compact(&mut self, mut files: Vec<&mut Vec<SetId>>) {
        let mut live = vec![false; self.len()];
        live[NO_HISTORY as usize] = true;
        for lines in files.iter() {
            for &id in lines.iter() {
                live[id as usize] = true;
            }
        }
        let mut renumber = vec![NO_HISTORY; self.len()];
        let mut next = Lineage::default();
        for (id, keep) in live.iter().enumerate().skip(1) {
            if *keep {
                renumber[id] = next.push(self.get(id as SetId));
            }
        }
        for lines in files.iter_mut() {
            for id in lines.iter_mut() {
                *id = renumber[*id as usize];
            }
        }
        *self = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_inherit_and_insertions_start_fresh() {
        let mut l = Lineage::default();
        let c0 = l.singleton(0);
        let file = vec![c0; 4];
        // Commit 1 rewrites line 1 in place and inserts one line after line 3.
        let c1 = l.singleton(1);
        let next = l.apply(&file, &[(1..2, 1..2), (3..3, 3..4)], 5, 1, c1);
        assert_eq!(next.len(), 5);
        assert_eq!(l.get(next[0]), &[0]);
        assert_eq!(l.get(next[1]), &[0, 1]);
        assert_eq!(l.get(next[3]), &[1]);
        assert_eq!(l.get(next[4]), &[0]);
        // Commit 2 replaces lines 0..2 by one line: the union of both histories.
        let c2 = l.singleton(2);
        let last = l.apply(&next, &[(0..2, 0..1)], 4, 2, c2);
        assert_eq!(l.get(last[0]), &[0, 1, 2]);
        let mut files = [last.clone()];
        l.compact(files.iter_mut().collect());
        assert_eq!(l.get(files[0][0]), &[0, 1, 2]);
        assert_eq!(l.get(files[0][2]), &[1]);
        assert!(l.len() < 8);
    }
}
