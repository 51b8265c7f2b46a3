//! Java: the dialect and the rules only this language spells this way.

use super::dialect::{
    contains, descendants, empty_block, enclosing_function, following_statements, has_child_kind, named_children, norm,
    operator, plus_operands, preorder, statement_of, unparen, BuiltString, Callee, Dialect,
};
use super::shared::{self, finding};
use super::{words, Finding};
use crate::util::text;
use tree_sitter::{Node, Tree};

struct Java;

/// Statement lists: a statement's parent is one of these.
const BLOCKS: &[&str] = &[
    "block",
    "program",
    "switch_block_statement_group",
    "constructor_body",
    "class_body",
];

/// Function-like nodes: where a walk up for the enclosing scope stops.
const FUNCTIONS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "compact_constructor_declaration",
    "lambda_expression",
];

/// Stream and collection calls whose lambda runs once per element.
const ITERATION_CALLS: &[&str] = &[
    "forEach",
    "forEachOrdered",
    "map",
    "flatMap",
    "filter",
    "peek",
    "anyMatch",
    "allMatch",
    "noneMatch",
    "mapToObj",
    "mapToInt",
    "mapToLong",
    "removeIf",
    "replaceAll",
];

/// Types whose constructor opens an OS resource.
const OPENERS: &[&str] = &[
    "FileInputStream",
    "FileOutputStream",
    "FileReader",
    "FileWriter",
    "RandomAccessFile",
    "ZipFile",
    "JarFile",
    "Socket",
    "ServerSocket",
];

/// Types that wrap a stream: they own a resource when what they wrap is one.
const WRAPPERS: &[&str] = &[
    "BufferedReader",
    "BufferedWriter",
    "InputStreamReader",
    "OutputStreamWriter",
    "BufferedInputStream",
    "BufferedOutputStream",
    "PrintWriter",
    "PrintStream",
    "DataInputStream",
    "DataOutputStream",
    "ObjectInputStream",
    "ObjectOutputStream",
    "GZIPInputStream",
    "GZIPOutputStream",
    "Scanner",
];

/// Calls that return an open resource (`Files.newBufferedReader`, `conn.createStatement()`…).
const OPEN_CALLS: &[&str] = &[
    "newBufferedReader",
    "newBufferedWriter",
    "newInputStream",
    "newOutputStream",
    "getConnection",
    "createStatement",
    "prepareStatement",
    "prepareCall",
    "newByteChannel",
];

/// Shells whose `-c` argument is parsed as a command line.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/bin/zsh",
    "cmd",
    "cmd.exe",
];

impl Dialect for Java {
    fn is_call(&self, node: Node<'_>) -> bool {
        node.kind() == "method_invocation"
    }

    fn callee(&self, call: Node<'_>, src: &[u8]) -> Option<Callee> {
        if call.kind() != "method_invocation" {
            return None;
        }
        Some(Callee {
            receiver: call.child_by_field_name("object").map(|o| text(o, src).into_owned()),
            name: text(call.child_by_field_name("name")?, src).into_owned(),
        })
    }

