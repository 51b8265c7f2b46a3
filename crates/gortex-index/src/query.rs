//! The query door of one repository: maps a tool name and JSON arguments onto the traversals
//! (`gortex_graph::query`) and searches (`gortex_search`), and owns the lazily built search
//! indexes. The symbol index is rebuilt on the first query after the graph changed; the trigram
//! index is synchronised with the indexed file list then (only changed files are re-read).

use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_graph::query as q;
use gortex_graph::Graph;
use gortex_search::{SymbolIndex, TextIndex};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::sync::{Arc, RwLock, Weak};

/// Default memory budget of the trigram index (`GORTEX_TRIGRAM_MAX_MB` overrides it).
const TEXT_BUDGET_MB: usize = 256;

/// Every query tool with a one-line description, in a stable order.
pub const TOOLS: &[(&str, &str)] = &[
    (
        "search_symbols",
        "Find symbols by name, words or description (BM25 + graph-aware rerank)",
    ),
    (
        "winnow_symbols",
        "Constraint-chain retrieval (kind, language, path, fan-in/out, text) with per-axis scores",
    ),
    (
        "search_text",
        "Trigram-indexed literal or regex text search; hits carry their enclosing symbol",
    ),
    ("find_files", "Find files by name, path, glob or fuzzy subsequence"),
    (
        "find_declaration",
        "Use-site text or regex → the declarations it refers to",
    ),
    (
        "get_symbol",
        "One symbol: location, signature, doc, owner and edge counts",
    ),
    ("get_file_summary", "All symbols and imports of a file"),
    ("get_dependencies", "What a symbol or file depends on (depth 1–3)"),
    (
        "get_dependents",
        "What depends on a symbol or file (depth 1–3, blast radius)",
    ),
    (
        "get_callers",
        "Reverse call graph, with a caveat when the answer is thin",
    ),
    ("get_call_chain", "Forward call graph, with the unresolved calls listed"),
    (
        "find_usages",
        "Every reference to a symbol with its context (call, parameter_type, field, …)",
    ),
    ("find_implementations", "Types implementing an interface"),
    ("find_overrides", "Methods overriding, or overridden by, a method"),
    (
        "get_class_hierarchy",
        "Inheritance subgraph around a type, interface or method",
    ),
    ("get_cluster", "Bidirectional neighbourhood over usage edges"),
    ("walk_graph", "Token-budgeted traversal over chosen edge kinds"),
    (
        "graph_query",
        "Small read-only DSL: nodes … | traverse … | filter … (five stages at most)",
    ),
    (
        "trace_path",
        "Shortest call paths from one symbol to another, or why there is none",
    ),
    ("find_import_path", "Shortest import chain between two files"),
    (
        "get_communities",
        "Functional clusters (Leiden): list, or one community's members, files and neighbours",
    ),
    (
        "get_processes",
        "Execution flows from scored entry points: list, or one flow's call-tree trace",
    ),
    (
        "explain_change_impact",
        "Risk-tiered blast radius of a change: dependents per depth, tests, flows, communities",
    ),
    (
        "flow_between",
        "Ranked dataflow paths between two symbols (value_flow, arg_of, returns_to)",
    ),
    (
        "taint_paths",
        "Source → sink dataflow sweep: request input → SQL / command / filesystem by default",
    ),
    (
        "find_clones",
        "Near-duplicate function/method clusters (MinHash + LSH, verified Jaccard)",
    ),
    (
        "analyze",
        "Whole-repository analyses by kind (`kind: \"kinds\"` lists them): dead code, hotspots, cycles, impact, routes, …",
    ),
];

/// Search indexes derived from the current graph, built on first use.
#[derive(Default)]
pub struct SearchCaches {
    symbols: crate::analyze::GraphSlot<SymbolIndex>,
    /// Tokenised chunks of the last symbol index: the next build re-tokenises only changed ones.
    symbol_tokens: std::sync::Mutex<gortex_search::symbols::TokenCache>,
    text: RwLock<TextState>,
}

#[derive(Default)]
struct TextState {
    index: Option<TextIndex>,
    /// The graph version the index was last synchronised with.
    synced: Weak<Graph>,
}

impl std::fmt::Debug for SearchCaches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchCaches").finish_non_exhaustive()
    }
}

/// Memory held by the search indexes (bytes; `None` while not built).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct SearchMemory {
    pub symbols_bytes: Option<usize>,
    pub text_bytes: Option<usize>,
    pub text_docs: Option<usize>,
    /// The clone index (MinHash signatures and shingle sets of every function body).
    pub clones_bytes: Option<usize>,
    pub clones_bodies: Option<usize>,
}

pub(crate) fn parse<A: DeserializeOwned>(tool: &str, args: Value) -> Result<A, QueryError> {
    serde_json::from_value(args).map_err(|e| QueryError::invalid(format!("{tool}: {e}")))
}

pub(crate) fn out<R: Serialize>(result: Result<R, QueryError>) -> Result<Value, QueryError> {
    let value = result?;
    serde_json::to_value(value).map_err(|e| QueryError {
        code: "internal",
        message: e.to_string(),
    })
}

