//! Lua extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, extract_within_limits, imports_of, on_small_stack, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::Lua, "lua/inventory.lua")
}

#[test]
fn snapshot_inventory() {
    insta::assert_snapshot!("lua_inventory", render(&fixture()));
}

#[test]
fn requires_are_imports_with_their_locals() {
    assert_eq!(
        imports_of(&fixture()),
        vec![
            ("shop.json", ImportKind::Module, None, Some("json")),
            ("shop.log", ImportKind::Module, None, Some("log")),
            ("shop.setup", ImportKind::Module, None, None)
        ]
    );
}

#[test]
fn module_tables_own_their_functions() {
    let f = fixture();
    assert_eq!(sym(&f, "M").kind, NodeKind::Module);
    for name in ["add", "count", "dump", "reset"] {
        let m = f
            .symbols
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name}:\n{}", render(&f)));
        assert_eq!(
            (m.kind, m.type_name.as_deref()),
            (NodeKind::Method, Some("M")),
            "{name}"
        );
    }
    assert_eq!(
        f.symbols.iter().find(|s| s.name == "add").unwrap().doc.as_deref(),
        Some("Adds units of a SKU.")
    );
    let helper = sym(&f, "helper");
    assert_eq!(
        (helper.kind, helper.visibility),
        (NodeKind::Function, Some(Visibility::Private))
    );
    let entry = sym(&f, "global_entry");
    assert!(entry.exported, "a global function is visible to every file");
    assert_eq!(sym(&f, "MAX_STOCK").kind, NodeKind::Variable);
    assert_eq!(sym(&f, "Handlers.on_add").kind, NodeKind::Method);
}

#[test]
fn calls_keep_their_receivers() {
    let f = fixture();
    assert_ref(&f, EdgeKind::Calls, "add", "count", Receiver::Name("M".into()));
    assert_ref(&f, EdgeKind::Calls, "add", "info", Receiver::Name("log".into()));
    assert_ref(&f, EdgeKind::Calls, "add", "format", Receiver::Name("string".into()));
    assert_ref(&f, EdgeKind::Calls, "dump", "reset", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, "dump", "print", Receiver::None);
    assert!(
        !f.refs.iter().any(|r| r.name == "require"),
        "require is an import:\n{}",
        render(&f)
    );
}

#[test]
fn garbage_and_deep_input_never_panics() {
    let nested = |n: usize| format!("x = {}1{}", "(".repeat(n), ")".repeat(n));
    let (deep, within) = (nested(20_000), nested(2_000));
    let facts = on_small_stack(move || {
        (
            extract_within_limits(Language::Lua, "deep.lua", &deep),
            extract(Language::Lua, "bad.lua", "function (\nlocal = require(\nM:.x()"),
            extract(Language::Lua, "within.lua", &within),
        )
    });
    assert!(facts.0.is_none(), "20,000 nested parentheses are past the depth limit");
    assert!(facts.2.symbols.is_empty());
    let _ = facts.1;
}
