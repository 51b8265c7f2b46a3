//! Builds a repository's graph from per-file facts: nodes with stable ids, structural edges,
//! then resolution of imports and references (see `resolve/`). With the previous build's
//! [`ResolutionCache`], only files whose dependencies a change touched are resolved again.
//!
//! A build makes node ids, `defines`/`contains`/`member_of` edges and package nodes (Go, Java),
//! then resolves every file's imports and references in parallel. Which files a change touches
//! is `deps.rs`'s business; files to resolve again are resolved one job each: they sit together
//! (a directory's readers) and rayon's split of the whole file list left them to one thread.
//!
//! # Node blocks
//!
//! The nodes of unchanged files are not built again either: when nothing else holds the previous
//! graph (queries hold it only while they run; caches hold weak references) `rebuild_graph`
//! (`gortex-index`) hands it to the builder, which moves each unchanged file's node block (file
//! node, then one node per symbol) into the new node list and frees the rest on another thread.
//! When every file keeps its place (the same files, each block as long as before, package nodes
//! where they were: what a body edit gives), the previous node list is kept as it is and only the
//! changed blocks are overwritten.
//!
//! # Layouts: assembled, patched, shifted
//!
//! When every node keeps its place, the previous graph's sorted edges, unresolved references, id
//! map and file blocks are patched (`patch_in_place`): each file resolved again has its previous
//! contribution (its previous resolution and, if its facts changed, structure, converted with
//! the same node numbers) taken out and its new one merged in, unless external stubs would be
//! numbered differently. Edges are kept sorted by source node, so outgoing adjacency is a slice
//! of them; incoming adjacency and unresolved references by node are rebuilt as CSR arrays. On
//! Kubernetes 1.20.2 a body edit's `update_paths` went from ≈ 330–590 ms to ≈ 40–65 ms.
//!
//! When a changed file's block grows or shrinks (a declaration added or removed) but every file
//! and package node keeps its place in the order, the previous graph is *shifted*: one monotone
//! old → new node map renumbers its edges, unresolved references, id map and file blocks (sorted
//! lists stay sorted), resized blocks get or lose slots, and the patch above runs on the result.
//! Anything else is *assembled* from scratch. An overlay view's graph is none of these but a
//! *layer* over the base graph (`layer.rs`), patched the same way. [`BuildStats::layout`] ([`Layout`]; the index
//! report's `graph_layout`) says which a build took, and [`BuildStats::tables`] ([`TablesMade`];
//! `lookup_tables`) whether the resolver's lookup tables were `built`, `kept` or `patched`
//! (`resolve/kept.rs`); an appended function on Kubernetes assembles in ≈ 30 ms instead of
//! ≈ 120–170.
//!
//! The incremental property test (`gortex-index/tests/incremental.rs`) compares the whole layout
//! (edge, unresolved and node order, id map, every node's adjacency) with a clean build after
//! every edit, not only the canonical dump.
//!
//! # Files by position
//!
//! Within a pass, unchanged files are found by position rather than by path when the build has
//! the previous build's files (no file added or removed): a file whose facts are the very
//! allocation at the same position in the previous graph is that file, its node block starts at
//! that file node and its previous resolution is the cache's entry at that position. Paths are
//! `Arc<str>` shared from the index's records through every build into the resolution cache, so
//! the comparisons that remain (kept tables' files, rendered import targets, the symbol index's
//! files) are pointer comparisons through `gortex_core::same_text` (`Arc<str>`'s own `==` always
//! compares the bytes). Files to resolve regardless are kept by position, not path; the SwiftPM
//! roots are looked for only when a changed file is Swift.
//!
//! Every such per-file read is a cache miss when the files' data is scattered, which is what a
//! cold pass leaves: its parse and resolve threads allocate each file's facts and resolution
//! between syntax trees they free. A repository indexed cold for editing (`keep_build_caches`
//! with a snapshot) is therefore read back from the snapshot it just wrote (`RepoIndex::relayout`,
//! the open report's `relayout` phase) and its graph assembled again from it, as a warm open
//! would, with its data in path order: on TypeScript's whole tree ≈ 2 s on an 80 s cold open,
//! resident memory after opening 765 → 610 MB, and the edits after it 97 → 81 ms a pass (79 after
//! a warm open).

use crate::cache::{Endpoint, ExternalEdge, ResolutionCache, ResolvedFile};
use crate::config::{dir_of, RepoConfig};
use crate::model::{merge_edges, Edge, Graph, GraphParts, Id, Node, NodeIndex, Unresolved};
use crate::reuse::{resolve_input, Prior, Resolved};
use gortex_core::{file_id, symbol_id, EdgeKind, FileFacts, Language, NodeKind, Origin, Span};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// One parsed file handed to the graph builder.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Repository-relative path with `/` separators.
    pub path: Arc<str>,
    pub language: Language,
    pub facts: Arc<FileFacts>,
    /// Language-server answers about this file's call sites, for the content these facts are of.
    pub semantic: Option<Arc<crate::semantic::SemanticSites>>,
}

/// Everything the builder needs about one repository.
pub struct RepoInput<'a> {
    /// The repository prefix of every id.
    pub repo: &'a str,
    /// Files sorted by path (the builder relies on the order for determinism).
    pub files: &'a [SourceFile],
    pub config: &'a RepoConfig,
}

/// A file whose facts differ from the previous build (modified, added or deleted).
#[derive(Debug, Clone)]
pub struct ChangedFile {
    pub path: String,
    /// The facts the previous build used (`None` when the file is new).
    pub old: Option<Arc<FileFacts>>,
}

/// The previous build's resolutions and what changed since.
pub struct Previous<'a> {
    pub cache: &'a ResolutionCache,
    pub changed: &'a [ChangedFile],
    /// The graph the previous build made, when the caller can give it up: the nodes of files
    /// that did not change are moved out of it instead of being built again.
    pub graph: Option<Graph>,
}

