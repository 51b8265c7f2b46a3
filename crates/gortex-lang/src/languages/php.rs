//! PHP dialect of the tagged engine: queries in `grammars/php/`.
//!
//! `namespace A\B;` is the file's package, written dotted (`A.B`) so the resolver treats it as it
//! treats Java packages; `use A\B\C;` (grouped and aliased forms too) imports a class, function or
//! constant by name. `$this`, `self` and `static` are the current class, `parent` its parent; a
//! trait a class `use`s is one of its supertypes. Members default to public.

use super::tagged::{keyword_visibility, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use gortex_core::{ImportFact, Language, NodeKind, SymbolFact};
use tree_sitter::Node;

/// The PHP dialect.
pub(crate) struct Php;

impl Dialect for Php {
    fn language(&self) -> Language {
        Language::Php
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_php::LANGUAGE_PHP.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "php")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["::", "\\"]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &["$this", "self", "static"]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &["parent"]
    }

    fn package(&self, text: &str) -> Option<String> {
        let dotted = dotted(text);
        (!dotted.is_empty()).then_some(dotted)
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], _parents: &Parents<'t>) -> bool {
        let mut words: Vec<String> = Vec::new();
        let mut cur = decl.walk();
        for child in decl.children(&mut cur) {
            if child.kind().ends_with("_modifier") {
                words.push(util::text(child, src).trim().to_ascii_lowercase());
            }
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        keyword_visibility(sym, has);
        sym.is_static = has("static") || sym.kind == NodeKind::Constant;
        sym.is_abstract = has("abstract");
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let text = util::text(m.node, src);
        let line = util::line(m.node);
        let body = text
            .trim()
            .trim_start_matches("use")
            .trim()
            .trim_end_matches(';')
            .trim();
        // `use function A\f;` / `use const A\X;` name a function or constant instead of a class.
        let body = body
            .strip_prefix("function ")
            .or_else(|| body.strip_prefix("const "))
            .unwrap_or(body)
            .trim();
        let mut clauses: Vec<String> = Vec::new();
        match (body.find('{'), body.rfind('}')) {
            // use A\B\{C, D as E};
            (Some(open), Some(close)) if close > open => {
                let prefix = body[..open].trim().trim_end_matches('\\');
                for part in body[open + 1..close].split(',') {
                    let part = part.trim();
                    if !part.is_empty() {
                        clauses.push(format!("{prefix}\\{part}"));
                    }
                }
            }
            _ => clauses.extend(body.split(',').map(|p| p.trim().to_string())),
        }
        for clause in clauses {
            let (path, alias) = match clause.split_once(" as ") {
                Some((p, a)) => (p.trim().to_string(), Some(a.trim().to_string())),
                None => (clause.clone(), None),
            };
            let path = dotted(&path);
            match path.rsplit_once('.') {
                Some((module, name)) => {
                    let local = alias.unwrap_or_else(|| name.to_string());
                    out.push(ImportFact::named(module, name, local, line));
                }
                None if !path.is_empty() => {
                    let local = alias.unwrap_or_else(|| path.clone());
                    out.push(ImportFact::named("", path.clone(), local, line));
                }
                None => {}
            }
        }
    }
}

/// `\A\B\C` → `A.B.C`.
fn dotted(path: &str) -> String {
    path.trim()
        .trim_start_matches('\\')
        .split('\\')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(".")
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Php> = Tagged(Php);
    &E
}
