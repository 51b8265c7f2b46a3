//! `get_symbol` (one node in full) and `get_file_summary` (a file's symbols and imports).

use super::args::check_limit_with;
use super::targets::{file_node, lookup_id, not_found, resolve_one};
use super::{NodeSummary, QueryError};
use crate::model::{Graph, Node, NodeIndex};
use gortex_core::{EdgeKind, NodeKind, Origin, TestRole, TestRunner, Visibility};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Arguments of `get_symbol`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetSymbolArgs {
    /// The symbol (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick).
    pub id: String,
    /// `full`: the node also carries `meta`, its declaration details in one map (signature, doc,
    /// visibility, types, flags) for clients that read them there; default `brief`.
    #[serde(default)]
    pub detail: Option<String>,
}

/// One node in full: its summary, declaration details, owner and edge counts.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetSymbolResult {
    #[serde(rename = "node")]
    pub symbol: NodeSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decorators: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_abstract: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_role: Option<TestRole>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_runner: Option<TestRunner>,
    /// The enclosing symbol (`contains` parent, or the type a detached method is a member of).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<NodeSummary>,
    /// Incoming edges by kind.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub edges_in: BTreeMap<EdgeKind, usize>,
    /// Outgoing edges by kind.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub edges_out: BTreeMap<EdgeKind, usize>,
    /// References made from this node that the resolver could not bind.
    #[serde(skip_serializing_if = "is_zero")]
    pub unresolved_out: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The enclosing symbol of a node: a `contains` parent that is not a file or package, else the
/// `member_of` type.
pub fn parent_of(g: &Graph, i: NodeIndex) -> Option<NodeIndex> {
    g.in_edges(i)
        .filter(|e| e.kind == EdgeKind::Contains && g.node_at(e.from).kind.is_symbol())
        .map(|e| e.from)
        .min()
        .or_else(|| {
            g.out_edges(i)
                .filter(|e| e.kind == EdgeKind::MemberOf)
                .map(|e| e.to)
                .min()
        })
}

/// The node and its enclosing symbols, innermost first (bounded: nesting is shallow, and a
/// malformed containment cycle must not loop).
pub fn enclosing_symbols(g: &Graph, i: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
    std::iter::successors(Some(i), move |&n| parent_of(g, n)).take(32)
}

/// A UI component of any framework: a declaration the extractor marked with its framework (a
/// Vue or Svelte file component, a React function, a Flutter widget class, …).
pub fn is_ui_component(n: &Node) -> bool {
    n.ui.is_some()
}

/// The UI component a node sits in: the node itself or its nearest enclosing component.
pub fn enclosing_ui_component(g: &Graph, i: NodeIndex) -> Option<NodeIndex> {
    enclosing_symbols(g, i).find(|&n| is_ui_component(g.node_at(n)))
}

/// `get_symbol`: a node with every declaration detail the index holds.
pub fn get_symbol(g: &Graph, args: &GetSymbolArgs) -> Result<GetSymbolResult, QueryError> {
    let i = resolve_one(g, &args.id)?;
    let n = g.node_at(i);
    let mut edges_in = BTreeMap::new();
    for e in g.in_edges(i) {
        *edges_in.entry(e.kind).or_insert(0) += 1;
    }
    let mut edges_out = BTreeMap::new();
    for e in g.out_edges(i) {
        *edges_out.entry(e.kind).or_insert(0) += 1;
    }
    let full = match args.detail.as_deref() {
        None | Some("brief") => false,
        Some("full") => true,
        Some(other) => {
            return Err(QueryError::invalid(format!(
                "detail must be brief or full, got {other:?}"
            )))
        }
    };
    let mut symbol = NodeSummary::of(n);
    if full {
        let mut meta = BTreeMap::new();
        let mut put = |key: &str, value: serde_json::Value| {
            meta.insert(key.to_string(), value);
        };
        if let Some(v) = &n.signature {
            put("signature", v.clone().into());
        }
        if let Some(v) = &n.doc {
            put("doc", v.clone().into());
        }
        if let Some(v) = n.visibility {
            put("visibility", v.as_str().into());
        }
        if let Some(v) = &n.type_name {
            put("type_name", v.clone().into());
        }
        if let Some(v) = &n.return_type {
            put("return_type", v.clone().into());
        }
        if !n.decorators.is_empty() {
            put("decorators", n.decorators.clone().into());
        }
        for (key, on) in [
            ("is_async", n.is_async),
            ("is_static", n.is_static),
            ("is_abstract", n.is_abstract),
        ] {
            if on {
                put(key, true.into());
            }
        }
        symbol.meta = Some(meta);
    }
    Ok(GetSymbolResult {
        symbol,
        doc: n.doc.clone(),
        visibility: n.visibility,
        decorators: n.decorators.clone(),
        type_name: n.type_name.clone(),
        return_type: n.return_type.clone(),
        is_async: n.is_async,
        is_static: n.is_static,
        is_abstract: n.is_abstract,
        test_role: n.test_role,
        test_runner: n.test_runner,
        parent: parent_of(g, i).map(|p| NodeSummary::at(g, p)),
        edges_in,
        edges_out,
        unresolved_out: g.unresolved_from(i).count(),
    })
}

