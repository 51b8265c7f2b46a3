//! Measured coverage: the line-coverage reports users' test runs already write — LCOV
//! (`lcov.info`: Jest/Istanbul, c8, pytest-cov, gcov, cargo-llvm-cov), Cobertura XML
//! (coverage.py, Istanbul, gcovr, .NET), JaCoCo XML (Maven/Gradle), Go cover profiles
//! (`go test -coverprofile`) and coverage.py JSON (`coverage json`) — parsed into per-file line
//! hits and joined to the graph's declarations: `analyze kind=coverage` ranks functions and
//! methods by the share of their instrumented lines a test executed, `kind=coverage_summary`
//! totals it per file or directory. Report paths are matched to indexed files exactly, then by the
//! longest unique path suffix (Go import paths, JaCoCo package paths, Cobertura sources).
//! Unlike `coverage_gaps` (graph evidence of a test reaching a symbol), this is runtime evidence,
//! as fresh as the report: rows whose file changed after the report was written say `stale`.
//! Test code is measured by running, not reported: its functions and files are left out.

use crate::coverage::is_test_code;
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::common::{check_limit, file_node};
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The report formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportFormat {
    Lcov,
    Cobertura,
    Jacoco,
    GoCoverProfile,
    CoveragePyJson,
}

/// One source file of a report: line → hits, as the report names the file.
#[derive(Debug, Clone, Default)]
pub struct ReportFile {
    pub path: String,
    pub hits: BTreeMap<u32, u64>,
}

/// A parsed report.
#[derive(Debug, Clone)]
pub struct Report {
    pub format: ReportFormat,
    pub files: Vec<ReportFile>,
    /// Base directories the report's paths are relative to (Cobertura `<source>`), as written.
    pub sources: Vec<String>,
}

/// Parses a coverage report, recognising its format by its content.
pub fn parse_report(text: &str) -> Result<Report, String> {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with("mode:") {
        return Ok(go_profile(head));
    }
    if head.starts_with('{') {
        return coverage_py(head);
    }
    if head.starts_with('<') {
        if head.contains("<coverage") && (head.contains("<class ") || head.contains("<packages")) {
            return Ok(cobertura(head));
        }
        if head.contains("<report") && head.contains("<sourcefile") {
            return Ok(jacoco(head));
        }
        if head.contains("<coverage") {
            return Ok(cobertura(head));
        }
        return Err("an XML file that is neither Cobertura (<coverage>) nor JaCoCo (<report>)".into());
    }
    if text.lines().any(|l| l.starts_with("SF:")) {
        return Ok(lcov(text));
    }
    Err("not a coverage report this reads (LCOV, Cobertura or JaCoCo XML, a Go cover profile, coverage.py JSON)".into())
}

fn lcov(text: &str) -> Report {
    let mut files = Vec::new();
    let mut cur: Option<ReportFile> = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(p) = line.strip_prefix("SF:") {
            cur = Some(ReportFile {
                path: p.to_string(),
                ..Default::default()
            });
        } else if let Some(rest) = line.strip_prefix("DA:") {
            let mut parts = rest.split(',');
            if let (Some(f), Some(c), Some(n)) = (cur.as_mut(), parts.next(), parts.next()) {
                if let (Ok(n_line), Ok(hits)) = (c.trim().parse::<u32>(), n.trim().parse::<f64>()) {
                    let e = f.hits.entry(n_line).or_insert(0);
                    *e = (*e).max(hits.max(0.0) as u64);
                }
            }
        } else if line == "end_of_record" {
            files.extend(cur.take());
        }
    }
    files.extend(cur);
    Report {
        format: ReportFormat::Lcov,
        files,
        sources: Vec::new(),
    }
}

