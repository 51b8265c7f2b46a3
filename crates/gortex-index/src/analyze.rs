//! `analyze`: one dispatcher over the whole-graph analyses (`gortex-analysis`), clone detection
//! (`gortex-clones`) and the text-sourced sweeps (`gortex_search::sites`). The `kind` argument
//! picks the analysis; the remaining arguments belong to it and are checked by it.
//!
//! `analyze` is one query tool whose `kind` picks the analysis ([`ANALYZE_KINDS`]; `kind:
//! "kinds"` lists them); `find_clones`, `get_communities`, `get_processes` and
//! `explain_change_impact` are tools of their own. Everything is computed from the immutable
//! graph (plus file text for clones and the text-sourced kinds) and cached per graph version:
//!
//! - **Per-graph caches** ([`AnalysisCaches`]): Leiden communities, processes and the reach cache
//!   are built by the first query that needs them and kept in a slot holding a `Weak` to their
//!   graph; a replaced graph is noticed by pointer identity and the value rebuilt (never served
//!   stale). The clone index is synchronised like the trigram index: only files whose content
//!   hash (or whose function spans) changed are re-read. `clusters` (algorithm choice) always
//!   detects afresh.
//! - **Hand-offs.** Analyses that need another's result take it as an argument: hotspots and
//!   impact take the `CommunityMap`, impact takes the `ProcessMap`, `find_clones dead_only` takes
//!   the dead set, `health_score` composes coverage, dead code, cycles, modularity and
//!   resolution. No analysis calls the dispatcher.
//! - **Evidence is labelled.** Graph analyses answer `evidence: "graph"`-level facts; `routes`,
//!   `env_var_users` and `todos` are regex sweeps over the trigram index and say
//!   `evidence: "text"`. Dead code reports a `confidence` per row and its `blind_spots` (uses the
//!   extractors never record).
//! - **Bounds.** Processes: 50 per kind, depth 15, 2,048 steps each and 16,384 in total, each
//!   trace limited to a fair share of what is left. Reach: 5,000 edges or 3 s per seed, then a
//!   flagged lower bound. Betweenness: exact up to 4,096 nodes, 256 hashed pivots above. Clone
//!   LSH: buckets over 256 bodies skipped and counted. Every cut is reported (`truncated`,
//!   `step_limit`, …).
//! - **Dataflow** is a derived layer, not part of the code graph or its snapshot: the first
//!   `flow_between`/`taint_paths` after a graph change re-extracts facts for changed files (a
//!   second tree-sitter pass with the `gortex-dataflow` walkers, keyed by content hash) and
//!   re-links the whole flow graph against the current code graph. Flow nodes are a function's
//!   parameters, variables/access paths, return, and each call's arguments and result; edges are
//!   `value_flow` (inside a function, and access-path prefixes `req` → `req.query`), `arg_of` and
//!   `returns_to` (through the call edges the resolver produced, weighted by their tier), and a
//!   0.5-confidence pass-through across calls nothing resolved (library calls), stopped by
//!   sanitizer names. Walks match calls with returns one level deep; the graph is
//!   flow-insensitive and says so.

use crate::query::schema::{self, tool_table, ToolSpec};
use crate::query::{out, parse};
use crate::RepoIndex;
use gortex_analysis::impact::{ExplainChangeImpactArgs, ExplainChangeImpactResult};
use gortex_analysis::reach::ReachCache;
use gortex_analysis::{Algorithm, Communities, Processes};
use gortex_clones::{CloneIndex, FindClonesArgs, FindClonesResult};
use gortex_core::QueryError;
use gortex_dataflow::layer::{DataflowIndex, FlowGraph};
use gortex_graph::Graph;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;
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
    /// Every contract site of a graph version (`contract_sites` without narrowing).
    contract_sites: GraphSlot<gortex_search::contracts::ContractSitesResult>,
    dataflow: Mutex<DataflowState>,
    /// Coverage reports parsed, by path (kept while their size and mtime hold).
    pub(crate) coverage_reports: crate::coverage_reports::ReportCache,
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

