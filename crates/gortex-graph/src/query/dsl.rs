//! `graph_query`: a small read-only pipeline language over the graph.
//!
//! ```text
//! nodes kind=interface name~Handler | traverse implements in | filter path=src/ | sort name | limit 20
//! ```
//!
//! Stages are joined by `|` (at most five). `nodes <filters>` must come first; `traverse <kinds>
//! <in|out|both> [depth=N] [min_tier=T]` replaces the set by its neighbours within N hops;
//! `filter <filters>` keeps matching nodes; `sort name|path|id|fan_in|fan_out [asc|desc]` orders
//! the set; `limit N` keeps its first N. Filters are `key=value`, `key!=value` or `key~substring`
//! (case-insensitive) over kind, name, path (prefix for `=`), lang, flavor, exported, test and id;
//! several filters AND together, and kind/lang/flavor accept comma-separated alternatives. Values
//! may be quoted (`name="foo bar"`, `'…'`, with `\"` and `\\` escapes).

use super::args::{check_limit_with, parse_edge_kinds, parse_min_tier, OneOrMany, MAX_LIMIT};
use super::neighbours::neighbours;
use super::tiers::tier_floor;
use super::{NodeSummary, QueryError};
use crate::model::{Direction, Edge, Graph, Node, NodeIndex};
use gortex_core::{EdgeKind, Language, NodeKind, Origin, TypeFlavor};
use rustc_hash::FxHashSet;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `graph_query`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphQueryArgs {
    /// The pipeline, e.g. `nodes kind=function name~parse | traverse calls out`.
    pub query: String,
    /// Most nodes returned, 1..=1000 (default 100).
    pub limit: Option<usize>,
}

/// Result of `graph_query`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GraphQueryResult {
    /// The final set, in its pipeline order (by id unless a `sort` stage says otherwise).
    pub nodes: Vec<NodeSummary>,
    /// Size of the final set before `limit`.
    pub count: usize,
    /// `count` exceeded `limit`.
    pub truncated: bool,
    /// The parsed plan, with the set size after each stage.
    pub stages: Vec<StagePlan>,
}

/// One parsed stage and the size of the set it produced.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StagePlan {
    /// 1-based position in the pipeline.
    pub stage: usize,
    #[serde(flatten)]
    pub op: StageOp,
    /// Set size after this stage.
    pub size: usize,
}

/// A parsed stage.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum StageOp {
    /// Every node matching all filters.
    Nodes { filters: Vec<FilterPlan> },
    /// Neighbours of the set over `edge_kinds`, within `depth` hops.
    Traverse {
        edge_kinds: Vec<EdgeKind>,
        direction: &'static str,
        depth: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        min_tier: Option<Origin>,
    },
    /// Keeps nodes matching all filters.
    Filter { filters: Vec<FilterPlan> },
    /// Reorders the set.
    Sort { by: &'static str, order: &'static str },
    /// Keeps the first `n` nodes.
    Limit { n: usize },
}

/// One filter as parsed: key, operator (`=`, `!=`, `~`) and value.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct FilterPlan {
    pub key: &'static str,
    pub op: &'static str,
    pub value: String,
}

const MAX_STAGES: usize = 5;
const STAGE_NAMES: &str = "nodes, traverse, filter, sort, limit";
const FILTER_KEYS: &[&str] = &["kind", "name", "path", "lang", "flavor", "exported", "test", "id"];
const SORT_KEYS: &[&str] = &["name", "path", "id", "fan_in", "fan_out"];

