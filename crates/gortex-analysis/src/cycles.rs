//! Dependency cycles: strongly connected components (Tarjan, iterative) of the import graph and
//! of the call graph, each with one concrete closed path; and `would_create_cycle`, which asks
//! whether one new edge would close a cycle.
//!
//! **Import graph.** Units are files, except that a Go or Java file counts as its package: Go and
//! Java imports name the package node, so `a.go` importing package `p2` is an edge from `a.go`'s
//! package to `p2`. Edges come from `imports` and `re_exports`; an import of a symbol (ES named
//! imports, Java `import a.b.C`) is an edge to the symbol's file (or package). Imports inside one
//! unit (a Go package's files), of external modules, and from Go/Java test files (compiled with
//! their package only when it is tested) are ignored.
//!
//! **Call graph.** Functions and methods, over `calls` edges between them. A function calling
//! itself is a cycle of size 1, reported only with `include_self: true`.
//!
//! Edges below the tier floor (`min_tier`, default `text_matched`, so never `speculative`) are
//! not followed.
//!
//! **Severity** (documented rule):
//! - import cycles: `high` when the members span two or more directories, else `medium`;
//! - call cycles (mutual recursion): `low` inside one file, `medium` across files of one
//!   directory, `high` across directories; self-recursion is `low`.
//!
//! Cycles are sorted by severity (high first), then size (largest first), then kind (imports
//! first) and the smallest member id.

use crate::reach::{check_path_prefix, dir_of, under};
use gortex_core::{EdgeKind, NodeKind, Origin, QueryError};
use gortex_graph::query::common::{check_limit, parse_min_tier, resolve_arg, tier_floor};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Most members listed per cycle (`size` always counts them all).
pub const MAX_CYCLE_MEMBERS: usize = 100;

/// Arguments of `analyze kind=cycles`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CyclesArgs {
    /// Import cycles (`imports`), call cycles (`calls`) or both (`all`, default).
    #[serde(default)]
    #[schemars(extend("enum" = ["imports", "calls", "all"]))]
    pub scope: Option<String>,
    /// Most cycles returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Only cycles with at least one member under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Also report functions that call themselves (default false).
    #[serde(default)]
    pub include_self: Option<bool>,
    /// Weakest provenance tier followed (default `text_matched`).
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// Which graph a cycle lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CycleKind {
    Imports,
    Calls,
}

impl CycleKind {
    fn parse(arg: &str, text: &str) -> Result<CycleKind, QueryError> {
        match text {
            "imports" => Ok(CycleKind::Imports),
            "calls" => Ok(CycleKind::Calls),
            _ => Err(QueryError::invalid(format!(
                "{arg} must be one of imports, calls, got {text:?}"
            ))),
        }
    }
}

/// How bad a cycle is (see the module doc for the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    High,
    Medium,
    Low,
}

/// One edge of a cycle's path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CycleStep {
    /// Id of the importing file/package, or of the caller.
    pub from: String,
    /// Id of the imported file/package, or of the callee.
    pub to: String,
    pub kind: EdgeKind,
    /// File holding the import statement or the call.
    pub path: String,
    pub line: u32,
}

/// One strongly connected component.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Cycle {
    pub kind: CycleKind,
    pub severity: Severity,
    /// Number of members.
    pub size: usize,
    /// Members sorted by id (files/packages for imports, functions/methods for calls), at most
    /// [`MAX_CYCLE_MEMBERS`].
    pub members: Vec<NodeSummary>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub members_truncated: bool,
    /// One closed path through the component, starting and ending at its smallest member id
    /// (the shortest such path).
    pub path: Vec<CycleStep>,
    /// Distinct directories of the members.
    pub directories: usize,
    /// Call cycles: distinct files of the members.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<usize>,
}

/// Cycles found.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CyclesResult {
    pub cycles: Vec<Cycle>,
    /// Cycles before `limit`.
    pub total: usize,
    pub by_kind: BTreeMap<CycleKind, usize>,
    pub by_severity: BTreeMap<Severity, usize>,
    pub truncated: bool,
    /// The scope searched: `imports`, `calls` or `all`.
    pub scope: &'static str,
}

