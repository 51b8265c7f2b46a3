; Java declarations. Names, modifiers and bodies are read from the def nodes in Rust.

(package_declaration [(identifier) (scoped_identifier)] @package.name)

(class_declaration name: (identifier) @type.name) @class.def
(interface_declaration name: (identifier) @type.name) @interface.def
(enum_declaration name: (identifier) @type.name) @enum.def
(record_declaration name: (identifier) @type.name) @record.def
(annotation_type_declaration name: (identifier) @type.name) @annotation_type.def

(enum_constant name: (identifier) @enum_constant.name) @enum_constant.def

; Record components: `record P(int x, Foo y)`.
(record_declaration parameters: (formal_parameters (formal_parameter) @component.def))

(method_declaration name: (identifier) @method.name) @method.def
(annotation_type_element_declaration name: (identifier) @method.name) @element.def
(constructor_declaration name: (identifier) @constructor.name) @constructor.def
(compact_constructor_declaration name: (identifier) @constructor.name) @constructor.def

; Fields (`class_body`) and interface constants (`interface_body`).
(field_declaration) @field.def
(constant_declaration) @field.def
