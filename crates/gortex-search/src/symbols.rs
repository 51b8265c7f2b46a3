//! The symbol index: an inverted index over every declared symbol of one [`Graph`], built once
//! per graph version and queried by `search_symbols` and `winnow_symbols`.
//!
//! Layout (all compact, no per-symbol strings):
//! - a sorted vocabulary (one byte buffer + offsets), so token ids follow lexicographic order and
//!   every prefix is one contiguous id range;
//! - symbol postings per token (CSR): doc ids (`u32`, ascending) and a packed `u16` of term
//!   frequencies for the name, owner (qualified name minus the name), signature and doc fields;
//! - path postings per token over *files* (the path without its extension, see [`path_field`]):
//!   a path token applies to every symbol of the file, so it is stored once per file;
//! - per symbol: node index, file, field lengths, kind/language/flavor/flags, fan-in, fan-out
//!   and the query-independent part of the rerank score (the "prior");
//! - doc ids sorted by a hash of the ASCII-lowercased name and qualified name, for exact lookups.
//!
//! Scoring is BM25 per field (k1 = 1.2, b = 0.75) summed with field weights: [`FIELD_WEIGHTS`]
//! for names and keywords, [`SENTENCE_FIELD_WEIGHTS`] for sentences, and [`PATH_WEIGHT`].
//!
//! # The doc field and the query's shape
//!
//! A symbol's doc field in the index is its whole doc comment's prose (`SymbolFact::doc_text`,
//! `Node::doc_text`: every paragraph and tag description, code examples and markup dropped, at
//! most 1,000 characters), extracted beside the one-sentence `doc` that answers show; `doc_text`
//! is never serialised into an answer. `search_symbols` weighs the fields by the query's shape:
//! names and keywords ([`FIELD_WEIGHTS`]), an identifier of several words whose parts must be
//! found outside prose ([`IDENTIFIER_FIELD_WEIGHTS`], doc weight 0: a field weighted 0 does not
//! match), or a sentence of four or more words ([`SENTENCE_FIELD_WEIGHTS`], doc weighed ten times
//! more; `read_as` overrides).
//!
//! # Reuse across graph versions
//!
//! The index is rebuilt for each graph version, but its tokens are not: [`TokenCache`] (kept in
//! the repository's search caches) holds the last build's tokenised chunks of files, each with a
//! hash of the paths, fields and qualified names it read, and the next build tokenises again only
//! the chunks whose hash changed (chunk-relative doc and file ids are rebased when merging). On
//! TypeScript's whole tree this takes the first search after a body edit from ≈ 290 ms to
//! ≈ 130 ms, for ≈ 24 MB of kept tokens; a test compares every table with a fresh build after each
//! edit of the property test.
//!
//! - **Shared.** When every chunk is unchanged and every symbol keeps its node (a body edit), the
//!   text tables (vocabulary, postings, document frequencies, field lengths, exact-name tables)
//!   are shared with the last build through an `Arc<TextTables>`, and only what depends on edges
//!   (fan-in, fan-out, priors) and the node → doc map is computed again: on Kubernetes 1.20.2 the
//!   first search after a body edit builds its index in ≈ 35–70 ms instead of ≈ 130 ms.
//! - **Patched.** When some chunks changed (changed runs holding at most about half the chunks of
//!   the two builds), the last tables are patched (`symbols/patch.rs`). On TypeScript's whole tree
//!   the first search after an appended function builds its index in ≈ 70–125 ms instead of
//!   ≈ 65–345.
//! - **Merged** from every chunk's tokens otherwise. [`TokenCache::text_build`] says which of
//!   `merged`, `patched` or `shared` the last build did.
//!
//! Chunk boundaries depend on paths alone (a chunk ends after a file whose path hashes to a
//! multiple of 16, or after 128 files; a file declaring 512 or more symbols is a chunk of its own:
//! `CHUNK_SPREAD`, `MAX_CHUNK_FILES`, `BIG_FILE_DOCS`), and the cache finds a chunk by the
//! hash of its files' paths, not by its position. So a file added, deleted, or gaining its first
//! symbol changes only the chunk it falls in (or splits it in two, when its own path hashes to a
//! boundary; a run past 128 files moves boundaries up to the next path boundary): the runs of
//! changed chunks are paired between the two builds by their unchanged neighbours and patched,
//! files' path postings included. (Before, chunks were fixed runs of 256 files by position: on
//! TypeScript's tree the first one held the compiler, 60,000 symbols that took ≈ 190 ms to
//! tokenise again after any edit of it, and one file gaining its first symbol shifted every later
//! chunk and merged everything.)
//!
//! Per-symbol metadata (kind, language, flavor, test and export flags) is a function of a
//! symbol's fact and its file's language and path: for a file whose facts are the very allocation
//! of the last build, at the same path, it is copied from that build's docs instead of read from
//! every node again (on TypeScript's tree ≈ 2–9 ms instead of ≈ 12–45 after an appended
//! function); fan-in, fan-out and priors are always recomputed.

use crate::fuzzy;
use crate::rerank::{prior_parts, prior_sum};
use crate::tokenize::{for_each_token, MAX_TOKEN_LEN};
use gortex_core::{same_text, FileFacts, Language, NodeKind, QueryError, TypeFlavor, Visibility};
use gortex_graph::{Graph, Node, NodeIndex};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::sync::Arc;

mod patch;

/// Fields of the packed term frequency, in bit order: name, owner, signature, doc (4 bits each).
const FIELDS: usize = 4;
/// Weight of a match in each field: the name is strongest, then the owner type, signature, doc.
pub const FIELD_WEIGHTS: [f32; FIELDS] = [3.0, 2.0, 1.0, 0.8];
/// Weight of a match in the file path: the weakest evidence.
pub const PATH_WEIGHT: f32 = 0.4;
/// Field weights for a query written as a sentence ([`is_sentence`]): a description of behaviour
/// is worded like a doc comment, so the doc field weighs ten times more than for names. Chosen on
/// `gortex eval recall`'s concept tier, checked on a held-out set.
pub const SENTENCE_FIELD_WEIGHTS: [f32; FIELDS] = [3.0, 2.0, 1.0, 8.0];
/// Field weights for an identifier of several words (`arrRemove`): its words must be found in
/// names, owners and signatures, not scattered through doc prose.
pub const IDENTIFIER_FIELD_WEIGHTS: [f32; FIELDS] = [3.0, 2.0, 1.0, 0.0];
/// Distinct terms from which a query that is not an identifier reads as a sentence.
pub const SENTENCE_TERMS: usize = 4;

/// Whether a query is a sentence describing behaviour rather than a name or a few keywords.
pub fn is_sentence(identifier: bool, terms: usize) -> bool {
    !identifier && terms >= SENTENCE_TERMS
}

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// Per-field term frequencies saturate at 15 (4 bits); BM25 saturates long before.
const TF_MAX: u16 = 15;

/// Weight of an exact token match; prefix and fuzzy matches weigh less (see [`SymbolIndex::expand`]).
pub(crate) const EXACT_WEIGHT: f32 = 1.0;
const ABBREVIATION_WEIGHT: f32 = 0.4;

/// [`DocMeta::flags`] bit: a test symbol or a symbol in a test file.
pub(crate) const FLAG_TEST: u8 = 1;
/// [`DocMeta::flags`] bit: exported or public.
pub(crate) const FLAG_EXPORTED: u8 = 2;
/// [`DocMeta::flags`] bit: a UI component of any framework (matches `flavor:component`).
pub(crate) const FLAG_UI: u8 = 4;

/// Kind, language, flavor and flags of one indexed symbol, one byte each.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct DocMeta {
    /// Position in [`NodeKind::ALL`].
    pub kind: u8,
    /// 1 + position in [`Language::ALL`]; 0 when unknown.
    pub lang: u8,
    /// 1 + position in [`TypeFlavor::ALL`]; 0 when none.
    pub flavor: u8,
    pub flags: u8,
}

impl DocMeta {
    /// The node kind.
    pub fn kind(self) -> NodeKind {
        NodeKind::ALL[self.kind as usize]
    }
    /// A test symbol or a symbol in a test file.
    pub fn is_test(self) -> bool {
        self.flags & FLAG_TEST != 0
    }
    /// Exported or declared public.
    pub fn exported(self) -> bool {
        self.flags & FLAG_EXPORTED != 0
    }
    /// The flavor bits the flavor filters test (bit `1 + position in TypeFlavor::ALL`): the
    /// node's own flavor, plus `component` for a UI component of any framework, so
    /// `flavor:component` spans React functions and Flutter classes as well as Vue files.
    pub fn flavor_bits(self) -> u32 {
        let own = if self.flavor == 0 { 0 } else { 1 << self.flavor };
        if self.flags & FLAG_UI == 0 {
            return own;
        }
        let component = TypeFlavor::ALL
            .iter()
            .position(|&f| f == TypeFlavor::Component)
            .unwrap_or(0);
        own | 1 << (component + 1)
    }
}

/// One vocabulary token a query term expands to, with its match weight.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expansion {
    pub token: u32,
    pub weight: f32,
}

/// A query term and the vocabulary tokens it matches.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    pub text: String,
    pub expansions: Vec<Expansion>,
}

/// A candidate's accumulated BM25 score and which query terms matched it where.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Acc {
    pub doc: u32,
    pub score: f32,
    cur: f32,
    cur_term: u8,
    /// Bit i: term i matched in any field.
    pub mask: u32,
    /// Bit i: term i matched in the name or owner.
    pub name_mask: u32,
    /// Bit i: term i matched in the file path.
    pub path_mask: u32,
}

impl Acc {
    /// A candidate with no text match (reached through the graph instead).
    pub(crate) fn unmatched(doc: u32) -> Acc {
        Acc {
            doc,
            score: 0.0,
            cur: 0.0,
            cur_term: 0,
            mask: 0,
            name_mask: 0,
            path_mask: 0,
        }
    }
}

/// The tables of a symbol index that follow from the indexed text alone (names, owners,
/// signatures, docs, paths, in doc order): shared between consecutive builds when a graph change
/// left every symbol's text and place as it was (a body edit), see [`TokenCache`].
#[derive(Debug, Default, PartialEq)]
struct TextTables {
    vocab: Vec<u8>,
    vocab_off: Vec<u32>,
    /// Letter bitmask per token (a–z, digits, other), a cheap filter before edit distance.
    vocab_mask: Vec<u32>,
    /// Token ids grouped by byte length (index = length), for fuzzy scans.
    by_len: Vec<Vec<u32>>,
    post_off: Vec<u32>,
    post_doc: Vec<u32>,
    post_tf: Vec<u16>,
    path_off: Vec<u32>,
    path_file: Vec<u32>,
    path_tf: Vec<u8>,
    /// Symbols containing the token in any field (path included).
    df: Vec<u32>,
    doc_len: Vec<[u8; FIELDS]>,
    file_path_len: Vec<u8>,
    avg_len: [f32; FIELDS],
    avg_path_len: f32,
    /// Docs by name: `hash << 32 | doc`, sorted (see [`exact_tables`]).
    by_name: Vec<u64>,
    /// Docs by qualified name where it differs from the name, as `by_name`.
    by_qualified: Vec<u64>,
}

