//! Builds a repository's graph from per-file facts: nodes with stable ids, structural edges,
//! then resolution of imports and references (see `resolve.rs`).

use crate::config::{dir_of, RepoConfig};
use crate::model::{Edge, Graph, Id, Node, NodeIndex, Unresolved};
use crate::resolve::{self, Tables};
use gortex_core::{file_id, symbol_id, EdgeKind, FileFacts, Language, NodeKind, Origin, Span};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One parsed file handed to the graph builder.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Repository-relative path with `/` separators.
    pub path: Arc<str>,
    pub language: Language,
    pub facts: Arc<FileFacts>,
}

/// Everything the builder needs about one repository.
pub struct RepoInput<'a> {
    /// The repository prefix of every id.
    pub repo: &'a str,
    /// Files sorted by path (the builder relies on the order for determinism).
    pub files: &'a [SourceFile],
    pub config: &'a RepoConfig,
}

/// Node indices of one file: its file node and one per symbol (same order as `facts.symbols`).
#[derive(Debug, Clone, Default)]
pub(crate) struct FileNodes {
    pub file: NodeIndex,
    pub symbols: Vec<NodeIndex>,
}

/// Builds the graph. Pure: the same input always yields the same graph.
pub fn build_graph(input: RepoInput<'_>) -> Graph {
    debug_assert!(input.files.windows(2).all(|w| w[0].path < w[1].path), "files must be sorted by path");
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut file_nodes: Vec<FileNodes> = Vec::with_capacity(input.files.len());
    let mut packages: FxHashMap<(String, String), NodeIndex> = FxHashMap::default();

    for file in input.files {
        let fnode = push_file_node(&mut nodes, input.repo, file);
        let mut entry = FileNodes { file: fnode, symbols: Vec::with_capacity(file.facts.symbols.len()) };
        if let Some(pkg) = package_of(file) {
            let dir = dir_of(&file.path).to_string();
            let key = (dir.clone(), pkg.clone());
            let pnode = *packages.entry(key).or_insert_with(|| {
                let id: Id = Arc::from(format!("{}::{}", file_id(input.repo, &dir), pkg));
                let mut n = Node::bare(id, NodeKind::Package, pkg.clone(), pkg.clone(), Arc::from(dir.as_str()));
                n.language = Some(file.language);
                n.exported = true;
                nodes.push(n);
                (nodes.len() - 1) as NodeIndex
            });
            edges.push(Edge { from: pnode, to: fnode, kind: EdgeKind::Contains, origin: Origin::AstResolved, line: 0 });
        }
        push_symbol_nodes(&mut nodes, &mut edges, input.repo, file, &mut entry);
        file_nodes.push(entry);
    }

    let tables = Tables::build(input.files, &file_nodes, &nodes, input.config, &packages);
    let results: Vec<resolve::FileResolution> =
        (0..input.files.len()).into_par_iter().map(|i| resolve::resolve_file(&tables, i as u32)).collect();

    // External stubs are created after resolution, in a deterministic order.
    let mut externals: FxHashMap<String, NodeIndex> = FxHashMap::default();
    let mut unresolved: Vec<Unresolved> = Vec::new();
    let mut pending_external: Vec<(NodeIndex, String, NodeKind, EdgeKind, Origin, u32)> = Vec::new();
    for res in results {
        edges.extend(res.edges);
        unresolved.extend(res.unresolved);
        pending_external.extend(res.external);
    }
    drop(tables);
    for (from, target, kind, edge_kind, origin, line) in pending_external {
        let to = *externals.entry(target.clone()).or_insert_with(|| {
            let name = target.rsplit(['/', ':', '.']).find(|s| !s.is_empty()).unwrap_or(&target).to_string();
            let id: Id = Arc::from(format!("external::{target}"));
            let mut n = Node::bare(id, kind, name, target.clone(), Arc::from(""));
            n.external = true;
            n.exported = true;
            nodes.push(n);
            (nodes.len() - 1) as NodeIndex
        });
        edges.push(Edge { from, to, kind: edge_kind, origin, line });
    }
    Graph::assemble(input.repo.to_string(), nodes, edges, unresolved)
}

fn package_of(file: &SourceFile) -> Option<String> {
    match file.language {
        Language::Go | Language::Java => file.facts.package.clone(),
        _ => None,
    }
}

