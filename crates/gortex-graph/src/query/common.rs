//! Pieces every query tool shares: argument checks, target resolution, provenance-tier
//! filtering, caveats on thin results and the (derived) override relation.
//!
//! Conventions the tools built on this module follow:
//!
//! - **Targets.** An `id` argument accepts an exact node id, an id without the repository prefix,
//!   a repository-relative file path, a qualified name (`Owner.name`, matched on whole trailing
//!   segments) or a bare name. File, package and import nodes are only reached by id or path,
//!   never by name; external stubs only by id. A name that matches several symbols is an
//!   `ambiguous` error listing the candidates (best first: non-test, exported, then by id) so the
//!   agent retries with an id. Every result therefore describes exactly one target. Tools with
//!   several node arguments use [`resolve_arg`] so errors say which one failed. An unknown target
//!   suggests similar names ([`suggest`]: equal, prefix, substring, then typos).
//! - **Tiers.** Without `min_tier`, speculative rows are hidden and name-only (`text_matched`)
//!   rows are dropped when the result also holds a row with `ast_inferred` or better evidence;
//!   the number dropped is reported as `name_only_suppressed`. When name matches are the only
//!   evidence they are kept. With `min_tier`, rows below it are dropped and a `tier_filtered`
//!   block reports how many and the strongest tier available. Traversals apply the floor while
//!   walking, so nothing is reached only through a hidden edge.
//! - **Free-form walks** (`walk_graph`, `graph_query`, `trace_path`) follow edges through
//!   [`neighbours`] above the floor [`tier_floor`] gives (`min_tier`, or everything but
//!   `speculative`); they do not apply the name-only rule or report tiers.
//! - **Caveats** follow the original's zero-edge classification (see [`classify_caveat`]).

use super::{NodeSummary, QueryError};
use crate::model::{Direction, Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, Language, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Default row limit of every tool.
pub const DEFAULT_LIMIT: usize = 50;
/// Largest accepted `limit`.
pub const MAX_LIMIT: usize = 1000;

/// Validates a `limit` argument (default [`DEFAULT_LIMIT`], accepted `1..=MAX_LIMIT`).
pub fn check_limit(limit: Option<usize>) -> Result<usize, QueryError> {
    check_limit_with(limit, DEFAULT_LIMIT)
}

/// Validates a `limit` argument with a tool-specific default.
pub fn check_limit_with(limit: Option<usize>, default: usize) -> Result<usize, QueryError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(n) => Err(QueryError::invalid(format!("limit must be 1..={MAX_LIMIT}, got {n}"))),
    }
}

/// Validates an integer argument against `min..=max`, returning `default` when absent. Generic so
/// tools can take `u64` arguments and still report a huge value instead of a deserialisation error.
pub fn check_range<T>(name: &str, value: Option<T>, default: T, min: T, max: T) -> Result<T, QueryError>
where
    T: Copy + PartialOrd + std::fmt::Display,
{
    match value {
        None => Ok(default),
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) => Err(QueryError::invalid(format!("{name} must be {min}..={max}, got {v}"))),
    }
}

/// A string argument that may be given once or as a list (`"call"` or `["call", "type"]`).
/// A single string may also hold a comma-separated list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl From<&str> for OneOrMany {
    fn from(value: &str) -> OneOrMany {
        OneOrMany::One(value.to_string())
    }
}

impl OneOrMany {
    /// The values, split on commas and trimmed; empty items are kept so they can be rejected.
    pub fn values(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => s.split(',').map(|v| v.trim().to_string()).collect(),
            OneOrMany::Many(v) => v.iter().map(|s| s.trim().to_string()).collect(),
        }
    }
}

/// Parses a list of edge-kind names for argument `name`, accepting only `allowed` kinds. Blank
/// items (a trailing comma) are skipped; the kinds come back sorted and deduplicated.
pub fn parse_edge_kinds(name: &str, value: &OneOrMany, allowed: &[EdgeKind]) -> Result<Vec<EdgeKind>, QueryError> {
    let accepted = || allowed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ");
    let values: Vec<String> = value.values().into_iter().filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        return Err(QueryError::invalid(format!(
            "{name} must name at least one edge kind; accepted: {}",
            accepted()
        )));
    }
    let mut kinds = Vec::new();
    for v in values {
        match EdgeKind::parse(&v).filter(|k| allowed.contains(k)) {
            Some(k) => kinds.push(k),
            None => {
                return Err(QueryError::invalid(format!(
                    "{name} contains unknown edge kind {v:?}; accepted: {}",
                    accepted()
                )))
            }
        }
    }
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

