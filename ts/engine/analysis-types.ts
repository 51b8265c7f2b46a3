/**
 * Argument and result shapes of `analyze` (one kind per analysis) and of the analysis tools
 * (`get_communities`, `get_processes`, `explain_change_impact`, `find_clones`), mirroring the Rust
 * serde structs (`crates/gortex-search/src/sites.rs`, `crates/gortex-analysis`,
 * `crates/gortex-clones`) field for field.
 */
import type { Caveat, EdgeKind, NodeKind, NodeSummary, OneOrMany, Origin, TierReport } from './query-types';

// ---------------------------------------------------------------------------------------------
// Text-sourced kinds (routes, env_var_users, todos)
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=todos`. */
export interface TodosArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  /** Tags to report (default TODO, FIXME, HACK, XXX, BUG, QUESTION). */
  tags?: string[];
  limit?: number;
}

/** Result of `analyze kind=todos`. */
export interface TodosResult {
  total: number;
  by_tag: Record<string, number>;
  by_assignee: Record<string, number>;
  todos: { tag: string; assignee?: string; text: string; path: string; line: number; symbol?: NodeSummary }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

/** Arguments of `analyze kind=env_var_users`. */
export interface EnvVarUsersArgs {
  /** Only this variable. */
  name?: string;
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  limit?: number;
}

/** Result of `analyze kind=env_var_users`. */
export interface EnvVarUsersResult {
  total_variables: number;
  total_reads: number;
  variables: { name: string; reads: number; files: number; sites: { path: string; line: number; symbol?: NodeSummary }[] }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

/** Arguments of `analyze kind=routes`. */
export interface RoutesArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  /** Only this HTTP method. */
  method?: string;
  /** Only routes whose path contains this text. */
  route?: string;
  limit?: number;
}

/** Result of `analyze kind=routes`. */
export interface RoutesResult {
  total: number;
  by_framework: Record<string, number>;
  routes: {
    method: string;
    route: string;
    framework: 'express' | 'fastapi/flask' | 'gin' | 'net/http' | 'spring';
    path: string;
    line: number;
    handler?: NodeSummary;
    registered_in?: NodeSummary;
  }[];
  truncated: boolean;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: true;
  evidence: 'text';
}

// ---------------------------------------------------------------------------------------------
// Graph-sourced kinds
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=coverage_gaps` (alias `untested`). */
export interface CoverageGapsArgs {
  /** Path prefix (or glob for the text-sourced kinds). */
  path_prefix?: string;
  symbol_kind?: 'function' | 'method';
  exported_only?: boolean;
  limit?: number;
}

/** Result of `analyze kind=coverage_gaps`: functions and methods no test reaches, riskiest first. */
export interface CoverageGapsResult {
  symbols: (NodeSummary & { fan_in: number })[];
  total: number;
  examined: number;
  /** Share of examined symbols some test reaches (0–1). */
  tested_ratio: number;
  truncated: boolean;
  evidence: 'graph';
}

// ---------------------------------------------------------------------------------------------
// dead_code / hotspots
// ---------------------------------------------------------------------------------------------

/** Node kinds `analyze kind=dead_code` can report. */
export type DeadCodeKind = 'function' | 'method' | 'type' | 'interface' | 'field' | 'variable' | 'constant' | 'enum_member';

/** Arguments of `analyze kind=dead_code`. */
export interface DeadCodeArgs {
  /** Node kinds to report (default function, method, type, interface). */
  kinds?: OneOrMany<DeadCodeKind>;
  /** Repository-relative path prefix (no leading `/`, no `..`). */
  path_prefix?: string;
  /** Also report exported symbols (public API nobody in the repository uses; default false). */
  include_exported?: boolean;
  /** Also report symbols whose only users are dead themselves, flagged `via_dead` (default false). */
  transitive?: boolean;
  /** Rows to return, 1..=1000 (default 50). */
  limit?: number;
}

/** How sure a dead-code row is: `medium` when name-only or incomplete evidence exists (see `reason`). */
export type DeadConfidence = 'high' | 'medium';

