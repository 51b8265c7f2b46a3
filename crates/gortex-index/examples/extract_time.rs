//! Splits extraction cost from parse cost, per language and per file, single-threaded:
//! `cargo run --release -p gortex-index --example extract_time -- PATH`. A profiling aid for
//! extractor work (pair it with `perf record`).

use gortex_index::walk;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn main() {
    let Some(root) = std::env::args().nth(1) else {
        eprintln!("usage: extract_time PATH");
        std::process::exit(2);
    };
    let root = std::fs::canonicalize(root).expect("root exists");
    let options = walk::WalkOptions {
        excluded_dirs: gortex_index::DEFAULT_EXCLUDED_DIRS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        exclude: Vec::new(),
        max_file_size: 4 << 20,
        respect_gitignore: true,
    };
    let walked = walk::walk(&root, &options);
    let mut per_lang: BTreeMap<&str, (usize, Duration, Duration)> = BTreeMap::new();
    let mut per_file = Vec::new();
    for cand in &walked.sources {
        let Ok(bytes) = std::fs::read(&cand.abs) else { continue };
        let t = Instant::now();
        let Ok(tree) = gortex_lang::parse(cand.language, &bytes, gortex_lang::DEFAULT_PARSE_BUDGET) else {
            continue;
        };
        let parse = t.elapsed();
        let extractor = gortex_lang::extractor_for(cand.language).expect("enabled");
        let ctx = gortex_lang::FileContext {
            path: &cand.rel,
            is_test_file: gortex_index::is_test_file(&cand.rel, cand.language),
        };
        let t = Instant::now();
        let facts = extractor.extract(&tree, &bytes, &ctx);
        let extract = t.elapsed();
        std::hint::black_box(facts);
        let e = per_lang.entry(cand.language.as_str()).or_default();
        e.0 += 1;
        e.1 += parse;
        e.2 += extract;
        per_file.push((
            extract.as_secs_f64() - parse.as_secs_f64(),
            cand.rel.clone(),
            parse,
            extract,
        ));
    }
    for (lang, (n, p, x)) in &per_lang {
        println!(
            "{lang:<11} files {n:>6}  parse {:>8.1} ms  extract {:>8.1} ms  ratio {:.2}",
            p.as_secs_f64() * 1e3,
            x.as_secs_f64() * 1e3,
            x.as_secs_f64() / p.as_secs_f64().max(1e-9)
        );
    }
    per_file.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, path, p, x) in per_file.iter().take(8) {
        println!(
            "  {path}: parse {:.1} ms extract {:.1} ms",
            p.as_secs_f64() * 1e3,
            x.as_secs_f64() * 1e3
        );
    }
}
