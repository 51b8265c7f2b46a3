//! `analyze kind=error_surface`: the errors a function can surface to its callers — the ones it
//! raises itself (read from the syntax trees) and, through the graph's resolved calls, the ones
//! its callees raise, a few calls deep. A call made inside a `try` body is taken as handled there
//! and passes nothing on (what the `catch` catches is not narrowed by type).
//!
//! Raised errors per language: Python `raise X(…)` / `raise X`; JavaScript and TypeScript
//! `throw new X(…)`; Java and C# `throw new X(…)`, and Java's `throws` clauses; Go `return …,
//! errors.New("msg")` / `fmt.Errorf("msg")` (the message is the error) and sentinel errors
//! returned by name (`return nil, ErrNotFound`); Rust `Err(X…)` (the error's path) and `panic!`.
//! Re-raising what was caught (`raise`, `throw err`) adds nothing new.

use crate::sweep::enclosing_function;
use crate::sweep::{Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, Origin, QueryError};
use gortex_graph::query::common::{check_limit_with, check_range};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

const THROW_NEW: &str = r#"(throw_statement (new_expression constructor: (identifier) @raise))
    (try_statement body: (_) @try)"#;

/// Raise sites (`@raise`, `@go_error`, `@go_sentinel`, `@rust_err`, `@panic`, `@throws`) and
/// `try` bodies (`@try`) per language.
const RAISES: &[(Language, &str)] = &[
    (
        Language::Python,
        r#"(raise_statement (call function: [(identifier) (attribute)] @raise))
           (raise_statement [(identifier) (attribute)] @raise)
           (try_statement body: (block) @try)"#,
    ),
    (Language::JavaScript, THROW_NEW),
    (Language::TypeScript, THROW_NEW),
    (Language::Tsx, THROW_NEW),
    (
        Language::Java,
        r#"(throw_statement (object_creation_expression type: (type_identifier) @raise))
           (method_declaration (throws (type_identifier) @throws))
           (try_statement body: (block) @try)"#,
    ),
    (
        Language::CSharp,
        r#"(throw_statement (object_creation_expression type: (identifier) @raise))
           (try_statement body: (block) @try)"#,
    ),
    (
        Language::Go,
        r#"(return_statement (expression_list (call_expression function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_f) arguments: (argument_list . (interpreted_string_literal) @go_error)) (#any-of? @_pkg "errors" "fmt") (#any-of? @_f "New" "Errorf")))
           (return_statement (expression_list (identifier) @go_sentinel (#match? @go_sentinel "^Err[A-Z]")))"#,
    ),
    (
        Language::Rust,
        r#"(call_expression function: (identifier) @_e (#eq? @_e "Err") arguments: (arguments . (_) @rust_err))
           (macro_invocation macro: (identifier) @panic (#eq? @panic "panic"))"#,
    ),
];

/// An error as reported: Python's `raise` of a lower-case name is a re-raise of a caught value.
fn error_name(h: &Hit) -> Option<String> {
    let name = match h.what.as_str() {
        "raise" | "throws" => h.text.clone(),
        "go_error" => format!("error: {}", h.text.trim_matches('"')),
        "go_sentinel" => h.text.clone(),
        // `Err(MyError::NotFound { .. })`, `Err(e)`: a path names an error; a plain local does not.
        "rust_err" => {
            let head: String = h
                .text
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == ':' || *c == '_')
                .collect();
            if head.contains("::") || head.chars().next().is_some_and(char::is_uppercase) {
                head
            } else {
                return None;
            }
        }
        "panic" => "panic".into(),
        _ => return None,
    };
    let reraise = h.what == "raise" && name.chars().next().is_some_and(char::is_lowercase) && !name.contains('.');
    (!reraise).then_some(name)
}

/// Arguments of `analyze kind=error_surface`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorSurfaceArgs {
    /// The function or method whose surface to trace (id or name); without it, the functions
    /// raising the most distinct errors themselves.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Calls followed from `symbol` (1..=6, default 3).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Only files under this repository-relative prefix (the whole-repository listing).
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// An error a function can surface, and how.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SurfacedError {
    pub error: String,
    /// 0: raised by the function itself; n: by a function n calls away.
    pub depth: u32,
    /// The function raising it.
    pub raised_by: NodeSummary,
    pub path: String,
    pub line: u32,
    /// The call chain from the function to the raiser (qualified names), empty at depth 0.
    pub via: Vec<String>,
}

/// A function and the errors it raises itself.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Raiser {
    pub function: NodeSummary,
    /// Distinct errors, sorted.
    pub errors: Vec<String>,
}

/// The answer of `analyze kind=error_surface`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorSurfaceResult {
    /// With `symbol`: the function traced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
    /// With `symbol`: each error it can surface, nearest raiser first (ties by name), at most
    /// `limit`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub surfaced: Vec<SurfacedError>,
    /// Without `symbol`: the functions raising the most distinct errors, at most `limit`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub raisers: Vec<Raiser>,
    /// Rows before `limit`.
    pub total: usize,
    pub truncated: bool,
    /// Raise sites per error over the repository (or `path_prefix`).
    pub by_error: BTreeMap<String, usize>,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=error_surface` (see the module doc).
    pub(crate) fn error_surface(&self, g: &Graph, a: &ErrorSurfaceArgs) -> Result<ErrorSurfaceResult, QueryError> {
        let limit = check_limit_with(a.limit, 50)?;
        let depth = check_range("depth", a.depth, 3, 1, 6)?;
        let target = a
            .symbol
            .as_deref()
            .map(|s| gortex_graph::query::targets::resolve_arg(g, "symbol", s))
            .transpose()?;
        let prefix = if target.is_some() {
            None
        } else {
            a.path_prefix.as_deref()
        };
        let (hits, coverage) = self.ast_hits(g, RAISES, prefix)?;
        // Own raises per function, and the try bodies per file.
        let mut own: FxHashMap<NodeIndex, Vec<(String, &Hit)>> = FxHashMap::default();
        let mut tries: FxHashMap<&str, Vec<(u32, u32)>> = FxHashMap::default();
        let mut by_error = BTreeMap::new();
        for h in &hits {
            if h.what == "try" {
                tries.entry(&h.path).or_default().push((h.line, h.end_line));
                continue;
            }
            let Some(error) = error_name(h) else { continue };
            let Some(f) = enclosing_function(g, &h.path, h.line).filter(|&f| g.node_at(f).kind.is_callable()) else {
                continue;
            };
            *by_error.entry(error.clone()).or_insert(0) += 1;
            own.entry(f).or_default().push((error, h));
        }
        let Some(target) = target else {
            let mut raisers: Vec<Raiser> = own
                .iter()
                .map(|(&f, raised)| {
                    let mut errors: Vec<String> = raised.iter().map(|(e, _)| e.clone()).collect();
                    errors.sort_unstable();
                    errors.dedup();
                    Raiser {
                        function: NodeSummary::at(g, f),
                        errors,
                    }
                })
                .collect();
            raisers.sort_by(|a, b| {
                b.errors
                    .len()
                    .cmp(&a.errors.len())
                    .then_with(|| a.function.id.cmp(&b.function.id))
            });
            let total = raisers.len();
            raisers.truncate(limit);
            return Ok(ErrorSurfaceResult {
                symbol: None,
                surfaced: Vec::new(),
                raisers,
                total,
                truncated: total > limit,
                by_error,
                coverage,
            });
        };
        // Breadth-first over resolved calls not made inside a try body: the first (nearest)
        // raiser of each error wins.
        let in_try = |f: NodeIndex, line: u32| {
            let path: &str = &g.node_at(f).path;
            tries.get(path).is_some_and(|spans| {
                let span = g.node_at(f).span;
                spans
                    .iter()
                    .any(|&(s, e)| s <= line && line <= e && span.start_line <= s && e <= span.end_line)
            })
        };
        let mut seen: FxHashMap<NodeIndex, Vec<NodeIndex>> = FxHashMap::default();
        seen.insert(target, Vec::new());
        let mut queue = VecDeque::from([(target, 0u32)]);
        let mut surfaced: BTreeMap<String, SurfacedError> = BTreeMap::new();
        while let Some((f, d)) = queue.pop_front() {
            let chain = seen[&f].clone();
            for (error, h) in own.get(&f).map(Vec::as_slice).unwrap_or(&[]) {
                surfaced.entry(error.clone()).or_insert_with(|| SurfacedError {
                    error: error.clone(),
                    depth: d,
                    raised_by: NodeSummary::at(g, f),
                    path: h.path.clone(),
                    line: h.line,
                    via: chain.iter().map(|&c| g.node_at(c).qualified.clone()).collect(),
                });
            }
            if d >= depth {
                continue;
            }
            for e in g.out_edges(f) {
                let followed =
                    e.kind == EdgeKind::Calls && e.origin != Origin::Speculative && !g.node_at(e.to).external;
                if followed && !seen.contains_key(&e.to) && !in_try(f, e.line) {
                    let mut next = chain.clone();
                    next.push(e.to);
                    seen.insert(e.to, next);
                    queue.push_back((e.to, d + 1));
                }
            }
        }
        let mut rows: Vec<SurfacedError> = surfaced.into_values().collect();
        rows.sort_by(|a, b| a.depth.cmp(&b.depth).then_with(|| a.error.cmp(&b.error)));
        let total = rows.len();
        rows.truncate(limit);
        Ok(ErrorSurfaceResult {
            symbol: Some(NodeSummary::at(g, target)),
            surfaced: rows,
            raisers: Vec::new(),
            total,
            truncated: total > limit,
            by_error,
            coverage,
        })
    }
}

/// The bundled patterns of this module, per language (for the compile test).
#[cfg(test)]
pub(crate) fn bundled_patterns() -> Vec<(Language, &'static str)> {
    RAISES.to_vec()
}
