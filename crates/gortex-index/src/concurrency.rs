//! The concurrency kinds of `analyze`, read from the syntax trees of the indexed files (a
//! structural sweep, `evidence: "ast"`) and attributed to the graph's functions:
//!
//! - **`goroutine_spawns`**: where concurrent work starts — Go `go` statements, and the
//!   equivalents where a language has them: Rust `thread::spawn` / `tokio::spawn` /
//!   `task::spawn(_blocking|_local)`, Python `threading.Thread(…)` / `asyncio.create_task` /
//!   `ensure_future`, Java `new Thread(…)` / `.submit(…)` / `CompletableFuture.runAsync|supplyAsync`,
//!   JavaScript and TypeScript `new Worker(…)`. Each with the function it is in, whether it sits
//!   in a loop (one task per iteration), and for a named callee the function the graph resolved.
//! - **`channel_ops`** (Go): every channel's makes, sends, receives, `range` loops and closes. A
//!   channel is a struct field (by field name, across the repository: `s.events` and
//!   `srv.events` are one) or a local (by name within its function; a parameter is a local of
//!   the function that receives it). `range` counts only over names known as channels.
//! - **`unclosed_channels`** (Go): channels made and never closed anywhere. A local that escapes
//!   its function (passed to a call other than `close`/`len`/`cap`, or returned) may be closed by
//!   whoever receives it and is left out (counted). One that some `for … range` reads is a
//!   `leak`: that loop never ends; the rest are `unclosed` (fine for channels read a known number
//!   of times).
//!
//! - **`race_writes`** (Go): writes inside a goroutine's function literal (`go func() { … }()`)
//!   to what the literal does not declare itself — a captured local or parameter, a field through
//!   a captured value, a map or slice element — the shared state a data race needs. `guarded`
//!   when the literal takes a lock (`.Lock()` / `.RLock()`) or uses `atomic`.
//! - **`field_writers`** (Go, TypeScript, JavaScript, Python, Java, Rust): per field name, the
//!   functions that assign to it (`x.f = …`, `x.f += …`, `x.f++`), the field declarations of that
//!   name, and how many writes come from outside constructors.
//!
//! Names are syntax, not types: an alias of a channel (`c := s.events`) is another name, and
//! fields are grouped by name, not by their type.

