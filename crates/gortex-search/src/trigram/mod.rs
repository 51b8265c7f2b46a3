//! The trigram text index behind `search_text` and `find_declaration`.
//!
//! Documents are files (repository-relative path + content). Every 3-byte window of a file,
//! ASCII-lowercased and packed into a `u32`, maps to the sorted list of documents containing it
//! (delta + LEB128 varint bytes, so a posting costs about one byte per document). Queries turn
//! into a [`TrigramQuery`] (AND/OR of trigrams), the postings narrow the candidate files, and the
//! caller verifies candidates on the real bytes — so case-sensitive and case-insensitive searches
//! share the one lowercased index.
//!
//! Memory is bounded by a budget (default 256 MiB), spent in this order:
//! 1. document metadata (paths, stamps) — always kept, every listed file needs it;
//! 2. postings — the index itself; when adding a file's postings would pass the budget the file
//!    stays *unindexed* until it changes (always a candidate, verified by scanning), so results
//!    stay exact and only speed degrades;
//! 3. file contents — kept in memory while they fit, largest files evicted first; an evicted
//!    file is re-read from disk when a query needs to verify it (the OS page cache makes that a
//!    memory copy, and mmap would cost more than a read for the typical small source file).
//!
//! Not counted: each indexing thread's 2 MiB scratch bit set (one bit per possible trigram), and
//! transient per-sync buffers (at most ~32 MiB of file content per batch plus its trigram lists).
//!
//! Updates are incremental: a changed or removed file's old document is tombstoned (its slot
//! dies, postings keep the dead id until a compaction drops it) and a changed or new file gets
//! a fresh, larger id, so postings stay sorted by appending. When a quarter of the slots are
//! dead, postings are rewritten without them.

mod postings;
mod query;

use postings::*;
pub use postings::{decode_postings, encode_postings};
pub use query::TrigramQuery;

use gortex_core::{Probe, Sources};
use memchr::memchr;
use rayon::prelude::*;
use regex_syntax::hir::{Class, Hir, HirKind, Visitor};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::borrow::Cow;
use std::cell::RefCell;
use std::path::{Component, Path};
use std::sync::Arc;

/// Default memory budget of a [`TextIndex`]: 256 MiB.
pub const DEFAULT_BUDGET_BYTES: usize = 256 << 20;
/// Files larger than this are not indexed (4 MiB).
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// A NUL byte within this many leading bytes marks a file as binary.
pub const BINARY_SNIFF_BYTES: usize = 8 << 10;

/// Index of a document inside a [`TextIndex`].
pub type DocId = u32;

const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;
/// Bytes of file content read per batch during a sync (bounds the transient memory).
const BATCH_BYTES: u64 = 32 << 20;
/// Files per batch during a sync.
const BATCH_FILES: usize = 4096;
/// Largest exact-string set the regex planner carries before falling back to required trigrams.
const MAX_EXACT_SET: usize = 16;
/// Largest character class the regex planner expands into alternatives.
const MAX_CLASS_EXPANSION: u32 = 8;
/// Bytes a hash-map entry costs beyond its key and value (hashbrown control byte).
const MAP_CONTROL_BYTES: usize = 1;
/// Bookkeeping an `Arc<str>` allocation carries besides its text (two reference counts).
const ARC_HEADER_BYTES: usize = 16;

/// Packs three bytes (ASCII-lowercased) into a trigram key.
pub fn pack(a: u8, b: u8, c: u8) -> u32 {
    (u32::from(a.to_ascii_lowercase()) << 16)
        | (u32::from(b.to_ascii_lowercase()) << 8)
        | u32::from(c.to_ascii_lowercase())
}

