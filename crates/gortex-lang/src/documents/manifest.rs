//! Package manifests: the dependencies they declare become `Dependency` imports (one
//! `depends_on_module` edge to a module node each), on the line that names them; npm scripts
//! become `script` symbols. Module names are the ones code imports use where the ecosystem
//! allows it (npm package names, Rust crate names with `-` as `_`, Go module paths), so a
//! manifest and the files importing a package meet at the same module node. Where code imports
//! something else than the package (PHP namespaces, Java packages), the manifest's own name is
//! kept: `vendor/name` for Composer, `group:artifact` for Maven and Gradle.

use super::{line_span, summary};
use gortex_core::{FileFacts, ImportFact, ImportKind, NodeKind, SymbolFact};

type Reader = fn(&str, &mut FileFacts);

/// The reader for a manifest file name, if it is one.
pub(super) fn reader(name: &str) -> Option<Reader> {
    Some(match name {
        "package.json" => package_json,
        "Cargo.toml" => cargo_toml,
        "go.mod" => go_mod,
        "pyproject.toml" => pyproject,
        n if n.starts_with("requirements") && n.ends_with(".txt") => requirements,
        "composer.json" => composer_json,
        "Gemfile" => gemfile,
        n if n.ends_with(".gemspec") => gemfile,
        "pom.xml" => pom_xml,
        "Directory.Packages.props" => msbuild_project,
        n if n.ends_with(".csproj") || n.ends_with(".fsproj") || n.ends_with(".vbproj") => msbuild_project,
        "build.gradle" | "build.gradle.kts" => gradle,
        _ => return None,
    })
}

fn dependency(facts: &mut FileFacts, module: &str, line: u32) {
    let module = module.trim();
    if module.is_empty() || facts.imports.iter().any(|i| i.module == module) {
        return;
    }
    facts.imports.push(ImportFact {
        module: module.to_string(),
        kind: ImportKind::Dependency,
        name: None,
        local: None,
        reexport: false,
        type_only: false,
        line,
    });
}

/// 1-based line of the first occurrence of `needle` at or after byte `from`, with its offset.
fn find_line(text: &str, from: usize, needle: &str) -> Option<(usize, u32)> {
    let at = from + text.get(from..)?.find(needle)?;
    Some((at, text[..at].bytes().filter(|&b| b == b'\n').count() as u32 + 1))
}

/// package.json: `dependencies`, `devDependencies`, `peerDependencies`, `optionalDependencies`
/// and `scripts`. Invalid JSON yields nothing (the file stays searchable text).
fn package_json(text: &str, facts: &mut FileFacts) {
    let Ok(serde_json::Value::Object(root)) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    json_dependencies(
        text,
        &root,
        &[
            "dependencies",
            "devDependencies",
            "peerDependencies",
            "optionalDependencies",
        ],
        |_| true,
        facts,
    );
    if let Some(serde_json::Value::Object(scripts)) = root.get("scripts") {
        let start = find_line(text, 0, "\"scripts\"").map_or(0, |(at, _)| at);
        for (name, command) in scripts {
            let Some((at, line)) = find_line(text, start, &format!("\"{name}\"")) else {
                continue;
            };
            let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
            let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
            let mut sym = SymbolFact::new(name.clone(), NodeKind::Script, line_span(line, line, end - start));
            let command = command.as_str().unwrap_or_default();
            sym.signature = Some(format!("{name}: {}", summary(command, 200)));
            sym.exported = true;
            facts.symbols.push(sym);
        }
        facts.symbols.sort_by_key(|s| s.span.start_line);
    }
}

/// TOML section header → its dotted name (`[target.'cfg(unix)'.dependencies]` keeps quotes).
fn toml_section(line: &str) -> Option<String> {
    let l = line.trim();
    let inner = l
        .strip_prefix("[[")
        .and_then(|r| r.strip_suffix("]]"))
        .or_else(|| l.strip_prefix('[')?.split(']').next())?;
    Some(inner.split('.').map(|p| p.trim()).collect::<Vec<_>>().join("."))
}

/// `name = …` → `name` (bare or quoted key).
fn toml_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"').trim_matches('\'');
    (!key.is_empty() && !key.contains(char::is_whitespace)).then_some(key)
}

/// Cargo.toml: `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`,
/// `[workspace.dependencies]`, `[target.….dependencies]` keys and `[dependencies.name]` tables.
fn cargo_toml(text: &str, facts: &mut FileFacts) {
    let is_deps = |s: &str| {
        matches!(
            s.rsplit('.').next(),
            Some("dependencies" | "dev-dependencies" | "build-dependencies")
        )
    };
    let mut in_deps = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let n = i as u32 + 1;
        if line.starts_with('[') {
            let Some(section) = toml_section(line) else {
                in_deps = false;
                continue;
            };
            in_deps = is_deps(&section);
            // `[dependencies.serde]`: the table is the dependency.
            if let Some((parent, name)) = section.rsplit_once('.') {
                if is_deps(parent) {
                    dependency(facts, &name.trim_matches('"').replace('-', "_"), n);
                }
            }
            continue;
        }
        if in_deps {
            if let Some(key) = toml_key(line) {
                dependency(facts, &key.replace('-', "_"), n);
            }
        }
    }
}

