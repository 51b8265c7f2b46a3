//! Execution flows ("processes"): likely entry points ranked by an entry-point score, each traced
//! forward over `calls` edges into a call tree.
//!
//! **Score** (functions and methods with at least one callee):
//!
//! ```text
//! base        = callees / (callers + 1)            distinct, over calls edges ≥ text_matched
//! score       = base × name × export × caller × entry
//! export      = 1.5 when exported
//! caller      = 2.0 with no callers, 1.3 with at most two
//! entry       = 2.0 when stamped as an entry point (see below)
//! name        = 1.5 for entry-like names: main, run*, start*, serve*, execute*, handle*,
//!               dispatch*, listen*, *Handler, *Command, *Job, *Worker;
//!               0.5 for helper-like names: constructors (constructor, __init__, init, new),
//!               other dunders, names starting with `_`, accessors get*/set*/is*/has*/to*;
//!               1.0 otherwise.  (`run*` means `run`, `runServer`, `run_server`, not `runner`.)
//! ```
//!
//! Callers are symbols (top-level module code is not a caller, so a function only invoked at
//! module level counts as uncalled). **Entry stamps:** `main` (a function named `main`; in Go only
//! in package `main`; a Java `static main` method), `module_call` (invoked from its own file's
//! top-level code — how Python's `if __name__ == "__main__": main()` and a script's trailing
//! `main()` look in the graph), `decorator:<name>` (framework handlers: route/get/post/put/patch/
//! delete/…, `app.*`/`router.*`/`bp.*`, Spring `*Mapping`, click `command`/`group`, …) and
//! `handler_name` (exported `handle*`/`serve*`/`run*`/`*Handler`/`*Command`).
//!
//! **Tests are kept apart:** test symbols (and anything in a test file) are never product
//! entries, never product steps, and do not count as product callers; they form `test`
//! processes with their own budget, listed only on request.
//!
//! **Trace:** depth-first over `calls` edges (tiers ≥ `text_matched`; speculative skipped) to
//! in-repository symbols, callees in call-site order; every node appears once per trace, a repeat
//! is a `revisit` step that is not expanded. Limits per kind: 50 processes, depth 15, 2048 steps
//! per process, 16,384 steps in total; each trace gets at most a fair share of the steps left
//! (left ÷ processes still to trace), so every chosen entry is traced even when early traces are
//! huge. Cut traces report `step_limit`/`depth_limit`, cut lists `process_limit`/`step_limit`.

use crate::communities::{round, IdOrName};
use crate::ProcessMap;
use gortex_core::{EdgeKind, Language, NodeKind, Origin, QueryError};
use gortex_graph::query::common::check_range;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most processes per kind.
pub const MAX_PROCESSES: usize = 50;
/// Deepest step of a trace (the entry is depth 0).
pub const MAX_DEPTH: u32 = 15;
/// Most steps of one trace.
pub const MAX_STEPS_PER_PROCESS: usize = 2048;
/// Most steps over all traces of one kind.
pub const MAX_STEPS_TOTAL: usize = 16_384;

/// Truncation reasons.
pub const STEP_LIMIT: &str = "step_limit";
/// A trace reached [`MAX_DEPTH`] with callees left to expand.
pub const DEPTH_LIMIT: &str = "depth_limit";
/// More candidates than [`MAX_PROCESSES`].
pub const PROCESS_LIMIT: &str = "process_limit";

/// Whether a process starts in product code or in a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProcessKind {
    Product,
    Test,
}

/// One step of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub node: NodeIndex,
    /// Calls from the entry (the entry is 0).
    pub depth: u32,
    /// Line of the call site in the caller (0 for the entry).
    pub via: u32,
    /// Already shown earlier in this trace; not expanded again.
    pub revisit: bool,
}

/// One execution flow.
#[derive(Debug, Clone)]
pub struct Process {
    pub id: u32,
    pub kind: ProcessKind,
    pub entry: NodeIndex,
    /// The entry's qualified name.
    pub name: String,
    pub score: f64,
    /// Why the entry was stamped as one (`main`, `module_call`, `decorator:…`, `handler_name`).
    pub stamp: Option<String>,
    /// The trace, depth-first.
    pub steps: Vec<Step>,
    /// Deepest step.
    pub depth: u32,
    /// Distinct files the steps are declared in.
    pub files: usize,
    /// Limits this trace hit (`step_limit`, `depth_limit`).
    pub truncated: Vec<&'static str>,
}

