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
            _ => return None,
        })
    }

    /// TS, TSX and JS share one module system and resolve against each other.
    pub fn is_ecmascript(self) -> bool {
        matches!(self, Language::TypeScript | Language::Tsx | Language::JavaScript)
    }

    /// The family used when deciding whether two files may resolve against each other.
    pub fn family(self) -> Language {
        if self.is_ecmascript() {
            Language::TypeScript
        } else {
            self
        }
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
