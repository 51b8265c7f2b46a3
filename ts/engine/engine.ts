/**
 * Typed wrapper over the native `Engine`: parses the JSON the addon returns, turns the
 * err-first progress callback into a typed one, and maps `AbortSignal` onto `cancel()`.
 */
import { loadNative, type NativeEngine, type NativeIndexOptions } from './native';
import { QueryError } from './query';
import type { AnalyzeKind, AnalyzeKindMap, QueryToolMap, QueryToolName } from './generated/query-types';
import type {
  EdgeDirection,
  EdgeJson,
  ExternalRef,
  FileCallSites,
  GraphDump,
  GraphFilter,
  GraphStats,
  IndexReport,
  NodeJson,
  ProgressEvent,
  ProvisionalStatus,
  RepoSummary,
  SemanticCounts,
  SemanticFile,
  SemanticReport,
  StatusReport,
  MemoryReport,
  TreeSurvey,
} from './types';

export type * from './types';
export type * from './generated/query-types';
export type { HealthComponentName, HealthMeasures, TierReport } from './query-views';
export { QueryError, type QueryErrorCode } from './query';
export { RegexMatcher, REGEX_SYNTAX_URL, type LineMatch, type LineMatches, type RegexMatcherOptions } from './regex';

/** Directory names the indexer skips by default (mirrors `DEFAULT_EXCLUDED_DIRS` in `gortex-index/src/walk.rs`). */
export const DEFAULT_EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'target', 'dist', 'build', 'out', 'vendor', 'bower_components', '__pycache__',
  '.venv', 'venv', '.tox', '.mypy_cache', '.pytest_cache', '.next', '.nuxt', '.gradle', 'coverage', '.cache', '.idea', '.vscode',
]);

/** One batch of a `RepoWatcher`: changed repository-relative paths and what went wrong. */
export interface WatchBatch {
  paths: string[];
  /** Paths were dropped past the batch cap: re-scan. */
  overflow: boolean;
  /** The OS lost events (its queue overflowed): re-scan. */
  rescan: boolean;
  errors: string[];
}

/**
 * Watches a repository with the OS watcher in a native thread; `onBatch` gets the changed paths
 * (outside `ignoredDirs`) once `batchMs` pass without an event (or a second after the first).
 */
export function watchRepo(root: string, ignoredDirs: Iterable<string>, batchMs: number, onBatch: (batch: WatchBatch) => void): { close(): void } {
  const watcher = new (loadNative().RepoWatcher)(root, [...ignoredDirs], batchMs, (err: Error | null, payload: string) => {
    if (err !== null) return;
    onBatch(JSON.parse(payload) as WatchBatch);
  });
  return { close: () => watcher.close() };
}

/** What tree-sitter makes of a file's bytes: its language and syntax errors, or why it is past a limit. */
export interface SyntaxCheck {
  /** The language the file is read as; undefined when it has no grammar here (no gate applies). */
  language?: string;
  errors?: number;
  overLimit?: string;
}

/** Parses `source` as the file at `path` (its name picks the language) and counts its syntax errors. */
export function syntaxCheck(path: string, source: Buffer): SyntaxCheck {
  const raw = loadNative().syntaxCheck(path, source);
  return {
    ...(raw.language ? { language: raw.language } : {}),
    ...(raw.errors !== undefined && raw.errors !== null ? { errors: raw.errors } : {}),
    ...(raw.overLimit ? { overLimit: raw.overLimit } : {}),
  };
}

/** One declaration of a file's outline (`outlineOf`). */
export interface OutlineSymbol {
  /** What follows `<path>::` in the symbol's node id. */
  local: string;
  qualified: string;
  name: string;
  kind: string;
  start_line: number;
  end_line: number;
  exported: boolean;
}

/**
 * The declarations of `source` read as the file at `path`, as the index would extract them, or
 * undefined when the file has no grammar here or is past a per-file limit. No index is involved.
 */
