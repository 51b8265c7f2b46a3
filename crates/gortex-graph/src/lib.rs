//! gortex-graph: the code graph of one repository.
//!
//! [`build_graph`] turns per-file facts into nodes with stable ids, structural edges and
//! resolved references (with provenance tiers); [`Graph`] answers lookups and adjacency.

mod build;
pub mod config;
pub mod model;
mod resolve;

pub use build::{build_graph, RepoInput, SourceFile};
pub use config::RepoConfig;
pub use model::{Direction, Edge, Graph, Id, Node, NodeIndex, Unresolved};
