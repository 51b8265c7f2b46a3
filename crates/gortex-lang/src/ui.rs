//! UI components across frameworks: which declarations of a file render UI, and for which
//! framework ([`SymbolFact::ui`]). It runs on the extracted facts, after the extractor: a
//! component is recognised by what it extends or implements, how it is annotated, or (for JSX,
//! marked by the ECMAScript extractor) what it renders, with the file's imports naming the
//! framework where a base type or decorator alone would be ambiguous (`Component` is React's
//! base class, Angular's and Stencil's decorator, and a common name in any codebase).

use gortex_core::{EdgeKind, FileFacts, Language, NodeKind, TypeFlavor, UiFramework};

/// Flutter's widget base classes (the framework's own and the common state-management ones).
const FLUTTER_WIDGETS: &[&str] = &[
    "StatelessWidget",
    "StatefulWidget",
    "ConsumerWidget",
    "ConsumerStatefulWidget",
    "HookWidget",
    "HookConsumerWidget",
    "StatefulHookWidget",
];

/// Blazor's component base classes.
const BLAZOR_BASES: &[&str] = &["ComponentBase", "LayoutComponentBase", "OwningComponentBase"];

/// Sets [`SymbolFact::ui`] on the file's UI components.
pub(crate) fn classify(language: Language, facts: &mut FileFacts) {
    let imports = |module: &str| {
        facts
            .imports
            .iter()
            .any(|i| i.module == module || i.module.strip_prefix(module).is_some_and(|r| r.starts_with('/')))
    };
    let script = matches!(
        language,
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Vue | Language::Svelte
    );
    // JSX components were marked React by the extractor; the imports say which JSX framework.
    let jsx = if imports("solid-js") {
        UiFramework::Solid
    } else if imports("preact") {
        UiFramework::Preact
    } else {
        UiFramework::React
    };
    let react_like = imports("react") || imports("preact");
    let decorated = if imports("@angular/core") {
        Some(UiFramework::Angular)
    } else if imports("@stencil/core") {
        Some(UiFramework::Stencil)
    } else if imports("vue-class-component") || imports("vue-property-decorator") {
        Some(UiFramework::Vue)
    } else {
        None
    };
    let swiftui = imports("SwiftUI");

    let mut found: Vec<(u32, UiFramework)> = Vec::new();
    for r in &facts.refs {
        if !matches!(r.kind, EdgeKind::Extends | EdgeKind::Implements) {
            continue;
        }
        let Some(from) = r.from else { continue };
        if facts.symbols[from as usize].kind != NodeKind::Type {
            continue;
        }
        let base = r.name.rsplit(['.', ':']).next().unwrap_or(&r.name);
        let framework = match language {
            _ if script => match base {
                "Component" | "PureComponent" if react_like => Some(jsx),
                "LitElement" => Some(UiFramework::Lit),
                "HTMLElement" => Some(UiFramework::WebComponent),
                _ => None,
            },
            Language::Dart if FLUTTER_WIDGETS.contains(&base) => Some(UiFramework::Flutter),
            Language::Swift if swiftui && base == "View" => Some(UiFramework::SwiftUi),
            Language::CSharp if BLAZOR_BASES.contains(&base) => Some(UiFramework::Blazor),
            _ => None,
        };
        if let Some(f) = framework {
            found.push((from, f));
        }
    }
    for (i, s) in facts.symbols.iter().enumerate() {
        let framework = if s.ui == Some(UiFramework::React) {
            Some(jsx)
        } else if s.flavor == Some(TypeFlavor::Component) {
            Some(if language == Language::Svelte {
                UiFramework::Svelte
            } else {
                UiFramework::Vue
            })
        } else if s.decorators.iter().any(|d| d == "Component") && s.kind == NodeKind::Type && script {
            decorated
        } else if language == Language::Kotlin && s.decorators.iter().any(|d| d == "Composable") {
            // A composable that returns a value (`remember…` helpers) is not a component.
            let returns_value = s.return_type.as_deref().is_some_and(|t| t != "Unit")
                || facts
                    .refs
                    .iter()
                    .any(|r| r.kind == EdgeKind::Returns && r.from == Some(i as u32) && r.name != "Unit");
            (s.kind == NodeKind::Function && !returns_value).then_some(UiFramework::Compose)
        } else {
            None
        };
        if let Some(f) = framework {
            found.push((i as u32, f));
        }
    }
    for (i, f) in found {
        facts.symbols[i as usize].ui = Some(f);
    }
}
