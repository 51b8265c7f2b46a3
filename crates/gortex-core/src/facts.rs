//! Per-file facts: what a language extractor reports about one file, before resolution.
//!
//! Extractors know nothing of other files. They name things (`callee "save"`, `receiver "repo"`,
//! `import "./store"`) and the resolver in `gortex-graph` binds those names to nodes.

use crate::{EdgeKind, Language, NodeKind, Span, TestRole, TestRunner, TypeFlavor, UiFramework, Visibility};
use serde::{Deserialize, Serialize};

/// Everything one extractor run learned about one file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileFacts {
    /// The declared package/namespace: Go `package x`, Java `package a.b`. `None` elsewhere.
    pub package: Option<String>,
    /// Declarations, parents before children (a symbol's `parent` index is always smaller).
    pub symbols: Vec<SymbolFact>,
    /// Import statements, one entry per imported binding (and per re-export).
    pub imports: Vec<ImportFact>,
    /// Uses of names that the resolver must bind: calls, type references, inheritance, …
    pub refs: Vec<RefFact>,
    /// Local type evidence for receivers: `x: Foo`, `x = new Foo()`, `x := store.Open()`.
    pub bindings: Vec<BindingFact>,
    /// The test framework this file uses, when it is a test file.
    pub test_runner: Option<TestRunner>,
    /// Number of ERROR/MISSING nodes tree-sitter produced (0 for a clean parse).
    pub syntax_errors: u32,
}

impl FileFacts {
    /// Whether two versions of a file look the same to every *other* file's resolution: the same
    /// package, test runner, imports, declarations and bindings, ignoring where they sit (spans,
    /// lines), docs and the file's own references. An edit inside a body keeps the interface,
    /// so files that read this one need not be resolved again. Exhaustive destructuring below
    /// makes a new field a compile error here until someone decides which side it belongs to.
    pub fn same_interface(&self, other: &FileFacts) -> bool {
        self.symbols.len() == other.symbols.len() && self.appended_to_by(other)
    }

    /// Whether `newer` only adds declarations after this version's last one: the same interface
    /// (see [`FileFacts::same_interface`]) except for symbols past the end of these. Every symbol
    /// other files found here keeps its index and what they read of it.
    pub fn appended_to_by(&self, newer: &FileFacts) -> bool {
        let FileFacts {
            package,
            symbols,
            imports,
            refs: _,
            bindings,
            test_runner,
            syntax_errors: _,
        } = self;
        *package == newer.package
            && *test_runner == newer.test_runner
            && symbols.len() <= newer.symbols.len()
            && symbols.iter().zip(&newer.symbols).all(|(a, b)| a.same_interface(b))
            && imports.len() == newer.imports.len()
            && imports.iter().zip(&newer.imports).all(|(a, b)| a.same_interface(b))
            && bindings.len() == newer.bindings.len()
            && bindings.iter().zip(&newer.bindings).all(|(a, b)| a.same_interface(b))
    }
}

/// A doc comment as extractors read it: the summary nodes show and, when the comment says
/// more, its prose for search.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DocComment {
    /// The first sentence (≤ 160 chars).
    pub summary: String,
    /// The whole prose (≤ 1,000 chars) when longer than the summary.
    pub text: Option<String>,
}

/// One declaration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SymbolFact {
    /// The declared name (no owner prefix).
    pub name: String,
    pub kind: NodeKind,
    /// For `type` nodes: class, struct, enum, record, type_alias, …
    pub flavor: Option<TypeFlavor>,
    /// Index into `FileFacts::symbols` of the enclosing declaration (class of a method,
    /// function of a nested function). Always smaller than this symbol's own index.
    pub parent: Option<u32>,
    /// The whole declaration, including its body.
    pub span: Span,
    /// The declaration head without the body, whitespace-collapsed: `function f(a: A): B`.
    pub signature: Option<String>,
    pub visibility: Option<Visibility>,
    /// Visible outside its module (TS/JS `export`, Go capitalised, Rust `pub`, Java `public`).
    pub exported: bool,
    /// ES `export default`: importers can bind it under any name.
    pub default_export: bool,
    /// First sentence of the doc comment or docstring (≤ 160 chars).
    pub doc: Option<String>,
    /// The doc comment's prose when it says more than [`SymbolFact::doc`]: markers, code examples
    /// and markup dropped, ≤ 1,000 chars. Searched by natural-language queries, never shown.
    pub doc_text: Option<String>,
    /// Declared type of a field, variable or constant (simple name, generics stripped).
    pub type_name: Option<String>,
    /// Declared return type of a function or method (simple name, generics stripped).
    pub return_type: Option<String>,
    pub is_async: bool,
    pub is_static: bool,
    pub is_abstract: bool,
    /// Decorator/annotation names applied to the declaration (`Component`, `staticmethod`).
    pub decorators: Vec<String>,
    /// Marked as a test (runner-specific conventions).
    pub test_role: Option<TestRole>,
    /// A UI component of this framework (a function, class or constant that renders).
    pub ui: Option<UiFramework>,
}

