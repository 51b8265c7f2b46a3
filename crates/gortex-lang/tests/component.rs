//! Vue and Svelte single-file components: script blocks read as TypeScript at their own lines,
//! the component symbol, and the components a template renders.

mod common;

use common::{assert_ref, extract, extract_fixture, imports_of, render, sym};
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
fn vue_mixins_and_extends_are_supertypes_and_mixin_modules_are_types() {
    let f = extract(
        Language::Vue,
        "src/components/ToggleLink.vue",
        "<template><a/></template>\n<script>\nimport Emitter from '../mixins/emitter';\nimport Base from './Base.vue';\nexport default {\n  mixins: [Emitter, { methods: {} }],\n  extends: Base,\n  methods: { toggle() { this.dispatch('x'); } },\n};\n</script>\n",
    );
    let supertypes: Vec<(&str, u32)> = f
        .refs
        .iter()
        .filter(|r| r.kind == EdgeKind::Extends && r.from == Some(0))
        .map(|r| (r.name.as_str(), r.line))
        .collect();
    // An inline object in `mixins` names no type.
    assert_eq!(supertypes, vec![("Emitter", 6), ("Base", 7)]);

    // A plain module exporting an options object is a mixin type holding its members.
    let source = "function helper() {}\nexport default {\n  data() { return { open: false }; },\n  methods: {\n    dispatch(name) { helper(); },\n  },\n};\n";
    for (language, path) in [
        (Language::JavaScript, "src/mixins/emitter.js"),
        (Language::TypeScript, "src/mixins/emitter.ts"),
    ] {
        let m = extract(language, path, source);
        let mixin = &m.symbols[0];
        assert_eq!(
            (mixin.name.as_str(), mixin.kind, mixin.flavor, mixin.default_export),
            ("Emitter", NodeKind::Type, Some(TypeFlavor::Mixin), true),
            "{}",
            render(&m)
        );
        assert_eq!(sym(&m, "Emitter.dispatch").kind, NodeKind::Method);
        assert_eq!(sym(&m, "Emitter.open").kind, NodeKind::Field);
        assert_ref(&m, EdgeKind::Calls, "Emitter.dispatch", "helper", Receiver::None);
        assert_eq!(
            sym(&m, "helper").kind,
            NodeKind::Function,
            "a helper beside the options stays a function"
        );
    }
    // Options that render make a component written in plain script.
    let col = extract(
        Language::JavaScript,
        "src/col.js",
        "export default {\n  name: 'ElCol',\n  props: { push: Number },\n  render(h) { return h('div'); },\n};\n",
    );
    assert_eq!(
        (col.symbols[0].name.as_str(), col.symbols[0].flavor),
        ("Col", Some(TypeFlavor::Component))
    );
    assert_eq!(sym(&col, "Col.push").kind, NodeKind::Field);
    assert_eq!(sym(&col, "Col.render").kind, NodeKind::Method);
    // An object without component options, or a module with a default export of its own, is no mixin.
    for source in [
        "export default { name: 'x', version: 2 };\n",
        "export default function make() { return { methods: {} }; }\n",
    ] {
        let m = extract(Language::JavaScript, "src/config.js", source);
        assert!(
            !m.symbols.iter().any(|s| s.flavor == Some(TypeFlavor::Mixin)),
            "{}",
            render(&m)
        );
    }
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
