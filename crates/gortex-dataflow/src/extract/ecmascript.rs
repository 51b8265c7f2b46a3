//! Dataflow extraction for TypeScript, TSX and JavaScript (see `crate::facts` for the conventions).
//! One extractor serves the three grammars: the node kinds it reads are common to
//! `tree-sitter-javascript` and `tree-sitter-typescript` (TS adds `required_parameter` /
//! `optional_parameter` wrappers, `public_field_definition`, decorators as `class_body` children,
//! `non_null_expression` and type nodes, which are skipped).
//!
//! Which functions get a [`FnFlow`] mirrors `gortex-lang`'s ECMAScript extractor, so that the name
//! and start line equal those of the graph node:
//! - `function f() {}` / `function* f() {}` anywhere: the declaration node; when it is the
//!   declaration of an `export` statement, the line of `export`.
//! - `const f = () => …` / `= function …` (any depth): the whole statement when it has a single
//!   declarator (the `export` line when exported), else the declarator.
//! - Class methods and arrow/function-valued fields of declared classes (and of class expressions
//!   bound to a variable or default-exported): the member node, starting at its first decorator
//!   (TS puts decorators before the member in the class body, JS inside it; both count).
//! - Object-literal methods (`{ get() {} }`): the method node.
//! - `export default function () {}` / `export default () => …`: named `default` (or the
//!   function expression's own name), the function node.
//! - CommonJS `exports.f = function () {}` / `module.exports.f = () => …` at module level: the
//!   assignment.
//!
//! Test-runner callbacks (`it('…', () => …)`) are graph nodes only in test files, which this
//! extractor cannot tell; they are not reported (their facts belong to no function).
//!
//! Choices the conventions leave open: a call's `line` is that of its callee name (the property
//! of `a.b(…)`; the `new` keyword for `new Foo(…)`), where the graph puts its call reference; a
//! callee that is not a name (`f()(x)`, `fns[i](x)`) is `""` and its expression's reads go to
//! `receiver`; `obj["m"](x)` calls `m`; a tagged template `` tag`…${x}…` `` is a call whose first
//! argument is the strings and then one argument per substitution; an assignment used as a value
//! reads its targets (`a = b = c`: `a` reads `b`); `i++` is `i` reading `i`; a parameter default
//! (`x = d`) is an assign of `x` reading `d`; a function value reads nothing (its body is
//! flattened in); `#x` members are named `x`, as in the graph.
//!
//! Everything is walked with explicit stacks: no recursion on tree depth. Nested functions are
//! flattened down to [`MAX_FLATTEN`] levels (output would otherwise be quadratic on
//! pathologically nested named functions).

use super::named_children;
use super::slots::{PendingCall, Task, Walk, DROP, MAX_FLATTEN};
use crate::facts::{FnFlow, Value};
use gortex_lang::names::{js_member_name as member_name, js_string_value as string_value};
use gortex_lang::util::line;
use rustc_hash::{FxHashMap, FxHashSet};
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

fn end_line(node: Node<'_>) -> u32 {
    node.end_position().row as u32 + 1
}

