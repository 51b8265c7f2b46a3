//! The rules every language shares, run over a [`Dialect`]: hard-coded secrets, self-comparison,
//! SQL and shell commands built from strings, weak crypto, queries in loops.

use super::dialect::{enclosing_function, norm, varies_per_element, BuiltString, Callee, Dialect};
use super::{words, Finding};
use crate::util::text;
use tree_sitter::Node;

/// A finding of `rule` anchored at `node`.
pub fn finding(rule: &'static str, node: Node<'_>, message: String) -> Finding {
    Finding {
        rule,
        line: node.start_position().row as u32 + 1,
        column: node.start_position().column as u32,
        end_line: node.end_position().row as u32 + 1,
        message,
        subject: None,
        callee: None,
        values: Vec::new(),
    }
}

/// Runs the shared rules over every node.
pub fn run(d: &dyn Dialect, nodes: &[Node<'_>], src: &[u8], out: &mut Vec<Finding>) {
    for &node in nodes {
        if let Some((name, value)) = d.binding(node, src) {
            secret_binding(d, node, &name, value, src, out);
        } else if let Some(lit) = d.string_literal(node, src) {
            if words::is_known_credential_format(&lit) && !is_binding_value(d, node, src) {
                let mut f = finding(
                    "hardcoded-secret",
                    node,
                    "literal has the format of a live credential (access key, token or private key)".into(),
                );
                f.subject = Some(redact(&lit));
                out.push(f);
            }
        }
        if let Some((left, op, right)) = d.comparison(node, src) {
            self_comparison(node, left, &op, right, src, out);
        }
        if d.is_call(node) {
            if let Some(callee) = d.callee(node, src) {
                call_rules(d, node, &callee, src, out);
            }
        }
    }
}

/// Whether `node` is the value of a binding (then the binding's rule judged it).
fn is_binding_value(d: &dyn Dialect, node: Node<'_>, src: &[u8]) -> bool {
    let mut cur = node.parent();
    for _ in 0..3 {
        let Some(p) = cur else { return false };
        if let Some((_, v)) = d.binding(p, src) {
            return v == node || super::dialect::contains(v, node);
        }
        cur = p.parent();
    }
    false
}

fn secret_binding(d: &dyn Dialect, node: Node<'_>, name: &str, value: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    let Some(lit) = d.string_literal(value, src) else {
        return;
    };
    let known = words::is_known_credential_format(&lit);
    if known || words::is_secret_name(name) && words::looks_like_credential(&lit) {
        let mut f = finding(
            "hardcoded-secret",
            node,
            format!("`{name}` is set to a literal credential ({})", redact(&lit)),
        );
        f.subject = Some(name.to_string());
        out.push(f);
    }
}

/// The first characters of a secret and its length, never the whole value.
fn redact(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}… {} chars", secret.chars().count())
}

fn self_comparison(node: Node<'_>, left: Node<'_>, op: &str, right: Node<'_>, src: &[u8], out: &mut Vec<Finding>) {
    // `x != x` is the NaN test in every language here; calls may differ between evaluations.
    if matches!(op, "!=" | "!==") || left.kind().contains("call") || left.kind().contains("invocation") {
        return;
    }
    let (l, r) = (norm(left, src), norm(right, src));
    if l == r && !l.contains('(') && !l.is_empty() {
        let mut f = finding(
            "self-comparison",
            node,
            format!("`{l} {op} {r}` compares a value with itself"),
        );
        f.subject = Some(l);
        out.push(f);
    }
}

