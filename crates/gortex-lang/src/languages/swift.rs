//! Swift dialect of the tagged engine: queries in `grammars/swift/`.
//!
//! Swift has no package declaration: every file of a module sees the others' declarations without
//! an import. The module is named from the path, as SwiftPM lays targets out (`Sources/<Target>/…`,
//! `Tests/<Target>/…`); the resolver keeps the name only under a `Package.swift`, and files outside
//! such a target (an Xcode or CocoaPods layout) share the repository's one unnamed module. `import M` (also `@testable import M`, `import struct M.T`)
//! makes module M's declarations visible. The grammar writes classes, structs, enums, actors and
//! extensions as one `class_declaration`; the queries tell them apart by keyword. An extension is
//! not a type of its own: its members are methods of the extended type (computed properties, the
//! only kind an extension may add, included). Visibility: `public`/`open` are exported,
//! `private`/`fileprivate` private, anything else module-internal.

use super::tagged::{annotation_name, role_from_decorators, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use crate::FileContext;
use gortex_core::{ImportFact, Language, NodeKind, SymbolFact, TestRole, Visibility};
use std::borrow::Cow;
use tree_sitter::Node;

/// The Swift dialect.
pub(crate) struct Swift;

/// Attributes that mark a test (Swift Testing's `@Test`).
const TEST_ATTRIBUTES: [&str; 1] = ["Test"];
/// XCTest's set-up and tear-down methods.
const XCTEST_FIXTURES: [&str; 6] = [
    "setUp",
    "tearDown",
    "setUpWithError",
    "tearDownWithError",
    "setUpClass",
    "tearDownClass",
];
/// Declaration keywords an `import` may name before the imported declaration's path.
const IMPORT_KINDS: [&str; 9] = [
    "typealias",
    "struct",
    "class",
    "enum",
    "protocol",
    "let",
    "var",
    "func",
    "actor",
];

/// The module a file belongs to, from its path: the target directory after the last `Sources/`
/// or `Tests/` segment that has one, else the repository's unnamed module (`""`).
pub(crate) fn module_of_path(path: &str) -> String {
    let segments: Vec<&str> = path.split('/').collect();
    // The file name itself is never a target: a target is a directory below `Sources/`.
    let dirs = &segments[..segments.len().saturating_sub(1)];
    for i in (0..dirs.len()).rev() {
        if matches!(dirs[i], "Sources" | "Tests") {
            if let Some(target) = dirs.get(i + 1) {
                return (*target).to_string();
            }
        }
    }
    String::new()
}

/// Blanks conditional-compilation lines (`#if`, `#elseif`, `#else`, `#endif`), keeping every byte
/// offset. The grammar reads directives between statements but loses whole declarations when one
/// sits inside a type body or an argument list; with the lines blanked every branch is parsed,
/// which for declarations is what a reader wants (both platforms' members are listed).
fn blank_directives(source: &[u8]) -> Cow<'_, [u8]> {
    let is_directive = |line: &[u8]| {
        let t = line.trim_ascii_start();
        ["#if", "#elseif", "#else", "#endif"].iter().any(|d| {
            t.strip_prefix(d.as_bytes())
                .is_some_and(|rest| rest.first().is_none_or(|c| c.is_ascii_whitespace() || *c == b'('))
        })
    };
    if !source.split(|&b| b == b'\n').any(is_directive) {
        return Cow::Borrowed(source);
    }
    let mut out = source.to_vec();
    let mut start = 0;
    for line in source.split(|&b| b == b'\n') {
        if is_directive(line) {
            for b in &mut out[start..start + line.len()] {
                if *b != b'\r' {
                    *b = b' ';
                }
            }
        }
        start += line.len() + 1;
    }
    Cow::Owned(out)
}

/// The extended type's name when `decl` is a member of an `extension T { … }` block.
fn extension_owner<'t>(decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> Option<String> {
    let body = parents.parent(decl)?;
    if body.kind() != "class_body" {
        return None;
    }
    let block = parents.parent(body)?;
    if block.kind() != "class_declaration" || block.child_by_field_name("declaration_kind")?.kind() != "extension" {
        return None;
    }
    util::simple_type_name(&util::text(block.child_by_field_name("name")?, src))
}

