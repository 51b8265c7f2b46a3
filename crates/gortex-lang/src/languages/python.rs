//! Python extractor (tree-sitter-python).
//!
//! Three query files under `grammars/python/` find the nodes (definitions, imports, calls);
//! this module decides their context from how the captured nodes nest (byte ranges, never
//! parent walks, which tree-sitter answers in time proportional to depth), and fills in
//! receivers, annotations, docstrings, bindings and test roles.

mod assignments;
mod syntax;

use super::grammar_query;
use crate::util::{self, QuerySet};
use crate::{Extractor, FileContext};
use gortex_core::{
    BindingFact, BindingValue, DocComment, EdgeKind, FileFacts, ImportFact, ImportKind, Language, NodeKind, Receiver,
    RefFact, SymbolFact, Synthesizer, TestRole, TestRunner, TypeFlavor, Visibility,
};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use syntax::*;
use tree_sitter::{Node, QueryCursor, Tree};

/// The three query files, compiled as one query so a file costs a single tree traversal.
fn query() -> &'static QuerySet {
    static Q: OnceLock<QuerySet> = OnceLock::new();
    Q.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        let source = concat!(
            grammar_query!("python/definitions.scm"),
            "\n",
            grammar_query!("python/imports.scm"),
            "\n",
            grammar_query!("python/references.scm"),
        );
        QuerySet::new(&lang, source, "python/{definitions,imports,references}.scm")
    })
}

/// Capture indices, looked up once.
struct Ids {
    function: Option<u32>,
    class: Option<u32>,
    decorated: Option<u32>,
    assign: Option<u32>,
    stmt: Option<u32>,
    all: Option<u32>,
    alias: Option<u32>,
    import: Option<u32>,
    import_from: Option<u32>,
    call: Option<u32>,
    call_function: Option<u32>,
}

/// Every captured node of one file, grouped by role (document order within each group).
#[derive(Default)]
struct Captures<'t> {
    scopes: Vec<(Node<'t>, ScopeKind)>,
    decorated: Vec<Node<'t>>,
    assignments: Vec<(Node<'t>, Node<'t>)>,
    all_aug: Vec<Node<'t>>,
    aliases: Vec<Node<'t>>,
    imports: Vec<(Node<'t>, bool)>,
    calls: Vec<(Node<'t>, Node<'t>)>,
}

fn collect<'t>(tree: &'t Tree, source: &[u8]) -> Captures<'t> {
    let qs = query();
    static IDS: OnceLock<Ids> = OnceLock::new();
    let ids = IDS.get_or_init(|| Ids {
        function: qs.capture("function"),
        class: qs.capture("class"),
        decorated: qs.capture("decorated"),
        assign: qs.capture("assignment"),
        stmt: qs.capture("assignment.statement"),
        all: qs.capture("all.augmented"),
        alias: qs.capture("type_alias"),
        import: qs.capture("import"),
        import_from: qs.capture("import.from"),
        call: qs.capture("call"),
        call_function: qs.capture("call.function"),
    });
    let mut caps = Captures::default();
    let mut cursor = QueryCursor::new();
    let mut matches = crate::budget::matches(&mut cursor, &qs.query, tree.root_node(), source);
    while let Some(m) = matches.next() {
        let (mut stmt, mut assign, mut call, mut function) = (None, None, None, None);
        for c in m.captures {
            let i = Some(c.index);
            if i == ids.function {
                caps.scopes.push((c.node, ScopeKind::Function));
            } else if i == ids.class {
                caps.scopes.push((c.node, ScopeKind::Class));
            } else if i == ids.decorated {
                caps.decorated.push(c.node);
            } else if i == ids.assign {
                assign = Some(c.node);
            } else if i == ids.stmt {
                stmt = Some(c.node);
            } else if i == ids.all {
                caps.all_aug.push(c.node);
            } else if i == ids.alias {
                caps.aliases.push(c.node);
            } else if i == ids.import {
                caps.imports.push((c.node, false));
            } else if i == ids.import_from {
                caps.imports.push((c.node, true));
            } else if i == ids.call {
                call = Some(c.node);
            } else if i == ids.call_function {
                function = Some(c.node);
            }
        }
        if let (Some(s), Some(a)) = (stmt, assign) {
            caps.assignments.push((s, a));
        }
        if let (Some(c), Some(f)) = (call, function) {
            caps.calls.push((c, f));
        }
    }
    caps
}

struct Python;

