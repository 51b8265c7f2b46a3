//! The derived tables rendered in path space ([`DerivedTables`]), so a build can tell which
//! files' import targets and which parts of the hierarchy changed; and, in debug builds, every
//! table in a canonical text form to check patched tables against built ones.

use super::tables::Tables;
use super::{Entity, Sym};
use crate::cache::DerivedTables;
use gortex_core::same_text;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::sync::Arc;

impl Tables<'_> {
    /// A symbol in path space: `path#index`.
    fn sym_key(&self, s: Sym) -> String {
        format!("{}#{}", self.files[s.0 as usize].path, s.1)
    }

    /// An import target in path space.
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
    pub(super) fn render_derived_reusing(
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

    /// File `fi`'s import targets in path space, keyed by its path.
    fn render_targets(&self, fi: usize) -> (Arc<str>, Arc<Vec<String>>) {
        (
            Arc::clone(&self.files[fi].path),
            Arc::new(self.import_targets[fi].iter().map(|e| self.render_entity(e)).collect()),
        )
    }

    /// Every table in a canonical text form (lists in their order), to compare two builds.
    #[cfg(debug_assertions)]
    pub(super) fn dump(&self) -> Vec<String> {
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
}
