//! Go import paths through `go.mod` module paths, and the package name an import binds.

use crate::config::join_path;
use crate::deps;
use crate::resolve::tables::Tables;
use crate::resolve::Entity;
use gortex_core::Language;

impl Tables<'_> {
    /// The Go files of a directory (a package, with its `_test` files).
    pub(in crate::resolve) fn go_files_in(&self, dir: &str) -> Vec<u32> {
        deps::note(deps::DIR, dir);
        self.by_dir
            .get(dir)
            .map(|fs| fs.iter().copied().filter(|&f| self.lang(f) == Language::Go).collect())
            .unwrap_or_default()
    }

    /// An import path under a `go.mod` module path: that directory's non-test Go files; else external.
    pub(super) fn resolve_go_import(&self, spec: &str) -> Entity {
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

    /// The name import `k` of file `fi` binds when not aliased: the package clause of the files it
    /// names, else guessed from the path.
    pub(in crate::resolve) fn go_package_name(&self, fi: u32, k: usize) -> Option<String> {
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
}

/// Whether a Go file is a test file (not part of the package an import sees).
fn is_test_path(path: &str) -> bool {
    path.ends_with("_test.go")
}
