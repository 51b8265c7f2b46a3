//! Java extractor: queries in `grammars/java/`, post-processing here.
//!
//! One query pass (definitions + imports + references compiled together) collects nodes; the
//! Rust code builds symbols, nests them by containment, and attributes refs and bindings.
//! Nothing here recurses on tree depth: type contexts are found by bounded `parent()` walks
//! through type nodes, receiver chains by loops.

use super::grammar_query;
use crate::util::Parents;
use crate::util::{self, EnclosingIndex, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, DocComment, EdgeKind, FileFacts, ImportFact, Language, NodeKind, Receiver, RefFact,
    SymbolFact, TestRole, TestRunner, TypeFlavor, Visibility,
};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor};

struct JavaExtractor;

struct Caps {
    package: u32,
    class: u32,
    interface: u32,
    enum_def: u32,
    record: u32,
    annotation_type: u32,
    enum_constant: u32,
    component: u32,
    method: u32,
    element: u32,
    constructor: u32,
    field: u32,
    import: u32,
    call: u32,
    ctor_call: u32,
    new: u32,
    method_ref: u32,
    type_ref: u32,
    annotation: u32,
    param: u32,
    local: u32,
    foreach: u32,
    resource: u32,
    assign: u32,
}

struct Queries {
    set: QuerySet,
    caps: Caps,
}

fn grammar() -> tree_sitter::Language {
    tree_sitter_java::LANGUAGE.into()
}

fn queries() -> &'static Queries {
    static Q: OnceLock<Queries> = OnceLock::new();
    Q.get_or_init(|| {
        let source = [
            grammar_query!("java/definitions.scm"),
            grammar_query!("java/imports.scm"),
            grammar_query!("java/references.scm"),
        ]
        .join("\n");
        let set = QuerySet::new(&grammar(), &source, "java/*.scm");
        let c = |n: &str| set.capture(n).unwrap_or(u32::MAX);
        let caps = Caps {
            package: c("package.name"),
            class: c("class.def"),
            interface: c("interface.def"),
            enum_def: c("enum.def"),
            record: c("record.def"),
            annotation_type: c("annotation_type.def"),
            enum_constant: c("enum_constant.def"),
            component: c("component.def"),
            method: c("method.def"),
            element: c("element.def"),
            constructor: c("constructor.def"),
            field: c("field.def"),
            import: c("import.def"),
            call: c("call"),
            ctor_call: c("ctor_call"),
            new: c("new"),
            method_ref: c("method_ref"),
            type_ref: c("type.ref"),
            annotation: c("annotation"),
            param: c("param"),
            local: c("local"),
            foreach: c("foreach"),
            resource: c("resource"),
            assign: c("assign"),
        };
        Queries { set, caps }
    })
}

/// `java.lang` basics and `var`: never reported as type refs (primitives are not `type_identifier`s).
fn is_basic_type(name: &str) -> bool {
    matches!(
        name,
        "var"
            | "String"
            | "Object"
            | "Integer"
            | "Long"
            | "Short"
            | "Byte"
            | "Double"
            | "Float"
            | "Boolean"
            | "Character"
            | "Void"
            | "Number"
    )
}

fn is_primitive(name: &str) -> bool {
    matches!(
        name,
        "void" | "int" | "long" | "short" | "byte" | "double" | "float" | "boolean" | "char"
    )
}

/// Annotations from `java.lang` that name nothing in the project.
fn is_lang_annotation(name: &str) -> bool {
    matches!(
        name,
        "Override" | "Deprecated" | "SuppressWarnings" | "FunctionalInterface" | "SafeVarargs"
    )
}

fn is_comment(kind: &str) -> bool {
    kind == "block_comment" || kind == "line_comment"
}

fn txt(node: Node<'_>, src: &[u8]) -> String {
    util::text(node, src).into_owned()
}

/// The last segment of a dotted name: `a.b.Test` → `Test`.
fn last_segment(s: &str) -> String {
    s.rsplit('.').next().unwrap_or(s).trim().to_string()
}

