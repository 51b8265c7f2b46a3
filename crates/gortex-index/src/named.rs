//! `analyze kind=named`: named query bundles — reusable, named selections over the bundled
//! detectors (the review rulepack's rules, by id or category, and the `search_ast` pattern
//! detectors). Running one fans every detector it selects across the repository (one rulepack
//! pass, grounded as `review` grounds it, plus one sweep per pattern detector) and lists the
//! matches most severe first with a count per detector. Without `name` it lists the bundles.
//!
//! Bundles ship built in ([`BUILTIN`]); a project adds its own, or replaces a built-in of the same
//! name, with the `queries:` list of `.gortex.yaml` (the MCP tool passes it as `queries`).

use crate::search_ast::{SearchAstArgs, PATTERN_DETECTOR_SEVERITY};
use crate::RepoIndex;
use gortex_core::QueryError;
use gortex_graph::query::common::check_limit_with;
use gortex_graph::Graph;
use gortex_lang::review::{Severity, RULES};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One named bundle.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedQuery {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Detectors by id (a rule id such as `sql-string-concat`, or `eval-injection`).
    #[serde(default)]
    pub detectors: Vec<String>,
    /// Rule categories whose every rule runs (`injection`, `crypto`, `secret`, `null_deref`,
    /// `concurrency`, `performance`, `resource`, `error_handling`, `logic`).
    #[serde(default)]
    pub categories: Vec<String>,
    /// Lowest severity kept: info, warning, error or critical.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_severity: Option<String>,
}

/// The built-in bundles: (name, description, detectors, categories).
pub const BUILTIN: &[(&str, &str, &[&str], &[&str])] = &[
    (
        "sql-injection",
        "SQL built by splicing values into the query text",
        &["sql-string-concat"],
        &[],
    ),
    (
        "command-injection",
        "Shell commands and evaluated code built from run-time values",
        &["shell-string-concat", "eval-injection"],
        &[],
    ),
    (
        "hardcoded-secrets",
        "Credentials, keys and tokens written into the source",
        &["hardcoded-secret"],
        &[],
    ),
    (
        "weak-crypto",
        "Broken hashes and ciphers, insecure randomness for secrets",
        &["weak-crypto"],
        &[],
    ),
    (
        "security",
        "Every injection, cryptography and secret detector",
        &["eval-injection"],
        &["injection", "crypto", "secret"],
    ),
    (
        "null-safety",
        "Dereferences of values that can be null or undefined",
        &[],
        &["null_deref"],
    ),
    (
        "concurrency",
        "Check-then-act races and unsynchronised shared state",
        &[],
        &["concurrency"],
    ),
    (
        "performance",
        "Queries issued inside loops (N+1)",
        &[],
        &["performance"],
    ),
    (
        "resource-leaks",
        "Files, connections and handles opened and never closed",
        &[],
        &["resource"],
    ),
    (
        "error-handling",
        "Errors caught or returned and then dropped",
        &[],
        &["error_handling"],
    ),
    (
        "logic-slips",
        "Self-comparisons, inverted error checks, mutable defaults",
        &[],
        &["logic"],
    ),
];

fn builtins() -> Vec<NamedQuery> {
    BUILTIN
        .iter()
        .map(|(name, description, detectors, categories)| NamedQuery {
            name: name.to_string(),
            description: description.to_string(),
            detectors: detectors.iter().map(|d| d.to_string()).collect(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            min_severity: None,
        })
        .collect()
}

/// Arguments of `analyze kind=named`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedArgs {
    /// The bundle to run; absent lists every bundle.
    pub name: Option<String>,
    /// Project bundles (the `queries:` list of `.gortex.yaml`); one named like a built-in replaces it.
    #[serde(default)]
    pub queries: Vec<NamedQuery>,
    /// Only files under this repository-relative prefix.
    pub path_prefix: Option<String>,
    /// Most matches returned (1..=1000, default 200), most severe first.
    pub limit: Option<usize>,
}

