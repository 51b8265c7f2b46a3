//! `search_ast`: structural search. Either a raw tree-sitter S-expression `pattern` for one
//! `language`, run over that language's indexed files (only those the trigram index says may hold
//! every literal the pattern names), or a bundled `detector` by name — each correctness rule of the
//! review rulepack (graph-grounded as `review` grounds it, across TS/JS, Python, Go and Java), and
//! pattern detectors of their own (`eval-injection`). Bounded by `limit` and a deadline; what was
//! cut is said. A malformed pattern is an `invalid_argument` naming its line and column.

use crate::sweep::{Sweep, Visit};
use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use gortex_lang::structural::{self, Cut};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Arguments of `search_ast`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchAstArgs {
    /// A tree-sitter query (S-expression), e.g. `(call_expression function: (identifier) @f (#eq? @f "eval"))`; needs `language`.
    pub pattern: Option<String>,
    /// The language `pattern` is written for (typescript, tsx, javascript, python, go, java, rust, c, cpp, …).
    pub language: Option<String>,
    /// A bundled detector instead of a pattern: a review rule id (sql-string-concat, weak-crypto,
    /// hardcoded-secret, swallowed-error, null-deref, …), `empty-catch`, or `eval-injection`.
    pub detector: Option<String>,
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Most matches returned (1..=1000, default 100).
    pub limit: Option<usize>,
    /// Stop after this many milliseconds (100..=60000, default 10000); the answer says it was cut.
    pub timeout_ms: Option<u64>,
}

/// One structural match.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AstHit {
    pub path: String,
    /// 1-based lines, 0-based byte columns.
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    /// The matched node's kind (pattern mode) or the rule (detector mode).
    pub kind: String,
    /// The line's text, trimmed (cut to 240 characters).
    pub text: String,
    /// Capture name → its text (pattern mode).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub captures: BTreeMap<String, String>,
    /// What the detector says (detector mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The innermost symbol holding the match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
}

/// Result of `search_ast`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchAstResult {
    pub matches: Vec<AstHit>,
    /// Files of the language(s) under the prefix.
    pub files_considered: usize,
    /// Files parsed and searched (the rest cannot hold a literal the pattern names).
    pub files_searched: usize,
    /// The literals used to skip files, when the pattern names any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prefilter: Vec<String>,
    /// Files that could not be parsed, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// `limit` matches were reached or the deadline passed: there may be more.
    pub truncated: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    pub evidence: &'static str,
}

/// Pattern detectors bundled beside the review rules: name → (language, pattern) per language.
/// A capture named `arg` must not be a plain string literal (the value is built at run time).
const PATTERN_DETECTORS: &[(&str, &[(Language, &str)])] = &[(
    "eval-injection",
    &[
        (
            Language::JavaScript,
            r#"(call_expression function: [(identifier) @f (member_expression property: (property_identifier) @f)] (#any-of? @f "eval" "Function" "setTimeout" "setInterval") arguments: (arguments . (_) @arg))"#,
        ),
        (
            Language::TypeScript,
            r#"(call_expression function: [(identifier) @f (member_expression property: (property_identifier) @f)] (#any-of? @f "eval" "Function" "setTimeout" "setInterval") arguments: (arguments . (_) @arg))"#,
        ),
        (
            Language::Tsx,
            r#"(call_expression function: [(identifier) @f (member_expression property: (property_identifier) @f)] (#any-of? @f "eval" "Function" "setTimeout" "setInterval") arguments: (arguments . (_) @arg))"#,
        ),
        (
            Language::Python,
            r#"(call function: (identifier) @f (#any-of? @f "eval" "exec" "compile") arguments: (argument_list . (_) @arg))"#,
        ),
    ],
)];

/// The severity a pattern detector's matches carry (code evaluated from run-time values).
pub const PATTERN_DETECTOR_SEVERITY: gortex_lang::review::Severity = gortex_lang::review::Severity::Error;

/// Rule aliases detectors are also known by.
const ALIASES: &[(&str, &str)] = &[("empty-catch", "swallowed-error")];

/// Node kinds that are literal strings with nothing interpolated.
fn is_plain_literal(kind: &str, text: &str) -> bool {
    matches!(
        kind,
        "string" | "string_literal" | "interpreted_string_literal" | "raw_string_literal" | "number" | "integer"
    ) || (kind == "template_string" && !text.contains("${"))
}

