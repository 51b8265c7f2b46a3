//! walk_graph, graph_query and trace_path on `test/fixtures/query/paths-ts`
//! (see its README for the shapes it holds). Results are pinned exactly.

mod common;

use common::{paths_ts_graph as graph, refused as invalid};
use gortex_core::{EdgeKind, Origin, QueryError};
use gortex_graph::query::dsl::{graph_query, GraphQueryArgs, GraphQueryResult};
use gortex_graph::query::paths::{trace_path, TracePathArgs, TracePathResult, UnresolvedHint};
use gortex_graph::query::walk::{walk_graph, EdgeRow, WalkGraphArgs, WalkGraphResult};

const EDGE_KINDS: &str = "defines, contains, member_of, imports, re_exports, calls, references, instantiates, \
                          extends, implements, overrides, typed_as, returns, tests, depends_on_module";
const NODE_KINDS: &str =
    "file, package, module, function, method, type, interface, field, constant, variable, enum_member, import, doc, stage, script";
const TIERS: &str = "lsp_resolved, lsp_dispatch, ast_resolved, ast_inferred, text_matched, speculative";

/// `paths-ts/src/<rest>`.
fn id(rest: &str) -> String {
    format!("paths-ts/src/{rest}")
}

fn tokens<T: serde::Serialize>(row: &T) -> u64 {
    (serde_json::to_string(row).unwrap().len() as u64).div_ceil(4)
}

// ---------------------------------------------------------------------------------------------
// walk_graph
// ---------------------------------------------------------------------------------------------

fn walk(args: WalkGraphArgs) -> WalkGraphResult {
    walk_graph(&graph(), &args).unwrap()
}

fn walk_err(args: WalkGraphArgs) -> QueryError {
    walk_graph(&graph(), &args).unwrap_err()
}

fn walked_nodes(r: &WalkGraphResult) -> Vec<(String, u32)> {
    r.nodes.iter().map(|n| (n.node.id.clone(), n.depth)).collect()
}

fn edge_tuples(edges: &[EdgeRow]) -> Vec<(String, String, EdgeKind, Origin, u32)> {
    edges
        .iter()
        .map(|e| (e.from.clone(), e.to.clone(), e.kind, e.origin, e.line))
        .collect()
}

fn e(from: &str, to: &str, kind: EdgeKind, origin: Origin, line: u32) -> (String, String, EdgeKind, Origin, u32) {
    (id(from), id(to), kind, origin, line)
}

/// Token accounting is exactly the sum of every returned row's estimate.
fn assert_tokens_add_up(r: &WalkGraphResult) {
    let sum: u64 = r.nodes.iter().map(tokens).sum::<u64>() + r.edges.iter().map(tokens).sum::<u64>();
    assert_eq!(r.tokens_used, sum);
}

#[test]
fn walk_out_from_a_bare_name_covers_the_call_chain_to_depth_three() {
    let r = walk(WalkGraphArgs {
        id: "start".into(),
        ..Default::default()
    });
    assert_eq!(r.start, id("a.ts::start"));
    assert_eq!(r.direction, "out");
    assert_eq!(
        r.edge_kinds,
        vec![
            EdgeKind::Calls,
            EdgeKind::References,
            EdgeKind::Instantiates,
            EdgeKind::Extends,
            EdgeKind::Implements,
            EdgeKind::TypedAs,
            EdgeKind::Returns,
            EdgeKind::Tests
        ]
    );
    assert_eq!(
        walked_nodes(&r),
        vec![
            (id("a.ts::start"), 0),
            (id("b.ts::left"), 1),
            (id("b.ts::right"), 1),
            (id("c.ts::middle"), 2),
            (id("d.ts::sink"), 3),
            (id("loop1.ts::ping"), 3),
        ]
    );
    use EdgeKind::Calls;
    use Origin::AstResolved as R;
    assert_eq!(
        edge_tuples(&r.edges),
        vec![
            e("a.ts::start", "b.ts::left", Calls, R, 4),
            e("a.ts::start", "b.ts::right", Calls, R, 4),
            e("b.ts::left", "c.ts::middle", Calls, R, 4),
            e("b.ts::right", "c.ts::middle", Calls, R, 8),
            e("c.ts::middle", "d.ts::sink", Calls, R, 6),
            e("c.ts::middle", "loop1.ts::ping", Calls, R, 5),
        ]
    );
    assert!(!r.budget_hit);
    assert!(!r.truncated);
    assert_eq!(r.stopped_at_depth, None);
    assert_eq!(r.depth_reached, 3);
    assert_tokens_add_up(&r);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["nodes"][1]["depth"], 1);
    assert_eq!(json["nodes"][1]["id"], id("b.ts::left"));
    assert!(json.get("stopped_at_depth").is_none());
}

