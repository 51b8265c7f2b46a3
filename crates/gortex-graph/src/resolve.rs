//! The resolver: binds the names extractors report to nodes, stamping each edge with the tier
//! its evidence earns.
//!
//! Cascade for a name used in file F: local bindings (declared/constructed types) → F's own
//! declarations → F's imports (module resolution per language, re-export chains followed) →
//! the same package/directory (Go, Java) → wildcard imports → name-only (`text_matched`, only
//! when exactly one same-language candidate exists). Member accesses resolve the receiver to a
//! type first (self/super/fields/bindings/imports/static type names, class hierarchy included).
//! Anything not earned stays an `Unresolved` placeholder.

use crate::build::SourceFile;
use crate::cache::{DerivedTables, Endpoint, ExternalEdge, ResolvedEdge, ResolvedFile, UnresolvedRef};
use crate::config::{dir_of, join_path, RepoConfig};
use crate::deps;
use gortex_core::{
    same_text, BindingValue, EdgeKind, ImportFact, ImportKind, Language, NodeKind, Origin, Receiver, RefFact,
    TypeFlavor,
};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// A symbol: (file index, symbol index within the file's facts).
pub(crate) type Sym = (u32, u32);

/// What a name or module path denotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Entity {
    /// A module: one file (TS, Python, Rust) or a package's files (Go, Java).
    Files(Vec<u32>),
    Sym(Sym),
    /// Outside the repository: the dotted/`::` path of the thing.
    External(String),
    /// A Python namespace package (a directory without `__init__.py`).
    Dir(String),
}

/// Name-only candidates are counted up to this many (reported as "this many or more").
const MAX_COUNTED_CANDIDATES: u32 = 16;

/// How deep chains (re-exports, return-type inference, inheritance) are followed.
const MAX_DEPTH: u32 = 8;

/// Read-only lookup tables over every file of the repository.
pub(crate) struct Tables<'a> {
    files: &'a [SourceFile],
    config: &'a RepoConfig,
    by_path: FxHashMap<&'a str, u32>,
    by_dir: FxHashMap<&'a str, Vec<u32>>,
    by_name: FxHashMap<&'a str, Vec<Sym>>,
    /// Per file: top-level declarations by name.
    top: Vec<FxHashMap<&'a str, Vec<u32>>>,
    children: FxHashMap<Sym, Vec<Sym>>,
    java_packages: FxHashMap<&'a str, Vec<u32>>,
    /// Per Swift file: its module, the key it has in `java_packages` (see [`swift_module`]).
    swift_modules: FxHashMap<u32, &'a str>,
    python_modules: FxHashMap<String, Vec<u32>>,
    rust_modules: FxHashMap<(u32, String), u32>,
    rust_file_module: Vec<Option<(u32, Vec<String>)>>,
    import_targets: Vec<Vec<Option<Entity>>>,
    supertypes: FxHashMap<Sym, Vec<Sym>>,
    method_owner: FxHashMap<Sym, Sym>,
    /// TypeScript namespace blocks by qualified name (`ts.server`): blocks merge across files.
    ts_namespaces: FxHashMap<String, Vec<Sym>>,
    /// Per file: (scope, name) → index of the last binding, so lookups stay O(1) in big files.
    bindings: Vec<FxHashMap<(Option<u32>, &'a str), u32>>,
    /// C, C++, proto, Lua and shell files by file name (`util.h` → every `…/util.h`), for
    /// include, import, require and source paths and header ↔ source pairing.
    include_by_basename: FxHashMap<&'a str, Vec<u32>>,
    /// Per C/C++ file: the files its includes make visible, nearest first (headers reached
    /// through headers, and the sources that implement each header). Empty elsewhere.
    c_visible: Vec<Vec<u32>>,
    /// Files with `extends`/`implements` uses, and files with detached methods, ascending: the
    /// type hierarchy and method owners are derived from these files only.
    heritage_files: Vec<u32>,
    detached_files: Vec<u32>,
}

/// The lookup tables of one build, kept for the next. A body edit (the same files and
/// configuration, every changed file with the same interface and inheritance clauses) builds
/// exactly the same tables, so the next build re-points these at its files instead of spending
/// O(repository) on building them again.
///
/// Self-referential: `tables` borrows names and paths from `built_from` and reads `config`,
/// both behind `Arc`s this value owns, never mutates and drops after `tables` (their heap data
/// does not move when this value does). `tables.files` points at `built_from` or, after a
/// rebind, at `current`: the files whose facts the resolver reads.
pub(crate) struct KeptTables {
    // Declared first: dropped before what it borrows from.
    tables: Tables<'static>,
    // Only held, so what `tables` points at stays alive.
    #[allow(dead_code)]
    current: Option<Arc<[SourceFile]>>,
    #[allow(dead_code)]
    built_from: Arc<[SourceFile]>,
    #[allow(dead_code)]
    config: Arc<RepoConfig>,
    /// Facts of patched files, old and new: names in the tables may point into either.
    #[allow(dead_code)]
    pinned: Vec<Arc<gortex_core::FileFacts>>,
    fingerprint: String,
}

/// Patched files' facts a [`KeptTables`] holds on to before the next build starts afresh.
const MAX_PINNED_FACTS: usize = 4096;

impl KeptTables {
    /// Builds the tables for `files` (see [`Tables::build`]) and keeps what they borrow.
    pub(crate) fn build(files: &[SourceFile], config: &RepoConfig, fingerprint: String) -> KeptTables {
        let built_from: Arc<[SourceFile]> = files.into();
        let config = Arc::new(config.clone());
        // SAFETY: both references point into data behind the `Arc`s stored beside the tables,
        // which outlive them (field order) and are never mutated.
        let (files_ref, config_ref): (&'static [SourceFile], &'static RepoConfig) =
            unsafe { (&*Arc::as_ptr(&built_from), &*Arc::as_ptr(&config)) };
        KeptTables {
            tables: Tables::build(files_ref, config_ref),
            current: None,
            built_from,
            config,
            pinned: Vec::new(),
            fingerprint,
        }
    }

    /// Whether `files` under `fingerprint` would build these same tables: the same
    /// configuration, the same paths and languages in the same order, and every file either
    /// the very facts the tables last read or the same interface and inheritance clauses.
    pub(crate) fn fits(&self, files: &[SourceFile], fingerprint: &str) -> bool {
        let last = self.tables.files;
        self.fingerprint == fingerprint
            && last.len() == files.len()
            && last.par_iter().zip(files).all(|(old, new)| {
                same_text(&old.path, &new.path)
                    && old.language == new.language
                    && same_table_input(&old.facts, &new.facts)
            })
    }

    /// The same tables, now reading `files` (which must [`KeptTables::fits`]).
    pub(crate) fn rebind(mut self, files: &[SourceFile]) -> KeptTables {
        let current: Arc<[SourceFile]> = files.into();
        // SAFETY: as in `build`; the previous `current` is dropped only after nothing points at it.
        self.tables.files = unsafe { &*Arc::as_ptr(&current) };
        self.current = Some(current);
        self
    }

    /// Whether [`KeptTables::patch`] can bring these tables up to `files`: the same configuration
    /// and the same paths and languages in the same order (the files' facts may differ).
    pub(crate) fn patchable(&self, files: &[SourceFile], fingerprint: &str) -> bool {
        let last = self.tables.files;
        self.fingerprint == fingerprint
            && self.pinned.len() < MAX_PINNED_FACTS
            && last.len() == files.len()
            && last
                .par_iter()
                .zip(files)
                .all(|(old, new)| same_text(&old.path, &new.path) && old.language == new.language)
    }

    /// The tables for `files` (which must be [`KeptTables::patchable`]) made from these: each
    /// file whose declarations, bindings, package or inheritance changed has its entries taken
    /// out and put back, then the whole-repository tables (import targets, include closures,
    /// method owners, supertypes) are derived again. Equal to [`KeptTables::build`] of `files`
    /// (checked in debug builds). Also returns the derived tables rendered, reusing `previous`'s
    /// rendering of every file whose import targets did not change.
    pub(crate) fn patch(mut self, files: &[SourceFile], previous: &DerivedTables) -> (KeptTables, DerivedTables) {
        let current: Arc<[SourceFile]> = files.into();
        // SAFETY: as in `build`; `current` is stored beside the tables, and the facts of every
        // patched file (whose names the tables now hold) are pinned until the tables drop.
        let new_files: &'static [SourceFile] = unsafe { &*Arc::as_ptr(&current) };
        let old_files = self.tables.files;
        let changed: Vec<u32> = (0..files.len() as u32)
            .into_par_iter()
            .filter(|&fi| {
                let (old, new) = (&old_files[fi as usize].facts, &new_files[fi as usize].facts);
                !same_table_input(old, new)
            })
            .collect();
        for &fi in &changed {
            self.pinned.push(Arc::clone(&old_files[fi as usize].facts));
            self.pinned.push(Arc::clone(&new_files[fi as usize].facts));
        }
        let t = &mut self.tables;
        // Owners of detached methods and supertypes are derived again below.
        let (old_owners, old_supertypes) = (std::mem::take(&mut t.method_owner), std::mem::take(&mut t.supertypes));
        for (method, ty) in &old_owners {
            remove_from(&mut t.children, ty, |m| m == method);
        }
        // Swift modules follow from paths alone (the same here), and only changed Swift files'
        // keys are read: the scan of every path is skipped for the common edit.
        let swiftpm_roots = if changed
            .iter()
            .any(|&fi| new_files[fi as usize].language == Language::Swift)
        {
            swiftpm_roots(new_files)
        } else {
            Vec::new()
        };
        for &fi in &changed {
            let (old, new) = (&old_files[fi as usize], &new_files[fi as usize]);
            for (si, sym) in old.facts.symbols.iter().enumerate() {
                remove_from(&mut t.by_name, sym.name.as_str(), |s| s.0 == fi);
                if let Some(p) = sym.parent.filter(|&p| p < si as u32) {
                    t.children.remove(&(fi, p));
                }
            }
            for (si, sym) in new.facts.symbols.iter().enumerate() {
                let si = si as u32;
                insert_sorted(t.by_name.entry(sym.name.as_str()).or_default(), (fi, si));
                if let Some(p) = sym.parent.filter(|&p| p < si) {
                    t.children.entry((fi, p)).or_default().push((fi, si));
                }
            }
            (t.top[fi as usize], t.bindings[fi as usize]) = file_maps(new);
            set_member(&mut t.heritage_files, fi, has_heritage(&new.facts));
            set_member(&mut t.detached_files, fi, has_detached_methods(&new.facts));
            let (was, is) = (package_key(old, &swiftpm_roots), package_key(new, &swiftpm_roots));
            if was != is {
                if let Some(was) = was {
                    remove_from(&mut t.java_packages, was, |&f| f == fi);
                }
                t.swift_modules.remove(&fi);
                if let Some(is) = is {
                    insert_sorted(t.java_packages.entry(is).or_default(), fi);
                    if new.language == Language::Swift {
                        t.swift_modules.insert(fi, is);
                    }
                }
            }
            if merges_namespaces(new.language) {
                for (path, _) in namespace_blocks(&old.facts) {
                    remove_from(&mut t.ts_namespaces, path.as_str(), |s| s.0 == fi);
                }
                for (path, si) in namespace_blocks(&new.facts) {
                    insert_sorted(t.ts_namespaces.entry(path).or_default(), (fi, si));
                }
            }
        }
        t.files = new_files;
        // Import targets are resolved from paths and packages, except that Java-like and Rust
        // imports name declarations: only then can a file's new declarations change another
        // file's targets.
        let names_declarations =
            |language: Language| matches!(language, Language::Rust | Language::Swift) || uses_java_packages(language);
        let declarations_imported = changed
            .iter()
            .any(|&fi| names_declarations(new_files[fi as usize].language));
        let changed: FxHashSet<u32> = changed.into_iter().collect();
        let redo = |fi: u32| {
            changed.contains(&fi) || (declarations_imported && names_declarations(new_files[fi as usize].language))
        };
        let retargeted = t.derive(Some(&redo));
        // The same files in the same order: the same hierarchy renders the same.
        let same_hierarchy = t.method_owner == old_owners && t.supertypes == old_supertypes;
        let mut derived = t.render_derived_reusing(&retargeted, same_hierarchy, previous);
        derived.import_targets.shrink_to_fit();
        self.current = Some(current);
        #[cfg(debug_assertions)]
        {
            let fresh = Tables::build(new_files, self.tables.config);
            assert_eq!(
                self.tables.dump(),
                fresh.dump(),
                "patched tables differ from built ones"
            );
            assert_eq!(derived, fresh.render_derived(), "patched derived tables differ");
        }
        (self, derived)
    }

    /// The tables, borrowed for as long as this value is.
    pub(crate) fn tables(&self) -> &Tables<'_> {
        &self.tables
    }
}

/// Whether the tables read the same from two versions of a file's facts: the very same facts,
/// or the same interface and inheritance clauses.
fn same_table_input(old: &Arc<gortex_core::FileFacts>, new: &Arc<gortex_core::FileFacts>) -> bool {
    Arc::ptr_eq(old, new) || (old.same_interface(new) && same_heritage(old, new))
}

