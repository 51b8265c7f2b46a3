//! Text-sourced analyses: `todos` (TODO/FIXME/HACK/XXX comments), `env_var_users` (reads of
//! environment variables) and `routes` (HTTP routes of Express, FastAPI, Flask, Gin, net/http and
//! Spring). They are regex scans over the trigram index — one trigram-prefiltered pass over the
//! candidate files each — so every row is text evidence tied to the graph symbol around it, not
//! a parsed fact; results say so (`evidence: "text"`).

use crate::text::{check_limit, enclosing_chain, scan, PathFilter, Pattern};
use crate::trigram::TextIndex;
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use regex::Regex;
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Lines a text analysis looks at before it stops (and reports `truncated`).
const MAX_SITES: usize = 50_000;
/// Default rows per text analysis.
const DEFAULT_LIMIT: usize = 100;

/// A matched line, owned.
struct Site {
    path: String,
    line: u32,
    text: String,
}

/// Scans every line matching `pattern` (regex) under `path`, up to [`MAX_SITES`].
fn sites(idx: &TextIndex, pattern: &str, path: Option<&str>) -> Result<(Vec<Site>, bool), QueryError> {
    let filter = PathFilter::parse("path_prefix", path)?;
    let pattern = Pattern::new(pattern, true, true)?;
    let found = scan(idx, &pattern, &filter, MAX_SITES, &|m| Site {
        path: m.path.to_string(),
        line: m.line,
        text: String::from_utf8_lossy(m.text).into_owned(),
    });
    Ok((found.hits, found.truncated))
}

/// The innermost symbol around a line, or the file node when no symbol holds it.
fn enclosing(g: &Graph, path: &str, line: u32) -> Option<NodeIndex> {
    enclosing_chain(g, path, line).first().copied()
}

fn trimmed(text: &str, max: usize) -> String {
    let t = text.trim();
    if t.chars().count() <= max {
        return t.to_string();
    }
    let mut s: String = t.chars().take(max).collect();
    s.push('…');
    s
}

// ---------------------------------------------------------------------------------------------
// todos

/// Arguments of `analyze kind=todos`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodosArgs {
    /// Path prefix or glob.
    pub path_prefix: Option<String>,
    /// Tags to report (default TODO, FIXME, HACK, XXX, BUG, QUESTION).
    pub tags: Option<Vec<String>>,
    /// Most rows returned (1..=1000, default 100).
    pub limit: Option<usize>,
}

/// One marker comment.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TodoRow {
    pub tag: String,
    /// From `TAG(name)` or `TAG @name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignee: Option<String>,
    pub text: String,
    pub path: String,
    pub line: u32,
    /// The innermost symbol holding the comment (the file when none does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
}

/// Result of `analyze kind=todos`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TodosResult {
    /// The scan stopped at 50,000 matching lines; totals are lower bounds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub counts_capped: bool,
    pub total: usize,
    pub by_tag: BTreeMap<String, usize>,
    /// Markers per assignee; those without one count under `unassigned`.
    pub by_assignee: BTreeMap<String, usize>,
    pub todos: Vec<TodoRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

const DEFAULT_TAGS: &[&str] = &["TODO", "FIXME", "HACK", "XXX", "BUG", "QUESTION"];

