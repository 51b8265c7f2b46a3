//! The conventions every query tool follows, and their pieces in one import for the crates that
//! build tools on them outside `gortex-graph` (analysis, dataflow, clones). The pieces live in
//! [`args`](super::args), [`targets`](super::targets), [`suggestions`](super::suggestions),
//! [`tiers`](super::tiers), [`neighbours`](super::neighbours), [`caveats`](super::caveats) and
//! [`inheritance`](super::inheritance); the tools in this crate import from those directly.
//!
//! - **Targets.** An `id` argument accepts an exact node id, an id without the repository prefix,
//!   a repository-relative file path, a qualified name (`Owner.name`, matched on whole trailing
//!   segments) or a bare name. File, package and import nodes are only reached by id or path,
//!   never by name; external stubs only by id. A name that matches several symbols is an
//!   `ambiguous` error listing the candidates (best first: non-test, exported, then by id) so the
//!   agent retries with an id. Every result therefore describes exactly one target. Tools with
//!   several node arguments use [`resolve_arg`] so errors say which one failed. An unknown target
//!   suggests similar names ([`suggest`]: equal, prefix, substring, then typos).
//! - **Tiers.** Without `min_tier`, speculative rows are hidden and name-only (`text_matched`)
//!   rows are dropped when the result also holds a row with `ast_inferred` or better evidence;
//!   the number dropped is reported as `name_only_suppressed`. When name matches are the only
//!   evidence they are kept. With `min_tier`, rows below it are dropped and a `tier_filtered`
//!   block reports how many and the strongest tier available. Traversals apply the floor while
//!   walking, so nothing is reached only through a hidden edge.
//! - **Free-form walks** (`walk_graph`, `graph_query`, `trace_path`) follow edges through
//!   [`neighbours`] above the floor [`tier_floor`] gives (`min_tier`, or everything but
//!   `speculative`); they do not apply the name-only rule or report tiers.
//! - **Caveats** follow the original's zero-edge classification (see [`classify_caveat`]).

// Globs, so this stays an alias of the modules rather than a second list to keep in step.
pub use super::args::*;
pub use super::caveats::*;
pub use super::inheritance::*;
pub use super::neighbours::*;
pub use super::suggestions::*;
pub use super::targets::*;
pub use super::tiers::*;