impl RepoIndex {
    /// Runs `search_ast`.
    pub(crate) fn search_ast(&self, g: &Graph, a: &SearchAstArgs) -> Result<SearchAstResult, QueryError> {
        let limit = gortex_graph::query::common::check_limit(a.limit.or(Some(100)))?;
        let timeout = a.timeout_ms.unwrap_or(10_000);
        if !(100..=60_000).contains(&timeout) {
            return Err(QueryError::invalid(format!(
                "timeout_ms must be 100..=60000, got {timeout}"
            )));
        }
        let deadline = Instant::now() + Duration::from_millis(timeout);
        match (&a.pattern, &a.detector) {
            (Some(_), Some(_)) => Err(QueryError::invalid(
                "pass pattern (with language) or detector, not both",
            )),
            (None, None) => Err(QueryError::invalid(format!(
                "pass pattern (a tree-sitter query, with language) or detector (one of {})",
                detector_names().join(", ")
            ))),
            (Some(pattern), None) => {
                let name = a.language.as_deref().ok_or_else(|| {
                    QueryError::invalid(
                        "pattern needs language: the grammar it is written for (typescript, python, go, java, …)",
                    )
                })?;
                let language: Language = serde_json::from_value(serde_json::Value::String(name.to_string()))
                    .map_err(|_| QueryError::invalid(format!("language `{name}` is not a language gortex knows")))?;
                let query = structural::compile(language, pattern).map_err(QueryError::invalid)?;
                let literals = structural::required_literals(pattern);
                let pattern_set = [(language, query, Vec::<&str>::new())];
                self.run_patterns(
                    g,
                    &pattern_set,
                    a.path_prefix.as_deref(),
                    literals,
                    limit,
                    deadline,
                    false,
                )
            }
            (None, Some(detector)) => {
                let detector = ALIASES
                    .iter()
                    .find(|(alias, _)| alias == detector)
                    .map_or(detector.as_str(), |(_, rule)| *rule);
                if let Some((_, patterns)) = PATTERN_DETECTORS.iter().find(|(name, _)| *name == detector) {
                    let compiled = patterns
                        .iter()
                        .filter(|(l, _)| gortex_lang::supports(*l))
                        .map(|(l, p)| structural::compile(*l, p).map(|q| (*l, q, vec!["arg"])))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| QueryError::invalid(format!("detector {detector}: {e}")))?;
                    return self.run_patterns(
                        g,
                        &compiled,
                        a.path_prefix.as_deref(),
                        Vec::new(),
                        limit,
                        deadline,
                        true,
                    );
                }
                if gortex_lang::review::rule(detector).is_none() {
                    return Err(QueryError::invalid(format!(
                        "detector `{detector}` is not one of {}",
                        detector_names().join(", ")
                    )));
                }
                self.rule_detector(g, detector, a.path_prefix.as_deref(), limit)
            }
        }
    }

    /// Runs compiled patterns over the files of their languages; `nonliteral`: drop matches whose `@arg` is a plain literal.
    #[allow(clippy::too_many_arguments)]
    fn run_patterns(
        &self,
        g: &Graph,
        patterns: &[(Language, structural::AstQuery, Vec<&str>)],
        prefix: Option<&str>,
        literals: Vec<String>,
        limit: usize,
        deadline: Instant,
        detector: bool,
    ) -> Result<SearchAstResult, QueryError> {
        // Only a pattern naming literals consults (and so builds, on first use) the trigram index.
        let allowed: Option<std::collections::HashSet<String>> = if literals.is_empty() {
            None
        } else {
            self.with_text(|t| t.files_maybe_containing(&literals))
                .map(|v| v.into_iter().collect())
        };
        let queries: Vec<(Language, &structural::AstQuery)> = patterns.iter().map(|(l, q, _)| (*l, q)).collect();
        let nonliteral: Vec<(Language, &[&str])> = patterns.iter().map(|(l, _, n)| (*l, n.as_slice())).collect();
        let sweep = Sweep {
            patterns: &queries,
            prefix: prefix.unwrap_or("").trim_start_matches("./"),
            allowed: allowed.as_ref(),
            literals: &literals,
            per_file: limit + 1,
            deadline,
        };
        let mut out = Vec::new();
        let swept = self.sweep(g, &sweep, |site, m| {
            let dropped = nonliteral
                .iter()
                .find(|(l, _)| *l == site.language)
                .is_some_and(|(_, caps)| {
                    caps.iter().any(|cap| {
                        m.captures
                            .iter()
                            .any(|(n, kind, t)| n == cap && is_plain_literal(kind, t))
                    })
                });
            if dropped {
                return Visit::More;
            }
            if out.len() >= limit {
                return Visit::Stop;
            }
            let symbol = crate::review::enclosing_symbol(g, site.path, m.line).map(|i| NodeSummary::of(g.node_at(i)));
            out.push(AstHit {
                path: site.path.to_string(),
                line: m.line,
                column: m.column,
                end_line: m.end_line,
                kind: if detector {
                    "eval-injection".into()
                } else {
                    m.kind.clone()
                },
                text: site.quote(m.line),
                captures: m.captures.iter().map(|(n, _, t)| (n.clone(), t.clone())).collect(),
                message: detector.then(|| {
                    format!(
                        "code run from a value built at run time: `{}`",
                        m.captures
                            .iter()
                            .find(|(n, _, _)| n == "arg")
                            .map_or("", |(_, _, t)| t.as_str())
                    )
                }),
                symbol,
            });
            Visit::More
        });
        Ok(SearchAstResult {
            matches: out,
            files_considered: swept.considered,
            files_searched: swept.searched,
            prefilter: if allowed.is_some() { literals } else { Vec::new() },
            skipped: swept.skipped,
            truncated: swept.cut.is_some(),
            timed_out: swept.cut == Some(Cut::Deadline),
            evidence: "ast",
        })
    }

    /// A review rule as a detector: the rulepack's findings for that rule under the prefix, grounded.
    fn rule_detector(
        &self,
        g: &Graph,
        rule: &str,
        prefix: Option<&str>,
        limit: usize,
    ) -> Result<SearchAstResult, QueryError> {
        let args = crate::review::ReviewArgs {
            rules: Some(vec![rule.to_string()]),
            path_prefix: prefix.map(str::to_string),
            limit: Some(limit),
            ..Default::default()
        };
        let r = self.review(g, &args)?;
        let truncated = r.truncated;
        let matches = r
            .findings
            .into_iter()
            .map(|f| AstHit {
                symbol: crate::review::enclosing_symbol(g, &f.path, f.line).map(|i| NodeSummary::of(g.node_at(i))),
                path: f.path,
                line: f.line,
                column: f.column,
                end_line: f.end_line,
                kind: f.rule.to_string(),
                text: f.source,
                captures: BTreeMap::new(),
                message: Some(f.message),
            })
            .collect();
        Ok(SearchAstResult {
            matches,
            files_considered: r.files_scanned,
            files_searched: r.files_scanned,
            prefilter: Vec::new(),
            skipped: r.files_skipped,
            truncated,
            timed_out: false,
            evidence: "ast+graph",
        })
    }
}

