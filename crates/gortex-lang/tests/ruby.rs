//! Ruby extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, imports_of, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TypeFlavor, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::Ruby, "ruby/order_service.rb")
}

#[test]
fn snapshot_service() {
    insta::assert_snapshot!("ruby_order_service", render(&fixture()));
}

#[test]
fn requires_are_imports() {
    assert_eq!(
        imports_of(&fixture()),
        vec![
            ("json", ImportKind::Wildcard, None, None),
            ("./store/repo", ImportKind::Wildcard, None, None)
        ]
    );
}

#[test]
fn modules_classes_methods_and_visibility() {
    let f = fixture();
    assert_eq!(sym(&f, "Shop").kind, NodeKind::Module);
    let svc = sym(&f, "Shop.OrderService");
    assert_eq!((svc.kind, svc.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(svc.signature.as_deref(), Some("class OrderService < BaseService"));
    assert_eq!(sym(&f, "Shop.OrderService.MAX").kind, NodeKind::Constant);
    assert_eq!(
        sym(&f, "Shop.OrderService.repo").kind,
        NodeKind::Field,
        "attr_reader declares a field"
    );
    assert_eq!(sym(&f, "Shop.OrderService.place").visibility, Some(Visibility::Public));
    assert_eq!(
        sym(&f, "Shop.OrderService.validate").visibility,
        Some(Visibility::Private)
    );
    assert!(sym(&f, "Shop.OrderService.create").is_static);
}

#[test]
fn calls_receivers_and_mixins() {
    let f = fixture();
    let from = "Shop.OrderService.place";
    assert_ref(&f, EdgeKind::Calls, from, "validate", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "audit", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, from, "touch", Receiver::Name("o".into()));
    assert_ref(&f, EdgeKind::Calls, from, "twice", Receiver::Name("Helper".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        from,
        "run",
        Receiver::Path(vec!["Shop".into(), "Util".into()]),
    );
    assert_ref(&f, EdgeKind::Instantiates, from, "Order", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Extends,
        "Shop.OrderService",
        "BaseService",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::Extends, "Shop.OrderService", "Loggable", Receiver::None);
    assert!(!f
        .refs
        .iter()
        .any(|r| r.name == "new" || r.name == "include" || r.name == "attr_reader"));
    assert!(f.bindings.iter().any(|b| b.name == "o"), "`o = Order.new(1)` binds o");
}

#[test]
fn minitest_methods_in_test_files() {
    let f = extract(
        Language::Ruby,
        "test/order_test.rb",
        "class OrderTest\n  def test_places; end\n  def helper; end\nend\n",
    );
    assert_eq!(sym(&f, "OrderTest.test_places").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderTest.helper").test_role, None);
}

#[test]
fn broken_sources_do_not_panic() {
    for src in [
        "class",
        "def (",
        "module ; end end",
        "require",
        "attr_reader",
        "x = Foo.new(",
    ] {
        let _ = extract(Language::Ruby, "a.rb", src);
    }
}
