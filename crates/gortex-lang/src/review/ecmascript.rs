//! TypeScript and JavaScript: the dialect and the rules only these languages spell this way.

use super::dialect::{
    contains, descendants, empty_block, enclosing_function, following_statements, has_child_kind, named_children,
    occurrences, operator, plus_operands, preorder, statement_of, unparen, BuiltString, Callee, Dialect,
};
use super::shared::{self, finding};
use super::{words, Finding};
use crate::util::text;
use tree_sitter::{Node, Tree};

struct Ecma;

/// Statement lists: a statement's parent is one of these.
const BLOCKS: &[&str] = &[
    "statement_block",
    "program",
    "switch_case",
    "switch_default",
    "class_body",
];

const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
    "generator_function",
];

/// Calls that return null or undefined when nothing matches.
const NULLABLE: &[&str] = &[
    "find",
    "findLast",
    "querySelector",
    "getElementById",
    "match",
    "exec",
    "closest",
    "pop",
    "shift",
];

impl Dialect for Ecma {
    fn is_call(&self, node: Node<'_>) -> bool {
        node.kind() == "call_expression"
    }

    fn callee(&self, call: Node<'_>, src: &[u8]) -> Option<Callee> {
        let f = call.child_by_field_name("function")?;
        match f.kind() {
            "identifier" => Some(Callee {
                receiver: None,
                name: text(f, src).into_owned(),
            }),
            "member_expression" => Some(Callee {
                receiver: f.child_by_field_name("object").map(|o| text(o, src).into_owned()),
                name: text(f.child_by_field_name("property")?, src).into_owned(),
            }),
            _ => None,
        }
    }

    fn arguments<'t>(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let Some(args) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        named_children(args)
            .into_iter()
            .filter(|n| n.kind() != "comment")
            .collect()
    }

    fn string_literal(&self, node: Node<'_>, src: &[u8]) -> Option<String> {
        match node.kind() {
            "string" => {
                let t = text(node, src);
                Some(t.get(1..t.len().saturating_sub(1)).unwrap_or("").to_string())
            }
            "template_string" if !has_child_kind(node, "template_substitution") => {
                let t = text(node, src);
                Some(t.get(1..t.len().saturating_sub(1)).unwrap_or("").to_string())
            }
            _ => None,
        }
    }

    fn built_string(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        let mut built = BuiltString::default();
        match node.kind() {
            "template_string" => {
                for c in named_children(node) {
                    if c.kind() == "template_substitution" {
                        let inner = c.named_child(0).unwrap_or(c);
                        built.values.push(text(inner, src).into_owned());
                    } else {
                        built.text.push_str(&text(c, src));
                    }
                }
            }
            "binary_expression" if operator(node, src).as_deref() == Some("+") => {
                let parts = plus_operands(node, "binary_expression", src);
                for p in parts {
                    match self.string_literal(p, src) {
                        Some(s) => built.text.push_str(&s),
                        None => match self.built_string(p, src) {
                            Some(inner) if p.kind() == "template_string" => {
                                built.text.push_str(&inner.text);
                                built.values.extend(inner.values);
                            }
                            _ => built.values.push(text(p, src).into_owned()),
                        },
                    }
                }
            }
            _ => return None,
        }
        (!built.values.is_empty() && !built.text.is_empty()).then_some(built)
    }

    fn binding<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
        let (name, value) = match node.kind() {
            "variable_declarator" => (node.child_by_field_name("name")?, node.child_by_field_name("value")?),
            "assignment_expression" => (node.child_by_field_name("left")?, node.child_by_field_name("right")?),
            "pair" => (node.child_by_field_name("key")?, node.child_by_field_name("value")?),
            "public_field_definition" | "field_definition" => (
                node.child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"))?,
                node.child_by_field_name("value")?,
            ),
            _ => return None,
        };
        let n = text(name, src);
        let leaf = n.rsplit('.').next().unwrap_or(&n).trim_matches(['"', '\'']).to_string();
        Some((leaf, value))
    }

    fn comparison<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String, Node<'t>)> {
        if node.kind() != "binary_expression" {
            return None;
        }
        let op = operator(node, src)?;
        matches!(
            op.as_str(),
            "==" | "===" | "!=" | "!==" | "<" | ">" | "<=" | ">=" | "&&" | "||"
        )
        .then(|| {
            Some((
                node.child_by_field_name("left")?,
                op,
                node.child_by_field_name("right")?,
            ))
        })?
    }

    fn is_loop(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
        )
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        FUNCTIONS.contains(&node.kind())
    }

    fn is_iteration_callback(&self, function: Node<'_>, src: &[u8]) -> bool {
        // fn → arguments → call_expression whose callee is `.forEach/.map/...`
        let Some(call) = function.parent().and_then(|a| a.parent()) else {
            return false;
        };
        if call.kind() != "call_expression" {
            return false;
        }
        self.callee(call, src).is_some_and(|c| {
            c.receiver.is_some()
                && matches!(
                    c.name.as_str(),
                    "forEach" | "map" | "flatMap" | "filter" | "reduce" | "some" | "every"
                )
        })
    }

    fn is_sql_sink(&self, callee: &Callee) -> bool {
        matches!(
            callee.name.as_str(),
            "query" | "execute" | "raw" | "$queryRawUnsafe" | "$executeRawUnsafe" | "prepare" | "run" | "all" | "get"
        ) && callee.receiver.is_some()
            && (callee.name != "get" && callee.name != "all" && callee.name != "run"
                || callee.receiver_leaf().is_some_and(|r| words::is_io_receiver(&r)))
            || callee.name == "$queryRawUnsafe"
    }

    fn shell_command<'t>(&self, call: Node<'t>, callee: &Callee, src: &[u8]) -> Option<Node<'t>> {
        let args = self.arguments(call);
        let first = *args.first()?;
        match callee.name.as_str() {
            "exec" | "execSync" => {
                // `exec` of child_process (not RegExp.prototype.exec: a regex receiver).
                let r = callee.receiver.as_deref().unwrap_or("");
                (r.is_empty() || r.contains("child_process") || r == "cp" || r == "childProcess").then_some(first)
            }
            "spawn" | "spawnSync" | "execFile" | "execFileSync" => args
                .iter()
                .any(|a| a.kind() == "object" && text(*a, src).replace(' ', "").contains("shell:true"))
                .then_some(first),
            _ => None,
        }
    }

    fn weak_crypto(&self, call: Node<'_>, callee: &Callee, src: &[u8]) -> Option<String> {
        if !matches!(
            callee.name.as_str(),
            "createHash" | "createHmac" | "createCipheriv" | "createDecipheriv" | "createCipher"
        ) {
            return None;
        }
        let first = *self.arguments(call).first()?;
        words::weak_algorithm(&self.string_literal(first, src)?).map(str::to_string)
    }
}

