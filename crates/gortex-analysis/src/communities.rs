//! Communities: groups of symbols that call and reference each other far more than the rest of
//! the repository, found by modularity optimisation (Leiden by default, Louvain on request) over
//! the tier-weighted symbol graph of [`crate::adjacency`], resolution γ = 1.0.
//!
//! A community is described by a stable id (size descending, then smallest member id), a label
//! (`<modal directory> · <hub qualified name>`), its hub (highest in-community weighted degree),
//! members, files and cohesion (internal weight / all weight incident to its members). Nodes
//! without calls/references edges belong to no community; communities of one node (singletons)
//! are counted, not listed, and get no id.

use crate::adjacency::{is_community_edge, tier_weight, Adjacency};
use crate::leiden::leiden;
use crate::louvain::louvain;
use crate::CommunityMap;
use gortex_core::QueryError;
use gortex_graph::query::common::{check_limit, check_range};
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Modularity resolution: 1.0 is classic modularity.
pub const RESOLUTION: f64 = 1.0;

/// A community detection algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Leiden with refinement (connected communities); the default.
    Leiden,
    /// Louvain, at most ten aggregation passes.
    Louvain,
    /// Newman's leading-eigenvector method: recursive spectral bisection of the modularity matrix.
    Spectral,
}

impl Algorithm {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Leiden => "leiden",
            Algorithm::Louvain => "louvain",
            Algorithm::Spectral => "spectral",
        }
    }

    /// Parses an `algorithm` argument.
    pub fn parse(text: &str) -> Result<Algorithm, QueryError> {
        match text {
            "leiden" => Ok(Algorithm::Leiden),
            "louvain" => Ok(Algorithm::Louvain),
            "spectral" => Ok(Algorithm::Spectral),
            other => Err(QueryError::invalid(format!(
                "algorithm must be one of leiden, louvain, spectral, got {other:?}"
            ))),
        }
    }
}

/// A file and how many members of a community it declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FileCount {
    pub path: String,
    pub members: usize,
}

/// One community (two or more members).
#[derive(Debug, Clone)]
pub struct Community {
    /// Stable id: rank by size (descending), then by smallest member id.
    pub id: u32,
    /// `<modal directory> · <hub qualified name>`, made unique with ` #2`, ` #3`, … .
    pub label: String,
    pub size: usize,
    /// The member with the highest in-community weighted degree (ties: smallest id).
    pub hub: NodeIndex,
    /// Members by in-community weighted degree (descending), then id.
    pub members: Vec<NodeIndex>,
    /// Distinct files with member counts, most members first, then path.
    pub files: Vec<FileCount>,
    /// Internal weight / total weight incident to the members (0–1).
    pub cohesion: f64,
}

/// The result of community detection over one graph.
#[derive(Debug, Clone)]
pub struct Communities {
    pub algorithm: Algorithm,
    /// Modularity of the whole partition (singletons included).
    pub modularity: f64,
    /// Communities of two or more members, by id.
    pub communities: Vec<Community>,
    /// Nodes with community edges that ended up alone.
    pub singletons: usize,
    /// Nodes with at least one community edge.
    pub clustered: usize,
    /// Community per node, for the analyses that consume it.
    pub map: CommunityMap,
}

impl Communities {
    /// The community with this id.
    pub fn get(&self, id: u32) -> Option<&Community> {
        self.communities.get(id as usize)
    }
}

/// Detects communities of `g` with `algorithm` (deterministic for a given graph).
pub fn detect_communities(g: &Graph, algorithm: Algorithm) -> Communities {
    let adj = Adjacency::build(g);
    let working = adj.to_working();
    let (part, count) = match algorithm {
        Algorithm::Leiden => leiden(&working, RESOLUTION),
        Algorithm::Louvain => louvain(&working, RESOLUTION),
        Algorithm::Spectral => crate::spectral::spectral(&working, RESOLUTION),
    };
    let modularity = working.modularity(&part, RESOLUTION);
    assemble(g, &adj, algorithm, modularity, &part, count)
}

/// The members of one community before ids are assigned.
struct Group {
    members: Vec<u32>,
    smallest_id: NodeIndex,
}

