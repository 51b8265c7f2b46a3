//! What Go syntax says about types and receivers, without the extractor's state: type heads
//! (package-qualified), declared and constructed types as binding evidence, receivers of
//! selectors, collection element types, callees, and the receiver and type-parameter scopes.

use super::is_builtin_func;
use crate::util;
use gortex_core::{BindingValue, Receiver};
use tree_sitter::Node;

pub(super) fn txt(node: Node<'_>, src: &[u8]) -> String {
    util::text(node, src).into_owned()
}

/// The named type at the head of a type expression: `Foo`, `*Foo`, `pkg.Foo`, `Foo[T]`,
/// `*pkg.Foo[T]`. Slices, maps, channels and function types have no head.
pub(super) fn type_head<'t>(mut node: Node<'t>, src: &[u8]) -> Option<(String, Option<String>, Node<'t>)> {
    for _ in 0..64 {
        match node.kind() {
            "pointer_type" | "parenthesized_type" => node = node.named_child(0)?,
            "generic_type" => node = node.child_by_field_name("type")?,
            "type_identifier" => return Some((txt(node, src), None, node)),
            "qualified_type" => {
                let name = node.child_by_field_name("name")?;
                let pkg = node.child_by_field_name("package").map(|p| txt(p, src));
                return Some((txt(name, src), pkg, name));
            }
            _ => return None,
        }
    }
    None
}

/// A type head's name as the file spells it: `pkg.Name` for another package's type (the
/// resolver finds it through the import), `Name` for the file's own package.
pub(super) fn qualified(name: String, pkg: Option<String>) -> String {
    match pkg {
        Some(pkg) => format!("{pkg}.{name}"),
        None => name,
    }
}

/// The name of a declared type for `type_name`/`return_type`: the head name when there is one
/// (package-qualified, see [`qualified`]), else the collapsed type text reduced by
/// `simple_type_name` (`[]Foo` → `Foo`).
pub(super) fn type_name_of(node: Node<'_>, src: &[u8]) -> Option<String> {
    if let Some((name, pkg, _)) = type_head(node, src) {
        return Some(qualified(name, pkg));
    }
    match node.kind() {
        "slice_type" | "array_type" | "implicit_length_array_type" => {
            node.child_by_field_name("element").and_then(|e| type_name_of(e, src))
        }
        "map_type" => Some("map".to_string()),
        "channel_type" => Some("chan".to_string()),
        "function_type" => Some("func".to_string()),
        "struct_type" => Some("struct".to_string()),
        "interface_type" => Some("interface".to_string()),
        _ => util::simple_type_name(&util::text(node, src)),
    }
}

/// `return_type` of a function: the first result type (`(*Store, error)` → `Store`).
pub(super) fn return_type_of(result: Node<'_>, src: &[u8]) -> Option<String> {
    if result.kind() == "parameter_list" {
        let mut cur = result.walk();
        let first = result
            .named_children(&mut cur)
            .find(|c| c.kind() == "parameter_declaration")?;
        return first.child_by_field_name("type").and_then(|t| type_name_of(t, src));
    }
    type_name_of(result, src)
}

/// A receiver variable name and its type name: `(s *Store[T])` → (`s`, `Store`).
pub(super) fn receiver_info(list: Node<'_>, src: &[u8]) -> (Option<String>, Option<String>, Vec<String>) {
    let mut cur = list.walk();
    let Some(param) = list
        .named_children(&mut cur)
        .find(|c| c.kind() == "parameter_declaration")
    else {
        return (None, None, Vec::new());
    };
    let name = param
        .child_by_field_name("name")
        .map(|n| txt(n, src))
        .filter(|n| n != "_");
    let ty = param.child_by_field_name("type");
    let type_name = ty.and_then(|t| type_head(t, src)).map(|(n, _, _)| n);
    // Type parameters named in the receiver: `(s *Stack[T])` declares T for the method.
    let mut params = Vec::new();
    let mut t = ty;
    while let Some(n) = t {
        match n.kind() {
            "pointer_type" | "parenthesized_type" => t = n.named_child(0),
            "generic_type" => {
                if let Some(args) = n.child_by_field_name("type_arguments") {
                    let mut c2 = args.walk();
                    for elem in args.named_children(&mut c2) {
                        let inner = if elem.kind() == "type_elem" {
                            elem.named_child(0)
                        } else {
                            Some(elem)
                        };
                        if let Some(i) = inner.filter(|i| i.kind() == "type_identifier") {
                            params.push(txt(i, src));
                        }
                    }
                }
                t = None;
            }
            _ => t = None,
        }
    }
    (name, type_name, params)
}

