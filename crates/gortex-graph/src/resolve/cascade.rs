//! The resolution cascade: a plain name as a file sees it (own declarations, imports, the same
//! package, wildcard imports, the language's implicit names), type names, receiver paths and
//! local bindings, and the name-only fallback.

use super::builtins::{
    ECMASCRIPT_GLOBAL_TYPES, JAVA_LANG, KNOWN_GLOBALS, KOTLIN_IMPLICIT, LUA_GLOBALS, RUBY_KERNEL, RUBY_MODULE,
    SCALA_IMPLICIT, SWIFT_FRAMEWORKS, SWIFT_IMPLICIT,
};
use super::tables::Tables;
use super::{Entity, Sym, MAX_DEPTH};
use crate::config::dir_of;
use gortex_core::{BindingValue, EdgeKind, ImportKind, Language, NodeKind, Origin, Receiver, RefFact};

/// Name-only candidates are counted up to this many (reported as "this many or more").
const MAX_COUNTED_CANDIDATES: u32 = 16;

impl Tables<'_> {
    /// A name as the file sees it, without local variable bindings: its own declarations,
    /// imports, same package, wildcard imports.
    pub(super) fn resolve_first_plain(&self, fi: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let lang = self.lang(fi);
        if let Some(syms) = self.top_of(fi, name) {
            let sym = (fi, syms[0]);
            if lang == Language::Rust && self.sym(sym).kind == NodeKind::Module {
                // `mod foo;` declares the module file `foo.rs` / `foo/mod.rs`.
                if let Some(file) = self.rust_submodule(fi, name) {
                    return Some((Entity::Files(vec![file]), Origin::AstResolved));
                }
            }
            return Some((Entity::Sym(sym), Origin::AstResolved));
        }
        let facts = self.facts(fi);
        for (k, imp) in facts.imports.iter().enumerate() {
            let binds = match (&imp.local, lang) {
                (Some(local), _) => local == name,
                (None, Language::Go) if imp.kind == ImportKind::Module => {
                    self.go_package_name(fi, k).as_deref() == Some(name)
                }
                (None, Language::Java | Language::CSharp | Language::Kotlin | Language::Scala)
                    if imp.kind == ImportKind::Named =>
                {
                    imp.name.as_deref() == Some(name)
                }
                _ => false,
            };
            if binds {
                if let Some(found) = self.import_binding(fi, k, depth + 1) {
                    return Some(found);
                }
            }
        }
        if let Some(found) = self.resolve_in_visible_files(fi, lang, facts, name) {
            return Some(found);
        }
        for (k, imp) in facts.imports.iter().enumerate() {
            if imp.kind != ImportKind::Wildcard {
                continue;
            }
            if let Some(Some(target)) = self.targets_of(fi).and_then(|v| v.get(k)) {
                if let Some(found) = self.member(target, name, depth + 1) {
                    if !matches!(found.0, Entity::External(_)) {
                        return Some(found);
                    }
                }
            }
        }
        implicit_name(lang, facts, name)
    }

    /// A name declared in the files a language makes visible without an import: the same
    /// package (Go directory and package, Java/Kotlin/PHP/Scala package, Swift module, C#
    /// namespace and its parents), what C/C++ includes bring, Rust crates and `mod` declarations.
    fn resolve_in_visible_files(
        &self,
        fi: u32,
        lang: Language,
        facts: &gortex_core::FileFacts,
        name: &str,
    ) -> Option<(Entity, Origin)> {
        match lang {
            Language::Go => {
                let dir = dir_of(&self.files[fi as usize].path);
                let pkg = facts.package.as_deref();
                for f in self.go_files_in(dir) {
                    if f != fi && self.facts(f).package.as_deref() == pkg {
                        if let Some(syms) = self.top_of(f, name) {
                            return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                        }
                    }
                }
            }
            Language::Java | Language::Kotlin | Language::Php | Language::Scala | Language::Swift => {
                let pkg = match lang {
                    Language::Swift => self.swift_modules.get(&fi).copied(),
                    _ => facts.package.as_deref(),
                };
                if let Some(pkg) = pkg {
                    for &f in self.java_pkg(pkg).into_iter().flatten() {
                        if f != fi {
                            if let Some(syms) = self.top_of(f, name) {
                                return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                            }
                        }
                    }
                }
            }
            Language::CSharp => {
                // The file's namespace, then each enclosing one (`A.B.C` sees `A.B` and `A`).
                let mut pkg = facts.package.as_deref();
                while let Some(p) = pkg {
                    for &f in self.java_pkg(p).into_iter().flatten() {
                        if f != fi {
                            if let Some(syms) = self.top_of(f, name) {
                                return Some((Entity::Sym((f, syms[0])), Origin::AstResolved));
                            }
                        }
                    }
                    pkg = p.rsplit_once('.').map(|(outer, _)| outer);
                }
            }
            Language::C | Language::Cpp => {
                // What the includes make visible, nearest first.
                for &f in &self.c_visible[fi as usize] {
                    // The list follows these files' includes (a derived table no key names).
                    self.note_file(f);
                    if let Some(syms) = self.top_of(f, name) {
                        let facts = self.facts(f);
                        let best = syms.iter().copied().max_by_key(|&s| {
                            let sym = &facts.symbols[s as usize];
                            (sym.exported, sym.kind.is_type_like() || sym.kind.is_callable())
                        });
                        if let Some(best) = best {
                            return Some((Entity::Sym((f, best)), Origin::AstResolved));
                        }
                    }
                }
            }
            Language::Rust => {
                if let Some(ci) = self.config.cargo_crates.iter().position(|c| c.name == name) {
                    if let Some(f) = self.rust_module(ci as u32, "") {
                        return Some((Entity::Files(vec![f]), Origin::AstResolved));
                    }
                }
                // `mod foo;` declared here.
                if let Some((key, module)) = &self.rust_file_module[fi as usize] {
                    let mut next = module.clone();
                    next.push(name.to_string());
                    if let Some(f) = self.rust_module(*key, &next.join("::")) {
                        return Some((Entity::Files(vec![f]), Origin::AstResolved));
                    }
                }
            }
            _ => {}
        }
        None
    }

    /// True when a member call's receiver is known to live outside the repository (a global
    /// such as `console`/`JSON`/`String`, or a capitalised name nothing in scope declares):
    /// a same-named method elsewhere in the repo would be a wrong guess.
    pub(super) fn receiver_is_foreign(&self, fi: u32, scope: Option<u32>, receiver: &Receiver) -> bool {
        let first = match receiver {
            Receiver::Name(x) => x.as_str(),
            Receiver::Path(p) => match p.first() {
                Some(x) => x.as_str(),
                None => return false,
            },
            // What a library's call returned (`JSON.parse(s).map(…)`, `requests.get(u).json()`).
            Receiver::Call(f) => return self.calls_external(fi, scope, &Receiver::None, f),
            Receiver::Chain(inner, f) => {
                return self.receiver_is_foreign(fi, scope, inner) || self.calls_external(fi, scope, inner, f)
            }
            _ => return false,
        };
        if KNOWN_GLOBALS.contains(&first)
            || self.bound_to_external_call(fi, scope, first)
            || self.bound_to_unknown_type(fi, scope, first)
        {
            return true;
        }
        first.chars().next().is_some_and(char::is_uppercase)
            && first != "Self"
            && self.resolve_receiver_name(fi, scope, first, 0).is_none()
    }

    /// Whether calling `callee` on `receiver` calls outside the repository.
    fn calls_external(&self, fi: u32, scope: Option<u32>, receiver: &Receiver, callee: &str) -> bool {
        matches!(
            self.resolve_callee(fi, scope, receiver, callee, 1),
            Some((Entity::External(_), _))
        )
    }

    /// Whether `name` is a local bound to what a call outside the repository returned (`resp :=
    /// http.Get(u)`, `r = requests.get(u)`): its members are the library's, and no method of
    /// the repository is guessed for them by name.
    fn bound_to_external_call(&self, fi: u32, scope: Option<u32>, name: &str) -> bool {
        match self.binding_of(fi, scope, name) {
            Some((sc, BindingValue::Call { receiver, name: callee })) => self.calls_external(fi, sc, receiver, callee),
            _ => false,
        }
    }

    /// Whether JavaScript/TypeScript or Java `name` is declared or constructed as a type nothing
    /// in the repository declares (`xhr = new XMLHttpRequest()`, `signal: AbortSignal`,
    /// `Map.Entry<K, V> entry`): the platform's or a library's, whose methods no same-named one
    /// of the repository stands for. (Both extractors leave type parameters out of bindings, or
    /// bind them to their bound.)
    fn bound_to_unknown_type(&self, fi: u32, scope: Option<u32>, name: &str) -> bool {
        if !self.lang(fi).is_ecmascript() && self.lang(fi) != Language::Java {
            return false;
        }
        match self.binding_of(fi, scope, name) {
            Some((sc, BindingValue::Type { name: ty })) => self.resolve_type_at(fi, sc, ty, 1).is_none(),
            _ => false,
        }
    }

    /// A type name as file `fi` sees it. Name-only matches are `text_matched`.
    pub(super) fn resolve_type(&self, fi: u32, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        self.resolve_type_at(fi, None, name, depth)
    }

    /// A type name as code at `scope` of file `fi` sees it: what the file sees, then the
    /// enclosing namespace blocks' merged members (TypeScript's `namespace ts { … }` spread over
    /// many files), then a name-only match (`text_matched`).
    pub(super) fn resolve_type_at(
        &self,
        fi: u32,
        scope: Option<u32>,
        name: &str,
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        if name.starts_with("std::") && self.lang(fi).is_c_family() {
            // The C++ standard library never lives in the repository.
            return Some((Entity::External(name.to_string()), Origin::AstResolved));
        }
        // A qualified type: another Go package's, named through its import (`shapes.Box`,
        // `http.Request`); a TypeScript namespace's or module's (`textChanges.ChangeTracker`,
        // `ts.server.Project`), its head resolved like a receiver.
        let qualified = match self.lang(fi) {
            Language::Go => name.split_once('.'),
            lang if lang.is_ecmascript() => name.rsplit_once('.'),
            _ => None,
        };
        if let Some((head, ty)) = qualified {
            let (base, o1) = if self.lang(fi) == Language::Go {
                self.resolve_first_plain(fi, head, depth)?
            } else {
                let path: Vec<String> = head.split('.').map(str::to_string).collect();
                self.resolve_path(fi, scope, &path, depth + 1)?
            };
            let (found, o2) = self.member(&base, ty, depth + 1)?;
            return match found {
                Entity::Sym(s) if !self.sym(s).kind.is_type_like() => None,
                _ => Some((found, o1.min(o2))),
            };
        }
        if let Some((e, o)) = self.resolve_first_plain(fi, name, depth) {
            match &e {
                Entity::Sym(s) if self.sym(*s).kind.is_type_like() => return Some((e, o)),
                // `include Loggable`: Ruby modules are mixed into classes; Lua module tables own
                // the functions declared on them (`function M.f()`).
                Entity::Sym(s)
                    if matches!(self.lang(fi), Language::Ruby | Language::Lua)
                        && self.sym(*s).kind == NodeKind::Module =>
                {
                    return Some((e, o))
                }
                Entity::External(_) => return Some((e, o)),
                _ => {}
            }
        }
        if let Some(k) = self.namespace_scope_member(fi, scope, name, |k| k.is_type_like()) {
            return Some((Entity::Sym(k), Origin::AstResolved));
        }
        if self.lang(fi).is_ecmascript() && ECMASCRIPT_GLOBAL_TYPES.contains(&name) {
            return Some((Entity::External(name.to_string()), Origin::AstResolved));
        }
        match self.name_only(fi, name, |k| k.is_type_like(), None) {
            NameOnly::One(s) => Some((Entity::Sym(s), Origin::TextMatched)),
            _ => None,
        }
    }

    /// Resolves the type target of an `extends`/`implements`/annotation reference.
    pub(super) fn resolve_type_ref(&self, fi: u32, r: &RefFact, depth: u32) -> Option<(Entity, Origin)> {
        if r.kind == EdgeKind::Implements && self.lang(fi) == Language::Swift {
            // `extension T: P`: the receiver is the conforming type, not a qualifier of P.
            return self.resolve_type_at(fi, r.from, &r.name, depth);
        }
        match &r.receiver {
            Receiver::Name(ns) => {
                let (base, o1) = self.resolve_first_plain(fi, ns, depth).or_else(|| {
                    let block = self.visible_namespace(fi, r.from, ns)?;
                    Some((Entity::Sym(block), Origin::AstResolved))
                })?;
                let (m, o2) = self.member(&base, &r.name, depth + 1)?;
                Some((m, o1.min(o2)))
            }
            Receiver::Path(path) => {
                let (base, o1) = self.resolve_path(fi, None, path, depth)?;
                let (m, o2) = self.member(&base, &r.name, depth + 1)?;
                Some((m, o1.min(o2)))
            }
            _ => self.resolve_type_at(fi, r.from, &r.name, depth),
        }
    }

    /// The pytest fixture named `name` that symbol `requester` of file `fi` receives: the file's
    /// own, else the one in the nearest `conftest.py` of its directory or an ancestor's. A fixture
    /// requesting its own name (`def db(db)`, an override) receives the outer one.
    pub(super) fn pytest_fixture(&self, fi: u32, name: &str, requester: Sym) -> Option<Sym> {
        let cands = self.named(name)?;
        let here = &*self.files[fi as usize].path;
        let dir = crate::config::dir_of(here);
        let mut best: Option<(usize, Sym)> = None;
        for &c in cands {
            let file = &self.files[c.0 as usize];
            let sym = &file.facts.symbols[c.1 as usize];
            if sym.test_role != Some(gortex_core::TestRole::Fixture) || sym.parent.is_some() || c == requester {
                continue;
            }
            let path = &*file.path;
            // Depth of the match: the own file beats every conftest, a nearer conftest a farther one.
            let rank = if c.0 == fi {
                usize::MAX
            } else if path.rsplit('/').next() == Some("conftest.py") {
                let cdir = crate::config::dir_of(path);
                let ancestor = cdir.is_empty() || dir == cdir || dir.starts_with(&format!("{cdir}/"));
                if !ancestor {
                    continue;
                }
                cdir.len() + 1
            } else {
                continue;
            };
            if best.is_none_or(|(r, _)| rank > r) {
                best = Some((rank, c));
            }
        }
        best.map(|(_, s)| s)
    }

    /// Same-language candidates named `name` in the whole repository.
    pub(super) fn name_only(
        &self,
        fi: u32,
        name: &str,
        want: impl Fn(NodeKind) -> bool,
        exclude: Option<Sym>,
    ) -> NameOnly {
        let family = self.lang(fi).family();
        let Some(cands) = self.named(name) else {
            return NameOnly::None;
        };
        // Production code does not call into test files; a name match there is a fake or a fixture.
        let caller_is_test = self.facts(fi).test_runner.is_some();
        let mut found = None;
        let mut count = 0u32;
        for &c in cands {
            // Raw reads, not recorded: the candidate set is covered by the NAME key, and the one
            // candidate an edge points at is recorded when the edge is emitted.
            let file = &self.files[c.0 as usize];
            if Some(c) == exclude || file.language.family() != family || !want(file.facts.symbols[c.1 as usize].kind) {
                continue;
            }
            if !caller_is_test && file.facts.test_runner.is_some() {
                continue;
            }
            count += 1;
            found = Some(c);
            // Only uniqueness matters; common names (thousands of `foo`s in test corpora) would
            // otherwise make every lookup linear in the repository.
            if count >= MAX_COUNTED_CANDIDATES {
                break;
            }
        }
        match (count, found) {
            (1, Some(s)) => NameOnly::One(s),
            (0, _) => NameOnly::None,
            (n, _) => NameOnly::Many(n),
        }
    }

    /// Resolves a chain of identifiers (a receiver path) from a scope.
    pub(super) fn resolve_path(
        &self,
        fi: u32,
        scope: Option<u32>,
        path: &[String],
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        if self.lang(fi) == Language::Rust {
            if let Some(e) = self.resolve_rust_path(fi, path, false) {
                return Some((e, Origin::AstResolved));
            }
        }
        if matches!(self.lang(fi), Language::Php | Language::CSharp) && path.len() > 1 {
            // A fully qualified name's namespace (`\App\Models\Order`, `Acme.Store.MemoryStore`)
            // is a package.
            if let Some(files) = self.java_pkg(&path.join(".")) {
                return Some((Entity::Files(files.clone()), Origin::AstResolved));
            }
        }
        let (first, rest) = path.split_first()?;
        let (mut entity, mut origin) = match first.as_str() {
            // `this.a.b` / `self.a.b`: from the enclosing type's instance.
            "this" | "self" if matches!(self.lang(fi), Language::Python) || self.lang(fi).is_ecmascript() => {
                (Entity::Sym(self.enclosing_type(fi, scope?)?), Origin::AstResolved)
            }
            _ => self.resolve_receiver_name(fi, scope, first, depth)?,
        };
        for seg in rest {
            let (e, o) = self.member(&entity, seg, depth + 1)?;
            entity = e;
            origin = origin.min(o);
        }
        Some((entity, origin))
    }

    /// What an identifier used as a receiver denotes: a typed local, a parameter, an import,
    /// a type (static access), a field of the enclosing type (Java's implicit `this`).
    pub(super) fn resolve_receiver_name(
        &self,
        fi: u32,
        scope: Option<u32>,
        name: &str,
        depth: u32,
    ) -> Option<(Entity, Origin)> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(found) = self.binding_type(fi, scope, name, depth) {
            return Some(found);
        }
        if name == "Self" {
            let ty = self.enclosing_type(fi, scope?)?;
            return Some((Entity::Sym(ty), Origin::AstResolved));
        }
        if name == "std" && self.lang(fi) == Language::Cpp {
            // `std::sort(…)`, `std::chrono::now()`: the standard library, outside the repository.
            return Some((Entity::External("std::".into()), Origin::AstResolved));
        }
        // Inside `namespace a { … }`, names of every merged `a` block are in scope.
        if let Some(k) = self.namespace_scope_member(fi, scope, name, |_| true) {
            return Some((Entity::Sym(k), Origin::AstResolved));
        }
        if let Some(found) = self.resolve_first_plain(fi, name, depth) {
            return Some(found);
        }
        // A namespace declared as a dotted block of an enclosing one, or globally by a script.
        if let Some(block) = self.visible_namespace(fi, scope, name) {
            return Some((Entity::Sym(block), Origin::AstResolved));
        }
        if matches!(
            self.lang(fi),
            Language::Java | Language::Cpp | Language::CSharp | Language::Kotlin | Language::Scala | Language::Swift
        ) {
            // An implicit `this`: a field of the enclosing type (or of an out-of-line method's class).
            let ty = self.enclosing_type(fi, scope?)?;
            let field = self.find_member(ty, name)?;
            if self.sym(field).kind == NodeKind::Field {
                return self.member_entity_type(field, depth);
            }
        }
        None
    }

    /// The type of a field/variable symbol.
    pub(super) fn member_entity_type(&self, s: Sym, depth: u32) -> Option<(Entity, Origin)> {
        let ty = self.sym(s).type_name.as_deref()?;
        self.resolve_type_at(s.0, Some(s.1), ty, depth + 1)
    }

    /// The binding of `name` visible from `scope` (innermost scope first, then module), with the
    /// scope that holds it.
    fn binding_of(&self, fi: u32, scope: Option<u32>, name: &str) -> Option<(Option<u32>, &BindingValue)> {
        let facts = self.facts(fi);
        let mut cur = scope;
        for _ in 0..=64 {
            if let Some(&bi) = self.bindings[fi as usize].get(&(cur, name)) {
                return Some((cur, &facts.bindings[bi as usize].value));
            }
            cur = match cur {
                Some(s) => facts.symbols[s as usize].parent.filter(|&p| p < s),
                None => return None,
            };
        }
        // A scope chain deeper than any real nesting: the module scope is still consulted.
        let &bi = self.bindings[fi as usize].get(&(None, name))?;
        Some((None, &facts.bindings[bi as usize].value))
    }

    /// The innermost namespace block (a `Module` symbol) enclosing `scope`, itself included.
    fn enclosing_namespace(&self, fi: u32, scope: Option<u32>) -> Option<u32> {
        let facts = self.facts(fi);
        let mut cur = scope;
        while let Some(s) = cur {
            if facts.symbols[s as usize].kind == NodeKind::Module {
                return Some(s);
            }
            cur = facts.symbols[s as usize].parent.filter(|&p| p < s);
        }
        None
    }

    /// The type of a local binding visible from `scope` (innermost scope first, then module).
    pub(super) fn binding_type(&self, fi: u32, scope: Option<u32>, name: &str, depth: u32) -> Option<(Entity, Origin)> {
        let (sc, value) = self.binding_of(fi, scope, name)?;
        // A binding at file level may sit in a namespace block (bindings are scoped to
        // functions): its type and initialiser see that namespace's names.
        let sc = sc.or_else(|| self.enclosing_namespace(fi, scope));
        match value {
            BindingValue::Type { name: ty } => self.resolve_type_at(fi, sc, ty, depth + 1),
            BindingValue::Callback {
                receiver,
                callee,
                arg,
                param,
            } => {
                let (target, _) = self.resolve_callee(fi, sc, receiver, callee, depth + 1)?;
                let Entity::Sym(mut t) = target else { return None };
                if self.sym(t).kind.is_type_like() {
                    // `new Observable(subscriber => …)`: the constructor's parameters.
                    t = self.find_member(t, "constructor")?;
                }
                let key = format!("@{arg}.{param}");
                let facts = self.facts(t.0); // noted first: the binding may appear there later
                let &bi = self.bindings[t.0 as usize].get(&(Some(t.1), key.as_str()))?;
                let BindingValue::Type { name: ty } = &facts.bindings[bi as usize].value else {
                    return None;
                };
                let (e, _) = self.resolve_type_at(t.0, Some(t.1), ty, depth + 1)?;
                Some((e, Origin::AstInferred))
            }
            BindingValue::Call { receiver, name: callee } => {
                let (target, _) = self.resolve_callee(fi, sc, receiver, callee, depth + 1)?;
                let Entity::Sym(t) = target else { return None };
                let callee_sym = self.sym(t);
                if callee_sym.kind.is_type_like() {
                    // `x = Foo()` in Python / `Foo::new`-less constructors.
                    return Some((Entity::Sym(t), Origin::AstInferred));
                }
                let ret = callee_sym.return_type.as_deref()?;
                let (e, _) = self.resolve_type_at(t.0, Some(t.1), ret, depth + 1)?;
                Some((e, Origin::AstInferred))
            }
        }
    }
}

