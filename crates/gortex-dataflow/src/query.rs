//! `flow_between` (ranked dataflow paths between two symbols) and `taint_paths` (a source-pattern
//! → sink-pattern sweep, with built-in web sources and SQL / command / filesystem sinks) over a
//! linked [`FlowGraph`].
//!
//! Endpoints of `flow_between`: `Symbol#var` names one variable, parameter or access path of a
//! function (`getUser#req.query.id`, `handler#return`); a function or method as the source stands
//! for every value it holds (parameters, variables, call results, its return), as the sink for its
//! parameters (and the arguments of calls to it, which reach library functions the graph has no
//! body for); a field, variable or constant stands for every access path ending in its name.
//!
//! Patterns of `taint_paths`: space-separated clauses that must all hold — a bare word is a
//! case-insensitive substring of the node's name, `exact:Name` an exact name, `path:dir/` a path
//! prefix, `kind:K` one of param, variable, argument, result, return, function, method. Function
//! and method candidates expand like `flow_between`'s endpoints. Without a pattern the built-in
//! sets are used (see [`builtin_source`] and [`builtin_sink`]).
//!
//! Walks match calls with returns one level deep (a value entering a callee through one call site
//! returns only to that call). A hop is one step between flow nodes (variable, access path,
//! argument, parameter, return, call result), so `max_depth` defaults to 16 (at most 32). Path
//! confidence is the product of the hops' confidences; paths are ranked by confidence, then
//! length. A sweep reports one finding per sink: its best path. The flow graph is flow-insensitive, so every answer says `flow_sensitive: false`.

use crate::layer::{FlowEdgeKind, FlowGraph, FlowKind};
use gortex_core::{NodeKind, Origin, QueryError};
use gortex_graph::query::common::{check_range, parse_min_tier, resolve_one};
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Most candidates per side of a taint sweep.
pub const MAX_CANDIDATES: usize = 100;

/// A flow node as results show it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlowNodeRow {
    pub id: String,
    pub kind: FlowKind,
    /// Variable or access path; the callee for arguments and results.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arg: Option<u32>,
    pub function: String,
    pub path: String,
    pub line: u32,
}

/// One hop of a path.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlowHop {
    pub to: FlowNodeRow,
    pub kind: FlowEdgeKind,
    pub confidence: f64,
    pub tier: Origin,
}

/// One path from a source to a sink.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlowPath {
    pub source: FlowNodeRow,
    pub sink: FlowNodeRow,
    pub length: usize,
    pub confidence: f64,
    pub hops: Vec<FlowHop>,
    /// The built-in sink category (`sql`, `exec`, `filesystem`) when a built-in set found it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<&'static str>,
}

