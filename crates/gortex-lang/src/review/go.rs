//! Go: the dialect and the rules only Go spells this way (type assertions, `err` checks,
//! `defer Close()`, comma-ok map checks).

use super::dialect::{
    ancestors_until, descendants, empty_block, enclosing_function, named_children, norm, occurrences, operator,
    plus_operands, preorder, unparen, BuiltString, Callee, Dialect,
};
use super::shared::{self, finding};
use super::{words, Finding};
use crate::util::text;
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

struct Go;

/// Function, method and closure nodes: where a walk up stops.
const FUNCTIONS: &[&str] = &["function_declaration", "method_declaration", "func_literal"];

/// `database/sql` and ORM methods whose first argument is the SQL text.
const SQL_SINKS: &[&str] = &[
    "Query",
    "QueryRow",
    "Exec",
    "Raw",
    "Prepare",
    "Queryx",
    "QueryRowx",
    "MustExec",
];

/// The `*Context` variants: the SQL text is the second argument, after the context.
const SQL_CONTEXT_SINKS: &[&str] = &[
    "QueryContext",
    "QueryRowContext",
    "ExecContext",
    "PrepareContext",
    "QueryxContext",
];

/// Calls that wrap an error into a new one (so returning them in the `err == nil` branch is inverted).
const WRAPPERS: &[&str] = &[
    "Errorf",
    "Wrap",
    "Wrapf",
    "WithMessage",
    "WithMessagef",
    "WithStack",
    "Join",
];

impl Dialect for Go {
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
            "selector_expression" => Some(Callee {
                receiver: f.child_by_field_name("operand").map(|o| text(o, src).into_owned()),
                name: text(f.child_by_field_name("field")?, src).into_owned(),
            }),
            _ => None,
        }
    }

    fn arguments<'t>(&self, call: Node<'t>) -> Vec<Node<'t>> {
        call.child_by_field_name("arguments").map(items).unwrap_or_default()
    }

    fn string_literal(&self, node: Node<'_>, src: &[u8]) -> Option<String> {
        match node.kind() {
            "interpreted_string_literal" | "raw_string_literal" => {
                let t = text(node, src);
                Some(t.get(1..t.len().saturating_sub(1)).unwrap_or("").to_string())
            }
            _ => None,
        }
    }

    fn built_string(&self, node: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        let mut built = BuiltString::default();
        match node.kind() {
            "binary_expression" if operator(node, src).as_deref() == Some("+") => {
                let parts = plus_operands(node, "binary_expression", src);
                for p in parts {
                    match self.string_literal(p, src) {
                        Some(s) => built.text.push_str(&s),
                        // A `fmt.Sprintf` spliced into the chain contributes its format and values.
                        None => match self.sprintf(p, src) {
                            Some(inner) => {
                                built.text.push_str(&inner.text);
                                built.values.extend(inner.values);
                            }
                            None => built.values.push(text(p, src).into_owned()),
                        },
                    }
                }
            }
            "call_expression" => built = self.sprintf(node, src)?,
            _ => return None,
        }
        (!built.values.is_empty() && !built.text.is_empty()).then_some(built)
    }

    fn binding<'t>(&self, node: Node<'t>, src: &[u8]) -> Option<(String, Node<'t>)> {
        let (name, value) = match node.kind() {
            "short_var_declaration" | "assignment_statement" => {
                if node.kind() == "assignment_statement" && operator(node, src).as_deref() != Some("=") {
                    return None;
                }
                (
                    single(node.child_by_field_name("left")?)?,
                    single(node.child_by_field_name("right")?)?,
                )
            }
            "var_spec" | "const_spec" => {
                let mut cursor = node.walk();
                let names: Vec<Node<'t>> = node
                    .children_by_field_name("name", &mut cursor)
                    .filter(|n| n.kind() == "identifier")
                    .collect();
                let [name] = names.as_slice() else { return None };
                (*name, single(node.child_by_field_name("value")?)?)
            }
            "keyed_element" => {
                let key = node.child_by_field_name("key")?;
                let value = node.child_by_field_name("value")?;
                (element(key), element(value))
            }
            _ => return None,
        };
        let n = text(name, src);
        let leaf = n.rsplit('.').next().unwrap_or(&n).trim_matches(['"', '`']).to_string();
        Some((leaf, value))
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
        node.kind() == "for_statement"
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        FUNCTIONS.contains(&node.kind())
    }

    fn is_iteration_callback(&self, _function: Node<'_>, _src: &[u8]) -> bool {
        // Go iterates with `for`; a func literal passed to a call is not known to run per element.
        false
    }

    fn is_sql_sink(&self, callee: &Callee) -> bool {
        // Only the variants whose first argument is the SQL; `*Context` ones are checked in this file.
        callee.receiver.is_some() && SQL_SINKS.contains(&callee.name.as_str())
    }

    fn shell_command<'t>(&self, call: Node<'t>, callee: &Callee, src: &[u8]) -> Option<Node<'t>> {
        let skip = match callee.name.as_str() {
            "Command" => 0,
            "CommandContext" => 1,
            _ => return None,
        };
        if callee.receiver_leaf().as_deref() != Some("exec") {
            return None;
        }
        let args = self.arguments(call);
        let program = self.string_literal(*args.get(skip)?, src)?;
        let program = program
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&program)
            .to_ascii_lowercase();
        let flag = self.string_literal(*args.get(skip + 1)?, src)?;
        let shell = matches!(
            program.as_str(),
            "sh" | "bash" | "zsh" | "dash" | "ash" | "ksh" | "cmd" | "cmd.exe" | "powershell" | "pwsh"
        );
        (shell && matches!(flag.as_str(), "-c" | "/c" | "/C" | "-Command")).then(|| args.get(skip + 2).copied())?
    }

    fn weak_crypto(&self, _call: Node<'_>, callee: &Callee, _src: &[u8]) -> Option<String> {
        let alg = match (callee.receiver_leaf()?.as_str(), callee.name.as_str()) {
            ("md5" | "md4", "New" | "Sum") => "MD5",
            ("sha1", "New" | "Sum") => "SHA-1",
            ("des", "NewCipher" | "NewTripleDESCipher") => "DES",
            ("rc4", "NewCipher") => "RC4",
            _ => return None,
        };
        Some(alg.to_string())
    }
}

