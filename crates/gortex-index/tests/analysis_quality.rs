//! Whole-graph analyses of `gortex-analysis` (dead code, cycles, reach, change impact, external
//! calls) on a real graph built from `test/fixtures/analysis/quality`, with exact expected rows.
//!
//! Fixture shape:
//! - `ts/service.ts`: interface `Store` implemented by the private class `MemoryStore` (a
//!   constructor, `save` reached only through `Store`, the planted dead `unusedPrivate`); the
//!   planted dead type `Orphan` and function `unusedHelper`; a decorated `ItemsController` with a
//!   decorated handler; exported `makeStore`/`run`. `service.test.ts` tests them and holds an
//!   unused test helper.
//! - `ts/cycle/{a,b,c}.ts`: the import cycle a → b → c → a, whose functions also call around.
//!   `ts/clean/` is acyclic. `ts/legacy.ts` calls `x.flush()` on an untyped receiver while two
//!   private `flush` functions exist (`legacy.ts`, `other.ts`): name-only evidence. `extra.ts`
//!   holds an unused enum and an unused nested function (medium: known blind spots);
//!   `globals.d.ts` ambient declarations (never reported).
//! - `py/app/core.py`: `Repo` (constructor, dunder, a used private method, the planted dead
//!   `_unused_method`), the planted dead `_InternalType` and `_unused_helper` (whose callee
//!   `_helper_of_dead` is dead transitively), the self-recursive `_countdown`, the mutual
//!   recursion `is_even`/`is_odd`, a Flask route, `_cli` called under a `__main__` guard.
//!   `py/app/chain.py`: `entry → top → mid → leaf`; `py/tests/test_chain.py` tests `top`.
//! - `go/`: `cmd/tool` (package main with `main`, `init`, the planted dead `deadGo`), the
//!   package import cycle `p1 ↔ p2` (`A` and `B` call each other), and `p5 → p4` whose reverse
//!   import comes only from `p4`'s test file (not a cycle).

mod common;

use common::*;
use gortex_analysis::cycles::*;
use gortex_analysis::deadcode::*;
use gortex_analysis::external::*;
use gortex_analysis::impact::*;
use gortex_analysis::reach::*;
use gortex_analysis::{CommunityMap, ProcessMap};
use gortex_core::{NodeKind, Origin};
use gortex_graph::Graph;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

fn build() -> Arc<Graph> {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&fixtures().join("analysis").join("quality"), &opts);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    index.graph.clone()
}

/// The fixture's graph, built once.
fn graph() -> &'static Arc<Graph> {
    static G: OnceLock<Arc<Graph>> = OnceLock::new();
    G.get_or_init(build)
}

/// Deserialises tool arguments from JSON, as the dispatcher does.
fn args<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("arguments deserialise")
}

/// An id without the `quality/` repository prefix.
fn short(id: &str) -> String {
    id.strip_prefix("quality/").unwrap_or(id).to_string()
}

fn node(g: &Graph, id: &str) -> u32 {
    g.lookup(&format!("quality/{id}"))
        .unwrap_or_else(|| panic!("no node {id}"))
}

fn dead_ids(r: &DeadCodeResult) -> Vec<String> {
    r.dead.iter().map(|d| short(&d.symbol.id)).collect()
}

fn code(e: gortex_core::QueryError) -> &'static str {
    e.code
}

// ---------------------------------------------------------------------------------------------
// Dead code
// ---------------------------------------------------------------------------------------------

const PLANTED_HIGH: &[&str] = &[
    "py/app/core.py::Repo._unused_method",
    "py/app/core.py::_InternalType",
    "py/app/core.py::_unused_helper",
    "py/app/core.py::_countdown",
    "ts/service.ts::MemoryStore.unusedPrivate",
    "ts/service.ts::Orphan",
    "ts/service.ts::unusedHelper",
];

