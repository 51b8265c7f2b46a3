//! Python modules: relative imports, absolute modules under any source root (the importer's
//! preferred), namespace packages.

use crate::config::{dir_of, join_path};
use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// A relative module (`.a.b`, `..`) or a namespace package beside the file, else an absolute
    /// module under any source root (the importer's preferred), else external.
    pub(in crate::resolve) fn resolve_python_module(&self, fi: u32, spec: &str) -> Option<Entity> {
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

    /// The module file or package `__init__` (source or stub) at a path without extension.
    pub(in crate::resolve) fn probe_python(&self, base: &str) -> Option<u32> {
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
