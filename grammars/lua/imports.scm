; local m = require("a.b")  /  local m = require "a.b"
(variable_declaration
  (assignment_statement
    (variable_list . name: (identifier) @import.alias)
    (expression_list
      . value: (function_call
        name: (identifier) @_require
        arguments: (arguments . (string content: (string_content) @import.module)))))
  (#eq? @_require "require")) @import

; require("a.b") for its effects
(function_call
  name: (identifier) @_require
  arguments: (arguments . (string content: (string_content) @import.module))
  (#eq? @_require "require")) @import
