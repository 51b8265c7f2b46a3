; Dart (ours: the crate's tags query tags method signatures, not the declarations holding their
; bodies, so calls would land on the class): classes, mixins, extensions, enums, functions and
; methods with their bodies, top-level variables; calls `f()`, `x.f()`; supertypes.
(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(mixin_declaration (identifier) @name (class_body) @body) @definition.class
(extension_declaration name: (identifier) @name body: (_) @body) @definition.class
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(function_declaration signature: (function_signature name: (identifier) @name) body: (_) @body) @definition.function
(method_declaration signature: (method_signature (function_signature name: (identifier) @name)) body: (_) @body) @definition.method
(method_declaration signature: (method_signature (getter_signature name: (identifier) @name)) body: (_) @body) @definition.method
(top_level_variable_declaration (initialized_identifier_list (initialized_identifier (identifier) @name))) @definition.variable
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @receiver property: (identifier) @name)) @reference.call
; Supertypes: `extends S`, `with M` (a mixin's members are inherited), `implements I`.
(superclass type: (type (type_identifier) @name)) @reference.extends
(mixins (type (type_identifier) @name)) @reference.extends
(interfaces (type (type_identifier) @name)) @reference.implements
