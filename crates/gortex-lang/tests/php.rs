//! PHP extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, imports_of, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TypeFlavor, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::Php, "php/OrderService.php")
}

#[test]
fn snapshot_service() {
    insta::assert_snapshot!("php_order_service", render(&fixture()));
}

#[test]
fn namespace_and_use_statements() {
    let f = fixture();
    assert_eq!(f.package.as_deref(), Some("App.Services"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("App.Models", ImportKind::Named, Some("Order"), Some("Order")),
            ("App.Contracts", ImportKind::Named, Some("Placer"), Some("Placer")),
            ("App.Contracts", ImportKind::Named, Some("Logger"), Some("Log")),
            ("App.Support", ImportKind::Named, Some("helper"), Some("helper")),
        ]
    );
}

#[test]
fn declarations_and_modifiers() {
    let f = fixture();
    let svc = sym(&f, "OrderService");
    assert_eq!((svc.kind, svc.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(svc.doc.as_deref(), Some("Places orders."));
    assert_eq!(sym(&f, "OrderService.MAX").kind, NodeKind::Constant);
    let repo = sym(&f, "OrderService.repo");
    assert_eq!(
        (repo.kind, repo.visibility),
        (NodeKind::Field, Some(Visibility::Private))
    );
    assert_eq!(repo.type_name.as_deref(), Some("Repo"));
    assert!(sym(&f, "OrderService.count").is_static);
    // A promoted constructor parameter is a member of the class, not of the constructor.
    let log = sym(&f, "OrderService.log");
    assert_eq!((log.kind, log.type_name.as_deref()), (NodeKind::Field, Some("Log")));
    assert_eq!(sym(&f, "OrderService.place").kind, NodeKind::Method);
    assert_eq!(sym(&f, "OrderService.validate").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "Placer").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Loggable").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Status").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "Status.Open").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "top").kind, NodeKind::Function);
}

#[test]
fn calls_receivers_and_hierarchy() {
    let f = fixture();
    let from = "OrderService.place";
    assert_ref(&f, EdgeKind::Calls, from, "validate", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, from, "save", Receiver::SelfField("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "audit", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, from, "make", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, from, "touch", Receiver::Name("$o".into()));
    assert_ref(&f, EdgeKind::Calls, from, "find", Receiver::Name("Order".into()));
    assert_ref(&f, EdgeKind::Calls, from, "helper", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Calls,
        "OrderService.__construct",
        "__construct",
        Receiver::Super,
    );
    assert_ref(&f, EdgeKind::Instantiates, from, "Order", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "OrderService", "BaseService", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, "OrderService", "Placer", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "OrderService", "Loggable", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, from, "Order", Receiver::None);
    assert!(
        f.bindings.iter().any(|b| b.name == "$o"),
        "`$o = new Order(1)` binds $o"
    );
    assert!(f.bindings.iter().any(|b| b.name == "$order"), "typed parameters bind");
}

#[test]
fn phpunit_test_methods() {
    let f = extract(
        Language::Php,
        "tests/OrderTest.php",
        "<?php\nclass OrderTest extends TestCase {\n  public function testPlaces(): void {}\n  public function helper(): void {}\n}\n",
    );
    assert_eq!(sym(&f, "OrderTest.testPlaces").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "OrderTest.helper").test_role, None);
}

#[test]
fn html_and_broken_sources_do_not_panic() {
    for src in [
        "<html><?php echo 1; ?></html>",
        "<?php class {",
        "<?php use ;",
        "<?php namespace ;",
        "<?php function (",
        "no php tag at all",
    ] {
        let _ = extract(Language::Php, "a.php", src);
    }
}
