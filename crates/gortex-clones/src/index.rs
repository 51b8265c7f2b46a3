//! [`CloneIndex`]: per-file shingle sets and MinHash signatures of every function and method body,
//! kept in step with the indexed file list. Only files whose content hash (or whose set of bodies
//! in the graph) changed are read and tokenised again.

use crate::minhash::{shingles, signature, Signature, MIN_TOKENS, NUM_HASHES};
use crate::tokenize::{has_block, lex};
use gortex_core::{Language, Sources, Span};
use gortex_graph::bodies::{file_bodies, layout_hash, valid_relative, BodySpec, LineStarts};
use gortex_graph::Graph;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bytes inspected for a NUL when deciding that a file is binary.
const BINARY_PROBE: usize = 8192;
/// Skipped files listed by name in [`SyncStats::skipped`]; the rest are only counted.
const MAX_LISTED_SKIPS: usize = 100;

/// One function or method body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// The graph node id (shared with the graph that was synchronised).
    pub id: Arc<str>,
    /// The node's span when the body was read.
    pub span: Span,
    /// Normalised tokens in the body.
    pub tokens: u32,
    /// A declaration without a body: an interface, trait or abstract member, an overload or
    /// `declare` signature. Never eligible: identical signatures are not duplicated code.
    pub declaration_only: bool,
    /// Sorted, deduplicated shingle hashes; empty unless the body is eligible.
    pub shingles: Box<[u32]>,
    /// MinHash signature of `shingles`; `None` unless the body is eligible (at least
    /// [`MIN_TOKENS`] tokens and not `declaration_only`).
    pub signature: Option<Box<Signature>>,
}

impl Body {
    /// True when the body has enough tokens to take part in clone detection.
    pub fn eligible(&self) -> bool {
        self.signature.is_some()
    }
}

#[derive(Debug, Clone)]
struct FileEntry {
    hash: u64,
    /// Fingerprint of the graph's body ids and spans for this file.
    shape: u64,
    bodies: Vec<Body>,
}

/// Why a file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Absolute, empty or escaping (`..`) path.
    InvalidPath,
    /// The file could not be read (vanished, permissions); retried on the next sync.
    Unreadable,
    /// NUL byte in the first 8 KiB.
    Binary,
    /// Not valid UTF-8.
    NotUtf8,
    /// Neither the path nor the graph names a language.
    UnknownLanguage,
}