/// An inverted index over the symbols of one graph. Build with [`SymbolIndex::build`].
/// Equality compares every table (the reuse-equals-fresh tests rely on it).
#[derive(Debug, Default, PartialEq)]
pub struct SymbolIndex {
    node_count: usize,
    text: Arc<TextTables>,
    pub(crate) doc_node: Vec<NodeIndex>,
    /// Node index → doc (`u32::MAX` for nodes that are not indexed).
    node_doc: Vec<u32>,
    pub(crate) doc_file: Vec<u32>,
    pub(crate) doc_meta: Vec<DocMeta>,
    pub(crate) fan_in: Vec<u32>,
    pub(crate) fan_out: Vec<u32>,
    /// Query-independent rerank signals summed per symbol ([`crate::rerank::prior_sum`]).
    pub(crate) prior: Vec<f32>,
    /// Doc range of each file (`file_doc_off[f]..file_doc_off[f + 1]`).
    file_doc_off: Vec<u32>,
    pub(crate) max_fan_in: u32,
    pub(crate) max_fan_out: u32,
}

/// A symbol node the index covers: declared in the repository, not a file/package/import.
pub fn is_indexed(node: &Node) -> bool {
    node.kind.is_symbol() && !node.external && !node.path.is_empty()
}

/// Test-file naming conventions (the indexer's rule).
pub fn is_test_path(path: &str, language: Option<Language>) -> bool {
    gortex_core::language::is_test_path(path, language)
}

/// The indexed part of a path: everything but the last extension (`.ts` would otherwise match
/// every symbol of the language and says nothing a `lang:` filter does not).
pub(crate) fn path_field(path: &str) -> &str {
    let base_start = path.rfind('/').map_or(0, |i| i + 1);
    match path[base_start..].rfind('.') {
        Some(dot) if dot > 0 => &path[..base_start + dot],
        _ => path,
    }
}

/// The qualified name without the symbol's own name: `Owner` of `Owner.name`.
pub(crate) fn owner_of(node: &Node) -> &str {
    let q = node.qualified.as_str();
    match q.strip_suffix(node.name.as_str()) {
        Some(rest) => rest.strip_suffix('.').unwrap_or(rest),
        None => q,
    }
}

/// FNV-1a over the ASCII-lowercased bytes: the key of the exact-name tables. Collisions are
/// harmless (lookups compare the names themselves).
pub(crate) fn fold_hash(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b.to_ascii_lowercase() as u32).wrapping_mul(0x0100_0193)
    })
}

fn letter_mask(token: &[u8]) -> u32 {
    token.iter().fold(0u32, |m, &c| {
        m | match c {
            b'a'..=b'z' => 1 << (c - b'a'),
            b'0'..=b'9' => 1 << 26,
            _ => 1 << 27,
        }
    })
}

fn tf_norm(tf: f32, len: f32, avg: f32) -> f32 {
    tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avg))
}

/// One chunk of files tokenised in parallel: a chunk-local vocabulary and postings.
#[derive(Default)]
struct Chunk {
    vocab: Vec<Box<str>>,
    /// (local token, doc relative to the chunk's first doc, packed tf), docs ascending.
    postings: Vec<(u32, u32, u16)>,
    /// (local token, file relative to the chunk's first file, tf), files ascending.
    paths: Vec<(u32, u32, u8)>,
    doc_len: Vec<[u8; FIELDS]>,
    path_len: Vec<u8>,
}

/// What one build tokenises: the indexed files and their docs, by chunk of files.
struct ChunkText<'g> {
    g: &'g Graph,
    file_node: &'g [NodeIndex],
    file_doc_off: &'g [u32],
    doc_node: &'g [NodeIndex],
    /// Per file (as `file_node`), the facts its nodes were built from, when the graph has them.
    file_facts: Option<&'g [Arc<FileFacts>]>,
}

impl ChunkText<'_> {
    /// The four fields of a doc, as tokenised.
    fn fields(node: &Node) -> [&str; FIELDS] {
        [
            &node.name,
            owner_of(node),
            node.signature.as_deref().unwrap_or(""),
            node.doc_text.as_deref().or(node.doc.as_deref()).unwrap_or(""),
        ]
    }

    /// Which files a chunk holds: a hash of their paths. The cache finds a chunk's last tokens by
    /// it, wherever the chunk now starts.
    fn identity(&self, start: usize, end: usize) -> u64 {
        use std::hash::Hasher;
        let mut h = rustc_hash::FxHasher::default();
        for &file in &self.file_node[start..end] {
            h.write(self.g.node_at(file).path.as_bytes());
            h.write_u8(0xff);
        }
        h.finish()
    }

    /// A hash of everything tokenising files `start..end` reads: paths and fields, delimited.
    /// A cheap stand-in for [`ChunkText::key`] when the graph has its files' facts: nodes are a
    /// pure function of a file's path and facts, so the same facts (the same allocation: the
    /// cache holds them, so an address is never reused while a key names it) mean the same text.
    /// Different facts may still give the same text (a body edit moves only spans).
    fn facts_key(&self, start: usize, end: usize) -> Option<u64> {
        use std::hash::Hasher;
        let facts = self.file_facts?;
        let mut h = rustc_hash::FxHasher::default();
        for (&file, facts) in self.file_node[start..end].iter().zip(&facts[start..end]) {
            h.write(self.g.node_at(file).path.as_bytes());
            h.write_usize(Arc::as_ptr(facts) as usize);
        }
        Some(h.finish())
    }

    fn key(&self, start: usize, end: usize) -> u64 {
        use std::hash::Hasher;
        let mut h = rustc_hash::FxHasher::default();
        for f in start..end {
            h.write(self.g.node_at(self.file_node[f]).path.as_bytes());
            h.write_u8(0xff);
            for d in self.file_doc_off[f]..self.file_doc_off[f + 1] {
                let node = self.g.node_at(self.doc_node[d as usize]);
                for text in Self::fields(node) {
                    h.write(text.as_bytes());
                    h.write_u8(0xfe);
                }
                // The exact-name tables key the qualified name, which name and owner do not
                // always spell (`A.b` and `Ab` both have name `b` and owner `A`).
                h.write(node.qualified.as_bytes());
                h.write_u8(0xfd);
            }
        }
        h.finish()
    }

    /// Tokenises files `start..end`: chunk-local vocabulary, doc and file ids relative to the chunk.
    fn tokenise(&self, start: usize, end: usize) -> Chunk {
        let doc_base = self.file_doc_off[start];
        let mut chunk = Chunk::default();
        let mut interner = Interner {
            ids: FxHashMap::default(),
            vocab: Vec::new(),
        };
        let mut doc_tokens: Vec<(u32, u16)> = Vec::new();
        for f in start..end {
            let file = self.g.node_at(self.file_node[f]);
            let mut path_tokens: Vec<u32> = Vec::new();
            for_each_token(path_field(&file.path), |t| path_tokens.push(interner.id(t)));
            chunk.path_len.push(path_tokens.len().min(255) as u8);
            path_tokens.sort_unstable();
            for run in path_tokens.chunk_by(|a, b| a == b) {
                chunk.paths.push((run[0], (f - start) as u32, run.len().min(255) as u8));
            }
            for d in self.file_doc_off[f]..self.file_doc_off[f + 1] {
                let node = self.g.node_at(self.doc_node[d as usize]);
                let fields = Self::fields(node);
                doc_tokens.clear();
                let mut lens = [0u8; FIELDS];
                for (field, text) in fields.iter().enumerate() {
                    let mut n = 0usize;
                    for_each_token(text, |t| {
                        doc_tokens.push((interner.id(t), 1 << (4 * field)));
                        n += 1;
                    });
                    lens[field] = n.min(255) as u8;
                }
                chunk.doc_len.push(lens);
                doc_tokens.sort_unstable_by_key(|&(t, _)| t);
                for run in doc_tokens.chunk_by(|a, b| a.0 == b.0) {
                    let mut tf = [0u16; FIELDS];
                    for &(_, unit) in run {
                        tf[unit.trailing_zeros() as usize / 4] += 1;
                    }
                    let packed = tf
                        .iter()
                        .enumerate()
                        .fold(0u16, |p, (i, &c)| p | (c.min(TF_MAX) << (4 * i)));
                    chunk.postings.push((run[0].0, d - doc_base, packed));
                }
            }
        }
        chunk.vocab = interner.vocab;
        chunk
    }
}

/// A cached chunk: its facts key (when the graph had facts), its text key, its tokens.
type CachedChunk = (Option<u64>, u64, Arc<Chunk>);

/// One chunk of a build: which files, its keys and tokens, and how it compares with the last.
struct Keyed {
    identity: u64,
    facts_key: Option<u64>,
    text_key: u64,
    tokens: Arc<Chunk>,
    reused: bool,
    /// The last build's tokens of the same files, when they were tokenised again.
    old: Option<Arc<Chunk>>,
    /// The cache had a chunk of these files.
    known: bool,
}