    fn arguments<'t>(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let Some(args) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        named_children(args)
            .into_iter()
            .filter(|n| !n.kind().ends_with("comment"))
            .collect()
    }

    fn string_literal(&self, node: Node<'_>, src: &[u8]) -> Option<String> {
        if node.kind() != "string_literal" {
            return None;
        }
        let t = text(node, src);
        // A text block is `"""…"""`; a plain literal is `"…"`.
        let q = if t.starts_with("\"\"\"") && t.len() >= 6 { 3 } else { 1 };
        Some(t.get(q..t.len().saturating_sub(q)).unwrap_or("").to_string())
    }

    fn built_string(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        let mut built = BuiltString::default();
        match node.kind() {
            "binary_expression" if operator(node, src).as_deref() == Some("+") => {
                for n in plus_operands(node, "binary_expression", src) {
                    if let Some(s) = self.string_literal(n, src) {
                        built.text.push_str(&s);
                    } else if let Some(inner) = self.format_call(n, src) {
                        built.text.push_str(&inner.text);
                        built.values.extend(inner.values);
                    } else {
                        built.values.push(text(n, src).into_owned());
                    }
                }
            }
            "method_invocation" => built = self.format_call(node, src)?,
            _ => return None,
        }
        (!built.values.is_empty() && !built.text.is_empty()).then_some(built)
    }

    fn binding<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
        let (name, value) = match node.kind() {
            "variable_declarator" | "resource" => {
                (node.child_by_field_name("name")?, node.child_by_field_name("value")?)
            }
            "assignment_expression" => (node.child_by_field_name("left")?, node.child_by_field_name("right")?),
            _ => return None,
        };
        let n = text(name, src);
        Some((n.rsplit('.').next().unwrap_or(&n).to_string(), value))
    }

    fn comparison<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String, Node<'t>)> {
        if node.kind() != "binary_expression" {
            return None;
        }
        let op = operator(node, src)?;
        matches!(op.as_str(), "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||").then(|| {
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
            "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement"
        )
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        FUNCTIONS.contains(&node.kind())
    }

    fn is_iteration_callback(&self, function: Node<'_>, src: &[u8]) -> bool {
        // lambda → argument_list → method_invocation named `.forEach/.map/...`
        if function.kind() != "lambda_expression" {
            return false;
        }
        let Some(call) = function.parent().and_then(|a| a.parent()) else {
            return false;
        };
        self.callee(call, src)
            .is_some_and(|c| c.receiver.is_some() && ITERATION_CALLS.contains(&c.name.as_str()))
    }

    fn is_sql_sink(&self, callee: &Callee) -> bool {
        let db = callee.receiver_leaf().is_some_and(|r| is_db_receiver(&r));
        match callee.name.as_str() {
            "executeQuery" | "executeUpdate" | "executeLargeUpdate" | "addBatch" | "prepareStatement"
            | "prepareCall" | "createQuery" | "createNativeQuery" | "queryForObject" | "queryForList"
            | "queryForMap" | "queryForRowSet" => callee.receiver.is_some(),
            // Ambiguous names (an executor's `execute`, a cache's `update`): only on a database.
            "execute" | "query" | "update" | "batchUpdate" => db,
            _ => false,
        }
    }

    fn shell_command<'t>(&self, call: Node<'t>, callee: &Callee, src: &[u8]) -> Option<Node<'t>> {
        if callee.name != "exec"
            || !callee
                .receiver_leaf()
                .is_some_and(|r| matches!(r.as_str(), "getruntime" | "runtime" | "rt"))
        {
            return None;
        }
        let first = *self.arguments(call).first()?;
        if first.kind() == "array_creation_expression" {
            // `exec(new String[] {"sh", "-c", cmd})`: the element after `-c` is the command line.
            let init = named_children(first)
                .into_iter()
                .find(|n| n.kind() == "array_initializer")?;
            return shell_c_argument(self, &named_children(init), src);
        }
        // `exec(String)` splits on spaces without a shell, but a spliced value still picks the
        // program's arguments (and the program, when it comes first).
        Some(first)
    }

    fn weak_crypto(&self, call: Node<'_>, callee: &Callee, src: &[u8]) -> Option<String> {
        let leaf = callee.receiver_leaf()?;
        if callee.name != "getInstance" || !matches!(leaf.as_str(), "messagedigest" | "cipher" | "keygenerator" | "mac")
        {
            return None;
        }
        let alg = self.string_literal(*self.arguments(call).first()?, src)?;
        if let Some(weak) = words::weak_algorithm(&alg) {
            return Some(weak.to_string());
        }
        // A transformation without a mode (`"AES"`) gets the provider default, which is ECB.
        (leaf == "cipher" && alg.eq_ignore_ascii_case("aes"))
            .then(|| "AES with no mode (Java defaults to ECB)".to_string())
    }
}

