//! The query door of one repository: maps a tool name and JSON arguments onto the traversals
//! (`gortex_graph::query`) and searches (`gortex_search`), and owns the lazily built search
//! indexes. The symbol index is rebuilt on the first query after the graph changed; the trigram
//! index is synchronised with the indexed file list then (only changed files are re-read).
//!
//! One door: [`RepoIndex::query`] maps a tool name onto a pure function over the immutable
//! `Graph` (`gortex_graph::query::*`) or over a search index (`gortex_search::*`); napi's
//! `Engine.query` and every Rust-backed tool reach it. The tools are the rows of [`TOOLS`]
//! (`tool_table!`, `schema.rs`), so a tool's schema and its dispatch cannot disagree. Arguments
//! are deserialised with `deny_unknown_fields`; every failure is a `QueryError { code, message }`
//! whose message names the argument, the bad value and what is accepted.
//!
//! Search indexes are derived and lazy ([`SearchCaches`]):
//! - The `SymbolIndex` is built on the first search after the graph changed (the cache holds a
//!   `Weak` to the graph it was built from, so a replaced graph is noticed by pointer identity);
//!   its tokens are reused chunk by chunk through a `TokenCache` (see `gortex_search::symbols`).
//! - The `TextIndex` is synchronised with the file list on the first text query after a change
//!   and re-reads only files whose content hash changed. Its memory is budgeted
//!   (`GORTEX_TRIGRAM_MAX_MB`, default 256): postings first, then resident contents (evicted
//!   largest first and re-read from disk when a query needs them); a file whose postings do not
//!   fit is scanned on every query, so answers stay exact and only speed drops
//!   (`gortex_search::trigram` has the details).

pub mod schema;

use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_graph::query as q;
use gortex_graph::Graph;
use gortex_search::{BodyIndex, SymbolIndex, TextIndex};
use schema::tool_table;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::sync::{Arc, RwLock, Weak};

/// Default memory budget of the trigram index (`GORTEX_TRIGRAM_MAX_MB` overrides it).
const TEXT_BUDGET_MB: usize = 256;

