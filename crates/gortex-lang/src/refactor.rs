//! Syntax facts the refactoring tools need and the graph does not keep: a function's shape for
//! inlining (its parameters, its one expression, where each parameter and each free name occurs,
//! what in it would change meaning when copied), the call expressions of a name with their
//! arguments, and a file's import statements with the names they bind and whether each is used.
//! Byte offsets are those of the source given; the tools in `ts/tools/refactor-*.ts` edit with
//! them. Walks are iterative (trees can nest thousands of levels).

use crate::{extractor_for, parse, refine_language, ExtractError, DEFAULT_PARSE_BUDGET};
use gortex_core::Language;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use tree_sitter::{Node, Tree};

/// The language families the refactoring facts cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    Ecma,
    Python,
    Go,
    Java,
    Rust,
}

fn family(language: Language) -> Option<Family> {
    match language {
        Language::TypeScript | Language::Tsx | Language::JavaScript => Some(Family::Ecma),
        Language::Python => Some(Family::Python),
        Language::Go => Some(Family::Go),
        Language::Java => Some(Family::Java),
        Language::Rust => Some(Family::Rust),
        _ => None,
    }
}

/// Why the facts could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum RefactorError {
    #[error("{0} has no refactoring support (TypeScript/JavaScript, Python, Go, Java and Rust do)")]
    Unsupported(String),
    #[error(transparent)]
    Extract(#[from] ExtractError),
}

struct Parsed<'s> {
    family: Family,
    tree: Tree,
    source: &'s [u8],
}

fn parse_for<'s>(path: &str, source: &'s [u8]) -> Result<Parsed<'s>, RefactorError> {
    let language = Language::from_path(path)
        .map(|l| refine_language(l, path, source))
        .ok_or_else(|| RefactorError::Unsupported(path.to_string()))?;
    let family = family(language).ok_or_else(|| RefactorError::Unsupported(path.to_string()))?;
    extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    let budget = crate::budget::time_budget(source.len(), DEFAULT_PARSE_BUDGET);
    let tree = parse(language, source, budget)?;
    Ok(Parsed { family, tree, source })
}