/// Marker comments: a tag word right after a comment opener (`//`, `#`, `/*`, a leading `*`, `--`,
/// `<!--`), so identifiers such as `todoList`, strings mentioning TODO, and prose that merely
/// mentions a tag ("// see the TODO list") do not count.
pub fn todos(idx: &TextIndex, g: &Graph, args: &TodosArgs) -> Result<TodosResult, QueryError> {
    let limit = check_limit(args.limit, DEFAULT_LIMIT)?;
    let tags: Vec<String> = match &args.tags {
        None => DEFAULT_TAGS.iter().map(|t| t.to_string()).collect(),
        Some(t) if t.is_empty() => return Err(QueryError::invalid("tags must not be empty; omit it for the defaults")),
        Some(t) => {
            for tag in t {
                if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(QueryError::invalid(format!(
                        "tags must be words like TODO or FIXME, got {tag:?}"
                    )));
                }
            }
            t.clone()
        }
    };
    let pattern = format!(r"(?://|#|/\*|^\s*\*|--|<!--)\s*\b({})\b", tags.join("|"));
    let (found, truncated) = sites(idx, &pattern, args.path_prefix.as_deref())?;
    let re = Regex::new(&pattern).expect("checked by Pattern::new");
    let assignee_re = assignee_pattern();
    let mut by_tag = BTreeMap::new();
    let mut by_assignee = BTreeMap::new();
    let mut rows = Vec::new();
    let mut total = 0;
    for s in &found {
        let Some(c) = re.captures(&s.text) else { continue };
        let tag = c.get(1).expect("group 1 always matches");
        total += 1;
        *by_tag.entry(tag.as_str().to_string()).or_insert(0) += 1;
        let mut rest = &s.text[tag.end()..];
        let mut assignee = None;
        if let Some(a) = assignee_re.captures(rest) {
            let name = a.get(1).or(a.get(2)).expect("one group matches").as_str().trim();
            if !name.is_empty() {
                assignee = Some(name.to_string());
            }
            rest = &rest[a.get(0).expect("whole match").end()..];
        }
        *by_assignee
            .entry(assignee.clone().unwrap_or_else(|| "unassigned".to_string()))
            .or_insert(0) += 1;
        if rows.len() < limit {
            let rest = rest.trim_start_matches([':', ' ', '-']);
            let rest = rest
                .trim_end()
                .trim_end_matches("*/")
                .trim_end_matches("-->")
                .trim_end();
            rows.push(TodoRow {
                tag: tag.as_str().to_string(),
                assignee,
                text: trimmed(rest, 200),
                path: s.path.clone(),
                line: s.line,
                symbol: enclosing(g, &s.path, s.line).map(|i| NodeSummary::at(g, i)),
            });
        }
    }
    Ok(TodosResult {
        total,
        by_tag,
        by_assignee,
        counts_capped: truncated,
        truncated: truncated || total > rows.len(),
        todos: rows,
        evidence: "text",
    })
}

/// `(name)` or ` @name` right after a tag.
fn assignee_pattern() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"^(?:\(([^)]*)\)|\s+@([\w.-]+))").expect("static pattern"))
}

// ---------------------------------------------------------------------------------------------
// env_var_users

/// Arguments of `analyze kind=env_var_users`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvVarUsersArgs {
    /// Only this variable (exact name).
    pub name: Option<String>,
    /// Path prefix or glob.
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 100).
    pub limit: Option<usize>,
}

/// One read of an environment variable.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EnvVarSite {
    pub path: String,
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
}

/// An environment variable and every place that reads it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EnvVarRow {
    pub name: String,
    pub reads: usize,
    pub files: usize,
    pub sites: Vec<EnvVarSite>,
}

/// Result of `analyze kind=env_var_users`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EnvVarUsersResult {
    /// The scan stopped at 50,000 matching lines; totals are lower bounds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub counts_capped: bool,
    pub total_variables: usize,
    pub total_reads: usize,
    pub variables: Vec<EnvVarRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

/// Per-language accessors; group 1 is the variable name.
pub(crate) fn env_patterns() -> &'static [Regex] {
    static P: OnceLock<Vec<Regex>> = OnceLock::new();
    P.get_or_init(|| {
        [
            r"process\.env\.([A-Za-z_][A-Za-z0-9_]*)",
            r#"process\.env\[\s*['"`]([^'"`]+)['"`]\s*\]"#,
            r"import\.meta\.env\.([A-Za-z_][A-Za-z0-9_]*)",
            r#"os\.environ\s*\[\s*['"]([^'"]+)['"]"#,
            r#"os\.(?:environ\.get|getenv)\(\s*['"]([^'"]+)['"]"#,
            r#"os\.(?:Getenv|LookupEnv)\(\s*"([^"]+)""#,
            r#"env::var(?:_os)?\(\s*"([^"]+)""#,
            r#"System\.getenv\(\s*"([^"]+)""#,
        ]
        .iter()
        .map(|p| Regex::new(p).expect("static pattern"))
        .collect()
    })
}

