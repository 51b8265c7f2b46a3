; require_relative "x" / require "x" (the dialect tells them apart).
((call method: (identifier) @import.name arguments: (argument_list . (string (string_content) @import.module))) @import
  (#match? @import.name "^require(_relative)?$"))