/// Runs every TS/JS rule.
pub fn scan(tree: &Tree, src: &[u8]) -> Vec<Finding> {
    let d = Ecma;
    let nodes = preorder(tree);
    let mut out = Vec::new();
    shared::run(&d, &nodes, src, &mut out);
    for &node in &nodes {
        match node.kind() {
            "variable_declarator" => {
                null_deref(&d, node, src, &mut out);
                unclosed(&d, node, src, &mut out);
            }
            "if_statement" => {
                deref_in_null_branch(node, src, &mut out);
                check_then_act(&d, node, src, &mut out);
            }
            "catch_clause" => {
                if let Some(body) = node.child_by_field_name("body") {
                    if let (true, false) = empty_block(body, src) {
                        out.push(finding(
                            "swallowed-error",
                            node,
                            "the catch block is empty: the error disappears".into(),
                        ));
                    }
                }
            }
            "call_expression" => promise_catch_swallowed(&d, node, src, &mut out),
            _ => {}
        }
    }
    out
}

/// `p.catch(() => {})`: a rejection swallowed by an empty handler.
fn promise_catch_swallowed(d: &Ecma, call: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(c) = d.callee(call, src) else { return };
    if c.name != "catch" || c.receiver.is_none() {
        return;
    }
    let Some(handler) = d.arguments(call).first().copied() else {
        return;
    };
    if !matches!(handler.kind(), "arrow_function" | "function_expression" | "function") {
        return;
    }
    if let Some(body) = handler.child_by_field_name("body") {
        if body.kind() == "statement_block" && empty_block(body, src) == (true, false) {
            out.push(finding(
                "swallowed-error",
                call,
                "`.catch` with an empty handler swallows the rejection".into(),
            ));
        }
    }
}

