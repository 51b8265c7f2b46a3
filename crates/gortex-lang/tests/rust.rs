mod common;

use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TestRunner, TypeFlavor,
    Visibility,
};

fn rs(source: &str) -> FileFacts {
    common::extract(Language::Rust, "src/lib.rs", source)
}

#[test]
fn snapshot_store() {
    let facts = common::extract_fixture(Language::Rust, "rust/store.rs");
    insta::assert_snapshot!("rust_store", common::render(&facts));
}

fn sym<'a>(facts: &'a FileFacts, qualified: &str) -> &'a gortex_core::SymbolFact {
    let i = (0..facts.symbols.len() as u32)
        .find(|&i| common::qualified(facts, i) == qualified)
        .unwrap_or_else(|| panic!("no symbol {qualified} in\n{}", common::render(facts)));
    &facts.symbols[i as usize]
}

fn has_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, receiver: &Receiver) -> bool {
    facts.refs.iter().any(|r| {
        r.kind == kind
            && r.name == name
            && &r.receiver == receiver
            && r.from.map(|f| common::qualified(facts, f)).as_deref() == from
    })
}

#[track_caller]
fn assert_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, receiver: Receiver) {
    assert!(
        has_ref(facts, kind, from, name, &receiver),
        "missing {kind} {from:?} -> {name} {receiver:?} in\n{}",
        common::render(facts)
    );
}

fn binding<'a>(facts: &'a FileFacts, scope: Option<&str>, name: &str) -> &'a BindingValue {
    facts
        .bindings
        .iter()
        .find(|b| b.name == name && b.scope.map(|s| common::qualified(facts, s)).as_deref() == scope)
        .map(|b| &b.value)
        .unwrap_or_else(|| panic!("no binding {name} in {scope:?}\n{}", common::render(facts)))
}

#[test]
fn symbols_kinds_flavors_and_modifiers() {
    let f = rs(
        "pub async fn a() {}\nconst fn b() {}\nunsafe fn c() {}\npub extern \"C\" fn d() {}\n\
        pub struct S { pub x: Foo, y: &'static str }\nstruct T(u8);\nstruct U;\nenum E { A, B(u8) }\n\
        union V { a: u8 }\npub trait Tr { fn m(&self); fn d(&self) -> u8 { 1 } }\ntype Al = Foo;\n\
        const K: Foo = Foo;\nstatic G: Bar = Bar;\nmod m;\nmod n { fn inner() {} }\n",
    );
    assert!(sym(&f, "a").is_async && sym(&f, "a").kind == NodeKind::Function);
    for n in ["b", "c", "d"] {
        assert_eq!(sym(&f, n).kind, NodeKind::Function);
    }
    assert_eq!(sym(&f, "S").flavor, Some(TypeFlavor::Struct));
    assert_eq!(sym(&f, "S.x").type_name.as_deref(), Some("Foo"));
    assert_eq!(sym(&f, "S.x").kind, NodeKind::Field);
    assert_eq!(sym(&f, "S.y").type_name.as_deref(), Some("str"));
    assert_eq!(sym(&f, "T").flavor, Some(TypeFlavor::Struct));
    assert_eq!(sym(&f, "U").flavor, Some(TypeFlavor::Struct));
    assert_eq!(sym(&f, "E").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "E.A").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "E.B").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "V").flavor, Some(TypeFlavor::Union));
    assert_eq!(sym(&f, "Tr").kind, NodeKind::Interface);
    assert!(sym(&f, "Tr.m").is_abstract && sym(&f, "Tr.m").kind == NodeKind::Method);
    assert!(!sym(&f, "Tr.d").is_abstract);
    assert_eq!(sym(&f, "Al").flavor, Some(TypeFlavor::TypeAlias));
    assert_eq!(sym(&f, "K").kind, NodeKind::Constant);
    assert_eq!(sym(&f, "K").type_name.as_deref(), Some("Foo"));
    assert_eq!(sym(&f, "G").kind, NodeKind::Variable);
    assert_eq!(sym(&f, "G").type_name.as_deref(), Some("Bar"));
    assert_eq!(sym(&f, "m").kind, NodeKind::Module);
    assert_eq!(sym(&f, "n").kind, NodeKind::Module);
    assert_eq!(sym(&f, "n.inner").kind, NodeKind::Function);
}

#[test]
fn visibility_levels() {
    let f = rs("pub fn a() {}\npub(crate) fn b() {}\npub(super) fn c() {}\npub(in crate::x) fn d() {}\nfn e() {}\n");
    assert_eq!(
        (sym(&f, "a").visibility, sym(&f, "a").exported),
        (Some(Visibility::Public), true)
    );
    for n in ["b", "c", "d"] {
        assert_eq!(
            (sym(&f, n).visibility, sym(&f, n).exported),
            (Some(Visibility::Package), false),
            "{n}"
        );
    }
    assert_eq!(
        (sym(&f, "e").visibility, sym(&f, "e").exported),
        (Some(Visibility::Private), false)
    );
}

