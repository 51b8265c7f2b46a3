//! `search_symbols`: find symbols by name or words, in two tiers.
//!
//! - Tier 0: an identifier-shaped query (no whitespace, no `/`) equal to a symbol's name, or to
//!   its `Owner.name` when the query has a `.` (`::` is read as `.`), lists those symbols first
//!   with score 100: implementations before tests, case-sensitive before ASCII-case-insensitive
//!   matches, then by rerank score. Modules never short-circuit (files, packages and imports are
//!   not indexed at all).
//! - Ranked: BM25 over the [`SymbolIndex`]; each query term matches its exact token and every
//!   token it prefixes (terms of one or two characters only when they are the last word), or
//!   fuzzily when it prefixes nothing. An identifier's words must all match
//!   (`userRepo` needs user* and repo*); several words are OR-ed. An identifier with no match at
//!   all is searched again word by word with OR (`decomposed: true`). Rows are ordered by the
//!   [`rerank`](crate::rerank) signals, with per-file diversity and the `max_per_file` cap. A
//!   query of four or more words that is not an identifier is read as a sentence describing
//!   behaviour (`read_as`): doc comments weigh more than names ([`SENTENCE_FIELD_WEIGHTS`]).
//!
//! Inline clauses `kind:`, `flavor:`, `lang:`, `path:` filter like the matching arguments; a
//! clause may repeat or list values with commas (OR within a key, AND across keys).

use crate::bodies::BodyIndex;
use crate::rerank::{fast_total, query_parts, round4, select_diverse, Signals, W_GRAPH_HOP};
use crate::symbols::{
    is_sentence, Acc, SymbolIndex, Term, FIELD_WEIGHTS, IDENTIFIER_FIELD_WEIGHTS, SENTENCE_FIELD_WEIGHTS,
};
use crate::tokenize::tokens;
use gortex_core::{EdgeKind, Language, NodeKind, QueryError, TypeFlavor, UiFramework};
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use rustc_hash::{FxHashMap, FxHashSet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most query terms one search considers (each term is one bit of a match mask).
pub const MAX_TERMS: usize = 32;
/// Longest accepted query, in bytes.
pub const MAX_QUERY_LEN: usize = 1000;
/// Largest accepted `limit`.
pub const MAX_LIMIT: usize = 1000;
/// Score reported for tier-0 (exact name) rows.
pub const EXACT_SCORE: f64 = 100.0;

/// Arguments of `search_symbols`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchSymbolsArgs {
    /// Words, an identifier or `Owner.name`, optionally with `kind:`/`flavor:`/`lang:`/`path:` clauses.
    pub query: String,
    /// Rows to return (default 20, 1..=1000).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Hard cap on rows from one file (1..=1000).
    #[serde(default)]
    pub max_per_file: Option<usize>,
    /// Kind filter (a node kind or a type flavor; comma-separated for several).
    #[serde(default)]
    pub kind: Option<String>,
    /// Type flavor filter (`class`, `struct`, `enum`, …; comma-separated for several).
    #[serde(default)]
    pub flavor: Option<String>,
    /// Language filter (`typescript`, `go`, … or `ts`, `py`, `js`, `rs`; comma-separated).
    #[serde(default)]
    pub lang: Option<String>,
    /// Path prefix filter (repository-relative).
    #[serde(default)]
    pub path: Option<String>,
    /// Path prefixes the result must fall under (any of them).
    #[serde(default)]
    pub scope: Option<Vec<String>>,
    /// Include test symbols (default true; they are ranked below implementations either way).
    #[serde(default)]
    pub include_tests: Option<bool>,
    /// `code` (default: everything but documentation sections), `docs` (only Markdown sections,
    /// ranked by what they say: section text weighs as in a sentence query, whatever the query)
    /// or `all`. An explicit `kind` filter decides on its own.
    #[serde(default)]
    #[schemars(extend("enum" = ["code", "docs", "all"]))]
    pub corpus: Option<String>,
    /// `auto` (default): a query of four or more words that is not an identifier is read as a
    /// sentence describing behaviour; `names`: always as names and keywords; `sentence`: always
    /// as a sentence. A sentence is matched mostly against doc comments, names weigh less.
    /// `body`: the query (up to 20,000 bytes: a bug report, an error message, a log) is matched
    /// against what function and method bodies say — identifiers split into words, string
    /// literals, comments — by BM25; inline clauses are not read (use the arguments), rows carry
    /// no rerank signals.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "names", "sentence", "body"]))]
    pub read_as: Option<String>,
}

/// How the words of a query are weighed (see [`SearchSymbolsArgs::read_as`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum ReadAs {
    #[default]
    Auto,
    Names,
    Sentence,
    Body,
}

