//! Helpers shared by every extractor: query compilation, node text, spans, doc comments,
//! symbol nesting and enclosing-symbol lookup. Nothing here recurses on tree depth.

use gortex_core::{DocComment, NodeKind, Span, SymbolFact};
use std::collections::HashMap;
use tree_sitter::{Node, Query, Tree};

/// A compiled query with its capture names looked up once.
pub struct QuerySet {
    pub query: Query,
    names: HashMap<String, u32>,
}

impl QuerySet {
    /// Compiles `source` for `grammar`. Panics with the query error, because a query file that
    /// does not compile is a build defect caught by every extractor test, never a runtime input.
    pub fn new(grammar: &tree_sitter::Language, source: &str, file: &str) -> QuerySet {
        let query = Query::new(grammar, source).unwrap_or_else(|e| panic!("query {file} does not compile: {e}"));
        let names = query
            .capture_names()
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i as u32))
            .collect();
        QuerySet { query, names }
    }

    /// The index of a capture name, if the query defines it.
    pub fn capture(&self, name: &str) -> Option<u32> {
        self.names.get(name).copied()
    }

    /// The name of a capture index.
    pub fn capture_name(&self, index: u32) -> &str {
        self.query.capture_names()[index as usize]
    }
}

/// The node's source text; invalid UTF-8 is replaced rather than failing the file.
pub fn text<'a>(node: Node<'_>, source: &'a [u8]) -> std::borrow::Cow<'a, str> {
    let bytes = &source[node.start_byte().min(source.len())..node.end_byte().min(source.len())];
    String::from_utf8_lossy(bytes)
}

/// The node's range as a [`Span`] (1-based lines, 0-based byte columns).
pub fn span(node: Node<'_>) -> Span {
    let s = node.start_position();
    let e = node.end_position();
    Span {
        start_line: s.row as u32 + 1,
        start_col: s.column as u32,
        end_line: e.row as u32 + 1,
        end_col: e.column as u32,
    }
}

/// 1-based line of the node's start.
pub fn line(node: Node<'_>) -> u32 {
    node.start_position().row as u32 + 1
}

/// Collapses runs of whitespace into one space and trims.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for ch in text.chars() {
        if ch.is_whitespace() {
            in_space = true;
        } else {
            if in_space && !out.is_empty() {
                out.push(' ');
            }
            in_space = false;
            out.push(ch);
        }
    }
    out
}

/// Maximum signature length kept; longer heads are cut with `…`.
pub const MAX_SIGNATURE: usize = 300;

/// How many calls deep a receiver chain (`a.b().c().d()`) is followed; deeper ones are unknown.
pub const MAX_CHAIN: u32 = 8;

/// The declaration's text from its start up to (not including) `body`, whitespace-collapsed.
/// With no body, the whole declaration. Cut at [`MAX_SIGNATURE`] characters.
pub fn signature(decl: Node<'_>, body: Option<Node<'_>>, source: &[u8]) -> String {
    let end = body
        .map(|b| b.start_byte())
        .unwrap_or(decl.end_byte())
        .min(source.len());
    let start = decl.start_byte().min(end);
    let raw = String::from_utf8_lossy(&source[start..end]);
    let mut sig = collapse_whitespace(&raw);
    while sig.ends_with('{') || sig.ends_with(':') || sig.ends_with(';') || sig.ends_with("=>") {
        sig.pop();
        if sig.ends_with('=') {
            sig.pop();
        }
        sig = sig.trim_end().to_string();
    }
    truncate_chars(&sig, MAX_SIGNATURE)
}

/// Cuts `text` at `max` characters, marking the cut with `…`.
pub fn truncate_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

/// Maximum doc summary length.
pub const MAX_DOC: usize = 160;

/// Most characters of a doc comment's prose kept for search ([`DocComment::text`]).
pub const MAX_DOC_TEXT: usize = 1_000;