/// Counts of one build's resolution work.
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildStats {
    /// Files whose references were resolved in this build.
    pub resolved_files: usize,
    /// Files whose previous resolutions were reused.
    pub reused_files: usize,
    /// Milliseconds spent creating nodes and structural edges.
    pub nodes_ms: u64,
    /// Milliseconds spent building lookup tables (incl. import targets and hierarchy).
    pub tables_ms: u64,
    /// Milliseconds spent resolving (or reusing) per-file references.
    pub resolve_ms: u64,
    /// Milliseconds spent assembling edges and adjacency.
    pub assemble_ms: u64,
    /// How the graph was put together.
    pub layout: Layout,
    /// How the resolver's lookup tables were made.
    pub tables: TablesMade,
}

/// How a build made the resolver's lookup tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TablesMade {
    /// Built from every file.
    #[default]
    Built,
    /// The last build's, re-pointed at the new files (no interface changed).
    Kept,
    /// The last build's, patched for the files whose declarations changed.
    Patched,
    /// None: nothing changed since the last build, so every file's resolution stands.
    Unneeded,
}

impl TablesMade {
    /// The name reports use.
    pub fn as_str(self) -> &'static str {
        match self {
            TablesMade::Built => "built",
            TablesMade::Kept => "kept",
            TablesMade::Patched => "patched",
            TablesMade::Unneeded => "unneeded",
        }
    }
}

/// How a build put its graph together.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Layout {
    /// Converted, sorted and mapped from scratch.
    #[default]
    Assembled,
    /// Every node kept its place: the previous graph's edges and maps were patched.
    Patched,
    /// Changed files' blocks grew or shrank: the previous graph was renumbered, then patched.
    Shifted,
    /// A layer over a shared base graph (an overlay view, see `layer.rs`).
    Layered,
}

impl Layout {
    /// The name reports use.
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Assembled => "assembled",
            Layout::Patched => "patched",
            Layout::Shifted => "shifted",
            Layout::Layered => "layered",
        }
    }
}

/// Node indices of one file: its file node, then one per symbol right after it (same order as
/// `facts.symbols`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FileNodes {
    pub file: NodeIndex,
    pub symbols: u32,
}

impl FileNodes {
    /// The node of the file's `i`-th symbol.
    fn symbol(&self, i: usize) -> Option<NodeIndex> {
        (i < self.symbols as usize).then(|| self.file + 1 + i as NodeIndex)
    }

    /// The file's nodes: its file node and its symbols.
    pub(crate) fn block(&self) -> std::ops::RangeInclusive<NodeIndex> {
        self.file..=self.file + self.symbols
    }
}

/// Builds the graph from scratch. Pure: the same input always yields the same graph.
pub fn build_graph(input: RepoInput<'_>) -> Graph {
    build_graph_incremental(input, None).0
}