/// Parses and runs a `graph_query` pipeline.
pub fn graph_query(g: &Graph, args: &GraphQueryArgs) -> Result<GraphQueryResult, QueryError> {
    let limit = check_limit_with(args.limit, 100)?;
    let plan = parse(&args.query)?;
    let mut set: Vec<NodeIndex> = Vec::new();
    let mut stages = Vec::with_capacity(plan.len());
    for (i, stage) in plan.into_iter().enumerate() {
        match &stage.exec {
            Exec::Nodes(filters) => {
                set = g
                    .indices()
                    .filter(|&n| filters.iter().all(|f| f.matches(g.node_at(n))))
                    .collect();
                sort_by_id(g, &mut set);
            }
            Exec::Traverse {
                kinds,
                dir,
                depth,
                floor,
            } => {
                set = traverse(g, &set, kinds, *dir, *depth, *floor);
            }
            Exec::Filter(filters) => set.retain(|&n| filters.iter().all(|f| f.matches(g.node_at(n)))),
            Exec::Sort { key, desc } => sort(g, &mut set, key, *desc),
            Exec::Limit(n) => set.truncate(*n),
        }
        stages.push(StagePlan {
            stage: i + 1,
            op: stage.plan,
            size: set.len(),
        });
    }
    let count = set.len();
    Ok(GraphQueryResult {
        nodes: set.iter().take(limit).map(|&n| NodeSummary::at(g, n)).collect(),
        count,
        truncated: count > limit,
        stages,
    })
}

struct Stage {
    plan: StageOp,
    exec: Exec,
}

