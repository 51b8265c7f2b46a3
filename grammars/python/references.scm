; Calls: `foo()`, `obj.foo()`, `a.b.foo()`, `self.x.foo()`, `make().run()`, `super().foo()`.
; Arguments (callbacks passed by name) are read from the call's `arguments` children in Rust:
; a `(call arguments: (argument_list (identifier)))` pattern keeps one open query state per
; nesting level and turns deeply nested calls quadratic.
(call
  function: [(identifier) (attribute)] @call.function) @call
