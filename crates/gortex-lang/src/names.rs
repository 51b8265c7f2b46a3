//! Naming rules shared by the graph extractors and the dataflow extractors (`gortex-dataflow`):
//! both must name the same syntax the same way, or dataflow facts would not match graph nodes.

use crate::util;
use tree_sitter::Node;

/// Go's predeclared types: `T(x)` with one of them is a conversion, and they are never refs.
pub fn go_builtin_type(name: &str) -> bool {
    matches!(
        name,
        "bool"
            | "byte"
            | "complex64"
            | "complex128"
            | "error"
            | "float32"
            | "float64"
            | "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "rune"
            | "string"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "uintptr"
            | "any"
            | "comparable"
    )
}

/// An ECMAScript string literal's contents without quotes.
pub fn js_string_value(node: Node<'_>, src: &[u8]) -> String {
    let t = util::text(node, src);
    let t = t.trim();
    let t = t.strip_prefix(['\'', '"', '`']).unwrap_or(t);
    let t = t.strip_suffix(['\'', '"', '`']).unwrap_or(t);
    t.to_string()
}

/// An ECMAScript member/property name as the graph names it: `#x` → `x`, `'a-b'` → `a-b`;
/// computed names have none.
pub fn js_member_name(node: Node<'_>, src: &[u8]) -> Option<String> {
    match node.kind() {
        "property_identifier" | "identifier" | "type_identifier" | "number" => Some(util::text(node, src).into_owned()),
        "private_property_identifier" => Some(util::text(node, src).trim_start_matches('#').to_string()),
        "string" => Some(js_string_value(node, src)),
        _ => None,
    }
}