/// `analyze kind=cycles`: import and call cycles (see the module doc).
pub fn cycles(g: &Graph, args: &CyclesArgs) -> Result<CyclesResult, QueryError> {
    let scope = match args.scope.as_deref() {
        None | Some("all") => "all",
        Some("imports") => "imports",
        Some("calls") => "calls",
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "scope must be one of imports, calls, all, got {other:?}"
            )))
        }
    };
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let floor = tier_floor(parse_min_tier(args.min_tier.as_deref())?);
    let include_self = args.include_self.unwrap_or(false);
    let mut found: Vec<Found> = Vec::new();
    if scope != "calls" {
        let dg = import_graph(g, floor);
        found.extend(dg.sccs().into_iter().map(|c| dg.describe(g, CycleKind::Imports, c)));
    }
    if scope != "imports" {
        let (dg, self_loops) = call_graph(g, floor);
        found.extend(dg.sccs().into_iter().map(|c| dg.describe(g, CycleKind::Calls, c)));
        if include_self {
            found.extend(self_loops.into_iter().map(|(f, line)| self_cycle(g, f, line)));
        }
    }
    found.retain(|c| {
        c.members.iter().any(|&m| {
            let n = g.node_at(m);
            // A package's path is its directory: `go/p1` is under `go/p1/`.
            let path = if n.kind == NodeKind::Package {
                format!("{}/", n.path)
            } else {
                n.path.to_string()
            };
            under(&path, prefix.as_deref())
        })
    });
    found.sort_by(|a, b| {
        (
            a.severity,
            std::cmp::Reverse(a.members.len()),
            a.kind,
            &g.node_at(a.members[0]).id,
        )
            .cmp(&(
                b.severity,
                std::cmp::Reverse(b.members.len()),
                b.kind,
                &g.node_at(b.members[0]).id,
            ))
    });
    let mut by_kind = BTreeMap::new();
    let mut by_severity = BTreeMap::new();
    for c in &found {
        *by_kind.entry(c.kind).or_insert(0) += 1;
        *by_severity.entry(c.severity).or_insert(0) += 1;
    }
    let total = found.len();
    let cycles = found.into_iter().take(limit).map(|c| c.render(g)).collect();
    Ok(CyclesResult {
        cycles,
        total,
        by_kind,
        by_severity,
        truncated: total > limit,
        scope,
    })
}

/// Arguments of `analyze kind=would_create_cycle`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WouldCreateCycleArgs {
    /// The importing file (edge `imports`) or the calling function/method (edge `calls`).
    pub from: String,
    /// The imported file or the called function/method.
    pub to: String,
    /// The kind of the new edge: `imports` (default) or `calls`.
    #[serde(default)]
    #[schemars(extend("enum" = ["imports", "calls"]))]
    pub edge: Option<String>,
}

/// Whether adding `from → to` would close a cycle.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WouldCreateCycleResult {
    pub would_create_cycle: bool,
    pub edge: CycleKind,
    pub from: NodeSummary,
    pub to: NodeSummary,
    /// The existing route `to → … → from` that the new edge would close (empty when none, or
    /// when `from` and `to` are the same unit).
    pub path: Vec<CycleStep>,
    /// The edge (between the same files/packages, or functions) exists already.
    pub already_exists: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `analyze kind=would_create_cycle`: would a new import (file → file) or call (symbol →
/// symbol) close a cycle, and through which existing path.
pub fn would_create_cycle(g: &Graph, args: &WouldCreateCycleArgs) -> Result<WouldCreateCycleResult, QueryError> {
    let edge = CycleKind::parse("edge", args.edge.as_deref().unwrap_or("imports"))?;
    let from = resolve_arg(g, "from", &args.from)?;
    let to = resolve_arg(g, "to", &args.to)?;
    for (arg, i) in [("from", from), ("to", to)] {
        let n = g.node_at(i);
        let ok = match edge {
            CycleKind::Imports => matches!(n.kind, NodeKind::File | NodeKind::Package),
            CycleKind::Calls => n.kind.is_callable() && !n.external,
        };
        if !ok {
            let want = match edge {
                CycleKind::Imports => "a file (or Go/Java package) for edge \"imports\"",
                CycleKind::Calls => "a function or method inside the repository for edge \"calls\"",
            };
            return Err(QueryError::invalid(format!(
                "{arg} must be {want}, but {:?} is a {}",
                &*n.id, n.kind
            )));
        }
    }
    let floor = tier_floor(None);
    let (path, already_exists, same) = match edge {
        CycleKind::Imports => {
            let dg = import_graph(g, floor);
            let units = FileUnits::new(g);
            let (fu, tu) = (units.unit(g, from), units.unit(g, to));
            match (fu, tu) {
                (Some(f), Some(t)) if f == t => (Vec::new(), false, true),
                (Some(f), Some(t)) => {
                    let (lf, lt) = (dg.local(f), dg.local(t));
                    let exists = matches!((lf, lt), (Some(a), Some(b)) if dg.succ(a).any(|(w, _)| w == b));
                    let path = match (lt, lf) {
                        (Some(a), Some(b)) => dg.route(g, a, b, None).unwrap_or_default(),
                        _ => Vec::new(),
                    };
                    (path, exists, false)
                }
                _ => (Vec::new(), false, false),
            }
        }
        CycleKind::Calls => {
            if from == to {
                (
                    Vec::new(),
                    g.out_edges(from).any(|e| e.kind == EdgeKind::Calls && e.to == to),
                    true,
                )
            } else {
                let exists = g.out_edges(from).any(|e| e.kind == EdgeKind::Calls && e.to == to);
                (call_route(g, to, from, floor), exists, false)
            }
        }
    };
    let note = same.then(|| match edge {
        CycleKind::Imports => "from and to are the same import unit (one file, or files of one Go/Java package); \
                               importing it would be a self-import"
            .to_string(),
        CycleKind::Calls => "from and to are the same function: the call would be direct recursion".to_string(),
    });
    Ok(WouldCreateCycleResult {
        would_create_cycle: same || !path.is_empty(),
        edge,
        from: NodeSummary::at(g, from),
        to: NodeSummary::at(g, to),
        path,
        already_exists,
        note,
    })
}

// ---------------------------------------------------------------------------------------------
// Graph building
// ---------------------------------------------------------------------------------------------

/// The import unit of each file: its Go/Java package, else itself.
struct FileUnits<'g> {
    by_path: FxHashMap<&'g str, NodeIndex>,
}

