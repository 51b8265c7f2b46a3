/**
 * Semantic enrichment: the language servers confirm, correct or add the resolver's call edges.
 * For each indexed file a server serves, every call site (the callee's name, as the extractor saw
 * it) is asked `textDocument/definition`; a definition inside the repository becomes the site's
 * `lsp_resolved` target, one outside it (a library, the standard library) or at a parameter or
 * local of the caller drops the resolver's guess (and any guess by name); a call to an interface or abstract method also asks `textDocument/implementation`, whose
 * answers become `lsp_dispatch` edges. Answers go to the engine per batch of files
 * (`Engine.applySemantic`), which resolves those files again with them and counts how the
 * resolver's own answers fared (confirmed, corrected, added, dropped).
 *
 * A pass runs in the background after a repository opens and for the files of each re-index
 * and of the files whose answers point into them (a newer pass supersedes: the older is `abandoned`), one file at a time,
 * holding the server's turn only while a file is lent to it. It is opt-in — `lsp.enrich: true` in
 * the configuration or `GORTEX_LSP_ENRICH=1` — because it starts a language server per language
 * of every repository opened. Answers hold for the content they were made for: an edited file
 * falls back to the resolver until its next pass.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Engine, FileCallSites, NodeJson, SemanticCounts, SemanticFile, SemanticSite, SemanticTarget } from '../engine/engine';
import { loadConfig } from '../config/config';
import { lspPool, requestDeadlineMs } from './pool';
import { specFor } from './specs';
import { pathUri, uriPath, type LspServer } from './server';

/** Where a pass stands. */
export type EnrichmentState = 'running' | 'completed' | 'partial' | 'abandoned' | 'failed';

/** One server's enrichment of one repository (`index_health.semantic_enrichment`). */
export interface EnrichmentStatus {
  server: string;
  state: EnrichmentState;
  files_total: number;
  files_done: number;
  /** Call sites asked and those the server answered with a definition. */
  sites_asked: number;
  sites_answered: number;
  /** Files the server could not answer (timeouts, errors). */
  files_failed: number;
  started_at: string;
  wall_ms: number;
  /** The whole repository's counts after the last batch applied. */
  counts?: SemanticCounts;
  error?: string;
  /** Times the server stopped mid-pass (memory cap, crash) and a fresh one took the files left. */
  server_restarts?: number;
}

/** Files whose answers are applied together (one re-resolution of the batch). */
const BATCH_FILES = 40;
/** Definition requests in flight per file. */
const IN_FLIGHT = 8;
/** Times a pass takes a fresh server after its server stopped (memory cap, crash) before it gives up. */
const PASS_RESTARTS = 2;
/** Largest file lent to a server for enrichment. */
const MAX_FILE_BYTES = 1024 * 1024;

/** Whether enrichment is on for the repository at `root`: `GORTEX_LSP_ENRICH`, else `lsp.enrich`. */
export function enrichmentEnabled(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = env.GORTEX_LSP_ENRICH;
  if (flag !== undefined && flag !== '') return flag === '1' || flag.toLowerCase() === 'true';
  try {
    return loadConfig(root).lspEnrich === true;
  } catch {
    return false;
  }
}

/** A 0-based byte column of `line` as the UTF-16 offset LSP positions use. */
function utf16Column(line: string, byteCol: number): number {
  return Buffer.from(line, 'utf8').subarray(0, byteCol).toString('utf8').length;
}

/** The identifier starting at a 0-based UTF-16 `character` of `line` (a definition's name). */
function identifierAt(line: string, character: number): string | undefined {
  const match = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_$]*/u.exec(line.slice(character));
  return match?.[0];
}

/** An LSP `Location` or `LocationLink`: where it points (the name's position for a link). */
function pointOf(loc: unknown): { uri: string; line: number; character: number } | undefined {
  const l = loc as { uri?: string; range?: PositionRange; targetUri?: string; targetSelectionRange?: PositionRange };
  if (typeof l?.targetUri === 'string' && l.targetSelectionRange) return { uri: l.targetUri, ...l.targetSelectionRange.start };
  if (typeof l?.uri === 'string' && l.range) return { uri: l.uri, ...l.range.start };
  return undefined;
}

