//! Read-only inspection of one repository's graph, for engine callers and viewers rather than
//! agents' tools: counts ([`stats`]), the whole graph in brief ([`graph_dump`]), a node's edges
//! ([`node_edges`]), a file's symbols ([`file_symbols`]), every file with its symbol count
//! ([`file_nodes`]), the most imported files ([`most_imported`]) and the references that leave
//! the repository ([`external_refs`]). Rows borrow from the graph and come in a stable order;
//! field names are the wire's (napi serialises them through `serde_json::Value`, so keys come
//! out sorted, as in every `query` answer).

use crate::query::SearchMemory;
use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, NodeKind, Origin, QueryError};
use gortex_graph::{Direction, Edge, Graph, Node, NodeIndex};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Nodes a [`graph_dump`] keeps when the caller sets no cap.
pub const DEFAULT_DUMP_NODES: usize = 50_000;

/// One loaded repository in brief (napi `Engine.repos`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoSummary {
    /// Built from part of the pass that is opening the repository (see [`crate::warmup`]).
    pub provisional: bool,
    pub name: String,
    pub root: String,
    pub files: usize,
    pub nodes: usize,
    pub edges: usize,
    pub indexed_at_ms: u64,
    pub snapshot_path: String,
}

/// The repository's name, root, sizes and snapshot.
pub fn summary(index: &RepoIndex) -> RepoSummary {
    RepoSummary {
        provisional: index.is_provisional(),
        name: index.name.clone(),
        root: index.root.display().to_string(),
        files: index.files.len(),
        nodes: index.graph.live_node_count(),
        edges: index.graph.edge_count(),
        indexed_at_ms: index.indexed_at_ms,
        snapshot_path: index.snapshot_path.display().to_string(),
    }
}

/// Graph counts of one repository (napi `Engine.stats`).
#[derive(Debug, Clone, Serialize)]
pub struct GraphStats {
    #[serde(flatten)]
    pub summary: RepoSummary,
    /// Node count per kind, by wire name.
    pub nodes_by_kind: BTreeMap<&'static str, usize>,
    /// Edge count per kind, by wire name.
    pub edges_by_kind: BTreeMap<&'static str, usize>,
    /// Edge count per tier, by wire name.
    pub edges_by_origin: BTreeMap<&'static str, usize>,
    /// Node count per language (nodes without one — externals, packages — left out).
    pub nodes_by_language: BTreeMap<&'static str, usize>,
    /// Edges whose provenance tier changed while their identity stayed, since the index was
    /// opened (files resolved again unedited; see `RepoIndex::edge_identity_revisions`).
    pub edge_identity_revisions: u64,
    /// References the resolver could not bind.
    pub unresolved: usize,
    /// Memory of the lazily built search indexes.
    pub search_memory: SearchMemory,
}

/// Counts the repository's nodes by kind and its edges by kind and tier.
pub fn stats(index: &RepoIndex) -> GraphStats {
    let g = &index.graph;
    let mut nodes_by_kind = BTreeMap::new();
    let mut nodes_by_language = BTreeMap::new();
    for n in g.nodes() {
        *nodes_by_kind.entry(n.kind.as_str()).or_default() += 1;
        if let Some(l) = n.language {
            *nodes_by_language.entry(l.as_str()).or_default() += 1;
        }
    }
    let mut edges_by_kind = BTreeMap::new();
    let mut edges_by_origin = BTreeMap::new();
    for e in g.edges() {
        *edges_by_kind.entry(e.kind.as_str()).or_default() += 1;
        *edges_by_origin.entry(e.origin.as_str()).or_default() += 1;
    }
    GraphStats {
        summary: summary(index),
        nodes_by_kind,
        edges_by_kind,
        edges_by_origin,
        nodes_by_language,
        edge_identity_revisions: index.edge_identity_revisions,
        unresolved: g.unresolved_count(),
        search_memory: index.search_memory(),
    }
}