/// Whether the identifier `occ` is dereferenced right here (`x.y`, `x[i]`, not `x?.y`, not `x!.y`).
fn is_deref(occ: Node<'_>) -> bool {
    let Some(p) = occ.parent() else { return false };
    let is_object = p.child_by_field_name("object") == Some(occ);
    match p.kind() {
        "member_expression" | "subscript_expression" => is_object && !has_child_kind(p, "optional_chain"),
        _ => false,
    }
}

/// Whether the identifier `occ` is tested here (a condition, a logical operand, `!x`, `x ?? d`).
fn is_guard(occ: Node<'_>, stmt: Node<'_>) -> bool {
    let mut cur = occ;
    while let Some(p) = cur.parent() {
        match p.kind() {
            "if_statement" | "while_statement" | "ternary_expression" | "unary_expression" => return true,
            "binary_expression" => return true,
            "member_expression" if has_child_kind(p, "optional_chain") => return true,
            "non_null_expression" => return true,
            _ => {}
        }
        if p == stmt {
            break;
        }
        cur = p;
    }
    false
}

/// The first use of `name` after its declaration, judged: a dereference before any test.
pub(super) fn first_unchecked_deref<'t>(stmt: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    for next in following_statements(stmt) {
        let Some(occ) = occurrences(next, name, src).into_iter().next() else {
            continue;
        };
        if is_guard(occ, next) {
            return None;
        }
        return is_deref(occ).then_some(occ);
    }
    None
}

fn null_deref(d: &Ecma, decl: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(name), Some(value)) = (decl.child_by_field_name("name"), decl.child_by_field_name("value")) else {
        return;
    };
    if name.kind() != "identifier" {
        return;
    }
    let value = unparen(match value.kind() {
        "await_expression" => value.named_child(0).unwrap_or(value),
        _ => value,
    });
    if value.kind() != "call_expression" {
        return;
    }
    let Some(callee) = d.callee(value, src) else { return };
    let nullable = NULLABLE.contains(&callee.name.as_str())
        || callee.name == "get"
            && callee
                .receiver_leaf()
                .is_some_and(|r| r.ends_with("map") || r.ends_with("cache"));
    if !nullable || callee.receiver.is_none() {
        return;
    }
    let name = text(name, src).into_owned();
    let Some(stmt) = statement_of(decl, BLOCKS) else { return };
    if let Some(occ) = first_unchecked_deref(stmt, &name, src) {
        let mut f = finding(
            "null-deref",
            occ,
            format!(
                "`{name}` comes from `{}()`, which can return null or undefined, and is dereferenced without a check",
                callee.display()
            ),
        );
        f.subject = Some(name);
        f.callee = Some(callee.display());
        out.push(f);
    }
}

/// The name a condition tests for being absent: `!x`, `x == null`, `x === undefined`.
fn null_tested(cond: Node<'_>, src: &[u8]) -> Option<String> {
    let cond = unparen(cond);
    match cond.kind() {
        "unary_expression" if operator(cond, src).as_deref() == Some("!") => {
            let arg = unparen(cond.child_by_field_name("argument")?);
            (arg.kind() == "identifier").then(|| text(arg, src).into_owned())
        }
        "binary_expression" if matches!(operator(cond, src).as_deref(), Some("==" | "===")) => {
            let (l, r) = (cond.child_by_field_name("left")?, cond.child_by_field_name("right")?);
            let absent = |n: Node<'_>| matches!(n.kind(), "null" | "undefined");
            if l.kind() == "identifier" && absent(r) {
                Some(text(l, src).into_owned())
            } else if r.kind() == "identifier" && absent(l) {
                Some(text(r, src).into_owned())
            } else {
                None
            }
        }
        _ => None,
    }
}

fn deref_in_null_branch(node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let Some(name) = null_tested(cond, src) else { return };
    let Some(occ) = occurrences(then, &name, src).into_iter().next() else {
        return;
    };
    if is_deref(occ) {
        let mut f = finding(
            "deref-in-null-branch",
            occ,
            format!("`{name}` is dereferenced in the branch where it is null or undefined"),
        );
        f.subject = Some(name);
        out.push(f);
    }
}