// ---------------------------------------------------------------------------------------------
// Tiers
// ---------------------------------------------------------------------------------------------

/// Parses a `min_tier` argument (`None` when absent).
pub fn parse_min_tier(value: Option<&str>) -> Result<Option<Origin>, QueryError> {
    let Some(text) = value else { return Ok(None) };
    Origin::parse(text).map(Some).ok_or_else(|| {
        let valid = Origin::ALL.iter().map(|o| o.as_str()).collect::<Vec<_>>().join(", ");
        QueryError::invalid(format!(
            "min_tier must be one of {valid} (strongest first), got {text:?}"
        ))
    })
}

/// The weakest origin a walk follows: `min_tier`, or without it everything but `speculative`.
pub fn tier_floor(min_tier: Option<Origin>) -> Origin {
    min_tier.unwrap_or(Origin::TextMatched)
}

/// Reported when `min_tier` removed rows: how many, and the strongest tier the full answer had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TierFiltered {
    pub edges_below_min_tier: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_available_tier: Option<Origin>,
}

/// The tier bookkeeping every tiered result carries (flattened into the result).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TierReport {
    /// Present exactly when `min_tier` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_filtered: Option<TierFiltered>,
    /// Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them.
    #[serde(skip_serializing_if = "is_zero")]
    pub name_only_suppressed: usize,
}

/// `skip_serializing_if` helper for counts.
pub fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Rows after the tier rule, and what the rule did.
#[derive(Debug, Clone)]
pub struct Tiered<R> {
    pub rows: Vec<R>,
    pub report: TierReport,
    /// The weakest origin the kept rows were collected with.
    pub floor: Origin,
}

/// Applies the tier rule to a result. `collect(floor)` must return the rows reachable using only
/// edges at or above `floor`; it is called once or twice.
pub fn tiered<R>(
    min_tier: Option<Origin>,
    mut collect: impl FnMut(Origin) -> Vec<R>,
    origin: impl Fn(&R) -> Origin,
) -> Tiered<R> {
    match min_tier {
        Some(min) => {
            let all = collect(Origin::Speculative);
            let below = all.iter().filter(|r| origin(r) < min).count();
            let max_available_tier = all.iter().map(&origin).max();
            let rows = if below == 0 { all } else { collect(min) };
            Tiered {
                rows,
                floor: min,
                report: TierReport {
                    tier_filtered: Some(TierFiltered {
                        edges_below_min_tier: below,
                        max_available_tier,
                    }),
                    name_only_suppressed: 0,
                },
            }
        }
        None => {
            let rows = collect(tier_floor(None));
            let weak = rows.iter().filter(|r| origin(r) < Origin::AstInferred).count();
            if weak > 0 && weak < rows.len() {
                Tiered {
                    rows: collect(Origin::AstInferred),
                    floor: Origin::AstInferred,
                    report: TierReport {
                        tier_filtered: None,
                        name_only_suppressed: weak,
                    },
                }
            } else {
                Tiered {
                    rows,
                    floor: tier_floor(None),
                    report: TierReport::default(),
                }
            }
        }
    }
}

/// The strongest of two origins.
pub fn stronger(a: Origin, b: Origin) -> Origin {
    a.max(b)
}

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

/// Nodes named by `name_or_id` (see the module doc), best first; `not_found` with suggestions
/// when nothing matches.
pub fn resolve_target(g: &Graph, name_or_id: &str) -> Result<Vec<NodeIndex>, QueryError> {
    candidates(g, None, name_or_id)
}

/// Exactly one node for `name_or_id`; an `ambiguous` error listing the candidates otherwise.
pub fn resolve_one(g: &Graph, name_or_id: &str) -> Result<NodeIndex, QueryError> {
    exactly_one(g, None, name_or_id)
}

