/**
 * Wire shapes the native addon returns as JSON strings. Field names are the Rust side's
 * (snake_case) on purpose: these objects are passed through to `--json` output unchanged.
 */

/** Phases of one index pass, in order. */
export type IndexPhase = 'walk' | 'load' | 'parse' | 'resolve' | 'save';

/** How an index pass ran: from scratch, by re-parsing changed files, or not at all. */
export type IndexMode = 'cold' | 'incremental' | 'unchanged';

/** One progress tick of an index pass (`done` of `total` units of `phase`). */
export interface ProgressEvent {
  phase: IndexPhase;
  done: number;
  total: number;
}

/** A file the walker or parser left out on purpose (binary, too large, minified, ...). */
export interface SkippedFile {
  path: string;
  reason: string;
  detail?: string;
}

/** A file whose parse or extraction failed; the rest of the index is still valid. */
export interface ParseFailure {
  path: string;
  error: string;
}

/** Per-language file count and byte size. */
export interface LanguageCount {
  files: number;
  bytes: number;
}

/** The result of `Engine.indexRepo`. */
export interface IndexReport {
  repo: string;
  root: string;
  mode: IndexMode;
  snapshot: {
    path: string;
    loaded: boolean;
    rebuilt_reason: string | null;
    bytes: number;
  };
  /** `resolved`: files whose references were resolved this pass (the rest reused earlier resolutions). */
  files: { total: number; parsed: number; reused: number; deleted: number; resolved: number };
  languages: Record<string, LanguageCount>;
  nodes: { total: number; by_kind: Record<string, number> };
  edges: {
    total: number;
    by_kind: Record<string, number>;
    by_origin: Record<string, number>;
    unresolved: number;
  };
  skipped: SkippedFile[];
  skipped_by_reason: Record<string, number>;
  failures: ParseFailure[];
  wall_ms: number;
  phases_ms: Record<string, number>;
  /** How the graph was put together: `assembled` from scratch, `patched` in place, `shifted` (renumbered, then patched); empty when none was built. */
  graph_layout: '' | 'assembled' | 'patched' | 'shifted' | 'carried';
  /** How the resolver's lookup tables were made: `built`, `kept` (no interface changed) or `patched` (the changed files' entries replaced); empty when no graph was built. */
  lookup_tables: '' | 'built' | 'kept' | 'patched' | 'unneeded';
  threads: number;
}

/** Files on disk that differ from the indexed snapshot (repo-relative paths). */
export interface StaleFiles {
  modified: string[];
  added: string[];
  deleted: string[];
}

/** The result of `Engine.status`: what is indexed and whether it still matches the disk. */
export interface StatusReport {
  repo: string;
  root: string;
  indexed: boolean;
  snapshot_path: string;
  /** Why an existing snapshot could not be read (corrupt, old version), else null. */
  snapshot_error: string | null;
  indexed_at_ms: number | null;
  files: number;
  languages: Record<string, LanguageCount>;
  /** Graph sizes, when the native side reports them. */
  nodes?: number;
  edges?: number;
  fresh: boolean;
  stale: StaleFiles;
  skipped: SkippedFile[];
  skipped_by_reason: Record<string, number>;
  failures: ParseFailure[];
}

/** One repository loaded in an engine (`Engine.repos`). */
export interface RepoSummary {
  name: string;
  root: string;
  files: number;
  nodes: number;
  edges: number;
  indexed_at_ms: number | null;
  snapshot_path: string;
  /** Built from part of the pass that is opening the repository (see `Engine.provisional`). */
  provisional: boolean;
}

/**
 * `Engine.provisional`: what a repository being opened can answer with so far. `files` of
 * `total` source files are in the provisional index (`read` have been read by the pass).
 */
export type ProvisionalStatus =
  | {
      available: true;
      files: number;
      read: number;
      total: number;
      /** The pass has read everything and is resolving: the complete index is close. */
      parsed_all: boolean;
      nodes: number;
      edges: number;
      indexed_at_ms: number;
      /** This call built the first provisional index (taking `build_ms`); later ones are served at once. */
      rebuilt: boolean;
      build_ms: number;
      /** A fresher provisional index is being built in the background and will replace this one. */
      refreshing: boolean;
    }
  | {
      available: false;
      /** `not_warming` (no opening pass), `walking`, `parsing` (nothing read yet), `resolving` (everything read, nothing built) or `ready`. */
      reason: 'not_warming' | 'walking' | 'parsing' | 'resolving' | 'ready';
      read?: number;
      total?: number;
    };

/** Graph counts for one repository (`Engine.stats`). */
export interface GraphStats extends RepoSummary {
  nodes_by_kind: Record<string, number>;
  edges_by_kind: Record<string, number>;
  edges_by_origin: Record<string, number>;
  /** Nodes per language (externals and packages, which have none, left out). */
  nodes_by_language: Record<string, number>;
  /** Edges whose provenance tier changed while their identity (ends, kind, line) stayed, since the index was opened. */
  edge_identity_revisions: number;
  unresolved: number;
  /** Memory of the lazily built search indexes (null until the first query that builds one). */
  search_memory: {
    symbols_bytes: number | null;
    text_bytes: number | null;
    text_docs: number | null;
    /** The clone index (signatures and shingle sets of every function body), once built. */
    clones_bytes: number | null;
    clones_bodies: number | null;
    /** The body index behind `search_symbols` `read_as: "body"` (word counts and postings), once built. */
    bodies_bytes: number | null;
  };
}

