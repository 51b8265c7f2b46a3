//! Go extractor tests: snapshots of the fixtures plus targeted assertions and robustness.

mod common;

use common::{extract, extract_fixture, qualified, render};
use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TestRunner, TypeFlavor,
    Visibility,
};

fn go(src: &str) -> FileFacts {
    extract(Language::Go, "pkg/a.go", src)
}

fn sym<'a>(facts: &'a FileFacts, qname: &str) -> &'a gortex_core::SymbolFact {
    let i = (0..facts.symbols.len() as u32)
        .find(|&i| qualified(facts, i) == qname)
        .unwrap_or_else(|| panic!("no symbol {qname} in:\n{}", render(facts)));
    &facts.symbols[i as usize]
}

fn has_ref(facts: &FileFacts, kind: EdgeKind, from: &str, name: &str, receiver: Receiver) -> bool {
    facts.refs.iter().any(|r| {
        r.kind == kind
            && r.name == name
            && r.receiver == receiver
            && r.from.map(|f| qualified(facts, f)).unwrap_or_else(|| "<file>".into()) == from
    })
}

fn assert_ref(facts: &FileFacts, kind: EdgeKind, from: &str, name: &str, receiver: Receiver) {
    assert!(
        has_ref(facts, kind, from, name, receiver.clone()),
        "missing {kind} {from} -> {name} {receiver:?} in:\n{}",
        render(facts)
    );
}

fn binding<'a>(facts: &'a FileFacts, scope: &str, name: &str) -> &'a BindingValue {
    &facts
        .bindings
        .iter()
        .find(|b| b.name == name && b.scope.map(|s| qualified(facts, s)).unwrap_or_else(|| "<file>".into()) == scope)
        .unwrap_or_else(|| panic!("no binding {scope}: {name} in:\n{}", render(facts)))
        .value
}

#[test]
fn snapshot_store() {
    insta::assert_snapshot!("go_store", render(&extract_fixture(Language::Go, "go/store.go")));
}

#[test]
fn snapshot_store_test() {
    insta::assert_snapshot!(
        "go_store_test",
        render(&extract_fixture(Language::Go, "go/store_test.go"))
    );
}

#[test]
fn package_and_imports() {
    let f =
        go("package foo\nimport (\n\t\"fmt\"\n\tf \"fmt\"\n\t. \"strings\"\n\t_ \"embed\"\n\t\"github.com/a/b\"\n)\n");
    assert_eq!(f.package.as_deref(), Some("foo"));
    let kinds: Vec<_> = f
        .imports
        .iter()
        .map(|i| (i.module.as_str(), i.kind, i.local.as_deref()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("fmt", ImportKind::Module, None),
            ("fmt", ImportKind::Module, Some("f")),
            ("strings", ImportKind::Wildcard, None),
            ("embed", ImportKind::SideEffect, None),
            ("github.com/a/b", ImportKind::Module, None),
        ]
    );
    assert_eq!(f.imports[4].line, 7);
}

#[test]
fn methods_attach_to_receiver_types() {
    let f = go("package p\ntype Store struct{}\nfunc (s *Store) Get() {}\nfunc (s Store) val() {}\nfunc (r *Remote) Fetch() {}\n");
    let get = sym(&f, "Store.Get");
    assert_eq!(get.kind, NodeKind::Method);
    assert!(get.exported);
    let val = sym(&f, "Store.val");
    assert_eq!(val.visibility, Some(Visibility::Package));
    let fetch = sym(&f, "Fetch");
    assert_eq!(fetch.parent, None);
    assert_eq!(
        fetch.type_name.as_deref(),
        Some("Remote"),
        "parentless method records its receiver type"
    );
    assert_eq!(
        binding(&f, "Store.Get", "s"),
        &BindingValue::Type { name: "Store".into() }
    );
}

#[test]
fn method_declared_before_its_type_keeps_type_name() {
    let f = go("package p\nfunc (s *Store) Get() {}\ntype Store struct{}\n");
    let get = sym(&f, "Get");
    assert_eq!(get.type_name.as_deref(), Some("Store"));
}

