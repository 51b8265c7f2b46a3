//! Approximate token matching for query terms that match no vocabulary token by prefix:
//! bounded edit distance (with transpositions, so `paymnet` is one edit from `payment`) and
//! abbreviations (`usr` → `user`, `cfg` → `config`). Works on bytes: tokens are lowercased and
//! almost always ASCII; for other scripts a multi-byte character counts as several edits.

/// Edits allowed for a term of this many bytes: none below 4, 1 for 4–7, 2 from 8 on.
pub fn max_edits(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Optimal-string-alignment distance between `a` and `b` when it is at most `k`, else `None`.
/// Stops as soon as every cell of a row exceeds `k`. Inputs longer than 64 bytes never match
/// (no indexed token is longer), which keeps the rows on the stack.
pub fn osa_within(a: &[u8], b: &[u8], k: usize) -> Option<usize> {
    const W: usize = crate::tokenize::MAX_TOKEN_LEN + 1;
    if a.len().abs_diff(b.len()) > k || a.len() >= W || b.len() >= W {
        return None;
    }
    let n = b.len();
    // Three rows: two back (for transpositions), previous, current.
    let mut back = [0usize; W];
    let mut prev = [0usize; W];
    let mut cur = [0usize; W];
    for (j, p) in prev.iter_mut().enumerate().take(n + 1) {
        *p = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=n {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(back[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > k {
            return None;
        }
        back = prev;
        prev = cur;
    }
    let d = prev[n];
    (d <= k).then_some(d)
}

/// True when `short` abbreviates `long`: at least 3 bytes, same first byte, every byte of `short`
/// appears in `long` in order, and `long` is at most about twice as long (so `ur` or `usr` do not
/// match every long word containing those letters).
pub fn is_abbreviation(short: &[u8], long: &[u8]) -> bool {
    if short.len() < 3 || long.len() <= short.len() || long.len() > 2 * short.len() + 2 || short[0] != long[0] {
        return false;
    }
    let mut it = long.iter();
    short.iter().all(|c| it.any(|l| l == c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpositions_count_once() {
        assert_eq!(osa_within(b"paymnet", b"payment", 1), Some(1));
        assert_eq!(osa_within(b"payment", b"payment", 0), Some(0));
        assert_eq!(osa_within(b"paymnt", b"payment", 1), Some(1));
        assert_eq!(osa_within(b"pyment", b"payment", 1), Some(1));
        assert_eq!(osa_within(b"paymentx", b"payment", 1), Some(1));
    }

    #[test]
    fn distance_is_bounded() {
        assert_eq!(osa_within(b"repsitroy", b"repository", 2), Some(2));
        assert_eq!(osa_within(b"user", b"order", 1), None);
        assert_eq!(osa_within(b"abc", b"abcdef", 2), None);
        assert_eq!(osa_within(b"", b"ab", 2), Some(2));
    }

    #[test]
    fn edit_budget_grows_with_length() {
        assert_eq!(max_edits(3), 0);
        assert_eq!(max_edits(4), 1);
        assert_eq!(max_edits(7), 1);
        assert_eq!(max_edits(8), 2);
    }

    #[test]
    fn abbreviations() {
        assert!(is_abbreviation(b"usr", b"user"));
        assert!(is_abbreviation(b"cfg", b"config"));
        assert!(is_abbreviation(b"mgr", b"manager"));
        assert!(is_abbreviation(b"btn", b"button"));
        assert!(!is_abbreviation(b"usr", b"usr"), "equal is not an abbreviation");
        assert!(!is_abbreviation(b"us", b"user"), "too short");
        assert!(!is_abbreviation(b"usr", b"unsupportedrequest"), "too long");
        assert!(!is_abbreviation(b"sur", b"user"), "first letter must match");
        assert!(!is_abbreviation(b"urs", b"user"), "order matters");
    }
}