/// One bundle in the listing.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BundleRow {
    pub name: String,
    pub description: String,
    /// The detectors it runs.
    pub detectors: Vec<String>,
    /// `builtin` or `config`.
    pub source: &'static str,
}

/// Matches of one detector.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DetectorCount {
    pub detector: String,
    pub severity: &'static str,
    pub count: usize,
}

/// One match of a bundle's detector.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NamedMatch {
    pub detector: String,
    pub severity: &'static str,
    pub category: &'static str,
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The innermost symbol around the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
}

/// The answer of `analyze kind=named`: the bundles (without `name`), or one bundle's matches.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct NamedResult {
    /// Every bundle (listing only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<BundleRow>,
    /// The bundle run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The detectors it ran.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub detectors: Vec<String>,
    /// Matches per detector that found any, most first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<DetectorCount>,
    /// Most severe first, then by detector, file and line; at most `limit`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<NamedMatch>,
    /// Bundles listed, or matches found.
    pub total: usize,
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files_searched: Option<usize>,
    pub evidence: &'static str,
}

/// Every detector id a bundle may name.
fn detector_ids() -> Vec<&'static str> {
    crate::search_ast::detectors().into_iter().map(|d| d.id).collect()
}

/// The detectors `q` selects, checked: unknown ids or categories are refused with the valid ones.
fn select(q: &NamedQuery) -> Result<Vec<String>, QueryError> {
    let ids = detector_ids();
    // An alias (`empty-catch`) runs its rule, with the rule's severity and category.
    let aliases: Vec<(&str, &str)> = crate::search_ast::detectors()
        .into_iter()
        .filter_map(|d| d.alias_of.map(|rule| (d.id, rule)))
        .collect();
    let categories: Vec<&str> = {
        let mut c: Vec<&str> = RULES.iter().map(|r| r.category).collect();
        c.dedup();
        c
    };
    let mut out: Vec<String> = Vec::new();
    for d in &q.detectors {
        if !ids.contains(&d.as_str()) {
            return Err(QueryError::invalid(format!(
                "named query `{}`: detector `{d}` is not one of {}",
                q.name,
                ids.join(", ")
            )));
        }
        let id = aliases
            .iter()
            .find(|(alias, _)| *alias == d)
            .map_or(d.as_str(), |(_, rule)| rule);
        out.push(id.to_string());
    }
    for c in &q.categories {
        if !categories.contains(&c.as_str()) {
            return Err(QueryError::invalid(format!(
                "named query `{}`: category `{c}` is not one of {}",
                q.name,
                categories.join(", ")
            )));
        }
        out.extend(RULES.iter().filter(|r| r.category == c).map(|r| r.id.to_string()));
    }
    out.sort();
    out.dedup();
    if out.is_empty() {
        return Err(QueryError::invalid(format!(
            "named query `{}` selects no detectors: give it detectors or categories",
            q.name
        )));
    }
    Ok(out)
}

