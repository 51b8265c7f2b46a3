//! Tool tables and the schemas derived from them. Every query tool (and every `analyze` kind) is
//! one row naming its argument and result types; `#[derive(JsonSchema)]` on those types is the
//! only place an argument is described. [`tool_schemas`] turns the tables into the document
//! `ts/engine/generated/tool-schemas.json` holds: per tool its description, its input schema
//! (inlined, as MCP clients want it) and its output schema, plus every named type under `$defs`
//! (the TypeScript types are emitted from those). `tests/tool_schemas.rs` fails when the committed
//! document differs from what these types produce.
//!
//! - **Generated:** [`tool_schemas`] → `ts/engine/generated/tool-schemas.json` (per tool and
//!   kind: description, a self-contained input schema, an output `$ref`; named types under
//!   `$defs`; `analyze`'s input is the flat union of its kinds' arguments) and, by a small emitter
//!   (`tests/tool_schemas/typescript.rs`), `ts/engine/generated/query-types.ts` (a type per
//!   `$defs` entry, `QueryToolMap`, `AnalyzeKindMap`). Regenerate with [`REGENERATE`].
//! - **Drift test:** that test without `GORTEX_BLESS` fails, naming the stale file and the
//!   command, when the committed files differ from what the types produce; it also checks each
//!   input schema is self-contained, refuses unknown keys and describes every argument.
//! - **TypeScript** reads both: `Engine.query<K>`/`analyze<K>` are typed by the maps;
//!   `engineTool(name, category)` (`ts/tools/common.ts`) takes the description and builds the zod
//!   input per property (`z.fromJSONSchema`), so validation, `_ignored_options`, scope narrowing
//!   and MCP `tools/list` treat it like any tool. Adding a Rust-backed tool: a table row plus that
//!   one line.
//! - **Why schemars, not ts-rs:** one derive yields the JSON Schema MCP's `inputSchema` and
//!   argument validation need anyway; TypeScript types are a short walk over it. Strings Rust
//!   parses itself (for its error messages) state their values for the schema:
//!   `#[schemars(with = "Option<Origin>")]` on `min_tier`, `#[schemars(extend("enum" = […]))]` on
//!   `direction`, `scope`, ….

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{json, Map, Value};

/// How to regenerate the committed schema files (quoted in their headers and in the drift test).
pub const REGENERATE: &str = "GORTEX_BLESS=1 cargo test -p gortex-index --test tool_schemas";

/// Adds a type's schema to a generator and returns its reference.
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// One row of a tool table: a query tool or an `analyze` kind.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    pub name: &'static str,
    /// What an agent reads to decide whether to call it.
    pub description: &'static str,
    /// The arguments (a `deny_unknown_fields` struct, read under the deserialize contract).
    pub args: SchemaFn,
    /// The answer (read under the serialize contract).
    pub result: SchemaFn,
}

