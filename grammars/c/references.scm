; Calls: f(), obj.f(), ptr->f().
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; Declared types of variables, parameters and members (typed), return types (returns), and types
; named in casts, sizeof and template arguments (type).
(declaration type: (type_identifier) @name) @reference.typed
(parameter_declaration type: (type_identifier) @name) @reference.typed
(field_declaration type: (type_identifier) @name) @reference.typed
(function_definition type: (type_identifier) @name) @reference.returns
(type_descriptor type: (type_identifier) @name) @reference.type
(declaration type: (struct_specifier name: (type_identifier) @name !body)) @reference.typed
(parameter_declaration type: (struct_specifier name: (type_identifier) @name !body)) @reference.typed
(field_declaration type: (struct_specifier name: (type_identifier) @name !body)) @reference.typed
(function_definition type: (struct_specifier name: (type_identifier) @name !body)) @reference.returns

; Locals and parameters with a declared type (receivers of ptr->f()).
(declaration
  type: [(type_identifier) (struct_specifier name: (type_identifier))] @binding.type
  declarator: [
    (identifier) @binding.name
    (init_declarator declarator: (identifier) @binding.name)
    (pointer_declarator declarator: (identifier) @binding.name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name))
  ]) @binding
(parameter_declaration
  type: [(type_identifier) (struct_specifier name: (type_identifier))] @binding.type
  declarator: [(identifier) @binding.name (pointer_declarator declarator: (identifier) @binding.name)]) @binding
