//! Dataflow extraction for Python (see `crate::facts` for the conventions).
//!
//! Every `def` (module level, method, nested) gets a [`FnFlow`] whose line is that of the
//! `function_definition` node — decorators excluded, as `gortex-lang`'s Python extractor spans
//! the graph node. A method's first parameter (`self`/`cls`, whatever its name) is its receiver
//! and not a parameter, unless the method is a `@staticmethod`. Lambdas are flattened into the
//! enclosing function (their body is a [`Return`], like an arrow function's expression body).
//! `with e as x` binds `x` to what `e` reads; `except E as e` binds nothing; comprehension
//! targets read their iterable and the comprehension reads its body, conditions and iterables.
//!
//! A call's `line` is that of its callee name (the attribute of `a.b(…)`), where the graph puts its
//! call reference; a callee that is not a name is `""` and its expression's reads go to
//! `receiver`. Keyword, `*` and `**` arguments are arguments in written order; a parameter default
//! is an assign of the parameter reading the default.
//!
//! Everything is walked with explicit stacks: no recursion on tree depth. Nested functions are
//! flattened down to [`MAX_FLATTEN`] levels (output would otherwise be quadratic on
//! pathologically nested named functions).

use super::named_children;
use super::slots::{PendingCall, Task, Walk, DROP, MAX_FLATTEN};
use crate::facts::{FnFlow, Value};
use gortex_lang::util::line;
use rustc_hash::FxHashMap;
use tree_sitter::{Node, Tree};

/// The dataflow facts of every function in the tree, in source order.
pub(crate) fn extract(tree: &Tree, src: &[u8]) -> Vec<FnFlow> {
    let sites = discover(tree.root_node(), src);
    let mut flows: Vec<FnFlow> = sites.into_iter().map(|s| flow_of(s, src)).collect();
    flows.sort_by_key(|f| f.line);
    flows
}

// ---------------------------------------------------------------------------------------------
// Node helpers
// ---------------------------------------------------------------------------------------------

fn text(node: Node<'_>, src: &[u8]) -> String {
    let end = node.end_byte().min(src.len());
    let start = node.start_byte().min(end);
    String::from_utf8_lossy(&src[start..end]).into_owned()
}

/// Kinds that never read a value.
fn skipped(kind: &str) -> bool {
    matches!(
        kind,
        "comment"
            | "decorator"
            | "type"
            | "type_parameter"
            | "type_alias_statement"
            | "import_statement"
            | "import_from_statement"
            | "future_import_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "case_pattern"
            | "keyword_separator"
            | "positional_separator"
            | "dotted_name"
            | "aliased_import"
            | "wildcard_import"
            | "type_conversion"
            | "pass_statement"
            | "break_statement"
            | "continue_statement"
            | "ellipsis"
            | "none"
            | "true"
            | "false"
            | "integer"
            | "float"
            | "string_start"
            | "string_content"
            | "string_end"
            | "escape_sequence"
            | "line_continuation"
    )
}

/// Fields whose child is a name or a type, never a read.
fn skipped_field(field: Option<&str>) -> bool {
    matches!(
        field,
        Some("name" | "type" | "return_type" | "type_parameters" | "alias" | "operator" | "operators")
    )
}

/// `(x)` → `x`.
fn unwrap_parens(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match named_children(node).as_slice() {
            [only] => node = *only,
            _ => break,
        }
    }
    node
}

/// An attribute chain as an access path (`Ok("request.args")`), or `Err(base)` when it does not
/// start at a variable (the base expression is what it reads).
fn access_path<'t>(node: Node<'t>, src: &[u8]) -> Result<String, Node<'t>> {
    let mut segments: Vec<String> = Vec::new();
    let mut cur = unwrap_parens(node);
    loop {
        match cur.kind() {
            "attribute" => {
                let (Some(object), Some(attr)) =
                    (cur.child_by_field_name("object"), cur.child_by_field_name("attribute"))
                else {
                    return Err(cur);
                };
                segments.push(text(attr, src));
                cur = unwrap_parens(object);
            }
            "identifier" => {
                segments.push(text(cur, src));
                segments.reverse();
                return Ok(segments.join("."));
            }
            _ => return Err(cur),
        }
    }
}

