//! Language-server answers about call sites (the semantic-enrichment pass): where `definition`
//! says a call goes, and where `implementation` says it may dispatch. A file's sites are handed to
//! the builder with its facts ([`crate::SourceFile::semantic`]); the resolver prefers them to its
//! own cascade and stamps what they decide `lsp_resolved` / `lsp_dispatch`, counting how its own
//! answer fared ([`SemanticCounts`]).

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// A definition a server pointed at: the file, the 1-based line of its name, and the name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemanticTarget {
    pub path: String,
    pub line: u32,
    pub name: String,
}

/// What a server said about one call site (the callee name at `line`, 1-based, and `col`, a
/// 0-based byte column, as the extractor reported it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemanticSite {
    pub line: u32,
    pub col: u32,
    /// Definitions inside the repository (the first that names a symbol wins).
    #[serde(default)]
    pub targets: Vec<SemanticTarget>,
    /// Implementations a call through an interface or abstract method may reach.
    #[serde(default)]
    pub dispatch: Vec<SemanticTarget>,
    /// The definition lies outside the repository (a library, the standard library).
    #[serde(default)]
    pub external: bool,
}

/// One file's answered sites, by position.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SemanticSites {
    by_position: FxHashMap<(u32, u32), SemanticSite>,
}

impl SemanticSites {
    /// The sites, keyed by position (a later site at the same position replaces an earlier one).
    pub fn new(sites: Vec<SemanticSite>) -> Self {
        SemanticSites {
            by_position: sites.into_iter().map(|s| ((s.line, s.col), s)).collect(),
        }
    }

    /// The answer for the reference at `line`/`col`, if the server gave one.
    pub fn at(&self, line: u32, col: u32) -> Option<&SemanticSite> {
        self.by_position.get(&(line, col))
    }

    /// How many sites were answered.
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether no site was answered.
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }
}

/// How the resolver's own answers fared against the servers', over the sites they decided.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemanticCounts {
    /// The cascade bound the same symbol: the edge is upgraded to `lsp_resolved`.
    pub confirmed: u32,
    /// The cascade bound another symbol: the server's replaces it.
    pub corrected: u32,
    /// The cascade bound nothing (a placeholder or no edge): the server's edge is new.
    pub added: u32,
    /// The cascade bound a repository symbol the server places outside the repository, or at a
    /// parameter or local of the calling function: dropped.
    pub dropped: u32,
    /// `lsp_dispatch` edges to implementations.
    pub dispatch: u32,
}

impl SemanticCounts {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &SemanticCounts) {
        self.confirmed += other.confirmed;
        self.corrected += other.corrected;
        self.added += other.added;
        self.dropped += other.dropped;
        self.dispatch += other.dispatch;
    }

    /// Whether nothing was decided.
    pub fn is_empty(&self) -> bool {
        *self == SemanticCounts::default()
    }
}
