//! The history analyses: `blame`, `ownership`, `stale_code`, `churn`, `fixes_history` and
//! `releases`, each a pure function of a graph and its joined [`History`]. Evidence is `git`:
//! mainline (first-parent) commits, line histories as [`crate::lines`] defines them.

use crate::codeowners::OwnerRule;
use crate::history::{file_commits, has_history, History};
use crate::lines::is_uncommitted;
use crate::report::{blame_shares, iso_date, round3, AuthorShare, CommitRef, HistoryMeta};
use gortex_analysis::coverage::is_test_code;
use gortex_core::{EdgeKind, Origin, QueryError};
use gortex_graph::query::common::{check_limit, check_range, resolve_one};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Authors listed per row.
const TOP_AUTHORS: usize = 5;

/// Symbols with a history under `prefix` (all when `None`), in graph order.
fn subjects_under<'a>(g: &'a Graph, h: &'a History, prefix: Option<&'a str>) -> impl Iterator<Item = NodeIndex> + 'a {
    g.node_entries()
        .filter(move |(i, n)| {
            has_history(n.kind) && h.subjects.contains_key(i) && prefix.is_none_or(|p| n.path.starts_with(p))
        })
        .map(|(i, _)| i)
}

/// Distinct symbols that call, instantiate, reference or test `i`.
pub fn fan_in(g: &Graph, i: NodeIndex) -> usize {
    let mut from: Vec<NodeIndex> = g
        .in_edges(i)
        .filter(|e| {
            matches!(
                e.kind,
                EdgeKind::Calls | EdgeKind::Instantiates | EdgeKind::References | EdgeKind::Tests
            ) && e.origin != Origin::Speculative
        })
        .map(|e| e.from)
        .collect();
    from.sort_unstable();
    from.dedup();
    from.len()
}

/// Arguments of `blame`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlameArgs {
    /// One symbol (id, `Owner.name` or name) to blame.
    pub symbol: Option<String>,
    /// A file to blame as a whole and symbol by symbol, or a path prefix.
    pub path: Option<String>,
    /// Most symbol rows returned (1..=1000, default 50), most recently changed first.
    pub limit: Option<usize>,
    /// Authors listed per row (1..=1000, default 5), largest share first.
    pub authors: Option<u32>,
}

/// Who wrote a symbol's lines and when it last changed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlameRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// The latest commit that touched a line of the symbol.
    pub last_change: Option<CommitRef>,
    /// The oldest commit whose work survives in the symbol.
    pub first_change: Option<CommitRef>,
    /// Commits that shaped the symbol's current lines.
    pub commits: usize,
    /// Who last touched its lines, largest share first.
    pub authors: Vec<AuthorShare>,
    pub lines: usize,
    pub uncommitted_lines: u32,
}

/// A file's blame as a whole.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileBlame {
    pub path: String,
    pub last_change: Option<CommitRef>,
    /// Mainline commits that changed the file (renames followed).
    pub commits: usize,
    pub authors: Vec<AuthorShare>,
    pub lines: usize,
    pub uncommitted_lines: u32,
}

/// Result of `blame`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlameResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<FileBlame>,
    pub symbols: Vec<BlameRow>,
    pub total: usize,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// Blame row of symbol `i` with its `top` authors.
fn blame_row(g: &Graph, h: &History, i: NodeIndex, top: usize) -> BlameRow {
    let lines = h.lines_of(g, i).unwrap_or(&[]);
    let (mut authors, latest, uncommitted) = blame_shares(&h.mined, lines);
    authors.truncate(top);
    let subject = h.subjects.get(&i);
    BlameRow {
        node: NodeSummary::of(g.node_at(i)),
        last_change: latest.map(|c| CommitRef::of(&h.mined, c)),
        first_change: subject
            .and_then(|s| s.span.first())
            .map(|&c| CommitRef::of(&h.mined, c)),
        commits: subject.map_or(0, |s| s.span.len()),
        authors,
        lines: lines.len(),
        uncommitted_lines: uncommitted,
    }
}

