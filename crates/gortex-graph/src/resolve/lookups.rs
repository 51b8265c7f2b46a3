//! Recorded lookups: every read of another file's data or of a whole-repository table notes a
//! dependency key, so an incremental build knows which files' resolutions a change can affect
//! (see `deps`).

use super::tables::Tables;
use super::{Entity, Sym};
use crate::deps;
use gortex_core::{ImportFact, Language};

impl<'a> Tables<'a> {
    /// A read of anything in file `fi` (its facts, or a table derived from them).
    pub(super) fn note_file(&self, fi: u32) {
        deps::note(deps::FILE, &self.files[fi as usize].path);
    }

    /// A read of file `fi`'s symbols by index, or by a name also noted (see `deps::SYMBOLS`).
    pub(super) fn note_symbols(&self, fi: u32) {
        deps::note(deps::SYMBOLS, &self.files[fi as usize].path);
    }

    /// The innermost symbol named `name` of the file at `path` whose declaration spans `line` (a
    /// language server's definition, which points at the name inside the declaration).
    pub(super) fn symbol_at(&self, path: &str, line: u32, name: &str) -> Option<Sym> {
        let f = self.path_lookup(path)?;
        self.note_symbols(f);
        self.files[f as usize]
            .facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| s.name == name && s.span.start_line <= line && line <= s.span.end_line)
            .min_by_key(|(_, s)| s.span.end_line - s.span.start_line)
            .map(|(i, _)| (f, i as u32))
    }

    /// The file at `path` (a miss is noted too: a file appearing there matters).
    pub(super) fn path_lookup(&self, path: &str) -> Option<u32> {
        deps::note(deps::FILE, path);
        self.by_path.get(path).copied()
    }

    /// Whether any file lives in `dir`.
    pub(super) fn dir_exists(&self, dir: &str) -> bool {
        deps::note(deps::DIR, dir);
        self.by_dir.contains_key(dir)
    }

    /// The Python files importable as the dotted module `spec`.
    pub(super) fn py_module(&self, spec: &str) -> Option<&Vec<u32>> {
        deps::note(deps::PY_MODULE, spec);
        self.python_modules.get(spec)
    }

    /// The files of a package (Java/Kotlin/Scala), namespace (C#, PHP) or Swift module.
    pub(super) fn java_pkg(&self, pkg: &str) -> Option<&Vec<u32>> {
        deps::note(deps::JAVA_PACKAGE, pkg);
        self.java_packages.get(pkg)
    }

    /// The Rust file of module path `module` (`a::b`) in crate `krate`.
    pub(super) fn rust_module(&self, krate: u32, module: &str) -> Option<u32> {
        deps::note(deps::RUST_MODULE, module);
        self.rust_modules.get(&(krate, module.to_string())).copied()
    }

    /// File `fi`'s top-level declarations named `name`.
    pub(super) fn top_of(&self, fi: u32, name: &str) -> Option<&Vec<u32>> {
        let found = self.top[fi as usize].get(name);
        // Either way the answer changes only when a top-level `name` appears or goes there (a
        // NAME key; a hit also depends on the declarations it lists, the file's symbols): a
        // reader that probed a package's files for one name is not redone for every new
        // declaration, nor is one that found `name` when a declaration is appended after it.
        deps::note(deps::NAME, name);
        if found.is_some() {
            self.note_symbols(fi);
        }
        found
    }

    /// A file's imports, for lookups that only scan them (re-exports).
    pub(super) fn imports_of(&self, fi: u32) -> &'a [ImportFact] {
        deps::note(deps::IMPORTS, &self.files[fi as usize].path);
        &self.files[fi as usize].facts.imports
    }

    /// A symbol's children (nested declarations, a type's members and detached methods).
    pub(super) fn children_of(&self, t: Sym) -> Option<&Vec<Sym>> {
        self.note_file(t.0);
        self.children.get(&t)
    }

    /// A type's direct supertypes.
    pub(super) fn supers_of(&self, t: Sym) -> Option<&Vec<Sym>> {
        self.note_file(t.0);
        self.supertypes.get(&t)
    }

    /// What each of file `fi`'s imports denotes.
    pub(super) fn targets_of(&self, fi: u32) -> Option<&Vec<Option<Entity>>> {
        self.note_file(fi);
        self.import_targets.get(fi as usize).map(|v| &**v)
    }

    /// Every declaration named `name`, in the whole repository.
    pub(super) fn named(&self, name: &str) -> Option<&Vec<Sym>> {
        deps::note(deps::NAME, name);
        self.by_name.get(name)
    }

    /// File `fi`'s language (fixed by its path: nothing to note).
    pub(super) fn lang(&self, fi: u32) -> Language {
        self.files[fi as usize].language
    }

    /// File `fi`'s facts, read as a whole.
    pub(super) fn facts(&self, fi: u32) -> &'a gortex_core::FileFacts {
        self.note_file(fi);
        &self.files[fi as usize].facts
    }

    /// A symbol by its index in its file.
    pub(super) fn sym(&self, s: Sym) -> &'a gortex_core::SymbolFact {
        self.note_symbols(s.0);
        &self.files[s.0 as usize].facts.symbols[s.1 as usize]
    }
}
