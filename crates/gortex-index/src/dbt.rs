//! `analyze kind=dbt_models`: the dbt projects of the repository (each `dbt_project.yml`, its
//! `model-paths`, default `models`) and their models — every `.sql` file under a model path, named
//! by its file stem — with the models each one `ref()`s, the sources it reads (`source('s', 't')`),
//! its `materialized` config, which models read it, and whether a schema `.yml` documents it.
//! Problems found on the way: a `ref()` to a model no project defines, a `source()` no schema file
//! declares, two models of one name. Read with line and token scanners (`evidence: "text"`):
//! Jinja is not rendered, so a `ref` built from a variable is not seen.

use crate::infra::{field, scalar, top_list, InfraCoverage, InfraFile};
use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_graph::query::common::check_limit_with;
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Arguments of `analyze kind=dbt_models`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DbtModelsArgs {
    /// Only projects under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Only this model (by name), with what it reads and what reads it.
    #[serde(default)]
    pub model: Option<String>,
    /// Most models returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One dbt project.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DbtProject {
    pub name: String,
    /// Its `dbt_project.yml`.
    pub path: String,
    /// Model directories, project-relative.
    pub model_paths: Vec<String>,
    pub models: usize,
}

/// One model.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DbtModel {
    pub name: String,
    pub project: String,
    pub path: String,
    /// `config(materialized='…')`, when the model sets it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub materialized: Option<String>,
    /// Models it `ref()`s, sorted.
    pub refs: Vec<String>,
    /// Sources it reads, `source.table`, sorted.
    pub sources: Vec<String>,
    /// Models that `ref()` it, sorted.
    pub referenced_by: Vec<String>,
    /// A schema `.yml` lists it under `models:`.
    pub documented: bool,
}

/// A reference that does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DbtProblem {
    /// `missing_ref`, `undeclared_source` or `duplicate_model`.
    pub kind: &'static str,
    /// The model where it is.
    pub model: String,
    pub path: String,
    pub line: u32,
    /// The name that does not resolve (or is defined twice).
    pub name: String,
}

/// The answer of `analyze kind=dbt_models`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DbtModelsResult {
    pub projects: Vec<DbtProject>,
    /// By project and name, at most `limit`.
    pub models: Vec<DbtModel>,
    pub total: usize,
    pub truncated: bool,
    /// Models no other model reads (final marts, or dead ones), sorted.
    pub leaves: Vec<String>,
    pub problems: Vec<DbtProblem>,
    #[serde(flatten)]
    pub coverage: InfraCoverage,
}

/// A reference of a model: its line, the model (`ref`) or `source.table` (`source`) named, and
/// whether it is a `ref`.
type Site = (u32, String, bool);

/// The quoted arguments of every `name(` call in `text`, with the call's line: `ref('a')`,
/// `ref('pkg', 'a')`, `source('s', 't')` (an identifier character before `name` rules it out).
fn calls<'t>(text: &'t str, name: &str) -> Vec<(u32, Vec<&'t str>)> {
    let mut out = Vec::new();
    let pattern = format!("{name}(");
    let mut from = 0;
    while let Some(at) = text[from..].find(&pattern) {
        let start = from + at;
        from = start + pattern.len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let Some(close) = text[from..].find(')') else { break };
        let inside = &text[from..from + close];
        let args: Vec<&str> = inside
            .split(',')
            .map(str::trim)
            .filter_map(|a| {
                let q = a.chars().next().filter(|c| *c == '\'' || *c == '"')?;
                a.strip_prefix(q)?.strip_suffix(q)
            })
            .collect();
        let line = text[..start].matches('\n').count() as u32 + 1;
        out.push((line, args));
    }
    out
}

/// `materialized='…'` in a model's `config(…)`.
fn materialized(text: &str) -> Option<String> {
    let at = text.find("materialized")?;
    let rest = text[at + "materialized".len()..].trim_start();
    let rest = rest.strip_prefix('=').or_else(|| rest.strip_prefix(':'))?.trim_start();
    let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let value = &rest[1..];
    Some(value[..value.find(q)?].to_string())
}

