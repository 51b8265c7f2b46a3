//! Path finding: `trace_path` (shortest call paths between two symbols, with tier confidence and a
//! diagnosis when there is none) and `find_import_path` (shortest import chain between two files).

use super::args::{check_range, parse_edge_kinds, parse_min_tier, OneOrMany};
use super::neighbours::neighbours;
use super::suggestions::{did_you_mean, suggest_files, MAX_SUGGESTIONS};
use super::targets::{file_node, lookup_id, resolve_arg};
use super::tiers::{is_zero, tier_floor};
use super::walk::EdgeRow;
use super::{NodeSummary, QueryError};
use crate::model::{Direction, Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Arguments of `trace_path`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TracePathArgs {
    /// Start node: an id (with or without the `<repo>/` prefix), a file path, or a qualified or
    /// bare name that matches exactly one symbol.
    pub from: String,
    /// Target node, same forms as `from`.
    pub to: String,
    /// Most hops, 1..=12 (default 6).
    pub max_depth: Option<u64>,
    /// Most paths returned, 1..=20 (default 3).
    pub limit: Option<u64>,
    /// Edge kinds a hop may use (CSV or list); default `calls,instantiates`.
    pub edge_kinds: Option<OneOrMany>,
    /// Weakest tier a hop may have; `speculative` hops only when asked for.
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// Result of `trace_path`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TracePathResult {
    pub from: NodeSummary,
    pub to: NodeSummary,
    pub edge_kinds: Vec<EdgeKind>,
    /// Shortest paths, most confident first (ties by the hops' ids).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<TracedPath>,
    /// Hops of the shortest paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// How many shortest paths exist (counting stops at 256).
    #[serde(skip_serializing_if = "is_zero")]
    pub shortest_paths: usize,
    /// More shortest paths exist than were returned.
    pub truncated: bool,
    /// Why no path was found; absent when `paths` is not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<TraceDiagnosis>,
}

/// One path: its hops in order and the product of their tier scores.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TracedPath {
    pub hops: Vec<EdgeRow>,
    /// Product of per-hop tier scores (lsp_resolved 1.0, lsp_dispatch 0.95, ast_resolved 0.9,
    /// ast_inferred 0.7, text_matched 0.4, speculative 0.2), rounded to 4 decimals.
    pub confidence: f64,
}

/// What the graph says about a missing path.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TraceDiagnosis {
    /// The findings in one paragraph.
    pub message: String,
    /// Edges of the requested kinds (and tiers) leaving `from`.
    pub from_outgoing: usize,
    /// Edges of the requested kinds (and tiers) entering `to`.
    pub to_incoming: usize,
    /// Nodes reachable from `from` within `max_depth` (excluding `from`).
    pub reachable: usize,
    /// The search ran out of depth while unexplored edges remained.
    pub depth_limited: bool,
    /// Hops of the shortest path from `to` back to `from`, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverse_hops: Option<u32>,
    /// Hops of the shortest path when edge direction is ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undirected_hops: Option<u32>,
    /// Hops of the shortest path when `references` edges may be used too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_references_hops: Option<u32>,
    /// Hops of the shortest path when `min_tier` is dropped (only checked when it was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignoring_min_tier_hops: Option<u32>,
    /// Unresolved references from reachable nodes that name `to`: likely resolution gaps.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<UnresolvedHint>,
}

/// An unresolved reference whose name is the target's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UnresolvedHint {
    pub from: String,
    pub kind: EdgeKind,
    pub target: String,
    pub line: u32,
    /// Same-named candidates the resolver saw (>1: ambiguous).
    pub candidates: u32,
}

const PATH_CAP: usize = 256;
const HINT_CAP: usize = 20;

/// Score of one hop for path confidence.
fn tier_score(origin: Origin) -> f64 {
    match origin {
        Origin::LspResolved => 1.0,
        Origin::LspDispatch => 0.95,
        Origin::AstResolved => 0.9,
        Origin::AstInferred => 0.7,
        Origin::TextMatched => 0.4,
        Origin::Speculative => 0.2,
    }
}

