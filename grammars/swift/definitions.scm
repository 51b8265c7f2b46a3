; Swift declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).
; There is no package declaration: the dialect names each file's module from its path. An
; `extension T { … }` is not a declaration of its own: the dialect writes its members as `T.member`,
; methods of T declared away from it. Locals are dropped by the dialect.

(class_declaration declaration_kind: "class" name: (type_identifier) @name body: (_) @body) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name body: (_) @body) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name body: (_) @body) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name body: (_) @body) @definition.enum
(protocol_declaration name: (type_identifier) @name body: (_) @body) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type
(enum_entry name: (simple_identifier) @name) @definition.enum_member

; Functions (members become methods), initialisers, subscripts, protocol requirements.
(function_declaration
  name: (simple_identifier) @name
  [(user_type) (optional_type) (array_type) (dictionary_type)]? @return
  body: (_) @body) @definition.function
(init_declaration "init" @name body: (_)? @body) @definition.constructor
(subscript_declaration "subscript" @name) @definition.method
(protocol_function_declaration name: (simple_identifier) @name) @definition.method

; Properties of types (stored and computed) and of files; protocol property requirements. The
; type is the annotation's, else that of the initialiser's callee (`let store = Store()`); the
; dialect keeps only capitalised names as types (`let x = make()` has none).
(class_body
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    [(type_annotation . (_) @type) (call_expression . (simple_identifier) @type)]?) @definition.property)
(enum_class_body
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    (type_annotation . (_) @type)?) @definition.property)
(source_file
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)
    [(type_annotation . (_) @type) (call_expression . (simple_identifier) @type)]?) @definition.variable)
(protocol_property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  (type_annotation . (_) @type)?) @definition.property
