//! A function's shape for inlining: its parameters, its one expression, where parameters and free
//! names occur in it, and what in it would change meaning at a call site.

use super::*;
use std::collections::HashMap;

/// Node kinds that are one operand as they stand (substituted without parentheses).
pub(super) fn is_primary(kind: &str) -> bool {
    matches!(
        kind,
        "identifier"
            | "number"
            | "string"
            | "template_string"
            | "true"
            | "false"
            | "null"
            | "undefined"
            | "none"
            | "nil"
            | "integer"
            | "float"
            | "int_literal"
            | "float_literal"
            | "interpreted_string_literal"
            | "raw_string_literal"
            | "rune_literal"
            | "string_literal"
            | "character_literal"
            | "char_literal"
            | "decimal_integer_literal"
            | "decimal_floating_point_literal"
            | "integer_literal"
            | "boolean_literal"
            | "null_literal"
            | "call_expression"
            | "call"
            | "method_invocation"
            | "member_expression"
            | "attribute"
            | "selector_expression"
            | "field_access"
            | "field_expression"
            | "parenthesized_expression"
            | "subscript_expression"
            | "subscript"
            | "index_expression"
            | "array"
            | "list"
            | "dictionary"
            | "tuple"
            | "object"
            | "this"
            | "self"
            | "scoped_identifier"
            | "concatenated_string"
            | "composite_literal"
            | "type_identifier"
    )
}

/// Literal node kinds (numbers, strings, booleans, null) across the grammars.
pub(super) fn is_literal(kind: &str) -> bool {
    kind.contains("literal") && !kind.contains("composite")
        || matches!(
            kind,
            "number" | "integer" | "float" | "string" | "true" | "false" | "none" | "null" | "nil" | "undefined"
        )
}

/// Arguments that may be copied more than once or not at all: names, literals, member chains.
pub(super) fn is_pure(family: Family, node: Node<'_>, source: &[u8]) -> bool {
    descendants(node).iter().all(|n| {
        let k = n.kind();
        !(k.contains("call")
            || k == "method_invocation"
            || k.contains("new")
            || k.contains("assignment")
            || k.contains("update")
            || k.contains("await")
            || k.contains("yield")
            || k.contains("lambda")
            || k.contains("function")
            || k.contains("arrow")
            || k.contains("closure")
            || k.contains("macro")
            || k == "unary_expression" && family == Family::Go && text(*n, source).starts_with("<-"))
    })
}