fn go_profile(text: &str) -> Report {
    let mut by_file: BTreeMap<String, ReportFile> = BTreeMap::new();
    for line in text.lines().skip(1) {
        // `path/to/file.go:12.34,15.2 3 1`
        let Some((loc, rest)) = line
            .trim()
            .rsplit_once(':')
            .and_then(|(p, r)| Some((p, r.split_once(',')?)))
        else {
            continue;
        };
        let (start, tail) = rest;
        let mut fields = tail.split_whitespace();
        let (Some(end), Some(_stmts), Some(count)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        let line_of = |pos: &str| pos.split('.').next().and_then(|l| l.parse::<u32>().ok());
        let (Some(a), Some(b), Ok(count)) = (line_of(start), line_of(end), count.parse::<u64>()) else {
            continue;
        };
        let f = by_file.entry(loc.to_string()).or_insert_with(|| ReportFile {
            path: loc.to_string(),
            ..Default::default()
        });
        for l in a..=b.max(a) {
            let e = f.hits.entry(l).or_insert(0);
            *e = (*e).max(count);
        }
    }
    Report {
        format: ReportFormat::GoCoverProfile,
        files: by_file.into_values().collect(),
        sources: Vec::new(),
    }
}

fn coverage_py(text: &str) -> Result<Report, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("JSON that does not parse: {e}"))?;
    let files = value
        .get("files")
        .and_then(|f| f.as_object())
        .ok_or("JSON without a `files` object: not coverage.py's `coverage json` output (Istanbul's coverage-final.json is not read; use its lcov reporter)")?;
    let mut out = Vec::new();
    for (path, entry) in files {
        let mut hits = BTreeMap::new();
        let lines = |key: &str| entry.get(key).and_then(|v| v.as_array()).cloned().unwrap_or_default();
        for l in lines("missing_lines") {
            if let Some(n) = l.as_u64() {
                hits.insert(n as u32, 0);
            }
        }
        for l in lines("executed_lines") {
            if let Some(n) = l.as_u64() {
                hits.insert(n as u32, 1);
            }
        }
        out.push(ReportFile {
            path: path.clone(),
            hits,
        });
    }
    Ok(Report {
        format: ReportFormat::CoveragePyJson,
        files: out,
        sources: Vec::new(),
    })
}

/// One XML tag: its name, attributes, and whether it closes (`</x>`) or is empty (`<x/>`).
struct Tag<'t> {
    name: &'t str,
    attrs: Vec<(&'t str, String)>,
    closing: bool,
    empty: bool,
}

/// The XML tags of `text` in order; comments, declarations and processing instructions
/// skipped. Enough for machine-written reports.
fn xml_tags(text: &str) -> impl Iterator<Item = Tag<'_>> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        let at = rest.find('<')?;
        rest = &rest[at + 1..];
        if rest.starts_with("!--") {
            rest = &rest[rest.find("-->").map_or(rest.len(), |e| e + 3)..];
            continue;
        }
        let end = rest.find('>')?;
        let raw = &rest[..end];
        rest = &rest[end + 1..];
        if raw.starts_with(['?', '!']) {
            continue;
        }
        let closing = raw.starts_with('/');
        let empty = raw.ends_with('/');
        let tag = raw.trim_start_matches('/').trim_end_matches('/');
        let name_end = tag.find(|c: char| c.is_whitespace()).unwrap_or(tag.len());
        let mut attrs = Vec::new();
        let mut a = &tag[name_end..];
        while let Some(eq) = a.find('=') {
            let key = a[..eq].trim();
            let after = a[eq + 1..].trim_start();
            let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                break;
            };
            let Some(close) = after[1..].find(quote) else {
                break;
            };
            attrs.push((key, unescape(&after[1..1 + close])));
            a = &after[close + 2..];
        }
        return Some(Tag {
            name: &tag[..name_end],
            attrs,
            closing,
            empty,
        });
    })
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn attr<'a>(attrs: &'a [(&str, String)], key: &str) -> Option<&'a str> {
    attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
}

