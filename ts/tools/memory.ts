/**
 * Memory: what an agent or a user wants back in a later session — free memories, decisions,
 * invariants, risk acknowledgements and notes — kept in the sidecar (SQLite under the gortex home)
 * and anchored to the symbols and files they are about.
 *
 * Anchors follow the code. Each keeps the symbol's name and a fingerprint of its text with its own
 * name left out; when an anchored id is gone from the graph, a recall looks for it in the same file
 * by name (a new owner) or by fingerprint (a rename), then elsewhere by name with the same
 * fingerprint (a move) — and re-points it (`moved`, the first id kept as `original`). When nothing
 * carries it on the anchor is flagged `missing` and the memory is still shown. gortex's own
 * `rename_symbol` / `move_symbol` re-point anchors as they write (`retargetAnchors`).
 *
 * A recall ranks by the words asked for (full-text, BM25) and by what the agent is looking at: the
 * symbols and files named in the call and the session's working set — an anchor on one of them,
 * in the same file, or one call away counts — then kind (invariants and risk acknowledgements
 * first) and recency.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { FindFilesResult, GetCallChainResult, GetCallersResult, GetSymbolResult, SearchSymbolsResult } from '../engine/engine';
import { MEMORY_KINDS, sidecarAt, type AnchorInput, type MemoryKind, type StoredAnchor, type StoredMemory } from '../engine/sidecar';
import { defineTool, repoNameOf, ToolInputError, type ToolDef } from './registry';
import type { ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';

/** Memory kinds an agent stores with `store_memory` (notes go through `save_note`). */
const STORED_KINDS = ['memory', 'decision', 'invariant', 'risk_ack'] as const;
/** Most anchors one memory may carry. */
const MAX_ANCHORS = 20;
/** Most characters of one memory's text. */
const MAX_BODY = 20_000;
/** Working-set entries that count as what the session is looking at. */
const FOCUS_FROM_SESSION = 20;
/** Rank bonus per kind: what must stay true outranks what was merely noted. */
const KIND_WEIGHT: Record<MemoryKind, number> = { invariant: 1, risk_ack: 1, decision: 0.5, memory: 0, note: 0 };

const ids = z.array(z.string().min(1)).max(MAX_ANCHORS);
const anchorInput = {
  symbols: ids.optional().describe('Symbols it is about: ids, Owner.name or names (resolved now, followed when they move)'),
  files: ids.optional().describe('Files it is about (repository-relative paths)'),
};

/** Identifier tokens of a text (for the name-free fingerprint). */
const TOKENS = /[A-Za-z0-9_$]+|\S/g;

/** A fingerprint of `text` with the identifier `name` blanked and whitespace ignored: the same before and after a rename. */
export function nameFreeFingerprint(text: string, name?: string): string {
  const tokens = text.match(TOKENS) ?? [];
  const normalized = tokens.map((t) => (t === name ? '\u0000' : t)).join(' ');
  return createHash('sha1').update(normalized).digest('hex').slice(0, 16);
}

/** A file's lines, read once per recall (through the session's overlay when it has one). */
class Lines {
  private readonly cache = new Map<string, string[] | null>();
  constructor(private readonly ctx: ToolContext) {}
  of(rel: string): string[] | null {
    let lines = this.cache.get(rel);
    if (lines === undefined) {
      try {
        lines = readSource(this.ctx, rel, () => fs.readFileSync(path.join(this.ctx.root, rel))).toString('utf8').split('\n');
      } catch {
        lines = null;
      }
      this.cache.set(rel, lines);
    }
    return lines;
  }
  /** A node's text (its own lines). */
  text(n: { path?: string; file_path?: string; start_line: number; end_line: number }): string | null {
    const lines = this.of((n.path ?? n.file_path)!);
    return lines ? lines.slice(Math.max(0, n.start_line - 1), n.end_line).join('\n') : null;
  }
}

/** The file id of a symbol id (`<repo>/<path>::X` → `<repo>/<path>`). */
function fileIdOf(id: string): string {
  const cut = id.indexOf('::');
  return cut < 0 ? id : id.slice(0, cut);
}

/** Repository-relative path of a file id. */
function relOf(ctx: ToolContext, fileId: string): string {
  const prefix = `${repoNameOf(ctx)}/`;
  return fileId.startsWith(prefix) ? fileId.slice(prefix.length) : fileId;
}

