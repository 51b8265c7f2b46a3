; `import a.b.C;`, `import a.b.*;`, `import static a.b.C.m;`, `import static a.b.C.*;`
; The `static` keyword and `*` are read from the node's children in Rust.
(import_declaration [(identifier) (scoped_identifier)] @import.path) @import.def
