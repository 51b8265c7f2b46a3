; Calls: f(), o.f(), a.b.f(), self.f(), super.f(); `T(…)` constructs (the resolver makes a call of a
; type an instantiation).
(call_expression . (simple_identifier) @name) @reference.call
(call_expression
  . (navigation_expression
      target: (_) @receiver
      suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

; Supertypes: the syntax does not tell a superclass from a protocol, so every one is written as a
; conformance; the resolver makes one that lands on a class an `extends`. A conformance an
; extension adds (`extension T: P`) names T as its receiver: the type that conforms.
((class_declaration
   declaration_kind: ["class" "struct" "enum" "actor"]
   (inheritance_specifier inherits_from: (user_type (type_identifier) @name .)) @reference.implements)
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|AnyObject)$"))
((protocol_declaration
   (inheritance_specifier inherits_from: (user_type (type_identifier) @name .)) @reference.implements)
  (#not-match? @name "^AnyObject$"))
(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @receiver .)
  (inheritance_specifier inherits_from: (user_type (type_identifier) @name .))) @reference.implements

; Declared types (the standard library's value types are not references).
((parameter (user_type (type_identifier) @name .)) @reference.typed
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|Void|Any|AnyObject|Self)$"))
((parameter (optional_type (user_type (type_identifier) @name .))) @reference.typed
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|Void|Any|AnyObject|Self)$"))
((type_annotation (user_type (type_identifier) @name .)) @reference.typed
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|Void|Any|AnyObject|Self)$"))
((type_annotation (optional_type (user_type (type_identifier) @name .))) @reference.typed
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|Void|Any|AnyObject|Self)$"))
((function_declaration [(user_type (type_identifier) @name .) (optional_type (user_type (type_identifier) @name .))]) @reference.returns
  (#not-match? @name "^(Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Bool|String|Character|Void|Any|AnyObject|Self)$"))
; Attributes written with a capital are types: property wrappers, result builders, global actors
; (the language's own attributes are lower-case; Interface Builder's and Objective-C's are not types).
((attribute (user_type (type_identifier) @name .)) @reference.type
  (#match? @name "^[A-Z]")
  (#not-match? @name "^(IB[A-Za-z]+|NS[A-Za-z]+|GKInspectable)$"))

; Typed locals (declared in a body's statements) and parameters; `let x = Foo(…)` (a capitalised callee constructs).
(parameter name: (simple_identifier) @binding.name [(user_type) (optional_type)] @binding.type) @binding
(statements
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @binding.name)
    (type_annotation [(user_type) (optional_type)] @binding.type)) @binding)
(statements
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @binding.name)
    value: (call_expression . (simple_identifier) @binding.type)
    (#match? @binding.type "^[A-Z]")) @binding)