/// The latest commit of symbol `i`'s lines (`None` for uncommitted or unknown history).
fn last_commit(g: &Graph, h: &History, i: NodeIndex) -> Option<u32> {
    h.lines_of(g, i)?
        .iter()
        .filter(|&&s| !is_uncommitted(s))
        .filter_map(|&s| h.mined.lineage.last(s))
        .max()
}

/// The path id of a worktree path.
fn path_ids(h: &History) -> FxHashMap<&str, u32> {
    h.mined
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i as u32))
        .collect()
}

/// `blame`: authorship and last change of a symbol, a file's symbols, or every symbol under a prefix.
pub fn blame(g: &Graph, h: &History, args: &BlameArgs) -> Result<BlameResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let top = check_range("authors", args.authors, TOP_AUTHORS as u32, 1, 1000)? as usize;
    let history = HistoryMeta::of(h, &h.update);
    if let Some(symbol) = &args.symbol {
        let i = resolve_one(g, symbol)?;
        if !h.subjects.contains_key(&i) {
            return Err(QueryError::invalid(format!(
                "`{symbol}` is a {} — blame takes a function, method, type, interface, constant or variable; pass a file as `path`",
                g.node_at(i).kind
            )));
        }
        return Ok(BlameResult {
            file: None,
            symbols: vec![blame_row(g, h, i, top)],
            total: 1,
            truncated: false,
            history,
            evidence: "git",
        });
    }
    let path = args.path.as_deref().map(|p| p.trim_start_matches("./"));
    let file = match path.and_then(|p| h.files.get(p).map(|lines| (p, lines))) {
        Some((p, lines)) => {
            let (mut authors, _, uncommitted) = blame_shares(&h.mined, lines);
            authors.truncate(top);
            let per_file = file_commits(&h.mined);
            let ids = path_ids(h);
            let commits = ids.get(h.worktree_path(p).as_str()).and_then(|id| per_file.get(id));
            Some(FileBlame {
                path: p.to_string(),
                last_change: commits.and_then(|c| c.last()).map(|&c| CommitRef::of(&h.mined, c)),
                commits: commits.map_or(0, |c| c.len()),
                authors,
                lines: lines.len(),
                uncommitted_lines: uncommitted,
            })
        }
        None => None,
    };
    if let Some(p) = path {
        if file.is_none() && !g.files().iter().any(|&f| g.node_at(f).path.starts_with(p)) {
            return Err(QueryError::not_found(format!(
                "no indexed file is `{p}` or under it; pass a repository-relative file or directory"
            )));
        }
    }
    let mut rows: Vec<(Option<u32>, NodeIndex)> =
        subjects_under(g, h, path).map(|i| (last_commit(g, h, i), i)).collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let total = rows.len();
    let symbols = rows.iter().take(limit).map(|&(_, i)| blame_row(g, h, i, top)).collect();
    Ok(BlameResult {
        file,
        symbols,
        total,
        truncated: total > limit,
        history,
        evidence: "git",
    })
}

/// Arguments of `ownership`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OwnershipArgs {
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// `file` rows, or `directory` rows (default) grouped `depth` levels below the prefix.
    #[schemars(extend("enum" = ["file", "directory"]))]
    pub by: Option<String>,
    /// Directory levels below the prefix a row groups (1..=8, default 1).
    pub depth: Option<u32>,
    /// Most rows returned (1..=1000, default 50), most lines first.
    pub limit: Option<usize>,
}

