//! `analyze kind=dbt_models` through the query door, on a real index of `test/fixtures/dbt`, with
//! exact expected rows.
//!
//! Fixture shape (planted facts): project `analytics` (`model-paths: ["models"]`); staging models
//! `stg_orders` (a view over `source('shop', 'orders')`) and `stg_customers` (over
//! `shop.customers`), both documented in `sources.yml`, which declares `shop.orders` and
//! `shop.customers` only; `stg_payments` reads the undeclared `shop.payments`; marts
//! `customer_orders` (a table over both staging models) and `revenue` (incremental, over
//! `stg_orders` and the missing `stg_refunds`).

mod common;

use common::*;
use serde_json::json;

/// `(name, materialized, refs, sources, referenced_by, documented)` of a model row.
type ModelView = (String, Option<String>, Vec<String>, Vec<String>, Vec<String>, bool);

#[test]
fn models_lineage_and_what_does_not_resolve() {
    let repo = fixture_index("dbt");
    let r = repo.query("analyze", json!({ "kind": "dbt_models" })).unwrap();
    let rows: Vec<ModelView> = r["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["materialized"].as_str().map(str::to_string),
                strings(&m["refs"]),
                strings(&m["sources"]),
                strings(&m["referenced_by"]),
                m["documented"].as_bool().unwrap(),
            )
        })
        .collect();
    let s = |v: &str| v.to_string();
    let v = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        rows,
        vec![
            (
                s("customer_orders"),
                Some(s("table")),
                v(&["stg_customers", "stg_orders"]),
                v(&[]),
                v(&[]),
                false
            ),
            (
                s("revenue"),
                Some(s("incremental")),
                v(&["stg_orders", "stg_refunds"]),
                v(&[]),
                v(&[]),
                false
            ),
            (
                s("stg_customers"),
                None,
                v(&[]),
                v(&["shop.customers"]),
                v(&["customer_orders"]),
                true
            ),
            (
                s("stg_orders"),
                Some(s("view")),
                v(&[]),
                v(&["shop.orders"]),
                v(&["customer_orders", "revenue"]),
                true
            ),
            (s("stg_payments"), None, v(&[]), v(&["shop.payments"]), v(&[]), false),
        ]
    );
    assert_eq!(
        r["problems"],
        json!([
            { "kind": "missing_ref", "model": "revenue", "path": "analytics/models/marts/revenue.sql", "line": 5, "name": "stg_refunds" },
            { "kind": "undeclared_source", "model": "stg_payments", "path": "analytics/models/staging/stg_payments.sql", "line": 2, "name": "shop.payments" },
        ])
    );
    assert_eq!(r["leaves"], json!(["customer_orders", "revenue", "stg_payments"]));
    assert_eq!(
        r["projects"],
        json!([{ "name": "analytics", "path": "analytics/dbt_project.yml", "model_paths": ["models"], "models": 5 }])
    );
    assert_eq!((r["total"].clone(), r["evidence"].clone()), (json!(5), json!("text")));
}

#[test]
fn one_model_by_name_and_bad_input() {
    let repo = fixture_index("dbt");
    let one = repo
        .query("analyze", json!({ "kind": "dbt_models", "model": "stg_orders" }))
        .unwrap();
    assert_eq!(one["models"].as_array().unwrap().len(), 1);
    assert_eq!(one["models"][0]["referenced_by"], json!(["customer_orders", "revenue"]));
    let e = repo
        .query("analyze", json!({ "kind": "dbt_models", "model": "stg_refunds" }))
        .unwrap_err();
    assert_eq!(e.code, "not_found");
    assert!(
        e.message
            .starts_with("no dbt model is named \"stg_refunds\"; models: customer_orders, revenue"),
        "{}",
        e.message
    );
    let outside = repo
        .query("analyze", json!({ "kind": "dbt_models", "path_prefix": "elsewhere/" }))
        .unwrap();
    assert_eq!(
        (outside["total"].clone(), outside["projects"].clone()),
        (json!(0), json!([]))
    );
    assert!(repo
        .query("analyze", json!({ "kind": "dbt_models", "limit": 0 }))
        .is_err());
}
