//! Project configuration the resolver needs: Go modules, tsconfig paths, JS workspace packages
//! and Cargo crates. Parsed from file contents handed over by the indexer (no I/O here).

use serde::{Deserialize, Serialize};

/// Module-resolution facts gathered from a repository's config files.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RepoConfig {
    pub go_modules: Vec<GoModule>,
    pub ts_configs: Vec<TsConfig>,
    pub js_packages: Vec<JsPackage>,
    pub cargo_crates: Vec<CargoCrate>,
    /// C/C++ include directories (repo-relative) from `compile_commands.json` `-I`/`-iquote`/
    /// `-isystem` flags, in first-seen order.
    pub c_include_dirs: Vec<String>,
}

/// A `go.mod`: the directory it lives in and its module path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoModule {
    pub dir: String,
    pub module: String,
}

/// The module-resolution part of a `tsconfig.json`/`jsconfig.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TsConfig {
    /// Directory of the config file (repo-relative, `""` for the root).
    pub dir: String,
    /// `compilerOptions.baseUrl`, repo-relative.
    pub base_url: Option<String>,
    /// `compilerOptions.paths`: pattern → targets (repo-relative, `*` kept).
    pub paths: Vec<(String, Vec<String>)>,
}

/// A `package.json` of a workspace package.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsPackage {
    pub dir: String,
    pub name: String,
    /// Entry candidates for the bare specifier, best first (exports["."], types, module, main).
    pub entries: Vec<String>,
    /// `exports` subpaths (`./sub` → `./src/sub.ts`), repo-relative targets.
    pub subpaths: Vec<(String, String)>,
}

/// A Cargo package: its directory and crate name (hyphens as underscores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CargoCrate {
    pub dir: String,
    pub name: String,
}

/// Joins a repo-relative directory and a relative path, normalising `.` and `..`.
/// Returns `None` when the path climbs above the repository root.
pub fn join_path(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The directory part of a repo-relative path (`""` for root files).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Parses `go.mod` text.
pub fn parse_go_mod(dir: &str, text: &str) -> Option<GoModule> {
    text.lines().find_map(|l| {
        let l = l.trim();
        let rest = l.strip_prefix("module")?;
        let module = rest.trim().trim_matches('"').to_string();
        (!module.is_empty()).then(|| GoModule {
            dir: dir.to_string(),
            module,
        })
    })
}

/// Removes `//` and `/* */` comments and trailing commas so tsconfig-style JSON parses.
pub fn strip_jsonc(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '"' {
                in_string = false;
            }
            i += 1;
        } else if c == '"' {
            in_string = true;
            out.push(c);
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == ','
            && matches!(
                chars[i + 1..].iter().find(|c| !c.is_whitespace()),
                Some('}') | Some(']')
            )
        {
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// Parses a `tsconfig.json` / `jsconfig.json` (comments and trailing commas allowed).
pub fn parse_tsconfig(dir: &str, text: &str) -> Option<TsConfig> {
    let value: serde_json::Value = serde_json::from_str(&strip_jsonc(text)).ok()?;
    let options = value.get("compilerOptions");
    let base_url = options
        .and_then(|o| o.get("baseUrl"))
        .and_then(|b| b.as_str())
        .and_then(|b| join_path(dir, b));
    let mut paths = Vec::new();
    if let Some(map) = options.and_then(|o| o.get("paths")).and_then(|p| p.as_object()) {
        let base = base_url.clone().unwrap_or_else(|| dir.to_string());
        for (pattern, targets) in map {
            let targets: Vec<String> = targets
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|t| t.as_str())
                        .filter_map(|t| join_path(&base, t))
                        .collect()
                })
                .unwrap_or_default();
            paths.push((pattern.clone(), targets));
        }
    }
    paths.sort();
    Some(TsConfig {
        dir: dir.to_string(),
        base_url,
        paths,
    })
}

fn export_target(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(map) => {
            for key in ["types", "import", "module", "default", "require", "node"] {
                if let Some(t) = map.get(key).and_then(export_target) {
                    return Some(t);
                }
            }
            None
        }
        serde_json::Value::Array(items) => items.iter().find_map(export_target),
        _ => None,
    }
}

/// Parses a `package.json` into a workspace package (needs a `name`).
pub fn parse_package_json(dir: &str, text: &str) -> Option<JsPackage> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let name = value.get("name")?.as_str()?.to_string();
    let mut entries = Vec::new();
    let mut subpaths = Vec::new();
    match value.get("exports") {
        Some(serde_json::Value::Object(map)) if map.keys().any(|k| k.starts_with('.')) => {
            for (key, target) in map {
                if let Some(t) = export_target(target).and_then(|t| join_path(dir, &t)) {
                    if key == "." {
                        entries.push(t);
                    } else {
                        subpaths.push((key.clone(), t));
                    }
                }
            }
        }
        Some(other) => {
            if let Some(t) = export_target(other).and_then(|t| join_path(dir, &t)) {
                entries.push(t);
            }
        }
        None => {}
    }
    for key in ["types", "typings", "module", "main", "source"] {
        if let Some(t) = value.get(key).and_then(|v| v.as_str()).and_then(|t| join_path(dir, t)) {
            entries.push(t);
        }
    }
    for fallback in ["src/index", "index"] {
        if let Some(t) = join_path(dir, fallback) {
            entries.push(t);
        }
    }
    subpaths.sort();
    Some(JsPackage {
        dir: dir.to_string(),
        name,
        entries,
        subpaths,
    })
}