/// One comment line without its markers (`//`, `///`, `/** */`, `#`, `"""`), trimmed.
fn strip_comment_markers(line: &str) -> &str {
    let mut l = line.trim();
    for prefix in ["/**", "/*!", "/*", "*/", "///", "//!", "//", "\"\"\"", "'''", "#", "*"] {
        if let Some(rest) = l.strip_prefix(prefix) {
            l = rest.trim_start();
        }
    }
    for suffix in ["*/", "\"\"\"", "'''"] {
        if let Some(rest) = l.strip_suffix(suffix) {
            l = rest.trim_end();
        }
    }
    l
}

/// Strips comment markers and returns the first sentence or paragraph line, at most
/// [`MAX_DOC`] characters. `None` when nothing remains.
pub fn doc_summary(raw: &str) -> Option<String> {
    let mut lines = Vec::new();
    for line in raw.lines() {
        let l = strip_comment_markers(line);
        if l.starts_with('@') && !lines.is_empty() {
            break; // JSDoc/Javadoc tags end the summary
        }
        if l.is_empty() {
            if lines.is_empty() {
                continue;
            }
            break;
        }
        lines.push(l.to_string());
    }
    let joined = lines.join(" ");
    if joined.is_empty() {
        return None;
    }
    let sentence = match joined.find(". ") {
        Some(i) => &joined[..=i],
        None => joined.as_str(),
    };
    Some(truncate_chars(sentence.trim(), MAX_DOC))
}

/// The prose of a doc comment, for search: every paragraph and tag description, without comment
/// markers, fenced or doctest code (examples name *other* symbols), `@example` sections, tag
/// names and HTML/`{@link}` markup; whitespace collapsed, at most [`MAX_DOC_TEXT`] characters.
pub fn doc_prose(raw: &str) -> String {
    let mut out = String::new();
    let mut fence = false;
    let mut example = false;
    for line in raw.lines() {
        let mut l = strip_comment_markers(line);
        if l.starts_with("```") || l.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || l.starts_with(">>>") || l.starts_with("...") {
            continue;
        }
        if let Some(tag) = l.strip_prefix('@') {
            let (name, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            example = name == "example";
            l = rest.trim_start();
        }
        if example {
            continue;
        }
        let mut in_markup = false;
        for c in l.chars() {
            match c {
                '<' => in_markup = true,
                '>' if in_markup => in_markup = false,
                _ if in_markup => {}
                '{' | '}' => out.push(' '),
                c => out.push(c),
            }
        }
        out.push(' ');
        if out.len() >= MAX_DOC_TEXT * 4 {
            break; // enough to fill the cap even with multi-byte characters
        }
    }
    let words: Vec<&str> = out
        .split_whitespace()
        .filter(|w| !matches!(*w, "@link" | "@linkcode" | "@linkplain"))
        .collect();
    let out = words.join(" ");
    match out.char_indices().nth(MAX_DOC_TEXT) {
        Some((cut, _)) => out[..cut].to_string(),
        None => out,
    }
}

/// A raw doc comment read both ways: its summary ([`doc_summary`]) and, when the prose says
/// more than the summary, the prose ([`doc_prose`]). `None` when nothing remains.
pub fn doc_comment(raw: &str) -> Option<DocComment> {
    let summary = doc_summary(raw)?;
    let prose = doc_prose(raw);
    let text = (prose.len() > summary.len() + 1).then_some(prose);
    Some(DocComment { summary, text })
}

/// The contiguous comment block right above `node` (no blank line between), as raw text.
/// `is_comment` says which sibling kinds are comments in this grammar. `prev_sibling` costs
/// O(depth): for nodes that may sit deep in a tree use [`Parents::leading_comment`].
pub fn leading_comment(node: Node<'_>, source: &[u8], is_comment: impl Fn(&str) -> bool) -> Option<String> {
    let mut parts = Vec::new();
    let mut expected_line = node.start_position().row;
    let mut cur = node.prev_sibling();
    while let Some(sib) = cur {
        if !is_comment(sib.kind()) {
            break;
        }
        let end_row = sib.end_position().row;
        if end_row + 1 < expected_line {
            break;
        }
        parts.push(text(sib, source).into_owned());
        expected_line = sib.start_position().row;
        cur = sib.prev_sibling();
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    Some(parts.join("\n"))
}

/// Counts ERROR and MISSING nodes with an explicit cursor walk (no recursion).
pub fn count_errors(tree: &Tree) -> u32 {
    if !tree.root_node().has_error() {
        return 0;
    }
    let mut count = 0u32;
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count = count.saturating_add(1);
        }
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

/// Strips generic arguments, pointers, references, arrays and nullability from a type's text
/// and returns the last path segment: `*store.Store` → `Store`, `List<Foo>` → `List`,
/// `Option<&mut Foo>` → `Option`, `Foo[]` → `Foo`, `Foo | null` → `Foo`.
pub fn simple_type_name(raw: &str) -> Option<String> {
    let mut t = raw.trim();
    if let Some((first, _)) = t.split_once('|') {
        t = first.trim();
    }
    let mut t = t.trim_start_matches(['*', '&', '?', '[', ']', ' ']);
    // C/C++ tag and qualifier keywords before the name: `struct foo`, `const Foo&`.
    while let Some(rest) = [
        "struct ",
        "union ",
        "enum ",
        "class ",
        "const ",
        "volatile ",
        "typename ",
    ]
    .iter()
    .find_map(|k| t.strip_prefix(k))
    {
        t = rest.trim_start();
    }
    let t = t.strip_prefix("mut ").unwrap_or(t);
    let t = t.strip_prefix("dyn ").unwrap_or(t);
    let t = t.strip_prefix("impl ").unwrap_or(t);
    let t = t.trim_start_matches(['*', '&', ' ']);
    let end = t
        .find(['<', '[', '(', '{', ' ', ',', '?', '!', ';', '&', '*'])
        .unwrap_or(t.len());
    let head = &t[..end];
    let last = head.rsplit(['.', ':']).next().unwrap_or(head);
    let last = last.trim();
    if last.is_empty() || !last.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') {
        return None;
    }
    Some(last.to_string())
}

/// Symbol kinds that own nested declarations and enclose code.
fn is_container(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Function
            | NodeKind::Method
            | NodeKind::Type
            | NodeKind::Interface
            | NodeKind::Module
            | NodeKind::Variable
            | NodeKind::Constant
    )
}