/// The model names a schema file lists under `models:` and the `source.table` names it declares
/// under `sources:` (each entry's `- name:` at the list's own indentation; tables under `tables:`).
fn schema_names(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut models, mut sources) = (Vec::new(), Vec::new());
    let mut block = "";
    let mut item_indent: Option<usize> = None;
    let mut source = String::new();
    let mut tables_indent: Option<usize> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let indent = line.len() - t.len();
        if indent == 0 {
            block = if field(line, 0, "models").is_some() {
                "models"
            } else if field(line, 0, "sources").is_some() {
                "sources"
            } else {
                ""
            };
            item_indent = None;
            tables_indent = None;
            continue;
        }
        let Some(name) = t.strip_prefix("- name:").map(scalar) else {
            if block == "sources" && t.starts_with("tables:") {
                tables_indent = Some(indent);
            }
            continue;
        };
        let first = *item_indent.get_or_insert(indent);
        match block {
            "models" if indent == first => models.push(name),
            "sources" if indent == first => {
                source = name;
                tables_indent = None;
            }
            "sources" if tables_indent.is_some_and(|ti| indent >= ti) => sources.push(format!("{source}.{name}")),
            _ => {}
        }
    }
    (models, sources)
}

/// A project's model directories: `model-paths` (or the older `source-paths`), flow or block
/// list; `models` when neither is set.
fn model_paths(text: &str) -> Vec<String> {
    for key in ["model-paths", "source-paths"] {
        if let Some(v) = text.lines().find_map(|l| field(l, 0, key)) {
            if let Some(inner) = v.trim().strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                return inner.split(',').map(scalar).filter(|p| !p.is_empty()).collect();
            }
            let listed = top_list(text, key);
            if !listed.is_empty() {
                return listed;
            }
        }
    }
    vec!["models".into()]
}