impl<'g> FileUnits<'g> {
    fn new(g: &'g Graph) -> FileUnits<'g> {
        let by_path = g
            .files()
            .iter()
            .map(|&f| {
                let pkg = g
                    .in_edges(f)
                    .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind == NodeKind::Package)
                    .map(|e| e.from)
                    .min();
                (&*g.node_at(f).path, pkg.unwrap_or(f))
            })
            .collect();
        FileUnits { by_path }
    }

    /// The unit a node belongs to: a package is its own unit; anything else counts as its file's.
    fn unit(&self, g: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        let n = g.node_at(node);
        if n.external {
            return None;
        }
        if n.kind == NodeKind::Package {
            return Some(node);
        }
        self.by_path.get(&*n.path).copied()
    }
}

/// A directed graph over a subset of nodes, in CSR form, with one representative site per edge.
struct Digraph {
    /// Local index → node index (ascending).
    nodes: Vec<NodeIndex>,
    /// Node index → local index (`u32::MAX` for nodes outside), up to the largest node.
    local: Vec<u32>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// Per edge: (kind, node holding the site, line).
    sites: Vec<(EdgeKind, NodeIndex, u32)>,
}

/// An SCC as the analysis sees it before rendering.
struct Found {
    kind: CycleKind,
    severity: Severity,
    /// Members sorted by id.
    members: Vec<NodeIndex>,
    path: Vec<CycleStep>,
    directories: usize,
    files: Option<usize>,
}

impl Found {
    fn render(self, g: &Graph) -> Cycle {
        Cycle {
            kind: self.kind,
            severity: self.severity,
            size: self.members.len(),
            members_truncated: self.members.len() > MAX_CYCLE_MEMBERS,
            members: self
                .members
                .iter()
                .take(MAX_CYCLE_MEMBERS)
                .map(|&m| NodeSummary::at(g, m))
                .collect(),
            path: self.path,
            directories: self.directories,
            files: self.files,
        }
    }
}