/// Nodes whose presence in the inlined expression would change meaning at the call site.
fn meaning_changer(family: Family, node: Node<'_>, source: &[u8]) -> Option<&'static str> {
    let k = node.kind();
    match family {
        Family::Ecma => match k {
            "this" | "super" => Some("uses `this`/`super`, which would bind to the caller"),
            "meta_property" => Some("uses new.target/import.meta"),
            "assignment_expression" | "augmented_assignment_expression" | "update_expression" => {
                Some("assigns (a side effect)")
            }
            "await_expression" | "yield_expression" => Some("awaits or yields"),
            "identifier" if text(node, source) == "arguments" => Some("uses `arguments`"),
            _ => None,
        },
        Family::Python => match k {
            "named_expression" => Some("assigns with := (a side effect)"),
            "await" | "yield" => Some("awaits or yields"),
            "identifier" if matches!(text(node, source), "locals" | "globals" | "vars" | "super") => {
                Some("inspects its own frame (locals/globals/vars/super)")
            }
            _ => None,
        },
        Family::Go => match k {
            "unary_expression" if text(node, source).starts_with("<-") => {
                Some("receives from a channel (a side effect)")
            }
            "func_literal" => Some("builds a closure"),
            "identifier" if matches!(text(node, source), "recover") => {
                Some("calls recover, which depends on the frame")
            }
            _ => None,
        },
        Family::Java => match k {
            "this" | "super" => Some("uses `this`/`super`"),
            "assignment_expression" | "update_expression" => Some("assigns (a side effect)"),
            "lambda_expression" => Some("builds a lambda (captured variables must be effectively final)"),
            "switch_expression" => Some("holds a switch expression (yield)"),
            _ => None,
        },
        Family::Rust => match k {
            "self" => Some("uses `self`"),
            "assignment_expression" | "compound_assignment_expr" => Some("assigns (a side effect)"),
            "try_expression" => Some("uses `?`, which returns early"),
            "return_expression" | "break_expression" | "continue_expression" => Some("returns or breaks early"),
            "await_expression" => Some("awaits"),
            "closure_expression" => Some("builds a closure"),
            "macro_invocation" if text(node, source).contains('{') && text(node, source).contains('"') => {
                Some("holds a macro with a format string (captured names cannot be substituted)")
            }
            _ => None,
        },
    }
}

/// The function declared on `line` (1-based): the smallest function node starting there.
fn function_at<'t>(p: &'t Parsed<'_>, line: usize) -> Option<Node<'t>> {
    let kinds: &[&str] = match p.family {
        Family::Ecma => &[
            "function_declaration",
            "method_definition",
            "variable_declarator",
            "function_signature",
        ],
        Family::Python => &["function_definition"],
        Family::Go => &["function_declaration", "method_declaration"],
        Family::Java => &["method_declaration", "constructor_declaration"],
        Family::Rust => &["function_item"],
    };
    descendants(p.tree.root_node())
        .into_iter()
        .filter(|n| kinds.contains(&n.kind()))
        .filter(|n| {
            let first = n.start_position().row + 1;
            // Decorators, annotations and doc comments sit above the name line.
            let name_line = n
                .child_by_field_name("name")
                .map(|x| x.start_position().row + 1)
                .unwrap_or(first);
            first == line || name_line == line
        })
        .min_by_key(|n| n.byte_range().len())
}

struct Param {
    name: String,
    ty: Option<String>,
}

/// Parameters of `f`, or why they cannot be substituted.
fn params_of(p: &Parsed<'_>, f: Node<'_>) -> Result<Vec<Param>, String> {
    let src = p.source;
    let list = f.child_by_field_name("parameters").ok_or("it has no parameter list")?;
    let mut out = Vec::new();
    for c in code_children(list) {
        let ty = c
            .child_by_field_name("type")
            .map(|t| text(t, src).trim_start_matches(':').trim().to_string());
        match (p.family, c.kind()) {
            (Family::Ecma, "identifier") => out.push(Param { name: text(c, src).into(), ty: None }),
            (Family::Ecma, "required_parameter") => {
                let pat = c.child_by_field_name("pattern").ok_or("a parameter without a name")?;
                if pat.kind() != "identifier" || c.child_by_field_name("value").is_some() {
                    return Err(format!("parameter `{}` is destructured or has a default", text(c, src)));
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).trim_start_matches(':').trim().to_string());
                out.push(Param { name: text(pat, src).into(), ty });
            }
            (Family::Python, "identifier") => out.push(Param { name: text(c, src).into(), ty: None }),
            (Family::Python, "typed_parameter") => {
                let id = code_children(c).into_iter().find(|x| x.kind() == "identifier").ok_or("a typed parameter without a name")?;
                out.push(Param { name: text(id, src).into(), ty });
            }
            (Family::Go, "parameter_declaration") => {
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                let mut cursor = c.walk();
                let names: Vec<_> = c.children_by_field_name("name", &mut cursor).collect();
                if names.is_empty() {
                    return Err("a parameter has no name".into());
                }
                for n in names {
                    out.push(Param { name: text(n, src).into(), ty: ty.clone() });
                }
            }
            (Family::Java, "formal_parameter") => {
                let name = c.child_by_field_name("name").ok_or("a parameter without a name")?;
                if c.child_by_field_name("dimensions").is_some() {
                    return Err("a parameter uses C-style array dimensions".into());
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                out.push(Param { name: text(name, src).into(), ty });
            }
            (Family::Rust, "parameter") => {
                let pat = c.child_by_field_name("pattern").ok_or("a parameter without a pattern")?;
                if pat.kind() != "identifier" {
                    return Err(format!("parameter `{}` is a pattern (mut, tuple, struct)", text(c, src)));
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                out.push(Param { name: text(pat, src).into(), ty });
            }
            (Family::Rust, "self_parameter") => return Err("it is a method (self)".into()),
            (_, k) => return Err(format!("parameter `{}` ({k}) is not a plain name: defaults, rest/variadic, keyword-only and destructured parameters are not inlined", text(c, src))),
        }
    }
    Ok(out)
}

/// The body's one statement, unwrapping blocks and statement lists; a leading docstring is skipped.
fn single_statement<'t>(family: Family, body: Node<'t>, source: &[u8]) -> Result<Node<'t>, String> {
    let mut stmts = code_children(body);
    if stmts.len() == 1 && stmts[0].kind() == "statement_list" {
        stmts = code_children(stmts[0]);
    }
    if family == Family::Python && stmts.len() > 1 {
        let first = stmts[0];
        let doc = first.kind() == "expression_statement"
            && code_children(first).first().is_some_and(|c| c.kind() == "string");
        if doc {
            stmts.remove(0);
        }
    }
    let _ = source;
    match stmts.len() {
        0 => Err("its body is empty".into()),
        1 => Ok(stmts[0]),
        n => Err(format!(
            "its body has {n} statements (only a single return or expression is inlined)"
        )),
    }
}