/// Builds the graph, reusing the previous build's resolutions for files no change can affect.
/// The result equals a clean build of the same input (a property the tests check).
pub fn build_graph_incremental(
    input: RepoInput<'_>,
    previous: Option<Previous<'_>>,
) -> (Graph, ResolutionCache, BuildStats) {
    debug_assert!(
        input.files.windows(2).all(|w| w[0].path < w[1].path),
        "files must be sorted by path"
    );
    let mut stats = BuildStats::default();
    let clock = std::time::Instant::now();
    let lap = || clock.elapsed().as_millis() as u64;
    let mut previous = previous;
    // Files whose node block can be moved out of the previous graph: unchanged facts, and the
    // block where this builder put it (file node first, then one node per symbol).
    // A layered graph (an overlay view's) is not a node list to move blocks out of.
    let mut old_graph = previous
        .as_mut()
        .and_then(|p| p.graph.take())
        .filter(|g| g.layer.is_none());
    let reusable_blocks: Vec<Option<usize>> = {
        let changed: FxHashSet<&str> = previous
            .as_ref()
            .map(|p| p.changed.iter().map(|c| c.path.as_str()).collect())
            .unwrap_or_default();
        // The previous graph's facts, aligned with its file nodes (in path order): a file whose
        // facts are the very ones at the same position is that file, unchanged (every parse
        // makes new facts), and its block starts at that file node. Finding it so reads two
        // arrays in order instead of hashing and comparing 60,000 paths.
        let aligned: Option<(&[Arc<FileFacts>], &[NodeIndex])> = old_graph
            .as_ref()
            .filter(|old| old.repo == input.repo && old.file_facts().len() == old.files().len())
            .map(|old| (old.file_facts(), old.files()));
        input
            .files
            .par_iter()
            .enumerate()
            .map(|(fi, file)| {
                let old = old_graph.as_ref()?;
                if let Some((facts, files)) = aligned {
                    if facts.get(fi).is_some_and(|f| Arc::ptr_eq(f, &file.facts)) {
                        let first = files[fi] as usize;
                        debug_assert_eq!(*old.nodes[first].id, *file_id(input.repo, &file.path));
                        return Some(first);
                    }
                }
                if changed.contains(&*file.path) {
                    return None;
                }
                let &first = old.file_nodes(&file.path).first()?;
                let len = 1 + file.facts.symbols.len();
                let block = old.nodes.get(first as usize..first as usize + len)?;
                let head = &block[0];
                (head.kind == NodeKind::File && *head.id == *file_id(input.repo, &file.path)).then_some(first as usize)
            })
            .collect()
    };
    let capacity: usize = input.files.iter().map(|f| 1 + f.facts.symbols.len()).sum();
    // When every file keeps its place (the same files, each block as long as before: a body
    // edit), the previous node list is kept where it is and only changed blocks are overwritten;
    // moving hundreds of thousands of nodes costs more than building the few that changed.
    // The length of the kept list (file blocks and package nodes) when in place.
    let in_place: Option<usize> = old_graph.as_ref().and_then(|old| {
        let mut at = 0usize;
        let mut seen: FxHashSet<(&str, String)> = FxHashSet::default();
        for (file, reuse) in input.files.iter().zip(&reusable_blocks) {
            let len = 1 + file.facts.symbols.len();
            let kept = match reuse {
                Some(start) => *start == at,
                None => {
                    let block = old.file_nodes(&file.path);
                    block.len() == len
                        && block.first() == Some(&(at as NodeIndex))
                        && block.last() == Some(&((at + len - 1) as NodeIndex))
                        && old.nodes[at].kind == NodeKind::File
                }
            };
            if !kept {
                return None;
            }
            at += len;
            if package_node_follows(input.repo, file, &mut seen, old, at)? {
                at += 1;
            }
        }
        Some(at)
    });
    // A changed file's block grew or shrank (a declaration added or removed): the blocks after
    // it move, but keep their order. The previous node list, edges and maps are renumbered in
    // one pass each and then patched like an in-place build, rather than assembled anew.
    let shift: Option<Shift> = match (in_place, old_graph.as_ref(), previous.as_ref()) {
        (None, Some(old), Some(p)) if !p.changed.is_empty() => shift_layout(&input, &reusable_blocks, old),
        _ => None,
    };
    let in_place = in_place.or(shift.as_ref().map(|s| s.new_kept));
    // In place, the previous graph's edges, maps and external stubs (the tail of its node
    // list) are kept too: a build that re-resolved few files patches them (`patch_in_place`).
    let mut kept_parts: Option<(GraphParts, Vec<Node>)> = None;
    let mut nodes: Vec<Node> = match (old_graph.as_mut(), in_place, &shift) {
        (Some(old), Some(_), Some(shift)) => {
            let mut parts = old.take_parts();
            let (kept, tail) = shift.apply(std::mem::take(&mut old.nodes), &mut parts);
            kept_parts = Some((parts, tail));
            kept
        }
        (Some(old), Some(kept_len), None) => {
            let mut kept = std::mem::take(&mut old.nodes);
            let tail = kept.split_off(kept_len);
            kept_parts = Some((old.take_parts(), tail));
            kept
        }
        _ => Vec::with_capacity(capacity + capacity / 16),
    };
    let mut file_nodes: Vec<FileNodes> = Vec::with_capacity(input.files.len());
    let mut packages: FxHashMap<(String, String), NodeIndex> = FxHashMap::default();

    // Each changed file's nodes are built in parallel, then placed in path order (so node
    // order, and everything after, stays deterministic). A reused block is moved below.
    let blocks: Vec<Vec<Node>> = input
        .files
        .par_iter()
        .zip(reusable_blocks.par_iter())
        .map(|(file, reuse)| {
            let mut local_nodes = Vec::new();
            if reuse.is_none() {
                local_nodes.reserve(file.facts.symbols.len() + 1);
                push_file_node(&mut local_nodes, input.repo, file);
                push_symbol_nodes(&mut local_nodes, input.repo, file);
            }
            local_nodes
        })
        .collect();
    // Moved-out slots get a placeholder that costs no allocation.
    let placeholder = Node::placeholder();
    let mut offset = 0usize;
    // (package node, file node) of every file in a Go/Java package.
    let mut package_members: Vec<(NodeIndex, NodeIndex)> = Vec::new();
    for ((file, local_nodes), reuse) in input.files.iter().zip(blocks).zip(&reusable_blocks) {
        let base = if in_place.is_some() { offset } else { nodes.len() } as NodeIndex;
        offset += 1 + file.facts.symbols.len();
        match reuse {
            // In place, an unchanged block already sits at `base`; a changed one is overwritten.
            Some(_) if in_place.is_some() => {}
            None if in_place.is_some() => {
                let block = &mut nodes[base as usize..base as usize + local_nodes.len()];
                // The kept id map follows the overwritten block.
                if let Some((parts, _)) = kept_parts.as_mut() {
                    for slot in block.iter() {
                        parts.index.remove(&slot.id);
                    }
                    for (j, node) in local_nodes.iter().enumerate() {
                        parts.index.insert(node.id.clone(), base + j as NodeIndex);
                    }
                }
                for (slot, node) in block.iter_mut().zip(local_nodes) {
                    *slot = node;
                }
                // A resized block's node list (renumbered by the shift) is its new range.
                if let (Some((parts, _)), Some(_)) = (kept_parts.as_mut(), &shift) {
                    let range = base..=base + file.facts.symbols.len() as NodeIndex;
                    parts.by_file.insert(file.path.clone(), range.collect());
                }
            }
            Some(start) => {
                let old = old_graph
                    .as_mut()
                    .expect("a reusable block comes from the previous graph");
                let len = 1 + file.facts.symbols.len();
                nodes.extend(
                    old.nodes[*start..*start + len]
                        .iter_mut()
                        .map(|n| std::mem::replace(n, placeholder.clone())),
                );
            }
            None => nodes.extend(local_nodes),
        }
        let entry = FileNodes {
            file: base,
            symbols: file.facts.symbols.len() as u32,
        };
        if let Some(pkg) = package_of(file) {
            let dir = dir_of(&file.path).to_string();
            let key = (dir.clone(), pkg.clone());
            let pnode = *packages.entry(key).or_insert_with(|| {
                if in_place.is_some() {
                    // Already in the kept list, right after this file's block (checked above).
                    offset += 1;
                    return (offset - 1) as NodeIndex;
                }
                let id: Id = Arc::from(package_id(input.repo, &dir, &pkg));
                let mut n = Node::bare(id, NodeKind::Package, pkg.clone(), pkg.clone(), Arc::from(dir.as_str()));
                n.language = Some(file.language);
                n.exported = true;
                nodes.push(n);
                (nodes.len() - 1) as NodeIndex
            });
            package_members.push((pnode, entry.file));
        }
        file_nodes.push(entry);
    }
    // What is left of the previous graph (changed files' nodes, adjacency, maps) is freed on
    // another thread: dropping hundreds of thousands of strings is not worth waiting for.
    if let Some(old) = old_graph.take() {
        rayon::spawn(move || drop(old));
    }

    stats.nodes_ms = lap();
    let Resolved {
        fingerprint,
        derived,
        kept,
        results,
        reusable,
    } = resolve_input(&input, previous.as_ref(), &mut stats);
    let mut conv = Converter {
        files: input.files,
        by_path: None,
        file_nodes: &file_nodes,
        packages: &packages,
        scattered: None,
        packages_then: None,
    };
    // Every node kept its place: patch the previous graph's edges and maps with what the files
    // resolved again produced, instead of converting, sorting and mapping everything.
    if let (Some((parts, tail)), Some((prior, _, _)), Some(p)) = (kept_parts.take(), &reusable, &previous) {
        let first_stub = nodes.len() as NodeIndex;
        match patch_in_place(&conv, &results, prior, p.changed, parts, first_stub, &tail) {
            Ok(parts) => {
                stats.layout = if shift.is_some() {
                    Layout::Shifted
                } else {
                    Layout::Patched
                };
                nodes.extend(tail);
                let mut graph = Graph::from_parts(input.repo.to_string(), nodes, parts);
                graph.set_file_facts(input.files.iter().map(|f| Arc::clone(&f.facts)).collect());
                stats.assemble_ms = lap() - stats.nodes_ms - stats.tables_ms - stats.resolve_ms;
                let cache = ResolutionCache {
                    fingerprint,
                    files: cache_entries(input.files, results, &mut stats),
                    derived,
                    kept_tables: kept,
                };
                return (graph, cache, stats);
            }
            Err(parts) => rayon::spawn(move || drop((parts, tail))),
        }
    }
    // Path space → node indices, per file in parallel (with each file's structure); external
    // stubs are then made in order. Every file is converted: its paths are looked up by hash.
    conv.by_path = Some(
        input
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (&*f.path, i as u32))
            .collect(),
    );
    let converted: Vec<(Vec<Edge>, Converted<'_>)> = results
        .par_iter()
        .zip(input.files.par_iter().zip(&file_nodes))
        .map(|((res, _), (file, entry))| {
            let mut structure = Vec::with_capacity(file.facts.symbols.len() * 2);
            push_structural_edges(&mut structure, &file.facts, entry);
            (structure, conv.convert(res))
        })
        .collect();
    let mut externals: FxHashMap<&str, NodeIndex> = FxHashMap::default();
    let (edge_count, unresolved_count) = converted
        .iter()
        .fold((package_members.len(), 0), |(e, u), (fs, (fe, fu, fx))| {
            (e + fs.len() + fe.len() + fx.len(), u + fu.len())
        });
    let mut edges: Vec<Edge> = Vec::with_capacity(edge_count);
    edges.extend(package_members.iter().map(|&(package, file)| Edge {
        from: package,
        to: file,
        kind: EdgeKind::Contains,
        origin: Origin::AstResolved,
        line: 0,
        via: None,
    }));
    let mut unresolved: Vec<Unresolved> = Vec::with_capacity(unresolved_count);
    // External stubs are gathered apart and appended with an exact reservation: pushed one by
    // one past the node list's reserved capacity they doubled it, and the graph keeps this list
    // for its life (≈ 30 MB on Kubernetes; shrinking afterwards frees nothing, as mimalloc keeps
    // a block shrunk by less than half where it is).
    let first_stub = nodes.len();
    let mut stubs: Vec<Node> = Vec::new();
    for (structure, (file_edges, file_unresolved, file_external)) in converted {
        edges.extend(structure);
        edges.extend(file_edges);
        unresolved.extend(file_unresolved);
        for (from, x) in file_external {
            let to = *externals.entry(x.target.as_str()).or_insert_with(|| {
                stubs.push(external_stub(&x.target, x.stub));
                (first_stub + stubs.len() - 1) as NodeIndex
            });
            edges.push(x.edge(from, to));
        }
    }
    nodes.reserve_exact(stubs.len());
    nodes.append(&mut stubs);
    let cache_files = cache_entries(input.files, results, &mut stats);
    let mut graph = Graph::assemble(input.repo.to_string(), nodes, edges, unresolved);
    graph.set_file_facts(input.files.iter().map(|f| Arc::clone(&f.facts)).collect());
    stats.assemble_ms = lap() - stats.nodes_ms - stats.tables_ms - stats.resolve_ms;
    let cache = ResolutionCache {
        fingerprint,
        files: cache_files,
        derived,
        kept_tables: kept,
    };
    (graph, cache, stats)
}