#[test]
fn struct_fields_and_embedding() {
    let f = extract_fixture(Language::Go, "go/store.go");
    let store = sym(&f, "Store");
    assert_eq!(store.flavor, Some(TypeFlavor::Struct));
    assert_eq!(store.doc.as_deref(), Some("Store holds records."));
    assert_eq!(sym(&f, "Store.items").type_name.as_deref(), Some("map"));
    // Another package's type keeps its qualifier: the resolver follows it through the import.
    assert_eq!(sym(&f, "Store.conn").type_name.as_deref(), Some("db.Conn"));
    sym(&f, "Store.a");
    sym(&f, "Store.b");
    sym(&f, "Store.Base");
    sym(&f, "Store.Logger");
    assert_ref(&f, EdgeKind::Extends, "Store", "Base", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "Store", "Logger", Receiver::Name("db".into()));
    assert_ref(&f, EdgeKind::TypedAs, "Store.items", "Item", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Store.items", "ID", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Store.conn", "Conn", Receiver::Name("db".into()));
}

#[test]
fn interfaces_and_type_aliases() {
    let f = extract_fixture(Language::Go, "go/store.go");
    assert_eq!(sym(&f, "Reader").kind, NodeKind::Interface);
    let get = sym(&f, "Reader.Get");
    assert_eq!(get.kind, NodeKind::Method);
    assert_eq!(get.return_type.as_deref(), Some("Item"));
    assert_eq!(get.doc.as_deref(), Some("Get returns an item."));
    assert_ref(&f, EdgeKind::Extends, "Reader", "Closer", Receiver::Name("io".into()));
    assert_ref(&f, EdgeKind::Extends, "Reader", "Base", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Reader.Get", "ID", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, "Reader.Get", "Item", Receiver::None);
    let id = sym(&f, "ID");
    assert_eq!(id.flavor, Some(TypeFlavor::TypeAlias));
    assert_eq!(id.doc.as_deref(), Some("ID identifies a record."));
    assert_eq!(sym(&f, "Alias").flavor, Some(TypeFlavor::TypeAlias));
}

#[test]
fn constants_and_vars() {
    let f = extract_fixture(Language::Go, "go/store.go");
    for c in ["Red", "Green", "Blue"] {
        let s = sym(&f, c);
        assert_eq!(s.kind, NodeKind::Constant);
        assert_eq!(s.type_name.as_deref(), Some("Color"), "iota group member {c}");
    }
    assert_eq!(sym(&f, "maxSize").visibility, Some(Visibility::Package));
    let ds = sym(&f, "DefaultStore");
    assert_eq!(ds.kind, NodeKind::Variable);
    assert_eq!(ds.type_name.as_deref(), Some("Store"));
    assert_eq!(
        binding(&f, "<file>", "DefaultStore"),
        &BindingValue::Type { name: "Store".into() }
    );
    assert_eq!(
        binding(&f, "<file>", "conn"),
        &BindingValue::Call {
            receiver: Receiver::Name("db".into()),
            name: "Open".into()
        }
    );
    // No local variables as symbols.
    assert!(!f.symbols.iter().any(|s| s.name == "it" || s.name == "v"));
}

#[test]
fn call_receivers() {
    let f = extract_fixture(Language::Go, "go/store.go");
    let from = "Store.Get";
    assert_ref(&f, EdgeKind::Calls, from, "Errorf", Receiver::Name("fmt".into()));
    assert_ref(&f, EdgeKind::Calls, from, "Query", Receiver::SelfField("conn".into()));
    assert_ref(&f, EdgeKind::Calls, from, "Log", Receiver::SelfField("audit".into()));
    assert_ref(&f, EdgeKind::Calls, from, "helper", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "Open", Receiver::Name("store2".into()));
    assert_ref(&f, EdgeKind::Calls, from, "Close", Receiver::Call("Make".into()));
    assert_ref(&f, EdgeKind::Calls, from, "Wrap", Receiver::Name("pkg".into()));
    assert_ref(&f, EdgeKind::References, from, "handle", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, "NewStore", "init", Receiver::Name("s".into()));
    assert!(
        !f.refs.iter().any(|r| r.name == "len" || r.name == "make"),
        "builtins are skipped"
    );
    assert_ref(&f, EdgeKind::Instantiates, "NewStore", "Store", Receiver::None);
    assert_ref(&f, EdgeKind::Instantiates, from, "Item", Receiver::None);
}

#[test]
fn self_ref_and_paths() {
    let f = go("package p\ntype S struct{}\nfunc (s *S) A() { s.B(); s.x.C(); s.x.y.D(); a.b.E(); a.b.c.F() }\n");
    assert_ref(&f, EdgeKind::Calls, "S.A", "B", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, "S.A", "C", Receiver::SelfField("x".into()));
    // A longer chain off the receiver is a path from the receiver's binding.
    assert_ref(
        &f,
        EdgeKind::Calls,
        "S.A",
        "D",
        Receiver::Path(vec!["s".into(), "x".into(), "y".into()]),
    );
    assert_ref(
        &f,
        EdgeKind::Calls,
        "S.A",
        "E",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    assert_ref(
        &f,
        EdgeKind::Calls,
        "S.A",
        "F",
        Receiver::Path(vec!["a".into(), "b".into(), "c".into()]),
    );
}

#[test]
fn param_and_result_types() {
    let f = extract_fixture(Language::Go, "go/store.go");
    assert_ref(&f, EdgeKind::TypedAs, "NewStore", "Conn", Receiver::Name("db".into()));
    assert_ref(&f, EdgeKind::TypedAs, "NewStore", "Option", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, "NewStore", "Store", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::TypedAs,
        "Store.Get",
        "Context",
        Receiver::Name("context".into()),
    );
    assert_ref(&f, EdgeKind::Returns, "Store.Get", "Item", Receiver::None);
    assert_eq!(sym(&f, "NewStore").return_type.as_deref(), Some("Store"));
    assert_eq!(sym(&f, "Store.Get").return_type.as_deref(), Some("Item"));
    // builtins and type parameters are not refs
    assert!(
        !f.refs
            .iter()
            .any(|r| ["string", "int", "error", "T", "U", "K", "V", "any", "comparable"].contains(&r.name.as_str())),
        "{}",
        render(&f)
    );
}

#[test]
fn bindings() {
    let f = extract_fixture(Language::Go, "go/store.go");
    let s = "Store.Get";
    assert_eq!(binding(&f, s, "x"), &BindingValue::Type { name: "Item".into() });
    assert_eq!(binding(&f, s, "y"), &BindingValue::Type { name: "Item".into() });
    assert_eq!(
        binding(&f, s, "z"),
        &BindingValue::Call {
            receiver: Receiver::Name("db".into()),
            name: "Connect".into()
        }
    );
    assert_eq!(
        binding(&f, s, "w"),
        &BindingValue::Call {
            receiver: Receiver::Name("store2".into()),
            name: "Open".into()
        }
    );
    assert_eq!(binding(&f, s, "v"), &BindingValue::Type { name: "Item".into() });
    assert!(f.bindings.iter().any(|b| b.name == "v"
        && b.value
            == BindingValue::Call {
                receiver: Receiver::None,
                name: "NewItem".into()
            }));
    assert_eq!(binding(&f, s, "id"), &BindingValue::Type { name: "ID".into() });
    assert_eq!(
        binding(&f, "NewStore", "s"),
        &BindingValue::Type { name: "Store".into() }
    );
    assert_eq!(
        binding(&f, "NewStore", "c"),
        &BindingValue::Type { name: "db.Conn".into() }
    );
}

#[test]
fn collection_parameters_bind_their_elements() {
    let f = go("package p\nfunc F(xs []*shapes.Box, m map[string]Item, rest ...Item) {\n\tfor _, b := range xs {\n\t\tb.Area()\n\t}\n\tfor k := range m {\n\t\t_ = k\n\t}\n\txs[0].Area()\n}\n");
    // Elements are bound as `name[]`; a range value takes the element type, a lone key does not.
    assert_eq!(
        binding(&f, "F", "xs[]"),
        &BindingValue::Type {
            name: "shapes.Box".into()
        }
    );
    assert_eq!(binding(&f, "F", "m[]"), &BindingValue::Type { name: "Item".into() });
    assert_eq!(binding(&f, "F", "rest[]"), &BindingValue::Type { name: "Item".into() });
    assert_eq!(
        binding(&f, "F", "b"),
        &BindingValue::Type {
            name: "shapes.Box".into()
        }
    );
    assert!(!f.bindings.iter().any(|b| b.name == "k"));
    assert_ref(&f, EdgeKind::Calls, "F", "Area", Receiver::Name("b".into()));
    assert_ref(&f, EdgeKind::Calls, "F", "Area", Receiver::Name("xs[]".into()));
}

#[test]
fn test_functions() {
    let f = extract(
        Language::Go,
        "pkg/store_test.go",
        include_str!("fixtures/go/store_test.go"),
    );
    assert_eq!(f.test_runner, Some(TestRunner::GoTest));
    assert_eq!(sym(&f, "TestGet").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "Testing").test_role, None);
    assert_eq!(sym(&f, "BenchmarkGet").test_role, Some(TestRole::Benchmark));
    assert_eq!(sym(&f, "FuzzGet").test_role, Some(TestRole::Fuzz));
    assert_eq!(sym(&f, "ExampleStore_Get").test_role, Some(TestRole::Example));
    assert_eq!(sym(&f, "helper").test_role, None);
    let plain = go("package p\nfunc TestX(t *testing.T) {}\n");
    assert_eq!(plain.test_runner, None);
    assert_eq!(plain.symbols[0].test_role, None);
}

#[test]
fn robustness_empty_and_garbage() {
    let f = go("");
    assert!(f.symbols.is_empty());
    let f = go("}}}{{{ func ( type struct { interface ]] := := \"unterminated\n package");
    let _ = render(&f);
    let bytes: &[u8] = b"package p\nfunc \xff\xfe(x \xc3) { a.\xffb() }\ntype \xff struct { \xfe int }\n";
    let ctx = gortex_lang::FileContext {
        path: "x.go",
        is_test_file: false,
    };
    let f = gortex_lang::extract_file(Language::Go, bytes, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET).unwrap();
    let _ = render(&f);
}

#[test]
fn robustness_deep_nesting() {
    // Deep but within the tree-depth limit: extracted on a small stack.
    let n = 1_000;
    let mut src = String::from("package p\nfunc f() {\n");
    src.push_str(&"{".repeat(n));
    src.push_str("a.b()");
    src.push_str(&"}".repeat(n));
    src.push_str("\nx := ");
    src.push_str(&"(".repeat(n));
    src.push_str("g()");
    src.push_str(&")".repeat(n));
    src.push_str("\nvar t ");
    src.push_str(&"[]*".repeat(n));
    src.push_str("Foo\nvar m ");
    src.push_str(&"map[Key]".repeat(n));
    src.push_str("Val\ny := a");
    src.push_str(&".b".repeat(n));
    src.push_str(".c()\n}\n");
    let rendered = common::on_small_stack(move || {
        let f = go(&src);
        assert!(f.refs.iter().any(|r| r.name == "b"));
        render(&f).len()
    });
    assert!(rendered > 0);
}

#[test]
fn call_chains_keep_each_receiver() {
    let f = go("package p\nfunc f() { store.Open().DB().Query(); Make().Close() }\n");
    let open = Receiver::Chain(Box::new(Receiver::Name("store".into())), "Open".into());
    assert_ref(&f, EdgeKind::Calls, "f", "DB", open.clone());
    assert_ref(
        &f,
        EdgeKind::Calls,
        "f",
        "Query",
        Receiver::Chain(Box::new(open), "DB".into()),
    );
    assert_ref(&f, EdgeKind::Calls, "f", "Close", Receiver::Call("Make".into()));
}
