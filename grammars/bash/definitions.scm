; Shell functions and the variables a script sets at its top level.

; f() { … }  /  function f { … }
(function_definition
  name: (word) @name
  body: (_) @body) @definition.function

; NAME=value at the top level
(program
  (variable_assignment
    name: (variable_name) @name) @definition.variable)

; export NAME=value / readonly NAME=value / declare -r NAME=value at the top level
(program
  (declaration_command
    (variable_assignment
      name: (variable_name) @name)) @definition.variable)