/// Orders symbols by position (outer before inner) and sets each `parent` to the innermost
/// container that encloses it, unless the extractor already set one. Extractor-set parents
/// refer to the *original* order and are remapped. Returns the permutation applied
/// (`new_index[old]`) so callers can remap their own indices.
pub fn nest_symbols(symbols: &mut Vec<SymbolFact>) -> Vec<u32> {
    let mut order: Vec<usize> = (0..symbols.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (&symbols[a].span, &symbols[b].span);
        (
            sa.start_line,
            sa.start_col,
            std::cmp::Reverse((sa.end_line, sa.end_col)),
            a,
        )
            .cmp(&(
                sb.start_line,
                sb.start_col,
                std::cmp::Reverse((sb.end_line, sb.end_col)),
                b,
            ))
    });
    let mut new_index = vec![0u32; symbols.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new as u32;
    }
    let old = std::mem::take(symbols);
    let mut slots: Vec<Option<SymbolFact>> = old.into_iter().map(Some).collect();
    let mut sorted: Vec<SymbolFact> = order
        .iter()
        .map(|&i| slots[i].take().expect("each index once"))
        .collect();
    // Explicit parents first, remapped.
    for s in sorted.iter_mut() {
        if let Some(p) = s.parent {
            s.parent = Some(new_index[p as usize]);
        }
    }
    // Implicit parents: the stack of open containers.
    let mut stack: Vec<usize> = Vec::new();
    for i in 0..sorted.len() {
        let span = sorted[i].span;
        while let Some(&top) = stack.last() {
            if sorted[top].span.contains(&span) && top != i {
                break;
            }
            stack.pop();
        }
        if sorted[i].parent.is_none() {
            sorted[i].parent = stack.last().map(|&p| p as u32);
        }
        // An explicit parent that does not come before the child would break the invariant.
        if let Some(p) = sorted[i].parent {
            if p as usize >= i {
                sorted[i].parent = None;
            }
        }
        if is_container(sorted[i].kind) {
            stack.push(i);
        }
    }
    *symbols = sorted;
    new_index
}