/// Every execution flow of a graph.
#[derive(Debug, Clone, Default)]
pub struct Processes {
    /// Product processes (ids `0..`), then test processes.
    pub processes: Vec<Process>,
    /// Product entry candidates (score > 0) before the process limit.
    pub candidates: usize,
    /// Test entry candidates before the process limit.
    pub test_candidates: usize,
    /// Limits the product list hit (`process_limit`, `step_limit`).
    pub truncated: Vec<&'static str>,
    /// Limits the test list hit.
    pub test_truncated: Vec<&'static str>,
    /// Processes per node, for impact analysis.
    pub map: ProcessMap,
}

/// Per-node facts the scorer and tracer share.
struct Ctx<'g> {
    g: &'g Graph,
    test: Vec<bool>,
}

impl<'g> Ctx<'g> {
    fn new(g: &'g Graph) -> Ctx<'g> {
        let mut test: Vec<bool> = g.nodes().map(|n| n.is_test).collect();
        for &f in g.files() {
            let file = g.node_at(f);
            if file.is_test {
                for &i in g.file_nodes(&file.path) {
                    test[i as usize] = true;
                }
            }
        }
        Ctx { g, test }
    }

    fn traceable(&self, i: NodeIndex) -> bool {
        let n = self.g.node_at(i);
        n.kind.is_symbol() && !n.external
    }

    /// Distinct callees of `i` with their first call line, in call-site order (then id).
    fn callees(&self, i: NodeIndex, tests: bool) -> Vec<(NodeIndex, u32)> {
        let mut first: FxHashMap<NodeIndex, u32> = FxHashMap::default();
        for e in self.g.out_edges(i) {
            if e.kind != EdgeKind::Calls || e.origin < Origin::TextMatched || e.to == i || !self.traceable(e.to) {
                continue;
            }
            if !tests && self.test[e.to as usize] {
                continue;
            }
            let line = first.entry(e.to).or_insert(e.line);
            *line = (*line).min(e.line);
        }
        let mut out: Vec<(NodeIndex, u32)> = first.into_iter().collect();
        let g = self.g;
        out.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| g.node_at(a.0).id.cmp(&g.node_at(b.0).id)));
        out
    }

    /// Distinct symbol callers of `i` (tests excluded for product entries).
    fn callers(&self, i: NodeIndex, tests: bool) -> usize {
        let mut seen: FxHashSet<NodeIndex> = FxHashSet::default();
        for e in self.g.in_edges(i) {
            if e.kind != EdgeKind::Calls || e.origin < Origin::TextMatched || e.from == i || !self.traceable(e.from) {
                continue;
            }
            if !tests && self.test[e.from as usize] {
                continue;
            }
            seen.insert(e.from);
        }
        seen.len()
    }
}

/// An entry candidate: score, node and entry stamp.
type Candidate = (f64, NodeIndex, Option<String>);