/// Who owns a file or directory: CODEOWNERS and the authors of its current lines.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OwnershipRow {
    pub path: String,
    pub files: usize,
    /// CODEOWNERS owners (for a directory, every owner of one of its files, most files first).
    pub codeowners: Vec<String>,
    /// The CODEOWNERS rules that decided (file rows).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<OwnerRule>,
    /// Files no CODEOWNERS rule owns.
    pub unowned_files: usize,
    /// Who last touched the current lines, largest share first.
    pub authors: Vec<AuthorShare>,
    /// Fewest authors who together last touched half the committed lines.
    pub bus_factor: usize,
    /// Mainline commits that changed a file of the row.
    pub commits: usize,
    pub last_change: Option<CommitRef>,
    pub lines: usize,
}

/// Result of `ownership`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OwnershipResult {
    pub rows: Vec<OwnershipRow>,
    pub total: usize,
    pub truncated: bool,
    /// The CODEOWNERS file read, if any.
    pub codeowners_file: Option<String>,
    /// CODEOWNERS lines that could not be read (`line: why`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub codeowners_problems: Vec<String>,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// `ownership`: CODEOWNERS, authorship shares and bus factor per file or directory.
pub fn ownership(g: &Graph, h: &History, args: &OwnershipArgs) -> Result<OwnershipResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let by_dir = match args.by.as_deref() {
        None | Some("directory") => true,
        Some("file") => false,
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "by must be `file` or `directory`, got `{other}`"
            )))
        }
    };
    let depth = check_range("depth", args.depth, 1, 1, 8)? as usize;
    let prefix = args.path_prefix.as_deref().unwrap_or("").trim_start_matches("./");
    let per_file = file_commits(&h.mined);
    let ids = path_ids(h);
    struct Group {
        files: usize,
        lines: Vec<u32>,
        owners: Vec<(String, usize)>,
        rules: Vec<OwnerRule>,
        unowned: usize,
        commits: FxHashSet<u32>,
    }
    let mut groups: Vec<(String, Group)> = Vec::new();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    for &f in g.files() {
        let path = &g.node_at(f).path;
        if !path.starts_with(prefix) {
            continue;
        }
        let Some(lines) = h.files.get(path) else { continue };
        let key = if by_dir {
            group_key(path, prefix, depth)
        } else {
            path.to_string()
        };
        let slot = *index.entry(key.clone()).or_insert_with(|| {
            groups.push((
                key,
                Group {
                    files: 0,
                    lines: Vec::new(),
                    owners: Vec::new(),
                    rules: Vec::new(),
                    unowned: 0,
                    commits: FxHashSet::default(),
                },
            ));
            groups.len() - 1
        });
        let group = &mut groups[slot].1;
        group.files += 1;
        group.lines.extend_from_slice(lines);
        let wt = h.worktree_path(path);
        if let Some(co) = &h.codeowners {
            let (owners, rules) = co.owners(&wt);
            if owners.is_empty() {
                group.unowned += 1;
            }
            for o in owners {
                match group.owners.iter_mut().find(|(name, _)| *name == o) {
                    Some((_, n)) => *n += 1,
                    None => group.owners.push((o, 1)),
                }
            }
            if !by_dir {
                group.rules = rules;
            }
        } else {
            group.unowned += 1;
        }
        if let Some(id) = ids.get(wt.as_str()) {
            group.commits.extend(per_file.get(id).into_iter().flatten().copied());
        }
    }
    let mut rows: Vec<OwnershipRow> = groups
        .into_iter()
        .map(|(path, mut group)| {
            let (authors, _, _) = blame_shares(&h.mined, &group.lines);
            let bus_factor = {
                let (mut sum, mut n) = (0.0, 0);
                for a in &authors {
                    if sum >= 0.5 {
                        break;
                    }
                    sum += a.share;
                    n += 1;
                }
                n
            };
            group.owners.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let last = group.commits.iter().max().copied();
            OwnershipRow {
                path,
                files: group.files,
                codeowners: group.owners.into_iter().map(|(o, _)| o).collect(),
                rules: group.rules,
                unowned_files: group.unowned,
                authors: authors.into_iter().take(TOP_AUTHORS).collect(),
                bus_factor,
                commits: group.commits.len(),
                last_change: last.map(|c| CommitRef::of(&h.mined, c)),
                lines: group.lines.len(),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.lines.cmp(&a.lines).then(a.path.cmp(&b.path)));
    let total = rows.len();
    rows.truncate(limit);
    Ok(OwnershipResult {
        rows,
        total,
        truncated: total > limit,
        codeowners_file: h.codeowners.as_ref().map(|c| c.file.clone()),
        codeowners_problems: h
            .codeowners
            .as_ref()
            .map(|c| c.problems.iter().map(|(l, why)| format!("{l}: {why}")).collect())
            .unwrap_or_default(),
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}

/// The directory `depth` levels below `prefix` that holds `path` (`.` for files at the top).
fn group_key(path: &str, prefix: &str, depth: usize) -> String {
    let rest = &path[prefix.len()..];
    let parts: Vec<&str> = rest.split('/').collect();
    let dirs = &parts[..parts.len() - 1];
    if dirs.is_empty() {
        return if prefix.is_empty() {
            ".".into()
        } else {
            prefix.trim_end_matches('/').to_string()
        };
    }
    let keep = dirs.len().min(depth);
    format!("{prefix}{}", dirs[..keep].join("/"))
}

/// Arguments of `stale_code`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StaleCodeArgs {
    /// Unchanged for at least this many days before the head commit (1..=36500, default 365).
    pub days: Option<u32>,
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Also report test code (default false).
    #[serde(default)]
    pub include_tests: bool,
    /// Most rows returned (1..=1000, default 50), oldest first.
    pub limit: Option<usize>,
}

/// A symbol nobody changed for a long time.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StaleRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    pub last_change: CommitRef,
    /// Days between its last change and the head commit.
    pub age_days: u32,
    /// Distinct users (callers, instantiations, references, tests): 0 suggests dead code.
    pub fan_in: usize,
}

/// Result of `stale_code`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct StaleCodeResult {
    pub symbols: Vec<StaleRow>,
    pub total: usize,
    pub examined: usize,
    /// The head commit's date, which ages are measured from.
    pub as_of: String,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// `stale_code`: symbols unchanged for `days` before the head commit, oldest first.
pub fn stale_code(g: &Graph, h: &History, args: &StaleCodeArgs) -> Result<StaleCodeResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let days = check_range("days", args.days, 365, 1, 36_500)?;
    let head_time = h.mined.commits.last().map_or(0, |c| c.time);
    let mut examined = 0;
    let mut rows: Vec<(i64, NodeIndex, u32)> = Vec::new();
    for i in subjects_under(g, h, args.path_prefix.as_deref()) {
        if !args.include_tests && is_test_code(g, i) {
            continue;
        }
        examined += 1;
        if h.subjects[&i].uncommitted > 0 {
            continue;
        }
        let Some(last) = last_commit(g, h, i) else { continue };
        let age = (head_time - h.mined.commits[last as usize].time).max(0) / 86_400;
        if age >= i64::from(days) {
            rows.push((age, i, last));
        }
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let total = rows.len();
    let symbols = rows
        .iter()
        .take(limit)
        .map(|&(age, i, last)| StaleRow {
            node: NodeSummary::of(g.node_at(i)),
            last_change: CommitRef::of(&h.mined, last),
            age_days: age as u32,
            fan_in: fan_in(g, i),
        })
        .collect();
    Ok(StaleCodeResult {
        symbols,
        total,
        examined,
        as_of: iso_date(head_time),
        truncated: total > limit,
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}

/// Arguments of `churn`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChurnArgs {
    /// Only commits of the last this many days before the head commit (1..=36500; default all).
    pub days: Option<u32>,
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// `symbol` rows (default: commits that shaped the symbol's current lines) or `file` rows
    /// (commits that changed the file).
    #[schemars(extend("enum" = ["symbol", "file"]))]
    pub by: Option<String>,
    /// Most rows returned (1..=1000, default 50), most commits first.
    pub limit: Option<usize>,
}

/// How often something changed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChurnRow {
    /// The symbol (symbol rows).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub node: Option<NodeSummary>,
    /// The file (file rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub commits: usize,
    /// Distinct authors of those commits.
    pub authors: usize,
    pub last_change: CommitRef,
}

/// Result of `churn`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChurnResult {
    pub rows: Vec<ChurnRow>,
    pub total: usize,
    /// The first day counted (`YYYY-MM-DD`); empty when every commit counts.
    pub since: String,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// `churn`: symbols or files ranked by the commits that changed them.
pub fn churn(g: &Graph, h: &History, args: &ChurnArgs) -> Result<ChurnResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let by_file = match args.by.as_deref() {
        None | Some("symbol") => false,
        Some("file") => true,
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "by must be `symbol` or `file`, got `{other}`"
            )))
        }
    };
    let head_time = h.mined.commits.last().map_or(0, |c| c.time);
    let since = match args.days {
        Some(_) => head_time - i64::from(check_range("days", args.days, 1, 1, 36_500)?) * 86_400,
        None => i64::MIN,
    };
    let counts = |commits: &mut dyn Iterator<Item = u32>| -> Option<(usize, usize, u32)> {
        let mut n = 0;
        let mut authors: Vec<u32> = Vec::new();
        let mut last = None;
        for c in commits {
            let commit = &h.mined.commits[c as usize];
            if commit.time < since {
                continue;
            }
            n += 1;
            if !authors.contains(&commit.author) {
                authors.push(commit.author);
            }
            last = Some(last.map_or(c, |l: u32| l.max(c)));
        }
        last.map(|l| (n, authors.len(), l))
    };
    let prefix = args.path_prefix.as_deref();
    let mut rows: Vec<(usize, ChurnRow)> = Vec::new();
    if by_file {
        for (p, commits) in file_commits(&h.mined) {
            let wt = &h.mined.paths[p as usize];
            let Some(path) = wt.strip_prefix(h.prefix.as_str()) else {
                continue;
            };
            if prefix.is_some_and(|pre| !path.starts_with(pre)) || !h.files.contains_key(path) {
                continue;
            }
            if let Some((n, authors, last)) = counts(&mut commits.into_iter()) {
                rows.push((
                    n,
                    ChurnRow {
                        node: None,
                        path: Some(path.to_string()),
                        commits: n,
                        authors,
                        last_change: CommitRef::of(&h.mined, last),
                    },
                ));
            }
        }
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.path.cmp(&b.1.path)));
    } else {
        let mut scored: Vec<(usize, usize, u32, NodeIndex)> = Vec::new();
        for i in subjects_under(g, h, prefix) {
            if let Some((n, authors, last)) = counts(&mut h.subjects[&i].span.iter().copied()) {
                scored.push((n, authors, last, i));
            }
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.3.cmp(&b.3)));
        rows = scored
            .into_iter()
            .map(|(n, authors, last, i)| {
                (
                    n,
                    ChurnRow {
                        node: Some(NodeSummary::of(g.node_at(i))),
                        path: None,
                        commits: n,
                        authors,
                        last_change: CommitRef::of(&h.mined, last),
                    },
                )
            })
            .collect();
    }
    let total = rows.len();
    Ok(ChurnResult {
        rows: rows.into_iter().take(limit).map(|(_, r)| r).collect(),
        total,
        since: if args.days.is_some() {
            iso_date(since)
        } else {
            String::new()
        },
        truncated: total > limit,
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}

/// Words of a commit summary that mark a fix (whole words, any case).
pub const FIX_WORDS: &[&str] = &[
    "fix",
    "fixes",
    "fixed",
    "fixing",
    "bug",
    "bugfix",
    "hotfix",
    "regression",
    "revert",
    "crash",
    "fixup",
];

/// Whether a commit summary reads as a fix.
pub fn is_fix(summary: &str, words: &[String]) -> bool {
    summary
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| !w.is_empty() && words.iter().any(|x| x.eq_ignore_ascii_case(w)))
}