enum Exec {
    Nodes(Vec<Filter>),
    Traverse {
        kinds: Vec<EdgeKind>,
        dir: Direction,
        depth: u32,
        floor: Origin,
    },
    Filter(Vec<Filter>),
    Sort {
        key: &'static str,
        desc: bool,
    },
    Limit(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Contains,
}

enum Value {
    Kinds(Vec<NodeKind>),
    Langs(Vec<Language>),
    Flavors(Vec<TypeFlavor>),
    Bool(bool),
    Text(String),
}

struct Filter {
    key: &'static str,
    op: Op,
    value: Value,
}

impl Filter {
    fn matches(&self, n: &Node) -> bool {
        if self.op == Op::Contains {
            let Value::Text(needle) = &self.value else {
                return false;
            };
            let hay: &str = match self.key {
                "kind" => n.kind.as_str(),
                "name" => &n.name,
                "path" => &n.path,
                "lang" => n.language.map(|l| l.as_str()).unwrap_or(""),
                "flavor" => n.flavor.map(|f| f.as_str()).unwrap_or(""),
                _ => &n.id,
            };
            return hay.to_lowercase().contains(needle.as_str());
        }
        let equal = match (&self.value, self.key) {
            (Value::Kinds(k), _) => k.contains(&n.kind),
            (Value::Langs(l), _) => n.language.is_some_and(|x| l.contains(&x)),
            // `flavor=component` spans UI components of every framework, not only Vue/Svelte files.
            (Value::Flavors(f), _) => {
                n.flavor.is_some_and(|x| f.contains(&x)) || (n.ui.is_some() && f.contains(&TypeFlavor::Component))
            }
            (Value::Bool(b), "exported") => n.exported == *b,
            (Value::Bool(b), _) => n.is_test == *b,
            (Value::Text(t), "name") => n.name == *t,
            (Value::Text(t), "path") => n.path.starts_with(t.as_str()),
            (Value::Text(t), _) => &*n.id == t.as_str(),
        };
        equal == (self.op == Op::Eq)
    }
}

fn sort_by_id(g: &Graph, set: &mut [NodeIndex]) {
    set.sort_unstable_by(|&a, &b| g.node_at(a).id.cmp(&g.node_at(b).id));
}

/// Nodes reached from `set` in 1..=depth hops (a start node is kept only when a hop reaches it).
fn traverse(
    g: &Graph,
    set: &[NodeIndex],
    kinds: &[EdgeKind],
    dir: Direction,
    depth: u32,
    floor: Origin,
) -> Vec<NodeIndex> {
    let mut reached: FxHashSet<NodeIndex> = FxHashSet::default();
    let mut expanded: FxHashSet<NodeIndex> = set.iter().copied().collect();
    let mut frontier: Vec<NodeIndex> = set.to_vec();
    for _ in 0..depth {
        let mut next = Vec::new();
        for &u in &frontier {
            for (v, _) in neighbours(g, u, dir, kinds, floor) {
                reached.insert(v);
                if expanded.insert(v) {
                    next.push(v);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    let mut out: Vec<NodeIndex> = reached.into_iter().collect();
    sort_by_id(g, &mut out);
    out
}

fn sort(g: &Graph, set: &mut [NodeIndex], key: &str, desc: bool) {
    let fan = |n: NodeIndex, incoming: bool| -> usize {
        let usage = |e: &&Edge| e.kind.is_usage() && e.origin >= tier_floor(None);
        if incoming {
            g.in_edges(n).filter(usage).count()
        } else {
            g.out_edges(n).filter(usage).count()
        }
    };
    let node = |n: NodeIndex| g.node_at(n);
    match key {
        "fan_in" | "fan_out" => {
            let incoming = key == "fan_in";
            let mut keyed: Vec<(usize, NodeIndex)> = set.iter().map(|&n| (fan(n, incoming), n)).collect();
            keyed.sort_by(|a, b| {
                let by_fan = if desc { b.0.cmp(&a.0) } else { a.0.cmp(&b.0) };
                by_fan.then_with(|| node(a.1).id.cmp(&node(b.1).id))
            });
            for (slot, (_, n)) in set.iter_mut().zip(keyed) {
                *slot = n;
            }
        }
        _ => {
            set.sort_by(|&a, &b| {
                let (x, y) = (node(a), node(b));
                let primary = match key {
                    "name" => x.name.cmp(&y.name),
                    "path" => x.path.cmp(&y.path).then(x.span.start_line.cmp(&y.span.start_line)),
                    _ => std::cmp::Ordering::Equal,
                };
                let primary = if desc { primary.reverse() } else { primary };
                let tie = x.id.cmp(&y.id);
                primary.then(if desc && key == "id" { tie.reverse() } else { tie })
            });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

fn err(stage: usize, message: impl std::fmt::Display) -> QueryError {
    QueryError::invalid(format!("stage {stage}: {message}"))
}

/// Splits the query into stages of words, honouring quotes (a `|` inside quotes is text).
fn tokenize(query: &str) -> Result<Vec<Vec<String>>, QueryError> {
    let mut stages: Vec<Vec<String>> = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut chars = query.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '|' => {
                if let Some(w) = word.take() {
                    stages.last_mut().expect("a stage").push(w);
                }
                stages.push(Vec::new());
            }
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    stages.last_mut().expect("a stage").push(w);
                }
            }
            '"' | '\'' => {
                let quote = c;
                let w = word.get_or_insert_with(String::new);
                let mut closed = false;
                while let Some((_, d)) = chars.next() {
                    if d == quote {
                        closed = true;
                        break;
                    }
                    if d == '\\' {
                        if let Some(&(_, e)) = chars.peek() {
                            if e == quote || e == '\\' {
                                w.push(e);
                                chars.next();
                                continue;
                            }
                        }
                    }
                    w.push(d);
                }
                if !closed {
                    return Err(err(
                        stages.len(),
                        format!("unterminated quote ({quote}) starting at character {}", at + 1),
                    ));
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word.take() {
        stages.last_mut().expect("a stage").push(w);
    }
    Ok(stages)
}

fn parse(query: &str) -> Result<Vec<Stage>, QueryError> {
    if query.trim().is_empty() {
        return Err(QueryError::invalid(
            "query is empty; expected a pipeline such as `nodes kind=function name~parse | traverse calls out`",
        ));
    }
    let raw = tokenize(query)?;
    if raw.len() > MAX_STAGES {
        return Err(QueryError::invalid(format!(
            "query has {} stages; at most {MAX_STAGES} are allowed",
            raw.len()
        )));
    }
    let mut stages = Vec::with_capacity(raw.len());
    for (i, words) in raw.iter().enumerate() {
        let n = i + 1;
        let Some((op, rest)) = words.split_first() else {
            return Err(err(n, format!("empty stage; expected one of {STAGE_NAMES}")));
        };
        if i == 0 && op != "nodes" {
            return Err(err(
                n,
                format!("a query must start with `nodes <filters>`, got \"{op}\""),
            ));
        }
        let stage = match op.as_str() {
            "nodes" if i > 0 => return Err(err(n, "`nodes` may only be the first stage")),
            "nodes" => {
                let (plans, filters) = parse_filters(n, rest)?;
                Stage {
                    plan: StageOp::Nodes { filters: plans },
                    exec: Exec::Nodes(filters),
                }
            }
            "filter" => {
                if rest.is_empty() {
                    return Err(err(n, "`filter` needs at least one key=value, key!=value or key~value"));
                }
                let (plans, filters) = parse_filters(n, rest)?;
                Stage {
                    plan: StageOp::Filter { filters: plans },
                    exec: Exec::Filter(filters),
                }
            }
            "traverse" => parse_traverse(n, rest)?,
            "sort" => parse_sort(n, rest)?,
            "limit" => parse_limit(n, rest)?,
            other => {
                return Err(err(
                    n,
                    format!("unknown stage \"{other}\"; expected one of {STAGE_NAMES}"),
                ))
            }
        };
        stages.push(stage);
    }
    Ok(stages)
}

fn parse_filters(stage: usize, words: &[String]) -> Result<(Vec<FilterPlan>, Vec<Filter>), QueryError> {
    let mut plans = Vec::new();
    let mut filters = Vec::new();
    for word in words {
        let (plan, filter) = parse_filter(stage, word)?;
        plans.push(plan);
        filters.push(filter);
    }
    Ok((plans, filters))
}

fn parse_filter(stage: usize, word: &str) -> Result<(FilterPlan, Filter), QueryError> {
    let Some(at) = word.find(['=', '~', '!']) else {
        return Err(err(
            stage,
            format!("expected a filter key=value, key!=value or key~value, got \"{word}\""),
        ));
    };
    let (key_text, rest) = word.split_at(at);
    let (op, op_text, value) = if let Some(v) = rest.strip_prefix("!=") {
        (Op::Ne, "!=", v)
    } else if let Some(v) = rest.strip_prefix('=') {
        (Op::Eq, "=", v)
    } else if let Some(v) = rest.strip_prefix('~') {
        (Op::Contains, "~", v)
    } else {
        return Err(err(
            stage,
            format!("expected =, != or ~ after \"{key_text}\" in \"{word}\""),
        ));
    };
    let Some(&key) = FILTER_KEYS.iter().find(|k| **k == key_text) else {
        return Err(err(
            stage,
            format!(
                "unknown filter key \"{key_text}\" in \"{word}\"; valid keys: {}",
                FILTER_KEYS.join(", ")
            ),
        ));
    };
    if value.is_empty() {
        return Err(err(stage, format!("filter \"{word}\" has no value")));
    }
    let parsed = match key {
        "exported" | "test" => {
            if op == Op::Contains {
                return Err(err(
                    stage,
                    format!("`~` does not apply to {key}; use {key}=true or {key}=false"),
                ));
            }
            match value {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                other => return Err(err(stage, format!("{key} must be true or false, got \"{other}\""))),
            }
        }
        _ if op == Op::Contains => Value::Text(value.to_lowercase()),
        "kind" => Value::Kinds(parse_list(
            stage,
            key,
            value,
            NodeKind::parse,
            NodeKind::ALL,
            NodeKind::as_str,
        )?),
        "lang" => Value::Langs(parse_list(
            stage,
            key,
            value,
            Language::parse,
            Language::ALL,
            Language::as_str,
        )?),
        "flavor" => Value::Flavors(parse_list(
            stage,
            key,
            value,
            TypeFlavor::parse,
            TypeFlavor::ALL,
            TypeFlavor::as_str,
        )?),
        _ => Value::Text(value.to_string()),
    };
    Ok((
        FilterPlan {
            key,
            op: op_text,
            value: value.to_string(),
        },
        Filter { key, op, value: parsed },
    ))
}

/// Parses `a,b,c` where each part must be a known name of `T`.
fn parse_list<T: Copy>(
    stage: usize,
    key: &str,
    value: &str,
    parse: fn(&str) -> Option<T>,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<Vec<T>, QueryError> {
    value
        .split(',')
        .map(|part| {
            parse(part).ok_or_else(|| {
                let valid: Vec<&str> = all.iter().map(|t| name(*t)).collect();
                err(stage, format!("unknown {key} \"{part}\"; valid: {}", valid.join(", ")))
            })
        })
        .collect()
}

fn parse_traverse(stage: usize, words: &[String]) -> Result<Stage, QueryError> {
    let usage = "traverse <edge_kind[,edge_kind]> <in|out|both> [depth=N] [min_tier=TIER]";
    let Some(kinds_word) = words.first().filter(|w| !w.contains('=')) else {
        return Err(err(stage, format!("traverse needs edge kinds first; usage: {usage}")));
    };
    let kinds = parse_edge_kinds("traverse", &OneOrMany::from(kinds_word.as_str()), EdgeKind::ALL)
        .map_err(|e| err(stage, e.message))?;
    let expected = "traverse expects a direction (in, out or both) after the edge kinds";
    let dir = match words.get(1) {
        Some(word) => Direction::parse(word).ok_or_else(|| err(stage, format!("{expected}, got \"{word}\"")))?,
        None => return Err(err(stage, expected)),
    };
    let mut depth = 1u32;
    let mut min_tier = None;
    for word in &words[2..] {
        if let Some(v) = word.strip_prefix("depth=") {
            depth = match v.parse::<u32>() {
                Ok(d) if (1..=5).contains(&d) => d,
                _ => return Err(err(stage, format!("depth must be 1..=5, got \"{v}\""))),
            };
        } else if let Some(v) = word.strip_prefix("min_tier=") {
            min_tier = parse_min_tier(Some(v)).map_err(|e| err(stage, e.message))?;
        } else {
            return Err(err(stage, format!("unexpected \"{word}\" in traverse; usage: {usage}")));
        }
    }
    Ok(Stage {
        plan: StageOp::Traverse {
            edge_kinds: kinds.clone(),
            direction: dir.as_str(),
            depth,
            min_tier,
        },
        exec: Exec::Traverse {
            kinds,
            dir,
            depth,
            floor: tier_floor(min_tier),
        },
    })
}

fn parse_sort(stage: usize, words: &[String]) -> Result<Stage, QueryError> {
    let valid = SORT_KEYS.join(", ");
    let Some(key_text) = words.first() else {
        return Err(err(stage, format!("sort needs a key: one of {valid}")));
    };
    let Some(&key) = SORT_KEYS.iter().find(|k| **k == key_text) else {
        return Err(err(stage, format!("unknown sort key \"{key_text}\"; valid: {valid}")));
    };
    let desc = match words.get(1).map(String::as_str) {
        None => key.starts_with("fan_"),
        Some("asc") => false,
        Some("desc") => true,
        Some(other) => return Err(err(stage, format!("sort order must be asc or desc, got \"{other}\""))),
    };
    if let Some(extra) = words.get(2) {
        return Err(err(
            stage,
            format!("unexpected \"{extra}\" after sort; usage: sort <key> [asc|desc]"),
        ));
    }
    Ok(Stage {
        plan: StageOp::Sort {
            by: key,
            order: if desc { "desc" } else { "asc" },
        },
        exec: Exec::Sort { key, desc },
    })
}

fn parse_limit(stage: usize, words: &[String]) -> Result<Stage, QueryError> {
    let n = match words {
        [one] => match one.parse::<usize>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => return Err(err(stage, format!("limit must be 1..={MAX_LIMIT}, got \"{one}\""))),
        },
        [] => return Err(err(stage, format!("limit needs a number 1..={MAX_LIMIT}"))),
        [_, extra, ..] => {
            return Err(err(
                stage,
                format!("unexpected \"{extra}\" after limit; usage: limit N"),
            ))
        }
    };
    Ok(Stage {
        plan: StageOp::Limit { n },
        exec: Exec::Limit(n),
    })
}
