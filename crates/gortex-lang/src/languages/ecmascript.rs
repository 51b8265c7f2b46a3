//! TypeScript, TSX and JavaScript (ESM and CommonJS) extractor.
//!
//! Queries live under `grammars/javascript/` (shared by all three grammars, plus `jsx.scm` for
//! JavaScript and TSX) and `grammars/typescript/` (appended for TypeScript and TSX). Two query
//! passes run per file: definitions (symbols, imports, exports, test calls, comments) and
//! references (calls, instantiations, type uses, JSX). Containers captured by the queries
//! (class bodies, declarator lists, import clauses) are walked over their direct children here.
//!
//! Conventions (documented because other parts of the system rely on them):
//! - `const f = () => {}` / `function` expressions bound to a variable are `Function` symbols
//!   named after the variable; arrow-function class fields are `Method`s.
//! - Overloads keep one symbol: the implementation (or the first signature when there is none),
//!   with the first documented signature's doc.
//! - `#private` members are named without the `#` and have `Private` visibility.
//! - `super(…)` is a `Calls` ref named `constructor` with receiver `Super`.
//! - JSX `<Foo />` is a `References` ref to `Foo` (component use, not a call).
//! - Test files: `describe`/`it`/`test` (and `.only`/`.skip`/… variants) with a string title become
//!   `Function` symbols named by the sanitised title, all with test role `Test` (describe blocks
//!   included, so suites are never reported dead); hooks (`beforeEach`, …) become `Function`
//!   symbols named after the hook with role `Fixture`.
//! - Type parameters are collected per file and never reported as type references.
//! - `return_type` unwraps `Promise<T>` to `T`, so `await x.load()` bindings resolve.

mod types;

use crate::names::{js_member_name as member_name, js_string_value as string_value};
use crate::util::{self, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, EdgeKind, FileFacts, ImportFact, ImportKind, Language, NodeKind, Receiver, RefFact,
    Span, SymbolFact, TestRole, TestRunner, TypeFlavor, Visibility,
};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor, Tree};
use types::*;

// ---------------------------------------------------------------------------------------------
// Grammars and queries
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    #[cfg(feature = "typescript")]
    TypeScript,
    #[cfg(feature = "typescript")]
    Tsx,
    #[cfg(feature = "javascript")]
    JavaScript,
}

impl Dialect {
    fn language(self) -> Language {
        match self {
            #[cfg(feature = "typescript")]
            Dialect::TypeScript => Language::TypeScript,
            #[cfg(feature = "typescript")]
            Dialect::Tsx => Language::Tsx,
            #[cfg(feature = "javascript")]
            Dialect::JavaScript => Language::JavaScript,
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            #[cfg(feature = "typescript")]
            Dialect::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            #[cfg(feature = "typescript")]
            Dialect::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            #[cfg(feature = "javascript")]
            Dialect::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    #[cfg_attr(not(feature = "typescript"), allow(dead_code))]
    fn is_typescript(self) -> bool {
        match self {
            #[cfg(feature = "typescript")]
            Dialect::TypeScript | Dialect::Tsx => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    fn has_jsx(self) -> bool {
        match self {
            #[cfg(feature = "typescript")]
            Dialect::TypeScript => false,
            #[allow(unreachable_patterns)]
            _ => true,
        }
    }
}

const JS_DEFS: &str = super::grammar_query!("javascript/definitions.scm");
const JS_REFS: &str = super::grammar_query!("javascript/references.scm");
const JSX_REFS: &str = super::grammar_query!("javascript/jsx.scm");
#[cfg(feature = "typescript")]
const TS_DEFS: &str = super::grammar_query!("typescript/definitions.scm");
#[cfg(feature = "typescript")]
const TS_REFS: &str = super::grammar_query!("typescript/references.scm");

/// Capture roles, looked up once per query so the match loops compare integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cap {
    Name,
    Callee,
    Source,
    Function,
    FunctionSig,
    Class,
    Object,
    Params,
    Destructure,
    Args,
    JsxExpr,
    Interface,
    TypeAlias,
    Enum,
    Namespace,
    VarDecl,
    TopLevel,
    Export,
    Import,
    Cjs,
    TestCall,
    DecoratorCall,
    Local,
    TypeParam,
    Comment,
    Call,
    New,
    Decorator,
    Require,
    DynamicImport,
    Jsx,
    Fn,
    MemberBody,
    FieldDef,
    Declarator,
    ExtendsClause,
    Arrow,
    TypeRef,
    TypeCast,
    Implements,
    Extends,
    Ignore,
}

fn cap_of(name: &str) -> Cap {
    match name {
        "name" => Cap::Name,
        "callee" => Cap::Callee,
        "source" => Cap::Source,
        "function" => Cap::Function,
        "function_sig" => Cap::FunctionSig,
        "class" => Cap::Class,
        "object" => Cap::Object,
        "params" => Cap::Params,
        "destructure" => Cap::Destructure,
        "args" => Cap::Args,
        "jsx_expr" => Cap::JsxExpr,
        "interface" => Cap::Interface,
        "type_alias" => Cap::TypeAlias,
        "enum" => Cap::Enum,
        "namespace" => Cap::Namespace,
        "vardecl" => Cap::VarDecl,
        "toplevel" => Cap::TopLevel,
        "export" => Cap::Export,
        "import" => Cap::Import,
        "cjs" => Cap::Cjs,
        "test_call" => Cap::TestCall,
        "decorator_call" => Cap::DecoratorCall,
        "local" => Cap::Local,
        "type_param" => Cap::TypeParam,
        "comment" => Cap::Comment,
        "call" => Cap::Call,
        "new" => Cap::New,
        "decorator" => Cap::Decorator,
        "require" => Cap::Require,
        "dynamic_import" => Cap::DynamicImport,
        "jsx" => Cap::Jsx,
        "fn" => Cap::Fn,
        "member_body" => Cap::MemberBody,
        "field_def" => Cap::FieldDef,
        "declarator" => Cap::Declarator,
        "extends_clause" => Cap::ExtendsClause,
        "arrow" => Cap::Arrow,
        "type.ref" => Cap::TypeRef,
        "type.cast" => Cap::TypeCast,
        "implements" => Cap::Implements,
        "extends" => Cap::Extends,
        _ => Cap::Ignore,
    }
}

struct Queries {
    defs: QuerySet,
    defs_caps: Vec<Cap>,
    refs: QuerySet,
    refs_caps: Vec<Cap>,
}

fn caps_for(qs: &QuerySet) -> Vec<Cap> {
    qs.query.capture_names().iter().map(|n| cap_of(n)).collect()
}

fn build_queries(dialect: Dialect) -> Queries {
    let grammar = dialect.grammar();
    // `mut` is unused when only the javascript feature is enabled.
    #[allow(unused_mut)]
    let mut defs = String::from(JS_DEFS);
    let mut refs = String::from(JS_REFS);
    #[cfg(feature = "typescript")]
    if dialect.is_typescript() {
        defs.push('\n');
        defs.push_str(TS_DEFS);
        refs.push('\n');
        refs.push_str(TS_REFS);
    }
    if dialect.has_jsx() {
        refs.push('\n');
        refs.push_str(JSX_REFS);
    }
    let defs = QuerySet::new(&grammar, &defs, "ecmascript definitions");
    let refs = QuerySet::new(&grammar, &refs, "ecmascript references");
    Queries {
        defs_caps: caps_for(&defs),
        refs_caps: caps_for(&refs),
        defs,
        refs,
    }
}

fn queries(dialect: Dialect) -> &'static Queries {
    #[cfg(feature = "typescript")]
    static TS: OnceLock<Queries> = OnceLock::new();
    #[cfg(feature = "typescript")]
    static TSX: OnceLock<Queries> = OnceLock::new();
    #[cfg(feature = "javascript")]
    static JS: OnceLock<Queries> = OnceLock::new();
    match dialect {
        #[cfg(feature = "typescript")]
        Dialect::TypeScript => TS.get_or_init(|| build_queries(dialect)),
        #[cfg(feature = "typescript")]
        Dialect::Tsx => TSX.get_or_init(|| build_queries(dialect)),
        #[cfg(feature = "javascript")]
        Dialect::JavaScript => JS.get_or_init(|| build_queries(dialect)),
    }
}

struct EcmaExtractor(Dialect);

impl Extractor for EcmaExtractor {
    fn language(&self) -> Language {
        self.0.language()
    }
    fn grammar(&self) -> tree_sitter::Language {
        self.0.grammar()
    }
    fn compile_queries(&self) {
        queries(self.0);
    }
    fn extract(&self, tree: &Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        #[allow(unused_mut)] // a JavaScript-only build has no Vue support
        let mut facts = Run::new(self.0, source, ctx).extract(tree);
        // A Vue mixin module (`export default { methods: { … } }`) is a type components extend.
        #[cfg(feature = "typescript")]
        super::component::adopt_options_module(&mut facts, tree, source, ctx.path);
        facts
    }
}

#[cfg(feature = "typescript")]
pub(crate) fn typescript() -> &'static dyn Extractor {
    static E: EcmaExtractor = EcmaExtractor(Dialect::TypeScript);
    &E
}
#[cfg(feature = "typescript")]
pub(crate) fn tsx() -> &'static dyn Extractor {
    static E: EcmaExtractor = EcmaExtractor(Dialect::Tsx);
    &E
}
#[cfg(feature = "javascript")]
pub(crate) fn javascript() -> &'static dyn Extractor {
    static E: EcmaExtractor = EcmaExtractor(Dialect::JavaScript);
    &E
}

