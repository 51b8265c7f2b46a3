//! Fingerprints the resolver sources so persisted resolutions from another resolver are
//! discarded (facts stay valid: they come from the extractors, fingerprinted separately).

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Every file under `dir`, recursively (the resolver lives in `src/resolve/`), except the read-only
/// queries in `src/query/`: they never change what a snapshot stores.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "query") {
                continue;
            }
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let src = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("src");
    println!("cargo:rerun-if-changed={}", src.display());
    let mut files = Vec::new();
    files_under(&src, &mut files);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        if let Ok(bytes) = std::fs::read(f) {
            f.strip_prefix(&src).unwrap_or(f).hash(&mut hasher);
            bytes.hash(&mut hasher);
        }
    }
    println!("cargo:rustc-env=GORTEX_RESOLVER_FINGERPRINT={:016x}", hasher.finish());
}
