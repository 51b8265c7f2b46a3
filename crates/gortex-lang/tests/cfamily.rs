//! C and C++ extractor tests: snapshots of the fixtures plus targeted assertions and robustness.

mod common;

use common::{assert_ref, extract, extract_fixture, extract_within_limits, has_sym, render, sym};
use gortex_core::{EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TypeFlavor, Visibility};

#[test]
fn snapshot_c_header() {
    insta::assert_snapshot!("c_store_h", render(&extract_fixture(Language::C, "c/store.h")));
}

#[test]
fn snapshot_c_source() {
    insta::assert_snapshot!("c_store_c", render(&extract_fixture(Language::C, "c/store.c")));
}

#[test]
fn snapshot_cpp_header() {
    insta::assert_snapshot!(
        "cpp_shapes_hpp",
        render(&extract_fixture(Language::Cpp, "cpp/shapes.hpp"))
    );
}

#[test]
fn snapshot_cpp_source() {
    insta::assert_snapshot!(
        "cpp_shapes_cpp",
        render(&extract_fixture(Language::Cpp, "cpp/shapes.cpp"))
    );
}

fn cpp(src: &str) -> FileFacts {
    extract(Language::Cpp, "src/a.cc", src)
}

#[test]
fn export_macros_between_class_key_and_name_do_not_hide_the_class() {
    let f = cpp("namespace db {\nclass DB_EXPORT Store : public Base {\n public:\n  int Get(int k) { return k; }\n  int size_;\n};\nstruct DB_EXPORT Options {\n  bool sync = false;\n};\n}\n");
    let store = sym(&f, "db.Store");
    assert_eq!((store.kind, store.flavor), (NodeKind::Type, Some(TypeFlavor::Class)));
    assert_eq!(sym(&f, "db.Store.Get").kind, NodeKind::Method);
    assert_eq!(sym(&f, "db.Store.Get").visibility, Some(Visibility::Public));
    assert_eq!(sym(&f, "db.Options.sync").kind, NodeKind::Field);
    assert_ref(&f, EdgeKind::Extends, "db.Store", "Base", Receiver::None);
    // Offsets are the file's: the class starts where it is written.
    assert_eq!(store.span.start_line, 2);
    assert_eq!(store.span.start_col, 0);
}

#[test]
fn gtest_macros_define_tests_of_their_fixture() {
    let f = extract(
        Language::Cpp,
        "db/db_test.cc",
        "class DBTest : public testing::Test {\n protected:\n  void Reopen() {}\n};\nTEST_F(DBTest, Empty) {\n  Reopen();\n}\nTEST(Coding, Fixed32) {\n  EXPECT_EQ(1, 1);\n}\n",
    );
    let empty = sym(&f, "Empty");
    assert_eq!(empty.kind, NodeKind::Method);
    assert_eq!(empty.type_name.as_deref(), Some("DBTest"));
    assert_eq!(empty.parent, None, "a fixture test joins its class through type_name");
    assert!(empty.test_role.is_some());
    let fixed = sym(&f, "Coding_Fixed32");
    assert_eq!(fixed.kind, NodeKind::Function);
    assert!(fixed.test_role.is_some());
    assert_ref(&f, EdgeKind::Calls, "Empty", "Reopen", Receiver::None);
}

#[test]
fn access_labels_static_and_pure_virtual() {
    let f = cpp("class A {\n  int hidden_;\npublic:\n  static int count;\n  virtual void run() = 0;\nprotected:\n  void step() {}\n};\nstruct B { int open; };\nstatic void local_helper() {}\nvoid api() {}\n");
    assert_eq!(sym(&f, "A.hidden_").visibility, Some(Visibility::Private));
    assert!(!sym(&f, "A.hidden_").exported);
    assert!(sym(&f, "A.count").is_static);
    assert!(sym(&f, "A.run").is_abstract);
    assert_eq!(sym(&f, "A.step").visibility, Some(Visibility::Protected));
    assert_eq!(sym(&f, "B.open").visibility, Some(Visibility::Public));
    assert!(!sym(&f, "local_helper").exported);
    assert!(sym(&f, "api").exported);
}

#[test]
fn receivers_of_cpp_calls() {
    let f = cpp("void Foo::go() {\n  this->step();\n  this->repo_.save();\n  ns::util::helper();\n  std::sort(a, b);\n  obj.run<int>();\n  make().close();\n}\n");
    assert_ref(&f, EdgeKind::Calls, "go", "step", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, "go", "save", Receiver::SelfField("repo_".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        "go",
        "helper",
        Receiver::Path(vec!["ns".into(), "util".into()]),
    );
    assert_ref(&f, EdgeKind::Calls, "go", "sort", Receiver::Name("std".into()));
    assert_ref(&f, EdgeKind::Calls, "go", "run", Receiver::Name("obj".into()));
    assert_ref(&f, EdgeKind::Calls, "go", "close", Receiver::Call("make".into()));
    assert_eq!(sym(&f, "go").type_name.as_deref(), Some("Foo"));
}

#[test]
fn c_locals_and_prototypes_are_not_symbols() {
    let f = extract(
        Language::C,
        "src/a.c",
        "int proto(int x);\nint counter;\nint f(void) {\n  int local = 1;\n  struct inner { int z; } v;\n  return local;\n}\n",
    );
    assert!(!has_sym(&f, "proto"));
    assert!(!has_sym(&f, "local"));
    assert!(!has_sym(&f, "inner"));
    assert!(has_sym(&f, "counter"));
    assert!(has_sym(&f, "f"));
    assert!(
        f.bindings.iter().all(|b| b.scope.is_some()),
        "prototype parameters became file-scope bindings"
    );
    assert_eq!(f.imports.len(), 0);
}

#[test]
fn includes_are_wildcard_imports_with_their_delimiters() {
    let f = extract(Language::C, "src/a.c", "#include <stdio.h>\n#include \"util/list.h\"\n");
    let got: Vec<(&str, ImportKind)> = f.imports.iter().map(|i| (i.module.as_str(), i.kind)).collect();
    assert_eq!(
        got,
        vec![
            ("<stdio.h>", ImportKind::Wildcard),
            ("util/list.h", ImportKind::Wildcard)
        ]
    );
}

#[test]
fn headers_are_read_as_cpp_when_their_text_is() {
    let refine = gortex_lang::refine_language;
    assert_eq!(refine(Language::C, "a.h", b"int f(void);\n"), Language::C);
    assert_eq!(refine(Language::C, "a.h", b"namespace x { int f(); }\n"), Language::Cpp);
    assert_eq!(
        refine(Language::C, "a.h", b"// class Foo in a comment\nint f(void);\n"),
        Language::C
    );
    assert_eq!(
        refine(Language::C, "a.c", b"class X {};\n"),
        Language::C,
        "only headers are re-read"
    );
}

#[test]
fn broken_and_deep_sources_do_not_panic() {
    for src in [
        "class {",
        "struct X : { int",
        "#include",
        "void f( { if (",
        "TEST_F(, ) {}",
        "class A_B C {",
    ] {
        let _ = cpp(src);
        let _ = extract(Language::C, "a.c", src);
    }
    let nested = |n: usize| format!("int f() {{ return {}1{}; }}", "(".repeat(n), ")".repeat(n));
    let f = extract(Language::C, "a.c", &nested(3_000));
    assert!(has_sym(&f, "f"));
    assert!(extract_within_limits(Language::C, "a.c", &nested(10_000)).is_none());
}
