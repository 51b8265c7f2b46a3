/**
 * Shared plumbing of the agent-facing context tools (`ts/tools/context.ts`): a per-call reader
 * that memoises engine lookups, safe source reading, token estimates and budget packing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QueryError } from '../engine/query';
import type {
  GetCallChainResult,
  GetCallersResult,
  GetFileSummaryResult,
  GetSymbolResult,
  NodeJson,
  NodeSummary,
  SymbolHit,
} from '../engine/engine';
import { rerankByFeedback } from './feedback-board';
import { repoNameOf, ToolInputError } from './registry';
import { type ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';

/** Bytes per estimated token (the usual rule of thumb for code and JSON). */
export const BYTES_PER_TOKEN = 4;

/** Estimated tokens of a value as the MCP server sends it (compact JSON). */
export function estimateTokens(value: unknown): number {
  return Math.ceil(jsonBytes(value) / BYTES_PER_TOKEN);
}

/** Bytes of a value serialised as compact JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** `start-end` line range of a node, the compact form rows use. */
export function lineRange(n: { start_line: number; end_line: number }): string {
  return n.end_line > n.start_line ? `${n.start_line}-${n.end_line}` : `${n.start_line}`;
}

/** The failure of one sub-lookup as a row field, so one bad id does not fail a batch. */
export interface RowError {
  code: string;
  message: string;
}

/** Turns an engine or input error into a row error; anything else is rethrown (a real bug). */
export function rowError(error: unknown): RowError {
  if (error instanceof QueryError || error instanceof ToolInputError) return { code: error.code, message: error.message };
  throw error;
}

/** Lines of a source slice. */
export interface SourceSlice {
  start_line: number;
  end_line: number;
  text: string;
  /** Present (true) when the slice stops before the requested end line. */
  truncated?: boolean;
}

/**
 * Engine lookups for one tool call, memoised: the context tools ask for the same symbol, file
 * or caller list from several angles, and every native call parses a JSON string.
 */
export class ContextReader {
  private name: string | undefined;
  private realRoot: string | undefined;
  private readonly symbols = new Map<string, GetSymbolResult>();
  private readonly nodes = new Map<string, NodeJson | null>();
  private readonly fileLines = new Map<string, string[] | null>();
  private readonly fileSyms = new Map<string, NodeJson[]>();

  constructor(readonly ctx: ToolContext) {}

  /** The repository name (the first segment of every node id). */
  repoName(): string {
    this.name ??= repoNameOf(this.ctx);
    return this.name;
  }

  /** Runs one engine query against this repository (typed by `QueryToolMap`). */
  query<T>(tool: string, args: object): T {
    const answer = this.ctx.engine.query<T>(tool, args, { repo: this.ctx.repo });
    // Every context tool searches through here: feedback ranks their candidates too.
    return tool === 'search_symbols' ? rerankByFeedback(this.repoName(), answer) : answer;
  }

  /** `get_symbol`, memoised by the argument and by the resolved id. */
  symbol(id: string): GetSymbolResult {
    const hit = this.symbols.get(id);
    if (hit) return hit;
    const found = this.query<GetSymbolResult>('get_symbol', { id });
    this.symbols.set(id, found);
    this.symbols.set(found.node.id, found);
    return found;
  }

  /** One node in full (with test runner and role), or null. */
  node(id: string): NodeJson | null {
    if (!this.nodes.has(id)) this.nodes.set(id, this.ctx.engine.getNode(this.ctx.repo, id));
    return this.nodes.get(id) ?? null;
  }

  /** Caches nodes fetched in bulk (a file listing), so later lookups of them cost nothing. */
  rememberNodes(nodes: readonly NodeJson[]): void {
    for (const n of nodes) this.nodes.set(n.id, n);
  }

  /** The file node of a repository-relative path, or null when the path is not indexed. */
  fileNode(rel: string): NodeJson | null {
    return this.node(`${this.repoName()}/${rel}`);
  }

  /** Whether a repository file is test code (the engine marks test files on their file node). */
  isTestFile(rel: string): boolean {
    return this.fileNode(rel)?.is_test === true;
  }

  /** Whether a symbol is test code: a test itself, or declared in a test file (helpers, fixtures). */
  isTestCode(n: { is_test?: boolean; file_path: string }): boolean {
    return n.is_test === true || (n.file_path !== '' && this.isTestFile(n.file_path));
  }

  /** The symbols a file declares (file node first), in source order. */
  fileSymbols(rel: string): NodeJson[] {
    let syms = this.fileSyms.get(rel);
    if (!syms) {
      syms = this.ctx.engine.fileSymbols(this.ctx.repo, rel);
      this.fileSyms.set(rel, syms);
    }
    return syms;
  }

  /** Direct callers (1 hop) with tiers. */
  callers(id: string, depth = 1, limit = 50): GetCallersResult {
    return this.query<GetCallersResult>('get_callers', { id, depth, limit });
  }

  /** Direct callees (1 hop) with tiers and the calls that stayed unresolved. */
  callees(id: string, limit = 50): GetCallChainResult {
    return this.query<GetCallChainResult>('get_call_chain', { id, depth: 1, limit });
  }