#[test]
fn docs_and_attributes() {
    let f = rs("/// First line. Second.\n#[derive(Debug, Clone)]\n#[doc = \"x\"]\n#[serde(rename_all = \"x\")]\npub struct S;\n\
        // plain comment\nfn nodoc() {}\n/** Block doc. */\nfn block() {}\n#[tokio::main]\nasync fn main() {}\n");
    let s = sym(&f, "S");
    assert_eq!(s.doc.as_deref(), Some("First line."));
    assert_eq!(s.decorators, vec!["derive", "serde"]);
    assert_eq!(sym(&f, "nodoc").doc, None);
    assert_eq!(sym(&f, "block").doc.as_deref(), Some("Block doc."));
    assert_eq!(sym(&f, "main").decorators, vec!["tokio::main"]);
    assert_eq!(sym(&f, "main").test_role, None);
    assert_eq!(f.test_runner, None);
}

#[test]
fn impl_methods_owned_by_local_type() {
    let f = rs("struct Foo;\nimpl Foo { pub fn new() -> Self { Foo } fn get(&self) -> u8 { 1 } }\n");
    let new = sym(&f, "Foo.new");
    assert_eq!(new.kind, NodeKind::Method);
    assert!(new.is_static);
    assert_eq!(new.return_type.as_deref(), Some("Foo"));
    assert_eq!(new.type_name, None);
    assert!(!sym(&f, "Foo.get").is_static);
}

#[test]
fn impl_methods_of_foreign_or_later_types_are_parentless_with_type_name() {
    let f = rs("mod m { impl Ext { fn a(&self) {} } }\nimpl Later { fn b(&self) {} }\nstruct Later;\n");
    let a = sym(&f, "a");
    assert_eq!(
        (a.kind, a.parent, a.type_name.as_deref()),
        (NodeKind::Method, None, Some("Ext"))
    );
    let b = sym(&f, "b");
    assert_eq!((b.parent, b.type_name.as_deref()), (None, Some("Later")));
}

#[test]
fn trait_impls_emit_implements() {
    let f =
        rs("struct Foo;\nimpl fmt::Display for Foo { fn fmt(&self) {} }\nimpl<T> Tr<T> for Ext where T: Bound {}\n");
    assert_ref(&f, EdgeKind::Implements, Some("Foo"), "Display", Receiver::None);
    assert_eq!(sym(&f, "Foo.fmt").kind, NodeKind::Method);
    assert_ref(&f, EdgeKind::Implements, None, "Tr", Receiver::Name("Ext".into()));
    assert_ref(&f, EdgeKind::References, None, "Bound", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "T"), "type params are not refs");
}

#[test]
fn trait_bounds_and_supertraits() {
    let f = rs("trait A: B + Send {}\nfn g<T: Show + Clone>(t: T) where T: Into<Out> {}\n");
    assert_ref(&f, EdgeKind::Extends, Some("A"), "B", Receiver::None);
    assert_ref(&f, EdgeKind::References, Some("g"), "Show", Receiver::None);
    assert_ref(&f, EdgeKind::References, Some("g"), "Out", Receiver::None);
    assert!(
        !f.refs.iter().any(|r| ["T", "Send", "Clone"].contains(&r.name.as_str())),
        "{}",
        common::render(&f)
    );
}

#[test]
fn imports_all_shapes() {
    let f = rs(
        "use a::b::C;\nuse a::b::{C2, d as e};\nuse a::b::*;\nuse a::b;\nuse crate::x;\nuse super::y;\nuse self::z;\n\
        pub use q::R;\nextern crate foo;\nuse a::{b::{F, G}, h};\nuse k::l::{self, M};\nuse t::Trait as _;\n",
    );
    let find = |module: &str, name: Option<&str>| {
        f.imports
            .iter()
            .find(|i| i.module == module && i.name.as_deref() == name)
            .unwrap_or_else(|| panic!("no import {module} {name:?}\n{}", common::render(&f)))
    };
    let c = find("a::b", Some("C"));
    assert_eq!((c.kind, c.local.as_deref()), (ImportKind::Named, Some("C")));
    assert_eq!(find("a::b", Some("d")).local.as_deref(), Some("e"));
    assert_eq!(find("a::b", Some("C2")).local.as_deref(), Some("C2"));
    assert_eq!(find("a::b", None).kind, ImportKind::Wildcard);
    let b = find("a", Some("b"));
    assert_eq!((b.kind, b.local.as_deref()), (ImportKind::Named, Some("b")));
    find("crate", Some("x"));
    find("super", Some("y"));
    find("self", Some("z"));
    assert!(find("q", Some("R")).reexport);
    assert!(!c.reexport);
    let e = find("foo", None);
    assert_eq!((e.kind, e.local.as_deref()), (ImportKind::Module, Some("foo")));
    find("a::b", Some("F"));
    find("a::b", Some("G"));
    find("a", Some("h"));
    assert_eq!(find("k", Some("l")).local.as_deref(), Some("l"));
    find("k::l", Some("M"));
    assert_eq!(find("t", Some("Trait")).local, None);
}