fn cobertura(text: &str) -> Report {
    let mut files: Vec<ReportFile> = Vec::new();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut sources = Vec::new();
    let mut cur: Option<usize> = None;
    // Lines under <methods> repeat (coverage.py) or add declaration lines to (Istanbul) the
    // class's own <lines>, which are the statements: only those are read.
    let mut in_methods = false;
    let mut rest = text;
    // <source> holds text, not attributes: read it between the tags.
    while let Some(at) = rest.find("<source>") {
        rest = &rest[at + 8..];
        if let Some(end) = rest.find("</source>") {
            sources.push(unescape(rest[..end].trim()));
        }
    }
    for tag in xml_tags(text) {
        match (tag.name, tag.closing) {
            ("class", false) => {
                if let Some(f) = attr(&tag.attrs, "filename") {
                    let i = *index.entry(f.to_string()).or_insert_with(|| {
                        files.push(ReportFile {
                            path: f.to_string(),
                            ..Default::default()
                        });
                        files.len() - 1
                    });
                    cur = Some(i);
                }
            }
            ("methods", closing) => in_methods = !closing && !tag.empty,
            ("line", false) if !in_methods => {
                let (Some(i), Some(n), Some(h)) = (cur, attr(&tag.attrs, "number"), attr(&tag.attrs, "hits")) else {
                    continue;
                };
                if let (Ok(n), Ok(h)) = (n.parse::<u32>(), h.parse::<f64>()) {
                    let e = files[i].hits.entry(n).or_insert(0);
                    *e = (*e).max(h.max(0.0) as u64);
                }
            }
            _ => {}
        }
    }
    Report {
        format: ReportFormat::Cobertura,
        files,
        sources,
    }
}

fn jacoco(text: &str) -> Report {
    let mut files = Vec::new();
    let mut package = String::new();
    for tag in xml_tags(text).filter(|t| !t.closing) {
        match tag.name {
            "package" => package = attr(&tag.attrs, "name").unwrap_or_default().to_string(),
            "sourcefile" => {
                let file = attr(&tag.attrs, "name").unwrap_or_default();
                let path = if package.is_empty() {
                    file.to_string()
                } else {
                    format!("{package}/{file}")
                };
                files.push(ReportFile {
                    path,
                    ..Default::default()
                });
            }
            "line" => {
                let (Some(f), Some(n), Some(ci)) = (files.last_mut(), attr(&tag.attrs, "nr"), attr(&tag.attrs, "ci"))
                else {
                    continue;
                };
                if let (Ok(n), Ok(ci)) = (n.parse::<u32>(), ci.parse::<u64>()) {
                    f.hits.insert(n, ci);
                }
            }
            _ => {}
        }
    }
    Report {
        format: ReportFormat::Jacoco,
        files,
        sources: Vec::new(),
    }
}

/// A report read from the repository, with what the index knows about it.
#[derive(Debug, Clone)]
pub struct LoadedReport {
    /// Where it is, repository-relative (or as given).
    pub path: String,
    pub report: std::sync::Arc<Report>,
    /// The repository's absolute root as the report may spell it (absolute paths are made relative to it).
    pub root: String,
    /// When the report was written (ns since the epoch): a matched file indexed with a later
    /// modification time is `stale`.
    pub written_ns: Option<u64>,
}

/// The modification time (ns since the epoch) each indexed file had when it was indexed.
pub type IndexedMtime<'a> = &'a dyn Fn(&str) -> Option<u64>;

/// Line hits per indexed file, merged over every report (a line counts as covered when any report covered it).
struct Joined {
    files: BTreeMap<String, BTreeMap<u32, u64>>,
    reports: Vec<ReportRow>,
    stale: FxHashSet<String>,
}

/// One report as the answer lists it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReportRow {
    pub path: String,
    pub format: ReportFormat,
    /// Source files the report lists.
    pub files: usize,
    /// Of those, files matched to an indexed file.
    pub matched: usize,
    /// A few of the report's paths that match no indexed file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmatched_sample: Vec<String>,
    /// Matched files changed on disk after the report was written: their rows may be off.
    pub stale_files: usize,
}

