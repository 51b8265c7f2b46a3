//! The graph store: nodes, resolved edges and unresolved references with compact adjacency.

use crate::layer::Layer;
use either::Either;
use gortex_core::{
    same_text, EdgeKind, FileFacts, Language, NodeKind, Origin, Span, TestRole, TestRunner, TypeFlavor, UiFramework,
    Visibility,
};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::sync::{Arc, OnceLock};

mod memory;
pub mod visit;
pub use memory::GraphMemory;

/// A node id: `<repo>/<path>::<Owner>.<name>`, shared between the node and every edge naming it.
pub type Id = Arc<str>;

/// Index of a node in a [`Graph`] (see [`Graph::node_at`]).
pub type NodeIndex = u32;

/// One graph node: a file, package, external stub or declared symbol.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Node {
    pub id: Id,
    pub kind: NodeKind,
    pub name: String,
    /// `Owner.name` (the part of the id after `::`); the path for file nodes.
    pub qualified: String,
    /// Repository-relative path; empty for external stubs.
    pub path: Arc<str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    #[serde(flatten)]
    pub span: Span,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavor: Option<TypeFlavor>,
    /// A UI component of this framework (see `SymbolFact::ui`).
    #[serde(rename = "ui_framework", skip_serializing_if = "Option::is_none")]
    pub ui: Option<UiFramework>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    pub exported: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The doc comment's prose when longer than `doc` (see `SymbolFact::doc_text`): searched by
    /// the symbol index, never part of an answer.
    #[serde(skip)]
    pub doc_text: Option<Box<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_abstract: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decorators: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_test: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_role: Option<TestRole>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_runner: Option<TestRunner>,
    /// Outside the repository (`external::…` stubs).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
}

impl Node {
    /// A slot filler that owns no allocation: for nodes moved out of a list or about to be
    /// overwritten.
    pub(crate) fn placeholder() -> Node {
        Node::bare(
            Arc::from(""),
            NodeKind::File,
            String::new(),
            String::new(),
            Arc::from(""),
        )
    }

    /// A node with only identity fields set.
    pub fn bare(id: Id, kind: NodeKind, name: String, qualified: String, path: Arc<str>) -> Node {
        Node {
            id,
            kind,
            name,
            qualified,
            path,
            language: None,
            span: Span::default(),
            flavor: None,
            ui: None,
            signature: None,
            visibility: None,
            exported: false,
            doc: None,
            doc_text: None,
            type_name: None,
            return_type: None,
            is_async: false,
            is_static: false,
            is_abstract: false,
            decorators: Vec::new(),
            is_test: false,
            test_role: None,
            test_runner: None,
            external: false,
        }
    }
}

/// A resolved edge between two nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: NodeIndex,
    pub to: NodeIndex,
    pub kind: EdgeKind,
    pub origin: Origin,
    /// Line of the site (the call, the import, the declaration).
    pub line: u32,
    /// The framework-dispatch pass that synthesized the edge (a route's handler, an event's
    /// listener, a rendered component…); `None` for an edge the source states.
    pub via: Option<gortex_core::Synthesizer>,
}

/// A reference the resolver could not bind honestly; kept so caveats and later passes see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    pub from: NodeIndex,
    pub kind: EdgeKind,
    /// `unresolved::name` for bare names, `unresolved::*.name` for member accesses.
    pub target: String,
    pub line: u32,
    /// How many same-named candidates existed (0 = none; >1 = ambiguous).
    pub candidates: u32,
}

/// Direction of an adjacency query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Out,
    In,
    Both,
}

impl Direction {
    /// Every direction, in the order argument messages list them.
    pub const ALL: [Direction; 3] = [Direction::Out, Direction::In, Direction::Both];

    /// The wire name (`out`, `in`, `both`).
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
            Direction::Both => "both",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.as_str() == text)
    }
}