impl SymbolFact {
    /// Equal in everything other files can see: all but the span and the doc.
    pub fn same_interface(&self, other: &SymbolFact) -> bool {
        let SymbolFact {
            name,
            kind,
            flavor,
            parent,
            span: _,
            signature,
            visibility,
            exported,
            default_export,
            doc: _,
            doc_text: _,
            type_name,
            return_type,
            is_async,
            is_static,
            is_abstract,
            decorators,
            test_role,
            ui,
        } = self;
        *name == other.name
            && *kind == other.kind
            && *flavor == other.flavor
            && *parent == other.parent
            && *signature == other.signature
            && *visibility == other.visibility
            && *exported == other.exported
            && *default_export == other.default_export
            && *type_name == other.type_name
            && *return_type == other.return_type
            && *is_async == other.is_async
            && *is_static == other.is_static
            && *is_abstract == other.is_abstract
            && *decorators == other.decorators
            && *test_role == other.test_role
            && *ui == other.ui
    }

    /// Sets [`SymbolFact::doc`] and [`SymbolFact::doc_text`] from one extracted doc comment.
    pub fn set_doc(&mut self, doc: Option<DocComment>) {
        (self.doc, self.doc_text) = match doc {
            Some(d) => (Some(d.summary), d.text),
            None => (None, None),
        };
    }

    /// A bare symbol; extractors fill in the rest.
    pub fn new(name: impl Into<String>, kind: NodeKind, span: Span) -> Self {
        SymbolFact {
            name: name.into(),
            kind,
            flavor: None,
            parent: None,
            span,
            signature: None,
            visibility: None,
            exported: false,
            default_export: false,
            doc: None,
            doc_text: None,
            type_name: None,
            return_type: None,
            is_async: false,
            is_static: false,
            is_abstract: false,
            decorators: Vec::new(),
            test_role: None,
            ui: None,
        }
    }
}

/// How an import statement binds names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportKind {
    /// The whole module under a local name: Python `import a.b`, Go `import "x/y"`,
    /// CommonJS `const m = require('m')`, Rust `use a::b` of a module.
    Module,
    /// One named member: `import { a } from`, `from m import a`, Java `import a.b.C`, Rust `use m::C`.
    Named,
    /// ES default import: `import A from 'm'`.
    Default,
    /// ES namespace import: `import * as ns from 'm'`.
    Namespace,
    /// Everything public: Java `import a.b.*`, Python `from m import *`, Rust `use m::*`,
    /// ES `export * from 'm'` (with `reexport`).
    Wildcard,
    /// Imported for effects only: `import './polyfill'`, Go `import _ "x"`.
    SideEffect,
    /// A package manifest's dependency (package.json `dependencies`, Cargo.toml `[dependencies]`,
    /// go.mod `require`, pyproject/requirements): `module` is the package name; binds nothing.
    Dependency,
}

/// One imported binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportFact {
    /// The module specifier exactly as written: `./store`, `os.path`, `.models`,
    /// `github.com/a/b`, `crate::store`, `java.util`.
    pub module: String,
    pub kind: ImportKind,
    /// The member imported from the module (`Named`): `a` in `import { a as b }`.
    pub name: Option<String>,
    /// The identifier this import binds in the file: `b` in `import { a as b }`, `np` in
    /// `import numpy as np`. `None` when nothing is bound (side effects, wildcards) or when the
    /// binding is only known after resolution (Go imports without an alias).
    pub local: Option<String>,
    /// An `export … from` (ES) or `pub use` (Rust): importers of this file see the binding.
    pub reexport: bool,
    /// Type-only import (`import type`), never a runtime dependency.
    pub type_only: bool,
    pub line: u32,
}

/// What a member access was made on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Receiver {
    /// A bare name: `foo()`, `new Foo()`, `extends Foo`.
    None,
    /// `this.foo()`, `self.foo()`, Go/Rust method receiver variable.
    SelfRef,
    /// `super.foo()`, `super().foo()`.
    Super,
    /// `x.foo()` where `x` is an identifier: an import alias, local, parameter or type name.
    Name(String),
    /// `a.b.foo()` / `a::b::foo()`: a chain of identifiers, outermost first (`this.a.b.foo()`
    /// and `self.a.b.foo()` are headed by `this`/`self`).
    Path(Vec<String>),
    /// `this.x.foo()` / `self.x.foo()`: the named field of the enclosing type.
    SelfField(String),
    /// `make().foo()`: the result of calling the named function.
    Call(String),
    /// `a.make().foo()`, `a.b().c().foo()`: the result of calling method `.1` on receiver `.0`
    /// (chains nest; extractors cap their depth).
    Chain(Box<Receiver>, String),
    /// Anything else (indexing, literals, complex expressions): unknown.
    Expr,
}

/// A use of a name that the resolver binds to a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefFact {
    /// `Calls`, `Instantiates`, `References`, `Extends`, `Implements`, `TypedAs`, `Returns`.
    pub kind: EdgeKind,
    /// Index of the innermost enclosing symbol; `None` for file-level code.
    pub from: Option<u32>,
    /// The referenced simple name (the callee's last segment).
    pub name: String,
    pub receiver: Receiver,
    pub line: u32,
    pub col: u32,
    /// Set on a framework-dispatch reference: the edge it resolves to is synthesized by this pass.
    #[serde(default)]
    pub via: Option<crate::Synthesizer>,
}

/// What is known about a local name's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BindingValue {
    /// Declared (`x: Foo`, `Foo x`, `var x Foo`) or constructed (`new Foo()`, `Foo()`,
    /// `Foo::new()`, `&Foo{}`) — strong evidence.
    Type { name: String },
    /// Assigned from a call whose declared return type the resolver can look up
    /// (`s := store.Open()`) — inferred evidence.
    Call { receiver: Receiver, name: String },
    /// A callback's parameter, typed by the callee it is passed to: parameter `param` of the
    /// function given as argument `arg` of calling `callee` on `receiver` (`operate((source,
    /// subscriber) => …)`). The callee records what its callback receives as bindings named
    /// `@arg.param` in its own scope.
    Callback {
        receiver: Receiver,
        callee: String,
        arg: u32,
        param: u32,
    },
}

/// Type evidence for a local variable, parameter or module-level name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BindingFact {
    /// Index of the function/method whose scope holds the binding; `None` = module scope.
    pub scope: Option<u32>,
    pub name: String,
    pub value: BindingValue,
    pub line: u32,
}

impl ImportFact {
    /// Everything of `module` becomes visible (`using A.B;`, `#include "x.h"`, `import a.b.*`).
    pub fn wildcard(module: impl Into<String>, line: u32) -> Self {
        ImportFact {
            module: module.into(),
            kind: ImportKind::Wildcard,
            name: None,
            local: None,
            reexport: false,
            type_only: false,
            line,
        }
    }

    /// The member `name` of `module`, bound as `local` (`using X = A.B.C;` → module `A.B`, name `C`,
    /// local `X`).
    pub fn named(module: impl Into<String>, name: impl Into<String>, local: impl Into<String>, line: u32) -> Self {
        ImportFact {
            module: module.into(),
            kind: ImportKind::Named,
            name: Some(name.into()),
            local: Some(local.into()),
            reexport: false,
            type_only: false,
            line,
        }
    }

    /// The whole module under a local name, when it has one.
    pub fn module(module: impl Into<String>, local: Option<String>, line: u32) -> Self {
        ImportFact {
            module: module.into(),
            kind: ImportKind::Module,
            name: None,
            local,
            reexport: false,
            type_only: false,
            line,
        }
    }

    /// Equal but for the line.
    pub fn same_interface(&self, other: &ImportFact) -> bool {
        let ImportFact {
            module,
            kind,
            name,
            local,
            reexport,
            type_only,
            line: _,
        } = self;
        *module == other.module
            && *kind == other.kind
            && *name == other.name
            && *local == other.local
            && *reexport == other.reexport
            && *type_only == other.type_only
    }
}

impl BindingFact {
    /// Equal but for the line.
    pub fn same_interface(&self, other: &BindingFact) -> bool {
        let BindingFact {
            scope,
            name,
            value,
            line: _,
        } = self;
        *scope == other.scope && *name == other.name && *value == other.value
    }
}

/// The language and facts of one file, as stored per file in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParsedFile {
    pub language: Language,
    pub facts: FileFacts,
}
