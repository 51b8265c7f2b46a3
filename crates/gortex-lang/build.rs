//! Fingerprints the extractor sources (Rust modules + query files) so persisted facts from an
//! older extractor are detected and re-parsed instead of being trusted.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let mut files = Vec::new();
    for dir in [manifest.join("src"), manifest.join("../../grammars")] {
        println!("cargo:rerun-if-changed={}", dir.display());
        collect(&dir, &mut files);
    }
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        if let Ok(bytes) = std::fs::read(f) {
            f.file_name().hash(&mut hasher);
            bytes.hash(&mut hasher);
        }
    }
    println!("cargo:rustc-env=GORTEX_EXTRACTOR_FINGERPRINT={:016x}", hasher.finish());
}