/// [`resolve_one`] for a tool with several node arguments (`from`, `to`): errors name `arg`.
pub fn resolve_arg(g: &Graph, arg: &str, value: &str) -> Result<NodeIndex, QueryError> {
    exactly_one(g, Some(arg), value)
}

/// `"<arg>: "` before errors about one of several node arguments; nothing for a tool's only `id`.
fn arg_prefix(arg: Option<&str>) -> String {
    arg.map(|a| format!("{a}: ")).unwrap_or_default()
}

fn candidates(g: &Graph, arg: Option<&str>, name_or_id: &str) -> Result<Vec<NodeIndex>, QueryError> {
    let input = name_or_id.trim();
    if input.is_empty() {
        return Err(QueryError::invalid(format!(
            "{} must be a node id, a file path or a symbol name, got an empty string",
            arg.unwrap_or("id")
        )));
    }
    if let Some(i) = lookup_id(g, input) {
        return Ok(vec![i]);
    }
    if let Some(i) = file_node(g, input) {
        return Ok(vec![i]);
    }
    let dotted = format!(".{input}");
    // `Owner.name` and `name` both end in the bare name, so the name index narrows the search.
    let last = input.rsplit('.').next().unwrap_or(input);
    let mut hits: Vec<NodeIndex> = g
        .named(last)
        .iter()
        .copied()
        .filter(|&i| {
            let n = &g.nodes[i as usize];
            n.kind.is_symbol() && !n.external && (n.qualified == input || n.qualified.ends_with(&dotted))
        })
        .collect();
    if hits.is_empty() {
        return Err(not_found_for(g, arg, input));
    }
    hits.sort_by(|&a, &b| {
        let (x, y) = (&g.nodes[a as usize], &g.nodes[b as usize]);
        (x.is_test, !x.exported, &x.id).cmp(&(y.is_test, !y.exported, &y.id))
    });
    Ok(hits)
}

fn exactly_one(g: &Graph, arg: Option<&str>, name_or_id: &str) -> Result<NodeIndex, QueryError> {
    let hits = candidates(g, arg, name_or_id)?;
    if hits.len() == 1 {
        return Ok(hits[0]);
    }
    const SHOWN: usize = 10;
    let listed: Vec<String> = hits
        .iter()
        .take(SHOWN)
        .map(|&i| {
            let n = &g.nodes[i as usize];
            format!("{} ({} at {}:{})", n.id, n.kind, n.path, n.span.start_line)
        })
        .collect();
    let more = if hits.len() > SHOWN {
        format!(" and {} more", hits.len() - SHOWN)
    } else {
        String::new()
    };
    Err(QueryError::ambiguous(format!(
        "{}{:?} matches {} symbols; pass one of these ids: {}{more}",
        arg_prefix(arg),
        name_or_id.trim(),
        hits.len(),
        listed.join(", ")
    )))
}

/// The node with this exact id, also accepted without the `<repo>/` prefix.
pub fn lookup_id(g: &Graph, id: &str) -> Option<NodeIndex> {
    g.lookup(id).or_else(|| {
        if g.repo.is_empty() {
            None
        } else {
            g.lookup(&format!("{}/{}", g.repo, id))
        }
    })
}

/// The file node at a repository-relative path (a leading `./` is ignored).
pub fn file_node(g: &Graph, path: &str) -> Option<NodeIndex> {
    let path = path.strip_prefix("./").unwrap_or(path);
    g.file_nodes(path)
        .iter()
        .copied()
        .find(|&i| g.nodes[i as usize].kind == NodeKind::File)
}

/// How many suggestions a `not_found` error offers.
pub const MAX_SUGGESTIONS: usize = 5;

/// A `not_found` error for `input` with up to [`MAX_SUGGESTIONS`] similar names or paths.
pub fn not_found(g: &Graph, input: &str) -> QueryError {
    not_found_for(g, None, input)
}