fn collapse_dots(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Modifiers of a declaration: keywords and annotation names.
#[derive(Default)]
struct Modifiers {
    visibility: Option<Visibility>,
    is_static: bool,
    is_abstract: bool,
    is_default: bool,
    annotations: Vec<String>,
}

fn modifiers(decl: Node<'_>, src: &[u8]) -> Modifiers {
    let mut m = Modifiers::default();
    let mut cur = decl.walk();
    let Some(mods) = decl.children(&mut cur).find(|c| c.kind() == "modifiers") else {
        return m;
    };
    let mut c2 = mods.walk();
    for child in mods.children(&mut c2) {
        match child.kind() {
            "public" => m.visibility = Some(Visibility::Public),
            "protected" => m.visibility = Some(Visibility::Protected),
            "private" => m.visibility = Some(Visibility::Private),
            "static" => m.is_static = true,
            "abstract" => m.is_abstract = true,
            "default" => m.is_default = true,
            "marker_annotation" | "annotation" => {
                if let Some(n) = child.child_by_field_name("name") {
                    m.annotations.push(last_segment(&util::text(n, src)));
                }
            }
            _ => {}
        }
    }
    m
}

/// The kind of body a member is declared in.
fn container_kind<'t>(decl: Node<'t>, parents: &Parents<'t>) -> Option<&'static str> {
    let body = parents.parent(decl)?;
    match body.kind() {
        "interface_body" => Some("interface"),
        "annotation_type_body" => Some("annotation"),
        "enum_body_declarations" => Some("enum"),
        "class_body" => match parents.parent(body).map(|p| p.kind()) {
            Some("object_creation_expression") | Some("enum_constant") => Some("anonymous"),
            Some("record_declaration") => Some("record"),
            _ => Some("class"),
        },
        _ => None,
    }
}

/// Head name and qualifier of a type expression: `Foo`, `a.b.Foo<T>`, `Foo[]`.
fn type_head<'t>(mut node: Node<'t>, src: &[u8]) -> Option<(String, Receiver, Node<'t>)> {
    for _ in 0..64 {
        match node.kind() {
            "type_identifier" => return Some((txt(node, src), Receiver::None, node)),
            "generic_type" | "annotated_type" => {
                let mut cur = node.walk();
                node = node
                    .named_children(&mut cur)
                    .find(|c| matches!(c.kind(), "type_identifier" | "scoped_type_identifier" | "generic_type"))?;
            }
            "array_type" => node = node.child_by_field_name("element")?,
            "scoped_type_identifier" => {
                let count = node.named_child_count();
                let last = node.named_child(u32::try_from(count.checked_sub(1)?).ok()?)?;
                if last.kind() != "type_identifier" {
                    return None;
                }
                return Some((txt(last, src), qualifier_receiver(node, last, src), last));
            }
            _ => return None,
        }
    }
    None
}

/// The receiver for a qualified type: `a.b.Foo` → Path([a, b]), `Outer.Inner` → Name(Outer).
fn qualifier_receiver(scoped: Node<'_>, last: Node<'_>, src: &[u8]) -> Receiver {
    let end = last.start_byte().min(src.len());
    let start = scoped.start_byte().min(end);
    let qual = collapse_dots(&String::from_utf8_lossy(&src[start..end]));
    let qual = qual.trim_end_matches('.');
    if qual.is_empty() || qual.contains(['<', '@', '>']) {
        return Receiver::Expr;
    }
    let parts: Vec<String> = qual.split('.').map(str::to_string).collect();
    if parts.len() == 1 {
        Receiver::Name(parts.into_iter().next().unwrap_or_default())
    } else {
        Receiver::Path(parts)
    }
}

/// What a member access was made on.
fn receiver_of(object: Node<'_>, src: &[u8]) -> Receiver {
    receiver_at(object, src, 0)
}

/// `receiver_of`, `depth` calls deep into a chain (`a.b().c().d()`); deeper chains are unknown.
fn receiver_at(object: Node<'_>, src: &[u8], depth: u32) -> Receiver {
    match object.kind() {
        "this" => Receiver::SelfRef,
        "super" => Receiver::Super,
        "identifier" => Receiver::Name(txt(object, src)),
        "field_access" => {
            let mut chain = Vec::new();
            let mut cur = object;
            for _ in 0..10_000 {
                if cur.kind() != "field_access" {
                    break;
                }
                match cur.child_by_field_name("field") {
                    Some(f) if f.kind() == "identifier" => chain.push(txt(f, src)),
                    _ => return Receiver::Expr,
                }
                match cur.child_by_field_name("object") {
                    Some(o) => cur = o,
                    None => return Receiver::Expr,
                }
            }
            chain.reverse();
            match cur.kind() {
                "this" if chain.len() == 1 => Receiver::SelfField(chain.pop().unwrap_or_default()),
                "identifier" => {
                    let mut path = vec![txt(cur, src)];
                    path.extend(chain);
                    Receiver::Path(path)
                }
                _ => Receiver::Expr,
            }
        }
        "method_invocation" => match (object.child_by_field_name("name"), object.child_by_field_name("object")) {
            (Some(n), None) => Receiver::Call(txt(n, src)),
            (Some(n), Some(o)) if depth < util::MAX_CHAIN => match receiver_at(o, src, depth + 1) {
                Receiver::Expr => Receiver::Expr,
                inner => Receiver::Chain(Box::new(inner), txt(n, src)),
            },
            _ => Receiver::Expr,
        },
        // `new Store().get()`: an instance of what calling `Store` constructs.
        "object_creation_expression" => {
            let ty = object.child_by_field_name("type");
            let ty = match ty {
                Some(g) if g.kind() == "generic_type" => g.named_child(0),
                other => other,
            };
            match ty {
                Some(t) if t.kind() == "type_identifier" => Receiver::Call(txt(t, src)),
                _ => Receiver::Expr,
            }
        }
        // `((ParameterizedType) t).getRawType()`: an instance of the type cast to, as above.
        "parenthesized_expression" => match object.named_child(0) {
            Some(cast) if object.named_child_count() == 1 && cast.kind() == "cast_expression" => {
                match cast.child_by_field_name("type").and_then(|t| type_head(t, src)) {
                    Some((name, _, _)) => Receiver::Call(name),
                    None => Receiver::Expr,
                }
            }
            _ => Receiver::Expr,
        },
        _ => Receiver::Expr,
    }
}