/// Parses the `[package] name` of a `Cargo.toml` (crate name with `-` → `_`).
pub fn parse_cargo_toml(dir: &str, text: &str) -> Option<CargoCrate> {
    let mut in_package = false;
    let mut lib_name = None;
    let mut package_name = None;
    let mut section = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            section = l.trim_matches(['[', ']']).trim().to_string();
            in_package = section == "package";
            continue;
        }
        if let Some(rest) = l.strip_prefix("name") {
            let rest = rest.trim_start();
            if let Some(value) = rest.strip_prefix('=') {
                let value = value.trim().trim_matches('"').to_string();
                if in_package {
                    package_name = Some(value);
                } else if section == "lib" {
                    lib_name = Some(value);
                }
            }
        }
    }
    let name = lib_name.or(package_name)?.replace('-', "_");
    Some(CargoCrate {
        dir: dir.to_string(),
        name,
    })
}

/// Include directories named by a `compile_commands.json` (in directory `dir` of the repository
/// rooted at `root`, an absolute path): `-I`, `-iquote`, `-isystem` and `-idirafter` flags of
/// every entry, joined to the entry's `directory`, kept when inside the repository, made
/// repo-relative and deduplicated in first-seen order. Malformed text yields nothing.
pub fn parse_compile_commands(root: &str, dir: &str, text: &str) -> Vec<String> {
    let Ok(serde_json::Value::Array(entries)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let root = root.trim_end_matches('/');
    let mut out: Vec<String> = Vec::new();
    for entry in entries {
        let base = entry
            .get("directory")
            .and_then(|d| d.as_str())
            .map(str::to_string)
            .unwrap_or_else(|| format!("{root}/{dir}"));
        let args: Vec<String> = match (entry.get("arguments"), entry.get("command")) {
            (Some(serde_json::Value::Array(a)), _) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            (_, Some(serde_json::Value::String(c))) => c.split_whitespace().map(str::to_string).collect(),
            _ => continue,
        };
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            let mut value = None;
            for flag in ["-I", "-iquote", "-isystem", "-idirafter"] {
                if arg == flag {
                    value = args.get(i + 1).cloned();
                    i += 1;
                    break;
                }
                if let Some(rest) = arg.strip_prefix(flag) {
                    if flag == "-I" || !rest.is_empty() {
                        value = Some(rest.to_string());
                        break;
                    }
                }
            }
            i += 1;
            let Some(v) = value.filter(|v| !v.is_empty()) else {
                continue;
            };
            let abs = if v.starts_with('/') { v } else { format!("{base}/{v}") };
            let Some(rel) = abs.strip_prefix(root) else { continue };
            if !(rel.is_empty() || rel.starts_with('/')) {
                continue; // a sibling directory sharing the root's name prefix
            }
            let Some(rel) = join_path("", rel) else { continue };
            if !out.contains(&rel) {
                out.push(rel);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_normalises() {
        assert_eq!(join_path("src/a", "../b/c").as_deref(), Some("src/b/c"));
        assert_eq!(join_path("", "./x").as_deref(), Some("x"));
        assert_eq!(join_path("a", "../../x"), None);
    }

    #[test]
    fn parses_tsconfig_with_comments() {
        let cfg = parse_tsconfig(
            "app",
            r#"{ // comment
              "compilerOptions": { "baseUrl": "./src", /* c */ "paths": { "@lib/*": ["lib/*",], }, },
            }"#,
        )
        .unwrap();
        assert_eq!(cfg.base_url.as_deref(), Some("app/src"));
        assert_eq!(
            cfg.paths,
            vec![("@lib/*".to_string(), vec!["app/src/lib/*".to_string()])]
        );
    }

    #[test]
    fn parses_package_exports() {
        let pkg = parse_package_json(
            "packages/core",
            r#"{"name":"@acme/core","exports":{".":{"types":"./src/index.ts"},"./util":"./src/util.ts"}}"#,
        )
        .unwrap();
        assert_eq!(pkg.entries[0], "packages/core/src/index.ts");
        assert_eq!(
            pkg.subpaths,
            vec![("./util".to_string(), "packages/core/src/util.ts".to_string())]
        );
    }

    #[test]
    fn parses_go_mod_and_cargo() {
        assert_eq!(
            parse_go_mod("", "module github.com/acme/app\n\ngo 1.22\n")
                .unwrap()
                .module,
            "github.com/acme/app"
        );
        assert_eq!(
            parse_cargo_toml("crates/x", "[package]\nname = \"my-crate\"\n")
                .unwrap()
                .name,
            "my_crate"
        );
    }

    #[test]
    fn compile_commands_include_dirs_inside_the_repo() {
        let text = r#"[
          {"directory": "/r/build", "arguments": ["cc", "-I../include", "-I", "/r/third/x", "-isystem", "/usr/include", "-iquote", "gen", "-c", "a.c"]},
          {"directory": "/r", "command": "cc -Iinclude -I/r2/other -c b.c"}
        ]"#;
        assert_eq!(
            parse_compile_commands("/r", "", text),
            vec!["include".to_string(), "third/x".to_string(), "build/gen".to_string()]
        );
        assert!(parse_compile_commands("/r", "", "not json").is_empty());
    }
}
