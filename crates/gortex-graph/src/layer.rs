//! A graph as a layer over a shared base graph: what an overlay view is, so that a view costs what
//! its files cost rather than a copy of the repository's graph.
//!
//! The layer keeps the base's node numbers. A node of a changed file whose id the base has keeps
//! that node's index (its content replaced); a new id is appended after the base's slots; an id
//! that went leaves a removed slot, which [`Graph::indices`] and [`Graph::node_entries`] skip.
//! Edges are held per source node: a node the layer touched has its whole out-edge list in the
//! layer (copied from the base on first touch, then patched), every other node's out-edges are
//! the base's. A node's in-edges are the base's from untouched nodes plus the layer's into it.
//! Unresolved references are replaced per node the same way. The id map, file blocks and name
//! lists are the base's with the layer's differences over them.
//!
//! [`build_graph_layered`] makes or updates a layer as an edit patches a flat graph (the
//! in-place patch of `build.rs`): the files the change can affect are resolved again, each one's
//! previous contribution (resolution, and structure when its facts changed) is taken out and its
//! new one put in. The result equals a clean build of the same files but for node numbering:
//! its canonical dump is the same (`gortex-index/tests/overlay.rs`).

use crate::build::{
    cache_entries, external_stub, file_position, package_id, package_in, package_of, push_file_node, push_structure,
    push_symbol_nodes, BuildStats, ChangedFile, Converted, Converter, FileNodes, Layout, Previous, RepoInput,
};
use crate::cache::{ExternalEdge, ResolutionCache};
use crate::config::dir_of;
use crate::model::{edge_order, same_key, unresolved_name, Edge, Graph, Id, Node, NodeIndex, Unresolved};
use crate::reuse::resolve_input;
use gortex_core::{EdgeKind, NodeKind, Origin};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// A set of node indices as bits.
#[derive(Debug, Clone, Default)]
struct Bits(Vec<u64>);

impl Bits {
    fn get(&self, i: NodeIndex) -> bool {
        self.0.get(i as usize / 64).is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    fn set(&mut self, i: NodeIndex) {
        let w = i as usize / 64;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1u64 << (i % 64);
    }
}

/// The differences of a layered graph from its base (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct Layer {
    base: Arc<Graph>,
    /// The base's node slots: indices from here on are appended nodes.
    base_slots: u32,
    replaced: FxHashMap<NodeIndex, Node>,
    replaced_bits: Bits,
    appended: Vec<Node>,
    removed: Bits,
    removed_count: usize,
    /// Touched nodes' whole out-edge lists, each sorted as a flat graph's.
    out: FxHashMap<NodeIndex, Vec<Edge>>,
    out_bits: Bits,
    /// Edges from touched nodes, by target.
    in_added: FxHashMap<NodeIndex, Vec<Edge>>,
    /// Nodes whose unresolved references the layer holds, with them.
    unresolved_of: FxHashMap<NodeIndex, Vec<Unresolved>>,
    unresolved_bits: Bits,
    /// Ids the layer added (`Some`) or took away (`None`).
    ids: FxHashMap<Id, Option<NodeIndex>>,
    /// Files whose node list differs from the base's (empty: the file went).
    by_file: FxHashMap<Arc<str>, Vec<NodeIndex>>,
    /// Names whose node list differs from the base's, with that list.
    named: FxHashMap<Box<str>, Vec<NodeIndex>>,
    /// `out` and `unresolved_of`'s nodes in index order, for iteration.
    out_order: Vec<NodeIndex>,
    unresolved_order: Vec<NodeIndex>,
    pub(crate) files: Vec<NodeIndex>,
    pub(crate) edge_count: usize,
    pub(crate) unresolved_count: usize,
}

