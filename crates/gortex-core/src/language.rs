//! Languages gortex knows, with their file extensions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A source language. Dialects that need their own grammar (TSX) are separate variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    #[serde(rename = "typescript")]
    TypeScript,
    Tsx,
    #[serde(rename = "javascript")]
    JavaScript,
    Python,
    Go,
    Rust,
    Java,
    C,
    Cpp,
    #[serde(rename = "csharp")]
    CSharp,
    Kotlin,
    Php,
    Ruby,
    /// Vue single-file components: the `<script>` blocks, read as TypeScript.
    Vue,
    /// Svelte components: the `<script>` blocks, read as TypeScript.
    Svelte,
    Markdown,
    Json,
    Yaml,
    Toml,
    Dockerfile,
    /// Protocol Buffers (`.proto`).
    Proto,
    Sql,
    /// Any other text file: a file node whose content is searchable, nothing more.
    Text,
    Lua,
    /// Bash and POSIX shell scripts (`.sh`, `.bash`, `.zsh`, or a shell shebang).
    Bash,
    // The generic tier: symbols and name-bound calls from a tags query.
    Elixir,
    Erlang,
    Elm,
    Dart,
    Haskell,
    Zig,
    // Bespoke now (the tagged engine with a dialect); listed here, where they were added as
    // generic-tier languages first.
    Swift,
    Scala,
}

impl Language {
    /// Every language, in a stable order.
    pub const ALL: &'static [Language] = &[
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Python,
        Language::Go,
        Language::Rust,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Kotlin,
        Language::Php,
        Language::Ruby,
        Language::Vue,
        Language::Svelte,
        Language::Markdown,
        Language::Json,
        Language::Yaml,
        Language::Toml,
        Language::Dockerfile,
        Language::Proto,
        Language::Sql,
        Language::Text,
        Language::Lua,
        Language::Bash,
        Language::Elixir,
        Language::Erlang,
        Language::Elm,
        Language::Dart,
        Language::Haskell,
        Language::Zig,
        Language::Swift,
        Language::Scala,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Python => "python",
            Language::Go => "go",
            Language::Rust => "rust",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Kotlin => "kotlin",
            Language::Php => "php",
            Language::Ruby => "ruby",
            Language::Vue => "vue",
            Language::Svelte => "svelte",
            Language::Markdown => "markdown",
            Language::Json => "json",
            Language::Yaml => "yaml",
            Language::Toml => "toml",
            Language::Dockerfile => "dockerfile",
            Language::Proto => "proto",
            Language::Sql => "sql",
            Language::Text => "text",
            Language::Lua => "lua",
            Language::Bash => "bash",
            Language::Elixir => "elixir",
            Language::Erlang => "erlang",
            Language::Elm => "elm",
            Language::Dart => "dart",
            Language::Haskell => "haskell",
            Language::Zig => "zig",
            Language::Swift => "swift",
            Language::Scala => "scala",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Language> {
        Language::ALL.iter().copied().find(|l| l.as_str() == text)
    }