/// `if (!fs.existsSync(p)) fs.writeFileSync(p…)` and `if (!m.has(k)) { await …; m.set(k…) }`.
fn check_then_act(d: &Ecma, node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let cond = unparen(cond);
    if cond.kind() != "unary_expression" || operator(cond, src).as_deref() != Some("!") {
        return;
    }
    let Some(check) = cond
        .child_by_field_name("argument")
        .map(unparen)
        .filter(|n| n.kind() == "call_expression")
    else {
        return;
    };
    let Some(checked) = d.callee(check, src) else { return };
    let Some(key) = d.arguments(check).first().map(|a| text(*a, src).into_owned()) else {
        return;
    };
    let calls: Vec<Node<'_>> = descendants(then)
        .into_iter()
        .filter(|n| n.kind() == "call_expression")
        .collect();
    match checked.name.as_str() {
        "existsSync" | "exists" => {
            const ACTS: &[&str] = &[
                "writeFileSync",
                "writeFile",
                "mkdirSync",
                "mkdir",
                "openSync",
                "createWriteStream",
                "copyFileSync",
                "renameSync",
                "symlinkSync",
            ];
            for call in calls {
                let Some(act) = d.callee(call, src) else { continue };
                let args = d.arguments(call);
                if ACTS.contains(&act.name.as_str())
                    && args.first().is_some_and(|a| text(*a, src) == key)
                    && !args.iter().any(|a| {
                        let t = text(*a, src).replace(' ', "");
                        t.contains("recursive:true") || t.contains("flag:'wx'") || t.contains("flag:\"wx\"")
                    })
                {
                    let mut f = finding(
                        "check-then-act",
                        call,
                        format!("`{key}` is checked with `{}` and then written with `{}`: another process can create it in between", checked.name, act.name),
                    );
                    f.subject = Some(key.clone());
                    out.push(f);
                    return;
                }
            }
        }
        "has" if checked.receiver.is_some() => {
            let map = checked.receiver.clone().unwrap_or_default();
            let awaited = descendants(then).into_iter().find(|n| n.kind() == "await_expression");
            let Some(awaited) = awaited else { return };
            for call in calls {
                let Some(act) = d.callee(call, src) else { continue };
                if act.name == "set"
                    && act.receiver.as_deref() == Some(map.as_str())
                    && call.start_byte() > awaited.start_byte()
                    && !contains(awaited, call)
                {
                    let mut f = finding(
                        "check-then-act",
                        call,
                        format!("`{map}.has({key})` is checked, then `{map}.set` runs after an await: concurrent callers all miss and all set"),
                    );
                    f.subject = Some(map.clone());
                    out.push(f);
                    return;
                }
            }
        }
        _ => {}
    }
}

/// `const fd = fs.openSync(…)` / `const h = await open(…)` never closed, returned or stored.
fn unclosed(d: &Ecma, decl: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(name), Some(value)) = (decl.child_by_field_name("name"), decl.child_by_field_name("value")) else {
        return;
    };
    if name.kind() != "identifier" {
        return;
    }
    let call = unparen(match value.kind() {
        "await_expression" => value.named_child(0).unwrap_or(value),
        _ => value,
    });
    if call.kind() != "call_expression" {
        return;
    }
    let Some(callee) = d.callee(call, src) else { return };
    let opens = match callee.name.as_str() {
        "openSync" => true,
        "open" => {
            value.kind() == "await_expression"
                && callee
                    .receiver
                    .as_deref()
                    .is_none_or(|r| r.contains("promises") || r == "fsp" || r == "fs")
        }
        _ => false,
    };
    if !opens {
        return;
    }
    let name = text(name, src).into_owned();
    let Some(scope) = enclosing_function(d, decl) else {
        return;
    };
    let body = text(scope, src);
    let closed = body.contains(&format!("closeSync({name}"))
        || body.contains(&format!("{name}.close("))
        || body.contains(&format!("close({name}"));
    let escapes = body.contains(&format!("return {name}"))
        || body.contains(&format!("= {name};"))
        || body.contains(&format!("this.{name} = {name}"));
    if !closed && !escapes {
        let mut f = finding(
            "unclosed-resource",
            decl,
            format!(
                "`{name}` is opened with `{}` and never closed in this function",
                callee.display()
            ),
        );
        f.subject = Some(name);
        out.push(f);
    }
}
