mod common;

use common::{extract, extract_fixture, qualified, render};
use gortex_core::{
    BindingValue, EdgeKind, FileFacts, ImportKind, Language, NodeKind, Receiver, TestRole, TestRunner, TypeFlavor,
    Visibility,
};

fn py(source: &str) -> FileFacts {
    extract(Language::Python, "pkg/mod.py", source)
}

fn sym<'a>(facts: &'a FileFacts, qname: &str) -> &'a gortex_core::SymbolFact {
    let i = (0..facts.symbols.len())
        .find(|&i| qualified(facts, i as u32) == qname)
        .unwrap_or_else(|| panic!("no symbol {qname} in:\n{}", render(facts)));
    &facts.symbols[i]
}

fn has_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, receiver: &Receiver) -> bool {
    facts.refs.iter().any(|r| {
        r.kind == kind
            && r.name == name
            && &r.receiver == receiver
            && r.from.map(|f| qualified(facts, f)).as_deref() == from
    })
}

fn assert_ref(facts: &FileFacts, kind: EdgeKind, from: Option<&str>, name: &str, receiver: Receiver) {
    assert!(
        has_ref(facts, kind, from, name, &receiver),
        "missing {kind} {from:?} -> {name} {receiver:?} in:\n{}",
        render(facts)
    );
}

fn binding<'a>(facts: &'a FileFacts, scope: Option<&str>, name: &str) -> &'a BindingValue {
    &facts
        .bindings
        .iter()
        .find(|b| b.name == name && b.scope.map(|s| qualified(facts, s)).as_deref() == scope)
        .unwrap_or_else(|| panic!("no binding {name} in {scope:?}:\n{}", render(facts)))
        .value
}

#[test]
fn snapshot_service() {
    let facts = extract_fixture(Language::Python, "python/service.py");
    insta::assert_snapshot!("python_service", render(&facts));
}

#[test]
fn snapshot_pytest() {
    let facts = extract_fixture(Language::Python, "python/test_orders.py");
    insta::assert_snapshot!("python_test_orders", render(&facts));
}

#[test]
fn snapshot_unittest() {
    let facts = extract_fixture(Language::Python, "python/test_unit.py");
    insta::assert_snapshot!("python_test_unit", render(&facts));
}

