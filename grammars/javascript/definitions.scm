; Declarations shared by JavaScript, TypeScript and TSX (node types common to all three grammars).
; The extractor walks the direct children of the captured containers (class bodies, declarator
; lists, import clauses) in Rust; nothing here needs a parent lookup.

(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function

(class_declaration name: (_) @name) @class

; Object literals (their `get() {}` methods become symbols) — children are walked in Rust:
; `(parent (child))` patterns keep one pending match per enclosing parent, which is
; quadratic on deeply nested input.
(object) @object

; Every variable statement; module-level ones are also captured as @toplevel.
[(lexical_declaration) (variable_declaration)] @vardecl
(program [(lexical_declaration) (variable_declaration)] @toplevel)
(program (export_statement declaration: [(lexical_declaration) (variable_declaration)] @toplevel))

(export_statement) @export
(import_statement) @import

; CommonJS exports at module level: `module.exports = …`, `exports.foo = …`.
(program (expression_statement (assignment_expression left: (member_expression) right: (_)) @cjs))

; Test-runner calls (`describe('title', …)`, `it.only("title", …)`, hooks `beforeEach(() => …)`):
; every call with its callee; the extractor filters by callee name and reads the arguments.
; (A pattern that also constrains `arguments:` would wait through the whole callee subtree,
; which is quadratic on long call chains.)
(call_expression function: (_) @callee) @test_call

; Calls that are decorators (`@Component({…})`) are references, not calls.
(decorator (call_expression) @decorator_call)

; Local names (parameters, destructuring, catch clauses) — identifiers passed as arguments
; are only reported as references when they are not locals. Children walked in Rust
; (a `(node field: …)` pattern whose field is absent stays pending through the node's whole
; subtree, which is quadratic when such nodes nest).
(formal_parameters) @params
[(object_pattern) (array_pattern)] @destructure
(arrow_function) @arrow
(catch_clause parameter: (identifier) @local)

(comment) @comment