/// One file the sync did not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyncSkip {
    pub path: String,
    pub reason: SkipReason,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What one [`CloneIndex::sync`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncStats {
    /// Files listed by the caller.
    pub files: usize,
    /// Files kept as they were (same content hash and bodies).
    pub unchanged: usize,
    /// Files read from disk and tokenised.
    pub read: usize,
    /// New or changed files with no function or method, recorded without reading them.
    pub without_bodies: usize,
    /// Files dropped because they are no longer listed.
    pub removed: usize,
    /// Files skipped in this sync (all of them counted here).
    pub skipped_files: usize,
    /// The first skipped files with their reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SyncSkip>,
    /// Bodies in the index after the sync.
    pub bodies: usize,
    /// Eligible bodies after the sync (at least [`MIN_TOKENS`] tokens, not declaration-only).
    pub eligible: usize,
}

/// Shingle sets and signatures of every function/method body in a repository, per file.
#[derive(Debug, Clone, Default)]
pub struct CloneIndex {
    sources: Option<Sources>,
    /// By repository-relative path; a `BTreeMap` so iteration (and every result) is ordered.
    files: BTreeMap<Arc<str>, FileEntry>,
    bodies: usize,
    eligible: usize,
    generation: u64,
}

/// The graph's bodies of one file, in source order.
type Specs = Vec<BodySpec>;

fn read_bodies(sources: &Sources, path: &str, language: Language, specs: &Specs) -> Result<Vec<Body>, SyncSkip> {
    let skip = |reason, detail: Option<String>| SyncSkip {
        path: path.to_string(),
        reason,
        detail,
    };
    let bytes = sources
        .read(path)
        .map_err(|e| skip(SkipReason::Unreadable, Some(e.to_string())))?;
    if bytes[..bytes.len().min(BINARY_PROBE)].contains(&0) {
        return Err(skip(SkipReason::Binary, None));
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| skip(SkipReason::NotUtf8, Some(e.to_string())))?;
    let lexed = lex(text, language);
    let lines = LineStarts::of(text);
    Ok(specs
        .iter()
        .map(|spec| {
            let span = &spec.span;
            let range = lines.range(span);
            let tokens = lexed.slice(range.start, range.end);
            // Python bodies have no braces; everywhere else a body needs a block or an arrow.
            let declaration_only = spec.declaration || (language != Language::Python && !has_block(tokens));
            let (shingles, signature) = if tokens.len() >= MIN_TOKENS && !declaration_only {
                let set = shingles(tokens);
                let sig = signature(&set);
                (set.into_boxed_slice(), Some(Box::new(sig)))
            } else {
                (Box::default(), None)
            };
            Body {
                id: spec.id.clone(),
                span: *span,
                tokens: tokens.len() as u32,
                declaration_only,
                shingles,
                signature,
            }
        })
        .collect())
}

fn skip(stats: &mut SyncStats, s: SyncSkip) {
    stats.skipped_files += 1;
    if stats.skipped.len() < MAX_LISTED_SKIPS {
        stats.skipped.push(s);
    }
}

impl CloneIndex {
    /// An empty index.
    pub fn new() -> CloneIndex {
        CloneIndex::default()
    }

    /// Brings the index in line with `files` (repository-relative path, content hash) and the
    /// graph built from them: drops files no longer listed, and reads and tokenises (in
    /// parallel) only files that are new, whose hash changed, or whose function/method ids or
    /// spans in `g` changed. Files without functions or methods are recorded without reading.
    /// Unreadable, binary and non-UTF-8 files are skipped and reported; unreadable ones are
    /// retried on the next sync. A different `root` than the previous sync's starts afresh.
    pub fn sync(&mut self, sources: impl Into<Sources>, g: &Graph, files: &[(String, u64)]) -> SyncStats {
        let sources = &sources.into();
        let mut stats = SyncStats {
            files: files.len(),
            ..SyncStats::default()
        };
        // Entries are keyed by content hash: only another root invalidates them.
        if self.sources.as_ref().map(Sources::root) != Some(sources.root()) {
            if !self.files.is_empty() {
                self.generation += 1;
            }
            self.files.clear();
        }
        self.sources = Some(sources.clone());

        let mut wanted: FxHashMap<&str, u64> = FxHashMap::default();
        for (path, hash) in files {
            if valid_relative(path) {
                wanted.insert(path.as_str(), *hash);
            } else {
                skip(
                    &mut stats,
                    SyncSkip {
                        path: path.clone(),
                        reason: SkipReason::InvalidPath,
                        detail: Some("paths must be relative and stay under the root".into()),
                    },
                );
            }
        }
        let before = self.files.len();
        self.files.retain(|path, _| wanted.contains_key(&**path));
        stats.removed = before - self.files.len();

        let mut paths: Vec<(&str, u64)> = wanted.into_iter().collect();
        paths.sort_unstable();
        let plans: Vec<(&str, u64, Specs, u64, Option<Language>)> = paths
            .par_iter()
            .map(|&(path, hash)| {
                let (specs, lang) = file_bodies(g, path);
                let shape = layout_hash(&specs);
                (path, hash, specs, shape, lang)
            })
            .collect();

        let mut work = Vec::new();
        for (path, hash, specs, shape, lang) in plans {
            if self.files.get(path).is_some_and(|e| e.hash == hash && e.shape == shape) {
                stats.unchanged += 1;
            } else if specs.is_empty() {
                stats.without_bodies += 1;
                self.files.insert(
                    path.into(),
                    FileEntry {
                        hash,
                        shape,
                        bodies: Vec::new(),
                    },
                );
            } else {
                work.push((path, hash, specs, shape, Language::from_path(path).or(lang)));
            }
        }

        let results: Vec<Result<Vec<Body>, SyncSkip>> = work
            .par_iter()
            .map(|(path, _, specs, _, lang)| match lang {
                Some(lang) => read_bodies(sources, path, *lang, specs),
                None => Err(SyncSkip {
                    path: path.to_string(),
                    reason: SkipReason::UnknownLanguage,
                    detail: None,
                }),
            })
            .collect();
        for ((path, hash, _, shape, _), result) in work.into_iter().zip(results) {
            match result {
                Ok(bodies) => {
                    stats.read += 1;
                    self.files.insert(path.into(), FileEntry { hash, shape, bodies });
                }
                Err(s) => {
                    // Content-determined skips are remembered so the file is not re-read until it
                    // changes; an I/O failure is forgotten so the next sync retries it.
                    if s.reason == SkipReason::Unreadable {
                        self.files.remove(path);
                    } else {
                        self.files.insert(
                            path.into(),
                            FileEntry {
                                hash,
                                shape,
                                bodies: Vec::new(),
                            },
                        );
                    }
                    skip(&mut stats, s);
                }
            }
        }

        if stats.removed + stats.read + stats.without_bodies + stats.skipped_files > 0 {
            self.generation += 1;
        }
        self.bodies = self.files.values().map(|f| f.bodies.len()).sum();
        self.eligible = self
            .files
            .values()
            .flat_map(|f| &f.bodies)
            .filter(|b| b.eligible())
            .count();
        stats.bodies = self.bodies;
        stats.eligible = self.eligible;
        stats
    }

    /// Every body with its file path, ordered by path, then source order.
    pub fn bodies(&self) -> impl Iterator<Item = (&Arc<str>, &Body)> + '_ {
        self.files
            .iter()
            .flat_map(|(p, f)| f.bodies.iter().map(move |b| (p, b)))
    }

    /// The stored body of a node id, with its file path.
    pub fn body(&self, id: &str) -> Option<(&Arc<str>, &Body)> {
        self.bodies().find(|(_, b)| &*b.id == id)
    }

    /// Function and method bodies held.
    pub fn body_count(&self) -> usize {
        self.bodies
    }

    /// Bodies taking part in clone detection: at least [`MIN_TOKENS`] tokens, not declaration-only.
    pub fn eligible_count(&self) -> usize {
        self.eligible
    }

    /// Files held (including files without bodies).
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Increases whenever a sync changed the contents; callers can cache results per generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Approximate heap bytes held (ids counted in full, although they share the graph's).
    pub fn memory_bytes(&self) -> usize {
        // A B-tree entry: key, value and a share of the node.
        let entry = std::mem::size_of::<(Arc<str>, FileEntry)>() + 16;
        self.files
            .iter()
            .map(|(path, f)| {
                entry
                    + path.len()
                    + 16
                    + f.bodies.capacity() * std::mem::size_of::<Body>()
                    + f.bodies
                        .iter()
                        .map(|b| {
                            b.id.len() + 16 + b.shingles.len() * 4 + b.signature.as_ref().map_or(0, |_| NUM_HASHES * 4)
                        })
                        .sum::<usize>()
            })
            .sum()
    }
}
