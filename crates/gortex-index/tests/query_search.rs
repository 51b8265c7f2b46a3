//! `search_symbols`, `winnow_symbols` and `find_files` on a real graph: the fixture repository
//! `test/fixtures/query/search-app/` (TypeScript, Python and Go). It has similarly named
//! functions across languages (`createUser`, `create_user`, `CreateUser`), test files that reuse
//! production names (`createUser`, `create_user`, `chargeCard`, a `describe("UserService")`), a hub
//! (`normalizeWhitespace`, six callers) and doc comments with words found nowhere else
//! ("acquiring bank"). Every test pins exact ids and order.

mod common;

use common::*;
use gortex_graph::Graph;
use gortex_search::{
    find_files, search_symbols, winnow_symbols, FindFilesArgs, FindFilesResult, SearchSymbolsArgs, SearchSymbolsResult,
    SymbolIndex, WinnowContext, WinnowSymbolsArgs, WinnowSymbolsResult,
};
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

/// The graph and symbol index of `test/fixtures/query/<name>/`, indexed without a snapshot.
fn index_fixture(name: &str) -> (Arc<Graph>, SymbolIndex) {
    let root = fixtures().join("query").join(name);
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&root, &opts);
    assert!(report.failures.is_empty(), "parse failures {:?}", report.failures);
    let g = index.graph.clone();
    let idx = SymbolIndex::build(&g);
    (g, idx)
}

fn fixture() -> &'static (Arc<Graph>, SymbolIndex) {
    static INDEX: OnceLock<(Arc<Graph>, SymbolIndex)> = OnceLock::new();
    INDEX.get_or_init(|| index_fixture("search-app"))
}

fn search(args: Value) -> Result<SearchSymbolsResult, gortex_core::QueryError> {
    let (g, idx) = fixture();
    let args: SearchSymbolsArgs = serde_json::from_value(args).expect("valid args");
    search_symbols(g, idx, &args)
}

fn ok(args: Value) -> SearchSymbolsResult {
    search(args.clone()).unwrap_or_else(|e| panic!("{args}: {e}"))
}

fn err(args: Value) -> String {
    match search(args.clone()) {
        Ok(r) => panic!("{args}: expected an error, got {} rows", r.results.len()),
        Err(e) => {
            assert_eq!(e.code, "invalid_argument", "{args}: {e}");
            e.message
        }
    }
}

/// Ids without the repository prefix.
fn ids(r: &SearchSymbolsResult) -> Vec<String> {
    r.results
        .iter()
        .map(|h| h.symbol.id.trim_start_matches("search-app/").to_string())
        .collect()
}

fn tiers(r: &SearchSymbolsResult) -> Vec<String> {
    r.results
        .iter()
        .map(|h| serde_json::to_value(h.tier).unwrap().as_str().unwrap().to_string())
        .collect()
}

fn winnow(args: Value) -> Result<WinnowSymbolsResult, gortex_core::QueryError> {
    let (g, idx) = fixture();
    let args: WinnowSymbolsArgs = serde_json::from_value(args).expect("valid args");
    winnow_symbols(g, idx, &args, &WinnowContext::default())
}

fn winnow_ids(r: &WinnowSymbolsResult) -> Vec<String> {
    r.results
        .iter()
        .map(|h| h.symbol.id.trim_start_matches("search-app/").to_string())
        .collect()
}

fn files(args: Value) -> Result<FindFilesResult, gortex_core::QueryError> {
    let (g, _) = fixture();
    let args: FindFilesArgs = serde_json::from_value(args).expect("valid args");
    find_files(g, &args)
}

