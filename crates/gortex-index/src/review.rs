//! The review gate's rulepack run over a repository or a changeset (`analyze kind=review`, and
//! the `review` tool on top): `gortex_lang::review` finds what the syntax supports, then a
//! grounding pass over the graph drops what the graph shows cannot happen — test code for rules
//! that do not apply there, a loop call whose callee resolves to repository code that reaches no
//! query or request, values spliced into SQL or a shell command that are all constants or
//! sanitised, a check-then-act whose function or every caller holds a lock. Each finding keeps a
//! fingerprint over rule, file, enclosing symbol and the anchor line's text, so a suppression
//! survives the code moving.

use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, NodeKind, QueryError};
use gortex_graph::{Graph, NodeIndex};
use gortex_lang::review::{self as rules, words, Finding, Grounding, Severity};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// Most findings returned unless `limit` says otherwise.
const DEFAULT_LIMIT: usize = 200;
/// Call hops the loop-query grounding follows from a resolved callee looking for I/O.
const IO_HOPS: usize = 4;

/// Changed lines of one file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewFile {
    /// Repository-relative path.
    pub path: String,
    /// Inclusive 1-based line ranges `[start, end]` that changed; absent or empty means the whole file.
    #[serde(default)]
    pub lines: Vec<[u32; 2]>,
    /// The file's path at `base` when it was renamed.
    pub old_path: Option<String>,
}

/// Arguments of `analyze kind=review`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewArgs {
    /// The files (and changed lines) to review; absent reviews every supported file under `path_prefix`.
    pub files: Option<Vec<ReviewFile>>,
    /// Path prefix to review when `files` is absent (default: the whole repository).
    pub path_prefix: Option<String>,
    /// Rule ids or categories to run, or `all` (default: every rule on by default; `rules` in the answer lists what ran).
    pub rules: Option<Vec<String>>,
    /// Lowest severity reported: info, warning, error, critical (default info).
    pub min_severity: Option<String>,
    /// Finding fingerprints to leave out (the durable suppressions of `suppress_finding`).
    #[serde(default)]
    pub suppressed: Vec<String>,
    /// List the findings the grounding pass dropped, each with its reason (default false).
    #[serde(default)]
    pub include_dropped: bool,
    /// A git revision the change is measured against: findings whose rule and line text the file
    /// already had there are pre-existing — listed apart, left out of the verdict.
    pub base: Option<String>,
    /// Most findings returned (1..=5000, default 200), most severe first.
    pub limit: Option<usize>,
}

/// One line-anchored finding.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReviewFinding {
    pub rule: &'static str,
    pub category: &'static str,
    pub severity: &'static str,
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub message: String,
    /// How to fix it.
    pub fix: &'static str,
    /// The innermost symbol around the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// What the graph pass checked and why the finding stands, when it checked something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grounding: Option<String>,
    /// Stable over line shifts: rule, file, enclosing symbol and the anchor line's text.
    pub fingerprint: String,
    /// The anchor line as written (trimmed).
    pub source: String,
}

/// A syntax finding the graph pass dropped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DroppedFinding {
    pub rule: &'static str,
    pub path: String,
    pub line: u32,
    pub reason: String,
}

/// A rule of the pack as listed in an answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleRow {
    pub id: &'static str,
    pub category: &'static str,
    pub severity: &'static str,
    pub title: &'static str,
    pub languages: &'static [&'static str],
}

/// What `analyze kind=review` answers.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewResult {
    /// BLOCK (an error or critical finding), REVIEW (warnings), APPROVE (nothing above info).
    pub verdict: &'static str,
    pub findings: Vec<ReviewFinding>,
    /// Findings per severity, before `limit`.
    pub counts: BTreeMap<&'static str, usize>,
    /// Findings the grounding pass dropped (listed with `include_dropped`).
    pub dropped_count: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<DroppedFinding>,
    /// Findings left out by a suppression.
    pub suppressed_count: usize,
    /// With `base`: findings the files already had there (same rule, same line text).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pre_existing: Vec<ReviewFinding>,
    pub pre_existing_count: usize,
    pub files_scanned: usize,
    /// Files that could not be read or parsed, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files_skipped: Vec<String>,
    pub rules: Vec<RuleRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