    /// Picks the language from a file's name: its extension, or the whole name for files such
    /// as `Dockerfile`. Any other file is [`Language::Text`] unless its extension names a binary
    /// format (images, archives, fonts, compiled objects…), which is `None`: never read.
    pub fn from_path(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name.ends_with(".d.ts") {
            return Some(Language::TypeScript);
        }
        if is_dockerfile_name(name) {
            return Some(Language::Dockerfile);
        }
        let Some((_, ext)) = name.rsplit_once('.') else {
            return Some(Language::Text);
        };
        let lower;
        let ext = if ext.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = ext.to_ascii_lowercase();
            lower.as_str()
        } else {
            ext
        };
        Some(match ext {
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "py" | "pyi" => Language::Python,
            "go" => Language::Go,
            "rs" => Language::Rust,
            "java" => Language::Java,
            // Headers start as C; the indexer re-reads them as C++ when their text says so.
            "c" | "h" => Language::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" | "inl" => Language::Cpp,
            "cs" => Language::CSharp,
            "kt" | "kts" => Language::Kotlin,
            "php" => Language::Php,
            "rb" | "rake" => Language::Ruby,
            "vue" => Language::Vue,
            "svelte" => Language::Svelte,
            "md" | "markdown" | "mdx" => Language::Markdown,
            "json" | "jsonc" | "json5" => Language::Json,
            "yaml" | "yml" => Language::Yaml,
            "toml" => Language::Toml,
            "dockerfile" | "containerfile" => Language::Dockerfile,
            "proto" => Language::Proto,
            "sql" => Language::Sql,
            "lua" => Language::Lua,
            "sh" | "bash" | "zsh" => Language::Bash,
            "ex" | "exs" => Language::Elixir,
            "erl" | "hrl" => Language::Erlang,
            "elm" => Language::Elm,
            "dart" => Language::Dart,
            "hs" => Language::Haskell,
            "zig" => Language::Zig,
            "swift" => Language::Swift,
            "scala" | "sc" => Language::Scala,
            e if BINARY_EXTENSIONS.contains(&e) => return None,
            _ => Language::Text,
        })
    }

    /// Languages with a call graph (declarations, calls, types); the rest are documents and
    /// configuration, indexed for their structure and text.
    pub fn is_code(self) -> bool {
        !matches!(
            self,
            Language::Markdown
                | Language::Json
                | Language::Yaml
                | Language::Toml
                | Language::Dockerfile
                | Language::Proto
                | Language::Sql
                | Language::Text
        )
    }

    /// TS, TSX and JS share one module system and resolve against each other.
    /// Vue and Svelte components are TypeScript/JavaScript in their script blocks.
    pub fn is_ecmascript(self) -> bool {
        matches!(
            self,
            Language::TypeScript | Language::Tsx | Language::JavaScript | Language::Vue | Language::Svelte
        )
    }

    /// C and C++ share headers and call each other.
    pub fn is_c_family(self) -> bool {
        matches!(self, Language::C | Language::Cpp)
    }

    /// The family used when deciding whether two files may resolve against each other.
    pub fn family(self) -> Language {
        if self.is_ecmascript() {
            Language::TypeScript
        } else if self.is_c_family() {
            Language::C
        } else {
            self
        }
    }
}

/// `Dockerfile`, `Dockerfile.prod`, `prod.Dockerfile`, `Containerfile`.
fn is_dockerfile_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "dockerfile"
        || lower == "containerfile"
        || lower.starts_with("dockerfile.")
        || lower.starts_with("containerfile.")
}

/// Extensions of binary formats: such files are never read (their content is not text).
const BINARY_EXTENSIONS: &[&str] = &[
    "png",
    "jpg",
    "jpeg",
    "gif",
    "bmp",
    "ico",
    "icns",
    "webp",
    "tif",
    "tiff",
    "psd",
    "avif",
    "heic",
    "pdf",
    "zip",
    "gz",
    "tgz",
    "bz2",
    "xz",
    "zst",
    "7z",
    "rar",
    "tar",
    "jar",
    "war",
    "ear",
    "aar",
    "apk",
    "ipa",
    "dmg",
    "iso",
    "exe",
    "dll",
    "so",
    "dylib",
    "a",
    "lib",
    "o",
    "obj",
    "class",
    "pyc",
    "pyo",
    "pyd",
    "wasm",
    "node",
    "rlib",
    "bin",
    "dat",
    "db",
    "sqlite",
    "sqlite3",
    "woff",
    "woff2",
    "ttf",
    "otf",
    "eot",
    "mp3",
    "mp4",
    "m4a",
    "wav",
    "ogg",
    "flac",
    "avi",
    "mov",
    "mkv",
    "webm",
    "snap",
    "pack",
    "idx",
    "keystore",
    "jks",
    "p12",
    "pfx",
    "der",
    "xlsx",
    "docx",
    "pptx",
    "xls",
    "doc",
    "ppt",
    "odt",
    "parquet",
    "avro",
    "orc",
    "onnx",
    "pt",
    "pth",
    "ckpt",
    "safetensors",
    "npy",
    "npz",
    "pkl",
    "pickle",
    "h5",
    "hdf5",
    "swf",
    "blend",
    "fbx",
    "glb",
    "psb",
    "xcf",
    "sketch",
    "fig",
];

