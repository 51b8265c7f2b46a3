//! Documents and configuration: Markdown sections, manifests' dependencies and scripts,
//! Dockerfile stages, proto schemas and SQL tables — snapshots plus targeted assertions.

mod common;

use common::{assert_ref, extract, extract_fixture, imports_of, on_small_stack, render, sym};
use gortex_core::{EdgeKind, ImportKind, Language, NodeKind, Receiver, TypeFlavor};

fn deps(language: Language, rel: &str) -> Vec<(String, u32)> {
    let f = extract_fixture(language, &format!("documents/{rel}"));
    assert!(f.imports.iter().all(|i| i.kind == ImportKind::Dependency));
    f.imports.iter().map(|i| (i.module.clone(), i.line)).collect()
}

fn owned(list: &[(&str, u32)]) -> Vec<(String, u32)> {
    list.iter().map(|(m, l)| (m.to_string(), *l)).collect()
}

#[test]
fn snapshots() {
    for (language, rel) in [
        (Language::Markdown, "README.md"),
        (Language::Dockerfile, "Dockerfile"),
        (Language::Proto, "svc.proto"),
        (Language::Sql, "schema.sql"),
    ] {
        let name = rel.replace('.', "_").to_lowercase();
        insta::assert_snapshot!(
            format!("documents_{name}"),
            render(&extract_fixture(language, &format!("documents/{rel}")))
        );
    }
}

#[test]
fn markdown_headings_are_nested_sections_and_fences_are_text() {
    let f = extract_fixture(Language::Markdown, "documents/README.md");
    let top = sym(&f, "gortex-engine");
    assert_eq!(top.kind, NodeKind::Doc);
    assert_eq!(top.signature.as_deref(), Some("# Gortex engine"));
    assert_eq!(top.doc.as_deref(), Some("Intro paragraph about the engine."));
    assert_eq!((top.span.start_line, top.span.end_line), (4, 23));
    let install = sym(&f, "gortex-engine.install-from-source");
    assert_eq!((install.span.start_line, install.span.end_line), (9, 17));
    assert_eq!(
        install.doc.as_deref(),
        Some("Run it."),
        "code fences are not the summary"
    );
    assert_eq!(
        sym(&f, "gortex-engine.setext-title").signature.as_deref(),
        Some("## Setext Title")
    );
    assert_eq!(sym(&f, "gortex-engine.setext-title.deep").span.start_line, 23);
    assert_eq!(
        f.symbols.len(),
        4,
        "the `# not a heading` line in the fence and the front matter are not headings:\n{}",
        render(&f)
    );
}

#[test]
fn markdown_edge_cases() {
    let f = extract(
        Language::Markdown,
        "a.md",
        "#hashtag\n####### seven\n    # indented code\n~~~\n# in tilde fence\n~~~\n## Real\nx\n",
    );
    assert_eq!(
        f.symbols.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        vec!["real"]
    );
    // An unclosed fence hides the rest of the file; nothing panics on a lone `---`.
    let f = extract(Language::Markdown, "b.md", "---\n# Title\n```\n# no\n");
    assert_eq!(
        f.symbols.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        vec!["title"]
    );
}

#[test]
fn manifests_declare_dependencies_on_their_lines() {
    assert_eq!(
        deps(Language::Json, "package.json"),
        owned(&[("express", 8), ("@scope/ui", 9), ("jest", 12)])
    );
    assert_eq!(
        deps(Language::Toml, "Cargo.toml"),
        owned(&[
            ("serde", 6),
            ("tree_sitter", 7),
            ("tokio", 9),
            ("insta", 13),
            ("libc", 16)
        ])
    );
    assert_eq!(
        deps(Language::Text, "go.mod"),
        owned(&[
            ("github.com/google/uuid", 5),
            ("golang.org/x/sync", 8),
            ("github.com/stretchr/testify", 9)
        ])
    );
    assert_eq!(
        deps(Language::Toml, "pyproject.toml"),
        owned(&[
            ("requests", 4),
            ("pydantic", 5),
            ("pytest", 9),
            ("ruff", 9),
            ("fastapi", 13)
        ])
    );
    assert_eq!(
        deps(Language::Text, "requirements-dev.txt"),
        owned(&[("black", 3), ("flake8", 4)])
    );
}

