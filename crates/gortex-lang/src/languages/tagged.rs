//! The query-driven extractor: one engine for every language whose facts a query file can name,
//! with a small [`Dialect`] per language for what queries cannot say (visibility rules, how an
//! import is written, what a receiver expression means).
//!
//! Capture names follow the tree-sitter tags convention, extended:
//! - `@definition.<kind>` on a declaration node, with `@name` (the written name; `A::b` or `A.b`
//!   declares `b` as a method of `A`), optional `@body` (cut from the signature), `@type`
//!   (declared type) and `@return` (return type). Kinds: function, method, constructor, macro,
//!   class, struct, union, enum, record, interface, trait, type (alias), module, namespace,
//!   constant, variable, field, enum_member (enum_variant), operator (a function).
//! - `@reference.<kind>` on a use, with `@name` and optional `@receiver`. Kinds: call (function,
//!   send), new,
//!   type / class (any other mention of a type), typed (the declared type of a parameter,
//!   variable or member), returns (a return type), extends, implements.
//! - `@import` with `@import.module` and optional `@import.name` / `@import.alias`.
//! - `@package` on the file's package/namespace name.
//! - `@binding` with `@binding.name` and `@binding.type`: a local whose type is declared.
//!
//! Symbols are nested by containment; a function inside a type becomes a method; references and
//! bindings are attributed to the innermost enclosing symbol. Nothing recurses on tree depth.

use crate::util::{self, EnclosingIndex, Parents, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, DocComment, EdgeKind, FileFacts, ImportFact, Language, NodeKind, Receiver, RefFact,
    SymbolFact, TestRole, TypeFlavor,
};
use std::collections::HashSet;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor};

/// What a capture index means to the engine.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Def(NodeKind, Option<TypeFlavor>),
    Ref(EdgeKind),
    Import,
    Package,
    Binding,
    Name,
    Receiver,
    Body,
    Type,
    Return,
    ImportModule,
    ImportName,
    ImportAlias,
    BindingName,
    BindingType,
    /// `@ignore` (tags convention): the node is never a reference (Elixir's `def`, `defmodule`).
    Ignore,
    /// Captures the engine does not read (`@local.scope`, `@doc`, predicates' helpers).
    Other,
}

fn role_of(capture: &str) -> Role {
    use NodeKind as K;
    use TypeFlavor as F;
    if let Some(kind) = capture.strip_prefix("definition.") {
        return match kind {
            "function" | "macro" => Role::Def(K::Function, None),
            "method" | "constructor" => Role::Def(K::Method, None),
            "class" | "object" => Role::Def(K::Type, Some(F::Class)),
            "struct" => Role::Def(K::Type, Some(F::Struct)),
            "union" => Role::Def(K::Type, Some(F::Union)),
            "enum" => Role::Def(K::Type, Some(F::Enum)),
            "record" => Role::Def(K::Type, Some(F::Record)),
            "interface" | "trait" | "protocol" => Role::Def(K::Interface, None),
            "type" | "typedef" | "alias" => Role::Def(K::Type, Some(F::TypeAlias)),
            "module" | "namespace" => Role::Def(K::Module, None),
            "constant" => Role::Def(K::Constant, None),
            "variable" => Role::Def(K::Variable, None),
            "field" | "property" => Role::Def(K::Field, None),
            "enum_member" | "enum_variant" => Role::Def(K::EnumMember, None),
            "operator" => Role::Def(K::Function, None),
            _ => Role::Other,
        };
    }
    if let Some(kind) = capture.strip_prefix("reference.") {
        return match kind {
            "call" | "send" | "function" => Role::Ref(EdgeKind::Calls),
            "new" => Role::Ref(EdgeKind::Instantiates),
            "type" | "class" => Role::Ref(EdgeKind::References),
            "typed" => Role::Ref(EdgeKind::TypedAs),
            "returns" => Role::Ref(EdgeKind::Returns),
            "extends" => Role::Ref(EdgeKind::Extends),
            "implements" | "implementation" => Role::Ref(EdgeKind::Implements),
            _ => Role::Other,
        };
    }
    match capture {
        "import" => Role::Import,
        "package" => Role::Package,
        "binding" => Role::Binding,
        "name" => Role::Name,
        "receiver" => Role::Receiver,
        "body" => Role::Body,
        "type" => Role::Type,
        "return" => Role::Return,
        "import.module" => Role::ImportModule,
        "import.name" => Role::ImportName,
        "import.alias" => Role::ImportAlias,
        "binding.name" => Role::BindingName,
        "binding.type" => Role::BindingType,
        "ignore" => Role::Ignore,
        _ => Role::Other,
    }
}