impl Extractor for Python {
    fn language(&self) -> Language {
        Language::Python
    }
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }
    fn compile_queries(&self) {
        query();
    }
    fn extract(&self, tree: &Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        let caps = collect(tree, source);
        let mut x = Extraction::new(source, ctx);
        x.imports(&caps);
        x.definitions(
            caps.scopes,
            &caps.decorated,
            &caps.assignments,
            &caps.all_aug,
            &caps.aliases,
        );
        x.nest();
        x.references(&caps.calls);
        x.facts
    }
}

pub(crate) fn extractor() -> &'static dyn Extractor {
    &Python
}

// ---------------------------------------------------------------------------------------------
// Name tables

/// Builtin and `typing` names that never become type references.
const SKIP_TYPES: &[&str] = &[
    "None",
    "int",
    "float",
    "str",
    "bytes",
    "bool",
    "complex",
    "object",
    "list",
    "dict",
    "set",
    "frozenset",
    "tuple",
    "type",
    "bytearray",
    "memoryview",
    "range",
    "slice",
    "Ellipsis",
    "True",
    "False",
    "Optional",
    "Union",
    "List",
    "Dict",
    "Set",
    "FrozenSet",
    "Tuple",
    "Type",
    "Any",
    "Callable",
    "Iterable",
    "Iterator",
    "Sequence",
    "MutableSequence",
    "Mapping",
    "MutableMapping",
    "MutableSet",
    "AbstractSet",
    "Collection",
    "Container",
    "Generator",
    "AsyncGenerator",
    "AsyncIterator",
    "AsyncIterable",
    "Awaitable",
    "Coroutine",
    "Annotated",
    "ClassVar",
    "Final",
    "Literal",
    "NoReturn",
    "Never",
    "Self",
    "TypeAlias",
    "TypeGuard",
    "TypeIs",
    "Unpack",
    "Required",
    "NotRequired",
    "ReadOnly",
    "DefaultDict",
    "Deque",
    "defaultdict",
    "deque",
    "KeysView",
    "ValuesView",
    "ItemsView",
    "Hashable",
    "Sized",
    "Reversible",
    "ContextManager",
    "AsyncContextManager",
    "IO",
    "TextIO",
    "BinaryIO",
    "AnyStr",
    "Text",
    "ParamSpec",
    "Concatenate",
    "TypeVar",
    "TypeVarTuple",
    "Generic",
    "Protocol",
    "LiteralString",
];

/// Bases that only say "this is an interface/generic": no `Extends` edge.
const SKIP_BASES: &[&str] = &["object", "Generic", "Protocol", "ABC"];

const ENUM_BASES: &[&str] = &["Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"];

/// What a module's classes declare, gathered over its assignments.
#[derive(Default)]
struct ClassMembers {
    /// (class symbol, name) → field symbol.
    fields: HashMap<(usize, String), usize>,
    /// Types `self.x = …` gives a class's fields, applied to fields declared without one.
    self_types: Vec<(usize, String, String)>,
    /// Class attributes bound to a class (`client_class = Client`): (class symbol, name) → class.
    class_refs: HashMap<(usize, String), String>,
}

/// Methods whose `self.x = ...` assignments declare fields.
const FIELD_DECLARING_METHODS: &[&str] = &["__init__", "__post_init__", "setUp", "asyncSetUp", "setup_method"];

/// Decorators too common and builtin to be worth a reference.
const SKIP_DECORATOR_REFS: &[&str] = &["staticmethod", "classmethod", "property", "setter", "getter", "deleter"];

const UNITTEST_FIXTURES: &[&str] = &[
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "asyncSetUp",
    "asyncTearDown",
    "setUpModule",
    "tearDownModule",
];
const PYTEST_FIXTURES: &[&str] = &[
    "setup_method",
    "teardown_method",
    "setup_class",
    "teardown_class",
    "setup_module",
    "teardown_module",
    "setup_function",
    "teardown_function",
];

/// Byte-range nesting of scopes, with "innermost containing" lookup.
struct Nest {
    ranges: Vec<(usize, usize)>,
    parent: Vec<Option<usize>>,
}

impl Nest {
    /// `ranges` must be sorted by start ascending, end descending.
    fn build(ranges: Vec<(usize, usize)>) -> Nest {
        let mut parent = Vec::with_capacity(ranges.len());
        let mut stack: Vec<usize> = Vec::new();
        for (i, &(s, e)) in ranges.iter().enumerate() {
            while let Some(&top) = stack.last() {
                let (ts, te) = ranges[top];
                if ts <= s && e <= te {
                    break;
                }
                stack.pop();
            }
            parent.push(stack.last().copied());
            stack.push(i);
        }
        Nest { ranges, parent }
    }

