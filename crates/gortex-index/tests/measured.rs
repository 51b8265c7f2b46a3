//! Measured coverage through the query door (`analyze kind=coverage|coverage_summary`) on
//! `test/fixtures/measured/`: a JS, Go, Python and Java repository with the reports real runs
//! wrote where their runners put them — Jest/Istanbul LCOV and Cobertura (`--coverageReporters`),
//! `go test -coverprofile`, coverage.py JSON and XML — and a JaCoCo XML written to its DTD (no JVM
//! build here). Every planted fact is pinned: which functions are covered fully, partly or not at
//! all, per-file totals, report path matching (relative, absolute from another machine, Go import
//! paths, JaCoCo package paths), staleness, and bad arguments.

mod common;

use common::*;
use serde_json::{json, Value};

fn index_of(root: &std::path::Path) -> (tempfile::TempDir, gortex_index::RepoIndex) {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(root, &opts);
    assert!(report.failures.is_empty(), "parse failures {:?}", report.failures);
    (home, index)
}

fn analyze(index: &gortex_index::RepoIndex, kind: &str, mut args: Value) -> Result<Value, gortex_core::QueryError> {
    args["kind"] = json!(kind);
    index.query("analyze", args)
}

/// `id covered/lines percent` per row.
fn rows(r: &Value) -> Vec<String> {
    r["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {}/{} {}",
                s["id"].as_str().unwrap(),
                s["covered"],
                s["lines"],
                s["percent"]
            )
        })
        .collect()
}

#[test]
fn every_function_with_its_measured_share_least_covered_first() {
    let (_home, index) = index_of(&fixtures().join("measured"));
    let r = analyze(&index, "coverage", json!({ "limit": 100 })).unwrap();
    assert_eq!(
        rows(&r),
        [
            "measured/mathx/mathx.go::Never 0/3 0.0",
            "measured/js/calc.js::unused 0/2 0.0",
            "measured/shapes/area.py::never 0/2 0.0",
            "measured/src/main/java/com/acme/Greeter.java::Greeter.shout 0/2 0.0",
            "measured/js/calc.js::divide 2/3 66.7",
            "measured/shapes/area.py::circle 2/3 66.7",
            "measured/mathx/mathx.go::Clamp 5/7 71.4",
            "measured/js/calc.js::add 1/1 100.0",
            "measured/shapes/area.py::square 1/1 100.0",
            "measured/src/main/java/com/acme/Greeter.java::Greeter.greet 1/1 100.0",
        ]
    );
    // Test functions ran; they are not what coverage measures.
    assert!(!rows(&r).iter().any(|row| row.contains("test")));
    assert_eq!((r["measured"].as_u64(), r["uncovered"].as_u64()), (Some(10), Some(4)));
    let reports: Vec<(String, String, u64, u64)> = r["reports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["path"].as_str().unwrap().into(),
                x["format"].as_str().unwrap().into(),
                x["files"].as_u64().unwrap(),
                x["matched"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        reports,
        [
            ("coverage/lcov.info".into(), "lcov".into(), 1, 1),
            ("coverage/cobertura-coverage.xml".into(), "cobertura".into(), 1, 1),
            ("coverage.xml".into(), "cobertura".into(), 3, 3),
            ("target/site/jacoco/jacoco.xml".into(), "jacoco".into(), 1, 1),
            ("coverage.out".into(), "go_cover_profile".into(), 1, 1),
            ("coverage.json".into(), "coverage_py_json".into(), 3, 3),
        ]
    );
    assert_eq!(r["evidence"], "coverage report");

    let filtered = analyze(
        &index,
        "coverage",
        json!({ "max_percent": 70, "symbol_kind": "function", "path_prefix": "js" }),
    )
    .unwrap();
    assert_eq!(
        rows(&filtered),
        [
            "measured/js/calc.js::unused 0/2 0.0",
            "measured/js/calc.js::divide 2/3 66.7"
        ]
    );
    let one = analyze(&index, "coverage", json!({ "reports": ["coverage.out"] })).unwrap();
    assert_eq!(
        rows(&one),
        [
            "measured/mathx/mathx.go::Never 0/3 0.0",
            "measured/mathx/mathx.go::Clamp 5/7 71.4"
        ]
    );
}

#[test]
fn totals_per_file_and_directory() {
    let (_home, index) = index_of(&fixtures().join("measured"));
    let s = analyze(&index, "coverage_summary", json!({ "group_by": "file" })).unwrap();
    let groups: Vec<String> = s["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            format!(
                "{} {}/{} {} fns {}-{}",
                g["path"].as_str().unwrap(),
                g["covered"],
                g["lines"],
                g["percent"],
                g["functions"],
                g["functions_uncovered"]
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            "mathx/mathx.go 6/12 50.0 fns 2-1",
            "src/main/java/com/acme/Greeter.java 2/4 50.0 fns 2-1",
            "js/calc.js 4/7 57.1 fns 3-1",
            "shapes/area.py 6/9 66.7 fns 3-1",
        ]
    );
    assert_eq!(
        (s["lines"].as_u64(), s["covered"].as_u64(), s["percent"].as_f64()),
        (Some(32), Some(18), Some(56.3))
    );
    assert_eq!(
        (
            s["functions"].as_u64(),
            s["functions_covered"].as_u64(),
            s["files"].as_u64()
        ),
        (Some(10), Some(6), Some(4))
    );
    let dirs = analyze(&index, "coverage_summary", json!({})).unwrap();
    let names: Vec<&str> = dirs["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["path"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mathx", "src/main/java/com/acme", "js", "shapes"]);
}