/// The schema function of `T`.
pub fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// Declares a tool table and its typed runner in one list, so the schema of a row and the types
/// its runner parses and answers cannot differ. Each row is
/// `name(Args) -> Result, "description", |args| expression giving Result<Result, QueryError>;`.
macro_rules! tool_table {
    (
        $(#[$table_meta:meta])*
        $vis:vis const $table:ident;
        $(#[$run_meta:meta])*
        fn $run:ident(&$self:ident, $graph:ident);
        $( $name:ident($args:ty) -> $result:ty, $description:literal, |$a:ident| $body:expr; )+
    ) => {
        $(#[$table_meta])*
        $vis const $table: &[$crate::query::schema::ToolSpec] = &[$(
            $crate::query::schema::ToolSpec {
                name: stringify!($name),
                description: $description,
                args: $crate::query::schema::schema_of::<$args>,
                result: $crate::query::schema::schema_of::<$result>,
            },
        )+];

        impl $crate::RepoIndex {
            $(#[$run_meta])*
            fn $run(
                &$self,
                name: &str,
                label: &str,
                args: serde_json::Value,
            ) -> Option<Result<serde_json::Value, gortex_core::QueryError>> {
                #[allow(unused_variables)]
                let $graph: &gortex_graph::Graph = &$self.graph;
                Some(match name {
                    $(stringify!($name) => (|| -> Result<serde_json::Value, gortex_core::QueryError> {
                        let $a: $args = $crate::query::parse(label, args)?;
                        let answer: Result<$result, gortex_core::QueryError> = $body;
                        $crate::query::out(answer)
                    })(),)+
                    _ => return None,
                })
            }
        }
    };
}
pub(crate) use tool_table;

/// The settings both generators share: draft 2020-12 without a `$schema` keyword per schema.
fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| s.meta_schema = None)
}

/// The schema document of every query tool and `analyze` kind (see the module comment).
pub fn tool_schemas() -> Value {
    let mut args = settings().for_deserialize().into_generator();
    let mut results = settings().for_serialize().into_generator();
    let mut rows = |table: &[ToolSpec], key: &str| -> Vec<Value> {
        table
            .iter()
            .map(|spec| {
                let reference = (spec.args)(&mut args);
                let output = (spec.result)(&mut results);
                let mut input = inline(reference.as_value(), args.definitions(), &mut Vec::new());
                optional_without_null(&mut input);
                compact_enums(&mut input);
                drop_defaults(&mut input);
                if let Some(name) = reference.get("$ref").and_then(Value::as_str) {
                    input["title"] = json!(name.trim_start_matches("#/$defs/"));
                }
                json!({ key: spec.name, "description": spec.description, "input": input, "output": output })
            })
            .collect()
    };
    let tools = rows(crate::query::TOOLS, "name");
    let mut kinds = rows(crate::analyze::ANALYZE_KINDS, "kind");
    for (alias, target) in crate::analyze::ANALYZE_ALIASES {
        let mut row = kinds
            .iter()
            .find(|k| k["kind"] == *target)
            .unwrap_or_else(|| panic!("alias {alias} names no kind {target}"))
            .clone();
        row["kind"] = json!(alias);
        row["alias_of"] = json!(target);
        kinds.push(row);
    }
    kinds.extend(rows(&[crate::analyze::ANALYZE_LISTING], "kind"));

    let mut defs = args.take_definitions(true);
    for schema in defs.values_mut() {
        optional_without_null(schema);
    }
    for (name, mut schema) in results.take_definitions(true) {
        // A result field serialised only when set (`skip_serializing_if`) is never null either.
        optional_without_null(&mut schema);
        match defs.get(&name) {
            Some(existing) if *existing != schema => panic!(
                "type {name} has one schema as an argument and another as a result; give one of them \
                 #[schemars(rename = \"…\")]"
            ),
            _ => {
                defs.insert(name, schema);
            }
        }
    }
    let mut doc = json!({
        "$comment": format!("Generated from the Rust query types; do not edit. Run: {REGENERATE}"),
        "tools": tools,
        "analyze_kinds": kinds,
        "search_ast_detectors": crate::search_ast::detectors(),
        "$defs": defs,
    });
    plain_descriptions(&mut doc);
    doc
}

/// `schema` with every `$ref` replaced by the definition it names (MCP clients read a tool's
/// input schema on its own).
fn inline(schema: &Value, defs: &Map<String, Value>, stack: &mut Vec<String>) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let name = reference.trim_start_matches("#/$defs/").to_string();
                assert!(
                    !stack.contains(&name),
                    "argument type {name} is recursive; an input schema cannot be inlined"
                );
                let target = defs
                    .get(&name)
                    .unwrap_or_else(|| panic!("no definition for {reference}"));
                stack.push(name.clone());
                let mut resolved = inline(target, defs, stack);
                stack.pop();
                if let Value::Object(resolved) = &mut resolved {
                    // Keywords beside the reference (a field's own description) win.
                    for (k, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                        resolved.insert(k.clone(), inline(v, defs, stack));
                    }
                }
                resolved
            } else {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), inline(v, defs, stack))).collect())
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline(v, defs, stack)).collect()),
        other => other.clone(),
    }
}

/// A property that is not required is simply left out, never null: serde reads a missing argument
/// `Option` as `None`, and results skip `None` fields (`skip_serializing_if`) rather than write
/// null. So such a property loses its `null` type (and an argument its `default: null`).
fn optional_without_null(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if !required.contains(name) {
                drop_null(property);
            }
        }
    }
    for value in map.values_mut() {
        match value {
            Value::Object(_) => optional_without_null(value),
            Value::Array(items) => items.iter_mut().for_each(optional_without_null),
            _ => {}
        }
    }
}

/// Turns a `oneOf` of documented string constants (an enum whose variants carry doc comments)
/// into a plain `enum`: an input schema lists the values, the field's description says the rest.
fn compact_enums(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let constants: Option<Vec<Value>> = map.get("oneOf").and_then(Value::as_array).and_then(|options| {
                options
                    .iter()
                    .map(|o| o.get("const").filter(|c| c.is_string()).cloned())
                    .collect()
            });
            if let Some(constants) = constants {
                map.remove("oneOf");
                map.insert("type".into(), json!("string"));
                map.insert("enum".into(), Value::Array(constants));
            }
            map.values_mut().for_each(compact_enums);
        }
        Value::Array(items) => items.iter_mut().for_each(compact_enums),
        _ => {}
    }
}

/// Removes `default` keywords from an input schema: the engine applies its defaults (the field
/// descriptions state them), and a validator that filled them in would pass arguments the caller
/// never gave (one `analyze` kind's default is another kind's unknown argument).
fn drop_defaults(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            map.remove("default");
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    // The property map itself may name an argument `default`.
                    ("properties", Value::Object(properties)) => properties.values_mut().for_each(drop_defaults),
                    (_, value) => drop_defaults(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_defaults),
        _ => {}
    }
}

