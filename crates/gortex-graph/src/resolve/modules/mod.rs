//! Module resolution: what an import statement's module specifier denotes, by language (one
//! file per language family), and the path helpers the path-based families share.
//!
//! Step 3 of the cascade (see the parent module): F's imports, by language.
//!
//! - **TypeScript/JavaScript** ([`ecmascript`]): relative paths, `index` files, `.js`→`.ts`,
//!   barrel re-exports (named and `export *`), tsconfig `paths`/`baseUrl`, workspace
//!   `package.json` `exports`.
//! - **Vue/Svelte** components resolve as TypeScript (`./X.vue` exactly, or `.vue`/`.svelte`
//!   appended last).
//! - **Python** ([`python`]): absolute modules (any source root, preferring the importer's) and
//!   relative modules, `__init__` re-exports and submodules.
//! - **Go** ([`go`]): import paths through `go.mod` module paths.
//! - **Rust** ([`rust`]): `crate::`/`self::`/`super::`/crate names/`mod` declarations/`pub use`.
//! - **Java** ([`packages`], as the next four): packages and static imports.
//! - **C#**: namespaces the same way (`using A.B;`, `using static`, `using X = A.B.C;`), a file
//!   also seeing its enclosing namespaces.
//! - **Kotlin**: packages and imports (`as` aliases) as Java's, with the standard library's
//!   implicit top-level functions as externals.
//! - **Scala**: packages and imports the same way (`import a.b.{C, D => E}`, `a.b._`, Scala 3
//!   `as`), `scala.Predef` names as externals, capitalised calls (`Order(1)`) as instantiations.
//! - **Swift**: modules (the SwiftPM target from the path under a `Package.swift`, else the
//!   repository's unnamed module) in the same package table, `import M` naming a module, the
//!   standard library, `XCT…` names and (where imported) Foundation, Quick and Nimble names as
//!   externals, a supertype that is a class `extends` and the rest `implements`, and
//!   `extension T: P` conforming T.
//! - **PHP**: namespaces as dotted packages (`use A\B\C;`, grouped and aliased), fully qualified
//!   names through their namespace, and unqualified calls nothing declares as global built-ins
//!   (`external::php.count`).
//! - **Ruby** ([`ruby`]): `require_relative` (beside the file) and `require` (`lib/` or the root,
//!   else external), modules transparent and merged like C++ namespaces, `include`d modules as
//!   supertypes.
//! - **C/C++** ([`c`]): `#include`: the includer's directory (quoted form),
//!   `compile_commands.json` include paths (`-I`, `-iquote`, `-isystem`), the repository root,
//!   then the one file whose path ends with the written path (nearest to the includer when
//!   several do); a header brings the sources that implement it (same stem, same directory
//!   first, else the nearest), so a call lands on the definition rather than the prototype, and
//!   includes are followed transitively through headers (up to 512 visible files per file,
//!   nearest first); C++ namespaces do not hide names from includers, and namespace blocks merge
//!   across files like TypeScript's.
//! - **Protocol Buffers** ([`proto`]): `import "a/b.proto"`: the root, the importer's directory,
//!   then the one `.proto` whose path ends with it (a wildcard import: its top-level declarations
//!   become visible).
//! - **Manifests**: dependencies are always external modules.
//! - **Lua** ([`lua`]): `require("a.b")`: `a/b.lua` or `a/b/init.lua` from the root, `lua/`,
//!   `src/` or `lib/`, else by path suffix, else external, with standard-library globals
//!   (`print`, `string.format`) as `external::lua.<name>`, and `function M.f()` joined to the
//!   module table `M`.
//! - **Shell** ([`shell`]): `source`/`.`: beside the script (`"$(dirname "$0")/x"`), from the
//!   root, or by path suffix, and a command nothing in the repository declares as the program
//!   `external::sh.<name>`.

