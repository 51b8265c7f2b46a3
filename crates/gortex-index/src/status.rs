//! Comparing an index with the disk without parsing (`staleness`) and reading a repository's
//! snapshot for `gortex status`.

use crate::*;

impl RepoIndex {
    /// Compares the index with the disk without parsing: modified, added and deleted files.
    pub fn staleness(&self, options: &IndexOptions) -> Staleness {
        let walk_options = options.walk_options();
        let walked = walk::walk(&self.root, &walk_options);
        staleness_of(&self.files, &self.skipped, &self.skipped_stats, &walked)
    }
}

/// Files that differ between an index and the disk.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Staleness {
    pub modified: Vec<String>,
    pub added: Vec<String>,
    pub deleted: Vec<String>,
}

/// Files that differ from the snapshot. Size and mtime decide, except that a file whose size is
/// unchanged but whose mtime moved (touched, checked out again, restored by a build tool) is read
/// and compared by content hash, so it is not reported modified when its bytes are the same. A
/// file skipped as unreadable that still cannot be opened is no change (it is reported skipped);
/// once it opens, it is added.
fn staleness_of(
    files: &[FileRecord],
    skipped: &[Skipped],
    skipped_stats: &[(String, u64, u64)],
    walked: &walk::WalkResult,
) -> Staleness {
    let unreadable: std::collections::HashSet<&str> = skipped
        .iter()
        .filter(|s| s.reason == SkipReason::Unreadable)
        .map(|s| s.path.as_str())
        .collect();
    let known: HashMap<&str, (u64, u64, Option<u64>)> = files
        .iter()
        .map(|r| (&*r.path, (r.size, r.mtime_ns, Some(r.hash))))
        .chain(skipped_stats.iter().map(|(p, s, m)| (p.as_str(), (*s, *m, None))))
        .collect();
    let mut out = Staleness::default();
    let mut seen = std::collections::HashSet::new();
    for c in &walked.sources {
        seen.insert(c.rel.as_str());
        match known.get(c.rel.as_str()) {
            Some(&(size, mtime, _)) if size == c.size && mtime == c.mtime_ns => {}
            Some(&(size, _, Some(hash)))
                if size == c.size
                    && std::fs::read(&c.abs).is_ok_and(|bytes| xxhash_rust::xxh3::xxh3_64(&bytes) == hash) => {}
            Some(_) => out.modified.push(c.rel.clone()),
            None if unreadable.contains(c.rel.as_str()) && std::fs::File::open(&c.abs).is_err() => {}
            None => out.added.push(c.rel.clone()),
        }
    }
    for r in files {
        if !seen.contains(&*r.path) {
            out.deleted.push(r.path.to_string());
        }
    }
    out
}

/// What `gortex status` shows for a root, read from its snapshot without parsing anything.
#[derive(Debug, Clone, Serialize)]
pub struct StatusReport {
    pub repo: String,
    pub root: String,
    pub indexed: bool,
    pub snapshot_path: String,
    pub snapshot_error: Option<String>,
    pub indexed_at_ms: Option<u64>,
    pub files: usize,
    pub languages: BTreeMap<String, LanguageCount>,
    pub fresh: bool,
    pub stale: Staleness,
    pub skipped: Vec<Skipped>,
    pub skipped_by_reason: BTreeMap<String, usize>,
    pub failures: Vec<Failure>,
}