/// Shortest paths from one symbol to another over the chosen edge kinds.
pub fn trace_path(g: &Graph, args: &TracePathArgs) -> Result<TracePathResult, QueryError> {
    let from = resolve_arg(g, "from", &args.from)?;
    let to = resolve_arg(g, "to", &args.to)?;
    let max_depth = check_range("max_depth", args.max_depth, 6, 1, 12)? as u32;
    let limit = check_range("limit", args.limit, 3, 1, 20)? as usize;
    let kinds = match &args.edge_kinds {
        Some(k) => parse_edge_kinds("edge_kinds", k, EdgeKind::ALL)?,
        None => vec![EdgeKind::Calls, EdgeKind::Instantiates],
    };
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let floor = tier_floor(min_tier);
    if from == to {
        return Err(QueryError::invalid(format!(
            "from and to are the same node ({}); pass two different symbols",
            g.node_at(from).id
        )));
    }

    let mut out = TracePathResult {
        from: NodeSummary::at(g, from),
        to: NodeSummary::at(g, to),
        edge_kinds: kinds.clone(),
        paths: Vec::new(),
        length: None,
        shortest_paths: 0,
        truncated: false,
        diagnosis: None,
    };
    let search = Bfs::run(g, from, Some(to), Direction::Out, &kinds, floor, max_depth);
    let Some(&length) = search.dist.get(&to) else {
        out.diagnosis = Some(diagnose(g, from, to, &kinds, min_tier, max_depth, &search));
        return Ok(out);
    };
    let mut paths = enumerate_paths(&search.parents, from, to, PATH_CAP);
    out.length = Some(length);
    out.shortest_paths = paths.len();
    let mut scored: Vec<(f64, Vec<EdgeRow>)> = paths
        .drain(..)
        .map(|hops| {
            let confidence = hops.iter().map(|e| tier_score(e.origin)).product::<f64>();
            (round4(confidence), hops.iter().map(|e| EdgeRow::of(g, e)).collect())
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0).then_with(|| {
            let ka = a.1.iter().map(|h| (&h.from, &h.to, h.kind, h.line));
            let kb = b.1.iter().map(|h| (&h.from, &h.to, h.kind, h.line));
            ka.cmp(kb)
        })
    });
    out.truncated = scored.len() > limit;
    out.paths = scored
        .into_iter()
        .take(limit)
        .map(|(confidence, hops)| TracedPath { hops, confidence })
        .collect();
    Ok(out)
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A level-by-level breadth-first search that keeps, for every node, one best edge from each
/// predecessor on a shortest path (so parallel edges do not multiply paths).
struct Bfs<'g> {
    dist: FxHashMap<NodeIndex, u32>,
    parents: FxHashMap<NodeIndex, Vec<&'g Edge>>,
    depth_limited: bool,
}

