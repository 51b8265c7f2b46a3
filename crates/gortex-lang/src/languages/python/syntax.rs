//! What Python syntax says without the extractor's state: names (visibility, constants,
//! capitalised classes), docstrings and comments, annotations, receivers of attribute calls,
//! callees, and the type evidence of assignments and returns.

use super::*;
// ---------------------------------------------------------------------------------------------
// Small helpers

pub(super) fn visibility(name: &str) -> Visibility {
    if name.len() > 4 && name.starts_with("__") && name.ends_with("__") {
        Visibility::Public
    } else if name.starts_with('_') {
        Visibility::Private
    } else {
        Visibility::Public
    }
}

pub(super) fn is_constant_name(name: &str) -> bool {
    let core = name.trim_start_matches('_');
    core.chars().any(|c| c.is_ascii_uppercase())
        && core
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

pub(super) fn is_capitalised(name: &str) -> bool {
    name.trim_start_matches('_')
        .chars()
        .next()
        .is_some_and(|c| c.is_uppercase())
}

pub(super) fn last_segment(dotted: &str) -> &str {
    dotted.rsplit('.').next().unwrap_or(dotted).trim()
}

pub(super) fn point(node: Node<'_>) -> (u32, u32) {
    let p = node.start_position();
    (p.row as u32 + 1, p.column as u32)
}

/// Whitespace-collapsed source between two bytes, bounded so huge literals cost nothing.
pub(super) fn head(source: &[u8], start: usize, end: usize, max: usize) -> String {
    let end = end.min(source.len());
    let start = start.min(end);
    let cut = end.min(start + max * 4);
    let raw = String::from_utf8_lossy(&source[start..cut]);
    let mut s = util::collapse_whitespace(&raw);
    if cut < end && !s.ends_with('…') {
        s.push('…');
    }
    util::truncate_chars(&s, max)
}

/// The value of a string literal: prefix letters and quotes stripped.
pub(super) fn string_value(raw: &str) -> &str {
    let t = raw.trim().trim_start_matches(|c: char| c.is_ascii_alphabetic());
    for q in ["\"\"\"", "'''", "\"", "'"] {
        if let Some(inner) = t.strip_prefix(q) {
            return inner.strip_suffix(q).unwrap_or(inner);
        }
    }
    t
}

/// The first sentence of a body's docstring, if its first statement is a string.
pub(super) fn docstring(body: Option<Node<'_>>, source: &[u8]) -> Option<DocComment> {
    let body = body?;
    let mut cursor = body.walk();
    for child in body.named_children(&mut cursor) {
        match child.kind() {
            "comment" => continue,
            "expression_statement" => {
                let s = child.named_child(0)?;
                if s.kind() == "string" || s.kind() == "concatenated_string" {
                    let raw = util::text(s, source);
                    return util::doc_comment(string_value(&raw));
                }
                return None;
            }
            _ => return None,
        }
    }
    None
}

/// `# comment` lines right above a statement, as a doc summary.
pub(super) fn comment_doc(node: Node<'_>, source: &[u8]) -> Option<DocComment> {
    util::leading_comment(node, source, |k| k == "comment").and_then(|c| util::doc_comment(&c))
}

/// One type name found in an annotation: byte offset within the annotation and dotted text.
pub(super) struct AnnotName<'a> {
    pub(super) offset: usize,
    pub(super) dotted: &'a str,
    /// A builtin or `typing` name: no reference, but may still describe the type (`int`).
    pub(super) builtin: bool,
}

/// `typing` wrappers that never describe the type themselves.
pub(super) const WRAPPERS: &[&str] = &[
    "Optional",
    "Union",
    "Annotated",
    "ClassVar",
    "Final",
    "None",
    "Required",
    "NotRequired",
    "ReadOnly",
];

/// What an annotation says: the first user type (refs, bindings) and a display name for
/// `type_name`/`return_type` that falls back to builtins (`int`, `dict`).
pub(super) struct Annotation {
    pub(super) user: Option<String>,
    pub(super) display: Option<String>,
}

