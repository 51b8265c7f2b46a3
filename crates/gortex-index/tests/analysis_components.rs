//! UI components through the query door, on a real index of `test/fixtures/components`, with
//! exact expected rows: `analyze kind=components`, `find_usages` with `flavor` and the usage
//! origins, and `flavor:component` in `search_symbols` and `graph_query`.
//!
//! Fixture shape (planted facts): React `Button`, `Icon`, `Badge` (memo), `Field`
//! (forwardRef), class components `Legacy` and `Pure` beside the look-alikes `formatLabel`,
//! `Helper` and `useCounter`; `App` rendering `Legacy`, `Button` and `Icon`; a Solid `Counter`;
//! Vue `UserCard` and Svelte `Counter`; Angular `HeroComponent` beside `HeroService`; Lit
//! `MyElement` and the custom element `PlainCounter`; SwiftUI `ContentView` beside `Model`;
//! Compose `Greeting` and `Screen` (which renders it) beside `plainHelper`; Flutter `HomePage`,
//! `CounterPage` and `Shell` (which renders `HomePage`) beside a `State` and `Repository`; Blazor
//! `CounterBase` beside `Store`; Vue `UserList` rendering `UserCard`.

mod common;

use common::*;
use serde_json::{json, Value};

#[test]
fn components_across_frameworks() {
    let repo = fixture_index("components");
    let r = repo.query("analyze", json!({ "kind": "components" })).unwrap();
    let rows: Vec<String> = r["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}::{} rendered_by={} used_by={} renders=[{}]",
                c["framework"].as_str().unwrap(),
                c["component"]["file_path"].as_str().unwrap(),
                c["component"]["qual_name"].as_str().unwrap(),
                c["rendered_by"],
                c["used_by"],
                strings(&c["renders"]).join(",")
            )
        })
        .collect();
    let b = "components/web/src/Button.tsx::";
    let want = [
        "compose android/Greeting.kt::Greeting rendered_by=1 used_by=1 renders=[]".to_string(),
        "compose android/Greeting.kt::Screen rendered_by=0 used_by=0 renders=[components/android/Greeting.kt::Greeting]".into(),
        "angular angular/hero.component.ts::HeroComponent rendered_by=0 used_by=0 renders=[]".into(),
        "blazor blazor/Counter.cs::CounterBase rendered_by=0 used_by=0 renders=[]".into(),
        "flutter flutter/lib/home.dart::HomePage rendered_by=1 used_by=1 renders=[]".into(),
        "flutter flutter/lib/home.dart::CounterPage rendered_by=0 used_by=0 renders=[]".into(),
        "flutter flutter/lib/home.dart::Shell rendered_by=0 used_by=0 renders=[components/flutter/lib/home.dart::HomePage]".into(),
        "swiftui ios/ContentView.swift::ContentView rendered_by=0 used_by=0 renders=[]".into(),
        "lit lit/my-element.ts::MyElement rendered_by=0 used_by=0 renders=[]".into(),
        // `customElements.define('plain-counter', PlainCounter)` is a use, from no component.
        "web_component lit/my-element.ts::PlainCounter rendered_by=0 used_by=1 renders=[]".into(),
        "svelte vue/Counter.svelte::Counter rendered_by=0 used_by=0 renders=[]".into(),
        // Imported and rendered by `UserList`: two uses, one renderer.
        "vue vue/UserCard.vue::UserCard rendered_by=1 used_by=2 renders=[]".into(),
        "vue vue/UserList.vue::UserList rendered_by=0 used_by=0 renders=[components/vue/UserCard.vue::UserCard]".into(),
        format!("react web/src/App.tsx::App rendered_by=0 used_by=0 renders=[{b}Button,{b}Icon,{b}Legacy]"),
        "react web/src/Button.tsx::Button rendered_by=2 used_by=3 renders=[]".into(),
        "react web/src/Button.tsx::Icon rendered_by=2 used_by=3 renders=[]".into(),
        "react web/src/Button.tsx::Badge rendered_by=1 used_by=1 renders=[]".into(),
        "react web/src/Button.tsx::Field rendered_by=0 used_by=0 renders=[]".into(),
        format!("react web/src/Button.tsx::Legacy rendered_by=1 used_by=2 renders=[{b}Button,{b}Icon]"),
        format!("react web/src/Button.tsx::Pure rendered_by=0 used_by=0 renders=[{b}Badge]"),
        "solid web/src/Counter.jsx::Counter rendered_by=0 used_by=0 renders=[]".into(),
    ];
    assert_eq!(rows, want);
    assert_eq!(
        r["by_framework"],
        json!({ "angular": 1, "blazor": 1, "compose": 2, "flutter": 3, "lit": 1, "react": 7, "solid": 1,
                "svelte": 1, "swiftui": 1, "vue": 2, "web_component": 1 })
    );
    assert_eq!((r["total"].clone(), r["unused_count"].clone()), (json!(21), json!(13)));

    let react = repo
        .query(
            "analyze",
            json!({ "kind": "components", "framework": "Flutter", "limit": 2 }),
        )
        .unwrap();
    let names: Vec<&str> = react["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["component"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["HomePage", "CounterPage"]);
    assert_eq!(
        (react["total"].clone(), react["truncated"].clone()),
        (json!(3), json!(true))
    );
    assert_eq!(
        react["unused"],
        json!([
            "components/flutter/lib/home.dart::CounterPage",
            "components/flutter/lib/home.dart::Shell"
        ])
    );
}