#[test]
fn manifests_of_php_ruby_java_dotnet_and_gradle() {
    // Composer: packages, not the platform (`php`, `ext-*`).
    assert_eq!(
        deps(Language::Json, "composer.json"),
        owned(&[("monolog/monolog", 6), ("psr/log", 7), ("phpunit/phpunit", 10)])
    );
    // Bundler and gemspecs: gem names, as `require` names them; comments are not gems.
    assert_eq!(
        deps(Language::Text, "Gemfile"),
        owned(&[("rails", 3), ("pg", 4), ("rspec-rails", 7)])
    );
    assert_eq!(
        deps(Language::Text, "shop.gemspec"),
        owned(&[("rack", 3), ("thor", 4), ("minitest", 5)])
    );
    // Maven: `<dependency>` coordinates only (not the parent, not plugins).
    assert_eq!(
        deps(Language::Text, "pom.xml"),
        owned(&[
            ("com.google.code.gson:gson", 9),
            ("org.junit.jupiter:junit-jupiter", 14)
        ])
    );
    // MSBuild: NuGet ids of package references, not project references.
    assert_eq!(
        deps(Language::Text, "Shop.csproj"),
        owned(&[("Newtonsoft.Json", 3), ("Serilog", 4)])
    );
    // Gradle, Groovy and Kotlin DSL: `group:artifact` of the dependency configurations.
    assert_eq!(
        deps(Language::Text, "build.gradle"),
        owned(&[
            ("com.squareup.okhttp3:okhttp", 6),
            ("junit:junit", 7),
            ("org.jetbrains.kotlin:kotlin-bom", 9)
        ])
    );
    // A Kotlin build script is code too: its calls stay, its dependencies are added.
    let kts = extract_fixture(Language::Kotlin, "documents/build.gradle.kts");
    let modules: Vec<(&str, u32)> = kts
        .imports
        .iter()
        .filter(|i| i.kind == ImportKind::Dependency)
        .map(|i| (i.module.as_str(), i.line))
        .collect();
    assert_eq!(
        modules,
        vec![("com.squareup.okio:okio", 6), ("com.google.dagger:dagger-compiler", 8)]
    );
    assert!(kts
        .refs
        .iter()
        .any(|r| r.kind == EdgeKind::Calls && r.name == "implementation"));
}

#[test]
fn npm_scripts_are_script_symbols() {
    let f = extract_fixture(Language::Json, "documents/package.json");
    let build = sym(&f, "build");
    assert_eq!((build.kind, build.span.start_line), (NodeKind::Script, 4));
    assert_eq!(build.signature.as_deref(), Some("build: tsc -p ."));
    assert_eq!(sym(&f, "test").span.start_line, 5);
    // Invalid JSON is only text.
    let broken = extract(Language::Json, "web/package.json", "{\"dependencies\": {\"a\": ");
    assert!(broken.imports.is_empty() && broken.symbols.is_empty());
}

#[test]
fn dockerfile_stages_chain_and_images_are_dependencies() {
    let f = extract_fixture(Language::Dockerfile, "documents/Dockerfile");
    let build = sym(&f, "build");
    assert_eq!(
        (build.kind, build.span.start_line, build.span.end_line),
        (NodeKind::Stage, 3, 7)
    );
    assert_eq!(build.signature.as_deref(), Some("FROM golang:1.22-alpine AS build"));
    assert!(
        f.symbols.iter().any(|s| s.name == "stage-2"),
        "an unnamed stage is named by its index"
    );
    assert_ref(&f, EdgeKind::Extends, "test", "build", Receiver::None);
    assert_ref(&f, EdgeKind::References, "stage-2", "build", Receiver::None);
    assert_eq!(
        imports_of(&f).iter().map(|i| i.0).collect::<Vec<_>>(),
        vec!["docker:golang", "docker:gcr.io/distroless/static"]
    );
    // `COPY --from=0` means the first stage.
    assert_eq!(
        f.refs
            .iter()
            .filter(|r| r.name == "build" && r.kind == EdgeKind::References)
            .count(),
        2
    );
}