/// Finds and traces the execution flows of `g` (deterministic for a given graph).
pub fn discover_processes(g: &Graph) -> Processes {
    let ctx = Ctx::new(g);
    let scored: Vec<Option<(Candidate, bool)>> = (0..g.node_count() as NodeIndex)
        .into_par_iter()
        .map(|i| {
            let n = g.node_at(i);
            if !n.kind.is_callable() || n.external || !g.is_live(i) {
                return None;
            }
            let is_test = ctx.test[i as usize];
            let callees = ctx.callees(i, is_test).len();
            if callees == 0 {
                return None;
            }
            let callers = ctx.callers(i, is_test);
            let stamp = if is_test { None } else { entry_stamp(g, i) };
            let score = entry_score(callees, callers, n.exported, name_multiplier(&n.name), stamp.is_some());
            Some(((score, i, stamp), is_test))
        })
        .collect();
    let mut product: Vec<Candidate> = Vec::new();
    let mut tests: Vec<Candidate> = Vec::new();
    for (candidate, is_test) in scored.into_iter().flatten() {
        if is_test {
            tests.push(candidate);
        } else {
            product.push(candidate);
        }
    }
    let rank = |v: &mut Vec<Candidate>| {
        v.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then_with(|| g.node_at(a.1).id.cmp(&g.node_at(b.1).id))
        })
    };
    rank(&mut product);
    rank(&mut tests);
    let mut out = Processes {
        candidates: product.len(),
        test_candidates: tests.len(),
        ..Processes::default()
    };
    let mut visited: Vec<u32> = vec![0; g.node_count()];
    let mut epoch = 0u32;
    for (kind, list) in [(ProcessKind::Product, &product), (ProcessKind::Test, &tests)] {
        let mut truncated: Vec<&'static str> = Vec::new();
        if list.len() > MAX_PROCESSES {
            truncated.push(PROCESS_LIMIT);
        }
        let mut budget = MAX_STEPS_TOTAL;
        let chosen = list.len().min(MAX_PROCESSES);
        for (i, (score, entry, stamp)) in list.iter().take(MAX_PROCESSES).enumerate() {
            if budget == 0 {
                if !truncated.contains(&STEP_LIMIT) {
                    truncated.push(STEP_LIMIT);
                }
                break;
            }
            epoch += 1;
            // A fair share of what is left, so a few huge traces cannot starve the later entries.
            let share = (budget / (chosen - i)).max(1);
            let (steps, depth, cut) = trace(&ctx, *entry, kind == ProcessKind::Test, share, &mut visited, epoch);
            budget -= steps.len();
            if cut.contains(&STEP_LIMIT) && budget == 0 && !truncated.contains(&STEP_LIMIT) {
                truncated.push(STEP_LIMIT);
            }
            let files: FxHashSet<&str> = steps.iter().map(|s| &*g.node_at(s.node).path).collect();
            out.processes.push(Process {
                id: out.processes.len() as u32,
                kind,
                entry: *entry,
                name: g.node_at(*entry).qualified.clone(),
                score: *score,
                stamp: stamp.clone(),
                files: files.len(),
                steps,
                depth,
                truncated: cut,
            });
        }
        match kind {
            ProcessKind::Product => out.truncated = truncated,
            ProcessKind::Test => out.test_truncated = truncated,
        }
    }
    let mut map = ProcessMap::default();
    for p in &out.processes {
        map.names.push(p.name.clone());
        for s in &p.steps {
            let ids = map.by_node.entry(s.node).or_default();
            if ids.last() != Some(&p.id) {
                ids.push(p.id);
            }
        }
    }
    out.map = map;
    out
}

/// The entry-point score (see the module doc).
pub fn entry_score(callees: usize, callers: usize, exported: bool, name_mult: f64, stamped: bool) -> f64 {
    if callees == 0 {
        return 0.0;
    }
    let base = callees as f64 / (callers as f64 + 1.0);
    let export = if exported { 1.5 } else { 1.0 };
    let caller = match callers {
        0 => 2.0,
        1 | 2 => 1.3,
        _ => 1.0,
    };
    let entry = if stamped { 2.0 } else { 1.0 };
    base * name_mult * export * caller * entry
}