export function outlineOf(path: string, source: Buffer): OutlineSymbol[] | undefined {
  const json = loadNative().outline(path, source);
  return json === null ? undefined : (JSON.parse(json) as OutlineSymbol[]);
}

/** One name an import statement binds (`refactorFacts` `imports`). */
export interface ImportBinding {
  /** What is imported: the exported name (`default`, `*`, `type X` for TS), a module path or a dotted name. */
  imported: string;
  /** The name it is bound to in the file. */
  local: string;
  /** Whether the file references `local` outside its import statements. */
  used: boolean;
}

/** One import statement of a file (Go: one import spec; Java: the package declaration too). */
export interface ImportFact {
  start_byte: number;
  end_byte: number;
  start_line: number;
  end_line: number;
  /** The module specifier (TS/JS, Python `from`), import path (Go, Java); empty for Rust/Python `import`. */
  module: string;
  kind: string;
  type_only: boolean;
  text: string;
  bindings: ImportBinding[];
}

/** A function's shape for inlining (`refactorFacts` `callable`); offsets are relative to `expr`. */
export interface CallableFact {
  refusal?: string;
  name: string;
  start_line: number;
  end_line: number;
  params: { name: string; type: string | null }[];
  return_type: string | null;
  returns_value: boolean;
  expr: string;
  expr_kind: string;
  expr_primary: boolean;
  occurrences: { param: number; start: number; end: number; shorthand: boolean }[];
  free: { name: string; start: number; end: number }[];
  calls: { start: number; end: number }[];
}

/** One call of a name (`refactorFacts` `calls`); offsets are bytes of the file. */
export interface CallSiteFact {
  start: number;
  end: number;
  line: number;
  end_line: number;
  qualifier: string | null;
  args: { start: number; end: number; text: string; keyword: string | null; pure: boolean; primary: boolean; literal: boolean }[];
  statement: boolean;
  statement_end: number | null;
  enclosing: { start: number; end: number; start_line: number } | null;
  refusal: string | null;
}

/** Syntax facts for the refactoring tools; throws for a language without refactoring support. */
export function refactorFacts(path: string, source: Buffer, op: 'imports', args?: Record<string, never>): ImportFact[];
export function refactorFacts(path: string, source: Buffer, op: 'callable', args: { line: number }): CallableFact;
export function refactorFacts(path: string, source: Buffer, op: 'calls', args: { name: string }): CallSiteFact[];
export function refactorFacts(path: string, source: Buffer, op: 'names', args: { start: number; end: number }): string[];
export function refactorFacts(path: string, source: Buffer, op: 'identifiers', args: { name: string }): { line: number; column: number; kind: string; member: boolean }[];
export function refactorFacts(path: string, source: Buffer, op: string, args: object = {}): unknown {
  return JSON.parse(loadNative().refactorFacts(path, source, op, JSON.stringify(args)));
}

/** Options for one `Engine` (one per process is the norm). */
export interface EngineOptions {
  /** Where snapshots and user data live; default `$GORTEX_HOME`, else `~/.gortex` (read natively). */
  home?: string;
  /** Size of the indexing thread pool; default `$GORTEX_THREADS`, else all cores (read natively). */
  threads?: number;
}

