; using A.B;  using static A.B.C;  using X = A.B.C;  global using A;
(using_directive) @import
