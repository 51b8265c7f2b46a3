//! How a language spells what the shared rules look for, and the iterative tree helpers every
//! rule uses.

use crate::util::text;
use tree_sitter::{Node, Tree};

/// A called name: `db.query(...)` is receiver `db`, name `query`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callee {
    /// The receiver expression as written (`self.db`, `this.repo`), when the call has one.
    pub receiver: Option<String>,
    /// The last name of the callee.
    pub name: String,
}

impl Callee {
    /// `receiver.name` or `name`.
    pub fn display(&self) -> String {
        match &self.receiver {
            Some(r) => format!("{r}.{}", self.name),
            None => self.name.clone(),
        }
    }

    /// The receiver's last segment (`self.db` → `db`), lower-cased.
    pub fn receiver_leaf(&self) -> Option<String> {
        let r = self.receiver.as_deref()?;
        let leaf = r.rsplit(['.', '>', ':']).next().unwrap_or(r);
        let leaf = leaf.trim_end_matches("()").trim_start_matches('$');
        Some(leaf.to_ascii_lowercase())
    }
}

/// A string assembled at run time: its literal text (for keyword checks) and the values spliced in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuiltString {
    pub text: String,
    /// Non-literal parts as written (`userId`, `req.query.name`, `str(n)`).
    pub values: Vec<String>,
}

/// What the shared rules need to know about a language's syntax.
pub trait Dialect {
    /// Node kinds that are calls (`call_expression`, `call`, `method_invocation`…).
    fn is_call(&self, node: Node<'_>) -> bool;
    /// The called name of a call node.
    fn callee(&self, call: Node<'_>, src: &[u8]) -> Option<Callee>;
    /// A call's arguments in order (keyword arguments included as their nodes).
    fn arguments<'t>(&self, call: Node<'t>) -> Vec<Node<'t>>;
    /// A plain string literal's contents (no interpolation), quotes removed.
    fn string_literal(&self, node: Node<'_>, src: &[u8]) -> Option<String>;
    /// A string built from literal and non-literal parts: concatenation, interpolation,
    /// formatting (`"a" + b`, `` `a${b}` ``, `f"a{b}"`, `"a %s" % b`, `fmt.Sprintf`, `String.format`).
    /// `None` for a literal or a value with no literal part.
    fn built_string(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString>;
    /// `name = value` shapes the language has (declarations, assignments, fields, object
    /// properties, keyword arguments): the bound name and the value node.
    fn binding<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)>;
    /// A comparison: left operand, operator text, right operand.
    fn comparison<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(Node<'t>, String, Node<'t>)>;
    /// Loop statements and comprehensions whose `body` runs once per element.
    fn is_loop(&self, node: Node<'_>) -> bool;
    /// Function, method and lambda nodes: where a walk up stops.
    fn is_function(&self, node: Node<'_>) -> bool;
    /// A function node passed to a per-element iteration call (`xs.forEach(x => …)`,
    /// `list.forEach(x -> …)`): its body runs once per element.
    fn is_iteration_callback(&self, function: Node<'_>, src: &[u8]) -> bool;
    /// Whether calling `callee` executes SQL given as its first argument.
    fn is_sql_sink(&self, callee: &Callee) -> bool;
    /// The argument of `call` that a shell runs, when `call` runs a shell command.
    fn shell_command<'t>(&self, call: Node<'t>, callee: &Callee, src: &[u8]) -> Option<Node<'t>>;
    /// A weak algorithm this call selects, named (`MD5`, `DES`…).
    fn weak_crypto(&self, call: Node<'_>, callee: &Callee, src: &[u8]) -> Option<String>;
}

/// Every node of the tree in document order, without recursion.
pub fn preorder(tree: &Tree) -> Vec<Node<'_>> {
    descendants(tree.root_node())
}

pub use crate::util::descendants;

/// The nearest enclosing function of `node` (not `node` itself).
pub fn enclosing_function<'t>(d: &dyn Dialect, node: Node<'t>) -> Option<Node<'t>> {
    let mut cur = node.parent();
    while let Some(n) = cur {
        if d.is_function(n) {
            return Some(n);
        }
        cur = n.parent();
    }
    None
}

/// The loop (or iteration callback) inside its function whose body runs `node` once per element:
/// in a loop's body (not its header — `for row in db.query()` queries once) or in a callback
/// passed to a per-element call.
pub fn per_element_scope<'t>(d: &dyn Dialect, node: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    let mut child = node;
    let mut cur = node.parent();
    while let Some(n) = cur {
        if d.is_function(n) {
            return d.is_iteration_callback(n, src).then_some(n);
        }
        if d.is_loop(n) {
            if let Some(body) = n.child_by_field_name("body") {
                if body == child || contains(body, child) {
                    return Some(n);
                }
            }
        }
        child = n;
        cur = n.parent();
    }
    None
}

/// Whether `node` runs once per element *with something that changes per element*: some name it
/// uses is bound by the loop header (the element, an index, a callback's parameter) or assigned
/// in the body. A retry or polling loop repeats the same call and is not a per-element query.
pub fn varies_per_element(d: &dyn Dialect, node: Node<'_>, src: &[u8]) -> bool {
    let Some(scope) = per_element_scope(d, node, src) else {
        return false;
    };
    let body = scope.child_by_field_name("body");
    let inside_body = |n: Node<'_>| body.is_some_and(|b| b == n || contains(b, n));
    let mut bound: std::collections::HashSet<String> = descendants(scope)
        .into_iter()
        .filter(|n| is_identifier(*n) && !inside_body(*n))
        .map(|n| text(n, src).into_owned())
        .collect();
    if let Some(b) = body {
        for n in descendants(b) {
            if n.start_byte() >= node.start_byte() {
                break;
            }
            if let Some((name, _)) = d.binding(n, src) {
                bound.insert(name);
            }
        }
    }
    descendants(node)
        .into_iter()
        .any(|n| is_identifier(n) && bound.contains(text(n, src).as_ref()))
}

/// The ancestors of `node` (nearest first) up to, not including, the first for which `stop` holds.
pub fn ancestors_until<'t>(node: Node<'t>, stop: impl Fn(Node<'t>) -> bool) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(node.parent(), |n| n.parent()).take_while(move |n| !stop(*n))
}

/// Whether `inner` lies within `outer`'s byte range.
pub fn contains(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// The node's text with whitespace runs collapsed (for comparing operands).
pub fn norm(node: Node<'_>, src: &[u8]) -> String {
    crate::util::collapse_whitespace(&text(node, src))
}

/// Whether a block holds nothing but comments (and `pass`): returns (empty, has_comment). A
/// comment after a braced block's closing `}` (tree-sitter files a trailing same-line comment
/// inside the block) does not count as explaining it.
pub fn empty_block(block: Node<'_>, src: &[u8]) -> (bool, bool) {
    let end = block.end_byte().min(src.len());
    let close = src[block.start_byte().min(end)..end]
        .iter()
        .rposition(|b| *b == b'}')
        .map(|i| block.start_byte() + i);
    let mut has_comment = false;
    for c in named_children(block) {
        match c.kind() {
            "comment" | "line_comment" | "block_comment" => {
                if close.is_none_or(|close| c.start_byte() < close) {
                    has_comment = true;
                }
            }
            "pass_statement" => {}
            _ => return (false, has_comment),
        }
    }
    (true, has_comment)
}

/// The identifiers named `name` under `root`, in document order.
pub fn occurrences<'t>(root: Node<'t>, name: &str, src: &[u8]) -> Vec<Node<'t>> {
    descendants(root)
        .into_iter()
        .filter(|n| is_identifier(*n) && text(*n, src) == name)
        .collect()
}

