//! TypeScript types from the tool schema document: one declaration per `$defs` entry, then the
//! tool and `analyze` kind maps `Engine.query` / `Engine.analyze` are typed with. Handles the
//! JSON Schema subset schemars derives from serde types: objects (required → plain, otherwise
//! `?`), maps, arrays, tuples, string/number/boolean/null, `enum`/`const` literals, `oneOf`/`anyOf`
//! unions (an object part beside them — a flattened enum — becomes an intersection), `allOf`
//! intersections and `$ref`s by name. Output is deterministic: definitions in name order.

use serde_json::{Map, Value};
use std::fmt::Write;

/// The whole `query-types.ts` for `doc`, under `header` (a comment saying how to regenerate).
pub fn emit(doc: &Value, header: &str) -> String {
    let mut out = String::new();
    out.push_str(&comment(header, ""));
    out.push('\n');
    if let Some(Value::Object(defs)) = doc.get("$defs") {
        for (name, schema) in defs {
            out.push_str(&declaration(name, schema));
            out.push('\n');
        }
    }
    out.push_str(&maps(doc));
    out
}

/// `export interface Name {…}` for a plain object, else `export type Name = …;`.
fn declaration(name: &str, schema: &Value) -> String {
    let mut out = comment(description(schema).unwrap_or(""), "");
    if is_plain_object(schema) {
        let _ = writeln!(out, "export interface {name} {}", object_body(schema, ""));
    } else {
        let _ = writeln!(out, "export type {name} = {};", ts(schema, ""));
    }
    out
}

/// The tool map, and the `analyze` kind map with the `analyze` argument/result types over it.
fn maps(doc: &Value) -> String {
    let rows = |key: &str, name: &str| -> Vec<(String, String, String)> {
        doc.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|row| {
                let name = row[name].as_str().expect("row name").to_string();
                (name, type_name(&row["input"]), type_name(&row["output"]))
            })
            .collect()
    };
    let mut out = String::new();
    out.push_str(
        "/** Every query tool `Engine.query` runs, with its argument and result types, in the dispatcher's order. */\n",
    );
    out.push_str("export interface QueryToolMap {\n");
    for (name, args, result) in rows("tools", "name") {
        let _ = writeln!(out, "  {name}: {{ args: {args}; result: {result} }};");
    }
    out.push_str(
        "}\n\n/** Name of a query tool `Engine.query` runs. */\nexport type QueryToolName = keyof QueryToolMap;\n",
    );
    let kinds = rows("analyze_kinds", "kind");
    if kinds.is_empty() {
        return out;
    }
    out.push_str("\n/** Every `analyze` kind (aliases and `kinds` included), with its argument and result types. */\n");
    out.push_str("export interface AnalyzeKindMap {\n");
    for (kind, args, result) in &kinds {
        let _ = writeln!(out, "  {kind}: {{ args: {args}; result: {result} }};");
    }
    out.push_str("}\n\n/** Name of an `analyze` kind. */\nexport type AnalyzeKind = keyof AnalyzeKindMap;\n");
    out.push_str("\n/** Arguments of `analyze`: `kind` plus that kind's own arguments. */\n");
    out.push_str(
        "export type AnalyzeArgs = { [K in AnalyzeKind]: { kind: K } & AnalyzeKindMap[K]['args'] }[AnalyzeKind];\n",
    );
    out.push_str("\n/** The answer of `analyze`: the answer of the kind that ran. */\n");
    out.push_str("export type AnalyzeResult = AnalyzeKindMap[AnalyzeKind]['result'];\n");
    out
}

/// The name a tool row's input or output goes by: its `$ref` target or `title`, else the type itself.
fn type_name(schema: &Value) -> String {
    if let Some(name) = reference(schema) {
        return name.to_string();
    }
    match schema.get("title").and_then(Value::as_str) {
        Some(title) => title.to_string(),
        None => ts(schema, "  "),
    }
}

fn reference(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(|r| r.trim_start_matches("#/$defs/"))
}

fn description(schema: &Value) -> Option<&str> {
    schema.get("description").and_then(Value::as_str)
}

