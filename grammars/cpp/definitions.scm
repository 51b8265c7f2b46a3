; C++ declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).
; A written name `A::b` declares `b` as a method of `A` (out-of-line definitions).

; Functions and methods with a body: free, in-class (field_identifier), out-of-line
; (qualified_identifier), operators, destructors; returning values, pointers or references.
(function_definition
  type: (_)? @return
  declarator: [
    (function_declarator declarator: (_) @name)
    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    (reference_declarator (function_declarator declarator: (_) @name))
  ]
  body: (_) @body) @definition.function

; Pure virtual member declarations are the interface's methods (other bodiless declarations are
; left to the definition, which joins its class by name).
(field_declaration
  declarator: (function_declarator declarator: (field_identifier) @name)
  default_value: (number_literal)) @definition.method

(class_specifier name: (_) @name body: (_) @body) @definition.class
(struct_specifier name: (_) @name body: (_) @body) @definition.struct
(union_specifier name: (_) @name body: (_) @body) @definition.union
(enum_specifier name: (_) @name body: (_) @body) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member

(namespace_definition name: (_) @name body: (_) @body) @definition.namespace

; using Alias = Type;
(alias_declaration name: (type_identifier) @name type: (_) @type) @definition.type

; typedefs, as in C.
(type_definition type: (struct_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (_) @body) declarator: (type_identifier) @name) @definition.enum
(type_definition type: [(struct_specifier name: (_) @tag body: (_)) (union_specifier name: (_) @tag body: (_)) (enum_specifier name: (_) @tag body: (_)) (class_specifier name: (_) @tag body: (_))]
  declarator: (type_identifier) @name @definition.type
  (#not-eq? @tag @name))
(type_definition
  type: [(type_identifier) (primitive_type) (sized_type_specifier) (qualified_identifier) (template_type) (struct_specifier !body) (union_specifier !body) (enum_specifier !body) (class_specifier !body)] @type
  declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)]) @definition.type

; Data members.
(field_declaration
  type: (_) @type
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (reference_declarator (field_identifier) @name)
    (array_declarator declarator: (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

; Namespace- and file-scope variables (locals are dropped by the dialect).
(declaration
  type: (_) @type
  declarator: [
    (identifier) @name
    (init_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (identifier) @name)
    (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (reference_declarator (identifier) @name)
    (init_declarator declarator: (reference_declarator (identifier) @name))
    (array_declarator declarator: (identifier) @name)
    (init_declarator declarator: (array_declarator declarator: (identifier) @name))
  ]) @definition.variable

(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro
