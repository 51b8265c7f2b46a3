; Kotlin declarations. Capture names follow the tagged engine (crates/gortex-lang/src/languages/tagged.rs).
; `package a.b` is the file's package (as in Java). The dialect turns `class` into an interface,
; enum or data class from its keywords, and drops locals.

(package_header (qualified_identifier) @package)

(class_declaration name: (identifier) @name [(class_body) (enum_class_body)]? @body) @definition.class
(object_declaration name: (identifier) @name (class_body)? @body) @definition.object
(enum_entry (identifier) @name) @definition.enum_member
(type_alias type: (identifier) @name) @definition.type

; Functions (members become methods; `fun T.f()` is an extension: a method of T).
(function_declaration name: (identifier) @name (function_body)? @body) @definition.function

; Properties, and constructor parameters declared `val`/`var`.
(property_declaration
  (variable_declaration (identifier) @name [(user_type) (nullable_type)]? @type)) @definition.property
(class_parameter ["val" "var"] (identifier) @name [(user_type) (nullable_type)] @type) @definition.property
