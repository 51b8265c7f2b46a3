//! The index's side of semantic enrichment: the call sites a language server is asked about, and
//! its answers kept per file (for the content they were made for) and handed to the builder, which
//! re-resolves those files with them (`gortex_graph::semantic`).

use crate::{build_pool, FileRecord, IndexError, IndexReport, RepoIndex};
use gortex_core::{EdgeKind, FileFacts, Receiver};
use gortex_graph::semantic::{SemanticCounts, SemanticSite, SemanticSites};
use gortex_graph::ChangedFile;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

/// One call site of a file: the callee's name at a 1-based line and 0-based byte column.
#[derive(Debug, Clone, Serialize)]
pub struct CallSite {
    pub line: u32,
    pub col: u32,
    pub name: String,
    /// Called on a receiver (`a.b()`), not a bare name.
    pub member: bool,
}

/// A file's call sites and the content they were read from.
#[derive(Debug, Clone, Serialize)]
pub struct FileCallSites {
    pub path: String,
    /// Hex of the content hash: answers are applied only while the file keeps this content.
    pub hash: String,
    pub sites: Vec<CallSite>,
}

/// A language server's answers for one file.
#[derive(Debug, Clone, Deserialize)]
pub struct SemanticFile {
    pub path: String,
    /// The `hash` of [`FileCallSites`] the answers were made for.
    pub hash: String,
    pub sites: Vec<SemanticSite>,
}

/// What applying answers did.
#[derive(Debug, Clone, Serialize)]
pub struct SemanticReport {
    /// Files whose answers were applied (their references resolved again).
    pub applied: usize,
    /// Files whose content changed since their sites were read (answers dropped), or that are gone.
    pub stale: Vec<String>,
    /// The whole repository's counts after the rebuild.
    pub counts: SemanticCounts,
    /// Files holding answers now.
    pub files_with_answers: usize,
    pub wall_ms: u64,
}

/// Whether answers made for content `hash` with `facts` still hold for `record`: the same content,
/// or an edit that left the file's facts (every reference's position) as they were.
pub(crate) fn answers_hold(record: &FileRecord, hash: u64, facts: &Arc<FileFacts>) -> bool {
    record.hash == hash || Arc::ptr_eq(facts, &record.facts) || **facts == *record.facts
}

fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

impl RepoIndex {
    /// The call sites of the file at `path` (repository-relative), for the enrichment pass.
    pub fn call_sites(&self, path: &str) -> Result<FileCallSites, IndexError> {
        let at = self
            .files
            .binary_search_by(|r| (*r.path).cmp(path))
            .map_err(|_| IndexError::NotIndexed { path: path.to_string() })?;
        let record = &self.files[at];
        let sites = record
            .facts
            .refs
            .iter()
            // A synthesized dispatch has no call expression for a server to answer.
            .filter(|r| r.kind == EdgeKind::Calls && r.via.is_none())
            .map(|r| CallSite {
                line: r.line,
                col: r.col,
                name: r.name.clone(),
                member: !matches!(r.receiver, Receiver::None),
            })
            .collect();
        Ok(FileCallSites {
            path: path.to_string(),
            hash: hex(record.hash),
            sites,
        })
    }

    /// Keeps the answers of `files` (those whose content is still the one they were made for) and
    /// resolves those files again with them.
    pub fn apply_semantic(&mut self, files: Vec<SemanticFile>) -> Result<SemanticReport, IndexError> {
        let started = Instant::now();
        let mut stale = Vec::new();
        let mut changes = Vec::new();
        for file in files {
            let Ok(at) = self.files.binary_search_by(|r| (*r.path).cmp(file.path.as_str())) else {
                stale.push(file.path);
                continue;
            };
            let record = &self.files[at];
            if hex(record.hash) != file.hash {
                stale.push(file.path);
                continue;
            }
            let sites = Arc::new(SemanticSites::new(file.sites));
            changes.push(ChangedFile {
                path: file.path,
                old: Some(record.facts.clone()),
            });
            self.semantic
                .insert(Arc::clone(&record.path), (record.hash, record.facts.clone(), sites));
        }
        // Answers for files that are gone or whose references moved are dropped on the way.
        let files = &self.files;
        self.semantic.retain(|path, (hash, facts, _)| {
            files
                .binary_search_by(|r| (*r.path).cmp(&**path))
                .is_ok_and(|at| answers_hold(&files[at], *hash, facts))
        });
        if !changes.is_empty() {
            let pool = build_pool(self.options.threads)?;
            let mut report = IndexReport::default();
            let keep = self.resolution.as_ref().is_some_and(|c| c.kept_tables.is_filled());
            self.rebuild_graph(&pool, &|_| {}, &mut report, &changes, keep);
        }
        Ok(SemanticReport {
            applied: changes.len(),
            stale,
            counts: self.semantic_counts(),
            files_with_answers: self.semantic.len(),
            wall_ms: started.elapsed().as_millis() as u64,
        })
    }

    /// How the resolver's answers fared against the language servers', over the whole graph.
    pub fn semantic_counts(&self) -> SemanticCounts {
        let mut counts = SemanticCounts::default();
        if let Some(cache) = &self.resolution {
            for (_, file) in &cache.files {
                counts.add(&file.semantic);
            }
        }
        counts
    }
}
