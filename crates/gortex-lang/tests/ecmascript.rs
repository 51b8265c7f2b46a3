mod common;

use common::{extract, extract_fixture, qualified, render};
use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TestRunner, TypeFlavor,
    Visibility,
};

#[test]
fn snapshot_service_ts() {
    let facts = extract_fixture(Language::TypeScript, "ecmascript/service.ts");
    insta::assert_snapshot!(render(&facts));
}

#[test]
fn snapshot_app_js() {
    let facts = extract_fixture(Language::JavaScript, "ecmascript/app.js");
    insta::assert_snapshot!(render(&facts));
}

#[test]
fn snapshot_view_tsx() {
    let facts = extract_fixture(Language::Tsx, "ecmascript/view.tsx");
    insta::assert_snapshot!(render(&facts));
}

#[test]
fn snapshot_store_test_ts() {
    let facts = extract_fixture(Language::TypeScript, "ecmascript/store.test.ts");
    insta::assert_snapshot!(render(&facts));
}

#[test]
fn snapshot_legacy_spec_js() {
    let facts = extract_fixture(Language::JavaScript, "ecmascript/legacy.spec.js");
    insta::assert_snapshot!(render(&facts));
}

// ---------------------------------------------------------------------------------------------
// Targeted assertions
// ---------------------------------------------------------------------------------------------

fn ts(src: &str) -> FileFacts {
    extract(Language::TypeScript, "src/a.ts", src)
}

fn js(src: &str) -> FileFacts {
    extract(Language::JavaScript, "src/a.js", src)
}

fn sym<'a>(facts: &'a FileFacts, qname: &str) -> &'a gortex_core::SymbolFact {
    let i = (0..facts.symbols.len())
        .find(|&i| qualified(facts, i as u32) == qname)
        .unwrap_or_else(|| panic!("no symbol {qname} in:\n{}", render(facts)));
    &facts.symbols[i]
}

fn has_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, recv: &Receiver) -> bool {
    facts.refs.iter().any(|r| {
        r.kind == kind
            && r.name == name
            && &r.receiver == recv
            && r.from.map(|f| qualified(facts, f)).as_deref() == from
    })
}

#[track_caller]
fn assert_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, recv: Receiver) {
    assert!(
        has_ref(facts, kind, from, name, &recv),
        "missing {kind} {from:?} -> {name} {recv:?} in:\n{}",
        render(facts)
    );
}

#[test]
fn arrow_and_function_expressions_are_functions_named_after_the_variable() {
    let f = ts("const a = () => 1;\nlet b = function () {};\nexport const c = async (x: number): Promise<Foo> => x;");
    for n in ["a", "b", "c"] {
        assert_eq!(sym(&f, n).kind, NodeKind::Function, "{n}");
    }
    let c = sym(&f, "c");
    assert!(c.exported && c.is_async);
    assert_eq!(c.return_type.as_deref(), Some("Foo"));
    assert_eq!(
        c.signature.as_deref(),
        Some("const c = async (x: number): Promise<Foo>")
    );
}

#[test]
fn class_members_kinds_and_modifiers() {
    let f = ts("export abstract class A extends B implements I {\n  #p = 1;\n  protected static q: Q;\n  h = () => {};\n  constructor(private repo: Repo) { super(); }\n  static async m(): Promise<void> {}\n  abstract n(): void;\n}");
    let a = sym(&f, "A");
    assert_eq!(a.flavor, Some(TypeFlavor::Class));
    assert!(a.is_abstract && a.exported);
    assert_eq!(sym(&f, "A.p").visibility, Some(Visibility::Private));
    let q = sym(&f, "A.q");
    assert!(q.is_static);
    assert_eq!(q.visibility, Some(Visibility::Protected));
    assert_eq!(q.type_name.as_deref(), Some("Q"));
    assert_eq!(sym(&f, "A.h").kind, NodeKind::Method);
    assert_eq!(sym(&f, "A.constructor").kind, NodeKind::Method);
    let repo = sym(&f, "A.repo");
    assert_eq!(repo.kind, NodeKind::Field);
    assert_eq!(repo.type_name.as_deref(), Some("Repo"));
    let m = sym(&f, "A.m");
    assert!(m.is_static && m.is_async);
    assert!(sym(&f, "A.n").is_abstract);
    assert_ref(&f, EdgeKind::Extends, Some("A"), "B", Receiver::None);
    assert_ref(&f, EdgeKind::Implements, Some("A"), "I", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Calls,
        Some("A.constructor"),
        "constructor",
        Receiver::Super,
    );
    let b = f.bindings.iter().find(|b| b.name == "repo").expect("repo binding");
    assert_eq!(b.scope.map(|s| qualified(&f, s)).as_deref(), Some("A.constructor"));
}