#[test]
fn functions_methods_and_modifiers() {
    let f = py(r#"
async def fetch(url: str) -> Response:
    """Fetch a URL. More text."""

class C:
    @staticmethod
    def s(): pass
    @classmethod
    def k(cls): pass
    @property
    def p(self): return 1
    @abstractmethod
    def a(self): pass
    def __eq__(self, o): pass
    def _hidden(self): pass
    def outer(self):
        def nested(): pass
        class Inner: pass
"#);
    let fetch = sym(&f, "fetch");
    assert_eq!(fetch.kind, NodeKind::Function);
    assert!(fetch.is_async);
    assert_eq!(fetch.return_type.as_deref(), Some("Response"));
    assert_eq!(fetch.doc.as_deref(), Some("Fetch a URL."));
    assert_eq!(
        fetch.signature.as_deref(),
        Some("async def fetch(url: str) -> Response")
    );
    assert!(fetch.exported);
    assert_eq!(sym(&f, "C.s").kind, NodeKind::Method);
    assert!(sym(&f, "C.s").is_static);
    assert_eq!(sym(&f, "C.k").decorators, vec!["classmethod"]);
    assert_eq!(sym(&f, "C.p").decorators, vec!["property"]);
    assert!(sym(&f, "C.a").is_abstract);
    assert_eq!(sym(&f, "C.__eq__").visibility, Some(Visibility::Public));
    assert_eq!(sym(&f, "C._hidden").visibility, Some(Visibility::Private));
    assert!(!sym(&f, "C._hidden").exported);
    assert_eq!(sym(&f, "C.outer.nested").kind, NodeKind::Function);
    assert!(!sym(&f, "C.outer.nested").exported);
    assert_eq!(sym(&f, "C.outer.Inner").kind, NodeKind::Type);
    assert_eq!(sym(&f, "C").flavor, Some(TypeFlavor::Class));
}

#[test]
fn decorators_record_text_and_reference_last_segment() {
    let f = py("@app.route('/x')\ndef view(): pass\n\n@a.b.deco\nclass K: pass\n");
    assert_eq!(sym(&f, "view").decorators, vec!["app.route"]);
    // `@app.route('/x')` calls its decorator for `view`; the bare `@a.b.deco` refers to it.
    assert_ref(&f, EdgeKind::Calls, Some("view"), "route", Receiver::Name("app".into()));
    assert_ref(
        &f,
        EdgeKind::References,
        Some("K"),
        "deco",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    // The decorator call is reported once, from the function, not again from where it sits.
    assert!(
        f.refs.iter().filter(|r| r.name == "route").count() == 1,
        "{}",
        render(&f)
    );
}

#[test]
fn variables_constants_fields() {
    let f = py(r#"
MAX = 3
_secret = 1
conf: Settings = load()
svc = mod.Service()
class C:
    size: int = 0
    owner: Optional[User] = None
    def __init__(self, repo: Repo):
        self.repo = repo
        self.db = Database()
        self.repo = other
        x = 1
    def later(self):
        self.tmp = 2
"#);
    assert_eq!(sym(&f, "MAX").kind, NodeKind::Constant);
    assert_eq!(sym(&f, "_secret").kind, NodeKind::Variable);
    assert_eq!(sym(&f, "_secret").visibility, Some(Visibility::Private));
    assert_eq!(sym(&f, "conf").type_name.as_deref(), Some("Settings"));
    assert_eq!(sym(&f, "svc").type_name.as_deref(), Some("Service"));
    assert_eq!(sym(&f, "C.size").kind, NodeKind::Field);
    assert_eq!(sym(&f, "C.size").type_name.as_deref(), Some("int"));
    assert_eq!(sym(&f, "C.owner").type_name.as_deref(), Some("User"));
    assert_eq!(sym(&f, "C.repo").kind, NodeKind::Field);
    assert_eq!(
        sym(&f, "C.repo").type_name.as_deref(),
        Some("Repo"),
        "typed parameter assigned to self.repo"
    );
    assert_eq!(sym(&f, "C.db").type_name.as_deref(), Some("Database"));
    assert_eq!(
        f.symbols.iter().filter(|s| s.name == "repo").count(),
        1,
        "{}",
        render(&f)
    );
    assert!(
        !f.symbols.iter().any(|s| s.name == "x" || s.name == "tmp"),
        "{}",
        render(&f)
    );
    assert_ref(&f, EdgeKind::TypedAs, Some("C.owner"), "User", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, Some("conf"), "Settings", Receiver::None);
}

#[test]
fn size_field_type_is_builtin_name() {
    // Builtin annotations give no TypedAs ref.
    let f = py("class C:\n    n: int = 0\n");
    assert!(f.refs.is_empty(), "{}", render(&f));
}

#[test]
fn enums_protocols_abcs() {
    let f = py(r#"
class Color(enum.Enum):
    RED = 1
    GREEN = 2
class Proto(Protocol[T]):
    def m(self) -> None: ...
class Abstract(ABC):
    pass
class Meta(metaclass=ABCMeta):
    pass
class Child(Base, Generic[T], object):
    pass
"#);
    assert_eq!(sym(&f, "Color").flavor, Some(TypeFlavor::Enum));
    assert_eq!(sym(&f, "Color.RED").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Proto").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Abstract").kind, NodeKind::Interface);
    assert_eq!(sym(&f, "Meta").kind, NodeKind::Interface);
    assert_ref(&f, EdgeKind::Extends, Some("Child"), "Base", Receiver::None);
    assert_ref(
        &f,
        EdgeKind::Extends,
        Some("Color"),
        "Enum",
        Receiver::Name("enum".into()),
    );
    for skipped in ["Generic", "object", "Protocol", "ABC"] {
        assert!(
            !f.refs.iter().any(|r| r.kind == EdgeKind::Extends && r.name == skipped),
            "{skipped}: {}",
            render(&f)
        );
    }
}

#[test]
fn imports_all_shapes() {
    let f = py(r#"
import a.b.c
import a.b as ab
from a.b import c, d as e
from . import x
from ..pkg.mod import y
from m import *
def f():
    import inner
__all__ = ["e", "f"]
"#);
    let find = |local: Option<&str>, module: &str| {
        f.imports
            .iter()
            .find(|i| i.module == module && i.local.as_deref() == local)
            .unwrap_or_else(|| panic!("no import {module} {local:?}: {}", render(&f)))
    };
    assert_eq!(find(Some("a"), "a.b.c").kind, ImportKind::Module);
    assert_eq!(find(Some("ab"), "a.b").kind, ImportKind::Module);
    assert_eq!(find(Some("c"), "a.b").name.as_deref(), Some("c"));
    let e = find(Some("e"), "a.b");
    assert_eq!(
        (e.kind, e.name.as_deref(), e.reexport),
        (ImportKind::Named, Some("d"), true)
    );
    assert!(!find(Some("c"), "a.b").reexport);
    assert_eq!(find(Some("x"), ".").kind, ImportKind::Named);
    assert_eq!(find(Some("y"), "..pkg.mod").name.as_deref(), Some("y"));
    assert_eq!(find(None, "m").kind, ImportKind::Wildcard);
    assert_eq!(find(Some("inner"), "inner").line, 9);
    assert!(sym(&f, "f").exported);
}

#[test]
fn dunder_all_controls_exports() {
    let f = py("__all__ = ['pub']\n__all__ += ['extra']\ndef pub(): pass\ndef other(): pass\ndef extra(): pass\n");
    assert!(sym(&f, "pub").exported);
    assert!(sym(&f, "extra").exported);
    assert!(!sym(&f, "other").exported);
}

#[test]
fn type_checking_imports_are_type_only() {
    let f = py("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .repo import Repo\n");
    assert!(
        f.imports
            .iter()
            .any(|i| i.local.as_deref() == Some("Repo") && i.type_only),
        "{}",
        render(&f)
    );
    assert!(f
        .imports
        .iter()
        .any(|i| i.local.as_deref() == Some("TYPE_CHECKING") && !i.type_only));
}

#[test]
fn call_receivers() {
    let f = py(r#"
class S(B):
    def m(self):
        foo()
        self.foo()
        super().foo()
        cls.foo()
        obj.foo()
        a.b.foo()
        self.repo.save()
        make().run()
        Foo()
        xs[0].go()
        a.open().close()
        self.db.client.query()
"#);
    let m = Some("S.m");
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::Super);
    assert_ref(&f, EdgeKind::Calls, m, "foo", Receiver::Name("obj".into()));
    assert_ref(
        &f,
        EdgeKind::Calls,
        m,
        "foo",
        Receiver::Path(vec!["a".into(), "b".into()]),
    );
    assert_ref(&f, EdgeKind::Calls, m, "save", Receiver::SelfField("repo".into()));
    assert_ref(&f, EdgeKind::Calls, m, "run", Receiver::Call("make".into()));
    let opened = Receiver::Chain(Box::new(Receiver::Name("a".into())), "open".into());
    assert_ref(&f, EdgeKind::Calls, m, "close", opened);
    let path = Receiver::Path(vec!["self".into(), "db".into(), "client".into()]);
    assert_ref(&f, EdgeKind::Calls, m, "query", path);
    assert_ref(&f, EdgeKind::Calls, m, "Foo", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, m, "go", Receiver::Expr);
    assert_eq!(
        f.refs
            .iter()
            .filter(|r| r.kind == EdgeKind::Calls && r.receiver == Receiver::SelfRef)
            .count(),
        2
    );
    assert!(!f.refs.iter().any(|r| r.name == "super"), "{}", render(&f));
}

#[test]
fn calls_after_self_fields_stay_in_the_method() {
    let f = py("class C:\n    def __init__(self):\n        self.a = make()\n        self.b = 1\n        go()\n");
    assert_ref(&f, EdgeKind::Calls, Some("C.__init__"), "make", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, Some("C.__init__"), "go", Receiver::None);
}

#[test]
fn annotations_and_bindings() {
    let f = py(r#"
def f(a: Foo, b: Optional[Bar] = None, c: "Baz" = None, d: list[Qux] = [], e: Foo | None = None, n: int = 0) -> Optional[Result]:
    x = Widget()
    y = mod.Gadget()
    z = factory.make()
    w: Thing = get()
    v = await loader.load()
    return x
g = Global()
"#);
    for t in ["Foo", "Bar", "Baz", "Qux", "Thing"] {
        assert_ref(&f, EdgeKind::TypedAs, Some("f"), t, Receiver::None);
    }
    assert!(
        !f.refs
            .iter()
            .any(|r| r.name == "int" || r.name == "Optional" || r.name == "None"),
        "{}",
        render(&f)
    );
    assert_ref(&f, EdgeKind::Returns, Some("f"), "Result", Receiver::None);
    assert_eq!(sym(&f, "f").return_type.as_deref(), Some("Result"));
    let ty = |n: &str| BindingValue::Type { name: n.into() };
    assert_eq!(binding(&f, Some("f"), "a"), &ty("Foo"));
    assert_eq!(binding(&f, Some("f"), "b"), &ty("Bar"));
    assert_eq!(binding(&f, Some("f"), "c"), &ty("Baz"));
    assert_eq!(binding(&f, Some("f"), "e"), &ty("Foo"));
    assert_eq!(binding(&f, Some("f"), "x"), &ty("Widget"));
    // Through a module: the resolver follows `mod` to the class.
    assert_eq!(
        binding(&f, Some("f"), "y"),
        &BindingValue::Call {
            receiver: Receiver::Name("mod".into()),
            name: "Gadget".into()
        }
    );
    assert_eq!(binding(&f, Some("f"), "w"), &ty("Thing"));
    assert_eq!(
        binding(&f, Some("f"), "z"),
        &BindingValue::Call {
            receiver: Receiver::Name("factory".into()),
            name: "make".into()
        }
    );
    assert_eq!(
        binding(&f, Some("f"), "v"),
        &BindingValue::Call {
            receiver: Receiver::Name("loader".into()),
            name: "load".into()
        }
    );
    assert_eq!(binding(&f, None, "g"), &ty("Global"));
    assert!(!f.bindings.iter().any(|b| b.name == "n"), "{}", render(&f));
}

#[test]
fn unannotated_returns_are_inferred_from_one_constructed_class() {
    let f = py(r#"
def make(flag):
    if flag:
        return Session()
    return Session()

def mixed(flag):
    if flag:
        return Session()
    return Other()

def nested():
    def inner():
        return Other()
    return Session()

def dotted():
    return mod.Session()

class Builder:
    def chain(self):
        return self

    @classmethod
    def create(cls):
        return cls()

    def nothing(self):
        return
"#);
    let ret = |q: &str| sym(&f, q).return_type.clone();
    assert_eq!(ret("make").as_deref(), Some("Session"));
    assert_eq!(ret("mixed"), None, "two classes returned: no evidence");
    assert_eq!(
        ret("nested").as_deref(),
        Some("Session"),
        "a nested function's returns are its own"
    );
    assert_eq!(ret("dotted"), None);
    assert_eq!(ret("Builder.chain").as_deref(), Some("Builder"));
    assert_eq!(ret("Builder.create").as_deref(), Some("Builder"));
    assert_eq!(ret("Builder.nothing"), None);
}

#[test]
fn callbacks_are_references() {
    let f = py(r#"
import mod
from lib import handler
def local_fn(): pass
class K:
    def m(self, xs):
        map(local_fn, xs)
        register(callback=handler)
        run(self.on_done, target=mod.work)
    def on_done(self): pass
"#);
    assert_ref(&f, EdgeKind::References, Some("K.m"), "local_fn", Receiver::None);
    assert_ref(&f, EdgeKind::References, Some("K.m"), "handler", Receiver::None);
    assert_ref(&f, EdgeKind::References, Some("K.m"), "on_done", Receiver::SelfRef);
    assert_ref(
        &f,
        EdgeKind::References,
        Some("K.m"),
        "work",
        Receiver::Name("mod".into()),
    );
    assert!(
        !f.refs.iter().any(|r| r.kind == EdgeKind::References && r.name == "xs"),
        "{}",
        render(&f)
    );
}

#[test]
fn pytest_roles() {
    let f = extract(
        Language::Python,
        "tests/test_x.py",
        "import pytest\n@pytest.fixture\ndef db(): pass\ndef test_a(db): pass\ndef helper(): pass\n",
    );
    assert_eq!(f.test_runner, Some(TestRunner::Pytest));
    assert_eq!(sym(&f, "db").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "test_a").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "helper").test_role, None);
    // Plain test functions without a pytest import are still pytest.
    let g = extract(Language::Python, "x_test.py", "def test_b(): assert True\n");
    assert_eq!(g.test_runner, Some(TestRunner::Pytest));
    // Not a test file: no runner, no roles.
    let h = extract(Language::Python, "src/app.py", "def test_connection(): pass\n");
    assert_eq!(h.test_runner, None);
    assert_eq!(sym(&h, "test_connection").test_role, None);
}

#[test]
fn unittest_roles() {
    let f = extract(
        Language::Python,
        "tests/test_y.py",
        "import unittest\nclass T(unittest.TestCase):\n    def setUp(self): pass\n    def testIt(self): pass\n    def helper(self): pass\n",
    );
    assert_eq!(f.test_runner, Some(TestRunner::Unittest));
    assert_eq!(sym(&f, "T.testIt").test_role, Some(TestRole::Test));
    assert_eq!(sym(&f, "T.setUp").test_role, Some(TestRole::Fixture));
    assert_eq!(sym(&f, "T.helper").test_role, None);
}

// ---- robustness ---------------------------------------------------------------------------------

fn extract_bytes(bytes: &[u8]) -> FileFacts {
    let ctx = gortex_lang::FileContext {
        path: "x.py",
        is_test_file: false,
    };
    gortex_lang::extract_file(Language::Python, bytes, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET).expect("extracts")
}

#[test]
fn empty_and_garbage_inputs() {
    assert!(py("").symbols.is_empty());
    let f = extract_bytes(b"def \xff\xfe(x):\n    return \xc3\x28\nclass \x80:\n  pass\n");
    let _ = render(&f);
    let g = py("))) def class ( : = import from . * @@ lambda ::: \n\t\tclass\n  def f(:\n");
    assert!(g.syntax_errors > 0);
    let _ = render(&g);
}

#[test]
fn python2_code_does_not_panic() {
    let f = py("print 'hello'\nexec 'x = 1'\ntry:\n    pass\nexcept Exception, e:\n    print e\ndef f(a, (b, c)):\n    return `a`\n");
    let _ = render(&f);
    assert!(f.symbols.iter().any(|s| s.name == "f"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    // Deep but within the tree-depth limit (a call nests two levels: call, argument list).
    let n = 1_500;
    let mut src = String::from("x = ");
    for _ in 0..n {
        src.push_str("f(");
    }
    for _ in 0..n {
        src.push(')');
    }
    src.push('\n');
    src.push_str("y = ");
    src.push_str(&"[".repeat(n));
    src.push_str(&"]".repeat(n));
    src.push('\n');
    src.push_str("z = a");
    src.push_str(&".b".repeat(n));
    src.push_str(".c()\n");
    let t = std::time::Instant::now();
    let f = py(&src);
    assert!(t.elapsed().as_secs() < 5, "deep expressions took {:?}", t.elapsed());
    assert!(f.refs.iter().filter(|r| r.name == "f").count() == n);
    // Deeply nested blocks too (one space per level keeps the file small), as deep as
    // declarations may nest, and deeper.
    let blocks = |levels: usize| {
        let mut blocks = String::new();
        for i in 0..levels {
            blocks.push_str(&" ".repeat(i));
            blocks.push_str(if i % 2 == 0 { "def f():\n" } else { "class C:\n" });
        }
        blocks.push_str(&" ".repeat(levels));
        blocks.push_str("self.x = g()\n");
        blocks
    };
    let levels = gortex_lang::MAX_SYMBOL_DEPTH + 1;
    let g = py(&blocks(levels));
    assert!(g.symbols.len() >= levels, "{}", g.symbols.len());
    assert_eq!(g.syntax_errors, 0);
    assert!(common::extract_within_limits(Language::Python, "a.py", &blocks(levels + 1)).is_none());
    // Unbalanced opening brackets only: within the limit on query work, and past it.
    let h = py(&"(".repeat(1_000));
    let _ = render(&h);
    assert!(common::extract_within_limits(Language::Python, "a.py", &"(".repeat(10_000)).is_none());
}

#[test]
fn type_aliases() {
    let f = py("type Pair = tuple[Node, Node]\nUserId: TypeAlias = int\n");
    assert_eq!(sym(&f, "Pair").flavor, Some(TypeFlavor::TypeAlias));
    assert_eq!(sym(&f, "UserId").flavor, Some(TypeFlavor::TypeAlias));
    assert_ref(&f, EdgeKind::References, Some("Pair"), "Node", Receiver::None);
}
