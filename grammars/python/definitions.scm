; Python declarations. Context (method vs function, module vs class vs function scope)
; is decided in Rust from the nesting of the captured nodes, never by walking parents.

; Functions, methods, nested functions (async included: the `async` token is a child).
(function_definition
  name: (identifier) @function.name) @function

; Classes (plain, enum, Protocol/ABC interfaces; flavour decided from the bases).
(class_definition
  name: (identifier) @class.name) @class

; Decorator lists: the Rust side iterates the `decorator` children.
(decorated_definition) @decorated

; Assignment statements. Chains (`a = b = 1`) are walked in Rust; only the outermost
; assignment of a statement matches here.
(expression_statement
  (assignment) @assignment) @assignment.statement

; `__all__ += [...]` extends the export list.
(expression_statement
  (augmented_assignment
    left: (identifier) @all.name
    (#eq? @all.name "__all__")) @all.augmented)

; Python 3.12 `type X = ...`.
(type_alias_statement) @type_alias