/// `name` starts with the word `prefix` (case-insensitive): `run`, `runServer`, `run_server`,
/// not `runner`.
fn starts_word(name: &str, prefix: &str) -> bool {
    if name.len() < prefix.len() || !name.is_char_boundary(prefix.len()) {
        return false;
    }
    let (head, rest) = name.split_at(prefix.len());
    head.eq_ignore_ascii_case(prefix)
        && rest
            .chars()
            .next()
            .is_none_or(|c| c == '_' || c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// `name` ends with the word `suffix` (given capitalised): `LoginHandler`, `login_handler`, `Handler`.
fn ends_word(name: &str, suffix: &str) -> bool {
    let lower = suffix.to_ascii_lowercase();
    name == suffix || name == lower || name.ends_with(suffix) || name.ends_with(&format!("_{lower}"))
}

/// The name multiplier of the entry score (see the module doc).
pub fn name_multiplier(name: &str) -> f64 {
    let entry_like = name == "main"
        || ["run", "start", "serve", "execute", "handle", "dispatch", "listen"]
            .iter()
            .any(|p| starts_word(name, p))
        || ["Handler", "Command", "Job", "Worker"]
            .iter()
            .any(|s| ends_word(name, s));
    if entry_like {
        return 1.5;
    }
    let helper_like = matches!(name, "constructor" | "__init__" | "init" | "new")
        || name.starts_with('_')
        || ["get", "set", "is", "has", "to"]
            .iter()
            .any(|p| starts_word(name, p) && name.len() > p.len());
    if helper_like {
        0.5
    } else {
        1.0
    }
}

/// Last segments of decorators that mark framework entry points (lowercase).
const ENTRY_DECORATORS: &[&str] = &[
    "route",
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "all",
    "api_route",
    "websocket",
    "command",
    "group",
    "task",
    "shared_task",
    "requestmapping",
    "getmapping",
    "postmapping",
    "putmapping",
    "deletemapping",
    "patchmapping",
    "messagepattern",
    "eventpattern",
    "subscribemessage",
    "cron",
    "scheduled",
    "kafkalistener",
    "rabbitlistener",
    "jmslistener",
    "eventlistener",
    "grpcmethod",
];

/// First segments of decorators that register handlers on an application object (`@app.x`).
const ENTRY_DECORATOR_OWNERS: &[&str] = &["app", "router", "bp", "blueprint", "api"];

/// Whether a decorator marks a framework entry point.
fn is_entry_decorator(decorator: &str) -> bool {
    let head = decorator
        .split('(')
        .next()
        .unwrap_or(decorator)
        .trim()
        .trim_start_matches('@');
    let segments: Vec<&str> = head.split('.').map(str::trim).filter(|s| !s.is_empty()).collect();
    let Some(last) = segments.last() else { return false };
    let last = last.to_ascii_lowercase();
    if ENTRY_DECORATORS.contains(&last.as_str()) {
        return true;
    }
    segments.len() >= 2 && ENTRY_DECORATOR_OWNERS.contains(&segments[0].to_ascii_lowercase().as_str())
}

/// Why `i` counts as a stamped entry point, if it does (see the module doc).
pub fn entry_stamp(g: &Graph, i: NodeIndex) -> Option<String> {
    let n = g.node_at(i);
    if n.name == "main" {
        let is_main = match (n.kind, n.language) {
            (NodeKind::Function, Some(Language::Go)) => go_package(g, i).as_deref() == Some("main"),
            (NodeKind::Method, Some(Language::Java)) => n.is_static,
            (NodeKind::Function, _) => true,
            _ => false,
        };
        if is_main {
            return Some("main".to_string());
        }
    }
    if let Some(d) = n.decorators.iter().find(|d| is_entry_decorator(d)) {
        return Some(format!("decorator:{d}"));
    }
    let own_file_calls = g.in_edges(i).any(|e| {
        e.kind == EdgeKind::Calls
            && e.origin >= Origin::TextMatched
            && g.node_at(e.from).kind == NodeKind::File
            && g.node_at(e.from).path == n.path
    });
    if own_file_calls {
        return Some("module_call".to_string());
    }
    let handler_name = ["handle", "serve", "run"].iter().any(|p| starts_word(&n.name, p))
        || ["Handler", "Command"].iter().any(|s| ends_word(&n.name, s));
    if n.exported && handler_name {
        return Some("handler_name".to_string());
    }
    None
}

/// The Go package a node's file belongs to.
fn go_package(g: &Graph, i: NodeIndex) -> Option<String> {
    let n = g.node_at(i);
    let file = g
        .file_nodes(&n.path)
        .iter()
        .copied()
        .find(|&f| g.node_at(f).kind == NodeKind::File)?;
    g.in_edges(file)
        .find(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind == NodeKind::Package)
        .map(|e| g.node_at(e.from).name.clone())
}

/// Depth-first trace from `entry`; returns the steps, the deepest depth and the limits hit.
fn trace(
    ctx: &Ctx<'_>,
    entry: NodeIndex,
    tests: bool,
    budget: usize,
    visited: &mut [u32],
    epoch: u32,
) -> (Vec<Step>, u32, Vec<&'static str>) {
    let cap = budget.min(MAX_STEPS_PER_PROCESS);
    let mut steps: Vec<Step> = Vec::new();
    let mut cut: Vec<&'static str> = Vec::new();
    let mut depth_max = 0;
    let mut stack: Vec<Step> = vec![Step {
        node: entry,
        depth: 0,
        via: 0,
        revisit: false,
    }];
    while let Some(mut step) = stack.pop() {
        if steps.len() == cap {
            cut.push(STEP_LIMIT);
            break;
        }
        depth_max = depth_max.max(step.depth);
        if visited[step.node as usize] == epoch {
            step.revisit = true;
            steps.push(step);
            continue;
        }
        visited[step.node as usize] = epoch;
        steps.push(step);
        let callees = ctx.callees(step.node, tests);
        if step.depth == MAX_DEPTH {
            if !callees.is_empty() && !cut.contains(&DEPTH_LIMIT) {
                cut.push(DEPTH_LIMIT);
            }
            continue;
        }
        for &(node, via) in callees.iter().rev() {
            stack.push(Step {
                node,
                depth: step.depth + 1,
                via,
                revisit: false,
            });
        }
    }
    (steps, depth_max, cut)
}

/// Arguments of `get_processes`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetProcessesArgs {
    /// One process by id or entry (id, qualified or bare name); without it, the list.
    #[serde(default)]
    pub id: Option<IdOrName>,
    /// List test processes too (after the product ones); default false. A test process can
    /// always be shown by id.
    #[serde(default)]
    pub include_tests: Option<bool>,
    /// Processes listed (1..=1000, default 50), or steps of one trace (1..=2048, default 500).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One row of the process list.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProcessRow {
    pub id: u32,
    pub name: String,
    pub kind: ProcessKind,
    pub entry: NodeSummary,
    pub score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stamp: Option<String>,
    pub steps: usize,
    pub depth: u32,
    pub files: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<&'static str>,
}

/// The process list.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProcessList {
    /// Processes matching the request (product, plus tests when asked).
    pub total: usize,
    /// Test processes (listed only with `include_tests`).
    pub test_processes: usize,
    pub processes: Vec<ProcessRow>,
    /// Limits discovery hit (`process_limit`, `step_limit`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<&'static str>,
}