impl AnalysisCaches {
    /// Drops every analysis computed so far (each is built again by the next query needing it).
    pub(crate) fn clear(&self) {
        *self.clones.lock().unwrap_or_else(|p| p.into_inner()) = CloneState::default();
        *self.communities.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.processes.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.reach.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.contract_sites.lock().unwrap_or_else(|p| p.into_inner()) = None;
        *self.dataflow.lock().unwrap_or_else(|p| p.into_inner()) = DataflowState::default();
        self.coverage_reports.clear();
    }
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

tool_table! {
    /// Every `analyze` kind in a stable order: its name, its description, and its argument and
    /// result types. `kind: "kinds"` lists them; [`ANALYZE_ALIASES`] names the same kinds again.
    pub const ANALYZE_KINDS;
    /// Runs the `analyze` kind `name`; `None` when there is no such kind.
    fn run_kind(&self, g);

    dead_code(gortex_analysis::deadcode::DeadCodeArgs) -> gortex_analysis::deadcode::DeadCodeResult,
        "Symbols nothing uses (entry points, exports, tests, constructors and interface methods excepted), with a confidence each",
        |a| gortex_analysis::deadcode::dead_code(g, &a);
    hotspots(gortex_analysis::HotspotsArgs) -> gortex_analysis::HotspotsResult,
        "Functions and methods scored by fan-in, fan-out, community crossings and betweenness (0–100; default threshold mean + 2σ)",
        |a| gortex_analysis::hotspots(g, &self.communities().map, &a);
    cycles(gortex_analysis::cycles::CyclesArgs) -> gortex_analysis::cycles::CyclesResult,
        "Import cycles between files/packages and call cycles (mutual recursion), each with a closed path and a severity",
        |a| gortex_analysis::cycles::cycles(g, &a);
    would_create_cycle(gortex_analysis::cycles::WouldCreateCycleArgs) -> gortex_analysis::cycles::WouldCreateCycleResult,
        "Whether a new import (file → file) or call (symbol → symbol) would close a cycle, with the path it would close",
        |a| gortex_analysis::cycles::would_create_cycle(g, &a);
    impact(gortex_analysis::impact::ImpactArgs) -> gortex_analysis::impact::ImpactResult,
        "Composite 0–100 change risk (centrality, reach, complexity, community span) for a target's blast radius or the whole repository",
        |a| gortex_analysis::impact::impact(g, &self.reach(), Some(&self.communities().map), &a);
    clusters(gortex_analysis::ClustersArgs) -> gortex_analysis::ClustersResult,
        "Community detection with a chosen algorithm (leiden, louvain, spectral) and its modularity",
        |a| gortex_analysis::clusters(g, &a);
    connectivity_health(gortex_analysis::connectivity::ConnectivityHealthArgs) -> gortex_analysis::connectivity::ConnectivityHealthResult,
        "How well the graph holds together: isolated, leaf, source-only and sink-only nodes by kind, files ranked by their dead weight, and the connected components with the islands outside the largest (an extraction-quality signal, not dead code)",
        |a| gortex_analysis::connectivity::connectivity_health(g, &a);
    edge_audit(gortex_analysis::edge_audit::EdgeAuditArgs) -> gortex_analysis::edge_audit::EdgeAuditResult,
        "Edges by kind and evidence tier, the share of calls bound on strong evidence and of call sites bound at all, with samples of unimplemented interfaces, functions only tests call and calls bound by name alone",
        |a| gortex_analysis::edge_audit::edge_audit(g, &a);
    resolution_outcomes(gortex_analysis::resolution::ResolutionOutcomesArgs) -> gortex_analysis::resolution::ResolutionOutcomesResult,
        "Why unresolved references stayed unresolved: ambiguous_multi_match, candidate_out_of_scope, cross_language_only, stub_only or no_definition, with counts, rows and the names failing most",
        |a| gortex_analysis::resolution::resolution_outcomes(g, &a);
    synthesizers(gortex_analysis::synthesizers::SynthesizersArgs) -> gortex_analysis::synthesizers::SynthesizersResult,
        "Framework-dispatch edges rolled up by the pass that synthesized them: route handlers (Express, Koa, Fastify, Flask, FastAPI), event listeners, rendered JSX components, NestJS/Angular DI providers, FastAPI dependencies, pytest fixtures — real calls/instantiates edges the framework makes, with counts, tiers and samples",
        |a| gortex_analysis::synthesizers::synthesizers(g, &a);
    tests_as_edges(gortex_analysis::test_edges::TestsAsEdgesArgs) -> gortex_analysis::test_edges::TestsAsEdgesResult,
        "The tests edges (test → the code it calls) grouped by tested symbol with its tests, or by test with what it covers",
        |a| gortex_analysis::test_edges::tests_as_edges(g, &a);
    coverage_gaps(gortex_analysis::coverage::CoverageGapsArgs) -> gortex_analysis::coverage::CoverageGapsResult,
        "Functions and methods no test reaches (graph evidence: test callers within two hops, test files depending on the file); alias untested",
        |a| gortex_analysis::coverage::coverage_gaps(g, &a);
    coverage(gortex_analysis::measured::CoverageArgs) -> gortex_analysis::measured::CoverageResult,
        "Measured coverage from the reports test runs write (LCOV, Cobertura, JaCoCo, Go cover profiles, coverage.py JSON): functions and methods with the share of their lines a test executed, least covered first",
        |a| self.with_coverage(a.reports.as_deref(), |r, m| gortex_analysis::measured::coverage(g, r, m, &a));
    coverage_summary(gortex_analysis::measured::CoverageSummaryArgs) -> gortex_analysis::measured::CoverageSummaryResult,
        "Measured line and function coverage from the coverage reports, in total and per directory or file, least covered first",
        |a| self.with_coverage(a.reports.as_deref(), |r, m| gortex_analysis::measured::coverage_summary(g, r, m, &a));
    external_calls(gortex_analysis::external::ExternalCallsArgs) -> gortex_analysis::external::ExternalCallsResult,
        "Calls and references leaving the repository, grouped by external target with callers and files",
        |a| gortex_analysis::external::external_calls(g, &a);
    routes(gortex_search::RoutesArgs) -> gortex_search::sites::RoutesResult,
        "HTTP routes of Express, FastAPI, Flask, Gin, net/http and Spring with their handlers",
        |a| self.with_text(|t| gortex_search::routes(t, g, &a));
    env_var_users(gortex_search::EnvVarUsersArgs) -> gortex_search::sites::EnvVarUsersResult,
        "Environment variables read in code (process.env, os.environ, os.Getenv, env::var, System.getenv), grouped by variable",
        |a| self.with_text(|t| gortex_search::env_var_users(t, g, &a));
    contract_sites(gortex_search::ContractSitesArgs) -> gortex_search::contracts::ContractSitesResult,
        "Service-contract sites of this repository: HTTP routes and the HTTP calls made (fetch, axios, requests, net/http, RestTemplate…), gRPC services in .proto and their servers and clients, GraphQL schema fields and operations, message topics published and subscribed (Kafka, NATS, RabbitMQ, SNS/SQS), WebSocket events emitted and handled, environment variables defined and read, OpenAPI operations — each with a canonical key for matching across repositories",
        |a| self.contract_sites(g, a);
    todos(gortex_search::TodosArgs) -> gortex_search::sites::TodosResult,
        "TODO / FIXME / HACK / XXX / BUG / QUESTION marker comments with assignees and their enclosing symbol",
        |a| self.with_text(|t| gortex_search::todos(t, g, &a));
    health_score(gortex_analysis::health::HealthScoreArgs) -> gortex_analysis::health::HealthScoreResult,
        "One 0–100 score and grade from test reach, dead code, cycles, structure and resolution, with each component",
        |a| gortex_analysis::health::health_score(g, &self.communities(), &a);
    annotation_users(gortex_analysis::annotations::AnnotationUsersArgs) -> gortex_analysis::annotations::AnnotationUsersResult,
        "The symbols each decorator or annotation is put on (Python and TypeScript decorators, Java, Kotlin and C# annotations), by its bare name, with kinds and languages",
        |a| gortex_analysis::annotations::annotation_users(g, &a);
    log_events(crate::events::LogEventsArgs) -> crate::events::LogEventsResult,
        "Log calls with a literal message (Go log/slog/loggers, Python logging, console and loggers in JS/TS, Java loggers, Rust log macros) grouped by message, with level, function and sites",
        |a| self.log_events(g, &a);
    event_emitters(crate::events::EventEmittersArgs) -> crate::events::EventEmittersResult,
        "Events named by a string (emit / on / once / addEventListener / CustomEvent in JS/TS, emit / on in Python) paired by name: emitters, listeners, and the events only one side names",
        |a| self.event_emitters(g, &a);
    domain(gortex_analysis::domains::DomainArgs) -> gortex_analysis::domains::DomainResult,
        "The business domains of the code from its type names (OrderService, OrderRepository and CreateOrderRequest belong to order; technical names to none), each with its types by role, files, directories, and the domains it depends on and is used by through the graph",
        |a| gortex_analysis::domains::domains(g, &a);
    models(gortex_analysis::models::ModelsArgs) -> gortex_analysis::models::ModelsResult,
        "ORM and schema models (Django, SQLAlchemy, SQLModel, Sequelize, ActiveRecord, MongoEngine, Pydantic, JPA, TypeORM, Mongoose, EF Core, GORM) found by what they extend, embed or are annotated with, with their fields",
        |a| gortex_analysis::models::models(g, &a);
    components(gortex_analysis::components::ComponentsArgs) -> gortex_analysis::components::ComponentsResult,
        "UI components across frameworks (React, Preact and Solid JSX, Vue, Svelte, Angular, Stencil, Lit and custom elements, SwiftUI, Jetpack Compose, Flutter, Blazor) with the components each renders, how many render or use it, and the ones nothing uses",
        |a| gortex_analysis::components::components(g, &a);
    error_surface(crate::errors::ErrorSurfaceArgs) -> crate::errors::ErrorSurfaceResult,
        "The errors a function can surface: those it raises (raise, throw, throws, Go error returns and sentinels, Rust Err and panic) and those its callees raise a few resolved calls deep, calls inside try bodies taken as handled; without a symbol, the functions raising the most distinct errors",
        |a| self.error_surface(g, &a);
    string_emitters(crate::strings::StringEmittersArgs) -> crate::strings::StringEmittersResult,
        "Strings emitted for others to read, grouped by value: metric names (Prometheus, OpenTelemetry, StatsD/Datadog, Micrometer, Rust metrics), literal error messages (errors.New/fmt.Errorf, raise, new Error, new Exception, anyhow!/bail!) and translation keys (t, $t, formatMessage, gettext), with how each is made and its emitters",
        |a| self.string_emitters(g, &a);
    config_readers(crate::events::ConfigReadersArgs) -> crate::events::ConfigReadersResult,
        "Configuration keys read in code (viper/koanf, Python config and configparser, node-config and NestJS ConfigService, Spring getProperty and @Value, Typesafe config, Rust config) with their readers",
        |a| self.config_readers(g, &a);
    pubsub(crate::events::PubsubArgs) -> crate::events::PubsubResult,
        "Message-broker topics (Kafka, NATS, RabbitMQ, SNS/SQS, Redis pub/sub) paired by topic: publishers, subscribers, and the topics only one side names here",
        |a| self.pubsub(g, &a);
    sql_call_sites(crate::sql_sites::SqlCallSitesArgs) -> crate::sql_sites::SqlCallSitesResult,
        "SQL strings in code (Go, Python, JS/TS, Java, Rust, C#) with their verb, the tables they name and their function",
        |a| self.sql_call_sites(g, &a);
    unreferenced_tables(crate::sql_sites::TableAuditArgs) -> crate::sql_sites::UnreferencedTablesResult,
        "Tables defined (CREATE TABLE in .sql files) that no SQL in code reads or writes, with the views that still read them",
        |a| self.unreferenced_tables(g, &a);
    orphan_tables(crate::sql_sites::TableAuditArgs) -> crate::sql_sites::OrphanTablesResult,
        "Tables SQL in code reads or writes that nothing in the repository defines (no CREATE TABLE in .sql files or in code)",
        |a| self.orphan_tables(g, &a);
    sql_rebuild(crate::sql_sites::SqlRebuildArgs) -> crate::sql_sites::SqlRebuildResult,
        "The SQL layer re-derived from the current files in one pass and summarised: SQL strings visited and read, the literals not read as SQL (a sign of SQL the parser cannot read), tables defined and used, function-to-table read and write links, orphan and unreferenced table counts",
        |a| self.sql_rebuild(g, &a);
    dbt_models(crate::dbt::DbtModelsArgs) -> crate::dbt::DbtModelsResult,
        "dbt projects and their models (.sql under the model paths) with the models each ref()s, the sources it reads, its materialization, who reads it, whether a schema file documents it, and the refs and sources that do not resolve",
        |a| self.dbt_models(g, &a);
    k8s_resources(crate::infra::InfraArgs) -> crate::infra::K8sResourcesResult,
        "Kubernetes objects of the YAML manifests (apiVersion and kind at the top of a document) with their name and namespace",
        |a| self.k8s_resources(g, &a);
    images(crate::infra::InfraArgs) -> crate::infra::ImagesResult,
        "Container images from Dockerfile FROM lines and YAML image: fields, by repository with their tags and digests, unpinned ones flagged",
        |a| self.images(g, &a);
    kustomize(crate::infra::InfraArgs) -> crate::infra::KustomizeResult,
        "Every kustomization with its namespace, resources, bases, components, patches and image overrides, and the listed local paths that do not exist",
        |a| self.kustomize(g, &a);
    cross_repo(crate::cross_repo::CrossRepoArgs) -> crate::cross_repo::CrossRepoResult,
        "Dependencies between the repositories of a workspace from the references one makes into another (import-proven links): per (from, to, relation) with counts and samples, and the symbols used across repositories most",
        |a| self.cross_repo(&a);
    goroutine_spawns(crate::concurrency::GoroutineSpawnsArgs) -> crate::concurrency::GoroutineSpawnsResult,
        "Where concurrent work starts: Go go statements, Rust thread/tokio spawns, Python threads and asyncio tasks, Java threads and executor submits, JS/TS workers — with the enclosing function, whether it is in a loop and the resolved callee",
        |a| self.goroutine_spawns(g, &a);
    channel_ops(crate::concurrency::ChannelOpsArgs) -> crate::concurrency::ChannelOpsResult,
        "Go channels (struct fields by name, locals by function) with their makes, sends, receives, range loops and closes",
        |a| self.channel_ops(g, &a);
    unclosed_channels(crate::concurrency::UnclosedChannelsArgs) -> crate::concurrency::UnclosedChannelsResult,
        "Go channels made and never closed; a leak when a for-range reads one (the loop never ends); locals passed on or returned are left out",
        |a| self.unclosed_channels(g, &a);
    race_writes(crate::concurrency::RaceWritesArgs) -> crate::concurrency::RaceWritesResult,
        "Go writes inside goroutine function literals to what the literal does not declare (captured locals, fields through captured values, map or slice elements), guarded or not by a lock or atomic",
        |a| self.race_writes(g, &a);
    field_writers(crate::concurrency::FieldWritersArgs) -> crate::concurrency::FieldWritersResult,
        "Per field name, the functions that assign to it (Go, TS/JS, Python, Java, Rust), the declarations of that name, and the writes made outside constructors",
        |a| self.field_writers(g, &a);
    unsafe_patterns(crate::unsafe_code::UnsafePatternsArgs) -> crate::unsafe_code::UnsafePatternsResult,
        "Code outside the language's safety: Go unsafe.* and go:linkname, Rust unsafe blocks, fns, impls and extern blocks, C# unsafe, fixed and stackalloc",
        |a| self.unsafe_patterns(g, &a);
    cgo_users(crate::unsafe_code::InteropUsersArgs) -> crate::unsafe_code::InteropUsersResult,
        "Go files that import \"C\", with the C.* names they use",
        |a| self.cgo_users(g, &a);
    wasm_users(crate::unsafe_code::InteropUsersArgs) -> crate::unsafe_code::InteropUsersResult,
        "Files crossing into WebAssembly: Rust wasm_bindgen, Go syscall/js, JS/TS WebAssembly.*",
        |a| self.wasm_users(g, &a);
    blame(gortex_git::analyses::BlameArgs) -> gortex_git::analyses::BlameResult,
        "Git authorship of a symbol, a file's symbols or a path: who last touched its lines (shares), its last and first change, how many commits shaped it",
        |a| self.history().and_then(|h| gortex_git::analyses::blame(g, &h, &a));
    ownership(gortex_git::analyses::OwnershipArgs) -> gortex_git::analyses::OwnershipResult,
        "Who owns each directory or file: CODEOWNERS owners and rules, authors of the current lines, bus factor, commits",
        |a| self.history().and_then(|h| gortex_git::analyses::ownership(g, &h, &a));
    stale_code(gortex_git::analyses::StaleCodeArgs) -> gortex_git::analyses::StaleCodeResult,
        "Symbols unchanged in git for at least `days` before the head commit, oldest first, with their fan-in",
        |a| self.history().and_then(|h| gortex_git::analyses::stale_code(g, &h, &a));
    churn(gortex_git::analyses::ChurnArgs) -> gortex_git::analyses::ChurnResult,
        "Symbols or files ranked by the git commits that changed them (optionally within the last `days`), with distinct authors",
        |a| self.history().and_then(|h| gortex_git::analyses::churn(g, &h, &a));
    fixes_history(gortex_git::analyses::FixesHistoryArgs) -> gortex_git::analyses::FixesHistoryResult,
        "Symbols ranked by the fix commits (fix, bug, regression, revert… in the summary) that shaped their current lines",
        |a| self.history().and_then(|h| gortex_git::analyses::fixes_history(g, &h, &a));
    releases(gortex_git::analyses::ReleasesArgs) -> gortex_git::analyses::ReleasesResult,
        "Git tags newest first with the commits, files and symbols each release changed; with `symbol`, the releases that introduced and changed it",
        |a| self.history().and_then(|h| gortex_git::analyses::releases(g, &h, &a));
    stale_flags(crate::flags::StaleFlagsArgs) -> crate::flags::StaleFlagsResult,
        "Feature flags (LaunchDarkly, Unleash, GrowthBook, OpenFeature, in-house checks) whose every check is unchanged in git for at least `days` before the head commit, oldest first, with each check's last change",
        |a| self.stale_flags(g, &a);
    named(crate::named::NamedArgs) -> crate::named::NamedResult,
        "Named query bundles over the bundled detectors (sql-injection, command-injection, hardcoded-secrets, weak-crypto, security, null-safety, concurrency, performance, resource-leaks, error-handling, logic-slips, and the queries: of .gortex.yaml): without name the bundles, with name its matches most severe first",
        |a| self.named(g, &a);
    review(crate::review::ReviewArgs) -> crate::review::ReviewResult,
        "The correctness rulepack (null dereference, check-then-act, N+1 queries, unclosed resources, SQL/shell injection, weak crypto, secrets, swallowed errors, logic slips) over files or changed lines, grounded in the graph, with a BLOCK/REVIEW/APPROVE verdict",
        |a| self.review(g, &a);
}

/// Other names `analyze` accepts for a kind: `(alias, kind)`.
pub const ANALYZE_ALIASES: &[(&str, &str)] = &[("untested", "coverage_gaps")];

/// The kind that lists the others.
const KINDS: &str = "kinds";

/// `kind: "kinds"` as a table row (it is not one of [`ANALYZE_KINDS`], which it lists).
pub const ANALYZE_LISTING: ToolSpec = ToolSpec {
    name: KINDS,
    description: "Every analyze kind with its description",
    args: schema::schema_of::<AnalyzeKindsArgs>,
    result: schema::schema_of::<AnalyzeKindsResult>,
};

/// Arguments of `analyze`: `kind` plus that kind's own arguments (checked by the kind). Kept as an
/// object so a missing or unknown kind is answered with the list of kinds.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
pub struct AnalyzeArgs(pub Map<String, Value>);

impl JsonSchema for AnalyzeArgs {
    fn schema_name() -> Cow<'static, str> {
        "AnalyzeArgs".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut extra: Vec<&str> = ANALYZE_ALIASES.iter().map(|(alias, _)| *alias).collect();
        extra.push(KINDS);
        let shared = [
            (
                "limit",
                "Most rows returned (1..=1000; default 50, 100 for routes, env_var_users and todos)",
            ),
            (
                "path_prefix",
                "Only code under this repository path prefix (routes, env_var_users and todos also take a glob)",
            ),
        ];
        let mut schema = schema::dispatcher_args(generator, ANALYZE_KINDS, &extra, &shared);
        schema.insert("title".into(), Self::schema_name().into());
        schema
    }
}

