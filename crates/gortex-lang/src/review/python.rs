//! Python: the dialect and the rules only this language spells this way.

use super::dialect::{
    descendants, enclosing_function, following_statements, named_children, occurrences, operator, plus_operands,
    preorder, statement_of, unparen, BuiltString, Callee, Dialect,
};
use super::shared::{self, finding};
use super::{words, Finding};
use crate::util::text;
use tree_sitter::{Node, Tree};

struct Python;

/// Statement lists: a statement's parent is one of these.
const BLOCKS: &[&str] = &["block", "module"];

/// Loops whose `body` runs once per element (a comprehension's `body` is its element).
const LOOPS: &[&str] = &[
    "for_statement",
    "while_statement",
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
];

impl Dialect for Python {
    fn is_call(&self, node: Node<'_>) -> bool {
        node.kind() == "call"
    }

    fn callee(&self, call: Node<'_>, src: &[u8]) -> Option<Callee> {
        let f = call.child_by_field_name("function")?;
        match f.kind() {
            "identifier" => Some(Callee {
                receiver: None,
                name: text(f, src).into_owned(),
            }),
            "attribute" => Some(Callee {
                receiver: f.child_by_field_name("object").map(|o| text(o, src).into_owned()),
                name: text(f.child_by_field_name("attribute")?, src).into_owned(),
            }),
            _ => None,
        }
    }

