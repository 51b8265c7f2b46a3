/**
 * Whole-repository views: `index_health` (is the index complete and current, and how much of it
 * resolved) and `get_repo_outline` (languages, where the code lives, what everything imports,
 * where execution starts, which symbols everything leans on, how much is test code).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type {
  CommunityList,
  GraphQueryResult,
  IndexReport,
  LanguageCount,
  NodeSummary,
  ParseFailure,
  SearchTextResult,
  SkippedFile,
  WinnowSymbolsResult,
} from '../engine/engine';
import { DOCUMENT_LANGUAGES } from '../engine/query-views';
import { ContextReader, summaryOf } from './context-common';
import { missingRepoPaths, pathLiveness, type PathLiveness } from './liveness';

/** Node kinds that count as symbols (files, packages, modules and imports do not). */
const SYMBOL_KINDS = 'function,method,type,interface,field,constant,variable,enum_member';
/** Edge kinds that structure the graph rather than record a use. */
const STRUCTURAL_EDGES = ['defines', 'contains', 'member_of'];

/** A `graph_query` filter value, quoted so paths with spaces or `|` stay one word. */
function quote(value: string): string {
  return JSON.stringify(value);
}

/** How many nodes a `graph_query` pipeline selects (its `count`, read from a one-row page). */
function countOf(reader: ContextReader, query: string): number {
  return reader.query<GraphQueryResult>('graph_query', { query, limit: 1 }).count;
}

/** Every indexed file node, in path order, with the symbols each declares. */
export interface FileListing {
  files: NodeSummary[];
  /** Symbols (of `SYMBOL_KINDS`) declared in each file, by path. */
  symbols: Map<string, number>;
}

/**
 * Every indexed file node with its symbol count, in one engine call (listing a large repository
 * file by file cost a lookup per file). The file nodes are remembered by the reader, so later
 * test-file checks are free.
 */
export function listFiles(reader: ContextReader): FileListing {
  const rows = reader.ctx.engine.fileNodes(reader.ctx.repo, SYMBOL_KINDS.split(','));
  reader.rememberNodes(rows);
  return { files: rows.map(summaryOf), symbols: new Map(rows.map((r) => [r.path, r.symbols])) };
}

/** Symbols of a listing per file language. */
function symbolsByLanguage(listing: FileListing): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of listing.files) {
    const lang = f.language ?? 'unknown';
    out[lang] = (out[lang] ?? 0) + (listing.symbols.get(f.file_path) ?? 0);
  }
  return out;
}

/** A share rounded to four decimals (0 when the whole is empty). */
function share(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000;
}

/** A share as a whole percentage for verdict lines. */
function pct(part: number, whole: number): string {
  return `${whole === 0 ? 0 : Math.round((part / whole) * 100)}%`;
}

/** The `index_health` report. */
export interface IndexHealth {
  /** The latest index pass in this process (opening or a watcher refresh); absent when unknown. */
  last_pass?: {
    mode: IndexReport['mode'];
    wall_ms: number;
    files: IndexReport['files'];
    failures: number;
    skipped: number;
    snapshot: string;
  };
  repo: string;
  root: string;
  /** `healthy`: nothing to report; `degraded`: answers may miss something; `unhealthy`: the index cannot be trusted. */
  status: 'healthy' | 'degraded' | 'unhealthy';
  /** The findings in one line. */
  verdict: string;
  /** The findings behind a status other than `healthy`, one per entry (empty when healthy). */
  problems: string[];
  files: { indexed: number; by_language: Record<string, LanguageCount & { symbols: number }> };
  skipped: {
    total: number;
    by_reason: Record<string, number>;
    files: SkippedFile[];
    /** How many symbolic links were skipped, and that links are never followed (absent when none were). */
    symlinks?: string;
  };
  failures: { total: number; files: ParseFailure[] };
  freshness: {
    /** The saved snapshot matches the files on disk. */
    fresh: boolean;
    /** When the loaded graph was built (ISO 8601), when known. */
    indexed_at?: string;
    modified: number;
    added: number;
    deleted: number;
    /** The first changed files, `M`/`A`/`D` as in `git status`. */
    changed: string[];
    /** Where the saved snapshot lives. */
    snapshot: string;
    /** Why the saved snapshot could not be read, when it could not. */
    snapshot_error?: string;
  };
  references: {
    /** Edges recording a use (everything but defines, contains, member_of). */
    usage_edges: number;
    /** References the resolver left unbound (calls into the standard library, dynamic receivers, …). */
    unresolved: number;
    /** unresolved / (usage_edges + unresolved). */
    unresolved_share: number;
  };
  /** Every edge by provenance tier, with its share of all edges. */
  tiers: Record<string, { edges: number; share: number }>;
  /** Whether the files the graph claims are still on disk. */
  path_liveness: PathLiveness;
  /** Every tracked repository's directory exists. */
  tracked_repo_paths_ok: boolean;
  /** Tracked repositories whose directory is gone. */
  missing_repo_paths: { name: string; root: string }[];
}

