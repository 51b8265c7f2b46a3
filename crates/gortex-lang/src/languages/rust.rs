//! Rust extractor: queries in `grammars/rust/`, post-processing here.
//!
//! Three query passes (definitions, imports, references) collect nodes; this module turns them
//! into facts. `impl` blocks are not symbols: their methods are owned by the implemented type
//! when it is declared in the same file, otherwise they stay parentless with `type_name` set to
//! the type's name (see `grammars/rust/README.md`). Nothing here recurses on tree depth: use
//! trees, type trees and token trees are walked with explicit stacks, receiver chains with loops.

use super::grammar_query;
use crate::util::{self, EnclosingIndex, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, DocComment, EdgeKind, FileFacts, ImportFact, ImportKind, Language, NodeKind, Receiver,
    RefFact, SymbolFact, TestRole, TestRunner, TypeFlavor, Visibility,
};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCursor};

struct RustExtractor;

struct Queries {
    defs: QuerySet,
    imports: QuerySet,
    refs: QuerySet,
}

fn grammar() -> tree_sitter::Language {
    tree_sitter_rust::LANGUAGE.into()
}

fn queries() -> &'static Queries {
    static Q: OnceLock<Queries> = OnceLock::new();
    Q.get_or_init(|| {
        let g = grammar();
        Queries {
            defs: QuerySet::new(&g, grammar_query!("rust/definitions.scm"), "rust/definitions.scm"),
            imports: QuerySet::new(&g, grammar_query!("rust/imports.scm"), "rust/imports.scm"),
            refs: QuerySet::new(&g, grammar_query!("rust/references.scm"), "rust/references.scm"),
        }
    })
}

impl Extractor for RustExtractor {
    fn language(&self) -> Language {
        Language::Rust
    }
    fn grammar(&self) -> tree_sitter::Language {
        grammar()
    }
    fn compile_queries(&self) {
        queries();
    }
    fn extract(&self, tree: &tree_sitter::Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        let mut x = Extraction::new(source);
        x.definitions(tree);
        x.imports(tree);
        x.references(tree);
        x.finish(ctx)
    }
}

pub(crate) fn extractor() -> &'static dyn Extractor {
    &RustExtractor
}

// ---------------------------------------------------------------------------------------------
// Constants

/// Types that never become refs: std wrappers/collections, `Self`, closure traits and the
/// marker/derive traits that appear in nearly every bound.
const SKIP_TYPES: &[&str] = &[
    "Self",
    "Option",
    "Result",
    "Vec",
    "Box",
    "Arc",
    "Rc",
    "String",
    "str",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "VecDeque",
    "Cow",
    "RefCell",
    "Cell",
    "Mutex",
    "RwLock",
    "Pin",
    "PhantomData",
    "Weak",
    "Fn",
    "FnMut",
    "FnOnce",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Copy",
    "Clone",
    "Debug",
    "Default",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
];

/// Smart pointers that are transparent for method calls (auto-deref).
const DEREF_WRAPPERS: &[&str] = &["Box", "Arc", "Rc"];

/// Callees that are prelude constructors, not user functions.
const SKIP_CALLEES: &[&str] = &["Some", "Ok", "Err"];

/// Method calls peeled when looking for the value a receiver or binding comes from.
const PEEL_METHODS: &[&str] = &[
    "unwrap",
    "expect",
    "clone",
    "as_ref",
    "as_mut",
    "to_owned",
    "unwrap_or_default",
];

/// Macros whose token trees are scanned for `ident(` calls.
const SCANNED_MACROS: &[&str] = &[
    "vec",
    "format",
    "format_args",
    "print",
    "println",
    "eprint",
    "eprintln",
    "write",
    "writeln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "dbg",
    "matches",
    "todo",
    "unimplemented",
    "unreachable",
    "info",
    "debug",
    "warn",
    "error",
    "trace",
    "log",
    "bail",
    "ensure",
    "anyhow",
];

/// Identifiers that look like calls inside token trees but are keywords.
const TOKEN_KEYWORDS: &[&str] = &[
    "if", "while", "match", "for", "loop", "return", "in", "fn", "let", "as", "move", "async", "await", "else", "impl",
    "where", "unsafe", "dyn", "ref", "mut", "pub", "struct", "enum", "type", "trait", "use", "mod", "const", "static",
    "break", "continue", "Some", "Ok", "Err",
];

/// `use` trees nested deeper than this are ignored.
const MAX_USE_DEPTH: usize = 32;

/// Upper bound on ancestors visited by parent walks (pathological nesting stays linear).
const MAX_ANCESTORS: usize = 512;

// ---------------------------------------------------------------------------------------------
// Working state

/// Who a ref comes from, decided after symbols are nested.
#[derive(Clone, Copy)]
enum Origin {
    /// The innermost symbol enclosing the ref's position.
    Pos,
    /// A symbol by its pre-nesting index.
    Sym(usize),
    /// An `impl` header: the implemented type when declared in this file, else by position.
    ImplHeader(usize),
    /// `impl Trait for Foo`: from Foo's symbol, or from `None` with receiver `Name("Foo")`.
    Implements(usize),
}

struct PendingRef {
    kind: EdgeKind,
    name: String,
    receiver: Receiver,
    line: u32,
    col: u32,
    origin: Origin,
}

struct PendingBinding {
    name: String,
    value: BindingValue,
    line: u32,
    col: u32,
    /// Module-level constants/statics bind in module scope.
    module_scope: bool,
}

/// An `impl` block: the implemented type's simple name and its scope key.
struct ImplInfo {
    owner: Option<String>,
    scope: usize,
    owner_sym: Option<usize>,
}

struct Extraction<'s, 't> {
    src: &'s [u8],
    /// Type trees whose refs are emitted once every generic parameter name is known.
    deferred_types: Vec<(Node<'t>, EdgeKind, Origin)>,
    /// Generic parameter names declared anywhere in the file.
    generics: HashSet<String>,
    /// Names of type-like declarations in the file.
    type_names: HashSet<String>,
    symbols: Vec<SymbolFact>,
    /// Pre-nesting symbol index -> impl node id, for methods/consts declared in `impl` blocks.
    impl_members: Vec<(usize, usize)>,
    impls: HashMap<usize, ImplInfo>,
    /// Type-like symbols by name: (name, scope key, index).
    types: Vec<(String, usize, usize)>,
    imports: Vec<ImportFact>,
    refs: Vec<PendingRef>,
    bindings: Vec<PendingBinding>,
}

fn node_text(node: Node<'_>, src: &[u8]) -> String {
    util::text(node, src).into_owned()
}

fn pos(node: Node<'_>) -> (u32, u32) {
    let p = node.start_position();
    (p.row as u32 + 1, p.column as u32)
}

impl<'s, 't> Extraction<'s, 't> {
    fn new(src: &'s [u8]) -> Self {
        Extraction {
            src,
            deferred_types: Vec::new(),
            generics: HashSet::new(),
            type_names: HashSet::new(),
            symbols: Vec::new(),
            impl_members: Vec::new(),
            impls: HashMap::new(),
            types: Vec::new(),
            imports: Vec::new(),
            refs: Vec::new(),
            bindings: Vec::new(),
        }
    }

