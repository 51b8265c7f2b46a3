//! The sidecar through its public API on real files: migrations in place, memories with anchors,
//! recall candidates, feedback and the savings ledger.

use gortex_store::{
    AnchorInput, AnchorUpdate, FeedbackInput, MemoryInput, MemoryListQuery, MemoryPatch, MemoryQuery, SavingsEntry,
    Sidecar, StoreError, MIGRATIONS,
};

fn memory(kind: &str, repo: &str, body: &str, anchors: &[(&str, &str)]) -> MemoryInput {
    MemoryInput {
        kind: kind.into(),
        repo: repo.into(),
        title: None,
        body: body.into(),
        tags: vec!["Auth".into(), "auth".into(), "hot path".into()],
        session: Some("s1".into()),
        anchors: anchors
            .iter()
            .map(|(k, t)| AnchorInput {
                kind: (*k).into(),
                target: (*t).into(),
                name: None,
                fingerprint: None,
            })
            .collect(),
    }
}

fn query(repo: &str) -> MemoryQuery {
    MemoryQuery {
        repo: repo.into(),
        text: None,
        kinds: vec![],
        targets: vec![],
        files: vec![],
        all_repos: false,
        limit: 50,
    }
}

#[test]
fn an_old_database_is_migrated_in_place_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("home/sidecar.sqlite");
    let id = {
        let v1 = Sidecar::open_at_version(&path, 1).unwrap();
        assert_eq!(v1.schema_version().unwrap(), 1);
        v1.memory_add(&memory(
            "decision",
            "app",
            "Tokens are refreshed by the gateway, never by clients",
            &[("symbol", "app/auth.ts::refresh")],
        ))
        .unwrap()
        .id
    };
    let store = Sidecar::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    let kept = store.memory_get(&[id]).unwrap();
    assert_eq!(kept[0].body, "Tokens are refreshed by the gateway, never by clients");
    assert_eq!(kept[0].anchors[0].target, "app/auth.ts::refresh");
    assert_eq!(kept[0].tags, vec!["auth", "hot-path"]);
    // The tables of version 2 work on the migrated file.
    store
        .savings_add(&[SavingsEntry {
            day: "2026-12-05".into(),
            repo: "app".into(),
            tool: "get_symbol_source".into(),
            calls: 1,
            returned_tokens: 10,
            baseline_tokens: 400,
        }])
        .unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_newer_database_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sidecar.sqlite");
    drop(Sidecar::open(&path).unwrap());
    {
        let conn = rusqlite_free_bump(&path);
        drop(conn);
    }
    match Sidecar::open(&path) {
        Err(StoreError::TooNew { found, .. }) => assert_eq!(found, MIGRATIONS.len() as i64 + 1),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a newer schema must be refused"),
    }
}

/// Bumps the schema version past what this build knows, through the store's own SQLite.
fn rusqlite_free_bump(path: &std::path::Path) -> Sidecar {
    let store = Sidecar::open(path).unwrap();
    store.debug_set_user_version(MIGRATIONS.len() as i64 + 1).unwrap();
    store
}

