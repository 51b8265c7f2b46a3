//! `analyze`: one dispatcher over the whole-graph analyses (`gortex-analysis`), clone detection
//! (`gortex-clones`) and the text-sourced sweeps (`gortex_search::sites`). The `kind` argument
//! picks the analysis; the remaining arguments belong to it and are checked by it.

use crate::query::{out, parse};
use crate::RepoIndex;
use gortex_analysis::reach::ReachCache;
use gortex_analysis::{Algorithm, Communities, Processes};
use gortex_clones::CloneIndex;
use gortex_core::QueryError;
use gortex_dataflow::layer::{DataflowIndex, FlowGraph};
use gortex_graph::Graph;
use serde_json::Value;
use std::sync::{Arc, Mutex, Weak};

/// Analysis state derived from the current graph, built by the first query that needs it and
/// refreshed when the graph is replaced (the clone index re-reads only files that changed).
#[derive(Default)]
pub struct AnalysisCaches {
    clones: Mutex<CloneState>,
    communities: GraphSlot<Communities>,
    processes: GraphSlot<Processes>,
    /// Reach sets per seed, computed lazily; one cache per graph version.
    reach: GraphSlot<ReachCache>,
    dataflow: Mutex<DataflowState>,
}

#[derive(Default)]
struct DataflowState {
    index: DataflowIndex,
    /// The flow graph linked over the graph version the facts were last synchronised with.
    linked: Option<(Weak<Graph>, Arc<FlowGraph>)>,
}

/// A value derived from one graph version, rebuilt when the graph is replaced.
pub(crate) type GraphSlot<T> = Mutex<Option<(Weak<Graph>, Arc<T>)>>;

/// The value in `slot` for `graph`, built now by `build` when missing or made for another version.
pub(crate) fn cached<T>(slot: &GraphSlot<T>, graph: &Arc<Graph>, build: impl FnOnce(&Graph) -> T) -> Arc<T> {
    let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((weak, value)) = slot.as_ref() {
        if same_graph(weak, graph) {
            return value.clone();
        }
    }
    let value = Arc::new(build(graph));
    *slot = Some((Arc::downgrade(graph), value.clone()));
    value
}

#[derive(Default)]
struct CloneState {
    index: CloneIndex,
    /// The graph version the clone index was last synchronised with.
    synced: Weak<Graph>,
}

impl std::fmt::Debug for AnalysisCaches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisCaches").finish_non_exhaustive()
    }
}

/// True when `weak` points at `current`.
fn same_graph(weak: &Weak<Graph>, current: &Arc<Graph>) -> bool {
    weak.upgrade().is_some_and(|g| Arc::ptr_eq(&g, current))
}

/// Every `analyze` kind with a one-line description, in a stable order.
pub const ANALYZE_KINDS: &[(&str, &str)] = &[
    (
        "dead_code",
        "Symbols nothing uses (entry points, exports, tests, constructors and interface methods excepted), with a confidence each",
    ),
    (
        "hotspots",
        "Functions and methods scored by fan-in, fan-out, community crossings and betweenness (0–100; default threshold mean + 2σ)",
    ),
    (
        "cycles",
        "Import cycles between files/packages and call cycles (mutual recursion), each with a closed path and a severity",
    ),
    (
        "would_create_cycle",
        "Whether a new import (file → file) or call (symbol → symbol) would close a cycle, with the path it would close",
    ),
    (
        "impact",
        "Composite 0–100 change risk (centrality, reach, complexity, community span) for a target's blast radius or the whole repository",
    ),
    (
        "clusters",
        "Community detection with a chosen algorithm (leiden, louvain) and its modularity",
    ),
    (
        "coverage_gaps",
        "Functions and methods no test reaches (graph evidence: test callers within two hops, test files depending on the file); alias untested",
    ),
    (
        "external_calls",
        "Calls and references leaving the repository, grouped by external target with callers and files",
    ),
    (
        "routes",
        "HTTP routes of Express, FastAPI, Flask, Gin, net/http and Spring with their handlers",
    ),
    (
        "env_var_users",
        "Environment variables read in code (process.env, os.environ, os.Getenv, env::var, System.getenv), grouped by variable",
    ),
    (
        "todos",
        "TODO / FIXME / HACK / XXX / BUG / QUESTION marker comments with assignees and their enclosing symbol",
    ),
    (
        "health_score",
        "One 0–100 score and grade from test reach, dead code, cycles, structure and resolution, with each component",
    ),
];

impl RepoIndex {
    /// Runs `f` over the clone index, first synchronising it with the current graph and files.
    pub(crate) fn with_clones<R>(&self, f: impl FnOnce(&CloneIndex) -> R) -> R {
        let mut state = self.analysis.clones.lock().unwrap_or_else(|p| p.into_inner());
        if !same_graph(&state.synced, &self.graph) {
            let files: Vec<(String, u64)> = self.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();
            state.index.sync(&self.root, &self.graph, &files);
            state.synced = Arc::downgrade(&self.graph);
        }
        f(&state.index)
    }

    /// Bytes and bodies held by the clone index, once a query has built it.
    pub(crate) fn clone_memory(&self) -> Option<(usize, usize)> {
        let state = self.analysis.clones.lock().unwrap_or_else(|p| p.into_inner());
        (state.synced.strong_count() > 0 || state.index.body_count() > 0)
            .then(|| (state.index.memory_bytes(), state.index.body_count()))
    }

