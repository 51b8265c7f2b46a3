//! Service contracts of one repository: who provides and who consumes HTTP endpoints, gRPC
//! services, GraphQL fields, message topics, WebSocket events and environment variables, and the
//! operations OpenAPI documents declare. Each site gets a canonical key (`http::GET::/users/{}`,
//! `grpc::UserService`, `graphql::Query.user`, `topic::orders`, `ws::order:created`,
//! `env::DATABASE_URL`) so sites in different repositories can be matched by key alone (the
//! workspace does that). Text evidence, like `routes`: one pass over the files that may hold a
//! trigger word, line rules per language family, small state machines for the block formats
//! (`.proto`, GraphQL SDL, OpenAPI YAML, `environment:` / `env:` blocks); every row is tied to the
//! graph symbol around it.

use crate::sites::{env_patterns, routes, RoutesArgs};
use crate::text::{enclosing_chain, PathFilter};
use crate::trigram::{TextIndex, TrigramQuery};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The contract families.
pub const CONTRACT_KINDS: &[&str] = &["http", "grpc", "graphql", "topic", "ws", "env", "openapi"];

/// Default rows.
const DEFAULT_LIMIT: usize = 1000;
/// Most rows ever returned.
const MAX_ROWS: usize = 20_000;

/// Arguments of `analyze kind=contract_sites`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractSitesArgs {
    /// Only these families (http, grpc, graphql, topic, ws, env, openapi); default all.
    #[serde(default)]
    pub kinds: Option<Vec<String>>,
    /// Only files under this path prefix or glob.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most rows (1..=20000, default 1000).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One provider or consumer site.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ContractSite {
    /// http, grpc, graphql, topic, ws, env or openapi.
    pub kind: &'static str,
    /// provider (serves, publishes, emits, defines, declares) or consumer (calls, subscribes, listens, reads).
    pub role: &'static str,
    /// The canonical key sites are matched by.
    pub key: String,
    /// What it is, readably (`GET /users/{id}`, `UserService`, `Query.user`, `orders`).
    pub name: String,
    /// The library or convention recognised (express, fetch, axios, requests, gin, proto, kafka, socket.io, dotenv, …).
    pub source: &'static str,
    pub path: String,
    pub line: u32,
    /// The symbol around the site (a route's handler).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The path as written (HTTP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path_params: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_type: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub request_stream: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub response_stream: bool,
    /// The broker of a topic (kafka, nats, rabbitmq, sns, sqs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broker: Option<&'static str>,
    /// The proto package of a gRPC service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// In test code.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub test: bool,
}

/// The sites, by kind and role.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ContractSitesResult {
    pub sites: Vec<ContractSite>,
    pub total: usize,
    pub truncated: bool,
    /// `<kind>.<role>` → rows.
    pub counts: BTreeMap<String, usize>,
    pub evidence: &'static str,
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("static pattern")
}

/// A site before its symbol is looked up.
struct Raw {
    kind: &'static str,
    role: &'static str,
    key: String,
    name: String,
    source: &'static str,
    line: u32,
    method: Option<String>,
    route: Option<String>,
    path_params: Vec<String>,
    request_type: Option<String>,
    response_type: Option<String>,
    request_stream: bool,
    response_stream: bool,
    broker: Option<&'static str>,
    package: Option<String>,
    handler: Option<NodeIndex>,
}

