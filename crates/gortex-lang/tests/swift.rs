//! Swift extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, has_sym, imports_of, render, sym};
use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TypeFlavor, Visibility,
};

fn fixture() -> FileFacts {
    extract_fixture(Language::Swift, "swift/Sources/Shop/OrderService.swift")
}

#[test]
fn snapshot_service() {
    insta::assert_snapshot!("swift_order_service", render(&fixture()));
}

#[test]
fn module_from_the_path_and_imports() {
    let f = fixture();
    // A SwiftPM target: the directory under `Sources/`.
    assert_eq!(f.package.as_deref(), Some("Shop"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("Foundation", ImportKind::Wildcard, None, None),
            ("Storage", ImportKind::Wildcard, None, None),
            ("Payments", ImportKind::Named, Some("Receipt"), Some("Receipt")),
        ]
    );
    // Outside a target, files share the repository's unnamed module.
    let loose = extract(Language::Swift, "ios/Core/A.swift", "func a() {}\n");
    assert_eq!(loose.package.as_deref(), Some(""));
}

#[test]
fn kinds_visibility_and_modifiers() {
    let f = fixture();
    let svc = sym(&f, "OrderService");
    assert_eq!((svc.kind, svc.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(svc.doc.as_deref(), Some("Places orders."));
    assert_eq!(svc.decorators, vec!["MainActor".to_string()]);
    assert_eq!(svc.visibility, Some(Visibility::Public));
    assert!(svc.exported);
    let repo = sym(&f, "OrderService.repo");
    assert_eq!(
        (repo.kind, repo.visibility),
        (NodeKind::Field, Some(Visibility::Private))
    );
    assert_eq!(repo.type_name.as_deref(), Some("Repository"));
    // `private(set)` restricts the setter: the property itself stays module-internal.
    assert_eq!(sym(&f, "OrderService.count").visibility, Some(Visibility::Package));
    assert!(!sym(&f, "OrderService.count").exported);
    assert!(sym(&f, "OrderService.shared").is_static);
    // An unannotated property takes the type its capitalised initialiser constructs.
    assert_eq!(
        sym(&f, "OrderService.shared").type_name.as_deref(),
        Some("OrderService")
    );
    assert_eq!(sym(&f, "defaultQuantity").type_name, None);
    // Any annotation counts, whatever its first character (`[Order]`, `(Order) -> Void`).
    let typed = extract(
        Language::Swift,
        "a.swift",
        "struct Cart {\n  var items: [Order] = []\n  let onChange: (Order) -> Void\n  let helper = makeHelper()\n}\n",
    );
    for field in ["Cart.items", "Cart.onChange", "Cart.helper"] {
        assert_eq!(sym(&typed, field).kind, NodeKind::Field);
    }
    assert_eq!(
        sym(&typed, "Cart.helper").type_name,
        None,
        "a lower-case callee is not a type"
    );
    assert!(sym(&f, "OrderService.make").is_static);
    let place = sym(&f, "OrderService.place");
    assert_eq!(place.kind, NodeKind::Method);
    assert!(place.exported);
    assert_eq!(place.return_type.as_deref(), Some("Receipt"));
    assert_eq!(place.doc.as_deref(), Some("Places one order."));
    assert_eq!(sym(&f, "OrderService.validate").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "OrderService.init").kind, NodeKind::Method);
    assert_eq!(sym(&f, "OrderService.subscript").kind, NodeKind::Method);
    assert!(!has_sym(&f, "OrderService.place.receipt"), "locals are not symbols");
    assert_eq!(sym(&f, "Order").flavor, Some(TypeFlavor::Struct));
    assert_eq!(sym(&f, "Order.quantity").kind, NodeKind::Field);
    assert_eq!(sym(&f, "Status").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "Status.pending").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Status.shipped").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Status.failed").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Status.label").kind, NodeKind::Field);
    assert_eq!(sym(&f, "Placing").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Placing.place").kind, NodeKind::Method);
    assert_eq!(sym(&f, "Placing.count").kind, NodeKind::Field);
    assert_eq!(sym(&f, "Ledger").flavor, Some(TypeFlavor::Class));
    assert_eq!(sym(&f, "OrderHandler").flavor, Some(TypeFlavor::TypeAlias));
    assert_eq!(sym(&f, "shout").kind, NodeKind::Function);
    assert_eq!(sym(&f, "defaultQuantity").kind, NodeKind::Variable);
}

#[test]
fn extension_members_are_methods_of_the_extended_type() {
    let f = fixture();
    // `extension OrderService { … }` declares no type: its members join OrderService.
    assert!(!f
        .symbols
        .iter()
        .any(|s| s.kind == NodeKind::Type && s.name == "OrderService" && s.span.start_line > 50));
    let reset = f.symbols.iter().find(|s| s.name == "reset").unwrap();
    assert_eq!(
        (reset.kind, reset.parent, reset.type_name.as_deref()),
        (NodeKind::Method, None, Some("OrderService"))
    );
    let description = f.symbols.iter().find(|s| s.name == "description").unwrap();
    assert_eq!(
        description.kind,
        NodeKind::Method,
        "a computed property an extension adds is an accessor"
    );
    assert_eq!(description.type_name.as_deref(), Some("OrderService"));
    assert_eq!(description.return_type.as_deref(), Some("String"));
    assert!(description.exported);
}

#[test]
fn calls_receivers_supertypes_and_bindings() {
    let f = fixture();
    let from = "OrderService.place";
    assert_ref(&f, EdgeKind::Calls, from, "validate", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "save", Receiver::Name("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "flush", Receiver::SelfField("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "audit", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, from, "Receipt", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "send", Receiver::Name("mailer".into()));
    assert_ref(&f, EdgeKind::TypedAs, from, "Order", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, from, "Receipt", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "BaseService", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "Placing", Receiver::None);
    // A property wrapper is a type the property's declaration references (from its type).
    assert_ref(&f, EdgeKind::References, "OrderService", "Published", Receiver::None);
    // `extension OrderService: CustomStringConvertible` conforms OrderService, named as the receiver.
    assert!(f.refs.iter().any(|r| r.kind == EdgeKind::Implements
        && r.name == "CustomStringConvertible"
        && r.receiver == Receiver::Name("OrderService".into())));
    assert!(
        !f.refs
            .iter()
            .any(|r| matches!(r.name.as_str(), "Int" | "String" | "AnyObject")),
        "the standard library's value types are not references"
    );
    assert!(
        !f.refs.iter().any(|r| r.name == "testable"),
        "language attributes are not references"
    );
    let bound = |name: &str, ty: &str| {
        f.bindings
            .iter()
            .any(|b| b.name == name && matches!(&b.value, BindingValue::Type { name } if name == ty))
    };
    assert!(
        bound("receipt", "Receipt"),
        "`let receipt = Receipt(…)` binds receipt to Receipt"
    );
    assert!(bound("mailer", "Mailer"), "`let mailer: Mailer` binds mailer to Mailer");
    assert!(bound("order", "Order"), "a typed parameter binds its name");
}

#[test]
fn xctest_and_swift_testing_roles() {
    // A SwiftPM test target's file, as the indexer classifies it (a test file).
    let ctx = gortex_lang::FileContext {
        path: "Tests/ShopTests/OrderServiceTests.swift",
        is_test_file: true,
    };
    let f = gortex_lang::extract_file(
        Language::Swift,
        b"import XCTest\n@testable import Shop\nfinal class OrderServiceTests: XCTestCase {\n  override func setUp() {}\n  func testPlaces() { XCTAssertEqual(1, 1) }\n  func helper() {}\n}\n@Test func placesTwice() {}\n",
        &ctx,
        gortex_lang::DEFAULT_PARSE_BUDGET,
    )
    .unwrap();
    assert_eq!(f.package.as_deref(), Some("ShopTests"));
    assert_eq!(sym(&f, "OrderServiceTests.testPlaces").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderServiceTests.setUp").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "OrderServiceTests.helper").test_role, None);
    assert_eq!(sym(&f, "placesTwice").test_role, Some(TestRole::Test));
}

#[test]
fn broken_sources_do_not_panic() {
    for src in [
        "class {",
        "func (",
        "import",
        "extension : P {}",
        "let x = ",
        "struct A: { }",
        "func (".repeat(1_000).as_str(),
        "@testable import",
        "import struct",
    ] {
        let _ = extract(Language::Swift, "a.swift", src);
    }
}

#[test]
fn deep_input_never_overflows_the_stack() {
    // Nesting the grammar reads as types in types, calls in calls and `#if` blocks in bodies, on
    // a small stack: nothing in the extractor may recurse on depth.
    // Classes nest within the declaration-depth limit, calls within the tree-depth limit.
    let cases = vec![
        format!("{}{}", "class A {\n".repeat(60), "}\n".repeat(60)),
        format!("let x = {}1{}\n", "f(".repeat(1_000), ")".repeat(1_000)),
        format!(
            "extension A {{\n{}}}\n",
            "#if os(iOS)\nfunc a() {}\n#endif\n".repeat(2_000)
        ),
    ];
    let facts = common::on_small_stack(move || {
        cases
            .into_iter()
            .map(|src| extract(Language::Swift, "Sources/App/a.swift", &src))
            .collect::<Vec<_>>()
    });
    assert_eq!(facts[0].symbols.len(), 60, "nested classes are read");
    assert_eq!(facts[2].symbols.iter().filter(|s| s.name == "a").count(), 2_000);
    let deeper = format!("{}{}", "class A {\n".repeat(3_000), "}\n".repeat(3_000));
    assert!(common::extract_within_limits(Language::Swift, "Sources/App/a.swift", &deeper).is_none());
}
