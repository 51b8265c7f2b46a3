//! Syntax facts the refactoring tools need and the graph does not keep: a function's shape for
//! inlining (its parameters, its one expression, where each parameter and each free name occurs,
//! what in it would change meaning when copied), the call expressions of a name with their
//! arguments, and a file's import statements with the names they bind and whether each is used.
//! Byte offsets are those of the source given; `ts/tools/refactor.ts`, `move.ts`, `inline.ts` and
//! `imports.ts` edit with them. Walks are iterative (trees can nest thousands of levels). One file
//! per fact: `imports.rs`, `inline.rs` (a callable's shape), `calls.rs` (call sites).

mod calls;
mod imports;
mod inline;

use crate::{extractor_for, parse, refine_language, ExtractError, DEFAULT_PARSE_BUDGET};
use gortex_core::Language;
use serde_json::{json, Value};
use std::collections::HashSet;
use tree_sitter::{Node, Tree};

/// The language families the refactoring facts cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Ecma,
    Python,
    Go,
    Java,
    Rust,
}

fn family(language: Language) -> Option<Family> {
    match language {
        Language::TypeScript | Language::Tsx | Language::JavaScript => Some(Family::Ecma),
        Language::Python => Some(Family::Python),
        Language::Go => Some(Family::Go),
        Language::Java => Some(Family::Java),
        Language::Rust => Some(Family::Rust),
        _ => None,
    }
}

/// Why the facts could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum RefactorError {
    #[error("{0} has no refactoring support (TypeScript/JavaScript, Python, Go, Java and Rust do)")]
    Unsupported(String),
    #[error(transparent)]
    Extract(#[from] ExtractError),
}

struct Parsed<'s> {
    family: Family,
    tree: Tree,
    source: &'s [u8],
}

fn parse_for<'s>(path: &str, source: &'s [u8]) -> Result<Parsed<'s>, RefactorError> {
    let language = Language::from_path(path)
        .map(|l| refine_language(l, path, source))
        .ok_or_else(|| RefactorError::Unsupported(path.to_string()))?;
    let family = family(language).ok_or_else(|| RefactorError::Unsupported(path.to_string()))?;
    extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    let budget = crate::budget::time_budget(source.len(), DEFAULT_PARSE_BUDGET);
    let tree = parse(language, source, budget)?;
    Ok(Parsed { family, tree, source })
}

use crate::util::descendants;

fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// Named children that are not comments.
fn code_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

fn is_field(node: Node<'_>, field: &str) -> bool {
    node.parent()
        .and_then(|p| p.child_by_field_name(field))
        .is_some_and(|c| c.id() == node.id())
}

/// The name `node` references (a value, type or module), or `None` for property and field names,
/// keyword-argument names and composite-literal keys.
fn reference_name<'s>(family: Family, node: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    let kind = node.kind();
    let parent = node.parent();
    let pkind = parent.map(|p| p.kind()).unwrap_or("");
    let ok = match family {
        Family::Ecma => matches!(kind, "identifier" | "shorthand_property_identifier" | "type_identifier"),
        Family::Python => {
            kind == "identifier"
                && !(pkind == "attribute" && is_field(node, "attribute"))
                && !(pkind == "keyword_argument" && is_field(node, "name"))
        }
        Family::Go => {
            matches!(kind, "identifier" | "type_identifier" | "package_identifier")
                && !(pkind == "literal_element"
                    && parent
                        .is_some_and(|p| p.parent().is_some_and(|g| g.kind() == "keyed_element") && is_field(p, "key")))
        }
        Family::Java => {
            matches!(kind, "identifier" | "type_identifier")
                && !(pkind == "field_access" && is_field(node, "field"))
                && !(pkind == "method_invocation" && is_field(node, "name"))
        }
        Family::Rust => {
            matches!(kind, "identifier" | "type_identifier")
                && !(matches!(pkind, "scoped_identifier" | "scoped_type_identifier") && is_field(node, "name"))
                && !(pkind == "field_expression" && is_field(node, "field"))
        }
    };
    ok.then(|| text(node, source))
}