#[test]
fn an_unknown_framework_is_refused_by_name() {
    let repo = fixture_index("components");
    let err = repo
        .query("analyze", json!({ "kind": "components", "framework": "backbone" }))
        .unwrap_err();
    assert_eq!(err.code, "invalid_argument");
    assert!(
        err.message.contains("\"backbone\"") && err.message.contains("react, preact, solid"),
        "{}",
        err.message
    );
}

#[test]
fn usages_carry_their_origin_and_filter_by_flavor() {
    let repo = fixture_index("components");
    let all = repo
        .query("find_usages", json!({ "id": "web/src/Button.tsx::Button" }))
        .unwrap();
    let origins: Vec<(String, Value, Value, Value)> = all["usages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["from"].as_str().unwrap().to_string(),
                u["from_type_flavor"].clone(),
                u["from_ui_component"].clone(),
                u["via"].clone(),
            )
        })
        .collect();
    let app = json!("components/web/src/App.tsx::App");
    let legacy = json!("components/web/src/Button.tsx::Legacy");
    assert_eq!(
        origins,
        vec![
            // The import is module-level code: no enclosing type, no component.
            (
                "components/web/src/App.tsx".to_string(),
                Value::Null,
                Value::Null,
                Value::Null
            ),
            // Each JSX use is a reference, and a render React performs: a synthesized call.
            (
                "components/web/src/App.tsx::App".into(),
                Value::Null,
                app.clone(),
                json!("jsx_render")
            ),
            ("components/web/src/App.tsx::App".into(), Value::Null, app, Value::Null),
            (
                "components/web/src/Button.tsx::Legacy.render".into(),
                json!("class"),
                legacy.clone(),
                json!("jsx_render")
            ),
            (
                "components/web/src/Button.tsx::Legacy.render".into(),
                json!("class"),
                legacy,
                Value::Null
            ),
        ]
    );
    let from = |flavor: Value| -> Vec<String> {
        let r = repo
            .query(
                "find_usages",
                json!({ "id": "web/src/Button.tsx::Button", "flavor": flavor }),
            )
            .unwrap();
        r["usages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["via"].is_null())
            .map(|u| u["from"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(from(json!("class")), ["components/web/src/Button.tsx::Legacy.render"]);
    assert_eq!(
        from(json!("component")),
        [
            "components/web/src/App.tsx::App",
            "components/web/src/Button.tsx::Legacy.render"
        ]
    );
    assert_eq!(from(json!(["struct", "enum"])), Vec::<String>::new());
    let err = repo
        .query(
            "find_usages",
            json!({ "id": "web/src/Button.tsx::Button", "flavor": "widget" }),
        )
        .unwrap_err();
    assert!(
        err.message.contains("flavor contains unknown value \"widget\""),
        "{}",
        err.message
    );
}

#[test]
fn flavor_component_spans_every_framework() {
    let repo = fixture_index("components");
    let found = repo
        .query(
            "search_symbols",
            json!({ "query": "Counter", "flavor": "component", "limit": 20 }),
        )
        .unwrap();
    let mut rows: Vec<(String, String)> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["ui_framework"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    rows.sort();
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        rows,
        vec![
            s("components/blazor/Counter.cs::CounterBase", "blazor"),
            s("components/flutter/lib/home.dart::CounterPage", "flutter"),
            s("components/lit/my-element.ts::PlainCounter", "web_component"),
            s("components/vue/Counter.svelte::Counter", "svelte"),
            s("components/web/src/Counter.jsx::Counter", "solid"),
        ],
        "the Flutter State class is not a component"
    );
    // `flavor:class` still finds a class component: a component keeps its own shape.
    let classes = repo
        .query("search_symbols", json!({ "query": "Legacy flavor:class" }))
        .unwrap();
    assert_eq!(
        classes["results"][0]["id"],
        json!("components/web/src/Button.tsx::Legacy")
    );
    let q = repo
        .query("graph_query", json!({ "query": "nodes flavor=component lang=tsx" }))
        .unwrap();
    let names: Vec<&str> = q["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["App", "Badge", "Button", "Field", "Icon", "Legacy", "Pure"]);
}
