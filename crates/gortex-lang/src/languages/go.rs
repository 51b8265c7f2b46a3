//! Go extractor: queries in `grammars/go/`, post-processing here.
//!
//! One query pass (definitions + imports + references compiled together) collects nodes; the
//! Rust code then builds symbols, nests them, and attributes refs and bindings to their
//! enclosing symbol. Nothing here recurses on tree depth: type contexts are found by short
//! `parent()` walks through type nodes only, selector chains by loops.

mod syntax;

use super::grammar_query;
use crate::util::Parents;
use crate::util::{self, EnclosingIndex, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, DocComment, EdgeKind, FileFacts, ImportFact, ImportKind, Language, NodeKind, Receiver,
    RefFact, SymbolFact, TestRole, TestRunner, TypeFlavor, Visibility,
};
use std::collections::HashMap;
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use syntax::*;
use tree_sitter::{Node, QueryCursor};

struct GoExtractor;

/// Capture indices, looked up once.
struct Caps {
    package: u32,
    function: u32,
    method: u32,
    type_def: u32,
    alias_def: u32,
    field: u32,
    method_elem: u32,
    const_decl: u32,
    var_decl: u32,
    import_spec: u32,
    call: u32,
    conversion: u32,
    literal: u32,
    type_ref: u32,
    bind_short: u32,
    range: u32,
    bind_assign: u32,
    param: u32,
}

struct Queries {
    set: QuerySet,
    caps: Caps,
}

fn grammar() -> tree_sitter::Language {
    tree_sitter_go::LANGUAGE.into()
}

fn queries() -> &'static Queries {
    static Q: OnceLock<Queries> = OnceLock::new();
    Q.get_or_init(|| {
        let source = [
            grammar_query!("go/definitions.scm"),
            grammar_query!("go/imports.scm"),
            grammar_query!("go/references.scm"),
        ]
        .join("\n");
        let set = QuerySet::new(&grammar(), &source, "go/*.scm");
        let c = |n: &str| set.capture(n).unwrap_or(u32::MAX);
        let caps = Caps {
            package: c("package.name"),
            function: c("function.def"),
            method: c("method.def"),
            type_def: c("type.def"),
            alias_def: c("alias.def"),
            field: c("field.def"),
            method_elem: c("method_elem.def"),
            const_decl: c("const.decl"),
            var_decl: c("var.decl"),
            import_spec: c("import.spec"),
            call: c("call"),
            conversion: c("conversion"),
            literal: c("literal"),
            type_ref: c("type.ref"),
            bind_short: c("bind.short"),
            bind_assign: c("bind.assign"),
            param: c("param"),
            range: c("range"),
        };
        Queries { set, caps }
    })
}

/// Go's predeclared functions: calls to them are not reported.
fn is_builtin_func(name: &str) -> bool {
    matches!(
        name,
        "append"
            | "cap"
            | "clear"
            | "close"
            | "complex"
            | "copy"
            | "delete"
            | "imag"
            | "len"
            | "make"
            | "max"
            | "min"
            | "new"
            | "panic"
            | "print"
            | "println"
            | "real"
            | "recover"
    )
}

fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

fn visibility(name: &str) -> Visibility {
    if is_exported(name) {
        Visibility::Public
    } else {
        Visibility::Package
    }
}

fn is_comment(kind: &str) -> bool {
    kind == "comment"
}

/// A ref waiting for symbols to be nested before its `from` is known.
struct PendingRef {
    kind: EdgeKind,
    name: String,
    receiver: Receiver,
    line: u32,
    col: u32,
    /// Attribute to the innermost field too (field type annotations).
    from_field: bool,
}

struct PendingBinding {
    name: String,
    value: BindingValue,
    line: u32,
    col: u32,
    /// Package-level binding (scope None regardless of position).
    module_scope: bool,
}

