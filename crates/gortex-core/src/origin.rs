//! Provenance tiers: how sure we are that an edge points where it says.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The evidence behind an edge, strongest first. Ordering follows strength, so
/// `Origin::AstResolved > Origin::TextMatched`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A language server confirmed the target.
    LspResolved,
    /// A language server resolved an interface dispatch.
    LspDispatch,
    /// A unique structural target: same file, import evidence, same package, declared type.
    AstResolved,
    /// A heuristic on extracted type information (e.g. inferred from a call's return type).
    AstInferred,
    /// A name-only match inside the same repository.
    TextMatched,
    /// A dynamic-dispatch best guess; hidden unless asked for.
    Speculative,
}

impl Origin {
    /// Every tier, strongest first.
    pub const ALL: &'static [Origin] = &[
        Origin::LspResolved,
        Origin::LspDispatch,
        Origin::AstResolved,
        Origin::AstInferred,
        Origin::TextMatched,
        Origin::Speculative,
    ];

    /// Numeric strength (6 = strongest), as in the original's ranking.
    pub fn rank(self) -> u8 {
        match self {
            Origin::LspResolved => 6,
            Origin::LspDispatch => 5,
            Origin::AstResolved => 4,
            Origin::AstInferred => 3,
            Origin::TextMatched => 2,
            Origin::Speculative => 1,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::LspResolved => "lsp_resolved",
            Origin::LspDispatch => "lsp_dispatch",
            Origin::AstResolved => "ast_resolved",
            Origin::AstInferred => "ast_inferred",
            Origin::TextMatched => "text_matched",
            Origin::Speculative => "speculative",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Origin> {
        Origin::ALL.iter().copied().find(|o| o.as_str() == text)
    }

    /// Weak evidence: name matches and guesses.
    pub fn is_weak(self) -> bool {
        self.rank() <= Origin::TextMatched.rank()
    }
}

impl PartialOrd for Origin {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Origin {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
