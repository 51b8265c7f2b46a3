//! The flow graph: per-function facts ([`FnFlow`]) of every file, matched to the code graph's
//! function and method nodes and linked across calls.
//!
//! Flow nodes, per graph function `F`:
//! - `Var` — a parameter, local or access path of `F` (`<F id>#<name>`); a parameter is flagged.
//! - `Ret` — what `F` returns (`<F id>#return`).
//! - `Arg` — argument `k` of the `i`-th call in `F` (`<F id>#call<i>:<callee>@L<line>/arg<k>`).
//! - `Res` — the result of that call (`<F id>#call<i>:<callee>@L<line>`).
//!
//! Edges:
//! - `value_flow` (confidence 0.85, `ast_resolved`): what an assignment, argument or return reads →
//!   its target; an access path's prefix → the path (`req` → `req.query` → `req.query.id`).
//! - `arg_of` (0.7 × the call edge's tier weight): `Arg k` → parameter `k` of each callee the code
//!   graph resolved the call to (calls or instantiations from `F`, or a function nested in `F`, on
//!   the call's line, to a node of the callee's name; a class resolves to its constructor).
//! - `returns_to` (same confidence): the callee's `Ret` → the call's `Res`.
//! - Calls the graph does not resolve to a function with facts (library calls such as
//!   `db.query`, `str.trim`) pass their arguments and receiver through to their result
//!   (`value_flow`, 0.5). Sanitizers (callee names containing escape, sanitize, quote, encode,
//!   parameterize, validate) stop the flow: no pass-through, and no `returns_to` even when the
//!   graph resolved them.
//!
//! The graph is flow-insensitive (no control flow): a path means a value *can* travel, not that
//! it does on every execution.

use crate::facts::{FnFlow, Value};
use gortex_core::{EdgeKind, Language, NodeKind, Origin, Sources};
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::Serialize;

/// Confidence of an intra-procedural flow.
pub const VALUE_FLOW_CONFIDENCE: f64 = 0.85;
/// Confidence of a call-boundary flow before the call edge's tier weight.
pub const CALL_FLOW_CONFIDENCE: f64 = 0.7;
/// Confidence of a pass-through across a call nothing resolved.
pub const PASS_THROUGH_CONFIDENCE: f64 = 0.5;

/// What a flow node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlowKind {
    Param,
    Variable,
    Return,
    Argument,
    Result,
}

/// One node of the flow graph.
#[derive(Debug, Clone)]
pub struct FlowNode {
    pub kind: FlowKind,
    /// The graph function or method it belongs to.
    pub func: NodeIndex,
    /// Variable or access path; the callee name for arguments and results; `return`.
    pub name: String,
    /// Argument position (arguments only).
    pub pos: u32,
    /// Source line (0 when unknown, e.g. a parameter).
    pub line: u32,
    /// Call index within the function (arguments and results).
    pub call: u32,
    /// For an argument: the result node of its call site (so a walk entering the callee through
    /// this argument returns only to this call); `u32::MAX` otherwise.
    pub result: u32,
}

/// The kind of a flow edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlowEdgeKind {
    ValueFlow,
    ArgOf,
    ReturnsTo,
}

/// One flow edge.
#[derive(Debug, Clone, Copy)]
pub struct FlowEdge {
    pub to: u32,
    pub kind: FlowEdgeKind,
    pub confidence: f64,
    /// The tier of the evidence: the call edge's for `arg_of`/`returns_to`, `ast_resolved` otherwise.
    pub origin: Origin,
    pub line: u32,
}

/// The linked flow graph of one code-graph version.
#[derive(Debug, Default)]
pub struct FlowGraph {
    pub nodes: Vec<FlowNode>,
    /// Outgoing edges per node.
    pub out: Vec<Vec<FlowEdge>>,
    /// Flow nodes per graph function, in creation order.
    pub by_func: FxHashMap<NodeIndex, Vec<u32>>,
    /// Graph functions matched to facts.
    pub functions: usize,
    /// Facts that matched no graph node (reported, not linked).
    pub unmatched: usize,
}