struct Ctx<'a, 't> {
    src: &'a [u8],
    parents: &'a Parents<'t>,
    symbols: Vec<SymbolFact>,
    refs: Vec<PendingRef>,
    bindings: Vec<PendingBinding>,
    imports: Vec<ImportFact>,
    /// (symbol index, receiver type name) for methods, parents assigned after all types are known.
    methods: Vec<(usize, Option<String>)>,
    /// Top-level named types: name → symbol index.
    types: HashMap<String, usize>,
    /// Collection parameters' element types: (owner start byte, owner end byte, name, type), for
    /// `for _, v := range xs`.
    elements: Vec<(usize, usize, String, String)>,
    is_test_file: bool,
}

impl<'a, 't> Ctx<'a, 't> {
    fn doc(&self, node: Node<'t>) -> Option<DocComment> {
        self.parents
            .leading_comment(node, self.src, is_comment)
            .and_then(|raw| util::doc_comment(&raw))
    }

    fn push(&mut self, sym: SymbolFact) -> usize {
        self.symbols.push(sym);
        self.symbols.len() - 1
    }

    fn add_ref(&mut self, kind: EdgeKind, name: String, receiver: Receiver, at: Node<'t>, from_field: bool) {
        let p = at.start_position();
        self.refs.push(PendingRef {
            kind,
            name,
            receiver,
            line: p.row as u32 + 1,
            col: p.column as u32,
            from_field,
        });
    }

    fn add_binding(&mut self, name: String, value: BindingValue, at: Node<'t>, module_scope: bool) {
        if name == "_" || name.is_empty() {
            return;
        }
        let p = at.start_position();
        self.bindings.push(PendingBinding {
            name,
            value,
            line: p.row as u32 + 1,
            col: p.column as u32,
            module_scope,
        });
    }

    fn test_role(&self, name: &str) -> Option<TestRole> {
        if !self.is_test_file {
            return None;
        }
        let check = |prefix: &str| {
            name.strip_prefix(prefix)
                .is_some_and(|rest| !rest.chars().next().is_some_and(char::is_lowercase))
        };
        if name == "TestMain" {
            Some(TestRole::Fixture)
        } else if check("Test") {
            Some(TestRole::Test)
        } else if check("Benchmark") {
            Some(TestRole::Benchmark)
        } else if check("Fuzz") {
            Some(TestRole::Fuzz)
        } else if check("Example") {
            Some(TestRole::Example)
        } else {
            None
        }
    }

    fn function(&mut self, decl: Node<'t>, receivers: &mut Vec<(usize, usize, String)>, generics: &mut Generics) {
        let src = self.src;
        let Some(name_node) = decl.child_by_field_name("name") else {
            return;
        };
        let name = txt(name_node, src);
        let is_method = decl.kind() == "method_declaration";
        let kind = if is_method {
            NodeKind::Method
        } else {
            NodeKind::Function
        };
        let mut sym = SymbolFact::new(name.clone(), kind, util::span(decl));
        let body = decl.child_by_field_name("body");
        sym.signature = Some(util::signature(decl, body, src));
        sym.visibility = Some(visibility(&name));
        sym.exported = is_exported(&name);
        sym.set_doc(self.doc(decl));
        sym.return_type = decl.child_by_field_name("result").and_then(|r| return_type_of(r, src));
        sym.test_role = self.test_role(&name);
        if let Some(tp) = decl.child_by_field_name("type_parameters") {
            generics
                .scopes
                .push((decl.start_byte(), decl.end_byte(), type_param_names(tp, src)));
        }
        let mut recv_type = None;
        if is_method {
            if let Some(list) = decl.child_by_field_name("receiver") {
                let (var, ty, tparams) = receiver_info(list, src);
                if !tparams.is_empty() {
                    generics.scopes.push((decl.start_byte(), decl.end_byte(), tparams));
                }
                if let (Some(var), Some(ty)) = (&var, &ty) {
                    receivers.push((decl.start_byte(), decl.end_byte(), var.clone()));
                    self.add_binding(var.clone(), BindingValue::Type { name: ty.clone() }, list, false);
                }
                // The graph owns parentless methods by `type_name` (see grammars/go/README.md).
                sym.type_name = ty.clone();
                recv_type = ty;
            }
        }
        let idx = self.push(sym);
        if is_method {
            self.methods.push((idx, recv_type));
        }
    }