/// The resolution cache's per-file entries, counting reused and resolved files.
pub(crate) fn cache_entries(
    files: &[SourceFile],
    results: Vec<(Arc<ResolvedFile>, bool)>,
    stats: &mut BuildStats,
) -> Vec<(Arc<str>, Arc<ResolvedFile>)> {
    let mut entries = Vec::with_capacity(results.len());
    for (fi, (res, reused)) in results.into_iter().enumerate() {
        if reused {
            stats.reused_files += 1;
        } else {
            stats.resolved_files += 1;
        }
        entries.push((Arc::clone(&files[fi].path), res));
    }
    entries
}

/// One file's resolution in node space: edges, unresolved references, and edges to external
/// stubs (their source node and the path-space edge naming the stub).
pub(crate) type Converted<'r> = (Vec<Edge>, Vec<Unresolved>, Vec<(NodeIndex, &'r ExternalEdge)>);

/// Turns path-space resolutions into node indices of this build.
pub(crate) struct Converter<'x> {
    pub(crate) files: &'x [SourceFile],
    /// Files by path, when many files are converted (else a binary search finds them).
    pub(crate) by_path: Option<FxHashMap<&'x str, u32>>,
    pub(crate) file_nodes: &'x [FileNodes],
    pub(crate) packages: &'x FxHashMap<(String, String), NodeIndex>,
    /// Files whose nodes are not one block after their file node (a layered graph's changed
    /// files; empty: the file has no nodes), by position.
    pub(crate) scattered: Option<&'x FxHashMap<u32, Vec<NodeIndex>>>,
    /// Packages files were in when the resolutions converted were made, by position, where
    /// they differ from the files' facts now (a layer taking out a changed file's old edges).
    pub(crate) packages_then: Option<&'x FxHashMap<u32, Option<String>>>,
}

