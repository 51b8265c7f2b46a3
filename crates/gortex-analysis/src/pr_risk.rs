//! `pr_risk`: one 0–100 risk score for a changeset (changed symbols, or the symbols of changed
//! files) from five axes, each 0–100 and each explained:
//!
//! - **blast_radius** — dependents of the change over three levels (`explain_change_impact`'s
//!   reach): `100 · ln(1 + n) / ln(1 + 200)`, capped;
//! - **fan_in** — the most callers any changed symbol has: `100 · min(1, max / 20)`;
//! - **coverage_gap** — the share of changed functions and methods no test reaches (graph evidence,
//!   as `coverage_gaps`);
//! - **security** — changed symbols whose name, path or signature names a security concern
//!   (auth, token, password, crypto, SQL, shell, …): 0 when none, else `50 + 50 · share`;
//! - **community_span** — distinct communities the changed symbols belong to: 0 for one, +25 per
//!   further community.
//!
//! Composite = 0.30 · blast + 0.20 · fan-in + 0.20 · coverage + 0.15 · security + 0.15 · span;
//! LOW < 25 ≤ MEDIUM < 50 ≤ HIGH < 75 ≤ CRITICAL. `review_priorities` orders the changed symbols by
//! their own share of that risk (callers, no test, security, dependents), with the reasons.

use crate::coverage::{caller_count, untested};
use crate::impact::{explain_change_impact, ExplainChangeImpactArgs};
use crate::reach::{is_seed_kind, ReachCache};
use crate::CommunityMap;
use gortex_core::{NodeKind, QueryError};
use gortex_graph::query::common::{file_node, resolve_one};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Most changed symbols one call scores.
pub const MAX_PR_SYMBOLS: usize = 500;

/// Words that mark security-sensitive code (whole words of names and paths, case-insensitive).
pub const SECURITY_WORDS: &[&str] = &[
    "auth",
    "authenticate",
    "authorize",
    "authorization",
    "login",
    "logout",
    "password",
    "passwd",
    "secret",
    "secrets",
    "token",
    "jwt",
    "oauth",
    "session",
    "cookie",
    "csrf",
    "xss",
    "crypto",
    "encrypt",
    "decrypt",
    "cipher",
    "hmac",
    "signature",
    "cert",
    "certificate",
    "tls",
    "ssl",
    "permission",
    "permissions",
    "acl",
    "admin",
    "privilege",
    "sanitize",
    "sql",
    "exec",
    "shell",
    "eval",
    "deserialize",
    "pickle",
    "upload",
    "credential",
    "credentials",
    "apikey",
];

/// Arguments of `pr_risk`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrRiskArgs {
    /// Changed symbols (ids, `Owner.name` or names) or changed files (their symbols count).
    #[serde(default)]
    pub ids: Vec<String>,
}

/// One risk axis.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RiskAxis {
    pub name: &'static str,
    /// 0–100.
    pub score: u32,
    pub weight: f64,
    /// What the score is made of.
    pub detail: String,
}

/// A changed symbol in review order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewPriority {
    #[serde(flatten)]
    pub node: NodeSummary,
    /// Its own share of the risk, 0–100.
    pub score: u32,
    pub callers: usize,
    pub tested: bool,
    pub reasons: Vec<String>,
}

/// Result of `pr_risk`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PrRiskResult {
    /// 0–100.
    pub score: u32,
    /// `LOW`, `MEDIUM`, `HIGH` or `CRITICAL`.
    pub level: &'static str,
    pub axes: Vec<RiskAxis>,
    pub review_priorities: Vec<ReviewPriority>,
    /// Changed symbols scored.
    pub symbols: usize,
    /// Inputs not in the graph (deleted or new code the index has not seen).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
    pub evidence: &'static str,
}

/// Whether a name or path names a security concern (see [`SECURITY_WORDS`]).
pub fn security_sensitive(text: &str) -> Option<&'static str> {
    words(text).find_map(|w| SECURITY_WORDS.iter().find(|s| s.eq_ignore_ascii_case(&w)).copied())
}

/// Words of an identifier or path: split at non-alphanumerics and camelCase humps.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).flat_map(|part| {
        let mut out = Vec::new();
        let mut current = String::new();
        let chars: Vec<char> = part.chars().collect();
        for (k, &c) in chars.iter().enumerate() {
            let hump = c.is_uppercase()
                && k > 0
                && (chars[k - 1].is_lowercase() || chars.get(k + 1).is_some_and(|n| n.is_lowercase()));
            if hump && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
        out
    })
}

fn level(score: u32) -> &'static str {
    match score {
        0..25 => "LOW",
        25..50 => "MEDIUM",
        50..75 => "HIGH",
        _ => "CRITICAL",
    }
}

