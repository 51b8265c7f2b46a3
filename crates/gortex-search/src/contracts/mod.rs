//! Service contracts of one repository: who provides and who consumes HTTP endpoints, gRPC
//! services, GraphQL fields, message topics, WebSocket events and environment variables, and the
//! operations OpenAPI documents declare. Each site gets a canonical key (`http::GET::/users/{}`,
//! `grpc::UserService`, `graphql::Query.user`, `topic::orders`, `ws::order:created`,
//! `env::DATABASE_URL`) so sites in different repositories can be matched by key alone (the
//! workspace does that). Text evidence, like `routes`: one pass over the files that may hold a
//! trigger word, line rules per language family, small state machines for the block formats
//! (`.proto`, GraphQL SDL, OpenAPI YAML, `environment:` / `env:` blocks); every row is tied to the
//! graph symbol around it.

mod blocks;
mod paths;

pub use paths::canonical_path;

use crate::sites::{all_routes, env_patterns, RoutesArgs};
use crate::text::{enclosing_chain, PathFilter};
use crate::trigram::{TextIndex, TrigramQuery};
use blocks::{env_definitions, graphql_sites, openapi_json_sites, openapi_yaml_sites, proto_sites};
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use paths::url_template;
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
pub const MAX_ROWS: usize = 20_000;

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

pub(crate) fn re(p: &str) -> Regex {
    Regex::new(p).expect("static pattern")
}

/// A site before its symbol is looked up.
pub(crate) struct Raw {
    pub(crate) kind: &'static str,
    pub(crate) role: &'static str,
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) source: &'static str,
    pub(crate) line: u32,
    pub(crate) method: Option<String>,
    pub(crate) route: Option<String>,
    pub(crate) path_params: Vec<String>,
    pub(crate) request_type: Option<String>,
    pub(crate) response_type: Option<String>,
    pub(crate) request_stream: bool,
    pub(crate) response_stream: bool,
    pub(crate) broker: Option<&'static str>,
    pub(crate) package: Option<String>,
    pub(crate) handler: Option<NodeIndex>,
}

impl Raw {
    /// An HTTP site (a route, a call, a documented operation) of `method` on the path as written,
    /// keyed by its canonical form; `None` when the path has no usable form.
    pub(crate) fn http(
        kind: &'static str,
        role: &'static str,
        source: &'static str,
        line: u32,
        method: String,
        route: String,
    ) -> Option<Raw> {
        let (canon, params) = canonical_path(&route)?;
        let mut raw = Raw::new(
            kind,
            role,
            http_key(&method, &canon),
            format!("{method} {route}"),
            source,
            line,
        );
        raw.method = Some(method);
        raw.route = Some(route);
        raw.path_params = params;
        Some(raw)
    }

    pub(crate) fn new(
        kind: &'static str,
        role: &'static str,
        key: String,
        name: String,
        source: &'static str,
        line: u32,
    ) -> Raw {
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

pub(crate) fn http_key(method: &str, path: &str) -> String {
    format!("http::{method}::{path}")
}

/// An HTTP consumer rule: where the call is; the method (a group `m`, or fixed); a response type group `t`.
struct ClientRule {
    source: &'static str,
    re: Regex,
    fixed: Option<&'static str>,
    /// Which extensions it applies to.
    exts: &'static [&'static str],
    /// A line holding none of these cannot match (checked before the regex runs).
    needs: &'static [&'static str],
}

const JS: &[&str] = &["js", "jsx", "ts", "tsx", "mjs", "cjs", "vue", "svelte"];
const PY: &[&str] = &["py"];
const GO: &[&str] = &["go"];
const JVM: &[&str] = &["java", "kt"];

