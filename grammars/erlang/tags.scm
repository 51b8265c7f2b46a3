; Erlang: modules, functions (one definition per clause group), records, types; local and
; remote (`mod:f()`) calls.
(module_attribute name: (atom) @name) @definition.module
(fun_decl clause: (function_clause name: (atom) @name body: (_) @body)) @definition.function
(record_decl name: (atom) @name) @definition.struct
(type_alias name: (type_name name: (atom) @name)) @definition.type
(call expr: (atom) @name) @reference.call
(call expr: (remote module: (remote_module module: (atom) @receiver) fun: (atom) @name)) @reference.call
