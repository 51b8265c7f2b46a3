//! The mined history joined with one graph version: every file's line histories in the
//! coordinates of the text the graph was built from (uncommitted edits marked), and every
//! symbol's commits — over its whole span, and over its own lines (those no nested symbol claims),
//! which is what co-change counts.

use crate::codeowners::CodeOwners;
use crate::lines::{is_uncommitted, SetId, NO_HISTORY, UNCOMMITTED};
use crate::mine::{line_count, trackable, GitRepo, Mined};
use gortex_core::NodeKind;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::Arc;

/// Symbols with a history: declarations a change is about.
pub fn has_history(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Function
            | NodeKind::Method
            | NodeKind::Type
            | NodeKind::Interface
            | NodeKind::Constant
            | NodeKind::Variable
    )
}

/// A symbol's commits (indexes into [`Mined::commits`], ascending).
#[derive(Debug, Clone, Default)]
pub struct Subject {
    /// Commits that shaped any line of the symbol's span.
    pub span: Vec<u32>,
    /// Commits that shaped the symbol's own lines (not a nested symbol's).
    pub own: Vec<u32>,
    /// Lines of the span not committed yet.
    pub uncommitted: u32,
}

/// The history joined with a graph (see the module comment).
pub struct History {
    pub mined: Arc<Mined>,
    /// The indexed root inside the worktree (`""` or `dir/`).
    pub prefix: String,
    /// Line histories per graph path, in the coordinates of the text the graph was built from.
    pub files: FxHashMap<Arc<str>, Vec<SetId>>,
    pub subjects: FxHashMap<NodeIndex, Subject>,
    /// The symbols each commit shaped (own lines), per commit index.
    pub by_commit: Vec<Vec<NodeIndex>>,
    pub codeowners: Option<CodeOwners>,
    /// Files whose text differs from `HEAD` (edited, or not committed at all).
    pub uncommitted_files: u32,
    /// What bringing the mined history up to `HEAD` took before this join (`unchanged`,
    /// `incremental`, `full`), reported with every answer.
    pub update: String,
}

impl History {
    /// Joins `mined` with `graph`; `current` reads a graph path's text as the graph saw it
    /// (`None` when unreadable: `HEAD`'s lines are taken as they are).
    pub fn join(
        graph: &Graph,
        mined: Arc<Mined>,
        repo: &GitRepo,
        current: &(dyn Fn(&str) -> Option<Vec<u8>> + Sync),
    ) -> History {
        let prefix = repo.prefix.clone();
        let mut files: FxHashMap<Arc<str>, Vec<SetId>> = FxHashMap::default();
        let mut uncommitted_files = 0;
        for &file in graph.files() {
            let path = &graph.node_at(file).path;
            let key = format!("{prefix}{path}");
            let text = current(path);
            let lines = match (mined.files.get(&key), text) {
                (Some(head), Some(text)) if repo.blob_id(&text) != head.blob => {
                    uncommitted_files += 1;
                    match repo.blob(&head.blob) {
                        Ok(old) if trackable(&text) => over_worktree(&head.lines, &old, &text),
                        _ => vec![NO_HISTORY | UNCOMMITTED; line_count(&text)],
                    }
                }
                (Some(head), _) => head.lines.clone(),
                // Not tracked at `HEAD`: binary or oversized (no line history), or not committed.
                (None, Some(text)) if trackable(&text) => {
                    uncommitted_files += 1;
                    vec![NO_HISTORY | UNCOMMITTED; line_count(&text)]
                }
                (None, _) => continue,
            };
            files.insert(path.clone(), lines);
        }
        let mut subjects: FxHashMap<NodeIndex, Subject> = FxHashMap::default();
        let mut by_commit: Vec<Vec<NodeIndex>> = vec![Vec::new(); mined.commits.len()];
        for &file in graph.files() {
            let path = &graph.node_at(file).path;
            let Some(lines) = files.get(path) else { continue };
            let mut symbols: Vec<NodeIndex> = graph
                .file_nodes(path)
                .iter()
                .copied()
                .filter(|&i| has_history(graph.node_at(i).kind) && graph.node_at(i).span.start_line > 0)
                .collect();
            // Widest first, so a nested symbol's claim on its lines overrides its parent's.
            symbols.sort_by_key(|&i| {
                let s = graph.node_at(i).span;
                std::cmp::Reverse(s.end_line.saturating_sub(s.start_line))
            });
            let mut owner: Vec<Option<NodeIndex>> = vec![None; lines.len()];
            for &i in &symbols {
                for slot in owner.get_mut(line_range(graph, i, lines.len())).into_iter().flatten() {
                    *slot = Some(i);
                }
            }
            let mut own: FxHashMap<NodeIndex, Vec<u32>> = FxHashMap::default();
            for (line, who) in owner.iter().enumerate() {
                if let Some(i) = who {
                    own.entry(*i)
                        .or_default()
                        .extend_from_slice(mined.lineage.get(lines[line]));
                }
            }
            for &i in &symbols {
                let range = line_range(graph, i, lines.len());
                let mut span: Vec<u32> = Vec::new();
                let mut uncommitted = 0;
                for &set in &lines[range] {
                    if is_uncommitted(set) {
                        uncommitted += 1;
                    }
                    span.extend_from_slice(mined.lineage.get(set));
                }
                span.sort_unstable();
                span.dedup();
                let mut own = own.remove(&i).unwrap_or_default();
                own.sort_unstable();
                own.dedup();
                for &c in &own {
                    by_commit[c as usize].push(i);
                }
                subjects.insert(i, Subject { span, own, uncommitted });
            }
        }
        History {
            codeowners: CodeOwners::load(&repo.workdir),
            mined,
            prefix,
            files,
            subjects,
            by_commit,
            uncommitted_files,
            update: String::new(),
        }
    }

