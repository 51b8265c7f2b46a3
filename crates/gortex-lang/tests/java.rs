//! Java extractor tests: snapshots of the fixtures plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, qualified, render, sym};
use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TestRunner, TypeFlavor,
    Visibility,
};

fn java(src: &str) -> FileFacts {
    extract(Language::Java, "src/main/java/A.java", src)
}

fn fixture() -> FileFacts {
    extract_fixture(Language::Java, "java/OrderService.java")
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
fn snapshot_order_service() {
    insta::assert_snapshot!("java_order_service", render(&fixture()));
}

#[test]
fn snapshot_test_file() {
    insta::assert_snapshot!(
        "java_order_service_test",
        render(&extract_fixture(
            Language::Java,
            "java/src/test/java/OrderServiceTest.java"
        ))
    );
}

#[test]
fn package_and_imports() {
    let f = fixture();
    assert_eq!(f.package.as_deref(), Some("com.acme.orders"));
    let got: Vec<_> = f
        .imports
        .iter()
        .map(|i| (i.module.as_str(), i.kind, i.name.as_deref(), i.local.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("java.util", ImportKind::Named, Some("List"), Some("List")),
            ("java.util", ImportKind::Wildcard, None, None),
            (
                "java.util.Objects",
                ImportKind::Named,
                Some("requireNonNull"),
                Some("requireNonNull")
            ),
            ("org.junit.Assert", ImportKind::Wildcard, None, None),
            (
                "com.acme.repo",
                ImportKind::Named,
                Some("OrderRepository"),
                Some("OrderRepository")
            ),
        ]
    );
}

#[test]
fn types_and_members() {
    let f = fixture();
    let svc = sym(&f, "OrderService");
    assert_eq!(svc.flavor, Some(TypeFlavor::Class));
    assert!(svc.exported);
    assert_eq!(svc.decorators, vec!["Service".to_string()]);
    assert_eq!(svc.doc.as_deref(), Some("Places and looks up orders."));
    let repo = sym(&f, "OrderService.repo");
    assert_eq!(repo.kind, NodeKind::Field);
    assert_eq!(repo.visibility, Some(Visibility::Private));
    assert_eq!(repo.type_name.as_deref(), Some("OrderRepository"));
    assert_eq!(repo.doc.as_deref(), Some("The repository."));
    assert!(sym(&f, "OrderService.count").is_static);
    assert_eq!(sym(&f, "OrderService.limit").visibility, Some(Visibility::Protected));
    assert_eq!(sym(&f, "OrderService.cache").visibility, Some(Visibility::Package));
    // Constructors are named after the class; overloads are all emitted.
    let ctors = f
        .symbols
        .iter()
        .filter(|s| s.name == "OrderService" && s.kind == NodeKind::Method)
        .count();
    assert_eq!(ctors, 2);
    let places: Vec<_> = f.symbols.iter().filter(|s| s.name == "place").collect();
    assert_eq!(places.len(), 2);
    assert_ne!(places[0].span.start_line, places[1].span.start_line);
    let place = places[0];
    assert_eq!(place.return_type.as_deref(), Some("Order"));
    assert_eq!(
        place.decorators,
        vec!["Override".to_string(), "Transactional".to_string()]
    );
    assert_eq!(place.doc.as_deref(), Some("Places an order."));
    assert!(sym(&f, "OrderService.Inner").is_abstract);
    assert!(sym(&f, "OrderService.Inner.go").is_abstract);
    sym(&f, "OrderService.Listener.on");
    // Anonymous class members are not symbols.
    assert!(!f.symbols.iter().any(|s| s.name == "run"), "{}", render(&f));
}

#[test]
fn interfaces_enums_records_annotations() {
    let f = fixture();
    let finder = sym(&f, "Finder");
    assert_eq!(finder.kind, NodeKind::Interface);
    let find = sym(&f, "Finder.find");
    assert!(find.is_abstract && find.exported);
    assert!(!sym(&f, "Finder.close").is_abstract);
    assert!(sym(&f, "Finder.none").is_static);
    assert!(sym(&f, "Finder.LIMIT").is_static);
    assert_eq!(sym(&f, "Status").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "Status.OPEN").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Status.CLOSED").kind, NodeKind::EnumMember);
    sym(&f, "Status.label");
    sym(&f, "Status.Status");
    assert_eq!(sym(&f, "Point").flavor, Some(TypeFlavor::Record));
    assert_eq!(sym(&f, "Point.y").type_name.as_deref(), Some("Coord"));
    assert_eq!(sym(&f, "Point.x").kind, NodeKind::Field);
    sym(&f, "Point.Point");
    assert_eq!(sym(&f, "Audited").flavor, Some(TypeFlavor::Annotation));
    sym(&f, "Audited.level");
}

#[test]
fn inheritance() {
    let f = fixture();
    assert_ref(&f, EdgeKind::Extends, "OrderService", "BaseService", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "Placer", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "Finder", Receiver::None);
    assert_ref(&f, EdgeKind::References, "OrderService", "Order", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "Finder", "Lookup", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Extends,
        "Finder",
        "Closeable",
        Receiver::Path(vec!["java".into(), "io".into()]),
    );
    assert_ref(&f, EdgeKind::Implements, "Status", "Labeled", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "Point", "Shape", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Implements,
        "OrderService.Inner",
        "Runnable",
        Receiver::None,
    );
}

#[test]
fn calls_and_receivers() {
    let f = fixture();
    let m = "OrderService.place";
    assert_ref(&f, EdgeKind::Calls, m, "requireNonNull", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "validate", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "audit", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, m, "place", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, m, "make", Receiver::Name("factory".into()));
    assert_ref(&f, EdgeKind::Calls, m, "save", Receiver::SelfField("repo".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        m,
        "notify",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    assert_ref(
        &f,
        EdgeKind::Calls,
        m,
        "map",
        Receiver::Chain(Box::new(Receiver::Name("items".into())), "stream".into()),
    );
    assert_ref(&f, EdgeKind::Instantiates, m, "Order", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Instantiates,
        m,
        "Builder",
        Receiver::Name("Receipt".into()),
    );
    assert_ref(&f, EdgeKind::References, m, "check", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::References, m, "price", Receiver::Name("Item".into()));
    assert_ref(&f, EdgeKind::Instantiates, m, "Order", Receiver::None);
    assert_ref(&f, EdgeKind::References, m, "Transactional", Receiver::None);
    assert_ref(&f, EdgeKind::References, "OrderService", "Service", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Instantiates,
        "OrderService.cache",
        "ArrayList",
        Receiver::None,
    );
    // Calls in anonymous classes belong to the enclosing method.
    assert_ref(
        &f,
        EdgeKind::Calls,
        "OrderService.Listener.on",
        "handle",
        Receiver::None,
    );
    assert_ref(
        &f,
        EdgeKind::Instantiates,
        "OrderService.Listener.on",
        "Runnable",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::Instantiates, "Point.origin", "Point", Receiver::None);
}

#[test]
fn type_annotations() {
    let f = fixture();
    let m = "OrderService.place";
    assert_ref(&f, EdgeKind::TypedAs, m, "Customer", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, m, "List", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, m, "Item", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, m, "Order", Receiver::None);
    assert_ref(&f, EdgeKind::References, m, "OrderException", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::TypedAs,
        "OrderService.repo",
        "OrderRepository",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::TypedAs, "OrderService.cache", "Order", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Point.y", "Coord", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::References,
        "OrderService.max",
        "Comparable",
        Receiver::None,
    );
    // Primitives, java.lang basics, `var` and type parameters are skipped.
    assert!(
        !f.refs
            .iter()
            .any(|r| ["String", "int", "var", "T", "Object"].contains(&r.name.as_str()) && r.kind != EdgeKind::Calls),
        "{}",
        render(&f)
    );
}

#[test]
fn bindings() {
    let f = fixture();
    let m = "OrderService.place";
    assert_eq!(
        binding(&f, m, "customer"),
        &BindingValue::Type {
            name: "Customer".into()
        }
    );
    assert_eq!(binding(&f, m, "items"), &BindingValue::Type { name: "List".into() });
    assert_eq!(binding(&f, m, "order"), &BindingValue::Type { name: "Order".into() });
    assert_eq!(
        binding(&f, m, "builder"),
        &BindingValue::Type { name: "Builder".into() }
    );
    assert_eq!(binding(&f, m, "inv"), &BindingValue::Type { name: "Invoice".into() });
    assert_eq!(
        binding(&f, m, "total"),
        &BindingValue::Call {
            receiver: Receiver::Name("pricing".into()),
            name: "calc".into()
        }
    );
    assert_eq!(binding(&f, m, "it"), &BindingValue::Type { name: "Item".into() });
    assert_eq!(
        binding(&f, "OrderService.OrderService", "repo"),
        &BindingValue::Type {
            name: "OrderRepository".into()
        }
    );
    let v = java("class A { void f() { var s = store.open(); var t = new Foo<Bar>(); } }");
    assert_eq!(
        binding(&v, "A.f", "s"),
        &BindingValue::Call {
            receiver: Receiver::Name("store".into()),
            name: "open".into()
        }
    );
    assert_eq!(binding(&v, "A.f", "t"), &BindingValue::Type { name: "Foo".into() });
}

#[test]
fn tests_and_runner() {
    let f = extract_fixture(Language::Java, "java/src/test/java/OrderServiceTest.java");
    assert_eq!(f.test_runner, Some(TestRunner::Junit));
    assert_eq!(sym(&f, "OrderServiceTest.placesOrder").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderServiceTest.many").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderServiceTest.again").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderServiceTest.setUp").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "OrderServiceTest.helper").test_role, None);
    let plain = java("class A { void f() {} }");
    assert_eq!(plain.test_runner, None);
    let named = extract(Language::Java, "mod/FooTests.java", "class FooTests {}");
    assert_eq!(named.test_runner, Some(TestRunner::Junit));
}

#[test]
fn robustness_empty_and_garbage() {
    assert!(java("").symbols.is_empty());
    let f = java("class { void ( ) } } } @@ import static ; new new . :: ->");
    let _ = render(&f);
    let bytes: &[u8] = b"class \xff\xfe { void \xc3(\xff x) { a.\xff(); } }";
    let ctx = gortex_lang::FileContext {
        path: "A.java",
        is_test_file: false,
    };
    let f = gortex_lang::extract_file(Language::Java, bytes, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET).unwrap();
    let _ = render(&f);
}

#[test]
fn robustness_deep_nesting() {
    // Deep but within the tree-depth limit: extracted on a small stack.
    let n = 1_000;
    let mut src = String::from("class A { void f() {\n");
    src.push_str(&"{".repeat(n));
    src.push_str("a.b();");
    src.push_str(&"}".repeat(n));
    src.push_str("\nint x = ");
    src.push_str(&"(".repeat(n));
    src.push_str("g()");
    src.push_str(&")".repeat(n));
    src.push_str(";\nList");
    src.push_str(&"<List".repeat(n));
    src.push_str(&">".repeat(n));
    src.push_str(" y = a");
    src.push_str(&".b".repeat(n));
    src.push_str(".c();\n}}\n");
    let rendered = common::on_small_stack(move || {
        let f = java(&src);
        assert!(f.refs.iter().any(|r| r.name == "b"));
        render(&f).len()
    });
    assert!(rendered > 0);
}
