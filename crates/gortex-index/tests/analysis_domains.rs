//! `analyze kind=domain` through the query door on a real index of `test/fixtures/domain`, with
//! exact expected rows.
//!
//! Planted facts: `src/orders` holds `Order`, `OrderItem`, `IOrderRepository`,
//! `OrderRepository`, `CreateOrderRequest` and `OrderService`, which uses `UserService` (returning
//! `User`) and `PaymentGateway` (returning `Payment`). `src/infra` holds technical types
//! (`HttpClient`, `Logger`, `JsonParser`); `src/misc/Widget.ts` is a domain of one type; the test
//! file's `FakeOrderRepository` is test code.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("domain"))
}

fn analyze(args: Value) -> Value {
    repo().query("analyze", args).unwrap()
}

#[test]
fn domains_group_types_by_name_and_link_them_through_the_graph() {
    let r = analyze(json!({ "kind": "domain" }));
    assert_eq!(
        r,
        json!({
            "domains": [
                {
                    "domain": "order", "types": 6, "files": 4, "directories": ["src/orders"],
                    "roles": {
                        "dto": ["CreateOrderRequest"], "model": ["Order", "OrderItem"],
                        "repository": ["IOrderRepository", "OrderRepository"], "service": ["OrderService"]
                    },
                    // OrderService's constructor types and calls.
                    "depends_on": [{ "domain": "payment", "edges": 2 }, { "domain": "user", "edges": 2 }],
                    "used_by": []
                },
                {
                    "domain": "payment", "types": 2, "files": 1, "directories": ["src/payments"],
                    "roles": { "client": ["PaymentGateway"], "model": ["Payment"] },
                    "depends_on": [], "used_by": [{ "domain": "order", "edges": 2 }]
                },
                {
                    "domain": "user", "types": 2, "files": 2, "directories": ["src/users"],
                    "roles": { "model": ["User"], "service": ["UserService"] },
                    "depends_on": [], "used_by": [{ "domain": "order", "edges": 2 }]
                }
            ],
            "total": 3, "truncated": false,
            // HttpClient, Logger and JsonParser are technical; Widget is a domain of one type.
            "types": 14, "unassigned": 4,
            "evidence": "names+graph"
        })
    );
}

#[test]
fn one_domain_lists_its_types_and_the_filters_narrow() {
    let order = analyze(json!({ "kind": "domain", "domain": "order", "include_tests": true }));
    let members: Vec<&str> = order["domains"][0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        members,
        [
            "CreateOrderRequest",
            "FakeOrderRepository",
            "IOrderRepository",
            "Order",
            "OrderItem",
            "OrderService",
            "OrderRepository"
        ]
        .iter()
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
    let all = analyze(json!({ "kind": "domain", "min_types": 1 }));
    let names: Vec<&str> = all["domains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["domain"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["order", "payment", "user", "widget"]);
    let users = analyze(json!({ "kind": "domain", "path_prefix": "src/users" }));
    assert_eq!(users["total"], 1);
    assert_eq!(users["domains"][0]["used_by"], json!([]));
    let missing = repo()
        .query("analyze", json!({ "kind": "domain", "domain": "invoice" }))
        .unwrap_err();
    assert_eq!(missing.code, "not_found");
    assert!(
        missing.message.contains("domains: order, payment, user"),
        "{}",
        missing.message
    );
    let bad = repo()
        .query("analyze", json!({ "kind": "domain", "min_types": 0 }))
        .unwrap_err();
    assert!(refused(bad).contains("min_types"));
}