    fn text(&self, node: Node<'t>) -> String {
        node_text(node, self.src)
    }

    /// `name` is a generic parameter in scope at `node`. Only names declared as generic
    /// parameters somewhere in the file *and* as types in it need the (ancestor) check.
    fn is_generic(&self, name: &str, node: Node<'t>) -> bool {
        if !self.generics.contains(name) {
            return false;
        }
        if !self.type_names.contains(name) {
            return true;
        }
        generic_names(node, self.src).contains(name)
    }

    fn push_ref(&mut self, kind: EdgeKind, name: String, receiver: Receiver, at: Node<'t>, origin: Origin) {
        let (line, col) = pos(at);
        self.refs.push(PendingRef {
            kind,
            name,
            receiver,
            line,
            col,
            origin,
        });
    }

    // -----------------------------------------------------------------------------------------
    // Definitions

    fn definitions(&mut self, tree: &'t tree_sitter::Tree) {
        let qs = &queries().defs;
        let name_cap = qs.capture("name");
        let mut cursor = QueryCursor::new();
        let mut matches = crate::budget::matches(&mut cursor, &qs.query, tree.root_node(), self.src);
        while let Some(m) = matches.next() {
            let mut decl = None;
            let mut name = None;
            for c in m.captures {
                if Some(c.index) == name_cap {
                    name = Some(c.node);
                } else {
                    decl = Some((qs.capture_name(c.index), c.node));
                }
            }
            let (Some((what, node)), Some(name)) = (decl, name) else {
                continue;
            };
            if what == "generic" {
                let g = self.text(node);
                self.generics.insert(g);
                continue;
            }
            match what {
                "def.function" => self.function(node, name),
                "def.struct" => self.type_decl(node, name, NodeKind::Type, Some(TypeFlavor::Struct)),
                "def.enum" => self.type_decl(node, name, NodeKind::Type, Some(TypeFlavor::Enum)),
                "def.union" => self.type_decl(node, name, NodeKind::Type, Some(TypeFlavor::Union)),
                "def.trait" => self.type_decl(node, name, NodeKind::Interface, None),
                "def.type_alias" => self.type_alias(node, name),
                "def.const" => self.value_item(node, name, NodeKind::Constant),
                "def.static" => self.value_item(node, name, NodeKind::Variable),
                "def.module" => self.module(node, name),
                "def.macro" => self.macro_def(node, name),
                "def.field" => self.field(node, name),
                "def.variant" => self.variant(node, name),
                "def.impl" => self.impl_block(node),
                _ => {}
            }
        }
        self.flush_type_refs();
    }

    /// Starts a symbol with the common attributes: span, visibility, doc, decorators.
    fn base_symbol(&self, node: Node<'t>, name: Node<'t>, kind: NodeKind) -> SymbolFact {
        let mut sym = SymbolFact::new(self.text(name), kind, util::span(node));
        let (vis, exported) = visibility_of(node, self.src);
        sym.visibility = Some(vis);
        sym.exported = exported;
        let (doc, decorators) = doc_and_attributes(node, self.src);
        sym.set_doc(doc);
        sym.decorators = decorators;
        sym
    }

    fn add_symbol(&mut self, sym: SymbolFact) -> usize {
        self.symbols.push(sym);
        self.symbols.len() - 1
    }

