//! File watching for the daemon and embedded sessions: the OS watcher (inotify, FSEvents,
//! ReadDirectoryChangesW through `notify`) on a thread of its own, its events reduced to
//! repository-relative paths outside ignored directories and handed to JavaScript in batches.
//! Symlinks are not followed: what lies below a linked directory (perhaps outside the repository)
//! is neither watched nor reported, as the indexer never reads it.
//! Node's own recursive `fs.watch` on Linux keeps one JavaScript watcher per file and reads a
//! directory on the event loop for every event; a checkout or a code generator touching hundreds
//! of files then stalls every session for seconds.

use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use notify::{Event, EventKind, RecursiveMode, Watcher};
use serde_json::json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest a batch is held while events keep arriving.
const MAX_BATCH_HOLD: Duration = Duration::from_secs(1);
/// Most paths one batch lists; beyond it the batch says `overflow` (the consumer re-scans).
const MAX_BATCH_PATHS: usize = 10_000;

/// A recursive watch of one repository (`new RepoWatcher(root, ignoredDirs, batchMs, onBatch)`).
/// `onBatch` receives JSON `{paths, overflow, rescan, errors}`: changed repository-relative paths
/// (none under a directory named in `ignoredDirs`), whether paths were dropped past the batch
/// cap, whether the OS asked for a full re-scan (its queue overflowed), and watcher errors.
#[napi]
pub struct RepoWatcher {
    watcher: Option<notify::RecommendedWatcher>,
}

#[napi]
impl RepoWatcher {
    /// Starts watching `root` recursively.
    #[napi(constructor)]
    pub fn new(
        root: String,
        ignored_dirs: Vec<String>,
        batch_ms: u32,
        on_batch: ThreadsafeFunction<String>,
    ) -> Result<Self> {
        let root = std::fs::canonicalize(&root).map_err(|e| Error::from_reason(format!("cannot watch {root}: {e}")))?;
        let (tx, rx) = channel::<notify::Result<Event>>();
        // Links are not followed (notify follows them by default): a directory symlink would
        // otherwise be watched wherever it points, outside the repository included, and its
        // changes reported as the repository's. The indexer never reads below a link either.
        let config = notify::Config::default().with_follow_symlinks(false);
        let mut watcher = notify::RecommendedWatcher::new(
            move |event| {
                let _ = tx.send(event);
            },
            config,
        )
        .map_err(|e| Error::from_reason(format!("cannot create a file watcher: {e}")))?;
        watcher
            .watch(&root, RecursiveMode::Recursive)
            .map_err(|e| Error::from_reason(format!("cannot watch {}: {e}", root.display())))?;
        let on_batch = Arc::new(on_batch);
        let quiet = Duration::from_millis(u64::from(batch_ms.max(1)));
        std::thread::Builder::new()
            .name("gortex-watch".into())
            .spawn(move || batch_loop(&root, &ignored_dirs, quiet, &rx, &on_batch))
            .map_err(|e| Error::from_reason(format!("cannot start the watcher thread: {e}")))?;
        Ok(RepoWatcher { watcher: Some(watcher) })
    }

    /// Stops watching (idempotent); the batching thread ends when the OS watcher is dropped.
    #[napi]
    pub fn close(&mut self) {
        self.watcher = None;
    }
}

/// Whether `rel` lies under a directory whose name is in `ignored`.
fn ignored(rel: &Path, ignored: &[String]) -> bool {
    rel.components()
        .any(|c| ignored.iter().any(|d| c.as_os_str() == d.as_str()))
}

/// Collects events until `quiet` passes without one (or `MAX_BATCH_HOLD` since the first), then
/// hands the batch over; ends when the watcher is dropped (the channel closes).
fn batch_loop(
    root: &Path,
    ignored_dirs: &[String],
    quiet: Duration,
    rx: &std::sync::mpsc::Receiver<notify::Result<Event>>,
    on_batch: &ThreadsafeFunction<String>,
) {
    let mut paths: BTreeSet<String> = BTreeSet::new();
    let mut overflow = false;
    let mut rescan = false;
    let mut errors: Vec<String> = Vec::new();
    let mut first: Option<Instant> = None;
    loop {
        let wait = match first {
            None => Duration::from_secs(3600),
            Some(t) => quiet.min(MAX_BATCH_HOLD.saturating_sub(t.elapsed())),
        };
        match rx.recv_timeout(wait) {
            Ok(Ok(event)) => {
                if event.need_rescan() {
                    rescan = true;
                }
                if matches!(event.kind, EventKind::Access(_)) {
                    continue;
                }
                let mut kept = false;
                for path in &event.paths {
                    let rel: PathBuf = match path.strip_prefix(root) {
                        Ok(r) => r.to_path_buf(),
                        Err(_) => continue,
                    };
                    if rel.as_os_str().is_empty() || ignored(&rel, ignored_dirs) {
                        continue;
                    }
                    kept = true;
                    if paths.len() < MAX_BATCH_PATHS {
                        paths.insert(rel.to_string_lossy().replace('\\', "/"));
                    } else {
                        overflow = true;
                    }
                }
                if (kept || rescan) && first.is_none() {
                    first = Some(Instant::now());
                }
            }
            Ok(Err(error)) => {
                errors.push(error.to_string());
                first.get_or_insert_with(Instant::now);
            }
            Err(RecvTimeoutError::Timeout) => {
                if first.is_none() {
                    continue;
                }
                let payload = json!({
                    "paths": std::mem::take(&mut paths).into_iter().collect::<Vec<_>>(),
                    "overflow": overflow,
                    "rescan": rescan,
                    "errors": std::mem::take(&mut errors),
                });
                overflow = false;
                rescan = false;
                first = None;
                on_batch.call(Ok(payload.to_string()), ThreadsafeFunctionCallMode::NonBlocking);
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