/// Arguments of `get_file_summary`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetFileSummaryArgs {
    /// Repository-relative path or file node id.
    pub path: String,
    /// Most symbols listed (default 200, max 1000).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A symbol of the file, in source order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileSymbol {
    pub symbol: NodeSummary,
    /// Id of the enclosing symbol, when nested.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Nesting depth (0 = top level).
    pub depth: u32,
}

/// How an import statement resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImportStatus {
    /// Bound to a file, package or symbol of this repository.
    Resolved,
    /// Bound to a module outside the repository.
    External,
    /// Not bound.
    Unresolved,
}

/// One import statement (grouped by line, kind and target module).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileImport {
    pub line: u32,
    /// `imports` or `re_exports`.
    pub kind: EdgeKind,
    /// The module: the target file's path, package name, external module or, when unresolved, the
    /// specifier as written.
    pub module: String,
    /// Id of the target file, package or external module stub.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Ids of the symbols the statement binds, when they resolved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
    pub status: ImportStatus,
    /// Strongest origin of the statement's edges (absent when unresolved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
}

/// Counts over the whole file (not cut by `limit`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileCounts {
    pub symbols: usize,
    pub by_kind: BTreeMap<NodeKind, usize>,
    pub imports: usize,
    pub unresolved_imports: usize,
    /// Files (and packages) that import this file.
    pub imported_by: usize,
}

/// A file's symbols in source order (with nesting), its imports and counts.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GetFileSummaryResult {
    pub file: NodeSummary,
    pub symbols: Vec<FileSymbol>,
    pub imports: Vec<FileImport>,
    pub counts: FileCounts,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// `get_file_summary`: symbols in source order with their parents, imports with resolution status.
pub fn get_file_summary(g: &Graph, args: &GetFileSummaryArgs) -> Result<GetFileSummaryResult, QueryError> {
    let limit = check_limit_with(args.limit, 200)?;
    let input = args.path.trim();
    if input.is_empty() {
        return Err(QueryError::invalid(
            "path must be a repository-relative file path or a file id, got an empty string",
        ));
    }
    let file = match file_node(g, input).or_else(|| lookup_id(g, input)) {
        Some(i) if g.node_at(i).kind == NodeKind::File => i,
        Some(i) => {
            return Err(QueryError::invalid(format!(
                "path must name a file, but {input:?} is a {} (use get_symbol, or pass its path {:?})",
                g.node_at(i).kind,
                g.node_at(i).path
            )))
        }
        None => return Err(not_found(g, input)),
    };
    let fnode = g.node_at(file);
    let mut syms: Vec<NodeIndex> = g
        .file_nodes(&fnode.path)
        .iter()
        .copied()
        .filter(|&i| g.node_at(i).kind.is_symbol())
        .collect();
    syms.sort_by_key(|&i| {
        let n = g.node_at(i);
        (n.span.start_line, n.span.start_col, n.span.end_line, n.id.clone())
    });
    let mut by_kind = BTreeMap::new();
    for &i in &syms {
        *by_kind.entry(g.node_at(i).kind).or_insert(0) += 1;
    }
    let total = syms.len();
    let symbols = syms
        .iter()
        .take(limit)
        .map(|&i| {
            let parent = parent_of(g, i);
            let mut depth = 0;
            let mut cur = parent;
            // Parent chains are acyclic by construction; the bound guards against surprises.
            while let Some(p) = cur {
                depth += 1;
                if depth > 64 {
                    break;
                }
                cur = parent_of(g, p);
            }
            FileSymbol {
                symbol: NodeSummary::at(g, i),
                parent: parent.map(|p| g.node_at(p).id.to_string()),
                depth,
            }
        })
        .collect();

    let imports = file_imports(g, file);
    let unresolved_imports = imports.iter().filter(|i| i.status == ImportStatus::Unresolved).count();
    let mut importers: Vec<NodeIndex> = g
        .in_edges(file)
        .filter(|e| matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports))
        .map(|e| e.from)
        .collect();
    importers.sort_unstable();
    importers.dedup();
    Ok(GetFileSummaryResult {
        file: NodeSummary::of(fnode),
        symbols,
        counts: FileCounts {
            symbols: total,
            by_kind,
            imports: imports.len(),
            unresolved_imports,
            imported_by: importers.len(),
        },
        imports,
        truncated: total > limit,
    })
}

