//! Caveats on thin answers: how far "nobody uses this" can be trusted for one node, after the
//! original's zero-edge classification (original-behaviour §3.4). Callers, usages and dependents
//! attach one through [`caveat_for_rows`] so an agent does not take an empty or name-only answer
//! at face value.

use super::inheritance::overridden;
use super::targets::file_node;
use crate::model::{Graph, NodeIndex};
use gortex_core::{EdgeKind, Language, NodeKind, Origin};
use schemars::JsonSchema;
use serde::Serialize;

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
    let incoming = Incoming::of(g, node);
    if incoming.strong > 0 {
        return Caveat {
            class: CaveatClass::None,
            message: format!(
                "{} resolved usage {}",
                incoming.strong,
                if incoming.strong == 1 { "edge" } else { "edges" }
            ),
        };
    }
    let parts = weak_evidence(g, node, &incoming);
    if !parts.is_empty() {
        return Caveat {
            class: CaveatClass::CoverageIncomplete,
            message: format!(
                "no resolved usage found, but {}; the answer may be incomplete",
                parts.join("; ")
            ),
        };
    }
    let any_edge = incoming.any || g.out_edges(node).next().is_some() || g.unresolved_from(node).next().is_some();
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

/// Unresolved usage references (`unresolved::name` / `unresolved::*.name`) made from `language`
/// code.
pub fn unresolved_named(g: &Graph, name: &str, language: Option<Language>) -> usize {
    g.unresolved_named(name)
        .filter(|u| u.kind.is_usage())
        .filter(|u| language.is_none() || g.node_at(u.from).language == language)
        .count()
}

/// What the incoming edges of a node say about its use.
struct Incoming {
    /// Usage edges with resolved (non-weak) evidence.
    strong: usize,
    /// Name-only usage edges.
    weak: usize,
    /// `imports` / `re_exports` of a symbol, which alone do not prove a use.
    imports: usize,
    /// Whether any edge points at the node.
    any: bool,
}

impl Incoming {
    fn of(g: &Graph, node: NodeIndex) -> Incoming {
        let n = g.node_at(node);
        let mut incoming = Incoming {
            strong: 0,
            weak: 0,
            imports: 0,
            any: false,
        };
        for e in g.in_edges(node) {
            incoming.any = true;
            // A file is used by being imported; for symbols an import alone is weak evidence.
            let file_import = matches!(n.kind, NodeKind::File | NodeKind::Package)
                && matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports);
            if e.kind.is_usage() || file_import {
                if e.origin.is_weak() {
                    incoming.weak += 1;
                } else {
                    incoming.strong += 1;
                }
            } else if matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
                incoming.imports += 1;
            }
        }
        incoming
    }
}

/// The clauses of a `coverage_incomplete` message for a node without resolved usages: each names
/// a reason the node may be used after all (see [`classify_caveat`]); none means no such reason.
fn weak_evidence(g: &Graph, node: NodeIndex, incoming: &Incoming) -> Vec<String> {
    let n = g.node_at(node);
    let mut parts: Vec<String> = Vec::new();
    if incoming.weak > 0 {
        parts.push(format!(
            "{} (text_matched)",
            plural(incoming.weak, "name-only usage", "name-only usages")
        ));
    }
    if incoming.imports > 0 {
        parts.push(plural(
            incoming.imports,
            "import of the symbol",
            "imports of the symbol",
        ));
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
            .map(|h| g.node_at(h.method).qualified.clone())
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
    parts
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
                    && g.node_at(o.to).kind != NodeKind::File
                    && !g.node_at(o.to).external
            })
        })
        .count()
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