impl Dialect for Swift {
    fn language(&self) -> Language {
        Language::Swift
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_swift::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "swift")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["."]
    }

    fn prepare<'s>(&self, source: &'s [u8]) -> Cow<'s, [u8]> {
        blank_directives(source)
    }

    fn type_name(&self, text: &str) -> Option<String> {
        // Swift's types are capitalised; a lower-case name is a function whose call initialises
        // a property (`let helper = makeHelper()`), which says nothing of the property's type.
        util::simple_type_name(text).filter(|name| name.starts_with(|c: char| c.is_uppercase()))
    }

    fn self_names(&self) -> &'static [&'static str] {
        &["self", "Self"]
    }

    fn file_scope_bindings(&self) -> bool {
        // Type and file properties are symbols with a type; `repo.save()` in a method finds
        // `repo` as a member of the type.
        false
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        let mut words: Vec<String> = Vec::new();
        let mut c = decl.walk();
        for child in decl.children(&mut c) {
            match child.kind() {
                "modifiers" => {
                    let mut c2 = child.walk();
                    for m in child.named_children(&mut c2) {
                        if m.kind() == "attribute" {
                            sym.decorators.push(annotation_name(&util::text(m, src)));
                        } else {
                            // `private(set)` restricts the setter only, not who may read.
                            let text = util::text(m, src);
                            if !text.replace(' ', "").ends_with("(set)") {
                                words.push(text.trim().to_string());
                            }
                        }
                    }
                }
                "attribute" => sym.decorators.push(annotation_name(&util::text(child, src))),
                // `class func f()` (a type method) writes its keyword outside the modifiers.
                "async" | "class" if !child.is_named() => words.push(child.kind().to_string()),
                _ => {}
            }
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        let visibility = if has("public") || has("open") {
            Visibility::Public
        } else if has("private") || has("fileprivate") {
            Visibility::Private
        } else {
            Visibility::Package
        };
        sym.visibility = Some(visibility);
        sym.exported = visibility == Visibility::Public;
        sym.is_static = has("static") || has("class");
        sym.is_async = has("async");
        if let Some(owner) = extension_owner(decl, src, parents) {
            // A member of `extension T`: a method of T declared away from it. Extensions hold no
            // stored properties, so a property here is computed: an accessor method.
            if matches!(sym.kind, NodeKind::Field | NodeKind::Function | NodeKind::Method) {
                if sym.kind == NodeKind::Field {
                    sym.return_type = sym.type_name.take();
                }
                sym.kind = NodeKind::Method;
                sym.type_name = Some(owner);
            }
        }
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        // The path is the statement's last word: attributes and the declaration keyword come first.
        let text = util::text(m.node, src);
        let mut words = text.split_whitespace().skip_while(|w| *w != "import").skip(1);
        let Some(mut path) = words.next() else { return };
        if IMPORT_KINDS.contains(&path) {
            let Some(next) = words.next() else { return };
            path = next;
        }
        let line = util::line(m.node);
        match path.split_once('.') {
            // `import struct M.T` (or `import M.Submodule`): module M, the name T.
            Some((module, rest)) if !module.is_empty() && !rest.is_empty() => {
                let name = rest.rsplit('.').next().unwrap_or(rest);
                out.push(ImportFact::named(module, name, name.to_string(), line));
            }
            _ if !path.is_empty() => out.push(ImportFact::wildcard(path, line)),
            _ => {}
        }
    }

    fn path_package(&self, ctx: &FileContext<'_>) -> Option<String> {
        Some(module_of_path(ctx.path))
    }

    fn test_role(&self, sym: &SymbolFact, ctx: &FileContext<'_>) -> Option<TestRole> {
        if let Some(role) = role_from_decorators(sym, &TEST_ATTRIBUTES, &[]) {
            return Some(role);
        }
        // XCTest: `test…` methods and the set-up/tear-down overrides of a test file's cases.
        if !ctx.is_test_file || sym.kind != NodeKind::Method {
            return None;
        }
        if sym.name.starts_with("test") {
            Some(TestRole::Test)
        } else if XCTEST_FIXTURES.contains(&sym.name.as_str()) {
            Some(TestRole::Fixture)
        } else {
            None
        }
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Swift> = Tagged(Swift);
    &E
}

#[cfg(test)]
mod tests {
    use super::{blank_directives, module_of_path, Cow};

    #[test]
    fn directive_lines_are_blanked_in_place() {
        let src = b"class A {\n  #if os(iOS)\n  func a() {}\n  #else\n  func b() {}\n  #endif\n}\n#ifdef x\n";
        let out = blank_directives(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "class A {\n             \n  func a() {}\n       \n  func b() {}\n        \n}\n#ifdef x\n"
        );
        assert!(matches!(blank_directives(b"func a() {}\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn modules_are_swiftpm_targets_or_the_unnamed_one() {
        assert_eq!(module_of_path("Sources/Shop/Models/Item.swift"), "Shop");
        assert_eq!(module_of_path("Tests/ShopTests/ItemTests.swift"), "ShopTests");
        assert_eq!(module_of_path("pkgs/core/Sources/Core/A.swift"), "Core");
        assert_eq!(module_of_path("ios/Core/A.swift"), "");
        assert_eq!(module_of_path("Sources/main.swift"), "");
        assert_eq!(module_of_path("Package.swift"), "");
    }
}