#[test]
fn recall_candidates_come_from_text_anchors_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let a = store
        .memory_add(&memory(
            "invariant",
            "app",
            "Session tokens must be rotated on every login",
            &[("symbol", "app/src/auth.ts::login")],
        ))
        .unwrap();
    let b = store
        .memory_add(&memory(
            "memory",
            "app",
            "The cache layer is write-through",
            &[("file", "app/src/cache.ts")],
        ))
        .unwrap();
    let c = store
        .memory_add(&memory(
            "note",
            "other",
            "Rotation also applies to the other service",
            &[],
        ))
        .unwrap();
    let g = store
        .memory_add(&memory("memory", "", "Prefer small commits everywhere", &[]))
        .unwrap();

    let mut q = query("app");
    q.text = Some("rotate tokens".into());
    let hits = store.memory_search(&q).unwrap();
    assert_eq!(
        hits.iter().map(|h| h.memory.id).collect::<Vec<_>>(),
        vec![a.id],
        "prefix terms match `rotated`, other repos are out"
    );
    assert!(hits[0].text_score.unwrap() > 0.0);

    q.all_repos = true;
    q.text = Some("rotation".into());
    assert_eq!(
        store
            .memory_search(&q)
            .unwrap()
            .iter()
            .map(|h| h.memory.id)
            .collect::<Vec<_>>(),
        vec![c.id]
    );

    let mut q = query("app");
    q.files = vec!["app/src/auth.ts".into()];
    assert_eq!(
        store
            .memory_search(&q)
            .unwrap()
            .iter()
            .map(|h| h.memory.id)
            .collect::<Vec<_>>(),
        vec![a.id],
        "a symbol inside the file counts"
    );
    q.files = vec!["app/src/cache.ts".into()];
    assert_eq!(
        store
            .memory_search(&q)
            .unwrap()
            .iter()
            .map(|h| h.memory.id)
            .collect::<Vec<_>>(),
        vec![b.id]
    );

    // Neither text nor anchors: the newest of this repository and the global ones.
    let recent: Vec<i64> = store
        .memory_search(&query("app"))
        .unwrap()
        .iter()
        .map(|h| h.memory.id)
        .collect();
    assert_eq!(recent.len(), 3);
    assert!(recent.contains(&g.id) && !recent.contains(&c.id));

    let mut q = query("app");
    q.kinds = vec!["bogus".into()];
    assert!(matches!(store.memory_search(&q), Err(StoreError::Invalid(_))));
}

#[test]
fn anchors_follow_moves_and_are_flagged_when_lost() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let m = store
        .memory_add(&memory(
            "decision",
            "app",
            "login is rate limited upstream",
            &[
                ("symbol", "app/src/auth.ts::login"),
                ("file", "app/src/auth.ts"),
                ("symbol", "app/src/auth.ts::logout"),
            ],
        ))
        .unwrap();
    // A file move carries the file anchor and every symbol inside it.
    assert_eq!(
        store
            .anchors_retarget("app", "app/src/auth.ts", "app/src/session/auth.ts", None)
            .unwrap(),
        3
    );
    // A rename re-points one symbol and its name.
    assert_eq!(
        store
            .anchors_retarget(
                "app",
                "app/src/session/auth.ts::login",
                "app/src/session/auth.ts::signIn",
                Some("signIn")
            )
            .unwrap(),
        1
    );
    store
        .anchors_update(&[AnchorUpdate {
            memory_id: m.id,
            ord: 2,
            target: "app/src/session/auth.ts::logout".into(),
            status: "missing".into(),
            name: None,
            fingerprint: None,
        }])
        .unwrap();
    let m = store.memory_get(&[m.id]).unwrap().pop().unwrap();
    let shown: Vec<(&str, &str, &str)> = m
        .anchors
        .iter()
        .map(|a| (a.target.as_str(), a.original.as_str(), a.status.as_str()))
        .collect();
    assert_eq!(
        shown,
        vec![
            ("app/src/session/auth.ts::signIn", "app/src/auth.ts::login", "moved"),
            ("app/src/session/auth.ts", "app/src/auth.ts", "moved"),
            ("app/src/session/auth.ts::logout", "app/src/auth.ts::logout", "missing"),
        ]
    );
    assert_eq!(m.anchors[0].name.as_deref(), Some("signIn"));
    // Another repository's anchors are not touched.
    let other = store
        .memory_add(&memory("memory", "lib", "x", &[("file", "app/src/session/auth.ts")]))
        .unwrap();
    store
        .anchors_retarget("app", "app/src/session/auth.ts", "app/auth.ts", None)
        .unwrap();
    assert_eq!(
        store.memory_get(&[other.id]).unwrap()[0].anchors[0].target,
        "app/src/session/auth.ts"
    );
}

