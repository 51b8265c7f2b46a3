; `import M`, `@testable import M`, `import struct M.T`: the dialect reads the statement's text
; (every form imports module M).
(import_declaration) @import
