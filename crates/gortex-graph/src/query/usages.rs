//! `find_usages`: every incoming reference to a symbol, classified by the role it plays at the
//! use site.
//!
//! Contexts: `call` (calls, instantiates, tests), `parameter_type` (typed_as from a function or
//! method), `field` (typed_as from a field), `type` (typed_as from anything else; references,
//! extends and implements to a type or interface), `return_type` (returns), `value` (references
//! to anything that is not a type), `import` (imports, re_exports). A `tests` edge that repeats a
//! `calls`/`instantiates` edge of the same site is not listed twice.

use super::args::{check_limit, parse_min_tier, OneOrMany};
use super::callers::{in_test, require_symbol};
use super::caveats::{caveat_for_rows, Caveat};
use super::symbol::{enclosing_symbols, enclosing_ui_component};
use super::targets::resolve_one;
use super::tiers::{tiered, TierReport};
use super::{NodeSummary, QueryError};
use crate::model::{Edge, Graph, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin, TypeFlavor};
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The role a reference plays at its use site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UsageContext {
    Call,
    ParameterType,
    Field,
    Type,
    ReturnType,
    Value,
    Import,
}

impl UsageContext {
    /// Every context, in wire order.
    pub const ALL: &'static [UsageContext] = &[
        UsageContext::Call,
        UsageContext::ParameterType,
        UsageContext::Field,
        UsageContext::Type,
        UsageContext::ReturnType,
        UsageContext::Value,
        UsageContext::Import,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            UsageContext::Call => "call",
            UsageContext::ParameterType => "parameter_type",
            UsageContext::Field => "field",
            UsageContext::Type => "type",
            UsageContext::ReturnType => "return_type",
            UsageContext::Value => "value",
            UsageContext::Import => "import",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<UsageContext> {
        UsageContext::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

/// The context of an incoming edge, `None` for edges that are not references (structural).
pub fn usage_context(g: &Graph, e: &Edge) -> Option<UsageContext> {
    let from = g.node_at(e.from).kind;
    let to = g.node_at(e.to).kind;
    Some(match e.kind {
        EdgeKind::Calls | EdgeKind::Instantiates | EdgeKind::Tests => UsageContext::Call,
        EdgeKind::TypedAs => match from {
            NodeKind::Function | NodeKind::Method => UsageContext::ParameterType,
            NodeKind::Field => UsageContext::Field,
            _ => UsageContext::Type,
        },
        EdgeKind::Returns => UsageContext::ReturnType,
        EdgeKind::References | EdgeKind::Extends | EdgeKind::Implements | EdgeKind::Overrides => {
            if to.is_type_like() {
                UsageContext::Type
            } else {
                UsageContext::Value
            }
        }
        EdgeKind::Imports | EdgeKind::ReExports | EdgeKind::DependsOnModule => UsageContext::Import,
        EdgeKind::Defines | EdgeKind::Contains | EdgeKind::MemberOf => return None,
    })
}

/// Arguments of `find_usages`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindUsagesArgs {
    /// The symbol whose references are listed (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// Keep only these contexts (call, parameter_type, return_type, field, type, value, import):
    /// one name, a comma-separated list or an array.
    #[serde(default)]
    pub context: Option<OneOrMany>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Weakest provenance tier kept.
    #[serde(default)]
    #[schemars(with = "Option<gortex_core::Origin>")]
    pub min_tier: Option<String>,
    /// Keep usages from tests and test files (default true).
    #[serde(default)]
    pub include_tests: Option<bool>,
    /// Keep usages originating inside a type of these flavors (class, struct, enum, …: the
    /// using symbol's nearest enclosing type); `component` keeps usages from inside a UI
    /// component of any framework. One name, a comma-separated list or an array.
    #[serde(default)]
    pub flavor: Option<OneOrMany>,
}

/// One use site.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UsageRow {
    /// Id of the using symbol (the file node for module-level code and imports), in `nodes`.
    pub from: String,
    pub kind: EdgeKind,
    pub context: UsageContext,
    pub origin: Origin,
    pub path: String,
    pub line: u32,
    /// The flavor of the nearest type enclosing the using symbol (the symbol itself when it is
    /// a type).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_type_flavor: Option<TypeFlavor>,
    /// Id of the UI component the usage sits in (the using symbol or an enclosing one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_ui_component: Option<String>,
    /// The framework pass that synthesized this use (a route's handler, an event listener, a
    /// rendered component, a DI provider, a FastAPI dependency, a pytest fixture): the framework
    /// makes the call, no call expression in the source shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<gortex_core::Synthesizer>,
}

/// Where a using symbol sits: its nearest enclosing type's flavor and UI component.
#[derive(Clone, Copy, Default)]
struct Origins {
    type_flavor: Option<TypeFlavor>,
    ui_component: Option<NodeIndex>,
}

fn origins_of(g: &Graph, i: NodeIndex) -> Origins {
    Origins {
        type_flavor: enclosing_symbols(g, i)
            .map(|n| g.node_at(n))
            .find(|n| n.kind == NodeKind::Type)
            .and_then(|n| n.flavor),
        ui_component: enclosing_ui_component(g, i),
    }
}