/// Whether two versions of a file state the same inheritance (`extends`/`implements` uses, by
/// enclosing symbol, name and receiver): the type hierarchy in the tables is built from them,
/// and an `impl Trait for T` block adds one without changing any declaration.
fn same_heritage(a: &gortex_core::FileFacts, b: &gortex_core::FileFacts) -> bool {
    fn heritage(f: &gortex_core::FileFacts) -> impl Iterator<Item = (EdgeKind, Option<u32>, &str, &Receiver)> {
        f.refs
            .iter()
            .filter(|r| is_heritage(r))
            .map(|r| (r.kind, r.from, r.name.as_str(), &r.receiver))
    }
    heritage(a).eq(heritage(b))
}

/// Whether a use states inheritance (`extends`/`implements`).
fn is_heritage(r: &RefFact) -> bool {
    matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements)
}

/// Whether a file states inheritance anywhere.
fn has_heritage(facts: &gortex_core::FileFacts) -> bool {
    facts.refs.iter().any(is_heritage)
}

/// The receiver type a detached method (a method outside its type: Go receivers, Rust `impl`
/// blocks) names.
fn detached_owner(s: &gortex_core::SymbolFact) -> Option<&str> {
    (s.kind == NodeKind::Method && s.parent.is_none())
        .then_some(s.type_name.as_deref())
        .flatten()
}

/// Whether a file declares a detached method.
fn has_detached_methods(facts: &gortex_core::FileFacts) -> bool {
    facts.symbols.iter().any(|s| detached_owner(s).is_some())
}

/// Puts `fi` in or out of an ascending file list.
fn set_member(list: &mut Vec<u32>, fi: u32, member: bool) {
    match (list.binary_search(&fi), member) {
        (Err(at), true) => list.insert(at, fi),
        (Ok(at), false) => {
            list.remove(at);
        }
        _ => {}
    }
}

/// At most this many files are made visible to one C/C++ file through its includes.
const MAX_C_VISIBLE: usize = 512;

/// Header file extensions: an include of one also sees the sources that implement it.
const C_HEADER_EXTS: [&str; 6] = ["h", "hpp", "hh", "hxx", "h++", "inl"];
/// Source file extensions probed for a header's implementation.
const C_SOURCE_EXTS: [&str; 5] = ["c", "cc", "cpp", "cxx", "c++"];

/// The file name of a repo-relative path.
/// A Swift file's module: the SwiftPM target its path names (`Sources/<Target>/…`, `Tests/<Target>/…`)
/// when a `Package.swift` sits above that folder, else the repository's unnamed module (`""`):
/// an Xcode project's `Sources/Views/` folder is a folder, not a target.
fn swift_module<'a>(file: &'a SourceFile, swiftpm_roots: &[&str]) -> &'a str {
    let in_target = swiftpm_roots.iter().any(|root| {
        let rest = match *root {
            "" => Some(&*file.path),
            root => file.path.strip_prefix(root).and_then(|p| p.strip_prefix('/')),
        };
        rest.is_some_and(|p| p.starts_with("Sources/") || p.starts_with("Tests/"))
    });
    match &file.facts.package {
        Some(module) if in_target => module.as_str(),
        _ => "",
    }
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn is_test_path(path: &str) -> bool {
    path.ends_with("_test.go")
}

/// One file's own lookup maps: top-level declarations by name, and bindings by (scope, name).
type FileMaps<'a> = (FxHashMap<&'a str, Vec<u32>>, FxHashMap<(Option<u32>, &'a str), u32>);

/// Builds one file's [`FileMaps`].
fn file_maps(f: &SourceFile) -> FileMaps<'_> {
    let mut top: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    for (si, sym) in top_level(&f.facts, f.language) {
        top.entry(sym.name.as_str()).or_default().push(si);
    }
    let bindings = f
        .facts
        .bindings
        .iter()
        .enumerate()
        .map(|(i, b)| ((b.scope, b.name.as_str()), i as u32))
        .collect();
    (top, bindings)
}

/// A file's top-level declarations (what lookups by name in the file see), in order.
fn top_level(
    facts: &gortex_core::FileFacts,
    language: Language,
) -> impl Iterator<Item = (u32, &gortex_core::SymbolFact)> {
    // Names declared in namespaces and modules are the file's own top level (the generic
    // tier's `defmodule`/`-module`/`module … where` included).
    let namespaced = language.is_c_family()
        || matches!(
            language,
            Language::Ruby | Language::Elixir | Language::Erlang | Language::Elm | Language::Haskell
        );
    facts.symbols.iter().enumerate().filter_map(move |(si, sym)| {
        let si = si as u32;
        let is_top = if namespaced {
            c_top_level(facts, si)
        } else {
            sym.parent.filter(|&p| p < si).is_none()
        };
        is_top.then_some((si, sym))
    })
}

/// The names a file declares at its top level.
pub(crate) fn top_level_names(facts: &gortex_core::FileFacts, language: Language) -> FxHashSet<String> {
    top_level(facts, language).map(|(_, s)| s.name.clone()).collect()
}

/// SwiftPM packages: the directories holding a `Package.swift`.
fn swiftpm_roots(files: &[SourceFile]) -> Vec<&str> {
    files
        .iter()
        .filter(|f| basename(&f.path) == "Package.swift")
        .map(|f| dir_of(&f.path))
        .collect()
}

/// Drops the entries of `map[key]` that match, and the key once its list is empty.
fn remove_from<K, Q, V>(map: &mut FxHashMap<K, Vec<V>>, key: &Q, gone: impl Fn(&V) -> bool)
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ?Sized,
{
    if let Some(list) = map.get_mut(key) {
        list.retain(|v| !gone(v));
        if list.is_empty() {
            map.remove(key);
        }
    }
}

/// Inserts into a list kept in ascending order (file order, then symbol order).
fn insert_sorted<V: Ord + Copy>(list: &mut Vec<V>, v: V) {
    let at = list.partition_point(|x| *x < v);
    list.insert(at, v);
}

/// Languages whose files join the package table by their declared package or namespace.
fn uses_java_packages(language: Language) -> bool {
    matches!(
        language,
        Language::Java | Language::CSharp | Language::Kotlin | Language::Php | Language::Scala
    )
}

/// The file's key in the package table: its Java/C#/Kotlin/PHP/Scala package or namespace, or
/// its Swift module (the two share the table: files by package name).
fn package_key<'f>(file: &'f SourceFile, swiftpm_roots: &[&str]) -> Option<&'f str> {
    match file.language {
        Language::Swift => Some(swift_module(file, swiftpm_roots)),
        language if uses_java_packages(language) => file.facts.package.as_deref(),
        _ => None,
    }
}