#[test]
fn edits_list_and_forget() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let m = store.memory_add(&memory("memory", "app", "first text", &[])).unwrap();
    let edited = store
        .memory_update(&MemoryPatch {
            id: m.id,
            kind: Some("decision".into()),
            title: Some("Why".into()),
            body: Some("second text".into()),
            tags: None,
            anchors: None,
        })
        .unwrap();
    assert_eq!(
        (edited.kind.as_str(), edited.title.as_deref(), edited.body.as_str()),
        ("decision", Some("Why"), "second text")
    );
    let mut q = query("app");
    q.text = Some("second".into());
    assert_eq!(
        store.memory_search(&q).unwrap().len(),
        1,
        "the full-text index follows edits"
    );
    q.text = Some("first".into());
    assert_eq!(store.memory_search(&q).unwrap().len(), 0);
    assert!(matches!(
        store.memory_update(&MemoryPatch {
            id: 999,
            kind: None,
            title: None,
            body: Some("x".into()),
            tags: None,
            anchors: None
        }),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.memory_add(&memory("memory", "app", "  ", &[])),
        Err(StoreError::Invalid(_))
    ));
    for i in 0..5 {
        store
            .memory_add(&memory("note", "app", &format!("note {i}"), &[]))
            .unwrap();
    }
    let (page, total) = store
        .memory_list(&MemoryListQuery {
            repo: Some("app".into()),
            kinds: vec!["note".into()],
            session: None,
            limit: 2,
            offset: 0,
        })
        .unwrap();
    assert_eq!((page.len(), total), (2, 5));
    assert_eq!(page[0].body, "note 4");
    assert_eq!(store.memory_delete(&[m.id, 12345]).unwrap(), vec![m.id]);
    q.text = Some("second".into());
    assert_eq!(
        store.memory_search(&q).unwrap().len(),
        0,
        "forgotten memories leave the full-text index"
    );
    store.memory_mark_accessed(&[page[0].id]).unwrap();
    assert_eq!(store.memory_get(&[page[0].id]).unwrap()[0].access_count, 1);
}

#[test]
fn feedback_tallies_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let rate = |tool: &str, rating: &str, ids: &[&str]| {
        store
            .feedback_add(&FeedbackInput {
                repo: "app".into(),
                tool: tool.into(),
                rating: rating.into(),
                ids: ids.iter().map(|s| s.to_string()).collect(),
                note: None,
                session: None,
                at: None,
            })
            .unwrap()
    };
    assert_eq!(rate("search_symbols", "useful", &["a", "b"]), 2);
    rate("search_symbols", "useful", &["a"]);
    rate("search_symbols", "missing", &["c"]);
    rate("explore", "wrong", &["b"]);
    rate("explore", "not_useful", &[]);
    let t = store
        .feedback_tallies("app", &["a".into(), "b".into(), "zzz".into()])
        .unwrap();
    assert_eq!((t["a"].useful, t["b"].useful, t["b"].wrong), (2, 1, 1));
    assert!(!t.contains_key("zzz"));
    let r = store.feedback_report(Some("app"), 0, 10).unwrap();
    assert_eq!(r.ratings, 6);
    assert_eq!(r.most_useful, vec![("a".to_string(), 2), ("b".to_string(), 1)]);
    assert_eq!(r.most_missed, vec![("c".to_string(), 1)]);
    let search = r.by_tool.iter().find(|t| t.tool == "search_symbols").unwrap();
    assert_eq!((search.precision, search.recall), (Some(1.0), Some(0.75)));
    assert_eq!(r.precision, Some(0.6));
    assert!(store.feedback_report(Some("other"), 0, 10).unwrap().ratings == 0);
    assert!(matches!(
        store.feedback_add(&FeedbackInput {
            repo: "app".into(),
            tool: "x".into(),
            rating: "meh".into(),
            ids: vec![],
            note: None,
            session: None,
            at: None
        }),
        Err(StoreError::Invalid(_))
    ));
}

