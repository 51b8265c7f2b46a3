//! Shingling and MinHash signatures.
//!
//! A body's fingerprint is the set of hashes of every run of [`SHINGLE_K`] consecutive tokens;
//! two bodies' similarity is the Jaccard index of those sets. A [`Signature`] keeps, for each of
//! [`NUM_HASHES`] universal hash functions `h_i(x) = (a_i·x + b_i) mod P` with `P = 4294967291`,
//! the minimum over the set; the fraction of equal slots estimates the Jaccard index. The `(a, b)`
//! pairs come from a fixed-seed xorshift64* generator, computed at compile time, so signatures
//! are identical across runs, machines and versions of this crate with the same constants.

use crate::tokenize::Token;

/// Tokens per shingle.
pub const SHINGLE_K: usize = 3;
/// Fewest tokens a body needs to take part in clone detection.
pub const MIN_TOKENS: usize = 24;
/// Slots in a MinHash signature.
pub const NUM_HASHES: usize = 64;
/// The largest prime below 2^32: the modulus of the universal hash family.
pub const PRIME: u64 = 4_294_967_291;
/// Seed of the xorshift64* generator that draws the hash family.
pub const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// A MinHash signature.
pub type Signature = [u32; NUM_HASHES];

const fn xorshift64star(mut x: u64) -> (u64, u64) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    (x, x.wrapping_mul(0x2545_F491_4F6C_DD1D))
}

/// The `(a_i, b_i)` pairs, `1 <= a < P`, `0 <= b < P`.
const fn hash_family() -> ([u32; NUM_HASHES], [u32; NUM_HASHES]) {
    let mut a = [0u32; NUM_HASHES];
    let mut b = [0u32; NUM_HASHES];
    let mut state = SEED;
    let mut i = 0;
    while i < NUM_HASHES {
        let (s, r) = xorshift64star(state);
        state = s;
        a[i] = (1 + r % (PRIME - 1)) as u32;
        let (s, r) = xorshift64star(state);
        state = s;
        b[i] = (r % PRIME) as u32;
        i += 1;
    }
    (a, b)
}

const FAMILY: ([u32; NUM_HASHES], [u32; NUM_HASHES]) = hash_family();

/// `v mod P` for any `v < 2^64`, using `2^32 ≡ 5 (mod P)` instead of a division.
#[inline(always)]
pub fn mod_prime(v: u64) -> u32 {
    const LOW: u64 = 0xFFFF_FFFF;
    let r = (v & LOW) + 5 * (v >> 32); // < 6·2^32
    let r = (r & LOW) + 5 * (r >> 32); // < 2^32 + 30 < 2P
    (if r >= PRIME { r - PRIME } else { r }) as u32
}

#[inline(always)]
fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The hash of one shingle of three tokens.
#[inline]
pub fn shingle_hash(a: Token, b: Token, c: Token) -> u32 {
    let h = mix64((a as u64) | ((b as u64) << 32)) ^ mix64(c as u64 ^ SEED);
    (mix64(h) >> 32) as u32
}

