; Haskell: the module, top-level functions and bindings (a type signature alone declares
; nothing), data types, newtypes, type classes; applications of a variable are calls.
(header module: (module) @name) @definition.module
(function name: (variable) @name) @definition.function
(bind name: (variable) @name) @definition.function
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(class name: (name) @name) @definition.interface
(apply function: (variable) @name) @reference.call