impl RepoIndex {
    /// Runs the rulepack over the named files (or the repository) and grounds every finding.
    pub fn review(&self, g: &Graph, args: &ReviewArgs) -> Result<ReviewResult, QueryError> {
        let min = match args.min_severity.as_deref() {
            None => Severity::Info,
            Some(s) => Severity::parse(s).ok_or_else(|| {
                QueryError::invalid(format!(
                    "min_severity `{s}` is not one of info, warning, error, critical"
                ))
            })?,
        };
        let selected = select_rules(args.rules.as_deref())?;
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=5000).contains(&limit) {
            return Err(QueryError::invalid(format!("limit {limit} is out of range 1..=5000")));
        }
        let targets = self.review_targets(g, args)?;
        let baseline = match &args.base {
            Some(rev) => Some(self.baseline(rev, &targets)?),
            None => None,
        };
        let sources = self.sources();
        let scanned: Vec<Scanned> = targets
            .into_par_iter()
            .map(|(path, lines, _)| {
                let outcome = sources
                    .read(&path)
                    .map_err(|e| format!("{path}: {e}"))
                    .and_then(|bytes| {
                        rules::scan(&path, &bytes)
                            .map(|f| (bytes, f))
                            .map_err(|e| format!("{path}: {e}"))
                    });
                (path, lines, outcome)
            })
            .collect();
        let suppressed: HashSet<&str> = args.suppressed.iter().map(String::as_str).collect();
        let mut findings = Vec::new();
        let mut dropped = Vec::new();
        let mut skipped = Vec::new();
        let mut suppressed_count = 0;
        let mut pre_existing = Vec::new();
        let files_scanned = scanned.len();
        for (path, lines, outcome) in scanned {
            let (bytes, raw) = match outcome {
                Ok(v) => v,
                Err(e) => {
                    skipped.push(e);
                    continue;
                }
            };
            let text = String::from_utf8_lossy(&bytes);
            let file_lines: Vec<&str> = text.lines().collect();
            for f in raw {
                let Some(rule) = rules::rule(f.rule) else { continue };
                if !selected.contains(rule.id) || rule.severity < min {
                    continue;
                }
                if !lines.is_empty() && !lines.iter().any(|[s, e]| f.line <= *e && f.end_line >= *s) {
                    continue;
                }
                let symbol = enclosing_symbol(g, &path, f.line);
                let verdict = ground(g, &sources, &path, symbol, &f, rule);
                let source = file_lines
                    .get(f.line as usize - 1)
                    .map(|l| l.trim())
                    .unwrap_or("")
                    .to_string();
                match verdict {
                    Err(reason) => dropped.push(DroppedFinding {
                        rule: rule.id,
                        path: path.clone(),
                        line: f.line,
                        reason,
                    }),
                    Ok(grounding) => {
                        let qualified = symbol.map(|i| g.node_at(i).qualified.clone());
                        let fingerprint = fingerprint(rule.id, &path, qualified.as_deref(), &source);
                        if suppressed.contains(fingerprint.as_str()) {
                            suppressed_count += 1;
                            continue;
                        }
                        let old = baseline.as_ref().is_some_and(|b| {
                            b.contains(&(path.clone(), rule.id, gortex_lang::util::collapse_whitespace(&source)))
                        });
                        let list = if old { &mut pre_existing } else { &mut findings };
                        list.push(ReviewFinding {
                            rule: rule.id,
                            category: rule.category,
                            severity: rule.severity.as_str(),
                            path: path.clone(),
                            line: f.line,
                            column: f.column,
                            end_line: f.end_line,
                            message: f.message,
                            fix: rule.fix,
                            symbol: symbol.map(|i| g.node_at(i).id.to_string()),
                            grounding,
                            fingerprint,
                            source,
                        });
                    }
                }
            }
        }
        findings.sort_by(|a, b| {
            let sev = |f: &ReviewFinding| Severity::parse(f.severity).unwrap_or(Severity::Info);
            sev(b)
                .cmp(&sev(a))
                .then_with(|| (&a.path, a.line, a.rule).cmp(&(&b.path, b.line, b.rule)))
        });
        let mut counts = BTreeMap::new();
        for f in &findings {
            *counts.entry(f.severity).or_insert(0) += 1;
        }
        let worst = findings.iter().filter_map(|f| Severity::parse(f.severity)).max();
        let verdict = match worst {
            Some(Severity::Critical | Severity::Error) => "BLOCK",
            Some(Severity::Warning) => "REVIEW",
            _ => "APPROVE",
        };
        let truncated = findings.len() > limit;
        findings.truncate(limit);
        let pre_existing_count = pre_existing.len();
        pre_existing.truncate(limit);
        let dropped_count = dropped.len();
        Ok(ReviewResult {
            verdict,
            findings,
            counts,
            dropped_count,
            dropped: if args.include_dropped { dropped } else { Vec::new() },
            suppressed_count,
            pre_existing,
            pre_existing_count,
            files_scanned,
            files_skipped: skipped,
            rules: rules::RULES
                .iter()
                .filter(|r| selected.contains(r.id))
                .map(|r| RuleRow {
                    id: r.id,
                    category: r.category,
                    severity: r.severity.as_str(),
                    title: r.title,
                    languages: r.languages,
                })
                .collect(),
            truncated,
            evidence: "ast+graph",
        })
    }

    /// `(path, rule, line text)` of every raw finding the targets had at revision `rev`.
    fn baseline(&self, rev: &str, targets: &[Target]) -> Result<HashSet<(String, &'static str, String)>, QueryError> {
        let repo = gortex_git::GitRepo::discover(&self.root)
            .map_err(|e| QueryError::unavailable(format!("reading git: {e}")))?
            .ok_or_else(|| {
                QueryError::unavailable(format!(
                    "base `{rev}` needs git, and {} is not inside a git worktree",
                    self.root.display()
                ))
            })?;
        let mut old = Vec::new();
        for (path, _, old_path) in targets {
            let at = old_path.as_deref().unwrap_or(path);
            match repo.file_at(rev, at) {
                Ok(Some(bytes)) => old.push((path.clone(), at.to_string(), bytes)),
                Ok(None) => {}
                Err(e) => return Err(QueryError::invalid(format!("base: {e}"))),
            }
        }
        Ok(old
            .into_par_iter()
            .flat_map_iter(|(path, at, bytes)| {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let lines: Vec<String> = text.lines().map(gortex_lang::util::collapse_whitespace).collect();
                rules::scan(&at, &bytes)
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |f| {
                        (
                            path.clone(),
                            f.rule,
                            lines.get(f.line as usize - 1).cloned().unwrap_or_default(),
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect())
    }

    /// The files to scan with their changed lines and their path at the base.
    fn review_targets(&self, g: &Graph, args: &ReviewArgs) -> Result<Vec<Target>, QueryError> {
        if let Some(files) = &args.files {
            let mut out = Vec::new();
            for f in files {
                if f.path.starts_with('/') || f.path.split('/').any(|s| s == "..") {
                    return Err(QueryError::invalid(format!(
                        "files[].path `{}` must be relative to the repository root, without `..`",
                        f.path
                    )));
                }
                if let Some([s, e]) = f.lines.iter().find(|[s, e]| *s == 0 || s > e) {
                    return Err(QueryError::invalid(format!(
                        "files[].lines [{s}, {e}] of `{}` is not a 1-based inclusive range",
                        f.path
                    )));
                }
                if supported(&f.path) {
                    out.push((f.path.clone(), f.lines.clone(), f.old_path.clone()));
                }
            }
            return Ok(out);
        }
        let prefix = args.path_prefix.as_deref().unwrap_or("").trim_start_matches("./");
        Ok(g.files()
            .iter()
            .map(|&i| g.node_at(i).path.to_string())
            .filter(|p| p.starts_with(prefix) && supported(p))
            .map(|p| (p, Vec::new(), None))
            .collect())
    }
}

/// A scanned file: its path, its changed lines, and its bytes with the syntax findings (or why not).
type Scanned = (String, Vec<[u32; 2]>, Result<(Vec<u8>, Vec<Finding>), String>);

/// A file to review: its path, its changed lines (empty: all) and its path at the base.
type Target = (String, Vec<[u32; 2]>, Option<String>);

/// Whether the rulepack has detectors for the file's language.
fn supported(path: &str) -> bool {
    Language::from_path(path).and_then(rules::Family::of).is_some()
}

/// The rule ids `names` select (ids or categories); every rule when absent.
fn select_rules(names: Option<&[String]>) -> Result<HashSet<&'static str>, QueryError> {
    let Some(names) = names else {
        return Ok(rules::RULES.iter().filter(|r| r.default_on).map(|r| r.id).collect());
    };
    let mut out = HashSet::new();
    for name in names {
        if name == "all" {
            out.extend(rules::RULES.iter().map(|r| r.id));
            continue;
        }
        let hits: Vec<&'static str> = rules::RULES
            .iter()
            .filter(|r| r.id == name || r.category == name)
            .map(|r| r.id)
            .collect();
        if hits.is_empty() {
            let known: Vec<&str> = rules::RULES.iter().map(|r| r.id).collect();
            return Err(QueryError::invalid(format!(
                "rules: `{name}` is neither a rule id, a category nor `all`; rules are {}",
                known.join(", ")
            )));
        }
        out.extend(hits);
    }
    Ok(out)
}

/// The innermost symbol of `path` whose span holds `line`.
pub(crate) fn enclosing_symbol(g: &Graph, path: &str, line: u32) -> Option<NodeIndex> {
    g.file_nodes(path)
        .iter()
        .copied()
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind != NodeKind::File && n.span.start_line <= line && line <= n.span.end_line
        })
        .min_by_key(|&i| {
            let s = &g.node_at(i).span;
            s.end_line - s.start_line
        })
}

