//! Whole-graph analyses over one [`Graph`](gortex_graph::Graph): communities, execution flows,
//! dead code, hotspots, cycles, reach and change impact. Each analysis is a pure function of the
//! graph; callers cache results per graph version.

pub mod adjacency;
pub mod annotations;
pub mod communities;
pub mod components;
pub mod connectivity;
pub mod cycles;
pub mod deadcode;
pub mod domains;
pub mod edge_audit;
pub mod external;
pub mod health;
pub mod hotspots;
pub mod impact;
mod leiden;
mod louvain;
pub mod measured;
pub mod models;
pub mod pr_risk;
pub mod processes;
pub mod reach;
pub mod resolution;
mod spectral;
pub mod synthesizers;
pub mod test_edges;
#[cfg(test)]
mod testutil;

pub use communities::{
    clusters, detect_communities, get_communities, Algorithm, ClustersArgs, ClustersResult, Communities, Community,
    GetCommunitiesArgs, GetCommunitiesResult,
};
pub use hotspots::{god_nodes, hotspots, Hotspot, HotspotsArgs, HotspotsResult};
pub use processes::{discover_processes, get_processes, GetProcessesArgs, GetProcessesResult, Process, Processes};

use gortex_graph::NodeIndex;
use rustc_hash::FxHashMap;

/// The community each node belongs to, as other analyses consume it (impact, hotspots).
#[derive(Debug, Clone, Default)]
pub struct CommunityMap {
    /// Community id per node index; `None` for nodes outside every community.
    pub of_node: Vec<Option<u32>>,
    /// Label per community id.
    pub labels: Vec<String>,
}

impl CommunityMap {
    /// The community of a node, if any.
    pub fn of(&self, node: NodeIndex) -> Option<u32> {
        self.of_node.get(node as usize).copied().flatten()
    }

    /// The label of a community id.
    pub fn label(&self, id: u32) -> Option<&str> {
        self.labels.get(id as usize).map(String::as_str)
    }
}

/// The execution flows each node takes part in, as impact analysis consumes them.
#[derive(Debug, Clone, Default)]
pub struct ProcessMap {
    /// Process ids per node that appears in some process trace.
    pub by_node: FxHashMap<NodeIndex, Vec<u32>>,
    /// Name per process id (the entry point's qualified name).
    pub names: Vec<String>,
}

impl ProcessMap {
    /// The processes a node takes part in (ascending ids; empty when none).
    pub fn of(&self, node: NodeIndex) -> &[u32] {
        self.by_node.get(&node).map(Vec::as_slice).unwrap_or(&[])
    }
}

pub mod coverage;