/** Share of unresolved references above which the verdict calls resolution out. */
const UNRESOLVED_ALARM = 0.5;
/** Share of parse failures above which the index is called unhealthy. */
const FAILURE_ALARM = 0.1;

/**
 * Index health from the engine's own bookkeeping: `stats` (the loaded graph) and `status` (the
 * saved snapshot against the disk: freshness, skipped and failed files).
 */
export function indexHealth(reader: ContextReader, maxItems: number): IndexHealth {
  const stats = reader.ctx.engine.stats(reader.ctx.repo);
  const status = reader.ctx.engine.status(reader.ctx.root, { name: stats.name });
  const languages = Object.keys(status.languages).sort();
  const listing = listFiles(reader);
  const symbols = symbolsByLanguage(listing);
  const liveness = pathLiveness(reader.ctx.root, stats.name, listing.files.map((f) => f.file_path), maxItems);
  const missingRepos = missingRepoPaths(reader.ctx);
  const byLanguage: IndexHealth['files']['by_language'] = {};
  for (const lang of languages) byLanguage[lang] = { ...status.languages[lang]!, symbols: symbols[lang] ?? 0 };

  const structural = STRUCTURAL_EDGES.reduce((sum, k) => sum + (stats.edges_by_kind[k] ?? 0), 0);
  const usage = stats.edges - structural;
  const tiers: IndexHealth['tiers'] = {};
  for (const [tier, edges] of Object.entries(stats.edges_by_origin).sort(([, a], [, b]) => b - a)) {
    tiers[tier] = { edges, share: share(edges, stats.edges) };
  }
  const changed = [
    ...status.stale.modified.map((p) => `M ${p}`),
    ...status.stale.added.map((p) => `A ${p}`),
    ...status.stale.deleted.map((p) => `D ${p}`),
  ];
  const unresolvedShare = share(stats.unresolved, usage + stats.unresolved);

  const problems: string[] = [];
  let unhealthy = false;
  if (status.snapshot_error) problems.push(`snapshot unreadable (${status.snapshot_error})`);
  if (stats.files === 0) {
    problems.push('no files indexed');
    unhealthy = true;
  }
  if (changed.length > 0) problems.push(`${changed.length} file${changed.length === 1 ? '' : 's'} changed since the snapshot`);
  if (status.failures.length > 0) {
    problems.push(`${status.failures.length} parse failure${status.failures.length === 1 ? '' : 's'}`);
    if (status.failures.length > FAILURE_ALARM * Math.max(1, stats.files)) unhealthy = true;
  }
  if (unresolvedShare > UNRESOLVED_ALARM) problems.push(`${pct(stats.unresolved, usage + stats.unresolved)} of references unresolved`);
  // Deletions the snapshot comparison already counts are not said twice.
  const unwitnessed = liveness.orphan_files - status.stale.deleted.length;
  if (unwitnessed > 0) {
    problems.push(`${unwitnessed} indexed file${unwitnessed === 1 ? '' : 's'} no longer on disk${liveness.truncated ? ' (in a sample)' : ''}`);
  }
  for (const r of missingRepos) problems.push(`tracked repository ${r.name} is missing on disk (${r.root})`);
  const state: IndexHealth['status'] = unhealthy ? 'unhealthy' : problems.length > 0 ? 'degraded' : 'healthy';
  const langText = languages.map((l) => `${l} ${status.languages[l]!.files}`).join(', ');
  const facts = [
    `${stats.files} files indexed${langText ? ` (${langText})` : ''}`,
    ...(problems.length > 0 ? problems : ['snapshot fresh', 'no parse failures']),
    `${pct(usage, usage + stats.unresolved)} of references resolved`,
  ];
  return {
    repo: stats.name,
    root: stats.root,
    status: state,
    verdict: `${state}: ${facts.join('; ')}`,
    problems,
    files: { indexed: stats.files, by_language: byLanguage },
    skipped: {
      total: status.skipped.length,
      by_reason: status.skipped_by_reason,
      files: status.skipped.slice(0, maxItems),
      ...symlinkNote(status.skipped_by_reason),
    },
    failures: { total: status.failures.length, files: status.failures.slice(0, maxItems) },
    freshness: {
      fresh: status.fresh,
      ...(stats.indexed_at_ms !== null ? { indexed_at: new Date(stats.indexed_at_ms).toISOString() } : {}),
      modified: status.stale.modified.length,
      added: status.stale.added.length,
      deleted: status.stale.deleted.length,
      changed: changed.slice(0, maxItems),
      snapshot: status.snapshot_path,
      ...(status.snapshot_error ? { snapshot_error: status.snapshot_error } : {}),
    },
    references: { usage_edges: usage, unresolved: stats.unresolved, unresolved_share: unresolvedShare },
    tiers,
    path_liveness: liveness,
    tracked_repo_paths_ok: missingRepos.length === 0,
    missing_repo_paths: missingRepos,
    ...(reader.ctx.lastIndex ? { last_pass: lastPass(reader.ctx.lastIndex) } : {}),
  };
}