/// Descriptions as agents read them: rustdoc links lose their brackets (`` [`X`] `` → `` `X` ``)
/// and soft line breaks become spaces (a blank line stays a paragraph break).
fn plain_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(text) if key == "description" => *text = plain(text),
                    _ => plain_descriptions(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

fn plain(text: &str) -> String {
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| p.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        .collect();
    paragraphs.join("\n\n").replace("[`", "`").replace("`]", "`")
}

/// Removes `null` from a property's accepted types.
fn drop_null(property: &mut Value) {
    let Value::Object(map) = property else { return };
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let kept = if kept.len() == 1 {
            kept[0].clone()
        } else {
            Value::Array(kept)
        };
        map.insert("type".into(), kept);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = map.get_mut(key) {
            options.retain(|o| o.get("type") != Some(&json!("null")));
            if options.len() == 1 {
                let only = options.pop().expect("one option");
                map.remove(key);
                if let Value::Object(only) = only {
                    for (k, v) in only {
                        map.entry(k).or_insert(v);
                    }
                }
            }
        }
    }
    if map.get("enum").is_some_and(Value::is_array) {
        if let Some(Value::Array(values)) = map.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    }
}

/// The flat argument object of a dispatcher over `kinds` (`analyze`): `kind` (the kind names,
/// then `extra` names such as aliases) plus every property any kind takes. A property several
/// kinds take keeps one schema (an `anyOf` when they differ) and says which kind reads it how,
/// unless `shared` describes it once for all.
pub fn dispatcher_args(
    generator: &mut SchemaGenerator,
    kinds: &[ToolSpec],
    extra: &[&str],
    shared: &[(&str, &str)],
) -> Schema {
    let mut properties: Vec<(String, Vec<(&str, Value)>)> = Vec::new();
    for spec in kinds {
        let reference = (spec.args)(generator);
        let name = reference
            .get("$ref")
            .and_then(Value::as_str)
            .map(|r| r.trim_start_matches("#/$defs/").to_string())
            .unwrap_or_else(|| panic!("{}: arguments must be a named struct", spec.name));
        let def = generator.definitions()[&name].clone();
        for (property, schema) in def.get("properties").and_then(Value::as_object).into_iter().flatten() {
            // Every property of the flat object is optional (only `kind` is required).
            let mut schema = schema.clone();
            drop_null(&mut schema);
            match properties.iter_mut().find(|(p, _)| p == property) {
                Some((_, users)) => users.push((spec.name, schema)),
                None => properties.push((property.clone(), vec![(spec.name, schema)])),
            }
        }
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.name).chain(extra.iter().copied()).collect();
    let mut flat = Map::new();
    flat.insert(
        "kind".into(),
        json!({ "type": "string", "enum": names, "description": "The analysis to run (`kinds` lists them with their descriptions)" }),
    );
    for (property, users) in properties {
        let mut distinct: Vec<Value> = Vec::new();
        let mut described: Vec<(String, Vec<&str>)> = Vec::new();
        for (kind, schema) in &users {
            let mut bare = schema.clone();
            let text = bare
                .as_object_mut()
                .and_then(|m| m.remove("description"))
                .and_then(|d| d.as_str().map(str::to_string));
            if !distinct.contains(&bare) {
                distinct.push(bare);
            }
            let text = text.unwrap_or_default();
            match described.iter_mut().find(|(t, _)| *t == text) {
                Some((_, kinds)) => kinds.push(kind),
                None => described.push((text, vec![kind])),
            }
        }
        let mut schema = if distinct.len() == 1 {
            distinct.pop().expect("one schema")
        } else {
            json!({ "anyOf": distinct })
        };
        let description = if let Some((_, text)) = shared.iter().find(|(p, _)| *p == property) {
            text.to_string()
        } else {
            described
                .iter()
                .map(|(text, kinds)| match text.as_str() {
                    "" => kinds.join(", "),
                    _ => format!("{}: {}", kinds.join(", "), lower_first(text)),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        if let Value::Object(map) = &mut schema {
            if !description.is_empty() {
                map.insert("description".into(), json!(description));
            }
        }
        flat.insert(property, schema);
    }
    Schema::from(
        json!({ "type": "object", "properties": flat, "required": ["kind"] })
            .as_object()
            .cloned()
            .expect("object"),
    )
}

/// `text` with its first letter lowered when it starts a sentence (`Only …` → `only …`), so it
/// reads on after a `kind:` prefix.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => {
            first.to_lowercase().chain(text.chars().skip(1)).collect()
        }
        _ => text.to_string(),
    }
}

/// A result that is one of the `kinds`' results (`analyze`).
pub fn dispatcher_result(generator: &mut SchemaGenerator, kinds: &[ToolSpec], extra: &[SchemaFn]) -> Schema {
    let mut options: Vec<Value> = Vec::new();
    for schema in kinds.iter().map(|k| k.result).chain(extra.iter().copied()) {
        let schema = schema(generator).to_value();
        if !options.contains(&schema) {
            options.push(schema);
        }
    }
    Schema::from(json!({ "anyOf": options }).as_object().cloned().expect("object"))
}
