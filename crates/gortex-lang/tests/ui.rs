//! UI components across frameworks: every declaration of the planted fixture that renders UI
//! carries its framework, and the look-alikes (lower-case JSX helpers, hooks, plain classes,
//! a `Component` decorator or base class without the framework's import) carry none.

mod common;

use common::extract;
use gortex_core::{Language, UiFramework};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../test/fixtures/components/");

/// `(qualified name, framework)` for every symbol of `rel` that is a UI component.
fn components(rel: &str) -> Vec<(String, UiFramework)> {
    let source = std::fs::read_to_string(format!("{ROOT}{rel}")).unwrap();
    let facts = extract(Language::from_path(rel).unwrap(), rel, &source);
    (0..facts.symbols.len())
        .filter_map(|i| {
            let s = &facts.symbols[i];
            s.ui.map(|u| (common::qualified(&facts, i as u32), u))
        })
        .collect()
}

fn named(rows: &[(&str, UiFramework)]) -> Vec<(String, UiFramework)> {
    rows.iter().map(|(n, f)| (n.to_string(), *f)).collect()
}

#[test]
fn react_components_are_functions_constants_and_classes_that_render() {
    use UiFramework::React;
    assert_eq!(
        components("web/src/Button.tsx"),
        named(&[
            ("Button", React),
            ("Icon", React),
            ("Badge", React),
            ("Field", React),
            ("Legacy", React),
            ("Pure", React),
        ]),
        "formatLabel (lower-case), Helper (renders nothing) and useCounter (a hook returning markup) are not components"
    );
    assert_eq!(components("web/src/App.tsx"), named(&[("App", React)]));
}

#[test]
fn jsx_framework_comes_from_the_imports() {
    assert_eq!(
        components("web/src/Counter.jsx"),
        named(&[("Counter", UiFramework::Solid)])
    );
    let preact = "import { h } from 'preact';\nexport function Card() { return <div />; }\n";
    assert_eq!(
        extract(Language::JavaScript, "card.jsx", preact).symbols[0].ui,
        Some(UiFramework::Preact)
    );
}

#[test]
fn single_file_components() {
    assert_eq!(components("vue/UserCard.vue"), named(&[("UserCard", UiFramework::Vue)]));
    assert_eq!(
        components("vue/Counter.svelte"),
        named(&[("Counter", UiFramework::Svelte)])
    );
}

#[test]
fn decorated_and_derived_components() {
    assert_eq!(
        components("angular/hero.component.ts"),
        named(&[("HeroComponent", UiFramework::Angular)])
    );
    assert_eq!(
        components("lit/my-element.ts"),
        named(&[
            ("MyElement", UiFramework::Lit),
            ("PlainCounter", UiFramework::WebComponent)
        ])
    );
    assert_eq!(
        components("ios/ContentView.swift"),
        named(&[("ContentView", UiFramework::SwiftUi)])
    );
    assert_eq!(
        components("android/Greeting.kt"),
        named(&[("Greeting", UiFramework::Compose), ("Screen", UiFramework::Compose)]),
        "plainHelper is no composable"
    );
    assert_eq!(
        components("flutter/lib/home.dart"),
        named(&[
            ("HomePage", UiFramework::Flutter),
            ("CounterPage", UiFramework::Flutter),
            ("Shell", UiFramework::Flutter)
        ]),
        "a State<…> class and a plain class are not widgets"
    );
    assert_eq!(
        components("blazor/Counter.cs"),
        named(&[("CounterBase", UiFramework::Blazor)])
    );
}

#[test]
fn a_name_alone_is_not_a_framework() {
    // `Component` as a base class without React's import, and as a decorator without Angular's.
    let base = "class Engine extends Component { update() {} }\n";
    assert_eq!(extract(Language::TypeScript, "engine.ts", base).symbols[0].ui, None);
    let decorator = "@Component({})\nexport class Widget {}\n";
    assert_eq!(
        extract(Language::TypeScript, "widget.ts", decorator).symbols[0].ui,
        None
    );
    // `View` without SwiftUI.
    let swift = "struct Row: View { }\n";
    assert_eq!(extract(Language::Swift, "Row.swift", swift).symbols[0].ui, None);
    // A composable returning a value is a helper.
    let kt = "@Composable\nfun rememberThing(): Thing = Thing()\n";
    assert_eq!(extract(Language::Kotlin, "Thing.kt", kt).symbols[0].ui, None);
}