/// The three bytes of a trigram as text (`\xHH` for bytes that are not printable ASCII).
pub fn trigram_text(t: u32) -> String {
    let mut out = String::new();
    for shift in [16, 8, 0] {
        let b = (t >> shift) as u8;
        if b.is_ascii_graphic() || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// The distinct trigrams of a byte string (ASCII-lowercased), sorted.
pub fn trigrams(bytes: &[u8]) -> Vec<u32> {
    let mut out: Vec<u32> = bytes.windows(3).map(|w| pack(w[0], w[1], w[2])).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn shard_of(t: u32) -> usize {
    (t.wrapping_mul(0x9E37_79B1) >> (32 - SHARD_BITS)) as usize
}

thread_local! {
    /// One bit per possible trigram (2 MiB per thread), cleared after every file.
    static SEEN: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The distinct trigrams of a file's content, grouped by shard (shard order, then value).
fn file_trigrams(content: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    if content.len() < 3 {
        return out;
    }
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.is_empty() {
            seen.resize(1 << 18, 0);
        }
        let mut t = (u32::from(content[0].to_ascii_lowercase()) << 8) | u32::from(content[1].to_ascii_lowercase());
        for &b in &content[2..] {
            t = ((t << 8) | u32::from(b.to_ascii_lowercase())) & 0x00FF_FFFF;
            let (word, bit) = ((t >> 6) as usize, 1u64 << (t & 63));
            if seen[word] & bit == 0 {
                seen[word] |= bit;
                out.push(t);
            }
        }
        for &t in &out {
            seen[(t >> 6) as usize] = 0;
        }
    });
    out.sort_unstable_by_key(|&t| (shard_of(t), t));
    out
}

// ---------------------------------------------------------------------------------------------
// The index.

/// Why a listed file is not in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextSkipReason {
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// A directory, symlink, FIFO or device (never opened).
    NotRegularFile,
    /// The file is gone.
    Missing,
    /// Reading failed (permissions, I/O error).
    Unreadable,
    /// Absolute, empty or escaping the root (`..`).
    InvalidPath,
}

/// A listed file the sync did not index, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextSkip {
    /// The path as listed.
    pub path: String,
    pub reason: TextSkipReason,
    /// What was found (size, NUL offset, the I/O error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What one [`TextIndex::sync`] did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SyncStats {
    /// Files indexed for the first time.
    pub added: usize,
    /// Files re-read because their stamp changed.
    pub updated: usize,
    /// Files dropped: no longer listed, or re-read and found unusable.
    pub removed: usize,
    /// Files whose stamp did not change (including ones excluded earlier as binary/too large).
    pub unchanged: usize,
    /// Files examined in this sync and not indexed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<TextSkip>,
    /// Bytes read from disk.
    pub bytes_read: u64,
    /// Files added without postings because the memory budget was full (scanned on every query).
    pub unindexed: usize,
    /// Whether dead documents were purged from the postings.
    pub compacted: bool,
}

/// Sizes behind [`TextIndex::memory_bytes`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TextIndexStats {
    /// Live documents.
    pub docs: usize,
    /// Live documents without postings (budget full); always candidates.
    pub unindexed_docs: usize,
    /// Live documents whose content is held in memory.
    pub resident_docs: usize,
    /// Bytes of content held in memory.
    pub resident_bytes: usize,
    /// Tombstoned slots still referenced by postings.
    pub dead_docs: usize,
    /// Distinct trigrams with a posting.
    pub trigrams: usize,
    /// Postings and their hash tables, by capacity.
    pub postings_bytes: usize,
    /// Everything: [`TextIndex::memory_bytes`].
    pub memory_bytes: usize,
    /// The budget the index keeps to (metadata alone may exceed a tiny one).
    pub budget_bytes: usize,
}

#[derive(Debug)]
struct Doc {
    path: Arc<str>,
    stamp: u64,
    len: usize,
    indexed: bool,
    content: Option<Box<[u8]>>,
}

/// A trigram index over one repository's text files, bounded by a memory budget.
#[derive(Debug)]
pub struct TextIndex {
    budget: usize,
    sources: Option<Sources>,
    docs: Vec<Option<Doc>>,
    by_path: FxHashMap<Arc<str>, DocId>,
    /// Files excluded as binary or too large, with the stamp they had (not re-read until it changes).
    excluded: FxHashMap<Arc<str>, (u64, TextSkipReason)>,
    shards: Vec<Shard>,
    /// Doc ids without postings (may include dead ids until the next compaction).
    unindexed: Vec<DocId>,
    /// Live doc ids in path order.
    order: Vec<DocId>,
    /// Position of each doc id in `order` (`u32::MAX` for dead ids).
    rank: Vec<u32>,
    live: usize,
    dead: usize,
    path_bytes: usize,
    resident_bytes: usize,
    /// During a sync: metadata bytes the files not yet processed will need (so postings added
    /// early leave room for them).
    reserved_meta: usize,
}

/// Why a file was not read: the reason and a detail for the report.
type SkipWhy = (TextSkipReason, String);
/// A listed file's size, or why it will not be read.
type Probed = Result<u64, SkipWhy>;
/// A listed file's content and trigrams, or why it was not indexed.
type Loading = Result<Loaded, SkipWhy>;

/// A file read for indexing.
struct Loaded {
    content: Vec<u8>,
    trigrams: Vec<u32>,
}

struct Work<'a> {
    path: &'a str,
    stamp: u64,
    old: Option<DocId>,
}