/// One repository's graph, immutable once built; updates build a new version. A clone is the
/// starting point of an overlay view's build (patched like an edit's, rather than assembled).
#[derive(Debug, Default, Clone)]
pub struct Graph {
    pub repo: String,
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) unresolved: Vec<Unresolved>,
    index: FxHashMap<Id, NodeIndex>,
    /// Edges are sorted by `from`; a node's outgoing edges are a slice of them.
    out_offsets: Vec<u32>,
    in_offsets: Vec<u32>,
    in_edges: Vec<u32>,
    unresolved_offsets: Vec<u32>,
    unresolved_order: Vec<u32>,
    by_file: FxHashMap<Arc<str>, Vec<NodeIndex>>,
    /// File nodes, in index order.
    files: Vec<NodeIndex>,
    /// Unresolved references by the name they target; built by the first caveat that needs it.
    unresolved_by_name: OnceLock<FxHashMap<Box<str>, Vec<u32>>>,
    /// Nodes by their bare name; built by the first name lookup.
    by_name: OnceLock<FxHashMap<Box<str>, Vec<NodeIndex>>>,
    /// Each file node's facts, aligned with `files`, when the builder recorded them: nodes are
    /// a pure function of a file's path and facts, so derived indexes can tell unchanged files
    /// by the facts' identity.
    file_facts: Vec<Arc<FileFacts>>,
    /// For an overlay view: the layer over a shared base graph that every read goes through;
    /// the fields above are then empty (see `layer.rs`).
    pub(crate) layer: Option<Box<Layer>>,
}

/// What a graph holds besides its nodes and adjacency.
pub(crate) struct GraphParts {
    /// Sorted by (from, to, kind, line), one edge per key (see [`sort_edges`]).
    pub edges: Vec<Edge>,
    pub unresolved: Vec<Unresolved>,
    pub index: FxHashMap<Id, NodeIndex>,
    pub by_file: FxHashMap<Arc<str>, Vec<NodeIndex>>,
    pub files: Vec<NodeIndex>,
}

/// Out and in adjacency (CSR) and unresolved references by node.
struct Adjacency {
    /// Edges are sorted by `from`: a node's outgoing edges are `edges[out[n]..out[n + 1]]`.
    out_offsets: Vec<u32>,
    in_offsets: Vec<u32>,
    in_edges: Vec<u32>,
    /// A node's unresolved references are `unresolved[unresolved_order[o[n]..o[n + 1]]]`.
    unresolved_offsets: Vec<u32>,
    unresolved_order: Vec<u32>,
}

impl Adjacency {
    fn build(n: usize, edges: &[Edge], unresolved: &[Unresolved]) -> Adjacency {
        let (out_offsets, ((in_offsets, in_edges), (unresolved_offsets, unresolved_order))) = rayon::join(
            || offsets(n, edges.iter().map(|e| e.from)),
            || {
                rayon::join(
                    || csr(n, edges.iter().map(|e| e.to), edges.len()),
                    || csr(n, unresolved.iter().map(|u| u.from), unresolved.len()),
                )
            },
        );
        Adjacency {
            out_offsets,
            in_offsets,
            in_edges,
            unresolved_offsets,
            unresolved_order,
        }
    }
}

impl Graph {
    /// Assembles a graph and its adjacency (CSR) from nodes, edges and unresolved references.
    /// Duplicate edges (same endpoints, kind and line) keep the strongest origin.
    pub fn assemble(repo: String, nodes: Vec<Node>, edges: Vec<Edge>, unresolved: Vec<Unresolved>) -> Graph {
        let edges = sort_edges(nodes.len(), edges);
        let n = nodes.len();
        // The id map (hashing every id) and the rest are independent: build them side by side.
        let ((index, (by_file, files)), adjacency) = rayon::join(
            || {
                rayon::join(
                    || {
                        let mut index = FxHashMap::with_capacity_and_hasher(n, Default::default());
                        for (i, node) in nodes.iter().enumerate() {
                            index.insert(node.id.clone(), i as NodeIndex);
                        }
                        index
                    },
                    || file_blocks(&nodes),
                )
            },
            || Adjacency::build(n, &edges, &unresolved),
        );
        let parts = GraphParts {
            edges,
            unresolved,
            index,
            by_file,
            files,
        };
        Graph::with_adjacency(repo, nodes, parts, adjacency)
    }

