//! The edge emitter: one file's detached methods, imports and references turned into resolved
//! edges, external edges and unresolved placeholders, with endpoints in path space.

use super::builtins::ECMASCRIPT_PROTOTYPE_METHODS;
use super::cascade::NameOnly;
use super::tables::Tables;
use super::{Entity, Sym};
use crate::cache::{Endpoint, ExternalEdge, ResolvedEdge, ResolvedFile, UnresolvedRef};
use crate::config::dir_of;
use crate::semantic::{SemanticCounts, SemanticSite, SemanticTarget};
use gortex_core::{EdgeKind, ImportKind, Language, NodeKind, Origin, Receiver, RefFact, Span, Synthesizer, TypeFlavor};
use rustc_hash::FxHashMap;

/// Whether an edge of `kind` may point at a symbol of kind `target`.
fn accepts(kind: EdgeKind, target: NodeKind) -> bool {
    match kind {
        // A Ruby module mixed in with `include` is a supertype.
        EdgeKind::Extends => target.is_type_like() || target == NodeKind::Module,
        EdgeKind::Implements | EdgeKind::TypedAs | EdgeKind::Returns => target.is_type_like(),
        EdgeKind::Calls => {
            target.is_callable()
                || target.is_type_like()
                || matches!(target, NodeKind::Variable | NodeKind::Constant | NodeKind::Field)
        }
        EdgeKind::Instantiates => target.is_type_like() || target.is_callable(),
        _ => target.is_symbol(),
    }
}

/// Maps symbols of any file to path-space endpoints of one file's [`ResolvedFile`].
struct Emitter<'t, 'a> {
    t: &'t Tables<'a>,
    index: FxHashMap<u32, u32>,
    out: ResolvedFile,
    /// The synthesizer of the reference being emitted: every edge it makes carries it.
    via: Option<Synthesizer>,
}

impl<'t, 'a> Emitter<'t, 'a> {
    /// An emitter for file `fi`, whose path is always index 0 (its own endpoints).
    fn new(t: &'t Tables<'a>, fi: u32) -> Self {
        let mut e = Emitter {
            t,
            index: FxHashMap::default(),
            out: ResolvedFile::default(),
            via: None,
        };
        e.path_index(fi);
        e
    }

    /// File `f`'s index in this file's path table, added on first use.
    fn path_index(&mut self, f: u32) -> u32 {
        let paths = &mut self.out.paths;
        let t = self.t;
        *self.index.entry(f).or_insert_with(|| {
            paths.push(t.files[f as usize].path.to_string());
            (paths.len() - 1) as u32
        })
    }

    /// File `f` as an endpoint.
    fn file(&mut self, f: u32) -> Endpoint {
        Endpoint::File(self.path_index(f))
    }

    /// A symbol as an endpoint; the edge depends on its file's symbols.
    fn symbol(&mut self, s: Sym) -> Endpoint {
        self.t.note_symbols(s.0);
        Endpoint::Symbol(self.path_index(s.0), s.1)
    }

    /// Records a resolved edge.
    fn edge(&mut self, from: Endpoint, to: Endpoint, kind: EdgeKind, origin: Origin, line: u32) {
        self.out.edges.push(ResolvedEdge {
            from,
            to,
            kind,
            origin,
            line,
            via: self.via,
        });
    }

    /// Records an unresolved placeholder with its name-only candidate count.
    fn unresolved(&mut self, from: Endpoint, kind: EdgeKind, target: String, line: u32, candidates: u32) {
        self.out.unresolved.push(UnresolvedRef {
            from,
            kind,
            target,
            line,
            candidates,
        });
    }
}

/// One file's edges, external edges and placeholders (the caller records its dependency keys).
pub(super) fn emit_file(t: &Tables<'_>, fi: u32) -> ResolvedFile {
    let mut em = Emitter::new(t, fi);
    emit_method_owners(&mut em, fi);
    emit_imports(&mut em, fi);
    let facts = &t.files[fi as usize].facts;
    let file_test = facts.test_runner.is_some();
    for r in &facts.refs {
        em.via = r.via;
        match r.via {
            Some(Synthesizer::PytestFixture) => emit_fixture(&mut em, fi, r),
            _ => emit_reference(&mut em, fi, r, file_test),
        }
    }
    em.via = None;
    em.out
}

