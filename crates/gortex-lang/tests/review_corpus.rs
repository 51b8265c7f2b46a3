//! The planted-defect corpus (`test/fixtures/review/<lang>/`) against the syntax pass of the
//! review rulepack: every line marked `expect: <rule>` or `grounded: <rule>` is found, and
//! nothing else is (`grounded:` lines are the ones only the graph pass may drop; the index's
//! review test checks that it does).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/fixtures/review")
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| matches!(e.to_str(), Some("ts" | "js" | "py" | "go" | "java")))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `(line, rule)` for every `expect:` and `grounded:` marker of a file.
fn markers(source: &str) -> BTreeSet<(u32, String)> {
    let mut out = BTreeSet::new();
    for (i, line) in source.lines().enumerate() {
        for tag in ["expect:", "grounded:"] {
            if let Some(pos) = line.find(tag) {
                for rule in line[pos + tag.len()..].split(',') {
                    let rule = rule.split_whitespace().next().unwrap_or("");
                    if !rule.is_empty() {
                        out.insert((i as u32 + 1, rule.to_string()));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn syntax_pass_finds_exactly_the_marked_lines() {
    let root = corpus_root();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in files(&root) {
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let source = std::fs::read_to_string(&path).unwrap();
        let found: BTreeSet<(u32, String)> = gortex_lang::review::scan(&rel, source.as_bytes())
            .unwrap_or_else(|e| panic!("{rel}: {e}"))
            .into_iter()
            .map(|f| (f.line, f.rule.to_string()))
            .collect();
        let want = markers(&source);
        for (line, rule) in want.difference(&found) {
            failures.push(format!("{rel}:{line}: missed {rule}"));
        }
        for (line, rule) in found.difference(&want) {
            failures.push(format!(
                "{rel}:{line}: unexpected {rule}: {}",
                source.lines().nth(*line as usize - 1).unwrap_or("").trim()
            ));
        }
        checked += 1;
    }
    assert!(checked >= 10, "the corpus has {checked} files under {}", root.display());
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_is_planted_in_every_language_it_claims() {
    let root = corpus_root();
    let mut planted = BTreeSet::new();
    for path in files(&root) {
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let lang = match path.extension().and_then(|e| e.to_str()) {
            Some("ts") => "typescript",
            Some("js") => "javascript",
            Some("py") => "python",
            Some("go") => "go",
            Some("java") => "java",
            _ => continue,
        };
        let _ = rel;
        for (_, rule) in markers(&std::fs::read_to_string(&path).unwrap()) {
            planted.insert((lang, rule));
        }
    }
    let mut missing = Vec::new();
    for rule in gortex_lang::review::RULES {
        for lang in rule.languages {
            // TypeScript's corpus stands for JavaScript too: one grammar family, one dialect.
            let lang = if *lang == "javascript" { "typescript" } else { lang };
            if !planted.contains(&(lang, rule.id.to_string())) {
                missing.push(format!("{} in {lang}", rule.id));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rules with no planted defect: {}",
        missing.join(", ")
    );
}