tool_table! {
    /// Every query tool in a stable order: its name, the description agents read, and its argument
    /// and result types (the schemas `schema::tool_schemas` derives and TypeScript is generated from).
    pub const TOOLS;
    /// Runs the query tool `name`; `None` when there is no such tool.
    fn run_tool(&self, g);

    search_symbols(gortex_search::SearchSymbolsArgs) -> gortex_search::SearchSymbolsResult,
        "Find symbols by name, Owner.name, words or description (camelCase/snake_case aware, typo tolerant, ranked with graph signals). Inline clauses: kind:function flavor:class lang:go path:src/. Use instead of grep for code.",
        |a| if gortex_search::search::reads_bodies(&a) {
            self.with_bodies(|b| gortex_search::search::search_bodies(g, &self.symbol_index(), b, &a))
        } else {
            gortex_search::search_symbols(g, &self.symbol_index(), &a)
        };
    winnow_symbols(gortex_search::WinnowSymbolsArgs) -> gortex_search::WinnowSymbolsResult,
        "Structured retrieval by constraints (kind, language, path prefix, minimum fan-in/fan-out, text, exported, community, minimum git churn) with per-axis score contributions.",
        |a| self.winnow_symbols(g, &a);
    search_text(gortex_search::SearchTextArgs) -> gortex_search::SearchTextResult,
        "Trigram-indexed literal (or regexp: true) text search; each hit carries path, line, column, the line and its enclosing symbol.",
        |a| self.with_text(|t| gortex_search::search_text(t, g, &a));
    find_files(gortex_search::FindFilesArgs) -> gortex_search::FindFilesResult,
        "Find files by name or path (exact > prefix > substring), glob (ts/**/*.test.ts) or fuzzy subsequence; by: content ranks code files by what their text says (a bug report, an error message).",
        |a| if gortex_search::files::reads_content(&a) {
            self.with_bodies(|b| gortex_search::files::find_files_by_content(g, b, &a))
        } else {
            gortex_search::find_files(g, &a)
        };
    search_ast(crate::search_ast::SearchAstArgs) -> crate::search_ast::SearchAstResult,
        "Structural search by AST shape: a tree-sitter S-expression pattern for one language (files narrowed by the literals it names), or a bundled detector by name (the review rules — sql-string-concat, weak-crypto, hardcoded-secret, swallowed-error/empty-catch, null-deref… graph-grounded — and eval-injection); bounded by limit and timeout_ms.",
        |a| self.search_ast(g, &a);
    find_declaration(gortex_search::FindDeclarationArgs) -> gortex_search::FindDeclarationResult,
        "Use-site text (fooBar( or .save() or regex: true) → the declarations it refers to, with the matching use locations and their tiers.",
        |a| self.with_text(|t| gortex_search::find_declaration(t, g, &a));
    get_symbol(q::GetSymbolArgs) -> q::GetSymbolResult,
        "A symbol: location, signature, doc, owner and edge counts. Use instead of reading the file.",
        |a| q::get_symbol(g, &a);
    get_file_summary(q::GetFileSummaryArgs) -> q::GetFileSummaryResult,
        "All symbols (nested, in source order) and imports (with resolution status) of a file.",
        |a| q::get_file_summary(g, &a);
    get_dependencies(q::GetDependenciesArgs) -> q::GetDependenciesResult,
        "What a symbol (or a file, file-level) depends on, 1–3 hops, with per-depth counts.",
        |a| q::get_dependencies(g, &a);
    get_dependents(q::GetDependentsArgs) -> q::GetDependentsResult,
        "What depends on a symbol or file (blast radius), 1–3 hops, with per-depth counts and a caveat when coverage is thin.",
        |a| q::get_dependents(g, &a);
    get_callers(q::GetCallersArgs) -> q::GetCallersResult,
        "Reverse call graph. Carries a caveat (likely_unused, possible_extraction_gap, coverage_incomplete) whenever the answer must not be taken at face value.",
        |a| q::get_callers(g, &a);
    get_call_chain(q::GetCallChainArgs) -> q::GetCallChainResult,
        "Forward call graph from a symbol, with the calls that stayed unresolved.",
        |a| q::get_call_chain(g, &a);
    find_usages(q::FindUsagesArgs) -> q::FindUsagesResult,
        "Every reference to a symbol with its context (call, parameter_type, return_type, field, type, value, import); filter with context. Same caveats as get_callers.",
        |a| q::find_usages(g, &a);
    find_implementations(q::FindImplementationsArgs) -> q::FindImplementationsResult,
        "Types implementing an interface (through sub-interfaces too).",
        |a| q::find_implementations(g, &a);
    find_overrides(q::FindOverridesArgs) -> q::FindOverridesResult,
        "Methods that override (children) or are overridden by (parents) a method.",
        |a| q::find_overrides(g, &a);
    get_class_hierarchy(q::GetClassHierarchyArgs) -> q::GetClassHierarchyResult,
        "Inheritance subgraph around a type, interface or method (up, down or both), optionally with members and their override chains.",
        |a| q::get_class_hierarchy(g, &a);
    get_cluster(q::GetClusterArgs) -> q::GetClusterResult,
        "Bidirectional neighbourhood of a symbol over usage edges.",
        |a| q::get_cluster(g, &a);
    walk_graph(q::WalkGraphArgs) -> q::WalkGraphResult,
        "Token-budgeted traversal from a symbol over chosen edge kinds (out, in or both); reports budget_hit and stopped_at_depth.",
        |a| q::walk_graph(g, &a);
    graph_query(q::GraphQueryArgs) -> q::GraphQueryResult,
        "Read-only graph DSL, stages joined by |: nodes kind=interface name~Handler | traverse implements in | filter path=src/ (sort, limit; five stages at most).",
        |a| q::graph_query(g, &a);
    trace_path(q::TracePathArgs) -> q::TracePathResult,
        "Shortest call paths from one symbol to another with per-hop confidence, or a diagnosis of why there is none.",
        |a| q::trace_path(g, &a);
    find_import_path(q::FindImportPathArgs) -> q::FindImportPathResult,
        "Shortest import chain between two files (paths, file ids, or symbols standing for their files), or a diagnosis of why there is none; with symbol (instead of to), also the import statement that brings it into from, in from's language (or the import already there, or why none is needed).",
        |a| self.find_import_path(g, &a);
    get_communities(gortex_analysis::communities::GetCommunitiesArgs) -> gortex_analysis::communities::GetCommunitiesResult,
        "Functional clusters (Leiden over calls and references, weighted by provenance). Without id: every community with label, size, cohesion and hub. With id (number or label): members, files and neighbouring communities.",
        |a| gortex_analysis::get_communities(g, &self.communities(), &a);
    get_processes(gortex_analysis::GetProcessesArgs) -> gortex_analysis::GetProcessesResult,
        "Execution flows: scored entry points (mains, handlers, commands) with bounded call-tree traces; test flows kept apart. Without id: the list. With id (number or entry name): the step-by-step trace.",
        |a| gortex_analysis::get_processes(g, &self.processes(), &a);
    explain_change_impact(gortex_analysis::impact::ExplainChangeImpactArgs) -> gortex_analysis::impact::ExplainChangeImpactResult,
        "Risk-tiered blast radius of changing symbols or a file: dependents per depth (1–3), affected tests and processes, communities touched, and a caveat when the target has no incoming edges.",
        |a| self.explain_change_impact(&a);
    flow_between(gortex_dataflow::query::FlowBetweenArgs) -> gortex_dataflow::query::FlowBetweenResult,
        "Ranked dataflow paths from a source to a sink (value_flow inside functions, arg_of into callee parameters, returns_to back to callers), each hop with its confidence. Endpoints: a function (its parameters and return), a field, or Symbol#variable such as getUser#req.query.id.",
        |a| gortex_dataflow::query::flow_between(g, &self.flow_graph(), &a);
    taint_paths(gortex_dataflow::query::TaintPathsArgs) -> gortex_dataflow::query::TaintPathsResult,
        "Source → sink dataflow sweep. Without patterns: request input (req.query, request.args, r.URL, getParameter, …) reaching SQL, command or filesystem calls, one finding per sink with its best path. Patterns: words (substring), exact:Name, path:dir/, kind:param|variable|argument|result|return|function|method, space-separated (all must hold).",
        |a| gortex_dataflow::query::taint_paths(g, &self.flow_graph(), &a);
    find_clones(gortex_clones::FindClonesArgs) -> gortex_clones::FindClonesResult,
        "Near-duplicate function/method clusters (MinHash + LSH over normalised tokens, verified Jaccard ≥ min_similarity); dead_only finds dead duplicates of live code.",
        |a| self.find_clones(&a);
    find_co_changing_symbols(gortex_git::cochange::CoChangeArgs) -> gortex_git::cochange::CoChangeResult,
        "Ranked git co-change neighbours of a symbol (or file): symbols whose lines the same commits changed, scored by the cosine of their commit sets, bulk commits left out. Finds coupling the call graph does not show.",
        |a| self.history().and_then(|h| gortex_git::cochange::find_co_changing(g, &h, &a));
    pr_risk(gortex_analysis::pr_risk::PrRiskArgs) -> gortex_analysis::pr_risk::PrRiskResult,
        "One 0–100 risk score and level (LOW…CRITICAL) for a changeset from five axes — blast radius, caller fan-in, coverage gap, security-sensitive names, community span — each explained, and the changed symbols in review order with their reasons.",
        |a| gortex_analysis::pr_risk::pr_risk(g, &self.reach(), &self.communities().map, &a);
    suggest_reviewers(gortex_git::reviewers::SuggestReviewersArgs) -> gortex_git::reviewers::SuggestReviewersResult,
        "Rank who should review a changeset (changed symbols and/or files): CODEOWNERS owners of the changed files, the authors of the changed code's current lines and its last year of commits, and the authors of the code that historically changes with it — one score each with the reasons.",
        |a| self.history().and_then(|h| gortex_git::reviewers::suggest_reviewers(g, &h, &a));
    analyze(crate::analyze::AnalyzeArgs) -> crate::analyze::AnalyzeResult,
        "Whole-repository analyses by kind: dead_code, hotspots, cycles, would_create_cycle, impact, clusters, coverage_gaps (untested), coverage and coverage_summary (from coverage reports), external_calls, routes, env_var_users, contract_sites, todos, health_score, connectivity_health, edge_audit, resolution_outcomes, synthesizers, tests_as_edges, annotation_users, log_events, event_emitters, string_emitters, error_surface, models, domain, components, config_readers, pubsub, sql_call_sites, unreferenced_tables, orphan_tables, sql_rebuild, dbt_models, k8s_resources, images, kustomize, cross_repo, goroutine_spawns, channel_ops, unclosed_channels, race_writes, field_writers, unsafe_patterns, cgo_users, wasm_users, blame, ownership, stale_code, stale_flags, churn, fixes_history, releases, review, named (detector bundles); kind=kinds lists them with their descriptions.",
        |a| self.analyze(a);
}

