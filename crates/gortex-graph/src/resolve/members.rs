//! What a name denotes inside something already resolved: the type enclosing a symbol, a
//! type's members through its hierarchy, a module's exports and re-exports, an import's binding.

use super::tables::{is_heritage, Tables};
use super::{Entity, Sym, MAX_DEPTH};
use crate::config::{dir_of, join_path};
use gortex_core::{ImportKind, Language, NodeKind, Origin};
use rustc_hash::FxHashSet;

impl Tables<'_> {
    /// The innermost type enclosing symbol `si` of file `fi` (itself when it is a type).
    pub(super) fn enclosing_type(&self, fi: u32, si: u32) -> Option<Sym> {
        let facts = self.facts(fi);
        let mut cur = Some(si);
        let mut guard = 0;
        while let Some(i) = cur {
            guard += 1;
            if guard > 64 {
                return None;
            }
            let s = &facts.symbols[i as usize];
            if s.kind.is_type_like() {
                return Some((fi, i));
            }
            if s.kind == NodeKind::Method && s.parent.is_none() {
                return self.method_owner.get(&(fi, i)).copied();
            }
            cur = s.parent.filter(|&p| p < i);
        }
        None
    }

    /// Members named `name` of a type, its supertypes first-found (breadth-first, bounded).
    pub(super) fn find_member(&self, ty: Sym, name: &str) -> Option<Sym> {
        self.first_in_hierarchy(ty, |t| {
            self.children_of(t)?.iter().copied().find(|&k| self.sym(k).name == name)
        })
    }

    /// What `visit` first finds on type `ty`, its supertypes or the declarations TypeScript merges
    /// with them (an interface declared across a namespace's blocks), breadth-first and bounded.
    fn first_in_hierarchy<T>(&self, ty: Sym, mut visit: impl FnMut(Sym) -> Option<T>) -> Option<T> {
        let mut queue = vec![ty];
        let mut seen: FxHashSet<Sym> = FxHashSet::default();
        let mut head = 0;
        while head < queue.len() && head < 64 {
            let t = queue[head];
            head += 1;
            if !seen.insert(t) {
                continue;
            }
            if let Some(found) = visit(t) {
                return Some(found);
            }
            if let Some(sups) = self.supers_of(t) {
                queue.extend(sups.iter().copied());
            }
            queue.extend(self.merged_twins(t));
        }
        None
    }

    /// The first supertype outside the repository that type `ty` or one of its supertypes in it
    /// states (`extends EventEmitter`, an embedded `http.ResponseWriter`), by its external path.
    /// Read only when a member lookup failed. `depth` is the member lookup's: a supertype named
    /// through the type's own merged namespace (`class Promise implements Promise.Thenable`)
    /// leads back here, and only the growing depth ends that.
    fn external_base(&self, ty: Sym, depth: u32) -> Option<String> {
        self.first_in_hierarchy(ty, |t| {
            let facts = self.facts(t.0);
            facts.refs.iter().filter(|r| is_heritage(r)).find_map(|r| {
                if r.from.and_then(|from| self.enclosing_type(t.0, from)) != Some(t) {
                    return None;
                }
                match self.resolve_type_ref(t.0, r, depth + 1) {
                    Some((Entity::External(path), _)) => Some(path),
                    _ => None,
                }
            })
        })
    }

    /// The method named as field `s` in the same type (Java's `entrySet` field beside its
    /// `entrySet()` method): what a call of that name means.
    pub(super) fn callable_twin(&self, s: Sym) -> Option<Sym> {
        let field = self.sym(s);
        if !matches!(field.kind, NodeKind::Field | NodeKind::Variable | NodeKind::Constant) {
            return None;
        }
        let parent = field.parent?;
        self.children_of((s.0, parent))?
            .iter()
            .copied()
            .find(|&k| self.sym(k).name == field.name && self.sym(k).kind.is_callable())
    }

    /// A member of what `entity` denotes: a module's export, a type's member, an external path.
    pub(super) fn member(&self, entity: &Entity, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        match entity {
            Entity::External(path) => {
                let sep = if path.ends_with("::") {
                    ""
                } else if path.contains("::") {
                    "::"
                } else {
                    "."
                };
                Some((Entity::External(format!("{path}{sep}{name}")), Origin::AstResolved))
            }
            Entity::Sym(s) => {
                let sym = self.sym(*s);
                match sym.kind {
                    NodeKind::Type | NodeKind::Interface => match self.find_member(*s, name) {
                        Some(m) => Some((Entity::Sym(m), Origin::AstResolved)),
                        // Not declared here: the library base's (`c.Writer.Header()` on a gin
                        // interface embedding `http.ResponseWriter`), never a namesake elsewhere.
                        None => self
                            .external_base(*s, depth)
                            .map(|base| (Entity::External(format!("{base}.{name}")), Origin::AstResolved)),
                    },
                    NodeKind::Module => self
                        .find_member(*s, name)
                        .or_else(|| self.namespace_member(*s, name, |_| true))
                        .or_else(|| self.namespace_child(*s, name))
                        .map(|m| (Entity::Sym(m), Origin::AstResolved)),
                    NodeKind::Variable | NodeKind::Constant | NodeKind::Field => {
                        let (t, origin) = match sym.type_name.as_deref() {
                            Some(ty) => self.resolve_type_at(s.0, Some(s.1), ty, depth + 1)?,
                            // `const factory = createNodeFactory(…)`: what its initialiser gives.
                            None if sym.kind != NodeKind::Field => {
                                self.binding_type(s.0, sym.parent, &sym.name, depth + 1)?
                            }
                            None => return None,
                        };
                        let (m, o2) = self.member(&t, name, depth + 1)?;
                        Some((m, origin.min(o2)))
                    }
                    _ => None,
                }
            }
            Entity::Files(files) => {
                for &f in files {
                    if let Some(found) = self.export_of(f, name, depth) {
                        return Some(found);
                    }
                }
                None
            }
            Entity::Dir(dir) => {
                let sub = self.probe_python(&join_path(dir, name)?)?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
        }
    }

    /// What module file `f` exports under `name`: its own top-level declaration, a re-export,
    /// a wildcard re-export, or a submodule (Python packages, Rust modules).
    fn export_of(&self, f: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if let Some(syms) = self.top_of(f, name) {
            let facts = self.facts(f);
            let best = syms.iter().copied().max_by_key(|&s| {
                let sym = &facts.symbols[s as usize];
                (sym.exported, sym.kind.is_type_like() || sym.kind.is_callable())
            })?;
            return Some((Entity::Sym((f, best)), Origin::AstResolved));
        }
        let lang = self.lang(f);
        let imports = self.imports_of(f);
        for (k, imp) in imports.iter().enumerate() {
            let forwards = imp.reexport || lang == Language::Python;
            if !forwards || imp.local.as_deref() != Some(name) {
                continue;
            }
            if let Some(found) = self.import_binding(f, k, depth + 1) {
                return Some(found);
            }
        }
        for (k, imp) in imports.iter().enumerate() {
            if imp.kind == ImportKind::Wildcard && (imp.reexport || lang == Language::Python) {
                if let Some(Some(target)) = self.targets_of(f).and_then(|v| v.get(k)) {
                    if let Some(found) = self.member(target, name, depth + 1) {
                        if !matches!(found.0, Entity::External(_)) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        let path: &str = &self.files[f as usize].path;
        match lang {
            Language::Python if path.ends_with("__init__.py") || path.ends_with("__init__.pyi") => {
                let sub = self.probe_python(&join_path(dir_of(path), name)?)?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
            Language::Rust => {
                let (key, module) = self.rust_file_module[f as usize].as_ref()?;
                let mut next = module.clone();
                next.push(name.to_string());
                let sub = self.rust_module(*key, &next.join("::"))?;
                Some((Entity::Files(vec![sub]), Origin::AstResolved))
            }
            _ => None,
        }
    }

    /// What import `k` of file `f` binds under its local name.
    pub(super) fn import_binding(&self, f: u32, k: usize, depth: u32) -> Option<(Entity, Origin)> {
        let imp = &self.facts(f).imports[k];
        let target = self.targets_of(f)?.get(k)?.as_ref()?;
        match imp.kind {
            ImportKind::Module | ImportKind::Namespace => {
                if self.lang(f) == Language::Python && imp.name.is_none() {
                    // `import a.b.c` binds `a` unless aliased.
                    let first = imp.module.split('.').next().unwrap_or(&imp.module);
                    if imp.local.as_deref() == Some(first) && imp.module.contains('.') {
                        return self.resolve_python_module(f, first).map(|e| (e, Origin::AstResolved));
                    }
                }
                if self.lang(f) == Language::Rust {
                    if let Some(name) = &imp.name {
                        return self.member(target, name, depth + 1);
                    }
                }
                Some((target.clone(), Origin::AstResolved))
            }
            ImportKind::Named => {
                let name = imp.name.as_deref().or(imp.local.as_deref())?;
                if matches!(self.lang(f), Language::Java | Language::CSharp | Language::Kotlin) {
                    // `import a.b.C`: the class C in package a.b.
                    return self.member(target, name, depth + 1);
                }
                self.member(target, name, depth + 1)
            }
            ImportKind::Default => match target {
                Entity::Files(files) => {
                    for &tf in files {
                        let facts = self.facts(tf);
                        if let Some(si) = facts.symbols.iter().position(|s| s.default_export) {
                            return Some((Entity::Sym((tf, si as u32)), Origin::AstResolved));
                        }
                        // `export { x as default } from` / re-exported default.
                        if let Some(found) = self.export_of(tf, "default", depth + 1) {
                            return Some(found);
                        }
                    }
                    Some((target.clone(), Origin::AstResolved))
                }
                Entity::External(m) => Some((Entity::External(format!("{m}.default")), Origin::AstResolved)),
                Entity::Sym(_) | Entity::Dir(_) => Some((target.clone(), Origin::AstResolved)),
            },
            ImportKind::Wildcard | ImportKind::SideEffect | ImportKind::Dependency => None,
        }
    }
}
