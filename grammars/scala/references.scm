; Calls f(…), x.f(…), f[T](…); instantiations; supertypes; declared, parameter and result types;
; type arguments. Typed locals are bindings.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (identifier) @name))) @reference.call
(instance_expression [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.new
; `extends A with B with C`: one pattern per position, by position rather than by field (the
; query engine matches only the first of several children sharing the field `type`).
(extends_clause . [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.extends
(extends_clause . (_) . [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.extends
(extends_clause . (_) . (_) . [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.extends
(parameter type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.typed
(class_parameter type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.typed
(val_definition type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.typed
(var_definition type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.typed
(function_definition return_type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.returns
(function_declaration return_type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.returns
(type_arguments (type_identifier) @name) @reference.type

(val_definition pattern: (identifier) @binding.name type: [(type_identifier) (generic_type)] @binding.type) @binding
(val_definition
  pattern: (identifier) @binding.name
  value: (instance_expression [(type_identifier) (generic_type)] @binding.type)) @binding
(parameter name: (identifier) @binding.name type: [(type_identifier) (generic_type)] @binding.type) @binding