fn row(g: &Graph, fg: &FlowGraph, n: u32) -> FlowNodeRow {
    let node = &fg.nodes[n as usize];
    let f = g.node_at(node.func);
    FlowNodeRow {
        id: fg.id(g, n),
        kind: node.kind,
        name: node.name.clone(),
        arg: (node.kind == FlowKind::Argument).then_some(node.pos),
        function: f.qualified.clone(),
        path: f.path.to_string(),
        line: if node.line > 0 { node.line } else { f.span.start_line },
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A walk state: a flow node and the call site the walk entered its function through (the
/// result node of that call, or [`NO_CALL`]).
type State = (u32, u32);

/// No call entered: returns may go to any caller.
const NO_CALL: u32 = u32::MAX;

/// A breadth-first walk from one source: the predecessor of every state, and the first (fewest
/// hops) state reached per node.
struct Walk {
    prev: FxHashMap<State, (State, usize)>,
    first: FxHashMap<u32, State>,
}

/// Walks forward from `source` up to `max_depth` hops. Calls are matched with returns one level
/// deep: after entering a callee through an argument, its return flows back only to that call's
/// result (no path enters through one call site and leaves through another). A walk that starts
/// inside a function may return to any of its callers.
fn bfs(fg: &FlowGraph, source: u32, max_depth: u32, floor: Option<Origin>) -> Walk {
    let start: State = (source, NO_CALL);
    let mut walk = Walk {
        prev: FxHashMap::default(),
        first: FxHashMap::default(),
    };
    walk.first.insert(source, start);
    let mut depth: FxHashMap<State, u32> = FxHashMap::default();
    depth.insert(start, 0);
    let mut queue = VecDeque::from([start]);
    while let Some(state) = queue.pop_front() {
        let (n, ctx) = state;
        let d = depth[&state];
        if d >= max_depth {
            continue;
        }
        for (ei, e) in fg.out[n as usize].iter().enumerate() {
            if floor.is_some_and(|f| e.origin < f) {
                continue;
            }
            let next_ctx = match e.kind {
                FlowEdgeKind::ValueFlow => ctx,
                FlowEdgeKind::ArgOf => fg.nodes[n as usize].result,
                FlowEdgeKind::ReturnsTo if ctx == NO_CALL || ctx == e.to => NO_CALL,
                FlowEdgeKind::ReturnsTo => continue,
            };
            let next = (e.to, next_ctx);
            if depth.contains_key(&next) {
                continue;
            }
            depth.insert(next, d + 1);
            walk.prev.insert(next, (state, ei));
            walk.first.entry(e.to).or_insert(next);
            queue.push_back(next);
        }
    }
    walk
}

/// The path `source → … → sink` found by a walk.
fn path_to(g: &Graph, fg: &FlowGraph, source: u32, sink: u32, walk: &Walk) -> Option<FlowPath> {
    let mut at = *walk.first.get(&sink)?;
    let mut hops = Vec::new();
    let mut confidence = 1.0;
    while at != (source, NO_CALL) {
        let &(from, ei) = walk.prev.get(&at)?;
        let e = fg.out[from.0 as usize][ei];
        confidence *= e.confidence;
        hops.push(FlowHop {
            to: row(g, fg, at.0),
            kind: e.kind,
            confidence: round3(e.confidence),
            tier: e.origin,
        });
        at = from;
    }
    hops.reverse();
    Some(FlowPath {
        source: row(g, fg, source),
        sink: row(g, fg, sink),
        length: hops.len(),
        confidence: round3(confidence),
        hops,
        category: None,
    })
}

fn rank(paths: &mut [FlowPath]) {
    paths.sort_by(|a, b| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(a.length.cmp(&b.length))
            .then_with(|| a.source.id.cmp(&b.source.id))
            .then_with(|| a.sink.id.cmp(&b.sink.id))
    });
}

/// Which end of a flow an endpoint is.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Source,
    Sink,
}

/// Flow nodes of a function standing for it at one end of a flow: as a source every value it holds
/// (parameters, variables, call results, its return); as a sink its parameters.
fn function_nodes(fg: &FlowGraph, func: NodeIndex, end: End, out: &mut Vec<u32>) {
    for &n in fg.by_func.get(&func).map(Vec::as_slice).unwrap_or(&[]) {
        let k = fg.nodes[n as usize].kind;
        if k == FlowKind::Param || (end == End::Source && k != FlowKind::Argument) {
            out.push(n);
        }
    }
}

/// Arguments of calls named `name` anywhere (a sink the graph has no body for).
fn call_arguments(fg: &FlowGraph, name: &str, out: &mut Vec<u32>) {
    for (i, n) in fg.nodes.iter().enumerate() {
        if n.kind == FlowKind::Argument && n.name == name {
            out.push(i as u32);
        }
    }
}

/// Resolves a `flow_between` endpoint (see the module doc).
fn endpoint(g: &Graph, fg: &FlowGraph, spec: &str, end: End, arg: &str) -> Result<Vec<u32>, QueryError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} must name a symbol (an id or name, or Symbol#variable), got an empty string"
        )));
    }
    let mut out = Vec::new();
    if let Some((symbol, var)) = spec.rsplit_once('#') {
        let func = resolve_one(g, symbol)?;
        let nodes = fg.by_func.get(&func).map(Vec::as_slice).unwrap_or(&[]);
        for &n in nodes {
            let node = &fg.nodes[n as usize];
            let name_matches = match node.kind {
                FlowKind::Return => var == "return",
                FlowKind::Param | FlowKind::Variable => node.name == var,
                _ => false,
            };
            if name_matches {
                out.push(n);
            }
        }
        if out.is_empty() {
            let mut names: Vec<&str> = nodes
                .iter()
                .map(|&n| &fg.nodes[n as usize])
                .filter(|n| matches!(n.kind, FlowKind::Param | FlowKind::Variable | FlowKind::Return))
                .map(|n| n.name.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            names.truncate(20);
            return Err(QueryError::not_found(format!(
                "{arg}: {} has no variable {var:?} in its dataflow facts; it has: {}",
                g.node_at(func).qualified,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
        return Ok(out);
    }
    let node = resolve_one(g, spec)?;
    let n = g.node_at(node);
    if n.kind.is_callable() {
        function_nodes(fg, node, end, &mut out);
        if end == End::Sink {
            call_arguments(fg, &n.name, &mut out);
        }
    } else if matches!(
        n.kind,
        NodeKind::Field | NodeKind::Variable | NodeKind::Constant | NodeKind::EnumMember
    ) {
        let suffix = format!(".{}", n.name);
        for (i, f) in fg.nodes.iter().enumerate() {
            if matches!(f.kind, FlowKind::Variable | FlowKind::Param) && (f.name == n.name || f.name.ends_with(&suffix))
            {
                out.push(i as u32);
            }
        }
    } else {
        return Err(QueryError::invalid(format!(
            "{arg}: {} is a {}; dataflow endpoints are functions, methods, fields, variables or Symbol#variable",
            n.qualified, n.kind
        )));
    }
    if out.is_empty() {
        return Err(QueryError::not_found(format!(
            "{arg}: {} has no {} in the dataflow facts (dataflow covers TypeScript, JavaScript, Python, Go and Java functions)",
            n.qualified,
            if end == End::Source { "values" } else { "parameters and no call site" }
        )));
    }
    Ok(out)
}

/// Arguments of `flow_between`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowBetweenArgs {
    /// Where the value starts: a function (its parameters), a field, or `Symbol#variable`
    /// (`Symbol#return` for a return value), such as `getUser#req.query.id`.
    pub source: String,
    /// Where it must arrive: a function (its parameters and the arguments of calls to it), a field,
    /// or `Symbol#variable`.
    pub sink: String,
    /// Most hops per path, 1..=32 (default 16).
    pub max_depth: Option<u32>,
    /// Most paths returned, 1..=100 (default 10).
    pub max_paths: Option<usize>,
    /// Weakest provenance tier of the call edges a path may cross.
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
}

/// Result of `flow_between`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlowBetweenResult {
    pub sources: usize,
    pub sinks: usize,
    pub paths: Vec<FlowPath>,
    pub truncated: bool,
    /// Why no path was found, when none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
    pub flow_sensitive: bool,
}

/// Ranked dataflow paths from `source` to `sink`; see the module doc.
pub fn flow_between(g: &Graph, fg: &FlowGraph, args: &FlowBetweenArgs) -> Result<FlowBetweenResult, QueryError> {
    let max_depth = check_range("max_depth", args.max_depth, 16, 1, 32)?;
    let max_paths = check_range("max_paths", args.max_paths, 10, 1, 100)?;
    let floor = parse_min_tier(args.min_tier.as_deref())?;
    let sources = endpoint(g, fg, &args.source, End::Source, "source")?;
    let sinks = endpoint(g, fg, &args.sink, End::Sink, "sink")?;
    let mut paths = Vec::new();
    let mut reached_any = false;
    for &s in &sources {
        let walk = bfs(fg, s, max_depth, floor);
        reached_any |= walk.first.len() > 1;
        for &t in &sinks {
            if t == s {
                continue;
            }
            if let Some(p) = path_to(g, fg, s, t, &walk) {
                paths.push(p);
            }
        }
    }
    rank(&mut paths);
    let truncated = paths.len() > max_paths;
    paths.truncate(max_paths);
    let diagnosis = paths.is_empty().then(|| {
        if !reached_any {
            "the source's values flow nowhere in the extracted facts (no assignment, argument or return reads them)".to_string()
        } else if sinks.iter().all(|t| fg.out.iter().all(|edges| edges.iter().all(|e| e.to != *t))) {
            "nothing flows into the sink (no argument or assignment reaches it)".to_string()
        } else if max_depth < 32 {
            format!(
                "no path within {max_depth} hops; raise max_depth (up to 32), or the flow crosses a call the graph did not resolve"
            )
        } else {
            "disconnected: no chain of assignments, arguments and returns links them".to_string()
        }
    });
    Ok(FlowBetweenResult {
        sources: sources.len(),
        sinks: sinks.len(),
        paths,
        truncated,
        diagnosis,
        flow_sensitive: false,
    })
}

// ---------------------------------------------------------------------------------------------
// taint_paths

/// Access paths that carry request input in common web frameworks (Express/Koa, Flask/Django,
/// net/http).
const SOURCE_PATHS: &[&str] = &[
    "req.query",
    "req.params",
    "req.body",
    "req.headers",
    "req.cookies",
    "request.query",
    "request.params",
    "request.body",
    "request.args",
    "request.form",
    "request.json",
    "request.values",
    "request.cookies",
    "request.headers",
    "request.data",
    "request.files",
    "request.GET",
    "request.POST",
    "ctx.query",
    "ctx.params",
    "ctx.request.body",
    "r.URL",
    "r.Form",
    "r.PostForm",
    "r.Header",
    "r.Body",
];

/// Calls whose result is request input (Gin, net/http, Servlet).
const SOURCE_CALLS: &[&str] = &[
    "Query",
    "DefaultQuery",
    "GetQuery",
    "Param",
    "PostForm",
    "DefaultPostForm",
    "FormValue",
    "PostFormValue",
    "getParameter",
    "getParameterValues",
    "getHeader",
    "getQueryString",
    "getInputStream",
    "getReader",
];

/// Sink calls by category.
const SINKS: &[(&str, &[&str])] = &[
    (
        "sql",
        &[
            "query",
            "execute",
            "executemany",
            "executeQuery",
            "executeUpdate",
            "prepareStatement",
            "raw",
            "Exec",
            "ExecContext",
            "Query",
            "QueryContext",
            "QueryRow",
            "QueryRowContext",
        ],
    ),
    (
        "exec",
        &[
            "exec",
            "execSync",
            "execFile",
            "spawn",
            "spawnSync",
            "system",
            "popen",
            "Popen",
            "check_output",
            "check_call",
            "Command",
            "CommandContext",
        ],
    ),
    (
        "filesystem",
        &[
            "readFile",
            "readFileSync",
            "writeFile",
            "writeFileSync",
            "createReadStream",
            "createWriteStream",
            "unlink",
            "sendFile",
            "ReadFile",
            "WriteFile",
            "Open",
            "OpenFile",
            "Remove",
            "RemoveAll",
        ],
    ),
];

/// Whether a flow node is built-in request input.
pub fn builtin_source(fg: &FlowGraph, n: u32) -> bool {
    let node = &fg.nodes[n as usize];
    match node.kind {
        FlowKind::Variable | FlowKind::Param => SOURCE_PATHS.contains(&node.name.as_str()),
        FlowKind::Result => SOURCE_CALLS.contains(&node.name.as_str()),
        _ => false,
    }
}

/// The built-in sink category of a flow node, if it is one (the first argument of a sink call:
/// the query, command or path).
pub fn builtin_sink(fg: &FlowGraph, n: u32) -> Option<&'static str> {
    let node = &fg.nodes[n as usize];
    if node.kind != FlowKind::Argument || node.pos != 0 {
        return None;
    }
    SINKS
        .iter()
        .find(|(_, names)| names.contains(&node.name.as_str()))
        .map(|(category, _)| *category)
}

/// One parsed pattern clause.
enum Clause {
    Substring(String),
    Exact(String),
    Path(String),
    Kind(String),
}

const PATTERN_KINDS: &[&str] = &[
    "param", "variable", "argument", "result", "return", "function", "method",
];

fn parse_pattern(text: &str, arg: &str) -> Result<Vec<Clause>, QueryError> {
    let clauses: Vec<Clause> = text
        .split_whitespace()
        .map(|w| {
            if let Some(v) = w.strip_prefix("exact:") {
                Ok(Clause::Exact(v.to_string()))
            } else if let Some(v) = w.strip_prefix("path:") {
                Ok(Clause::Path(v.trim_start_matches("./").to_string()))
            } else if let Some(v) = w.strip_prefix("kind:") {
                if PATTERN_KINDS.contains(&v) {
                    Ok(Clause::Kind(v.to_string()))
                } else {
                    Err(QueryError::invalid(format!(
                        "{arg}: kind:{v} is not a kind; use one of {}",
                        PATTERN_KINDS.join(", ")
                    )))
                }
            } else {
                Ok(Clause::Substring(w.to_ascii_lowercase()))
            }
        })
        .collect::<Result<_, _>>()?;
    if clauses.is_empty() {
        return Err(QueryError::invalid(format!(
            "{arg} is blank; give words (substrings), exact:Name, path:dir/ or kind:K — or omit it for the built-in set"
        )));
    }
    Ok(clauses)
}

fn clause_holds(c: &Clause, name: &str, path: &str, kind: &str) -> bool {
    match c {
        Clause::Substring(s) => name.to_ascii_lowercase().contains(s.as_str()),
        Clause::Exact(s) => name == s,
        Clause::Path(p) => path.starts_with(p.as_str()),
        Clause::Kind(k) => kind == k,
    }
}

fn kind_name(k: FlowKind) -> &'static str {
    match k {
        FlowKind::Param => "param",
        FlowKind::Variable => "variable",
        FlowKind::Argument => "argument",
        FlowKind::Result => "result",
        FlowKind::Return => "return",
    }
}

