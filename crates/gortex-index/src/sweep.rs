//! A structural sweep: compiled tree-sitter patterns run over the indexed files of their
//! languages (read through the index's sources, so an overlay view sweeps its own buffers), each
//! match handed to a visitor with its file and line. `search_ast` and the AST-sourced `analyze`
//! kinds (concurrency, unsafe code) are built on it.

use crate::RepoIndex;
use gortex_core::{Language, NodeKind};
use gortex_graph::{Graph, NodeIndex};
use gortex_lang::structural::{self, AstMatch, AstQuery, Cut};
use std::time::Instant;

/// Where a match was found.
pub(crate) struct Site<'a> {
    pub path: &'a str,
    pub language: Language,
    /// The file's lines, for quoting.
    pub lines: &'a [&'a str],
}

impl Site<'_> {
    /// Line `line` (1-based) trimmed and cut to 240 characters.
    pub fn quote(&self, line: u32) -> String {
        self.lines
            .get((line as usize).wrapping_sub(1))
            .map(|l| l.trim().chars().take(240).collect())
            .unwrap_or_default()
    }
}

/// What to sweep and how far.
pub(crate) struct Sweep<'p> {
    /// One compiled query per language.
    pub patterns: &'p [(Language, &'p AstQuery)],
    /// Only files under this prefix (empty: all).
    pub prefix: &'p str,
    /// Only these files, when set (a trigram prefilter's answer).
    pub allowed: Option<&'p std::collections::HashSet<String>>,
    /// Literals every searched file must contain (checked on its text).
    pub literals: &'p [String],
    /// Most matches taken from one file.
    pub per_file: usize,
    pub deadline: Instant,
}

/// What a sweep covered.
#[derive(Debug, Default)]
pub(crate) struct Swept {
    /// Files of the patterns' languages under the prefix.
    pub considered: usize,
    /// Files parsed and searched.
    pub searched: usize,
    /// Files that could not be read or parsed, with why.
    pub skipped: Vec<String>,
    /// Why the sweep stopped early, if it did (the visitor's stop counts as `Limit`).
    pub cut: Option<Cut>,
}

/// Whether the visitor wants more matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Visit {
    More,
    Stop,
}

impl RepoIndex {
    /// Runs `sweep` over the graph's files in index order, calling `visit` for each match.
    pub(crate) fn sweep(
        &self,
        g: &Graph,
        sweep: &Sweep<'_>,
        mut visit: impl FnMut(&Site<'_>, &AstMatch) -> Visit,
    ) -> Swept {
        let sources = self.sources();
        let mut out = Swept::default();
        'files: for &f in g.files() {
            let node = g.node_at(f);
            let Some((language, query)) = sweep.patterns.iter().find(|(l, _)| Some(*l) == node.language) else {
                continue;
            };
            if !node.path.starts_with(sweep.prefix) {
                continue;
            }
            out.considered += 1;
            if sweep.allowed.is_some_and(|a| !a.contains(node.path.as_ref() as &str)) {
                continue;
            }
            if Instant::now() >= sweep.deadline {
                out.cut = Some(Cut::Deadline);
                break;
            }
            let bytes = match sources.read(&node.path) {
                Ok(b) => b,
                Err(e) => {
                    out.skipped.push(format!("{}: {e}", node.path));
                    continue;
                }
            };
            let text = String::from_utf8_lossy(&bytes);
            // A prefilter narrows to files that may hold each literal; the text decides.
            if !sweep.literals.iter().all(|l| text.contains(l.as_str())) {
                continue;
            }
            out.searched += 1;
            let (found, file_cut) = match structural::run(query, *language, &bytes, sweep.per_file, sweep.deadline) {
                Ok(v) => v,
                Err(e) => {
                    out.skipped.push(format!("{}: {e}", node.path));
                    continue;
                }
            };
            let lines: Vec<&str> = text.lines().collect();
            let site = Site {
                path: &node.path,
                language: *language,
                lines: &lines,
            };
            for m in &found {
                if visit(&site, m) == Visit::Stop {
                    out.cut = Some(Cut::Limit);
                    break 'files;
                }
            }
            if file_cut == Some(Cut::Deadline) {
                out.cut = Some(Cut::Deadline);
                break;
            }
        }
        out
    }
}

/// The innermost function or method of `path` whose lines hold `line`, else the innermost symbol.
pub(crate) fn enclosing_function(g: &Graph, path: &str, line: u32) -> Option<NodeIndex> {
    let holding = |i: &NodeIndex| {
        let n = g.node_at(*i);
        n.kind != NodeKind::File && n.span.start_line <= line && line <= n.span.end_line
    };
    let size = |i: &NodeIndex| {
        let s = &g.node_at(*i).span;
        s.end_line - s.start_line
    };
    let nodes = g.file_nodes(path);
    nodes
        .iter()
        .copied()
        .filter(holding)
        .filter(|&i| g.node_at(i).kind.is_callable())
        .min_by_key(size)
        .or_else(|| crate::review::enclosing_symbol(g, path, line))
}
