//! Languages gortex knows, with their file extensions.

use serde::{Deserialize, Serialize};

/// A source language. Dialects that need their own grammar (TSX) are separate variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Language> {
        Language::ALL.iter().copied().find(|l| l.as_str() == text)
    }

    /// Picks the language from a file name's extension.
    pub fn from_path(path: &str) -> Option<Language> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name.ends_with(".d.ts") {
            return Some(Language::TypeScript);
        }
        let ext = name.rsplit_once('.')?.1;
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
            _ => return None,
        })
    }

    /// TS, TSX and JS share one module system and resolve against each other.
    pub fn is_ecmascript(self) -> bool {
        matches!(self, Language::TypeScript | Language::Tsx | Language::JavaScript)
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
        Some(Language::TypeScript | Language::Tsx | Language::JavaScript) => {
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
        None => in_test_dir,
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
    fn serde_names_match_wire_names() {
        for lang in Language::ALL {
            let json = serde_json::to_string(lang).unwrap();
            assert_eq!(json, format!("\"{}\"", lang.as_str()));
        }
    }
}
