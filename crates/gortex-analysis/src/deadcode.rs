//! Dead code (original-behaviour §5.4): symbols nothing uses.
//!
//! **Usage evidence.** Any incoming edge that is not structural (`calls`, `references`,
//! `instantiates`, `extends`, `implements`, `typed_as`, `returns`, `tests`, and `imports` /
//! `re_exports` of the symbol itself), of any tier, from outside the symbol. Edges from the
//! symbol itself or from code it contains (recursion, a class's own methods naming the class)
//! do not count. Types and interfaces are also used when a member is used from outside the type,
//! or when a member declared in another file joins them (`member_of`, Go receivers and Rust
//! `impl` blocks elsewhere).
//!
//! **Never reported** (unused, but listed in `excluded` by reason):
//! - `test`: test symbols and anything declared in a test file (helpers, fixtures);
//! - `declaration_file`: anything in a TypeScript `.d.ts` file (ambient declarations of code that
//!   lives elsewhere);
//! - `document`: declarations of documents and schemas (Markdown sections, proto messages, SQL
//!   tables, Dockerfile stages, npm scripts), which tools outside the graph read;
//! - `exported`: exported symbols, and public or protected members of exported types and
//!   objects, unless `include_exported` is set;
//! - `object_member`: methods of object literals (`{ m() {} }` inside a function or a variable),
//!   which are called through the object and rarely resolved;
//! - `entry_point`: `main`, Go `init`;
//! - `constructor`: `constructor`, `__init__`, `__new__`, `__post_init__`, Rust `new` methods,
//!   Java methods named like their class;
//! - `magic_method`: Python dunders, `toString`/`valueOf`/`toJSON` (JS/TS), `toString`/`equals`/
//!   `hashCode`/`compareTo`/serialisation hooks (Java);
//! - `decorated`: a decorator or annotation other than the inert ones (see [`INERT_DECORATORS`]):
//!   framework registration (`@app.route`, `@Get`, `@pytest.fixture`, `@click.command`, Spring
//!   mappings, `@Component`) and attribute-style accessors (`@property`) are used by a runtime
//!   the graph does not see;
//! - `override`: methods that override or implement a supertype member (a same-named method or
//!   field on a supertype, Java `@Override`, or a non-private method of a type with a supertype
//!   outside the repository), and Rust trait `impl` methods (`trait_impl`);
//! - `interface_member`: interface or abstract methods that some subtype implements.
//!
//! File, package, import, module, parameter and external nodes are never candidates.
//!
//! **Confidence** is `high` unless the symbol's zero-edge caveat ([`classify_caveat`]) is
//! `coverage_incomplete` — an unresolved reference carries its name, a namespace import of its
//! file could reach it, or it is a value whose reads are not all indexed — or a known blind spot
//! of the extractors applies: a Go or Rust function or method (no use of a function as a value is
//! recorded, not even as a call argument), a function nested in a function (usually returned or
//! handed on as a value), an enum or a type with static fields (`Type.member` reads are not
//! recorded). Then `medium`, with the doubt spelled out in `reason`. Every result also carries
//! [`BLIND_SPOTS`].
//!
//! **Transitive** (`transitive: true`): a fixed point adds symbols every user of which is dead
//! (or inside dead code), flagged `via_dead`. Users that are files (module-level code), tests or
//! excluded symbols keep their callees alive.

use crate::reach::{check_path_prefix, inside, parents, test_flags, under};
use gortex_core::{EdgeKind, Language, NodeKind, Origin, QueryError, TypeFlavor, Visibility};
use gortex_graph::query::common::{
    check_limit, classify_caveat, hierarchy_walk, members, overriding, CaveatClass, OneOrMany, MAX_HIERARCHY_DEPTH,
};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Node kinds `kinds` accepts.
pub const DEAD_CODE_KINDS: &[NodeKind] = &[
    NodeKind::Function,
    NodeKind::Method,
    NodeKind::Type,
    NodeKind::Interface,
    NodeKind::Field,
    NodeKind::Variable,
    NodeKind::Constant,
    NodeKind::EnumMember,
];

/// Node kinds reported when `kinds` is absent.
pub const DEFAULT_DEAD_CODE_KINDS: &[NodeKind] = &[
    NodeKind::Function,
    NodeKind::Method,
    NodeKind::Type,
    NodeKind::Interface,
];