impl Layer {
    fn new(base: Arc<Graph>) -> Layer {
        debug_assert!(base.layer.is_none(), "a layer's base is flat");
        Layer {
            base_slots: base.node_count() as u32,
            files: base.files().to_vec(),
            edge_count: base.edge_count(),
            unresolved_count: base.unresolved_count(),
            base,
            replaced: FxHashMap::default(),
            replaced_bits: Bits::default(),
            appended: Vec::new(),
            removed: Bits::default(),
            removed_count: 0,
            out: FxHashMap::default(),
            out_bits: Bits::default(),
            in_added: FxHashMap::default(),
            unresolved_of: FxHashMap::default(),
            unresolved_bits: Bits::default(),
            ids: FxHashMap::default(),
            by_file: FxHashMap::default(),
            named: FxHashMap::default(),
            out_order: Vec::new(),
            unresolved_order: Vec::new(),
        }
    }

    pub(crate) fn slots(&self) -> usize {
        self.base_slots as usize + self.appended.len()
    }

    pub(crate) fn live(&self) -> usize {
        self.slots() - self.removed_count
    }

    pub(crate) fn own_nodes(&self) -> usize {
        self.replaced.len() + self.appended.len()
    }

    pub(crate) fn is_removed(&self, i: NodeIndex) -> bool {
        self.removed.get(i)
    }

    pub(crate) fn node_at(&self, i: NodeIndex) -> &Node {
        if i >= self.base_slots {
            return &self.appended[(i - self.base_slots) as usize];
        }
        if self.replaced_bits.get(i) {
            return &self.replaced[&i];
        }
        self.base.node_at(i)
    }

    pub(crate) fn lookup(&self, id: &str) -> Option<NodeIndex> {
        match self.ids.get(id) {
            Some(found) => *found,
            None => self.base.lookup(id),
        }
    }

