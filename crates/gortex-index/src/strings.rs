//! `analyze kind=string_emitters`: the strings code emits for someone else to read, read from the
//! syntax trees (a structural sweep, `evidence: "ast"`) and grouped by value, so one metric
//! registered twice, one error message raised from five places or a translation key used once
//! shows up as a row:
//!
//! - **`metric`**: metric names — Prometheus (`prometheus.*Opts{Name: …}` in Go, `Counter("x",
//!   "help")` in Python, `new Counter({name: …})` in JS/TS, `counter!`/`register_*!` in Rust),
//!   OpenTelemetry instruments (`meter.createCounter("x")`, `meter.Int64Counter("x")`), StatsD and
//!   Datadog clients (`statsd.increment("x")`, on a receiver named like a stats client) and
//!   Micrometer (`Counter.builder("x")`, `registry.counter("x")`);
//! - **`error_msg`**: literal error messages — Go `errors.New` / `fmt.Errorf`, Python
//!   `raise X("…")`, JS/TS `new XError("…")`, Java `new XException("…")`, Rust `anyhow!` /
//!   `bail!` / `eyre!`;
//! - **`i18n`**: translation keys — JS/TS `t("key")`, `$t`, `i18n.t`, `formatMessage({id})`,
//!   Python gettext `_("…")`, `gettext`, `gettext_lazy`, `pgettext`, `ngettext`.
//!
//! Routes are strings too; `analyze kind=routes` already pairs them with their handlers.

