//! Target resolution: how a tool's node argument becomes graph nodes. An argument accepts an
//! exact node id, an id without the repository prefix, a repository-relative file path, a
//! qualified name (`Owner.name`, matched on whole trailing segments) or a bare name. File, package
//! and import nodes are only reached by id or path, never by name; external stubs only by id. A
//! name that matches several symbols is an `ambiguous` error listing the candidates (best first:
//! non-test, exported, then by id) so the agent retries with an id; every result therefore
//! describes exactly one target. An unknown target is `not_found` with similar names
//! ([`super::suggestions`]).

use super::suggestions::{did_you_mean, suggest, MAX_SUGGESTIONS};
use super::QueryError;
use crate::model::{Graph, NodeIndex};
use gortex_core::NodeKind;

/// Nodes named by `name_or_id` (see the module doc), best first; `not_found` with suggestions
/// when nothing matches.
pub fn resolve_target(g: &Graph, name_or_id: &str) -> Result<Vec<NodeIndex>, QueryError> {
    candidates(g, NodeArg::Id, name_or_id)
}

/// Exactly one node for `name_or_id`; an `ambiguous` error listing the candidates otherwise.
pub fn resolve_one(g: &Graph, name_or_id: &str) -> Result<NodeIndex, QueryError> {
    exactly_one(g, NodeArg::Id, name_or_id)
}

/// [`resolve_one`] for a tool with several node arguments (`from`, `to`): errors name `arg`.
pub fn resolve_arg(g: &Graph, arg: &str, value: &str) -> Result<NodeIndex, QueryError> {
    exactly_one(g, NodeArg::Named(arg), value)
}

/// A `not_found` error for `input` with up to [`MAX_SUGGESTIONS`] similar names or paths.
pub fn not_found(g: &Graph, input: &str) -> QueryError {
    not_found_for(g, NodeArg::Id, input)
}

/// The node with this exact id, also accepted without the `<repo>/` prefix.
pub fn lookup_id(g: &Graph, id: &str) -> Option<NodeIndex> {
    g.lookup(id).or_else(|| {
        if g.repo.is_empty() {
            None
        } else {
            g.lookup(&format!("{}/{}", g.repo, id))
        }
    })
}

/// The file node at a repository-relative path (a leading `./` is ignored).
pub fn file_node(g: &Graph, path: &str) -> Option<NodeIndex> {
    let path = path.strip_prefix("./").unwrap_or(path);
    g.file_nodes(path)
        .iter()
        .copied()
        .find(|&i| g.node_at(i).kind == NodeKind::File)
}

/// Which argument a target came from, so errors about a tool with several node arguments say
/// which one failed.
#[derive(Debug, Clone, Copy)]
enum NodeArg<'a> {
    /// A tool's only node argument, `id`: its errors carry no prefix.
    Id,
    /// One of several node arguments (`from`, `to`): its errors start with `"<name>: "`.
    Named(&'a str),
}

impl<'a> NodeArg<'a> {
    /// The argument's name as the caller spelled it.
    fn name(self) -> &'a str {
        match self {
            NodeArg::Id => "id",
            NodeArg::Named(name) => name,
        }
    }

    /// What precedes an error about this argument.
    fn prefix(self) -> String {
        match self {
            NodeArg::Id => String::new(),
            NodeArg::Named(name) => format!("{name}: "),
        }
    }
}

fn candidates(g: &Graph, arg: NodeArg, name_or_id: &str) -> Result<Vec<NodeIndex>, QueryError> {
    let input = name_or_id.trim();
    if input.is_empty() {
        return Err(QueryError::invalid(format!(
            "{} must be a node id, a file path or a symbol name, got an empty string",
            arg.name()
        )));
    }
    if let Some(i) = lookup_id(g, input) {
        return Ok(vec![i]);
    }
    if let Some(i) = file_node(g, input) {
        return Ok(vec![i]);
    }
    let dotted = format!(".{input}");
    // `Owner.name` and `name` both end in the bare name, so the name index narrows the search.
    let last = input.rsplit('.').next().unwrap_or(input);
    let mut hits: Vec<NodeIndex> = g
        .named(last)
        .iter()
        .copied()
        .filter(|&i| {
            let n = g.node_at(i);
            n.kind.is_symbol() && !n.external && (n.qualified == input || n.qualified.ends_with(&dotted))
        })
        .collect();
    if hits.is_empty() {
        return Err(not_found_for(g, arg, input));
    }
    hits.sort_by(|&a, &b| {
        let (x, y) = (g.node_at(a), g.node_at(b));
        (x.is_test, !x.exported, &x.id).cmp(&(y.is_test, !y.exported, &y.id))
    });
    Ok(hits)
}

fn exactly_one(g: &Graph, arg: NodeArg, name_or_id: &str) -> Result<NodeIndex, QueryError> {
    let hits = candidates(g, arg, name_or_id)?;
    if hits.len() == 1 {
        return Ok(hits[0]);
    }
    const SHOWN: usize = 10;
    let listed: Vec<String> = hits
        .iter()
        .take(SHOWN)
        .map(|&i| {
            let n = g.node_at(i);
            format!("{} ({} at {}:{})", n.id, n.kind, n.path, n.span.start_line)
        })
        .collect();
    let more = if hits.len() > SHOWN {
        format!(" and {} more", hits.len() - SHOWN)
    } else {
        String::new()
    };
    Err(QueryError::ambiguous(format!(
        "{}{:?} matches {} symbols; pass one of these ids: {}{more}",
        arg.prefix(),
        name_or_id.trim(),
        hits.len(),
        listed.join(", ")
    )))
}

fn not_found_for(g: &Graph, arg: NodeArg, input: &str) -> QueryError {
    QueryError::not_found(format!(
        "{}no node matches {input:?} (tried node id, file path, qualified and bare symbol name); {}",
        arg.prefix(),
        did_you_mean(&suggest(g, input, MAX_SUGGESTIONS))
    ))
}
