//! Near-duplicate function and method detection. Bodies are reduced to language-agnostic token
//! streams, shingled, summarised as MinHash signatures, paired by LSH banding and verified by
//! exact Jaccard similarity over the shingle sets.
//!
//! - [`tokenize`]: the normaliser (identifiers → `v`, literals → `0`/`s`, keywords and operators kept).
//! - [`minhash`]: 3-token shingles, 64-slot signatures over a fixed universal hash family.
//! - [`lsh`]: 16 bands × 4 rows, oversized buckets skipped, candidate pairs capped.
//! - [`index`]: [`CloneIndex`], incremental per file (content hash + the graph's body spans).
//! - [`find`]: the `find_clones` tool and the pair helpers ([`similar_pairs`], [`clones_of`]).
//!
//! What takes part: every function and method body of the graph (not external, non-empty span)
//! with at least [`MIN_TOKENS`] normalised tokens, except declarations without a body
//! (interface and abstract members, overloads, `declare function`, trait and Go interface
//! methods: identical signatures are not duplicated code) and, unless asked for, test code
//! (test functions and every function in a test file).
//!
//! Cross-language pairs are allowed: the token vocabulary is shared, so a TypeScript function
//! and its JavaScript twin can match. Different languages rarely reach the threshold in
//! practice because their syntax (braces vs. indentation, `func`/`def`/`function`, type
//! annotations) already changes most shingles.

pub mod find;
pub mod index;
pub mod lsh;
pub mod minhash;
pub mod tokenize;

pub use find::{
    clones_of, clones_of_at, find_clones, similar_pairs, CloneCluster, CloneMember, ClonePair, FindClonesArgs,
    FindClonesResult, PairOptions, SimilarPair, SimilarPairs, DEFAULT_THRESHOLD,
};
pub use index::{Body, CloneIndex, SkipReason, SyncSkip, SyncStats};
pub use minhash::MIN_TOKENS;
