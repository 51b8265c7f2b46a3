; Calls: f(), M.f(), obj:f(); `require` is an import, not a call.
(function_call
  name: (identifier) @name
  (#not-eq? @name "require")) @reference.call

(function_call
  name: (dot_index_expression
    table: (_) @receiver
    field: (identifier) @name)) @reference.call

(function_call
  name: (method_index_expression
    table: (_) @receiver
    method: (identifier) @name)) @reference.call
