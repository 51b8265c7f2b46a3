//! Small hand-built graphs for unit tests.

use gortex_core::{EdgeKind, Language, NodeKind, Origin};
use gortex_graph::{Edge, Graph, Node, NodeIndex};
use std::sync::Arc;

/// Builds a graph: symbols given as `path::name` (functions), plus a file node per path.
pub struct Builder {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder {
    /// An empty graph.
    pub fn new() -> Builder {
        Builder {
            nodes: Vec::new(),
            edges: Vec::new(),
        }
    }

    /// Adds (or finds) the file node at `path`.
    pub fn file(&mut self, path: &str) -> NodeIndex {
        let id = format!("r/{path}");
        if let Some(i) = self.nodes.iter().position(|n| &*n.id == id.as_str()) {
            return i as NodeIndex;
        }
        let name = path.rsplit('/').next().unwrap().to_string();
        let mut n = Node::bare(Arc::from(id), NodeKind::File, name, path.to_string(), Arc::from(path));
        n.language = Some(Language::TypeScript);
        self.nodes.push(n);
        (self.nodes.len() - 1) as NodeIndex
    }

    /// Adds a function `name` in file `path`.
    pub fn func(&mut self, path: &str, name: &str) -> NodeIndex {
        self.symbol(path, name, NodeKind::Function)
    }

    /// Adds a symbol of `kind`.
    pub fn symbol(&mut self, path: &str, name: &str, kind: NodeKind) -> NodeIndex {
        let file = self.file(path);
        let mut n = Node::bare(
            Arc::from(format!("r/{path}::{name}")),
            kind,
            name.rsplit('.').next().unwrap().to_string(),
            name.to_string(),
            Arc::from(path),
        );
        n.language = Some(Language::TypeScript);
        self.nodes.push(n);
        let i = (self.nodes.len() - 1) as NodeIndex;
        self.edge(file, i, EdgeKind::Defines, Origin::AstResolved, 1);
        i
    }

    /// Mutable access to a node, to set flags.
    pub fn node(&mut self, i: NodeIndex) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    /// A `calls` edge (ast_resolved) at `line`.
    pub fn call(&mut self, from: NodeIndex, to: NodeIndex, line: u32) {
        self.edge(from, to, EdgeKind::Calls, Origin::AstResolved, line);
    }

    /// Any edge.
    pub fn edge(&mut self, from: NodeIndex, to: NodeIndex, kind: EdgeKind, origin: Origin, line: u32) {
        self.edges.push(Edge {
            from,
            to,
            kind,
            origin,
            line,
            via: None,
        });
    }

    /// Assembles the graph (repository `r`).
    pub fn build(self) -> Graph {
        Graph::assemble("r".to_string(), self.nodes, self.edges, Vec::new())
    }
}

/// Two 5-cliques (`src/a/x.ts::a0..a4`, `src/b/y.ts::b0..b4`) joined by the call a0 → b0.
pub fn two_cliques() -> Graph {
    let mut b = Builder::new();
    let a: Vec<NodeIndex> = (0..5).map(|i| b.func("src/a/x.ts", &format!("a{i}"))).collect();
    let c: Vec<NodeIndex> = (0..5).map(|i| b.func("src/b/y.ts", &format!("b{i}"))).collect();
    for set in [&a, &c] {
        for i in 0..5 {
            for j in i + 1..5 {
                b.call(set[i], set[j], 10 + j as u32);
            }
        }
    }
    b.call(a[0], c[0], 99);
    b.build()
}
