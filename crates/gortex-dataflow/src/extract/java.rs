//! Dataflow extraction for java (see `crate::facts` for the conventions).
//!
//! Functions are `method_declaration`, `constructor_declaration` and
//! `compact_constructor_declaration` nodes — the nodes whose span the graph's Java extractor gives
//! its Method symbols (`util::span(decl)`; annotations and modifiers are inside the declaration
//! node, so `line` is the line of the first annotation or modifier, Javadoc excluded). Constructors
//! are named after their class, as the graph names them. Members of anonymous classes (and of
//! enum-constant bodies) are not graph symbols: they are flattened into the enclosing method like
//! lambdas. Methods of local classes are graph symbols: reported on their own and, by the
//! flattening convention, also inside the enclosing method. Interface/abstract methods are
//! reported with their parameters and no facts. Field initializers and initializer blocks are
//! top-level code.
//!
//! Nothing here recurses on tree depth: one explicit-stack walk per function collects its call
//! nodes (then numbered by the byte offset of their argument list's `(`) and its binding/return
//! nodes (in pre-order, i.e. source order); each expression's reads are then gathered by an
//! explicit-stack union that stops at calls (they read as `Value::Call(i)`) and at lambdas and
//! anonymous class bodies (they are walked as statements).
//!
//! Java specifics:
//! - Parameters: formal and varargs parameters in order; a receiver parameter (`Foo this`) is
//!   not a parameter. A compact record constructor's parameters are the record's components.
//! - Bindings: local variable declarators with an initializer, `=` and compound assignments
//!   anywhere in an expression (`while ((line = r.readLine()) != null)`), enhanced-for variables
//!   (`for (User u : users)` → `u` reads `users`), try-with-resources variables, and
//!   `x instanceof Foo f` (`f` reads `x`). A target `this.x` is `this.x`; `a[i] = v` writes `a`.
//! - Calls: method invocations (`callee` = method name, receiver = what the object reads: `this`,
//!   `super`, `Foo` for a static call are read as written), `new Foo(…)` (callee `Foo`, the last
//!   segment of the type; an anonymous class body is flattened, not read) and `this(…)`/`super(…)`.
//! - Values: `this`/`super` read as `Var("this")`/`Var("super")`; a method reference `obj::m`
//!   reads `obj`; casts read their operand; `instanceof` its left side; a switch expression its
//!   selector and the values of its arms (`case … -> e` and `yield e`); class literals nothing.
//! - A lambda's expression body is a return (flattened, it belongs to the enclosing method);
//!   `return;` is not reported. A call's `line` is that of the method name, the constructed type
//!   or `this`/`super` (where the graph puts its refs).
//! - Not covered: `x++`/`x--` (a self-flow), record/type patterns in `switch`, field initializers
//!   and initializer blocks, flows through fields between methods (the layer's job).

use crate::facts::{Assign, Call, FnFlow, Return, Value};
use gortex_lang::util::line;
use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::Node;

/// The dataflow facts of every function in the tree, in source order.
pub(crate) fn extract(tree: &tree_sitter::Tree, src: &[u8]) -> Vec<FnFlow> {
    let mut out = Vec::new();
    // (node, kind of its parent, whether it is a member of an anonymous class body)
    let mut stack: Vec<(Node<'_>, &'static str, bool)> = vec![(tree.root_node(), "", false)];
    while let Some((node, parent_kind, anonymous_member)) = stack.pop() {
        let kind = node.kind();
        if matches!(
            kind,
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration"
        ) && !anonymous_member
        {
            if let Some(flow) = function(node, src) {
                out.push(flow);
            }
        }
        // Local classes inside bodies declare methods the graph knows: keep walking.
        let anonymous_body =
            kind == "class_body" && matches!(parent_kind, "object_creation_expression" | "enum_constant");
        let start = stack.len();
        let mut cur = node.walk();
        stack.extend(
            node.named_children(&mut cur)
                .filter(|c| !is_comment(c.kind()))
                .map(|c| (c, kind, anonymous_body)),
        );
        stack[start..].reverse();
    }
    out
}

fn is_comment(kind: &str) -> bool {
    matches!(kind, "line_comment" | "block_comment")
}

fn text<'s>(node: Node<'_>, src: &'s [u8]) -> &'s str {
    node.utf8_text(src).unwrap_or("")
}

