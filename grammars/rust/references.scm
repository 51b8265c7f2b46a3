; Uses of names. Receivers, `Self` substitution and std-type filtering happen in Rust code.

; Calls: `foo()`, `x.foo()`, `a::b::foo()`, `foo::<T>()`. Path arguments (`map(Foo::from)`)
; become References; they are read from @ref.args (a nested pattern here would keep one
; query state open per nesting level).
(call_expression function: (_) @ref.callee arguments: (arguments) @ref.args) @ref.call

; Struct literals: `Foo { .. }` -> Instantiates.
(struct_expression name: (_) @ref.struct_name) @ref.struct

; Macro invocations: token trees of well-known macros are scanned for `ident (` calls.
(macro_invocation macro: (_) @ref.macro_name (token_tree) @ref.macro_tokens) @ref.macro

; Trait bounds on type parameters, where clauses, supertraits and associated types.
(trait_bounds) @ref.bounds

; Typed parameters (functions and closures): TypedAs refs + bindings.
(parameter) @ref.param

; `let` statements: TypedAs refs for the declared type + bindings.
(let_declaration) @ref.let