fn not_found_for(g: &Graph, arg: Option<&str>, input: &str) -> QueryError {
    QueryError::not_found(format!(
        "{}no node matches {input:?} (tried node id, file path, qualified and bare symbol name); {}",
        arg_prefix(arg),
        did_you_mean(&suggest(g, input, MAX_SUGGESTIONS))
    ))
}

/// The tail of a `not_found` message: `did you mean: a, b?`, or `no similar names exist`.
pub fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        "no similar names exist".to_string()
    } else {
        format!("did you mean: {}?", suggestions.join(", "))
    }
}

/// Ids of up to `max` nodes whose name resembles the last segment of `input` (see
/// [`suggest_nodes`]). Path-like input (with a `/`, or naming a file) is compared with file names
/// only; anything else with symbol and file names.
pub fn suggest(g: &Graph, input: &str, max: usize) -> Vec<String> {
    suggest_nodes(g, input, max, false)
        .into_iter()
        .map(|i| g.nodes[i as usize].id.to_string())
        .collect()
}

/// File nodes whose name resembles the base name of `input`, for arguments that only take files.
pub fn suggest_files(g: &Graph, input: &str, max: usize) -> Vec<NodeIndex> {
    suggest_nodes(g, input, max, true)
}

/// Up to `max` in-repository nodes ranked by how their name (case-insensitive) matches the key
/// taken from `input`: equal, then starting with it, then containing it, then contained in it,
/// then within a few typos (about one per three characters; a swap of neighbours is one typo).
/// Ties go to non-test nodes, then shorter names, then ids.
fn suggest_nodes(g: &Graph, input: &str, max: usize, files_only: bool) -> Vec<NodeIndex> {
    let base = input.rsplit('/').find(|s| !s.is_empty()).unwrap_or(input);
    let path_like = files_only
        || (!input.contains("::")
            && (input.contains('/')
                || g.nodes
                    .iter()
                    .any(|n| n.kind == NodeKind::File && n.name.eq_ignore_ascii_case(base))));
    let key = if path_like {
        base
    } else {
        let tail = input.rsplit("::").next().unwrap_or(input);
        tail.rsplit(['.', '/']).find(|s| !s.is_empty()).unwrap_or(tail)
    };
    let key = key.to_lowercase();
    let key_len = key.chars().count();
    if key_len == 0 {
        return Vec::new();
    }
    let max_edits = (key_len / 3).max(1);
    let mut scored: Vec<(usize, bool, usize, &str, NodeIndex)> = g
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.external && (n.kind == NodeKind::File || (!path_like && n.kind.is_symbol())))
        .filter_map(|(i, n)| {
            let name = n.name.to_lowercase();
            let rank = if name == key {
                0
            } else if name.starts_with(&key) {
                1
            } else if name.contains(&key) {
                2
            } else if key_len >= 4 && name.chars().count() >= 3 && key.contains(&name) {
                3
            } else if key_len >= 3 {
                4 + edits_within(&key, &name, max_edits)?
            } else {
                return None;
            };
            Some((rank, n.is_test, n.name.len(), &*n.id, i as NodeIndex))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(max).map(|s| s.4).collect()
}

/// Edit distance between `a` and `b` (insertions, deletions, substitutions and swaps of
/// neighbouring characters, which are the common typos) when it is at most `max`.
fn edits_within(a: &str, b: &str, max: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 0..a.len() {
        cur[0] = i + 1;
        for j in 0..b.len() {
            let mut d = (prev[j] + usize::from(a[i] != b[j]))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        // A swap reaches back two rows, so only two rows over `max` in a row rule a match out.
        let over = |row: &[usize]| row.iter().all(|&d| d > max);
        if over(&cur) && over(&prev) {
            return None;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[b.len()];
    (d <= max).then_some(d)
}

// ---------------------------------------------------------------------------------------------
// Walking edges
// ---------------------------------------------------------------------------------------------

/// Parses a `direction` argument (`out`, `in` or `both`), `default` when absent.
pub fn parse_direction(name: &str, value: Option<&str>, default: Direction) -> Result<Direction, QueryError> {
    let Some(text) = value else { return Ok(default) };
    Direction::parse(text).ok_or_else(|| {
        let valid = Direction::ALL.map(Direction::as_str).join(", ");
        QueryError::invalid(format!("{name} must be one of {valid}, got {text:?}"))
    })
}

/// Edges of `u` in `dir` whose kind is in `kinds` and whose origin is at least `floor`, with the
/// node at their far end, sorted by that node's id, then kind and line, so walks are
/// deterministic.
pub fn neighbours<'g>(
    g: &'g Graph,
    u: NodeIndex,
    dir: Direction,
    kinds: &[EdgeKind],
    floor: Origin,
) -> Vec<(NodeIndex, &'g Edge)> {
    let keep = |e: &&Edge| kinds.contains(&e.kind) && e.origin >= floor;
    let mut adj: Vec<(NodeIndex, &Edge)> = Vec::new();
    if matches!(dir, Direction::Out | Direction::Both) {
        adj.extend(g.out_edges(u).filter(keep).map(|e| (e.to, e)));
    }
    if matches!(dir, Direction::In | Direction::Both) {
        // A self-loop is already listed by the outgoing pass.
        adj.extend(
            g.in_edges(u)
                .filter(keep)
                .filter(|e| dir == Direction::In || e.from != e.to)
                .map(|e| (e.from, e)),
        );
    }
    adj.sort_by(|(a, ea), (b, eb)| {
        g.nodes[*a as usize]
            .id
            .cmp(&g.nodes[*b as usize].id)
            .then(ea.kind.cmp(&eb.kind))
            .then(ea.line.cmp(&eb.line))
            .then(ea.from.cmp(&eb.from))
            .then(ea.to.cmp(&eb.to))
    });
    adj
}

// ---------------------------------------------------------------------------------------------
// Caveats
// ---------------------------------------------------------------------------------------------

/// How far a thin answer can be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaveatClass {
    /// Resolved (non-weak) usage evidence exists.
    None,
    /// Only weak evidence: imports, unresolved same-name references, name-only matches, or
    /// kinds of use the index does not record.
    CoverageIncomplete,
    /// Indexed normally, but nothing uses it.
    LikelyUnused,
    /// No edges at all: the extractor probably missed something.
    PossibleExtractionGap,
}

/// A caveat attached to results about one symbol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Caveat {
    pub class: CaveatClass,
    pub message: String,
}

impl Caveat {
    /// The caveat, or `None` for class `none` (results omit the block then).
    pub fn into_option(self) -> Option<Caveat> {
        (self.class != CaveatClass::None).then_some(self)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn is_ecmascript(lang: Option<Language>) -> bool {
    matches!(
        lang,
        Some(Language::TypeScript) | Some(Language::Tsx) | Some(Language::JavaScript)
    )
}

/// Classifies how much to trust "nobody uses this" for `node`:
/// - `none`: an incoming usage edge ([`EdgeKind::is_usage`]) that is not weak exists (for a file
///   or package, an import of it counts as usage);
/// - `coverage_incomplete`: only weak evidence — name-only usage edges, inbound
///   `imports`/`re_exports` of the symbol, for an exported JS/TS symbol an import of its file that
///   bound no named symbol (namespace, side-effect, `export *`), unresolved references in the same
///   language named like the symbol (`unresolved::Name`, `unresolved::*.Name`), a supertype member
///   it overrides that is used (calls through the supertype are not attributed to overrides), or a
///   field/variable/constant (value reads are only indexed when passed as call arguments);
/// - `likely_unused`: no such evidence, but the node has other edges;
/// - `possible_extraction_gap`: the node has no edges at all.
pub fn classify_caveat(g: &Graph, node: NodeIndex) -> Caveat {
    let n = &g.nodes[node as usize];
    let (mut strong, mut weak, mut imports) = (0usize, 0usize, 0usize);
    let mut any_in = false;
    for e in g.in_edges(node) {
        any_in = true;
        // A file is used by being imported; for symbols an import alone is weak evidence.
        let file_import = matches!(n.kind, NodeKind::File | NodeKind::Package)
            && matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports);
        if e.kind.is_usage() || file_import {
            if e.origin.is_weak() {
                weak += 1;
            } else {
                strong += 1;
            }
        } else if matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
            imports += 1;
        }
    }
    if strong > 0 {
        return Caveat {
            class: CaveatClass::None,
            message: format!(
                "{} resolved usage {}",
                strong,
                if strong == 1 { "edge" } else { "edges" }
            ),
        };
    }
    let mut parts: Vec<String> = Vec::new();
    if weak > 0 {
        parts.push(format!(
            "{} (text_matched)",
            plural(weak, "name-only usage", "name-only usages")
        ));
    }
    if imports > 0 {
        parts.push(plural(imports, "import of the symbol", "imports of the symbol"));
    }
    if n.exported && is_ecmascript(n.language) && n.kind.is_symbol() {
        let file_imports = unnamed_file_imports(g, n.path.as_ref());
        if file_imports > 0 {
            parts.push(format!(
                "{} no named symbol (namespace, side-effect or export *)",
                plural(
                    file_imports,
                    "import of its file that binds",
                    "imports of its file that bind"
                )
            ));
        }
    }
    if !n.external && n.kind.is_symbol() {
        let unresolved = unresolved_named(g, &n.name, n.language);
        if unresolved > 0 {
            parts.push(format!(
                "{} named `{}`",
                plural(unresolved, "unresolved reference", "unresolved references"),
                n.name
            ));
        }
    }
    if n.kind == NodeKind::Method {
        let used: Vec<String> = overridden(g, node, Origin::TextMatched)
            .into_iter()
            .filter(|h| g.in_edges(h.method).any(|e| e.kind.is_usage() && !e.origin.is_weak()))
            .map(|h| g.nodes[h.method as usize].qualified.clone())
            .collect();
        if !used.is_empty() {
            parts.push(format!(
                "it overrides {} which {} resolved usages (calls through a supertype are not attributed to overrides)",
                used.join(", "),
                if used.len() == 1 { "has" } else { "have" }
            ));
        }
    }
    if matches!(
        n.kind,
        NodeKind::Field | NodeKind::Variable | NodeKind::Constant | NodeKind::EnumMember
    ) {
        parts.push("value reads are only indexed when passed as call arguments".to_string());
    }
    if !parts.is_empty() {
        return Caveat {
            class: CaveatClass::CoverageIncomplete,
            message: format!(
                "no resolved usage found, but {}; the answer may be incomplete",
                parts.join("; ")
            ),
        };
    }
    let any_edge = any_in || g.out_edges(node).next().is_some() || g.unresolved_from(node).next().is_some();
    if any_edge {
        Caveat {
            class: CaveatClass::LikelyUnused,
            message: "indexed normally, but no call, reference, type use or import points at it".to_string(),
        }
    } else {
        Caveat {
            class: CaveatClass::PossibleExtractionGap,
            message: "the node has no edges at all; an indexed symbol always has a `defines` edge, so the \
                      extractor probably missed part of its file"
                .to_string(),
        }
    }
}

/// The caveat for a tool's rows about `node`: [`classify_caveat`], raised to
/// `coverage_incomplete` when the result is non-empty and every row is a name-only match.
pub fn caveat_for_rows(g: &Graph, node: NodeIndex, row_origins: impl IntoIterator<Item = Origin>) -> Option<Caveat> {
    let mut rows = 0usize;
    let mut all_weak = true;
    for o in row_origins {
        rows += 1;
        all_weak &= o.is_weak();
    }
    let base = classify_caveat(g, node);
    if base.class == CaveatClass::None && rows > 0 && all_weak {
        return Some(Caveat {
            class: CaveatClass::CoverageIncomplete,
            message: format!("every returned row ({rows}) is a name-only match; the real users may differ"),
        });
    }
    base.into_option()
}

/// Imports of the file at `path` whose statement bound no named symbol: file-level `imports` /
/// `re_exports` edges with no symbol-level import edge from the same importer on the same line.
fn unnamed_file_imports(g: &Graph, path: &str) -> usize {
    let Some(file) = file_node(g, path) else { return 0 };
    g.in_edges(file)
        .filter(|e| matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports))
        .filter(|e| {
            !g.out_edges(e.from).any(|o| {
                o.line == e.line
                    && matches!(o.kind, EdgeKind::Imports | EdgeKind::ReExports)
                    && g.nodes[o.to as usize].kind != NodeKind::File
                    && !g.nodes[o.to as usize].external
            })
        })
        .count()
}

