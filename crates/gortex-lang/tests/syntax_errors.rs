//! `syntax_errors`: the parse gate of the write tools counts a file's errors by its path's language.

use gortex_core::Language;
use gortex_lang::syntax_errors;

#[test]
fn errors_are_counted_in_the_language_of_the_path() {
    assert_eq!(
        syntax_errors("src/a.ts", b"export function f(): number { return 1; }\n").unwrap(),
        Some((Language::TypeScript, 0))
    );
    let broken = syntax_errors("src/a.ts", b"export function f(: number { return 1;\n").unwrap();
    assert!(matches!(broken, Some((Language::TypeScript, n)) if n > 0), "{broken:?}");
    assert_eq!(
        syntax_errors("a.py", b"def f():\n    return 1\n").unwrap(),
        Some((Language::Python, 0))
    );
    // A shebang decides what an extensionless script is.
    assert_eq!(
        syntax_errors("bin/run", b"#!/usr/bin/env python3\nx = 1\n").unwrap(),
        Some((Language::Python, 0))
    );
}

#[test]
fn files_without_a_grammar_have_no_gate() {
    assert_eq!(syntax_errors("README.md", b"# title\n").unwrap(), None);
    assert_eq!(syntax_errors("notes", b"anything ((\n").unwrap(), None);
}

#[test]
fn a_file_past_a_limit_says_so() {
    let deep = format!("x = {}1{};\n", "[".repeat(5_000), "]".repeat(5_000));
    let error = syntax_errors("a.ts", deep.as_bytes()).unwrap_err();
    assert!(error.is_over_limit(), "{error}");
}