pub(super) mod c;
pub(super) mod ecmascript;
pub(super) mod go;
pub(super) mod lua;
pub(super) mod packages;
pub(super) mod proto;
pub(super) mod python;
pub(super) mod ruby;
pub(super) mod rust;
pub(super) mod shell;

use super::tables::{basename, Tables};
use super::Entity;
use gortex_core::{ImportFact, ImportKind, Language};

impl Tables<'_> {
    /// Resolves an import statement's module specifier to what it denotes.
    pub(super) fn resolve_module(&self, fi: u32, imp: &ImportFact) -> Option<Entity> {
        if imp.kind == ImportKind::Dependency {
            // A manifest names a package of its ecosystem: always outside the repository.
            return Some(Entity::External(imp.module.clone()));
        }
        match self.lang(fi) {
            Language::TypeScript | Language::Tsx | Language::JavaScript | Language::Vue | Language::Svelte => {
                self.resolve_es_module(fi, &imp.module)
            }
            Language::Python => self.resolve_python_module(fi, &imp.module),
            Language::Go => Some(self.resolve_go_import(&imp.module)),
            // `import M` in Swift names a module: the files of that package, or an external one.
            Language::Java
            | Language::CSharp
            | Language::Kotlin
            | Language::Php
            | Language::Scala
            | Language::Swift => Some(self.resolve_java_import(imp)),
            Language::Rust => self.resolve_rust_path(
                fi,
                &imp.module.split("::").map(str::to_string).collect::<Vec<_>>(),
                true,
            ),
            Language::C | Language::Cpp => Some(self.resolve_include(fi, &imp.module)),
            Language::Ruby => Some(self.resolve_require(fi, &imp.module)),
            Language::Proto => Some(self.resolve_proto_import(fi, &imp.module)),
            Language::Lua => Some(self.resolve_lua_require(fi, &imp.module)),
            Language::Bash => Some(self.resolve_source(fi, &imp.module)),
            // Documents, and the generic tier (no imports are read: names bind by the cascade).
            Language::Markdown
            | Language::Json
            | Language::Yaml
            | Language::Toml
            | Language::Dockerfile
            | Language::Sql
            | Language::Text
            | Language::Elixir
            | Language::Erlang
            | Language::Elm
            | Language::Dart
            | Language::Haskell
            | Language::Zig => None,
        }
    }

    /// The file (among C-family, proto, Lua and shell files) whose path is `spec` or ends in
    /// `/spec`, the nearest to `from` when several do.
    fn unique_suffix(&self, from: &str, spec: &str) -> Option<u32> {
        let wanted = spec.trim_start_matches("./");
        let candidates: Vec<u32> = self
            .include_named(basename(wanted))
            .iter()
            .copied()
            .filter(|&f| {
                let p: &str = &self.files[f as usize].path;
                p == wanted || p.ends_with(&format!("/{wanted}"))
            })
            .collect();
        nearest(from, &candidates, |f| &self.files[f as usize].path)
    }

    /// C, C++, proto, Lua and shell files with this file name. Only import-target computation
    /// asks, and import targets are recomputed and diffed on every build, so no dependency key
    /// is needed.
    fn include_named(&self, name: &str) -> &[u32] {
        self.include_by_basename.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The candidate sharing the longest directory prefix with `from`; `None` when there is none or
/// two tie for nearest.
fn nearest<'p>(from: &str, candidates: &[u32], path: impl Fn(u32) -> &'p str) -> Option<u32> {
    let shared = |p: &str| from.split('/').zip(p.split('/')).take_while(|(a, b)| a == b).count();
    let mut best: Option<(usize, u32)> = None;
    let mut tie = false;
    for &c in candidates {
        let score = shared(path(c));
        match best {
            Some((b, _)) if score < b => {}
            Some((b, _)) if score == b => tie = true,
            _ => {
                best = Some((score, c));
                tie = false;
            }
        }
    }
    if tie {
        return None;
    }
    best.map(|(_, c)| c)
}
