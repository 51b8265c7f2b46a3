//! The review rulepack through the query door (`analyze kind=review`) on the planted-defect
//! corpus (`test/fixtures/review/`): after the graph's grounding pass exactly the lines marked
//! `expect:` are reported and every `grounded:` line is dropped with a reason; the exact findings
//! are kept in `golden.txt` (regenerate with GORTEX_UPDATE_GOLDEN=1 and review the diff). Also:
//! changed-line filtering, suppression by fingerprint across a line shift, the verdict, and bad
//! arguments.

mod common;

use common::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn corpus_index() -> (tempfile::TempDir, gortex_index::RepoIndex) {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&fixtures().join("review"), &opts);
    assert!(report.failures.is_empty(), "parse failures {:?}", report.failures);
    (home, index)
}

fn review(index: &gortex_index::RepoIndex, args: Value) -> Value {
    let mut args = args;
    args["kind"] = json!("review");
    index.query("analyze", args).expect("review runs")
}

/// `(path, line, rule)` for each marker `tag` in the corpus.
fn markers(tag: &str) -> BTreeSet<(String, u32, String)> {
    let root = fixtures().join("review");
    let mut out = BTreeSet::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if !path
                .extension()
                .is_some_and(|e| matches!(e.to_str(), Some("ts" | "js" | "py" | "go" | "java")))
            {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            for (i, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                if let Some(pos) = line.find(tag) {
                    for rule in line[pos + tag.len()..].split(',') {
                        if let Some(rule) = rule.split_whitespace().next() {
                            out.insert((rel.clone(), i as u32 + 1, rule.to_string()));
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn grounded_findings_are_exactly_the_expected_lines_and_match_the_golden() {
    let (_home, index) = corpus_index();
    let out = review(
        &index,
        json!({"include_dropped": true, "limit": 5000, "rules": ["all"]}),
    );
    let found: BTreeSet<(String, u32, String)> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap() as u32,
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = markers("expect:");
    let missed: Vec<_> = want.difference(&found).collect();
    let extra: Vec<_> = found.difference(&want).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "missed {missed:#?}\nunexpected {extra:#?}"
    );

    let dropped: BTreeSet<(String, u32, String)> = out["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap() as u32,
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        dropped,
        markers("grounded:"),
        "the grounding pass drops exactly the `grounded:` lines"
    );
    assert!(out["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| !d["reason"].as_str().unwrap().is_empty()));
    assert_eq!(out["verdict"], "BLOCK");

    let mut lines: Vec<String> = out["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{} {} {} {}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["rule"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap()
            )
        })
        .collect();
    lines.extend(out["dropped"].as_array().unwrap().iter().map(|d| {
        format!(
            "{}:{} {} dropped: {}",
            d["path"].as_str().unwrap(),
            d["line"],
            d["rule"].as_str().unwrap(),
            d["reason"].as_str().unwrap()
        )
    }));
    lines.sort();
    let actual = lines.join("\n") + "\n";
    let golden = fixtures().join("review").join("golden.txt");
    if std::env::var("GORTEX_UPDATE_GOLDEN").is_ok() {
        std::fs::write(&golden, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        expected == actual,
        "findings differ from {}:\n--- golden\n{expected}\n--- now\n{actual}",
        golden.display()
    );
}

#[test]
fn changed_lines_filter_and_suppressions_survive_a_line_shift() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("svc");
    let body = "export async function load(db: any, name: string) {\n  return db.query(\"SELECT * FROM t WHERE n = '\" + name + \"'\");\n}\n";
    write_file(&root, "src/load.ts", body);
    let home = tempfile::tempdir().unwrap();
    let opts = options(home.path());
    let (index, _) = index(&root, &opts);
    let all = review(&index, json!({}));
    assert_eq!(all["verdict"], "BLOCK");
    let f = &all["findings"][0];
    assert_eq!(
        (f["rule"].as_str(), f["line"].as_u64()),
        (Some("sql-string-concat"), Some(2))
    );
    assert!(f["symbol"].as_str().unwrap().ends_with("src/load.ts::load"), "{f}");
    let fp = f["fingerprint"].as_str().unwrap().to_string();

    // Only changed lines count.
    let other = review(&index, json!({"files": [{"path": "src/load.ts", "lines": [[3, 3]]}]}));
    assert_eq!(other["findings"].as_array().unwrap().len(), 0);
    assert_eq!(other["verdict"], "APPROVE");
    let hit = review(&index, json!({"files": [{"path": "src/load.ts", "lines": [[1, 2]]}]}));
    assert_eq!(hit["findings"].as_array().unwrap().len(), 1);

    // The same finding two lines lower keeps its fingerprint, so a suppression still holds.
    write_file(&root, "src/load.ts", &format!("// moved\n// down\n{body}"));
    let (index, _) = common::index(&root, &opts);
    let moved = review(&index, json!({}));
    assert_eq!(moved["findings"][0]["line"], 4);
    assert_eq!(moved["findings"][0]["fingerprint"].as_str(), Some(fp.as_str()));
    let quiet = review(&index, json!({"suppressed": [fp]}));
    assert_eq!(quiet["findings"].as_array().unwrap().len(), 0);
    assert_eq!(quiet["suppressed_count"], 1);
    assert_eq!(quiet["verdict"], "APPROVE");

    // Rule and severity selection.
    assert_eq!(
        review(&index, json!({"rules": ["secret"]}))["findings"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    assert_eq!(
        review(&index, json!({"rules": ["injection"]}))["findings"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn bad_arguments_name_what_is_wrong() {
    let (_home, index) = corpus_index();
    let err = |args: Value| {
        let mut args = args;
        args["kind"] = json!("review");
        index.query("analyze", args).expect_err("refused").message
    };
    assert!(err(json!({"min_severity": "huge"})).contains("min_severity `huge`"));
    assert!(err(json!({"rules": ["nope"]})).contains("`nope` is neither a rule id, a category nor `all`"));
    // Off by default, run when named.
    let assertion = "package fixtures\n\nfunc f(v any) int { return v.(int) }\n";
    let dir = tempfile::tempdir().unwrap();
    write_file(dir.path(), "a.go", assertion);
    let home = tempfile::tempdir().unwrap();
    let (small, _) = common::index(dir.path(), &options(home.path()));
    assert_eq!(review(&small, json!({}))["findings"].as_array().unwrap().len(), 0);
    let named = review(&small, json!({"rules": ["unchecked-type-assertion"]}));
    assert_eq!(named["findings"][0]["rule"], "unchecked-type-assertion");
    assert!(err(json!({"files": [{"path": "../etc/passwd"}]})).contains("without `..`"));
    assert!(err(json!({"files": [{"path": "ts/a.ts", "lines": [[5, 2]]}]})).contains("not a 1-based inclusive range"));
    assert!(err(json!({"limit": 0})).contains("limit 0"));
    assert!(err(json!({"bogus": 1})).contains("bogus"));
    // A file that is not there is reported, not fatal.
    let out = review(&index, json!({"files": [{"path": "ts/missing.ts"}]}));
    assert_eq!(out["files_skipped"].as_array().unwrap().len(), 1);
    assert_eq!(out["verdict"], "APPROVE");
}