/// Finds the innermost symbol enclosing a point, for attributing references to their caller.
pub struct EnclosingIndex<'a> {
    symbols: &'a [SymbolFact],
    starts: Vec<(u32, u32)>,
    accept: fn(NodeKind) -> bool,
}

impl<'a> EnclosingIndex<'a> {
    /// Indexes `symbols`, which must be in [`nest_symbols`] order. Only kinds for which
    /// `accept` is true can enclose (functions, methods and types, usually).
    pub fn new(symbols: &'a [SymbolFact], accept: fn(NodeKind) -> bool) -> Self {
        let starts = symbols.iter().map(|s| (s.span.start_line, s.span.start_col)).collect();
        EnclosingIndex {
            symbols,
            starts,
            accept,
        }
    }

    /// Default acceptance: functions, methods, types, interfaces, and module-level
    /// variables/constants (whose initialisers hold closures and calls).
    pub fn code_owners(kind: NodeKind) -> bool {
        is_container(kind)
    }

    /// The innermost accepted symbol containing (line, col).
    pub fn find(&self, line: u32, col: u32) -> Option<u32> {
        let pos = self.starts.partition_point(|&p| p <= (line, col));
        if pos == 0 {
            return None;
        }
        let mut cur = Some(pos as u32 - 1);
        while let Some(i) = cur {
            let s = &self.symbols[i as usize];
            if s.span.contains_point(line, col) && (self.accept)(s.kind) {
                return Some(i);
            }
            cur = s.parent;
            // A later sibling may not contain the point while an earlier ancestor does: walking
            // parents from the last symbol that starts before the point reaches every ancestor.
        }
        None
    }
}