    /// A graph from parts that already match `nodes`: edges sorted and deduplicated as
    /// [`sort_edges`] leaves them, the id map, file blocks and file nodes. Only the adjacency is
    /// computed.
    pub(crate) fn from_parts(repo: String, nodes: Vec<Node>, parts: GraphParts) -> Graph {
        let adjacency = Adjacency::build(nodes.len(), &parts.edges, &parts.unresolved);
        Graph::with_adjacency(repo, nodes, parts, adjacency)
    }

    fn with_adjacency(repo: String, nodes: Vec<Node>, parts: GraphParts, adjacency: Adjacency) -> Graph {
        let GraphParts {
            edges,
            unresolved,
            index,
            by_file,
            files,
        } = parts;
        Graph {
            repo,
            nodes,
            edges,
            unresolved,
            index,
            out_offsets: adjacency.out_offsets,
            in_offsets: adjacency.in_offsets,
            in_edges: adjacency.in_edges,
            unresolved_offsets: adjacency.unresolved_offsets,
            unresolved_order: adjacency.unresolved_order,
            by_file,
            files,
            unresolved_by_name: OnceLock::new(),
            by_name: OnceLock::new(),
            file_facts: Vec::new(),
            layer: None,
        }
    }

    /// A layered graph: every read goes through `layer`.
    pub(crate) fn with_layer(repo: String, layer: Layer) -> Graph {
        Graph {
            repo,
            layer: Some(Box::new(layer)),
            ..Default::default()
        }
    }

    /// Takes out everything but the nodes and adjacency, for a build whose nodes all keep their
    /// place (see `build.rs`); the graph is left without edges.
    pub(crate) fn take_parts(&mut self) -> GraphParts {
        GraphParts {
            edges: std::mem::take(&mut self.edges),
            unresolved: std::mem::take(&mut self.unresolved),
            index: std::mem::take(&mut self.index),
            by_file: std::mem::take(&mut self.by_file),
            files: std::mem::take(&mut self.files),
        }
    }

    /// Number of node slots; valid node indices are `0..node_count()`. A layered graph (an
    /// overlay view) may have removed slots among them: [`Graph::indices`] and
    /// [`Graph::node_entries`] skip those.
    pub fn node_count(&self) -> usize {
        match &self.layer {
            Some(l) => l.slots(),
            None => self.nodes.len(),
        }
    }

    /// Number of nodes (slots less removed ones).
    pub fn live_node_count(&self) -> usize {
        match &self.layer {
            Some(l) => l.live(),
            None => self.nodes.len(),
        }
    }

    /// Nodes this graph holds itself: all of a flat graph's, a layered graph's replaced and
    /// appended ones (the rest are its base's).
    pub fn own_node_count(&self) -> usize {
        match &self.layer {
            Some(l) => l.own_nodes(),
            None => self.nodes.len(),
        }
    }

    /// Whether the slot at `i` holds a node (a layered graph's removed slots do not).
    pub fn is_live(&self, i: NodeIndex) -> bool {
        match &self.layer {
            Some(l) => (i as usize) < l.slots() && !l.is_removed(i),
            None => (i as usize) < self.nodes.len(),
        }
    }

