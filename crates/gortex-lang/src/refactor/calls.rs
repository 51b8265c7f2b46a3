//! The calls of a name, with their arguments (Rust macro token trees included).

use super::inline::{is_literal, is_primary, is_pure};
use super::*;

/// One call site as JSON: from `first` to `last` (the same node, or a macro's path and argument
/// tokens), its arguments, the statement it is the whole of (`statement_end`), the function around
/// `inside`, and why it cannot take an inlined body, if it cannot.
fn call_row(
    first: Node<'_>,
    last: Node<'_>,
    qualifier: Option<String>,
    args: Vec<Value>,
    statement_end: Option<usize>,
    inside: Node<'_>,
    refusal: Option<String>,
) -> Value {
    json!({
        "start": first.start_byte(),
        "end": last.end_byte(),
        "line": first.start_position().row + 1,
        "end_line": last.end_position().row + 1,
        "qualifier": qualifier,
        "args": args,
        "statement": statement_end.is_some(),
        "statement_end": statement_end,
        "enclosing": enclosing_function(inside),
        "refusal": refusal,
    })
}

/// The innermost function around `node` (its span bounds the shadowing check), as JSON, or null.
fn enclosing_function(node: Node<'_>) -> Value {
    let mut up = node.parent();
    while let Some(u) = up {
        if matches!(
            u.kind(),
            "function_declaration"
                | "method_definition"
                | "arrow_function"
                | "function_expression"
                | "function_definition"
                | "method_declaration"
                | "func_literal"
                | "lambda"
                | "constructor_declaration"
                | "function_item"
                | "closure_expression"
                | "lambda_expression"
        ) {
            return json!({ "start": u.start_byte(), "end": u.end_byte(), "start_line": u.start_position().row + 1 });
        }
        up = u.parent();
    }
    Value::Null
}

/// Calls of `name` written inside a Rust macro's tokens (`println!("{}", f(x))`): a path ending in
/// `name` followed by a parenthesised token tree, its arguments split at top-level commas.
fn macro_calls(p: &Parsed<'_>, tree: Node<'_>, name: &str, out: &mut Vec<Value>) {
    let src = p.source;
    let mut cursor = tree.walk();
    let tokens: Vec<Node<'_>> = tree.children(&mut cursor).collect();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind() != "identifier" || text(*t, src) != name {
            continue;
        }
        let Some(args) = tokens
            .get(i + 1)
            .filter(|a| a.kind() == "token_tree" && text(**a, src).starts_with('('))
        else {
            continue;
        };
        // The path before it: `a::b::name`.
        let mut first = i;
        while first >= 2 && text(tokens[first - 1], src) == "::" && tokens[first - 2].kind() == "identifier"
            || first >= 2
                && text(tokens[first - 1], src) == "::"
                && matches!(tokens[first - 2].kind(), "crate" | "self" | "super")
        {
            first -= 2;
        }
        if first >= 1 && matches!(text(tokens[first - 1], src), "." | "::") {
            continue; // a method call or an unparsed path
        }
        let qualifier = (first < i).then(|| {
            std::str::from_utf8(&src[tokens[first].start_byte()..tokens[i - 2].end_byte()])
                .unwrap_or("")
                .to_string()
        });
        let mut inner_cursor = args.walk();
        let inner: Vec<Node<'_>> = args.children(&mut inner_cursor).collect();
        let mut rows = Vec::new();
        let mut group: Vec<Node<'_>> = Vec::new();
        let body = &inner[1..inner.len().saturating_sub(1)];
        for (k, tok) in body.iter().enumerate() {
            let comma = text(*tok, src) == ",";
            if !comma {
                group.push(*tok);
            }
            if (comma || k + 1 == body.len()) && !group.is_empty() {
                let (start, end) = (group[0].start_byte(), group[group.len() - 1].end_byte());
                let single = group.len() == 1;
                let literal = single && group[0].kind().contains("literal");
                let pure = group.iter().all(|g| {
                    matches!(
                        g.kind(),
                        "identifier"
                            | "integer_literal"
                            | "float_literal"
                            | "string_literal"
                            | "boolean_literal"
                            | "char_literal"
                    ) || matches!(text(*g, src), "." | "::" | "&")
                });
                rows.push(json!({
                    "start": start, "end": end,
                    "text": std::str::from_utf8(&src[start..end]).unwrap_or(""),
                    "keyword": null, "pure": pure, "primary": single, "literal": literal,
                }));
                group.clear();
            }
        }
        out.push(call_row(tokens[first], *args, qualifier, rows, None, tree, None));
    }
}

