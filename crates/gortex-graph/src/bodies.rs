//! Function and method bodies as the graph places them: which spans of a file are bodies, a
//! fingerprint of that layout (so per-file indexes over bodies — clone signatures, body search —
//! know when to read a file again), and the byte range of a span in the file's text.

use crate::{Graph, Node};
use gortex_core::{EdgeKind, Language, NodeKind, Span};
use std::path::{Component, Path};
use std::sync::Arc;

/// One function or method body the graph declares in a file.
#[derive(Debug, Clone)]
pub struct BodySpec {
    /// The node id.
    pub id: Arc<str>,
    pub span: Span,
    /// Abstract, or a member of a TypeScript/JavaScript interface: no body whatever the text says.
    pub declaration: bool,
}

fn is_body(n: &Node) -> bool {
    matches!(n.kind, NodeKind::Function | NodeKind::Method)
        && !n.external
        && n.span.start_line > 0
        && (n.span.end_line, n.span.end_col) > (n.span.start_line, n.span.start_col)
}

/// The function and method bodies of `path` in source order, and the language the graph gives it.
pub fn file_bodies(g: &Graph, path: &str) -> (Vec<BodySpec>, Option<Language>) {
    let mut language = None;
    let specs = g
        .file_nodes(path)
        .iter()
        .map(|&i| (i, g.node_at(i)))
        .filter(|(_, n)| is_body(n))
        .map(|(i, n)| {
            language = language.or(n.language);
            let interface_member = n.language.is_some_and(|l| l.is_ecmascript())
                && g.out_edges(i)
                    .any(|e| e.kind == EdgeKind::MemberOf && g.node_at(e.to).kind == NodeKind::Interface);
            BodySpec {
                id: n.id.clone(),
                span: n.span,
                declaration: n.is_abstract || interface_member,
            }
        })
        .collect();
    (specs, language)
}

/// A fingerprint of the bodies' ids, spans and declaration flags: equal when a file's bodies are
/// where they were.
pub fn layout_hash(specs: &[BodySpec]) -> u64 {
    specs.iter().fold(specs.len() as u64, |h, spec| {
        let s = &spec.span;
        let span = [
            s.start_line,
            s.start_col,
            s.end_line,
            s.end_col + ((spec.declaration as u32) << 31),
        ];
        let mut bytes = [0u8; 16];
        for (k, v) in span.iter().enumerate() {
            bytes[k * 4..k * 4 + 4].copy_from_slice(&v.to_le_bytes());
        }
        xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, xxhash_rust::xxh3::xxh3_64_with_seed(spec.id.as_bytes(), h))
    })
}

/// Whether `path` is relative and stays under the root (no `..`, not absolute, not empty).
pub fn valid_relative(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Byte offsets of the starts of the lines of a text.
pub struct LineStarts(Vec<usize>, usize);

impl LineStarts {
    /// The line starts of `text`.
    pub fn of(text: &str) -> LineStarts {
        let mut starts = vec![0usize];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineStarts(starts, text.len())
    }

    /// Byte offset of a 1-based line and 0-based byte column, clamped to the text.
    pub fn offset(&self, line: u32, col: u32) -> usize {
        match self.0.get((line as usize).wrapping_sub(1)) {
            Some(&start) => (start + col as usize).min(self.1),
            None if line == 0 => 0,
            None => self.1,
        }
    }

    /// The byte range of a span (empty when it is reversed).
    pub fn range(&self, span: &Span) -> std::ops::Range<usize> {
        let start = self.offset(span.start_line, span.start_col);
        let end = self.offset(span.end_line, span.end_col);
        start..end.max(start)
    }
}