/// The last segment of a decorator's name: `@staticmethod` → `staticmethod`, `@a.b(…)` → `b`.
fn decorator_name(decorator: Node<'_>, src: &[u8]) -> Option<String> {
    let mut expr = decorator.named_child(0)?;
    if expr.kind() == "call" {
        expr = expr.child_by_field_name("function")?;
    }
    let t = text(expr, src);
    Some(t.rsplit('.').next().unwrap_or("").trim().to_string())
}

// ---------------------------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------------------------

struct Site<'t> {
    name: String,
    func: Node<'t>,
    /// A method whose first parameter is the receiver.
    has_receiver: bool,
}

fn discover<'t>(root: Node<'t>, src: &[u8]) -> Vec<Site<'t>> {
    let mut sites = Vec::new();
    // Direct members of a class body: function node id → is a `@staticmethod`.
    let mut members: FxHashMap<usize, bool> = FxHashMap::default();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        match node.kind() {
            "class_definition" => {
                if let Some(body) = node.child_by_field_name("body") {
                    for m in named_children(body) {
                        match m.kind() {
                            "function_definition" => {
                                members.insert(m.id(), false);
                            }
                            "decorated_definition" => {
                                let Some(def) = m.child_by_field_name("definition") else {
                                    continue;
                                };
                                if def.kind() != "function_definition" {
                                    continue;
                                }
                                let is_static = named_children(m)
                                    .into_iter()
                                    .filter(|d| d.kind() == "decorator")
                                    .any(|d| decorator_name(d, src).as_deref() == Some("staticmethod"));
                                members.insert(def.id(), is_static);
                            }
                            _ => {}
                        }
                    }
                }
            }
            "function_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    sites.push(Site {
                        name: text(name, src),
                        func: node,
                        has_receiver: members.get(&node.id()).is_some_and(|is_static| !is_static),
                    });
                }
            }
            _ => {}
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return sites;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Facts of one function
// ---------------------------------------------------------------------------------------------

/// One function's walk: the shared [`Walk`] plus the source it reads names from.
struct Builder<'s, 't> {
    src: &'s [u8],
    w: Walk<'t>,
}

impl<'t> std::ops::Deref for Builder<'_, 't> {
    type Target = Walk<'t>;
    fn deref(&self) -> &Walk<'t> {
        &self.w
    }
}

impl<'t> std::ops::DerefMut for Builder<'_, 't> {
    fn deref_mut(&mut self) -> &mut Walk<'t> {
        &mut self.w
    }
}

fn flow_of(site: Site<'_>, src: &[u8]) -> FnFlow {
    let mut b = Builder { src, w: Walk::new() };
    let mut params = b.function(site.func);
    if site.has_receiver && params.first().is_some_and(|(_, plain)| *plain) {
        params.remove(0);
    }
    b.run();
    let node = site.func;
    b.w.finish(
        site.name,
        line(node),
        node.end_position().row as u32 + 1,
        params.into_iter().map(|(p, _)| p).collect(),
    )
}

