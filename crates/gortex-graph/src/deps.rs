//! Dependency keys recorded while a file is resolved: which files, directories, names and
//! module paths its lookups consulted. An incremental build re-resolves a file only when one of
//! its keys is among the keys a change touches.
//!
//! Resolving a file is a pure function of the repository's facts. While a file is resolved,
//! every lookup that reads another file or a global table records a dependency key: the file
//! paths it read or probed, directories, names it looked up globally, Python/Java/Rust module
//! names. Results are kept in *path space* (`Endpoint::Symbol(path, symbol index)`, `cache.rs`),
//! so they survive node renumbering and can be persisted. On the next build, the keys a change
//! touches are: the changed files' paths and directories, names whose declarations appeared or
//! disappeared, their module names, and the files whose whole-repository tables (import targets,
//! supertypes, detached-method owners — recomputed every build and compared) changed. Only files
//! whose recorded keys intersect that set are resolved again; the rest reuse their previous
//! result (an `Arc` clone). A property test (`gortex-index/tests/incremental.rs`) applies random
//! edit sequences (modify, add, delete, rename files; rename identifiers across files; add
//! importers of modules that do not exist yet) and checks the result against a clean build after
//! every step, through both `refresh` and `update_paths`; mutating the key recording makes it
//! fail.
//!
//! # Interfaces
//!
//! An edit that other files cannot see — a body, a comment, lines moved — keeps the file's
//! *interface* (`FileFacts::same_interface`: package, test runner, imports, declarations and
//! bindings, ignoring spans, lines, docs and the file's own references). Such a change touches no
//! keys: only the file itself is resolved again (other files point at its symbols by index, which
//! the same interface keeps; hierarchy changes made through its references still show in the
//! derived tables). On TypeScript's whole tree this turned a body edit in a widely read file from
//! 168 re-resolved files (4.7 s) into one (≈ 35 ms). The property test's edits include line
//! shifts at the top and middle.
//!
//! # Misses: [`NAME`] and [`IMPORTS`]
//!
//! A lookup that *misses* in a file depends on that file less than one that finds something:
//! asking a file for a top-level name it does not declare notes the name ([`NAME`]), not the
//! file, and the re-export scan that follows notes the file's imports ([`IMPORTS`]). A change
//! touches `NAME` for every name that became or stopped being top-level in a changed file and
//! `IMPORTS` when a file's imports changed. So an importer that probed a package's files for
//! `Pod` is not redone when another file of the package declares something new: a function
//! appended to `staging/src/k8s.io/api/core/v1/resource.go` re-resolves 55 files instead of 1,799
//! (≈ 230 ms instead of ≈ 1.4 s). Lists that are not keyed themselves (a C file's include
//! closure) note each file they visit. The same holds for TypeScript namespaces merged across
//! files: a member lookup notes the member's name for the blocks it scans and the file of the
//! block where it finds it (TypeScript's own `namespace ts` spans most of its sources: noting
//! every block's file made a function appended to one of them redo thousands of files). Since
//! such a miss sees a member that moves into the namespace from a nested one only through its
//! name, a change touches `NAME` also for declarations whose enclosing declaration changed.
//!
//! # Hits: [`SYMBOLS`] and [`FILE`]
//!
//! A hit depends on a file less than a scan of it: a reader that found a symbol by index, or by a
//! name it noted (`NAME`) — a namespace member, a top-level declaration, the target of an edge —
//! notes the file's [`SYMBOLS`], not the file; reads of anything else (a type's members, a file's
//! imports or facts as a whole) still note [`FILE`]. When the edited file only gained
//! declarations after its last one (`FileFacts::appended_to_by`: every earlier symbol the same at
//! the same index, imports and bindings unchanged: a function added at the end of a file or of
//! its last namespace block), the change touches `FILE` and the new symbols' names but not
//! `SYMBOLS`. A function appended to TypeScript's `src/compiler/transformers/utilities.ts`
//! re-resolves 3 files instead of 22 (the transformers that call into it; refs ≈ 35 ms instead of
//! ≈ 120). Any other interface change touches both.

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
    // The recording noted every lookup (thousands per file); the unique keys are a few dozen, and
    // they are kept with the resolution for the life of the index.
    keys.shrink_to_fit();
    (out, keys)
}