/// The runs of chunks that differ between the last build (`order`, tokens in `cached`) and this
/// one (`keyed` over `ranges`): a chunk of the same files tokenised again is a run of its own;
/// chunks of files the other build does not have in a chunk of the same files (a file added or
/// deleted, or one gaining its first symbol) are paired with the last build's between the same
/// unchanged neighbours. `None` when the two orders do not interleave that way.
fn changed_regions(
    order: &[(u64, usize, usize)],
    cached: &FxHashMap<u64, CachedChunk>,
    keyed: &[Keyed],
    ranges: &[(usize, usize)],
) -> Option<Vec<patch::Region>> {
    // Two chunks of the last build with one identity (a hash collision) left one set of tokens
    // for both: nothing to pair them by.
    if cached.len() != order.len() {
        return None;
    }
    let now: rustc_hash::FxHashSet<u64> = keyed.iter().map(|k| k.identity).collect();
    let old_nfiles = order.last().map_or(0, |o| o.2);
    let new_nfiles = ranges.last().map_or(0, |r| r.1);
    let (mut i, mut j) = (0, 0);
    let mut regions = Vec::new();
    while i < order.len() || j < keyed.len() {
        if i < order.len() && j < keyed.len() && order[i].0 == keyed[j].identity {
            if !keyed[j].reused {
                regions.push(patch::Region {
                    old_files: (order[i].1, order[i].2),
                    new_files: ranges[j],
                    old: vec![(order[i].1, Arc::clone(keyed[j].old.as_ref()?))],
                    new: vec![(ranges[j].0, Arc::clone(&keyed[j].tokens))],
                });
            }
            i += 1;
            j += 1;
            continue;
        }
        let (i0, j0) = (i, j);
        while i < order.len() && !now.contains(&order[i].0) {
            i += 1;
        }
        while j < keyed.len() && !keyed[j].known {
            j += 1;
        }
        if i == i0 && j == j0 {
            return None;
        }
        let old_start = order.get(i0).map_or(old_nfiles, |o| o.1);
        let new_start = ranges.get(j0).map_or(new_nfiles, |r| r.0);
        regions.push(patch::Region {
            old_files: (old_start, if i > i0 { order[i - 1].2 } else { old_start }),
            new_files: (new_start, if j > j0 { ranges[j - 1].1 } else { new_start }),
            old: order[i0..i]
                .iter()
                .map(|&(id, start, _)| Some((start, Arc::clone(&cached.get(&id)?.2))))
                .collect::<Option<_>>()?,
            new: (j0..j).map(|j| (ranges[j].0, Arc::clone(&keyed[j].tokens))).collect(),
        });
    }
    Some(regions)
}

/// Files per tokenising chunk on average: a chunk ends after a file whose path hashes to a
/// multiple of this. Boundaries that depend only on paths stay where they were when a file is
/// added, removed or edited elsewhere, so every other chunk is found again in the cache.
const CHUNK_SPREAD: u32 = 16;
/// A file declaring at least this many symbols is a chunk of its own: an edit re-tokenises one
/// whole chunk, and a large file must not drag its neighbours along (nor they it).
const BIG_FILE_DOCS: u32 = 512;
/// Most files one chunk holds (a run of paths that never hash to a boundary).
const MAX_CHUNK_FILES: usize = 128;

/// The tokenising chunks over the files that have docs, as file ranges (see [`CHUNK_SPREAD`]).
fn chunk_ranges(path_hash: &[u32], file_doc_off: &[u32]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (f, &hash) in path_hash.iter().enumerate() {
        let big = file_doc_off[f + 1] - file_doc_off[f] >= BIG_FILE_DOCS;
        if big && start < f {
            ranges.push((start, f));
            start = f;
        }
        if big || hash.is_multiple_of(CHUNK_SPREAD) || f + 1 - start >= MAX_CHUNK_FILES {
            ranges.push((start, f + 1));
            start = f + 1;
        }
    }
    if start < path_hash.len() {
        ranges.push((start, path_hash.len()));
    }
    ranges
}

/// Tokenised chunks of the last symbol-index build, reused by the next build for every chunk
/// whose text did not change (a watcher pass changes one or two files of tens of thousands).
/// Cloning shares the chunks (an overlay view starts from its base's cache).
#[derive(Default, Clone)]
pub struct TokenCache {
    /// By chunk identity (its files' paths): the facts key (when the graph had facts), the text
    /// key, the tokens.
    chunks: FxHashMap<u64, CachedChunk>,
    /// The last build's chunks in file order: identity and file range.
    order: Vec<(u64, usize, usize)>,
    /// The last build's doc layout (doc → node, file → first doc) and text tables: when a build
    /// finds every chunk unchanged and the same layout, it shares the tables instead of merging
    /// chunks again; when a few chunks changed, it patches them.
    last: Option<(Vec<NodeIndex>, Vec<u32>, Arc<TextTables>)>,
    /// The last build's files (as `Graph::files`): their facts, indexed symbols and first doc.
    layouts: Vec<LastFile>,
    /// The last build's per-doc metadata (by doc), copied for files whose facts are the same.
    metas: Vec<DocMeta>,
    /// How the last build made its text tables.
    text_build: TextBuild,
    /// Chunks the last build tokenised, of how many.
    tokenised: (usize, usize),
}

/// How a symbol-index build made its text tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextBuild {
    /// Merged from every chunk's tokens.
    #[default]
    Merged,
    /// The last build's, patched for the chunks whose text changed.
    Patched,
    /// The last build's, shared: no text changed.
    Shared,
}

impl TokenCache {
    /// How the last build that used this cache made its text tables.
    pub fn text_build(&self) -> TextBuild {
        self.text_build
    }

    /// How many chunks of files the last build tokenised, and how many it had.
    pub fn chunks_tokenised(&self) -> (usize, usize) {
        self.tokenised
    }

    /// Approximate heap bytes the cached chunks and the last build's metadata hold.
    pub fn memory_bytes(&self) -> usize {
        self.metas.capacity() * std::mem::size_of::<DocMeta>()
            + self
                .chunks
                .values()
                .map(|(_, _, c)| {
                    c.vocab.iter().map(|t| t.len() + 16).sum::<usize>()
                        + c.postings.len() * std::mem::size_of::<(u32, u32, u16)>()
                        + c.paths.len() * std::mem::size_of::<(u32, u32, u8)>()
                        + c.doc_len.len() * FIELDS
                        + c.path_len.len()
                })
                .sum::<usize>()
    }
}

struct Interner {
    ids: FxHashMap<Box<str>, u32>,
    vocab: Vec<Box<str>>,
}

impl Interner {
    fn id(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = self.vocab.len() as u32;
        let owned: Box<str> = token.into();
        self.vocab.push(owned.clone());
        self.ids.insert(owned, id);
        id
    }
}

thread_local! {
    /// Doc → candidate slot, reused across queries on a thread (reset after each query).
    static SLOTS: RefCell<(Vec<u32>, bool)> = const { RefCell::new((Vec::new(), false)) };
}

impl TextTables {
    /// Number of tokens in the vocabulary.
    fn vocabulary_len(&self) -> usize {
        self.vocab_off.len().saturating_sub(1)
    }

    /// The token with this id.
    fn token(&self, id: u32) -> &str {
        let (s, e) = (
            self.vocab_off[id as usize] as usize,
            self.vocab_off[id as usize + 1] as usize,
        );
        // The buffer only ever receives whole `&str` tokens.
        std::str::from_utf8(&self.vocab[s..e]).unwrap_or("")
    }

    /// The id of a vocabulary token (the vocabulary is sorted).
    fn token_id(&self, token: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0u32, self.vocabulary_len() as u32);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.token(mid).cmp(token) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Merges tokenised chunks (in doc order) into one sorted vocabulary, postings, document
    /// frequencies, field lengths and the exact-name lookup tables.
    fn merge(
        g: &Graph,
        chunks: Vec<Arc<Chunk>>,
        starts: &[usize],
        doc_node: &[NodeIndex],
        doc_file: &[u32],
        file_doc_off: &[u32],
    ) -> TextTables {
        let (nfiles, ndocs) = (file_doc_off.len() - 1, doc_node.len());
        // Global sorted vocabulary; chunk-local ids remapped onto it.
        let unique: rustc_hash::FxHashSet<&str> = chunks.iter().flat_map(|c| c.vocab.iter().map(|s| &**s)).collect();
        let mut all: Vec<&str> = unique.into_iter().collect();
        all.par_sort_unstable();
        let ntok = all.len();
        let mut vocab = Vec::with_capacity(all.iter().map(|s| s.len()).sum());
        let mut vocab_off = Vec::with_capacity(ntok + 1);
        vocab_off.push(0u32);
        let mut by_len: Vec<Vec<u32>> = vec![Vec::new(); MAX_TOKEN_LEN + 1];
        for (i, t) in all.iter().enumerate() {
            vocab.extend_from_slice(t.as_bytes());
            vocab_off.push(vocab.len() as u32);
            by_len[t.len().min(MAX_TOKEN_LEN)].push(i as u32);
        }
        let vocab_mask: Vec<u32> = all.par_iter().map(|t| letter_mask(t.as_bytes())).collect();
        let ids: FxHashMap<&str, u32> = all.iter().enumerate().map(|(i, t)| (*t, i as u32)).collect();
        let remap: Vec<Vec<u32>> = chunks
            .par_iter()
            .map(|c| c.vocab.iter().map(|t| ids[&**t]).collect())
            .collect();
        drop(ids);
        drop(all);

        // Postings by counting sort; chunks are in doc order, so each list stays ascending.
        let mut post_off = vec![0u32; ntok + 1];
        let mut path_off = vec![0u32; ntok + 1];
        for (c, map) in chunks.iter().zip(&remap) {
            for &(t, _, _) in &c.postings {
                post_off[map[t as usize] as usize + 1] += 1;
            }
            for &(t, _, _) in &c.paths {
                path_off[map[t as usize] as usize + 1] += 1;
            }
        }
        for i in 0..ntok {
            post_off[i + 1] += post_off[i];
            path_off[i + 1] += path_off[i];
        }
        let mut post_doc = vec![0u32; post_off[ntok] as usize];
        let mut post_tf = vec![0u16; post_off[ntok] as usize];
        let mut path_file = vec![0u32; path_off[ntok] as usize];
        let mut path_tf = vec![0u8; path_off[ntok] as usize];
        let mut fill = post_off.clone();
        let mut pfill = path_off.clone();
        let mut doc_len = Vec::with_capacity(ndocs);
        let mut file_path_len = Vec::with_capacity(nfiles);
        for ((c, map), &start) in chunks.iter().zip(&remap).zip(starts) {
            let doc_base = file_doc_off[start];
            for &(t, d, tf) in &c.postings {
                let slot = &mut fill[map[t as usize] as usize];
                post_doc[*slot as usize] = d + doc_base;
                post_tf[*slot as usize] = tf;
                *slot += 1;
            }
            for &(t, f, tf) in &c.paths {
                let slot = &mut pfill[map[t as usize] as usize];
                path_file[*slot as usize] = f + start as u32;
                path_tf[*slot as usize] = tf;
                *slot += 1;
            }
            doc_len.extend_from_slice(&c.doc_len);
            file_path_len.extend_from_slice(&c.path_len);
        }
        drop(chunks);

        let df: Vec<u32> = (0..ntok)
            .into_par_iter()
            .map(|t| {
                let docs = &post_doc[post_off[t] as usize..post_off[t + 1] as usize];
                let files = &path_file[path_off[t] as usize..path_off[t + 1] as usize];
                doc_frequency(docs, files, doc_file, file_doc_off)
            })
            .collect();

        let avg_len = average_lengths(&doc_len);
        let avg_path_len = average_path_length(&file_path_len);

        let (by_name, by_qualified) = exact_tables(g, doc_node);
        TextTables {
            vocab,
            vocab_off,
            vocab_mask,
            by_len,
            post_off,
            post_doc,
            post_tf,
            path_off,
            path_file,
            path_tf,
            df,
            doc_len,
            file_path_len,
            avg_len,
            avg_path_len,
            by_name,
            by_qualified,
        }
    }
}