/** Why an unused symbol of a requested kind was not reported. */
export type DeadCodeExclusion =
  | 'test'
  | 'document'
  | 'declaration_file'
  | 'exported'
  | 'entry_point'
  | 'object_member'
  | 'constructor'
  | 'magic_method'
  | 'override'
  | 'trait_impl'
  | 'decorated'
  | 'interface_member';

/** One dead symbol. */
export interface DeadRow {
  symbol: NodeSummary;
  /** Why it is considered dead, and what could make that wrong. */
  reason: string;
  confidence: DeadConfidence;
  /** Present (true) only for rows found by the transitive pass (used only by dead code). */
  via_dead?: true;
  /** For `via_dead` rows: ids of (up to 5 of) the dead users; absent when empty. */
  dead_users?: string[];
}

/** Result of `analyze kind=dead_code`: symbols with no usage evidence. */
export interface DeadCodeResult {
  /** Direct findings first, high confidence first, then by path and line. */
  dead: DeadRow[];
  /** Rows before `limit`. */
  total: number;
  /** Rows before `limit`, per kind. */
  by_kind: Partial<Record<NodeKind, number>>;
  /** Rows before `limit`, per confidence. */
  by_confidence: Partial<Record<DeadConfidence, number>>;
  /** Of `total`, rows found by the transitive pass; absent when 0. */
  via_dead?: number;
  truncated: boolean;
  /** Unused symbols not reported, by `DeadCodeExclusion` reason (a string record: every object has `constructor`); absent when none. */
  excluded?: Record<string, number>;
  /** The kinds reported. */
  kinds: DeadCodeKind[];
  /** Uses the index does not record, so rows may be wrong there. */
  blind_spots: string;
}

/** Arguments of `analyze kind=hotspots`. */
export interface HotspotsArgs {
  /** Rows to return, 1..=1000 (default 50). */
  limit?: number;
  /** Smallest score listed, 0–100 (default mean + 2σ). */
  threshold?: number;
  /** Only functions and methods under this path prefix (scores are still graph-wide). */
  path_prefix?: string;
}

/** One hotspot: a function or method and the parts of its score. */
export interface Hotspot {
  node: NodeSummary;
  /** 0–100. */
  score: number;
  fan_in: number;
  fan_out: number;
  /** Distinct neighbours in another community. */
  crossings: number;
  /** 0–100, relative to the most between node. */
  betweenness: number;
  /** Id of its community; absent when it belongs to none. */
  community?: number;
}

/** Result of `analyze kind=hotspots`: functions and methods at or above the threshold, best first. */
export interface HotspotsResult {
  /** The threshold applied (given, or mean + 2σ). */
  threshold: number;
  mean: number;
  stddev: number;
  /** Functions and methods scored. */
  candidates: number;
  /** Rows at or above the threshold (and under `path_prefix`). */
  total: number;
  hotspots: Hotspot[];
  /** Present (true) only when `limit` cut the rows. */
  truncated?: true;
}

