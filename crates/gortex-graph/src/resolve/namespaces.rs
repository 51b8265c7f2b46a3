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
        self.namespace_member_at(&path, name, &want)
    }

    /// A name as code inside the namespace blocks enclosing `scope` sees it, innermost first
    /// (see `namespace_block_scope`).
    pub(super) fn namespace_scope_member(
        &self,
        fi: u32,
        scope: Option<u32>,
        name: &str,
        want: impl Fn(NodeKind) -> bool,
    ) -> Option<Sym> {
        if !merges_namespaces(self.lang(fi)) {
            return None;
        }
        let facts = self.facts(fi);
        let mut cur = scope;
        while let Some(s) = cur {
            if let Some(k) = self.namespace_block_scope((fi, s), name, &want) {
                return Some(k);
            }
            cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
        }
        None
    }

    /// A name as code directly inside namespace block `block` sees it: the merged members of its
    /// namespace, and for a dotted block (`namespace ts.codefix { … }`) those of the namespaces
    /// its name nests in (`ts`), as the nested blocks it stands for would. None when `block` is
    /// no namespace.
    pub(super) fn namespace_block_scope(
        &self,
        block: Sym,
        name: &str,
        want: &impl Fn(NodeKind) -> bool,
    ) -> Option<Sym> {
        let facts = self.facts(block.0);
        let sym = &facts.symbols[block.1 as usize];
        if sym.kind != NodeKind::Module || !merges_namespaces(self.lang(block.0)) {
            return None;
        }
        let mut path = namespace_path(facts, block.1)?;
        for _ in 0..=sym.name.matches('.').count() {
            if let Some(k) = self.namespace_member_at(&path, name, want) {
                return Some(k);
            }
            let dot = path.rfind('.')?;
            path.truncate(dot);
        }
        None
    }

    /// The namespace a (dotted) name denotes as code at `scope` of file `fi` sees it, the way
    /// TypeScript resolves a qualified name's head: outward through the enclosing namespaces
    /// (`textChanges` inside `namespace ts.codefix` is `ts.textChanges`, declared as its own
    /// dotted block), then the global namespaces of script files (`ts` inside `namespace
    /// FourSlash`). One of its blocks stands for all of them.
    pub(super) fn visible_namespace(&self, fi: u32, scope: Option<u32>, dotted: &str) -> Option<Sym> {
        if !self.lang(fi).is_ecmascript() {
            return None;
        }
        let facts = self.facts(fi);
        let mut cur = scope;
        while let Some(s) = cur {
            if let Some(mut path) = namespace_path(facts, s) {
                loop {
                    if let Some(block) = self.namespace_block(&format!("{path}.{dotted}"), false) {
                        return Some(block);
                    }
                    let Some(dot) = path.rfind('.') else { break };
                    path.truncate(dot);
                }
            }
            cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
        }
        self.namespace_block(dotted, true)
    }

    /// Namespace `name` nested in namespace block `block`'s namespace, when declared as a block of
    /// its own (`namespace ts.server { … }` is no member of any `ts` block).
    pub(super) fn namespace_child(&self, block: Sym, name: &str) -> Option<Sym> {
        if !self.lang(block.0).is_ecmascript() {
            return None;
        }
        let path = namespace_path(self.facts(block.0), block.1)?;
        self.namespace_block(&format!("{path}.{name}"), false)
    }

    /// A block of namespace `path`; with `global`, only one of a script file (a file with
    /// imports is a module, whose namespaces are its own).
    fn namespace_block(&self, path: &str, global: bool) -> Option<Sym> {
        // A block appears as a declaration named by its last segment (`namespace b` nested in
        // `a`) or by the dotted tail it was declared with (`namespace a.b`).
        deps::note(deps::NAME, path.rsplit('.').next().unwrap_or(path));
        for (dot, _) in path.match_indices('.') {
            deps::note(deps::NAME, &path[dot + 1..]);
        }
        deps::note(deps::NAME, path);
        let blocks = self.ts_namespaces.get(path)?;
        blocks
            .iter()
            .copied()
            .find(|b| !global || self.imports_of(b.0).is_empty())
    }

    /// The other declarations a TypeScript interface (or class) of a namespace merges with:
    /// same-named types in every block of its namespace (`interface Node` in
    /// `compiler/types.ts` and again in `services/types.ts`, both in `namespace ts`).
    pub(super) fn merged_twins(&self, ty: Sym) -> Vec<Sym> {
        let facts = self.facts(ty.0);
        let sym = &facts.symbols[ty.1 as usize];
        let parent = match sym.parent.filter(|&p| p < ty.1) {
            Some(p) if facts.symbols[p as usize].kind == NodeKind::Module && sym.kind.is_type_like() => p,
            _ => return Vec::new(),
        };
        if !merges_namespaces(self.lang(ty.0)) {
            return Vec::new();
        }
        let Some(path) = namespace_path(facts, parent) else {
            return Vec::new();
        };
        let mut twins = Vec::new();
        self.in_namespace(&path, &sym.name, |k, kind| {
            if k != ty && kind.is_type_like() {
                twins.push(k);
            }
            false
        });
        twins
    }

    /// A member named `name` of the namespace with qualified name `path`, in any of its blocks
    /// (the first in file and declaration order).
    fn namespace_member_at(&self, path: &str, name: &str, want: &impl Fn(NodeKind) -> bool) -> Option<Sym> {
        let mut found = None;
        self.in_namespace(path, name, |k, kind| {
            let hit = want(kind);
            if hit {
                found = Some(k);
            }
            hit
        });
        found
    }

    /// Visits the declarations named `name` directly inside a block of namespace `path`, in
    /// file and declaration order, until `visit` returns true. Reads the name's declarations
    /// (`by_name`), not the namespace's blocks: TypeScript's `ts` spans most of its compiler's
    /// 600 files, a name has a handful of declarations.
    fn in_namespace(&self, path: &str, name: &str, mut visit: impl FnMut(Sym, NodeKind) -> bool) {
        // New blocks of this namespace appear as new declarations of its last segment; a member
        // appearing in one (or moving in) is a change of that name's declarations (`named` notes
        // it). Only the file of the declaration taken is noted: noting each file scanned made
        // any new declaration in one of them redo every file that looked up a namespace member.
        deps::note(deps::NAME, path.rsplit('.').next().unwrap_or(path));
        let Some(cands) = self.named(name) else { return };
        for &k in cands {
            // Names, kinds and parents read without noting their file (`sym` would).
            let facts = &self.files[k.0 as usize].facts;
            let Some(parent) = facts.symbols[k.1 as usize].parent.filter(|&p| p < k.1) else {
                continue;
            };
            if !merges_namespaces(self.lang(k.0)) || !namespace_path_is(facts, parent, path) {
                continue;
            }
            if visit(k, facts.symbols[k.1 as usize].kind) {
                self.note_symbols(k.0);
                return;
            }
        }
    }
}

/// Whether symbol `si` is a namespace block whose qualified name is `path` (compared segment by
/// segment from the end, without building the name).
fn namespace_path_is(facts: &gortex_core::FileFacts, si: u32, path: &str) -> bool {
    let mut rest = path;
    let mut cur = Some(si);
    while let Some(i) = cur {
        let Some(sym) = facts.symbols.get(i as usize) else {
            return false;
        };
        if sym.kind != NodeKind::Module {
            return false;
        }
        let Some(head) = rest.strip_suffix(sym.name.as_str()) else {
            return false;
        };
        cur = sym.parent.filter(|&p| p < i);
        rest = match (head.strip_suffix('.'), cur) {
            (Some(outer), Some(_)) => outer,
            (None, None) if head.is_empty() => return true,
            _ => return false,
        };
    }
    false
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