impl Java {
    /// `String.format(fmt, args…)` and `"fmt".formatted(args…)` as a built string.
    fn format_call(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        let c = self.callee(node, src)?;
        let args = self.arguments(node);
        let (fmt, rest) = match c.name.as_str() {
            "format" if c.receiver.as_deref() == Some("String") => {
                // `String.format(Locale.ROOT, fmt, …)` puts the format second.
                let i = usize::from(args.first().is_some_and(|a| self.string_literal(*a, src).is_none()));
                (
                    self.string_literal(*args.get(i)?, src)?,
                    args.get(i + 1..).unwrap_or(&[]).to_vec(),
                )
            }
            "formatted" => (self.string_literal(node.child_by_field_name("object")?, src)?, args),
            _ => return None,
        };
        let values = rest.iter().map(|a| text(*a, src).into_owned()).collect();
        Some(BuiltString { text: fmt, values })
    }
}

/// Whether a receiver's last segment is a JDBC/JPA handle (`jdbcTemplate`, `stmt`, `conn`).
fn is_db_receiver(leaf: &str) -> bool {
    words::is_io_receiver(leaf)
        || [
            "jdbctemplate",
            "stmt",
            "statement",
            "conn",
            "connection",
            "entitymanager",
        ]
        .iter()
        .any(|w| leaf.ends_with(w))
}

/// The command line of a `sh -c CMD` argument list, when the list starts with a shell and `-c`.
fn shell_c_argument<'t>(d: &Java, args: &[Node<'t>], src: &[u8]) -> Option<Node<'t>> {
    let shell = d.string_literal(*args.first()?, src)?;
    let flag = d.string_literal(*args.get(1)?, src)?;
    (SHELLS.contains(&shell.as_str()) && matches!(flag.as_str(), "-c" | "/c" | "/C")).then(|| args.get(2).copied())?
}

