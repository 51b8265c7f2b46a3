//! `analyze kind=models`: the data models of the repository — classes and structs an ORM or a
//! schema library maps — found from the graph by what they extend, embed or are annotated with:
//!
//! - extending a model base: Django `models.Model`, SQLAlchemy `DeclarativeBase` / `Base` /
//!   `db.Model` (Flask-SQLAlchemy), SQLModel, Sequelize `Model`, Rails `ApplicationRecord` /
//!   `ActiveRecord::Base`, MongoEngine `Document`, Pydantic `BaseModel` (a schema, reported as
//!   such);
//! - annotated: JPA / Spring Data `@Entity`, `@Document`, `@Embeddable`, TypeORM `@Entity`,
//!   sequelize-typescript `@Table`, NestJS Mongoose `@Schema`, EF Core `[Table]`;
//! - embedding GORM's `gorm.Model` (a Go struct field of that type).
//!
//! Each with its framework, the evidence, and its fields (the field members the graph holds).

use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, NodeKind, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Arguments of `analyze kind=models`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelsArgs {
    /// Only models of this framework (django, sqlalchemy, sqlmodel, sequelize, activerecord,
    /// mongoengine, pydantic, jpa, typeorm, mongoose, efcore, gorm).
    #[serde(default)]
    pub framework: Option<String>,
    /// Only models declared under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most models returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One data model.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ModelRow {
    pub model: NodeSummary,
    pub framework: &'static str,
    /// `orm` (mapped to storage) or `schema` (validation, serialisation: Pydantic).
    pub role: &'static str,
    /// What identified it: `extends django.db.models.Model`, `@Entity`, `embeds gorm.Model`.
    pub evidence: String,
    /// Its field members, by name.
    pub fields: Vec<String>,
}

/// The answer of `analyze kind=models`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ModelsResult {
    /// By framework, then path and line, at most `limit`.
    pub models: Vec<ModelRow>,
    pub total: usize,
    pub truncated: bool,
    pub by_framework: BTreeMap<&'static str, usize>,
}

/// The framework a base class names: `(framework, role)`.
fn base_framework(name: &str, qualified: &str) -> Option<(&'static str, &'static str)> {
    let q = qualified.to_ascii_lowercase();
    Some(match name {
        "Model" if q.contains("django") || q == "models.model" => ("django", "orm"),
        "Model" if q.contains("sequelize") => ("sequelize", "orm"),
        "Model" if q.ends_with("db.model") || q.contains("sqlalchemy") => ("sqlalchemy", "orm"),
        "DeclarativeBase" | "Base" if q.contains("sqlalchemy") || name == "Base" => ("sqlalchemy", "orm"),
        "SQLModel" => ("sqlmodel", "orm"),
        "ApplicationRecord" => ("activerecord", "orm"),
        "Base" if q.contains("activerecord") => ("activerecord", "orm"),
        "Document" | "DynamicDocument" if q.contains("mongoengine") => ("mongoengine", "orm"),
        "BaseModel" if q.contains("pydantic") || q == "basemodel" => ("pydantic", "schema"),
        _ => return None,
    })
}

/// The framework an annotation names, given the language family of the annotated class.
fn annotation_framework(annotation: &str, ecmascript: bool) -> Option<(&'static str, &'static str)> {
    Some(match (annotation, ecmascript) {
        ("Entity", true) => ("typeorm", "orm"),
        ("Entity" | "Document" | "Embeddable" | "MappedSuperclass", false) => ("jpa", "orm"),
        ("Table", true) => ("sequelize", "orm"),
        ("Table", false) => ("efcore", "orm"),
        ("Schema", true) => ("mongoose", "orm"),
        _ => return None,
    })
}

/// Why a type is a model, if it is one.
fn model_of(g: &Graph, i: NodeIndex) -> Option<(&'static str, &'static str, String)> {
    let n = g.node_at(i);
    let ecmascript = n.language.is_some_and(|l| l.is_ecmascript());
    for d in &n.decorators {
        if let Some((framework, role)) = annotation_framework(d, ecmascript) {
            return Some((framework, role, format!("@{d}")));
        }
    }
    for e in g.out_edges(i).filter(|e| e.kind == EdgeKind::Extends) {
        let base = g.node_at(e.to);
        if let Some((framework, role)) = base_framework(&base.name, &base.qualified) {
            return Some((framework, role, format!("extends {}", base.qualified)));
        }
    }
    // A Go struct embedding gorm.Model: a field member named Model typed gorm.Model.
    members(g, i).find_map(|f| {
        let field = g.node_at(f);
        let typed = field
            .type_name
            .as_deref()
            .is_some_and(|t| t.trim_start_matches('*') == "gorm.Model");
        (field.name == "Model" && typed).then(|| ("gorm", "orm", "embeds gorm.Model".to_string()))
    })
}

/// The members of a type (the nodes with a `member_of` edge into it).
fn members(g: &Graph, i: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
    g.in_edges(i).filter(|e| e.kind == EdgeKind::MemberOf).map(|e| e.from)
}

/// Every framework `models` names.
const FRAMEWORKS: [&str; 12] = [
    "django",
    "sqlalchemy",
    "sqlmodel",
    "sequelize",
    "activerecord",
    "mongoengine",
    "pydantic",
    "jpa",
    "typeorm",
    "mongoose",
    "efcore",
    "gorm",
];

/// `analyze kind=models` (see the module doc).
pub fn models(g: &Graph, args: &ModelsArgs) -> Result<ModelsResult, QueryError> {
    let limit = check_limit_with(args.limit, 100)?;
    if let Some(f) = args.framework.as_deref().filter(|f| !FRAMEWORKS.contains(f)) {
        return Err(QueryError::invalid(format!(
            "framework must be one of {}, got {f:?}",
            FRAMEWORKS.join(", ")
        )));
    }
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let mut rows: Vec<ModelRow> = Vec::new();
    for (i, n) in g.node_entries() {
        if n.kind != NodeKind::Type || n.external || !under(&n.path, prefix.as_deref()) {
            continue;
        }
        let Some((framework, role, evidence)) = model_of(g, i) else {
            continue;
        };
        if args.framework.as_deref().is_some_and(|f| f != framework) {
            continue;
        }
        let mut fields: Vec<String> = members(g, i)
            .map(|m| g.node_at(m))
            .filter(|m| m.kind == NodeKind::Field && !(framework == "gorm" && m.name == "Model"))
            .map(|m| m.name.clone())
            .collect();
        fields.sort_unstable();
        fields.dedup();
        rows.push(ModelRow {
            model: NodeSummary::at(g, i),
            framework,
            role,
            evidence,
            fields,
        });
    }
    rows.sort_by(|a, b| {
        a.framework
            .cmp(b.framework)
            .then_with(|| a.model.path.cmp(&b.model.path))
            .then(a.model.line.cmp(&b.model.line))
    });
    let mut by_framework = BTreeMap::new();
    for r in &rows {
        *by_framework.entry(r.framework).or_insert(0) += 1;
    }
    let total = rows.len();
    rows.truncate(limit);
    Ok(ModelsResult {
        models: rows,
        total,
        truncated: total > limit,
        by_framework,
    })
}
