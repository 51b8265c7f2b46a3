//! Reading files into records: one path judged as the walker would, its content classified
//! and extracted (from disk or an overlay's buffer), and the record put in its place — what a pass,
//! a watcher batch and an overlay view each do per file.

use crate::{classify, is_test_file, walk, Failure, FileRecord, IndexOptions, SkipReason, Skipped};
use gortex_core::Sources;
use gortex_core::{FileFacts, Language};
use gortex_graph::config::{
    parse_cargo_toml, parse_compile_commands, parse_go_mod, parse_package_json, parse_tsconfig, RepoConfig,
};
use gortex_graph::ChangedFile;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The outcome of processing one candidate file.
pub(crate) enum Outcome {
    Reused(FileRecord),
    Parsed(FileRecord),
    Skipped(Skipped, Option<(u64, u64)>),
    Failed(Failure),
}

/// What `update_paths` found at one path.
pub(crate) enum PathState {
    /// Not a language gortex indexes: nothing changes.
    Unsupported,
    /// Deleted, excluded, ignored or not a regular file: not indexed (any more).
    Gone,
    /// Not read, and reported as the walk reports it: over the size cap, or a symlink (the path
    /// is one, or goes through one; the report names the link).
    Refused(Skipped),
    /// Read: its previous facts reused, parsed, skipped or failed.
    Read(Outcome),
}

/// Reads one repository-relative path as the walker would admit it, reusing `old` when its
/// stat and content say nothing changed.
pub(crate) fn read_path(
    root: &Path,
    rel: &str,
    old: Option<&FileRecord>,
    options: &IndexOptions,
    pool: &rayon::ThreadPool,
    admission: &mut walk::Admission,
) -> PathState {
    let Some(language) = Language::from_path(rel).filter(|l| gortex_lang::supports(*l)) else {
        return PathState::Unsupported;
    };
    // What the walker would not reach (ignored, excluded) is not indexed, or no longer; nor is
    // what it would not follow (a symlink, or anything below one: it may lead out of the root).
    match admission.judge(rel) {
        walk::Verdict::Admitted => {}
        walk::Verdict::Refused => return PathState::Gone,
        walk::Verdict::Symlink(link) => return PathState::Refused(link),
    }
    let abs = root.join(rel);
    let meta = match std::fs::symlink_metadata(&abs) {
        Ok(m) if m.is_file() => m,
        _ => return PathState::Gone,
    };
    if meta.len() > options.max_file_size {
        return PathState::Refused(Skipped {
            path: rel.to_string(),
            reason: SkipReason::TooLarge,
            detail: Some(format!("{} bytes > cap {} bytes", meta.len(), options.max_file_size)),
        });
    }
    let cand = walk::Candidate {
        rel: rel.to_string(),
        abs,
        language,
        size: meta.len(),
        mtime_ns: walk::mtime_ns(&meta),
    };
    let prev = PreviousFiles {
        records: old.map(|r| (rel, r)).into_iter().collect(),
        skipped: HashMap::new(),
    };
    PathState::Read(pool.install(|| process_file(&cand, &prev, options)))
}

pub(crate) struct PreviousFiles<'a> {
    pub(crate) records: HashMap<&'a str, &'a FileRecord>,
    pub(crate) skipped: HashMap<&'a str, (u64, u64)>,
}

pub(crate) fn process_file(cand: &walk::Candidate, prev: &PreviousFiles<'_>, options: &IndexOptions) -> Outcome {
    if let Some(rec) = prev.records.get(cand.rel.as_str()) {
        if rec.size == cand.size && rec.mtime_ns == cand.mtime_ns {
            return Outcome::Reused((*rec).clone());
        }
    }
    let bytes = match std::fs::read(&cand.abs) {
        Ok(b) => b,
        Err(e) => {
            let detail = if e.kind() == std::io::ErrorKind::NotFound {
                "deleted while indexing".to_string()
            } else {
                e.to_string()
            };
            return Outcome::Skipped(
                Skipped {
                    path: cand.rel.clone(),
                    reason: SkipReason::Unreadable,
                    detail: Some(detail),
                },
                None,
            );
        }
    };
    let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
    if let Some(rec) = prev.records.get(cand.rel.as_str()) {
        if rec.hash == hash {
            let mut rec = (*rec).clone();
            rec.size = bytes.len() as u64;
            rec.mtime_ns = cand.mtime_ns;
            return Outcome::Reused(rec);
        }
    }
    parse_content(cand, &bytes, hash, options)
}

