//! Kotlin dialect of the tagged engine: queries in `grammars/kotlin/`.
//!
//! `package a.b` is the file's package, resolved as Java's is. The grammar writes every type as a
//! `class_declaration`: the keywords say which (`interface`, `enum class`, `data class`,
//! `annotation class`). Members of a `companion object` are the class's static members (the
//! companion is not a node). `fun T.f()` declares an extension: a method of `T`. Visibility
//! defaults to public; locals are not symbols.

use super::tagged::{
    annotation_name, keyword_visibility, role_from_decorators, tag_queries, Dialect, ImportMatch, TagQueries, Tagged,
};
use crate::util::{self, Parents};
use crate::FileContext;
use gortex_core::{ImportFact, Language, NodeKind, SymbolFact, TestRole, TypeFlavor};
use tree_sitter::Node;

/// The Kotlin dialect.
pub(crate) struct Kotlin;

/// Annotations that mark a test (JUnit 4/5, kotlin.test).
const TEST_ANNOTATIONS: [&str; 3] = ["Test", "ParameterizedTest", "RepeatedTest"];
/// Annotations that mark set-up and tear-down functions.
const FIXTURE_ANNOTATIONS: [&str; 8] = [
    "Before",
    "After",
    "BeforeEach",
    "AfterEach",
    "BeforeAll",
    "AfterAll",
    "BeforeTest",
    "AfterTest",
];

impl Dialect for Kotlin {
    fn language(&self) -> Language {
        Language::Kotlin
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_kotlin_ng::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "kotlin")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["."]
    }

    fn file_scope_bindings(&self) -> bool {
        // Class and file-level properties are symbols with a type; `repo.save()` in a method
        // finds `repo` as a member of the class.
        false
    }

    fn written_name(&self, decl: Node<'_>, name: Node<'_>, src: &[u8]) -> Option<String> {
        // `fun Receiver.name()`: the receiver type precedes the name.
        if decl.kind() != "function_declaration" {
            return None;
        }
        let mut cur = decl.walk();
        let receiver = decl
            .children(&mut cur)
            .take_while(|c| c.id() != name.id())
            .filter(|c| matches!(c.kind(), "user_type" | "nullable_type"))
            .last()?;
        let ty = util::simple_type_name(&util::text(receiver, src))?;
        Some(format!("{ty}.{}", util::text(name, src)))
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        // Locals (in a function body, a lambda or an initialiser) are not symbols.
        let mut cur = parents.parent(decl);
        let mut in_companion = false;
        let mut top_level = false;
        let mut steps = 0;
        while let Some(p) = cur {
            match p.kind() {
                "function_body" | "lambda_literal" | "anonymous_initializer" | "getter" | "setter"
                    if !sym.kind.is_callable() || p.kind() != "function_body" =>
                {
                    return false;
                }
                "companion_object" => in_companion = true,
                "class_declaration" | "object_declaration" => break,
                "source_file" => {
                    top_level = true;
                    break;
                }
                _ => {}
            }
            steps += 1;
            if steps > 64 {
                break;
            }
            cur = parents.parent(p);
        }
        let mut words: Vec<String> = Vec::new();
        let mut c = decl.walk();
        for child in decl.children(&mut c) {
            if child.kind() == "modifiers" {
                let mut c2 = child.walk();
                for m in child.named_children(&mut c2) {
                    if m.kind() == "annotation" {
                        sym.decorators.push(annotation_name(&util::text(m, src)));
                    } else {
                        words.push(util::text(m, src).trim().to_string());
                    }
                }
            } else if !child.is_named() {
                words.push(util::text(child, src).trim().to_string());
            }
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        if decl.kind() == "class_declaration" {
            if has("interface") {
                sym.kind = NodeKind::Interface;
                sym.flavor = None;
            } else if has("enum") {
                sym.flavor = Some(TypeFlavor::Enum);
            } else if has("data") {
                sym.flavor = Some(TypeFlavor::Record);
            } else if has("annotation") {
                sym.flavor = Some(TypeFlavor::Annotation);
            }
        }
        keyword_visibility(sym, has);
        sym.is_abstract = has("abstract");
        sym.is_async = has("suspend");
        sym.is_static = in_companion || decl.kind() == "object_declaration";
        if sym.kind == NodeKind::Field && (has("const") || top_level) {
            // File-level properties are variables (constants when `const`).
            sym.kind = if has("const") {
                NodeKind::Constant
            } else {
                NodeKind::Variable
            };
        }
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let text = util::text(m.node, src);
        let body = text
            .trim()
            .trim_start_matches("import")
            .trim()
            .trim_end_matches(';')
            .trim();
        let (path, alias) = match body.split_once(" as ") {
            Some((p, a)) => (p.trim(), Some(a.trim().to_string())),
            None => (body, None),
        };
        let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
        let line = util::line(m.node);
        if let Some(module) = path.strip_suffix(".*") {
            out.push(ImportFact::wildcard(module, line));
        } else if let Some((module, name)) = path.rsplit_once('.') {
            let local = alias.unwrap_or_else(|| name.to_string());
            out.push(ImportFact::named(module, name, local, line));
        }
    }

    fn test_role(&self, sym: &SymbolFact, _ctx: &FileContext<'_>) -> Option<TestRole> {
        role_from_decorators(sym, &TEST_ANNOTATIONS, &FIXTURE_ANNOTATIONS)
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Kotlin> = Tagged(Kotlin);
    &E
}