fn push_file_node(nodes: &mut Vec<Node>, repo: &str, file: &SourceFile) -> NodeIndex {
    let name = file.path.rsplit('/').next().unwrap_or(&file.path).to_string();
    let id: Id = Arc::from(file_id(repo, &file.path));
    let mut n = Node::bare(id, NodeKind::File, name, file.path.to_string(), file.path.clone());
    n.language = Some(file.language);
    n.test_runner = file.facts.test_runner;
    n.is_test = file.facts.test_runner.is_some();
    let last = file.facts.symbols.iter().map(|s| s.span.end_line).max().unwrap_or(1);
    n.span = Span { start_line: 1, start_col: 0, end_line: last.max(1), end_col: 0 };
    nodes.push(n);
    (nodes.len() - 1) as NodeIndex
}

/// `Owner.name` for symbol `i`: parent chain names, or for a parentless Go/Rust method the
/// receiver type recorded in `type_name`.
pub(crate) fn qualified_name(facts: &FileFacts, i: usize) -> String {
    let sym = &facts.symbols[i];
    let mut parts = vec![sym.name.as_str()];
    let mut cur = sym.parent.filter(|&p| (p as usize) < i);
    while let Some(p) = cur {
        let ps = &facts.symbols[p as usize];
        parts.push(ps.name.as_str());
        // Parents always precede children; anything else would loop.
        cur = ps.parent.filter(|&q| q < p);
    }
    if sym.parent.is_none() && sym.kind == NodeKind::Method {
        if let Some(owner) = &sym.type_name {
            parts.push(owner.as_str());
        }
    }
    parts.reverse();
    parts.join(".")
}

fn push_symbol_nodes(nodes: &mut Vec<Node>, edges: &mut Vec<Edge>, repo: &str, file: &SourceFile, entry: &mut FileNodes) {
    let facts = &file.facts;
    let mut seen: FxHashMap<String, ()> = FxHashMap::default();
    for (i, sym) in facts.symbols.iter().enumerate() {
        let qualified = qualified_name(facts, i);
        // Same qualified name on another line: `_L<line>` keeps ids unique and stable.
        let mut local = qualified.clone();
        if seen.insert(local.clone(), ()).is_some() {
            local = format!("{qualified}_L{}", sym.span.start_line);
            let mut bump = 1;
            while seen.insert(local.clone(), ()).is_some() {
                local = format!("{qualified}_L{}_{bump}", sym.span.start_line);
                bump += 1;
            }
        }
        let id: Id = Arc::from(symbol_id(repo, &file.path, &local));
        let mut n = Node::bare(id, sym.kind, sym.name.clone(), qualified, file.path.clone());
        n.language = Some(file.language);
        n.span = sym.span;
        n.flavor = sym.flavor;
        n.signature = sym.signature.clone();
        n.visibility = sym.visibility;
        n.exported = sym.exported;
        n.doc = sym.doc.clone();
        n.type_name = sym.type_name.clone();
        n.return_type = sym.return_type.clone();
        n.is_async = sym.is_async;
        n.is_static = sym.is_static;
        n.is_abstract = sym.is_abstract;
        n.decorators = sym.decorators.clone();
        n.test_role = sym.test_role;
        n.is_test = sym.test_role.is_some();
        if n.is_test {
            n.test_runner = facts.test_runner;
        }
        nodes.push(n);
        let idx = (nodes.len() - 1) as NodeIndex;
        entry.symbols.push(idx);
        let line = sym.span.start_line;
        edges.push(Edge { from: entry.file, to: idx, kind: EdgeKind::Defines, origin: Origin::AstResolved, line });
        if let Some(p) = sym.parent.filter(|&p| (p as usize) < i) {
            let parent_idx = entry.symbols[p as usize];
            edges.push(Edge { from: parent_idx, to: idx, kind: EdgeKind::Contains, origin: Origin::AstResolved, line });
            let parent_kind = facts.symbols[p as usize].kind;
            if parent_kind.is_type_like() {
                edges.push(Edge { from: idx, to: parent_idx, kind: EdgeKind::MemberOf, origin: Origin::AstResolved, line });
            }
        }
    }
}