#[test]
fn dead_code_finds_exactly_the_planted_symbols() {
    let g = graph();
    let r = dead_code(g, &args(json!({}))).unwrap();
    let mut expected: Vec<String> = PLANTED_HIGH.iter().map(|s| s.to_string()).collect();
    // Medium: known blind spots — Go function values, enum member reads, nested functions.
    expected.push("go/cmd/tool/main.go::deadGo".into());
    expected.push("ts/extra.ts::Level".into());
    expected.push("ts/extra.ts::factory.unusedInner".into());
    // Name-only evidence: `x.flush()` could mean either private `flush`.
    expected.push("ts/legacy.ts::flush".into());
    expected.push("ts/other.ts::flush".into());
    assert_eq!(dead_ids(&r), expected);
    assert_eq!(r.total, 12);
    assert!(!r.truncated);
    assert_eq!(
        serde_json::to_value(&r.by_kind).unwrap(),
        json!({"function": 7, "method": 2, "type": 3})
    );
    assert_eq!(
        serde_json::to_value(&r.by_confidence).unwrap(),
        json!({"high": 7, "medium": 5})
    );
    let by_id = |id: &str| r.dead.iter().find(|d| short(&d.symbol.id) == id).unwrap();
    assert_eq!(by_id("ts/service.ts::unusedHelper").confidence, DeadConfidence::High);
    assert_eq!(
        by_id("ts/service.ts::unusedHelper").reason,
        "no incoming call, reference or import"
    );
    assert_eq!(
        by_id("py/app/core.py::_countdown").reason,
        "no incoming call, reference or import except from inside itself (recursion)"
    );
    let flush = by_id("ts/legacy.ts::flush");
    assert_eq!(flush.confidence, DeadConfidence::Medium);
    assert_eq!(
        flush.reason,
        "no incoming call, reference or import; but 1 unresolved reference named `flush`"
    );
    let go = by_id("go/cmd/tool/main.go::deadGo");
    assert_eq!(go.confidence, DeadConfidence::Medium);
    assert_eq!(
        go.reason,
        "no incoming call, reference or import; but Go functions used as values (callbacks, method values, map \
         or struct literals) are not indexed, so such uses are invisible"
    );
    assert!(by_id("ts/extra.ts::Level")
        .reason
        .ends_with("reads of `Type.member` are not indexed"));
    assert!(by_id("ts/extra.ts::factory.unusedInner")
        .reason
        .contains("nested in a function"));
    assert!(r.blind_spots.starts_with("not indexed: function names read as values"));
    // Unused but never reported, by reason. The Flask route `_health` and the pytest fixture
    // `expected` are not among them: the framework's synthesized calls use them.
    assert_eq!(
        serde_json::to_value(&r.excluded).unwrap(),
        json!({
            "constructor": 1, "declaration_file": 3, "decorated": 2, "entry_point": 2, "exported": 5, "override": 1,
            "test": 6
        })
    );
    assert_eq!(
        serde_json::to_value(&r.kinds).unwrap(),
        json!(["function", "method", "type", "interface"])
    );
}

#[test]
fn live_code_and_framework_entry_points_are_not_reported() {
    let g = graph();
    let r = dead_code(g, &args(json!({"limit": 1000}))).unwrap();
    let ids = dead_ids(&r);
    for live in [
        // called, instantiated, or only called through an interface
        "ts/service.ts::normalize",
        "ts/service.ts::MemoryStore",
        "ts/service.ts::MemoryStore.save",
        "py/app/core.py::Repo._check",
        "py/app/core.py::_used_helper",
        // called from the `__main__` guard (module-level code)
        "py/app/core.py::_cli",
        // exported API, entry points, constructors, dunders
        "ts/service.ts::makeStore",
        "ts/service.ts::run",
        "py/app/chain.py::entry",
        "go/cmd/tool/main.go::main",
        "go/cmd/tool/main.go::init",
        "go/cmd/tool/main.go::setup",
        "ts/service.ts::MemoryStore.constructor",
        "py/app/core.py::Repo.__init__",
        "py/app/core.py::Repo.__repr__",
        // tests and test helpers
        "ts/service.test.ts::buildFixture",
        "py/tests/test_chain.py::_make_payload",
        "py/tests/test_chain.py::expected",
        // decorated route handlers and controllers
        "py/app/core.py::_health",
        "ts/service.ts::ItemsController",
        "ts/service.ts::ItemsController.list",
    ] {
        assert!(!ids.contains(&live.to_string()), "{live} reported as dead");
    }
}

#[test]
fn dead_code_transitive_adds_symbols_used_only_by_dead_code() {
    let g = graph();
    let r = dead_code(g, &args(json!({"transitive": true}))).unwrap();
    assert_eq!(r.total, 13);
    assert_eq!(r.via_dead, 1);
    let last = r.dead.last().unwrap();
    assert_eq!(short(&last.symbol.id), "py/app/core.py::_helper_of_dead");
    assert!(last.via_dead);
    assert_eq!(last.dead_users, vec!["quality/py/app/core.py::_unused_helper"]);
    assert_eq!(last.reason, "only used by dead code (_unused_helper)");
    // Without the flag the helper is live.
    let direct = dead_code(g, &args(json!({}))).unwrap();
    assert!(!dead_ids(&direct).contains(&"py/app/core.py::_helper_of_dead".to_string()));
}