use crate::sweep::{enclosing_function, Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Sites listed per channel.
pub const CHANNEL_SITES: usize = 10;

/// Loop bodies per file: `(path, start, end)` lines of every `@loop` hit.
fn loops_of(hits: &[Hit]) -> BTreeMap<&str, Vec<(u32, u32)>> {
    let mut loops: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    for h in hits.iter().filter(|h| h.what == "loop") {
        loops.entry(&h.path).or_default().push((h.line, h.end_line));
    }
    loops
}

// ---------------------------------------------------------------------------------------------
// goroutine_spawns
// ---------------------------------------------------------------------------------------------

/// Spawn sites and loop bodies per language.
const SPAWNS: &[(Language, &str)] = &[
    (
        Language::Go,
        r#"(go_statement (call_expression function: (_) @goroutine)) (for_statement body: (block) @loop)"#,
    ),
    (
        Language::Rust,
        r#"(call_expression function: (scoped_identifier) @thread (#match? @thread "(^|::)thread::spawn$"))
           (call_expression function: (scoped_identifier) @task (#match? @task "(^|::)(tokio|task)::spawn(_blocking|_local)?$"))
           (for_expression body: (block) @loop) (while_expression body: (block) @loop) (loop_expression body: (block) @loop)"#,
    ),
    (
        Language::Python,
        r#"(call function: [(identifier) (attribute)] @thread (#match? @thread "^(threading\\.)?Thread$"))
           (call function: (attribute) @task (#match? @task "^asyncio\\.(create_task|ensure_future)$"))
           (for_statement body: (block) @loop) (while_statement body: (block) @loop)"#,
    ),
    (
        Language::Java,
        r#"(object_creation_expression type: (type_identifier) @thread (#eq? @thread "Thread"))
           (method_invocation name: (identifier) @task (#any-of? @task "submit" "runAsync" "supplyAsync"))
           (for_statement body: (_) @loop) (enhanced_for_statement body: (_) @loop) (while_statement body: (_) @loop)"#,
    ),
    (Language::JavaScript, WORKERS),
    (Language::TypeScript, WORKERS),
    (Language::Tsx, WORKERS),
];

const WORKERS: &str = r#"(new_expression constructor: (identifier) @worker (#eq? @worker "Worker"))
    (for_statement body: (_) @loop) (for_in_statement body: (_) @loop) (while_statement body: (_) @loop)"#;

/// Arguments of `analyze kind=goroutine_spawns`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoroutineSpawnsArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most spawn sites returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One place concurrent work starts.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SpawnSite {
    /// `goroutine`, `thread`, `task` or `worker`.
    pub mechanism: String,
    /// What is started: the callee's text (`worker`, `s.loop`, `func literal`), or the
    /// constructor or call that starts it.
    pub callee: String,
    pub path: String,
    pub line: u32,
    /// The function the spawn is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<NodeSummary>,
    /// Inside a loop body of that function: one per iteration.
    pub in_loop: bool,
    /// The function the graph resolved the started call to (a named Go callee).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<NodeSummary>,
    /// The source line.
    pub text: String,
}

/// The answer of `analyze kind=goroutine_spawns`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GoroutineSpawnsResult {
    /// By file and line, at most `limit`.
    pub spawns: Vec<SpawnSite>,
    pub total: usize,
    pub truncated: bool,
    /// Spawn sites per mechanism.
    pub by_mechanism: BTreeMap<String, usize>,
    /// Distinct functions that spawn.
    pub functions: usize,
    /// Spawn sites inside loops.
    pub in_loops: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=goroutine_spawns` (see the module doc).
    pub(crate) fn goroutine_spawns(
        &self,
        g: &Graph,
        a: &GoroutineSpawnsArgs,
    ) -> Result<GoroutineSpawnsResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, SPAWNS, a.path_prefix.as_deref())?;
        let loops = loops_of(&hits);
        let mut spawns: Vec<SpawnSite> = hits
            .iter()
            .filter(|h| h.what != "loop")
            .map(|h| {
                let function = enclosing_function(g, &h.path, h.line);
                let literal = h.node_kind == "func_literal";
                let callee = if literal {
                    "func literal".to_string()
                } else {
                    h.text.clone()
                };
                let target = match (function, literal, h.what.as_str()) {
                    (Some(f), false, "goroutine") => resolved_call(g, f, &callee, h.line),
                    _ => None,
                };
                SpawnSite {
                    mechanism: h.what.clone(),
                    callee,
                    path: h.path.clone(),
                    line: h.line,
                    in_loop: loops.get(h.path.as_str()).is_some_and(|ls| {
                        ls.iter().any(|&(s, e)| {
                            s <= h.line && h.line <= e && function.is_none_or(|f| g.node_at(f).span.start_line <= s)
                        })
                    }),
                    function: function.map(|f| NodeSummary::at(g, f)),
                    target: target.map(|t| NodeSummary::at(g, t)),
                    text: h.quote.clone(),
                }
            })
            .collect();
        spawns.sort_by(|a, b| {
            a.path
                .cmp(&b.path)
                .then(a.line.cmp(&b.line))
                .then_with(|| a.callee.cmp(&b.callee))
        });
        let mut by_mechanism = BTreeMap::new();
        for s in &spawns {
            *by_mechanism.entry(s.mechanism.clone()).or_insert(0) += 1;
        }
        let functions: BTreeSet<&str> = spawns
            .iter()
            .filter_map(|s| s.function.as_ref().map(|f| f.id.as_str()))
            .collect();
        let (total, in_loops, functions) = (
            spawns.len(),
            spawns.iter().filter(|s| s.in_loop).count(),
            functions.len(),
        );
        spawns.truncate(limit);
        Ok(GoroutineSpawnsResult {
            spawns,
            total,
            truncated: total > limit,
            by_mechanism,
            functions,
            in_loops,
            coverage,
        })
    }
}

/// The function a call from `from` on `line` to a callee spelled `callee` was resolved to.
fn resolved_call(g: &Graph, from: NodeIndex, callee: &str, line: u32) -> Option<NodeIndex> {
    let name = callee.rsplit('.').next().unwrap_or(callee);
    g.out_edges(from)
        .find(|e| e.kind == EdgeKind::Calls && e.line == line && g.node_at(e.to).name == name)
        .map(|e| e.to)
}

// ---------------------------------------------------------------------------------------------
// channel_ops / unclosed_channels
// ---------------------------------------------------------------------------------------------

/// Go channel operations, declarations and escapes.
const CHANNELS: &[(Language, &str)] = &[(
    Language::Go,
    r#"(send_statement channel: (_) @send)
       (unary_expression operator: "<-" operand: (_) @receive)
       (for_statement (range_clause right: (_) @range))
       (call_expression function: (identifier) @_f (#eq? @_f "close") arguments: (argument_list . (_) @close))
       (short_var_declaration left: (expression_list . (_) @make) right: (expression_list . (call_expression function: (identifier) @_m (#eq? @_m "make") arguments: (argument_list . (channel_type)))))
       (assignment_statement left: (expression_list . (_) @make) right: (expression_list . (call_expression function: (identifier) @_m (#eq? @_m "make") arguments: (argument_list . (channel_type)))))
       (var_spec name: (identifier) @make value: (expression_list . (call_expression function: (identifier) @_m (#eq? @_m "make") arguments: (argument_list . (channel_type)))))
       (keyed_element key: (literal_element (identifier) @make_field) value: (literal_element (call_expression function: (identifier) @_m (#eq? @_m "make") arguments: (argument_list . (channel_type)))))
       (parameter_declaration name: (identifier) @param type: (channel_type))
       (field_declaration name: (field_identifier) @field type: (channel_type))
       (var_spec name: (identifier) @var type: (channel_type))
       (call_expression function: (_) @_callee arguments: (argument_list (identifier) @passed))
       (return_statement (expression_list (identifier) @returned))"#,
)];

/// A channel: a struct field by name, or a local by name within its function.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ChannelKey {
    name: String,
    /// The function a local belongs to; `None` for a field.
    function: Option<NodeIndex>,
    /// A file-level local (no enclosing function): its file.
    file: Option<String>,
}

/// Everything seen of one channel.
#[derive(Debug, Default)]
struct Channel {
    made: Vec<(String, u32)>,
    sends: usize,
    receives: usize,
    ranges: usize,
    closes: usize,
    /// Declared with a channel type (parameter, field, var).
    declared: Option<&'static str>,
    escapes: bool,
    sites: Vec<(&'static str, String, u32)>,
}

impl Channel {
    fn known(&self) -> bool {
        !self.made.is_empty() || self.declared.is_some() || self.sends + self.receives + self.closes > 0
    }
}

/// The channel an expression names: a selector's field, or a local identifier.
fn channel_key(g: &Graph, h: &Hit, field: bool) -> Option<ChannelKey> {
    let local = |name: &str| {
        let function = enclosing_function(g, &h.path, h.line).filter(|&f| g.node_at(f).kind.is_callable());
        ChannelKey {
            name: name.to_string(),
            file: function.is_none().then(|| h.path.clone()),
            function,
        }
    };
    match h.node_kind.as_str() {
        "field_identifier" => Some(ChannelKey {
            name: h.text.clone(),
            function: None,
            file: None,
        }),
        "identifier" if field => Some(ChannelKey {
            name: h.text.clone(),
            function: None,
            file: None,
        }),
        "identifier" => Some(local(&h.text)),
        "selector_expression" => h.text.rsplit('.').next().map(|f| ChannelKey {
            name: f.trim().to_string(),
            function: None,
            file: None,
        }),
        _ => None,
    }
}

impl RepoIndex {
    /// Every Go channel under `prefix` with what was done to it.
    fn channels(
        &self,
        g: &Graph,
        prefix: Option<&str>,
    ) -> Result<(BTreeMap<ChannelKey, Channel>, SweepCoverage), QueryError> {
        let (hits, coverage) = self.ast_hits(g, CHANNELS, prefix)?;
        let mut channels: BTreeMap<ChannelKey, Channel> = BTreeMap::new();
        let mut ranges = Vec::new();
        let mut escapes = Vec::new();
        for h in &hits {
            let op: &'static str = match h.what.as_str() {
                "send" => "send",
                "receive" => "receive",
                "close" => "close",
                "make" | "make_field" => "make",
                "param" => "param",
                "field" => "field",
                "var" => "var",
                "range" => {
                    ranges.push(h);
                    continue;
                }
                "passed" => {
                    if !matches!(h.other("_callee"), Some("close" | "len" | "cap")) {
                        escapes.push(h);
                    }
                    continue;
                }
                "returned" => {
                    escapes.push(h);
                    continue;
                }
                _ => continue,
            };
            let Some(key) = channel_key(g, h, h.what == "make_field") else {
                continue;
            };
            let c = channels.entry(key).or_default();
            match op {
                "send" => c.sends += 1,
                "receive" => c.receives += 1,
                "close" => c.closes += 1,
                "make" => c.made.push((h.path.clone(), h.line)),
                "param" | "field" | "var" => c.declared = Some(op),
                _ => {}
            }
            if !matches!(op, "param" | "field" | "var") {
                c.sites.push((op, h.path.clone(), h.line));
            }
        }
        for h in ranges {
            let Some(key) = channel_key(g, h, false) else { continue };
            if let Some(c) = channels.get_mut(&key).filter(|c| c.known()) {
                c.ranges += 1;
                c.sites.push(("range", h.path.clone(), h.line));
            }
        }
        for h in escapes {
            let Some(key) = channel_key(g, h, false) else { continue };
            if let Some(c) = channels.get_mut(&key) {
                c.escapes = true;
            }
        }
        channels.retain(|_, c| c.known());
        for c in channels.values_mut() {
            c.sites.sort_by(|a, b| a.1.cmp(&b.1).then(a.2.cmp(&b.2)));
        }
        Ok((channels, coverage))
    }
}

/// Arguments of `analyze kind=channel_ops`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelOpsArgs {
    /// Only channels of this name (a field's or a local's).
    #[serde(default)]
    pub channel: Option<String>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most channels returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One operation on a channel.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChannelSite {
    /// `make`, `send`, `receive`, `range` or `close`.
    pub op: &'static str,
    pub path: String,
    pub line: u32,
}

/// One channel and what is done to it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChannelRow {
    pub channel: String,
    /// `field` (a struct field, by name across the repository) or `local`.
    pub scope: &'static str,
    /// The function a local belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<NodeSummary>,
    /// How a declared channel is declared: `param`, `field` or `var`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_as: Option<&'static str>,
    pub makes: usize,
    pub sends: usize,
    pub receives: usize,
    pub ranges: usize,
    pub closes: usize,
    /// The operations, by file and line, at most [`CHANNEL_SITES`].
    pub sites: Vec<ChannelSite>,
}

/// The answer of `analyze kind=channel_ops`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChannelOpsResult {
    /// Most operations first (ties by name), at most `limit`.
    pub channels: Vec<ChannelRow>,
    pub total: usize,
    pub truncated: bool,
    /// Operations of each kind over every channel counted.
    pub totals: BTreeMap<&'static str, usize>,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

fn channel_row(g: &Graph, key: &ChannelKey, c: &Channel) -> ChannelRow {
    ChannelRow {
        channel: key.name.clone(),
        scope: if key.function.is_some() || key.file.is_some() {
            "local"
        } else {
            "field"
        },
        function: key.function.map(|f| NodeSummary::at(g, f)),
        declared_as: c.declared,
        makes: c.made.len(),
        sends: c.sends,
        receives: c.receives,
        ranges: c.ranges,
        closes: c.closes,
        sites: c
            .sites
            .iter()
            .take(CHANNEL_SITES)
            .map(|(op, path, line)| ChannelSite {
                op,
                path: path.clone(),
                line: *line,
            })
            .collect(),
    }
}

impl RepoIndex {
    /// `analyze kind=channel_ops` (see the module doc).
    pub(crate) fn channel_ops(&self, g: &Graph, a: &ChannelOpsArgs) -> Result<ChannelOpsResult, QueryError> {
        let limit = check_limit_with(a.limit, 50)?;
        let (channels, coverage) = self.channels(g, a.path_prefix.as_deref())?;
        let mut rows: Vec<ChannelRow> = channels
            .iter()
            .filter(|(k, _)| a.channel.as_deref().is_none_or(|n| k.name == n))
            .map(|(k, c)| channel_row(g, k, c))
            .collect();
        let ops = |r: &ChannelRow| r.makes + r.sends + r.receives + r.ranges + r.closes;
        rows.sort_by(|a, b| ops(b).cmp(&ops(a)).then_with(|| a.channel.cmp(&b.channel)));
        let mut totals = BTreeMap::new();
        for r in &rows {
            for (op, n) in [
                ("make", r.makes),
                ("send", r.sends),
                ("receive", r.receives),
                ("range", r.ranges),
                ("close", r.closes),
            ] {
                *totals.entry(op).or_insert(0) += n;
            }
        }
        let total = rows.len();
        rows.truncate(limit);
        Ok(ChannelOpsResult {
            channels: rows,
            total,
            truncated: total > limit,
            totals,
            coverage,
        })
    }
}

/// Arguments of `analyze kind=unclosed_channels`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnclosedChannelsArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most channels returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A channel made and never closed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnclosedChannel {
    /// `leak` (a `for … range` reads it: that loop never ends) or `unclosed`.
    pub risk: &'static str,
    #[serde(flatten)]
    pub channel: ChannelRow,
}

/// The answer of `analyze kind=unclosed_channels`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnclosedChannelsResult {
    /// Leaks first, then by name, at most `limit`.
    pub channels: Vec<UnclosedChannel>,
    pub total: usize,
    pub truncated: bool,
    /// Channels made and closed somewhere.
    pub closed: usize,
    /// Locals made, never closed in their function, but passed on or returned (whoever receives
    /// them may close them): left out.
    pub escaping: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=unclosed_channels` (see the module doc).
    pub(crate) fn unclosed_channels(
        &self,
        g: &Graph,
        a: &UnclosedChannelsArgs,
    ) -> Result<UnclosedChannelsResult, QueryError> {
        let limit = check_limit_with(a.limit, 50)?;
        let (channels, coverage) = self.channels(g, a.path_prefix.as_deref())?;
        let (mut closed, mut escaping, mut rows) = (0, 0, Vec::new());
        for (key, c) in channels.iter().filter(|(_, c)| !c.made.is_empty()) {
            if c.closes > 0 {
                closed += 1;
            } else if c.escapes && key.function.is_some() {
                escaping += 1;
            } else {
                rows.push(UnclosedChannel {
                    risk: if c.ranges > 0 { "leak" } else { "unclosed" },
                    channel: channel_row(g, key, c),
                });
            }
        }
        rows.sort_by(|a, b| {
            (a.risk != "leak")
                .cmp(&(b.risk != "leak"))
                .then_with(|| a.channel.channel.cmp(&b.channel.channel))
        });
        let total = rows.len();
        rows.truncate(limit);
        Ok(UnclosedChannelsResult {
            channels: rows,
            total,
            truncated: total > limit,
            closed,
            escaping,
            coverage,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// race_writes
// ---------------------------------------------------------------------------------------------

/// Goroutine literals, writes, declarations, locks and atomics (Go).
const RACES: &[(Language, &str)] = &[(
    Language::Go,
    r#"(go_statement (call_expression function: (func_literal) @body))
       (assignment_statement left: (expression_list (_) @write))
       (inc_statement (_) @write)
       (dec_statement (_) @write)
       (short_var_declaration left: (expression_list (identifier) @declare))
       (var_spec name: (identifier) @declare)
       (parameter_declaration name: (identifier) @declare)
       (range_clause left: (expression_list (identifier) @declare))
       (call_expression function: (selector_expression field: (field_identifier) @lock (#any-of? @lock "Lock" "RLock")))
       (call_expression function: (selector_expression operand: (identifier) @atomic (#eq? @atomic "atomic")))"#,
)];

/// Arguments of `analyze kind=race_writes`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RaceWritesArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Leave out writes in goroutines that take a lock or use `atomic` (default false).
    #[serde(default)]
    pub unguarded_only: bool,
    /// Most writes returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A write to shared state from a goroutine.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RaceWrite {
    /// What is written, as spelled (`count`, `s.total`, `seen[k]`).
    pub target: String,
    /// `captured` (a local or parameter of the enclosing function), `field` (through a captured
    /// value) or `element` (of a captured map or slice).
    pub shared: &'static str,
    pub path: String,
    pub line: u32,
    /// The named function the goroutine is started in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<NodeSummary>,
    /// The goroutine takes a lock or uses `atomic`.
    pub guarded: bool,
    pub text: String,
}

/// The answer of `analyze kind=race_writes`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RaceWritesResult {
    /// Unguarded first, then by file and line, at most `limit`.
    pub writes: Vec<RaceWrite>,
    pub total: usize,
    pub truncated: bool,
    /// Writes in goroutines without a lock or `atomic`.
    pub unguarded: usize,
    /// Goroutine function literals searched.
    pub goroutines: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=race_writes` (see the module doc).
    pub(crate) fn race_writes(&self, g: &Graph, a: &RaceWritesArgs) -> Result<RaceWritesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, RACES, a.path_prefix.as_deref())?;
        // Hits per file and kind, so each write looks only at its own file's literals,
        // declarations and locks (a whole-repository scan per write is quadratic).
        let mut by_file: FxHashMap<(&str, &str), Vec<&Hit>> = FxHashMap::default();
        for h in &hits {
            by_file.entry((h.path.as_str(), h.what.as_str())).or_default().push(h);
        }
        fn of<'m, 'h>(
            by_file: &'m FxHashMap<(&'h str, &'h str), Vec<&'h Hit>>,
            path: &'h str,
            what: &'h str,
        ) -> &'m [&'h Hit] {
            by_file.get(&(path, what)).map(Vec::as_slice).unwrap_or(&[])
        }
        let goroutines = hits.iter().filter(|h| h.what == "body").count();
        let inside = |b: &Hit, h: &Hit| b.line <= h.line && h.line <= b.end_line;
        let mut writes = Vec::new();
        for w in hits.iter().filter(|h| h.what == "write") {
            // The innermost goroutine literal holding the write.
            let body = of(&by_file, &w.path, "body")
                .iter()
                .filter(|b| b.line <= w.line && w.end_line <= b.end_line)
                .min_by_key(|b| b.end_line - b.line);
            let Some(body) = body.copied() else { continue };
            let (base, shared) = match w.node_kind.as_str() {
                "identifier" => (w.text.as_str(), "captured"),
                "selector_expression" => (w.text.split('.').next().unwrap_or(""), "field"),
                "index_expression" => (w.text.split('[').next().unwrap_or(""), "element"),
                _ => continue,
            };
            let base = base.trim();
            let declared_inside = of(&by_file, &w.path, "declare")
                .iter()
                .any(|d| d.text == base && inside(body, d));
            if base.is_empty() || base == "_" || declared_inside {
                continue;
            }
            let guarded = of(&by_file, &w.path, "lock")
                .iter()
                .chain(of(&by_file, &w.path, "atomic"))
                .any(|l| inside(body, l));
            if a.unguarded_only && guarded {
                continue;
            }
            writes.push(RaceWrite {
                target: w.text.clone(),
                shared,
                path: w.path.clone(),
                line: w.line,
                function: enclosing_function(g, &w.path, body.line).map(|f| NodeSummary::at(g, f)),
                guarded,
                text: w.quote.clone(),
            });
        }
        writes.sort_by(|a, b| {
            a.guarded
                .cmp(&b.guarded)
                .then_with(|| a.path.cmp(&b.path))
                .then(a.line.cmp(&b.line))
        });
        let (total, unguarded) = (writes.len(), writes.iter().filter(|w| !w.guarded).count());
        writes.truncate(limit);
        Ok(RaceWritesResult {
            writes,
            total,
            truncated: total > limit,
            unguarded,
            goroutines,
            coverage,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// field_writers
// ---------------------------------------------------------------------------------------------

const FIELD_WRITES_ES: &str = r#"(assignment_expression left: (member_expression property: (property_identifier) @field_write))
    (augmented_assignment_expression left: (member_expression property: (property_identifier) @field_write))
    (update_expression argument: (member_expression property: (property_identifier) @field_write))"#;

/// Writes to a member, per language.
const FIELD_WRITES: &[(Language, &str)] = &[
    (
        Language::Go,
        r#"(assignment_statement left: (expression_list (selector_expression field: (field_identifier) @field_write)))
           (inc_statement (selector_expression field: (field_identifier) @field_write))
           (dec_statement (selector_expression field: (field_identifier) @field_write))"#,
    ),
    (Language::TypeScript, FIELD_WRITES_ES),
    (Language::Tsx, FIELD_WRITES_ES),
    (Language::JavaScript, FIELD_WRITES_ES),
    (
        Language::Python,
        r#"(assignment left: (attribute attribute: (identifier) @field_write))
           (augmented_assignment left: (attribute attribute: (identifier) @field_write))"#,
    ),
    (
        Language::Java,
        r#"(assignment_expression left: (field_access field: (identifier) @field_write))
           (update_expression (field_access field: (identifier) @field_write))"#,
    ),
    (
        Language::Rust,
        r#"(assignment_expression left: (field_expression field: (field_identifier) @field_write))
           (compound_assignment_expr left: (field_expression field: (field_identifier) @field_write))"#,
    ),
];

/// Functions whose writes set a new value up rather than change one.
fn is_constructor(name: &str) -> bool {
    matches!(name, "constructor" | "__init__" | "new" | "init" | "<init>")
        || name.starts_with("New")
        || name.starts_with("new")
}

/// Arguments of `analyze kind=field_writers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldWritersArgs {
    /// Only the field of this name.
    #[serde(default)]
    pub field: Option<String>,
    /// Only writes in files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most fields returned (1..=1000, default 50).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A function writing a field, and how often.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FieldWriter {
    pub function: NodeSummary,
    pub writes: usize,
    /// The lines of those writes.
    pub lines: Vec<u32>,
}

/// One field name and who writes it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FieldWriters {
    pub field: String,
    pub writes: usize,
    /// Writes from functions that are not constructors (`constructor`, `__init__`, `New…`, `new`).
    pub outside_constructors: usize,
    /// Writing functions, most writes first (ties by id).
    pub writers: Vec<FieldWriter>,
    /// Writes at file level (outside every function).
    pub top_level: usize,
    /// Field declarations of that name in the graph (by id, at most 5).
    pub declared: Vec<NodeSummary>,
}

/// The answer of `analyze kind=field_writers`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FieldWritersResult {
    /// Most writers first, then most writes, then by name, at most `limit`.
    pub fields: Vec<FieldWriters>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=field_writers` (see the module doc).
    pub(crate) fn field_writers(&self, g: &Graph, a: &FieldWritersArgs) -> Result<FieldWritersResult, QueryError> {
        let limit = check_limit_with(a.limit, 50)?;
        let (hits, coverage) = self.ast_hits(g, FIELD_WRITES, a.path_prefix.as_deref())?;
        // field → writer (None: top level) → lines
        let mut fields: BTreeMap<&str, BTreeMap<Option<NodeIndex>, Vec<u32>>> = BTreeMap::new();
        for h in hits.iter().filter(|h| a.field.as_deref().is_none_or(|f| h.text == f)) {
            let writer = enclosing_function(g, &h.path, h.line).filter(|&f| g.node_at(f).kind.is_callable());
            fields
                .entry(&h.text)
                .or_default()
                .entry(writer)
                .or_default()
                .push(h.line);
        }
        let mut rows: Vec<FieldWriters> = fields
            .into_iter()
            .map(|(field, writers)| {
                let top_level = writers.get(&None).map_or(0, Vec::len);
                let mut named: Vec<FieldWriter> = writers
                    .into_iter()
                    .filter_map(|(w, lines)| w.map(|w| (w, lines)))
                    .map(|(w, lines)| FieldWriter {
                        function: NodeSummary::at(g, w),
                        writes: lines.len(),
                        lines,
                    })
                    .collect();
                named.sort_by(|a, b| b.writes.cmp(&a.writes).then_with(|| a.function.id.cmp(&b.function.id)));
                let writes = top_level + named.iter().map(|w| w.writes).sum::<usize>();
                let outside_constructors = named
                    .iter()
                    .filter(|w| !is_constructor(&w.function.name))
                    .map(|w| w.writes)
                    .sum();
                let mut declared: Vec<NodeIndex> = g
                    .named(field)
                    .iter()
                    .copied()
                    .filter(|&i| g.node_at(i).kind == gortex_core::NodeKind::Field)
                    .collect();
                declared.sort_by(|x, y| g.node_at(*x).id.cmp(&g.node_at(*y).id));
                FieldWriters {
                    field: field.to_string(),
                    writes,
                    outside_constructors,
                    writers: named,
                    top_level,
                    declared: declared.into_iter().take(5).map(|i| NodeSummary::at(g, i)).collect(),
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.writers
                .len()
                .cmp(&a.writers.len())
                .then(b.writes.cmp(&a.writes))
                .then_with(|| a.field.cmp(&b.field))
        });
        let total = rows.len();
        rows.truncate(limit);
        Ok(FieldWritersResult {
            fields: rows,
            total,
            truncated: total > limit,
            coverage,
        })
    }
}

/// The bundled patterns of the AST-sourced kinds, per language (for the compile test).
#[cfg(test)]
pub(crate) fn bundled_patterns() -> Vec<(Language, &'static str)> {
    SPAWNS
        .iter()
        .chain(CHANNELS)
        .chain(RACES)
        .chain(FIELD_WRITES)
        .copied()
        .collect()
}