/// The whole graph in brief, for viewers (napi `Engine.graphDump`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphDump<'g> {
    pub repo: &'g str,
    pub root: String,
    pub total_nodes: usize,
    pub total_edges: usize,
    /// Nodes (and the edges touching them) were left out by the cap.
    pub truncated: bool,
    /// Nodes the filter admitted, before the cap.
    pub matched: usize,
    /// Labels of the communities the kept nodes belong to (with [`DumpFilter::communities`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub community_labels: BTreeMap<u32, String>,
    pub nodes: Vec<DumpNode<'g>>,
    pub edges: Vec<DumpEdge<'g>>,
}

/// A node of a [`GraphDump`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpNode<'g> {
    pub id: &'g str,
    pub kind: NodeKind,
    pub name: &'g str,
    pub file_path: &'g str,
    pub start_line: u32,
    pub end_line: u32,
    pub language: Option<Language>,
    pub repo_prefix: &'g str,
    /// Edges in and out.
    pub degree: u32,
    /// Leiden community id (with [`DumpFilter::communities`]; absent for nodes in none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub community: Option<u32>,
}

/// An edge of a [`GraphDump`], between two nodes it kept: one per (from, to, kind), however many
/// sites make it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DumpEdge<'g> {
    pub from: &'g str,
    pub to: &'g str,
    pub kind: EdgeKind,
    /// The strongest origin among its sites.
    pub origin: Origin,
    /// Sites (graph edges) it stands for.
    pub count: u32,
    /// Set when every site is a framework dispatch that pass synthesized (no call in the source).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<gortex_core::Synthesizer>,
}

/// Which nodes a [`graph_dump`] may keep (everything by default), and whether each carries its
/// community: the server-side filters of a viewer that cannot take the whole graph.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DumpFilter {
    /// Node kinds (`function`, `type`, …); empty: every kind.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// Languages (`go`, `typescript`, …); empty: every language (stubs have none and are left out
    /// when languages are named).
    #[serde(default)]
    pub languages: Vec<String>,
    /// Repository-relative path prefixes; empty: every path.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Give each node its Leiden community (`community`, absent for nodes in none).
    #[serde(default)]
    pub communities: bool,
    /// One edge per (from, to, kind) with the count of its sites, instead of one per site (a
    /// viewer draws lines; coverage counts need every site).
    #[serde(default)]
    pub collapse_edges: bool,
}

impl DumpFilter {
    /// Checks the kinds and languages named, so a typo is an error rather than an empty graph.
    pub fn check(&self) -> Result<(), QueryError> {
        for k in &self.kinds {
            if !NodeKind::ALL.iter().any(|x| x.as_str() == k) {
                let known: Vec<&str> = NodeKind::ALL.iter().map(|x| x.as_str()).collect();
                return Err(QueryError::invalid(format!(
                    "unknown node kind {k:?}; kinds: {}",
                    known.join(", ")
                )));
            }
        }
        for l in &self.languages {
            if !Language::ALL.iter().any(|x| x.as_str() == l) {
                return Err(QueryError::invalid(format!(
                    "unknown language {l:?}; languages are named as in the graph (go, typescript, python, …)"
                )));
            }
        }
        Ok(())
    }

    fn admits(&self, n: &Node) -> bool {
        (self.kinds.is_empty() || self.kinds.iter().any(|k| k == n.kind.as_str()))
            && (self.languages.is_empty()
                || n.language
                    .is_some_and(|l| self.languages.iter().any(|x| x == l.as_str())))
            && (self.paths.is_empty() || self.paths.iter().any(|p| n.path.starts_with(p.as_str())))
    }
}

