//! [`BodyIndex`]: BM25 over what function and method bodies say — their identifiers split into
//! words (and kept whole), string literals and error messages, comments — for queries that describe
//! behaviour rather than name code (a bug report: `search_symbols` with `read_as: "body"`).
//!
//! The symbol index ranks names, signatures and doc comments; a bug report talks about what the
//! code does, which lives in bodies. Words are split like the search tokeniser splits them
//! (`parseHttpDate` → parse, http, date), a compound identifier is also kept whole
//! (`parsehttpdate`, which a report quoting it matches with a high IDF), a light English stem
//! folds inflections (`redirecting` → `redirect`), and keywords of the common languages and
//! English function words are dropped. A method's owner's words join its body (the report says
//! "the Dispenser skips…").
//!
//! Kept in step with the indexed files like the clone index: only files whose content hash or
//! body layout changed are read again; postings are rebuilt from the per-file word counts after a
//! sync that changed something (a merge, no re-reading).

use crate::tokenize::for_each_token;
use gortex_core::{Language, Sources};
use gortex_graph::bodies::{file_bodies, layout_hash, valid_relative, BodySpec, LineStarts};
use gortex_graph::Graph;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::sync::Arc;

/// BM25 term-frequency saturation.
const K1: f32 = 1.2;
/// BM25 length normalisation.
const B: f32 = 0.75;
/// A NUL byte within this many leading bytes marks a file as binary (not read).
const BINARY_PROBE: usize = 8192;
/// Distinct query words considered, in first-seen order (a pasted log must not cost a scan per word).
pub const MAX_QUERY_WORDS: usize = 256;

/// Words that say nothing about what a body does: keywords of the common languages and English
/// function words.
const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "but",
    "by",
    "can",
    "do",
    "for",
    "from",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "not",
    "of",
    "on",
    "or",
    "so",
    "than",
    "that",
    "the",
    "then",
    "there",
    "these",
    "this",
    "to",
    "was",
    "we",
    "were",
    "what",
    "when",
    "which",
    "with",
    "you",
    "def",
    "fn",
    "func",
    "function",
    "return",
    "self",
    "cls",
    "const",
    "let",
    "var",
    "none",
    "null",
    "nil",
    "true",
    "false",
    "import",
    "else",
    "elif",
    "new",
    "this",
    "class",
    "public",
    "private",
    "protected",
    "static",
    "void",
    "int",
    "err",
    "string",
    "str",
    "bool",
    "try",
    "catch",
    "except",
    "raise",
    "throw",
    "pass",
    "while",
    "break",
    "continue",
    "async",
    "await",
    "yield",
    "lambda",
    "type",
    "struct",
    "interface",
    "package",
    "go",
    "range",
    "defer",
    "undefined",
    "typeof",
    "instanceof",
    "export",
    "default",
    "case",
    "switch",
    "has",
    "have",
    "had",
    "been",
    "will",
    "would",
    "should",
    "could",
    "may",
    "get",
    "set",
    "use",
    "using",
    "also",
    "all",
    "any",
    "some",
    "such",
    "only",
    "just",
    "how",
    "why",
    "where",
    "who",
    "our",
    "your",
    "they",
    "them",
    "their",
    "my",
    "me",
    "i",
];

fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// A light English stem applied to body words and query words alike, so inflections meet:
/// `-ing`, `-ed`, `-ly`, plural `-s`/`-es` go, a doubled final consonant is undoubled and a final
/// `e` dropped (`redirecting`, `redirected` → `redirect`; `cookies`, `cookie` → `cooki`;
/// `parsing`, `parses`, `parse` → `pars`; `stopped` → `stop`).
pub fn stem(word: &str) -> std::borrow::Cow<'_, str> {
    let mut w = word;
    let cut =
        |w: &str, suffix: &str| (w.len() >= suffix.len() + 3 && w.ends_with(suffix)).then(|| w.len() - suffix.len());
    let plural_es = ["ches", "shes", "xes", "zes", "sses"].iter().any(|e| w.ends_with(e));
    let at = cut(w, "ing")
        .or_else(|| cut(w, "ed"))
        .or_else(|| cut(w, "ly"))
        .or_else(|| if plural_es { cut(w, "es") } else { None })
        .or_else(|| {
            if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
                None
            } else {
                cut(w, "s")
            }
        });
    if let Some(at) = at {
        w = &w[..at];
    }
    let b = w.as_bytes();
    if b.len() >= 4
        && b[b.len() - 1] == b[b.len() - 2]
        && b[b.len() - 1].is_ascii_lowercase()
        && !b"aeiou".contains(&b[b.len() - 1])
    {
        w = &w[..w.len() - 1];
    }
    if w.len() >= 5 && w.ends_with('e') {
        w = &w[..w.len() - 1];
    }
    std::borrow::Cow::Borrowed(w)
}

