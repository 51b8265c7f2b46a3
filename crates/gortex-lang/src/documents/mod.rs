//! Files that are not code: documents and configuration, read without a grammar.
//!
//! Every such file becomes a file node whose text is searchable; the ones with structure add
//! it: Markdown headings become `doc` sections, package manifests name their dependencies
//! (`depends_on_module` edges to module nodes), Dockerfiles their build stages, `.proto` files
//! their messages, enums and services, SQL files their tables, views and routines. The readers
//! are line and token scanners: linear, total (any bytes give facts, never a panic) and
//! independent of tree-sitter.

mod dockerfile;
mod manifest;
mod markdown;
mod proto;
mod sql;

use crate::FileContext;
use gortex_core::{FileFacts, Language, Span};

/// Facts of a document or configuration file (`language` is one that is not code).
pub(crate) fn extract(language: Language, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
    let name = ctx.path.rsplit('/').next().unwrap_or(ctx.path);
    let read: fn(&str, &mut FileFacts) = match (manifest::reader(name), language) {
        (Some(read), _) => read,
        (None, Language::Markdown) => markdown::extract,
        (None, Language::Dockerfile) => dockerfile::extract,
        (None, Language::Proto) => proto::extract,
        (None, Language::Sql) => sql::extract,
        // Plain text and other configuration: a file node only, and its bytes are not even
        // decoded (tens of thousands of such files in a large tree).
        _ => return FileFacts::default(),
    };
    let mut facts = FileFacts::default();
    read(&String::from_utf8_lossy(source), &mut facts);
    facts
}

/// Adds the dependencies of a manifest written in a programming language (`build.gradle.kts`)
/// to the facts its extractor found.
pub(crate) fn add_manifest_dependencies(source: &[u8], ctx: &FileContext<'_>, facts: &mut FileFacts) {
    let name = ctx.path.rsplit('/').next().unwrap_or(ctx.path);
    if let Some(read) = manifest::reader(name) {
        let mut manifest = FileFacts::default();
        read(&String::from_utf8_lossy(source), &mut manifest);
        facts.imports.extend(manifest.imports);
    }
}

/// Byte offsets of line starts, for turning offsets into 1-based lines and 0-based columns.
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { starts }
    }

    /// 1-based line and 0-based byte column of `offset`.
    pub(crate) fn at(&self, offset: usize) -> (u32, u32) {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        (line as u32, (offset - self.starts[line - 1]) as u32)
    }

    /// The span from one byte offset to another.
    pub(crate) fn span(&self, from: usize, to: usize) -> Span {
        let (start_line, start_col) = self.at(from);
        let (end_line, end_col) = self.at(to.max(from));
        Span {
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }
}

/// A span covering whole lines `first..=last` (1-based), ending at the end of `last`.
pub(crate) fn line_span(first: u32, last: u32, last_len: usize) -> Span {
    Span {
        start_line: first,
        start_col: 0,
        end_line: last.max(first),
        end_col: last_len as u32,
    }
}

/// Collapses runs of whitespace and cuts to `max` characters (on a character boundary).
pub(crate) fn summary(text: &str, max: usize) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.chars().count() >= max {
            break;
        }
    }
    if out.chars().count() > max {
        out = out.chars().take(max).collect();
        out.push('…');
    }
    out
}
