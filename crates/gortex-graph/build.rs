//! Fingerprints the resolver sources so persisted resolutions from another resolver are
//! discarded (facts stay valid: they come from the extractors, fingerprinted separately).

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

fn main() {
    let src = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("src");
    println!("cargo:rerun-if-changed={}", src.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        if let Ok(bytes) = std::fs::read(f) {
            f.file_name().hash(&mut hasher);
            bytes.hash(&mut hasher);
        }
    }
    println!("cargo:rustc-env=GORTEX_RESOLVER_FINGERPRINT={:016x}", hasher.finish());
}
