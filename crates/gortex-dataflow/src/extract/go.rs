//! Dataflow extraction for go (see `crate::facts` for the conventions).
//!
//! Functions are `function_declaration` and `method_declaration` nodes — the nodes whose span the
//! graph's Go extractor gives its Function/Method symbols (`util::span(decl)`), so `line` is the
//! line of the `func` keyword (doc comments are sibling nodes). Function literals are flattened
//! into the declaration that contains them; package-level `var f = func…` is top-level code.
//!
//! Nothing here recurses on tree depth: one explicit-stack walk per function collects its call
//! nodes (then numbered by the byte offset of their argument list's `(`) and its binding/return
//! nodes (in pre-order, i.e. source order); each expression's reads are then gathered by an
//! explicit-stack union that stops at calls (they read as `Value::Call(i)`) and at function
//! literals (their bodies are walked as statements).
//!
//! Go specifics:
//! - Parameters: one entry per declared name (`a, b int` → `a`, `b`); unnamed and blank
//!   parameters are `_`, so positions stay aligned with call arguments. The receiver is not a
//!   parameter; its name is an ordinary variable (`s.repo` → `Var("s.repo")`).
//! - `a, b := x, y` pairs left and right when the counts match; otherwise (`v, err := f()`) every
//!   name reads the whole right side. Blank `_` targets are dropped. A target `m[k]`, `*p` or
//!   `a[i].f` is written as its root access path (`m`, `p`, `a`).
//! - `for k, v := range xs` → `k` and `v` read `xs`; `switch v := x.(type)` → `v` reads `x`;
//!   `case v := <-ch` → `v` reads `ch`; `ch <- v` is an assignment to `ch` reading `v`.
//! - A bare `return` in a function (or literal) with named results returns those results; one
//!   without named results is not reported (`return nil` is, with no sources).
//! - A call's `line` is that of the callee's name (where the graph puts its Calls ref), else the
//!   call's first line. A store `m[k] = v` reads `v` only.
//! - Calls: `pkg.F(x)` on an imported package (not shadowed by a local of the same name) has an
//!   empty receiver — a package reads nothing; `pkg.Value` as a value stays `Var("pkg.Value")`.
//!   Builtins (`len`, `append`, …) are calls. Conversions to predeclared or composite types
//!   (`[]byte(s)`, `string(b)`, `int64(n)`, `(*T)(p)`) are casts: they read their operand and are
//!   not calls; `T(x)` with a named type cannot be told from a call and is one. Explicit
//!   instantiation `F[T](x)` calls `F` (as the graph's extractor reports it). A callee without a
//!   name (`func(){…}()`, `f()(x)`) has callee `""` and the callee expression's reads as receiver.
//! - Composite literals read their element values; a key is read unless it is a bare identifier
//!   (a struct field name).
//! - Not covered: `x++`/`x--` (a self-flow), flows through pointers/aliasing, labels, goto.

use crate::facts::{Assign, Call, FnFlow, Return, Value};
use gortex_lang::util::line;
use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::Node;

/// The dataflow facts of every function in the tree, in source order.
pub(crate) fn extract(tree: &tree_sitter::Tree, src: &[u8]) -> Vec<FnFlow> {
    let root = tree.root_node();
    let packages = imported_packages(root, src);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "function_declaration" | "method_declaration" => {
                if let Some(flow) = function(node, src, &packages) {
                    out.push(flow);
                }
                // Go has no nested named functions; literals inside are flattened into this one.
            }
            _ => push_children(&mut stack, node),
        }
    }
    out
}

fn text<'s>(node: Node<'_>, src: &'s [u8]) -> &'s str {
    node.utf8_text(src).unwrap_or("")
}

/// Push the named children of `node` (comments excluded) so that they pop in source order.
fn push_children<'t>(stack: &mut Vec<Node<'t>>, node: Node<'t>) {
    let start = stack.len();
    let mut cur = node.walk();
    stack.extend(node.named_children(&mut cur).filter(|c| c.kind() != "comment"));
    stack[start..].reverse();
}

/// Named children without comments.
fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cur = node.walk();
    node.named_children(&mut cur)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// Local names of the file's imported packages (`import x "a/b"` → `x`; `"a/b/v2"` → `b`;
