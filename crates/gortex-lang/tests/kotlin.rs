//! Kotlin extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, has_sym, imports_of, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TypeFlavor, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::Kotlin, "kotlin/OrderService.kt")
}

#[test]
fn snapshot_service() {
    insta::assert_snapshot!("kotlin_order_service", render(&fixture()));
}

#[test]
fn package_and_imports() {
    let f = fixture();
    assert_eq!(f.package.as_deref(), Some("com.acme.orders"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("com.acme.store", ImportKind::Named, Some("Repo"), Some("Repo")),
            ("com.acme.util", ImportKind::Wildcard, None, None),
            ("com.acme.store", ImportKind::Named, Some("Store"), Some("S")),
        ]
    );
}

#[test]
fn kinds_from_keywords_companions_and_extensions() {
    let f = fixture();
    let svc = sym(&f, "OrderService");
    assert_eq!((svc.kind, svc.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(svc.decorators, vec!["Service".to_string()]);
    assert_eq!(svc.doc.as_deref(), Some("Places orders."));
    assert_eq!(
        sym(&f, "OrderService.repo").kind,
        NodeKind::Field,
        "a `val` constructor parameter is a property"
    );
    assert_eq!(sym(&f, "OrderService.repo").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "OrderService.repo").type_name.as_deref(), Some("Repo"));
    assert_eq!(sym(&f, "OrderService.count").kind, NodeKind::Field);
    assert_eq!(sym(&f, "OrderService.place").kind, NodeKind::Method);
    assert_eq!(sym(&f, "OrderService.validate").visibility, Some(Visibility::Private));
    // Companion members belong to the class itself.
    assert!(sym(&f, "OrderService.create").is_static);
    assert_eq!(sym(&f, "OrderService.MAX").kind, NodeKind::Constant);
    assert!(!has_sym(&f, "OrderService.place.s"), "locals are not symbols");
    assert_eq!(sym(&f, "Helper").flavor, Some(TypeFlavor::Class));
    assert_eq!(sym(&f, "Placer").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Order").flavor, Some(TypeFlavor::Record));
    assert_eq!(sym(&f, "Color").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "Color.RED").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Orders").flavor, Some(TypeFlavor::TypeAlias));
    let shout = sym(&f, "shout");
    assert_eq!(
        (shout.kind, shout.type_name.as_deref()),
        (NodeKind::Method, Some("String"))
    );
    assert_eq!(sym(&f, "top").kind, NodeKind::Function);
}

#[test]
fn calls_receivers_and_supertypes() {
    let f = fixture();
    let from = "OrderService.place";
    assert_ref(&f, EdgeKind::Calls, from, "validate", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "save", Receiver::Name("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "flush", Receiver::SelfField("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "audit", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, from, "S", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "twice", Receiver::Name("Helper".into()));
    assert_ref(&f, EdgeKind::Extends, "OrderService", "Base", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "Placer", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, from, "Order", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Returns,
        "OrderService.create",
        "OrderService",
        Receiver::None,
    );
    assert!(
        !f.refs.iter().any(|r| matches!(r.name.as_str(), "Int" | "String")),
        "built-in types are not references"
    );
    assert!(
        f.bindings
            .iter()
            .any(|b| b.name == "s" && matches!(&b.value, gortex_core::BindingValue::Type { name } if name == "S")),
        "`val s = S()` binds s to S"
    );
}

#[test]
fn test_annotations() {
    let f = extract(
        Language::Kotlin,
        "src/test/kotlin/ATest.kt",
        "class ATest {\n  @BeforeEach fun setUp() {}\n  @Test fun works() {}\n  fun helper() {}\n}\n",
    );
    assert_eq!(sym(&f, "ATest.works").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "ATest.setUp").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "ATest.helper").test_role, None);
}

#[test]
fn broken_sources_do_not_panic() {
    for src in [
        "class {",
        "fun (",
        "import",
        "package ;",
        "val x = ",
        "class A : { }",
        "fun String.() {}",
    ] {
        let _ = extract(Language::Kotlin, "a.kt", src);
    }
}