impl Go {
    /// `fmt.Sprintf(format, args...)` as a built string: the format is the text, the args the values.
    fn sprintf(&self, call: Node<'_>, src: &[u8]) -> Option<BuiltString> {
        if call.kind() != "call_expression" {
            return None;
        }
        let callee = self.callee(call, src)?;
        if callee.name != "Sprintf" || callee.receiver.as_deref() != Some("fmt") {
            return None;
        }
        let args = self.arguments(call);
        let (format, rest) = args.split_first()?;
        Some(BuiltString {
            text: self.string_literal(*format, src)?,
            values: rest.iter().map(|a| text(*a, src).into_owned()).collect(),
        })
    }
}

/// The named children of a list node (expression_list, argument_list), comments left out.
fn items(list: Node<'_>) -> Vec<Node<'_>> {
    named_children(list)
        .into_iter()
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// The only item of an expression list, when it has exactly one.
fn single(list: Node<'_>) -> Option<Node<'_>> {
    match items(list).as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The expression inside a composite literal's `literal_element` wrapper.
fn element(node: Node<'_>) -> Node<'_> {
    if node.kind() == "literal_element" {
        node.named_child(0).unwrap_or(node)
    } else {
        node
    }
}

/// A name conventionally holding an error (`err`, `readErr`, `closeErr`).
fn is_err_name(name: &str) -> bool {
    name == "err" || name.ends_with("Err") || name.ends_with("err") && name.len() > 3
}

/// `x == nil` / `nil == x` (with `op`): the identifier node compared with nil.
fn nil_compared<'t>(cond: Node<'t>, op: &str, src: &[u8]) -> Option<Node<'t>> {
    let cond = unparen(cond);
    if cond.kind() != "binary_expression" || operator(cond, src).as_deref() != Some(op) {
        return None;
    }
    let (l, r) = (
        unparen(cond.child_by_field_name("left")?),
        unparen(cond.child_by_field_name("right")?),
    );
    match (l.kind(), r.kind()) {
        ("identifier", "nil") => Some(l),
        ("nil", "identifier") => Some(r),
        _ => None,
    }
}

/// Runs every Go rule.
pub fn scan(tree: &Tree, src: &[u8]) -> Vec<Finding> {
    let d = Go;
    let nodes = preorder(tree);
    let mut out = Vec::new();
    shared::run(&d, &nodes, src, &mut out);
    let globals = package_vars(tree.root_node(), src);
    for &node in &nodes {
        match node.kind() {
            "type_assertion_expression" => out.extend(unchecked_assertion(node, src)),
            "if_statement" => {
                out.extend(deref_in_nil_branch(node, src));
                out.extend(inverted_err_check(&d, node, src));
                out.extend(swallowed(node, src));
                out.extend(check_then_act_map(&d, node, src, &globals));
                out.extend(check_then_act_fs(&d, node, src));
            }
            "short_var_declaration" | "assignment_statement" => out.extend(unclosed(&d, node, src)),
            "call_expression" => out.extend(sql_context_sink(&d, node, src)),
            _ => {}
        }
    }
    out
}

/// A finding about `subject`.
fn about(rule: &'static str, node: Node<'_>, subject: String, message: String) -> Finding {
    let mut f = finding(rule, node, message);
    f.subject = Some(subject);
    f
}

/// An `if` statement's condition and consequence.
fn branch(node: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    Some((
        node.child_by_field_name("condition")?,
        node.child_by_field_name("consequence")?,
    ))
}

/// The names declared by package-level `var` statements (shared by every goroutine).
fn package_vars(root: Node<'_>, src: &[u8]) -> HashSet<String> {
    let mut out = HashSet::new();
    for decl in named_children(root)
        .into_iter()
        .filter(|n| n.kind() == "var_declaration")
    {
        for spec in descendants(decl).into_iter().filter(|n| n.kind() == "var_spec") {
            let mut cursor = spec.walk();
            out.extend(
                spec.children_by_field_name("name", &mut cursor)
                    .map(|n| text(n, src).into_owned()),
            );
        }
    }
    out
}

/// How many names receive `list` when it is the right-hand side of a declaration or assignment.
fn receivers(list: Node<'_>) -> Option<usize> {
    let stmt = list.parent()?;
    match stmt.kind() {
        "short_var_declaration" | "assignment_statement" if stmt.child_by_field_name("right") == Some(list) => {
            stmt.child_by_field_name("left").map(|l| items(l).len())
        }
        "var_spec" if stmt.child_by_field_name("value") == Some(list) => {
            let mut cursor = stmt.walk();
            let n = stmt
                .children_by_field_name("name", &mut cursor)
                .filter(|n| n.kind() == "identifier")
                .count();
            Some(n)
        }
        _ => None,
    }
}

/// `v := x.(T)` / `x.(T).M()`: an assertion outside the comma-ok form panics on a wrong type.
fn unchecked_assertion(node: Node<'_>, src: &[u8]) -> Option<Finding> {
    if let Some(list) = node.parent().filter(|p| p.kind() == "expression_list") {
        if receivers(list) == Some(2) && items(list).len() == 1 {
            return None;
        }
    }
    let operand_node = node.child_by_field_name("operand")?;
    let operand = text(operand_node, src).into_owned();
    // `pool.Get().(*T)` and `value.Load().(T)`: a sync.Pool or atomic.Value holds one type by
    // construction; asserting it is the idiom, not a gamble.
    if operand_node.kind() == "call_expression"
        && operand_node
            .child_by_field_name("arguments")
            .is_some_and(|a| a.named_child_count() == 0)
        && (operand.ends_with(".Get()") && is_pool(&operand, src) || operand.ends_with(".Load()"))
    {
        return None;
    }
    // Values whose dynamic type the function does not control: its callers' arguments, context
    // values, elements of containers. An assertion on anything else (a node from a filtered
    // walk, a value this code built) is usually an invariant the code keeps.
    let outside = match operand_node.kind() {
        "identifier" => is_parameter_of_named_function(node, &operand, src),
        "call_expression" => operand.contains(".Value("),
        "index_expression" => true,
        _ => false,
    };
    if !outside {
        return None;
    }
    let ty = text(node.child_by_field_name("type")?, src).into_owned();
    // `pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)`: the analysis framework fills
    // ResultOf from the analyzer's Requires, one type per analyzer.
    if operand_node.kind() == "index_expression" && operand.contains("ResultOf[") {
        return None;
    }
    // `for cur := range in.Preorder((*ast.CallExpr)(nil)) { cur.Node().(*ast.CallExpr) }`: a
    // typed nil of the asserted type in the same function is a node filter that guarantees it.
    let function = ancestors_until(node, |_| false)
        .find(|a| matches!(a.kind(), "function_declaration" | "method_declaration" | "func_literal"));
    if let Some(f) = function {
        let body = crate::util::collapse_whitespace(&text(f, src));
        if body.contains(&format!("({ty})(nil)")) {
            return None;
        }
    }
    let message = format!("`{operand}.({ty})` panics when `{operand}` does not hold a `{ty}`; use the comma-ok form");
    Some(about("unchecked-type-assertion", node, operand, message))
}

/// Whether `name` is a parameter of the named function or method around `node` (a function
/// literal's parameters are its caller's walk, such as ast.Inspect's node, not outside input).
fn is_parameter_of_named_function(node: Node<'_>, name: &str, src: &[u8]) -> bool {
    let Some(f) = ancestors_until(node, |_| false)
        .find(|a| matches!(a.kind(), "function_declaration" | "method_declaration" | "func_literal"))
    else {
        return false;
    };
    if f.kind() == "func_literal" {
        return false;
    }
    let Some(params) = f.child_by_field_name("parameters") else {
        return false;
    };
    descendants(params).into_iter().any(|n| {
        n.kind() == "identifier"
            && n.parent().is_some_and(|p| p.kind() == "parameter_declaration")
            && text(n, src) == name
    })
}

/// Whether `x.Get()`'s receiver is a sync.Pool: named so, or declared so in this file.
fn is_pool(call: &str, src: &[u8]) -> bool {
    let receiver = call.trim_end_matches(".Get()");
    let leaf = receiver.rsplit('.').next().unwrap_or(receiver);
    if leaf.to_ascii_lowercase().contains("pool") {
        return true;
    }
    let file = String::from_utf8_lossy(src);
    [
        format!("{leaf} = sync.Pool"),
        format!("{leaf} sync.Pool"),
        format!("{leaf} *sync.Pool"),
    ]
    .iter()
    .any(|decl| file.contains(decl.as_str()))
}

/// `if p == nil { … p.Field … }`: the first use of `p` in the nil branch dereferences it.
fn deref_in_nil_branch(node: Node<'_>, src: &[u8]) -> Option<Finding> {
    let (cond, then) = branch(node)?;
    let name = text(nil_compared(cond, "==", src)?, src).into_owned();
    let occ = occurrences(then, &name, src).into_iter().next()?;
    let parent = occ.parent()?;
    let deref = match parent.kind() {
        "selector_expression" => parent.child_by_field_name("operand") == Some(occ),
        "unary_expression" => operator(parent, src).as_deref() == Some("*"),
        _ => false,
    };
    let message = format!("`{name}` is dereferenced in the branch where it is nil");
    deref.then(|| about("deref-in-null-branch", occ, name, message))
}

/// `if err == nil { return err }` / `return fmt.Errorf("…%w", err)`: the branch handles an error
/// that is not there, so the real error path falls through.
fn inverted_err_check(d: &Go, node: Node<'_>, src: &[u8]) -> Option<Finding> {
    let (cond, then) = branch(node)?;
    let name = text(nil_compared(cond, "==", src)?, src).into_owned();
    if !is_err_name(&name) {
        return None;
    }
    let is_err = |n: Node<'_>| n.kind() == "identifier" && text(n, src) == name;
    let returns_err = descendants(then)
        .into_iter()
        .filter(|n| n.kind() == "return_statement")
        .any(|ret| {
            // A return inside a nested func literal leaves that literal, not this branch.
            if enclosing_function(d, ret) != enclosing_function(d, node) {
                return false;
            }
            // `err` bound again before the return (`if err := w(); err != nil { return err }`,
            // `case err := <-ch: return err`) is another error.
            let before = &src[then.start_byte()..ret.start_byte()];
            let rebound = String::from_utf8_lossy(before)
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '=' || c == ' ' || c == ','))
                .any(|piece| {
                    let piece = piece.trim();
                    piece.split([',', ' ']).any(|w| w == name) && (piece.contains(":=") || piece.contains(" = "))
                });
            if rebound {
                return false;
            }
            let values = ret
                .named_child(0)
                .filter(|l| l.kind() == "expression_list")
                .map(items)
                .unwrap_or_default();
            values.iter().any(|v| {
                is_err(*v)
                    || v.kind() == "call_expression"
                        && d.callee(*v, src).is_some_and(|c| WRAPPERS.contains(&c.name.as_str()))
                        && d.arguments(*v).into_iter().any(is_err)
            })
        });
    let message = format!("the `{name} == nil` branch returns `{name}`: the check is inverted");
    returns_err.then(|| about("inverted-err-check", cond, name, message))
}

/// `if err != nil {}`: the error is checked and then dropped without a word.
fn swallowed(node: Node<'_>, src: &[u8]) -> Option<Finding> {
    let (cond, then) = branch(node)?;
    let name = text(nil_compared(cond, "!=", src)?, src).into_owned();
    let message = format!("`{name}` is checked and then ignored: the branch is empty");
    (is_err_name(&name) && empty_block(then, src) == (true, false))
        .then(|| about("swallowed-error", node, name, message))
}

/// The statement binding the names an `if` tests: its initializer, or else the statement right
/// before it (`v, ok := m[k]` then `if !ok`).
fn binding_before(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(init) = node.child_by_field_name("initializer") {
        return Some(init);
    }
    let mut prev = node.prev_named_sibling();
    while let Some(p) = prev.filter(|p| p.kind() == "comment") {
        prev = p.prev_named_sibling();
    }
    prev.filter(|p| matches!(p.kind(), "short_var_declaration" | "assignment_statement"))
}

/// `if _, ok := m[k]; !ok { m[k] = v }` on a map other goroutines share, with no lock taken.
fn check_then_act_map(d: &Go, node: Node<'_>, src: &[u8], globals: &HashSet<String>) -> Option<Finding> {
    let (cond, then) = branch(node)?;
    let cond = unparen(cond);
    if cond.kind() != "unary_expression" || operator(cond, src).as_deref() != Some("!") {
        return None;
    }
    let ok = cond
        .child_by_field_name("operand")
        .map(unparen)
        .filter(|o| o.kind() == "identifier")?;
    let stmt = binding_before(node)?;
    let names = items(stmt.child_by_field_name("left")?);
    if names.len() != 2 || text(names[1], src) != text(ok, src) {
        return None;
    }
    let lookup = single(stmt.child_by_field_name("right")?).filter(|r| r.kind() == "index_expression")?;
    let map = lookup.child_by_field_name("operand")?;
    let map_text = norm(map, src);
    let scope = enclosing_function(d, node)?;
    // Shared: a field of a struct (`s.cache`) or a package-level var not shadowed in this function.
    let shared = match map.kind() {
        "selector_expression" => true,
        "identifier" => globals.contains(&map_text) && !declares_locally(scope, &map_text, src),
        _ => false,
    };
    // Maps are shared between goroutines where the code says so: a file with no mutex keeps its
    // maps to one goroutine (a builder, a per-request cache), and racing on them is not its bug.
    let file = String::from_utf8_lossy(src);
    let concurrent = file.contains("sync.Mutex") || file.contains("sync.RWMutex");
    if !shared || !concurrent || takes_lock(d, scope, src) {
        return None;
    }
    let assign = descendants(then)
        .into_iter()
        .filter(|n| n.kind() == "assignment_statement")
        .find(|a| {
            a.child_by_field_name("left")
                .map(items)
                .unwrap_or_default()
                .into_iter()
                .any(|l| {
                    l.kind() == "index_expression"
                        && l.child_by_field_name("operand")
                            .is_some_and(|o| norm(o, src) == map_text)
                })
        })?;
    let message =
        format!("`{map_text}` is checked for the key and then written without a lock: concurrent callers race");
    Some(about("check-then-act", assign, map_text, message))
}

/// Whether `scope` calls `.Lock()` anywhere (a mutex held over the check and the act).
fn takes_lock(d: &Go, scope: Node<'_>, src: &[u8]) -> bool {
    descendants(scope)
        .into_iter()
        .filter(|n| n.kind() == "call_expression")
        .any(|c| {
            d.callee(c, src)
                .is_some_and(|c| c.name == "Lock" && c.receiver.is_some())
        })
}

/// Whether `scope` declares `name` itself (a parameter, `:=` or `var`), shadowing a package var.
fn declares_locally(scope: Node<'_>, name: &str, src: &[u8]) -> bool {
    descendants(scope).into_iter().any(|n| match n.kind() {
        "short_var_declaration" => n
            .child_by_field_name("left")
            .map(items)
            .unwrap_or_default()
            .into_iter()
            .any(|l| text(l, src) == name),
        "var_spec" | "parameter_declaration" => {
            let mut cursor = n.walk();
            let found = n
                .children_by_field_name("name", &mut cursor)
                .any(|l| text(l, src) == name);
            found
        }
        _ => false,
    })
}

/// `_, err := os.Stat(p); if os.IsNotExist(err) { os.Create(p) }`: another process can create
/// `p` between the check and the create.
fn check_then_act_fs(d: &Go, node: Node<'_>, src: &[u8]) -> Option<Finding> {
    let (cond, then) = branch(node)?;
    let tests_missing = descendants(cond).into_iter().any(|n| {
        n.kind() == "call_expression" && d.callee(n, src).is_some_and(|c| c.name == "IsNotExist")
            || n.kind() == "selector_expression" && text(n, src).ends_with(".ErrNotExist")
    });
    if !tests_missing {
        return None;
    }
    let stat = single(binding_before(node)?.child_by_field_name("right")?).filter(|r| r.kind() == "call_expression")?;
    let check = d
        .callee(stat, src)
        .filter(|c| matches!(c.name.as_str(), "Stat" | "Lstat") && c.receiver.as_deref() == Some("os"))?;
    let path = norm(*d.arguments(stat).first()?, src);
    for call in descendants(then).into_iter().filter(|n| n.kind() == "call_expression") {
        let Some(act) = d.callee(call, src) else { continue };
        let args = d.arguments(call);
        if act.receiver.as_deref() != Some("os") || args.first().is_none_or(|a| norm(*a, src) != path) {
            continue;
        }
        let racy = match act.name.as_str() {
            "Create" | "Mkdir" | "WriteFile" => true,
            // O_EXCL makes the create itself fail when the file appeared meanwhile.
            "OpenFile" => args
                .get(1)
                .map(|a| text(*a, src))
                .is_some_and(|f| f.contains("O_CREATE") && !f.contains("O_EXCL")),
            _ => false,
        };
        if racy {
            let message = format!(
                "`{path}` is checked with `os.{}` and then created with `os.{}`: another process can create it in between",
                check.name, act.name
            );
            return Some(about("check-then-act", call, path, message));
        }
    }
    None
}

/// The call that closes what `callee` returns: `Close` on the value itself, or on `.Body` for
/// an HTTP response. `None` when `callee` does not open a resource.
fn closer_of(callee: &Callee) -> Option<&'static str> {
    let leaf = callee.receiver_leaf()?;
    Some(match (leaf.as_str(), callee.name.as_str()) {
        ("os", "Open" | "Create" | "OpenFile" | "CreateTemp") | ("ioutil", "TempFile") => "Close",
        ("sql" | "sqlx", "Open" | "Connect") | ("net", "Dial" | "DialTimeout" | "Listen") => "Close",
        ("http", "Get" | "Post" | "Head" | "PostForm") => "Body.Close",
        // net/http's Client: `Do` on a client; the verbs only on one named for HTTP (a storage
        // client's `Get` returns a value, not a response body).
        (r, "Do") if r.ends_with("client") => "Body.Close",
        (r, "Get" | "Post" | "Head" | "PostForm") if r.contains("http") || r == "defaultclient" => "Body.Close",
        _ => return None,
    })
}