impl ReadAs {
    fn parse(value: &str) -> Result<ReadAs, QueryError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(ReadAs::Auto),
            "names" => Ok(ReadAs::Names),
            "sentence" => Ok(ReadAs::Sentence),
            "body" => Ok(ReadAs::Body),
            other => Err(QueryError::invalid(format!(
                "read_as must be auto, names, sentence or body, got {other:?}"
            ))),
        }
    }
}

/// Which symbols a search draws from: code and schemas, prose sections, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Corpus {
    Code,
    Docs,
    #[default]
    All,
}

impl Corpus {
    fn parse(value: &str) -> Result<Corpus, QueryError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "code" => Ok(Corpus::Code),
            "docs" | "doc" => Ok(Corpus::Docs),
            "all" => Ok(Corpus::All),
            other => Err(QueryError::invalid(format!(
                "corpus must be code, docs or all, got {other:?}"
            ))),
        }
    }
}

/// How a row was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchTier {
    /// The name (or `Owner.name`) equals the query exactly.
    Exact,
    /// The name equals the query ignoring ASCII case.
    ExactCaseInsensitive,
    /// Ranked by BM25 and the rerank signals.
    Ranked,
}

/// A symbol as a search row: the columns of the GCX1 `search_symbols` layout (`path`, `line`,
/// `sig`) in JSON too, the listing shape clients of the original read; graph answers carry nodes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SymbolRow {
    pub id: String,
    pub kind: NodeKind,
    pub name: String,
    /// `Owner.name`.
    pub qualified: String,
    pub path: String,
    pub line: u32,
    pub end_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flavor: Option<TypeFlavor>,
    /// The UI framework when the symbol is a UI component.
    #[serde(rename = "ui_framework", skip_serializing_if = "Option::is_none")]
    pub ui: Option<UiFramework>,
    /// The declaration's signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sig: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exported: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_test: bool,
}

impl From<&NodeSummary> for SymbolRow {
    fn from(n: &NodeSummary) -> SymbolRow {
        SymbolRow {
            id: n.id.clone(),
            kind: n.kind,
            name: n.name.clone(),
            qualified: n.qualified.clone(),
            path: n.path.clone(),
            line: n.line,
            end_line: n.end_line,
            language: n.language,
            flavor: n.flavor,
            ui: n.ui,
            sig: n.signature.clone(),
            exported: n.exported,
            is_test: n.is_test,
        }
    }
}

/// One `search_symbols` row.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SymbolHit {
    /// The node found (in Rust; the answer carries it as `row`).
    #[serde(skip)]
    pub symbol: NodeSummary,
    #[serde(flatten)]
    pub row: SymbolRow,
    /// Final score: 100 for tier-0 rows, otherwise the sum of `signals`.
    pub score: f64,
    pub tier: MatchTier,
    /// Weighted contributions to the score, by signal name (see `rerank`).
    pub signals: BTreeMap<&'static str, f64>,
    /// Indexed tokens of this symbol (name, owner, signature, doc, path) that matched query terms.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matched: Vec<String>,
}

/// Result of `search_symbols`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SearchSymbolsResult {
    pub results: Vec<SymbolHit>,
    /// Candidates that passed the filters, before `limit` and `max_per_file`.
    pub total: usize,
    /// True when `total` exceeds the rows returned.
    pub truncated: bool,
    /// The identifier query had no match as a whole and was searched again word by word (OR).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decomposed: bool,
    /// Tier 0 hit: some rows match the name exactly.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// Query terms that matched nothing, not even fuzzily.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmatched: Vec<String>,
    /// `sentence` when the query was read as a sentence (doc comments weighed over names), `body`
    /// when it was matched against bodies; absent when it was read as names and keywords.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_as: Option<&'static str>,
}

/// Symbol filters shared by `search_symbols` and `winnow_symbols`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filter {
    /// Bit per `NodeKind::ALL` position; 0 = any.
    pub kinds: u32,
    /// Flavors reached through `kind:` (OR-ed with `kinds`).
    pub kind_flavors: u32,
    /// Bit per `TypeFlavor::ALL` position (1-based like `DocMeta::flavor`); 0 = any.
    pub flavors: u32,
    /// Bit per `Language::ALL` position (1-based); 0 = any.
    pub langs: u32,
    /// Path prefixes (any).
    pub paths: Vec<String>,
    /// Scope prefixes (any).
    pub scope: Vec<String>,
    pub include_tests: bool,
    /// Applies only when no kind filter is set.
    pub corpus: Corpus,
    pub exported: Option<bool>,
    pub min_fan_in: Option<u32>,
    pub min_fan_out: Option<u32>,
    /// Files passing the path and scope prefixes, one bit per index file (see [`Filter::prepare`]).
    pub files_ok: Option<Vec<u64>>,
}