impl Converter<'_> {
    /// The index of the file at `path`.
    fn file_index(&self, path: &str) -> Option<u32> {
        match &self.by_path {
            Some(map) => map.get(path).copied(),
            None => file_position(self.files, path).map(|i| i as u32),
        }
    }

    pub(crate) fn convert<'r>(&self, res: &'r ResolvedFile) -> Converted<'r> {
        let local: Vec<Option<u32>> = res.paths.iter().map(|p| self.file_index(p)).collect();
        let node = |ep: &Endpoint| -> Option<NodeIndex> {
            let file = |i: &u32| local.get(*i as usize).copied().flatten();
            match ep {
                Endpoint::File(i) => file(i).and_then(|f| match self.scattered.and_then(|m| m.get(&f)) {
                    Some(block) => block.first().copied(),
                    None => Some(self.file_nodes[f as usize].file),
                }),
                Endpoint::Symbol(i, s) => file(i).and_then(|f| match self.scattered.and_then(|m| m.get(&f)) {
                    Some(block) => block.get(1 + *s as usize).copied(),
                    None => self.file_nodes[f as usize].symbol(*s as usize),
                }),
                Endpoint::Package(i) => file(i).and_then(|f| {
                    let file = &self.files[f as usize];
                    let pkg = match self.packages_then.and_then(|m| m.get(&f)) {
                        Some(then) => then.clone()?,
                        None => file.facts.package.clone()?,
                    };
                    self.packages.get(&(dir_of(&file.path).to_string(), pkg)).copied()
                }),
            }
        };
        // Endpoints always exist when the dependency keys are complete; a miss is skipped
        // rather than trusted (and caught by the incremental-equals-clean tests).
        let edges = res
            .edges
            .iter()
            .filter_map(|e| {
                Some(Edge {
                    from: node(&e.from)?,
                    to: node(&e.to)?,
                    kind: e.kind,
                    origin: e.origin,
                    line: e.line,
                    via: e.via,
                })
            })
            .collect();
        let unresolved = res
            .unresolved
            .iter()
            .filter_map(|u| {
                Some(Unresolved {
                    from: node(&u.from)?,
                    kind: u.kind,
                    target: u.target.clone(),
                    line: u.line,
                    candidates: u.candidates,
                })
            })
            .collect();
        let external = res.external.iter().filter_map(|x| Some((node(&x.from)?, x))).collect();
        (edges, unresolved, external)
    }
}

/// The external stubs a build makes, in order: each target at its first use, scanning files in
/// order (the stub's kind comes from that use). `None` when a use starts outside its own file,
/// which the in-place patch does not handle.
fn external_order(results: &[(Arc<ResolvedFile>, bool)]) -> Option<Vec<(&str, NodeKind)>> {
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut order = Vec::new();
    for (res, _) in results {
        for x in &res.external {
            if !matches!(x.from, Endpoint::File(0) | Endpoint::Symbol(0, _)) {
                return None;
            }
            if seen.insert(&x.target) {
                order.push((x.target.as_str(), x.stub));
            }
        }
    }
    Some(order)
}

/// Each target's first use in one file, in order.
fn file_external_order(res: &ResolvedFile) -> Vec<(&str, NodeKind)> {
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    res.external
        .iter()
        .filter(|x| seen.insert(&x.target))
        .map(|x| (x.target.as_str(), x.stub))
        .collect()
}

/// Whether a package node follows `file`'s block (it follows the first file of its directory
/// and package name; `seen` holds those met so far), `None` when one should but the previous
/// graph has none at `at`.
fn package_node_follows<'f>(
    repo: &str,
    file: &'f SourceFile,
    seen: &mut FxHashSet<(&'f str, String)>,
    old: &Graph,
    at: usize,
) -> Option<bool> {
    let Some(pkg) = package_of(file) else {
        return Some(false);
    };
    let dir = dir_of(&file.path);
    if !seen.insert((dir, pkg.clone())) {
        return Some(false);
    }
    let id = package_id(repo, dir, &pkg);
    old.nodes
        .get(at)
        .is_some_and(|n| n.kind == NodeKind::Package && *n.id == *id)
        .then_some(true)
}

/// A node index no node has: a renumbered node that goes.
const GONE: NodeIndex = NodeIndex::MAX;

/// How the previous graph's node list maps onto this build's when every file and package node
/// keeps its place in the order but changed files' blocks changed length.
struct Shift {
    /// Old node index → new ([`GONE`] for the slots a shrunk block gives up).
    remap: Vec<NodeIndex>,
    /// Per file in order: its old and new block lengths, and whether a package node follows.
    steps: Vec<(usize, usize, bool)>,
    /// Where the external stubs start, before and after.
    old_kept: usize,
    new_kept: usize,
}