/// Environment variables read in code, grouped by variable, most-read first.
pub fn env_var_users(idx: &TextIndex, g: &Graph, args: &EnvVarUsersArgs) -> Result<EnvVarUsersResult, QueryError> {
    let limit = check_limit(args.limit, DEFAULT_LIMIT)?;
    if args.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return Err(QueryError::invalid(
            "name must not be blank; omit it to list every variable",
        ));
    }
    let (found, truncated) = sites(
        idx,
        r"process\.env|import\.meta\.env|os\.environ|os\.getenv|os\.Getenv|os\.LookupEnv|env::var|System\.getenv",
        args.path_prefix.as_deref(),
    )?;
    let mut by_name: FxHashMap<String, Vec<(String, u32)>> = FxHashMap::default();
    for s in &found {
        for re in env_patterns() {
            for c in re.captures_iter(&s.text) {
                let name = c[1].to_string();
                if args.name.as_deref().is_some_and(|n| n != name) {
                    continue;
                }
                let sites = by_name.entry(name).or_default();
                if sites.last() != Some(&(s.path.clone(), s.line)) {
                    sites.push((s.path.clone(), s.line));
                }
            }
        }
    }
    let total_reads = by_name.values().map(Vec::len).sum();
    let mut rows: Vec<EnvVarRow> = by_name
        .into_iter()
        .map(|(name, sites)| {
            let mut files: Vec<&str> = sites.iter().map(|(p, _)| p.as_str()).collect();
            files.sort_unstable();
            files.dedup();
            EnvVarRow {
                reads: sites.len(),
                files: files.len(),
                sites: sites
                    .iter()
                    .take(20)
                    .map(|(path, line)| EnvVarSite {
                        path: path.clone(),
                        line: *line,
                        symbol: enclosing(g, path, *line).map(|i| NodeSummary::at(g, i)),
                    })
                    .collect(),
                name,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.reads.cmp(&a.reads).then_with(|| a.name.cmp(&b.name)));
    let total_variables = rows.len();
    rows.truncate(limit);
    Ok(EnvVarUsersResult {
        total_variables,
        total_reads,
        counts_capped: truncated,
        truncated: truncated || total_variables > rows.len(),
        variables: rows,
        evidence: "text",
    })
}

// ---------------------------------------------------------------------------------------------
// routes

/// Arguments of `analyze kind=routes`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoutesArgs {
    /// Path prefix or glob.
    pub path_prefix: Option<String>,
    /// Only this HTTP method (GET, POST, …).
    pub method: Option<String>,
    /// Only routes whose path contains this text.
    pub route: Option<String>,
    /// Most rows returned (1..=1000, default 100).
    pub limit: Option<usize>,
}

/// One HTTP route registration.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RouteRow {
    pub method: String,
    pub route: String,
    pub framework: &'static str,
    pub path: String,
    pub line: u32,
    /// The function that handles the route, when the registration names or decorates one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handler: Option<NodeSummary>,
    /// The symbol whose body registers the route (call-style registrations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registered_in: Option<NodeSummary>,
}

/// Result of `analyze kind=routes`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RoutesResult {
    /// The scan stopped at 50,000 matching lines; totals are lower bounds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub counts_capped: bool,
    pub total: usize,
    pub by_framework: BTreeMap<&'static str, usize>,
    pub routes: Vec<RouteRow>,
    pub truncated: bool,
    pub evidence: &'static str,
}

/// How a route is written: a decorator/annotation above its handler, or a registering call.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Decorator,
    Call,
}

struct RouteRule {
    framework: &'static str,
    style: Style,
    /// Group `m` is the method (absent → `fixed`), group `p` the route path.
    re: Regex,
    fixed: Option<&'static str>,
}

fn route_rules() -> &'static [RouteRule] {
    static R: OnceLock<Vec<RouteRule>> = OnceLock::new();
    R.get_or_init(|| {
        let rule = |framework, style, re: &str, fixed| RouteRule {
            framework,
            style,
            re: Regex::new(re).expect("static pattern"),
            fixed,
        };
        vec![
            // Spring: @GetMapping("/x"), @RequestMapping(value = "/x", method = …).
            rule(
                "spring",
                Style::Decorator,
                r#"@(?P<m>Get|Post|Put|Delete|Patch|Request)Mapping\s*\(\s*(?:(?:value|path)\s*=\s*)?\{?\s*"(?P<p>[^"]*)""#,
                None,
            ),
            // FastAPI / Flask blueprints: @app.get("/x"), @router.post("/x"), @bp.route("/x").
            rule(
                "fastapi/flask",
                Style::Decorator,
                r#"^\s*@\s*[A-Za-z_][\w.]*\.(?P<m>get|post|put|delete|patch|head|options|route|api_route)\(\s*(?:path\s*=\s*)?['"](?P<p>[^'"]*)['"]"#,
                None,
            ),
            // Express / Koa-router / Fastify: app.get('/x', …), router.post("/x", …).
            rule(
                "express",
                Style::Call,
                r#"\b(?:app|router|server|api|routes|fastify)\s*\.\s*(?P<m>get|post|put|delete|patch|all|head|options)\(\s*['"`](?P<p>/[^'"`]*)['"`]"#,
                None,
            ),
            // Gin / Echo / chi: r.GET("/x", h), e.POST("/x", h), r.Get("/x", h).
            rule(
                "gin",
                Style::Call,
                r#"\.\s*(?P<m>GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|Any|Get|Post|Put|Delete|Patch)\(\s*"(?P<p>/[^"]*)""#,
                None,
            ),
            // net/http: http.HandleFunc("/x", h), mux.Handle("/x", h).
            rule(
                "net/http",
                Style::Call,
                r#"\b\w+\.(?:HandleFunc|Handle)\(\s*"(?P<p>/?[^"]*)""#,
                Some("ANY"),
            ),
        ]
    })
}