#[test]
fn walk_inward_records_the_cycle_edge_back_to_a_visited_node() {
    let r = walk(WalkGraphArgs {
        id: id("loop1.ts::ping"),
        direction: Some("in".into()),
        edge_kinds: Some("calls".into()),
        max_depth: Some(2),
        ..Default::default()
    });
    assert_eq!(
        walked_nodes(&r),
        vec![
            (id("loop1.ts::ping"), 0),
            (id("c.ts::middle"), 1),
            (id("loop2.ts::pong"), 1),
            (id("b.ts::left"), 2),
            (id("b.ts::right"), 2),
        ]
    );
    use EdgeKind::Calls;
    use Origin::AstResolved as R;
    assert_eq!(
        edge_tuples(&r.edges),
        vec![
            e("c.ts::middle", "loop1.ts::ping", Calls, R, 5),
            e("loop2.ts::pong", "loop1.ts::ping", Calls, R, 4),
            e("b.ts::left", "c.ts::middle", Calls, R, 4),
            e("b.ts::right", "c.ts::middle", Calls, R, 8),
            e("loop1.ts::ping", "loop2.ts::pong", Calls, R, 4),
        ]
    );
    assert_eq!(r.depth_reached, 2);
    assert_tokens_add_up(&r);
}

#[test]
fn walk_both_ways_lists_each_edge_of_a_two_node_cycle_once() {
    let r = walk(WalkGraphArgs {
        id: "src/loop2.ts::pong".into(),
        direction: Some("both".into()),
        edge_kinds: Some("calls, calls".into()),
        max_depth: Some(4),
        ..Default::default()
    });
    assert_eq!(r.edge_kinds, vec![EdgeKind::Calls]);
    assert_eq!(
        walked_nodes(&r)[..3],
        [
            (id("loop2.ts::pong"), 0),
            (id("loop1.ts::ping"), 1),
            (id("c.ts::middle"), 2)
        ]
    );
    let pair: Vec<_> = edge_tuples(&r.edges)
        .into_iter()
        .filter(|t| t.0.contains("loop") && t.1.contains("loop"))
        .collect();
    assert_eq!(
        pair,
        vec![
            e(
                "loop1.ts::ping",
                "loop2.ts::pong",
                EdgeKind::Calls,
                Origin::AstResolved,
                4
            ),
            e(
                "loop2.ts::pong",
                "loop1.ts::ping",
                EdgeKind::Calls,
                Origin::AstResolved,
                4
            ),
        ]
    );
    // Both ways from pong, four hops reach back up the chain to its entry point.
    assert_eq!(
        walked_nodes(&r)[3..],
        [
            (id("b.ts::left"), 3),
            (id("b.ts::right"), 3),
            (id("d.ts::sink"), 3),
            (id("a.ts::start"), 4),
            (id("dyn.ts::viaAny"), 4),
        ]
    );
}

#[test]
fn walk_min_tier_drops_the_name_only_hop() {
    let all = walk(WalkGraphArgs {
        id: "viaAny".into(),
        ..Default::default()
    });
    assert_eq!(
        walked_nodes(&all),
        vec![
            (id("dyn.ts::viaAny"), 0),
            (id("shapes.ts::Square.uniqueRender"), 1),
            (id("shapes.ts::Square.area"), 2),
        ]
    );
    assert_eq!(all.edges[0].origin, Origin::TextMatched);
    let strict = walk(WalkGraphArgs {
        id: "viaAny".into(),
        min_tier: Some("ast_resolved".into()),
        ..Default::default()
    });
    assert_eq!(walked_nodes(&strict), vec![(id("dyn.ts::viaAny"), 0)]);
    assert!(strict.edges.is_empty());
}

#[test]
fn walk_stops_at_the_token_budget() {
    // The start row alone fits in 100 tokens; the next node and its edge do not.
    let tiny = walk(WalkGraphArgs {
        id: "start".into(),
        token_budget: Some(100),
        ..Default::default()
    });
    assert!(tiny.budget_hit);
    assert!(!tiny.truncated);
    assert_eq!(tiny.stopped_at_depth, Some(1));
    assert_eq!(walked_nodes(&tiny), vec![(id("a.ts::start"), 0)]);
    assert!(tiny.edges.is_empty());
    assert_eq!(tiny.tokens_used, tokens(&tiny.nodes[0]));
    assert!(tiny.tokens_used <= 100);

    let mid = walk(WalkGraphArgs {
        id: "start".into(),
        token_budget: Some(300),
        ..Default::default()
    });
    assert!(mid.budget_hit);
    assert_eq!(mid.stopped_at_depth, Some(2));
    assert_eq!(
        walked_nodes(&mid),
        vec![(id("a.ts::start"), 0), (id("b.ts::left"), 1), (id("b.ts::right"), 1)]
    );
    assert_eq!(mid.edges.len(), 2);
    assert_tokens_add_up(&mid);
    assert!(mid.tokens_used <= 300);
    let json = serde_json::to_value(&mid).unwrap();
    assert_eq!(json["budget_hit"], true);
    assert_eq!(json["stopped_at_depth"], 2);
}