    /// The line range (0-based, clamped to `len`) of node `i`'s span.
    pub fn lines_of(&self, graph: &Graph, i: NodeIndex) -> Option<&[SetId]> {
        let node = graph.node_at(i);
        let lines = self.files.get(&node.path)?;
        Some(&lines[line_range(graph, i, lines.len())])
    }

    /// The worktree-relative path of a graph path (what CODEOWNERS and commits name).
    pub fn worktree_path(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }
}

/// The 0-based line range of node `i`, clamped to a file of `len` lines.
fn line_range(graph: &Graph, i: NodeIndex, len: usize) -> Range<usize> {
    let span = graph.node_at(i).span;
    let start = (span.start_line.max(1) as usize - 1).min(len);
    let end = (span.end_line.max(span.start_line) as usize).min(len);
    start..end.max(start)
}

/// `HEAD`'s line histories carried over to the worktree text. A line the worktree changed is
/// [`UNCOMMITTED`] and inherits the history of the `HEAD` line it replaces (the line at the same
/// offset of its hunk; none for pure insertions), so "which commits shaped this code" still holds
/// while an edit is in progress.
fn over_worktree(head: &[SetId], old: &[u8], new: &[u8]) -> Vec<SetId> {
    let input = imara_diff::intern::InternedInput::new(old, new);
    let mut out = Vec::with_capacity(input.after.len());
    let mut at = 0usize;
    imara_diff::diff(
        imara_diff::Algorithm::Histogram,
        &input,
        |before: Range<u32>, after: Range<u32>| {
            let b0 = (before.start as usize).min(head.len());
            let b1 = (before.end as usize).min(head.len()).max(b0);
            out.extend_from_slice(&head[at.min(b0)..b0]);
            at = b1;
            let replaced = &head[b0..b1];
            for k in 0..after.len() {
                let inherited = if replaced.is_empty() {
                    NO_HISTORY
                } else {
                    replaced[k.min(replaced.len() - 1)]
                };
                out.push(inherited | UNCOMMITTED);
            }
        },
    );
    out.extend_from_slice(&head[at.min(head.len())..]);
    out.resize(input.after.len(), NO_HISTORY | UNCOMMITTED);
    out
}

/// The mainline commits of every file at `HEAD` (by worktree path index), renames followed back:
/// one pass from the newest commit, each rename pointing its old name at the file it became.
pub fn file_commits(mined: &Mined) -> FxHashMap<u32, Vec<u32>> {
    let mut current: FxHashMap<u32, u32> = FxHashMap::default();
    let ids: FxHashMap<&str, u32> = mined
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i as u32))
        .collect();
    for path in mined.files.keys() {
        if let Some(&id) = ids.get(path.as_str()) {
            current.insert(id, id);
        }
    }
    let mut out: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (c, commit) in mined.commits.iter().enumerate().rev() {
        for p in &commit.paths {
            if let Some(&file) = current.get(p) {
                let list = out.entry(file).or_default();
                if list.last() != Some(&(c as u32)) {
                    list.push(c as u32);
                }
            }
        }
        for &(from, to) in &commit.renames {
            if let Some(file) = current.remove(&to) {
                current.insert(from, file);
            }
        }
    }
    for list in out.values_mut() {
        list.reverse();
    }
    out
}