/// The graph's word on a finding: `Ok(what it checked)` keeps it, `Err(reason)` drops it.
fn ground(
    g: &Graph,
    sources: &gortex_core::Sources,
    path: &str,
    symbol: Option<NodeIndex>,
    f: &Finding,
    rule: &rules::Rule,
) -> Result<Option<String>, String> {
    let test_file = gortex_graph::query::common::file_node(g, path).is_some_and(|i| g.node_at(i).is_test)
        || gortex_core::is_test_path(path, Language::from_path(path));
    // Go's `testdata/` (and the convention elsewhere): inputs of tests, often wrong on purpose.
    if path.split('/').any(|s| s == "testdata") {
        return Err("test input (testdata/): never built or run as code".into());
    }
    let test_symbol = symbol.is_some_and(|i| gortex_analysis::coverage::is_test_code(g, i));
    if !rule.keep_in_tests && (test_file || test_symbol) {
        return Err("test code: the rule does not apply to code that does not ship".into());
    }
    match rule.grounding {
        Grounding::None => Ok(None),
        Grounding::Sanitised => {
            if f.values.is_empty() {
                return Ok(None);
            }
            let unsafe_values: Vec<&String> = f.values.iter().filter(|v| !safe_value(g, path, v)).collect();
            match unsafe_values.first() {
                None => Err(format!(
                    "every spliced value is a constant or sanitised ({})",
                    f.values.join(", ")
                )),
                Some(v) => Ok(Some(format!("`{v}` is neither a constant nor sanitised"))),
            }
        }
        Grounding::CalleeReachesIo => callee_reaches_io(g, symbol, f),
        Grounding::Guarded => guarded(g, sources, symbol),
    }
}

