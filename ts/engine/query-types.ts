/**
 * Argument and result shapes of the 25 query tools `Engine.query` runs, mirroring the Rust
 * serde structs (`crates/gortex-graph/src/query/*.rs`, `crates/gortex-search/src/*.rs`; the
 * analysis tools' shapes live in `analysis-types.ts`) field for field: snake_case names, `?` where
 * Rust omits a field (`skip_serializing_if`) or where an argument is optional, enums as
 * string-literal unions. The `repo` option is not an argument of any tool here: pass it in
 * `Engine.query`'s options object.
 */
import type {
  AnalyzeArgs,
  AnalyzeResult,
  ExplainChangeImpactArgs,
  ExplainChangeImpactResult,
  FindClonesArgs,
  FindClonesResult,
  FlowBetweenArgs,
  FlowBetweenResult,
  GetCommunitiesArgs,
  GetCommunitiesResult,
  GetProcessesArgs,
  GetProcessesResult,
  TaintPathsArgs,
  TaintPathsResult,
} from './analysis-types';
import type { EdgeDirection } from './types';

// ---------------------------------------------------------------------------------------------
// Shared vocabulary
// ---------------------------------------------------------------------------------------------

/** What a graph node stands for. */
export type NodeKind =
  | 'file'
  | 'package'
  | 'module'
  | 'function'
  | 'method'
  | 'type'
  | 'interface'
  | 'field'
  | 'constant'
  | 'variable'
  | 'enum_member'
  | 'import'
  | 'doc'
  | 'stage'
  | 'script';

/** The shape of a `type` node: class, struct, enum, record, alias, union, annotation, proto message or service, SQL table or view, UI component. */
export type TypeFlavor =
  | 'class'
  | 'struct'
  | 'enum'
  | 'record'
  | 'type_alias'
  | 'union'
  | 'annotation'
  | 'message'
  | 'service'
  | 'table'
  | 'view'
  | 'component'
  | 'mixin';

/** What a graph edge says about its two ends. */
export type EdgeKind =
  | 'defines'
  | 'contains'
  | 'member_of'
  | 'imports'
  | 're_exports'
  | 'calls'
  | 'references'
  | 'instantiates'
  | 'extends'
  | 'implements'
  | 'overrides'
  | 'typed_as'
  | 'returns'
  | 'tests'
  | 'depends_on_module';

/** Provenance tier of an edge, strongest first (`lsp_resolved`) to weakest (`speculative`). */
export type Origin = 'lsp_resolved' | 'lsp_dispatch' | 'ast_resolved' | 'ast_inferred' | 'text_matched' | 'speculative';

/** A language gortex indexes (TSX is its own dialect): code, then documents and configuration. */
export type Language =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'kotlin'
  | 'php'
  | 'ruby'
  | 'vue'
  | 'svelte'
  | 'markdown'
  | 'json'
  | 'yaml'
  | 'toml'
  | 'dockerfile'
  | 'proto'
  | 'sql'
  | 'text'
  | 'lua'
  | 'bash'
  | 'elixir'
  | 'erlang'
  | 'elm'
  | 'dart'
  | 'haskell'
  | 'zig'
  | 'swift'
  | 'scala';

/** Documents and configuration: indexed for their text and structure, no call graph (the engine's `Language::is_code` is false). */
export const DOCUMENT_LANGUAGES: ReadonlySet<string> = new Set<Language>(['markdown', 'json', 'yaml', 'toml', 'dockerfile', 'proto', 'sql', 'text']);

/** Declared visibility of a symbol, normalised across languages. */
export type Visibility = 'public' | 'protected' | 'package' | 'private';

/** The role a test symbol plays. */
export type TestRole = 'test' | 'benchmark' | 'fuzz' | 'example' | 'fixture';

/** The test runner a test symbol belongs to. */
export type TestRunner =
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'node-test'
  | 'pytest'
  | 'unittest'
  | 'gotest'
  | 'cargo-test'
  | 'junit';

/** A list argument: one value, a comma-separated string (`"calls,references"`) or an array. */
export type OneOrMany<T extends string> = T | `${T},${string}` | readonly T[];

/** The compact description of a node that every query result uses. */
export interface NodeSummary {
  id: string;
  kind: NodeKind;
  name: string;
  /** `Owner.name`; the path for file nodes. */
  qualified: string;
  path: string;
  /** First line of the declaration (1-based); 0 for external stubs. */
  line: number;
  end_line: number;
  language?: Language;
  flavor?: TypeFlavor;
  signature?: string;
  /** Present (true) only for exported symbols. */
  exported?: boolean;
  /** Present (true) only for test symbols. */
  is_test?: boolean;
  /** Present (true) only for external stubs (modules or symbols outside the repository). */
  external?: boolean;
}

/** Reported when `min_tier` was given: rows it removed and the strongest tier the full answer had. */
export interface TierFiltered {
  edges_below_min_tier: number;
  max_available_tier?: Origin;
}