/// One step of a shown trace.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StepRow {
    pub depth: u32,
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Line of the call site in the caller; absent for the entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub revisit: bool,
}

/// One process with its trace.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProcessDetail {
    pub id: u32,
    pub name: String,
    pub kind: ProcessKind,
    pub entry: NodeSummary,
    /// The entry's node id (what `id` also accepts, unique across repositories).
    pub entry_point: String,
    pub score: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stamp: Option<String>,
    pub depth: u32,
    /// The files the whole trace passes through, in first-visit order.
    pub files: Vec<String>,
    /// Steps of the whole trace (`steps` holds at most `limit`).
    pub step_count: usize,
    /// At most `limit` steps, depth-first.
    pub steps: Vec<StepRow>,
    /// Limits hit: the trace's own, plus `limit` when steps were cut here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<&'static str>,
}

/// One process (its fields at the top of the answer).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProcessOne {
    #[serde(flatten)]
    pub process: ProcessDetail,
}

/// The answer of `get_processes`: the list, or one trace.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum GetProcessesResult {
    List(ProcessList),
    One(Box<ProcessOne>),
}

/// `get_processes`: the execution flows, or one flow step by step.
pub fn get_processes(g: &Graph, ps: &Processes, args: &GetProcessesArgs) -> Result<GetProcessesResult, QueryError> {
    let include_tests = args.include_tests.unwrap_or(false);
    match &args.id {
        None => {
            let limit = check_range("limit", args.limit, 50, 1, 1000)?;
            let matching: Vec<&Process> = ps
                .processes
                .iter()
                .filter(|p| include_tests || p.kind == ProcessKind::Product)
                .collect();
            let mut truncated = ps.truncated.clone();
            if include_tests {
                for t in &ps.test_truncated {
                    if !truncated.contains(t) {
                        truncated.push(t);
                    }
                }
            }
            Ok(GetProcessesResult::List(ProcessList {
                total: matching.len(),
                test_processes: ps.processes.iter().filter(|p| p.kind == ProcessKind::Test).count(),
                processes: matching
                    .into_iter()
                    .take(limit)
                    .map(|p| ProcessRow {
                        id: p.id,
                        name: p.name.clone(),
                        kind: p.kind,
                        entry: NodeSummary::at(g, p.entry),
                        score: round(p.score, 3),
                        stamp: p.stamp.clone(),
                        steps: p.steps.len(),
                        depth: p.depth,
                        files: p.files,
                        truncated: p.truncated.clone(),
                    })
                    .collect(),
                truncated,
            }))
        }
        Some(id) => {
            let limit = check_range("limit", args.limit, 500, 1, MAX_STEPS_PER_PROCESS)?;
            let p = find_process(g, ps, id)?;
            let mut truncated = p.truncated.clone();
            if p.steps.len() > limit {
                truncated.push("limit");
            }
            Ok(GetProcessesResult::One(Box::new(ProcessOne {
                process: ProcessDetail {
                    id: p.id,
                    name: p.name.clone(),
                    kind: p.kind,
                    entry: NodeSummary::at(g, p.entry),
                    entry_point: g.node_at(p.entry).id.to_string(),
                    score: round(p.score, 3),
                    stamp: p.stamp.clone(),
                    depth: p.depth,
                    files: {
                        let mut seen = std::collections::HashSet::new();
                        p.steps
                            .iter()
                            .map(|s| g.node_at(s.node).path.to_string())
                            .filter(|path| seen.insert(path.clone()))
                            .collect()
                    },
                    step_count: p.steps.len(),
                    steps: p
                        .steps
                        .iter()
                        .take(limit)
                        .map(|s| StepRow {
                            depth: s.depth,
                            node: NodeSummary::at(g, s.node),
                            via: (s.depth > 0).then_some(s.via),
                            revisit: s.revisit,
                        })
                        .collect(),
                    truncated,
                },
            })))
        }
    }
}