/// Names declared by a `type_parameter_list`.
pub(super) fn type_param_names(list: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = list.walk();
    for decl in list.named_children(&mut cur) {
        let mut c2 = decl.walk();
        for n in decl.children_by_field_name("name", &mut c2) {
            out.push(txt(n, src));
        }
    }
    out
}

/// Method receiver ranges, sorted by start byte (methods never nest in Go).
pub(super) struct Receivers {
    pub(super) ranges: Vec<(usize, usize, String)>,
}

impl Receivers {
    pub(super) fn at(&self, byte: usize) -> Option<&str> {
        let pos = self.ranges.partition_point(|r| r.0 <= byte);
        if pos == 0 {
            return None;
        }
        let (s, e, name) = &self.ranges[pos - 1];
        (byte >= *s && byte < *e).then_some(name.as_str())
    }
}

/// Scopes that declare type parameters: (start byte, end byte, names).
pub(super) struct Generics {
    pub(super) scopes: Vec<(usize, usize, Vec<String>)>,
}

impl Generics {
    pub(super) fn declares(&self, byte: usize, name: &str) -> bool {
        self.scopes
            .iter()
            .any(|(s, e, names)| byte >= *s && byte < *e && names.iter().any(|n| n == name))
    }
}

/// What a selector's operand says about the receiver of the selected member.
pub(super) fn receiver_of(operand: Node<'_>, src: &[u8], recv: Option<&str>) -> Receiver {
    receiver_at(operand, src, recv, 0)
}

/// `receiver_of`, `depth` calls deep into a chain (`a.B().C().D()`); deeper chains are unknown.
fn receiver_at(operand: Node<'_>, src: &[u8], recv: Option<&str>, depth: u32) -> Receiver {
    match operand.kind() {
        "identifier" => {
            let name = txt(operand, src);
            if recv == Some(name.as_str()) {
                Receiver::SelfRef
            } else {
                Receiver::Name(name)
            }
        }
        "selector_expression" => {
            let mut chain = Vec::new();
            let mut cur = operand;
            for _ in 0..10_000 {
                if cur.kind() != "selector_expression" {
                    break;
                }
                match cur.child_by_field_name("field") {
                    Some(f) => chain.push(txt(f, src)),
                    None => return Receiver::Expr,
                }
                match cur.child_by_field_name("operand") {
                    Some(o) => cur = o,
                    None => return Receiver::Expr,
                }
            }
            if cur.kind() != "identifier" {
                return Receiver::Expr;
            }
            let base = txt(cur, src);
            chain.reverse();
            if recv == Some(base.as_str()) && chain.len() == 1 {
                return Receiver::SelfField(chain.pop().unwrap_or_default());
            }
            let mut path = Vec::with_capacity(chain.len() + 1);
            path.push(base);
            path.extend(chain);
            Receiver::Path(path)
        }
        "call_expression" => match callee_node(operand) {
            Some(f) if f.kind() == "identifier" => Receiver::Call(txt(f, src)),
            // `pkg.New().M()`, `s.Next().M()`: the call's own receiver, followed.
            Some(f) if f.kind() == "selector_expression" && depth < util::MAX_CHAIN => {
                match (f.child_by_field_name("field"), f.child_by_field_name("operand")) {
                    (Some(n), Some(o)) => match receiver_at(o, src, recv, depth + 1) {
                        Receiver::Expr => Receiver::Expr,
                        inner => Receiver::Chain(Box::new(inner), txt(n, src)),
                    },
                    _ => Receiver::Expr,
                }
            }
            _ => Receiver::Expr,
        },
        // `xs[i].M()`: an element of a collection parameter, bound as `xs[]` (see `Ctx::param`).
        "index_expression" => match operand.child_by_field_name("operand") {
            Some(o) if o.kind() == "identifier" => Receiver::Name(element_name(&txt(o, src))),
            _ => Receiver::Expr,
        },
        _ => Receiver::Expr,
    }
}