/// Candidates of one side of a sweep (flow nodes, with functions expanded), capped.
fn candidates(g: &Graph, fg: &FlowGraph, clauses: &[Clause], end: End) -> (Vec<u32>, bool) {
    let mut out: Vec<u32> = Vec::new();
    for (i, n) in fg.nodes.iter().enumerate() {
        let f = g.node_at(n.func);
        if clauses
            .iter()
            .all(|c| clause_holds(c, &n.name, &f.path, kind_name(n.kind)))
        {
            out.push(i as u32);
        }
    }
    let mut funcs: Vec<NodeIndex> = fg.by_func.keys().copied().collect();
    funcs.sort_unstable();
    for func in funcs {
        let f = g.node_at(func);
        if clauses
            .iter()
            .all(|c| clause_holds(c, &f.name, &f.path, f.kind.as_str()))
        {
            function_nodes(fg, func, end, &mut out);
        }
    }
    out.sort_unstable();
    out.dedup();
    let capped = out.len() > MAX_CANDIDATES;
    out.truncate(MAX_CANDIDATES);
    (out, capped)
}

/// Arguments of `taint_paths`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaintPathsArgs {
    /// Source clauses (words, `exact:Name`, `path:dir/`, `kind:param|variable|…`, all must hold);
    /// omit it for the built-in request inputs.
    pub source_pattern: Option<String>,
    /// Sink clauses, same forms; omit it for the built-in SQL, command and filesystem sinks.
    pub sink_pattern: Option<String>,
    /// Most hops per path, 1..=32 (default 16).
    pub max_depth: Option<u32>,
    /// Most findings, 1..=1000 (default 20).
    pub limit: Option<usize>,
    /// Weakest provenance tier of the call edges a path may cross.
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
    /// Only sources in functions under this path prefix.
    pub path_prefix: Option<String>,
}

