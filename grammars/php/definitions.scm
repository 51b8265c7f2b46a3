; PHP declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).
; `namespace A\B;` is the file's package (dotted: `A.B`), resolved as Java packages are.

(namespace_definition name: (namespace_name) @package)

(class_declaration name: (name) @name body: (_) @body) @definition.class
(interface_declaration name: (name) @name body: (_) @body) @definition.interface
(trait_declaration name: (name) @name body: (_) @body) @definition.trait
(enum_declaration name: (name) @name body: (_) @body) @definition.enum
(enum_case name: (name) @name) @definition.enum_member

(method_declaration name: (name) @name body: (_)? @body) @definition.method
(function_definition name: (name) @name body: (_) @body) @definition.function

; Properties (`private ?Repo $repo;`), promoted constructor parameters, class constants.
(property_declaration type: (_)? @type (property_element name: (variable_name (name) @name))) @definition.property
(property_promotion_parameter type: (_)? @type name: (variable_name (name) @name)) @definition.property
(const_declaration (const_element (name) @name)) @definition.constant