/// `"gopkg.in/yaml.v3"` → `yaml`); dot and blank imports bind no name.
fn imported_packages(root: Node<'_>, src: &[u8]) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let mut specs = Vec::new();
    for decl in children(root).into_iter().filter(|c| c.kind() == "import_declaration") {
        for c in children(decl) {
            match c.kind() {
                "import_spec" => specs.push(c),
                "import_spec_list" => specs.extend(children(c).into_iter().filter(|s| s.kind() == "import_spec")),
                _ => {}
            }
        }
    }
    for spec in specs {
        match spec.child_by_field_name("name") {
            Some(n) if n.kind() == "package_identifier" => {
                out.insert(text(n, src).to_string());
            }
            Some(_) => {}
            None => {
                let Some(path) = spec.child_by_field_name("path") else {
                    continue;
                };
                let path = text(path, src).trim_matches(|c| c == '"' || c == '`');
                let mut segs = path.rsplit('/');
                let mut last = segs.next().unwrap_or("");
                let is_version =
                    |s: &str| s.len() > 1 && s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit());
                if is_version(last) {
                    last = segs.next().unwrap_or("");
                }
                // `yaml.v3` → `yaml`
                if let Some((head, tail)) = last.rsplit_once('.') {
                    if is_version(tail) {
                        last = head;
                    }
                }
                if !last.is_empty() && last.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                    out.insert(last.to_string());
                }
            }
        }
    }
    out
}

/// Type syntax: never a value.
fn is_type_kind(kind: &str) -> bool {
    kind.ends_with("_type") || matches!(kind, "type_identifier" | "type_arguments" | "type_elem")
}

/// Parameter names of a `parameter_list`, in order; unnamed or blank ones are `_`.
fn param_names(list: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for p in children(list) {
        if !matches!(p.kind(), "parameter_declaration" | "variadic_parameter_declaration") {
            continue;
        }
        let mut cur = p.walk();
        let names: Vec<String> = p
            .children_by_field_name("name", &mut cur)
            .map(|n| text(n, src).to_string())
            .collect();
        if names.is_empty() {
            out.push("_".to_string());
        } else {
            out.extend(names);
        }
    }
    out
}

/// Named results of a function (`(n int, err error)`), empty when unnamed.
fn named_results(decl: Node<'_>, src: &[u8]) -> Vec<String> {
    match decl.child_by_field_name("result") {
        Some(r) if r.kind() == "parameter_list" => param_names(r, src).into_iter().filter(|n| n != "_").collect(),
        _ => Vec::new(),
    }
}

