; Go imports: `import "fmt"`, grouped imports, `f "fmt"`, `. "fmt"`, `_ "embed"`.
(import_spec
  name: (_)? @import.alias
  path: (_) @import.path) @import.spec