/// Unresolved usage references (`unresolved::name` / `unresolved::*.name`) made from `language`
/// code.
pub fn unresolved_named(g: &Graph, name: &str, language: Option<Language>) -> usize {
    g.unresolved_named(name)
        .filter(|u| u.kind.is_usage())
        .filter(|u| language.is_none() || g.nodes[u.from as usize].language == language)
        .count()
}

// ---------------------------------------------------------------------------------------------
// Type hierarchy and derived overrides
// ---------------------------------------------------------------------------------------------

/// Largest number of inheritance hops any hierarchy walk takes.
pub const MAX_HIERARCHY_DEPTH: u32 = 10;

/// One type reached by a hierarchy walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HierarchyStep {
    pub node: NodeIndex,
    /// Inheritance hops from the start (1 = direct supertype/subtype).
    pub depth: u32,
    /// The weakest edge origin on the path that reached it.
    pub origin: Origin,
    /// The type it was reached from.
    pub via: NodeIndex,
    /// The kind of the last edge (`extends` or `implements`).
    pub kind: EdgeKind,
}

/// Supertypes (`up`) or subtypes (`!up`) of `start` over `extends`/`implements` edges with
/// origin at or above `floor`, breadth-first, at most `max_depth` hops. Each type appears once, at
/// its smallest depth (ties: strongest path, then smallest `via` id), ordered by depth then id.
pub fn hierarchy_walk(g: &Graph, start: NodeIndex, up: bool, max_depth: u32, floor: Origin) -> Vec<HierarchyStep> {
    hierarchy_walk_by(g, start, up, max_depth, floor, |_, _| true)
}

