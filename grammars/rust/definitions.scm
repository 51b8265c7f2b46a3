; Declarations. One capture per declaration node (@def.*) plus its @name.
; Methods vs functions, impl ownership and trait membership are decided in Rust code
; from the node's parents (declaration_list inside impl_item / trait_item).

(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(union_item name: (type_identifier) @name) @def.union
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type_alias
(const_item name: (identifier) @name) @def.const
(static_item name: (identifier) @name) @def.static
(mod_item name: (identifier) @name) @def.module
(macro_definition name: (identifier) @name) @def.macro
(field_declaration name: (field_identifier) @name) @def.field
(enum_variant name: (identifier) @name) @def.variant
(impl_item type: (_) @name) @def.impl

; Generic parameter names (never refs). The node is captured twice so the match has the
; same (@def.*, @name) shape as the others.
(type_parameter name: (type_identifier) @name @generic)