impl TextIndex {
    /// An empty index that keeps its memory use within `budget_bytes`.
    pub fn new(budget_bytes: usize) -> TextIndex {
        TextIndex {
            budget: budget_bytes,
            sources: None,
            docs: Vec::new(),
            by_path: FxHashMap::default(),
            excluded: FxHashMap::default(),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            unindexed: Vec::new(),
            order: Vec::new(),
            rank: Vec::new(),
            live: 0,
            dead: 0,
            path_bytes: 0,
            resident_bytes: 0,
            reserved_meta: 0,
        }
    }

    /// The memory budget given to [`TextIndex::new`].
    pub fn budget_bytes(&self) -> usize {
        self.budget
    }

    /// Number of indexed (live) documents.
    pub fn doc_count(&self) -> usize {
        self.live
    }

    /// The root the last sync read from.
    pub fn root(&self) -> Option<&Path> {
        self.sources.as_ref().map(Sources::root)
    }

    /// Bytes held: postings (by capacity), hash tables, paths, metadata and resident contents.
    pub fn memory_bytes(&self) -> usize {
        self.meta_bytes() + self.postings_bytes() + self.resident_bytes
    }

    /// Sizes and counts of the index.
    pub fn stats(&self) -> TextIndexStats {
        let live_docs = || self.docs.iter().flatten();
        TextIndexStats {
            docs: self.live,
            unindexed_docs: live_docs().filter(|d| !d.indexed).count(),
            resident_docs: live_docs().filter(|d| d.content.is_some()).count(),
            resident_bytes: self.resident_bytes,
            dead_docs: self.dead,
            trigrams: self.shards.iter().map(|s| s.map.len()).sum(),
            postings_bytes: self.postings_bytes(),
            memory_bytes: self.memory_bytes(),
            budget_bytes: self.budget,
        }
    }

    /// Everything but resident contents, plus metadata the running sync still needs.
    fn fixed_bytes(&self) -> usize {
        self.meta_bytes() + self.postings_bytes() + self.reserved_meta
    }

    fn postings_bytes(&self) -> usize {
        self.shards.iter().map(Shard::bytes).sum()
    }

    fn meta_bytes(&self) -> usize {
        std::mem::size_of::<TextIndex>()
            + self.docs.capacity() * std::mem::size_of::<Option<Doc>>()
            + self.by_path.capacity() * (std::mem::size_of::<(Arc<str>, DocId)>() + MAP_CONTROL_BYTES)
            + self.excluded.capacity() * (std::mem::size_of::<(Arc<str>, (u64, TextSkipReason))>() + MAP_CONTROL_BYTES)
            + self.path_bytes
            + (self.unindexed.capacity() + self.order.capacity() + self.rank.capacity()) * 4
            + self.shards.capacity() * std::mem::size_of::<Shard>()
    }

    fn clear(&mut self) {
        *self = TextIndex::new(self.budget);
    }

