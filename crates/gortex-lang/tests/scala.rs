//! Scala extractor tests: snapshot of the fixture plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, extract_within_limits, imports_of, on_small_stack, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TypeFlavor, Visibility};

fn fixture() -> FileFacts {
    extract_fixture(Language::Scala, "scala/OrderService.scala")
}

#[test]
fn snapshot_order_service() {
    insta::assert_snapshot!("scala_order_service", render(&fixture()));
}

#[test]
fn package_and_every_import_form() {
    let f = fixture();
    assert_eq!(f.package.as_deref(), Some("shop.orders"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("shop.util", ImportKind::Named, Some("Strings"), Some("Strings")),
            ("shop.mail", ImportKind::Named, Some("Mailer"), Some("Mailer")),
            ("shop.mail", ImportKind::Named, Some("Receipt"), Some("R")),
            ("scala.collection.mutable", ImportKind::Wildcard, None, None)
        ]
    );
}

#[test]
fn classes_objects_traits_members_and_locals() {
    let f = fixture();
    assert_eq!(
        sym(&f, "Order").flavor,
        Some(TypeFlavor::Record),
        "a case class is a record"
    );
    assert_eq!(
        sym(&f, "Order.id").kind,
        NodeKind::Field,
        "case class parameters are fields"
    );
    assert_eq!(sym(&f, "Repo").kind, NodeKind::Interface);
    let find = sym(&f, "Repo.find");
    assert_eq!((find.kind, find.is_abstract), (NodeKind::Method, true));
    assert!(sym(&f, "OrderService.apply").is_static, "object members are static");
    assert_eq!(sym(&f, "OrderService.count").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "OrderService.validate").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "OrderService.place").kind, NodeKind::Method);
    assert!(
        !f.symbols.iter().any(|s| s.name == "m" || s.name == "local"),
        "locals are not declarations:\n{}",
        render(&f)
    );
}

#[test]
fn calls_types_and_bindings() {
    let f = fixture();
    assert_ref(&f, EdgeKind::Calls, "OrderService.place", "validate", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Calls,
        "OrderService.place",
        "send",
        Receiver::Name("m".into()),
    );
    assert_ref(
        &f,
        EdgeKind::Calls,
        "OrderService.place",
        "pad",
        Receiver::Name("Strings".into()),
    );
    assert_ref(
        &f,
        EdgeKind::Instantiates,
        "OrderService.place",
        "Mailer",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::Instantiates, "OrderService.place", "R", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "Repo", "Base", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "Repo", "Closeable", Receiver::None);
    assert_ref(&f, EdgeKind::Extends, "OrderService", "Service", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "OrderService.validate", "Order", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, "Repo.find", "Option", Receiver::None);
    assert!(
        f.bindings.iter().any(|b| b.name == "m"),
        "`val m: Mailer` types m:\n{}",
        render(&f)
    );
}

#[test]
fn second_fixture_objects_and_main() {
    let f = extract_fixture(Language::Scala, "scala/Orders.scala");
    assert_eq!(sym(&f, "Main.main").kind, NodeKind::Method);
    // A constructor parameter's type is the class's (the constructor is the class here).
    assert_ref(&f, EdgeKind::TypedAs, "OrderService", "Mailer", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Calls,
        "OrderService.place",
        "send",
        Receiver::Name("mailer".into()),
    );
}

#[test]
fn garbage_and_deep_input_never_panics() {
    let deep = format!("object A {{ val x = {}1{} }}", "(".repeat(20_000), ")".repeat(20_000));
    let facts = on_small_stack(move || {
        (
            extract_within_limits(Language::Scala, "deep.scala", &deep),
            extract(
                Language::Scala,
                "bad.scala",
                "import {\nclass { def ( = new\nimport a.{",
            ),
        )
    });
    assert!(facts.0.is_none(), "20,000 nested parentheses are past the depth limit");
    let _ = facts.1;
}