/// The shift from the previous graph's layout to this build's, when only block lengths differ:
/// the same files in the same order, unchanged blocks where the old layout has them, changed
/// blocks contiguous, the same package nodes after the same files, only stubs after them all.
fn shift_layout(input: &RepoInput<'_>, reusable_blocks: &[Option<usize>], old: &Graph) -> Option<Shift> {
    let mut remap = vec![GONE; old.nodes.len()];
    let mut steps = Vec::with_capacity(input.files.len());
    let (mut at_old, mut at_new) = (0usize, 0usize);
    let mut seen: FxHashSet<(&str, String)> = FxHashSet::default();
    let mut resized = false;
    for (file, reuse) in input.files.iter().zip(reusable_blocks) {
        let new_len = 1 + file.facts.symbols.len();
        let old_len = match reuse {
            Some(start) if *start == at_old => new_len,
            Some(_) => return None,
            None => {
                let block = old.file_nodes(&file.path);
                let (&first, &last) = (block.first()?, block.last()?);
                let contiguous = (last - first) as usize + 1 == block.len();
                if first as usize != at_old || !contiguous || old.nodes[at_old].kind != NodeKind::File {
                    return None;
                }
                block.len()
            }
        };
        resized |= old_len != new_len;
        for k in 0..old_len.min(new_len) {
            remap[at_old + k] = (at_new + k) as NodeIndex;
        }
        at_old += old_len;
        at_new += new_len;
        let package = package_node_follows(input.repo, file, &mut seen, old, at_old)?;
        if package {
            remap[at_old] = at_new as NodeIndex;
            at_old += 1;
            at_new += 1;
        }
        steps.push((old_len, new_len, package));
    }
    if !resized || !old.nodes[at_old..].iter().all(|n| n.external) {
        return None;
    }
    for t in 0..old.nodes.len() - at_old {
        remap[at_old + t] = (at_new + t) as NodeIndex;
    }
    Some(Shift {
        remap,
        steps,
        old_kept: at_old,
        new_kept: at_new,
    })
}

impl Shift {
    /// Renumbers the previous graph's parts and moves its nodes into the new layout: resized
    /// blocks get placeholder slots (overwritten by the caller) or lose their last ones.
    /// Returns the node list up to the stubs, and the stubs.
    fn apply(&self, nodes: Vec<Node>, parts: &mut GraphParts) -> (Vec<Node>, Vec<Node>) {
        debug_assert_eq!(nodes.len(), self.remap.len());
        let remap = &self.remap;
        let map = |i: &mut NodeIndex| {
            *i = remap[*i as usize];
            *i != GONE
        };
        let GraphParts {
            edges,
            unresolved,
            index,
            by_file,
            files,
        } = parts;
        // The map is monotone, so sorted lists stay sorted.
        rayon::join(
            || {
                rayon::join(
                    || edges.retain_mut(|e| map(&mut e.from) & map(&mut e.to)),
                    || unresolved.retain_mut(|u| map(&mut u.from)),
                )
            },
            || {
                index.retain(|_, i| map(i));
                for block in by_file.values_mut() {
                    block.retain_mut(|i| map(i));
                }
                files.retain_mut(|i| map(i));
            },
        );
        let placeholder = Node::placeholder();
        // A few resized blocks (an edit): grow or shrink each in place, last first so earlier
        // offsets hold; each moves only the nodes after it, not all of them.
        let mut at = 0usize;
        let resized: Vec<(usize, usize, usize)> = self
            .steps
            .iter()
            .filter_map(|&(old_len, new_len, package)| {
                let start = at;
                at += old_len + package as usize;
                (old_len != new_len).then_some((start, old_len, new_len))
            })
            .collect();
        if resized.len() <= 4 {
            let mut nodes = nodes;
            for &(start, old_len, new_len) in resized.iter().rev() {
                if new_len > old_len {
                    let end = start + old_len;
                    nodes.splice(end..end, std::iter::repeat_n(placeholder.clone(), new_len - old_len));
                } else {
                    nodes.drain(start + new_len..start + old_len);
                }
            }
            let tail = nodes.split_off(self.new_kept);
            return (nodes, tail);
        }
        let mut out: Vec<Node> = Vec::with_capacity(self.new_kept + self.new_kept / 64);
        let mut old = nodes.into_iter();
        for &(old_len, new_len, package) in &self.steps {
            let keep = old_len.min(new_len);
            out.extend(old.by_ref().take(keep));
            // A shrunk block's last slots go.
            old.by_ref().take(old_len - keep).for_each(drop);
            out.extend(std::iter::repeat_n(placeholder.clone(), new_len - keep));
            if package {
                out.extend(old.next());
            }
        }
        debug_assert_eq!(out.len(), self.new_kept);
        let tail: Vec<Node> = old.collect();
        debug_assert_eq!(self.old_kept + tail.len(), self.remap.len());
        (out, tail)
    }
}

