; Java uses of names.

; `foo()`, `this.foo()`, `super.foo()`, `obj.foo()`, `a.b.foo()`, `this.repo.save()`.
(method_invocation name: (identifier) @call.name) @call

; `super(…)`, `this(…)` in a constructor.
(explicit_constructor_invocation) @ctor_call

; `new Foo()`, `new a.b.Foo<>()`, anonymous `new Foo() { … }`.
(object_creation_expression type: (_) @new.type) @new

; `Foo::bar`, `this::bar`, `Foo::new`.
(method_reference) @method_ref

; Every type name; its context (parameter, return, field, extends, …) is decided in Rust.
(type_identifier) @type.ref

; Annotations → decorators on the declaration and a References ref.
(marker_annotation name: (_) @annotation.name) @annotation
(annotation name: (_) @annotation.name) @annotation

; Binding evidence.
(formal_parameter) @param
(local_variable_declaration) @local
(enhanced_for_statement) @foreach
(resource type: (_)) @resource
(assignment_expression left: (identifier) right: (_)) @assign