/// Calls `emit` with every body word of `text`: each identifier-like run (letters, digits,
/// underscores, starting with a letter or underscore) split into stemmed words, and, when it has
/// more than one word, the whole run lower-cased without underscores.
pub fn for_each_body_word(text: &str, mut emit: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut whole = String::with_capacity(32);
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphabetic() || b == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let run = &text[start..i];
        let mut parts = 0;
        for_each_token(run, |t| {
            parts += 1;
            if t.len() >= 2 && !is_stopword(t) && !t.bytes().all(|c| c.is_ascii_digit()) {
                emit(&stem(t));
            }
        });
        if parts > 1 {
            whole.clear();
            whole.extend(run.chars().filter(|&c| c != '_').map(|c| c.to_ascii_lowercase()));
            if whole.len() <= crate::tokenize::MAX_TOKEN_LEN && !is_stopword(&whole) {
                emit(&whole);
            }
        }
    }
}

fn word_hash(word: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(word.as_bytes())
}

/// One body: its node id, its length in words, and its words' hashes with their counts (sorted).
#[derive(Debug, Clone)]
struct BodyDoc {
    id: Arc<str>,
    len: u32,
    words: Box<[(u64, u16)]>,
}

#[derive(Debug, Clone)]
struct FileEntry {
    hash: u64,
    layout: u64,
    bodies: Vec<BodyDoc>,
    /// The whole file's words (code files only): imports, module-level code and every body.
    words: Option<BodyDoc>,
}

/// Inverted lists over one kind of document (bodies, or whole files), rebuilt after a sync
/// changed something.
#[derive(Debug, Default)]
struct Postings {
    /// (file path, body id or the path again) of each doc, in file order.
    docs: Vec<(Arc<str>, Arc<str>)>,
    lens: Vec<u32>,
    lists: FxHashMap<u64, Vec<(u32, u16)>>,
    avg_len: f32,
}

impl Postings {
    fn add(&mut self, path: &Arc<str>, doc: &BodyDoc) {
        let d = self.docs.len() as u32;
        self.docs.push((path.clone(), doc.id.clone()));
        self.lens.push(doc.len);
        for &(h, c) in doc.words.iter() {
            self.lists.entry(h).or_default().push((d, c));
        }
    }

    fn finish(&mut self) {
        let total: u64 = self.lens.iter().map(|&l| u64::from(l)).sum();
        self.avg_len = if self.docs.is_empty() {
            0.0
        } else {
            total as f32 / self.docs.len() as f32
        };
    }

    /// BM25 of every doc holding a word: (doc, score) in no particular order.
    fn score(&self, hashes: &[u64]) -> Vec<(u32, f32)> {
        let n = self.docs.len() as f32;
        let mut scores: Vec<f32> = vec![0.0; self.docs.len()];
        let mut hit: Vec<u32> = Vec::new();
        for h in hashes {
            let Some(list) = self.lists.get(h) else { continue };
            let df = list.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in list {
                let tf = f32::from(tf);
                let norm = K1 * (1.0 - B + B * self.lens[doc as usize] as f32 / self.avg_len.max(1.0));
                let s = &mut scores[doc as usize];
                if *s == 0.0 {
                    hit.push(doc);
                }
                *s += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        hit.into_iter().map(|d| (d, scores[d as usize])).collect()
    }

    fn memory_bytes(&self) -> usize {
        let lists: usize = self.lists.values().map(|l| 8 + 24 + l.capacity() * 8).sum();
        lists + self.docs.capacity() * 32 + self.lens.capacity() * 4
    }
}

/// What one [`BodyIndex::sync`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BodySyncStats {
    /// Files read and tokenised.
    pub read: usize,
    /// Files kept as they were.
    pub unchanged: usize,
    /// Files dropped (no longer listed).
    pub removed: usize,
    /// Files that could not be read or are not text (left out until they change).
    pub skipped: usize,
    /// Bodies held after the sync.
    pub bodies: usize,
}

/// Word counts of every function and method body of a repository, per file, and their postings.
#[derive(Debug, Default)]
pub struct BodyIndex {
    sources: Option<Sources>,
    files: BTreeMap<Arc<str>, FileEntry>,
    postings: Postings,
    /// Whole code files as documents (`find_files` `by: "content"`).
    file_postings: Postings,
}

/// One ranked body (or file).
#[derive(Debug, Clone)]
pub struct BodyHit {
    /// The node id (the path, for a file).
    pub id: Arc<str>,
    pub score: f32,
    /// Query words (as the tokeniser wrote them) the body contains.
    pub matched: Vec<String>,
}

fn owner_words(id: &str, emit: &mut impl FnMut(&str)) {
    // `path::Owner.method`: the owner's words speak for the method.
    if let Some((_, local)) = id.rsplit_once("::") {
        if let Some((owner, _)) = local.rsplit_once('.') {
            for_each_body_word(owner, emit);
        }
    }
}

/// Word counts of a text (and the owner words of `id`'s method, for a body).
fn doc_of(id: &Arc<str>, text: &str, counts: &mut FxHashMap<u64, u16>) -> BodyDoc {
    counts.clear();
    let mut len = 0u32;
    let mut add = |w: &str| {
        len += 1;
        let c = counts.entry(word_hash(w)).or_insert(0);
        *c = c.saturating_add(1);
    };
    owner_words(id, &mut add);
    for_each_body_word(text, &mut add);
    let mut words: Vec<(u64, u16)> = counts.iter().map(|(&h, &c)| (h, c)).collect();
    words.sort_unstable();
    BodyDoc {
        id: id.clone(),
        len,
        words: words.into_boxed_slice(),
    }
}

/// The bodies of a file and, for a code file, the whole file as one document; `None` when the
/// file cannot be read or is not UTF-8 text.
fn read_file(sources: &Sources, path: &str, specs: &[BodySpec], code: bool) -> Option<(Vec<BodyDoc>, Option<BodyDoc>)> {
    let bytes = sources.read(path).ok()?;
    if bytes[..bytes.len().min(BINARY_PROBE)].contains(&0) {
        return None;
    }
    let text = std::str::from_utf8(&bytes).ok()?;
    let lines = LineStarts::of(text);
    let mut counts: FxHashMap<u64, u16> = FxHashMap::default();
    let bodies = specs
        .iter()
        .map(|spec| doc_of(&spec.id, &text[lines.range(&spec.span)], &mut counts))
        .collect();
    let whole = code.then(|| doc_of(&Arc::from(path), text, &mut counts));
    Some((bodies, whole))
}

impl BodyIndex {
    /// An empty index.
    pub fn new() -> BodyIndex {
        BodyIndex::default()
    }