/// The compiled queries of a dialect: `grammars/<dir>/{definitions,imports,references}.scm`
/// concatenated and compiled once per process.
#[allow(unused_macros)] // the generic tier alone uses none
macro_rules! tag_queries {
    ($grammar:expr, $dir:literal) => {{
        static Q: std::sync::OnceLock<$crate::languages::tagged::TagQueries> = std::sync::OnceLock::new();
        Q.get_or_init(|| {
            let source = [
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../grammars/",
                    $dir,
                    "/definitions.scm"
                )),
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../grammars/",
                    $dir,
                    "/imports.scm"
                )),
                include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../grammars/",
                    $dir,
                    "/references.scm"
                )),
            ]
            .join("\n");
            $crate::languages::tagged::TagQueries::new(&$grammar, &source, concat!($dir, "/*.scm"))
        })
    }};
}
#[allow(unused_imports)]
pub(crate) use tag_queries;

/// A compiled query with the role of every capture.
pub(crate) struct TagQueries {
    set: QuerySet,
    roles: Vec<Role>,
}

impl TagQueries {
    /// Compiles the concatenated query files of a language.
    pub(crate) fn new(grammar: &tree_sitter::Language, source: &str, file: &str) -> TagQueries {
        let set = QuerySet::new(grammar, source, file);
        let roles = set.query.capture_names().iter().map(|n| role_of(n)).collect();
        TagQueries { set, roles }
    }
}

/// One `@import` match, handed to the dialect to turn into facts.
pub(crate) struct ImportMatch<'t> {
    pub node: Node<'t>,
    pub module: Option<Node<'t>>,
    pub name: Option<Node<'t>>,
    pub alias: Option<Node<'t>>,
}

/// Per-language knowledge layered on the engine.
pub(crate) trait Dialect: Send + Sync + 'static {
    fn language(&self) -> Language;
    fn grammar(&self) -> tree_sitter::Language;
    /// The compiled queries (built once per process).
    fn queries(&self) -> &'static TagQueries;
    /// Separators of qualified names in this language, longest first.
    fn separators(&self) -> &'static [&'static str] {
        &["::", "."]
    }
    /// Names that mean the current instance (`this`, `self`).
    fn self_names(&self) -> &'static [&'static str] {
        &["this", "self"]
    }
    /// Names that mean the supertype (`super`, `base`).
    fn super_names(&self) -> &'static [&'static str] {
        &["super"]
    }
    /// The bytes to parse (see [`Extractor::prepare`]).
    fn prepare<'s>(&self, source: &'s [u8]) -> std::borrow::Cow<'s, [u8]> {
        std::borrow::Cow::Borrowed(source)
    }
    /// The doc summary of a raw comment block above a declaration.
    fn doc(&self, raw: &str) -> Option<DocComment> {
        util::doc_comment(raw)
    }
    /// The type name kept from a declared type's text (generics, pointers and qualifiers off).
    fn type_name(&self, text: &str) -> Option<String> {
        util::simple_type_name(text)
    }
    /// The name a definition is written under, when the name node's text is not it (C++ test
    /// macros: `TEST_F(Suite, Name)` defines `Suite::Name`).
    fn written_name(&self, _decl: Node<'_>, _name: Node<'_>, _src: &[u8]) -> Option<String> {
        None
    }
    /// Sets visibility, export and modifiers of a declaration from its node; `false` drops it
    /// (a local the query could not tell from a file-scope declaration).
    fn decorate<'t>(&self, _sym: &mut SymbolFact, _decl: Node<'t>, _src: &[u8], _parents: &Parents<'t>) -> bool {
        true
    }
    /// Turns an `@import` match into import facts.
    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let Some(module) = m.module else { return };
        let module = strip_quotes(&util::text(module, src)).to_string();
        let name = m.name.map(|n| util::text(n, src).into_owned());
        let alias = m.alias.map(|n| util::text(n, src).into_owned());
        let line = util::line(m.node);
        out.push(match name {
            Some(name) => {
                let local = alias.unwrap_or_else(|| name.clone());
                ImportFact::named(module, name, local, line)
            }
            None => ImportFact::module(module, alias, line),
        });
    }
    /// Whether a typed name outside every function is a binding. Off where file-scope typed
    /// declarations are symbols already (C, C++) and parameters of prototypes are not names.
    fn file_scope_bindings(&self) -> bool {
        true
    }
    /// The package of a file that declares none, from its path (Swift names modules by layout).
    fn path_package(&self, _ctx: &FileContext<'_>) -> Option<String> {
        None
    }
    /// Normalises the `@package` text.
    fn package(&self, text: &str) -> Option<String> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        (!t.is_empty()).then_some(t)
    }
    /// The edge kind of a use, given its name (C# tells `IName` interfaces from base classes).
    fn ref_kind(&self, kind: EdgeKind, _name: &str) -> EdgeKind {
        kind
    }
    /// Whether a definition in a test file is a test.
    fn test_role(&self, sym: &SymbolFact, ctx: &FileContext<'_>) -> Option<TestRole> {
        (ctx.is_test_file && sym.kind.is_callable() && sym.name.to_ascii_lowercase().starts_with("test"))
            .then_some(TestRole::Test)
    }
}