/// Arguments of `fixes_history`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FixesHistoryArgs {
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Words that mark a fix commit's summary (default fix, fixes, fixed, fixing, bug, bugfix,
    /// hotfix, regression, revert, crash, fixup).
    pub words: Option<Vec<String>>,
    /// Most rows returned (1..=1000, default 50), most fixes first.
    pub limit: Option<usize>,
}

/// A symbol and the fixes that shaped it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FixRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    pub fixes: usize,
    pub commits: usize,
    /// `fixes / commits`.
    pub fix_ratio: f64,
    /// The latest fixes (up to three), newest first.
    pub recent: Vec<CommitRef>,
}

/// Result of `fixes_history`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FixesHistoryResult {
    pub symbols: Vec<FixRow>,
    pub total: usize,
    /// Fix commits on the mainline, and all mainline commits.
    pub fix_commits: usize,
    pub commits: usize,
    pub words: Vec<String>,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// `fixes_history`: symbols ranked by the fix commits that shaped their current lines.
pub fn fixes_history(g: &Graph, h: &History, args: &FixesHistoryArgs) -> Result<FixesHistoryResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let words: Vec<String> = match &args.words {
        Some(w) if w.iter().any(|x| x.trim().is_empty()) || w.is_empty() => {
            return Err(QueryError::invalid("words must be a non-empty list of non-empty words"))
        }
        Some(w) => w.clone(),
        None => FIX_WORDS.iter().map(|w| w.to_string()).collect(),
    };
    let fix: Vec<bool> = h.mined.commits.iter().map(|c| is_fix(&c.summary, &words)).collect();
    let mut rows: Vec<(usize, usize, NodeIndex)> = Vec::new();
    for i in subjects_under(g, h, args.path_prefix.as_deref()) {
        let span = &h.subjects[&i].span;
        let fixes = span.iter().filter(|&&c| fix[c as usize]).count();
        if fixes > 0 {
            rows.push((fixes, span.len(), i));
        }
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let total = rows.len();
    let symbols = rows
        .iter()
        .take(limit)
        .map(|&(fixes, commits, i)| FixRow {
            node: NodeSummary::of(g.node_at(i)),
            fixes,
            commits,
            fix_ratio: round3(fixes as f64 / commits.max(1) as f64),
            recent: h.subjects[&i]
                .span
                .iter()
                .rev()
                .filter(|&&c| fix[c as usize])
                .take(3)
                .map(|&c| CommitRef::of(&h.mined, c))
                .collect(),
        })
        .collect();
    Ok(FixesHistoryResult {
        symbols,
        total,
        fix_commits: fix.iter().filter(|&&f| f).count(),
        commits: fix.len(),
        words,
        truncated: total > limit,
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}

/// Arguments of `releases`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleasesArgs {
    /// A symbol whose releases to report: which tag introduced it, which changed it.
    pub symbol: Option<String>,
    /// Most releases returned (1..=1000, default 50), newest first.
    pub limit: Option<usize>,
}

/// One tag and what changed since the previous one on the mainline.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReleaseRow {
    pub tag: String,
    pub sha: String,
    pub date: String,
    /// Whether the tagged commit is on the mainline (first-parent history of `HEAD`); the
    /// counts below are only known for those.
    pub on_mainline: bool,
    /// Mainline commits since the previous mainline tag.
    pub commits: usize,
    pub files_changed: usize,
    /// Symbols whose current lines a commit of the release shaped.
    pub symbols_changed: usize,
}