fn assemble(
    g: &Graph,
    adj: &Adjacency,
    algorithm: Algorithm,
    modularity: f64,
    part: &[u32],
    count: usize,
) -> Communities {
    let id_of = |i: NodeIndex| &g.node_at(i).id;
    let mut groups: Vec<Group> = (0..count)
        .map(|_| Group {
            members: Vec::new(),
            smallest_id: NodeIndex::MAX,
        })
        .collect();
    for (l, &c) in part.iter().enumerate() {
        let grp = &mut groups[c as usize];
        grp.members.push(l as u32);
        let node = adj.nodes[l];
        if grp.smallest_id == NodeIndex::MAX || id_of(node) < id_of(grp.smallest_id) {
            grp.smallest_id = node;
        }
    }
    let singletons = groups.iter().filter(|grp| grp.members.len() == 1).count();
    groups.retain(|grp| grp.members.len() >= 2);
    groups.sort_by(|a, b| {
        b.members
            .len()
            .cmp(&a.members.len())
            .then_with(|| id_of(a.smallest_id).cmp(id_of(b.smallest_id)))
    });

    // Community id per local node (u32::MAX for singletons).
    let mut local_comm = vec![u32::MAX; adj.len()];
    for (id, grp) in groups.iter().enumerate() {
        for &l in &grp.members {
            local_comm[l as usize] = id as u32;
        }
    }
    let mut of_node = vec![None; g.node_count()];
    let mut communities = Vec::with_capacity(groups.len());
    let mut seen_labels: FxHashMap<String, u32> = FxHashMap::default();
    for (id, grp) in groups.iter().enumerate() {
        let id = id as u32;
        let mut internal_deg: Vec<(f64, NodeIndex)> = Vec::with_capacity(grp.members.len());
        let (mut internal, mut external) = (0.0f64, 0.0f64);
        for &l in &grp.members {
            let mut deg = 0.0;
            for (j, w) in adj.neighbours(l) {
                if local_comm[j as usize] == id {
                    deg += w;
                } else {
                    external += w;
                }
            }
            internal += deg / 2.0;
            internal_deg.push((deg, adj.nodes[l as usize]));
            of_node[adj.nodes[l as usize] as usize] = Some(id);
        }
        internal_deg.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| id_of(a.1).cmp(id_of(b.1))));
        let members: Vec<NodeIndex> = internal_deg.iter().map(|&(_, n)| n).collect();
        let hub = members[0];
        let mut by_file: FxHashMap<&str, usize> = FxHashMap::default();
        let mut by_dir: FxHashMap<&str, usize> = FxHashMap::default();
        for &m in &members {
            let path: &str = &g.node_at(m).path;
            *by_file.entry(path).or_default() += 1;
            *by_dir.entry(dir_of(path)).or_default() += 1;
        }
        let mut files: Vec<FileCount> = by_file
            .into_iter()
            .map(|(path, members)| FileCount {
                path: path.to_string(),
                members,
            })
            .collect();
        files.sort_by(|a, b| b.members.cmp(&a.members).then_with(|| a.path.cmp(&b.path)));
        let modal_dir = by_dir
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(d, _)| if d.is_empty() { "." } else { d })
            .unwrap_or(".");
        let mut label = format!("{modal_dir} · {}", g.node_at(hub).qualified);
        let n = seen_labels.entry(label.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            label = format!("{label} #{n}");
        }
        let total = internal + external;
        communities.push(Community {
            id,
            label,
            size: members.len(),
            hub,
            members,
            files,
            cohesion: if total > 0.0 { internal / total } else { 0.0 },
        });
    }
    let labels = communities.iter().map(|c| c.label.clone()).collect();
    Communities {
        algorithm,
        modularity,
        communities,
        singletons,
        clustered: adj.len(),
        map: CommunityMap { of_node, labels },
    }
}

/// The directory part of a repository-relative path (empty at the root).
pub(crate) fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Rounds for display so results read (and compare) cleanly.
pub(crate) fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// Validates a `path_prefix` argument: a non-empty repository-relative prefix (`./` and a
/// leading `/` are dropped).
pub(crate) fn parse_path_prefix(value: Option<&str>) -> Result<Option<String>, QueryError> {
    let Some(raw) = value else { return Ok(None) };
    let v = raw.trim();
    let v = v.strip_prefix("./").unwrap_or(v).trim_start_matches('/');
    if v.is_empty() {
        return Err(QueryError::invalid(format!(
            "path_prefix must be a non-empty repository-relative path prefix such as src/auth, got {raw:?} \
             (omit it to cover the whole repository)"
        )));
    }
    Ok(Some(v.to_string()))
}