interface PositionRange {
  start: { line: number; character: number };
}

/** One repository's passes. */
interface RepoEnrichment {
  root: string;
  repo: string;
  engine: Engine;
  statuses: Map<string, EnrichmentStatus>;
  /** Bumped by every new pass and by `stop`: a pass that sees another value has been superseded. */
  generation: number;
  /** Files whose answers point into a file (by the target's path): asked again when it changes. */
  dependents: Map<string, Set<string>>;
  /** The other way round: the files each file's answers point into (to forget them on its next answers). */
  targets: Map<string, Set<string>>;
  chain: Promise<void>;
}

/** The process's enrichment passes, by repository root. */
export class Enricher {
  private readonly repos = new Map<string, RepoEnrichment>();

  /**
   * Enriches `files` of the repository at `root` (all its indexed files when absent), after the
   * passes already queued for it. Returns the pass (tests await it; callers need not).
   */
  schedule(root: string, engine: Engine, repo: string, files?: readonly string[]): Promise<void> {
    let r = this.repos.get(root);
    if (!r || r.engine !== engine) {
      r = { root, repo, engine, statuses: new Map(), generation: 0, dependents: new Map(), targets: new Map(), chain: Promise.resolve() };
      this.repos.set(root, r);
    }
    const target = r;
    // A changed file moves its definitions: the files whose answers point into it are asked again too.
    if (files) files = [...new Set([...files, ...files.flatMap((f) => [...(target.dependents.get(f) ?? [])])])];
    const generation = ++target.generation;
    // Superseded passes (older generations) stop at their next file and say so.
    target.chain = target.chain.then(() => this.pass(target, generation, files)).catch(() => undefined);
    return target.chain;
  }

  /** Stops the repository's passes (it closed); their status says `abandoned`. */
  stop(root: string): void {
    const r = this.repos.get(root);
    if (!r) return;
    r.generation++;
    this.repos.delete(root);
  }

  /** The repository's per-server status (empty when enrichment never ran there). */
  status(root: string): EnrichmentStatus[] {
    return [...(this.repos.get(root)?.statuses.values() ?? [])].map((s) => ({ ...s, ...(s.counts ? { counts: { ...s.counts } } : {}) }));
  }