#[test]
fn interfaces_enums_aliases_namespaces() {
    let f = ts("interface I extends J<K> { m(a: A): B; p: P }\ntype T = U | V;\nenum E { X, Y = 2 }\nnamespace N { export function g() {} }");
    assert_eq!(sym(&f, "I").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "I.m").kind, NodeKind::Method);
    assert_eq!(sym(&f, "I.p").kind, NodeKind::Field);
    assert_ref(&f, EdgeKind::Extends, Some("I"), "J", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, Some("I.m"), "A", Receiver::None);
    assert_ref(&f, EdgeKind::Returns, Some("I.m"), "B", Receiver::None);
    assert_eq!(sym(&f, "T").flavor, Some(TypeFlavor::TypeAlias));
    assert_eq!(sym(&f, "E").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "E.Y").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "N").kind, NodeKind::Module);
    assert!(sym(&f, "N.g").exported);
}

#[test]
fn overloads_keep_the_implementation_with_the_first_doc() {
    let f = ts("/** Doc one. */\nfunction f(a: string): void;\nfunction f(a: number): void;\nfunction f(a: any) { g(); }\nclass C { m(): void; m(x?: any) {} }");
    let fs: Vec<_> = f.symbols.iter().filter(|s| s.name == "f").collect();
    assert_eq!(fs.len(), 1, "{}", render(&f));
    assert_eq!(fs[0].span.start_line, 4);
    assert_eq!(fs[0].doc.as_deref(), Some("Doc one."));
    assert_eq!(f.symbols.iter().filter(|s| s.name == "m").count(), 1);
    assert_ref(&f, EdgeKind::Calls, Some("f"), "g", Receiver::None);
}

#[test]
fn generics_are_not_refs_and_arguments_are() {
    let f = ts("function id<T>(x: T, m: Map<Key, Foo<Bar>>): T { return x; }");
    assert!(!f.refs.iter().any(|r| r.name == "T"), "{}", render(&f));
    assert!(!f.refs.iter().any(|r| r.name == "Map"));
    for n in ["Key", "Foo", "Bar"] {
        assert_ref(&f, EdgeKind::TypedAs, Some("id"), n, Receiver::None);
    }
}

