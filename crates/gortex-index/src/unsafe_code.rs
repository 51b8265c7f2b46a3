//! The unsafe-code and interop kinds of `analyze`, read from the syntax trees (a structural
//! sweep, `evidence: "ast"`):
//!
//! - **`unsafe_patterns`**: code that steps outside the language's safety — Go `unsafe.*` (in
//!   expressions and types) and `//go:linkname`; Rust `unsafe` blocks, functions, impls and
//!   `extern` blocks; C# `unsafe` blocks and members, `fixed` and `stackalloc` — each with the
//!   symbol it is in.
//! - **`cgo_users`**: Go files that `import "C"`, with how many `C.*` names they use and which.
//! - **`wasm_users`**: files that cross into WebAssembly — Rust `wasm_bindgen` (imports and
//!   attributes), Go `syscall/js`, JavaScript and TypeScript `WebAssembly.*`.

use crate::sweep::enclosing_function;
use crate::sweep::{Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Names listed per file in `cgo_users` and `wasm_users`.
pub const NAMES_PER_FILE: usize = 10;

const UNSAFE: &[(Language, &str)] = &[
    (
        Language::Go,
        r#"(selector_expression operand: (identifier) @_p field: (field_identifier) @go_unsafe (#eq? @_p "unsafe"))
           (qualified_type package: (package_identifier) @_p name: (type_identifier) @go_unsafe (#eq? @_p "unsafe"))
           ((comment) @linkname (#match? @linkname "^//go:linkname"))"#,
    ),
    (
        Language::Rust,
        r#"(unsafe_block) @unsafe_block
           (function_item (function_modifiers "unsafe") name: (identifier) @unsafe_fn)
           (impl_item "unsafe" type: (_) @unsafe_impl)
           (foreign_mod_item) @extern_block"#,
    ),
    (
        Language::CSharp,
        r#"(unsafe_statement) @unsafe_block
           ((modifier) @unsafe_member (#eq? @unsafe_member "unsafe"))
           (fixed_statement) @fixed
           (stackalloc_expression) @stackalloc"#,
    ),
];

/// The pattern name a hit reports.
fn unsafe_pattern(h: &Hit) -> String {
    match h.what.as_str() {
        "go_unsafe" => format!("unsafe.{}", h.text),
        "linkname" => "go:linkname".into(),
        "unsafe_block" => "unsafe block".into(),
        "unsafe_fn" => "unsafe fn".into(),
        "unsafe_impl" => "unsafe impl".into(),
        "extern_block" => "extern block".into(),
        "unsafe_member" => "unsafe member".into(),
        "fixed" => "fixed".into(),
        "stackalloc" => "stackalloc".into(),
        other => other.into(),
    }
}

/// Arguments of `analyze kind=unsafe_patterns`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnsafePatternsArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most sites returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One unsafe site.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnsafeSite {
    /// `unsafe.Pointer`, `go:linkname`, `unsafe block`, `unsafe fn`, `unsafe impl`, `extern block`,
    /// `unsafe member`, `fixed`, `stackalloc`.
    pub pattern: String,
    pub language: Language,
    pub path: String,
    pub line: u32,
    /// The symbol it is in (for `unsafe fn`, the function itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<NodeSummary>,
    /// The source line.
    pub text: String,
}

/// The answer of `analyze kind=unsafe_patterns`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnsafePatternsResult {
    /// By file and line, at most `limit`.
    pub sites: Vec<UnsafeSite>,
    pub total: usize,
    pub truncated: bool,
    pub by_pattern: BTreeMap<String, usize>,
    /// Distinct files with a site.
    pub files: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=unsafe_patterns` (see the module doc).
    pub(crate) fn unsafe_patterns(
        &self,
        g: &Graph,
        a: &UnsafePatternsArgs,
    ) -> Result<UnsafePatternsResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, UNSAFE, a.path_prefix.as_deref())?;
        let mut sites: Vec<UnsafeSite> = hits
            .iter()
            .map(|h| UnsafeSite {
                pattern: unsafe_pattern(h),
                language: h.language,
                path: h.path.clone(),
                line: h.line,
                symbol: enclosing_function(g, &h.path, h.line).map(|i| NodeSummary::at(g, i)),
                text: h.quote.clone(),
            })
            .collect();
        sites.sort_by(|a, b| {
            a.path
                .cmp(&b.path)
                .then(a.line.cmp(&b.line))
                .then_with(|| a.pattern.cmp(&b.pattern))
        });
        sites.dedup_by(|a, b| a.path == b.path && a.line == b.line && a.pattern == b.pattern);
        let mut by_pattern = BTreeMap::new();
        for s in &sites {
            *by_pattern.entry(s.pattern.clone()).or_insert(0) += 1;
        }
        let mut files: Vec<&str> = sites.iter().map(|s| s.path.as_str()).collect();
        files.dedup();
        let (total, files) = (sites.len(), files.len());
        sites.truncate(limit);
        Ok(UnsafePatternsResult {
            sites,
            total,
            truncated: total > limit,
            by_pattern,
            files,
            coverage,
        })
    }
}

const CGO: &[(Language, &str)] = &[(
    Language::Go,
    r#"(import_spec path: (interpreted_string_literal) @cgo_import (#eq? @cgo_import "\"C\""))
       (selector_expression operand: (identifier) @_c field: (field_identifier) @c_name (#eq? @_c "C"))
       (qualified_type package: (package_identifier) @_c name: (type_identifier) @c_name (#eq? @_c "C"))"#,
)];

const WASM: &[(Language, &str)] = &[
    (
        Language::Rust,
        r#"(use_declaration argument: (_) @wasm_use (#match? @wasm_use "^wasm_bindgen"))
           (attribute_item (attribute (identifier) @wasm_attr (#eq? @wasm_attr "wasm_bindgen")))"#,
    ),
    (
        Language::Go,
        r#"(import_spec path: (interpreted_string_literal) @syscall_js (#eq? @syscall_js "\"syscall/js\""))"#,
    ),
    (Language::JavaScript, WEB_ASSEMBLY),
    (Language::TypeScript, WEB_ASSEMBLY),
    (Language::Tsx, WEB_ASSEMBLY),
];

const WEB_ASSEMBLY: &str = r#"(member_expression object: (identifier) @_w property: (property_identifier) @web_assembly (#eq? @_w "WebAssembly"))"#;

/// Arguments of `analyze kind=cgo_users` and `analyze kind=wasm_users`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InteropUsersArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most files returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A file that crosses a language boundary.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InteropFile {
    pub path: String,
    pub language: Language,
    /// How it crosses: `import "C"`; `wasm_bindgen`, `syscall/js`, `WebAssembly`.
    pub via: Vec<String>,
    /// Uses of the other side's names (`C.*` for cgo, `WebAssembly.*`, `#[wasm_bindgen]` items).
    pub uses: usize,
    /// Those names, distinct and sorted, at most [`NAMES_PER_FILE`].
    pub names: Vec<String>,
}

/// The answer of `analyze kind=cgo_users` and `analyze kind=wasm_users`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InteropUsersResult {
    /// By path, at most `limit`.
    pub files: Vec<InteropFile>,
    pub total: usize,
    pub truncated: bool,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=cgo_users` (see the module doc).
    pub(crate) fn cgo_users(&self, g: &Graph, a: &InteropUsersArgs) -> Result<InteropUsersResult, QueryError> {
        self.interop_users(g, a, CGO, |h| match h.what.as_str() {
            "cgo_import" => Some(("import \"C\"", None)),
            "c_name" => Some(("", Some(format!("C.{}", h.text)))),
            _ => None,
        })
    }

    /// `analyze kind=wasm_users` (see the module doc).
    pub(crate) fn wasm_users(&self, g: &Graph, a: &InteropUsersArgs) -> Result<InteropUsersResult, QueryError> {
        self.interop_users(g, a, WASM, |h| match h.what.as_str() {
            "wasm_use" => Some(("wasm_bindgen", None)),
            "wasm_attr" => Some(("wasm_bindgen", Some("#[wasm_bindgen]".into()))),
            "syscall_js" => Some(("syscall/js", None)),
            "web_assembly" => Some(("WebAssembly", Some(format!("WebAssembly.{}", h.text)))),
            _ => None,
        })
    }

    /// Files with a boundary-crossing hit: `classify` says which boundary (`""` for a use only)
    /// and which name a hit uses. Files with uses but no crossing (`C.x` without `import "C"`)
    /// are left out.
    fn interop_users(
        &self,
        g: &Graph,
        a: &InteropUsersArgs,
        patterns: &[(Language, &str)],
        classify: impl Fn(&Hit) -> Option<(&'static str, Option<String>)>,
    ) -> Result<InteropUsersResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (hits, coverage) = self.ast_hits(g, patterns, a.path_prefix.as_deref())?;
        let mut files: BTreeMap<&str, InteropFile> = BTreeMap::new();
        for h in &hits {
            let Some((via, name)) = classify(h) else { continue };
            let f = files.entry(&h.path).or_insert_with(|| InteropFile {
                path: h.path.clone(),
                language: h.language,
                via: Vec::new(),
                uses: 0,
                names: Vec::new(),
            });
            if !via.is_empty() && !f.via.iter().any(|v| v == via) {
                f.via.push(via.to_string());
            }
            if let Some(name) = name {
                f.uses += 1;
                f.names.push(name);
            }
        }
        let mut rows: Vec<InteropFile> = files
            .into_values()
            .filter(|f| !f.via.is_empty())
            .map(|mut f| {
                f.names.sort_unstable();
                f.names.dedup();
                f.names.truncate(NAMES_PER_FILE);
                f
            })
            .collect();
        let total = rows.len();
        rows.truncate(limit);
        Ok(InteropUsersResult {
            files: rows,
            total,
            truncated: total > limit,
            coverage,
        })
    }
}

/// The bundled patterns of this module, per language (for the compile test).
#[cfg(test)]
pub(crate) fn bundled_patterns() -> Vec<(Language, &'static str)> {
    UNSAFE.iter().chain(CGO).chain(WASM).copied().collect()
}