/// Reads the snapshot of `root` and compares it with the disk.
pub fn status(root: &Path, options: &IndexOptions) -> Result<StatusReport, IndexError> {
    let (root, name) = resolve_root(root, options.name.as_deref())?;
    let path = snapshot_path(&options.home, &name, &root);
    let walk_options = options.walk_options();
    let mut report = StatusReport {
        repo: name,
        root: root.display().to_string(),
        indexed: false,
        snapshot_path: path.display().to_string(),
        snapshot_error: None,
        indexed_at_ms: None,
        files: 0,
        languages: BTreeMap::new(),
        fresh: false,
        stale: Staleness::default(),
        skipped: Vec::new(),
        skipped_by_reason: BTreeMap::new(),
        failures: Vec::new(),
    };
    match snapshot::load(&path) {
        Ok((data, _)) if data.root != report.root => {
            report.snapshot_error = Some(format!(
                "it was written for {}, not {}; `gortex index` rebuilds it for this root",
                data.root, report.root
            ));
        }
        Ok((data, _)) => {
            let walked = walk::walk(&root, &walk_options);
            report.indexed = true;
            report.indexed_at_ms = Some(data.indexed_at_ms);
            report.files = data.files.len();
            for r in &data.files {
                let e = report.languages.entry(r.language.as_str().to_string()).or_default();
                e.files += 1;
                e.bytes += r.size;
            }
            report.stale = staleness_of(&data.files, &data.skipped, &data.skipped_stats, &walked);
            report.fresh =
                report.stale.modified.is_empty() && report.stale.added.is_empty() && report.stale.deleted.is_empty();
            for s in &data.skipped {
                *report
                    .skipped_by_reason
                    .entry(s.reason.as_str().to_string())
                    .or_default() += 1;
            }
            report.skipped = data.skipped;
            report.failures = data.failures;
        }
        Err(SnapshotError::Missing(_)) => {}
        Err(e) => report.snapshot_error = Some(e.to_string()),
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `status` reads the snapshot at the root's path only when it records that root.
    #[test]
    fn status_refuses_a_snapshot_written_for_another_root() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        std::fs::write(a.path().join("a.ts"), "export const a = 1;\n").unwrap();
        std::fs::write(b.path().join("b.ts"), "export const b = 2;\n").unwrap();
        let home = tempfile::tempdir().unwrap();
        let opts = IndexOptions::new(home.path().to_path_buf());
        let (index, _) = RepoIndex::open(a.path(), &opts, &|_| {}, &AtomicBool::new(false)).unwrap();
        assert!(status(a.path(), &opts).unwrap().indexed);
        let (root_b, name_b) = resolve_root(b.path(), None).unwrap();
        std::fs::copy(&index.snapshot_path, snapshot_path(home.path(), &name_b, &root_b)).unwrap();
        let report = status(b.path(), &opts).unwrap();
        assert!(!report.indexed);
        assert_eq!(report.files, 0);
        let error = report.snapshot_error.unwrap();
        assert!(error.contains(&index.root.display().to_string()), "{error}");
    }

    /// The read-back after a cold index: a snapshot that does not read back leaves the index as
    /// built (its graph assembled again from the pass's own data); a good one replaces that data
    /// with the same graph from other allocations. Either way the tables for the next edit are kept.
    #[test]
    fn a_snapshot_that_does_not_read_back_leaves_the_index_as_built() {
        let repo = tempfile::tempdir().unwrap();
        std::fs::write(repo.path().join("a.ts"), "export function alpha() { return beta(); }\n").unwrap();
        std::fs::write(repo.path().join("b.ts"), "export function beta() { return 1; }\n").unwrap();
        let home = tempfile::tempdir().unwrap();
        let mut opts = IndexOptions::new(home.path().to_path_buf());
        opts.keep_build_caches = true;
        let (mut index, _) = RepoIndex::open(repo.path(), &opts, &|_| {}, &AtomicBool::new(false)).unwrap();
        let before = index.graph.canonical_dump();
        let facts: Vec<Arc<FileFacts>> = index.files.iter().map(|r| Arc::clone(&r.facts)).collect();
        std::fs::write(&index.snapshot_path, b"not a snapshot").unwrap();
        let mut report = IndexReport::default();
        index.relayout(&opts, &|_| {}, &mut report).unwrap();
        assert_eq!(index.graph.canonical_dump(), before);
        assert!(index.files.iter().zip(&facts).all(|(r, f)| Arc::ptr_eq(&r.facts, f)));
        assert!(index
            .graph
            .file_facts()
            .iter()
            .zip(&facts)
            .all(|(g, f)| Arc::ptr_eq(g, f)));
        assert!(report.phases_ms.contains_key("resolve.keep_tables"));
        index.save_snapshot().unwrap();
        index.relayout(&opts, &|_| {}, &mut report).unwrap();
        assert_eq!(index.graph.canonical_dump(), before);
        assert!(!index.files.iter().zip(&facts).any(|(r, f)| Arc::ptr_eq(&r.facts, f)));
        assert!(index
            .graph
            .file_facts()
            .iter()
            .zip(&index.files)
            .all(|(g, r)| Arc::ptr_eq(g, &r.facts)));
    }
}