impl Digraph {
    /// Builds from (from, to, kind, site, line) edges; parallel edges keep the smallest site.
    /// Local ids come from a dense table and edges are grouped by a counting sort on their local
    /// source, each group then sorted on its own: no hashing and no sort of the whole edge list
    /// (on Kubernetes' call graph that halved the build; see `call_graph_sccs`).
    fn build(edges: Vec<(NodeIndex, NodeIndex, EdgeKind, NodeIndex, u32)>) -> Digraph {
        let bound = edges.iter().map(|e| e.0.max(e.1) as usize + 1).max().unwrap_or(0);
        let mut dense = vec![u32::MAX; bound];
        for e in &edges {
            dense[e.0 as usize] = 0;
            dense[e.1 as usize] = 0;
        }
        let mut nodes: Vec<NodeIndex> = Vec::new();
        for (n, slot) in dense.iter_mut().enumerate() {
            if *slot == 0 {
                *slot = nodes.len() as u32;
                nodes.push(n as NodeIndex);
            }
        }
        let mut offsets = vec![0u32; nodes.len() + 1];
        for e in &edges {
            offsets[dense[e.0 as usize] as usize + 1] += 1;
        }
        for i in 0..nodes.len() {
            offsets[i + 1] += offsets[i];
        }
        let mut grouped: Vec<(u32, EdgeKind, NodeIndex, u32)> = vec![(0, EdgeKind::Calls, 0, 0); edges.len()];
        let mut next = offsets.clone();
        for e in &edges {
            let at = &mut next[dense[e.0 as usize] as usize];
            grouped[*at as usize] = (dense[e.1 as usize], e.2, e.3, e.4);
            *at += 1;
        }
        // Per source: targets ascending, parallel edges collapsed onto the smallest site.
        let mut targets = Vec::with_capacity(grouped.len());
        let mut sites = Vec::with_capacity(grouped.len());
        let mut kept = vec![0u32; nodes.len() + 1];
        for v in 0..nodes.len() {
            let group = &mut grouped[offsets[v] as usize..offsets[v + 1] as usize];
            group.sort_unstable();
            let mut last = u32::MAX;
            for &(t, kind, site, line) in group.iter() {
                if t != last {
                    targets.push(t);
                    sites.push((kind, site, line));
                    last = t;
                }
            }
            kept[v + 1] = targets.len() as u32;
        }
        Digraph {
            nodes,
            local: dense,
            offsets: kept,
            targets,
            sites,
        }
    }

    fn local(&self, n: NodeIndex) -> Option<u32> {
        self.local.get(n as usize).copied().filter(|&l| l != u32::MAX)
    }