#[test]
fn walk_limit_truncates_without_touching_the_budget() {
    let r = walk(WalkGraphArgs {
        id: "start".into(),
        limit: Some(2),
        ..Default::default()
    });
    assert!(r.truncated);
    assert!(!r.budget_hit);
    assert_eq!(r.stopped_at_depth, Some(1));
    assert_eq!(walked_nodes(&r), vec![(id("a.ts::start"), 0), (id("b.ts::left"), 1)]);
}

#[test]
fn walk_accepts_qualified_names_and_relative_ids() {
    let r = walk(WalkGraphArgs {
        id: "Square.uniqueRender".into(),
        max_depth: Some(1),
        ..Default::default()
    });
    assert_eq!(r.start, id("shapes.ts::Square.uniqueRender"));
    let r = walk(WalkGraphArgs {
        id: "src/b.ts::left".into(),
        max_depth: Some(1),
        ..Default::default()
    });
    assert_eq!(r.start, id("b.ts::left"));
    // A file path, like every other tool's `id` (`./` is ignored).
    let r = walk(WalkGraphArgs {
        id: "./src/main.ts".into(),
        edge_kinds: Some("imports".into()),
        max_depth: Some(1),
        ..Default::default()
    });
    assert_eq!(r.start, id("main.ts"));
    assert!(r.nodes.len() > 1, "{:?}", walked_nodes(&r));
}

#[test]
fn walk_rejects_bad_input_with_the_accepted_range() {
    let ambiguous = walk_err(WalkGraphArgs {
        id: "render".into(),
        ..Default::default()
    });
    assert_eq!(ambiguous.code, "ambiguous");
    assert_eq!(
        ambiguous.message,
        format!(
            "\"render\" matches 2 symbols; pass one of these ids: {} (function at src/views/one.ts:1), {} \
             (function at src/views/two.ts:1)",
            id("views/one.ts::render"),
            id("views/two.ts::render")
        )
    );
    let missing = walk_err(WalkGraphArgs {
        id: id("b.ts::lefft"),
        ..Default::default()
    });
    assert_eq!(missing.code, "not_found");
    assert_eq!(
        missing.message,
        format!(
            "no node matches \"{}\" (tried node id, file path, qualified and bare symbol name); did you mean: {}?",
            id("b.ts::lefft"),
            id("b.ts::left")
        )
    );
    let nothing_close = walk_err(WalkGraphArgs {
        id: "zzzzzzzz".into(),
        ..Default::default()
    });
    assert_eq!(
        nothing_close.message,
        "no node matches \"zzzzzzzz\" (tried node id, file path, qualified and bare symbol name); no similar names \
         exist"
    );
    let bad = |args: WalkGraphArgs| invalid(walk_err(args));
    let base = || WalkGraphArgs {
        id: "start".into(),
        ..Default::default()
    };
    assert_eq!(
        bad(WalkGraphArgs {
            id: " ".into(),
            ..base()
        }),
        "id must be a node id, a file path or a symbol name, got an empty string"
    );
    assert_eq!(
        bad(WalkGraphArgs {
            max_depth: Some(0),
            ..base()
        }),
        "max_depth must be 1..=10, got 0"
    );
    assert_eq!(
        bad(WalkGraphArgs {
            max_depth: Some(11),
            ..base()
        }),
        "max_depth must be 1..=10, got 11"
    );
    assert_eq!(
        bad(WalkGraphArgs {
            token_budget: Some(99),
            ..base()
        }),
        "token_budget must be 100..=100000, got 99"
    );
    assert_eq!(
        bad(WalkGraphArgs {
            limit: Some(1_000_000_000_000),
            ..base()
        }),
        "limit must be 1..=5000, got 1000000000000"
    );
    assert_eq!(
        bad(WalkGraphArgs {
            direction: Some("sideways".into()),
            ..base()
        }),
        "direction must be one of out, in, both, got \"sideways\""
    );
    assert_eq!(
        bad(WalkGraphArgs {
            edge_kinds: Some("calls,implement".into()),
            ..base()
        }),
        format!("edge_kinds contains unknown edge kind \"implement\"; accepted: {EDGE_KINDS}")
    );
    assert_eq!(
        bad(WalkGraphArgs {
            edge_kinds: Some(" , ".into()),
            ..base()
        }),
        format!("edge_kinds must name at least one edge kind; accepted: {EDGE_KINDS}")
    );
    assert_eq!(
        bad(WalkGraphArgs {
            min_tier: Some("strong".into()),
            ..base()
        }),
        format!("min_tier must be one of {TIERS} (strongest first), got \"strong\"")
    );
}

