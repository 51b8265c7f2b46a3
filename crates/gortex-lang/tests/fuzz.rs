//! Fuzz-style property test of every extractor this build registers: random bytes, and real
//! fixture files mutated (truncated, bytes flipped, nesting inserted, NULs and invalid UTF-8
//! spliced in, slices repeated), each fed to its own language's extractor and to another
//! language's. Under the per-file budget every input is either extracted into facts that keep
//! the graph's invariants or refused by a per-file limit, never a panic or a hang.
//!
//! Cases: `GORTEX_FUZZ_CASES` (default 48, a few seconds); a failure prints the shrunk input.

use gortex_core::{FileFacts, Language};
use gortex_lang::{enabled_languages, extract_file, refine_language, FileContext, DEFAULT_PARSE_BUDGET};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;

#[path = "common/mutate.rs"]
mod mutate;
use mutate::{apply, mutation, NESTING};

/// A file name in each language (`Language::from_path` maps it back).
const NAMES: &[&str] = &[
    "a.ts",
    "a.tsx",
    "a.js",
    "a.py",
    "a.go",
    "a.rs",
    "a.java",
    "a.c",
    "a.cpp",
    "a.cs",
    "a.kt",
    "a.php",
    "a.rb",
    "a.vue",
    "a.svelte",
    "a.md",
    "a.json",
    "a.yaml",
    "a.toml",
    "Dockerfile",
    "a.proto",
    "a.sql",
    "a.txt",
    "a.lua",
    "a.sh",
    "a.ex",
    "a.erl",
    "a.elm",
    "a.dart",
    "a.hs",
    "a.zig",
    "a.swift",
    "a.scala",
];

fn name_for(language: Language) -> &'static str {
    NAMES
        .iter()
        .copied()
        .find(|n| Language::from_path(n) == Some(language))
        .unwrap_or_else(|| panic!("no file name for {language}: add one to NAMES"))
}

/// The fixture files, with the language each is read as.
fn seeds() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("fixtures").flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.push((p.to_string_lossy().into_owned(), bytes));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut out);
    assert!(out.len() > 20, "fixtures found: {}", out.len());
    out
}

/// Extracts `bytes` as `path` and checks the outcome.
fn check(path: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let language = Language::from_path(path).expect("a language");
    let language = refine_language(language, path, bytes);
    let ctx = FileContext {
        path,
        is_test_file: false,
    };
    match extract_file(language, bytes, &ctx, DEFAULT_PARSE_BUDGET) {
        Ok(facts) => check_facts(&facts),
        Err(e) => {
            prop_assert!(e.is_over_limit(), "{path} ({language}): {e}");
            Ok(())
        }
    }
}

/// What the graph relies on: parents precede their children, references name symbols that exist.
fn check_facts(facts: &FileFacts) -> Result<(), TestCaseError> {
    let n = facts.symbols.len() as u32;
    for (i, s) in facts.symbols.iter().enumerate() {
        prop_assert!(
            s.parent.is_none_or(|p| p < i as u32),
            "symbol {i} {} has parent {:?}",
            s.name,
            s.parent
        );
        prop_assert!(s.span.start_line <= s.span.end_line, "{} spans {:?}", s.name, s.span);
    }
    for r in &facts.refs {
        prop_assert!(r.from.is_none_or(|f| f < n), "ref {} from {:?} of {n}", r.name, r.from);
    }
    Ok(())
}

fn runner() -> TestRunner {
    let cases = std::env::var("GORTEX_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn every_registered_language_is_fuzzed() {
    for language in enabled_languages() {
        assert_eq!(Language::from_path(name_for(language)), Some(language));
    }
}

#[test]
fn mutated_fixtures_are_extracted_or_refused_by_a_limit() {
    let seeds = seeds();
    let languages = enabled_languages();
    let strategy = (
        0..seeds.len(),
        prop::collection::vec(mutation(), 1..5),
        prop::option::of(0..languages.len()),
    );
    runner()
        .run(&strategy, |(seed, mutations, other)| {
            let (path, original) = &seeds[seed];
            let mut bytes = original.clone();
            for m in &mutations {
                apply(&mut bytes, m);
            }
            // Its own language, or another one's extractor on the same bytes.
            let path = match other {
                Some(i) => name_for(languages[i]).to_string(),
                None => path.clone(),
            };
            check(&path, &bytes)
        })
        .unwrap();
}

#[test]
fn random_bytes_are_extracted_or_refused_by_a_limit() {
    let languages = enabled_languages();
    let strategy = (0..languages.len(), prop::collection::vec(any::<u8>(), 0..4_096));
    runner()
        .run(&strategy, |(language, bytes)| {
            check(name_for(languages[language]), &bytes)
        })
        .unwrap();
}

#[test]
fn every_language_survives_every_kind_of_nesting() {
    // Not random: each opener, repeated, in every registered language.
    for language in enabled_languages() {
        let path = name_for(language);
        for opener in NESTING {
            let bytes = format!("x = 1\n{}\n", opener.repeat(1_500));
            check(path, bytes.as_bytes()).unwrap_or_else(|e| panic!("{path} with {opener:?}: {e}"));
        }
    }
}
