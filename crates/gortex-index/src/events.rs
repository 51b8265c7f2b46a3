//! The runtime-event kinds of `analyze`, read from the syntax trees (a structural sweep,
//! `evidence: "ast"`):
//!
//! - **`log_events`**: log calls with a literal message — Go `log.*`, `slog.*` and logger methods
//!   (`logger.Info("…")`), Python `logging.*` / `logger.*`, JavaScript and TypeScript `console.*`
//!   and logger methods, Java SLF4J/Log4j-style `log.info("…")`, Rust `info!("…")` and friends —
//!   each with its level, message, function and file; grouped by message. Go's `fmt.Errorf` /
//!   `errors.*` build errors and `t.Errorf` reports a test failure: neither is a log event.
//! - **`event_emitters`**: events named by a string — JavaScript and TypeScript `.emit("x")`,
//!   `.on` / `.once` / `.addListener` / `.addEventListener("x", …)`, `new CustomEvent("x")` /
//!   `new Event("x")`; Python `.emit("x")` and `.on("x")` (Socket.IO, blinker-style signals) —
//!   paired by name: who emits each event, who listens, and the events only one side names
//!   (emitted with no listener, or listened for and never emitted here).
//! - **`config_readers`**: configuration keys read in code, on receivers named like a
//!   configuration object (see [`RepoIndex::config_readers`]).
//! - **`pubsub`**: message-broker topics (Kafka, NATS, RabbitMQ, SNS/SQS, Redis pub/sub, as
//!   `contract_sites` recognises them) paired by topic: who publishes, who subscribes, and the
//!   topics only one side names here (a consumer of another service's topic, or a topic nobody
//!   here reads).

use crate::sweep::enclosing_function;
use crate::sweep::{Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Sites listed per log message or event.
pub const SITES_PER_ROW: usize = 10;

const LOG_LEVELS_ES: &str = r#"(call_expression function: (member_expression object: (_) @_recv property: (property_identifier) @log (#match? @log "^(log|debug|info|warn|error|trace|fatal)$")) arguments: (arguments . [(string) (template_string)] @_message))"#;

/// Log calls per language: `@log` is the level method, `@_message` the literal, `@_recv` what it
/// is called on.
const LOGS: &[(Language, &str)] = &[
    (
        Language::Go,
        r#"(call_expression function: (selector_expression operand: (_) @_recv field: (field_identifier) @log (#match? @log "^(Print|Printf|Println|Fatal|Fatalf|Fatalln|Panic|Panicf|Debug|Debugf|Info|Infof|Warn|Warnf|Warning|Error|Errorf|DebugContext|InfoContext|WarnContext|ErrorContext)$")) arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @_message))"#,
    ),
    (
        Language::Python,
        r#"(call function: (attribute object: (_) @_recv attribute: (identifier) @log (#match? @log "^(debug|info|warning|warn|error|exception|critical|fatal)$")) arguments: (argument_list . (string) @_message))"#,
    ),
    (Language::JavaScript, LOG_LEVELS_ES),
    (Language::TypeScript, LOG_LEVELS_ES),
    (Language::Tsx, LOG_LEVELS_ES),
    (
        Language::Java,
        r#"(method_invocation object: (_) @_recv name: (identifier) @log (#match? @log "^(trace|debug|info|warn|error|fatal)$") arguments: (argument_list . (string_literal) @_message))"#,
    ),
    (
        Language::Rust,
        r#"(macro_invocation macro: [(identifier) (scoped_identifier)] @log (#match? @log "(^|::)(trace|debug|info|warn|error)$") (token_tree . (string_literal) @_message))"#,
    ),
];

/// Receivers whose "log-like" methods are not logging.
fn not_a_logger(language: Language, receiver: &str) -> bool {
    match language {
        Language::Go => matches!(receiver, "fmt" | "errors" | "t" | "b" | "tb" | "f"),
        Language::Python => matches!(receiver, "parser" | "self.parser"),
        _ => false,
    }
}

/// The level a log method names: `debug`, `info`, `warn`, `error`, `fatal` or `print`.
fn level_of(method: &str) -> &'static str {
    let m = method.rsplit("::").next().unwrap_or(method).to_ascii_lowercase();
    let levels = [
        ("debug", "debug"),
        ("trace", "debug"),
        ("info", "info"),
        ("log", "info"),
        ("warn", "warn"),
        ("error", "error"),
        ("exception", "error"),
        ("fatal", "fatal"),
        ("critical", "fatal"),
        ("panic", "fatal"),
    ];
    levels
        .iter()
        .find(|(prefix, _)| m.starts_with(prefix))
        .map_or("print", |(_, level)| level)
}

