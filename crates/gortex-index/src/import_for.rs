//! `find_import_path` with `symbol`: the import statement that brings a symbol into a file, in
//! the importing file's language — a relative ES specifier (or the workspace package's name), a
//! dotted Python module, a Go import path from `go.mod`, a Rust `use` path from the crate's
//! layout, a Java/Kotlin/Scala/PHP package, a C# namespace, a C/C++ header — or the import
//! already there, or why none is needed (same file, same package). A member is imported through
//! its top-level owner.

use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, NodeKind, QueryError, TypeFlavor, Visibility};
use gortex_graph::config::dir_of;
use gortex_graph::query::paths::resolve_file;
use gortex_graph::query::symbol::enclosing_symbols;
use gortex_graph::query::targets::{file_node, resolve_one};
use gortex_graph::query::{self as q, ImportStatement, ImportStatus, NodeSummary};
use gortex_graph::{Graph, NodeIndex};

/// The language families an import statement can join.
fn family(l: Language) -> &'static str {
    match l {
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Vue | Language::Svelte => "js",
        Language::C | Language::Cpp => "c",
        Language::Java | Language::Kotlin | Language::Scala => "jvm",
        other => other.as_str(),
    }
}

/// `path` relative to directory `dir` (both repository-relative), `./`-prefixed when it does not climb.
fn relative(dir: &str, path: &str) -> String {
    let from: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let to: Vec<&str> = path.split('/').collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to[common..]);
    let joined = parts.join("/");
    if joined.starts_with("..") {
        joined
    } else {
        format!("./{joined}")
    }
}

/// The ES module specifier for `target` as seen from `importer`: a workspace package's name when
/// the target is that package's entry, else a relative path without the script extension (an
/// `index` file is named by its directory).
fn es_specifier(index: &RepoIndex, importer: &str, target: &str) -> String {
    for pkg in &index.config.js_packages {
        let inside = |p: &str| pkg.dir.is_empty() || p.starts_with(&format!("{}/", pkg.dir));
        if !pkg.dir.is_empty() && inside(target) && !inside(importer) && pkg.entries.iter().any(|e| e == target) {
            return pkg.name.clone();
        }
    }
    let mut stem = target.to_string();
    for ext in [".d.ts", ".tsx", ".ts", ".jsx", ".mjs", ".cjs", ".js"] {
        if let Some(s) = target.strip_suffix(ext) {
            stem = s.to_string();
            break;
        }
    }
    if let Some(dir) = stem.strip_suffix("/index") {
        stem = dir.to_string();
    }
    relative(dir_of(importer), &stem)
}

/// The dotted module of a Python file, from the outermost directory of its package chain
/// (`py/shop/models.py` with `py/shop/__init__.py` and no `py/__init__.py` → `shop.models`;
/// `__init__` names its package).
fn python_module(index: &RepoIndex, path: &str) -> String {
    let stem = path.strip_suffix(".py").unwrap_or(path);
    let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
    let parts: Vec<&str> = stem.split('/').collect();
    // Keep the trailing directories that are packages, and the module itself.
    let mut first = parts.len() - 1;
    while first > 0 {
        let dir = parts[..first].join("/");
        if index.file_record(&format!("{dir}/__init__.py")).is_none() {
            break;
        }
        first -= 1;
    }
    parts[first..].join(".")
}

/// The Go import path of the package in `dir`, from the `go.mod` whose directory holds it.
fn go_import_path(index: &RepoIndex, dir: &str) -> Option<String> {
    let module = index
        .config
        .go_modules
        .iter()
        .filter(|m| m.dir.is_empty() || dir == m.dir || dir.starts_with(&format!("{}/", m.dir)))
        .max_by_key(|m| m.dir.len())?;
    let rest = dir.strip_prefix(&module.dir).unwrap_or(dir).trim_start_matches('/');
    Some(if rest.is_empty() {
        module.module.clone()
    } else {
        format!("{}/{rest}", module.module)
    })
}

/// The Rust crate holding `path` and the module path inside it (`src/a/b.rs` → `a::b`).
fn rust_module(index: &RepoIndex, path: &str) -> Option<(String, Vec<String>)> {
    let krate = index
        .config
        .cargo_crates
        .iter()
        .filter(|c| c.dir.is_empty() || path.starts_with(&format!("{}/", c.dir)))
        .max_by_key(|c| c.dir.len())?;
    let inner = path.strip_prefix(&krate.dir).unwrap_or(path).trim_start_matches('/');
    let inner = inner.strip_prefix("src/")?;
    let stem = inner.strip_suffix(".rs")?;
    let mut segments: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(segments.last().map(String::as_str), Some("lib" | "main" | "mod")) {
        segments.pop();
    }
    Some((krate.name.replace('-', "_"), segments))
}

