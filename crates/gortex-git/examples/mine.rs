//! Mines a repository's history and prints the cost: `cargo run --release -p gortex-git --example
//! mine -- <worktree> [<history file>]`. With a saved history it mines only the new commits.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let root = std::path::PathBuf::from(args.next().expect("usage: mine <worktree> [<history file>]"));
    let store = args.next().map(std::path::PathBuf::from);
    let repo = gortex_git::GitRepo::discover(&root)
        .expect("open")
        .expect("not a git worktree");
    let previous = store.as_deref().and_then(gortex_git::store::load);
    let t = Instant::now();
    let (mined, report) = repo
        .update(previous, &|p| {
            !p.split('/').any(|s| s == "vendor" || s == "node_modules")
        })
        .expect("mine");
    let ms = t.elapsed().as_millis();
    let bytes = store
        .as_deref()
        .map(|p| gortex_git::store::save(p, &mined).expect("save"))
        .unwrap_or(0);
    let lines: usize = mined.files.values().map(|f| f.lines.len()).sum();
    println!(
        "{{\"mode\":\"{}\",\"ms\":{ms},\"new_commits\":{},\"commits\":{},\"file_changes\":{},\"diffed\":{},\"files\":{},\"lines\":{lines},\"sets\":{},\"saved_bytes\":{bytes}}}",
        report.mode,
        report.new_commits,
        mined.commits.len(),
        report.file_changes,
        report.diffed_files,
        mined.files.len(),
        mined.lineage.len()
    );
}
