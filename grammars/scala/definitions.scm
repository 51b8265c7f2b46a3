; Scala declarations: classes (case classes are records), objects, traits, enums, type aliases,
; methods (`def`, with or without a body), `val`/`var` members and constructor parameters as
; fields. Locals inside blocks are dropped by the dialect.
(class_definition name: (identifier) @name body: (_)? @body) @definition.class
(object_definition name: (identifier) @name body: (_)? @body) @definition.object
(trait_definition name: (identifier) @name body: (_)? @body) @definition.trait
(enum_definition name: (identifier) @name body: (_)? @body) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: (identifier) @name return_type: (_)? @return body: (_) @body) @definition.function
(function_declaration name: (identifier) @name return_type: (_)? @return) @definition.function
(val_definition pattern: (identifier) @name type: (_)? @type) @definition.field
(var_definition pattern: (identifier) @name type: (_)? @type) @definition.field
(class_parameter name: (identifier) @name type: (_)? @type) @definition.field
