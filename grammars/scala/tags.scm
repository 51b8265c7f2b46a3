; Scala: packages, classes, objects, traits, enums, type aliases, methods (`def`) with and
; without bodies, vals; calls `f(…)`, `x.f(…)`, instantiations `new T(…)`, supertypes and every
; other mention of a type.
(package_clause name: (package_identifier) @package)
(class_definition name: (identifier) @name body: (_)? @body) @definition.class
(object_definition name: (identifier) @name body: (_)? @body) @definition.object
(trait_definition name: (identifier) @name body: (_)? @body) @definition.trait
(enum_definition name: (identifier) @name body: (_)? @body) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: (identifier) @name body: (_)? @body) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(val_definition pattern: (identifier) @name) @definition.variable
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name)) @reference.call
(instance_expression (type_identifier) @name) @reference.new
(extends_clause type: (type_identifier) @name) @reference.extends
(extends_clause type: (generic_type type: (type_identifier) @name)) @reference.extends
; Any other mention of a type (parameters, results, type arguments).
(type_identifier) @name @reference.type