/// A symbol's releases.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SymbolReleases {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// The first release holding work that survives in the symbol.
    pub introduced_in: Option<String>,
    /// The latest release that changed it.
    pub last_changed_in: Option<String>,
    /// Every release that changed it, newest first.
    pub changed_in: Vec<String>,
    /// Its commits after the latest tag.
    pub unreleased_commits: usize,
}

/// Result of `releases`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReleasesResult {
    pub releases: Vec<ReleaseRow>,
    pub total: usize,
    /// Mainline commits after the latest mainline tag, and the symbols they shaped.
    pub unreleased_commits: usize,
    pub unreleased_symbols: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolReleases>,
    pub truncated: bool,
    pub history: HistoryMeta,
    pub evidence: &'static str,
}

/// `releases`: the repository's tags with what each changed, or one symbol's releases.
pub fn releases(g: &Graph, h: &History, args: &ReleasesArgs) -> Result<ReleasesResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let mined = &h.mined;
    // Mainline tags in commit order; a commit with several tags is released by the first name.
    let mut mainline: Vec<(u32, &str)> = mined
        .tags
        .iter()
        .filter_map(|t| t.commit.map(|c| (c, t.name.as_str())))
        .collect();
    mainline.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)));
    mainline.dedup_by_key(|t| t.0);
    // Bucket of commit c: the first mainline tag at or after it; `mainline.len()` = unreleased.
    let bucket = |c: u32| mainline.partition_point(|&(t, _)| t < c);
    let buckets = mainline.len() + 1;
    let mut commits = vec![0usize; buckets];
    let mut files: Vec<FxHashSet<u32>> = vec![FxHashSet::default(); buckets];
    for (c, commit) in mined.commits.iter().enumerate() {
        let b = bucket(c as u32);
        commits[b] += 1;
        files[b].extend(commit.paths.iter().copied());
    }
    let mut symbols = vec![0usize; buckets];
    for subject in h.subjects.values() {
        let mut seen: Vec<usize> = subject.span.iter().map(|&c| bucket(c)).collect();
        seen.dedup();
        for b in seen {
            symbols[b] += 1;
        }
    }
    let mut rows: Vec<ReleaseRow> = mined
        .tags
        .iter()
        .map(|t| {
            let b = t
                .commit
                .filter(|&c| mainline.iter().any(|&(m, n)| m == c && n == t.name))
                .map(bucket);
            ReleaseRow {
                tag: t.name.clone(),
                sha: t.sha.chars().take(12).collect(),
                date: iso_date(t.time),
                on_mainline: t.commit.is_some(),
                commits: b.map_or(0, |b| commits[b]),
                files_changed: b.map_or(0, |b| files[b].len()),
                symbols_changed: b.map_or(0, |b| symbols[b]),
            }
        })
        .collect();
    rows.reverse();
    let symbol = match &args.symbol {
        Some(s) => {
            let i = resolve_one(g, s)?;
            let Some(subject) = h.subjects.get(&i) else {
                return Err(QueryError::invalid(format!(
                    "`{s}` is a {} — releases takes a function, method, type, interface, constant or variable",
                    g.node_at(i).kind
                )));
            };
            let mut changed: Vec<usize> = subject.span.iter().map(|&c| bucket(c)).collect();
            changed.dedup();
            let tag = |b: usize| mainline.get(b).map(|&(_, n)| n.to_string());
            Some(SymbolReleases {
                node: NodeSummary::of(g.node_at(i)),
                introduced_in: changed.first().and_then(|&b| tag(b)),
                last_changed_in: changed.iter().rev().find_map(|&b| tag(b)),
                changed_in: changed.iter().rev().filter_map(|&b| tag(b)).collect(),
                unreleased_commits: subject.span.iter().filter(|&&c| bucket(c) == mainline.len()).count(),
            })
        }
        None => None,
    };
    let total = rows.len();
    rows.truncate(limit);
    Ok(ReleasesResult {
        releases: rows,
        total,
        unreleased_commits: commits[mainline.len()],
        unreleased_symbols: symbols[mainline.len()],
        symbol,
        truncated: total > limit,
        history: HistoryMeta::of(h, &h.update),
        evidence: "git",
    })
}