impl<'g> Bfs<'g> {
    fn run(
        g: &'g Graph,
        start: NodeIndex,
        target: Option<NodeIndex>,
        dir: Direction,
        kinds: &[EdgeKind],
        floor: Origin,
        max_depth: u32,
    ) -> Bfs<'g> {
        let mut dist: FxHashMap<NodeIndex, u32> = FxHashMap::default();
        let mut parents: FxHashMap<NodeIndex, Vec<&'g Edge>> = FxHashMap::default();
        dist.insert(start, 0);
        let mut frontier = vec![start];
        let mut depth = 0;
        while !frontier.is_empty() && depth < max_depth {
            let mut next = Vec::new();
            for &u in &frontier {
                for (v, e) in neighbours(g, u, dir, kinds, floor) {
                    match dist.get(&v) {
                        None => {
                            dist.insert(v, depth + 1);
                            parents.insert(v, vec![e]);
                            next.push(v);
                        }
                        Some(&d) if d == depth + 1 => {
                            let list = parents.get_mut(&v).expect("parents of a reached node");
                            match list.iter_mut().find(|p| p.from == e.from && p.to == e.to) {
                                Some(p) if better(e, p) => *p = e,
                                Some(_) => {}
                                None => list.push(e),
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
            depth += 1;
            frontier = next;
            if target.is_some_and(|t| dist.contains_key(&t)) {
                return Bfs {
                    dist,
                    parents,
                    depth_limited: false,
                };
            }
        }
        let depth_limited = frontier.iter().any(|&u| {
            neighbours(g, u, dir, kinds, floor)
                .iter()
                .any(|(v, _)| !dist.contains_key(v))
        });
        Bfs {
            dist,
            parents,
            depth_limited,
        }
    }
}

/// Stronger tier first, then the earlier line, then the smaller kind.
fn better(a: &Edge, b: &Edge) -> bool {
    (std::cmp::Reverse(a.origin), a.line, a.kind) < (std::cmp::Reverse(b.origin), b.line, b.kind)
}

/// Every shortest path from `start` to `target` through the parent lists, up to `cap` paths,
/// enumerated with an explicit stack.
fn enumerate_paths<'g>(
    parents: &FxHashMap<NodeIndex, Vec<&'g Edge>>,
    start: NodeIndex,
    target: NodeIndex,
    cap: usize,
) -> Vec<Vec<&'g Edge>> {
    let mut paths = Vec::new();
    // Each entry: a node still to walk back from and the hops collected so far (reversed).
    let mut stack: Vec<(NodeIndex, Vec<&'g Edge>)> = vec![(target, Vec::new())];
    while let Some((node, suffix)) = stack.pop() {
        if node == start {
            let mut hops = suffix;
            hops.reverse();
            paths.push(hops);
            if paths.len() >= cap {
                break;
            }
            continue;
        }
        for e in parents.get(&node).into_iter().flatten() {
            let mut next = suffix.clone();
            next.push(e);
            let prev = if e.to == node { e.from } else { e.to };
            stack.push((prev, next));
        }
    }
    paths
}

/// Length of the shortest path `from` ⇝ `to`, if any within `max_depth`.
fn hops_between(
    g: &Graph,
    from: NodeIndex,
    to: NodeIndex,
    dir: Direction,
    kinds: &[EdgeKind],
    floor: Origin,
    max_depth: u32,
) -> Option<u32> {
    Bfs::run(g, from, Some(to), dir, kinds, floor, max_depth)
        .dist
        .get(&to)
        .copied()
}

fn diagnose(
    g: &Graph,
    from: NodeIndex,
    to: NodeIndex,
    kinds: &[EdgeKind],
    min_tier: Option<Origin>,
    max_depth: u32,
    search: &Bfs<'_>,
) -> TraceDiagnosis {
    let floor = tier_floor(min_tier);
    let from_outgoing = neighbours(g, from, Direction::Out, kinds, floor).len();
    let to_incoming = neighbours(g, to, Direction::In, kinds, floor).len();
    let reverse_hops = hops_between(g, to, from, Direction::Out, kinds, floor, max_depth);
    let undirected_hops = hops_between(g, from, to, Direction::Both, kinds, floor, max_depth);
    let with_references_hops = (!kinds.contains(&EdgeKind::References))
        .then(|| {
            let mut wider = kinds.to_vec();
            wider.push(EdgeKind::References);
            hops_between(g, from, to, Direction::Out, &wider, floor, max_depth)
        })
        .flatten();
    let ignoring_min_tier_hops = (floor > tier_floor(None))
        .then(|| hops_between(g, from, to, Direction::Out, kinds, tier_floor(None), max_depth))
        .flatten();

    let name = &g.node_at(to).name;
    let wanted = [format!("unresolved::{name}"), format!("unresolved::*.{name}")];
    let mut reached: Vec<NodeIndex> = search.dist.keys().copied().collect();
    reached.sort_unstable();
    let mut unresolved: Vec<UnresolvedHint> = reached
        .iter()
        .flat_map(|&n| g.unresolved_from(n))
        .filter(|u| wanted.contains(&u.target))
        .map(|u| UnresolvedHint {
            from: g.node_at(u.from).id.to_string(),
            kind: u.kind,
            target: u.target.clone(),
            line: u.line,
            candidates: u.candidates,
        })
        .collect();
    unresolved.sort_by(|a, b| (&a.from, a.line, &a.target).cmp(&(&b.from, b.line, &b.target)));
    unresolved.truncate(HINT_CAP);

    let reachable = search.dist.len() - 1;
    let kinds_text = kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>().join("/");
    let (from_id, to_id) = (&g.node_at(from).id, &g.node_at(to).id);
    let tier_text = min_tier.map(|t| format!(" at tier {t} or better")).unwrap_or_default();
    let mut msg = vec![format!(
        "No {kinds_text} path from {from_id} to {to_id} within {max_depth} hops{tier_text}."
    )];
    if from_outgoing == 0 {
        msg.push(format!("{from_id} has no outgoing {kinds_text} edges."));
    }
    if to_incoming == 0 {
        msg.push(format!("{to_id} has no incoming {kinds_text} edges."));
    }
    msg.push(format!(
        "{reachable} node(s) are reachable from {from_id}{}.",
        if search.depth_limited {
            " and the depth limit cut the search short"
        } else {
            ""
        }
    ));
    if let Some(h) = reverse_hops {
        msg.push(format!(
            "A path exists in the reverse direction ({to_id} to {from_id}, {h} hops)."
        ));
    }
    if let Some(h) = undirected_hops {
        msg.push(format!("Ignoring direction, they are {h} hops apart."));
    }
    if let Some(h) = with_references_hops {
        msg.push(format!("Allowing references edges, a path of {h} hops exists."));
    }
    if let Some(h) = ignoring_min_tier_hops {
        msg.push(format!("Without min_tier, a path of {h} hops exists."));
    }
    if !unresolved.is_empty() {
        msg.push(format!(
            "{} unresolved reference(s) from reachable nodes name \"{name}\": the resolver could not bind them, \
             so the path may exist but be missing from the graph.",
            unresolved.len()
        ));
    }
    TraceDiagnosis {
        message: msg.join(" "),
        from_outgoing,
        to_incoming,
        reachable,
        depth_limited: search.depth_limited,
        reverse_hops,
        undirected_hops,
        with_references_hops,
        ignoring_min_tier_hops,
        unresolved,
    }
}

// ---------------------------------------------------------------------------------------------
// find_import_path
// ---------------------------------------------------------------------------------------------

/// Arguments of `find_import_path`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindImportPathArgs {
    /// Importing file: a repository-relative path, a file id, or a symbol id (meaning its file).
    pub from: String,
    /// Imported file, same forms as `from`; may be left out when `symbol` is given.
    #[serde(default)]
    pub to: Option<String>,
    /// A symbol to bring into `from`: the answer's `import` is the statement that does it (or
    /// the import already there), and the chain runs to the symbol's file.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Most import hops, 1..=16 (default 8).
    pub max_depth: Option<u64>,
}

/// Result of `find_import_path`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FindImportPathResult {
    /// Path of the importing file.
    pub from: String,
    /// Path of the imported file.
    pub to: String,
    /// File paths from `from` to `to`; empty when there is no chain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<String>,
    /// One row per import statement followed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<ImportHop>,
    /// Why no chain was found; absent when `path` is not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<ImportDiagnosis>,
    /// With `symbol`: how `from` gets it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import: Option<ImportStatement>,
}

/// Whether, and how, a file must import a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImportStatus {
    /// Declared in the file itself.
    SameFile,
    /// Visible without an import (same Go, Java, Kotlin, C# package or namespace).
    SamePackage,
    /// An import of the file already brings it in (`line`).
    AlreadyImported,
    /// Write `statement`.
    NeedsImport,
    /// Not visible outside its module: export it first (`note`), then write `statement`.
    NotExported,
}