/// The `max_nodes` best-connected nodes ([`DEFAULT_DUMP_NODES`] when `None`; ties by id) that
/// `filter` admits, listed by id, and the edges between them in edge order: a viewer of a graph
/// too big to draw whole gets its hubs, not the first files of the alphabet. A node's degree
/// counts all its edges, filtered or not.
pub fn graph_dump<'g>(index: &'g RepoIndex, max_nodes: Option<usize>, filter: &DumpFilter) -> GraphDump<'g> {
    let g = &index.graph;
    let mut degree = vec![0u32; g.node_count()];
    for e in g.edges() {
        degree[e.from as usize] += 1;
        degree[e.to as usize] += 1;
    }
    let communities = filter.communities.then(|| index.communities());
    let mut order: Vec<NodeIndex> = g.indices().filter(|&i| filter.admits(g.node_at(i))).collect();
    let cap = max_nodes.unwrap_or(DEFAULT_DUMP_NODES);
    let admitted = order.len();
    if order.len() > cap {
        order.sort_by(|&a, &b| {
            degree[b as usize]
                .cmp(&degree[a as usize])
                .then_with(|| g.node_at(a).id.cmp(&g.node_at(b).id))
        });
        order.truncate(cap);
    }
    order.sort_by(|&a, &b| g.node_at(a).id.cmp(&g.node_at(b).id));
    let mut kept = vec![false; g.node_count()];
    for &i in &order {
        kept[i as usize] = true;
    }
    let nodes: Vec<DumpNode> = order
        .iter()
        .map(|&i| {
            let n = g.node_at(i);
            DumpNode {
                id: &n.id,
                kind: n.kind,
                name: &n.name,
                file_path: &n.path,
                start_line: n.span.start_line,
                end_line: n.span.end_line,
                language: n.language,
                repo_prefix: gortex_graph::query::repo_prefix_of(&n.id),
                degree: degree[i as usize],
                community: communities.as_ref().and_then(|c| c.map.of(i)),
            }
        })
        .collect();
    // Collapsed: one edge per (from, to, kind) in first-site order — a call made at forty sites is
    // one line to draw, not forty (Kubernetes' 1,500-node view carried 85k site edges).
    let mut edges: Vec<DumpEdge> = Vec::new();
    let mut seen: HashMap<(NodeIndex, NodeIndex, EdgeKind), usize> = HashMap::new();
    for e in g.edges().filter(|e| kept[e.from as usize] && kept[e.to as usize]) {
        if filter.collapse_edges {
            if let Some(&at) = seen.get(&(e.from, e.to, e.kind)) {
                let edge = &mut edges[at];
                edge.count += 1;
                if e.origin.rank() > edge.origin.rank() {
                    edge.origin = e.origin;
                }
                if e.via.is_none() {
                    edge.via = None;
                }
                continue;
            }
            seen.insert((e.from, e.to, e.kind), edges.len());
        }
        edges.push(DumpEdge {
            from: &g.node_at(e.from).id,
            to: &g.node_at(e.to).id,
            kind: e.kind,
            origin: e.origin,
            count: 1,
            via: e.via,
        });
    }
    GraphDump {
        repo: &index.name,
        root: index.root.display().to_string(),
        total_nodes: g.live_node_count(),
        total_edges: g.edge_count(),
        truncated: nodes.len() < admitted,
        matched: admitted,
        community_labels: communities
            .as_ref()
            .map(|c| {
                nodes
                    .iter()
                    .filter_map(|n| n.community)
                    .map(|id| (id, c.map.labels.get(id as usize).cloned().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default(),
        nodes,
        edges,
    }
}

/// One `external::…` stub and the references that reach it (napi `Engine.externalRefs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExternalRef<'g> {
    pub id: &'g str,
    /// What it names outside the repository (the stub's qualified name).
    pub target: &'g str,
    pub kind: NodeKind,
    pub refs: Vec<ExternalUse<'g>>,
}

/// An edge into an external stub, with the node it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExternalUse<'g> {
    pub from: &'g str,
    /// The referring node's qualified name.
    pub from_name: &'g str,
    pub from_kind: NodeKind,
    pub path: &'g str,
    pub kind: EdgeKind,
    pub origin: Origin,
    pub line: u32,
}

/// Every reference from the repository to code outside it, stubs in node order and each stub's
/// incoming edges in adjacency order: what a multi-repository workspace links against the
/// repositories that define those targets.
pub fn external_refs(g: &Graph) -> Vec<ExternalRef<'_>> {
    g.node_entries()
        .filter(|(_, n)| n.external)
        .map(|(i, n)| ExternalRef {
            id: &n.id,
            target: &n.qualified,
            kind: n.kind,
            refs: g
                .in_edges(i)
                .map(|e| {
                    let from = g.node_at(e.from);
                    ExternalUse {
                        from: &from.id,
                        from_name: &from.qualified,
                        from_kind: from.kind,
                        path: &from.path,
                        kind: e.kind,
                        origin: e.origin,
                        line: e.line,
                    }
                })
                .collect(),
        })
        .collect()
}