/// Names an annotation refers to, builtins and `typing` wrappers skipped, in order:
/// `Optional[Foo]` → Foo, `list[Foo]` → Foo, `Foo | None` → Foo, `"Foo"` → Foo,
/// `dict[str, models.Bar]` → models.Bar. `Literal[...]` contents are skipped.
pub(super) fn annotation_names(raw: &str) -> Vec<AnnotName<'_>> {
    let b = raw.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                i += 1;
            }
        } else if ident(c) {
            let start = i;
            while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                i += 1;
            }
            let tok = raw[start..i].trim_end_matches('.');
            let last = last_segment(tok);
            if last == "Literal" {
                // Skip `[ ... ]` with its strings.
                let mut j = i;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j < b.len() && b[j] == b'[' {
                    let mut depth = 0usize;
                    while j < b.len() {
                        match b[j] {
                            b'[' => depth += 1,
                            b']' => {
                                depth -= 1;
                                if depth == 0 {
                                    j += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j;
                }
                continue;
            }
            if !last.is_empty() {
                out.push(AnnotName {
                    offset: start,
                    dotted: tok,
                    builtin: SKIP_TYPES.contains(&last),
                });
            }
        } else {
            i += 1;
        }
    }
    out
}

pub(super) fn dotted_receiver(dotted: &str) -> Receiver {
    let mut parts: Vec<&str> = dotted.split('.').collect();
    parts.pop();
    match parts.len() {
        0 => Receiver::None,
        1 => Receiver::Name(parts[0].to_string()),
        _ => Receiver::Path(parts.into_iter().map(str::to_string).collect()),
    }
}

/// What `obj` in `obj.name` is.
pub(super) fn receiver_of(obj: Node<'_>, source: &[u8]) -> Receiver {
    receiver_at(obj, source, 0)
}

/// `receiver_of`, `depth` calls deep into a chain (`a.b().c().d()`); deeper chains are unknown.
pub(super) fn receiver_at(obj: Node<'_>, source: &[u8], depth: u32) -> Receiver {
    match obj.kind() {
        "identifier" => {
            let t = util::text(obj, source);
            if t == "self" || t == "cls" {
                Receiver::SelfRef
            } else {
                Receiver::Name(t.into_owned())
            }
        }
        "call" => match obj.child_by_field_name("function") {
            Some(f) if f.kind() == "identifier" => {
                let t = util::text(f, source);
                if t == "super" {
                    Receiver::Super
                } else {
                    Receiver::Call(t.into_owned())
                }
            }
            // `a.b().c()`: the call's own receiver, followed.
            Some(f) if f.kind() == "attribute" && depth < util::MAX_CHAIN => {
                match (f.child_by_field_name("attribute"), f.child_by_field_name("object")) {
                    (Some(a), Some(o)) => match receiver_at(o, source, depth + 1) {
                        Receiver::Expr => Receiver::Expr,
                        inner => Receiver::Chain(Box::new(inner), util::text(a, source).into_owned()),
                    },
                    _ => Receiver::Expr,
                }
            }
            _ => Receiver::Expr,
        },
        "attribute" => {
            let mut parts = Vec::new();
            let mut cur = obj;
            loop {
                match cur.kind() {
                    "attribute" => {
                        let (Some(o), Some(a)) =
                            (cur.child_by_field_name("object"), cur.child_by_field_name("attribute"))
                        else {
                            return Receiver::Expr;
                        };
                        parts.push(util::text(a, source).into_owned());
                        cur = o;
                    }
                    "identifier" => {
                        let t = util::text(cur, source);
                        if (t == "self" || t == "cls") && parts.len() == 1 {
                            return Receiver::SelfField(parts.remove(0));
                        }
                        // `self.a.b.m()`: a path from the instance (`self` heads it).
                        parts.push(t.into_owned());
                        parts.reverse();
                        return Receiver::Path(parts);
                    }
                    _ => return Receiver::Expr,
                }
            }
        }
        _ => Receiver::Expr,
    }
}

/// A callee's simple name and receiver: `foo` / `a.b.foo`.
pub(super) fn callee<'t>(function: Node<'t>, source: &[u8]) -> Option<(Node<'t>, String, Receiver)> {
    match function.kind() {
        "identifier" => Some((function, util::text(function, source).into_owned(), Receiver::None)),
        "attribute" => {
            let attr = function.child_by_field_name("attribute")?;
            let obj = function.child_by_field_name("object")?;
            Some((attr, util::text(attr, source).into_owned(), receiver_of(obj, source)))
        }
        _ => None,
    }
}

