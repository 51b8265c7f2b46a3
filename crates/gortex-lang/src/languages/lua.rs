//! Lua dialect of the tagged engine: queries in `grammars/lua/`.
//!
//! Modules are tables: `local M = {}` is a module, `function M.f()` / `function M:f()` its
//! methods (`:` passes `self`). `local m = require("a.b")` binds `m` to the module file;
//! `require "a.b"` alone imports it for its effects. `local` declarations are private to the
//! file, everything else is global (exported).

use super::tagged::{tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use gortex_core::{DocComment, ImportFact, Language, SymbolFact, Visibility};
use tree_sitter::Node;

/// The Lua dialect.
pub(crate) struct Lua;

impl Dialect for Lua {
    fn language(&self) -> Language {
        Language::Lua
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_lua::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "lua")
    }

    fn separators(&self) -> &'static [&'static str] {
        &[":", "."]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &["self"]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn doc(&self, raw: &str) -> Option<DocComment> {
        // `--` and `---` (LuaDoc) comment lines.
        let text: Vec<&str> = raw
            .lines()
            .map(|l| l.trim().trim_start_matches('-').trim())
            .filter(|l| !l.starts_with('@'))
            .collect();
        util::doc_comment(&text.join("\n"))
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], _parents: &Parents<'t>) -> bool {
        // `local function f` and `local x = …` start with the `local` keyword.
        let local = util::text(decl, src).trim_start().starts_with("local")
            || decl.parent().is_some_and(|p| p.kind() == "variable_declaration");
        sym.visibility = Some(if local { Visibility::Private } else { Visibility::Public });
        sym.exported = !local;
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let Some(module) = m.module else { return };
        let module = util::text(module, src).trim().to_string();
        let line = util::line(m.node);
        // The bare-call pattern also matches the call inside `local m = require(…)`.
        if module.is_empty() || out.iter().any(|i| i.module == module && i.line == line) {
            return;
        }
        let alias = m.alias.map(|a| util::text(a, src).into_owned());
        out.push(ImportFact::module(module, alias, line));
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Lua> = Tagged(Lua);
    &E
}
