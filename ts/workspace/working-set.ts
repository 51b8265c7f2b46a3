/**
 * What one session has consumed — symbols and files it read, and what it wrote — and the
 * `stale_refs` channel over it: when a rebuild touches a file of the set, each entry there is
 * fingerprinted again (a symbol's source lines, a file's bytes) and only entries whose fingerprint
 * moved are pushed. A session that read `parse` and then saw `format` in the same file change hears
 * nothing; a session whose `parse` was rewritten, moved or deleted hears exactly that.
 *
 * Fingerprints are taken while the channel is on: at subscription for what was consumed before,
 * and synchronously at each later read (so a change right after the read is never mistaken for
 * the baseline).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GraphEvent } from './channels';
import type { ToolContext } from './context';

/** One symbol or file the session consumed. */
export interface WorkingEntry {
  kind: 'symbol' | 'file';
  /** The symbol id, or the repository-relative path of a file. */
  key: string;
  /** Repository-relative path of the file it lives in. */
  path: string;
  /** The repository's root; empty when the tool that recorded it did not say (matches any root). */
  root: string;
  via: 'viewed' | 'modified';
  tool: string;
  at: number;
  /** Hash of the symbol's lines or the file's bytes when last checked (`missing`: gone); set while tracked. */
  fingerprint?: string;
}

/** A consumed entry a rebuild changed (`notifications/stale_refs` rows). */
export interface StaleRef {
  kind: 'symbol' | 'file';
  id?: string;
  path: string;
  via: 'viewed' | 'modified';
  /** `modified` (its text changed), `moved` (now in another file or place with other text), `removed`/`deleted` (gone). */
  change: 'modified' | 'moved' | 'removed' | 'deleted';
  /** Where the symbol is now (1-based lines), when it still exists. */
  line?: number;
  end_line?: number;
}

/** Most entries a session's working set keeps (the least recently consumed go first). */
const MAX_ENTRIES = 2000;

/** Tools whose answers put the symbols they return in the working set. */
const SYMBOL_VIEW_TOOLS: ReadonlySet<string> = new Set(['get_symbol', 'get_symbol_source', 'batch_symbols', 'get_editing_context']);
/** Tools whose answers put the file they read in the working set. */
const FILE_VIEW_TOOLS: ReadonlySet<string> = new Set(['read_file']);

/** How the tracker reaches a repository's graph (the session's own, or another of its workspace). */
export type ContextOf = (root: string) => Promise<ToolContext | undefined>;

/** A session's working set. */
export class WorkingSet {
  private readonly entries = new Map<string, WorkingEntry>();
  /** The context fingerprints are taken with while `stale_refs` is on. */
  private tracking: ((entry: WorkingEntry, ctx?: ToolContext) => void) | undefined;

  /** Entries now, most recent last. */
  list(): WorkingEntry[] {
    return [...this.entries.values()];
  }

  /** Records that `tool` answered `answer` to `args` in `ctx`'s repository (reads only). */
  noteAnswer(ctx: ToolContext, tool: string, args: Record<string, unknown>, answer: unknown): void {
    if (FILE_VIEW_TOOLS.has(tool)) {
      const rel = typeof args.path === 'string' ? args.path : undefined;
      if (rel) this.note({ kind: 'file', key: rel, path: rel, root: ctx.root, via: 'viewed', tool, at: Date.now() }, ctx);
      return;
    }
    if (!SYMBOL_VIEW_TOOLS.has(tool) || typeof answer !== 'object' || answer === null) return;
    for (const symbol of symbolsOf(answer as Record<string, unknown>)) {
      this.note({ kind: 'symbol', key: symbol.id, path: symbol.path, root: ctx.root, via: 'viewed', tool, at: Date.now() }, ctx);
    }
  }

  /** Records a write by this session (a symbol id or a file path; the root when the writer knows it). */
  noteEdit(kind: 'symbol' | 'file', key: string, file: string, tool: string, root = ''): void {
    this.note({ kind, key, path: file, root, via: 'modified', tool, at: Date.now() });
  }

  private note(entry: WorkingEntry, ctx?: ToolContext): void {
    const id = `${entry.root}\0${entry.kind}\0${entry.key}`;
    const previous = this.entries.get(id);
    this.entries.delete(id);
    // A write keeps its standing over a later read of the same thing.
    const kept: WorkingEntry = previous?.via === 'modified' ? { ...entry, via: 'modified' } : entry;
    this.entries.set(id, kept);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.tracking?.(kept, ctx);
  }