/// Classifies and extracts one file's content (read from disk or an overlay's buffer): parsed,
/// skipped (generated, minified, over a per-file limit) or failed.
pub(crate) fn parse_content(cand: &walk::Candidate, bytes: &[u8], hash: u64, options: &IndexOptions) -> Outcome {
    if let Some((reason, detail)) = classify::classify(&cand.rel, bytes) {
        if !(reason == SkipReason::Generated && options.index_generated) {
            let stat = Some((cand.size, cand.mtime_ns));
            return Outcome::Skipped(
                Skipped {
                    path: cand.rel.clone(),
                    reason,
                    detail: Some(detail),
                },
                stat,
            );
        }
    }
    let language = gortex_lang::refine_language(cand.language, &cand.rel, bytes);
    let ctx = gortex_lang::FileContext {
        path: &cand.rel,
        is_test_file: is_test_file(&cand.rel, language),
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        gortex_lang::extract_file(language, bytes, &ctx, options.parse_budget)
    }));
    match result {
        Ok(Ok(mut facts)) => {
            sanitize(&mut facts);
            Outcome::Parsed(FileRecord {
                path: Arc::from(cand.rel.as_str()),
                language,
                size: bytes.len() as u64,
                mtime_ns: cand.mtime_ns,
                hash,
                facts: Arc::new(facts),
            })
        }
        // Over a per-file limit: skipped like a minified file, and not re-read while unchanged.
        Ok(Err(e)) => match SkipReason::of_extract_error(&e) {
            Some(reason) => Outcome::Skipped(
                Skipped {
                    path: cand.rel.clone(),
                    reason,
                    detail: Some(e.to_string()),
                },
                Some((cand.size, cand.mtime_ns)),
            ),
            None => Outcome::Failed(Failure {
                path: cand.rel.clone(),
                error: e.to_string(),
            }),
        },
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Outcome::Failed(Failure {
                path: cand.rel.clone(),
                error: format!("extractor panicked: {msg}"),
            })
        }
    }
}

/// Puts a path's new record (or its absence) where `at` (the path's binary search in `files`,
/// sorted by path) says it stands.
pub(crate) fn place_record(files: &mut Vec<FileRecord>, at: Result<usize, usize>, record: Option<FileRecord>) {
    match (at, record) {
        (Ok(i), Some(r)) => files[i] = r,
        (Err(i), Some(r)) => files.insert(i, r),
        (Ok(i), None) => {
            files.remove(i);
        }
        (Err(_), None) => {}
    }
}

/// Files whose facts differ between two record lists (both sorted by path), with the old facts.
pub(crate) fn diff_records(before: &[FileRecord], after: &[FileRecord]) -> Vec<ChangedFile> {
    // Fx rather than SipHash: tens of thousands of paths on every watcher pass.
    let old: rustc_hash::FxHashMap<&str, &FileRecord> = before.iter().map(|r| (&*r.path, r)).collect();
    let new: rustc_hash::FxHashMap<&str, &FileRecord> = after.iter().map(|r| (&*r.path, r)).collect();
    let mut changes = Vec::new();
    for r in after {
        match old.get(&*r.path) {
            // Same facts (e.g. only a comment changed at the end): nothing to re-resolve.
            Some(o) if o.language == r.language && (o.hash == r.hash || o.facts == r.facts) => {}
            Some(o) => changes.push(ChangedFile {
                path: r.path.to_string(),
                old: Some(o.facts.clone()),
            }),
            None => changes.push(ChangedFile {
                path: r.path.to_string(),
                old: None,
            }),
        }
    }
    for r in before {
        if !new.contains_key(&*r.path) {
            changes.push(ChangedFile {
                path: r.path.to_string(),
                old: Some(r.facts.clone()),
            });
        }
    }
    changes
}

/// Enforces the facts invariants the graph relies on (parents precede children, indices in range).
pub(crate) fn sanitize(facts: &mut FileFacts) {
    let n = facts.symbols.len() as u32;
    for (i, s) in facts.symbols.iter_mut().enumerate() {
        if s.parent.is_some_and(|p| p >= i as u32) {
            s.parent = None;
        }
    }
    for r in facts.refs.iter_mut() {
        if r.from.is_some_and(|f| f >= n) {
            r.from = None;
        }
    }
    for b in facts.bindings.iter_mut() {
        if b.scope.is_some_and(|f| f >= n) {
            b.scope = None;
        }
    }
}

pub(crate) fn read_config(sources: &Sources, configs: &[String]) -> (RepoConfig, Vec<(String, u64)>) {
    let root = sources.root();
    let mut config = RepoConfig::default();
    let mut hashes = Vec::new();
    for rel in configs {
        let Some(text) = sources.read(rel).ok().and_then(|b| String::from_utf8(b).ok()) else {
            continue;
        };
        hashes.push((rel.clone(), xxhash_rust::xxh3::xxh3_64(text.as_bytes())));
        let dir = gortex_graph::config::dir_of(rel);
        match rel.rsplit('/').next().unwrap_or(rel) {
            "go.mod" => config.go_modules.extend(parse_go_mod(dir, &text)),
            "tsconfig.json" | "jsconfig.json" => config.ts_configs.extend(parse_tsconfig(dir, &text)),
            "package.json" => config.js_packages.extend(parse_package_json(dir, &text)),
            "Cargo.toml" => config.cargo_crates.extend(parse_cargo_toml(dir, &text)),
            "compile_commands.json" => {
                for inc in parse_compile_commands(&root.to_string_lossy(), dir, &text) {
                    if !config.c_include_dirs.contains(&inc) {
                        config.c_include_dirs.push(inc);
                    }
                }
            }
            _ => {}
        }
    }
    // Longest module paths first, so nested modules win over their parents.
    config
        .go_modules
        .sort_by(|a, b| b.module.len().cmp(&a.module.len()).then(a.module.cmp(&b.module)));
    (config, hashes)
}
