//! The tool schemas and TypeScript types committed under `ts/engine/generated/` are what the Rust
//! query types produce now. `GORTEX_BLESS=1` rewrites them instead of failing.

#[path = "tool_schemas/typescript.rs"]
mod typescript;

use gortex_index::analyze::ANALYZE_KINDS;
use gortex_index::query::schema::{tool_schemas, REGENERATE};
use gortex_index::query::TOOLS;
use serde_json::Value;
use std::path::Path;

const SCHEMAS: &str = "ts/engine/generated/tool-schemas.json";
const TYPES: &str = "ts/engine/generated/query-types.ts";

/// The two generated files and their text.
fn generated() -> [(&'static str, String); 2] {
    let doc = tool_schemas();
    let json = serde_json::to_string_pretty(&doc).expect("a JSON value") + "\n";
    let header = format!(
        "Argument and result types of every query tool and `analyze` kind, generated from the Rust\n\
         query types (`crates/gortex-index/src/query/schema.rs`); do not edit. Run:\n{REGENERATE}"
    );
    [(SCHEMAS, json), (TYPES, typescript::emit(&doc, &header))]
}

#[test]
fn committed_schemas_and_types_match_the_rust_query_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bless = std::env::var("GORTEX_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (path, text) in generated() {
        let file = root.join(path);
        if std::fs::read_to_string(&file).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if bless {
            std::fs::create_dir_all(file.parent().expect("a parent")).expect("create the directory");
            std::fs::write(&file, text).expect("write the generated file");
        } else {
            stale.push(path);
        }
    }
    assert!(
        stale.is_empty(),
        "{} differ from what the Rust query types produce; run `{REGENERATE}` and commit the result",
        stale.join(" and ")
    );
}

#[test]
fn every_tool_and_kind_has_a_self_contained_input_schema() {
    let doc = tool_schemas();
    let tools = doc["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS.iter().map(|t| t.name).collect::<Vec<_>>());
    let kinds: Vec<&str> = doc["analyze_kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = ANALYZE_KINDS.iter().map(|k| k.name).collect();
    expected.extend(["untested", "kinds"]);
    assert_eq!(kinds, expected);
    for row in tools.iter().chain(doc["analyze_kinds"].as_array().unwrap()) {
        let input = &row["input"];
        let name = row.get("name").or(row.get("kind")).unwrap();
        assert_eq!(input["type"], "object", "{name}");
        assert!(
            !input.to_string().contains("\"$ref\""),
            "{name}: the input schema refers outside itself"
        );
        assert!(row["description"].as_str().unwrap().len() > 20, "{name}: describe it");
        // Arguments are refused when unknown (deny_unknown_fields), except analyze's flat object,
        // whose kinds refuse them one by one.
        if name != "analyze" {
            assert_eq!(input["additionalProperties"], false, "{name}");
        }
        // Every argument says what it is for.
        for (arg, schema) in input["properties"].as_object().into_iter().flatten() {
            let described = schema
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.is_empty());
            assert!(
                described,
                "{name}.{arg} has no description (a doc comment on the field)"
            );
        }
    }
}

#[test]
fn outputs_name_types_the_document_defines() {
    let doc = tool_schemas();
    let defs = doc["$defs"].as_object().unwrap();
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    for r in refs {
        let name = r.trim_start_matches("#/$defs/");
        assert!(defs.contains_key(name), "{r} is not defined");
    }
}

fn collect_refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r);
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}