    /// The innermost range containing byte `pos`.
    fn find(&self, pos: usize) -> Option<usize> {
        let n = self.ranges.partition_point(|&(s, _)| s <= pos);
        let mut cur = n.checked_sub(1);
        while let Some(i) = cur {
            let (s, e) = self.ranges[i];
            if s <= pos && pos < e {
                return Some(i);
            }
            cur = self.parent[i];
        }
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Extraction state

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    Function,
    Class,
}

struct Scope {
    kind: ScopeKind,
    /// Pre-nesting index of the scope's symbol.
    sym: usize,
    parent: Option<usize>,
    name: String,
    /// Classes: a unittest `TestCase` subclass, or a pytest-collected `Test*` class.
    test_class: bool,
    testcase: bool,
    is_enum: bool,
}

struct Extraction<'s> {
    source: &'s [u8],
    is_test_file: bool,
    facts: FileFacts,
    /// Byte ranges of owner symbols (functions, classes, module-level variables), keyed by
    /// pre-nesting symbol index, for attributing refs found later.
    owner_ranges: Vec<(usize, usize, usize)>,
    /// Calls that are a decorator's own expression (reported as decorator references instead).
    decorator_calls: HashSet<usize>,
    /// Names defined at module level (functions, classes) and bound by `from … import`.
    value_names: HashSet<String>,
    /// Locals bound by `import a` / `import a as b`.
    module_locals: HashSet<String>,
    imports_pytest: bool,
}

impl<'s> Extraction<'s> {
    fn new(source: &'s [u8], ctx: &FileContext<'s>) -> Self {
        Extraction {
            source,
            is_test_file: ctx.is_test_file || is_test_path(ctx.path),
            facts: FileFacts::default(),
            owner_ranges: Vec::new(),
            decorator_calls: HashSet::new(),
            value_names: HashSet::new(),
            module_locals: HashSet::new(),
            imports_pytest: false,
        }
    }

    fn text(&self, node: Node<'_>) -> String {
        util::text(node, self.source).into_owned()
    }

    // ---- imports ------------------------------------------------------------------------

    fn imports(&mut self, caps: &Captures<'_>) {
        for &(node, from) in &caps.imports {
            if from {
                self.import_from(node);
            } else {
                self.import_statement(node);
            }
        }
    }

    fn push_import(
        &mut self,
        node: Node<'_>,
        module: String,
        kind: ImportKind,
        name: Option<String>,
        local: Option<String>,
    ) {
        if module == "pytest" || module.starts_with("pytest.") || module.starts_with("_pytest") {
            self.imports_pytest = true;
        }
        match kind {
            ImportKind::Module => {
                if let Some(l) = &local {
                    self.module_locals.insert(l.clone());
                }
            }
            ImportKind::Named => {
                if let Some(l) = &local {
                    self.value_names.insert(l.clone());
                }
            }
            _ => {}
        }
        let type_only = under_type_checking(node, self.source);
        self.facts.imports.push(ImportFact {
            module,
            kind,
            name,
            local,
            reexport: false,
            type_only,
            line: util::line(node),
        });
    }

    fn import_statement(&mut self, node: Node<'_>) {
        let mut cursor = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
        for n in names {
            match n.kind() {
                "dotted_name" => {
                    let module = self.text(n);
                    let local = module.split('.').next().unwrap_or(&module).to_string();
                    self.push_import(node, module, ImportKind::Module, None, Some(local));
                }
                "aliased_import" => {
                    let (Some(name), Some(alias)) = (n.child_by_field_name("name"), n.child_by_field_name("alias"))
                    else {
                        continue;
                    };
                    let module = self.text(name);
                    let alias = self.text(alias);
                    self.push_import(node, module, ImportKind::Module, None, Some(alias));
                }
                _ => {}
            }
        }
    }

    fn import_from(&mut self, node: Node<'_>) {
        let Some(module_node) = node.child_by_field_name("module_name") else {
            return;
        };
        let module = util::collapse_whitespace(&util::text(module_node, self.source));
        let mut cursor = node.walk();
        let mut wildcard = false;
        for child in node.named_children(&mut cursor) {
            if child.kind() == "wildcard_import" {
                wildcard = true;
            }
        }
        if wildcard {
            self.push_import(node, module, ImportKind::Wildcard, None, None);
            return;
        }
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
        for n in names {
            let (name, local) = match n.kind() {
                "dotted_name" => {
                    let t = self.text(n);
                    (t.clone(), t)
                }
                "aliased_import" => {
                    let (Some(name), Some(alias)) = (n.child_by_field_name("name"), n.child_by_field_name("alias"))
                    else {
                        continue;
                    };
                    (self.text(name), self.text(alias))
                }
                _ => continue,
            };
            self.push_import(node, module.clone(), ImportKind::Named, Some(name), Some(local));
        }
    }