/// `f, err := os.Open(p)` / `resp, err := http.Get(u)` never closed, returned or stored.
fn unclosed(d: &Go, stmt: Node<'_>, src: &[u8]) -> Option<Finding> {
    if stmt.kind() == "assignment_statement" && operator(stmt, src).as_deref() != Some("=") {
        return None;
    }
    let var = items(stmt.child_by_field_name("left")?).first().copied()?;
    if var.kind() != "identifier" || text(var, src) == "_" {
        return None;
    }
    let call = single(stmt.child_by_field_name("right")?).filter(|r| r.kind() == "call_expression")?;
    let callee = d.callee(call, src)?;
    let closer = closer_of(&callee)?;
    let scope = enclosing_function(d, stmt)?;
    let name = text(var, src).into_owned();
    let close_call = format!("{name}.{closer}");
    let closed = descendants(scope)
        .into_iter()
        .filter(|n| n.kind() == "call_expression")
        .any(|c| {
            let direct = c
                .child_by_field_name("function")
                .is_some_and(|f| norm(f, src) == close_call);
            // `closeQuietly(f)` / `check(f.Close)` hand the closing to a helper.
            let helper = d
                .callee(c, src)
                .is_some_and(|k| k.name.to_ascii_lowercase().contains("close"))
                && d.arguments(c)
                    .into_iter()
                    .any(|a| text(a, src) == name || norm(a, src) == close_call);
            direct || helper
        });
    // `x, err = open()` into a name this function does not declare stores it in a package var.
    let stored = stmt.kind() == "assignment_statement" && !declares_locally(scope, &name, src);
    if closed || stored || escapes(scope, stmt, &name, src) {
        return None;
    }
    let message = format!(
        "`{name}` is opened with `{}` and `{close_call}()` is never called in this function",
        callee.display()
    );
    let mut f = about("unclosed-resource", stmt, name, message);
    f.callee = Some(callee.display());
    Some(f)
}

