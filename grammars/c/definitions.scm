; C declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).

; Functions, including ones returning pointers.
(function_definition
  type: (_) @return
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]
  body: (_) @body) @definition.function

; Tagged types with a body (a bare `struct foo;` or `struct foo x;` declares nothing new).
(struct_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @definition.union
(enum_specifier name: (type_identifier) @name body: (_) @body) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member

; typedef of an anonymous body: the typedef name is the type.
(type_definition type: (struct_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.enum
; typedef of a named body: an alias, spanning only its name so the body keeps its own node;
; `typedef struct x {…} x;` names one type, declared once.
(type_definition type: [(struct_specifier name: (_) @tag body: (_)) (union_specifier name: (_) @tag body: (_)) (enum_specifier name: (_) @tag body: (_))]
  declarator: (type_identifier) @name @definition.type
  (#not-eq? @tag @name))
; Every other typedef (of a name, a primitive, a bodiless tag, a pointer).
(type_definition
  type: [(type_identifier) (primitive_type) (sized_type_specifier) (struct_specifier !body) (union_specifier !body) (enum_specifier !body)] @type
  declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)]) @definition.type
; Function-pointer typedefs: typedef int (*cmp_fn)(const void *, const void *);
(type_definition
  declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type

; Struct and union members (function pointers included).
(field_declaration
  type: (_) @type
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

; File-scope variables (locals are dropped by the dialect).
(declaration
  type: (_) @type
  declarator: [
    (identifier) @name
    (init_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (array_declarator declarator: (identifier) @name)
    (init_declarator declarator: (array_declarator declarator: (identifier) @name))
  ]) @definition.variable

; Macros: object-like ones are constants, function-like ones functions.
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro
