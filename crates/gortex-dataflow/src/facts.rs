//! The language-neutral dataflow facts one function yields. Extractors (one per language family in
//! `extract/`) fill them from a syntax tree; the layer (`layer.rs`) turns them into `value_flow`,
//! `arg_of` and `returns_to` edges and links call sites to callees through the code graph.
//!
//! Conventions every extractor follows:
//! - **Values.** A [`Value`] is what an expression reads: a variable or parameter (`Var("x")`), an
//!   access path (`Var("req.query.id")`: member/attribute/selector chains written with dots, the
//!   receiver `this`/`self` kept as its own name), or the result of a call in the same function
//!   (`Call(i)`, an index into [`FnFlow::calls`]). Literals read nothing. An index expression
//!   `a[k]` reads `a` and whatever `k` reads. Operators, casts, awaits, spreads, parentheses,
//!   template strings and conditional expressions read the union of their operands.
//! - **Assignments.** Every binding is an [`Assign`]: declarations with an initializer,
//!   assignments (targets may be access paths: `this.total = x` → target `this.total`),
//!   augmented assignments (`a += b` reads `a` and `b`), destructuring (`const {a, b} = o`,
//!   `a, b = f()`: one assign per bound name, each reading the whole right side), loop variables
//!   (`for x of xs`, `for x in xs`, `for _, v := range xs` → `x` reads `xs`), `with … as x`, catch
//!   parameters are not flows.
//! - **Calls.** Every call expression is a [`Call`] in source order of its opening parenthesis
//!   (nested calls first appear as `Value::Call` inside the outer call's args). `callee` is the last
//!   name segment (`db.query(...)` → `query`; `new Foo(x)` → `Foo`); `receiver` holds what the
//!   receiver expression reads (`db` → `[Var("db")]`, `req.query.get(...)` → `[Var("req.query")]`).
//!   Keyword arguments count in their written order. `super(...)`/`this(...)` calls are calls to
//!   `super`/`this`.
//! - **Returns.** Every `return e` (and an arrow function's expression body) is a [`Return`].
//! - **Scope.** Nested functions, lambdas and closures are flattened into their enclosing
//!   function: their bodies' facts belong to it and their parameters are ordinary locals; a nested
//!   named function declaration is also reported as its own [`FnFlow`] (the graph has a node for
//!   it), so its facts appear twice by design. Top-level code outside any function is not reported.
//! - **Positions.** Lines are 1-based. `line`/`end_line` of a function are those of the node the
//!   graph's extractor (`gortex-lang`) spans for it — e.g. a TypeScript class member starts at its
//!   first decorator, a Python `def` excludes its decorators, a Java method includes its
//!   annotations — so the layer can match the graph node with the same name and start line. Each
//!   extractor has a test that compares its (name, line) set with the graph extractor's.

use serde::Serialize;

/// What an expression reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum Value {
    /// A variable, parameter or access path (`a`, `a.b.c`).
    Var(String),
    /// The result of the call at this index of [`FnFlow::calls`].
    Call(u32),
}

/// `target = sources…` at `line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assign {
    pub target: String,
    pub sources: Vec<Value>,
    pub line: u32,
}

/// One call site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Call {
    /// The last name segment of the callee expression.
    pub callee: String,
    /// What the receiver expression reads (empty for plain function calls).
    pub receiver: Vec<Value>,
    /// What each argument reads, in positional order.
    pub args: Vec<Vec<Value>>,
    pub line: u32,
}

/// `return sources…` at `line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Return {
    pub sources: Vec<Value>,
    pub line: u32,
}

/// The dataflow facts of one function or method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FnFlow {
    /// The bare name, as the graph names it (`save`, not `Store.save`; `constructor`/`__init__` as written).
    pub name: String,
    pub line: u32,
    pub end_line: u32,
    /// Parameter names in positional order; receivers (`self`, `this`, a Go method receiver) are
    /// not parameters. Destructured parameters contribute each bound name at the same position
    /// (joined with `,` into one entry); rest/variadic parameters keep their name.
    pub params: Vec<String>,
    pub assigns: Vec<Assign>,
    pub calls: Vec<Call>,
    pub returns: Vec<Return>,
}
