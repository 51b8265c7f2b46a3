//! `analyze kind=connectivity_health`: how well the extracted graph holds together — an
//! extraction-quality signal, not dead code. Per repository node (external stubs are not
//! extraction output and are left out; edges to them still count), its degree over every edge
//! kind, structural ones included: **isolated** (no edge at all), **leaf** (exactly one),
//! **source only** (edges out, none in), **sink only** (edges in, none out). Files are ranked by
//! their dead weight (isolated + leaf nodes). Then the **components**: the repository's nodes
//! joined by any edge between two of them, direction ignored (petgraph's depth-first search over
//! the graph's own adjacency); every component but the largest is an island — a file nothing in
//! the main body imports, calls or references, often an import the resolver could not follow.

use crate::reach::{check_path_prefix, under};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::common::check_limit;
use gortex_graph::{Edge, Graph};
use petgraph::visit::{Dfs, EdgeFiltered, UndirectedAdaptor};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Files named per island.
pub const ISLAND_FILES: usize = 5;

/// Arguments of `analyze kind=connectivity_health`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectivityHealthArgs {
    /// Most files in `dead_weight_by_file` and most islands listed (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only nodes declared under this repository-relative prefix (and, for components, only
    /// edges between two of them).
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// Degree classes of one node kind.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct KindConnectivity {
    pub kind: NodeKind,
    pub total: usize,
    pub isolated: usize,
    pub leaf: usize,
}

/// A file's isolated and leaf nodes (itself included).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileDeadWeight {
    pub file_path: String,
    pub isolated: usize,
    pub leaf: usize,
    /// `isolated + leaf`.
    pub dead_weight: usize,
}

/// A component outside the largest one.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Island {
    /// Nodes in the component.
    pub nodes: usize,
    /// Files whose nodes it holds.
    pub file_count: usize,
    /// Those files, sorted, at most [`ISLAND_FILES`].
    pub files: Vec<String>,
}

/// The repository's nodes split into connected components (edge direction ignored).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Components {
    pub count: usize,
    /// Nodes in the largest component.
    pub largest_nodes: usize,
    /// `largest_nodes / nominal_nodes` (0 for an empty graph), three decimals.
    pub largest_share: f64,
    /// Components of a single node (the isolated nodes).
    pub singletons: usize,
    /// Components other than the largest that hold some file, largest first (ties by first
    /// file), at most `limit`.
    pub islands: Vec<Island>,
    /// Such components before `limit`.
    pub islands_total: usize,
}

/// The answer of `analyze kind=connectivity_health`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ConnectivityHealthResult {
    /// Repository nodes counted.
    pub nominal_nodes: usize,
    /// Those with at least one edge.
    pub effective_nodes: usize,
    /// `effective_nodes / nominal_nodes` (0 for an empty graph), three decimals.
    pub effective_ratio: f64,
    pub isolated: usize,
    pub leaf: usize,
    pub source_only: usize,
    pub sink_only: usize,
    /// Per node kind that has nodes, by kind name.
    pub by_kind: Vec<KindConnectivity>,
    /// Files with an isolated or leaf node, most dead weight first (ties by path), at most
    /// `limit`.
    pub dead_weight_by_file: Vec<FileDeadWeight>,
    /// Such files before `limit`.
    pub files_total: usize,
    pub truncated: bool,
    pub components: Components,
    pub note: &'static str,
}

const NOTE: &str = "an extraction-quality signal, not dead code: isolated and leaf nodes are declarations nothing \
                    links (often unresolved imports or calls); see analyze kind=dead_code for unused symbols";