use crate::events::{event_site, unquote, EventSite, SITES_PER_ROW};
use crate::sweep::{enclosing_function, Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

const METRICS_ES: &str = r#"(new_expression constructor: [(identifier) @metric (member_expression property: (property_identifier) @metric)] (#any-of? @metric "Counter" "Gauge" "Histogram" "Summary") arguments: (arguments . (object (pair key: (property_identifier) @_k (#eq? @_k "name") value: (string) @_value))))
    (call_expression function: (member_expression property: (property_identifier) @metric (#match? @metric "^create(Counter|UpDownCounter|Histogram|Gauge|ObservableGauge|ObservableCounter|ObservableUpDownCounter)$")) arguments: (arguments . (string) @_value))
    (call_expression function: (member_expression object: (_) @_recv property: (property_identifier) @metric (#any-of? @metric "increment" "decrement" "incr" "decr" "gauge" "timing" "histogram" "distribution" "set")) arguments: (arguments . (string) @_value))"#;

const ERRORS_ES: &str = r#"(new_expression constructor: [(identifier) (member_expression)] @error (#match? @error "(Error|Exception)$") arguments: (arguments . [(string) (template_string)] @_value))"#;

const I18N_ES: &str = r#"(call_expression function: [(identifier) @i18n (member_expression property: (property_identifier) @i18n)] (#any-of? @i18n "t" "$t" "tc" "$tc") arguments: (arguments . (string) @_value))
    (call_expression function: (member_expression property: (property_identifier) @i18n (#eq? @i18n "formatMessage")) arguments: (arguments . (object (pair key: (property_identifier) @_k (#eq? @_k "id") value: (string) @_value))))"#;

/// Patterns per language: `@metric`, `@error` or `@i18n` names the context (its text is how the
/// string is made), `@_value` is the literal, `@_recv` / `@_pkg` what the call is made on.
pub(crate) fn patterns() -> Vec<(Language, String)> {
    let es = |l| (l, format!("{METRICS_ES}\n{ERRORS_ES}\n{I18N_ES}"));
    vec![
        es(Language::JavaScript),
        es(Language::TypeScript),
        es(Language::Tsx),
        (
            Language::Go,
            r#"(composite_literal type: (qualified_type name: (type_identifier) @metric (#match? @metric "^(Counter|Gauge|Histogram|Summary)Opts$")) body: (literal_value (keyed_element key: (literal_element (identifier) @_k (#eq? @_k "Name")) value: (literal_element [(interpreted_string_literal) (raw_string_literal)] @_value))))
               (call_expression function: (selector_expression field: (field_identifier) @metric (#match? @metric "^(Int64|Float64)(Counter|UpDownCounter|Histogram|Gauge|ObservableCounter|ObservableUpDownCounter|ObservableGauge)$")) arguments: (argument_list . (interpreted_string_literal) @_value))
               (call_expression function: (selector_expression operand: (_) @_recv field: (field_identifier) @metric (#any-of? @metric "Incr" "Decr" "Count" "Gauge" "Histogram" "Distribution" "Timing")) arguments: (argument_list . (interpreted_string_literal) @_value))
               (call_expression function: (selector_expression operand: (identifier) @_pkg (#any-of? @_pkg "errors" "fmt") field: (field_identifier) @error (#any-of? @error "New" "Errorf")) arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @_value))"#
                .to_string(),
        ),
        (
            Language::Python,
            r#"(call function: [(identifier) @metric (attribute attribute: (identifier) @metric)] (#match? @metric "(Counter|Gauge|Histogram|Summary)$") arguments: (argument_list . (string) @_value . (string)))
               (call function: (attribute object: (_) @_recv attribute: (identifier) @metric (#any-of? @metric "incr" "decr" "increment" "decrement" "gauge" "timing" "timer" "histogram" "distribution")) arguments: (argument_list . (string) @_value))
               (raise_statement (call function: [(identifier) (attribute)] @error arguments: (argument_list . (string) @_value)))
               (call function: (identifier) @i18n (#any-of? @i18n "_" "gettext" "gettext_lazy" "ugettext" "ugettext_lazy" "pgettext" "ngettext" "_l") arguments: (argument_list . (string) @_value))"#
                .to_string(),
        ),
        (
            Language::Java,
            r#"(method_invocation object: (identifier) @metric (#any-of? @metric "Counter" "Timer" "Gauge" "DistributionSummary" "LongTaskTimer") name: (identifier) @_b (#eq? @_b "builder") arguments: (argument_list . (string_literal) @_value))
               (method_invocation object: (_) @_recv name: (identifier) @metric (#any-of? @metric "counter" "timer" "gauge" "summary") arguments: (argument_list . (string_literal) @_value))
               (object_creation_expression type: (type_identifier) @error (#match? @error "(Exception|Error)$") arguments: (argument_list . (string_literal) @_value))"#
                .to_string(),
        ),
        (
            Language::Rust,
            r#"(macro_invocation macro: [(identifier) (scoped_identifier)] @metric (#match? @metric "(^|::)(counter|gauge|histogram|register_(int_)?(counter|gauge|histogram)(_vec)?)$") (token_tree . (string_literal) @_value))
               (macro_invocation macro: [(identifier) (scoped_identifier)] @error (#match? @error "(^|::)(anyhow|bail|eyre)$") (token_tree . (string_literal) @_value))"#
                .to_string(),
        ),
    ]
}

/// Receivers of `increment` / `gauge` / `timing` … that are stats clients (`statsd`, `metrics`,
/// `dogstatsd`, `this.stats`), or of `counter` / `timer` that are meter registries.
fn is_stats_client(receiver: &str) -> bool {
    let r = receiver.rsplit('.').next().unwrap_or(receiver).to_ascii_lowercase();
    [
        "stats",
        "metric",
        "datadog",
        "registry",
        "meter",
        "telemetry",
        "prometheus",
    ]
    .iter()
    .any(|w| r.contains(w))
}

/// The three string contexts.
const CONTEXTS: [&str; 3] = ["metric", "error_msg", "i18n"];

/// Arguments of `analyze kind=string_emitters`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StringEmittersArgs {
    /// Only this context: `metric`, `error_msg` or `i18n`.
    #[serde(default)]
    pub context: Option<String>,
    /// Only strings containing this text (case-insensitive).
    #[serde(default)]
    pub contains: Option<String>,
    /// Only strings emitted from at least this many places (default 1; 2 finds duplicates).
    #[serde(default)]
    pub min_emits: Option<usize>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most strings returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One emitted string and who emits it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EmittedString {
    /// `metric`, `error_msg` or `i18n`.
    pub context: &'static str,
    /// The literal as written (an `%v` or `${…}` left in place: the format is the identity).
    pub value: String,
    /// How it is made: the instrument (`counter`, `histogram`, …), the error constructor
    /// (`errors.New`, `ValueError`) or the translation function (`t`, `gettext`).
    pub via: Vec<String>,
    /// Sites emitting it.
    pub emits: usize,
    /// The distinct functions emitting it.
    pub emitters: Vec<NodeSummary>,
    /// The sites by file and line, at most [`SITES_PER_ROW`].
    pub sites: Vec<EventSite>,
}

/// The answer of `analyze kind=string_emitters`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StringEmittersResult {
    /// Most emitted first (ties: context, then value), at most `limit`.
    pub strings: Vec<EmittedString>,
    pub total: usize,
    pub truncated: bool,
    /// Distinct strings per context (after the filters).
    pub by_context: BTreeMap<&'static str, usize>,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

/// The context a hit names and how the string is made, or `None` when it is not one.
fn classify(h: &Hit) -> Option<(&'static str, String)> {
    let name = h.text.rsplit("::").next().unwrap_or(&h.text);
    match h.what.as_str() {
        "metric" => {
            if let Some(recv) = h.other("_recv") {
                if !is_stats_client(recv) {
                    return None;
                }
            }
            let lower = name.to_ascii_lowercase();
            let instrument = [
                ("updowncounter", "up_down_counter"),
                ("counter", "counter"),
                ("incr", "counter"),
                ("decr", "counter"),
                ("count", "counter"),
                ("gauge", "gauge"),
                ("histogram", "histogram"),
                ("summary", "summary"),
                ("tim", "timer"),
                ("distribution", "distribution"),
                ("set", "set"),
            ]
            .into_iter()
            .find(|(w, _)| lower.contains(w))
            .map_or(lower.clone(), |(_, i)| i.to_string());
            Some(("metric", instrument))
        }
        "error" => {
            let via = match h.other("_pkg") {
                Some(pkg) => format!("{pkg}.{name}"),
                None if h.language == Language::Rust => format!("{name}!"),
                None => h.text.trim_start_matches("new ").to_string(),
            };
            Some(("error_msg", via))
        }
        "i18n" => Some(("i18n", name.to_string())),
        _ => None,
    }
}

impl RepoIndex {
    /// `analyze kind=string_emitters` (see the module doc).
    pub(crate) fn string_emitters(
        &self,
        g: &Graph,
        a: &StringEmittersArgs,
    ) -> Result<StringEmittersResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        if let Some(c) = a.context.as_deref().filter(|c| !CONTEXTS.contains(c)) {
            return Err(QueryError::invalid(format!(
                "context must be one of {}, got {c:?}",
                CONTEXTS.join(", ")
            )));
        }
        let min_emits = a.min_emits.unwrap_or(1).max(1);
        let contains = a.contains.as_deref().map(str::to_lowercase);
        let owned = patterns();
        let borrowed: Vec<(Language, &str)> = owned.iter().map(|(l, p)| (*l, p.as_str())).collect();
        let (hits, coverage) = self.ast_hits(g, &borrowed, a.path_prefix.as_deref())?;
        let mut groups: BTreeMap<(&'static str, String), Vec<(&Hit, String)>> = BTreeMap::new();
        for h in &hits {
            let Some((context, via)) = classify(h) else { continue };
            let Some(value) = h.other("_value").map(unquote).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            if a.context.as_deref().is_some_and(|c| c != context)
                || contains.as_deref().is_some_and(|c| !value.to_lowercase().contains(c))
            {
                continue;
            }
            groups.entry((context, value)).or_default().push((h, via));
        }
        let mut by_context = BTreeMap::new();
        let mut rows: Vec<EmittedString> = groups
            .into_iter()
            .filter(|(_, hits)| hits.len() >= min_emits)
            .map(|((context, value), hits)| {
                *by_context.entry(context).or_insert(0) += 1;
                let via: BTreeSet<&str> = hits.iter().map(|(_, v)| v.as_str()).collect();
                let emitters: BTreeSet<NodeIndex> = hits
                    .iter()
                    .filter_map(|(h, _)| enclosing_function(g, &h.path, h.line))
                    .filter(|&f| g.node_at(f).kind.is_callable())
                    .collect();
                EmittedString {
                    context,
                    value,
                    via: via.into_iter().map(str::to_string).collect(),
                    emits: hits.len(),
                    emitters: emitters.into_iter().map(|f| NodeSummary::at(g, f)).collect(),
                    sites: hits.iter().take(SITES_PER_ROW).map(|(h, _)| event_site(g, h)).collect(),
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.emits
                .cmp(&a.emits)
                .then(a.context.cmp(b.context))
                .then_with(|| a.value.cmp(&b.value))
        });
        let total = rows.len();
        rows.truncate(limit);
        Ok(StringEmittersResult {
            strings: rows,
            total,
            truncated: total > limit,
            by_context,
            coverage,
        })
    }
}
