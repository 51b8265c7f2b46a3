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
fn vue_options_api_members_belong_to_the_component() {
    let f = extract_fixture(Language::Vue, "components/legacy-button.vue");
    assert_eq!(f.syntax_errors, 0, "{}", render(&f));
    // The component comes first so its members can follow it.
    let component = &f.symbols[0];
    assert_eq!(
        (component.name.as_str(), component.flavor),
        ("LegacyButton", Some(TypeFlavor::Component))
    );
    let members: Vec<(&str, NodeKind)> = f
        .symbols
        .iter()
        .filter(|s| s.parent == Some(0))
        .map(|s| (s.name.as_str(), s.kind))
        .collect();
    for method in ["data", "label", "pressed", "handleClick", "notify", "format", "created"] {
        assert!(
            members.contains(&(method, NodeKind::Method)),
            "{method} is a method of the component: {members:?}"
        );
    }
    for field in ["size", "kind", "clicks"] {
        assert!(
            members.contains(&(field, NodeKind::Field)),
            "{field} is a field of the component: {members:?}"
        );
    }
    // `pressed` is both a data key and a watcher: one member, the method.
    assert_eq!(members.iter().filter(|(n, _)| *n == "pressed").count(), 1);
    // `notify: function () {}` was no symbol of the script's: it is declared, and what it does is its own.
    assert_ref(&f, EdgeKind::Calls, "LegacyButton.notify", "track", Receiver::None);
    assert_ref(&f, EdgeKind::Calls, "LegacyButton.created", "notify", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Calls, "LegacyButton.label", "format", Receiver::SelfRef);
    assert_ref(&f, EdgeKind::Instantiates, "LegacyButton", "BaseButton", Receiver::None);
    // Parents still precede children, and every index points at a symbol.
    for (i, s) in f.symbols.iter().enumerate() {
        assert!(s.parent.is_none_or(|p| (p as usize) < i), "{} at {i}", s.name);
    }
    assert!(f
        .refs
        .iter()
        .all(|r| r.from.is_none_or(|i| (i as usize) < f.symbols.len())));
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