#[test]
fn dead_code_options_filter_kinds_paths_and_exports() {
    let g = graph();
    let py = dead_code(g, &args(json!({"path_prefix": "py/"}))).unwrap();
    assert_eq!(
        dead_ids(&py),
        vec![
            "py/app/core.py::Repo._unused_method",
            "py/app/core.py::_InternalType",
            "py/app/core.py::_unused_helper",
            "py/app/core.py::_countdown",
        ]
    );
    let types = dead_code(g, &args(json!({"kinds": "type"}))).unwrap();
    assert_eq!(
        dead_ids(&types),
        vec![
            "py/app/core.py::_InternalType",
            "ts/service.ts::Orphan",
            "ts/extra.ts::Level"
        ]
    );
    // Exported symbols nobody in the repository uses appear on request.
    let all = dead_code(
        g,
        &args(json!({"include_exported": true, "path_prefix": "py/app/chain.py"})),
    )
    .unwrap();
    assert_eq!(dead_ids(&all), vec!["py/app/chain.py::entry"]);
    // Fields are opt-in; TypeScript `this.x` reads are not indexed, so they are medium at best.
    let fields = dead_code(g, &args(json!({"kinds": ["field"], "path_prefix": "ts/"}))).unwrap();
    assert_eq!(
        dead_ids(&fields),
        vec!["ts/service.ts::MemoryStore.items", "ts/service.ts::Orphan.count"]
    );
    assert!(fields.dead.iter().all(|d| d.confidence == DeadConfidence::Medium));
    let limited = dead_code(g, &args(json!({"limit": 2}))).unwrap();
    assert_eq!(limited.dead.len(), 2);
    assert_eq!(limited.total, 12);
    assert!(limited.truncated);
}

#[test]
fn dead_set_matches_the_default_report() {
    let g = graph();
    let set = dead_set(g);
    let mut ids: Vec<String> = set.iter().map(|&i| short(&g.node_at(i).id)).collect();
    ids.sort();
    let mut expected = dead_ids(&dead_code(g, &args(json!({"limit": 1000}))).unwrap());
    expected.sort();
    assert_eq!(ids, expected);
}

#[test]
fn dead_code_rejects_bad_arguments() {
    let g = graph();
    let e = dead_code(g, &args(json!({"kinds": "param"}))).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message.contains("\"param\"") && e.message.contains("function, method"),
        "{}",
        e.message
    );
    assert_eq!(
        code(dead_code(g, &args(json!({"kinds": ","}))).unwrap_err()),
        "invalid_argument"
    );
    let e = dead_code(g, &args(json!({"limit": 0}))).unwrap_err();
    assert_eq!(e.message, "limit must be 1..=1000, got 0");
    let e = dead_code(g, &args(json!({"path_prefix": "/abs"}))).unwrap_err();
    assert!(
        e.message.starts_with("path_prefix must be a repository-relative path"),
        "{}",
        e.message
    );
    assert_eq!(
        code(dead_code(g, &args(json!({"path_prefix": ""}))).unwrap_err()),
        "invalid_argument"
    );
    assert!(serde_json::from_value::<DeadCodeArgs>(json!({"kind": "function"})).is_err());
}

// ---------------------------------------------------------------------------------------------
// Cycles
// ---------------------------------------------------------------------------------------------

fn steps(c: &Cycle) -> Vec<(String, String, u32)> {
    c.path.iter().map(|s| (short(&s.from), short(&s.to), s.line)).collect()
}

fn members(c: &Cycle) -> Vec<String> {
    c.members.iter().map(|m| short(&m.id)).collect()
}

#[test]
fn cycles_finds_import_and_call_cycles_with_paths_and_severity() {
    let g = graph();
    let r = cycles(g, &args(json!({}))).unwrap();
    // Exactly these: `p4`'s test importing `p5` does not make `p4 ↔ p5` a cycle.
    let summary: Vec<(CycleKind, Severity, usize, Vec<String>)> = r
        .cycles
        .iter()
        .map(|c| (c.kind, c.severity, c.size, members(c)))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                CycleKind::Imports,
                Severity::High,
                2,
                vec!["go/p1::p1".to_string(), "go/p2::p2".to_string()]
            ),
            (
                CycleKind::Calls,
                Severity::High,
                2,
                vec!["go/p1/p1.go::A".to_string(), "go/p2/p2.go::B".to_string()]
            ),
            (
                CycleKind::Imports,
                Severity::Medium,
                3,
                vec!["ts/cycle/a.ts".into(), "ts/cycle/b.ts".into(), "ts/cycle/c.ts".into()]
            ),
            (
                CycleKind::Calls,
                Severity::Medium,
                3,
                vec![
                    "ts/cycle/a.ts::a".into(),
                    "ts/cycle/b.ts::b".into(),
                    "ts/cycle/c.ts::c".into()
                ]
            ),
            (
                CycleKind::Calls,
                Severity::Low,
                2,
                vec!["py/app/core.py::is_even".into(), "py/app/core.py::is_odd".into()]
            ),
        ]
    );
    let ts = &r.cycles[2];
    assert_eq!(
        steps(ts),
        vec![
            ("ts/cycle/a.ts".to_string(), "ts/cycle/b.ts".to_string(), 1),
            ("ts/cycle/b.ts".into(), "ts/cycle/c.ts".into(), 1),
            ("ts/cycle/c.ts".into(), "ts/cycle/a.ts".into(), 1),
        ]
    );
    assert_eq!(ts.path[0].path, "ts/cycle/a.ts");
    assert_eq!(ts.directories, 1);
    // Go imports name packages: the cycle is between package nodes, sited in their files.
    let go = &r.cycles[0];
    assert_eq!(go.members[0].kind, NodeKind::Package);
    assert_eq!(
        go.path.iter().map(|s| (s.path.as_str(), s.line)).collect::<Vec<_>>(),
        vec![("go/p1/p1.go", 3), ("go/p2/p2.go", 3)]
    );
    let py = &r.cycles[4];
    assert_eq!(
        steps(py),
        vec![
            (
                "py/app/core.py::is_even".to_string(),
                "py/app/core.py::is_odd".to_string(),
                45
            ),
            ("py/app/core.py::is_odd".into(), "py/app/core.py::is_even".into(), 49),
        ]
    );
    assert_eq!(py.files, Some(1));
    assert_eq!(r.total, 5);
    assert_eq!(
        serde_json::to_value(&r.by_kind).unwrap(),
        json!({"imports": 2, "calls": 3})
    );
    assert_eq!(r.scope, "all");
}

