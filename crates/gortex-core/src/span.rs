//! Source positions.

use serde::{Deserialize, Serialize};

/// A source range. Lines are 1-based, columns are 0-based byte offsets within the line
/// (tree-sitter's convention), so editors and `sed -n` agree on line numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Span {
    pub start_line: u32,
    pub start_col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    /// True when `other` lies inside this span (inclusive).
    pub fn contains(&self, other: &Span) -> bool {
        (self.start_line, self.start_col) <= (other.start_line, other.start_col)
            && (other.end_line, other.end_col) <= (self.end_line, self.end_col)
    }

    /// True when the given 1-based line/0-based column lies inside this span.
    pub fn contains_point(&self, line: u32, col: u32) -> bool {
        (self.start_line, self.start_col) <= (line, col) && (line, col) <= (self.end_line, self.end_col)
    }
}