/// A name the language's runtime gives every file (Kotlin's and Scala's implicit imports, Swift's
/// standard library, XCTest and imported frameworks, Lua's globals, Ruby's `Kernel` and
/// `Module`), as an external: consulted only after everything the repository declares.
fn implicit_name(lang: Language, facts: &gortex_core::FileFacts, name: &str) -> Option<(Entity, Origin)> {
    // Kotlin imports its standard library's top-level functions into every file.
    if lang == Language::Kotlin && KOTLIN_IMPLICIT.contains(&name) {
        return Some((Entity::External(format!("kotlin.{name}")), Origin::AstResolved));
    }
    // Java's `java.lang` is imported into every file (`String`, `Math`, `Integer`).
    if lang == Language::Java && JAVA_LANG.contains(&name) {
        return Some((Entity::External(format!("java.lang.{name}")), Origin::AstResolved));
    }
    // Scala's `Predef` and the `scala` package are imported into every file.
    if lang == Language::Scala && SCALA_IMPLICIT.contains(&name) {
        return Some((Entity::External(format!("scala.{name}")), Origin::AstResolved));
    }
    // Swift's standard library is imported into every file; `XCT…` names (XCTestCase,
    // XCTAssertEqual, XCTFail) are the XCTest module's.
    if lang == Language::Swift {
        if SWIFT_IMPLICIT.contains(&name) {
            return Some((Entity::External(format!("swift.{name}")), Origin::AstResolved));
        }
        if name.starts_with("XCT") {
            return Some((Entity::External(format!("XCTest.{name}")), Origin::AstResolved));
        }
        // Apple's frameworks and the common test DSLs, only where the file imports them.
        for (module, importers, names) in SWIFT_FRAMEWORKS {
            if names.contains(&name) && facts.imports.iter().any(|i| importers.contains(&i.module.as_str())) {
                return Some((Entity::External(format!("{module}.{name}")), Origin::AstResolved));
            }
        }
    }
    // Lua's standard library: global functions and library tables (`string.format`).
    if lang == Language::Lua && LUA_GLOBALS.contains(&name) {
        return Some((Entity::External(format!("lua.{name}")), Origin::AstResolved));
    }
    // Ruby's `Kernel` (every object's private methods) and the `Module` methods a class body
    // calls on itself (`attr_reader`, `include`, `private`).
    if lang == Language::Ruby {
        if RUBY_KERNEL.contains(&name) {
            return Some((Entity::External(format!("ruby.Kernel.{name}")), Origin::AstResolved));
        }
        if RUBY_MODULE.contains(&name) {
            return Some((Entity::External(format!("ruby.Module.{name}")), Origin::AstResolved));
        }
    }
    None
}

/// Same-language candidates for a name-only match.
pub(super) enum NameOnly {
    /// No candidate of a fitting kind.
    None,
    /// Exactly one: the only case that earns a `text_matched` edge.
    One(Sym),
    /// This many (counted up to `MAX_COUNTED_CANDIDATES`).
    Many(u32),
}