#[cfg(any(feature = "csharp", feature = "kotlin", feature = "swift"))]
/// The test role a callable's decorators give it: one of `tests` → test, one of `fixtures` →
/// fixture (for languages whose test frameworks mark tests with attributes or annotations).
pub(crate) fn role_from_decorators(sym: &SymbolFact, tests: &[&str], fixtures: &[&str]) -> Option<TestRole> {
    if !sym.kind.is_callable() {
        return None;
    }
    if sym.decorators.iter().any(|d| tests.contains(&d.as_str())) {
        Some(TestRole::Test)
    } else if sym.decorators.iter().any(|d| fixtures.contains(&d.as_str())) {
        Some(TestRole::Fixture)
    } else {
        None
    }
}

#[cfg(any(feature = "kotlin", feature = "php", feature = "scala"))]
/// Visibility where members are public unless a modifier says otherwise (`private`, `protected`,
/// Kotlin's `internal`): sets the symbol's visibility and whether it is exported.
pub(crate) fn keyword_visibility(sym: &mut SymbolFact, has: impl Fn(&str) -> bool) {
    let visibility = if has("private") {
        gortex_core::Visibility::Private
    } else if has("protected") {
        gortex_core::Visibility::Protected
    } else if has("internal") {
        gortex_core::Visibility::Package
    } else {
        gortex_core::Visibility::Public
    };
    sym.visibility = Some(visibility);
    sym.exported = visibility == gortex_core::Visibility::Public;
}

#[cfg(any(feature = "kotlin", feature = "scala", feature = "swift"))]
/// The name an annotation or attribute is written with (`@a.b.Name(args)` → `Name`): its last
/// segment, arguments and type arguments off.
pub(crate) fn annotation_name(text: &str) -> String {
    let name = text.trim().trim_start_matches('@');
    let name = name.split(['(', '<', '[']).next().unwrap_or(name).trim();
    name.rsplit('.').next().unwrap_or(name).to_string()
}

/// Strips one pair of surrounding quotes or angle brackets' quotes (`"x"`, `'x'`).
pub(crate) fn strip_quotes(text: &str) -> &str {
    let t = text.trim();
    for (a, b) in [('"', '"'), ('\'', '\''), ('`', '`')] {
        if t.len() >= 2 && t.starts_with(a) && t.ends_with(b) {
            return &t[1..t.len() - 1];
        }
    }
    t
}

/// An extractor running the engine for one dialect.
pub(crate) struct Tagged<D: Dialect>(pub D);

impl<D: Dialect> Extractor for Tagged<D> {
    fn language(&self) -> Language {
        self.0.language()
    }

    fn grammar(&self) -> tree_sitter::Language {
        self.0.grammar()
    }

