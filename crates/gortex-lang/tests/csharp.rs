//! C# extractor tests: snapshots of the fixtures plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, imports_of, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TypeFlavor, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::CSharp, "csharp/OrderService.cs")
}

#[test]
fn snapshot_service() {
    insta::assert_snapshot!("csharp_order_service", render(&fixture()));
}

#[test]
fn snapshot_tests() {
    insta::assert_snapshot!(
        "csharp_order_service_tests",
        render(&extract_fixture(Language::CSharp, "csharp/OrderServiceTests.cs"))
    );
}

#[test]
fn namespace_is_the_package_and_usings_are_imports() {
    let f = fixture();
    assert_eq!(f.package.as_deref(), Some("Acme.Orders"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("System", ImportKind::Wildcard, None, None),
            ("System.Collections.Generic", ImportKind::Wildcard, None, None),
            ("System.Math", ImportKind::Wildcard, None, None),
            ("Acme.Data", ImportKind::Named, Some("OrderRepository"), Some("Repo")),
        ]
    );
    let tests = extract_fixture(Language::CSharp, "csharp/OrderServiceTests.cs");
    assert_eq!(
        tests.package.as_deref(),
        Some("Acme.Orders.Tests"),
        "file-scoped namespace"
    );
}

#[test]
fn kinds_modifiers_and_visibility() {
    let f = fixture();
    let class = sym(&f, "OrderService");
    assert_eq!((class.kind, class.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(class.visibility, Some(Visibility::Public));
    assert_eq!(class.decorators, vec!["Serializable".to_string()]);
    assert_eq!(class.doc.as_deref(), Some("Places and cancels orders."));
    assert_eq!(sym(&f, "OrderService.MaxItems").kind, NodeKind::Constant);
    assert_eq!(sym(&f, "OrderService._repo").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "OrderService._repo").type_name.as_deref(), Some("Repo"));
    assert_eq!(sym(&f, "OrderService.Created").visibility, Some(Visibility::Package));
    assert!(sym(&f, "OrderService.Created").is_static);
    assert_eq!(sym(&f, "OrderService.Current").kind, NodeKind::Field);
    assert_eq!(sym(&f, "OrderService.Placed").kind, NodeKind::Field);
    let place = sym(&f, "OrderService.PlaceAsync");
    assert_eq!(place.kind, NodeKind::Method);
    assert!(place.is_async);
    assert_eq!(place.return_type.as_deref(), Some("Task"));
    assert_eq!(sym(&f, "OrderService.OrderService").kind, NodeKind::Method);
    assert_eq!(sym(&f, "OrderService.Validate.Local").kind, NodeKind::Function);
    assert_eq!(sym(&f, "OrderService.Audit").visibility, Some(Visibility::Protected));
    assert_eq!(sym(&f, "OrderService.State").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "OrderService.State.Closed").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "OrderService.Handler").flavor, Some(TypeFlavor::TypeAlias));
    let iface = sym(&f, "IOrderService");
    assert_eq!(iface.kind, NodeKind::Interface);
    let m = sym(&f, "IOrderService.PlaceAsync");
    assert!(m.is_abstract && m.exported, "interface members are public and abstract");
    assert_eq!(sym(&f, "Money").flavor, Some(TypeFlavor::Struct));
    assert_eq!(sym(&f, "Order").flavor, Some(TypeFlavor::Record));
    assert_eq!(sym(&f, "Order.Touch").kind, NodeKind::Method);
}

#[test]
fn calls_receivers_and_hierarchy() {
    let f = fixture();
    let from = "OrderService.PlaceAsync";
    assert_ref(&f, EdgeKind::Calls, from, "Validate", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "SaveAsync", Receiver::Name("_repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "Audit", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, from, "Touch", Receiver::Name("Current".into()));
    assert_ref(&f, EdgeKind::Calls, from, "All", Receiver::Name("_repo".into()));
    assert_ref(&f, EdgeKind::Instantiates, from, "Order", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "OrderService", "ServiceBase", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Implements,
        "OrderService",
        "IOrderService",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::Implements, "OrderService", "IDisposable", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, from, "Order", Receiver::None);
    let bound: Vec<&str> = f.bindings.iter().map(|b| b.name.as_str()).collect();
    for name in ["order", "ct", "copy", "all"] {
        assert!(bound.contains(&name), "no binding {name}: {bound:?}");
    }
}

#[test]
fn test_attributes_make_tests_and_fixtures() {
    let f = extract_fixture(Language::CSharp, "csharp/OrderServiceTests.cs");
    assert_eq!(
        sym(&f, "OrderServiceTests.PlacesOrders").test_role,
        Some(TestRole::Test)
    );
    assert_eq!(sym(&f, "OrderServiceTests.Other").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderServiceTests.Init").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "OrderServiceTests.NotATest").test_role, None);
}

#[test]
fn broken_sources_do_not_panic() {
    for src in [
        "class {",
        "namespace ; using",
        "public void M( {",
        "using X = ;",
        "class A : { }",
    ] {
        let _ = extract(Language::CSharp, "A.cs", src);
    }
}