/// One bundled `search_ast` detector, for catalogues (the guide's `search_ast` topic).
#[derive(Debug, Clone, Serialize)]
pub struct DetectorInfo {
    pub id: &'static str,
    /// What it finds, in one line.
    pub title: &'static str,
    pub languages: Vec<&'static str>,
    /// The rule an alias runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<&'static str>,
}

/// Every bundled detector: the review rules, their aliases, then the pattern detectors.
pub fn detectors() -> Vec<DetectorInfo> {
    let rules = gortex_lang::review::RULES.iter();
    let mut out: Vec<DetectorInfo> = rules
        .clone()
        .map(|r| DetectorInfo {
            id: r.id,
            title: r.title,
            languages: r.languages.to_vec(),
            alias_of: None,
        })
        .collect();
    for (alias, target) in ALIASES {
        let rule = rules.clone().find(|r| r.id == *target).expect("an alias names a rule");
        out.push(DetectorInfo {
            id: alias,
            title: rule.title,
            languages: rule.languages.to_vec(),
            alias_of: Some(target),
        });
    }
    for (name, patterns) in PATTERN_DETECTORS {
        out.push(DetectorInfo {
            id: name,
            title: "code evaluated from a value built at run time (eval, Function, exec, string timers)",
            languages: patterns.iter().map(|(l, _)| l.as_str()).collect(),
            alias_of: None,
        });
    }
    out
}

/// Every detector name `search_ast` accepts.
fn detector_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = gortex_lang::review::RULES.iter().map(|r| r.id).collect();
    names.extend(ALIASES.iter().map(|(a, _)| *a));
    names.extend(PATTERN_DETECTORS.iter().map(|(n, _)| *n));
    names
}
