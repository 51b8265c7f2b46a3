//! The on-disk snapshot of a repository's index: versioned, checksummed, written atomically.
//!
//! Layout: magic `GORTEXSN`, format version (u32 LE), body length (u64 LE), xxh3 of the section
//! table (u64 LE), then the body: a sequence of sections, each `kind` (u8), length (u64 LE), xxh3
//! of its bytes (u64 LE) and the postcard-encoded bytes. The first section is the head (names,
//! skipped files, config, the resolver fingerprint); then the file records and the per-file
//! resolutions, [`FILES_PER_SECTION`] files to a section, and the derived tables. The graph itself
//! is derived on load from the stored per-file facts, so a snapshot never disagrees with the
//! resolver in the binary.
//!
//! Sections are what make a warm open fast: they are encoded on the pool in parallel (a batch at a
//! time, written in order, so a save never holds the whole encoding), and on load each is checked
//! against its own checksum and decoded on the pool in parallel, straight from the mapped file,
//! whose pages are handed back to the kernel as each section is done (a snapshot's bytes are
//! never resident all at once beside what they decode to). The head is decoded first, so a
//! snapshot of another extractor version is refused without decoding the rest. Node ids and
//! adjacency are re-derived on load; resolutions are reused only when the resolver fingerprint and
//! configuration hash match. A corrupt, truncated, old-format or foreign snapshot is rebuilt and
//! the reason reported.

use crate::{Failure, FileRecord, Skipped};
use gortex_graph::cache::{DerivedTables, ResolvedFile};
use gortex_graph::{RepoConfig, ResolutionCache};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3;

const MAGIC: &[u8; 8] = b"GORTEXSN";
/// Bumped whenever the encoding changes (3: C/C++ languages, include directories;
/// 4: `SymbolFact::doc_text`; 5: `Receiver::Chain`, `BindingValue::Callback`; 6: sections;
/// 7: `SymbolFact::ui`; 8: `RefFact::via`, `ResolvedEdge::via`).
pub const FORMAT_VERSION: u32 = 8;
const HEADER_LEN: usize = 8 + 4 + 8 + 8;
/// A section's own header: kind, length, checksum.
const SECTION_HEADER_LEN: usize = 1 + 8 + 8;
/// Files (and their resolutions) per section: small enough that a 2-thread pool splits even a
/// small repository's decode, large enough that per-section overhead stays negligible.
pub const FILES_PER_SECTION: usize = 256;

/// What a section holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Kind {
    Head = 1,
    Files = 2,
    Resolved = 3,
    Derived = 4,
}

impl Kind {
    fn of(byte: u8) -> Option<Kind> {
        [Kind::Head, Kind::Files, Kind::Resolved, Kind::Derived]
            .into_iter()
            .find(|k| *k as u8 == byte)
    }
}

/// Everything persisted for one repository.
#[derive(Debug, Clone)]
pub struct SnapshotData {
    /// The extractor fingerprint the facts were produced with.
    pub extractor: String,
    pub repo: String,
    pub root: String,
    pub indexed_at_ms: u64,
    pub files: Vec<FileRecord>,
    pub skipped: Vec<Skipped>,
    pub failures: Vec<Failure>,
    pub config: RepoConfig,
    /// (path, content hash) of the config files `config` was parsed from.
    pub config_files: Vec<(String, u64)>,
    /// (path, size, mtime) of files skipped by content, so unchanged ones are not re-read.
    pub skipped_stats: Vec<(String, u64, u64)>,
    /// Per-file resolutions, so a warm start resolves nothing that did not change.
    pub resolution: Option<ResolutionCache>,
}

/// The head section, decoded (see [`HeadRef`]).
#[derive(Debug, Deserialize)]
struct Head {
    extractor: String,
    repo: String,
    root: String,
    indexed_at_ms: u64,
    skipped: Vec<Skipped>,
    failures: Vec<Failure>,
    config: RepoConfig,
    config_files: Vec<(String, u64)>,
    skipped_stats: Vec<(String, u64, u64)>,
    /// The resolution cache's fingerprint when the snapshot holds resolutions.
    resolution: Option<String>,
}