    fn arguments<'t>(&self, call: Node<'t>) -> Vec<Node<'t>> {
        // `f(x for x in xs)` has a generator_expression as its arguments: no list to split.
        let Some(args) = call
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "argument_list")
        else {
            return Vec::new();
        };
        named_children(args)
            .into_iter()
            .filter(|n| n.kind() != "comment")
            .collect()
    }

    fn string_literal(&self, node: Node<'_>, src: &[u8]) -> Option<String> {
        match node.kind() {
            "string" if !has_interpolation(node) => Some(string_text(node, src)),
            // `"a" "b"`: adjacent literals are one literal.
            "concatenated_string" => {
                let parts = named_children(node);
                if parts.iter().any(|p| p.kind() != "string" || has_interpolation(*p)) {
                    return None;
                }
                Some(parts.iter().map(|p| string_text(*p, src)).collect())
            }
            _ => None,
        }
    }

    fn built_string(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        let mut built = BuiltString::default();
        match node.kind() {
            "string" | "concatenated_string" => push_fstring(node, src, &mut built),
            "binary_operator" if operator(node, src).as_deref() == Some("+") => {
                let parts = plus_operands(node, "binary_operator", src);
                for p in parts {
                    if matches!(p.kind(), "string" | "concatenated_string") {
                        push_fstring(p, src, &mut built);
                    } else {
                        built.values.push(text(p, src).into_owned());
                    }
                }
            }
            // `"... %s" % x` and `"... %s" % (a, b)`.
            "binary_operator" if operator(node, src).as_deref() == Some("%") => {
                let (Some(l), Some(r)) = (node.child_by_field_name("left"), node.child_by_field_name("right")) else {
                    return None;
                };
                built.text = self.string_literal(l, src)?;
                spread_values(r, src, &mut built.values);
            }
            // `"... {}".format(x)`.
            "call" => {
                let f = node
                    .child_by_field_name("function")
                    .filter(|f| f.kind() == "attribute")?;
                let object = f.child_by_field_name("object")?;
                if f.child_by_field_name("attribute").map(|a| text(a, src)).as_deref() != Some("format") {
                    return None;
                }
                built.text = self.string_literal(object, src)?;
                for a in self.arguments(node) {
                    let v = if a.kind() == "keyword_argument" {
                        a.child_by_field_name("value").unwrap_or(a)
                    } else {
                        a
                    };
                    built.values.push(text(v, src).into_owned());
                }
            }
            _ => return None,
        }
        (!built.values.is_empty() && !built.text.is_empty()).then_some(built)
    }

    fn binding<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
        let (name, value) = match node.kind() {
            // `a, b = …` and `d[k] = …` bind no single name: None.
            "assignment" => (node.child_by_field_name("left")?, node.child_by_field_name("right")?),
            "keyword_argument" | "default_parameter" | "typed_default_parameter" => {
                (node.child_by_field_name("name")?, node.child_by_field_name("value")?)
            }
            "pair" => {
                let key = node.child_by_field_name("key")?;
                let name = self.string_literal(key, src)?;
                return Some((name, node.child_by_field_name("value")?));
            }
            _ => return None,
        };
        let leaf = match name.kind() {
            "identifier" => text(name, src).into_owned(),
            "attribute" => text(name.child_by_field_name("attribute")?, src).into_owned(),
            _ => return None,
        };
        Some((leaf, value))
    }

    fn comparison<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String, Node<'t>)> {
        match node.kind() {
            "boolean_operator" => {
                let op = operator(node, src)?;
                Some((
                    node.child_by_field_name("left")?,
                    op,
                    node.child_by_field_name("right")?,
                ))
            }
            "comparison_operator" => {
                // The operators are anonymous children between the operands (`is not` may be two
                // tokens); a chain `a < b < c` is judged on its first pair.
                let left = node.named_child(0)?;
                let right = node.named_child(1)?;
                let mut cursor = node.walk();
                let op = node
                    .children(&mut cursor)
                    .filter(|c| {
                        !c.is_named() && c.start_byte() >= left.end_byte() && c.end_byte() <= right.start_byte()
                    })
                    .map(|c| text(c, src).into_owned())
                    .collect::<Vec<_>>()
                    .join(" ");
                matches!(op.as_str(), "==" | "!=" | "<" | ">" | "<=" | ">=" | "is" | "is not")
                    .then_some((left, op, right))
            }
            _ => None,
        }
    }

    fn is_loop(&self, node: Node<'_>) -> bool {
        LOOPS.contains(&node.kind())
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(node.kind(), "function_definition" | "lambda")
    }

    fn is_iteration_callback(&self, function: Node<'_>, src: &[u8]) -> bool {
        // lambda → argument_list → call of `map(...)` / `pool.map(...)`.
        let Some(call) = function
            .parent()
            .filter(|a| a.kind() == "argument_list")
            .and_then(|a| a.parent())
        else {
            return false;
        };
        function.kind() == "lambda" && call.kind() == "call" && self.callee(call, src).is_some_and(|c| c.name == "map")
    }

    fn is_sql_sink(&self, callee: &Callee) -> bool {
        // `executemany` is batched with bound parameters: never a sink.
        matches!(
            callee.name.as_str(),
            "execute" | "executescript" | "raw" | "query" | "text" | "read_sql" | "read_sql_query"
        )
    }

    fn shell_command<'t>(&self, call: Node<'t>, callee: &Callee, src: &[u8]) -> Option<Node<'t>> {
        let args = self.arguments(call);
        let first = *args.first().filter(|a| a.kind() != "keyword_argument")?;
        let receiver = callee.receiver.as_deref();
        match callee.name.as_str() {
            "system" | "popen" => (receiver == Some("os")).then_some(first),
            "run" | "call" | "check_call" | "check_output" | "Popen" | "getoutput" | "getstatusoutput" => {
                if !matches!(receiver, None | Some("subprocess" | "sp")) {
                    return None;
                }
                // Without `shell=True` the first argument is a program and its arguments, not a command line.
                let shell = callee.name.starts_with("get")
                    || keyword(self, call, "shell", src).is_some_and(|v| text(v, src) == "True");
                shell.then_some(first)
            }
            _ => None,
        }
    }

    fn weak_crypto(&self, call: Node<'_>, callee: &Callee, src: &[u8]) -> Option<String> {
        let receiver = callee.receiver.as_deref();
        let alg = match callee.name.as_str() {
            "md5" | "sha1" if matches!(receiver, None | Some("hashlib")) => {
                // Python 3.9+: `usedforsecurity=False` marks a checksum.
                if keyword(self, call, "usedforsecurity", src).is_some_and(|v| text(v, src) == "False") {
                    return None;
                }
                words::weak_algorithm(&callee.name)?
            }
            "new" if receiver == Some("hashlib") => {
                if keyword(self, call, "usedforsecurity", src).is_some_and(|v| text(v, src) == "False") {
                    return None;
                }
                let first = *self.arguments(call).first()?;
                words::weak_algorithm(&self.string_literal(first, src)?)?
            }
            // PyCryptodome: `DES.new(key, …)`, `ARC4.new(key)`, `AES.new(key, AES.MODE_ECB)`.
            "new" => match receiver.map(|r| r.rsplit('.').next().unwrap_or(r)) {
                Some("DES" | "DES3") => "DES",
                Some("ARC4") => "RC4",
                Some(_) if self.arguments(call).iter().any(|a| text(*a, src).ends_with("MODE_ECB")) => "ECB mode",
                _ => return None,
            },
            // cryptography: `modes.ECB()`, `algorithms.ARC4(key)`, `algorithms.TripleDES(key)`.
            "ECB" if receiver == Some("modes") => "ECB mode",
            "ARC4" if receiver == Some("algorithms") => "RC4",
            "TripleDES" if receiver == Some("algorithms") => "DES",
            _ => return None,
        };
        Some(alg.to_string())
    }
}

