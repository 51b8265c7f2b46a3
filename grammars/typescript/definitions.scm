; TypeScript-only declarations (appended to javascript/definitions.scm for TS and TSX).

(abstract_class_declaration name: (_) @name) @class
(function_signature name: (_) @name) @function_sig
(interface_declaration name: (_) @name) @interface
(type_alias_declaration name: (_) @name) @type_alias
(enum_declaration name: (_) @name) @enum
(internal_module name: (_) @name) @namespace
(module name: (_) @name) @namespace

; Variable statements directly inside a namespace body are module-level.
(internal_module body: (statement_block [(lexical_declaration) (variable_declaration)] @toplevel))
(internal_module body: (statement_block (export_statement declaration: [(lexical_declaration) (variable_declaration)] @toplevel)))

; Generic parameters are never references.
(type_parameter name: (_) @type_param)
