//! gortex-core: the vocabulary every other crate speaks.
//!
//! Plain Rust types only: no napi, no wire formats, and no I/O but `Sources` (the one reader of
//! repository files, so an overlay of unsaved buffers reaches every crate that reads one). Everything here is
//! serde-serialisable so the snapshot and the napi boundary can carry it.

pub mod error;
pub mod facts;
pub mod heap;
pub mod id;
pub mod kinds;
pub mod language;
pub mod origin;
pub mod sources;
pub mod span;

pub use error::*;
pub use facts::*;
pub use heap::HeapSize;
pub use id::*;
pub use kinds::*;
pub use language::*;
pub use origin::*;
pub use sources::{OverlayFiles, Probe, Sources};
pub use span::*;