// ---------------------------------------------------------------------------------------------
// cycles / would_create_cycle
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=cycles`. */
export interface CyclesArgs {
  /** `imports`, `calls` or `all` (default). */
  scope?: 'imports' | 'calls' | 'all';
  /** Cycles to return, 1..=1000 (default 50). */
  limit?: number;
  /** Only cycles with at least one member under this repository-relative prefix. */
  path_prefix?: string;
  /** Also report functions that call themselves (default false). */
  include_self?: boolean;
  /** Weakest provenance tier followed (default `text_matched`). */
  min_tier?: Origin;
}

/** Which graph a cycle lives in. */
export type CycleKind = 'imports' | 'calls';

/** How bad a cycle is: imports across directories or calls across directories are `high`. */
export type CycleSeverity = 'high' | 'medium' | 'low';

/** One edge of a cycle's path. */
export interface CycleStep {
  /** Id of the importing file/package, or of the caller. */
  from: string;
  /** Id of the imported file/package, or of the callee. */
  to: string;
  kind: EdgeKind;
  /** File holding the import statement or the call. */
  path: string;
  line: number;
}

/** One strongly connected component of the import or call graph. */
export interface Cycle {
  kind: CycleKind;
  severity: CycleSeverity;
  /** Number of members. */
  size: number;
  /** Members sorted by id (files/packages for imports, functions/methods for calls), at most 100. */
  members: NodeSummary[];
  /** Present (true) only when `members` was cut. */
  members_truncated?: true;
  /** One closed path through the component, starting and ending at its smallest member id. */
  path: CycleStep[];
  /** Distinct directories of the members. */
  directories: number;
  /** Call cycles only: distinct files of the members. */
  files?: number;
}

/** Result of `analyze kind=cycles`: import and call cycles, most severe and largest first. */
export interface CyclesResult {
  cycles: Cycle[];
  /** Cycles before `limit`. */
  total: number;
  by_kind: Partial<Record<CycleKind, number>>;
  by_severity: Partial<Record<CycleSeverity, number>>;
  truncated: boolean;
  /** The scope searched. */
  scope: 'imports' | 'calls' | 'all';
}

/** Arguments of `analyze kind=would_create_cycle`. */
export interface WouldCreateCycleArgs {
  /** The importing file (edge `imports`) or the calling function/method (edge `calls`). */
  from: string;
  /** The imported file or the called function/method. */
  to: string;
  /** `imports` (default) or `calls`. */
  edge?: CycleKind;
}

/** Result of `analyze kind=would_create_cycle`: whether adding `from → to` would close a cycle. */
export interface WouldCreateCycleResult {
  would_create_cycle: boolean;
  edge: CycleKind;
  from: NodeSummary;
  to: NodeSummary;
  /** The existing route `to → … → from` the new edge would close (empty when none, or when `from` and `to` are one unit). */
  path: CycleStep[];
  /** The edge (between the same files/packages, or functions) exists already. */
  already_exists: boolean;
  /** Set when `from` and `to` are the same unit (self-import or direct recursion). */
  note?: string;
}

// ---------------------------------------------------------------------------------------------
// impact / explain_change_impact
// ---------------------------------------------------------------------------------------------

/** What `analyze kind=impact` ranks: exactly one of `symbol` and `file` is required. */
export interface ImpactTarget {
  /** A symbol id, qualified or bare name. */
  symbol?: string;
  /** A repository-relative file path or file id. */
  file?: string;
}

/** Arguments of `analyze kind=impact`. */
export interface ImpactArgs {
  /** Rank this target's blast radius; without it, rank the repository's riskiest functions. */
  target?: ImpactTarget;
  /** Rows to return, 1..=1000 (default 50). */
  limit?: number;
}

/** The points each part of an impact score contributed. */
export interface ImpactComponents {
  /** Up to 30 points. */
  centrality: number;
  /** Up to 35 points. */
  reach: number;
  /** Up to 20 points. */
  complexity: number;
  /** Up to 15 points. */
  community_span: number;
}

/** The raw measurements behind an impact score. */
export interface ImpactMetrics {
  /** Distinct nodes using the symbol (or anything it contains). */
  in_degree: number;
  /** Dependents one, two and three hops away. */
  reach: [number, number, number];
  /** Present (true) only when the reach walk hit its bounds (the counts are lower bounds). */
  reach_truncated?: true;
  /** Lines of the declaration. */
  lines: number;
  /** Distinct nodes the symbol uses. */
  fan_out: number;
  /** Distinct communities (or directories without a community map) of it and its dependents. */
  communities: number;
}

/** One ranked row of `analyze kind=impact`. */
export interface ImpactRow {
  node: NodeSummary;
  /** Target mode only: 0 for the target, else the dependent's level. */
  depth?: number;
  /** 0–100, one decimal. */
  score: number;
  components: ImpactComponents;
  metrics: ImpactMetrics;
}

/** Result of `analyze kind=impact`: composite 0–100 change risk per symbol. */
export interface ImpactResult {
  /** `target` (a blast radius) or `repo` (the riskiest functions and methods). */
  mode: 'target' | 'repo';
  rows: ImpactRow[];
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
  /** Target mode: dependents within three levels. */
  closure_width?: number;
  /** Target mode: the closure is complete (walk not truncated, nothing outside depends on the third level). */
  exact?: boolean;
  /** Repo mode: functions and methods outside tests. */
  candidates?: number;
  /** Repo mode: how many of them got a full score (the rest were cut by the cheap prefilter). */
  scored?: number;
  note: string;
}

/** Arguments of `explain_change_impact`; exactly one of `id`, `ids` and `file` is required. */
export interface ExplainChangeImpactArgs {
  /** One symbol (id, qualified or bare name) or a file path. */
  id?: string;
  /** Several symbols changed together (at most 100). */
  ids?: string[];
  /** A file: its symbols and its importers. */
  file?: string;
  /** Levels of dependents, 1..=3 (default 3). */
  depth?: number;
  /** Most dependent rows listed over all levels, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier followed. */
  min_tier?: Origin;
}

/** The risk tier of a change (0–1 points `low`, 2–3 `medium`, 4–6 `high`, 7+ `critical`). */
export type RiskTier = 'low' | 'medium' | 'high' | 'critical';

/** One dependent of a change. */
export interface DependentRow {
  node: NodeSummary;
  /** The best path tier reaching it. */
  tier: Origin;
}

/** The dependents of a change at one level. */
export interface ImpactLevel {
  depth: number;
  /** Dependents at this level (before `limit`). */
  count: number;
  /** Listed dependents (the nearest levels fill `limit` first), by path and line. */
  dependents: DependentRow[];
}

/** An execution flow a change touches. */
export interface ProcessRef {
  id: number;
  name: string;
}

/** Result of `explain_change_impact`: the risk-tiered blast radius of a change. */
export interface ExplainChangeImpactResult extends TierReport {
  targets: NodeSummary[];
  depth: number;
  risk: RiskTier;
  /** What earned the risk tier, one `+points: why` line each. */
  risk_factors: string[];
  /** Dependents over all levels. */
  total: number;
  /** Levels with at least one dependent. */
  levels: ImpactLevel[];
  /** Distinct files among the dependents. */
  files: number;
  /** Test symbols among the dependents, by path and line (at most `limit`). */
  affected_tests: NodeSummary[];
  /** Files of the affected tests (and test files among the dependents), sorted. */
  affected_test_files: string[];
  /** Execution flows through the targets or their dependents. */
  affected_processes: ProcessRef[];
  /** Distinct communities of the targets and dependents; absent without a community map. */
  communities_touched?: number;
  /** The reach walk hit its bounds: every count is a lower bound. */
  truncated: boolean;
  /** Present (true) only when `limit` cut the dependent rows. */
  rows_truncated?: true;
  /** For one symbol target: how far "nothing depends on it" can be trusted. */
  caveat?: Caveat;
}

// ---------------------------------------------------------------------------------------------
// get_communities / clusters
// ---------------------------------------------------------------------------------------------

/** A community detection algorithm. */
export type CommunityAlgorithm = 'leiden' | 'louvain';

/** An id argument: a number, or a name (label, entry name, or a number in a string). */
export type IdOrName = number | string;

/** A file and how many members of a community it declares. */
export interface CommunityFileCount {
  path: string;
  members: number;
}

/** Arguments of `get_communities`. */
export interface GetCommunitiesArgs {
  /** One community by id or label; without it, the list. */
  id?: IdOrName;
  /** Rows (communities, or members of one community), 1..=1000 (default 50). */
  limit?: number;
  /** Smallest community listed, 2..=1000000 (default 2); list only. */
  min_size?: number;
  /** Only communities with a member under this path prefix; list only. */
  path_prefix?: string;
}

/** One row of a community list. */
export interface CommunityRow {
  id: number;
  /** `<modal directory> · <hub qualified name>`, made unique with ` #2`, ` #3`, …. */
  label: string;
  size: number;
  /** Internal weight / total weight incident to the members (0–1). */
  cohesion: number;
  /** The member with the highest in-community weighted degree. */
  hub: NodeSummary;
  /** Up to three files with the most members. */
  top_files: CommunityFileCount[];
}

