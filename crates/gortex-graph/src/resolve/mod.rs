//! The resolver: binds the names extractors report to nodes, stamping each edge with the tier
//! its evidence earns.
//!
//! Cascade for a name used in file F: local bindings (declared/constructed types) → F's own
//! declarations → F's imports (module resolution per language, re-export chains followed) →
//! the same package/directory (Go, Java) → wildcard imports → name-only (`text_matched`, only
//! when exactly one same-language candidate exists). Member accesses resolve the receiver to a
//! type first (self/super/fields/bindings/imports/static type names, class hierarchy included).
//! Anything not earned stays an `Unresolved` placeholder.
//!
//! Map of the submodules, in the order a build uses them:
//! - [`tables`]: the read-only lookup tables over every file, and the ones derived from them
//!   (import targets, C include closures, method owners, supertypes);
//! - [`kept`]: the tables kept from one build for the next, re-pointed or patched per file;
//! - [`render`]: the derived tables rendered in path space, for change detection;
//! - [`lookups`]: table reads that note the dependency keys incremental builds rely on;
//! - [`modules`]: an import's module specifier resolved per language (one file per family);
//! - [`namespaces`]: namespace blocks that merge across files (TypeScript, C++, Ruby);
//! - [`members`]: what a module, type or external path exposes under a name;
//! - [`cascade`]: a name, type or receiver path as a file sees it;
//! - [`callee`]: a call's target, by the kind of receiver;
//! - [`builtins`]: the names each language's runtime declares for every file, as data;
//! - [`emit`]: one file's imports and references turned into edges, externals and placeholders.

mod builtins;
mod callee;
mod cascade;
mod emit;
mod kept;
mod lookups;
mod members;
mod modules;
mod namespaces;
mod render;
mod tables;

use crate::cache::ResolvedFile;
use crate::deps;

pub(crate) use kept::KeptTables;
pub(crate) use modules::python::python_module_keys;
pub(crate) use modules::rust::rust_module_of;
pub(crate) use tables::top_level_names;
use tables::Tables;

/// A symbol: (file index, symbol index within the file's facts).
pub(crate) type Sym = (u32, u32);

/// What a name or module path denotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Entity {
    /// A module: one file (TS, Python, Rust) or a package's files (Go, Java).
    Files(Vec<u32>),
    /// A declaration.
    Sym(Sym),
    /// Outside the repository: the dotted/`::` path of the thing.
    External(String),
    /// A Python namespace package (a directory without `__init__.py`).
    Dir(String),
}

/// How deep chains (re-exports, return-type inference, inheritance) are followed.
const MAX_DEPTH: u32 = 8;

/// Resolves every import and reference of one file, recording its dependency keys.
pub(crate) fn resolve_file(t: &Tables<'_>, fi: u32) -> ResolvedFile {
    let (mut out, deps) = deps::record(|| emit::emit_file(t, fi));
    out.deps = deps;
    out
}