/// Search indexes derived from the current graph, built on first use.
#[derive(Default)]
pub struct SearchCaches {
    symbols: crate::analyze::GraphSlot<SymbolIndex>,
    /// Tokenised chunks of the last symbol index: the next build re-tokenises only changed ones.
    symbol_tokens: std::sync::Mutex<gortex_search::symbols::TokenCache>,
    text: RwLock<TextState>,
    /// Word counts of function and method bodies (`read_as: "body"`), synchronised on first use
    /// after the graph changed.
    bodies: std::sync::Mutex<BodyState>,
}

impl SearchCaches {
    /// Empty caches whose symbol tokens are `other`'s (shared chunks): an overlay view's first
    /// symbol index then tokenises only the files its buffers changed.
    pub(crate) fn seeded_from(other: &SearchCaches) -> SearchCaches {
        let tokens = other.symbol_tokens.lock().unwrap_or_else(|p| p.into_inner()).clone();
        SearchCaches {
            symbol_tokens: std::sync::Mutex::new(tokens),
            ..Default::default()
        }
    }

    /// Drops every index built so far (the next query that needs one builds it again).
    pub(crate) fn clear(&self) {
        *self.symbols.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.symbol_tokens.lock().unwrap_or_else(|p| p.into_inner()) = Default::default();
        *self.text.write().unwrap_or_else(|p| p.into_inner()) = TextState::default();
        *self.bodies.lock().unwrap_or_else(|p| p.into_inner()) = BodyState::default();
    }
}