impl FlowGraph {
    /// The stable id of a flow node.
    pub fn id(&self, g: &Graph, n: u32) -> String {
        let node = &self.nodes[n as usize];
        let f = &g.node_at(node.func).id;
        match node.kind {
            FlowKind::Param | FlowKind::Variable => format!("{f}#{}", node.name),
            FlowKind::Return => format!("{f}#return"),
            FlowKind::Argument => format!("{f}#call{}:{}@L{}/arg{}", node.call, node.name, node.line, node.pos),
            FlowKind::Result => format!("{f}#call{}:{}@L{}", node.call, node.name, node.line),
        }
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.out.iter().map(Vec::len).sum()
    }

    fn add(&mut self, node: FlowNode) -> u32 {
        let i = self.nodes.len() as u32;
        self.by_func.entry(node.func).or_default().push(i);
        self.nodes.push(node);
        self.out.push(Vec::new());
        i
    }

    fn edge(&mut self, from: u32, to: u32, kind: FlowEdgeKind, confidence: f64, origin: Origin, line: u32) {
        if from == to {
            return;
        }
        let out = &mut self.out[from as usize];
        if let Some(e) = out.iter_mut().find(|e| e.to == to && e.kind == kind) {
            if confidence > e.confidence {
                e.confidence = confidence;
                e.origin = origin;
            }
            return;
        }
        out.push(FlowEdge {
            to,
            kind,
            confidence,
            origin,
            line,
        });
    }
}

/// Facts of one file, keyed by the content hash they were extracted from.
#[derive(Debug, Clone)]
struct FileFacts {
    hash: u64,
    functions: Vec<FnFlow>,
}

/// What one synchronisation did.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct DataflowSync {
    pub files: usize,
    pub extracted: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub unreadable: usize,
}

/// Dataflow facts of every file with an extractor, kept in step with the repository by content
/// hash (only changed files are re-read and re-parsed).
#[derive(Debug, Default)]
pub struct DataflowIndex {
    sources: Option<Sources>,
    files: FxHashMap<String, FileFacts>,
}

impl DataflowIndex {
    /// Re-extracts the files whose hash changed, drops vanished ones.
    pub fn sync(&mut self, sources: impl Into<Sources>, files: &[(String, u64, Language)]) -> DataflowSync {
        let sources = &sources.into();
        // Facts are keyed by content hash: only another root invalidates them.
        if self.sources.as_ref().map(Sources::root) != Some(sources.root()) {
            self.files.clear();
        }
        self.sources = Some(sources.clone());
        let wanted: Vec<&(String, u64, Language)> = files
            .iter()
            .filter(|(_, _, lang)| crate::extract::DATAFLOW_LANGUAGES.contains(lang))
            .collect();
        let mut stats = DataflowSync {
            files: wanted.len(),
            ..Default::default()
        };
        let keep: rustc_hash::FxHashSet<&str> = wanted.iter().map(|(p, _, _)| p.as_str()).collect();
        let before = self.files.len();
        self.files.retain(|p, _| keep.contains(p.as_str()));
        stats.removed = before - self.files.len();
        let stale: Vec<&(String, u64, Language)> = wanted
            .into_iter()
            .filter(|(p, h, _)| self.files.get(p).is_none_or(|f| f.hash != *h))
            .collect();
        stats.unchanged = stats.files - stale.len();
        let fresh: Vec<(String, Option<FileFacts>)> = stale
            .par_iter()
            .map(|(path, hash, lang)| {
                let text = sources.read(path).ok().and_then(|b| String::from_utf8(b).ok());
                let facts = text
                    .and_then(|t| crate::extract::extract(*lang, &t))
                    .map(|functions| FileFacts { hash: *hash, functions });
                (path.clone(), facts)
            })
            .collect();
        for (path, facts) in fresh {
            match facts {
                Some(f) => {
                    stats.extracted += 1;
                    self.files.insert(path, f);
                }
                None => {
                    stats.unreadable += 1;
                    self.files.remove(&path);
                }
            }
        }
        stats
    }