/** The `skipped.symlinks` sentence of `index_health`, when links were skipped. */
function symlinkNote(byReason: Record<string, number>): { symlinks?: string } {
  const links = (byReason.symlink ?? 0) + (byReason.symlink_loop ?? 0);
  if (links === 0) return {};
  return {
    symlinks:
      `${links} symbolic link${links === 1 ? '' : 's'} skipped: links are never followed, by the index or the watcher ` +
      '(one may lead outside the repository); nothing below a linked folder is indexed',
  };
}

/** The latest index pass of this process, as `index_health` reports it. */
function lastPass(r: IndexReport): IndexHealth['last_pass'] & object {
  return {
    mode: r.mode,
    wall_ms: Math.round(r.wall_ms),
    files: r.files,
    failures: r.failures.length,
    skipped: r.skipped.length,
    snapshot: r.snapshot.loaded ? 'loaded' : r.snapshot.rebuilt_reason ? `rebuilt: ${r.snapshot.rebuilt_reason}` : 'written',
  };
}

/** One directory of the outline. */
export interface DirectoryRow {
  /** `dir/` for a directory; `dir/*` for the files directly inside an expanded directory; `./*` for root files. */
  path: string;
  files: number;
  symbols: number;
}

/** A file or package and how many files import it. */
export interface ImportedRow {
  /** File path, or the package directory for Go/Java packages. */
  path: string;
  kind: 'file' | 'package';
  importers: number;
}

/** Where execution may start, and the heuristic that says so. */
export interface EntryPoint {
  path: string;
  /** The symbol, when the entry point is one. */
  symbol?: string;
  line?: number;
  reason: string;
}

/** A symbol many others use. */
export interface HubRow {
  id: string;
  qualified: string;
  kind: string;
  path: string;
  line: number;
  fan_in: number;
}

/** The `get_repo_outline` report. */
export interface RepoOutline {
  repo: string;
  files: number;
  symbols: number;
  languages: { language: string; files: number; symbols: number }[];
  directories: DirectoryRow[];
  most_imported: ImportedRow[];
  entry_points: EntryPoint[];
  hubs: HubRow[];
  /** The largest functional clusters (Leiden communities), with their modularity. */
  communities: { modularity: number; total: number; top: { id: number; label: string; size: number; cohesion: number }[] };
  /** The highest-scoring hotspots (fan-in, fan-out, community crossings, betweenness). */
  hotspots: { qualified: string; kind: string; path: string; line: number; score: number }[];
  tests: { test_files: number; file_share: number; test_symbols: number; symbol_share: number };
}


/** Share of all symbols above which one directory is split into its subdirectories. */
const DOMINANT_DIRECTORY = 0.5;
/** Deepest directory level the outline expands to. */
const MAX_DIRECTORY_DEPTH = 4;

/**
 * Top directories by symbol count. Starts from the top-level directories and, while one of them
 * holds more than half of all symbols and has subdirectories (a `src/` wrapping everything),
 * lists its subdirectories instead, down to four levels. Files directly inside a listed level
 * are one row (`dir/*`, `./*` at the root); their symbols are the level's minus its subdirectories'.
 */