/// The last identifier argument of a registering call (`app.get('/x', auth, listUsers)`).
fn last_identifier_argument(text: &str) -> Option<&str> {
    static R: OnceLock<Regex> = OnceLock::new();
    let re =
        R.get_or_init(|| Regex::new(r",\s*(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\s*\)\s*;?\s*$").expect("static"));
    re.captures(text).map(|c| c.get(1).expect("group").as_str())
}

/// A callable named `name`: in `path` first, else the only one in the repository.
fn callable_named(g: &Graph, name: &str, path: &str) -> Option<NodeIndex> {
    let callables: Vec<NodeIndex> = g
        .named(name)
        .iter()
        .copied()
        .filter(|&i| g.node_at(i).kind.is_callable() && !g.node_at(i).external)
        .collect();
    callables
        .iter()
        .copied()
        .find(|&i| &*g.node_at(i).path == path)
        .or(if callables.len() == 1 { Some(callables[0]) } else { None })
}

/// The first symbol declared at or below `line` within a few lines (a decorator's target).
fn declared_after(g: &Graph, path: &str, line: u32) -> Option<NodeIndex> {
    g.file_nodes(path)
        .iter()
        .copied()
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind.is_symbol() && n.kind != NodeKind::File && n.span.start_line >= line && n.span.start_line <= line + 8
        })
        .min_by_key(|&i| (g.node_at(i).span.start_line, i))
}

/// HTTP routes by framework convention. Decorator routes name the function they decorate;
/// Spring method routes are prefixed with their class's `@RequestMapping` path.
pub fn routes(idx: &TextIndex, g: &Graph, args: &RoutesArgs) -> Result<RoutesResult, QueryError> {
    let limit = check_limit(args.limit, DEFAULT_LIMIT)?;
    routes_up_to(idx, g, args, limit)
}

/// Every route (no row limit): what contract detection matches callers against.
pub(crate) fn all_routes(idx: &TextIndex, g: &Graph, args: &RoutesArgs) -> Result<RoutesResult, QueryError> {
    routes_up_to(idx, g, args, usize::MAX)
}