/** A list of communities (the `get_communities` list and `analyze kind=clusters`). */
export interface CommunityList {
  algorithm: CommunityAlgorithm;
  modularity: number;
  /** Communities (two or more members) in the whole graph. */
  count: number;
  /** Communities matching `min_size` and `path_prefix`. */
  total: number;
  /** Nodes with community edges that ended up alone (not listed). */
  singletons: number;
  communities: CommunityRow[];
  /** Present (true) only when `limit` cut the list. */
  truncated?: true;
}

/** Another community a community's members call or reference. */
export interface NeighbourRow {
  id: number;
  label: string;
  /** Calls/references edges crossing between the two. */
  edges: number;
  /** Their summed tier weight. */
  weight: number;
}

/** One community in detail. */
export interface CommunityDetail {
  id: number;
  label: string;
  size: number;
  cohesion: number;
  hub: NodeSummary;
  /** Members by in-community weighted degree, at most `limit`. */
  members: NodeSummary[];
  members_total: number;
  /** Files by member count, at most `limit`. */
  files: CommunityFileCount[];
  files_total: number;
  /** Neighbouring communities by crossing weight (descending), then id; at most `limit`. */
  neighbours: NeighbourRow[];
}

/** One community, wrapped (the `get_communities` answer when `id` is given). */
export interface CommunityOne {
  community: CommunityDetail;
}