impl RepoIndex {
    /// `find_import_path`: the chain between two files, and with `symbol` the statement that
    /// imports it into `from` (see the module doc).
    pub(crate) fn find_import_path(
        &self,
        g: &Graph,
        args: &q::FindImportPathArgs,
    ) -> Result<q::FindImportPathResult, QueryError> {
        let Some(symbol) = args.symbol.as_deref() else {
            return q::find_import_path(g, args);
        };
        if args.to.is_some() {
            return Err(QueryError::invalid(
                "give symbol or to, not both: symbol stands for its own file",
            ));
        }
        let from = resolve_file(g, "from", &args.from)?;
        let s = resolve_one(g, symbol)?;
        if !g.node_at(s).kind.is_symbol() || g.node_at(s).external {
            return Err(QueryError::invalid(format!(
                "symbol {symbol:?} is not a declaration of this repository; pass a function, type, constant, …"
            )));
        }
        // A member comes in with the top-level declaration holding it.
        let top = enclosing_symbols(g, s)
            .filter(|&n| g.node_at(n).kind.is_symbol())
            .last()
            .unwrap_or(s);
        let target = g.node_at(top).path.to_string();
        let mut out = if g.node_at(from).path.as_ref() == target.as_str() {
            q::FindImportPathResult {
                from: target.clone(),
                to: target.clone(),
                path: Vec::new(),
                hops: Vec::new(),
                diagnosis: None,
                import: None,
            }
        } else {
            let chain = q::FindImportPathArgs {
                from: args.from.clone(),
                to: Some(target.clone()),
                symbol: None,
                max_depth: args.max_depth,
            };
            q::find_import_path(g, &chain)?
        };
        out.import = Some(self.import_statement(g, from, top)?);
        Ok(out)
    }

