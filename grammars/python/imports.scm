; `import a.b.c`, `import a.b as ab`.
(import_statement) @import

; `from a.b import c, d as e`, `from . import x`, `from m import *`.
(import_from_statement) @import.from