/** Result of `get_communities`: the list, or one community when `id` is given. */
export type GetCommunitiesResult = CommunityList | CommunityOne;

/** Arguments of `analyze kind=clusters`. */
export interface ClustersArgs {
  /** `leiden` (default) or `louvain` (`spectral` is refused: not built). */
  algorithm?: CommunityAlgorithm;
  /** Communities listed, 1..=1000 (default 50). */
  limit?: number;
  /** Smallest community listed, 2..=1000000 (default 2). */
  min_size?: number;
}

/** Result of `analyze kind=clusters`: the community list of a fresh detection. */
export type ClustersResult = CommunityList;

// ---------------------------------------------------------------------------------------------
// get_processes
// ---------------------------------------------------------------------------------------------

/** Whether a process starts in product code or in a test. */
export type ProcessKind = 'product' | 'test';

/** Why an entry point was stamped as one. */
export type ProcessStamp = 'main' | 'module_call' | 'handler_name' | `decorator:${string}`;

/** Arguments of `get_processes`. */
export interface GetProcessesArgs {
  /** One process by id or entry (id, qualified or bare name); without it, the list. */
  id?: IdOrName;
  /** List test processes too, after the product ones (default false; a test process can always be shown by id). */
  include_tests?: boolean;
  /** Processes listed, 1..=1000 (default 50), or steps of one trace, 1..=2048 (default 500). */
  limit?: number;
}

/** One row of the process list. */
export interface ProcessRow {
  id: number;
  /** The entry's qualified name. */
  name: string;
  kind: ProcessKind;
  entry: NodeSummary;
  score: number;
  stamp?: ProcessStamp;
  /** Steps in the trace. */
  steps: number;
  /** Deepest step. */
  depth: number;
  /** Distinct files the steps are declared in. */
  files: number;
  /** Limits this trace hit; absent when none. */
  truncated?: ('step_limit' | 'depth_limit')[];
}

/** The process list. */
export interface ProcessList {
  /** Processes matching the request (product, plus tests when asked). */
  total: number;
  /** Test processes (listed only with `include_tests`). */
  test_processes: number;
  processes: ProcessRow[];
  /** Limits discovery hit; absent when none. */
  truncated?: ('process_limit' | 'step_limit')[];
}

/** One step of a shown trace. */
export interface ProcessStep {
  /** Calls from the entry (the entry is 0). */
  depth: number;
  node: NodeSummary;
  /** Line of the call site in the caller; absent for the entry. */
  via?: number;
  /** Present (true) when the node was already shown earlier in this trace (not expanded again). */
  revisit?: true;
}

