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

mod declarations;
mod modules;
mod test_frameworks;
mod types;

use crate::names::{js_member_name as member_name, js_string_value as string_value};
use crate::util::{self, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, EdgeKind, FileFacts, ImportFact, ImportKind, Language, NodeKind, Receiver, RefFact,
    Span, SymbolFact, Synthesizer, TestRole, TestRunner, TypeFlavor, UiFramework, Visibility,
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
    DiList,
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

/// Methods registering HTTP route handlers (Express, Koa routers, Fastify shorthands).
const ROUTE_METHODS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "del", "all", "options", "head", "use",
];
/// Methods registering listeners for a named event.
const EVENT_METHODS: &[&str] = &[
    "on",
    "once",
    "addListener",
    "addEventListener",
    "prependListener",
    "prependOnceListener",
];

/// The synthesizer of a call whose argument list is `args`, when the call registers callbacks a
/// framework invokes: `app.get("/users", handler)` (a path first) or `bus.on("ready", handler)`
/// (an event name first).
fn registration(args: Node<'_>, src: &[u8]) -> Option<Synthesizer> {
    let call = args.parent().filter(|p| p.kind() == "call_expression")?;
    let callee = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_expression")?;
    let method = txt(callee.child_by_field_name("property")?, src);
    let first = args
        .named_child(0)
        .filter(|a| a.kind() == "string" || a.kind() == "template_string")?;
    let literal = txt(first, src);
    let text = literal.trim_matches(|c| c == '\'' || c == '"' || c == '`');
    if ROUTE_METHODS.contains(&method.as_str()) && (text.starts_with('/') || text == "*") {
        Some(Synthesizer::HttpRoute)
    } else if EVENT_METHODS.contains(&method.as_str()) && !text.is_empty() {
        Some(Synthesizer::EventHandler)
    } else {
        None
    }
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
        "di_list" => Cap::DiList,
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
    via: Option<Synthesizer>,
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
    /// Where a JSX element opens (line, col), intrinsic ones included: what marks components.
    jsx_sites: Vec<(u32, u32)>,
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
            jsx_sites: Vec::new(),
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
        self.push_ref_via(kind, name, receiver, at, None);
    }

    /// A reference; with `via`, a framework-dispatch reference whose edge that pass synthesizes.
    fn push_ref_via(
        &mut self,
        kind: EdgeKind,
        name: String,
        receiver: Receiver,
        at: Node<'_>,
        via: Option<Synthesizer>,
    ) {
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
            via,
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
            if !seen.insert((r.kind, r.line, r.col, r.name.clone(), r.via)) {
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
                via: r.via,
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
        mark_jsx_components(&mut facts.symbols, &owners, &self.jsx_sites);
        facts.imports = std::mem::take(&mut self.imports);
        facts.test_runner = self.test_runner(&facts.imports);
        facts
    }

    // -----------------------------------------------------------------------------------------
    // Declarations
    // -----------------------------------------------------------------------------------------

    // -----------------------------------------------------------------------------------------
    // Imports and exports
    // -----------------------------------------------------------------------------------------

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
                // A route or event registration hands its callbacks to the framework, which calls them.
                let via = (cap == Cap::Args).then(|| registration(node, src)).flatten();
                let mut cursor = node.walk();
                for arg in node.named_children(&mut cursor) {
                    match arg.kind() {
                        "identifier" => {
                            let name = txt(arg, src);
                            if !self.locals.contains(&name) && name != "undefined" && name != "arguments" {
                                if via.is_some() {
                                    self.push_ref_via(EdgeKind::Calls, name.clone(), Receiver::None, arg, via);
                                }
                                self.push_ref(EdgeKind::References, name, Receiver::None, arg);
                            }
                        }
                        "member_expression" => {
                            let is_this = arg.child_by_field_name("object").is_some_and(|o| o.kind() == "this");
                            if let Some(p) = arg.child_by_field_name("property").filter(|_| is_this) {
                                if let Some(name) = member_name(p, src) {
                                    if via.is_some() {
                                        self.push_ref_via(EdgeKind::Calls, name.clone(), Receiver::SelfRef, p, via);
                                    }
                                    self.push_ref(EdgeKind::References, name, Receiver::SelfRef, p);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Cap::DiList => {
                let key = node
                    .parent()
                    .and_then(|pair| pair.child_by_field_name("key"))
                    .map(|k| txt(k, src));
                if matches!(key.as_deref(), Some("providers" | "controllers" | "declarations")) {
                    let mut cursor = node.walk();
                    for item in node.named_children(&mut cursor) {
                        if item.kind() == "identifier" {
                            let name = txt(item, src);
                            self.push_ref(EdgeKind::References, name.clone(), Receiver::None, item);
                            self.push_ref_via(
                                EdgeKind::Instantiates,
                                name,
                                Receiver::None,
                                item,
                                Some(Synthesizer::DiProvider),
                            );
                        }
                    }
                }
            }
            Cap::Jsx => {
                let p = node.start_position();
                self.jsx_sites.push((p.row as u32 + 1, p.column as u32));
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
                    self.push_ref_via(
                        EdgeKind::Calls,
                        name.clone(),
                        recv.clone(),
                        node,
                        Some(Synthesizer::JsxRender),
                    );
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

/// Marks the declarations that render JSX as React components (`crate::ui` refines the
/// framework from the file's imports): a capitalised function, or a capitalised constant or
/// variable (`memo(…)`, `forwardRef(…)`, an arrow), holding an element; a class whose `render`
/// method holds one. A lower-case function returning markup is a helper or a hook, not a
/// component (the rule React itself uses for `<Name>`).
fn mark_jsx_components(symbols: &mut [SymbolFact], owners: &Enclosing<'_>, sites: &[(u32, u32)]) {
    for &(line, col) in sites {
        let Some(owner) = owners.find(line, col) else { continue };
        let s = &symbols[owner as usize];
        let capitalised = s.name.starts_with(|c: char| c.is_ascii_uppercase());
        let target = match s.kind {
            NodeKind::Function | NodeKind::Constant | NodeKind::Variable if capitalised => Some(owner),
            NodeKind::Method if s.name == "render" => s.parent.filter(|&p| symbols[p as usize].kind == NodeKind::Type),
            _ => None,
        };
        if let Some(t) = target {
            symbols[t as usize].ui.get_or_insert(UiFramework::React);
        }
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