/** Heap bytes of one repository's index per structure (`Engine.memoryReport`; estimates that follow the allocations). */
export interface MemoryReport {
  graph: {
    node_table: number;
    node_strings: number;
    edges: number;
    adjacency: number;
    unresolved: number;
    lookup_maps: number;
    facts: { files: number; symbols: number; refs: number; bindings: number; imports: number };
  };
  file_records: number;
  /** Per-file resolutions kept for the next build, per part. */
  resolutions: { paths: number; edges: number; external: number; unresolved: number; deps: number; derived: number };
  /** Whether the resolver's lookup tables are held for the next edit (not sized). */
  lookup_tables_held: boolean;
  search: GraphStats['search_memory'];
  /** Everything sized above. */
  total: number;
}

/** What the walker would index under a folder (`Engine.survey`). */
export interface TreeSurvey {
  files: number;
  bytes: number;
}

/** One `external::…` stub of a graph and the references that reach it (`Engine.externalRefs`). */
export interface ExternalRef {
  id: string;
  /** What it names outside the repository: `<module>[.<member>]`, `<crate>::<path>`, … */
  target: string;
  kind: string;
  refs: { from: string; from_name: string; from_kind: string; path: string; kind: string; origin: string; line: number }[];
}

/** Which nodes `Engine.graphDump` may keep (every list empty or absent: no narrowing). */
export interface GraphFilter {
  /** Node kinds (`function`, `type`, …). */
  kinds?: string[];
  /** Languages as the graph names them (`go`, `typescript`, …); stubs have none. */
  languages?: string[];
  /** Repository-relative path prefixes. */
  paths?: string[];
  /** Give each node its Leiden community (`community`) and the dump `community_labels`. */
  communities?: boolean;
  /** One edge per (from, to, kind) with `count` sites, instead of one per site. */
  collapse_edges?: boolean;
}

/** `Engine.graphDump`: the graph in brief, for viewers. */
export interface GraphDump {
  repo: string;
  root: string;
  total_nodes: number;
  total_edges: number;
  /** True when nodes (and the edges touching them) were left out by the cap. */
  truncated: boolean;
  /** Nodes the filter admitted, before the cap. */
  matched: number;
  /** Labels of the kept nodes' communities (with `filter.communities`). */
  community_labels?: Record<string, string>;
  /** `degree`: edges in and out (the best-connected nodes are kept under a cap). */
  nodes: { id: string; kind: string; name: string; file_path: string; start_line: number; end_line: number; language: string | null; repo_prefix: string; degree: number; community?: number }[];
  /** One per (from, to, kind): `origin` the strongest of its sites, `count` how many sites, `via` when every site is a synthesized framework dispatch. */
  edges: { from: string; to: string; kind: string; origin: string; count: number; via?: string }[];
}

/** One graph node (symbol, file, import, ...). */
export interface NodeJson {
  id: string;
  kind: string;
  name: string;
  qualified: string;
  path: string;
  language: string;
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
  flavor?: string;
  signature?: string;
  visibility?: string;
  exported: boolean;
  doc?: string;
  type_name?: string;
  return_type?: string;
  is_async?: boolean;
  is_static?: boolean;
  is_abstract?: boolean;
  decorators?: string[];
  is_test?: boolean;
  test_role?: string;
  test_runner?: string;
}

/** One graph edge with its provenance (`origin`). */
export interface EdgeJson {
  from: string;
  to: string;
  kind: string;
  origin: string;
  path: string;
  line: number;
  resolved: boolean;
}

/** Which edges of a node to list. */
export type EdgeDirection = 'in' | 'out' | 'both';

/** One call site of a file: the callee's name at a 1-based line and 0-based byte column. */
export interface CallSite {
  line: number;
  col: number;
  name: string;
  /** Called on a receiver (`a.b()`). */
  member: boolean;
}

/** A file's call sites and the content hash they were read from. */
export interface FileCallSites {
  path: string;
  hash: string;
  sites: CallSite[];
}

/** A definition a language server pointed at: file, 1-based line of the name, and the name. */
export interface SemanticTarget {
  path: string;
  line: number;
  name: string;
}

/** A language server's answer for one call site. */
export interface SemanticSite {
  line: number;
  col: number;
  targets?: SemanticTarget[];
  dispatch?: SemanticTarget[];
  /** The definition lies outside the repository. */
  external?: boolean;
}

/** A file's answers, for the content hash its call sites were read from. */
export interface SemanticFile {
  path: string;
  hash: string;
  sites: SemanticSite[];
}

/** How the resolver's answers fared against the language servers'. */
export interface SemanticCounts {
  confirmed: number;
  corrected: number;
  added: number;
  dropped: number;
  dispatch: number;
}

/** What applying answers did. */
export interface SemanticReport {
  applied: number;
  stale: string[];
  counts: SemanticCounts;
  files_with_answers: number;
  wall_ms: number;
}