fn symbol_kinds() -> impl Iterator<Item = NodeKind> {
    NodeKind::ALL.iter().copied().filter(|k| k.is_symbol())
}

fn valid_kinds() -> String {
    symbol_kinds()
        .map(NodeKind::as_str)
        .chain(TypeFlavor::ALL.iter().map(|f| f.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_flavors() -> String {
    TypeFlavor::ALL
        .iter()
        .map(|f| f.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn valid_langs() -> String {
    Language::ALL
        .iter()
        .map(|l| l.as_str())
        .chain(["ts", "js", "py", "rs", "golang", "c++", "cxx", "cs", "c#", "kt", "rb"])
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a language name or alias (`ts`, `js`, `py`, `rs`, `golang`, `c++`, `cxx`, `cs`, `c#`, `kt`, `rb`).
pub(crate) fn parse_lang(value: &str) -> Option<Language> {
    let v = value.to_ascii_lowercase();
    Language::parse(&v).or(match v.as_str() {
        "ts" => Some(Language::TypeScript),
        "js" => Some(Language::JavaScript),
        "py" => Some(Language::Python),
        "rs" => Some(Language::Rust),
        "golang" => Some(Language::Go),
        "c++" | "cxx" => Some(Language::Cpp),
        "cs" | "c#" => Some(Language::CSharp),
        "kt" => Some(Language::Kotlin),
        "rb" => Some(Language::Ruby),
        "md" => Some(Language::Markdown),
        "yml" => Some(Language::Yaml),
        "docker" => Some(Language::Dockerfile),
        "protobuf" => Some(Language::Proto),
        "sh" | "shell" | "zsh" => Some(Language::Bash),
        _ => None,
    })
}

fn split_values(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|v| !v.is_empty())
}

fn normalise_prefix(what: &str, value: &str) -> Result<String, QueryError> {
    let v = value.trim();
    let v = v.strip_prefix("./").unwrap_or(v);
    let v = v.trim_start_matches('/');
    if v.is_empty() {
        return Err(QueryError::invalid(format!(
            "{what} must be a non-empty repository-relative path prefix such as src/util, got {value:?} \
             (omit it to search everywhere)"
        )));
    }
    Ok(v.to_string())
}

impl Filter {
    /// Adds `kind` values (node kinds, or type flavors which route to the flavor test).
    pub fn add_kinds(&mut self, what: &str, value: &str) -> Result<(), QueryError> {
        let mut any = false;
        for v in split_values(value) {
            any = true;
            let lower = v.to_ascii_lowercase();
            if let Some(k) = NodeKind::parse(&lower) {
                if !k.is_symbol() {
                    return Err(QueryError::invalid(format!(
                        "{what} {v:?} is not searchable: file, package and import nodes are not in the \
                         symbol index (use find_files for files); valid values: {}",
                        valid_kinds()
                    )));
                }
                let pos = NodeKind::ALL.iter().position(|&x| x == k).unwrap_or(0);
                self.kinds |= 1 << pos;
            } else if let Some(f) = TypeFlavor::parse(&lower) {
                let pos = TypeFlavor::ALL.iter().position(|&x| x == f).unwrap_or(0);
                self.kind_flavors |= 1 << (pos + 1);
            } else {
                return Err(QueryError::invalid(format!(
                    "unknown {what} {v:?}; valid values: {}",
                    valid_kinds()
                )));
            }
        }
        if !any {
            return Err(QueryError::invalid(format!(
                "{what} needs a value; valid values: {}",
                valid_kinds()
            )));
        }
        Ok(())
    }

    /// Adds `flavor` values.
    pub fn add_flavors(&mut self, what: &str, value: &str) -> Result<(), QueryError> {
        let mut any = false;
        for v in split_values(value) {
            any = true;
            let Some(f) = TypeFlavor::parse(&v.to_ascii_lowercase()) else {
                return Err(QueryError::invalid(format!(
                    "unknown {what} {v:?}; valid values: {}",
                    valid_flavors()
                )));
            };
            let pos = TypeFlavor::ALL.iter().position(|&x| x == f).unwrap_or(0);
            self.flavors |= 1 << (pos + 1);
        }
        if !any {
            return Err(QueryError::invalid(format!(
                "{what} needs a value; valid values: {}",
                valid_flavors()
            )));
        }
        Ok(())
    }

    /// Adds `lang` values.
    pub fn add_langs(&mut self, what: &str, value: &str) -> Result<(), QueryError> {
        let mut any = false;
        for v in split_values(value) {
            any = true;
            let Some(l) = parse_lang(v) else {
                return Err(QueryError::invalid(format!(
                    "unknown {what} {v:?}; valid values: {}",
                    valid_langs()
                )));
            };
            let pos = Language::ALL.iter().position(|&x| x == l).unwrap_or(0);
            self.langs |= 1 << (pos + 1);
        }
        if !any {
            return Err(QueryError::invalid(format!(
                "{what} needs a value; valid values: {}",
                valid_langs()
            )));
        }
        Ok(())
    }

    /// Adds a path prefix (any of several may match).
    pub fn add_path(&mut self, what: &str, value: &str) -> Result<(), QueryError> {
        self.paths.push(normalise_prefix(what, value)?);
        Ok(())
    }

    /// Adds scope prefixes (any of them may match).
    pub fn add_scope(&mut self, values: &[String]) -> Result<(), QueryError> {
        if values.is_empty() {
            return Err(QueryError::invalid(
                "scope must list at least one path prefix (omit it to search everywhere)",
            ));
        }
        for v in values {
            self.scope.push(normalise_prefix("scope entry", v)?);
        }
        Ok(())
    }

    /// True when the filter accepts every symbol (no constraint set).
    pub fn is_trivial(&self) -> bool {
        self.kinds == 0
            && self.kind_flavors == 0
            && self.flavors == 0
            && self.langs == 0
            && self.paths.is_empty()
            && self.scope.is_empty()
            && self.include_tests
            && self.corpus == Corpus::All
            && self.exported.is_none()
            && self.min_fan_in.is_none()
            && self.min_fan_out.is_none()
    }

    /// True when a doc passes every filter.
    pub fn accepts(&self, g: &Graph, idx: &SymbolIndex, doc: u32) -> bool {
        let d = doc as usize;
        let meta = idx.doc_meta[d];
        let flavors = meta.flavor_bits();
        if (self.kinds | self.kind_flavors) != 0
            && self.kinds & (1 << meta.kind) == 0
            && self.kind_flavors & flavors == 0
        {
            return false;
        }
        if self.flavors != 0 && self.flavors & flavors == 0 {
            return false;
        }
        if (self.kinds | self.kind_flavors) == 0 && self.corpus != Corpus::All {
            let prose = meta.kind() == NodeKind::Doc;
            if prose != (self.corpus == Corpus::Docs) {
                return false;
            }
        }
        if self.langs != 0 && (meta.lang == 0 || self.langs & (1 << meta.lang) == 0) {
            return false;
        }
        if !self.include_tests && meta.is_test() {
            return false;
        }
        if self.exported.is_some_and(|e| e != meta.exported()) {
            return false;
        }
        if self.min_fan_in.is_some_and(|m| idx.fan_in[d] < m) || self.min_fan_out.is_some_and(|m| idx.fan_out[d] < m) {
            return false;
        }
        match &self.files_ok {
            Some(bits) => {
                let f = idx.doc_file[d] as usize;
                bits[f / 64] & (1 << (f % 64)) != 0
            }
            None => self.accepts_path(&idx.node(g, doc).path),
        }
    }

    /// True when a path passes the path and scope prefixes.
    pub fn accepts_path(&self, path: &str) -> bool {
        (self.paths.is_empty() || self.paths.iter().any(|p| path.starts_with(p.as_str())))
            && (self.scope.is_empty() || self.scope.iter().any(|p| path.starts_with(p.as_str())))
    }

    /// Evaluates the path prefixes once per file, so [`Filter::accepts`] tests a bit per symbol
    /// instead of comparing its path.
    pub fn prepare(&mut self, g: &Graph, idx: &SymbolIndex) {
        if self.paths.is_empty() && self.scope.is_empty() {
            return;
        }
        let mut bits = vec![0u64; idx.file_count().div_ceil(64)];
        for f in 0..idx.file_count() {
            if self.accepts_path(idx.file_path(g, f)) {
                bits[f / 64] |= 1 << (f % 64);
            }
        }
        self.files_ok = Some(bits);
    }
}

/// Validates a `limit`: `None` → `default`, otherwise 1..=1000.
pub(crate) fn check_limit(name: &str, value: Option<usize>, default: usize) -> Result<usize, QueryError> {
    match value {
        None => Ok(default),
        Some(v) if (1..=MAX_LIMIT).contains(&v) => Ok(v),
        Some(v) => Err(QueryError::invalid(format!("{name} must be 1..={MAX_LIMIT}, got {v}"))),
    }
}

/// Splits inline clauses off a query. Returns the remaining text.
fn take_clauses(query: &str, filter: &mut Filter) -> Result<String, QueryError> {
    let mut rest: Vec<&str> = Vec::new();
    for part in query.split_whitespace() {
        let clause = part
            .split_once(':')
            .filter(|(k, _)| matches!(k.to_ascii_lowercase().as_str(), "kind" | "flavor" | "lang" | "path"));
        match clause {
            Some((key, value)) => {
                let what = format!("{}: clause", key.to_ascii_lowercase());
                match key.to_ascii_lowercase().as_str() {
                    "kind" => filter.add_kinds(&what, value)?,
                    "flavor" => filter.add_flavors(&what, value)?,
                    "lang" => filter.add_langs(&what, value)?,
                    _ => filter.add_path(&what, value)?,
                }
            }
            None => rest.push(part),
        }
    }
    Ok(rest.join(" "))
}

/// Query terms: distinct tokens in first-seen order.
pub(crate) fn query_terms(text: &str) -> Result<Vec<String>, QueryError> {
    let mut terms: Vec<String> = Vec::new();
    for t in tokens(text) {
        if !terms.contains(&t) {
            terms.push(t);
        }
    }
    if terms.len() > MAX_TERMS {
        return Err(QueryError::invalid(format!(
            "query has {} distinct terms, at most {MAX_TERMS} are supported; shorten it",
            terms.len()
        )));
    }
    Ok(terms)
}

/// Terms this short match by prefix only when they are the query's last word (the one being
/// typed); elsewhere `is`, `by`, `id` would expand to hundreds of unrelated tokens.
pub const SHORT_TERM: usize = 2;

/// Expands query terms against the vocabulary (see [`SHORT_TERM`] for the prefix rule).
pub(crate) fn expand_terms(idx: &SymbolIndex, texts: &[String]) -> Vec<Term> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| idx.expand(t, t.len() > SHORT_TERM || i + 1 == texts.len()))
        .collect()
}

/// Filtered BM25 candidates and the best score among them (the normaliser).
pub(crate) struct Scored {
    pub rows: Vec<Acc>,
    pub max: f32,
}

impl Scored {
    /// A candidate's BM25 relative to the best one (0–1).
    pub fn norm(&self, score: f32) -> f32 {
        if self.max > 0.0 {
            score / self.max
        } else {
            0.0
        }
    }
}

/// Expands terms and scores them; candidates filtered by `keep`.
pub(crate) fn retrieve(idx: &SymbolIndex, terms: &[Term], mut keep: impl FnMut(&Acc) -> bool) -> Scored {
    let mut rows = idx.score(terms, &FIELD_WEIGHTS);
    rows.retain(|a| keep(a));
    let max = rows.iter().map(|a| a.score).fold(0.0f32, f32::max);
    Scored { rows, max }
}

/// Longest `read_as: "body"` query, in bytes (a pasted bug report).
pub const MAX_BODY_QUERY_LEN: usize = 20_000;

/// The validated limits, filter and reading of a `search_symbols` call (clauses not yet taken).
struct Request {
    limit: usize,
    max_per_file: Option<usize>,
    filter: Filter,
    read_as: ReadAs,
}

fn request(args: &SearchSymbolsArgs) -> Result<Request, QueryError> {
    let limit = check_limit("limit", args.limit, 20)?;
    let max_per_file = match args.max_per_file {
        None => None,
        Some(v) if (1..=MAX_LIMIT).contains(&v) => Some(v),
        Some(v) => {
            return Err(QueryError::invalid(format!(
                "max_per_file must be 1..={MAX_LIMIT}, got {v}"
            )))
        }
    };
    let read_as = args
        .read_as
        .as_deref()
        .map(ReadAs::parse)
        .transpose()?
        .unwrap_or_default();
    let max_len = if read_as == ReadAs::Body {
        MAX_BODY_QUERY_LEN
    } else {
        MAX_QUERY_LEN
    };
    if args.query.trim().is_empty() {
        return Err(QueryError::invalid(
            "query must not be empty; pass a symbol name, Owner.name or a few words",
        ));
    }
    if args.query.len() > max_len {
        return Err(QueryError::invalid(format!(
            "query is {} bytes, at most {max_len} are accepted",
            args.query.len()
        )));
    }
    let mut filter = Filter {
        include_tests: args.include_tests.unwrap_or(true),
        corpus: args
            .corpus
            .as_deref()
            .map(Corpus::parse)
            .transpose()?
            .unwrap_or(Corpus::Code),
        ..Filter::default()
    };
    if let Some(k) = &args.kind {
        filter.add_kinds("kind", k)?;
    }
    if let Some(f) = &args.flavor {
        filter.add_flavors("flavor", f)?;
    }
    if let Some(l) = &args.lang {
        filter.add_langs("lang", l)?;
    }
    if let Some(p) = &args.path {
        filter.add_path("path", p)?;
    }
    if let Some(sc) = &args.scope {
        filter.add_scope(sc)?;
    }
    Ok(Request {
        limit,
        max_per_file,
        filter,
        read_as,
    })
}

/// True when the arguments ask for body search (`read_as: "body"`), which [`search_bodies`] answers.
pub fn reads_bodies(args: &SearchSymbolsArgs) -> bool {
    args.read_as
        .as_deref()
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("body"))
}

/// `search_symbols` with `read_as: "body"`: the query's words ranked against function and method
/// bodies ([`BodyIndex`]), filtered like any search, at most `max_per_file` rows per file.
pub fn search_bodies(
    g: &Graph,
    idx: &SymbolIndex,
    bodies: &BodyIndex,
    args: &SearchSymbolsArgs,
) -> Result<SearchSymbolsResult, QueryError> {
    idx.check(g)?;
    let Request {
        limit,
        max_per_file,
        mut filter,
        ..
    } = request(args)?;
    filter.prepare(g, idx);
    let words = BodyIndex::query_words(&args.query);
    if words.is_empty() {
        return Err(QueryError::invalid(format!(
            "query {:?} has no words to look for in bodies (keywords, numbers and one-letter words are left out); \
             describe the behaviour or quote the code",
            args.query.chars().take(80).collect::<String>()
        )));
    }
    let trivial = filter.is_trivial();
    let (hits, total) = bodies.rank(
        &words,
        if max_per_file.is_some() { usize::MAX } else { limit },
        |_, id| {
            trivial
                || g.lookup(id)
                    .and_then(|n| idx.doc_of(n))
                    .is_some_and(|d| filter.accepts(g, idx, d))
        },
    );
    let mut per_file: FxHashMap<String, usize> = FxHashMap::default();
    let mut results = Vec::new();
    for h in hits {
        if results.len() >= limit {
            break;
        }
        let Some(node) = g.lookup(&h.id) else { continue };
        let symbol = NodeSummary::of(g.node_at(node));
        if let Some(cap) = max_per_file {
            let c = per_file.entry(symbol.path.clone()).or_insert(0);
            if *c >= cap {
                continue;
            }
            *c += 1;
        }
        results.push(SymbolHit {
            row: SymbolRow::from(&symbol),
            symbol,
            score: round4(h.score),
            tier: MatchTier::Ranked,
            signals: BTreeMap::from([("body_bm25", round4(h.score))]),
            matched: h.matched,
        });
    }
    Ok(SearchSymbolsResult {
        truncated: total > results.len(),
        results,
        total,
        decomposed: false,
        exact: false,
        unmatched: Vec::new(),
        read_as: Some("body"),
    })
}

/// Search symbols by name, words or `Owner.name`, with inline clauses and filters.
pub fn search_symbols(
    g: &Graph,
    idx: &SymbolIndex,
    args: &SearchSymbolsArgs,
) -> Result<SearchSymbolsResult, QueryError> {
    idx.check(g)?;
    let Request {
        limit,
        max_per_file,
        mut filter,
        read_as,
    } = request(args)?;
    if read_as == ReadAs::Body {
        return Err(QueryError::invalid(
            "read_as body is answered by the repository's body index (search_bodies), not the symbol index",
        ));
    }
    let text = take_clauses(&args.query, &mut filter)?;
    filter.prepare(g, idx);
    if text.is_empty() {
        return Err(QueryError::invalid(format!(
            "query {:?} has no search terms once its kind:/flavor:/lang:/path: clauses are removed; \
             add a name or words to search for",
            args.query
        )));
    }
    let identifier = !text.contains(char::is_whitespace) && !text.contains('/');
    let term_texts = query_terms(&text)?;
    let terms = expand_terms(idx, &term_texts);
    let unmatched: Vec<String> = terms
        .iter()
        .filter(|t| t.expansions.is_empty())
        .map(|t| t.text.clone())
        .collect();

    // Tier 0: exact names (containers never short-circuit).
    let (mut sensitive, mut insensitive) = if identifier {
        idx.exact(g, &text.replace("::", "."))
    } else {
        (Vec::new(), Vec::new())
    };
    let tier0_ok = |d: &u32| filter.accepts(g, idx, *d) && idx.doc_meta[*d as usize].kind() != NodeKind::Module;
    sensitive.retain(tier0_ok);
    insensitive.retain(tier0_ok);

    // An identifier's words must all match (AND); other queries are OR-ed keyword lists.
    let all = if terms.len() >= 32 {
        u32::MAX
    } else {
        (1u32 << terms.len()) - 1
    };
    let and = identifier && terms.len() > 1;
    let trivial = filter.is_trivial();
    let accepts = |doc: u32| trivial || filter.accepts(g, idx, doc);
    // The docs corpus has its own profile: prose is matched by what sections say (the doc-text
    // weights of a sentence, for any query), and code neighbourhoods add nothing to it.
    let prose = filter.corpus == Corpus::Docs && (filter.kinds | filter.kind_flavors) == 0;
    let sentence = match read_as {
        ReadAs::Auto => prose || is_sentence(identifier, term_texts.len()),
        ReadAs::Names | ReadAs::Body => false,
        ReadAs::Sentence => true,
    };
    let weights = if sentence {
        &SENTENCE_FIELD_WEIGHTS
    } else if and {
        &IDENTIFIER_FIELD_WEIGHTS
    } else {
        &FIELD_WEIGHTS
    };
    let mut accs = idx.score(&terms, weights);
    let mut decomposed = false;
    let mut require_all = and;
    if and && sensitive.is_empty() && insensitive.is_empty() && !accs.iter().any(|a| a.mask == all && accepts(a.doc)) {
        decomposed = true;
        require_all = false;
    }
    accs.retain(|a| (!require_all || a.mask == all) && accepts(a.doc));
    let max = accs.iter().map(|a| a.score).fold(0.0f32, f32::max);
    // Multi-word queries that name a symbol verbatim ask about its neighbourhood as often as
    // about the symbol ("the error firstValueFrom throws"): its direct dependencies join the
    // candidates with a bonus, doubled when they also match a query word.
    let mut hops: FxHashMap<u32, f32> = FxHashMap::default();
    if !identifier && !prose {
        for doc in hop_neighbours(g, idx, &anchors(g, idx, &text)) {
            hops.insert(doc, W_GRAPH_HOP);
        }
        if !hops.is_empty() {
            for a in &accs {
                if let Some(bonus) = hops.get_mut(&a.doc) {
                    *bonus = 2.0 * W_GRAPH_HOP;
                }
            }
            let present: FxHashSet<u32> = accs.iter().map(|a| a.doc).collect();
            let mut extra: Vec<u32> = hops
                .keys()
                .copied()
                .filter(|d| !present.contains(d) && accepts(*d))
                .collect();
            extra.sort_unstable();
            accs.extend(extra.into_iter().map(Acc::unmatched));
        }
    }
    let hop = |doc: u32| hops.get(&doc).copied().unwrap_or(0.0);
    let norm = |score: f32| if max > 0.0 { score * (1.0 / max) } else { 0.0 };
    let signals =
        |doc: u32, acc: Option<&Acc>| Signals::of(idx, doc, acc.map_or(0.0, |a| norm(a.score)), acc, terms.len());

    // Tier-0 docs as a bitset (there can be thousands: every `test` in a test corpus).
    let exact_count = sensitive.len() + insensitive.len();
    let mut exact_bits: Vec<u64> = Vec::new();
    if exact_count > 0 {
        exact_bits = vec![0u64; idx.len().div_ceil(64)];
        for &d in sensitive.iter().chain(&insensitive) {
            exact_bits[d as usize / 64] |= 1 << (d % 64);
        }
    }
    let is_exact = |doc: u32| exact_count > 0 && exact_bits[doc as usize / 64] & (1 << (doc % 64)) != 0;
    let mut exact_accs: FxHashMap<u32, Acc> = FxHashMap::default();
    if exact_count > 0 {
        exact_accs = accs.iter().filter(|a| is_exact(a.doc)).map(|a| (a.doc, *a)).collect();
    }
    let ranked = accs.len() - exact_accs.len();
    let inv_max = if max > 0.0 { 1.0 / max } else { 0.0 };
    // The hot path: prior (precomputed) + query parts, per candidate.
    let candidate = |i: usize| {
        let a = &accs[i];
        if is_exact(a.doc) {
            return None;
        }
        let q = query_parts(a.score * inv_max, Some(a), terms.len());
        Some((fast_total(idx.prior[a.doc as usize], q) + hop(a.doc), a.doc))
    };
    let total = exact_count + ranked;

    let mut rows: Vec<(u32, MatchTier, Signals, f64)> = Vec::new();
    let mut per_file: FxHashMap<u32, usize> = FxHashMap::default();
    // Tier 0 order: implementations before tests, then case-sensitive before case-insensitive
    // matches, then the rerank score.
    let mut tier0: Vec<(bool, MatchTier, f32, u32, Signals)> = sensitive
        .iter()
        .map(|&d| (d, MatchTier::Exact))
        .chain(insensitive.iter().map(|&d| (d, MatchTier::ExactCaseInsensitive)))
        .map(|(d, tier)| {
            let s = signals(d, exact_accs.get(&d));
            (idx.doc_meta[d as usize].is_test(), tier, s.total(), d, s)
        })
        .collect();
    tier0.sort_by(|a, b| {
        (a.0, a.1 != MatchTier::Exact)
            .cmp(&(b.0, b.1 != MatchTier::Exact))
            .then(crate::rerank::better((a.2, a.3), (b.2, b.3)))
    });
    for (_, tier, _, d, s) in tier0 {
        if rows.len() >= limit {
            break;
        }
        let c = per_file.entry(idx.doc_file[d as usize]).or_insert(0);
        if max_per_file.is_some_and(|cap| *c >= cap) {
            continue;
        }
        *c += 1;
        rows.push((d, tier, s, EXACT_SCORE));
    }
    if rows.len() < limit {
        let picked = select_diverse(
            accs.len(),
            candidate,
            |d| idx.doc_file[d as usize],
            limit - rows.len(),
            max_per_file,
            &per_file,
        );
        for p in picked {
            let mut s = signals(p.doc, Some(&accs[p.slot as usize]));
            s.graph_hop = hop(p.doc);
            s.diversity = p.diversity;
            rows.push((p.doc, MatchTier::Ranked, s, round4(p.score)));
        }
    }

    let wanted: FxHashSet<u32> = terms
        .iter()
        .flat_map(|t| t.expansions.iter().map(|e| e.token))
        .collect();
    let results: Vec<SymbolHit> = rows
        .into_iter()
        .map(|(doc, tier, signals, score)| {
            let symbol = NodeSummary::of(idx.node(g, doc));
            SymbolHit {
                row: SymbolRow::from(&symbol),
                symbol,
                score,
                tier,
                signals: signals.to_map(),
                matched: idx.matched_tokens(g, doc, &wanted),
            }
        })
        .collect();
    Ok(SearchSymbolsResult {
        truncated: total > results.len(),
        exact: results.iter().any(|r| r.tier != MatchTier::Ranked),
        results,
        total,
        decomposed,
        unmatched,
        read_as: sentence.then_some("sentence"),
    })
}

/// Most symbols a query may name verbatim, and most neighbours taken from them.
const MAX_ANCHORS: usize = 8;
const MAX_HOP_NEIGHBOURS: usize = 256;

/// Docs a multi-word query names verbatim: words written like code (`camelCase`, `snake_case`,
/// `Owner.name`, `name()`, backticked) that exactly name a symbol, case included.
fn anchors(g: &Graph, idx: &SymbolIndex, text: &str) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for raw in text.split_whitespace() {
        let marked = raw.contains('`') || raw.contains("()");
        let word = raw.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'));
        let word = word.strip_suffix("'s").unwrap_or(word);
        if word.len() < 3 {
            continue;
        }
        let code_like = marked
            || word.chars().skip(1).any(char::is_uppercase)
            || word.contains('_')
            || word.contains('.')
            || word.contains("::");
        if !code_like {
            continue;
        }
        let (sensitive, _) = idx.exact(g, &word.replace("::", "."));
        for d in sensitive.into_iter().take(4) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        if out.len() >= MAX_ANCHORS {
            out.truncate(MAX_ANCHORS);
            break;
        }
    }
    out
}

/// Indexed symbols the anchors use directly (a type speaks through its members too), anchors
/// themselves excluded. Test edges are not dependencies.
fn hop_neighbours(g: &Graph, idx: &SymbolIndex, anchors: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for &a in anchors {
        let node = idx.doc_node[a as usize];
        let mut sources = vec![node];
        if g.node_at(node).kind.is_type_like() {
            sources.extend(
                g.out_edges(node)
                    .filter(|e| e.kind == EdgeKind::Contains)
                    .map(|e| e.to)
                    .take(64),
            );
        }
        for src in sources {
            for e in g.out_edges(src) {
                if !e.kind.is_usage() || e.kind == EdgeKind::Tests {
                    continue;
                }
                if let Some(d) = idx.doc_of(e.to) {
                    if !anchors.contains(&d) && !out.contains(&d) {
                        out.push(d);
                        if out.len() >= MAX_HOP_NEIGHBOURS {
                            return out;
                        }
                    }
                }
            }
        }
    }
    out
}
