; package a.b
(package_clause name: (package_identifier) @package)
; import a.b.C / a.b._ / a.b.* / a.b.{C, D => E} / a.b.C as D: the dialect reads the text.
(import_declaration) @import