fn call_rules(d: &dyn Dialect, call: Node<'_>, callee: &Callee, src: &[u8], out: &mut Vec<Finding>) {
    if d.is_sql_sink(callee) {
        if let Some(first) = d.arguments(call).first().copied() {
            if let Some(built) = built_or_traced(d, call, first, src).filter(|b| words::has_sql_keyword(&b.text)) {
                let mut f = finding(
                    "sql-string-concat",
                    call,
                    format!("`{}` runs SQL built from {}", callee.display(), describe_values(&built)),
                );
                f.callee = Some(callee.display());
                f.values = built.values;
                out.push(f);
            }
        }
    }
    if let Some(command) = d.shell_command(call, callee, src) {
        if let Some(built) = built_or_traced(d, call, command, src) {
            let mut f = finding(
                "shell-string-concat",
                call,
                format!(
                    "`{}` runs a shell command built from {}",
                    callee.display(),
                    describe_values(&built)
                ),
            );
            f.callee = Some(callee.display());
            f.values = built.values;
            out.push(f);
        }
    }
    if let Some(alg) = d.weak_crypto(call, callee, src) {
        let context = enclosing_function(d, call).map(|f| name_of(f, src)).unwrap_or_default();
        // A digest is only weak where it protects something: the function's name or the
        // statement around the call must say so (a password, a token, a signature…).
        let digest = ["MD5", "MD4", "SHA-1", "SHA1"]
            .iter()
            .any(|a| alg.to_ascii_uppercase().contains(a));
        let protects = words::is_security_context(&context) || words::is_security_context(&lines_of(call, src));
        if !words::is_non_security_use(&context)
            && !words::is_non_security_use(&text(call, src))
            && (!digest || protects)
        {
            let mut f = finding("weak-crypto", call, format!("`{}` uses {alg}", callee.display()));
            f.callee = Some(callee.display());
            f.subject = Some(alg);
            out.push(f);
        }
    }
    // Django's `Model.objects` is a query manager; any other `objects` is just a name.
    let django = callee.receiver.as_deref().is_some_and(|r| {
        r.strip_suffix(".objects").is_some_and(|m| {
            m.rsplit('.')
                .next()
                .is_some_and(|c| c.starts_with(|ch: char| ch.is_ascii_uppercase()))
        })
    });
    let leaf = if django {
        Some("orm".to_string())
    } else {
        callee.receiver_leaf()
    };
    if words::is_query_call(&callee.name, leaf.as_deref()) && varies_per_element(d, call, src) {
        let mut f = finding(
            "loop-query",
            call,
            format!(
                "`{}` runs once per loop iteration, with the element as input",
                callee.display()
            ),
        );
        f.callee = Some(callee.display());
        out.push(f);
    }
}

/// `arg` as a built string, or — when it is a plain name — the built string that name was last
/// bound to before `call` in the same function.
pub(super) fn built_or_traced(d: &dyn Dialect, call: Node<'_>, arg: Node<'_>, src: &[u8]) -> Option<BuiltString> {
    if let Some(b) = d.built_string(arg, src) {
        return Some(b);
    }
    if arg.kind() != "identifier" {
        return None;
    }
    let name = text(arg, src);
    let scope = enclosing_function(d, call)?;
    let mut last = None;
    for n in super::dialect::descendants(scope) {
        if n.start_byte() >= call.start_byte() {
            break;
        }
        if let Some((bound, value)) = d.binding(n, src) {
            if bound == name {
                last = Some(d.built_string(value, src));
            }
        }
    }
    last.flatten()
}

fn describe_values(b: &BuiltString) -> String {
    match b.values.as_slice() {
        [] => "string pieces".into(),
        [one] => format!("`{one}`"),
        many => format!("{} values (`{}`…)", many.len(), many[0]),
    }
}

/// The whole source lines `node` spans (the statement around a call, usually).
fn lines_of(node: Node<'_>, src: &[u8]) -> String {
    let start = src[..node.start_byte().min(src.len())]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let end = src[node.end_byte().min(src.len())..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(src.len(), |i| node.end_byte() + i);
    String::from_utf8_lossy(&src[start..end]).into_owned()
}

/// A function node's name as written (`name` field), or empty.
pub fn name_of(function: Node<'_>, src: &[u8]) -> String {
    function
        .child_by_field_name("name")
        .map(|n| text(n, src).into_owned())
        .unwrap_or_default()
}