    /// Brings the index in line with `files` (repository-relative path, content hash or mtime
    /// stamp): adds new files, re-reads files whose stamp changed, drops files no longer listed.
    /// Files are read in parallel; a file that vanished or cannot be read is skipped and
    /// reported. Another root than the previous sync's starts from scratch.
    pub fn sync(&mut self, sources: impl Into<Sources>, files: &[(String, u64)]) -> SyncStats {
        let sources = &sources.into();
        let mut stats = SyncStats::default();
        // Entries are stamped by content hash, so only another root invalidates them; a new
        // overlay over the same root re-reads just the files whose stamp it changed.
        if self.root() != Some(sources.root()) {
            self.clear();
        }
        self.sources = Some(sources.clone());
        let mut wanted: FxHashMap<&str, u64> = FxHashMap::default();
        for (path, stamp) in files {
            if valid_relative(path) {
                wanted.insert(path.as_str(), *stamp);
            } else {
                stats.skipped.push(TextSkip {
                    path: path.clone(),
                    reason: TextSkipReason::InvalidPath,
                    detail: Some("paths must be relative, non-empty and stay under the root".into()),
                });
            }
        }

        let mut gone: Vec<DocId> = self
            .by_path
            .iter()
            .filter(|(p, _)| !wanted.contains_key(&***p))
            .map(|(_, &id)| id)
            .collect();
        gone.sort_unstable();
        stats.removed += gone.len();
        for id in gone {
            self.kill(id);
        }
        let mut freed = 0;
        self.excluded.retain(|p, _| {
            let keep = wanted.contains_key(&**p);
            if !keep {
                freed += p.len() + ARC_HEADER_BYTES;
            }
            keep
        });
        self.path_bytes -= freed;

        let mut work: Vec<Work<'_>> = Vec::new();
        for (&path, &stamp) in &wanted {
            let old = self.by_path.get(path).copied();
            let unchanged = match old {
                Some(id) => self.docs[id as usize].as_ref().is_some_and(|d| d.stamp == stamp),
                None => self.excluded.get(path).is_some_and(|e| e.0 == stamp),
            };
            if unchanged {
                stats.unchanged += 1;
            } else {
                work.push(Work { path, stamp, old });
            }
        }
        work.sort_unstable_by(|a, b| a.path.cmp(b.path));
        self.docs.reserve(work.len());
        self.by_path.reserve(work.iter().filter(|w| w.old.is_none()).count());
        self.reserved_meta = work.iter().map(|w| reserve_for(w.path)).sum();

        let sizes: Vec<Probed> = work.par_iter().map(|w| probe(sources, w.path)).collect();

        let mut full = false;
        let mut batch: Vec<(&Work<'_>, Probed)> = Vec::new();
        let mut batch_bytes = 0u64;
        for (w, size) in work.iter().zip(sizes) {
            if let Ok(n) = size {
                batch_bytes += n;
            }
            batch.push((w, size));
            if batch_bytes >= BATCH_BYTES || batch.len() >= BATCH_FILES {
                self.process_batch(sources, std::mem::take(&mut batch), &mut full, &mut stats);
                batch_bytes = 0;
            }
        }
        if !batch.is_empty() {
            self.process_batch(sources, batch, &mut full, &mut stats);
        }

        if self.dead > 0 && self.dead * 4 >= self.docs.len() {
            self.compact();
            stats.compacted = true;
        }
        self.reserved_meta = 0;
        self.shards.par_iter_mut().for_each(Shard::trim_all);
        if stats.added + stats.updated + stats.removed > 0 || self.order.len() != self.live {
            self.rebuild_order();
        }
        self.enforce_budget();
        stats
    }

    fn process_batch(
        &mut self,
        sources: &Sources,
        batch: Vec<(&Work<'_>, Probed)>,
        full: &mut bool,
        stats: &mut SyncStats,
    ) {
        let loaded: Vec<Loading> = batch
            .par_iter()
            .map(|(w, size)| match size {
                Ok(_) => load(sources, w.path),
                Err(e) => Err(e.clone()),
            })
            .collect();
        let mut fresh: Vec<(DocId, Vec<u32>)> = Vec::new();
        for ((w, _), result) in batch.iter().zip(loaded) {
            // The path is accounted from here on; the index slots only exist after the sync.
            self.reserved_meta -= w.path.len() + ARC_HEADER_BYTES;
            if let Some(old) = w.old {
                self.kill(old);
            }
            if let Some((key, _)) = self.excluded.remove_entry(w.path) {
                self.path_bytes -= key.len() + ARC_HEADER_BYTES;
            }
            match result {
                Ok(file) => {
                    stats.bytes_read += file.content.len() as u64;
                    if w.old.is_some() {
                        stats.updated += 1;
                    } else {
                        stats.added += 1;
                    }
                    let id = self.push_doc(w.path, w.stamp, file.content);
                    fresh.push((id, file.trigrams));
                }
                Err((reason, detail)) => {
                    if w.old.is_some() {
                        stats.removed += 1;
                    }
                    if matches!(reason, TextSkipReason::Binary | TextSkipReason::TooLarge) {
                        let key: Arc<str> = Arc::from(w.path);
                        self.path_bytes += key.len() + ARC_HEADER_BYTES;
                        self.excluded.insert(key, (w.stamp, reason));
                    }
                    stats.skipped.push(TextSkip {
                        path: w.path.to_string(),
                        reason,
                        detail: Some(detail),
                    });
                }
            }
        }
        let unindexed = self.index_docs(&fresh, full);
        stats.unindexed += unindexed;
        self.enforce_budget();
    }

    /// Adds the postings of freshly pushed documents while the budget allows; returns how many
    /// stayed unindexed.
    fn index_docs(&mut self, fresh: &[(DocId, Vec<u32>)], full: &mut bool) -> usize {
        if fresh.is_empty() {
            return 0;
        }
        if !*full {
            let docs: Vec<(DocId, &[u32])> = fresh.iter().map(|(id, t)| (*id, t.as_slice())).collect();
            let undo: Vec<Vec<Undo>> = self
                .shards
                .par_iter_mut()
                .enumerate()
                .map(|(i, shard)| {
                    let mut undo = Vec::new();
                    shard.append(i, &docs, &mut undo);
                    undo
                })
                .collect();
            // Spare capacity is trimmed once per sync, or here when it decides the budget
            // (trimming after every batch would reallocate the big postings again and again).
            if self.fixed_bytes() > self.budget {
                self.shards
                    .par_iter_mut()
                    .zip(undo.par_iter())
                    .for_each(|(shard, undo)| shard.trim(undo));
            }
            if self.fixed_bytes() <= self.budget {
                for (id, _) in fresh {
                    self.mark_indexed(*id);
                }
                return 0;
            }
            self.shards
                .par_iter_mut()
                .zip(undo.par_iter())
                .for_each(|(shard, undo)| shard.rollback(undo));
            // Near the budget: add one document at a time and stop at the first that does not fit.
            for (id, tris) in fresh {
                let mut undo: Vec<Vec<Undo>> = Vec::with_capacity(SHARDS);
                for (i, shard) in self.shards.iter_mut().enumerate() {
                    let mut u = Vec::new();
                    shard.append(i, &[(*id, tris.as_slice())], &mut u);
                    shard.trim(&u);
                    undo.push(u);
                }
                if self.fixed_bytes() > self.budget {
                    for (shard, u) in self.shards.iter_mut().zip(&undo) {
                        shard.rollback(u);
                    }
                    *full = true;
                    break;
                }
                self.mark_indexed(*id);
            }
        }
        let mut count = 0;
        for (id, _) in fresh {
            if self.docs[*id as usize].as_ref().is_some_and(|d| !d.indexed) {
                self.unindexed.push(*id);
                count += 1;
            }
        }
        count
    }

    fn mark_indexed(&mut self, id: DocId) {
        if let Some(d) = self.docs[id as usize].as_mut() {
            d.indexed = true;
        }
    }

    fn push_doc(&mut self, path: &str, stamp: u64, content: Vec<u8>) -> DocId {
        let id = self.docs.len() as DocId;
        let path: Arc<str> = Arc::from(path);
        self.path_bytes += path.len() + ARC_HEADER_BYTES;
        self.resident_bytes += content.len();
        self.by_path.insert(path.clone(), id);
        self.docs.push(Some(Doc {
            path,
            stamp,
            len: content.len(),
            indexed: false,
            content: Some(content.into()),
        }));
        self.live += 1;
        id
    }

    fn kill(&mut self, id: DocId) {
        if let Some(doc) = self.docs[id as usize].take() {
            self.by_path.remove(&doc.path);
            self.path_bytes -= doc.path.len() + ARC_HEADER_BYTES;
            if let Some(c) = &doc.content {
                self.resident_bytes -= c.len();
            }
            self.live -= 1;
            self.dead += 1;
        }
    }

    /// Drops resident contents, largest first, until the index fits its budget.
    fn enforce_budget(&mut self) {
        let fixed = self.fixed_bytes();
        if fixed + self.resident_bytes <= self.budget {
            return;
        }
        let mut resident: Vec<(usize, DocId)> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.as_ref().filter(|d| d.content.is_some()).map(|d| (d.len, i as DocId)))
            .collect();
        resident.sort_unstable_by(|a, b| b.cmp(a));
        for (len, id) in resident {
            if fixed + self.resident_bytes <= self.budget {
                break;
            }
            if let Some(d) = self.docs[id as usize].as_mut() {
                d.content = None;
                self.resident_bytes -= len;
            }
        }
    }

    /// Renumbers live documents densely and rewrites every posting without dead ids.
    fn compact(&mut self) {
        let mut remap = vec![u32::MAX; self.docs.len()];
        let mut next = 0u32;
        for (i, d) in self.docs.iter().enumerate() {
            if d.is_some() {
                remap[i] = next;
                next += 1;
            }
        }
        self.shards.par_iter_mut().for_each(|shard| {
            let mut heap = 0;
            shard.map.retain(|_, p| {
                let mut fresh = Posting::default();
                for id in p.decode() {
                    let new = remap[id as usize];
                    if new != u32::MAX {
                        fresh.push(new);
                    }
                }
                fresh.data.shrink_to_fit();
                heap += fresh.data.capacity();
                *p = fresh;
                p.count > 0
            });
            shard.map.shrink_to_fit();
            shard.heap = heap;
        });
        let docs = std::mem::take(&mut self.docs);
        self.docs = docs.into_iter().filter(Option::is_some).collect();
        self.by_path.clear();
        for (i, d) in self.docs.iter().enumerate() {
            if let Some(d) = d {
                self.by_path.insert(d.path.clone(), i as DocId);
            }
        }
        self.by_path.shrink_to_fit();
        self.unindexed = self
            .unindexed
            .iter()
            .map(|&id| remap[id as usize])
            .filter(|&id| id != u32::MAX)
            .collect();
        self.dead = 0;
    }

    fn rebuild_order(&mut self) {
        let mut order: Vec<DocId> = Vec::with_capacity(self.live);
        order.extend((0..self.docs.len() as DocId).filter(|&i| self.docs[i as usize].is_some()));
        order.sort_unstable_by(|&a, &b| self.doc_path(a).cmp(self.doc_path(b)));
        let mut rank = vec![u32::MAX; self.docs.len()];
        for (pos, &id) in order.iter().enumerate() {
            rank[id as usize] = pos as u32;
        }
        self.unindexed.retain(|&id| rank[id as usize] != u32::MAX);
        self.order = order;
        self.rank = rank;
        self.order.shrink_to_fit();
        self.unindexed.shrink_to_fit();
    }

    // -----------------------------------------------------------------------------------------
    // Query side (used by `text` and `declaration`).

    /// Path of a live document ("" for dead slots).
    pub(crate) fn doc_path(&self, id: DocId) -> &str {
        self.docs[id as usize].as_ref().map_or("", |d| &d.path)
    }

    /// Content of a live document: from memory, or read from disk when it was evicted.
    pub(crate) fn doc_content(&self, id: DocId) -> std::io::Result<Cow<'_, [u8]>> {
        let doc = self.docs[id as usize]
            .as_ref()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "document removed"))?;
        if let Some(c) = &doc.content {
            return Ok(Cow::Borrowed(c));
        }
        let sources = self
            .sources
            .as_ref()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "index never synchronised"))?;
        let mut buf = sources.read_capped(&doc.path, MAX_FILE_BYTES)?;
        buf.truncate(MAX_FILE_BYTES as usize);
        Ok(Cow::Owned(buf))
    }

    /// Paths of the files that may contain every one of `literals` (a superset: their trigrams,
    /// not their text, are checked), in path order; `None` when no literal is 3 bytes or longer,
    /// so nothing narrows the search.
    pub fn files_maybe_containing(&self, literals: &[String]) -> Option<Vec<String>> {
        let parts: Vec<TrigramQuery> = literals
            .iter()
            .filter(|l| l.len() >= 3)
            .map(|l| TrigramQuery::literal(l.as_bytes()))
            .collect();
        if parts.is_empty() {
            return None;
        }
        let query = TrigramQuery::and(parts);
        Some(
            self.candidates(&query)
                .into_iter()
                .map(|id| self.doc_path(id).to_string())
                .collect(),
        )
    }

    /// Live documents that may satisfy `query`, in path order.
    pub(crate) fn candidates(&self, query: &TrigramQuery) -> Vec<DocId> {
        let mut ids = match self.eval(query) {
            None => return self.order.clone(),
            Some(ids) => ids,
        };
        ids.extend_from_slice(&self.unindexed);
        ids.retain(|&id| self.rank.get(id as usize).is_some_and(|&r| r != u32::MAX));
        ids.sort_unstable_by_key(|&id| self.rank[id as usize]);
        ids.dedup();
        ids
    }

    fn posting(&self, t: u32) -> Option<&Posting> {
        self.shards[shard_of(t)].map.get(&t)
    }

    /// Sorted doc ids satisfying the query among indexed documents; `None` means every document.
    fn eval(&self, query: &TrigramQuery) -> Option<Vec<DocId>> {
        match query {
            TrigramQuery::All => None,
            TrigramQuery::None => Some(Vec::new()),
            TrigramQuery::Tri(t) => Some(self.posting(*t).map(Posting::decode).unwrap_or_default()),
            TrigramQuery::And(items) => {
                let mut postings = Vec::new();
                let mut others = Vec::new();
                for q in items {
                    match q {
                        TrigramQuery::Tri(t) => match self.posting(*t) {
                            Some(p) => postings.push(p),
                            None => return Some(Vec::new()),
                        },
                        q => others.push(q),
                    }
                }
                postings.sort_by_key(|p| p.count);
                let mut acc: Option<Vec<DocId>> = None;
                for p in postings {
                    let next = match acc {
                        None => p.decode(),
                        Some(a) => p.intersect(&a),
                    };
                    if next.is_empty() {
                        return Some(next);
                    }
                    acc = Some(next);
                }
                for q in others {
                    if let Some(ids) = self.eval(q) {
                        acc = Some(match acc {
                            None => ids,
                            Some(a) => intersect_sorted(&a, &ids),
                        });
                    }
                }
                acc
            }
            TrigramQuery::Or(items) => {
                let mut acc: Vec<DocId> = Vec::new();
                for q in items {
                    let ids = self.eval(q)?;
                    acc = union_sorted(&acc, &ids);
                }
                Some(acc)
            }
        }
    }
}