/// A file or package with the number of distinct files importing it (napi `Engine.mostImported`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportedRow<'g> {
    pub id: &'g str,
    /// The node's path (its id when it has none).
    pub path: &'g str,
    pub kind: NodeKind,
    pub importers: usize,
}

/// Files and packages of the repository by how many distinct files import (or re-export) them,
/// most imported first, then by path and id; at most `limit` rows. External stubs do not count.
pub fn most_imported(g: &Graph, limit: usize) -> Vec<ImportedRow<'_>> {
    let mut importers: HashMap<NodeIndex, HashSet<&str>> = HashMap::new();
    for e in g.edges() {
        if !matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
            continue;
        }
        let to = g.node_at(e.to);
        if to.external || !matches!(to.kind, NodeKind::File | NodeKind::Package) {
            continue;
        }
        importers.entry(e.to).or_default().insert(&g.node_at(e.from).path);
    }
    let mut rows: Vec<ImportedRow> = importers
        .into_iter()
        .map(|(n, from)| {
            let node = g.node_at(n);
            ImportedRow {
                id: &node.id,
                path: if node.path.is_empty() { &node.id } else { &node.path },
                kind: node.kind,
                importers: from.len(),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.importers
            .cmp(&a.importers)
            .then_with(|| a.path.cmp(b.path))
            .then_with(|| a.id.cmp(b.id))
    });
    rows.truncate(limit);
    rows
}

/// A file node with how many symbols of the counted kinds it declares (napi `Engine.fileNodes`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileNode<'g> {
    #[serde(flatten)]
    pub node: &'g Node,
    pub symbols: usize,
}

/// Every file node in path order, each with the number of nodes of `count_kinds` it declares:
/// one call for what a per-file lookup did file by file.
pub fn file_nodes<'g>(g: &'g Graph, count_kinds: &[NodeKind]) -> Vec<FileNode<'g>> {
    let mut rows: Vec<FileNode> = g
        .files()
        .iter()
        .map(|&f| {
            let node = g.node_at(f);
            let symbols = g
                .file_nodes(&node.path)
                .iter()
                .filter(|&&n| count_kinds.contains(&g.node_at(n).kind))
                .count();
            FileNode { node, symbols }
        })
        .collect();
    rows.sort_by(|a, b| a.node.path.cmp(&b.node.path));
    rows
}

/// Parses node kind names (`function`, `method`, …), refusing an unknown one with the list of
/// valid kinds.
pub fn parse_node_kinds(names: &[String]) -> Result<Vec<NodeKind>, QueryError> {
    names
        .iter()
        .map(|name| {
            NodeKind::parse(name).ok_or_else(|| {
                let valid: Vec<&str> = NodeKind::ALL.iter().map(|k| k.as_str()).collect();
                QueryError::invalid(format!(
                    "unknown node kind \"{name}\"; valid kinds: {}",
                    valid.join(", ")
                ))
            })
        })
        .collect()
}

/// The nodes a file declares, in source order with the file node first (napi
/// `Engine.fileSymbols`). `path` is repository-relative (a leading `./` is ignored); a file that
/// is indexed but declares nothing has an empty list, one that is not indexed is `not_found`.
pub fn file_symbols<'g>(index: &'g RepoIndex, path: &str) -> Result<Vec<&'g Node>, QueryError> {
    let g = &index.graph;
    let rel = path.trim_start_matches("./");
    let nodes = g.file_nodes(rel);
    if nodes.is_empty() && !index.files.iter().any(|f| *f.path == *rel) {
        return Err(QueryError::not_found(format!(
            "file not indexed: \"{rel}\" (paths are relative to {})",
            index.root.display()
        )));
    }
    Ok(nodes.iter().map(|&i| g.node_at(i)).collect())
}