fn file_rows(r: &FindFilesResult) -> Vec<(String, String)> {
    r.results
        .iter()
        .map(|h| {
            (
                h.path.clone(),
                serde_json::to_value(h.class).unwrap().as_str().unwrap().to_string(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// search_symbols: tiers
// ---------------------------------------------------------------------------------------------

#[test]
fn exact_name_comes_first_implementations_before_tests() {
    let r = ok(json!({"query": "createUser"}));
    assert!(r.exact);
    assert!(!r.decomposed);
    assert_eq!(r.total, 8);
    assert_eq!(
        ids(&r),
        [
            "ts/src/users/userService.ts::UserService.createUser",
            "ts/src/users/userService.ts::createUser",
            "go/users/users.go::UserStore.CreateUser",
            "ts/test/userService.test.ts::createUser",
            "py/app/users.py::create_user",
            "py/tests/test_users.py::create_user",
            "ts/test/userService.test.ts::UserService.creates_a_user",
            "py/tests/test_users.py::test_create_user",
        ]
    );
    assert_eq!(
        tiers(&r)[..5],
        ["exact", "exact", "exact_case_insensitive", "exact", "ranked"]
    );
    for h in &r.results[..4] {
        assert_eq!(h.score, 100.0);
    }
    // The test helper in a test file is demoted (its node is not a test, its file is).
    assert_eq!(r.results[3].signals["test"], -1.0);
    assert!(!r.results[0].signals.contains_key("test"));
    assert_eq!(r.results[0].matched, ["create", "user", "users"]);
    assert!(r.results[4].score < 100.0);
}

#[test]
fn case_insensitive_name() {
    let r = ok(json!({"query": "createuser"}));
    assert!(r.exact);
    assert_eq!(tiers(&r), ["exact_case_insensitive"; 4]);
    assert_eq!(
        ids(&r),
        [
            "ts/src/users/userService.ts::UserService.createUser",
            "go/users/users.go::UserStore.CreateUser",
            "ts/src/users/userService.ts::createUser",
            "ts/test/userService.test.ts::createUser",
        ]
    );
    // As one lowercase word it matches no token; only the name lookup finds it.
    assert_eq!(r.unmatched, ["createuser"]);
}

#[test]
fn qualified_name() {
    let r = ok(json!({"query": "UserService.createUser"}));
    assert_eq!(r.total, 4);
    assert_eq!(tiers(&r)[..2], ["exact", "ranked"]);
    assert_eq!(
        ids(&r)[..2],
        [
            "ts/src/users/userService.ts::UserService.createUser",
            "ts/src/users/userService.ts::createUser",
        ]
    );
    // `::` reads as `.`.
    let r = ok(json!({"query": "UserService::createUser"}));
    assert_eq!(ids(&r)[0], "ts/src/users/userService.ts::UserService.createUser");
    assert!(r.exact);
}

#[test]
fn describe_block_named_like_a_class_ranks_below_it() {
    let r = ok(json!({"query": "UserService"}));
    assert_eq!(
        ids(&r)[..3],
        [
            "ts/src/users/userService.ts::UserService",
            "ts/test/userService.test.ts::UserService",
            "ts/src/users/userService.ts::UserService.createUser",
        ]
    );
    assert_eq!(tiers(&r)[..3], ["exact", "exact", "ranked"]);
}

// ---------------------------------------------------------------------------------------------
// search_symbols: ranked retrieval
// ---------------------------------------------------------------------------------------------

#[test]
fn camel_case_fragments_match_by_prefix_and_all_words_are_required() {
    let r = ok(json!({"query": "userRepo"}));
    assert!(!r.exact);
    assert_eq!(r.total, 11);
    assert_eq!(
        ids(&r)[..3],
        [
            "ts/src/users/userRepository.ts::UserRepository",
            "ts/src/users/userService.ts::UserService.repo",
            "ts/src/users/userRepository.ts::UserRepository.save",
        ]
    );
    // AND: every row matched a user* and a repo* token in its name, owner, signature or path; a
    // doc comment does not count (`createUser`'s "…with a default repository" is not a match).
    assert!(!ids(&r).iter().any(|id| id.ends_with("::createUser")));
    for h in &r.results {
        assert!(h.matched.iter().any(|t| t.starts_with("repo")), "{:?}", h.symbol.id);
        assert!(h.matched.iter().any(|t| t.starts_with("user")), "{:?}", h.symbol.id);
    }
    // An abbreviation (`usr` → user) finds the same top row.
    let r = ok(json!({"query": "usrRepo"}));
    assert_eq!(ids(&r)[0], "ts/src/users/userRepository.ts::UserRepository");
    assert_eq!(r.total, 11);
}

#[test]
fn typo_is_matched_fuzzily() {
    let r = ok(json!({"query": "paymnet"}));
    assert!(r.unmatched.is_empty());
    assert_eq!(r.total, 6);
    assert_eq!(
        ids(&r),
        [
            "ts/src/payments/paymentGateway.ts::PaymentGateway.refundPayment",
            "ts/src/payments/paymentGateway.ts::PaymentGateway",
            "py/app/billing.py::refund_payment",
            "ts/src/payments/paymentGateway.ts::PAYMENT_TIMEOUT_MS",
            "go/payments/payments.go::Gateway.Refund",
            "ts/src/payments/paymentGateway.ts::PaymentGateway.chargeCard",
        ]
    );
    for h in &r.results {
        assert_eq!(h.matched, ["payment"]);
    }
}

#[test]
fn concept_words_found_only_in_docs() {
    let r = ok(json!({"query": "acquiring bank"}));
    assert_eq!(
        ids(&r),
        [
            "go/payments/payments.go::ChargeCard",
            "py/app/billing.py::charge_card",
            "ts/src/payments/paymentGateway.ts::PaymentGateway.chargeCard",
        ]
    );
    assert!(r.results.iter().all(|h| h.matched == ["acquiring", "bank"]));
    // No name match, so no name coverage.
    assert!(r.results.iter().all(|h| !h.signals.contains_key("name_coverage")));
}

#[test]
fn digits_split_from_words() {
    let r = ok(json!({"query": "utf8"}));
    assert_eq!(ids(&r), ["ts/src/util/strings.ts::utf8Decode"]);
    assert_eq!(r.results[0].matched, ["8", "utf"]);
    let r = ok(json!({"query": "http response"}));
    assert_eq!(ids(&r)[0], "ts/src/util/strings.ts::parseHTTPResponse");
}

#[test]
fn hub_fan_in_is_a_signal() {
    let r = ok(json!({"query": "whitespace"}));
    assert_eq!(ids(&r), ["ts/src/util/strings.ts::normalizeWhitespace"]);
    assert_eq!(r.results[0].signals["fan_in"], 0.3743);
    let total: f64 = r.results[0].signals.values().sum();
    assert!(
        (total - r.results[0].score).abs() < 1e-3,
        "score is the sum of its signals"
    );
}

#[test]
fn zero_result_identifier_is_decomposed() {
    let r = ok(json!({"query": "getUserByEmailAddress"}));
    assert!(r.decomposed);
    assert!(!r.exact);
    assert_eq!(r.unmatched, ["address"]);
    assert_eq!(r.total, 32);
    assert!(r.truncated);
    assert_eq!(r.results.len(), 20);
    assert_eq!(
        ids(&r)[..5],
        [
            "ts/src/users/userService.ts::UserService.getUserByEmail",
            "py/app/users.py::get_user_by_email",
            "ts/src/users/userRepository.ts::UserRepository.findByEmail",
            "py/app/users.py::UserStore.find_by_email",
            "go/users/users.go::UserStore.FindByEmail",
        ]
    );
    // A query that matches as a whole is not decomposed.
    assert!(!ok(json!({"query": "getUserByEmail"})).decomposed);
}

#[test]
fn tests_rank_below_implementations_and_can_be_dropped() {
    let r = ok(json!({"query": "charge card"}));
    assert_eq!(r.total, 7);
    assert_eq!(
        ids(&r),
        [
            "go/payments/payments.go::ChargeCard",
            "py/app/billing.py::charge_card",
            "ts/src/payments/paymentGateway.ts::PaymentGateway.chargeCard",
            "go/payments/payments_test.go::chargeCard",
            "go/payments/payments.go::Gateway",
            "go/payments/payments_test.go::TestChargeCard",
            "ts/src/payments/paymentGateway.ts::PaymentGateway",
        ]
    );
    let r = ok(json!({"query": "charge card", "include_tests": false}));
    assert_eq!(r.total, 5);
    assert!(ids(&r).iter().all(|id| !id.contains("_test.go")));
    // Tier 0 with a test helper of the exact name: the implementation with another case wins.
    let r = ok(json!({"query": "chargeCard"}));
    assert_eq!(
        ids(&r)[..3],
        [
            "ts/src/payments/paymentGateway.ts::PaymentGateway.chargeCard",
            "go/payments/payments.go::ChargeCard",
            "go/payments/payments_test.go::chargeCard",
        ]
    );
}

#[test]
fn per_file_diversity_and_max_per_file() {
    // The third row from userRepository.ts (`findByEmail`) pays the diversity penalty.
    let r = ok(json!({"query": "userRepo"}));
    let third = r
        .results
        .iter()
        .find(|h| h.symbol.qualified == "UserRepository.findByEmail")
        .unwrap();
    assert_eq!(third.signals["diversity"], -0.5);
    assert!(!r.results[0].signals.contains_key("diversity"));

    let r = ok(json!({"query": "user", "max_per_file": 1, "limit": 5}));
    assert_eq!(r.total, 32);
    assert!(r.truncated);
    assert_eq!(
        ids(&r),
        [
            "ts/src/users/userRepository.ts::User",
            "ts/src/users/userService.ts::UserService.createUser",
            "go/users/users.go::UserStore.CreateUser",
            "py/app/users.py::UserStore",
            "ts/test/userService.test.ts::UserService.creates_a_user",
        ]
    );
    let mut paths: Vec<&str> = r.results.iter().map(|h| h.symbol.path.as_str()).collect();
    paths.dedup();
    assert_eq!(paths.len(), 5, "one row per file");
}

#[test]
fn limit_truncates() {
    let r = ok(json!({"query": "user", "limit": 3}));
    assert_eq!(r.results.len(), 3);
    assert_eq!(r.total, 32);
    assert!(r.truncated);
    assert_eq!(ids(&r)[0], "ts/src/users/userRepository.ts::User");
}

// ---------------------------------------------------------------------------------------------
// search_symbols: clauses and filters
// ---------------------------------------------------------------------------------------------

#[test]
fn kind_clause_with_a_flavor_routes_to_the_flavor_filter() {
    let expected = [
        "ts/src/users/userRepository.ts::UserRepository",
        "py/app/users.py::UserStore",
        "ts/src/users/userService.ts::UserService",
    ];
    assert_eq!(ids(&ok(json!({"query": "user kind:class"}))), expected);
    assert_eq!(ids(&ok(json!({"query": "user", "kind": "class"}))), expected);
    assert_eq!(ids(&ok(json!({"query": "user flavor:class"}))), expected);
    // Go types are structs.
    assert_eq!(
        ids(&ok(json!({"query": "user kind:struct"}))),
        ["go/users/users.go::UserStore"]
    );
    // Several values OR: classes or interfaces.
    assert_eq!(
        ids(&ok(json!({"query": "user kind:class,interface"})))[..1],
        ["ts/src/users/userRepository.ts::User"]
    );
}

#[test]
fn lang_and_path_clauses() {
    assert_eq!(
        ids(&ok(json!({"query": "user lang:py flavor:class"}))),
        ["py/app/users.py::UserStore"]
    );
    // `lang` aliases; repeated path clauses OR, keys AND.
    assert_eq!(
        ids(&ok(json!({"query": "email kind:method path:go/ path:py/"}))),
        [
            "py/app/users.py::UserStore.find_by_email",
            "go/users/users.go::UserStore.FindByEmail",
            "go/users/users.go::UserStore.CreateUser",
        ]
    );
    let r = ok(json!({"query": "email", "lang": "go,py", "kind": "method", "path": "go/"}));
    assert_eq!(
        ids(&r),
        [
            "go/users/users.go::UserStore.FindByEmail",
            "go/users/users.go::UserStore.CreateUser",
        ]
    );
    let r = ok(json!({"query": "create", "scope": ["py/app", "go"], "lang": "golang"}));
    assert_eq!(ids(&r), ["go/users/users.go::UserStore.CreateUser"]);
    // Tier 0 respects filters too.
    let r = ok(json!({"query": "createUser lang:go"}));
    assert_eq!(ids(&r), ["go/users/users.go::UserStore.CreateUser"]);
    assert_eq!(tiers(&r), ["exact_case_insensitive"]);
}

#[test]
fn unknown_clause_values_list_the_valid_ones() {
    let m = err(json!({"query": "user kind:bogus"}));
    assert!(m.contains("\"bogus\""), "{m}");
    assert!(m.contains("function, method"), "{m}");
    assert!(m.contains("class, struct"), "{m}");
    let m = err(json!({"query": "user flavor:banana"}));
    assert!(m.contains("banana") && m.contains("class, struct, enum"), "{m}");
    let m = err(json!({"query": "user lang:cobol"}));
    assert!(
        m.contains("cobol") && m.contains("typescript") && m.contains("golang"),
        "{m}"
    );
    let m = err(json!({"query": "user kind:file"}));
    assert!(m.contains("find_files"), "{m}");
    let m = err(json!({"query": "user kind:"}));
    assert!(m.contains("needs a value"), "{m}");
    let m = err(json!({"query": "user", "lang": "klingon"}));
    assert!(m.contains("klingon"), "{m}");
    let m = err(json!({"query": "user", "path": "  "}));
    assert!(m.contains("path"), "{m}");
    let m = err(json!({"query": "user", "scope": []}));
    assert!(m.contains("scope"), "{m}");
}

// ---------------------------------------------------------------------------------------------
// search_symbols: bad input and shape
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_queries_and_limits_are_rejected() {
    assert!(err(json!({"query": ""})).contains("must not be empty"));
    assert!(err(json!({"query": "   "})).contains("must not be empty"));
    let m = err(json!({"query": "kind:function lang:go"}));
    assert!(m.contains("no search terms"), "{m}");
    assert_eq!(
        err(json!({"query": "user", "limit": 0})),
        "limit must be 1..=1000, got 0"
    );
    assert_eq!(
        err(json!({"query": "user", "limit": 5000})),
        "limit must be 1..=1000, got 5000"
    );
    assert_eq!(
        err(json!({"query": "user", "max_per_file": 0})),
        "max_per_file must be 1..=1000, got 0"
    );
    let long = "a".repeat(1001);
    assert!(err(json!({"query": long})).contains("at most 1000"));
    let many: Vec<String> = (0..40).map(|i| format!("word{i}x")).collect();
    assert!(err(json!({"query": many.join(" ")})).contains("at most 32"));
    // Unknown fields are refused by the argument type itself.
    assert!(serde_json::from_value::<SearchSymbolsArgs>(json!({"query": "x", "bogus": 1})).is_err());
}

#[test]
fn nothing_found_is_an_empty_answer_not_an_error() {
    let r = ok(json!({"query": "zzzzqqq"}));
    assert!(r.results.is_empty());
    assert_eq!(r.total, 0);
    assert!(!r.truncated);
    assert_eq!(r.unmatched, ["zzzzqqq"]);
}

#[test]
fn an_index_from_another_graph_is_refused() {
    let (g, _) = fixture();
    let root = fixtures().join("resolver").join("go");
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (other, _) = index(&root, &opts);
    let stale = SymbolIndex::build(&other.graph);
    let args = SearchSymbolsArgs {
        query: "user".into(),
        ..Default::default()
    };
    let e = search_symbols(g, &stale, &args).unwrap_err();
    assert_eq!(e.code, "unavailable");
    assert!(e.message.contains("rebuild"), "{}", e.message);
}

#[test]
fn rows_serialise_flat_and_deterministically() {
    let a = serde_json::to_value(ok(json!({"query": "createUser", "limit": 2}))).unwrap();
    let b = serde_json::to_value(ok(json!({"query": "createUser", "limit": 2}))).unwrap();
    assert_eq!(a, b);
    let row = &a["results"][0];
    assert_eq!(
        row["id"],
        "search-app/ts/src/users/userService.ts::UserService.createUser"
    );
    assert_eq!(row["kind"], "method");
    assert_eq!(row["tier"], "exact");
    assert_eq!(row["score"], 100.0);
    assert_eq!(row["signals"]["definition_bias"], 0.3);
    assert_eq!(a["exact"], true);
    assert!(a.get("decomposed").is_none(), "false flags are left out");
    assert!(a.get("unmatched").is_none());
    assert_eq!(a["truncated"], true);
}

#[test]
fn index_covers_symbols_only() {
    let (g, idx) = fixture();
    let symbols = g
        .nodes()
        .filter(|n| n.kind.is_symbol() && !n.external && !n.path.is_empty())
        .count();
    assert_eq!(idx.len(), symbols);
    assert_eq!(idx.len(), 52);
    assert!(idx.memory_bytes() > 0);
    assert!(idx.vocabulary_len() > 50);
}

// ---------------------------------------------------------------------------------------------
// winnow_symbols
// ---------------------------------------------------------------------------------------------

#[test]
fn winnow_constraints_and_axes() {
    let r = winnow(json!({"kind": "function", "min_fan_in": 3})).unwrap();
    assert_eq!(r.total, 2);
    assert_eq!(
        winnow_ids(&r),
        [
            "go/users/users.go::NormalizeEmail",
            "ts/src/util/strings.ts::normalizeWhitespace"
        ]
    );
    let hub = &r.results[1];
    assert_eq!(hub.fan_in, 6);
    assert_eq!(hub.fan_out, 0);
    assert_eq!(hub.axes.get("fan_in"), Some(&0.4679));
    assert!(!hub.axes.contains_key("fan_out"));
    let first = &r.results[0];
    assert_eq!((first.fan_in, first.fan_out), (3, 2));
    assert_eq!(first.axes.get("fan_in"), Some(&0.3333));
    assert_eq!(first.axes.get("fan_out"), Some(&0.1707));
    assert_eq!(first.score, 0.504);
}

#[test]
fn winnow_text_match_scores_with_bm25() {
    let r = winnow(json!({"text_match": "user email", "kind": "method", "limit": 4})).unwrap();
    assert_eq!(r.total, 10);
    assert!(r.truncated);
    assert_eq!(
        winnow_ids(&r),
        [
            "ts/src/users/userRepository.ts::UserRepository.findByEmail",
            "ts/src/users/userService.ts::UserService.getUserByEmail",
            "py/app/users.py::UserStore.find_by_email",
            "go/users/users.go::UserStore.FindByEmail",
        ]
    );
    assert_eq!(r.results[1].axes.get("text"), Some(&1.0));
    for h in &r.results {
        let sum: f64 = h.axes.values().sum();
        assert!((sum - h.score).abs() < 1e-3, "score is the sum of the axes");
    }
}

#[test]
fn winnow_path_language_exported_and_tests() {
    let r = winnow(json!({"path_prefix": "ts/src/util"})).unwrap();
    assert_eq!(
        winnow_ids(&r),
        [
            "ts/src/util/strings.ts::normalizeWhitespace",
            "ts/src/util/strings.ts::formatName",
            "ts/src/util/strings.ts::slugify",
            "ts/src/util/strings.ts::parseHTTPResponse",
            "ts/src/util/strings.ts::utf8Decode",
        ]
    );
    assert!(r.results[4].axes.is_empty());
    let r = winnow(json!({"min_fan_in": 1})).unwrap();
    assert_eq!(r.total, 19);
    // Tests sink to the bottom (test axis −0.5).
    assert_eq!(
        winnow_ids(&r)[15..],
        [
            "go/payments/payments_test.go::chargeCard",
            "py/tests/test_users.py::create_user",
            "ts/test/userService.test.ts::createUser",
            "ts/test/userService.test.ts::UserService",
        ]
    );
    assert_eq!(r.results[15].axes.get("test"), Some(&-0.5));
    let r = winnow(json!({"min_fan_in": 1, "include_tests": false})).unwrap();
    assert_eq!(r.total, 15);
    // The unexported test helper (fan-in 2, fan-out 3, test −0.5) lands just below zero.
    let r = winnow(json!({"lang": "go", "exported": false})).unwrap();
    assert_eq!(
        winnow_ids(&r),
        [
            "go/users/users.go::UserStore.byEmail",
            "go/payments/payments_test.go::chargeCard",
        ]
    );
    assert_eq!(r.results[1].score, -0.0205);
}

/// `community` keeps exactly the members of the community named (by id or by label) that pass
/// the other constraints; an unknown one is refused naming the valid ids.
#[test]
fn winnow_community_constraint_through_the_query_door() {
    let repo = fixture_index("query/search-app");
    let one = repo
        .query("get_communities", json!({ "id": 0, "limit": 1000 }))
        .unwrap();
    let label = one["community"]["label"].as_str().unwrap().to_string();
    let members: std::collections::BTreeSet<String> = one["community"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    let ids = |r: &Value| -> std::collections::BTreeSet<String> {
        r["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let by_id = repo
        .query("winnow_symbols", json!({ "community": 0, "limit": 1000 }))
        .unwrap();
    assert!(!ids(&by_id).is_empty());
    assert_eq!(ids(&by_id), members.intersection(&ids(&by_id)).cloned().collect());
    let by_label = repo
        .query("winnow_symbols", json!({ "community": label, "limit": 1000 }))
        .unwrap();
    assert_eq!(ids(&by_label), ids(&by_id));
    let functions = repo
        .query(
            "winnow_symbols",
            json!({ "community": 0, "kind": "function", "limit": 1000 }),
        )
        .unwrap();
    assert!(ids(&functions).is_subset(&ids(&by_id)));
    assert!(functions["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["kind"] == "function"));
    let e = repo.query("winnow_symbols", json!({ "community": 9999 })).unwrap_err();
    assert_eq!(e.code, "not_found");
    assert!(e.message.contains("no community has id 9999"), "{}", e.message);
}

#[test]
fn winnow_bad_input() {
    let e = winnow(json!({})).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("at least one constraint"));
    assert!(winnow(json!({"include_tests": false, "limit": 5})).is_err());
    assert!(winnow(json!({"text_match": "   "}))
        .unwrap_err()
        .message
        .contains("no searchable words"));
    assert_eq!(
        winnow(json!({"kind": "function", "limit": 0})).unwrap_err().message,
        "limit must be 1..=1000, got 0"
    );
    assert!(winnow(json!({"kind": "bogus"}))
        .unwrap_err()
        .message
        .contains("valid values"));
    assert!(winnow(json!({"path_prefix": ""}))
        .unwrap_err()
        .message
        .contains("path_prefix"));
    assert!(serde_json::from_value::<WinnowSymbolsArgs>(json!({"kind": "function", "query": "x"})).is_err());
}

// ---------------------------------------------------------------------------------------------
// find_files
// ---------------------------------------------------------------------------------------------

fn row(path: &str, class: &str) -> (String, String) {
    (path.to_string(), class.to_string())
}

#[test]
fn find_files_ranks_by_match_class() {
    let r = files(json!({"query": "userService.ts"})).unwrap();
    assert_eq!(file_rows(&r), [row("ts/src/users/userService.ts", "exact_basename")]);
    assert_eq!(r.results[0].score, 100);
    assert_eq!(r.results[0].symbols, 7);
    assert_eq!(r.results[0].id, "search-app/ts/src/users/userService.ts");

    let r = files(json!({"query": "ts/src/users/userService.ts"})).unwrap();
    assert_eq!(file_rows(&r), [row("ts/src/users/userService.ts", "exact_path")]);

    let r = files(json!({"query": "users"})).unwrap();
    assert_eq!(
        file_rows(&r),
        [
            row("py/app/users.py", "basename_prefix"),
            row("go/users/users.go", "basename_prefix"),
            row("ts/src/users/userService.ts", "basename_prefix"),
            row("ts/test/userService.test.ts", "basename_prefix"),
            row("py/tests/test_users.py", "basename_substring"),
            row("ts/src/users/userRepository.ts", "path_substring"),
        ]
    );
    let r = files(json!({"query": "ts/src"})).unwrap();
    assert!(file_rows(&r).iter().all(|(_, c)| c == "path_prefix"));
    assert_eq!(r.total, 4);
    let r = files(json!({"query": "USERS.PY"})).unwrap();
    assert_eq!(
        file_rows(&r),
        [
            row("py/app/users.py", "exact_basename"),
            row("py/tests/test_users.py", "basename_substring")
        ]
    );
}

#[test]
fn find_files_globs_fuzzy_and_path() {
    let r = files(json!({"glob": "**/*_test.go"})).unwrap();
    assert_eq!(file_rows(&r), [row("go/payments/payments_test.go", "glob")]);
    let r = files(json!({"glob": "ts/**/*.test.ts"})).unwrap();
    assert_eq!(file_rows(&r), [row("ts/test/userService.test.ts", "glob")]);
    // Without `/` a glob matches basenames at any depth.
    let r = files(json!({"glob": "*.py"})).unwrap();
    assert_eq!(r.total, 4);
    let r = files(json!({"glob": "*.py", "query": "user"})).unwrap();
    assert_eq!(
        file_rows(&r),
        [
            row("py/app/users.py", "basename_prefix"),
            row("py/tests/test_users.py", "basename_substring")
        ]
    );
    // With `/`, `*` stays inside one directory.
    assert_eq!(files(json!({"glob": "ts/*.ts"})).unwrap().total, 0);

    assert_eq!(files(json!({"query": "usrsvc"})).unwrap().total, 0);
    let r = files(json!({"query": "usrsvc", "fuzzy": true})).unwrap();
    assert_eq!(
        file_rows(&r),
        [
            row("ts/src/users/userService.ts", "fuzzy"),
            row("ts/test/userService.test.ts", "fuzzy")
        ]
    );
    assert_eq!(r.results[0].score, 20);
    // Fuzzy only fills in where nothing better matches.
    let r = files(json!({"query": "strings", "fuzzy": true})).unwrap();
    assert_eq!(file_rows(&r)[0], row("ts/src/util/strings.ts", "basename_prefix"));

    let r = files(json!({"query": "user", "path": "py/"})).unwrap();
    assert_eq!(
        file_rows(&r),
        [
            row("py/app/users.py", "basename_prefix"),
            row("py/tests/test_users.py", "basename_substring")
        ]
    );
    let r = files(json!({"query": "s", "limit": 2})).unwrap();
    assert_eq!(r.results.len(), 2);
    assert!(r.truncated);
}

#[test]
fn find_files_bad_input() {
    let e = files(json!({"glob": "a[b"})).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message.contains("a[b") && e.message.contains("unclosed"),
        "{}",
        e.message
    );
    assert!(files(json!({})).unwrap_err().message.contains("query"));
    assert!(files(json!({"query": ""}))
        .unwrap_err()
        .message
        .contains("must not be empty"));
    assert!(files(json!({"glob": " "})).unwrap_err().message.contains("glob"));
    assert_eq!(
        files(json!({"query": "x", "limit": 5000})).unwrap_err().message,
        "limit must be 1..=1000, got 5000"
    );
    assert!(files(json!({"query": "x", "path": ""}))
        .unwrap_err()
        .message
        .contains("path"));
    assert!(serde_json::from_value::<FindFilesArgs>(json!({"query": "x", "regex": true})).is_err());
}

#[test]
fn a_symbol_named_in_a_sentence_lends_its_dependencies_a_bonus() {
    let r = ok(json!({ "query": "helper UserService.createUser calls to build the display name", "limit": 5 }));
    let top = ids(&r);
    let at = top
        .iter()
        .position(|id| id == "ts/src/util/strings.ts::formatName")
        .unwrap_or_else(|| panic!("formatName missing from {top:?}"));
    assert!(at < 3, "{top:?}");
    assert_eq!(
        r.results[at].signals.get("graph_hop"),
        Some(&1.0),
        "{:?}",
        r.results[at].signals
    );
    // Every reported score is still the sum of its signals.
    for h in &r.results {
        let sum: f64 = h.signals.values().sum();
        assert!((sum - h.score).abs() < 1e-3, "{} != {:?}", h.score, h.signals);
    }
    // Plain words name no symbol: no graph bonus anywhere.
    let plain = ok(json!({ "query": "helper user service create user calls to build the display name" }));
    assert!(plain.results.iter().all(|h| !h.signals.contains_key("graph_hop")));
}

/// The polyglot fixture: Markdown sections beside proto, SQL and component symbols.
fn polyglot() -> &'static (Arc<Graph>, SymbolIndex) {
    static INDEX: OnceLock<(Arc<Graph>, SymbolIndex)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let mut opts = options(home.path());
        opts.persist = false;
        let (index, _) = index(&fixtures().join("resolver").join("polyglot"), &opts);
        let g = index.graph.clone();
        let idx = SymbolIndex::build(&g);
        (g, idx)
    })
}

#[test]
fn corpus_separates_documentation_sections_from_code() {
    let (g, idx) = polyglot();
    let run = |args: Value| -> Vec<String> {
        let args: SearchSymbolsArgs = serde_json::from_value(args).unwrap();
        let r = search_symbols(g, idx, &args).unwrap();
        r.results
            .iter()
            .map(|h| h.symbol.id.trim_start_matches("polyglot/").to_string())
            .collect()
    };
    let code = run(json!({"query": "orders"}));
    assert!(code.contains(&"db/schema.sql::orders".to_string()), "{code:?}");
    assert!(
        !code.iter().any(|id| id.starts_with("docs/")),
        "default corpus is code: {code:?}"
    );
    let docs = run(json!({"query": "orders", "corpus": "docs"}));
    assert_eq!(docs, vec!["docs/guide.md::shop-guide.orders"]);
    let all = run(json!({"query": "orders", "corpus": "all"}));
    assert!(
        all.contains(&"docs/guide.md::shop-guide.orders".to_string())
            && all.contains(&"db/schema.sql::orders".to_string())
    );
    // An explicit kind decides on its own; flavors of the new shapes filter too.
    assert_eq!(
        run(json!({"query": "orders", "kind": "doc"})),
        vec!["docs/guide.md::shop-guide.orders"]
    );
    assert_eq!(
        run(json!({"query": "orders", "flavor": "service"})),
        vec!["proto/shop/v1/order.proto::Orders"]
    );
    assert_eq!(
        run(json!({"query": "user card", "flavor": "component"})),
        vec!["web/src/components/UserCard.vue::UserCard"]
    );
    let bad: SearchSymbolsArgs = serde_json::from_value(json!({"query": "x", "corpus": "prose"})).unwrap();
    assert_eq!(
        search_symbols(g, idx, &bad).unwrap_err().message,
        "corpus must be code, docs or all, got \"prose\""
    );
}

/// `test/fixtures/query/docs-app/`: symbols whose doc comments say more than their first sentence.
fn docs_fixture() -> &'static (Arc<Graph>, SymbolIndex) {
    static INDEX: OnceLock<(Arc<Graph>, SymbolIndex)> = OnceLock::new();
    INDEX.get_or_init(|| index_fixture("docs-app"))
}

fn docs_search(query: &str) -> SearchSymbolsResult {
    let (g, idx) = docs_fixture();
    search_symbols(g, idx, &serde_json::from_value(json!({ "query": query })).unwrap()).unwrap()
}

fn docs_ids(r: &SearchSymbolsResult) -> Vec<&str> {
    r.results
        .iter()
        .map(|h| h.symbol.id.trim_start_matches("docs-app/"))
        .collect()
}

#[test]
fn sentences_find_symbols_by_the_whole_doc_comment() {
    // Words of the second paragraph only; `every` and `count` match one word each by name.
    let r = docs_search("stream that emits sequential integers, counting up every period");
    assert_eq!(docs_ids(&r)[0], "clock.ts::ticker", "{:?}", docs_ids(&r));
    // Answers still show the first sentence only.
    let ticker = docs_fixture()
        .0
        .nodes()
        .find(|n| *n.id == *r.results[0].symbol.id)
        .unwrap();
    assert_eq!(ticker.doc.as_deref(), Some("Creates a stream of numbers."));
    assert!(ticker.doc_text.as_deref().unwrap().contains("sequential integers"));
    // A Python docstring's later paragraph, with `walk` matching one word by name.
    let r = docs_search("walk the items left to right feeding an accumulator");
    assert_eq!(docs_ids(&r)[0], "fold.py::fold", "{:?}", docs_ids(&r));
}

#[test]
fn doc_code_examples_are_not_searched() {
    // `zebraFilter` and `quokka` appear only in a fenced example and a doctest.
    for q in ["zebraFilter", "quokka"] {
        let r = docs_search(q);
        assert!(docs_ids(&r).is_empty(), "{q}: {:?}", docs_ids(&r));
    }
    // Tag descriptions are prose.
    let r = docs_search("how long to wait between two numbers");
    assert_eq!(docs_ids(&r)[0], "clock.ts::ticker");
}

#[test]
fn the_docs_corpus_ranks_sections_by_what_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    // `Queue` only names the word; `Rollback` is about the queue.
    write_file(
        dir.path(),
        "docs/ops.md",
        "# Operations\n\n## Queue\n\nSettings live in the chart.\n\n## Rollback\n\nDrain the queue first, then restore the image; \
         the queue refills once traffic returns.\n",
    );
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, _) = index(dir.path(), &opts);
    let g = index.graph.clone();
    let idx = SymbolIndex::build(&g);
    let run = |args: Value| -> (Vec<String>, Value) {
        let args: SearchSymbolsArgs = serde_json::from_value(args).unwrap();
        let r = search_symbols(&g, &idx, &args).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        (
            r.results.iter().map(|h| h.symbol.name.clone()).collect(),
            v["read_as"].clone(),
        )
    };
    let (docs, read_as) = run(json!({"query": "queue drain", "corpus": "docs"}));
    assert_eq!(docs, ["rollback", "queue"]);
    assert_eq!(read_as, "sentence");
    // Asked for names, the heading decides again.
    let (names, _) = run(json!({"query": "queue drain", "corpus": "docs", "read_as": "names"}));
    assert_eq!(names, ["queue", "rollback"]);
}