    pub(crate) fn out_edges(&self, n: NodeIndex) -> std::slice::Iter<'_, Edge> {
        if self.out_bits.get(n) {
            return self.out[&n].iter();
        }
        if n < self.base_slots {
            return self.base.out_edges(n);
        }
        [].iter()
    }

    pub(crate) fn in_edges(&self, n: NodeIndex) -> impl Iterator<Item = &Edge> + Clone + '_ {
        let added = self.in_added.get(&n).map(|v| v.as_slice()).unwrap_or(&[]);
        self.base
            .flat_in_edges(n)
            .filter(move |e| !self.out_bits.get(e.from))
            .chain(added.iter())
    }

    pub(crate) fn unresolved_from(&self, n: NodeIndex) -> impl Iterator<Item = &Unresolved> + '_ {
        if self.unresolved_bits.get(n) {
            return either::Either::Left(self.unresolved_of[&n].iter());
        }
        either::Either::Right(self.base.flat_unresolved_from(n))
    }

    pub(crate) fn edges(&self) -> impl Iterator<Item = &Edge> + Clone + '_ {
        self.base
            .edges
            .iter()
            .filter(move |e| !self.out_bits.get(e.from))
            .chain(self.out_order.iter().flat_map(move |n| self.out[n].iter()))
    }

    pub(crate) fn unresolved(&self) -> impl Iterator<Item = &Unresolved> + Clone + '_ {
        self.base
            .unresolved
            .iter()
            .filter(move |u| !self.unresolved_bits.get(u.from))
            .chain(
                self.unresolved_order
                    .iter()
                    .flat_map(move |n| self.unresolved_of[n].iter()),
            )
    }

    pub(crate) fn unresolved_named(&self, name: &str) -> impl Iterator<Item = &Unresolved> + '_ {
        let owned: Box<str> = name.into();
        self.base
            .flat_unresolved_named(name)
            .filter(move |u| !self.unresolved_bits.get(u.from))
            .chain(
                self.unresolved_order
                    .iter()
                    .flat_map(move |n| self.unresolved_of[n].iter())
                    .filter(move |u| unresolved_name(&u.target) == &*owned),
            )
    }

    pub(crate) fn named(&self, name: &str) -> &[NodeIndex] {
        match self.named.get(name) {
            Some(list) => list,
            None => self.base.named(name),
        }
    }

    pub(crate) fn file_nodes(&self, path: &str) -> &[NodeIndex] {
        match self.by_file.get(path) {
            Some(list) => list,
            None => self.base.file_nodes(path),
        }
    }

    // ---- changes (used while building) ----

    /// Takes `n`'s out-edges into the layer (copied from the base on first touch).
    fn touch(&mut self, n: NodeIndex) -> &mut Vec<Edge> {
        if !self.out_bits.get(n) {
            let list: Vec<Edge> = if n < self.base_slots {
                self.base.out_edges(n).copied().collect()
            } else {
                Vec::new()
            };
            for e in &list {
                self.in_added.entry(e.to).or_default().push(*e);
            }
            self.out_bits.set(n);
            self.out.insert(n, list);
        }
        self.out.get_mut(&n).expect("touched")
    }

    /// Removes the edge with `e`'s endpoints, kind and line, whatever its origin.
    fn remove_edge(&mut self, e: &Edge) {
        let list = self.touch(e.from);
        let before = list.len();
        list.retain(|x| !same_key(x, e));
        let gone = before - list.len();
        if gone > 0 {
            self.edge_count -= gone;
            if let Some(into) = self.in_added.get_mut(&e.to) {
                into.retain(|x| !same_key(x, e));
            }
        }
    }

    /// Adds an edge; one with the same endpoints, kind and line keeps the stronger origin.
    fn add_edge(&mut self, e: Edge) {
        let list = self.touch(e.from);
        match list.iter_mut().find(|x| same_key(x, &e)) {
            Some(x) if x.origin >= e.origin => {}
            Some(x) => {
                x.origin = e.origin;
                if let Some(y) = self
                    .in_added
                    .get_mut(&e.to)
                    .and_then(|v| v.iter_mut().find(|y| same_key(y, &e)))
                {
                    y.origin = e.origin;
                }
            }
            None => {
                list.push(e);
                self.edge_count += 1;
                self.in_added.entry(e.to).or_default().push(e);
            }
        }
    }

    fn set_unresolved(&mut self, n: NodeIndex, list: Vec<Unresolved>) {
        let before = if self.unresolved_bits.get(n) {
            self.unresolved_of[&n].len()
        } else {
            self.base.flat_unresolved_from(n).count()
        };
        self.unresolved_count = self.unresolved_count + list.len() - before;
        self.unresolved_bits.set(n);
        self.unresolved_of.insert(n, list);
    }

    fn replace_node(&mut self, i: NodeIndex, node: Node) {
        if i >= self.base_slots {
            self.appended[(i - self.base_slots) as usize] = node;
        } else {
            self.replaced_bits.set(i);
            self.replaced.insert(i, node);
        }
    }

    fn append_node(&mut self, node: Node) -> NodeIndex {
        let i = self.slots() as NodeIndex;
        self.ids.insert(node.id.clone(), Some(i));
        self.appended.push(node);
        i
    }

    /// Removes a node with every edge into or out of it and its unresolved references.
    fn remove_node(&mut self, i: NodeIndex) {
        if self.removed.get(i) {
            return;
        }
        let outgoing: Vec<Edge> = self.out_edges(i).copied().collect();
        let incoming: Vec<Edge> = self.in_edges(i).copied().collect();
        for e in outgoing.iter().chain(&incoming) {
            self.remove_edge(e);
        }
        self.set_unresolved(i, Vec::new());
        let id = self.node_at(i).id.clone();
        if self.lookup(&id) == Some(i) {
            self.ids.insert(id, None);
        }
        self.removed.set(i);
        self.removed_count += 1;
    }

    /// Orders what iteration reads and recomputes the name lists `names` touched.
    fn finish(&mut self, names: FxHashSet<Box<str>>) {
        self.out_order = self.out.keys().copied().collect();
        self.out_order.sort_unstable();
        for list in self.out.values_mut() {
            list.sort_unstable_by(edge_order);
        }
        self.unresolved_order = self.unresolved_of.keys().copied().collect();
        self.unresolved_order.sort_unstable();
        if names.is_empty() {
            return;
        }
        let mut named = std::mem::take(&mut self.named);
        let mut layer_named: FxHashMap<&str, Vec<NodeIndex>> = FxHashMap::default();
        let own = self
            .replaced
            .keys()
            .copied()
            .chain(self.base_slots..self.slots() as NodeIndex);
        for i in own.filter(|&i| !self.removed.get(i)) {
            let name = self.node_at(i).name.as_str();
            if names.contains(name) {
                layer_named.entry(name).or_default().push(i);
            }
        }
        for name in names {
            let mut list: Vec<NodeIndex> = self
                .base
                .named(&name)
                .iter()
                .copied()
                .filter(|&i| !self.removed.get(i) && !self.replaced_bits.get(i))
                .collect();
            list.extend(layer_named.get(&*name).into_iter().flatten());
            list.sort_unstable();
            named.insert(name, list);
        }
        drop(layer_named);
        self.named = named;
    }
}