#[test]
fn cycles_scopes_self_recursion_and_clean_code() {
    let g = graph();
    // Clean files give no cycle.
    let clean = cycles(g, &args(json!({"path_prefix": "ts/clean/"}))).unwrap();
    assert_eq!(clean.total, 0);
    assert!(clean.cycles.is_empty());
    // A package member is under its directory.
    let p1 = cycles(g, &args(json!({"path_prefix": "go/p1/", "scope": "imports"}))).unwrap();
    assert_eq!(p1.total, 1);
    let imports = cycles(g, &args(json!({"scope": "imports"}))).unwrap();
    assert!(imports.cycles.iter().all(|c| c.kind == CycleKind::Imports));
    assert_eq!(imports.total, 2);
    // Self-recursion only on request.
    let calls = cycles(g, &args(json!({"scope": "calls", "include_self": true}))).unwrap();
    let last = calls.cycles.last().unwrap();
    assert_eq!(members(last), vec!["py/app/core.py::_countdown"]);
    assert_eq!((last.size, last.severity), (1, Severity::Low));
    assert_eq!(
        steps(last),
        vec![(
            "py/app/core.py::_countdown".into(),
            "py/app/core.py::_countdown".into(),
            41
        )]
    );
    let without = cycles(g, &args(json!({"scope": "calls"}))).unwrap();
    assert_eq!(without.total, calls.total - 1);
    let limited = cycles(g, &args(json!({"limit": 1}))).unwrap();
    assert_eq!((limited.cycles.len(), limited.total, limited.truncated), (1, 5, true));
    // A tier floor above every edge leaves nothing.
    assert_eq!(cycles(g, &args(json!({"min_tier": "lsp_resolved"}))).unwrap().total, 0);

    let e = cycles(g, &args(json!({"scope": "types"}))).unwrap_err();
    assert_eq!(e.message, "scope must be one of imports, calls, all, got \"types\"");
    assert_eq!(
        code(cycles(g, &args(json!({"min_tier": "strong"}))).unwrap_err()),
        "invalid_argument"
    );
    assert_eq!(
        code(cycles(g, &args(json!({"limit": 1001}))).unwrap_err()),
        "invalid_argument"
    );
}