/// The class an unannotated function evidently returns: every `return` with a value (outside
/// nested functions, classes and lambdas) constructs the same class by its bare name (`return
/// Session()`), or — in a method — returns `self` or `cls(…)` (the enclosing class).
pub(super) fn inferred_return(body: Node<'_>, class: Option<&str>, source: &[u8]) -> Option<String> {
    let mut found: Option<String> = None;
    let mut stack = vec![body];
    let mut visited = 0u32;
    while let Some(n) = stack.pop() {
        visited += 1;
        if visited > 20_000 {
            return None;
        }
        match n.kind() {
            "function_definition" | "class_definition" | "lambda" => continue,
            "return_statement" => {
                let Some(v) = n.named_child(0) else { continue };
                let name = match v.kind() {
                    "none" => continue,
                    "identifier" if util::text(v, source) == "self" => class?.to_string(),
                    "call" => {
                        let f = v.child_by_field_name("function")?;
                        let t = util::text(f, source);
                        match f.kind() {
                            "identifier" if t == "cls" => class?.to_string(),
                            "identifier" if is_capitalised(&t) => t.into_owned(),
                            _ => return None,
                        }
                    }
                    _ => return None,
                };
                match &found {
                    Some(f) if *f != name => return None,
                    _ => found = Some(name),
                }
            }
            _ => {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
            }
        }
    }
    found
}

/// Type evidence from an assigned value: `Foo()` → Type, `mod.Foo()` and `f.make()` → Call
/// (the resolver follows the receiver to the class or the function's return type).
pub(super) fn value_binding(value: Node<'_>, source: &[u8]) -> Option<BindingValue> {
    let (name, receiver) = called(value, source)?;
    if is_capitalised(&name) && receiver == Receiver::None {
        Some(BindingValue::Type { name })
    } else {
        Some(BindingValue::Call { receiver, name })
    }
}

/// The class an assigned value constructs, by its last name (`Foo()`, `mod.Foo()`): a field's or
/// parameter's type name.
pub(super) fn constructed_type(value: Node<'_>, source: &[u8]) -> Option<String> {
    let (name, receiver) = called(value, source)?;
    let on_self = matches!(receiver, Receiver::SelfRef | Receiver::SelfField(_) | Receiver::Super);
    (is_capitalised(&name) && !on_self).then_some(name)
}

/// The class a value names, not calls (`Client`, `client.Client`): its last segment when that is
/// capitalised and not a CONSTANT.
pub(super) fn class_named(value: Node<'_>, source: &[u8]) -> Option<String> {
    if !matches!(value.kind(), "identifier" | "attribute") {
        return None;
    }
    let name = last_segment(&util::text(value, source)).to_string();
    (is_capitalised(&name) && name.chars().any(|c| c.is_lowercase())).then_some(name)
}

/// The callee's name and receiver of a (possibly awaited) call.
pub(super) fn called(value: Node<'_>, source: &[u8]) -> Option<(String, Receiver)> {
    let value = if value.kind() == "await" {
        value.named_child(0)?
    } else {
        value
    };
    if value.kind() != "call" {
        return None;
    }
    let function = value.child_by_field_name("function")?;
    let (_, name, receiver) = callee(function, source)?;
    Some((name, receiver))
}

/// String literals in a list/tuple/set (or `a + b` of them) into `out`.
pub(super) fn collect_strings(node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
    let mut parts = vec![node];
    if node.kind() == "binary_operator" {
        parts = [node.child_by_field_name("left"), node.child_by_field_name("right")]
            .into_iter()
            .flatten()
            .collect();
    }
    for p in parts {
        if !matches!(p.kind(), "list" | "tuple" | "set" | "parenthesized_expression") {
            continue;
        }
        let mut cursor = p.walk();
        for item in p.named_children(&mut cursor) {
            if item.kind() == "string" {
                out.push(string_value(&util::text(item, source)).to_string());
            }
        }
    }
}

/// True when the import sits under `if TYPE_CHECKING:` (a few statement levels up at most).
pub(super) fn under_type_checking(node: Node<'_>, source: &[u8]) -> bool {
    let mut cur = node.parent();
    for _ in 0..6 {
        let Some(n) = cur else {
            return false;
        };
        if n.kind() == "if_statement" {
            return n
                .child_by_field_name("condition")
                .is_some_and(|c| last_segment(&util::text(c, source)) == "TYPE_CHECKING");
        }
        if matches!(n.kind(), "module" | "function_definition" | "class_definition") {
            return false;
        }
        cur = n.parent();
    }
    false
}

pub(super) fn is_test_path(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    base == "conftest.py" || (base.starts_with("test_") && base.ends_with(".py")) || base.ends_with("_test.py")
}