/// Whether a string node splices values in (an f-string with `{…}`).
fn has_interpolation(node: Node<'_>) -> bool {
    named_children(node).iter().any(|c| c.kind() == "interpolation")
}

/// A string node's literal text: its `string_content` pieces, prefix and quotes dropped.
fn string_text(node: Node<'_>, src: &[u8]) -> String {
    named_children(node)
        .into_iter()
        .filter(|c| c.kind() == "string_content")
        .map(|c| text(c, src).into_owned())
        .collect()
}

/// Appends a string or adjacent strings (f-strings included) to `built`: literal pieces to the
/// text, each `{expression}` to the values.
fn push_fstring(node: Node<'_>, src: &[u8], built: &mut BuiltString) {
    let strings = if node.kind() == "concatenated_string" {
        named_children(node)
    } else {
        vec![node]
    };
    for s in strings {
        for c in named_children(s) {
            match c.kind() {
                "string_content" => built.text.push_str(&text(c, src)),
                "interpolation" => {
                    let inner = c.child_by_field_name("expression").unwrap_or(c);
                    built.values.push(text(inner, src).into_owned());
                }
                _ => {}
            }
        }
    }
}

/// The values of a `%` right operand: a tuple's elements, or the operand itself.
fn spread_values(node: Node<'_>, src: &[u8], values: &mut Vec<String>) {
    let node = unparen(node);
    if node.kind() == "tuple" {
        values.extend(
            named_children(node)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .map(|c| text(c, src).into_owned()),
        );
    } else {
        values.push(text(node, src).into_owned());
    }
}

/// The value of keyword argument `name=` of a call.
fn keyword<'t>(d: &Python, call: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    d.arguments(call).into_iter().find_map(|a| {
        (a.kind() == "keyword_argument" && a.child_by_field_name("name").is_some_and(|n| text(n, src) == name))
            .then(|| a.child_by_field_name("value"))
            .flatten()
    })
}

/// Runs every Python rule.
pub fn scan(tree: &Tree, src: &[u8]) -> Vec<Finding> {
    let d = Python;
    let nodes = preorder(tree);
    let mut out = Vec::new();
    shared::run(&d, &nodes, src, &mut out);
    for &node in &nodes {
        match node.kind() {
            "assignment" => {
                null_deref(&d, node, src, &mut out);
                unclosed(&d, node, src, &mut out);
            }
            "if_statement" => {
                deref_in_null_branch(node, src, &mut out);
                check_then_act(&d, node, src, &mut out);
            }
            "default_parameter" | "typed_default_parameter" => mutable_default(&d, node, src, &mut out),
            "except_clause" | "except_group_clause" => swallowed(node, src, &mut out),
            _ => {}
        }
    }
    out
}