    // ---- definitions --------------------------------------------------------------------

    fn definitions<'t>(
        &mut self,
        mut scopes_nodes: Vec<(Node<'t>, ScopeKind)>,
        decorated: &[Node<'t>],
        assignments: &[(Node<'t>, Node<'t>)],
        all_aug: &[Node<'t>],
        aliases: &[Node<'t>],
    ) {
        // Decorators by the id of the definition they decorate.
        let mut decorators: HashMap<usize, (Node<'_>, Vec<Node<'_>>)> = HashMap::new();
        for &d in decorated {
            let Some(def) = d.child_by_field_name("definition") else {
                continue;
            };
            let mut cursor = d.walk();
            let list: Vec<Node<'_>> = d
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "decorator")
                .collect();
            decorators.insert(def.id(), (d, list));
        }

        scopes_nodes.sort_by_key(|(n, _)| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
        scopes_nodes.dedup_by_key(|(n, _)| n.id());
        let nest = Nest::build(
            scopes_nodes
                .iter()
                .map(|(n, _)| (n.start_byte(), n.end_byte()))
                .collect(),
        );
        let mut scopes: Vec<Scope> = Vec::with_capacity(scopes_nodes.len());
        for (i, &(node, kind)) in scopes_nodes.iter().enumerate() {
            let parent = nest.parent[i];
            let (outer, decos) = match decorators.get(&node.id()) {
                Some((outer, list)) => (*outer, list.as_slice()),
                None => (node, &[][..]),
            };
            let scope = match kind {
                ScopeKind::Function => self.function(node, outer, parent, &scopes, decos),
                ScopeKind::Class => self.class(node, outer, parent, &scopes, decos),
            };
            scopes.push(scope);
        }

        // Assignments: module variables, class attributes, `self.x` fields, bindings.
        let mut all_names: Option<Vec<String>> = None;
        let mut module_syms: HashMap<String, usize> = HashMap::new();
        let mut members = ClassMembers::default();
        for &(stmt, assign) in assignments {
            let scope = nest.find(assign.start_byte());
            self.assignment(
                stmt,
                assign,
                scope,
                &scopes,
                &mut module_syms,
                &mut members,
                &mut all_names,
            );
        }
        for &aug in all_aug {
            if let Some(right) = aug.child_by_field_name("right") {
                let names = all_names.get_or_insert_with(Vec::new);
                collect_strings(right, self.source, names);
            }
        }
        for &alias in aliases {
            self.type_alias(alias, nest.find(alias.start_byte()), &scopes);
        }
        // Types from `self.x = Foo()` anywhere fill fields that have none.
        for (class_sym, name, ty) in members.self_types {
            if let Some(&f) = members.fields.get(&(class_sym, name)) {
                if self.facts.symbols[f].type_name.is_none() {
                    self.facts.symbols[f].type_name = Some(ty);
                }
            }
        }

        // `__all__` decides what the module exports and which imports it re-exports.
        if let Some(all) = &all_names {
            let set: HashSet<&str> = all.iter().map(String::as_str).collect();
            // Before nesting, exactly the module-level symbols have no parent.
            for s in self.facts.symbols.iter_mut() {
                if s.parent.is_none() {
                    s.exported = set.contains(s.name.as_str());
                }
            }
            for im in &mut self.facts.imports {
                if let Some(l) = &im.local {
                    im.reexport = set.contains(l.as_str());
                }
            }
        }

        // Test runner.
        let has_testcase = scopes.iter().any(|s| s.testcase);
        let has_tests = self.facts.symbols.iter().any(|s| s.test_role.is_some());
        self.facts.test_runner = if has_testcase && !self.imports_pytest {
            Some(TestRunner::Unittest)
        } else if self.is_test_file && (self.imports_pytest || has_tests) {
            Some(TestRunner::Pytest)
        } else if has_testcase {
            Some(TestRunner::Unittest)
        } else {
            None
        };
    }

    fn push_symbol(&mut self, sym: SymbolFact) -> usize {
        self.facts.symbols.push(sym);
        self.facts.symbols.len() - 1
    }

    fn push_ref(&mut self, kind: EdgeKind, from: Option<usize>, name: String, receiver: Receiver, at: (u32, u32)) {
        self.push_ref_via(kind, from, name, receiver, at, None);
    }

    /// A reference; with `via`, a framework-dispatch reference whose edge that pass synthesizes.
    fn push_ref_via(
        &mut self,
        kind: EdgeKind,
        from: Option<usize>,
        name: String,
        receiver: Receiver,
        at: (u32, u32),
        via: Option<Synthesizer>,
    ) {
        self.facts.refs.push(RefFact {
            kind,
            from: from.map(|f| f as u32),
            name,
            receiver,
            line: at.0,
            col: at.1,
            via,
        });
    }

    fn push_binding(&mut self, scope: Option<usize>, name: String, value: BindingValue, line: u32) {
        self.facts.bindings.push(BindingFact {
            scope: scope.map(|s| s as u32),
            name,
            value,
            line,
        });
    }

    /// TypedAs/Returns refs for every user type named in an annotation.
    fn annotation_refs(&mut self, ty: Node<'_>, kind: EdgeKind, from: Option<usize>) -> Annotation {
        let raw = util::text(ty, self.source);
        let names = annotation_names(&raw);
        let start = ty.start_position();
        let mut primary = None;
        let mut fallback = None;
        for n in names {
            if n.builtin {
                let last = last_segment(n.dotted);
                if fallback.is_none() && !WRAPPERS.contains(&last) {
                    fallback = Some(last.to_string());
                }
                continue;
            }
            let before = &raw[..n.offset];
            let (line, col) = match before.rfind('\n') {
                Some(nl) => (start.row + before.matches('\n').count(), n.offset - nl - 1),
                None => (start.row, start.column + n.offset),
            };
            let name = last_segment(n.dotted).to_string();
            if primary.is_none() {
                primary = Some(name.clone());
            }
            let receiver = dotted_receiver(n.dotted);
            self.push_ref(kind, from, name, receiver, (line as u32 + 1, col as u32));
        }
        let display = primary.clone().or(fallback);
        Annotation { user: primary, display }
    }

    fn decorator_info(&mut self, decos: &[Node<'_>], from: usize) -> Vec<String> {
        let mut names = Vec::with_capacity(decos.len());
        for d in decos {
            let Some(mut expr) = d.named_child(0) else {
                continue;
            };
            // `@override_settings(X=1)` calls its decorator as the function is defined: a call made
            // for the function (compilers' call hierarchies agree); a bare `@cached` refers to it.
            let called = expr.kind() == "call";
            if called {
                self.decorator_calls.insert(expr.id());
                match expr.child_by_field_name("function") {
                    Some(f) => expr = f,
                    None => continue,
                }
            }
            names.push(head(self.source, expr.start_byte(), expr.end_byte(), 120));
            if let Some((name_node, name, receiver)) = callee(expr, self.source) {
                if !SKIP_DECORATOR_REFS.contains(&name.as_str()) {
                    let kind = if called { EdgeKind::Calls } else { EdgeKind::References };
                    self.push_ref(kind, Some(from), name, receiver, point(name_node));
                }
            }
        }
        names
    }

    fn function(
        &mut self,
        node: Node<'_>,
        outer: Node<'_>,
        parent: Option<usize>,
        scopes: &[Scope],
        decos: &[Node<'_>],
    ) -> Scope {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or_default();
        let body = node.child_by_field_name("body");
        let params = node.child_by_field_name("parameters");
        let ret = node.child_by_field_name("return_type");
        let parent_scope = parent.map(|p| &scopes[p]);
        let in_class = parent_scope.filter(|s| s.kind == ScopeKind::Class);
        let kind = if in_class.is_some() {
            NodeKind::Method
        } else {
            NodeKind::Function
        };

        let mut sym = SymbolFact::new(name.clone(), kind, util::span(node));
        sym.parent = parent_scope.map(|s| s.sym as u32);
        let sig_end = ret.or(params).map(|n| n.end_byte()).unwrap_or(node.end_byte());
        sym.signature = Some(head(self.source, node.start_byte(), sig_end, util::MAX_SIGNATURE));
        sym.visibility = Some(visibility(&name));
        sym.exported = !name.starts_with('_') && parent_scope.is_none_or(|s| s.kind == ScopeKind::Class);
        sym.set_doc(docstring(body, self.source).or_else(|| comment_doc(outer, self.source)));
        sym.is_async = node.child(0).is_some_and(|c| c.kind() == "async");
        let idx = self.push_symbol(sym);
        self.owner_ranges.push((node.start_byte(), node.end_byte(), idx));
        if parent.is_none() {
            self.value_names.insert(name.clone());
        }

        let decorators = self.decorator_info(decos, idx);
        let last = |d: &String| last_segment(d).to_string();
        let is_static = decorators.iter().any(|d| d == "staticmethod");
        let is_abstract = decorators.iter().any(|d| last(d).starts_with("abstract"));
        let is_fixture = decorators.iter().any(|d| last(d) == "fixture");

        // Parameters: TypedAs refs and bindings.
        if let Some(params) = params {
            let mut cursor = params.walk();
            let list: Vec<Node<'_>> = params.named_children(&mut cursor).collect();
            for (pi, p) in list.into_iter().enumerate() {
                let (pname, ty, default) = match p.kind() {
                    "typed_parameter" => (p.named_child(0), p.child_by_field_name("type"), None),
                    "typed_default_parameter" | "default_parameter" => (
                        p.child_by_field_name("name"),
                        p.child_by_field_name("type"),
                        p.child_by_field_name("value"),
                    ),
                    _ => continue,
                };
                let pname = pname.filter(|n| n.kind() == "identifier").map(|n| self.text(n));
                if pi == 0 && in_class.is_some() && matches!(pname.as_deref(), Some("self" | "cls")) {
                    continue;
                }
                let primary = ty.and_then(|t| self.annotation_refs(t, EdgeKind::TypedAs, Some(idx)).user);
                let Some(pname) = pname else {
                    continue;
                };
                if let Some(t) = primary {
                    self.push_binding(Some(idx), pname, BindingValue::Type { name: t }, util::line(p));
                } else if let Some(name) = default.and_then(|d| constructed_type(d, self.source)) {
                    self.push_binding(Some(idx), pname, BindingValue::Type { name }, util::line(p));
                }
            }
        }
        let return_type = ret
            .and_then(|r| self.annotation_refs(r, EdgeKind::Returns, Some(idx)).display)
            .or_else(|| body.and_then(|b| inferred_return(b, in_class.map(|c| c.name.as_str()), self.source)));

        // Test roles.
        let class_scope = in_class;
        let test_role = if is_fixture {
            Some(TestRole::Fixture)
        } else if let Some(c) = class_scope {
            if c.testcase && UNITTEST_FIXTURES.contains(&name.as_str())
                || c.test_class && PYTEST_FIXTURES.contains(&name.as_str())
            {
                Some(TestRole::Fixture)
            } else if (c.testcase || c.test_class) && name.starts_with("test") {
                Some(TestRole::Test)
            } else {
                None
            }
        } else if parent.is_none() && self.is_test_file {
            if name.starts_with("test_") || name == "test" {
                Some(TestRole::Test)
            } else if PYTEST_FIXTURES.contains(&name.as_str()) || UNITTEST_FIXTURES.contains(&name.as_str()) {
                Some(TestRole::Fixture)
            } else {
                None
            }
        } else {
            None
        };

        // The framework calls a route's function (Flask, FastAPI, Starlette routers).
        if in_class.is_none() && decos.iter().any(|d| route_decorator(*d, self.source)) {
            if let Some(n) = node.child_by_field_name("name") {
                self.push_ref_via(
                    EdgeKind::Calls,
                    None,
                    name.clone(),
                    Receiver::None,
                    point(n),
                    Some(Synthesizer::HttpRoute),
                );
            }
        }
        // pytest runs the fixtures a test or fixture names as parameters.
        if matches!(test_role, Some(TestRole::Test)) && self.is_test_file || is_fixture {
            if let Some(params) = params {
                for (pname, at) in fixture_params(params, self.source, in_class.is_some()) {
                    self.push_ref_via(
                        EdgeKind::Calls,
                        Some(idx),
                        pname,
                        Receiver::None,
                        at,
                        Some(Synthesizer::PytestFixture),
                    );
                }
            }
        }

        let s = &mut self.facts.symbols[idx];
        s.decorators = decorators;
        s.is_static = is_static;
        s.is_abstract = is_abstract;
        s.return_type = return_type;
        s.test_role = test_role;
        Scope {
            kind: ScopeKind::Function,
            sym: idx,
            parent,
            name,
            test_class: false,
            testcase: false,
            is_enum: false,
        }
    }

    fn class(
        &mut self,
        node: Node<'_>,
        outer: Node<'_>,
        parent: Option<usize>,
        scopes: &[Scope],
        decos: &[Node<'_>],
    ) -> Scope {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or_default();
        let body = node.child_by_field_name("body");
        let bases = node.child_by_field_name("superclasses");
        let parent_scope = parent.map(|p| &scopes[p]);

        // Bases decide the flavour before the symbol exists; Extends refs are added after.
        let mut is_enum = false;
        let mut is_interface = false;
        let mut testcase = false;
        let mut extends: Vec<(Node<'_>, String, Receiver)> = Vec::new();
        if let Some(bases) = bases {
            let mut cursor = bases.walk();
            for b in bases.named_children(&mut cursor) {
                let target = match b.kind() {
                    "identifier" | "attribute" => b,
                    "subscript" => match b.child_by_field_name("value") {
                        Some(v) => v,
                        None => continue,
                    },
                    "keyword_argument" => {
                        let is_meta = b
                            .child_by_field_name("name")
                            .is_some_and(|n| util::text(n, self.source) == "metaclass");
                        let value = b.child_by_field_name("value").map(|v| self.text(v)).unwrap_or_default();
                        if is_meta && last_segment(&value) == "ABCMeta" {
                            is_interface = true;
                        }
                        continue;
                    }
                    _ => continue,
                };
                let Some((name_node, base, receiver)) = callee(target, self.source) else {
                    continue;
                };
                if ENUM_BASES.contains(&base.as_str()) {
                    is_enum = true;
                }
                if base == "Protocol" || base == "ABC" {
                    is_interface = true;
                }
                if base.ends_with("TestCase") {
                    testcase = true;
                }
                if !SKIP_BASES.contains(&base.as_str()) {
                    extends.push((name_node, base, receiver));
                }
            }
        }
        let (kind, flavor) = if is_enum {
            (NodeKind::Type, Some(TypeFlavor::Enum))
        } else if is_interface {
            (NodeKind::Interface, None)
        } else {
            (NodeKind::Type, Some(TypeFlavor::Class))
        };
        let mut sym = SymbolFact::new(name.clone(), kind, util::span(node));
        sym.flavor = flavor;
        sym.parent = parent_scope.map(|s| s.sym as u32);
        let sig_end = bases
            .or_else(|| node.child_by_field_name("type_parameters"))
            .or_else(|| node.child_by_field_name("name"))
            .map(|n| n.end_byte())
            .unwrap_or(node.end_byte());
        sym.signature = Some(head(self.source, node.start_byte(), sig_end, util::MAX_SIGNATURE));
        sym.visibility = Some(visibility(&name));
        sym.exported = !name.starts_with('_') && parent_scope.is_none_or(|s| s.kind == ScopeKind::Class);
        sym.set_doc(docstring(body, self.source).or_else(|| comment_doc(outer, self.source)));
        sym.is_abstract = is_interface;
        let idx = self.push_symbol(sym);
        self.owner_ranges.push((node.start_byte(), node.end_byte(), idx));
        if parent.is_none() {
            self.value_names.insert(name.clone());
        }
        for (n, base, receiver) in extends {
            self.push_ref(EdgeKind::Extends, Some(idx), base, receiver, point(n));
        }
        let decorators = self.decorator_info(decos, idx);
        self.facts.symbols[idx].decorators = decorators;

        let test_class = testcase
            || (self.is_test_file && (name.starts_with("Test") || name.ends_with("Test") || name.ends_with("Tests")));
        Scope {
            kind: ScopeKind::Class,
            sym: idx,
            parent,
            name,
            test_class,
            testcase,
            is_enum,
        }
    }

    // ---- nesting ------------------------------------------------------------------------

    fn nest(&mut self) {
        let new_index = util::nest_symbols(&mut self.facts.symbols);
        let remap = |i: u32| new_index.get(i as usize).copied();
        for r in &mut self.facts.refs {
            r.from = r.from.and_then(remap);
        }
        for b in &mut self.facts.bindings {
            b.scope = b.scope.and_then(remap);
        }
        for o in &mut self.owner_ranges {
            o.2 = new_index.get(o.2).map(|&v| v as usize).unwrap_or(o.2);
        }
        self.owner_ranges.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
    }

    // ---- references ---------------------------------------------------------------------

    fn references(&mut self, calls: &[(Node<'_>, Node<'_>)]) {
        let owners = Nest::build(self.owner_ranges.iter().map(|&(s, e, _)| (s, e)).collect());
        let owner_sym: Vec<usize> = self.owner_ranges.iter().map(|o| o.2).collect();
        let from_of = |byte: usize| owners.find(byte).map(|i| owner_sym[i]);
        for &(call, function) in calls {
            let from = from_of(call.start_byte());
            // A decorator's own call is reported as the decorator's reference instead.
            if !self.decorator_calls.contains(&call.id()) {
                let Some((name_node, name, receiver)) = callee(function, self.source) else {
                    continue;
                };
                if !(name == "super" && receiver == Receiver::None) {
                    // FastAPI calls a dependency for the endpoint: `Depends(get_db)`, `Security(auth)`.
                    if matches!(name.as_str(), "Depends" | "Security") {
                        let dependency = call
                            .child_by_field_name("arguments")
                            .and_then(|a| a.named_child(0))
                            .and_then(|a| callee(a, self.source));
                        if let Some((n, dep, recv)) = dependency {
                            self.push_ref_via(EdgeKind::Calls, from, dep, recv, point(n), Some(Synthesizer::DiDepends));
                        }
                    }
                    self.push_ref(EdgeKind::Calls, from, name, receiver, point(name_node));
                }
            }
            if let Some(args) = call.child_by_field_name("arguments") {
                if args.kind() == "argument_list" {
                    self.argument_refs(args, from);
                }
            }
        }
    }

    /// `References` for arguments that name module functions/classes, imported names,
    /// `self.method` or `module.func`: callbacks, `isinstance(x, Foo)`, `target=mod.work`.
    fn argument_refs(&mut self, args: Node<'_>, from: Option<usize>) {
        let mut cursor = args.walk();
        for child in args.named_children(&mut cursor) {
            let arg = if child.kind() == "keyword_argument" {
                match child.child_by_field_name("value") {
                    Some(v) => v,
                    None => continue,
                }
            } else {
                child
            };
            let reference = match arg.kind() {
                "identifier" => {
                    let name = util::text(arg, self.source);
                    if self.value_names.contains(name.as_ref()) {
                        Some((arg, name.into_owned(), Receiver::None))
                    } else {
                        None
                    }
                }
                "attribute" => callee(arg, self.source).filter(|(_, _, r)| match r {
                    Receiver::SelfRef => true,
                    Receiver::Name(n) => self.module_locals.contains(n.as_str()),
                    _ => false,
                }),
                _ => None,
            };
            if let Some((n, name, receiver)) = reference {
                self.push_ref(EdgeKind::References, from, name, receiver, point(n));
            }
        }
    }
}

/// Decorator attributes that register a route handler: `@app.route("/x")`, `@router.get("/x")`.
const ROUTE_DECORATORS: &[&str] = &[
    "route",
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "websocket",
    "api_route",
];

/// Whether decorator `d` registers its function for an HTTP path: `@<obj>.<route method>("/…")`.
fn route_decorator(d: Node<'_>, source: &[u8]) -> bool {
    let Some(call) = d.named_child(0).filter(|e| e.kind() == "call") else {
        return false;
    };
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "attribute")
        .and_then(|f| f.child_by_field_name("attribute"))
        .map(|a| util::text(a, source));
    let path = call
        .child_by_field_name("arguments")
        .and_then(|a| a.named_child(0))
        .filter(|a| a.kind() == "string")
        .map(|a| util::text(a, source));
    matches!((method, path), (Some(m), Some(p)) if ROUTE_DECORATORS.contains(&m.as_ref())
        && p.trim_start_matches(['r', 'b', 'f', 'u']).trim_start_matches(['"', '\'']).starts_with('/'))
}

/// Fixtures pytest itself or its common plugins provide: never the repository's code.
const BUILTIN_FIXTURES: &[&str] = &[
    "request",
    "tmp_path",
    "tmp_path_factory",
    "tmpdir",
    "tmpdir_factory",
    "monkeypatch",
    "capsys",
    "capsysbinary",
    "capfd",
    "capfdbinary",
    "caplog",
    "recwarn",
    "pytestconfig",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "pytester",
    "testdir",
    "cache",
    "doctest_namespace",
    "mocker",
    "event_loop",
    "subtests",
];

/// The parameters of a test or fixture that name fixtures (not `self`/`cls`, builtins, `*args`,
/// parameters with defaults).
fn fixture_params(params: Node<'_>, source: &[u8], method: bool) -> Vec<(String, (u32, u32))> {
    let mut cursor = params.walk();
    let mut out = Vec::new();
    for (i, p) in params.named_children(&mut cursor).enumerate() {
        let name_node = match p.kind() {
            "identifier" => Some(p),
            "typed_parameter" => p.named_child(0).filter(|n| n.kind() == "identifier"),
            // A parameter with a default is the function's own, not a fixture pytest passes.
            _ => None,
        };
        let Some(n) = name_node else { continue };
        let name = util::text(n, source).into_owned();
        if (i == 0 && method && matches!(name.as_str(), "self" | "cls")) || BUILTIN_FIXTURES.contains(&name.as_str()) {
            continue;
        }
        out.push((name, point(n)));
    }
    out
}