/// Detached methods join their owner type (`member_of` and `contains`).
fn emit_method_owners(em: &mut Emitter<'_, '_>, fi: u32) {
    let t = em.t;
    let facts = &t.files[fi as usize].facts;
    let own = |si: u32| Endpoint::Symbol(0, si);
    for (si, s) in facts.symbols.iter().enumerate() {
        if s.kind == NodeKind::Method && s.parent.is_none() {
            if let Some(&ty) = t.method_owner.get(&(fi, si as u32)) {
                let owner = em.symbol(ty);
                let line = s.span.start_line;
                em.edge(
                    own(si as u32),
                    owner.clone(),
                    EdgeKind::MemberOf,
                    Origin::AstResolved,
                    line,
                );
                em.edge(owner, own(si as u32), EdgeKind::Contains, Origin::AstResolved, line);
            }
        }
    }
}

/// Each import's edge to the file, package or declaration it names; an external module; or a
/// placeholder when nothing was found.
fn emit_imports(em: &mut Emitter<'_, '_>, fi: u32) {
    let t = em.t;
    let file = &t.files[fi as usize];
    let facts = &file.facts;
    let lang = file.language;
    for (k, imp) in facts.imports.iter().enumerate() {
        let kind = if imp.kind == ImportKind::Dependency {
            EdgeKind::DependsOnModule
        } else if imp.reexport {
            EdgeKind::ReExports
        } else {
            EdgeKind::Imports
        };
        let target = t.import_targets[fi as usize][k].as_ref();
        let here = Endpoint::File(0);
        match target {
            Some(Entity::Files(files)) if !files.is_empty() => {
                let to = match lang {
                    Language::Go
                    | Language::Java
                    | Language::CSharp
                    | Language::Kotlin
                    | Language::Php
                    | Language::Scala => {
                        let tf = files[0];
                        if t.facts(tf).package.is_some() {
                            Endpoint::Package(em.path_index(tf))
                        } else {
                            em.file(tf)
                        }
                    }
                    _ => em.file(files[0]),
                };
                if to != here {
                    em.edge(here.clone(), to, kind, Origin::AstResolved, imp.line);
                }
                if matches!(imp.kind, ImportKind::Named | ImportKind::Default) {
                    if let Some((Entity::Sym(s), o)) = t.import_binding(fi, k, 0) {
                        let to = em.symbol(s);
                        em.edge(here, to, kind, o, imp.line);
                    }
                }
            }
            Some(Entity::Sym(s)) => {
                let to = em.symbol(*s);
                em.edge(here, to, kind, Origin::AstResolved, imp.line);
            }
            Some(Entity::External(m)) => em.out.external.push(ExternalEdge {
                from: here,
                target: m.clone(),
                stub: NodeKind::Module,
                kind,
                origin: Origin::AstResolved,
                line: imp.line,
            }),
            _ => em.unresolved(here, kind, format!("unresolved::import::{}", imp.module), imp.line, 0),
        }
    }
}

