//! The generic tier: every language yields its definitions (nested by containment) and the
//! calls inside them, from a tags query alone. One small fixture per language.

mod common;

use common::{extract, extract_fixture, extract_within_limits, on_small_stack, qualified, render};
use gortex_core::{EdgeKind, FileFacts, Language, NodeKind};

/// Qualified names of the symbols, in order.
fn names(f: &FileFacts) -> Vec<String> {
    (0..f.symbols.len() as u32).map(|i| qualified(f, i)).collect()
}

/// (caller, callee) of every call.
fn calls(f: &FileFacts) -> Vec<(String, String)> {
    f.refs
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls)
        .map(|r| {
            (
                r.from.map(|i| qualified(f, i)).unwrap_or_else(|| "<file>".into()),
                r.name.clone(),
            )
        })
        .collect()
}

fn check(language: Language, file: &str, symbols: &[&str], call: (&str, &str)) -> FileFacts {
    let f = extract_fixture(language, &format!("generic/{file}"));
    let have = names(&f);
    for s in symbols {
        assert!(
            have.iter().any(|h| h == s),
            "{language}: no symbol {s} in:\n{}",
            render(&f)
        );
    }
    let (from, to) = call;
    assert!(
        calls(&f).iter().any(|(a, b)| a == from && b == to),
        "{language}: no call {from} -> {to} in:\n{}",
        render(&f)
    );
    f
}

#[test]
fn elixir() {
    let f = check(
        Language::Elixir,
        "orders.ex",
        &["Shop.Orders", "Shop.Orders.place", "Shop.Orders.validate"],
        ("Shop.Orders.place", "validate"),
    );
    assert_eq!(f.symbols[0].kind, NodeKind::Module);
}

#[test]
fn erlang() {
    check(
        Language::Erlang,
        "orders.erl",
        &["orders", "place", "validate", "order"],
        ("place", "send_receipt"),
    );
}

#[test]
fn elm() {
    check(
        Language::Elm,
        "Orders.elm",
        &["Orders", "place", "validate"],
        ("place", "validate"),
    );
}

#[test]
fn dart() {
    let f = check(
        Language::Dart,
        "orders.dart",
        &["OrderService", "OrderService.place", "main"],
        ("OrderService.place", "validate"),
    );
    assert_eq!(
        f.symbols.iter().find(|s| s.name == "place").unwrap().kind,
        NodeKind::Method
    );
}

#[test]
fn haskell() {
    check(
        Language::Haskell,
        "Orders.hs",
        &["Shop.Orders", "Order", "place", "validate"],
        ("place", "validate"),
    );
}

#[test]
fn zig() {
    check(
        Language::Zig,
        "orders.zig",
        &["Order", "Order.id", "validate", "place"],
        ("place", "validate"),
    );
}

#[test]
fn garbage_and_deep_input_never_panics() {
    let cases: Vec<(Language, &str, String)> = vec![
        (
            Language::Elixir,
            "a.ex",
            format!("{}1{}", "[".repeat(5_000), "]".repeat(5_000)),
        ),
        (
            Language::Haskell,
            "a.hs",
            format!("x = {}1{}", "(".repeat(5_000), ")".repeat(5_000)),
        ),
        (Language::Zig, "a.zig", "fn fn fn {{{{".to_string()),
        (Language::Erlang, "a.erl", "-module(.\nf( -> .".to_string()),
        (Language::Elm, "a.elm", "module exposing (".to_string()),
        (Language::Dart, "a.dart", "class { void (".to_string()),
    ];
    let n = cases.len();
    let facts = on_small_stack(move || {
        cases
            .into_iter()
            .map(|(l, p, s)| extract_within_limits(l, p, &s))
            .collect::<Vec<_>>()
    });
    assert_eq!(facts.len(), n);
}

/// `prepare` (what a repository opened for editing runs in the background) works for every
/// language of the build, documents included, and a file extracted afterwards is read as before.
#[test]
fn every_language_can_be_prepared_before_its_first_file() {
    for language in gortex_lang::enabled_languages() {
        gortex_lang::prepare(language);
    }
    let f = extract(Language::Go, "a.go", "package a\n\nfunc Run() { helper() }\n");
    assert_eq!(names(&f), ["Run"]);
    assert_eq!(calls(&f), [("Run".to_string(), "helper".to_string())]);
}