fn routes_up_to(idx: &TextIndex, g: &Graph, args: &RoutesArgs, limit: usize) -> Result<RoutesResult, QueryError> {
    let method_filter = match args.method.as_deref().map(str::trim) {
        Some("") => return Err(QueryError::invalid("method must not be blank; e.g. GET or POST")),
        other => other.map(str::to_ascii_uppercase),
    };
    let prefilter = r"Mapping|@\s*[A-Za-z_][\w.]*\.(?:get|post|put|delete|patch|head|options|route|api_route)\(|\.\s*(?:get|post|put|delete|patch|all|head|options|GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|Any|Get|Post|Put|Delete|Patch)\(|Handle(?:Func)?\(";
    let (found, truncated) = sites(idx, prefilter, args.path_prefix.as_deref())?;
    struct Raw {
        method: String,
        route: String,
        framework: &'static str,
        style: Style,
        path: String,
        line: u32,
        text: String,
    }
    let mut raw = Vec::new();
    for s in &found {
        let trimmed = s.text.trim_start();
        if trimmed.starts_with("//") || trimmed.starts_with('#') && !trimmed.starts_with("#[") {
            continue;
        }
        for rule in route_rules() {
            let Some(c) = rule.re.captures(&s.text) else { continue };
            let method = match (c.name("m"), rule.fixed) {
                (Some(m), _) => m.as_str().to_ascii_uppercase(),
                (None, Some(f)) => f.to_string(),
                (None, None) => "ANY".to_string(),
            };
            let method = match method.as_str() {
                "REQUEST" | "ROUTE" | "API_ROUTE" => "ANY".to_string(),
                _ => method,
            };
            raw.push(Raw {
                method,
                route: c["p"].to_string(),
                framework: rule.framework,
                style: rule.style,
                path: s.path.clone(),
                line: s.line,
                text: s.text.clone(),
            });
            break;
        }
    }
    // Spring class-level prefixes: a @RequestMapping whose target is a type.
    let mut prefixes: Vec<(NodeIndex, String)> = Vec::new();
    let mut rows = Vec::new();
    for r in &raw {
        let handler = match r.style {
            Style::Decorator => {
                let target = if r.framework == "spring" {
                    // Java annotations sit inside the declaration's span.
                    enclosing(g, &r.path, r.line)
                        .filter(|&i| g.node_at(i).kind != NodeKind::File)
                        .or_else(|| declared_after(g, &r.path, r.line))
                } else {
                    declared_after(g, &r.path, r.line)
                };
                if let Some(t) = target.filter(|&t| g.node_at(t).kind.is_type_like()) {
                    if r.framework == "spring" {
                        prefixes.push((t, r.route.clone()));
                        continue;
                    }
                }
                target.filter(|&t| g.node_at(t).kind.is_callable())
            }
            Style::Call => last_identifier_argument(&r.text).and_then(|name| callable_named(g, name, &r.path)),
        };
        let registered_in = match r.style {
            Style::Call => enclosing(g, &r.path, r.line).filter(|&i| g.node_at(i).kind != NodeKind::File),
            Style::Decorator => None,
        };
        rows.push((r, handler, registered_in));
    }
    let mut out: Vec<RouteRow> = Vec::new();
    for (r, handler, registered_in) in rows {
        let mut route = r.route.clone();
        if r.framework == "spring" {
            let span_of = |i: NodeIndex| g.node_at(i).span;
            if let Some((_, prefix)) = prefixes.iter().find(|(t, _)| {
                &*g.node_at(*t).path == r.path.as_str() && {
                    let s = span_of(*t);
                    s.start_line <= r.line && r.line <= s.end_line
                }
            }) {
                route = join_route(prefix, &route);
            }
        }
        if method_filter.as_deref().is_some_and(|m| m != r.method) {
            continue;
        }
        if args.route.as_deref().is_some_and(|q| !route.contains(q)) {
            continue;
        }
        out.push(RouteRow {
            method: r.method.clone(),
            route,
            framework: r.framework,
            path: r.path.clone(),
            line: r.line,
            handler: handler.map(|i| NodeSummary::at(g, i)),
            registered_in: registered_in.map(|i| NodeSummary::at(g, i)),
        });
    }
    let mut by_framework = BTreeMap::new();
    for r in &out {
        *by_framework.entry(r.framework).or_insert(0) += 1;
    }
    let total = out.len();
    out.truncate(limit);
    Ok(RoutesResult {
        total,
        by_framework,
        counts_capped: truncated,
        truncated: truncated || total > out.len(),
        routes: out,
        evidence: "text",
    })
}

fn join_route(prefix: &str, route: &str) -> String {
    let p = prefix.trim_end_matches('/');
    if route.is_empty() {
        return if p.is_empty() { "/".to_string() } else { p.to_string() };
    }
    if route.starts_with('/') {
        format!("{p}{route}")
    } else {
        format!("{p}/{route}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_identifier_argument_takes_the_handler_name() {
        assert_eq!(
            last_identifier_argument("app.get('/x', auth, listUsers);"),
            Some("listUsers")
        );
        assert_eq!(last_identifier_argument("r.GET(\"/x\", h.Show)"), Some("Show"));
        assert_eq!(last_identifier_argument("app.get('/x', (req, res) => {"), None);
    }

    #[test]
    fn route_rules_classify_each_framework() {
        let first = |line: &str| {
            route_rules()
                .iter()
                .find_map(|r| r.re.captures(line).map(|c| (r.framework, c["p"].to_string())))
        };
        assert_eq!(
            first("  @GetMapping(\"/users/{id}\")"),
            Some(("spring", "/users/{id}".into()))
        );
        assert_eq!(first("@app.get(\"/items\")"), Some(("fastapi/flask", "/items".into())));
        assert_eq!(
            first("router.post('/login', login)"),
            Some(("express", "/login".into()))
        );
        assert_eq!(first("r.GET(\"/ping\", ping)"), Some(("gin", "/ping".into())));
        assert_eq!(
            first("http.HandleFunc(\"/health\", health)"),
            Some(("net/http", "/health".into()))
        );
        assert_eq!(first("cache.get('key')"), None);
    }

    #[test]
    fn join_route_handles_slashes() {
        assert_eq!(join_route("/api/", "/users"), "/api/users");
        assert_eq!(join_route("/api", "users"), "/api/users");
        assert_eq!(join_route("/api", ""), "/api");
    }
}