/// Named children without comments.
fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cur = node.walk();
    node.named_children(&mut cur)
        .filter(|c| !is_comment(c.kind()))
        .collect()
}

/// Type syntax: never a value.
fn is_type_kind(kind: &str) -> bool {
    matches!(
        kind,
        "type_identifier"
            | "scoped_type_identifier"
            | "generic_type"
            | "array_type"
            | "integral_type"
            | "floating_point_type"
            | "boolean_type"
            | "void_type"
            | "annotated_type"
            | "type_arguments"
            | "dimensions"
            | "marker_annotation"
            | "annotation"
    )
}

fn is_call_kind(kind: &str) -> bool {
    matches!(
        kind,
        "method_invocation" | "object_creation_expression" | "explicit_constructor_invocation"
    )
}

/// Parameter names of a `formal_parameters` list, in order.
fn param_names(list: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for p in children(list) {
        let name = match p.kind() {
            "formal_parameter" => p.child_by_field_name("name"),
            "spread_parameter" => children(p)
                .into_iter()
                .find(|c| c.kind() == "variable_declarator")
                .and_then(|d| d.child_by_field_name("name")),
            _ => continue, // receiver parameter
        };
        out.push(name.map_or_else(|| "_".to_string(), |n| text(n, src).to_string()));
    }
    out
}

/// The simple name of a constructed type: `Foo`, `a.b.Foo`, `Foo<T>`, `Outer.Inner<T>` → last
/// segment.
fn type_name(ty: Node<'_>) -> Option<Node<'_>> {
    let mut cur = ty;
    for _ in 0..64 {
        match cur.kind() {
            "type_identifier" => return Some(cur),
            "generic_type" | "annotated_type" => {
                cur = children(cur)
                    .into_iter()
                    .find(|c| matches!(c.kind(), "type_identifier" | "scoped_type_identifier" | "generic_type"))?;
            }
            "scoped_type_identifier" => {
                cur = children(cur)
                    .into_iter()
                    .rev()
                    .find(|c| matches!(c.kind(), "type_identifier" | "generic_type"))?;
            }
            _ => return None,
        }
    }
    None
}

/// The access path of a pure identifier/field chain: `this.repo` → `"this.repo"`.
fn access_path(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut segs = Vec::new();
    let mut cur = node;
    loop {
        match cur.kind() {
            "field_access" => {
                segs.push(text(cur.child_by_field_name("field")?, src));
                cur = cur.child_by_field_name("object")?;
            }
            "identifier" | "this" | "super" => {
                segs.push(text(cur, src));
                break;
            }
            _ => return None,
        }
    }
    segs.reverse();
    Some(segs.join("."))
}

/// The root access path a store to `node` writes: `x`, `this.total`, `a[i]` → `a`.
fn target_path(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut cur = node;
    loop {
        match cur.kind() {
            "field_access" => {
                segs.push(text(cur.child_by_field_name("field")?, src));
                cur = cur.child_by_field_name("object")?;
            }
            "array_access" => {
                segs.clear();
                cur = cur.child_by_field_name("array")?;
            }
            "parenthesized_expression" => cur = children(cur).into_iter().next()?,
            "identifier" | "this" | "super" => {
                let t = text(cur, src);
                if t.is_empty() || t == "_" {
                    return None;
                }
                segs.push(t);
                break;
            }
            _ => return None,
        }
    }
    segs.reverse();
    Some(segs.join("."))
}

/// What an expression reads, deduplicated, in source order.
#[derive(Default)]
struct Reads {
    vals: Vec<Value>,
    seen: FxHashSet<Value>,
}

impl Reads {
    fn push(&mut self, v: Value) {
        if self.seen.insert(v.clone()) {
            self.vals.push(v);
        }
    }
}

/// How a node on the reads stack is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// As an expression.
    Value,
    /// Inside a switch expression's block: only the arms' results (`-> e`, `yield e`) are read.
    Arms,
}