#[test]
fn would_create_cycle_answers_with_the_closing_path() {
    let g = graph();
    // main.ts imports math.ts, so math.ts → main.ts would close a cycle.
    let r = would_create_cycle(g, &args(json!({"from": "ts/clean/math.ts", "to": "ts/clean/main.ts"}))).unwrap();
    assert!(r.would_create_cycle);
    assert!(!r.already_exists);
    assert_eq!(
        r.path
            .iter()
            .map(|s| (short(&s.from), short(&s.to), s.line))
            .collect::<Vec<_>>(),
        vec![("ts/clean/main.ts".to_string(), "ts/clean/math.ts".to_string(), 1)]
    );
    let r = would_create_cycle(g, &args(json!({"from": "ts/clean/main.ts", "to": "ts/service.ts"}))).unwrap();
    assert!(!r.would_create_cycle);
    assert!(r.path.is_empty());
    let r = would_create_cycle(g, &args(json!({"from": "ts/clean/main.ts", "to": "ts/clean/math.ts"}))).unwrap();
    assert!(!r.would_create_cycle);
    assert!(r.already_exists);
    // Go files name their package.
    let r = would_create_cycle(g, &args(json!({"from": "go/p2/p2.go", "to": "go/cmd/tool/main.go"}))).unwrap();
    assert!(r.would_create_cycle);
    assert_eq!(
        r.path
            .iter()
            .map(|s| (short(&s.from), short(&s.to)))
            .collect::<Vec<_>>(),
        vec![
            ("go/cmd/tool::main".to_string(), "go/p1::p1".to_string()),
            ("go/p1::p1".into(), "go/p2::p2".into())
        ]
    );
    // Calls: leaf → entry would close entry → top → mid → leaf.
    let r = would_create_cycle(g, &args(json!({"from": "leaf", "to": "entry", "edge": "calls"}))).unwrap();
    assert!(r.would_create_cycle);
    assert_eq!(
        r.path
            .iter()
            .map(|s| (short(&s.from), short(&s.to), s.line))
            .collect::<Vec<_>>(),
        vec![
            (
                "py/app/chain.py::entry".to_string(),
                "py/app/chain.py::top".to_string(),
                14
            ),
            ("py/app/chain.py::top".into(), "py/app/chain.py::mid".into(), 10),
            ("py/app/chain.py::mid".into(), "py/app/chain.py::leaf".into(), 6),
        ]
    );
    let r = would_create_cycle(g, &args(json!({"from": "entry", "to": "leaf", "edge": "calls"}))).unwrap();
    assert!(!r.would_create_cycle);
    let r = would_create_cycle(g, &args(json!({"from": "leaf", "to": "leaf", "edge": "calls"}))).unwrap();
    assert!(r.would_create_cycle);
    assert!(r.note.is_some());

    let e = would_create_cycle(g, &args(json!({"from": "leaf", "to": "entry"}))).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.starts_with("from must be a file"), "{}", e.message);
    let e = would_create_cycle(
        g,
        &args(json!({"from": "ts/service.ts", "to": "leaf", "edge": "calls"})),
    )
    .unwrap_err();
    assert!(
        e.message.starts_with("from must be a function or method"),
        "{}",
        e.message
    );
    let e = would_create_cycle(g, &args(json!({"from": "leaf", "to": "entry", "edge": "reads"}))).unwrap_err();
    assert_eq!(e.message, "edge must be one of imports, calls, got \"reads\"");
    let e = would_create_cycle(
        g,
        &args(json!({"from": "nope_nothing", "to": "entry", "edge": "calls"})),
    )
    .unwrap_err();
    assert_eq!(e.code, "not_found");
    assert!(e.message.starts_with("from: "), "{}", e.message);
}

// ---------------------------------------------------------------------------------------------
// Reach and explain_change_impact
// ---------------------------------------------------------------------------------------------

fn level_ids(r: &ExplainChangeImpactResult) -> Vec<(u32, usize, Vec<String>)> {
    r.levels
        .iter()
        .map(|l| {
            (
                l.depth,
                l.count,
                l.dependents.iter().map(|d| short(&d.node.id)).collect(),
            )
        })
        .collect()
}

#[test]
fn explain_change_impact_gives_exact_levels_and_the_affected_test() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let r = explain_change_impact(g, &cache, None, None, &args(json!({"id": "leaf"}))).unwrap();
    assert_eq!(
        level_ids(&r),
        vec![
            (1, 1, vec!["py/app/chain.py::mid".to_string()]),
            (2, 1, vec!["py/app/chain.py::top".to_string()]),
            (
                3,
                3,
                vec![
                    "py/app/chain.py::entry".to_string(),
                    // The test file imports `top`; the test calls it.
                    "py/tests/test_chain.py".to_string(),
                    "py/tests/test_chain.py::test_top".to_string(),
                ]
            ),
        ]
    );
    assert_eq!(r.total, 5);
    assert_eq!(r.files, 2);
    assert_eq!(
        r.affected_tests.iter().map(|t| short(&t.id)).collect::<Vec<_>>(),
        vec!["py/tests/test_chain.py::test_top"]
    );
    assert_eq!(r.affected_test_files, vec!["py/tests/test_chain.py"]);
    assert_eq!(r.risk, RiskTier::Medium);
    assert_eq!(
        r.risk_factors,
        vec!["+1: 3 dependents outside tests", "+1: an exported target (public API)"]
    );
    assert!(r
        .levels
        .iter()
        .flat_map(|l| &l.dependents)
        .all(|d| d.tier == Origin::AstResolved));
    assert!(!r.truncated && !r.rows_truncated);
    assert!(r.caveat.is_none());
    assert!(r.communities_touched.is_none());
    assert!(r.affected_processes.is_empty());

    // Depth and limit cut levels and rows, never counts.
    let r1 = explain_change_impact(g, &cache, None, None, &args(json!({"id": "leaf", "depth": 1}))).unwrap();
    assert_eq!(level_ids(&r1), vec![(1, 1, vec!["py/app/chain.py::mid".to_string()])]);
    let r2 = explain_change_impact(g, &cache, None, None, &args(json!({"id": "leaf", "limit": 2}))).unwrap();
    assert_eq!(r2.total, 5);
    assert!(r2.rows_truncated);
    assert_eq!(r2.levels.iter().map(|l| l.dependents.len()).sum::<usize>(), 2);
    assert_eq!(r2.levels[2].count, 3);

    // A tier floor above the evidence filters everything and says so.
    let r3 = explain_change_impact(
        g,
        &cache,
        None,
        None,
        &args(json!({"id": "leaf", "min_tier": "lsp_resolved"})),
    )
    .unwrap();
    assert_eq!(r3.total, 0);
    let tf = serde_json::to_value(&r3.tiers).unwrap();
    assert_eq!(
        tf,
        json!({"tier_filtered": {"edges_below_min_tier": 5, "max_available_tier": "ast_resolved"}})
    );
}