// ---------------------------------------------------------------------------------------------
// Small node helpers (downward navigation only: `Node::parent` is O(depth) in tree-sitter)
// ---------------------------------------------------------------------------------------------

fn txt(node: Node<'_>, src: &[u8]) -> String {
    util::text(node, src).into_owned()
}

/// Does `node` have an anonymous child token with this text (`static`, `async`, `default`, …)?
fn has_token(node: Node<'_>, token: &str) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| !c.is_named() && c.kind() == token);
    found
}

fn first_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node.named_children(&mut cursor).find(|c| c.kind() == kind);
    found
}

/// Whether a node kind is a function value (`function () {}`, `() => …`, generators).
pub(crate) fn is_function_value(kind: &str) -> bool {
    matches!(
        kind,
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

const TEST_FNS: &[&str] = &[
    "describe",
    "it",
    "test",
    "suite",
    "context",
    "specify",
    "fdescribe",
    "xdescribe",
    "fit",
    "xit",
];
const TEST_MODIFIERS: &[&str] = &[
    "only",
    "skip",
    "todo",
    "concurrent",
    "sequential",
    "fails",
    "failing",
    "skipIf",
    "runIf",
];
const HOOK_FNS: &[&str] = &["beforeEach", "afterEach", "beforeAll", "afterAll", "before", "after"];

/// Sanitises a test title into a symbol name: readable, no separators that ids use, ≤ 80 chars.
fn sanitize_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len().min(96));
    let mut last_us = true;
    for ch in title.chars() {
        let keep = ch.is_alphanumeric() || ch == '-' || ch == '$' || ch == '\'' || ch == '#';
        if keep {
            out.push(ch);
            last_us = false;
        } else if !last_us {
            out.push('_');
            last_us = true;
        }
        if out.chars().count() >= 80 {
            break;
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        "test".to_string()
    } else {
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Extraction state
// ---------------------------------------------------------------------------------------------

/// A symbol under construction plus what post-processing needs to know about it.
struct Pending {
    fact: SymbolFact,
    /// Byte offset and row where a doc comment must end right before.
    anchor: (usize, usize),
    /// An overload signature (no body).
    is_sig: bool,
    /// A constructor parameter property: belongs to the class, not the constructor.
    param_prop: bool,
    /// An object-literal method (becomes a Function when not nested in anything).
    object_method: bool,
}

/// Nested symbols, the containment parent of each (for enclosing lookups), and the spans of
/// dropped overload signatures with the symbol that absorbed them.
type Finished = (Vec<SymbolFact>, Vec<Option<u32>>, Vec<(Span, u32)>);

/// A reference whose `from` is found after nesting, by position.
struct PendingRef {
    kind: EdgeKind,
    name: String,
    receiver: Receiver,
    line: u32,
    col: u32,
}

struct PendingBinding {
    name: String,
    value: BindingValue,
    line: u32,
    col: u32,
}

struct Comment {
    start_byte: usize,
    end_byte: usize,
    start_row: usize,
    end_row: usize,
}

struct Run<'s> {
    dialect: Dialect,
    src: &'s [u8],
    ctx: FileContext<'s>,
    syms: Vec<Pending>,
    /// Declaration node id → index in `syms` (pre-nesting order).
    by_node: HashMap<usize, usize>,
    imports: Vec<ImportFact>,
    refs: Vec<PendingRef>,
    bindings: Vec<PendingBinding>,
    comments: Vec<Comment>,
    /// Names exported by `export { a }`, `export default a`, CommonJS: (name, default).
    export_names: Vec<(String, bool)>,
    /// Call nodes that are not plain calls (tests, hooks, decorators, bound requires).
    skip_calls: HashSet<usize>,
    locals: HashSet<String>,
    type_params: HashSet<String>,
    uses_test_calls: bool,
}

impl<'s> Run<'s> {
    fn new(dialect: Dialect, src: &'s [u8], ctx: &FileContext<'s>) -> Self {
        Run {
            dialect,
            src,
            ctx: *ctx,
            syms: Vec::new(),
            by_node: HashMap::new(),
            imports: Vec::new(),
            refs: Vec::new(),
            bindings: Vec::new(),
            comments: Vec::new(),
            export_names: Vec::new(),
            skip_calls: HashSet::new(),
            locals: HashSet::new(),
            type_params: HashSet::new(),
            uses_test_calls: false,
        }
    }

    fn push_sym(&mut self, node: Node<'_>, fact: SymbolFact) -> usize {
        let idx = self.syms.len();
        self.syms.push(Pending {
            fact,
            anchor: (node.start_byte(), node.start_position().row),
            is_sig: false,
            param_prop: false,
            object_method: false,
        });
        self.by_node.insert(node.id(), idx);
        idx
    }

    fn push_ref(&mut self, kind: EdgeKind, name: String, receiver: Receiver, at: Node<'_>) {
        if name.is_empty() {
            return;
        }
        let p = at.start_position();
        self.refs.push(PendingRef {
            kind,
            name,
            receiver,
            line: p.row as u32 + 1,
            col: p.column as u32,
        });
    }

    fn push_binding(&mut self, name: String, value: BindingValue, at: Node<'_>) {
        let p = at.start_position();
        self.bindings.push(PendingBinding {
            name,
            value,
            line: p.row as u32 + 1,
            col: p.column as u32,
        });
    }

    fn extract(mut self, tree: &Tree) -> FileFacts {
        let root = tree.root_node();
        let q = queries(self.dialect);

        // ---- Pass 1: definitions. Collect captures, then process in a fixed order.
        let mut functions = Vec::new();
        let mut classes = Vec::new();
        let mut others = Vec::new(); // (cap, node, name)
        let mut vardecls = Vec::new();
        let mut toplevel: HashSet<usize> = HashSet::new();
        let mut exports = Vec::new();
        let mut cjs = Vec::new();
        let mut tests = Vec::new();
        {
            let mut cursor = QueryCursor::new();
            let mut matches = crate::budget::matches(&mut cursor, &q.defs.query, root, self.src);
            while let Some(m) = matches.next() {
                let mut name = None;
                let mut callee = None;
                let mut primary: Option<(Cap, Node<'_>)> = None;
                for c in m.captures {
                    match q.defs_caps[c.index as usize] {
                        Cap::Name => name = Some(c.node),
                        Cap::Callee => callee = Some(c.node),
                        Cap::Ignore => {}
                        k => primary = Some((k, c.node)),
                    }
                }
                let Some((cap, node)) = primary else { continue };
                match cap {
                    Cap::Function | Cap::FunctionSig => functions.push((cap, node, name)),
                    Cap::Class => classes.push((node, name)),
                    Cap::Object => {
                        let mut oc = node.walk();
                        for child in node.named_children(&mut oc) {
                            if child.kind() == "method_definition" {
                                let name = child.child_by_field_name("name");
                                others.push((Cap::Object, child, name));
                            }
                        }
                    }
                    Cap::Params | Cap::Destructure => self.collect_locals(node),
                    Cap::Arrow => {
                        if let Some(p) = node.child_by_field_name("parameter") {
                            self.locals.insert(txt(p, self.src));
                        }
                    }
                    Cap::Interface | Cap::TypeAlias | Cap::Enum | Cap::Namespace => others.push((cap, node, name)),
                    Cap::VarDecl => vardecls.push(node),
                    Cap::TopLevel => {
                        toplevel.insert(node.id());
                    }
                    Cap::Export => exports.push(node),
                    Cap::Import => self.import_statement(node),
                    Cap::Cjs => cjs.push(node),
                    Cap::TestCall if self.ctx.is_test_file => tests.push((node, callee)),
                    Cap::DecoratorCall => {
                        self.skip_calls.insert(node.id());
                    }
                    Cap::Local => {
                        self.locals.insert(txt(node, self.src));
                    }
                    Cap::TypeParam => {
                        self.type_params.insert(txt(node, self.src));
                    }
                    Cap::Comment => self.comments.push(Comment {
                        start_byte: node.start_byte(),
                        end_byte: node.end_byte(),
                        start_row: node.start_position().row,
                        end_row: node.end_position().row,
                    }),
                    _ => {}
                }
            }
        }
        for (cap, node, name) in functions {
            self.function_decl(node, name, cap == Cap::FunctionSig);
        }
        for (node, name) in classes {
            let name = name
                .and_then(|n| member_name(n, self.src))
                .unwrap_or_else(|| "default".to_string());
            self.class(node, name);
        }
        for (cap, node, name) in others {
            self.other_decl(cap, node, name);
        }
        for node in vardecls {
            let top = toplevel.contains(&node.id());
            self.var_statement(node, top);
        }
        for (node, callee) in tests {
            self.test_call(node, callee);
        }
        for node in exports {
            self.export_statement(node);
        }
        for node in cjs {
            self.commonjs_export(node);
        }
        self.attach_docs();

        // ---- Nesting and symbol post-processing.
        let mut facts = FileFacts::default();
        let (symbols, lookup_parents, redirects) = self.finish_symbols();
        facts.symbols = symbols;

        // ---- Pass 2: references.
        {
            let mut cursor = QueryCursor::new();
            let mut matches = crate::budget::matches(&mut cursor, &q.refs.query, root, self.src);
            while let Some(m) = matches.next() {
                let mut callee = None;
                let mut source = None;
                let mut primary: Option<(Cap, Node<'_>)> = None;
                for c in m.captures {
                    match q.refs_caps[c.index as usize] {
                        Cap::Callee => callee = Some(c.node),
                        Cap::Source => source = Some(c.node),
                        Cap::Ignore => {}
                        k => primary = Some((k, c.node)),
                    }
                }
                let Some((cap, node)) = primary else { continue };
                self.reference(cap, node, callee, source);
            }
        }

        // ---- Attribute refs and bindings to their enclosing symbols.
        let owners = Enclosing::new(&facts.symbols, &lookup_parents, |k| {
            util::EnclosingIndex::code_owners(k) || k == NodeKind::Field
        });
        let scopes = Enclosing::new(&facts.symbols, &lookup_parents, |k| {
            matches!(k, NodeKind::Function | NodeKind::Method)
        });
        let mut seen = HashSet::new();
        for r in std::mem::take(&mut self.refs) {
            if !seen.insert((r.kind, r.line, r.col, r.name.clone())) {
                continue;
            }
            let redirected = redirects
                .iter()
                .find(|(sp, _)| sp.contains_point(r.line, r.col))
                .map(|(_, k)| *k);
            let from = redirected.or_else(|| owners.find(r.line, r.col));
            facts.refs.push(RefFact {
                kind: r.kind,
                from,
                name: r.name,
                receiver: r.receiver,
                line: r.line,
                col: r.col,
            });
        }
        for b in std::mem::take(&mut self.bindings) {
            let redirected = redirects
                .iter()
                .find(|(sp, _)| sp.contains_point(b.line, b.col))
                .map(|(_, k)| *k);
            let scope = redirected.or_else(|| scopes.find(b.line, b.col));
            facts.bindings.push(BindingFact {
                scope,
                name: b.name,
                value: b.value,
                line: b.line,
            });
        }
        facts.imports = std::mem::take(&mut self.imports);
        facts.test_runner = self.test_runner(&facts.imports);
        facts
    }

    // -----------------------------------------------------------------------------------------
    // Declarations
    // -----------------------------------------------------------------------------------------

    fn function_decl(&mut self, node: Node<'_>, name: Option<Node<'_>>, is_sig: bool) {
        let Some(name) = name.map(|n| txt(n, self.src)) else {
            return;
        };
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(node));
        fact.signature = Some(util::signature(node, body, self.src));
        fact.is_async = has_token(node, "async");
        fact.return_type = node
            .child_by_field_name("return_type")
            .and_then(|t| type_simple(t, self.src, true));
        let idx = self.push_sym(node, fact);
        self.syms[idx].is_sig = is_sig;
    }

    /// A class declaration or expression named `name`, with its members.
    fn class(&mut self, node: Node<'_>, name: String) {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Type, util::span(node));
        fact.flavor = Some(TypeFlavor::Class);
        fact.signature = Some(util::signature(node, body, src));
        fact.is_abstract = node.kind() == "abstract_class_declaration";
        fact.decorators = own_decorators(node, src);
        self.push_sym(node, fact);

        // Heritage: `extends X` (JS: the expression directly; TS: extends_clause value).
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() != "class_heritage" {
                continue;
            }
            let mut hc = child.walk();
            for h in child.named_children(&mut hc) {
                let value = if h.kind() == "extends_clause" {
                    h.child_by_field_name("value")
                } else {
                    Some(h)
                };
                if let Some(v) = value {
                    if h.kind() == "implements_clause" {
                        continue;
                    }
                    if let Some((name, recv)) = self.expr_target(v) {
                        self.push_ref(EdgeKind::Extends, name, recv, v);
                    }
                }
            }
        }
        if let Some(body) = body {
            self.class_body(body);
        }
    }

    fn class_body(&mut self, body: Node<'_>) {
        let src = self.src;
        let mut pending_decorators: Vec<String> = Vec::new();
        let mut pending_anchor: Option<(usize, usize)> = None;
        let mut pending_start = body.start_position();
        let mut cursor = body.walk();
        for member in body.named_children(&mut cursor) {
            let kind = member.kind();
            if kind == "decorator" {
                if let Some(d) = decorator_name(member, src) {
                    pending_decorators.push(d);
                }
                if pending_anchor.is_none() {
                    pending_anchor = Some((member.start_byte(), member.start_position().row));
                    pending_start = member.start_position();
                }
                continue;
            }
            if kind == "comment" {
                continue;
            }
            let decorators = std::mem::take(&mut pending_decorators);
            let anchor = pending_anchor.take();
            let idx = match kind {
                "method_definition" | "method_signature" | "abstract_method_signature" => self.method(
                    member,
                    kind != "method_definition" && kind != "abstract_method_signature",
                ),
                "public_field_definition" | "field_definition" => self.field(member),
                _ => None,
            };
            if let Some(idx) = idx {
                let s = &mut self.syms[idx];
                let mut all = decorators;
                all.append(&mut s.fact.decorators);
                s.fact.decorators = all;
                if let Some(a) = anchor {
                    s.anchor = a;
                    s.fact.span.start_line = pending_start.row as u32 + 1;
                    s.fact.span.start_col = pending_start.column as u32;
                }
            }
        }
    }

    fn method(&mut self, node: Node<'_>, is_sig: bool) -> Option<usize> {
        let src = self.src;
        let name_node = node.child_by_field_name("name")?;
        let name = member_name(name_node, src)?;
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Method, util::span(node));
        fact.signature = Some(util::signature(node, body, src));
        fact.visibility = Some(member_visibility(node, name_node, src));
        fact.is_async = has_token(node, "async");
        fact.is_static = has_token(node, "static");
        fact.is_abstract = node.kind() == "abstract_method_signature" || has_token(node, "abstract");
        fact.return_type = node
            .child_by_field_name("return_type")
            .and_then(|t| type_simple(t, src, true));
        fact.decorators = own_decorators(node, src);
        let is_ctor = fact.name == "constructor";
        let idx = self.push_sym(node, fact);
        self.syms[idx].is_sig = is_sig;
        if is_ctor {
            if let Some(params) = node.child_by_field_name("parameters") {
                self.parameter_properties(params);
            }
        }
        Some(idx)
    }

    /// `constructor(private repo: Repo)` → Field `repo` (type Repo) on the class.
    fn parameter_properties(&mut self, params: Node<'_>) {
        let src = self.src;
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            if p.kind() != "required_parameter" && p.kind() != "optional_parameter" {
                continue;
            }
            let access = first_child_of_kind(p, "accessibility_modifier");
            let readonly = has_token(p, "readonly");
            if access.is_none() && !readonly && first_child_of_kind(p, "override_modifier").is_none() {
                continue;
            }
            let Some(pat) = p.child_by_field_name("pattern").filter(|n| n.kind() == "identifier") else {
                continue;
            };
            let mut fact = SymbolFact::new(txt(pat, src), NodeKind::Field, util::span(p));
            fact.signature = Some(util::collapse_whitespace(&util::text(p, src)));
            fact.visibility = Some(
                access
                    .map(|a| visibility_of(&util::text(a, src)))
                    .unwrap_or(Visibility::Public),
            );
            fact.type_name = p.child_by_field_name("type").and_then(|t| type_simple(t, src, false));
            fact.decorators = own_decorators(p, src);
            let idx = self.push_sym(p, fact);
            self.syms[idx].param_prop = true;
        }
    }

    fn field(&mut self, node: Node<'_>) -> Option<usize> {
        let src = self.src;
        let name_node = node
            .child_by_field_name("name")
            .or_else(|| node.child_by_field_name("property"))?;
        let name = member_name(name_node, src)?;
        let value = node.child_by_field_name("value");
        let visibility = member_visibility(node, name_node, src);
        let is_static = has_token(node, "static");
        let decorators = own_decorators(node, src);
        if let Some(v) = value.filter(|v| is_function_value(v.kind())) {
            let mut fact = SymbolFact::new(name, NodeKind::Method, util::span(node));
            fact.signature = Some(util::signature(node, v.child_by_field_name("body"), src));
            fact.visibility = Some(visibility);
            fact.is_static = is_static;
            fact.is_async = has_token(v, "async");
            fact.return_type = v
                .child_by_field_name("return_type")
                .and_then(|t| type_simple(t, src, true));
            fact.decorators = decorators;
            return Some(self.push_sym(node, fact));
        }
        let mut fact = SymbolFact::new(name, NodeKind::Field, util::span(node));
        fact.signature = Some(
            util::signature(node, value, src)
                .trim_end_matches('=')
                .trim_end()
                .to_string(),
        );
        fact.visibility = Some(visibility);
        fact.is_static = is_static;
        fact.is_abstract = has_token(node, "abstract");
        fact.type_name = node
            .child_by_field_name("type")
            .and_then(|t| type_simple(t, src, false))
            .or_else(|| value.and_then(|v| new_type(v, src)));
        fact.decorators = decorators;
        Some(self.push_sym(node, fact))
    }

    fn other_decl(&mut self, cap: Cap, node: Node<'_>, name: Option<Node<'_>>) {
        let src = self.src;
        let Some(name_node) = name else { return };
        match cap {
            Cap::Object => {
                if let Some(idx) = self.method(node, false) {
                    self.syms[idx].object_method = true;
                    self.syms[idx].fact.visibility = None;
                }
            }
            Cap::Interface => {
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Interface, util::span(node));
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
                if let Some(body) = body {
                    self.interface_body(body);
                }
            }
            Cap::TypeAlias => {
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Type, util::span(node));
                fact.flavor = Some(TypeFlavor::TypeAlias);
                fact.signature = Some(util::signature(node, None, src));
                self.push_sym(node, fact);
            }
            Cap::Enum => {
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Type, util::span(node));
                fact.flavor = Some(TypeFlavor::Enum);
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
                if let Some(body) = body {
                    let mut cursor = body.walk();
                    for m in body.named_children(&mut cursor) {
                        let name = match m.kind() {
                            "enum_assignment" => m.child_by_field_name("name").and_then(|n| member_name(n, src)),
                            "comment" => None,
                            _ => member_name(m, src),
                        };
                        if let Some(name) = name {
                            let mut fact = SymbolFact::new(name, NodeKind::EnumMember, util::span(m));
                            fact.signature = Some(util::collapse_whitespace(&util::text(m, src)));
                            self.push_sym(m, fact);
                        }
                    }
                }
            }
            Cap::Namespace => {
                let name = match name_node.kind() {
                    "string" => string_value(name_node, src),
                    _ => txt(name_node, src),
                };
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(name, NodeKind::Module, util::span(node));
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
            }
            _ => {}
        }
    }

    fn interface_body(&mut self, body: Node<'_>) {
        let src = self.src;
        let mut cursor = body.walk();
        for m in body.named_children(&mut cursor) {
            match m.kind() {
                "method_signature" => {
                    if let Some(idx) = self.method(m, true) {
                        self.syms[idx].fact.visibility = None;
                    }
                }
                "property_signature" => {
                    let Some(name) = m.child_by_field_name("name").and_then(|n| member_name(n, src)) else {
                        continue;
                    };
                    let mut fact = SymbolFact::new(name, NodeKind::Field, util::span(m));
                    fact.signature = Some(util::signature(m, None, src));
                    fact.type_name = m.child_by_field_name("type").and_then(|t| type_simple(t, src, false));
                    self.push_sym(m, fact);
                }
                _ => {}
            }
        }
    }

    /// `const`/`let`/`var` statements: function-valued declarators become Functions (at any
    /// depth), module-level ones Variables/Constants; requires become imports; all give bindings.
    fn var_statement(&mut self, stmt: Node<'_>, top: bool) {
        let src = self.src;
        let keyword = stmt.child(0).map(|k| k.kind()).unwrap_or("var");
        let single = stmt.named_child_count() == 1;
        let mut cursor = stmt.walk();
        for decl in stmt.named_children(&mut cursor) {
            if decl.kind() != "variable_declarator" {
                continue;
            }
            let Some(name_node) = decl.child_by_field_name("name") else {
                continue;
            };
            let value = decl.child_by_field_name("value");
            let ann = decl.child_by_field_name("type");
            if let Some(v) = value {
                if self.require_binding(name_node, v, stmt) {
                    continue;
                }
            }
            if name_node.kind() != "identifier" {
                continue;
            }
            let name = txt(name_node, src);
            let span_node = if single { stmt } else { decl };

            // Bindings (type evidence for receivers).
            if let Some(t) = ann.and_then(|a| annotation_type(a)) {
                if let Some(tn) =
                    type_simple(t, src, false).filter(|n| !is_primitive_name(n) && !self.type_params.contains(n))
                {
                    self.push_binding(name.clone(), BindingValue::Type { name: tn }, decl);
                }
            } else if let Some(v) = value {
                if let Some(value) = self.binding_value(v) {
                    self.push_binding(name.clone(), value, decl);
                }
            }

            if let Some(v) = value.filter(|v| is_function_value(v.kind())) {
                let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(span_node));
                let head = util::signature(decl, v.child_by_field_name("body"), src);
                fact.signature = Some(util::truncate_chars(&format!("{keyword} {head}"), util::MAX_SIGNATURE));
                fact.is_async = has_token(v, "async");
                fact.return_type = v
                    .child_by_field_name("return_type")
                    .and_then(|t| type_simple(t, src, true));
                let idx = self.push_sym(decl, fact);
                self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
                continue;
            }
            if let Some(v) = value.filter(|v| v.kind() == "class") {
                self.class(v, name);
                let idx = self.by_node[&v.id()];
                self.syms[idx].fact.span = util::span(span_node);
                self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
                self.by_node.insert(decl.id(), idx);
                continue;
            }
            if !top {
                self.locals.insert(name);
                continue;
            }
            let kind = if keyword == "const" {
                NodeKind::Constant
            } else {
                NodeKind::Variable
            };
            let mut fact = SymbolFact::new(name, kind, util::span(span_node));
            let head = util::signature(decl, value, src);
            let head = head.trim_end_matches('=').trim_end();
            fact.signature = Some(util::truncate_chars(&format!("{keyword} {head}"), util::MAX_SIGNATURE));
            fact.type_name = ann
                .and_then(|a| type_simple(a, src, false))
                .or_else(|| value.and_then(|v| new_type(v, src)));
            let idx = self.push_sym(decl, fact);
            self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
        }
    }

    /// `const x = require('m')`, `const { a, b: c } = require('m')`, `const y = require('m').y`.
    fn require_binding(&mut self, name: Node<'_>, value: Node<'_>, stmt: Node<'_>) -> bool {
        let src = self.src;
        let (call, member) = match value.kind() {
            "call_expression" => (value, None),
            "member_expression" => match value.child_by_field_name("object") {
                Some(o) if o.kind() == "call_expression" => (o, value.child_by_field_name("property")),
                _ => return false,
            },
            _ => return false,
        };
        let Some(module) = require_source(call, src) else {
            return false;
        };
        self.skip_calls.insert(call.id());
        let line = util::line(stmt);
        let mut push = |kind, n: Option<String>, local: Option<String>| {
            self.imports.push(ImportFact {
                module: module.clone(),
                kind,
                name: n,
                local,
                reexport: false,
                type_only: false,
                line,
            })
        };
        match (name.kind(), member) {
            ("identifier", None) => push(ImportKind::Module, None, Some(txt(name, src))),
            ("identifier", Some(p)) => push(ImportKind::Named, member_name(p, src), Some(txt(name, src))),
            ("object_pattern", None) => {
                let mut cursor = name.walk();
                for p in name.named_children(&mut cursor) {
                    match p.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let n = txt(p, src);
                            push(ImportKind::Named, Some(n.clone()), Some(n));
                        }
                        "pair_pattern" => {
                            let key = p.child_by_field_name("key").and_then(|k| member_name(k, src));
                            let local = p
                                .child_by_field_name("value")
                                .filter(|v| v.kind() == "identifier")
                                .map(|v| txt(v, src));
                            push(ImportKind::Named, key, local);
                        }
                        _ => {}
                    }
                }
            }
            _ => push(ImportKind::SideEffect, None, None),
        }
        true
    }

    /// Names bound by a parameter list or destructuring pattern (direct children only).
    fn collect_locals(&mut self, node: Node<'_>) {
        let src = self.src;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let local = match child.kind() {
                "identifier" | "shorthand_property_identifier_pattern" => Some(child),
                "assignment_pattern" => child.child_by_field_name("left"),
                "pair_pattern" => child.child_by_field_name("value"),
                "required_parameter" | "optional_parameter" => child.child_by_field_name("pattern"),
                "rest_pattern" => child.named_child(0),
                _ => None,
            };
            if let Some(l) =
                local.filter(|l| l.kind() == "identifier" || l.kind() == "shorthand_property_identifier_pattern")
            {
                self.locals.insert(txt(l, src));
            }
        }
    }

    /// `describe('title', …)` / `it.only('title', …)` → test symbol; `beforeEach(() => …)` → fixture.
    fn test_call(&mut self, node: Node<'_>, callee: Option<Node<'_>>) {
        let src = self.src;
        let Some(callee) = callee else { return };
        let base = match callee.kind() {
            "identifier" => txt(callee, src),
            "member_expression" => {
                let obj = callee.child_by_field_name("object");
                let prop = callee
                    .child_by_field_name("property")
                    .map(|p| txt(p, src))
                    .unwrap_or_default();
                match obj {
                    Some(o) if o.kind() == "identifier" && TEST_MODIFIERS.contains(&prop.as_str()) => txt(o, src),
                    _ => return,
                }
            }
            _ => return,
        };
        let first_arg = node.child_by_field_name("arguments").and_then(|a| a.named_child(0));
        let is_test = TEST_FNS.contains(&base.as_str());
        if is_test {
            self.uses_test_calls = true;
        }
        let (name, role, title) = match first_arg {
            Some(t) if is_test && matches!(t.kind(), "string" | "template_string") => {
                (sanitize_title(&string_value(t, src)), TestRole::Test, Some(t))
            }
            Some(f) if is_function_value(f.kind()) && HOOK_FNS.contains(&base.as_str()) => {
                (base.clone(), TestRole::Fixture, None)
            }
            _ => return,
        };
        if !self.ctx.is_test_file {
            return;
        }
        self.skip_calls.insert(node.id());
        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(node));
        let head = match title {
            Some(t) => {
                format!("{}({})", txt(callee, src), util::text(t, src))
            }
            _ => format!("{}()", txt(callee, src)),
        };
        fact.signature = Some(util::truncate_chars(
            &util::collapse_whitespace(&head),
            util::MAX_SIGNATURE,
        ));
        fact.test_role = Some(role);
        self.push_sym(node, fact);
    }

    // -----------------------------------------------------------------------------------------
    // Imports and exports
    // -----------------------------------------------------------------------------------------

    fn import_statement(&mut self, node: Node<'_>) {
        let src = self.src;
        let line = util::line(node);
        let type_only = has_token(node, "type");
        let source = node.child_by_field_name("source").map(|s| string_value(s, src));
        let mut cursor = node.walk();
        let mut bound = false;
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_clause" => {
                    let Some(module) = source.clone() else {
                        continue;
                    };
                    let mut cc = child.walk();
                    for part in child.named_children(&mut cc) {
                        match part.kind() {
                            "identifier" => {
                                bound = true;
                                self.imports.push(ImportFact {
                                    module: module.clone(),
                                    kind: ImportKind::Default,
                                    name: None,
                                    local: Some(txt(part, src)),
                                    reexport: false,
                                    type_only,
                                    line,
                                });
                            }
                            "namespace_import" => {
                                bound = true;
                                let local = first_child_of_kind(part, "identifier").map(|i| txt(i, src));
                                self.imports.push(ImportFact {
                                    module: module.clone(),
                                    kind: ImportKind::Namespace,
                                    name: None,
                                    local,
                                    reexport: false,
                                    type_only,
                                    line,
                                });
                            }
                            "named_imports" => {
                                bound = true;
                                let mut sc = part.walk();
                                for spec in part.named_children(&mut sc) {
                                    if spec.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let spec_type = type_only || has_token(spec, "type");
                                    self.push_specifier(&module, spec, false, spec_type, line);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    bound = true;
                    let module = child
                        .child_by_field_name("source")
                        .map(|s| string_value(s, src))
                        .or_else(|| source.clone())
                        .unwrap_or_default();
                    let local = first_child_of_kind(child, "identifier").map(|i| txt(i, src));
                    self.imports.push(ImportFact {
                        module,
                        kind: ImportKind::Module,
                        name: None,
                        local,
                        reexport: false,
                        type_only,
                        line,
                    });
                }
                _ => {}
            }
        }
        if !bound {
            if let Some(module) = source {
                self.imports.push(ImportFact {
                    module,
                    kind: ImportKind::SideEffect,
                    name: None,
                    local: None,
                    reexport: false,
                    type_only,
                    line,
                });
            }
        }
    }

    /// `a`, `a as b`, `default as X` inside `import {…}` / `export {…} from`.
    fn push_specifier(&mut self, module: &str, spec: Node<'_>, reexport: bool, type_only: bool, line: u32) {
        let src = self.src;
        let name = spec.child_by_field_name("name").map(|n| spec_name(n, src));
        let name = name.or_else(|| has_token(spec, "default").then(|| "default".to_string()));
        let alias = spec.child_by_field_name("alias").map(|n| spec_name(n, src));
        let local = alias.or_else(|| name.clone());
        let (kind, name) = if name.as_deref() == Some("default") && local.as_deref() != Some("default") {
            (ImportKind::Default, None)
        } else {
            (ImportKind::Named, name)
        };
        self.imports.push(ImportFact {
            module: module.to_string(),
            kind,
            name,
            local,
            reexport,
            type_only,
            line,
        });
    }

    fn export_statement(&mut self, node: Node<'_>) {
        let src = self.src;
        let line = util::line(node);
        let is_default = has_token(node, "default");
        let type_only = has_token(node, "type");
        let anchor = (node.start_byte(), node.start_position().row);
        if let Some(source) = node.child_by_field_name("source") {
            let module = string_value(source, src);
            let mut cursor = node.walk();
            let mut any = false;
            for child in node.named_children(&mut cursor) {
                match child.kind() {
                    "export_clause" => {
                        any = true;
                        let mut sc = child.walk();
                        for spec in child.named_children(&mut sc) {
                            if spec.kind() == "export_specifier" {
                                let t = type_only || has_token(spec, "type");
                                self.push_specifier(&module, spec, true, t, line);
                            }
                        }
                    }
                    "namespace_export" => {
                        any = true;
                        let local = child.named_child(0).map(|n| spec_name(n, src));
                        self.imports.push(ImportFact {
                            module: module.clone(),
                            kind: ImportKind::Namespace,
                            name: None,
                            local,
                            reexport: true,
                            type_only,
                            line,
                        });
                    }
                    _ => {}
                }
            }
            if !any {
                self.imports.push(ImportFact {
                    module,
                    kind: ImportKind::Wildcard,
                    name: None,
                    local: None,
                    reexport: true,
                    type_only,
                    line,
                });
            }
            return;
        }
        if let Some(decl) = node.child_by_field_name("declaration") {
            let mut targets = Vec::new();
            if matches!(decl.kind(), "lexical_declaration" | "variable_declaration") {
                let mut cursor = decl.walk();
                for d in decl.named_children(&mut cursor) {
                    targets.push(d.id());
                }
            } else {
                targets.push(decl.id());
                // `export declare …`, `export abstract class` wrapped in ambient declarations.
                if decl.kind() == "ambient_declaration" {
                    if let Some(inner) = decl.named_child(0) {
                        targets.push(inner.id());
                    }
                }
            }
            let export_decorators: Vec<String> = {
                let mut cursor = node.walk();
                node.named_children(&mut cursor)
                    .filter(|c| c.kind() == "decorator")
                    .filter_map(|d| decorator_name(d, src))
                    .collect()
            };
            let sole = targets.len() == 1 || decl.kind() == "ambient_declaration";
            let start = util::span(node);
            for id in targets {
                if let Some(&idx) = self.by_node.get(&id) {
                    let s = &mut self.syms[idx];
                    if sole {
                        s.fact.span.start_line = start.start_line;
                        s.fact.span.start_col = start.start_col;
                    }
                    s.fact.exported = true;
                    s.fact.default_export = is_default;
                    if s.anchor.0 > anchor.0 {
                        s.anchor = anchor;
                    }
                    if !export_decorators.is_empty() {
                        let mut all = export_decorators.clone();
                        all.append(&mut s.fact.decorators);
                        s.fact.decorators = all;
                    }
                }
            }
            return;
        }
        if let Some(value) = node.child_by_field_name("value") {
            match value.kind() {
                "identifier" => self.export_names.push((txt(value, src), true)),
                k if is_function_value(k) || k == "class" => {
                    let named = value.child_by_field_name("name").map(|n| txt(n, src));
                    let name = named.unwrap_or_else(|| "default".to_string());
                    let idx = if k == "class" {
                        self.class(value, name);
                        self.by_node[&value.id()]
                    } else {
                        let body = value.child_by_field_name("body");
                        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(value));
                        fact.signature = Some(util::signature(value, body, src));
                        fact.is_async = has_token(value, "async");
                        fact.return_type = value
                            .child_by_field_name("return_type")
                            .and_then(|t| type_simple(t, src, true));
                        self.push_sym(value, fact)
                    };
                    let s = &mut self.syms[idx];
                    s.fact.exported = true;
                    s.fact.default_export = true;
                    s.anchor = anchor;
                }
                _ => {}
            }
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "export_clause" => {
                    let mut sc = child.walk();
                    for spec in child.named_children(&mut sc) {
                        if spec.kind() != "export_specifier" {
                            continue;
                        }
                        let Some(name) = spec.child_by_field_name("name").map(|n| spec_name(n, src)) else {
                            continue;
                        };
                        let alias = spec.child_by_field_name("alias").map(|n| spec_name(n, src));
                        self.export_names.push((name, alias.as_deref() == Some("default")));
                    }
                }
                // TypeScript `export = Foo`.
                "identifier" if has_token(node, "=") => self.export_names.push((txt(child, src), true)),
                _ => {}
            }
        }
    }

    /// `module.exports = { a, b: c }`, `module.exports = foo`, `exports.foo = …`.
    fn commonjs_export(&mut self, assign: Node<'_>) {
        let src = self.src;
        let (Some(left), Some(right)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
        else {
            return;
        };
        let left_text = util::text(left, src);
        let left_text = left_text.trim();
        if left_text == "module.exports" {
            match right.kind() {
                "identifier" => self.export_names.push((txt(right, src), true)),
                "object" => {
                    let mut cursor = right.walk();
                    for p in right.named_children(&mut cursor) {
                        match p.kind() {
                            "shorthand_property_identifier" => self.export_names.push((txt(p, src), false)),
                            "pair" => {
                                if let Some(v) = p.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                                    self.export_names.push((txt(v, src), false));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let export_name = left_text
            .strip_prefix("module.exports.")
            .or_else(|| left_text.strip_prefix("exports."));
        let Some(export_name) = export_name.filter(|n| !n.contains(['.', '[', ' '])) else {
            return;
        };
        match right.kind() {
            "identifier" => self.export_names.push((txt(right, src), false)),
            k if is_function_value(k) => {
                let body = right.child_by_field_name("body");
                let mut fact = SymbolFact::new(export_name, NodeKind::Function, util::span(assign));
                fact.signature = Some(util::signature(assign, body, src));
                fact.is_async = has_token(right, "async");
                fact.exported = true;
                self.push_sym(assign, fact);
            }
            _ => self.export_names.push((export_name.to_string(), false)),
        }
    }

    fn test_runner(&self, imports: &[ImportFact]) -> Option<TestRunner> {
        if !self.ctx.is_test_file {
            return None;
        }
        let mut runner = None;
        for im in imports {
            let r = match im.module.as_str() {
                "vitest" => Some(TestRunner::Vitest),
                "node:test" => Some(TestRunner::NodeTest),
                "mocha" | "chai" => Some(TestRunner::Mocha),
                "@jest/globals" => Some(TestRunner::Jest),
                _ => None,
            };
            if let Some(r) = r {
                if runner.is_none() || r == TestRunner::Vitest || r == TestRunner::NodeTest {
                    runner = Some(r);
                }
            }
        }
        runner.or(self.uses_test_calls.then_some(TestRunner::Jest))
    }

    // -----------------------------------------------------------------------------------------
    // Docs, nesting, overloads
    // -----------------------------------------------------------------------------------------

    /// The comment block ending right before each symbol's anchor (no blank line, no code).
    fn attach_docs(&mut self) {
        if self.comments.is_empty() {
            return;
        }
        self.comments.sort_by_key(|c| c.start_byte);
        let src = self.src;
        for i in 0..self.syms.len() {
            let (anchor_byte, anchor_row) = self.syms[i].anchor;
            let mut pos = self.comments.partition_point(|c| c.end_byte <= anchor_byte);
            let mut parts: Vec<usize> = Vec::new();
            let mut expect_byte = anchor_byte;
            let mut expect_row = anchor_row;
            while pos > 0 {
                let c = &self.comments[pos - 1];
                let gap = &src[c.end_byte.min(expect_byte)..expect_byte];
                if !gap.iter().all(|b| b.is_ascii_whitespace()) || c.end_row + 1 < expect_row {
                    break;
                }
                let is_block = src.get(c.start_byte..c.start_byte + 2) == Some(b"/*".as_slice());
                if is_block && !parts.is_empty() {
                    break;
                }
                parts.push(pos - 1);
                if is_block {
                    break;
                }
                expect_byte = c.start_byte;
                expect_row = c.start_row;
                pos -= 1;
            }
            if parts.is_empty() {
                continue;
            }
            parts.reverse();
            let raw: Vec<String> = parts
                .iter()
                .map(|&p| {
                    String::from_utf8_lossy(&src[self.comments[p].start_byte..self.comments[p].end_byte]).into_owned()
                })
                .collect();
            self.syms[i].fact.set_doc(util::doc_comment(&raw.join("\n")));
        }
    }

    /// Nests symbols, places parameter properties on their class, applies export lists and
    /// keeps one symbol per overload set. Returns the symbols and, per symbol, the parent used
    /// for enclosing-symbol lookup (the containment parent).
    fn finish_symbols(&mut self) -> Finished {
        let pending = std::mem::take(&mut self.syms);
        let mut facts = Vec::with_capacity(pending.len());
        let mut flags = Vec::with_capacity(pending.len());
        for p in pending {
            flags.push((p.is_sig, p.param_prop, p.object_method));
            facts.push(p.fact);
        }
        let new_index = util::nest_symbols(&mut facts);
        let mut sorted_flags = vec![(false, false, false); flags.len()];
        for (old, f) in flags.into_iter().enumerate() {
            sorted_flags[new_index[old] as usize] = f;
        }
        let mut lookup: Vec<Option<u32>> = facts.iter().map(|s| s.parent).collect();
        for i in 0..facts.len() {
            let (_, param_prop, object_method) = sorted_flags[i];
            if param_prop {
                // Containment put it under the constructor; it belongs to the class.
                if let Some(ctor) = facts[i].parent {
                    facts[i].parent = facts[ctor as usize].parent;
                }
            }
            if object_method && facts[i].parent.is_none() {
                facts[i].kind = NodeKind::Function;
                facts[i].visibility = None;
            }
        }
        // Export lists, `export default name`, CommonJS: top-level symbols by name.
        if !self.export_names.is_empty() {
            let mut top: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, s) in facts.iter().enumerate() {
                if s.parent.is_none() {
                    top.entry(s.name.as_str()).or_default().push(i);
                }
            }
            let mut marks = Vec::new();
            for (name, default) in &self.export_names {
                if let Some(list) = top.get(name.as_str()) {
                    marks.extend(list.iter().map(|&i| (i, *default)));
                }
            }
            for (i, default) in marks {
                facts[i].exported = true;
                facts[i].default_export |= default;
            }
        }
        for s in facts.iter_mut() {
            if s.exported && s.parent.is_none() && s.visibility.is_none() {
                s.visibility = Some(Visibility::Public);
            }
        }
        // Overloads: keep the implementation (or the first signature) per (parent, name).
        let mut groups: HashMap<(Option<u32>, &str), Vec<usize>> = HashMap::new();
        for (i, s) in facts.iter().enumerate() {
            if sorted_flags[i].0 || matches!(s.kind, NodeKind::Function | NodeKind::Method) {
                groups.entry((s.parent, s.name.as_str())).or_default().push(i);
            }
        }
        let mut drop = vec![false; facts.len()];
        let mut doc_moves = Vec::new();
        let mut redirects: Vec<(Span, usize)> = Vec::new();
        for (_, members) in groups {
            if members.len() < 2 || !members.iter().any(|&i| sorted_flags[i].0) {
                continue;
            }
            let keep = members
                .iter()
                .copied()
                .find(|&i| !sorted_flags[i].0)
                .unwrap_or(members[0]);
            let first_doc = members.iter().copied().find(|&i| facts[i].doc.is_some());
            for &i in &members {
                if i != keep && sorted_flags[i].0 {
                    drop[i] = true;
                    redirects.push((facts[i].span, keep));
                }
            }
            if facts[keep].doc.is_none() {
                if let Some(d) = first_doc {
                    doc_moves.push((keep, d));
                }
            }
        }
        for (keep, from) in doc_moves {
            facts[keep].doc = facts[from].doc.clone();
            facts[keep].doc_text = facts[from].doc_text.clone();
        }
        if drop.iter().any(|d| *d) {
            let mut remap = vec![None; facts.len()];
            let mut next = 0u32;
            for (i, d) in drop.iter().enumerate() {
                if !d {
                    remap[i] = Some(next);
                    next += 1;
                }
            }
            let old = std::mem::take(&mut facts);
            let old_lookup = std::mem::take(&mut lookup);
            for (i, mut s) in old.into_iter().enumerate() {
                if drop[i] {
                    continue;
                }
                s.parent = s.parent.and_then(|p| remap[p as usize]);
                lookup.push(old_lookup[i].and_then(|p| remap[p as usize]));
                facts.push(s);
            }
            let redirects = redirects
                .into_iter()
                .filter_map(|(sp, k)| remap[k].map(|k| (sp, k)))
                .collect();
            return (facts, lookup, redirects);
        }
        (facts, lookup, Vec::new())
    }

    // -----------------------------------------------------------------------------------------
    // References
    // -----------------------------------------------------------------------------------------

    fn reference(&mut self, cap: Cap, node: Node<'_>, callee: Option<Node<'_>>, source: Option<Node<'_>>) {
        let src = self.src;
        match cap {
            Cap::Call => {
                if let Some(t) = node.child_by_field_name("type_arguments") {
                    self.type_refs(t, EdgeKind::References);
                }
                if self.skip_calls.contains(&node.id()) {
                    return;
                }
                let Some(callee) = callee else { return };
                match callee.kind() {
                    "identifier" => {
                        let name = txt(callee, src);
                        if name != "require" {
                            self.push_ref(EdgeKind::Calls, name, Receiver::None, callee);
                        }
                    }
                    "super" => self.push_ref(EdgeKind::Calls, "constructor".to_string(), Receiver::Super, callee),
                    "member_expression" => {
                        let (Some(obj), Some(prop)) = (
                            callee.child_by_field_name("object"),
                            callee.child_by_field_name("property"),
                        ) else {
                            return;
                        };
                        if let Some(name) = member_name(prop, src) {
                            self.push_ref(EdgeKind::Calls, name, receiver_of(obj, src), prop);
                        }
                    }
                    _ => {}
                }
            }
            Cap::New => {
                if let Some(t) = node.child_by_field_name("type_arguments") {
                    self.type_refs(t, EdgeKind::References);
                }
                if let Some((name, recv)) = callee.and_then(|c| self.expr_target(c)) {
                    self.push_ref(EdgeKind::Instantiates, name, recv, node);
                }
            }
            Cap::Decorator => {
                if let Some((name, recv)) = self.expr_target(node) {
                    self.push_ref(EdgeKind::References, name, recv, node);
                }
            }
            Cap::Args | Cap::JsxExpr => {
                let mut cursor = node.walk();
                for arg in node.named_children(&mut cursor) {
                    match arg.kind() {
                        "identifier" => {
                            let name = txt(arg, src);
                            if !self.locals.contains(&name) && name != "undefined" && name != "arguments" {
                                self.push_ref(EdgeKind::References, name, Receiver::None, arg);
                            }
                        }
                        "member_expression" => {
                            let is_this = arg.child_by_field_name("object").is_some_and(|o| o.kind() == "this");
                            if let Some(p) = arg.child_by_field_name("property").filter(|_| is_this) {
                                if let Some(name) = member_name(p, src) {
                                    self.push_ref(EdgeKind::References, name, Receiver::SelfRef, p);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Cap::Jsx => {
                let target = match node.kind() {
                    "identifier" => {
                        let n = txt(node, src);
                        n.starts_with(|c: char| c.is_ascii_uppercase())
                            .then_some((n, Receiver::None))
                    }
                    "member_expression" => self.expr_target(node),
                    _ => None,
                };
                if let Some((name, recv)) = target {
                    self.push_ref(EdgeKind::References, name, recv, node);
                }
            }
            Cap::Require => {
                if self.skip_calls.contains(&node.id()) {
                    return;
                }
                self.side_effect_import(source, node);
            }
            Cap::DynamicImport => self.side_effect_import(source, node),
            Cap::TypeRef => self.type_refs(node, EdgeKind::References),
            Cap::TypeCast => {
                let last = node.named_child_count().saturating_sub(1);
                if let Some(t) = node.named_child(last as u32) {
                    self.type_refs(t, EdgeKind::References);
                }
            }
            Cap::Fn => self.function_types(node),
            Cap::MemberBody => {
                let mut cursor = node.walk();
                for m in node.named_children(&mut cursor) {
                    match m.kind() {
                        "method_signature" => self.function_types(m),
                        "property_signature" => {
                            if let Some(t) = m.child_by_field_name("type") {
                                self.type_refs(t, EdgeKind::TypedAs);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Cap::FieldDef | Cap::Declarator => {
                if let Some(t) = node.child_by_field_name("type") {
                    self.type_refs(t, EdgeKind::TypedAs);
                }
            }
            Cap::ExtendsClause => {
                if let Some(t) = node.child_by_field_name("type_arguments") {
                    self.type_refs(t, EdgeKind::References);
                }
            }
            Cap::Implements | Cap::Extends => {
                let kind = if cap == Cap::Implements {
                    EdgeKind::Implements
                } else {
                    EdgeKind::Extends
                };
                let (head, args) = match node.kind() {
                    "generic_type" => (
                        node.child_by_field_name("name"),
                        node.child_by_field_name("type_arguments"),
                    ),
                    _ => (Some(node), None),
                };
                if let Some((name, recv)) = head.and_then(|h| self.type_target_of(h, true)) {
                    self.push_ref(kind, name, recv, node);
                }
                if let Some(args) = args {
                    self.type_refs(args, EdgeKind::References);
                }
            }
            _ => {}
        }
    }

    fn side_effect_import(&mut self, source: Option<Node<'_>>, node: Node<'_>) {
        if let Some(s) = source {
            self.imports.push(ImportFact {
                module: string_value(s, self.src),
                kind: ImportKind::SideEffect,
                name: None,
                local: None,
                reexport: false,
                type_only: false,
                line: util::line(node),
            });
        }
    }
}

/// `require('m')` → `m`.
fn require_source(call: Node<'_>, src: &[u8]) -> Option<String> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "identifier" || util::text(f, src) != "require" {
        return None;
    }
    let first = call.child_by_field_name("arguments")?.named_child(0)?;
    (first.kind() == "string").then(|| string_value(first, src))
}

fn spec_name(node: Node<'_>, src: &[u8]) -> String {
    if node.kind() == "string" {
        string_value(node, src)
    } else {
        txt(node, src)
    }
}

fn decorator_name(decorator: Node<'_>, src: &[u8]) -> Option<String> {
    let mut expr = decorator.named_child(0)?;
    if expr.kind() == "call_expression" {
        expr = expr.child_by_field_name("function")?;
    }
    match expr.kind() {
        "identifier" => Some(txt(expr, src)),
        "member_expression" => member_name(expr.child_by_field_name("property")?, src),
        _ => None,
    }
}

/// Decorators that are children of the node itself.
fn own_decorators(node: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut cursor = node.walk();
    let names = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .filter_map(|d| decorator_name(d, src))
        .collect();
    names
}

fn visibility_of(modifier: &str) -> Visibility {
    match modifier.trim() {
        "private" => Visibility::Private,
        "protected" => Visibility::Protected,
        _ => Visibility::Public,
    }
}

fn member_visibility(node: Node<'_>, name: Node<'_>, src: &[u8]) -> Visibility {
    if name.kind() == "private_property_identifier" {
        return Visibility::Private;
    }
    match first_child_of_kind(node, "accessibility_modifier") {
        Some(m) => visibility_of(&util::text(m, src)),
        None => Visibility::Public,
    }
}

/// Innermost-enclosing-symbol lookup with an explicit lookup-parent chain (parameter
/// properties are attributed to the class but enclose like the constructor they sit in).
struct Enclosing<'a> {
    spans: Vec<Span>,
    kinds: Vec<NodeKind>,
    parents: &'a [Option<u32>],
    accept: fn(NodeKind) -> bool,
}

impl<'a> Enclosing<'a> {
    fn new(symbols: &[SymbolFact], parents: &'a [Option<u32>], accept: fn(NodeKind) -> bool) -> Self {
        Enclosing {
            spans: symbols.iter().map(|s| s.span).collect(),
            kinds: symbols.iter().map(|s| s.kind).collect(),
            parents,
            accept,
        }
    }

    fn find(&self, line: u32, col: u32) -> Option<u32> {
        let pos = self
            .spans
            .partition_point(|s| (s.start_line, s.start_col) <= (line, col));
        let mut cur = pos.checked_sub(1).map(|p| p as u32);
        while let Some(i) = cur {
            let i_us = i as usize;
            if self.spans[i_us].contains_point(line, col) && (self.accept)(self.kinds[i_us]) {
                return Some(i);
            }
            cur = self.parents[i_us];
        }
        None
    }
}
