; Lua declarations. `function M.f()` and `function M:f()` declare `f` as a method of the module
; table `M` (the engine splits the written name on `.` and `:`); `local M = {}` declares `M`.

; function f() / local function f()
(function_declaration
  name: (identifier) @name
  body: (_)? @body) @definition.function

; function M.f() / function M:f()
(function_declaration
  name: [(dot_index_expression) (method_index_expression)] @name
  body: (_)? @body) @definition.method

; M.f = function() … end
(assignment_statement
  (variable_list . name: (dot_index_expression) @name)
  (expression_list . value: (function_definition body: (_)? @body))) @definition.method

; f = function() … end / local f = function() … end
(assignment_statement
  (variable_list . name: (identifier) @name)
  (expression_list . value: (function_definition body: (_)? @body))) @definition.function

; local M = {} : a module (or class) table
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @name)
    (expression_list . value: (table_constructor)))) @definition.module

; { f = function() … end } inside a table constructor
(field
  name: (identifier) @name
  value: (function_definition body: (_)? @body)) @definition.method

; Top-level constants and settings: local NAME = literal
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name)
      (expression_list . value: [(string) (number) (true) (false)]))) @definition.variable)
