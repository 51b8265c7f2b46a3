; Calls: F(), o.F(), A.B.F(), F<T>(), o?.F().
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: (_) @receiver
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
; base.F(): `base` is an anonymous token here.
(invocation_expression
  function: (member_access_expression
    "base" @receiver
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
(invocation_expression
  function: (conditional_access_expression
    condition: (_) @receiver
    (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call

; new T(…)
(object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @name) @reference.new

; Base types: the dialect tells interfaces (IName) from classes.
(base_list [(identifier) (qualified_name) (generic_name)] @name) @reference.extends

; Declared types.
(parameter type: [(identifier) (qualified_name) (generic_name)] @name) @reference.typed
(property_declaration type: [(identifier) (qualified_name) (generic_name)] @name) @reference.typed
(variable_declaration type: [(identifier) (qualified_name) (generic_name)] @name) @reference.typed
(method_declaration returns: [(identifier) (qualified_name) (generic_name)] @name) @reference.returns
(attribute name: (_) @name) @reference.type
(type_argument_list [(identifier) (qualified_name) (generic_name)] @name) @reference.type

; Typed locals and parameters; `var x = new T(…)`.
(variable_declaration
  type: [(identifier) (qualified_name) (generic_name)] @binding.type
  (variable_declarator name: (identifier) @binding.name)) @binding
(variable_declaration
  type: (implicit_type)
  (variable_declarator name: (identifier) @binding.name
    (object_creation_expression type: (_) @binding.type))) @binding
(parameter type: [(identifier) (qualified_name) (generic_name)] @binding.type name: (identifier) @binding.name) @binding