pub(super) fn call_sites(p: &Parsed<'_>, name: &str) -> Vec<Value> {
    let src = p.source;
    let fam = p.family;
    let mut out = Vec::new();
    for n in descendants(p.tree.root_node()) {
        if fam == Family::Rust && n.kind() == "token_tree" {
            macro_calls(p, n, name, &mut out);
            continue;
        }
        let (callee, args) = match (fam, n.kind()) {
            (Family::Ecma, "call_expression")
            | (Family::Go, "call_expression")
            | (Family::Rust, "call_expression")
            | (Family::Python, "call") => (n.child_by_field_name("function"), n.child_by_field_name("arguments")),
            (Family::Java, "method_invocation") => (n.child_by_field_name("name"), n.child_by_field_name("arguments")),
            _ => continue,
        };
        let (Some(callee), Some(args)) = (callee, args) else {
            continue;
        };
        // The callee's last name and what qualifies it.
        let (last, qualifier) = match callee.kind() {
            "identifier" => (text(callee, src), None),
            "member_expression" | "selector_expression" | "attribute" | "field_expression" => {
                let prop = callee
                    .child_by_field_name("property")
                    .or_else(|| callee.child_by_field_name("field"))
                    .or_else(|| callee.child_by_field_name("attribute"));
                let obj = callee
                    .child_by_field_name("object")
                    .or_else(|| callee.child_by_field_name("operand"))
                    .or_else(|| callee.child_by_field_name("value"));
                (
                    prop.map(|x| text(x, src)).unwrap_or(""),
                    obj.map(|o| text(o, src).to_string()),
                )
            }
            "scoped_identifier" => (
                callee.child_by_field_name("name").map(|x| text(x, src)).unwrap_or(""),
                callee.child_by_field_name("path").map(|x| text(x, src).to_string()),
            ),
            _ => continue,
        };
        if last != name {
            continue;
        }
        let qualifier = if fam == Family::Java {
            n.child_by_field_name("object").map(|o| text(o, src).to_string())
        } else {
            qualifier
        };
        let mut refusal: Option<String> = None;
        if fam == Family::Ecma && text(n, src).contains("?.(") {
            refusal = Some("an optional call (?.)".into());
        }
        if n.child_by_field_name("type_arguments").is_some()
            || code_children(n).iter().any(|c| c.kind() == "type_arguments")
        {
            refusal = Some("explicit type arguments".into());
        }
        let mut arg_rows = Vec::new();
        if !matches!(args.kind(), "arguments" | "argument_list") {
            refusal = Some(format!("its arguments are a {}", args.kind()));
        } else {
            for a in code_children(args) {
                let mut keyword = None;
                let mut value = a;
                match a.kind() {
                    "spread_element" | "list_splat" | "dictionary_splat" | "variadic_argument" => {
                        refusal = Some("a spread/splat argument".into())
                    }
                    "keyword_argument" => {
                        keyword = a.child_by_field_name("name").map(|x| text(x, src).to_string());
                        value = a.child_by_field_name("value").unwrap_or(a);
                    }
                    _ => {}
                }
                if fam == Family::Go && text(args, src).trim_end_matches(')').trim_end().ends_with("...") {
                    refusal = Some("a variadic spread (...)".into());
                }
                arg_rows.push(json!({
                    "start": value.start_byte(),
                    "end": value.end_byte(),
                    "text": text(value, src),
                    "keyword": keyword,
                    "pure": is_pure(fam, value, src),
                    "primary": is_primary(value.kind()),
                    "literal": is_literal(value.kind()) && is_pure(fam, value, src),
                }));
            }
        }
        let parent = n.parent();
        let statement = parent.is_some_and(|p| p.kind() == "expression_statement" && code_children(p).len() == 1);
        let statement_end = if statement { parent.map(|p| p.end_byte()) } else { None };
        out.push(call_row(n, n, qualifier, arg_rows, statement_end, n, refusal));
    }
    out
}
