; Go declarations. Names are read from the def nodes' fields in Rust; the @*.name captures
; document which child carries the name.

(package_clause (package_identifier) @package.name)

(function_declaration name: (identifier) @function.name) @function.def

(method_declaration
  receiver: (parameter_list) @method.receiver
  name: (field_identifier) @method.name) @method.def

; `type X struct{}`, `type X interface{}`, `type ID string`
(type_spec name: (type_identifier) @type.name) @type.def

; `type X = Y`
(type_alias name: (type_identifier) @type.name) @alias.def

; Fields of a struct that is itself a named type (anonymous nested structs are not symbols).
(type_spec
  type: (struct_type
    (field_declaration_list (field_declaration) @field.def)))

; Method specs of a named interface.
(type_spec
  type: (interface_type
    (method_elem name: (field_identifier) @method_elem.name) @method_elem.def))

; const/var declarations anywhere: package-level ones become symbols, all give bindings.
(const_declaration) @const.decl
(var_declaration) @var.decl
