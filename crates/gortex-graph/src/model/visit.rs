//! petgraph's `visit` traits on the graph, so petgraph's algorithms (strongly connected
//! components, traversals, shortest paths, …) run on the CSR itself, without copying it into a
//! petgraph graph first. Node ids are [`NodeIndex`]es; an edge is identified by its
//! [`EdgeKey`] (the graph keeps one edge per `(from, to, kind, line)`); node and edge weights are
//! the graph's own [`Node`] and [`Edge`]. A layered graph (an overlay view) works too: its removed
//! slots are never yielded as nodes and have no edges. Narrow the edges an algorithm sees with
//! petgraph's `EdgeFiltered`, and drop their direction with `UndirectedAdaptor`.

use super::{run_of, Edge, Graph, Node, NodeIndex};
use gortex_core::EdgeKind;
use petgraph::visit::{
    Data, EdgeCount, EdgeRef, GraphBase, GraphProp, IntoEdgeReferences, IntoEdges, IntoEdgesDirected, IntoNeighbors,
    IntoNeighborsDirected, IntoNodeIdentifiers, IntoNodeReferences, NodeCount, NodeIndexable, Visitable,
};
use petgraph::{Directed, Direction};

/// An edge's identity in petgraph's terms: the graph keeps one edge per these four fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EdgeKey {
    pub from: NodeIndex,
    pub to: NodeIndex,
    pub kind: EdgeKind,
    pub line: u32,
}

impl GraphBase for Graph {
    type NodeId = NodeIndex;
    type EdgeId = EdgeKey;
}

impl GraphProp for Graph {
    type EdgeType = Directed;
}

impl Data for Graph {
    type NodeWeight = Node;
    type EdgeWeight = Edge;
}

impl NodeCount for Graph {
    fn node_count(&self) -> usize {
        self.live_node_count()
    }
}

impl EdgeCount for Graph {
    fn edge_count(&self) -> usize {
        Graph::edge_count(self)
    }
}

impl NodeIndexable for Graph {
    fn node_bound(&self) -> usize {
        Graph::node_count(self)
    }

    fn to_index(&self, a: NodeIndex) -> usize {
        a as usize
    }

    fn from_index(&self, i: usize) -> NodeIndex {
        i as NodeIndex
    }
}

impl Visitable for Graph {
    type Map = fixedbitset::FixedBitSet;

    fn visit_map(&self) -> Self::Map {
        fixedbitset::FixedBitSet::with_capacity(Graph::node_count(self))
    }

    fn reset_map(&self, map: &mut Self::Map) {
        map.clear();
        map.grow(Graph::node_count(self));
    }
}

impl EdgeRef for &Edge {
    type NodeId = NodeIndex;
    type EdgeId = EdgeKey;
    type Weight = Edge;

    fn source(&self) -> NodeIndex {
        self.from
    }

    fn target(&self) -> NodeIndex {
        self.to
    }

    fn weight(&self) -> &Edge {
        self
    }

    fn id(&self) -> EdgeKey {
        EdgeKey {
            from: self.from,
            to: self.to,
            kind: self.kind,
            line: self.line,
        }
    }
}

/// A node's edges in one direction: a slice of the CSR for outgoing edges and for a flat
/// graph's incoming ones (edge positions into the edge list), the layer's walk otherwise.
pub enum DirectedEdges<'a> {
    Out(std::slice::Iter<'a, Edge>),
    In {
        positions: std::slice::Iter<'a, u32>,
        edges: &'a [Edge],
    },
    Layered(Box<dyn Iterator<Item = &'a Edge> + 'a>),
}

impl<'a> Iterator for DirectedEdges<'a> {
    type Item = &'a Edge;

    fn next(&mut self) -> Option<&'a Edge> {
        match self {
            DirectedEdges::Out(edges) => edges.next(),
            DirectedEdges::In { positions, edges } => positions.next().map(|&i| &edges[i as usize]),
            DirectedEdges::Layered(edges) => edges.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            DirectedEdges::Out(edges) => edges.size_hint(),
            DirectedEdges::In { positions, .. } => positions.size_hint(),
            DirectedEdges::Layered(edges) => edges.size_hint(),
        }
    }
}

impl Graph {
    /// A node's edges in `dir` without boxing where the CSR has them as slices.
    pub fn edges_in_direction(&self, node: NodeIndex, dir: Direction) -> DirectedEdges<'_> {
        match (dir, &self.layer) {
            (Direction::Outgoing, _) => DirectedEdges::Out(self.out_edges(node)),
            (Direction::Incoming, Some(_)) => DirectedEdges::Layered(Box::new(self.in_edges(node))),
            (Direction::Incoming, None) => {
                let (s, e) = run_of(&self.in_offsets, node);
                DirectedEdges::In {
                    positions: self.in_edges[s..e].iter(),
                    edges: &self.edges,
                }
            }
        }
    }
}

/// The nodes at the far end of a node's edges in one direction.
pub struct Neighbors<'a> {
    edges: DirectedEdges<'a>,
    dir: Direction,
}

impl Iterator for Neighbors<'_> {
    type Item = NodeIndex;

    fn next(&mut self) -> Option<NodeIndex> {
        self.edges.next().map(|e| match self.dir {
            Direction::Outgoing => e.to,
            Direction::Incoming => e.from,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.edges.size_hint()
    }
}

/// Every live node index, in index order.
#[derive(Clone)]
pub struct NodeIds<'a> {
    graph: &'a Graph,
    next: NodeIndex,
    end: NodeIndex,
}

