//! Near-duplicate function and method detection. Bodies are reduced to language-agnostic token
//! streams, shingled, summarised as MinHash signatures, paired by LSH banding and verified by
//! exact Jaccard similarity over the shingle sets.