/// `except …: pass` (or `...`) with no comment line in the handler saying why.
fn swallowed(clause: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(block) = named_children(clause).into_iter().find(|c| c.kind() == "block") else {
        return;
    };
    if deliberate_exceptions(clause, src) {
        return;
    }
    let empty = named_children(block).into_iter().all(|s| match s.kind() {
        "pass_statement" | "comment" => true,
        "expression_statement" => {
            s.named_child(0).is_some_and(|e| e.kind() == "ellipsis") && s.named_child_count() == 1
        }
        _ => false,
    });
    if !empty {
        return;
    }
    // tree-sitter files comments between `:` and the block under the clause, and a comment after
    // the handler may land inside its block: an explanation is a comment below the `except`
    // line and indented deeper than it.
    let at = clause.start_position();
    let explained = descendants(clause)
        .into_iter()
        .any(|c| c.kind() == "comment" && c.start_position().row > at.row && c.start_position().column > at.column);
    if !explained {
        out.push(finding(
            "swallowed-error",
            clause,
            "the except block only passes: the error disappears".into(),
        ));
    }
}

/// Exceptions that are passed over on purpose: an optional import (`except ImportError: pass`),
/// the end of an iteration, a file already gone or already there, a process already exited.
fn deliberate_exceptions(clause: Node<'_>, src: &[u8]) -> bool {
    const DELIBERATE: &[&str] = &[
        "ImportError",
        "ModuleNotFoundError",
        "StopIteration",
        "StopAsyncIteration",
        "GeneratorExit",
        "KeyboardInterrupt",
        "FileNotFoundError",
        "FileExistsError",
        "ProcessLookupError",
    ];
    let Some(kind) = named_children(clause)
        .into_iter()
        .find(|c| !matches!(c.kind(), "block" | "comment"))
    else {
        return false;
    };
    let kind = match kind.kind() {
        "as_pattern" => kind.named_child(0).unwrap_or(kind),
        _ => kind,
    };
    let names: Vec<String> = descendants(kind)
        .into_iter()
        .filter(|n| n.kind() == "identifier")
        .map(|n| text(n, src).into_owned())
        .filter(|n| n.chars().next().is_some_and(char::is_uppercase))
        .collect();
    // A tuple naming an import failure guards an optional dependency, whatever else it lists.
    !names.is_empty()
        && (names.iter().all(|n| DELIBERATE.contains(&n.as_str()))
            || names.iter().any(|n| n == "ImportError" || n == "ModuleNotFoundError"))
}

/// Whether the identifier `occ` is dereferenced right here (`x.attr`, `x[i]`).
fn is_deref(occ: Node<'_>) -> bool {
    let Some(p) = occ.parent() else { return false };
    match p.kind() {
        "attribute" => p.child_by_field_name("object") == Some(occ),
        "subscript" => p.child_by_field_name("value") == Some(occ),
        _ => false,
    }
}

/// Whether a use of `occ` within `stmt` sits under a conditional expression (`m.group() if m else ""`).
fn under_conditional(occ: Node<'_>, stmt: Node<'_>) -> bool {
    let mut cur = occ.parent();
    while let Some(p) = cur {
        if p.kind() == "conditional_expression" {
            return true;
        }
        if p == stmt {
            break;
        }
        cur = p.parent();
    }
    false
}

/// The first use of `name` after `stmt`, judged: a dereference before any test. Any other first
/// use (a test, an argument, a reassignment) ends the search.
fn first_unchecked_deref<'t>(stmt: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    for next in following_statements(stmt) {
        let Some(occ) = occurrences(next, name, src).into_iter().next() else {
            continue;
        };
        return (is_deref(occ) && !under_conditional(occ, next)).then_some(occ);
    }
    None
}