  private async pass(r: RepoEnrichment, generation: number, only?: readonly string[]): Promise<void> {
    const indexed = r.engine.fileNodes(r.repo, []).map((n) => n.path);
    const wanted = only ? new Set(only) : undefined;
    const byServer = new Map<string, string[]>();
    for (const rel of indexed) {
      if (wanted && !wanted.has(rel)) continue;
      const spec = specFor(rel);
      if (!spec) continue;
      const list = byServer.get(spec.name);
      if (list) list.push(rel);
      else byServer.set(spec.name, [rel]);
    }
    for (const [name, files] of byServer) {
      const started = Date.now();
      const status: EnrichmentStatus = {
        server: name,
        state: 'running',
        files_total: files.length,
        files_done: 0,
        sites_asked: 0,
        sites_answered: 0,
        files_failed: 0,
        started_at: new Date(started).toISOString(),
        wall_ms: 0,
      };
      const previous = r.statuses.get(name);
      if (previous?.counts) status.counts = previous.counts;
      r.statuses.set(name, status);
      const superseded = (): boolean => r.generation !== generation;
      try {
        let server = await lspPool().serverFor(r.root, files[0]!);
        let batch: SemanticFile[] = [];
        const apply = (): void => {
          if (batch.length === 0) return;
          const report = r.engine.applySemantic(r.repo, batch);
          status.counts = report.counts;
          batch = [];
        };
        // A server answers definitions from its project once loaded: the first file asked waits for its diagnostics, which come after the load.
        const load = { awaited: false };
        for (const rel of files) {
          if (superseded()) break;
          // A kill is seen by the requests it fails before its exit is: wait for the exit, or the
          // next file would be asked of the dying server too and fail as well.
          if (server.dying) await server.untilExited(5_000);
          if (server.state === 'exited' || server.state === 'stopped') {
            // Killed (the memory cap) or crashed mid-pass: a fresh server takes the files left (its
            // memory starts over), a few times; past that the files left would all fail, so the pass ends.
            const why = lspPool().status(r.root).find((s) => s.server === name)?.last_error ?? `the server ${server.state}`;
            apply();
            if ((status.server_restarts ?? 0) >= PASS_RESTARTS) {
              throw new Error(`the ${name} language server stopped ${PASS_RESTARTS + 1} times, the last after ${status.files_done} of ${status.files_total} files: ${why}`);
            }
            status.server_restarts = (status.server_restarts ?? 0) + 1;
            server = await lspPool().serverFor(r.root, rel);
            load.awaited = false;
          }
          const answered = await this.file(r, server, rel, status, load).catch(() => undefined);
          status.files_done++;
          if (!answered) status.files_failed++;
          else {
            noteDependents(r, answered);
            if (answered.sites.length > 0) batch.push(answered);
          }
          if (batch.length >= BATCH_FILES) apply();
          status.wall_ms = Date.now() - started;
        }
        if (!superseded()) apply();
        status.state = superseded() ? 'abandoned' : status.files_failed > 0 ? 'partial' : 'completed';
      } catch (error) {
        status.state = 'failed';
        status.error = error instanceof Error ? error.message : String(error);
      }
      status.wall_ms = Date.now() - started;
      if (superseded()) return;
    }
  }

  /** Asks the server about every call site of one file; undefined when it could not be asked. */
  private async file(r: RepoEnrichment, server: LspServer, rel: string, status: EnrichmentStatus, load: { awaited: boolean }): Promise<SemanticFile | undefined> {
    let sites: FileCallSites;
    try {
      sites = r.engine.callSites(r.repo, rel);
    } catch {
      return undefined;
    }
    if (sites.sites.length === 0) return { path: rel, hash: sites.hash, sites: [] };
    const abs = path.join(r.root, rel);
    let text: string;
    try {
      const bytes = fs.readFileSync(abs);
      if (bytes.length > MAX_FILE_BYTES) return undefined;
      text = bytes.toString('utf8');
    } catch {
      return undefined;
    }
    const lines = text.split('\n');
    const deadline = requestDeadlineMs();
    const targets = new TargetReader(r);
    const pool = lspPool();
    const answers: SemanticSite[] = [];
    let failed = 0;
    // The file is lent to the server for its sites, then put back as it was (closed, usually);
    // a server that reads its workspace from the disk is only lent the first one, to wait for its load.
    const lend = !load.awaited || server.resolved.spec.readsWorkspace !== true;
    await pool.exclusive(server, () =>
      pool.withTexts(server, lend ? [[abs, text]] : [], async () => {
        const uri = pathUri(abs);
        if (!load.awaited) {
          load.awaited = true;
          await server.settledPublish(abs, deadline, 0);
        }
        const implementation = server.offers('textDocument/implementation', 'implementationProvider');
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < sites.sites.length) {
            const site = sites.sites[next++]!;
            const line = lines[site.line - 1];
            if (line === undefined) continue;
            const position = { line: site.line - 1, character: utf16Column(line, site.col) };
            status.sites_asked++;
            let found: unknown;
            try {
              found = await server.request('textDocument/definition', { textDocument: { uri }, position }, deadline);
            } catch {
              failed++;
              continue;
            }
            const answer = targets.answer(found, site.line, site.col);
            if (!answer) continue;
            status.sites_answered++;
            if (implementation && site.member && answer.targets?.length && targets.isAbstract(answer.targets[0]!)) {
              try {
                const impls = await server.request('textDocument/implementation', { textDocument: { uri }, position }, deadline);
                const dispatch = targets.answer(impls, site.line, site.col)?.targets ?? [];
                if (dispatch.length > 0) answer.dispatch = dispatch;
              } catch {
                /* no implementations known: the definition stands alone */
              }
            }
            answers.push(answer);
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      }),
    );
    // A file whose every request failed was not enriched; one with some answers was.
    if (failed > 0 && answers.length === 0) return undefined;
    return { path: rel, hash: sites.hash, sites: answers };
  }
}