/** One process with its trace. */
export interface ProcessDetail {
  id: number;
  name: string;
  kind: ProcessKind;
  entry: NodeSummary;
  score: number;
  stamp?: ProcessStamp;
  depth: number;
  files: number;
  steps_total: number;
  /** At most `limit` steps, depth-first. */
  steps: ProcessStep[];
  /** Limits hit: the trace's own, plus `limit` when steps were cut here; absent when none. */
  truncated?: ('step_limit' | 'depth_limit' | 'limit')[];
}

/** One process, wrapped (the `get_processes` answer when `id` is given). */
export interface ProcessOne {
  process: ProcessDetail;
}

/** Result of `get_processes`: the list, or one trace when `id` is given. */
export type GetProcessesResult = ProcessList | ProcessOne;

// ---------------------------------------------------------------------------------------------
// external_calls / health_score
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=external_calls`. */
export interface ExternalCallsArgs {
  /** Targets to return, 1..=1000 (default 50). */
  limit?: number;
  /** Only count uses made from code under this repository-relative prefix. */
  path_prefix?: string;
}

/** A caller of an external target. */
export interface ExternalCaller {
  node: NodeSummary;
  /** Uses of the target from this caller. */
  uses: number;
}

/** One external target and who uses it. */
export interface ExternalTargetRow {
  target: NodeSummary;
  /** The external module it belongs to (the longest imported module prefixing it, else its path minus the last segment). */
  module: string;
  name: string;
  /** Usage edges into it. */
  uses: number;
  by_kind: Partial<Record<EdgeKind, number>>;
  /** Distinct using nodes. */
  callers: number;
  /** The callers with the most uses (ties by id), at most 5. */
  top_callers: ExternalCaller[];
  /** Distinct files the uses are made from. */
  files: number;
  /** Those files, sorted, at most 5. */
  top_files: string[];
}

/** Result of `analyze kind=external_calls`: external uses, most used target first. */
export interface ExternalCallsResult {
  targets: ExternalTargetRow[];
  /** Targets before `limit`. */
  total: number;
  /** Usage edges into external stubs, over every target. */
  total_uses: number;
  /** Distinct modules of the targets. */
  modules: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=health_score` (none; unknown keys are refused). */
export interface HealthScoreArgs {}

/** The raw measurements behind each health component, by component name. */
export interface HealthMeasures {
  test_reach: { examined: number; untested: number; tested_ratio: number };
  dead_code: { checked: number; dead_high_confidence: number; dead_medium_confidence: number };
  cycles: {
    import_cycles: number;
    call_cycles: number;
    files_in_import_cycles: number;
    files: number;
    callables_in_call_cycles: number;
    callables: number;
    /** More than 1000 cycles: the member counts are lower bounds. */
    lower_bound: boolean;
  };
  structure: { modularity: number; communities: number; clustered: number };
  resolution: { resolved_calls: number; unresolved_calls: number };
}

/** Name of a health component. */
export type HealthComponentName = keyof HealthMeasures;

/** One measured component of the health score (its `measure` depends on `name`). */
export type HealthComponent = {
  [N in HealthComponentName]: {
    name: N;
    /** 0–100, higher is healthier. */
    score: number;
    /** Weight in the total after redistributing the weight of components left out. */
    weight: number;
    /** The raw measurements the score comes from. */
    measure: HealthMeasures[N];
  };
}[HealthComponentName];

/** Result of `analyze kind=health_score`: one 0–100 score and grade with its components. */
export interface HealthScoreResult {
  /** 0–100, one decimal. */
  score: number;
  /** A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else F. */
  grade: 'A' | 'B' | 'C' | 'D' | 'F';
  components: HealthComponent[];
  /** Components left out and why; absent when none. */
  left_out?: string[];
  /** The scoring rule in one sentence. */
  rule: string;
}

// ---------------------------------------------------------------------------------------------
// find_clones
// ---------------------------------------------------------------------------------------------