/// Type evidence carried by an initialiser or assigned value.
fn value_binding(value: Node<'_>, src: &[u8]) -> Option<BindingValue> {
    match value.kind() {
        "object_creation_expression" => {
            let (name, _, _) = type_head(value.child_by_field_name("type")?, src)?;
            Some(BindingValue::Type { name })
        }
        "method_invocation" => {
            let name = txt(value.child_by_field_name("name")?, src);
            let receiver = match value.child_by_field_name("object") {
                Some(o) => receiver_of(o, src),
                None => Receiver::None,
            };
            Some(BindingValue::Call { receiver, name })
        }
        "cast_expression" => {
            let (name, _, _) = type_head(value.child_by_field_name("type")?, src)?;
            Some(BindingValue::Type { name })
        }
        _ => None,
    }
}

/// Scopes that declare type parameters: (start byte, end byte, names).
/// A declared type parameter: its name and its first bound's head.
type TypeParam = (String, Option<String>);

/// Scopes that declare type parameters: (start byte, end byte, parameters).
struct Generics {
    scopes: Vec<(usize, usize, Vec<TypeParam>)>,
}

impl Generics {
    fn declares(&self, byte: usize, name: &str) -> bool {
        self.param(byte, name).is_some()
    }

    /// The innermost type parameter `name` in scope at `byte`, with its first bound
    /// (`T extends Number & Comparable<T>` → `Number`).
    fn param(&self, byte: usize, name: &str) -> Option<&Option<String>> {
        // Scopes nest and are added outer first: the last one holding `byte` that declares it.
        self.scopes
            .iter()
            .rev()
            .filter(|(s, e, _)| byte >= *s && byte < *e)
            .find_map(|(.., params)| params.iter().find(|(n, _)| n == name).map(|(_, b)| b))
    }

    fn add(&mut self, decl: Node<'_>, src: &[u8]) {
        let Some(tp) = decl.child_by_field_name("type_parameters") else {
            return;
        };
        let mut params = Vec::new();
        let mut cur = tp.walk();
        for p in tp.named_children(&mut cur) {
            let mut c2 = p.walk();
            let kids: Vec<Node<'_>> = p.named_children(&mut c2).collect();
            let Some(id) = kids.iter().find(|c| c.kind() == "type_identifier") else {
                continue;
            };
            let bound = kids.iter().find(|c| c.kind() == "type_bound").and_then(|b| {
                let mut c3 = b.walk();
                let first = b.named_children(&mut c3).next()?;
                type_head(first, src).map(|(n, ..)| n)
            });
            params.push((txt(*id, src), bound));
        }
        self.scopes.push((decl.start_byte(), decl.end_byte(), params));
    }
}

/// A declared type usable as binding evidence: named, not primitive; a type parameter stands
/// for its first bound (`T extends RealFieldElement<T>`: a `T` has RealFieldElement's methods),
/// and is no evidence without one.
fn declared_type(ty: Node<'_>, src: &[u8], generics: &Generics) -> Option<String> {
    let (name, _, node) = type_head(ty, src)?;
    if name == "var" || is_primitive(&name) {
        return None;
    }
    match generics.param(node.start_byte(), &name) {
        Some(bound) => bound.clone(),
        None => Some(name),
    }
}

struct PendingRef {
    kind: EdgeKind,
    name: String,
    receiver: Receiver,
    line: u32,
    col: u32,
}

struct PendingBinding {
    name: String,
    value: BindingValue,
    line: u32,
    col: u32,
}