/// Parses list argument `name` (one value, a comma-separated list or an array): every value must
/// be one of `accepted` (case-insensitive); an unknown or missing one is refused naming them all.
fn parse_list<T>(
    name: &str,
    what: &str,
    value: &OneOrMany,
    accepted: &[&str],
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, QueryError> {
    let values: Vec<String> = value.values().into_iter().filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        return Err(QueryError::invalid(format!(
            "{name} must name at least one {what}; accepted: {}",
            accepted.join(", ")
        )));
    }
    values
        .iter()
        .map(|v| {
            parse(&v.to_ascii_lowercase()).ok_or_else(|| {
                QueryError::invalid(format!(
                    "{name} contains unknown value {v:?}; accepted: {}",
                    accepted.join(", ")
                ))
            })
        })
        .collect()
}

/// Every reference to a symbol, by file and line.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FindUsagesResult {
    pub target: NodeSummary,
    /// The using symbols, once each, in the order of their first usage.
    pub nodes: Vec<NodeSummary>,
    pub usages: Vec<UsageRow>,
    /// Rows per context (before `limit`).
    pub by_context: BTreeMap<UsageContext, usize>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub tiers: TierReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<Caveat>,
}

/// `find_usages`: incoming references with their context, filtered by `context`.
pub fn find_usages(g: &Graph, args: &FindUsagesArgs) -> Result<FindUsagesResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let min_tier = parse_min_tier(args.min_tier.as_deref())?;
    let contexts: Vec<&str> = UsageContext::ALL.iter().map(|c| c.as_str()).collect();
    let wanted = args
        .context
        .as_ref()
        .map(|c| parse_list("context", "context", c, &contexts, UsageContext::parse))
        .transpose()?;
    let flavors: Vec<&str> = TypeFlavor::ALL.iter().map(|f| f.as_str()).collect();
    let flavors = args
        .flavor
        .as_ref()
        .map(|f| parse_list("flavor", "type flavor", f, &flavors, TypeFlavor::parse))
        .transpose()?;
    let target = resolve_one(g, &args.id)?;
    require_symbol(g, target, "find_usages", "; use get_dependents for files")?;
    let tests = args.include_tests.unwrap_or(true);
    let incoming: Vec<&Edge> = g.in_edges(target).collect();
    let mut origins: FxHashMap<NodeIndex, Origins> = FxHashMap::default();
    for e in &incoming {
        origins.entry(e.from).or_insert_with(|| origins_of(g, e.from));
    }
    let flavor_ok = |from: NodeIndex| {
        let Some(wanted) = &flavors else { return true };
        let o = origins[&from];
        wanted
            .iter()
            .any(|&f| o.type_flavor == Some(f) || (f == TypeFlavor::Component && o.ui_component.is_some()))
    };
    let collect = |floor: Origin| -> Vec<(Edge, UsageContext)> {
        incoming
            .iter()
            .filter(|e| e.origin >= floor)
            .filter(|e| {
                // The resolver pairs every test call with a `tests` edge on the same site.
                e.kind != EdgeKind::Tests
                    || !incoming.iter().any(|o| {
                        matches!(o.kind, EdgeKind::Calls | EdgeKind::Instantiates)
                            && o.from == e.from
                            && o.line == e.line
                            && o.origin >= floor
                    })
            })
            .filter(|e| tests || !in_test(g, e.from))
            .filter(|e| flavor_ok(e.from))
            .filter_map(|e| usage_context(g, e).map(|c| (**e, c)))
            .filter(|(_, c)| wanted.as_ref().is_none_or(|w| w.contains(c)))
            .collect()
    };
    let t = tiered(min_tier, collect, |(e, _)| e.origin);
    let mut rows = t.rows;
    rows.sort_by(|(a, ca), (b, cb)| {
        let (x, y) = (g.node_at(a.from), g.node_at(b.from));
        (&x.path, a.line, &x.id, a.kind, ca).cmp(&(&y.path, b.line, &y.id, b.kind, cb))
    });
    let mut by_context = BTreeMap::new();
    for (_, c) in &rows {
        *by_context.entry(*c).or_insert(0) += 1;
    }
    let caveat = caveat_for_rows(g, target, rows.iter().map(|(e, _)| e.origin));
    let total = rows.len();
    let mut seen = FxHashSet::default();
    let mut nodes = Vec::new();
    let usages = rows
        .into_iter()
        .take(limit)
        .map(|(e, context)| UsageRow {
            from: {
                if seen.insert(e.from) {
                    nodes.push(NodeSummary::at(g, e.from));
                }
                g.node_at(e.from).id.to_string()
            },
            kind: e.kind,
            context,
            origin: e.origin,
            path: g.node_at(e.from).path.to_string(),
            line: e.line,
            from_type_flavor: origins[&e.from].type_flavor,
            from_ui_component: origins[&e.from].ui_component.map(|c| g.node_at(c).id.to_string()),
            via: e.via,
        })
        .collect();
    Ok(FindUsagesResult {
        target: NodeSummary::at(g, target),
        nodes,
        usages,
        by_context,
        total,
        truncated: total > limit,
        tiers: t.report,
        caveat,
    })
}
