; Go uses of names.

; Calls: `foo()`, `pkg.Foo()`, `s.store.Get()`, `make().Do()`.
(call_expression
  function: (_) @call.function
  arguments: (argument_list) @call.args) @call

; Generic calls parse as conversions: `Map[int, string](xs)`.
(type_conversion_expression type: (generic_type) @conversion.type) @conversion

; Composite literals: `Foo{}`, `&Foo{}`, `pkg.Foo{}`, `Foo[T]{}`.
(composite_literal type: (_) @literal.type) @literal

; Every type name; its context (parameter, result, field, embedding, …) is decided in Rust.
(type_identifier) @type.ref

; Binding evidence.
(short_var_declaration
  left: (expression_list) @bind.left
  right: (expression_list) @bind.right) @bind.short
(assignment_statement
  left: (expression_list) @bind.left
  right: (expression_list) @bind.right) @bind.assign
(parameter_declaration) @param
(variadic_parameter_declaration) @param

; `for _, v := range xs`: v binds to the element type of a collection parameter.
(range_clause left: (expression_list) right: (_)) @range