    fn type_spec(&mut self, spec: Node<'t>, generics: &mut Generics) {
        let src = self.src;
        let Some(name_node) = spec.child_by_field_name("name") else {
            return;
        };
        let name = txt(name_node, src);
        let value = spec.child_by_field_name("type");
        let (kind, flavor, keyword) = match value.map(|v| v.kind()) {
            Some("struct_type") => (NodeKind::Type, Some(TypeFlavor::Struct), Some("struct")),
            Some("interface_type") => (NodeKind::Interface, None, Some("interface")),
            _ => (NodeKind::Type, Some(TypeFlavor::TypeAlias), None),
        };
        let decl = self.parents.parent(spec).filter(|p| p.kind() == "type_declaration");
        let single = decl.is_some_and(|d| d.named_child_count() == 1);
        let outer = if single { decl.unwrap_or(spec) } else { spec };
        let mut sym = SymbolFact::new(name.clone(), kind, util::span(outer));
        sym.flavor = flavor;
        let tparams = spec.child_by_field_name("type_parameters");
        sym.signature = Some(match keyword {
            Some(k) => {
                let tp = tparams
                    .map(|t| util::collapse_whitespace(&util::text(t, src)))
                    .unwrap_or_default();
                format!("type {name}{tp} {k}")
            }
            None => util::truncate_chars(
                &format!("type {}", util::collapse_whitespace(&util::text(spec, src))),
                util::MAX_SIGNATURE,
            ),
        });
        sym.visibility = Some(visibility(&name));
        sym.exported = is_exported(&name);
        sym.set_doc(
            self.doc(spec)
                .or_else(|| if single { decl.and_then(|d| self.doc(d)) } else { None }),
        );
        if let Some(tp) = tparams {
            generics
                .scopes
                .push((spec.start_byte(), spec.end_byte(), type_param_names(tp, src)));
        }
        let top_level = decl
            .and_then(|d| self.parents.parent(d))
            .is_some_and(|p| p.kind() == "source_file");
        let idx = self.push(sym);
        if top_level {
            self.types.entry(name).or_insert(idx);
        }
    }

    fn field(&mut self, field: Node<'t>) {
        let src = self.src;
        let Some(ty) = field.child_by_field_name("type") else {
            return;
        };
        let type_name = type_name_of(ty, src);
        let doc = self.doc(field);
        let mut cur = field.walk();
        let names: Vec<String> = field
            .children_by_field_name("name", &mut cur)
            .map(|n| txt(n, src))
            .collect();
        let embedded = names.is_empty();
        let names = if embedded {
            match type_head(ty, src) {
                Some((n, _, _)) => vec![n],
                None => return,
            }
        } else {
            names
        };
        let signature = util::truncate_chars(&util::collapse_whitespace(&util::text(field, src)), util::MAX_SIGNATURE);
        for name in names {
            let mut sym = SymbolFact::new(name.clone(), NodeKind::Field, util::span(field));
            sym.visibility = Some(visibility(&name));
            sym.exported = is_exported(&name);
            sym.type_name = type_name.clone();
            sym.signature = Some(signature.clone());
            sym.set_doc(doc.clone());
            self.push(sym);
        }
    }

    fn method_elem(&mut self, elem: Node<'t>) {
        let src = self.src;
        let Some(name_node) = elem.child_by_field_name("name") else {
            return;
        };
        let name = txt(name_node, src);
        let mut sym = SymbolFact::new(name.clone(), NodeKind::Method, util::span(elem));
        sym.signature = Some(util::signature(elem, None, src));
        sym.visibility = Some(visibility(&name));
        sym.exported = is_exported(&name);
        sym.set_doc(self.doc(elem));
        sym.return_type = elem.child_by_field_name("result").and_then(|r| return_type_of(r, src));
        sym.is_abstract = true;
        self.push(sym);
    }

