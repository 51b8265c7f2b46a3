//! `analyze kind=domain`: the business domains of a codebase, read from the names of its types
//! and joined with the graph. A type's name is split into words; a leading verb or qualifier
//! (`Create`, `Base`, `Abstract`, an interface `I`) and a trailing role word (`Service`,
//! `Repository`, `Controller`, `Request`, `Event`, …) are taken off, and the first remaining word,
//! singular, names its domain: `OrderService`, `OrderRepository`, `CreateOrderRequest` and
//! `OrderItem` all belong to `order`. Technical words (`http`, `json`, `cache`, `logger`, …) name
//! no domain. Each domain lists its types by role, its files and directories, and the domains its
//! code depends on and is used by (call, instantiation, reference and type edges between the
//! domains' types and their members). Evidence is `names+graph`: the grouping is a naming
//! convention, the dependencies are edges.

use crate::reach::{check_path_prefix, under};
use gortex_core::{EdgeKind, QueryError};
use gortex_graph::query::common::{check_limit_with, check_range};
use gortex_graph::query::inheritance::owner_type;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Role words a type name ends with, and the role they give.
const ROLES: &[(&str, &str)] = &[
    ("service", "service"),
    ("services", "service"),
    ("usecase", "service"),
    ("manager", "service"),
    ("repository", "repository"),
    ("repo", "repository"),
    ("store", "repository"),
    ("dao", "repository"),
    ("controller", "controller"),
    ("handler", "controller"),
    ("resolver", "controller"),
    ("router", "controller"),
    ("endpoint", "controller"),
    ("view", "view"),
    ("page", "view"),
    ("component", "view"),
    ("request", "dto"),
    ("response", "dto"),
    ("dto", "dto"),
    ("input", "dto"),
    ("payload", "dto"),
    ("schema", "dto"),
    ("serializer", "dto"),
    ("form", "dto"),
    ("props", "dto"),
    ("event", "event"),
    ("listener", "event"),
    ("subscriber", "event"),
    ("error", "error"),
    ("exception", "error"),
    ("factory", "factory"),
    ("builder", "factory"),
    ("mapper", "mapper"),
    ("validator", "validator"),
    ("policy", "validator"),
    ("client", "client"),
    ("gateway", "client"),
    ("adapter", "client"),
    ("job", "job"),
    ("worker", "job"),
    ("task", "job"),
    ("test", "test"),
    ("tests", "test"),
    ("spec", "test"),
    ("mock", "test"),
    ("fake", "test"),
    ("stub", "test"),
    ("model", "model"),
    ("entity", "model"),
    ("record", "model"),
    ("impl", "service"),
];

/// Leading words that qualify rather than name: verbs of DTOs and commands, base classes.
const QUALIFIERS: &[&str] = &[
    "create", "update", "delete", "get", "list", "find", "new", "base", "abstract", "default", "add", "remove", "set",
    "edit", "patch", "put", "post", "fetch", "load", "save", "is", "has", "mock", "fake", "test", "stub", "my", "app",
];

/// Words that name technical concerns, never a business domain.
const TECHNICAL: &[&str] = &[
    "http",
    "https",
    "json",
    "xml",
    "yaml",
    "api",
    "db",
    "database",
    "sql",
    "cache",
    "log",
    "logger",
    "logging",
    "util",
    "utils",
    "helper",
    "helpers",
    "config",
    "configuration",
    "settings",
    "env",
    "main",
    "app",
    "application",
    "server",
    "client",
    "error",
    "exception",
    "string",
    "list",
    "map",
    "set",
    "array",
    "buffer",
    "stream",
    "file",
    "path",
    "url",
    "uri",
    "date",
    "time",
    "timer",
    "thread",
    "pool",
    "queue",
    "event",
    "handler",
    "context",
    "request",
    "response",
    "result",
    "option",
    "options",
    "type",
    "types",
    "base",
    "abstract",
    "node",
    "tree",
    "graph",
    "parser",
    "lexer",
    "token",
    "test",
    "mock",
    "fake",
    "spec",
    "module",
    "plugin",
    "component",
    "view",
    "page",
    "router",
    "route",
    "middleware",
    "interface",
    "impl",
    "default",
    "common",
    "core",
    "internal",
    "generic",
    "data",
    "info",
    "item",
    "value",
    "key",
    "id",
    "state",
    "store",
    "model",
    "entity",
    "service",
    "manager",
    "factory",
    "builder",
    "worker",
    "job",
    "task",
    "io",
    "os",
    "fs",
    "net",
    "web",
    "ui",
    "dom",
    "html",
    "css",
    "svg",
    "image",
    "async",
    "sync",
    "lock",
];

