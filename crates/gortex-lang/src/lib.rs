//! gortex-lang: the grammar registry and per-language extractors.
//!
//! Each language is a cargo feature. An extractor runs the query files under
//! `grammars/<lang>/` (compiled once per process) over a tree-sitter tree and reports
//! [`FileFacts`]; it never looks at other files.
//!
//! The extraction stage of indexing: the index parses on one tree-sitter parser per worker
//! thread and language, with a time budget per file over parsing and extraction
//! ([`DEFAULT_PARSE_BUDGET`]) and limits on the tree's depth, on query work and on declaration
//! depth ([`budget`]): a file past one is refused and the index records it as skipped. Each
//! extractor turns a tree into `FileFacts` (symbols, imports, refs with receivers, local type
//! bindings). Panics are caught per file by the caller and recorded as failures.
//!
//! - **Hand-written extractors:** TS/JS, Python, Go, Rust and Java.
//! - **The tagged engine** (`languages/tagged.rs`) runs C, C++, C#, Kotlin, Scala, Swift, PHP,
//!   Ruby, Lua and Bash (and the languages that follow): query files name declarations, uses,
//!   imports and typed locals with tags-style captures (`@definition.function` + `@name`,
//!   `@reference.call` + `@receiver`, `@import.module`, `@binding.type`…); the engine nests
//!   symbols by containment, turns functions inside types into methods and `A::b` definitions
//!   into detached methods of `A`, and attributes uses. A small `Dialect` per language adds what
//!   queries cannot say (visibility rules, import shapes, which declarations are locals). A
//!   dialect may blank constructs the grammar misreads before parsing, keeping every byte offset
//!   (C++ export macros: `class LEVELDB_EXPORT DB {`; see [`Extractor::prepare`]). A `.h` header
//!   is re-read as C++ when its text has classes, namespaces, templates or access labels
//!   ([`refine_language`]).
//! - **The generic tier** (`languages/generic.rs`: Elixir, Erlang, Elm, Dart, Haskell, Zig) is
//!   the same engine with no dialect: one tags query per language (the grammar crate's
//!   `TAGS_QUERY` or `grammars/<lang>/tags.scm`), no imports; the resolver binds its calls
//!   through the generic cascade, with module members counted as the file's top level.
//! - **Vue and Svelte components** (`languages/component.rs`) reuse the TypeScript extractor on a
//!   copy of the file with everything outside `<script>` blanked (same offsets), then add the
//!   component symbol and, from the original bytes ([`Extractor::finish`]), the components the
//!   template renders. An options-API component's `mixins`/`extends` entries become `extends`
//!   references; a plain script module exporting an options object gets a `mixin` type from the
//!   same code (`component::adopt_options_module`, called by the TypeScript/JavaScript
//!   extractor).
//! - **Documents and configuration** (`documents/`: Markdown, manifests, Dockerfiles, proto, SQL,
//!   any other text) have no grammar: line and token scanners turn them into the same
//!   `FileFacts` (sections, stages, messages, tables as symbols; manifest dependencies as
//!   `ImportKind::Dependency` imports, which the resolver turns into `depends_on_module` edges to
//!   `external::<package>`). A manifest written in code (`build.gradle.kts`) gets its code facts
//!   and then the manifest reader's dependencies (`documents::add_manifest_dependencies`).
//!
//! `Language::from_path` (`gortex-core`) gives every file a language (`text` when nothing else
//! fits) except known binary extensions, so every text file is a file node in the trigram index.
//!
//! `cargo run -p gortex-lang --example parse_tree -- LANG FILE` prints the tree the extractor
//! sees and the symbols it finds.

pub mod budget;
mod documents;
mod languages;
pub mod names;
pub mod refactor;
pub mod review;
pub mod structural;
mod ui;
pub mod util;

use gortex_core::{FileFacts, Language};
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

pub use budget::{MAX_QUERY_SCAN, MAX_SYMBOL_DEPTH, MAX_TREE_DEPTH};
pub use util::QuerySet;

/// What an extractor may know about the file besides its bytes.
#[derive(Debug, Clone, Copy)]
pub struct FileContext<'a> {
    /// Repository-relative path with `/` separators.
    pub path: &'a str,
    /// The path follows a test-file convention (`*_test.go`, `test_*.py`, `*.spec.ts`, `src/test/java`…).
    pub is_test_file: bool,
}

/// A language's extractor: grammar plus the code that turns query captures into facts.
pub trait Extractor: Send + Sync {
    /// The language this extractor handles.
    fn language(&self) -> Language;
    /// The tree-sitter grammar to parse with.
    fn grammar(&self) -> tree_sitter::Language;
    /// Turns a parsed tree into facts. Must not recurse on tree depth (files can nest
    /// 10,000 levels deep) and must not panic on any tree, including ones full of errors.
    fn extract(&self, tree: &tree_sitter::Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts;
    /// Compiles the extractor's queries, once per process: called before a file's time budget
    /// starts, so the first file of a language is not charged for them (a second or more for the
    /// larger query sets in a debug build).
    fn compile_queries(&self) {}
    /// The bytes to parse: the source, or a copy of the same length with constructs the grammar
    /// misreads blanked out (byte offsets, lines and columns stay those of the file).
    fn prepare<'s>(&self, source: &'s [u8]) -> std::borrow::Cow<'s, [u8]> {
        std::borrow::Cow::Borrowed(source)
    }
    /// Adds what only the original bytes show (when `prepare` blanked part of them): Vue and
    /// Svelte templates rendering other components.
    fn finish(&self, facts: &mut FileFacts, original: &[u8]) {
        let _ = (facts, original);
    }
}

