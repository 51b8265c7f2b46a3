//! gortex-search: finding things. Symbol search (tokenised BM25 with prefix and fuzzy matching,
//! then a graph-aware rerank), constraint-chain winnowing, file-name search, and a trigram index
//! for literal/regex text search. Pure functions over a [`gortex_graph::Graph`] plus indexes built
//! from it; no napi, no MCP.

pub mod declaration;
pub mod text;
pub mod trigram;