/// Maps report paths onto indexed file paths: exact, root-relative, then the longest unique suffix.
struct PathMatcher<'g> {
    known: FxHashSet<&'g str>,
    by_name: FxHashMap<&'g str, Vec<&'g str>>,
}

impl<'g> PathMatcher<'g> {
    fn new(g: &'g Graph) -> Self {
        let mut known = FxHashSet::default();
        let mut by_name: FxHashMap<&str, Vec<&str>> = FxHashMap::default();
        for &f in g.files() {
            let p: &str = &g.node_at(f).path;
            known.insert(p);
            by_name.entry(p.rsplit('/').next().unwrap_or(p)).or_default().push(p);
        }
        PathMatcher { known, by_name }
    }

    fn resolve(&self, raw: &str, root: &str, sources: &[String]) -> Option<&'g str> {
        let norm = raw.replace('\\', "/");
        let mut candidates = vec![norm.trim_start_matches("./").to_string()];
        let root = root.trim_end_matches('/');
        if let Some(rel) = norm.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
            candidates.insert(0, rel.to_string());
        }
        for s in sources {
            let s = s.replace('\\', "/");
            let joined = format!("{}/{}", s.trim_end_matches('/'), norm.trim_start_matches("./"));
            match joined.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
                Some(rel) => candidates.insert(0, rel.to_string()),
                None => candidates.push(joined.trim_start_matches("./").to_string()),
            }
        }
        for c in &candidates {
            if let Some(&p) = self.known.get(c.as_str()) {
                return Some(p);
            }
        }
        // The longest indexed path that is a suffix of the report's path (or the reverse), if only one is.
        let name = norm.rsplit('/').next().unwrap_or(&norm);
        let options = self.by_name.get(name)?;
        let fits = |p: &str| {
            candidates
                .iter()
                .any(|c| c.ends_with(&format!("/{p}")) || p.ends_with(&format!("/{c}")) || c == p)
        };
        let mut fitting: Vec<&str> = options.iter().copied().filter(|p| fits(p)).collect();
        fitting.sort_by_key(|p| std::cmp::Reverse(p.len()));
        match fitting.as_slice() {
            [only] => Some(only),
            [first, second, ..]
                if first.len() > second.len()
                    && candidates
                        .iter()
                        .any(|c| c.ends_with(&format!("/{first}")) || c == first) =>
            {
                Some(first)
            }
            _ => None,
        }
    }
}

fn join(g: &Graph, reports: &[LoadedReport], mtime: IndexedMtime) -> Joined {
    let matcher = PathMatcher::new(g);
    let mut files: BTreeMap<String, BTreeMap<u32, u64>> = BTreeMap::new();
    let mut rows = Vec::new();
    let mut stale = FxHashSet::default();
    for r in reports {
        let mut matched = 0;
        let mut unmatched = Vec::new();
        let mut stale_files = 0;
        for f in &r.report.files {
            match matcher.resolve(&f.path, &r.root, &r.report.sources) {
                Some(p) => {
                    matched += 1;
                    if r.written_ns
                        .zip(mtime(p))
                        .is_some_and(|(written, modified)| modified > written)
                    {
                        stale_files += 1;
                        stale.insert(p.to_string());
                    }
                    let into = files.entry(p.to_string()).or_default();
                    for (&l, &h) in &f.hits {
                        let e = into.entry(l).or_insert(0);
                        *e = (*e).max(h);
                    }
                }
                None if unmatched.len() < 5 => unmatched.push(f.path.clone()),
                None => {}
            }
        }
        rows.push(ReportRow {
            path: r.path.clone(),
            format: r.report.format,
            files: r.report.files.len(),
            matched,
            unmatched_sample: unmatched,
            stale_files,
        });
    }
    Joined {
        files,
        reports: rows,
        stale,
    }
}