/// Why a file could not be turned into facts.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("language {0} is not enabled in this build (cargo feature missing)")]
    LanguageDisabled(Language),
    #[error("parsing and extraction took longer than {0:.1?}, the time budget of a file this size (2 s plus 8 s per MiB, at most the budget per file)")]
    Timeout(Duration),
    #[error("the syntax tree nests more than {limit} levels deep, the limit per file (deeper trees make extraction quadratic)")]
    TooDeep { limit: usize },
    #[error("declarations nest {depth} deep (functions in functions…), over the limit of {limit} per file")]
    SymbolsTooDeep { depth: usize, limit: usize },
    #[error("a run of {longest_run} tokens with nothing named between them (unclosed brackets?) would cost tree-sitter's queries more than {limit} steps")]
    TooComplex { longest_run: usize, limit: u64 },
    #[error("tree-sitter returned no tree")]
    NoTree,
    #[error("grammar version mismatch: {0}")]
    Grammar(String),
}

impl ExtractError {
    /// Whether the file was refused by a per-file limit (time, tree depth, declaration depth,
    /// query work; see [`budget`]) rather than failing: the index records it as skipped.
    pub fn is_over_limit(&self) -> bool {
        matches!(
            self,
            ExtractError::Timeout(_)
                | ExtractError::TooDeep { .. }
                | ExtractError::SymbolsTooDeep { .. }
                | ExtractError::TooComplex { .. }
        )
    }
}

/// The tree-sitter extractor for `language`, when its feature is enabled (documents and
/// configuration files have none: they are read by line and token scanners).
pub fn extractor_for(language: Language) -> Option<&'static dyn Extractor> {
    languages::extractor_for(language)
}

/// Whether this build indexes files of `language`: documents always, code when its grammar's
/// feature is compiled in.
pub fn supports(language: Language) -> bool {
    !language.is_code() || extractor_for(language).is_some()
}

/// Languages compiled into this build.
pub fn enabled_languages() -> Vec<Language> {
    Language::ALL.iter().copied().filter(|l| supports(*l)).collect()
}

/// The language a file is parsed as, once its text is known: a `.h` header whose text is C++
/// (classes, namespaces, templates) is read as C++ when C++ is compiled in; an extension-less
/// script with a `#!` line naming a shell, Python, Node, Ruby or Lua is read as that language.
pub fn refine_language(language: Language, path: &str, source: &[u8]) -> Language {
    if language == Language::Text {
        let named = shebang_language(source).or_else(|| modeline_language(source));
        if let Some(named) = named.filter(|l| supports(*l)) {
            return named;
        }
    }
    #[cfg(feature = "cpp")]
    if language == Language::C && path.ends_with(".h") && languages::cfamily::looks_like_cpp(source) {
        return Language::Cpp;
    }
    let _ = (path, source);
    language
}