/// A token's document frequency over symbols and paths together (a symbol counts once): the
/// docs of every file whose path holds it, plus each doc holding it elsewhere. `docs` and
/// `files` are its postings, ascending.
fn doc_frequency(docs: &[u32], files: &[u32], doc_file: &[u32], file_doc_off: &[u32]) -> u32 {
    let mut n: u32 = files
        .iter()
        .map(|&f| file_doc_off[f as usize + 1] - file_doc_off[f as usize])
        .sum();
    let mut fi = 0;
    for &d in docs {
        let f = doc_file[d as usize];
        while fi < files.len() && files[fi] < f {
            fi += 1;
        }
        if fi >= files.len() || files[fi] != f {
            n += 1;
        }
    }
    n
}

/// The average path length over the files (1 when there are none, never below 1).
fn average_path_length(file_path_len: &[u8]) -> f32 {
    if file_path_len.is_empty() {
        return 1.0;
    }
    (file_path_len.iter().map(|&l| l as u64).sum::<u64>() as f32 / file_path_len.len() as f32).max(1.0)
}

/// Each field's average length over the docs where it is not empty.
fn average_lengths(doc_len: &[[u8; FIELDS]]) -> [f32; FIELDS] {
    let mut avg_len = [0f32; FIELDS];
    for (field, avg) in avg_len.iter_mut().enumerate() {
        let (sum, count) = doc_len
            .iter()
            .filter(|l| l[field] > 0)
            .fold((0u64, 0u64), |(s, c), l| (s + l[field] as u64, c + 1));
        *avg = if count == 0 { 1.0 } else { sum as f32 / count as f32 };
    }
    avg_len
}

/// Exact-name lookup tables: `hash << 32 | doc` for every doc, by a hash of its
/// ASCII-lowercased name (and of its qualified name where that differs), sorted: lookups and
/// sorting compare integers instead of chasing strings.
fn exact_tables(g: &Graph, doc_node: &[NodeIndex]) -> (Vec<u64>, Vec<u64>) {
    let (mut by_name, mut by_qualified) = exact_keys(g, doc_node, 0);
    rayon::join(|| by_name.par_sort_unstable(), || by_qualified.par_sort_unstable());
    (by_name, by_qualified)
}

/// The unsorted [`exact_tables`] keys of `doc_node`, whose first doc is `first_doc`.
fn exact_keys(g: &Graph, doc_node: &[NodeIndex], first_doc: u32) -> (Vec<u64>, Vec<u64>) {
    let key = |h: u32, d: usize| ((h as u64) << 32) | (first_doc + d as u32) as u64;
    rayon::join(
        || {
            doc_node
                .par_iter()
                .enumerate()
                .map(|(d, &n)| key(fold_hash(&g.node_at(n).name), d))
                .collect()
        },
        || {
            doc_node
                .par_iter()
                .enumerate()
                .filter(|(_, &n)| {
                    let node = g.node_at(n);
                    node.qualified.len() != node.name.len()
                })
                .map(|(d, &n)| key(fold_hash(&g.node_at(n).qualified), d))
                .collect()
        },
    )
}

/// Which nodes a symbol index holds, in file order.
struct DocLayout {
    doc_node: Vec<NodeIndex>,
    doc_file: Vec<u32>,
    file_doc_off: Vec<u32>,
    file_node: Vec<NodeIndex>,
    /// Per file with docs (as `file_node`), `fold_hash` of its path: where chunks end.
    path_hash: Vec<u32>,
    /// Per file with docs (as `file_node`), its facts, when the graph has them.
    file_facts: Option<Vec<Arc<FileFacts>>>,
}

impl DocLayout {
    /// The same docs, files and order (however they were found).
    fn same_docs(&self, other: &DocLayout) -> bool {
        self.doc_node == other.doc_node
            && self.doc_file == other.doc_file
            && self.file_doc_off == other.file_doc_off
            && self.file_node == other.file_node
            && self.path_hash == other.path_hash
    }

    fn new() -> DocLayout {
        DocLayout {
            doc_node: Vec::new(),
            doc_file: Vec::new(),
            file_doc_off: vec![0],
            file_node: Vec::new(),
            path_hash: Vec::new(),
            file_facts: None,
        }
    }
}

/// The layout read from the nodes: each file's block, its indexed symbols.
fn layout_from_nodes(g: &Graph) -> DocLayout {
    let mut out = DocLayout::new();
    let mut next = 0usize;
    while next < g.node_count() {
        let i = next;
        let n = g.node_at(i as NodeIndex);
        next += 1;
        if n.kind != NodeKind::File || n.external || !g.is_live(i as NodeIndex) {
            continue;
        }
        let block = g.file_nodes(&n.path);
        // A file's symbols usually follow it as one block: skip them (checked, not assumed).
        if block.first() == Some(&(i as u32)) && block.last() == Some(&((i + block.len() - 1) as u32)) {
            next = i + block.len();
        }
        let before = out.doc_node.len();
        let f = out.file_node.len() as u32;
        for &j in block {
            if is_indexed(g.node_at(j)) {
                out.doc_node.push(j);
                out.doc_file.push(f);
            }
        }
        if out.doc_node.len() > before {
            out.file_node.push(i as NodeIndex);
            out.path_hash.push(fold_hash(&n.path));
            out.file_doc_off.push(out.doc_node.len() as u32);
        }
    }
    out
}

/// One file of a symbol-index build, as the next build finds it again.
#[derive(Clone)]
struct LastFile {
    facts: Arc<FileFacts>,
    /// Offsets of its indexed symbols from its file node.
    offsets: Arc<[u32]>,
    path: Arc<str>,
    /// `fold_hash` of its path (hashing every path byte by byte again took ≈ 9 ms a build).
    path_hash: u32,
    /// Its first doc in that build (when it had docs).
    first_doc: u32,
}

/// The layout from each file's facts (the builder puts a file's symbols right after its file
/// node, one node per fact): offsets of the indexed symbols, reused from `last` for a file whose
/// facts are the same allocation. Also gives this build's files, for the next, and per file with
/// docs its first doc in the last build when the same facts at the same path make the same docs
/// there (`u32::MAX` otherwise).
fn layout_from_facts(g: &Graph, facts: &[Arc<FileFacts>], last: &[LastFile]) -> (DocLayout, Vec<LastFile>, Vec<u32>) {
    let mut out = DocLayout::new();
    let mut kept = Vec::with_capacity(facts.len());
    let mut with_docs = Vec::new();
    let mut carried = Vec::new();
    for (k, (&file, f)) in g.files().iter().zip(facts).enumerate() {
        let path = &g.node_at(file).path;
        let at_path = last.get(k).filter(|prev| same_text(&prev.path, path));
        let path_hash = at_path.map_or_else(|| fold_hash(path), |prev| prev.path_hash);
        let prev = last.get(k).filter(|prev| Arc::ptr_eq(&prev.facts, f));
        let offsets: Arc<[u32]> = match prev {
            Some(prev) => Arc::clone(&prev.offsets),
            None => f
                .symbols
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind.is_symbol())
                .map(|(i, _)| i as u32 + 1)
                .collect(),
        };
        let first_doc = out.doc_node.len() as u32;
        if !offsets.is_empty() {
            let ordinal = out.file_node.len() as u32;
            out.doc_node.extend(offsets.iter().map(|&o| file + o));
            out.doc_file.extend(std::iter::repeat_n(ordinal, offsets.len()));
            out.file_node.push(file);
            out.path_hash.push(path_hash);
            out.file_doc_off.push(out.doc_node.len() as u32);
            with_docs.push(Arc::clone(f));
            // A symbol's node is made from its fact, its file's language and path alone.
            carried.push(match prev {
                Some(prev) if same_text(&prev.path, path) => prev.first_doc,
                _ => u32::MAX,
            });
        }
        kept.push(LastFile {
            facts: Arc::clone(f),
            offsets,
            path: Arc::clone(path),
            path_hash,
            first_doc,
        });
    }
    out.file_facts = Some(with_docs);
    (out, kept, carried)
}

/// Per node: usage edges in (`fan_in`) and out (`fan_out`), a node's uses of itself left out.
fn usage_counts(g: &Graph) -> (Vec<u32>, Vec<u32>) {
    let n = g.node_count();
    let count = |skip: usize, take: usize| {
        let (mut fan_in, mut fan_out) = (vec![0u32; n], vec![0u32; n]);
        for e in g.edges().skip(skip).take(take) {
            if e.kind.is_usage() && e.from != e.to {
                fan_in[e.to as usize] += 1;
                fan_out[e.from as usize] += 1;
            }
        }
        (fan_in, fan_out)
    };
    let half = g.edge_count() / 2;
    let ((mut fan_in, mut fan_out), (more_in, more_out)) = rayon::join(|| count(0, half), || count(half, usize::MAX));
    for (a, b) in fan_in.iter_mut().zip(more_in) {
        *a += b;
    }
    for (a, b) in fan_out.iter_mut().zip(more_out) {
        *a += b;
    }
    (fan_in, fan_out)
}

impl SymbolIndex {
    /// Builds the index over every symbol of `g` (files, packages, imports and external stubs are
    /// left out). Tokenisation runs in parallel on the current rayon pool.
    pub fn build(g: &Graph) -> SymbolIndex {
        SymbolIndex::build_reusing(g, &mut TokenCache::default())
    }

