//! `analyze kind=resolution_outcomes`: why the references the resolver left unresolved stayed
//! so. The resolver never guesses: a call or type use it cannot bind honestly is kept beside the
//! edges as `unresolved::name` (or `unresolved::*.name` for a member access). Each is classified
//! by the declarations that bear its name, in this order:
//!
//! 1. **`ambiguous_multi_match`**: two or more declarations in the caller's language family
//!    (JavaScript, TypeScript and their component files are one family; C and C++ another) —
//!    nothing (an import, a receiver type) said which one.
//! 2. **`candidate_out_of_scope`**: exactly one, but not visible from the call site (not
//!    imported, private to another file or type, a member of an unrelated type).
//! 3. **`cross_language_only`**: declarations exist, all in other languages.
//! 4. **`stub_only`**: only an external stub of that name exists (another file imports it; this
//!    one does not).
//! 5. **`no_definition`**: nothing in the graph bears the name (a global of the runtime, a
//!    framework's injected name, generated code).
//!
//! Declarations are what [`gortex_core::NodeKind::is_declaration`] says: functions, methods, types,
//! interfaces, fields, constants, variables and enum members.

use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, Language, QueryError};
use gortex_graph::model::unresolved_name;
use gortex_graph::query::common::check_limit;
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Names listed in `top_names`.
pub const TOP_NAMES: usize = 20;

/// Why an unresolved reference stayed unresolved (see the module doc for the order they are
/// tried in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    AmbiguousMultiMatch,
    CandidateOutOfScope,
    CrossLanguageOnly,
    StubOnly,
    NoDefinition,
}

impl Reason {
    /// Every reason, in the order they are tried.
    pub const ALL: [Reason; 5] = [
        Reason::AmbiguousMultiMatch,
        Reason::CandidateOutOfScope,
        Reason::CrossLanguageOnly,
        Reason::StubOnly,
        Reason::NoDefinition,
    ];
}

/// Arguments of `analyze kind=resolution_outcomes`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolutionOutcomesArgs {
    /// Only rows of this reason (the counts still cover every reason).
    #[serde(default)]
    pub reason: Option<Reason>,
    /// Only references made from code under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// How many unresolved references one reason explains.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReasonCount {
    pub reason: Reason,
    pub count: usize,
}

/// One unresolved reference and its reason.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OutcomeRow {
    /// The symbol (or file) the reference is made from.
    pub from: NodeSummary,
    pub kind: EdgeKind,
    /// The name it looks for.
    pub name: String,
    /// `unresolved::name`, or `unresolved::*.name` for a member access.
    pub target: String,
    pub line: u32,
    pub reason: Reason,
    /// Declarations that decided the reason: same-family ones for the first two reasons,
    /// other-language ones for `cross_language_only`, 0 otherwise.
    pub candidates: usize,
}

/// A name that fails to resolve often.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NameCount {
    pub name: String,
    pub reason: Reason,
    /// Unresolved references to it.
    pub count: usize,
}

/// The answer of `analyze kind=resolution_outcomes`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ResolutionOutcomesResult {
    /// Every reason with its count (zeros included), in the order they are tried.
    pub by_reason: Vec<ReasonCount>,
    /// Unresolved references counted (under `path_prefix`).
    pub total: usize,
    /// Rows of `reason` (all when absent), by file and line, at most `limit`.
    pub rows: Vec<OutcomeRow>,
    /// Such rows before `limit`.
    pub matching: usize,
    pub truncated: bool,
    /// The names most often unresolved (ties by name), at most [`TOP_NAMES`].
    pub top_names: Vec<NameCount>,
}

/// Languages that see each other's declarations.
fn family(language: Option<Language>) -> Option<u8> {
    language.map(|l| {
        if l.is_ecmascript() {
            0
        } else if l.is_c_family() {
            1
        } else {
            2 + l as u8
        }
    })
}

/// The reason for `name` looked up from a caller of language family `caller`, and its count.
fn classify(g: &Graph, name: &str, caller: Option<u8>) -> (Reason, usize) {
    let (mut same, mut other, mut stubs) = (0usize, 0usize, 0usize);
    for &i in g.named(name) {
        let n = g.node_at(i);
        if n.external {
            stubs += 1;
        } else if n.kind.is_declaration() {
            match (caller, family(n.language)) {
                (Some(a), Some(b)) if a != b => other += 1,
                _ => same += 1,
            }
        }
    }
    match (same, other, stubs) {
        (2.., _, _) => (Reason::AmbiguousMultiMatch, same),
        (1, _, _) => (Reason::CandidateOutOfScope, 1),
        (0, 1.., _) => (Reason::CrossLanguageOnly, other),
        (0, 0, 1..) => (Reason::StubOnly, 0),
        _ => (Reason::NoDefinition, 0),
    }
}

/// `analyze kind=resolution_outcomes` (see the module doc).
pub fn resolution_outcomes(g: &Graph, args: &ResolutionOutcomesArgs) -> Result<ResolutionOutcomesResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let mut seen: FxHashMap<(&str, Option<u8>), (Reason, usize)> = FxHashMap::default();
    let mut counts: FxHashMap<Reason, usize> = FxHashMap::default();
    let mut names: FxHashMap<(&str, Reason), usize> = FxHashMap::default();
    let mut rows = Vec::new();
    let mut total = 0usize;
    for u in g.unresolved() {
        let from = g.node_at(u.from);
        if !under(&from.path, prefix.as_deref()) {
            continue;
        }
        let name = unresolved_name(&u.target);
        let caller = family(from.language);
        let (reason, candidates) = *seen.entry((name, caller)).or_insert_with(|| classify(g, name, caller));
        total += 1;
        *counts.entry(reason).or_default() += 1;
        *names.entry((name, reason)).or_default() += 1;
        if args.reason.is_none_or(|r| r == reason) {
            rows.push((u, name, reason, candidates));
        }
    }
    rows.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.0.from), g.node_at(b.0.from));
        x.path
            .cmp(&y.path)
            .then(a.0.line.cmp(&b.0.line))
            .then_with(|| a.1.cmp(b.1))
            .then_with(|| x.id.cmp(&y.id))
    });
    let matching = rows.len();
    let mut top: Vec<NameCount> = names
        .into_iter()
        .map(|((name, reason), count)| NameCount {
            name: name.to_string(),
            reason,
            count,
        })
        .collect();
    top.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.name.cmp(&b.name))
            .then(a.reason.cmp(&b.reason))
    });
    top.truncate(TOP_NAMES);
    Ok(ResolutionOutcomesResult {
        by_reason: Reason::ALL
            .iter()
            .map(|&reason| ReasonCount {
                reason,
                count: counts.get(&reason).copied().unwrap_or(0),
            })
            .collect(),
        total,
        rows: rows
            .into_iter()
            .take(limit)
            .map(|(u, name, reason, candidates)| OutcomeRow {
                from: NodeSummary::at(g, u.from),
                kind: u.kind,
                name: name.to_string(),
                target: u.target.clone(),
                line: u.line,
                reason,
                candidates,
            })
            .collect(),
        matching,
        truncated: matching > limit,
        top_names: top,
    })
}