/// Every node under `root` (itself included), in document order, without recursion.
fn descendants(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// Named children that are not comments.
fn code_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

fn is_field(node: Node<'_>, field: &str) -> bool {
    node.parent()
        .and_then(|p| p.child_by_field_name(field))
        .is_some_and(|c| c.id() == node.id())
}

/// The name `node` references (a value, type or module), or `None` for property and field names,
/// keyword-argument names and composite-literal keys.
fn reference_name<'s>(family: Family, node: Node<'_>, source: &'s [u8]) -> Option<&'s str> {
    let kind = node.kind();
    let parent = node.parent();
    let pkind = parent.map(|p| p.kind()).unwrap_or("");
    let ok = match family {
        Family::Ecma => matches!(kind, "identifier" | "shorthand_property_identifier" | "type_identifier"),
        Family::Python => {
            kind == "identifier"
                && !(pkind == "attribute" && is_field(node, "attribute"))
                && !(pkind == "keyword_argument" && is_field(node, "name"))
        }
        Family::Go => {
            matches!(kind, "identifier" | "type_identifier" | "package_identifier")
                && !(pkind == "literal_element"
                    && parent
                        .is_some_and(|p| p.parent().is_some_and(|g| g.kind() == "keyed_element") && is_field(p, "key")))
        }
        Family::Java => {
            matches!(kind, "identifier" | "type_identifier")
                && !(pkind == "field_access" && is_field(node, "field"))
                && !(pkind == "method_invocation" && is_field(node, "name"))
        }
        Family::Rust => {
            matches!(kind, "identifier" | "type_identifier")
                && !(matches!(pkind, "scoped_identifier" | "scoped_type_identifier") && is_field(node, "name"))
                && !(pkind == "field_expression" && is_field(node, "field"))
        }
    };
    ok.then(|| text(node, source))
}

// ---------------------------------------------------------------------------------------------
// Imports

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

fn import_facts(p: &Parsed<'_>) -> Vec<Value> {
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

// ---------------------------------------------------------------------------------------------
// Functions for inlining

/// Node kinds that are one operand as they stand (substituted without parentheses).
fn is_primary(kind: &str) -> bool {
    matches!(
        kind,
        "identifier"
            | "number"
            | "string"
            | "template_string"
            | "true"
            | "false"
            | "null"
            | "undefined"
            | "none"
            | "nil"
            | "integer"
            | "float"
            | "int_literal"
            | "float_literal"
            | "interpreted_string_literal"
            | "raw_string_literal"
            | "rune_literal"
            | "string_literal"
            | "character_literal"
            | "char_literal"
            | "decimal_integer_literal"
            | "decimal_floating_point_literal"
            | "integer_literal"
            | "boolean_literal"
            | "null_literal"
            | "call_expression"
            | "call"
            | "method_invocation"
            | "member_expression"
            | "attribute"
            | "selector_expression"
            | "field_access"
            | "field_expression"
            | "parenthesized_expression"
            | "subscript_expression"
            | "subscript"
            | "index_expression"
            | "array"
            | "list"
            | "dictionary"
            | "tuple"
            | "object"
            | "this"
            | "self"
            | "scoped_identifier"
            | "concatenated_string"
            | "composite_literal"
            | "type_identifier"
    )
}

/// Literal node kinds (numbers, strings, booleans, null) across the grammars.
fn is_literal(kind: &str) -> bool {
    kind.contains("literal") && !kind.contains("composite")
        || matches!(
            kind,
            "number" | "integer" | "float" | "string" | "true" | "false" | "none" | "null" | "nil" | "undefined"
        )
}

/// Arguments that may be copied more than once or not at all: names, literals, member chains.
fn is_pure(family: Family, node: Node<'_>, source: &[u8]) -> bool {
    descendants(node).iter().all(|n| {
        let k = n.kind();
        !(k.contains("call")
            || k == "method_invocation"
            || k.contains("new")
            || k.contains("assignment")
            || k.contains("update")
            || k.contains("await")
            || k.contains("yield")
            || k.contains("lambda")
            || k.contains("function")
            || k.contains("arrow")
            || k.contains("closure")
            || k.contains("macro")
            || k == "unary_expression" && family == Family::Go && text(*n, source).starts_with("<-"))
    })
}

/// Nodes whose presence in the inlined expression would change meaning at the call site.
fn meaning_changer(family: Family, node: Node<'_>, source: &[u8]) -> Option<&'static str> {
    let k = node.kind();
    match family {
        Family::Ecma => match k {
            "this" | "super" => Some("uses `this`/`super`, which would bind to the caller"),
            "meta_property" => Some("uses new.target/import.meta"),
            "assignment_expression" | "augmented_assignment_expression" | "update_expression" => {
                Some("assigns (a side effect)")
            }
            "await_expression" | "yield_expression" => Some("awaits or yields"),
            "identifier" if text(node, source) == "arguments" => Some("uses `arguments`"),
            _ => None,
        },
        Family::Python => match k {
            "named_expression" => Some("assigns with := (a side effect)"),
            "await" | "yield" => Some("awaits or yields"),
            "identifier" if matches!(text(node, source), "locals" | "globals" | "vars" | "super") => {
                Some("inspects its own frame (locals/globals/vars/super)")
            }
            _ => None,
        },
        Family::Go => match k {
            "unary_expression" if text(node, source).starts_with("<-") => {
                Some("receives from a channel (a side effect)")
            }
            "func_literal" => Some("builds a closure"),
            "identifier" if matches!(text(node, source), "recover") => {
                Some("calls recover, which depends on the frame")
            }
            _ => None,
        },
        Family::Java => match k {
            "this" | "super" => Some("uses `this`/`super`"),
            "assignment_expression" | "update_expression" => Some("assigns (a side effect)"),
            "lambda_expression" => Some("builds a lambda (captured variables must be effectively final)"),
            "switch_expression" => Some("holds a switch expression (yield)"),
            _ => None,
        },
        Family::Rust => match k {
            "self" => Some("uses `self`"),
            "assignment_expression" | "compound_assignment_expr" => Some("assigns (a side effect)"),
            "try_expression" => Some("uses `?`, which returns early"),
            "return_expression" | "break_expression" | "continue_expression" => Some("returns or breaks early"),
            "await_expression" => Some("awaits"),
            "closure_expression" => Some("builds a closure"),
            "macro_invocation" if text(node, source).contains('{') && text(node, source).contains('"') => {
                Some("holds a macro with a format string (captured names cannot be substituted)")
            }
            _ => None,
        },
    }
}

/// The function declared on `line` (1-based): the smallest function node starting there.
fn function_at<'t>(p: &'t Parsed<'_>, line: usize) -> Option<Node<'t>> {
    let kinds: &[&str] = match p.family {
        Family::Ecma => &[
            "function_declaration",
            "method_definition",
            "variable_declarator",
            "function_signature",
        ],
        Family::Python => &["function_definition"],
        Family::Go => &["function_declaration", "method_declaration"],
        Family::Java => &["method_declaration", "constructor_declaration"],
        Family::Rust => &["function_item"],
    };
    descendants(p.tree.root_node())
        .into_iter()
        .filter(|n| kinds.contains(&n.kind()))
        .filter(|n| {
            let first = n.start_position().row + 1;
            // Decorators, annotations and doc comments sit above the name line.
            let name_line = n
                .child_by_field_name("name")
                .map(|x| x.start_position().row + 1)
                .unwrap_or(first);
            first == line || name_line == line
        })
        .min_by_key(|n| n.byte_range().len())
}

struct Param {
    name: String,
    ty: Option<String>,
}

/// Parameters of `f`, or why they cannot be substituted.
fn params_of(p: &Parsed<'_>, f: Node<'_>) -> Result<Vec<Param>, String> {
    let src = p.source;
    let list = f.child_by_field_name("parameters").ok_or("it has no parameter list")?;
    let mut out = Vec::new();
    for c in code_children(list) {
        let ty = c
            .child_by_field_name("type")
            .map(|t| text(t, src).trim_start_matches(':').trim().to_string());
        match (p.family, c.kind()) {
            (Family::Ecma, "identifier") => out.push(Param { name: text(c, src).into(), ty: None }),
            (Family::Ecma, "required_parameter") => {
                let pat = c.child_by_field_name("pattern").ok_or("a parameter without a name")?;
                if pat.kind() != "identifier" || c.child_by_field_name("value").is_some() {
                    return Err(format!("parameter `{}` is destructured or has a default", text(c, src)));
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).trim_start_matches(':').trim().to_string());
                out.push(Param { name: text(pat, src).into(), ty });
            }
            (Family::Python, "identifier") => out.push(Param { name: text(c, src).into(), ty: None }),
            (Family::Python, "typed_parameter") => {
                let id = code_children(c).into_iter().find(|x| x.kind() == "identifier").ok_or("a typed parameter without a name")?;
                out.push(Param { name: text(id, src).into(), ty });
            }
            (Family::Go, "parameter_declaration") => {
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                let mut cursor = c.walk();
                let names: Vec<_> = c.children_by_field_name("name", &mut cursor).collect();
                if names.is_empty() {
                    return Err("a parameter has no name".into());
                }
                for n in names {
                    out.push(Param { name: text(n, src).into(), ty: ty.clone() });
                }
            }
            (Family::Java, "formal_parameter") => {
                let name = c.child_by_field_name("name").ok_or("a parameter without a name")?;
                if c.child_by_field_name("dimensions").is_some() {
                    return Err("a parameter uses C-style array dimensions".into());
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                out.push(Param { name: text(name, src).into(), ty });
            }
            (Family::Rust, "parameter") => {
                let pat = c.child_by_field_name("pattern").ok_or("a parameter without a pattern")?;
                if pat.kind() != "identifier" {
                    return Err(format!("parameter `{}` is a pattern (mut, tuple, struct)", text(c, src)));
                }
                let ty = c.child_by_field_name("type").map(|t| text(t, src).to_string());
                out.push(Param { name: text(pat, src).into(), ty });
            }
            (Family::Rust, "self_parameter") => return Err("it is a method (self)".into()),
            (_, k) => return Err(format!("parameter `{}` ({k}) is not a plain name: defaults, rest/variadic, keyword-only and destructured parameters are not inlined", text(c, src))),
        }
    }
    Ok(out)
}

/// The body's one statement, unwrapping blocks and statement lists; a leading docstring is skipped.
fn single_statement<'t>(family: Family, body: Node<'t>, source: &[u8]) -> Result<Node<'t>, String> {
    let mut stmts = code_children(body);
    if stmts.len() == 1 && stmts[0].kind() == "statement_list" {
        stmts = code_children(stmts[0]);
    }
    if family == Family::Python && stmts.len() > 1 {
        let first = stmts[0];
        let doc = first.kind() == "expression_statement"
            && code_children(first).first().is_some_and(|c| c.kind() == "string");
        if doc {
            stmts.remove(0);
        }
    }
    let _ = source;
    match stmts.len() {
        0 => Err("its body is empty".into()),
        1 => Ok(stmts[0]),
        n => Err(format!(
            "its body has {n} statements (only a single return or expression is inlined)"
        )),
    }
}

fn callable_facts(p: &Parsed<'_>, line: usize) -> Result<Value, String> {
    let src = p.source;
    let f = function_at(p, line).ok_or_else(|| format!("no function is declared on line {line}"))?;
    let fam = p.family;
    // The declaration node that owns the function (for arrow functions bound to a const).
    let (func, name) = match (fam, f.kind()) {
        (Family::Ecma, "variable_declarator") => {
            let value = f
                .child_by_field_name("value")
                .filter(|v| v.kind() == "arrow_function" || v.kind() == "function_expression");
            let value = value.ok_or("it is a variable, not a function")?;
            (value, f.child_by_field_name("name").map(|n| text(n, src)).unwrap_or(""))
        }
        (Family::Ecma, "method_definition") | (Family::Go, "method_declaration") => {
            return Err("it is a method: its receiver would bind differently at each call site".into());
        }
        (Family::Java, "constructor_declaration") => return Err("it is a constructor".into()),
        (Family::Ecma, "function_signature") => return Err("it is an overload signature without a body".into()),
        _ => (f, f.child_by_field_name("name").map(|n| text(n, src)).unwrap_or("")),
    };
    let head = text(func, src);
    let body = func.child_by_field_name("body").ok_or("it has no body")?;
    let head_text = &head[..(body.start_byte() - func.start_byte()).min(head.len())];
    let before = &src[f.start_byte().saturating_sub(0)..body.start_byte()];
    let before = std::str::from_utf8(before).unwrap_or("");
    // Modifiers that change what a call means.
    match fam {
        Family::Ecma => {
            if head_text.contains("async") || head_text.contains('*') && func.kind() != "arrow_function" {
                return Err("it is async or a generator".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic (type arguments at call sites are not carried over)".into());
            }
        }
        Family::Python => {
            if f.parent().is_some_and(|x| x.kind() == "decorated_definition") {
                return Err("it is decorated (the decorator changes what a call does)".into());
            }
            if before.trim_start().starts_with("async")
                || f.parent()
                    .and_then(|b| b.parent())
                    .is_some_and(|c| c.kind() == "class_definition")
            {
                return Err(if before.trim_start().starts_with("async") {
                    "it is async".into()
                } else {
                    "it is a method: self/cls would bind differently at each call site".into()
                });
            }
        }
        Family::Go => {
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
        }
        Family::Java => {
            let modifiers = code_children(func)
                .into_iter()
                .find(|c| c.kind() == "modifiers")
                .map(|m| text(m, src))
                .unwrap_or("");
            if !modifiers.split_whitespace().any(|w| w == "static") {
                return Err(
                    "it is an instance method: only static methods are inlined (the receiver would bind differently)"
                        .into(),
                );
            }
            if modifiers.contains("synchronized") {
                return Err("it is synchronized".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
        }
        Family::Rust => {
            if head_text.contains("async ")
                || head_text.contains("const fn")
                || head_text.contains("unsafe ")
                || head_text.contains("extern ")
            {
                return Err("it is async, const, unsafe or extern".into());
            }
            if func.child_by_field_name("type_parameters").is_some() {
                return Err("it is generic".into());
            }
            if f.parent().is_some_and(|x| x.kind() == "declaration_list")
                && f.parent()
                    .and_then(|x| x.parent())
                    .is_some_and(|x| x.kind() == "impl_item" || x.kind() == "trait_item")
            {
                return Err("it is an associated function (called through its type)".into());
            }
        }
    }
    let params = params_of(p, func)?;
    if let Some(dup) = params
        .iter()
        .enumerate()
        .find(|(i, a)| params[..*i].iter().any(|b| b.name == a.name))
    {
        return Err(format!("parameter {} is declared twice", dup.1.name));
    }
    let return_type = match fam {
        Family::Ecma => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).trim_start_matches(':').trim().to_string()),
        Family::Python => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).to_string()),
        Family::Go => func.child_by_field_name("result").map(|t| text(t, src).to_string()),
        Family::Java => func
            .child_by_field_name("type")
            .map(|t| text(t, src).to_string())
            .filter(|t| t != "void"),
        Family::Rust => func
            .child_by_field_name("return_type")
            .map(|t| text(t, src).to_string()),
    };
    // The one expression: an arrow's expression body, `return e`, or an expression statement.
    let (expr, returns) = if body.kind() != "statement_block" && fam == Family::Ecma {
        (body, true)
    } else {
        let stmt = single_statement(fam, body, src)?;
        match stmt.kind() {
            "return_statement" | "return_expression" => {
                let values = code_children(stmt);
                let values = if values.len() == 1 && values[0].kind() == "expression_list" {
                    code_children(values[0])
                } else {
                    values
                };
                match values.len() {
                    0 => return Err("it returns nothing (a bare return)".into()),
                    1 => (values[0], true),
                    n => return Err(format!("it returns {n} values")),
                }
            }
            "expression_statement" => {
                let inner = code_children(stmt);
                let e = *inner.first().ok_or("an empty statement")?;
                if e.kind() == "return_expression" {
                    let v = code_children(e);
                    (*v.first().ok_or("it returns nothing (a bare return)")?, true)
                } else if fam == Family::Rust && !text(stmt, src).trim_end().ends_with(';') {
                    (e, return_type.is_some())
                } else {
                    (e, false)
                }
            }
            k if fam == Family::Rust
                && !k.ends_with("statement")
                && !k.ends_with("_item")
                && k != "let_declaration" =>
            {
                (stmt, return_type.is_some())
            }
            k => return Err(format!("its body is a {k}, not a single return or expression")),
        }
    };
    if fam == Family::Go && returns && return_type.as_deref().is_some_and(|t| t.starts_with('(')) {
        return Err("it has named or multiple results".into());
    }
    let nodes = descendants(expr);
    if let Some(reason) = nodes.iter().find_map(|n| meaning_changer(fam, *n, src)) {
        return Err(format!("its expression {reason}"));
    }
    // Names bound inside the expression (nested functions' parameters, comprehension variables).
    let mut bound: HashSet<String> = HashSet::new();
    for n in &nodes {
        let scope_params = match (fam, n.kind()) {
            (Family::Ecma, "arrow_function" | "function_expression" | "function") => n
                .child_by_field_name("parameters")
                .or_else(|| n.child_by_field_name("parameter")),
            (Family::Python, "lambda") => n.child_by_field_name("parameters"),
            (Family::Python, "for_in_clause") => n.child_by_field_name("left"),
            _ => None,
        };
        if let Some(sp) = scope_params {
            for id in descendants(sp) {
                if matches!(id.kind(), "identifier" | "shorthand_property_identifier_pattern") {
                    bound.insert(text(id, src).to_string());
                }
            }
        }
    }
    let param_index: HashMap<&str, usize> = params.iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
    if let Some(shadow) = bound.iter().find(|b| param_index.contains_key(b.as_str())) {
        return Err(format!(
            "a nested function or comprehension rebinds parameter `{shadow}`"
        ));
    }
    let mut occurrences = Vec::new();
    let mut free = Vec::new();
    let mut calls = Vec::new();
    for n in &nodes {
        let k = n.kind();
        if matches!(
            k,
            "call_expression"
                | "call"
                | "method_invocation"
                | "new_expression"
                | "macro_invocation"
                | "object_creation_expression"
        ) {
            calls.push(json!({ "start": n.start_byte() - expr.start_byte(), "end": n.end_byte() - expr.start_byte() }));
        }
        // A Java method called without a receiver is a member of the declaring class.
        if fam == Family::Java && k == "method_invocation" && n.child_by_field_name("object").is_none() {
            if let Some(m) = n.child_by_field_name("name") {
                free.push(json!({ "name": text(m, src), "start": m.start_byte() - expr.start_byte(), "end": m.end_byte() - expr.start_byte() }));
            }
        }
        let Some(name) = reference_name(fam, *n, src) else {
            continue;
        };
        if bound.contains(name) {
            continue;
        }
        let rel = (n.start_byte() - expr.start_byte(), n.end_byte() - expr.start_byte());
        if let Some(&i) = param_index.get(name) {
            occurrences.push(
                json!({ "param": i, "start": rel.0, "end": rel.1, "shorthand": k == "shorthand_property_identifier" }),
            );
        } else {
            free.push(json!({ "name": name, "start": rel.0, "end": rel.1 }));
        }
    }
    Ok(json!({
        "name": name,
        "start_line": f.start_position().row + 1,
        "end_line": f.end_position().row + 1,
        "params": params.iter().map(|p| json!({ "name": p.name, "type": p.ty })).collect::<Vec<_>>(),
        "return_type": return_type,
        "returns_value": returns,
        "expr": text(expr, src),
        "expr_kind": expr.kind(),
        "expr_primary": is_primary(expr.kind()),
        "occurrences": occurrences,
        "free": free,
        "calls": calls,
    }))
}

