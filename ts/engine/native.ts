/**
 * The only importer of the native addon. Finds `native/index.js` (the napi-generated loader)
 * relative to the package root, so it works from `ts/` under Jest and from `dist/ts/` after tsc,
 * and turns any load failure into an error that says how to build the addon from source.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../support/package-root';

/** Options the native `Engine` constructor takes. */
export interface NativeEngineOptions {
  home?: string;
  threads?: number;
}

/** Options the native `indexRepo` takes. */
export interface NativeIndexOptions {
  name?: string;
  force?: boolean;
  maxFileSize?: number;
  indexGenerated?: boolean;
  excludeDirs?: string[];
  defaultExcludes?: boolean;
  exclude?: string[];
  respectGitignore?: boolean;
  persist?: boolean;
  keepBuildCaches?: boolean;
  paths?: string[];
}

/** The native `Engine` class as napi exposes it; every result is a JSON string. */
export interface NativeEngine {
  indexRepo(
    root: string,
    options?: NativeIndexOptions | null,
    onProgress?: ((err: Error | null, eventJson: string) => void) | null,
  ): Promise<string>;
  cancel(): void;
  provisional(root: string): Promise<string>;
  updateFiles(repo: string, paths: string[]): string;
  callSites(repo: string, path: string): string;
  applySemantic(repo: string, filesJson: string): string;
  semanticCounts(repo: string): string;
  persist(repo: string): number;
  releaseBuildCaches(repo: string): boolean;
  memoryReport(repo: string): string;
  releaseCaches(repo: string): number;
  survey(root: string, options?: NativeIndexOptions | null): Promise<string>;
  forget(root: string): boolean;
  checkExclude(root: string, patterns: string[]): string | null;
  status(root: string, name?: string | null): string;
  repos(): string;
  stats(repo: string, view?: string | null): string;
  getNode(repo: string, id: string, view?: string | null): string | null;
  fileSymbols(repo: string, path: string, view?: string | null): string;
  graphDump(repo: string, maxNodes?: number | null, view?: string | null, filter?: string | null): string;
  externalRefs(repo: string, view?: string | null): string;
  mostImported(repo: string, limit: number, view?: string | null): string;
  fileNodes(repo: string, countKinds: string[], view?: string | null): string;
  edges(repo: string, id: string, direction: string, kinds?: string[] | null, view?: string | null): string;
  query(repo: string | null | undefined, tool: string, argsJson: string, view?: string | null): string;
  overlayBuild(repo: string, key: string, files: { path: string; content?: Buffer | null }[]): Promise<string>;
  overlayDrop(key: string): boolean;
  overlayState(key: string): string | null;
  queryTools(): string;
}

/** The native `RepoWatcher` class (one recursive OS watch of a repository). */
export interface NativeRepoWatcher {
  close(): void;
}

/** Options of the native `RegexMatcher` constructor. */
export interface NativeRegexMatcherOptions {
  literal?: boolean;
  caseInsensitive?: boolean;
}

/** The native `RegexMatcher` class: a pattern compiled by Rust's `regex` crate (linear time, bounded size). */
export interface NativeRegexMatcher {
  test(text: string): boolean;
  matchLines(lines: string[], limit?: number | null): { matches: { index: number; start: number; end: number }[]; total: number };
}

/** The native `Sidecar` class: the user-data SQLite store (`gortex-store`), JSON in and out. */
export interface NativeSidecar {
  /** Runs one store operation; throws `"<code>: <why>"` or the store's own sentence. */
  call(op: string, args: string): string;
  readonly path: string;
}

/** What tree-sitter makes of a file's bytes (the write tools' parse gate). */
export interface NativeSyntaxCheck {
  /** The language the file is read as; absent when it has no grammar here. */
  language?: string | null;
  /** `ERROR` and `MISSING` nodes in its syntax tree. */
  errors?: number | null;
  /** Why the file is past a per-file limit, when it is. */
  overLimit?: string | null;
}

/** What the addon module exports. */
export interface NativeBinding {
  /** Parses `source` as the file at `path` and counts its syntax errors (no index involved). */
  syntaxCheck(path: string, source: Buffer): NativeSyntaxCheck;
  /** The declarations of `source` read as the file at `path` (JSON), or null without a grammar. */
  outline(path: string, source: Buffer): string | null;
  /** Syntax facts for the refactoring tools (JSON); throws for a language without them. */
  refactorFacts(path: string, source: Buffer, op: string, args: string): string;
  Engine: new (options?: NativeEngineOptions | null) => NativeEngine;
  /** Throws `"invalid_argument: <why>"` for an invalid or too large pattern. */
  RegexMatcher: new (pattern: string, options?: NativeRegexMatcherOptions | null) => NativeRegexMatcher;
  /** Opens (creating and migrating) the sidecar database at `path`. */
  Sidecar: new (path: string) => NativeSidecar;
  RepoWatcher: new (root: string, ignoredDirs: string[], batchMs: number, onBatch: (err: Error | null, payload: string) => void) => NativeRepoWatcher;
}

/** Env var naming another loader (or `.node` file) to load instead of `<package>/native/index.js`. */
export const NATIVE_PATH_ENV = 'GORTEX_NATIVE_PATH';