    /// The `impl` or `trait` whose body holds `node`, if `node` is an associated item.
    fn container(node: Node<'t>) -> Option<Node<'t>> {
        let list = node.parent()?;
        if list.kind() != "declaration_list" {
            return None;
        }
        let owner = list.parent()?;
        matches!(owner.kind(), "impl_item" | "trait_item" | "foreign_mod_item").then_some(owner)
    }

    fn impl_info(&mut self, impl_node: Node<'t>) -> usize {
        let id = impl_node.id();
        if !self.impls.contains_key(&id) {
            let owner = impl_owner_name(impl_node, self.src);
            let info = ImplInfo {
                owner,
                scope: scope_key(impl_node),
                owner_sym: None,
            };
            self.impls.insert(id, info);
        }
        id
    }

    fn function(&mut self, node: Node<'t>, name: Node<'t>) {
        let container = Self::container(node);
        let container_kind = container.map(|c| c.kind());
        let is_method = matches!(container_kind, Some("impl_item" | "trait_item"));
        let kind = if is_method {
            NodeKind::Method
        } else {
            NodeKind::Function
        };
        let mut sym = self.base_symbol(node, name, kind);
        let body = node.child_by_field_name("body");
        sym.signature = Some(util::signature(node, body, self.src));
        if let Some(mods) = child_of_kind(node, "function_modifiers") {
            let mut c = mods.walk();
            sym.is_async = mods.children(&mut c).any(|m| m.kind() == "async");
        }
        let params = node.child_by_field_name("parameters");
        if is_method {
            let has_self = params.is_some_and(|p| child_of_kind(p, "self_parameter").is_some());
            sym.is_static = !has_self;
        }
        let owner_name = container.and_then(|c| match c.kind() {
            "impl_item" => impl_owner_name(c, self.src),
            "trait_item" => c.child_by_field_name("name").map(|n| self.text(n)),
            _ => None,
        });
        match container {
            Some(c) if c.kind() == "trait_item" => {
                sym.is_abstract = node.kind() == "function_signature_item";
                let (vis, exported) = visibility_of(c, self.src);
                sym.visibility = Some(vis);
                sym.exported = exported;
            }
            Some(c) if c.kind() == "impl_item" && c.child_by_field_name("trait").is_some() => {
                // Trait impl methods are as visible as the trait; they carry no modifier.
                sym.visibility = Some(Visibility::Public);
                sym.exported = true;
            }
            _ => {}
        }
        let return_node = node.child_by_field_name("return_type");
        if let Some(rt) = return_node {
            sym.return_type = type_simple_name(rt, owner_name.as_deref(), true, self.src);
        }
        sym.test_role = test_role(&sym.decorators);
        let idx = self.add_symbol(sym);
        if let Some(c) = container {
            if c.kind() == "impl_item" {
                let impl_id = self.impl_info(c);
                self.impl_members.push((idx, impl_id));
            }
        }
        if let Some(rt) = return_node {
            self.type_refs(rt, EdgeKind::Returns, Origin::Sym(idx));
        }
    }

    fn type_decl(&mut self, node: Node<'t>, name: Node<'t>, kind: NodeKind, flavor: Option<TypeFlavor>) {
        let mut sym = self.base_symbol(node, name, kind);
        sym.flavor = flavor;
        let body = node.child_by_field_name("body");
        let head_end = body.filter(|b| b.kind() != "ordered_field_declaration_list");
        sym.signature = Some(util::signature(node, head_end, self.src));
        let sym_name = sym.name.clone();
        let idx = self.add_symbol(sym);
        self.type_names.insert(sym_name.clone());
        self.types.push((sym_name, scope_key(node), idx));
        if let Some(b) = body.filter(|b| b.kind() == "ordered_field_declaration_list") {
            self.type_refs(b, EdgeKind::TypedAs, Origin::Sym(idx));
        }
    }

    fn type_alias(&mut self, node: Node<'t>, name: Node<'t>) {
        // `type Output = Foo;` inside impls and traits are associated types, not declarations.
        if Self::container(node).is_some() {
            return;
        }
        let mut sym = self.base_symbol(node, name, NodeKind::Type);
        sym.flavor = Some(TypeFlavor::TypeAlias);
        sym.signature = Some(util::signature(node, None, self.src));
        let sym_name = sym.name.clone();
        let idx = self.add_symbol(sym);
        self.type_names.insert(sym_name.clone());
        self.types.push((sym_name, scope_key(node), idx));
        if let Some(t) = node.child_by_field_name("type") {
            self.type_refs(t, EdgeKind::References, Origin::Sym(idx));
        }
    }

    fn value_item(&mut self, node: Node<'t>, name: Node<'t>, kind: NodeKind) {
        let container = Self::container(node);
        let mut sym = self.base_symbol(node, name, kind);
        let value = node.child_by_field_name("value");
        let mut sig = util::signature(node, value, self.src);
        while sig.ends_with('=') || sig.ends_with(';') {
            sig.pop();
            sig = sig.trim_end().to_string();
        }
        sym.signature = Some(sig);
        if let Some(c) = container.filter(|c| c.kind() == "trait_item") {
            let (vis, exported) = visibility_of(c, self.src);
            sym.visibility = Some(vis);
            sym.exported = exported;
        }
        let owner_name = container
            .filter(|c| c.kind() == "impl_item")
            .and_then(|c| impl_owner_name(c, self.src));
        let ty = node.child_by_field_name("type");
        if let Some(t) = ty {
            sym.type_name = type_simple_name(t, owner_name.as_deref(), false, self.src);
        }
        let binding_type = ty.and_then(|t| binding_type_name(t, owner_name.as_deref(), self.src));
        let sym_name = sym.name.clone();
        let idx = self.add_symbol(sym);
        if let Some(c) = container.filter(|c| c.kind() == "impl_item") {
            let impl_id = self.impl_info(c);
            self.impl_members.push((idx, impl_id));
        }
        if let Some(t) = ty {
            self.type_refs(t, EdgeKind::TypedAs, Origin::Sym(idx));
        }
        if let (Some(type_name), None) = (binding_type, container) {
            let (line, col) = pos(name);
            self.bindings.push(PendingBinding {
                name: sym_name,
                value: BindingValue::Type { name: type_name },
                line,
                col,
                module_scope: !inside_function(node),
            });
        }
    }

    fn module(&mut self, node: Node<'t>, name: Node<'t>) {
        let mut sym = self.base_symbol(node, name, NodeKind::Module);
        let body = node.child_by_field_name("body");
        sym.signature = Some(util::signature(node, body, self.src));
        if sym.doc.is_none() {
            sym.set_doc(body.and_then(|b| inner_doc(b, self.src)));
        }
        self.add_symbol(sym);
    }

    fn macro_def(&mut self, node: Node<'t>, name: Node<'t>) {
        let mut sym = self.base_symbol(node, name, NodeKind::Function);
        let exported = sym.decorators.iter().any(|d| d == "macro_export");
        sym.exported = exported;
        sym.visibility = Some(if exported {
            Visibility::Public
        } else {
            Visibility::Private
        });
        sym.signature = Some(format!("macro_rules! {}", sym.name));
        self.add_symbol(sym);
    }

    fn field(&mut self, node: Node<'t>, name: Node<'t>) {
        // Fields of struct-like enum variants are not symbols; their types are refs of the variant.
        let owner = node.parent().and_then(|l| l.parent());
        if owner.is_some_and(|o| o.kind() == "enum_variant") {
            return;
        }
        let owner_name = owner.and_then(|o| o.child_by_field_name("name")).map(|n| self.text(n));
        let mut sym = self.base_symbol(node, name, NodeKind::Field);
        sym.signature = Some(util::signature(node, None, self.src));
        let ty = node.child_by_field_name("type");
        if let Some(t) = ty {
            sym.type_name = type_simple_name(t, owner_name.as_deref(), false, self.src);
        }
        let idx = self.add_symbol(sym);
        if let Some(t) = ty {
            self.type_refs(t, EdgeKind::TypedAs, Origin::Sym(idx));
        }
    }

    fn variant(&mut self, node: Node<'t>, name: Node<'t>) {
        let mut sym = self.base_symbol(node, name, NodeKind::EnumMember);
        let enum_node = node.parent().and_then(|l| l.parent());
        if let Some(e) = enum_node {
            let (vis, exported) = visibility_of(e, self.src);
            sym.visibility = Some(vis);
            sym.exported = exported;
        }
        let body = node.child_by_field_name("body");
        let head_end = body.filter(|b| b.kind() == "field_declaration_list");
        sym.signature = Some(util::signature(node, head_end, self.src));
        let idx = self.add_symbol(sym);
        if let Some(b) = body {
            self.type_refs(b, EdgeKind::TypedAs, Origin::Sym(idx));
        }
    }

    fn impl_block(&mut self, node: Node<'t>) {
        let impl_id = self.impl_info(node);
        let Some(trait_node) = node.child_by_field_name("trait") else {
            return;
        };
        let Some(segs) = path_segments(trait_node, self.src) else {
            return;
        };
        let Some(trait_name) = segs.last().cloned() else {
            return;
        };
        self.push_ref(
            EdgeKind::Implements,
            trait_name,
            Receiver::None,
            trait_node,
            Origin::Implements(impl_id),
        );
        // `impl From<Bar> for Foo`: the trait's type arguments are references of Foo.
        let args = (trait_node.kind() == "generic_type").then(|| trait_node.child_by_field_name("type_arguments"));
        if let Some(a) = args.flatten() {
            self.type_refs(a, EdgeKind::References, Origin::ImplHeader(impl_id));
        }
    }

    // -----------------------------------------------------------------------------------------
    // Imports

    fn imports(&mut self, tree: &'t tree_sitter::Tree) {
        let qs = &queries().imports;
        let mut cursor = QueryCursor::new();
        let mut matches = crate::budget::matches(&mut cursor, &qs.query, tree.root_node(), self.src);
        while let Some(m) = matches.next() {
            let mut decl = None;
            let mut arg = None;
            for c in m.captures {
                match qs.capture_name(c.index) {
                    "import.use" | "import.extern_crate" => decl = Some(c.node),
                    _ => arg = Some(c.node),
                }
            }
            let (Some(decl), Some(arg)) = (decl, arg) else {
                continue;
            };
            if decl.kind() == "extern_crate_declaration" {
                let module = self.text(arg);
                let local = decl
                    .child_by_field_name("alias")
                    .map(|a| self.text(a))
                    .unwrap_or_else(|| module.clone());
                self.imports.push(ImportFact {
                    module,
                    kind: ImportKind::Module,
                    name: None,
                    local: (local != "_").then_some(local),
                    reexport: child_of_kind(decl, "visibility_modifier").is_some(),
                    type_only: false,
                    line: util::line(decl),
                });
            } else {
                let reexport = child_of_kind(decl, "visibility_modifier").is_some();
                self.use_tree(arg, reexport);
            }
        }
    }

    /// Flattens a `use` tree into one import per bound name.
    fn use_tree(&mut self, root: Node<'t>, reexport: bool) {
        let mut stack: Vec<(Node<'t>, Vec<String>)> = vec![(root, Vec::new())];
        while let Some((node, prefix)) = stack.pop() {
            if prefix.len() > MAX_USE_DEPTH {
                continue;
            }
            match node.kind() {
                "use_list" => {
                    let mut c = node.walk();
                    let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                    for ch in children.into_iter().rev() {
                        stack.push((ch, prefix.clone()));
                    }
                }
                "scoped_use_list" => {
                    let mut full = prefix.clone();
                    if let Some(p) = node.child_by_field_name("path") {
                        match path_segments(p, self.src) {
                            Some(segs) => full.extend(segs),
                            None => continue,
                        }
                    }
                    if let Some(list) = node.child_by_field_name("list") {
                        stack.push((list, full));
                    }
                }
                "use_as_clause" => {
                    let Some(p) = node.child_by_field_name("path") else {
                        continue;
                    };
                    let Some(segs) = path_segments(p, self.src) else {
                        continue;
                    };
                    let mut full = prefix;
                    full.extend(segs);
                    let alias = node.child_by_field_name("alias").map(|a| self.text(a));
                    self.emit_use(full, alias, node, reexport);
                }
                "use_wildcard" => {
                    let mut full = prefix;
                    if let Some(p) = node.named_child(0) {
                        match path_segments(p, self.src) {
                            Some(segs) => full.extend(segs),
                            None => continue,
                        }
                    }
                    if full.is_empty() {
                        continue;
                    }
                    self.imports.push(ImportFact {
                        module: full.join("::"),
                        kind: ImportKind::Wildcard,
                        name: None,
                        local: None,
                        reexport,
                        type_only: false,
                        line: util::line(node),
                    });
                }
                "identifier" | "self" | "super" | "crate" | "scoped_identifier" => {
                    let Some(segs) = path_segments(node, self.src) else {
                        continue;
                    };
                    let mut full = prefix;
                    full.extend(segs);
                    self.emit_use(full, None, node, reexport);
                }
                _ => {}
            }
        }
    }

    fn emit_use(&mut self, mut full: Vec<String>, alias: Option<String>, at: Node<'t>, reexport: bool) {
        // `use a::b::{self}` binds the module `a::b` itself.
        if full.len() > 1 && full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        let Some(last) = full.pop() else { return };
        let local = match alias {
            Some(a) if a == "_" => None,
            Some(a) => Some(a),
            None => Some(last.clone()),
        };
        let (module, kind, name) = if full.is_empty() {
            (last, ImportKind::Module, None)
        } else {
            (full.join("::"), ImportKind::Named, Some(last))
        };
        self.imports.push(ImportFact {
            module,
            kind,
            name,
            local,
            reexport,
            type_only: false,
            line: util::line(at),
        });
    }

    // -----------------------------------------------------------------------------------------
    // References and bindings

    fn references(&mut self, tree: &'t tree_sitter::Tree) {
        let qs = &queries().refs;
        let mut cursor = QueryCursor::new();
        let mut matches = crate::budget::matches(&mut cursor, &qs.query, tree.root_node(), self.src);
        while let Some(m) = matches.next() {
            let mut caps: [Option<Node<'t>>; 4] = [None; 4];
            let mut what = "";
            for c in m.captures {
                let name = qs.capture_name(c.index);
                match name {
                    "ref.callee" | "ref.struct_name" | "ref.macro_name" => caps[1] = Some(c.node),
                    "ref.macro_tokens" | "ref.args" => caps[2] = Some(c.node),
                    _ => {
                        what = name;
                        caps[0] = Some(c.node);
                    }
                }
            }
            let Some(node) = caps[0] else { continue };
            match what {
                "ref.call" => {
                    if let Some(callee) = caps[1] {
                        self.call(callee, caps[2]);
                    }
                }
                "ref.struct" => {
                    if let Some(name) = caps[1] {
                        self.struct_literal(name);
                    }
                }
                "ref.macro" => {
                    if let (Some(name), Some(tokens)) = (caps[1], caps[2]) {
                        self.macro_call(name, tokens);
                    }
                }
                "ref.bounds" => self.bounds(node),
                "ref.param" => self.parameter(node),
                "ref.let" => self.let_decl(node),
                _ => {}
            }
        }
        self.flush_type_refs();
    }

    fn call(&mut self, callee: Node<'t>, args: Option<Node<'t>>) {
        if let Some((name, receiver, at)) = callee_parts(callee, self.src) {
            if !(matches!(receiver, Receiver::None) && SKIP_CALLEES.contains(&name.as_str())) {
                self.push_ref(EdgeKind::Calls, name, receiver, at, Origin::Pos);
            }
        }
        // Paths passed as values: `map(Foo::from)`, `spawn(worker::run)`.
        if let Some(args) = args {
            let mut c = args.walk();
            let paths: Vec<Node<'t>> = args
                .named_children(&mut c)
                .filter(|a| a.kind() == "scoped_identifier")
                .collect();
            for p in paths {
                self.fn_value(p);
            }
        }
    }

    fn struct_literal(&mut self, name_node: Node<'t>) {
        let mut n = name_node;
        if n.kind() == "generic_type_with_turbofish" {
            match n.child_by_field_name("type") {
                Some(t) => n = t,
                None => return,
            }
        }
        let Some(mut segs) = path_segments(n, self.src) else {
            return;
        };
        let Some(mut name) = segs.pop() else { return };
        if name == "Self" && segs.is_empty() {
            match enclosing_impl_owner(name_node, self.src) {
                Some(owner) => name = owner,
                None => return,
            }
        }
        let receiver = receiver_from_path(segs);
        self.push_ref(EdgeKind::Instantiates, name, receiver, name_node, Origin::Pos);
    }

    fn macro_call(&mut self, name_node: Node<'t>, tokens: Node<'t>) {
        let Some(segs) = path_segments(name_node, self.src) else {
            return;
        };
        let Some(last) = segs.last() else { return };
        if !SCANNED_MACROS.contains(&last.as_str()) {
            return;
        }
        let mut stack = vec![tokens];
        let mut budget = 100_000usize;
        while let Some(tree) = stack.pop() {
            let mut c = tree.walk();
            let children: Vec<Node<'t>> = tree.children(&mut c).collect();
            for (i, ch) in children.iter().enumerate() {
                budget = budget.saturating_sub(1);
                if budget == 0 {
                    return;
                }
                if ch.kind() == "token_tree" {
                    stack.push(*ch);
                    continue;
                }
                if ch.kind() != "identifier" {
                    continue;
                }
                let Some(next) = children.get(i + 1) else {
                    continue;
                };
                if next.kind() != "token_tree" || next.child(0).is_none_or(|o| o.kind() != "(") {
                    continue;
                }
                let name = self.text(*ch);
                if TOKEN_KEYWORDS.contains(&name.as_str()) {
                    continue;
                }
                let prev = |k: usize| if i >= k { children.get(i - k) } else { None };
                if prev(1).is_some_and(|p| p.kind() == "identifier" && TOKEN_KEYWORDS.contains(&&*self.text(*p))) {
                    continue; // `fn name(` inside a macro body
                }
                let receiver = match prev(1).map(|p| p.kind()) {
                    Some(".") => match (prev(2), prev(3), prev(4)) {
                        (Some(a), Some(dot), Some(base)) if dot.kind() == "." && a.kind() == "identifier" => {
                            if base.kind() == "self" {
                                Receiver::SelfField(self.text(*a))
                            } else {
                                Receiver::Expr
                            }
                        }
                        (Some(a), Some(f), _) if a.kind() == "token_tree" && f.kind() == "identifier" => {
                            Receiver::Call(self.text(*f))
                        }
                        (Some(a), _, _) if a.kind() == "self" => Receiver::SelfRef,
                        (Some(a), _, _) if a.kind() == "identifier" => Receiver::Name(self.text(*a)),
                        _ => Receiver::Expr,
                    },
                    Some("::") => {
                        let mut segs = Vec::new();
                        let mut k = 2;
                        while let Some(seg) = prev(k) {
                            if !matches!(seg.kind(), "identifier" | "self" | "super" | "crate") {
                                break;
                            }
                            segs.push(self.text(*seg));
                            if prev(k + 1).is_some_and(|s| s.kind() == "::") && segs.len() < 16 {
                                k += 2;
                            } else {
                                break;
                            }
                        }
                        segs.reverse();
                        if segs.len() == 1 && segs[0] == "Self" {
                            Receiver::SelfRef
                        } else if segs.is_empty() {
                            Receiver::Expr
                        } else {
                            receiver_from_path(segs)
                        }
                    }
                    _ => Receiver::None,
                };
                self.push_ref(EdgeKind::Calls, name, receiver, *ch, Origin::Pos);
            }
        }
    }

    fn bounds(&mut self, node: Node<'t>) {
        let parent = node.parent();
        let parent_kind = parent.map(|p| p.kind()).unwrap_or("");
        let kind = if parent_kind == "trait_item" {
            EdgeKind::Extends
        } else {
            EdgeKind::References
        };
        // Bounds in an impl header (`impl<T: X> .. where T: Y`) belong to the implemented type.
        let mut origin = Origin::Pos;
        if matches!(parent_kind, "type_parameter" | "where_predicate") {
            if let Some(item) = parent.and_then(|p| p.parent()).and_then(|p| p.parent()) {
                if item.kind() == "impl_item" {
                    origin = Origin::ImplHeader(self.impl_info(item));
                }
            }
        }
        self.type_refs(node, kind, origin);
    }

    fn parameter(&mut self, node: Node<'t>) {
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        self.type_refs(ty, EdgeKind::TypedAs, Origin::Pos);
        let Some(pattern) = node.child_by_field_name("pattern") else {
            return;
        };
        if pattern.kind() != "identifier" {
            return;
        }
        if let Some(t) = binding_type_name(ty, Some("Self"), self.src)
            .and_then(|t| resolve_self(t, node, self.src))
            .filter(|t| !self.is_generic(t, node))
        {
            let (line, col) = pos(pattern);
            let name = self.text(pattern);
            self.bindings.push(PendingBinding {
                name,
                value: BindingValue::Type { name: t },
                line,
                col,
                module_scope: false,
            });
        }
    }

    fn let_decl(&mut self, node: Node<'t>) {
        let ty = node.child_by_field_name("type");
        if let Some(t) = ty {
            self.type_refs(t, EdgeKind::TypedAs, Origin::Pos);
        }
        let Some(pattern) = node.child_by_field_name("pattern") else {
            return;
        };
        if pattern.kind() != "identifier" {
            return;
        }
        let value = match ty {
            Some(t) => binding_type_name(t, Some("Self"), self.src)
                .and_then(|t| resolve_self(t, node, self.src))
                .filter(|name| !self.is_generic(name, node))
                .map(|name| BindingValue::Type { name }),
            None => node.child_by_field_name("value").and_then(|v| self.value_binding(v)),
        };
        if let Some(value) = value {
            let (line, col) = pos(pattern);
            let name = self.text(pattern);
            self.bindings.push(PendingBinding {
                name,
                value,
                line,
                col,
                module_scope: false,
            });
        }
    }

    /// What `let x = <value>` tells about `x`.
    fn value_binding(&self, value: Node<'t>) -> Option<BindingValue> {
        let v = peel_value(value, self.src);
        match v.kind() {
            "struct_expression" => {
                let mut name_node = v.child_by_field_name("name")?;
                if name_node.kind() == "generic_type_with_turbofish" {
                    name_node = name_node.child_by_field_name("type")?;
                }
                let mut name = path_segments(name_node, self.src)?.pop()?;
                if name == "Self" {
                    name = enclosing_impl_owner(v, self.src)?;
                }
                Some(BindingValue::Type { name })
            }
            "call_expression" => {
                let callee = v.child_by_field_name("function")?;
                let (name, receiver, _) = callee_parts(callee, self.src)?;
                if matches!(receiver, Receiver::None) && starts_upper(&name) {
                    if SKIP_CALLEES.contains(&name.as_str()) {
                        return None;
                    }
                    return Some(BindingValue::Type { name }); // tuple-struct constructor
                }
                Some(BindingValue::Call { receiver, name })
            }
            _ => None,
        }
    }

    fn fn_value(&mut self, node: Node<'t>) {
        let Some(mut segs) = path_segments(node, self.src) else {
            return;
        };
        let Some(name) = segs.pop() else { return };
        if segs.is_empty() || starts_upper(&name) {
            return;
        }
        let receiver = if segs.len() == 1 && segs[0] == "Self" {
            Receiver::SelfRef
        } else {
            receiver_from_path(segs)
        };
        let at = node.child_by_field_name("name").unwrap_or(node);
        self.push_ref(EdgeKind::References, name, receiver, at, Origin::Pos);
    }

    /// Emits one ref per named type inside `root` (std wrappers, primitives, `Self` and generic
    /// parameters skipped).
    fn type_refs(&mut self, root: Node<'t>, kind: EdgeKind, origin: Origin) {
        self.deferred_types.push((root, kind, origin));
    }

    fn flush_type_refs(&mut self) {
        let pending = std::mem::take(&mut self.deferred_types);
        for (root, kind, origin) in pending {
            self.emit_type_refs(root, kind, origin);
        }
    }

    fn emit_type_refs(&mut self, root: Node<'t>, kind: EdgeKind, origin: Origin) {
        let mut found: Vec<(String, Receiver, Node<'t>)> = Vec::new();
        let mut stack = vec![root];
        let mut budget = 10_000usize;
        while let Some(n) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            match n.kind() {
                "type_identifier" => found.push((self.text(n), Receiver::None, n)),
                "scoped_type_identifier" | "scoped_identifier" => {
                    if let Some(mut segs) = path_segments(n, self.src) {
                        if let Some(name) = segs.pop() {
                            let at = n.child_by_field_name("name").unwrap_or(n);
                            found.push((name, receiver_from_path(segs), at));
                        }
                    }
                }
                "lifetime" | "primitive_type" | "macro_invocation" | "line_comment" | "block_comment" => {}
                "type_binding" => {
                    for f in ["type_arguments", "type"] {
                        if let Some(c) = n.child_by_field_name(f) {
                            stack.push(c);
                        }
                    }
                }
                "generic_type" | "generic_type_with_turbofish" => {
                    if let Some(a) = n.child_by_field_name("type_arguments") {
                        stack.push(a);
                    }
                    if let Some(t) = n.child_by_field_name("type") {
                        stack.push(t);
                    }
                }
                "array_type" => {
                    if let Some(e) = n.child_by_field_name("element") {
                        stack.push(e);
                    }
                }
                _ => {
                    let mut c = n.walk();
                    let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
                    stack.extend(children.into_iter().rev());
                }
            }
        }
        found.retain(|(name, _, _)| !SKIP_TYPES.contains(&name.as_str()));
        if found.is_empty() {
            return;
        }
        for (name, receiver, at) in found {
            if matches!(receiver, Receiver::None) && self.is_generic(&name, root) {
                continue;
            }
            self.push_ref(kind, name, receiver, at, origin);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Assembly

    fn finish(mut self, ctx: &FileContext<'_>) -> FileFacts {
        // Resolve impl owners to type symbols declared in this file (same scope preferred).
        for info in self.impls.values_mut() {
            let Some(owner) = info.owner.as_deref() else {
                continue;
            };
            let mut best = None;
            for (name, scope, idx) in &self.types {
                if name == owner {
                    if *scope == info.scope {
                        best = Some(*idx);
                        break;
                    }
                    best.get_or_insert(*idx);
                }
            }
            info.owner_sym = best;
        }
        // Explicit parents for impl members whose owner is declared here.
        let mut member_owner: Vec<(usize, Option<usize>, Option<String>)> = Vec::new();
        for &(idx, impl_id) in &self.impl_members {
            let Some(info) = self.impls.get(&impl_id) else {
                continue;
            };
            if let Some(o) = info.owner_sym {
                self.symbols[idx].parent = Some(o as u32);
            }
            member_owner.push((idx, info.owner_sym, info.owner.clone()));
        }
        let new_index = util::nest_symbols(&mut self.symbols);
        let mut symbols = self.symbols;
        for (old, owner_sym, owner_name) in member_owner {
            let i = new_index[old] as usize;
            let expected = owner_sym.map(|o| new_index[o]);
            if expected.is_none() || symbols[i].parent != expected {
                // Owner not in this file (or declared after the impl): parentless, named by type_name.
                symbols[i].parent = None;
                if symbols[i].kind == NodeKind::Method {
                    symbols[i].type_name = owner_name;
                }
            }
        }

        let index = EnclosingIndex::new(&symbols, EnclosingIndex::code_owners);
        let scopes = EnclosingIndex::new(&symbols, |k| matches!(k, NodeKind::Function | NodeKind::Method));
        let mut refs = Vec::with_capacity(self.refs.len());
        for r in self.refs {
            let (from, receiver) = match r.origin {
                Origin::Pos => (index.find(r.line, r.col), r.receiver),
                Origin::Sym(s) => (Some(new_index[s]), r.receiver),
                Origin::ImplHeader(id) => match self.impls.get(&id).and_then(|i| i.owner_sym) {
                    Some(o) => (Some(new_index[o]), r.receiver),
                    None => (index.find(r.line, r.col), r.receiver),
                },
                Origin::Implements(id) => match self.impls.get(&id) {
                    Some(ImplInfo { owner_sym: Some(o), .. }) => (Some(new_index[*o]), Receiver::None),
                    Some(ImplInfo { owner: Some(name), .. }) => (None, Receiver::Name(name.clone())),
                    _ => (None, Receiver::None),
                },
            };
            refs.push(RefFact {
                kind: r.kind,
                from,
                name: r.name,
                receiver,
                line: r.line,
                col: r.col,
                via: None,
            });
        }
        let bindings = self
            .bindings
            .into_iter()
            .map(|b| BindingFact {
                scope: if b.module_scope {
                    None
                } else {
                    scopes.find(b.line, b.col)
                },
                name: b.name,
                value: b.value,
                line: b.line,
            })
            .collect();

        let under_tests = ctx.path.starts_with("tests/") || ctx.path.contains("/tests/");
        let has_tests = symbols.iter().any(|s| s.test_role.is_some());
        FileFacts {
            package: None,
            symbols,
            imports: self.imports,
            refs,
            bindings,
            test_runner: (has_tests || under_tests).then_some(TestRunner::CargoTest),
            syntax_errors: 0,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Node helpers (all loops, no recursion)

fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = node.walk();
    let found = node.children(&mut c).find(|ch| ch.kind() == kind);
    found
}

fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_uppercase())
}

/// `pub` → Public/exported; `pub(crate)`, `pub(super)`, `pub(in ..)` → Package; otherwise Private.
fn visibility_of(node: Node<'_>, src: &[u8]) -> (Visibility, bool) {
    let Some(v) = child_of_kind(node, "visibility_modifier") else {
        return (Visibility::Private, false);
    };
    let t = util::collapse_whitespace(&util::text(v, src)).replace(' ', "");
    if t == "pub" {
        (Visibility::Public, true)
    } else if t == "pub(self)" {
        (Visibility::Private, false)
    } else {
        (Visibility::Package, false)
    }
}

fn is_outer_doc(text: &str) -> bool {
    (text.starts_with("///") && !text.starts_with("////"))
        || (text.starts_with("/**") && !text.starts_with("/***") && !text.starts_with("/**/"))
}

fn is_inner_doc(text: &str) -> bool {
    text.starts_with("//!") || text.starts_with("/*!")
}

/// The outer doc comments (`///`, `/** */`) and attributes written above a declaration.
/// `#[doc = ..]` is skipped; `#[derive(..)]` is recorded as `derive`.
fn doc_and_attributes(node: Node<'_>, src: &[u8]) -> (Option<DocComment>, Vec<String>) {
    let mut docs: Vec<String> = Vec::new();
    let mut attrs: Vec<String> = Vec::new();
    let mut cur = node.prev_sibling();
    while let Some(sib) = cur {
        match sib.kind() {
            "attribute_item" => {
                let path = sib.named_child(0).and_then(|a| a.named_child(0));
                if let Some(p) = path {
                    let name = util::collapse_whitespace(&util::text(p, src)).replace(' ', "");
                    if name != "doc" {
                        attrs.push(name);
                    }
                }
            }
            "line_comment" | "block_comment" => {
                let t = util::text(sib, src);
                if is_outer_doc(&t) {
                    docs.push(t.into_owned());
                }
            }
            _ => break,
        }
        cur = sib.prev_sibling();
    }
    docs.reverse();
    attrs.reverse();
    let doc = if docs.is_empty() {
        None
    } else {
        util::doc_comment(&docs.join("\n"))
    };
    (doc, attrs)
}

/// `//!` doc comments at the top of an inline module body.
fn inner_doc(body: Node<'_>, src: &[u8]) -> Option<DocComment> {
    let mut docs = Vec::new();
    let mut c = body.walk();
    for ch in body.named_children(&mut c) {
        if !matches!(ch.kind(), "line_comment" | "block_comment") {
            break;
        }
        let t = util::text(ch, src);
        if is_inner_doc(&t) {
            docs.push(t.into_owned());
        }
    }
    if docs.is_empty() {
        None
    } else {
        util::doc_comment(&docs.join("\n"))
    }
}

fn test_role(decorators: &[String]) -> Option<TestRole> {
    decorators.iter().find_map(|d| {
        let last = d.rsplit("::").next().unwrap_or(d);
        match last {
            "test" | "rstest" | "test_case" | "quickcheck" => Some(TestRole::Test),
            "bench" => Some(TestRole::Benchmark),
            _ => None,
        }
    })
}

/// Key of the nearest enclosing module or function (root = 0): impls match types in the same scope.
fn scope_key(node: Node<'_>) -> usize {
    let mut cur = node.parent();
    let mut steps = 0;
    while let Some(n) = cur {
        if matches!(n.kind(), "mod_item" | "function_item") {
            return n.id();
        }
        steps += 1;
        if steps > MAX_ANCESTORS {
            break;
        }
        cur = n.parent();
    }
    0
}

fn inside_function(node: Node<'_>) -> bool {
    let mut cur = node.parent();
    let mut steps = 0;
    while let Some(n) = cur {
        match n.kind() {
            "function_item" | "closure_expression" => return true,
            "mod_item" | "source_file" => return false,
            _ => {}
        }
        steps += 1;
        if steps > MAX_ANCESTORS {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// The identifiers of a path, outermost first (`a::b::C` → [a, b, C]); generic arguments are
/// dropped. `None` for paths that are not plain (`<T as Trait>::f`).
fn path_segments(node: Node<'_>, src: &[u8]) -> Option<Vec<String>> {
    let mut segs = Vec::new();
    let mut cur = Some(node);
    while let Some(n) = cur {
        match n.kind() {
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(name) = n.child_by_field_name("name") {
                    segs.push(node_text(name, src));
                }
                cur = n.child_by_field_name("path");
            }
            "identifier" | "type_identifier" | "self" | "super" | "crate" | "metavariable" => {
                segs.push(node_text(n, src));
                cur = None;
            }
            "generic_type" | "generic_type_with_turbofish" => cur = n.child_by_field_name("type"),
            _ => return None,
        }
        if segs.len() > 64 {
            return None;
        }
    }
    segs.reverse();
    (!segs.is_empty()).then_some(segs)
}

/// Receiver for a path qualifier: `[]` → None, `[Self]` → SelfRef, `[self]` (module-relative) →
/// None, `[x]` → Name(x), longer → Path.
fn receiver_from_path(mut segs: Vec<String>) -> Receiver {
    match segs.len() {
        0 => Receiver::None,
        1 if segs[0] == "Self" => Receiver::SelfRef,
        1 if segs[0] == "self" => Receiver::None,
        1 => Receiver::Name(segs.pop().unwrap_or_default()),
        _ => Receiver::Path(segs),
    }
}

/// Callee name, receiver and the node to report the position of, for a call's `function`.
fn callee_parts<'t>(callee: Node<'t>, src: &[u8]) -> Option<(String, Receiver, Node<'t>)> {
    let mut f = callee;
    let mut steps = 0;
    while f.kind() == "generic_function" && steps < 8 {
        f = f.child_by_field_name("function")?;
        steps += 1;
    }
    match f.kind() {
        "identifier" => Some((node_text(f, src), Receiver::None, f)),
        "scoped_identifier" => {
            let name_node = f.child_by_field_name("name")?;
            let name = node_text(name_node, src);
            let receiver = match f.child_by_field_name("path") {
                None => Receiver::None,
                Some(p) => match path_segments(p, src) {
                    Some(segs) => receiver_from_path(segs),
                    None => Receiver::Expr,
                },
            };
            Some((name, receiver, name_node))
        }
        "field_expression" => {
            let field = f.child_by_field_name("field")?;
            if field.kind() != "field_identifier" {
                return None;
            }
            let value = f.child_by_field_name("value")?;
            Some((node_text(field, src), receiver_of(value, src), field))
        }
        _ => None,
    }
}

/// Just the callee's simple name (no receiver: receivers of receivers are never needed, and
/// computing them would recurse along method chains).
fn callee_name(callee: Node<'_>, src: &[u8]) -> Option<String> {
    let mut f = callee;
    for _ in 0..8 {
        if f.kind() != "generic_function" {
            break;
        }
        f = f.child_by_field_name("function")?;
    }
    let name = match f.kind() {
        "identifier" => f,
        "scoped_identifier" => f.child_by_field_name("name")?,
        "field_expression" => f
            .child_by_field_name("field")
            .filter(|n| n.kind() == "field_identifier")?,
        _ => return None,
    };
    Some(node_text(name, src))
}

/// Strips `?`, `.await`, `&`, parentheses and value-preserving calls (`unwrap`, `clone`, …).
fn peel_value<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..64 {
        let next = match n.kind() {
            "try_expression" | "await_expression" | "parenthesized_expression" => n.named_child(0),
            "reference_expression" => n.child_by_field_name("value"),
            "call_expression" => n
                .child_by_field_name("function")
                .filter(|f| f.kind() == "field_expression")
                .and_then(|f| {
                    let field = f.child_by_field_name("field")?;
                    PEEL_METHODS
                        .contains(&&*util::text(field, src))
                        .then(|| f.child_by_field_name("value"))
                        .flatten()
                }),
            _ => None,
        };
        match next {
            Some(x) => n = x,
            None => break,
        }
    }
    n
}

/// What a method was called on: `x` → Name, `self` → SelfRef, `self.f` → SelfField,
/// `a.b` → Path, `make()` → Call, anything else → Expr.
fn receiver_of(value: Node<'_>, src: &[u8]) -> Receiver {
    let v = peel_value(value, src);
    match v.kind() {
        "self" => Receiver::SelfRef,
        "identifier" => Receiver::Name(node_text(v, src)),
        "field_expression" => {
            let mut fields = Vec::new();
            let mut cur = v;
            loop {
                if cur.kind() != "field_expression" || fields.len() > 16 {
                    break;
                }
                let Some(field) = cur.child_by_field_name("field") else {
                    return Receiver::Expr;
                };
                if field.kind() != "field_identifier" {
                    return Receiver::Expr;
                }
                fields.push(node_text(field, src));
                let Some(next) = cur.child_by_field_name("value") else {
                    return Receiver::Expr;
                };
                cur = next;
            }
            match cur.kind() {
                "self" if fields.len() == 1 => Receiver::SelfField(fields.pop().unwrap_or_default()),
                "identifier" => {
                    fields.push(node_text(cur, src));
                    fields.reverse();
                    Receiver::Path(fields)
                }
                _ => Receiver::Expr,
            }
        }
        "call_expression" => match v.child_by_field_name("function").and_then(|f| callee_name(f, src)) {
            Some(name) => Receiver::Call(name),
            None => Receiver::Expr,
        },
        _ => Receiver::Expr,
    }
}

/// The simple name of the type an `impl` block implements (`impl<T> a::Foo<T>` → Foo);
/// `None` for blanket impls over a type parameter and non-path types.
fn impl_owner_name(impl_node: Node<'_>, src: &[u8]) -> Option<String> {
    let ty = impl_node.child_by_field_name("type")?;
    let name = type_simple_name(ty, None, false, src)?;
    if let Some(params) = impl_node.child_by_field_name("type_parameters") {
        let mut c = params.walk();
        let is_param = params.named_children(&mut c).any(|p| {
            p.child_by_field_name("name")
                .is_some_and(|n| util::text(n, src) == name.as_str())
        });
        if is_param {
            return None;
        }
    }
    Some(name)
}

/// The implemented type of the nearest enclosing `impl` (for `Self`).
fn enclosing_impl_owner(node: Node<'_>, src: &[u8]) -> Option<String> {
    let mut cur = node.parent();
    let mut steps = 0;
    while let Some(n) = cur {
        if n.kind() == "impl_item" {
            return impl_owner_name(n, src);
        }
        if n.kind() == "trait_item" {
            return None;
        }
        steps += 1;
        if steps > MAX_ANCESTORS {
            return None;
        }
        cur = n.parent();
    }
    None
}

/// Strips references, pointers, `dyn`/`impl`, transparent smart pointers and, for return
/// types, `Option`/`Result` (their payload is what callers use).
fn core_type<'t>(node: Node<'t>, payload: bool, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..64 {
        let next = match n.kind() {
            "reference_type" | "pointer_type" => n.child_by_field_name("type"),
            "dynamic_type" | "abstract_type" => n.child_by_field_name("trait"),
            "bounded_type" => n.named_child(0),
            "generic_type" => {
                let base = n
                    .child_by_field_name("type")
                    .and_then(|t| path_segments(t, src))
                    .and_then(|mut s| s.pop());
                let unwrap = base
                    .as_deref()
                    .is_some_and(|b| DEREF_WRAPPERS.contains(&b) || (payload && matches!(b, "Option" | "Result")));
                if unwrap {
                    n.child_by_field_name("type_arguments").and_then(|a| {
                        let mut c = a.walk();
                        let first = a.named_children(&mut c).find(|x| x.kind() != "lifetime");
                        first
                    })
                } else {
                    None
                }
            }
            _ => None,
        };
        match next {
            Some(x) => n = x,
            None => break,
        }
    }
    n
}

/// Simple name of a declared type (generics stripped, `Self` replaced by `owner`).
fn type_simple_name(node: Node<'_>, owner: Option<&str>, payload: bool, src: &[u8]) -> Option<String> {
    let n = core_type(node, payload, src);
    let name = match n.kind() {
        "type_identifier" | "primitive_type" => node_text(n, src),
        "scoped_type_identifier" | "generic_type" => path_segments(n, src)?.pop()?,
        "unit_type" | "tuple_type" | "never_type" | "function_type" => return None,
        _ => util::simple_type_name(&util::text(n, src))?,
    };
    if name == "Self" {
        return owner.map(str::to_string);
    }
    Some(name)
}

/// Type evidence for a binding: like [`type_simple_name`] but primitives give nothing.
fn binding_type_name(node: Node<'_>, owner: Option<&str>, src: &[u8]) -> Option<String> {
    let n = core_type(node, false, src);
    if !matches!(n.kind(), "type_identifier" | "scoped_type_identifier" | "generic_type") {
        return None;
    }
    type_simple_name(n, owner, false, src)
}

/// `Self` → the enclosing impl's type (looked up only when needed: ancestor walks cost
/// O(depth) per step in tree-sitter).
fn resolve_self(name: String, node: Node<'_>, src: &[u8]) -> Option<String> {
    if name == "Self" {
        enclosing_impl_owner(node, src)
    } else {
        Some(name)
    }
}

/// Names of generic type parameters in scope at `node` (they are never refs).
fn generic_names(node: Node<'_>, src: &[u8]) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut cur = Some(node);
    let mut steps = 0;
    while let Some(n) = cur {
        if let Some(params) = n.child_by_field_name("type_parameters") {
            if params.kind() == "type_parameters" {
                let mut c = params.walk();
                for p in params.named_children(&mut c) {
                    if let Some(name) = p.child_by_field_name("name") {
                        out.insert(node_text(name, src));
                    }
                }
            }
        }
        steps += 1;
        if steps > MAX_ANCESTORS {
            break;
        }
        cur = n.parent();
    }
    out
}