  /**
   * Starts the `stale_refs` tracking: fingerprints what is in the set now and what is added later,
   * and on each rebuild (`onGraph`) pushes the consumed entries whose fingerprint moved. Returns the stop.
   */
  track(contextOf: ContextOf, onGraph: (listener: (event: GraphEvent) => void) => () => void, push: (event: GraphEvent, refs: StaleRef[]) => void): () => void {
    this.tracking = (entry, ctx) => {
      if (ctx) fingerprintNow(entry, ctx, new Map());
      else void contextOf(entry.root).then((c) => c && entry.fingerprint === undefined && fingerprintNow(entry, c, new Map()), () => undefined);
    };
    const baseline = Promise.all(
      this.list().map(async (entry) => {
        const ctx = await contextOf(entry.root).catch(() => undefined);
        if (ctx && entry.fingerprint === undefined) fingerprintNow(entry, ctx, new Map());
      }),
    );
    let stopped = false;
    const stopGraph = onGraph((event) => {
      void baseline.then(async () => {
        if (stopped) return;
        const refs = await this.staleAfter(event, contextOf);
        if (refs.length > 0 && !stopped) push(event, refs);
      });
    });
    return () => {
      stopped = true;
      this.tracking = undefined;
      stopGraph();
      for (const entry of this.entries.values()) delete entry.fingerprint;
    };
  }

  /** The entries of `event`'s repository in its files (all of them after a whole pass) whose fingerprint moved; updates them. */
  private async staleAfter(event: GraphEvent, contextOf: ContextOf): Promise<StaleRef[]> {
    const whole = event.files_truncated || event.files.length === 0;
    const files = new Set(event.files);
    const candidates = this.list().filter((e) => (e.root === '' || e.root === event.root) && (whole || files.has(e.path)));
    if (candidates.length === 0) return [];
    const ctx = await contextOf(event.root).catch(() => undefined);
    if (!ctx) return [];
    const texts = new Map<string, string | null>();
    const refs: StaleRef[] = [];
    for (const entry of candidates) {
      if (entry.fingerprint === undefined) {
        fingerprintNow(entry, ctx, texts);
        continue;
      }
      const now = fingerprint(entry, ctx, texts);
      if (now.hash === entry.fingerprint) continue;
      entry.fingerprint = now.hash;
      if (entry.kind === 'file') {
        refs.push({ kind: 'file', path: entry.path, via: entry.via, change: now.hash === MISSING ? 'deleted' : 'modified' });
        continue;
      }
      const node = now.node;
      if (!node) {
        refs.push({ kind: 'symbol', id: entry.key, path: entry.path, via: entry.via, change: 'removed' });
        continue;
      }
      const moved = node.path !== entry.path;
      refs.push({ kind: 'symbol', id: entry.key, path: node.path, via: entry.via, change: moved ? 'moved' : 'modified', line: node.start_line, end_line: node.end_line });
      entry.path = node.path;
    }
    return refs;
  }
}

/** The fingerprint of something gone. */
const MISSING = 'missing';

/** Takes `entry`'s fingerprint now (reading each file once per `texts`). */
function fingerprintNow(entry: WorkingEntry, ctx: ToolContext, texts: Map<string, string | null>): void {
  entry.fingerprint = fingerprint(entry, ctx, texts).hash;
}

/** A symbol's lines (with its path and span, so a move counts) or a file's bytes, hashed; `missing` when gone. */
function fingerprint(entry: WorkingEntry, ctx: ToolContext, texts: Map<string, string | null>): { hash: string; node?: { path: string; start_line: number; end_line: number } } {
  const read = (rel: string): string | null => {
    if (!texts.has(rel)) {
      let text: string | null;
      try {
        text = fs.readFileSync(path.join(ctx.root, rel), 'utf8');
      } catch {
        text = null;
      }
      texts.set(rel, text);
    }
    return texts.get(rel) ?? null;
  };
  if (entry.kind === 'file') {
    const text = read(entry.path);
    return { hash: text === null ? MISSING : hash(text) };
  }
  let node;
  try {
    node = ctx.engine.getNode(ctx.repo, entry.key);
  } catch {
    node = null;
  }
  if (!node) return { hash: MISSING };
  const text = read(node.path);
  const lines = text === null ? '' : text.split('\n').slice(node.start_line - 1, node.end_line).join('\n');
  return { hash: hash(`${node.path}\n${lines}`), node };
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/**
 * The `{id, path}` symbols an answer carries: its node (`node` for get_symbol and
 * get_symbol_source, `symbol` for get_editing_context), or each row's `node` under `symbols`
 * (batch_symbols). A node's path is its `file_path`.
 */
function symbolsOf(answer: Record<string, unknown>): { id: string; path: string }[] {
  const out: { id: string; path: string }[] = [];
  const take = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    const v = value as Record<string, unknown>;
    if (typeof v.id === 'string' && typeof v.file_path === 'string') out.push({ id: v.id, path: v.file_path });
  };
  take(answer.node ?? answer.symbol);
  if (Array.isArray(answer.symbols)) {
    for (const row of answer.symbols) {
      const r = row as Record<string, unknown> | null;
      take(r?.node ?? r?.symbol);
    }
  }
  return out;
}