/// `analyze kind=connectivity_health` (see the module doc).
pub fn connectivity_health(g: &Graph, args: &ConnectivityHealthArgs) -> Result<ConnectivityHealthResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let mut counted = vec![false; g.node_count()];
    for (i, n) in g.node_entries() {
        counted[i as usize] = !n.external && under(&n.path, prefix.as_deref());
    }
    let (mut isolated, mut leaf, mut source_only, mut sink_only, mut nominal) = (0, 0, 0, 0, 0);
    let mut kinds: BTreeMap<&'static str, KindConnectivity> = BTreeMap::new();
    let mut files: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, n) in g.node_entries().filter(|(i, _)| counted[*i as usize]) {
        nominal += 1;
        let (outs, ins) = (g.out_edges(i).len(), g.in_edges(i).count());
        let row = kinds.entry(n.kind.as_str()).or_insert(KindConnectivity {
            kind: n.kind,
            total: 0,
            isolated: 0,
            leaf: 0,
        });
        row.total += 1;
        match outs + ins {
            0 => {
                isolated += 1;
                row.isolated += 1;
                files.entry(&n.path).or_default().0 += 1;
            }
            1 => {
                leaf += 1;
                row.leaf += 1;
                files.entry(&n.path).or_default().1 += 1;
            }
            _ => {}
        }
        if outs + ins > 0 {
            source_only += usize::from(ins == 0);
            sink_only += usize::from(outs == 0);
        }
    }
    let mut dead_weight: Vec<FileDeadWeight> = files
        .into_iter()
        .map(|(path, (iso, lf))| FileDeadWeight {
            file_path: path.to_string(),
            isolated: iso,
            leaf: lf,
            dead_weight: iso + lf,
        })
        .collect();
    dead_weight.sort_by(|a, b| {
        b.dead_weight
            .cmp(&a.dead_weight)
            .then_with(|| a.file_path.cmp(&b.file_path))
    });
    let files_total = dead_weight.len();
    dead_weight.truncate(limit);
    Ok(ConnectivityHealthResult {
        nominal_nodes: nominal,
        effective_nodes: nominal - isolated,
        effective_ratio: ratio(nominal - isolated, nominal),
        isolated,
        leaf,
        source_only,
        sink_only,
        by_kind: kinds.into_values().collect(),
        dead_weight_by_file: dead_weight,
        files_total,
        truncated: files_total > limit,
        components: components(g, &counted, nominal, limit),
        note: NOTE,
    })
}

/// The connected components of the counted nodes, joined by edges between two counted nodes.
fn components(g: &Graph, counted: &[bool], nominal: usize, limit: usize) -> Components {
    let inside = |e: &Edge| counted[e.from as usize] && counted[e.to as usize];
    let filtered = EdgeFiltered::from_fn(g, inside);
    let view = UndirectedAdaptor(&filtered);
    // One depth-first search reused from every node not reached yet: its visited set spans the
    // whole walk, so each start that is still unvisited opens a new component.
    let mut dfs = Dfs::empty(view);
    let mut sizes: Vec<(usize, Vec<&str>)> = Vec::new();
    for (start, _) in g.node_entries() {
        if !counted[start as usize] || dfs.discovered.contains(start as usize) {
            continue;
        }
        dfs.move_to(start);
        let mut nodes = 0usize;
        let mut paths: Vec<&str> = Vec::new();
        while let Some(n) = dfs.next(view) {
            nodes += 1;
            let path: &str = &g.node_at(n).path;
            if !path.is_empty() {
                paths.push(path);
            }
        }
        paths.sort_unstable();
        paths.dedup();
        sizes.push((nodes, paths));
    }
    let count = sizes.len();
    let singletons = sizes.iter().filter(|(n, _)| *n == 1).count();
    // Largest first, ties by first file, so "the largest" is well defined.
    sizes.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.first().cmp(&b.1.first())));
    let largest_nodes = sizes.first().map_or(0, |c| c.0);
    let islands: Vec<Island> = sizes
        .iter()
        .skip(1)
        .filter(|(_, files)| !files.is_empty())
        .map(|(nodes, files)| Island {
            nodes: *nodes,
            file_count: files.len(),
            files: files.iter().take(ISLAND_FILES).map(|f| f.to_string()).collect(),
        })
        .collect();
    let islands_total = islands.len();
    Components {
        count,
        largest_nodes,
        largest_share: ratio(largest_nodes, nominal),
        singletons,
        islands: islands.into_iter().take(limit).collect(),
        islands_total,
    }
}

/// `part / whole` to three decimals; 0 when `whole` is 0.
fn ratio(part: usize, whole: usize) -> f64 {
    match whole {
        0 => 0.0,
        _ => crate::communities::round(part as f64 / whole as f64, 3),
    }
}