impl Raw {
    fn new(kind: &'static str, role: &'static str, key: String, name: String, source: &'static str, line: u32) -> Raw {
        Raw {
            kind,
            role,
            key,
            name,
            source,
            line,
            method: None,
            route: None,
            path_params: Vec::new(),
            request_type: None,
            response_type: None,
            request_stream: false,
            response_stream: false,
            broker: None,
            package: None,
            handler: None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP paths

/// A path as written (`/users/:id`, `${API}/users/${id}`, `/users/{id}`, `/users/<int:id>`,
/// `http://host/users/%d?x=1`) made canonical (`/users/{}`) with its parameter names.
pub fn canonical_path(raw: &str) -> Option<(String, Vec<String>)> {
    let mut s = raw.trim().to_string();
    if let Some(i) = s.find("://") {
        let rest = &s[i + 3..];
        s = rest
            .find('/')
            .map_or_else(|| "/".to_string(), |j| rest[j..].to_string());
    }
    if let Some(i) = s.find(['?', '#']) {
        s.truncate(i);
    }
    let mut params = Vec::new();
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let close = match c {
            '$' if chars.get(i + 1) == Some(&'{') => Some('}'),
            '{' => Some('}'),
            '<' => Some('>'),
            _ => None,
        };
        if let Some(close) = close {
            let start = if c == '$' { i + 2 } else { i + 1 };
            if let Some(len) = chars[start..].iter().position(|&x| x == close) {
                let inner: String = chars[start..start + len].iter().collect();
                let name = inner
                    .rsplit(':')
                    .next()
                    .unwrap_or("")
                    .split(|x: char| !(x.is_alphanumeric() || x == '_'))
                    .rfind(|p| !p.is_empty())
                    .unwrap_or("")
                    .to_string();
                if !name.is_empty() {
                    params.push(name);
                }
                out.push_str("{}");
                i = start + len + 1;
                continue;
            }
        }
        if c == '%' && chars.get(i + 1).is_some_and(|x| x.is_ascii_alphabetic()) {
            out.push_str("{}");
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    // `:name` segments (Express, Gin, Rails).
    let mut segs: Vec<String> = Vec::new();
    for seg in out.split('/') {
        if let Some(name) = seg.strip_prefix(':').filter(|n| !n.is_empty()) {
            params.push(name.trim_end_matches('?').to_string());
            segs.push("{}".into());
        } else if seg == "*" || seg.starts_with('*') && seg.len() > 1 {
            segs.push("{}".into());
        } else {
            segs.push(seg.to_string());
        }
    }
    let mut path = segs.join("/");
    // A leading base-URL variable (`${API}/users`, `base + "/users"`): the path starts after it.
    while let Some(rest) = path.strip_prefix("{}") {
        if rest.starts_with('/') || rest.is_empty() {
            path = rest.to_string();
        } else {
            break;
        }
    }
    if !path.starts_with('/') {
        if path.is_empty() {
            return None;
        }
        path.insert(0, '/');
    }
    while path.contains("//") {
        path = path.replace("//", "/");
    }
    if path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    if path == "/{}" && params.is_empty() && !raw.contains('/') {
        return None;
    }
    Some((path, params))
}

/// The first argument of a call whose `(` is at byte `open` of `text`, as a template: string
/// literals kept (`${x}`, `{x}` and `%d` become `{}`), anything else one `{}` per operand.
fn url_template(text: &str, open: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut i = open + 1;
    let mut out = String::new();
    let mut depth = 0usize;
    let mut operand = false;
    let mut any_literal = false;
    while i < bytes.len() {
        let c = bytes[i] as char;
        match c {
            '\'' | '"' | '`' => {
                let end = text[i + 1..].find(c).map(|e| i + 1 + e)?;
                let lit = &text[i + 1..end];
                // An f-string's `{x}` and a template literal's `${x}` are parameters already in brace form.
                out.push_str(&lit.replace("${", "{"));
                any_literal = true;
                operand = false;
                i = end + 1;
                continue;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => break,
            '+' if depth == 0 => operand = false,
            c if depth == 0 && (c.is_alphanumeric() || c == '_' || c == '$') => {
                // `fmt.Sprintf("…", …)`: the format string stands for the whole operand.
                if text[i..].starts_with("fmt.Sprintf(") || text[i..].starts_with("String.format(") {
                    let p = text[i..].find('(').map(|p| i + p)?;
                    let inner = url_template(text, p)?;
                    out.push_str(&inner);
                    any_literal = true;
                    let close = matching_paren(text, p)?;
                    i = close + 1;
                    operand = false;
                    continue;
                }
                // A Python f-string prefix belongs to the literal that follows.
                if (c == 'f' || c == 'r' || c == 'b') && matches!(bytes.get(i + 1), Some(b'"') | Some(b'\'')) {
                    i += 1;
                    continue;
                }
                if !operand {
                    out.push_str("{}");
                    operand = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    any_literal.then_some(out)
}

/// The byte of the `)` closing the `(` at `open`.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in text[open..].char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

fn http_key(method: &str, path: &str) -> String {
    format!("http::{method}::{path}")
}

/// An HTTP consumer rule: where the call is; the method (a group `m`, or fixed); a response type group `t`.
struct ClientRule {
    source: &'static str,
    re: Regex,
    fixed: Option<&'static str>,
    /// Which extensions it applies to.
    exts: &'static [&'static str],
}

const JS: &[&str] = &["js", "jsx", "ts", "tsx", "mjs", "cjs", "vue", "svelte"];
const PY: &[&str] = &["py"];
const GO: &[&str] = &["go"];
const JVM: &[&str] = &["java", "kt"];

fn client_rules() -> &'static [ClientRule] {
    static R: OnceLock<Vec<ClientRule>> = OnceLock::new();
    R.get_or_init(|| {
        let rule = |source, p: &str, fixed, exts| ClientRule { source, re: re(p), fixed, exts };
        vec![
            rule("fetch", r"\bfetch\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()", None, JS),
            rule("axios", r"\baxios\s*\.\s*(?P<m>get|post|put|delete|patch|head)\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()", None, JS),
            rule(
                "http-client",
                r"\b(?:this\.)?(?:http|httpClient|client|ky|\$http|superagent|request)\s*\.\s*(?P<m>get|post|put|delete|patch)\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()",
                None,
                JS,
            ),
            rule(
                "requests",
                r"\b(?:requests|httpx|session|client|self\.\w+|aiohttp\.\w+)\s*\.\s*(?P<m>get|post|put|delete|patch|head)\s*(?P<o>\()",
                None,
                PY,
            ),
            rule("net/http", r"\bhttp\.(?P<m>Get|Post|Head|PostForm)\s*(?P<o>\()", None, GO),
            rule("resttemplate", r"\b\w*[Tt]emplate\s*\.\s*(?P<m>getForObject|getForEntity|postForObject|postForEntity|put|delete|patchForObject)\s*(?P<o>\()", None, JVM),
            rule("webclient", r"\.\s*(?P<m>get|post|put|delete|patch)\s*\(\s*\)\s*\.\s*uri\s*(?P<o>\()", None, JVM),
        ]
    })
}

fn method_of(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    let w = w.trim_end_matches("forobject").trim_end_matches("forentity");
    match w {
        "postform" => "POST".into(),
        other => other.to_ascii_uppercase(),
    }
}

// ---------------------------------------------------------------------------------------------
// Line rules of the other families

struct LineRule {
    kind: &'static str,
    role: &'static str,
    source: &'static str,
    broker: Option<&'static str>,
    re: Regex,
    exts: &'static [&'static str],
}

const CODE: &[&str] = &[
    "js", "jsx", "ts", "tsx", "mjs", "cjs", "py", "go", "java", "kt", "rb", "cs", "rs", "php",
];

fn line_rules() -> &'static [LineRule] {
    static R: OnceLock<Vec<LineRule>> = OnceLock::new();
    R.get_or_init(|| {
        let r = |kind, role, source, broker, p: &str, exts| LineRule { kind, role, source, broker, re: re(p), exts };
        let q = r#"['"`]"#;
        let name = r#"(?P<n>[^'"`\s]+)"#;
        vec![
            // gRPC servers and clients (the service's short name).
            r("grpc", "provider", "grpc-go", None, r"\bRegister(?P<n>\w+)Server\s*\(", GO),
            r("grpc", "consumer", "grpc-go", None, r"\bNew(?P<n>\w+)Client\s*\(", GO),
            r("grpc", "provider", "grpc-python", None, r"\badd_(?P<n>\w+)Servicer_to_server\s*\(", PY),
            r("grpc", "consumer", "grpc-python", None, r"\b(?:\w+\.)?(?P<n>\w+)Stub\s*\(", PY),
            r("grpc", "provider", "grpc-node", None, r"\.addService\s*\(\s*(?:[\w$]+\.)*(?P<n>\w+)\.service\b", JS),
            r("grpc", "consumer", "grpc-node", None, r"\bnew\s+(?:[\w$]+\.)*(?P<n>\w+?)(?:Client)?\s*\([^)]*grpc\.credentials", JS),
            r("grpc", "provider", "grpc-java", None, r"\bextends\s+(?P<n>\w+)Grpc\.\w+ImplBase\b", JVM),
            r("grpc", "consumer", "grpc-java", None, r"\b(?P<n>\w+)Grpc\.new(?:Blocking|Future)?Stub\s*\(", JVM),
            // Kafka.
            r("topic", "provider", "kafkajs", Some("kafka"), &format!(r"\.send\s*\(\s*\{{\s*topic\s*:\s*{q}{name}{q}"), JS),
            r("topic", "consumer", "kafkajs", Some("kafka"), &format!(r"\.subscribe\s*\(\s*\{{\s*topics?\s*:\s*\[?\s*{q}{name}{q}"), JS),
            r("topic", "provider", "kafka-python", Some("kafka"), &format!(r"\b\w*(?:producer|Producer)\w*\s*\.\s*(?:send|produce)\s*\(\s*(?:topic\s*=\s*)?{q}{name}{q}"), PY),
            r("topic", "consumer", "kafka-python", Some("kafka"), &format!(r"\bKafkaConsumer\s*\(\s*{q}{name}{q}"), PY),
            r("topic", "consumer", "kafka-python", Some("kafka"), &format!(r"\b\w*(?:consumer|Consumer)\w*\s*\.\s*subscribe\s*\(\s*\[\s*{q}{name}{q}"), PY),
            r("topic", "provider", "sarama", Some("kafka"), r#"ProducerMessage\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO),
            r("topic", "consumer", "sarama", Some("kafka"), r#"\bConsumePartition\s*\(\s*"(?P<n>[^"]+)""#, GO),
            r("topic", "provider", "kafka-go", Some("kafka"), r#"kafka\.(?:Writer|WriterConfig)\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO),
            r("topic", "consumer", "kafka-go", Some("kafka"), r#"kafka\.(?:Reader|ReaderConfig)\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO),
            r("topic", "provider", "spring-kafka", Some("kafka"), r#"\bkafkaTemplate\s*\.\s*send\s*\(\s*"(?P<n>[^"]+)""#, JVM),
            r("topic", "consumer", "spring-kafka", Some("kafka"), r#"@KafkaListener\s*\([^)]*topics\s*=\s*\{?\s*"(?P<n>[^"]+)""#, JVM),
            // NATS.
            r("topic", "provider", "nats", Some("nats"), &format!(r"\b(?:nc|nats|conn|js|natsConn|natsClient)\s*\.\s*(?:Publish|publish|Request|request)\s*\(\s*{q}{name}{q}"), CODE),
            r("topic", "consumer", "nats", Some("nats"), &format!(r"\b(?:nc|nats|conn|js|natsConn|natsClient)\s*\.\s*(?:Subscribe|subscribe|QueueSubscribe|queueSubscribe|queue_subscribe|ChanSubscribe)\s*\(\s*{q}{name}{q}"), CODE),
            // RabbitMQ.
            r("topic", "provider", "pika", Some("rabbitmq"), &format!(r"\bbasic_publish\s*\(.*routing_key\s*=\s*{q}{name}{q}"), PY),
            r("topic", "consumer", "pika", Some("rabbitmq"), &format!(r"\bbasic_consume\s*\(\s*(?:queue\s*=\s*)?{q}{name}{q}"), PY),
            r("topic", "provider", "amqplib", Some("rabbitmq"), &format!(r"\bsendToQueue\s*\(\s*{q}{name}{q}"), JS),
            r("topic", "provider", "amqplib", Some("rabbitmq"), &format!(r"\b(?:ch|channel)\s*\.\s*publish\s*\(\s*{q}[^'`\x22]*{q}\s*,\s*{q}{name}{q}"), JS),
            r("topic", "consumer", "amqplib", Some("rabbitmq"), &format!(r"\b(?:ch|channel)\s*\.\s*consume\s*\(\s*{q}{name}{q}"), JS),
            // SNS / SQS (the last segment of an ARN or queue URL).
            r("topic", "provider", "sns", Some("sns"), &format!(r"\bTopicArn\s*[:=]\s*{q}{name}{q}"), CODE),
            // WebSocket events (socket.io and the like).
            r("ws", "provider", "socket.io", None, &format!(r"\b(?:socket|io|ws|client|server|nsp|sio|room)\s*(?:\.\s*(?:to|in|broadcast)\s*(?:\([^)]*\))?)*\s*\.\s*emit\s*\(\s*{q}{name}{q}"), CODE),
            r("ws", "consumer", "socket.io", None, &format!(r"\b(?:socket|io|ws|client|server|nsp|sio)\s*\.\s*on\s*\(\s*{q}{name}{q}"), CODE),
            r("ws", "consumer", "socket.io", None, &format!(r"@\s*sio\s*\.\s*on\s*\(\s*{q}{name}{q}"), PY),
        ]
    })
}

/// Events every socket library emits itself: not contracts between services.
const RESERVED_EVENTS: &[&str] = &[
    "connect",
    "connection",
    "disconnect",
    "disconnecting",
    "error",
    "close",
    "open",
    "reconnect",
    "ping",
    "pong",
    "end",
    "data",
    "ready",
    "upgrade",
    "listening",
    "message",
    "connect_error",
];

/// The trigger words of every rule: files holding none are not read.
const TRIGGERS: &[&str] = &[
    "fetch",
    "axios",
    "http",
    "requests",
    "httpx",
    "session",
    "client",
    "Template",
    "uri(",
    "Register",
    "Client",
    "Servicer",
    "Stub",
    "addService",
    "ImplBase",
    "topic",
    "Topic",
    "KafkaConsumer",
    "ConsumePartition",
    "KafkaListener",
    "kafkaTemplate",
    "ublish",
    "ubscribe",
    "basic_",
    "sendToQueue",
    "consume",
    "emit",
    ".on(",
    "service ",
    "type Query",
    "type Mutation",
    "type Subscription",
    "query ",
    "mutation ",
    "subscription ",
    "openapi",
    "swagger",
    "ENV ",
    "environment:",
    "env:",
    "process.env",
    "environ",
    "getenv",
    "Getenv",
    "LookupEnv",
    "env::var",
    "import.meta.env",
    "@Query",
    "@Mutation",
    "=",
];

fn ext_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map_or("", |(_, e)| e)
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether a file is generated stub code (its `NewXClient` definitions are not uses).
fn generated_stub(path: &str) -> bool {
    let n = file_name(path);
    n.ends_with(".pb.go")
        || n.ends_with("_pb2_grpc.py")
        || n.ends_with("_pb2.py")
        || n.ends_with("_grpc_pb.js")
        || n.ends_with("_pb.js")
        || n.ends_with("_pb.d.ts")
}

/// `type` with list and non-null marks removed (`[User!]!` → `User`).
fn bare_type(t: &str) -> String {
    t.trim()
        .trim_matches(|c| c == '[' || c == ']' || c == '!')
        .trim_end_matches('!')
        .trim_matches(|c| c == '[' || c == ']')
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Block formats

/// `.proto`: every rpc of every service, with its package and message types.
fn proto_sites(lines: &[&str], out: &mut Vec<Raw>) {
    static SERVICE: OnceLock<Regex> = OnceLock::new();
    static RPC: OnceLock<Regex> = OnceLock::new();
    static PACKAGE: OnceLock<Regex> = OnceLock::new();
    let service = SERVICE.get_or_init(|| re(r"^\s*service\s+(\w+)\s*\{"));
    let rpc = RPC.get_or_init(|| {
        re(r"^\s*rpc\s+(\w+)\s*\(\s*(stream\s+)?([\w.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([\w.]+)\s*\)")
    });
    let package = PACKAGE.get_or_init(|| re(r"^\s*package\s+([\w.]+)\s*;"));
    let mut pkg: Option<String> = None;
    let mut current: Option<String> = None;
    for (i, l) in lines.iter().enumerate() {
        if let Some(c) = package.captures(l) {
            pkg = Some(c[1].to_string());
        } else if let Some(c) = service.captures(l) {
            current = Some(c[1].to_string());
            let mut raw = Raw::new(
                "grpc",
                "provider",
                format!("grpc::{}", &c[1]),
                c[1].to_string(),
                "proto",
                i as u32 + 1,
            );
            raw.package = pkg.clone();
            out.push(raw);
        } else if let (Some(svc), Some(c)) = (&current, rpc.captures(l)) {
            let mut raw = Raw::new(
                "grpc",
                "provider",
                format!("grpc::{svc}::{}", &c[1]),
                format!("{svc}.{}", &c[1]),
                "proto",
                i as u32 + 1,
            );
            raw.package = pkg.clone();
            raw.request_type = Some(c[3].to_string());
            raw.response_type = Some(c[5].to_string());
            raw.request_stream = c.get(2).is_some();
            raw.response_stream = c.get(4).is_some();
            out.push(raw);
        } else if l.trim_start().starts_with('}') && current.is_some() && !l.contains('{') {
            current = None;
        }
    }
}

/// GraphQL SDL blocks (`type Query { … }`, also inside template strings) and operations.
fn graphql_sites(lines: &[&str], operations: bool, out: &mut Vec<Raw>) {
    static TYPE: OnceLock<Regex> = OnceLock::new();
    static FIELD: OnceLock<Regex> = OnceLock::new();
    static OP: OnceLock<Regex> = OnceLock::new();
    static SELECTION: OnceLock<Regex> = OnceLock::new();
    let ty = TYPE.get_or_init(|| re(r"^\s*(?:extend\s+)?type\s+(Query|Mutation|Subscription)\b[^{]*\{\s*$"));
    let field = FIELD.get_or_init(|| re(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*([\[\]\w!]+)"));
    let op = OP.get_or_init(|| re(r"\b(query|mutation|subscription)\b\s*(\w+)?\s*(?:\([^)]*\))?\s*\{\s*(.*)$"));
    let selection = SELECTION.get_or_init(|| re(r"^\s*(?:\w+\s*:\s*)?(\w+)"));
    let mut root: Option<&'static str> = None;
    for (i, l) in lines.iter().enumerate() {
        if let Some(c) = ty.captures(l) {
            root = Some(match &c[1] {
                "Query" => "Query",
                "Mutation" => "Mutation",
                _ => "Subscription",
            });
            continue;
        }
        if let Some(r) = root {
            if l.trim_start().starts_with('}') {
                root = None;
                continue;
            }
            if let Some(c) = field.captures(l) {
                let mut raw = Raw::new(
                    "graphql",
                    "provider",
                    format!("graphql::{r}.{}", &c[1]),
                    format!("{r}.{}", &c[1]),
                    "sdl",
                    i as u32 + 1,
                );
                raw.response_type = Some(bare_type(&c[2]));
                out.push(raw);
            }
            continue;
        }
        if !operations {
            continue;
        }
        if let Some(c) = op.captures(l) {
            let root = match &c[1] {
                "query" => "Query",
                "mutation" => "Mutation",
                _ => "Subscription",
            };
            // The first selected field: on the same line, or the next non-empty one.
            let rest = c.get(3).map_or("", |m| m.as_str());
            let first = selection
                .captures(rest)
                .or_else(|| {
                    lines[i + 1..]
                        .iter()
                        .find(|x| !x.trim().is_empty())
                        .and_then(|x| selection.captures(x))
                })
                .map(|s| s[1].to_string());
            if let Some(f) = first {
                let mut raw = Raw::new(
                    "graphql",
                    "consumer",
                    format!("graphql::{root}.{f}"),
                    format!("{root}.{f}"),
                    "operation",
                    i as u32 + 1,
                );
                raw.request_type = c.get(2).map(|m| m.as_str().to_string());
                out.push(raw);
            }
        }
    }
}

/// OpenAPI / Swagger YAML: every operation under `paths:`, with the schemas its request body and
/// first response name.
fn openapi_yaml_sites(lines: &[&str], out: &mut Vec<Raw>) {
    static PATH: OnceLock<Regex> = OnceLock::new();
    static METHOD: OnceLock<Regex> = OnceLock::new();
    static REF: OnceLock<Regex> = OnceLock::new();
    let path_re = PATH.get_or_init(|| re(r#"^(\s+)['"]?(/[^'":]*)['"]?\s*:\s*$"#));
    let method_re = METHOD.get_or_init(|| re(r"^(\s+)(get|post|put|delete|patch|head|options)\s*:\s*$"));
    let ref_re = REF.get_or_init(|| re(r#"\$ref\s*:\s*['"]?#/(?:components/schemas|definitions)/([\w.-]+)"#));
    let indent = |l: &str| l.len() - l.trim_start().len();
    let Some(start) = lines.iter().position(|l| l.trim_end() == "paths:") else {
        return;
    };
    let base = indent(lines[start]);
    let mut path: Option<(usize, String)> = None;
    let mut op: Option<usize> = None; // index into out
    let mut section = "";
    // `items:` seen in this section: the schema named next is of an array's elements.
    let mut items = false;
    for (i, l) in lines.iter().enumerate().skip(start + 1) {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let ind = indent(l);
        if ind <= base {
            break;
        }
        if let Some(c) = path_re.captures(l) {
            if path.as_ref().is_none_or(|(pi, _)| ind <= *pi) {
                path = Some((ind, c[2].to_string()));
                op = None;
                continue;
            }
        }
        if let (Some((pi, p)), Some(c)) = (&path, method_re.captures(l)) {
            if ind > *pi {
                let method = c[2].to_ascii_uppercase();
                if let Some((canon, params)) = canonical_path(p) {
                    let mut raw = Raw::new(
                        "openapi",
                        "provider",
                        http_key(&method, &canon),
                        format!("{method} {p}"),
                        "openapi",
                        i as u32 + 1,
                    );
                    raw.method = Some(method);
                    raw.route = Some(p.clone());
                    raw.path_params = params;
                    out.push(raw);
                    op = Some(out.len() - 1);
                    section = "";
                }
                continue;
            }
        }
        if let Some(o) = op {
            let t = l.trim_start();
            if t.starts_with("requestBody:") {
                section = "request";
                items = false;
            } else if t.starts_with("responses:") {
                section = "response";
                items = false;
            } else if t.starts_with("items:") {
                items = true;
            }
            if let Some(c) = ref_re.captures(l) {
                let named = if items {
                    format!("{}[]", &c[1])
                } else {
                    c[1].to_string()
                };
                let raw = &mut out[o];
                match section {
                    "request" if raw.request_type.is_none() => raw.request_type = Some(named),
                    "response" if raw.response_type.is_none() => raw.response_type = Some(named),
                    _ => {}
                }
            }
        }
    }
}

/// OpenAPI / Swagger JSON.
fn openapi_json_sites(text: &str, lines: &[&str], out: &mut Vec<Raw>) {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some(paths) = doc.get("paths").and_then(|p| p.as_object()) else {
        return;
    };
    let schema_name = |v: Option<&serde_json::Value>| -> Option<String> {
        let content = v?.get("content")?.as_object()?;
        let schema = content.values().next()?.get("schema")?;
        if let Some(r) = schema.get("$ref").and_then(|r| r.as_str()) {
            return Some(r.rsplit('/').next()?.to_string());
        }
        let r = schema.get("items")?.get("$ref")?.as_str()?;
        Some(format!("{}[]", r.rsplit('/').next()?))
    };
    for (p, item) in paths {
        let line = lines
            .iter()
            .position(|l| l.contains(&format!("\"{p}\"")))
            .map_or(1, |i| i as u32 + 1);
        let Some(item) = item.as_object() else { continue };
        for (m, op) in item {
            let method = m.to_ascii_uppercase();
            if !["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"].contains(&method.as_str()) {
                continue;
            }
            let Some((canon, params)) = canonical_path(p) else {
                continue;
            };
            let mut raw = Raw::new(
                "openapi",
                "provider",
                http_key(&method, &canon),
                format!("{method} {p}"),
                "openapi",
                line,
            );
            raw.method = Some(method);
            raw.route = Some(p.clone());
            raw.path_params = params;
            raw.request_type = schema_name(op.get("requestBody"));
            raw.response_type = op.get("responses").and_then(|r| r.as_object()).and_then(|r| {
                ["200", "201", "default"]
                    .iter()
                    .find_map(|code| schema_name(r.get(*code)))
                    .or_else(|| r.values().find_map(|v| schema_name(Some(v))))
            });
            out.push(raw);
        }
    }
}

/// Environment variables a file defines: `.env*` files, Dockerfile `ENV`, and `env:` /
/// `environment:` blocks of Compose and Kubernetes YAML.
fn env_definitions(path: &str, lines: &[&str], out: &mut Vec<Raw>) {
    static ASSIGN: OnceLock<Regex> = OnceLock::new();
    static DOCKER: OnceLock<Regex> = OnceLock::new();
    static ITEM: OnceLock<Regex> = OnceLock::new();
    let assign = ASSIGN.get_or_init(|| re(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*="));
    let docker = DOCKER.get_or_init(|| re(r"^\s*ENV\s+([A-Za-z_][A-Za-z0-9_]*)[\s=]"));
    // `- name: X`, `- X=value`, `X: value` (inside an env block).
    let item = ITEM.get_or_init(|| re(r#"^\s*(?:-\s*name\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*$|-\s*["']?([A-Za-z_][A-Za-z0-9_]*)=|([A-Za-z_][A-Za-z0-9_]*)\s*:)"#));
    let name = file_name(path);
    let mut push = |n: &str, line: usize, source: &'static str| {
        out.push(Raw::new(
            "env",
            "provider",
            format!("env::{n}"),
            n.to_string(),
            source,
            line as u32 + 1,
        ));
    };
    if name.starts_with(".env") || name.ends_with(".env") {
        for (i, l) in lines.iter().enumerate() {
            if let Some(c) = assign.captures(l) {
                push(&c[1], i, "dotenv");
            }
        }
        return;
    }
    if name == "Dockerfile" || name.starts_with("Dockerfile.") || name.ends_with(".dockerfile") {
        for (i, l) in lines.iter().enumerate() {
            if let Some(c) = docker.captures(l) {
                push(&c[1], i, "dockerfile");
            }
        }
        return;
    }
    if !matches!(ext_of(path), "yml" | "yaml") {
        return;
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut block: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let t = l.trim_start();
        if let Some(b) = block {
            if indent(l) <= b && !t.starts_with('-') || indent(l) < b {
                block = None;
            }
        }
        if t == "env:" || t == "environment:" || t == "- env:" {
            block = Some(indent(l));
            continue;
        }
        if block.is_some() {
            if let Some(c) = item.captures(l) {
                let n = c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str()).unwrap_or("");
                // Kubernetes' `value:` / `valueFrom:` keys are not variables.
                if !n.is_empty()
                    && n != "value"
                    && n != "valueFrom"
                    && n != "name"
                    && n.chars().any(|ch| ch.is_ascii_uppercase())
                {
                    push(n, i, "manifest");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------

/// Every contract site of the repository.
pub fn contract_sites(idx: &TextIndex, g: &Graph, args: &ContractSitesArgs) -> Result<ContractSitesResult, QueryError> {
    let limit = match args.limit {
        None => DEFAULT_LIMIT,
        Some(n) if (1..=MAX_ROWS).contains(&n) => n,
        Some(n) => return Err(QueryError::invalid(format!("limit must be 1..={MAX_ROWS}, got {n}"))),
    };
    let kinds: Vec<&str> = match &args.kinds {
        None => CONTRACT_KINDS.to_vec(),
        Some(ks) => {
            let mut out = Vec::new();
            for k in ks {
                let Some(known) = CONTRACT_KINDS.iter().find(|c| **c == k.trim()) else {
                    return Err(QueryError::invalid(format!(
                        "kinds: `{k}` is not one of {}",
                        CONTRACT_KINDS.join(", ")
                    )));
                };
                out.push(*known);
            }
            out
        }
    };
    let wants = |k: &str| kinds.contains(&k);
    let filter = PathFilter::parse("path_prefix", args.path_prefix.as_deref())?;
    let mut rows: Vec<(String, Raw)> = Vec::new();

    // HTTP providers: the routes analysis (handlers resolved there).
    if wants("http") {
        let found = routes(
            idx,
            g,
            &RoutesArgs {
                limit: Some(1000),
                path_prefix: args.path_prefix.clone(),
                ..Default::default()
            },
        )?;
        for r in found.routes {
            let Some((canon, params)) = canonical_path(&r.route) else {
                continue;
            };
            let mut raw = Raw::new(
                "http",
                "provider",
                http_key(&r.method, &canon),
                format!("{} {}", r.method, r.route),
                r.framework,
                r.line,
            );
            raw.method = Some(r.method.clone());
            raw.route = Some(r.route.clone());
            raw.path_params = params;
            raw.handler = r.handler.as_ref().and_then(|h| g.lookup(&h.id));
            rows.push((r.path.clone(), raw));
        }
    }

    let triggers = TrigramQuery::or(TRIGGERS.iter().map(|t| TrigramQuery::literal(t.as_bytes())).collect());
    static RESPONSE_MODEL: OnceLock<Regex> = OnceLock::new();
    let response_model = RESPONSE_MODEL.get_or_init(|| re(r"response_model\s*=\s*([\w.\[\]]+)"));
    for id in idx.candidates(&triggers) {
        let path = idx.doc_path(id).to_string();
        if path.is_empty() || !filter.matches(&path) {
            continue;
        }
        let Ok(content) = idx.doc_content(id) else { continue };
        let text = String::from_utf8_lossy(&content);
        let lines: Vec<&str> = text.lines().collect();
        let ext = ext_of(&path);
        let mut found: Vec<Raw> = Vec::new();
        if ext == "proto" {
            if wants("grpc") {
                proto_sites(&lines, &mut found);
            }
        } else if matches!(ext, "graphql" | "gql" | "graphqls") {
            if wants("graphql") {
                graphql_sites(&lines, true, &mut found);
            }
        } else if matches!(ext, "yaml" | "yml" | "json")
            && (text.contains("openapi") || text.contains("swagger"))
            && text.contains("paths")
        {
            if wants("openapi") {
                if ext == "json" {
                    openapi_json_sites(&text, &lines, &mut found);
                } else {
                    openapi_yaml_sites(&lines, &mut found);
                }
            }
        } else if CODE.contains(&ext) || JS.contains(&ext) {
            if wants("graphql")
                && (text.contains("type Query")
                    || text.contains("type Mutation")
                    || text.contains("gql")
                    || text.contains("graphql"))
            {
                graphql_sites(&lines, text.contains("gql") || text.contains("graphql"), &mut found);
            }
            let stub = generated_stub(&path);
            for (i, l) in lines.iter().enumerate() {
                let t = l.trim_start();
                if t.starts_with("//") || t.starts_with('#') || t.starts_with('*') || t.starts_with("/*") {
                    continue;
                }
                if wants("http") {
                    for rule in client_rules().iter().filter(|r| r.exts.contains(&ext)) {
                        for c in rule.re.captures_iter(l) {
                            let open = c.name("o").expect("group o").start();
                            let Some(url) = url_template(l, open) else { continue };
                            let Some((canon, params)) = canonical_path(&url) else {
                                continue;
                            };
                            let method = match (c.name("m"), rule.fixed) {
                                (Some(m), _) => method_of(m.as_str()),
                                (None, Some(f)) => f.to_string(),
                                (None, None) => {
                                    static METHOD: OnceLock<Regex> = OnceLock::new();
                                    let m = METHOD.get_or_init(|| re(r#"method\s*:\s*['"`](\w+)['"`]"#));
                                    m.captures(&l[open..])
                                        .map_or("GET".to_string(), |m| m[1].to_ascii_uppercase())
                                }
                            };
                            let mut raw = Raw::new(
                                "http",
                                "consumer",
                                http_key(&method, &canon),
                                format!("{method} {url}"),
                                rule.source,
                                i as u32 + 1,
                            );
                            raw.method = Some(method);
                            raw.route = Some(url);
                            raw.path_params = params;
                            raw.response_type = c.name("t").map(|t| t.as_str().to_string());
                            found.push(raw);
                        }
                    }
                    // Go `http.NewRequest("POST", url, body)`.
                    if ext == "go" {
                        static NEWREQ: OnceLock<Regex> = OnceLock::new();
                        let nr = NEWREQ.get_or_init(|| re(r#"\bhttp\.NewRequest(?:WithContext)?\s*\(\s*(?:\w+\s*,\s*)?(?:"(?P<m>[A-Z]+)"|http\.Method(?P<m2>\w+))\s*(?P<o>,)"#));
                        if let Some(c) = nr.captures(l) {
                            let method = c
                                .name("m")
                                .or(c.name("m2"))
                                .map(|m| m.as_str().to_ascii_uppercase())
                                .unwrap_or_default();
                            let open = c.name("o").expect("group").start();
                            if let Some(url) = url_template(l, open) {
                                if let Some((canon, params)) = canonical_path(&url) {
                                    let mut raw = Raw::new(
                                        "http",
                                        "consumer",
                                        http_key(&method, &canon),
                                        format!("{method} {url}"),
                                        "net/http",
                                        i as u32 + 1,
                                    );
                                    raw.method = Some(method);
                                    raw.route = Some(url);
                                    raw.path_params = params;
                                    found.push(raw);
                                }
                            }
                        }
                    }
                }
                for rule in line_rules().iter().filter(|r| r.exts.contains(&ext) && wants(r.kind)) {
                    if rule.kind == "grpc" && stub {
                        continue;
                    }
                    for c in rule.re.captures_iter(l) {
                        let mut n = c["n"].to_string();
                        if rule.kind == "ws" && RESERVED_EVENTS.contains(&n.as_str()) {
                            continue;
                        }
                        if rule.broker == Some("sns") {
                            n = n.rsplit([':', '/']).next().unwrap_or(&n).to_string();
                        }
                        // `new Foo(addr, grpc.credentials…)` with a `Client` suffix already trimmed by the pattern.
                        let key = match rule.kind {
                            "grpc" => format!("grpc::{n}"),
                            "topic" => format!("topic::{n}"),
                            _ => format!("ws::{n}"),
                        };
                        let mut raw = Raw::new(rule.kind, rule.role, key, n, rule.source, i as u32 + 1);
                        raw.broker = rule.broker;
                        found.push(raw);
                    }
                }
                // SQS: the queue URL's role is the call it is passed to.
                if wants("topic") && l.contains("QueueUrl") {
                    static QUEUE: OnceLock<Regex> = OnceLock::new();
                    let q = QUEUE.get_or_init(|| re(r#"\bQueueUrl\s*[:=]\s*['"`]([^'"`]+)['"`]"#));
                    if let Some(c) = q.captures(l) {
                        let around = lines[i.saturating_sub(3)..(i + 1).min(lines.len())].join("\n");
                        let role = if around.contains("eceiveMessage") {
                            "consumer"
                        } else {
                            "provider"
                        };
                        let n = c[1].rsplit('/').next().unwrap_or(&c[1]).to_string();
                        let mut raw = Raw::new("topic", role, format!("topic::{n}"), n, "sqs", i as u32 + 1);
                        raw.broker = Some("sqs");
                        found.push(raw);
                    }
                }
                if wants("env") {
                    for p in env_patterns() {
                        for c in p.captures_iter(l) {
                            found.push(Raw::new(
                                "env",
                                "consumer",
                                format!("env::{}", &c[1]),
                                c[1].to_string(),
                                "code",
                                i as u32 + 1,
                            ));
                        }
                    }
                }
                // FastAPI's `response_model=` on a route decorator types the route below it.
                if let Some(c) = response_model.captures(l) {
                    let line = i as u32 + 1;
                    if let Some((_, route)) = rows
                        .iter_mut()
                        .rev()
                        .find(|(p, r)| *p == path && r.line == line && r.role == "provider")
                    {
                        route.response_type = Some(c[1].to_string());
                    }
                }
            }
        }
        if wants("env") {
            env_definitions(&path, &lines, &mut found);
        }
        rows.extend(found.into_iter().map(|r| (path.clone(), r)));
    }

    let mut sites: Vec<ContractSite> = rows
        .into_iter()
        .map(|(path, r)| {
            let symbol = r.handler.or_else(|| {
                enclosing_chain(g, &path, r.line)
                    .first()
                    .copied()
                    .filter(|&i| g.node_at(i).kind != NodeKind::File)
            });
            let summary = symbol.map(|i| NodeSummary::at(g, i));
            let test = summary.as_ref().is_some_and(|s| s.is_test) || is_test_path(&path);
            // A Spring handler states its response type in its signature.
            let response_type = r.response_type.or_else(|| {
                summary
                    .as_ref()
                    .filter(|_| r.kind == "http" && r.role == "provider")
                    .and_then(|s| s.signature.as_deref())
                    .and_then(response_type_of_signature)
            });
            ContractSite {
                kind: r.kind,
                role: r.role,
                key: r.key,
                name: r.name,
                source: r.source,
                path,
                line: r.line,
                symbol: summary,
                method: r.method,
                route: r.route,
                path_params: r.path_params,
                request_type: r.request_type,
                response_type,
                request_stream: r.request_stream,
                response_stream: r.response_stream,
                broker: r.broker,
                package: r.package,
                test,
            }
        })
        .collect();
    sites.sort_by(|a, b| {
        a.kind
            .cmp(b.kind)
            .then_with(|| a.key.cmp(&b.key))
            .then_with(|| a.role.cmp(b.role))
            .then_with(|| a.path.cmp(&b.path))
            .then(a.line.cmp(&b.line))
    });
    sites.dedup_by(|a, b| a.key == b.key && a.role == b.role && a.path == b.path && a.line == b.line);
    let mut counts = BTreeMap::new();
    for s in &sites {
        *counts.entry(format!("{}.{}", s.kind, s.role)).or_insert(0) += 1;
    }
    let total = sites.len();
    sites.truncate(limit);
    Ok(ContractSitesResult {
        truncated: total > sites.len(),
        total,
        counts,
        sites,
        evidence: "text",
    })
}

/// `ResponseEntity<User>` or a Java/Kotlin method's declared return type, from a signature.
fn response_type_of_signature(sig: &str) -> Option<String> {
    static ENTITY: OnceLock<Regex> = OnceLock::new();
    let e = ENTITY.get_or_init(|| re(r"(?:ResponseEntity|Mono|Flux|List)<\s*([\w.]+)\s*>"));
    e.captures(sig).map(|c| c[1].to_string())
}

fn is_test_path(path: &str) -> bool {
    let n = file_name(path);
    path.split('/')
        .any(|d| d == "test" || d == "tests" || d == "__tests__" || d == "spec")
        || n.contains(".test.")
        || n.contains(".spec.")
        || n.ends_with("_test.go")
        || n.starts_with("test_")
        || n.ends_with("_test.py")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_canonical() {
        let c = |s: &str| canonical_path(s).map(|(p, params)| (p, params.join(",")));
        assert_eq!(c("/users/:id"), Some(("/users/{}".into(), "id".into())));
        assert_eq!(
            c("/users/{user_id}/orders"),
            Some(("/users/{}/orders".into(), "user_id".into()))
        );
        assert_eq!(c("/users/<int:uid>"), Some(("/users/{}".into(), "uid".into())));
        assert_eq!(
            c("${API_BASE}/users/${id}?full=1"),
            Some(("/users/{}".into(), "API_BASE,id".into()))
        );
        assert_eq!(
            c("https://api.example.com/v1/items/%d"),
            Some(("/v1/items/{}".into(), "".into()))
        );
        assert_eq!(c("/health/"), Some(("/health".into(), "".into())));
        assert_eq!(c("/"), Some(("/".into(), "".into())));
    }

    #[test]
    fn url_templates_join_literals_and_operands() {
        let t = |s: &str| url_template(s, s.find('(').unwrap());
        assert_eq!(
            t("fetch(`${BASE}/users/${id}`, { method: 'DELETE' })").as_deref(),
            Some("{BASE}/users/{id}")
        );
        assert_eq!(
            t(r#"http.Get(base + "/orders/" + id)"#).as_deref(),
            Some("{}/orders/{}")
        );
        assert_eq!(
            t(r#"requests.get(f"{USERS}/users/{uid}", timeout=3)"#).as_deref(),
            Some("{USERS}/users/{uid}")
        );
        assert_eq!(
            t(r#"http.Get(fmt.Sprintf("%s/orders/%d", base, id))"#).as_deref(),
            Some("%s/orders/%d")
        );
        assert_eq!(t("fetch(url)"), None);
    }

    fn summary(rows: &[Raw]) -> Vec<String> {
        rows.iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {:?} {:?}",
                    r.kind, r.role, r.key, r.line, r.request_type, r.response_type
                )
            })
            .collect()
    }

    #[test]
    fn proto_services_methods_and_streams() {
        let text = "syntax = \"proto3\";\npackage shop.v1;\nservice Cart {\n  rpc Add (AddReq) returns (CartReply);\n  rpc Watch (WatchReq) returns (stream CartReply) {}\n}\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        proto_sites(&lines, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "grpc provider grpc::Cart 3 None None",
                "grpc provider grpc::Cart::Add 4 Some(\"AddReq\") Some(\"CartReply\")",
                "grpc provider grpc::Cart::Watch 5 Some(\"WatchReq\") Some(\"CartReply\")",
            ]
        );
        assert!(out[2].response_stream && !out[2].request_stream);
        assert_eq!(out[0].package.as_deref(), Some("shop.v1"));
    }

    #[test]
    fn graphql_schema_fields_and_operation_roots() {
        let text = "type Query {\n  cart(id: ID!): Cart\n  carts: [Cart!]!\n}\nconst Q = gql`\n  mutation AddItem($id: ID!) {\n    addItem(id: $id) { id }\n  }\n`;\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        graphql_sites(&lines, true, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "graphql provider graphql::Query.cart 2 None Some(\"Cart\")",
                "graphql provider graphql::Query.carts 3 None Some(\"Cart\")",
                "graphql consumer graphql::Mutation.addItem 6 Some(\"AddItem\") None",
            ]
        );
    }

    #[test]
    fn openapi_yaml_operations_with_their_schemas() {
        let text = "openapi: 3.0.0\npaths:\n  /carts/{id}:\n    get:\n      responses:\n        '200':\n          content:\n            application/json:\n              schema:\n                type: array\n                items:\n                  $ref: '#/components/schemas/Cart'\n    put:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              $ref: '#/components/schemas/CartInput'\n      responses:\n        '200':\n          description: ok\ncomponents:\n  schemas: {}\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        openapi_yaml_sites(&lines, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "openapi provider http::GET::/carts/{} 4 None Some(\"Cart[]\")",
                "openapi provider http::PUT::/carts/{} 13 Some(\"CartInput\") None",
            ]
        );
    }

    #[test]
    fn environment_definitions_in_dotenv_dockerfile_compose_and_kubernetes() {
        let mut out = Vec::new();
        env_definitions(
            ".env.example",
            &["# comment", "export API_URL=http://x", "TOKEN="],
            &mut out,
        );
        env_definitions("Dockerfile", &["FROM x", "ENV PORT=8080", "ENV MODE prod"], &mut out);
        env_definitions(
            "deploy/app.yaml",
            &[
                "spec:",
                "  containers:",
                "    - name: app",
                "      env:",
                "        - name: DB_HOST",
                "          value: db",
                "        - name: DB_PORT",
                "      image: app",
            ],
            &mut out,
        );
        env_definitions(
            "docker-compose.yml",
            &[
                "services:",
                "  a:",
                "    environment:",
                "      - QUEUE=jobs",
                "    ports: []",
            ],
            &mut out,
        );
        let names: Vec<&str> = out.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["API_URL", "TOKEN", "PORT", "MODE", "DB_HOST", "DB_PORT", "QUEUE"]
        );
    }
}