/// Whether a call can return None: regex matching, one-argument `.get`, `shutil.which`.
fn returns_none(d: &Python, call: Node<'_>, callee: &Callee, src: &[u8]) -> bool {
    let receiver = callee.receiver.as_deref().unwrap_or("");
    let leaf = callee.receiver_leaf().unwrap_or_default();
    match callee.name.as_str() {
        "match" | "search" | "fullmatch" => {
            receiver == "re"
                || leaf.ends_with("re")
                || leaf.ends_with("rx")
                || leaf.contains("pattern")
                || leaf.contains("regex")
        }
        // `.get(k, default)` returns the default, and most objects' `.get(x)` (sessions, clients,
        // queues, ORMs) is not a mapping lookup: only receivers named as mappings count.
        "get" => {
            const MAPPINGS: &[&str] = &[
                "dict", "map", "mapping", "cache", "environ", "env", "config", "conf", "settings", "options", "opts",
                "params", "kwargs", "headers", "cookies", "meta", "attrs", "registry", "lookup", "table", "index",
            ];
            !receiver.is_empty()
                && d.arguments(call).len() == 1
                && !words::is_io_receiver(&leaf)
                && (MAPPINGS.iter().any(|m| leaf == *m || leaf.ends_with(m)) || annotated_mapping(call, receiver, src))
        }
        "which" => receiver == "shutil" || receiver.is_empty(),
        _ => false,
    }
}

/// Whether `name` is a parameter of the enclosing function annotated as a mapping (`users: dict`).
fn annotated_mapping(call: Node<'_>, name: &str, src: &[u8]) -> bool {
    parameter_annotation(call, name, src).is_some_and(|t| {
        let head = t.rsplit('.').next().unwrap_or(&t);
        [
            "dict",
            "Dict",
            "Mapping",
            "MutableMapping",
            "defaultdict",
            "OrderedDict",
        ]
        .iter()
        .any(|m| head.starts_with(m))
    })
}

/// The type annotation of parameter `name` of the function around `node`, as written.
fn parameter_annotation(node: Node<'_>, name: &str, src: &[u8]) -> Option<String> {
    let f = super::dialect::ancestors_until(node, |_| false).find(|a| a.kind() == "function_definition")?;
    named_children(f.child_by_field_name("parameters")?)
        .into_iter()
        .find_map(|p| {
            (p.kind().starts_with("typed") && p.named_child(0).is_some_and(|n| text(n, src) == name))
                .then(|| p.child_by_field_name("type").map(|t| text(t, src).into_owned()))
                .flatten()
        })
}

/// `m = re.match(…)` / `x = d.get(k)` then `m.group()` / `x.attr` before any test.
fn null_deref(d: &Python, assign: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(name), Some(value)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right")) else {
        return;
    };
    let value = unparen(value);
    if name.kind() != "identifier" || value.kind() != "call" {
        return;
    }
    let Some(callee) = d.callee(value, src) else { return };
    if !returns_none(d, value, &callee, src) {
        return;
    }
    let name = text(name, src).into_owned();
    let Some(stmt) = statement_of(assign, BLOCKS) else {
        return;
    };
    if let Some(occ) = first_unchecked_deref(stmt, &name, src) {
        let mut f = finding(
            "null-deref",
            occ,
            format!(
                "`{name}` comes from `{}()`, which can return None, and is used without a check",
                callee.display()
            ),
        );
        f.subject = Some(name);
        f.callee = Some(callee.display());
        out.push(f);
    }
}

