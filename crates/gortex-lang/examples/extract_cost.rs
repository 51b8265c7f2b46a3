//! Times parsing and extraction of files, separately: the first step when a file is slow to
//! index. Usage: `cargo run --release -p gortex-lang --example extract_cost -- FILE...` (the
//! language comes from each path, as in indexing); peak memory with `/usr/bin/time -v`.

use gortex_core::Language;
use std::time::Instant;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: extract_cost FILE...");
        std::process::exit(2);
    }
    for file in files {
        let source = match std::fs::read(&file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("cannot read {file}: {e}");
                continue;
            }
        };
        let Some(language) = Language::from_path(&file) else {
            eprintln!("{file}: no language");
            continue;
        };
        let language = gortex_lang::refine_language(language, &file, &source);
        let ctx = gortex_lang::FileContext {
            path: &file,
            is_test_file: false,
        };
        // Query compilation happens once per process, outside any file's budget: not timed.
        if let Some(e) = gortex_lang::extractor_for(language) {
            e.compile_queries();
        }
        let started = Instant::now();
        let facts = gortex_lang::extract_file(language, &source, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET);
        let total_ms = started.elapsed().as_secs_f64() * 1e3;
        // The shape the limits judge: depth, longest run of unnamed tokens, query scan steps
        // (each counted up to the first value past its limit).
        let started = Instant::now();
        let shape = match gortex_lang::extractor_for(language) {
            Some(e) => match gortex_lang::parse(language, &e.prepare(&source), gortex_lang::DEFAULT_PARSE_BUDGET) {
                Ok(tree) => format!(
                    "{:?}, parse and shape check {:.0} ms",
                    gortex_lang::budget::tree_shape(&tree),
                    started.elapsed().as_secs_f64() * 1e3
                ),
                Err(e) => e.to_string(),
            },
            None => "no grammar".to_string(),
        };
        let checks = gortex_lang::extractor_for(language).map_or(0, |e| parser_checks(e, &source));
        let shape = format!("{shape}, {checks} parser progress checks");
        match facts {
            Ok(f) => println!(
                "{file}\t{language}\t{} bytes\t{shape}\tparse+extract {total_ms:.0} ms\t{} symbols nested {} deep\t{} refs",
                source.len(),
                f.symbols.len(),
                symbol_depth(&f.symbols),
                f.refs.len()
            ),
            Err(e) => println!(
                "{file}\t{language}\t{} bytes\t{shape}\tparse+extract {total_ms:.0} ms\tnot extracted: {e}",
                source.len()
            ),
        }
    }
}

/// Deepest nesting of declarations (a top-level symbol is 0).
fn symbol_depth(symbols: &[gortex_core::SymbolFact]) -> usize {
    let mut depths = vec![0usize; symbols.len()];
    for (i, s) in symbols.iter().enumerate() {
        depths[i] = s
            .parent
            .map(|p| p as usize)
            .filter(|&p| p < i)
            .map_or(0, |p| depths[p] + 1);
    }
    depths.into_iter().max().unwrap_or(0)
}

/// How many times tree-sitter's parser called its progress callback (once per 100 operations).
fn parser_checks(extractor: &dyn gortex_lang::Extractor, source: &[u8]) -> u64 {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&extractor.grammar()).expect("grammar");
    let mut checks = 0u64;
    let mut progress = |_: &tree_sitter::ParseState| {
        checks += 1;
        std::ops::ControlFlow::Continue(())
    };
    let prepared = extractor.prepare(source);
    let len = prepared.len();
    let _ = parser.parse_with_options(
        &mut |offset, _| if offset < len { &prepared[offset..] } else { &[] },
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    );
    checks
}