struct Ctx<'a, 't> {
    src: &'a [u8],
    parents: &'a Parents<'t>,
    symbols: Vec<SymbolFact>,
    refs: Vec<PendingRef>,
    bindings: Vec<PendingBinding>,
    imports: Vec<ImportFact>,
    generics: Generics,
    has_tests: bool,
}

impl<'a, 't> Ctx<'a, 't> {
    /// Leading Javadoc (or other comment block) summary. Annotations live inside the
    /// declaration, so the comment is the declaration's previous sibling.
    fn doc(&self, node: Node<'t>) -> Option<DocComment> {
        self.parents
            .leading_comment(node, self.src, is_comment)
            .and_then(|raw| util::doc_comment(&raw))
    }

    fn add_ref(&mut self, kind: EdgeKind, name: String, receiver: Receiver, at: Node<'t>) {
        let p = at.start_position();
        self.refs.push(PendingRef {
            kind,
            name,
            receiver,
            line: p.row as u32 + 1,
            col: p.column as u32,
        });
    }

    fn add_binding(&mut self, name: String, value: BindingValue, at: Node<'t>) {
        if name.is_empty() || name == "_" {
            return;
        }
        let p = at.start_position();
        self.bindings.push(PendingBinding {
            name,
            value,
            line: p.row as u32 + 1,
            col: p.column as u32,
        });
    }

    fn base_symbol(
        &self,
        decl: Node<'t>,
        name: String,
        kind: NodeKind,
        mods: &Modifiers,
        in_interface: bool,
    ) -> SymbolFact {
        let mut sym = SymbolFact::new(name, kind, util::span(decl));
        let vis = mods.visibility.unwrap_or(if in_interface {
            Visibility::Public
        } else {
            Visibility::Package
        });
        sym.visibility = Some(vis);
        sym.exported = vis == Visibility::Public;
        sym.is_static = mods.is_static;
        sym.is_abstract = mods.is_abstract;
        sym.decorators = mods.annotations.clone();
        sym.set_doc(self.doc(decl));
        sym
    }

    fn type_decl(&mut self, decl: Node<'t>, kind: NodeKind, flavor: Option<TypeFlavor>) {
        let src = self.src;
        let Some(name) = decl.child_by_field_name("name") else {
            return;
        };
        let mods = modifiers(decl, src);
        let in_interface = matches!(
            container_kind(decl, self.parents),
            Some("interface") | Some("annotation")
        );
        let mut sym = self.base_symbol(decl, txt(name, src), kind, &mods, in_interface);
        sym.flavor = flavor;
        sym.signature = Some(util::signature(decl, decl.child_by_field_name("body"), src));
        if kind == NodeKind::Interface {
            sym.is_abstract = true;
        }
        // Nested enums, records and interfaces are implicitly static.
        if container_kind(decl, self.parents).is_some()
            && (kind == NodeKind::Interface || flavor != Some(TypeFlavor::Class))
        {
            sym.is_static = true;
        }
        self.generics.add(decl, src);
        self.symbols.push(sym);
    }

    fn callable(&mut self, decl: Node<'t>, is_constructor: bool) {
        let src = self.src;
        let container = container_kind(decl, self.parents);
        if container == Some("anonymous") {
            return; // members of anonymous classes are attributed to the enclosing method
        }
        let Some(name) = decl.child_by_field_name("name") else {
            return;
        };
        let mods = modifiers(decl, src);
        let in_interface = matches!(container, Some("interface") | Some("annotation"));
        let mut sym = self.base_symbol(decl, txt(name, src), NodeKind::Method, &mods, in_interface);
        let body = decl.child_by_field_name("body");
        sym.signature = Some(util::signature(decl, body, src));
        if in_interface && body.is_none() && !mods.is_static && !mods.is_default {
            sym.is_abstract = true;
        }
        // The method's own type parameters first: `<T extends X> T f()` returns an X.
        self.generics.add(decl, src);
        if !is_constructor {
            sym.return_type = decl
                .child_by_field_name("type")
                .and_then(|t| self.type_name_of(t))
                .filter(|t| t != "void");
        }
        sym.test_role = test_role(&mods.annotations);
        if sym.test_role.is_some() {
            self.has_tests = true;
        }
        self.symbols.push(sym);
    }

