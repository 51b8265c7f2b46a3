; Zig: functions, `const X = struct {…}` containers, fields, tests; calls `f()` and `x.f()`.
(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(variable_declaration (identifier) @name (struct_declaration)) @definition.struct
(container_field name: (_) @name) @definition.field
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression object: (_) @receiver member: (identifier) @name)) @reference.call