// ---------------------------------------------------------------------------------------------
// Call sites

/// The innermost function around `node` (its span bounds the shadowing check), as JSON, or null.
fn enclosing_function(node: Node<'_>) -> Value {
    let mut up = node.parent();
    while let Some(u) = up {
        if matches!(
            u.kind(),
            "function_declaration"
                | "method_definition"
                | "arrow_function"
                | "function_expression"
                | "function_definition"
                | "method_declaration"
                | "func_literal"
                | "lambda"
                | "constructor_declaration"
                | "function_item"
                | "closure_expression"
                | "lambda_expression"
        ) {
            return json!({ "start": u.start_byte(), "end": u.end_byte(), "start_line": u.start_position().row + 1 });
        }
        up = u.parent();
    }
    Value::Null
}

/// Calls of `name` written inside a Rust macro's tokens (`println!("{}", f(x))`): a path ending in
/// `name` followed by a parenthesised token tree, its arguments split at top-level commas.
fn macro_calls(p: &Parsed<'_>, tree: Node<'_>, name: &str, out: &mut Vec<Value>) {
    let src = p.source;
    let mut cursor = tree.walk();
    let tokens: Vec<Node<'_>> = tree.children(&mut cursor).collect();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind() != "identifier" || text(*t, src) != name {
            continue;
        }
        let Some(args) = tokens
            .get(i + 1)
            .filter(|a| a.kind() == "token_tree" && text(**a, src).starts_with('('))
        else {
            continue;
        };
        // The path before it: `a::b::name`.
        let mut first = i;
        while first >= 2 && text(tokens[first - 1], src) == "::" && tokens[first - 2].kind() == "identifier"
            || first >= 2
                && text(tokens[first - 1], src) == "::"
                && matches!(tokens[first - 2].kind(), "crate" | "self" | "super")
        {
            first -= 2;
        }
        if first >= 1 && matches!(text(tokens[first - 1], src), "." | "::") {
            continue; // a method call or an unparsed path
        }
        let qualifier = (first < i).then(|| {
            std::str::from_utf8(&src[tokens[first].start_byte()..tokens[i - 2].end_byte()])
                .unwrap_or("")
                .to_string()
        });
        let mut inner_cursor = args.walk();
        let inner: Vec<Node<'_>> = args.children(&mut inner_cursor).collect();
        let mut rows = Vec::new();
        let mut group: Vec<Node<'_>> = Vec::new();
        let body = &inner[1..inner.len().saturating_sub(1)];
        for (k, tok) in body.iter().enumerate() {
            let comma = text(*tok, src) == ",";
            if !comma {
                group.push(*tok);
            }
            if (comma || k + 1 == body.len()) && !group.is_empty() {
                let (start, end) = (group[0].start_byte(), group[group.len() - 1].end_byte());
                let single = group.len() == 1;
                let literal = single && group[0].kind().contains("literal");
                let pure = group.iter().all(|g| {
                    matches!(
                        g.kind(),
                        "identifier"
                            | "integer_literal"
                            | "float_literal"
                            | "string_literal"
                            | "boolean_literal"
                            | "char_literal"
                    ) || matches!(text(*g, src), "." | "::" | "&")
                });
                rows.push(json!({
                    "start": start, "end": end,
                    "text": std::str::from_utf8(&src[start..end]).unwrap_or(""),
                    "keyword": null, "pure": pure, "primary": single, "literal": literal,
                }));
                group.clear();
            }
        }
        out.push(json!({
            "start": tokens[first].start_byte(),
            "end": args.end_byte(),
            "line": tokens[first].start_position().row + 1,
            "end_line": args.end_position().row + 1,
            "qualifier": qualifier,
            "args": rows,
            "statement": false,
            "statement_end": null,
            "enclosing": enclosing_function(tree),
            "refusal": null,
        }));
    }
}