    fn field(&mut self, decl: Node<'t>) {
        let src = self.src;
        let container = container_kind(decl, self.parents);
        if container == Some("anonymous") {
            return;
        }
        let in_interface = matches!(container, Some("interface") | Some("annotation"));
        let mut mods = modifiers(decl, src);
        if in_interface {
            mods.is_static = true; // interface constants are implicitly `public static final`
        }
        let type_name = decl.child_by_field_name("type").and_then(|t| self.type_name_of(t));
        let body = {
            let mut cur = decl.walk();
            let first = decl.children_by_field_name("declarator", &mut cur).next();
            first
        };
        let mut signature = util::signature(decl, body.and_then(|d| d.child_by_field_name("value")), src);
        if let Some(stripped) = signature.strip_suffix('=') {
            signature = stripped.trim_end().to_string();
        }
        let mut cur = decl.walk();
        let declarators: Vec<Node<'t>> = decl.children_by_field_name("declarator", &mut cur).collect();
        for d in declarators {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let mut sym = self.base_symbol(decl, txt(name, src), NodeKind::Field, &mods, in_interface);
            sym.type_name = type_name.clone();
            sym.signature = Some(signature.clone());
            self.symbols.push(sym);
        }
    }

    fn enum_constant(&mut self, node: Node<'t>) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let mods = modifiers(node, src);
        let mut sym = self.base_symbol(node, txt(name, src), NodeKind::EnumMember, &mods, true);
        sym.is_static = true;
        sym.signature = Some(util::signature(node, node.child_by_field_name("body"), src));
        self.symbols.push(sym);
    }

    fn component(&mut self, param: Node<'t>) {
        let src = self.src;
        let Some(name) = param.child_by_field_name("name") else {
            return;
        };
        let mods = modifiers(param, src);
        let mut sym = self.base_symbol(param, txt(name, src), NodeKind::Field, &mods, false);
        sym.visibility = Some(Visibility::Private);
        sym.exported = false;
        sym.set_doc(None);
        sym.type_name = param
            .child_by_field_name("type")
            .and_then(|t| util::simple_type_name(&util::text(t, src)));
        sym.signature = Some(util::collapse_whitespace(&util::text(param, src)));
        self.symbols.push(sym);
    }

    fn import(&mut self, decl: Node<'t>) {
        let src = self.src;
        let mut cur = decl.walk();
        let mut is_static = false;
        let mut wildcard = false;
        let mut path = None;
        for child in decl.children(&mut cur) {
            match child.kind() {
                "static" => is_static = true,
                "asterisk" => wildcard = true,
                "identifier" | "scoped_identifier" => path = Some(collapse_dots(&util::text(child, src))),
                _ => {}
            }
        }
        let Some(path) = path else { return };
        let _ = is_static; // static and type imports have the same shape: module = everything before the name
        let line = util::line(decl);
        let fact = if wildcard {
            ImportFact::wildcard(path, line)
        } else {
            let (module, name) = match path.rsplit_once('.') {
                Some((m, n)) => (m.to_string(), n.to_string()),
                None => (String::new(), path.clone()),
            };
            ImportFact::named(module, name.clone(), name, line)
        };
        self.imports.push(fact);
    }

    fn call(&mut self, call: Node<'t>) {
        let Some(name) = call.child_by_field_name("name") else {
            return;
        };
        let receiver = match call.child_by_field_name("object") {
            Some(o) => receiver_of(o, self.src),
            None => {
                // `super.<T>foo()` keeps `super` as an unnamed child.
                let mut cur = call.walk();
                let has_super = call.children(&mut cur).any(|c| c.kind() == "super");
                if has_super {
                    Receiver::Super
                } else {
                    Receiver::None
                }
            }
        };
        self.add_ref(EdgeKind::Calls, txt(name, self.src), receiver, name);
    }

    /// `super(…)` calls the superclass's constructor, `this(…)` another of the class's own
    /// (named as the class: a Java constructor is the method named as its type).
    fn constructor_call(&mut self, call: Node<'t>) {
        let Some(keyword) = call.child_by_field_name("constructor") else {
            return;
        };
        if keyword.kind() == "super" {
            self.add_ref(EdgeKind::Calls, "super".to_string(), Receiver::Super, keyword);
            return;
        }
        let mut cur = self.parents.parent(call);
        while let Some(n) = cur {
            if matches!(
                n.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration"
            ) {
                if let Some(name) = n.child_by_field_name("name") {
                    self.add_ref(EdgeKind::Calls, txt(name, self.src), Receiver::SelfRef, keyword);
                }
                return;
            }
            cur = self.parents.parent(n);
        }
    }

    /// The simple name of a declared type for `type_name`/`return_type`; a bounded type
    /// parameter stands for its first bound (an unbounded one keeps its own name).
    fn type_name_of(&self, ty: Node<'t>) -> Option<String> {
        let name = util::simple_type_name(&util::text(ty, self.src))?;
        match self.generics.param(ty.start_byte(), &name) {
            Some(Some(bound)) => Some(bound.clone()),
            _ => Some(name),
        }
    }