/// An object with properties and nothing that makes it a union or a map.
fn is_plain_object(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else { return false };
    map.get("type") == Some(&Value::from("object"))
        && !["oneOf", "anyOf", "allOf", "$ref", "patternProperties"]
            .iter()
            .any(|k| map.contains_key(*k))
        && !map.get("additionalProperties").is_some_and(Value::is_object)
}

/// The TypeScript type of `schema`; `indent` is the indentation of the line it starts on.
fn ts(schema: &Value, indent: &str) -> String {
    let map = match schema {
        Value::Bool(true) => return "unknown".into(),
        Value::Bool(false) => return "never".into(),
        Value::Object(map) => map,
        _ => panic!("not a schema: {schema}"),
    };
    if let Some(name) = reference(schema) {
        return name.to_string();
    }
    if let Some(constant) = map.get("const") {
        return literal(constant);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return values.iter().map(literal).collect::<Vec<_>>().join(" | ");
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(options)) = map.get(key) {
            let union = union(options.iter().map(|o| ts(o, indent)));
            return match object_part(map) {
                Some(object) => format!("{} & ({union})", ts(&object, indent)),
                None => union,
            };
        }
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        return parts
            .iter()
            .map(|p| wrap(&ts(p, indent)))
            .collect::<Vec<_>>()
            .join(" & ");
    }
    match map.get("type") {
        Some(Value::Array(types)) => union(types.iter().map(|t| {
            let mut one = map.clone();
            one.insert("type".into(), t.clone());
            ts(&Value::Object(one), indent)
        })),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".into(),
            "integer" | "number" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => array(map, indent),
            "object" => object(map, indent),
            other => panic!("unknown JSON Schema type {other}"),
        },
        _ => "unknown".into(),
    }
}

/// The object keywords beside a `oneOf`/`anyOf` (a struct with a flattened enum), if any.
fn object_part(map: &Map<String, Value>) -> Option<Value> {
    map.get("properties")?;
    let keep = ["type", "properties", "required", "additionalProperties"];
    let part: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| keep.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Value::Object(part))
}

fn union(members: impl Iterator<Item = String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for member in members {
        if !seen.contains(&member) {
            seen.push(member);
        }
    }
    seen.join(" | ")
}

/// `text` parenthesised when it is a union or an intersection (before `[]` or `&`).
fn wrap(text: &str) -> String {
    if (text.contains(" | ") || text.contains(" & ")) && !text.starts_with('{') {
        format!("({text})")
    } else {
        text.to_string()
    }
}

fn array(map: &Map<String, Value>, indent: &str) -> String {
    if let Some(Value::Array(items)) = map.get("prefixItems") {
        return format!(
            "[{}]",
            items.iter().map(|i| ts(i, indent)).collect::<Vec<_>>().join(", ")
        );
    }
    match map.get("items") {
        Some(items) => format!("{}[]", wrap(&ts(items, indent))),
        None => "unknown[]".into(),
    }
}

fn object(map: &Map<String, Value>, indent: &str) -> String {
    // A map: its values' schema, or (integer keys) the schemas of its key patterns.
    let values = match (map.get("additionalProperties"), map.get("patternProperties")) {
        (Some(v @ Value::Object(_)), _) => Some(format!("Record<string, {}>", ts(v, indent))),
        (_, Some(Value::Object(patterns))) => Some(format!(
            "Record<string, {}>",
            union(patterns.values().map(|v| ts(v, indent)))
        )),
        _ => None,
    };
    match (map.contains_key("properties"), values) {
        (true, Some(values)) => format!("{} & {values}", object_body(&Value::Object(map.clone()), indent)),
        (true, None) => object_body(&Value::Object(map.clone()), indent),
        (false, Some(values)) => values,
        (false, None) => "Record<string, unknown>".into(),
    }
}