#[test]
fn call_receivers() {
    let f = rs("struct S { store: Store }\nimpl S { fn m(&self) {\n foo();\n self.foo();\n Self::foo();\n x.foo();\n a::b::foo();\n \
        Foo::new();\n self.store.get();\n make().run();\n crate::x::y();\n v[0].bar();\n get::<u8>();\n Some(1);\n Foo(1);\n } }\n");
    let m = Some("S.m");
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::Name("x".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        m,
        "foo",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    assert_ref(&f, EdgeKind::Calls, m, "new", Receiver::Name("Foo".into()));
    assert_ref(&f, EdgeKind::Calls, m, "get", Receiver::SelfField("store".into()));
    assert_ref(&f, EdgeKind::Calls, m, "run", Receiver::Call("make".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        m,
        "y",
        Receiver::Path(vec!["crate".into(), "x".into()]),
    );
    assert_ref(&f, EdgeKind::Calls, m, "bar", Receiver::Expr);
    assert_ref(&f, EdgeKind::Calls, m, "get", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "Foo", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "Some"));
    assert_eq!(
        f.refs
            .iter()
            .filter(|r| r.name == "foo" && r.receiver == Receiver::SelfRef)
            .count(),
        2
    );
}

#[test]
fn struct_literals_instantiate() {
    let f = rs("struct Foo;\nimpl Foo { fn new() -> Self { Self {} } }\nfn g() { let a = Foo { x: 1 }; let b = m::Bar { }; }\n");
    assert_ref(&f, EdgeKind::Instantiates, Some("Foo.new"), "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::Instantiates, Some("g"), "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::Instantiates, Some("g"), "Bar", Receiver::Name("m".into()));
}

#[test]
fn macro_token_trees_are_scanned() {
    let f = rs(
        "fn g(&self) {\n println!(\"{}\", fmt_it(x));\n let v = vec![make(1), y.conv()];\n \
        assert_eq!(self.store.len(), count());\n my_dsl!(not_scanned());\n}\n",
    );
    assert_ref(&f, EdgeKind::Calls, Some("g"), "fmt_it", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, Some("g"), "make", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, Some("g"), "conv", Receiver::Name("y".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        Some("g"),
        "len",
        Receiver::SelfField("store".into()),
    );
    assert_ref(&f, EdgeKind::Calls, Some("g"), "count", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "println" || r.name == "not_scanned"));
}

#[test]
fn type_refs_skip_std_wrappers_and_primitives() {
    let f = rs("struct S { a: Option<Foo>, b: Vec<u8> }\nfn g(x: &Result<Foo, Error>, y: Arc<Mutex<Bar>>, z: i32) -> Box<dyn Baz> { todo!() }\n");
    assert_ref(&f, EdgeKind::TypedAs, Some("S.a"), "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, Some("g"), "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, Some("g"), "Error", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, Some("g"), "Bar", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, Some("g"), "Baz", Receiver::None);
    for skipped in ["Option", "Vec", "Result", "Arc", "Mutex", "Box", "u8", "i32"] {
        assert!(!f.refs.iter().any(|r| r.name == skipped), "{skipped} should be skipped");
    }
    assert_eq!(sym(&f, "g").return_type.as_deref(), Some("Baz"));
}

#[test]
fn bindings_from_params_lets_and_calls() {
    let f = rs(
        "fn g<T>(x: &Foo, t: T, n: u32) {\n let a: Bar = make();\n let b = Baz::new();\n let c = Qux { };\n \
        let d = store::open()?;\n let e = other();\n let h = w.build().await;\n}\n",
    );
    let g = Some("g");
    assert_eq!(binding(&f, g, "x"), &BindingValue::Type { name: "Foo".into() });
    assert_eq!(binding(&f, g, "a"), &BindingValue::Type { name: "Bar".into() });
    assert_eq!(
        binding(&f, g, "b"),
        &BindingValue::Call {
            receiver: Receiver::Name("Baz".into()),
            name: "new".into()
        }
    );
    assert_eq!(binding(&f, g, "c"), &BindingValue::Type { name: "Qux".into() });
    assert_eq!(
        binding(&f, g, "d"),
        &BindingValue::Call {
            receiver: Receiver::Name("store".into()),
            name: "open".into()
        }
    );
    assert_eq!(
        binding(&f, g, "e"),
        &BindingValue::Call {
            receiver: Receiver::None,
            name: "other".into()
        }
    );
    assert_eq!(
        binding(&f, g, "h"),
        &BindingValue::Call {
            receiver: Receiver::Name("w".into()),
            name: "build".into()
        }
    );
    assert!(
        !f.bindings.iter().any(|b| b.name == "t" || b.name == "n"),
        "generic and primitive params bind nothing"
    );
}

#[test]
fn tests_and_runner() {
    let f = rs("#[cfg(test)]\nmod tests {\n #[test]\n fn t() {}\n #[tokio::test]\n async fn at() {}\n #[bench]\n fn b() {}\n fn helper() {}\n}\n");
    assert_eq!(f.test_runner, Some(TestRunner::CargoTest));
    assert_eq!(sym(&f, "tests.t").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "tests.at").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "tests.b").test_role, Some(TestRole::Benchmark));
    assert_eq!(sym(&f, "tests.helper").test_role, None);
    let g = common::extract(Language::Rust, "crates/x/tests/it.rs", "fn helper() {}\n");
    assert_eq!(g.test_runner, Some(TestRunner::CargoTest));
    assert_eq!(rs("fn main() {}").test_runner, None);
}