/// One reference's edge: resolved through the cascade, else an honest name-only match, else a
/// placeholder. A call from a test symbol to a non-test symbol also emits `tests`.
fn emit_reference(em: &mut Emitter<'_, '_>, fi: u32, r: &RefFact, file_test: bool) {
    let t = em.t;
    let file = &t.files[fi as usize];
    let facts = &file.facts;
    let lang = file.language;
    let own = |si: u32| Endpoint::Symbol(0, si);
    let from_sym = r.from.filter(|&f| (f as usize) < facts.symbols.len());
    let from = match (from_sym, &r.receiver) {
        // Swift's `extension T: P` conforms T, declared elsewhere, to P.
        (None, Receiver::Name(owner)) if r.kind == EdgeKind::Implements && lang == Language::Swift => {
            match t.resolve_type(fi, owner, 0) {
                Some((Entity::Sym(ty), _)) => em.symbol(ty),
                _ => Endpoint::File(0),
            }
        }
        _ => from_sym.map(own).unwrap_or(Endpoint::File(0)),
    };
    let from_test = match from_sym {
        Some(f) => facts.symbols[f as usize].test_role.is_some(),
        None => file_test,
    };
    let resolved = match r.kind {
        EdgeKind::Extends | EdgeKind::Implements | EdgeKind::TypedAs | EdgeKind::Returns => {
            t.resolve_type_ref(fi, r, 0)
        }
        _ => t.resolve_callee(fi, from_sym, &r.receiver, &r.name, 0),
    };
    let self_sym = from_sym.map(|f| (fi, f));
    // A language server's answer for this call site decides it (the cascade ran for the counts).
    if r.kind == EdgeKind::Calls && r.via.is_none() {
        if let Some(site) = file.semantic.as_ref().and_then(|s| s.at(r.line, r.col)) {
            // The calling function's own lines: a definition there that is no symbol is one of
            // its parameters or locals.
            let caller = Caller {
                from: &from,
                test: from_test,
                lines: from_sym.map(|f| (&*file.path, facts.symbols[f as usize].span)),
            };
            if emit_semantic(em, r, site, &resolved, &caller, lang) {
                return;
            }
        }
    }
    match resolved {
        Some((Entity::Sym(s), origin))
            if accepts(r.kind, t.sym(s).kind)
                && !(Some(s) == self_sym && matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements))
                // A framework calls or builds code, never a variable holding data.
                && (r.via.is_none() || t.sym(s).kind.is_callable() || t.sym(s).kind.is_type_like()) =>
        {
            // A call names the method where a field shares its name.
            let s = match r.kind {
                EdgeKind::Calls => t.callable_twin(s).unwrap_or(s),
                _ => s,
            };
            let kind = edge_kind(t, r.kind, s, lang);
            push_edge(em, from, from_test, s, kind, origin, r.line);
        }
        // A framework dispatch is synthesized only onto code of the repository the cascade
        // found: never onto a stub, never by a name-only guess, never as a placeholder.
        _ if r.via.is_some() => {}
        Some((Entity::External(path), origin)) => {
            let stub = match r.kind {
                EdgeKind::Calls => NodeKind::Function,
                EdgeKind::References => NodeKind::Variable,
                _ => NodeKind::Type,
            };
            em.out.external.push(ExternalEdge {
                from,
                target: path,
                stub,
                kind: r.kind,
                origin,
                line: r.line,
            });
        }
        _ => {
            // Name-only: an honest `text_matched` edge only when exactly one candidate exists.
            let member = !matches!(r.receiver, Receiver::None);
            if member && t.receiver_is_foreign(fi, from_sym, &r.receiver) {
                em.unresolved(from, r.kind, format!("unresolved::*.{}", r.name), r.line, 0);
                return;
            }
            // A member call binds by name to a method or function only: a field of that name
            // elsewhere (a Vue prop `push: Number`) says nothing about `list.push()`.
            // A bare JavaScript/TypeScript call never reaches a method (that takes `this.`): a
            // method of that name elsewhere is a namesake (a callback parameter's: `run(store)`).
            let bare_js = !member && lang.is_ecmascript();
            let want = |k: NodeKind| {
                accepts(r.kind, k)
                    && !(bare_js && k == NodeKind::Method)
                    && (!member
                        || match r.kind {
                            EdgeKind::Calls => matches!(k, NodeKind::Method | NodeKind::Function),
                            _ => matches!(k, NodeKind::Method | NodeKind::Field | NodeKind::Function),
                        })
            };
            // A Go method of another package is reached only through a type the resolver
            // follows (imports name every package); guessed by name across packages it was
            // mostly a standard-library type's (measured: 1 in 5 right, against 49 in 50 within
            // the caller's own package).
            // A bare Python call names what the file defines, imports or is handed (a parameter,
            // a pytest fixture, a builtin): guessed by name from elsewhere it was right under 1 in
            // 100; a class of the caller's own directory (a test module's models) mostly right.
            let same_dir = |s: Sym| dir_of(&t.files[s.0 as usize].path) == dir_of(&file.path);
            // A Python member call guessed by name (`obj.save()` onto the one `save` defined) was
            // right about 1 time in 10 on Django, 1 in 6 on requests, and under 1 in 4 even in the
            // caller's own file: untyped receivers are mostly the standard library's or an ORM's.
            // A class named through an unresolved module (`mod.Foo()`) is still guessed.
            // A bare Go call names its own package's function (resolved, not guessed), a builtin,
            // a local function value or a dot-import: guessed by name it was right 0 times in 47
            // on x/tools.
            // A JavaScript/TypeScript member call reaches a free function only through a
            // namespace or module object, named capitalised in practice (`BuilderState.update()`):
            // on a value (`sources.map()`, `s.split().reduce()`) the function namesake was right
            // 0 times in 13 on rxjs.
            let namespace_like = match &r.receiver {
                Receiver::Name(x) => x.starts_with(char::is_uppercase),
                Receiver::Path(p) => p.first().is_some_and(|x| x.starts_with(char::is_uppercase)),
                _ => false,
            };
            // A bare call never reaches a field either (that takes a receiver; Java's implicit
            // `this` is resolved, not guessed): measured right 0 times in 55 (x/tools, the
            // TypeScript compiler, rxjs). The field still counts as a candidate: a name both a
            // field and a function bear is ambiguous.
            // Likewise `fn.call(…)`, `xs.forEach(…)` on an untyped receiver: the runtime's
            // (rxjs: 1 in 9 guesses right).
            let prototype = member && lang.is_ecmascript() && ECMASCRIPT_PROTOTYPE_METHODS.contains(&r.name.as_str());
            let plausible = |s: Sym| match (lang, member) {
                _ if !member && r.kind == EdgeKind::Calls && t.sym(s).kind == NodeKind::Field => false,
                _ if prototype => false,
                (Language::Go, true) => same_dir(s),
                (Language::Go, false) => false,
                (l, true) if l.is_ecmascript() => t.sym(s).kind != NodeKind::Function || namespace_like,
                (Language::Python, true) => r.kind != EdgeKind::Calls || t.sym(s).kind.is_type_like(),
                (Language::Python, false) => same_dir(s) && t.sym(s).kind.is_type_like(),
                _ => true,
            };
            match t.name_only(fi, &r.name, want, self_sym) {
                NameOnly::One(s)
                    if (!matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements)
                        || t.sym(s).kind.is_type_like())
                        && plausible(s) =>
                {
                    push_edge(em, from, from_test, s, r.kind, Origin::TextMatched, r.line);
                }
                other => {
                    let candidates = match other {
                        NameOnly::Many(n) => n,
                        NameOnly::One(_) => 1,
                        NameOnly::None => 0,
                    };
                    let target = if member {
                        format!("unresolved::*.{}", r.name)
                    } else {
                        format!("unresolved::{}", r.name)
                    };
                    em.unresolved(from, r.kind, target, r.line, candidates);
                }
            }
        }
    }
}

