//! Prints a file's syntax tree and extracted symbols: the first step when writing or fixing a
//! query file. Usage: `cargo run -p gortex-lang --example parse_tree -- LANG FILE`.

use gortex_core::Language;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(lang), Some(file)) = (args.first(), args.get(1)) else {
        eprintln!("usage: parse_tree LANG FILE   (LANG: {})", names());
        std::process::exit(2);
    };
    let Some(language) = Language::parse(lang) else {
        eprintln!("unknown language {lang:?}; one of: {}", names());
        std::process::exit(2);
    };
    let source = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("cannot read {file}: {e}");
        std::process::exit(2);
    });
    // The tree of the bytes the extractor parses (C++ blanks export macros, same offsets);
    // documents have no tree, only their facts.
    if let Some(extractor) = gortex_lang::extractor_for(language) {
        let prepared = extractor.prepare(&source);
        let tree = gortex_lang::parse(language, &prepared, gortex_lang::DEFAULT_PARSE_BUDGET).unwrap_or_else(|e| {
            eprintln!("cannot parse {file}: {e}");
            std::process::exit(1);
        });
        println!("{}", tree.root_node().to_sexp());
    }
    let ctx = gortex_lang::FileContext {
        path: file,
        is_test_file: false,
    };
    let facts =
        gortex_lang::extract_file(language, &source, &ctx, gortex_lang::DEFAULT_PARSE_BUDGET).expect("parsed above");
    for s in &facts.symbols {
        println!(
            "{} {} parent={:?} type={:?} L{}-{}",
            s.kind, s.name, s.parent, s.type_name, s.span.start_line, s.span.end_line
        );
    }
    for i in &facts.imports {
        println!("import {} {:?} L{}", i.module, i.kind, i.line);
    }
    for r in &facts.refs {
        println!("ref {} {} from={:?} L{}", r.kind, r.name, r.from, r.line);
    }
}

fn names() -> String {
    gortex_lang::enabled_languages()
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
