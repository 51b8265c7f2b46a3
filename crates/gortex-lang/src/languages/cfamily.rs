//! C and C++ dialects of the tagged engine: queries in `grammars/c/` and `grammars/cpp/`.
//!
//! What the queries cannot say lives here: `static` means file-private at file scope and
//! class-level at member scope; C++ members take the access of the nearest `public:` /
//! `protected:` / `private:` label above them (classes default to private, structs to public);
//! locals are not symbols; `#include` is a wildcard import (the resolver follows includes
//! transitively); headers are read as C++ when their text says so.

use super::tagged::{self, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
#[cfg(feature = "cpp")]
use crate::FileContext;
#[cfg(feature = "cpp")]
use gortex_core::TestRole;
use gortex_core::{ImportFact, Language, NodeKind, SymbolFact, Visibility};
#[cfg(feature = "cpp")]
use std::borrow::Cow;
use tree_sitter::Node;

/// The C dialect.
#[cfg(feature = "c")]
pub(crate) struct C;

/// The C++ dialect.
#[cfg(feature = "cpp")]
pub(crate) struct Cpp;

#[cfg(feature = "c")]
impl Dialect for C {
    fn language(&self) -> Language {
        Language::C
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_c::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "c")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["::"]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        decorate(sym, decl, src, parents, false)
    }

    fn file_scope_bindings(&self) -> bool {
        false
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        include(m, src, out)
    }
}

#[cfg(feature = "cpp")]
impl Dialect for Cpp {
    fn language(&self) -> Language {
        Language::Cpp
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_cpp::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "cpp")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["::"]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &["this"]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        decorate(sym, decl, src, parents, true)
    }

    fn file_scope_bindings(&self) -> bool {
        false
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        include(m, src, out)
    }

    fn prepare<'s>(&self, source: &'s [u8]) -> Cow<'s, [u8]> {
        blank_class_macros(source)
    }

    fn written_name(&self, _decl: Node<'_>, name: Node<'_>, src: &[u8]) -> Option<String> {
        gtest_name(name, src)
    }

    fn type_name(&self, text: &str) -> Option<String> {
        std_type_name(text)
    }

    fn test_role(&self, sym: &SymbolFact, ctx: &FileContext<'_>) -> Option<TestRole> {
        let gtest = sym.signature.as_deref().is_some_and(|s| {
            GTEST_MACROS
                .iter()
                .any(|m| s.strip_prefix(m).is_some_and(|r| r.starts_with('(')))
        });
        let named = ctx.is_test_file && sym.kind.is_callable() && sym.name.to_ascii_lowercase().starts_with("test");
        (gtest || named).then_some(TestRole::Test)
    }
}

#[cfg(feature = "cpp")]
/// A declared type's name; standard-library types keep their `std::` prefix (`const
/// std::string&` → `std::string`) so the resolver can tell them from the repository's own.
fn std_type_name(text: &str) -> Option<String> {
    let simple = util::simple_type_name(text)?;
    let head = text
        .trim()
        .trim_start_matches("const ")
        .trim_start_matches("typename ")
        .trim_start();
    if head.starts_with("std::") || head.starts_with("::std::") {
        return Some(format!("std::{simple}"));
    }
    Some(simple)
}

#[cfg(feature = "cpp")]
/// GoogleTest's test-defining macros: `TEST(Suite, Name) { … }` and the fixture forms.
const GTEST_MACROS: [&str; 6] = ["TEST_F", "TEST_P", "TYPED_TEST_P", "TYPED_TEST", "TEST", "FRIEND_TEST"];