#[test]
fn parents_come_before_children() {
    let f = common::extract_fixture(Language::Rust, "rust/store.rs");
    for (i, s) in f.symbols.iter().enumerate() {
        if let Some(p) = s.parent {
            assert!((p as usize) < i, "{} parent after child", s.name);
        }
    }
    for r in &f.refs {
        if let Some(from) = r.from {
            assert!((from as usize) < f.symbols.len());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Robustness

#[test]
fn empty_and_garbage_inputs() {
    assert_eq!(rs("").symbols.len(), 0);
    let _ = rs("}}}{{{ fn ( impl for for where :: <<>> use ::{ ; pub(in) struct");
    let _ = rs("impl<T> for {} trait : + {} macro_rules! { ( } ] fn f() -> { x. . ::() }");
    let _ = rs("use a::{b::{c::{d::{e, f}, *}, self as}, };\nextern crate ;\nfn f(self: Box<Self>) { Self {} }");
    let _ = rs("vec![a.(b)(, .c(), ::d(), self.(), e.f.g()]; assert!(fn x(), .());");
    let f = rs("fn ok() {}\nstruct {\nfn also_ok() {}\n");
    assert!(f.syntax_errors > 0);
}

#[test]
fn invalid_utf8_does_not_panic() {
    let bytes: &[u8] = b"/// doc \xff\xfe\nfn f\xc3() { let x\xff = Foo\xfe::new(); }\nstruct S { a: \xff }\n";
    let ctx = gortex_lang::FileContext {
        path: "src/bad.rs",
        is_test_file: false,
    };
    let facts = gortex_lang::extract_file(Language::Rust, bytes, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET);
    assert!(facts.is_ok());
}

fn run_deep(src: String) {
    // Tests run on 2 MB stacks; extraction must not recurse on depth. Past the depth limits the
    // file is refused, never a panic or an overflow.
    common::on_small_stack(move || {
        let _ = common::extract_within_limits(Language::Rust, "src/lib.rs", &src);
    });
}

#[test]
fn deep_nesting_blocks() {
    let n = 10_000;
    run_deep(format!("fn f() {{ {} foo(); {} }}", "{".repeat(n), "}".repeat(n)));
}

#[test]
fn deep_nesting_parens_and_calls() {
    let n = 10_000;
    run_deep(format!("fn f() {{ let x = {}1{}; }}", "(".repeat(n), ")".repeat(n)));
    run_deep(format!("fn f() {{ {}0{}; }}", "g(".repeat(n), ")".repeat(n)));
    run_deep(format!("fn f() {{ a{}; }}", ".b()".repeat(n)));
    run_deep(format!("fn f() {{ println!({}); }}", "h(".repeat(n) + &")".repeat(n)));
}

#[test]
fn deep_nesting_types_and_modules() {
    let n = 5_000;
    run_deep(format!("fn f(x: {}Foo{}) {{}}", "Vec<".repeat(n), ">".repeat(n)));
    run_deep(format!("{} fn g() {{}} {}", "mod m { ".repeat(n), "}".repeat(n)));
    run_deep(format!("use {}x{};", "a::{".repeat(n), "}".repeat(n)));
}