    /// Successors of a local node with the edge index.
    fn succ(&self, v: u32) -> impl Iterator<Item = (u32, usize)> + '_ {
        let (s, e) = (self.offsets[v as usize] as usize, self.offsets[v as usize + 1] as usize);
        (s..e).map(move |i| (self.targets[i], i))
    }

    /// Strongly connected components with two or more members (Tarjan, iterative).
    ///
    /// Hand-written on purpose (`examples/algo_bench.rs`, BENCHMARKS.md "Graph algorithms:
    /// library against hand-written"): over the same call graph, petgraph's `kosaraju_scc` is 2×
    /// (Kubernetes) to 4× (TypeScript) slower, and its `tarjan_scc` — 1.3× faster on
    /// Kubernetes, 2× slower on TypeScript — recurses once per node on the DFS path, so the
    /// stack it needs grows with the longest call chain (the bench runs it on a 1 GiB stack);
    /// this one keeps its path on the heap.
    fn sccs(&self) -> Vec<Vec<u32>> {
        const UNSEEN: u32 = u32::MAX;
        let n = self.nodes.len();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut counter = 0u32;
        let mut out = Vec::new();
        for root in 0..n as u32 {
            if index[root as usize] != UNSEEN {
                continue;
            }
            index[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            calls.push((root, self.offsets[root as usize]));
            while let Some(top) = calls.last_mut() {
                let v = top.0;
                if top.1 < self.offsets[v as usize + 1] {
                    let w = self.targets[top.1 as usize];
                    top.1 += 1;
                    if index[w as usize] == UNSEEN {
                        index[w as usize] = counter;
                        low[w as usize] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        calls.push((w, self.offsets[w as usize]));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                } else {
                    calls.pop();
                    if let Some(&(p, _)) = calls.last() {
                        low[p as usize] = low[p as usize].min(low[v as usize]);
                    }
                    if low[v as usize] == index[v as usize] {
                        let mut comp = Vec::new();
                        while let Some(w) = stack.pop() {
                            on_stack[w as usize] = false;
                            comp.push(w);
                            if w == v {
                                break;
                            }
                        }
                        if comp.len() > 1 {
                            out.push(comp);
                        }
                    }
                }
            }
        }
        out
    }

    /// Shortest route from local `a` to local `b` (a ≠ b), or back to `a` when `a == b`, through
    /// nodes accepted by `within` (all when `None`), as steps.
    fn route(&self, g: &Graph, a: u32, b: u32, within: Option<&FxHashSet<u32>>) -> Option<Vec<CycleStep>> {
        let ok = |v: u32| within.is_none_or(|s| s.contains(&v));
        let mut prev: FxHashMap<u32, usize> = FxHashMap::default();
        let mut queue = VecDeque::from([a]);
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        seen.insert(a);
        let mut last_edge = None;
        'bfs: while let Some(v) = queue.pop_front() {
            for (w, ei) in self.succ(v) {
                if !ok(w) {
                    continue;
                }
                if w == b {
                    last_edge = Some((v, ei));
                    break 'bfs;
                }
                if seen.insert(w) {
                    prev.insert(w, ei);
                    queue.push_back(w);
                }
            }
        }
        let (mut v, ei) = last_edge?;
        let mut edges = vec![(v, b, ei)];
        while v != a {
            let ei = prev[&v];
            let from = self.source(ei);
            edges.push((from, v, ei));
            v = from;
        }
        edges.reverse();
        Some(edges.into_iter().map(|(f, t, ei)| self.step(g, f, t, ei)).collect())
    }

    /// The local source of edge `ei` (binary search over the offsets).
    fn source(&self, ei: usize) -> u32 {
        let pos = self.offsets.partition_point(|&o| o as usize <= ei);
        (pos - 1) as u32
    }

    fn step(&self, g: &Graph, f: u32, t: u32, ei: usize) -> CycleStep {
        let (kind, site, line) = self.sites[ei];
        CycleStep {
            from: g.node_at(self.nodes[f as usize]).id.to_string(),
            to: g.node_at(self.nodes[t as usize]).id.to_string(),
            kind,
            path: g.node_at(site).path.to_string(),
            line,
        }
    }

    fn describe(&self, g: &Graph, kind: CycleKind, comp: Vec<u32>) -> Found {
        let mut members: Vec<NodeIndex> = comp.iter().map(|&l| self.nodes[l as usize]).collect();
        members.sort_by(|&a, &b| g.node_at(a).id.cmp(&g.node_at(b).id));
        let set: FxHashSet<u32> = comp.into_iter().collect();
        let start = self.local(members[0]).expect("member is local");
        let path = self.route(g, start, start, Some(&set)).unwrap_or_default();
        let dirs: FxHashSet<&str> = members
            .iter()
            .map(|&m| {
                let n = g.node_at(m);
                // A package node's path is its directory.
                if n.kind == NodeKind::Package {
                    &*n.path
                } else {
                    dir_of(&n.path)
                }
            })
            .collect();
        let files: FxHashSet<&str> = members.iter().map(|&m| &*g.node_at(m).path).collect();
        let severity = match kind {
            CycleKind::Imports if dirs.len() >= 2 => Severity::High,
            CycleKind::Imports => Severity::Medium,
            CycleKind::Calls if files.len() <= 1 => Severity::Low,
            CycleKind::Calls if dirs.len() >= 2 => Severity::High,
            CycleKind::Calls => Severity::Medium,
        };
        Found {
            kind,
            severity,
            members,
            path,
            directories: dirs.len(),
            files: (kind == CycleKind::Calls).then_some(files.len()),
        }
    }
}

/// The file/package import graph over edges at or above `floor`.
fn import_graph(g: &Graph, floor: Origin) -> Digraph {
    let units = FileUnits::new(g);
    let mut edges = Vec::new();
    for &f in g.files() {
        let Some(s) = units.unit(g, f) else { continue };
        // A Go/Java test file is compiled with its package only when that package is tested, so
        // its imports do not make the package depend on anything for other packages.
        if s != f && g.node_at(f).is_test {
            continue;
        }
        for e in g.out_edges(f) {
            if !matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) || e.origin < floor {
                continue;
            }
            if let Some(t) = units.unit(g, e.to) {
                if t != s {
                    edges.push((s, t, e.kind, f, e.line));
                }
            }
        }
    }
    Digraph::build(edges)
}

/// The strongly connected components of two or more members of the call graph between
/// functions and methods at or above `floor`, each sorted, in no particular order: what the
/// `cycles` kind finds before rendering (and what `examples/algo_bench.rs` measures).
pub fn call_graph_sccs(g: &Graph, floor: Origin) -> Vec<Vec<NodeIndex>> {
    let (dg, _) = call_graph(g, floor);
    dg.sccs()
        .into_iter()
        .map(|c| {
            let mut members: Vec<NodeIndex> = c.into_iter().map(|l| dg.nodes[l as usize]).collect();
            members.sort_unstable();
            members
        })
        .collect()
}