  /** A file's imports and counts (symbols are not needed, so the symbol list is kept short). */
  fileSummary(rel: string): GetFileSummaryResult {
    return this.query<GetFileSummaryResult>('get_file_summary', { path: rel, limit: 1 });
  }

  /** The repository root with symlinks resolved (paths are checked against it). */
  root(): string {
    this.realRoot ??= fs.realpathSync(this.ctx.root);
    return this.realRoot;
  }

  /** A repository file's lines, or null when it cannot be read (deleted, outside, binary). */
  lines(rel: string): string[] | null {
    if (this.fileLines.has(rel)) return this.fileLines.get(rel) ?? null;
    let lines: string[] | null = null;
    try {
      const bytes = readSource(this.ctx, rel, () => {
        const real = fs.realpathSync(path.resolve(this.root(), rel));
        if (!real.startsWith(this.root() + path.sep) || !fs.statSync(real).isFile()) throw new Error('not a file inside the repository');
        return fs.readFileSync(real);
      });
      if (!bytes.subarray(0, 8192).includes(0)) {
        lines = bytes.toString('utf8').split('\n');
        if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      }
    } catch {
      lines = null;
    }
    this.fileLines.set(rel, lines);
    return lines;
  }

  /** Lines `start..=end` of a file, cut (at a line boundary) once `maxBytes` would be passed. */
  source(rel: string, start: number, end: number, maxBytes: number): SourceSlice | null {
    const lines = this.lines(rel);
    if (!lines || start < 1 || start > lines.length) return null;
    const to = Math.min(end, lines.length);
    let text = '';
    let bytes = 0;
    let last = start - 1;
    for (let i = start; i <= to; i++) {
      const line = `${lines[i - 1]}\n`;
      const size = Buffer.byteLength(line, 'utf8');
      if (bytes + size > maxBytes) break;
      text += line;
      bytes += size;
      last = i;
    }
    if (last < start) return null;
    return last < to ? { start_line: start, end_line: last, text, truncated: true } : { start_line: start, end_line: last, text };
  }

  /** The source of a symbol summary, or null for external or file-less nodes. */
  symbolSource(n: NodeSummary, maxBytes: number): SourceSlice | null {
    if (!n.file_path || n.start_line === 0 || n.external) return null;
    return this.source(n.file_path, n.start_line, n.end_line, maxBytes);
  }

  /**
   * The nearest directory at or above `relDir` (up to the root) holding one of `markers`, as a
   * repository-relative path (`.` for the root), or undefined when none does.
   */
  nearestDirWith(relDir: string, markers: readonly string[]): string | undefined {
    let dir = relDir === '' ? '.' : relDir;
    for (;;) {
      for (const m of markers) {
        if (fs.existsSync(path.join(this.root(), dir, m))) return dir;
      }
      if (dir === '.') return undefined;
      const parent = path.posix.dirname(dir);
      dir = parent === '' ? '.' : parent;
    }
  }
}

/** Validates a budget pair and returns the tighter one in bytes (tokens count `BYTES_PER_TOKEN` bytes). */
export function byteBudget(maxBytes: number | undefined, maxTokens: number | undefined, defaultBytes: number): number {
  const candidates = [maxBytes, maxTokens === undefined ? undefined : maxTokens * BYTES_PER_TOKEN].filter(
    (v): v is number => v !== undefined,
  );
  return candidates.length === 0 ? defaultBytes : Math.min(...candidates);
}

/** The repository of a node id (`<repo>/<path>::<symbol>`, its first segment); empty for a stub (`external::…`). */
export function repoPrefixOf(id: string): string {
  const slash = id.indexOf('/');
  if (slash < 0) return '';
  const repo = id.slice(0, slash);
  return repo.includes('::') ? '' : repo;
}

/** The summary form of a full node (file symbols come back as `NodeJson`). */
export function summaryOf(n: NodeJson): NodeSummary {
  return {
    id: n.id,
    kind: n.kind as NodeSummary['kind'],
    name: n.name,
    qual_name: n.qualified,
    file_path: n.path,
    start_line: n.start_line,
    end_line: n.end_line,
    repo_prefix: repoPrefixOf(n.id),
    ...(n.language ? { language: n.language as NodeSummary['language'] } : {}),
    ...(n.signature ? { signature: n.signature } : {}),
    ...(n.is_test ? { is_test: true } : {}),
  };
}

/**
 * The node a `search_symbols` hit found. A hit is a row, not a node: it names the node's fields
 * `qualified`, `path`, `line` and `sig`, and carries score fields a node does not (left out here).
 * Search never finds external stubs, so the node has no `external`.
 */
export function nodeOfHit(h: SymbolHit): NodeSummary {
  return {
    id: h.id,
    kind: h.kind,
    name: h.name,
    qual_name: h.qualified,
    file_path: h.path,
    start_line: h.line,
    end_line: h.end_line,
    repo_prefix: repoPrefixOf(h.id),
    ...(h.language !== undefined ? { language: h.language } : {}),
    ...(h.flavor !== undefined ? { flavor: h.flavor } : {}),
    ...(h.sig !== undefined ? { signature: h.sig } : {}),
    ...(h.exported ? { exported: true } : {}),
    ...(h.is_test ? { is_test: true } : {}),
  };
}