    /// Brings the index in line with `files` (repository-relative path, content hash) and the
    /// graph built from them, reading (in parallel) only files that are new, changed, or whose
    /// bodies moved; then rebuilds the postings if anything changed. A different root than the
    /// previous sync's starts afresh. Unreadable, binary and non-UTF-8 files hold no bodies.
    pub fn sync(&mut self, sources: impl Into<Sources>, g: &Graph, files: &[(String, u64)]) -> BodySyncStats {
        let sources = sources.into();
        let mut stats = BodySyncStats::default();
        if self.sources.as_ref().map(Sources::root) != Some(sources.root()) {
            self.files.clear();
        }
        self.sources = Some(sources.clone());
        let wanted: FxHashMap<&str, u64> = files
            .iter()
            .filter(|(p, _)| valid_relative(p))
            .map(|(p, h)| (p.as_str(), *h))
            .collect();
        let before = self.files.len();
        self.files.retain(|path, _| wanted.contains_key(&**path));
        stats.removed = before - self.files.len();
        let mut paths: Vec<(&str, u64)> = wanted.into_iter().collect();
        paths.sort_unstable();
        let current = &self.files;
        type Read = Option<(Vec<BodyDoc>, Option<BodyDoc>)>;
        let work: Vec<(&str, u64, u64, Read)> = paths
            .par_iter()
            .filter_map(|&(path, hash)| {
                let (specs, language) = file_bodies(g, path);
                let layout = layout_hash(&specs);
                if current.get(path).is_some_and(|e| e.hash == hash && e.layout == layout) {
                    return None;
                }
                let code = Language::from_path(path).or(language).is_some_and(Language::is_code);
                let read = if specs.is_empty() && !code {
                    Some((Vec::new(), None))
                } else {
                    read_file(&sources, path, &specs, code)
                };
                Some((path, hash, layout, read))
            })
            .collect();
        stats.unchanged = paths.len() - work.len();
        let changed = !work.is_empty() || stats.removed > 0;
        for (path, hash, layout, read) in work {
            let (bodies, words) = read.unwrap_or_else(|| {
                stats.skipped += 1;
                (Vec::new(), None)
            });
            stats.read += usize::from(!bodies.is_empty() || words.is_some());
            self.files.insert(
                path.into(),
                FileEntry {
                    hash,
                    layout,
                    bodies,
                    words,
                },
            );
        }
        if changed || self.postings.docs.is_empty() {
            self.rebuild_postings();
        }
        stats.bodies = self.postings.docs.len();
        stats
    }

    fn rebuild_postings(&mut self) {
        let (mut bodies, mut files) = (Postings::default(), Postings::default());
        for (path, f) in &self.files {
            for b in &f.bodies {
                bodies.add(path, b);
            }
            if let Some(w) = &f.words {
                files.add(path, w);
            }
        }
        bodies.finish();
        files.finish();
        self.postings = bodies;
        self.file_postings = files;
    }