/// The import that brings a symbol into a file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImportStatement {
    /// The symbol (a member is imported through its top-level owner, named here).
    pub symbol: NodeSummary,
    pub status: ImportStatus,
    /// The statement to write, in the importing file's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    /// The module the statement names (a relative specifier, a dotted module, an import path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// How code in the importing file then refers to it (`store.Save` in Go, `Store` elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Line of the import already bringing it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One import statement on the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ImportHop {
    pub from: String,
    pub to: String,
    /// `imports` or `re_exports`.
    pub kind: EdgeKind,
    /// Line of the import statement in `from`.
    pub line: u32,
}

/// What the graph says about a missing import chain.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ImportDiagnosis {
    /// The findings in one paragraph.
    pub message: String,
    /// Distinct repository files `from` imports directly.
    pub from_imports: usize,
    /// Distinct repository files importing `to` directly.
    pub to_importers: usize,
    /// Files reachable from `from` over imports within `max_depth` (excluding `from`).
    pub reachable: usize,
    /// The search ran out of depth while unexplored imports remained.
    pub depth_limited: bool,
    /// Hops of the shortest chain from `to` back to `from`, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverse_hops: Option<u32>,
    /// Unresolved imports in reachable files whose module name looks like `to`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved_imports: Vec<UnresolvedImport>,
}