#[test]
fn files_changed_after_the_report_are_stale() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("measured");
    copy_tree(&fixtures().join("measured"), &root);
    let written = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in [
        "coverage.out",
        "coverage/lcov.info",
        "coverage/cobertura-coverage.xml",
        "coverage.xml",
        "coverage.json",
        "target/site/jacoco/jacoco.xml",
    ] {
        std::fs::File::options()
            .write(true)
            .open(root.join(entry))
            .unwrap()
            .set_modified(written)
            .unwrap();
    }
    for source in [
        "js/calc.js",
        "mathx/mathx.go",
        "shapes/area.py",
        "src/main/java/com/acme/Greeter.java",
    ] {
        std::fs::File::options()
            .write(true)
            .open(root.join(source))
            .unwrap()
            .set_modified(written - std::time::Duration::from_secs(60))
            .unwrap();
    }
    std::fs::File::options()
        .write(true)
        .open(root.join("mathx/mathx.go"))
        .unwrap()
        .set_modified(std::time::SystemTime::now())
        .unwrap();
    let (_home, index) = index_of(&root);
    let r = analyze(&index, "coverage", json!({})).unwrap();
    let stale: Vec<&str> = r["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["stale"] == true)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(stale, ["Never", "Clamp"]);
    let go = r["reports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["path"] == "coverage.out")
        .unwrap();
    assert_eq!(go["stale_files"], 1);
}

#[test]
fn bad_reports_and_no_reports_are_explained() {
    let (_home, index) = index_of(&fixtures().join("measured"));
    let missing = analyze(&index, "coverage", json!({ "reports": ["nope.info"] })).unwrap_err();
    assert_eq!(missing.code, "invalid_argument");
    assert!(missing.message.contains("nope.info"), "{}", missing.message);
    let outside = analyze(&index, "coverage", json!({ "reports": ["../review/golden.txt"] })).unwrap_err();
    assert!(
        outside.message.contains("outside the repository"),
        "{}",
        outside.message
    );
    let not_a_report = analyze(&index, "coverage", json!({ "reports": ["go.mod"] })).unwrap_err();
    assert!(
        not_a_report.message.contains("not readable as a coverage report"),
        "{}",
        not_a_report.message
    );
    let bad = analyze(&index, "coverage", json!({ "max_percent": 140 })).unwrap_err();
    assert!(bad.message.contains("max_percent"));
    let bad = analyze(&index, "coverage_summary", json!({ "group_by": "package" })).unwrap_err();
    assert!(bad.message.contains("group_by"));

    let (_home2, bare) = index_of(&fixtures().join("review"));
    let none = analyze(&bare, "coverage_summary", json!({})).unwrap_err();
    assert_eq!(none.code, "unavailable");
    assert!(none.message.contains("go test -coverprofile"), "{}", none.message);
}