/// The language an extension-less script's `#!` line names (`#!/usr/bin/env bash`, `#!/bin/sh`,
/// `#!/usr/bin/env python3`, `node`, `ruby`, `lua`).
fn shebang_language(source: &[u8]) -> Option<Language> {
    let first = source.strip_prefix(b"#!")?;
    let line = &first[..first.iter().position(|&b| b == b'\n').unwrap_or(first.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match program {
        "bash" | "sh" | "zsh" | "dash" | "ksh" => Language::Bash,
        "python" => Language::Python,
        "node" | "nodejs" => Language::JavaScript,
        "ruby" => Language::Ruby,
        "lua" | "luajit" => Language::Lua,
        _ => return None,
    })
}

/// The shell language an editor modeline in the first two lines names: Emacs
/// `-*- shell-script -*-` / `-*- mode: sh -*-`, vim `vim: ft=sh` (bash-completion's extension-less
/// completion files are marked so).
fn modeline_language(source: &[u8]) -> Option<Language> {
    let head = &source[..source.len().min(400)];
    let head = String::from_utf8_lossy(head);
    for line in head.lines().take(2) {
        let l = line.to_ascii_lowercase();
        let emacs = l.split("-*-").nth(1).map(|mode| {
            mode.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches("mode:")
                .trim()
        });
        let vim = l.split_once("vim:").and_then(|(_, rest)| {
            rest.split([' ', ':'])
                .find_map(|kv| kv.strip_prefix("ft=").or(kv.strip_prefix("filetype=")))
        });
        if matches!(emacs, Some("shell-script" | "sh" | "bash")) || matches!(vim, Some("sh" | "bash" | "zsh")) {
            return Some(Language::Bash);
        }
    }
    None
}

/// Default per-file budget for parsing and extraction together, the cap of the time a file gets
/// for its size ([`budget::time_budget`]): a backstop (the shape limits in [`budget`] refuse
/// pathological files in milliseconds), generous enough for a 4 MiB file of dense code on a loaded
/// machine (about 1 to 3 s per MiB).
pub const DEFAULT_PARSE_BUDGET: Duration = Duration::from_secs(20);

thread_local! {
    // One parser per worker thread and language: parsers are not Sync and are costly to set up.
    static PARSERS: RefCell<HashMap<Language, tree_sitter::Parser>> = RefCell::new(HashMap::new());
}

/// Parses `source` with the language's grammar on this thread's parser, within `budget`, and
/// refuses a tree past the shape limits ([`MAX_TREE_DEPTH`], [`MAX_QUERY_SCAN`]).
pub fn parse(language: Language, source: &[u8], budget: Duration) -> Result<tree_sitter::Tree, ExtractError> {
    let tree = parse_until(language, source, Instant::now().checked_add(budget), budget)?;
    crate::budget::check_shape(&tree)?;
    Ok(tree)
}

/// Parses with tree-sitter's progress callback cancelling the parse at `deadline`.
fn parse_until(
    language: Language,
    source: &[u8],
    deadline: Option<Instant>,
    budget: Duration,
) -> Result<tree_sitter::Tree, ExtractError> {
    let extractor = extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = match parsers.entry(language) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut parser = tree_sitter::Parser::new();
                parser
                    .set_language(&extractor.grammar())
                    .map_err(|e| ExtractError::Grammar(e.to_string()))?;
                v.insert(parser)
            }
        };
        let mut timed_out = false;
        let mut progress = |_: &tree_sitter::ParseState| {
            if deadline.is_some_and(|d| Instant::now() > d) {
                timed_out = true;
                return std::ops::ControlFlow::Break(());
            }
            std::ops::ControlFlow::Continue(())
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        let len = source.len();
        let tree = parser.parse_with_options(
            &mut |offset, _| if offset < len { &source[offset..] } else { &[] },
            None,
            Some(options),
        );
        if tree.is_none() {
            parser.reset();
            return Err(if timed_out {
                ExtractError::Timeout(budget)
            } else {
                ExtractError::NoTree
            });
        }
        tree.ok_or(ExtractError::NoTree)
    })
}

/// What tree-sitter makes of `source` read as the file at `path`: its language and the number of
/// syntax errors (`ERROR` and `MISSING` nodes), or `None` when the file has no grammar here
/// (documents, configuration, a language this build leaves out). The write tools' parse gate: an
/// edit that adds errors to a file is refused. Over a per-file limit it is the limit's error.
pub fn syntax_errors(path: &str, source: &[u8]) -> Result<Option<(Language, u32)>, ExtractError> {
    let Some(language) = Language::from_path(path).map(|l| refine_language(l, path, source)) else {
        return Ok(None);
    };
    let Some(extractor) = extractor_for(language) else {
        return Ok(None);
    };
    let budget = crate::budget::time_budget(source.len(), DEFAULT_PARSE_BUDGET);
    let tree = parse(language, &extractor.prepare(source), budget)?;
    Ok(Some((language, util::count_errors(&tree))))
}

/// Parses and extracts one file. Parsing and extraction together get the time of a file this
/// size ([`budget::time_budget`]), at most `budget`; a file past it or past a shape limit
/// ([`budget`]) is refused ([`ExtractError::is_over_limit`]).
pub fn extract_file(
    language: Language,
    source: &[u8],
    ctx: &FileContext<'_>,
    budget: Duration,
) -> Result<FileFacts, ExtractError> {
    if !language.is_code() {
        return Ok(documents::extract(language, source, ctx));
    }
    let extractor = extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    extractor.compile_queries();
    let budget = crate::budget::time_budget(source.len(), budget);
    let guard = crate::budget::DeadlineGuard::start(budget);
    let prepared = extractor.prepare(source);
    let tree = parse_until(language, &prepared, guard.deadline(), budget)?;
    crate::budget::check_shape(&tree)?;
    let mut facts = extractor.extract(&tree, &prepared, ctx);
    if guard.expired() {
        return Err(ExtractError::Timeout(budget));
    }
    crate::budget::check_symbol_depth(&facts.symbols)?;
    extractor.finish(&mut facts, source);
    ui::classify(language, &mut facts);
    documents::add_manifest_dependencies(source, ctx, &mut facts);
    facts.syntax_errors = util::count_errors(&tree);
    Ok(facts)
}

/// Compiles a language's queries (once per process; tens of milliseconds for the larger
/// grammars) by extracting an empty file, so that the first real file of that language does not
/// wait for them: a repository opened from its snapshot parses nothing until its first edit.
pub fn prepare(language: Language) {
    if language.is_code() {
        let ctx = FileContext {
            path: "",
            is_test_file: false,
        };
        let _ = extract_file(language, b"", &ctx, DEFAULT_PARSE_BUDGET);
    }
}

/// Changes whenever an extractor or query file changes; persisted facts carry it.
pub const EXTRACTOR_FINGERPRINT: &str = env!("GORTEX_EXTRACTOR_FINGERPRINT");