/// An id argument given as a number or as a name (label, entry name, or a number in a string).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum IdOrName {
    Number(i64),
    Name(String),
}

impl IdOrName {
    /// The numeric id, when the argument is a number or a string holding one.
    pub fn number(&self) -> Option<i64> {
        match self {
            IdOrName::Number(n) => Some(*n),
            IdOrName::Name(s) => s.trim().parse().ok(),
        }
    }
}

impl std::fmt::Display for IdOrName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdOrName::Number(n) => write!(f, "{n}"),
            IdOrName::Name(s) => write!(f, "{s:?}"),
        }
    }
}

/// Arguments of `get_communities`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetCommunitiesArgs {
    /// One community by id or label; without it, the list.
    #[serde(default)]
    pub id: Option<IdOrName>,
    /// Rows (communities, or members of one community): 1..=1000, default 50.
    #[serde(default)]
    pub limit: Option<usize>,
    /// Smallest community listed (2..=1000000, default 2); list only.
    #[serde(default)]
    pub min_size: Option<usize>,
    /// Only communities with a member under this path; list only.
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// One row of a community list.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommunityRow {
    pub id: u32,
    pub label: String,
    pub size: usize,
    pub cohesion: f64,
    pub hub: NodeSummary,
    /// How many files hold members.
    pub files: usize,
    /// Up to three files with the most members.
    pub top_files: Vec<FileCount>,
}

/// A list of communities (the `get_communities` list and analyze kind `clusters`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommunityList {
    pub algorithm: Algorithm,
    pub modularity: f64,
    /// Communities (two or more members) in the whole graph.
    pub count: usize,
    /// Communities matching `min_size` and `path_prefix`.
    pub total: usize,
    /// Nodes with community edges that ended up alone (not listed).
    pub singletons: usize,
    pub communities: Vec<CommunityRow>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Another community a community's members call or reference.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NeighbourRow {
    pub id: u32,
    pub label: String,
    /// Calls/references edges crossing between the two.
    pub edges: usize,
    /// Their summed tier weight.
    pub weight: f64,
}

/// One community in detail.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommunityDetail {
    pub id: u32,
    pub label: String,
    pub size: usize,
    pub cohesion: f64,
    pub hub: NodeSummary,
    /// Members by in-community weighted degree, at most `limit`.
    pub members: Vec<NodeSummary>,
    pub members_total: usize,
    /// Files by member count, at most `limit`.
    pub files: Vec<FileCount>,
    pub files_total: usize,
    /// Neighbouring communities by crossing weight (descending), then id; at most `limit`.
    pub neighbours: Vec<NeighbourRow>,
}

/// One community, wrapped.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommunityOne {
    pub community: CommunityDetail,
}

/// The answer of `get_communities`: the list, or one community.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum GetCommunitiesResult {
    List(CommunityList),
    One(Box<CommunityOne>),
}

/// `get_communities`: the community list, or one community's members, files and neighbours.
pub fn get_communities(
    g: &Graph,
    communities: &Communities,
    args: &GetCommunitiesArgs,
) -> Result<GetCommunitiesResult, QueryError> {
    let limit = check_limit(args.limit)?;
    let min_size = check_range("min_size", args.min_size, 2, 2, 1_000_000)?;
    let prefix = parse_path_prefix(args.path_prefix.as_deref())?;
    match &args.id {
        None => Ok(GetCommunitiesResult::List(list(
            g,
            communities,
            limit,
            min_size,
            prefix.as_deref(),
        ))),
        Some(id) => {
            if args.min_size.is_some() || args.path_prefix.is_some() {
                return Err(QueryError::invalid(
                    "min_size and path_prefix filter the community list; omit them when asking for one community by id",
                ));
            }
            let c = find_community(communities, id)?;
            Ok(GetCommunitiesResult::One(Box::new(CommunityOne {
                community: detail(g, communities, c, limit),
            })))
        }
    }
}