/// A value safe to splice: a literal-like expression, a sanitiser call, or a name the graph
/// knows as a constant.
fn safe_value(g: &Graph, path: &str, value: &str) -> bool {
    if words::is_safe_value(value) {
        return true;
    }
    let name = value.trim();
    if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return g.named(name).iter().any(|&i| {
            let n = g.node_at(i);
            n.kind == NodeKind::Constant && (&*n.path == path || n.exported)
        });
    }
    // A call of a repository function named as a sanitiser (`escapeLike(x)`, `quote_ident(x)`).
    let callee = name
        .split('(')
        .next()
        .unwrap_or("")
        .rsplit(['.', ':'])
        .next()
        .unwrap_or("");
    !callee.is_empty()
        && name.contains('(')
        && g.named(callee).iter().any(|&i| {
            let lower = g.node_at(i).name.to_ascii_lowercase();
            ["sanitiz", "sanitis", "escape", "quote", "validate"]
                .iter()
                .any(|w| lower.contains(w))
        })
}

/// Loop queries: a callee resolved to repository code must reach something query-like.
fn callee_reaches_io(g: &Graph, symbol: Option<NodeIndex>, f: &Finding) -> Result<Option<String>, String> {
    let Some(from) = symbol else { return Ok(None) };
    let targets: Vec<NodeIndex> = g
        .out_edges(from)
        .filter(|e| e.kind == EdgeKind::Calls && e.line == f.line)
        .map(|e| e.to)
        .filter(|&t| {
            let name = &g.node_at(t).name;
            f.callee
                .as_deref()
                .is_some_and(|c| c.rsplit(['.', ':']).next() == Some(name.as_str()))
        })
        .collect();
    if targets.is_empty() {
        return Ok(Some(
            "the callee is not resolved to repository code: kept on the syntax's word".into(),
        ));
    }
    if let Some(&ext) = targets.iter().find(|&&t| g.node_at(t).external) {
        return Ok(Some(format!(
            "calls `{}` outside the repository",
            g.node_at(ext).qualified
        )));
    }
    if let Some(&abs) = targets.iter().find(|&&t| is_abstract(g, t)) {
        return Ok(Some(format!(
            "calls `{}`, declared without a body (an interface or abstract method): the implementation that runs is not known here",
            g.node_at(abs).qualified
        )));
    }
    let mut seen: HashSet<NodeIndex> = targets.iter().copied().collect();
    let mut frontier = targets.clone();
    for _ in 0..IO_HOPS {
        let mut next = Vec::new();
        for &n in &frontier {
            for u in g.unresolved_from(n) {
                let name = u.target.rsplit(['.', ':']).next().unwrap_or(&u.target);
                if u.kind == EdgeKind::Calls && words::is_query_call(name, Some("db")) {
                    return Ok(Some(format!(
                        "reaches `{name}` (unresolved) from `{}`",
                        g.node_at(n).qualified
                    )));
                }
            }
            for e in g.out_edges(n).filter(|e| e.kind == EdgeKind::Calls) {
                let t = g.node_at(e.to);
                if t.external && words::is_query_call(&t.name, Some("db")) {
                    return Ok(Some(format!(
                        "reaches `{}` via `{}`",
                        t.qualified,
                        g.node_at(n).qualified
                    )));
                }
                if seen.insert(e.to) {
                    next.push(e.to);
                }
            }
        }
        frontier = next;
    }
    let names: Vec<String> = targets.iter().map(|&t| g.node_at(t).id.to_string()).collect();
    Err(format!(
        "the call resolves to {} in the repository, which reaches no query or request within {IO_HOPS} calls",
        names.join(", ")
    ))
}