/// [`hierarchy_walk`] following only the edges `accept(edge, other_end)` admits.
pub fn hierarchy_walk_by(
    g: &Graph,
    start: NodeIndex,
    up: bool,
    max_depth: u32,
    floor: Origin,
    accept: impl Fn(&Edge, NodeIndex) -> bool,
) -> Vec<HierarchyStep> {
    let mut visited: FxHashSet<NodeIndex> = FxHashSet::default();
    visited.insert(start);
    let mut out = Vec::new();
    let mut layer: Vec<(NodeIndex, Origin)> = vec![(start, Origin::LspResolved)];
    for depth in 1..=max_depth.min(MAX_HIERARCHY_DEPTH) {
        let mut next: FxHashMap<NodeIndex, HierarchyStep> = FxHashMap::default();
        for &(from, path_origin) in &layer {
            let edges: Vec<(NodeIndex, EdgeKind, Origin)> = if up {
                g.out_edges(from)
                    .filter(|e| accept(e, e.to))
                    .map(|e| (e.to, e.kind, e.origin))
                    .collect()
            } else {
                g.in_edges(from)
                    .filter(|e| accept(e, e.from))
                    .map(|e| (e.from, e.kind, e.origin))
                    .collect()
            };
            for (other, kind, origin) in edges {
                if !matches!(kind, EdgeKind::Extends | EdgeKind::Implements) || origin < floor {
                    continue;
                }
                if visited.contains(&other) {
                    continue;
                }
                let step = HierarchyStep {
                    node: other,
                    depth,
                    origin: path_origin.min(origin),
                    via: from,
                    kind,
                };
                next.entry(other)
                    .and_modify(|s| {
                        let better = (step.origin, std::cmp::Reverse(&g.nodes[step.via as usize].id))
                            > (s.origin, std::cmp::Reverse(&g.nodes[s.via as usize].id));
                        if better {
                            *s = step;
                        }
                    })
                    .or_insert(step);
            }
        }
        if next.is_empty() {
            break;
        }
        let mut steps: Vec<HierarchyStep> = next.into_values().collect();
        steps.sort_by(|a, b| g.nodes[a.node as usize].id.cmp(&g.nodes[b.node as usize].id));
        layer = steps.iter().map(|s| (s.node, s.origin)).collect();
        for s in &steps {
            visited.insert(s.node);
        }
        out.extend(steps);
    }
    out
}