/// The deduplicated, sorted shingle hashes of a token stream (empty when it has fewer than
/// [`SHINGLE_K`] tokens).
pub fn shingles(tokens: &[Token]) -> Vec<u32> {
    let mut out: Vec<u32> = tokens
        .windows(SHINGLE_K)
        .map(|w| shingle_hash(w[0], w[1], w[2]))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The MinHash signature of a shingle set (all slots `u32::MAX` for an empty set).
pub fn signature(shingles: &[u32]) -> Signature {
    // The 64 slots vectorise well, but only with wide unsigned min/multiply instructions the
    // baseline x86-64 target lacks: AVX-512 is ~15× and AVX2 ~3× faster than SSE2 here, so pick
    // the widest the CPU has. Every variant computes the same values.
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports AVX-512F (checked just above).
            return unsafe { signature_avx512(shingles) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { signature_avx2(shingles) };
        }
    }
    signature_kernel(shingles)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn signature_avx512(shingles: &[u32]) -> Signature {
    signature_kernel(shingles)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn signature_avx2(shingles: &[u32]) -> Signature {
    signature_kernel(shingles)
}

#[inline(always)]
fn signature_kernel(shingles: &[u32]) -> Signature {
    let (a, b) = &FAMILY;
    let mut sig = [u32::MAX; NUM_HASHES];
    for &x in shingles {
        let x = x as u64;
        // Fixed-size arrays and a branch-free body let the compiler vectorise the 64 slots.
        for i in 0..NUM_HASHES {
            let h = mod_prime(a[i] as u64 * x + b[i] as u64);
            sig[i] = sig[i].min(h);
        }
    }
    sig
}

/// The fraction of equal slots: an estimate of the Jaccard index of the underlying sets.
pub fn estimate(a: &Signature, b: &Signature) -> f64 {
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / NUM_HASHES as f64
}

/// The exact Jaccard index of two sorted, deduplicated sets (1.0 for two empty sets).
pub fn jaccard(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let inter = intersection_len(a, b);
    inter as f64 / (a.len() + b.len() - inter) as f64
}

/// [`jaccard`] when it can reach `threshold`, `None` otherwise; the size bound
/// `min(|a|,|b|) / max(|a|,|b|)` rejects most pairs without merging.
pub fn jaccard_at_least(a: &[u32], b: &[u32], threshold: f64) -> Option<f64> {
    let (small, large) = if a.len() <= b.len() {
        (a.len(), b.len())
    } else {
        (b.len(), a.len())
    };
    if large == 0 || (small as f64) < threshold * large as f64 - 1e-9 {
        return None;
    }
    let j = jaccard(a, b);
    (j >= threshold).then_some(j)
}

fn intersection_len(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A deterministic xorshift64* stream for test data.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            let (s, r) = xorshift64star(self.0);
            self.0 = s;
            r
        }
    }

    #[test]
    fn family_is_in_range_and_fixed() {
        let (a, b) = FAMILY;
        assert!(a.iter().all(|&x| x >= 1 && (x as u64) < PRIME));
        assert!(b.iter().all(|&x| (x as u64) < PRIME));
        let mut distinct = a.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), NUM_HASHES);
        assert_eq!(FAMILY, hash_family());
    }

    #[test]
    fn mod_prime_matches_remainder() {
        let mut rng = Rng(7);
        let edge = [
            0,
            1,
            PRIME - 1,
            PRIME,
            PRIME + 1,
            u32::MAX as u64,
            u64::MAX,
            u64::MAX - 4,
            5 * PRIME,
        ];
        for v in edge.into_iter().chain((0..100_000).map(|_| rng.next())) {
            assert_eq!(mod_prime(v) as u64, v % PRIME, "{v}");
        }
    }

    #[test]
    fn signatures_are_deterministic() {
        let set: Vec<u32> = (0..200u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let mut sorted = set.clone();
        sorted.sort_unstable();
        let sig = signature(&sorted);
        assert_eq!(sig, signature(&sorted));
        // Pinned values: a change to the hash family or the reduction shows up here.
        assert_eq!(
            &sig[..4],
            &[
                pinned(&sorted, 0),
                pinned(&sorted, 1),
                pinned(&sorted, 2),
                pinned(&sorted, 3)
            ]
        );
        assert_eq!(shingle_hash(1, 2, 3), shingle_hash(1, 2, 3));
        assert_ne!(shingle_hash(1, 2, 3), shingle_hash(3, 2, 1));
    }

    #[test]
    fn pinned_signature_of_a_fixed_body() {
        // Guards determinism across runs and versions: the tokenizer, shingle hash, hash family
        // and reduction all feed these numbers.
        let tokens = crate::tokenize::tokenize(
            "function f(a: number) { if (a > 1) { return a * 2; } return g(a, \"x\"); }",
            gortex_core::Language::TypeScript,
        );
        let set = shingles(&tokens);
        assert_eq!(set.len(), 27);
        let sig = signature(&set);
        assert_eq!(&sig[..4], &[15099866, 20106350, 118518398, 299922877]);
    }

    /// Slot `i` computed the slow, obvious way.
    fn pinned(set: &[u32], i: usize) -> u32 {
        let (a, b) = FAMILY;
        set.iter()
            .map(|&x| ((a[i] as u64 * x as u64 + b[i] as u64) % PRIME) as u32)
            .min()
            .unwrap()
    }

    #[test]
    fn every_kernel_variant_agrees() {
        let mut rng = Rng(99);
        for n in [0usize, 1, 7, 300] {
            let mut set: Vec<u32> = (0..n).map(|_| rng.next() as u32).chain([0, u32::MAX]).collect();
            set.sort_unstable();
            set.dedup();
            let expected = signature_kernel(&set);
            assert_eq!(signature(&set), expected);
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx512f") {
                    assert_eq!(unsafe { signature_avx512(&set) }, expected);
                }
                if std::is_x86_feature_detected!("avx2") {
                    assert_eq!(unsafe { signature_avx2(&set) }, expected);
                }
            }
            for (i, slot) in expected.iter().enumerate() {
                assert_eq!(*slot, pinned(&set, i));
            }
        }
    }

    #[test]
    fn jaccard_exact() {
        assert_eq!(jaccard(&[1, 2, 3, 4], &[3, 4, 5, 6]), 2.0 / 6.0);
        assert_eq!(jaccard(&[1, 2], &[1, 2]), 1.0);
        assert_eq!(jaccard(&[], &[1]), 0.0);
        assert_eq!(jaccard_at_least(&[1, 2, 3, 4], &[1, 2, 3, 4, 5], 0.8), Some(0.8));
        assert_eq!(jaccard_at_least(&[1, 2, 3], &[1, 2, 3, 4, 5], 0.8), None);
    }

    /// Two sets over a random universe with `shared` common and `only` private elements each.
    fn pair(rng: &mut Rng, shared: usize, only_a: usize, only_b: usize) -> (Vec<u32>, Vec<u32>) {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut all: Vec<u32> = Vec::new();
        while all.len() < shared + only_a + only_b {
            let x = rng.next() as u32;
            if seen.insert(x) {
                all.push(x);
            }
        }
        let mut a: Vec<u32> = all[..shared + only_a].to_vec();
        let mut b: Vec<u32> = all[..shared].iter().chain(&all[shared + only_a..]).copied().collect();
        a.sort_unstable();
        b.sort_unstable();
        (a, b)
    }

    #[test]
    fn estimate_is_unbiased_on_average() {
        let mut rng = Rng(42);
        let mut total_error = 0.0;
        let rounds = 300;
        for r in 0..rounds {
            let shared = 20 + r % 150;
            let (a, b) = pair(&mut rng, shared, r % 40, (r * 7) % 40);
            let err = estimate(&signature(&a), &signature(&b)) - jaccard(&a, &b);
            total_error += err.abs();
        }
        assert!(
            total_error / (rounds as f64) < 0.06,
            "mean abs error {}",
            total_error / rounds as f64
        );
    }

    proptest! {
        #[test]
        fn estimate_close_to_exact(seed in 1u64.., shared in 0usize..200, only_a in 0usize..120, only_b in 0usize..120) {
            prop_assume!(shared + only_a + only_b > 0);
            let mut rng = Rng(seed);
            let (a, b) = pair(&mut rng, shared, only_a, only_b);
            let exact = jaccard(&a, &b);
            let est = estimate(&signature(&a), &signature(&b));
            // 64 slots: standard error <= 0.0625; 5σ keeps the test from flaking.
            prop_assert!((est - exact).abs() <= 0.32, "exact {} estimate {}", exact, est);
        }
    }
}