#[test]
fn explain_change_impact_carries_the_zero_edge_caveat() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let r = explain_change_impact(g, &cache, None, None, &args(json!({"id": "_unused_helper"}))).unwrap();
    assert_eq!(r.total, 0);
    assert_eq!(r.risk, RiskTier::Low);
    let caveat = serde_json::to_value(r.caveat.as_ref().unwrap()).unwrap();
    assert_eq!(caveat["class"], "likely_unused");
    // Name-only evidence makes it coverage_incomplete.
    let r = explain_change_impact(g, &cache, None, None, &args(json!({"id": "ts/other.ts::flush"}))).unwrap();
    let caveat = serde_json::to_value(r.caveat.as_ref().unwrap()).unwrap();
    assert_eq!(caveat["class"], "coverage_incomplete");
}

#[test]
fn explain_change_impact_merges_several_targets_and_files() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    // `mid` is a target, so it is not its own dependent.
    let r = explain_change_impact(
        g,
        &cache,
        None,
        None,
        &args(json!({"ids": ["leaf", "mid"], "depth": 2})),
    )
    .unwrap();
    assert_eq!(
        level_ids(&r),
        vec![
            (1, 1, vec!["py/app/chain.py::top".to_string()]),
            (
                2,
                3,
                vec![
                    "py/app/chain.py::entry".to_string(),
                    "py/tests/test_chain.py".to_string(),
                    "py/tests/test_chain.py::test_top".to_string(),
                ]
            ),
        ]
    );
    assert!(r.caveat.is_none());
    // A file stands for its symbols and its importers.
    let r = explain_change_impact(
        g,
        &cache,
        None,
        None,
        &args(json!({"file": "py/app/chain.py", "depth": 1})),
    )
    .unwrap();
    assert_eq!(
        level_ids(&r),
        vec![(
            1,
            2,
            vec![
                "py/tests/test_chain.py".to_string(),
                "py/tests/test_chain.py::test_top".to_string()
            ]
        )]
    );
    assert_eq!(r.targets[0].kind, NodeKind::File);
}

#[test]
fn explain_change_impact_reports_processes_and_communities() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let mut communities = CommunityMap {
        of_node: vec![None; g.node_count()],
        labels: vec!["chain".into(), "tests".into(), "entry".into()],
    };
    communities.of_node[node(g, "py/app/chain.py::leaf") as usize] = Some(0);
    communities.of_node[node(g, "py/app/chain.py::mid") as usize] = Some(0);
    communities.of_node[node(g, "py/tests/test_chain.py::test_top") as usize] = Some(1);
    communities.of_node[node(g, "py/app/chain.py::entry") as usize] = Some(2);
    let mut processes = ProcessMap {
        names: vec!["entry".into(), "other".into()],
        ..Default::default()
    };
    processes.by_node.insert(node(g, "py/app/chain.py::entry"), vec![0]);
    processes.by_node.insert(node(g, "py/app/chain.py::leaf"), vec![0]);
    processes.by_node.insert(node(g, "py/app/core.py::main"), vec![1]);
    let r = explain_change_impact(
        g,
        &cache,
        Some(&communities),
        Some(&processes),
        &args(json!({"id": "leaf"})),
    )
    .unwrap();
    assert_eq!(r.communities_touched, Some(3));
    assert_eq!(
        r.affected_processes,
        vec![ProcessRef {
            id: 0,
            name: "entry".into()
        }]
    );
    assert_eq!(r.risk, RiskTier::High);
    assert_eq!(
        r.risk_factors,
        vec![
            "+1: 3 dependents outside tests",
            "+1: an exported target (public API)",
            "+1: 3 communities touched",
            "+1: 1 execution flows touched"
        ]
    );
}

