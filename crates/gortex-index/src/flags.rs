//! `analyze kind=stale_flags`: feature flags whose every check sits in code nobody has touched
//! for a long time — the rollout is done and the flag (and its dead branch) can go.
//!
//! Flag checks are read from the syntax trees (`evidence: "ast+git"`): LaunchDarkly
//! `variation` / `boolVariation` / `BoolVariation` …, Unleash `isEnabled` / `is_enabled` on an
//! `unleash` receiver, GrowthBook `isOn` / `isOff` / `getFeatureValue` / `is_on` …, OpenFeature
//! `getBooleanValue` / `get_boolean_value` / Go `BooleanValue(ctx, "flag", …)` …, and in-house
//! checks (`features.isEnabled("x")`, `isFeatureEnabled("x")`, `feature_enabled("x")`) on a
//! receiver or function named for flags or features — each with its literal flag key. A check's
//! age is the age of its line in git (the last commit that changed it, measured from the head
//! commit, as `stale_code` measures); a flag's age is that of its most recently touched check.
//! An uncommitted check is age 0.

use crate::events::{event_site, unquote, EventSite};
use crate::sweep::{Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_git::lines::is_uncommitted;
use gortex_git::report::{iso_date, CommitRef, HistoryMeta};
use gortex_graph::query::common::{check_limit_with, check_range};
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Method names that check a flag (the provider is decided from the name and the receiver).
const METHODS: &str = r#""variation" "boolVariation" "stringVariation" "numberVariation" "jsonVariation" "variationDetail" "boolVariationDetail" "isOn" "isOff" "getFeatureValue" "evalFeature" "getBooleanValue" "getStringValue" "getNumberValue" "getObjectValue" "getBooleanDetails" "getIntegerValue" "getDoubleValue" "isEnabled" "enabled" "isActive""#;
const PY_METHODS: &str = r#""variation" "variation_detail" "is_on" "is_off" "get_feature_value" "eval_feature" "get_boolean_value" "get_string_value" "get_integer_value" "get_float_value" "get_object_value" "get_boolean_details" "is_enabled" "enabled" "is_active""#;
const GO_METHODS: &str = r#""BoolVariation" "StringVariation" "IntVariation" "Float64Variation" "JSONVariation" "BoolVariationDetail" "IsEnabled" "Enabled" "IsOn" "IsOff" "GetFeatureValue""#;
const GO_OPENFEATURE: &str =
    r#""BooleanValue" "StringValue" "IntValue" "FloatValue" "ObjectValue" "BooleanValueDetails""#;
const FREE_FUNCTIONS: &str = r#""isFeatureEnabled" "featureEnabled" "isFlagEnabled" "flagEnabled" "is_feature_enabled" "feature_enabled" "is_flag_enabled" "flag_enabled" "IsFeatureEnabled" "FeatureEnabled" "IsFlagEnabled""#;

/// Flag checks per language: `@flag` is the method or function, `@_key` the literal key,
/// `@_recv` what the method is called on.
pub(crate) fn patterns() -> Vec<(Language, String)> {
    let es = format!(
        r#"(call_expression function: (member_expression object: (_) @_recv property: (property_identifier) @flag (#any-of? @flag {METHODS})) arguments: (arguments . (string) @_key))
           (call_expression function: (identifier) @flag (#any-of? @flag {FREE_FUNCTIONS}) arguments: (arguments . (string) @_key))"#
    );
    vec![
        (Language::JavaScript, es.clone()),
        (Language::TypeScript, es.clone()),
        (Language::Tsx, es),
        (
            Language::Python,
            format!(
                r#"(call function: (attribute object: (_) @_recv attribute: (identifier) @flag (#any-of? @flag {PY_METHODS})) arguments: (argument_list . (string) @_key))
                   (call function: (identifier) @flag (#any-of? @flag {FREE_FUNCTIONS}) arguments: (argument_list . (string) @_key))"#
            ),
        ),
        (
            Language::Go,
            format!(
                r#"(call_expression function: (selector_expression operand: (_) @_recv field: (field_identifier) @flag (#any-of? @flag {GO_METHODS})) arguments: (argument_list . (interpreted_string_literal) @_key))
                   (call_expression function: (selector_expression operand: (_) @_recv field: (field_identifier) @flag (#any-of? @flag {GO_OPENFEATURE})) arguments: (argument_list . (_) . (interpreted_string_literal) @_key))
                   (call_expression function: [(identifier) @flag (selector_expression field: (field_identifier) @flag)] (#any-of? @flag {FREE_FUNCTIONS}) arguments: (argument_list . (interpreted_string_literal) @_key))"#
            ),
        ),
        (
            Language::Java,
            format!(
                r#"(method_invocation object: (_) @_recv name: (identifier) @flag (#any-of? @flag {METHODS}) arguments: (argument_list . (string_literal) @_key))"#
            ),
        ),
    ]
}

/// The provider a check belongs to, or `None` when the call is not a flag check (an `enabled`
/// method on something that is not a flag client).
fn provider(method: &str, receiver: Option<&str>) -> Option<&'static str> {
    let m = method.to_ascii_lowercase().replace('_', "");
    let r = receiver
        .map(|r| r.rsplit(['.', '>']).next().unwrap_or(r).to_ascii_lowercase())
        .unwrap_or_default();
    let flaggy = |r: &str| {
        ["flag", "feature", "toggle", "unleash", "launchdarkly", "growthbook"]
            .iter()
            .any(|w| r.contains(w))
    };
    if receiver.is_none() {
        return Some("internal");
    }
    if m.contains("variation") {
        return Some("launchdarkly");
    }
    if ["ison", "isoff", "getfeaturevalue", "evalfeature"].contains(&m.as_str()) {
        return Some("growthbook");
    }
    let openfeature = [
        "boolean", "string", "number", "integer", "int", "double", "float", "object",
    ]
    .iter()
    .any(|t| m.trim_start_matches("get").starts_with(t))
        && (m.ends_with("value") || m.ends_with("details") || m.ends_with("valuedetails"));
    if openfeature {
        return (flaggy(&r) || r.contains("client") || r.contains("openfeature")).then_some("openfeature");
    }
    if r.contains("unleash") {
        return Some("unleash");
    }
    flaggy(&r).then_some("internal")
}

/// The providers a filter may name.
const PROVIDERS: [&str; 5] = ["launchdarkly", "unleash", "growthbook", "openfeature", "internal"];

/// Arguments of `analyze kind=stale_flags`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StaleFlagsArgs {
    /// Stale means the flag's newest check is at least this many days older than the head
    /// commit (1..=36500, default 365).
    pub days: Option<u32>,
    /// Only this provider: launchdarkly, unleash, growthbook, openfeature or internal.
    pub provider: Option<String>,
    /// Every flag with its age, not only the stale ones.
    #[serde(default)]
    pub all: bool,
    /// Count checks made in test code too (default false).
    #[serde(default)]
    pub include_tests: bool,
    /// Only files under this repository-relative prefix.
    pub path_prefix: Option<String>,
    /// Most flags returned (1..=1000, default 100), oldest first.
    pub limit: Option<usize>,
}

/// One check of a flag.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlagCheck {
    #[serde(flatten)]
    pub site: EventSite,
    /// The call, e.g. `boolVariation`.
    pub call: String,
    /// The last commit that changed the line (absent when uncommitted or outside git).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_change: Option<CommitRef>,
    /// Days between that commit and the head commit (0 when uncommitted).
    pub age_days: u32,
}

/// One feature flag and how long its checks have gone untouched.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlagRow {
    pub flag: String,
    pub provider: &'static str,
    /// Checks of it (in code; tests too with `include_tests`).
    pub checks: usize,
    /// The age of its most recently changed check: how long the flag has been left alone.
    pub age_days: u32,
    /// The change that touched a check last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_touched: Option<CommitRef>,
    pub stale: bool,
    /// The checks, newest first, at most 10.
    pub sites: Vec<FlagCheck>,
}

/// The answer of `analyze kind=stale_flags`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StaleFlagsResult {
    /// Stale flags (every flag with `all`), oldest first (ties: by name), at most `limit`.
    pub flags: Vec<FlagRow>,
    pub total: usize,
    pub truncated: bool,
    /// Distinct flags checked in code.
    pub examined: usize,
    /// Of those, the stale ones.
    pub stale: usize,
    /// Flags whose checks have no git history (files outside git): not scored.
    pub unscored: Vec<String>,
    /// The head commit's date, which ages are measured from.
    pub as_of: String,
    pub days: u32,
    pub history: HistoryMeta,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

/// One check as found: the hit, the last commit of its line, whether the line is uncommitted.
type Check<'h> = (&'h Hit, Option<u32>, bool);

impl RepoIndex {
    /// `analyze kind=stale_flags` (see the module doc).
    pub(crate) fn stale_flags(&self, g: &Graph, a: &StaleFlagsArgs) -> Result<StaleFlagsResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let days = check_range("days", a.days, 365, 1, 36_500)?;
        if let Some(p) = a.provider.as_deref().filter(|p| !PROVIDERS.contains(p)) {
            return Err(QueryError::invalid(format!(
                "provider must be one of {}, got {p:?}",
                PROVIDERS.join(", ")
            )));
        }
        let h = self.history()?;
        let owned = patterns();
        let borrowed: Vec<(Language, &str)> = owned.iter().map(|(l, p)| (*l, p.as_str())).collect();
        let (hits, mut coverage) = self.ast_hits(g, &borrowed, a.path_prefix.as_deref())?;
        coverage.evidence = "ast+git";
        let head_time = h.mined.commits.last().map_or(0, |c| c.time);
        let mut flags: BTreeMap<String, (&'static str, Vec<Check<'_>>)> = BTreeMap::new();
        for hit in &hits {
            let Some(provider) = provider(&hit.text, hit.other("_recv")) else {
                continue;
            };
            if a.provider.as_deref().is_some_and(|p| p != provider)
                || (!a.include_tests && gortex_core::is_test_path(&hit.path, Some(hit.language)))
            {
                continue;
            }
            let Some(key) = hit.other("_key").map(unquote).filter(|k| !k.trim().is_empty()) else {
                continue;
            };
            let set = h
                .files
                .get(hit.path.as_str())
                .and_then(|l| l.get(hit.line as usize - 1))
                .copied();
            let uncommitted = set.is_some_and(is_uncommitted);
            let last = set
                .filter(|s| !is_uncommitted(*s))
                .and_then(|s| h.mined.lineage.last(s));
            let entry = flags.entry(key).or_insert((provider, Vec::new()));
            entry.1.push((hit, last, uncommitted));
        }
        let examined = flags.len();
        let mut unscored = Vec::new();
        let mut rows = Vec::new();
        for (flag, (provider, checks)) in flags {
            if checks
                .iter()
                .all(|(_, last, uncommitted)| last.is_none() && !uncommitted)
            {
                unscored.push(flag);
                continue;
            }
            let age = |last: Option<u32>, uncommitted: bool| -> u32 {
                match (uncommitted, last) {
                    (false, Some(c)) => ((head_time - h.mined.commits[c as usize].time).max(0) / 86_400) as u32,
                    _ => 0,
                }
            };
            // Checks outside the history (a file git does not track) say nothing of the flag's age.
            let scored: Vec<&Check<'_>> = checks
                .iter()
                .filter(|(_, last, uncommitted)| last.is_some() || *uncommitted)
                .collect();
            let mut sites: Vec<FlagCheck> = scored
                .iter()
                .map(|(hit, last, uncommitted)| FlagCheck {
                    site: event_site(g, hit),
                    call: hit.text.clone(),
                    last_change: last.filter(|_| !uncommitted).map(|c| CommitRef::of(&h.mined, c)),
                    age_days: age(*last, *uncommitted),
                })
                .collect();
            sites.sort_by(|x, y| {
                x.age_days
                    .cmp(&y.age_days)
                    .then_with(|| (&x.site.path, x.site.line).cmp(&(&y.site.path, y.site.line)))
            });
            let newest = &sites[0];
            let row = FlagRow {
                flag,
                provider,
                checks: checks.len(),
                age_days: newest.age_days,
                last_touched: newest.last_change.clone(),
                stale: newest.age_days >= days,
                sites: sites.into_iter().take(10).collect(),
            };
            rows.push(row);
        }
        let stale = rows.iter().filter(|r| r.stale).count();
        if !a.all {
            rows.retain(|r| r.stale);
        }
        rows.sort_by(|x, y| y.age_days.cmp(&x.age_days).then_with(|| x.flag.cmp(&y.flag)));
        let total = rows.len();
        rows.truncate(limit);
        Ok(StaleFlagsResult {
            flags: rows,
            total,
            truncated: total > limit,
            examined,
            stale,
            unscored,
            as_of: iso_date(head_time),
            days,
            history: HistoryMeta::of(&h, &h.update),
            coverage,
        })
    }
}