/** Options for one `indexRepo` pass. */
export interface IndexRepoOptions {
  /** Repo name used in node ids; default the root folder's name. */
  name?: string;
  /** Ignore the snapshot and index from scratch. */
  force?: boolean;
  /** Skip files larger than this many bytes (native default 4 MiB). */
  maxFileSize?: number;
  /** Also parse files marked as generated. */
  indexGenerated?: boolean;
  /** More directory names to skip everywhere in the tree (added to the built-in list). */
  excludeDirs?: readonly string[];
  /** Keep the built-in excluded directories (`node_modules`, `target`, `dist`, …); default true. */
  defaultExcludes?: boolean;
  /** Gitignore-style patterns relative to the root to leave out (`.gortex.yaml` `exclude`); an invalid one rejects. */
  exclude?: readonly string[];
  /** Honour `.gitignore` files and git's excludes; default true. */
  respectGitignore?: boolean;
  /** Write the snapshot when the pass changed anything (default true); watchers defer it. */
  persist?: boolean;
  /**
   * The repository will be edited (a watcher follows it): the resolver's lookup tables stay
   * built for the next pass, also after opening (tens of MB; `releaseBuildCaches` frees them).
   */
  keepBuildCaches?: boolean;
  /**
   * Repo-relative paths a watcher saw change: an indexed repository re-reads only these (no
   * walk) unless one is an ignore file or a directory, which takes a whole refresh.
   */
  paths?: string[];
  /** Called on the JS thread for each progress tick. */
  onProgress?: (event: ProgressEvent) => void;
  /** Aborting it cancels the pass; the promise then rejects with `IndexCancelledError`. */
  signal?: AbortSignal;
}

/** Options for `edges`. */
export interface EdgesOptions {
  direction?: EdgeDirection;
  /** Only these edge kinds (e.g. `calls`, `imports`); default all. */
  kinds?: readonly string[];
}

/** The index pass was cancelled (by `cancel()` or an aborted signal). */
export class IndexCancelledError extends Error {
  override name = 'IndexCancelledError';
}

/** The native progress callback's last payload (`PROGRESS_END` in native/src/lib.rs): no events follow. */
const PROGRESS_END = 'end';
/** Longest wait for the end marker after a pass settled. */
const PROGRESS_DRAIN_MS = 2000;

/** Resolves when `promise` does or after `ms`, whichever comes first (the timer does not hold the process). */
function settledOrAfter(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && /cancel/i.test(error.message);
}

/** One file of an overlay view: its buffer, or `null` for a file deleted in the view. */
export interface OverlayFileInput {
  path: string;
  content: Buffer | null;
}

/** How an overlay view was built. */
export interface OverlayBuildReport {
  /** `built` (a new view from the base) or `updated` (a live view brought to new buffers in place). */
  mode: 'built' | 'updated';
  replaced: string[];
  added: string[];
  deleted: string[];
  /** Overlaid paths the view does not index (`unsupported`, `ignored`, a skip reason), with why. */
  not_indexed: { path: string; reason: string; detail?: string }[];
  resolved_files: number;
  /**
   * How the graph was put together: `layered` (a layer over the base's graph holding what the
   * overlay changed), else flat: `assembled`, `patched`, `shifted` (empty: nothing changed).
   */
  graph_layout: string;
  /** Why the view's graph is flat rather than layered (a configuration file changed, …). */
  flat_because?: string;
  phases_ms: Record<string, number>;
  nodes: number;
  /** Nodes the view holds itself (a layered view's changed and added ones): what its memory follows. */
  owned_nodes: number;
  edges: number;
  base_indexed_at_ms: number;
  wall_ms: number;
}

/** A built overlay view. */
export interface OverlayViewState {
  root: string;
  /** False once the base repository's graph changed after the view was built. */
  current: boolean;
  nodes: number;
  edges: number;
  files: number;
}

/** A handle on the Rust engine: indexes repos and answers graph queries. */
export class Engine {
  private readonly native: NativeEngine;
  /** The overlay view this handle reads through (see `withView`); null: the repositories as indexed. */
  private view: string | null = null;

