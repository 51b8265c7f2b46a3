; source lib.sh  /  . "$(dirname "$0")/lib.sh"
(command
  name: (command_name (word) @_source)
  .
  argument: (_) @import.module
  (#any-of? @_source "source" ".")) @import