/// Scores a changeset (see the module comment).
pub fn pr_risk(
    g: &Graph,
    reach: &ReachCache,
    communities: &CommunityMap,
    args: &PrRiskArgs,
) -> Result<PrRiskResult, QueryError> {
    if args.ids.is_empty() {
        return Err(QueryError::invalid(
            "pr_risk needs the changed symbols or files in ids (or base, to read them from git)",
        ));
    }
    let mut targets: Vec<NodeIndex> = Vec::new();
    let mut unknown = Vec::new();
    for id in &args.ids {
        let found = match file_node(g, id) {
            Some(f) => Ok(f),
            None => resolve_one(g, id),
        };
        match found {
            Ok(i) if g.node_at(i).kind == NodeKind::File => targets.extend(
                g.file_nodes(&g.node_at(i).path)
                    .iter()
                    .copied()
                    .filter(|&s| is_seed_kind(g.node_at(s).kind)),
            ),
            Ok(i) => targets.push(i),
            Err(e) if e.code == "ambiguous" => return Err(e),
            Err(_) => unknown.push(id.clone()),
        }
    }
    targets.sort_unstable();
    targets.dedup();
    if targets.len() > MAX_PR_SYMBOLS {
        return Err(QueryError::invalid(format!(
            "{} changed symbols is more than pr_risk scores at once ({MAX_PR_SYMBOLS}); pass the changed files or a narrower base",
            targets.len()
        )));
    }
    if targets.is_empty() {
        return Ok(PrRiskResult {
            score: 0,
            level: "LOW",
            axes: Vec::new(),
            review_priorities: Vec::new(),
            symbols: 0,
            unknown,
            evidence: "graph",
        });
    }
    // Blast radius over the whole changeset (dependents outside it).
    let ids: Vec<String> = targets
        .iter()
        .filter(|&&i| is_seed_kind(g.node_at(i).kind))
        .map(|&i| g.node_at(i).id.to_string())
        .collect();
    let dependents = if ids.is_empty() {
        0
    } else {
        let impact = ExplainChangeImpactArgs {
            ids: Some(ids.into_iter().take(crate::impact::MAX_IMPACT_IDS).collect()),
            limit: Some(1),
            ..ExplainChangeImpactArgs::default()
        };
        explain_change_impact(g, reach, Some(communities), None, &impact)?.total
    };
    let blast = (100.0 * (1.0 + dependents as f64).ln() / 201f64.ln()).min(100.0);
    let callers: Vec<usize> = targets.iter().map(|&i| caller_count(g, i)).collect();
    let max_callers = callers.iter().copied().max().unwrap_or(0);
    let fan_in = 100.0 * (max_callers as f64 / 20.0).min(1.0);
    let routine = |i: NodeIndex| matches!(g.node_at(i).kind, NodeKind::Function | NodeKind::Method);
    let gaps = untested(g, &targets);
    let routines = targets.iter().filter(|&&i| routine(i)).count();
    let untested_routines = targets.iter().zip(&gaps).filter(|&(&i, &u)| routine(i) && u).count();
    let coverage = if routines == 0 {
        0.0
    } else {
        100.0 * untested_routines as f64 / routines as f64
    };
    let security_hits: Vec<Option<&'static str>> = targets
        .iter()
        .map(|&i| {
            let n = g.node_at(i);
            security_sensitive(&n.qualified)
                .or_else(|| security_sensitive(&n.path))
                .or_else(|| n.signature.as_deref().and_then(security_sensitive))
        })
        .collect();
    let sensitive = security_hits.iter().filter(|h| h.is_some()).count();
    let security = if sensitive == 0 {
        0.0
    } else {
        50.0 + 50.0 * sensitive as f64 / targets.len() as f64
    };
    let mut touched: Vec<u32> = targets.iter().filter_map(|&i| communities.of(i)).collect();
    touched.sort_unstable();
    touched.dedup();
    let span = (25.0 * touched.len().saturating_sub(1) as f64).min(100.0);
    let axes = vec![
        RiskAxis {
            name: "blast_radius",
            score: blast.round() as u32,
            weight: 0.30,
            detail: format!("{dependents} dependents within three levels"),
        },
        RiskAxis {
            name: "fan_in",
            score: fan_in.round() as u32,
            weight: 0.20,
            detail: format!("most callers of a changed symbol: {max_callers}"),
        },
        RiskAxis {
            name: "coverage_gap",
            score: coverage.round() as u32,
            weight: 0.20,
            detail: format!("{untested_routines} of {routines} changed functions and methods no test reaches"),
        },
        RiskAxis {
            name: "security",
            score: security.round() as u32,
            weight: 0.15,
            detail: format!(
                "{sensitive} of {} changed symbols name a security concern",
                targets.len()
            ),
        },
        RiskAxis {
            name: "community_span",
            score: span.round() as u32,
            weight: 0.15,
            detail: format!("{} communities touched", touched.len()),
        },
    ];
    let score = axes.iter().map(|a| a.weight * f64::from(a.score)).sum::<f64>().round() as u32;
    let mut priorities: Vec<ReviewPriority> = targets
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let mut reasons = Vec::new();
            let mut own = 40.0 * (callers[k] as f64 / 20.0).min(1.0);
            if callers[k] > 0 {
                reasons.push(format!("{} callers", callers[k]));
            }
            if routine(i) && gaps[k] {
                own += 35.0;
                reasons.push("no test reaches it".to_string());
            }
            if let Some(word) = security_hits[k] {
                own += 25.0;
                reasons.push(format!("security-sensitive ({word})"));
            }
            ReviewPriority {
                node: NodeSummary::of(g.node_at(i)),
                score: own.round() as u32,
                callers: callers[k],
                tested: !(routine(i) && gaps[k]),
                reasons,
            }
        })
        .collect();
    priorities.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.node.id.cmp(&b.node.id)));
    Ok(PrRiskResult {
        score,
        level: level(score),
        axes,
        review_priorities: priorities,
        symbols: targets.len(),
        unknown,
        evidence: "graph",
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn security_words_match_whole_words_and_humps() {
        assert_eq!(super::security_sensitive("UserStore.checkPassword"), Some("password"));
        assert_eq!(super::security_sensitive("src/auth/login.ts"), Some("auth"));
        assert_eq!(super::security_sensitive("parseJWTToken"), Some("jwt"));
        assert_eq!(
            super::security_sensitive("Author.bookCount"),
            None,
            "author is not auth"
        );
        assert_eq!(super::security_sensitive("monkeyPatch"), None);
    }
}