/// The head section as saved: the same fields as [`Head`], borrowed. Postcard encodes fields in
/// order, so the two share one encoding (the round-trip tests check it).
#[derive(Serialize)]
struct HeadRef<'a> {
    extractor: &'a str,
    repo: &'a str,
    root: &'a str,
    indexed_at_ms: u64,
    skipped: &'a [Skipped],
    failures: &'a [Failure],
    config: &'a RepoConfig,
    config_files: &'a [(String, u64)],
    skipped_stats: &'a [(String, u64, u64)],
    resolution: Option<&'a str>,
}

/// Why a snapshot could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("no snapshot at {0}")]
    Missing(PathBuf),
    #[error("snapshot {path} is unreadable: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("snapshot {0} is truncated or not a gortex snapshot")]
    Corrupt(PathBuf),
    #[error("snapshot {path} has format version {found}, this build reads {expected}")]
    Version { path: PathBuf, found: u32, expected: u32 },
    #[error("snapshot {0} failed its checksum")]
    Checksum(PathBuf),
    #[error("snapshot {path} does not decode: {detail}")]
    Decode { path: PathBuf, detail: String },
    #[error("snapshot {0} was written by a different extractor version")]
    Extractor(PathBuf),
}

/// What a save writes, borrowed from the index, so saving never copies it.
pub struct SnapshotRef<'a> {
    pub extractor: &'a str,
    pub repo: &'a str,
    pub root: &'a str,
    pub indexed_at_ms: u64,
    pub files: &'a [FileRecord],
    pub skipped: &'a [Skipped],
    pub failures: &'a [Failure],
    pub config: &'a RepoConfig,
    pub config_files: &'a [(String, u64)],
    pub skipped_stats: &'a [(String, u64, u64)],
    pub resolution: Option<&'a ResolutionCache>,
}

/// Writes sections to the body, hashing their headers into the table checksum.
struct Sections<W: Write> {
    out: W,
    table: Xxh3,
    len: u64,
}

impl<W: Write> Sections<W> {
    fn header(&mut self, kind: Kind, len: usize, hash: u64) -> std::io::Result<()> {
        let mut header = [0u8; SECTION_HEADER_LEN];
        header[0] = kind as u8;
        header[1..9].copy_from_slice(&(len as u64).to_le_bytes());
        header[9..].copy_from_slice(&hash.to_le_bytes());
        self.table.update(&header);
        self.out.write_all(&header)?;
        self.len += (SECTION_HEADER_LEN + len) as u64;
        Ok(())
    }

    fn write(&mut self, kind: Kind, bytes: &[u8], hash: u64) -> std::io::Result<()> {
        self.header(kind, bytes.len(), hash)?;
        self.out.write_all(bytes)
    }

    /// Writes `value` as one section without holding its encoding: encoded once into a sink
    /// that only measures and hashes it (the header comes first), then again into the file.
    fn value<T: Serialize + ?Sized>(&mut self, kind: Kind, value: &T) -> std::io::Result<()> {
        let mut sink = Measure {
            hash: Xxh3::new(),
            len: 0,
        };
        postcard::to_io(value, &mut sink).map_err(std::io::Error::other)?;
        self.header(kind, sink.len, sink.hash.digest())?;
        postcard::to_io(value, &mut self.out).map_err(std::io::Error::other)?;
        Ok(())
    }

    /// Encodes `items` in sections of [`FILES_PER_SECTION`], a batch of sections at a time on
    /// the current pool (one per thread), written in order. Each batch reuses the buffers of the
    /// one before, sized exactly to the largest section so far (the save runs at the end of a
    /// cold pass, where its memory adds to the pass's peak).
    fn chunks<T: Serialize + Sync>(&mut self, kind: Kind, items: &[T]) -> std::io::Result<()> {
        let width = rayon::current_num_threads().max(1);
        let mut buffers: Vec<Vec<u8>> = vec![Vec::new(); width];
        for group in items.chunks(FILES_PER_SECTION * width) {
            let hashes: Vec<u64> = buffers
                .par_iter_mut()
                .zip(group.par_chunks(FILES_PER_SECTION))
                .map(|(buffer, chunk)| {
                    let size = postcard::experimental::serialized_size(chunk).map_err(std::io::Error::other)?;
                    buffer.clear();
                    buffer.reserve_exact(size);
                    let bytes = postcard::to_extend(chunk, std::mem::take(buffer)).map_err(std::io::Error::other)?;
                    *buffer = bytes;
                    Ok(xxhash_rust::xxh3::xxh3_64(buffer))
                })
                .collect::<std::io::Result<_>>()?;
            for (buffer, hash) in buffers.iter().zip(hashes) {
                self.write(kind, buffer, hash)?;
            }
        }
        Ok(())
    }
}