/// Decorators and annotations that say nothing about who calls the symbol (compared on the
/// last `.`/`::` segment). Any other decorator marks a framework entry point or an accessor.
pub const INERT_DECORATORS: &[&str] = &[
    // Python
    "staticmethod",
    "classmethod",
    "abstractmethod",
    "wraps",
    "lru_cache",
    "cache",
    "overload",
    "final",
    "override",
    "deprecated",
    "total_ordering",
    "dataclass",
    "unique",
    "runtime_checkable",
    "no_type_check",
    "contextmanager",
    "asynccontextmanager",
    "singledispatch",
    // Java
    "Deprecated",
    "SuppressWarnings",
    "SafeVarargs",
    "FunctionalInterface",
    "Nullable",
    "NonNull",
    "Nonnull",
    "NotNull",
    "CheckForNull",
    "VisibleForTesting",
    // Rust
    "inline",
    "must_use",
    "allow",
    "warn",
    "deny",
    "expect",
    "forbid",
    "cfg",
    "cfg_attr",
    "derive",
    "doc",
    "track_caller",
    "cold",
    "non_exhaustive",
    "repr",
    "skip",
];

/// Arguments of `analyze kind=dead_code`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeadCodeArgs {
    /// Node kinds to check (one name, a comma-separated list or an array): function, method, type,
    /// interface (the default), and field, variable, constant, enum_member on request.
    #[serde(default)]
    pub kinds: Option<OneOrMany>,
    /// Only report symbols whose path starts with this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Also report exported symbols (public API nobody in the repository uses).
    #[serde(default)]
    pub include_exported: Option<bool>,
    /// Also report symbols whose only users are dead themselves (flagged `via_dead`).
    #[serde(default)]
    pub transitive: Option<bool>,
    /// Most rows returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// How sure a dead-code row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeadConfidence {
    /// No usage evidence of any kind.
    High,
    /// No usage edge, but name-only or incomplete evidence exists (see `reason`).
    Medium,
}

/// One dead symbol.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeadRow {
    pub symbol: NodeSummary,
    /// Why it is considered dead, and what could make that wrong.
    pub reason: String,
    pub confidence: DeadConfidence,
    /// Used only by dead code (transitive mode).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub via_dead: bool,
    /// For `via_dead` rows: ids of (up to 5 of) the dead users.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dead_users: Vec<String>,
}

/// Dead symbols of the repository (or under `path_prefix`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeadCodeResult {
    /// Rows: direct findings first, high confidence first, then by path and line.
    pub dead: Vec<DeadRow>,
    /// Rows before `limit`.
    pub total: usize,
    /// Rows before `limit`, per kind.
    pub by_kind: BTreeMap<NodeKind, usize>,
    /// Rows before `limit`, per confidence.
    pub by_confidence: BTreeMap<DeadConfidence, usize>,
    /// Of `total`, rows found by the transitive pass.
    #[serde(skip_serializing_if = "is_zero")]
    pub via_dead: usize,
    pub truncated: bool,
    /// Unused symbols of the requested kinds that were not reported, by reason.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub excluded: BTreeMap<&'static str, usize>,
    /// The kinds reported.
    pub kinds: Vec<NodeKind>,
    /// Uses the index does not record, so rows may be wrong there (see [`BLIND_SPOTS`]).
    pub blind_spots: &'static str,
}

