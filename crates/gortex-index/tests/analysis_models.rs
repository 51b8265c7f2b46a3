//! `analyze kind=models` through the query door, on a real index of `test/fixtures/models`,
//! with exact expected rows.
//!
//! Fixture shape (planted facts): Django `Author` and `Book` (`models.Model`) beside a plain
//! `Helper`; a Pydantic `BookIn`; a TypeORM `@Entity() User` beside a plain `NotAModel`; a JPA
//! `@Entity Order`; a GORM `Product` embedding `gorm.Model` beside a plain `Plain`.

mod common;

use common::*;
use serde_json::json;

/// `(model, framework, role, evidence, fields)` of a row.
type ModelView = (String, String, String, String, Vec<String>);

#[test]
fn models_are_found_by_base_annotation_or_embedding() {
    let repo = fixture_index("models");
    let r = repo.query("analyze", json!({ "kind": "models" })).unwrap();
    let rows: Vec<ModelView> = r["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["model"]["qual_name"].as_str().unwrap().to_string(),
                m["framework"].as_str().unwrap().to_string(),
                m["role"].as_str().unwrap().to_string(),
                m["evidence"].as_str().unwrap().to_string(),
                m["fields"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let s = |v: &str| v.to_string();
    let want = vec![
        (
            s("Author"),
            s("django"),
            s("orm"),
            s("extends django.db.models.Model"),
            vec![s("name")],
        ),
        (
            s("Book"),
            s("django"),
            s("orm"),
            s("extends django.db.models.Model"),
            vec![s("author"), s("title")],
        ),
        (
            s("Product"),
            s("gorm"),
            s("orm"),
            s("embeds gorm.Model"),
            vec![s("Code"), s("Price")],
        ),
        (s("Order"), s("jpa"), s("orm"), s("@Entity"), vec![s("id"), s("status")]),
        (
            s("BookIn"),
            s("pydantic"),
            s("schema"),
            s("extends pydantic.BaseModel"),
            vec![s("title")],
        ),
        (
            s("User"),
            s("typeorm"),
            s("orm"),
            s("@Entity"),
            vec![s("email"), s("id")],
        ),
    ];
    assert_eq!(rows, want);
    assert_eq!(
        r["by_framework"],
        json!({ "django": 2, "gorm": 1, "jpa": 1, "pydantic": 1, "typeorm": 1 })
    );
    let django = repo
        .query(
            "analyze",
            json!({ "kind": "models", "framework": "django", "path_prefix": "py/", "limit": 1 }),
        )
        .unwrap();
    assert_eq!((&django["total"], &django["truncated"]), (&json!(2), &json!(true)));
    let e = repo
        .query("analyze", json!({ "kind": "models", "framework": "hibernate" }))
        .unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(e.message.contains("framework must be one of django,"), "{}", e.message);
}