/// The callee expression of a call with explicit instantiation and parentheses unwrapped.
fn callee_node(call: Node<'_>) -> Option<Node<'_>> {
    let mut f = call.child_by_field_name("function")?;
    for _ in 0..64 {
        match f.kind() {
            "index_expression" => f = f.child_by_field_name("operand")?,
            "type_instantiation_expression" => f = f.child_by_field_name("type")?,
            "parenthesized_expression" => f = f.named_child(0)?,
            _ => break,
        }
    }
    Some(f)
}

/// `[]byte(s)`, `string(b)`, `(*T)(p)`: a conversion, not a call. A named type `T(x)` cannot be
/// told from a call and is one.
fn is_conversion(call: Node<'_>, src: &[u8]) -> bool {
    let Some(mut f) = call.child_by_field_name("function") else {
        return false;
    };
    let mut parenthesized = false;
    for _ in 0..64 {
        if f.kind() == "parenthesized_expression" || f.kind() == "parenthesized_type" {
            match f.named_child(0) {
                Some(inner) => f = inner,
                None => return false,
            }
            parenthesized = true;
        } else {
            break;
        }
    }
    let kind = f.kind();
    is_type_kind(kind)
        || (kind == "identifier" && gortex_lang::names::go_builtin_type(text(f, src)))
        // `(*T)(p)`: a pointer conversion (calling through `(*fp)(x)` is rare).
        || (parenthesized
            && kind == "unary_expression"
            && f.child_by_field_name("operator").is_some_and(|o| text(o, src) == "*"))
}

/// The name node of `F[T]` in an explicit instantiation written as a conversion `F[T](x)`, `None`
/// when the converted-to type is not generic (`[]byte(s)` is a plain conversion).
fn generic_head(conv: Node<'_>) -> Option<Node<'_>> {
    let ty = conv.child_by_field_name("type")?;
    if ty.kind() != "generic_type" {
        return None;
    }
    let head = ty.child_by_field_name("type")?;
    match head.kind() {
        "type_identifier" => Some(head),
        "qualified_type" => head.child_by_field_name("name"),
        _ => None,
    }
}

/// The byte offset of a call's opening parenthesis (the order calls are numbered in).
fn paren_byte(call: Node<'_>) -> usize {
    if let Some(args) = call.child_by_field_name("arguments") {
        return args.start_byte();
    }
    let mut cur = call.walk();
    let open = call
        .children(&mut cur)
        .find(|c| c.kind() == "(")
        .map(|c| c.start_byte());
    open.unwrap_or(call.end_byte())
}

/// The access path of a pure identifier/selector chain: `r.URL.Query` → `"r.URL.Query"`.
fn access_path(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut segs = Vec::new();
    let mut cur = node;
    loop {
        match cur.kind() {
            "selector_expression" => {
                segs.push(text(cur.child_by_field_name("field")?, src));
                cur = cur.child_by_field_name("operand")?;
            }
            "identifier" => {
                let t = text(cur, src);
                if t == "_" || t.is_empty() {
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

/// The root access path a store to `node` writes: `x`, `s.total`, `m[k]` → `m`, `*p` → `p`,
/// `a[i].f` → `a`. `None` for `_` and for targets without a named root.
fn target_path(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut cur = node;
    loop {
        match cur.kind() {
            "selector_expression" => {
                segs.push(text(cur.child_by_field_name("field")?, src));
                cur = cur.child_by_field_name("operand")?;
            }
            "index_expression" | "slice_expression" => {
                segs.clear();
                cur = cur.child_by_field_name("operand")?;
            }
            "unary_expression" => cur = cur.child_by_field_name("operand")?,
            "parenthesized_expression" => cur = cur.named_child(0)?,
            "identifier" => {
                let t = text(cur, src);
                if t == "_" || t.is_empty() {
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

/// A node whose facts are produced after the calls are numbered.
enum Fact<'t> {
    /// short var decl, assignment, var/const spec, range clause, type switch, receive, send.
    Bind(Node<'t>),
    /// A `return`, with the named results of the function or literal it belongs to.
    Return(Node<'t>, usize),
}

struct Fx<'a> {
    src: &'a [u8],
    packages: &'a FxHashSet<String>,
    /// Call node id → index in `FnFlow::calls`.
    call_index: FxHashMap<usize, u32>,
    /// Names bound inside the function (they shadow package names).
    declared: FxHashSet<String>,
    assigns: Vec<Assign>,
    returns: Vec<Return>,
}

impl Fx<'_> {
    /// The union of what `node` reads (explicit stack; stops at calls and function literals).
    fn reads_into<'t>(&self, node: Node<'t>, out: &mut Reads) {
        let src = self.src;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "identifier" => {
                    let t = text(n, src);
                    if t != "_" && !t.is_empty() {
                        out.push(Value::Var(t.to_string()));
                    }
                }
                "call_expression" => match self.call_index.get(&n.id()) {
                    Some(&i) => out.push(Value::Call(i)),
                    // A conversion: reads its operand.
                    None => {
                        if let Some(args) = n.child_by_field_name("arguments") {
                            push_children(&mut stack, args);
                        }
                    }
                },
                "func_literal" => {}
                "selector_expression" => match access_path(n, src) {
                    Some(p) => out.push(Value::Var(p)),
                    None => stack.extend(n.child_by_field_name("operand")),
                },
                "composite_literal" => stack.extend(n.child_by_field_name("body")),
                "keyed_element" => {
                    stack.extend(n.child_by_field_name("value"));
                    if let Some(key) = n.child_by_field_name("key") {
                        let bare_name = key.named_child_count() == 1
                            && key.named_child(0).is_some_and(|k| k.kind() == "identifier");
                        if !bare_name {
                            stack.push(key);
                        }
                    }
                }
                "type_conversion_expression" => match self.call_index.get(&n.id()) {
                    Some(&i) => out.push(Value::Call(i)),
                    None => stack.extend(n.child_by_field_name("operand")),
                },
                "type_assertion_expression" => stack.extend(n.child_by_field_name("operand")),
                k if is_type_kind(k) => {}
                "field_identifier" | "package_identifier" | "label_name" => {}
                _ => push_children(&mut stack, n),
            }
        }
    }

    fn reads(&self, node: Node<'_>) -> Vec<Value> {
        let mut r = Reads::default();
        self.reads_into(node, &mut r);
        r.vals
    }

    fn reads_all(&self, nodes: &[Node<'_>]) -> Vec<Value> {
        let mut r = Reads::default();
        for n in nodes {
            self.reads_into(*n, &mut r);
        }
        r.vals
    }

    fn assign(&mut self, target: Node<'_>, sources: Vec<Value>) {
        if let Some(t) = target_path(target, self.src) {
            if let Some(root) = t.split('.').next() {
                self.declared.insert(root.to_string());
            }
            self.assigns.push(Assign {
                target: t,
                sources,
                line: line(target),
            });
        }
    }

    /// `lhs… = rhs…`: pairwise when the counts match, else every target reads the whole right.
    fn bind_lists(&mut self, lhs: &[Node<'_>], rhs: &[Node<'_>], augmented: bool) {
        if lhs.len() == rhs.len() {
            for (l, r) in lhs.iter().zip(rhs) {
                let mut sources = if augmented { self.reads(*l) } else { Vec::new() };
                for v in self.reads(*r) {
                    if !sources.contains(&v) {
                        sources.push(v);
                    }
                }
                self.assign(*l, sources);
            }
        } else {
            let all = self.reads_all(rhs);
            for l in lhs {
                self.assign(*l, all.clone());
            }
        }
    }

    fn bind<'t>(&mut self, node: Node<'t>) {
        let src = self.src;
        let list = |n: Option<Node<'t>>| n.map(children).unwrap_or_default();
        match node.kind() {
            "short_var_declaration" | "assignment_statement" => {
                let augmented = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| text(o, src) != "=");
                let lhs = list(node.child_by_field_name("left"));
                let rhs = list(node.child_by_field_name("right"));
                self.bind_lists(&lhs, &rhs, augmented);
            }
            "var_spec" | "const_spec" => {
                let Some(value) = node.child_by_field_name("value") else {
                    return; // no initializer
                };
                let mut cur = node.walk();
                let names: Vec<Node<'t>> = node
                    .children_by_field_name("name", &mut cur)
                    .filter(|n| n.kind() == "identifier")
                    .collect();
                self.bind_lists(&names, &children(value), false);
            }
            "range_clause" => {
                let Some(right) = node.child_by_field_name("right") else {
                    return;
                };
                let sources = self.reads(right);
                for l in list(node.child_by_field_name("left")) {
                    self.assign(l, sources.clone());
                }
            }
            "type_switch_statement" => {
                let Some(value) = node.child_by_field_name("value") else {
                    return;
                };
                let sources = self.reads(value);
                for l in list(node.child_by_field_name("alias")) {
                    self.assign(l, sources.clone());
                }
            }
            "receive_statement" => {
                let Some(right) = node.child_by_field_name("right") else {
                    return;
                };
                let sources = self.reads(right);
                for l in list(node.child_by_field_name("left")) {
                    self.assign(l, sources.clone());
                }
            }
            "send_statement" => {
                if let (Some(ch), Some(v)) = (node.child_by_field_name("channel"), node.child_by_field_name("value")) {
                    let sources = self.reads(v);
                    self.assign(ch, sources);
                }
            }
            _ => {}
        }
    }

    fn call(&self, node: Node<'_>) -> Call {
        let src = self.src;
        if node.kind() == "type_conversion_expression" {
            // `Map[K, V](xs)`: a call of the generic function (or type) `Map`.
            let head = generic_head(node);
            return Call {
                callee: head.map(|h| text(h, src).to_string()).unwrap_or_default(),
                receiver: Vec::new(),
                args: vec![node
                    .child_by_field_name("operand")
                    .map(|o| self.reads(o))
                    .unwrap_or_default()],
                line: line(head.unwrap_or(node)),
            };
        }
        let (callee, receiver, at) = match callee_node(node) {
            Some(f) if f.kind() == "identifier" => (text(f, src).to_string(), Vec::new(), f),
            Some(f) if f.kind() == "selector_expression" => {
                let name = f.child_by_field_name("field");
                let receiver = match f.child_by_field_name("operand") {
                    Some(o) if o.kind() == "identifier" && self.is_package(text(o, src)) => Vec::new(),
                    Some(o) => self.reads(o),
                    None => Vec::new(),
                };
                (
                    name.map(|n| text(n, src).to_string()).unwrap_or_default(),
                    receiver,
                    name.unwrap_or(f),
                )
            }
            Some(f) => (String::new(), self.reads(f), node),
            None => (String::new(), Vec::new(), node),
        };
        let args = node
            .child_by_field_name("arguments")
            .map(|a| children(a).into_iter().map(|arg| self.reads(arg)).collect())
            .unwrap_or_default();
        Call {
            callee,
            receiver,
            args,
            line: line(at),
        }
    }

    fn is_package(&self, name: &str) -> bool {
        self.packages.contains(name) && !self.declared.contains(name)
    }
}

/// The facts of one function or method declaration.
fn function<'t>(decl: Node<'t>, src: &[u8], packages: &FxHashSet<String>) -> Option<FnFlow> {
    let name = text(decl.child_by_field_name("name")?, src).to_string();
    let params = decl
        .child_by_field_name("parameters")
        .map(|p| param_names(p, src))
        .unwrap_or_default();
    let mut declared: FxHashSet<String> = params.iter().cloned().collect();
    if let Some(recv) = decl.child_by_field_name("receiver") {
        declared.extend(param_names(recv, src));
    }
    // Named results of the function (index 0) and of each function literal.
    let mut results = vec![named_results(decl, src)];
    let mut calls: Vec<Node<'t>> = Vec::new();
    let mut facts: Vec<Fact<'t>> = Vec::new();
    if let Some(body) = decl.child_by_field_name("body") {
        let mut stack: Vec<(Node<'t>, usize)> = vec![(body, 0)];
        while let Some((n, res)) = stack.pop() {
            let mut inner = res;
            match n.kind() {
                "call_expression" if !is_conversion(n, src) => calls.push(n),
                "type_conversion_expression" if generic_head(n).is_some() => calls.push(n),
                "func_literal" => {
                    if let Some(p) = n.child_by_field_name("parameters") {
                        declared.extend(param_names(p, src));
                    }
                    results.push(named_results(n, src));
                    inner = results.len() - 1;
                }
                "var_spec" => {
                    // `var fmt Printer` shadows the package even without an initializer.
                    let mut cur = n.walk();
                    declared.extend(
                        n.children_by_field_name("name", &mut cur)
                            .map(|x| text(x, src).to_string()),
                    );
                    facts.push(Fact::Bind(n));
                }
                "short_var_declaration"
                | "assignment_statement"
                | "const_spec"
                | "range_clause"
                | "type_switch_statement"
                | "receive_statement"
                | "send_statement" => facts.push(Fact::Bind(n)),
                "return_statement" => facts.push(Fact::Return(n, res)),
                _ => {}
            }
            let start = stack.len();
            let mut cur = n.walk();
            stack.extend(
                n.named_children(&mut cur)
                    .filter(|c| c.kind() != "comment")
                    .map(|c| (c, inner)),
            );
            stack[start..].reverse();
        }
    }
    // Number calls by the position of their argument list's opening parenthesis.
    calls.sort_by_key(|c| (paren_byte(*c), c.start_byte()));
    let mut fx = Fx {
        src,
        packages,
        call_index: calls.iter().enumerate().map(|(i, c)| (c.id(), i as u32)).collect(),
        declared,
        assigns: Vec::new(),
        returns: Vec::new(),
    };
    for fact in facts {
        match fact {
            Fact::Bind(n) => fx.bind(n),
            Fact::Return(n, res) => {
                let exprs = children(n).into_iter().next().map(children);
                let bare = exprs.is_none();
                let sources = match exprs {
                    Some(list) => fx.reads_all(&list),
                    None => results
                        .get(res)
                        .map(|r| r.iter().map(|n| Value::Var(n.clone())).collect())
                        .unwrap_or_default(),
                };
                if !(bare && sources.is_empty()) {
                    fx.returns.push(Return { sources, line: line(n) });
                }
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
        crate::extract(Language::Go, src).expect("go parses")
    }

    fn only(src: &str) -> FnFlow {
        let mut all = flows(src);
        assert_eq!(all.len(), 1, "{all:#?}");
        all.remove(0)
    }

    #[test]
    fn handler_query_param_to_sql() {
        let src = r#"package main

import (
	"database/sql"
	"net/http"
)

// GetUser loads a user.
func GetUser(w http.ResponseWriter, r *http.Request) (*sql.Rows, error) {
	id := r.URL.Query().Get("id")
	q := "SELECT * FROM u WHERE id=" + id
	return db.Query(q)
}
"#;
        assert_eq!(
            only(src),
            FnFlow {
                name: "GetUser".into(),
                line: 9,
                end_line: 13,
                params: strs(&["w", "r"]),
                assigns: vec![a("id", vec![c(1)], 10), a("q", vec![v("id")], 11)],
                calls: vec![
                    call("Query", vec![v("r.URL")], vec![], 10),
                    call("Get", vec![c(0)], vec![vec![]], 10),
                    call("Query", vec![v("db")], vec![vec![v("q")]], 12),
                ],
                returns: vec![ret(vec![c(2)], 12)],
            }
        );
    }

    #[test]
    fn methods_params_and_named_results() {
        let src = r#"package store

func (s *Store) Save(ctx context.Context, a, b int, _ string, opts ...Opt) (n int, err error) {
	s.last = a
	n, err = s.db.Exec(ctx, a+b)
	return
}
func (Store) Len(int, string) int { return 0 }
func noop() { return }
func external(x int) int
"#;
        let all = flows(src);
        assert_eq!(
            all,
            vec![
                FnFlow {
                    name: "Save".into(),
                    line: 3,
                    end_line: 7,
                    params: strs(&["ctx", "a", "b", "_", "opts"]),
                    assigns: vec![
                        a("s.last", vec![v("a")], 4),
                        a("n", vec![c(0)], 5),
                        a("err", vec![c(0)], 5)
                    ],
                    calls: vec![call(
                        "Exec",
                        vec![v("s.db")],
                        vec![vec![v("ctx")], vec![v("a"), v("b")]],
                        5
                    )],
                    returns: vec![ret(vec![v("n"), v("err")], 6)],
                },
                FnFlow {
                    name: "Len".into(),
                    line: 8,
                    end_line: 8,
                    params: strs(&["_", "_"]),
                    assigns: vec![],
                    calls: vec![],
                    returns: vec![ret(vec![], 8)],
                },
                FnFlow {
                    name: "noop".into(),
                    line: 9,
                    end_line: 9,
                    params: vec![],
                    assigns: vec![],
                    calls: vec![],
                    returns: vec![],
                },
                FnFlow {
                    name: "external".into(),
                    line: 10,
                    end_line: 10,
                    params: strs(&["x"]),
                    assigns: vec![],
                    calls: vec![],
                    returns: vec![],
                },
            ]
        );
    }

    #[test]
    fn declarations_and_assignments() {
        let src = r#"package main
func f(x, y int, m map[string]int) {
	a, b := x, y
	c, d := pair()
	var e, g = x, 1
	var h int
	const k = "k"
	a += b
	m["key"] = a
	items[i].Name = y
	*p = x
	_, err := pair()
	a, b = b, a
	var (
		u = x * 2
	)
	h++
}
"#;
        let f = only(src);
        assert_eq!(f.params, strs(&["x", "y", "m"]));
        assert_eq!(
            f.assigns,
            vec![
                a("a", vec![v("x")], 3),
                a("b", vec![v("y")], 3),
                a("c", vec![c(0)], 4),
                a("d", vec![c(0)], 4),
                a("e", vec![v("x")], 5),
                a("g", vec![], 5),
                a("k", vec![], 7),
                a("a", vec![v("a"), v("b")], 8),
                a("m", vec![v("a")], 9),
                a("items", vec![v("y")], 10),
                a("p", vec![v("x")], 11),
                a("err", vec![c(1)], 12),
                a("a", vec![v("b")], 13),
                a("b", vec![v("a")], 13),
                a("u", vec![v("x")], 15),
            ]
        );
        assert_eq!(
            f.calls,
            vec![call("pair", vec![], vec![], 4), call("pair", vec![], vec![], 12)]
        );
        assert!(f.returns.is_empty());
    }

    #[test]
    fn range_type_switch_select_and_send() {
        let src = r#"package main
func g(xs []int, ch chan int, out chan<- int, x any) {
	for i, v := range xs {
		out <- v + i
	}
	for _, w := range load(xs) {
		_ = w
	}
	for range ch {
	}
	switch t := x.(type) {
	case int:
		use(t)
	}
	select {
	case msg := <-ch:
		out <- msg
	}
}
"#;
        let f = only(src);
        assert_eq!(
            f.assigns,
            vec![
                a("i", vec![v("xs")], 3),
                a("v", vec![v("xs")], 3),
                a("out", vec![v("v"), v("i")], 4),
                a("w", vec![c(0)], 6),
                a("t", vec![v("x")], 11),
                a("msg", vec![v("ch")], 16),
                a("out", vec![v("msg")], 17),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("load", vec![], vec![vec![v("xs")]], 6),
                call("use", vec![], vec![vec![v("t")]], 13)
            ]
        );
    }

    #[test]
    fn closures_are_flattened() {
        let src = r#"package main
import "net/http"
func Serve(addr string) error {
	h := func(w http.ResponseWriter, r *http.Request) {
		name := r.FormValue("name")
		w.Write([]byte(name))
	}
	go func(a string) {
		defer wg.Done()
		log(a)
	}(addr)
	return http.ListenAndServe(addr, h)
}
var handler = func(x int) int { return f(x) }
"#;
        assert_eq!(
            only(src),
            FnFlow {
                name: "Serve".into(),
                line: 3,
                end_line: 13,
                params: strs(&["addr"]),
                assigns: vec![a("h", vec![], 4), a("name", vec![c(0)], 5)],
                calls: vec![
                    call("FormValue", vec![v("r")], vec![vec![]], 5),
                    call("Write", vec![v("w")], vec![vec![v("name")]], 6),
                    call("Done", vec![v("wg")], vec![], 9),
                    call("log", vec![], vec![vec![v("a")]], 10),
                    call("", vec![], vec![vec![v("addr")]], 8),
                    call("ListenAndServe", vec![], vec![vec![v("addr")], vec![v("h")]], 12),
                ],
                returns: vec![ret(vec![c(5)], 12)],
            }
        );
    }

    #[test]
    fn closure_returns_belong_to_the_enclosing_function() {
        let src = r#"package main
func outer() (res int) {
	f := func() (inner int) {
		return
	}
	g := func(x int) int { return x + 1 }
	_ = g
	return f()
}
"#;
        let f = only(src);
        assert_eq!(
            f.returns,
            vec![ret(vec![v("inner")], 4), ret(vec![v("x")], 6), ret(vec![c(0)], 8)]
        );
    }

    #[test]
    fn method_chains_and_nested_call_order() {
        let src = r#"package main
func chain(a T, x int) int {
	y := a.b().c(x)
	return f(g(x), h(y))
}
"#;
        assert_eq!(
            only(src),
            FnFlow {
                name: "chain".into(),
                line: 2,
                end_line: 5,
                params: strs(&["a", "x"]),
                assigns: vec![a("y", vec![c(1)], 3)],
                calls: vec![
                    call("b", vec![v("a")], vec![], 3),
                    call("c", vec![c(0)], vec![vec![v("x")]], 3),
                    call("f", vec![], vec![vec![c(3)], vec![c(4)]], 4),
                    call("g", vec![], vec![vec![v("x")]], 4),
                    call("h", vec![], vec![vec![v("y")]], 4),
                ],
                returns: vec![ret(vec![c(2)], 4)],
            }
        );
    }

    #[test]
    fn packages_conversions_generics_and_literals() {
        let src = r#"package main
import (
	"fmt"
	str "strings"
	"github.com/acme/yaml/v2"
)
func conv(b []byte, n int, fmt Printer) string {
	s := string(b)
	p := (*Header)(ptr)
	xs := Map[int, string](ids)
	u := User{Name: s, Age: n}
	m := map[string]int{key: n, "lit": 1, k + "x": 2}
	fmt.Println(str.ToUpper(s), yaml.Marshal(u), http.StatusOK)
	return str.Join(xs, ",")
}
"#;
        let f = only(src);
        assert_eq!(
            f.assigns,
            vec![
                a("s", vec![v("b")], 8),
                a("p", vec![v("ptr")], 9),
                a("xs", vec![c(0)], 10),
                a("u", vec![v("s"), v("n")], 11),
                a("m", vec![v("n"), v("k")], 12),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("Map", vec![], vec![vec![v("ids")]], 10),
                // `fmt` is a parameter here: it shadows the package.
                call(
                    "Println",
                    vec![v("fmt")],
                    vec![vec![c(2)], vec![c(3)], vec![v("http.StatusOK")]],
                    13
                ),
                call("ToUpper", vec![], vec![vec![v("s")]], 13),
                call("Marshal", vec![], vec![vec![v("u")]], 13),
                call("Join", vec![], vec![vec![v("xs")], vec![]], 14),
            ]
        );
        assert_eq!(f.returns, vec![ret(vec![c(4)], 14)]);
    }

    #[test]
    fn locals_shadow_package_names() {
        let src = r#"package main
import "strings"
func shadow() string {
	var strings Builder
	strings.WriteString("x")
	return strings.String()
}
func plain(s string) string { return strings.ToUpper(s) }
"#;
        let all = flows(src);
        assert_eq!(
            all[0].calls,
            vec![
                call("WriteString", vec![v("strings")], vec![vec![]], 5),
                call("String", vec![v("strings")], vec![], 6),
            ]
        );
        assert_eq!(all[1].calls, vec![call("ToUpper", vec![], vec![vec![v("s")]], 8)]);
    }

    #[test]
    fn values_index_slice_unary_and_builtins() {
        let src = r#"package main
func vals(m map[string]int, xs []int, k string, ch chan int) {
	a := m[k]
	b := xs[1:len(xs)]
	d := -a + *ptr
	e := <-ch
	f := append(xs, a, b...)
	g := s.items[i].name
	h := x.(Foo)
	j := &Config{Path: "p", Opts: opts}
	l := nil == ok && true || iota > 0
}
"#;
        let f = only(src);
        assert_eq!(
            f.assigns,
            vec![
                a("a", vec![v("m"), v("k")], 3),
                a("b", vec![v("xs"), c(0)], 4),
                a("d", vec![v("a"), v("ptr")], 5),
                a("e", vec![v("ch")], 6),
                a("f", vec![c(1)], 7),
                a("g", vec![v("s.items"), v("i")], 8),
                a("h", vec![v("x")], 9),
                a("j", vec![v("opts")], 10),
                a("l", vec![v("ok")], 11),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("len", vec![], vec![vec![v("xs")]], 4),
                call("append", vec![], vec![vec![v("xs")], vec![v("a")], vec![v("b")]], 7),
            ]
        );
    }

    #[test]
    fn three_function_chain() {
        let src = r#"package main

func a(x string) string { return b(x) }

func b(y string) string {
	return c(y)
}

func c(z string) string { return z }
"#;
        assert_eq!(
            flows(src),
            vec![
                FnFlow {
                    name: "a".into(),
                    line: 3,
                    end_line: 3,
                    params: strs(&["x"]),
                    assigns: vec![],
                    calls: vec![call("b", vec![], vec![vec![v("x")]], 3)],
                    returns: vec![ret(vec![c(0)], 3)],
                },
                FnFlow {
                    name: "b".into(),
                    line: 5,
                    end_line: 7,
                    params: strs(&["y"]),
                    assigns: vec![],
                    calls: vec![call("c", vec![], vec![vec![v("y")]], 6)],
                    returns: vec![ret(vec![c(0)], 6)],
                },
                FnFlow {
                    name: "c".into(),
                    line: 9,
                    end_line: 9,
                    params: strs(&["z"]),
                    assigns: vec![],
                    calls: vec![],
                    returns: vec![ret(vec![v("z")], 9)],
                },
            ]
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        // As deep as `gortex_lang::MAX_TREE_DEPTH` lets a file be (a call nests two levels).
        let n = 2_000;
        let parens = format!(
            "package main\nfunc deep(a int) int {{\n\treturn {}a{}\n}}\n",
            "(".repeat(n),
            ")".repeat(n)
        );
        assert_eq!(only(&parens).returns, vec![ret(vec![v("a")], 3)]);

        let sum = format!(
            "package main\nfunc sum(a int) int {{\n\treturn a{}\n}}\n",
            " + a".repeat(3_000)
        );
        assert_eq!(only(&sum).returns, vec![ret(vec![v("a")], 3)]);

        let depth = 1_500;
        let nested = format!(
            "package main\nfunc calls(a int) int {{\n\treturn {}a{}\n}}\n",
            "f(".repeat(depth),
            ")".repeat(depth)
        );
        let f = only(&nested);
        assert_eq!(f.calls.len(), depth);
        assert_eq!(f.calls[0].args, vec![vec![c(1)]]);
        assert_eq!(f.calls[depth - 1].args, vec![vec![v("a")]]);
        assert_eq!(f.returns, vec![ret(vec![c(0)], 3)]);

        let chain = format!(
            "package main\nfunc sel(a T) int {{\n\treturn a{}\n}}\n",
            ".b".repeat(3_000)
        );
        assert_eq!(only(&chain).returns.len(), 1);
        // Deeper trees are refused before any walker runs.
        let deeper = format!(
            "package main\nfunc sum(a int) int {{\n\treturn a{}\n}}\n",
            " + a".repeat(20_000)
        );
        assert!(crate::extract(Language::Go, &deeper).is_none());
    }

    #[test]
    fn empty_and_broken_sources_do_not_panic() {
        assert_eq!(flows(""), vec![]);
        assert_eq!(flows("package main\n"), vec![]);
        let broken = "package main\nfunc broken(a int {\n\tx := \n\treturn a +\n}\nfunc ok(b int) int { return b }\n";
        let _ = flows(broken);
        for junk in [
            "func",
            "func (",
            "func f(",
            "func (s *S) ",
            "x := := (",
            "}}}{{{",
            "func f() { go func( }",
        ] {
            let _ = flows(junk);
        }
        // Every prefix of a realistic file.
        let src = "package main\nimport \"fmt\"\nfunc (s *S) H(w W, r *R) (n int, err error) {\n\tfor k, v := range r.Form {\n\t\ts.m[k] = append(s.m[k], v...)\n\t}\n\tgo func() { fmt.Println(<-s.ch) }()\n\treturn Map[int](r.URL.Query().Get(\"id\")), nil\n}\n";
        for end in 0..=src.len() {
            let _ = flows(&src[..end]);
        }
    }

    /// Every FnFlow names a Function/Method symbol of the graph's extractor at the same start line,
    /// and every Go function or method with a declaration has its FnFlow.
    #[test]
    fn spans_match_the_graph_extractor() {
        let src = r#"package main

import "fmt"

// Store keeps things.
type Store struct{ m map[string]int }

type Getter interface {
	Get(k string) int
}

// Get returns a value.
func (s *Store) Get(k string) int {
	return s.m[k]
}

func (s Store) Put(
	k string,
	v int,
) {
	s.m[k] = v
}

// Generic maps.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	fmt.Println(Map([]int{1}, func(i int) string { return fmt.Sprint(i) }))
}
"#;
        let ctx = gortex_lang::FileContext {
            path: "main.go",
            is_test_file: false,
        };
        let facts = gortex_lang::extract_file(Language::Go, src.as_bytes(), &ctx, std::time::Duration::from_secs(5))
            .expect("graph extraction");
        let mut graph: Vec<(String, u32, u32)> = facts
            .symbols
            .iter()
            .filter(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method) && !s.is_abstract)
            .map(|s| (s.name.clone(), s.span.start_line, s.span.end_line))
            .collect();
        let mut ours: Vec<(String, u32, u32)> = flows(src).into_iter().map(|f| (f.name, f.line, f.end_line)).collect();
        graph.sort();
        ours.sort();
        assert_eq!(ours, graph);
        assert_eq!(ours.len(), 4);
    }
}