/// A file's import statements, from its `imports`/`re_exports` edges and unresolved imports.
fn file_imports(g: &Graph, file: NodeIndex) -> Vec<FileImport> {
    // (line, kind) → (module target, bound symbols, strongest origin)
    type Group = (Option<NodeIndex>, Vec<NodeIndex>, Origin);
    let mut groups: BTreeMap<(u32, EdgeKind), Group> = BTreeMap::new();
    for e in g.out_edges(file) {
        if !matches!(e.kind, EdgeKind::Imports | EdgeKind::ReExports) {
            continue;
        }
        let entry = groups.entry((e.line, e.kind)).or_insert((None, Vec::new(), e.origin));
        entry.2 = entry.2.max(e.origin);
        let to = g.node_at(e.to);
        if matches!(to.kind, NodeKind::File | NodeKind::Package | NodeKind::Module) || to.external {
            entry.0 = Some(entry.0.map_or(e.to, |t: NodeIndex| t.min(e.to)));
        } else {
            entry.1.push(e.to);
        }
    }
    let mut out: Vec<FileImport> = groups
        .into_iter()
        .map(|((line, kind), (target, mut symbols, origin))| {
            symbols.sort_by(|a, b| g.node_at(*a).id.cmp(&g.node_at(*b).id));
            symbols.dedup();
            // A statement bound straight to a symbol names that symbol's file as its module.
            let module_node = target.or_else(|| symbols.first().and_then(|&s| file_node(g, &g.node_at(s).path)));
            let (module, status) = match module_node.map(|t| g.node_at(t)) {
                Some(t) if t.external => (t.qualified.clone(), ImportStatus::External),
                Some(t) if t.kind == NodeKind::File => (t.path.to_string(), ImportStatus::Resolved),
                Some(t) => (t.qualified.clone(), ImportStatus::Resolved),
                None => (String::new(), ImportStatus::Resolved),
            };
            FileImport {
                line,
                kind,
                module,
                target: module_node.map(|t| g.node_at(t).id.to_string()),
                symbols: symbols.iter().map(|&s| g.node_at(s).id.to_string()).collect(),
                status,
                origin: Some(origin),
            }
        })
        .collect();
    for u in g.unresolved_from(file) {
        if !matches!(u.kind, EdgeKind::Imports | EdgeKind::ReExports) {
            continue;
        }
        let module = u
            .target
            .strip_prefix("unresolved::import::")
            .unwrap_or(&u.target)
            .to_string();
        out.push(FileImport {
            line: u.line,
            kind: u.kind,
            module,
            target: None,
            symbols: Vec::new(),
            status: ImportStatus::Unresolved,
            origin: None,
        });
    }
    out.sort_by(|a, b| (a.line, a.kind, &a.module).cmp(&(b.line, b.kind, &b.module)));
    out
}