fn client_rules() -> &'static [ClientRule] {
    static R: OnceLock<Vec<ClientRule>> = OnceLock::new();
    R.get_or_init(|| {
        let rule = |source, p: &str, fixed, exts, needs| ClientRule { source, re: re(p), fixed, exts, needs };
        vec![
            rule("fetch", r"\bfetch\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()", None, JS, &["fetch"]),
            rule("axios", r"\baxios\s*\.\s*(?P<m>get|post|put|delete|patch|head)\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()", None, JS, &["axios"]),
            rule(
                "http-client",
                r"\b(?:this\.)?(?:http|httpClient|client|ky|\$http|superagent|request)\s*\.\s*(?P<m>get|post|put|delete|patch)\s*(?:<(?P<t>[\w.\[\]]+)>)?\s*(?P<o>\()",
                None,
                JS, &["http", "lient", "ky", "superagent", "request"]
            ),
            rule(
                "requests",
                r"\b(?:requests|httpx|session|client|self\.\w+|aiohttp\.\w+)\s*\.\s*(?P<m>get|post|put|delete|patch|head)\s*(?P<o>\()",
                None,
                PY, &["requests", "httpx", "session", "client", "self.", "aiohttp"]
            ),
            rule("net/http", r"\bhttp\.(?P<m>Get|Post|Head|PostForm)\s*(?P<o>\()", None, GO, &["http."]),
            rule("resttemplate", r"\b\w*[Tt]emplate\s*\.\s*(?P<m>getForObject|getForEntity|postForObject|postForEntity|put|delete|patchForObject)\s*(?P<o>\()", None, JVM, &["emplate"]),
            rule("webclient", r"\.\s*(?P<m>get|post|put|delete|patch)\s*\(\s*\)\s*\.\s*uri\s*(?P<o>\()", None, JVM, &["uri"]),
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
    /// A line holding none of these cannot match.
    needs: &'static [&'static str],
}

const CODE: &[&str] = &[
    "js", "jsx", "ts", "tsx", "mjs", "cjs", "py", "go", "java", "kt", "rb", "cs", "rs", "php",
];

fn line_rules() -> &'static [LineRule] {
    static R: OnceLock<Vec<LineRule>> = OnceLock::new();
    R.get_or_init(|| {
        let r = |kind, role, source, broker, p: &str, exts, needs| LineRule { kind, role, source, broker, re: re(p), exts, needs };
        let q = r#"['"`]"#;
        let name = r#"(?P<n>[^'"`\s]+)"#;
        vec![
            // gRPC servers and clients (the service's short name).
            r("grpc", "provider", "grpc-go", None, r"\bRegister(?P<n>\w+)Server\s*\(", GO, &["Register"]),
            r("grpc", "consumer", "grpc-go", None, r"\bNew(?P<n>\w+)Client\s*\(", GO, &["Client"]),
            r("grpc", "provider", "grpc-python", None, r"\badd_(?P<n>\w+)Servicer_to_server\s*\(", PY, &["Servicer_to_server"]),
            r("grpc", "consumer", "grpc-python", None, r"\b(?:\w+\.)?(?P<n>\w+)Stub\s*\(", PY, &["Stub"]),
            r("grpc", "provider", "grpc-node", None, r"\.addService\s*\(\s*(?:[\w$]+\.)*(?P<n>\w+)\.service\b", JS, &["addService"]),
            r("grpc", "consumer", "grpc-node", None, r"\bnew\s+(?:[\w$]+\.)*(?P<n>\w+?)(?:Client)?\s*\([^)]*grpc\.credentials", JS, &["credentials"]),
            r("grpc", "provider", "grpc-java", None, r"\bextends\s+(?P<n>\w+)Grpc\.\w+ImplBase\b", JVM, &["ImplBase"]),
            r("grpc", "consumer", "grpc-java", None, r"\b(?P<n>\w+)Grpc\.new(?:Blocking|Future)?Stub\s*\(", JVM, &["Stub"]),
            // Kafka.
            r("topic", "provider", "kafkajs", Some("kafka"), &format!(r"\.send\s*\(\s*\{{\s*topic\s*:\s*{q}{name}{q}"), JS, &["topic"]),
            r("topic", "consumer", "kafkajs", Some("kafka"), &format!(r"\.subscribe\s*\(\s*\{{\s*topics?\s*:\s*\[?\s*{q}{name}{q}"), JS, &["subscribe"]),
            r("topic", "provider", "kafka-python", Some("kafka"), &format!(r"\b\w*(?:producer|Producer)\w*\s*\.\s*(?:send|produce)\s*\(\s*(?:topic\s*=\s*)?{q}{name}{q}"), PY, &["roducer"]),
            r("topic", "consumer", "kafka-python", Some("kafka"), &format!(r"\bKafkaConsumer\s*\(\s*{q}{name}{q}"), PY, &["KafkaConsumer"]),
            r("topic", "consumer", "kafka-python", Some("kafka"), &format!(r"\b\w*(?:consumer|Consumer)\w*\s*\.\s*subscribe\s*\(\s*\[\s*{q}{name}{q}"), PY, &["subscribe"]),
            r("topic", "provider", "sarama", Some("kafka"), r#"ProducerMessage\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO, &["ProducerMessage"]),
            r("topic", "consumer", "sarama", Some("kafka"), r#"\bConsumePartition\s*\(\s*"(?P<n>[^"]+)""#, GO, &["ConsumePartition"]),
            r("topic", "provider", "kafka-go", Some("kafka"), r#"kafka\.(?:Writer|WriterConfig)\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO, &["kafka."]),
            r("topic", "consumer", "kafka-go", Some("kafka"), r#"kafka\.(?:Reader|ReaderConfig)\s*\{[^}]*Topic\s*:\s*"(?P<n>[^"]+)""#, GO, &["kafka."]),
            r("topic", "provider", "spring-kafka", Some("kafka"), r#"\bkafkaTemplate\s*\.\s*send\s*\(\s*"(?P<n>[^"]+)""#, JVM, &["kafkaTemplate"]),
            r("topic", "consumer", "spring-kafka", Some("kafka"), r#"@KafkaListener\s*\([^)]*topics\s*=\s*\{?\s*"(?P<n>[^"]+)""#, JVM, &["KafkaListener"]),
            // NATS.
            r("topic", "provider", "nats", Some("nats"), &format!(r"\b(?:nc|nats|conn|js|natsConn|natsClient)\s*\.\s*(?:Publish|publish|Request|request)\s*\(\s*{q}{name}{q}"), CODE, &["ublish", "equest"]),
            r("topic", "consumer", "nats", Some("nats"), &format!(r"\b(?:nc|nats|conn|js|natsConn|natsClient)\s*\.\s*(?:Subscribe|subscribe|QueueSubscribe|queueSubscribe|queue_subscribe|ChanSubscribe)\s*\(\s*{q}{name}{q}"), CODE, &["ubscribe"]),
            // RabbitMQ.
            r("topic", "provider", "pika", Some("rabbitmq"), &format!(r"\bbasic_publish\s*\(.*routing_key\s*=\s*{q}{name}{q}"), PY, &["basic_publish"]),
            r("topic", "consumer", "pika", Some("rabbitmq"), &format!(r"\bbasic_consume\s*\(\s*(?:queue\s*=\s*)?{q}{name}{q}"), PY, &["basic_consume"]),
            r("topic", "provider", "amqplib", Some("rabbitmq"), &format!(r"\bsendToQueue\s*\(\s*{q}{name}{q}"), JS, &["sendToQueue"]),
            r("topic", "provider", "amqplib", Some("rabbitmq"), &format!(r"\b(?:ch|channel)\s*\.\s*publish\s*\(\s*{q}[^'`\x22]*{q}\s*,\s*{q}{name}{q}"), JS, &["publish"]),
            r("topic", "consumer", "amqplib", Some("rabbitmq"), &format!(r"\b(?:ch|channel)\s*\.\s*consume\s*\(\s*{q}{name}{q}"), JS, &["consume"]),
            // SNS / SQS (the last segment of an ARN or queue URL).
            r("topic", "provider", "sns", Some("sns"), &format!(r"\bTopicArn\s*[:=]\s*{q}{name}{q}"), CODE, &["TopicArn"]),
            // WebSocket events (socket.io and the like).
            r("ws", "provider", "socket.io", None, &format!(r"\b(?:socket|io|ws|client|server|nsp|sio|room)\s*(?:\.\s*(?:to|in|broadcast)\s*(?:\([^)]*\))?)*\s*\.\s*emit\s*\(\s*{q}{name}{q}"), CODE, &["emit"]),
            r("ws", "consumer", "socket.io", None, &format!(r"\b(?:socket|io|ws|client|server|nsp|sio)\s*\.\s*on\s*\(\s*{q}{name}{q}"), CODE, &["on"]),
            r("ws", "consumer", "socket.io", None, &format!(r"@\s*sio\s*\.\s*on\s*\(\s*{q}{name}{q}"), PY, &["sio"]),
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

pub(crate) fn ext_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map_or("", |(_, e)| e)
}

pub(crate) fn file_name(path: &str) -> &str {
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
pub(crate) fn bare_type(t: &str) -> String {
    t.trim()
        .trim_matches(|c| c == '[' || c == ']' || c == '!')
        .trim_end_matches('!')
        .trim_matches(|c| c == '[' || c == ']')
        .to_string()
}

// ---------------------------------------------------------------------------------------------

/// Every contract site of the repository.
pub fn contract_sites(idx: &TextIndex, g: &Graph, args: &ContractSitesArgs) -> Result<ContractSitesResult, QueryError> {
    check_rows(args.limit)?;
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
        let found = all_routes(
            idx,
            g,
            &RoutesArgs {
                path_prefix: args.path_prefix.clone(),
                ..Default::default()
            },
        )?;
        for r in found.routes {
            let Some(mut raw) = Raw::http(
                "http",
                "provider",
                r.framework,
                r.line,
                r.method.clone(),
                r.route.clone(),
            ) else {
                continue;
            };
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
            let candidates = candidate_lines(&text);
            for (i, l) in lines.iter().enumerate() {
                if !candidates.contains(&(i as u32)) {
                    continue;
                }
                let t = l.trim_start();
                if t.starts_with("//") || t.starts_with('#') || t.starts_with('*') || t.starts_with("/*") {
                    continue;
                }
                if wants("http") {
                    for rule in client_rules()
                        .iter()
                        .filter(|r| r.exts.contains(&ext) && r.needs.iter().any(|n| l.contains(n)))
                    {
                        for c in rule.re.captures_iter(l) {
                            let open = c.name("o").expect("group o").start();
                            let Some(url) = url_template(l, open) else { continue };
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
                            let Some(mut raw) = Raw::http("http", "consumer", rule.source, i as u32 + 1, method, url)
                            else {
                                continue;
                            };
                            raw.response_type = c.name("t").map(|t| t.as_str().to_string());
                            found.push(raw);
                        }
                    }
                    // Go `http.NewRequest("POST", url, body)`.
                    if ext == "go" && l.contains("NewRequest") {
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
                                found.extend(Raw::http("http", "consumer", "net/http", i as u32 + 1, method, url));
                            }
                        }
                    }
                }
                for rule in line_rules()
                    .iter()
                    .filter(|r| r.exts.contains(&ext) && wants(r.kind) && r.needs.iter().any(|n| l.contains(n)))
                {
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
                if wants("env") && (l.contains("env") || l.contains("Env") || l.contains("environ")) {
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
                if let Some(c) = l
                    .contains("response_model")
                    .then(|| response_model.captures(l))
                    .flatten()
                {
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
    limited(
        ContractSitesResult {
            truncated: false,
            total,
            counts,
            sites,
            evidence: "text",
        },
        args.limit,
    )
}

/// The rows a `limit` allows (1..=20000, default 1000), or why it is not one.
fn check_rows(limit: Option<usize>) -> Result<usize, QueryError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(n) if (1..=MAX_ROWS).contains(&n) => Ok(n),
        Some(n) => Err(QueryError::invalid(format!("limit must be 1..={MAX_ROWS}, got {n}"))),
    }
}

/// `result` cut to `limit` rows (its totals and counts stay those of every site).
pub fn limited(mut result: ContractSitesResult, limit: Option<usize>) -> Result<ContractSitesResult, QueryError> {
    let limit = check_rows(limit)?;
    result.truncated = result.total > limit;
    result.sites.truncate(limit);
    Ok(result)
}

/// Every literal some line rule needs, in one automaton.
fn needles() -> &'static aho_corasick::AhoCorasick {
    static A: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    A.get_or_init(|| {
        let mut words: Vec<&'static str> = client_rules().iter().flat_map(|r| r.needs.iter().copied()).collect();
        words.extend(line_rules().iter().flat_map(|r| r.needs.iter().copied()));
        words.extend(["env", "Env", "environ", "NewRequest", "QueueUrl", "response_model"]);
        words.sort_unstable();
        words.dedup();
        aho_corasick::AhoCorasick::new(words).expect("static needles")
    })
}

/// The 0-based lines of `text` holding at least one needle: one pass of the automaton over the
/// file instead of every rule's check on every line.
fn candidate_lines(text: &str) -> rustc_hash::FxHashSet<u32> {
    let mut out = rustc_hash::FxHashSet::default();
    let mut line = 0u32;
    let mut counted = 0usize;
    for m in needles().find_iter(text) {
        line += memchr::memchr_iter(b'\n', &text.as_bytes()[counted..m.start()]).count() as u32;
        counted = m.start();
        out.insert(line);
    }
    out
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
