//! `analyze kind=stale_flags` through the query door on a real git repository built commit by
//! commit (fixed authors and dates): flag checks of every provider, their line ages from git, the
//! `days` threshold, uncommitted checks, look-alikes, filters and a folder outside git.
//!
//! Planted history (head commit 2024-01-01):
//! - 2020-01-01 (1461 days before head): `old-checkout` (LaunchDarkly `boolVariation` in TS and
//!   Go `BoolVariation`), `legacy_search` (Unleash `is_enabled` in Python), `dark-mode`
//!   (GrowthBook `isOn`).
//! - 2023-06-01 (214 days): `dark-mode` gets a second check (OpenFeature-style code elsewhere
//!   keeps it fresh), `new-pricing` (OpenFeature `getBooleanValue`), `beta-reports` (in-house
//!   `features.isEnabled`).
//! - The Go OpenFeature check `BooleanValue(ctx, "go-flag", …)` lands at head (0 days).
//! - Look-alikes: `settings.getStringValue("x")` (no flag client), `button.enabled("y")`.
//! - A test file checks `old-checkout` at head: counted only with `include_tests`.

mod common;

use common::{commit, git, index, options, write_file};
use serde_json::{json, Value};

const DEV: (&str, &str) = ("Dev", "dev@example.com");

fn rows(r: &Value) -> Vec<String> {
    r["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}d x{} stale={}",
                f["flag"].as_str().unwrap(),
                f["provider"].as_str().unwrap(),
                f["age_days"],
                f["checks"],
                f["stale"]
            )
        })
        .collect()
}

#[test]
fn stale_flags_age_checks_by_their_lines_in_git() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = dir.path().join("shop");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q", "-b", "main"], DEV, "2020-01-01T00:00:00Z");
    write_file(
        &root,
        "web/checkout.ts",
        "export function checkout(ld: LDClient, gb: GrowthBook, user: User) {\n  if (ld.boolVariation('old-checkout', user, false)) {\n    return 'old';\n  }\n  return gb.isOn('dark-mode') ? 'dark' : 'light';\n}\n",
    );
    write_file(
        &root,
        "svc/pay.go",
        "package svc\n\nfunc Pay(client LDClient, user User) bool {\n\treturn client.BoolVariation(\"old-checkout\", user, false)\n}\n",
    );
    write_file(
        &root,
        "app/search.py",
        "def search(unleash, q):\n    if unleash.is_enabled(\"legacy_search\"):\n        return []\n    return [q]\n",
    );
    commit(&root, DEV, "2020-01-01T00:00:00Z", "flags for the checkout");
    write_file(
        &root,
        "web/theme.ts",
        "export function theme(growthbook: GrowthBook, client: OpenFeatureClient, features: Features, settings: Settings, button: Button) {\n  const dark = growthbook.isOn('dark-mode');\n  const pricing = client.getBooleanValue('new-pricing', false);\n  const reports = features.isEnabled('beta-reports');\n  settings.getStringValue('x');\n  button.enabled('y');\n  return { dark, pricing, reports };\n}\n",
    );
    commit(&root, DEV, "2023-06-01T00:00:00Z", "theme flags");
    write_file(
        &root,
        "svc/feature.go",
        "package svc\n\nfunc Go(ctx Ctx, client OFClient) bool {\n\tv, _ := client.BooleanValue(ctx, \"go-flag\", false, nil)\n\treturn v\n}\n",
    );
    write_file(
        &root,
        "web/checkout.test.ts",
        "test('old', () => { expect(ld.boolVariation('old-checkout', user, false)).toBe(true); });\n",
    );
    commit(&root, DEV, "2024-01-01T00:00:00Z", "go flag");
    let (repo, _) = index(&root, &options(home.path()));
    let analyze = |args: Value| {
        let mut args = args;
        args["kind"] = json!("stale_flags");
        repo.query("analyze", args).unwrap()
    };

    let all = analyze(json!({ "all": true }));
    assert_eq!(
        rows(&all),
        [
            "legacy_search unleash 1461d x1 stale=true",
            "old-checkout launchdarkly 1461d x2 stale=true",
            "beta-reports internal 214d x1 stale=false",
            "dark-mode growthbook 214d x2 stale=false",
            "new-pricing openfeature 214d x1 stale=false",
            "go-flag openfeature 0d x1 stale=false",
        ]
    );
    assert_eq!((all["examined"].as_u64(), all["stale"].as_u64()), (Some(6), Some(2)));
    assert_eq!(all["as_of"], "2024-01-01");
    assert_eq!(all["evidence"], "ast+git");
    let dark = &all["flags"][3];
    assert_eq!(dark["last_touched"]["summary"], "theme flags");
    let sites: Vec<String> = dark["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}:{} {} {}d {}",
                s["path"].as_str().unwrap(),
                s["line"],
                s["call"].as_str().unwrap(),
                s["age_days"],
                s["function"]["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        sites,
        [
            "web/theme.ts:2 isOn 214d theme",
            "web/checkout.ts:5 isOn 1461d checkout"
        ]
    );

    // The default answer: only the stale flags, oldest first.
    let stale = analyze(json!({}));
    assert_eq!(
        rows(&stale),
        [
            "legacy_search unleash 1461d x1 stale=true",
            "old-checkout launchdarkly 1461d x2 stale=true"
        ]
    );
    assert_eq!(stale["days"], 365);
    let recent = analyze(json!({ "days": 200 }));
    assert_eq!(recent["total"], 5);
    let ld = analyze(json!({ "provider": "launchdarkly", "path_prefix": "svc/" }));
    assert_eq!(rows(&ld), ["old-checkout launchdarkly 1461d x1 stale=true"]);
    // A test's check is code someone touched today: with tests counted the flag is fresh.
    let with_tests = analyze(json!({ "include_tests": true, "all": true, "provider": "launchdarkly" }));
    assert_eq!(rows(&with_tests), ["old-checkout launchdarkly 0d x3 stale=false"]);

    // An edit not committed yet makes the check age 0.
    write_file(
        &root,
        "app/search.py",
        "def search(unleash, q):\n    if unleash.is_enabled(\"legacy_search\") and q:\n        return []\n    return [q]\n",
    );
    let (edited, _) = index(&root, &options(home.path()));
    let r = edited
        .query(
            "analyze",
            json!({ "kind": "stale_flags", "all": true, "provider": "unleash" }),
        )
        .unwrap();
    assert_eq!(rows(&r), ["legacy_search unleash 0d x1 stale=false"]);
    assert!(r["flags"][0]["sites"][0].get("last_change").is_none());

    let bad = repo
        .query("analyze", json!({ "kind": "stale_flags", "provider": "flagsmith" }))
        .unwrap_err();
    assert!(
        bad.message
            .contains("launchdarkly, unleash, growthbook, openfeature, internal"),
        "{}",
        bad.message
    );
    let bad = repo
        .query("analyze", json!({ "kind": "stale_flags", "days": 0 }))
        .unwrap_err();
    assert!(bad.message.contains("days"), "{}", bad.message);
}

#[test]
fn stale_flags_outside_git_says_history_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    write_file(
        dir.path(),
        "a.ts",
        "export const x = (ld: L) => ld.variation('f', u, false);\n",
    );
    let (repo, _) = index(dir.path(), &options(home.path()));
    let e = repo.query("analyze", json!({ "kind": "stale_flags" })).unwrap_err();
    assert_eq!(e.code, "unavailable");
    assert!(e.message.contains("not inside a git worktree"), "{}", e.message);
}
