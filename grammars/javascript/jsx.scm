; JSX component uses (JavaScript grammar and TSX): `<Foo />`, `<ui.Button>`; lower-case
; intrinsic elements are dropped by the extractor. `{handler}` in attributes/children.

(jsx_opening_element name: (_) @jsx)
(jsx_self_closing_element name: (_) @jsx)
(jsx_expression) @jsx_expr
