//! Prints a repository's resolved edges (and unresolved references) one per line:
//! `cargo run -p gortex-index --example dump -- PATH [--all]`. A debugging aid for resolver work.

use gortex_index::{IndexOptions, RepoIndex};
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = args.first() else {
        eprintln!("usage: dump PATH [--all]");
        std::process::exit(2);
    };
    let all = args.iter().any(|a| a == "--all");
    let home = std::env::temp_dir().join(format!("gortex-dump-{}", std::process::id()));
    let mut options = IndexOptions::new(home.clone());
    options.persist = false;
    let (index, report) = match RepoIndex::open(std::path::Path::new(root), &options, &|_| {}, &AtomicBool::new(false))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let _ = std::fs::remove_dir_all(home);
    let g = &index.graph;
    for line in g.canonical_dump() {
        let structural = [" -defines-> ", " -contains-> ", " -member_of-> "]
            .iter()
            .any(|k| line.contains(k));
        if line.starts_with("N ") && !all {
            continue;
        }
        if structural && !all {
            continue;
        }
        println!("{line}");
    }
    eprintln!(
        "files {} nodes {} edges {} unresolved {} failures {:?}",
        report.files.total, report.nodes.total, report.edges.total, report.edges.unresolved, report.failures
    );
}