fn text_budget() -> usize {
    std::env::var("GORTEX_TRIGRAM_MAX_MB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(TEXT_BUDGET_MB)
        .saturating_mul(1 << 20)
}

impl RepoIndex {
    /// Runs one query tool. `args` is a JSON object (or null); a `repo` key is ignored here
    /// (the caller already chose this repository). Unknown tools and bad arguments answer with
    /// `invalid_argument` naming what was wrong.
    pub fn query(&self, tool: &str, args: Value) -> Result<Value, QueryError> {
        let mut args = match args {
            Value::Null => Value::Object(Default::default()),
            Value::Object(map) => Value::Object(map),
            other => {
                return Err(QueryError::invalid(format!(
                    "{tool}: arguments must be a JSON object, got {other}"
                )))
            }
        };
        if let Some(map) = args.as_object_mut() {
            map.remove("repo");
        }
        let g: &Graph = &self.graph;
        match tool {
            "search_symbols" => {
                let a = parse(tool, args)?;
                out(gortex_search::search_symbols(g, &self.symbol_index(), &a))
            }
            "winnow_symbols" => {
                let a = parse(tool, args)?;
                out(gortex_search::winnow_symbols(g, &self.symbol_index(), &a))
            }
            "find_files" => out(gortex_search::find_files(g, &parse(tool, args)?)),
            "search_text" => {
                let a = parse(tool, args)?;
                self.with_text(|t| out(gortex_search::search_text(t, g, &a)))
            }
            "find_declaration" => {
                let a = parse(tool, args)?;
                self.with_text(|t| out(gortex_search::find_declaration(t, g, &a)))
            }
            "get_symbol" => out(q::get_symbol(g, &parse(tool, args)?)),
            "get_file_summary" => out(q::get_file_summary(g, &parse(tool, args)?)),
            "get_dependencies" => out(q::get_dependencies(g, &parse(tool, args)?)),
            "get_dependents" => out(q::get_dependents(g, &parse(tool, args)?)),
            "get_callers" => out(q::get_callers(g, &parse(tool, args)?)),
            "get_call_chain" => out(q::get_call_chain(g, &parse(tool, args)?)),
            "find_usages" => out(q::find_usages(g, &parse(tool, args)?)),
            "find_implementations" => out(q::find_implementations(g, &parse(tool, args)?)),
            "find_overrides" => out(q::find_overrides(g, &parse(tool, args)?)),
            "get_class_hierarchy" => out(q::get_class_hierarchy(g, &parse(tool, args)?)),
            "get_cluster" => out(q::get_cluster(g, &parse(tool, args)?)),
            "walk_graph" => out(q::walk_graph(g, &parse(tool, args)?)),
            "graph_query" => out(q::graph_query(g, &parse(tool, args)?)),
            "trace_path" => out(q::trace_path(g, &parse(tool, args)?)),
            "find_import_path" => out(q::find_import_path(g, &parse(tool, args)?)),
            "get_communities" => {
                let a = parse(tool, args)?;
                out(gortex_analysis::get_communities(g, &self.communities(), &a))
            }
            "get_processes" => {
                let a = parse(tool, args)?;
                out(gortex_analysis::get_processes(g, &self.processes(), &a))
            }
            "explain_change_impact" => self.explain_change_impact(args),
            "flow_between" => {
                let a = parse(tool, args)?;
                out(gortex_dataflow::query::flow_between(g, &self.flow_graph(), &a))
            }
            "taint_paths" => {
                let a = parse(tool, args)?;
                out(gortex_dataflow::query::taint_paths(g, &self.flow_graph(), &a))
            }
            "find_clones" => self.find_clones(args),
            "analyze" => self.analyze(args),
            other => {
                let names: Vec<&str> = TOOLS.iter().map(|(n, _)| *n).collect();
                Err(QueryError::invalid(format!(
                    "unknown tool \"{other}\"; query tools: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// The symbol index of the current graph, built now if the graph changed since.
    pub fn symbol_index(&self) -> Arc<SymbolIndex> {
        crate::analyze::cached(&self.search.symbols, &self.graph, |g| {
            let mut tokens = self.search.symbol_tokens.lock().unwrap_or_else(|p| p.into_inner());
            SymbolIndex::build_reusing(g, &mut tokens)
        })
    }

    /// Runs `f` over the trigram index, first building it or re-reading the files that changed
    /// since it was last synchronised.
    pub(crate) fn with_text<R>(&self, f: impl FnOnce(&TextIndex) -> R) -> R {
        let fresh = |state: &TextState| {
            state.index.is_some() && state.synced.upgrade().is_some_and(|g| Arc::ptr_eq(&g, &self.graph))
        };
        {
            let state = self.search.text.read().unwrap_or_else(|p| p.into_inner());
            if fresh(&state) {
                return f(state.index.as_ref().expect("checked by fresh"));
            }
        }
        {
            let mut state = self.search.text.write().unwrap_or_else(|p| p.into_inner());
            if !fresh(&state) {
                let files: Vec<(String, u64)> = self.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();
                let index = state.index.get_or_insert_with(|| TextIndex::new(text_budget()));
                index.sync(&self.root, &files);
                state.synced = Arc::downgrade(&self.graph);
            }
        }
        // The graph cannot change while the caller holds this index (callers hold the repository's
        // read lock), so the state is still fresh here.
        let state = self.search.text.read().unwrap_or_else(|p| p.into_inner());
        f(state.index.as_ref().expect("synchronised above"))
    }

    /// Memory held by the search indexes built so far.
    pub fn search_memory(&self) -> SearchMemory {
        let symbols = self.search.symbols.lock().unwrap_or_else(|p| p.into_inner());
        let text = self.search.text.read().unwrap_or_else(|p| p.into_inner());
        let clones = self.clone_memory();
        SearchMemory {
            // The index and the tokens kept for its next build.
            symbols_bytes: symbols.as_ref().map(|(_, i)| {
                i.memory_bytes()
                    + self
                        .search
                        .symbol_tokens
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .memory_bytes()
            }),
            text_bytes: text.index.as_ref().map(|i| i.memory_bytes()),
            text_docs: text.index.as_ref().map(|i| i.doc_count()),
            clones_bytes: clones.map(|(bytes, _)| bytes),
            clones_bodies: clones.map(|(_, bodies)| bodies),
        }
    }
}