/// A node whose facts are produced after the calls are numbered.
enum Fact<'t> {
    Bind(Node<'t>),
    Return(Node<'t>),
    /// A lambda's expression body.
    ReturnExpr(Node<'t>),
}

struct Fx<'a> {
    src: &'a [u8],
    /// Call node id → index in `FnFlow::calls`.
    call_index: FxHashMap<usize, u32>,
    assigns: Vec<Assign>,
    returns: Vec<Return>,
}

impl Fx<'_> {
    /// The union of what `node` reads (explicit stack; stops at calls, lambdas and class bodies).
    fn reads_into<'t>(&self, node: Node<'t>, out: &mut Reads) {
        let src = self.src;
        let mut stack = vec![(node, Mode::Value)];
        let push_all = |stack: &mut Vec<(Node<'t>, Mode)>, n: Node<'t>, mode: Mode| {
            let start = stack.len();
            stack.extend(children(n).into_iter().map(|c| (c, mode)));
            stack[start..].reverse();
        };
        while let Some((n, mode)) = stack.pop() {
            let kind = n.kind();
            if mode == Mode::Arms {
                match kind {
                    "yield_statement" => push_all(&mut stack, n, Mode::Value),
                    "switch_rule" => {
                        for c in children(n).into_iter().rev() {
                            match c.kind() {
                                "expression_statement" => push_all(&mut stack, c, Mode::Value),
                                "switch_label" => {}
                                _ => stack.push((c, Mode::Arms)),
                            }
                        }
                    }
                    "switch_label" | "switch_expression" | "lambda_expression" | "class_body" => {}
                    _ => push_all(&mut stack, n, Mode::Arms),
                }
                continue;
            }
            match kind {
                "identifier" => {
                    let t = text(n, src);
                    if !t.is_empty() && t != "_" {
                        out.push(Value::Var(t.to_string()));
                    }
                }
                "this" | "super" => out.push(Value::Var(kind.to_string())),
                k if is_call_kind(k) => match self.call_index.get(&n.id()) {
                    Some(&i) => out.push(Value::Call(i)),
                    None => stack.extend(n.child_by_field_name("arguments").map(|a| (a, Mode::Value))),
                },
                "field_access" => match access_path(n, src) {
                    Some(p) => out.push(Value::Var(p)),
                    None => stack.extend(n.child_by_field_name("object").map(|o| (o, Mode::Value))),
                },
                "lambda_expression" | "class_body" | "class_literal" => {}
                "method_reference" => {
                    if let Some(first) = children(n).into_iter().next().filter(|c| !is_type_kind(c.kind())) {
                        stack.push((first, Mode::Value));
                    }
                }
                "cast_expression" => stack.extend(n.child_by_field_name("value").map(|v| (v, Mode::Value))),
                "instanceof_expression" => stack.extend(n.child_by_field_name("left").map(|v| (v, Mode::Value))),
                "switch_expression" => {
                    stack.extend(n.child_by_field_name("body").map(|b| (b, Mode::Arms)));
                    stack.extend(n.child_by_field_name("condition").map(|c| (c, Mode::Value)));
                }
                k if is_type_kind(k) => {}
                _ => push_all(&mut stack, n, Mode::Value),
            }
        }
    }

    fn reads(&self, node: Node<'_>) -> Vec<Value> {
        let mut r = Reads::default();
        self.reads_into(node, &mut r);
        r.vals
    }

    fn assign(&mut self, target: Node<'_>, sources: Vec<Value>) {
        if let Some(t) = target_path(target, self.src) {
            self.assigns.push(Assign {
                target: t,
                sources,
                line: line(target),
            });
        }
    }

    fn bind(&mut self, node: Node<'_>) {
        let src = self.src;
        match node.kind() {
            "local_variable_declaration" => {
                let mut cur = node.walk();
                let declarators: Vec<Node<'_>> = node.children_by_field_name("declarator", &mut cur).collect();
                for d in declarators {
                    if let (Some(name), Some(value)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) {
                        let sources = self.reads(value);
                        self.assign(name, sources);
                    }
                }
            }
            "assignment_expression" => {
                let (Some(left), Some(right)) = (node.child_by_field_name("left"), node.child_by_field_name("right"))
                else {
                    return;
                };
                let compound = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| text(o, src) != "=");
                let mut r = Reads::default();
                if compound {
                    self.reads_into(left, &mut r);
                }
                self.reads_into(right, &mut r);
                self.assign(left, r.vals);
            }
            "enhanced_for_statement" | "resource" => {
                if let (Some(name), Some(value)) = (node.child_by_field_name("name"), node.child_by_field_name("value"))
                {
                    let sources = self.reads(value);
                    self.assign(name, sources);
                }
            }
            "instanceof_expression" => {
                if let (Some(name), Some(left)) = (node.child_by_field_name("name"), node.child_by_field_name("left")) {
                    let sources = self.reads(left);
                    self.assign(name, sources);
                }
            }
            _ => {}
        }
    }

    fn call(&self, node: Node<'_>) -> Call {
        let src = self.src;
        let object = node.child_by_field_name("object");
        let (callee, at) = match node.kind() {
            "method_invocation" => {
                let name = node.child_by_field_name("name");
                (name.map(|n| text(n, src).to_string()), name)
            }
            "object_creation_expression" => {
                let name = node.child_by_field_name("type").and_then(type_name);
                (name.map(|n| text(n, src).to_string()), name)
            }
            _ => {
                let ctor = node.child_by_field_name("constructor");
                (ctor.map(|n| text(n, src).to_string()), ctor)
            }
        };
        // `outer.new Inner()` carries its outer instance as an unnamed primary expression child.
        let object = object.or_else(|| {
            (node.kind() == "object_creation_expression")
                .then(|| {
                    let ty = node.child_by_field_name("type").map(|t| t.id());
                    children(node).into_iter().find(|c| {
                        Some(c.id()) != ty
                            && !is_type_kind(c.kind())
                            && !matches!(c.kind(), "argument_list" | "class_body" | "type_arguments")
                    })
                })
                .flatten()
        });
        let receiver = object.map(|o| self.reads(o)).unwrap_or_default();
        let args = node
            .child_by_field_name("arguments")
            .map(|a| children(a).into_iter().map(|arg| self.reads(arg)).collect())
            .unwrap_or_default();
        Call {
            callee: callee.unwrap_or_default(),
            receiver,
            args,
            line: line(at.unwrap_or(node)),
        }
    }
}