impl Default for TextIndex {
    fn default() -> TextIndex {
        TextIndex::new(DEFAULT_BUDGET_BYTES)
    }
}

/// Metadata a file about to be added will need: its path and its slots in `order`, `rank` and
/// possibly `unindexed`.
fn reserve_for(path: &str) -> usize {
    path.len() + ARC_HEADER_BYTES + 3 * std::mem::size_of::<DocId>()
}

fn intersect_sorted(a: &[DocId], b: &[DocId]) -> Vec<DocId> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

fn union_sorted(a: &[DocId], b: &[DocId]) -> Vec<DocId> {
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            out.push(a[i]);
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
            j += 1;
        }
    }
    out
}

fn valid_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\0')
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Checks a listed file without opening it (opening a FIFO would block).
fn probe(sources: &Sources, rel: &str) -> Probed {
    match sources.probe(rel).map_err(|e| io_skip(&e))? {
        Probe::Other(kind) => Err((TextSkipReason::NotRegularFile, kind)),
        Probe::File(len) if len > MAX_FILE_BYTES => {
            Err((TextSkipReason::TooLarge, format!("{len} bytes (cap {MAX_FILE_BYTES})")))
        }
        Probe::File(len) => Ok(len),
    }
}

fn io_skip(e: &std::io::Error) -> SkipWhy {
    let reason = if e.kind() == std::io::ErrorKind::NotFound {
        TextSkipReason::Missing
    } else {
        TextSkipReason::Unreadable
    };
    (reason, e.to_string())
}