/// Where each input file's nodes are in a layer's state: contiguous blocks as `FileNodes`, the
/// rest (changed or absent files) as node lists by file position.
struct Space {
    blocks: Vec<FileNodes>,
    scattered: FxHashMap<u32, Vec<NodeIndex>>,
    /// Changed files' packages in this state, by position.
    packages_then: FxHashMap<u32, Option<String>>,
}

impl Space {
    fn of(layer: &Layer, files: &[crate::build::SourceFile]) -> Space {
        let mut space = Space {
            blocks: vec![FileNodes::default(); files.len()],
            scattered: FxHashMap::default(),
            packages_then: FxHashMap::default(),
        };
        for (fi, f) in files.iter().enumerate() {
            space.place(layer, fi as u32, &f.path);
        }
        space
    }

    fn place(&mut self, layer: &Layer, fi: u32, path: &str) {
        self.scattered.remove(&fi);
        if let Some(list) = layer.by_file.get(path) {
            self.scattered.insert(fi, list.clone());
            return;
        }
        match layer.base.file_nodes(path) {
            [] => {
                self.scattered.insert(fi, Vec::new());
            }
            block => {
                self.blocks[fi as usize] = FileNodes {
                    file: block[0],
                    symbols: block.len() as u32 - 1,
                };
            }
        }
    }

    fn converter<'x>(
        &'x self,
        files: &'x [crate::build::SourceFile],
        packages: &'x FxHashMap<(String, String), NodeIndex>,
    ) -> Converter<'x> {
        Converter {
            files,
            by_path: None,
            file_nodes: &self.blocks,
            packages,
            scattered: Some(&self.scattered),
            packages_then: Some(&self.packages_then),
        }
    }

    /// The nodes of the file at position `fi`: its file node, then one per symbol.
    fn block(&self, fi: u32) -> Vec<NodeIndex> {
        match self.scattered.get(&fi) {
            Some(list) => list.clone(),
            None => self.blocks[fi as usize].block().collect(),
        }
    }
}

/// Package nodes of a layer's state by (directory, package name).
fn packages_of(layer: &Layer) -> FxHashMap<(String, String), NodeIndex> {
    let mut map = FxHashMap::default();
    let candidates = (0..layer.base_slots)
        .filter(|&i| !layer.replaced_bits.get(i))
        .filter(|&i| layer.base.node_at(i).kind == NodeKind::Package)
        .chain(layer.replaced.keys().copied())
        .chain(layer.base_slots..layer.slots() as NodeIndex);
    for i in candidates {
        if layer.removed.get(i) {
            continue;
        }
        let n = layer.node_at(i);
        if n.kind == NodeKind::Package {
            map.insert((n.path.to_string(), n.name.clone()), i);
        }
    }
    map
}

/// A changed file's package move: its directory, its package before and now, its file node now.
type PackageMove = (String, Option<String>, Option<String>, Option<NodeIndex>);

/// One file's contribution in a node space: edges (external stubs included) and unresolved
/// references.
type Contribution = (Vec<Edge>, Vec<Unresolved>);