impl RepoIndex {
    /// `analyze kind=dbt_models` (see the module doc).
    pub(crate) fn dbt_models(&self, g: &Graph, a: &DbtModelsArgs) -> Result<DbtModelsResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let is_project = |p: &str| p == "dbt_project.yml" || p.ends_with("/dbt_project.yml");
        let (project_files, _) = self.infra_files(g, a.path_prefix.as_deref(), |_, p| is_project(p))?;
        // Each project: (name, directory, model directories as repository paths).
        let projects: Vec<(String, String, String, Vec<String>)> = project_files
            .iter()
            .map(|f| {
                let dir = f.path.strip_suffix("dbt_project.yml").unwrap_or("").to_string();
                let name = f
                    .text
                    .lines()
                    .find_map(|l| field(l, 0, "name").map(scalar))
                    .unwrap_or_else(|| dir.trim_end_matches('/').rsplit('/').next().unwrap_or("").to_string());
                (name, f.path.clone(), dir, model_paths(&f.text))
            })
            .collect();
        let project_of = |path: &str| {
            projects.iter().find(|(_, _, dir, paths)| {
                paths
                    .iter()
                    .any(|m| path.starts_with(&format!("{dir}{}/", m.trim_end_matches('/'))))
            })
        };
        let (files, coverage) = self.infra_files(g, a.path_prefix.as_deref(), |_, p| {
            (p.ends_with(".sql") || p.ends_with(".yml") || p.ends_with(".yaml")) && project_of(p).is_some()
        })?;
        let (mut documented, mut declared) = (BTreeSet::new(), BTreeSet::new());
        for InfraFile { path, text, .. } in files.iter().filter(|f| !f.path.ends_with(".sql")) {
            let (models, sources) = schema_names(text);
            let project = &project_of(path).expect("filtered to model paths").0;
            documented.extend(models.into_iter().map(|m| (project.clone(), m)));
            declared.extend(sources);
        }
        let mut problems = Vec::new();
        let mut models: BTreeMap<(String, String), DbtModel> = BTreeMap::new();
        let mut sites: BTreeMap<(String, String), Vec<Site>> = BTreeMap::new();
        for InfraFile { path, text, .. } in files.iter().filter(|f| f.path.ends_with(".sql")) {
            let project = project_of(path).expect("filtered to model paths").0.clone();
            let name = path
                .rsplit('/')
                .next()
                .unwrap_or(path)
                .trim_end_matches(".sql")
                .to_string();
            let key = (project.clone(), name.clone());
            if let Some(first) = models.get(&key) {
                problems.push(DbtProblem {
                    kind: "duplicate_model",
                    model: name.clone(),
                    path: path.clone(),
                    line: 1,
                    name: first.path.clone(),
                });
                continue;
            }
            let mut refs = BTreeSet::new();
            let mut site_list = Vec::new();
            for (line, args) in calls(text, "ref") {
                if let Some(model) = args.last() {
                    refs.insert(model.to_string());
                    site_list.push((line, model.to_string(), true));
                }
            }
            let mut sources = BTreeSet::new();
            for (line, args) in calls(text, "source") {
                if let [s, t] = args[..] {
                    sources.insert(format!("{s}.{t}"));
                    site_list.push((line, format!("{s}.{t}"), false));
                }
            }
            sites.insert(key.clone(), site_list);
            models.insert(
                key.clone(),
                DbtModel {
                    documented: documented.contains(&key),
                    name,
                    project,
                    path: path.clone(),
                    materialized: materialized(text),
                    refs: refs.into_iter().collect(),
                    sources: sources.into_iter().collect(),
                    referenced_by: Vec::new(),
                },
            );
        }
        // Readers, and the references that do not hold (a ref may name a model of any project).
        let names: BTreeSet<String> = models.keys().map(|(_, n)| n.clone()).collect();
        let mut readers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for ((_, name), model) in &models {
            for r in &model.refs {
                readers.entry(r.clone()).or_default().insert(name.clone());
            }
            for (line, target, is_ref) in &sites[&(model.project.clone(), name.clone())] {
                let (holds, kind) = if *is_ref {
                    (names.contains(target), "missing_ref")
                } else {
                    (declared.contains(target), "undeclared_source")
                };
                if !holds {
                    problems.push(DbtProblem {
                        kind,
                        model: name.clone(),
                        path: model.path.clone(),
                        line: *line,
                        name: target.clone(),
                    });
                }
            }
        }
        for model in models.values_mut() {
            model.referenced_by = readers
                .get(&model.name)
                .map(|r| r.iter().cloned().collect())
                .unwrap_or_default();
        }
        problems.sort_by(|a, b| (&a.path, a.line, &a.name).cmp(&(&b.path, b.line, &b.name)));
        let leaves = models
            .values()
            .filter(|m| m.referenced_by.is_empty())
            .map(|m| m.name.clone())
            .collect();
        let project_rows = projects
            .iter()
            .map(|(name, path, _, paths)| DbtProject {
                name: name.clone(),
                path: path.clone(),
                model_paths: paths.clone(),
                models: models.keys().filter(|(p, _)| p == name).count(),
            })
            .collect();
        let mut rows: Vec<DbtModel> = models.into_values().collect();
        if let Some(wanted) = a.model.as_deref().map(str::trim) {
            rows.retain(|m| m.name == wanted);
            if rows.is_empty() {
                return Err(QueryError::not_found(format!(
                    "no dbt model is named {wanted:?}; models: {}",
                    names.iter().take(20).cloned().collect::<Vec<_>>().join(", ")
                )));
            }
        }
        let total = rows.len();
        rows.truncate(limit);
        Ok(DbtModelsResult {
            projects: project_rows,
            models: rows,
            total,
            truncated: total > limit,
            leaves,
            problems,
            coverage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jinja_calls_and_schema_names_are_read_from_text() {
        let sql = "select * from {{ ref('stg_orders') }} join {{ ref('pkg', 'stg_users') }}\n\
                   join {{ source('shop', 'payments') }} where x.pref('no') = 1";
        let refs: Vec<(u32, Vec<&str>)> = calls(sql, "ref");
        assert_eq!(refs, vec![(1, vec!["stg_orders"]), (1, vec!["pkg", "stg_users"])]);
        assert_eq!(calls(sql, "source"), vec![(2, vec!["shop", "payments"])]);
        assert_eq!(
            materialized("{{ config(materialized = \"table\", tags=['x']) }}"),
            Some("table".into())
        );
        let yml = "version: 2\nsources:\n  - name: shop\n    tables:\n      - name: payments\n      - name: refunds\nmodels:\n  - name: orders\n    columns:\n      - name: id\n";
        assert_eq!(
            schema_names(yml),
            (
                vec!["orders".to_string()],
                vec!["shop.payments".to_string(), "shop.refunds".to_string()]
            )
        );
        assert_eq!(
            model_paths("name: x\nmodel-paths: [\"models\", 'marts']\n"),
            vec!["models", "marts"]
        );
        assert_eq!(model_paths("name: x\n"), vec!["models"]);
    }
}
