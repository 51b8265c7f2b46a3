//! Protocol Buffers imports.

use crate::config::{dir_of, join_path};
use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// `import "a/b.proto"`: relative to the repository root (the usual `protoc -I .`), then to
    /// the importer's directory, then the one `.proto` whose path ends in `/a/b.proto` (nearest
    /// when several do: proto roots such as `proto/` or `api/` are not configured anywhere).
    pub(super) fn resolve_proto_import(&self, fi: u32, spec: &str) -> Entity {
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
}