    /// Every node index, in index order (removed slots skipped).
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = NodeIndex> + Clone + '_ {
        (0..self.node_count() as NodeIndex).filter(move |&i| self.layer.as_ref().is_none_or(|l| !l.is_removed(i)))
    }

    /// The node at an index; panics when the index is out of range.
    pub fn node_at(&self, i: NodeIndex) -> &Node {
        match &self.layer {
            Some(l) => l.node_at(i),
            None => &self.nodes[i as usize],
        }
    }

    /// Every node with its index, in index order.
    pub fn node_entries(&self) -> impl DoubleEndedIterator<Item = (NodeIndex, &Node)> + Clone + '_ {
        match &self.layer {
            Some(_) => Either::Left(self.indices().map(move |i| (i, self.node_at(i)))),
            None => Either::Right(self.nodes.iter().enumerate().map(|(i, n)| (i as NodeIndex, n))),
        }
    }

    /// Every node, in index order.
    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = &Node> + Clone + '_ {
        self.node_entries().map(|(_, n)| n)
    }

    /// Number of resolved edges.
    pub fn edge_count(&self) -> usize {
        match &self.layer {
            Some(l) => l.edge_count,
            None => self.edges.len(),
        }
    }

    /// Every resolved edge: stored by `from` (then `to`, kind, line); a layered graph gives the
    /// base's kept edges first, then the layer's, source node by source node.
    pub fn edges(&self) -> impl Iterator<Item = &Edge> + Clone + '_ {
        match &self.layer {
            Some(l) => Either::Left(l.edges()),
            None => Either::Right(self.edges.iter()),
        }
    }

    /// Number of unresolved references.
    pub fn unresolved_count(&self) -> usize {
        match &self.layer {
            Some(l) => l.unresolved_count,
            None => self.unresolved.len(),
        }
    }

    /// Every unresolved reference, in the stored order (a layered graph: the base's kept ones,
    /// then the layer's).
    pub fn unresolved(&self) -> impl Iterator<Item = &Unresolved> + Clone + '_ {
        match &self.layer {
            Some(l) => Either::Left(l.unresolved()),
            None => Either::Right(self.unresolved.iter()),
        }
    }

    /// The node index for an id.
    pub fn lookup(&self, id: &str) -> Option<NodeIndex> {
        match &self.layer {
            Some(l) => l.lookup(id),
            None => self.index.get(id).copied(),
        }
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.lookup(id).map(|i| self.node_at(i))
    }

    /// Outgoing edges of a node.
    pub fn out_edges(&self, node: NodeIndex) -> std::slice::Iter<'_, Edge> {
        if let Some(l) = &self.layer {
            return l.out_edges(node);
        }
        let (s, e) = (
            self.out_offsets[node as usize] as usize,
            self.out_offsets[node as usize + 1] as usize,
        );
        self.edges[s..e].iter()
    }

    /// Incoming edges of a node.
    pub fn in_edges(&self, node: NodeIndex) -> impl Iterator<Item = &Edge> + Clone + '_ {
        if let Some(l) = &self.layer {
            return Either::Left(l.in_edges(node));
        }
        Either::Right(self.flat_in_edges(node))
    }

    /// A flat graph's incoming edges of a node (empty past its node list).
    pub(crate) fn flat_in_edges(&self, node: NodeIndex) -> impl Iterator<Item = &Edge> + Clone + '_ {
        let (s, e) = run_of(&self.in_offsets, node);
        self.in_edges[s..e].iter().map(move |&i| &self.edges[i as usize])
    }

    /// Unresolved references made from a node.
    pub fn unresolved_from(&self, node: NodeIndex) -> impl Iterator<Item = &Unresolved> + '_ {
        if let Some(l) = &self.layer {
            return Either::Left(l.unresolved_from(node));
        }
        Either::Right(self.flat_unresolved_from(node))
    }

    /// A flat graph's unresolved references made from a node.
    pub(crate) fn flat_unresolved_from(&self, node: NodeIndex) -> impl Iterator<Item = &Unresolved> + Clone + '_ {
        let (s, e) = run_of(&self.unresolved_offsets, node);
        self.unresolved_order[s..e]
            .iter()
            .map(move |&i| &self.unresolved[i as usize])
    }

    /// The facts each file node was built from, aligned with [`Graph::files`]; empty when the
    /// graph was assembled from nodes alone, or is layered (a file's nodes are then not one
    /// block after its file node).
    pub fn file_facts(&self) -> &[Arc<FileFacts>] {
        &self.file_facts
    }

    /// Records the facts of every file node (see [`Graph::file_facts`]).
    pub(crate) fn set_file_facts(&mut self, facts: Vec<Arc<FileFacts>>) {
        debug_assert_eq!(facts.len(), self.files.len(), "one facts entry per file node");
        self.file_facts = facts;
    }

    /// Every file node, in path order (which is index order but for a layered graph's
    /// replaced and added files).
    pub fn files(&self) -> &[NodeIndex] {
        match &self.layer {
            Some(l) => &l.files,
            None => &self.files,
        }
    }

    /// Nodes whose bare name is `name` (any kind), in index order.
    pub fn named(&self, name: &str) -> &[NodeIndex] {
        if let Some(l) = &self.layer {
            return l.named(name);
        }
        let by_name = self.by_name.get_or_init(|| {
            let mut map: FxHashMap<Box<str>, Vec<NodeIndex>> = FxHashMap::default();
            for (i, n) in self.nodes.iter().enumerate() {
                map.entry(n.name.as_str().into()).or_default().push(i as NodeIndex);
            }
            map
        });
        by_name.get(name).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// Unresolved references whose target is `unresolved::<name>` or `unresolved::*.<name>`.
    pub fn unresolved_named(&self, name: &str) -> impl Iterator<Item = &Unresolved> + '_ {
        if let Some(l) = &self.layer {
            return Either::Left(l.unresolved_named(name));
        }
        Either::Right(self.flat_unresolved_named(name))
    }

    /// A flat graph's [`Graph::unresolved_named`].
    pub(crate) fn flat_unresolved_named(&self, name: &str) -> impl Iterator<Item = &Unresolved> + '_ {
        let by_name = self.unresolved_by_name.get_or_init(|| {
            let mut map: FxHashMap<Box<str>, Vec<u32>> = FxHashMap::default();
            for (i, u) in self.unresolved.iter().enumerate() {
                map.entry(unresolved_name(&u.target).into()).or_default().push(i as u32);
            }
            map
        });
        by_name
            .get(name)
            .into_iter()
            .flat_map(move |v| v.iter().map(move |&i| &self.unresolved[i as usize]))
    }

    /// Nodes declared in a file (the file node first), in source order.
    pub fn file_nodes(&self, path: &str) -> &[NodeIndex] {
        if let Some(l) = &self.layer {
            return l.file_nodes(path);
        }
        self.by_file.get(path).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// Whether this graph is a layer over a shared base (an overlay view).
    pub fn is_layered(&self) -> bool {
        self.layer.is_some()
    }

    /// A canonical, sorted text dump of every node and edge. Two graphs are equal exactly when
    /// their dumps are; the incremental-equals-clean tests compare these.
    pub fn canonical_dump(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .nodes()
            .map(|n| format!("N {}", serde_json::to_string(n).expect("node serialises")))
            .collect();
        for e in self.edges() {
            lines.push(format!(
                "E {} -{}-> {} {} L{}",
                self.node_at(e.from).id,
                e.kind,
                self.node_at(e.to).id,
                e.origin,
                e.line
            ));
        }
        for u in self.unresolved() {
            lines.push(format!(
                "U {} -{}-> {} L{} c{}",
                self.node_at(u.from).id,
                u.kind,
                u.target,
                u.line,
                u.candidates
            ));
        }
        lines.sort();
        lines
    }
}