/// A pytest fixture a test (or fixture) names as a parameter: the fixture pytest picks — one of
/// the file's own, else the nearest `conftest.py`'s up the directory tree. Nothing when none is
/// found (a builtin or a plugin's fixture): a synthesized edge is never a guess.
fn emit_fixture(em: &mut Emitter<'_, '_>, fi: u32, r: &RefFact) {
    let t = em.t;
    let Some(from) = r
        .from
        .filter(|&f| (f as usize) < t.files[fi as usize].facts.symbols.len())
    else {
        return;
    };
    if let Some(s) = t.pytest_fixture(fi, &r.name, (fi, from)) {
        let from = Endpoint::Symbol(0, from);
        push_edge(em, from, true, s, EdgeKind::Calls, Origin::AstInferred, r.line);
    }
}

/// The edge kind a reference of `kind` to symbol `s` makes: a call of a class instantiates it, a
/// call naming an interface (or, in Go, any type: a conversion) references it, a Swift supertype
/// that is a class is extended.
fn edge_kind(t: &Tables<'_>, kind: EdgeKind, s: Sym, lang: Language) -> EdgeKind {
    let target = t.sym(s);
    match (kind, target.kind) {
        // Go calls no type: `Meters(3)` converts (literals and `new` are the instantiations).
        (EdgeKind::Calls, k) if lang == Language::Go && k.is_type_like() => EdgeKind::References,
        (EdgeKind::Calls, NodeKind::Type)
            if !matches!(target.flavor, Some(TypeFlavor::TypeAlias) | Some(TypeFlavor::Enum)) =>
        {
            EdgeKind::Instantiates
        }
        (EdgeKind::Calls, NodeKind::Interface) => EdgeKind::References,
        // A Swift supertype list does not say which entry is the superclass: the class is.
        (EdgeKind::Implements, NodeKind::Type)
            if lang == Language::Swift && target.flavor == Some(TypeFlavor::Class) =>
        {
            EdgeKind::Extends
        }
        (k, _) => k,
    }
}

