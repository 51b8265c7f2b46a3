//! The generic tier: languages read by a tags query alone — the grammar crate's own
//! `TAGS_QUERY` (Elixir, Elm) or a small one of ours in `grammars/<lang>/tags.scm` (Erlang,
//! Haskell, Zig, Dart) — through the tagged engine with no dialect knowledge.
//! Definitions become symbols nested by containment; `@reference.call` captures become calls
//! from the enclosing definition, bound by the resolver's generic cascade (same file, then the
//! one same-language declaration of the name). No imports, visibility or types are read.

use super::tagged::{Dialect, TagQueries, Tagged};
use crate::util;
use gortex_core::{DocComment, Language};
use std::sync::OnceLock;

/// One generic-tier language: its grammar and tags query.
pub(crate) struct Generic {
    language: Language,
    grammar: fn() -> tree_sitter::Language,
    tags: &'static str,
    queries: &'static OnceLock<TagQueries>,
}

impl Dialect for Generic {
    fn language(&self) -> Language {
        self.language
    }

    fn grammar(&self) -> tree_sitter::Language {
        (self.grammar)()
    }

    fn queries(&self) -> &'static TagQueries {
        self.queries
            .get_or_init(|| TagQueries::new(&(self.grammar)(), self.tags, self.language.as_str()))
    }

    fn separators(&self) -> &'static [&'static str] {
        // Definitions are never written qualified here; `Shop.Orders` is one module's name.
        &[]
    }

    fn doc(&self, raw: &str) -> Option<DocComment> {
        // `#`, `%`, `--`, `//` and `///` comment lines alike.
        let text: Vec<&str> = raw
            .lines()
            .map(|l| l.trim().trim_start_matches(['#', '%', '-', '/', '*', '!']).trim())
            .collect();
        util::doc_comment(&text.join("\n"))
    }

    fn decorate<'t>(
        &self,
        sym: &mut gortex_core::SymbolFact,
        _decl: tree_sitter::Node<'t>,
        _src: &[u8],
        _parents: &util::Parents<'t>,
    ) -> bool {
        // Visibility is not read: everything counts as reachable (never reported dead).
        sym.exported = true;
        true
    }
}

/// Declares the extractor constructor of one generic-tier language.
macro_rules! generic_language {
    ($fn_name:ident, $feature:literal, $language:expr, $grammar:expr, $tags:expr) => {
        #[cfg(feature = $feature)]
        pub(crate) fn $fn_name() -> &'static dyn crate::Extractor {
            fn grammar() -> tree_sitter::Language {
                $grammar.into()
            }
            static QUERIES: OnceLock<TagQueries> = OnceLock::new();
            static E: Tagged<Generic> = Tagged(Generic {
                language: $language,
                grammar,
                tags: $tags,
                queries: &QUERIES,
            });
            &E
        }
    };
}

/// Our own tags query of a language whose grammar crate ships none (or one the engine cannot use).
#[allow(unused_macros)] // a build with only Elixir or Elm uses none
macro_rules! own_tags {
    ($dir:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../grammars/",
            $dir,
            "/tags.scm"
        ))
    };
}

generic_language!(
    elixir,
    "elixir",
    Language::Elixir,
    tree_sitter_elixir::LANGUAGE,
    tree_sitter_elixir::TAGS_QUERY
);
generic_language!(
    elm,
    "elm",
    Language::Elm,
    tree_sitter_elm::LANGUAGE,
    tree_sitter_elm::TAGS_QUERY
);
generic_language!(
    dart,
    "dart",
    Language::Dart,
    tree_sitter_dart::LANGUAGE,
    own_tags!("dart")
);
generic_language!(
    erlang,
    "erlang",
    Language::Erlang,
    tree_sitter_erlang::LANGUAGE,
    own_tags!("erlang")
);
generic_language!(
    haskell,
    "haskell",
    Language::Haskell,
    tree_sitter_haskell::LANGUAGE,
    own_tags!("haskell")
);
generic_language!(zig, "zig", Language::Zig, tree_sitter_zig::LANGUAGE, own_tags!("zig"));
