//! Ruby dialect of the tagged engine: queries in `grammars/ruby/`.
//!
//! Modules are namespaces (they reopen across files and do not hide names from the resolver);
//! `require_relative "x"` imports a file by path, `require "x"` a library (a file under `lib/` or
//! the root when the repository has it). `self.f` / `def self.f` are the class's own; `super` the
//! parent's. A bare `private` / `protected` / `public` line sets the visibility of the methods
//! after it; `attr_reader :x` (and writer/accessor) declares field `x`.

use super::tagged::{tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use gortex_core::{ImportFact, Language, NodeKind, SymbolFact, Visibility};
use tree_sitter::Node;

/// The Ruby dialect.
pub(crate) struct Ruby;

impl Dialect for Ruby {
    fn language(&self) -> Language {
        Language::Ruby
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_ruby::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "ruby")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["::"]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &["self"]
    }

    fn written_name(&self, _decl: Node<'_>, name: Node<'_>, src: &[u8]) -> Option<String> {
        // `attr_reader :repo` declares `repo`.
        (name.kind() == "simple_symbol").then(|| util::text(name, src).trim_start_matches(':').to_string())
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        if decl.kind() == "singleton_method" {
            sym.is_static = true;
        }
        let mut visibility = Visibility::Public;
        if sym.kind == NodeKind::Method {
            // The last bare visibility keyword above the method in the same body.
            if let Some(body) = parents.parent(decl) {
                let mut cur = body.walk();
                for child in body.named_children(&mut cur) {
                    if child.start_byte() >= decl.start_byte() {
                        break;
                    }
                    if child.kind() == "identifier" {
                        visibility = match util::text(child, src).as_ref() {
                            "private" => Visibility::Private,
                            "protected" => Visibility::Protected,
                            "public" => Visibility::Public,
                            _ => visibility,
                        };
                    }
                }
            }
        }
        sym.visibility = Some(visibility);
        sym.exported = visibility == Visibility::Public;
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let (Some(module), Some(kind)) = (m.module, m.name) else {
            return;
        };
        let path = util::text(module, src).trim().to_string();
        if path.is_empty() {
            return;
        }
        let module = if util::text(kind, src) == "require_relative" && !path.starts_with('.') {
            format!("./{path}")
        } else {
            path
        };
        out.push(ImportFact::wildcard(module, util::line(m.node)));
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Ruby> = Tagged(Ruby);
    &E
}