#[test]
fn proto_messages_services_and_field_types() {
    let f = extract_fixture(Language::Proto, "documents/svc.proto");
    assert_eq!(f.package.as_deref(), Some("shop.v1"));
    assert_eq!(
        imports_of(&f),
        vec![
            ("google/protobuf/timestamp.proto", ImportKind::Wildcard, None, None),
            ("common/money.proto", ImportKind::Wildcard, None, None)
        ]
    );
    let order = sym(&f, "Order");
    assert_eq!((order.kind, order.flavor), (NodeKind::Type, Some(TypeFlavor::Message)));
    assert_eq!(order.doc.as_deref(), Some("An order placed by a customer."));
    assert_eq!(sym(&f, "Order.Item").flavor, Some(TypeFlavor::Message));
    assert_eq!(
        sym(&f, "Order.card").kind,
        NodeKind::Field,
        "oneof fields belong to the message"
    );
    assert_eq!(sym(&f, "Order.State.PAID").kind, NodeKind::EnumMember);
    assert_eq!(sym(&f, "Order.totals").type_name.as_deref(), Some("map<string, Money>"));
    let svc = sym(&f, "OrderService");
    assert_eq!(svc.flavor, Some(TypeFlavor::Service));
    let place = sym(&f, "OrderService.PlaceOrder");
    assert_eq!(place.kind, NodeKind::Method);
    assert_eq!(
        place.signature.as_deref(),
        Some("rpc PlaceOrder(PlaceOrderRequest) returns (Order)")
    );
    assert_eq!(place.doc.as_deref(), Some("Places an order."));
    assert_eq!(
        sym(&f, "OrderService.Watch").signature.as_deref(),
        Some("rpc Watch(WatchRequest) returns (Order)")
    );
    assert_ref(
        &f,
        EdgeKind::TypedAs,
        "OrderService.PlaceOrder",
        "PlaceOrderRequest",
        Receiver::None,
    );
    assert_ref(&f, EdgeKind::Returns, "OrderService.Watch", "Order", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Order.placed_at", "Timestamp", Receiver::None);
    assert_ref(&f, EdgeKind::TypedAs, "Order.totals", "Money", Receiver::None);
    assert!(!f.refs.iter().any(|r| r.name == "string"), "scalars are not references");
}

#[test]
fn sql_tables_columns_views_and_foreign_keys() {
    let f = extract_fixture(Language::Sql, "documents/schema.sql");
    let users = sym(&f, "users");
    assert_eq!(
        (users.flavor, users.span.start_line, users.span.end_line),
        (Some(TypeFlavor::Table), 2, 6)
    );
    assert_eq!(sym(&f, "users.email").type_name.as_deref(), Some("TEXT"));
    assert!(
        sym(&f, "users.display name").kind == NodeKind::Field,
        "quoted identifiers are unquoted"
    );
    assert!(!f.symbols.iter().any(|s| s.name.eq_ignore_ascii_case("constraint")));
    assert_ref(&f, EdgeKind::References, "orders.user_id", "users", Receiver::None);
    assert_ref(&f, EdgeKind::References, "orders", "invoices", Receiver::None);
    assert_eq!(sym(&f, "big_orders").flavor, Some(TypeFlavor::View));
    assert_ref(&f, EdgeKind::References, "big_orders", "orders", Receiver::None);
    assert_ref(&f, EdgeKind::References, "big_orders", "users", Receiver::None);
    assert_eq!(sym(&f, "touch").kind, NodeKind::Function);
    assert_eq!(sym(&f, "mood.happy").kind, NodeKind::EnumMember);
    assert_eq!(
        f.symbols.iter().filter(|s| s.kind == NodeKind::Type).count(),
        4,
        "the `;` inside $$ … $$ ends nothing"
    );
}

#[test]
fn garbage_deep_and_binary_input_never_panics() {
    let deep_proto = format!("{}{}", "message A { ".repeat(20_000), "}".repeat(20_000));
    let deep_sql = format!("CREATE TABLE t {}{};", "(".repeat(50_000), ")".repeat(10));
    let deep_md = "#".repeat(100_000);
    let facts = on_small_stack(move || {
        let mut out = Vec::new();
        for (lang, path, src) in [
            (Language::Proto, "a.proto", deep_proto.as_str()),
            (Language::Sql, "a.sql", deep_sql.as_str()),
            (Language::Markdown, "a.md", deep_md.as_str()),
            (Language::Dockerfile, "Dockerfile", "FROM\nCOPY --from=\\\n"),
            (Language::Proto, "b.proto", "service { rpc ( returns"),
            (Language::Sql, "b.sql", "CREATE TABLE IF"),
            (Language::Json, "package.json", "\u{0}\u{1}garbage"),
            (Language::Toml, "Cargo.toml", "[dependencies\nserde = "),
            (Language::Json, "composer.json", "{\"require\": {\"a/b\": "),
            (Language::Text, "Gemfile", "gem \"unterminated"),
            (
                Language::Text,
                "pom.xml",
                "<dependency><groupId>a</groupId><artifactId>",
            ),
            (Language::Text, "a.csproj", "<PackageReference Include=\"x"),
            (Language::Text, "build.gradle", "implementation '\nimplementation \"a\""),
        ] {
            out.push(extract(lang, path, src));
        }
        out
    });
    assert_eq!(
        facts[0].symbols.len(),
        64 + 1,
        "nesting past the cap is skipped, not recursed"
    );
    assert!(facts[2].symbols.is_empty());
}
