//! Bash extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, extract_within_limits, imports_of, on_small_stack, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver};

fn fixture() -> FileFacts {
    extract_fixture(Language::Bash, "bash/deploy.sh")
}

#[test]
fn snapshot_deploy() {
    insta::assert_snapshot!("bash_deploy", render(&fixture()));
}

#[test]
fn sourced_scripts_are_imports() {
    assert_eq!(
        imports_of(&fixture()),
        vec![
            ("./lib/log.sh", ImportKind::Wildcard, None, None),
            ("./common.sh", ImportKind::Wildcard, None, None)
        ]
    );
}

#[test]
fn functions_variables_and_commands() {
    let f = fixture();
    let build = sym(&f, "build");
    assert_eq!(
        (build.kind, build.doc.as_deref()),
        (NodeKind::Function, Some("Builds the image."))
    );
    assert_eq!(sym(&f, "deploy").kind, NodeKind::Function);
    assert!(sym(&f, "APP_NAME").exported);
    assert_eq!(sym(&f, "RETRIES").kind, NodeKind::Constant);
    assert!(!sym(&f, "TARGET").exported);
    assert!(
        !f.symbols.iter().any(|s| s.name == "attempt"),
        "locals are not declarations:\n{}",
        render(&f)
    );
    assert_ref(&f, EdgeKind::Calls, "deploy", "build", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, "build", "log_info", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, "build", "docker", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, "<file>", "deploy", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "source" || r.name == "."));
    // Functions handed to `trap` and `complete -F` are used, not dead.
    assert_ref(&f, EdgeKind::References, "<file>", "cleanup", Receiver::None);
    assert_ref(&f, EdgeKind::References, "<file>", "_deploy_complete", Receiver::None);
}

#[test]
fn shebang_scripts_are_bash() {
    let refine = gortex_lang::refine_language;
    assert_eq!(
        refine(Language::Text, "bin/run", b"#!/usr/bin/env bash\necho hi\n"),
        Language::Bash
    );
    assert_eq!(refine(Language::Text, "bin/run", b"#!/bin/sh -e\n"), Language::Bash);
    assert_eq!(
        refine(Language::Text, "bin/tool", b"#!/usr/bin/env python3\n"),
        Language::Python
    );
    assert_eq!(refine(Language::Text, "notes", b"plain text\n"), Language::Text);
    assert_eq!(
        refine(Language::Text, "bin/x", b"#!/usr/bin/env perl\n"),
        Language::Text
    );
    // Editor modelines mark extension-less shell files too (bash-completion's completions).
    assert_eq!(
        refine(
            Language::Text,
            "completions/ssh",
            b"# ssh(1) completion   -*- shell-script -*-\n"
        ),
        Language::Bash
    );
    assert_eq!(
        refine(Language::Text, "rc", b"# settings\n# vim: set ft=sh:\n"),
        Language::Bash
    );
    assert_eq!(
        refine(Language::Text, "notes", b"# -*- mode: org -*-\n"),
        Language::Text
    );
}

#[test]
fn garbage_and_deep_input_never_panics() {
    let nested = |n: usize| format!("{}echo x{}", "( ".repeat(n), " )".repeat(n));
    let (deep, within) = (nested(10_000), nested(1_000));
    let facts = on_small_stack(move || {
        (
            extract_within_limits(Language::Bash, "deep.sh", &deep),
            extract(Language::Bash, "within.sh", &within),
            extract(Language::Bash, "bad.sh", "f() {\nsource\n. \"$X\"\nfunction {"),
        )
    });
    assert!(facts.0.is_none(), "10,000 nested subshells are past the depth limit");
    let _ = facts.1;
    assert!(facts.2.imports.is_empty());
}
