//! The read-only lookup tables over every file of the repository, and the passes that derive
//! the whole-repository tables from them (import targets, C include closures, owners of
//! detached methods, supertypes).

use super::modules::packages::{package_key, swiftpm_roots};
use super::modules::python::python_module_keys;
use super::{Entity, Sym};
use crate::build::SourceFile;
use crate::config::{dir_of, RepoConfig};
use gortex_core::{EdgeKind, Language, NodeKind, Receiver, RefFact};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Read-only lookup tables over every file of the repository: the files and configuration they
/// read, and their maps ([`Maps`], read and written through this value).
///
/// The maps are shared: tables re-pointed at other files whose interfaces are the same (an
/// overlay view's body edits over its base's files) read the very maps their source does, and
/// the first change to shared maps copies them.
#[derive(Clone)]
pub(crate) struct Tables<'a> {
    /// The files the resolver reads, in build order: a file index is a position here.
    pub(super) files: &'a [SourceFile],
    /// The repository's configuration (tsconfig paths, workspaces, go.mod, crates, includes).
    pub(super) config: &'a RepoConfig,
    maps: Arc<Maps<'a>>,
}

impl<'a> std::ops::Deref for Tables<'a> {
    type Target = Maps<'a>;

    fn deref(&self) -> &Maps<'a> {
        &self.maps
    }
}

impl<'a> std::ops::DerefMut for Tables<'a> {
    fn deref_mut(&mut self) -> &mut Maps<'a> {
        Arc::make_mut(&mut self.maps)
    }
}