function topDirectories(listing: FileListing, totalSymbols: number, maxItems: number): DirectoryRow[] {
  const { files } = listing;
  const rows: DirectoryRow[] = [];
  /** Symbols under a directory prefix (`dir/`). */
  const symbolsUnder = (prefix: string): number => {
    let n = 0;
    for (const f of files) if (f.file_path.startsWith(prefix)) n += listing.symbols.get(f.file_path) ?? 0;
    return n;
  };
  const groupAt = (base: string, baseSymbols: number, depth: number): void => {
    let direct = 0;
    const children = new Map<string, number>();
    for (const f of files) {
      if (!f.file_path.startsWith(base)) continue;
      const slash = f.file_path.indexOf('/', base.length);
      if (slash < 0) direct++;
      else {
        const child = f.file_path.slice(0, slash + 1);
        children.set(child, (children.get(child) ?? 0) + 1);
      }
    }
    const counted = [...children.entries()].map(([dir, n]) => ({ path: dir, files: n, symbols: symbolsUnder(dir) }));
    if (direct > 0) {
      const inChildren = counted.reduce((sum, r) => sum + r.symbols, 0);
      rows.push({ path: base === '' ? './*' : `${base}*`, files: direct, symbols: Math.max(0, baseSymbols - inChildren) });
    }
    // Splitting a directory only helps when it has subdirectories to show.
    const hasSubdirs = (dir: string): boolean => files.some((f) => f.file_path.startsWith(dir) && f.file_path.indexOf('/', dir.length) >= 0);
    const dominant = counted.find((r) => r.symbols > DOMINANT_DIRECTORY * totalSymbols && hasSubdirs(r.path));
    for (const r of counted) {
      if (r === dominant && depth + 1 < MAX_DIRECTORY_DEPTH) groupAt(r.path, r.symbols, depth + 1);
      else rows.push(r);
    }
  };
  groupAt('', totalSymbols, 0);
  return rows
    .sort((a, b) => b.symbols - a.symbols || b.files - a.files || a.path.localeCompare(b.path))
    .slice(0, maxItems);
}

/** Files and packages by the number of distinct files importing them (imports and re-exports). */
function mostImported(reader: ContextReader, maxItems: number): ImportedRow[] {
  // One pass over the import edges in Rust: a per-file edge lookup cost seconds on large repositories.
  return reader.ctx.engine.mostImported(reader.ctx.repo, maxItems).map((r) => ({ path: r.path, kind: r.kind as ImportedRow['kind'], importers: r.importers }));
}

/** Basenames that mark a command-line or program entry file. */
const ENTRY_BASENAME = /^(cli|main|__main__)\.[A-Za-z]+$/;
/** Directories whose files are programs by convention (`bin/`, Go's `cmd/`). */
const ENTRY_DIR = /(^|\/)(bin|cmd)\//;
/** Names of exported request/event handlers: `handler`, `handleX`, `xHandler`, HTTP-verb route exports. */
const HANDLER_QUERIES = ['nodes kind=function,method exported=true name~handle', 'nodes kind=function exported=true name=GET', 'nodes kind=function exported=true name=POST'];

/**
 * Entry points by simple conventions, in this order: `bin` targets of the root `package.json`;
 * files named `cli.*`, `main.*`, `__main__.py` or under `bin/`/`cmd/`; functions and methods
 * named `main`; Python files with an `if __name__ == "__main__"` guard; exported handlers
 * (`handle*`, `*Handler`, `handler`, route exports named `GET`/`POST`). Test code is left out.
 */
function entryPoints(reader: ContextReader, files: readonly NodeSummary[], hasPython: boolean, maxItems: number): EntryPoint[] {
  const out: EntryPoint[] = [];
  const seen = new Set<string>();
  const add = (e: EntryPoint): void => {
    const key = `${e.path}#${e.symbol ?? ''}`;
    if (seen.has(key) || (e.symbol !== undefined && seen.has(`${e.path}#`))) return;
    seen.add(key);
    out.push(e);
  };
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(reader.root(), 'package.json'), 'utf8')) as { name?: string; bin?: string | Record<string, string> };
    const bins = typeof pkg.bin === 'string' ? { [pkg.name ?? 'bin']: pkg.bin } : (pkg.bin ?? {});
    for (const [name, target] of Object.entries(bins).sort()) add({ path: path.posix.normalize(target), reason: `package.json bin "${name}"` });
  } catch {
    // No (readable) root package.json: nothing declared.
  }
  for (const f of files) {
    if (f.is_test) continue;
    const base = f.file_path.slice(f.file_path.lastIndexOf('/') + 1);
    if (ENTRY_BASENAME.test(base)) add({ path: f.file_path, reason: `${base.split('.')[0]} file` });
    else if (ENTRY_DIR.test(f.file_path)) add({ path: f.file_path, reason: `under ${ENTRY_DIR.exec(f.file_path)![2]}/` });
  }
  const mains = reader.query<GraphQueryResult>('graph_query', { query: 'nodes kind=function,method name=main test=false', limit: 100 });
  for (const n of mains.nodes) add({ path: n.file_path, symbol: n.qual_name, line: n.start_line, reason: 'main function' });
  if (hasPython) {
    // Only with Python present: the first text query builds the repository's trigram index.
    const guards = reader.query<SearchTextResult>('search_text', { query: `__name__\\s*==\\s*['"]__main__['"]`, regexp: true, path: '**/*.py', limit: 100 });
    for (const h of guards.hits) add({ path: h.path, line: h.line, reason: '__main__ guard' });
  }
  for (const query of HANDLER_QUERIES) {
    for (const n of reader.query<GraphQueryResult>('graph_query', { query: `${query} test=false`, limit: 100 }).nodes) {
      add({ path: n.file_path, symbol: n.qual_name, line: n.start_line, reason: 'exported handler' });
    }
  }
  return out.slice(0, maxItems);
}

