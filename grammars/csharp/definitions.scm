; C# declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).
; Namespaces are the file's package (like Java), not symbols.

(namespace_declaration name: (_) @package)
(file_scoped_namespace_declaration name: (_) @package)

(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(struct_declaration name: (identifier) @name body: (_) @body) @definition.struct
(record_declaration name: (identifier) @name body: (_)? @body) @definition.record
(interface_declaration name: (identifier) @name body: (_) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enum_member
(delegate_declaration type: (_) @return name: (identifier) @name) @definition.type

(method_declaration returns: (_) @return name: (identifier) @name body: (_)? @body) @definition.method
(constructor_declaration name: (identifier) @name body: (_)? @body) @definition.constructor
(local_function_statement type: (_) @return name: (identifier) @name body: (_)? @body) @definition.function

; Properties are read like fields (`a.Repo.Save()`).
(property_declaration type: (_) @type name: (identifier) @name accessors: (_)? @body) @definition.property
(field_declaration (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))) @definition.field
(event_field_declaration (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))) @definition.field
