; Calls: f(), o.f(), a.b.f(), this.f(), super.f(); constructors are calls of a class name.
(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression . (_) @receiver (identifier) @name .)) @reference.call

; Supertypes: a constructor call names the superclass, a bare type an interface.
(delegation_specifier (constructor_invocation (user_type (identifier) @name .))) @reference.extends
(delegation_specifier (user_type (identifier) @name .)) @reference.implements

; Declared types (Kotlin's built-in types are not references).
((parameter (identifier) [(user_type (identifier) @name .) (nullable_type (user_type (identifier) @name .))]) @reference.typed
  (#not-match? @name "^(Int|Long|Short|Byte|Double|Float|Boolean|Char|String|Unit|Any|Nothing|Number)$"))
((class_parameter (identifier) [(user_type (identifier) @name .) (nullable_type (user_type (identifier) @name .))]) @reference.typed
  (#not-match? @name "^(Int|Long|Short|Byte|Double|Float|Boolean|Char|String|Unit|Any|Nothing|Number)$"))
((variable_declaration (identifier) [(user_type (identifier) @name .) (nullable_type (user_type (identifier) @name .))]) @reference.typed
  (#not-match? @name "^(Int|Long|Short|Byte|Double|Float|Boolean|Char|String|Unit|Any|Nothing|Number)$"))
((function_declaration (function_value_parameters) . [(user_type (identifier) @name .) (nullable_type (user_type (identifier) @name .))]) @reference.returns
  (#not-match? @name "^(Int|Long|Short|Byte|Double|Float|Boolean|Char|String|Unit|Any|Nothing|Number)$"))
(annotation (user_type (identifier) @name .)) @reference.type
((type_projection (user_type (identifier) @name .)) @reference.type
  (#not-match? @name "^(Int|Long|Short|Byte|Double|Float|Boolean|Char|String|Unit|Any|Nothing|Number)$"))

; Typed locals and parameters; `val x = Foo(…)` (a capitalised callee constructs).
(parameter (identifier) @binding.name [(user_type) (nullable_type)] @binding.type) @binding
(variable_declaration (identifier) @binding.name [(user_type) (nullable_type)] @binding.type) @binding
(property_declaration
  (variable_declaration (identifier) @binding.name .)
  (call_expression . (identifier) @binding.type)
  (#match? @binding.type "^[A-Z]")) @binding
