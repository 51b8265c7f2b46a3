; `use` trees are flattened in Rust code (explicit stack, no recursion).
(use_declaration argument: (_) @import.tree) @import.use
(extern_crate_declaration name: (identifier) @name) @import.extern_crate