/// Instrumented and covered lines of a declaration spanning `from..=to`: its body, without the
/// header line when it has more than one (Python marks a `def` executed at import, Go a block
/// opens on the `func` line), so a function no test called reads 0%.
fn body_lines(hits: &BTreeMap<u32, u64>, from: u32, to: u32) -> (usize, usize) {
    let body = lines_in(hits, from.saturating_add(1), to);
    if to > from && body.0 > 0 {
        body
    } else {
        lines_in(hits, from, to)
    }
}

/// Instrumented and covered lines of `hits` within `from..=to`.
fn lines_in(hits: &BTreeMap<u32, u64>, from: u32, to: u32) -> (usize, usize) {
    let mut total = 0;
    let mut covered = 0;
    for (_, &h) in hits.range(from..=to) {
        total += 1;
        covered += usize::from(h > 0);
    }
    (total, covered)
}

/// `covered / total` as a percentage with one decimal; 0 when `total` is 0.
pub(crate) fn percent(covered: usize, total: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (covered as f64 * 1000.0 / total as f64).round() / 10.0
}

fn under(path: &str, prefix: Option<&str>) -> bool {
    prefix.is_none_or(|p| {
        let p = p.trim_start_matches("./").trim_end_matches('/');
        p.is_empty() || path == p || path.starts_with(&format!("{p}/"))
    })
}

/// Arguments of `analyze kind=coverage`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoverageArgs {
    /// Report files to read, repository-relative (default: the usual places — coverage/lcov.info,
    /// lcov.info, coverage.xml, cobertura.xml, coverage/cobertura-coverage.xml, coverage.out,
    /// cover.out, coverage.json, target/site/jacoco/jacoco.xml, build/reports/jacoco/test/jacocoTestReport.xml).
    pub reports: Option<Vec<String>>,
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Only functions (`function`) or only methods (`method`); default both.
    #[schemars(extend("enum" = ["function", "method"]))]
    pub symbol_kind: Option<String>,
    /// Only symbols whose covered share is at most this percentage (0–100).
    pub max_percent: Option<f64>,
    /// Skip symbols with fewer instrumented lines than this (default 1).
    pub min_lines: Option<usize>,
    /// Most rows returned (1..=1000, default 50).
    pub limit: Option<usize>,
}

/// One function or method with its measured coverage.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageRow {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Instrumented lines in its span (lines the report lists).
    pub lines: usize,
    pub covered: usize,
    /// covered / lines, in percent (one decimal).
    pub percent: f64,
    /// Its file changed after the report was written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
}

/// Result of `analyze kind=coverage`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageResult {
    /// Least covered first (then most uncovered lines, path, line).
    pub symbols: Vec<CoverageRow>,
    /// Symbols matching the filters (before `limit`).
    pub total: usize,
    /// Functions and methods in reported files with instrumented lines.
    pub measured: usize,
    /// Of those, symbols no test executed a line of.
    pub uncovered: usize,
    pub reports: Vec<ReportRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