/// Whether `name` leaves the function (returned, stored, sent, put in a literal or handed to a
/// goroutine), so the caller or owner closes it.
fn escapes(scope: Node<'_>, decl: Node<'_>, name: &str, src: &[u8]) -> bool {
    occurrences(scope, name, src)
        .into_iter()
        .filter(|o| o.start_byte() >= decl.end_byte())
        .any(|occ| {
            let Some(p) = occ.parent() else { return false };
            // Used by a goroutine (`go func() { serve(l) }()`): it lives on past this function.
            if ancestors_until(occ, |a| a == scope).any(|a| a.kind() == "go_statement") {
                return true;
            }
            match p.kind() {
                "literal_element" | "send_statement" => true,
                // `go f(x)`, or `return bufio.NewReader(x)`: a wrapper returned carries it out.
                // `go f(x)`, `jsonrpc2.NewConn(x)` (a wrapper that takes ownership), or
                // `return bufio.NewReader(x)` (a wrapper returned) carries it out.
                "argument_list" => {
                    p.parent()
                        .and_then(|c| c.parent())
                        .is_some_and(|g| g.kind() == "go_statement")
                        || p.parent()
                            .and_then(|c| c.child_by_field_name("function"))
                            .is_some_and(|f| {
                                let name = text(f, src);
                                name.rsplit('.').next().is_some_and(|n| {
                                    // `append(l.Responses, resp)`: kept in a slice that outlives the call.
                                    n == "append"
                                        || n.starts_with("New")
                                            && !matches!(n, "NewReader" | "NewScanner" | "NewDecoder")
                                })
                            })
                        || ancestors_until(p, |a| {
                            matches!(a.kind(), "function_declaration" | "method_declaration" | "func_literal")
                        })
                        .any(|a| a.kind() == "return_statement")
                }
                "expression_list" => p.parent().is_some_and(|s| match s.kind() {
                    "return_statement" => true,
                    "assignment_statement" | "short_var_declaration" => s.child_by_field_name("right") == Some(p),
                    _ => false,
                }),
                _ => false,
            }
        })
}

/// `db.QueryContext(ctx, "… " + x)`: the `*Context` SQL sinks, whose query is the second argument
/// (the shared rule reads the first).
fn sql_context_sink(d: &Go, call: Node<'_>, src: &[u8]) -> Option<Finding> {
    let callee = d.callee(call, src)?;
    if callee.receiver.is_none() || !SQL_CONTEXT_SINKS.contains(&callee.name.as_str()) {
        return None;
    }
    let query = *d.arguments(call).get(1)?;
    let built = shared::built_or_traced(d, call, query, src).filter(|b| words::has_sql_keyword(&b.text))?;
    let values = match built.values.as_slice() {
        [one] => format!("`{one}`"),
        many => format!("{} values", many.len()),
    };
    let mut f = finding(
        "sql-string-concat",
        call,
        format!("`{}` runs SQL built from {values}", callee.display()),
    );
    f.callee = Some(callee.display());
    f.values = built.values;
    Some(f)
}