fn load(sources: &Sources, rel: &str) -> Loading {
    let mut content = sources.read_capped(rel, MAX_FILE_BYTES).map_err(|e| io_skip(&e))?;
    if content.len() as u64 > MAX_FILE_BYTES {
        return Err((TextSkipReason::TooLarge, format!("more than {MAX_FILE_BYTES} bytes")));
    }
    let sniff = &content[..content.len().min(BINARY_SNIFF_BYTES)];
    if let Some(at) = memchr(0, sniff) {
        return Err((TextSkipReason::Binary, format!("NUL byte at offset {at}")));
    }
    content.shrink_to_fit();
    let trigrams = file_trigrams(&content);
    Ok(Loaded { content, trigrams })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(pattern: &str) -> String {
        plan_with(pattern, false)
    }

    fn plan_with(pattern: &str, case_insensitive: bool) -> String {
        let hir = regex_syntax::ParserBuilder::new()
            .utf8(false)
            .case_insensitive(case_insensitive)
            .build()
            .parse(pattern)
            .unwrap();
        TrigramQuery::from_hir(&hir).to_string()
    }

    #[test]
    fn trigram_extraction_lowercases_and_deduplicates() {
        let t: Vec<String> = trigrams(b"AbCabc").into_iter().map(trigram_text).collect();
        assert_eq!(t, vec!["abc", "bca", "cab"]);
        assert!(trigrams(b"ab").is_empty());
        assert_eq!(pack(b'X', b'y', b'Z'), pack(b'x', b'Y', b'z'));
        assert_eq!(trigram_text(pack(0, b'a', 0xE9)), "\\x00a\\xE9");
        // Non-ASCII bytes are kept as they are (only ASCII is folded).
        assert_eq!(trigrams("É".as_bytes()).len(), 0);
        assert_eq!(trigrams("aÉ".as_bytes()), vec![pack(b'a', 0xC3, 0x89)]);
    }

    #[test]
    fn file_trigrams_match_the_simple_extraction() {
        let text = b"The quick brown fox; THE QUICK brown FOX\n\tfn main() {}";
        let mut fast = file_trigrams(text);
        // Grouped by shard, each group sorted.
        assert!(fast.windows(2).all(|w| (shard_of(w[0]), w[0]) < (shard_of(w[1]), w[1])));
        fast.sort_unstable();
        assert_eq!(fast, trigrams(text));
        // The per-thread bit set is clean again for the next file.
        assert_eq!(file_trigrams(b"xyz"), vec![pack(b'x', b'y', b'z')]);
        assert!(file_trigrams(b"xy").is_empty());
    }

    #[test]
    fn postings_round_trip() {
        let ids = vec![0, 1, 2, 127, 128, 300, 16_384, 16_385, 2_000_000, u32::MAX - 1];
        let bytes = encode_postings(&ids);
        assert_eq!(decode_postings(&bytes), ids);
        // Small gaps cost one byte each.
        assert_eq!(encode_postings(&[5, 6, 7, 8]).len(), 4);
        assert_eq!(encode_postings(&[200]), vec![0xC8, 0x01]);
        assert!(decode_postings(&[]).is_empty());
        let mut p = Posting::default();
        for &id in &ids {
            p.push(id);
        }
        assert_eq!(p.decode(), ids);
        assert_eq!(p.intersect(&[1, 3, 128, 16_385, u32::MAX]), vec![1, 128, 16_385]);
    }

    #[test]
    fn literal_plans() {
        assert_eq!(TrigramQuery::literal(b"Hello").to_string(), "and(ell hel llo)");
        assert_eq!(TrigramQuery::literal(b"abc").to_string(), "abc");
        assert_eq!(TrigramQuery::literal(b"ab"), TrigramQuery::All);
        assert_eq!(TrigramQuery::literal(b"aaaa").to_string(), "aaa");
    }

    #[test]
    fn regex_plans() {
        assert_eq!(plan("hello"), "and(ell hel llo)");
        assert_eq!(plan("foo|bar"), "or(bar foo)");
        assert_eq!(plan("foo.*bar"), "and(bar foo)");
        // `fo+bar` also matches `fobar`: only the literal run after the repetition is required.
        assert_eq!(plan(r"fo+bar"), "bar");
        assert_eq!(plan("ab(c|d)ef"), "or(and(abc bce cef) and(abd bde def))");
        assert_eq!(plan("colou?r"), "or(and(col lor olo) and(col lou olo our))");
        // Repetitions that may match nothing contribute nothing.
        assert_eq!(plan("x*abc"), "abc");
        assert_eq!(plan("(abc)*def"), "def");
        assert_eq!(plan("(abc)+def"), "and(abc def)");
        // Classes: small ones expand, big ones end a literal run.
        assert_eq!(plan("[0-9]+"), "all");
        assert_eq!(plan(r"\w+_test"), "and(_te est tes)");
        assert_eq!(plan("[bc]at"), "or(bat cat)");
        assert_eq!(plan("x[a-z]yz"), "all");
        // Short alternatives make the whole alternation unusable.
        assert_eq!(plan("abc|de"), "all");
        assert_eq!(plan("ab"), "all");
        assert_eq!(plan("(foo|bar)baz"), "or(and(arb bar baz rba) and(baz foo oba oob))");
        // Anchors and word boundaries are transparent.
        assert_eq!(plan(r"^\bfoo\b"), "foo");
        // A class that matches nothing matches no document.
        assert_eq!(plan(r"abc[^\x00-\x{10FFFF}]"), "none");
    }

    #[test]
    fn regex_plans_case_insensitive() {
        // [Ff][Oo][Oo] lowercases to a single literal.
        assert_eq!(plan_with("Foo", true), "foo");
        assert_eq!(plan("(?i)Foo"), "foo");
        // `k` also folds to the Kelvin sign (U+212A), which the planner keeps as an alternative.
        assert_eq!(
            plan_with("kab", true),
            "or(kab and(\\x84\\xAAa \\xAAab \\xE2\\x84\\xAA))"
        );
    }

    #[test]
    fn plan_combinators_simplify() {
        let t = |s: &[u8]| TrigramQuery::Tri(pack(s[0], s[1], s[2]));
        assert_eq!(TrigramQuery::and(vec![TrigramQuery::All, t(b"abc")]), t(b"abc"));
        assert_eq!(
            TrigramQuery::and(vec![TrigramQuery::None, t(b"abc")]),
            TrigramQuery::None
        );
        assert_eq!(TrigramQuery::or(vec![TrigramQuery::All, t(b"abc")]), TrigramQuery::All);
        assert_eq!(TrigramQuery::or(vec![TrigramQuery::None, t(b"abc")]), t(b"abc"));
        assert_eq!(TrigramQuery::and(vec![]), TrigramQuery::All);
        assert_eq!(TrigramQuery::or(vec![]), TrigramQuery::None);
    }

    #[test]
    fn set_operations() {
        assert_eq!(intersect_sorted(&[1, 3, 5, 7], &[3, 4, 5, 8]), vec![3, 5]);
        assert_eq!(union_sorted(&[1, 3, 5], &[2, 3, 9]), vec![1, 2, 3, 5, 9]);
        assert_eq!(union_sorted(&[], &[2]), vec![2]);
    }

    #[test]
    fn invalid_relative_paths() {
        assert!(valid_relative("src/a.ts"));
        assert!(valid_relative("./src/a.ts"));
        assert!(!valid_relative(""));
        assert!(!valid_relative("/etc/passwd"));
        assert!(!valid_relative("src/../../x"));
    }
}