impl<'s, 't> Builder<'s, 't> {
    /// Schedules `later` to run in its order (the stack is LIFO).
    fn schedule(&mut self, later: Vec<(Node<'t>, usize)>) {
        for (n, s) in later.into_iter().rev() {
            self.eval(n, s);
        }
    }

    /// Parameters (defaults become assigns) and body of a `def` or `lambda`; returns each
    /// parameter with whether it is a plain positional one (a receiver candidate).
    fn function(&mut self, func: Node<'t>) -> Vec<(String, bool)> {
        let outer = self.depth;
        self.depth += 1;
        let mut params = Vec::new();
        let mut later = Vec::new();
        if let Some(list) = func.child_by_field_name("parameters") {
            for p in named_children(list) {
                let (pattern, default, plain) = match p.kind() {
                    "identifier" => (Some(p), None, true),
                    "typed_parameter" => {
                        let inner = named_children(p).into_iter().find(|c| c.kind() != "type");
                        (inner, None, inner.is_some_and(|i| i.kind() == "identifier"))
                    }
                    "default_parameter" | "typed_default_parameter" => {
                        (p.child_by_field_name("name"), p.child_by_field_name("value"), true)
                    }
                    "list_splat_pattern" | "dictionary_splat_pattern" | "tuple_pattern" => (Some(p), None, false),
                    _ => continue, // `*`, `/` separators
                };
                let Some(pattern) = pattern else { continue };
                let (names, _) = self.bind(pattern, line(p), default, &mut later);
                params.push((names.join(","), plain));
            }
        }
        if let Some(body) = func.child_by_field_name("body") {
            if func.kind() == "lambda" {
                let r = self.slot();
                self.returns.push((r, line(body)));
                self.eval(body, r);
            } else {
                self.eval(body, DROP);
            }
        }
        self.schedule(later);
        self.depth = outer;
        params
    }

    /// The names a target pattern binds (identifiers, unpacked names, access paths). When `value`
    /// is given each name gets an assign reading it (the slot is returned); subscript indices are
    /// read into nothing. Evaluations are appended to `later` in source order.
    fn bind(
        &mut self,
        pattern: Node<'t>,
        at: u32,
        value: Option<Node<'t>>,
        later: &mut Vec<(Node<'t>, usize)>,
    ) -> (Vec<String>, Option<usize>) {
        let mut names = Vec::new();
        let mut side = Vec::new();
        let mut stack = vec![pattern];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "identifier" => names.push(text(n, self.src)),
                "attribute" => match access_path(n, self.src) {
                    Ok(p) => names.push(p),
                    Err(base) => side.push(base),
                },
                "subscript" => {
                    let value = n.child_by_field_name("value");
                    for c in named_children(n) {
                        if Some(c) != value {
                            side.push(c);
                        }
                    }
                    if let Some(v) = value {
                        stack.push(v);
                    }
                }
                "pattern_list"
                | "tuple_pattern"
                | "list_pattern"
                | "tuple"
                | "list"
                | "parenthesized_expression"
                | "expression_list"
                | "as_pattern_target"
                | "list_splat_pattern"
                | "list_splat"
                | "dictionary_splat_pattern" => {
                    let kids = named_children(n);
                    stack.extend(kids.into_iter().rev());
                }
                _ => {}
            }
        }
        let mut slot = None;
        if let Some(v) = value {
            if names.is_empty() {
                later.push((v, DROP));
            } else {
                let s = self.slot();
                for name in &names {
                    self.assigns.push((name.clone(), s, at));
                }
                later.push((v, s));
                slot = Some(s);
            }
        }
        later.extend(side.into_iter().map(|n| (n, DROP)));
        (names, slot)
    }

    fn run(&mut self) {
        while let Some((node, slot)) = self.next() {
            self.visit(node, slot);
        }
    }

