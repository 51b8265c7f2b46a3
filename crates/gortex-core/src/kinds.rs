//! Node and edge kinds of the code graph.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        // Serde uses the wire names too, so JSON and `as_str` never disagree (`gotest`, `node-test`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
        pub enum $name { $($(#[$vmeta])* #[serde(rename = $text)] $variant),+ }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire name (snake_case).
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses a wire name; `None` when unknown.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// What a graph node stands for.
    NodeKind {
        File => "file",
        Package => "package",
        Module => "module",
        Function => "function",
        Method => "method",
        Type => "type",
        Interface => "interface",
        Field => "field",
        Constant => "constant",
        Variable => "variable",
        EnumMember => "enum_member",
        Import => "import",
        /// A section of a document: a Markdown heading and the text under it.
        Doc => "doc",
        /// A build stage of a Dockerfile (`FROM … AS name`).
        Stage => "stage",
        /// A named command a project defines (package.json `scripts`).
        Script => "script",
    }
}

string_enum! {
    /// The shape of a `type` node (classes, structs, enums, records, aliases, unions).
    TypeFlavor {
        Class => "class",
        Struct => "struct",
        Enum => "enum",
        Record => "record",
        TypeAlias => "type_alias",
        Union => "union",
        Annotation => "annotation",
        /// A Protocol Buffers message.
        Message => "message",
        /// A Protocol Buffers (gRPC) service.
        Service => "service",
        /// A SQL table.
        Table => "table",
        /// A SQL view.
        View => "view",
        /// A UI component: a Vue or Svelte single-file component. Components of other frameworks
        /// keep their own shape (a React function, a Flutter class) and carry a [`UiFramework`].
        Component => "component",
        /// A Vue options object a script module exports for components to list in `mixins` or
        /// `extends`.
        Mixin => "mixin",
    }
}

string_enum! {
    /// The pass that synthesized a framework-dispatch edge: a call the framework makes on the
    /// code's behalf, which no call expression in the source shows (see `RefFact::via`).
    Synthesizer {
        /// A handler registered for an HTTP route: Express/Koa/Fastify `app.get("/x", handler)`,
        /// Flask/FastAPI `@app.route("/x")` / `@router.get("/x")` on a function.
        HttpRoute => "http_route",
        /// A listener registered for a named event: `on` / `once` / `addListener` /
        /// `addEventListener("click", handler)`.
        EventHandler => "event_handler",
        /// A component a JSX element renders (`<Button />` calls `Button`).
        JsxRender => "jsx_render",
        /// A class listed in dependency-injection metadata: `providers` / `controllers` of a
        /// NestJS or Angular decorator; the container instantiates it.
        DiProvider => "di_provider",
        /// A FastAPI dependency: `Depends(get_db)` calls `get_db` for the endpoint.
        DiDepends => "di_depends",
        /// A pytest fixture a test names as a parameter (`def test_x(db)` runs `db`).
        PytestFixture => "pytest_fixture",
    }
}

string_enum! {
    /// The UI framework a component declaration is written for (see `SymbolFact::ui`).
    UiFramework {
        /// A function rendering JSX, a `memo`/`forwardRef` wrapper, or a class extending
        /// `Component`/`PureComponent`.
        React => "react",
        /// JSX in a file importing `preact`.
        Preact => "preact",
        /// JSX in a file importing `solid-js`.
        Solid => "solid",
        /// A `.vue` single-file component or an options-API component that renders.
        Vue => "vue",
        /// A `.svelte` single-file component.
        Svelte => "svelte",
        /// A class decorated `@Component` in a file importing `@angular/core`.
        Angular => "angular",
        /// A class decorated `@Component` in a file importing `@stencil/core`.
        Stencil => "stencil",
        /// A class extending `LitElement`.
        Lit => "lit",
        /// A custom element: a class extending `HTMLElement`.
        WebComponent => "web_component",
        /// A type conforming to `View` in a file importing SwiftUI.
        SwiftUi => "swiftui",
        /// A function annotated `@Composable`.
        Compose => "compose",
        /// A class extending a Flutter widget base (`StatelessWidget`, `StatefulWidget`, …).
        Flutter => "flutter",
        /// A class extending `ComponentBase` (Blazor).
        Blazor => "blazor",
    }
}

string_enum! {
    /// What a graph edge says about its endpoints.
    EdgeKind {
        Defines => "defines",
        Contains => "contains",
        MemberOf => "member_of",
        Imports => "imports",
        ReExports => "re_exports",
        Calls => "calls",
        References => "references",
        Instantiates => "instantiates",
        Extends => "extends",
        Implements => "implements",
        Overrides => "overrides",
        TypedAs => "typed_as",
        Returns => "returns",
        Tests => "tests",
        /// A package manifest (package.json, Cargo.toml, go.mod, pyproject.toml…) depends on a module.
        DependsOnModule => "depends_on_module",
    }
}

string_enum! {
    /// Declared visibility of a symbol, normalised across languages.
    Visibility {
        Public => "public",
        Protected => "protected",
        Package => "package",
        Private => "private",
    }
}

string_enum! {
    /// The role of a test symbol.
    TestRole {
        Test => "test",
        Benchmark => "benchmark",
        Fuzz => "fuzz",
        Example => "example",
        Fixture => "fixture",
    }
}

string_enum! {
    /// The runner a test symbol belongs to.
    TestRunner {
        Jest => "jest",
        Vitest => "vitest",
        Mocha => "mocha",
        NodeTest => "node-test",
        Pytest => "pytest",
        Unittest => "unittest",
        GoTest => "gotest",
        CargoTest => "cargo-test",
        Junit => "junit",
    }
}

impl NodeKind {
    /// Kinds that make a file "symbol-bearing" (parity coverage, search).
    pub fn is_symbol(self) -> bool {
        !matches!(self, NodeKind::File | NodeKind::Package | NodeKind::Import)
    }

    /// Kinds that can be called.
    pub fn is_callable(self) -> bool {
        matches!(self, NodeKind::Function | NodeKind::Method)
    }

    /// Kinds that declare a named program entity a reference can bind to: functions, methods,
    /// types, interfaces, fields, enum members, constants and variables.
    pub fn is_declaration(self) -> bool {
        matches!(
            self,
            NodeKind::Function
                | NodeKind::Method
                | NodeKind::Type
                | NodeKind::Interface
                | NodeKind::Field
                | NodeKind::EnumMember
                | NodeKind::Constant
                | NodeKind::Variable
        )
    }

    /// Kinds that name a type (targets of `extends`, `implements`, `typed_as`, `returns`).
    pub fn is_type_like(self) -> bool {
        matches!(self, NodeKind::Type | NodeKind::Interface)
    }
}

impl EdgeKind {
    /// Edges that carry "someone uses this" evidence (caveats, dead code).
    pub fn is_usage(self) -> bool {
        matches!(
            self,
            EdgeKind::Calls
                | EdgeKind::References
                | EdgeKind::Instantiates
                | EdgeKind::Implements
                | EdgeKind::Extends
                | EdgeKind::TypedAs
                | EdgeKind::Returns
                | EdgeKind::Tests
        )
    }

    /// Structural edges created by extraction itself rather than by resolution.
    pub fn is_structural(self) -> bool {
        matches!(self, EdgeKind::Defines | EdgeKind::Contains | EdgeKind::MemberOf)
    }
}

#[cfg(test)]
mod wire_names {
    use super::*;

    /// JSON must spell every value exactly as `as_str` does (TS types and CLI filters use those).
    fn check<T: Serialize + Copy>(all: &[T], name: impl Fn(T) -> &'static str) {
        for &v in all {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(name(v)));
        }
    }

    #[test]
    fn serde_names_are_the_wire_names() {
        check(NodeKind::ALL, NodeKind::as_str);
        check(TypeFlavor::ALL, TypeFlavor::as_str);
        check(EdgeKind::ALL, EdgeKind::as_str);
        check(Visibility::ALL, Visibility::as_str);
        check(TestRole::ALL, TestRole::as_str);
        check(TestRunner::ALL, TestRunner::as_str);
        assert_eq!(
            serde_json::to_value(TestRunner::GoTest).unwrap(),
            serde_json::json!("gotest")
        );
    }
}
