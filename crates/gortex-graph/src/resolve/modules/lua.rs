//! Lua `require`.

use crate::resolve::tables::Tables;
use crate::resolve::Entity;

impl Tables<'_> {
    /// `require("a.b")` → `a/b.lua` or `a/b/init.lua` from the root, then under `lua/`, `src/`
    /// or `lib/`, then the one file whose path ends so (nearest when several do); else a
    /// library (external).
    pub(super) fn resolve_lua_require(&self, fi: u32, spec: &str) -> Entity {
        let from = &self.files[fi as usize].path;
        let base = spec.replace('.', "/");
        let candidates = [format!("{base}.lua"), format!("{base}/init.lua")];
        let found = ["", "lua/", "src/", "lib/"]
            .iter()
            .flat_map(|root| candidates.iter().map(move |c| format!("{root}{c}")))
            .find_map(|p| self.path_lookup(&p))
            .or_else(|| candidates.iter().find_map(|c| self.unique_suffix(from, c)));
        match found {
            Some(f) => Entity::Files(vec![f]),
            None => Entity::External(spec.to_string()),
        }
    }
}
