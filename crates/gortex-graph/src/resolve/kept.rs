//! The lookup tables of one build kept for the next: re-pointed at the next build's files when
//! nothing they read changed, patched file by file when declarations did.
//!
//! Building the resolver's lookup tables (names, per-file declarations, import targets, type
//! hierarchy, method owners) is one of the two O(repository) steps a body edit would otherwise
//! pay (the other is assembling the graph, see `build.rs`'s layouts). The tables are kept with the
//! resolution cache ([`KeptTables`], in memory only, never persisted).
//!
//! - **Kept** (re-pointed, [`KeptTables::rebind`]): when the next build has the same files and
//!   configuration and every changed file keeps its interface and its `extends`/`implements` uses
//!   (`impl Trait for T` adds a supertype without declaring anything), the tables are re-pointed
//!   at the new files instead of being built again, and the derived tables are shared, not
//!   rendered and compared.
//! - **Patched** ([`KeptTables::patch`]): when a changed file's interface did change but the
//!   files are the same, each such file's entries (names, children, top-level names, bindings,
//!   package and namespace lists) are taken out and put back in file order, and the
//!   whole-repository passes run again: include closures, method owners and supertypes (from the
//!   files that state an inheritance clause or a detached method, a list the tables keep and
//!   patch per file; an unchanged hierarchy shares its last rendering), import targets only for
//!   the patched files and, when one of them is a Java-like, Swift or Rust file (whose imports
//!   name declarations), for every file of those languages (the other languages' imports resolve
//!   from paths, which a patch does not change). A file's rendered import targets (`Arc`-shared)
//!   are reused when they did not change. Names in the tables borrow from the facts, so a patch
//!   pins the old and new facts of what it patched (up to [`MAX_PINNED_FACTS`], then the next
//!   build starts afresh). Debug builds compare every patched table with a fresh build.
//!
//! Kept tables can be shared ([`KeptTablesSlot::share`](crate::cache::KeptTablesSlot)): an
//! overlay view's first build takes a copy whose tables are the base's own (each table behind its
//! own `Arc`), re-points it at its files and, when its buffers change declarations, patches it,
//! which copies only the tables the patch writes.
//!
//! The build report's `lookup_tables` says whether the tables were `built`, `kept` or `patched`
//! (or `unneeded`: a build over exactly the files its reused resolutions were made from, a warm
//! open of an unchanged tree, makes none).
//! Only a build that applied a few changes (fewer than half the files) keeps its tables; opening a
//! repository (every file counts as added) frees them before assembly, and builds them again at
//! its end when the repository will be edited (`IndexOptions::keep_build_caches` in
//! `gortex-index`), so the first edit does not pay for them. They are a cache of tens of
//! megabytes, which `RepoIndex::release_build_caches` drops.

use super::modules::packages::{package_key, swiftpm_roots, uses_java_packages};
use super::namespaces::{merges_namespaces, namespace_blocks};
use super::tables::{file_maps, has_detached_methods, has_heritage, is_heritage, Shared, Tables};
use crate::build::SourceFile;
use crate::cache::DerivedTables;
use crate::config::RepoConfig;
use gortex_core::{same_text, EdgeKind, Language, Receiver};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The lookup tables of one build, kept for the next. A body edit (the same files and
/// configuration, every changed file with the same interface and inheritance clauses) builds
/// exactly the same tables, so the next build re-points these at its files instead of spending
/// O(repository) on building them again.
///
/// Self-referential: `tables` borrows names and paths from `built_from` and reads `config`,
/// both behind `Arc`s this value owns, never mutates and drops after `tables` (their heap data
/// does not move when this value does). `tables.files` points at `built_from` or, after a
/// rebind, at `current`: the files whose facts the resolver reads.
#[derive(Clone)]
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
        for (method, ty) in old_owners.iter() {
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
            t.replace_file(fi, &old_files[fi as usize], &new_files[fi as usize], &swiftpm_roots);
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
        let same_hierarchy = *t.method_owner == *old_owners && *t.supertypes == *old_supertypes;
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

impl<'a> Tables<'a> {
    /// Takes file `fi`'s entries out of the tables built from one file at a time (`old`'s
    /// declarations, bindings, package key and namespace blocks) and puts `new`'s in, each list
    /// kept in the order a build would give it.
    fn replace_file(&mut self, fi: u32, old: &'a SourceFile, new: &'a SourceFile, swiftpm_roots: &[&str]) {
        let t = self;
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
        let (top, bindings) = file_maps(new);
        (t.top[fi as usize], t.bindings[fi as usize]) = (Shared::from(top), Shared::from(bindings));
        set_member(&mut t.heritage_files, fi, has_heritage(&new.facts));
        set_member(&mut t.detached_files, fi, has_detached_methods(&new.facts));
        let (was, is) = (package_key(old, swiftpm_roots), package_key(new, swiftpm_roots));
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