/// An import the resolver could not bind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UnresolvedImport {
    /// Path of the importing file.
    pub file: String,
    /// The module as written.
    pub module: String,
    pub line: u32,
}

/// Shortest chain of import statements leading from one file to another.
pub fn find_import_path(g: &Graph, args: &FindImportPathArgs) -> Result<FindImportPathResult, QueryError> {
    let from = resolve_file(g, "from", &args.from)?;
    let Some(to) = args.to.as_deref() else {
        return Err(QueryError::invalid(
            "find_import_path needs to (the imported file) or symbol (what to import into from)",
        ));
    };
    let to = resolve_file(g, "to", to)?;
    let max_depth = check_range("max_depth", args.max_depth, 8, 1, 16)? as u32;
    let path_of = |f: NodeIndex| g.node_at(f).path.to_string();
    if from == to {
        return Err(QueryError::invalid(format!(
            "from and to are the same file ({}); pass two different files",
            path_of(from)
        )));
    }
    let mut out = FindImportPathResult {
        from: path_of(from),
        to: path_of(to),
        path: Vec::new(),
        hops: Vec::new(),
        diagnosis: None,
        import: None,
    };

    let search = ImportBfs::run(g, from, Some(to), max_depth);
    if search.parent.contains_key(&to) {
        let mut chain = Vec::new();
        let mut at = to;
        while at != from {
            let hop = search.parent[&at];
            chain.push(ImportHop {
                from: path_of(hop.from),
                to: path_of(at),
                kind: hop.kind,
                line: hop.line,
            });
            at = hop.from;
        }
        chain.reverse();
        out.path = std::iter::once(path_of(from))
            .chain(chain.iter().map(|h| h.to.clone()))
            .collect();
        out.hops = chain;
        return Ok(out);
    }

    let from_imports = file_imports(g, from).len();
    let to_importers = file_importers(g, to);
    let reverse = ImportBfs::run(g, to, Some(from), max_depth);
    let reverse_hops = reverse.parent.contains_key(&from).then(|| {
        let mut n = 0;
        let mut at = from;
        while at != to {
            at = reverse.parent[&at].from;
            n += 1;
        }
        n
    });
    let stems = file_stems(&g.node_at(to).path);
    let mut files: Vec<NodeIndex> = search.seen.iter().copied().collect();
    files.sort_unstable();
    let mut unresolved_imports: Vec<UnresolvedImport> = files
        .iter()
        .flat_map(|&f| g.unresolved_from(f))
        .filter_map(|u| {
            let module = u.target.strip_prefix("unresolved::import::")?;
            module_names(module)
                .iter()
                .any(|m| stems.contains(m))
                .then(|| UnresolvedImport {
                    file: path_of(u.from),
                    module: module.to_string(),
                    line: u.line,
                })
        })
        .collect();
    unresolved_imports.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    unresolved_imports.truncate(HINT_CAP);

    let reachable = search.seen.len() - 1;
    let (fp, tp) = (path_of(from), path_of(to));
    let mut msg = vec![format!("No import chain from {fp} to {tp} within {max_depth} hops.")];
    if from_imports == 0 {
        msg.push(format!("{fp} imports no repository file."));
    }
    if to_importers == 0 {
        msg.push(format!("No repository file imports {tp}."));
    }
    msg.push(format!(
        "{reachable} file(s) are reachable from {fp}{}.",
        if search.depth_limited {
            " and the depth limit cut the search short"
        } else {
            ""
        }
    ));
    if let Some(h) = reverse_hops {
        msg.push(format!("{tp} reaches {fp} in {h} hops (the reverse direction)."));
    }
    if !unresolved_imports.is_empty() {
        msg.push(format!(
            "{} unresolved import(s) in reachable files look like {tp}: the chain may exist but be missing.",
            unresolved_imports.len()
        ));
    }
    out.diagnosis = Some(ImportDiagnosis {
        message: msg.join(" "),
        from_imports,
        to_importers,
        reachable,
        depth_limited: search.depth_limited,
        reverse_hops,
        unresolved_imports,
    });
    Ok(out)
}

