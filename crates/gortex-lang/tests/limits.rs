//! The per-file limits (`gortex_lang::budget`): short files whose shape makes extraction
//! super-linear are refused with the limit they broke, in every engine (hand-written extractors
//! and the tagged engine); files just inside the limits are extracted.

mod common;

use common::on_small_stack;
use gortex_core::{FileFacts, Language};
use gortex_lang::{extract_file, ExtractError, FileContext, DEFAULT_PARSE_BUDGET, MAX_SYMBOL_DEPTH};
use std::time::Duration;

fn extract(language: Language, path: &str, source: &str) -> Result<FileFacts, ExtractError> {
    let ctx = FileContext {
        path,
        is_test_file: false,
    };
    extract_file(language, source.as_bytes(), &ctx, DEFAULT_PARSE_BUDGET)
}

/// `n` functions, each declared inside the previous one.
fn nested_functions(language: Language, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        match language {
            Language::Python => out.push_str(&format!("{pad}def f{i}(a):\n{pad} g(a)\n", pad = " ".repeat(i))),
            Language::Ruby => out.push_str(&format!("def f{i}(a)\n g(a)\n")),
            Language::Go => out.push_str(&format!("f{i} := func(a int) {{\n g(a)\n")),
            _ => out.push_str(&format!("function f{i}(a) {{\n  g(a);\n")),
        }
    }
    let close = match language {
        Language::Python => "",
        Language::Ruby => "end\n",
        _ => "}\n",
    };
    out.push_str(&close.repeat(n));
    if language == Language::Python {
        out.push_str(&format!("{}pass\n", " ".repeat(n)));
    }
    out
}

#[test]
fn deeply_nested_functions_are_refused_past_the_declaration_depth() {
    // 10,000 nested functions in 337 KB took 36 s and 3.2 GB to index before the limit: every id
    // spells its owners and bare calls are looked up through every enclosing scope.
    for (language, path) in [
        (Language::TypeScript, "a.ts"),
        (Language::JavaScript, "a.js"),
        (Language::Python, "a.py"),
        (Language::Ruby, "a.rb"),
    ] {
        let within = nested_functions(language, MAX_SYMBOL_DEPTH + 1);
        let past = nested_functions(language, MAX_SYMBOL_DEPTH + 2);
        let (within, past) = on_small_stack(move || (extract(language, path, &within), extract(language, path, &past)));
        let within = within.unwrap_or_else(|e| panic!("{language}: {} nested functions: {e}", MAX_SYMBOL_DEPTH + 1));
        assert_eq!(within.symbols.len(), MAX_SYMBOL_DEPTH + 1, "{language}");
        match past {
            Err(ExtractError::SymbolsTooDeep { depth, limit }) => {
                assert_eq!((depth, limit), (MAX_SYMBOL_DEPTH + 1, MAX_SYMBOL_DEPTH), "{language}")
            }
            other => panic!(
                "{language}: expected SymbolsTooDeep, got {:?}",
                other.map(|f| f.symbols.len())
            ),
        }
    }
}

#[test]
fn trees_deeper_than_the_limit_are_refused_in_every_engine() {
    let n = 10_000;
    let cases: Vec<(Language, &str, String)> = vec![
        (Language::TypeScript, "a.ts", nested_functions(Language::TypeScript, n)),
        (
            Language::TypeScript,
            "b.ts",
            format!("export const x = {}1{};\n", "[\n".repeat(n), "]\n".repeat(n)),
        ),
        (
            Language::Python,
            "a.py",
            format!("x = {}1{}\n", "f(\n".repeat(n), ")\n".repeat(n)),
        ),
        (
            Language::C,
            "a.c",
            format!(
                "int main(void) {{\n{}{}}}\n",
                "if (x) {\n g();\n".repeat(n),
                "}\n".repeat(n)
            ),
        ),
        (Language::Ruby, "a.rb", nested_functions(Language::Ruby, n)),
        (
            Language::Go,
            "a.go",
            format!("package p\nfunc f() {{\n{}\n}}\n", nested_functions(Language::Go, n)),
        ),
    ];
    let results = on_small_stack(move || {
        cases
            .into_iter()
            .map(|(language, path, src)| (language, path, extract(language, path, &src)))
            .collect::<Vec<_>>()
    });
    for (language, path, result) in results {
        match result {
            Err(e @ ExtractError::TooDeep { .. }) => {
                assert!(e.is_over_limit());
                assert!(e.to_string().contains("levels deep"), "{e}");
            }
            other => panic!(
                "{language} {path}: expected TooDeep, got {:?}",
                other.map(|f| f.symbols.len())
            ),
        }
    }
}

#[test]
fn long_runs_of_unnamed_tokens_are_refused_before_any_query_runs() {
    // 300,000 unclosed parentheses never finished before the limit (tree-sitter's query cursor
    // scans every later sibling of each token); 30,000 took seconds.
    let parens = "((((((((((((((((((((((((((((((\n".repeat(1_000);
    for (language, path) in [
        (Language::TypeScript, "a.ts"),
        (Language::Python, "a.py"),
        (Language::C, "a.c"),
        (Language::Ruby, "a.rb"),
    ] {
        match extract(language, path, &parens) {
            Err(e @ ExtractError::TooComplex { .. }) => {
                assert!(e.is_over_limit());
                assert!(e.to_string().contains("30000 tokens"), "{e}");
            }
            other => panic!(
                "{language}: expected TooComplex, got {:?}",
                other.map(|f| f.symbols.len())
            ),
        }
    }
    // Unbalanced brackets within the limit still extract what they can.
    let some = format!("function ok() {{ return 1; }}\n{}", "(".repeat(1_000));
    let facts = extract(Language::TypeScript, "a.ts", &some).expect("within the limit");
    assert!(facts.symbols.iter().any(|s| s.name == "ok"));
}

#[test]
fn the_time_budget_covers_the_parse() {
    let source = "export function f(a: number): number { return g(a) + 1; }\n".repeat(2_000);
    let ctx = FileContext {
        path: "a.ts",
        is_test_file: false,
    };
    match extract_file(Language::TypeScript, source.as_bytes(), &ctx, Duration::ZERO) {
        Err(e @ ExtractError::Timeout(_)) => assert!(e.is_over_limit()),
        other => panic!("expected Timeout, got {:?}", other.map(|f| f.symbols.len())),
    }
    // The same file within the default budget.
    assert_eq!(
        extract_file(Language::TypeScript, source.as_bytes(), &ctx, DEFAULT_PARSE_BUDGET)
            .expect("extracted")
            .symbols
            .len(),
        2_000
    );
}
