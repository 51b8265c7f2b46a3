; Every command is a call; `source`/`.` are imports.
(command
  name: (command_name (word) @name)
  (#not-any-of? @name "source" ".")) @reference.call

; `complete -F _comp_cmd_ssh ssh` and `trap cleanup EXIT` name functions the shell calls later.
(command
  name: (command_name (word) @_complete)
  argument: (word) @_flag
  .
  argument: (word) @name
  (#eq? @_complete "complete")
  (#eq? @_flag "-F")) @reference.type

(command
  name: (command_name (word) @_trap)
  .
  argument: (word) @name
  (#eq? @_trap "trap")) @reference.type