impl Iterator for NodeIds<'_> {
    type Item = NodeIndex;

    fn next(&mut self) -> Option<NodeIndex> {
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            if self.graph.is_live(i) {
                return Some(i);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some((self.end - self.next) as usize))
    }
}

impl<'a> IntoNodeIdentifiers for &'a Graph {
    type NodeIdentifiers = NodeIds<'a>;

    fn node_identifiers(self) -> NodeIds<'a> {
        NodeIds {
            graph: self,
            next: 0,
            end: Graph::node_count(self) as NodeIndex,
        }
    }
}

impl<'a> IntoNodeReferences for &'a Graph {
    type NodeRef = (NodeIndex, &'a Node);
    type NodeReferences = Box<dyn Iterator<Item = (NodeIndex, &'a Node)> + 'a>;

    fn node_references(self) -> Self::NodeReferences {
        Box::new(self.node_entries())
    }
}

impl<'a> IntoNeighbors for &'a Graph {
    type Neighbors = Neighbors<'a>;

    fn neighbors(self, a: NodeIndex) -> Neighbors<'a> {
        self.neighbors_directed(a, Direction::Outgoing)
    }
}

impl<'a> IntoNeighborsDirected for &'a Graph {
    type NeighborsDirected = Neighbors<'a>;

    fn neighbors_directed(self, a: NodeIndex, dir: Direction) -> Neighbors<'a> {
        Neighbors {
            edges: self.edges_in_direction(a, dir),
            dir,
        }
    }
}

impl<'a> IntoEdgeReferences for &'a Graph {
    type EdgeRef = &'a Edge;
    type EdgeReferences = Box<dyn Iterator<Item = &'a Edge> + 'a>;

    fn edge_references(self) -> Self::EdgeReferences {
        Box::new(self.edges())
    }
}

impl<'a> IntoEdges for &'a Graph {
    type Edges = std::slice::Iter<'a, Edge>;

    fn edges(self, a: NodeIndex) -> Self::Edges {
        self.out_edges(a)
    }
}

impl<'a> IntoEdgesDirected for &'a Graph {
    type EdgesDirected = DirectedEdges<'a>;

    fn edges_directed(self, a: NodeIndex, dir: Direction) -> DirectedEdges<'a> {
        self.edges_in_direction(a, dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, Node};
    use gortex_core::{NodeKind, Origin};
    use petgraph::visit::{Bfs, EdgeFiltered, UndirectedAdaptor};
    use std::sync::Arc;

    fn graph(edges: &[(u32, u32, EdgeKind)], nodes: u32) -> Graph {
        let nodes = (0..nodes)
            .map(|i| {
                Node::bare(
                    Arc::from(format!("r/f.ts::n{i}")),
                    NodeKind::Function,
                    format!("n{i}"),
                    format!("n{i}"),
                    Arc::from("f.ts"),
                )
            })
            .collect();
        let edges = edges
            .iter()
            .map(|&(from, to, kind)| Edge {
                from,
                to,
                kind,
                origin: Origin::AstResolved,
                line: 1,
                via: None,
            })
            .collect();
        Graph::assemble("r".into(), nodes, edges, Vec::new())
    }

    #[test]
    fn petgraph_algorithms_see_the_csr() {
        use EdgeKind::{Calls, Imports};
        // 0 → 1 → 2 → 0 (a call cycle), 2 → 3 (import), 4 alone.
        let g = graph(&[(0, 1, Calls), (1, 2, Calls), (2, 0, Calls), (2, 3, Imports)], 5);
        let mut sccs: Vec<Vec<NodeIndex>> = petgraph::algo::tarjan_scc(&g)
            .into_iter()
            .map(|mut c| {
                c.sort_unstable();
                c
            })
            .collect();
        sccs.sort();
        assert_eq!(sccs, vec![vec![0, 1, 2], vec![3], vec![4]]);
        assert_eq!(petgraph::algo::kosaraju_scc(&g).len(), 3);
        let incoming: Vec<NodeIndex> = (&g).neighbors_directed(0, Direction::Incoming).collect();
        assert_eq!(incoming, vec![2]);
        assert!(petgraph::algo::has_path_connecting(&g, 0, 3, None));
        assert!(!petgraph::algo::has_path_connecting(&g, 3, 0, None));
        // Calls only: 3 is cut off from the cycle.
        let calls = EdgeFiltered::from_fn(&g, |e: &Edge| e.kind == Calls);
        assert!(!petgraph::algo::has_path_connecting(&calls, 0, 3, None));
        // Undirected: 3 reaches the cycle backwards, 4 reaches nothing.
        let undirected = UndirectedAdaptor(&g);
        let mut bfs = Bfs::new(undirected, 3);
        let mut seen = Vec::new();
        while let Some(n) = bfs.next(undirected) {
            seen.push(n);
        }
        seen.sort_unstable();
        assert_eq!(seen, vec![0, 1, 2, 3]);
        let edge_ids: Vec<EdgeKey> = (&g).edge_references().map(|e| e.id()).collect();
        assert_eq!(edge_ids.len(), 4);
        assert_eq!(
            edge_ids[0],
            EdgeKey {
                from: 0,
                to: 1,
                kind: Calls,
                line: 1
            }
        );
    }
}