/** Arguments of `find_clones`. */
export interface FindClonesArgs {
  /** Jaccard threshold over token shingles, 0.5..=1.0 (default 0.82). */
  min_similarity?: number;
  /** Only clusters holding at least one dead and one live member (default false). */
  dead_only?: boolean;
  /** Only clusters with at least one member whose path starts with this prefix. */
  path_prefix?: string;
  /** Compare test code too: test functions and every function in a test file (default false). */
  include_tests?: boolean;
  /** Clusters to return, 1..=1000 (default 50). */
  limit?: number;
  /** Fewest normalised tokens a body needs, 24..=100000 (default 24). */
  min_tokens?: number;
}

/** One member of a clone cluster: its summary plus its body size. */
export type CloneMember = NodeSummary & {
  /** Normalised tokens in the body. */
  tokens: number;
  /** Present (true) only for dead members (with `dead_only`). */
  dead?: true;
};

/** One verified pair inside a clone cluster (`a` < `b` by id). */
export interface ClonePair {
  a: string;
  b: string;
  /** Exact Jaccard index of the two shingle sets, rounded to 3 decimals. */
  similarity: number;
}

/** A connected component of verified clone pairs. */
export interface CloneCluster {
  /** 1-based rank in this result. */
  id: number;
  /** Members in the cluster (all of them, even when `members` is cut). */
  size: number;
  max_similarity: number;
  min_similarity: number;
  /** Members by id, at most 100. */
  members: CloneMember[];
  /** Verified pairs, most similar first, at most 100. */
  pairs: ClonePair[];
  /** Verified pairs in the cluster (all of them). */
  pairs_total: number;
}

/** Result of `find_clones`: clusters of near-duplicate functions and methods. */
export interface FindClonesResult {
  clusters: CloneCluster[];
  /** The threshold applied. */
  min_similarity: number;
  /** The token floor applied. */
  min_tokens: number;
  /** Function and method bodies in the index that resolve in the graph. */
  bodies: number;
  /** Bodies compared: enough tokens, not declaration-only, and not test code unless `include_tests`. */
  eligible: number;
  /** Bodies of test code left out; absent with `include_tests`. */
  tests_excluded?: number;
  /** Distinct pairs sharing an LSH bucket. */
  candidate_pairs: number;
  /** Candidate pairs whose exact similarity reached the threshold (before cluster filters). */
  verified_pairs: number;
  /** Clusters passing the filters (before `limit`). */
  clusters_total: number;
  /** More clusters than `limit`. */
  truncated: boolean;
  /** LSH buckets with more than 256 bodies, skipped as boilerplate. */
  oversized_buckets_skipped: number;
  /** Present (true) when candidate generation stopped at its cap (8,000,000 pairs); some clones may be missing. */
  candidates_capped?: true;
  notes?: string[];
}

// ---------------------------------------------------------------------------------------------
// kinds
// ---------------------------------------------------------------------------------------------

/** Arguments of `analyze kind=kinds` (none; unknown keys are refused). */
export interface AnalyzeKindsArgs {}

/** Result of `analyze kind=kinds`: every kind with a one-line description, in a stable order. */
export interface AnalyzeKindsResult {
  kinds: { kind: string; description: string }[];
}

// ---------------------------------------------------------------------------------------------
// analyze
// ---------------------------------------------------------------------------------------------

/** Each `analyze` kind's arguments and result. */
export interface AnalyzeKindMap {
  todos: { args: TodosArgs; result: TodosResult };
  env_var_users: { args: EnvVarUsersArgs; result: EnvVarUsersResult };
  routes: { args: RoutesArgs; result: RoutesResult };
  coverage_gaps: { args: CoverageGapsArgs; result: CoverageGapsResult };
  untested: { args: CoverageGapsArgs; result: CoverageGapsResult };
  dead_code: { args: DeadCodeArgs; result: DeadCodeResult };
  hotspots: { args: HotspotsArgs; result: HotspotsResult };
  cycles: { args: CyclesArgs; result: CyclesResult };
  would_create_cycle: { args: WouldCreateCycleArgs; result: WouldCreateCycleResult };
  impact: { args: ImpactArgs; result: ImpactResult };
  clusters: { args: ClustersArgs; result: ClustersResult };
  external_calls: { args: ExternalCallsArgs; result: ExternalCallsResult };
  health_score: { args: HealthScoreArgs; result: HealthScoreResult };
  kinds: { args: AnalyzeKindsArgs; result: AnalyzeKindsResult };
}