/// The answer of `analyze`: the answer of the kind that ran.
#[derive(Debug, Clone, Serialize)]
#[serde(transparent)]
pub struct AnalyzeResult(pub Value);

impl JsonSchema for AnalyzeResult {
    fn schema_name() -> Cow<'static, str> {
        "AnalyzeResult".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = schema::dispatcher_result(generator, ANALYZE_KINDS, &[ANALYZE_LISTING.result]);
        schema.insert("title".into(), Self::schema_name().into());
        schema
    }
}

/// Arguments of `kind: "kinds"` (none).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeKindsArgs {}

/// The answer of `kind: "kinds"`: every kind with its description, in the table's order.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnalyzeKindsResult {
    pub kinds: Vec<AnalyzeKindRow>,
}

/// One `analyze` kind.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnalyzeKindRow {
    pub kind: &'static str,
    pub description: &'static str,
}

impl RepoIndex {
    /// Runs `f` over the clone index, first synchronising it with the current graph and files.
    pub(crate) fn with_clones<R>(&self, f: impl FnOnce(&CloneIndex) -> R) -> R {
        let mut state = self.analysis.clones.lock().unwrap_or_else(|p| p.into_inner());
        if !same_graph(&state.synced, &self.graph) {
            let files: Vec<(String, u64)> = self.files.iter().map(|r| (r.path.to_string(), r.hash)).collect();
            state.index.sync(self.sources(), &self.graph, &files);
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

    /// `contract_sites`: every site of the repository is found once per graph version (the
    /// `contracts` tool and the web UI's two contract routes ask for all of them on every call);
    /// a call narrowed by kinds or path runs the sweep itself.
    fn contract_sites(
        &self,
        g: &Graph,
        a: gortex_search::ContractSitesArgs,
    ) -> Result<gortex_search::contracts::ContractSitesResult, QueryError> {
        if a.kinds.is_some() || a.path_prefix.is_some() {
            return self.with_text(|t| gortex_search::contract_sites(t, g, &a));
        }
        let mut slot = self.analysis.contract_sites.lock().unwrap_or_else(|p| p.into_inner());
        let all = match slot.as_ref() {
            Some((weak, all)) if same_graph(weak, &self.graph) => all.clone(),
            _ => {
                let every = gortex_search::ContractSitesArgs {
                    limit: Some(gortex_search::contracts::MAX_ROWS),
                    ..Default::default()
                };
                let all = Arc::new(self.with_text(|t| gortex_search::contract_sites(t, g, &every))?);
                *slot = Some((Arc::downgrade(&self.graph), all.clone()));
                all
            }
        };
        drop(slot);
        gortex_search::contracts::limited((*all).clone(), a.limit)
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
    pub(crate) fn find_clones(&self, a: &FindClonesArgs) -> Result<FindClonesResult, QueryError> {
        let g = &*self.graph;
        let dead = a.dead_only.then(|| gortex_analysis::deadcode::dead_set(g));
        self.with_clones(|idx| gortex_clones::find_clones(g, idx, a, dead.as_ref()))
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
        state.index.sync(self.sources(), &files);
        let fg = Arc::new(state.index.link(&self.graph));
        state.linked = Some((Arc::downgrade(&self.graph), fg.clone()));
        fg
    }

    /// Runs `explain_change_impact` with the communities and flows of the current graph.
    pub(crate) fn explain_change_impact(
        &self,
        a: &ExplainChangeImpactArgs,
    ) -> Result<ExplainChangeImpactResult, QueryError> {
        let (communities, processes) = (self.communities(), self.processes());
        gortex_analysis::impact::explain_change_impact(
            &self.graph,
            &self.reach(),
            Some(&communities.map),
            Some(&processes.map),
            a,
        )
    }

    /// Runs `analyze`: `args.kind` names the analysis, the other keys are its arguments.
    pub(crate) fn analyze(&self, AnalyzeArgs(mut args): AnalyzeArgs) -> Result<AnalyzeResult, QueryError> {
        let kind = match args.remove("kind") {
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
        let label = format!("analyze kind={kind}");
        let args = Value::Object(args);
        if kind == KINDS {
            parse::<AnalyzeKindsArgs>(&label, args)?;
            let kinds = ANALYZE_KINDS
                .iter()
                .map(|k| AnalyzeKindRow {
                    kind: k.name,
                    description: k.description,
                })
                .collect();
            return out(Ok(AnalyzeKindsResult { kinds })).map(AnalyzeResult);
        }
        let name = ANALYZE_ALIASES
            .iter()
            .find(|(alias, _)| *alias == kind)
            .map_or(kind.as_str(), |(_, target)| target);
        match self.run_kind(name, &label, args) {
            Some(answer) => answer.map(AnalyzeResult),
            None => Err(QueryError::invalid(format!(
                "analyze: unknown kind \"{kind}\"; kinds: {}",
                kind_names()
            ))),
        }
    }
}

fn kind_names() -> String {
    ANALYZE_KINDS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}