fn call_sites(p: &Parsed<'_>, name: &str) -> Vec<Value> {
    let src = p.source;
    let fam = p.family;
    let mut out = Vec::new();
    for n in descendants(p.tree.root_node()) {
        if fam == Family::Rust && n.kind() == "token_tree" {
            macro_calls(p, n, name, &mut out);
            continue;
        }
        let (callee, args) = match (fam, n.kind()) {
            (Family::Ecma, "call_expression")
            | (Family::Go, "call_expression")
            | (Family::Rust, "call_expression")
            | (Family::Python, "call") => (n.child_by_field_name("function"), n.child_by_field_name("arguments")),
            (Family::Java, "method_invocation") => (n.child_by_field_name("name"), n.child_by_field_name("arguments")),
            _ => continue,
        };
        let (Some(callee), Some(args)) = (callee, args) else {
            continue;
        };
        // The callee's last name and what qualifies it.
        let (last, qualifier) = match callee.kind() {
            "identifier" => (text(callee, src), None),
            "member_expression" | "selector_expression" | "attribute" | "field_expression" => {
                let prop = callee
                    .child_by_field_name("property")
                    .or_else(|| callee.child_by_field_name("field"))
                    .or_else(|| callee.child_by_field_name("attribute"));
                let obj = callee
                    .child_by_field_name("object")
                    .or_else(|| callee.child_by_field_name("operand"))
                    .or_else(|| callee.child_by_field_name("value"));
                (
                    prop.map(|x| text(x, src)).unwrap_or(""),
                    obj.map(|o| text(o, src).to_string()),
                )
            }
            "scoped_identifier" => (
                callee.child_by_field_name("name").map(|x| text(x, src)).unwrap_or(""),
                callee.child_by_field_name("path").map(|x| text(x, src).to_string()),
            ),
            _ => continue,
        };
        if last != name {
            continue;
        }
        let qualifier = if fam == Family::Java {
            n.child_by_field_name("object").map(|o| text(o, src).to_string())
        } else {
            qualifier
        };
        let mut refusal: Option<String> = None;
        if fam == Family::Ecma && text(n, src).contains("?.(") {
            refusal = Some("an optional call (?.)".into());
        }
        if n.child_by_field_name("type_arguments").is_some()
            || code_children(n).iter().any(|c| c.kind() == "type_arguments")
        {
            refusal = Some("explicit type arguments".into());
        }
        let mut arg_rows = Vec::new();
        if !matches!(args.kind(), "arguments" | "argument_list") {
            refusal = Some(format!("its arguments are a {}", args.kind()));
        } else {
            for a in code_children(args) {
                let mut keyword = None;
                let mut value = a;
                match a.kind() {
                    "spread_element" | "list_splat" | "dictionary_splat" | "variadic_argument" => {
                        refusal = Some("a spread/splat argument".into())
                    }
                    "keyword_argument" => {
                        keyword = a.child_by_field_name("name").map(|x| text(x, src).to_string());
                        value = a.child_by_field_name("value").unwrap_or(a);
                    }
                    _ => {}
                }
                if fam == Family::Go && text(args, src).trim_end_matches(')').trim_end().ends_with("...") {
                    refusal = Some("a variadic spread (...)".into());
                }
                arg_rows.push(json!({
                    "start": value.start_byte(),
                    "end": value.end_byte(),
                    "text": text(value, src),
                    "keyword": keyword,
                    "pure": is_pure(fam, value, src),
                    "primary": is_primary(value.kind()),
                    "literal": is_literal(value.kind()) && is_pure(fam, value, src),
                }));
            }
        }
        let parent = n.parent();
        let statement = parent.is_some_and(|p| p.kind() == "expression_statement" && code_children(p).len() == 1);
        let enclosing = enclosing_function(n);
        out.push(json!({
            "start": n.start_byte(),
            "end": n.end_byte(),
            "line": n.start_position().row + 1,
            "end_line": n.end_position().row + 1,
            "qualifier": qualifier,
            "args": arg_rows,
            "statement": statement,
            "statement_end": if statement { parent.map(|p| p.end_byte()) } else { None },
            "enclosing": enclosing,
            "refusal": refusal,
        }));
    }
    out
}