    fn new_expr(&mut self, expr: Node<'t>) {
        let Some(ty) = expr.child_by_field_name("type") else {
            return;
        };
        if let Some((name, receiver, node)) = type_head(ty, self.src) {
            if !self.generics.declares(node.start_byte(), &name) {
                self.add_ref(EdgeKind::Instantiates, name, receiver, node);
            }
        }
    }

    fn method_ref(&mut self, node: Node<'t>) {
        let src = self.src;
        let mut cur = node.walk();
        let children: Vec<Node<'t>> = node.children(&mut cur).collect();
        let Some(target) = children.first().copied() else {
            return;
        };
        let is_new = children.iter().any(|c| c.kind() == "new");
        if is_new {
            let head = match target.kind() {
                "identifier" => Some((txt(target, src), Receiver::None, target)),
                "field_access" => {
                    let field = target.child_by_field_name("field");
                    field.map(|f| {
                        (
                            txt(f, src),
                            target
                                .child_by_field_name("object")
                                .map(|o| receiver_of(o, src))
                                .unwrap_or(Receiver::Expr),
                            f,
                        )
                    })
                }
                _ => type_head(target, src),
            };
            if let Some((name, recv, at)) = head {
                let recv = match recv {
                    Receiver::Path(p) if p.len() == 1 => Receiver::Name(p[0].clone()),
                    r => r,
                };
                self.add_ref(EdgeKind::Instantiates, name, recv, at);
            }
            return;
        }
        let Some(method) = children
            .iter()
            .rev()
            .find(|c| c.kind() == "identifier" && c.id() != target.id())
            .copied()
        else {
            return;
        };
        let receiver = match target.kind() {
            "identifier" | "this" | "super" | "field_access" | "method_invocation" => receiver_of(target, src),
            _ => match type_head(target, src) {
                Some((n, _, _)) => Receiver::Name(n),
                None => Receiver::Expr,
            },
        };
        self.add_ref(EdgeKind::References, txt(method, src), receiver, method);
    }

    fn annotation(&mut self, node: Node<'t>) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let full = collapse_dots(&util::text(name, self.src));
        let simple = last_segment(&full);
        if is_lang_annotation(&simple) {
            return;
        }
        let receiver = match full.rsplit_once('.') {
            Some((q, _)) if q.contains('.') => Receiver::Path(q.split('.').map(str::to_string).collect()),
            Some((q, _)) => Receiver::Name(q.to_string()),
            None => Receiver::None,
        };
        self.add_ref(EdgeKind::References, simple, receiver, name);
    }

    /// A type name used somewhere: decide the edge kind from its context.
    fn type_ref(&mut self, ident: Node<'t>) {
        let src = self.src;
        let name = txt(ident, src);
        if is_basic_type(&name) || self.generics.declares(ident.start_byte(), &name) {
            return;
        }
        let mut receiver = Receiver::None;
        // Qualified names: only the last segment is a ref (`java` and `io` in `java.io.Closeable` are not).
        let mut node = ident;
        let mut top = None;
        while let Some(p) = self
            .parents
            .parent(node)
            .filter(|p| p.kind() == "scoped_type_identifier")
        {
            let count = p.named_child_count();
            let is_last = count > 0
                && u32::try_from(count - 1)
                    .ok()
                    .and_then(|c| p.named_child(c))
                    .is_some_and(|l| l.id() == node.id());
            if !is_last {
                return;
            }
            top = Some(p);
            node = p;
        }
        if let Some(p) = top {
            receiver = qualifier_receiver(p, ident, src);
        }
        let mut child = ident;
        let mut direct = true; // head of every enclosing type expression (not a generic argument)
        let mut kind = EdgeKind::References;
        let mut steps = 0;
        let mut parent = self.parents.parent(ident);
        while let Some(p) = parent {
            steps += 1;
            if steps > 64 {
                break;
            }
            let is_field = |f: &str| p.child_by_field_name(f).is_some_and(|c| c.id() == child.id());
            match p.kind() {
                "scoped_type_identifier" | "annotated_type" | "array_type" | "type_list" => {}
                "generic_type" => {
                    if child.kind() == "type_arguments" {
                        direct = false;
                    }
                }
                "type_arguments" | "wildcard" | "type_bound" => direct = false,
                "formal_parameter" | "spread_parameter" => {
                    let owner = self
                        .parents
                        .parent(p)
                        .and_then(|l| self.parents.parent(l))
                        .map(|o| o.kind());
                    kind = match owner {
                        Some("method_declaration" | "constructor_declaration" | "record_declaration") => {
                            EdgeKind::TypedAs
                        }
                        _ => EdgeKind::References,
                    };
                    break;
                }
                "method_declaration" | "annotation_type_element_declaration" => {
                    if is_field("type") {
                        kind = EdgeKind::Returns;
                    }
                    break;
                }
                "field_declaration"
                | "constant_declaration"
                | "local_variable_declaration"
                | "enhanced_for_statement"
                | "resource" => {
                    if is_field("type") {
                        kind = EdgeKind::TypedAs;
                    }
                    break;
                }
                "superclass" => {
                    kind = if direct {
                        EdgeKind::Extends
                    } else {
                        EdgeKind::References
                    };
                    break;
                }
                "super_interfaces" => {
                    kind = if direct {
                        EdgeKind::Implements
                    } else {
                        EdgeKind::References
                    };
                    break;
                }
                "extends_interfaces" => {
                    kind = if direct {
                        EdgeKind::Extends
                    } else {
                        EdgeKind::References
                    };
                    break;
                }
                "object_creation_expression" => {
                    if direct && is_field("type") {
                        return; // Instantiates, reported by the `new` pattern
                    }
                    break;
                }
                "method_reference" => return,
                "type_parameter" => {
                    if child.kind() == "type_identifier" {
                        return; // the parameter's own name
                    }
                    break;
                }
                _ => break,
            }
            child = p;
            parent = self.parents.parent(p);
        }
        self.add_ref(kind, name, receiver, ident);
    }

