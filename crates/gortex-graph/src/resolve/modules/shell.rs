//! Shell `source` and `.`.

use crate::config::{dir_of, join_path};
use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// `source x`: `./x` beside the script, else `x` from the root, beside the script, or the
    /// one script whose path ends so; else outside the repository (external).
    pub(super) fn resolve_source(&self, fi: u32, spec: &str) -> Entity {
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
}
