//! Dependency keys recorded while a file is resolved: which files, directories, names and
//! module paths its lookups consulted. An incremental build re-resolves a file only when one of
//! its keys is among the keys a change touches.

use std::cell::RefCell;

/// A file path (also used for path probes that missed: a later file at that path matters).
pub const FILE: u8 = 1;
/// A directory (Go packages, Python namespace packages).
pub const DIR: u8 = 2;
/// A declared name (global name-only lookups).
pub const NAME: u8 = 3;
/// A dotted Python module name.
pub const PY_MODULE: u8 = 4;
/// A Java package or C# namespace.
pub const JAVA_PACKAGE: u8 = 5;
/// A Rust module path (`a::b`).
pub const RUST_MODULE: u8 = 6;
/// A file's import statements (read when a name it does not declare may be re-exported).
pub const IMPORTS: u8 = 7;
/// A file's symbols as found by index or through a name that was noted too (a NAME key): what
/// declarations appended after the last one leave alone (see `FileFacts::appended_to_by`). A
/// reader that scans a file's symbols or other data notes FILE instead.
pub const SYMBOLS: u8 = 8;

thread_local! {
    static RECORDER: RefCell<Option<Vec<u64>>> = const { RefCell::new(None) };
}

/// The stable key of a (tag, text) pair. xxh3 so persisted keys survive library upgrades.
pub fn key(tag: u8, text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(text.as_bytes(), tag as u64)
}

/// Notes a dependency when a recording is active on this thread (a cheap no-op otherwise).
pub fn note(tag: u8, text: &str) {
    RECORDER.with(|r| {
        if let Some(keys) = r.borrow_mut().as_mut() {
            let k = key(tag, text);
            // Lookups repeat in runs (the same file read many times in a row): skip those early.
            if keys.last() != Some(&k) {
                keys.push(k);
            }
        }
    });
}

/// Runs `f` while recording the keys it notes; returns its result and the sorted, unique keys.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Vec<u64>) {
    RECORDER.with(|r| *r.borrow_mut() = Some(Vec::new()));
    let out = f();
    let mut keys = RECORDER.with(|r| r.borrow_mut().take()).unwrap_or_default();
    keys.sort_unstable();
    keys.dedup();
    (out, keys)
}