/// `analyze kind=coverage`: functions and methods with the share of their lines a test executed.
pub fn coverage(
    g: &Graph,
    reports: &[LoadedReport],
    mtime: IndexedMtime,
    a: &CoverageArgs,
) -> Result<CoverageResult, QueryError> {
    let limit = check_limit(a.limit)?;
    let want = match a.symbol_kind.as_deref() {
        None => None,
        Some("function") => Some(NodeKind::Function),
        Some("method") => Some(NodeKind::Method),
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "symbol_kind must be function or method, got {other:?}"
            )))
        }
    };
    if let Some(p) = a.max_percent.filter(|p| !(0.0..=100.0).contains(p)) {
        return Err(QueryError::invalid(format!(
            "max_percent must be within 0..=100, got {p}"
        )));
    }
    let min_lines = a.min_lines.unwrap_or(1).max(1);
    let joined = join(g, reports, mtime);
    let mut rows = Vec::new();
    let mut measured = 0;
    let mut uncovered = 0;
    for (path, hits) in &joined.files {
        if !under(path, a.path_prefix.as_deref()) {
            continue;
        }
        for &i in g.file_nodes(path) {
            let n = g.node_at(i);
            if !matches!(n.kind, NodeKind::Function | NodeKind::Method)
                || want.is_some_and(|k| k != n.kind)
                || is_test_code(g, i)
            {
                continue;
            }
            let (lines, covered) = body_lines(hits, n.span.start_line, n.span.end_line);
            if lines < min_lines {
                continue;
            }
            measured += 1;
            uncovered += usize::from(covered == 0);
            let pct = percent(covered, lines);
            if a.max_percent.is_some_and(|m| pct > m) {
                continue;
            }
            rows.push(CoverageRow {
                node: NodeSummary::of(n),
                lines,
                covered,
                percent: pct,
                stale: joined.stale.contains(path),
            });
        }
    }
    rows.sort_by(|x, y| {
        x.percent
            .total_cmp(&y.percent)
            .then((y.lines - y.covered).cmp(&(x.lines - x.covered)))
            .then(x.node.path.cmp(&y.node.path))
            .then(x.node.line.cmp(&y.node.line))
    });
    let total = rows.len();
    rows.truncate(limit);
    Ok(CoverageResult {
        truncated: total > rows.len(),
        symbols: rows,
        total,
        measured,
        uncovered,
        reports: joined.reports,
        evidence: "coverage report",
    })
}

/// Arguments of `analyze kind=coverage_summary`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoverageSummaryArgs {
    /// Report files to read (default: the usual places, as `coverage` looks).
    pub reports: Option<Vec<String>>,
    /// Only files under this repository path prefix.
    pub path_prefix: Option<String>,
    /// Group rows by `file` or by `directory` (default).
    #[schemars(extend("enum" = ["file", "directory"]))]
    pub group_by: Option<String>,
    /// Most rows returned (1..=1000, default 50).
    pub limit: Option<usize>,
}

/// One file or directory's totals.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageGroup {
    pub path: String,
    pub lines: usize,
    pub covered: usize,
    pub percent: f64,
    /// Functions and methods with instrumented lines, and those no test executed.
    pub functions: usize,
    pub functions_uncovered: usize,
}

/// Result of `analyze kind=coverage_summary`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageSummaryResult {
    pub lines: usize,
    pub covered: usize,
    pub percent: f64,
    pub functions: usize,
    pub functions_covered: usize,
    pub functions_uncovered: usize,
    /// Files with instrumented lines.
    pub files: usize,
    /// Least covered first.
    pub groups: Vec<CoverageGroup>,
    pub reports: Vec<ReportRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