/// The binding name of a collection's elements: `xs[]`, never a Go identifier.
pub(super) fn element_name(collection: &str) -> String {
    format!("{collection}[]")
}

/// The element type node of a slice, array or map type (a map's value), else None.
pub(super) fn element_type(ty: Node<'_>) -> Option<Node<'_>> {
    match ty.kind() {
        "slice_type" | "array_type" | "implicit_length_array_type" => ty.child_by_field_name("element"),
        "map_type" => ty.child_by_field_name("value"),
        _ => None,
    }
}

/// The called function of a call expression, unwrapping explicit instantiation `f[T]`.
pub(super) fn callee_node(call: Node<'_>) -> Option<Node<'_>> {
    let mut f = call.child_by_field_name("function")?;
    for _ in 0..8 {
        match f.kind() {
            "index_expression" => f = f.child_by_field_name("operand")?,
            "type_instantiation_expression" => f = f.child_by_field_name("type")?,
            "parenthesized_expression" => f = f.named_child(0)?,
            _ => break,
        }
    }
    Some(f)
}

/// Type evidence carried by an expression assigned to a name.
pub(super) fn binding_value(expr: Node<'_>, src: &[u8], recv: Option<&str>) -> Option<BindingValue> {
    let mut e = expr;
    if e.kind() == "unary_expression"
        && e.child_by_field_name("operator")
            .is_some_and(|o| util::text(o, src) == "&")
    {
        e = e.child_by_field_name("operand")?;
    }
    match e.kind() {
        "composite_literal" => {
            let (name, pkg, _) = type_head(e.child_by_field_name("type")?, src)?;
            Some(BindingValue::Type {
                name: qualified(name, pkg),
            })
        }
        "call_expression" => {
            let f = callee_node(e)?;
            match f.kind() {
                "identifier" => {
                    let name = txt(f, src);
                    if name == "new" {
                        let args = e.child_by_field_name("arguments")?;
                        let arg = args.named_child(0)?;
                        let ty = match arg.kind() {
                            "identifier" => Some(txt(arg, src)),
                            _ => type_head(arg, src).map(|(n, p, _)| qualified(n, p)),
                        }?;
                        return (!crate::names::go_builtin_type(&ty)).then_some(BindingValue::Type { name: ty });
                    }
                    if is_builtin_func(&name) {
                        return None;
                    }
                    Some(BindingValue::Call {
                        receiver: Receiver::None,
                        name,
                    })
                }
                "selector_expression" => {
                    let name = txt(f.child_by_field_name("field")?, src);
                    let receiver = receiver_of(f.child_by_field_name("operand")?, src, recv);
                    Some(BindingValue::Call { receiver, name })
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// A binding-worthy declared type: a named type, possibly behind a pointer or generic.
pub(super) fn declared_binding_type(ty: Node<'_>, src: &[u8], generics: &Generics) -> Option<String> {
    let (name, pkg, node) = type_head(ty, src)?;
    if pkg.is_none() && (crate::names::go_builtin_type(&name) || generics.declares(node.start_byte(), &name)) {
        return None;
    }
    Some(qualified(name, pkg))
}