/// A string literal's text without its quotes (and Python's prefixes).
pub(crate) fn unquote(text: &str) -> String {
    let t = text.trim().trim_start_matches(['r', 'b', 'f', 'u', 'R', 'B', 'F', 'U']);
    let t = t.trim_start_matches("\"\"\"").trim_end_matches("\"\"\"");
    for q in ['"', '\'', '`'] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return t[1..t.len() - 1].to_string();
        }
    }
    t.to_string()
}

/// Where a log call or event is made.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EventSite {
    pub path: String,
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<NodeSummary>,
}

/// The site of a hit, with its enclosing function.
pub(crate) fn event_site(g: &Graph, h: &Hit) -> EventSite {
    EventSite {
        path: h.path.clone(),
        line: h.line,
        function: enclosing_function(g, &h.path, h.line)
            .filter(|&f| g.node_at(f).kind.is_callable())
            .map(|f| NodeSummary::at(g, f)),
    }
}

/// Arguments of `analyze kind=log_events`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LogEventsArgs {
    /// Only this level: debug, info, warn, error, fatal or print.
    #[serde(default)]
    pub level: Option<String>,
    /// Only messages containing this text (case-insensitive).
    #[serde(default)]
    pub contains: Option<String>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most messages returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One log message and where it is written.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LogEvent {
    pub message: String,
    pub level: &'static str,
    /// Calls writing it.
    pub count: usize,
    /// Those calls by file and line, at most [`SITES_PER_ROW`].
    pub sites: Vec<EventSite>,
}

/// The answer of `analyze kind=log_events`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LogEventsResult {
    /// Most written first (ties: the more severe level, then the message), at most `limit`.
    pub events: Vec<LogEvent>,
    pub total: usize,
    pub truncated: bool,
    /// Log calls per level.
    pub by_level: BTreeMap<&'static str, usize>,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

const LEVELS: [&str; 6] = ["debug", "info", "warn", "error", "fatal", "print"];

impl RepoIndex {
    /// `analyze kind=log_events` (see the module doc).
    pub(crate) fn log_events(&self, g: &Graph, a: &LogEventsArgs) -> Result<LogEventsResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        if let Some(level) = a.level.as_deref().filter(|l| !LEVELS.contains(l)) {
            return Err(QueryError::invalid(format!(
                "level must be one of {}, got {level:?}",
                LEVELS.join(", ")
            )));
        }
        let contains = a.contains.as_deref().map(str::to_lowercase);
        let (hits, coverage) = self.ast_hits(g, LOGS, a.path_prefix.as_deref())?;
        let mut events: BTreeMap<(&'static str, String), Vec<&Hit>> = BTreeMap::new();
        let mut by_level = BTreeMap::new();
        for h in &hits {
            if h.other("_recv").is_some_and(|r| not_a_logger(h.language, r)) {
                continue;
            }
            let Some(message) = h.other("_message").map(unquote) else {
                continue;
            };
            let level = level_of(&h.text);
            if a.level.as_deref().is_some_and(|l| l != level)
                || contains.as_deref().is_some_and(|c| !message.to_lowercase().contains(c))
            {
                continue;
            }
            *by_level.entry(level).or_insert(0) += 1;
            events.entry((level, message)).or_default().push(h);
        }
        let mut rows: Vec<LogEvent> = events
            .into_iter()
            .map(|((level, message), hits)| LogEvent {
                message,
                level,
                count: hits.len(),
                sites: hits.iter().take(SITES_PER_ROW).map(|h| event_site(g, h)).collect(),
            })
            .collect();
        // Ties: the more severe level first, plain prints last.
        const SEVERITY: [&str; 6] = ["fatal", "error", "warn", "info", "debug", "print"];
        let rank = |l: &str| SEVERITY.iter().position(|x| *x == l).unwrap_or(SEVERITY.len());
        rows.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(rank(a.level).cmp(&rank(b.level)))
                .then_with(|| a.message.cmp(&b.message))
        });
        let total = rows.len();
        rows.truncate(limit);
        Ok(LogEventsResult {
            events: rows,
            total,
            truncated: total > limit,
            by_level,
            coverage,
        })
    }
}