    fn visit(&mut self, node: Node<'t>, slot: usize) {
        let kind = node.kind();
        if skipped(kind) {
            return;
        }
        match kind {
            "identifier" => {
                let v = Value::Var(text(node, self.src));
                self.put(slot, v);
            }
            "attribute" => match access_path(node, self.src) {
                Ok(p) => self.put(slot, Value::Var(p)),
                Err(base) if base.id() != node.id() => self.eval(base, slot),
                Err(_) => self.generic(node, slot),
            },
            "call" => self.call(node, slot),
            "assignment" => {
                // `a = b = value`: every target reads the value.
                let mut targets = Vec::new();
                let mut cur = node;
                let value = loop {
                    if let Some(left) = cur.child_by_field_name("left") {
                        targets.push(left);
                    }
                    match cur.child_by_field_name("right") {
                        Some(r) if r.kind() == "assignment" => cur = r,
                        other => break other,
                    }
                };
                let Some(value) = value else {
                    return; // annotation only: `x: int`
                };
                let mut later = Vec::new();
                let mut shared: Option<usize> = None;
                let mut names = Vec::new();
                for t in targets {
                    let mut side = Vec::new();
                    let (n, _) = self.bind(t, line(node), None, &mut side);
                    later.extend(side);
                    names.extend(n);
                }
                if !names.is_empty() {
                    let s = self.slot();
                    for n in &names {
                        self.assigns.push((n.clone(), s, line(node)));
                    }
                    shared = Some(s);
                }
                later.insert(0, (value, shared.unwrap_or(DROP)));
                self.schedule(later);
            }
            "augmented_assignment" => {
                let Some(target) = node.child_by_field_name("left") else {
                    return;
                };
                let mut later = Vec::new();
                let (names, _) = self.bind(target, line(node), None, &mut later);
                let s = self.slot();
                for n in &names {
                    self.assigns.push((n.clone(), s, line(node)));
                    self.slots[s].push(Value::Var(n.clone()));
                }
                if let Some(r) = node.child_by_field_name("right") {
                    later.insert(0, (r, s));
                }
                self.schedule(later);
            }
            "named_expression" => {
                let (Some(name), value) = (node.child_by_field_name("name"), node.child_by_field_name("value")) else {
                    return;
                };
                let mut later = Vec::new();
                let (names, _) = self.bind(name, line(node), value, &mut later);
                for n in names {
                    self.put(slot, Value::Var(n));
                }
                self.schedule(later);
            }
            "for_statement" => {
                if let Some(alt) = node.child_by_field_name("alternative") {
                    self.eval(alt, DROP);
                }
                if let Some(body) = node.child_by_field_name("body") {
                    self.eval(body, DROP);
                }
                if let Some(left) = node.child_by_field_name("left") {
                    let mut later = Vec::new();
                    self.bind(left, line(left), node.child_by_field_name("right"), &mut later);
                    self.schedule(later);
                }
            }
            "for_in_clause" => {
                let (Some(left), Some(right)) = (node.child_by_field_name("left"), node.child_by_field_name("right"))
                else {
                    return self.generic(node, slot);
                };
                let mut later = Vec::new();
                let (_, s) = self.bind(left, line(left), Some(right), &mut later);
                if let Some(s) = s {
                    self.stack.push(Task::Copy(s, slot));
                } else {
                    later.iter_mut().for_each(|(n, sl)| {
                        if n.id() == right.id() {
                            *sl = slot;
                        }
                    });
                }
                self.schedule(later);
            }
            "with_item" => {
                let Some(value) = node.child_by_field_name("value") else {
                    return;
                };
                let target = (value.kind() == "as_pattern")
                    .then(|| value.child_by_field_name("alias"))
                    .flatten();
                match (target, value.named_child(0)) {
                    (Some(target), Some(expr)) => {
                        let mut later = Vec::new();
                        self.bind(target, line(node), Some(expr), &mut later);
                        self.schedule(later);
                    }
                    _ => self.eval(value, DROP),
                }
            }
            "return_statement" => {
                let r = self.slot();
                self.returns.push((r, line(node)));
                self.generic(node, r);
            }
            "function_definition" | "lambda" => {
                // Flattened: the function value reads nothing, its body's facts are ours.
                if self.depth <= MAX_FLATTEN {
                    self.function(node);
                }
            }
            _ => self.generic(node, slot),
        }
    }