/** Highest fan-in symbols (functions, methods, types, interfaces; tests excluded). */
function hubs(reader: ContextReader, maxItems: number): HubRow[] {
  const r = reader.query<WinnowSymbolsResult>('winnow_symbols', {
    kind: 'function,method,type,interface',
    min_fan_in: 1,
    include_tests: false,
    limit: Math.min(1000, Math.max(50, maxItems * 5)),
  });
  return r.results
    .map((h) => ({ id: h.id, qualified: h.qual_name, kind: h.kind, path: h.file_path, line: h.start_line, fan_in: h.fan_in }))
    .sort((a, b) => b.fan_in - a.fan_in || a.id.localeCompare(b.id))
    .slice(0, maxItems);
}

/** The largest communities, from the engine's cached Leiden partition. */
function communitiesOf(reader: ContextReader, maxItems: number): RepoOutline['communities'] {
  const list = reader.query<CommunityList>('get_communities', { limit: maxItems });
  return {
    modularity: list.modularity,
    total: list.count,
    top: list.communities.map((c) => ({ id: c.id, label: c.label, size: c.size, cohesion: c.cohesion })),
  };
}

/** The repository outline. */
export function repoOutline(reader: ContextReader, maxItems: number): RepoOutline {
  const stats = reader.ctx.engine.stats(reader.ctx.repo);
  const listing = listFiles(reader);
  const files = listing.files;
  const byLang = new Map<string, number>();
  for (const f of files) {
    const lang = f.language ?? 'unknown';
    byLang.set(lang, (byLang.get(lang) ?? 0) + 1);
  }
  const languages = [...byLang.keys()].sort();
  const symbolCounts = symbolsByLanguage(listing);
  delete symbolCounts.unknown;
  // Summed per language: external stubs (symbols outside the repository) have none.
  const totalSymbols = Object.values(symbolCounts).reduce((a, b) => a + b, 0);
  const testFiles = files.filter((f) => f.is_test).length;
  // The test share is of source files: documents and configuration are neither tests nor code under test.
  const sourceFiles = files.filter((f) => f.language === null || f.language === undefined || !DOCUMENT_LANGUAGES.has(f.language)).length;
  const testSymbols = countOf(reader, `nodes kind=${SYMBOL_KINDS} test=true`);
  return {
    repo: stats.name,
    files: files.length,
    symbols: totalSymbols,
    languages: languages
      .map((language) => ({ language, files: byLang.get(language)!, symbols: symbolCounts[language] ?? 0 }))
      .sort((a, b) => b.files - a.files || b.symbols - a.symbols || a.language.localeCompare(b.language)),
    directories: topDirectories(listing, totalSymbols, maxItems),
    most_imported: mostImported(reader, maxItems),
    entry_points: entryPoints(reader, files, byLang.has('python'), maxItems),
    hubs: hubs(reader, maxItems),
    communities: communitiesOf(reader, maxItems),
    hotspots: reader.ctx.engine
      .analyze('hotspots', { threshold: 0, limit: maxItems }, { repo: reader.ctx.repo })
      .hotspots.map((h) => ({ qualified: h.node.qual_name, kind: h.node.kind, path: h.node.file_path, line: h.node.start_line, score: h.score })),
    tests: {
      test_files: testFiles,
      file_share: share(testFiles, sourceFiles),
      test_symbols: testSymbols,
      symbol_share: share(testSymbols, totalSymbols),
    },
  };
}
