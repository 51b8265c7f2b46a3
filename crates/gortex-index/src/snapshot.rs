//! The on-disk snapshot of a repository's index: versioned, checksummed, written atomically.
//!
//! Layout: magic `GORTEXSN`, format version (u32 LE), body length (u64 LE), xxh3 checksum of the
//! body (u64 LE), then the postcard-encoded [`SnapshotData`]. The graph itself is derived on load
//! from the stored per-file facts, so a snapshot never disagrees with the resolver in the binary.
//!
//! The last stage of indexing: the per-file facts, file stats, config and the per-file
//! resolutions (`gortex-graph`'s `cache.rs`) are streamed into one checksummed snapshot (temp
//! file, fsync, rename) and mapped (mmap) on load. Node ids and adjacency are re-derived on load;
//! resolutions are reused only when the resolver fingerprint and configuration hash match. A
//! corrupt, truncated, old-format or foreign snapshot is rebuilt and the reason reported.

use crate::{Failure, FileRecord, Skipped};
use gortex_graph::{RepoConfig, ResolutionCache};
use serde::{Deserialize, Serialize};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

const MAGIC: &[u8; 8] = b"GORTEXSN";
/// Bumped whenever [`SnapshotData`]'s encoding changes (3: C/C++ languages, include directories;
/// 4: `SymbolFact::doc_text`; 5: `Receiver::Chain`, `BindingValue::Callback`).
pub const FORMAT_VERSION: u32 = 5;
const HEADER_LEN: usize = 8 + 4 + 8 + 8;

/// Everything persisted for one repository.
#[derive(Debug, Clone, Serialize, Deserialize)]
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

/// The same fields as [`SnapshotData`], borrowed, so saving never copies the index.
/// Postcard encodes fields in order, so the two types share one encoding (a test checks it).
#[derive(Serialize)]
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
        // Header with a placeholder length and checksum; the body is streamed (never held whole
        // in memory) and the header completed afterwards.
        file.write_all(MAGIC)?;
        file.write_all(&FORMAT_VERSION.to_le_bytes())?;
        file.write_all(&[0u8; 16])?;
        let mut body = HashingWriter {
            inner: std::io::BufWriter::with_capacity(1 << 20, &mut file),
            hash: Xxh3::new(),
            len: 0,
        };
        postcard::to_io(data, &mut body).map_err(|e| std::io::Error::other(e.to_string()))?;
        body.inner.flush()?;
        let (len, sum) = (body.len, body.hash.digest());
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

/// Counts and hashes what passes through to the file.
struct HashingWriter<W: Write> {
    inner: W,
    hash: Xxh3,
    len: u64,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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
    if body.len() != len {
        return Err(SnapshotError::Corrupt(path.to_path_buf()));
    }
    if xxhash_rust::xxh3::xxh3_64(body) != sum {
        return Err(SnapshotError::Checksum(path.to_path_buf()));
    }
    let data: SnapshotData = postcard::from_bytes(body).map_err(|e| SnapshotError::Decode {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    if data.extractor != gortex_lang::EXTRACTOR_FINGERPRINT {
        return Err(SnapshotError::Extractor(path.to_path_buf()));
    }
    Ok((data, bytes.len() as u64))
}

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

    #[test]
    fn borrowed_and_owned_snapshots_share_one_encoding() {
        let owned = SnapshotData {
            extractor: "x".into(),
            repo: "r".into(),
            root: "/r".into(),
            indexed_at_ms: 7,
            files: Vec::new(),
            skipped: vec![Skipped {
                path: "a".into(),
                reason: crate::SkipReason::Binary,
                detail: None,
            }],
            failures: Vec::new(),
            config: RepoConfig::default(),
            config_files: vec![("go.mod".into(), 3)],
            skipped_stats: vec![("a".into(), 1, 2)],
            resolution: Some(ResolutionCache::default()),
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
        let bytes = postcard::to_stdvec(&borrowed).unwrap();
        let decoded: SnapshotData = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(decoded.skipped, owned.skipped);
        assert_eq!(decoded.config_files, owned.config_files);
        assert_eq!(decoded.resolution, owned.resolution);
    }
}