    /// Bodies held.
    pub fn len(&self) -> usize {
        self.postings.docs.len()
    }

    /// True when no body is held.
    pub fn is_empty(&self) -> bool {
        self.postings.docs.is_empty()
    }

    /// The distinct body words of a query, in first-seen order (at most [`MAX_QUERY_WORDS`]).
    pub fn query_words(query: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for_each_body_word(query, |w| {
            if out.len() < MAX_QUERY_WORDS && !out.iter().any(|x| x == w) {
                out.push(w.to_string());
            }
        });
        out
    }

    /// Bodies ranked by BM25 against `words`, best first (ties by id), those `keep` (path, id)
    /// refuses left out, at most `limit`; also how many bodies matched and passed `keep`.
    pub fn rank(&self, words: &[String], limit: usize, keep: impl FnMut(&str, &str) -> bool) -> (Vec<BodyHit>, usize) {
        self.rank_in(&self.postings, words, limit, keep, |path, id| {
            self.files
                .get(path)?
                .bodies
                .iter()
                .find(|b| &b.id == id)
                .map(|b| &*b.words)
        })
    }

    /// Code files ranked by BM25 of their whole text against `words`, as [`BodyIndex::rank`]
    /// (hits' ids are the paths; `keep` sees the path twice).
    pub fn rank_files(
        &self,
        words: &[String],
        limit: usize,
        keep: impl FnMut(&str, &str) -> bool,
    ) -> (Vec<BodyHit>, usize) {
        self.rank_in(&self.file_postings, words, limit, keep, |path, _| {
            self.files.get(path)?.words.as_ref().map(|w| &*w.words)
        })
    }

    fn rank_in<'a>(
        &'a self,
        p: &'a Postings,
        words: &[String],
        limit: usize,
        mut keep: impl FnMut(&str, &str) -> bool,
        words_of: impl Fn(&str, &Arc<str>) -> Option<&'a [(u64, u16)]>,
    ) -> (Vec<BodyHit>, usize) {
        let hashes: Vec<u64> = words.iter().map(|w| word_hash(w)).collect();
        let mut hit = p.score(&hashes);
        hit.retain(|&(d, _)| {
            let (path, id) = &p.docs[d as usize];
            keep(path, id)
        });
        let total = hit.len();
        hit.sort_unstable_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| p.docs[a.0 as usize].1.cmp(&p.docs[b.0 as usize].1))
        });
        hit.truncate(limit);
        let hits = hit
            .into_iter()
            .map(|(d, score)| {
                let (path, id) = &p.docs[d as usize];
                let held = words_of(path, id);
                BodyHit {
                    id: id.clone(),
                    score,
                    matched: words
                        .iter()
                        .zip(&hashes)
                        .filter(|(_, h)| held.is_some_and(|b| b.binary_search_by_key(*h, |x| x.0).is_ok()))
                        .map(|(w, _)| w.clone())
                        .collect(),
                }
            })
            .collect();
        (hits, total)
    }

    /// Code files held as whole-text documents.
    pub fn file_count(&self) -> usize {
        self.file_postings.docs.len()
    }

    /// Approximate heap bytes held (word counts, postings, doc tables).
    pub fn memory_bytes(&self) -> usize {
        let doc = |d: &BodyDoc| std::mem::size_of::<BodyDoc>() + d.words.len() * 16;
        let held: usize = self
            .files
            .values()
            .map(|f| 64 + f.bodies.iter().map(doc).sum::<usize>() + f.words.as_ref().map_or(0, doc))
            .sum();
        held + self.postings.memory_bytes() + self.file_postings.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_body_word(text, |w| out.push(w.to_string()));
        out
    }

    #[test]
    fn identifiers_split_stem_and_stay_whole() {
        assert_eq!(words("parseHttpDates"), ["pars", "http", "date", "parsehttpdates"]);
        assert_eq!(
            words("trailing_slash redirecting"),
            ["trail", "slash", "trailingslash", "redirect"]
        );
        // Keywords, one-letter words and numbers say nothing.
        assert_eq!(words("def f(x): return self.value + 42"), ["valu"]);
        for (a, b) in [
            ("stopped", "stop"),
            ("cookies", "cookie"),
            ("parsing", "parse"),
            ("matches", "match"),
            ("processes", "process"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("class"), stem("cla"));
    }

    #[test]
    fn query_words_are_distinct_and_bounded() {
        let q = BodyIndex::query_words("cookie Cookie cookies SetCookie");
        assert_eq!(q, ["cooki", "setcookie"]);
        let long: String = (0..1000)
            .map(|i| {
                format!(
                    "word{} ",
                    char::from(b'a' + (i % 26) as u8).to_string().repeat(1 + i / 26)
                )
            })
            .collect();
        assert!(BodyIndex::query_words(&long).len() <= MAX_QUERY_WORDS);
    }
}