/// `analyze kind=coverage_summary`: measured line and function coverage in total and per file or directory.
pub fn coverage_summary(
    g: &Graph,
    reports: &[LoadedReport],
    mtime: IndexedMtime,
    a: &CoverageSummaryArgs,
) -> Result<CoverageSummaryResult, QueryError> {
    let limit = check_limit(a.limit)?;
    let by_dir = match a.group_by.as_deref() {
        None | Some("directory") => true,
        Some("file") => false,
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "group_by must be file or directory, got {other:?}"
            )))
        }
    };
    let joined = join(g, reports, mtime);
    let mut groups: BTreeMap<String, CoverageGroup> = BTreeMap::new();
    let (mut files, mut fns, mut fns_covered) = (0, 0, 0);
    for (path, hits) in &joined.files {
        // Test files run; what they measure is the code under test.
        if !under(path, a.path_prefix.as_deref())
            || hits.is_empty()
            || file_node(g, path).is_some_and(|f| g.node_at(f).is_test)
        {
            continue;
        }
        files += 1;
        let key = if by_dir {
            path.rsplit_once('/').map_or(".", |(d, _)| d).to_string()
        } else {
            path.clone()
        };
        let group = groups.entry(key.clone()).or_insert_with(|| CoverageGroup {
            path: key,
            lines: 0,
            covered: 0,
            percent: 0.0,
            functions: 0,
            functions_uncovered: 0,
        });
        let (lines, covered) = lines_in(hits, 0, u32::MAX);
        group.lines += lines;
        group.covered += covered;
        for &i in g.file_nodes(path) {
            let n = g.node_at(i);
            if !matches!(n.kind, NodeKind::Function | NodeKind::Method) {
                continue;
            }
            let (l, c) = body_lines(hits, n.span.start_line, n.span.end_line);
            if l == 0 {
                continue;
            }
            group.functions += 1;
            fns += 1;
            if c == 0 {
                group.functions_uncovered += 1;
            } else {
                fns_covered += 1;
            }
        }
    }
    let (lines, covered) = groups.values().fold((0, 0), |(l, c), g| (l + g.lines, c + g.covered));
    let mut rows: Vec<CoverageGroup> = groups
        .into_values()
        .map(|mut g| {
            g.percent = percent(g.covered, g.lines);
            g
        })
        .collect();
    rows.sort_by(|x, y| {
        x.percent
            .total_cmp(&y.percent)
            .then((y.lines - y.covered).cmp(&(x.lines - x.covered)))
            .then(x.path.cmp(&y.path))
    });
    let truncated = rows.len() > limit;
    rows.truncate(limit);
    Ok(CoverageSummaryResult {
        lines,
        covered,
        percent: percent(covered, lines),
        functions: fns,
        functions_covered: fns_covered,
        functions_uncovered: fns - fns_covered,
        files,
        groups: rows,
        reports: joined.reports,
        truncated,
        evidence: "coverage report",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format() {
        let l = parse_report("TN:\nSF:/r/src/a.ts\nDA:1,2\nDA:2,0\nend_of_record\n").unwrap();
        assert_eq!(l.format, ReportFormat::Lcov);
        assert_eq!(l.files[0].hits, BTreeMap::from([(1, 2), (2, 0)]));
        let go = parse_report("mode: set\nexample.com/m/pkg/a.go:3.10,5.2 2 1\nexample.com/m/pkg/a.go:6.1,6.9 1 0\n")
            .unwrap();
        assert_eq!(go.format, ReportFormat::GoCoverProfile);
        assert_eq!(go.files[0].hits, BTreeMap::from([(3, 1), (4, 1), (5, 1), (6, 0)]));
        let py =
            parse_report(r#"{"meta":{},"files":{"pkg/m.py":{"executed_lines":[1,2],"missing_lines":[4]}}}"#).unwrap();
        assert_eq!(py.files[0].hits, BTreeMap::from([(1, 1), (2, 1), (4, 0)]));
        let cob = parse_report(r#"<?xml version="1.0"?><!-- x --><coverage><sources><source>/r/src</source></sources><packages><package><classes><class name="A" filename="a.py"><methods><method name="f"><lines><line number="2" hits="1"/></lines></method></methods><lines><line number="3" hits="1"/><line number="4" hits="0"/></lines></class></classes></package></packages></coverage>"#).unwrap();
        assert_eq!(cob.format, ReportFormat::Cobertura);
        assert_eq!(cob.sources, vec!["/r/src".to_string()]);
        assert_eq!(cob.files[0].hits, BTreeMap::from([(3, 1), (4, 0)]));
        let jac = parse_report(r#"<?xml version="1.0"?><report name="x"><package name="com/x"><sourcefile name="A.java"><line nr="5" mi="0" ci="3" mb="0" cb="0"/><line nr="6" mi="2" ci="0"/></sourcefile></package></report>"#).unwrap();
        assert_eq!(jac.format, ReportFormat::Jacoco);
        assert_eq!(jac.files[0].path, "com/x/A.java");
        assert_eq!(jac.files[0].hits, BTreeMap::from([(5, 3), (6, 0)]));
        assert!(parse_report("hello").unwrap_err().contains("not a coverage report"));
        assert!(parse_report("{\"total\": 1}").unwrap_err().contains("files"));
    }
}