/// The type that owns a member: its `member_of` target, else a type-like `contains` parent.
pub fn owner_type(g: &Graph, member: NodeIndex) -> Option<NodeIndex> {
    g.out_edges(member)
        .filter(|e| e.kind == EdgeKind::MemberOf)
        .map(|e| e.to)
        .min()
        .or_else(|| {
            g.in_edges(member)
                .filter(|e| e.kind == EdgeKind::Contains && g.nodes[e.from as usize].kind.is_type_like())
                .map(|e| e.from)
                .min()
        })
}

/// Members of type `ty` (methods, fields, …), through `contains` and `member_of`, sorted by id.
pub fn members(g: &Graph, ty: NodeIndex) -> Vec<NodeIndex> {
    let mut out: Vec<NodeIndex> = g
        .out_edges(ty)
        .filter(|e| e.kind == EdgeKind::Contains)
        .map(|e| e.to)
        .chain(g.in_edges(ty).filter(|e| e.kind == EdgeKind::MemberOf).map(|e| e.from))
        .collect();
    out.sort_by(|a, b| g.nodes[*a as usize].id.cmp(&g.nodes[*b as usize].id));
    out.dedup();
    out
}

/// A method related to another by overriding (derived at query time; no edges are stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverrideHit {
    pub method: NodeIndex,
    pub owner: NodeIndex,
    /// Inheritance hops between the two owners.
    pub depth: u32,
    /// The weakest `extends`/`implements` origin on the path between the owners.
    pub origin: Origin,
}