/// Patches the previous graph's parts for a build in which every node kept its place (the
/// same files, each with as many symbols as before): the edges and unresolved references of
/// the files resolved again are taken out (as their previous resolution and structure produced
/// them) and put back (as this build's do); the id map was patched with the overwritten blocks.
/// Gives the parts back when external stubs would be numbered differently or a previous
/// resolution is missing; the caller then assembles from scratch.
fn patch_in_place(
    conv: &Converter<'_>,
    results: &[(Arc<ResolvedFile>, bool)],
    prior: &Prior<'_>,
    changed: &[ChangedFile],
    parts: GraphParts,
    first_stub: NodeIndex,
    tail: &[Node],
) -> Result<GraphParts, Box<GraphParts>> {
    // Every change modified a file that is still here (a deleted last file also leaves the
    // blocks in place, with its nodes in the tail), and the tail is only external stubs.
    let old_facts: Option<FxHashMap<&str, &Arc<FileFacts>>> = changed
        .iter()
        .map(|c| {
            Some((
                c.path.as_str(),
                c.old.as_ref().filter(|_| conv.file_index(&c.path).is_some())?,
            ))
        })
        .collect();
    let Some(old_facts) = old_facts.filter(|_| tail.iter().all(|n| n.external)) else {
        return Err(Box::new(parts));
    };
    let redo: Vec<usize> = (0..results.len()).filter(|&fi| !results[fi].1).collect();
    // Patching costs per file resolved again, assembling per repository: past a few percent of
    // the files (Kubernetes: 1,799 of 15,000 took ≈ 400 ms to patch, ≈ 130 ms to assemble),
    // assembling is cheaper.
    if redo.len() > 256 && redo.len() * 32 > results.len() {
        return Err(Box::new(parts));
    }
    let Some(before) = redo
        .iter()
        .map(|&fi| prior.get(fi as u32, &conv.files[fi].path))
        .collect::<Option<Vec<_>>>()
    else {
        return Err(Box::new(parts));
    };
    // External stubs keep their numbers when every target is first used at the same place.
    let same_stubs = |order: &[(&str, NodeKind)]| {
        order.len() == tail.len()
            && order
                .iter()
                .zip(tail)
                .all(|((target, stub), n)| n.qualified == *target && n.kind == *stub)
    };
    let unchanged_uses = redo
        .iter()
        .zip(&before)
        .all(|(&fi, old)| file_external_order(old) == file_external_order(&results[fi].0));
    if !unchanged_uses && !external_order(results).is_some_and(|order| same_stubs(&order)) {
        return Err(Box::new(parts));
    }
    let stub_of: FxHashMap<&str, NodeIndex> = tail
        .iter()
        .enumerate()
        .map(|(i, n)| (n.qualified.as_str(), first_stub + i as NodeIndex))
        .collect();
    let with_stubs = |(mut edges, unresolved, external): Converted<'_>| -> Option<(Vec<Edge>, Vec<Unresolved>)> {
        for (from, x) in external {
            edges.push(x.edge(from, *stub_of.get(x.target.as_str())?));
        }
        Some((edges, unresolved))
    };
    let blocks: Vec<std::ops::RangeInclusive<NodeIndex>> = redo.iter().map(|&fi| conv.file_nodes[fi].block()).collect();
    // Per file resolved again: the edges it gave before, the edges and unresolved references it
    // gives now (structure included when its facts changed).
    type Contribution = (Vec<Edge>, Vec<Edge>, Vec<Unresolved>);
    let Some(contributions) = redo
        .par_iter()
        .zip(&before)
        .zip(&blocks)
        .map(|((&fi, old), block)| -> Option<Contribution> {
            let (mut gone, _) = with_stubs(conv.convert(old))?;
            let (mut added, unresolved) = with_stubs(conv.convert(&results[fi].0))?;
            let file = &conv.files[fi];
            if let Some(old_facts) = old_facts.get(&*file.path) {
                let entry = &conv.file_nodes[fi];
                push_structural_edges(&mut gone, old_facts, entry);
                push_structural_edges(&mut added, &file.facts, entry);
                // A file that left or changed its package moves its package's `contains` edge
                // (the package node itself stays: the layout check kept every node in place).
                let (before, now) = (package_in(file.language, old_facts), package_of(file));
                if before != now {
                    if let Some(pkg) = before {
                        gone.push(package_edge(conv, &file.path, pkg, entry.file)?);
                    }
                    if let Some(pkg) = now {
                        added.push(package_edge(conv, &file.path, pkg, entry.file)?);
                    }
                }
            }
            // Unresolved references start in their own file (placed by block below).
            unresolved
                .iter()
                .all(|u| block.contains(&u.from))
                .then_some((gone, added, unresolved))
        })
        .collect::<Option<Vec<_>>>()
    else {
        return Err(Box::new(parts));
    };
    let GraphParts {
        edges,
        unresolved: old_unresolved,
        index,
        by_file,
        files,
    } = parts;
    let mut removed: FxHashSet<(NodeIndex, NodeIndex, EdgeKind, u32)> = FxHashSet::default();
    let mut marked: Vec<bool> = Vec::new();
    let mut added = Vec::new();
    let mut new_unresolved = Vec::with_capacity(contributions.len());
    for (gone, more, unresolved) in contributions {
        for e in gone {
            if marked.len() <= e.from as usize {
                marked.resize(e.from as usize + 1, false);
            }
            marked[e.from as usize] = true;
            removed.insert((e.from, e.to, e.kind, e.line));
        }
        added.extend(more);
        new_unresolved.push(unresolved);
    }
    let mut edges = edges;
    edges.retain(|e| {
        !(marked.get(e.from as usize).copied().unwrap_or(false) && removed.contains(&(e.from, e.to, e.kind, e.line)))
    });
    let edges = merge_edges(edges, added);
    // Unresolved references are in file order, each file's in its block: each file's new ones
    // replace its old ones (in one pass: splicing each block would move the tail every time).
    let mut unresolved = Vec::with_capacity(old_unresolved.len());
    let mut old_unresolved = old_unresolved.into_iter().peekable();
    for (new, block) in new_unresolved.into_iter().zip(&blocks) {
        while let Some(u) = old_unresolved.next_if(|u| u.from < *block.start()) {
            unresolved.push(u);
        }
        while old_unresolved.next_if(|u| u.from <= *block.end()).is_some() {}
        unresolved.extend(new);
    }
    unresolved.extend(old_unresolved);
    Ok(GraphParts {
        edges,
        unresolved,
        index,
        by_file,
        files,
    })
}

/// The position of the file at `path` among files sorted by path.
pub(crate) fn file_position(files: &[SourceFile], path: &str) -> Option<usize> {
    files.binary_search_by(|f| (*f.path).cmp(path)).ok()
}