/// Identifier-like leaves across the four grammars.
pub fn is_identifier(node: Node<'_>) -> bool {
    matches!(node.kind(), "identifier" | "shorthand_property_identifier")
}

/// The statements after `stmt` in its block, in order.
pub fn following_statements(stmt: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cur = stmt.next_named_sibling();
    while let Some(n) = cur {
        out.push(n);
        cur = n.next_named_sibling();
    }
    out
}

/// The ancestor of `node` (or `node`) whose parent is a block-like statement list: the
/// statement `node` is part of.
pub fn statement_of<'t>(node: Node<'t>, blocks: &[&str]) -> Option<Node<'t>> {
    let mut cur = node;
    loop {
        let parent = cur.parent()?;
        if blocks.contains(&parent.kind()) {
            return Some(cur);
        }
        cur = parent;
    }
}

/// A node's named children in order.
pub fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// Whether `node` has a child (named or not) of `kind`.
pub fn has_child_kind(node: Node<'_>, kind: &str) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == kind);
    found
}

/// The text of a node's `operator` field.
pub fn operator(node: Node<'_>, src: &[u8]) -> Option<String> {
    node.child_by_field_name("operator").map(|o| text(o, src).into_owned())
}

/// The expression inside any parentheses.
pub fn unparen(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The operands of a chain of `+` (`"a" + b + "c"`) in order, without recursion; `kind` is the
/// grammar's binary node kind.
pub fn plus_operands<'t>(node: Node<'t>, kind: &str, src: &[u8]) -> Vec<Node<'t>> {
    let mut stack = vec![node];
    let mut parts = Vec::new();
    while let Some(n) = stack.pop() {
        let n = unparen(n);
        if n.kind() == kind && operator(n, src).as_deref() == Some("+") {
            stack.extend(n.child_by_field_name("right"));
            stack.extend(n.child_by_field_name("left"));
        } else {
            parts.push(n);
        }
    }
    parts
}
