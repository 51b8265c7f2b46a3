; Ruby declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).

(module name: [(constant) (scope_resolution)] @name body: (_)? @body) @definition.module
(class name: [(constant) (scope_resolution)] @name superclass: (_)? body: (_)? @body) @definition.class
(method name: (_) @name body: (_)? @body) @definition.method
(singleton_method name: (_) @name body: (_)? @body) @definition.method

; Constants: `MAX = 10` in a class or module body, or at the top.
(assignment left: (constant) @name) @definition.constant

; attr_reader / attr_writer / attr_accessor :name → fields (the dialect drops the colon).
((call method: (identifier) @macro arguments: (argument_list (simple_symbol) @name)) @definition.field
  (#match? @macro "^attr_(reader|writer|accessor)$"))
