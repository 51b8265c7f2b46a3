//! Namespace blocks that merge across files: `namespace ts { … }` in many TypeScript files is
//! one scope, and so are C++ namespaces and Ruby modules.

use super::tables::Tables;
use super::Sym;
use crate::deps;
use gortex_core::{Language, NodeKind};

impl Tables<'_> {
    /// Fills `ts_namespaces`: every merging file's namespace blocks by qualified name.
    pub(super) fn index_ts_namespaces(&mut self) {
        for (fi, file) in self.files.iter().enumerate() {
            if !merges_namespaces(file.language) {
                continue;
            }
            for (path, si) in namespace_blocks(&file.facts) {
                self.ts_namespaces.entry(path).or_default().push((fi as u32, si));
            }
        }
    }

    /// A member of a TypeScript namespace, looked up in every block that merges with `block`.
    pub(super) fn namespace_member(&self, block: Sym, name: &str, want: impl Fn(NodeKind) -> bool) -> Option<Sym> {
        if !merges_namespaces(self.lang(block.0)) {
            return None;
        }
        let path = namespace_path(self.facts(block.0), block.1)?;
        // New blocks of this namespace appear as new declarations of its last segment.
        deps::note(deps::NAME, path.rsplit('.').next().unwrap_or(&path));
        // A block without the member depends on the name, not on its file: the member appearing
        // there (or moving in) is a change of that name's declarations. TypeScript's own `ts`
        // namespace spans most of its 600 source files; noting each file scanned made any new
        // declaration in one of them redo every file that looked up a namespace member.
        deps::note(deps::NAME, name);
        // Names and kinds read without noting their file (`sym` would).
        let unnoted = |k: Sym| &self.files[k.0 as usize].facts.symbols[k.1 as usize];
        for &other in self.ts_namespaces.get(&path)? {
            if let Some(&k) = self
                .children
                .get(&other)
                .and_then(|kids| kids.iter().find(|&&k| unnoted(k).name == name && want(unnoted(k).kind)))
            {
                // The member was found by a name noted above: appended declarations leave it.
                self.note_symbols(other.0);
                return Some(k);
            }
        }
        None
    }
}

/// Languages whose `namespace a { … }` blocks merge across files (TypeScript, C++, Ruby modules).
pub(super) fn merges_namespaces(lang: Language) -> bool {
    lang.is_ecmascript() || matches!(lang, Language::Cpp | Language::Ruby)
}

/// The qualified name of a TypeScript namespace block (`ts.server`), when every enclosing
/// declaration is itself a namespace (namespaces inside functions do not merge).
fn namespace_path(facts: &gortex_core::FileFacts, si: u32) -> Option<String> {
    let mut parts = Vec::new();
    let mut cur = Some(si);
    while let Some(i) = cur {
        let sym = facts.symbols.get(i as usize)?;
        if sym.kind != NodeKind::Module {
            return None;
        }
        parts.push(sym.name.as_str());
        cur = sym.parent.filter(|&p| p < i);
    }
    parts.reverse();
    Some(parts.join("."))
}

/// A file's namespace blocks: (qualified name, symbol index) of each `namespace`/`module`
/// declaration nested only in others.
pub(super) fn namespace_blocks(facts: &gortex_core::FileFacts) -> impl Iterator<Item = (String, u32)> + '_ {
    (0..facts.symbols.len() as u32).filter_map(|si| Some((namespace_path(facts, si)?, si)))
}