/** Records which files `answered`'s targets live in, replacing what its earlier answers said. */
function noteDependents(r: RepoEnrichment, answered: SemanticFile): void {
  for (const target of r.targets.get(answered.path) ?? []) r.dependents.get(target)?.delete(answered.path);
  const now = new Set<string>();
  for (const site of answered.sites) {
    for (const t of [...(site.targets ?? []), ...(site.dispatch ?? [])]) if (t.path !== answered.path) now.add(t.path);
  }
  r.targets.set(answered.path, now);
  for (const target of now) {
    const set = r.dependents.get(target) ?? new Set<string>();
    set.add(answered.path);
    r.dependents.set(target, set);
  }
}

/** Turns servers' locations into repository targets (reading each target file once). */
class TargetReader {
  private readonly texts = new Map<string, string[] | null>();
  private readonly symbols = new Map<string, NodeJson[]>();

  constructor(private readonly r: RepoEnrichment) {}

  /** The site's answer from a definition/implementation result; undefined when it named nothing. */
  answer(found: unknown, line: number, col: number): SemanticSite | undefined {
    const list = Array.isArray(found) ? found : found ? [found] : [];
    const targets: SemanticTarget[] = [];
    let external = false;
    for (const loc of list) {
      const point = pointOf(loc);
      const abs = point ? uriPath(point.uri) : undefined;
      if (!point || !abs) continue;
      const rel = path.relative(this.r.root, abs).split(path.sep).join('/');
      if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split('/').includes('node_modules')) {
        external = true;
        continue;
      }
      const name = this.nameAt(rel, point.line, point.character);
      if (name) targets.push({ path: rel, line: point.line + 1, name });
    }
    if (targets.length === 0 && !external) return undefined;
    return { line, col, ...(targets.length > 0 ? { targets } : {}), ...(external && targets.length === 0 ? { external: true } : {}) };
  }

  /** Whether the target is a method of an interface, or abstract: calls to it dispatch. */
  isAbstract(target: SemanticTarget): boolean {
    const symbols = this.symbolsOf(target.path);
    const node = symbols
      .filter((s) => s.name === target.name && s.start_line <= target.line && target.line <= s.end_line)
      .sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line))[0];
    if (!node || node.kind !== 'method') return false;
    if (node.is_abstract) return true;
    const owner = node.qualified.includes('.') ? node.qualified.slice(0, node.qualified.lastIndexOf('.')) : undefined;
    return owner !== undefined && symbols.some((s) => s.qualified === owner && s.kind === 'interface');
  }

  private nameAt(rel: string, line: number, character: number): string | undefined {
    if (!this.texts.has(rel)) {
      try {
        this.texts.set(rel, fs.readFileSync(path.join(this.r.root, rel), 'utf8').split('\n'));
      } catch {
        this.texts.set(rel, null);
      }
    }
    const text = this.texts.get(rel)?.[line];
    return text === undefined ? undefined : identifierAt(text, character);
  }

  private symbolsOf(rel: string): NodeJson[] {
    let symbols = this.symbols.get(rel);
    if (!symbols) {
      try {
        symbols = this.r.engine.fileSymbols(this.r.repo, rel);
      } catch {
        symbols = [];
      }
      this.symbols.set(rel, symbols);
    }
    return symbols;
  }
}

let enricher: Enricher | undefined;

/** The process's enricher. */
export function enrichment(): Enricher {
  enricher ??= new Enricher();
  return enricher;
}
