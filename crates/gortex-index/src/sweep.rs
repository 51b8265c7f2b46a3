//! A structural sweep: compiled tree-sitter patterns run over the indexed files of their
//! languages (read through the index's sources, so an overlay view sweeps its own buffers), each
//! match handed to a visitor with its file and line. `search_ast` runs on it; the AST-sourced
//! `analyze` kinds take its named matches as [`Hit`]s from [`RepoIndex::ast_hits`].

use crate::RepoIndex;
use gortex_core::{Language, NodeKind, QueryError};
use gortex_graph::{Graph, NodeIndex};
use gortex_lang::structural::{self, AstMatch, AstQuery, Cut};
use schemars::JsonSchema;
use serde::Serialize;
use std::time::{Duration, Instant};

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

/// How long one sweep may run before it answers with what it has.
pub(crate) const SWEEP_DEADLINE: Duration = Duration::from_secs(30);
/// Matches taken from one file.
const PER_FILE: usize = 20_000;
/// One match of a named pattern: its first capture not starting with `_`.
pub(crate) struct Hit {
    pub path: String,
    pub language: Language,
    pub line: u32,
    pub end_line: u32,
    /// The capture's name: what the pattern found.
    pub what: String,
    /// The capture's node kind and text.
    pub node_kind: String,
    pub text: String,
    /// The match's other captures (name → text), `_`-named ones included.
    pub rest: Vec<(String, String)>,
    /// The trimmed source line.
    pub quote: String,
}

/// What a sweep covered, as the kinds report it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SweepCoverage {
    /// Files of the kind's languages searched.
    pub files_searched: usize,
    /// Files that could not be read or parsed, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The sweep's deadline passed: later files were not searched.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    pub evidence: &'static str,
}

impl RepoIndex {
    /// Runs `patterns` (per language, for the languages this build parses) over the files under
    /// `prefix` and returns every named match.
    pub(crate) fn ast_hits(
        &self,
        g: &Graph,
        patterns: &[(Language, &str)],
        prefix: Option<&str>,
    ) -> Result<(Vec<Hit>, SweepCoverage), QueryError> {
        let compiled = patterns
            .iter()
            .filter(|(l, _)| gortex_lang::supports(*l))
            .map(|(l, p)| {
                structural::compile(*l, p).map(|q| (*l, q)).map_err(|e| QueryError {
                    code: "internal",
                    message: format!("a bundled {} pattern does not compile: {e}", l.as_str()),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let queries: Vec<(Language, &structural::AstQuery)> = compiled.iter().map(|(l, q)| (*l, q)).collect();
        let prefix = gortex_analysis::reach::check_path_prefix(prefix)?.unwrap_or_default();
        let sweep = Sweep {
            patterns: &queries,
            prefix: &prefix,
            allowed: None,
            literals: &[],
            per_file: PER_FILE,
            deadline: Instant::now() + SWEEP_DEADLINE,
        };
        let mut hits = Vec::new();
        let swept = self.sweep(g, &sweep, |site: &Site<'_>, m: &AstMatch| {
            if let Some(hit) = hit_of(site, m) {
                hits.push(hit);
            }
            Visit::More
        });
        let coverage = SweepCoverage {
            files_searched: swept.searched,
            skipped: swept.skipped,
            timed_out: swept.cut == Some(Cut::Deadline),
            evidence: "ast",
        };
        Ok((hits, coverage))
    }
}

fn hit_of(site: &Site<'_>, m: &AstMatch) -> Option<Hit> {
    let (what, node_kind, text) = m.captures.iter().find(|(n, _, _)| !n.starts_with('_'))?;
    Some(Hit {
        path: site.path.to_string(),
        language: site.language,
        line: m.line,
        end_line: m.end_line,
        what: what.clone(),
        node_kind: node_kind.clone(),
        text: text.clone(),
        rest: m.captures.iter().map(|(n, _, t)| (n.clone(), t.clone())).collect(),
        quote: site.quote(m.line),
    })
}

impl Hit {
    /// The text of another capture of the same match.
    pub(crate) fn other(&self, name: &str) -> Option<&str> {
        self.rest.iter().find(|(n, _)| n == name).map(|(_, t)| t.as_str())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bundled_pattern_compiles() {
        for (language, pattern) in crate::concurrency::bundled_patterns()
            .into_iter()
            .chain(crate::unsafe_code::bundled_patterns())
            .chain(crate::events::bundled_patterns())
            .chain(crate::errors::bundled_patterns())
            .map(|(l, p)| (l, p.to_string()))
            .chain(crate::sql_sites::bundled_patterns())
            .chain(crate::strings::patterns())
            .chain(crate::flags::patterns())
        {
            if gortex_lang::supports(language) {
                if let Err(e) = gortex_lang::structural::compile(language, &pattern) {
                    panic!("{}: {e}\n{pattern}", language.as_str());
                }
            }
        }
    }
}