/** Resolves what the caller named into anchors (unknown names are an error naming them). */
function anchorsOf(ctx: ToolContext, symbols: readonly string[] = [], files: readonly string[] = []): AnchorInput[] {
  const lines = new Lines(ctx);
  const out: AnchorInput[] = [];
  for (const s of symbols) {
    const node = (ctx.engine.query('get_symbol', { id: s }, { repo: ctx.repo }) as GetSymbolResult).node;
    if (node.kind === 'file') {
      files = [...files, node.file_path];
      continue;
    }
    const text = node.file_path && node.start_line > 0 ? lines.text(node) : null;
    out.push({ kind: 'symbol', target: node.id, name: node.name, ...(text !== null ? { fingerprint: nameFreeFingerprint(text, node.name) } : {}) });
  }
  for (const f of files) {
    const rel = f.replace(/^\.\//, '');
    const node = ctx.engine.getNode(ctx.repo, `${repoNameOf(ctx)}/${rel}`) ?? ctx.engine.getNode(ctx.repo, rel);
    if (!node || node.kind !== 'file') throw new ToolInputError('not_found', `files: ${f} is not an indexed file of ${repoNameOf(ctx)} (give a repository-relative path, e.g. src/auth.ts)`);
    const text = lines.of(node.path);
    out.push({ kind: 'file', target: node.id, name: path.posix.basename(node.path), ...(text ? { fingerprint: nameFreeFingerprint(text.join('\n')) } : {}) });
  }
  const seen = new Set<string>();
  return out.filter((a) => !seen.has(a.target) && seen.add(a.target)).slice(0, MAX_ANCHORS);
}

/** Where a symbol anchor went, if anything in the graph carries it on. */
function followSymbol(ctx: ToolContext, a: StoredAnchor, lines: Lines): { target: string; name: string } | undefined {
  const fileId = fileIdOf(a.target);
  const file = ctx.engine.getNode(ctx.repo, fileId);
  const sameText = (n: { path?: string; file_path?: string; start_line: number; end_line: number; name: string }) => {
    if (!a.fingerprint) return false;
    const text = lines.text(n);
    return text !== null && nameFreeFingerprint(text, n.name) === a.fingerprint;
  };
  if (file) {
    const symbols = ctx.engine.fileSymbols(ctx.repo, file.path).filter((n) => n.kind !== 'file' && n.kind !== 'import');
    const byName = symbols.filter((n) => n.name === a.name);
    if (byName.length === 1) return { target: byName[0]!.id, name: byName[0]!.name };
    const renamed = symbols.filter(sameText);
    if (renamed.length === 1) return { target: renamed[0]!.id, name: renamed[0]!.name };
  }
  if (!a.name) return undefined;
  const found = ctx.engine.query('search_symbols', { query: a.name, limit: 20 }, { repo: ctx.repo }) as SearchSymbolsResult;
  const moved = found.results.filter((h) => h.name === a.name && sameText({ ...h, start_line: h.line }));
  return moved.length === 1 ? { target: moved[0]!.id, name: moved[0]!.name } : undefined;
}

/** Where a file anchor went: one indexed file of the same name with the same text. */
function followFile(ctx: ToolContext, a: StoredAnchor, lines: Lines): string | undefined {
  if (!a.fingerprint || !a.name) return undefined;
  const found = ctx.engine.query('find_files', { query: a.name, limit: 50 }, { repo: ctx.repo }) as FindFilesResult;
  const same = found.results.filter((f) => path.posix.basename(f.path) === a.name && nameFreeFingerprint((lines.of(f.path) ?? []).join('\n')) === a.fingerprint);
  return same.length === 1 ? `${repoNameOf(ctx)}/${same[0]!.path}` : undefined;
}

/**
 * Checks every anchor of `memories` (this repository's or global) against the graph: present ones
 * stay, moved ones are re-pointed, lost ones flagged; the store is updated and the memories
 * returned as they are now.
 */
function checkAnchors(ctx: ToolContext, memories: StoredMemory[]): StoredMemory[] {
  const repo = repoNameOf(ctx);
  const lines = new Lines(ctx);
  const updates: Parameters<ReturnType<typeof sidecarAt>['anchorsUpdate']>[0] = [];
  for (const m of memories) {
    if (m.repo !== repo && m.repo !== '') continue;
    for (const a of m.anchors) {
      if (!a.target.startsWith(`${repo}/`)) continue;
      const present = ctx.engine.getNode(ctx.repo, a.target) !== null;
      if (present) {
        if (a.status === 'missing') updates.push({ memory_id: m.id, ord: a.ord, target: a.target, status: a.target === a.original ? 'ok' : 'moved' });
        continue;
      }
      let to: { target: string; name?: string } | undefined;
      if (a.kind === 'symbol') to = followSymbol(ctx, a, lines);
      else {
        const file = followFile(ctx, a, lines);
        if (file) to = { target: file };
      }
      if (to) updates.push({ memory_id: m.id, ord: a.ord, target: to.target, status: 'moved', ...(to.name ? { name: to.name } : {}) });
      else if (a.status !== 'missing') updates.push({ memory_id: m.id, ord: a.ord, target: a.target, status: 'missing' });
    }
  }
  if (updates.length === 0) return memories;
  const store = sidecarAt();
  store.anchorsUpdate(updates);
  return store.memoryGet(memories.map((m) => m.id));
}

/**
 * Re-points the anchors of `repo`'s memories after gortex itself renamed or moved code (`from` a
 * symbol or file id, `to` its new id); returns how many moved. Never fails the write that called it.
 */
export function retargetAnchors(repo: string, from: string, to: string, name?: string): number {
  try {
    return from === to ? 0 : sidecarAt().anchorsRetarget(repo, from, to, name);
  } catch {
    // A store that cannot be opened must not fail a refactoring; the next recall follows the anchor.
    return 0;
  }
}

/** A memory as answers show it. */
function rowOf(m: StoredMemory, extra: Record<string, unknown> = {}) {
  const missing = m.anchors.filter((a) => a.status === 'missing').length;
  return {
    id: m.id,
    kind: m.kind,
    ...(m.title ? { title: m.title } : {}),
    text: m.body,
    ...(m.tags.length > 0 ? { tags: m.tags } : {}),
    ...(m.repo === '' ? { scope: 'global' } : {}),
    anchors: m.anchors.map((a) => ({
      kind: a.kind,
      id: a.target,
      status: a.status,
      ...(a.target !== a.original ? { was: a.original } : {}),
    })),
    ...(missing > 0 ? { flagged: `${missing} anchor${missing === 1 ? '' : 's'} no longer in the code: check the memory still holds` } : {}),
    updated: new Date(m.updated_at).toISOString(),
    ...extra,
  };
}

/**
 * What the caller is looking at: the symbols and files named in the call, else the session's
 * recent reads and writes. `files` are files looked at as such; `symbolFiles` the files of the
 * focus symbols (a memory there is "in the same file", not "about this").
 */
interface Focus {
  symbols: Set<string>;
  files: Set<string>;
  symbolFiles: Set<string>;
  from: string;
}

function focusOf(ctx: ToolContext, symbols: readonly string[], files: readonly string[]): Focus {
  const repo = repoNameOf(ctx);
  const focus: Focus = { symbols: new Set(), files: new Set(), symbolFiles: new Set(), from: 'arguments' };
  const addSymbol = (id: string) => {
    focus.symbols.add(id);
    focus.symbolFiles.add(fileIdOf(id));
  };
  for (const s of symbols) {
    const node = (ctx.engine.query('get_symbol', { id: s }, { repo: ctx.repo }) as GetSymbolResult).node;
    if (node.kind === 'file') focus.files.add(node.id);
    else addSymbol(node.id);
  }
  for (const f of files) focus.files.add(`${repo}/${f.replace(/^\.\//, '')}`);
  if (focus.symbols.size === 0 && focus.files.size === 0) {
    const recent = ctx.session?.store?.workingSet.list().slice(-FOCUS_FROM_SESSION) ?? [];
    for (const e of recent) {
      if (e.kind === 'symbol') addSymbol(e.key);
      else focus.files.add(`${repo}/${e.path}`);
    }
    focus.from = recent.length > 0 ? 'session working set' : 'none';
  }
  return focus;
}

/** Symbols one call away from the focus (callers and callees of up to ten focus symbols). */
function neighboursOf(ctx: ToolContext, focus: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const id of [...focus].slice(0, 10)) {
    try {
      const callers = ctx.engine.query('get_callers', { id, depth: 1, limit: 50 }, { repo: ctx.repo }) as GetCallersResult;
      for (const c of callers.callers) out.add(c.caller.id);
      const callees = ctx.engine.query('get_call_chain', { id, depth: 1, limit: 50 }, { repo: ctx.repo }) as GetCallChainResult;
      for (const n of callees.nodes) if (n.node.id !== id) out.add(n.node.id);
    } catch {
      // A focus id the graph no longer has (a stale working set) has no neighbours.
    }
  }
  return out;
}