    /// `const`/`var` declarations: package-level specs become symbols; typed or constructed
    /// values become bindings (module scope at package level, function scope inside bodies).
    fn value_decl(&mut self, decl: Node<'t>, generics: &Generics, recvs: &Receivers) {
        let src = self.src;
        let is_const = decl.kind() == "const_declaration";
        let top_level = self.parents.parent(decl).is_some_and(|p| p.kind() == "source_file");
        let mut specs = Vec::new();
        let mut cur = decl.walk();
        for child in decl.named_children(&mut cur) {
            match child.kind() {
                "const_spec" | "var_spec" => specs.push(child),
                "var_spec_list" => {
                    let mut c2 = child.walk();
                    specs.extend(child.named_children(&mut c2).filter(|c| c.kind() == "var_spec"));
                }
                _ => {}
            }
        }
        let single = specs.len() == 1;
        // In an iota group, a spec without type or value repeats the previous spec's.
        let mut inherited_type: Option<String> = None;
        for spec in specs {
            let ty = spec.child_by_field_name("type");
            let value = spec.child_by_field_name("value");
            let mut type_name = ty.and_then(|t| type_name_of(t, src));
            if is_const {
                if ty.is_some() || value.is_some() {
                    inherited_type = type_name.clone();
                } else {
                    type_name = inherited_type.clone();
                }
            }
            let mut c2 = spec.walk();
            let names: Vec<Node<'t>> = spec
                .children_by_field_name("name", &mut c2)
                .filter(|n| n.kind() == "identifier")
                .collect();
            let values: Vec<Node<'t>> = match value {
                Some(v) => {
                    let mut c3 = v.walk();
                    v.named_children(&mut c3).collect()
                }
                None => Vec::new(),
            };
            let recv = recvs.at(spec.start_byte());
            for (i, name_node) in names.iter().enumerate() {
                let name = txt(*name_node, src);
                if name == "_" {
                    continue;
                }
                let evidence = match ty.and_then(|t| declared_binding_type(t, src, generics)) {
                    Some(t) => Some(BindingValue::Type { name: t }),
                    None => values.get(i).and_then(|v| binding_value(*v, src, recv)),
                };
                if !is_const {
                    if let Some(ev) = evidence.clone() {
                        self.add_binding(name.clone(), ev, *name_node, top_level);
                    }
                }
                if !top_level {
                    continue;
                }
                let outer = if single { decl } else { spec };
                let kind = if is_const {
                    NodeKind::Constant
                } else {
                    NodeKind::Variable
                };
                let mut sym = SymbolFact::new(name.clone(), kind, util::span(outer));
                sym.visibility = Some(visibility(&name));
                sym.exported = is_exported(&name);
                sym.type_name = type_name.clone().or_else(|| match &evidence {
                    Some(BindingValue::Type { name }) => Some(name.clone()),
                    _ => None,
                });
                let keyword = if is_const { "const" } else { "var" };
                sym.signature = Some(util::truncate_chars(
                    &format!("{keyword} {}", util::collapse_whitespace(&util::text(spec, src))),
                    util::MAX_SIGNATURE,
                ));
                sym.set_doc(self.doc(spec).or_else(|| if single { self.doc(decl) } else { None }));
                self.push(sym);
            }
        }
    }

    fn import(&mut self, spec: Node<'t>) {
        let src = self.src;
        let Some(path) = spec.child_by_field_name("path") else {
            return;
        };
        let module = util::text(path, src).trim_matches(|c| c == '"' || c == '`').to_string();
        let (kind, local) = match spec.child_by_field_name("name") {
            Some(n) if n.kind() == "dot" => (ImportKind::Wildcard, None),
            Some(n) if n.kind() == "blank_identifier" => (ImportKind::SideEffect, None),
            Some(n) => (ImportKind::Module, Some(txt(n, src))),
            None => (ImportKind::Module, None),
        };
        self.imports.push(ImportFact {
            module,
            kind,
            name: None,
            local,
            reexport: false,
            type_only: false,
            line: util::line(spec),
        });
    }

    fn call(&mut self, call: Node<'t>, recvs: &Receivers) {
        let src = self.src;
        let Some(f) = callee_node(call) else { return };
        match f.kind() {
            "identifier" => {
                let name = txt(f, src);
                if name == "new" {
                    let arg = call.child_by_field_name("arguments").and_then(|a| a.named_child(0));
                    if let Some(arg) = arg {
                        let head = match arg.kind() {
                            "identifier" => Some((txt(arg, src), None)),
                            _ => type_head(arg, src).map(|(n, p, _)| (n, p)),
                        };
                        if let Some((n, pkg)) = head.filter(|(n, _)| !crate::names::go_builtin_type(n)) {
                            let receiver = pkg.map(Receiver::Name).unwrap_or(Receiver::None);
                            self.add_ref(EdgeKind::Instantiates, n, receiver, arg, false);
                        }
                    }
                    return;
                }
                if !is_builtin_func(&name) {
                    self.add_ref(EdgeKind::Calls, name, Receiver::None, f, false);
                }
            }
            "selector_expression" => {
                let (Some(field), Some(operand)) = (f.child_by_field_name("field"), f.child_by_field_name("operand"))
                else {
                    return;
                };
                let receiver = receiver_of(operand, src, recvs.at(call.start_byte()));
                self.add_ref(EdgeKind::Calls, txt(field, src), receiver, field, false);
            }
            _ => {}
        }
        // Method values and package functions passed as arguments: `http.HandleFunc("/", s.handle)`.
        if let Some(args) = call.child_by_field_name("arguments") {
            let mut cur = args.walk();
            for arg in args.named_children(&mut cur) {
                if arg.kind() != "selector_expression" {
                    continue;
                }
                let (Some(field), Some(operand)) =
                    (arg.child_by_field_name("field"), arg.child_by_field_name("operand"))
                else {
                    continue;
                };
                if operand.kind() != "identifier" {
                    continue;
                }
                let name = txt(field, src);
                let receiver = receiver_of(operand, src, recvs.at(arg.start_byte()));
                // Only names that look like functions/methods: `pkg.Func`, `s.method` on the receiver.
                if matches!(receiver, Receiver::SelfRef) || is_exported(&name) {
                    self.add_ref(EdgeKind::References, name, receiver, field, false);
                }
            }
        }
    }

    fn conversion(&mut self, conv: Node<'t>) {
        // Explicit instantiation of a generic function or type: `Map[int, string](xs)`.
        let Some(ty) = conv.child_by_field_name("type") else {
            return;
        };
        if let Some((name, pkg, node)) = type_head(ty, self.src) {
            let receiver = pkg.map(Receiver::Name).unwrap_or(Receiver::None);
            self.add_ref(EdgeKind::Calls, name, receiver, node, false);
        }
    }

    fn literal(&mut self, lit: Node<'t>, generics: &Generics) {
        let Some(ty) = lit.child_by_field_name("type") else {
            return;
        };
        if let Some((name, pkg, node)) = type_head(ty, self.src) {
            if crate::names::go_builtin_type(&name) || generics.declares(node.start_byte(), &name) {
                return;
            }
            let receiver = pkg.map(Receiver::Name).unwrap_or(Receiver::None);
            self.add_ref(EdgeKind::Instantiates, name, receiver, node, false);
        }
    }

    /// A type name used somewhere: decide the edge kind from its context.
    fn type_ref(&mut self, ident: Node<'t>, generics: &Generics) {
        let src = self.src;
        let name = txt(ident, src);
        if crate::names::go_builtin_type(&name) || generics.declares(ident.start_byte(), &name) {
            return;
        }
        let mut receiver = Receiver::None;
        let mut child = ident;
        let mut direct = true; // the type is the head of every enclosing type expression
        let mut kind = EdgeKind::References;
        let mut from_field = false;
        let mut steps = 0;
        let mut parent = self.parents.parent(ident);
        while let Some(p) = parent {
            steps += 1;
            if steps > 64 {
                break;
            }
            let is_field = |f: &str| p.child_by_field_name(f).is_some_and(|c| c.id() == child.id());
            match p.kind() {
                "type_spec" | "type_alias" => {
                    if is_field("name") {
                        return; // the declaration itself
                    }
                    if is_field("type") {
                        kind = EdgeKind::TypedAs;
                    }
                    break;
                }
                "qualified_type" => {
                    if let Some(pkg) = p.child_by_field_name("package") {
                        receiver = Receiver::Name(txt(pkg, src));
                    }
                }
                "generic_type" => {
                    if !is_field("type") {
                        direct = false;
                    }
                }
                "pointer_type" | "parenthesized_type" | "type_elem" => {}
                "slice_type"
                | "array_type"
                | "implicit_length_array_type"
                | "map_type"
                | "channel_type"
                | "type_arguments"
                | "negated_type"
                | "struct_type"
                | "field_declaration_list"
                | "function_type"
                | "parameter_list"
                | "parameter_declaration"
                | "variadic_parameter_declaration" => {
                    direct = false;
                }
                "function_declaration" | "method_declaration" | "method_elem" => {
                    if is_field("result") {
                        kind = EdgeKind::Returns;
                    } else if is_field("parameters") {
                        kind = EdgeKind::TypedAs;
                    } else if is_field("receiver") || is_field("type_parameters") {
                        return;
                    }
                    break;
                }
                "field_declaration" => {
                    let embedded = p.child_by_field_name("name").is_none();
                    let struct_of_named_type = self
                        .parents
                        .parent(p)
                        .and_then(|l| self.parents.parent(l))
                        .and_then(|s| self.parents.parent(s))
                        .is_some_and(|t| t.kind() == "type_spec");
                    if embedded && direct && is_field("type") && struct_of_named_type {
                        kind = EdgeKind::Extends;
                    } else {
                        kind = EdgeKind::TypedAs;
                        from_field = true;
                    }
                    break;
                }
                "interface_type" => {
                    if direct && child.kind() == "type_elem" && child.named_child_count() == 1 {
                        kind = EdgeKind::Extends;
                    }
                    break;
                }
                "var_spec" | "const_spec" => {
                    kind = EdgeKind::TypedAs;
                    break;
                }
                "composite_literal" | "type_conversion_expression" => {
                    if direct && is_field("type") {
                        return; // Instantiates / Calls, reported by their own patterns
                    }
                    break;
                }
                "argument_list" => {
                    let is_new = self
                        .parents
                        .parent(p)
                        .and_then(callee_node)
                        .is_some_and(|f| util::text(f, src) == "new");
                    if is_new && direct {
                        return; // reported as Instantiates by the call
                    }
                    break;
                }
                _ => break,
            }
            child = p;
            parent = self.parents.parent(p);
        }
        self.add_ref(kind, name, receiver, ident, from_field);
    }

    fn param(&mut self, param: Node<'t>, generics: &Generics) {
        let src = self.src;
        // Only parameters of functions with bodies bind names in a scope.
        let Some(list) = self.parents.parent(param) else {
            return;
        };
        let Some(owner) = self.parents.parent(list) else {
            return;
        };
        if !matches!(
            owner.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            return;
        }
        if owner
            .child_by_field_name("parameters")
            .is_none_or(|p| p.id() != list.id())
        {
            return; // receiver (bound by the method) or named results
        }
        let Some(ty) = param.child_by_field_name("type") else {
            return;
        };
        let mut cur = param.walk();
        let names: Vec<Node<'t>> = param.children_by_field_name("name", &mut cur).collect();
        // `xs ...Foo` is a slice of Foo; `xs []Foo`, `m map[K]Foo` collections of Foo: their
        // elements are bound as `xs[]` (for `xs[i].M()`) and remembered for `range`.
        let element = if param.kind() == "variadic_parameter_declaration" {
            Some(ty)
        } else {
            element_type(ty)
        };
        if let Some(elem) = element {
            let Some(type_name) = declared_binding_type(elem, src, generics) else {
                return;
            };
            for n in names {
                let name = txt(n, src);
                self.elements
                    .push((owner.start_byte(), owner.end_byte(), name.clone(), type_name.clone()));
                self.add_binding(
                    element_name(&name),
                    BindingValue::Type {
                        name: type_name.clone(),
                    },
                    n,
                    false,
                );
            }
            return;
        }
        let Some(type_name) = declared_binding_type(ty, src, generics) else {
            return;
        };
        for n in names {
            self.add_binding(
                txt(n, src),
                BindingValue::Type {
                    name: type_name.clone(),
                },
                n,
                false,
            );
        }
    }

    /// `for _, v := range xs` over a collection parameter binds `v` to its element type (a
    /// map's value; a lone `for k := range xs` binds an index or key, which is left alone).
    fn range(&mut self, clause: Node<'t>) {
        let src = self.src;
        let (Some(left), Some(right)) = (clause.child_by_field_name("left"), clause.child_by_field_name("right"))
        else {
            return;
        };
        if right.kind() != "identifier" {
            return;
        }
        let mut cur = left.walk();
        let Some(value) = left
            .named_children(&mut cur)
            .nth(1)
            .filter(|v| v.kind() == "identifier")
        else {
            return;
        };
        let collection = txt(right, src);
        let at = clause.start_byte();
        // The innermost function declaring the collection: the latest-starting owner around it.
        let ty = self
            .elements
            .iter()
            .filter(|(start, end, name, _)| *start <= at && at < *end && *name == collection)
            .max_by_key(|(start, ..)| *start)
            .map(|(.., ty)| ty.clone());
        if let Some(ty) = ty {
            self.add_binding(txt(value, src), BindingValue::Type { name: ty }, value, false);
        }
    }

    fn assignment(&mut self, stmt: Node<'t>, recvs: &Receivers) {
        let src = self.src;
        if stmt.kind() == "assignment_statement"
            && stmt
                .child_by_field_name("operator")
                .is_some_and(|o| util::text(o, src) != "=")
        {
            return;
        }
        let (Some(left), Some(right)) = (stmt.child_by_field_name("left"), stmt.child_by_field_name("right")) else {
            return;
        };
        let mut c1 = left.walk();
        let lhs: Vec<Node<'t>> = left.named_children(&mut c1).collect();
        let mut c2 = right.walk();
        let rhs: Vec<Node<'t>> = right.named_children(&mut c2).collect();
        let recv = recvs.at(stmt.start_byte());
        if lhs.len() == rhs.len() {
            for (l, r) in lhs.iter().zip(rhs.iter()) {
                if l.kind() != "identifier" {
                    continue;
                }
                if let Some(v) = binding_value(*r, src, recv) {
                    self.add_binding(txt(*l, src), v, *l, false);
                }
            }
        } else if rhs.len() == 1 && rhs[0].kind() == "call_expression" {
            // `s, err := store.Open()`: the first result.
            if let Some(l) = lhs.first().filter(|l| l.kind() == "identifier") {
                if let Some(v) = binding_value(rhs[0], src, recv) {
                    self.add_binding(txt(*l, src), v, *l, false);
                }
            }
        }
    }
}