/// The words of an identifier, lower case (`CreateOrderRequest` → create, order, request).
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && !cur.is_empty()
            && (chars[i - 1].is_lowercase()
                || chars[i - 1].is_ascii_digit()
                || chars.get(i + 1).is_some_and(|n| n.is_lowercase()));
        if boundary {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|w| w.to_lowercase()).collect()
}

/// The singular of a simple English plural (`orders` → order, `categories` → category).
fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() > 1) {
        return format!("{stem}y");
    }
    if let Some(stem) = word.strip_suffix("sses") {
        return format!("{stem}ss");
    }
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") && !word.ends_with("is")
    {
        return word[..word.len() - 1].to_string();
    }
    word.to_string()
}

/// A type name's domain and role, when it names one (see the module doc).
pub fn domain_of(name: &str) -> Option<(String, &'static str)> {
    let mut w = words(name);
    // An interface's `I` prefix (`IOrderRepository`).
    if w.first().is_some_and(|f| f == "i") && w.len() > 1 {
        w.remove(0);
    }
    let role = w
        .last()
        .and_then(|last| ROLES.iter().find(|(r, _)| r == last))
        .map(|(_, role)| *role);
    if role.is_some() && w.len() > 1 {
        w.pop();
    }
    while w.len() > 1 && QUALIFIERS.contains(&w[0].as_str()) {
        w.remove(0);
    }
    let head = w.first()?;
    let domain = singular(head);
    if domain.len() < 3 || domain.chars().all(|c| c.is_ascii_digit()) || TECHNICAL.contains(&domain.as_str()) {
        return None;
    }
    Some((domain, role.unwrap_or("model")))
}

/// Arguments of `analyze kind=domain`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DomainArgs {
    /// Only this domain, with every type it holds.
    #[serde(default)]
    pub domain: Option<String>,
    /// Smallest domain listed, in types (1..=1000, default 2).
    #[serde(default)]
    pub min_types: Option<usize>,
    /// Count types declared in test code too (default false).
    #[serde(default)]
    pub include_tests: bool,
    /// Only types declared under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most domains returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Edges from one domain to another.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DomainLink {
    pub domain: String,
    pub edges: usize,
}

/// One business domain.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Domain {
    pub domain: String,
    pub types: usize,
    /// Type names by role (`model`, `service`, `repository`, `controller`, `dto`, `event`, …).
    pub roles: BTreeMap<&'static str, Vec<String>>,
    /// Files declaring its types.
    pub files: usize,
    /// The directories holding most of its types, most first (at most 3).
    pub directories: Vec<String>,
    /// Domains its code calls, instantiates or references, most edges first.
    pub depends_on: Vec<DomainLink>,
    /// Domains whose code uses it, most edges first.
    pub used_by: Vec<DomainLink>,
    /// Every type, with `domain` only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<NodeSummary>,
}

/// The answer of `analyze kind=domain`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DomainResult {
    /// Most types first (ties: by name), at most `limit`.
    pub domains: Vec<Domain>,
    pub total: usize,
    pub truncated: bool,
    /// Types examined, and of those the ones no domain claimed (technical names, or a domain
    /// below `min_types`).
    pub types: usize,
    pub unassigned: usize,
    pub evidence: &'static str,
}

/// Edges that make one domain depend on another.
fn is_dependency(kind: EdgeKind) -> bool {
    matches!(
        kind,
        EdgeKind::Calls
            | EdgeKind::Instantiates
            | EdgeKind::References
            | EdgeKind::TypedAs
            | EdgeKind::Returns
            | EdgeKind::Extends
            | EdgeKind::Implements
    )
}