    /// [`SymbolIndex::build`], taking unchanged chunks' tokens from `cache` and leaving this
    /// build's there. The result equals a fresh build (a test checks it).
    pub fn build_reusing(g: &Graph, cache: &mut TokenCache) -> SymbolIndex {
        // Docs in file order, so each file's symbols are one contiguous doc range. A graph that
        // records its files' facts says which symbols each file has without reading its nodes;
        // a file whose facts are the very ones of the last build reuses that build's offsets.
        let facts = g.file_facts();
        let (layout, layouts, carried) = if !facts.is_empty() && facts.len() == g.files().len() {
            let (layout, layouts, carried) = layout_from_facts(g, facts, &cache.layouts);
            debug_assert!(
                layout.same_docs(&layout_from_nodes(g)),
                "the facts layout equals the nodes' one"
            );
            (layout, layouts, Some(carried))
        } else {
            (layout_from_nodes(g), Vec::new(), None)
        };
        let DocLayout {
            doc_node,
            doc_file,
            file_doc_off,
            file_node,
            path_hash,
            file_facts,
        } = layout;

        // Tokenise chunks of files in parallel; a chunk whose text is unchanged since the last
        // build (same files, same fields: what a body edit elsewhere leaves) is taken from `cache`.
        let ranges = chunk_ranges(&path_hash, &file_doc_off);
        let texts = ChunkText {
            g,
            file_node: &file_node,
            file_doc_off: &file_doc_off,
            doc_node: &doc_node,
            file_facts: file_facts.as_deref(),
        };
        let keyed: Vec<Keyed> = ranges
            .par_iter()
            .map(|&(start, end)| {
                let identity = texts.identity(start, end);
                let facts_key = texts.facts_key(start, end);
                let last = cache.chunks.get(&identity);
                let keyed = |text_key, tokens: &Arc<Chunk>| Keyed {
                    identity,
                    facts_key,
                    text_key,
                    tokens: Arc::clone(tokens),
                    reused: true,
                    old: None,
                    known: true,
                };
                // The same facts: the same text, no need to read it.
                if let Some((Some(k), text_key, chunk)) = last {
                    if facts_key == Some(*k) {
                        return keyed(*text_key, chunk);
                    }
                }
                let text_key = texts.key(start, end);
                match last {
                    Some((_, k, chunk)) if *k == text_key => keyed(text_key, chunk),
                    _ => Keyed {
                        identity,
                        facts_key,
                        text_key,
                        tokens: Arc::new(texts.tokenise(start, end)),
                        reused: false,
                        old: last.map(|(_, _, chunk)| Arc::clone(chunk)),
                        known: last.is_some(),
                    },
                }
            })
            .collect();
        // Every chunk's files were a chunk of the last build, and no chunk went (whether in the
        // same places is for the doc layout comparison below to say).
        let same_ranges = keyed.len() == cache.chunks.len() && keyed.iter().all(|k| k.known);
        let same_chunks = same_ranges && keyed.iter().all(|k| k.reused);
        cache.tokenised = (keyed.iter().filter(|k| !k.reused).count(), keyed.len());
        // Where chunks changed, for a patch of the last tables (few changed: patching is worth it).
        let regions = changed_regions(&cache.order, &cache.chunks, &keyed, &ranges);
        cache.order = keyed
            .iter()
            .zip(&ranges)
            .map(|(k, &(s, e))| (k.identity, s, e))
            .collect();
        cache.chunks = keyed
            .iter()
            .map(|k| (k.identity, (k.facts_key, k.text_key, Arc::clone(&k.tokens))))
            .collect();
        // Only now: the keys just compared name the last build's facts by address, which must
        // stay allocated (held here) until no key names them. The last metadata goes with the
        // last layouts (a build that stops between here and its end carries nothing over).
        let metas = std::mem::take(&mut cache.metas);
        cache.layouts = layouts;
        // Every chunk's text and every symbol's place as in the last build: its text tables hold.
        let text = match &cache.last {
            Some((layout, _, text)) if same_chunks && *layout == doc_node => {
                cache.text_build = TextBuild::Shared;
                Arc::clone(text)
            }
            last => {
                // At most about half the chunks of the two builds in changed runs: beyond that a
                // merge is cheaper than taking so many out and putting them in.
                let changed = |r: &Vec<patch::Region>| r.iter().map(|r| r.old.len() + r.new.len()).sum::<usize>();
                let changes = regions.filter(|r| changed(r) * 2 <= cache.order.len() + keyed.len());
                let patched = match (last, changes) {
                    (Some((_, old_file_doc_off, text)), Some(regions)) => {
                        text.patch(g, old_file_doc_off, &regions, &doc_node, &doc_file, &file_doc_off)
                    }
                    _ => None,
                };
                cache.text_build = if patched.is_some() {
                    TextBuild::Patched
                } else {
                    TextBuild::Merged
                };
                let text = Arc::new(patched.unwrap_or_else(|| {
                    let chunks: Vec<Arc<Chunk>> = keyed.into_iter().map(|k| k.tokens).collect();
                    let starts: Vec<usize> = ranges.iter().map(|r| r.0).collect();
                    TextTables::merge(g, chunks, &starts, &doc_node, &doc_file, &file_doc_off)
                }));
                cache.last = Some((doc_node.clone(), file_doc_off.clone(), Arc::clone(&text)));
                text
            }
        };
        let carry = carried.as_deref().map(|carried| (&metas[..], carried));
        let index = Self::assemble(g, text, doc_node, doc_file, file_doc_off, carry);
        cache.metas = if cache.layouts.is_empty() {
            Vec::new()
        } else {
            index.doc_meta.clone()
        };
        index
    }

    /// The index over `text` and the graph's current edges: usage counts and priors are always
    /// computed afresh (a body edit changes fan-in elsewhere); per-symbol metadata is copied from
    /// `carry` (the last build's, and per file its first doc there or `u32::MAX`) where it can be.
    fn assemble(
        g: &Graph,
        text: Arc<TextTables>,
        doc_node: Vec<NodeIndex>,
        doc_file: Vec<u32>,
        file_doc_off: Vec<u32>,
        carry: Option<(&[DocMeta], &[u32])>,
    ) -> SymbolIndex {
        // Usage counts per node in one pass over the edges (sorted by source: sequential reads),
        // rather than chasing each node's incoming edges through the adjacency.
        let (node_in, node_out) = usage_counts(g);
        // Where file `f`'s metadata is copied from: its first doc in the last build.
        let carried_from = |f: usize| -> Option<(&[DocMeta], usize)> {
            let (metas, carried) = carry?;
            let (from, len) = (carried[f] as usize, (file_doc_off[f + 1] - file_doc_off[f]) as usize);
            (carried[f] != u32::MAX && from + len <= metas.len()).then_some((metas, from))
        };
        // A file's test naming is decided once per file, not once per symbol (nor for a file
        // whose metadata is copied).
        let file_test: Vec<bool> = file_doc_off
            .par_windows(2)
            .enumerate()
            .map(|(f, w)| {
                w[0] < w[1] && carried_from(f).is_none() && {
                    let n = g.node_at(doc_node[w[0] as usize]);
                    is_test_path(&n.path, n.language)
                }
            })
            .collect();
        let position = |all: &[u8]| {
            let mut table = [0u8; 256];
            for (p, &x) in all.iter().enumerate() {
                table[x as usize] = p as u8;
            }
            table
        };
        let kinds = position(&NodeKind::ALL.iter().map(|&k| k as u8).collect::<Vec<_>>());
        let languages = position(&Language::ALL.iter().map(|&l| l as u8).collect::<Vec<_>>());
        let flavors = position(&TypeFlavor::ALL.iter().map(|&f| f as u8).collect::<Vec<_>>());
        // Per-symbol metadata and usage counts.
        let per_doc: Vec<(DocMeta, u32, u32)> = doc_node
            .par_iter()
            .zip(doc_file.par_iter())
            .enumerate()
            .map(|(d, (&i, &f))| {
                if let Some((metas, from)) = carried_from(f as usize) {
                    let meta = metas[from + d - file_doc_off[f as usize] as usize];
                    return (meta, node_in[i as usize], node_out[i as usize]);
                }
                let n = g.node_at(i);
                let mut flags = 0;
                if n.is_test || file_test[f as usize] {
                    flags |= FLAG_TEST;
                }
                if n.exported || n.visibility == Some(Visibility::Public) {
                    flags |= FLAG_EXPORTED;
                }
                if n.ui.is_some() {
                    flags |= FLAG_UI;
                }
                let meta = DocMeta {
                    kind: kinds[n.kind as usize],
                    lang: n.language.map_or(0, |l| languages[l as usize] + 1),
                    flavor: n.flavor.map_or(0, |f| flavors[f as usize] + 1),
                    flags,
                };
                (meta, node_in[i as usize], node_out[i as usize])
            })
            .collect();
        let doc_meta: Vec<DocMeta> = per_doc.iter().map(|p| p.0).collect();
        let fan_in: Vec<u32> = per_doc.iter().map(|p| p.1).collect();
        let fan_out: Vec<u32> = per_doc.iter().map(|p| p.2).collect();
        drop(per_doc);
        let max_fan_in = fan_in.iter().copied().max().unwrap_or(0);
        let prior: Vec<f32> = doc_meta
            .iter()
            .zip(&fan_in)
            .map(|(m, &f)| prior_sum(prior_parts(m.kind(), f, max_fan_in, m.exported(), m.is_test())))
            .collect();

        let mut node_doc = vec![u32::MAX; g.node_count()];
        for (d, &n) in doc_node.iter().enumerate() {
            node_doc[n as usize] = d as u32;
        }
        SymbolIndex {
            node_doc,
            node_count: g.node_count(),
            max_fan_in,
            max_fan_out: fan_out.iter().copied().max().unwrap_or(0),
            text,
            doc_node,
            doc_file,
            doc_meta,
            fan_in,
            fan_out,
            prior,
            file_doc_off,
        }
    }

    /// Number of indexed symbols.
    pub fn len(&self) -> usize {
        self.doc_node.len()
    }

    /// True when the graph has no symbols.
    pub fn is_empty(&self) -> bool {
        self.doc_node.is_empty()
    }

    /// Number of distinct tokens.
    pub fn vocabulary_len(&self) -> usize {
        self.text.vocabulary_len()
    }

    /// Heap bytes held by the index (capacities, so it matches what the allocator gave out).
    pub fn memory_bytes(&self) -> usize {
        fn v<T>(x: &Vec<T>) -> usize {
            x.capacity() * std::mem::size_of::<T>()
        }
        v(&self.text.vocab)
            + v(&self.text.vocab_off)
            + v(&self.text.vocab_mask)
            + v(&self.text.by_len)
            + self.text.by_len.iter().map(v).sum::<usize>()
            + v(&self.text.post_off)
            + v(&self.text.post_doc)
            + v(&self.text.post_tf)
            + v(&self.text.path_off)
            + v(&self.text.path_file)
            + v(&self.text.path_tf)
            + v(&self.text.df)
            + v(&self.doc_node)
            + v(&self.node_doc)
            + v(&self.doc_file)
            + v(&self.text.doc_len)
            + v(&self.doc_meta)
            + v(&self.fan_in)
            + v(&self.fan_out)
            + v(&self.prior)
            + v(&self.file_doc_off)
            + v(&self.text.file_path_len)
            + v(&self.text.by_name)
            + v(&self.text.by_qualified)
    }

    /// Fails when the index was built from a different graph than the one queried.
    pub(crate) fn check(&self, g: &Graph) -> Result<(), QueryError> {
        if self.node_count != g.node_count() {
            return Err(QueryError::unavailable(format!(
                "the symbol index was built for a graph with {} nodes but this graph has {}; rebuild it \
                 (SymbolIndex::build) after every graph update",
                self.node_count,
                g.node_count()
            )));
        }
        Ok(())
    }

    pub(crate) fn token(&self, id: u32) -> &str {
        self.text.token(id)
    }

