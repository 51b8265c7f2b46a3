/**
 * Argument and result types of every query tool and `analyze` kind, generated from the Rust
 * query types (`crates/gortex-index/src/query/schema.rs`); do not edit. Run:
 * GORTEX_BLESS=1 cargo test -p gortex-index --test tool_schemas
 */

/** A community detection algorithm. */
export type Algorithm = 'leiden' | 'louvain' | 'spectral';

/** One `analyze` kind. */
export interface AnalyzeKindRow {
  description: string;
  kind: string;
}

/** Arguments of `kind: "kinds"` (none). */
export interface AnalyzeKindsArgs {}

/** The answer of `kind: "kinds"`: every kind with its description, in the table's order. */
export interface AnalyzeKindsResult {
  kinds: AnalyzeKindRow[];
}

/** One annotation and the symbols carrying it. */
export interface AnnotationRow {
  annotation: string;
  /** Per node kind. */
  by_kind: Record<string, number>;
  /** Symbols carrying it. */
  count: number;
  languages: Language[];
  /** The symbols by id, at most `SYMBOLS_PER_ANNOTATION`. */
  symbols: NodeSummary[];
}

/** Arguments of `analyze kind=annotation_users`. */
export interface AnnotationUsersArgs {
  /** Most annotations returned (1..=1000, default 50). */
  limit?: number;
  /** Only this annotation, as recorded (`Override`, `app.route`; a leading `@` is ignored). */
  name?: string;
  /** Only symbols declared under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=annotation_users`. */
export interface AnnotationUsersResult {
  /** Symbols carrying at least one annotation. */
  annotated_symbols: number;
  /** Most used first (ties by name), at most `limit`. */
  annotations: AnnotationRow[];
  total: number;
  truncated: boolean;
}

/** One structural match. */
export interface AstHit {
  /** Capture name → its text (pattern mode). */
  captures?: Record<string, string>;
  column: number;
  end_line: number;
  /** The matched node's kind (pattern mode) or the rule (detector mode). */
  kind: string;
  /** 1-based lines, 0-based byte columns. */
  line: number;
  /** What the detector says (detector mode). */
  message?: string;
  path: string;
  /** The innermost symbol holding the match. */
  symbol?: NodeSummary;
  /** The line's text, trimmed (cut to 240 characters). */
  text: string;
}

/** One author's share of some lines (blame: who last touched them). */
export interface AuthorShare {
  email: string;
  lines: number;
  name: string;
  /** `lines` over the committed lines counted, 0–1. */
  share: number;
}

/** Arguments of `blame`. */
export interface BlameArgs {
  /** Authors listed per row (1..=1000, default 5), largest share first. */
  authors?: number;
  /** Most symbol rows returned (1..=1000, default 50), most recently changed first. */
  limit?: number;
  /** A file to blame as a whole and symbol by symbol, or a path prefix. */
  path?: string;
  /** One symbol (id, `Owner.name` or name) to blame. */
  symbol?: string;
}

/** Result of `blame`. */
export interface BlameResult {
  evidence: string;
  file?: FileBlame;
  history: HistoryMeta;
  symbols: BlameRow[];
  total: number;
  truncated: boolean;
}

/** Who wrote a symbol's lines and when it last changed. */
export interface BlameRow {
  /** Who last touched its lines, largest share first. */
  authors: AuthorShare[];
  /** Commits that shaped the symbol's current lines. */
  commits: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  /** The oldest commit whose work survives in the symbol. */
  first_change: CommitRef | null;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** The latest commit that touched a line of the symbol. */
  last_change: CommitRef | null;
  lines: number;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
  uncommitted_lines: number;
}

/** One bundle in the listing. */
export interface BundleRow {
  description: string;
  /** The detectors it runs. */
  detectors: string[];
  name: string;
  /** `builtin` or `config`. */
  source: string;
}

/** One caller. */
export interface CallerRow {
  /** The node this caller calls, when it is not the target (depth > 1). */
  callee?: string;
  caller: NodeSummary;
  /** Levels from the target (1 = calls the target directly). */
  depth: number;
  /** `calls` or `instantiates` (the strongest edge to the callee). */
  kind: EdgeKind;
  /** Call-site lines in that file, ascending. */
  lines: number[];
  origin: Origin;
  /** File of the call sites. */
  path: string;
  /** The framework pass that synthesized the call (the caller registers the target with a framework, which calls it), when no call in the source states it. */
  via?: Synthesizer;
}

/** A caveat attached to results about one symbol. */
export interface Caveat {
  class: CaveatClass;
  message: string;
}

/** How far a thin answer can be trusted. */
export type CaveatClass = 'none' | 'coverage_incomplete' | 'likely_unused' | 'possible_extraction_gap';

/** One caller → callee pair (several call sites collapse into one row). */
export interface ChainCall {
  /** Depth of `to` along this edge (`from`'s depth + 1). */
  depth: number;
  from: string;
  /** `calls` or `instantiates` (the strongest edge of the pair). */
  kind: EdgeKind;
  /** First call-site line. */
  line: number;
  origin: Origin;
  to: string;
}

/** A node of the call chain. */
export interface ChainNode {
  /** Calls from the root (0 = the root). */
  depth: number;
  node: NodeSummary;
}

/** A call made inside the chain that the resolver could not bind. */
export interface ChainUnresolved {
  /** Same-named candidates in the repository (0 = none, >1 = ambiguous). */
  candidates: number;
  from: string;
  line: number;
  /** `unresolved::name` or `unresolved::*.name`. */
  target: string;
}

/** Arguments of `analyze kind=channel_ops`. */
export interface ChannelOpsArgs {
  /** Only channels of this name (a field's or a local's). */
  channel?: string;
  /** Most channels returned (1..=1000, default 50). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=channel_ops`. */
export interface ChannelOpsResult {
  /** Most operations first (ties by name), at most `limit`. */
  channels: ChannelRow[];
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  /** Operations of each kind over every channel counted. */
  totals: Record<string, number>;
  truncated: boolean;
}

/** One channel and what is done to it. */
export interface ChannelRow {
  channel: string;
  closes: number;
  /** How a declared channel is declared: `param`, `field` or `var`. */
  declared_as?: string;
  /** The function a local belongs to. */
  function?: NodeSummary;
  makes: number;
  ranges: number;
  receives: number;
  /** `field` (a struct field, by name across the repository) or `local`. */
  scope: string;
  sends: number;
  /** The operations, by file and line, at most `CHANNEL_SITES`. */
  sites: ChannelSite[];
}

/** One operation on a channel. */
export interface ChannelSite {
  line: number;
  /** `make`, `send`, `receive`, `range` or `close`. */
  op: string;
  path: string;
}

/** Arguments of `churn`. */
export interface ChurnArgs {
  /** `symbol` rows (default: commits that shaped the symbol's current lines) or `file` rows (commits that changed the file). */
  by?: 'symbol' | 'file';
  /** Only commits of the last this many days before the head commit (1..=36500; default all). */
  days?: number;
  /** Most rows returned (1..=1000, default 50), most commits first. */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
}

/** Result of `churn`. */
export interface ChurnResult {
  evidence: string;
  history: HistoryMeta;
  rows: ChurnRow[];
  /** The first day counted (`YYYY-MM-DD`); empty when every commit counts. */
  since: string;
  total: number;
  truncated: boolean;
}

/** How often something changed. */
export interface ChurnRow {
  /** Distinct authors of those commits. */
  authors: number;
  commits: number;
  end_line?: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path?: string;
  flavor?: TypeFlavor;
  id?: string;
  is_test?: boolean;
  kind?: NodeKind;
  language?: Language;
  last_change: CommitRef;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name?: string;
  /** The file (file rows). */
  path?: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name?: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix?: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line?: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** A connected component of verified clone pairs. */
export interface CloneCluster {
  /** 1-based rank in this result. */
  id: number;
  max_similarity: number;
  /** Members by id, at most `MAX_MEMBERS_LISTED`. */
  members: CloneMember[];
  min_similarity: number;
  /** Verified pairs, most similar first, at most `MAX_PAIRS_LISTED`. */
  pairs: ClonePair[];
  /** Verified pairs in the cluster (all of them). */
  pairs_total: number;
  /** Members in the cluster (all of them, even when `members` is cut). */
  size: number;
}

/** One member of a clone cluster. */
export interface CloneMember {
  /** In the dead set given to the query. */
  dead?: boolean;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** Normalised tokens in the body. */
  tokens: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** One verified pair inside a cluster (`a` < `b` by id). */
export interface ClonePair {
  a: string;
  b: string;
  /** Exact Jaccard index of the two shingle sets, rounded to 3 decimals. */
  similarity: number;
}

/** A usage edge between two nodes of the neighbourhood (several sites collapse into one). */
export interface ClusterEdge {
  from: string;
  kind: EdgeKind;
  /** First site line. */
  line: number;
  origin: Origin;
  to: string;
}

/** A node of the neighbourhood. */
export interface ClusterNode {
  /** Hops from the centre (0 = the centre). */
  depth: number;
  node: NodeSummary;
}

/** Arguments of analyze kind `clusters`. */
export interface ClustersArgs {
  /** Community algorithm: `leiden` (default), `louvain` or `spectral` (Newman's leading eigenvector of the modularity matrix, recursive bisection). */
  algorithm?: 'leiden' | 'louvain' | 'spectral';
  /** Communities listed: 1..=1000, default 50. */
  limit?: number;
  /** Smallest community listed (2..=1000000, default 2). */
  min_size?: number;
}

/** Arguments of `find_co_changing_symbols`. */
export interface CoChangeArgs {
  /** Most neighbours returned (1..=1000, default 20), best first. */
  limit?: number;
  /** Commits that shaped more symbols (or changed more files) than this are left out (2..=10000, default 50). */
  max_commit_symbols?: number;
  /** Lowest cosine score for a neighbour (0–1, default 0.1). */
  min_score?: number;
  /** Fewest shared commits for a neighbour (1..=1000, default 2). */
  min_shared?: number;
  /** The symbol (id, `Owner.name` or name) or file whose co-change neighbours to rank. */
  symbol: string;
}

/** Result of `find_co_changing_symbols`. */
export interface CoChangeResult {
  /** Commits counted for the target (large commits left out). */
  commits: number;
  evidence: string;
  history: HistoryMeta;
  neighbours: CoChangeRow[];
  /** The target's commits left out for shaping too many symbols (or files). */
  skipped_large_commits: number;
  target: NodeSummary;
  total: number;
  truncated: boolean;
}

/** A co-change neighbour. */
export interface CoChangeRow {
  /** Whether the neighbour is in another file than the target. */
  cross_file: boolean;
  end_line?: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path?: string;
  flavor?: TypeFlavor;
  id?: string;
  is_test?: boolean;
  kind?: NodeKind;
  language?: Language;
  /** The latest commit that changed both. */
  last_shared: CommitRef;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name?: string;
  /** The neighbour file (file targets). */
  path?: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name?: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix?: string;
  /** Cosine of the two commit sets (0–1). */
  score: number;
  /** Commits that changed both. */
  shared: number;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line?: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** A commit as answers show it. */
export interface CommitRef {
  author: string;
  /** Author date, `YYYY-MM-DD`. */
  date: string;
  email: string;
  /** Abbreviated object id (12 hex digits). */
  sha: string;
  summary: string;
}

/** One community in detail. */
export interface CommunityDetail {
  cohesion: number;
  /** Files by member count, at most `limit`. */
  files: FileCount[];
  files_total: number;
  hub: NodeSummary;
  id: number;
  label: string;
  /** Members by in-community weighted degree, at most `limit`. */
  members: NodeSummary[];
  members_total: number;
  /** Neighbouring communities by crossing weight (descending), then id; at most `limit`. */
  neighbours: NeighbourRow[];
  size: number;
}

/** A list of communities (the `get_communities` list and analyze kind `clusters`). */
export interface CommunityList {
  algorithm: Algorithm;
  communities: CommunityRow[];
  /** Communities (two or more members) in the whole graph. */
  count: number;
  modularity: number;
  /** Nodes with community edges that ended up alone (not listed). */
  singletons: number;
  /** Communities matching `min_size` and `path_prefix`. */
  total: number;
  truncated?: boolean;
}

/** One community, wrapped. */
export interface CommunityOne {
  community: CommunityDetail;
}

/** A community named by its id or its label (as `get_communities` lists them). */
export type CommunityRef = number | string;

/** One row of a community list. */
export interface CommunityRow {
  cohesion: number;
  /** How many files hold members. */
  files: number;
  hub: NodeSummary;
  id: number;
  label: string;
  size: number;
  /** Up to three files with the most members. */
  top_files: FileCount[];
}

/** One UI component. */
export interface ComponentRow {
  component: NodeSummary;
  framework: UiFramework;
  /** Distinct components rendering it. */
  rendered_by: number;
  /** Ids of the components it renders, sorted. */
  renders: string[];
  /** Distinct symbols and files using it in any way (rendering, importing, referencing). */
  used_by: number;
}

/** The repository's nodes split into connected components (edge direction ignored). */
export interface Components {
  count: number;
  /** Components other than the largest that hold some file, largest first (ties by first file), at most `limit`. */
  islands: Island[];
  /** Such components before `limit`. */
  islands_total: number;
  /** Nodes in the largest component. */
  largest_nodes: number;
  /** `largest_nodes / nominal_nodes` (0 for an empty graph), three decimals. */
  largest_share: number;
  /** Components of a single node (the isolated nodes). */
  singletons: number;
}

/** Arguments of `analyze kind=components`. */
export interface ComponentsArgs {
  /** Only components of this framework (react, preact, solid, vue, svelte, angular, stencil, lit, web_component, swiftui, compose, flutter, blazor). */
  framework?: string;
  /** Keep components declared in test files (default false). */
  include_tests?: boolean;
  /** Most components returned (1..=1000, default 50). */
  limit?: number;
  /** Only components declared under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=components`. */
export interface ComponentsResult {
  /** Components per framework (before `limit`). */
  by_framework: Record<string, number>;
  /** Ordered by path and line, at most `limit`. */
  components: ComponentRow[];
  total: number;
  truncated: boolean;
  /** Components nothing uses (no render, import or reference), by id, at most `limit`: candidates for removal, or entry points a router or framework mounts by name. */
  unused: string[];
  /** All such components (before `limit`). */
  unused_count: number;
}

/** One configuration key and where it is read. */
export interface ConfigKey {
  key: string;
  /** Reads of it. */
  reads: number;
  /** Those reads by file and line, at most `SITES_PER_ROW`. */
  sites: EventSite[];
}

/** Arguments of `analyze kind=config_readers`. */
export interface ConfigReadersArgs {
  /** Only this key, or keys under it (`db` matches `db.host`). */
  key?: string;
  /** Most keys returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=config_readers`. */
export interface ConfigReadersResult {
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Most read first (ties by key), at most `limit`. */
  keys: ConfigKey[];
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=connectivity_health`. */
export interface ConnectivityHealthArgs {
  /** Most files in `dead_weight_by_file` and most islands listed (1..=1000, default 50). */
  limit?: number;
  /** Only nodes declared under this repository-relative prefix (and, for components, only edges between two of them). */
  path_prefix?: string;
}

/** The answer of `analyze kind=connectivity_health`. */
export interface ConnectivityHealthResult {
  /** Per node kind that has nodes, by kind name. */
  by_kind: KindConnectivity[];
  components: Components;
  /** Files with an isolated or leaf node, most dead weight first (ties by path), at most `limit`. */
  dead_weight_by_file: FileDeadWeight[];
  /** Those with at least one edge. */
  effective_nodes: number;
  /** `effective_nodes / nominal_nodes` (0 for an empty graph), three decimals. */
  effective_ratio: number;
  /** Such files before `limit`. */
  files_total: number;
  isolated: number;
  leaf: number;
  /** Repository nodes counted. */
  nominal_nodes: number;
  note: string;
  sink_only: number;
  source_only: number;
  truncated: boolean;
}

/** One provider or consumer site. */
export interface ContractSite {
  /** The broker of a topic (kafka, nats, rabbitmq, sns, sqs). */
  broker?: string;
  /** The canonical key sites are matched by. */
  key: string;
  /** http, grpc, graphql, topic, ws, env or openapi. */
  kind: string;
  line: number;
  method?: string;
  /** What it is, readably (`GET /users/{id}`, `UserService`, `Query.user`, `orders`). */
  name: string;
  /** The proto package of a gRPC service. */
  package?: string;
  path: string;
  path_params?: string[];
  request_stream?: boolean;
  request_type?: string;
  response_stream?: boolean;
  response_type?: string;
  /** provider (serves, publishes, emits, defines, declares) or consumer (calls, subscribes, listens, reads). */
  role: string;
  /** The path as written (HTTP). */
  route?: string;
  /** The library or convention recognised (express, fetch, axios, requests, gin, proto, kafka, socket.io, dotenv, …). */
  source: string;
  /** The symbol around the site (a route's handler). */
  symbol?: NodeSummary;
  /** In test code. */
  test?: boolean;
}

/** Arguments of `analyze kind=contract_sites`. */
export interface ContractSitesArgs {
  /** Only these families (http, grpc, graphql, topic, ws, env, openapi); default all. */
  kinds?: string[];
  /** Most rows (1..=20000, default 1000). */
  limit?: number;
  /** Only files under this path prefix or glob. */
  path_prefix?: string;
}

/** The sites, by kind and role. */
export interface ContractSitesResult {
  /** `<kind>.<role>` → rows. */
  counts: Record<string, number>;
  evidence: string;
  sites: ContractSite[];
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=coverage`. */
export interface CoverageArgs {
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only symbols whose covered share is at most this percentage (0–100). */
  max_percent?: number;
  /** Skip symbols with fewer instrumented lines than this (default 1). */
  min_lines?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
  /** Report files to read, repository-relative (default: the usual places — coverage/lcov.info, lcov.info, coverage.xml, cobertura.xml, coverage/cobertura-coverage.xml, coverage.out, cover.out, coverage.json, target/site/jacoco/jacoco.xml, build/reports/jacoco/test/jacocoTestReport.xml). */
  reports?: string[];
  /** Only functions (`function`) or only methods (`method`); default both. */
  symbol_kind?: 'function' | 'method';
}

/** Arguments of `coverage_gaps`. */
export interface CoverageGapsArgs {
  /** Only exported symbols (a method is as visible as its type). */
  exported_only?: boolean;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
  /** Only functions (`function`) or only methods (`method`); default both. */
  symbol_kind?: 'function' | 'method';
}

/** Result of `coverage_gaps`. */
export interface CoverageGapsResult {
  evidence: string;
  /** Functions and methods examined (non-test, matching the filters). */
  examined: number;
  symbols: UntestedRow[];
  /** Share of examined symbols some test reaches (0–1; 1 when nothing was examined). */
  tested_ratio: number;
  /** Untested symbols found (before `limit`). */
  total: number;
  truncated: boolean;
}

/** One file or directory's totals. */
export interface CoverageGroup {
  covered: number;
  /** Functions and methods with instrumented lines, and those no test executed. */
  functions: number;
  functions_uncovered: number;
  lines: number;
  path: string;
  percent: number;
}

/** Result of `analyze kind=coverage`. */
export interface CoverageResult {
  evidence: string;
  /** Functions and methods in reported files with instrumented lines. */
  measured: number;
  reports: ReportRow[];
  /** Least covered first (then most uncovered lines, path, line). */
  symbols: CoverageRow[];
  /** Symbols matching the filters (before `limit`). */
  total: number;
  truncated: boolean;
  /** Of those, symbols no test executed a line of. */
  uncovered: number;
}

/** One function or method with its measured coverage. */
export interface CoverageRow {
  covered: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Instrumented lines in its span (lines the report lists). */
  lines: number;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** covered / lines, in percent (one decimal). */
  percent: number;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** Its file changed after the report was written. */
  stale?: boolean;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** Arguments of `analyze kind=coverage_summary`. */
export interface CoverageSummaryArgs {
  /** Group rows by `file` or by `directory` (default). */
  group_by?: 'file' | 'directory';
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
  /** Report files to read (default: the usual places, as `coverage` looks). */
  reports?: string[];
}

/** Result of `analyze kind=coverage_summary`. */
export interface CoverageSummaryResult {
  covered: number;
  evidence: string;
  /** Files with instrumented lines. */
  files: number;
  functions: number;
  functions_covered: number;
  functions_uncovered: number;
  /** Least covered first. */
  groups: CoverageGroup[];
  lines: number;
  percent: number;
  reports: ReportRow[];
  truncated: boolean;
}

/** One reference from one repository into another (as the workspace links them). */
export interface CrossLink {
  /** The referring node's id. */
  from: string;
  from_kind?: string;
  from_name: string;
  from_repo: string;
  /** `calls`, `instantiates`, `references`, `extends`, `implements` or `uses_type`. */
  kind: string;
  line: number;
  origin?: string;
  /** File and line of the reference in `from_repo`. */
  path: string;
  /** The referenced node's id. */
  to: string;
  to_name: string;
  to_path?: string;
  to_repo: string;
  /** The external target the link came from (`@demo/lib.sharedHelper`). */
  via?: string;
}

/** Arguments of `analyze kind=cross_repo`. */
export interface CrossRepoArgs {
  /** Only this relation: calls, instantiates, references, extends, implements or uses_type. */
  base_kind?: string;
  /** Most rows returned (1..=1000, default 100). */
  limit?: number;
  /** The workspace's cross-repository references: filled in by the server (the daemon's workspace); a call does not pass them. */
  links?: CrossLink[];
  /** Only references made from files under this prefix (of the referring repository). */
  path_prefix?: string;
  /** Only dependencies touching this repository, on either side (`repo` routes a call to a repository, so this one has its own name). */
  touching?: string;
}

/** The answer of `analyze kind=cross_repo`. */
export interface CrossRepoResult {
  /** Most references first (ties: by repositories and kind), at most `limit`. */
  dependencies: CrossRepoRow[];
  evidence: string;
  note?: string;
  /** References counted (after the filters). */
  references: number;
  /** Repositories on either side of a counted reference. */
  repos: string[];
  /** The symbols used across repositories most, at most `limit`. */
  targets: CrossTarget[];
  total: number;
  truncated: boolean;
}

/** One directed dependency between two repositories. */
export interface CrossRepoRow {
  count: number;
  from_repo: string;
  kind: string;
  /** Up to five references, `from → to (path:line)`. */
  samples: string[];
  to_repo: string;
}

/** A symbol other repositories use. */
export interface CrossTarget {
  id: string;
  name: string;
  /** References to it from other repositories. */
  references: number;
  repo: string;
  /** The repositories making them. */
  used_by: string[];
}

/** One strongly connected component. */
export interface Cycle {
  /** Distinct directories of the members. */
  directories: number;
  /** Call cycles: distinct files of the members. */
  files?: number;
  kind: CycleKind;
  /** Members sorted by id (files/packages for imports, functions/methods for calls), at most `MAX_CYCLE_MEMBERS`. */
  members: NodeSummary[];
  members_truncated?: boolean;
  /** One closed path through the component, starting and ending at its smallest member id (the shortest such path). */
  path: CycleStep[];
  severity: Severity;
  /** Number of members. */
  size: number;
}

/** Which graph a cycle lives in. */
export type CycleKind = 'imports' | 'calls';

/** One edge of a cycle's path. */
export interface CycleStep {
  /** Id of the importing file/package, or of the caller. */
  from: string;
  kind: EdgeKind;
  line: number;
  /** File holding the import statement or the call. */
  path: string;
  /** Id of the imported file/package, or of the callee. */
  to: string;
}

/** Arguments of `analyze kind=cycles`. */
export interface CyclesArgs {
  /** Also report functions that call themselves (default false). */
  include_self?: boolean;
  /** Most cycles returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier followed (default `text_matched`). */
  min_tier?: Origin;
  /** Only cycles with at least one member under this repository-relative prefix. */
  path_prefix?: string;
  /** Import cycles (`imports`), call cycles (`calls`) or both (`all`, default). */
  scope?: 'imports' | 'calls' | 'all';
}

/** `cycles`: cycle counts and how many files and callables they hold. */
export interface CyclesMeasure {
  call_cycles: number;
  callables: number;
  callables_in_call_cycles: number;
  files: number;
  files_in_import_cycles: number;
  import_cycles: number;
  /** More than 1000 cycles: the member counts are lower bounds. */
  lower_bound: boolean;
}

/** Cycles found. */
export interface CyclesResult {
  by_kind: {
    calls?: number;
    imports?: number;
  };
  by_severity: {
    high?: number;
    low?: number;
    medium?: number;
  };
  cycles: Cycle[];
  /** The scope searched: `imports`, `calls` or `all`. */
  scope: string;
  /** Cycles before `limit`. */
  total: number;
  truncated: boolean;
}

/** One model. */
export interface DbtModel {
  /** A schema `.yml` lists it under `models:`. */
  documented: boolean;
  /** `config(materialized='…')`, when the model sets it. */
  materialized?: string;
  name: string;
  path: string;
  project: string;
  /** Models that `ref()` it, sorted. */
  referenced_by: string[];
  /** Models it `ref()`s, sorted. */
  refs: string[];
  /** Sources it reads, `source.table`, sorted. */
  sources: string[];
}

/** Arguments of `analyze kind=dbt_models`. */
export interface DbtModelsArgs {
  /** Most models returned (1..=1000, default 100). */
  limit?: number;
  /** Only this model (by name), with what it reads and what reads it. */
  model?: string;
  /** Only projects under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=dbt_models`. */
export interface DbtModelsResult {
  evidence: string;
  /** Files read. */
  files_read: number;
  /** Models no other model reads (final marts, or dead ones), sorted. */
  leaves: string[];
  /** By project and name, at most `limit`. */
  models: DbtModel[];
  problems: DbtProblem[];
  projects: DbtProject[];
  /** Files that could not be read, with why. */
  skipped?: string[];
  total: number;
  truncated: boolean;
}

/** A reference that does not hold. */
export interface DbtProblem {
  /** `missing_ref`, `undeclared_source` or `duplicate_model`. */
  kind: string;
  line: number;
  /** The model where it is. */
  model: string;
  /** The name that does not resolve (or is defined twice). */
  name: string;
  path: string;
}

/** One dbt project. */
export interface DbtProject {
  /** Model directories, project-relative. */
  model_paths: string[];
  models: number;
  name: string;
  /** Its `dbt_project.yml`. */
  path: string;
}

/** Arguments of `analyze kind=dead_code`. */
export interface DeadCodeArgs {
  /** Also report exported symbols (public API nobody in the repository uses). */
  include_exported?: boolean;
  /** Node kinds to check (one name, a comma-separated list or an array): function, method, type, interface (the default), and field, variable, constant, enum_member on request. */
  kinds?: OneOrMany;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only report symbols whose path starts with this repository-relative prefix. */
  path_prefix?: string;
  /** Also report symbols whose only users are dead themselves (flagged `via_dead`). */
  transitive?: boolean;
}

/** `dead_code`: non-test functions, methods, types and interfaces checked, and the dead ones. */
export interface DeadCodeMeasure {
  checked: number;
  dead_high_confidence: number;
  dead_medium_confidence: number;
}

/** Dead symbols of the repository (or under `path_prefix`). */
export interface DeadCodeResult {
  /** Uses the index does not record, so rows may be wrong there (see `BLIND_SPOTS`). */
  blind_spots: string;
  /** Rows before `limit`, per confidence. */
  by_confidence: Record<string, number>;
  /** Rows before `limit`, per kind. */
  by_kind: Record<string, number>;
  /** Rows: direct findings first, high confidence first, then by path and line. */
  dead: DeadRow[];
  /** Unused symbols of the requested kinds that were not reported, by reason. */
  excluded?: Record<string, number>;
  /** The kinds reported. */
  kinds: NodeKind[];
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
  /** Of `total`, rows found by the transitive pass. */
  via_dead?: number;
}

/** How sure a dead-code row is. */
export type DeadConfidence = 'high' | 'medium';

/** One dead symbol. */
export interface DeadRow {
  confidence: DeadConfidence;
  /** For `via_dead` rows: ids of (up to 5 of) the dead users. */
  dead_users?: string[];
  /** Why it is considered dead, and what could make that wrong. */
  reason: string;
  symbol: NodeSummary;
  /** Used only by dead code (transitive mode). */
  via_dead?: boolean;
}

/** A declaration and the use sites that lead to it. */
export interface Declaration {
  /** The query matched the declaration's own line. */
  matched_declaration?: boolean;
  node: NodeSummary;
  /** The strongest tier among its uses; `ast_resolved` when the only site is its own declaration line. */
  origin: Origin;
  /** Uses tied to it by a resolved edge. */
  resolved_uses: number;
  uses?: UseSite[];
}

/** Whether the walk was over symbols or files. */
export type DependencyMode = 'symbol' | 'file';

/** One dependency or dependent: the node, and how it is linked. */
export interface DependencyRow {
  /** Levels from the target (1 = direct). */
  depth: number;
  /** Edge kinds linking it at its level, sorted. */
  edge_kinds: EdgeKind[];
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** First site line (in the using file). */
  line: number;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** Strongest origin among those edges. */
  origin: Origin;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
  /** The previous-level node it was reached from, when that is not the target (depth > 1). */
  via?: string;
}

/** One dependent. */
export interface DependentRow {
  node: NodeSummary;
  /** The best path tier reaching it. */
  tier: Origin;
}

/** Matches of one detector. */
export interface DetectorCount {
  count: number;
  detector: string;
  severity: string;
}

/** One business domain. */
export interface Domain {
  /** Domains its code calls, instantiates or references, most edges first. */
  depends_on: DomainLink[];
  /** The directories holding most of its types, most first (at most 3). */
  directories: string[];
  domain: string;
  /** Files declaring its types. */
  files: number;
  /** Every type, with `domain` only. */
  members?: NodeSummary[];
  /** Type names by role (`model`, `service`, `repository`, `controller`, `dto`, `event`, …). */
  roles: Record<string, string[]>;
  types: number;
  /** Domains whose code uses it, most edges first. */
  used_by: DomainLink[];
}

/** Arguments of `analyze kind=domain`. */
export interface DomainArgs {
  /** Only this domain, with every type it holds. */
  domain?: string;
  /** Count types declared in test code too (default false). */
  include_tests?: boolean;
  /** Most domains returned (1..=1000, default 50). */
  limit?: number;
  /** Smallest domain listed, in types (1..=1000, default 2). */
  min_types?: number;
  /** Only types declared under this repository-relative prefix. */
  path_prefix?: string;
}

/** Edges from one domain to another. */
export interface DomainLink {
  domain: string;
  edges: number;
}

/** The answer of `analyze kind=domain`. */
export interface DomainResult {
  /** Most types first (ties: by name), at most `limit`. */
  domains: Domain[];
  evidence: string;
  total: number;
  truncated: boolean;
  /** Types examined, and of those the ones no domain claimed (technical names, or a domain below `min_types`). */
  types: number;
  unassigned: number;
}

/** A syntax finding the graph pass dropped. */
export interface DroppedFinding {
  line: number;
  path: string;
  reason: string;
  rule: string;
}

/** Arguments of `analyze kind=edge_audit`. */
export interface EdgeAuditArgs {
  /** Rows sampled per bucket (1..=1000, default 10). */
  limit?: number;
  /** Only edges made from code under this repository-relative prefix (and only nodes under it in the buckets). */
  path_prefix?: string;
}

/** The answer of `analyze kind=edge_audit`. */
export interface EdgeAuditResult {
  /** Per edge kind, by kind name. */
  by_kind: KindTiers[];
  /** Call edges by tier. */
  call_tiers: TierCount[];
  /** Every edge by tier, strongest first (tiers without edges left out). */
  edge_tiers: TierCount[];
  /** Interfaces not judged: Go's (implicit) and those of `.d.ts` declaration files. */
  interfaces_not_judged: number;
  summary: EdgeAuditSummary;
  /** Functions and methods outside test code that some code calls, all of it test code. */
  test_only_targets: NodeBucket;
  /** Interfaces with no `implements` edge into them (see the module doc for those left out). */
  unimplemented_interfaces: NodeBucket;
  /** Calls bound by name alone (`text_matched`, `speculative`). */
  weak_call_edges: WeakCallBucket;
}

/** The headline figures. */
export interface EdgeAuditSummary {
  call_edges: number;
  /** `call_edges / (call_edges + unresolved_calls)`, percent, one decimal. */
  call_resolution_pct: number;
  /** Usage edges (calls, references, type uses…) into external stubs: what leaves the repository. */
  external_usage_edges: number;
  /** Calls bound by a language server or a unique structural target (`lsp_resolved`, `lsp_dispatch`, `ast_resolved`), percent of `call_edges`, one decimal. */
  high_confidence_call_pct: number;
  total_edges: number;
  /** Call sites the resolver left unresolved (kept beside the edges, never guessed). */
  unresolved_calls: number;
}

/** What a graph edge says about its endpoints. */
export type EdgeKind = 'defines' | 'contains' | 'member_of' | 'imports' | 're_exports' | 'calls' | 'references' | 'instantiates' | 'extends' | 'implements' | 'overrides' | 'typed_as' | 'returns' | 'tests' | 'depends_on_module';

/** One edge as every path and walk result shows it (ids, tier, site line). */
export interface EdgeRow {
  from: string;
  kind: EdgeKind;
  line: number;
  origin: Origin;
  to: string;
}

/** One emitted string and who emits it. */
export interface EmittedString {
  /** `metric`, `error_msg` or `i18n`. */
  context: string;
  /** Sites emitting it. */
  emits: number;
  /** The distinct functions emitting it. */
  emitters: NodeSummary[];
  /** The sites by file and line, at most `SITES_PER_ROW`. */
  sites: EventSite[];
  /** The literal as written (an `%v` or `${…}` left in place: the format is the identity). */
  value: string;
  /** How it is made: the instrument (`counter`, `histogram`, …), the error constructor (`errors.New`, `ValueError`) or the translation function (`t`, `gettext`). */
  via: string[];
}

/** An environment variable and every place that reads it. */
export interface EnvVarRow {
  files: number;
  name: string;
  reads: number;
  sites: EnvVarSite[];
}

/** One read of an environment variable. */
export interface EnvVarSite {
  line: number;
  path: string;
  symbol?: NodeSummary;
}

/** Arguments of `analyze kind=env_var_users`. */
export interface EnvVarUsersArgs {
  /** Most rows returned (1..=1000, default 100). */
  limit?: number;
  /** Only this variable (exact name). */
  name?: string;
  /** Path prefix or glob. */
  path_prefix?: string;
}

/** Result of `analyze kind=env_var_users`. */
export interface EnvVarUsersResult {
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: boolean;
  evidence: string;
  total_reads: number;
  total_variables: number;
  truncated: boolean;
  variables: EnvVarRow[];
}

/** Arguments of `analyze kind=error_surface`. */
export interface ErrorSurfaceArgs {
  /** Calls followed from `symbol` (1..=6, default 3). */
  depth?: number;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only files under this repository-relative prefix (the whole-repository listing). */
  path_prefix?: string;
  /** The function or method whose surface to trace (id or name); without it, the functions raising the most distinct errors themselves. */
  symbol?: string;
}

/** The answer of `analyze kind=error_surface`. */
export interface ErrorSurfaceResult {
  /** Raise sites per error over the repository (or `path_prefix`). */
  by_error: Record<string, number>;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Without `symbol`: the functions raising the most distinct errors, at most `limit`. */
  raisers?: Raiser[];
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** With `symbol`: each error it can surface, nearest raiser first (ties by name), at most `limit`. */
  surfaced?: SurfacedError[];
  /** With `symbol`: the function traced. */
  symbol?: NodeSummary;
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=event_emitters`. */
export interface EventEmittersArgs {
  /** Only this event name. */
  event?: string;
  /** Most events returned (1..=1000, default 100). */
  limit?: number;
  /** Only events one side names: `emitted_only` (no listener here) or `listened_only` (never emitted here). */
  orphans?: EventOrphans;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=event_emitters`. */
export interface EventEmittersResult {
  /** Events emitted and never listened for here. */
  emitted_only: number;
  /** By name, at most `limit`. */
  events: EventRow[];
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Events listened for and never emitted here (often the runtime's: `click`, `data`, `error`). */
  listened_only: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** Which one-sided events `event_emitters` keeps. */
export type EventOrphans = 'emitted_only' | 'listened_only';

/** One event name, its emitters and its listeners. */
export interface EventRow {
  emits: number;
  /** Emitting sites by file and line, at most `SITES_PER_ROW`. */
  emitters: EventSite[];
  event: string;
  /** Listening sites by file and line, at most `SITES_PER_ROW`. */
  listeners: EventSite[];
  listens: number;
}

/** Where a log call or event is made. */
export interface EventSite {
  function?: NodeSummary;
  line: number;
  path: string;
}

/** Arguments of `explain_change_impact`. Exactly one of `id`, `ids` and `file` is required. */
export interface ExplainChangeImpactArgs {
  /** Levels of dependents (1..=3, default 3). */
  depth?: number;
  /** A file: its symbols and its importers. */
  file?: string;
  /** One symbol (id, qualified or bare name) or a file path. */
  id?: string;
  /** Several symbols changed together (at most `MAX_IMPACT_IDS`). */
  ids?: string[];
  /** Most dependent rows listed over all levels (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier followed. */
  min_tier?: Origin;
}

/** The blast radius of a change. */
export interface ExplainChangeImpactResult {
  /** Execution flows through the targets or their dependents (empty without a process map). */
  affected_processes: ProcessRef[];
  /** Files of the affected tests (and test files among the dependents), sorted. */
  affected_test_files: string[];
  /** Test symbols among the dependents, by path and line. */
  affected_tests: NodeSummary[];
  /** For one symbol target: how far "nothing depends on it" can be trusted. */
  caveat?: Caveat;
  /** Distinct communities of the targets and dependents (absent without a community map). */
  communities_touched?: number;
  depth: number;
  /** Distinct files among the dependents. */
  files: number;
  levels: ImpactLevel[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  risk: RiskTier;
  /** What earned the risk tier (see the module doc for the rule). */
  risk_factors: string[];
  /** Dependent rows were cut by `limit`. */
  rows_truncated?: boolean;
  targets: NodeSummary[];
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  /** Dependents over all levels. */
  total: number;
  /** The reach walk hit its bounds: every count is a lower bound. */
  truncated: boolean;
}

/** A caller of an external target. */
export interface ExternalCaller {
  node: NodeSummary;
  /** Uses of the target from this caller. */
  uses: number;
}

/** Arguments of `analyze kind=external_calls`. */
export interface ExternalCallsArgs {
  /** Most targets returned (1..=1000, default 50). */
  limit?: number;
  /** Only count uses made from code under this repository-relative prefix. */
  path_prefix?: string;
}

/** External uses, most used target first. */
export interface ExternalCallsResult {
  /** Distinct modules of the targets. */
  modules: number;
  targets: ExternalTargetRow[];
  /** Targets before `limit`. */
  total: number;
  /** Usage edges into external stubs, over every target. */
  total_uses: number;
  truncated: boolean;
}

/** One external target and who uses it. */
export interface ExternalTargetRow {
  by_kind: Record<string, number>;
  /** Distinct using nodes. */
  callers: number;
  /** Distinct files the uses are made from. */
  files: number;
  /** The external module it belongs to (the longest imported module that prefixes it, else its path without the last segment). */
  module: string;
  name: string;
  target: NodeSummary;
  /** The callers with the most uses (ties by id), at most `TOP_CALLERS`. */
  top_callers: ExternalCaller[];
  /** Those files, sorted, at most `TOP_CALLERS`. */
  top_files: string[];
  /** Usage edges into it. */
  uses: number;
}

/** A function writing a field, and how often. */
export interface FieldWriter {
  function: NodeSummary;
  /** The lines of those writes. */
  lines: number[];
  writes: number;
}

/** One field name and who writes it. */
export interface FieldWriters {
  /** Field declarations of that name in the graph (by id, at most 5). */
  declared: NodeSummary[];
  field: string;
  /** Writes from functions that are not constructors (`constructor`, `__init__`, `New…`, `new`). */
  outside_constructors: number;
  /** Writes at file level (outside every function). */
  top_level: number;
  /** Writing functions, most writes first (ties by id). */
  writers: FieldWriter[];
  writes: number;
}

/** Arguments of `analyze kind=field_writers`. */
export interface FieldWritersArgs {
  /** Only the field of this name. */
  field?: string;
  /** Most fields returned (1..=1000, default 50). */
  limit?: number;
  /** Only writes in files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=field_writers`. */
export interface FieldWritersResult {
  evidence: string;
  /** Most writers first, then most writes, then by name, at most `limit`. */
  fields: FieldWriters[];
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** A file's blame as a whole. */
export interface FileBlame {
  authors: AuthorShare[];
  /** Mainline commits that changed the file (renames followed). */
  commits: number;
  last_change: CommitRef | null;
  lines: number;
  path: string;
  uncommitted_lines: number;
}

/** A file and how many members of a community it declares. */
export interface FileCount {
  members: number;
  path: string;
}

/** Counts over the whole file (not cut by `limit`). */
export interface FileCounts {
  by_kind: Record<string, number>;
  /** Files (and packages) that import this file. */
  imported_by: number;
  imports: number;
  symbols: number;
  unresolved_imports: number;
}

/** A file's isolated and leaf nodes (itself included). */
export interface FileDeadWeight {
  /** `isolated + leaf`. */
  dead_weight: number;
  file_path: string;
  isolated: number;
  leaf: number;
}

/** One `find_files` row. */
export interface FileHit {
  /** The content score (`by: "content"`). */
  bm25?: number;
  /** The file node id. */
  id: string;
  language?: Language;
  match: FileMatch;
  /** Query words the file contains (`by: "content"`). */
  matched?: string[];
  path: string;
  score: number;
  /** Symbols declared in the file. */
  symbols: number;
}

/** One import statement (grouped by line, kind and target module). */
export interface FileImport {
  /** `imports` or `re_exports`. */
  kind: EdgeKind;
  line: number;
  /** The module: the target file's path, package name, external module or, when unresolved, the specifier as written. */
  module: string;
  /** Strongest origin of the statement's edges (absent when unresolved). */
  origin?: Origin;
  status: ImportStatus;
  /** Ids of the symbols the statement binds, when they resolved. */
  symbols?: string[];
  /** Id of the target file, package or external module stub. */
  target?: string;
}

/** How a file matched, best first. */
export type FileMatch = 'exact_basename' | 'exact_path' | 'basename_prefix' | 'path_prefix' | 'basename_substring' | 'path_substring' | 'fuzzy' | 'glob' | 'content';

/** A symbol of the file, in source order. */
export interface FileSymbol {
  /** Nesting depth (0 = top level). */
  depth: number;
  /** Id of the enclosing symbol, when nested. */
  parent?: string;
  symbol: NodeSummary;
}

/** One filter as parsed: key, operator (`=`, `!=`, `~`) and value. */
export interface FilterPlan {
  key: string;
  op: string;
  value: string;
}

/** Arguments of `find_clones`. */
export interface FindClonesArgs {
  /** Only clusters holding at least one dead and one live member ("dead duplicates of live code"). */
  dead_only?: boolean;
  /** Compare test code too: test functions and every function in a test file (default false). */
  include_tests?: boolean;
  /** Clusters returned, 1..=1000 (default 50). */
  limit?: number;
  /** Jaccard threshold over token shingles, 0.5..=1.0 (default 0.82). */
  min_similarity?: number;
  /** Fewest normalised tokens a body needs, 24..=100000 (default 24). */
  min_tokens?: number;
  /** Only clusters with at least one member whose path starts with this prefix. */
  path_prefix?: string;
}

/** Result of `find_clones`. */
export interface FindClonesResult {
  /** Function and method bodies in the index that resolve in the graph. */
  bodies: number;
  /** Distinct pairs sharing an LSH bucket. */
  candidate_pairs: number;
  /** Candidate generation stopped at its cap (8,000,000 pairs); some clones may be missing. */
  candidates_capped?: boolean;
  clusters: CloneCluster[];
  /** Clusters passing the filters (before `limit`). */
  clusters_total: number;
  /** Bodies compared: enough tokens, not declaration-only (interface/abstract members, overloads), and not test code unless `include_tests`. */
  eligible: number;
  /** The threshold applied. */
  min_similarity: number;
  /** The token floor applied. */
  min_tokens: number;
  notes?: string[];
  /** LSH buckets with more than 256 bodies, skipped as boilerplate. */
  oversized_buckets_skipped: number;
  /** Bodies of test code left out: test functions and functions in test files (present unless `include_tests`). */
  tests_excluded?: number;
  /** More clusters than `limit`. */
  truncated: boolean;
  /** Candidate pairs whose exact similarity reached the threshold (before cluster filters). */
  verified_pairs: number;
}

/** Arguments of `find_declaration`. */
export interface FindDeclarationArgs {
  /** Only declarations of this node kind (`function`, `method`, `type`, …). */
  kind?: string;
  /** Maximum declarations, 1..=1000 (default 50). */
  limit?: number;
  /** Only search use sites in these files: a path prefix, or a glob. */
  path_prefix?: string;
  /** A use-site fragment such as `fooBar(` or `.save(` (case-sensitive). */
  query: string;
  /** Treat `query` as a regular expression. */
  regex?: boolean;
}

/** Result of `find_declaration`. */
export interface FindDeclarationResult {
  /** Files left after the trigram prefilter and the path filter. */
  candidate_files: number;
  declarations: Declaration[];
  /** More than `limit` declarations, or more than `MAX_USE_SITES` sites. */
  truncated: boolean;
  /** Sites that mapped to no declaration (of the requested kind). */
  unresolved_uses?: UseSite[];
  /** Matching lines examined. */
  use_sites: number;
}

/** Arguments of `find_files`; `query` and/or `glob` is required. */
export interface FindFilesArgs {
  /** `name` (default): match the query against paths; `content`: rank code files by what their text says — the query (up to 20,000 bytes: a bug report, an error message) against each file's words (identifiers split and whole, literals, comments) by BM25. */
  by?: 'name' | 'content';
  /** Also match the query as a subsequence of the path (default false). */
  fuzzy?: boolean;
  /** A glob such as `ts/**\/*.test.ts` or `*_test.go`. */
  glob?: string;
  /** Include test files (default true). */
  include_tests?: boolean;
  /** Rows to return (default 50, 1..=1000). */
  limit?: number;
  /** Repository-relative path prefix. */
  path?: string;
  /** A basename or path fragment. */
  query?: string;
}

/** Result of `find_files`. */
export interface FindFilesResult {
  results: FileHit[];
  /** Files that matched, before `limit`. */
  total: number;
  truncated: boolean;
}

/** Arguments of `find_implementations`. */
export interface FindImplementationsArgs {
  /** The interface (or a type used as one) (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** Implementations of an interface. */
export interface FindImplementationsResult {
  implementations: ImplementationRow[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  sub_interfaces?: SubInterfaceRow[];
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  total: number;
  truncated: boolean;
}

/** Arguments of `find_import_path`. */
export interface FindImportPathArgs {
  /** Importing file: a repository-relative path, a file id, or a symbol id (meaning its file). */
  from: string;
  /** Most import hops, 1..=16 (default 8). */
  max_depth?: number;
  /** A symbol to bring into `from`: the answer's `import` is the statement that does it (or the import already there), and the chain runs to the symbol's file. */
  symbol?: string;
  /** Imported file, same forms as `from`; may be left out when `symbol` is given. */
  to?: string;
}

/** Result of `find_import_path`. */
export interface FindImportPathResult {
  /** Why no chain was found; absent when `path` is not empty. */
  diagnosis?: ImportDiagnosis;
  /** Path of the importing file. */
  from: string;
  /** One row per import statement followed. */
  hops?: ImportHop[];
  /** With `symbol`: how `from` gets it. */
  import?: ImportStatement;
  /** File paths from `from` to `to`; empty when there is no chain. */
  path?: string[];
  /** Path of the imported file. */
  to: string;
}

/** Arguments of `find_overrides`. */
export interface FindOverridesArgs {
  /** `parents` (what it overrides), `children` (what overrides it) or `both` (default). */
  direction?: 'parents' | 'children' | 'both';
  /** The method (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Most rows per list (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept (of the `extends`/`implements` edges on the path). */
  min_tier?: Origin;
}

/** Methods the target overrides (`parents`) and that override it (`children`). */
export interface FindOverridesResult {
  children: OverrideRow[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The type owning the target; absent for a method without a known owner. */
  owner?: NodeSummary;
  parents: OverrideRow[];
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  truncated: boolean;
}

/** Arguments of `find_usages`. */
export interface FindUsagesArgs {
  /** Keep only these contexts (call, parameter_type, return_type, field, type, value, import): one name, a comma-separated list or an array. */
  context?: OneOrMany;
  /** Keep usages originating inside a type of these flavors (class, struct, enum, …: the using symbol's nearest enclosing type); `component` keeps usages from inside a UI component of any framework. One name, a comma-separated list or an array. */
  flavor?: OneOrMany;
  /** The symbol whose references are listed (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Keep usages from tests and test files (default true). */
  include_tests?: boolean;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** Every reference to a symbol, by file and line. */
export interface FindUsagesResult {
  /** Rows per context (before `limit`). */
  by_context: {
    call?: number;
    field?: number;
    import?: number;
    parameter_type?: number;
    return_type?: number;
    type?: number;
    value?: number;
  };
  caveat?: Caveat;
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The using symbols, once each, in the order of their first usage. */
  nodes: NodeSummary[];
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  total: number;
  truncated: boolean;
  usages: UsageRow[];
}

/** A symbol and the fixes that shaped it. */
export interface FixRow {
  commits: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  /** `fixes / commits`. */
  fix_ratio: number;
  fixes: number;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The latest fixes (up to three), newest first. */
  recent: CommitRef[];
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** Arguments of `fixes_history`. */
export interface FixesHistoryArgs {
  /** Most rows returned (1..=1000, default 50), most fixes first. */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
  /** Words that mark a fix commit's summary (default fix, fixes, fixed, fixing, bug, bugfix, hotfix, regression, revert, crash, fixup). */
  words?: string[];
}

/** Result of `fixes_history`. */
export interface FixesHistoryResult {
  commits: number;
  evidence: string;
  /** Fix commits on the mainline, and all mainline commits. */
  fix_commits: number;
  history: HistoryMeta;
  symbols: FixRow[];
  total: number;
  truncated: boolean;
  words: string[];
}

/** One check of a flag. */
export interface FlagCheck {
  /** Days between that commit and the head commit (0 when uncommitted). */
  age_days: number;
  /** The call, e.g. `boolVariation`. */
  call: string;
  function?: NodeSummary;
  /** The last commit that changed the line (absent when uncommitted or outside git). */
  last_change?: CommitRef;
  line: number;
  path: string;
}

/** One feature flag and how long its checks have gone untouched. */
export interface FlagRow {
  /** The age of its most recently changed check: how long the flag has been left alone. */
  age_days: number;
  /** Checks of it (in code; tests too with `include_tests`). */
  checks: number;
  flag: string;
  /** The change that touched a check last. */
  last_touched?: CommitRef;
  provider: string;
  /** The checks, newest first, at most 10. */
  sites: FlagCheck[];
  stale: boolean;
}

/** Arguments of `flow_between`. */
export interface FlowBetweenArgs {
  /** Most hops per path, 1..=32 (default 16). */
  max_depth?: number;
  /** Most paths returned, 1..=100 (default 10). */
  max_paths?: number;
  /** Weakest provenance tier of the call edges a path may cross. */
  min_tier?: Origin;
  /** Where it must arrive: a function (its parameters and the arguments of calls to it), a field, or `Symbol#variable`. */
  sink: string;
  /** Where the value starts: a function (its parameters), a field, or `Symbol#variable` (`Symbol#return` for a return value), such as `getUser#req.query.id`. */
  source: string;
}

/** Result of `flow_between`. */
export interface FlowBetweenResult {
  /** Why no path was found, when none was. */
  diagnosis?: string;
  flow_sensitive: boolean;
  paths: FlowPath[];
  sinks: number;
  sources: number;
  truncated: boolean;
}

/** The kind of a flow edge. */
export type FlowEdgeKind = 'value_flow' | 'arg_of' | 'returns_to';

/** Size of the flow graph a sweep ran over (how much of the repository dataflow covers). */
export interface FlowGraphSize {
  edges: number;
  /** Graph functions and methods with dataflow facts. */
  functions: number;
  nodes: number;
  /** Extracted functions that matched no graph node (not linked). */
  unmatched: number;
}

/** One hop of a path. */
export interface FlowHop {
  confidence: number;
  kind: FlowEdgeKind;
  tier: Origin;
  to: FlowNodeRow;
}

/** What a flow node stands for. */
export type FlowKind = 'param' | 'variable' | 'return' | 'argument' | 'result';

/** A flow node as results show it. */
export interface FlowNodeRow {
  arg?: number;
  function: string;
  id: string;
  kind: FlowKind;
  line: number;
  /** Variable or access path; the callee for arguments and results. */
  name: string;
  path: string;
}

/** One path from a source to a sink. */
export interface FlowPath {
  /** The built-in sink category (`sql`, `exec`, `filesystem`) when a built-in set found it. */
  category?: string;
  confidence: number;
  hops: FlowHop[];
  length: number;
  sink: FlowNodeRow;
  source: FlowNodeRow;
}

/** Arguments of `get_call_chain`. */
export interface GetCallChainArgs {
  /** Call levels to walk (1..=6, default 3). */
  depth?: number;
  /** The root caller (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Most call rows (and, separately, unresolved rows) returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** The forward call graph below a symbol, as nodes and caller → callee rows. */
export interface GetCallChainResult {
  calls: ChainCall[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The root and every node named by a returned call, by depth then id. */
  nodes: ChainNode[];
  root: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  /** Call rows before `limit`. */
  total: number;
  truncated: boolean;
  unresolved?: ChainUnresolved[];
  /** Unresolved rows before `limit`. */
  unresolved_total?: number;
}

/** Arguments of `get_callers`. */
export interface GetCallersArgs {
  /** Caller levels to walk (1..=5, default 1). */
  depth?: number;
  /** The callee (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Keep callers that are tests or live in test files (default true). */
  include_tests?: boolean;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** Callers of a symbol, nearest first. */
export interface GetCallersResult {
  callers: CallerRow[];
  caveat?: Caveat;
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
}

/** Arguments of `get_class_hierarchy`. */
export interface GetClassHierarchyArgs {
  /** Inheritance hops (1..=10, default 5). */
  depth?: number;
  /** `up` (supertypes), `down` (subtypes) or `both` (default). */
  direction?: 'up' | 'down' | 'both';
  /** The type, interface or method (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** List each type's methods with the methods they override (types only). */
  include_methods?: boolean;
  /** Most nodes besides the root (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** The inheritance subgraph around a type (or the override chain of a method). */
export interface GetClassHierarchyResult {
  edges: HierarchyEdge[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The root first, then supertypes, then subtypes, each by depth then id. */
  nodes: HierarchyNode[];
  root: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  truncated: boolean;
}

/** Arguments of `get_cluster`. */
export interface GetClusterArgs {
  /** Hops in either direction (1..=3, default 1). */
  depth?: number;
  /** The centre (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
  /** Keep tests and test files (default true). */
  include_tests?: boolean;
  /** Most nodes besides the centre (1..=1000, default 50); edges are capped at ten times this. */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** The neighbourhood of a node. */
export interface GetClusterResult {
  center: NodeSummary;
  /** Edges whose both ends are listed, by from, to and kind. */
  edges: ClusterEdge[];
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The centre first, then by depth and id. */
  nodes: ClusterNode[];
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  /** Nodes reached before `limit` (besides the centre). */
  total: number;
  truncated: boolean;
}

/** Arguments of `get_communities`. */
export interface GetCommunitiesArgs {
  /** One community by id or label; without it, the list. */
  id?: IdOrName;
  /** Rows (communities, or members of one community): 1..=1000, default 50. */
  limit?: number;
  /** Smallest community listed (2..=1000000, default 2); list only. */
  min_size?: number;
  /** Only communities with a member under this path; list only. */
  path_prefix?: string;
}

/** The answer of `get_communities`: the list, or one community. */
export type GetCommunitiesResult = CommunityList | CommunityOne;

/** Arguments of `get_dependencies`. */
export interface GetDependenciesArgs {
  /** Levels to walk (1..=3, default 1). */
  depth?: number;
  /** The symbol (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick), or a file path or file id for file-level dependencies. */
  id: string;
  /** Keep tests and test files (default true). */
  include_tests?: boolean;
  /** Edge kinds to follow (one name, a comma-separated list or an array): calls, instantiates, references, extends, implements, typed_as, returns, tests, imports, re_exports (default all but tests). */
  kinds?: OneOrMany;
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** What the target depends on. */
export interface GetDependenciesResult {
  /** Rows per depth (before `limit`). */
  by_depth: Record<string, number>;
  mode: DependencyMode;
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The dependencies (a subgraph's nodes, each with its link). */
  nodes: DependencyRow[];
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  total: number;
  truncated: boolean;
}

/** What depends on the target (its blast radius). */
export interface GetDependentsResult {
  /** Rows per depth (before `limit`). */
  by_depth: Record<string, number>;
  /** Symbol mode only: how far "nothing depends on it" can be trusted. */
  caveat?: Caveat;
  mode: DependencyMode;
  /** Name-only rows hidden by the default rule; pass `min_tier: "text_matched"` to see them. */
  name_only_suppressed?: number;
  /** The dependents (a subgraph's nodes, each with its link). */
  nodes: DependencyRow[];
  target: NodeSummary;
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  total: number;
  truncated: boolean;
}

/** Arguments of `get_file_summary`. */
export interface GetFileSummaryArgs {
  /** Most symbols listed (default 200, max 1000). */
  limit?: number;
  /** Repository-relative path or file node id. */
  path: string;
}

/** A file's symbols in source order (with nesting), its imports and counts. */
export interface GetFileSummaryResult {
  counts: FileCounts;
  file: NodeSummary;
  imports: FileImport[];
  symbols: FileSymbol[];
  truncated?: boolean;
}

/** Arguments of `get_processes`. */
export interface GetProcessesArgs {
  /** One process by id or entry (id, qualified or bare name); without it, the list. */
  id?: IdOrName;
  /** List test processes too (after the product ones); default false. A test process can always be shown by id. */
  include_tests?: boolean;
  /** Processes listed (1..=1000, default 50), or steps of one trace (1..=2048, default 500). */
  limit?: number;
}

/** The answer of `get_processes`: the list, or one trace. */
export type GetProcessesResult = ProcessList | ProcessOne;

/** Arguments of `get_symbol`. */
export interface GetSymbolArgs {
  /** `full`: the node also carries `meta`, its declaration details in one map (signature, doc, visibility, types, flags) for clients that read them there; default `brief`. */
  detail?: string;
  /** The symbol (a symbol id, with or without the `<repo>/` prefix, a file path, `Owner.name` or a bare name; an ambiguous name lists ids to pick). */
  id: string;
}

/** One node in full: its summary, declaration details, owner and edge counts. */
export interface GetSymbolResult {
  decorators?: string[];
  doc?: string;
  /** Incoming edges by kind. */
  edges_in?: Record<string, number>;
  /** Outgoing edges by kind. */
  edges_out?: Record<string, number>;
  is_abstract?: boolean;
  is_async?: boolean;
  is_static?: boolean;
  node: NodeSummary;
  /** The enclosing symbol (`contains` parent, or the type a detached method is a member of). */
  parent?: NodeSummary;
  return_type?: string;
  test_role?: TestRole;
  test_runner?: TestRunner;
  type_name?: string;
  /** References made from this node that the resolver could not bind. */
  unresolved_out?: number;
  visibility?: Visibility;
}

/** Arguments of `analyze kind=goroutine_spawns`. */
export interface GoroutineSpawnsArgs {
  /** Most spawn sites returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=goroutine_spawns`. */
export interface GoroutineSpawnsResult {
  /** Spawn sites per mechanism. */
  by_mechanism: Record<string, number>;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Distinct functions that spawn. */
  functions: number;
  /** Spawn sites inside loops. */
  in_loops: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** By file and line, at most `limit`. */
  spawns: SpawnSite[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** Arguments of `graph_query`. */
export interface GraphQueryArgs {
  /** Most nodes returned, 1..=1000 (default 100). */
  limit?: number;
  /** The pipeline, e.g. `nodes kind=function name~parse | traverse calls out`. */
  query: string;
}

/** Result of `graph_query`. */
export interface GraphQueryResult {
  /** Size of the final set before `limit`. */
  count: number;
  /** The final set, in its pipeline order (by id unless a `sort` stage says otherwise). */
  nodes: NodeSummary[];
  /** The parsed plan, with the set size after each stage. */
  stages: StagePlan[];
  /** `count` exceeded `limit`. */
  truncated: boolean;
}

/** One measured component of the score. */
export type HealthComponent = {
  /** 0–100, higher is healthier. */
  score: number;
  /** Weight in the total after redistributing the weight of components left out. */
  weight: number;
} & ({
  measure: TestReachMeasure;
  name: 'test_reach';
} | {
  measure: DeadCodeMeasure;
  name: 'dead_code';
} | {
  measure: CyclesMeasure;
  name: 'cycles';
} | {
  measure: StructureMeasure;
  name: 'structure';
} | {
  measure: ResolutionMeasure;
  name: 'resolution';
});

/** Arguments of `health_score` (none yet; unknown keys are refused). */
export interface HealthScoreArgs {}

/** Result of `health_score`. */
export interface HealthScoreResult {
  components: HealthComponent[];
  grade: string;
  /** Components left out and why. */
  left_out?: string[];
  rule: string;
  score: number;
}

/** An edge of the hierarchy subgraph (`extends`, `implements`, or derived `overrides`). */
export interface HierarchyEdge {
  from: string;
  kind: EdgeKind;
  line: number;
  origin: Origin;
  to: string;
}

/** A method of a hierarchy type and the nearest supertype methods it overrides. */
export interface HierarchyMethod {
  id: string;
  line: number;
  name: string;
  overrides?: string[];
}

/** A node of the hierarchy subgraph. */
export interface HierarchyNode {
  /** Hops from the root. */
  depth: number;
  /** With `include_methods` (type roots only). */
  methods?: HierarchyMethod[];
  node: NodeSummary;
  side: HierarchySide;
}

/** Where a hierarchy node sits relative to the root. */
export type HierarchySide = 'root' | 'up' | 'down';

/** The history an answer was computed from. */
export interface HistoryMeta {
  /** Mainline (first-parent) commits mined. */
  commits: number;
  /** The head commit mined up to (abbreviated); empty on an unborn branch. */
  head: string;
  /** File versions whose blobs this clone lacks (a partial clone): those files' line history starts after the missing version. */
  missing_blobs?: number;
  /** Date of the oldest mined commit. */
  since: string;
  /** Files whose text differs from `HEAD`: their changed lines count as uncommitted. */
  uncommitted_files: number;
  /** `unchanged`, `incremental` or `full`: what bringing the history up to `HEAD` took. */
  update: string;
}

/** One hotspot row. */
export interface Hotspot {
  /** 0–100, relative to the most between node. */
  betweenness: number;
  community?: number;
  crossings: number;
  fan_in: number;
  fan_out: number;
  node: NodeSummary;
  /** 0–100. */
  score: number;
}

/** Arguments of `hotspots`. */
export interface HotspotsArgs {
  /** Rows: 1..=1000, default 50. */
  limit?: number;
  /** Only functions/methods under this path (scores are still graph-wide). */
  path_prefix?: string;
  /** Smallest score listed (0–100); default mean + 2σ. */
  threshold?: number;
}

/** The answer of `hotspots`. */
export interface HotspotsResult {
  /** Functions and methods scored. */
  candidates: number;
  hotspots: Hotspot[];
  mean: number;
  stddev: number;
  /** The threshold applied (given, or mean + 2σ). */
  threshold: number;
  /** Rows at or above the threshold (and under `path_prefix`). */
  total: number;
  truncated?: boolean;
}

/** An id argument given as a number or as a name (label, entry name, or a number in a string). */
export type IdOrName = number | string;

/** One image repository and its uses. */
export interface ImageRow {
  /** The repository, registry included (`golang`, `ghcr.io/acme/api`). */
  image: string;
  /** Distinct tags and digests, sorted. */
  tags: string[];
  /** Some use gives no tag or digest, or says `latest`. */
  unpinned: boolean;
  uses: ImageUse[];
}

/** Where an image is used. */
export interface ImageUse {
  line: number;
  path: string;
  /** `dockerfile` or `manifest` (a YAML `image:` field). */
  source: string;
  /** The tag (`1.21-alpine`), or the digest (`sha256:…`); absent when neither is given. */
  tag?: string;
}

/** The answer of `analyze kind=images`. */
export interface ImagesResult {
  evidence: string;
  /** Files read. */
  files_read: number;
  /** By repository, at most `limit`. */
  images: ImageRow[];
  /** Files that could not be read, with why. */
  skipped?: string[];
  total: number;
  truncated: boolean;
  /** Images with an unpinned use. */
  unpinned: number;
}

/** Arguments of `analyze kind=impact`. */
export interface ImpactArgs {
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Rank this target's blast radius; without it, rank the repository's riskiest functions. */
  target?: ImpactTarget;
}

/** The points each part of the score contributed. */
export interface ImpactComponents {
  centrality: number;
  community_span: number;
  complexity: number;
  reach: number;
}

/** Dependents at one level. */
export interface ImpactLevel {
  /** Dependents at this level (before `limit`). */
  count: number;
  /** Listed dependents (the nearest levels fill `limit` first), by path and line. */
  dependents: DependentRow[];
  depth: number;
}

/** The raw measurements behind a score. */
export interface ImpactMetrics {
  /** Distinct communities (or directories without a community map) of it and its dependents. */
  communities: number;
  /** Distinct nodes the symbol uses. */
  fan_out: number;
  /** Distinct nodes using the symbol (or anything it contains). */
  in_degree: number;
  /** Lines of the declaration. */
  lines: number;
  /** Dependents one, two and three hops away. */
  reach: number[];
  reach_truncated?: boolean;
}

/** The ranking. */
export interface ImpactResult {
  /** Repo mode: functions and methods outside tests. */
  candidates?: number;
  /** Target mode: dependents within three levels. */
  closure_width?: number;
  /** Target mode: the closure is complete (the walk was not truncated and nothing depends on the third level from outside it). */
  exact?: boolean;
  /** `target` (a blast radius) or `repo` (the riskiest functions and methods). */
  mode: string;
  note: string;
  rows: ImpactRow[];
  /** Repo mode: how many of them got a full score (the rest were cut by the cheap prefilter). */
  scored?: number;
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
}

/** One ranked row. */
export interface ImpactRow {
  components: ImpactComponents;
  /** With a target: 0 for the target, else the dependent's level. */
  depth?: number;
  metrics: ImpactMetrics;
  node: NodeSummary;
  /** 0–100. */
  score: number;
}

/** What `analyze kind=impact` ranks: one symbol or one file. Exactly one field is required. */
export interface ImpactTarget {
  /** A file path. */
  file?: string;
  /** A symbol: an id, `Owner.name` or a bare name. */
  symbol?: string;
}

/** A type implementing the target. */
export interface ImplementationRow {
  /** Hops from the target (1 = implements it directly). */
  depth: number;
  /** The interface it names in its declaration (the target, or a sub-interface of it). */
  implements: string;
  /** `implements` or `extends`. */
  kind: EdgeKind;
  /** Declaration line of the `implements` clause. */
  line: number;
  node: NodeSummary;
  /** Weakest origin on the path from the target. */
  origin: Origin;
}

/** What the graph says about a missing import chain. */
export interface ImportDiagnosis {
  /** The search ran out of depth while unexplored imports remained. */
  depth_limited: boolean;
  /** Distinct repository files `from` imports directly. */
  from_imports: number;
  /** The findings in one paragraph. */
  message: string;
  /** Files reachable from `from` over imports within `max_depth` (excluding `from`). */
  reachable: number;
  /** Hops of the shortest chain from `to` back to `from`, when there is one. */
  reverse_hops?: number;
  /** Distinct repository files importing `to` directly. */
  to_importers: number;
  /** Unresolved imports in reachable files whose module name looks like `to`. */
  unresolved_imports?: UnresolvedImport[];
}

/** One import statement on the chain. */
export interface ImportHop {
  from: string;
  /** `imports` or `re_exports`. */
  kind: EdgeKind;
  /** Line of the import statement in `from`. */
  line: number;
  to: string;
}

/** The import that brings a symbol into a file. */
export interface ImportStatement {
  /** Line of the import already bringing it in. */
  line?: number;
  /** The module the statement names (a relative specifier, a dotted module, an import path). */
  module?: string;
  note?: string;
  /** How code in the importing file then refers to it (`store.Save` in Go, `Store` elsewhere). */
  reference?: string;
  /** The statement to write, in the importing file's language. */
  statement?: string;
  status: ImportStatus2;
  /** The symbol (a member is imported through its top-level owner, named here). */
  symbol: NodeSummary;
}

/** How an import statement resolved. */
export type ImportStatus = 'resolved' | 'external' | 'unresolved';

/** Whether, and how, a file must import a symbol. */
export type ImportStatus2 = 'same_file' | 'same_package' | 'already_imported' | 'needs_import' | 'not_exported';

/** Arguments of `analyze kind=k8s_resources`, `images` and `kustomize`. */
export interface InfraArgs {
  /** Most rows returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** A file that crosses a language boundary. */
export interface InteropFile {
  language: Language;
  /** Those names, distinct and sorted, at most `NAMES_PER_FILE`. */
  names: string[];
  path: string;
  /** Uses of the other side's names (`C.*` for cgo, `WebAssembly.*`, `#[wasm_bindgen]` items). */
  uses: number;
  /** How it crosses: `import "C"`; `wasm_bindgen`, `syscall/js`, `WebAssembly`. */
  via: string[];
}

/** Arguments of `analyze kind=cgo_users` and `analyze kind=wasm_users`. */
export interface InteropUsersArgs {
  /** Most files returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=cgo_users` and `analyze kind=wasm_users`. */
export interface InteropUsersResult {
  evidence: string;
  /** By path, at most `limit`. */
  files: InteropFile[];
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** A component outside the largest one. */
export interface Island {
  /** Files whose nodes it holds. */
  file_count: number;
  /** Those files, sorted, at most `ISLAND_FILES`. */
  files: string[];
  /** Nodes in the component. */
  nodes: number;
}

/** One Kubernetes object. */
export interface K8sResource {
  api_version: string;
  kind: string;
  /** The line of its `kind:`. */
  line: number;
  name?: string;
  namespace?: string;
  path: string;
}

/** The answer of `analyze kind=k8s_resources`. */
export interface K8sResourcesResult {
  by_kind: Record<string, number>;
  evidence: string;
  /** Files read. */
  files_read: number;
  /** By file and line, at most `limit`. */
  resources: K8sResource[];
  /** Files that could not be read, with why. */
  skipped?: string[];
  total: number;
  truncated: boolean;
}

/** Degree classes of one node kind. */
export interface KindConnectivity {
  isolated: number;
  kind: NodeKind;
  leaf: number;
  total: number;
}

/** Edges of one kind, per tier. */
export interface KindTiers {
  edges: number;
  kind: EdgeKind;
  /** Tiers with edges, strongest first. */
  tiers: TierCount[];
}

/** One kustomization. */
export interface Kustomization {
  bases: string[];
  components: string[];
  images: KustomizeImage[];
  /** Listed local paths (resources, bases, components, patches) that match no indexed file or directory; remote ones (URLs, `github.com/…`) are not checked. */
  missing: string[];
  name_prefix?: string;
  namespace?: string;
  patches: string[];
  path: string;
  resources: string[];
}

/** An image override of a kustomization. */
export interface KustomizeImage {
  name: string;
  new_name?: string;
  new_tag?: string;
}

/** The answer of `analyze kind=kustomize`. */
export interface KustomizeResult {
  /** Kustomizations listing a missing path. */
  broken: number;
  evidence: string;
  /** Files read. */
  files_read: number;
  /** By path, at most `limit`. */
  kustomizations: Kustomization[];
  /** Files that could not be read, with why. */
  skipped?: string[];
  total: number;
  truncated: boolean;
}

/** A source language. Dialects that need their own grammar (TSX) are separate variants. */
export type Language = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c' | 'cpp' | 'csharp' | 'kotlin' | 'php' | 'ruby' | 'markdown' | 'json' | 'yaml' | 'toml' | 'dockerfile' | 'sql' | 'lua' | 'elixir' | 'erlang' | 'elm' | 'dart' | 'haskell' | 'zig' | 'swift' | 'scala' | 'vue' | 'svelte' | 'proto' | 'text' | 'bash';

/** One log message and where it is written. */
export interface LogEvent {
  /** Calls writing it. */
  count: number;
  level: string;
  message: string;
  /** Those calls by file and line, at most `SITES_PER_ROW`. */
  sites: EventSite[];
}

/** Arguments of `analyze kind=log_events`. */
export interface LogEventsArgs {
  /** Only messages containing this text (case-insensitive). */
  contains?: string;
  /** Only this level: debug, info, warn, error, fatal or print. */
  level?: string;
  /** Most messages returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=log_events`. */
export interface LogEventsResult {
  /** Log calls per level. */
  by_level: Record<string, number>;
  /** Most written first (ties: the more severe level, then the message), at most `limit`. */
  events: LogEvent[];
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** How a row was found. */
export type MatchTier = 'exact' | 'exact_case_insensitive' | 'ranked';

/** One data model. */
export interface ModelRow {
  /** What identified it: `extends django.db.models.Model`, `@Entity`, `embeds gorm.Model`. */
  evidence: string;
  /** Its field members, by name. */
  fields: string[];
  framework: string;
  model: NodeSummary;
  /** `orm` (mapped to storage) or `schema` (validation, serialisation: Pydantic). */
  role: string;
}

/** Arguments of `analyze kind=models`. */
export interface ModelsArgs {
  /** Only models of this framework (django, sqlalchemy, sqlmodel, sequelize, activerecord, mongoengine, pydantic, jpa, typeorm, mongoose, efcore, gorm). */
  framework?: string;
  /** Most models returned (1..=1000, default 100). */
  limit?: number;
  /** Only models declared under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=models`. */
export interface ModelsResult {
  by_framework: Record<string, number>;
  /** By framework, then path and line, at most `limit`. */
  models: ModelRow[];
  total: number;
  truncated: boolean;
}

/** A name that fails to resolve often. */
export interface NameCount {
  /** Unresolved references to it. */
  count: number;
  name: string;
  reason: Reason;
}

/** Arguments of `analyze kind=named`. */
export interface NamedArgs {
  /** Most matches returned (1..=1000, default 200), most severe first. */
  limit?: number;
  /** The bundle to run; absent lists every bundle. */
  name?: string;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
  /** Project bundles (the `queries:` list of `.gortex.yaml`); one named like a built-in replaces it. */
  queries?: NamedQuery[];
}

/** One match of a bundle's detector. */
export interface NamedMatch {
  category: string;
  column: number;
  detector: string;
  line: number;
  message: string;
  path: string;
  severity: string;
  /** The innermost symbol around the line. */
  symbol?: string;
}

/** One named bundle. */
export interface NamedQuery {
  /** Rule categories whose every rule runs (`injection`, `crypto`, `secret`, `null_deref`, `concurrency`, `performance`, `resource`, `error_handling`, `logic`). */
  categories?: string[];
  description?: string;
  /** Detectors by id (a rule id such as `sql-string-concat`, or `eval-injection`). */
  detectors?: string[];
  /** Lowest severity kept: info, warning, error or critical. */
  min_severity?: string;
  name: string;
}

/** The answer of `analyze kind=named`: the bundles (without `name`), or one bundle's matches. */
export interface NamedResult {
  /** The detectors it ran. */
  detectors?: string[];
  evidence: string;
  files_searched?: number;
  /** Most severe first, then by detector, file and line; at most `limit`. */
  matches?: NamedMatch[];
  /** Every bundle (listing only). */
  queries?: BundleRow[];
  /** The bundle run. */
  query?: string;
  /** Matches per detector that found any, most first. */
  summary?: DetectorCount[];
  /** Bundles listed, or matches found. */
  total: number;
  truncated: boolean;
}

/** Another community a community's members call or reference. */
export interface NeighbourRow {
  /** Calls/references edges crossing between the two. */
  edges: number;
  id: number;
  label: string;
  /** Their summed tier weight. */
  weight: number;
}

/** A sample of nodes. */
export interface NodeBucket {
  count: number;
  /** The first `limit` by id. */
  sample: NodeSummary[];
  truncated: boolean;
}

/** What a graph node stands for. */
export type NodeKind = 'file' | 'package' | 'module' | 'function' | 'method' | 'type' | 'interface' | 'field' | 'constant' | 'variable' | 'enum_member' | 'import' | 'doc' | 'stage' | 'script';

/** The compact description of a node every query result uses (the node shape of every door: MCP, `/v1`, the CLI's JSON). */
export interface NodeSummary {
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** A string argument that may be given once or as a list (`"call"` or `["call", "type"]`). A single string may also hold a comma-separated list. */
export type OneOrMany = string | string[];

/** The evidence behind an edge, strongest first. Ordering follows strength, so `Origin::AstResolved > Origin::TextMatched`. */
export type Origin = 'lsp_resolved' | 'lsp_dispatch' | 'ast_resolved' | 'ast_inferred' | 'text_matched' | 'speculative';

/** A table code uses and nothing defines. */
export interface OrphanTable {
  /** Those sites (path, line, function), at most `SITES_PER_TABLE`. */
  sites: SqlSite[];
  table: string;
  /** SQL strings naming it. */
  uses: number;
}

/** The answer of `analyze kind=orphan_tables`. */
export interface OrphanTablesResult {
  /** Tables defined here; 0 means no schema was found, and every table code uses is listed. */
  defined: number;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** By name, at most `limit`. */
  tables: OrphanTable[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** One unresolved reference and its reason. */
export interface OutcomeRow {
  /** Declarations that decided the reason: same-family ones for the first two reasons, other-language ones for `cross_language_only`, 0 otherwise. */
  candidates: number;
  /** The symbol (or file) the reference is made from. */
  from: NodeSummary;
  kind: EdgeKind;
  line: number;
  /** The name it looks for. */
  name: string;
  reason: Reason;
  /** `unresolved::name`, or `unresolved::*.name` for a member access. */
  target: string;
}

/** A method related to the target by overriding. */
export interface OverrideRow {
  /** Inheritance hops between the owners (1 = direct supertype/subtype). */
  depth: number;
  method: NodeSummary;
  /** Weakest `extends`/`implements` origin on the path. */
  origin: Origin;
  owner: NodeSummary;
}

/** The rule that decided a path's owners. */
export interface OwnerRule {
  file: string;
  line: number;
  pattern: string;
}

/** Arguments of `ownership`. */
export interface OwnershipArgs {
  /** `file` rows, or `directory` rows (default) grouped `depth` levels below the prefix. */
  by?: 'file' | 'directory';
  /** Directory levels below the prefix a row groups (1..=8, default 1). */
  depth?: number;
  /** Most rows returned (1..=1000, default 50), most lines first. */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
}

/** Result of `ownership`. */
export interface OwnershipResult {
  /** The CODEOWNERS file read, if any. */
  codeowners_file: string | null;
  /** CODEOWNERS lines that could not be read (`line: why`). */
  codeowners_problems?: string[];
  evidence: string;
  history: HistoryMeta;
  rows: OwnershipRow[];
  total: number;
  truncated: boolean;
}

/** Who owns a file or directory: CODEOWNERS and the authors of its current lines. */
export interface OwnershipRow {
  /** Who last touched the current lines, largest share first. */
  authors: AuthorShare[];
  /** Fewest authors who together last touched half the committed lines. */
  bus_factor: number;
  /** CODEOWNERS owners (for a directory, every owner of one of its files, most files first). */
  codeowners: string[];
  /** Mainline commits that changed a file of the row. */
  commits: number;
  files: number;
  last_change: CommitRef | null;
  lines: number;
  path: string;
  /** The CODEOWNERS rules that decided (file rows). */
  rules?: OwnerRule[];
  /** Files no CODEOWNERS rule owns. */
  unowned_files: number;
}

/** Arguments of `pr_risk`. */
export interface PrRiskArgs {
  /** Changed symbols (ids, `Owner.name` or names) or changed files (their symbols count). */
  ids?: string[];
}

/** Result of `pr_risk`. */
export interface PrRiskResult {
  axes: RiskAxis[];
  evidence: string;
  /** `LOW`, `MEDIUM`, `HIGH` or `CRITICAL`. */
  level: string;
  review_priorities: ReviewPriority[];
  /** 0–100. */
  score: number;
  /** Changed symbols scored. */
  symbols: number;
  /** Inputs not in the graph (deleted or new code the index has not seen). */
  unknown?: string[];
}

/** Whether a process starts in product code or in a test. */
export type ProcessKind = 'product' | 'test';

/** The process list. */
export interface ProcessList {
  processes: ProcessRow[];
  /** Test processes (listed only with `include_tests`). */
  test_processes: number;
  /** Processes matching the request (product, plus tests when asked). */
  total: number;
  /** Limits discovery hit (`process_limit`, `step_limit`). */
  truncated?: string[];
}

/** One process (its fields at the top of the answer). */
export interface ProcessOne {
  depth: number;
  entry: NodeSummary;
  /** The entry's node id (what `id` also accepts, unique across repositories). */
  entry_point: string;
  /** The files the whole trace passes through, in first-visit order. */
  files: string[];
  id: number;
  kind: ProcessKind;
  name: string;
  score: number;
  stamp?: string;
  /** Steps of the whole trace (`steps` holds at most `limit`). */
  step_count: number;
  /** At most `limit` steps, depth-first. */
  steps: StepRow[];
  /** Limits hit: the trace's own, plus `limit` when steps were cut here. */
  truncated?: string[];
}

/** An execution flow a change touches. */
export interface ProcessRef {
  id: number;
  name: string;
}

/** One row of the process list. */
export interface ProcessRow {
  depth: number;
  entry: NodeSummary;
  files: number;
  id: number;
  kind: ProcessKind;
  name: string;
  score: number;
  stamp?: string;
  steps: number;
  truncated?: string[];
}

/** Arguments of `analyze kind=pubsub`. */
export interface PubsubArgs {
  /** Most topics returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
  /** Only this topic. */
  topic?: string;
}

/** The answer of `analyze kind=pubsub`. */
export interface PubsubResult {
  evidence: string;
  publish_only: number;
  subscribe_only: number;
  /** By topic, at most `limit`. */
  topics: TopicRow[];
  total: number;
  truncated: boolean;
}

/** A write to shared state from a goroutine. */
export interface RaceWrite {
  /** The named function the goroutine is started in. */
  function?: NodeSummary;
  /** The goroutine takes a lock or uses `atomic`. */
  guarded: boolean;
  line: number;
  path: string;
  /** `captured` (a local or parameter of the enclosing function), `field` (through a captured value) or `element` (of a captured map or slice). */
  shared: string;
  /** What is written, as spelled (`count`, `s.total`, `seen[k]`). */
  target: string;
  text: string;
}

/** Arguments of `analyze kind=race_writes`. */
export interface RaceWritesArgs {
  /** Most writes returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
  /** Leave out writes in goroutines that take a lock or use `atomic` (default false). */
  unguarded_only?: boolean;
}

/** The answer of `analyze kind=race_writes`. */
export interface RaceWritesResult {
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Goroutine function literals searched. */
  goroutines: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
  /** Writes in goroutines without a lock or `atomic`. */
  unguarded: number;
  /** Unguarded first, then by file and line, at most `limit`. */
  writes: RaceWrite[];
}

/** A function and the errors it raises itself. */
export interface Raiser {
  /** Distinct errors, sorted. */
  errors: string[];
  function: NodeSummary;
}

/** Why an unresolved reference stayed unresolved (see the module doc for the order they are tried in). */
export type Reason = 'ambiguous_multi_match' | 'candidate_out_of_scope' | 'cross_language_only' | 'stub_only' | 'no_definition';

/** How many unresolved references one reason explains. */
export interface ReasonCount {
  count: number;
  reason: Reason;
}

/** One tag and what changed since the previous one on the mainline. */
export interface ReleaseRow {
  /** Mainline commits since the previous mainline tag. */
  commits: number;
  date: string;
  files_changed: number;
  /** Whether the tagged commit is on the mainline (first-parent history of `HEAD`); the counts below are only known for those. */
  on_mainline: boolean;
  sha: string;
  /** Symbols whose current lines a commit of the release shaped. */
  symbols_changed: number;
  tag: string;
}

/** Arguments of `releases`. */
export interface ReleasesArgs {
  /** Most releases returned (1..=1000, default 50), newest first. */
  limit?: number;
  /** A symbol whose releases to report: which tag introduced it, which changed it. */
  symbol?: string;
}

/** Result of `releases`. */
export interface ReleasesResult {
  evidence: string;
  history: HistoryMeta;
  releases: ReleaseRow[];
  symbol?: SymbolReleases;
  total: number;
  truncated: boolean;
  /** Mainline commits after the latest mainline tag, and the symbols they shaped. */
  unreleased_commits: number;
  unreleased_symbols: number;
}

/** The report formats read. */
export type ReportFormat = 'lcov' | 'cobertura' | 'jacoco' | 'go_cover_profile' | 'coverage_py_json';

/** One report as the answer lists it. */
export interface ReportRow {
  /** Source files the report lists. */
  files: number;
  format: ReportFormat;
  /** Of those, files matched to an indexed file. */
  matched: number;
  path: string;
  /** Matched files changed on disk after the report was written: their rows may be off. */
  stale_files: number;
  /** A few of the report's paths that match no indexed file. */
  unmatched_sample?: string[];
}

/** `resolution`: call sites bound to a target and left unresolved. */
export interface ResolutionMeasure {
  resolved_calls: number;
  unresolved_calls: number;
}

/** Arguments of `analyze kind=resolution_outcomes`. */
export interface ResolutionOutcomesArgs {
  /** Most rows returned (1..=1000, default 50). */
  limit?: number;
  /** Only references made from code under this repository-relative prefix. */
  path_prefix?: string;
  /** Only rows of this reason (the counts still cover every reason). */
  reason?: Reason;
}

/** The answer of `analyze kind=resolution_outcomes`. */
export interface ResolutionOutcomesResult {
  /** Every reason with its count (zeros included), in the order they are tried. */
  by_reason: ReasonCount[];
  /** Such rows before `limit`. */
  matching: number;
  /** Rows of `reason` (all when absent), by file and line, at most `limit`. */
  rows: OutcomeRow[];
  /** The names most often unresolved (ties by name), at most `TOP_NAMES`. */
  top_names: NameCount[];
  /** Unresolved references counted (under `path_prefix`). */
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=review`. */
export interface ReviewArgs {
  /** A git revision the change is measured against: findings whose rule and line text the file already had there are pre-existing — listed apart, left out of the verdict. */
  base?: string;
  /** The files (and changed lines) to review; absent reviews every supported file under `path_prefix`. */
  files?: ReviewFile[];
  /** List the findings the grounding pass dropped, each with its reason (default false). */
  include_dropped?: boolean;
  /** Most findings returned (1..=5000, default 200), most severe first. */
  limit?: number;
  /** Lowest severity reported: info, warning, error, critical (default info). */
  min_severity?: string;
  /** Path prefix to review when `files` is absent (default: the whole repository). */
  path_prefix?: string;
  /** Rule ids or categories to run, or `all` (default: every rule on by default; `rules` in the answer lists what ran). */
  rules?: string[];
  /** Finding fingerprints to leave out (the durable suppressions of `suppress_finding`). */
  suppressed?: string[];
}

/** Changed lines of one file. */
export interface ReviewFile {
  /** Inclusive 1-based line ranges `[start, end]` that changed; absent or empty means the whole file. */
  lines?: number[][];
  /** The file's path at `base` when it was renamed. */
  old_path?: string;
  /** Repository-relative path. */
  path: string;
}

/** One line-anchored finding. */
export interface ReviewFinding {
  category: string;
  column: number;
  end_line: number;
  /** Stable over line shifts: rule, file, enclosing symbol and the anchor line's text. */
  fingerprint: string;
  /** How to fix it. */
  fix: string;
  /** What the graph pass checked and why the finding stands, when it checked something. */
  grounding?: string;
  line: number;
  message: string;
  path: string;
  rule: string;
  severity: string;
  /** The anchor line as written (trimmed). */
  source: string;
  /** The innermost symbol around the line. */
  symbol?: string;
}

/** A changed symbol in review order. */
export interface ReviewPriority {
  callers: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  reasons: string[];
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  /** Its own share of the risk, 0–100. */
  score: number;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  tested: boolean;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** What `analyze kind=review` answers. */
export interface ReviewResult {
  /** Findings per severity, before `limit`. */
  counts: Record<string, number>;
  dropped?: DroppedFinding[];
  /** Findings the grounding pass dropped (listed with `include_dropped`). */
  dropped_count: number;
  evidence: string;
  files_scanned: number;
  /** Files that could not be read or parsed, with why. */
  files_skipped?: string[];
  findings: ReviewFinding[];
  /** With `base`: findings the files already had there (same rule, same line text). */
  pre_existing?: ReviewFinding[];
  pre_existing_count: number;
  rules: RuleRow[];
  /** Findings left out by a suppression. */
  suppressed_count: number;
  truncated: boolean;
  /** BLOCK (an error or critical finding), REVIEW (warnings), APPROVE (nothing above info). */
  verdict: string;
}

/** One suggested reviewer. */
export interface ReviewerRow {
  /** Share (0–1) of the changed code's committed lines they last touched. */
  authored_share: number;
  /** Share (0–1) of the co-changing code's lines they last touched, weighted by co-change. */
  cochange_share: number;
  email?: string;
  /** `person` (from git history) or `codeowner` (a CODEOWNERS entry). */
  kind: string;
  /** Changed files this CODEOWNERS entry owns. */
  owned_files: number;
  /** Why, one sentence per kind of evidence. */
  reasons: string[];
  /** Their commits among the last year's commits that shaped the changed code. */
  recent_commits: number;
  /** A person's name, or a CODEOWNERS handle (`@org/team`, `@user`, an email). */
  reviewer: string;
  /** 0–1, see the weights in the tool description. */
  score: number;
}

/** One risk axis. */
export interface RiskAxis {
  /** What the score is made of. */
  detail: string;
  name: string;
  /** 0–100. */
  score: number;
  weight: number;
}

/** The risk tier of a change. */
export type RiskTier = 'low' | 'medium' | 'high' | 'critical';

/** One HTTP route registration. */
export interface RouteRow {
  framework: string;
  /** The function that handles the route, when the registration names or decorates one. */
  handler?: NodeSummary;
  line: number;
  method: string;
  path: string;
  /** The symbol whose body registers the route (call-style registrations). */
  registered_in?: NodeSummary;
  route: string;
}

/** Arguments of `analyze kind=routes`. */
export interface RoutesArgs {
  /** Most rows returned (1..=1000, default 100). */
  limit?: number;
  /** Only this HTTP method (GET, POST, …). */
  method?: string;
  /** Path prefix or glob. */
  path_prefix?: string;
  /** Only routes whose path contains this text. */
  route?: string;
}

/** Result of `analyze kind=routes`. */
export interface RoutesResult {
  by_framework: Record<string, number>;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: boolean;
  evidence: string;
  routes: RouteRow[];
  total: number;
  truncated: boolean;
}

/** A rule of the pack as listed in an answer. */
export interface RuleRow {
  category: string;
  id: string;
  languages: string[];
  severity: string;
  title: string;
}

/** Arguments of `search_ast`. */
export interface SearchAstArgs {
  /** A bundled detector instead of a pattern: a review rule id (sql-string-concat, weak-crypto, hardcoded-secret, swallowed-error, null-deref, …), `empty-catch`, or `eval-injection`. */
  detector?: string;
  /** The language `pattern` is written for (typescript, tsx, javascript, python, go, java, rust, c, cpp, …). */
  language?: string;
  /** Most matches returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
  /** A tree-sitter query (S-expression), e.g. `(call_expression function: (identifier) @f (#eq? @f "eval"))`; needs `language`. */
  pattern?: string;
  /** Stop after this many milliseconds (100..=60000, default 10000); the answer says it was cut. */
  timeout_ms?: number;
}

/** Result of `search_ast`. */
export interface SearchAstResult {
  evidence: string;
  /** Files of the language(s) under the prefix. */
  files_considered: number;
  /** Files parsed and searched (the rest cannot hold a literal the pattern names). */
  files_searched: number;
  matches: AstHit[];
  /** The literals used to skip files, when the pattern names any. */
  prefilter?: string[];
  /** Files that could not be parsed, with why. */
  skipped?: string[];
  timed_out?: boolean;
  /** `limit` matches were reached or the deadline passed: there may be more. */
  truncated: boolean;
}

/** Arguments of `search_symbols`. */
export interface SearchSymbolsArgs {
  /** `code` (default: everything but documentation sections), `docs` (only Markdown sections, ranked by what they say: section text weighs as in a sentence query, whatever the query) or `all`. An explicit `kind` filter decides on its own. */
  corpus?: 'code' | 'docs' | 'all';
  /** Type flavor filter (`class`, `struct`, `enum`, …; comma-separated for several). */
  flavor?: string;
  /** Include test symbols (default true; they are ranked below implementations either way). */
  include_tests?: boolean;
  /** Kind filter (a node kind or a type flavor; comma-separated for several). */
  kind?: string;
  /** Language filter (`typescript`, `go`, … or `ts`, `py`, `js`, `rs`; comma-separated). */
  lang?: string;
  /** Rows to return (default 20, 1..=1000). */
  limit?: number;
  /** Hard cap on rows from one file (1..=1000). */
  max_per_file?: number;
  /** Path prefix filter (repository-relative). */
  path?: string;
  /** Words, an identifier or `Owner.name`, optionally with `kind:`/`flavor:`/`lang:`/`path:` clauses. */
  query: string;
  /** `auto` (default): a query of four or more words that is not an identifier is read as a sentence describing behaviour; `names`: always as names and keywords; `sentence`: always as a sentence. A sentence is matched mostly against doc comments, names weigh less. `body`: the query (up to 20,000 bytes: a bug report, an error message, a log) is matched against what function and method bodies say — identifiers split into words, string literals, comments — by BM25; inline clauses are not read (use the arguments), rows carry no rerank signals. */
  read_as?: 'auto' | 'names' | 'sentence' | 'body';
  /** Path prefixes the result must fall under (any of them). */
  scope?: string[];
}

/** Result of `search_symbols`. */
export interface SearchSymbolsResult {
  /** The identifier query had no match as a whole and was searched again word by word (OR). */
  decomposed?: boolean;
  /** Tier 0 hit: some rows match the name exactly. */
  exact?: boolean;
  /** `sentence` when the query was read as a sentence (doc comments weighed over names), `body` when it was matched against bodies; absent when it was read as names and keywords. */
  read_as?: string;
  results: SymbolHit[];
  /** Candidates that passed the filters, before `limit` and `max_per_file`. */
  total: number;
  /** True when `total` exceeds the rows returned. */
  truncated: boolean;
  /** Query terms that matched nothing, not even fuzzily. */
  unmatched?: string[];
}

/** Arguments of `search_text`. */
export interface SearchTextArgs {
  /** Match case exactly (default true). */
  case_sensitive?: boolean;
  /** Characters of context kept on each side of the match (0..=1000); without it, lines longer than 240 characters are cut around the match. */
  context_chars?: number;
  /** Maximum hits, 1..=1000 (default 100). */
  limit?: number;
  /** A glob (`src/**\/*.ts`, `*.go`) or a plain path prefix (`src/compiler/`). */
  path?: string;
  /** Literal text, or a regular expression when `regexp` is true. */
  query: string;
  /** Treat `query` as a regular expression (Rust `regex` syntax). */
  regexp?: boolean;
}

/** Result of `search_text`. */
export interface SearchTextResult {
  /** Files left after the trigram prefilter and the path filter. */
  candidate_files: number;
  /** Documents in the index. */
  docs: number;
  /** Files with at least one hit among the files scanned. */
  files_matched: number;
  hits: TextHit[];
  /** Matching lines found; exact unless `truncated` (then a lower bound). */
  total_hits: number;
  /** More than `limit` lines match; scanning stopped early. */
  truncated: boolean;
  /** Candidate files that could not be read back from disk (removed since the last sync). */
  unreadable_files?: number;
}

/** How bad a cycle is (see the module doc for the rule). */
export type Severity = 'high' | 'medium' | 'low';

/** One place concurrent work starts. */
export interface SpawnSite {
  /** What is started: the callee's text (`worker`, `s.loop`, `func literal`), or the constructor or call that starts it. */
  callee: string;
  /** The function the spawn is in. */
  function?: NodeSummary;
  /** Inside a loop body of that function: one per iteration. */
  in_loop: boolean;
  line: number;
  /** `goroutine`, `thread`, `task` or `worker`. */
  mechanism: string;
  path: string;
  /** The function the graph resolved the started call to (a named Go callee). */
  target?: NodeSummary;
  /** The source line. */
  text: string;
}

/** Arguments of `analyze kind=sql_call_sites`. */
export interface SqlCallSitesArgs {
  /** Most sites returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
  /** Only SQL naming this table (case-insensitive, last part of a qualified name). */
  table?: string;
  /** Only SQL with this verb (`select`, `insert`, …; case-insensitive). */
  verb?: string;
}

/** The answer of `analyze kind=sql_call_sites`. */
export interface SqlCallSitesResult {
  /** Sites per table named. */
  by_table: Record<string, number>;
  by_verb: Record<string, number>;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** By file and line, at most `limit`. */
  sites: SqlSite[];
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=sql_rebuild`. */
export interface SqlRebuildArgs {
  /** Only code under this repository-relative prefix (definitions are read from the whole repository). */
  path_prefix?: string;
}

/** The answer of `analyze kind=sql_rebuild`: the SQL layer re-derived from the current files in one pass — nothing of it is stored, so every SQL kind answers from the files as they are — and summarised, a health check of SQL extraction: `not_sql` counts literals that begin like SQL and were not read as SQL (prose, or SQL the parser found no table in). */
export interface SqlRebuildResult {
  by_verb: Record<string, number>;
  /** Distinct functions issuing SQL. */
  emitters: number;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Distinct (function, table, read or write) links; module-level SQL links its file. */
  links: number;
  /** The rest: prose, or SQL the parser found no table in. */
  not_sql: number;
  /** Tables code uses that nothing defines (`analyze kind=orphan_tables` lists them). */
  orphan_tables: number;
  reads: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** Of those, read as SQL (a verb, its companion keyword, a table). */
  sql_strings: number;
  /** String literals beginning with a SQL verb. */
  strings_visited: number;
  /** Tables defined: `CREATE TABLE` in `.sql` files and in code. */
  tables_defined: number;
  /** Distinct tables code reads or writes. */
  tables_used: number;
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  /** Tables `.sql` files define that no code uses (`analyze kind=unreferenced_tables`). */
  unreferenced_tables: number;
  writes: number;
}

/** One SQL string in code. */
export interface SqlSite {
  function?: NodeSummary;
  line: number;
  path: string;
  /** The SQL, whitespace collapsed, cut to 200 characters. */
  sql: string;
  /** The tables it names, lower case, sorted. */
  tables: string[];
  /** The first word, upper case (`SELECT`, `INSERT`, `CREATE`, …). */
  verb: string;
}

/** One parsed stage and the size of the set it produced. */
export type StagePlan = {
  /** Set size after this stage. */
  size: number;
  /** 1-based position in the pipeline. */
  stage: number;
} & ({
  filters: FilterPlan[];
  op: 'nodes';
} | {
  depth: number;
  direction: string;
  edge_kinds: EdgeKind[];
  min_tier?: Origin;
  op: 'traverse';
} | {
  filters: FilterPlan[];
  op: 'filter';
} | {
  by: string;
  op: 'sort';
  order: string;
} | {
  n: number;
  op: 'limit';
});

/** Arguments of `stale_code`. */
export interface StaleCodeArgs {
  /** Unchanged for at least this many days before the head commit (1..=36500, default 365). */
  days?: number;
  /** Also report test code (default false). */
  include_tests?: boolean;
  /** Most rows returned (1..=1000, default 50), oldest first. */
  limit?: number;
  /** Only files under this repository path prefix. */
  path_prefix?: string;
}

/** Result of `stale_code`. */
export interface StaleCodeResult {
  /** The head commit's date, which ages are measured from. */
  as_of: string;
  evidence: string;
  examined: number;
  history: HistoryMeta;
  symbols: StaleRow[];
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=stale_flags`. */
export interface StaleFlagsArgs {
  /** Every flag with its age, not only the stale ones. */
  all?: boolean;
  /** Stale means the flag's newest check is at least this many days older than the head commit (1..=36500, default 365). */
  days?: number;
  /** Count checks made in test code too (default false). */
  include_tests?: boolean;
  /** Most flags returned (1..=1000, default 100), oldest first. */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
  /** Only this provider: launchdarkly, unleash, growthbook, openfeature or internal. */
  provider?: string;
}

/** The answer of `analyze kind=stale_flags`. */
export interface StaleFlagsResult {
  /** The head commit's date, which ages are measured from. */
  as_of: string;
  days: number;
  evidence: string;
  /** Distinct flags checked in code. */
  examined: number;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Stale flags (every flag with `all`), oldest first (ties: by name), at most `limit`. */
  flags: FlagRow[];
  history: HistoryMeta;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** Of those, the stale ones. */
  stale: number;
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
  /** Flags whose checks have no git history (files outside git): not scored. */
  unscored: string[];
}

/** A symbol nobody changed for a long time. */
export interface StaleRow {
  /** Days between its last change and the head commit. */
  age_days: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Distinct users (callers, instantiations, references, tests): 0 suggests dead code. */
  fan_in: number;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  last_change: CommitRef;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** One step of a shown trace. */
export interface StepRow {
  depth: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  revisit?: boolean;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
  /** Line of the call site in the caller; absent for the entry. */
  via?: number;
}

/** Arguments of `analyze kind=string_emitters`. */
export interface StringEmittersArgs {
  /** Only strings containing this text (case-insensitive). */
  contains?: string;
  /** Only this context: `metric`, `error_msg` or `i18n`. */
  context?: string;
  /** Most strings returned (1..=1000, default 100). */
  limit?: number;
  /** Only strings emitted from at least this many places (default 1; 2 finds duplicates). */
  min_emits?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=string_emitters`. */
export interface StringEmittersResult {
  /** Distinct strings per context (after the filters). */
  by_context: Record<string, number>;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** Most emitted first (ties: context, then value), at most `limit`. */
  strings: EmittedString[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** `structure`: modularity of the Leiden communities. */
export interface StructureMeasure {
  /** Symbols taking part in calls (the structure needs 10). */
  clustered: number;
  communities: number;
  /** Modularity Q, three decimals. */
  modularity: number;
}

/** An interface extending the target, walked to find indirect implementations. */
export interface SubInterfaceRow {
  depth: number;
  extends: string;
  node: NodeSummary;
  origin: Origin;
}

/** Arguments of `suggest_reviewers`. */
export interface SuggestReviewersArgs {
  /** People to leave out — the change's author — by name, email or CODEOWNERS handle. */
  exclude?: string[];
  /** Most reviewers returned (1..=1000, default 5). */
  limit?: number;
  /** Changed files (repository-relative). */
  paths?: string[];
  /** Changed symbols (ids, `Owner.name` or names). */
  symbols?: string[];
}

/** Result of `suggest_reviewers`. */
export interface SuggestReviewersResult {
  codeowners_file: string | null;
  evidence: string;
  /** Changed files and symbols the suggestion is for. */
  files: number;
  history: HistoryMeta;
  reviewers: ReviewerRow[];
  symbols: number;
  total: number;
  /** Inputs not in the graph (new files, deleted symbols): no history to go on. */
  unknown?: string[];
}

/** An error a function can surface, and how. */
export interface SurfacedError {
  /** 0: raised by the function itself; n: by a function n calls away. */
  depth: number;
  error: string;
  line: number;
  path: string;
  /** The function raising it. */
  raised_by: NodeSummary;
  /** The call chain from the function to the raiser (qualified names), empty at depth 0. */
  via: string[];
}

/** One `search_symbols` row. */
export interface SymbolHit {
  end_line: number;
  exported?: boolean;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  line: number;
  /** Indexed tokens of this symbol (name, owner, signature, doc, path) that matched query terms. */
  matched?: string[];
  name: string;
  path: string;
  /** `Owner.name`. */
  qualified: string;
  /** Final score: 100 for tier-0 rows, otherwise the sum of `signals`. */
  score: number;
  /** The declaration's signature. */
  sig?: string;
  /** Weighted contributions to the score, by signal name (see `rerank`). */
  signals: Record<string, number>;
  tier: MatchTier;
  /** The UI framework when the symbol is a UI component. */
  ui_framework?: UiFramework;
}

/** A symbol's releases. */
export interface SymbolReleases {
  /** Every release that changed it, newest first. */
  changed_in: string[];
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  /** The first release holding work that survives in the symbol. */
  introduced_in: string | null;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** The latest release that changed it. */
  last_changed_in: string | null;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
  /** Its commits after the latest tag. */
  unreleased_commits: number;
}

/** One synthesized edge. */
export interface SynthesizedEdge {
  /** The registering code: the function or file that hands the target to the framework. */
  from: NodeSummary;
  kind: EdgeKind;
  line: number;
  origin: Origin;
  path: string;
  /** What the framework calls (or instantiates). */
  to: NodeSummary;
}

/** The pass that synthesized a framework-dispatch edge: a call the framework makes on the code's behalf, which no call expression in the source shows (see `RefFact::via`). */
export type Synthesizer = 'http_route' | 'event_handler' | 'jsx_render' | 'di_provider' | 'di_depends' | 'pytest_fixture';

/** One pass and the edges it synthesized. */
export interface SynthesizerRow {
  /** Edges per evidence tier. */
  by_origin: Record<string, number>;
  edges: number;
  pass: Synthesizer;
  /** Edges in file and line order, at most `limit`. */
  samples: SynthesizedEdge[];
  /** Distinct targets the framework reaches through it. */
  targets: number;
}

/** Arguments of `analyze kind=synthesizers`. */
export interface SynthesizersArgs {
  /** Sample edges listed per pass (1..=1000, default 20). */
  limit?: number;
  /** Only this pass: http_route, event_handler, jsx_render, di_provider, di_depends or pytest_fixture. */
  pass?: string;
  /** Only edges whose site (the registering code) is under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=synthesizers`. */
export interface SynthesizersResult {
  /** The passes this build runs, whether or not they found anything here. */
  available: Synthesizer[];
  evidence: string;
  /** Every pass that produced an edge, most edges first. */
  passes: SynthesizerRow[];
  /** Synthesized edges counted (after the filters). */
  total: number;
}

/** Arguments of `analyze kind=unreferenced_tables` and `analyze kind=orphan_tables`. */
export interface TableAuditArgs {
  /** Most tables returned (1..=1000, default 100). */
  limit?: number;
  /** Only code under this repository-relative prefix counts as using tables (definitions are read from the whole repository). */
  path_prefix?: string;
}

/** Arguments of `taint_paths`. */
export interface TaintPathsArgs {
  /** Most findings, 1..=1000 (default 20). */
  limit?: number;
  /** Most hops per path, 1..=32 (default 16). */
  max_depth?: number;
  /** Weakest provenance tier of the call edges a path may cross. */
  min_tier?: Origin;
  /** Only sources in functions under this path prefix. */
  path_prefix?: string;
  /** Sink clauses, same forms; omit it for the built-in SQL, command and filesystem sinks. */
  sink_pattern?: string;
  /** Source clauses (words, `exact:Name`, `path:dir/`, `kind:param|variable|…`, all must hold); omit it for the built-in request inputs. */
  source_pattern?: string;
}

/** Result of `taint_paths`. */
export interface TaintPathsResult {
  /** A side had more than 100 candidates; the first 100 (by position) were swept. */
  candidates_capped?: boolean;
  findings: FlowPath[];
  flow_graph: FlowGraphSize;
  flow_sensitive: boolean;
  sink_set: string;
  sinks: number;
  /** `builtin` when a side used the built-in set. */
  source_set: string;
  sources: number;
  total: number;
  truncated: boolean;
}

/** One tested symbol (or one test) and the other end of its `tests` edges. */
export interface TestEdgeRow {
  /** Grouped by test: the symbols it covers, by id. */
  covers?: NodeSummary[];
  /** `tests` edges on this row (one per call site). */
  edge_count: number;
  node: NodeSummary;
  /** Grouped by symbol: the tests covering it, by id. */
  tests?: NodeSummary[];
}

/** Totals over every `tests` edge under `path_prefix`. */
export interface TestEdgeSummary {
  test_edges: number;
  /** Distinct tests covering something. */
  test_functions: number;
  /** Distinct symbols some test covers. */
  tested_symbols: number;
}

/** How `tests_as_edges` groups its rows. */
export type TestGrouping = 'symbol' | 'test';

/** `test_reach`: functions and methods examined and how many no test reaches. */
export interface TestReachMeasure {
  examined: number;
  /** Share reached by a test, three decimals. */
  tested_ratio: number;
  untested: number;
}

/** The role of a test symbol. */
export type TestRole = 'test' | 'benchmark' | 'fuzz' | 'example' | 'fixture';

/** The runner a test symbol belongs to. */
export type TestRunner = 'jest' | 'vitest' | 'mocha' | 'node-test' | 'pytest' | 'unittest' | 'gotest' | 'cargo-test' | 'junit';

/** Arguments of `analyze kind=tests_as_edges`. */
export interface TestsAsEdgesArgs {
  /** `symbol` (default): a row per tested symbol; `test`: a row per test. */
  group_by?: TestGrouping;
  /** Most rows returned (1..=1000, default 200). */
  limit?: number;
  /** Only rows whose symbol (or test) is declared under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=tests_as_edges`. */
export interface TestsAsEdgesResult {
  group_by: TestGrouping;
  /** Most edges first (ties by id), at most `limit`. */
  rows: TestEdgeRow[];
  summary: TestEdgeSummary;
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
}

/** One matching line. */
export interface TextHit {
  /** 1-based byte column of the match start. */
  column: number;
  /** 1-based line of the match start. */
  line: number;
  path: string;
  /** The innermost graph symbol whose span holds the line; the file node when none does. */
  symbol_id?: string;
  symbol_name?: string;
  /** The line without its newline, cut around the match (marked with `…`) when long. */
  text: string;
}

/** Edges of one evidence tier. */
export interface TierCount {
  edges: number;
  origin: Origin;
}

/** Reported when `min_tier` removed rows: how many, and the strongest tier the full answer had. */
export interface TierFiltered {
  edges_below_min_tier: number;
  max_available_tier?: Origin;
}

/** One marker comment. */
export interface TodoRow {
  /** From `TAG(name)` or `TAG @name`. */
  assignee?: string;
  line: number;
  path: string;
  /** The innermost symbol holding the comment (the file when none does). */
  symbol?: NodeSummary;
  tag: string;
  text: string;
}

/** Arguments of `analyze kind=todos`. */
export interface TodosArgs {
  /** Most rows returned (1..=1000, default 100). */
  limit?: number;
  /** Path prefix or glob. */
  path_prefix?: string;
  /** Tags to report (default TODO, FIXME, HACK, XXX, BUG, QUESTION). */
  tags?: string[];
}

/** Result of `analyze kind=todos`. */
export interface TodosResult {
  /** Markers per assignee; those without one count under `unassigned`. */
  by_assignee: Record<string, number>;
  by_tag: Record<string, number>;
  /** The scan stopped at 50,000 matching lines; totals are lower bounds. */
  counts_capped?: boolean;
  evidence: string;
  todos: TodoRow[];
  total: number;
  truncated: boolean;
}

/** One topic with its publishers and subscribers. */
export interface TopicRow {
  publishers: TopicSite[];
  /** `matched` (both sides here), `publish_only` or `subscribe_only`. */
  status: string;
  subscribers: TopicSite[];
  topic: string;
}

/** A publishing or subscribing site. */
export interface TopicSite {
  line: number;
  path: string;
  /** The client library recognised (kafka-go, kafka-python, nats, amqplib, …). */
  source: string;
  symbol?: NodeSummary;
}

/** What the graph says about a missing path. */
export interface TraceDiagnosis {
  /** The search ran out of depth while unexplored edges remained. */
  depth_limited: boolean;
  /** Edges of the requested kinds (and tiers) leaving `from`. */
  from_outgoing: number;
  /** Hops of the shortest path when `min_tier` is dropped (only checked when it was given). */
  ignoring_min_tier_hops?: number;
  /** The findings in one paragraph. */
  message: string;
  /** Nodes reachable from `from` within `max_depth` (excluding `from`). */
  reachable: number;
  /** Hops of the shortest path from `to` back to `from`, when there is one. */
  reverse_hops?: number;
  /** Edges of the requested kinds (and tiers) entering `to`. */
  to_incoming: number;
  /** Hops of the shortest path when edge direction is ignored. */
  undirected_hops?: number;
  /** Unresolved references from reachable nodes that name `to`: likely resolution gaps. */
  unresolved?: UnresolvedHint[];
  /** Hops of the shortest path when `references` edges may be used too. */
  with_references_hops?: number;
}

/** Arguments of `trace_path`. */
export interface TracePathArgs {
  /** Edge kinds a hop may use (CSV or list); default `calls,instantiates`. */
  edge_kinds?: OneOrMany;
  /** Start node: an id (with or without the `<repo>/` prefix), a file path, or a qualified or bare name that matches exactly one symbol. */
  from: string;
  /** Most paths returned, 1..=20 (default 3). */
  limit?: number;
  /** Most hops, 1..=12 (default 6). */
  max_depth?: number;
  /** Weakest tier a hop may have; `speculative` hops only when asked for. */
  min_tier?: Origin;
  /** Target node, same forms as `from`. */
  to: string;
}

/** Result of `trace_path`. */
export interface TracePathResult {
  /** Why no path was found; absent when `paths` is not empty. */
  diagnosis?: TraceDiagnosis;
  edge_kinds: EdgeKind[];
  from: NodeSummary;
  /** Hops of the shortest paths. */
  length?: number;
  /** Shortest paths, most confident first (ties by the hops' ids). */
  paths?: TracedPath[];
  /** How many shortest paths exist (counting stops at 256). */
  shortest_paths?: number;
  to: NodeSummary;
  /** More shortest paths exist than were returned. */
  truncated: boolean;
}

/** One path: its hops in order and the product of their tier scores. */
export interface TracedPath {
  /** Product of per-hop tier scores (lsp_resolved 1.0, lsp_dispatch 0.95, ast_resolved 0.9, ast_inferred 0.7, text_matched 0.4, speculative 0.2), rounded to 4 decimals. */
  confidence: number;
  hops: EdgeRow[];
}

/** The shape of a `type` node (classes, structs, enums, records, aliases, unions). */
export type TypeFlavor = 'class' | 'struct' | 'enum' | 'record' | 'type_alias' | 'union' | 'annotation' | 'message' | 'service' | 'table' | 'view' | 'component' | 'mixin';

/** The UI framework a component declaration is written for (see `SymbolFact::ui`). */
export type UiFramework = 'react' | 'preact' | 'solid' | 'vue' | 'svelte' | 'angular' | 'stencil' | 'lit' | 'web_component' | 'swiftui' | 'compose' | 'flutter' | 'blazor';

/** A channel made and never closed. */
export interface UnclosedChannel {
  channel: string;
  closes: number;
  /** How a declared channel is declared: `param`, `field` or `var`. */
  declared_as?: string;
  /** The function a local belongs to. */
  function?: NodeSummary;
  makes: number;
  ranges: number;
  receives: number;
  /** `leak` (a `for … range` reads it: that loop never ends) or `unclosed`. */
  risk: string;
  /** `field` (a struct field, by name across the repository) or `local`. */
  scope: string;
  sends: number;
  /** The operations, by file and line, at most `CHANNEL_SITES`. */
  sites: ChannelSite[];
}

/** Arguments of `analyze kind=unclosed_channels`. */
export interface UnclosedChannelsArgs {
  /** Most channels returned (1..=1000, default 50). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=unclosed_channels`. */
export interface UnclosedChannelsResult {
  /** Leaks first, then by name, at most `limit`. */
  channels: UnclosedChannel[];
  /** Channels made and closed somewhere. */
  closed: number;
  /** Locals made, never closed in their function, but passed on or returned (whoever receives them may close them): left out. */
  escaping: number;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** A table defined and never used by code. */
export interface UnreferencedTable {
  table: NodeSummary;
  /** Views (in `.sql` files) that read it. */
  views: string[];
}

/** The answer of `analyze kind=unreferenced_tables`. */
export interface UnreferencedTablesResult {
  /** Tables defined (graph tables and `CREATE TABLE` strings in code). */
  defined: number;
  evidence: string;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** By name, at most `limit`. */
  tables: UnreferencedTable[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** An unresolved reference whose name is the target's name. */
export interface UnresolvedHint {
  /** Same-named candidates the resolver saw (>1: ambiguous). */
  candidates: number;
  from: string;
  kind: EdgeKind;
  line: number;
  target: string;
}

/** An import the resolver could not bind. */
export interface UnresolvedImport {
  /** Path of the importing file. */
  file: string;
  line: number;
  /** The module as written. */
  module: string;
}

/** Arguments of `analyze kind=unsafe_patterns`. */
export interface UnsafePatternsArgs {
  /** Most sites returned (1..=1000, default 100). */
  limit?: number;
  /** Only files under this repository-relative prefix. */
  path_prefix?: string;
}

/** The answer of `analyze kind=unsafe_patterns`. */
export interface UnsafePatternsResult {
  by_pattern: Record<string, number>;
  evidence: string;
  /** Distinct files with a site. */
  files: number;
  /** Files of the kind's languages searched. */
  files_searched: number;
  /** By file and line, at most `limit`. */
  sites: UnsafeSite[];
  /** Files that could not be read or parsed, with why. */
  skipped?: string[];
  /** The sweep's deadline passed: later files were not searched. */
  timed_out?: boolean;
  total: number;
  truncated: boolean;
}

/** One unsafe site. */
export interface UnsafeSite {
  language: Language;
  line: number;
  path: string;
  /** `unsafe.Pointer`, `go:linkname`, `unsafe block`, `unsafe fn`, `unsafe impl`, `extern block`, `unsafe member`, `fixed`, `stackalloc`. */
  pattern: string;
  /** The symbol it is in (for `unsafe fn`, the function itself). */
  symbol?: NodeSummary;
  /** The source line. */
  text: string;
}

/** One untested function or method. */
export interface UntestedRow {
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Distinct direct callers (calls, instantiations, test calls); name-only (text_matched) callers count only when no stronger caller exists, as in `get_callers`. */
  fan_in: number;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** The role a reference plays at its use site. */
export type UsageContext = 'call' | 'parameter_type' | 'field' | 'type' | 'return_type' | 'value' | 'import';

/** One use site. */
export interface UsageRow {
  context: UsageContext;
  /** Id of the using symbol (the file node for module-level code and imports), in `nodes`. */
  from: string;
  /** The flavor of the nearest type enclosing the using symbol (the symbol itself when it is a type). */
  from_type_flavor?: TypeFlavor;
  /** Id of the UI component the usage sits in (the using symbol or an enclosing one). */
  from_ui_component?: string;
  kind: EdgeKind;
  line: number;
  origin: Origin;
  path: string;
  /** The framework pass that synthesized this use (a route's handler, an event listener, a rendered component, a DI provider, a FastAPI dependency, a pytest fixture): the framework makes the call, no call expression in the source shows it. */
  via?: Synthesizer;
}

/** A use site (or an unresolved one). */
export interface UseSite {
  /** 1-based byte column of the match start. */
  column: number;
  /** The identifier taken from the site (reported on unresolved uses). */
  identifier?: string;
  line: number;
  /** How this use was tied to the declaration (reported on declaration uses). */
  origin?: Origin;
  path: string;
  text: string;
}

/** Declared visibility of a symbol, normalised across languages. */
export type Visibility = 'public' | 'protected' | 'package' | 'private';

/** Arguments of `walk_graph`. */
export interface WalkGraphArgs {
  /** `out` (default), `in` or `both`. */
  direction?: 'out' | 'in' | 'both';
  /** Edge kinds to follow (CSV or list); default every usage kind. */
  edge_kinds?: OneOrMany;
  /** Start node: an id (with or without the `<repo>/` prefix), a file path, or a qualified or bare name that matches exactly one symbol. */
  id: string;
  /** Most nodes returned, 1..=5000 (default 200). */
  limit?: number;
  /** Hops from the start, 1..=10 (default 3). */
  max_depth?: number;
  /** Weakest tier followed; `speculative` edges are skipped unless asked for. */
  min_tier?: Origin;
  /** Estimated tokens the result may take, 100..=100000 (default 4000). */
  token_budget?: number;
}

/** Result of `walk_graph`. */
export interface WalkGraphResult {
  /** The next row would have exceeded `token_budget`. */
  budget_hit: boolean;
  /** Deepest depth among returned nodes. */
  depth_reached: number;
  direction: string;
  edge_kinds: EdgeKind[];
  /** Followed edges in the order they were met, in their real direction. */
  edges: EdgeRow[];
  /** Visited nodes in breadth-first order. */
  nodes: WalkNode[];
  /** Id of the start node (also the first row of `nodes`, at depth 0). */
  start: string;
  /** Depth of the first node or edge left out when the walk stopped early. */
  stopped_at_depth?: number;
  /** Estimated tokens of the returned rows (serialized bytes / 4, rounded up, per row). */
  tokens_used: number;
  /** `limit` nodes were reached before the walk finished. */
  truncated: boolean;
}

/** A visited node and its distance from the start. */
export interface WalkNode {
  depth: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** A call bound by name alone. */
export interface WeakCall {
  from: NodeSummary;
  line: number;
  origin: Origin;
  to: NodeSummary;
}

/** A sample of weak calls. */
export interface WeakCallBucket {
  count: number;
  /** The first `limit` by caller id, then line. */
  sample: WeakCall[];
  truncated: boolean;
}

/** One `winnow_symbols` row. */
export interface WinnowHit {
  /** Per-axis contributions (`text`, `fan_in`, `fan_out`, `test`, `churn`); zero axes are left out. */
  axes: Record<string, number>;
  /** Commits that shaped the symbol's current lines (with `min_churn`). */
  churn?: number;
  end_line: number;
  exported?: boolean;
  external?: boolean;
  fan_in: number;
  fan_out: number;
  /** Repository-relative path of the file that declares it. */
  file_path: string;
  flavor?: TypeFlavor;
  id: string;
  is_test?: boolean;
  kind: NodeKind;
  language?: Language;
  /** Declaration details as one map (`get_symbol` with `detail: "full"` only). */
  meta?: Record<string, unknown>;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qual_name: string;
  /** The repository the node belongs to (its id's first segment); empty for `external::` stubs. */
  repo_prefix: string;
  /** Sum of `axes`. */
  score: number;
  signature?: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  start_line: number;
  /** The UI framework when the node is a UI component (`react`, `vue`, `flutter`, …). */
  ui_framework?: UiFramework;
}

/** Arguments of `winnow_symbols`. At least one of kind, lang, path_prefix, min_fan_in, min_fan_out, text_match, exported is required. */
export interface WinnowSymbolsArgs {
  /** Keep members of this community: its id or label, as get_communities lists them. */
  community?: CommunityRef;
  /** Keep only exported (true) or only unexported (false) symbols. */
  exported?: boolean;
  /** Include test symbols (default true; demoted either way). */
  include_tests?: boolean;
  /** Node kinds or type flavors (comma-separated for several; any may match). */
  kind?: string;
  /** Languages (comma-separated; `ts`, `py`, … aliases accepted). */
  lang?: string;
  /** Rows to return (default 50, 1..=1000). */
  limit?: number;
  /** Keep symbols whose current lines at least this many git commits shaped; adds the `churn` axis. */
  min_churn?: number;
  /** Keep symbols with at least this many incoming usage edges. */
  min_fan_in?: number;
  /** Keep symbols with at least this many outgoing usage edges. */
  min_fan_out?: number;
  /** Repository-relative path prefix. */
  path_prefix?: string;
  /** Words the symbol must match (any of them, scored with the search BM25). */
  text_match?: string;
}

/** Result of `winnow_symbols`. */
export interface WinnowSymbolsResult {
  results: WinnowHit[];
  /** Symbols passing every constraint, before `limit`. */
  total: number;
  truncated: boolean;
}

/** Arguments of `analyze kind=would_create_cycle`. */
export interface WouldCreateCycleArgs {
  /** The kind of the new edge: `imports` (default) or `calls`. */
  edge?: 'imports' | 'calls';
  /** The importing file (edge `imports`) or the calling function/method (edge `calls`). */
  from: string;
  /** The imported file or the called function/method. */
  to: string;
}

/** Whether adding `from → to` would close a cycle. */
export interface WouldCreateCycleResult {
  /** The edge (between the same files/packages, or functions) exists already. */
  already_exists: boolean;
  edge: CycleKind;
  from: NodeSummary;
  note?: string;
  /** The existing route `to → … → from` that the new edge would close (empty when none, or when `from` and `to` are the same unit). */
  path: CycleStep[];
  to: NodeSummary;
  would_create_cycle: boolean;
}

/** Every query tool `Engine.query` runs, with its argument and result types, in the dispatcher's order. */
export interface QueryToolMap {
  search_symbols: { args: SearchSymbolsArgs; result: SearchSymbolsResult };
  winnow_symbols: { args: WinnowSymbolsArgs; result: WinnowSymbolsResult };
  search_text: { args: SearchTextArgs; result: SearchTextResult };
  find_files: { args: FindFilesArgs; result: FindFilesResult };
  search_ast: { args: SearchAstArgs; result: SearchAstResult };
  find_declaration: { args: FindDeclarationArgs; result: FindDeclarationResult };
  get_symbol: { args: GetSymbolArgs; result: GetSymbolResult };
  get_file_summary: { args: GetFileSummaryArgs; result: GetFileSummaryResult };
  get_dependencies: { args: GetDependenciesArgs; result: GetDependenciesResult };
  get_dependents: { args: GetDependenciesArgs; result: GetDependentsResult };
  get_callers: { args: GetCallersArgs; result: GetCallersResult };
  get_call_chain: { args: GetCallChainArgs; result: GetCallChainResult };
  find_usages: { args: FindUsagesArgs; result: FindUsagesResult };
  find_implementations: { args: FindImplementationsArgs; result: FindImplementationsResult };
  find_overrides: { args: FindOverridesArgs; result: FindOverridesResult };
  get_class_hierarchy: { args: GetClassHierarchyArgs; result: GetClassHierarchyResult };
  get_cluster: { args: GetClusterArgs; result: GetClusterResult };
  walk_graph: { args: WalkGraphArgs; result: WalkGraphResult };
  graph_query: { args: GraphQueryArgs; result: GraphQueryResult };
  trace_path: { args: TracePathArgs; result: TracePathResult };
  find_import_path: { args: FindImportPathArgs; result: FindImportPathResult };
  get_communities: { args: GetCommunitiesArgs; result: GetCommunitiesResult };
  get_processes: { args: GetProcessesArgs; result: GetProcessesResult };
  explain_change_impact: { args: ExplainChangeImpactArgs; result: ExplainChangeImpactResult };
  flow_between: { args: FlowBetweenArgs; result: FlowBetweenResult };
  taint_paths: { args: TaintPathsArgs; result: TaintPathsResult };
  find_clones: { args: FindClonesArgs; result: FindClonesResult };
  find_co_changing_symbols: { args: CoChangeArgs; result: CoChangeResult };
  pr_risk: { args: PrRiskArgs; result: PrRiskResult };
  suggest_reviewers: { args: SuggestReviewersArgs; result: SuggestReviewersResult };
  analyze: { args: AnalyzeArgs; result: AnalyzeResult };
}

/** Name of a query tool `Engine.query` runs. */
export type QueryToolName = keyof QueryToolMap;

/** Every `analyze` kind (aliases and `kinds` included), with its argument and result types. */
export interface AnalyzeKindMap {
  dead_code: { args: DeadCodeArgs; result: DeadCodeResult };
  hotspots: { args: HotspotsArgs; result: HotspotsResult };
  cycles: { args: CyclesArgs; result: CyclesResult };
  would_create_cycle: { args: WouldCreateCycleArgs; result: WouldCreateCycleResult };
  impact: { args: ImpactArgs; result: ImpactResult };
  clusters: { args: ClustersArgs; result: CommunityList };
  connectivity_health: { args: ConnectivityHealthArgs; result: ConnectivityHealthResult };
  edge_audit: { args: EdgeAuditArgs; result: EdgeAuditResult };
  resolution_outcomes: { args: ResolutionOutcomesArgs; result: ResolutionOutcomesResult };
  synthesizers: { args: SynthesizersArgs; result: SynthesizersResult };
  tests_as_edges: { args: TestsAsEdgesArgs; result: TestsAsEdgesResult };
  coverage_gaps: { args: CoverageGapsArgs; result: CoverageGapsResult };
  coverage: { args: CoverageArgs; result: CoverageResult };
  coverage_summary: { args: CoverageSummaryArgs; result: CoverageSummaryResult };
  external_calls: { args: ExternalCallsArgs; result: ExternalCallsResult };
  routes: { args: RoutesArgs; result: RoutesResult };
  env_var_users: { args: EnvVarUsersArgs; result: EnvVarUsersResult };
  contract_sites: { args: ContractSitesArgs; result: ContractSitesResult };
  todos: { args: TodosArgs; result: TodosResult };
  health_score: { args: HealthScoreArgs; result: HealthScoreResult };
  annotation_users: { args: AnnotationUsersArgs; result: AnnotationUsersResult };
  log_events: { args: LogEventsArgs; result: LogEventsResult };
  event_emitters: { args: EventEmittersArgs; result: EventEmittersResult };
  domain: { args: DomainArgs; result: DomainResult };
  models: { args: ModelsArgs; result: ModelsResult };
  components: { args: ComponentsArgs; result: ComponentsResult };
  error_surface: { args: ErrorSurfaceArgs; result: ErrorSurfaceResult };
  string_emitters: { args: StringEmittersArgs; result: StringEmittersResult };
  config_readers: { args: ConfigReadersArgs; result: ConfigReadersResult };
  pubsub: { args: PubsubArgs; result: PubsubResult };
  sql_call_sites: { args: SqlCallSitesArgs; result: SqlCallSitesResult };
  unreferenced_tables: { args: TableAuditArgs; result: UnreferencedTablesResult };
  orphan_tables: { args: TableAuditArgs; result: OrphanTablesResult };
  sql_rebuild: { args: SqlRebuildArgs; result: SqlRebuildResult };
  dbt_models: { args: DbtModelsArgs; result: DbtModelsResult };
  k8s_resources: { args: InfraArgs; result: K8sResourcesResult };
  images: { args: InfraArgs; result: ImagesResult };
  kustomize: { args: InfraArgs; result: KustomizeResult };
  cross_repo: { args: CrossRepoArgs; result: CrossRepoResult };
  goroutine_spawns: { args: GoroutineSpawnsArgs; result: GoroutineSpawnsResult };
  channel_ops: { args: ChannelOpsArgs; result: ChannelOpsResult };
  unclosed_channels: { args: UnclosedChannelsArgs; result: UnclosedChannelsResult };
  race_writes: { args: RaceWritesArgs; result: RaceWritesResult };
  field_writers: { args: FieldWritersArgs; result: FieldWritersResult };
  unsafe_patterns: { args: UnsafePatternsArgs; result: UnsafePatternsResult };
  cgo_users: { args: InteropUsersArgs; result: InteropUsersResult };
  wasm_users: { args: InteropUsersArgs; result: InteropUsersResult };
  blame: { args: BlameArgs; result: BlameResult };
  ownership: { args: OwnershipArgs; result: OwnershipResult };
  stale_code: { args: StaleCodeArgs; result: StaleCodeResult };
  churn: { args: ChurnArgs; result: ChurnResult };
  fixes_history: { args: FixesHistoryArgs; result: FixesHistoryResult };
  releases: { args: ReleasesArgs; result: ReleasesResult };
  stale_flags: { args: StaleFlagsArgs; result: StaleFlagsResult };
  named: { args: NamedArgs; result: NamedResult };
  review: { args: ReviewArgs; result: ReviewResult };
  untested: { args: CoverageGapsArgs; result: CoverageGapsResult };
  kinds: { args: AnalyzeKindsArgs; result: AnalyzeKindsResult };
}

/** Name of an `analyze` kind. */
export type AnalyzeKind = keyof AnalyzeKindMap;

/** Arguments of `analyze`: `kind` plus that kind's own arguments. */
export type AnalyzeArgs = { [K in AnalyzeKind]: { kind: K } & AnalyzeKindMap[K]['args'] }[AnalyzeKind];

/** The answer of `analyze`: the answer of the kind that ran. */
export type AnalyzeResult = AnalyzeKindMap[AnalyzeKind]['result'];
