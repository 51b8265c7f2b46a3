; Uses of names shared by JavaScript, TypeScript and TSX.

(call_expression function: (_) @callee) @call
(new_expression constructor: (_) @callee) @new

; Decorators: `@dec`, `@ns.dec`, `@dec(...)`.
(decorator [(identifier) (member_expression)] @decorator)
(decorator (call_expression function: (_) @decorator))

; Functions passed by name: `app.get('/', handler)`, `list.map(this.render)`.
; Argument lists are walked in Rust (identifiers and `this.x` members).
(arguments) @args

; Classes listed in decorator metadata: `@Module({ providers: [UsersService] })` (NestJS,
; Angular). The key and the enclosing decorator are checked in Rust.
(decorator (call_expression arguments: (arguments (object (pair value: (array) @di_list)))))

; CommonJS and dynamic imports not bound by a declarator.
(call_expression
  function: (identifier) @_req
  arguments: (arguments . (string) @source)
  (#eq? @_req "require")) @require
(call_expression function: (import) arguments: (arguments . (string) @source)) @dynamic_import