    fn param(&mut self, param: Node<'t>) {
        let src = self.src;
        let owner = self.parents.parent(param).and_then(|l| self.parents.parent(l));
        if owner.is_some_and(|o| o.kind() == "record_declaration") {
            return; // record components are fields
        }
        let (Some(name), Some(ty)) = (param.child_by_field_name("name"), param.child_by_field_name("type")) else {
            return;
        };
        if let Some(t) = declared_type(ty, src, &self.generics) {
            self.add_binding(txt(name, src), BindingValue::Type { name: t }, name);
        }
    }

    fn local(&mut self, decl: Node<'t>) {
        let src = self.src;
        let declared = decl
            .child_by_field_name("type")
            .and_then(|t| declared_type(t, src, &self.generics));
        let mut cur = decl.walk();
        let declarators: Vec<Node<'t>> = decl.children_by_field_name("declarator", &mut cur).collect();
        for d in declarators {
            let Some(name) = d.child_by_field_name("name") else {
                continue;
            };
            let value = match &declared {
                Some(t) => Some(BindingValue::Type { name: t.clone() }),
                None => d.child_by_field_name("value").and_then(|v| value_binding(v, src)),
            };
            if let Some(v) = value {
                self.add_binding(txt(name, src), v, name);
            }
        }
    }

    fn typed_name(&mut self, node: Node<'t>) {
        // `for (Foo x : xs)`, `try (Foo f = …)`
        let src = self.src;
        let (Some(name), Some(ty)) = (node.child_by_field_name("name"), node.child_by_field_name("type")) else {
            return;
        };
        let value = match declared_type(ty, src, &self.generics) {
            Some(t) => Some(BindingValue::Type { name: t }),
            None if node.kind() == "resource" => node.child_by_field_name("value").and_then(|v| value_binding(v, src)),
            None => None,
        };
        if let Some(v) = value {
            self.add_binding(txt(name, src), v, name);
        }
    }

    fn assign(&mut self, expr: Node<'t>) {
        let src = self.src;
        if expr
            .child_by_field_name("operator")
            .is_some_and(|o| util::text(o, src) != "=")
        {
            return;
        }
        let (Some(left), Some(right)) = (expr.child_by_field_name("left"), expr.child_by_field_name("right")) else {
            return;
        };
        if let Some(v) = value_binding(right, src) {
            self.add_binding(txt(left, src), v, left);
        }
    }
}

fn test_role(annotations: &[String]) -> Option<TestRole> {
    for a in annotations {
        match a.as_str() {
            "Test" | "ParameterizedTest" | "RepeatedTest" | "TestFactory" | "TestTemplate" => {
                return Some(TestRole::Test)
            }
            "BeforeEach" | "AfterEach" | "BeforeAll" | "AfterAll" | "Before" | "After" | "BeforeClass"
            | "AfterClass" => return Some(TestRole::Fixture),
            _ => {}
        }
    }
    None
}

fn is_test_path(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    path.starts_with("src/test/")
        || path.contains("/src/test/")
        || file.ends_with("Test.java")
        || file.ends_with("Tests.java")
        || file.ends_with("IT.java")
}