fn override_hits(g: &Graph, method: NodeIndex, up: bool, floor: Origin, max_depth: u32) -> Vec<OverrideHit> {
    let m = &g.nodes[method as usize];
    if !matches!(m.kind, NodeKind::Method) {
        return Vec::new();
    }
    let Some(owner) = owner_type(g, method) else {
        return Vec::new();
    };
    let mut hits = Vec::new();
    for step in hierarchy_walk(g, owner, up, max_depth, floor) {
        for other in members(g, step.node) {
            let o = &g.nodes[other as usize];
            if o.kind == NodeKind::Method && o.name == m.name && other != method {
                hits.push(OverrideHit {
                    method: other,
                    owner: step.node,
                    depth: step.depth,
                    origin: step.origin,
                });
            }
        }
    }
    hits
}

/// Supertype members `method` overrides (same name, any supertype), nearest first.
pub fn overridden(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    override_hits(g, method, true, floor, MAX_HIERARCHY_DEPTH)
}

/// Subtype members that override `method`, nearest first.
pub fn overriding(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    override_hits(g, method, false, floor, MAX_HIERARCHY_DEPTH)
}

/// The nearest overridden members of `method`: the hits at the smallest depth.
pub fn nearest_overridden(g: &Graph, method: NodeIndex, floor: Origin) -> Vec<OverrideHit> {
    let hits = overridden(g, method, floor);
    let Some(min) = hits.iter().map(|h| h.depth).min() else {
        return hits;
    };
    hits.into_iter().filter(|h| h.depth == min).collect()
}

/// Summaries of node indices, in the given order.
pub fn summaries(g: &Graph, nodes: &[NodeIndex]) -> Vec<NodeSummary> {
    nodes.iter().map(|&i| NodeSummary::at(g, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::edits_within;

    #[test]
    fn edit_distance_counts_a_swap_of_neighbours_as_one_typo() {
        assert_eq!(edits_within("strat", "start", 1), Some(1));
        assert_eq!(edits_within("lefft", "left", 1), Some(1));
        assert_eq!(edits_within("sumarize", "summarizes", 2), Some(2));
        assert_eq!(edits_within("abcdef", "badcfe", 3), Some(3));
        assert_eq!(edits_within("abcdef", "badcfe", 2), None);
        assert_eq!(edits_within("same", "same", 1), Some(0));
        assert_eq!(edits_within("abc", "xyz", 2), None);
        assert_eq!(edits_within("ab", "abcd", 1), None);
        assert_eq!(edits_within("abc", "", 3), Some(3));
    }
}