    fn import_statement(&self, g: &Graph, from: NodeIndex, top: NodeIndex) -> Result<ImportStatement, QueryError> {
        let file = g.node_at(from);
        let node = g.node_at(top);
        let (importer, target) = (file.path.to_string(), node.path.to_string());
        let name = node.name.clone();
        let mut answer = ImportStatement {
            symbol: NodeSummary::at(g, top),
            status: ImportStatus::NeedsImport,
            statement: None,
            module: None,
            reference: Some(name.clone()),
            line: None,
            note: None,
        };
        if importer == target {
            answer.status = ImportStatus::SameFile;
            return Ok(answer);
        }
        let (Some(from_lang), Some(to_lang)) = (file.language, node.language) else {
            return Err(QueryError::invalid(format!(
                "{importer} or {target} has no language to import in"
            )));
        };
        if family(from_lang) != family(to_lang) {
            answer.note = Some(format!(
                "{name} is {to_lang} and {importer} is {from_lang}: no import statement joins two languages"
            ));
            return Ok(answer);
        }
        // An import that already binds the symbol (in Go: its package), or one of its file that
        // binds other names.
        let imports: Vec<(NodeIndex, u32)> = g
            .out_edges(from)
            .filter(|e| matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports))
            .map(|e| (e.to, e.line))
            .collect();
        let go = family(from_lang) == "go";
        if go && dir_of(&importer) == dir_of(&target) {
            answer.status = ImportStatus::SamePackage;
            return Ok(answer);
        }
        // A Go import names a package: its node's path is the directory, a file's is the file.
        let package_dir = |to: NodeIndex| {
            let n = g.node_at(to);
            if n.kind == NodeKind::Package {
                n.path.to_string()
            } else {
                dir_of(&n.path).to_string()
            }
        };
        let binds = |&&(to, _): &&(NodeIndex, u32)| to == top || (go && package_dir(to) == dir_of(&target));
        if let Some(line) = imports.iter().filter(binds).map(|&(_, line)| line).min() {
            answer.status = ImportStatus::AlreadyImported;
            answer.line = Some(line);
            if family(from_lang) == "go" {
                let pkg = self
                    .file_record(&target)
                    .and_then(|r| r.facts.package.clone())
                    .unwrap_or_default();
                answer.reference = Some(format!("{pkg}.{name}"));
            }
            return Ok(answer);
        }
        let of_file = imports
            .iter()
            .filter(|&&(to, _)| *g.node_at(to).path == *target)
            .map(|&(_, line)| line)
            .min();
        let package = |path: &str| self.file_record(path).and_then(|r| r.facts.package.clone());
        let exported = node.exported || node.visibility == Some(Visibility::Public);
        let (statement, module) = match family(from_lang) {
            "js" => {
                let spec = es_specifier(self, &importer, &target);
                let default = self
                    .file_record(&target)
                    .is_some_and(|r| r.facts.symbols.iter().any(|f| f.name == name && f.default_export && f.span.start_line == node.span.start_line));
                let type_only = matches!(from_lang, Language::TypeScript | Language::Tsx)
                    && (node.kind == NodeKind::Interface || node.flavor == Some(TypeFlavor::TypeAlias));
                let statement = if default {
                    format!("import {name} from '{spec}';")
                } else if type_only {
                    format!("import type {{ {name} }} from '{spec}';")
                } else {
                    format!("import {{ {name} }} from '{spec}';")
                };
                (statement, spec)
            }
            "python" => {
                let module = python_module(self, &target);
                (format!("from {module} import {name}"), module)
            }
            "go" => {
                let path = go_import_path(self, dir_of(&target)).ok_or_else(|| {
                    QueryError::invalid(format!("no go.mod holds {target}: its import path is unknown"))
                })?;
                let pkg = package(&target).unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
                answer.reference = Some(format!("{pkg}.{name}"));
                (format!("import \"{path}\""), path)
            }
            "rust" => {
                let (krate, segments) = rust_module(self, &target).ok_or_else(|| {
                    QueryError::invalid(format!("{target} is not under a Cargo crate's src/: its module path is unknown"))
                })?;
                // A binary's `crate` is the binary itself: it reaches the library by the crate's name.
                let in_binary = |p: &str| {
                    let inner = p.rsplit_once("src/").map_or(p, |(_, r)| r);
                    inner == "main.rs" || inner.starts_with("bin/")
                };
                let same_crate = rust_module(self, &importer).is_some_and(|(k, _)| k == krate)
                    && in_binary(&importer) == in_binary(&target);
                let root = if same_crate { "crate".to_string() } else { krate };
                let module = std::iter::once(root).chain(segments).collect::<Vec<_>>().join("::");
                (format!("use {module}::{name};"), module)
            }
            "jvm" | "csharp" | "php" => {
                let Some(pkg) = package(&target) else {
                    return Err(QueryError::invalid(format!(
                        "{target} declares no package or namespace: {name} is imported by file, not by name"
                    )));
                };
                if package(&importer).as_deref() == Some(pkg.as_str()) {
                    answer.status = ImportStatus::SamePackage;
                    return Ok(answer);
                }
                let statement = match from_lang {
                    Language::Java => format!("import {pkg}.{name};"),
                    Language::CSharp => format!("using {pkg};"),
                    Language::Php => format!("use {}\\{name};", pkg.replace('.', "\\")),
                    _ => format!("import {pkg}.{name}"),
                };
                (statement, pkg)
            }
            "c" => {
                let header = |p: &str| [".h", ".hh", ".hpp", ".hxx"].iter().any(|e| p.ends_with(e));
                let declared_in = if header(&target) {
                    Some(target.clone())
                } else {
                    // A definition in a source file is reached through a header declaring the
                    // same name: the one of the same file name first.
                    let base = |p: &str| {
                        let file = p.rsplit('/').next().unwrap_or(p);
                        file.rsplit_once('.').map_or(file, |(s, _)| s).to_string()
                    };
                    let mut headers: Vec<String> = g
                        .node_entries()
                        .filter(|(_, n)| n.name == name && n.kind.is_symbol() && header(&n.path))
                        .map(|(_, n)| n.path.to_string())
                        .collect();
                    headers.sort_by_key(|h| (base(h) != base(&target), h.clone()));
                    // Prototypes are not declarations here: the header of the same name the
                    // source file includes stands for them.
                    headers.into_iter().next().or_else(|| {
                        let source = file_node(g, &target)?;
                        g.out_edges(source)
                            .filter(|e| e.kind == EdgeKind::Imports)
                            .map(|e| g.node_at(e.to).path.to_string())
                            .find(|h| header(h) && base(h) == base(&target))
                    })
                };
                let Some(h) = declared_in else {
                    return Err(QueryError::invalid(format!(
                        "{name} is defined in {target} and no header declares it (none of that name is included there): there is nothing to #include"
                    )));
                };
                let include = self
                    .config
                    .c_include_dirs
                    .iter()
                    .filter_map(|d| h.strip_prefix(&format!("{d}/")))
                    .min_by_key(|r| r.len())
                    .map(str::to_string)
                    .unwrap_or_else(|| {
                        let r = relative(dir_of(&importer), &h);
                        r.strip_prefix("./").map(str::to_string).unwrap_or(r)
                    });
                (format!("#include \"{include}\""), include)
            }
            "ruby" => {
                let spec = relative(dir_of(&importer), target.strip_suffix(".rb").unwrap_or(&target));
                let spec = spec.strip_prefix("./").map(str::to_string).unwrap_or(spec);
                (format!("require_relative '{spec}'"), spec)
            }
            other => {
                return Err(QueryError::invalid(format!(
                    "import statements are not written for {other} here; supported: JavaScript/TypeScript, Python, Go, Rust, Java, Kotlin, Scala, C#, PHP, C/C++, Ruby"
                )))
            }
        };
        answer.statement = Some(statement);
        answer.module = Some(module);
        if let Some(line) = of_file {
            answer.line = Some(line);
            answer.note = Some(format!(
                "line {line} already imports from {target}: add {name} to that import"
            ));
        }
        if !exported {
            answer.status = ImportStatus::NotExported;
            answer.note = Some(format!(
                "{name} is not exported from {target}: export it (or make it public) before importing it"
            ));
        }
        Ok(answer)
    }
}