#[derive(Default)]
struct BodyState {
    index: BodyIndex,
    /// The graph version the index was last synchronised with.
    synced: Weak<Graph>,
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
    /// The body index behind `read_as: "body"` (word counts and postings of every function body).
    pub bodies_bytes: Option<usize>,
}

impl SearchMemory {
    /// Bytes of every index built so far.
    pub fn total(&self) -> usize {
        [
            self.symbols_bytes,
            self.text_bytes,
            self.clones_bytes,
            self.bodies_bytes,
        ]
        .iter()
        .flatten()
        .sum()
    }
}

/// Deserialises a tool's arguments; an error inside an argument names it (`reason: unknown
/// variant …`), one about the object itself (an unknown or missing key) is serde's own.
pub(crate) fn parse<A: DeserializeOwned>(tool: &str, args: Value) -> Result<A, QueryError> {
    serde_path_to_error::deserialize(args).map_err(|e| {
        let (path, inner) = (e.path().to_string(), e.inner().to_string());
        // An unknown key is reported at its own path and already named in backticks.
        if path == "." || inner.contains(&format!("`{path}`")) {
            QueryError::invalid(format!("{tool}: {inner}"))
        } else {
            QueryError::invalid(format!("{tool}: {path}: {inner}"))
        }
    })
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
        self.run_tool(tool, tool, args).unwrap_or_else(|| {
            let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
            Err(QueryError::invalid(format!(
                "unknown tool \"{tool}\"; query tools: {}",
                names.join(", ")
            )))
        })
    }

    /// `winnow_symbols`, with the community partition and the git history loaded when the
    /// arguments ask for them (`community`, `min_churn`).
    fn winnow_symbols(
        &self,
        g: &Graph,
        args: &gortex_search::WinnowSymbolsArgs,
    ) -> Result<gortex_search::WinnowSymbolsResult, QueryError> {
        let members: Option<rustc_hash::FxHashSet<gortex_graph::NodeIndex>> = match &args.community {
            None => None,
            Some(c) => {
                let id = match c {
                    gortex_search::CommunityRef::Id(n) => gortex_analysis::communities::IdOrName::Number(*n),
                    gortex_search::CommunityRef::Label(l) => gortex_analysis::communities::IdOrName::Name(l.clone()),
                };
                let communities = self.communities();
                let found = gortex_analysis::communities::find_community(&communities, &id)?;
                Some(found.members.iter().copied().collect())
            }
        };
        let churn: Option<rustc_hash::FxHashMap<gortex_graph::NodeIndex, u32>> = match args.min_churn {
            None => None,
            Some(_) => Some(
                self.history()?
                    .subjects
                    .iter()
                    .map(|(&node, subject)| (node, subject.span.len() as u32))
                    .collect(),
            ),
        };
        let cx = gortex_search::WinnowContext {
            community: members.as_ref(),
            churn: churn.as_ref(),
        };
        gortex_search::winnow_symbols(g, &self.symbol_index(), args, &cx)
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
        // Read, else build and read again: a `release_caches` between the two (it needs only the
        // repository's read lock, as this does) sends the loop round once more.
        loop {
            {
                let state = self.search.text.read().unwrap_or_else(|p| p.into_inner());
                if fresh(&state) {
                    return f(state.index.as_ref().expect("checked by fresh"));
                }
            }
            let mut state = self.search.text.write().unwrap_or_else(|p| p.into_inner());
            if !fresh(&state) {
                let files: Vec<(String, u64)> = self.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();
                let index = state.index.get_or_insert_with(|| TextIndex::new(text_budget()));
                index.sync(self.sources(), &files);
                state.synced = Arc::downgrade(&self.graph);
            }
        }
    }

    /// Runs `f` over the body index, first re-reading the files whose bodies changed since it was
    /// last synchronised.
    pub(crate) fn with_bodies<R>(&self, f: impl FnOnce(&BodyIndex) -> R) -> R {
        let mut state = self.search.bodies.lock().unwrap_or_else(|p| p.into_inner());
        if !state.synced.upgrade().is_some_and(|g| Arc::ptr_eq(&g, &self.graph)) {
            let files: Vec<(String, u64)> = self.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();
            state.index.sync(self.sources(), &self.graph, &files);
            state.synced = Arc::downgrade(&self.graph);
        }
        f(&state.index)
    }

    /// Memory held by the search indexes built so far.
    pub fn search_memory(&self) -> SearchMemory {
        // Each index's lock is taken alone (a body search holds `bodies` while it asks for the
        // symbol index): sizes read one after the other never wait on each other.
        let symbols = {
            let symbols = self.search.symbols.lock().unwrap_or_else(|p| p.into_inner());
            symbols.as_ref().map(|(_, i)| Arc::clone(i))
        };
        // The index and the tokens kept for its next build.
        let symbols_bytes = symbols.map(|i| {
            i.memory_bytes()
                + self
                    .search
                    .symbol_tokens
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .memory_bytes()
        });
        let (text_bytes, text_docs) = {
            let text = self.search.text.read().unwrap_or_else(|p| p.into_inner());
            (
                text.index.as_ref().map(|i| i.memory_bytes()),
                text.index.as_ref().map(|i| i.doc_count()),
            )
        };
        let clones = self.clone_memory();
        let bodies_bytes = {
            let b = self.search.bodies.lock().unwrap_or_else(|p| p.into_inner());
            (b.synced.strong_count() > 0 || !b.index.is_empty()).then(|| b.index.memory_bytes())
        };
        SearchMemory {
            symbols_bytes,
            text_bytes,
            text_docs,
            clones_bytes: clones.map(|(bytes, _)| bytes),
            clones_bodies: clones.map(|(_, bodies)| bodies),
            bodies_bytes,
        }
    }
}