/// Uses no extractor records yet; every dead-code answer carries this warning.
pub const BLIND_SPOTS: &str = "not indexed: function names read as values outside call arguments (assignments, \
     object literals and shorthand properties, returns, default values; in Go and Rust not even as arguments), reads \
     of enum members and static fields (`Type.member`), reflection and string-based dispatch; check a row before \
     deleting it";

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `analyze kind=dead_code`: symbols with no usage evidence (see the module doc).
pub fn dead_code(g: &Graph, args: &DeadCodeArgs) -> Result<DeadCodeResult, QueryError> {
    let kinds = match &args.kinds {
        Some(k) => parse_node_kinds("kinds", k, DEAD_CODE_KINDS)?,
        None => DEFAULT_DEAD_CODE_KINDS.to_vec(),
    };
    let prefix = check_path_prefix(args.path_prefix.as_deref())?;
    let limit = check_limit(args.limit)?;
    let opts = Options {
        kinds: &kinds,
        prefix: prefix.as_deref(),
        include_exported: args.include_exported.unwrap_or(false),
        transitive: args.transitive.unwrap_or(false),
    };
    let found = analyse(g, &opts);
    let mut rows: Vec<Finding> = found.dead;
    rows.sort_by(|a, b| {
        let (x, y) = (g.node_at(a.node), g.node_at(b.node));
        (a.via_dead, a.confidence, &x.path, x.span.start_line, &x.id).cmp(&(
            b.via_dead,
            b.confidence,
            &y.path,
            y.span.start_line,
            &y.id,
        ))
    });
    let mut by_kind = BTreeMap::new();
    let mut by_confidence = BTreeMap::new();
    for r in &rows {
        *by_kind.entry(g.node_at(r.node).kind).or_insert(0) += 1;
        *by_confidence.entry(r.confidence).or_insert(0) += 1;
    }
    let total = rows.len();
    let via_dead = rows.iter().filter(|r| r.via_dead).count();
    let dead = rows
        .into_iter()
        .take(limit)
        .map(|r| DeadRow {
            symbol: NodeSummary::at(g, r.node),
            reason: r.reason,
            confidence: r.confidence,
            via_dead: r.via_dead,
            dead_users: r.dead_users.iter().map(|&u| g.node_at(u).id.to_string()).collect(),
        })
        .collect();
    Ok(DeadCodeResult {
        dead,
        total,
        by_kind,
        by_confidence,
        via_dead,
        truncated: total > limit,
        excluded: found.excluded,
        kinds,
        blind_spots: BLIND_SPOTS,
    })
}

/// Dead symbols of the default kinds (function, method, type, interface; exported symbols and
/// the exclusions of [`dead_code`] left out, no transitive pass), for other analyses such as
/// clone detection's `dead_only`.
pub fn dead_set(g: &Graph) -> FxHashSet<NodeIndex> {
    let opts = Options {
        kinds: DEFAULT_DEAD_CODE_KINDS,
        prefix: None,
        include_exported: false,
        transitive: false,
    };
    analyse(g, &opts).dead.into_iter().map(|f| f.node).collect()
}

/// Parses a list of node-kind names for argument `name`, accepting only `allowed` kinds.
pub(crate) fn parse_node_kinds(
    name: &str,
    value: &OneOrMany,
    allowed: &[NodeKind],
) -> Result<Vec<NodeKind>, QueryError> {
    let accepted = || allowed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ");
    let values: Vec<String> = value.values().into_iter().filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        return Err(QueryError::invalid(format!(
            "{name} must name at least one node kind; accepted: {}",
            accepted()
        )));
    }
    let mut kinds = Vec::new();
    for v in values {
        match NodeKind::parse(&v).filter(|k| allowed.contains(k)) {
            Some(k) => kinds.push(k),
            None => {
                return Err(QueryError::invalid(format!(
                    "{name} contains unsupported node kind {v:?}; accepted: {}",
                    accepted()
                )))
            }
        }
    }
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

struct Options<'a> {
    kinds: &'a [NodeKind],
    prefix: Option<&'a str>,
    include_exported: bool,
    transitive: bool,
}

struct Finding {
    node: NodeIndex,
    reason: String,
    confidence: DeadConfidence,
    via_dead: bool,
    dead_users: Vec<NodeIndex>,
}

struct Analysis {
    dead: Vec<Finding>,
    excluded: BTreeMap<&'static str, usize>,
}

/// What the first pass concluded about one node.
enum Verdict {
    /// Not a candidate kind (or external).
    Skip,
    /// Usage evidence exists; `users` are the distinct using nodes (collected in transitive mode).
    Used { eligible: bool, users: Vec<NodeIndex> },
    /// Unused, but never reported.
    Excluded(&'static str),
    /// Unused and reportable. `self_only`: its only uses come from inside itself (recursion).
    Dead { self_only: bool },
}

struct Ctx<'g> {
    g: &'g Graph,
    tests: Vec<bool>,
    parents: Vec<NodeIndex>,
    include_exported: bool,
}

