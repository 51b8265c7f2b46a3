//! The resolver: binds the names extractors report to nodes, stamping each edge with the tier
//! its evidence earns.
//!
//! Every edge carries an `origin` (tier). The cascade for a name used in file F:
//!
//! 1. local bindings in scope (`x: Foo`, `x = new Foo()`, `Foo x`, `x := &Foo{}`,
//!    `let x = Foo::new()`) → the declared/constructed type (`ast_resolved`); `x = f()` → `f`'s
//!    declared return type (`ast_inferred`);
//! 2. F's own declarations; nested declarations of enclosing functions;
//! 3. F's imports, by language (module resolution per language, re-export chains followed: the
//!    per-language rules are listed in [`modules`]);
//! 4. same package (Go directory + package name, Java/Kotlin package, Swift module, PHP namespace,
//!    C# namespace and its parents) and merged TypeScript namespace blocks (`namespace ts { … }`
//!    in many files is one scope);
//! 5. wildcard imports (`from m import *`, `use m::*`, `import a.b.*`);
//! 6. member access resolves the receiver to a type first: `this`/`self` (enclosing type),
//!    `super`, fields (`this.repo.save()`), bindings, imports (namespaces, modules), static type
//!    names, Java's, Kotlin's, Swift's, C#'s, C++'s and Ruby's implicit `this`/`self`
//!    (out-of-line `Foo::bar` bodies see `Foo`'s members); members are looked up through the
//!    class hierarchy (`extends`, `implements`, Go embedding) breadth-first;
//! 7. otherwise name-only: `text_matched` only when exactly one same-language candidate of a
//!    fitting kind exists in the repository, and never when the receiver is a known global or an
//!    unresolvable type name (`String::new()` does not bind to the repo's only `new`). Anything
//!    else stays an `Unresolved` placeholder (`unresolved::name`, `unresolved::*.name`) with its
//!    candidate count, for caveats and later passes.
//!
//! Calls whose target is a class become `instantiates`; calls from a test symbol to a non-test
//! symbol also emit `tests`. Chains (re-exports, return-type inference, inheritance) are
//! followed at most [`MAX_DEPTH`] (8) deep.
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