/// Counts and hashes what is written to it, keeping nothing.
struct Measure {
    hash: Xxh3,
    len: usize,
}

impl Write for Measure {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.hash.update(buf);
        self.len += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Encodes and writes the snapshot atomically: temp file in the same directory, fsync, rename.
pub fn save(path: &Path, data: &SnapshotRef<'_>) -> std::io::Result<u64> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    // Unique per write, also between threads of one process (several engines or repositories).
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("snapshot"),
        std::process::id(),
        WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        // Header with a placeholder length and checksum; the body is written a batch of
        // sections at a time (never held whole in memory) and the header completed afterwards.
        file.write_all(MAGIC)?;
        file.write_all(&FORMAT_VERSION.to_le_bytes())?;
        file.write_all(&[0u8; 16])?;
        let mut body = Sections {
            out: std::io::BufWriter::with_capacity(1 << 20, &mut file),
            table: Xxh3::new(),
            len: 0,
        };
        let head = HeadRef {
            extractor: data.extractor,
            repo: data.repo,
            root: data.root,
            indexed_at_ms: data.indexed_at_ms,
            skipped: data.skipped,
            failures: data.failures,
            config: data.config,
            config_files: data.config_files,
            skipped_stats: data.skipped_stats,
            resolution: data.resolution.map(|r| r.fingerprint.as_str()),
        };
        body.value(Kind::Head, &head)?;
        body.chunks(Kind::Files, data.files)?;
        if let Some(resolution) = data.resolution {
            body.chunks(Kind::Resolved, &resolution.files)?;
            body.value(Kind::Derived, &*resolution.derived)?;
        }
        body.out.flush()?;
        let (len, sum) = (body.len, body.table.digest());
        drop(body);
        file.seek(SeekFrom::Start(12))?;
        file.write_all(&len.to_le_bytes())?;
        file.write_all(&sum.to_le_bytes())?;
        file.sync_all()?;
        Ok::<u64, std::io::Error>(len)
    })();
    let len = match written {
        Ok(len) => len,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, path)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(HEADER_LEN as u64 + len)
}

/// When this process first looked for orphaned temporaries: temporaries written since may be a
/// live writer's (this process's or another's).
static FIRST_SWEEP: std::sync::OnceLock<std::time::SystemTime> = std::sync::OnceLock::new();

/// How far before the first sweep a temporary's mtime must lie to count as older than it: file
/// times come from the kernel's coarse clock (a tick behind `SystemTime::now`, and whole seconds
/// on some filesystems), so a file written just after the sweep can carry an earlier mtime.
const MTIME_SLACK: std::time::Duration = std::time::Duration::from_secs(2);

/// Age past which a temporary is an orphan even when its writer's liveness cannot be checked.
const ORPHAN_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes snapshot temporaries (`.<name>.<pid>.<n>.tmp`) in `dir` that a writer killed during
/// [`save`] left behind: older than this process's first sweep, not this process's, and whose
/// writer is gone (no `/proc/<pid>`; where there is no `/proc`, older than an hour). Returns how
/// many were removed. Best effort: what cannot be read or removed is left.
pub fn remove_orphaned_temps(dir: &Path) -> usize {
    let since = *FIRST_SWEEP.get_or_init(std::time::SystemTime::now);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let proc_fs = Path::new("/proc/self").exists();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = temp_writer(name) else { continue };
        if pid == std::process::id() {
            continue;
        }
        let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
            continue;
        };
        let old = modified + MTIME_SLACK < since;
        let gone = if proc_fs {
            !Path::new("/proc").join(pid.to_string()).exists()
        } else {
            modified.elapsed().is_ok_and(|age| age > ORPHAN_AGE)
        };
        if old && gone && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The writer's pid of a temporary named by [`save`] (`.<file>.<pid>.<n>.tmp`).
fn temp_writer(name: &str) -> Option<u32> {
    let stem = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = stem.rsplitn(3, '.');
    parts.next()?.parse::<u64>().ok()?;
    parts.next()?.parse().ok()
}