fn is_function_value(kind: &str) -> bool {
    matches!(
        kind,
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// Kinds that never read a value: types, names that are not variables, declarations of types.
fn skipped(kind: &str) -> bool {
    matches!(
        kind,
        "comment"
            | "decorator"
            | "property_identifier"
            | "private_property_identifier"
            | "statement_identifier"
            | "type_identifier"
            | "nested_type_identifier"
            | "predefined_type"
            | "string"
            | "regex"
            | "number"
            | "import"
            | "import_statement"
            | "export_clause"
            | "interface_declaration"
            | "type_alias_declaration"
            | "enum_declaration"
            | "ambient_declaration"
            | "internal_module"
            | "module"
            | "function_signature"
            | "method_signature"
            | "abstract_method_signature"
            | "index_signature"
            | "property_signature"
            | "meta_property"
            | "hash_bang_line"
            | "jsx_text"
            | "jsx_namespace_name"
            | "accessibility_modifier"
            | "override_modifier"
            | "implements_clause"
            | "extends_type_clause"
            | "type_arguments"
            | "type_parameters"
            | "type_parameter"
            | "type_predicate"
            | "type_query"
            | "asserts"
            | "constraint"
    ) || kind.ends_with("_type")
        || kind.ends_with("_annotation")
}

/// Fields whose child is a name or a type, never a read.
fn skipped_field(field: Option<&str>) -> bool {
    matches!(
        field,
        Some("name" | "type" | "return_type" | "type_parameters" | "type_arguments" | "decorator" | "label" | "alias")
    )
}

/// `(x)`, `x!`, `x as T`, `<T>x` → `x` (a parenthesised sequence stays).
fn unwrap_transparent(mut node: Node<'_>) -> Node<'_> {
    loop {
        match node.kind() {
            "as_expression" | "satisfies_expression" => match node.named_child(0) {
                Some(inner) => node = inner,
                None => return node,
            },
            "type_assertion" => match named_children(node).into_iter().rfind(|c| c.kind() != "type_arguments") {
                Some(inner) => node = inner,
                None => return node,
            },
            "parenthesized_expression" | "non_null_expression" => {
                let kids = named_children(node);
                match kids.as_slice() {
                    [only] if only.kind() != "sequence_expression" && !only.kind().ends_with("_annotation") => {
                        node = *only
                    }
                    _ => return node,
                }
            }
            _ => return node,
        }
    }
}

/// A member chain as an access path: `Ok("req.query.id")`, or `Err(base)` when the chain does not
/// start at a variable, `this` or `super` (the base expression is what it reads).
fn access_path<'t>(node: Node<'t>, src: &[u8]) -> Result<String, Node<'t>> {
    let mut segments: Vec<String> = Vec::new();
    let mut cur = unwrap_transparent(node);
    loop {
        match cur.kind() {
            "member_expression" => {
                let (Some(object), Some(property)) =
                    (cur.child_by_field_name("object"), cur.child_by_field_name("property"))
                else {
                    return Err(cur);
                };
                match member_name(property, src) {
                    Some(p) => segments.push(p),
                    None => return Err(object),
                }
                cur = unwrap_transparent(object);
            }
            "identifier" | "this" | "super" | "shorthand_property_identifier" => {
                segments.push(text(cur, src));
                segments.reverse();
                return Ok(segments.join("."));
            }
            _ => return Err(cur),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Discovery: which functions the graph has nodes for
// ---------------------------------------------------------------------------------------------

struct Site<'t> {
    name: String,
    line: u32,
    end_line: u32,
    func: Node<'t>,
}

fn discover<'t>(root: Node<'t>, src: &[u8]) -> Vec<Site<'t>> {
    let mut sites = Vec::new();
    // Start line overrides set by a parent (`export` statements) keyed by node id.
    let mut starts: FxHashMap<usize, u32> = FxHashMap::default();
    let mut seen_sites: FxHashSet<usize> = FxHashSet::default();
    let mut push_site = |sites: &mut Vec<Site<'t>>, name: String, line: u32, end_line: u32, func: Node<'t>| {
        if seen_sites.insert(func.id()) {
            sites.push(Site {
                name,
                line,
                end_line,
                func,
            });
        }
    };
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        match node.kind() {
            "program" => {
                // CommonJS: `exports.f = function …` / `module.exports.f = () => …`.
                for stmt in named_children(node) {
                    if stmt.kind() != "expression_statement" {
                        continue;
                    }
                    let Some(assign) = stmt.named_child(0).filter(|a| a.kind() == "assignment_expression") else {
                        continue;
                    };
                    let (Some(left), Some(right)) =
                        (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
                    else {
                        continue;
                    };
                    if left.kind() != "member_expression" || !is_function_value(right.kind()) {
                        continue;
                    }
                    let left_text = text(left, src);
                    let left_text = left_text.trim();
                    let name = left_text
                        .strip_prefix("module.exports.")
                        .or_else(|| left_text.strip_prefix("exports."));
                    if let Some(name) = name.filter(|n| !n.contains(['.', '[', ' '])) {
                        push_site(&mut sites, name.to_string(), line(assign), end_line(assign), right);
                    }
                }
            }
            "export_statement" => {
                let export_line = line(node);
                if let Some(decl) = node.child_by_field_name("declaration") {
                    if matches!(decl.kind(), "lexical_declaration" | "variable_declaration") {
                        if decl.named_child_count() == 1 {
                            if let Some(d) = decl.named_child(0) {
                                starts.insert(d.id(), export_line);
                            }
                        }
                    } else {
                        starts.insert(decl.id(), export_line);
                    }
                } else if let Some(value) = node.child_by_field_name("value") {
                    if is_function_value(value.kind()) {
                        let name = value
                            .child_by_field_name("name")
                            .map(|n| text(n, src))
                            .unwrap_or_else(|| "default".to_string());
                        push_site(&mut sites, name, line(value), end_line(value), value);
                    } else if value.kind() == "class" {
                        class_members(value, src, &mut sites, &mut push_site);
                    }
                }
            }
            "function_declaration" | "generator_function_declaration" => {
                if let (Some(name), Some(_)) = (node.child_by_field_name("name"), node.child_by_field_name("body")) {
                    let start = starts.get(&node.id()).copied().unwrap_or_else(|| line(node));
                    push_site(&mut sites, text(name, src), start, end_line(node), node);
                }
            }
            "lexical_declaration" | "variable_declaration" => {
                let single = node.named_child_count() == 1;
                let mut c = node.walk();
                for decl in node.named_children(&mut c) {
                    if decl.kind() != "variable_declarator" {
                        continue;
                    }
                    let (Some(name), Some(value)) =
                        (decl.child_by_field_name("name"), decl.child_by_field_name("value"))
                    else {
                        continue;
                    };
                    if name.kind() != "identifier" {
                        continue;
                    }
                    if is_function_value(value.kind()) {
                        let span = if single { node } else { decl };
                        let start = starts.get(&decl.id()).copied().unwrap_or_else(|| line(span));
                        push_site(&mut sites, text(name, src), start, end_line(span), value);
                    } else if value.kind() == "class" {
                        class_members(value, src, &mut sites, &mut push_site);
                    }
                }
            }
            "class_declaration" | "abstract_class_declaration" => {
                class_members(node, src, &mut sites, &mut push_site);
            }
            "object" => {
                for m in named_children(node) {
                    if m.kind() != "method_definition" {
                        continue;
                    }
                    if let Some(name) = m.child_by_field_name("name").and_then(|n| member_name(n, src)) {
                        push_site(&mut sites, name, line(m), end_line(m), m);
                    }
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

/// Methods and function-valued fields of a class the graph knows.
fn class_members<'t>(
    class: Node<'t>,
    src: &[u8],
    sites: &mut Vec<Site<'t>>,
    push_site: &mut impl FnMut(&mut Vec<Site<'t>>, String, u32, u32, Node<'t>),
) {
    let Some(body) = class.child_by_field_name("body") else {
        return;
    };
    let mut pending: Option<u32> = None;
    let mut cursor = body.walk();
    for member in body.named_children(&mut cursor) {
        match member.kind() {
            "decorator" => {
                pending.get_or_insert(line(member));
                continue;
            }
            "comment" => continue,
            _ => {}
        }
        let start = pending.take().unwrap_or_else(|| line(member));
        match member.kind() {
            "method_definition" => {
                if let Some(name) = member.child_by_field_name("name").and_then(|n| member_name(n, src)) {
                    push_site(sites, name, start, end_line(member), member);
                }
            }
            "public_field_definition" | "field_definition" => {
                let name = member
                    .child_by_field_name("name")
                    .or_else(|| member.child_by_field_name("property"))
                    .and_then(|n| member_name(n, src));
                let value = member
                    .child_by_field_name("value")
                    .filter(|v| is_function_value(v.kind()));
                if let (Some(name), Some(value)) = (name, value) {
                    push_site(sites, name, start, end_line(member), value);
                }
            }
            _ => {}
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
    let params = b.function(site.func);
    b.run();
    b.w.finish(site.name, site.line, site.end_line, params)
}

impl<'s, 't> Builder<'s, 't> {
    /// Schedules evaluation of `nodes` so they run in source order.
    fn eval_all(&mut self, nodes: &[Node<'t>], slot: usize) {
        for n in nodes.iter().rev() {
            self.eval(*n, slot);
        }
    }

    /// Schedules `later` to run in its order (the stack is LIFO; each task's subtree completes
    /// before the next task starts).
    fn schedule(&mut self, later: Vec<Task<'t>>) {
        self.stack.extend(later.into_iter().rev());
    }

    /// Parameters (defaults become assigns) and body of a function-like node; returns the
    /// parameter list.
    fn function(&mut self, func: Node<'t>) -> Vec<String> {
        let outer = self.depth;
        self.depth += 1;
        let mut params = Vec::new();
        let mut later = Vec::new();
        if let Some(p) = func.child_by_field_name("parameter") {
            params.push(text(p, self.src));
        } else if let Some(list) = func.child_by_field_name("parameters") {
            for p in named_children(list) {
                let (pattern, default) = match p.kind() {
                    "required_parameter" | "optional_parameter" => {
                        (p.child_by_field_name("pattern"), p.child_by_field_name("value"))
                    }
                    "assignment_pattern" => (p.child_by_field_name("left"), p.child_by_field_name("right")),
                    "decorator" => continue,
                    _ => (Some(p), None),
                };
                let Some(pattern) = pattern else { continue };
                if pattern.kind() == "this" {
                    continue; // TS `this: T` parameter: the receiver's type, not a parameter
                }
                let bound = self.bind(pattern, line(p), default, &mut later);
                params.push(bound.join(","));
            }
        }
        if let Some(body) = func.child_by_field_name("body") {
            if body.kind() == "statement_block" {
                self.eval(body, DROP);
            } else {
                let r = self.slot();
                self.returns.push((r, line(body)));
                self.eval(body, r);
            }
        }
        self.schedule(later);
        self.depth = outer;
        params
    }

    /// The names a binding pattern binds (identifiers, destructured names, access paths for
    /// assignment targets). When `value` is given, each name gets an assign reading it; a default
    /// inside the pattern (`{ a = d }`) adds to what the names under it read (and alone makes them
    /// assigns); subscript indices and computed keys are read into nothing. Evaluations are
    /// appended to `later` in source order.
    fn bind(&mut self, pattern: Node<'t>, at: u32, value: Option<Node<'t>>, later: &mut Vec<Task<'t>>) -> Vec<String> {
        // Each bound name carries the innermost default group it sits under; groups chain outwards.
        let mut names: Vec<(String, Option<usize>)> = Vec::new();
        let mut groups: Vec<(Node<'t>, Option<usize>)> = Vec::new();
        let mut side = Vec::new();
        let mut stack: Vec<(Node<'t>, Option<usize>)> = vec![(pattern, None)];
        while let Some((n, group)) = stack.pop() {
            match n.kind() {
                "identifier" | "shorthand_property_identifier_pattern" | "shorthand_property_identifier" => {
                    names.push((text(n, self.src), group))
                }
                "member_expression" => match access_path(n, self.src) {
                    Ok(p) => names.push((p, group)),
                    Err(base) => side.push(base),
                },
                "subscript_expression" => {
                    if let Some(i) = n.child_by_field_name("index") {
                        side.push(i);
                    }
                    if let Some(o) = n.child_by_field_name("object") {
                        stack.push((o, group));
                    }
                }
                "parenthesized_expression"
                | "non_null_expression"
                | "rest_pattern"
                | "object_pattern"
                | "array_pattern"
                | "array"
                | "object"
                | "spread_element" => {
                    let kids = named_children(n);
                    stack.extend(kids.into_iter().rev().map(|k| (k, group)));
                }
                "pair_pattern" | "pair" => {
                    if let Some(k) = n
                        .child_by_field_name("key")
                        .filter(|k| k.kind() == "computed_property_name")
                    {
                        side.push(k);
                    }
                    if let Some(v) = n.child_by_field_name("value") {
                        stack.push((v, group));
                    }
                }
                "assignment_pattern"
                | "object_assignment_pattern"
                | "assignment_expression"
                | "required_parameter"
                | "optional_parameter" => {
                    let (target, default) = match n.kind() {
                        "required_parameter" | "optional_parameter" => {
                            (n.child_by_field_name("pattern"), n.child_by_field_name("value"))
                        }
                        _ => (n.child_by_field_name("left"), n.child_by_field_name("right")),
                    };
                    let inner = match default {
                        Some(d) => {
                            groups.push((d, group));
                            Some(groups.len() - 1)
                        }
                        None => group,
                    };
                    if let Some(t) = target {
                        stack.push((t, inner));
                    }
                }
                _ => {}
            }
        }
        let main = match value {
            Some(v) => {
                let s = if names.is_empty() { DROP } else { self.slot() };
                later.push(self.task(v, s));
                Some(s)
            }
            None => None,
        };
        let mut group_slots = Vec::with_capacity(groups.len());
        for &(d, _) in &groups {
            let s = self.slot();
            group_slots.push(s);
            later.push(self.task(d, s));
        }
        later.extend(side.into_iter().map(|n| self.task(n, DROP)));
        // One slot per distinct group: the value's reads, then the defaults from inner to outer.
        let mut combined: FxHashMap<usize, usize> = FxHashMap::default();
        let mut out = Vec::with_capacity(names.len());
        for (name, group) in names {
            let slot = match group {
                None => main,
                Some(g) => Some(*combined.entry(g).or_insert_with(|| {
                    self.slots.push(Vec::new());
                    let s = self.slots.len() - 1;
                    if let Some(m) = main {
                        later.push(Task::Copy(m, s));
                    }
                    let mut cur = Some(g);
                    while let Some(i) = cur {
                        later.push(Task::Copy(group_slots[i], s));
                        cur = groups[i].1;
                    }
                    s
                })),
            };
            if let Some(s) = slot {
                self.assigns.push((name.clone(), s, at));
            }
            out.push(name);
        }
        out
    }

    /// Binds `pattern` to `value` now (evaluations scheduled in source order).
    fn bind_now(&mut self, pattern: Node<'t>, at: u32, value: Option<Node<'t>>) -> Vec<String> {
        let mut later = Vec::new();
        let names = self.bind(pattern, at, value, &mut later);
        self.schedule(later);
        names
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
            "identifier" | "shorthand_property_identifier" | "this" | "super" => {
                let v = Value::Var(text(node, self.src));
                self.put(slot, v);
            }
            "undefined" => {}
            "member_expression" => match access_path(node, self.src) {
                Ok(p) => self.put(slot, Value::Var(p)),
                Err(base) => {
                    // `a.b().c` reads what `a.b()` reads (the property is not a variable of ours).
                    if base.id() != node.id() {
                        self.eval(base, slot);
                    } else {
                        self.generic(node, slot);
                    }
                }
            },
            "call_expression" => self.call(node, slot),
            "new_expression" => self.new_call(node, slot),
            "lexical_declaration" | "variable_declaration" | "using_declaration" => {
                let mut later = Vec::new();
                for d in named_children(node) {
                    if d.kind() != "variable_declarator" {
                        continue;
                    }
                    if let Some(name) = d.child_by_field_name("name") {
                        self.bind(name, line(d), d.child_by_field_name("value"), &mut later);
                    }
                }
                self.schedule(later);
            }
            "assignment_expression" => {
                let (Some(left), right) = (node.child_by_field_name("left"), node.child_by_field_name("right")) else {
                    return;
                };
                let names = self.bind_now(left, line(node), right);
                for n in names {
                    self.put(slot, Value::Var(n));
                }
            }
            "augmented_assignment_expression" | "update_expression" => {
                let target = node
                    .child_by_field_name("left")
                    .or_else(|| node.child_by_field_name("argument"));
                let Some(target) = target else { return };
                let right = node.child_by_field_name("right");
                let mut later = Vec::new();
                let names = self.bind(target, line(node), None, &mut later);
                let s = self.slot();
                for n in &names {
                    self.assigns.push((n.clone(), s, line(node)));
                    self.slots[s].push(Value::Var(n.clone()));
                    self.put(slot, Value::Var(n.clone()));
                }
                if let Some(r) = right {
                    later.insert(0, self.task(r, s));
                }
                self.schedule(later);
            }
            "for_in_statement" => {
                if let Some(body) = node.child_by_field_name("body") {
                    self.eval(body, DROP);
                }
                if let Some(left) = node.child_by_field_name("left") {
                    self.bind_now(left, line(left), node.child_by_field_name("right"));
                } else if let Some(right) = node.child_by_field_name("right") {
                    self.eval(right, DROP);
                }
            }
            "return_statement" => {
                let r = self.slot();
                self.returns.push((r, line(node)));
                self.generic(node, r);
            }
            "arrow_function"
            | "function_expression"
            | "function"
            | "generator_function"
            | "function_declaration"
            | "generator_function_declaration"
            | "method_definition" => {
                // Flattened: the function value reads nothing, its body's facts are ours.
                if self.depth <= MAX_FLATTEN {
                    self.function(node);
                }
            }
            "catch_clause" => {
                if let Some(body) = node.child_by_field_name("body") {
                    self.eval(body, DROP);
                }
            }
            "as_expression" | "satisfies_expression" => {
                if let Some(e) = node.named_child(0) {
                    self.eval(e, slot);
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
        self.eval_all(&kids, slot);
    }

    fn call(&mut self, node: Node<'t>, slot: usize) {
        let Some(func) = node.child_by_field_name("function") else {
            return self.generic(node, slot);
        };
        let func = unwrap_transparent(func);
        let (callee, name_node, receiver) = match func.kind() {
            "identifier" | "super" | "import" | "this" => (text(func, self.src), func, None),
            "member_expression" => {
                let prop = func.child_by_field_name("property");
                let name = prop.and_then(|p| member_name(p, self.src)).unwrap_or_default();
                (name, prop.unwrap_or(func), func.child_by_field_name("object"))
            }
            "subscript_expression" => {
                let index = func.child_by_field_name("index").filter(|i| i.kind() == "string");
                match (index, func.child_by_field_name("object")) {
                    (Some(i), Some(o)) => (string_value(i, self.src), i, Some(o)),
                    _ => (String::new(), func, Some(func)),
                }
            }
            _ => (String::new(), func, Some(func)),
        };
        let args = node.child_by_field_name("arguments");
        let order = args.map(|a| a.start_byte()).unwrap_or(node.end_byte());
        self.push_call(slot, callee, line(name_node), order, receiver, args);
    }

    fn new_call(&mut self, node: Node<'t>, slot: usize) {
        let Some(ctor) = node.child_by_field_name("constructor") else {
            return self.generic(node, slot);
        };
        let ctor = unwrap_transparent(ctor);
        let (callee, receiver) = match ctor.kind() {
            "identifier" => (text(ctor, self.src), None),
            "member_expression" => (
                ctor.child_by_field_name("property")
                    .and_then(|p| member_name(p, self.src))
                    .unwrap_or_default(),
                ctor.child_by_field_name("object"),
            ),
            _ => (String::new(), Some(ctor)),
        };
        let args = node.child_by_field_name("arguments");
        let order = args.map(|a| a.start_byte()).unwrap_or(ctor.end_byte());
        self.push_call(slot, callee, line(node), order, receiver, args);
    }

    fn push_call(
        &mut self,
        slot: usize,
        callee: String,
        at: u32,
        order: usize,
        receiver: Option<Node<'t>>,
        args: Option<Node<'t>>,
    ) {
        let index = self.calls.len() as u32;
        self.put(slot, Value::Call(index));
        let recv_slot = self.slot();
        let mut arg_slots = Vec::new();
        let mut evals: Vec<Task<'t>> = Vec::new();
        if let Some(r) = receiver {
            evals.push(self.task(r, recv_slot));
        }
        if let Some(args) = args {
            if args.kind() == "template_string" {
                // Tagged template: the strings array, then one argument per substitution.
                arg_slots.push(self.slot());
                for sub in named_children(args) {
                    if sub.kind() == "template_substitution" {
                        let s = self.slot();
                        arg_slots.push(s);
                        evals.push(self.task(sub, s));
                    }
                }
            } else {
                for a in named_children(args) {
                    let s = self.slot();
                    arg_slots.push(s);
                    evals.push(self.task(a, s));
                }
            }
        }
        self.calls.push(PendingCall {
            callee,
            receiver: recv_slot,
            args: arg_slots,
            line: at,
            order,
        });
        self.schedule(evals);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::facts::FnFlow;
    use gortex_core::{Language, NodeKind};

    fn flows(lang: Language, src: &str) -> Vec<FnFlow> {
        crate::extract::extract(lang, src).expect("ecmascript is a dataflow language")
    }
    fn ts(src: &str) -> Vec<FnFlow> {
        flows(Language::TypeScript, src)
    }
    /// The one flow named `name`.
    fn named(all: &[FnFlow], name: &str) -> FnFlow {
        let found: Vec<&FnFlow> = all.iter().filter(|f| f.name == name).collect();
        assert_eq!(found.len(), 1, "expected one flow named {name} in {all:#?}");
        found[0].clone()
    }

    #[test]
    fn handler_in_typescript_tsx_and_javascript() {
        let src = "export function getUser(req, res) { const id = req.query.id; const sql = \"SELECT * FROM u WHERE id=\" + id; return db.query(sql); }";
        let expected = FnFlow {
            name: "getUser".to_string(),
            line: 1,
            end_line: 1,
            params: vec!["req".to_string(), "res".to_string()],
            assigns: vec![
                assign("id", vec![v("req.query.id")], 1),
                assign("sql", vec![v("id")], 1),
            ],
            calls: vec![call("query", vec![v("db")], vec![vec![v("sql")]], 1)],
            returns: vec![ret(vec![c(0)], 1)],
        };
        for lang in [Language::TypeScript, Language::Tsx, Language::JavaScript] {
            assert_eq!(flows(lang, src), vec![expected.clone()], "{lang:?}");
        }
    }

    #[test]
    fn three_function_chain() {
        let src =
            "function a(x) {\n  return b(x);\n}\nfunction b(y) {\n  return c(y);\n}\nfunction c(z) {\n  return z;\n}\n";
        let all = ts(src);
        assert_eq!(all.len(), 3);
        let fa = &all[0];
        assert_eq!((fa.name.as_str(), fa.line, fa.end_line), ("a", 1, 3));
        assert_eq!(fa.params, vec!["x"]);
        assert_eq!(fa.calls, vec![call("b", vec![], vec![vec![v("x")]], 2)]);
        assert_eq!(fa.returns, vec![ret(vec![c(0)], 2)]);
        let fb = &all[1];
        assert_eq!((fb.name.as_str(), fb.line), ("b", 4));
        assert_eq!(fb.calls, vec![call("c", vec![], vec![vec![v("y")]], 5)]);
        assert_eq!(fb.returns, vec![ret(vec![c(0)], 5)]);
        let fc = &all[2];
        assert_eq!((fc.name.as_str(), fc.line), ("c", 7));
        assert!(fc.calls.is_empty() && fc.assigns.is_empty());
        assert_eq!(fc.returns, vec![ret(vec![v("z")], 8)]);
    }

    #[test]
    fn declarations_and_assignments() {
        let src = r#"function f(o, xs, k) {
  let a = o.a, b;
  var n = 1;
  const { p, q: r = dflt, ...rest } = o;
  const [first, , third] = xs;
  b = a;
  a += k;
  n++;
  this.total = n;
  o.items[k] = first;
  [a, b] = [b, a];
  x = y = k;
}"#;
        let f = named(&ts(src), "f");
        assert_eq!(
            f.assigns,
            vec![
                assign("a", vec![v("o.a")], 2),
                assign("n", vec![], 3),
                assign("p", vec![v("o")], 4),
                assign("r", vec![v("o"), v("dflt")], 4),
                assign("rest", vec![v("o")], 4),
                assign("first", vec![v("xs")], 5),
                assign("third", vec![v("xs")], 5),
                assign("b", vec![v("a")], 6),
                assign("a", vec![v("a"), v("k")], 7),
                assign("n", vec![v("n")], 8),
                assign("this.total", vec![v("n")], 9),
                assign("o.items", vec![v("first")], 10),
                assign("a", vec![v("b"), v("a")], 11),
                assign("b", vec![v("b"), v("a")], 11),
                assign("x", vec![v("y")], 12),
                assign("y", vec![v("k")], 12),
            ]
        );
        assert!(f.calls.is_empty());
    }

    #[test]
    fn loops_bind_their_variables() {
        let src = r#"function f(xs, obj) {
  for (const x of xs) { use(x); }
  for (const [k, val] of Object.entries(obj)) {}
  for (key in obj) {}
  for (let i = 0; i < xs.length; i++) {}
}"#;
        let f = named(&ts(src), "f");
        assert_eq!(
            f.assigns,
            vec![
                assign("x", vec![v("xs")], 2),
                assign("k", vec![c(1)], 3),
                assign("val", vec![c(1)], 3),
                assign("key", vec![v("obj")], 4),
                assign("i", vec![], 5),
                assign("i", vec![v("i")], 5),
            ]
        );
        assert_eq!(
            f.calls,
            vec![
                call("use", vec![], vec![vec![v("x")]], 2),
                call("entries", vec![v("Object")], vec![vec![v("obj")]], 3),
            ]
        );
    }

    #[test]
    fn calls_chains_and_constructors() {
        let src = r#"async function f(a, x, items, pkg) {
  a.b().c(x);
  outer(inner(x), 1);
  const s = new Service(x, new pkg.Repo());
  await this.repo.save({ id: x, items });
  fn?.(x);
  const m = await import("./mod");
  sql`SELECT ${x} FROM t`;
  obj["run"](...items);
}"#;
        let f = named(&ts(src), "f");
        assert_eq!(
            f.calls,
            vec![
                call("b", vec![v("a")], vec![], 2),
                call("c", vec![c(0)], vec![vec![v("x")]], 2),
                call("outer", vec![], vec![vec![c(3)], vec![]], 3),
                call("inner", vec![], vec![vec![v("x")]], 3),
                call("Service", vec![], vec![vec![v("x")], vec![c(5)]], 4),
                call("Repo", vec![v("pkg")], vec![], 4),
                call("save", vec![v("this.repo")], vec![vec![v("x"), v("items")]], 5),
                call("fn", vec![], vec![vec![v("x")]], 6),
                call("import", vec![], vec![vec![]], 7),
                call("sql", vec![], vec![vec![], vec![v("x")]], 8),
                call("run", vec![v("obj")], vec![vec![v("items")]], 9),
            ]
        );
        assert_eq!(f.assigns, vec![assign("s", vec![c(4)], 4), assign("m", vec![c(8)], 7)]);
    }

    #[test]
    fn values_read_per_the_conventions() {
        let src = r#"function f(a, b, k, o) {
  const t1 = a[k].name;
  const t2 = `x${a.b}y${b}`;
  const t3 = a ? b : 1;
  const t4 = (a as any).x!;
  const t5 = "lit" + 2 + null;
  const t6 = { key: a, [k]: b, o };
  const t7 = [a, ...o.list];
  const t8 = typeof a === "string" && !b;
  return a.b.c[k](1);
}"#;
        let f = named(&ts(src), "f");
        assert_eq!(
            f.assigns,
            vec![
                assign("t1", vec![v("a"), v("k")], 2),
                assign("t2", vec![v("a.b"), v("b")], 3),
                assign("t3", vec![v("a"), v("b")], 4),
                assign("t4", vec![v("a.x")], 5),
                assign("t5", vec![], 6),
                assign("t6", vec![v("a"), v("k"), v("b"), v("o")], 7),
                assign("t7", vec![v("a"), v("o.list")], 8),
                assign("t8", vec![v("a"), v("b")], 9),
            ]
        );
        assert_eq!(f.calls, vec![call("", vec![v("a.b.c"), v("k")], vec![vec![]], 10)]);
        assert_eq!(f.returns, vec![ret(vec![c(0)], 10)]);
    }

    #[test]
    fn classes_methods_and_fields() {
        let src = r#"export class UserService {
  private cache = new Map();
  constructor(private repo: Repo, log?: Logger) {
    super(repo);
    this.log = log;
  }
  @Get(":id")
  @Auth()
  async find(this: UserService, id: string, { deep, depth = 1 }: Opts, ...rest: string[]): Promise<User> {
    return this.repo.load(id, deep);
  }
  handle = async (req: Request) => this.find(req.params.id);
  #secret(x = defaultX()) { this.#hidden = x; }
}"#;
        let all = ts(src);
        let names: Vec<(&str, u32)> = all.iter().map(|f| (f.name.as_str(), f.line)).collect();
        assert_eq!(
            names,
            vec![("constructor", 3), ("find", 7), ("handle", 12), ("secret", 13)]
        );
        let ctor = named(&all, "constructor");
        assert_eq!(ctor.params, vec!["repo", "log"]);
        assert_eq!(ctor.calls, vec![call("super", vec![], vec![vec![v("repo")]], 4)]);
        assert_eq!(ctor.assigns, vec![assign("this.log", vec![v("log")], 5)]);
        let find = named(&all, "find");
        assert_eq!((find.line, find.end_line), (7, 11));
        assert_eq!(find.params, vec!["id", "deep,depth", "rest"]);
        assert_eq!(find.assigns, vec![assign("depth", vec![], 9)]);
        assert_eq!(
            find.calls,
            vec![call(
                "load",
                vec![v("this.repo")],
                vec![vec![v("id")], vec![v("deep")]],
                10
            )]
        );
        assert_eq!(find.returns, vec![ret(vec![c(0)], 10)]);
        let handle = named(&all, "handle");
        assert_eq!(handle.params, vec!["req"]);
        assert_eq!(
            handle.calls,
            vec![call("find", vec![v("this")], vec![vec![v("req.params.id")]], 12)]
        );
        assert_eq!(handle.returns, vec![ret(vec![c(0)], 12)]);
        let secret = named(&all, "secret");
        assert_eq!(secret.params, vec!["x"]);
        assert_eq!(
            secret.assigns,
            vec![assign("x", vec![c(0)], 13), assign("this.hidden", vec![v("x")], 13)]
        );
    }

    #[test]
    fn arrow_functions_and_lambdas_flattened() {
        let src = r#"export const load = async (ids) => {
  const rows = ids.map(id => fetchOne(id)).filter(Boolean);
  items.forEach(function (item) { sink(item); });
  return rows;
};
const double = x => x * 2;
let f1 = function named(a) { return a; }, f2 = (b) => b;
"#;
        let all = ts(src);
        let names: Vec<(&str, u32, u32)> = all.iter().map(|f| (f.name.as_str(), f.line, f.end_line)).collect();
        assert_eq!(
            names,
            vec![("load", 1, 5), ("double", 6, 6), ("f1", 7, 7), ("f2", 7, 7)]
        );
        let load = named(&all, "load");
        assert_eq!(load.params, vec!["ids"]);
        // Calls are numbered by their opening parenthesis: `fetchOne(` comes before `.filter(`.
        assert_eq!(load.assigns, vec![assign("rows", vec![c(2)], 2)]);
        assert_eq!(
            load.calls,
            vec![
                call("map", vec![v("ids")], vec![vec![]], 2),
                call("fetchOne", vec![], vec![vec![v("id")]], 2),
                call("filter", vec![c(0)], vec![vec![v("Boolean")]], 2),
                call("forEach", vec![v("items")], vec![vec![]], 3),
                call("sink", vec![], vec![vec![v("item")]], 3),
            ]
        );
        // The arrow's expression body returns into the enclosing function (flattened).
        assert_eq!(load.returns, vec![ret(vec![c(1)], 2), ret(vec![v("rows")], 4)]);
        assert_eq!(named(&all, "double").returns, vec![ret(vec![v("x")], 6)]);
        assert_eq!(named(&all, "f1").returns, vec![ret(vec![v("a")], 7)]);
        assert_eq!(named(&all, "f2").params, vec!["b"]);
    }

    #[test]
    fn nested_named_functions_are_reported_on_their_own_too() {
        let src = "function outer(a) {\n  function inner(b) {\n    return sink(b);\n  }\n  const helper = (c) => c;\n  return inner(a);\n}\n";
        let all = ts(src);
        let names: Vec<&str> = all.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["outer", "inner", "helper"]);
        let outer = named(&all, "outer");
        assert_eq!(
            outer.calls,
            vec![
                call("sink", vec![], vec![vec![v("b")]], 3),
                call("inner", vec![], vec![vec![v("a")]], 6),
            ]
        );
        assert_eq!(
            outer.returns,
            vec![ret(vec![c(0)], 3), ret(vec![v("c")], 5), ret(vec![c(1)], 6)]
        );
        assert_eq!(outer.assigns, vec![assign("helper", vec![], 5)]);
        let inner = named(&all, "inner");
        assert_eq!((inner.line, inner.params.clone()), (2, vec!["b".to_string()]));
        assert_eq!(inner.returns, vec![ret(vec![c(0)], 3)]);
    }

    #[test]
    fn object_methods_default_exports_and_commonjs() {
        let js = r#"const api = {
  get(url) { return fetch(url); },
  post: (url, body) => send(url, body),
};
export default function (req) { return handle(req); }
exports.create = function (data) { return save(data); };
module.exports.remove = (id) => drop(id);
"#;
        let all = flows(Language::JavaScript, js);
        let names: Vec<(&str, u32)> = all.iter().map(|f| (f.name.as_str(), f.line)).collect();
        assert_eq!(names, vec![("get", 2), ("default", 5), ("create", 6), ("remove", 7)]);
        assert_eq!(
            named(&all, "get").calls,
            vec![call("fetch", vec![], vec![vec![v("url")]], 2)]
        );
        assert_eq!(named(&all, "create").params, vec!["data"]);
        assert_eq!(named(&all, "remove").returns, vec![ret(vec![c(0)], 7)]);
    }

    #[test]
    fn jsx_reads_expressions_not_tag_names() {
        let src = "export function View({ user, onSave }) {\n  return <Card title={user.name} onClick={() => onSave(user)}><b>{user.bio}</b></Card>;\n}\n";
        for lang in [Language::Tsx, Language::JavaScript] {
            let f = named(&flows(lang, src), "View");
            assert_eq!(f.params, vec!["user,onSave"]);
            assert_eq!(f.calls, vec![call("onSave", vec![], vec![vec![v("user")]], 2)]);
            assert_eq!(
                f.returns,
                vec![ret(vec![v("user.name"), v("user.bio")], 2), ret(vec![c(0)], 2)]
            );
        }
    }

    #[test]
    fn try_catch_and_control_flow() {
        let src = r#"function f(a) {
  try {
    if (check(a)) { return a; }
  } catch (err) {
    log(err);
  } finally {
    done();
  }
  switch (a.kind) { case 1: return other(a); }
  throw new Error(a);
}"#;
        let f = named(&ts(src), "f");
        let callees: Vec<&str> = f.calls.iter().map(|c| c.callee.as_str()).collect();
        assert_eq!(callees, vec!["check", "log", "done", "other", "Error"]);
        assert_eq!(f.calls[1].args, vec![vec![v("err")]]);
        assert!(f.assigns.is_empty(), "catch parameters are not flows");
        assert_eq!(f.returns, vec![ret(vec![v("a")], 3), ret(vec![c(3)], 9)]);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        // As deep as `gortex_lang::MAX_TREE_DEPTH` lets a file be (a call nests two levels).
        let n = 1_500;
        let parens = format!("function f(a) {{ return {}a{}; }}", "(".repeat(n), ")".repeat(n));
        let sum = format!("function g(a) {{ return a{}; }}", "+a".repeat(3_000));
        let calls = format!("function h(a) {{ return {}a{}; }}", "k(".repeat(n), ")".repeat(n));
        let chain = format!("function m(a) {{ return a{}; }}", ".b()".repeat(n));
        let arrows = format!("const z = {}1;", "() => ".repeat(n));
        let arrays = format!("function p(a) {{ const [{}x{}] = a; }}", "[".repeat(n), "]".repeat(n));
        for src in [parens, sum, calls, chain, arrows, arrays] {
            for lang in [Language::TypeScript, Language::JavaScript] {
                let all = flows(lang, &src);
                assert!(!all.is_empty());
            }
        }
        let sum = format!("function g(a) {{ return a{}; }}", "+a".repeat(3_000));
        assert_eq!(ts(&sum)[0].returns, vec![ret(vec![v("a")], 1)]);
        let calls = format!("function h(a) {{ return {}a{}; }}", "k(".repeat(n), ")".repeat(n));
        let h = &ts(&calls)[0];
        assert_eq!(h.calls.len(), n);
        assert_eq!(h.calls[0].args, vec![vec![c(1)]]);
        assert_eq!(h.calls[n - 1].args, vec![vec![v("a")]]);
        // Deeper trees are refused before any walker runs.
        let deeper = format!("function g(a) {{ return a{}; }}", "+a".repeat(20_000));
        assert!(crate::extract::extract(Language::TypeScript, &deeper).is_none());
    }

    #[test]
    fn deeply_nested_named_functions_are_flattened_to_a_bound() {
        let n = 2000;
        let src = format!("{}{}", "function f(a) { g(a); ".repeat(n), "}".repeat(n));
        let all = ts(&src);
        assert_eq!(all.len(), n);
        // The outermost flattens its own body plus MAX_FLATTEN nested levels.
        assert_eq!(all[0].calls.len(), super::MAX_FLATTEN as usize + 1);
        assert_eq!(all[n - 1].calls.len(), 1);
        assert_eq!(all[n - 1].line, 1);
    }

    #[test]
    fn empty_and_broken_sources() {
        assert!(ts("").is_empty());
        assert!(
            ts("const x = 1;\nfoo(x);\n").is_empty(),
            "top-level code is not reported"
        );
        for src in [
            "function f(a { return a.b(; }",
            "class { m( }",
            "function g(x) { const = ; return x }",
            "export const h = (a, => a;",
            "}}}}{{{{",
        ] {
            for lang in [Language::TypeScript, Language::Tsx, Language::JavaScript] {
                let _ = flows(lang, src);
            }
        }
        let g = named(&ts("function g(x) { const y = ; return x }"), "g");
        assert_eq!(g.params, vec!["x"]);
    }

    /// Every flow matches a graph Function/Method node by name and start line, and every such node
    /// with a body has a flow.
    #[test]
    fn flows_match_graph_nodes() {
        let ts_src = r#"import { Injectable } from "@angular/core";
/** Service. */
@Injectable()
export class Store<T> {
  private items: T[] = [];
  // a comment between members
  @Log()
  /** doc */
  @Trace
  save(item: T): void { this.items.push(item); }
  get size() { return this.items.length; }
  set size(n: number) { this.items.length = n; }
  static create(): Store<number> { return new Store(); }
  onClick = (e: Event) => this.save(e as any);
  bound = function (x: number) { return x; };
  overloaded(a: string): void;
  overloaded(a: number): void;
  overloaded(a: any): void { this.save(a); }
  ['computed']() {}
  #priv() {}
}
export abstract class Base {
  abstract run(): void;
  protected go() { return 1; }
}
export function top(a: number) {
  function nested(b: number) { return b; }
  const inner = (c: number) => c;
  return nested(a) + inner(a);
}
export const arrow = (x: string) => x;
export const one = () => 1, two = () => 2;
const plain = function () {};
let gen = function* () { yield 1; };
export default function () { return 0; }
function* genDecl() { yield 2; }
export async function asyncFn() {}
const Klass = class { m() {} };
namespace NS { export function inNs() {} const nsArrow = () => 1; }
const obj = { method() { return 1; }, arrowProp: () => 2, async am() {} };
declare function ambient(x: number): void;
function sig(a: string): void;
function sig(a: any) {}
exports.cjs = function () {};
module.exports.cjs2 = () => 1;
"#;
        let js_src = r#"class A {
  @dec
  m() {}
  @dec field = () => 1;
  static s() {}
}
export default class { d() {} }
export const x = function () {}, y = () => 2;
const o = { f() {} };
"#;
        let tsx_src = "export const App = () => <div onClick={() => go()} />;\nexport function Page({ id }: Props) { return <App key={id} />; }\n";
        let cases = [
            (Language::TypeScript, "a.ts", ts_src, 28),
            (Language::Tsx, "a.tsx", ts_src, 28),
            (Language::Tsx, "b.tsx", tsx_src, 2),
            (Language::JavaScript, "a.js", js_src, 7),
        ];
        for (lang, path, src, at_least) in cases {
            let ctx = gortex_lang::FileContext {
                path,
                is_test_file: false,
            };
            let facts = gortex_lang::extract_file(lang, src.as_bytes(), &ctx, std::time::Duration::from_secs(10))
                .expect("extracts");
            let mut graph: Vec<(String, u32)> = facts
                .symbols
                .iter()
                .filter(|s| matches!(s.kind, NodeKind::Function | NodeKind::Method))
                .filter(|s| !s.is_abstract && s.name != "ambient")
                .map(|s| (s.name.clone(), s.span.start_line))
                .collect();
            graph.sort();
            assert!(graph.len() >= at_least, "{lang:?} {path}: {graph:?}");
            let mut ours: Vec<(String, u32)> = flows(lang, src).into_iter().map(|f| (f.name, f.line)).collect();
            ours.sort();
            assert_eq!(ours, graph, "{lang:?} {path}");
        }
    }
}