    /// The id of a vocabulary token.
    pub(crate) fn token_id(&self, token: &str) -> Option<u32> {
        self.text.token_id(token)
    }

    /// Ids of every token starting with `prefix` (a contiguous range: the vocabulary is sorted).
    pub(crate) fn prefix_range(&self, prefix: &str) -> std::ops::Range<u32> {
        let n = self.vocabulary_len() as u32;
        let lower = |lo: u32, pred: &dyn Fn(&str) -> bool| {
            let (mut lo, mut hi) = (lo, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if pred(self.token(mid)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let start = lower(0, &|t| t < prefix);
        let end = lower(start, &|t| t.starts_with(prefix));
        start..end
    }

    /// The vocabulary tokens a query term matches: the exact token (weight 1.0), with `prefix`
    /// every longer token it prefixes (0.5–0.8, closer in length weighs more), and only when
    /// neither exists, fuzzy matches: one edit (0.5) or two (0.4) by [`fuzzy::max_edits`], or
    /// abbreviations (`usr` → `user`, 0.4).
    pub(crate) fn expand(&self, text: &str, prefix: bool) -> Term {
        let mut expansions = Vec::new();
        let range = if prefix {
            self.prefix_range(text)
        } else {
            self.token_id(text).map_or(0..0, |id| id..id + 1)
        };
        for id in range {
            let t = self.token(id);
            if t.len() == text.len() {
                expansions.push(Expansion {
                    token: id,
                    weight: EXACT_WEIGHT,
                });
            } else {
                expansions.push(Expansion {
                    token: id,
                    weight: 0.5 + 0.3 * text.len() as f32 / t.len() as f32,
                });
            }
        }
        if expansions.is_empty() {
            let q = text.as_bytes();
            let k = fuzzy::max_edits(q.len());
            let qmask = letter_mask(q);
            let lo = q.len().saturating_sub(k);
            let hi = (2 * q.len() + 2).min(MAX_TOKEN_LEN);
            for len in lo..=hi {
                for &id in &self.text.by_len[len] {
                    let t = self.token(id).as_bytes();
                    let tmask = self.text.vocab_mask[id as usize];
                    if len.abs_diff(q.len()) <= k
                        && (tmask & !qmask).count_ones() as usize <= k
                        && (qmask & !tmask).count_ones() as usize <= k
                    {
                        if let Some(d) = fuzzy::osa_within(q, t, k) {
                            expansions.push(Expansion {
                                token: id,
                                weight: if d <= 1 { 0.5 } else { 0.4 },
                            });
                            continue;
                        }
                    }
                    if t.first() == q.first() && fuzzy::is_abbreviation(q, t) {
                        expansions.push(Expansion {
                            token: id,
                            weight: ABBREVIATION_WEIGHT,
                        });
                    }
                }
            }
            expansions.sort_by_key(|e| e.token);
        }
        Term {
            text: text.to_string(),
            expansions,
        }
    }

    fn idf(&self, token: u32) -> f32 {
        let n = self.len() as f32;
        let df = self.text.df[token as usize] as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    fn doc_part(&self, doc: u32, tf: u16, weights: &[f32; FIELDS]) -> (f32, bool) {
        let lens = self.text.doc_len[doc as usize];
        let mut s = 0.0;
        for f in 0..FIELDS {
            let c = (tf >> (4 * f)) & 0xF;
            if c > 0 {
                s += weights[f] * tf_norm(c as f32, lens[f] as f32, self.text.avg_len[f]);
            }
        }
        (s, tf & 0xFF != 0)
    }

    /// BM25 over the terms, fields weighted by `weights` (a field weighted 0 does not match):
    /// every symbol matching any expansion of any term, with its score (per term the best expansion counts) and which terms matched in
    /// the name/owner and the path. Candidates come back in first-touched order; callers sort.
    pub(crate) fn score(&self, terms: &[Term], weights: &[f32; FIELDS]) -> Vec<Acc> {
        debug_assert!(terms.len() <= 32);
        let ndocs = self.len();
        SLOTS.with(|cell| {
            let mut guard = cell.borrow_mut();
            let (slots, dirty) = &mut *guard;
            if slots.len() < ndocs || *dirty {
                slots.clear();
                slots.resize(ndocs, u32::MAX);
            }
            *dirty = true;
            // An upper bound of the candidates, so the list never reallocates.
            let estimate: usize = terms
                .iter()
                .flat_map(|t| &t.expansions)
                .map(|e| {
                    let t = e.token as usize;
                    let files =
                        &self.text.path_file[self.text.path_off[t] as usize..self.text.path_off[t + 1] as usize];
                    (self.text.post_off[t + 1] - self.text.post_off[t]) as usize
                        + files
                            .iter()
                            .map(|&f| (self.file_doc_off[f as usize + 1] - self.file_doc_off[f as usize]) as usize)
                            .sum::<usize>()
                })
                .sum();
            let mut accs: Vec<Acc> = Vec::with_capacity(estimate.min(ndocs));
            for (ti, term) in terms.iter().enumerate() {
                let bit = 1u32 << ti;
                for e in &term.expansions {
                    let idf = self.idf(e.token) * e.weight;
                    let t = e.token as usize;
                    let (ps, pe) = (self.text.post_off[t] as usize, self.text.post_off[t + 1] as usize);
                    let (fs, fe) = (self.text.path_off[t] as usize, self.text.path_off[t + 1] as usize);
                    let mut update = |doc: u32, s: f32, name: bool, path: bool| {
                        if s <= 0.0 {
                            return; // only in fields weighted 0: not a match
                        }
                        let slot = &mut slots[doc as usize];
                        if *slot == u32::MAX {
                            *slot = accs.len() as u32;
                            accs.push(Acc {
                                doc,
                                score: 0.0,
                                cur: s,
                                cur_term: ti as u8,
                                mask: bit,
                                name_mask: if name { bit } else { 0 },
                                path_mask: if path { bit } else { 0 },
                            });
                            return;
                        }
                        let a = &mut accs[*slot as usize];
                        if a.cur_term == ti as u8 {
                            a.cur = a.cur.max(s);
                        } else {
                            a.score += a.cur;
                            a.cur = s;
                            a.cur_term = ti as u8;
                        }
                        a.mask |= bit;
                        if name {
                            a.name_mask |= bit;
                        }
                        if path {
                            a.path_mask |= bit;
                        }
                    };
                    // Merge symbol postings with path postings (expanded to file doc ranges),
                    // so a symbol matching in both gets one summed contribution.
                    let mut pi = ps;
                    for fi in fs..fe {
                        let f = self.text.path_file[fi] as usize;
                        let (ds, de) = (self.file_doc_off[f], self.file_doc_off[f + 1]);
                        while pi < pe && self.text.post_doc[pi] < ds {
                            let (s, name) = self.doc_part(self.text.post_doc[pi], self.text.post_tf[pi], weights);
                            update(self.text.post_doc[pi], idf * s, name, false);
                            pi += 1;
                        }
                        let path_part = PATH_WEIGHT
                            * tf_norm(
                                self.text.path_tf[fi] as f32,
                                self.text.file_path_len[f] as f32,
                                self.text.avg_path_len,
                            );
                        for d in ds..de {
                            let (mut s, mut name) = (path_part, false);
                            if pi < pe && self.text.post_doc[pi] == d {
                                let (ds, n) = self.doc_part(d, self.text.post_tf[pi], weights);
                                s += ds;
                                name = n;
                                pi += 1;
                            }
                            update(d, idf * s, name, true);
                        }
                    }
                    while pi < pe {
                        let (s, name) = self.doc_part(self.text.post_doc[pi], self.text.post_tf[pi], weights);
                        update(self.text.post_doc[pi], idf * s, name, false);
                        pi += 1;
                    }
                }
            }
            for a in accs.iter_mut() {
                a.score += a.cur;
                a.cur = 0.0;
                slots[a.doc as usize] = u32::MAX;
            }
            *dirty = false;
            accs
        })
    }

    /// Docs whose name (or, for `Owner.name` queries, qualified name) equals `query`,
    /// ASCII-case-insensitively, split into case-sensitive matches and the rest. Doc order.
    pub(crate) fn exact(&self, g: &Graph, query: &str) -> (Vec<u32>, Vec<u32>) {
        let qualified = query.contains('.');
        let (list, field): (&[u64], fn(&Node) -> &str) = if qualified {
            (&self.text.by_qualified, |n| n.qualified.as_str())
        } else {
            (&self.text.by_name, |n| n.name.as_str())
        };
        let text = |d: u32| field(g.node_at(self.doc_node[d as usize]));
        let h = fold_hash(query) as u64;
        let start = list.partition_point(|&k| k >> 32 < h);
        let end = start + list[start..].partition_point(|&k| k >> 32 == h);
        let mut sensitive = Vec::new();
        let mut insensitive = Vec::new();
        for &k in &list[start..end] {
            let d = k as u32;
            let t = text(d);
            if t == query {
                sensitive.push(d);
            } else if t.eq_ignore_ascii_case(query) {
                insensitive.push(d);
            }
        }
        (sensitive, insensitive)
    }

    /// The node of a doc.
    /// The doc of a node, when the node is indexed.
    pub(crate) fn doc_of(&self, node: NodeIndex) -> Option<u32> {
        self.node_doc.get(node as usize).copied().filter(|&d| d != u32::MAX)
    }

    pub(crate) fn node<'g>(&self, g: &'g Graph, doc: u32) -> &'g Node {
        g.node_at(self.doc_node[doc as usize])
    }

    /// Vocabulary tokens of a doc's fields (path included) that are among `wanted`, sorted.
    pub(crate) fn matched_tokens(&self, g: &Graph, doc: u32, wanted: &rustc_hash::FxHashSet<u32>) -> Vec<String> {
        let node = self.node(g, doc);
        let mut out: Vec<String> = Vec::new();
        for text in ChunkText::fields(node).into_iter().chain([path_field(&node.path)]) {
            for_each_token(text, |t| {
                if let Some(id) = self.token_id(t) {
                    if wanted.contains(&id) && !out.iter().any(|o| o == t) {
                        out.push(t.to_string());
                    }
                }
            });
        }
        out.sort();
        out
    }

    /// Number of postings (symbol and path), for reports.
    pub fn postings_len(&self) -> usize {
        self.text.post_doc.len() + self.text.path_file.len()
    }

    /// Number of files with at least one indexed symbol.
    pub(crate) fn file_count(&self) -> usize {
        self.file_doc_off.len().saturating_sub(1)
    }

    /// The docs of an index file (a contiguous range).
    pub(crate) fn file_docs(&self, f: usize) -> std::ops::Range<u32> {
        self.file_doc_off[f]..self.file_doc_off[f + 1]
    }

    /// The path of an index file.
    pub(crate) fn file_path<'g>(&self, g: &'g Graph, f: usize) -> &'g str {
        &self.node(g, self.file_doc_off[f]).path
    }