#[cfg(feature = "cpp")]
/// `TEST_F(Suite, Name) { … }` parses as a function named `TEST_F`: it defines `Suite::Name`, a
/// method of the fixture class (so fixture members resolve inside it); `TEST(Suite, Name)`
/// defines the function `Suite_Name`.
fn gtest_name(name: Node<'_>, src: &[u8]) -> Option<String> {
    let macro_name = util::text(name, src);
    if !GTEST_MACROS.contains(&macro_name.as_ref()) {
        return None;
    }
    let params = name.next_named_sibling().filter(|p| p.kind() == "parameter_list")?;
    let mut cur = params.walk();
    let args: Vec<String> = params
        .named_children(&mut cur)
        .map(|p| util::text(p, src).trim().to_string())
        .collect();
    let [suite, test] = args.as_slice() else { return None };
    if !suite.chars().all(|c| c.is_alphanumeric() || c == '_') || !test.chars().all(|c| c.is_alphanumeric() || c == '_')
    {
        return None;
    }
    Some(if macro_name == "TEST" {
        format!("{suite}_{test}")
    } else {
        format!("{suite}::{test}")
    })
}

#[cfg(feature = "cpp")]
/// Blanks export/visibility macros between a class key and the class name (`class
/// LEVELDB_EXPORT DB {`, `struct ABSL_ATTRIBUTE Foo :`), which the grammar would read as a
/// function definition. The macro must be upper-case and be followed by a name and then `{`,
/// `:` or `final`; the copy keeps every byte offset.
fn blank_class_macros(source: &[u8]) -> Cow<'_, [u8]> {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let skip_ws = |mut i: usize| {
        while i < source.len() && source[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let ident_end = |mut i: usize| {
        while i < source.len() && is_ident(source[i]) {
            i += 1;
        }
        i
    };
    let mut blanks: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < source.len() {
        let at_word = i == 0 || !is_ident(source[i - 1]);
        let key = [b"class".as_slice(), b"struct", b"union"].into_iter().find(|k| {
            at_word && source[i..].starts_with(k) && source.get(i + k.len()).is_some_and(|b| b.is_ascii_whitespace())
        });
        let Some(key) = key else {
            i += 1;
            continue;
        };
        let m_start = skip_ws(i + key.len());
        let m_end = ident_end(m_start);
        let macro_like = m_end - m_start >= 2
            && source[m_start..m_end]
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
            && source[m_start].is_ascii_uppercase();
        if macro_like {
            let n_start = skip_ws(m_end);
            let n_end = ident_end(n_start);
            let after = skip_ws(n_end);
            let opens = n_end > n_start
                && (source.get(after).is_some_and(|b| *b == b'{' || *b == b':')
                    || source[after..].starts_with(b"final"));
            if opens {
                blanks.push((m_start, m_end));
            }
        }
        i = m_end.max(i + 1);
    }
    if blanks.is_empty() {
        return Cow::Borrowed(source);
    }
    let mut out = source.to_vec();
    for (a, b) in blanks {
        out[a..b].fill(b' ');
    }
    Cow::Owned(out)
}

/// `#include "a/b.h"` → module `a/b.h`; `#include <b.h>` → module `<b.h>` (searched only on
/// include paths). Everything the header declares becomes visible, and stays visible to whoever
/// includes this file (the resolver walks includes transitively).
fn include(m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
    let Some(path) = m.module else { return };
    let text = util::text(path, src);
    let module = if path.kind() == "system_lib_string" {
        text.trim().to_string()
    } else {
        tagged::strip_quotes(&text).to_string()
    };
    if module.is_empty() {
        return;
    }
    // Transitive visibility is the resolver's include closure, not a re-export chain.
    out.push(ImportFact::wildcard(module, util::line(m.node)));
}

/// Node kinds whose inside is a function body: declarations there are locals.
fn is_code_block(kind: &str) -> bool {
    matches!(
        kind,
        "compound_statement"
            | "lambda_expression"
            | "for_statement"
            | "for_range_loop"
            | "if_statement"
            | "while_statement"
    )
}

/// Whether the declaration carries a `static` / `virtual` / … keyword of its own.
fn has_specifier(decl: Node<'_>, src: &[u8], kind: &str, word: &str) -> bool {
    let mut cur = decl.walk();
    let found = decl
        .children(&mut cur)
        .any(|c| c.kind() == kind && util::text(c, src).trim() == word);
    found
}