/// Reads and verifies a snapshot.
pub fn load(path: &Path) -> Result<(SnapshotData, u64), SnapshotError> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SnapshotError::Missing(path.to_path_buf())),
        Err(e) => {
            return Err(SnapshotError::Io {
                path: path.to_path_buf(),
                source: e,
            })
        }
    };
    // Map rather than read: a large snapshot is decoded straight from the page cache instead of
    // being copied into a fresh (zeroed) buffer first.
    // SAFETY: snapshots are only ever replaced by rename, never written in place, so the mapped
    // file cannot change underneath us; a truncated or garbled file is caught by the length and
    // checksum checks below before anything is decoded.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| SnapshotError::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    let bytes: &[u8] = &map;
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(SnapshotError::Corrupt(path.to_path_buf()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(SnapshotError::Version {
            path: path.to_path_buf(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes")) as usize;
    let sum = u64::from_le_bytes(bytes[20..28].try_into().expect("8 bytes"));
    let body = &bytes[HEADER_LEN..];
    let corrupt = || SnapshotError::Corrupt(path.to_path_buf());
    if body.len() != len {
        return Err(corrupt());
    }
    let sections = section_table(body).ok_or_else(corrupt)?;
    if sections.1 != sum {
        return Err(SnapshotError::Checksum(path.to_path_buf()));
    }
    let sections = sections.0;
    let decode_err = |e: postcard::Error| SnapshotError::Decode {
        path: path.to_path_buf(),
        detail: e.to_string(),
    };
    let checked = |s: &Section| -> Result<&[u8], SnapshotError> {
        let bytes = &body[s.at..s.at + s.len];
        if xxhash_rust::xxh3::xxh3_64(bytes) != s.hash {
            return Err(SnapshotError::Checksum(path.to_path_buf()));
        }
        Ok(bytes)
    };
    let (first, rest) = sections.split_first().ok_or_else(corrupt)?;
    if first.kind != Kind::Head {
        return Err(corrupt());
    }
    let head: Head = postcard::from_bytes(checked(first)?).map_err(decode_err)?;
    if head.extractor != gortex_lang::EXTRACTOR_FINGERPRINT {
        return Err(SnapshotError::Extractor(path.to_path_buf()));
    }
    // Every other section on the pool; each one's pages go back to the kernel once decoded
    // (a private read-only mapping: touching them again would read the file, but nothing does).
    let release = |s: &Section| release_pages(&map, HEADER_LEN + s.at, s.len);
    let parts: Vec<Part> = rest
        .par_iter()
        .map(|s| {
            let bytes = checked(s)?;
            let part = match s.kind {
                Kind::Files => Part::Files(postcard::from_bytes(bytes).map_err(decode_err)?),
                Kind::Resolved => Part::Resolved(postcard::from_bytes(bytes).map_err(decode_err)?),
                Kind::Derived => Part::Derived(postcard::from_bytes(bytes).map_err(decode_err)?),
                Kind::Head => return Err(corrupt()),
            };
            release(s);
            Ok(part)
        })
        .collect::<Result<_, SnapshotError>>()?;
    let mut files = Vec::with_capacity(parts.iter().map(Part::files).sum());
    let mut resolved = Vec::with_capacity(if head.resolution.is_some() { files.capacity() } else { 0 });
    let mut derived = None;
    for part in parts {
        match part {
            Part::Files(chunk) => files.extend(chunk),
            Part::Resolved(chunk) => resolved.extend(chunk),
            Part::Derived(tables) if derived.is_none() => derived = Some(tables),
            Part::Derived(_) => return Err(corrupt()),
        }
    }
    let resolution = match (head.resolution, derived) {
        (Some(fingerprint), Some(derived)) => Some(ResolutionCache {
            fingerprint,
            files: resolved,
            derived: Arc::new(derived),
            kept_tables: Default::default(),
        }),
        (None, None) if resolved.is_empty() => None,
        _ => return Err(corrupt()),
    };
    let data = SnapshotData {
        extractor: head.extractor,
        repo: head.repo,
        root: head.root,
        indexed_at_ms: head.indexed_at_ms,
        files,
        skipped: head.skipped,
        failures: head.failures,
        config: head.config,
        config_files: head.config_files,
        skipped_stats: head.skipped_stats,
        resolution,
    };
    Ok((data, bytes.len() as u64))
}

/// One section of a body: where its bytes are and their checksum.
struct Section {
    kind: Kind,
    at: usize,
    len: usize,
    hash: u64,
}

/// A section decoded.
enum Part {
    Files(Vec<FileRecord>),
    Resolved(Vec<(Arc<str>, Arc<ResolvedFile>)>),
    Derived(DerivedTables),
}

impl Part {
    fn files(&self) -> usize {
        match self {
            Part::Files(f) => f.len(),
            _ => 0,
        }
    }
}

/// The sections of a body and the checksum of their headers; `None` when a header is cut off,
/// names an unknown kind, or runs past the end.
fn section_table(body: &[u8]) -> Option<(Vec<Section>, u64)> {
    let mut table = Xxh3::new();
    let mut sections = Vec::new();
    let mut at = 0usize;
    while at < body.len() {
        let header = body.get(at..at + SECTION_HEADER_LEN)?;
        table.update(header);
        let kind = Kind::of(header[0])?;
        let len = usize::try_from(u64::from_le_bytes(header[1..9].try_into().ok()?)).ok()?;
        let hash = u64::from_le_bytes(header[9..].try_into().ok()?);
        let start = at + SECTION_HEADER_LEN;
        let end = start.checked_add(len).filter(|&e| e <= body.len())?;
        sections.push(Section {
            kind,
            at: start,
            len,
            hash,
        });
        at = end;
    }
    Some((sections, table.digest()))
}

/// Hands the whole pages inside `[at, at + len)` of a mapped snapshot back to the kernel, once
/// nothing reads them again (unix; elsewhere the mapping is simply dropped after the load).
#[cfg(unix)]
fn release_pages(map: &memmap2::Mmap, at: usize, len: usize) {
    // SAFETY: sysconf has no preconditions.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        size if size > 0 => size as usize,
        _ => return,
    };
    let start = at.div_ceil(page) * page;
    let end = (at + len) / page * page;
    if end > start {
        // SAFETY: the range lies inside the mapping, and its bytes belong to one section that is
        // decoded already and never read again (a page shared with a neighbour is left alone).
        let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start) };
    }
}

#[cfg(not(unix))]
fn release_pages(_map: &memmap2::Mmap, _at: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orphaned_temporaries_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
        let write = |name: &str, mtime: Option<std::time::SystemTime>| {
            let path = dir.path().join(name);
            let file = std::fs::File::create(&path).unwrap();
            if let Some(t) = mtime {
                file.set_modified(t).unwrap();
            }
            path
        };
        // A writer that no longer exists (beyond any pid_max), killed long ago.
        let orphan = write(".r-0a.snap.4294967.0.tmp", Some(past));
        // This process's own write under way, and a live writer's (pid 1 always runs).
        let own = write(&format!(".r-0a.snap.{}.3.tmp", std::process::id()), Some(past));
        let live = write(
            ".r-0a.snap.1.0.tmp",
            Some(std::time::SystemTime::now() - std::time::Duration::from_secs(1800)),
        );
        // Written after this process started looking: possibly a writer in another pid namespace.
        // Its mtime lags the sweep by a second, as a coarse filesystem clock can make it.
        remove_orphaned_temps(dir.path());
        let recent = write(
            ".r-0b.snap.4294968.0.tmp",
            Some(std::time::SystemTime::now() - std::time::Duration::from_secs(1)),
        );
        let snapshot = write("r-0a.snap", Some(past));
        let other = write("notes.tmp", Some(past));
        let removed = remove_orphaned_temps(dir.path());
        assert!(!orphan.exists());
        assert_eq!(removed, 0, "the first sweep removed the orphan already");
        for kept in [&own, &live, &recent, &snapshot, &other] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
    }

    /// A snapshot of `n` files (each with one symbol and a resolution), saved and loaded back.
    fn round_trip(n: usize) -> (SnapshotData, SnapshotData, PathBuf, tempfile::TempDir) {
        use gortex_core::{FileFacts, Language, NodeKind, Span, SymbolFact};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.snap");
        let files: Vec<FileRecord> = (0..n)
            .map(|i| {
                let mut facts = FileFacts::default();
                facts
                    .symbols
                    .push(SymbolFact::new(format!("f{i}"), NodeKind::Function, Span::default()));
                FileRecord {
                    path: Arc::from(format!("src/{i:05}.ts")),
                    language: Language::TypeScript,
                    size: i as u64,
                    mtime_ns: 7,
                    hash: i as u64 * 31,
                    facts: Arc::new(facts),
                }
            })
            .collect();
        let resolution = ResolutionCache {
            fingerprint: "fp".into(),
            files: files
                .iter()
                .map(|f| {
                    let resolved = ResolvedFile {
                        paths: vec![f.path.to_string()],
                        deps: vec![f.hash],
                        ..Default::default()
                    };
                    (Arc::clone(&f.path), Arc::new(resolved))
                })
                .collect(),
            ..Default::default()
        };
        let owned = SnapshotData {
            extractor: gortex_lang::EXTRACTOR_FINGERPRINT.into(),
            repo: "r".into(),
            root: "/r".into(),
            indexed_at_ms: 7,
            files,
            skipped: vec![Skipped {
                path: "a".into(),
                reason: crate::SkipReason::Binary,
                detail: None,
            }],
            failures: Vec::new(),
            config: RepoConfig::default(),
            config_files: vec![("go.mod".into(), 3)],
            skipped_stats: vec![("a".into(), 1, 2)],
            resolution: Some(resolution),
        };
        let borrowed = SnapshotRef {
            extractor: &owned.extractor,
            repo: &owned.repo,
            root: &owned.root,
            indexed_at_ms: owned.indexed_at_ms,
            files: &owned.files,
            skipped: &owned.skipped,
            failures: &owned.failures,
            config: &owned.config,
            config_files: &owned.config_files,
            skipped_stats: &owned.skipped_stats,
            resolution: owned.resolution.as_ref(),
        };
        save(&path, &borrowed).unwrap();
        let (loaded, bytes) = load(&path).unwrap();
        assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
        (owned, loaded, path, dir)
    }

    #[test]
    fn a_snapshot_of_many_sections_loads_back_the_same_in_order() {
        let n = FILES_PER_SECTION * 9 + 17;
        let (owned, loaded, path, _dir) = round_trip(n);
        assert_eq!(loaded.files, owned.files);
        assert_eq!(loaded.resolution, owned.resolution);
        assert_eq!(loaded.skipped, owned.skipped);
        assert_eq!(loaded.config_files, owned.config_files);
        assert_eq!(loaded.skipped_stats, owned.skipped_stats);
        assert_eq!(
            (loaded.repo.as_str(), loaded.root.as_str(), loaded.indexed_at_ms),
            ("r", "/r", 7)
        );
        // One head, ten sections of files and of resolutions, the derived tables.
        let bytes = std::fs::read(&path).unwrap();
        let (sections, _) = section_table(&bytes[HEADER_LEN..]).unwrap();
        let kinds: Vec<Kind> = sections.iter().map(|s| s.kind).collect();
        let mut expected = vec![Kind::Head];
        expected.extend([Kind::Files; 10]);
        expected.extend([Kind::Resolved; 10]);
        expected.push(Kind::Derived);
        assert_eq!(kinds, expected);
    }

    #[test]
    fn a_damaged_section_or_table_is_refused_by_name() {
        let (_, _, path, _dir) = round_trip(FILES_PER_SECTION * 2);
        let good = std::fs::read(&path).unwrap();
        let (sections, _) = section_table(&good[HEADER_LEN..]).unwrap();
        let damage = |at: usize| {
            let mut bytes = good.clone();
            bytes[at] ^= 0x55;
            std::fs::write(&path, &bytes).unwrap();
            load(&path).map(|_| ()).unwrap_err()
        };
        // A byte inside the second files section, and one in its header's checksum.
        let second = &sections[2];
        assert!(matches!(
            damage(HEADER_LEN + second.at + second.len / 2),
            SnapshotError::Checksum(_)
        ));
        assert!(matches!(damage(HEADER_LEN + second.at - 2), SnapshotError::Checksum(_)));
        // A section's length pointing past the end.
        assert!(matches!(damage(HEADER_LEN + second.at - 10), SnapshotError::Corrupt(_)));
        // A snapshot with no sections at all.
        let mut empty = good[..HEADER_LEN].to_vec();
        empty[12..20].copy_from_slice(&0u64.to_le_bytes());
        std::fs::write(&path, &empty).unwrap();
        assert!(matches!(
            load(&path).map(|_| ()).unwrap_err(),
            SnapshotError::Checksum(_) | SnapshotError::Corrupt(_)
        ));
    }
}