/// Builds (from `base`) or updates (`prior`, a layer over the same base) a layered graph for
/// `input`, whose files differ from `prior`'s (or the base's) by `previous.changed`;
/// `previous.cache` holds the resolutions `prior` (or the base) was built from. `Err` when the change is not one a
/// layer can take exactly (another configuration, a resolution missing, unresolved references
/// made outside their file): the caller then builds a flat graph.
pub fn build_graph_layered(
    base: &Arc<Graph>,
    prior: Option<&Graph>,
    input: RepoInput<'_>,
    previous: Previous<'_>,
) -> Result<(Graph, ResolutionCache, BuildStats), String> {
    if base.layer.is_some() {
        return Err("the base is itself layered".into());
    }
    let mut stats = BuildStats {
        layout: Layout::Layered,
        ..Default::default()
    };
    // The prior layer is copied, not taken: queries may still hold it, and a refused change
    // leaves it as it was. A layer holds only what its overlay changed, so this is small.
    let mut layer = match prior.and_then(|g| g.layer.as_deref()) {
        Some(l) if Arc::ptr_eq(&l.base, base) => l.clone(),
        Some(_) => return Err("the view's layer is over another base".into()),
        None => Layer::new(Arc::clone(base)),
    };
    let resolved = resolve_input(&input, Some(&previous), &mut stats);
    let Some((prior_res, _, _)) = &resolved.reusable else {
        return Err("the resolver's configuration differs from the base's".into());
    };
    let files = input.files;
    let results = &resolved.results;
    let redo: Vec<u32> = (0..files.len() as u32).filter(|&fi| !results[fi as usize].1).collect();
    let changed: FxHashMap<&str, &ChangedFile> = previous.changed.iter().map(|c| (c.path.as_str(), c)).collect();
    let t_nodes = std::time::Instant::now();

    // What the files resolved again gave before, in the layer's numbering before this change
    // (and with changed files in the packages they were in).
    let mut old_space = Space::of(&layer, files);
    for change in previous.changed {
        if let (Some(fi), Some(old)) = (file_position(files, &change.path), &change.old) {
            old_space.packages_then.insert(fi as u32, old.package.clone());
        }
    }
    let old_packages = packages_of(&layer);
    let gone: Vec<Contribution> = {
        let conv = old_space.converter(files, &old_packages);
        let mut all = Vec::with_capacity(redo.len());
        for &fi in &redo {
            let file = &files[fi as usize];
            let mut contribution: Contribution = (Vec::new(), Vec::new());
            if let Some(old) = prior_res.get(fi, &file.path) {
                contribution = with_stubs(&layer, conv.convert(old), &mut |_, _| None)
                    .ok_or("an external stub of the previous build is missing")?;
                let block: FxHashSet<NodeIndex> = old_space.block(fi).into_iter().collect();
                if !contribution.1.iter().all(|u| block.contains(&u.from)) {
                    return Err("an unresolved reference started outside its file".into());
                }
            }
            if let Some(old_facts) = changed.get(&*file.path).and_then(|c| c.old.as_ref()) {
                let block = old_space.block(fi);
                if block.len() == 1 + old_facts.symbols.len() {
                    push_structure(&mut contribution.0, old_facts, block[0], |i| block[1 + i]);
                }
            }
            all.push(contribution);
        }
        all
    };

    // Nodes of changed files: same id, same index; new ids appended; ids that went removed.
    let mut names: FxHashSet<Box<str>> = FxHashSet::default();
    let mut to_remove: Vec<NodeIndex> = Vec::new();
    let mut new_space = Space {
        blocks: old_space.blocks.clone(),
        scattered: old_space.scattered.clone(),
        packages_then: FxHashMap::default(),
    };
    let mut package_moves: Vec<PackageMove> = Vec::new();
    for change in previous.changed {
        let path = change.path.as_str();
        let old_block: Vec<NodeIndex> = layer.file_nodes(path).to_vec();
        let old_file_node = old_block.first().copied();
        let mut old_ids: FxHashMap<Id, NodeIndex> =
            old_block.iter().map(|&i| (layer.node_at(i).id.clone(), i)).collect();
        for &i in &old_block {
            names.insert(layer.node_at(i).name.as_str().into());
        }
        let position = file_position(files, path);
        let mut block = Vec::new();
        if let Some(fi) = position {
            let file = &files[fi];
            let mut fresh = Vec::with_capacity(1 + file.facts.symbols.len());
            push_file_node(&mut fresh, input.repo, file);
            push_symbol_nodes(&mut fresh, input.repo, file);
            for node in fresh {
                names.insert(node.name.as_str().into());
                match old_ids.remove(&node.id) {
                    Some(i) => {
                        layer.replace_node(i, node);
                        block.push(i);
                    }
                    None => {
                        // An id that went in an earlier change and comes back reuses nothing.
                        block.push(layer.append_node(node));
                    }
                }
            }
        }
        to_remove.extend(old_ids.into_values());
        let before = change
            .old
            .as_ref()
            .and_then(|facts| package_in(layer.node_at(old_file_node?).language?, facts));
        let now = position.and_then(|fi| package_of(&files[fi]));
        let file_node = block.first().copied();
        if before != now || old_file_node != file_node {
            package_moves.push((dir_of(path).to_string(), before, now, file_node));
        }
        layer.by_file.insert(Arc::from(path), block);
        if let Some(fi) = position {
            new_space.place(&layer, fi as u32, path);
        }
    }

    // Package nodes: a file that joins one (perhaps new) gets its `contains` edge; one left
    // without files goes.
    let mut packages = old_packages.clone();
    let mut package_gone: Vec<(String, String)> = Vec::new();
    let mut package_edges: Vec<Edge> = Vec::new();
    let mut package_edges_gone: Vec<Edge> = Vec::new();
    for (dir, before, now, file_node) in &package_moves {
        if let (Some(pkg), Some(file)) = (now, file_node) {
            let key = (dir.clone(), pkg.clone());
            let pnode = match packages.get(&key) {
                Some(&p) => p,
                None => {
                    let id: Id = Arc::from(package_id(input.repo, dir, pkg));
                    let first = members(files, dir, pkg).next().expect("the file is a member");
                    let mut n = Node::bare(id, NodeKind::Package, pkg.clone(), pkg.clone(), Arc::from(dir.as_str()));
                    n.language = Some(first.language);
                    n.exported = true;
                    names.insert(pkg.as_str().into());
                    let p = layer.append_node(n);
                    let mut at_dir = layer.file_nodes(dir).to_vec();
                    at_dir.push(p);
                    layer.by_file.insert(Arc::from(dir.as_str()), at_dir);
                    packages.insert(key, p);
                    p
                }
            };
            package_edges.push(Edge {
                from: pnode,
                to: *file,
                kind: EdgeKind::Contains,
                origin: Origin::AstResolved,
                line: 0,
                via: None,
            });
        }
        if let (Some(pkg), Some(file)) = (before, file_node) {
            if let Some(&p) = packages.get(&(dir.clone(), pkg.clone())) {
                package_edges_gone.push(Edge {
                    from: p,
                    to: *file,
                    kind: EdgeKind::Contains,
                    origin: Origin::AstResolved,
                    line: 0,
                    via: None,
                });
            }
        }
        if let Some(pkg) = before {
            if members(files, dir, pkg).next().is_none() {
                package_gone.push((dir.clone(), pkg.clone()));
            }
        }
    }

    // What the files resolved again give now, in the new numbering (new external stubs made).
    let new_stubs: Vec<(Id, NodeKind, String)>;
    let added: Vec<Contribution> = {
        let conv = new_space.converter(files, &packages);
        let mut made: Vec<(Id, NodeKind, String)> = Vec::new();
        let mut all = Vec::with_capacity(redo.len());
        let next_slot = layer.slots() as NodeIndex;
        for &fi in &redo {
            let file = &files[fi as usize];
            let mut contribution = with_stubs(&layer, conv.convert(&results[fi as usize].0), &mut |target, stub| {
                let id: Id = Arc::from(format!("external::{target}"));
                if let Some(k) = made.iter().position(|(made_id, _, _)| *made_id == id) {
                    return Some(next_slot + k as NodeIndex);
                }
                made.push((id, stub, target.to_string()));
                Some(next_slot + made.len() as NodeIndex - 1)
            })
            .ok_or("an external stub could not be made")?;
            if changed.contains_key(&*file.path) {
                let block = new_space.block(fi);
                push_structure(&mut contribution.0, &file.facts, block[0], |i| block[1 + i]);
            }
            let block: FxHashSet<NodeIndex> = new_space.block(fi).into_iter().collect();
            if !contribution.1.iter().all(|u| block.contains(&u.from)) {
                return Err("an unresolved reference starts outside its file".into());
            }
            all.push(contribution);
        }
        new_stubs = made;
        all
    };
    for (_, stub, target) in new_stubs {
        let n = external_stub(&target, stub);
        names.insert(n.name.as_str().into());
        layer.append_node(n);
    }
    stats.nodes_ms = t_nodes.elapsed().as_millis() as u64;
    let t_apply = std::time::Instant::now();

    // Apply: take out, remove what went, put in.
    let mut stubs_touched: FxHashSet<NodeIndex> = FxHashSet::default();
    for (edges, _) in &gone {
        for e in edges {
            if layer.node_at(e.to).external {
                stubs_touched.insert(e.to);
            }
            layer.remove_edge(e);
        }
    }
    for e in &package_edges_gone {
        layer.remove_edge(e);
    }
    for (dir, pkg) in &package_gone {
        if let Some(&p) = packages.get(&(dir.clone(), pkg.clone())) {
            names.insert(pkg.as_str().into());
            to_remove.push(p);
            let at_dir: Vec<NodeIndex> = layer.file_nodes(dir).iter().copied().filter(|&i| i != p).collect();
            layer.by_file.insert(Arc::from(dir.as_str()), at_dir);
        }
    }
    for &i in &to_remove {
        stubs_touched.extend(layer.out_edges(i).map(|e| e.to).filter(|&t| layer.node_at(t).external));
        layer.remove_node(i);
    }
    for e in package_edges {
        layer.add_edge(e);
    }
    for ((edges, unresolved), &fi) in added.into_iter().zip(&redo) {
        for e in edges {
            layer.add_edge(e);
        }
        let mut by_node: FxHashMap<NodeIndex, Vec<Unresolved>> = FxHashMap::default();
        for u in unresolved {
            by_node.entry(u.from).or_default().push(u);
        }
        for n in new_space.block(fi) {
            layer.set_unresolved(n, by_node.remove(&n).unwrap_or_default());
        }
    }
    // An external stub nothing uses any more goes, as a clean build would not make it.
    for stub in stubs_touched {
        if !layer.removed.get(stub) && layer.in_edges(stub).next().is_none() {
            names.insert(layer.node_at(stub).name.as_str().into());
            layer.remove_node(stub);
        }
    }
    layer.files = files
        .iter()
        .filter_map(|f| layer.file_nodes(&f.path).first().copied())
        .collect();
    layer.finish(names);
    stats.assemble_ms = t_apply.elapsed().as_millis() as u64;
    let kept = resolved.kept;
    let (fingerprint, derived) = (resolved.fingerprint, resolved.derived);
    let cache_files = cache_entries(files, resolved.results, &mut stats);
    let cache = ResolutionCache {
        fingerprint,
        files: cache_files,
        derived,
        kept_tables: kept,
    };
    let graph = Graph::with_layer(input.repo.to_string(), layer);
    Ok((graph, cache, stats))
}

/// Files of package `pkg` in directory `dir`, in path order.
fn members<'f>(
    files: &'f [crate::build::SourceFile],
    dir: &'f str,
    pkg: &'f str,
) -> impl Iterator<Item = &'f crate::build::SourceFile> + 'f {
    let start = files.partition_point(|f| *f.path < *dir);
    files[start..]
        .iter()
        .take_while(move |f| f.path.starts_with(dir))
        .filter(move |f| dir_of(&f.path) == dir && package_of(f).as_deref() == Some(pkg))
}

/// A converted resolution with its edges to external stubs numbered: existing stubs by id,
/// others through `make` (which numbers a stub it will make). `None` when a stub is missing.
fn with_stubs(
    layer: &Layer,
    (mut edges, unresolved, external): Converted<'_>,
    make: &mut dyn FnMut(&str, NodeKind) -> Option<NodeIndex>,
) -> Option<Contribution> {
    for (from, x) in external {
        let x: &ExternalEdge = x;
        let to = match layer.lookup(&format!("external::{}", x.target)) {
            Some(i) => i,
            None => make(&x.target, x.stub)?,
        };
        edges.push(x.edge(from, to));
    }
    Some((edges, unresolved))
}