/// Which edges of a node [`node_edges`] lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeFilter {
    pub direction: Direction,
    /// Only these kinds; every kind when `None`.
    pub kinds: Option<Vec<EdgeKind>>,
}

impl EdgeFilter {
    /// Parses a direction (`in`, `out` or `both`) and edge kind names, refusing a bad value with
    /// what is accepted.
    pub fn parse(direction: &str, kinds: Option<&[String]>) -> Result<EdgeFilter, QueryError> {
        let direction = match direction {
            "in" => Direction::In,
            "out" => Direction::Out,
            "both" => Direction::Both,
            other => {
                return Err(QueryError::invalid(format!(
                    "invalid direction \"{other}\": use in, out or both"
                )))
            }
        };
        let kinds = kinds
            .map(|names| {
                names
                    .iter()
                    .map(|name| {
                        EdgeKind::parse(name).ok_or_else(|| {
                            let valid: Vec<&str> = EdgeKind::ALL.iter().map(|k| k.as_str()).collect();
                            QueryError::invalid(format!(
                                "unknown edge kind \"{name}\"; valid kinds: {}",
                                valid.join(", ")
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        Ok(EdgeFilter { direction, kinds })
    }

    fn keeps(&self, kind: EdgeKind) -> bool {
        self.kinds.as_ref().is_none_or(|kinds| kinds.contains(&kind))
    }
}

/// One edge of a node (napi `Engine.edges`): resolved, or an unresolved reference the node makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EdgeRow<'g> {
    pub from: &'g str,
    /// The target's id; for an unresolved reference its placeholder (`unresolved::name`).
    pub to: &'g str,
    pub kind: EdgeKind,
    /// `None` (null) for an unresolved reference.
    pub origin: Option<Origin>,
    /// The referring node's file.
    pub path: &'g str,
    pub line: u32,
    pub resolved: bool,
    /// Same-named candidates of an unresolved reference; absent on resolved edges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u32>,
}

/// The edges of node `id` that `filter` keeps: outgoing (in adjacency order), then incoming,
/// then the unresolved references it makes (outgoing only). An unknown id is `not_found`.
pub fn node_edges<'g>(g: &'g Graph, id: &str, filter: &EdgeFilter) -> Result<Vec<EdgeRow<'g>>, QueryError> {
    let node = g
        .lookup(id)
        .ok_or_else(|| QueryError::not_found(format!("node not found: \"{id}\"")))?;
    let resolved = |e: &'g Edge| {
        let from = g.node_at(e.from);
        EdgeRow {
            from: &from.id,
            to: &g.node_at(e.to).id,
            kind: e.kind,
            origin: Some(e.origin),
            path: &from.path,
            line: e.line,
            resolved: true,
            candidates: None,
        }
    };
    let outgoing = matches!(filter.direction, Direction::Out | Direction::Both);
    let incoming = matches!(filter.direction, Direction::In | Direction::Both);
    let mut rows = Vec::new();
    if outgoing {
        rows.extend(g.out_edges(node).filter(|e| filter.keeps(e.kind)).map(resolved));
    }
    if incoming {
        rows.extend(g.in_edges(node).filter(|e| filter.keeps(e.kind)).map(resolved));
    }
    if outgoing {
        rows.extend(g.unresolved_from(node).filter(|u| filter.keeps(u.kind)).map(|u| {
            let from = g.node_at(u.from);
            EdgeRow {
                from: &from.id,
                to: &u.target,
                kind: u.kind,
                origin: None,
                path: &from.path,
                line: u.line,
                resolved: false,
                candidates: Some(u.candidates),
            }
        }));
    }
    Ok(rows)
}