/// go.mod: `require path version` lines and `require ( … )` blocks.
fn go_mod(text: &str, facts: &mut FileFacts) {
    let mut in_block = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let n = i as u32 + 1;
        if in_block {
            if line.starts_with(')') {
                in_block = false;
            } else if let Some(path) = line.split_whitespace().next() {
                dependency(facts, path, n);
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("require") {
            let rest = rest.trim();
            if rest.starts_with('(') {
                in_block = true;
            } else if let Some(path) = rest.split_whitespace().next() {
                dependency(facts, path, n);
            }
        }
    }
}

/// The distribution name of a PEP 508 requirement (`requests[socks]>=2; python_version<"3.8"`).
fn requirement_name(spec: &str) -> Option<&str> {
    let spec = spec.trim().trim_matches(['"', '\'', ',']).trim();
    let end = spec
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(spec.len());
    let name = &spec[..end];
    (!name.is_empty() && name.starts_with(|c: char| c.is_ascii_alphanumeric())).then_some(name)
}

/// pyproject.toml: PEP 621 `dependencies` / `optional-dependencies` arrays and Poetry
/// dependency tables (`python` itself is not a dependency).
fn pyproject(text: &str, facts: &mut FileFacts) {
    let mut section = String::new();
    let mut in_array = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        let n = i as u32 + 1;
        if in_array {
            for item in line.split(',') {
                let item = item.trim().trim_end_matches(']');
                if item.starts_with(['"', '\'']) {
                    if let Some(name) = requirement_name(item) {
                        dependency(facts, name, n);
                    }
                }
            }
            if line.contains(']') && !line.contains('[') || line.ends_with(']') {
                in_array = false;
            }
            continue;
        }
        if line.starts_with('[') {
            section = toml_section(line).unwrap_or_default();
            continue;
        }
        let Some(key) = toml_key(line) else { continue };
        let value = line.split_once('=').map_or("", |(_, v)| v.trim());
        let pep621 = (section == "project" && key == "dependencies") || section == "project.optional-dependencies";
        if pep621 && value.starts_with('[') {
            let body = &value[1..];
            for item in body.split(',') {
                let item = item.trim().trim_end_matches(']');
                if let Some(name) = requirement_name(item) {
                    dependency(facts, name, n);
                }
            }
            in_array = !value.contains(']');
            continue;
        }
        let poetry = section.starts_with("tool.poetry") && section.ends_with("dependencies");
        if poetry && key != "python" {
            dependency(facts, key, n);
        }
    }
}

/// requirements.txt: one requirement per line; options (`-r`, `-e`), URLs and comments skipped.
fn requirements(text: &str, facts: &mut FileFacts) {
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with(['#', '-']) || line.contains("://") {
            continue;
        }
        if let Some(name) = requirement_name(line) {
            dependency(facts, name, i as u32 + 1);
        }
    }
}

/// composer.json: `require` and `require-dev` packages (`vendor/name`); the platform itself (`php`,
/// `ext-*`, `lib-*`, `composer-*`) is not a dependency. Invalid JSON yields nothing.
fn composer_json(text: &str, facts: &mut FileFacts) {
    let Ok(serde_json::Value::Object(root)) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let package = |name: &str| {
        let platform = name == "php" || ["ext-", "lib-", "composer-"].iter().any(|p| name.starts_with(p));
        !platform && name.contains('/')
    };
    json_dependencies(text, &root, &["require", "require-dev"], package, facts);
}

/// The keys of a JSON manifest's dependency objects (`sections`) that `keep` accepts, each a
/// dependency on the line that names it, in file order.
fn json_dependencies(
    text: &str,
    root: &serde_json::Map<String, serde_json::Value>,
    sections: &[&str],
    keep: impl Fn(&str) -> bool,
    facts: &mut FileFacts,
) {
    // Keys come back sorted (serde_json maps are ordered by key); facts follow the file.
    let mut found: Vec<(u32, &str)> = Vec::new();
    for section in sections {
        let Some(serde_json::Value::Object(deps)) = root.get(*section) else {
            continue;
        };
        let start = find_line(text, 0, &format!("\"{section}\"")).map_or(0, |(at, _)| at);
        for name in deps.keys().filter(|n| keep(n)) {
            let line = find_line(text, start, &format!("\"{name}\"")).map_or(1, |(_, l)| l);
            found.push((line, name));
        }
    }
    found.sort();
    for (line, name) in found {
        dependency(facts, name, line);
    }
}