fn analyse(g: &Graph, opts: &Options<'_>) -> Analysis {
    let cx = Ctx {
        g,
        tests: test_flags(g),
        parents: parents(g),
        include_exported: opts.include_exported,
    };
    // Transitive mode lets the default kinds die too, so a dead method can take its callees along
    // even when only functions are reported.
    let mut candidate_kinds: Vec<NodeKind> = opts.kinds.to_vec();
    if opts.transitive {
        candidate_kinds.extend_from_slice(DEFAULT_DEAD_CODE_KINDS);
    }
    let verdicts: Vec<Verdict> = (0..g.node_count() as NodeIndex)
        .into_par_iter()
        .map(|i| cx.verdict(i, &candidate_kinds, opts.transitive))
        .collect();
    let reported = |i: NodeIndex| {
        let n = g.node_at(i);
        opts.kinds.contains(&n.kind) && under(&n.path, opts.prefix)
    };
    let mut excluded: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut direct: Vec<(NodeIndex, bool)> = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        let i = i as NodeIndex;
        match v {
            Verdict::Excluded(why) if reported(i) => *excluded.entry(why).or_insert(0) += 1,
            Verdict::Dead { self_only } => direct.push((i, *self_only)),
            _ => {}
        }
    }
    let mut dead: Vec<Finding> = direct
        .par_iter()
        .filter(|(i, _)| reported(*i))
        .map(|&(i, self_only)| cx.finding(i, self_only))
        .collect();
    if opts.transitive {
        for (node, users) in propagate(&cx, &verdicts, direct.iter().map(|d| d.0)) {
            if reported(node) {
                let mut f = cx.finding(node, false);
                f.via_dead = true;
                f.reason = format!(
                    "only used by dead code ({})",
                    users
                        .iter()
                        .take(3)
                        .map(|&u| g.node_at(u).qualified.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                f.dead_users = users.into_iter().take(5).collect();
                dead.push(f);
            }
        }
    }
    Analysis { dead, excluded }
}

/// The transitive pass: nodes whose every user is dead (or inside dead code), with those users.
fn propagate(
    cx: &Ctx<'_>,
    verdicts: &[Verdict],
    direct: impl Iterator<Item = NodeIndex>,
) -> Vec<(NodeIndex, Vec<NodeIndex>)> {
    let g = cx.g;
    let n = g.node_count();
    // user → candidates it uses (CSR), and per candidate the users still alive.
    let mut pairs: Vec<(NodeIndex, NodeIndex)> = Vec::new();
    let mut remaining = vec![0u32; n];
    for (c, v) in verdicts.iter().enumerate() {
        if let Verdict::Used { eligible: true, users } = v {
            remaining[c] = users.len() as u32;
            pairs.extend(users.iter().map(|&u| (u, c as NodeIndex)));
        }
    }
    pairs.sort_unstable();
    let mut offsets = vec![0u32; n + 1];
    for &(u, _) in &pairs {
        offsets[u as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut dead_user = vec![false; n];
    let mut is_dead = vec![false; n];
    let mut queue: Vec<NodeIndex> = Vec::new();
    for d in direct {
        is_dead[d as usize] = true;
        queue.push(d);
    }
    let mut found: Vec<NodeIndex> = Vec::new();
    let mut qi = 0;
    while qi < queue.len() {
        let d = queue[qi];
        qi += 1;
        // Everything inside dead code is a dead user too (a closure, the constructor of a dead class).
        let mut stack = vec![d];
        while let Some(x) = stack.pop() {
            if std::mem::replace(&mut dead_user[x as usize], true) {
                continue;
            }
            for e in g.out_edges(x) {
                if e.kind == EdgeKind::Contains && g.node_at(e.to).kind.is_symbol() {
                    stack.push(e.to);
                }
            }
            for e in g.in_edges(x) {
                if e.kind == EdgeKind::MemberOf {
                    stack.push(e.from);
                }
            }
            let (s, t) = (offsets[x as usize] as usize, offsets[x as usize + 1] as usize);
            for &(_, c) in &pairs[s..t] {
                let r = &mut remaining[c as usize];
                *r = r.saturating_sub(1);
                if *r == 0 && !is_dead[c as usize] {
                    is_dead[c as usize] = true;
                    queue.push(c);
                    found.push(c);
                }
            }
        }
    }
    found
        .into_iter()
        .map(|c| {
            let users = match &verdicts[c as usize] {
                Verdict::Used { users, .. } => users.clone(),
                _ => Vec::new(),
            };
            (c, users)
        })
        .collect()
}

impl Ctx<'_> {
    fn verdict(&self, i: NodeIndex, kinds: &[NodeKind], collect_users: bool) -> Verdict {
        let n = self.g.node_at(i);
        if n.external || !kinds.contains(&n.kind) || !self.g.is_live(i) {
            return Verdict::Skip;
        }
        let mut users = Vec::new();
        let (used, self_only) = self.usage(i, collect_users.then_some(&mut users));
        if used {
            let eligible = collect_users && self.exclusion(i).is_none();
            if eligible {
                users.sort_unstable();
                users.dedup();
            }
            return Verdict::Used { eligible, users };
        }
        match self.exclusion(i) {
            Some(why) => Verdict::Excluded(why),
            None => Verdict::Dead { self_only },
        }
    }

    /// (used, only self-uses seen). Users are pushed when `users` is given.
    fn usage(&self, i: NodeIndex, mut users: Option<&mut Vec<NodeIndex>>) -> (bool, bool) {
        let g = self.g;
        let n = g.node_at(i);
        let mut used = false;
        let mut self_use = false;
        let mut note = |u: NodeIndex, users: &mut Option<&mut Vec<NodeIndex>>| -> bool {
            used = true;
            match users {
                Some(v) => {
                    v.push(u);
                    false
                }
                // Without users to collect, the first piece of evidence settles it.
                None => true,
            }
        };
        for e in g.in_edges(i) {
            if e.kind.is_structural() {
                // A member declared in another file joins the type: the type is in use there.
                if e.kind == EdgeKind::MemberOf
                    && n.kind.is_type_like()
                    && g.node_at(e.from).path != n.path
                    && note(e.from, &mut users)
                {
                    return (true, false);
                }
                continue;
            }
            if inside(&self.parents, e.from, i) {
                self_use = true;
                continue;
            }
            if note(e.from, &mut users) {
                return (true, false);
            }
        }
        if n.kind.is_type_like() {
            for m in self.members(i) {
                for e in g.in_edges(m) {
                    if e.kind.is_structural() {
                        continue;
                    }
                    if inside(&self.parents, e.from, i) {
                        continue;
                    }
                    if note(e.from, &mut users) {
                        return (true, false);
                    }
                }
            }
        }
        (used, !used && self_use)
    }

    /// Direct members of a type (methods, fields, nested types), through `contains` and `member_of`.
    fn members(&self, ty: NodeIndex) -> Vec<NodeIndex> {
        let g = self.g;
        let mut out: Vec<NodeIndex> = g
            .out_edges(ty)
            .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.to).kind.is_symbol())
            .map(|e| e.to)
            .chain(g.in_edges(ty).filter(|e| e.kind == EdgeKind::MemberOf).map(|e| e.from))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn parent(&self, i: NodeIndex) -> Option<NodeIndex> {
        self.parents.get(i as usize).copied().filter(|&p| p != NodeIndex::MAX)
    }

    /// Exported, or a public/protected member of an exported type or object
    /// (`export const x = { m() {} }`). Package-private members (Go lowercase, Java default,
    /// Rust `pub(crate)`) are not API.
    fn exported(&self, i: NodeIndex) -> bool {
        let n = self.g.node_at(i);
        if n.exported {
            return true;
        }
        matches!(
            n.visibility,
            None | Some(Visibility::Public) | Some(Visibility::Protected)
        ) && self
            .parent(i)
            .map(|p| self.g.node_at(p))
            .is_some_and(|p| !p.kind.is_callable() && p.exported)
    }

    /// A same-named method or field on some supertype of `owner` (an interface's
    /// `next: (v) => void` is implemented by a method `next`).
    fn overrides_known(&self, method: NodeIndex, owner: NodeIndex) -> bool {
        let g = self.g;
        let name = &g.node_at(method).name;
        hierarchy_walk(g, owner, true, MAX_HIERARCHY_DEPTH, Origin::Speculative)
            .iter()
            .any(|step| {
                members(g, step.node).into_iter().any(|m| {
                    let o = g.node_at(m);
                    m != method && &o.name == name && matches!(o.kind, NodeKind::Method | NodeKind::Field)
                })
            })
    }

    /// An enum, or a type with enum members or static fields/constants (read as `Type.member`).
    fn has_static_data(&self, ty: NodeIndex) -> bool {
        let g = self.g;
        g.node_at(ty).flavor == Some(TypeFlavor::Enum)
            || self.members(ty).into_iter().any(|m| {
                let n = g.node_at(m);
                n.kind == NodeKind::EnumMember
                    || (n.is_static && matches!(n.kind, NodeKind::Field | NodeKind::Constant | NodeKind::Variable))
            })
    }

    /// Why an unused node is still never reported.
    fn exclusion(&self, i: NodeIndex) -> Option<&'static str> {
        let g = self.g;
        let n = g.node_at(i);
        if self.tests[i as usize] {
            return Some("test");
        }
        if n.language.is_some_and(|l| !l.is_code()) {
            // Schemas, manifests and docs are read by tools the graph does not see (protoc, a
            // database, docker, a docs site).
            return Some("document");
        }
        if n.path.ends_with(".d.ts") {
            // Ambient declarations describe code that lives elsewhere (the DOM, a runtime, a package).
            return Some("declaration_file");
        }
        if !self.include_exported && self.exported(i) {
            return Some("exported");
        }
        let lang = n.language;
        if n.name == "main" && n.kind.is_callable() || (n.name == "init" && lang == Some(Language::Go)) {
            return Some("entry_point");
        }
        let parent = self.parent(i);
        let owner = parent.filter(|&p| g.node_at(p).kind.is_type_like());
        if n.kind == NodeKind::Method && parent.is_some() && owner.is_none() {
            // Object-literal methods are called through the object, which calls rarely resolve to.
            return Some("object_member");
        }
        if n.kind == NodeKind::Method {
            let ctor = match n.name.as_str() {
                "constructor" | "__init__" | "__new__" | "__post_init__" => true,
                "new" => lang == Some(Language::Rust),
                name => lang == Some(Language::Java) && owner.is_some_and(|o| g.node_at(o).name == name),
            };
            if ctor {
                return Some("constructor");
            }
        }
        if n.kind.is_callable() && is_magic(&n.name, lang) {
            return Some("magic_method");
        }
        if n.decorators.iter().any(|d| d == "Override") && lang == Some(Language::Java) {
            return Some("override");
        }
        if n.decorators.iter().any(|d| !is_inert(d)) {
            return Some("decorated");
        }
        if n.kind == NodeKind::Method {
            if lang == Some(Language::Rust)
                && n.visibility == Some(Visibility::Public)
                && !n.signature.as_deref().unwrap_or("").trim_start().starts_with("pub")
                && owner.is_none_or(|o| g.node_at(o).kind != NodeKind::Interface)
            {
                return Some("trait_impl");
            }
            if let Some(o) = owner {
                if self.overrides_known(i, o) || self.may_override_unknown(i, o) {
                    return Some("override");
                }
                let contract = g.node_at(o).kind == NodeKind::Interface || n.is_abstract;
                if contract && !overriding(g, i, Origin::Speculative).is_empty() {
                    return Some("interface_member");
                }
            }
        }
        None
    }

    /// A method of a type whose supertype lies outside the repository (or did not resolve) may
    /// override one of its members, unless it is private.
    fn may_override_unknown(&self, method: NodeIndex, owner: NodeIndex) -> bool {
        let g = self.g;
        let m = g.node_at(method);
        let private = match m.language {
            // Only name-mangled `__x` cannot be overridden in Python.
            Some(Language::Python) => m.name.starts_with("__") && !m.name.ends_with("__"),
            _ => m.visibility == Some(Visibility::Private),
        };
        if private {
            return false;
        }
        let unknown_super = g
            .out_edges(owner)
            .any(|e| matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements) && g.node_at(e.to).external)
            || g.unresolved_from(owner)
                .any(|u| matches!(u.kind, EdgeKind::Extends | EdgeKind::Implements));
        unknown_super
    }

    fn finding(&self, i: NodeIndex, self_only: bool) -> Finding {
        let g = self.g;
        let n = g.node_at(i);
        let base = match n.kind {
            NodeKind::Function | NodeKind::Method => "no incoming call, reference or import",
            NodeKind::Type | NodeKind::Interface => {
                "no reference, instantiation, inheritance, type use or import, and no member used from outside"
            }
            _ => "no reference or import",
        };
        let mut reason = if self_only {
            format!("{base} except from inside itself (recursion)")
        } else {
            base.to_string()
        };
        let mut doubts: Vec<String> = Vec::new();
        let caveat = classify_caveat(g, i);
        if caveat.class == CaveatClass::CoverageIncomplete {
            doubts.push(
                caveat
                    .message
                    .trim_start_matches("no resolved usage found, but ")
                    .trim_end_matches("; the answer may be incomplete")
                    .to_string(),
            );
        }
        if n.kind.is_callable() {
            let lang = match n.language {
                Some(Language::Go) => Some("Go"),
                Some(Language::Rust) => Some("Rust"),
                _ => None,
            };
            if let Some(lang) = lang {
                doubts.push(format!(
                    "{lang} functions used as values (callbacks, method values, map or struct literals) are not \
                     indexed, so such uses are invisible"
                ));
            } else if self.parent(i).is_some_and(|p| g.node_at(p).kind.is_callable()) {
                doubts.push(
                    "a function nested in a function is usually returned or handed on as a value (`return { f }`), \
                     and value uses are only indexed as call arguments"
                        .to_string(),
                );
            }
        }
        if n.kind.is_type_like() && self.has_static_data(i) {
            doubts.push("it has enum members or static fields, and reads of `Type.member` are not indexed".to_string());
        }
        let confidence = if doubts.is_empty() {
            DeadConfidence::High
        } else {
            reason = format!("{reason}; but {}", doubts.join("; "));
            DeadConfidence::Medium
        };
        Finding {
            node: i,
            reason,
            confidence,
            via_dead: false,
            dead_users: Vec::new(),
        }
    }
}