/// The range of `node`'s run in a CSR list with these offsets (empty past the offsets' end).
fn run_of(offsets: &[u32], node: NodeIndex) -> (usize, usize) {
    match (offsets.get(node as usize), offsets.get(node as usize + 1)) {
        (Some(&s), Some(&e)) => (s as usize, e as usize),
        _ => (0, 0),
    }
}

/// The name an unresolved reference targets: `unresolved::name` and `unresolved::*.name` give
/// `name`.
pub fn unresolved_name(target: &str) -> &str {
    let rest = target.strip_prefix("unresolved::").unwrap_or(target);
    rest.strip_prefix("*.").unwrap_or(rest)
}

/// Nodes by path, and the file nodes in index order. A file's nodes usually sit in one run, so
/// the map is touched once per run rather than once per node.
fn file_blocks(nodes: &[Node]) -> (FxHashMap<Arc<str>, Vec<NodeIndex>>, Vec<NodeIndex>) {
    let mut by_file: FxHashMap<Arc<str>, Vec<NodeIndex>> = FxHashMap::default();
    let mut files = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let path = &nodes[i].path;
        let mut end = i + 1;
        while end < nodes.len() && same_text(&nodes[end].path, path) {
            end += 1;
        }
        for (j, node) in nodes[i..end].iter().enumerate() {
            if node.kind == NodeKind::File {
                files.push((i + j) as NodeIndex);
            }
        }
        if !path.is_empty() {
            by_file
                .entry(path.clone())
                .or_default()
                .extend(i as NodeIndex..end as NodeIndex);
        }
        i = end;
    }
    (by_file, files)
}