/// The file node a file argument names: a path, a file id, or any node id (meaning its file).
pub fn resolve_file(g: &Graph, arg: &str, value: &str) -> Result<NodeIndex, QueryError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} must not be empty; pass a file path, a file id or a symbol id"
        )));
    }
    if let Some(f) = file_node(g, value) {
        return Ok(f);
    }
    let Some(i) = lookup_id(g, value) else {
        let paths: Vec<String> = suggest_files(g, value, MAX_SUGGESTIONS)
            .into_iter()
            .map(|f| g.node_at(f).path.to_string())
            .collect();
        return Err(QueryError::not_found(format!(
            "{arg}: no file matches {value:?} (tried file path, file id and symbol id); {}",
            did_you_mean(&paths)
        )));
    };
    let node = g.node_at(i);
    match node.kind {
        NodeKind::File => Ok(i),
        NodeKind::Package => Err(QueryError::invalid(format!(
            "{arg} \"{value}\" is a package; pass one of its files"
        ))),
        _ if node.external || node.path.is_empty() => Err(QueryError::invalid(format!(
            "{arg} \"{value}\" is outside the repository; pass a repository file"
        ))),
        _ => file_of(g, i).ok_or_else(|| QueryError::not_found(format!("{arg} \"{value}\": its file is not indexed"))),
    }
}

/// The file node holding a node.
fn file_of(g: &Graph, n: NodeIndex) -> Option<NodeIndex> {
    let node = g.node_at(n);
    if node.kind == NodeKind::File {
        return Some(n);
    }
    if node.external || node.kind == NodeKind::Package {
        return None;
    }
    file_node(g, &node.path)
}

/// One file-to-file import: the statement's line and kind.
#[derive(Debug, Clone, Copy)]
struct FileHop {
    from: NodeIndex,
    kind: EdgeKind,
    line: u32,
}

/// Files a file imports, each with its best statement (earliest line), sorted by path.
/// A statement that names a module yields a file (or package) edge plus one edge per imported
/// symbol, whose file may be further away (through barrels); those symbol edges are followed only
/// when the statement produced no module edge, so chains show every file the import goes through.
fn file_imports(g: &Graph, file: NodeIndex) -> Vec<(NodeIndex, FileHop)> {
    let path = &g.node_at(file).path;
    let sources = g
        .file_nodes(path)
        .iter()
        .copied()
        .filter(|&n| matches!(g.node_at(n).kind, NodeKind::File | NodeKind::Import));
    let edges: Vec<&Edge> = sources
        .flat_map(|n| g.out_edges(n))
        .filter(|e| matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports))
        .collect();
    let module_lines: FxHashSet<u32> = edges
        .iter()
        .filter(|e| matches!(g.node_at(e.to).kind, NodeKind::File | NodeKind::Package))
        .map(|e| e.line)
        .collect();
    let mut best: BTreeMap<&str, (NodeIndex, FileHop)> = BTreeMap::new();
    for e in edges {
        let target = g.node_at(e.to);
        let files: Vec<NodeIndex> = match target.kind {
            NodeKind::Package => g
                .out_edges(e.to)
                .filter(|c| c.kind == EdgeKind::Contains && g.node_at(c.to).kind == NodeKind::File)
                .map(|c| c.to)
                .collect(),
            NodeKind::File => vec![e.to],
            _ if module_lines.contains(&e.line) => continue,
            _ => file_of(g, e.to).into_iter().collect(),
        };
        for f in files.into_iter().filter(|&f| f != file) {
            let hop = FileHop {
                from: file,
                kind: e.kind,
                line: e.line,
            };
            let slot = best.entry(&g.node_at(f).path).or_insert((f, hop));
            if (hop.line, hop.kind) < (slot.1.line, slot.1.kind) {
                *slot = (f, hop);
            }
        }
    }
    best.into_values().collect()
}