    fn compile_queries(&self) {
        self.0.queries();
    }

    fn extract(&self, tree: &tree_sitter::Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        extract(&self.0, tree, source, ctx)
    }

    fn prepare<'s>(&self, source: &'s [u8]) -> std::borrow::Cow<'s, [u8]> {
        self.0.prepare(source)
    }
}

/// Splits a written name at the last separator: `A::B::f` → (`[A, B]`, `f`). Template and
/// generic arguments are dropped first (`a::B<c::D>::f` → `[a, B]`, `f`).
fn split_qualified(written: &str, separators: &[&str]) -> (Vec<String>, String) {
    let plain = drop_type_arguments(written);
    let written = plain.as_str();
    let mut best: Option<(usize, usize)> = None;
    for sep in separators {
        if let Some(i) = written.rfind(sep) {
            if best.is_none_or(|(b, _)| i > b) {
                best = Some((i, sep.len()));
            }
        }
    }
    match best {
        Some((i, len)) if i + len < written.len() => {
            let owner = &written[..i];
            let mut segs = vec![owner.to_string()];
            for sep in separators {
                segs = segs
                    .iter()
                    .flat_map(|s| s.split(sep).map(str::to_string).collect::<Vec<_>>())
                    .collect();
            }
            segs.retain(|s| !s.trim().is_empty());
            let segs = segs.into_iter().map(|s| s.trim().to_string()).collect();
            (segs, written[i + len..].trim().to_string())
        }
        _ => (Vec::new(), written.trim().to_string()),
    }
}