/// The community an id or label names, or a `not_found` naming the valid ids.
pub fn find_community<'c>(communities: &'c Communities, id: &IdOrName) -> Result<&'c Community, QueryError> {
    let range = || match communities.communities.len() {
        0 => "the graph has no communities (no symbol calls or references another)".to_string(),
        n => format!("valid ids are 0..={} ({n} communities of two or more members)", n - 1),
    };
    if let Some(n) = id.number() {
        return u32::try_from(n)
            .ok()
            .and_then(|n| communities.get(n))
            .ok_or_else(|| QueryError::not_found(format!("no community has id {n}; {}", range())));
    }
    let IdOrName::Name(text) = id else {
        unreachable!("numbers are handled above")
    };
    let wanted = text.trim();
    if let Some(c) = communities.communities.iter().find(|c| c.label == wanted) {
        return Ok(c);
    }
    let lower = wanted.to_lowercase();
    let similar: Vec<String> = communities
        .communities
        .iter()
        .filter(|c| !lower.is_empty() && c.label.to_lowercase().contains(&lower))
        .take(5)
        .map(|c| format!("{} ({:?})", c.id, c.label))
        .collect();
    let hint = if similar.is_empty() {
        String::new()
    } else {
        format!("; labels containing it: {}", similar.join(", "))
    };
    Err(QueryError::not_found(format!(
        "no community is labelled {text:?}{hint}; {}",
        range()
    )))
}

fn list(g: &Graph, cs: &Communities, limit: usize, min_size: usize, prefix: Option<&str>) -> CommunityList {
    let matching: Vec<&Community> = cs
        .communities
        .iter()
        .filter(|c| c.size >= min_size)
        .filter(|c| prefix.is_none_or(|p| c.files.iter().any(|f| f.path.starts_with(p))))
        .collect();
    let total = matching.len();
    let communities = matching
        .into_iter()
        .take(limit)
        .map(|c| CommunityRow {
            id: c.id,
            label: c.label.clone(),
            size: c.size,
            cohesion: round(c.cohesion, 3),
            hub: NodeSummary::at(g, c.hub),
            files: c.files.len(),
            top_files: c.files.iter().take(3).cloned().collect(),
        })
        .collect();
    CommunityList {
        algorithm: cs.algorithm,
        modularity: round(cs.modularity, 4),
        count: cs.communities.len(),
        total,
        singletons: cs.singletons,
        communities,
        truncated: total > limit,
    }
}

fn detail(g: &Graph, cs: &Communities, c: &Community, limit: usize) -> CommunityDetail {
    // Crossing edges: exactly one end is a member, so each is seen once.
    let mut crossing: FxHashMap<u32, (usize, f64)> = FxHashMap::default();
    for &m in &c.members {
        let out = g.out_edges(m).map(|e| (e, e.to));
        let inc = g.in_edges(m).map(|e| (e, e.from));
        for (e, other) in out.chain(inc) {
            if !is_community_edge(e.kind) || other == m {
                continue;
            }
            if let Some(oc) = cs.map.of(other).filter(|&oc| oc != c.id) {
                let slot = crossing.entry(oc).or_default();
                slot.0 += 1;
                slot.1 += tier_weight(e.origin);
            }
        }
    }
    let mut neighbours: Vec<NeighbourRow> = crossing
        .into_iter()
        .map(|(id, (edges, weight))| NeighbourRow {
            id,
            label: cs.communities[id as usize].label.clone(),
            edges,
            weight: round(weight, 3),
        })
        .collect();
    neighbours.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.id.cmp(&b.id)));
    neighbours.truncate(limit);
    CommunityDetail {
        id: c.id,
        label: c.label.clone(),
        size: c.size,
        cohesion: round(c.cohesion, 3),
        hub: NodeSummary::at(g, c.hub),
        members: c.members.iter().take(limit).map(|&m| NodeSummary::at(g, m)).collect(),
        members_total: c.members.len(),
        files: c.files.iter().take(limit).cloned().collect(),
        files_total: c.files.len(),
        neighbours,
    }
}

/// Arguments of analyze kind `clusters`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClustersArgs {
    /// Community algorithm: `leiden` (default), `louvain` or `spectral` (Newman's leading
    /// eigenvector of the modularity matrix, recursive bisection).
    #[serde(default)]
    #[schemars(extend("enum" = ["leiden", "louvain", "spectral"]))]
    pub algorithm: Option<String>,
    /// Communities listed: 1..=1000, default 50.
    #[serde(default)]
    pub limit: Option<usize>,
    /// Smallest community listed (2..=1000000, default 2).
    #[serde(default)]
    pub min_size: Option<usize>,
}

/// The answer of analyze kind `clusters`: the community list of a fresh detection.
pub type ClustersResult = CommunityList;

