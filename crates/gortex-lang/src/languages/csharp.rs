//! C# dialect of the tagged engine: queries in `grammars/csharp/`.
//!
//! Namespaces are the file's package, as Java packages are: the resolver finds types of the same
//! and enclosing namespaces without imports, and `using A.B;` imports a namespace. Modifiers set
//! visibility (members default to private, top-level types to internal); attributes are
//! decorators, and test attributes (`[Test]`, `[Fact]`, …) make tests. A base type named like
//! an interface (`IName`) is implemented, any other extended.

use super::tagged::{role_from_decorators, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use crate::FileContext;
use gortex_core::{DocComment, EdgeKind, ImportFact, Language, NodeKind, SymbolFact, TestRole, Visibility};
use tree_sitter::Node;

/// The C# dialect.
pub(crate) struct CSharp;

/// Attributes that mark a test method (NUnit, xUnit, MSTest).
const TEST_ATTRIBUTES: [&str; 6] = ["Test", "TestCase", "Fact", "Theory", "TestMethod", "DataTestMethod"];
/// Attributes that mark set-up and tear-down methods.
const FIXTURE_ATTRIBUTES: [&str; 6] = [
    "SetUp",
    "TearDown",
    "OneTimeSetUp",
    "OneTimeTearDown",
    "TestInitialize",
    "TestCleanup",
];

impl Dialect for CSharp {
    fn language(&self) -> Language {
        Language::CSharp
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_c_sharp::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "csharp")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["."]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &["base"]
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        let mut modifiers: Vec<String> = Vec::new();
        let mut cur = decl.walk();
        for child in decl.children(&mut cur) {
            match child.kind() {
                "modifier" => modifiers.push(util::text(child, src).trim().to_string()),
                "attribute_list" => {
                    let mut c2 = child.walk();
                    for attr in child.named_children(&mut c2).filter(|a| a.kind() == "attribute") {
                        if let Some(name) = attr.child_by_field_name("name") {
                            let text = util::text(name, src);
                            let simple = text.rsplit('.').next().unwrap_or(&text);
                            sym.decorators
                                .push(simple.strip_suffix("Attribute").unwrap_or(simple).to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        // Fields declare through a nested variable_declaration: modifiers sit on the statement.
        let has = |m: &str| modifiers.iter().any(|x| x == m);
        let in_type = parents
            .parent(decl)
            .is_some_and(|p| matches!(p.kind(), "declaration_list" | "enum_member_declaration_list"))
            && parents
                .parent(decl)
                .and_then(|p| parents.parent(p))
                .is_some_and(|g| g.kind().ends_with("_declaration") && g.kind() != "namespace_declaration");
        let in_interface = parents
            .parent(decl)
            .and_then(|p| parents.parent(p))
            .is_some_and(|g| g.kind() == "interface_declaration");
        let visibility = if has("public") || sym.kind == NodeKind::EnumMember || (in_interface && !has("private")) {
            Visibility::Public
        } else if has("protected") {
            Visibility::Protected
        } else if has("internal") {
            Visibility::Package
        } else if has("private") || in_type {
            Visibility::Private
        } else {
            Visibility::Package
        };
        sym.visibility = Some(visibility);
        sym.exported = visibility == Visibility::Public;
        sym.is_static = has("static") || has("const");
        sym.is_abstract = has("abstract") || (in_interface && sym.kind == NodeKind::Method && !has("static"));
        sym.is_async = has("async");
        if has("const") && sym.kind == NodeKind::Field {
            sym.kind = NodeKind::Constant;
        }
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let node = m.node;
        let alias = node
            .child_by_field_name("name")
            .map(|n| util::text(n, src).into_owned());
        // The imported name: the last named child that is a name (not the alias).
        let mut cur = node.walk();
        let target = node
            .named_children(&mut cur)
            .filter(|c| Some(c.id()) != node.child_by_field_name("name").map(|n| n.id()))
            .filter(|c| {
                matches!(
                    c.kind(),
                    "identifier" | "qualified_name" | "generic_name" | "alias_qualified_name"
                )
            })
            .last();
        let Some(target) = target else { return };
        let path: String = util::text(target, src).chars().filter(|c| !c.is_whitespace()).collect();
        let line = util::line(node);
        let fact = match (alias, path.rsplit_once('.')) {
            // using X = A.B.C;
            (Some(alias), Some((module, name))) => ImportFact::named(module, name, alias, line),
            (Some(alias), None) => ImportFact::module(path.clone(), Some(alias), line),
            // using A.B;  using static A.B.C;  (a class's static members, like Java's static *)
            (None, _) => ImportFact::wildcard(path, line),
        };
        out.push(fact);
    }

    fn doc(&self, raw: &str) -> Option<DocComment> {
        util::doc_comment(&strip_xml_tags(raw))
    }

    fn ref_kind(&self, kind: EdgeKind, name: &str) -> EdgeKind {
        // `class A : Base, IDisposable`: the grammar cannot tell a class from an interface; the
        // naming convention can.
        let interface_like =
            name.len() > 1 && name.starts_with('I') && name[1..].chars().next().is_some_and(|c| c.is_ascii_uppercase());
        if kind == EdgeKind::Extends && interface_like {
            EdgeKind::Implements
        } else {
            kind
        }
    }

    fn test_role(&self, sym: &SymbolFact, _ctx: &FileContext<'_>) -> Option<TestRole> {
        role_from_decorators(sym, &TEST_ATTRIBUTES, &FIXTURE_ATTRIBUTES)
    }
}

/// `/// <summary>Text <see cref="X"/>.</summary>` → `/// Text X.`: XML doc tags dropped, the
/// `cref`/`name` of self-closing references kept.
fn strip_xml_tags(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let tag = &rest[open + 1..open + close];
        if tag.ends_with('/') {
            if let Some(v) = tag.split('"').nth(1) {
                out.push_str(v.rsplit('.').next().unwrap_or(v));
            }
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<CSharp> = Tagged(CSharp);
    &E
}