/// Visits every node of the tree in document order without recursion.
pub fn walk_tree(tree: &Tree, mut visit: impl FnMut(Node<'_>)) {
    let mut cursor = tree.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Parent lookup that stays cheap on deep trees. `Node::parent` (and `prev_sibling`) search down
/// from the root, O(depth), which makes per-node parent walks quadratic on 10,000-deep inputs.
/// One cursor walk records the parent of every node deeper than [`SHALLOW_DEPTH`]; shallower nodes
/// use `Node::parent`, bounded by that depth.
pub struct Parents<'t> {
    deep: HashMap<usize, Node<'t>>,
    siblings: std::cell::RefCell<HashMap<usize, std::rc::Rc<Vec<Node<'t>>>>>,
}

const SHALLOW_DEPTH: usize = 48;

impl<'t> Parents<'t> {
    pub fn new(tree: &'t tree_sitter::Tree) -> Self {
        let mut deep = HashMap::new();
        let mut cursor = tree.walk();
        let mut stack: Vec<Node<'t>> = Vec::new();
        loop {
            let node = cursor.node();
            if stack.len() > SHALLOW_DEPTH {
                if let Some(p) = stack.last() {
                    deep.insert(node.id(), *p);
                }
            }
            if cursor.goto_first_child() {
                stack.push(node);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return Parents {
                        deep,
                        siblings: Default::default(),
                    };
                }
                stack.pop();
            }
        }
    }

    pub fn parent(&self, n: Node<'t>) -> Option<Node<'t>> {
        match self.deep.get(&n.id()) {
            Some(p) => Some(*p),
            None => n.parent(),
        }
    }

    /// The contiguous comment block right above `node` (no blank line between), as raw text.
    pub fn leading_comment(&self, node: Node<'t>, src: &[u8], is_comment: fn(&str) -> bool) -> Option<String> {
        let parent = self.parent(node)?;
        let children = {
            let mut cache = self.siblings.borrow_mut();
            cache
                .entry(parent.id())
                .or_insert_with(|| {
                    let mut cur = parent.walk();
                    std::rc::Rc::new(parent.children(&mut cur).collect())
                })
                .clone()
        };
        let idx = children.partition_point(|c| c.start_byte() < node.start_byte());
        let mut parts = Vec::new();
        let mut expected_line = node.start_position().row;
        for sib in children[..idx.min(children.len())].iter().rev() {
            if !is_comment(sib.kind()) || sib.end_position().row + 1 < expected_line {
                break;
            }
            parts.push(text(*sib, src).into_owned());
            expected_line = sib.start_position().row;
        }
        if parts.is_empty() {
            return None;
        }
        parts.reverse();
        Some(parts.join("\n"))
    }
}

/// `root` and every node under it, in document order, without recursion.
pub fn descendants(root: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_summary_strips_markers_and_keeps_the_first_sentence() {
        assert_eq!(
            doc_summary("/**\n * Opens the store. Then more.\n * @param x y\n */").as_deref(),
            Some("Opens the store.")
        );
        assert_eq!(
            doc_summary("// Save writes\n// to disk.").as_deref(),
            Some("Save writes to disk.")
        );
        assert_eq!(
            doc_summary("\"\"\"Docstring here.\"\"\"").as_deref(),
            Some("Docstring here.")
        );
        assert_eq!(doc_summary("//   "), None);
    }

    #[test]
    fn doc_comment_keeps_the_prose_without_code_tags_or_markup() {
        let raw = "/**\n * Emits numbers <span class=\"informal\">periodically</span>.\n *\n * Uses the {@link SchedulerLike} given.\n * ```ts\n * interval(1000).pipe(take(3));\n * ```\n * @param period The interval size in milliseconds.\n * @example\n * interval(5)\n * @return An Observable.\n */";
        let doc = doc_comment(raw).unwrap();
        assert_eq!(
            doc.summary,
            "Emits numbers <span class=\"informal\">periodically</span>."
        );
        assert_eq!(
            doc.text.as_deref(),
            Some("Emits numbers periodically. Uses the SchedulerLike given. period The interval size in milliseconds. An Observable.")
        );
        let short = doc_comment("// Save writes to disk.").unwrap();
        assert_eq!((short.summary.as_str(), short.text), ("Save writes to disk.", None));
        let py = doc_comment("\"\"\"Add two numbers.\n\n    >>> add(1, 2)\n    3\n    Works on floats too.\n\"\"\"")
            .unwrap();
        assert_eq!(py.text.as_deref(), Some("Add two numbers. 3 Works on floats too."));
    }

    #[test]
    fn simple_type_names() {
        assert_eq!(simple_type_name("*store.Store").as_deref(), Some("Store"));
        assert_eq!(simple_type_name("List<Foo>").as_deref(), Some("List"));
        assert_eq!(simple_type_name("&mut Foo").as_deref(), Some("Foo"));
        assert_eq!(simple_type_name("crate::a::Foo<T>").as_deref(), Some("Foo"));
        assert_eq!(simple_type_name("Foo | null").as_deref(), Some("Foo"));
        assert_eq!(simple_type_name("[]Foo").as_deref(), Some("Foo"));
        assert_eq!(simple_type_name("123"), None);
        assert_eq!(simple_type_name("struct foo").as_deref(), Some("foo"));
        assert_eq!(simple_type_name("const ns::Foo&").as_deref(), Some("Foo"));
    }

    #[test]
    fn nesting_assigns_innermost_container() {
        let sp = |a, b| Span {
            start_line: a,
            start_col: 0,
            end_line: b,
            end_col: 1,
        };
        let mut syms = vec![
            SymbolFact::new("m", NodeKind::Method, sp(2, 3)),
            SymbolFact::new("C", NodeKind::Type, sp(1, 10)),
            SymbolFact::new("f", NodeKind::Function, sp(11, 12)),
        ];
        nest_symbols(&mut syms);
        assert_eq!(syms[0].name, "C");
        assert_eq!(syms[1].parent, Some(0));
        assert_eq!(syms[2].parent, None);
        let idx = EnclosingIndex::new(&syms, EnclosingIndex::code_owners);
        assert_eq!(idx.find(2, 5), Some(1));
        assert_eq!(idx.find(5, 0), Some(0));
        assert_eq!(idx.find(11, 0), Some(2));
        assert_eq!(idx.find(20, 0), None);
    }
}