/// Analyze kind `clusters`: runs detection with the chosen algorithm and lists the communities.
pub fn clusters(g: &Graph, args: &ClustersArgs) -> Result<ClustersResult, QueryError> {
    let algorithm = Algorithm::parse(args.algorithm.as_deref().unwrap_or("leiden"))?;
    let limit = check_limit(args.limit)?;
    let min_size = check_range("min_size", args.min_size, 2, 2, 1_000_000)?;
    let cs = detect_communities(g, algorithm);
    Ok(list(g, &cs, limit, min_size, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjacency::Adjacency;
    use crate::testutil::{two_cliques, Builder};
    use gortex_core::{EdgeKind, Origin};
    use proptest::prelude::*;

    fn names(g: &Graph, c: &Community) -> Vec<String> {
        let mut v: Vec<String> = c.members.iter().map(|&m| g.node_at(m).name.clone()).collect();
        v.sort();
        v
    }

    #[test]
    fn two_cliques_joined_by_one_edge_are_two_communities() {
        let g = two_cliques();
        for algorithm in [Algorithm::Leiden, Algorithm::Louvain, Algorithm::Spectral] {
            let cs = detect_communities(&g, algorithm);
            assert_eq!(cs.communities.len(), 2, "{algorithm:?}");
            assert_eq!(cs.singletons, 0);
            assert_eq!(cs.clustered, 10);
            let (a, b) = (&cs.communities[0], &cs.communities[1]);
            assert_eq!(names(&g, a), ["a0", "a1", "a2", "a3", "a4"]);
            assert_eq!(names(&g, b), ["b0", "b1", "b2", "b3", "b4"]);
            // Every member has in-community degree 4; the smallest id wins the tie.
            assert_eq!(a.label, "src/a · a0");
            assert_eq!(b.label, "src/b · b0");
            assert_eq!(
                a.files,
                vec![FileCount {
                    path: "src/a/x.ts".into(),
                    members: 5
                }]
            );
            // m = 21; each side: 10 internal, degree sum 21 → Q = 2 (10/21 − 1/4).
            assert!((cs.modularity - 2.0 * (10.0 / 21.0 - 0.25)).abs() < 1e-9);
            assert!((a.cohesion - 10.0 / 11.0).abs() < 1e-9);
            assert_eq!(cs.map.labels, vec!["src/a · a0".to_string(), "src/b · b0".to_string()]);
            assert_eq!(cs.map.of(a.hub), Some(0));
            assert_eq!(cs.map.of(b.hub), Some(1));
        }
    }

    #[test]
    fn adjacency_weighs_by_tier_sums_parallel_edges_and_skips_loops_files_and_stubs() {
        let mut b = Builder::new();
        let f = b.func("a.ts", "f");
        let h = b.func("a.ts", "h");
        let k = b.func("a.ts", "k");
        let file = b.file("a.ts");
        let stub = b.func("", "external");
        b.node(stub).external = true;
        b.edge(f, h, EdgeKind::Calls, Origin::AstResolved, 1);
        b.edge(f, h, EdgeKind::Calls, Origin::TextMatched, 2);
        b.edge(h, f, EdgeKind::References, Origin::AstInferred, 3);
        b.edge(f, k, EdgeKind::Calls, Origin::Speculative, 4);
        b.edge(f, f, EdgeKind::Calls, Origin::AstResolved, 5);
        b.edge(file, f, EdgeKind::Calls, Origin::AstResolved, 6);
        b.edge(f, stub, EdgeKind::Calls, Origin::AstResolved, 7);
        b.edge(h, k, EdgeKind::Instantiates, Origin::AstResolved, 8);
        let g = b.build();
        let adj = Adjacency::build(&g);
        assert_eq!(adj.nodes, vec![f, h, k]);
        let lf = adj.local_of(f).unwrap();
        let around: Vec<(u32, f64)> = adj.neighbours(lf).collect();
        assert_eq!(around.len(), 2);
        assert!((around[0].1 - (1.0 + 0.5 + 0.8)).abs() < 1e-12);
        assert!((around[1].1 - 0.1).abs() < 1e-12);
        assert_eq!(adj.local_of(file), None);
        assert_eq!(adj.local_of(stub), None);
    }

    #[test]
    fn nodes_without_edges_belong_to_no_community() {
        let mut b = Builder::new();
        let lonely = b.func("a.ts", "lonely");
        let x = b.func("a.ts", "x");
        let y = b.func("a.ts", "y");
        b.call(x, y, 1);
        let g = b.build();
        let cs = detect_communities(&g, Algorithm::Leiden);
        assert_eq!(cs.communities.len(), 1);
        assert_eq!(cs.map.of(lonely), None);
        assert_eq!(cs.map.of(x), Some(0));
        assert_eq!(cs.communities[0].label, ". · x");
    }

    #[test]
    fn detection_is_deterministic() {
        let g = ring_of_cliques(6, 4);
        for algorithm in [Algorithm::Leiden, Algorithm::Louvain, Algorithm::Spectral] {
            let a = detect_communities(&g, algorithm);
            let b = detect_communities(&g, algorithm);
            assert_eq!(a.map.of_node, b.map.of_node);
            assert_eq!(a.map.labels, b.map.labels);
            assert_eq!(a.modularity.to_bits(), b.modularity.to_bits());
            assert_eq!(a.communities.len(), 6, "{algorithm:?}");
        }
    }

    /// `k` cliques of `size` nodes in a ring, one edge between neighbouring cliques.
    fn ring_of_cliques(k: usize, size: usize) -> Graph {
        let mut b = Builder::new();
        let groups: Vec<Vec<NodeIndex>> = (0..k)
            .map(|c| {
                (0..size)
                    .map(|i| b.func(&format!("m{c}/f.ts"), &format!("n{c}_{i}")))
                    .collect()
            })
            .collect();
        for grp in &groups {
            for i in 0..size {
                for j in i + 1..size {
                    b.call(grp[i], grp[j], j as u32);
                }
            }
        }
        for c in 0..k {
            b.call(groups[c][0], groups[(c + 1) % k][1], 50);
        }
        b.build()
    }

    fn connected(adj: &Adjacency, members: &[u32]) -> bool {
        let set: rustc_hash::FxHashSet<u32> = members.iter().copied().collect();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![members[0]];
        seen.insert(members[0]);
        while let Some(i) = stack.pop() {
            for (j, _) in adj.neighbours(i) {
                if set.contains(&j) && seen.insert(j) {
                    stack.push(j);
                }
            }
        }
        seen.len() == set.len()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Leiden communities are connected; both algorithms beat the all-singletons partition.
        #[test]
        fn leiden_communities_are_connected(
            n in 2usize..40,
            raw_edges in proptest::collection::vec((0usize..40, 0usize..40, 0usize..4), 1..120),
        ) {
            let mut b = Builder::new();
            let nodes: Vec<NodeIndex> = (0..n).map(|i| b.func(&format!("d{}/f.ts", i % 3), &format!("f{i}"))).collect();
            let tiers = [Origin::AstResolved, Origin::AstInferred, Origin::TextMatched, Origin::Speculative];
            for (x, y, t) in raw_edges {
                b.edge(nodes[x % n], nodes[y % n], EdgeKind::Calls, tiers[t], 1);
            }
            let g = b.build();
            let adj = Adjacency::build(&g);
            for algorithm in [Algorithm::Leiden, Algorithm::Louvain, Algorithm::Spectral] {
                let cs = detect_communities(&g, algorithm);
                prop_assert!(cs.modularity >= -0.5 && cs.modularity <= 1.0);
                if !adj.is_empty() {
                    let singletons: Vec<u32> = (0..adj.len() as u32).collect();
                    let base = adj.to_working().modularity(&singletons, RESOLUTION);
                    prop_assert!(cs.modularity >= base - 1e-9);
                }
                let listed: usize = cs.communities.iter().map(|c| c.size).sum();
                prop_assert_eq!(listed + cs.singletons, adj.len());
                if algorithm == Algorithm::Leiden {
                    for c in &cs.communities {
                        let locals: Vec<u32> = c.members.iter().map(|&m| adj.local_of(m).unwrap()).collect();
                        prop_assert!(connected(&adj, &locals), "community {} is not connected", c.label);
                    }
                }
            }
        }
    }

    fn query(g: &Graph, cs: &Communities, args: serde_json::Value) -> Result<serde_json::Value, QueryError> {
        let args: GetCommunitiesArgs = serde_json::from_value(args).expect("arguments deserialise");
        get_communities(g, cs, &args).map(|r| serde_json::to_value(r).unwrap())
    }

    #[test]
    fn get_communities_lists_and_details() {
        let g = two_cliques();
        let cs = detect_communities(&g, Algorithm::Leiden);
        let list = query(&g, &cs, serde_json::json!({})).unwrap();
        assert_eq!(list["algorithm"], "leiden");
        assert_eq!(list["total"], 2);
        assert_eq!(list["communities"][0]["label"], "src/a · a0");
        assert_eq!(list["communities"][0]["hub"]["id"], "r/src/a/x.ts::a0");
        assert_eq!(list["communities"][0]["top_files"][0]["path"], "src/a/x.ts");
        let only_b = query(&g, &cs, serde_json::json!({"path_prefix": "./src/b"})).unwrap();
        assert_eq!(only_b["total"], 1);
        assert_eq!(only_b["communities"][0]["id"], 1);
        let big = query(&g, &cs, serde_json::json!({"min_size": 6})).unwrap();
        assert_eq!(big["total"], 0);
        assert_eq!(big["count"], 2);
        let by_label = query(&g, &cs, serde_json::json!({"id": "src/b · b0", "limit": 2})).unwrap();
        let one = &by_label["community"];
        assert_eq!(one["id"], 1);
        assert_eq!(one["members"].as_array().unwrap().len(), 2);
        assert_eq!(one["members_total"], 5);
        assert_eq!(
            one["neighbours"],
            serde_json::json!([{"id": 0, "label": "src/a · a0", "edges": 1, "weight": 1.0}])
        );
        let by_number = query(&g, &cs, serde_json::json!({"id": 0})).unwrap();
        assert_eq!(by_number["community"]["label"], "src/a · a0");
        let by_text_number = query(&g, &cs, serde_json::json!({"id": "1"})).unwrap();
        assert_eq!(by_text_number["community"]["label"], "src/b · b0");
    }

    #[test]
    fn get_communities_rejects_bad_input() {
        let g = two_cliques();
        let cs = detect_communities(&g, Algorithm::Leiden);
        let e = query(&g, &cs, serde_json::json!({"id": 7})).unwrap_err();
        assert_eq!(e.code, "not_found");
        assert!(e.message.contains("valid ids are 0..=1"), "{}", e.message);
        let e = query(&g, &cs, serde_json::json!({"id": "src/a"})).unwrap_err();
        assert_eq!(e.code, "not_found");
        assert!(e.message.contains("0 (\"src/a · a0\")"), "{}", e.message);
        let e = query(&g, &cs, serde_json::json!({"limit": 0})).unwrap_err();
        assert_eq!(e.message, "limit must be 1..=1000, got 0");
        let e = query(&g, &cs, serde_json::json!({"min_size": 1})).unwrap_err();
        assert_eq!(e.message, "min_size must be 2..=1000000, got 1");
        let e = query(&g, &cs, serde_json::json!({"path_prefix": " "})).unwrap_err();
        assert!(e.message.starts_with("path_prefix must be"), "{}", e.message);
        assert!(serde_json::from_value::<GetCommunitiesArgs>(serde_json::json!({"bogus": 1})).is_err());
    }

    #[test]
    fn clusters_runs_the_chosen_algorithm() {
        let g = two_cliques();
        let run = |v: serde_json::Value| clusters(&g, &serde_json::from_value(v).unwrap());
        let louvain = run(serde_json::json!({"algorithm": "louvain"})).unwrap();
        assert_eq!(louvain.algorithm, Algorithm::Louvain);
        assert_eq!(louvain.count, 2);
        assert!((louvain.modularity - 0.4524).abs() < 1e-9);
        let leiden = run(serde_json::json!({})).unwrap();
        assert_eq!(leiden.algorithm, Algorithm::Leiden);
        let spectral = run(serde_json::json!({"algorithm": "spectral"})).unwrap();
        assert_eq!(spectral.algorithm, Algorithm::Spectral);
        assert_eq!(spectral.count, 2);
        assert!((spectral.modularity - 0.4524).abs() < 1e-9);
        let e = run(serde_json::json!({"algorithm": "kmeans"})).unwrap_err();
        assert_eq!(
            e.message,
            "algorithm must be one of leiden, louvain, spectral, got \"kmeans\""
        );
        let e = run(serde_json::json!({"limit": 0})).unwrap_err();
        assert_eq!(e.message, "limit must be 1..=1000, got 0");
    }
}
