; Calls: f(…), o.f, Const.f, A::B.f, self.f (a bare `f` without arguments is ambiguous with a
; local variable and is not a call here).
((call receiver: (_) @receiver method: (identifier) @name) @reference.call
  (#not-eq? @name "new"))
((call !receiver method: (identifier) @name) @reference.call
  (#not-match? @name "^(new|require|require_relative|attr_reader|attr_writer|attr_accessor|include|extend|prepend|private|protected|public|raise|puts|p|lambda|proc)$"))

; Construction: Foo.new(…), A::Foo.new.
((call receiver: [(constant) (scope_resolution)] @name method: (identifier) @m) @reference.new
  (#eq? @m "new"))

; Superclass and mixins.
(superclass [(constant) (scope_resolution)] @name) @reference.extends
((call method: (identifier) @m arguments: (argument_list [(constant) (scope_resolution)] @name)) @reference.extends
  (#match? @m "^(include|extend|prepend)$"))

; `x = Foo.new(…)` types x.
((assignment left: (identifier) @binding.name
  right: (call receiver: [(constant) (scope_resolution)] @binding.type method: (identifier) @m)) @binding
  (#eq? @m "new"))