const EVENTS_ES: &str = r#"(call_expression function: (member_expression property: (property_identifier) @emit (#eq? @emit "emit")) arguments: (arguments . (string) @_event))
    (call_expression function: (member_expression property: (property_identifier) @listen (#any-of? @listen "on" "once" "addListener" "addEventListener" "prependListener")) arguments: (arguments . (string) @_event))
    (new_expression constructor: (identifier) @emit (#any-of? @emit "CustomEvent" "Event") arguments: (arguments . (string) @_event))"#;

/// Event emissions and subscriptions by string name.
const EVENTS: &[(Language, &str)] = &[
    (Language::JavaScript, EVENTS_ES),
    (Language::TypeScript, EVENTS_ES),
    (Language::Tsx, EVENTS_ES),
    (
        Language::Python,
        r#"(call function: (attribute attribute: (identifier) @emit (#eq? @emit "emit")) arguments: (argument_list . (string) @_event))
           (call function: (attribute attribute: (identifier) @listen (#eq? @listen "on")) arguments: (argument_list . (string) @_event))"#,
    ),
];

/// Arguments of `analyze kind=event_emitters`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventEmittersArgs {
    /// Only this event name.
    #[serde(default)]
    pub event: Option<String>,
    /// Only events one side names: `emitted_only` (no listener here) or `listened_only` (never
    /// emitted here).
    #[serde(default)]
    pub orphans: Option<EventOrphans>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most events returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Which one-sided events `event_emitters` keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventOrphans {
    EmittedOnly,
    ListenedOnly,
}

/// One event name, its emitters and its listeners.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EventRow {
    pub event: String,
    pub emits: usize,
    pub listens: usize,
    /// Emitting sites by file and line, at most [`SITES_PER_ROW`].
    pub emitters: Vec<EventSite>,
    /// Listening sites by file and line, at most [`SITES_PER_ROW`].
    pub listeners: Vec<EventSite>,
}

/// The answer of `analyze kind=event_emitters`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EventEmittersResult {
    /// By name, at most `limit`.
    pub events: Vec<EventRow>,
    pub total: usize,
    pub truncated: bool,
    /// Events emitted and never listened for here.
    pub emitted_only: usize,
    /// Events listened for and never emitted here (often the runtime's: `click`, `data`, `error`).
    pub listened_only: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=event_emitters` (see the module doc).
    pub(crate) fn event_emitters(&self, g: &Graph, a: &EventEmittersArgs) -> Result<EventEmittersResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, EVENTS, a.path_prefix.as_deref())?;
        let mut events: BTreeMap<String, (Vec<&Hit>, Vec<&Hit>)> = BTreeMap::new();
        for h in &hits {
            let Some(name) = h.other("_event").map(unquote).filter(|n| !n.is_empty()) else {
                continue;
            };
            let e = events.entry(name).or_default();
            if h.what == "emit" {
                e.0.push(h);
            } else {
                e.1.push(h);
            }
        }
        let emitted_only = events.values().filter(|(e, l)| !e.is_empty() && l.is_empty()).count();
        let listened_only = events.values().filter(|(e, l)| e.is_empty() && !l.is_empty()).count();
        let mut rows: Vec<EventRow> = events
            .into_iter()
            .filter(|(name, _)| a.event.as_deref().is_none_or(|e| e == name))
            .filter(|(_, (e, l))| match a.orphans {
                Some(EventOrphans::EmittedOnly) => l.is_empty(),
                Some(EventOrphans::ListenedOnly) => e.is_empty(),
                None => true,
            })
            .map(|(event, (emits, listens))| EventRow {
                event,
                emits: emits.len(),
                listens: listens.len(),
                emitters: emits.iter().take(SITES_PER_ROW).map(|h| event_site(g, h)).collect(),
                listeners: listens.iter().take(SITES_PER_ROW).map(|h| event_site(g, h)).collect(),
            })
            .collect();
        let total = rows.len();
        rows.truncate(limit);
        Ok(EventEmittersResult {
            events: rows,
            total,
            truncated: total > limit,
            emitted_only,
            listened_only,
            coverage,
        })
    }
}

/// Arguments of `analyze kind=pubsub`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PubsubArgs {
    /// Only this topic.
    #[serde(default)]
    pub topic: Option<String>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most topics returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A publishing or subscribing site.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TopicSite {
    pub path: String,
    pub line: u32,
    /// The client library recognised (kafka-go, kafka-python, nats, amqplib, …).
    pub source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
}

/// One topic with its publishers and subscribers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TopicRow {
    pub topic: String,
    /// `matched` (both sides here), `publish_only` or `subscribe_only`.
    pub status: &'static str,
    pub publishers: Vec<TopicSite>,
    pub subscribers: Vec<TopicSite>,
}

/// The answer of `analyze kind=pubsub`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PubsubResult {
    /// By topic, at most `limit`.
    pub topics: Vec<TopicRow>,
    pub total: usize,
    pub truncated: bool,
    pub publish_only: usize,
    pub subscribe_only: usize,
    pub evidence: &'static str,
}

impl RepoIndex {
    /// `analyze kind=pubsub` (see the module doc).
    pub(crate) fn pubsub(&self, g: &Graph, a: &PubsubArgs) -> Result<PubsubResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let sites = self.with_text(|t| {
            gortex_search::contract_sites(
                t,
                g,
                &gortex_search::ContractSitesArgs {
                    kinds: Some(vec!["topic".into()]),
                    path_prefix: a.path_prefix.clone(),
                    limit: Some(gortex_search::contracts::MAX_ROWS),
                },
            )
        })?;
        let mut topics: BTreeMap<String, (Vec<TopicSite>, Vec<TopicSite>)> = BTreeMap::new();
        for s in sites.sites {
            if a.topic.as_deref().is_some_and(|t| t != s.name) {
                continue;
            }
            let entry = topics.entry(s.name.clone()).or_default();
            let site = TopicSite {
                path: s.path,
                line: s.line,
                source: s.source,
                symbol: s.symbol,
            };
            if s.role == "provider" {
                entry.0.push(site);
            } else {
                entry.1.push(site);
            }
        }
        let mut rows: Vec<TopicRow> = topics
            .into_iter()
            .map(|(topic, (publishers, subscribers))| TopicRow {
                status: match (publishers.is_empty(), subscribers.is_empty()) {
                    (false, false) => "matched",
                    (false, true) => "publish_only",
                    _ => "subscribe_only",
                },
                topic,
                publishers,
                subscribers,
            })
            .collect();
        let publish_only = rows.iter().filter(|r| r.status == "publish_only").count();
        let subscribe_only = rows.iter().filter(|r| r.status == "subscribe_only").count();
        let total = rows.len();
        rows.truncate(limit);
        Ok(PubsubResult {
            topics: rows,
            total,
            truncated: total > limit,
            publish_only,
            subscribe_only,
            evidence: sites.evidence,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// config_readers
// ---------------------------------------------------------------------------------------------

const CONFIG_ES: &str = r#"(call_expression function: (member_expression object: (_) @_recv property: (property_identifier) @config (#match? @config "^(get|has|getOrThrow)$")) arguments: (arguments . (string) @_key))"#;

/// Configuration reads per language: `@config` the method (or annotation), `@_key` the key
/// literal, `@_recv` what it is called on.
const CONFIG: &[(Language, &str)] = &[
    (
        Language::Go,
        r#"(call_expression function: (selector_expression operand: (_) @_recv field: (field_identifier) @config (#match? @config "^(Get|GetString|GetInt|GetInt32|GetInt64|GetUint|GetBool|GetFloat64|GetDuration|GetTime|GetStringSlice|GetIntSlice|GetStringMap|GetStringMapString|IsSet|Sub|UnmarshalKey|String|Int|Bool|Float64|Duration|Strings)$")) arguments: (argument_list . (interpreted_string_literal) @_key))"#,
    ),
    (
        Language::Python,
        r#"(call function: (attribute object: (_) @_recv attribute: (identifier) @config (#match? @config "^(get|getint|getboolean|getfloat|getlist)$")) arguments: (argument_list . (string) @_key))
           (subscript value: (_) @_recv @config subscript: (string) @_key)"#,
    ),
    (Language::JavaScript, CONFIG_ES),
    (Language::TypeScript, CONFIG_ES),
    (Language::Tsx, CONFIG_ES),
    (
        Language::Java,
        r#"(method_invocation object: (_) @_recv name: (identifier) @config (#match? @config "^(getProperty|getRequiredProperty|getString|getInt|getLong|getBoolean|getDouble|getDuration|getConfig|hasPath)$") arguments: (argument_list . (string_literal) @_key))
           (annotation name: (identifier) @config (#eq? @config "Value") arguments: (annotation_argument_list (string_literal) @_key))"#,
    ),
    (
        Language::Rust,
        r#"(call_expression function: [(field_expression value: (_) @_recv field: (field_identifier) @config) (generic_function function: (field_expression value: (_) @_recv field: (field_identifier) @config))] (#match? @config "^(get|get_string|get_int|get_bool|get_float|get_array|get_table)$") arguments: (arguments . (string_literal) @_key))"#,
    ),
];

/// Whether a receiver names a configuration object (`viper`, `config`, `cfg`, `settings`,
/// `this.configService`, `app.config`, `environment`, …): `get("x")` on anything else — a map,
/// a header, a cache — is not a configuration read.
fn is_config_receiver(language: Language, receiver: &str) -> bool {
    let r = receiver.to_ascii_lowercase();
    let last = r.rsplit(['.', ':']).next().unwrap_or(&r);
    [
        "viper",
        "config",
        "cfg",
        "conf",
        "settings",
        "koanf",
        "nconf",
        "props",
        "properties",
        "configservice",
    ]
    .iter()
    .any(|w| last.contains(w))
        || (language == Language::Java && matches!(last, "env" | "environment"))
}

/// A configuration key from its literal: quotes removed, Spring's `${key:default}` unwrapped.
fn config_key(literal: &str) -> String {
    let key = unquote(literal);
    match key.strip_prefix("${").and_then(|k| k.strip_suffix('}')) {
        Some(inner) => inner.split(':').next().unwrap_or(inner).to_string(),
        None => key,
    }
}

/// Arguments of `analyze kind=config_readers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfigReadersArgs {
    /// Only this key, or keys under it (`db` matches `db.host`).
    #[serde(default)]
    pub key: Option<String>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most keys returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One configuration key and where it is read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ConfigKey {
    pub key: String,
    /// Reads of it.
    pub reads: usize,
    /// Those reads by file and line, at most [`SITES_PER_ROW`].
    pub sites: Vec<EventSite>,
}

/// The answer of `analyze kind=config_readers`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ConfigReadersResult {
    /// Most read first (ties by key), at most `limit`.
    pub keys: Vec<ConfigKey>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=config_readers`: configuration keys read in code — Go viper/koanf getters,
    /// Python `config.get` / configparser / `app.config["X"]`, JS/TS `config.get` (node-config,
    /// NestJS `ConfigService`), Java `environment.getProperty`, Typesafe config and Spring
    /// `@Value("${key}")`, Rust `config` getters — on receivers named like a configuration object;
    /// environment variables are `env_var_users`.
    pub(crate) fn config_readers(&self, g: &Graph, a: &ConfigReadersArgs) -> Result<ConfigReadersResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, CONFIG, a.path_prefix.as_deref())?;
        let wanted = |key: &str| {
            a.key.as_deref().is_none_or(|k| {
                key == k
                    || key
                        .strip_prefix(k)
                        .is_some_and(|rest| rest.starts_with(['.', '_', ':', '/']))
            })
        };
        let mut keys: BTreeMap<String, Vec<&Hit>> = BTreeMap::new();
        for h in &hits {
            let annotation = h.language == Language::Java && h.text == "Value";
            if !annotation && !h.other("_recv").is_some_and(|r| is_config_receiver(h.language, r)) {
                continue;
            }
            let Some(key) = h.other("_key").map(config_key).filter(|k| !k.is_empty() && wanted(k)) else {
                continue;
            };
            keys.entry(key).or_default().push(h);
        }
        let mut rows: Vec<ConfigKey> = keys
            .into_iter()
            .map(|(key, hits)| ConfigKey {
                key,
                reads: hits.len(),
                sites: hits.iter().take(SITES_PER_ROW).map(|h| event_site(g, h)).collect(),
            })
            .collect();
        rows.sort_by(|a, b| b.reads.cmp(&a.reads).then_with(|| a.key.cmp(&b.key)));
        let total = rows.len();
        rows.truncate(limit);
        Ok(ConfigReadersResult {
            keys: rows,
            total,
            truncated: total > limit,
            coverage,
        })
    }
}

/// The bundled patterns of this module, per language (for the compile test).
#[cfg(test)]
pub(crate) fn bundled_patterns() -> Vec<(Language, &'static str)> {
    LOGS.iter().chain(EVENTS).chain(CONFIG).copied().collect()
}