/// Size of the flow graph a sweep ran over (how much of the repository dataflow covers).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlowGraphSize {
    /// Graph functions and methods with dataflow facts.
    pub functions: usize,
    /// Extracted functions that matched no graph node (not linked).
    pub unmatched: usize,
    pub nodes: usize,
    pub edges: usize,
}

impl FlowGraphSize {
    /// The size of `fg`.
    pub fn of(fg: &FlowGraph) -> FlowGraphSize {
        FlowGraphSize {
            functions: fg.functions,
            unmatched: fg.unmatched,
            nodes: fg.nodes.len(),
            edges: fg.edge_count(),
        }
    }
}

/// Result of `taint_paths`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TaintPathsResult {
    pub sources: usize,
    pub sinks: usize,
    /// A side had more than 100 candidates; the first 100 (by position) were swept.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub candidates_capped: bool,
    pub findings: Vec<FlowPath>,
    pub total: usize,
    pub truncated: bool,
    /// `builtin` when a side used the built-in set.
    pub source_set: &'static str,
    pub sink_set: &'static str,
    pub flow_graph: FlowGraphSize,
    pub flow_sensitive: bool,
}

/// Source → sink sweep; see the module doc.
pub fn taint_paths(g: &Graph, fg: &FlowGraph, args: &TaintPathsArgs) -> Result<TaintPathsResult, QueryError> {
    let max_depth = check_range("max_depth", args.max_depth, 16, 1, 32)?;
    let limit = check_range("limit", args.limit, 20, 1, 1000)?;
    let floor = parse_min_tier(args.min_tier.as_deref())?;
    let prefix = match args.path_prefix.as_deref().map(|p| p.trim().trim_start_matches("./")) {
        Some("") => {
            return Err(QueryError::invalid(
                "path_prefix must not be blank; omit it for the whole repository",
            ))
        }
        other => other,
    };
    let in_prefix = |n: u32| prefix.is_none_or(|p| g.node_at(fg.nodes[n as usize].func).path.starts_with(p));
    let (mut sources, mut capped) = match args.source_pattern.as_deref() {
        Some(p) => candidates(g, fg, &parse_pattern(p, "source_pattern")?, End::Source),
        None => {
            let all: Vec<u32> = (0..fg.nodes.len() as u32).filter(|&n| builtin_source(fg, n)).collect();
            (all, false)
        }
    };
    sources.retain(|&n| in_prefix(n));
    if args.source_pattern.is_none() && sources.len() > MAX_CANDIDATES {
        sources.truncate(MAX_CANDIDATES);
        capped = true;
    }
    let (sinks, sink_capped, categories): (Vec<u32>, bool, FxHashMap<u32, &'static str>) =
        match args.sink_pattern.as_deref() {
            Some(p) => {
                let (s, c) = candidates(g, fg, &parse_pattern(p, "sink_pattern")?, End::Sink);
                (s, c, FxHashMap::default())
            }
            None => {
                let mut cats = FxHashMap::default();
                for n in 0..fg.nodes.len() as u32 {
                    if let Some(c) = builtin_sink(fg, n) {
                        cats.insert(n, c);
                    }
                }
                let mut all: Vec<u32> = cats.keys().copied().collect();
                all.sort_unstable();
                (all, false, cats)
            }
        };
    let sink_set: FxHashSet<u32> = sinks.iter().copied().collect();
    let mut findings = Vec::new();
    for &s in &sources {
        let walk = bfs(fg, s, max_depth, floor);
        let mut reached: Vec<u32> = walk
            .first
            .keys()
            .copied()
            .filter(|t| sink_set.contains(t) && *t != s)
            .collect();
        reached.sort_unstable();
        for t in reached {
            if let Some(mut p) = path_to(g, fg, s, t, &walk) {
                p.category = categories.get(&t).copied();
                findings.push(p);
            }
        }
    }
    rank(&mut findings);
    // One finding per sink: its best path (other sources reaching it are usually the same input
    // seen at another step, e.g. `r.URL` and `r.URL.Query()`).
    let mut seen: FxHashSet<String> = FxHashSet::default();
    findings.retain(|f| seen.insert(f.sink.id.clone()));
    let total = findings.len();
    findings.truncate(limit);
    Ok(TaintPathsResult {
        sources: sources.len(),
        sinks: sinks.len(),
        candidates_capped: capped || sink_capped,
        truncated: total > findings.len(),
        total,
        findings,
        source_set: if args.source_pattern.is_some() {
            "pattern"
        } else {
            "builtin"
        },
        sink_set: if args.sink_pattern.is_some() {
            "pattern"
        } else {
            "builtin"
        },
        flow_graph: FlowGraphSize::of(fg),
        flow_sensitive: false,
    })
}
