//! What TypeScript/JavaScript types say: type annotations and their names, the type evidence of
//! bindings (declared, constructed, returned, handed to a callback), type references, and the
//! receivers of member calls.

use super::*;

impl Run<'_> {
    /// `x = new Foo()` → Type Foo; `x = store.open()` / `await store.open()` → Call.
    pub(super) fn binding_value(&self, value: Node<'_>) -> Option<BindingValue> {
        let src = self.src;
        let mut v = value;
        while matches!(
            v.kind(),
            "await_expression" | "parenthesized_expression" | "non_null_expression"
        ) {
            v = v.named_child(0)?;
        }
        match v.kind() {
            "new_expression" => new_type(v, src).map(|name| BindingValue::Type { name }),
            "call_expression" => {
                let callee = v.child_by_field_name("function")?;
                match callee.kind() {
                    "identifier" => {
                        let name = txt(callee, src);
                        (name != "require").then_some(BindingValue::Call {
                            receiver: Receiver::None,
                            name,
                        })
                    }
                    "member_expression" => {
                        let name = member_name(callee.child_by_field_name("property")?, src)?;
                        let receiver = receiver_of(callee.child_by_field_name("object")?, src);
                        Some(BindingValue::Call { receiver, name })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Return annotation → Returns; parameter annotations → TypedAs plus a binding. A parameter
    /// without one is bound by its default value (`visited = new Map()`) or, for a callback
    /// passed to a call, by the callee's parameter it fills (`Callback`); a declared function's
    /// callback-typed parameter records its callback's parameter types (`@arg.param`).
    pub(super) fn function_types(&mut self, func: Node<'_>) {
        let src = self.src;
        if let Some(t) = func.child_by_field_name("return_type") {
            self.type_refs(t, EdgeKind::Returns);
        }
        let callback = self.callback_site(func);
        // `x => …`: one parameter, no parentheses.
        if let Some(p) = func.child_by_field_name("parameter") {
            if let (Some((receiver, callee, arg)), "identifier") = (callback, p.kind()) {
                let value = BindingValue::Callback {
                    receiver,
                    callee,
                    arg,
                    param: 0,
                };
                self.push_binding(txt(p, src), value, p);
            }
            return;
        }
        let Some(params) = func.child_by_field_name("parameters") else {
            return;
        };
        let declared = declares_callable(func);
        let mut index = 0u32;
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            if p.kind() != "required_parameter" && p.kind() != "optional_parameter" {
                continue;
            }
            let pattern = p.child_by_field_name("pattern");
            if pattern.is_some_and(|x| x.kind() == "this") {
                continue; // `this: T` declares the receiver, not an argument
            }
            let position = index;
            index += 1;
            let ident = pattern.filter(|x| x.kind() == "identifier");
            let Some(ann) = p.child_by_field_name("type") else {
                let Some(pat) = ident else { continue };
                let value = match (p.child_by_field_name("value"), &callback) {
                    (Some(v), _) => self.binding_value(v),
                    (None, Some((receiver, callee, arg))) => Some(BindingValue::Callback {
                        receiver: receiver.clone(),
                        callee: callee.clone(),
                        arg: *arg,
                        param: position,
                    }),
                    (None, None) => None,
                };
                if let Some(value) = value {
                    self.push_binding(txt(pat, src), value, pat);
                }
                continue;
            };
            self.type_refs(ann, EdgeKind::TypedAs);
            if declared {
                self.callback_param_types(ann, position, p);
            }
            let Some(pat) = ident else {
                continue;
            };
            if let Some(tn) =
                type_simple(ann, src, false).filter(|n| !is_primitive_name(n) && !self.type_params.contains(n))
            {
                self.push_binding(txt(pat, src), BindingValue::Type { name: tn }, pat);
            }
        }
    }

    /// The call a function expression is an argument of: the callee's receiver and name, and
    /// the argument's position (`operate((source, subscriber) => …)`, `new Observable(s => …)`).
    pub(super) fn callback_site(&self, func: Node<'_>) -> Option<(Receiver, String, u32)> {
        if !matches!(func.kind(), "arrow_function" | "function_expression" | "function") {
            return None;
        }
        let args = func.parent().filter(|a| a.kind() == "arguments")?;
        let mut cursor = args.walk();
        let arg = args.named_children(&mut cursor).position(|a| a.id() == func.id())? as u32;
        let call = args.parent()?;
        let callee = match call.kind() {
            "call_expression" => call.child_by_field_name("function")?,
            "new_expression" => call.child_by_field_name("constructor")?,
            _ => return None,
        };
        match callee.kind() {
            "identifier" => Some((Receiver::None, txt(callee, self.src), arg)),
            "member_expression" => {
                let name = member_name(callee.child_by_field_name("property")?, self.src)?;
                let receiver = receiver_of(callee.child_by_field_name("object")?, self.src);
                (receiver != Receiver::Expr).then_some((receiver, name, arg))
            }
            _ => None,
        }
    }

    /// For parameter `position` typed as a function (`init: (source: Observable<T>, subscriber:
    /// Subscriber<R>) => void`), bindings `@position.k` to the types of its parameters: what a
    /// callback passed there receives.
    pub(super) fn callback_param_types(&mut self, ann: Node<'_>, position: u32, at: Node<'_>) {
        let src = self.src;
        let Some(mut ty) = annotation_type(ann) else { return };
        // `((…) => R) | undefined`: the function member of a union, through parentheses.
        for _ in 0..4 {
            ty = match ty.kind() {
                "parenthesized_type" => match ty.named_child(0) {
                    Some(inner) => inner,
                    None => return,
                },
                "union_type" => {
                    let mut cursor = ty.walk();
                    let member = ty.named_children(&mut cursor).find(|m| {
                        m.kind() == "function_type"
                            || (m.kind() == "parenthesized_type"
                                && m.named_child(0).is_some_and(|i| i.kind() == "function_type"))
                    });
                    match member {
                        Some(m) => m,
                        None => return,
                    }
                }
                _ => break,
            };
        }
        if ty.kind() != "function_type" {
            return;
        }
        let Some(params) = ty.child_by_field_name("parameters") else {
            return;
        };
        let mut k = 0u32;
        let mut cursor = params.walk();
        for fp in params.named_children(&mut cursor) {
            if fp.kind() != "required_parameter" && fp.kind() != "optional_parameter" {
                continue;
            }
            if fp.child_by_field_name("pattern").is_some_and(|x| x.kind() == "this") {
                continue;
            }
            let param = k;
            k += 1;
            let Some(t) = fp.child_by_field_name("type") else {
                continue;
            };
            if let Some(tn) =
                type_simple(t, src, false).filter(|n| !is_primitive_name(n) && !self.type_params.contains(n))
            {
                self.push_binding(format!("@{position}.{param}"), BindingValue::Type { name: tn }, at);
            }
        }
    }

    /// Name and receiver of a type name node (`Foo`, `ns.Foo`).
    pub(super) fn type_target(&self, node: Node<'_>) -> Option<(String, Receiver)> {
        self.type_target_of(node, false)
    }

    /// `type_target`, keeping the global utility/wrapper names when `heritage` (an interface
    /// extending `Set<T>` or `ReadonlyMap<K, V>` is rare and names the code's own where a
    /// namespace declares one, as TypeScript's compiler does).
    pub(super) fn type_target_of(&self, node: Node<'_>, heritage: bool) -> Option<(String, Receiver)> {
        let src = self.src;
        match node.kind() {
            "type_identifier" | "identifier" => {
                let n = txt(node, src);
                (!self.type_params.contains(&n) && (heritage || !is_builtin_type(&n))).then_some((n, Receiver::None))
            }
            "nested_type_identifier" => {
                let name = txt(node.child_by_field_name("name")?, src);
                let module = node.child_by_field_name("module")?;
                let parts: Vec<String> = util::text(module, src)
                    .split('.')
                    .map(|s| s.trim().to_string())
                    .collect();
                let recv = if parts.len() == 1 {
                    Receiver::Name(parts[0].clone())
                } else {
                    Receiver::Path(parts)
                };
                Some((name, recv))
            }
            _ => None,
        }
    }

    /// Every type name inside a type expression (walked with a cursor, no recursion).
    pub(super) fn type_refs(&mut self, node: Node<'_>, kind: EdgeKind) {
        let mut found: Vec<(String, Receiver, Node<'_>)> = Vec::new();
        let mut cursor = node.walk();
        'walk: loop {
            let n = cursor.node();
            let descend = match n.kind() {
                "type_identifier" => {
                    if let Some((name, recv)) = self.type_target(n) {
                        found.push((name, recv, n));
                    }
                    false
                }
                "nested_type_identifier" => {
                    if let Some((name, recv)) = self.type_target(n) {
                        found.push((name, recv, n));
                    }
                    false
                }
                // `typeof x` names a value; type parameter lists declare names.
                "type_query" | "type_parameters" | "predefined_type" | "literal_type" => false,
                _ => true,
            };
            if descend && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node().id() == node.id() {
                    break 'walk;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        for (name, recv, at) in found {
            self.push_ref(kind, name, recv, at);
        }
    }

    /// Name and receiver of an expression used as a class/constructor target: `Foo`, `ns.Foo`,
    /// `a.b.Foo`.
    pub(super) fn expr_target(&self, node: Node<'_>) -> Option<(String, Receiver)> {
        let src = self.src;
        match node.kind() {
            "identifier" | "type_identifier" => Some((txt(node, src), Receiver::None)),
            "member_expression" => {
                let name = member_name(node.child_by_field_name("property")?, src)?;
                Some((name, receiver_of(node.child_by_field_name("object")?, src)))
            }
            "call_expression" => {
                // `@Component({…})` decorators and `new (factory())()`: the callee.
                let f = node.child_by_field_name("function")?;
                if f.kind() == "call_expression" {
                    return None;
                }
                self.expr_target(f)
            }
            "parenthesized_expression" | "non_null_expression" | "instantiation_expression" => {
                self.expr_target(node.named_child(0)?)
            }
            _ => None,
        }
    }
}

/// The type node inside a `type_annotation` (or the node itself).
pub(super) fn annotation_type(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "type_annotation" | "opting_type_annotation" | "omitting_type_annotation" | "adding_type_annotation" => {
            node.named_child(0)
        }
        _ => Some(node),
    }
}

/// Simple type name of an annotation: generics stripped, `Promise<T>` unwrapped to `T`.
pub(super) fn type_simple(node: Node<'_>, src: &[u8], unwrap_promise: bool) -> Option<String> {
    let ty = annotation_type(node)?;
    match ty.kind() {
        "type_predicate_annotation" | "type_predicate" | "asserts_annotation" | "asserts" => {
            return Some("boolean".to_string())
        }
        "predefined_type" => return Some(txt(ty, src)),
        "generic_type" if unwrap_promise => {
            let name = ty.child_by_field_name("name").map(|n| txt(n, src)).unwrap_or_default();
            if name == "Promise" || name == "PromiseLike" {
                if let Some(arg) = ty.child_by_field_name("type_arguments").and_then(|a| a.named_child(0)) {
                    return type_simple(arg, src, false);
                }
            }
        }
        _ => {}
    }
    // A namespace's or module's type keeps its qualifier (`textChanges.ChangeTracker`): the
    // resolver looks the head up like a receiver; the last segment alone may name another type.
    let named = if ty.kind() == "generic_type" {
        ty.child_by_field_name("name")
    } else {
        Some(ty)
    };
    if let Some(nested) = named.filter(|n| n.kind() == "nested_type_identifier") {
        return Some(txt(nested, src).split_whitespace().collect());
    }
    util::simple_type_name(&util::text(ty, src))
}

/// TypeScript's global utility/wrapper types: never reported as type references.
pub(super) fn is_builtin_type(name: &str) -> bool {
    matches!(
        name,
        "Array"
            | "ReadonlyArray"
            | "Promise"
            | "PromiseLike"
            | "Record"
            | "Partial"
            | "Required"
            | "Readonly"
            | "Pick"
            | "Omit"
            | "Exclude"
            | "Extract"
            | "NonNullable"
            | "ReturnType"
            | "Parameters"
            | "InstanceType"
            | "Awaited"
            | "Map"
            | "Set"
            | "ReadonlyMap"
            | "ReadonlySet"
            | "WeakMap"
            | "WeakSet"
            | "Iterable"
            | "Iterator"
            | "IterableIterator"
            | "AsyncIterable"
            | "AsyncIterator"
            | "Generator"
            | "AsyncGenerator"
            | "Function"
            | "Object"
            | "String"
            | "Number"
            | "Boolean"
            | "Symbol"
            | "BigInt"
            | "Date"
            | "RegExp"
            | "Error"
            | "Uppercase"
            | "Lowercase"
            | "Capitalize"
            | "Uncapitalize"
            | "ThisType"
            | "ConstructorParameters"
    )
}

pub(super) fn is_primitive_name(name: &str) -> bool {
    matches!(
        name,
        "string"
            | "number"
            | "boolean"
            | "any"
            | "unknown"
            | "void"
            | "never"
            | "object"
            | "symbol"
            | "bigint"
            | "undefined"
            | "null"
    )
}

/// What a member access was made on.
pub(super) fn receiver_of(obj: Node<'_>, src: &[u8]) -> Receiver {
    receiver_at(obj, src, 0)
}

/// `receiver_of`, `depth` calls deep into a chain (`a.b().c().d()`); deeper chains are unknown.
pub(super) fn receiver_at(obj: Node<'_>, src: &[u8], depth: u32) -> Receiver {
    let mut obj = obj;
    while matches!(obj.kind(), "parenthesized_expression" | "non_null_expression") {
        match obj.named_child(0) {
            Some(inner) => obj = inner,
            None => return Receiver::Expr,
        }
    }
    match obj.kind() {
        "this" => Receiver::SelfRef,
        "super" => Receiver::Super,
        "identifier" => Receiver::Name(txt(obj, src)),
        // `new Foo().m()`: an instance of what calling `Foo` constructs.
        "new_expression" => called_receiver(obj.child_by_field_name("constructor"), src, depth),
        "member_expression" => {
            let mut parts = Vec::new();
            let mut cur = obj;
            for _ in 0..64 {
                match cur.kind() {
                    "member_expression" => {
                        let Some(prop) = cur.child_by_field_name("property").and_then(|p| member_name(p, src)) else {
                            return Receiver::Expr;
                        };
                        parts.push(prop);
                        match cur.child_by_field_name("object") {
                            Some(o) => cur = o,
                            None => return Receiver::Expr,
                        }
                    }
                    "non_null_expression" => match cur.named_child(0) {
                        Some(o) => cur = o,
                        None => return Receiver::Expr,
                    },
                    "identifier" => {
                        parts.push(txt(cur, src));
                        parts.reverse();
                        return Receiver::Path(parts);
                    }
                    "this" if parts.len() == 1 => return Receiver::SelfField(parts.pop().unwrap_or_default()),
                    // `this.a.b.m()`: a path from the instance (`this` heads it).
                    "this" => {
                        parts.push("this".to_string());
                        parts.reverse();
                        return Receiver::Path(parts);
                    }
                    _ => return Receiver::Expr,
                }
            }
            Receiver::Expr
        }
        "call_expression" => called_receiver(obj.child_by_field_name("function"), src, depth),
        _ => Receiver::Expr,
    }
}

/// The result of calling `callee` (`make()`, `a.b().c()`, `new ns.Foo()`): `Call` for a bare name,
/// else a `Chain` link on the callee's own receiver, `depth` links deep.
pub(super) fn called_receiver(callee: Option<Node<'_>>, src: &[u8], depth: u32) -> Receiver {
    match callee {
        Some(f) if f.kind() == "identifier" => Receiver::Call(txt(f, src)),
        Some(f) if f.kind() == "member_expression" && depth < util::MAX_CHAIN => {
            let name = f.child_by_field_name("property").and_then(|p| member_name(p, src));
            match (name, f.child_by_field_name("object")) {
                (Some(n), Some(o)) => match receiver_at(o, src, depth + 1) {
                    Receiver::Expr => Receiver::Expr,
                    inner => Receiver::Chain(Box::new(inner), n),
                },
                _ => Receiver::Expr,
            }
        }
        _ => Receiver::Expr,
    }
}

/// Whether a function node declares a named callable whose parameters callers fill: a function
/// or method (with or without a body), or a function expression a `const` holds.
pub(super) fn declares_callable(func: Node<'_>) -> bool {
    match func.kind() {
        "arrow_function" | "function_expression" | "function" => {
            func.parent().is_some_and(|p| p.kind() == "variable_declarator")
        }
        _ => true,
    }
}

/// The constructor named by `new Foo()` / `new ns.Foo<T>()`.
pub(super) fn new_type(value: Node<'_>, src: &[u8]) -> Option<String> {
    if value.kind() != "new_expression" {
        return None;
    }
    let ctor = value.child_by_field_name("constructor")?;
    match ctor.kind() {
        "identifier" => Some(txt(ctor, src)),
        "member_expression" => member_name(ctor.child_by_field_name("property")?, src),
        _ => None,
    }
}
