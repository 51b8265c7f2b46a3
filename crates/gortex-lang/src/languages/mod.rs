//! One module per bespoke language, each behind its cargo feature.

use crate::Extractor;
use gortex_core::Language;

#[cfg(feature = "bash")]
mod bash;
#[cfg(any(feature = "c", feature = "cpp"))]
pub(crate) mod cfamily;
#[cfg(feature = "typescript")]
mod component;
#[cfg(feature = "csharp")]
mod csharp;
#[cfg(any(feature = "typescript", feature = "javascript"))]
mod ecmascript;
#[cfg(any(
    feature = "elixir",
    feature = "erlang",
    feature = "elm",
    feature = "dart",
    feature = "haskell",
    feature = "zig"
))]
mod generic;
#[cfg(feature = "go")]
mod go;
#[cfg(feature = "java")]
mod java;
#[cfg(feature = "kotlin")]
mod kotlin;
#[cfg(feature = "lua")]
mod lua;
#[cfg(feature = "php")]
mod php;
#[cfg(feature = "python")]
mod python;
#[cfg(feature = "ruby")]
mod ruby;
#[cfg(feature = "rust")]
mod rust;
#[cfg(feature = "scala")]
mod scala;
#[cfg(feature = "swift")]
mod swift;
#[cfg(any(
    feature = "c",
    feature = "cpp",
    feature = "csharp",
    feature = "kotlin",
    feature = "php",
    feature = "ruby",
    feature = "lua",
    feature = "bash",
    feature = "elixir",
    feature = "erlang",
    feature = "elm",
    feature = "dart",
    feature = "haskell",
    feature = "zig",
    feature = "swift",
    feature = "scala"
))]
mod tagged;

/// Loads a query file from `grammars/` at compile time.
#[allow(unused_macros)]
macro_rules! grammar_query {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../grammars/", $path))
    };
}
#[allow(unused_imports)]
pub(crate) use grammar_query;

/// The extractor for a language, when its feature is compiled in.
pub(crate) fn extractor_for(language: Language) -> Option<&'static dyn Extractor> {
    match language {
        #[cfg(feature = "typescript")]
        Language::TypeScript => Some(ecmascript::typescript()),
        #[cfg(feature = "typescript")]
        Language::Tsx => Some(ecmascript::tsx()),
        #[cfg(feature = "javascript")]
        Language::JavaScript => Some(ecmascript::javascript()),
        #[cfg(feature = "python")]
        Language::Python => Some(python::extractor()),
        #[cfg(feature = "go")]
        Language::Go => Some(go::extractor()),
        #[cfg(feature = "rust")]
        Language::Rust => Some(rust::extractor()),
        #[cfg(feature = "java")]
        Language::Java => Some(java::extractor()),
        #[cfg(feature = "c")]
        Language::C => Some(cfamily::c()),
        #[cfg(feature = "cpp")]
        Language::Cpp => Some(cfamily::cpp()),
        #[cfg(feature = "csharp")]
        Language::CSharp => Some(csharp::extractor()),
        #[cfg(feature = "kotlin")]
        Language::Kotlin => Some(kotlin::extractor()),
        #[cfg(feature = "php")]
        Language::Php => Some(php::extractor()),
        #[cfg(feature = "ruby")]
        Language::Ruby => Some(ruby::extractor()),
        #[cfg(feature = "lua")]
        Language::Lua => Some(lua::extractor()),
        #[cfg(feature = "bash")]
        Language::Bash => Some(bash::extractor()),
        #[cfg(feature = "elixir")]
        Language::Elixir => Some(generic::elixir()),
        #[cfg(feature = "erlang")]
        Language::Erlang => Some(generic::erlang()),
        #[cfg(feature = "elm")]
        Language::Elm => Some(generic::elm()),
        #[cfg(feature = "dart")]
        Language::Dart => Some(generic::dart()),
        #[cfg(feature = "haskell")]
        Language::Haskell => Some(generic::haskell()),
        #[cfg(feature = "zig")]
        Language::Zig => Some(generic::zig()),
        #[cfg(feature = "swift")]
        Language::Swift => Some(swift::extractor()),
        #[cfg(feature = "scala")]
        Language::Scala => Some(scala::extractor()),
        #[cfg(feature = "typescript")]
        Language::Vue => Some(component::vue()),
        #[cfg(feature = "typescript")]
        Language::Svelte => Some(component::svelte()),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}