    /// Tests only: the tf packing and field layout are what the scorer expects.
    #[cfg(test)]
    pub(crate) fn field_tf(&self, token: &str, doc: u32) -> Option<[u16; FIELDS]> {
        let t = self.token_id(token)? as usize;
        let (s, e) = (self.text.post_off[t] as usize, self.text.post_off[t + 1] as usize);
        let i = s + self.text.post_doc[s..e].binary_search(&doc).ok()?;
        let p = self.text.post_tf[i];
        Some([p & 0xF, (p >> 4) & 0xF, (p >> 8) & 0xF, (p >> 12) & 0xF])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query_terms;
    use gortex_core::{EdgeKind, Origin};
    use gortex_graph::{Edge, Node};
    use std::sync::Arc;

    fn node(path: &str, kind: NodeKind, qualified: &str, doc: Option<&str>) -> Node {
        let name = qualified.rsplit('.').next().unwrap().to_string();
        let id = if kind == NodeKind::File {
            format!("r/{path}")
        } else {
            format!("r/{path}::{qualified}")
        };
        let mut n = Node::bare(Arc::from(id), kind, name, qualified.to_string(), Arc::from(path));
        n.language = Language::from_path(path);
        n.doc = doc.map(str::to_string);
        n
    }

    /// A two-file graph: `a.ts` (HTTP parsing) and `b.ts` (callers), plus an external stub.
    fn small_graph() -> Graph {
        let mut nodes = vec![
            node("src/a.ts", NodeKind::File, "src/a.ts", None),
            node(
                "src/a.ts",
                NodeKind::Function,
                "parseHttpResponse",
                Some("Parses the raw HTTP response body."),
            ),
            node("src/a.ts", NodeKind::Type, "HttpClient", Some("Sends requests.")),
            node("src/a.ts", NodeKind::Method, "HttpClient.send", None),
            node("src/a.ts", NodeKind::Variable, "responseCode", None),
            node("src/b.ts", NodeKind::File, "src/b.ts", None),
            node(
                "src/b.ts",
                NodeKind::Function,
                "send",
                Some("Sends a request and waits."),
            ),
            node("src/b.ts", NodeKind::Function, "unrelated", None),
        ];
        let mut stub = Node::bare(
            Arc::from("external::http"),
            NodeKind::Module,
            "http".into(),
            "http".into(),
            Arc::from(""),
        );
        stub.external = true;
        nodes.push(stub);
        nodes[2].exported = true;
        let e = |from, to, kind| Edge {
            from,
            to,
            kind,
            origin: Origin::AstResolved,
            line: 1,
            via: None,
        };
        let edges = vec![
            e(0, 1, EdgeKind::Defines),
            e(0, 2, EdgeKind::Defines),
            e(2, 3, EdgeKind::Contains),
            e(0, 4, EdgeKind::Defines),
            e(5, 6, EdgeKind::Defines),
            e(5, 7, EdgeKind::Defines),
            e(6, 1, EdgeKind::Calls),
            e(7, 1, EdgeKind::Calls),
            e(6, 3, EdgeKind::Calls),
            e(1, 1, EdgeKind::Calls),
        ];
        Graph::assemble("r".into(), nodes, edges, Vec::new())
    }

    fn doc_of(idx: &SymbolIndex, g: &Graph, id: &str) -> u32 {
        let n = g.lookup(id).unwrap();
        idx.doc_node.iter().position(|&x| x == n).unwrap() as u32
    }

    fn ranked(idx: &SymbolIndex, g: &Graph, query: &str) -> Vec<(String, f32)> {
        let terms = crate::search::expand_terms(idx, &query_terms(query).unwrap());
        let mut accs = idx.score(&terms, &FIELD_WEIGHTS);
        accs.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
        accs.iter()
            .map(|a| (idx.node(g, a.doc).qualified.clone(), a.score))
            .collect()
    }

    /// A path word for file `f` with no digits (digits would split off as tokens of their own).
    fn letters(f: usize) -> String {
        format!(
            "zz{}{}",
            (b'a' + (f / 26) as u8) as char,
            (b'a' + (f % 26) as u8) as char
        )
    }

    /// `files` files (several tokenising chunks), each declaring `handlerN` documented as `topicN`.
    fn many_files(files: usize, renamed: Option<usize>) -> Graph {
        many_files_calling(files, renamed, &[])
    }

    /// `files` files of one function each; `calls` adds (caller file, callee file) call edges.
    fn many_files_calling(files: usize, renamed: Option<usize>, calls: &[(usize, usize)]) -> Graph {
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        for f in 0..files {
            let path = format!("src/{}.ts", letters(f));
            let file = nodes.len() as NodeIndex;
            nodes.push(node(&path, NodeKind::File, &path, None));
            let name = if renamed == Some(f) {
                format!("renamed{f}")
            } else {
                format!("handler{f}")
            };
            nodes.push(node(
                &path,
                NodeKind::Function,
                &name,
                Some(&format!("Handles topic{f}.")),
            ));
            edges.push(Edge {
                from: file,
                to: file + 1,
                kind: EdgeKind::Defines,
                origin: Origin::AstResolved,
                line: 1,
                via: None,
            });
        }
        for &(from, to) in calls {
            edges.push(Edge {
                from: 2 * from as NodeIndex + 1,
                to: 2 * to as NodeIndex + 1,
                kind: EdgeKind::Calls,
                origin: Origin::AstResolved,
                line: 2,
                via: None,
            });
        }
        Graph::assemble("r".into(), nodes, edges, Vec::new())
    }

    /// Files `src/<letters>.ts`, each with the given (name, doc) symbols.
    fn files_with(symbols: &[Vec<(String, String)>]) -> Graph {
        files_at(symbols, None)
    }

    /// [`files_with`], file `renamed.0` at path `renamed.1` instead.
    fn files_at(symbols: &[Vec<(String, String)>], renamed: Option<(usize, &str)>) -> Graph {
        let mut nodes = Vec::new();
        for (f, syms) in symbols.iter().enumerate() {
            let path = match renamed {
                Some((r, path)) if r == f => path.to_string(),
                _ => format!("src/{}.ts", letters(f)),
            };
            nodes.push(node(&path, NodeKind::File, &path, None));
            for (name, doc) in syms {
                nodes.push(node(&path, NodeKind::Function, name, Some(doc)));
            }
        }
        Graph::assemble("r".into(), nodes, Vec::new(), Vec::new())
    }

    #[test]
    fn symbols_added_and_removed_patch_the_text_tables() {
        let mut files: Vec<Vec<(String, String)>> = (0..200)
            .map(|f| vec![(format!("handler{f}"), format!("Handles topic{f}."))])
            .collect();
        let mut cache = TokenCache::default();
        SymbolIndex::build_reusing(&files_with(&files), &mut cache);
        // A file gains two symbols: one with words no file had, one with known words.
        files[40].push(("brandNewThing".into(), "Quite unheard of.".into()));
        files[40].push(("handler7".into(), "Handles topic7 again.".into()));
        // Another's only symbol is replaced: its words leave the vocabulary. (A file left with
        // no symbols leaves the doc layout: that build merges.)
        files[80] = vec![("other80".into(), "Something else.".into())];
        for step in 0..2 {
            let g = files_with(&files);
            let patched = SymbolIndex::build_reusing(&g, &mut cache);
            assert_eq!(cache.text_build(), TextBuild::Patched, "step {step}");
            assert_eq!(patched, SymbolIndex::build(&g), "step {step}");
            // Then back: the new words go, the old ones return.
            files[40].truncate(1);
            files[80] = vec![("handler80".into(), "Handles topic80.".into())];
        }
        let g = files_with(&files);
        let top = ranked(&SymbolIndex::build_reusing(&g, &mut cache), &g, "topic80");
        assert_eq!(top.first().map(|(q, _)| q.as_str()), Some("handler80"));
        // A file moved to another path (same place in the order, same count): its path tokens
        // go and others come; the chunks around it are patched in.
        let moved = files_at(&files, Some((40, "src/bbmoved.ts")));
        let patched = SymbolIndex::build_reusing(&moved, &mut cache);
        assert_eq!(cache.text_build(), TextBuild::Patched);
        assert_eq!(patched, SymbolIndex::build(&moved));
        // A file left with no symbols leaves the doc layout, and comes back.
        let mut emptied = files.clone();
        emptied[120].clear();
        for files in [&emptied, &files] {
            let g = files_with(files);
            let patched = SymbolIndex::build_reusing(&g, &mut cache);
            assert_eq!(cache.text_build(), TextBuild::Patched);
            assert_eq!(patched, SymbolIndex::build(&g));
        }
    }

    #[test]
    fn a_qualified_name_that_keeps_name_and_owner_still_changes_the_exact_tables() {
        let graph = |qualified: &str| {
            let mut method = node("src/a.ts", NodeKind::Method, qualified, None);
            method.name = "b".into();
            let file = node("src/a.ts", NodeKind::File, "src/a.ts", None);
            Graph::assemble("r".into(), vec![file, method], Vec::new(), Vec::new())
        };
        let mut cache = TokenCache::default();
        SymbolIndex::build_reusing(&graph("A.b"), &mut cache);
        let g = graph("Ab");
        assert_eq!(SymbolIndex::build_reusing(&g, &mut cache), SymbolIndex::build(&g));
    }

    /// One function per path, named after it.
    fn files_named(paths: &[String]) -> Graph {
        let mut nodes = Vec::new();
        for path in paths {
            let stem = path.trim_start_matches("src/").trim_end_matches(".ts");
            nodes.push(node(path, NodeKind::File, path, None));
            nodes.push(node(
                path,
                NodeKind::Function,
                &format!("handle{stem}"),
                Some("Handles a topic."),
            ));
        }
        Graph::assemble("r".into(), nodes, Vec::new(), Vec::new())
    }

    #[test]
    fn chunks_follow_paths_so_a_file_added_re_tokenises_only_its_own() {
        let mut paths: Vec<String> = (0..600).map(|f| format!("src/{}.ts", letters(f))).collect();
        let mut cache = TokenCache::default();
        SymbolIndex::build_reusing(&files_named(&paths), &mut cache);
        let (_, chunks) = cache.chunks_tokenised();
        assert!(chunks > 10, "600 files make many chunks, not {chunks}");
        // A file in the middle of the order: every other chunk's files are where they were in
        // the order of paths, so only the chunk that gains it is tokenised again (by position,
        // every chunk after it would hold other files).
        paths.insert(300, "src/zzmmadded.ts".into());
        let added = files_named(&paths);
        let built = SymbolIndex::build_reusing(&added, &mut cache);
        assert_eq!(built, SymbolIndex::build(&added));
        assert_eq!(cache.text_build(), TextBuild::Patched);
        let (tokenised, total) = cache.chunks_tokenised();
        assert!(tokenised <= 2, "{tokenised} of {total} chunks tokenised again");
        // Files at the start and the end, several at once, and one deleted: still a patch.
        paths.insert(0, "src/aaafirst.ts".into());
        paths.push("src/zzzzlast.ts".into());
        paths.remove(450);
        paths.insert(100, "src/zzccmore.ts".into());
        let more = files_named(&paths);
        assert_eq!(SymbolIndex::build_reusing(&more, &mut cache), SymbolIndex::build(&more));
        assert_eq!(cache.text_build(), TextBuild::Patched);
        let found = ranked(&SymbolIndex::build_reusing(&more, &mut cache), &more, "handlezzccmore");
        assert_eq!(found.first().map(|(q, _)| q.as_str()), Some("handlezzccmore"));
        // A file declaring many symbols is a chunk of its own.
        let mut nodes = Vec::new();
        for path in ["src/a.ts", "src/big.ts", "src/c.ts"] {
            nodes.push(node(path, NodeKind::File, path, None));
            let n = if path == "src/big.ts" {
                BIG_FILE_DOCS as usize
            } else {
                1
            };
            nodes.extend((0..n).map(|i| node(path, NodeKind::Function, &format!("f{i}"), None)));
        }
        let g = Graph::assemble("r".into(), nodes, Vec::new(), Vec::new());
        let layout = layout_from_nodes(&g);
        let ranges = chunk_ranges(&layout.path_hash, &layout.file_doc_off);
        assert!(ranges.contains(&(1, 2)), "{ranges:?}");
    }

    #[test]
    fn every_chunk_maps_its_docs_and_paths_to_their_own_nodes() {
        let g = many_files(100, None);
        let idx = SymbolIndex::build(&g);
        for f in [0usize, 17, 50, 99] {
            let top = ranked(&idx, &g, &format!("topic{f}"));
            assert_eq!(
                top.first().map(|(q, _)| q.as_str()),
                Some(format!("handler{f}").as_str()),
                "topic{f}"
            );
            let by_path = ranked(&idx, &g, &letters(f));
            assert_eq!(
                by_path.first().map(|(q, _)| q.as_str()),
                Some(format!("handler{f}").as_str()),
                "{}",
                letters(f)
            );
        }
    }

    #[test]
    fn reused_tokens_give_the_index_a_fresh_build_gives() {
        let mut cache = TokenCache::default();
        let before = SymbolIndex::build_reusing(&many_files(100, None), &mut cache);
        assert_eq!(before, SymbolIndex::build(&many_files(100, None)));
        // One file of a middle chunk changes: its chunk is tokenised again, the rest reused,
        // and the last text tables are patched (a token gone, a token new).
        let edited = many_files(100, Some(60));
        let reused = SymbolIndex::build_reusing(&edited, &mut cache);
        assert_eq!(cache.text_build(), TextBuild::Patched);
        assert_eq!(reused, SymbolIndex::build(&edited));
        assert_eq!(
            ranked(&reused, &edited, "renamed60").first().map(|(q, _)| q.as_str()),
            Some("renamed60")
        );
        // A few files fewer: the last chunk or two go, patched; many fewer: merged. Either way
        // the result is the fresh one.
        for (files, build) in [(95, TextBuild::Patched), (30, TextBuild::Merged)] {
            let fewer = many_files(files, None);
            assert_eq!(
                SymbolIndex::build_reusing(&fewer, &mut cache),
                SymbolIndex::build(&fewer)
            );
            assert_eq!(cache.text_build(), build, "{files} files");
        }
        // Most files new: merged, not patched.
        let renamed: Vec<String> = (0..70).map(|f| format!("lib/{}.ts", letters(f))).collect();
        let g = files_named(&renamed);
        assert_eq!(SymbolIndex::build_reusing(&g, &mut cache), SymbolIndex::build(&g));
        assert_eq!(cache.text_build(), TextBuild::Merged);
    }

    #[test]
    fn unchanged_text_shares_the_text_tables_and_recounts_usage() {
        let mut cache = TokenCache::default();
        let before = SymbolIndex::build_reusing(&many_files(100, None), &mut cache);
        // Same symbols, same text, new calls (a body edit): text tables shared, fan-in recounted.
        let calling = many_files_calling(100, None, &[(1, 7), (2, 7), (3, 7)]);
        let after = SymbolIndex::build_reusing(&calling, &mut cache);
        assert!(Arc::ptr_eq(&before.text, &after.text));
        assert_eq!(cache.text_build(), TextBuild::Shared);
        assert_eq!(after, SymbolIndex::build(&calling));
        let handler7 = doc_of(&after, &calling, &format!("r/src/{}.ts::handler7", letters(7)));
        assert_eq!(after.fan_in[handler7 as usize], 3);
        let handler8 = doc_of(&after, &calling, &format!("r/src/{}.ts::handler8", letters(8)));
        assert!(after.prior[handler7 as usize] > after.prior[handler8 as usize]);
        // A renamed symbol is new text: the tables are merged again.
        let renamed = many_files_calling(100, Some(60), &[(1, 7)]);
        let merged = SymbolIndex::build_reusing(&renamed, &mut cache);
        assert!(!Arc::ptr_eq(&after.text, &merged.text));
        assert_eq!(merged, SymbolIndex::build(&renamed));
    }

    #[test]
    fn path_field_drops_only_the_last_extension() {
        assert_eq!(path_field("src/a.ts"), "src/a");
        assert_eq!(path_field("ts/test/userService.test.ts"), "ts/test/userService.test");
        assert_eq!(path_field("lib/x.d.ts"), "lib/x.d");
        assert_eq!(path_field("Makefile"), "Makefile");
        assert_eq!(path_field("conf/.eslintrc"), "conf/.eslintrc");
        assert_eq!(path_field("v1.2/run"), "v1.2/run");
    }

    #[test]
    fn only_declared_symbols_are_indexed() {
        let g = small_graph();
        let idx = SymbolIndex::build(&g);
        assert_eq!(idx.len(), 6, "files and the external stub are left out");
        assert!(idx.token_id("http").is_some());
        assert!(idx.token_id("src").is_some(), "path tokens are in the vocabulary");
        assert!(idx.memory_bytes() > 0);
        let send = doc_of(&idx, &g, "r/src/b.ts::send");
        assert_eq!(idx.fan_in[send as usize], 0);
        assert_eq!(idx.fan_out[send as usize], 2);
        let parse = doc_of(&idx, &g, "r/src/a.ts::parseHttpResponse");
        assert_eq!(idx.fan_in[parse as usize], 2, "the self-call does not count");
        assert_eq!(idx.max_fan_in, 2);
    }

    #[test]
    fn fields_are_counted_separately() {
        let g = small_graph();
        let idx = SymbolIndex::build(&g);
        let parse = doc_of(&idx, &g, "r/src/a.ts::parseHttpResponse");
        // name, owner, signature, doc
        assert_eq!(idx.field_tf("http", parse), Some([1, 0, 0, 1]));
        let send = doc_of(&idx, &g, "r/src/a.ts::HttpClient.send");
        assert_eq!(idx.field_tf("http", send), Some([0, 1, 0, 0]));
        assert_eq!(idx.field_tf("send", send), Some([1, 0, 0, 0]));
        assert_eq!(
            idx.text.df[idx.token_id("src").unwrap() as usize],
            6,
            "path tokens count every symbol once"
        );
        assert_eq!(idx.text.df[idx.token_id("http").unwrap() as usize], 3);
    }

    #[test]
    fn prefix_ranges_and_expansions() {
        let g = small_graph();
        let idx = SymbolIndex::build(&g);
        let names = |r: std::ops::Range<u32>| r.map(|i| idx.token(i).to_string()).collect::<Vec<_>>();
        assert_eq!(names(idx.prefix_range("res")), ["response"]);
        assert_eq!(names(idx.prefix_range("re")), ["request", "requests", "response"]);
        assert!(idx.prefix_range("zzz").is_empty());
        let t = idx.expand("request", true);
        assert_eq!(t.expansions.len(), 2);
        assert_eq!(t.expansions[0].weight, EXACT_WEIGHT);
        assert!(t.expansions[1].weight < EXACT_WEIGHT && t.expansions[1].weight > 0.5);
        // No prefix match: one transposition away.
        let t = idx.expand("respnose", true);
        assert_eq!(
            t.expansions.iter().map(|e| idx.token(e.token)).collect::<Vec<_>>(),
            ["response"]
        );
        assert!(idx.expand("qqqq", true).expansions.is_empty());
        // Without prefix matching only the token itself (or fuzzy matches when it is absent).
        let t = idx.expand("request", false);
        assert_eq!(t.expansions.len(), 1);
        assert_eq!(idx.token(t.expansions[0].token), "request");
    }

    #[test]
    fn bm25_prefers_name_matches_and_rare_terms() {
        let g = small_graph();
        let idx = SymbolIndex::build(&g);
        let r = ranked(&idx, &g, "http response");
        assert_eq!(r[0].0, "parseHttpResponse", "{r:?}");
        // `send`: the method named send (owner HttpClient) beats the doc-only mention.
        let r = ranked(&idx, &g, "send");
        assert_eq!(r[0].0, "HttpClient.send", "{r:?}");
        assert!(r.iter().any(|(q, _)| q == "send"));
        // Words only in docs are found.
        let r = ranked(&idx, &g, "waits");
        assert_eq!(r.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["send"]);
        // A repeated query is identical (the scratch slots are reset).
        assert_eq!(ranked(&idx, &g, "http response"), ranked(&idx, &g, "http response"));
    }

    #[test]
    fn exact_lookup_by_name_and_qualified_name() {
        let g = small_graph();
        let idx = SymbolIndex::build(&g);
        let q = |s: &str| {
            let (a, b) = idx.exact(&g, s);
            let f = |v: Vec<u32>| {
                v.into_iter()
                    .map(|d| idx.node(&g, d).id.to_string())
                    .collect::<Vec<_>>()
            };
            (f(a), f(b))
        };
        assert_eq!(q("send").0, ["r/src/a.ts::HttpClient.send", "r/src/b.ts::send"]);
        assert_eq!(q("httpclient"), (vec![], vec!["r/src/a.ts::HttpClient".to_string()]));
        assert_eq!(q("HttpClient.send").0, ["r/src/a.ts::HttpClient.send"]);
        assert_eq!(q("nothing"), (vec![], vec![]));
    }
}