/// Distinct files whose import statements lead straight to `file` (the same rule as
/// [`file_imports`], so a file that only reaches `file` through a barrel is not counted).
fn file_importers(g: &Graph, file: NodeIndex) -> usize {
    let path = &g.node_at(file).path;
    let mut candidates: FxHashSet<NodeIndex> = FxHashSet::default();
    let mut targets: Vec<NodeIndex> = g.file_nodes(path).to_vec();
    // Go and Java import the package, not the file.
    targets.extend(
        g.in_edges(file)
            .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind == NodeKind::Package)
            .map(|e| e.from),
    );
    for n in targets {
        for e in g.in_edges(n) {
            if matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
                if let Some(f) = file_of(g, e.from).filter(|&f| f != file) {
                    candidates.insert(f);
                }
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&f| file_imports(g, f).iter().any(|(t, _)| *t == file))
        .count()
}

/// Breadth-first search over file imports, one parent per file.
struct ImportBfs {
    parent: FxHashMap<NodeIndex, FileHop>,
    seen: FxHashSet<NodeIndex>,
    depth_limited: bool,
}

impl ImportBfs {
    fn run(g: &Graph, start: NodeIndex, target: Option<NodeIndex>, max_depth: u32) -> ImportBfs {
        let mut parent = FxHashMap::default();
        let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
        seen.insert(start);
        let mut frontier = vec![start];
        let mut depth = 0;
        while !frontier.is_empty() && depth < max_depth {
            let mut next = Vec::new();
            for &u in &frontier {
                for (v, hop) in file_imports(g, u) {
                    if seen.insert(v) {
                        parent.insert(v, hop);
                        next.push(v);
                    }
                }
            }
            depth += 1;
            frontier = next;
            if target.is_some_and(|t| seen.contains(&t)) {
                return ImportBfs {
                    parent,
                    seen,
                    depth_limited: false,
                };
            }
        }
        let depth_limited = frontier
            .iter()
            .any(|&u| file_imports(g, u).iter().any(|(v, _)| !seen.contains(v)));
        ImportBfs {
            parent,
            seen,
            depth_limited,
        }
    }
}

/// Names a file may be imported by: its stem, and its directory for index-like files.
fn file_stems(path: &str) -> Vec<String> {
    let mut parts = path.rsplit('/');
    let base = parts.next().unwrap_or(path);
    let stem = base.split('.').next().unwrap_or(base).to_string();
    let mut out = vec![stem.clone()];
    if matches!(stem.as_str(), "index" | "__init__" | "mod" | "lib" | "main") {
        if let Some(dir) = parts.next() {
            out.push(dir.to_string());
        }
    }
    out
}

/// Candidate file names a written module refers to (`./util.js` → util, `pkg.mod` → mod).
fn module_names(module: &str) -> Vec<String> {
    let tail = module
        .rsplit(['/', ':', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or(module);
    let mut out = vec![tail.to_string()];
    if let Some(first) = tail.split('.').find(|s| !s.is_empty()) {
        out.push(first.to_string());
    }
    if let Some(last) = tail.rsplit('.').find(|s| !s.is_empty()) {
        out.push(last.to_string());
    }
    out
}