/// A call site a language server answered: its definition in the repository becomes the
/// `lsp_resolved` edge (counted against the cascade's `resolved`), a definition outside the
/// repository drops an in-repository guess for an external edge, one at a parameter or local of
/// the caller drops the guess, and implementations become
/// `lsp_dispatch` edges. Returns whether the site was decided (else the cascade's answer stands).
fn emit_semantic(
    em: &mut Emitter<'_, '_>,
    r: &RefFact,
    site: &SemanticSite,
    resolved: &Option<(Entity, Origin)>,
    caller: &Caller<'_>,
    lang: Language,
) -> bool {
    let t = em.t;
    let (from, from_test) = (caller.from, caller.test);
    let cascade = match resolved {
        Some((Entity::Sym(s), _)) => Some(*s),
        _ => None,
    };
    let found = |x: &SemanticTarget| {
        t.symbol_at(&x.path, x.line, &x.name)
            .filter(|&s| accepts(r.kind, t.sym(s).kind))
    };
    let target = site.targets.iter().find_map(found);
    let mut counts = SemanticCounts::default();
    let decided = match target {
        Some(s) => {
            match cascade {
                Some(c) if c == s => counts.confirmed += 1,
                Some(_) => counts.corrected += 1,
                None => counts.added += 1,
            }
            let kind = edge_kind(t, r.kind, s, lang);
            push_edge(em, from.clone(), from_test, s, kind, Origin::LspResolved, r.line);
            true
        }
        // Outside the repository (a library, the standard library): an in-repository guess of the
        // cascade is dropped, and no name-only guess is made after it.
        None if site.external && site.targets.is_empty() => {
            if cascade.is_some() {
                counts.dropped += 1;
            }
            em.out.external.push(ExternalEdge {
                from: from.clone(),
                target: r.name.clone(),
                stub: NodeKind::Function,
                kind: r.kind,
                origin: Origin::LspResolved,
                line: r.line,
            });
            true
        }
        // At a parameter or local of the calling function (inside its lines, at no symbol): no
        // symbol is the callee, so the cascade's guess is dropped and none is made by name.
        // (Definitions elsewhere without a symbol — an import binding, an overload signature —
        // leave the cascade's answer standing.)
        None if site
            .targets
            .iter()
            .any(|x| local_to(caller.lines, x) && t.symbol_at(&x.path, x.line, &x.name).is_none()) =>
        {
            if cascade.is_some() {
                counts.dropped += 1;
            }
            true
        }
        None => false,
    };
    for s in site.dispatch.iter().filter_map(found) {
        if Some(s) != target {
            counts.dispatch += 1;
            push_edge(
                em,
                from.clone(),
                from_test,
                s,
                EdgeKind::Calls,
                Origin::LspDispatch,
                r.line,
            );
        }
    }
    em.out.semantic.add(&counts);
    decided
}

/// The calling end of a call site a server answered.
struct Caller<'a> {
    from: &'a Endpoint,
    /// Whether the caller is test code (a call into non-test code gains a `tests` edge).
    test: bool,
    /// The caller's file and lines: a definition there that is no symbol is a parameter or local.
    lines: Option<(&'a str, Span)>,
}

/// Whether a server's target lies inside the calling function's lines.
fn local_to(caller: Option<(&str, Span)>, x: &SemanticTarget) -> bool {
    caller.is_some_and(|(path, span)| x.path == path && span.start_line <= x.line && x.line <= span.end_line)
}

/// An edge to symbol `to`, and a `tests` edge beside a call from test code to non-test code.
fn push_edge(
    em: &mut Emitter<'_, '_>,
    from: Endpoint,
    from_test: bool,
    to: Sym,
    kind: EdgeKind,
    origin: Origin,
    line: u32,
) {
    let to_test = em.t.sym(to).test_role.is_some();
    let to_ep = em.symbol(to);
    if matches!(kind, EdgeKind::Calls | EdgeKind::Instantiates) && from_test && !to_test {
        // The `tests` edge beside a synthesized call is no dispatch of its own.
        let via = em.via.take();
        em.edge(from.clone(), to_ep.clone(), EdgeKind::Tests, origin, line);
        em.via = via;
    }
    em.edge(from, to_ep, kind, origin, line);
}