fn accept_with_fields(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Field | NodeKind::EnumMember) || EnclosingIndex::code_owners(kind)
}

fn callable_scope(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Function | NodeKind::Method | NodeKind::Type | NodeKind::Interface
    )
}

impl Extractor for JavaExtractor {
    fn language(&self) -> Language {
        Language::Java
    }

    fn grammar(&self) -> tree_sitter::Language {
        grammar()
    }

    fn compile_queries(&self) {
        queries();
    }

    fn extract(&self, tree: &tree_sitter::Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        let q = queries();
        let caps = &q.caps;
        let mut facts = FileFacts::default();
        let parents = Parents::new(tree);
        let mut cx = Ctx {
            src: source,
            parents: &parents,
            symbols: Vec::new(),
            refs: Vec::new(),
            bindings: Vec::new(),
            imports: Vec::new(),
            generics: Generics { scopes: Vec::new() },
            has_tests: false,
        };
        // Declarations first (they register generic scopes), then uses.
        let mut later: Vec<(u32, Node<'_>)> = Vec::new();
        let mut cursor = QueryCursor::new();
        let mut matches = crate::budget::matches(&mut cursor, &q.set.query, tree.root_node(), source);
        while let Some(m) = matches.next() {
            for cap in m.captures {
                let (i, node) = (cap.index, cap.node);
                if i == caps.package {
                    if facts.package.is_none() {
                        facts.package = Some(collapse_dots(&util::text(node, source)));
                    }
                } else if i == caps.class {
                    cx.type_decl(node, NodeKind::Type, Some(TypeFlavor::Class));
                } else if i == caps.interface {
                    cx.type_decl(node, NodeKind::Interface, None);
                } else if i == caps.enum_def {
                    cx.type_decl(node, NodeKind::Type, Some(TypeFlavor::Enum));
                } else if i == caps.record {
                    cx.type_decl(node, NodeKind::Type, Some(TypeFlavor::Record));
                } else if i == caps.annotation_type {
                    cx.type_decl(node, NodeKind::Type, Some(TypeFlavor::Annotation));
                } else if i == caps.enum_constant {
                    cx.enum_constant(node);
                } else if i == caps.component {
                    cx.component(node);
                } else if i == caps.method || i == caps.element {
                    cx.callable(node, false);
                } else if i == caps.constructor {
                    cx.callable(node, true);
                } else if i == caps.field {
                    cx.field(node);
                } else if i == caps.import {
                    cx.import(node);
                } else if [
                    caps.call,
                    caps.ctor_call,
                    caps.new,
                    caps.method_ref,
                    caps.type_ref,
                    caps.annotation,
                    caps.param,
                    caps.local,
                    caps.foreach,
                    caps.resource,
                    caps.assign,
                ]
                .contains(&i)
                {
                    later.push((i, node));
                }
            }
        }
        for (i, node) in later {
            if i == caps.call {
                cx.call(node);
            } else if i == caps.ctor_call {
                cx.constructor_call(node);
            } else if i == caps.new {
                cx.new_expr(node);
            } else if i == caps.method_ref {
                cx.method_ref(node);
            } else if i == caps.type_ref {
                cx.type_ref(node);
            } else if i == caps.annotation {
                cx.annotation(node);
            } else if i == caps.param {
                cx.param(node);
            } else if i == caps.local {
                cx.local(node);
            } else if i == caps.foreach || i == caps.resource {
                cx.typed_name(node);
            } else if i == caps.assign {
                cx.assign(node);
            }
        }

        if is_test_path(ctx.path) || cx.has_tests {
            facts.test_runner = Some(TestRunner::Junit);
        }

        let mut symbols = std::mem::take(&mut cx.symbols);
        util::nest_symbols(&mut symbols);
        {
            let owners = EnclosingIndex::new(&symbols, accept_with_fields);
            let scopes = EnclosingIndex::new(&symbols, callable_scope);
            facts.refs = cx
                .refs
                .into_iter()
                .map(|r| RefFact {
                    kind: r.kind,
                    from: owners.find(r.line, r.col),
                    name: r.name,
                    receiver: r.receiver,
                    line: r.line,
                    col: r.col,
                    via: None,
                })
                .collect();
            facts.bindings = cx
                .bindings
                .into_iter()
                .map(|b| BindingFact {
                    scope: scopes.find(b.line, b.col),
                    name: b.name,
                    value: b.value,
                    line: b.line,
                })
                .collect();
        }
        facts.symbols = symbols;
        facts.imports = cx.imports;
        facts
    }
}

pub(crate) fn extractor() -> &'static dyn Extractor {
    &JavaExtractor
}