pub(super) fn callable_facts(p: &Parsed<'_>, line: usize) -> Result<Value, String> {
    let src = p.source;
    let f = function_at(p, line).ok_or_else(|| format!("no function is declared on line {line}"))?;
    let fam = p.family;
    // The declaration node that owns the function (for arrow functions bound to a const).
    let (func, name) = match (fam, f.kind()) {
        (Family::Ecma, "variable_declarator") => {
            let value = f
                .child_by_field_name("value")
                .filter(|v| v.kind() == "arrow_function" || v.kind() == "function_expression");
            let value = value.ok_or("it is a variable, not a function")?;
            (value, f.child_by_field_name("name").map(|n| text(n, src)).unwrap_or(""))
        }
        (Family::Ecma, "method_definition") | (Family::Go, "method_declaration") => {
            return Err("it is a method: its receiver would bind differently at each call site".into());
        }
        (Family::Java, "constructor_declaration") => return Err("it is a constructor".into()),
        (Family::Ecma, "function_signature") => return Err("it is an overload signature without a body".into()),
        _ => (f, f.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("")),
    };
    let head = text(func, src);
    let body = func.child_by_field_name("body").ok_or("it has no body")?;
    let head_text = &head[..(body.start_byte() - func.start_byte()).min(head.len())];
    let before = &src[f.start_byte().saturating_sub(0)..body.start_byte()];
    let before = std::str::from_utf8(before).unwrap_or("");
    // Modifiers that change what a call means.
    match fam {
        Family::Ecma => {
            if head_text.contains("async") || head_text.contains('*') && func.kind() != "arrow_function" {
                return Err("it is async or a generator".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic (type arguments at call sites are not carried over)".into());
            }
        }
        Family::Python => {
            if f.parent().is_some_and(|x| x.kind() == "decorated_definition") {
                return Err("it is decorated (the decorator changes what a call does)".into());
            }
            if before.trim_start().starts_with("async")
                || f.parent()
                    .and_then(|b| b.parent())
                    .is_some_and(|c| c.kind() == "class_definition")
            {
                return Err(if before.trim_start().starts_with("async") {
                    "it is async".into()
                } else {
                    "it is a method: self/cls would bind differently at each call site".into()
                });
            }
        }
        Family::Go => {
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
        }
        Family::Java => {
            let modifiers = code_children(func)
                .into_iter()
                .find(|c| c.kind() == "modifiers")
                .map(|m| text(m, src))
                .unwrap_or("");
            if !modifiers.split_whitespace().any(|w| w == "static") {
                return Err(
                    "it is an instance method: only static methods are inlined (the receiver would bind differently)"
                        .into(),
                );
            }
            if modifiers.contains("synchronized") {
                return Err("it is synchronized".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
        }
        Family::Rust => {
            if head_text.contains("async ")
                || head_text.contains("const fn")
                || head_text.contains("unsafe ")
                || head_text.contains("extern ")
            {
                return Err("it is async, const, unsafe or extern".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
            if f.parent().is_some_and(|x| x.kind() == "declaration_list")
                && f.parent()
                    .and_then(|x| x.parent())
                    .is_some_and(|x| x.kind() == "impl_item" || x.kind() == "trait_item")
            {
                return Err("it is an associated function (called through its type)".into());
            }
        }
    }
    let params = params_of(p, func)?;
    if let Some(dup) = params
        .iter()
        .enumerate()
        .find(|(i, a)| params[..*i].iter().any(|b| b.name == a.name))
    {
        return Err(format!("parameter {} is declared twice", dup.1.name));
    }
    let return_type = match fam {
        Family::Ecma => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).trim_start_matches(':').trim().to_string()),
        Family::Python => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).to_string()),
        Family::Go => func.child_by_field_name("result").map(|t| text(t, src).to_string()),
        Family::Java => func
            .child_by_field_name("type")
            .map(|t| text(t, src).to_string())
            .filter(|t| t != "void"),
        Family::Rust => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).to_string()),
    };
    // The one expression: an arrow's expression body, `return e`, or an expression statement.
    let (expr, returns) = if body.kind() != "statement_block" && fam == Family::Ecma {
        (body, true)
    } else {
        let stmt = single_statement(fam, body, src)?;
        match stmt.kind() {
            "return_statement" | "return_expression" => {
                let values = code_children(stmt);
                let values = if values.len() == 1 && values[0].kind() == "expression_list" {
                    code_children(values[0])
                } else {
                    values
                };
                match values.len() {
                    0 => return Err("it returns nothing (a bare return)".into()),
                    1 => (values[0], true),
                    n => return Err(format!("it returns {n} values")),
                }
            }
            "expression_statement" => {
                let inner = code_children(stmt);
                let e = *inner.first().ok_or("an empty statement")?;
                if e.kind() == "return_expression" {
                    let v = code_children(e);
                    (*v.first().ok_or("it returns nothing (a bare return)")?, true)
                } else if fam == Family::Rust && !text(stmt, src).trim_end().ends_with(';') {
                    (e, return_type.is_some())
                } else {
                    (e, false)
                }
            }
            k if fam == Family::Rust
                && !k.ends_with("statement")
                && !k.ends_with("_item")
                && k != "let_declaration" =>
            {
                (stmt, return_type.is_some())
            }
            k => return Err(format!("its body is a {k}, not a single return or expression")),
        }
    };
    if fam == Family::Go && returns && return_type.as_deref().is_some_and(|t| t.starts_with('(')) {
        return Err("it has named or multiple results".into());
    }
    let nodes = descendants(expr);
    if let Some(reason) = nodes.iter().find_map(|n| meaning_changer(fam, *n, src)) {
        return Err(format!("its expression {reason}"));
    }
    // Names bound inside the expression (nested functions' parameters, comprehension variables).
    let mut bound: HashSet<String> = HashSet::new();
    for n in &nodes {
        let scope_params = match (fam, n.kind()) {
            (Family::Ecma, "arrow_function" | "function_expression" | "function") => n
                .child_by_field_name("parameters")
                .or_else(|| n.child_by_field_name("parameter")),
            (Family::Python, "lambda") => n.child_by_field_name("parameters"),
            (Family::Python, "for_in_clause") => n.child_by_field_name("left"),
            _ => None,
        };
        if let Some(sp) = scope_params {
            for id in descendants(sp) {
                if matches!(id.kind(), "identifier" | "shorthand_property_identifier_pattern") {
                    bound.insert(text(id, src).to_string());
                }
            }
        }
    }
    let param_index: HashMap<&str, usize> = params.iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
    if let Some(shadow) = bound.iter().find(|b| param_index.contains_key(b.as_str())) {
        return Err(format!(
            "a nested function or comprehension rebinds parameter `{shadow}`"
        ));
    }
    let mut occurrences = Vec::new();
    let mut free = Vec::new();
    let mut calls = Vec::new();
    for n in &nodes {
        let k = n.kind();
        if matches!(
            k,
            "call_expression"
                | "call"
                | "method_invocation"
                | "new_expression"
                | "macro_invocation"
                | "object_creation_expression"
        ) {
            calls.push(json!({ "start": n.start_byte() - expr.start_byte(), "end": n.end_byte() - expr.start_byte() }));
        }
        // A Java method called without a receiver is a member of the declaring class.
        if fam == Family::Java && k == "method_invocation" && n.child_by_field_name("object").is_none() {
            if let Some(m) = n.child_by_field_name("name") {
                free.push(json!({ "name": text(m, src), "start": m.start_byte() - expr.start_byte(), "end": m.end_byte() - expr.start_byte() }));
            }
        }
        let Some(name) = reference_name(fam, *n, src) else {
            continue;
        };
        if bound.contains(name) {
            continue;
        }
        let rel = (n.start_byte() - expr.start_byte(), n.end_byte() - expr.start_byte());
        if let Some(&i) = param_index.get(name) {
            occurrences.push(
                json!({ "param": i, "start": rel.0, "end": rel.1, "shorthand": k == "shorthand_property_identifier" }),
            );
        } else {
            free.push(json!({ "name": name, "start": rel.0, "end": rel.1 }));
        }
    }
    Ok(json!({
        "name": name,
        "start_line": f.start_position().row + 1,
        "end_line": f.end_position().row + 1,
        "params": params.iter().map(|p| json!({ "name": p.name, "type": p.ty })).collect::<Vec<_>>(),
        "return_type": return_type,
        "returns_value": returns,
        "expr": text(expr, src),
        "expr_kind": expr.kind(),
        "expr_primary": is_primary(expr.kind()),
        "occurrences": occurrences,
        "free": free,
        "calls": calls,
    }))
}