/// `analyze kind=domain` (see the module doc).
pub fn domains(g: &Graph, args: &DomainArgs) -> Result<DomainResult, QueryError> {
    let limit = check_limit_with(args.limit, 50)?;
    let min_types = check_range("min_types", args.min_types, 2, 1, 1000)?;
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let mut of_type: FxHashMap<NodeIndex, (String, &'static str)> = FxHashMap::default();
    let mut examined = 0;
    for (i, n) in g.node_entries() {
        if !n.kind.is_type_like() || n.external || !under(&n.path, prefix.as_deref()) {
            continue;
        }
        if !args.include_tests && crate::coverage::is_test_code(g, i) {
            continue;
        }
        examined += 1;
        if let Some(d) = domain_of(&n.name) {
            of_type.insert(i, d);
        }
    }
    let mut groups: BTreeMap<String, Vec<NodeIndex>> = BTreeMap::new();
    for (&i, (d, _)) in &of_type {
        groups.entry(d.clone()).or_default().push(i);
    }
    groups.retain(|_, members| members.len() >= min_types);
    of_type.retain(|_, (d, _)| groups.contains_key(d));
    // A node's domain: its own type's, or its owner type's.
    let domain_at = |i: NodeIndex| -> Option<&str> {
        of_type
            .get(&i)
            .or_else(|| owner_type(g, i).and_then(|o| of_type.get(&o)))
            .map(|(d, _)| d.as_str())
    };
    let mut links: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for e in g.edges().filter(|e| is_dependency(e.kind)) {
        if let (Some(a), Some(b)) = (domain_at(e.from), domain_at(e.to)) {
            if a != b {
                *links.entry((a, b)).or_insert(0) += 1;
            }
        }
    }
    let ranked = |mut v: Vec<DomainLink>| {
        v.sort_by(|x, y| y.edges.cmp(&x.edges).then_with(|| x.domain.cmp(&y.domain)));
        v
    };
    let mut rows: Vec<Domain> = groups
        .iter()
        .filter(|(d, _)| args.domain.as_deref().is_none_or(|want| want == d.as_str()))
        .map(|(d, members)| {
            let mut members = members.clone();
            members.sort_by(|&a, &b| {
                g.node_at(a)
                    .name
                    .cmp(&g.node_at(b).name)
                    .then_with(|| g.node_at(a).id.cmp(&g.node_at(b).id))
            });
            let mut roles: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
            let mut files: BTreeSet<&str> = BTreeSet::new();
            let mut dirs: BTreeMap<&str, usize> = BTreeMap::new();
            for &m in &members {
                let n = g.node_at(m);
                roles.entry(of_type[&m].1).or_default().push(n.name.clone());
                files.insert(&n.path);
                *dirs
                    .entry(n.path.rsplit_once('/').map_or(".", |(dir, _)| dir))
                    .or_insert(0) += 1;
            }
            let mut directories: Vec<(&str, usize)> = dirs.into_iter().collect();
            directories.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            Domain {
                domain: d.clone(),
                types: members.len(),
                roles,
                files: files.len(),
                directories: directories.into_iter().take(3).map(|(d, _)| d.to_string()).collect(),
                depends_on: ranked(
                    links
                        .iter()
                        .filter(|((a, _), _)| a == d)
                        .map(|((_, b), &edges)| DomainLink {
                            domain: b.to_string(),
                            edges,
                        })
                        .collect(),
                ),
                used_by: ranked(
                    links
                        .iter()
                        .filter(|((_, b), _)| b == d)
                        .map(|((a, _), &edges)| DomainLink {
                            domain: a.to_string(),
                            edges,
                        })
                        .collect(),
                ),
                members: if args.domain.is_some() {
                    members.iter().map(|&m| NodeSummary::at(g, m)).collect()
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    if let Some(want) = args.domain.as_deref().filter(|_| rows.is_empty()) {
        let known: Vec<&str> = groups.keys().map(String::as_str).take(20).collect();
        return Err(QueryError::not_found(format!(
            "no domain `{want}` (of at least {min_types} types) here; domains: {}",
            known.join(", ")
        )));
    }
    rows.sort_by(|a, b| b.types.cmp(&a.types).then_with(|| a.domain.cmp(&b.domain)));
    let total = rows.len();
    rows.truncate(limit);
    Ok(DomainResult {
        domains: rows,
        total,
        truncated: total > limit,
        types: examined,
        unassigned: examined - of_type.len(),
        evidence: "names+graph",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_their_domain_and_role() {
        let cases = [
            ("OrderService", Some(("order", "service"))),
            ("OrderRepository", Some(("order", "repository"))),
            ("IOrderRepository", Some(("order", "repository"))),
            ("CreateOrderRequest", Some(("order", "dto"))),
            ("OrderItem", Some(("order", "model"))),
            ("Orders", Some(("order", "model"))),
            ("CategoryController", Some(("category", "controller"))),
            ("Categories", Some(("category", "model"))),
            ("user_profile_view", Some(("user", "view"))),
            ("HTTPClient", None),
            ("JsonParser", None),
            ("Logger", None),
            ("Service", None),
            ("Address", Some(("address", "model"))),
        ];
        for (name, want) in cases {
            let got = domain_of(name);
            assert_eq!(got.as_ref().map(|(d, r)| (d.as_str(), *r)), want, "{name}");
        }
    }
}