/// `{ field: Type; … }` with each field's description, one field per line.
fn object_body(schema: &Value, indent: &str) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return "{}".into();
    };
    if properties.is_empty() {
        return "{}".into();
    }
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (name, property) in properties {
        out.push_str(&comment(description(property).unwrap_or(""), &inner));
        let optional = if required.contains(&name.as_str()) { "" } else { "?" };
        let _ = writeln!(out, "{inner}{}{optional}: {};", key(name), ts(property, &inner));
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// A property name, quoted unless it is an identifier.
fn key(name: &str) -> String {
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        name.to_string()
    } else {
        literal(&Value::from(name))
    }
}

/// A JSON value as a TypeScript literal type (strings single-quoted).
fn literal(value: &Value) -> String {
    match value {
        Value::String(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        other => other.to_string(),
    }
}

/// A JSDoc comment at `indent` (nothing for an empty text).
fn comment(text: &str, indent: &str) -> String {
    let text = text.trim().replace("*/", "*\\/");
    if text.is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 {
        return format!("{indent}/** {} */\n", lines[0]);
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        let _ = writeln!(out, "{indent} *{}{line}", if line.is_empty() { "" } else { " " });
    }
    let _ = writeln!(out, "{indent} */");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_unions_maps_and_literals() {
        let doc = json!({ "$defs": {
            "Row": {
                "type": "object",
                "description": "A row.",
                "properties": {
                    "id": { "type": "string", "description": "Its id." },
                    "tier": { "$ref": "#/$defs/Tier" },
                    "lines": { "type": "array", "items": { "type": ["integer", "null"] } },
                    "by_kind": { "type": "object", "additionalProperties": { "type": "integer" } },
                    "by_depth": { "type": "object", "patternProperties": { "^\\d+$": { "type": "integer" } } },
                    "pair": { "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }] },
                    "extra": true,
                    "o'k": { "const": "it's" }
                },
                "required": ["id", "lines"]
            },
            "Tier": { "oneOf": [{ "const": "a", "description": "A." }, { "enum": ["b", "c"] }] },
            "Tagged": {
                "type": "object",
                "properties": { "score": { "type": "number" } },
                "required": ["score"],
                "oneOf": [{ "type": "object", "properties": { "name": { "const": "x" } }, "required": ["name"] }]
            }
        }});
        let out = emit(&doc, "Generated.");
        let expected = "/** Generated. */\n\n\
/** A row. */\n\
export interface Row {\n\
\x20 by_depth?: Record<string, number>;\n\
\x20 by_kind?: Record<string, number>;\n\
\x20 extra?: unknown;\n\
\x20 /** Its id. */\n\
\x20 id: string;\n\
\x20 lines: (number | null)[];\n\
\x20 'o\\'k'?: 'it\\'s';\n\
\x20 pair?: [string, number];\n\
\x20 tier?: Tier;\n\
}\n\n\
export type Tagged = {\n\
\x20 score: number;\n\
} & ({\n\
\x20 name: 'x';\n\
});\n\n\
export type Tier = 'a' | 'b' | 'c';\n\n";
        assert!(out.starts_with(expected), "{out}");
        assert!(out.contains("export interface QueryToolMap {\n}"), "{out}");
    }

    #[test]
    fn tool_and_kind_maps_name_their_types() {
        let doc = json!({
            "tools": [
                { "name": "get", "input": { "title": "GetArgs", "type": "object" }, "output": { "$ref": "#/$defs/GetResult" } },
                { "name": "analyze", "input": { "title": "AnalyzeArgs" }, "output": { "title": "AnalyzeResult" } }
            ],
            "analyze_kinds": [
                { "kind": "todos", "input": { "title": "TodosArgs" }, "output": { "$ref": "#/$defs/TodosResult" } }
            ]
        });
        let out = emit(&doc, "x");
        assert!(out.contains("  get: { args: GetArgs; result: GetResult };\n  analyze: { args: AnalyzeArgs; result: AnalyzeResult };\n"), "{out}");
        assert!(
            out.contains("  todos: { args: TodosArgs; result: TodosResult };\n"),
            "{out}"
        );
        assert!(out.contains("export type AnalyzeArgs = { [K in AnalyzeKind]: { kind: K } & AnalyzeKindMap[K]['args'] }[AnalyzeKind];"), "{out}");
    }
}