/// The call graph between functions and methods, plus self-calls (function, first line).
fn call_graph(g: &Graph, floor: Origin) -> (Digraph, Vec<(NodeIndex, u32)>) {
    let mut edges = Vec::new();
    let mut self_loops: FxHashMap<NodeIndex, u32> = FxHashMap::default();
    for e in g.edges() {
        if e.kind != EdgeKind::Calls || e.origin < floor {
            continue;
        }
        let (a, b) = (g.node_at(e.from), g.node_at(e.to));
        if !a.kind.is_callable() || !b.kind.is_callable() || a.external || b.external {
            continue;
        }
        if e.from == e.to {
            let line = self_loops.entry(e.from).or_insert(e.line);
            *line = (*line).min(e.line);
        } else {
            edges.push((e.from, e.to, e.kind, e.from, e.line));
        }
    }
    let mut loops: Vec<(NodeIndex, u32)> = self_loops.into_iter().collect();
    loops.sort_unstable();
    (Digraph::build(edges), loops)
}

fn self_cycle(g: &Graph, f: NodeIndex, line: u32) -> Found {
    let n = g.node_at(f);
    Found {
        kind: CycleKind::Calls,
        severity: Severity::Low,
        members: vec![f],
        path: vec![CycleStep {
            from: n.id.to_string(),
            to: n.id.to_string(),
            kind: EdgeKind::Calls,
            path: n.path.to_string(),
            line,
        }],
        directories: 1,
        files: Some(1),
    }
}

/// Shortest existing call route `a → … → b` (breadth-first over `calls` between functions and
/// methods, neighbours in index order).
fn call_route(g: &Graph, a: NodeIndex, b: NodeIndex, floor: Origin) -> Vec<CycleStep> {
    let mut prev: FxHashMap<NodeIndex, (NodeIndex, u32)> = FxHashMap::default();
    let mut queue = VecDeque::from([a]);
    let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
    seen.insert(a);
    let mut found = false;
    'bfs: while let Some(v) = queue.pop_front() {
        let mut next: Vec<(NodeIndex, u32)> = g
            .out_edges(v)
            .filter(|e| e.kind == EdgeKind::Calls && e.origin >= floor)
            .filter(|e| g.node_at(e.to).kind.is_callable() && !g.node_at(e.to).external)
            .map(|e| (e.to, e.line))
            .collect();
        next.sort_unstable();
        for (w, line) in next {
            if seen.insert(w) {
                prev.insert(w, (v, line));
                if w == b {
                    found = true;
                    break 'bfs;
                }
                queue.push_back(w);
            }
        }
    }
    if !found {
        return Vec::new();
    }
    let mut steps = Vec::new();
    let mut cur = b;
    while cur != a {
        let (p, line) = prev[&cur];
        let pn = g.node_at(p);
        steps.push(CycleStep {
            from: pn.id.to_string(),
            to: g.node_at(cur).id.to_string(),
            kind: EdgeKind::Calls,
            path: pn.path.to_string(),
            line,
        });
        cur = p;
    }
    steps.reverse();
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// SCCs by brute force: nodes that reach each other.
    fn naive_sccs(n: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
        let mut reach = vec![vec![false; n]; n];
        for &(a, b) in edges {
            reach[a as usize][b as usize] = true;
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if reach[i][k] && reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
        let mut out: Vec<Vec<u32>> = Vec::new();
        let mut done = vec![false; n];
        for i in 0..n {
            if done[i] {
                continue;
            }
            let comp: Vec<u32> = (0..n)
                .filter(|&j| j == i || (reach[i][j] && reach[j][i]))
                .map(|j| j as u32)
                .collect();
            for &j in &comp {
                done[j as usize] = true;
            }
            if comp.len() > 1 {
                out.push(comp);
            }
        }
        out.sort();
        out
    }

    proptest! {
        #[test]
        fn tarjan_matches_brute_force(edges in proptest::collection::vec((0u32..12, 0u32..12), 0..40)) {
            let edges: Vec<(u32, u32)> = edges.into_iter().filter(|(a, b)| a != b).collect();
            let dg = Digraph::build(edges.iter().map(|&(a, b)| (a, b, EdgeKind::Calls, a, 1)).collect());
            // Map local components back to node numbers.
            let mut got: Vec<Vec<u32>> = dg
                .sccs()
                .into_iter()
                .map(|c| {
                    let mut v: Vec<u32> = c.into_iter().map(|l| dg.nodes[l as usize]).collect();
                    v.sort();
                    v
                })
                .collect();
            got.sort();
            prop_assert_eq!(got, naive_sccs(12, &edges));
        }
    }
}
