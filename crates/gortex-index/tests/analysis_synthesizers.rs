//! Framework-dispatch edges (`RefFact::via` → `Edge::via`) through the query door on a real index
//! of `test/fixtures/synth`: `analyze kind=synthesizers` rolls them up per pass, find_usages marks
//! them `via`, and the look-alikes make none.
//!
//! Planted facts:
//! - `web/server.ts`: `app.get('/users', listUsers)`, `router.post('/users', auth, createUser)`
//!   (route handlers and middleware), `bus.on('ready', onReady)` (an event listener), and in
//!   `Widget.mount` `el.addEventListener('click', this.handleClick)`. Look-alikes: `cache.set`,
//!   `bus.emit('ready', onReady)`, `[1, 2].map(onReady)`.
//! - `web/App.tsx`: `App` renders `<Header />` (and an intrinsic `<main>`, `<h1>`).
//! - `web/app.module.ts`: `@Module({ imports: [DbModule], providers: [UsersService],
//!   controllers: [UsersController] })` — `imports` is no provider list.
//! - `py/api.py`: Flask `@app.route("/health")`, FastAPI `@router.get("/items")` with
//!   `Depends(get_db)`; `@app.template_filter("upper")` registers no route.
//! - `py/tests`: `client` in `conftest.py`; `user(client)` a fixture using it; `test_health(client,
//!   tmp_path)` (a builtin) and `test_user(user, missing_plugin_fixture)` (nothing here defines it).
//!   `py/tests/override` overrides `client` with a fixture receiving the conftest one, and
//!   `test_override(client, retries=3)` gets the override (`retries` has a default: no fixture).
//! - Also in `start`: `router.post('/login', loginPayload, notDefinedAnywhere)` — data and an
//!   undefined name make no synthesized edge (no guess, no placeholder).

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("synth"))
}

fn edges(r: &Value) -> Vec<String> {
    r["passes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| {
            p["samples"].as_array().unwrap().iter().map(move |e| {
                format!(
                    "{} {} -{}-> {} ({}:{})",
                    p["pass"].as_str().unwrap(),
                    e["from"]["qual_name"].as_str().unwrap(),
                    e["kind"].as_str().unwrap(),
                    e["to"]["qual_name"].as_str().unwrap(),
                    e["path"].as_str().unwrap(),
                    e["line"]
                )
            })
        })
        .collect()
}

#[test]
fn synthesizers_roll_up_every_framework_dispatch_edge() {
    let r = repo().query("analyze", json!({ "kind": "synthesizers" })).unwrap();
    assert_eq!(
        edges(&r),
        [
            "http_route py/api.py -calls-> health (py/api.py:13)",
            "http_route py/api.py -calls-> items (py/api.py:18)",
            "http_route start -calls-> listUsers (web/server.ts:27)",
            "http_route start -calls-> createUser (web/server.ts:28)",
            "http_route start -calls-> auth (web/server.ts:28)",
            "pytest_fixture client -calls-> client (py/tests/override/test_override.py:5)",
            "pytest_fixture test_override -calls-> client (py/tests/override/test_override.py:10)",
            "pytest_fixture user -calls-> client (py/tests/test_api.py:5)",
            "pytest_fixture test_health -calls-> client (py/tests/test_api.py:9)",
            "pytest_fixture test_user -calls-> user (py/tests/test_api.py:13)",
            "event_handler start -calls-> onReady (web/server.ts:29)",
            "event_handler Widget.mount -calls-> Widget.handleClick (web/server.ts:44)",
            "di_provider AppModule -instantiates-> UsersService (web/app.module.ts:7)",
            "di_provider AppModule -instantiates-> UsersController (web/app.module.ts:7)",
            "jsx_render App -calls-> Header (web/App.tsx:8)",
            "di_depends items -calls-> get_db (py/api.py:18)",
        ]
    );
    let counts: Vec<(String, u64, u64)> = r["passes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["pass"].as_str().unwrap().to_string(),
                p["edges"].as_u64().unwrap(),
                p["targets"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("http_route".to_string(), 5, 5),
            ("pytest_fixture".into(), 5, 3),
            ("event_handler".into(), 2, 2),
            ("di_provider".into(), 2, 2),
            ("jsx_render".into(), 1, 1),
            ("di_depends".into(), 1, 1),
        ]
    );
    assert_eq!(r["total"], 16);
    assert_eq!(r["available"].as_array().unwrap().len(), 6);
    assert_eq!(r["evidence"], "graph");
    // The fixture pytest picks comes from conftest.py: a framework rule, not a name guess.
    assert_eq!(r["passes"][1]["by_origin"], json!({ "ast_inferred": 5 }));
}

#[test]
fn synthesized_edges_show_in_find_usages_and_the_filters_narrow_them() {
    let usages = repo()
        .query("find_usages", json!({ "id": "web/server.ts::listUsers" }))
        .unwrap();
    let rows: Vec<(String, String, Value)> = usages["usages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["kind"].as_str().unwrap().to_string(),
                u["from"].as_str().unwrap().to_string(),
                u["via"].clone(),
            )
        })
        .collect();
    // The argument is a reference in the source; the framework's call is synthesized beside it.
    assert!(
        rows.contains(&("calls".into(), "synth/web/server.ts::start".into(), json!("http_route"))),
        "{rows:?}"
    );
    assert!(
        rows.contains(&("references".into(), "synth/web/server.ts::start".into(), Value::Null)),
        "{rows:?}"
    );
    // The callback handed to `map` and the emitted value make no synthesized edge.
    let ready = repo()
        .query("find_usages", json!({ "id": "web/server.ts::onReady" }))
        .unwrap();
    let via: Vec<&Value> = ready["usages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| &u["via"])
        .filter(|v| !v.is_null())
        .collect();
    assert_eq!(via, [&json!("event_handler")]);

    let web = repo()
        .query(
            "analyze",
            json!({ "kind": "synthesizers", "pass": "http_route", "path_prefix": "web/", "limit": 1 }),
        )
        .unwrap();
    assert_eq!(web["total"], 3);
    assert_eq!(web["passes"][0]["samples"].as_array().unwrap().len(), 1);
    let bad = repo()
        .query("analyze", json!({ "kind": "synthesizers", "pass": "celery" }))
        .unwrap_err();
    assert!(refused(bad).contains("http_route, event_handler, jsx_render, di_provider, di_depends, pytest_fixture"));
}
