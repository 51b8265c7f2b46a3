//! The refactoring facts on small sources per language: a callable's shape and the refusals,
//! call sites with their arguments, import statements with their bindings and use.

use gortex_lang::refactor::refactor_facts;
use serde_json::{json, Value};

fn facts(path: &str, src: &str, op: &str, args: Value) -> Value {
    refactor_facts(path, src.as_bytes(), op, &args).unwrap()
}

fn callable(path: &str, src: &str, line: u64) -> Value {
    facts(path, src, "callable", json!({ "line": line }))
}

fn refusal(path: &str, src: &str, line: u64) -> String {
    let v = callable(path, src, line);
    v["refusal"]
        .as_str()
        .unwrap_or_else(|| panic!("expected a refusal, got {v}"))
        .to_string()
}

#[test]
fn typescript_callable_and_calls() {
    let src = "import { scale } from './m';\nimport * as fs from 'fs';\nexport function area(w: number, h: number): number {\n  return scale * w * h;\n}\nconst twice = (x: number) => x + x;\nconst o = area(2, 3) + twice(g());\n";
    let f = callable("a.ts", src, 3);
    assert_eq!(f["name"], "area");
    assert_eq!(f["expr"], "scale * w * h");
    assert_eq!(f["params"].as_array().unwrap().len(), 2);
    assert_eq!(f["occurrences"].as_array().unwrap().len(), 2);
    assert_eq!(f["free"][0]["name"], "scale");
    assert_eq!(f["returns_value"], true);
    let t = callable("a.ts", src, 6);
    assert_eq!(t["name"], "twice");
    assert_eq!(t["occurrences"].as_array().unwrap().len(), 2);
    let calls = facts("a.ts", src, "calls", json!({ "name": "twice" }));
    assert_eq!(calls[0]["args"][0]["text"], "g()");
    assert_eq!(calls[0]["args"][0]["pure"], false);
    let imports = facts("a.ts", src, "imports", json!({}));
    assert_eq!(imports[0]["module"], "./m");
    assert_eq!(imports[0]["bindings"][0]["local"], "scale");
    assert_eq!(imports[0]["bindings"][0]["used"], true);
    assert_eq!(imports[1]["kind"], "namespace");
    assert_eq!(imports[1]["bindings"][0]["used"], false);
}

#[test]
fn typescript_refusals() {
    assert!(refusal("a.ts", "function f(a) { a++; return a; }\n", 1).contains("2 statements"));
    assert!(refusal("a.ts", "function f(a) { return this.x + a; }\n", 1).contains("this"));
    assert!(refusal("a.ts", "async function f(a) { return a; }\n", 1).contains("async"));
    assert!(refusal("a.ts", "function f(a = 1) { return a; }\n", 1).contains("default"));
    assert!(refusal("a.ts", "function f(a) { return [1].map((a) => a); }\n", 1).contains("rebinds"));
    assert!(refusal("a.ts", "class C {\n  m(a) { return a; }\n}\n", 2).contains("method"));
}

#[test]
fn python_callable_calls_imports() {
    let src = "import os.path\nfrom .util import clamp as c, other\n\ndef norm(p, base):\n    \"\"\"Doc.\"\"\"\n    return os.path.join(base, p)\n\nx = norm('a', base=root)\n";
    let f = callable("m.py", src, 4);
    assert_eq!(f["expr"], "os.path.join(base, p)");
    assert_eq!(f["occurrences"].as_array().unwrap().len(), 2);
    assert_eq!(f["free"][0]["name"], "os");
    let calls = facts("m.py", src, "calls", json!({ "name": "norm" }));
    assert_eq!(calls[0]["args"][1]["keyword"], "base");
    assert_eq!(calls[0]["args"][1]["text"], "root");
    let imports = facts("m.py", src, "imports", json!({}));
    assert_eq!(imports[0]["bindings"][0]["local"], "os");
    assert_eq!(imports[0]["bindings"][0]["used"], true);
    assert_eq!(imports[1]["module"], ".util");
    assert_eq!(imports[1]["bindings"][0]["local"], "c");
    assert_eq!(imports[1]["bindings"][0]["imported"], "clamp");
    assert_eq!(imports[1]["bindings"][1]["used"], false);
    assert!(refusal("m.py", "def f(a, b=1):\n    return a\n", 1).contains("default"));
    assert!(refusal("m.py", "class K:\n    def f(self):\n        return 1\n", 2).contains("method"));
    assert!(refusal("m.py", "def f(a):\n    x = a\n    return x\n", 1).contains("2 statements"));
}