/// The parameters of a compact record constructor: the record's components.
fn record_components(decl: Node<'_>, src: &[u8]) -> Vec<String> {
    decl.parent()
        .and_then(|body| body.parent())
        .filter(|r| r.kind() == "record_declaration")
        .and_then(|r| r.child_by_field_name("parameters"))
        .map(|p| param_names(p, src))
        .unwrap_or_default()
}

/// The facts of one method or constructor.
fn function<'t>(decl: Node<'t>, src: &[u8]) -> Option<FnFlow> {
    let name = text(decl.child_by_field_name("name")?, src).to_string();
    let params = if decl.kind() == "compact_constructor_declaration" {
        record_components(decl, src)
    } else {
        decl.child_by_field_name("parameters")
            .map(|p| param_names(p, src))
            .unwrap_or_default()
    };
    let mut calls: Vec<Node<'t>> = Vec::new();
    let mut facts: Vec<Fact<'t>> = Vec::new();
    if let Some(body) = decl.child_by_field_name("body") {
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            match n.kind() {
                k if is_call_kind(k) => calls.push(n),
                "local_variable_declaration" | "assignment_expression" | "enhanced_for_statement" | "resource" => {
                    facts.push(Fact::Bind(n))
                }
                "instanceof_expression" if n.child_by_field_name("name").is_some() => facts.push(Fact::Bind(n)),
                "return_statement" => facts.push(Fact::Return(n)),
                "lambda_expression" => {
                    if let Some(b) = n.child_by_field_name("body").filter(|b| b.kind() != "block") {
                        facts.push(Fact::ReturnExpr(b));
                    }
                }
                _ => {}
            }
            let start = stack.len();
            stack.extend(children(n));
            stack[start..].reverse();
        }
    }
    // Number calls by the position of their argument list's opening parenthesis.
    let paren = |c: &Node<'_>| {
        c.child_by_field_name("arguments")
            .map_or(c.end_byte(), |a| a.start_byte())
    };
    calls.sort_by_key(|c| (paren(c), c.start_byte()));
    let mut fx = Fx {
        src,
        call_index: calls.iter().enumerate().map(|(i, c)| (c.id(), i as u32)).collect(),
        assigns: Vec::new(),
        returns: Vec::new(),
    };
    for fact in facts {
        match fact {
            Fact::Bind(n) => fx.bind(n),
            Fact::Return(n) => {
                // `return;` returns nothing and is not reported.
                if let Some(e) = children(n).into_iter().next() {
                    let sources = fx.reads(e);
                    fx.returns.push(Return { sources, line: line(n) });
                }
            }
            Fact::ReturnExpr(e) => {
                let sources = fx.reads(e);
                fx.returns.push(Return { sources, line: line(e) });
            }
        }
    }
    let calls = calls.iter().map(|c| fx.call(*c)).collect();
    Some(FnFlow {
        name,
        line: line(decl),
        end_line: decl.end_position().row as u32 + 1,
        params,
        assigns: fx.assigns,
        calls,
        returns: fx.returns,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use gortex_core::{Language, NodeKind};

    fn flows(src: &str) -> Vec<FnFlow> {
        crate::extract(Language::Java, src).expect("java parses")
    }

    fn named(src: &str, name: &str) -> FnFlow {
        let all = flows(src);
        let mut hits: Vec<FnFlow> = all.iter().filter(|f| f.name == name).cloned().collect();
        assert_eq!(hits.len(), 1, "{all:#?}");
        hits.remove(0)
    }

    #[test]
    fn handler_request_parameter_to_sql() {
        let src = r#"package app;

public class UserController {
    /** Loads a user. */
    @GetMapping("/user")
    public ResultSet getUser(HttpServletRequest request, HttpServletResponse response) throws SQLException {
        String id = request.getParameter("id");
        String sql = "SELECT * FROM users WHERE id = '" + id + "'";
        Statement stmt = connection.createStatement();
        return stmt.executeQuery(sql);
    }
}
"#;
        assert_eq!(
            flows(src),
            vec![FnFlow {
                name: "getUser".into(),
                line: 5,
                end_line: 11,
                params: strs(&["request", "response"]),
                assigns: vec![
                    a("id", vec![c(0)], 7),
                    a("sql", vec![v("id")], 8),
                    a("stmt", vec![c(1)], 9),
                ],
                calls: vec![
                    call("getParameter", vec![v("request")], vec![vec![]], 7),
                    call("createStatement", vec![v("connection")], vec![], 9),
                    call("executeQuery", vec![v("stmt")], vec![vec![v("sql")]], 10),
                ],
                returns: vec![ret(vec![c(2)], 10)],
            }]
        );
    }

    #[test]
    fn constructors_fields_and_delegation() {
        let src = r#"class OrderService extends Base {
    private final Repo repo;
    private int total;

    OrderService(Repo repo, int total) {
        super(repo);
        this.repo = repo;
        this.total += total;
    }

    OrderService() {
        this(Repo.create(), 0);
    }

    Order place(Order order) {
        return this.repo.save(order.withTotal(total));
    }
}
"#;
        let all = flows(src);
        assert_eq!(
            all,
            vec![
                FnFlow {
                    name: "OrderService".into(),
                    line: 5,
                    end_line: 9,
                    params: strs(&["repo", "total"]),
                    assigns: vec![
                        a("this.repo", vec![v("repo")], 7),
                        a("this.total", vec![v("this.total"), v("total")], 8),
                    ],
                    calls: vec![call("super", vec![], vec![vec![v("repo")]], 6)],
                    returns: vec![],
                },
                FnFlow {
                    name: "OrderService".into(),
                    line: 11,
                    end_line: 13,
                    params: vec![],
                    assigns: vec![],
                    calls: vec![
                        call("this", vec![], vec![vec![c(1)], vec![]], 12),
                        call("create", vec![v("Repo")], vec![], 12),
                    ],
                    returns: vec![],
                },
                FnFlow {
                    name: "place".into(),
                    line: 15,
                    end_line: 17,
                    params: strs(&["order"]),
                    assigns: vec![],
                    calls: vec![
                        call("save", vec![v("this.repo")], vec![vec![c(1)]], 16),
                        call("withTotal", vec![v("order")], vec![vec![v("total")]], 16),
                    ],
                    returns: vec![ret(vec![c(0)], 16)],
                },
            ]
        );
    }

    #[test]
    fn locals_assignments_loops_resources_and_patterns() {
        let src = r#"class C {
    void run(List<User> users, int[] arr, int i, Object o) throws IOException {
        int a = 1, b = a * i, c;
        c = b;
        arr[i] = c;
        String line;
        while ((line = reader.readLine()) != null) {
            a += line.length();
        }
        for (User u : users) {
            total = total + u.price;
        }
        for (int k = 0; k < i; k++) {
            sum -= k;
        }
        try (var in = open(path); Writer w = new FileWriter(name)) {
            in.transferTo(w);
        } catch (IOException e) {
            log(e);
        }
        if (o instanceof String s && !s.isEmpty()) {
            var t = (CharSequence) s;
        }
    }
}
"#;
        let f = named(src, "run");
        assert_eq!(f.params, strs(&["users", "arr", "i", "o"]));
        assert_eq!(
            f.assigns,
            vec![
                a("a", vec![], 3),
                a("b", vec![v("a"), v("i")], 3),
                a("c", vec![v("b")], 4),
                a("arr", vec![v("c")], 5),
                a("line", vec![c(0)], 7),
                a("a", vec![v("a"), c(1)], 8),
                a("u", vec![v("users")], 10),
                a("total", vec![v("total"), v("u.price")], 11),
                a("k", vec![], 13),
                a("sum", vec![v("sum"), v("k")], 14),
                a("in", vec![c(2)], 16),
                a("w", vec![c(3)], 16),
                a("s", vec![v("o")], 21),
                a("t", vec![v("s")], 22),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("readLine", vec![v("reader")], vec![], 7),
                call("length", vec![v("line")], vec![], 8),
                call("open", vec![], vec![vec![v("path")]], 16),
                call("FileWriter", vec![], vec![vec![v("name")]], 16),
                call("transferTo", vec![v("in")], vec![vec![v("w")]], 17),
                call("log", vec![], vec![vec![v("e")]], 19),
                call("isEmpty", vec![v("s")], vec![], 21),
            ]
        );
        assert!(f.returns.is_empty());
    }

    #[test]
    fn lambdas_and_anonymous_classes_are_flattened() {
        let src = r#"class C {
    List<String> names(List<User> users, Executor ex) {
        ex.execute(new Runnable() {
            @Override
            public void run() {
                audit.log(users);
            }
        });
        Function<User, String> f = u -> u.getName();
        users.forEach(u -> {
            String n = u.getName();
            seen.add(n);
        });
        Supplier<Repo> s = this::repo;
        return users.stream().map(User::getName).collect(Collectors.toList());
    }
}
"#;
        assert_eq!(
            flows(src),
            vec![FnFlow {
                name: "names".into(),
                line: 2,
                end_line: 16,
                params: strs(&["users", "ex"]),
                assigns: vec![a("f", vec![], 9), a("n", vec![c(5)], 11), a("s", vec![v("this")], 14)],
                calls: vec![
                    call("execute", vec![v("ex")], vec![vec![c(1)]], 3),
                    call("Runnable", vec![], vec![], 3),
                    call("log", vec![v("audit")], vec![vec![v("users")]], 6),
                    call("getName", vec![v("u")], vec![], 9),
                    call("forEach", vec![v("users")], vec![vec![]], 10),
                    call("getName", vec![v("u")], vec![], 11),
                    call("add", vec![v("seen")], vec![vec![v("n")]], 12),
                    call("stream", vec![v("users")], vec![], 15),
                    call("map", vec![c(7)], vec![vec![v("User")]], 15),
                    call("collect", vec![c(8)], vec![vec![c(10)]], 15),
                    call("toList", vec![v("Collectors")], vec![], 15),
                ],
                returns: vec![ret(vec![c(3)], 9), ret(vec![c(9)], 15)],
            }]
        );
    }

    #[test]
    fn local_classes_are_reported_and_flattened() {
        let src = r#"class Outer {
    int compute(int x) {
        class Helper {
            int twice(int y) { return y * 2; }
        }
        return new Helper().twice(x);
    }
}
"#;
        let all = flows(src);
        assert_eq!(
            all.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            vec!["compute", "twice"]
        );
        assert_eq!(
            all[0],
            FnFlow {
                name: "compute".into(),
                line: 2,
                end_line: 7,
                params: strs(&["x"]),
                assigns: vec![],
                calls: vec![
                    call("Helper", vec![], vec![], 6),
                    call("twice", vec![c(0)], vec![vec![v("x")]], 6)
                ],
                returns: vec![ret(vec![v("y")], 4), ret(vec![c(1)], 6)],
            }
        );
        assert_eq!(
            all[1],
            FnFlow {
                name: "twice".into(),
                line: 4,
                end_line: 4,
                params: strs(&["y"]),
                assigns: vec![],
                calls: vec![],
                returns: vec![ret(vec![v("y")], 4)],
            }
        );
    }

    #[test]
    fn expressions_read_their_operands() {
        let src = r#"class C {
    Object vals(int[] xs, int i, Object o, Map<String, Integer> m) {
        int a = xs[i + 1];
        String s = (String) o;
        int b = flag ? a : m.get("k");
        int d = switch (i) { case 1 -> a; case 2 -> { yield b; } default -> compute(o); };
        int[] e = new int[] { a, b };
        int[] g = new int[i];
        Class<?> k = String.class;
        String t = "x" + this.name + super.label + null + true;
        return new Pair<>(a, b).first();
    }
}
"#;
        let f = named(src, "vals");
        assert_eq!(
            f.assigns,
            vec![
                a("a", vec![v("xs"), v("i")], 3),
                a("s", vec![v("o")], 4),
                a("b", vec![v("flag"), v("a"), c(0)], 5),
                a("d", vec![v("i"), v("a"), v("b"), c(1)], 6),
                a("e", vec![v("a"), v("b")], 7),
                a("g", vec![v("i")], 8),
                a("k", vec![], 9),
                a("t", vec![v("this.name"), v("super.label")], 10),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("get", vec![v("m")], vec![vec![]], 5),
                call("compute", vec![], vec![vec![v("o")]], 6),
                call("Pair", vec![], vec![vec![v("a")], vec![v("b")]], 11),
                call("first", vec![c(2)], vec![], 11),
            ]
        );
        assert_eq!(f.returns, vec![ret(vec![c(3)], 11)]);
    }

    #[test]
    fn params_interfaces_records_and_qualified_types() {
        let src = r#"interface Repo {
    User find(String id, int... flags);
    default User any() { return find("x"); }
}
record Point(int x, int y) {
    Point {
        check(x, y);
    }
    Point(int both) { this(both, both); }
}
enum Op {
    PLUS { int apply(int a) { return a; } };
    int apply(int a) { return -a; }
}
class D {
    Object make(Outer outer, java.util.List<String> xs) {
        return new java.util.ArrayList<String>(xs);
    }
}
"#;
        let all = flows(src);
        let sig: Vec<(&str, u32, Vec<String>)> = all
            .iter()
            .map(|f| (f.name.as_str(), f.line, f.params.clone()))
            .collect();
        assert_eq!(
            sig,
            vec![
                ("find", 2, strs(&["id", "flags"])),
                ("any", 3, vec![]),
                ("Point", 6, strs(&["x", "y"])),
                ("Point", 9, strs(&["both"])),
                ("apply", 13, strs(&["a"])),
                ("make", 16, strs(&["outer", "xs"])),
            ]
        );
        assert_eq!(
            all[2].calls,
            vec![call("check", vec![], vec![vec![v("x")], vec![v("y")]], 7)]
        );
        assert_eq!(all[5].calls, vec![call("ArrayList", vec![], vec![vec![v("xs")]], 17)]);
    }

    #[test]
    fn three_method_chain() {
        let src = r#"class Chain {
    String a(String x) { return b(x); }

    String b(String y) {
        return this.c(y);
    }

    static String c(String z) { return z; }
}
"#;
        assert_eq!(
            flows(src),
            vec![
                FnFlow {
                    name: "a".into(),
                    line: 2,
                    end_line: 2,
                    params: strs(&["x"]),
                    assigns: vec![],
                    calls: vec![call("b", vec![], vec![vec![v("x")]], 2)],
                    returns: vec![ret(vec![c(0)], 2)],
                },
                FnFlow {
                    name: "b".into(),
                    line: 4,
                    end_line: 6,
                    params: strs(&["y"]),
                    assigns: vec![],
                    calls: vec![call("c", vec![v("this")], vec![vec![v("y")]], 5)],
                    returns: vec![ret(vec![c(0)], 5)],
                },
                FnFlow {
                    name: "c".into(),
                    line: 8,
                    end_line: 8,
                    params: strs(&["z"]),
                    assigns: vec![],
                    calls: vec![],
                    returns: vec![ret(vec![v("z")], 8)],
                },
            ]
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        // As deep as `gortex_lang::MAX_TREE_DEPTH` lets a file be (a call nests two levels).
        let n = 2_000;
        let parens = format!(
            "class D {{\n  int deep(int a) {{\n    return {}a{};\n  }}\n}}\n",
            "(".repeat(n),
            ")".repeat(n)
        );
        assert_eq!(named(&parens, "deep").returns, vec![ret(vec![v("a")], 3)]);

        let sum = format!(
            "class D {{\n  int sum(int a) {{\n    return a{};\n  }}\n}}\n",
            " + a".repeat(3_000)
        );
        assert_eq!(named(&sum, "sum").returns, vec![ret(vec![v("a")], 3)]);

        let depth = 1_500;
        let nested = format!(
            "class D {{\n  int calls(int a) {{\n    return {}a{};\n  }}\n}}\n",
            "f(".repeat(depth),
            ")".repeat(depth)
        );
        let f = named(&nested, "calls");
        assert_eq!(f.calls.len(), depth);
        assert_eq!(f.calls[0].args, vec![vec![c(1)]]);
        assert_eq!(f.calls[depth - 1].args, vec![vec![v("a")]]);

        let chain = format!(
            "class D {{\n  int sel(T a) {{\n    return a{};\n  }}\n}}\n",
            ".b()".repeat(3_000)
        );
        let f = named(&chain, "sel");
        assert_eq!(f.calls.len(), 3_000);
        assert_eq!(f.calls[2_999].receiver, vec![c(2_998)]);
        // Deeper trees are refused before any walker runs.
        let deeper = format!(
            "class D {{\n  int sum(int a) {{\n    return a{};\n  }}\n}}\n",
            " + a".repeat(20_000)
        );
        assert!(crate::extract(Language::Java, &deeper).is_none());
    }

    #[test]
    fn empty_and_broken_sources_do_not_panic() {
        assert_eq!(flows(""), vec![]);
        assert_eq!(flows("package a;\n"), vec![]);
        for junk in [
            "class",
            "class C {",
            "class C { void f(",
            "class C { void f() { int x = ; }",
            "}}}{{{",
            "new (",
        ] {
            let _ = flows(junk);
        }
        let src = "class C {\n  @Get(\"/\")\n  C(int a) { this(a, 1); }\n  String h(Request r) {\n    for (var e : r.items()) { m.put(e, x -> x.y(e)); }\n    return switch (r.k()) { case 1 -> new A() { void z() { q = 1; } }.toString(); default -> \"\"; };\n  }\n}\n";
        for end in 0..=src.len() {
            let _ = flows(&src[..end]);
        }
    }

    /// Every FnFlow names a Method symbol of the graph's extractor at the same start line, and
    /// every graph method or constructor with a body has its FnFlow.
    #[test]
    fn spans_match_the_graph_extractor() {
        let src = r#"package app;

import java.util.List;

/** A service. */
@Service
public class OrderService {
    private final Repo repo;

    /**
     * Builds it.
     */
    @Inject
    public OrderService(Repo repo) {
        this.repo = repo;
    }

    @Override
    @Transactional(readOnly = true)
    public List<Order> all(
            int page,
            int size) {
        return repo.findAll(page, size);
    }

    static class Inner {
        void help() {}
    }

    Runnable r = new Runnable() {
        public void run() {}
    };

    record Pair(int a, int b) {
        Pair {
            validate(a);
        }
    }

    interface Api {
        void call(String s);
    }
}
"#;
        let ctx = gortex_lang::FileContext {
            path: "src/main/java/app/OrderService.java",
            is_test_file: false,
        };
        let facts = gortex_lang::extract_file(Language::Java, src.as_bytes(), &ctx, std::time::Duration::from_secs(5))
            .expect("graph extraction");
        let mut graph: Vec<(String, u32, u32)> = facts
            .symbols
            .iter()
            .filter(|s| s.kind == NodeKind::Method)
            .map(|s| (s.name.clone(), s.span.start_line, s.span.end_line))
            .collect();
        let mut ours: Vec<(String, u32, u32)> = flows(src).into_iter().map(|f| (f.name, f.line, f.end_line)).collect();
        graph.sort();
        ours.sort();
        assert_eq!(ours, graph);
        assert_eq!(ours.len(), 5);
    }
}