impl<'a> Tables<'a> {
    /// Builds every table, then the two passes that need the others: import targets, then
    /// type hierarchy and receiver-type owners of detached (Go/Rust) methods.
    pub fn build(files: &'a [SourceFile], config: &'a RepoConfig) -> Tables<'a> {
        // Per-file maps in parallel, beside the whole-repository maps (one pass, in file order).
        let (per_file, mut t): (Vec<FileMaps<'a>>, Tables<'a>) = rayon::join(
            || files.par_iter().map(file_maps).collect(),
            || {
                let mut t = Tables {
                    files,
                    config,
                    by_path: FxHashMap::default(),
                    by_dir: FxHashMap::default(),
                    by_name: FxHashMap::default(),
                    top: Vec::new(),
                    children: FxHashMap::default(),
                    java_packages: FxHashMap::default(),
                    swift_modules: FxHashMap::default(),
                    python_modules: FxHashMap::default(),
                    rust_modules: FxHashMap::default(),
                    rust_file_module: vec![None; files.len()],
                    import_targets: Vec::new(),
                    supertypes: FxHashMap::default(),
                    method_owner: FxHashMap::default(),
                    ts_namespaces: FxHashMap::default(),
                    bindings: Vec::new(),
                    include_by_basename: FxHashMap::default(),
                    c_visible: Vec::new(),
                    heritage_files: Vec::new(),
                    detached_files: Vec::new(),
                };
                let swiftpm_roots = swiftpm_roots(files);
                for (fi, file) in files.iter().enumerate() {
                    let fi = fi as u32;
                    t.by_path.insert(&file.path, fi);
                    t.by_dir.entry(dir_of(&file.path)).or_default().push(fi);
                    for (si, sym) in file.facts.symbols.iter().enumerate() {
                        let si = si as u32;
                        t.by_name.entry(sym.name.as_str()).or_default().push((fi, si));
                        if let Some(p) = sym.parent.filter(|&p| p < si) {
                            t.children.entry((fi, p)).or_default().push((fi, si));
                        }
                    }
                    if let Some(pkg) = package_key(file, &swiftpm_roots) {
                        t.java_packages.entry(pkg).or_default().push(fi);
                        if file.language == Language::Swift {
                            t.swift_modules.insert(fi, pkg);
                        }
                    }
                    match file.language {
                        Language::Python => {
                            for key in python_module_keys(&file.path) {
                                t.python_modules.entry(key).or_default().push(fi);
                            }
                        }
                        Language::C | Language::Cpp | Language::Proto | Language::Lua | Language::Bash => {
                            t.include_by_basename.entry(basename(&file.path)).or_default().push(fi);
                        }
                        _ => {}
                    }
                }
                t
            },
        );
        (t.top, t.bindings) = per_file.into_iter().unzip();
        t.index_rust_modules();
        t.index_ts_namespaces();
        let (heritage, detached): (Vec<Option<u32>>, Vec<Option<u32>>) = (0..files.len() as u32)
            .into_par_iter()
            .map(|fi| {
                let facts = &files[fi as usize].facts;
                (
                    has_heritage(facts).then_some(fi),
                    has_detached_methods(facts).then_some(fi),
                )
            })
            .unzip();
        t.heritage_files = heritage.into_iter().flatten().collect();
        t.detached_files = detached.into_iter().flatten().collect();
        t.derive(None);
        t
    }

    /// The tables built from the others, for the whole repository: import targets, C include
    /// closures, owners of detached methods (added to their type's children) and supertypes.
    /// Expects `method_owner` and `supertypes` empty and no owner in `children`. With `redo`,
    /// only the files it names have their import targets resolved again (the others keep
    /// theirs); returns the files whose targets that changed.
    fn derive(&mut self, redo: Option<&(dyn Fn(u32) -> bool + Sync)>) -> FxHashSet<u32> {
        let t = self;
        let files = t.files;
        let targets_of = |fi: u32| -> Vec<Option<Entity>> {
            files[fi as usize]
                .facts
                .imports
                .iter()
                .map(|imp| t.resolve_module(fi, imp))
                .collect()
        };
        let mut changed = FxHashSet::default();
        match redo {
            None => t.import_targets = (0..files.len() as u32).into_par_iter().map(targets_of).collect(),
            Some(redo) => {
                let fresh: Vec<(u32, Vec<Option<Entity>>)> = (0..files.len() as u32)
                    .into_par_iter()
                    .filter(|&fi| redo(fi))
                    .map(|fi| (fi, targets_of(fi)))
                    .collect();
                for (fi, targets) in fresh {
                    if t.import_targets[fi as usize] != targets {
                        changed.insert(fi);
                        t.import_targets[fi as usize] = targets;
                    }
                }
            }
        }
        t.c_visible = (0..files.len() as u32)
            .into_par_iter()
            .map(|fi| {
                if files[fi as usize].language.is_c_family() {
                    t.c_include_closure(fi)
                } else {
                    Vec::new()
                }
            })
            .collect();

        // Detached methods (Go receivers, Rust impl blocks in other files) join their type.
        let owners: Vec<(Sym, Sym)> = t
            .detached_files
            .par_iter()
            .flat_map_iter(|&fi| {
                let t = &t;
                files[fi as usize]
                    .facts
                    .symbols
                    .iter()
                    .enumerate()
                    .filter_map(move |(si, s)| {
                        let owner = detached_owner(s)?;
                        match t.resolve_type(fi, owner, 0) {
                            Some((Entity::Sym(ty), _)) => Some(((fi, si as u32), ty)),
                            _ => None,
                        }
                    })
            })
            .collect();
        for (method, ty) in owners {
            t.method_owner.insert(method, ty);
            t.children.entry(ty).or_default().push(method);
        }
        let supers: Vec<(Sym, Sym)> = t
            .heritage_files
            .par_iter()
            .flat_map_iter(|&fi| {
                let t = &t;
                files[fi as usize].facts.refs.iter().filter_map(move |r| {
                    if !is_heritage(r) {
                        return None;
                    }
                    let sub = match r.from {
                        Some(from) => t.enclosing_type(fi, from)?,
                        None => match &r.receiver {
                            Receiver::Name(owner) => match t.resolve_type(fi, owner, 0)? {
                                (Entity::Sym(s), _) => s,
                                _ => return None,
                            },
                            _ => return None,
                        },
                    };
                    match t.resolve_type_ref(fi, r, 0)? {
                        (Entity::Sym(sup), _) if sup != sub => Some((sub, sup)),
                        _ => None,
                    }
                })
            })
            .collect();
        for (sub, sup) in supers {
            let list = t.supertypes.entry(sub).or_default();
            if !list.contains(&sup) {
                list.push(sup);
            }
        }
        changed
    }

    fn sym_key(&self, s: Sym) -> String {
        format!("{}#{}", self.files[s.0 as usize].path, s.1)
    }

    fn render_entity(&self, e: &Option<Entity>) -> String {
        match e {
            None => "-".into(),
            Some(Entity::Files(fs)) => {
                let paths: Vec<&str> = fs.iter().map(|&f| &*self.files[f as usize].path).collect();
                format!("F:{}", paths.join(","))
            }
            Some(Entity::Sym(s)) => format!("S:{}", self.sym_key(*s)),
            Some(Entity::External(x)) => format!("E:{x}"),
            Some(Entity::Dir(d)) => format!("D:{d}"),
        }
    }

    /// [`Tables::render_derived`], sharing `previous`'s rendering of each file not in
    /// `retargeted` (the same files: a rendering is a function of the targets), and of the
    /// hierarchy when it is the same.
    fn render_derived_reusing(
        &self,
        retargeted: &FxHashSet<u32>,
        same_hierarchy: bool,
        previous: &DerivedTables,
    ) -> DerivedTables {
        let mut derived = if same_hierarchy {
            DerivedTables {
                import_targets: Vec::new(),
                supertypes: Arc::clone(&previous.supertypes),
                method_owners: Arc::clone(&previous.method_owners),
            }
        } else {
            self.render_hierarchy()
        };
        derived.import_targets = self
            .files
            .par_iter()
            .enumerate()
            .map(|(fi, f)| match previous.import_targets.get(fi) {
                Some((path, rendered)) if same_text(path, &f.path) && !retargeted.contains(&(fi as u32)) => {
                    (Arc::clone(path), Arc::clone(rendered))
                }
                _ => self.render_targets(fi),
            })
            .collect();
        derived
    }

    fn render_targets(&self, fi: usize) -> (Arc<str>, Arc<Vec<String>>) {
        (
            Arc::clone(&self.files[fi].path),
            Arc::new(self.import_targets[fi].iter().map(|e| self.render_entity(e)).collect()),
        )
    }

    /// Every table in a canonical text form (lists in their order), to compare two builds.
    #[cfg(debug_assertions)]
    fn dump(&self) -> Vec<String> {
        fn sorted<K: std::fmt::Debug, V: std::fmt::Debug>(tag: &str, map: impl Iterator<Item = (K, V)>) -> Vec<String> {
            let mut lines: Vec<String> = map.map(|(k, v)| format!("{tag} {k:?} {v:?}")).collect();
            lines.sort();
            lines
        }
        let mut out = Vec::new();
        out.extend(sorted("path", self.by_path.iter()));
        out.extend(sorted("dir", self.by_dir.iter()));
        out.extend(sorted("name", self.by_name.iter()));
        out.extend(sorted("children", self.children.iter()));
        out.extend(sorted("package", self.java_packages.iter()));
        out.extend(sorted("swift", self.swift_modules.iter()));
        out.extend(sorted("python", self.python_modules.iter()));
        out.extend(sorted("rust", self.rust_modules.iter()));
        out.extend(sorted("supertypes", self.supertypes.iter()));
        out.extend(sorted("owner", self.method_owner.iter()));
        out.extend(sorted("namespace", self.ts_namespaces.iter()));
        out.extend(sorted("include", self.include_by_basename.iter()));
        out.push(format!("heritage files {:?}", self.heritage_files));
        out.push(format!("detached files {:?}", self.detached_files));
        for fi in 0..self.files.len() {
            out.extend(sorted(&format!("top {fi}"), self.top[fi].iter()));
            out.extend(sorted(&format!("binding {fi}"), self.bindings[fi].iter()));
            out.push(format!("targets {fi} {:?}", self.import_targets[fi]));
            out.push(format!("visible {fi} {:?}", self.c_visible[fi]));
            out.push(format!("rust module {fi} {:?}", self.rust_file_module[fi]));
        }
        out
    }

    /// The whole-repository tables rendered in path space, for change detection.
    pub(crate) fn render_derived(&self) -> DerivedTables {
        let mut derived = self.render_hierarchy();
        derived.import_targets = (0..self.files.len())
            .into_par_iter()
            .map(|fi| self.render_targets(fi))
            .collect();
        derived
    }

    /// The rendered supertypes and method owners (import targets left empty).
    fn render_hierarchy(&self) -> DerivedTables {
        let mut supertypes: Vec<(String, Vec<String>)> = self
            .supertypes
            .iter()
            .map(|(sub, sups)| (self.sym_key(*sub), sups.iter().map(|s| self.sym_key(*s)).collect()))
            .collect();
        supertypes.sort();
        let mut method_owners: Vec<(String, String)> = self
            .method_owner
            .iter()
            .map(|(m, o)| (self.sym_key(*m), self.sym_key(*o)))
            .collect();
        method_owners.sort();
        DerivedTables {
            import_targets: Vec::new(),
            supertypes: Arc::new(supertypes),
            method_owners: Arc::new(method_owners),
        }
    }

    fn index_ts_namespaces(&mut self) {
        for (fi, file) in self.files.iter().enumerate() {
            if !merges_namespaces(file.language) {
                continue;
            }
            for (path, si) in namespace_blocks(&file.facts) {
                self.ts_namespaces.entry(path).or_default().push((fi as u32, si));
            }
        }
    }

    /// A member of a TypeScript namespace, looked up in every block that merges with `block`.
    fn namespace_member(&self, block: Sym, name: &str, want: impl Fn(NodeKind) -> bool) -> Option<Sym> {
        if !merges_namespaces(self.lang(block.0)) {
            return None;
        }
        let path = namespace_path(self.facts(block.0), block.1)?;
        // New blocks of this namespace appear as new declarations of its last segment.
        deps::note(deps::NAME, path.rsplit('.').next().unwrap_or(&path));
        // A block without the member depends on the name, not on its file: the member appearing
        // there (or moving in) is a change of that name's declarations. TypeScript's own `ts`
        // namespace spans most of its 600 source files; noting each file scanned made any new
        // declaration in one of them redo every file that looked up a namespace member.
        deps::note(deps::NAME, name);
        // Names and kinds read without noting their file (`sym` would).
        let unnoted = |k: Sym| &self.files[k.0 as usize].facts.symbols[k.1 as usize];
        for &other in self.ts_namespaces.get(&path)? {
            if let Some(&k) = self
                .children
                .get(&other)
                .and_then(|kids| kids.iter().find(|&&k| unnoted(k).name == name && want(unnoted(k).kind)))
            {
                // The member was found by a name noted above: appended declarations leave it.
                self.note_symbols(other.0);
                return Some(k);
            }
        }
        None
    }

    fn index_rust_modules(&mut self) {
        for (fi, file) in self.files.iter().enumerate() {
            if file.language != Language::Rust {
                continue;
            }
            let (crate_key, module) = rust_module_of(&self.config.cargo_crates, &file.path, fi as u32);
            self.rust_modules.insert((crate_key, module.join("::")), fi as u32);
            self.rust_file_module[fi] = Some((crate_key, module));
        }
    }

    // ------------------------------------------------------------ recorded lookups
    // Every lookup that reads another file's data or a global table notes a dependency key, so
    // an incremental build knows which files' resolutions a change can affect (see `deps`).

    fn note_file(&self, fi: u32) {
        deps::note(deps::FILE, &self.files[fi as usize].path);
    }

    /// A read of file `fi`'s symbols by index, or by a name also noted (see `deps::SYMBOLS`).
    fn note_symbols(&self, fi: u32) {
        deps::note(deps::SYMBOLS, &self.files[fi as usize].path);
    }

    fn path_lookup(&self, path: &str) -> Option<u32> {
        deps::note(deps::FILE, path);
        self.by_path.get(path).copied()
    }

    fn dir_exists(&self, dir: &str) -> bool {
        deps::note(deps::DIR, dir);
        self.by_dir.contains_key(dir)
    }

    fn py_module(&self, spec: &str) -> Option<&Vec<u32>> {
        deps::note(deps::PY_MODULE, spec);
        self.python_modules.get(spec)
    }

    fn java_pkg(&self, pkg: &str) -> Option<&Vec<u32>> {
        deps::note(deps::JAVA_PACKAGE, pkg);
        self.java_packages.get(pkg)
    }

    fn rust_module(&self, krate: u32, module: &str) -> Option<u32> {
        deps::note(deps::RUST_MODULE, module);
        self.rust_modules.get(&(krate, module.to_string())).copied()
    }

    fn top_of(&self, fi: u32, name: &str) -> Option<&Vec<u32>> {
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
    fn imports_of(&self, fi: u32) -> &'a [ImportFact] {
        deps::note(deps::IMPORTS, &self.files[fi as usize].path);
        &self.files[fi as usize].facts.imports
    }

    fn children_of(&self, t: Sym) -> Option<&Vec<Sym>> {
        self.note_file(t.0);
        self.children.get(&t)
    }

    fn supers_of(&self, t: Sym) -> Option<&Vec<Sym>> {
        self.note_file(t.0);
        self.supertypes.get(&t)
    }

    fn targets_of(&self, fi: u32) -> Option<&Vec<Option<Entity>>> {
        self.note_file(fi);
        self.import_targets.get(fi as usize)
    }

    fn named(&self, name: &str) -> Option<&Vec<Sym>> {
        deps::note(deps::NAME, name);
        self.by_name.get(name)
    }

    fn lang(&self, fi: u32) -> Language {
        self.files[fi as usize].language
    }

    fn facts(&self, fi: u32) -> &'a gortex_core::FileFacts {
        self.note_file(fi);
        &self.files[fi as usize].facts
    }

    fn sym(&self, s: Sym) -> &'a gortex_core::SymbolFact {
        self.note_symbols(s.0);
        &self.files[s.0 as usize].facts.symbols[s.1 as usize]
    }

    // ---------------------------------------------------------------- module resolution

    /// Resolves an import statement's module specifier to what it denotes.
    fn resolve_module(&self, fi: u32, imp: &ImportFact) -> Option<Entity> {
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

    /// `import "a/b.proto"`: relative to the repository root (the usual `protoc -I .`), then to
    /// the importer's directory, then the one `.proto` whose path ends in `/a/b.proto` (nearest
    /// when several do: proto roots such as `proto/` or `api/` are not configured anywhere).
    fn resolve_proto_import(&self, fi: u32, spec: &str) -> Entity {
        let from = &self.files[fi as usize].path;
        let found = join_path("", spec)
            .and_then(|p| self.path_lookup(&p))
            .or_else(|| join_path(dir_of(from), spec).and_then(|p| self.path_lookup(&p)))
            .or_else(|| self.unique_suffix(from, spec));
        match found {
            Some(f) => Entity::Files(vec![f]),
            None => Entity::External(spec.to_string()),
        }
    }

    /// `require("a.b")` → `a/b.lua` or `a/b/init.lua` from the root, then under `lua/`, `src/`
    /// or `lib/`, then the one file whose path ends so (nearest when several do); else a
    /// library (external).
    fn resolve_lua_require(&self, fi: u32, spec: &str) -> Entity {
        let from = &self.files[fi as usize].path;
        let base = spec.replace('.', "/");
        let candidates = [format!("{base}.lua"), format!("{base}/init.lua")];
        let found = ["", "lua/", "src/", "lib/"]
            .iter()
            .flat_map(|root| candidates.iter().map(move |c| format!("{root}{c}")))
            .find_map(|p| self.path_lookup(&p))
            .or_else(|| candidates.iter().find_map(|c| self.unique_suffix(from, c)));
        match found {
            Some(f) => Entity::Files(vec![f]),
            None => Entity::External(spec.to_string()),
        }
    }

    /// `source x`: `./x` beside the script, else `x` from the root, beside the script, or the
    /// one script whose path ends so; else outside the repository (external).
    fn resolve_source(&self, fi: u32, spec: &str) -> Entity {
        let from = &self.files[fi as usize].path;
        let found = if spec.starts_with("./") || spec.starts_with("../") {
            join_path(dir_of(from), spec).and_then(|p| self.path_lookup(&p))
        } else {
            join_path("", spec)
                .and_then(|p| self.path_lookup(&p))
                .or_else(|| join_path(dir_of(from), spec).and_then(|p| self.path_lookup(&p)))
        };
        match found.or_else(|| self.unique_suffix(from, spec.trim_start_matches("./"))) {
            Some(f) => Entity::Files(vec![f]),
            None => Entity::External(spec.to_string()),
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

    /// `require_relative "./a/b"` → `a/b.rb` beside the requiring file; `require "a/b"` →
    /// `lib/a/b.rb` or `a/b.rb` when the repository has one, else the library (external).
    fn resolve_require(&self, fi: u32, spec: &str) -> Entity {
        let with_ext = if spec.ends_with(".rb") {
            spec.to_string()
        } else {
            format!("{spec}.rb")
        };
        let probes: Vec<String> = if spec.starts_with('.') {
            join_path(dir_of(&self.files[fi as usize].path), &with_ext)
                .into_iter()
                .collect()
        } else {
            ["lib", ""].iter().filter_map(|d| join_path(d, &with_ext)).collect()
        };
        match probes.iter().find_map(|p| self.path_lookup(p)) {
            Some(f) => Entity::Files(vec![f]),
            None => Entity::External(spec.trim_start_matches("./").to_string()),
        }
    }

    /// C, C++, proto, Lua and shell files with this file name. Only import-target computation asks, and import targets
    /// are recomputed and diffed on every build, so no dependency key is needed.
    fn include_named(&self, name: &str) -> &[u32] {
        self.include_by_basename.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// `#include "a/b.h"` (`<a/b.h>` when written with angle brackets): the includer's directory
    /// (quoted form only), then `compile_commands.json` include paths, then the repository root,
    /// then the one file whose path ends in `/a/b.h` (nearest to the includer when several do).
    /// The header comes with the sources that implement it. Not found → external.
    fn resolve_include(&self, fi: u32, spec: &str) -> Entity {
        let (system, spec) = match spec.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
            Some(inner) => (true, inner.trim()),
            None => (false, spec.trim()),
        };
        let from = &self.files[fi as usize].path;
        let mut probes: Vec<String> = Vec::new();
        if !system {
            probes.extend(join_path(dir_of(from), spec));
        }
        for dir in &self.config.c_include_dirs {
            probes.extend(join_path(dir, spec));
        }
        probes.extend(join_path("", spec));
        let found = probes
            .iter()
            .find_map(|p| self.path_lookup(p))
            .or_else(|| self.unique_suffix(from, spec));
        match found {
            Some(header) => {
                let mut files = vec![header];
                files.extend(self.c_implementations(header));
                Entity::Files(files)
            }
            None => Entity::External(spec.to_string()),
        }
    }

    /// The sources implementing a header: same stem, same directory first, else the nearest one.
    fn c_implementations(&self, header: u32) -> Option<u32> {
        let path: &str = &self.files[header as usize].path;
        let name = basename(path);
        let (stem, ext) = name.rsplit_once('.')?;
        if !C_HEADER_EXTS.contains(&ext) {
            return None;
        }
        let mut candidates: Vec<u32> = Vec::new();
        for src_ext in C_SOURCE_EXTS {
            candidates.extend(self.include_named(&format!("{stem}.{src_ext}")));
        }
        nearest(path, &candidates, |f| &self.files[f as usize].path)
    }

    /// Breadth-first over includes: direct headers (and their sources) first, then what those
    /// headers include. Sources are visible but their own includes are not.
    fn c_include_closure(&self, fi: u32) -> Vec<u32> {
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        seen.insert(fi);
        let mut out = Vec::new();
        let mut queue = std::collections::VecDeque::from([fi]);
        while let Some(f) = queue.pop_front() {
            for target in self.import_targets[f as usize].iter().flatten() {
                let Entity::Files(files) = target else { continue };
                for (i, &g) in files.iter().enumerate() {
                    if out.len() >= MAX_C_VISIBLE {
                        return out;
                    }
                    if seen.insert(g) {
                        out.push(g);
                        if i == 0 {
                            queue.push_back(g);
                        }
                    }
                }
            }
        }
        out
    }

    fn probe_es(&self, base: &str) -> Option<u32> {
        const EXTS: [&str; 9] = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
        // Components last: `./Button` means `./Button.vue` only when no script file has the name
        // (bundlers resolve it so when configured to); never a directory's `index.vue`.
        const COMPONENT_EXTS: [&str; 2] = [".vue", ".svelte"];
        if let Some(f) = self.path_lookup(base) {
            return Some(f);
        }
        // `./x.js` written in TS sources means `./x.ts`.
        for (written, actual) in [
            (".js", [".ts", ".tsx"]),
            (".jsx", [".tsx", ".jsx"]),
            (".mjs", [".mts", ".mjs"]),
            (".cjs", [".cts", ".cjs"]),
        ] {
            if let Some(stem) = base.strip_suffix(written) {
                for a in actual {
                    if let Some(f) = self.path_lookup(&format!("{stem}{a}")) {
                        return Some(f);
                    }
                }
            }
        }
        for ext in EXTS.iter().chain(&COMPONENT_EXTS) {
            if let Some(f) = self.path_lookup(&format!("{base}{ext}")) {
                return Some(f);
            }
        }
        let prefix = if base.is_empty() {
            String::new()
        } else {
            format!("{base}/")
        };
        for ext in EXTS {
            if let Some(f) = self.path_lookup(&format!("{prefix}index{ext}")) {
                return Some(f);
            }
        }
        None
    }

    fn resolve_es_module(&self, fi: u32, spec: &str) -> Option<Entity> {
        let path: &str = &self.files[fi as usize].path;
        if spec.starts_with('.') {
            let base = join_path(dir_of(path), spec)?;
            return self.probe_es(&base).map(|f| Entity::Files(vec![f]));
        }
        // The nearest tsconfig/jsconfig above the file.
        let tsconfig = self
            .config
            .ts_configs
            .iter()
            .filter(|c| c.dir.is_empty() || path.starts_with(&format!("{}/", c.dir)))
            .max_by_key(|c| c.dir.len());
        if let Some(cfg) = tsconfig {
            for (pattern, targets) in &cfg.paths {
                let captured = match pattern.split_once('*') {
                    Some((pre, post)) => spec.strip_prefix(pre).and_then(|r| r.strip_suffix(post)),
                    None => (pattern == spec).then_some(""),
                };
                if let Some(star) = captured {
                    for target in targets {
                        if let Some(f) = self.probe_es(&target.replace('*', star)) {
                            return Some(Entity::Files(vec![f]));
                        }
                    }
                }
            }
            if let Some(base) = &cfg.base_url {
                if let Some(f) = join_path(base, spec).and_then(|p| self.probe_es(&p)) {
                    return Some(Entity::Files(vec![f]));
                }
            }
        }
        // Workspace packages by name, with `exports` subpaths.
        for pkg in &self.config.js_packages {
            if spec == pkg.name {
                for entry in &pkg.entries {
                    if let Some(f) = self
                        .probe_es(entry)
                        .or_else(|| self.probe_es(entry.trim_end_matches(".js")))
                    {
                        return Some(Entity::Files(vec![f]));
                    }
                }
            } else if let Some(sub) = spec.strip_prefix(&pkg.name).and_then(|r| r.strip_prefix('/')) {
                let key = format!("./{sub}");
                if let Some((_, target)) = pkg.subpaths.iter().find(|(k, _)| *k == key) {
                    if let Some(f) = self.probe_es(target) {
                        return Some(Entity::Files(vec![f]));
                    }
                }
                for base in [format!("{}/src/{sub}", pkg.dir), format!("{}/{sub}", pkg.dir)] {
                    if let Some(f) = self.probe_es(base.trim_start_matches('/')) {
                        return Some(Entity::Files(vec![f]));
                    }
                }
            }
        }
        Some(Entity::External(spec.to_string()))
    }

    fn resolve_python_module(&self, fi: u32, spec: &str) -> Option<Entity> {
        let path: &str = &self.files[fi as usize].path;
        if spec.starts_with('.') {
            let dots = spec.chars().take_while(|&c| c == '.').count();
            let rest = &spec[dots..];
            let mut dir = dir_of(path).to_string();
            for _ in 1..dots {
                dir = dir_of(&dir).to_string();
            }
            let base = if rest.is_empty() {
                dir
            } else {
                join_path(&dir, &rest.replace('.', "/"))?
            };
            if let Some(f) = self.probe_python(&base) {
                return Some(Entity::Files(vec![f]));
            }
            // A namespace package: a directory without `__init__.py`.
            return self.dir_exists(&base).then_some(Entity::Dir(base));
        }
        let Some(candidates) = self.py_module(spec) else {
            return Some(Entity::External(spec.to_string()));
        };
        // Prefer the module whose source root also holds the importing file, then the shortest path.
        let pick = candidates.iter().copied().max_by_key(|&c| {
            let cpath: &str = &self.files[c as usize].path;
            let root = python_root(cpath, spec);
            let shares_root = root.is_empty() || path.starts_with(&format!("{root}/"));
            (shares_root, std::cmp::Reverse(cpath.len()))
        })?;
        Some(Entity::Files(vec![pick]))
    }

    fn probe_python(&self, base: &str) -> Option<u32> {
        for candidate in [
            format!("{base}.py"),
            format!("{base}/__init__.py"),
            format!("{base}.pyi"),
            format!("{base}/__init__.pyi"),
        ] {
            if let Some(f) = self.path_lookup(candidate.trim_start_matches('/')) {
                return Some(f);
            }
        }
        None
    }

    fn go_files_in(&self, dir: &str) -> Vec<u32> {
        deps::note(deps::DIR, dir);
        self.by_dir
            .get(dir)
            .map(|fs| fs.iter().copied().filter(|&f| self.lang(f) == Language::Go).collect())
            .unwrap_or_default()
    }

    fn resolve_go_import(&self, spec: &str) -> Entity {
        for module in &self.config.go_modules {
            let rest = if spec == module.module {
                Some("")
            } else {
                spec.strip_prefix(&module.module).and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let dir = join_path(&module.dir, rest).unwrap_or_default();
                let files: Vec<u32> = self
                    .go_files_in(&dir)
                    .into_iter()
                    .filter(|&f| !is_test_path(&self.files[f as usize].path))
                    .collect();
                if !files.is_empty() {
                    return Entity::Files(files);
                }
            }
        }
        Entity::External(spec.to_string())
    }

    fn resolve_java_import(&self, imp: &ImportFact) -> Entity {
        match self.java_pkg(imp.module.as_str()) {
            Some(files) => Entity::Files(files.clone()),
            None => {
                // `import static a.b.C.m` names a class as the module: find the class.
                if let Some((pkg, class)) = imp.module.rsplit_once('.') {
                    if let Some(files) = self.java_pkg(pkg) {
                        for &f in files {
                            if let Some(&si) = self.top_of(f, class).and_then(|v| v.first()) {
                                return Entity::Sym((f, si));
                            }
                        }
                    }
                }
                Entity::External(imp.module.clone())
            }
        }
    }

    /// Resolves a Rust path (`crate::a::b`, `super::x`, `a::b`) to a module file or item.
    /// `from_use`: a `use` path (2018 edition: first segment is a crate or a local name).
    fn resolve_rust_path(&self, fi: u32, segments: &[String], from_use: bool) -> Option<Entity> {
        let (crate_key, module) = self.rust_file_module[fi as usize].clone()?;
        let mut segs = segments.iter().map(String::as_str).peekable();
        let mut current: Vec<String>;
        let mut key = crate_key;
        match segs.peek().copied() {
            Some("crate") => {
                segs.next();
                current = Vec::new();
            }
            Some("self") => {
                segs.next();
                current = module.clone();
            }
            Some("super") => {
                current = module.clone();
                while segs.peek().copied() == Some("super") {
                    segs.next();
                    current.pop();
                }
            }
            Some(first) => {
                if let Some(ci) = self.config.cargo_crates.iter().position(|c| c.name == first) {
                    segs.next();
                    key = ci as u32;
                    current = Vec::new();
                } else {
                    let mut local = module.clone();
                    local.push(first.to_string());
                    if self.rust_module(crate_key, &local.join("::")).is_some() {
                        current = module.clone();
                    } else if let Some(entity) = self.resolve_first_plain(fi, first, 0) {
                        // A name brought in by `use` or declared here: continue from it.
                        segs.next();
                        let mut entity = entity.0;
                        for seg in segs {
                            entity = self.member(&entity, seg, 0)?.0;
                        }
                        return Some(entity);
                    } else if from_use || first.chars().next().is_some_and(|c| c.is_lowercase()) {
                        return Some(Entity::External(segments.join("::")));
                    } else {
                        return None;
                    }
                }
            }
            None => return None,
        }
        let mut entity: Option<Entity> = self
            .rust_module(key, &current.join("::"))
            .map(|f| Entity::Files(vec![f]));
        for seg in segs {
            let mut next = current.clone();
            next.push(seg.to_string());
            if let Some(f) = self.rust_module(key, &next.join("::")) {
                entity = Some(Entity::Files(vec![f]));
                current = next;
                continue;
            }
            entity = Some(self.member(entity.as_ref()?, seg, 0)?.0);
        }
        entity
    }

    // ---------------------------------------------------------------- lookups

    /// The innermost type enclosing symbol `si` of file `fi` (itself when it is a type).
    fn enclosing_type(&self, fi: u32, si: u32) -> Option<Sym> {
        let facts = self.facts(fi);
        let mut cur = Some(si);
        let mut guard = 0;
        while let Some(i) = cur {
            guard += 1;
            if guard > 64 {
                return None;
            }
            let s = &facts.symbols[i as usize];
            if s.kind.is_type_like() {
                return Some((fi, i));
            }
            if s.kind == NodeKind::Method && s.parent.is_none() {
                return self.method_owner.get(&(fi, i)).copied();
            }
            cur = s.parent.filter(|&p| p < i);
        }
        None
    }

    /// Members named `name` of a type, its supertypes first-found (breadth-first, bounded).
    fn find_member(&self, ty: Sym, name: &str) -> Option<Sym> {
        let mut queue = vec![ty];
        let mut seen: FxHashSet<Sym> = FxHashSet::default();
        let mut head = 0;
        while head < queue.len() && head < 64 {
            let t = queue[head];
            head += 1;
            if !seen.insert(t) {
                continue;
            }
            if let Some(kids) = self.children_of(t) {
                if let Some(&m) = kids.iter().find(|&&k| self.sym(k).name == name) {
                    return Some(m);
                }
            }
            if let Some(sups) = self.supers_of(t) {
                queue.extend(sups.iter().copied());
            }
        }
        None
    }

    /// A member of what `entity` denotes: a module's export, a type's member, an external path.
    fn member(&self, entity: &Entity, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        match entity {
            Entity::External(path) => {
                let sep = if path.ends_with("::") {
                    ""
                } else if path.contains("::") {
                    "::"
                } else {
                    "."
                };
                Some((Entity::External(format!("{path}{sep}{name}")), Origin::AstResolved))
            }
            Entity::Sym(s) => {
                let sym = self.sym(*s);
                match sym.kind {
                    NodeKind::Type | NodeKind::Interface => self
                        .find_member(*s, name)
                        .map(|m| (Entity::Sym(m), Origin::AstResolved)),
                    NodeKind::Module => self
                        .find_member(*s, name)
                        .or_else(|| self.namespace_member(*s, name, |_| true))
                        .map(|m| (Entity::Sym(m), Origin::AstResolved)),
                    NodeKind::Variable | NodeKind::Constant | NodeKind::Field => {
                        let ty = sym.type_name.as_deref()?;
                        let (t, origin) = self.resolve_type(s.0, ty, depth + 1)?;
                        let (m, o2) = self.member(&t, name, depth + 1)?;
                        Some((m, origin.min(o2)))
                    }
                    _ => None,
                }
            }
            Entity::Files(files) => {
                for &f in files {
                    if let Some(found) = self.export_of(f, name, depth) {
                        return Some(found);
                    }
                }
                None
            }
            Entity::Dir(dir) => {
                let sub = self.probe_python(&join_path(dir, name)?)?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
        }
    }

    /// What module file `f` exports under `name`: its own top-level declaration, a re-export,
    /// a wildcard re-export, or a submodule (Python packages, Rust modules).
    fn export_of(&self, f: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if let Some(syms) = self.top_of(f, name) {
            let facts = self.facts(f);
            let best = syms.iter().copied().max_by_key(|&s| {
                let sym = &facts.symbols[s as usize];
                (sym.exported, sym.kind.is_type_like() || sym.kind.is_callable())
            })?;
            return Some((Entity::Sym((f, best)), Origin::AstResolved));
        }
        let lang = self.lang(f);
        let imports = self.imports_of(f);
        for (k, imp) in imports.iter().enumerate() {
            let forwards = imp.reexport || lang == Language::Python;
            if !forwards || imp.local.as_deref() != Some(name) {
                continue;
            }
            if let Some(found) = self.import_binding(f, k, depth + 1) {
                return Some(found);
            }
        }
        for (k, imp) in imports.iter().enumerate() {
            if imp.kind == ImportKind::Wildcard && (imp.reexport || lang == Language::Python) {
                if let Some(Some(target)) = self.targets_of(f).and_then(|v| v.get(k)) {
                    if let Some(found) = self.member(target, name, depth + 1) {
                        if !matches!(found.0, Entity::External(_)) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        let path: &str = &self.files[f as usize].path;
        match lang {
            Language::Python if path.ends_with("__init__.py") || path.ends_with("__init__.pyi") => {
                let sub = self.probe_python(&join_path(dir_of(path), name)?)?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
            Language::Rust => {
                let (key, module) = self.rust_file_module[f as usize].as_ref()?;
                let mut next = module.clone();
                next.push(name.to_string());
                let sub = self.rust_module(*key, &next.join("::"))?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
            _ => None,
        }
    }

    /// What import `k` of file `f` binds under its local name.
    fn import_binding(&self, f: u32, k: usize, depth: u32) -> Option<(Entity, Origin)> {
        let imp = &self.facts(f).imports[k];
        let target = self.targets_of(f)?.get(k)?.as_ref()?;
        match imp.kind {
            ImportKind::Module | ImportKind::Namespace => {
                if self.lang(f) == Language::Python && imp.name.is_none() {
                    // `import a.b.c` binds `a` unless aliased.
                    let first = imp.module.split('.').next().unwrap_or(&imp.module);
                    if imp.local.as_deref() == Some(first) && imp.module.contains('.') {
                        return self.resolve_python_module(f, first).map(|e| (e, Origin::AstResolved));
                    }
                }
                if self.lang(f) == Language::Rust {
                    if let Some(name) = &imp.name {
                        return self.member(target, name, depth + 1);
                    }
                }
                Some((target.clone(), Origin::AstResolved))
            }
            ImportKind::Named => {
                let name = imp.name.as_deref().or(imp.local.as_deref())?;
                if matches!(self.lang(f), Language::Java | Language::CSharp | Language::Kotlin) {
                    // `import a.b.C`: the class C in package a.b.
                    return self.member(target, name, depth + 1);
                }
                self.member(target, name, depth + 1)
            }
            ImportKind::Default => match target {
                Entity::Files(files) => {
                    for &tf in files {
                        let facts = self.facts(tf);
                        if let Some(si) = facts.symbols.iter().position(|s| s.default_export) {
                            return Some((Entity::Sym((tf, si as u32)), Origin::AstResolved));
                        }
                        // `export { x as default } from` / re-exported default.
                        if let Some(found) = self.export_of(tf, "default", depth + 1) {
                            return Some(found);
                        }
                    }
                    Some((target.clone(), Origin::AstResolved))
                }
                Entity::External(m) => Some((Entity::External(format!("{m}.default")), Origin::AstResolved)),
                Entity::Sym(_) | Entity::Dir(_) => Some((target.clone(), Origin::AstResolved)),
            },
            ImportKind::Wildcard | ImportKind::SideEffect | ImportKind::Dependency => None,
        }
    }

    /// A name as the file sees it, without local variable bindings: its own declarations,
    /// imports, same package, wildcard imports.
    fn resolve_first_plain(&self, fi: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let lang = self.lang(fi);
        if let Some(syms) = self.top_of(fi, name) {
            let sym = (fi, syms[0]);
            if lang == Language::Rust && self.sym(sym).kind == NodeKind::Module {
                // `mod foo;` declares the module file `foo.rs` / `foo/mod.rs`.
                if let Some(file) = self.rust_submodule(fi, name) {
                    return Some((Entity::Files(vec![file]), Origin::AstResolved));
                }
            }
            return Some((Entity::Sym(sym), Origin::AstResolved));
        }
        let facts = self.facts(fi);
        for (k, imp) in facts.imports.iter().enumerate() {
            let binds = match (&imp.local, lang) {
                (Some(local), _) => local == name,
                (None, Language::Go) if imp.kind == ImportKind::Module => {
                    self.go_package_name(fi, k).as_deref() == Some(name)
                }
                (None, Language::Java | Language::CSharp | Language::Kotlin | Language::Scala)
                    if imp.kind == ImportKind::Named =>
                {
                    imp.name.as_deref() == Some(name)
                }
                _ => false,
            };
            if binds {
                if let Some(found) = self.import_binding(fi, k, depth + 1) {
                    return Some(found);
                }
            }
        }
        match lang {
            Language::Go => {
                let dir = dir_of(&self.files[fi as usize].path);
                let pkg = facts.package.as_deref();
                for f in self.go_files_in(dir) {
                    if f != fi && self.facts(f).package.as_deref() == pkg {
                        if let Some(syms) = self.top_of(f, name) {
                            return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                        }
                    }
                }
            }
            Language::Java | Language::Kotlin | Language::Php | Language::Scala | Language::Swift => {
                let pkg = match lang {
                    Language::Swift => self.swift_modules.get(&fi).copied(),
                    _ => facts.package.as_deref(),
                };
                if let Some(pkg) = pkg {
                    for &f in self.java_pkg(pkg).into_iter().flatten() {
                        if f != fi {
                            if let Some(syms) = self.top_of(f, name) {
                                return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                            }
                        }
                    }
                }
            }
            Language::CSharp => {
                // The file's namespace, then each enclosing one (`A.B.C` sees `A.B` and `A`).
                let mut pkg = facts.package.as_deref();
                while let Some(p) = pkg {
                    for &f in self.java_pkg(p).into_iter().flatten() {
                        if f != fi {
                            if let Some(syms) = self.top_of(f, name) {
                                return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                            }
                        }
                    }
                    pkg = p.rsplit_once('.').map(|(outer, _)| outer);
                }
            }
            Language::C | Language::Cpp => {
                // What the includes make visible, nearest first.
                for &f in &self.c_visible[fi as usize] {
                    // The list follows these files' includes (a derived table no key names).
                    self.note_file(f);
                    if let Some(syms) = self.top_of(f, name) {
                        let facts = self.facts(f);
                        let best = syms.iter().copied().max_by_key(|&s| {
                            let sym = &facts.symbols[s as usize];
                            (sym.exported, sym.kind.is_type_like() || sym.kind.is_callable())
                        });
                        if let Some(best) = best {
                            return Some((Entity::Sym((f, best)), Origin::AstResolved));
                        }
                    }
                }
            }
            Language::Rust => {
                if let Some(ci) = self.config.cargo_crates.iter().position(|c| c.name == name) {
                    if let Some(f) = self.rust_module(ci as u32, "") {
                        return Some((Entity::Files(vec![f]), Origin::AstResolved));
                    }
                }
                // `mod foo;` declared here.
                if let Some((key, module)) = &self.rust_file_module[fi as usize] {
                    let mut next = module.clone();
                    next.push(name.to_string());
                    if let Some(f) = self.rust_module(*key, &next.join("::")) {
                        return Some((Entity::Files(vec![f]), Origin::AstResolved));
                    }
                }
            }
            _ => {}
        }
        for (k, imp) in facts.imports.iter().enumerate() {
            if imp.kind != ImportKind::Wildcard {
                continue;
            }
            if let Some(Some(target)) = self.targets_of(fi).and_then(|v| v.get(k)) {
                if let Some(found) = self.member(target, name, depth + 1) {
                    if !matches!(found.0, Entity::External(_)) {
                        return Some(found);
                    }
                }
            }
        }
        // Kotlin imports its standard library's top-level functions into every file.
        if lang == Language::Kotlin && KOTLIN_IMPLICIT.contains(&name) {
            return Some((Entity::External(format!("kotlin.{name}")), Origin::AstResolved));
        }
        // Scala's `Predef` and the `scala` package are imported into every file.
        if lang == Language::Scala && SCALA_IMPLICIT.contains(&name) {
            return Some((Entity::External(format!("scala.{name}")), Origin::AstResolved));
        }
        // Swift's standard library is imported into every file; `XCT…` names (XCTestCase,
        // XCTAssertEqual, XCTFail) are the XCTest module's.
        if lang == Language::Swift {
            if SWIFT_IMPLICIT.contains(&name) {
                return Some((Entity::External(format!("swift.{name}")), Origin::AstResolved));
            }
            if name.starts_with("XCT") {
                return Some((Entity::External(format!("XCTest.{name}")), Origin::AstResolved));
            }
            // Apple's frameworks and the common test DSLs, only where the file imports them.
            for (module, importers, names) in SWIFT_FRAMEWORKS {
                if names.contains(&name) && facts.imports.iter().any(|i| importers.contains(&i.module.as_str())) {
                    return Some((Entity::External(format!("{module}.{name}")), Origin::AstResolved));
                }
            }
        }
        // Lua's standard library: global functions and library tables (`string.format`).
        if lang == Language::Lua && LUA_GLOBALS.contains(&name) {
            return Some((Entity::External(format!("lua.{name}")), Origin::AstResolved));
        }
        // Ruby's `Kernel` (every object's private methods) and the `Module` methods a class body
        // calls on itself (`attr_reader`, `include`, `private`).
        if lang == Language::Ruby {
            if RUBY_KERNEL.contains(&name) {
                return Some((Entity::External(format!("ruby.Kernel.{name}")), Origin::AstResolved));
            }
            if RUBY_MODULE.contains(&name) {
                return Some((Entity::External(format!("ruby.Module.{name}")), Origin::AstResolved));
            }
        }
        None
    }

    fn rust_submodule(&self, fi: u32, name: &str) -> Option<u32> {
        let (key, module) = self.rust_file_module[fi as usize].as_ref()?;
        let mut next = module.clone();
        next.push(name.to_string());
        self.rust_module(*key, &next.join("::"))
    }

    /// True when a member call's receiver is known to live outside the repository (a global
    /// such as `console`/`JSON`/`String`, or a capitalised name nothing in scope declares):
    /// a same-named method elsewhere in the repo would be a wrong guess.
    fn receiver_is_foreign(&self, fi: u32, scope: Option<u32>, receiver: &Receiver) -> bool {
        let first = match receiver {
            Receiver::Name(x) => x.as_str(),
            Receiver::Path(p) => match p.first() {
                Some(x) => x.as_str(),
                None => return false,
            },
            _ => return false,
        };
        if KNOWN_GLOBALS.contains(&first) {
            return true;
        }
        first.chars().next().is_some_and(char::is_uppercase)
            && first != "Self"
            && self.resolve_receiver_name(fi, scope, first, 0).is_none()
    }

    fn go_package_name(&self, fi: u32, k: usize) -> Option<String> {
        let imp = &self.facts(fi).imports[k];
        if let Some(Some(Entity::Files(files))) = self.targets_of(fi).and_then(|v| v.get(k)) {
            if let Some(pkg) = files.first().and_then(|&f| self.facts(f).package.clone()) {
                return Some(pkg);
            }
        }
        // External packages: the last path element, skipping major-version suffixes.
        let mut parts = imp.module.rsplit('/');
        let last = parts.next()?;
        let is_version = last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
        let name = if is_version { parts.next()? } else { last };
        Some(name.trim_start_matches("go-").replace(['-', '.'], "_"))
    }

    /// A type name as file `fi` sees it. Name-only matches are `text_matched`.
    fn resolve_type(&self, fi: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if name.starts_with("std::") && self.lang(fi).is_c_family() {
            // The C++ standard library never lives in the repository.
            return Some((Entity::External(name.to_string()), Origin::AstResolved));
        }
        if let Some((e, o)) = self.resolve_first_plain(fi, name, depth) {
            match &e {
                Entity::Sym(s) if self.sym(*s).kind.is_type_like() => return Some((e, o)),
                // `include Loggable`: Ruby modules are mixed into classes; Lua module tables own
                // the functions declared on them (`function M.f()`).
                Entity::Sym(s)
                    if matches!(self.lang(fi), Language::Ruby | Language::Lua)
                        && self.sym(*s).kind == NodeKind::Module =>
                {
                    return Some((e, o))
                }
                Entity::External(_) => return Some((e, o)),
                _ => {}
            }
        }
        match self.name_only(fi, name, |k| k.is_type_like(), None) {
            NameOnly::One(s) => Some((Entity::Sym(s), Origin::TextMatched)),
            _ => None,
        }
    }

    /// Resolves the type target of an `extends`/`implements`/annotation reference.
    fn resolve_type_ref(&self, fi: u32, r: &RefFact, depth: u32) -> Option<(Entity, Origin)> {
        if r.kind == EdgeKind::Implements && self.lang(fi) == Language::Swift {
            // `extension T: P`: the receiver is the conforming type, not a qualifier of P.
            return self.resolve_type(fi, &r.name, depth);
        }
        match &r.receiver {
            Receiver::Name(ns) => {
                let (base, o1) = self.resolve_first_plain(fi, ns, depth)?;
                let (m, o2) = self.member(&base, &r.name, depth + 1)?;
                Some((m, o1.min(o2)))
            }
            Receiver::Path(path) => {
                let (base, o1) = self.resolve_path(fi, None, path, depth)?;
                let (m, o2) = self.member(&base, &r.name, depth + 1)?;
                Some((m, o1.min(o2)))
            }
            _ => self.resolve_type(fi, &r.name, depth),
        }
    }

    /// Same-language candidates named `name` in the whole repository.
    fn name_only(&self, fi: u32, name: &str, want: impl Fn(NodeKind) -> bool, exclude: Option<Sym>) -> NameOnly {
        let family = self.lang(fi).family();
        let Some(cands) = self.named(name) else {
            return NameOnly::None;
        };
        // Production code does not call into test files; a name match there is a fake or a fixture.
        let caller_is_test = self.facts(fi).test_runner.is_some();
        let mut found = None;
        let mut count = 0u32;
        for &c in cands {
            // Raw reads, not recorded: the candidate set is covered by the NAME key, and the one
            // candidate an edge points at is recorded when the edge is emitted.
            let file = &self.files[c.0 as usize];
            if Some(c) == exclude || file.language.family() != family || !want(file.facts.symbols[c.1 as usize].kind) {
                continue;
            }
            if !caller_is_test && file.facts.test_runner.is_some() {
                continue;
            }
            count += 1;
            found = Some(c);
            // Only uniqueness matters; common names (thousands of `foo`s in test corpora) would
            // otherwise make every lookup linear in the repository.
            if count >= MAX_COUNTED_CANDIDATES {
                break;
            }
        }
        match (count, found) {
            (1, Some(s)) => NameOnly::One(s),
            (0, _) => NameOnly::None,
            (n, _) => NameOnly::Many(n),
        }
    }

    /// Resolves a chain of identifiers (a receiver path) from a scope.
    fn resolve_path(&self, fi: u32, scope: Option<u32>, path: &[String], depth: u32) -> Option<(Entity, Origin)> {
        if self.lang(fi) == Language::Rust {
            if let Some(e) = self.resolve_rust_path(fi, path, false) {
                return Some((e, Origin::AstResolved));
            }
        }
        if matches!(self.lang(fi), Language::Php | Language::CSharp) && path.len() > 1 {
            // A fully qualified name's namespace (`\App\Models\Order`, `Acme.Store.MemoryStore`)
            // is a package.
            if let Some(files) = self.java_pkg(&path.join(".")) {
                return Some((Entity::Files(files.clone()), Origin::AstResolved));
            }
        }
        let (first, rest) = path.split_first()?;
        let (mut entity, mut origin) = self.resolve_receiver_name(fi, scope, first, depth)?;
        for seg in rest {
            let (e, o) = self.member(&entity, seg, depth + 1)?;
            entity = e;
            origin = origin.min(o);
        }
        Some((entity, origin))
    }

    /// What an identifier used as a receiver denotes: a typed local, a parameter, an import,
    /// a type (static access), a field of the enclosing type (Java's implicit `this`).
    fn resolve_receiver_name(&self, fi: u32, scope: Option<u32>, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(found) = self.binding_type(fi, scope, name, depth) {
            return Some(found);
        }
        if name == "Self" {
            let ty = self.enclosing_type(fi, scope?)?;
            return Some((Entity::Sym(ty), Origin::AstResolved));
        }
        if name == "std" && self.lang(fi) == Language::Cpp {
            // `std::sort(…)`, `std::chrono::now()`: the standard library, outside the repository.
            return Some((Entity::External("std::".into()), Origin::AstResolved));
        }
        if merges_namespaces(self.lang(fi)) {
            // Inside `namespace a { … }`, names of every merged `a` block are in scope.
            let facts = self.facts(fi);
            let mut cur = scope;
            while let Some(s) = cur {
                if facts.symbols[s as usize].kind == NodeKind::Module {
                    if let Some(k) = self.namespace_member((fi, s), name, |_| true) {
                        return Some((Entity::Sym(k), Origin::AstResolved));
                    }
                }
                cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
            }
        }
        if let Some(found) = self.resolve_first_plain(fi, name, depth) {
            return Some(found);
        }
        if matches!(
            self.lang(fi),
            Language::Java | Language::Cpp | Language::CSharp | Language::Kotlin | Language::Scala | Language::Swift
        ) {
            // An implicit `this`: a field of the enclosing type (or of an out-of-line method's class).
            let ty = self.enclosing_type(fi, scope?)?;
            let field = self.find_member(ty, name)?;
            if self.sym(field).kind == NodeKind::Field {
                return self.member_entity_type(field, depth);
            }
        }
        None
    }

    /// The type of a field/variable symbol.
    fn member_entity_type(&self, s: Sym, depth: u32) -> Option<(Entity, Origin)> {
        let ty = self.sym(s).type_name.as_deref()?;
        self.resolve_type(s.0, ty, depth + 1)
    }

    /// The type of a local binding visible from `scope` (innermost scope first, then module).
    fn binding_type(&self, fi: u32, scope: Option<u32>, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        let facts = self.facts(fi);
        let mut chain: Vec<Option<u32>> = Vec::new();
        let mut cur = scope;
        while let Some(s) = cur {
            chain.push(Some(s));
            cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
            if chain.len() > 64 {
                break;
            }
        }
        chain.push(None);
        for sc in chain {
            let Some(&bi) = self.bindings[fi as usize].get(&(sc, name)) else {
                continue;
            };
            let b = &facts.bindings[bi as usize];
            return match &b.value {
                BindingValue::Type { name: ty } => {
                    let (e, o) = self.resolve_type(fi, ty, depth + 1)?;
                    Some((e, o))
                }
                BindingValue::Call { receiver, name: callee } => {
                    let (target, _) = self.resolve_callee(fi, sc, receiver, callee, depth + 1)?;
                    let Entity::Sym(t) = target else { return None };
                    let callee_sym = self.sym(t);
                    if callee_sym.kind.is_type_like() {
                        // `x = Foo()` in Python / `Foo::new`-less constructors.
                        return Some((Entity::Sym(t), Origin::AstInferred));
                    }
                    let ret = callee_sym.return_type.as_deref()?;
                    let (e, _) = self.resolve_type(t.0, ret, depth + 1)?;
                    Some((e, Origin::AstInferred))
                }
            };
        }
        None
    }

    /// Resolves a call's target (used for return-type inference and for call edges).
    fn resolve_callee(
        &self,
        fi: u32,
        scope: Option<u32>,
        receiver: &Receiver,
        name: &str,
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let lang = self.lang(fi);
        match receiver {
            Receiver::None => {
                // Nested declarations of enclosing functions. A type's members are not in scope by
                // their bare name (TypeScript, Python, a Vue component's methods); the languages
                // where they are look them up through the hierarchy below.
                let facts = self.facts(fi);
                let mut cur = scope;
                while let Some(s) = cur {
                    let kids = if facts.symbols[s as usize].kind.is_type_like() {
                        None
                    } else {
                        self.children_of((fi, s))
                    };
                    if let Some(kids) = kids {
                        if let Some(&k) = kids
                            .iter()
                            .find(|&&k| self.sym(k).name == name && self.sym(k).kind.is_callable())
                        {
                            return Some((Entity::Sym(k), Origin::AstResolved));
                        }
                    }
                    // TypeScript namespaces merge across files: `namespace ts { … }` in another file
                    // declares names this block sees unqualified.
                    if facts.symbols[s as usize].kind == NodeKind::Module {
                        let want = |k: NodeKind| k.is_callable() || k.is_type_like();
                        if let Some(k) = self.namespace_member((fi, s), name, want) {
                            return Some((Entity::Sym(k), Origin::AstResolved));
                        }
                    }
                    // Java, C#, C++, Kotlin, Ruby, Scala and Swift call their own (and inherited)
                    // methods without `this`.
                    if matches!(
                        lang,
                        Language::Java
                            | Language::Cpp
                            | Language::CSharp
                            | Language::Kotlin
                            | Language::Ruby
                            | Language::Scala
                            | Language::Swift
                    ) && facts.symbols[s as usize].kind.is_type_like()
                    {
                        if let Some(m) = self.find_member((fi, s), name) {
                            return Some((Entity::Sym(m), Origin::AstResolved));
                        }
                    }
                    cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
                }
                // An out-of-line C++ method (`void Foo::bar() { baz(); }`) sees Foo's members.
                if lang == Language::Cpp {
                    if let Some(ty) = scope.and_then(|s| self.enclosing_type(fi, s)) {
                        if let Some(m) = self.find_member(ty, name) {
                            return Some((Entity::Sym(m), Origin::AstResolved));
                        }
                    }
                }
                if self.binding_type(fi, scope, name, depth).is_some() {
                    return None; // a local variable holding a value, not a declared callable
                }
                let found = self.resolve_first_plain(fi, name, depth);
                if found.is_none() && matches!(lang, Language::Php | Language::Bash) && self.named(name).is_none() {
                    // An unqualified PHP function call falls back to the global namespace: what
                    // the repository never declares is a built-in or extension (`count`, `isset`).
                    // A shell command nothing declares is a program (`grep`, `git`) or builtin.
                    let prefix = if lang == Language::Php { "php" } else { "sh" };
                    return Some((Entity::External(format!("{prefix}.{name}")), Origin::AstResolved));
                }
                found
            }
            Receiver::SelfRef => {
                let ty = self.enclosing_type(fi, scope?)?;
                let member = self
                    .find_member(ty, name)
                    .map(|m| (Entity::Sym(m), Origin::AstResolved));
                // A Vue component's or mixin's `this.$emit(…)`, `this.$nextTick(…)`: the framework's
                // instance API.
                member.or_else(|| {
                    // (A Svelte component has no `this`; one in plain script renders with `render(h)`.)
                    let flavor = self.sym(ty).flavor;
                    let vue = (lang != Language::Svelte && flavor == Some(TypeFlavor::Component))
                        || flavor == Some(TypeFlavor::Mixin);
                    (vue && name.starts_with('$'))
                        .then(|| (Entity::External(format!("vue.{name}")), Origin::AstResolved))
                })
            }
            Receiver::Super => {
                let ty = self.enclosing_type(fi, scope?)?;
                let sups = self.supers_of(ty)?;
                let wanted: &[&str] = if matches!(name, "super" | "__init__" | "constructor") {
                    &["constructor", "__init__", "new"]
                } else {
                    &[name]
                };
                for &sup in sups {
                    for w in wanted {
                        if let Some(m) = self.find_member(sup, w) {
                            return Some((Entity::Sym(m), Origin::AstResolved));
                        }
                    }
                    if lang == Language::Java && name == "super" {
                        if let Some(m) = self.find_member(sup, &self.sym(sup).name) {
                            return Some((Entity::Sym(m), Origin::AstResolved));
                        }
                    }
                }
                // `super()` with only an implicit constructor: the supertype itself.
                if wanted.len() > 1 || (lang == Language::Java && name == "super") {
                    return sups.first().map(|&s| (Entity::Sym(s), Origin::AstResolved));
                }
                None
            }
            Receiver::SelfField(field) => {
                let ty = self.enclosing_type(fi, scope?)?;
                let f = self.find_member(ty, field)?;
                let (t, o) = self.member_entity_type(f, depth)?;
                let (m, o2) = self.member(&t, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Name(x) => {
                let (base, o) = self.resolve_receiver_name(fi, scope, x, depth)?;
                let (m, o2) = self.member(&base, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Path(path) => {
                let (base, o) = self.resolve_path(fi, scope, path, depth)?;
                let (m, o2) = self.member(&base, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Call(f) => {
                let (callee, _) = self.resolve_callee(fi, scope, &Receiver::None, f, depth + 1)?;
                let Entity::Sym(c) = callee else { return None };
                let csym = self.sym(c);
                let ty = if csym.kind.is_type_like() {
                    Entity::Sym(c)
                } else {
                    self.resolve_type(c.0, csym.return_type.as_deref()?, depth + 1)?.0
                };
                let (m, _) = self.member(&ty, name, depth + 1)?;
                Some((m, Origin::AstInferred))
            }
            Receiver::Expr => None,
        }
    }
}

/// Names every Scala file sees without an import (`scala.Predef` and the `scala` package).
const SCALA_IMPLICIT: &[&str] = &[
    "println",
    "print",
    "printf",
    "require",
    "assert",
    "assume",
    "identity",
    "implicitly",
    "summon",
    "List",
    "Nil",
    "Seq",
    "IndexedSeq",
    "Vector",
    "Map",
    "Set",
    "Option",
    "Some",
    "None",
    "Either",
    "Left",
    "Right",
    "Iterator",
    "Range",
    "BigInt",
    "BigDecimal",
    "StringBuilder",
    "Array",
    "Tuple2",
    "Unit",
    "Int",
    "Long",
    "Double",
    "Float",
    "Boolean",
    "String",
    "Char",
    "Byte",
    "Short",
    "Any",
    "AnyRef",
    "Nothing",
    "Null",
    "Function1",
    "PartialFunction",
    "Throwable",
    "Exception",
    "RuntimeException",
    "IllegalArgumentException",
    "IllegalStateException",
    "NoSuchElementException",
    "Ordering",
    "Numeric",
    "classOf",
];

/// `Kernel` methods a Ruby file calls without a receiver (`puts`, `raise`, `require`); a
/// repository method of the same name in scope still wins.
const RUBY_KERNEL: &[&str] = &[
    "puts",
    "print",
    "p",
    "pp",
    "printf",
    "sprintf",
    "format",
    "putc",
    "gets",
    "warn",
    "raise",
    "fail",
    "require",
    "require_relative",
    "load",
    "autoload",
    "block_given?",
    "iterator?",
    "lambda",
    "proc",
    "loop",
    "catch",
    "throw",
    "sleep",
    "rand",
    "srand",
    "exit",
    "exit!",
    "abort",
    "at_exit",
    "system",
    "exec",
    "spawn",
    "fork",
    "trap",
    "caller",
    "caller_locations",
    "binding",
    "open",
    "select",
    "readline",
    "readlines",
    "__method__",
    "__dir__",
    "object_id",
    "instance_variable_get",
    "instance_variable_set",
    "frozen?",
    "respond_to?",
    "send",
    "public_send",
    "method",
    "define_singleton_method",
    "singleton_class",
    "freeze",
    "dup",
    "clone",
    "tap",
    "then",
    "is_a?",
    "kind_of?",
    "instance_of?",
    "nil?",
    "to_s",
    "inspect",
    "extend",
    "eval",
    "instance_eval",
    "instance_exec",
    "local_variables",
];

/// `Module` methods a Ruby class or module body calls on itself.
const RUBY_MODULE: &[&str] = &[
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "attr",
    "include",
    "prepend",
    "private",
    "public",
    "protected",
    "module_function",
    "private_constant",
    "public_constant",
    "private_class_method",
    "public_class_method",
    "define_method",
    "alias_method",
    "remove_method",
    "undef_method",
    "class_eval",
    "module_eval",
    "class_exec",
    "module_exec",
    "const_get",
    "const_set",
    "const_defined?",
    "instance_method",
    "method_defined?",
    "refine",
    "using",
];

/// Lua's global functions and standard library tables (5.1–5.4).
const LUA_GLOBALS: &[&str] = &[
    "assert",
    "collectgarbage",
    "dofile",
    "error",
    "getmetatable",
    "ipairs",
    "load",
    "loadfile",
    "loadstring",
    "next",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "require",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
    "coroutine",
    "debug",
    "io",
    "math",
    "os",
    "package",
    "string",
    "table",
    "utf8",
    "bit32",
];

/// Kotlin standard-library functions and types every file sees without an import (`kotlin.*`,
/// `kotlin.collections.*`, …); a repository declaration of the same name still wins.
/// Free functions and types of Swift's standard library that code calls unqualified (the module
/// `Swift` is imported into every file).
const SWIFT_IMPLICIT: &[&str] = &[
    "print",
    "debugPrint",
    "dump",
    "fatalError",
    "precondition",
    "preconditionFailure",
    "assert",
    "assertionFailure",
    "min",
    "max",
    "abs",
    "zip",
    "stride",
    "repeatElement",
    "sequence",
    "swap",
    "type",
    "withUnsafePointer",
    "withUnsafeMutablePointer",
    "withUnsafeBytes",
    "withExtendedLifetime",
    "withCheckedContinuation",
    "withCheckedThrowingContinuation",
    "withTaskGroup",
    "withThrowingTaskGroup",
    "unsafeBitCast",
    "numericCast",
    "readLine",
    "Int",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "UInt",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "Double",
    "Float",
    "Bool",
    "String",
    "Character",
    "Array",
    "Dictionary",
    "Set",
    "Optional",
    "Result",
    "Range",
    "ClosedRange",
    "Substring",
    "ContiguousArray",
    "ObjectIdentifier",
    "AnyHashable",
    "Task",
    "Error",
    "Equatable",
    "Hashable",
    "Comparable",
    "Identifiable",
    "Codable",
    "Encodable",
    "Decodable",
    "CustomStringConvertible",
    "CustomDebugStringConvertible",
    "CaseIterable",
    "RawRepresentable",
    "Sendable",
    "Sequence",
    "Collection",
    "IteratorProtocol",
];

/// Names of Swift frameworks a file sees once it imports one of the listed modules (UIKit, AppKit
/// and SwiftUI re-export Foundation): (stub module, importing modules, names).
type SwiftFramework = (&'static str, &'static [&'static str], &'static [&'static str]);
const SWIFT_FRAMEWORKS: &[SwiftFramework] = &[
    (
        "Foundation",
        &["Foundation", "UIKit", "AppKit", "SwiftUI", "Combine", "CoreGraphics"],
        &[
            "URL",
            "URLRequest",
            "URLSession",
            "URLSessionTask",
            "URLSessionDataTask",
            "URLResponse",
            "HTTPURLResponse",
            "URLComponents",
            "URLQueryItem",
            "Data",
            "Date",
            "UUID",
            "TimeInterval",
            "TimeZone",
            "Locale",
            "Calendar",
            "DateFormatter",
            "NumberFormatter",
            "JSONEncoder",
            "JSONDecoder",
            "JSONSerialization",
            "PropertyListEncoder",
            "PropertyListDecoder",
            "NotificationCenter",
            "Notification",
            "Bundle",
            "FileManager",
            "ProcessInfo",
            "UserDefaults",
            "DispatchQueue",
            "DispatchGroup",
            "DispatchSemaphore",
            "OperationQueue",
            "Thread",
            "Timer",
            "RunLoop",
            "NSLock",
            "NSRecursiveLock",
            "NSObject",
            "NSError",
            "NSException",
            "NSNumber",
            "NSString",
            "NSArray",
            "NSDictionary",
            "NSNull",
            "NSRange",
            "NSMakeRange",
            "NSData",
            "NSMutableData",
            "NSRegularExpression",
            "NSCoder",
            "NSStringFromClass",
            "NSClassFromString",
            "NSSelectorFromString",
            "NSLocalizedString",
            "NSSearchPathForDirectoriesInDomains",
            "Selector",
            "CGFloat",
            "CGSize",
            "CGPoint",
            "CGRect",
            "CGVector",
            "CGColor",
            "Scanner",
            "CharacterSet",
            "IndexPath",
            "IndexSet",
            "Measurement",
            "Progress",
            "AttributedString",
            "NSAttributedString",
        ],
    ),
    (
        "Quick",
        &["Quick"],
        &[
            "describe",
            "context",
            "it",
            "fit",
            "xit",
            "fdescribe",
            "xdescribe",
            "fcontext",
            "xcontext",
            "beforeEach",
            "afterEach",
            "beforeSuite",
            "afterSuite",
            "justBeforeEach",
            "aroundEach",
            "itBehavesLike",
            "sharedExamples",
        ],
    ),
    (
        "Nimble",
        &["Nimble"],
        &[
            "expect",
            "fail",
            "waitUntil",
            "equal",
            "beNil",
            "beTrue",
            "beFalse",
            "beEmpty",
            "beAKindOf",
            "beAnInstanceOf",
            "beIdenticalTo",
            "beCloseTo",
            "beGreaterThan",
            "beGreaterThanOrEqualTo",
            "beLessThan",
            "beLessThanOrEqualTo",
            "beginWith",
            "endWith",
            "contain",
            "haveCount",
            "match",
            "throwError",
            "raiseException",
            "satisfyAllOf",
            "satisfyAnyOf",
            "succeed",
            "toEventually",
        ],
    ),
];

const KOTLIN_IMPLICIT: &[&str] = &[
    "require",
    "requireNotNull",
    "check",
    "checkNotNull",
    "error",
    "TODO",
    "synchronized",
    "println",
    "print",
    "lazy",
    "run",
    "let",
    "also",
    "apply",
    "with",
    "repeat",
    "listOf",
    "listOfNotNull",
    "mutableListOf",
    "arrayListOf",
    "emptyList",
    "setOf",
    "mutableSetOf",
    "emptySet",
    "mapOf",
    "mutableMapOf",
    "hashMapOf",
    "linkedMapOf",
    "emptyMap",
    "arrayOf",
    "arrayOfNulls",
    "emptyArray",
    "sequenceOf",
    "buildString",
    "buildList",
    "minOf",
    "maxOf",
    "ReplaceWith",
    "AssertionError",
    "IllegalArgumentException",
    "IllegalStateException",
    "UnsupportedOperationException",
    "Pair",
    "Triple",
];

/// Receivers that are runtime/standard-library globals in the languages we index.
const KNOWN_GLOBALS: &[&str] = &[
    "console",
    "JSON",
    "Math",
    "Object",
    "Array",
    "Promise",
    "process",
    "window",
    "document",
    "globalThis",
    "Reflect",
    "Number",
    "String",
    "Symbol",
    "Date",
    "Buffer",
    "require",
    "module",
    "exports",
    "navigator",
    "localStorage",
    "fetch",
    "str",
    "dict",
    "list",
    "set",
    "tuple",
    "int",
    "float",
    "bytes",
    "os",
    "sys",
    "re",
    "json",
    "logging",
    "math",
    "System",
    "Arrays",
    "Collections",
    "Objects",
    "Integer",
    "Long",
    "Boolean",
    "Optional",
    "Stream",
    "std",
    "core",
    "alloc",
    "Vec",
    "Box",
    "Rc",
    "Arc",
    "Option",
    "Result",
    "HashMap",
    "HashSet",
    "BTreeMap",
];

enum NameOnly {
    None,
    One(Sym),
    Many(u32),
}

/// The crate key and module path of a Rust file: `src/a/b.rs` → `a::b` in the innermost crate
/// holding it; files outside `src/` (tests, benches, examples) are crate roots of their own.
pub(crate) fn rust_module_of(crates: &[crate::config::CargoCrate], path: &str, fi: u32) -> (u32, Vec<String>) {
    let krate = crates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.dir.is_empty() || path.starts_with(&format!("{}/", c.dir)))
        .max_by_key(|(_, c)| c.dir.len());
    let (crate_key, rel) = match krate {
        Some((ci, c)) => {
            let rel = if c.dir.is_empty() {
                path
            } else {
                &path[c.dir.len() + 1..]
            };
            match rel.strip_prefix("src/") {
                Some(r) => (ci as u32, r.to_string()),
                None => (u32::MAX - fi, "lib.rs".to_string()),
            }
        }
        None => (u32::MAX - fi, "lib.rs".to_string()),
    };
    let trimmed = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = trimmed.split('/').map(str::to_string).collect();
    match parts.last().map(String::as_str) {
        Some("mod") => {
            parts.pop();
        }
        Some("lib") | Some("main") if parts.len() == 1 => parts.clear(),
        _ => {}
    }
    if parts.first().map(String::as_str) == Some("bin") && parts.len() == 2 {
        parts.clear();
    }
    (crate_key, parts)
}

/// The qualified name of a TypeScript namespace block (`ts.server`), when every enclosing
/// declaration is itself a namespace (namespaces inside functions do not merge).
/// Languages whose `namespace a { … }` blocks merge across files (TypeScript, C++, Ruby modules).
fn merges_namespaces(lang: Language) -> bool {
    lang.is_ecmascript() || matches!(lang, Language::Cpp | Language::Ruby)
}

/// Whether a C/C++ (or Ruby) symbol is looked up as a file-level name: declared at file scope or
/// inside namespaces/modules only (they do not hide names from other files here), and not an
/// out-of-line method (those belong to their class).
fn c_top_level(facts: &gortex_core::FileFacts, si: u32) -> bool {
    let sym = &facts.symbols[si as usize];
    if sym.kind == NodeKind::Method && sym.parent.is_none() && sym.type_name.is_some() {
        return false;
    }
    let mut cur = sym.parent.filter(|&p| p < si);
    while let Some(p) = cur {
        let parent = &facts.symbols[p as usize];
        if parent.kind != NodeKind::Module {
            return false;
        }
        cur = parent.parent.filter(|&q| q < p);
    }
    true
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

fn namespace_path(facts: &gortex_core::FileFacts, si: u32) -> Option<String> {
    let mut parts = Vec::new();
    let mut cur = Some(si);
    while let Some(i) = cur {
        let sym = facts.symbols.get(i as usize)?;
        if sym.kind != NodeKind::Module {
            return None;
        }
        parts.push(sym.name.as_str());
        cur = sym.parent.filter(|&p| p < i);
    }
    parts.reverse();
    Some(parts.join("."))
}

/// A file's namespace blocks: (qualified name, symbol index) of each `namespace`/`module`
/// declaration nested only in others.
fn namespace_blocks(facts: &gortex_core::FileFacts) -> impl Iterator<Item = (String, u32)> + '_ {
    (0..facts.symbols.len() as u32).filter_map(|si| Some((namespace_path(facts, si)?, si)))
}

/// Every dotted module name a Python file can be imported as (one per possible source root).
pub(crate) fn python_module_keys(path: &str) -> Vec<String> {
    let stem = path
        .strip_suffix("/__init__.py")
        .or_else(|| path.strip_suffix("/__init__.pyi"))
        .or_else(|| path.strip_suffix(".pyi"))
        .or_else(|| path.strip_suffix(".py"));
    let Some(stem) = stem else { return Vec::new() };
    let parts: Vec<&str> = stem.split('/').collect();
    (0..parts.len()).map(|i| parts[i..].join(".")).collect()
}

/// The source root under which `path` is importable as `module`.
fn python_root<'p>(path: &'p str, module: &str) -> &'p str {
    let depth = module.split('.').count();
    let is_init = path.ends_with("__init__.py") || path.ends_with("__init__.pyi");
    let mut cut = path;
    for _ in 0..depth + usize::from(is_init) {
        cut = dir_of(cut);
    }
    cut
}

fn accepts(kind: EdgeKind, target: NodeKind) -> bool {
    match kind {
        // A Ruby module mixed in with `include` is a supertype.
        EdgeKind::Extends => target.is_type_like() || target == NodeKind::Module,
        EdgeKind::Implements | EdgeKind::TypedAs | EdgeKind::Returns => target.is_type_like(),
        EdgeKind::Calls => {
            target.is_callable()
                || target.is_type_like()
                || matches!(target, NodeKind::Variable | NodeKind::Constant | NodeKind::Field)
        }
        EdgeKind::Instantiates => target.is_type_like() || target.is_callable(),
        _ => target.is_symbol(),
    }
}

/// Maps symbols of any file to path-space endpoints of one file's [`ResolvedFile`].
struct Emitter<'t, 'a> {
    t: &'t Tables<'a>,
    index: FxHashMap<u32, u32>,
    out: ResolvedFile,
}

impl<'t, 'a> Emitter<'t, 'a> {
    fn new(t: &'t Tables<'a>, fi: u32) -> Self {
        let mut e = Emitter {
            t,
            index: FxHashMap::default(),
            out: ResolvedFile::default(),
        };
        e.path_index(fi);
        e
    }

    fn path_index(&mut self, f: u32) -> u32 {
        let paths = &mut self.out.paths;
        let t = self.t;
        *self.index.entry(f).or_insert_with(|| {
            paths.push(t.files[f as usize].path.to_string());
            (paths.len() - 1) as u32
        })
    }

    fn file(&mut self, f: u32) -> Endpoint {
        Endpoint::File(self.path_index(f))
    }

    fn symbol(&mut self, s: Sym) -> Endpoint {
        self.t.note_symbols(s.0);
        Endpoint::Symbol(self.path_index(s.0), s.1)
    }

    fn edge(&mut self, from: Endpoint, to: Endpoint, kind: EdgeKind, origin: Origin, line: u32) {
        self.out.edges.push(ResolvedEdge {
            from,
            to,
            kind,
            origin,
            line,
        });
    }

    fn unresolved(&mut self, from: Endpoint, kind: EdgeKind, target: String, line: u32, candidates: u32) {
        self.out.unresolved.push(UnresolvedRef {
            from,
            kind,
            target,
            line,
            candidates,
        });
    }
}

/// Resolves every import and reference of one file, recording its dependency keys.
pub(crate) fn resolve_file(t: &Tables<'_>, fi: u32) -> ResolvedFile {
    let (mut out, deps) = deps::record(|| resolve_file_inner(t, fi));
    out.deps = deps;
    out
}

fn resolve_file_inner(t: &Tables<'_>, fi: u32) -> ResolvedFile {
    let file = &t.files[fi as usize];
    let facts = &file.facts;
    let lang = file.language;
    let mut em = Emitter::new(t, fi);
    let own = |si: u32| Endpoint::Symbol(0, si);
    let file_test = facts.test_runner.is_some();

    // Detached methods join their owner type.
    for (si, s) in facts.symbols.iter().enumerate() {
        if s.kind == NodeKind::Method && s.parent.is_none() {
            if let Some(&ty) = t.method_owner.get(&(fi, si as u32)) {
                let owner = em.symbol(ty);
                let line = s.span.start_line;
                em.edge(
                    own(si as u32),
                    owner.clone(),
                    EdgeKind::MemberOf,
                    Origin::AstResolved,
                    line,
                );
                em.edge(owner, own(si as u32), EdgeKind::Contains, Origin::AstResolved, line);
            }
        }
    }

    for (k, imp) in facts.imports.iter().enumerate() {
        let kind = if imp.kind == ImportKind::Dependency {
            EdgeKind::DependsOnModule
        } else if imp.reexport {
            EdgeKind::ReExports
        } else {
            EdgeKind::Imports
        };
        let target = t.import_targets[fi as usize][k].as_ref();
        let here = Endpoint::File(0);
        match target {
            Some(Entity::Files(files)) if !files.is_empty() => {
                let to = match lang {
                    Language::Go
                    | Language::Java
                    | Language::CSharp
                    | Language::Kotlin
                    | Language::Php
                    | Language::Scala => {
                        let tf = files[0];
                        if t.facts(tf).package.is_some() {
                            Endpoint::Package(em.path_index(tf))
                        } else {
                            em.file(tf)
                        }
                    }
                    _ => em.file(files[0]),
                };
                if to != here {
                    em.edge(here.clone(), to, kind, Origin::AstResolved, imp.line);
                }
                if matches!(imp.kind, ImportKind::Named | ImportKind::Default) {
                    if let Some((Entity::Sym(s), o)) = t.import_binding(fi, k, 0) {
                        let to = em.symbol(s);
                        em.edge(here, to, kind, o, imp.line);
                    }
                }
            }
            Some(Entity::Sym(s)) => {
                let to = em.symbol(*s);
                em.edge(here, to, kind, Origin::AstResolved, imp.line);
            }
            Some(Entity::External(m)) => em.out.external.push(ExternalEdge {
                from: here,
                target: m.clone(),
                stub: NodeKind::Module,
                kind,
                origin: Origin::AstResolved,
                line: imp.line,
            }),
            _ => em.unresolved(here, kind, format!("unresolved::import::{}", imp.module), imp.line, 0),
        }
    }

    for r in &facts.refs {
        let from_sym = r.from.filter(|&f| (f as usize) < facts.symbols.len());
        let from = match (from_sym, &r.receiver) {
            // Swift's `extension T: P` conforms T, declared elsewhere, to P.
            (None, Receiver::Name(owner)) if r.kind == EdgeKind::Implements && lang == Language::Swift => {
                match t.resolve_type(fi, owner, 0) {
                    Some((Entity::Sym(ty), _)) => em.symbol(ty),
                    _ => Endpoint::File(0),
                }
            }
            _ => from_sym.map(own).unwrap_or(Endpoint::File(0)),
        };
        let from_test = match from_sym {
            Some(f) => facts.symbols[f as usize].test_role.is_some(),
            None => file_test,
        };
        let resolved = match r.kind {
            EdgeKind::Extends | EdgeKind::Implements | EdgeKind::TypedAs | EdgeKind::Returns => {
                t.resolve_type_ref(fi, r, 0)
            }
            _ => t.resolve_callee(fi, from_sym, &r.receiver, &r.name, 0),
        };
        let self_sym = from_sym.map(|f| (fi, f));
        match resolved {
            Some((Entity::Sym(s), origin))
                if accepts(r.kind, t.sym(s).kind)
                    && !(Some(s) == self_sym && matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements)) =>
            {
                let target = t.sym(s);
                let kind = match (r.kind, target.kind) {
                    (EdgeKind::Calls, NodeKind::Type)
                        if !matches!(target.flavor, Some(TypeFlavor::TypeAlias) | Some(TypeFlavor::Enum)) =>
                    {
                        EdgeKind::Instantiates
                    }
                    (EdgeKind::Calls, NodeKind::Interface) => EdgeKind::References,
                    // A Swift supertype list does not say which entry is the superclass: the class is.
                    (EdgeKind::Implements, NodeKind::Type)
                        if lang == Language::Swift && target.flavor == Some(TypeFlavor::Class) =>
                    {
                        EdgeKind::Extends
                    }
                    (k, _) => k,
                };
                push_edge(&mut em, from, from_test, s, kind, origin, r.line);
            }
            Some((Entity::External(path), origin)) => {
                let stub = match r.kind {
                    EdgeKind::Calls => NodeKind::Function,
                    EdgeKind::References => NodeKind::Variable,
                    _ => NodeKind::Type,
                };
                em.out.external.push(ExternalEdge {
                    from,
                    target: path,
                    stub,
                    kind: r.kind,
                    origin,
                    line: r.line,
                });
            }
            _ => {
                // Name-only: an honest `text_matched` edge only when exactly one candidate exists.
                let member = !matches!(r.receiver, Receiver::None);
                if member && t.receiver_is_foreign(fi, from_sym, &r.receiver) {
                    em.unresolved(from, r.kind, format!("unresolved::*.{}", r.name), r.line, 0);
                    continue;
                }
                // A member call binds by name to a method or function only: a field of that name
                // elsewhere (a Vue prop `push: Number`) says nothing about `list.push()`.
                let want = |k: NodeKind| {
                    accepts(r.kind, k)
                        && (!member
                            || match r.kind {
                                EdgeKind::Calls => matches!(k, NodeKind::Method | NodeKind::Function),
                                _ => matches!(k, NodeKind::Method | NodeKind::Field | NodeKind::Function),
                            })
                };
                match t.name_only(fi, &r.name, want, self_sym) {
                    NameOnly::One(s)
                        if !matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements)
                            || t.sym(s).kind.is_type_like() =>
                    {
                        push_edge(&mut em, from, from_test, s, r.kind, Origin::TextMatched, r.line);
                    }
                    other => {
                        let candidates = match other {
                            NameOnly::Many(n) => n,
                            NameOnly::One(_) => 1,
                            NameOnly::None => 0,
                        };
                        let target = if member {
                            format!("unresolved::*.{}", r.name)
                        } else {
                            format!("unresolved::{}", r.name)
                        };
                        em.unresolved(from, r.kind, target, r.line, candidates);
                    }
                }
            }
        }
    }
    em.out
}

fn push_edge(
    em: &mut Emitter<'_, '_>,
    from: Endpoint,
    from_test: bool,
    to: Sym,
    kind: EdgeKind,
    origin: Origin,
    line: u32,
) {
    let to_test = em.t.sym(to).test_role.is_some();
    let to_ep = em.symbol(to);
    if matches!(kind, EdgeKind::Calls | EdgeKind::Instantiates) && from_test && !to_test {
        em.edge(from.clone(), to_ep.clone(), EdgeKind::Tests, origin, line);
    }
    em.edge(from, to_ep, kind, origin, line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_keys_cover_every_root() {
        assert_eq!(
            python_module_keys("src/pkg/mod.py"),
            vec!["src.pkg.mod", "pkg.mod", "mod"]
        );
        assert_eq!(python_module_keys("pkg/__init__.py"), vec!["pkg"]);
        assert_eq!(python_root("src/pkg/mod.py", "pkg.mod"), "src");
        assert_eq!(python_root("pkg/__init__.py", "pkg"), "");
    }
}
