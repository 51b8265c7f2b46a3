; Swift (the grammar crate's tags query tags whole classes as methods, so this one is ours):
; classes, structs, enums, actors and extensions; protocols with their requirements; functions
; (methods inside types); stored and computed properties of types and files; calls `f()`,
; `x.f()`.
(class_declaration name: (_) @name body: (_) @body) @definition.class
(protocol_declaration name: (type_identifier) @name body: (_) @body) @definition.interface
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(function_declaration name: (simple_identifier) @name body: (_) @body) @definition.function
(class_body (property_declaration name: (pattern (simple_identifier) @name)) @definition.property)
(source_file (property_declaration name: (pattern (simple_identifier) @name)) @definition.variable)
(call_expression (simple_identifier) @name) @reference.call
(call_expression
  (navigation_expression
    target: (_) @receiver
    suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call
