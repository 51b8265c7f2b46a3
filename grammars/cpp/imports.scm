; #include "local.h" and #include <system.h>: the path text is kept with its delimiters.
(preproc_include path: [(string_literal) (system_lib_string)] @import.module) @import