    /// Operators, literals with parts, statements…: the union of their children.
    fn generic(&mut self, node: Node<'t>, slot: usize) {
        let mut kids = Vec::new();
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                let n = cursor.node();
                if n.is_named() && !skipped_field(cursor.field_name()) && !skipped(n.kind()) {
                    kids.push(n);
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        for k in kids.into_iter().rev() {
            self.eval(k, slot);
        }
    }

    fn call(&mut self, node: Node<'t>, slot: usize) {
        let Some(func) = node.child_by_field_name("function") else {
            return self.generic(node, slot);
        };
        let func = unwrap_parens(func);
        let (callee, name_node, receiver) = match func.kind() {
            "identifier" => (text(func, self.src), func, None),
            "attribute" => match func.child_by_field_name("attribute") {
                Some(attr) => (text(attr, self.src), attr, func.child_by_field_name("object")),
                None => (String::new(), func, Some(func)),
            },
            _ => (String::new(), func, Some(func)),
        };
        let args = node.child_by_field_name("arguments");
        let order = args.map(|a| a.start_byte()).unwrap_or(node.end_byte());
        let index = self.calls.len() as u32;
        self.put(slot, Value::Call(index));
        let recv_slot = self.slot();
        let mut arg_slots = Vec::new();
        let mut later = Vec::new();
        if let Some(r) = receiver {
            later.push((r, recv_slot));
        }
        if let Some(args) = args {
            let list = if args.kind() == "argument_list" {
                named_children(args)
            } else {
                vec![args] // `f(x for x in xs)`: the generator is the one argument
            };
            for a in list {
                let value = if a.kind() == "keyword_argument" {
                    match a.child_by_field_name("value") {
                        Some(v) => v,
                        None => continue,
                    }
                } else {
                    a
                };
                let s = self.slot();
                arg_slots.push(s);
                later.push((value, s));
            }
        }
        self.calls.push(PendingCall {
            callee,
            receiver: recv_slot,
            args: arg_slots,
            line: line(name_node),
            order,
        });
        self.schedule(later);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::facts::FnFlow;
    use gortex_core::{Language, NodeKind};

    fn py(src: &str) -> Vec<FnFlow> {
        crate::extract::extract(Language::Python, src).expect("python is a dataflow language")
    }
    fn named(all: &[FnFlow], name: &str) -> FnFlow {
        let found: Vec<&FnFlow> = all.iter().filter(|f| f.name == name).collect();
        assert_eq!(found.len(), 1, "expected one flow named {name} in {all:#?}");
        found[0].clone()
    }

    #[test]
    fn flask_handler() {
        let src = r#"from flask import request

@app.route("/user")
def get_user():
    uid = request.args.get("id")
    sql = "SELECT * FROM u WHERE id=" + uid
    return db.execute(sql)
"#;
        assert_eq!(
            py(src),
            vec![FnFlow {
                name: "get_user".to_string(),
                line: 4,
                end_line: 7,
                params: vec![],
                assigns: vec![assign("uid", vec![c(0)], 5), assign("sql", vec![v("uid")], 6)],
                calls: vec![
                    call("get", vec![v("request.args")], vec![vec![]], 5),
                    call("execute", vec![v("db")], vec![vec![v("sql")]], 7),
                ],
                returns: vec![ret(vec![c(1)], 7)],
            }]
        );
    }

    #[test]
    fn three_function_chain() {
        let src = "def a(x):\n    return b(x)\n\ndef b(y):\n    return c(y)\n\ndef c(z):\n    return z\n";
        let all = py(src);
        let heads: Vec<(&str, u32, u32)> = all.iter().map(|f| (f.name.as_str(), f.line, f.end_line)).collect();
        assert_eq!(heads, vec![("a", 1, 2), ("b", 4, 5), ("c", 7, 8)]);
        assert_eq!(all[0].params, vec!["x"]);
        assert_eq!(all[0].calls, vec![call("b", vec![], vec![vec![v("x")]], 2)]);
        assert_eq!(all[0].returns, vec![ret(vec![c(0)], 2)]);
        assert_eq!(all[1].calls, vec![call("c", vec![], vec![vec![v("y")]], 5)]);
        assert_eq!(all[1].returns, vec![ret(vec![c(0)], 5)]);
        assert_eq!(all[2].params, vec!["z"]);
        assert_eq!(all[2].returns, vec![ret(vec![v("z")], 8)]);
    }

    #[test]
    fn methods_receivers_and_keyword_arguments() {
        let src = r#"class Repo(Base):
    def __init__(self, db, *args, timeout=5, **kwargs):
        super().__init__(db, *args)
        self.db = db
        self.timeout = timeout

    @staticmethod
    def make(url):
        return Repo(connect(url), timeout=3)

    @classmethod
    def build(cls, url):
        return cls(url)

    def find(self, uid: int, *, deep: bool = False) -> "User":
        rows = self.db.query("SELECT", uid, deep=deep)
        return rows[0]
"#;
        let all = py(src);
        let init = named(&all, "__init__");
        assert_eq!(init.params, vec!["db", "args", "timeout", "kwargs"]);
        assert_eq!(
            init.assigns,
            vec![
                assign("timeout", vec![], 2),
                assign("self.db", vec![v("db")], 4),
                assign("self.timeout", vec![v("timeout")], 5),
            ]
        );
        assert_eq!(
            init.calls,
            vec![
                call("super", vec![], vec![], 3),
                call("__init__", vec![c(0)], vec![vec![v("db")], vec![v("args")]], 3),
            ]
        );
        let make = named(&all, "make");
        assert_eq!(make.params, vec!["url"]);
        assert_eq!(
            make.calls,
            vec![
                call("Repo", vec![], vec![vec![c(1)], vec![]], 9),
                call("connect", vec![], vec![vec![v("url")]], 9),
            ]
        );
        let build = named(&all, "build");
        assert_eq!(build.params, vec!["url"]);
        assert_eq!(build.calls, vec![call("cls", vec![], vec![vec![v("url")]], 13)]);
        let find = named(&all, "find");
        assert_eq!((find.line, find.end_line), (15, 17));
        assert_eq!(find.params, vec!["uid", "deep"]);
        assert_eq!(
            find.assigns,
            vec![assign("deep", vec![], 15), assign("rows", vec![c(0)], 16)]
        );
        assert_eq!(
            find.calls,
            vec![call(
                "query",
                vec![v("self.db")],
                vec![vec![], vec![v("uid")], vec![v("deep")]],
                16
            )]
        );
        assert_eq!(find.returns, vec![ret(vec![v("rows")], 17)]);
    }

    #[test]
    fn assignments_loops_with_and_comprehensions() {
        let src = r#"def f(a, b, items, d):
    x, y = g(a)
    m = n = b
    a += b
    d["k"] = a.val
    t = a.b.c[b]
    (z := h(b))
    for i, item in enumerate(items):
        pass
    with open(a) as fh, lock:
        data = fh.read()
    ids = [it.id for it in items if it.ok]
    fn = lambda q: q.strip()
    s = f"{a} and {b!r}"
    try:
        pass
    except ValueError as e:
        log(e)
    return x, y
"#;
        let f = named(&py(src), "f");
        assert_eq!(f.params, vec!["a", "b", "items", "d"]);
        assert_eq!(
            f.assigns,
            vec![
                assign("x", vec![c(0)], 2),
                assign("y", vec![c(0)], 2),
                assign("m", vec![v("b")], 3),
                assign("n", vec![v("b")], 3),
                assign("a", vec![v("a"), v("b")], 4),
                assign("d", vec![v("a.val")], 5),
                assign("t", vec![v("a.b.c"), v("b")], 6),
                assign("z", vec![c(1)], 7),
                assign("i", vec![c(2)], 8),
                assign("item", vec![c(2)], 8),
                assign("fh", vec![c(3)], 10),
                assign("data", vec![c(4)], 11),
                assign("ids", vec![v("it.id"), v("items"), v("it.ok")], 12),
                assign("it", vec![v("items")], 12),
                assign("fn", vec![], 13),
                assign("s", vec![v("a"), v("b")], 14),
            ]
        );
        let callees: Vec<(&str, u32)> = f.calls.iter().map(|c| (c.callee.as_str(), c.line)).collect();
        assert_eq!(
            callees,
            vec![
                ("g", 2),
                ("h", 7),
                ("enumerate", 8),
                ("open", 10),
                ("read", 11),
                ("strip", 13),
                ("log", 18)
            ]
        );
        assert_eq!(f.calls[4].receiver, vec![v("fh")]);
        assert_eq!(f.calls[6].args, vec![vec![v("e")]]);
        // The lambda's body returns into the enclosing function (flattened).
        assert_eq!(f.returns, vec![ret(vec![c(5)], 13), ret(vec![v("x"), v("y")], 19)]);
    }

    #[test]
    fn nested_functions_and_classes() {
        let src = r#"def outer(a):
    @wraps(a)
    async def inner(b, c=None):
        return await sink(b)
    class Local:
        def m(self, q):
            return q
    return inner(a)
"#;
        let all = py(src);
        let heads: Vec<(&str, u32)> = all.iter().map(|f| (f.name.as_str(), f.line)).collect();
        assert_eq!(heads, vec![("outer", 1), ("inner", 3), ("m", 6)]);
        let outer = named(&all, "outer");
        assert_eq!(
            outer.calls,
            vec![
                call("sink", vec![], vec![vec![v("b")]], 4),
                call("inner", vec![], vec![vec![v("a")]], 8),
            ]
        );
        assert_eq!(outer.assigns, vec![assign("c", vec![], 3)]);
        assert_eq!(
            outer.returns,
            vec![ret(vec![c(0)], 4), ret(vec![v("q")], 7), ret(vec![c(1)], 8)]
        );
        let inner = named(&all, "inner");
        assert_eq!(inner.params, vec!["b", "c"]);
        assert_eq!(named(&all, "m").params, vec!["q"]);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        // As deep as `gortex_lang::MAX_TREE_DEPTH` lets a file be (a call nests two levels).
        let n = 1_500;
        let parens = format!("def f(a):\n    return {}a{}\n", "(".repeat(n), ")".repeat(n));
        let sum = format!("def g(a):\n    return a{}\n", " + a".repeat(3_000));
        let calls = format!("def h(a):\n    return {}a{}\n", "k(".repeat(n), ")".repeat(n));
        let chain = format!("def m(a):\n    return a{}\n", ".b()".repeat(n));
        let lists = format!("def p(a):\n    x = {}a{}\n", "[".repeat(n), "]".repeat(n));
        let lambdas = format!("def q(a):\n    return {}a\n", "lambda: ".repeat(n));
        for src in [parens, sum, calls, chain, lists, lambdas] {
            assert!(!py(&src).is_empty());
        }
        let sum = format!("def g(a):\n    return a{}\n", " + a".repeat(3_000));
        assert_eq!(py(&sum)[0].returns, vec![ret(vec![v("a")], 2)]);
        let calls = format!("def h(a):\n    return {}a{}\n", "k(".repeat(n), ")".repeat(n));
        let h = &py(&calls)[0];
        assert_eq!(h.calls.len(), n);
        assert_eq!(h.calls[0].args, vec![vec![c(1)]]);
        assert_eq!(h.calls[n - 1].args, vec![vec![v("a")]]);
        // Deeper trees are refused before any walker runs.
        let deeper = format!("def g(a):\n    return a{}\n", " + a".repeat(20_000));
        assert!(crate::extract::extract(Language::Python, &deeper).is_none());
    }

    #[test]
    fn deeply_nested_functions_are_flattened_to_a_bound() {
        let n = 60;
        let mut src = String::new();
        for i in 0..n {
            src.push_str(&format!("{0}def f(a):\n{0}    g(a)\n", " ".repeat(4 * i)));
        }
        let all = py(&src);
        assert_eq!(all.len(), n);
        assert_eq!(all[0].calls.len(), super::MAX_FLATTEN as usize + 1);
        assert_eq!(all[n - 1].calls.len(), 1);
    }

    #[test]
    fn empty_and_broken_sources() {
        assert!(py("").is_empty());
        assert!(py("x = 1\nprint(x)\n").is_empty(), "module-level code is not reported");
        for src in [
            "def f(a:\n    return a.b(\n",
            "class :\n  def",
            "def g(x):\n    y = \n    return x\n",
            ")))(((",
        ] {
            let _ = py(src);
        }
        let g = named(&py("def g(x):\n    y = \n    return x\n"), "g");
        assert_eq!(g.params, vec!["x"]);
    }

    /// Every flow matches a graph Function/Method node by name and start line and vice versa.
    #[test]
    fn flows_match_graph_nodes() {
        let src = r#"import functools

def plain(a):
    def nested(b):
        return b
    return nested(a)

@functools.lru_cache(maxsize=None)
def cached(x):
    return x

class Service:
    """Doc."""

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    async def run(self):
        pass

    class Inner:
        def deep(self):
            pass

lam = lambda z: z
"#;
        let ctx = gortex_lang::FileContext {
            path: "svc.py",
            is_test_file: false,
        };
        let facts = gortex_lang::extract_file(
            Language::Python,
            src.as_bytes(),
            &ctx,
            std::time::Duration::from_secs(10),
        )
        .expect("extracts");
        let mut graph: Vec<(String, u32)> = facts
            .symbols
            .iter()
            .filter(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method))
            .map(|s| (s.name.clone(), s.span.start_line))
            .collect();
        graph.sort();
        assert!(graph.len() >= 7);
        let mut ours: Vec<(String, u32)> = py(src).into_iter().map(|f| (f.name, f.line)).collect();
        ours.sort();
        assert_eq!(ours, graph);
    }
}