fn find_process<'p>(g: &Graph, ps: &'p Processes, id: &IdOrName) -> Result<&'p Process, QueryError> {
    let range = || match ps.processes.len() {
        0 => "the graph has no execution flows (no function calls another)".to_string(),
        n => format!("valid ids are 0..={}", n - 1),
    };
    if let Some(n) = id.number() {
        return usize::try_from(n)
            .ok()
            .and_then(|n| ps.processes.get(n))
            .ok_or_else(|| QueryError::not_found(format!("no process has id {n}; {}", range())));
    }
    let IdOrName::Name(text) = id else {
        unreachable!("numbers are handled above")
    };
    let wanted = text.trim();
    let by_node = gortex_graph::query::common::lookup_id(g, wanted);
    let hits: Vec<&Process> = ps
        .processes
        .iter()
        .filter(|p| Some(p.entry) == by_node || p.name == wanted || g.node_at(p.entry).name == wanted)
        .collect();
    match hits.as_slice() {
        [one] => Ok(one),
        [] => Err(QueryError::not_found(format!(
            "no process starts at {text:?} (give a process id, or the entry's id or qualified name); {}",
            range()
        ))),
        many => Err(QueryError::ambiguous(format!(
            "{text:?} names {} processes; pass one of these ids: {}",
            many.len(),
            many.iter()
                .map(|p| format!("{} ({})", p.id, g.node_at(p.entry).id))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Builder;

    #[test]
    fn entry_score_follows_the_formula() {
        // 4 callees, no callers, exported, stamped main, neutral name: 4 × 1.5 × 2 × 2.
        assert_eq!(entry_score(4, 0, true, 1.0, true), 24.0);
        // 3 callees, 2 callers: 1 × 1.3.
        assert!((entry_score(3, 2, false, 1.0, false) - 1.3).abs() < 1e-12);
        assert_eq!(entry_score(6, 5, false, 0.5, false), 0.5);
        assert_eq!(entry_score(0, 0, true, 1.5, true), 0.0);
    }

    #[test]
    fn names_and_decorators() {
        assert_eq!(name_multiplier("main"), 1.5);
        assert_eq!(name_multiplier("runServer"), 1.5);
        assert_eq!(name_multiplier("run_server"), 1.5);
        assert_eq!(name_multiplier("runner"), 1.0);
        assert_eq!(name_multiplier("LoginHandler"), 1.5);
        assert_eq!(name_multiplier("sync_command"), 1.5);
        assert_eq!(name_multiplier("getUser"), 0.5);
        assert_eq!(name_multiplier("get"), 1.0);
        assert_eq!(name_multiplier("settle"), 1.0);
        assert_eq!(name_multiplier("__init__"), 0.5);
        assert_eq!(name_multiplier("_helper"), 0.5);
        assert_eq!(name_multiplier("total"), 1.0);
        for d in [
            "app.route",
            "router.get",
            "Get",
            "GetMapping",
            "click.command",
            "cli.group",
            "app.middleware",
        ] {
            assert!(is_entry_decorator(d), "{d}");
        }
        for d in ["property", "staticmethod", "functools.cache", "Injectable", "Component"] {
            assert!(!is_entry_decorator(d), "{d}");
        }
    }

    /// A chain f0 → f1 → … → f19, plus f3 → f1 (a back edge).
    fn chain() -> Graph {
        let mut b = Builder::new();
        let f: Vec<NodeIndex> = (0..20).map(|i| b.func("c.ts", &format!("f{i}"))).collect();
        for w in f.windows(2) {
            b.call(w[0], w[1], 1);
        }
        b.call(f[3], f[1], 2);
        b.build()
    }

    #[test]
    fn traces_stop_at_depth_fifteen_and_mark_revisits() {
        let g = chain();
        let ps = discover_processes(&g);
        let p = &ps.processes[0];
        assert_eq!(p.name, "f0");
        assert_eq!(p.kind, ProcessKind::Product);
        assert_eq!(p.depth, MAX_DEPTH);
        assert_eq!(p.truncated, vec![DEPTH_LIMIT]);
        let shown: Vec<(String, u32, bool)> = p
            .steps
            .iter()
            .take(6)
            .map(|s| (g.node_at(s.node).name.clone(), s.depth, s.revisit))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("f0".into(), 0, false),
                ("f1".into(), 1, false),
                ("f2".into(), 2, false),
                ("f3".into(), 3, false),
                ("f4".into(), 4, false),
                ("f5".into(), 5, false),
            ]
        );
        // f3 calls f4 (line 1) before f1 (line 2); f1 is a revisit after f4's subtree.
        let revisit = p.steps.iter().find(|s| s.revisit).unwrap();
        assert_eq!(
            (g.node_at(revisit.node).name.as_str(), revisit.depth, revisit.via),
            ("f1", 4, 2)
        );
        assert_eq!(p.steps.len(), 17);
        assert_eq!(ps.map.names[0], "f0");
        assert_eq!(ps.map.by_node.get(&p.entry), Some(&vec![0]));
    }

    #[test]
    fn get_processes_rejects_bad_input() {
        let g = chain();
        let ps = discover_processes(&g);
        let run = |v: serde_json::Value| get_processes(&g, &ps, &serde_json::from_value(v).unwrap());
        let e = run(serde_json::json!({"id": 500})).unwrap_err();
        assert_eq!(e.code, "not_found");
        assert!(
            e.message
                .contains(&format!("valid ids are 0..={}", ps.processes.len() - 1)),
            "{}",
            e.message
        );
        let e = run(serde_json::json!({"id": "nothing"})).unwrap_err();
        assert_eq!(e.code, "not_found");
        assert_eq!(
            run(serde_json::json!({"limit": 0})).unwrap_err().message,
            "limit must be 1..=1000, got 0"
        );
        assert_eq!(
            run(serde_json::json!({"id": 0, "limit": 3000})).unwrap_err().message,
            "limit must be 1..=2048, got 3000"
        );
        let one = serde_json::to_value(run(serde_json::json!({"id": "f0", "limit": 2})).unwrap()).unwrap();
        assert_eq!(one["steps"].as_array().unwrap().len(), 2);
        assert_eq!(one["steps"][0]["id"], one["entry_point"]);
        assert_eq!(one["steps"][0]["depth"], 0);
        assert_eq!(one["step_count"], 17);
        assert_eq!(one["truncated"], serde_json::json!(["depth_limit", "limit"]));
    }
}
