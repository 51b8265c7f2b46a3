//! Times dataflow fact extraction over a source tree (no graph, no linking) and lists the
//! slowest files: `cargo run --release -p gortex-dataflow --example dataflow_extract_time -- DIR`.

use gortex_core::Language;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn files(root: &Path) -> Vec<(PathBuf, Language)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p
                    .file_name()
                    .is_some_and(|n| n == "node_modules" || n.to_string_lossy().starts_with('.'))
                {
                    stack.push(p);
                }
            } else if let Some(lang) = p.extension().and_then(|x| x.to_str()).and_then(|x| match x {
                "ts" | "mts" | "cts" => Some(Language::TypeScript),
                "tsx" => Some(Language::Tsx),
                "js" | "mjs" | "cjs" | "jsx" => Some(Language::JavaScript),
                "py" => Some(Language::Python),
                "go" => Some(Language::Go),
                "java" => Some(Language::Java),
                _ => None,
            }) {
                out.push((p, lang));
            }
        }
    }
    out
}

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).expect("usage: dataflow_extract_time DIR"));
    let all = files(&root);
    let started = Instant::now();
    let mut timed: Vec<(f64, usize, usize, String)> = all
        .par_iter()
        .map(|(p, lang)| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let t = Instant::now();
            let flows = gortex_dataflow::extract(*lang, &text).unwrap_or_default();
            let facts: usize = flows
                .iter()
                .map(|f| f.assigns.len() + f.calls.len() + f.returns.len())
                .sum();
            (
                t.elapsed().as_secs_f64() * 1000.0,
                flows.len(),
                facts,
                p.display().to_string(),
            )
        })
        .collect();
    let total = started.elapsed().as_secs_f64();
    let functions: usize = timed.iter().map(|t| t.1).sum();
    let facts: usize = timed.iter().map(|t| t.2).sum();
    println!(
        "{} files, {functions} functions, {facts} facts in {total:.2} s",
        all.len()
    );
    timed.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, n, f, p) in timed.iter().take(10) {
        println!("{ms:>9.1} ms  {n:>6} functions {f:>8} facts  {p}");
    }
}
