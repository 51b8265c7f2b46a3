//! Rust module paths: `crate::`, `self::`, `super::`, crate names, `mod` declarations.

use crate::resolve::tables::Tables;
use crate::resolve::Entity;
use gortex_core::Language;

impl Tables<'_> {
    /// Fills the Rust module tables: each Rust file's crate and module path.
    pub(in crate::resolve) fn index_rust_modules(&mut self) {
        for (fi, file) in self.files.iter().enumerate() {
            if file.language != Language::Rust {
                continue;
            }
            let (crate_key, module) = rust_module_of(&self.config.cargo_crates, &file.path, fi as u32);
            self.rust_modules.insert((crate_key, module.join("::")), fi as u32);
            self.rust_file_module[fi] = Some((crate_key, module));
        }
    }

    /// Resolves a Rust path (`crate::a::b`, `super::x`, `a::b`) to a module file or item.
    /// `from_use`: a `use` path (2018 edition: first segment is a crate or a local name).
    pub(in crate::resolve) fn resolve_rust_path(&self, fi: u32, segments: &[String], from_use: bool) -> Option<Entity> {
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

    /// The file of module `name` declared inside file `fi`'s module (`mod name;`).
    pub(in crate::resolve) fn rust_submodule(&self, fi: u32, name: &str) -> Option<u32> {
        let (key, module) = self.rust_file_module[fi as usize].as_ref()?;
        let mut next = module.clone();
        next.push(name.to_string());
        self.rust_module(*key, &next.join("::"))
    }
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