/// A method with no body here: abstract, or a member of an interface.
fn is_abstract(g: &Graph, i: NodeIndex) -> bool {
    g.node_at(i).is_abstract
        || g.out_edges(i)
            .any(|e| e.kind == EdgeKind::MemberOf && g.node_at(e.to).kind == NodeKind::Interface)
}

/// Whether a symbol's source takes a lock.
fn takes_lock(g: &Graph, sources: &gortex_core::Sources, i: NodeIndex) -> bool {
    let n = g.node_at(i);
    if n.signature.as_deref().is_some_and(|s| s.contains("synchronized")) {
        return true;
    }
    let Ok(bytes) = sources.read(&n.path) else { return false };
    let text = String::from_utf8_lossy(&bytes);
    let body: String = text
        .lines()
        .skip(n.span.start_line.saturating_sub(1) as usize)
        .take((n.span.end_line + 1).saturating_sub(n.span.start_line) as usize)
        .collect::<Vec<_>>()
        .join("\n");
    [
        ".Lock()",
        ".RLock()",
        ".lock()",
        "synchronized",
        "acquire(",
        "runExclusive",
        "with self._lock",
        "with self.lock",
        "with lock",
        "_lock:",
        "Lock():",
    ]
    .iter()
    .any(|p| body.contains(p))
}

/// Check-then-act: dropped when the function, or every caller of it, holds a lock.
fn guarded(g: &Graph, sources: &gortex_core::Sources, symbol: Option<NodeIndex>) -> Result<Option<String>, String> {
    let Some(i) = symbol else { return Ok(None) };
    if takes_lock(g, sources, i) {
        return Err(format!(
            "`{}` holds a lock around the check and the act",
            g.node_at(i).qualified
        ));
    }
    // A recursive call comes from inside the function itself: it is the outer callers that count.
    let callers: Vec<NodeIndex> = g
        .in_edges(i)
        .filter(|e| e.kind == EdgeKind::Calls && e.from != i)
        .map(|e| e.from)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if callers.is_empty() {
        return Ok(Some("no caller in the graph holds a lock".into()));
    }
    let unlocked: Vec<&str> = callers
        .iter()
        .filter(|&&c| !takes_lock(g, sources, c))
        .map(|&c| g.node_at(c).qualified.as_str())
        .collect();
    match unlocked.first() {
        None => Err(format!(
            "every caller ({}) holds a lock before calling it",
            callers.len()
        )),
        Some(c) => Ok(Some(format!("caller `{c}` calls it without a lock"))),
    }
}

/// FNV-1a over the finding's identity, in hex: stable across processes and versions.
fn fingerprint(rule: &str, path: &str, symbol: Option<&str>, source: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let normalised = gortex_lang::util::collapse_whitespace(source);
    for part in [rule, path, symbol.unwrap_or(""), normalised.as_str()] {
        for b in part.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}