/// The first quoted string of a line (`'…'` or `"…"`).
fn first_quoted(line: &str) -> Option<&str> {
    let open = line.find(['\'', '"'])?;
    let quote = line[open..].chars().next()?;
    let rest = &line[open + 1..];
    Some(&rest[..rest.find(quote)?])
}

/// Gemfile (`gem 'rails'`) and `*.gemspec` (`spec.add_dependency 'rake'`, runtime and
/// development): the gem names, which are what `require` names.
fn gemfile(text: &str, facts: &mut FileFacts) {
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let call = line.split(['(', ' ', '\t']).next().unwrap_or("");
        let declares = call == "gem" || (call.contains("add_") && call.ends_with("dependency"));
        if declares {
            if let Some(name) = first_quoted(line).filter(|n| !n.is_empty()) {
                dependency(facts, name, i as u32 + 1);
            }
        }
    }
}

/// The text of `<tag>…</tag>` inside `block`, trimmed.
fn xml_child<'t>(block: &'t str, tag: &str) -> Option<&'t str> {
    let open = format!("<{tag}>");
    let start = block.find(&open)? + open.len();
    let end = start + block[start..].find(&format!("</{tag}>"))?;
    Some(block[start..end].trim())
}

/// pom.xml: each `<dependency>`'s `groupId:artifactId`, on the line of its `<artifactId>`
/// (plugins and the parent are build machinery, not dependencies of the code).
fn pom_xml(text: &str, facts: &mut FileFacts) {
    let mut from = 0;
    while let Some(open) = text[from..].find("<dependency>") {
        let start = from + open;
        let Some(len) = text[start..].find("</dependency>") else {
            return;
        };
        let block = &text[start..start + len];
        from = start + len;
        let (Some(group), Some(artifact)) = (xml_child(block, "groupId"), xml_child(block, "artifactId")) else {
            continue;
        };
        let line = find_line(text, start, "<artifactId>").map_or(1, |(_, l)| l);
        dependency(facts, &format!("{group}:{artifact}"), line);
    }
}

/// `*.csproj` / `*.fsproj` / `*.vbproj` and `Directory.Packages.props`: `<PackageReference
/// Include="Newtonsoft.Json" …>` (or `Update=`, or `<PackageVersion Include=…>`): the NuGet id,
/// which is usually the namespace code imports.
fn msbuild_project(text: &str, facts: &mut FileFacts) {
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find("<PackageReference").or_else(|| line.find("<PackageVersion")) else {
            continue;
        };
        let tag = &line[at..];
        let value = ["Include=", "Update="]
            .iter()
            .find_map(|attr| tag.find(attr).map(|p| &tag[p + attr.len()..]))
            .and_then(first_quoted);
        if let Some(id) = value.filter(|v| !v.is_empty()) {
            dependency(facts, id, i as u32 + 1);
        }
    }
}

/// Gradle configurations whose entries are dependencies of the code (`implementation`,
/// `testImplementation`, `api`, `kapt`…), matched by suffix so variants count too.
const GRADLE_CONFIGURATIONS: &[&str] = &[
    "implementation",
    "Implementation",
    "api",
    "Api",
    "compileOnly",
    "CompileOnly",
    "runtimeOnly",
    "RuntimeOnly",
    "kapt",
    "ksp",
    "annotationProcessor",
    "compile",
    "Compile",
];

/// build.gradle / build.gradle.kts: `implementation("group:artifact:version")`,
/// `testImplementation 'g:a:v'`, `api(platform("g:a:v"))`: the `group:artifact` coordinates.
fn gradle(text: &str, facts: &mut FileFacts) {
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        let call = line.split(['(', ' ', '\t']).next().unwrap_or("");
        if call.is_empty() || !GRADLE_CONFIGURATIONS.iter().any(|c| call.ends_with(c)) {
            continue;
        }
        let Some(coordinates) = first_quoted(line) else {
            continue;
        };
        let mut parts = coordinates.split(':');
        if let (Some(group), Some(artifact)) = (parts.next(), parts.next()) {
            if !group.is_empty() && !artifact.is_empty() {
                dependency(facts, &format!("{group}:{artifact}"), i as u32 + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirement_names() {
        assert_eq!(
            requirement_name("requests[socks]>=2.0; python_version<'3.8'"),
            Some("requests")
        );
        assert_eq!(requirement_name("\"numpy>=1.2\","), Some("numpy"));
        assert_eq!(requirement_name("zope.interface"), Some("zope.interface"));
        assert_eq!(requirement_name(">=1"), None);
    }
}