fn accept_with_fields(kind: NodeKind) -> bool {
    kind == NodeKind::Field || EnclosingIndex::code_owners(kind)
}

impl Extractor for GoExtractor {
    fn language(&self) -> Language {
        Language::Go
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
        let root = tree.root_node();
        let mut facts = FileFacts::default();
        let is_test_file = ctx.path.ends_with("_test.go");
        if is_test_file {
            facts.test_runner = Some(TestRunner::GoTest);
        }
        let parents = Parents::new(tree);
        let mut cx = Ctx {
            src: source,
            parents: &parents,
            symbols: Vec::new(),
            refs: Vec::new(),
            bindings: Vec::new(),
            imports: Vec::new(),
            methods: Vec::new(),
            types: HashMap::new(),
            elements: Vec::new(),
            is_test_file,
        };

        // One pass over all matches; nodes needing receiver/generic context are kept for later.
        let mut receivers = Vec::new();
        let mut generics = Generics { scopes: Vec::new() };
        let mut later: Vec<(u32, Node<'_>)> = Vec::new();
        let mut cursor = QueryCursor::new();
        let mut matches = crate::budget::matches(&mut cursor, &q.set.query, root, source);
        while let Some(m) = matches.next() {
            for cap in m.captures {
                let node = cap.node;
                let i = cap.index;
                if i == caps.package {
                    if facts.package.is_none() {
                        facts.package = Some(txt(node, source));
                    }
                } else if i == caps.function || i == caps.method {
                    cx.function(node, &mut receivers, &mut generics);
                } else if i == caps.type_def || i == caps.alias_def {
                    cx.type_spec(node, &mut generics);
                } else if i == caps.field {
                    cx.field(node);
                } else if i == caps.method_elem {
                    cx.method_elem(node);
                } else if i == caps.import_spec {
                    cx.import(node);
                } else if [
                    caps.const_decl,
                    caps.var_decl,
                    caps.call,
                    caps.conversion,
                    caps.literal,
                    caps.type_ref,
                    caps.bind_short,
                    caps.bind_assign,
                    caps.param,
                    caps.range,
                ]
                .contains(&i)
                {
                    later.push((i, node));
                }
            }
        }
        receivers.sort_by_key(|r| r.0);
        let recvs = Receivers { ranges: receivers };
        for (i, node) in later {
            if i == caps.const_decl || i == caps.var_decl {
                cx.value_decl(node, &generics, &recvs);
            } else if i == caps.call {
                cx.call(node, &recvs);
            } else if i == caps.conversion {
                cx.conversion(node);
            } else if i == caps.literal {
                cx.literal(node, &generics);
            } else if i == caps.type_ref {
                cx.type_ref(node, &generics);
            } else if i == caps.bind_short || i == caps.bind_assign {
                cx.assignment(node, &recvs);
            } else if i == caps.param {
                cx.param(node, &generics);
            } else if i == caps.range {
                cx.range(node);
            }
        }

        // Methods belong to their receiver type when it is declared in this file.
        for (idx, recv) in std::mem::take(&mut cx.methods) {
            if let Some(&owner) = recv.as_ref().and_then(|r| cx.types.get(r)) {
                cx.symbols[idx].parent = Some(owner as u32);
            }
        }

        // `s.items` passed as an argument is a field read, not a method value.
        let field_names: std::collections::HashSet<&str> = cx
            .symbols
            .iter()
            .filter(|s| s.kind == NodeKind::Field)
            .map(|s| s.name.as_str())
            .collect();
        cx.refs.retain(|r| {
            !(r.kind == EdgeKind::References
                && r.receiver == Receiver::SelfRef
                && field_names.contains(r.name.as_str()))
        });
        drop(field_names);

        let mut symbols = std::mem::take(&mut cx.symbols);
        util::nest_symbols(&mut symbols);
        {
            let code = EnclosingIndex::new(&symbols, EnclosingIndex::code_owners);
            let with_fields = EnclosingIndex::new(&symbols, accept_with_fields);
            facts.refs = cx
                .refs
                .into_iter()
                .map(|r| {
                    let from = if r.from_field {
                        with_fields.find(r.line, r.col)
                    } else {
                        code.find(r.line, r.col)
                    };
                    RefFact {
                        kind: r.kind,
                        from,
                        name: r.name,
                        receiver: r.receiver,
                        line: r.line,
                        col: r.col,
                        via: None,
                    }
                })
                .collect();
            facts.bindings = cx
                .bindings
                .into_iter()
                .map(|b| BindingFact {
                    scope: if b.module_scope { None } else { code.find(b.line, b.col) },
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
    &GoExtractor
}