/// The id of the package node for `pkg` declared in directory `dir`.
pub(crate) fn package_id(repo: &str, dir: &str, pkg: &str) -> String {
    format!("{}::{}", file_id(repo, dir), pkg)
}

pub(crate) fn package_of(file: &SourceFile) -> Option<String> {
    package_in(file.language, &file.facts)
}

/// The package a file of `language` with `facts` belongs to, for languages whose files are
/// grouped by package (a package node `contains` them).
pub(crate) fn package_in(language: Language, facts: &FileFacts) -> Option<String> {
    match language {
        Language::Go | Language::Java | Language::CSharp | Language::Kotlin | Language::Php | Language::Scala => {
            facts.package.clone()
        }
        _ => None,
    }
}

/// The `contains` edge from the package node of `pkg` in the file's directory to the file.
fn package_edge(conv: &Converter<'_>, path: &str, pkg: String, file: NodeIndex) -> Option<Edge> {
    let pnode = *conv.packages.get(&(dir_of(path).to_string(), pkg))?;
    Some(Edge {
        from: pnode,
        to: file,
        kind: EdgeKind::Contains,
        origin: Origin::AstResolved,
        line: 0,
        via: None,
    })
}

/// The node of an external stub (`external::<target>`), named by the target's last segment.
pub(crate) fn external_stub(target: &str, kind: NodeKind) -> Node {
    let name = target
        .rsplit(['/', ':', '.'])
        .find(|s| !s.is_empty())
        .unwrap_or(target)
        .to_string();
    let mut n = Node::bare(
        Arc::from(format!("external::{target}")),
        kind,
        name,
        target.to_string(),
        Arc::from(""),
    );
    n.external = true;
    n.exported = true;
    n
}

impl ExternalEdge {
    /// This path-space edge to an external stub, from node `from` to the stub's node `to`.
    pub(crate) fn edge(&self, from: NodeIndex, to: NodeIndex) -> Edge {
        Edge {
            from,
            to,
            kind: self.kind,
            origin: self.origin,
            line: self.line,
            via: None,
        }
    }
}

pub(crate) fn push_file_node(nodes: &mut Vec<Node>, repo: &str, file: &SourceFile) {
    let name = file.path.rsplit('/').next().unwrap_or(&file.path).to_string();
    let id: Id = Arc::from(file_id(repo, &file.path));
    let mut n = Node::bare(id, NodeKind::File, name, file.path.to_string(), file.path.clone());
    n.language = Some(file.language);
    n.test_runner = file.facts.test_runner;
    n.is_test = file.facts.test_runner.is_some();
    let last = file.facts.symbols.iter().map(|s| s.span.end_line).max().unwrap_or(1);
    n.span = Span {
        start_line: 1,
        start_col: 0,
        end_line: last.max(1),
        end_col: 0,
    };
    nodes.push(n);
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

/// Each symbol's qualified name and local id (what follows `<path>::` in its node id): the
/// qualified name, with `_L<line>` added where a qualified name repeats in the file.
pub fn local_ids(facts: &FileFacts) -> Vec<(String, String)> {
    let mut seen: FxHashMap<String, ()> = FxHashMap::default();
    let mut out = Vec::with_capacity(facts.symbols.len());
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
        out.push((qualified, local));
    }
    out
}

pub(crate) fn push_symbol_nodes(nodes: &mut Vec<Node>, repo: &str, file: &SourceFile) {
    let facts = &file.facts;
    for (sym, (qualified, local)) in facts.symbols.iter().zip(local_ids(facts)) {
        let id: Id = Arc::from(symbol_id(repo, &file.path, &local));
        let mut n = Node::bare(id, sym.kind, sym.name.clone(), qualified, file.path.clone());
        n.language = Some(file.language);
        n.span = sym.span;
        n.flavor = sym.flavor;
        n.ui = sym.ui;
        n.signature = sym.signature.clone();
        n.visibility = sym.visibility;
        n.exported = sym.exported;
        n.doc = sym.doc.clone();
        n.doc_text = sym.doc_text.as_deref().map(Box::from);
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
    }
}

/// `defines` (file → symbol), `contains` (parent → child) and `member_of` (member → type) edges
/// of one file, between the node indices in `entry`.
fn push_structural_edges(edges: &mut Vec<Edge>, facts: &FileFacts, entry: &FileNodes) {
    push_structure(edges, facts, entry.file, |i| entry.file + 1 + i as NodeIndex);
}

/// A file's `defines`, `contains` and `member_of` edges, its file node at `file` and its `i`-th
/// symbol's node at `symbol(i)`.
pub(crate) fn push_structure(
    edges: &mut Vec<Edge>,
    facts: &FileFacts,
    file: NodeIndex,
    symbol: impl Fn(usize) -> NodeIndex,
) {
    for (i, sym) in facts.symbols.iter().enumerate() {
        let idx = symbol(i);
        let line = sym.span.start_line;
        edges.push(Edge {
            from: file,
            to: idx,
            kind: EdgeKind::Defines,
            origin: Origin::AstResolved,
            line,
            via: None,
        });
        if let Some(p) = sym.parent.filter(|&p| (p as usize) < i) {
            let parent_idx = symbol(p as usize);
            edges.push(Edge {
                from: parent_idx,
                to: idx,
                kind: EdgeKind::Contains,
                origin: Origin::AstResolved,
                line,
                via: None,
            });
            if facts.symbols[p as usize].kind.is_type_like() {
                edges.push(Edge {
                    from: idx,
                    to: parent_idx,
                    kind: EdgeKind::MemberOf,
                    origin: Origin::AstResolved,
                    line,
                    via: None,
                });
            }
        }
    }
}
