//! TypeScript/JavaScript module specifiers (Vue and Svelte components too): relative paths,
//! `index` files, `.js` written for `.ts`, tsconfig `paths`/`baseUrl`, workspace packages.

use crate::config::{dir_of, join_path};
use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// The file a module path without extension means: itself, `.js` written for `.ts`, each
    /// script extension, components last, then the directory's `index` file.
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

    /// A relative path, else tsconfig `paths`/`baseUrl`, else a workspace package (with `exports`
    /// subpaths); anything else is a package outside the repository.
    pub(super) fn resolve_es_module(&self, fi: u32, spec: &str) -> Option<Entity> {
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
}