#[test]
fn receivers() {
    let f = ts("class C { run() {\n foo(); this.foo(); super.foo(); obj.foo(); a.b.foo(); this.repo.save(); make().run(); new Foo(); new ns.Bar(); x[0].y();\n a.open().b().close(); this.db.client.query(); new Conn().send();\n} }");
    let from = Some("C.run");
    assert_ref(&f, EdgeKind::Calls, from, "foo", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, from, "foo", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, from, "foo", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, from, "foo", Receiver::Name("obj".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        from,
        "foo",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    assert_ref(&f, EdgeKind::Calls, from, "save", Receiver::SelfField("repo".into()));
    assert_ref(&f, EdgeKind::Calls, from, "run", Receiver::Call("make".into()));
    // A chain keeps each call's own receiver; `this` heads a path through fields.
    let opened = Receiver::Chain(Box::new(Receiver::Name("a".into())), "open".into());
    assert_ref(
        &f,
        EdgeKind::Calls,
        from,
        "close",
        Receiver::Chain(Box::new(opened), "b".into()),
    );
    let path = Receiver::Path(vec!["this".into(), "db".into(), "client".into()]);
    assert_ref(&f, EdgeKind::Calls, from, "query", path);
    assert_ref(&f, EdgeKind::Calls, from, "send", Receiver::Call("Conn".into()));
    assert_ref(&f, EdgeKind::Instantiates, from, "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::Instantiates, from, "Bar", Receiver::Name("ns".into()));
    assert_ref(&f, EdgeKind::Calls, from, "y", Receiver::Expr);
}

#[test]
fn bindings() {
    let f =
        ts("function f(s: Store, n: number) {\n const a = new Foo();\n const b = store.open();\n const c: Bar = x;\n}");
    let get = |n: &str| {
        f.bindings
            .iter()
            .find(|b| b.name == n)
            .map(|b| (b.scope.map(|s| qualified(&f, s)), b.value.clone()))
    };
    assert_eq!(
        get("s"),
        Some((Some("f".into()), BindingValue::Type { name: "Store".into() }))
    );
    assert_eq!(get("n"), None, "primitives carry no receiver type");
    assert_eq!(
        get("a"),
        Some((Some("f".into()), BindingValue::Type { name: "Foo".into() }))
    );
    assert_eq!(
        get("b"),
        Some((
            Some("f".into()),
            BindingValue::Call {
                receiver: Receiver::Name("store".into()),
                name: "open".into()
            }
        ))
    );
    assert_eq!(
        get("c"),
        Some((Some("f".into()), BindingValue::Type { name: "Bar".into() }))
    );
}

#[test]
fn decorators_are_recorded_and_referenced() {
    let f = ts("@Component({ a: 1 })\nexport class C {\n  @Input() x: X;\n  @HostListener('click')\n  onClick() {}\n}");
    let c = sym(&f, "C");
    assert_eq!(c.decorators, vec!["Component".to_string()]);
    assert_eq!(sym(&f, "C.x").decorators, vec!["Input".to_string()]);
    assert_eq!(sym(&f, "C.onClick").decorators, vec!["HostListener".to_string()]);
    assert_ref(&f, EdgeKind::References, Some("C"), "Component", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::References,
        Some("C.onClick"),
        "HostListener",
        Receiver::None,
    );
    assert!(!f
        .refs
        .iter()
        .any(|r| r.kind == EdgeKind::Calls && r.name == "Component"));
}

#[test]
fn exports_and_defaults() {
    let f = ts("function a() {}\nfunction b() {}\nconst v = 1;\nexport { a, b as c };\nexport default v;\nexport default function () {}");
    assert!(sym(&f, "a").exported);
    assert!(sym(&f, "b").exported);
    let v = sym(&f, "v");
    assert!(v.exported && v.default_export);
    assert_eq!(v.kind, NodeKind::Constant);
    let d = sym(&f, "default");
    assert!(d.default_export && d.kind == NodeKind::Function);
    let f = js("function a() {}\nconst b = () => {};\nfunction hidden() {}\nmodule.exports = { a, b };");
    assert!(sym(&f, "a").exported && sym(&f, "b").exported && !sym(&f, "hidden").exported);
}

#[test]
fn imports_of_every_shape() {
    let f = ts("import D, { a, b as c } from './m';\nimport * as ns from 'n';\nimport 'side';\nimport type { T } from './t';\nimport x = require('y');\nconst r = require('r');\nconst { p, q: s } = require('pq');\nimport('dyn');\nexport { a as z } from './x';\nexport * from './w';\nexport * as all from './all';");
    let find = |module: &str, local: Option<&str>| {
        f.imports
            .iter()
            .find(|i| i.module == module && i.local.as_deref() == local)
            .unwrap_or_else(|| panic!("{module} {local:?}: {}", render(&f)))
    };
    assert_eq!(find("./m", Some("D")).kind, ImportKind::Default);
    assert_eq!(find("./m", Some("c")).name.as_deref(), Some("b"));
    assert_eq!(find("n", Some("ns")).kind, ImportKind::Namespace);
    assert_eq!(find("side", None).kind, ImportKind::SideEffect);
    assert!(find("./t", Some("T")).type_only);
    assert_eq!(find("y", Some("x")).kind, ImportKind::Module);
    assert_eq!(find("r", Some("r")).kind, ImportKind::Module);
    assert_eq!(find("pq", Some("s")).name.as_deref(), Some("q"));
    assert_eq!(find("pq", Some("p")).kind, ImportKind::Named);
    assert_eq!(find("dyn", None).kind, ImportKind::SideEffect);
    let z = find("./x", Some("z"));
    assert!(z.reexport && z.kind == ImportKind::Named && z.name.as_deref() == Some("a"));
    let w = find("./w", None);
    assert!(w.reexport && w.kind == ImportKind::Wildcard);
    let all = find("./all", Some("all"));
    assert!(all.reexport && all.kind == ImportKind::Namespace);
    assert!(!f.refs.iter().any(|r| r.name == "require"));
}

#[test]
fn jsx_components_are_references() {
    let f = extract(
        Language::Tsx,
        "src/v.tsx",
        "export function V() { return <div><Foo /><ui.Bar x={cb} /></div>; }",
    );
    assert_ref(&f, EdgeKind::References, Some("V"), "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::References, Some("V"), "Bar", Receiver::Name("ui".into()));
    assert_ref(&f, EdgeKind::References, Some("V"), "cb", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "div"));
    let f = js("const V = () => <Foo.Item />;");
    assert_ref(
        &f,
        EdgeKind::References,
        Some("V"),
        "Item",
        Receiver::Name("Foo".into()),
    );
}

#[test]
fn tests_become_symbols_with_runner() {
    let src = "import { test } from 'node:test';\ndescribe('a b', () => { it('c.d', () => { run(); }); });";
    let f = extract(Language::TypeScript, "src/x.test.ts", src);
    assert_eq!(f.test_runner, Some(TestRunner::NodeTest));
    let it = sym(&f, "a_b.c_d");
    assert_eq!(it.test_role, Some(TestRole::Test));
    assert_ref(&f, EdgeKind::Calls, Some("a_b.c_d"), "run", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "describe" || r.name == "it"));
    // Outside test files the same calls are plain calls.
    let f = ts("describe('a', () => {});");
    assert!(f.symbols.is_empty() && f.test_runner.is_none());
    let f = extract(
        Language::JavaScript,
        "test/y.spec.js",
        "import 'mocha';\nit('x', () => {});",
    );
    assert_eq!(f.test_runner, Some(TestRunner::Mocha));
    let f = extract(Language::JavaScript, "test/y.spec.js", "it('x', () => {});");
    assert_eq!(f.test_runner, Some(TestRunner::Jest));
}

#[test]
fn long_test_titles_are_capped() {
    let title = "x ".repeat(100);
    let f = extract(
        Language::JavaScript,
        "a.test.js",
        &format!("it('{title}', () => {{}});"),
    );
    assert!(f.symbols[0].name.chars().count() <= 80);
    assert!(!f.symbols[0].name.contains(' '));
}

// ---------------------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------------------

fn all_languages(src: &[u8]) {
    for (lang, path) in [
        (Language::TypeScript, "a.ts"),
        (Language::Tsx, "a.tsx"),
        (Language::JavaScript, "a.test.js"),
    ] {
        let ctx = gortex_lang::FileContext {
            path,
            is_test_file: path.contains("test"),
        };
        let _ = gortex_lang::extract_file(lang, src, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET);
    }
}

#[test]
fn empty_and_garbage_inputs() {
    all_languages(b"");
    all_languages(b"\xff\xfe\x00class \xc3 { m( } } function");
    all_languages(b"@@@ ))) ((( <<< >>> export default import from require( '");
    all_languages(b"class { constructor(private) {} } interface { } enum { , } namespace");
    let f = ts("class A { m() { foo(");
    assert!(f.syntax_errors > 0);
}

#[test]
fn deep_nesting_does_not_overflow() {
    let n = 10_000;
    let parens = format!("const x = {}1{};", "(".repeat(n), ")".repeat(n));
    let blocks = format!("function f() {{ {} g(); {} }}", "{".repeat(n), "}".repeat(n));
    let calls = format!("{}1{};", "f(".repeat(n), ")".repeat(n));
    let fns = format!("{}{}", "function a() { ".repeat(2000), "}".repeat(2000));
    let types = format!("let t: {}X{};", "A<".repeat(n), ">".repeat(n));
    let jsx = format!("const v = {}{};", "<A>".repeat(3000), "</A>".repeat(3000));
    let objects = format!("const o = {}1{};", "{a:".repeat(n), "}".repeat(n));
    let arrays = format!(
        "const [{}x{}] = {}1{};",
        "[".repeat(n),
        "]".repeat(n),
        "[".repeat(n),
        "]".repeat(n)
    );
    let arrows = format!("const f = {}1;", "(a: A) => ".repeat(n));
    let classes = format!(
        "{}{}",
        "class A { m() { return class B { m() { ".repeat(1000),
        "} } } }".repeat(1000)
    );
    let members = format!("x{};", ".y(z)".repeat(n));
    common::on_small_stack(move || {
        for src in [
            &parens, &blocks, &calls, &fns, &types, &jsx, &objects, &arrays, &arrows, &classes, &members,
        ] {
            all_languages(src.as_bytes());
        }
    });
}

#[test]
fn callback_parameters_are_typed_by_their_callee() {
    let f = ts("function use(work: (s: Store, n: number) => void, cache = new Box()) {}\nuse((s, n) => s.save());\nstore.using(x => x.go());\nnew Task(function (t) { t.run(); });");
    let callback = |receiver: Receiver, callee: &str, param: u32| BindingValue::Callback {
        receiver,
        callee: callee.into(),
        arg: 0,
        param,
    };
    let has = |name: &str, value: BindingValue| {
        assert!(
            f.bindings.iter().any(|b| b.name == name && b.value == value),
            "missing binding {name} = {value:?} in {:#?}",
            f.bindings
        )
    };
    // The callee records what its callback receives; a default value types its parameter.
    has("@0.0", BindingValue::Type { name: "Store".into() });
    has("cache", BindingValue::Type { name: "Box".into() });
    has("s", callback(Receiver::None, "use", 0));
    has("n", callback(Receiver::None, "use", 1));
    has("x", callback(Receiver::Name("store".into()), "using", 0));
    has("t", callback(Receiver::None, "Task", 0));
}