/// Test-file naming conventions per language (`None`: only test directories count). The one
/// rule both the indexer and search use to mark test files.
pub fn is_test_path(path: &str, language: Option<Language>) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let in_test_dir = path
        .split('/')
        .any(|seg| matches!(seg, "test" | "tests" | "__tests__" | "spec" | "testing"));
    match language {
        Some(Language::Go) => name.ends_with("_test.go"),
        Some(Language::Python) => {
            name.starts_with("test_") || name.ends_with("_test.py") || name == "conftest.py" || in_test_dir
        }
        Some(Language::Java) => {
            name.ends_with("Test.java") || name.ends_with("Tests.java") || path.contains("src/test/")
        }
        Some(Language::Rust) => path.starts_with("tests/") || path.contains("/tests/"),
        Some(Language::TypeScript | Language::Tsx | Language::JavaScript | Language::Vue | Language::Svelte) => {
            name.contains(".test.") || name.contains(".spec.") || path.contains("__tests__/")
        }
        Some(Language::Ruby) => {
            let stem = name.strip_suffix(".rb").unwrap_or(name);
            in_test_dir || stem.ends_with("_test") || stem.ends_with("_spec") || stem.starts_with("test_")
        }
        Some(Language::Php) => {
            let stem = name.strip_suffix(".php").unwrap_or(name);
            in_test_dir || stem.ends_with("Test")
        }
        Some(Language::Kotlin) => {
            let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name);
            stem.ends_with("Test") || stem.ends_with("Tests") || path.contains("src/test/") || in_test_dir
        }
        Some(Language::CSharp) => {
            let stem = name.strip_suffix(".cs").unwrap_or(name);
            in_test_dir || stem.ends_with("Test") || stem.ends_with("Tests") || path.contains(".Tests/")
        }
        Some(Language::C | Language::Cpp) => {
            let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name);
            in_test_dir
                || stem.starts_with("test_")
                || stem.ends_with("_test")
                || stem.ends_with("_unittest")
                || stem.ends_with("Test")
                || stem.ends_with("Tests")
        }
        Some(Language::Elixir) => in_test_dir || name.ends_with("_test.exs"),
        Some(Language::Dart) => in_test_dir || name.ends_with("_test.dart"),
        Some(Language::Erlang) => in_test_dir || name.ends_with("_SUITE.erl") || name.ends_with("_tests.erl"),
        Some(Language::Swift | Language::Scala) => {
            let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name);
            in_test_dir
                || stem.ends_with("Tests")
                || stem.ends_with("Test")
                || stem.ends_with("Spec")
                || path.contains("src/test/")
        }
        Some(Language::Lua) => {
            let stem = name.strip_suffix(".lua").unwrap_or(name);
            in_test_dir || stem.ends_with("_spec") || stem.ends_with("_test") || stem.starts_with("test_")
        }
        // Documents and configuration are never tests, even under a test directory (fixtures).
        Some(l) if !l.is_code() => false,
        Some(_) | None => in_test_dir,
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_file_has_a_language_and_binaries_none() {
        assert_eq!(Language::from_path("web/App.vue"), Some(Language::Vue));
        assert_eq!(Language::from_path("src/Button.svelte"), Some(Language::Svelte));
        assert_eq!(Language::from_path("docs/README.md"), Some(Language::Markdown));
        assert_eq!(Language::from_path("deploy/Dockerfile"), Some(Language::Dockerfile));
        assert_eq!(Language::from_path("Dockerfile.prod"), Some(Language::Dockerfile));
        assert_eq!(Language::from_path("ci/app.Dockerfile"), Some(Language::Dockerfile));
        assert_eq!(Language::from_path("api/v1/svc.proto"), Some(Language::Proto));
        assert_eq!(Language::from_path("db/001_init.SQL"), Some(Language::Sql));
        assert_eq!(Language::from_path("LICENSE"), Some(Language::Text));
        assert_eq!(Language::from_path("Makefile"), Some(Language::Text));
        assert_eq!(Language::from_path("notes.txt"), Some(Language::Text));
        assert_eq!(Language::from_path("logo.PNG"), None);
        assert_eq!(Language::from_path("src/util.lua"), Some(Language::Lua));
        assert_eq!(Language::from_path("scripts/build.sh"), Some(Language::Bash));
        assert_eq!(Language::from_path("lib/app.ex"), Some(Language::Elixir));
        assert_eq!(Language::from_path("Sources/App/main.swift"), Some(Language::Swift));
        assert_eq!(Language::from_path("lib/x.so"), None);
        assert!(!Language::Markdown.is_code() && Language::Vue.is_code() && Language::Vue.is_ecmascript());
        assert!(!is_test_path("tests/fixtures/data.json", Some(Language::Json)));
        assert!(is_test_path("src/App.spec.ts", Some(Language::TypeScript)));
    }

    #[test]
    fn serde_names_match_wire_names() {
        for lang in Language::ALL {
            let json = serde_json::to_string(lang).unwrap();
            assert_eq!(json, format!("\"{}\"", lang.as_str()));
        }
    }
}
