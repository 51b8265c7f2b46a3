; use A\B\C;  use A\B\{C, D as E};  use function A\f;  use const A\X;  (the dialect reads the text)
(namespace_use_declaration) @import