/** Raised when the addon cannot be loaded; the message says how to build it. */
export class NativeLoadError extends Error {
  override name = 'NativeLoadError';
}

let cachedBinding: NativeBinding | undefined;

/** Where the addon loader is looked for (honours `GORTEX_NATIVE_PATH`). */
export function nativeLoaderPath(): string {
  const override = process.env[NATIVE_PATH_ENV];
  if (override !== undefined && override !== '') return path.resolve(override);
  return path.join(packageRoot(), 'native', 'index.js');
}

/** The npm package holding this platform's prebuilt addon (napi-rs's naming: `gortex-linux-x64-gnu`, …). */
export function platformPackageName(platform: string = process.platform, arch: string = process.arch, musl: boolean = isMusl()): string {
  const abi = platform === 'linux' ? (musl ? '-musl' : '-gnu') : platform === 'win32' ? '-msvc' : '';
  return `gortex-${platform}-${arch}${abi}`;
}

/** Whether this Linux runs on musl libc (Alpine); false elsewhere. */
function isMusl(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return header?.glibcVersionRuntime === undefined;
}

/**
 * What to do when no addon loads; part of every load error. In a source checkout (the Rust crates
 * are beside the loader): build it. In an installed package: install this platform's prebuilt
 * package, or — when none is published for it — build gortex from its source repository.
 */
export function buildFromSourceHint(root: string): string {
  const fromSource =
    `install Rust stable (https://rustup.rs) and a C compiler (gcc or clang; MSVC Build Tools on Windows)`;
  if (fs.existsSync(path.join(root, 'native', 'Cargo.toml'))) return `Build it from source: ${fromSource}, then run \`npm run build:native\` in ${root}.`;
  let manifest: { version?: string; optionalDependencies?: Record<string, string> } = {};
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    /* an unreadable manifest: fall through to the generic advice */
  }
  const prebuilt = Object.keys(manifest.optionalDependencies ?? {});
  const wanted = platformPackageName();
  if (prebuilt.includes(wanted)) {
    return (
      `The prebuilt addon for this platform is the package ${wanted}@${manifest.version}, which npm did not install ` +
      `(optional dependencies omitted by --omit=optional or --no-optional, or npm's bug with a reused lock file: https://github.com/npm/cli/issues/4828). ` +
      `Install it beside gortex: \`npm install ${wanted}@${manifest.version}\`, or reinstall gortex without omitting optional dependencies.`
    );
  }
  return (
    `gortex publishes no prebuilt addon for this platform (${wanted}; published: ${prebuilt.join(', ') || 'none'}). ` +
    `Build it from source: ${fromSource}, clone gortex's source repository and run \`npm install\` there (it builds the addon), then use that checkout's bin/run.js.`
  );
}

function describeCause(error: unknown): string {
  // First lines only: Node appends a long "Require stack" to module-not-found messages.
  const firstLine = (message: string): string => message.split('\n', 1)[0] ?? message;
  if (!(error instanceof Error)) return firstLine(String(error));
  const parts = [firstLine(error.message)];
  // The napi loader chains the per-candidate failures through `cause`.
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++) {
    parts.push(firstLine(cause.message));
    cause = cause.cause;
  }
  return parts.join(' <- ');
}

/** Loads the addon once and returns it; throws `NativeLoadError` with build guidance on failure. */
export function loadNative(): NativeBinding {
  if (cachedBinding !== undefined) return cachedBinding;
  const loader = nativeLoaderPath();
  let root: string;
  try {
    root = packageRoot();
  } catch {
    root = path.dirname(path.dirname(loader));
  }
  // mimalloc (the addon's allocator) commits arena memory on demand: committed eagerly (its Linux
  // default) Kubernetes' warm open held ≈ 55 MB more resident memory and took 0.46 or 0.95–1.5 s
  // by the luck of huge pages, against 0.56–0.57 s every time (BENCHMARKS.md "Indexing"). It reads
  // the setting when it reserves its first arena, as the addon loads: set it before, unless the user did.
  const ours = process.env.MIMALLOC_ARENA_EAGER_COMMIT === undefined;
  if (ours) process.env.MIMALLOC_ARENA_EAGER_COMMIT = '0';
  let binding: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    binding = require(loader);
  } catch (error) {
    throw new NativeLoadError(
      `No gortex native addon could be loaded for this platform (${process.platform}-${process.arch}). ` +
        `${buildFromSourceHint(root)}\nCause: could not load ${loader}: ${describeCause(error)}`,
      { cause: error },
    );
  }
  // Read once the addon is loaded: the processes gortex starts (language servers, git) keep their own defaults.
  if (ours) delete process.env.MIMALLOC_ARENA_EAGER_COMMIT;
  const engine = (binding as { Engine?: unknown } | null)?.Engine;
  if (typeof engine !== 'function') {
    throw new NativeLoadError(
      `The native addon at ${loader} does not export the Engine class (it is stale or a placeholder). ` +
        buildFromSourceHint(root).replace('Build it', 'Rebuild it'),
    );
  }
  cachedBinding = binding as NativeBinding;
  return cachedBinding;
}