/// A table [`Maps`] holds, shared between tables that read other files until one of them changes
/// it (then it copies that table alone).
#[derive(Debug, Default)]
pub(crate) struct Shared<T>(Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared(Arc::new(value))
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

/// One table per file, each shared on its own (a change to one file's copies only its own).
pub(crate) type PerFile<T> = Shared<Vec<Shared<T>>>;

/// A Rust file's crate key and module path.
pub(crate) type RustModule = Option<(u32, Vec<String>)>;

/// The maps of [`Tables`], each [`Shared`] (so are each file's own maps).
#[derive(Clone)]
pub(crate) struct Maps<'a> {
    /// Files by repository-relative path.
    pub(super) by_path: Shared<FxHashMap<&'a str, u32>>,
    /// Files by directory.
    pub(super) by_dir: Shared<FxHashMap<&'a str, Vec<u32>>>,
    /// Every declaration by name, in file then symbol order.
    pub(super) by_name: Shared<FxHashMap<&'a str, Vec<Sym>>>,
    /// Per file: top-level declarations by name.
    pub(super) top: PerFile<FxHashMap<&'a str, Vec<u32>>>,
    /// A symbol's nested declarations, and a type's detached methods.
    pub(super) children: Shared<FxHashMap<Sym, Vec<Sym>>>,
    /// Files by package: Java/Kotlin/Scala packages, C#/PHP namespaces, Swift modules.
    pub(super) java_packages: Shared<FxHashMap<&'a str, Vec<u32>>>,
    /// Per Swift file: its module, the key it has in `java_packages` (see
    /// [`swift_module`](super::modules::packages::swift_module)).
    pub(super) swift_modules: Shared<FxHashMap<u32, &'a str>>,
    /// Python files by every dotted name they can be imported as.
    pub(super) python_modules: Shared<FxHashMap<String, Vec<u32>>>,
    /// Rust module files by (crate key, `a::b` module path).
    pub(super) rust_modules: Shared<FxHashMap<(u32, String), u32>>,
    /// Per Rust file: its crate key and module path.
    pub(super) rust_file_module: Shared<Vec<RustModule>>,
    /// Per file, per import: what its module specifier denotes.
    pub(super) import_targets: PerFile<Vec<Option<Entity>>>,
    /// A type's direct supertypes, in the order first stated.
    pub(super) supertypes: Shared<FxHashMap<Sym, Vec<Sym>>>,
    /// A detached method's (Go receiver, Rust `impl` block) owner type.
    pub(super) method_owner: Shared<FxHashMap<Sym, Sym>>,
    /// TypeScript namespace blocks by qualified name (`ts.server`): blocks merge across files.
    pub(super) ts_namespaces: Shared<FxHashMap<String, Vec<Sym>>>,
    /// Per file: (scope, name) → index of the last binding, so lookups stay O(1) in big files.
    pub(super) bindings: PerFile<FxHashMap<(Option<u32>, &'a str), u32>>,
    /// C, C++, proto, Lua and shell files by file name (`util.h` → every `…/util.h`), for
    /// include, import, require and source paths and header ↔ source pairing.
    pub(super) include_by_basename: Shared<FxHashMap<&'a str, Vec<u32>>>,
    /// Per C/C++ file: the files its includes make visible, nearest first (headers reached
    /// through headers, and the sources that implement each header). Empty elsewhere.
    pub(super) c_visible: Shared<Vec<Vec<u32>>>,
    /// Files with `extends`/`implements` uses, and files with detached methods, ascending: the
    /// type hierarchy and method owners are derived from these files only.
    pub(super) heritage_files: Vec<u32>,
    /// Files with detached methods, ascending (see `heritage_files`).
    pub(super) detached_files: Vec<u32>,
}

/// One file's own lookup maps: top-level declarations by name, and bindings by (scope, name).
pub(super) type FileMaps<'a> = (FxHashMap<&'a str, Vec<u32>>, FxHashMap<(Option<u32>, &'a str), u32>);

/// Builds one file's [`FileMaps`].
pub(super) fn file_maps(f: &SourceFile) -> FileMaps<'_> {
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

impl<'a> Tables<'a> {
    /// Builds every table, then the two passes that need the others: import targets, then
    /// type hierarchy and receiver-type owners of detached (Go/Rust) methods.
    pub fn build(files: &'a [SourceFile], config: &'a RepoConfig) -> Tables<'a> {
        // Per-file maps in parallel, beside the whole-repository maps (one pass, in file order).
        let (per_file, mut t): (Vec<FileMaps<'a>>, Tables<'a>) = rayon::join(
            || files.par_iter().map(file_maps).collect(),
            || {
                let mut t = Maps {
                    by_path: Shared::default(),
                    by_dir: Shared::default(),
                    by_name: Shared::default(),
                    top: Shared::default(),
                    children: Shared::default(),
                    java_packages: Shared::default(),
                    swift_modules: Shared::default(),
                    python_modules: Shared::default(),
                    rust_modules: Shared::default(),
                    rust_file_module: Shared::from(vec![None; files.len()]),
                    import_targets: Shared::default(),
                    supertypes: Shared::default(),
                    method_owner: Shared::default(),
                    ts_namespaces: Shared::default(),
                    bindings: Shared::default(),
                    include_by_basename: Shared::default(),
                    c_visible: Shared::default(),
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
                Tables {
                    files,
                    config,
                    maps: Arc::new(t),
                }
            },
        );
        let (top, bindings): (Vec<_>, Vec<_>) = per_file
            .into_iter()
            .map(|(top, bindings)| (Shared::from(top), Shared::from(bindings)))
            .unzip();
        (t.top, t.bindings) = (Shared::from(top), Shared::from(bindings));
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
    pub(super) fn derive(&mut self, redo: Option<&(dyn Fn(u32) -> bool + Sync)>) -> FxHashSet<u32> {
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
            None => {
                t.import_targets = Shared::from(
                    (0..files.len() as u32)
                        .into_par_iter()
                        .map(|fi| Shared::from(targets_of(fi)))
                        .collect::<Vec<_>>(),
                )
            }
            Some(redo) => {
                let fresh: Vec<(u32, Vec<Option<Entity>>)> = (0..files.len() as u32)
                    .into_par_iter()
                    .filter(|&fi| redo(fi))
                    .map(|fi| (fi, targets_of(fi)))
                    .collect();
                for (fi, targets) in fresh {
                    if *t.import_targets[fi as usize] != targets {
                        changed.insert(fi);
                        t.import_targets[fi as usize] = Shared::from(targets);
                    }
                }
            }
        }
        t.c_visible = Shared::from(
            (0..files.len() as u32)
                .into_par_iter()
                .map(|fi| {
                    if files[fi as usize].language.is_c_family() {
                        t.c_include_closure(fi)
                    } else {
                        Vec::new()
                    }
                })
                .collect::<Vec<_>>(),
        );
        t.derive_method_owners();
        t.derive_supertypes();
        changed
    }

    /// Joins each detached method (Go receivers, Rust impl blocks in other files) to the type its
    /// receiver names: `method_owner`, and the type's children.
    fn derive_method_owners(&mut self) {
        let t = self;
        let files = t.files;
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
    }

    /// Each type's direct supertypes, from the `extends`/`implements` uses of heritage files.
    fn derive_supertypes(&mut self) {
        let t = self;
        let files = t.files;
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
    }
}

/// Whether a use states inheritance (`extends`/`implements`).
pub(super) fn is_heritage(r: &RefFact) -> bool {
    matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements)
}

/// Whether a file states inheritance anywhere.
pub(super) fn has_heritage(facts: &gortex_core::FileFacts) -> bool {
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
pub(super) fn has_detached_methods(facts: &gortex_core::FileFacts) -> bool {
    facts.symbols.iter().any(|s| detached_owner(s).is_some())
}

/// The file name of a repo-relative path.
pub(super) fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