#[test]
fn walk_args_deserialise_from_json_and_refuse_unknown_fields() {
    let args: WalkGraphArgs =
        serde_json::from_str(r#"{"id":"start","edge_kinds":"calls","direction":"out","max_depth":1}"#).unwrap();
    let r = walk_graph(&graph(), &args).unwrap();
    assert_eq!(r.nodes.len(), 3);
    // Edge kinds may also be a list; a trailing comma in the CSV form is ignored.
    for kinds in [r#"["references","calls"]"#, r#""references,calls,""#] {
        let args: WalkGraphArgs =
            serde_json::from_str(&format!(r#"{{"id":"start","edge_kinds":{kinds},"max_depth":1}}"#)).unwrap();
        let r = walk_graph(&graph(), &args).unwrap();
        assert_eq!(r.edge_kinds, vec![EdgeKind::Calls, EdgeKind::References], "{kinds}");
        assert_eq!(r.nodes.len(), 3, "{kinds}");
    }
    assert!(serde_json::from_str::<WalkGraphArgs>(r#"{"id":"start","depth":1}"#).is_err());
}

// ---------------------------------------------------------------------------------------------
// graph_query
// ---------------------------------------------------------------------------------------------

fn query(q: &str) -> GraphQueryResult {
    graph_query(
        &graph(),
        &GraphQueryArgs {
            query: q.into(),
            limit: None,
        },
    )
    .unwrap_or_else(|e| panic!("{q}: {e}"))
}

fn query_ids(q: &str) -> Vec<String> {
    query(q).nodes.into_iter().map(|n| n.id).collect()
}

fn query_err(q: &str) -> String {
    invalid(
        graph_query(
            &graph(),
            &GraphQueryArgs {
                query: q.into(),
                limit: None,
            },
        )
        .unwrap_err(),
    )
}

#[test]
fn query_interfaces_then_their_implementations_echoes_the_plan() {
    let r = query("nodes kind=interface name~shape | traverse implements in");
    assert_eq!(
        r.nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>(),
        vec![id("shapes.ts::Square")]
    );
    assert_eq!(r.count, 1);
    assert!(!r.truncated);
    assert_eq!(
        serde_json::to_value(&r.stages).unwrap(),
        serde_json::json!([
            {"stage": 1, "op": "nodes", "filters": [
                {"key": "kind", "op": "=", "value": "interface"},
                {"key": "name", "op": "~", "value": "shape"}
            ], "size": 1},
            {"stage": 2, "op": "traverse", "edge_kinds": ["implements"], "direction": "in", "depth": 1, "size": 1}
        ])
    );
}

#[test]
fn query_traverse_depth_sort_and_limit() {
    assert_eq!(
        query_ids("nodes kind=function path=src/b.ts | traverse calls out"),
        vec![id("c.ts::middle")]
    );
    assert_eq!(
        query_ids("nodes name=start | traverse calls out depth=3 | sort name"),
        vec![
            id("b.ts::left"),
            id("c.ts::middle"),
            id("loop1.ts::ping"),
            id("b.ts::right"),
            id("d.ts::sink")
        ]
    );
    assert_eq!(
        query_ids("nodes name=middle | traverse calls both"),
        vec![
            id("b.ts::left"),
            id("b.ts::right"),
            id("d.ts::sink"),
            id("loop1.ts::ping")
        ]
    );
    // A node of the starting set comes back only when a hop reaches it (the ping/pong cycle).
    assert_eq!(
        query_ids("nodes name=ping | traverse calls out depth=2"),
        vec![id("loop1.ts::ping"), id("loop2.ts::pong")]
    );
    let r = query("nodes kind=function | sort fan_in | limit 3");
    assert_eq!(
        r.nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>(),
        vec![id("a.ts::start"), id("c.ts::middle"), id("loop1.ts::ping")]
    );
    assert_eq!(r.stages[0].size, 19);
    assert_eq!(r.stages[2].size, 3);
    assert_eq!(
        serde_json::to_value(&r.stages[1]).unwrap(),
        serde_json::json!({"stage": 2, "op": "sort", "by": "fan_in", "order": "desc", "size": 19})
    );
    assert_eq!(
        query_ids("nodes kind=function path=src/b.ts | sort name desc"),
        vec![id("b.ts::right"), id("b.ts::left")]
    );
    assert_eq!(
        query_ids("nodes name=viaAny | traverse calls out min_tier=ast_resolved"),
        Vec::<String>::new()
    );
    assert_eq!(
        query_ids("nodes name=viaAny | traverse calls out"),
        vec![id("shapes.ts::Square.uniqueRender")]
    );
}

#[test]
fn query_filters_combine_and_accept_quotes_lists_and_negation() {
    assert_eq!(
        query_ids("nodes kind=function,method exported=false"),
        vec![
            id("a.test.ts::chain"),
            id("a.test.ts::chain.starts"),
            id("hooks.ts::keep"),
            id("shapes.ts::Shape.area"),
            id("shapes.ts::Square.area"),
            id("shapes.ts::Square.uniqueRender"),
        ]
    );
    assert_eq!(
        query_ids("nodes test=true"),
        vec![id("a.test.ts"), id("a.test.ts::chain"), id("a.test.ts::chain.starts")]
    );
    assert_eq!(
        query_ids("nodes path~VIEWS"),
        vec![
            id("views/one.ts"),
            id("views/one.ts::render"),
            id("views/two.ts"),
            id("views/two.ts::render")
        ]
    );
    assert_eq!(
        query_ids(r#"nodes kind=function name!="a b" path="src/b.ts""#),
        vec![id("b.ts::left"), id("b.ts::right")]
    );
    // A `|` inside quotes is text, not a stage separator.
    let r = query(r#"nodes name~"x|y""#);
    assert_eq!((r.count, r.stages.len()), (0, 1));
    assert_eq!(
        serde_json::to_value(&r.stages[0]).unwrap()["filters"][0]["value"],
        "x|y"
    );
    assert_eq!(query_ids("nodes flavor=class"), vec![id("shapes.ts::Square")]);
    assert_eq!(
        query_ids("nodes lang=typescript kind=interface"),
        vec![id("shapes.ts::Shape")]
    );
    assert_eq!(query_ids("nodes kind=type flavor!=class"), Vec::<String>::new());
    assert_eq!(
        query_ids("nodes kind=function | filter id~VIEWS/ | filter name=render"),
        vec![id("views/one.ts::render"), id("views/two.ts::render")]
    );
    assert_eq!(
        query_ids(&format!("nodes id={}", id("d.ts::sink"))),
        vec![id("d.ts::sink")]
    );
}

#[test]
fn query_result_limit_truncates_but_counts_everything() {
    let r = graph_query(
        &graph(),
        &GraphQueryArgs {
            query: "nodes kind=function".into(),
            limit: Some(2),
        },
    )
    .unwrap();
    assert_eq!(r.count, 19);
    assert!(r.truncated);
    assert_eq!(
        r.nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>(),
        vec![id("a.test.ts::chain"), id("a.test.ts::chain.starts")]
    );
}

#[test]
fn query_errors_name_the_stage_the_token_and_what_was_expected() {
    let cases: Vec<(&str, String)> = vec![
        (
            "   ",
            "query is empty; expected a pipeline such as `nodes kind=function name~parse | traverse calls out`".into(),
        ),
        (
            "nodes kind=function | limit 5 | limit 4 | limit 3 | limit 2 | limit 1",
            "query has 6 stages; at most 5 are allowed".into(),
        ),
        (
            "traverse calls out",
            "stage 1: a query must start with `nodes <filters>`, got \"traverse\"".into(),
        ),
        (
            "nodes | nodes kind=file",
            "stage 2: `nodes` may only be the first stage".into(),
        ),
        (
            "nodes | walk calls",
            "stage 2: unknown stage \"walk\"; expected one of nodes, traverse, filter, sort, limit".into(),
        ),
        (
            "nodes kind=file | | limit 2",
            "stage 2: empty stage; expected one of nodes, traverse, filter, sort, limit".into(),
        ),
        (
            "nodes kind=file |",
            "stage 2: empty stage; expected one of nodes, traverse, filter, sort, limit".into(),
        ),
        (
            r#"nodes | filter name="foo"#,
            "stage 2: unterminated quote (\") starting at character 21".into(),
        ),
        (
            "nodes function",
            "stage 1: expected a filter key=value, key!=value or key~value, got \"function\"".into(),
        ),
        (
            "nodes knd=function",
            "stage 1: unknown filter key \"knd\" in \"knd=function\"; valid keys: kind, name, path, lang, flavor, \
             exported, test, id"
                .into(),
        ),
        (
            "nodes name!foo",
            "stage 1: expected =, != or ~ after \"name\" in \"name!foo\"".into(),
        ),
        ("nodes name=\"\"", "stage 1: filter \"name=\" has no value".into()),
        (
            "nodes kind=func",
            format!("stage 1: unknown kind \"func\"; valid: {NODE_KINDS}"),
        ),
        (
            "nodes lang=ts",
            format!(
                "stage 1: unknown lang \"ts\"; valid: {}",
                gortex_core::Language::ALL
                    .iter()
                    .map(|l| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        (
            "nodes flavor=klass",
            "stage 1: unknown flavor \"klass\"; valid: class, struct, enum, record, type_alias, union, annotation, message, service, table, view, component, mixin"
                .into(),
        ),
        (
            "nodes exported=yes",
            "stage 1: exported must be true or false, got \"yes\"".into(),
        ),
        (
            "nodes test~true",
            "stage 1: `~` does not apply to test; use test=true or test=false".into(),
        ),
        (
            "nodes | filter",
            "stage 2: `filter` needs at least one key=value, key!=value or key~value".into(),
        ),
        (
            "nodes | traverse",
            "stage 2: traverse needs edge kinds first; usage: traverse <edge_kind[,edge_kind]> <in|out|both> \
             [depth=N] [min_tier=TIER]"
                .into(),
        ),
        (
            "nodes kind=interface | traverse implement in",
            format!("stage 2: traverse contains unknown edge kind \"implement\"; accepted: {EDGE_KINDS}"),
        ),
        (
            "nodes | traverse calls",
            "stage 2: traverse expects a direction (in, out or both) after the edge kinds".into(),
        ),
        (
            "nodes | traverse calls up",
            "stage 2: traverse expects a direction (in, out or both) after the edge kinds, got \"up\"".into(),
        ),
        (
            "nodes | traverse calls out depth=6",
            "stage 2: depth must be 1..=5, got \"6\"".into(),
        ),
        (
            "nodes | traverse calls out depth=x",
            "stage 2: depth must be 1..=5, got \"x\"".into(),
        ),
        (
            "nodes | traverse calls out min_tier=high",
            format!("stage 2: min_tier must be one of {TIERS} (strongest first), got \"high\""),
        ),
        (
            "nodes | traverse calls out fast",
            "stage 2: unexpected \"fast\" in traverse; usage: traverse <edge_kind[,edge_kind]> <in|out|both> \
             [depth=N] [min_tier=TIER]"
                .into(),
        ),
        (
            "nodes | sort",
            "stage 2: sort needs a key: one of name, path, id, fan_in, fan_out".into(),
        ),
        (
            "nodes | sort size",
            "stage 2: unknown sort key \"size\"; valid: name, path, id, fan_in, fan_out".into(),
        ),
        (
            "nodes | sort name up",
            "stage 2: sort order must be asc or desc, got \"up\"".into(),
        ),
        (
            "nodes | sort name asc twice",
            "stage 2: unexpected \"twice\" after sort; usage: sort <key> [asc|desc]".into(),
        ),
        ("nodes | limit", "stage 2: limit needs a number 1..=1000".into()),
        (
            "nodes | limit ten",
            "stage 2: limit must be 1..=1000, got \"ten\"".into(),
        ),
        ("nodes | limit 0", "stage 2: limit must be 1..=1000, got \"0\"".into()),
        (
            "nodes | limit 1001",
            "stage 2: limit must be 1..=1000, got \"1001\"".into(),
        ),
        (
            "nodes | limit 5 6",
            "stage 2: unexpected \"6\" after limit; usage: limit N".into(),
        ),
    ];
    for (q, want) in cases {
        assert_eq!(query_err(q), want, "query: {q}");
    }
    for limit in [0, 1001] {
        let e = graph_query(
            &graph(),
            &GraphQueryArgs {
                query: "nodes".into(),
                limit: Some(limit),
            },
        )
        .unwrap_err();
        assert_eq!(invalid(e), format!("limit must be 1..=1000, got {limit}"));
    }
}

// ---------------------------------------------------------------------------------------------
// trace_path
// ---------------------------------------------------------------------------------------------

fn trace(from: &str, to: &str, f: impl FnOnce(&mut TracePathArgs)) -> TracePathResult {
    let mut args = TracePathArgs {
        from: from.into(),
        to: to.into(),
        ..Default::default()
    };
    f(&mut args);
    trace_path(&graph(), &args).unwrap()
}

fn hop_ids(r: &TracePathResult) -> Vec<Vec<String>> {
    r.paths
        .iter()
        .map(|p| {
            let mut ids = vec![p.hops[0].from.clone()];
            ids.extend(p.hops.iter().map(|h| h.to.clone()));
            ids
        })
        .collect()
}

#[test]
fn trace_finds_both_shortest_paths_through_the_fork() {
    let r = trace("start", "sink", |_| {});
    assert_eq!(r.length, Some(3));
    assert_eq!(r.shortest_paths, 2);
    assert!(!r.truncated);
    assert!(r.diagnosis.is_none());
    assert_eq!(
        hop_ids(&r),
        vec![
            vec![
                id("a.ts::start"),
                id("b.ts::left"),
                id("c.ts::middle"),
                id("d.ts::sink")
            ],
            vec![
                id("a.ts::start"),
                id("b.ts::right"),
                id("c.ts::middle"),
                id("d.ts::sink")
            ],
        ]
    );
    use EdgeKind::Calls;
    use Origin::AstResolved as R;
    assert_eq!(
        edge_tuples(&r.paths[1].hops),
        vec![
            e("a.ts::start", "b.ts::right", Calls, R, 4),
            e("b.ts::right", "c.ts::middle", Calls, R, 8),
            e("c.ts::middle", "d.ts::sink", Calls, R, 6),
        ]
    );
    assert_eq!(
        r.paths.iter().map(|p| p.confidence).collect::<Vec<_>>(),
        vec![0.729, 0.729]
    );

    let one = trace("start", "sink", |a| a.limit = Some(1));
    assert_eq!(one.paths.len(), 1);
    assert_eq!(one.shortest_paths, 2);
    assert!(one.truncated);
    assert_eq!(one.paths[0].hops[0].to, id("b.ts::left"));
}

#[test]
fn trace_confidence_multiplies_hop_tiers_including_the_name_only_hop() {
    let r = trace("start", "uniqueRender", |_| {});
    assert_eq!(r.length, Some(5));
    assert_eq!(r.shortest_paths, 2);
    assert_eq!(
        hop_ids(&r)[0],
        vec![
            id("a.ts::start"),
            id("b.ts::left"),
            id("c.ts::middle"),
            id("d.ts::sink"),
            id("dyn.ts::viaAny"),
            id("shapes.ts::Square.uniqueRender"),
        ]
    );
    let last = r.paths[0].hops.last().unwrap();
    assert_eq!(
        (last.kind, last.origin, last.line),
        (EdgeKind::Calls, Origin::TextMatched, 2)
    );
    // 0.9^4 * 0.4
    assert_eq!(r.paths[0].confidence, 0.2624);

    // `instantiates` is followed by default and can be switched off.
    let via_new = trace("start", "Square", |_| {});
    assert_eq!(via_new.length, Some(4));
    assert_eq!(via_new.paths[0].hops[3].kind, EdgeKind::Instantiates);
    let calls_only = trace("start", "Square", |a| a.edge_kinds = Some("calls".into()));
    assert!(calls_only.paths.is_empty());
    assert_eq!(calls_only.edge_kinds, vec![EdgeKind::Calls]);
}

#[test]
fn trace_diagnoses_an_unreachable_target() {
    let r = trace("start", "island", |_| {});
    assert!(r.paths.is_empty());
    assert_eq!(r.length, None);
    let d = r.diagnosis.unwrap();
    assert_eq!(d.from_outgoing, 2);
    assert_eq!(d.to_incoming, 0);
    assert_eq!(d.reachable, 10);
    assert!(!d.depth_limited);
    assert_eq!(
        (
            d.reverse_hops,
            d.undirected_hops,
            d.with_references_hops,
            d.ignoring_min_tier_hops
        ),
        (None, None, None, None)
    );
    assert!(d.unresolved.is_empty());
    assert_eq!(
        d.message,
        format!(
            "No calls/instantiates path from {s} to {i} within 6 hops. {i} has no incoming calls/instantiates \
             edges. 10 node(s) are reachable from {s}.",
            s = id("a.ts::start"),
            i = id("island.ts::island")
        )
    );
}

#[test]
fn trace_diagnosis_finds_the_reverse_and_undirected_paths() {
    let back = trace("sink", "start", |_| {});
    let d = back.diagnosis.unwrap();
    assert_eq!(d.reverse_hops, Some(3));
    assert_eq!(d.undirected_hops, Some(3));
    assert_eq!((d.from_outgoing, d.to_incoming, d.reachable), (2, 2, 4));
    assert_eq!(
        d.message,
        format!(
            "No calls/instantiates path from {s} to {t} within 6 hops. 4 node(s) are reachable from {s}. A path \
             exists in the reverse direction ({t} to {s}, 3 hops). Ignoring direction, they are 3 hops apart.",
            s = id("d.ts::sink"),
            t = id("a.ts::start")
        )
    );

    let siblings = trace("left", "right", |_| {}).diagnosis.unwrap();
    assert_eq!(siblings.reverse_hops, None);
    assert_eq!(siblings.undirected_hops, Some(2));
}

#[test]
fn trace_diagnosis_tries_references_edges() {
    let d = trace("register", "ping", |_| {}).diagnosis.unwrap();
    assert_eq!(d.with_references_hops, Some(2));
    assert_eq!(d.undirected_hops, None);
    assert_eq!(d.from_outgoing, 1);
    assert_eq!(d.reachable, 1);
    // Already following references: nothing more to try.
    let r = trace("register", "ping", |a| a.edge_kinds = Some("calls,references".into()));
    assert_eq!(r.length, Some(2));
    assert_eq!(r.paths[0].hops[0].kind, EdgeKind::References);
}

#[test]
fn trace_diagnosis_points_at_unresolved_references_naming_the_target() {
    let d = trace("paint", &id("views/one.ts::render"), |_| {}).diagnosis.unwrap();
    assert_eq!(
        d.unresolved,
        vec![UnresolvedHint {
            from: id("paint.ts::paint"),
            kind: EdgeKind::Calls,
            target: "unresolved::render".into(),
            line: 2,
            candidates: 2,
        }]
    );
    assert_eq!((d.from_outgoing, d.to_incoming, d.reachable), (0, 0, 0));
    assert!(d.message.ends_with(
        "1 unresolved reference(s) from reachable nodes name \"render\": the resolver could not bind them, so the \
         path may exist but be missing from the graph."
    ));
}

#[test]
fn trace_min_tier_and_depth_limits_are_reported() {
    let strict = trace("start", "uniqueRender", |a| a.min_tier = Some("ast_resolved".into()));
    assert!(strict.paths.is_empty());
    let d = strict.diagnosis.unwrap();
    assert_eq!(d.ignoring_min_tier_hops, Some(5));
    assert_eq!(d.to_incoming, 0);
    assert_eq!(d.reachable, 8);
    assert!(d.message.contains("within 6 hops at tier ast_resolved or better."));
    assert!(d.message.ends_with("Without min_tier, a path of 5 hops exists."));

    let shallow = trace("start", "uniqueRender", |a| a.max_depth = Some(4));
    let d = shallow.diagnosis.unwrap();
    assert!(d.depth_limited);
    assert_eq!(d.reachable, 8);
    assert!(d.message.contains("8 node(s) are reachable from"));
    assert!(d.message.contains("and the depth limit cut the search short."));
}

#[test]
fn trace_rejects_bad_input() {
    let run = |from: &str, to: &str, f: &dyn Fn(&mut TracePathArgs)| {
        let mut args = TracePathArgs {
            from: from.into(),
            to: to.into(),
            ..Default::default()
        };
        f(&mut args);
        trace_path(&graph(), &args).unwrap_err()
    };
    assert_eq!(
        invalid(run("start", "src/a.ts::start", &|_| {})),
        format!(
            "from and to are the same node ({}); pass two different symbols",
            id("a.ts::start")
        )
    );
    let e = run("strat", "sink", &|_| {});
    assert_eq!(e.code, "not_found");
    assert_eq!(
        e.message,
        format!(
            "from: no node matches \"strat\" (tried node id, file path, qualified and bare symbol name); did you \
             mean: {}?",
            id("a.ts::start")
        )
    );
    let e = run("start", "area", &|_| {});
    assert_eq!(e.code, "ambiguous");
    assert_eq!(
        e.message,
        format!(
            "to: \"area\" matches 2 symbols; pass one of these ids: {} (method at src/shapes.ts:2), {} (method at \
             src/shapes.ts:6)",
            id("shapes.ts::Shape.area"),
            id("shapes.ts::Square.area")
        )
    );
    assert_eq!(
        invalid(run("start", "sink", &|a| a.max_depth = Some(13))),
        "max_depth must be 1..=12, got 13"
    );
    assert_eq!(
        invalid(run("start", "sink", &|a| a.max_depth = Some(0))),
        "max_depth must be 1..=12, got 0"
    );
    assert_eq!(
        invalid(run("start", "sink", &|a| a.limit = Some(21))),
        "limit must be 1..=20, got 21"
    );
    assert_eq!(
        invalid(run("start", "sink", &|a| a.edge_kinds = Some("cals".into()))),
        format!("edge_kinds contains unknown edge kind \"cals\"; accepted: {EDGE_KINDS}")
    );
    assert_eq!(
        invalid(run("start", "sink", &|a| a.min_tier = Some("best".into()))),
        format!("min_tier must be one of {TIERS} (strongest first), got \"best\"")
    );
    assert_eq!(
        invalid(run("", "sink", &|_| {})),
        "from must be a node id, a file path or a symbol name, got an empty string"
    );
}
