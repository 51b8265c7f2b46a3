//! "Did you mean" for unknown targets: nodes whose name (case-insensitive) resembles what the
//! agent typed, ranked equal, prefix, substring, contained, then a few typos (ties: non-test,
//! shorter name, id), so a misspelt or half-remembered name still leads to an id to retry with.

use crate::model::{Graph, NodeIndex};
use gortex_core::NodeKind;

/// How many suggestions a `not_found` error offers.
pub const MAX_SUGGESTIONS: usize = 5;

/// The tail of a `not_found` message: `did you mean: a, b?`, or `no similar names exist`.
pub fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        "no similar names exist".to_string()
    } else {
        format!("did you mean: {}?", suggestions.join(", "))
    }
}

/// Ids of up to `max` nodes whose name resembles the last segment of `input` (ranked as the
/// module doc says). Path-like input (with a `/`, or naming a file) is compared with file names
/// only; anything else with symbol and file names.
pub fn suggest(g: &Graph, input: &str, max: usize) -> Vec<String> {
    suggest_nodes(g, input, max, Among::Anything)
        .into_iter()
        .map(|i| g.node_at(i).id.to_string())
        .collect()
}

/// File nodes whose name resembles the base name of `input`, for arguments that only take files.
pub fn suggest_files(g: &Graph, input: &str, max: usize) -> Vec<NodeIndex> {
    suggest_nodes(g, input, max, Among::Files)
}

/// Which nodes a suggestion may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Among {
    /// Files only: the argument takes nothing else.
    Files,
    /// Files, and symbols unless the input looks like a path.
    Anything,
}

/// Up to `max` in-repository nodes ranked by how their name (case-insensitive) matches the key
/// taken from `input`: equal, then starting with it, then containing it, then contained in it,
/// then within a few typos (about one per three characters; a swap of neighbours is one typo).
/// Ties go to non-test nodes, then shorter names, then ids.
fn suggest_nodes(g: &Graph, input: &str, max: usize, among: Among) -> Vec<NodeIndex> {
    let base = input.rsplit('/').find(|s| !s.is_empty()).unwrap_or(input);
    let path_like = among == Among::Files
        || (!input.contains("::")
            && (input.contains('/')
                || g.nodes()
                    .any(|n| n.kind == NodeKind::File && n.name.eq_ignore_ascii_case(base))));
    let key = if path_like {
        base
    } else {
        let tail = input.rsplit("::").next().unwrap_or(input);
        tail.rsplit(['.', '/']).find(|s| !s.is_empty()).unwrap_or(tail)
    };
    let key = key.to_lowercase();
    let key_len = key.chars().count();
    if key_len == 0 {
        return Vec::new();
    }
    let max_edits = (key_len / 3).max(1);
    let mut scored: Vec<(usize, bool, usize, &str, NodeIndex)> = g
        .node_entries()
        .filter(|(_, n)| !n.external && (n.kind == NodeKind::File || (!path_like && n.kind.is_symbol())))
        .filter_map(|(i, n)| {
            let name = n.name.to_lowercase();
            let rank = if name == key {
                0
            } else if name.starts_with(&key) {
                1
            } else if name.contains(&key) {
                2
            } else if key_len >= 4 && name.chars().count() >= 3 && key.contains(&name) {
                3
            } else if key_len >= 3 {
                4 + edits_within(&key, &name, max_edits)?
            } else {
                return None;
            };
            Some((rank, n.is_test, n.name.len(), &*n.id, i))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(max).map(|s| s.4).collect()
}

/// Edit distance between `a` and `b` (insertions, deletions, substitutions and swaps of
/// neighbouring characters, which are the common typos) when it is at most `max`.
fn edits_within(a: &str, b: &str, max: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 0..a.len() {
        cur[0] = i + 1;
        for j in 0..b.len() {
            let mut d = (prev[j] + usize::from(a[i] != b[j]))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        // A swap reaches back two rows, so only two rows over `max` in a row rule a match out.
        let over = |row: &[usize]| row.iter().all(|&d| d > max);
        if over(&cur) && over(&prev) {
            return None;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::edits_within;

    #[test]
    fn edit_distance_counts_a_swap_of_neighbours_as_one_typo() {
        assert_eq!(edits_within("strat", "start", 1), Some(1));
        assert_eq!(edits_within("lefft", "left", 1), Some(1));
        assert_eq!(edits_within("sumarize", "summarizes", 2), Some(2));
        assert_eq!(edits_within("abcdef", "badcfe", 3), Some(3));
        assert_eq!(edits_within("abcdef", "badcfe", 2), None);
        assert_eq!(edits_within("same", "same", 1), Some(0));
        assert_eq!(edits_within("abc", "xyz", 2), None);
        assert_eq!(edits_within("ab", "abcd", 1), None);
        assert_eq!(edits_within("abc", "", 3), Some(3));
    }
}