#[test]
fn go_callable_calls_imports() {
    let src = "package p\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\nfunc label(n int, s string) string {\n\treturn fmt.Sprintf(\"%d\", n) + s\n}\n\nfunc use() { _ = label(1, \"x\") }\n";
    let f = callable("p.go", src, 8);
    assert_eq!(f["expr"], "fmt.Sprintf(\"%d\", n) + s");
    assert_eq!(f["params"][0]["type"], "int");
    assert_eq!(f["return_type"], "string");
    assert_eq!(f["free"][0]["name"], "fmt");
    let calls = facts("p.go", src, "calls", json!({ "name": "label" }));
    assert_eq!(calls[0]["args"].as_array().unwrap().len(), 2);
    assert_eq!(calls[0]["args"][0]["literal"], true);
    let imports = facts("p.go", src, "imports", json!({}));
    assert_eq!(imports[0]["bindings"][0]["local"], "fmt");
    assert_eq!(imports[0]["bindings"][0]["used"], true);
    assert_eq!(imports[1]["bindings"][0]["local"], "str");
    assert_eq!(imports[1]["bindings"][0]["used"], false);
    assert_eq!(imports[1]["kind"], "spec_in_list");
    assert!(refusal("p.go", "package p\nfunc f() (int, error) { return 1, nil }\n", 2).contains("2 values"));
    assert!(refusal(
        "p.go",
        "package p\ntype T struct{}\nfunc (t T) f() int { return 1 }\n",
        3
    )
    .contains("method"));
}

#[test]
fn java_callable_calls_imports() {
    let src = "package a.b;\n\nimport java.util.List;\n\nclass U {\n  static int twice(int x) { return x * 2; }\n  int inst(int x) { return x; }\n  void m() { int y = U.twice(3); }\n}\n";
    let f = callable("U.java", src, 6);
    assert_eq!(f["expr"], "x * 2");
    assert_eq!(f["params"][0]["type"], "int");
    assert_eq!(f["return_type"], "int");
    assert!(refusal("U.java", src, 7).contains("instance"));
    let calls = facts("U.java", src, "calls", json!({ "name": "twice" }));
    assert_eq!(calls[0]["qualifier"], "U");
    let imports = facts("U.java", src, "imports", json!({}));
    assert_eq!(imports[0]["kind"], "package");
    assert_eq!(imports[0]["module"], "a.b");
    assert_eq!(imports[1]["module"], "java.util.List");
    assert_eq!(imports[1]["bindings"][0]["used"], false);
}

#[test]
fn rust_callable_calls_imports() {
    let src = "use std::collections::{HashMap, HashSet as Set};\nuse crate::util::clamp;\n\nfn half(x: f64) -> f64 {\n    clamp(x / 2.0)\n}\n\nfn go() { let _ = half(3.0); let _: Set<u8> = Set::new(); }\n";
    let f = callable("src/a.rs", src, 4);
    assert_eq!(f["expr"], "clamp(x / 2.0)");
    assert_eq!(f["returns_value"], true);
    assert_eq!(f["free"][0]["name"], "clamp");
    let calls = facts("src/a.rs", src, "calls", json!({ "name": "half" }));
    assert_eq!(calls[0]["args"][0]["text"], "3.0");
    let imports = facts("src/a.rs", src, "imports", json!({}));
    let b = &imports[0]["bindings"];
    assert_eq!(b[0]["imported"], "std::collections::HashMap");
    assert_eq!(b[0]["used"], false);
    assert_eq!(b[1]["local"], "Set");
    assert_eq!(b[1]["used"], true);
    assert_eq!(imports[1]["bindings"][0]["local"], "clamp");
    assert!(refusal("src/a.rs", "fn f(x: i32) -> Option<i32> { Some(g(x)?) }\n", 1).contains("?"));
    assert!(refusal("src/a.rs", "struct S;\nimpl S {\n    fn f(&self) -> i32 { 1 }\n}\n", 3).contains("associated"));
}

#[test]
fn names_in_a_range() {
    let src = "const a = 1;\nfunction f() { return a + b.c; }\n";
    let start = src.find("function").unwrap() as u64;
    let v = facts("x.js", src, "names", json!({ "start": start, "end": src.len() }));
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    assert!(
        names.contains(&"a") && names.contains(&"b") && !names.contains(&"c"),
        "{names:?}"
    );
}

#[test]
fn identifiers_leave_strings_comments_and_builtin_types_alone() {
    let src =
        "// number of items\nexport function number(x: number): number {\n  return o.number + number(\"number\");\n}\n";
    let v = facts("a.ts", src, "identifiers", json!({ "name": "number" }));
    let at: Vec<(u64, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, vec![(2, 16), (3, 11), (3, 20)]);
    assert_eq!(v[1]["kind"], "property_identifier");
}