fn decorate<'t>(sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>, cpp: bool) -> bool {
    // The declaration node of a typedef alias is its name; walk up to the statement.
    let stmt = if decl.kind() == "type_identifier" {
        parents.parent(decl).unwrap_or(decl)
    } else {
        decl
    };
    // Locals are not symbols (a file-scope declaration never sits in a code block).
    if !sym.kind.is_callable() {
        let mut cur = parents.parent(stmt);
        let mut steps = 0;
        while let Some(p) = cur {
            if is_code_block(p.kind()) {
                return false;
            }
            if matches!(p.kind(), "translation_unit" | "field_declaration_list") || steps > 64 {
                break;
            }
            steps += 1;
            cur = parents.parent(p);
        }
    }
    let is_static = has_specifier(stmt, src, "storage_class_specifier", "static");
    let member_list = parents
        .parent(stmt)
        .filter(|p| p.kind() == "field_declaration_list")
        // Templates and friend declarations wrap members one level deeper.
        .or_else(|| {
            parents
                .parent(stmt)
                .and_then(|p| parents.parent(p))
                .filter(|p| p.kind() == "field_declaration_list")
        });
    match member_list {
        Some(list) if cpp => {
            sym.is_static = is_static;
            let visibility = member_access(list, stmt, src, parents);
            sym.visibility = Some(visibility);
            sym.exported = visibility == Visibility::Public;
        }
        Some(_) => {
            sym.visibility = Some(Visibility::Public);
        }
        None if is_static && sym.kind != NodeKind::Method => {
            sym.visibility = Some(Visibility::Private);
            sym.exported = false;
        }
        None => {
            sym.visibility = Some(Visibility::Public);
        }
    }
    if cpp {
        let pure = stmt.kind() == "field_declaration" && stmt.child_by_field_name("default_value").is_some() || {
            let mut cur = stmt.walk();
            let pure = stmt.children(&mut cur).any(|c| c.kind() == "pure_virtual_clause");
            pure
        };
        if pure && sym.kind.is_callable() {
            sym.is_abstract = true;
        }
        if has_specifier(stmt, src, "virtual", "virtual") && sym.kind.is_callable() {
            sym.decorators.push("virtual".into());
        }
    }
    true
}

/// The access of a member: the last access label above it in its class body, else the default
/// of the class key (`class` private, `struct`/`union` public).
fn member_access<'t>(list: Node<'t>, member: Node<'t>, src: &[u8], parents: &Parents<'t>) -> Visibility {
    let mut access = match parents.parent(list).map(|p| p.kind()) {
        Some("class_specifier") => Visibility::Private,
        _ => Visibility::Public,
    };
    let mut cur = list.walk();
    for child in list.children(&mut cur) {
        if child.start_byte() >= member.start_byte() {
            break;
        }
        if child.kind() == "access_specifier" {
            access = match util::text(child, src).trim() {
                "private" => Visibility::Private,
                "protected" => Visibility::Protected,
                _ => Visibility::Public,
            };
        }
    }
    access
}

#[cfg(feature = "cpp")]
/// Whether a header's text is C++ rather than C (classes, namespaces, templates, `::`, access
/// labels). Only the first 64 KiB are read.
pub fn looks_like_cpp(source: &[u8]) -> bool {
    let head = &source[..source.len().min(64 * 1024)];
    let text = String::from_utf8_lossy(head);
    const MARKERS: [&str; 12] = [
        "class ",
        "namespace ",
        "template<",
        "template <",
        "public:",
        "private:",
        "protected:",
        "std::",
        "virtual ",
        "nullptr",
        "constexpr",
        "#include <iostream>",
    ];
    text.lines().any(|line| {
        let l = line.trim_start();
        !l.starts_with("//") && !l.starts_with('*') && MARKERS.iter().any(|m| l.contains(m))
    })
}

#[cfg(feature = "c")]
pub(crate) fn c() -> &'static dyn crate::Extractor {
    static E: Tagged<C> = Tagged(C);
    &E
}

#[cfg(feature = "cpp")]
pub(crate) fn cpp() -> &'static dyn crate::Extractor {
    static E: Tagged<Cpp> = Tagged(Cpp);
    &E
}
