//! A call's target, by the kind of its receiver (none, `this`/`self`, `super`, a field, a name,
//! a path, a call's result): used for call edges and for return-type inference.

use super::tables::Tables;
use super::{Entity, MAX_DEPTH};
use gortex_core::{Language, NodeKind, Origin, Receiver, TypeFlavor};

impl Tables<'_> {
    /// Resolves a call's target (used for return-type inference and for call edges).
    pub(super) fn resolve_callee(
        &self,
        fi: u32,
        scope: Option<u32>,
        receiver: &Receiver,
        name: &str,
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let lang = self.lang(fi);
        match receiver {
            Receiver::None => self.resolve_bare_call(fi, scope, name, depth, lang),
            Receiver::SelfRef => self.resolve_self_call(fi, scope, name, lang),
            Receiver::Super => self.resolve_super_call(fi, scope, name, lang),
            Receiver::SelfField(field) => {
                let ty = self.enclosing_type(fi, scope?)?;
                let f = self.find_member(ty, field)?;
                let (t, o) = self.member_entity_type(f, depth)?;
                let (m, o2) = self.member(&t, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Name(x) => {
                let (base, o) = self.resolve_receiver_name(fi, scope, x, depth)?;
                let (m, o2) = self.member(&base, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Path(path) => {
                let (base, o) = self.resolve_path(fi, scope, path, depth)?;
                let (m, o2) = self.member(&base, name, depth + 1)?;
                Some((m, o.min(o2)))
            }
            Receiver::Call(f) => self.member_of_result(fi, scope, &Receiver::None, f, name, depth),
            Receiver::Chain(inner, f) => self.member_of_result(fi, scope, inner, f, name, depth),
            Receiver::Expr => None,
        }
    }

    /// Member `name` of what calling `callee` on `receiver` gives: an instance of the class
    /// called, else of the callee's declared return type (`ast_inferred`).
    fn member_of_result(
        &self,
        fi: u32,
        scope: Option<u32>,
        receiver: &Receiver,
        callee: &str,
        name: &str,
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        let (found, _) = self.resolve_callee(fi, scope, receiver, callee, depth + 1)?;
        let Entity::Sym(c) = found else { return None };
        let csym = self.sym(c);
        let ty = if csym.kind.is_type_like() {
            Entity::Sym(c)
        } else {
            self.resolve_type_at(c.0, Some(c.1), csym.return_type.as_deref()?, depth + 1)?
                .0
        };
        let (m, _) = self.member(&ty, name, depth + 1)?;
        Some((m, Origin::AstInferred))
    }

    /// A call without a receiver: nested declarations of enclosing functions, merged namespace
    /// blocks, the enclosing type's members where the language calls them without `this`, then
    /// the file's view of the name (PHP and shell fall back to built-ins and programs).
    fn resolve_bare_call(
        &self,
        fi: u32,
        scope: Option<u32>,
        name: &str,
        depth: u32,
        lang: Language,
    ) -> Option<(Entity, Origin)> {
        // Nested declarations of enclosing functions. A type's members are not in scope by
        // their bare name (TypeScript, Python, a Vue component's methods); the languages
        // where they are look them up through the hierarchy below.
        let facts = self.facts(fi);
        let mut cur = scope;
        while let Some(s) = cur {
            let kids = if facts.symbols[s as usize].kind.is_type_like() {
                None
            } else {
                self.children_of((fi, s))
            };
            if let Some(kids) = kids {
                if let Some(&k) = kids
                    .iter()
                    .find(|&&k| self.sym(k).name == name && self.sym(k).kind.is_callable())
                {
                    return Some((Entity::Sym(k), Origin::AstResolved));
                }
            }
            // TypeScript namespaces merge across files: `namespace ts { … }` in another file
            // declares names this block sees unqualified.
            let want = |k: NodeKind| k.is_callable() || k.is_type_like();
            if let Some(k) = self.namespace_block_scope((fi, s), name, &want) {
                return Some((Entity::Sym(k), Origin::AstResolved));
            }
            // Java, C#, C++, Kotlin, Ruby, Scala and Swift call their own (and inherited)
            // methods without `this`.
            if matches!(
                lang,
                Language::Java
                    | Language::Cpp
                    | Language::CSharp
                    | Language::Kotlin
                    | Language::Ruby
                    | Language::Scala
                    | Language::Swift
            ) && facts.symbols[s as usize].kind.is_type_like()
            {
                if let Some(m) = self.find_member((fi, s), name) {
                    return Some((Entity::Sym(m), Origin::AstResolved));
                }
            }
            cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
        }
        // An out-of-line C++ method (`void Foo::bar() { baz(); }`) sees Foo's members.
        if lang == Language::Cpp {
            if let Some(ty) = scope.and_then(|s| self.enclosing_type(fi, s)) {
                if let Some(m) = self.find_member(ty, name) {
                    return Some((Entity::Sym(m), Origin::AstResolved));
                }
            }
        }
        if self.binding_type(fi, scope, name, depth).is_some() {
            return None; // a local variable holding a value, not a declared callable
        }
        let found = self.resolve_first_plain(fi, name, depth);
        if found.is_none() && matches!(lang, Language::Php | Language::Bash) && self.named(name).is_none() {
            // An unqualified PHP function call falls back to the global namespace: what
            // the repository never declares is a built-in or extension (`count`, `isset`).
            // A shell command nothing declares is a program (`grep`, `git`) or builtin.
            let prefix = if lang == Language::Php { "php" } else { "sh" };
            return Some((Entity::External(format!("{prefix}.{name}")), Origin::AstResolved));
        }
        found
    }

    /// A call on `this`/`self`: a member of the enclosing type, else a Vue component's instance API.
    fn resolve_self_call(&self, fi: u32, scope: Option<u32>, name: &str, lang: Language) -> Option<(Entity, Origin)> {
        let ty = self.enclosing_type(fi, scope?)?;
        let member = self
            .find_member(ty, name)
            .map(|m| (Entity::Sym(m), Origin::AstResolved));
        // A Vue component's or mixin's `this.$emit(…)`, `this.$nextTick(…)`: the framework's
        // instance API.
        member.or_else(|| {
            // (A Svelte component has no `this`; one in plain script renders with `render(h)`.)
            let flavor = self.sym(ty).flavor;
            let vue = (lang != Language::Svelte && flavor == Some(TypeFlavor::Component))
                || flavor == Some(TypeFlavor::Mixin);
            (vue && name.starts_with('$')).then(|| (Entity::External(format!("vue.{name}")), Origin::AstResolved))
        })
    }

    /// A call on `super` (`super()`, `super.m()`): the supertypes' member, or their constructor.
    fn resolve_super_call(&self, fi: u32, scope: Option<u32>, name: &str, lang: Language) -> Option<(Entity, Origin)> {
        let ty = self.enclosing_type(fi, scope?)?;
        let sups = self.supers_of(ty)?;
        let wanted: &[&str] = if matches!(name, "super" | "__init__" | "constructor") {
            &["constructor", "__init__", "new"]
        } else {
            &[name]
        };
        for &sup in sups {
            for w in wanted {
                if let Some(m) = self.find_member(sup, w) {
                    return Some((Entity::Sym(m), Origin::AstResolved));
                }
            }
            if lang == Language::Java && name == "super" {
                if let Some(m) = self.find_member(sup, &self.sym(sup).name) {
                    return Some((Entity::Sym(m), Origin::AstResolved));
                }
            }
        }
        // `super()` with only an implicit constructor: the supertype itself.
        if wanted.len() > 1 || (lang == Language::Java && name == "super") {
            return sups.first().map(|&s| (Entity::Sym(s), Origin::AstResolved));
        }
        None
    }
}