/// Runs every Java rule.
pub fn scan(tree: &Tree, src: &[u8]) -> Vec<Finding> {
    let d = Java;
    let nodes = preorder(tree);
    let mut out = Vec::new();
    shared::run(&d, &nodes, src, &mut out);
    for &node in &nodes {
        match node.kind() {
            "variable_declarator" => {
                null_deref_binding(&d, node, src, &mut out);
                unclosed(&d, node, src, &mut out);
            }
            "method_invocation" => {
                null_deref_chain(&d, node, src, &mut out);
                equals_itself(&d, node, src, &mut out);
            }
            "object_creation_expression" => process_builder_shell(&d, node, src, &mut out),
            "if_statement" => {
                deref_in_null_branch(node, src, &mut out);
                check_then_act(&d, node, src, &mut out);
            }
            "catch_clause" => {
                if let Some(body) = node.child_by_field_name("body") {
                    if empty_block(body, src) == (true, false) {
                        out.push(finding(
                            "swallowed-error",
                            node,
                            "the catch block is empty: the exception disappears".into(),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `a.equals(a)` / `Objects.equals(a, a)`: the shared rule sees only operators.
fn equals_itself(d: &Java, call: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(c) = d.callee(call, src) else { return };
    let args = d.arguments(call);
    let pair = match (c.name.as_str(), c.receiver.as_deref(), args.as_slice()) {
        ("equals" | "equalsIgnoreCase", Some(_), [arg]) => call.child_by_field_name("object").map(|o| (o, *arg)),
        ("equals" | "deepEquals", Some("Objects" | "java.util.Objects"), [a, b]) => Some((*a, *b)),
        _ => None,
    };
    let Some((l, r)) = pair else { return };
    let (l, r) = (norm(l, src), norm(r, src));
    // A call may return a different value each time; only plain names and fields are the same value.
    if l == r && !l.is_empty() && !l.contains('(') {
        let mut f = finding(
            "self-comparison",
            call,
            format!("`{}` compares `{l}` with itself", norm(call, src)),
        );
        f.subject = Some(l);
        out.push(f);
    }
}

/// The nearest ancestor of `node` of one of `kinds`.
fn ancestor<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if kinds.contains(&n.kind()) {
            return Some(n);
        }
        cur = n.parent();
    }
    None
}

/// The method or constructor around `node`, skipping lambdas (their locals are the method's).
fn enclosing_method(node: Node<'_>) -> Option<Node<'_>> {
    ancestor(
        node,
        &[
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
        ],
    )
}

/// The class body around `node`.
fn enclosing_class_body(node: Node<'_>) -> Option<Node<'_>> {
    ancestor(node, &["class_body", "enum_body_declarations", "interface_body"])
}

/// The declared type of `name` among the parameters and locals under `scope` (`fields` picks
/// field declarations of a class body instead, not descending into methods).
fn declared_type(scope: Node<'_>, name: &str, fields: bool, src: &[u8]) -> Option<String> {
    let candidates = if fields {
        named_children(scope)
            .into_iter()
            .filter(|n| n.kind() == "field_declaration")
            .flat_map(descendants)
            .collect()
    } else {
        descendants(scope)
    };
    for n in candidates {
        let decl = match n.kind() {
            "formal_parameter" | "catch_formal_parameter" | "resource" => n,
            "variable_declarator" => match n.parent() {
                Some(p) if matches!(p.kind(), "local_variable_declaration" | "field_declaration") => p,
                _ => continue,
            },
            _ => continue,
        };
        if n.child_by_field_name("name").is_some_and(|id| text(id, src) == name) {
            return Some(
                decl.child_by_field_name("type")
                    .map(|t| text(t, src).into_owned())
                    .unwrap_or_default(),
            );
        }
    }
    None
}

/// Whether `name` (as written at `at`: `x` or `this.x`) is a field of the enclosing class and
/// not a local or parameter of the method.
fn is_field(at: Node<'_>, written: &str, src: &[u8]) -> bool {
    if let Some(f) = written.strip_prefix("this.") {
        return !f.contains('.');
    }
    if written.contains('.') || written.contains('(') {
        return false;
    }
    let local = enclosing_method(at).and_then(|m| declared_type(m, written, false, src));
    local.is_none()
        && enclosing_class_body(at)
            .and_then(|c| declared_type(c, written, true, src))
            .is_some()
}

/// Whether a receiver names a map: `cache`, `userMap`, or a variable declared as some `Map`.
fn is_map_receiver(at: Node<'_>, receiver: &str, src: &[u8]) -> bool {
    let leaf = receiver.strip_prefix("this.").unwrap_or(receiver);
    let lower = leaf.to_ascii_lowercase();
    if lower.ends_with("map") || lower.ends_with("cache") {
        return true;
    }
    if leaf.contains(['.', '(']) {
        return false;
    }
    let ty = enclosing_method(at)
        .and_then(|m| declared_type(m, leaf, false, src))
        .or_else(|| enclosing_class_body(at).and_then(|c| declared_type(c, leaf, true, src)));
    ty.is_some_and(|t| t.split('<').next().unwrap_or("").trim().ends_with("Map"))
}

/// Whether `call` returns a value that is null when nothing is there (`map.get`, `System.getenv`).
fn nullable_call(d: &Java, call: Node<'_>, src: &[u8]) -> Option<Callee> {
    let c = d.callee(call, src)?;
    let argc = d.arguments(call).len();
    let receiver = c.receiver.as_deref()?;
    let leaf = c.receiver_leaf().unwrap_or_default();
    let nullable = match c.name.as_str() {
        "getenv" | "getProperty" => receiver == "System" && argc == 1,
        "getParameter" | "getHeader" => leaf.contains("request") || leaf == "req",
        "listFiles" => true,
        "get" => argc == 1 && is_map_receiver(call, receiver, src),
        _ => false,
    };
    nullable.then_some(c)
}

/// The uses of the variable `name` under `root` in document order: identifiers that are not a
/// field or method name of something else.
fn uses<'t>(root: Node<'t>, name: &str, src: &[u8]) -> Vec<Node<'t>> {
    descendants(root)
        .into_iter()
        .filter(|n| n.kind() == "identifier" && text(*n, src) == name)
        .filter(|n| {
            n.parent().is_none_or(|p| match p.kind() {
                "field_access" => p.child_by_field_name("field") != Some(*n),
                "method_invocation" => p.child_by_field_name("name") != Some(*n),
                _ => true,
            })
        })
        .collect()
}

/// Whether the use `occ` dereferences the variable (`v.m()`, `v.f`, `v[i]`, `for (x : v)`).
fn is_deref(occ: Node<'_>) -> bool {
    let Some(p) = occ.parent() else { return false };
    match p.kind() {
        "method_invocation" | "field_access" => p.child_by_field_name("object") == Some(occ),
        "array_access" => p.child_by_field_name("array") == Some(occ),
        "enhanced_for_statement" => p.child_by_field_name("value") == Some(occ),
        _ => false,
    }
}

/// `String v = map.get(k); v.trim();`: the first use after the declaration is a dereference.
fn null_deref_binding(d: &Java, decl: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    if decl.parent().is_none_or(|p| p.kind() != "local_variable_declaration") {
        return;
    }
    let (Some(name), Some(value)) = (decl.child_by_field_name("name"), decl.child_by_field_name("value")) else {
        return;
    };
    let value = unparen(value);
    if value.kind() != "method_invocation" {
        return;
    }
    let Some(callee) = nullable_call(d, value, src) else {
        return;
    };
    let name = text(name, src).into_owned();
    let Some(stmt) = statement_of(decl, BLOCKS) else { return };
    // The first use decides: a dereference is the bug; a test, a `requireNonNull(v)`, an
    // `Optional.ofNullable(v)` or any other use ends the search.
    let first = following_statements(stmt)
        .into_iter()
        .find_map(|s| uses(s, &name, src).into_iter().next());
    if let Some(occ) = first.filter(|o| is_deref(*o)) {
        let mut f = finding(
            "null-deref",
            occ,
            format!(
                "`{name}` comes from `{}()`, which can return null, and is dereferenced without a check",
                callee.display()
            ),
        );
        f.subject = Some(name);
        f.callee = Some(callee.display());
        out.push(f);
    }
}

/// `map.get(k).trim()` / `System.getenv("X").length()`: a nullable result dereferenced in place.
fn null_deref_chain(d: &Java, call: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(inner) = call.child_by_field_name("object").map(unparen) else {
        return;
    };
    if inner.kind() != "method_invocation" {
        return;
    }
    let Some(callee) = nullable_call(d, inner, src) else {
        return;
    };
    let mut f = finding(
        "null-deref",
        call,
        format!(
            "the result of `{}()` can be null and is dereferenced directly",
            callee.display()
        ),
    );
    f.callee = Some(callee.display());
    out.push(f);
}

/// The name a condition tests for being null: `x == null`, `null == x`.
fn null_tested(cond: Node<'_>, src: &[u8]) -> Option<String> {
    let cond = unparen(cond);
    if cond.kind() != "binary_expression" || operator(cond, src).as_deref() != Some("==") {
        return None;
    }
    let (l, r) = (cond.child_by_field_name("left")?, cond.child_by_field_name("right")?);
    match (l.kind(), r.kind()) {
        ("identifier", "null_literal") => Some(text(l, src).into_owned()),
        ("null_literal", "identifier") => Some(text(r, src).into_owned()),
        _ => None,
    }
}

/// `if (x == null) { x.foo(); }`: the branch's first use of `x` dereferences it.
fn deref_in_null_branch(node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let Some(name) = null_tested(cond, src) else { return };
    let Some(occ) = uses(then, &name, src).into_iter().next() else {
        return;
    };
    if is_deref(occ) {
        let mut f = finding(
            "deref-in-null-branch",
            occ,
            format!("`{name}` is dereferenced in the branch where it is null"),
        );
        f.subject = Some(name);
        out.push(f);
    }
}

/// Whether `node` runs holding a monitor: a `synchronized` method or a `synchronized (…) {}` block.
fn under_lock(node: Node<'_>) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur {
        match n.kind() {
            "synchronized_statement" => return true,
            "method_declaration" | "constructor_declaration" => {
                return named_children(n)
                    .into_iter()
                    .any(|c| c.kind() == "modifiers" && has_child_kind(c, "synchronized"));
            }
            _ => {}
        }
        cur = n.parent();
    }
    false
}

/// `if (!map.containsKey(k)) map.put(k, v)` on a field without a lock, and `if (!f.exists())
/// f.createNewFile()` / `Files.exists(p)` then `Files.createFile(p)`.
fn check_then_act(d: &Java, node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let (Some(cond), Some(then)) = (
        node.child_by_field_name("condition"),
        node.child_by_field_name("consequence"),
    ) else {
        return;
    };
    let cond = unparen(cond);
    // The check: `!recv.containsKey(k)`, `recv.get(k) == null`, `!Files.exists(p)`, `Files.notExists(p)`.
    let check = match cond.kind() {
        "unary_expression" if operator(cond, src).as_deref() == Some("!") => {
            cond.child_by_field_name("operand").map(unparen)
        }
        "binary_expression" if operator(cond, src).as_deref() == Some("==") => {
            cond.child_by_field_name("left").map(unparen).filter(|_| {
                cond.child_by_field_name("right")
                    .is_some_and(|r| r.kind() == "null_literal")
            })
        }
        "method_invocation" => Some(cond),
        _ => None,
    };
    let Some(check) = check.filter(|c| c.kind() == "method_invocation") else {
        return;
    };
    let Some(checked) = d.callee(check, src) else { return };
    let form = match cond.kind() {
        "unary_expression" => "not",
        "binary_expression" => "null",
        _ => "plain",
    };
    let key = d
        .arguments(check)
        .first()
        .map(|a| text(*a, src).into_owned())
        .unwrap_or_default();
    let recv = checked.receiver.clone().unwrap_or_default();
    let calls: Vec<Node<'_>> = descendants(then)
        .into_iter()
        .filter(|n| n.kind() == "method_invocation")
        .collect();
    let same = |a: &str, b: &str| a.strip_prefix("this.").unwrap_or(a) == b.strip_prefix("this.").unwrap_or(b);
    const FILE_ACTS: &[&str] = &["createFile", "createDirectory", "write", "writeString"];
    // (what the act must be called on, the act names, whether a monitor makes it safe)
    let (target, acts, lockable): (&str, &[&str], bool) = match (checked.name.as_str(), form) {
        ("containsKey" | "contains", "not") | ("get", "null") => {
            // A local map is not shared: only fields race.
            if !is_field(node, &recv, src) {
                return;
            }
            (recv.as_str(), &["put", "add"], true)
        }
        ("exists", "not") | ("notExists", "plain") if recv == "Files" => ("Files", FILE_ACTS, false),
        ("exists", "not") if !recv.is_empty() => (recv.as_str(), &["createNewFile", "mkdir"], false),
        _ => return,
    };
    if lockable && under_lock(node) {
        return;
    }
    for call in calls {
        let Some(act) = d.callee(call, src) else { continue };
        if !acts.contains(&act.name.as_str()) || !act.receiver.as_deref().is_some_and(|r| same(r, target)) {
            continue;
        }
        // The file acts name the path again (`Files.createFile(p)`); `f.createNewFile()` does not.
        if target == "Files" && d.arguments(call).first().is_none_or(|a| text(*a, src) != key) {
            continue;
        }
        let what = if lockable {
            format!("`{recv}` is a shared field and no lock is held")
        } else {
            "another thread or process can create it in between".into()
        };
        let mut f = finding(
            "check-then-act",
            call,
            format!(
                "`{}` is checked, then `{}` acts on it: {what}",
                norm(check, src),
                act.display()
            ),
        );
        f.subject = Some(if target == "Files" { key.clone() } else { recv.clone() });
        f.callee = Some(act.display());
        out.push(f);
        return;
    }
}

/// A resource opened by `value`: an opener's constructor (also under wrappers) or an opening call.
fn opened_by(d: &Java, value: Node<'_>, src: &[u8]) -> Option<String> {
    let mut cur = unparen(value);
    loop {
        match cur.kind() {
            "object_creation_expression" => {
                let ty = cur
                    .child_by_field_name("type")
                    .map(|t| text(t, src).into_owned())
                    .unwrap_or_default();
                let ty = ty
                    .split('<')
                    .next()
                    .unwrap_or("")
                    .rsplit('.')
                    .next()
                    .unwrap_or("")
                    .to_string();
                if OPENERS.contains(&ty.as_str()) {
                    return Some(format!("new {ty}"));
                }
                // A wrapper owns what it wraps: look at its first argument.
                if !WRAPPERS.contains(&ty.as_str()) {
                    return None;
                }
                let args = cur
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default();
                cur = unparen(*args.first()?);
            }
            "method_invocation" => {
                let c = d.callee(cur, src)?;
                // A pool's or `DriverManager`'s `getConnection`, not a config object's getter.
                let leaf = c.receiver_leaf().unwrap_or_default();
                let source =
                    leaf == "drivermanager" || leaf == "ds" || leaf.contains("datasource") || leaf.contains("pool");
                let opens = OPEN_CALLS.contains(&c.name.as_str()) && (c.name != "getConnection" || source)
                    || c.receiver.as_deref() == Some("Files")
                        && matches!(c.name.as_str(), "lines" | "list" | "walk" | "find");
                return opens.then(|| c.display());
            }
            _ => return None,
        }
    }
}

/// `FileInputStream in = new FileInputStream(f)` outside try-with-resources, never closed,
/// returned or handed on.
fn unclosed(d: &Java, decl: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    // Fields and try-with-resources (`resource` nodes) own their resources elsewhere.
    if decl.parent().is_none_or(|p| p.kind() != "local_variable_declaration") {
        return;
    }
    let (Some(name), Some(value)) = (decl.child_by_field_name("name"), decl.child_by_field_name("value")) else {
        return;
    };
    let Some(opener) = opened_by(d, value, src) else { return };
    let name = text(name, src).into_owned();
    let Some(scope) = enclosing_function(d, decl) else {
        return;
    };
    for occ in uses(scope, &name, src) {
        if contains(decl, occ) {
            continue;
        }
        let Some(p) = occ.parent() else { continue };
        let handled = match p.kind() {
            "return_statement" | "resource" | "resource_specification" => true,
            "assignment_expression" => p.child_by_field_name("right") == Some(occ),
            "method_invocation" => {
                p.child_by_field_name("name").is_some_and(|n| text(n, src) == "close")
                    && p.child_by_field_name("object") == Some(occ)
            }
            // Handed to a wrapper's constructor, a closer, or a collection that owns it now.
            "argument_list" => p.parent().is_some_and(|call| {
                call.kind() == "object_creation_expression"
                    || d.callee(call, src).is_some_and(|c| {
                        matches!(
                            c.name.as_str(),
                            "closeQuietly" | "close" | "closeAll" | "add" | "put" | "offer" | "register"
                        )
                    })
            }),
            _ => false,
        };
        if handled {
            return;
        }
    }
    let mut f = finding(
        "unclosed-resource",
        decl,
        format!("`{name}` is opened with `{opener}` and never closed in this method (use try-with-resources)"),
    );
    f.subject = Some(name);
    f.callee = Some(opener);
    out.push(f);
}

/// `new ProcessBuilder("sh", "-c", cmd)` with a built command line (object creation is not a
/// call to the shared rules).
fn process_builder_shell(d: &Java, node: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let ty = node
        .child_by_field_name("type")
        .map(|t| text(t, src).into_owned())
        .unwrap_or_default();
    if ty != "ProcessBuilder" && !ty.ends_with(".ProcessBuilder") {
        return;
    }
    let mut args = d.arguments(node);
    // `new ProcessBuilder(List.of("sh", "-c", cmd))` / `Arrays.asList(…)`.
    if let [one] = args.as_slice() {
        if d.callee(*one, src)
            .is_some_and(|c| matches!(c.name.as_str(), "of" | "asList"))
        {
            args = d.arguments(*one);
        }
    }
    let Some(command) = shell_c_argument(d, &args, src) else {
        return;
    };
    let Some(built) = shared::built_or_traced(d, node, command, src) else {
        return;
    };
    let mut f = finding(
        "shell-string-concat",
        node,
        format!(
            "`new ProcessBuilder(\"sh\", \"-c\", …)` runs a shell command built from `{}`",
            built.values.join("`, `")
        ),
    );
    f.callee = Some("ProcessBuilder".into());
    f.values = built.values;
    out.push(f);
}
