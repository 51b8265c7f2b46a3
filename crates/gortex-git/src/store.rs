//! The mined history on disk: postcard behind a magic and a layout version, written atomically
//! (a temporary file renamed over the old one). A file that does not read back (another version,
//! truncated, corrupt) is ignored and the history mined again; it is a cache, never user data.

use crate::mine::{Mined, MINED_VERSION};
use std::io::Write;
use std::path::Path;

const MAGIC: &[u8; 8] = b"GXHIST01";

/// Reads a saved history; `None` when absent or unreadable.
pub fn load(path: &Path) -> Option<Mined> {
    let bytes = std::fs::read(path).ok()?;
    let body = bytes.strip_prefix(MAGIC.as_slice())?;
    let mined: Mined = postcard::from_bytes(body).ok()?;
    (mined.version == MINED_VERSION).then_some(mined)
}

/// Saves `mined` to `path` atomically; the bytes written.
pub fn save(path: &Path, mined: &Mined) -> std::io::Result<u64> {
    let body = postcard::to_allocvec(mined).map_err(std::io::Error::other)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(MAGIC)?;
        f.write_all(&body)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok((MAGIC.len() + body.len()) as u64)
}