#[test]
fn explain_change_impact_rejects_bad_arguments() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let run = |v: Value| explain_change_impact(g, &cache, None, None, &args(v)).unwrap_err();
    let e = run(json!({}));
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("exactly one of id"), "{}", e.message);
    assert_eq!(
        run(json!({"id": "leaf", "file": "py/app/chain.py"})).code,
        "invalid_argument"
    );
    assert_eq!(
        run(json!({"id": "leaf", "depth": 4})).message,
        "depth must be 1..=3, got 4"
    );
    assert_eq!(run(json!({"id": "leaf", "depth": 0})).code, "invalid_argument");
    assert_eq!(run(json!({"id": "leaf", "min_tier": "best"})).code, "invalid_argument");
    assert_eq!(run(json!({"ids": []})).message, "ids must hold 1..=100 symbols, got 0");
    let e = run(json!({"ids": ["leaf", "no_such_thing_here"]}));
    assert_eq!(e.code, "not_found");
    assert!(e.message.starts_with("ids[1]: "), "{}", e.message);
    assert_eq!(run(json!({"id": "no_such_thing_here"})).code, "not_found");
    let e = run(json!({"file": "py/app/chian.py"}));
    assert_eq!(e.code, "not_found");
    assert!(e.message.contains("py/app/chain.py"), "{}", e.message);
    let e = run(json!({"file": "quality/py/app/chain.py::leaf"}));
    assert_eq!(e.code, "invalid_argument");
    let e = run(json!({"id": "external::flask"}));
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("external"), "{}", e.message);
}

#[test]
fn reach_cache_answers_once_per_graph_version() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let leaf = node(g, "py/app/chain.py::leaf");
    let first = cache.reach(leaf, Origin::TextMatched);
    let second = cache.reach(leaf, Origin::TextMatched);
    assert!(
        Arc::ptr_eq(&first, &second),
        "the second lookup is served from the cache"
    );
    assert_eq!(cache.len(), 1);
    assert_eq!(first.sizes(), [1, 1, 3]);
    assert!(!first.truncated);
    assert_eq!(*first, compute_reach(g, leaf, Origin::TextMatched));
    // The same answer twice through the tool, and a cached one.
    let a = explain_change_impact(g, &cache, None, None, &args(json!({"id": "leaf"}))).unwrap();
    let b = explain_change_impact(g, &cache, None, None, &args(json!({"id": "leaf"}))).unwrap();
    assert_eq!(serde_json::to_value(&a).unwrap(), serde_json::to_value(&b).unwrap());
    assert_eq!(cache.len(), 1);

    // A new graph version gets a new cache; the old one is never trusted for it.
    let g2 = build();
    assert!(cache.serves(g) && !cache.serves(&g2));
    let fresh = ReachCache::new(g2.clone());
    assert!(fresh.serves(&g2) && fresh.is_empty());
    let stale = explain_change_impact(&g2, &cache, None, None, &args(json!({"id": "leaf"}))).unwrap();
    assert_eq!(serde_json::to_value(&stale).unwrap(), serde_json::to_value(&a).unwrap());
    assert_eq!(cache.len(), 1, "a live walk for another graph is not cached");
    let leaf2 = g2.lookup("quality/py/app/chain.py::leaf").unwrap();
    assert_eq!(fresh.reach(leaf2, Origin::TextMatched).sizes(), [1, 1, 3]);
    assert_eq!(fresh.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// analyze kind=impact
// ---------------------------------------------------------------------------------------------

#[test]
fn impact_with_a_target_lists_it_first_then_dependents_by_level() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let r = impact(g, &cache, None, &args(json!({"target": {"symbol": "leaf"}}))).unwrap();
    assert_eq!(r.mode, "target");
    let rows: Vec<(String, Option<u32>)> = r.rows.iter().map(|x| (short(&x.node.id), x.depth)).collect();
    assert_eq!(
        rows,
        vec![
            ("py/app/chain.py::leaf".to_string(), Some(0)),
            ("py/app/chain.py::mid".to_string(), Some(1)),
            ("py/app/chain.py::top".to_string(), Some(2)),
            // Level 3, highest score first (ties by id); test_top also runs the `expected`
            // fixture (a synthesized call), which raises its score over entry's.
            ("py/tests/test_chain.py".to_string(), Some(3)),
            ("py/tests/test_chain.py::test_top".to_string(), Some(3)),
            ("py/app/chain.py::entry".to_string(), Some(3)),
        ]
    );
    assert_eq!(r.closure_width, Some(5));
    assert_eq!(r.exact, Some(true));
    assert_eq!((r.total, r.truncated), (6, false));
    let target = &r.rows[0];
    assert_eq!(target.metrics.reach, [1, 1, 3]);
    assert_eq!(target.metrics.in_degree, 1);
    let c = target.components;
    assert!((c.centrality + c.reach + c.complexity + c.community_span - target.score).abs() < 0.2);
    assert!(r.rows.iter().all(|x| (0.0..=100.0).contains(&x.score)));
    // `top` has three users: `entry`, the test, and the test file's import.
    assert_eq!(r.rows[2].metrics.in_degree, 3);

    // A file target; and a limit that keeps the target row.
    let f = impact(
        g,
        &cache,
        None,
        &args(json!({"target": {"file": "ts/cycle/a.ts"}, "limit": 1})),
    )
    .unwrap();
    assert_eq!(f.rows.len(), 1);
    assert_eq!(short(&f.rows[0].node.id), "ts/cycle/a.ts");
    assert!(f.truncated);
    // Everything in the a→b→c cycle depends on a.ts; nothing outside it does, so the closure is exact.
    assert_eq!(f.closure_width, Some(4));
    assert_eq!(f.exact, Some(true));
}