#[test]
fn the_savings_ledger_sums_per_day_tool_and_repo() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let e = |day: &str, tool: &str, ret: i64, base: i64| SavingsEntry {
        day: day.into(),
        repo: "app".into(),
        tool: tool.into(),
        calls: 1,
        returned_tokens: ret,
        baseline_tokens: base,
    };
    store
        .savings_add(&[
            e("2026-12-01", "get_symbol_source", 100, 2000),
            e("2026-12-01", "get_symbol_source", 50, 1000),
            e("2026-12-02", "search_symbols", 300, 900),
        ])
        .unwrap();
    let all = store.savings_report(None).unwrap();
    assert_eq!(
        (all.total.calls, all.total.returned_tokens, all.total.baseline_tokens),
        (3, 450, 3900)
    );
    assert_eq!(all.by_tool[0].key, "get_symbol_source");
    assert_eq!(
        all.by_day.iter().map(|d| d.key.as_str()).collect::<Vec<_>>(),
        vec!["2026-12-01", "2026-12-02"]
    );
    assert_eq!(store.savings_report(Some("2026-12-02")).unwrap().total.calls, 1);
    assert!(matches!(
        store.savings_report(Some("yesterday")),
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.savings_reset().unwrap(), 2);
    assert_eq!(store.savings_report(None).unwrap().total.calls, 0);
}

#[test]
fn many_connections_opening_a_new_file_at_once_all_get_it() {
    // A daemon, MCP servers and CLI processes may open a fresh home together: switching the file
    // to WAL and migrating it must wait for each other, never fail.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fresh/sidecar.sqlite");
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let (path, barrier) = (path.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let store = Sidecar::open(&path).map_err(|e| e.to_string())?;
                store
                    .memory_add(&memory("memory", "app", &format!("writer {i}"), &[]))
                    .map_err(|e| e.to_string())?;
                Ok::<_, String>(())
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap().unwrap();
    }
    let store = Sidecar::open(&path).unwrap();
    assert_eq!(
        store
            .memory_list(&MemoryListQuery {
                repo: None,
                kinds: vec![],
                session: None,
                limit: 100,
                offset: 0
            })
            .unwrap()
            .1,
        8
    );
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
}

#[test]
fn recall_by_thousands_of_anchor_ids_and_a_batched_import() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sidecar::open(&dir.path().join("s.sqlite")).unwrap();
    let m = store
        .memory_add(&memory(
            "memory",
            "app",
            "deep in the call graph",
            &[("symbol", "app/src/deep.ts::fn1999")],
        ))
        .unwrap();
    // A focus with its callers and callees can name thousands of ids: far past SQLite's expression depth as an OR chain.
    let mut q = query("app");
    q.targets = (0..2000).map(|i| format!("app/src/deep.ts::fn{i}")).collect();
    q.files = (0..600).map(|i| format!("app/src/f{i}.ts")).collect();
    assert_eq!(
        store
            .memory_search(&q)
            .unwrap()
            .iter()
            .map(|h| h.memory.id)
            .collect::<Vec<_>>(),
        vec![m.id]
    );
    let rows: Vec<FeedbackInput> = (0..500)
        .map(|i| FeedbackInput {
            repo: "app".into(),
            tool: "imported".into(),
            rating: "useful".into(),
            ids: vec![format!("id{}", i % 10)],
            note: None,
            session: None,
            at: Some(1),
        })
        .collect();
    assert_eq!(store.feedback_add_many(&rows).unwrap(), 500);
    assert_eq!(
        store.feedback_tallies("app", &["id3".into()]).unwrap()["id3"].useful,
        50
    );
    let mut bad = rows.clone();
    bad[499].rating = "meh".into();
    assert!(matches!(store.feedback_add_many(&bad), Err(StoreError::Invalid(_))));
    assert_eq!(
        store.feedback_count("app").unwrap(),
        500,
        "a refused batch writes nothing"
    );
}