    /// Functions with facts.
    pub fn function_count(&self) -> usize {
        self.files.values().map(|f| f.functions.len()).sum()
    }

    /// Links the facts into a flow graph over `g`.
    pub fn link(&self, g: &Graph) -> FlowGraph {
        link(g, &self.files)
    }
}

/// Weight of a call edge's tier in a call-boundary flow's confidence.
fn tier_weight(origin: Origin) -> f64 {
    match origin {
        Origin::LspResolved | Origin::LspDispatch | Origin::AstResolved => 1.0,
        Origin::AstInferred => 0.9,
        Origin::TextMatched => 0.6,
        Origin::Speculative => 0.3,
    }
}

/// Callee names that clean a value rather than pass it on.
pub fn is_sanitizer(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "escape",
        "sanitize",
        "sanitise",
        "quote",
        "encode",
        "parameterize",
        "validate",
    ]
    .iter()
    .any(|w| n.contains(w))
}

/// Per-function state while linking.
struct FnNodes {
    vars: FxHashMap<String, u32>,
    ret: Option<u32>,
    /// Per call: (argument nodes, result node).
    calls: Vec<(Vec<u32>, u32)>,
}

fn link(g: &Graph, files: &FxHashMap<String, FileFacts>) -> FlowGraph {
    let mut fg = FlowGraph::default();
    // Match facts to graph nodes: same file, callable, same bare name, same start line.
    let mut matched: Vec<(NodeIndex, &FnFlow)> = Vec::new();
    let mut paths: Vec<&String> = files.keys().collect();
    paths.sort();
    for path in paths {
        let facts = &files[path];
        let nodes = g.file_nodes(path);
        for f in &facts.functions {
            let hit = nodes.iter().copied().find(|&i| {
                let n = g.node_at(i);
                n.kind.is_callable() && n.name == f.name && n.span.start_line == f.line
            });
            match hit {
                Some(i) => matched.push((i, f)),
                None => fg.unmatched += 1,
            }
        }
    }
    fg.functions = matched.len();
    let facts_of: FxHashMap<NodeIndex, &FnFlow> = matched.iter().copied().collect();

    // Nodes of every function: params first, so parameter k is easy to find.
    let mut per_fn: FxHashMap<NodeIndex, FnNodes> = FxHashMap::default();
    for &(func, f) in &matched {
        let mut st = FnNodes {
            vars: FxHashMap::default(),
            ret: None,
            calls: Vec::with_capacity(f.calls.len()),
        };
        for p in &f.params {
            for name in p.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if !st.vars.contains_key(name) {
                    let id = fg.add(FlowNode {
                        kind: FlowKind::Param,
                        func,
                        name: name.to_string(),
                        pos: 0,
                        line: f.line,
                        call: 0,
                        result: u32::MAX,
                    });
                    st.vars.insert(name.to_string(), id);
                }
            }
        }
        for (ci, c) in f.calls.iter().enumerate() {
            let args: Vec<u32> = (0..c.args.len())
                .map(|k| {
                    fg.add(FlowNode {
                        kind: FlowKind::Argument,
                        func,
                        name: c.callee.clone(),
                        pos: k as u32,
                        line: c.line,
                        call: ci as u32,
                        result: u32::MAX,
                    })
                })
                .collect();
            let res = fg.add(FlowNode {
                kind: FlowKind::Result,
                func,
                name: c.callee.clone(),
                pos: 0,
                line: c.line,
                call: ci as u32,
                result: u32::MAX,
            });
            for &a in &args {
                fg.nodes[a as usize].result = res;
            }
            st.calls.push((args, res));
        }
        per_fn.insert(func, st);
    }

    // Intra-procedural edges.
    for &(func, f) in &matched {
        let mut st = per_fn.remove(&func).expect("created above");
        let value = |fg: &mut FlowGraph, st: &mut FnNodes, v: &Value| -> u32 {
            match v {
                Value::Var(name) => var_node(fg, st, func, name, f.line),
                Value::Call(i) => st.calls.get(*i as usize).map(|c| c.1).unwrap_or(u32::MAX),
            }
        };
        for a in &f.assigns {
            let target = var_node(&mut fg, &mut st, func, &a.target, a.line);
            for v in &a.sources {
                let from = value(&mut fg, &mut st, v);
                if from != u32::MAX {
                    fg.edge(
                        from,
                        target,
                        FlowEdgeKind::ValueFlow,
                        VALUE_FLOW_CONFIDENCE,
                        Origin::AstResolved,
                        a.line,
                    );
                }
            }
        }
        for (ci, c) in f.calls.iter().enumerate() {
            let (args, _) = st.calls[ci].clone();
            for (k, vals) in c.args.iter().enumerate() {
                for v in vals {
                    let from = value(&mut fg, &mut st, v);
                    if from != u32::MAX {
                        fg.edge(
                            from,
                            args[k],
                            FlowEdgeKind::ValueFlow,
                            VALUE_FLOW_CONFIDENCE,
                            Origin::AstResolved,
                            c.line,
                        );
                    }
                }
            }
        }
        for r in &f.returns {
            let ret = *st.ret.get_or_insert_with(|| {
                fg.add(FlowNode {
                    kind: FlowKind::Return,
                    func,
                    name: "return".to_string(),
                    pos: 0,
                    line: r.line,
                    call: 0,
                    result: u32::MAX,
                })
            });
            for v in &r.sources {
                let from = value(&mut fg, &mut st, v);
                if from != u32::MAX {
                    fg.edge(
                        from,
                        ret,
                        FlowEdgeKind::ValueFlow,
                        VALUE_FLOW_CONFIDENCE,
                        Origin::AstResolved,
                        r.line,
                    );
                }
            }
        }
        per_fn.insert(func, st);
    }

    // Access-path prefixes: `a` → `a.b` → `a.b.c` within each function. Creating a parent can
    // reveal a grandparent, so repeat until nothing new appears (bounded by the path depth).
    for st in per_fn.values_mut() {
        let mut pending: Vec<(String, u32)> = st.vars.iter().map(|(k, v)| (k.clone(), *v)).collect();
        while let Some((name, id)) = pending.pop() {
            let Some(dot) = name.rfind('.') else { continue };
            let parent = &name[..dot];
            if parent.is_empty() {
                continue;
            }
            let (func, line) = (fg.nodes[id as usize].func, fg.nodes[id as usize].line);
            let existed = st.vars.contains_key(parent);
            let p = var_node(&mut fg, st, func, parent, line);
            fg.edge(
                p,
                id,
                FlowEdgeKind::ValueFlow,
                VALUE_FLOW_CONFIDENCE,
                Origin::AstResolved,
                line,
            );
            if !existed {
                pending.push((parent.to_string(), p));
            }
        }
    }

    // Call boundaries.
    for &(func, f) in &matched {
        let sites = call_sites(g, &callers_within(g, func));
        for (ci, c) in f.calls.iter().enumerate() {
            let (args, res) = per_fn[&func].calls[ci].clone();
            let callees = sites.get(&(c.line, c.callee.as_str())).cloned().unwrap_or_default();
            let mut linked = false;
            for (callee, origin) in callees {
                let Some(target) = constructor_or_self(g, callee, &facts_of) else {
                    continue;
                };
                let Some(cst) = per_fn.get(&target) else { continue };
                let cf = facts_of[&target];
                let conf = CALL_FLOW_CONFIDENCE * tier_weight(origin);
                linked = true;
                for (k, &arg) in args.iter().enumerate() {
                    // Parameter k (a destructured parameter binds several names at one position).
                    if let Some(p) = cf.params.get(k) {
                        let targets: Vec<u32> = p
                            .split(',')
                            .map(str::trim)
                            .filter_map(|name| cst.vars.get(name).copied())
                            .collect();
                        for t in targets {
                            fg.edge(arg, t, FlowEdgeKind::ArgOf, conf, origin, c.line);
                        }
                    }
                }
                // A sanitizer's result is clean even when its body is visible.
                if let (Some(ret), false) = (cst.ret, is_sanitizer(&c.callee)) {
                    fg.edge(ret, res, FlowEdgeKind::ReturnsTo, conf, origin, c.line);
                }
            }
            if !linked && !is_sanitizer(&c.callee) {
                for &arg in &args {
                    fg.edge(
                        arg,
                        res,
                        FlowEdgeKind::ValueFlow,
                        PASS_THROUGH_CONFIDENCE,
                        Origin::AstResolved,
                        c.line,
                    );
                }
                let st = per_fn.get_mut(&func).expect("created above");
                let receivers: Vec<u32> = c
                    .receiver
                    .iter()
                    .filter_map(|v| match v {
                        Value::Var(name) => Some(var_node(&mut fg, st, func, name, c.line)),
                        Value::Call(i) => st.calls.get(*i as usize).map(|x| x.1),
                    })
                    .collect();
                for r in receivers {
                    fg.edge(
                        r,
                        res,
                        FlowEdgeKind::ValueFlow,
                        PASS_THROUGH_CONFIDENCE,
                        Origin::AstResolved,
                        c.line,
                    );
                }
            }
        }
    }
    fg
}

