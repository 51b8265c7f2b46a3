//! CPG-lite dataflow. Per-function facts (assignments, call sites with what each argument reads,
//! returns) are extracted with tree-sitter for TypeScript/JavaScript, Python, Go and Java
//! (`extract`), then linked into a flow graph through the code graph's resolved calls (`layer`):
//! `value_flow` inside a function, `arg_of` from a call's argument to the callee's parameter and
//! `returns_to` from the callee's return to where the result lands. `flow_between` and
//! `taint_paths` search that graph (`query`).

pub mod extract;
pub mod facts;
pub mod layer;
pub mod query;

pub use extract::{extract, DATAFLOW_LANGUAGES};
pub use facts::{Assign, Call, FnFlow, Return, Value};
