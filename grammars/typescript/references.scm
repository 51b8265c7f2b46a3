; TypeScript-only uses of names (appended to javascript/references.scm for TS and TSX).
; Captured nodes are read in Rust (their return_type / parameters / type fields): patterns
; constraining optional fields of nestable nodes would be quadratic on deeply nested code.
; Types found inside are walked for type_identifiers; the capture name gives the edge kind.

; Functions of every shape: return annotation → Returns; parameter annotations → TypedAs and a
; binding for the parameter name.
[(function_declaration) (generator_function_declaration) (function_expression) (generator_function)
 (arrow_function) (method_definition) (function_signature) (abstract_method_signature)] @fn

; Class bodies (overload signatures) and interface bodies (method and property signatures).
[(class_body) (interface_body)] @member_body

; Class fields and variables with a `type` annotation → TypedAs.
(public_field_definition) @field_def
(variable_declarator) @declarator

; Inheritance: `extends Base<Arg>` (arguments → References; the base itself is read with the
; class), `implements I`, interface `extends J`.
(extends_clause) @extends_clause
(implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @implements)
(extends_type_clause type: (_) @extends)

; Other type positions → References.
(type_alias_declaration value: (_) @type.ref)
[(as_expression) (satisfies_expression)] @type.cast
