//! Import statements: the names each binds, the module it names, whether each name is used.

use super::*;

fn unquote(s: &str) -> String {
    s.trim().trim_matches(|c| c == '"' || c == '\'' || c == '`').to_string()
}

struct Binding {
    imported: String,
    local: String,
}

/// A Python `name as alias` binding.
fn aliased(node: Node<'_>, source: &[u8]) -> Binding {
    let field = |f: &str| {
        node.child_by_field_name(f)
            .map(|x| text(x, source).to_string())
            .unwrap_or_default()
    };
    Binding {
        imported: field("name"),
        local: field("alias"),
    }
}

fn binding_json(b: &Binding, used: &HashSet<String>) -> Value {
    json!({ "imported": b.imported, "local": b.local, "used": used.contains(&b.local) })
}

/// The names bound by a Rust `use` tree, with the path each comes from (`a::b::C`).
fn rust_use_bindings(node: Node<'_>, prefix: &str, source: &[u8], out: &mut Vec<Binding>) {
    let join = |p: &str, s: &str| {
        if p.is_empty() {
            s.to_string()
        } else {
            format!("{p}::{s}")
        }
    };
    match node.kind() {
        "identifier" | "scoped_identifier" | "crate" | "self" | "super" => {
            let path = join(prefix, text(node, source));
            let local = path.rsplit("::").next().unwrap_or(&path).to_string();
            if local != "self" {
                out.push(Binding { imported: path, local });
            } else {
                let owner = path.trim_end_matches("::self").to_string();
                let local = owner.rsplit("::").next().unwrap_or(&owner).to_string();
                out.push(Binding { imported: owner, local });
            }
        }
        "use_as_clause" => {
            if let (Some(p), Some(a)) = (node.child_by_field_name("path"), node.child_by_field_name("alias")) {
                out.push(Binding {
                    imported: join(prefix, text(p, source)),
                    local: text(a, source).to_string(),
                });
            }
        }
        "scoped_use_list" => {
            let path = node
                .child_by_field_name("path")
                .map(|p| join(prefix, text(p, source)))
                .unwrap_or_else(|| prefix.to_string());
            if let Some(list) = node.child_by_field_name("list") {
                rust_use_bindings(list, &path, source, out);
            }
        }
        "use_list" => {
            for c in code_children(node) {
                rust_use_bindings(c, prefix, source, out);
            }
        }
        "use_wildcard" => out.push(Binding {
            imported: join(prefix, text(node, source)),
            local: "*".into(),
        }),
        _ => {}
    }
}

pub(super) fn import_facts(p: &Parsed<'_>) -> Vec<Value> {
    let root = p.tree.root_node();
    let src = p.source;
    let nodes = descendants(root);
    // Names used outside import statements.
    let import_kinds: &[&str] = match p.family {
        Family::Ecma => &["import_statement"],
        Family::Python => &["import_statement", "import_from_statement", "future_import_statement"],
        Family::Go => &["import_declaration"],
        Family::Java => &["import_declaration", "package_declaration"],
        Family::Rust => &["use_declaration"],
    };
    let mut used = HashSet::new();
    let mut inside_import: Vec<(usize, usize)> = Vec::new();
    for n in &nodes {
        if import_kinds.contains(&n.kind()) {
            inside_import.push((n.start_byte(), n.end_byte()));
        }
    }
    for n in &nodes {
        if inside_import
            .iter()
            .any(|&(s, e)| n.start_byte() >= s && n.end_byte() <= e)
        {
            continue;
        }
        // An attribute chain's root (`os.path.join` uses `os`) is a reference too.
        if let Some(name) = reference_name(p.family, *n, src) {
            used.insert(name.to_string());
        }
    }
    let mut out = Vec::new();
    for n in &nodes {
        let stmt = |module: String, kind: &str, type_only: bool, bindings: Vec<Binding>| {
            json!({
                "start_byte": n.start_byte(),
                "end_byte": n.end_byte(),
                "start_line": n.start_position().row + 1,
                "end_line": n.end_position().row + 1,
                "module": module,
                "kind": kind,
                "type_only": type_only,
                "text": text(*n, src),
                "bindings": bindings.iter().map(|b| binding_json(b, &used)).collect::<Vec<_>>(),
            })
        };
        match (p.family, n.kind()) {
            (Family::Ecma, "import_statement") => {
                let module = n
                    .child_by_field_name("source")
                    .map(|s| unquote(text(s, src)))
                    .unwrap_or_default();
                let type_only = {
                    let mut c = n.walk();
                    let only = n.children(&mut c).any(|c| c.kind() == "type" || text(c, src) == "type");
                    only
                };
                let mut bindings = Vec::new();
                let mut kind = "side_effect";
                for clause in code_children(*n).into_iter().filter(|c| c.kind() == "import_clause") {
                    for part in code_children(clause) {
                        match part.kind() {
                            "identifier" => {
                                kind = "named";
                                bindings.push(Binding {
                                    imported: "default".into(),
                                    local: text(part, src).into(),
                                })
                            }
                            "namespace_import" => {
                                kind = "namespace";
                                if let Some(id) = code_children(part).into_iter().find(|c| c.kind() == "identifier") {
                                    bindings.push(Binding {
                                        imported: "*".into(),
                                        local: text(id, src).into(),
                                    });
                                }
                            }
                            "named_imports" => {
                                if kind != "namespace" {
                                    kind = "named";
                                }
                                for spec in code_children(part)
                                    .into_iter()
                                    .filter(|c| c.kind() == "import_specifier")
                                {
                                    let name = spec
                                        .child_by_field_name("name")
                                        .map(|x| text(x, src).to_string())
                                        .unwrap_or_default();
                                    let local = spec
                                        .child_by_field_name("alias")
                                        .map(|x| text(x, src).to_string())
                                        .unwrap_or_else(|| name.clone());
                                    let type_spec = text(spec, src).trim_start().starts_with("type ");
                                    bindings.push(Binding {
                                        imported: if type_spec { format!("type {name}") } else { name },
                                        local,
                                    });
                                }
                            }
                            _ => {}
                        }
                    }
                }
                out.push(stmt(module, kind, type_only, bindings));
            }
            (Family::Python, "import_statement") => {
                let mut bindings = Vec::new();
                for c in code_children(*n) {
                    match c.kind() {
                        "dotted_name" => {
                            let full = text(c, src).to_string();
                            let local = full.split('.').next().unwrap_or("").to_string();
                            bindings.push(Binding { imported: full, local });
                        }
                        "aliased_import" => bindings.push(aliased(c, src)),
                        _ => {}
                    }
                }
                out.push(stmt(String::new(), "module", false, bindings));
            }
            (Family::Python, "import_from_statement") => {
                let module_node = n.child_by_field_name("module_name");
                let module = module_node.map(|m| text(m, src).to_string()).unwrap_or_default();
                let mut bindings = Vec::new();
                let mut kind = "named";
                for c in code_children(*n) {
                    if module_node.is_some_and(|m| m.id() == c.id()) {
                        continue;
                    }
                    match c.kind() {
                        "dotted_name" => {
                            let t = text(c, src).to_string();
                            bindings.push(Binding {
                                imported: t.clone(),
                                local: t,
                            });
                        }
                        "aliased_import" => bindings.push(aliased(c, src)),
                        "wildcard_import" => {
                            kind = "wildcard";
                            bindings.push(Binding {
                                imported: "*".into(),
                                local: "*".into(),
                            });
                        }
                        _ => {}
                    }
                }
                out.push(stmt(module, kind, false, bindings));
            }
            (Family::Go, "import_spec") => {
                let path = n
                    .child_by_field_name("path")
                    .map(|x| unquote(text(x, src)))
                    .unwrap_or_default();
                let alias = n.child_by_field_name("name").map(|x| text(x, src).to_string());
                let local = alias.clone().unwrap_or_else(|| {
                    let last = path.rsplit('/').next().unwrap_or(&path);
                    // `gopkg.in/yaml.v3` → yaml; `example.com/mod/v2` → the element before the version.
                    let last =
                        if last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
                            path.rsplit('/').nth(1).unwrap_or(last)
                        } else {
                            last
                        };
                    last.split('.').next().unwrap_or(last).replace('-', "_")
                });
                let in_list = n.parent().is_some_and(|p| p.kind() == "import_spec_list");
                let kind = if in_list { "spec_in_list" } else { "spec" };
                out.push(stmt(path.clone(), kind, false, vec![Binding { imported: path, local }]));
            }
            (Family::Java, "import_declaration") => {
                let t = text(*n, src);
                let is_static = t.contains("static ");
                let wildcard = code_children(*n).iter().any(|c| c.kind() == "asterisk");
                let path = code_children(*n)
                    .into_iter()
                    .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
                    .map(|c| text(c, src).to_string())
                    .unwrap_or_default();
                let local = if wildcard {
                    "*".to_string()
                } else {
                    path.rsplit('.').next().unwrap_or("").to_string()
                };
                out.push(stmt(
                    path.clone(),
                    if is_static {
                        "static"
                    } else if wildcard {
                        "wildcard"
                    } else {
                        "single"
                    },
                    false,
                    vec![Binding { imported: path, local }],
                ));
            }
            (Family::Java, "package_declaration") => {
                let path = code_children(*n)
                    .into_iter()
                    .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
                    .map(|c| text(c, src).to_string())
                    .unwrap_or_default();
                out.push(stmt(path, "package", false, Vec::new()));
            }
            (Family::Rust, "use_declaration") => {
                let mut bindings = Vec::new();
                if let Some(arg) = n.child_by_field_name("argument") {
                    rust_use_bindings(arg, "", src, &mut bindings);
                }
                let public = text(*n, src).trim_start().starts_with("pub");
                out.push(stmt(
                    String::new(),
                    if public { "pub_use" } else { "use" },
                    false,
                    bindings,
                ));
            }
            _ => {}
        }
    }
    out
}