/** Tier bookkeeping flattened into every tiered result. */
export interface TierReport {
  /** Present exactly when `min_tier` was given. */
  tier_filtered?: TierFiltered;
  /** Name-only rows hidden by the default rule (pass `min_tier: "text_matched"` to see them); absent when 0. */
  name_only_suppressed?: number;
}

/** How far a thin answer ("nobody uses this") can be trusted. */
export type CaveatClass = 'none' | 'coverage_incomplete' | 'likely_unused' | 'possible_extraction_gap';

/** A warning attached to a result about one symbol (results omit it for class `none`). */
export interface Caveat {
  class: CaveatClass;
  message: string;
}

/** One edge as walk and path results show it: ids, kind, tier and site line. */
export interface EdgeRow {
  from: string;
  to: string;
  kind: EdgeKind;
  origin: Origin;
  line: number;
}

// ---------------------------------------------------------------------------------------------
// search_symbols
// ---------------------------------------------------------------------------------------------

/** Arguments of `search_symbols`. */
export interface SearchSymbolsArgs {
  /** Words, an identifier or `Owner.name`, optionally with `kind:`/`flavor:`/`lang:`/`path:` clauses. */
  query: string;
  /** Rows to return, 1..=1000 (default 20). */
  limit?: number;
  /** Hard cap on rows from one file, 1..=1000. */
  max_per_file?: number;
  /** A node kind or type flavor; comma-separated for several. */
  kind?: string;
  /** A type flavor (`class`, `struct`, …); comma-separated for several. */
  flavor?: string;
  /** A language or alias (`typescript`, `ts`, `py`, …); comma-separated for several. */
  lang?: string;
  /** Repository-relative path prefix. */
  path?: string;
  /** Path prefixes the result must fall under (any of them). */
  scope?: string[];
  /** Include test symbols (default true; they rank below implementations either way). */
  include_tests?: boolean;
  /** `code` (default), `docs` (Markdown sections only) or `all`. */
  corpus?: 'code' | 'docs' | 'all';
  /** `auto` (default: 4+ words that are not an identifier read as a sentence), `names` or `sentence`. */
  read_as?: 'auto' | 'names' | 'sentence';
}

/** How a `search_symbols` row was found. */
export type MatchTier = 'exact' | 'exact_case_insensitive' | 'ranked';

/** Names of the rerank signals a `search_symbols` score is the sum of. */
export type SearchSignal =
  | 'bm25'
  | 'definition_bias'
  | 'fan_in'
  | 'exported'
  | 'name_coverage'
  | 'path_proximity'
  | 'test'
  | 'diversity';

/** One `search_symbols` row: the symbol's summary plus its score and how it was earned. */
export interface SymbolHit extends NodeSummary {
  /** 100 for exact-name rows, otherwise the sum of `signals`. */
  score: number;
  tier: MatchTier;
  /** Weighted contributions to the score; `bm25` is always present, other signals only when non-zero. */
  signals: { bm25: number } & Partial<Record<SearchSignal, number>>;
  /** Indexed tokens of the symbol that matched query terms. */
  matched?: string[];
}

/** Result of `search_symbols`. */
export interface SearchSymbolsResult {
  results: SymbolHit[];
  /** Candidates that passed the filters, before `limit` and `max_per_file`. */
  total: number;
  truncated: boolean;
  /** Present (true) when the identifier had no match as a whole and was searched word by word. */
  decomposed?: boolean;
  /** Present (true) when some rows match the name exactly. */
  exact?: boolean;
  /** Query terms that matched nothing, not even fuzzily. */
  unmatched?: string[];
  /** `sentence` when the query was read as a sentence (doc comments weighed over names). */
  read_as?: 'sentence';
}

// ---------------------------------------------------------------------------------------------
// winnow_symbols
// ---------------------------------------------------------------------------------------------

/** Arguments of `winnow_symbols`; at least one of kind, lang, path_prefix, min_fan_in, min_fan_out, text_match or exported is required. */
export interface WinnowSymbolsArgs {
  /** Node kinds or type flavors, comma-separated (any may match). */
  kind?: string;
  /** Languages, comma-separated (`ts`, `py`, … aliases accepted). */
  lang?: string;
  /** Repository-relative path prefix. */
  path_prefix?: string;
  /** Keep symbols with at least this many incoming usage edges. */
  min_fan_in?: number;
  /** Keep symbols with at least this many outgoing usage edges. */
  min_fan_out?: number;
  /** Words the symbol must match (any of them), scored with BM25. */
  text_match?: string;
  /** Keep only exported (true) or only unexported (false) symbols. */
  exported?: boolean;
  /** Include test symbols (default true; demoted either way). */
  include_tests?: boolean;
  /** Rows to return, 1..=1000 (default 50). */
  limit?: number;
}

/** Axes a `winnow_symbols` score is the sum of. */
export type WinnowAxis = 'text' | 'fan_in' | 'fan_out' | 'test';

