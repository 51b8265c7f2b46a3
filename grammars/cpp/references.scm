; Calls: f(), obj.f(), ptr->f(), ns::f(), Type::f(), f<T>(), obj.f<T>().
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (qualified_identifier) @name) @reference.call
(call_expression function: (template_function name: (identifier) @name)
  (#not-match? @name "^(static|dynamic|reinterpret|const)_cast$")) @reference.call
(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: [(field_identifier) @name (template_method name: (field_identifier) @name)])) @reference.call

; Construction: new T(…), and T x(…) / T x{…} on the stack.
(new_expression type: (_) @name) @reference.new
(declaration type: [(type_identifier) (qualified_identifier) (template_type)] @name
  declarator: (init_declarator value: [(argument_list) (initializer_list)])) @reference.new

; Base classes.
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.extends

; Declared types of variables, parameters and members (typed), return types (returns), and types
; named in casts, sizeof and template arguments (type).
(declaration type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.typed
(parameter_declaration type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.typed
(field_declaration type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.typed
(function_definition type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.returns
(type_descriptor type: [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.type

; Locals and parameters with a declared type, and `auto x = new T(…)`.
(declaration
  type: [(type_identifier) (qualified_identifier) (template_type) (struct_specifier name: (_)) (class_specifier name: (_))] @binding.type
  declarator: [
    (identifier) @binding.name
    (init_declarator declarator: (identifier) @binding.name)
    (pointer_declarator declarator: (identifier) @binding.name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name))
    (reference_declarator (identifier) @binding.name)
    (init_declarator declarator: (reference_declarator (identifier) @binding.name))
  ]) @binding
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator declarator: (identifier) @binding.name value: (new_expression type: (_) @binding.type))) @binding
(parameter_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @binding.type
  declarator: [
    (identifier) @binding.name
    (pointer_declarator declarator: (identifier) @binding.name)
    (reference_declarator (identifier) @binding.name)
  ]) @binding