fn is_inert(decorator: &str) -> bool {
    let last = decorator
        .rsplit(['.', ':'])
        .find(|s| !s.is_empty())
        .unwrap_or(decorator);
    // `@functools.lru_cache(maxsize=2)` may keep its arguments in the recorded name.
    let last = last.split('(').next().unwrap_or(last).trim();
    INERT_DECORATORS.contains(&last)
}

/// Methods a language runtime calls implicitly.
fn is_magic(name: &str, lang: Option<Language>) -> bool {
    match lang {
        Some(Language::Python) => name.len() > 4 && name.starts_with("__") && name.ends_with("__"),
        Some(Language::TypeScript) | Some(Language::Tsx) | Some(Language::JavaScript) => {
            matches!(name, "toString" | "valueOf" | "toJSON" | "[Symbol.iterator]")
        }
        Some(Language::Java) => matches!(
            name,
            "toString"
                | "equals"
                | "hashCode"
                | "compareTo"
                | "finalize"
                | "clone"
                | "readObject"
                | "writeObject"
                | "readResolve"
                | "writeReplace"
                | "readObjectNoData"
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inert_decorators_are_matched_on_their_last_segment() {
        assert!(is_inert("staticmethod"));
        assert!(is_inert("functools.lru_cache"));
        assert!(is_inert("abc.abstractmethod"));
        assert!(is_inert("rustfmt::skip"));
        assert!(!is_inert("app.route"));
        assert!(!is_inert("pytest.fixture"));
        assert!(!is_inert("property"));
        assert!(!is_inert("GetMapping"));
    }

    #[test]
    fn magic_methods_depend_on_the_language() {
        assert!(is_magic("__repr__", Some(Language::Python)));
        assert!(!is_magic("__x", Some(Language::Python)));
        assert!(!is_magic("____", Some(Language::Python)));
        assert!(is_magic("toString", Some(Language::TypeScript)));
        assert!(is_magic("hashCode", Some(Language::Java)));
        assert!(!is_magic("hashCode", Some(Language::Go)));
    }
}
