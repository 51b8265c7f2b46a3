//! Whole-graph analyses over one [`Graph`](gortex_graph::Graph): communities, execution flows,
//! dead code, hotspots, cycles, reach and change impact. Each analysis is a pure function of the
//! graph; callers cache results per graph version.

pub mod cycles;
pub mod deadcode;
pub mod external;
pub mod impact;
pub mod reach;

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
}

/// The execution flows each node takes part in, as impact analysis consumes them.
#[derive(Debug, Clone, Default)]
pub struct ProcessMap {
    /// Process ids per node that appears in some process trace.
    pub by_node: FxHashMap<NodeIndex, Vec<u32>>,
    /// Name per process id (the entry point's qualified name).
    pub names: Vec<String>,
}