#[test]
fn impact_without_a_target_ranks_the_repository() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let r = impact(g, &cache, None, &args(json!({"limit": 3}))).unwrap();
    assert_eq!(r.mode, "repo");
    assert_eq!(r.rows.len(), 3);
    assert!(r.truncated);
    assert!(r.rows.windows(2).all(|w| w[0].score >= w[1].score));
    assert_eq!(short(&r.rows[0].node.id), "go/p1/p1.go::A");
    assert!(r.rows.iter().all(|x| x.depth.is_none() && !x.node.is_test));
    let candidates = (0..g.node_count() as u32)
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind.is_callable() && !n.external && !gortex_graph::query::callers::in_test(g, i)
        })
        .count();
    assert_eq!(r.candidates, Some(candidates));
    assert_eq!(r.scored, Some(candidates));
    assert_eq!(
        r.note,
        format!("all {candidates} functions and methods outside tests were scored")
    );
}

#[test]
fn impact_rejects_unknown_targets_without_falling_back() {
    let g = graph();
    let cache = ReachCache::new(g.clone());
    let e = impact(
        g,
        &cache,
        None,
        &args(json!({"target": {"symbol": "no_such_symbol_x"}})),
    )
    .unwrap_err();
    assert_eq!(e.code, "not_found");
    assert!(e.message.starts_with("target.symbol: "), "{}", e.message);
    let e = impact(g, &cache, None, &args(json!({"target": {"file": "nope/missing.ts"}}))).unwrap_err();
    assert_eq!(e.code, "not_found");
    let e = impact(g, &cache, None, &args(json!({"target": {}}))).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    let e = impact(
        g,
        &cache,
        None,
        &args(json!({"target": {"symbol": "leaf", "file": "a.ts"}})),
    )
    .unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert_eq!(
        code(impact(g, &cache, None, &args(json!({"limit": 0}))).unwrap_err()),
        "invalid_argument"
    );
    assert!(serde_json::from_value::<ImpactArgs>(json!({"target": {"sym": "leaf"}})).is_err());
}

// ---------------------------------------------------------------------------------------------
// external_calls
// ---------------------------------------------------------------------------------------------

#[test]
fn external_calls_groups_uses_by_target() {
    let g = graph();
    let r = external_calls(g, &args(json!({}))).unwrap();
    let rows: Vec<(String, String, usize, usize, Vec<String>)> = r
        .targets
        .iter()
        .map(|t| {
            (
                t.target.id.clone(),
                t.module.clone(),
                t.uses,
                t.callers,
                t.top_callers.iter().map(|c| short(&c.node.id)).collect(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "external::flask.Flask".to_string(),
                "flask".to_string(),
                1,
                1,
                vec!["py/app/core.py::app".to_string()]
            ),
            (
                "external::flask.Flask.route".to_string(),
                "flask".to_string(),
                1,
                1,
                vec!["py/app/core.py::_health".to_string()]
            ),
            (
                "external::pytest.fixture".to_string(),
                "pytest".to_string(),
                1,
                1,
                vec!["py/tests/test_chain.py::expected".to_string()]
            ),
            (
                "external::testing.T".to_string(),
                "testing".to_string(),
                1,
                1,
                vec!["go/p4/p4_test.go::TestFour".to_string()]
            ),
            // `t.Fatal(…)` on the `*testing.T` parameter: the package-qualified type resolves.
            (
                "external::testing.T.Fatal".to_string(),
                "testing".to_string(),
                1,
                1,
                vec!["go/p4/p4_test.go::TestFour".to_string()]
            ),
        ]
    );
    assert_eq!((r.total, r.total_uses, r.modules), (5, 5, 3));
    assert_eq!(
        serde_json::to_value(&r.targets[0].by_kind).unwrap(),
        json!({"calls": 1})
    );
    assert_eq!(r.targets[0].top_files, vec!["py/app/core.py"]);
    let tests_only = external_calls(g, &args(json!({"path_prefix": "py/tests/"}))).unwrap();
    assert_eq!(tests_only.total, 1);
    assert_eq!(tests_only.targets[0].target.id, "external::pytest.fixture");
    assert_eq!(
        code(external_calls(g, &args(json!({"limit": 5000}))).unwrap_err()),
        "invalid_argument"
    );
}