  constructor(options: EngineOptions = {}) {
    const { Engine: NativeEngineClass } = loadNative();
    const { home, threads } = options;
    if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
      throw new RangeError(`threads must be a positive integer, got ${threads}`);
    }
    const nativeOptions: { home?: string; threads?: number } = {};
    if (home !== undefined) nativeOptions.home = home;
    if (threads !== undefined) nativeOptions.threads = threads;
    this.native = new NativeEngineClass(nativeOptions);
  }

  /** Indexes (or incrementally refreshes) the repo at `root` and returns what happened. */
  async indexRepo(root: string, options: IndexRepoOptions = {}): Promise<IndexReport> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw new IndexCancelledError(`indexing ${root} was cancelled before it started`);
    let callbackError: unknown;
    let delivered = (): void => {};
    const drained = new Promise<void>((resolve) => (delivered = resolve));
    const progress = onProgress
      ? (err: Error | null, eventJson: string): void => {
          if (eventJson === PROGRESS_END) return delivered();
          if (err !== null || callbackError !== undefined) return;
          try {
            onProgress(JSON.parse(eventJson) as ProgressEvent);
          } catch (error) {
            // Never let a listener's exception escape into the native callback (it would crash
            // the process); surface it when the pass settles instead.
            callbackError = error;
          }
        }
      : null;
    const nativeOptions = toNativeOptions(options);
    const onAbort = (): void => this.native.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let reportJson: string;
    try {
      reportJson = await this.native.indexRepo(root, nativeOptions, progress);
    } catch (error) {
      if (signal?.aborted || isCancellation(error)) {
        throw new IndexCancelledError(`indexing ${root} was cancelled`, { cause: error });
      }
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    // The promise can settle before the last events reach the listener: wait for the end marker
    // (bounded, should the callback have been torn down without delivering it).
    if (progress) await settledOrAfter(drained, PROGRESS_DRAIN_MS);
    if (callbackError !== undefined) throw callbackError;
    return JSON.parse(reportJson) as IndexReport;
  }

  /** Cancels the in-flight `indexRepo`, if any. */
  cancel(): void {
    this.native.cancel();
  }

  /**
   * While an `indexRepo` pass opens the repository at `root` (no index of it was loaded), builds
   * or brings up to date a provisional index of the files read so far and serves it under the
   * repository's key, so queries answer partially until the pass publishes the complete index.
   * Only the first build is waited for; later calls are served the last build at once, and a
   * fresher one is built in the background once the files read have doubled or half of the
   * missing ones arrived (at most every 2 s, never once parsing is done).
   */
  async provisional(root: string): Promise<ProvisionalStatus> {
    return JSON.parse(await this.native.provisional(root)) as ProvisionalStatus;
  }

  /** Re-reads changed, added or deleted repo-relative `paths` of an indexed repo and rebuilds its graph. */
  updateFiles(repo: string, paths: readonly string[]): IndexReport {
    return JSON.parse(this.native.updateFiles(repo, [...paths])) as IndexReport;
  }

  /** The call sites of one indexed file, with the content hash they were read from (semantic enrichment). */
  callSites(repo: string, path: string): FileCallSites {
    return JSON.parse(this.native.callSites(repo, path)) as FileCallSites;
  }

  /** Applies language servers' answers: their files are resolved again with them (`lsp_resolved` / `lsp_dispatch` edges). */
  applySemantic(repo: string, files: readonly SemanticFile[]): SemanticReport {
    return JSON.parse(this.native.applySemantic(repo, JSON.stringify(files))) as SemanticReport;
  }

  /** How the resolver's answers fared against the language servers', over the whole graph. */
  semanticCounts(repo: string): SemanticCounts {
    return JSON.parse(this.native.semanticCounts(repo)) as SemanticCounts;
  }

  /** Writes the repo's snapshot now (updates do not); returns its size in bytes. */
  persist(repo: string): number {
    return this.native.persist(repo);
  }

  /** Frees the lookup tables kept for the repo's next incremental build (for a quiet repo); true when any were held. */
  releaseBuildCaches(repo: string): boolean {
    return this.native.releaseBuildCaches(repo);
  }

  /** The repository's heap bytes per structure. */
  memoryReport(repo: string): MemoryReport {
    return JSON.parse(this.native.memoryReport(repo)) as MemoryReport;
  }

  /**
   * Drops every cache the repository can rebuild (kept lookup tables, search indexes, analyses,
   * dataflow, history in memory) and returns freed memory to the OS; the sized bytes released, or
   * -1 when a pass holds the repository (nothing released).
   */
  releaseCaches(repo: string): number {
    return this.native.releaseCaches(repo);
  }

  /** Files and bytes the walker would index under `root` with these options (no parsing; the walk runs off the event loop). */
  async survey(root: string, options: IndexRepoOptions = {}): Promise<TreeSurvey> {
    return JSON.parse(await this.native.survey(root, toNativeOptions(options))) as TreeSurvey;
  }

  /** Stops serving the repository at `root` and frees its index once no query holds it; true when one was loaded. */
  forget(root: string): boolean {
    return this.native.forget(root);
  }

  /** The message naming the first invalid gitignore-style exclude pattern, or undefined when all parse. */
  checkExclude(root: string, patterns: readonly string[]): string | undefined {
    return this.native.checkExclude(root, [...patterns]) ?? undefined;
  }

  /** What is indexed for the repo at `root` and whether it still matches the disk (no parsing). */
  status(root: string, options: { name?: string } = {}): StatusReport {
    return JSON.parse(this.native.status(root, options.name ?? null)) as StatusReport;
  }

  /** The repositories loaded in this engine. */
  repos(): RepoSummary[] {
    return JSON.parse(this.native.repos()) as RepoSummary[];
  }

  /** Graph counts for an indexed repo. */
  stats(repo: string): GraphStats {
    return JSON.parse(this.native.stats(repo, this.view)) as GraphStats;
  }

  /** A brief dump of the graph (nodes and the edges among them), capped at `maxNodes` (default 50,000). */
  graphDump(repo: string, options: { maxNodes?: number; filter?: GraphFilter } = {}): GraphDump {
    return JSON.parse(this.native.graphDump(repo, options.maxNodes, this.view, options.filter ? JSON.stringify(options.filter) : undefined)) as GraphDump;
  }

  /** Every reference leaving the repository (`external::…` stubs) with the nodes that make it. */
  externalRefs(repo: string): ExternalRef[] {
    return JSON.parse(this.native.externalRefs(repo, this.view)) as ExternalRef[];
  }

  /** Files and packages by how many distinct files import them, most first (at most `limit`). */
  mostImported(repo: string, limit: number): { id: string; path: string; kind: string; importers: number }[] {
    return JSON.parse(this.native.mostImported(repo, limit, this.view)) as { id: string; path: string; kind: string; importers: number }[];
  }

  /** Every file node in path order, each with `symbols`: the nodes of `countKinds` it declares. */
  fileNodes(repo: string, countKinds: readonly string[]): (NodeJson & { symbols: number })[] {
    return JSON.parse(this.native.fileNodes(repo, [...countKinds], this.view)) as (NodeJson & { symbols: number })[];
  }

  /** One node by id, or `null` when there is none. */
  getNode(repo: string, id: string): NodeJson | null {
    const json = this.native.getNode(repo, id, this.view);
    return json === null ? null : (JSON.parse(json) as NodeJson);
  }

  /** The symbols defined in one file (repo-relative path). */
  fileSymbols(repo: string, path: string): NodeJson[] {
    return JSON.parse(this.native.fileSymbols(repo, path, this.view)) as NodeJson[];
  }

  /** Edges touching a node. */
  edges(repo: string, id: string, options: EdgesOptions = {}): EdgeJson[] {
    const kinds = options.kinds && options.kinds.length > 0 ? [...options.kinds] : null;
    return JSON.parse(this.native.edges(repo, id, options.direction ?? 'both', kinds, this.view)) as EdgeJson[];
  }

  /**
   * Runs one read-only query tool by name with JSON-able arguments and returns its parsed result.
   * `repo` (root path or name) picks the repository; by default the one an `id` belongs to, else
   * the only one loaded. Throws `QueryError` (with a `code`) when the query is refused.
   * A known tool name types `args` and the result (see `QueryToolMap`); any other string falls
   * back to the untyped form, whose result type the caller names.
   */
  query<K extends QueryToolName>(tool: K, args: QueryToolMap[K]['args'], options?: { repo?: string }): QueryToolMap[K]['result'];
  query<T = unknown>(tool: string, args?: object, options?: { repo?: string }): T;
  query<T = unknown>(tool: string, args: object = {}, options: { repo?: string } = {}): T {
    let json: string;
    try {
      json = this.native.query(options.repo ?? null, tool, JSON.stringify(args), this.view);
    } catch (error) {
      throw QueryError.fromNative(error);
    }
    return JSON.parse(json) as T;
  }

  /** Runs one `analyze` kind, typed by the kind (`query('analyze', …)` types the result as the union of every kind's). */
  analyze<K extends AnalyzeKind>(kind: K, args: AnalyzeKindMap[K]['args'], options: { repo?: string } = {}): AnalyzeKindMap[K]['result'] {
    return this.query<AnalyzeKindMap[K]['result']>('analyze', { ...args, kind }, options);
  }

  /**
   * This engine seen through overlay view `key`: every read (queries, nodes, edges, dumps) of the
   * repository the view overlays answers from the view; other repositories and every write
   * (`indexRepo`, `updateFiles`) are the engine's own. The view must be built (`overlayBuild`).
   */
  withView(key: string): Engine {
    const seen = Object.create(this) as Engine;
    seen.view = key;
    return seen;
  }

  /**
   * Builds (or rebuilds) overlay view `key` of `repo`: its index with `files` replaced or added
   * (`content`) or deleted (`content: null`), on a background thread; the repository's own index
   * is not touched.
   */
  async overlayBuild(repo: string, key: string, files: readonly OverlayFileInput[]): Promise<OverlayBuildReport> {
    const json = await this.native.overlayBuild(repo, key, files.map((f) => (f.content === null ? { path: f.path } : { path: f.path, content: f.content })));
    return JSON.parse(json) as OverlayBuildReport;
  }

  /** Frees overlay view `key`; true when one was built. */
  overlayDrop(key: string): boolean {
    return this.native.overlayDrop(key);
  }

  /** Overlay view `key`'s state, or null when none is built; `current` is false once its base repository changed. */
  overlayState(key: string): OverlayViewState | null {
    const json = this.native.overlayState(key);
    return json === null ? null : (JSON.parse(json) as OverlayViewState);
  }

  /** The query tools `query` accepts, with one-line descriptions. */
  queryTools(): { name: string; description: string }[] {
    return JSON.parse(this.native.queryTools()) as { name: string; description: string }[];
  }
}

/** The addon's spelling of index options (only the ones given). */
function toNativeOptions(options: IndexRepoOptions): NativeIndexOptions {
  const nativeOptions: NativeIndexOptions = {};
  if (options.name !== undefined) nativeOptions.name = options.name;
  if (options.force !== undefined) nativeOptions.force = options.force;
  if (options.maxFileSize !== undefined) nativeOptions.maxFileSize = options.maxFileSize;
  if (options.indexGenerated !== undefined) nativeOptions.indexGenerated = options.indexGenerated;
  if (options.excludeDirs !== undefined) nativeOptions.excludeDirs = [...options.excludeDirs];
  if (options.defaultExcludes !== undefined) nativeOptions.defaultExcludes = options.defaultExcludes;
  if (options.exclude !== undefined) nativeOptions.exclude = [...options.exclude];
  if (options.respectGitignore !== undefined) nativeOptions.respectGitignore = options.respectGitignore;
  if (options.persist !== undefined) nativeOptions.persist = options.persist;
  if (options.keepBuildCaches !== undefined) nativeOptions.keepBuildCaches = options.keepBuildCaches;
  if (options.paths !== undefined) nativeOptions.paths = [...options.paths];
  return nativeOptions;
}