/** An `analyze` kind. */
export type AnalyzeKind = keyof AnalyzeKindMap;

/** Arguments of `analyze`: the kind plus that kind's own arguments. */
export type AnalyzeArgs = { [K in AnalyzeKind]: { kind: K } & AnalyzeKindMap[K]['args'] }[AnalyzeKind];

/** Result of `analyze` (the chosen kind's result). */
export type AnalyzeResult = AnalyzeKindMap[AnalyzeKind]['result'];

// ---------------------------------------------------------------------------------------------
// Dataflow (flow_between, taint_paths)
// ---------------------------------------------------------------------------------------------

/** What a dataflow node stands for. */
export type FlowNodeKind = 'param' | 'variable' | 'return' | 'argument' | 'result';

/** The kind of a dataflow edge. */
export type FlowEdgeKind = 'value_flow' | 'arg_of' | 'returns_to';

/** A dataflow node: a parameter, variable/access path, return value, call argument or call result of one function. */
export interface FlowNodeRow {
  /** `<function id>#<name>`, `#return`, `#call<i>:<callee>@L<line>[/arg<k>]`. */
  id: string;
  kind: FlowNodeKind;
  /** Variable or access path; the callee for arguments and results. */
  name: string;
  /** Argument position (arguments only). */
  arg?: number;
  /** Qualified name of the function it belongs to. */
  function: string;
  path: string;
  line: number;
}

/** One hop of a dataflow path. */
export interface FlowHop {
  to: FlowNodeRow;
  kind: FlowEdgeKind;
  confidence: number;
  tier: Origin;
}

/** One dataflow path; confidence is the product of its hops'. */
export interface FlowPath {
  source: FlowNodeRow;
  sink: FlowNodeRow;
  length: number;
  confidence: number;
  hops: FlowHop[];
  /** Built-in sink category. */
  category?: 'sql' | 'exec' | 'filesystem';
}

/** Arguments of `flow_between`. */
export interface FlowBetweenArgs {
  /** A function/method, field/variable, or `Symbol#variable` (`getUser#req.query.id`, `f#return`). */
  source: string;
  sink: string;
  /** Most hops per path, 1–16 (default 8). */
  max_depth?: number;
  /** Most paths, 1–100 (default 10). */
  max_paths?: number;
  min_tier?: string;
}

/** Result of `flow_between`. */
export interface FlowBetweenResult {
  sources: number;
  sinks: number;
  paths: FlowPath[];
  truncated: boolean;
  /** Why no path was found, when none was. */
  diagnosis?: string;
  flow_sensitive: false;
}

/** Arguments of `taint_paths`. */
export interface TaintPathsArgs {
  /** Clauses (`word`, `exact:Name`, `path:dir/`, `kind:K`); omitted → built-in request inputs. */
  source_pattern?: string;
  /** Clauses; omitted → built-in SQL, command and filesystem sinks. */
  sink_pattern?: string;
  max_depth?: number;
  limit?: number;
  min_tier?: string;
  path_prefix?: string;
}

/** Result of `taint_paths`: one finding per sink (its best path). */
export interface TaintPathsResult {
  sources: number;
  sinks: number;
  candidates_capped?: true;
  findings: FlowPath[];
  total: number;
  truncated: boolean;
  source_set: 'builtin' | 'pattern';
  sink_set: 'builtin' | 'pattern';
  /** How much of the repository the flow graph covers. */
  flow_graph: { functions: number; unmatched: number; nodes: number; edges: number };
  flow_sensitive: false;
}
