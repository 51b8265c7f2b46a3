//! Vue and Svelte single-file components: script blocks read as TypeScript at their own lines,
//! the component symbol, and the components a template renders.

mod common;

use common::{assert_ref, extract_fixture, imports_of, render, sym};
use gortex_core::{EdgeKind, ImportKind, Language, NodeKind, Receiver, TypeFlavor};

#[test]
fn snapshots() {
    insta::assert_snapshot!(
        "component_user_card_vue",
        render(&extract_fixture(Language::Vue, "components/user-card.vue"))
    );
    insta::assert_snapshot!(
        "component_counter_svelte",
        render(&extract_fixture(Language::Svelte, "components/Counter.svelte"))
    );
}

#[test]
fn vue_script_setup_at_its_own_lines() {
    let f = extract_fixture(Language::Vue, "components/user-card.vue");
    assert_eq!(
        f.syntax_errors,
        0,
        "markup and styles are blanked before parsing:\n{}",
        render(&f)
    );
    let save = sym(&f, "save");
    assert_eq!(
        (save.kind, save.span.start_line, save.span.end_line),
        (NodeKind::Function, 15, 17)
    );
    assert_eq!(
        imports_of(&f),
        vec![
            ("./UserAvatar.vue", ImportKind::Default, None, Some("UserAvatar")),
            ("./base-button.vue", ImportKind::Default, None, Some("BaseButton")),
            ("../api", ImportKind::Named, Some("saveUser"), Some("saveUser"))
        ]
    );
    let card = sym(&f, "UserCard");
    assert_eq!(
        (card.kind, card.flavor, card.default_export),
        (NodeKind::Type, Some(TypeFlavor::Component), true)
    );
    assert_eq!((card.span.start_line, card.span.end_line), (1, 23));
    assert_ref(&f, EdgeKind::Calls, "save", "saveUser", Receiver::None);
    // Template tags: PascalCase and kebab-case components the script imports; not HTML, not unknown ones.
    assert_ref(&f, EdgeKind::Instantiates, "UserCard", "UserAvatar", Receiver::None);
    assert_ref(&f, EdgeKind::Instantiates, "UserCard", "BaseButton", Receiver::None);
    assert!(!f
        .refs
        .iter()
        .any(|r| r.name == "Unknown" || r.name == "div" || r.name == "defineProps"));
    let avatar = f
        .refs
        .iter()
        .find(|r| r.name == "UserAvatar" && r.kind == EdgeKind::Instantiates)
        .unwrap();
    assert_eq!((avatar.line, avatar.col), (3, 5));
}

#[test]
fn svelte_module_and_instance_scripts() {
    let f = extract_fixture(Language::Svelte, "components/Counter.svelte");
    assert_eq!(f.syntax_errors, 0, "{}", render(&f));
    assert_eq!(sym(&f, "prerender").span.start_line, 2);
    assert_eq!(sym(&f, "increment").span.start_line, 10);
    assert!(sym(&f, "Counter").default_export);
    assert_ref(&f, EdgeKind::Instantiates, "Counter", "Button", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "button"));
}
