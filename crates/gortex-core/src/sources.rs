//! Where a repository's file bytes are read from: the disk under its root, or an overlay of
//! unsaved buffers (replaced, added or deleted files) over it. Every crate that reads a
//! repository file after indexing (the text index, clone bodies, dataflow facts) reads through
//! one of these, so an overlay view answers from its buffers without code of its own.

use std::collections::BTreeMap;
use std::io::{Error, ErrorKind, Read, Result};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Overlaid files by repository-relative path: `Some(bytes)` replaces or adds, `None` deletes.
pub type OverlayFiles = BTreeMap<String, Option<Arc<[u8]>>>;

/// What a path holds, learnt without opening it (opening a FIFO would block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A regular file of this many bytes.
    File(u64),
    /// Something else (a directory, a FIFO, …), described.
    Other(String),
}

/// A repository's file reader: its root on disk and, for an overlay view, the buffers over it.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    root: PathBuf,
    overlay: Option<Arc<OverlayFiles>>,
}

impl Sources {
    /// Files as they are on disk under `root`.
    pub fn disk(root: &Path) -> Sources {
        Sources {
            root: root.to_path_buf(),
            overlay: None,
        }
    }

    /// Files on disk under `root`, except those `overlay` replaces, adds or deletes.
    pub fn with_overlay(root: &Path, overlay: Arc<OverlayFiles>) -> Sources {
        Sources {
            root: root.to_path_buf(),
            overlay: Some(overlay),
        }
    }

    /// The repository root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The overlay's entry for `rel`: `Some(Some(bytes))` replaced or added, `Some(None)`
    /// deleted, `None` when the disk answers.
    pub fn overlaid(&self, rel: &str) -> Option<Option<&Arc<[u8]>>> {
        self.overlay.as_ref()?.get(rel).map(Option::as_ref)
    }

    /// Whether both read the same files: the same root and the very same overlay (or none).
    pub fn same(&self, other: &Sources) -> bool {
        self.root == other.root
            && match (&self.overlay, &other.overlay) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }

    /// What `rel` holds, without opening it.
    pub fn probe(&self, rel: &str) -> Result<Probe> {
        match self.overlaid(rel) {
            Some(Some(bytes)) => Ok(Probe::File(bytes.len() as u64)),
            Some(None) => Err(deleted(rel)),
            None => {
                let meta = std::fs::symlink_metadata(self.root.join(rel))?;
                if meta.file_type().is_file() {
                    Ok(Probe::File(meta.len()))
                } else {
                    Ok(Probe::Other(format!("{:?}", meta.file_type())))
                }
            }
        }
    }

    /// The bytes of `rel`, at most `cap + 1` of them (so a caller can tell a file over its cap).
    pub fn read_capped(&self, rel: &str, cap: u64) -> Result<Vec<u8>> {
        match self.overlaid(rel) {
            Some(Some(bytes)) => Ok(bytes[..bytes.len().min(cap.saturating_add(1) as usize)].to_vec()),
            Some(None) => Err(deleted(rel)),
            None => {
                let file = std::fs::File::open(self.root.join(rel))?;
                let mut content = Vec::new();
                file.take(cap.saturating_add(1)).read_to_end(&mut content)?;
                Ok(content)
            }
        }
    }

    /// The bytes of `rel`.
    pub fn read(&self, rel: &str) -> Result<Vec<u8>> {
        self.read_capped(rel, u64::MAX - 1)
    }
}

impl From<&Path> for Sources {
    fn from(root: &Path) -> Sources {
        Sources::disk(root)
    }
}

impl From<&PathBuf> for Sources {
    fn from(root: &PathBuf) -> Sources {
        Sources::disk(root)
    }
}

impl From<&Sources> for Sources {
    fn from(sources: &Sources) -> Sources {
        sources.clone()
    }
}

fn deleted(rel: &str) -> Error {
    Error::new(ErrorKind::NotFound, format!("{rel} is deleted in the overlay"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_answers_before_the_disk() {
        let dir = std::env::temp_dir().join(format!("gortex-sources-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), "disk").unwrap();
        std::fs::write(dir.join("b.txt"), "disk b").unwrap();
        let mut files = OverlayFiles::new();
        files.insert("a.txt".into(), Some(Arc::from(&b"buffer"[..])));
        files.insert("b.txt".into(), None);
        files.insert("new.txt".into(), Some(Arc::from(&b"added"[..])));
        let view = Sources::with_overlay(&dir, Arc::new(files));
        assert_eq!(view.read("a.txt").unwrap(), b"buffer");
        assert_eq!(view.read("new.txt").unwrap(), b"added");
        assert_eq!(view.read("b.txt").unwrap_err().kind(), ErrorKind::NotFound);
        assert_eq!(view.probe("a.txt").unwrap(), Probe::File(6));
        assert_eq!(view.read_capped("a.txt", 2).unwrap(), b"buf");
        let disk = Sources::disk(&dir);
        assert_eq!(disk.read("a.txt").unwrap(), b"disk");
        assert!(!disk.same(&view) && view.same(&view.clone()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