/** Stores a memory of `kind` for `repo` (`''`: every repository), tagged with the calling session. */
function storeIn(ctx: ToolContext, kind: MemoryKind, repo: string, args: { content: string; title?: string | undefined; tags?: string[] | undefined }, anchors: AnchorInput[]): StoredMemory {
  return sidecarAt().memoryAdd({
    kind,
    repo,
    body: args.content,
    anchors,
    ...(args.title !== undefined ? { title: args.title } : {}),
    ...(args.tags !== undefined ? { tags: args.tags } : {}),
    ...(ctx.session?.store ? { session: ctx.session.store.id } : {}),
  });
}

/** Days since an epoch-ms time. */
function ageDays(ms: number): number {
  return Math.max(0, (Date.now() - ms) / 86_400_000);
}

/** The memory family. */
export function memoryTools(): ToolDef[] {
  const tools = [
    defineTool({
      name: 'store_memory',
      category: 'memory',
      effect: 'session_write',
      description:
        'Remember something for later sessions: a memory, a decision, an invariant (what must stay true) or a risk_ack (a risk accepted on purpose, with why), anchored to the symbols and files it is about. Anchors follow renames and moves; surface_memories brings it back when the agent works near them.',
      input: {
        content: z.string().min(1).max(MAX_BODY).describe('What to remember'),
        kind: z.enum(STORED_KINDS).default('memory').describe('memory (default), decision, invariant or risk_ack'),
        title: z.string().max(200).optional(),
        tags: z.array(z.string().min(1).max(50)).max(20).optional(),
        ...anchorInput,
        global: z.boolean().default(false).describe('Keep it for every repository, not only this one'),
      },
      handler: (ctx, args) => {
        const anchors = anchorsOf(ctx, args.symbols, args.files);
        if (args.kind === 'risk_ack' && anchors.length === 0) {
          throw new ToolInputError('invalid_argument', 'a risk_ack names the symbols or files whose risk it accepts (symbols or files)');
        }
        return { stored: rowOf(storeIn(ctx, args.kind, args.global ? '' : repoNameOf(ctx), args, anchors)) };
      },
    }),
    defineTool({
      name: 'save_note',
      category: 'memory',
      effect: 'session_write',
      description: "Jot a note for this and later sessions (findings, to-dos, where you stopped), optionally anchored to symbols and files; list_notes lists them, surface_memories finds them with the rest.",
      input: {
        content: z.string().min(1).max(MAX_BODY).describe('The note'),
        title: z.string().max(200).optional(),
        tags: z.array(z.string().min(1).max(50)).max(20).optional(),
        ...anchorInput,
      },
      handler: (ctx, args) => {
        return { saved: rowOf(storeIn(ctx, 'note', repoNameOf(ctx), args, anchorsOf(ctx, args.symbols, args.files))) };
      },
    }),
    defineTool({
      name: 'surface_memories',
      category: 'memory',
      effect: 'read',
      description:
        "Recall memories, decisions, invariants, risk acknowledgements and notes relevant now: ranked by the words in query and by what you are looking at (symbols/files given, else the session's recent reads: anchored there, in the same file, or one call away), invariants and risk_acks first, recent before old. Anchors that moved are followed; those whose code is gone are flagged.",
      input: {
        query: z.string().max(1000).optional().describe('Words to match in the memories'),
        ...anchorInput,
        kinds: z.array(z.enum(MEMORY_KINDS)).max(5).optional().describe('Only these kinds'),
        limit: z.number().int().min(1).max(100).default(10),
        all_repos: z.boolean().default(false).describe("Also other repositories' memories"),
        mark_accessed: z.boolean().default(true).describe('Count this as the memories being read (recency of use)'),
        order: z.enum(['relevance', 'recent']).default('relevance').describe('relevance (default) or recent (newest first)'),
      },
      handler: (ctx, args) => {
        const repo = repoNameOf(ctx);
        const focus = focusOf(ctx, args.symbols ?? [], args.files ?? []);
        const near = neighboursOf(ctx, focus.symbols);
        const store = sidecarAt();
        const hits = store.memorySearch({
          repo,
          limit: Math.max(200, args.limit * 4),
          all_repos: args.all_repos,
          ...(args.query !== undefined ? { text: args.query } : {}),
          ...(args.kinds ? { kinds: args.kinds } : {}),
          targets: [...focus.symbols, ...near],
          files: [...focus.files, ...focus.symbolFiles],
        });
        const checked = new Map(checkAnchors(ctx, hits.map((h) => h.memory)).map((m) => [m.id, m]));
        const best = Math.max(0, ...hits.map((h) => h.text_score ?? 0));
        const ranked = hits.map((h) => {
          const m = checked.get(h.memory.id) ?? h.memory;
          const why: string[] = [];
          let score = 0;
          if (h.text_score !== undefined && best > 0) {
            score += 3 * (h.text_score / best);
            why.push('matches the query');
          }
          const targets = m.anchors.map((a) => a.target);
          if (targets.some((t) => focus.symbols.has(t) || focus.files.has(t))) {
            score += 4;
            why.push(`anchored to what you are looking at (${focus.from})`);
          } else if (targets.some((t) => near.has(t))) {
            score += 2;
            why.push('anchored one call away from what you are looking at');
          } else if (targets.some((t) => focus.files.has(fileIdOf(t)) || focus.symbolFiles.has(fileIdOf(t)))) {
            score += 1.5;
            why.push('anchored in a file you are looking at');
          }
          score += KIND_WEIGHT[m.kind] + Math.exp(-ageDays(m.updated_at) / 30);
          return { m, score: Math.round(score * 1000) / 1000, why };
        });
        ranked.sort((a, b) => (args.order === 'recent' ? 0 : b.score - a.score) || b.m.updated_at - a.m.updated_at || b.m.id - a.m.id);
        const shown = ranked.slice(0, args.limit);
        if (args.mark_accessed) store.memoryMarkAccessed(shown.map((r) => r.m.id));
        return {
          memories: shown.map((r) => rowOf(r.m, { score: r.score, why: r.why })),
          total: ranked.length,
          truncated: ranked.length > shown.length,
          focus: { from: focus.from, symbols: focus.symbols.size, files: new Set([...focus.files, ...focus.symbolFiles]).size },
          flagged: shown.filter((r) => r.m.anchors.some((a) => a.status === 'missing')).length,
        };
      },
    }),
    defineTool({
      name: 'list_notes',
      category: 'memory',
      effect: 'read',
      description: "Notes saved with save_note for this repository, newest first (this session's only with session_only).",
      input: {
        session_only: z.boolean().default(false).describe("Only this session's notes"),
        limit: z.number().int().min(1).max(200).default(20),
        offset: z.number().int().min(0).default(0),
      },
      handler: (ctx, args) => {
        const sessionId = ctx.session?.store?.id;
        if (args.session_only && !sessionId) throw new ToolInputError('invalid_argument', 'session_only needs an MCP session; outside one, list every note (session_only: false)');
        const { memories, total } = sidecarAt().memoryList({
          repo: repoNameOf(ctx),
          kinds: ['note'],
          limit: args.limit,
          offset: args.offset,
          ...(args.session_only ? { session: sessionId! } : {}),
        });
        const notes = checkAnchors(ctx, memories);
        return { notes: notes.map((m) => rowOf(m, m.session === sessionId && sessionId ? { this_session: true } : {})), total, truncated: args.offset + notes.length < total };
      },
    }),
    defineTool({
      name: 'edit_memory',
      category: 'memory',
      effect: 'session_write',
      description: "Change a stored memory or note: its text, title, tags, kind, or anchors (symbols/files given replace them all).",
      input: {
        id: z.number().int().min(1).describe('The memory id (from surface_memories or list_notes)'),
        content: z.string().min(1).max(MAX_BODY).optional(),
        title: z.string().max(200).optional().describe('"" clears it'),
        tags: z.array(z.string().min(1).max(50)).max(20).optional(),
        kind: z.enum(MEMORY_KINDS).optional(),
        ...anchorInput,
      },
      handler: (ctx, args) => {
        const anchors = args.symbols !== undefined || args.files !== undefined ? anchorsOf(ctx, args.symbols, args.files) : undefined;
        const m = sidecarAt().memoryUpdate({
          id: args.id,
          ...(args.content !== undefined ? { body: args.content } : {}),
          ...(args.title !== undefined ? { title: args.title } : {}),
          ...(args.tags !== undefined ? { tags: args.tags } : {}),
          ...(args.kind !== undefined ? { kind: args.kind } : {}),
          ...(anchors !== undefined ? { anchors } : {}),
        });
        return { edited: rowOf(m) };
      },
    }),
    defineTool({
      name: 'forget_memory',
      category: 'memory',
      effect: 'session_write',
      description: 'Delete memories or notes by id, for good.',
      input: { ids: z.array(z.number().int().min(1)).min(1).max(100).describe('Memory ids to delete') },
      handler: (_ctx, args) => {
        const gone = sidecarAt().memoryDelete(args.ids);
        return { forgotten: gone, ...(gone.length < args.ids.length ? { unknown_ids: args.ids.filter((id) => !gone.includes(id)) } : {}) };
      },
    }),
  ];
  return tools as unknown as ToolDef[];
}
