//! Module resolution: what an import statement's module specifier denotes, by language (one
//! file per language family), and the path helpers the path-based families share.

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