    /// Leiden communities of the current graph (computed once per graph version).
    pub fn communities(&self) -> Arc<Communities> {
        cached(&self.analysis.communities, &self.graph, |g| {
            gortex_analysis::detect_communities(g, Algorithm::Leiden)
        })
    }

    /// Execution flows of the current graph (computed once per graph version).
    pub fn processes(&self) -> Arc<Processes> {
        cached(
            &self.analysis.processes,
            &self.graph,
            gortex_analysis::discover_processes,
        )
    }

    /// The reach cache of the current graph (a new, empty one after the graph changed).
    pub fn reach(&self) -> Arc<ReachCache> {
        let graph = self.graph.clone();
        cached(&self.analysis.reach, &self.graph, move |_| ReachCache::new(graph))
    }

    /// Runs `find_clones`; `dead_only` is answered with the dead-code set of the current graph.
    pub(crate) fn find_clones(&self, args: Value) -> Result<Value, QueryError> {
        let a: gortex_clones::FindClonesArgs = parse("find_clones", args)?;
        let g = &*self.graph;
        let dead = a.dead_only.then(|| gortex_analysis::deadcode::dead_set(g));
        self.with_clones(|idx| out(gortex_clones::find_clones(g, idx, &a, dead.as_ref())))
    }

    /// The dataflow graph of the current graph version: facts re-extracted for changed files,
    /// then linked through the current graph's calls.
    pub fn flow_graph(&self) -> Arc<FlowGraph> {
        let mut state = self.analysis.dataflow.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((weak, fg)) = &state.linked {
            if same_graph(weak, &self.graph) {
                return fg.clone();
            }
        }
        let files: Vec<(String, u64, gortex_core::Language)> = self
            .files
            .iter()
            .map(|r| (r.path.to_string(), r.hash, r.language))
            .collect();
        state.index.sync(&self.root, &files);
        let fg = Arc::new(state.index.link(&self.graph));
        state.linked = Some((Arc::downgrade(&self.graph), fg.clone()));
        fg
    }

    /// Runs `explain_change_impact` with the communities and flows of the current graph.
    pub(crate) fn explain_change_impact(&self, args: Value) -> Result<Value, QueryError> {
        let a = parse("explain_change_impact", args)?;
        let (communities, processes) = (self.communities(), self.processes());
        out(gortex_analysis::impact::explain_change_impact(
            &self.graph,
            &self.reach(),
            Some(&communities.map),
            Some(&processes.map),
            &a,
        ))
    }

    /// Runs `analyze`: `args.kind` names the analysis, the other keys are its arguments.
    pub(crate) fn analyze(&self, mut args: Value) -> Result<Value, QueryError> {
        let kind = match args.as_object_mut().and_then(|m| m.remove("kind")) {
            Some(Value::String(k)) => k,
            Some(other) => {
                return Err(QueryError::invalid(format!(
                    "analyze: kind must be a string, got {other}"
                )))
            }
            None => {
                return Err(QueryError::invalid(format!(
                    "analyze: kind is required; one of {}",
                    kind_names()
                )))
            }
        };
        let g = &*self.graph;
        let tool = format!("analyze kind={kind}");
        match kind.as_str() {
            "todos" => {
                let a = parse(&tool, args)?;
                self.with_text(|t| out(gortex_search::todos(t, g, &a)))
            }
            "env_var_users" => {
                let a = parse(&tool, args)?;
                self.with_text(|t| out(gortex_search::env_var_users(t, g, &a)))
            }
            "routes" => {
                let a = parse(&tool, args)?;
                self.with_text(|t| out(gortex_search::routes(t, g, &a)))
            }
            "hotspots" => {
                let a = parse(&tool, args)?;
                out(gortex_analysis::hotspots(g, &self.communities().map, &a))
            }
            "clusters" => out(gortex_analysis::clusters(g, &parse(&tool, args)?)),
            "dead_code" => out(gortex_analysis::deadcode::dead_code(g, &parse(&tool, args)?)),
            "cycles" => out(gortex_analysis::cycles::cycles(g, &parse(&tool, args)?)),
            "would_create_cycle" => out(gortex_analysis::cycles::would_create_cycle(g, &parse(&tool, args)?)),
            "impact" => {
                let a = parse(&tool, args)?;
                let communities = self.communities();
                out(gortex_analysis::impact::impact(
                    g,
                    &self.reach(),
                    Some(&communities.map),
                    &a,
                ))
            }
            "external_calls" => out(gortex_analysis::external::external_calls(g, &parse(&tool, args)?)),
            "health_score" => {
                let a = parse(&tool, args)?;
                out(gortex_analysis::health::health_score(g, &self.communities(), &a))
            }
            "kinds" => {
                parse::<NoArgs>(&tool, args)?;
                Ok(serde_json::json!({
                    "kinds": ANALYZE_KINDS
                        .iter()
                        .map(|(kind, description)| serde_json::json!({ "kind": kind, "description": description }))
                        .collect::<Vec<_>>()
                }))
            }
            "coverage_gaps" | "untested" => out(gortex_analysis::coverage::coverage_gaps(g, &parse(&tool, args)?)),
            other => Err(QueryError::invalid(format!(
                "analyze: unknown kind \"{other}\"; kinds: {}",
                kind_names()
            ))),
        }
    }
}

/// Arguments of a kind that takes none.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

fn kind_names() -> String {
    ANALYZE_KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
}