/** One `winnow_symbols` row: the symbol's summary plus its per-axis score. */
export interface WinnowHit extends NodeSummary {
  /** Sum of `axes`. */
  score: number;
  /** Non-zero axis contributions (`text` is kept whenever `text_match` was given). */
  axes: Partial<Record<WinnowAxis, number>>;
  fan_in: number;
  fan_out: number;
}

/** Result of `winnow_symbols`. */
export interface WinnowSymbolsResult {
  results: WinnowHit[];
  /** Symbols passing every constraint, before `limit`. */
  total: number;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// search_text
// ---------------------------------------------------------------------------------------------

/** Arguments of `search_text`. */
export interface SearchTextArgs {
  /** Literal text, or a regular expression when `regexp` is true. */
  query: string;
  /** Treat `query` as a Rust-syntax regular expression (default false). */
  regexp?: boolean;
  /** Match case exactly (default true). */
  case_sensitive?: boolean;
  /** A glob (`*.go`; `*` stays in one directory, `**` crosses them) or a plain path prefix (`src/compiler/`). */
  path?: string;
  /** Maximum hits, 1..=1000 (default 100). */
  limit?: number;
  /** Characters kept on each side of the match, 0..=1000; without it long lines are cut at 240. */
  context_chars?: number;
}

/** One matching line of `search_text`. */
export interface TextHit {
  path: string;
  /** 1-based line of the match start. */
  line: number;
  /** 1-based byte column of the match start. */
  column: number;
  /** The line without its newline, cut around the match (marked with `…`) when long. */
  text: string;
  /** Innermost graph symbol holding the line (the file node when none does). */
  symbol_id?: string;
  symbol_name?: string;
}

/** Result of `search_text`. */
export interface SearchTextResult {
  hits: TextHit[];
  /** Matching lines found; a lower bound when `truncated`. */
  total_hits: number;
  truncated: boolean;
  /** Files with at least one hit among those scanned. */
  files_matched: number;
  /** Files left after the trigram prefilter and the path filter. */
  candidate_files: number;
  /** Documents in the text index. */
  docs: number;
  /** Candidate files that could not be read back from disk; absent when 0. */
  unreadable_files?: number;
}

// ---------------------------------------------------------------------------------------------
// find_files
// ---------------------------------------------------------------------------------------------

/** Arguments of `find_files`; `query` and/or `glob` is required. */
export interface FindFilesArgs {
  /** A basename or path fragment. */
  query?: string;
  /** A glob such as `*_test.go` (one with `/` matches the whole path, where `**` crosses directories). */
  glob?: string;
  /** Also match the query as a subsequence of the path (default false). */
  fuzzy?: boolean;
  /** Repository-relative path prefix. */
  path?: string;
  /** Rows to return, 1..=1000 (default 50). */
  limit?: number;
}

/** How a file matched `find_files`, best first. */
export type FileMatch =
  | 'exact_basename'
  | 'exact_path'
  | 'basename_prefix'
  | 'path_prefix'
  | 'basename_substring'
  | 'path_substring'
  | 'fuzzy'
  | 'glob';

/** One `find_files` row. */
export interface FileHit {
  /** The file node id. */
  id: string;
  path: string;
  language?: Language;
  match: FileMatch;
  /** Score of the match class (100 exact basename … 10 glob only). */
  score: number;
  /** Symbols declared in the file. */
  symbols: number;
}

/** Result of `find_files`. */
export interface FindFilesResult {
  results: FileHit[];
  /** Files that matched, before `limit`. */
  total: number;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// find_declaration
// ---------------------------------------------------------------------------------------------

/** Arguments of `find_declaration`. */
export interface FindDeclarationArgs {
  /** A use-site fragment such as `fooBar(` or `.save(` (case-sensitive). */
  query: string;
  /** Treat `query` as a regular expression (note: `regex`, where `search_text` says `regexp`). */
  regex?: boolean;
  /** Only search use sites in these files: a path prefix or a glob. */
  path_prefix?: string;
  /** Only declarations of this node kind. */
  kind?: NodeKind;
  /** Maximum declarations, 1..=1000 (default 50). */
  limit?: number;
}

/** A use site found by `find_declaration` (resolved or not). */
export interface UseSite {
  path: string;
  line: number;
  /** 1-based byte column of the match start. */
  column: number;
  text: string;
  /** The identifier taken from the site (on unresolved uses). */
  identifier?: string;
  /** How the use was tied to its declaration (on declaration uses). */
  origin?: Origin;
}

/** A declaration and the use sites that lead to it. */
export interface Declaration {
  node: NodeSummary;
  /** Strongest tier among its uses (`ast_resolved` when the only site is its own declaration line). */
  origin: Origin;
  /** Uses tied to it by a resolved edge. */
  resolved_uses: number;
  uses?: UseSite[];
  /** Present (true) when the query matched the declaration's own line. */
  matched_declaration?: boolean;
}

/** Result of `find_declaration`. */
export interface FindDeclarationResult {
  declarations: Declaration[];
  /** Sites that mapped to no declaration (of the requested kind). */
  unresolved_uses?: UseSite[];
  /** Matching lines examined. */
  use_sites: number;
  /** More than `limit` declarations, or more use sites than are examined. */
  truncated: boolean;
  /** Files left after the trigram prefilter and the path filter. */
  candidate_files: number;
}

// ---------------------------------------------------------------------------------------------
// get_symbol / get_file_summary
// ---------------------------------------------------------------------------------------------

/** Arguments of `get_symbol`. */
export interface GetSymbolArgs {
  /** Node id, file path, qualified or bare name. */
  id: string;
}

/** Result of `get_symbol`: one node in full, with its owner and edge counts. */
export interface GetSymbolResult {
  symbol: NodeSummary;
  doc?: string;
  visibility?: Visibility;
  decorators?: string[];
  type_name?: string;
  return_type?: string;
  /** Present (true) only for async functions. */
  is_async?: boolean;
  /** Present (true) only for static members. */
  is_static?: boolean;
  /** Present (true) only for abstract members. */
  is_abstract?: boolean;
  test_role?: TestRole;
  test_runner?: TestRunner;
  /** The enclosing symbol (`contains` parent, or the type a detached method belongs to). */
  parent?: NodeSummary;
  /** Incoming edges by kind; absent when there are none. */
  edges_in?: Partial<Record<EdgeKind, number>>;
  /** Outgoing edges by kind; absent when there are none. */
  edges_out?: Partial<Record<EdgeKind, number>>;
  /** References made from the node that the resolver could not bind; absent when 0. */
  unresolved_out?: number;
}

/** Arguments of `get_file_summary`. */
export interface GetFileSummaryArgs {
  /** Repository-relative path or file node id. */
  path: string;
  /** Most symbols listed, 1..=1000 (default 200). */
  limit?: number;
}

/** A symbol of the summarised file, in source order. */
export interface FileSymbol {
  symbol: NodeSummary;
  /** Id of the enclosing symbol, when nested. */
  parent?: string;
  /** Nesting depth (0 = top level). */
  depth: number;
}

/** How an import statement resolved. */
export type ImportStatus = 'resolved' | 'external' | 'unresolved';

/** One import statement of a file (grouped by line, kind and module). */
export interface FileImport {
  line: number;
  /** `imports` or `re_exports`. */
  kind: EdgeKind;
  /** The target file's path, package name, external module, or the specifier as written when unresolved. */
  module: string;
  /** Id of the target file, package or external module stub. */
  target?: string;
  /** Ids of the symbols the statement binds, when they resolved. */
  symbols?: string[];
  status: ImportStatus;
  /** Strongest origin of the statement's edges (absent when unresolved). */
  origin?: Origin;
}

/** Counts over the whole file (not cut by `limit`). */
export interface FileCounts {
  symbols: number;
  by_kind: Partial<Record<NodeKind, number>>;
  imports: number;
  unresolved_imports: number;
  /** Files (and packages) that import this file. */
  imported_by: number;
}

/** Result of `get_file_summary`: a file's symbols (with nesting), its imports and counts. */
export interface GetFileSummaryResult {
  file: NodeSummary;
  symbols: FileSymbol[];
  imports: FileImport[];
  counts: FileCounts;
  /** Present (true) when `limit` cut the symbol list. */
  truncated?: boolean;
}

// ---------------------------------------------------------------------------------------------
// get_dependencies / get_dependents
// ---------------------------------------------------------------------------------------------

/** Arguments of `get_dependencies`. */
export interface GetDependenciesArgs {
  /** Symbol id or name, or a file path / file id for file-level dependencies. */
  id: string;
  /** Levels to walk, 1..=3 (default 1). */
  depth?: number;
  /** Edge kinds to follow: calls, instantiates, references, extends, implements, typed_as, returns, tests, imports, re_exports (default all but tests). */
  kinds?: OneOrMany<EdgeKind>;
  /** Most rows returned, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
  /** Keep tests and test files (default true). */
  include_tests?: boolean;
}

/** Arguments of `get_dependents` (the same as `get_dependencies`, walking the other way). */
export type GetDependentsArgs = GetDependenciesArgs;

/** One dependency or dependent. */
export interface DependencyRow {
  node: NodeSummary;
  /** Levels from the target (1 = direct). */
  depth: number;
  /** Edge kinds linking it at its level, sorted. */
  kinds: EdgeKind[];
  /** Strongest origin among those edges. */
  origin: Origin;
  /** First site line (in the using file). */
  line: number;
  /** Id of the previous-level node it was reached from, when that is not the target (depth > 1). */
  via?: string;
}

/** Whether a dependency walk ran over symbols or over files. */
export type DependencyMode = 'symbol' | 'file';

/** Result of `get_dependencies`: what the target depends on. */
export interface GetDependenciesResult extends TierReport {
  target: NodeSummary;
  mode: DependencyMode;
  dependencies: DependencyRow[];
  /** Rows per depth before `limit` (JSON object keys are the depths). */
  by_depth: Record<number, number>;
  total: number;
  truncated: boolean;
}

/** Result of `get_dependents`: what depends on the target (its blast radius). */
export interface GetDependentsResult extends TierReport {
  target: NodeSummary;
  mode: DependencyMode;
  dependents: DependencyRow[];
  /** Rows per depth before `limit` (JSON object keys are the depths). */
  by_depth: Record<number, number>;
  total: number;
  truncated: boolean;
  /** Symbol mode only: how far "nothing depends on it" can be trusted. */
  caveat?: Caveat;
}

// ---------------------------------------------------------------------------------------------
// get_callers / get_call_chain
// ---------------------------------------------------------------------------------------------

/** Arguments of `get_callers`. */
export interface GetCallersArgs {
  /** Node id, qualified or bare name of the callee. */
  id: string;
  /** Caller levels to walk, 1..=5 (default 1). */
  depth?: number;
  /** Most rows returned, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
  /** Keep callers that are tests or live in test files (default true). */
  include_tests?: boolean;
}

/** One caller of the target. */
export interface CallerRow {
  caller: NodeSummary;
  /** `calls` or `instantiates` (the strongest edge to the callee). */
  kind: EdgeKind;
  origin: Origin;
  /** File of the call sites. */
  path: string;
  /** Call-site lines in that file, ascending. */
  lines: number[];
  /** Levels from the target (1 = calls it directly). */
  depth: number;
  /** Id of the node this caller calls, when it is not the target (depth > 1). */
  callee?: string;
}

/** Result of `get_callers`: callers of a symbol, nearest first. */
export interface GetCallersResult extends TierReport {
  target: NodeSummary;
  callers: CallerRow[];
  /** Rows before `limit`. */
  total: number;
  truncated: boolean;
  caveat?: Caveat;
}

/** Arguments of `get_call_chain`. */
export interface GetCallChainArgs {
  /** Node id, qualified or bare name of the root caller. */
  id: string;
  /** Call levels to walk, 1..=6 (default 3). */
  depth?: number;
  /** Most call rows (and, separately, unresolved rows) returned, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** A node of the call chain and its distance from the root. */
export interface ChainNode {
  node: NodeSummary;
  /** Calls from the root (0 = the root). */
  depth: number;
}

/** One caller → callee pair of the call chain (several call sites collapse into one row). */
export interface ChainCall {
  from: string;
  to: string;
  /** `calls` or `instantiates` (the strongest edge of the pair). */
  kind: EdgeKind;
  origin: Origin;
  /** Depth of `to` along this edge. */
  depth: number;
  /** First call-site line. */
  line: number;
}

/** A call inside the chain that the resolver could not bind. */
export interface ChainUnresolved {
  from: string;
  /** `unresolved::name` or `unresolved::*.name`. */
  target: string;
  line: number;
  /** Same-named candidates in the repository (0 = none, >1 = ambiguous). */
  candidates: number;
}

/** Result of `get_call_chain`: the forward call graph below a symbol. */
export interface GetCallChainResult extends TierReport {
  root: NodeSummary;
  /** The root and every node named by a returned call, by depth then id. */
  nodes: ChainNode[];
  calls: ChainCall[];
  unresolved?: ChainUnresolved[];
  /** Call rows before `limit`. */
  total: number;
  /** Unresolved rows before `limit`; absent when 0. */
  unresolved_total?: number;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// find_usages
// ---------------------------------------------------------------------------------------------

/** The role a reference plays at its use site. */
export type UsageContext = 'call' | 'parameter_type' | 'field' | 'type' | 'return_type' | 'value' | 'import';

/** Arguments of `find_usages`. */
export interface FindUsagesArgs {
  /** Node id, qualified or bare name. */
  id: string;
  /** Keep only these contexts. */
  context?: OneOrMany<UsageContext>;
  /** Most rows returned, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
  /** Keep usages from tests and test files (default true). */
  include_tests?: boolean;
}

/** One use site of the target. */
export interface UsageRow {
  /** The using symbol (the file node for module-level code and imports). */
  from: NodeSummary;
  kind: EdgeKind;
  context: UsageContext;
  origin: Origin;
  path: string;
  line: number;
}

/** Result of `find_usages`: every reference to a symbol, by file and line. */
export interface FindUsagesResult extends TierReport {
  target: NodeSummary;
  usages: UsageRow[];
  /** Rows per context before `limit`. */
  by_context: Partial<Record<UsageContext, number>>;
  total: number;
  truncated: boolean;
  caveat?: Caveat;
}

// ---------------------------------------------------------------------------------------------
// find_implementations / find_overrides / get_class_hierarchy
// ---------------------------------------------------------------------------------------------

/** Arguments of `find_implementations`. */
export interface FindImplementationsArgs {
  /** Id or name of an interface (or of a type used as one). */
  id: string;
  /** Most rows returned, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** A type implementing the target interface. */
export interface ImplementationRow {
  node: NodeSummary;
  /** Id of the interface it names in its declaration (the target, or a sub-interface of it). */
  implements: string;
  /** `implements` or `extends`. */
  kind: EdgeKind;
  /** Weakest origin on the path from the target. */
  origin: Origin;
  /** Line of the `implements` clause. */
  line: number;
  /** Hops from the target (1 = implements it directly). */
  depth: number;
}

/** An interface extending the target, walked to find indirect implementations. */
export interface SubInterfaceRow {
  node: NodeSummary;
  /** Id of the interface it extends. */
  extends: string;
  origin: Origin;
  depth: number;
}

/** Result of `find_implementations`. */
export interface FindImplementationsResult extends TierReport {
  target: NodeSummary;
  implementations: ImplementationRow[];
  sub_interfaces?: SubInterfaceRow[];
  total: number;
  truncated: boolean;
}

/** Arguments of `find_overrides`. */
export interface FindOverridesArgs {
  /** Id or name of a method. */
  id: string;
  /** `parents` (what it overrides), `children` (what overrides it) or `both` (default). */
  direction?: 'parents' | 'children' | 'both';
  /** Most rows per list, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest tier kept (of the `extends`/`implements` edges on the path). */
  min_tier?: Origin;
}

/** A method related to the target by overriding. */
export interface OverrideRow {
  method: NodeSummary;
  owner: NodeSummary;
  /** Inheritance hops between the owners (1 = direct supertype/subtype). */
  depth: number;
  /** Weakest `extends`/`implements` origin on the path. */
  origin: Origin;
}

/** Result of `find_overrides`: methods the target overrides (`parents`) and that override it (`children`). */
export interface FindOverridesResult extends TierReport {
  target: NodeSummary;
  /** The type owning the target; absent when unknown. */
  owner?: NodeSummary;
  parents: OverrideRow[];
  children: OverrideRow[];
  truncated: boolean;
}

/** Arguments of `get_class_hierarchy`. */
export interface GetClassHierarchyArgs {
  /** Id or name of a type, interface or method. */
  id: string;
  /** `up` (supertypes), `down` (subtypes) or `both` (default). */
  direction?: 'up' | 'down' | 'both';
  /** Inheritance hops, 1..=10 (default 5). */
  depth?: number;
  /** List each type's methods with the methods they override (types only; default false). */
  include_methods?: boolean;
  /** Most nodes besides the root, 1..=1000 (default 50). */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
}

/** Where a hierarchy node sits relative to the root. */
export type HierarchySide = 'root' | 'up' | 'down';

/** A method of a hierarchy type and the nearest supertype methods it overrides. */
export interface HierarchyMethod {
  id: string;
  name: string;
  line: number;
  overrides?: string[];
}

/** A node of the hierarchy subgraph. */
export interface HierarchyNode {
  node: NodeSummary;
  side: HierarchySide;
  /** Hops from the root. */
  depth: number;
  /** Present with `include_methods` (type roots only). */
  methods?: HierarchyMethod[];
}

/** An edge of the hierarchy subgraph (`extends`, `implements`, or derived `overrides`). */
export interface HierarchyEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  origin: Origin;
  line: number;
}

/** Result of `get_class_hierarchy`: the inheritance subgraph around a type, or a method's override chain. */
export interface GetClassHierarchyResult extends TierReport {
  root: NodeSummary;
  /** The root first, then supertypes, then subtypes, each by depth then id. */
  nodes: HierarchyNode[];
  edges: HierarchyEdge[];
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// get_cluster
// ---------------------------------------------------------------------------------------------

/** Arguments of `get_cluster`. */
export interface GetClusterArgs {
  /** Node id, qualified or bare name. */
  id: string;
  /** Hops in either direction, 1..=3 (default 1). */
  depth?: number;
  /** Most nodes besides the centre, 1..=1000 (default 50); edges are capped at ten times this. */
  limit?: number;
  /** Weakest provenance tier kept. */
  min_tier?: Origin;
  /** Keep tests and test files (default true). */
  include_tests?: boolean;
}

/** A node of the usage neighbourhood. */
export interface ClusterNode {
  node: NodeSummary;
  /** Hops from the centre (0 = the centre). */
  depth: number;
}

/** A usage edge between two listed nodes (several sites collapse into one). */
export interface ClusterEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  origin: Origin;
  /** First site line. */
  line: number;
}

/** Result of `get_cluster`: the usage neighbourhood of a node. */
export interface GetClusterResult extends TierReport {
  center: NodeSummary;
  /** The centre first, then by depth and id. */
  nodes: ClusterNode[];
  /** Edges whose both ends are listed, by from, to and kind. */
  edges: ClusterEdge[];
  /** Nodes reached before `limit` (besides the centre). */
  total: number;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// walk_graph
// ---------------------------------------------------------------------------------------------

/** Arguments of `walk_graph`. */
export interface WalkGraphArgs {
  /** Start node: an id (with or without the `<repo>/` prefix), a file path, or a name matching one symbol. */
  id: string;
  /** Edge kinds to follow (default every usage kind). */
  edge_kinds?: OneOrMany<EdgeKind>;
  /** `out` (default), `in` or `both`. */
  direction?: EdgeDirection;
  /** Hops from the start, 1..=10 (default 3). */
  max_depth?: number;
  /** Estimated tokens the result may take, 100..=100000 (default 4000). */
  token_budget?: number;
  /** Most nodes returned, 1..=5000 (default 200). */
  limit?: number;
  /** Weakest tier followed (`speculative` edges only when asked for). */
  min_tier?: Origin;
}

/** A node visited by `walk_graph`: its summary and its distance from the start. */
export interface WalkNode extends NodeSummary {
  depth: number;
}

/** Result of `walk_graph`. */
export interface WalkGraphResult {
  /** Id of the start node (also the first row of `nodes`, at depth 0). */
  start: string;
  direction: EdgeDirection;
  edge_kinds: EdgeKind[];
  /** Visited nodes in breadth-first order. */
  nodes: WalkNode[];
  /** Followed edges in the order they were met, in their real direction. */
  edges: EdgeRow[];
  /** The next row would have exceeded `token_budget`. */
  budget_hit: boolean;
  /** `limit` nodes were reached before the walk finished. */
  truncated: boolean;
  /** Depth of the first node or edge left out when the walk stopped early. */
  stopped_at_depth?: number;
  /** Deepest depth among returned nodes. */
  depth_reached: number;
  /** Estimated tokens of the returned rows. */
  tokens_used: number;
}

// ---------------------------------------------------------------------------------------------
// graph_query
// ---------------------------------------------------------------------------------------------

/** Arguments of `graph_query`. */
export interface GraphQueryArgs {
  /** The pipeline, e.g. `nodes kind=function name~parse | traverse calls out`. */
  query: string;
  /** Most nodes returned, 1..=1000 (default 100). */
  limit?: number;
}

/** Keys a `graph_query` filter may test. */
export type GraphFilterKey = 'kind' | 'name' | 'path' | 'lang' | 'flavor' | 'exported' | 'test' | 'id';

/** Keys a `graph_query` sort stage may order by. */
export type GraphSortKey = 'name' | 'path' | 'id' | 'fan_in' | 'fan_out';

/** One parsed `graph_query` filter: key, operator and value. */
export interface FilterPlan {
  key: GraphFilterKey;
  op: '=' | '!=' | '~';
  value: string;
}

/** A parsed `nodes` stage: every node matching all filters. */
export interface NodesStageOp {
  op: 'nodes';
  filters: FilterPlan[];
}

/** A parsed `traverse` stage: neighbours of the set over `edge_kinds`, within `depth` hops. */
export interface TraverseStageOp {
  op: 'traverse';
  edge_kinds: EdgeKind[];
  direction: EdgeDirection;
  depth: number;
  min_tier?: Origin;
}

/** A parsed `filter` stage: keeps nodes matching all filters. */
export interface FilterStageOp {
  op: 'filter';
  filters: FilterPlan[];
}

/** A parsed `sort` stage: reorders the set. */
export interface SortStageOp {
  op: 'sort';
  by: GraphSortKey;
  order: 'asc' | 'desc';
}

/** A parsed `limit` stage: keeps the first `n` nodes. */
export interface LimitStageOp {
  op: 'limit';
  n: number;
}

/** A parsed `graph_query` stage, tagged by `op`. */
export type StageOp = NodesStageOp | TraverseStageOp | FilterStageOp | SortStageOp | LimitStageOp;

/** One stage of the parsed plan (its op fields flattened in) and the set size it produced. */
export type StagePlan = {
  /** 1-based position in the pipeline. */
  stage: number;
  /** Set size after this stage. */
  size: number;
} & StageOp;

/** Result of `graph_query`. */
export interface GraphQueryResult {
  /** The final set in pipeline order (by id unless a `sort` stage says otherwise). */
  nodes: NodeSummary[];
  /** Size of the final set before `limit`. */
  count: number;
  /** `count` exceeded `limit`. */
  truncated: boolean;
  /** The parsed plan, with the set size after each stage. */
  stages: StagePlan[];
}

// ---------------------------------------------------------------------------------------------
// trace_path / find_import_path
// ---------------------------------------------------------------------------------------------

/** Arguments of `trace_path`. */
export interface TracePathArgs {
  /** Start node: an id, a file path, or a name matching exactly one symbol. */
  from: string;
  /** Target node, same forms as `from`. */
  to: string;
  /** Most hops, 1..=12 (default 6). */
  max_depth?: number;
  /** Most paths returned, 1..=20 (default 3). */
  limit?: number;
  /** Edge kinds a hop may use (default `calls,instantiates`). */
  edge_kinds?: OneOrMany<EdgeKind>;
  /** Weakest tier a hop may have (`speculative` hops only when asked for). */
  min_tier?: Origin;
}

/** One traced path: its hops in order and the product of their tier scores. */
export interface TracedPath {
  hops: EdgeRow[];
  /** Product of per-hop tier scores (lsp_resolved 1.0 … speculative 0.2), rounded to 4 decimals. */
  confidence: number;
}

/** An unresolved reference named like the `trace_path` target: a likely resolution gap. */
export interface UnresolvedHint {
  from: string;
  kind: EdgeKind;
  target: string;
  line: number;
  /** Same-named candidates the resolver saw (>1: ambiguous). */
  candidates: number;
}

/** What the graph says about a missing `trace_path` path. */
export interface TraceDiagnosis {
  /** The findings in one paragraph. */
  message: string;
  /** Edges of the requested kinds (and tiers) leaving `from`. */
  from_outgoing: number;
  /** Edges of the requested kinds (and tiers) entering `to`. */
  to_incoming: number;
  /** Nodes reachable from `from` within `max_depth` (excluding `from`). */
  reachable: number;
  /** The search ran out of depth while unexplored edges remained. */
  depth_limited: boolean;
  /** Hops of the shortest path from `to` back to `from`, when there is one. */
  reverse_hops?: number;
  /** Hops of the shortest path when edge direction is ignored. */
  undirected_hops?: number;
  /** Hops of the shortest path when `references` edges may be used too. */
  with_references_hops?: number;
  /** Hops of the shortest path without `min_tier` (only checked when it was given). */
  ignoring_min_tier_hops?: number;
  /** Unresolved references from reachable nodes that name `to`. */
  unresolved?: UnresolvedHint[];
}

/** Result of `trace_path`: shortest paths between two symbols, or a diagnosis when there is none. */
export interface TracePathResult {
  from: NodeSummary;
  to: NodeSummary;
  edge_kinds: EdgeKind[];
  /** Shortest paths, most confident first; absent when none was found. */
  paths?: TracedPath[];
  /** Hops of the shortest paths. */
  length?: number;
  /** How many shortest paths exist (counting stops at 256); absent when 0. */
  shortest_paths?: number;
  /** More shortest paths exist than were returned. */
  truncated: boolean;
  /** Why no path was found; absent when `paths` is present. */
  diagnosis?: TraceDiagnosis;
}

/** Arguments of `find_import_path`. */
export interface FindImportPathArgs {
  /** Importing file: a repository-relative path, a file id, or a symbol id (meaning its file). */
  from: string;
  /** Imported file, same forms as `from`. */
  to: string;
  /** Most import hops, 1..=16 (default 8). */
  max_depth?: number;
}

/** One import statement on an import chain. */
export interface ImportHop {
  from: string;
  to: string;
  /** `imports` or `re_exports`. */
  kind: EdgeKind;
  /** Line of the import statement in `from`. */
  line: number;
}

/** An import the resolver could not bind. */
export interface UnresolvedImport {
  /** Path of the importing file. */
  file: string;
  /** The module as written. */
  module: string;
  line: number;
}

/** What the graph says about a missing import chain. */
export interface ImportDiagnosis {
  /** The findings in one paragraph. */
  message: string;
  /** Distinct repository files `from` imports directly. */
  from_imports: number;
  /** Distinct repository files importing `to` directly. */
  to_importers: number;
  /** Files reachable from `from` over imports within `max_depth` (excluding `from`). */
  reachable: number;
  /** The search ran out of depth while unexplored imports remained. */
  depth_limited: boolean;
  /** Hops of the shortest chain from `to` back to `from`, when there is one. */
  reverse_hops?: number;
  /** Unresolved imports in reachable files whose module name looks like `to`. */
  unresolved_imports?: UnresolvedImport[];
}

/** Result of `find_import_path`: the shortest import chain from one file to another. */
export interface FindImportPathResult {
  /** Path of the importing file. */
  from: string;
  /** Path of the imported file. */
  to: string;
  /** File paths from `from` to `to`; absent when there is no chain. */
  path?: string[];
  /** One row per import statement followed; absent when there is no chain. */
  hops?: ImportHop[];
  /** Why no chain was found; absent when `path` is present. */
  diagnosis?: ImportDiagnosis;
}

// ---------------------------------------------------------------------------------------------
// Tool map
// ---------------------------------------------------------------------------------------------

/** Every query tool `Engine.query` accepts, with its argument and result shapes. */
export interface QueryToolMap {
  search_symbols: { args: SearchSymbolsArgs; result: SearchSymbolsResult };
  winnow_symbols: { args: WinnowSymbolsArgs; result: WinnowSymbolsResult };
  search_text: { args: SearchTextArgs; result: SearchTextResult };
  find_files: { args: FindFilesArgs; result: FindFilesResult };
  find_declaration: { args: FindDeclarationArgs; result: FindDeclarationResult };
  get_symbol: { args: GetSymbolArgs; result: GetSymbolResult };
  get_file_summary: { args: GetFileSummaryArgs; result: GetFileSummaryResult };
  get_dependencies: { args: GetDependenciesArgs; result: GetDependenciesResult };
  get_dependents: { args: GetDependentsArgs; result: GetDependentsResult };
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
  analyze: { args: AnalyzeArgs; result: AnalyzeResult };
}

/** Name of a query tool `Engine.query` accepts. */
export type QueryToolName = keyof QueryToolMap;
