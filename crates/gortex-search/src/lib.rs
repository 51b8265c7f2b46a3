//! gortex-search: finding things. Symbol search (tokenised BM25 with prefix and fuzzy matching,
//! then a graph-aware rerank), constraint-chain winnowing, file-name search, and a trigram index
//! for literal/regex text search. Pure functions over a [`gortex_graph::Graph`] plus indexes built
//! from it; no napi, no MCP.

pub mod bodies;
pub mod contracts;
pub mod declaration;
pub mod files;
pub mod fuzzy;
pub mod line_match;
pub mod rerank;
pub mod search;
pub mod sites;
pub mod symbols;
pub mod text;
pub mod tokenize;
pub mod trigram;
pub mod winnow;

pub use bodies::BodyIndex;
pub use contracts::{contract_sites, ContractSitesArgs};
pub use declaration::{find_declaration, FindDeclarationArgs, FindDeclarationResult};
pub use files::{find_files, FileHit, FileMatch, FindFilesArgs, FindFilesResult};
pub use line_match::{LineMatch, LineMatcher, LineMatcherOptions, LineMatches};
pub use search::{search_symbols, MatchTier, SearchSymbolsArgs, SearchSymbolsResult, SymbolHit};
pub use sites::{env_var_users, routes, todos, EnvVarUsersArgs, RoutesArgs, TodosArgs};
pub use symbols::SymbolIndex;
pub use text::{search_text, SearchTextArgs, SearchTextResult};
pub use trigram::TextIndex;
pub use winnow::{winnow_symbols, CommunityRef, WinnowContext, WinnowHit, WinnowSymbolsArgs, WinnowSymbolsResult};