/// What a condition tests for being None — a name or an attribute chain: `x is None`,
/// `self.conn == None`.
fn none_tested<'t>(cond: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    let cond = unparen(cond);
    let plain = |n: Node<'t>| matches!(n.kind(), "identifier" | "attribute").then_some(n);
    match cond.kind() {
        // `not x` means None only where x is declared Optional: an empty mapping or list is
        // falsy too, and still has its attributes.
        "not_operator" => {
            let arg = plain(unparen(cond.child_by_field_name("argument")?))?;
            optional_parameter(cond, &text(arg, src), src).then_some(arg)
        }
        "comparison_operator" => {
            let (l, op, r) = Python.comparison(cond, src)?;
            if !matches!(op.as_str(), "is" | "==") || cond.named_child_count() != 2 {
                return None;
            }
            match (l.kind(), r.kind()) {
                (_, "none") => plain(l),
                ("none", _) => plain(r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `name` is a parameter of the enclosing function annotated `Optional[…]` or `… | None`.
fn optional_parameter(node: Node<'_>, name: &str, src: &[u8]) -> bool {
    parameter_annotation(node, name, src)
        .is_some_and(|t| t.contains("Optional[") || t.contains("| None") || t.contains("None |"))
}

/// `if x is None: x.attr`: the branch dereferences what it just found absent.
fn deref_in_null_branch(node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let Some(tested) = none_tested(cond, src) else { return };
    let name = text(tested, src);
    // The first mention of the tested expression in the branch (an attribute chain's inner
    // names are part of that mention, not separate uses).
    let first = descendants(then)
        .into_iter()
        .find(|n| n.kind() == tested.kind() && text(*n, src) == name);
    if let Some(occ) = first.filter(|o| is_deref(*o)) {
        let mut f = finding(
            "deref-in-null-branch",
            occ,
            format!("`{name}` is dereferenced in the branch where it is None"),
        );
        f.subject = Some(name.into_owned());
        out.push(f);
    }
}

/// `def f(items=[])`: a list, dict or set default is created once and shared by every call.
fn mutable_default(d: &Python, param: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(value) = param.child_by_field_name("value") else {
        return;
    };
    let mutable = match value.kind() {
        "list" | "dictionary" | "set" | "list_comprehension" | "dictionary_comprehension" | "set_comprehension" => true,
        "call" => d.callee(value, src).is_some_and(|c| {
            matches!(
                c.name.as_str(),
                "list" | "dict" | "set" | "bytearray" | "defaultdict" | "OrderedDict" | "Counter" | "deque"
            )
        }),
        _ => false,
    };
    if mutable {
        let name = param
            .child_by_field_name("name")
            .map(|n| text(n, src).into_owned())
            .unwrap_or_default();
        let mut f = finding(
            "mutable-default-arg",
            param,
            format!("`{name}` defaults to `{}`, shared by every call", text(value, src)),
        );
        f.subject = Some(name);
        out.push(f);
    }
}

/// Whether `node` runs inside `with <lock>:` within its function.
fn under_lock(node: Node<'_>, src: &[u8]) -> bool {
    let mut cur = node.parent();
    while let Some(p) = cur {
        if matches!(p.kind(), "function_definition" | "lambda") {
            return false;
        }
        if p.kind() == "with_statement" {
            let header = named_children(p)
                .into_iter()
                .find(|c| c.kind() == "with_clause")
                .map(|c| text(c, src).to_ascii_lowercase());
            if header.is_some_and(|h| h.contains("lock") || h.contains("mutex") || h.contains("semaphore")) {
                return true;
            }
        }
        cur = p.parent();
    }
    false
}

/// Whether the identifier `name` is bound by a plain assignment directly in the module.
fn module_binds(node: Node<'_>, name: &str, src: &[u8]) -> bool {
    let mut root = node;
    while let Some(p) = root.parent() {
        root = p;
    }
    named_children(root).into_iter().any(|s| {
        s.kind() == "expression_statement"
            && s.named_child(0).is_some_and(|a| {
                a.kind() == "assignment"
                    && a.child_by_field_name("left")
                        .is_some_and(|l| l.kind() == "identifier" && text(l, src) == name)
            })
    })
}

/// Whether `map` (as written) is shared between callers: an attribute (`self.cache`), or a
/// module-level name the enclosing function neither assigns nor takes as a parameter.
fn is_shared(d: &Python, map: Node<'_>, at: Node<'_>, src: &[u8]) -> bool {
    match map.kind() {
        "attribute" => true,
        "identifier" => {
            let name = text(map, src);
            if let Some(func) = enclosing_function(d, at) {
                let local = occurrences(func, &name, src).into_iter().any(|o| {
                    o.parent().is_some_and(|p| {
                        matches!(
                            p.kind(),
                            "parameters" | "default_parameter" | "typed_parameter" | "typed_default_parameter"
                        ) || p.kind() == "assignment" && p.child_by_field_name("left") == Some(o)
                    })
                });
                if local {
                    return false;
                }
            }
            module_binds(at, &name, src)
        }
        _ => false,
    }
}

/// `if k not in d: d[k] = …` on a shared map, and `if not os.path.exists(p): os.makedirs(p)`.
fn check_then_act(d: &Python, node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let cond = unparen(cond);
    if cond.kind() == "comparison_operator" {
        membership_then_store(d, node, cond, then, src, out);
    } else if cond.kind() == "not_operator" {
        if let Some(check) = cond
            .child_by_field_name("argument")
            .map(unparen)
            .filter(|n| n.kind() == "call")
        {
            exists_then_create(d, check, then, src, out);
        }
    }
}

/// `if k not in self.cache: … self.cache[k] = v` outside a lock.
fn membership_then_store(
    d: &Python,
    node: Node<'_>,
    cond: Node<'_>,
    then: Node<'_>,
    src: &[u8],
    out: &mut Vec<Finding>,
) {
    let (Some(key), Some(map)) = (cond.named_child(0), cond.named_child(1)) else {
        return;
    };
    let mut cursor = cond.walk();
    let op: Vec<String> = cond
        .children(&mut cursor)
        .filter(|c| !c.is_named())
        .map(|c| text(c, src).into_owned())
        .collect();
    if op.join(" ") != "not in"
        || cond.named_child_count() != 2
        || under_lock(node, src)
        || !is_shared(d, map, node, src)
    {
        return;
    }
    let map_text = text(map, src);
    for n in descendants(then) {
        if n.kind() != "assignment" {
            continue;
        }
        let Some(left) = n.child_by_field_name("left").filter(|l| l.kind() == "subscript") else {
            continue;
        };
        if left
            .child_by_field_name("value")
            .is_some_and(|v| text(v, src) == map_text)
        {
            let mut f = finding(
                "check-then-act",
                n,
                format!("`{} not in {map_text}` is checked, then `{map_text}` is written without a lock: concurrent callers race", text(key, src)),
            );
            f.subject = Some(map_text.into_owned());
            out.push(f);
            return;
        }
    }
}

/// `if not os.path.exists(p): os.makedirs(p)` / `open(p, "w")`; `if not p.exists(): p.mkdir()`.
fn exists_then_create(d: &Python, check: Node<'_>, then: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(checked) = d.callee(check, src) else { return };
    if !matches!(checked.name.as_str(), "exists" | "isdir" | "isfile" | "lexists") {
        return;
    }
    // `os.path.exists(p)` checks its argument; `p.exists()` (pathlib) checks its receiver.
    let (path, on_receiver) = match d.arguments(check).first() {
        Some(a) => (text(*a, src).into_owned(), false),
        None => match checked.receiver.clone() {
            Some(r) => (r, true),
            None => return,
        },
    };
    for call in descendants(then).into_iter().filter(|n| n.kind() == "call") {
        let Some(act) = d.callee(call, src) else { continue };
        let args = d.arguments(call);
        let exist_ok = keyword(d, call, "exist_ok", src).is_some_and(|v| text(v, src) == "True");
        let target = if on_receiver {
            act.receiver.clone()
        } else {
            args.first().map(|a| text(*a, src).into_owned())
        };
        if target.as_deref() != Some(path.as_str()) || exist_ok {
            continue;
        }
        let creates = match act.name.as_str() {
            "makedirs" | "mkdir" | "symlink" | "touch" | "write_text" | "write_bytes" => true,
            // `open(p, "x")` fails if the file appeared: the safe form.
            "open" => args
                .get(1)
                .and_then(|m| d.string_literal(*m, src))
                .is_some_and(|m| m.contains('w')),
            _ => false,
        };
        if creates {
            let mut f = finding(
                "check-then-act",
                call,
                format!("`{path}` is checked with `{}` and then created with `{}`: another process can create it in between", checked.name, act.name),
            );
            f.subject = Some(path);
            out.push(f);
            return;
        }
    }
}

/// Whether a call opens something that must be closed: files, sockets, connections, URLs.
fn opens(callee: &Callee) -> bool {
    let receiver = callee.receiver.as_deref();
    match callee.name.as_str() {
        "open" => matches!(receiver, None | Some("io" | "codecs" | "gzip" | "bz2" | "lzma" | "os")),
        "socket" => receiver == Some("socket"),
        "create_connection" => receiver == Some("socket"),
        "connect" => matches!(receiver, Some("sqlite3" | "psycopg2" | "pymysql" | "MySQLdb")),
        "urlopen" => true,
        _ => false,
    }
}

/// `f = open(…)` in a function, never closed, returned, yielded or stored.
fn unclosed(d: &Python, assign: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(name), Some(value)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right")) else {
        return;
    };
    let value = unparen(value);
    if name.kind() != "identifier" || value.kind() != "call" {
        return;
    }
    let Some(callee) = d.callee(value, src) else { return };
    if !opens(&callee) {
        return;
    }
    // A module-level handle lives as long as the program: not this rule.
    let Some(scope) = enclosing_function(d, assign) else {
        return;
    };
    let name = text(name, src).into_owned();
    let (mut closed, mut escapes) = (false, false);
    for occ in occurrences(scope, &name, src) {
        let Some(p) = occ.parent() else { continue };
        match p.kind() {
            // `f.close()`, `f.__exit__(…)`.
            "attribute" if p.child_by_field_name("object") == Some(occ) => {
                closed |= p
                    .child_by_field_name("attribute")
                    .is_some_and(|a| matches!(&*text(a, src), "close" | "__exit__"));
            }
            // `with f:` closes it.
            "with_item" => closed = true,
            // `os.close(fd)`, `closing(f)`; handed to a container or an exit stack, it is theirs.
            "argument_list" => {
                let name = p
                    .parent()
                    .and_then(|c| d.callee(c, src))
                    .map(|c| c.name)
                    .unwrap_or_default();
                closed |= matches!(name.as_str(), "close" | "closing");
                escapes |= matches!(
                    name.as_str(),
                    "append" | "add" | "extend" | "put" | "register" | "enter_context"
                );
                // `return self.build_response(req, resp)`: the callee's result carries it out.
                escapes |= super::dialect::ancestors_until(p, |a| d.is_function(a))
                    .any(|a| matches!(a.kind(), "return_statement" | "yield"));
            }
            // `return f`, `return f, n`, `yield f`, `self.f = f`.
            "return_statement" | "yield" => escapes = true,
            "expression_list" | "tuple" => {
                escapes |= p
                    .parent()
                    .is_some_and(|g| matches!(g.kind(), "return_statement" | "yield"))
            }
            "assignment" => escapes |= p.child_by_field_name("right") == Some(occ),
            _ => {}
        }
    }
    if !closed && !escapes {
        let mut f = finding(
            "unclosed-resource",
            assign,
            format!(
                "`{name}` is opened with `{}` and never closed in this function",
                callee.display()
            ),
        );
        f.subject = Some(name);
        f.callee = Some(callee.display());
        out.push(f);
    }
}