/// Removes balanced `<…>` argument lists, except in operator names (`operator<`).
fn drop_type_arguments(written: &str) -> String {
    if !written.contains('<') || written.contains("operator") {
        return written.to_string();
    }
    let mut out = String::with_capacity(written.len());
    let mut depth = 0u32;
    for ch in written.chars() {
        match ch {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// What a receiver expression's text denotes.
fn receiver_of<D: Dialect>(d: &D, text: &str) -> Receiver {
    let t = text.trim();
    if t.is_empty() {
        return Receiver::None;
    }
    if d.self_names().contains(&t) {
        return Receiver::SelfRef;
    }
    if d.super_names().contains(&t) {
        return Receiver::Super;
    }
    if is_identifier(t) {
        return Receiver::Name(t.to_string());
    }
    // A chain of identifiers (`a.b`, `a->b`, `ns::x`).
    let mut segs = vec![t.to_string()];
    for sep in d.separators().iter().chain(["->"].iter()) {
        segs = segs
            .iter()
            .flat_map(|s| s.split(sep).map(|p| p.trim().to_string()).collect::<Vec<_>>())
            .collect();
    }
    if segs.len() > 1 && segs.iter().all(|s| is_identifier(s)) {
        if d.self_names().contains(&segs[0].as_str()) {
            return if segs.len() == 2 {
                Receiver::SelfField(segs[1].clone())
            } else {
                Receiver::Expr
            };
        }
        return Receiver::Path(segs);
    }
    if let Some(callee) = t
        .strip_suffix(')')
        .and_then(|s| s.split_once('('))
        .map(|(c, _)| c.trim())
    {
        if is_identifier(callee) {
            return Receiver::Call(callee.to_string());
        }
    }
    Receiver::Expr
}

/// Runs the dialect's queries over a tree and assembles the file's facts.
pub(crate) fn extract<D: Dialect>(d: &D, tree: &tree_sitter::Tree, src: &[u8], ctx: &FileContext<'_>) -> FileFacts {
    let q = d.queries();
    let parents = Parents::new(tree);
    let mut facts = FileFacts::default();
    let mut seen_defs: HashSet<(usize, u32)> = HashSet::new();
    // (written owner path, symbol) in query order; owners become detached-method type names.
    let mut symbols: Vec<SymbolFact> = Vec::new();
    // Per symbol: declared away from its type (`void Foo::bar() {…}`).
    let mut detached: Vec<bool> = Vec::new();
    // Uses: (kind, name node, receiver, position node), attributed once symbols are nested.
    struct Use {
        kind: EdgeKind,
        name: String,
        receiver: Receiver,
        line: u32,
        col: u32,
        /// The name node, so a use whose name is a definition's or an `@ignore`d node is dropped.
        node: usize,
    }
    let mut uses: Vec<Use> = Vec::new();
    // Name nodes of definitions and `@ignore`d nodes: as in tree-sitter's tags, never references.
    let mut not_uses: HashSet<usize> = HashSet::new();
    let mut bindings: Vec<(String, String, u32, u32)> = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = crate::budget::matches(&mut cursor, &q.set.query, tree.root_node(), src);
    while let Some(m) = matches.next() {
        let mut role_node: Option<(Role, Node<'_>)> = None;
        let (mut name, mut receiver, mut body, mut ty, mut ret) = (None, None, None, None, None);
        let (mut module, mut imp_name, mut alias, mut b_name, mut b_type) = (None, None, None, None, None);
        for cap in m.captures {
            let role = q.roles[cap.index as usize];
            match role {
                Role::Def(..) | Role::Ref(_) | Role::Import | Role::Package | Role::Binding => {
                    role_node = Some((role, cap.node))
                }
                Role::Name => name = Some(cap.node),
                Role::Receiver => receiver = Some(cap.node),
                Role::Body => body = Some(cap.node),
                Role::Type => ty = Some(cap.node),
                Role::Return => ret = Some(cap.node),
                Role::ImportModule => module = Some(cap.node),
                Role::ImportName => imp_name = Some(cap.node),
                Role::ImportAlias => alias = Some(cap.node),
                Role::BindingName => b_name = Some(cap.node),
                Role::BindingType => b_type = Some(cap.node),
                Role::Ignore => {
                    not_uses.insert(cap.node.id());
                }
                Role::Other => {}
            }
        }
        let Some((role, node)) = role_node else { continue };
        match role {
            Role::Def(kind, flavor) => {
                let Some(name_node) = name else { continue };
                if !seen_defs.insert((node.id(), name_node.start_byte() as u32)) {
                    continue;
                }
                not_uses.insert(name_node.id());
                let written = d
                    .written_name(node, name_node, src)
                    .unwrap_or_else(|| util::text(name_node, src).into_owned());
                let (owner, simple) = split_qualified(&written, d.separators());
                if simple.is_empty() {
                    continue;
                }
                let mut sym = SymbolFact::new(simple, kind, util::span(node));
                sym.flavor = flavor;
                sym.signature = Some(util::signature(node, body, src));
                sym.set_doc(
                    parents
                        .leading_comment(node, src, is_comment)
                        .and_then(|raw| d.doc(&raw)),
                );
                if let Some(t) = ty {
                    sym.type_name = d.type_name(&util::text(t, src));
                }
                if let Some(r) = ret {
                    sym.return_type = d.type_name(&util::text(r, src));
                }
                sym.exported = true;
                if let Some(owner) = owner.last() {
                    if matches!(kind, NodeKind::Function | NodeKind::Method) {
                        // `void Foo::bar() {…}`: a method of `Foo` declared away from it.
                        sym.kind = NodeKind::Method;
                        sym.type_name = Some(owner.clone());
                    }
                }
                if d.decorate(&mut sym, node, src, &parents) {
                    detached.push(!owner.is_empty() && sym.kind == NodeKind::Method);
                    symbols.push(sym);
                }
            }
            Role::Ref(kind) => {
                let Some(name_node) = name else { continue };
                let written = util::text(name_node, src);
                let (path, simple) = split_qualified(&written, d.separators());
                if simple.is_empty() || !simple.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
                    continue;
                }
                let receiver = match receiver {
                    Some(r) => receiver_of(d, &util::text(r, src)),
                    None if path.len() == 1 => receiver_of(d, &path[0]),
                    None if path.len() > 1 => Receiver::Path(path),
                    None => Receiver::None,
                };
                let p = name_node.start_position();
                uses.push(Use {
                    kind: d.ref_kind(kind, &simple),
                    name: simple,
                    receiver,
                    line: p.row as u32 + 1,
                    col: p.column as u32,
                    node: name_node.id(),
                });
            }
            Role::Import => {
                let m = ImportMatch {
                    node,
                    module,
                    name: imp_name,
                    alias,
                };
                d.imports(&m, src, &mut facts.imports);
            }
            // The first package declaration wins.
            Role::Package if facts.package.is_none() => {
                facts.package = d.package(&util::text(node, src));
            }
            Role::Binding => {
                let (Some(n), Some(t)) = (b_name, b_type) else { continue };
                let Some(ty) = d.type_name(&util::text(t, src)) else {
                    continue;
                };
                let name = util::text(n, src).into_owned();
                if is_identifier(&name) {
                    let p = n.start_position();
                    bindings.push((name, ty, p.row as u32 + 1, p.column as u32));
                }
            }
            _ => {}
        }
    }
    let order = util::nest_symbols(&mut symbols);
    let mut is_detached = vec![false; symbols.len()];
    for (old, new) in order.into_iter().enumerate() {
        is_detached[new as usize] = detached[old];
    }
    for i in 0..symbols.len() {
        // A detached method belongs to its type (joined by the resolver through `type_name`),
        // not to the namespace block it is written in.
        if is_detached[i]
            && symbols[i]
                .parent
                .is_none_or(|p| symbols[p as usize].kind == NodeKind::Module)
        {
            symbols[i].parent = None;
        }
    }
    // A function declared inside a type is its method.
    for i in 0..symbols.len() {
        if symbols[i].kind == NodeKind::Function {
            if let Some(p) = symbols[i].parent {
                if symbols[p as usize].kind.is_type_like() {
                    symbols[i].kind = NodeKind::Method;
                }
            }
        }
    }
    for s in symbols.iter_mut() {
        s.test_role = d.test_role(s, ctx);
    }
    let enclosing = EnclosingIndex::new(&symbols, EnclosingIndex::code_owners);
    for u in uses.into_iter().filter(|u| !not_uses.contains(&u.node)) {
        let from = enclosing.find(u.line, u.col);
        facts.refs.push(RefFact {
            kind: u.kind,
            from,
            name: u.name,
            receiver: u.receiver,
            line: u.line,
            col: u.col,
            via: None,
        });
    }
    let callables = EnclosingIndex::new(&symbols, |k| k.is_callable());
    for (name, ty, line, col) in bindings {
        let scope = callables.find(line, col);
        if scope.is_none() && !d.file_scope_bindings() {
            continue;
        }
        facts.bindings.push(BindingFact {
            scope,
            name,
            value: BindingValue::Type { name: ty },
            line,
        });
    }
    // A field declared inside a callable (a PHP promoted constructor parameter) is a member of
    // the callable's type. Done last: uses are attributed by walking parents from the symbol
    // that starts before them, which needs containment parents.
    for i in 0..symbols.len() {
        if symbols[i].kind == NodeKind::Field {
            if let Some(p) = symbols[i].parent {
                let owner = &symbols[p as usize];
                if owner.kind.is_callable() && owner.parent.is_some_and(|g| symbols[g as usize].kind.is_type_like()) {
                    symbols[i].parent = owner.parent;
                }
            }
        }
    }
    facts.symbols = symbols;
    if facts.package.is_none() {
        facts.package = d.path_package(ctx);
    }
    facts
}

/// Every grammar the engine serves names comments `comment`, `line_comment` or `block_comment`.
fn is_comment(kind: &str) -> bool {
    kind.contains("comment")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_split_at_the_last_separator() {
        let seps: &[&str] = &["::", "."];
        assert_eq!(split_qualified("f", seps), (vec![], "f".to_string()));
        assert_eq!(split_qualified("A::f", seps), (vec!["A".to_string()], "f".to_string()));
        assert_eq!(
            split_qualified("ns::A<T>::f", seps),
            (vec!["ns".to_string(), "A".to_string()], "f".to_string())
        );
        assert_eq!(
            split_qualified("a::B<c::D>::f", seps),
            (vec!["a".to_string(), "B".to_string()], "f".to_string())
        );
        assert_eq!(split_qualified("std::vector<int>", seps).1, "vector");
        assert_eq!(split_qualified("operator<", seps).1, "operator<");
        assert_eq!(split_qualified("a.b.c", seps).0, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(split_qualified("::f", seps), (vec![], "f".to_string()));
    }
}