/// Edges sorted by (from, to, kind, line), each duplicate (same endpoints, kind and line)
/// reduced to its strongest origin. A counting sort by `from` and then a sort of each node's
/// few edges: several times faster than comparison-sorting a million edges.
pub(crate) fn sort_edges(n: usize, edges: Vec<Edge>) -> Vec<Edge> {
    let Some(&first) = edges.first() else {
        return edges;
    };
    let mut offsets = vec![0u32; n + 1];
    for e in &edges {
        offsets[e.from as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut sorted = vec![first; edges.len()];
    for e in edges {
        let slot = &mut fill[e.from as usize];
        sorted[*slot as usize] = e;
        *slot += 1;
    }
    let mut buckets: Vec<&mut [Edge]> = Vec::new();
    let mut rest: &mut [Edge] = &mut sorted;
    for w in offsets.windows(2) {
        let len = (w[1] - w[0]) as usize;
        let (bucket, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        if len > 1 {
            buckets.push(bucket);
        }
    }
    buckets
        .par_iter_mut()
        .for_each(|bucket| bucket.sort_unstable_by(edge_order));
    sorted.dedup_by(|b, a| same_key(a, b));
    sorted
}

/// The order edges are kept in: by (from, to, kind, line), the strongest origin first.
pub(crate) fn edge_order(a: &Edge, b: &Edge) -> std::cmp::Ordering {
    (a.from, a.to, a.kind, a.line, std::cmp::Reverse(a.origin)).cmp(&(
        b.from,
        b.to,
        b.kind,
        b.line,
        std::cmp::Reverse(b.origin),
    ))
}

/// Whether two edges have the same endpoints, kind and line (whatever their origin).
pub(crate) fn same_key(a: &Edge, b: &Edge) -> bool {
    a.from == b.from && a.to == b.to && a.kind == b.kind && a.line == b.line
}

/// Merges edges in [`sort_edges`] order with a few more into that order, duplicates reduced
/// to their strongest origin as there. In place: the runs between insertion points move once.
pub(crate) fn merge_edges(mut sorted: Vec<Edge>, mut more: Vec<Edge>) -> Vec<Edge> {
    let Some(&filler) = more.first() else {
        return sorted;
    };
    more.sort_unstable_by(edge_order);
    let mut i = sorted.len();
    sorted.resize(i + more.len(), filler);
    let mut k = sorted.len();
    for e in more.into_iter().rev() {
        let p = sorted[..i].partition_point(|x| !edge_order(x, &e).is_gt());
        sorted.copy_within(p..i, k - (i - p));
        k -= i - p;
        i = p;
        k -= 1;
        sorted[k] = e;
    }
    sorted.dedup_by(|b, a| same_key(a, b));
    sorted
}

/// Offsets of each key's run in a list sorted by key (`n + 1` of them).
fn offsets(n: usize, keys: impl Iterator<Item = NodeIndex>) -> Vec<u32> {
    let mut offsets = vec![0u32; n + 1];
    for k in keys {
        offsets[k as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    offsets
}

/// Offsets per key and the item indices grouped by key (stable within a key).
fn csr(n: usize, keys: impl Iterator<Item = NodeIndex> + Clone, m: usize) -> (Vec<u32>, Vec<u32>) {
    let offsets = offsets(n, keys.clone());
    let mut fill = offsets.clone();
    let mut items = vec![0u32; m];
    for (edge_index, k) in keys.enumerate() {
        let slot = &mut fill[k as usize];
        items[*slot as usize] = edge_index as u32;
        *slot += 1;
    }
    (offsets, items)
}
