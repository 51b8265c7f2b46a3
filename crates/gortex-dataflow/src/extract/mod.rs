//! Per-language dataflow extractors: a source file → the [`FnFlow`] facts of its functions.

use crate::facts::FnFlow;
use gortex_core::Language;
use std::time::Duration;

mod ecmascript;
mod go;
mod java;
mod python;
mod slots;
#[cfg(test)]
mod testkit;

/// Languages with a dataflow extractor.
pub const DATAFLOW_LANGUAGES: &[Language] = &[
    Language::TypeScript,
    Language::Tsx,
    Language::JavaScript,
    Language::Python,
    Language::Go,
    Language::Java,
];

/// Parse budget per file; a pathological file is skipped rather than stalling a query.
const BUDGET: Duration = Duration::from_secs(5);

/// The dataflow facts of every function in `source`, in source order; `None` when the language
/// has no dataflow extractor, or the file does not parse within the budget or has a tree past
/// `gortex-lang`'s shape limits (`gortex_lang::budget`: the walkers below then see at most
/// `MAX_TREE_DEPTH` levels).
pub fn extract(language: Language, source: &str) -> Option<Vec<FnFlow>> {
    if !DATAFLOW_LANGUAGES.contains(&language) {
        return None;
    }
    let tree = gortex_lang::parse(language, source.as_bytes(), BUDGET).ok()?;
    let src = source.as_bytes();
    Some(match language {
        Language::Python => python::extract(&tree, src),
        Language::Go => go::extract(&tree, src),
        Language::Java => java::extract(&tree, src),
        _ => ecmascript::extract(&tree, src),
    })
}

/// Named children of a node, comments left out.
fn named_children(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}
