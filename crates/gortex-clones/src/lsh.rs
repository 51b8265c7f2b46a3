//! Locality-sensitive hashing over MinHash signatures: [`BANDS`] bands of [`ROWS`] slots each.
//! Two bodies become a candidate pair when all slots of at least one band agree, which happens
//! with probability `1 - (1 - J^ROWS)^BANDS` for Jaccard index `J` (≈0.64 at 0.5, ≈0.9999 at
//! 0.82). Buckets are rebuilt from the stored signatures on demand (a parallel sort of
//! `bodies × BANDS` keys), so there is no incremental state to keep consistent.

use crate::minhash::{Signature, NUM_HASHES};
use rayon::prelude::*;

/// Bands per signature.
pub const BANDS: usize = 16;
/// Signature slots per band.
pub const ROWS: usize = 4;
/// Buckets with more bodies than this are skipped (and counted): they come from very common
/// boilerplate and would add a quadratic number of pairs.
pub const MAX_BUCKET: usize = 256;
/// Most distinct candidate pairs collected; beyond it the scan stops and reports `capped`.
pub const MAX_CANDIDATES: usize = 8_000_000;

const _: () = assert!(BANDS * ROWS == NUM_HASHES);

/// The bucket key of one band of a signature (the band number is part of the key).
#[inline]
pub fn band_key(sig: &Signature, band: usize) -> u64 {
    // FNV-1a over the band's slots, seeded with the band number.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ band as u64;
    for &slot in &sig[band * ROWS..(band + 1) * ROWS] {
        for byte in slot.to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// True when the two signatures agree on every slot of at least one band.
pub fn shares_band(a: &Signature, b: &Signature) -> bool {
    (0..BANDS).any(|band| a[band * ROWS..(band + 1) * ROWS] == b[band * ROWS..(band + 1) * ROWS])
}

/// Candidate pairs found by banding.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Candidates {
    /// `(i, j)` with `i < j`, indexes into the signature slice; sorted and distinct.
    pub pairs: Vec<(u32, u32)>,
    /// Buckets larger than [`MAX_BUCKET`] that were skipped.
    pub oversized_buckets: usize,
    /// The scan stopped at [`MAX_CANDIDATES`] distinct pairs.
    pub capped: bool,
}

/// Every pair of signatures sharing a band bucket of at most [`MAX_BUCKET`] members, with at most
/// `cap` distinct pairs. Deterministic: the result depends only on the signatures and their order.
pub fn candidates(sigs: &[&Signature], cap: usize) -> Candidates {
    let mut keys: Vec<(u64, u32)> = sigs
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, sig)| (0..BANDS).map(move |band| (band_key(sig, band), i as u32)))
        .collect();
    keys.par_sort_unstable();

    let mut out = Candidates::default();
    let mut raw: Vec<u64> = Vec::new();
    let mut start = 0;
    'groups: while start < keys.len() {
        let key = keys[start].0;
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == key {
            end += 1;
        }
        let group = &keys[start..end];
        start = end;
        if group.len() > MAX_BUCKET {
            out.oversized_buckets += 1;
            continue;
        }
        // Members are sorted by index, so `a < b` below.
        for (x, &(_, a)) in group.iter().enumerate() {
            for &(_, b) in &group[x + 1..] {
                if a != b {
                    raw.push(((a as u64) << 32) | b as u64);
                }
            }
        }
        // Most raw pairs repeat across bands; deduplicate in batches to bound memory.
        if raw.len() >= 2 * cap.max(1) {
            raw.par_sort_unstable();
            raw.dedup();
            if raw.len() >= cap {
                out.capped = true;
                break 'groups;
            }
        }
    }
    raw.par_sort_unstable();
    raw.dedup();
    if raw.len() > cap {
        raw.truncate(cap);
        out.capped = true;
    }
    out.pairs = raw.into_iter().map(|p| ((p >> 32) as u32, p as u32)).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::{jaccard, signature};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn set(&mut self, n: usize) -> Vec<u32> {
            let mut v: Vec<u32> = (0..n).map(|_| self.next() as u32).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
    }

    #[test]
    fn planted_pairs_above_threshold_are_found() {
        let mut rng = Rng(0x5eed);
        let mut sets: Vec<Vec<u32>> = Vec::new();
        let mut planted = Vec::new();
        for _ in 0..300 {
            let n = 60 + (rng.next() % 200) as usize;
            let base = rng.set(n);
            // Replace ~8% of the elements: Jaccard ≈ 0.85.
            let mut copy = base.clone();
            let swaps = (copy.len() * 8 / 100).max(1);
            for k in 0..swaps {
                let at = (k * 13) % copy.len();
                copy[at] = rng.next() as u32;
            }
            copy.sort_unstable();
            copy.dedup();
            planted.push((sets.len() as u32, sets.len() as u32 + 1, jaccard(&base, &copy)));
            sets.push(base);
            sets.push(copy);
        }
        for _ in 0..2000 {
            let n = 40 + (rng.next() % 200) as usize;
            sets.push(rng.set(n));
        }
        let sigs: Vec<Signature> = sets.iter().map(|s| signature(s)).collect();
        let refs: Vec<&Signature> = sigs.iter().collect();
        let found = candidates(&refs, MAX_CANDIDATES);
        assert!(!found.capped);
        assert_eq!(found.oversized_buckets, 0);
        let mut missed = 0;
        for &(a, b, j) in &planted {
            assert!(j >= 0.82, "planted pair too far apart: {j}");
            if found.pairs.binary_search(&(a, b)).is_err() {
                missed += 1;
            }
        }
        assert_eq!(missed, 0);
        // Unrelated random sets almost never collide.
        let noise = found.pairs.iter().filter(|&&(a, _)| a >= 600).count();
        assert!(noise < 10, "{noise} noise candidates");
    }

    #[test]
    fn oversized_buckets_are_skipped_and_cap_applies() {
        let same = signature(&[1, 2, 3, 4, 5]);
        let refs: Vec<&Signature> = std::iter::repeat_n(&same, MAX_BUCKET + 1).collect();
        let found = candidates(&refs, MAX_CANDIDATES);
        assert_eq!(found.oversized_buckets, BANDS);
        assert!(found.pairs.is_empty());

        let refs: Vec<&Signature> = std::iter::repeat_n(&same, 20).collect();
        let found = candidates(&refs, MAX_CANDIDATES);
        assert_eq!(found.pairs.len(), 20 * 19 / 2);
        let capped = candidates(&refs, 50);
        assert!(capped.capped);
        assert_eq!(capped.pairs.len(), 50);
        assert_eq!(capped.pairs, found.pairs[..50]);
    }

    #[test]
    fn shares_band_agrees_with_keys() {
        let a = signature(&[1, 2, 3]);
        let mut b = a;
        for band in 0..BANDS {
            b[band * ROWS] ^= 1;
        }
        assert!(!shares_band(&a, &b));
        b[5 * ROWS] = a[5 * ROWS];
        assert!(shares_band(&a, &b));
        assert_eq!(band_key(&a, 5), band_key(&b, 5));
        assert_ne!(band_key(&a, 4), band_key(&b, 4));
    }
}
