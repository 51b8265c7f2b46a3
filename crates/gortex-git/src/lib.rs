//! Git history mined into the graph.
//!
//! - [`mine`]: the first-parent history of `HEAD`, mined once and then incrementally, with every
//!   tracked file's line lineage ([`lines`]): which commits shaped the code on each line now.
//! - [`history`]: that history joined with one graph version (uncommitted edits marked): each
//!   symbol's commits over its span and its own lines, and each commit's symbols.
//! - [`codeowners`]: CODEOWNERS as GitHub and GitLab read it.
//! - [`analyses`] (`blame`, `ownership`, `stale_code`, `churn`, `fixes_history`, `releases`) and
//!   [`cochange`] (`find_co_changing_symbols`): pure functions of a graph and its history.
//! - [`reviewers`] (`suggest_reviewers`): CODEOWNERS, authorship and co-change experts for a changeset.
//! - [`store`]: the mined history saved beside the snapshots, so a restart mines only new commits.

pub mod analyses;
pub mod cochange;
pub mod codeowners;
pub mod history;
pub mod lines;
pub mod mine;
pub mod report;
pub mod reviewers;
pub mod store;

pub use history::History;
pub use mine::{GitError, GitRepo, MineReport, Mined};
