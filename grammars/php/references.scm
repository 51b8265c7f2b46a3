; Calls: f(), A\f(), $o->f(), $o?->f(), $this->a->f(), self::f(), static::f(), parent::f(), A::f().
(function_call_expression function: [(name) (qualified_name)] @name) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call

; new A(…)
((object_creation_expression [(name) (qualified_name)] @name) @reference.new
  (#not-match? @name "^(self|static|parent)$"))

; Supertypes and traits used by a class.
(base_clause [(name) (qualified_name)] @name) @reference.extends
(class_interface_clause [(name) (qualified_name)] @name) @reference.implements
(use_declaration [(name) (qualified_name)] @name) @reference.extends

; Declared types.
(simple_parameter type: [(named_type [(name) (qualified_name)] @name) (optional_type (named_type [(name) (qualified_name)] @name))]) @reference.typed
(property_promotion_parameter type: [(named_type [(name) (qualified_name)] @name) (optional_type (named_type [(name) (qualified_name)] @name))]) @reference.typed
(property_declaration type: [(named_type [(name) (qualified_name)] @name) (optional_type (named_type [(name) (qualified_name)] @name))]) @reference.typed
((method_declaration return_type: [(named_type [(name) (qualified_name)] @name) (optional_type (named_type [(name) (qualified_name)] @name))]) @reference.returns
  (#not-match? @name "^(self|static|parent)$"))
(function_definition return_type: [(named_type [(name) (qualified_name)] @name) (optional_type (named_type [(name) (qualified_name)] @name))]) @reference.returns

; Typed parameters and `$x = new A(…)`.
(simple_parameter type: [(named_type) (optional_type)] @binding.type name: (variable_name) @binding.name) @binding
(assignment_expression left: (variable_name) @binding.name right: (object_creation_expression [(name) (qualified_name)] @binding.type)) @binding
