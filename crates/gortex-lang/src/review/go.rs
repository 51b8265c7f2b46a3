//! go: the dialect and the rules only this language spells this way.

use super::Finding;
use tree_sitter::Tree;

/// Runs every go rule.
pub fn scan(_tree: &Tree, _src: &[u8]) -> Vec<Finding> {
    Vec::new()
}
