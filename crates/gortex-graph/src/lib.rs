//! gortex-graph: the code graph of one repository.
//!
//! [`build_graph`] turns per-file facts into nodes with stable ids, structural edges and
//! resolved references (with provenance tiers); [`Graph`] answers lookups and adjacency.

pub mod bodies;
mod build;
pub mod cache;
pub mod config;
mod deps;
mod layer;
pub mod model;
pub mod query;
mod resolve;
mod reuse;
pub mod semantic;

pub use build::{
    build_graph, build_graph_incremental, local_ids, BuildStats, ChangedFile, Layout, Previous, RepoInput, SourceFile,
    TablesMade,
};
pub use cache::{ResolutionCache, ResolutionMemory};
pub use config::RepoConfig;
pub use layer::build_graph_layered;
pub use model::{Direction, Edge, Graph, GraphMemory, Id, Node, NodeIndex, Unresolved};
pub use reuse::carry_over;