impl RepoIndex {
    /// `analyze kind=named` (see the module doc).
    pub(crate) fn named(&self, g: &Graph, a: &NamedArgs) -> Result<NamedResult, QueryError> {
        let limit = check_limit_with(a.limit, 200)?;
        let mut bundles: BTreeMap<String, (NamedQuery, &'static str)> = builtins()
            .into_iter()
            .map(|q| (q.name.clone(), (q, "builtin")))
            .collect();
        for q in &a.queries {
            if q.name.trim().is_empty() {
                return Err(QueryError::invalid("a named query needs a name"));
            }
            bundles.insert(q.name.clone(), (q.clone(), "config"));
        }
        let Some(name) = a.name.as_deref() else {
            let queries = bundles
                .values()
                .map(|(q, source)| {
                    Ok(BundleRow {
                        name: q.name.clone(),
                        description: q.description.clone(),
                        detectors: select(q)?,
                        source,
                    })
                })
                .collect::<Result<Vec<_>, QueryError>>()?;
            return Ok(NamedResult {
                total: queries.len(),
                queries,
                evidence: "catalogue",
                ..Default::default()
            });
        };
        let (query, _) = bundles.get(name).ok_or_else(|| {
            QueryError::invalid(format!(
                "unknown named query `{name}` (available: {})",
                bundles.keys().cloned().collect::<Vec<_>>().join(", ")
            ))
        })?;
        let detectors = select(query)?;
        let min = match query.min_severity.as_deref() {
            None => Severity::Info,
            Some(s) => Severity::parse(s).ok_or_else(|| {
                QueryError::invalid(format!(
                    "named query `{name}`: min_severity `{s}` is not one of info, warning, error, critical"
                ))
            })?,
        };
        let (rules, patterns): (Vec<&String>, Vec<&String>) =
            detectors.iter().partition(|d| gortex_lang::review::rule(d).is_some());
        let mut matches: Vec<NamedMatch> = Vec::new();
        let mut files_searched = 0;
        let mut truncated = false;
        if !rules.is_empty() {
            let r = self.review(
                g,
                &crate::review::ReviewArgs {
                    rules: Some(rules.iter().map(|r| r.to_string()).collect()),
                    path_prefix: a.path_prefix.clone(),
                    min_severity: Some(min.as_str().to_string()),
                    limit: Some(5000),
                    ..Default::default()
                },
            )?;
            files_searched = r.files_scanned;
            truncated |= r.truncated;
            matches.extend(r.findings.into_iter().map(|f| NamedMatch {
                detector: f.rule.to_string(),
                severity: f.severity,
                category: f.category,
                path: f.path,
                line: f.line,
                column: f.column,
                message: f.message,
                symbol: f.symbol,
            }));
        }
        for detector in patterns.into_iter().filter(|_| PATTERN_DETECTOR_SEVERITY >= min) {
            let r = self.search_ast(
                g,
                &SearchAstArgs {
                    detector: Some(detector.clone()),
                    path_prefix: a.path_prefix.clone(),
                    limit: Some(1000),
                    timeout_ms: Some(30_000),
                    ..Default::default()
                },
            )?;
            files_searched = files_searched.max(r.files_searched);
            truncated |= r.truncated;
            matches.extend(r.matches.into_iter().map(|m| NamedMatch {
                detector: detector.clone(),
                severity: PATTERN_DETECTOR_SEVERITY.as_str(),
                category: "injection",
                path: m.path,
                line: m.line,
                column: m.column,
                message: m.message.unwrap_or_default(),
                symbol: m.symbol.map(|s| s.id),
            }));
        }
        let rank = |s: &str| Severity::parse(s).map_or(0, |s| s as u8);
        matches.sort_by(|x, y| {
            rank(y.severity)
                .cmp(&rank(x.severity))
                .then_with(|| x.detector.cmp(&y.detector))
                .then_with(|| (&x.path, x.line, x.column).cmp(&(&y.path, y.line, y.column)))
        });
        let mut counts: BTreeMap<&str, (&'static str, usize)> = BTreeMap::new();
        for m in &matches {
            counts.entry(m.detector.as_str()).or_insert((m.severity, 0)).1 += 1;
        }
        let mut summary: Vec<DetectorCount> = counts
            .into_iter()
            .map(|(d, (severity, count))| DetectorCount {
                detector: d.to_string(),
                severity,
                count,
            })
            .collect();
        summary.sort_by(|x, y| y.count.cmp(&x.count).then_with(|| x.detector.cmp(&y.detector)));
        let total = matches.len();
        matches.truncate(limit);
        Ok(NamedResult {
            query: Some(name.to_string()),
            detectors,
            summary,
            matches,
            total,
            truncated: truncated || total > limit,
            files_searched: Some(files_searched),
            evidence: "ast+graph",
            ..Default::default()
        })
    }
}