/// The variable node `name` of a function, created on first use.
fn var_node(fg: &mut FlowGraph, st: &mut FnNodes, func: NodeIndex, name: &str, line: u32) -> u32 {
    if let Some(&i) = st.vars.get(name) {
        return i;
    }
    let i = fg.add(FlowNode {
        kind: FlowKind::Variable,
        func,
        name: name.to_string(),
        pos: 0,
        line,
        call: 0,
        result: u32::MAX,
    });
    st.vars.insert(name.to_string(), i);
    i
}

/// `func` and the callables declared inside its span in the same file (their calls are its calls).
fn callers_within(g: &Graph, func: NodeIndex) -> Vec<NodeIndex> {
    let f = g.node_at(func);
    let mut out = vec![func];
    for &i in g.file_nodes(&f.path) {
        let n = g.node_at(i);
        if i != func && n.kind.is_callable() && f.span.contains(&n.span) {
            out.push(i);
        }
    }
    out
}

/// The graph's resolved call sites of `callers`: (line, callee name) → targets with the edge tier.
/// Built once per function so linking stays linear in its calls (a function holding thousands of
/// nested functions has thousands of callers and tens of thousands of calls).
fn call_sites<'g>(g: &'g Graph, callers: &[NodeIndex]) -> FxHashMap<(u32, &'g str), Vec<(NodeIndex, Origin)>> {
    let mut out: FxHashMap<(u32, &'g str), Vec<(NodeIndex, Origin)>> = FxHashMap::default();
    for &c in callers {
        for e in g.out_edges(c) {
            if !matches!(e.kind, EdgeKind::Calls | EdgeKind::Instantiates) {
                continue;
            }
            let targets = out.entry((e.line, g.node_at(e.to).name.as_str())).or_default();
            if !targets.iter().any(|(t, _)| *t == e.to) {
                targets.push((e.to, e.origin));
            }
        }
    }
    for targets in out.values_mut() {
        targets.sort_by_key(|&(t, _)| t);
    }
    out
}

/// A callable with facts, or a class's constructor (`constructor`, `__init__`, or a method named
/// like the class).
fn constructor_or_self(g: &Graph, node: NodeIndex, facts: &FxHashMap<NodeIndex, &FnFlow>) -> Option<NodeIndex> {
    if facts.contains_key(&node) {
        return Some(node);
    }
    let n = g.node_at(node);
    if n.kind != NodeKind::Type {
        return None;
    }
    g.out_edges(node)
        .filter(|e| e.kind == EdgeKind::Contains)
        .map(|e| e.to)
        .find(|&m| {
            let name = &g.node_at(m).name;
            facts.contains_key(&m) && (name == "constructor" || name == "__init__" || *name == n.name)
        })
}