/// Whether an identifier token names a member (`o.name`, a key `name: v`, `f(name=v)`) rather
/// than a binding in scope.
fn is_member_name(family: Family, node: Node<'_>) -> bool {
    let kind = node.kind();
    if matches!(
        kind,
        "property_identifier" | "field_identifier" | "private_property_identifier"
    ) {
        return true;
    }
    let pkind = node.parent().map(|p| p.kind()).unwrap_or("");
    match family {
        Family::Python => {
            (pkind == "attribute" && is_field(node, "attribute"))
                || (pkind == "keyword_argument" && is_field(node, "name"))
        }
        Family::Java => {
            (pkind == "field_access" && is_field(node, "field"))
                || (pkind == "method_invocation"
                    && is_field(node, "name")
                    && node.parent().and_then(|p| p.child_by_field_name("object")).is_some())
        }
        Family::Go => pkind == "literal_element" && node.parent().is_some_and(|p| is_field(p, "key")),
        Family::Rust => pkind == "field_expression" && is_field(node, "field"),
        Family::Ecma => false,
    }
}

/// The refactoring facts `op` asks for about `source` read as the file at `path`, as JSON:
/// `imports` → import statements with their bindings (`used`: the local name is referenced
/// outside the imports); `callable` (`line`) → the function declared there, its parameters, its
/// single expression with parameter occurrences, free names and calls (offsets relative to the
/// expression), or `{refusal}` saying why it cannot be inlined; `calls` (`name`) → the calls of
/// that name with their arguments; `names` (`start`, `end` bytes) → the names referenced there.
pub fn refactor_facts(path: &str, source: &[u8], op: &str, args: &Value) -> Result<Value, RefactorError> {
    let p = parse_for(path, source)?;
    Ok(match op {
        "imports" => Value::Array(imports::import_facts(&p)),
        "callable" => {
            let line = args.get("line").and_then(Value::as_u64).unwrap_or(0) as usize;
            match inline::callable_facts(&p, line) {
                Ok(v) => v,
                Err(reason) => json!({ "refusal": reason }),
            }
        }
        "calls" => Value::Array(calls::call_sites(
            &p,
            args.get("name").and_then(Value::as_str).unwrap_or(""),
        )),
        "names" => {
            let start = args.get("start").and_then(Value::as_u64).unwrap_or(0) as usize;
            let end = args
                .get("end")
                .and_then(Value::as_u64)
                .map(|e| e as usize)
                .unwrap_or(source.len());
            let root = p.tree.root_node();
            let node = root.descendant_for_byte_range(start, end.max(start)).unwrap_or(root);
            // The smallest node covering the range may be wider: filter names to the range.
            let mut seen = HashSet::new();
            let names: Vec<String> = descendants(node)
                .into_iter()
                .filter(|n| n.start_byte() >= start && n.end_byte() <= end)
                .filter_map(|n| reference_name(p.family, n, source))
                .filter(|n| seen.insert(*n))
                .map(str::to_string)
                .collect();
            json!(names)
        }
        "identifiers" => {
            let name = args.get("name").and_then(Value::as_str).unwrap_or("");
            let rows: Vec<Value> = descendants(p.tree.root_node())
                .into_iter()
                .filter(|n| n.child_count() == 0 && n.kind().ends_with("identifier") && text(*n, source) == name)
                .map(|n| {
                    let line_start = source[..n.start_byte()]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    let before = String::from_utf8_lossy(&source[line_start..n.start_byte()]);
                    json!({
                        "line": n.start_position().row + 1,
                        "column": before.encode_utf16().count(),
                        "kind": n.kind(),
                        "member": is_member_name(p.family, n),
                    })
                })
                .collect();
            Value::Array(rows)
        }
        other => return Err(RefactorError::Unsupported(format!("refactor fact {other:?}"))),
    })
}
