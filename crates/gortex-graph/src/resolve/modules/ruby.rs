//! Ruby `require` and `require_relative`.

use crate::config::{dir_of, join_path};
use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// `require_relative "./a/b"` → `a/b.rb` beside the requiring file; `require "a/b"` →
    /// `lib/a/b.rb` or `a/b.rb` when the repository has one, else the library (external).
    pub(super) fn resolve_require(&self, fi: u32, spec: &str) -> Entity {
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
}