/// Whether an identifier token names a member (`o.name`, a key `name: v`, `f(name=v)`) rather
/// than a binding in scope.
fn is_member_name(family: Family, node: Node<'_>) -> bool {
    let kind = node.kind();
    if matches!(
        kind,
        "property_identifier" | "field_identifier" | "private_property_identifier"
    ) {
        return true;
    }
    let pkind = node.parent().map(|p| p.kind()).unwrap_or("");
    match family {
        Family::Python => {
            (pkind == "attribute" && is_field(node, "attribute"))
                || (pkind == "keyword_argument" && is_field(node, "name"))
        }
        Family::Java => {
            (pkind == "field_access" && is_field(node, "field"))
                || (pkind == "method_invocation"
                    && is_field(node, "name")
                    && node.parent().and_then(|p| p.child_by_field_name("object")).is_some())
        }
        Family::Go => pkind == "literal_element" && node.parent().is_some_and(|p| is_field(p, "key")),
        Family::Rust => pkind == "field_expression" && is_field(node, "field"),
        Family::Ecma => false,
    }
}

/// The refactoring facts `op` asks for about `source` read as the file at `path`, as JSON:
/// `imports` → import statements with their bindings (`used`: the local name is referenced
/// outside the imports); `callable` (`line`) → the function declared there, its parameters, its
/// single expression with parameter occurrences, free names and calls (offsets relative to the
/// expression), or `{refusal}` saying why it cannot be inlined; `calls` (`name`) → the calls of
/// that name with their arguments; `names` (`start`, `end` bytes) → the names referenced there.
pub fn refactor_facts(path: &str, source: &[u8], op: &str, args: &Value) -> Result<Value, RefactorError> {
    let p = parse_for(path, source)?;
    Ok(match op {
        "imports" => Value::Array(import_facts(&p)),
        "callable" => {
            let line = args.get("line").and_then(Value::as_u64).unwrap_or(0) as usize;
            match callable_facts(&p, line) {
                Ok(v) => v,
                Err(reason) => json!({ "refusal": reason }),
            }
        }
        "calls" => Value::Array(call_sites(&p, args.get("name").and_then(Value::as_str).unwrap_or(""))),
        "names" => {
            let start = args.get("start").and_then(Value::as_u64).unwrap_or(0) as usize;
            let end = args
                .get("end")
                .and_then(Value::as_u64)
                .map(|e| e as usize)
                .unwrap_or(source.len());
            let root = p.tree.root_node();
            let node = root.descendant_for_byte_range(start, end.max(start)).unwrap_or(root);
            // The smallest node covering the range may be wider: filter names to the range.
            let mut seen = HashSet::new();
            let names: Vec<String> = descendants(node)
                .into_iter()
                .filter(|n| n.start_byte() >= start && n.end_byte() <= end)
                .filter_map(|n| reference_name(p.family, n, source))
                .filter(|n| seen.insert(*n))
                .map(str::to_string)
                .collect();
            json!(names)
        }
        "identifiers" => {
            let name = args.get("name").and_then(Value::as_str).unwrap_or("");
            let rows: Vec<Value> = descendants(p.tree.root_node())
                .into_iter()
                .filter(|n| n.child_count() == 0 && n.kind().ends_with("identifier") && text(*n, source) == name)
                .map(|n| {
                    let line_start = source[..n.start_byte()]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    let before = String::from_utf8_lossy(&source[line_start..n.start_byte()]);
                    json!({
                        "line": n.start_position().row + 1,
                        "column": before.encode_utf16().count(),
                        "kind": n.kind(),
                        "member": is_member_name(p.family, n),
                    })
                })
                .collect();
            Value::Array(rows)
        }
        other => return Err(RefactorError::Unsupported(format!("refactor fact {other:?}"))),
    })
}
